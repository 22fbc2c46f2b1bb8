"""PEXESO: exact joinable-column search under a distance threshold on value embeddings.

Dong et al., ICDE 2021 [P]: every column S with jn(Q, S) = |{q in Q : exists x in S,
d(q, x) <= tau}| / |Q| >= T [P §II-B], and the q -> x mapping. Per partition [P §IV] and
batch of query vectors: block on the lake grid with Lemmas 3 and 5 [P Alg. 1], verify with
Lemmas 1 and 2 and a float32 matrix product with an exact margin [P Alg. 2], count each
(q, S) verdict once, accept at T and prune by Lemma 7 between batches.

Note:
    Deviations, each exact (the why and the figures: docs/algorithms/pexeso.md):
    - Lemmas 3 and 1 test one pivot at a time on the pairs still alive.
    - In each leaf, Lemma 1 on the leaf's sort pivot is a binary search (:func:`leaf_rows`).
    - A cell's box is the bounding box of its lake vectors, not the grid cell.
    - The query side is not gridded (vector-cell lemmas at every level; no quick browsing).
    - A lake vector is verified once per query vector, for all its columns.
    - Acceptance and Lemma 7 act between batches; filters keep a 1e-9 margin around tau.
    - ``plan="auto"`` scans by BLAS instead when the build's model predicts it cheaper.
    - tau defaults to the index's own value (a quantile of the build's distance profile,
      at least the embedder's typo floor), the current rule applied to the recorded profile.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .registry import Candidate, ParamSpec, SearchMethod
from ..index.pexeso_arrays import (MAX_KEY_BITS, PexesoPartition, default_tau, distances,
                                   leaf_coords, map_to_pivots, morton_keys)

EPS = 1e-9
DEFAULT_TAU = 0.12          # 6% of the maximum distance 2 [P §V]
DEFAULT_T = 0.6             # 60% of |Q| [P §VI-A]
QUERY_BATCHES = 16          # query vectors are verified in about this many batches ...
MIN_BATCH, MAX_BATCH = 8, 256   # ... of this many vectors each (Lemma 7 acts between batches)
PAIR_BUDGET = 1 << 16       # (query vector, cell or lake vector) pairs materialized at once
C_BF = 0.0071       # us per (query vector, lake vector) pair of the BLAS scan plan
DENSE_RATIO = 4             # matrix product when it computes <= 4x the needed dot products
U32 = 2.0 ** -24            # float32 unit roundoff


# ------------------------------------------------------------------------- helpers

def expand(owner, lo, hi):
    """(owner repeated, every index in [lo, hi)) for ranges lo..hi."""
    n = hi - lo
    idx = np.arange(int(n.sum()))
    idx += np.repeat(lo - (np.cumsum(n) - n), n)
    return np.repeat(owner, n), idx


def chunks(lengths: np.ndarray, budget: int):
    """[s, e) groups of consecutive items whose lengths sum to <= budget (>= 1 item each)."""
    cum = np.cumsum(lengths)
    s, n = 0, len(lengths)
    while s < n:
        base = cum[s - 1] if s else 0
        e = max(int(np.searchsorted(cum, base + budget, "right")), s + 1)
        yield s, min(e, n)
        s = e


def _sq_norms(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    return np.einsum("ij,ij->i", x, x)


def decide_by_dot(dot, qn, xn, tau: float, dim: int, q_exact, x_exact):
    """d(q, x) <= tau for pairs whose float32 dot product q.x is ``dot`` (|q|^2 = qn and
    |x|^2 = xn in float64). |q|^2 + |x|^2 - 2 q.x decides every pair farther than the
    rounding bound of a float32 dot product (gamma_dim |q||x|, doubled, plus the float32
    rounding of the operands) from tau^2; the rest get the exact distance, computed from
    ``q_exact(mask)`` and ``x_exact(mask)`` (the original vectors of those pairs).
    Returns (verdicts, number of exact checks)."""
    d2 = qn + xn - 2.0 * np.asarray(dot, dtype=np.float64)
    margin = 4.0 * (dim + 4) * U32 * np.sqrt(qn * xn) + 1e-12
    t2 = tau * tau
    yes = d2 <= t2 - margin
    band = ~yes & (d2 <= t2 + margin)
    n_band = int(band.sum())
    if n_band:
        yes[band] = distances(q_exact(band), x_exact(band)) <= tau
    return yes, n_band


def _dots(q32, qb, ql, r, tokens, vectors, stats):
    """float32 dot products of the (batch query ql, leaf-ordered row r) pairs by BLAS: one
    matrix product of the queries with their distinct rows when that product is dense
    enough, else one matrix-vector product per query vector over its rows (pairs grouped
    by query, so no query vector is copied per pair). Returns dot in pair order."""
    ru = np.unique(r)
    qu = np.unique(ql)
    if len(qu) * len(ru) <= DENSE_RATIO * len(ql):
        xu = np.asarray(vectors[tokens[ru]], dtype=np.float32)
        stats["dot_products"] += len(qu) * len(ru)
        return (q32[qb[qu]] @ xu.T)[np.searchsorted(qu, ql), np.searchsorted(ru, r)]
    stats["dot_products"] += len(ql)
    order = np.argsort(ql.astype(np.int32), kind="stable")
    qs = ql[order]
    x32 = np.asarray(vectors[tokens[r[order]]], dtype=np.float32)
    bounds = np.flatnonzero(np.diff(qs)) + 1
    dot = np.empty(len(ql), dtype=np.float32)
    for s, e in zip(np.r_[0, bounds], np.r_[bounds, len(qs)]):
        dot[order[s:e]] = x32[s:e] @ q32[qb[qs[s]]]
    return dot


class Layout:
    """Search-time views of a partition, derived once from its stored arrays: the lake
    vectors (rows) in leaf order, per-level cells with box, children and row ranges, and
    the row -> columns postings."""

    def __init__(self, part: PexesoPartition):
        P, m = part.n_pivots, part.levels
        self.P, self.m = P, m
        n = len(part.tokens)
        keys = morton_keys(leaf_coords(part.mapped, part.lo, part.hi, m), m) if n \
            else np.zeros(0, np.int64)
        order = np.argsort(keys, kind="stable")
        skeys = keys[order]
        mapped = np.asarray(part.mapped, dtype=np.float64)[order]
        # inside each leaf, rows sorted by the leaf's sort pivot (the pivot of widest spread
        # of its rows), so Lemma 1 on that pivot is a binary search (leaf_rows)
        leaf_of = np.cumsum(np.r_[False, skeys[1:] != skeys[:-1]]) if n else \
            np.zeros(0, np.int64)
        n_leaves = int(leaf_of[-1]) + 1 if n else 0
        if n:                                        # (a partition has |P| >= 1 pivots)
            cnt = np.bincount(leaf_of, minlength=n_leaves)
            spread = np.stack([np.bincount(leaf_of, mapped[:, p] ** 2, n_leaves) / cnt -
                               (np.bincount(leaf_of, mapped[:, p], n_leaves) / cnt) ** 2
                               for p in range(P)])
            self.leaf_pivot = np.argmax(spread, axis=0)
            sort_x = mapped[np.arange(n), self.leaf_pivot[leaf_of]]
            within = np.lexsort((sort_x, leaf_of))
            order, mapped = order[within], mapped[within]
            self.leaf_x = np.ascontiguousarray(sort_x[within])
        else:
            self.leaf_pivot = np.zeros(0, np.int64)
            self.leaf_x = np.zeros(0)
        self.tokens = np.asarray(part.tokens, dtype=np.int64)[order]
        self.mapped = np.ascontiguousarray(mapped.T)
        self.mapped32 = self.mapped.astype(np.float32)          # Lemma 1 in verification
        self.max_abs = float(np.abs(self.mapped).max()) if self.mapped.size else 0.0
        self.keys, self.box_lo, self.box_hi, self.row_lo, self.row_hi = {}, {}, {}, {}, {}
        self.child_lo, self.child_hi = {}, {}
        for j in range(1, m + 1):
            anc = skeys >> (P * (m - j))
            kj = np.unique(anc)
            self.keys[j] = kj
            self.row_lo[j] = np.searchsorted(anc, kj, "left")
            self.row_hi[j] = np.searchsorted(anc, kj, "right")
            # each cell's box is the bounding box of its own rows (inside the grid cell,
            # so Lemmas 3 and 5 hold for it, and tighter: vectors crowd inside cells)
            self.box_lo[j] = np.minimum.reduceat(self.mapped, self.row_lo[j], axis=1) \
                if n else np.zeros((P, 0))
            self.box_hi[j] = np.maximum.reduceat(self.mapped, self.row_lo[j], axis=1) \
                if n else np.zeros((P, 0))
        for j in range(1, m):
            parent = self.keys[j + 1] >> P
            self.child_lo[j] = np.searchsorted(parent, self.keys[j], "left")
            self.child_hi[j] = np.searchsorted(parent, self.keys[j], "right")
        pos = np.empty(n, np.int64)
        pos[order] = np.arange(n)
        erow = pos[np.asarray(part.ent_row, dtype=np.int64)]
        o = np.argsort(erow, kind="stable")
        self.rc_row = erow[o]
        self.rc_col = np.asarray(part.ent_col, dtype=np.int64)[o]
        self.rc_ptr = np.searchsorted(self.rc_row, np.arange(n + 1))

    def sq_norms(self, vectors) -> np.ndarray:
        """|x|^2 (float64) of the rows, from ``vectors`` (computed once per vectors array)."""
        key = id(vectors)
        if getattr(self, "_norms_key", None) != key:
            self._norms = np.concatenate([_sq_norms(vectors[self.tokens[s:s + 65536]])
                                          for s in range(0, len(self.tokens), 65536)]) \
                if len(self.tokens) else np.zeros(0)
            self._norms_key = key
        return self._norms

    def live(self, decided: np.ndarray | None = None):
        """Rows with an undecided column, and per level the cells holding such a row.
        Without ``decided``: every row and cell (cached)."""
        if decided is None:
            if getattr(self, "_all_live", None) is None:
                self._all_live = (np.ones(len(self.tokens), bool),
                                  {j: np.ones(len(k), bool) for j, k in self.keys.items()})
            return self._all_live
        rows = np.zeros(len(self.tokens), bool)
        rows[self.rc_row[~decided[self.rc_col]]] = True
        cum = np.concatenate([[0], np.cumsum(rows)])
        cells = {j: cum[self.row_hi[j]] > cum[self.row_lo[j]] for j in self.keys}
        return rows, cells


def _layout(part: PexesoPartition) -> Layout:
    lay = part.__dict__.get("_search_layout")
    if lay is None:
        lay = Layout(part)
        part.__dict__["_search_layout"] = lay
    return lay


# ------------------------------------------------------------------------- search

@dataclass
class PexesoResult:
    """Joinable columns of one search and how the search went."""
    columns: np.ndarray                  # column ids, joinable
    counts: np.ndarray                   # |Q_M| per column (a lower bound if early_accept)
    pairs: dict = field(default_factory=dict)   # column -> (query idx, token id, distance)
    stats: dict = field(default_factory=dict)


def block(lay: Layout, qm: np.ndarray, tau: float, live_cells: dict, budget: int,
          stats: dict):
    """Algorithm 1 for a batch of mapped query vectors ``qm`` (|P| x batch) over the lake
    grid. Returns (matched, candidates), each (query index in the batch, row lo, row hi)
    arrays of row ranges in leaf order: Lemma 5 matches, and the leaves past Lemma 3."""
    out_m, out_c = [], []
    nb = qm.shape[1]
    if nb == 0 or not len(lay.tokens):
        z = np.zeros(0, np.int64)
        return (z, z, z), (z, z, z)
    # stack of (level, query idx, [child lo, child hi)): pairs not yet materialized
    stack = [(1, np.arange(nb), np.zeros(nb, np.int64), np.full(nb, len(lay.keys[1])))]
    n_pairs = 0
    while stack:
        j, q, a, b = stack.pop()
        if int((b - a).sum()) > budget and len(q) > 1:
            stack.extend((j, q[s:e], a[s:e], b[s:e]) for s, e in chunks(b - a, budget))
            continue
        qi, ci = expand(q, a, b)
        alive = live_cells[j][ci]
        qi, ci = qi[alive], ci[alive]
        n_pairs += len(qi)
        stats[f"cell_pairs_l{j}"] = stats.get(f"cell_pairs_l{j}", 0) + len(qi)
        # Lemma 3 one pivot at a time on the pairs still alive (most pairs are separated
        # by one of the first pivots, so later pivots see few), then Lemma 5 on the rest
        for p in range(lay.P):
            qp, lo, hi = qm[p].take(qi), lay.box_lo[j][p].take(ci), lay.box_hi[j][p].take(ci)
            ok = np.maximum(lo - qp, qp - hi) <= tau + EPS
            if not ok.all():
                qi, ci = qi[ok], ci[ok]
            if not len(qi):
                break
        qv, hi = qm.take(qi, axis=1), lay.box_hi[j].take(ci, axis=1)          # (|P|, pairs)
        hi += qv                                  # a gathered copy: safe to overwrite
        match = np.minimum.reduce(hi) <= tau - EPS if len(qi) else np.zeros(0, bool)  # Lemma 5
        if match.any():
            cm = ci[match]
            out_m.append((qi[match], lay.row_lo[j][cm], lay.row_hi[j][cm]))
            qi, ci = qi[~match], ci[~match]
        if j == lay.m:
            out_c.append(leaf_rows(lay, qm, qi, ci, tau))
        elif len(qi):
            stack.append((j + 1, qi, lay.child_lo[j][ci], lay.child_hi[j][ci]))
    stats["cell_pairs"] = stats.get("cell_pairs", 0) + n_pairs

    def cat(parts):
        if not parts:
            z = np.zeros(0, np.int64)
            return z, z, z
        return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))
    return cat(out_m), cat(out_c)


def _segment_search(x: np.ndarray, lo: np.ndarray, hi: np.ndarray, v: np.ndarray,
                    right: bool) -> np.ndarray:
    """Per i, the first index in [lo_i, hi_i) where x > v_i (``right``) or x >= v_i (else),
    hi_i if none: a binary search in each sorted segment of ``x``, all i at once."""
    lo, hi = lo.copy(), hi.copy()
    act = np.flatnonzero(lo < hi)
    while len(act):
        mid = (lo[act] + hi[act]) >> 1
        xm = x[mid]
        go = xm <= v[act] if right else xm < v[act]
        lo[act[go]] = mid[go] + 1
        hi[act[~go]] = mid[~go]
        act = act[lo[act] < hi[act]]
    return lo


def leaf_rows(lay: Layout, qm: np.ndarray, qi: np.ndarray, ci: np.ndarray, tau: float):
    """Candidate rows of (query vector qi, leaf ci) pairs past Lemma 3: Lemma 1 on the
    leaf's sort pivot, as the range of the leaf's rows (sorted by it) within tau + EPS of
    the query's coordinate. Returns (query index, row lo, row hi), empty ranges dropped."""
    lo, hi = lay.row_lo[lay.m][ci], lay.row_hi[lay.m][ci]
    if not len(qi):
        return qi, lo, hi
    v = qm[lay.leaf_pivot[ci], qi]
    a = _segment_search(lay.leaf_x, lo, hi, v - (tau + EPS), right=False)
    b = _segment_search(lay.leaf_x, a, hi, v + (tau + EPS), right=True)
    keep = a < b
    return qi[keep], a[keep], b[keep]


def lemma1_bound32(lay: Layout, qmapped: np.ndarray, tau: float) -> np.float32:
    """Lemma 1's bound for float32 pivot coordinates: tau + EPS widened by their rounding
    (each coordinate and the difference, < 4 u32 max|coordinate|), so that it prunes only
    pairs that float64 coordinates prune."""
    top = max(float(np.abs(qmapped).max()) if qmapped.size else 0.0, lay.max_abs, 1.0)
    return np.float32(tau + EPS + 8 * U32 * top)


def verify_filters(lay: Layout, qm: np.ndarray, qm32: np.ndarray, ql: np.ndarray,
                   r: np.ndarray, tau: float, tau32):
    """Lemmas 1 and 2 on candidate (query index ql, row r) pairs [P Alg. 2, lines 3-8].
    Lemma 1 one pivot at a time on the pairs still alive, in float32 (``tau32``:
    :func:`lemma1_bound32`), then in float64 on the few survivors, so exactly the pairs of
    the float64 lemma pass. Returns ((ql, r) left for a distance computation, (ql, r)
    matched by Lemma 2).

    Each pair is one int64 key (row << bits | query index), so dropping pairs compacts one
    array, and pivots 0-3 are tested two at a time (each drops a minority of the pairs, so
    a compaction after every one of them costs more than the extra gathers)."""
    bits = max(1, int(qm.shape[1] - 1).bit_length())
    mask = (1 << bits) - 1
    key = (r << bits) | ql
    p = 0
    while p < lay.P and len(key):
        rr, qq = key >> bits, key & mask
        keep = None
        for pp in range(p, min(p + (2 if p < 4 else 1), lay.P)):
            d = lay.mapped32[pp].take(rr)
            d -= qm32[pp].take(qq)
            np.abs(d, out=d)
            keep = d <= tau32 if keep is None else keep & (d <= tau32)
            p += 1
        key = key[keep]
    ql, r = key & mask, key >> bits
    xm, qv = lay.mapped.take(r, axis=1), qm.take(ql, axis=1)                 # (|P|, pairs)
    keep = np.maximum.reduce(np.abs(xm - qv)) <= tau + EPS if len(ql) else np.zeros(0, bool)
    if not keep.all():
        ql, r, xm, qv = ql[keep], r[keep], xm[:, keep], qv[:, keep]
    near = np.minimum.reduce(xm + qv) <= tau - EPS if len(ql) else np.zeros(0, bool)
    return (ql[~near], r[~near]), (ql[near], r[near])


def search_partition(part: PexesoPartition, vectors: np.ndarray, qvecs: np.ndarray, tau: float,
                     t_abs: int, n_columns: int, *, early_accept: bool = False,
                     early_prune: bool = True, exclude=(), want_pairs: bool = True,
                     stats: dict | None = None, batch_size: int | None = None,
                     pair_budget: int = PAIR_BUDGET) -> PexesoResult:
    """Block-and-verify on one partition. ``vectors``: all token vectors (row = token id);
    ``qvecs``: the query's unit vectors; ``t_abs``: T as a count (>= 1)."""
    stats = {} if stats is None else stats
    for k in ("block_s", "verify_s"):
        stats.setdefault(k, 0.0)
    for k in ("cell_pairs", "lemma5_matched", "candidate_pairs", "lemma1_filtered",
              "lemma2_matched", "distance_computations", "dot_products", "exact_checks",
              "columns_pruned_lemma7", "columns_accepted_early"):
        stats.setdefault(k, 0)
    nq = len(qvecs)
    lay = _layout(part)
    decided = np.zeros(n_columns, dtype=bool)          # pruned, or accepted (early_accept)
    excl = np.asarray([c for c in exclude if 0 <= c < n_columns], dtype=np.int64)
    decided[excl] = True
    match = np.zeros(n_columns, dtype=np.int64)
    mismatch = np.zeros(n_columns, dtype=np.int64)
    qvecs = np.asarray(qvecs)
    q32 = np.ascontiguousarray(qvecs, dtype=np.float32)
    qn_all = _sq_norms(qvecs)
    dim = qvecs.shape[1] if qvecs.ndim == 2 else 1
    qmapped = map_to_pivots(qvecs, part.pivots)
    qorder = np.argsort(morton_keys(leaf_coords(qmapped, part.lo, part.hi, lay.m), lay.m),
                        kind="stable") if nq else np.zeros(0, np.int64)
    # every row starts live, also the excluded columns' own: their hits are dropped when
    # recorded, and the rows are skipped once Lemma 7 or acceptance changes the live set
    live_rows, live_cells = lay.live()
    all_live = True
    xn = lay.sq_norms(vectors)
    tau32 = lemma1_bound32(lay, qmapped, tau)
    hit_q, hit_c, hit_t = [], [], []
    n_batch = max(1, int(batch_size)) if batch_size else \
        min(MAX_BATCH, max(MIN_BATCH, math.ceil(nq / QUERY_BATCHES)))

    for s in range(0, nq, n_batch):
        if decided.all():
            break
        t0 = time.perf_counter()
        qb = qorder[s:s + n_batch]
        qm = np.ascontiguousarray(qmapped[qb].T)                              # (|P|, batch)
        qm32 = qm.astype(np.float32)
        (mq, mlo, mhi), (cq, clo, chi) = block(lay, qm, tau, live_cells, pair_budget, stats)
        t1 = time.perf_counter()
        stats["block_s"] += t1 - t0
        hit = np.zeros((len(qb), n_columns), dtype=bool)

        def record(ql, r):
            """Mark (query, column) hits of matched (query, row) pairs, first witness kept."""
            if not len(ql):
                return
            qq, idx = expand(ql, lay.rc_ptr[r], lay.rc_ptr[r + 1])
            col = lay.rc_col[idx]
            new = ~decided[col] & ~hit[qq, col]
            qq, col, idx = qq[new], col[new], idx[new]
            keys, first = np.unique(qq * n_columns + col, return_index=True)
            hit.flat[keys] = True
            if want_pairs:
                hit_q.append(qb[qq[first]])
                hit_c.append(col[first])
                hit_t.append(lay.tokens[lay.rc_row[idx[first]]])

        def alive(ql, r):
            """The (query, row) pairs whose row still has an undecided column."""
            if all_live:
                return ql, r
            lv = live_rows[r]
            return ql[lv], r[lv]

        for a, b in chunks(mhi - mlo, pair_budget):                  # Lemma 5 matches
            ql, r = alive(*expand(mq[a:b], mlo[a:b], mhi[a:b]))
            stats["lemma5_matched"] += len(ql)
            record(ql, r)
        for a, b in chunks(chi - clo, pair_budget):                  # candidates
            ql, r = alive(*expand(cq[a:b], clo[a:b], chi[a:b]))
            stats["candidate_pairs"] += len(ql)
            n_cand = len(ql)
            (ql, r), (nq_, nr_) = verify_filters(lay, qm, qm32, ql, r, tau, tau32)
            stats["lemma1_filtered"] += n_cand - len(ql) - len(nq_)
            stats["lemma2_matched"] += len(nq_)
            record(nq_, nr_)
            if not len(ql):
                continue
            stats["distance_computations"] += len(ql)
            dot = _dots(q32, qb, ql, r, lay.tokens, vectors, stats)
            qpair, tpair = qb[ql], lay.tokens[r]
            ok, n_exact = decide_by_dot(dot, qn_all[qpair], xn[r], tau, dim,
                                        lambda m: qvecs[qpair[m]], lambda m: vectors[tpair[m]])
            stats["exact_checks"] += n_exact
            record(ql[ok], r[ok])
        stats["verify_s"] += time.perf_counter() - t1
        # per-column accounting (Lemma 7, early acceptance) on arrays
        got = hit.sum(axis=0)
        undecided = ~decided
        match[undecided] += got[undecided]
        mismatch[undecided] += len(qb) - got[undecided]
        changed = False
        if early_accept:
            acc_now = undecided & (match >= t_abs)
            stats["columns_accepted_early"] += int(acc_now.sum())
            decided |= acc_now
            changed |= bool(acc_now.any())
        if early_prune:                                                            # Lemma 7
            pr = undecided & (nq - mismatch < t_abs)
            stats["columns_pruned_lemma7"] += int(pr.sum())
            decided |= pr
            changed |= bool(pr.any())
        if changed:
            live_rows, live_cells = lay.live(decided)
            all_live = bool(live_rows.all())
    ok = np.nonzero(match >= t_abs)[0]
    ok = ok[~np.isin(ok, excl)]
    pairs = {}
    if want_pairs and len(ok) and hit_q:
        qidx, cols, toks = (np.concatenate(x) for x in (hit_q, hit_c, hit_t))
        sel = np.isin(cols, ok)
        qidx, cols, toks = qidx[sel], cols[sel], toks[sel]
        dist = distances(qvecs[qidx], vectors[toks]) if len(qidx) else np.zeros(0)
        order = np.lexsort((qidx, cols))
        qidx, cols, toks, dist = qidx[order], cols[order], toks[order], dist[order]
        starts = np.searchsorted(cols, ok, "left")
        ends = np.searchsorted(cols, ok, "right")
        for c, s, e in zip(ok, starts, ends):
            pairs[int(c)] = (qidx[s:e], toks[s:e], dist[s:e])
    return PexesoResult(columns=ok, counts=match[ok], pairs=pairs, stats=stats)


def t_count(t_frac: float, n_query: int) -> int:
    """T as a count of query vectors: jn >= T  <=>  |Q_M| >= ceil(T |Q|), at least 1
    (the paper's Def. 2 has a fraction, Lemma 7 a count)."""
    return max(1, math.ceil(t_frac * n_query - 1e-9))


def plan_estimates(model: dict, tau: float, n_query: int, n_lake: int) -> dict:
    """Predicted microseconds of each plan for a query of ``n_query`` vectors at ``tau`` on
    a partition of ``n_lake`` vectors: PEXESO from the profile (linear in tau between its
    points; below the first, the first; past the last, the last, a lower bound since the
    work grows with tau), the brute force ``C_BF`` per pair."""
    taus = np.asarray(model["taus"], dtype=np.float64)
    us = np.asarray(model["us_per_vector"], dtype=np.float64)
    per = float(np.interp(tau, taus, us)) if len(taus) else 0.0
    return {"pexeso": per * n_query,
            "bruteforce": model.get("costs_us", {}).get("bruteforce_pair", C_BF)
            * n_query * n_lake}


def search(parts, vectors, qvecs, tau: float, t_frac: float, n_columns: int, *,
           plan: str = "pexeso", plan_model=None, **kw) -> PexesoResult:
    """PEXESO over every partition (each a column group with its own index); union [P §IV].

    ``plan``: "pexeso" (block-and-verify), "bruteforce" (:func:`bruteforce_partition`, the
    same answer) or "auto": per partition, whichever ``plan_model`` (the build's
    :func:`~lakejoin_jupyter.search.pexeso_cost.tau_profile` per partition, from the
    manifest) predicts cheaper at this tau; without a model, "pexeso". The plans run
    and their estimates are in ``stats["plan"]`` and ``stats["plan_estimates_us"]``."""
    if plan not in ("pexeso", "bruteforce", "auto"):
        raise ValueError(f"plan must be 'pexeso', 'bruteforce' or 'auto' (got {plan!r}).")
    t_abs = t_count(t_frac, len(qvecs))
    stats: dict = {"partitions": 0, "plan": [], "plan_estimates_us": []}
    cols, counts, pairs = [], [], {}
    for i, part in enumerate(parts):
        part = part() if callable(part) else part      # lazily loaded partitions
        if part is None:
            continue
        stats["partitions"] += 1
        chosen = plan
        if plan == "auto":
            model = plan_model[i] if plan_model and i < len(plan_model) else None
            est = plan_estimates(model, tau, len(qvecs), len(part.tokens)) if model else None
            chosen = "pexeso" if est is None or est["pexeso"] <= est["bruteforce"] \
                else "bruteforce"
            stats["plan_estimates_us"].append(est)
        stats["plan"].append(chosen)
        if chosen == "bruteforce":
            r = bruteforce_partition(part, vectors, qvecs, tau, t_abs, n_columns, stats=stats,
                                     exclude=kw.get("exclude", ()),
                                     want_pairs=kw.get("want_pairs", True))
        else:
            r = search_partition(part, vectors, qvecs, tau, t_abs, n_columns, stats=stats, **kw)
        cols.append(r.columns)
        counts.append(r.counts)
        pairs.update(r.pairs)
    cols = np.concatenate(cols) if cols else np.zeros(0, np.int64)
    counts = np.concatenate(counts) if counts else np.zeros(0, np.int64)
    stats["t_abs"] = t_abs
    return PexesoResult(columns=cols, counts=counts, pairs=pairs, stats=stats)


# ------------------------------------------------------------------------- oracle

def bruteforce(vectors: np.ndarray, sets_indptr: np.ndarray, sets_tokens: np.ndarray,
               qvecs: np.ndarray, tau: float, chunk: int = 2048,
               prefilter: bool = False) -> np.ndarray:
    """|Q_M| for every column by comparing every query vector with every token vector.

    ``prefilter=False`` (the tests' oracle): :func:`distances` for every pair.
    ``prefilter=True`` (the benchmark's numpy brute force, same answer): one float32 BLAS
    matrix product per chunk of lake vectors, pairs decided by :func:`decide_by_dot` (the
    exact distance inside the rounding margin), then the matched tokens' columns counted
    through token -> column postings."""
    n_tok = len(vectors)
    q64 = np.asarray(qvecs, dtype=np.float64)
    sizes = np.diff(sets_indptr)
    counts = np.zeros(len(sizes), dtype=np.int64)
    if not prefilter:
        within = np.zeros((len(qvecs), n_tok), dtype=bool)
        for s in range(0, n_tok, chunk):
            x = np.asarray(vectors[s:s + chunk], dtype=np.float64)
            within[:, s:s + chunk] = distances(q64[:, None, :], x[None, :, :]) <= tau
        nz = np.nonzero(sizes)[0]
        if len(nz):
            anyhit = np.logical_or.reduceat(within[:, sets_tokens], sets_indptr[nz], axis=1)
            counts[nz] = anyhit.sum(axis=0)
        return counts
    if not len(qvecs) or not n_tok:
        return counts
    hq, ht, _ = blas_matches(qvecs, tau, ((s, vectors[s:s + chunk])
                                          for s in range(0, n_tok, chunk)))
    if not len(hq):
        return counts
    col_of = np.repeat(np.arange(len(sizes)), sizes)            # token -> column postings
    o = np.argsort(sets_tokens, kind="stable")
    ptr = np.searchsorted(np.asarray(sets_tokens)[o], np.arange(n_tok + 1))
    qq, idx = expand(hq, ptr[ht], ptr[ht + 1])
    keys = np.unique(qq * len(sizes) + col_of[o[idx]])
    return np.bincount(keys % len(sizes), minlength=len(sizes)).astype(np.int64)


BF_CHUNK = 8192           # lake vectors per matrix product in the brute-force plan


def blas_matches(qvecs: np.ndarray, tau: float, chunks):
    """Every (query vector, lake vector) pair within ``tau``, by float32 matrix products:
    ``chunks`` yields (offset, lake vectors); returns (query index, offset + row in the
    chunk, squared distance). A float32 pre-test, loose by 1e-3 (far above float32
    rounding), keeps the elementwise work in float32; :func:`decide_by_dot` then decides
    the few pairs it passes exactly."""
    qvecs = np.asarray(qvecs)
    q64 = np.asarray(qvecs, dtype=np.float64)
    q32 = np.ascontiguousarray(qvecs, dtype=np.float32)
    qn = _sq_norms(qvecs)
    dim = qvecs.shape[1] if qvecs.ndim == 2 else 1
    q_half = ((qn - tau * tau) / 2 - 1e-3 * (1 + qn)).astype(np.float32)
    hq, hx, hd = [], [], []
    for s, x in chunks:
        x = np.asarray(x)
        xn = _sq_norms(x)
        g = q32 @ np.ascontiguousarray(x, dtype=np.float32).T
        g -= (xn / 2).astype(np.float32)[None, :]
        qi, xi = np.nonzero(g >= q_half[:, None])
        if not len(qi):
            continue
        dot = np.einsum("ij,ij->i", q64[qi], np.asarray(x[xi], dtype=np.float64))
        ok, _ = decide_by_dot(dot, qn[qi], xn[xi], tau, dim, lambda m: qvecs[qi[m]],
                              lambda m: x[xi[m]])
        hq.append(qi[ok])
        hx.append(s + xi[ok])
        hd.append(qn[qi[ok]] + xn[xi[ok]] - 2.0 * dot[ok])
    if not hq:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    return np.concatenate(hq), np.concatenate(hx), np.concatenate(hd)


def _rows_to_columns(part: PexesoPartition):
    """CSR from a partition's rows (its sorted tokens) to the columns holding them."""
    rc = part.__dict__.get("_row_columns")
    if rc is None:
        o = np.argsort(np.asarray(part.ent_row, dtype=np.int64), kind="stable")
        rows = np.asarray(part.ent_row, dtype=np.int64)[o]
        rc = (np.searchsorted(rows, np.arange(len(part.tokens) + 1)),
              np.asarray(part.ent_col, dtype=np.int64)[o])
        part.__dict__["_row_columns"] = rc
    return rc


def bruteforce_partition(part: PexesoPartition, vectors: np.ndarray, qvecs: np.ndarray,
                         tau: float, t_abs: int, n_columns: int, *, exclude=(),
                         want_pairs: bool = True, stats: dict | None = None,
                         chunk: int | None = None) -> PexesoResult:
    """The brute-force plan: the partition's answer of :func:`search_partition` (same
    columns, same counts, exact) by scanning every lake vector of the partition, in token
    order, one float32 matrix product per ``chunk`` of them, with :func:`bruteforce`'s
    float32 pre-test and :func:`decide_by_dot` for the pairs near tau. A column's shown pair
    for a query vector is its nearest value (PEXESO shows the first one verified). A pair
    costs far less in a matrix product than verifying one surviving pair, so this is faster
    whenever the pivot filters leave more than a small share of the pairs (large tau)."""
    stats = {} if stats is None else stats
    chunk = int(chunk or BF_CHUNK)
    for k in ("bruteforce_s", "bruteforce_pairs"):
        stats.setdefault(k, 0)
    t0 = time.perf_counter()
    ptr, col_of = _rows_to_columns(part)
    toks = np.asarray(part.tokens, dtype=np.int64)
    nq = len(qvecs)
    q64 = np.asarray(qvecs, dtype=np.float64)
    hq, hr, hd = blas_matches(qvecs, tau, ((s, vectors[toks[s:s + chunk]])
                                           for s in range(0, len(toks) if nq else 0, chunk)))
    stats["bruteforce_pairs"] += nq * len(toks)
    excl = np.asarray(sorted(exclude), dtype=np.int64)
    qq, idx = expand(hq, ptr[hr], ptr[hr + 1])          # (query, row) -> (query, column)
    per = ptr[hr + 1] - ptr[hr]
    col, d2, row = col_of[idx], np.repeat(hd, per), np.repeat(hr, per)
    if len(excl):
        keep = ~np.isin(col, excl)
        qq, col, d2, row = qq[keep], col[keep], d2[keep], row[keep]
    if not len(qq):
        stats["bruteforce_s"] += time.perf_counter() - t0
        return PexesoResult(columns=np.zeros(0, np.int64), counts=np.zeros(0, np.int64),
                            pairs={}, stats=stats)
    order = np.lexsort((row, d2, qq, col))               # per (column, query): nearest first
    qq, col, row = qq[order], col[order], row[order]
    first = np.flatnonzero(np.r_[True, (col[1:] != col[:-1]) | (qq[1:] != qq[:-1])])
    qq, col, row = qq[first], col[first], row[first]
    n_per = np.bincount(col, minlength=n_columns)
    ok = np.flatnonzero(n_per >= t_abs)
    pairs = {}
    if want_pairs and len(ok):
        sel = n_per[col] >= t_abs
        qs, cs, ts = qq[sel], col[sel], toks[row[sel]]
        dist = distances(q64[qs], vectors[ts])
        starts = np.searchsorted(cs, ok, "left")
        ends = np.searchsorted(cs, ok, "right")
        for c, a, b in zip(ok, starts, ends):
            pairs[int(c)] = (qs[a:b], ts[a:b], dist[a:b])
    stats["bruteforce_s"] += time.perf_counter() - t0
    return PexesoResult(columns=ok, counts=n_per[ok].astype(np.int64), pairs=pairs, stats=stats)


# ------------------------------------------------------------------------- engine method

class PexesoModel:
    """The PEXESO component of an opened index: embedder, vectors, partitions (lazy)."""

    def __init__(self, index):
        self.index = index
        self.section = index.components["pexeso"]

    @cached_property
    def embedder(self):
        return self.index.embedder("pexeso")

    @property
    def default_tau(self) -> float:
        """The index's default tau: the rule (index/pexeso_arrays.default_tau) on the
        build's distance profile for its embedder, so an index built under an earlier rule
        gets the current one; DEFAULT_TAU for an index built before profiles were recorded
        and an embedder without a typo floor."""
        tau = default_tau(self.section.get("distance_profile"),
                          (self.section.get("embedder") or {}).get("name", ""))
        return DEFAULT_TAU if tau is None else float(tau)

    @cached_property
    def vectors(self) -> np.ndarray:
        from ..index.store import check_ok
        v = self.index.load_npy("pexeso/vectors.npy")
        check_ok(self.index.path, "pexeso/vectors.npy", v.ndim == 2, f"shape {v.shape}")
        return v

    def partition(self, p: int) -> PexesoPartition:
        ld = self.index.load_npy
        base = f"pexeso/part{p:04d}/"
        meta = self.section["partitions"][p]
        if not meta["vectors"]:
            return None
        part = PexesoPartition(
            pivots=ld(base + "pivots.npy"), lo=ld(base + "lo.npy"), hi=ld(base + "hi.npy"),
            levels=int(self.section["levels"]), tokens=ld(base + "tokens.npy"),
            mapped=ld(base + "mapped.npy"), cell_keys=ld(base + "cell_keys.npy"),
            cell_ptr=ld(base + "cell_ptr.npy"), ent_col=ld(base + "ent_col.npy"),
            ent_row=ld(base + "ent_row.npy"))
        self._check(base, part)
        return part

    def _check(self, base: str, part: PexesoPartition) -> None:
        """Bounds of every value that sizes or indexes the search's arrays: a damaged
        index (opened without checksum verification) fails here, clearly."""
        from ..index.store import check_csr, check_ok, check_range
        path, n_p, n = self.index.path, len(part.pivots), len(part.tokens)
        dim = self.vectors.shape[1]
        for name, got, want in (("pivots", part.pivots.shape, (n_p, dim)),
                                ("lo", part.lo.shape, (n_p,)), ("hi", part.hi.shape, (n_p,)),
                                ("mapped", part.mapped.shape, (n, n_p)),
                                ("ent_row", part.ent_row.shape, part.ent_col.shape)):
            check_ok(path, base + name + ".npy", got == want, f"shape {got}, expected {want}")
        check_ok(path, "manifest", 0 <= n_p * part.levels <= MAX_KEY_BITS,
                 f"{n_p} pivots x {part.levels} levels")
        check_csr(path, base + "cell_ptr.npy", part.cell_ptr, len(part.cell_keys),
                  len(part.ent_col))
        check_range(path, base + "tokens.npy", part.tokens, 0, len(self.vectors))
        check_range(path, base + "ent_row.npy", part.ent_row, 0, n)
        check_range(path, base + "ent_col.npy", part.ent_col, 0, self.index.n_sets)

    def partitions(self):
        for p in range(len(self.section["partitions"])):
            if self.section["partitions"][p]["vectors"]:
                yield (lambda p=p: self.partition(p))

    def plan_models(self):
        """The build's plan model of each partition :meth:`partitions` yields (None for an
        index built before plan models were recorded: the search then runs PEXESO)."""
        models = self.section.get("plan_model")
        if not models:
            return None
        return [models[p] for p in range(len(self.section["partitions"]))
                if self.section["partitions"][p]["vectors"]]


def _model(index) -> PexesoModel:
    m = getattr(index, "_pexeso_model", None)
    if m is None:
        m = PexesoModel(index)
        index._pexeso_model = m
    return m


def _run(index, query, params):
    opts = params.options
    model = _model(index)
    tau = opts["tau"]
    tau = model.default_tau if tau is None else float(tau)
    t_frac = opts["joinability"]
    if t_frac is None:
        t_frac = params.threshold if params.threshold is not None else DEFAULT_T
    t0 = time.perf_counter()
    qvecs = model.embedder.embed(query.tokens)
    embed_s = time.perf_counter() - t0
    res = search(model.partitions(), model.vectors, qvecs, tau, t_frac, index.arrays.n_sets,
                 early_accept=opts["early_accept"],
                 exclude=sorted(query.exclude), plan=opts["plan"],
                 plan_model=model.plan_models())
    order = np.lexsort((res.columns, -res.counts))
    if params.k is not None:
        order = order[: params.k]
    out = []
    for i in order:
        c, n = int(res.columns[i]), int(res.counts[i])
        qi, toks, dist = res.pairs.get(c, ((), (), ()))
        texts = index.token_text(np.asarray(toks, dtype=np.int64)) if len(toks) else []
        pairs = [(query.display.get(query.tokens[q], query.tokens[q]), t, float(d))
                 for q, t, d in zip(qi, texts, dist)]
        out.append(Candidate(
            column_ids=(c,), score=n / max(query.size, 1), overlap=n,
            exact=not opts["early_accept"],
            details={"matched_tokens": [query.tokens[q] for q in qi], "pairs": pairs,
                     "tau": tau, "joinability": n / max(query.size, 1)}))
    stats = dict(res.stats, tau=tau, T=t_frac, embed_s=embed_s, query_vectors=len(qvecs))
    if not len(res.columns) and len(qvecs):
        best = closest_at_tau(model, qvecs, tau, index.arrays.n_sets, query.exclude,
                              opts["plan"])
        cid = best.pop("best_column")           # this generation's id: named instead
        if cid is not None:                     # for the advice to say which column it is
            col = index.columns.iloc[cid]
            best.update(best_table=str(index.tables.iloc[int(col["table_id"])]["name"]),
                        best_column_name=str(col["name"]))
        # one entry: the engine keeps the closest over generations, not a sum of their figures
        stats["closest"] = dict(best, query_vectors=len(qvecs))
    return out, stats


def closest_at_tau(model, qvecs, tau: float, n_columns: int, exclude=(),
                   plan: str = "auto") -> dict:
    """For an empty answer, what the closest column reaches at the same tau (measured: the
    search again at T = one value, exact counts, no pairs kept): its id ("best_column",
    None when no query value is within tau of any lake value), the query values it matches
    ("best_matched") and that share of the query ("best_joinability"). The front ends' advice
    suggests this joinability, naming the column: it finds that column with pairs as close
    as the default's."""
    res = search(model.partitions(), model.vectors, qvecs, tau, 0.0, n_columns,
                 exclude=sorted(exclude), plan=plan, plan_model=model.plan_models(),
                 want_pairs=False)
    if not len(res.columns):
        return {"best_column": None, "best_matched": 0, "best_joinability": 0.0}
    i = int(np.lexsort((res.columns, -res.counts))[0])
    n = int(res.counts[i])
    return {"best_column": int(res.columns[i]), "best_matched": n,
            "best_joinability": n / len(qvecs)}


METHOD = SearchMethod(
    name="pexeso", label="Fuzzy / semantic (PEXESO)", kind="exact", run=_run,
    requires=("pexeso",), priority=-10, score_name="joinability",
    settings_stats=("tau", "T", "query_vectors"),
    description="Columns in which at least a fraction T of the query's values have a "
                "value within distance tau in embedding space (exact, PEXESO).",
    params=(ParamSpec("tau", "max distance (tau)", "float", None, 0.0, 2.0, 0.01,
                      help="Euclidean distance between unit embeddings (0..2; the Fuzzy "
                           "join's threshold is on its own scale); default: the index's, "
                           "chosen by its build for its embedder"),
            ParamSpec("joinability", "share of values to match (T)", "float", None, 0.0, 1.0, 0.05,
                      help="fraction of the query's values that must find a match "
                           f"(default: the search's threshold, else {DEFAULT_T})"),
            ParamSpec("plan", "plan", "choice", "auto", choices=("auto", "pexeso", "bruteforce"),
                      help="auto: PEXESO or a BLAS scan, whichever the build's cost "
                           "profile predicts faster at this tau (same answer)"),
            ParamSpec("early_accept", "early accept", "bool", False,
                      help="stop verifying a column once it reaches T (counts become lower "
                           "bounds, so the hits are marked estimated)")))
