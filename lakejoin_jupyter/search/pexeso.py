"""PEXESO: exact joinable-column search under a distance threshold on value embeddings
(Dong et al., ICDE 2021; notes/pexeso_mate.md Part A).

Problem [P §II-B]: given query vectors Q, tau and T, return every column S with
jn(Q, S) = |{q in Q : exists x in S, d(q, x) <= tau}| / |Q| >= T, with the q -> x mapping.

Algorithm, per partition (index/pexeso_arrays.py holds the arrays and their geometry):

1. Map Q to pivot space and build its grid HG_Q with the same boundaries as HG_RV.
2. Block [P Alg. 1]: walk both grids level by level. A pair (query cell, target cell) is
   dropped by Lemma 4 (cell-cell filter), accepted as a certain match by Lemma 6 (cell-cell
   match: the target cell lies inside every query vector's rectangle query region for some
   pivot), or refined to the children pairs; at the leaves each query vector is tested
   against each surviving target leaf with Lemma 3 (vector-cell filter) and Lemma 5
   (vector-cell match). Output: mPair (certain matches) and cPair (candidates), as ranges
   of the cell postings.
3. Verify [P Alg. 2] with the corrected accounting of notes A7/A11.5: each (q, S) verdict
   is counted once, after all of S's candidate vectors for q are checked (Lemma 1 filter,
   Lemma 2 match, else the exact distance), and a q that never reaches S counts as a
   mismatch of S. Columns are accepted early once their match count reaches T (optional:
   the count is then a lower bound) and pruned early by Lemma 7 once |Q| - mismatch < T.
   Lemma 1 is applied to every (query vector, candidate entry) pair first, before the
   per-column bookkeeping. Optionally (``possible_filter=True``), a column reachable past
   Lemma 1 from fewer than T query vectors is dropped before verifying (the exact
   strengthening of notes A7; off by default: it costs an extra pass over the candidates).

Deviations, each exact (the answer equals brute force; tests/test_pexeso.py):

* Block runs breadth-first over arrays (one numpy step per level) instead of the
  recursive nested loop; the pairs examined and the lemmas applied are the same. Quick
  browsing [P §III-C] (probing same-cell pairs first) is subsumed: same-cell pairs are
  never filtered and are verified with the rest.
* Query cells use the bounding box of their query vectors in Lemmas 4 and 6 rather than
  the cell's centre and half edge: the box lies inside the cell, so the test is at least
  as tight and remains sound; it also stays sound for query vectors clipped into the
  domain's border cells.
* DaaT verification runs on batches of query vectors (a batch's (q, S) verdicts are
  final before the counts are updated, which is what the corrected accounting needs);
  early acceptance/pruning act between batches rather than between single vectors.
* Filters prune only beyond tau + 1e-9 and matching lemmas accept only below tau - 1e-9,
  so float rounding in pivot coordinates can never change a verdict; the final test is
  d(q, x) <= tau computed with the same function as the oracle (notes C1.2).
* Q is the query's distinct normalized values (as for every method of the engine); the
  paper counts duplicate records separately [P §II-B].
* m and |P| are build parameters (defaults |P| = 5, m = 6, the paper's OPEN optimum,
  Table VI); the cost model of §III-E that would pick m is not implemented.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..index.pexeso_arrays import (PexesoPartition, distances, key_coords, leaf_coords,
                                   map_to_pivots, morton_keys)

EPS = 1e-9
DEFAULT_TAU = 0.12         # 6% of the maximum distance 2 [P §V]
DEFAULT_T = 0.6            # 60% of |Q| [P §VI-A]
BATCH_TRIPLES = 1_000_000  # (query vector, candidate entry) pairs verified per batch


# ------------------------------------------------------------------------- trees

class _Grid:
    """Per-level cell keys and boxes of a set of leaf keys (HG_RV or HG_Q)."""

    def __init__(self, leaf_keys: np.ndarray, n_dim: int, levels: int, lo, hi):
        self.n_dim, self.levels = n_dim, levels
        self.lo, self.hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
        self.leaf_keys = leaf_keys                       # sorted
        self.keys = {}
        for j in range(1, levels + 1):
            self.keys[j] = np.unique(leaf_keys >> (n_dim * (levels - j)))

    def box(self, j: int, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        c = key_coords(self.keys[j][idx], self.n_dim, j).astype(np.float64)
        w = (self.hi - self.lo) / (1 << j)
        return self.lo + c * w, self.lo + (c + 1) * w

    def leaf_range(self, j: int, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """[a, b) of leaf positions under level-j cells idx."""
        shift = self.n_dim * (self.levels - j)
        anc = self.leaf_keys >> shift
        k = self.keys[j][idx]
        return np.searchsorted(anc, k, "left"), np.searchsorted(anc, k, "right")

    def children(self, j: int, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """[a, b) of level-(j+1) cell indices under level-j cells idx."""
        parent = self.keys[j + 1] >> self.n_dim
        k = self.keys[j][idx]
        return np.searchsorted(parent, k, "left"), np.searchsorted(parent, k, "right")


def _pair_product(a_lo, a_hi, b_lo, b_hi):
    """All (i, j) with i in [a_lo, a_hi), j in [b_lo, b_hi), for every row."""
    na, nb = a_hi - a_lo, b_hi - b_lo
    cnt = na * nb
    total = int(cnt.sum())
    if total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    row = np.repeat(np.arange(len(cnt)), cnt)
    within = np.arange(total) - np.repeat(np.cumsum(cnt) - cnt, cnt)
    return a_lo[row] + within // nb[row], b_lo[row] + within % nb[row]


def _expand(owner, lo, hi):
    """(owner repeated, every index in [lo, hi)) for ranges lo..hi."""
    n = hi - lo
    total = int(n.sum())
    rep = np.repeat(np.arange(len(n)), n)
    idx = np.arange(total) - np.repeat(np.cumsum(n) - n, n) + lo[rep]
    return owner[rep], idx


# ------------------------------------------------------------------------- search

@dataclass
class PexesoResult:
    """Joinable columns of one search and how the search went."""
    columns: np.ndarray                  # column ids, joinable
    counts: np.ndarray                   # |Q_M| per column (a lower bound if early_accept)
    pairs: dict = field(default_factory=dict)   # column -> (query idx, token id, distance)
    stats: dict = field(default_factory=dict)


def block(part: PexesoPartition, qmapped: np.ndarray, tau: float, stats: dict | None = None):
    """Algorithm 1 over both grids. Returns (matched, candidates), each a tuple of
    (query index, entry lo, entry hi) arrays of ranges into the partition's postings."""
    stats = {} if stats is None else stats
    P, m = part.n_pivots, part.levels
    empty = (np.zeros(0, np.int64),) * 3
    if len(part.cell_keys) == 0 or len(qmapped) == 0:
        return empty, empty
    tgt = _Grid(part.cell_keys, P, m, part.lo, part.hi)
    qkeys = morton_keys(leaf_coords(qmapped, part.lo, part.hi, m), m)
    qorder = np.argsort(qkeys, kind="stable")
    qsorted = qmapped[qorder]
    qry = _Grid(qkeys[qorder], P, m, part.lo, part.hi)
    # bounding box of the query vectors under each query cell, per level
    qbox = {}
    for j in range(1, m + 1):
        a, b = qry.leaf_range(j, np.arange(len(qry.keys[j])))
        qbox[j] = (np.minimum.reduceat(qsorted, a, axis=0), np.maximum.reduceat(qsorted, a, axis=0),
                   a, b)
    qi, ri = _pair_product(np.zeros(1, np.int64), np.array([len(qry.keys[1])]),
                           np.zeros(1, np.int64), np.array([len(tgt.keys[1])]))
    m_q, m_lo, m_hi = [], [], []
    ptr = part.cell_ptr
    n_pairs = 0
    for j in range(1, m + 1):
        n_pairs += len(qi)
        qlo, qhi, qa, qb = (x[qi] for x in qbox[j])
        rlo, rhi = tgt.box(j, ri)
        filt = np.any((rhi < qlo - tau - EPS) | (rlo > qhi + tau + EPS), axis=1)    # Lemma 4
        match = ~filt & np.any((tau - qhi >= 0) & (rhi <= tau - qhi - EPS), axis=1)  # Lemma 6
        if match.any():
            la, lb = tgt.leaf_range(j, ri[match])
            qs, pos = _expand(np.arange(int(match.sum())), qa[match], qb[match])
            m_q.append(qorder[pos])
            m_lo.append(ptr[la[qs]])
            m_hi.append(ptr[lb[qs]])
        keep = ~filt & ~match
        qi, ri = qi[keep], ri[keep]
        if j < m:
            ca, cb = qry.children(j, qi)
            ta, tb = tgt.children(j, ri)
            qi, ri = _pair_product(ca, cb, ta, tb)
    # leaves: every query vector of the query leaf against the target leaf
    _, _, qa, qb = qbox[m]
    owner, pos = _expand(ri, qa[qi], qb[qi])          # owner: target leaf, pos: sorted query
    qv = qsorted[pos]
    rlo, rhi = tgt.box(m, owner)
    filt = np.any((rhi < qv - tau - EPS) | (rlo > qv + tau + EPS), axis=1)           # Lemma 3
    match = ~filt & np.any((tau - qv >= 0) & (rhi <= tau - qv - EPS), axis=1)        # Lemma 5
    cand = ~filt & ~match
    m_q.append(qorder[pos[match]])
    m_lo.append(ptr[owner[match]])
    m_hi.append(ptr[owner[match] + 1])
    stats["cell_pairs"] = stats.get("cell_pairs", 0) + n_pairs + len(owner)
    matched = tuple(np.concatenate(x).astype(np.int64) for x in (m_q, m_lo, m_hi))
    candidates = (qorder[pos[cand]].astype(np.int64), ptr[owner[cand]], ptr[owner[cand] + 1])
    return matched, candidates


def search_partition(part: PexesoPartition, vectors: np.ndarray, qvecs: np.ndarray, tau: float,
                     t_abs: int, n_columns: int, *, early_accept: bool = False,
                     early_prune: bool = True, possible_filter: bool = False,
                     exclude=(), want_pairs: bool = True, stats: dict | None = None,
                     batch_triples: int = BATCH_TRIPLES) -> PexesoResult:
    """Block-and-verify on one partition. ``vectors``: all token vectors (row = token id);
    ``qvecs``: the query's unit vectors; ``t_abs``: T as a count (>= 1)."""
    stats = {} if stats is None else stats
    nq = len(qvecs)
    t0 = time.perf_counter()
    qmapped = map_to_pivots(qvecs, part.pivots)
    (mq, mlo, mhi), (cq, clo, chi) = block(part, qmapped, tau, stats)
    stats["block_s"] = stats.get("block_s", 0.0) + time.perf_counter() - t0
    t1 = time.perf_counter()
    decided = np.zeros(n_columns, dtype=bool)          # pruned, or accepted (early_accept)
    for c in exclude:
        if 0 <= c < n_columns:
            decided[c] = True
    match = np.zeros(n_columns, dtype=np.int64)
    mismatch = np.zeros(n_columns, dtype=np.int64)
    ncol = np.int64(n_columns)
    n_rows = np.int64(max(len(part.tokens), 1))
    # order the ranges by query vector; batch boundaries by the number of entries
    mo, co = np.argsort(mq, kind="stable"), np.argsort(cq, kind="stable")
    mq, mlo, mhi, cq, clo, chi = mq[mo], mlo[mo], mhi[mo], cq[co], clo[co], chi[co]
    per_q = np.bincount(mq, weights=mhi - mlo, minlength=nq) + \
        np.bincount(cq, weights=chi - clo, minlength=nq)
    bounds = [0]
    acc = 0.0
    for i, w in enumerate(per_q):
        acc += w
        if acc >= batch_triples and i + 1 < nq:
            bounds.append(i + 1)
            acc = 0.0
    bounds.append(nq)

    def batch(ranges_q, lo, hi, a, b):
        s, e = np.searchsorted(ranges_q, a), np.searchsorted(ranges_q, b)
        return _expand(ranges_q[s:e], lo[s:e], hi[s:e])

    def lemma1(q, e):
        """Drop (query, entry) pairs some pivot separates by more than tau (Lemma 1)."""
        rows = part.ent_row[e]
        xm, qm = part.mapped[rows], qmapped[q]
        keep = ~np.any(np.abs(xm - qm) > tau + EPS, axis=1)
        return q[keep], e[keep], rows[keep], xm[keep], qm[keep]

    if possible_filter:        # columns reachable (past Lemma 1) from fewer than T queries
        possible = np.zeros(n_columns, dtype=np.int64)
        for a, b in zip(bounds[:-1], bounds[1:]):
            q1, e1 = batch(mq, mlo, mhi, a, b)
            q2, e2 = lemma1(*batch(cq, clo, chi, a, b))[:2]
            keys = np.unique(np.concatenate([q1, q2]) * ncol + part.ent_col[np.concatenate([e1, e2])])
            possible += np.bincount(keys % ncol, minlength=n_columns)
        dropped = ~decided & (possible < t_abs)
        stats["columns_dropped_unreachable"] = stats.get("columns_dropped_unreachable", 0) + \
            int((dropped & (possible > 0)).sum())
        decided |= dropped
    n_dist = n_lemma1 = n_lemma2 = 0
    pruned = accepted = 0
    hit_keys, hit_ents = [], []
    for a, b in zip(bounds[:-1], bounds[1:]):
        # certain matches (Lemmas 5/6): one witness entry per (q, S)
        q1, e1 = batch(mq, mlo, mhi, a, b)
        col1 = part.ent_col[e1]
        live = ~decided[col1]
        k1, first = np.unique(q1[live] * ncol + col1[live], return_index=True)
        w1 = e1[live][first]
        # candidates: Lemma 1, Lemma 2, else the distance
        q2, e2 = batch(cq, clo, chi, a, b)
        n_all = len(q2)
        q2, e2, rows, xm, qm = lemma1(q2, e2)                                      # Lemma 1
        n_lemma1 += n_all - len(q2)
        col2 = part.ent_col[e2]
        k2 = q2 * ncol + col2
        live = ~decided[col2] & ~np.isin(k2, k1, assume_unique=False)
        q2, e2, k2, rows, xm, qm = q2[live], e2[live], k2[live], rows[live], xm[live], qm[live]
        near = np.any(xm + qm <= tau - EPS, axis=1)                                # Lemma 2
        rest = np.nonzero(~near)[0]
        hit = near.copy()
        if len(rest):      # one distance per distinct (q, vector), shared by its columns
            pk, inv = np.unique(q2[rest] * n_rows + rows[rest], return_inverse=True)
            d = distances(qvecs[pk // n_rows], vectors[part.tokens[pk % n_rows]])
            hit[rest] = d[inv] <= tau
            n_dist += len(pk)
        n_lemma2 += int(near.sum())
        k3, first = np.unique(k2[hit], return_index=True)
        w3 = e2[hit][first]
        keys = np.concatenate([k1, k3])
        if want_pairs:
            hit_keys.append(keys)
            hit_ents.append(np.concatenate([w1, w3]))
        got = np.bincount(keys % ncol, minlength=n_columns)
        undecided = ~decided
        match[undecided] += got[undecided]
        mismatch[undecided] += (b - a) - got[undecided]
        if early_accept:
            acc_now = undecided & (match >= t_abs)
            accepted += int(acc_now.sum())
            decided |= acc_now
        if early_prune:                                                            # Lemma 7
            pr = undecided & (nq - mismatch < t_abs)
            pruned += int(pr.sum())
            decided |= pr
    ok = np.nonzero(match >= t_abs)[0]
    for c in exclude:
        ok = ok[ok != c]
    stats["verify_s"] = stats.get("verify_s", 0.0) + time.perf_counter() - t1
    for k, v in (("distance_computations", n_dist), ("lemma1_filtered", n_lemma1),
                 ("lemma2_matched", n_lemma2), ("columns_pruned_lemma7", pruned),
                 ("columns_accepted_early", accepted)):
        stats[k] = stats.get(k, 0) + v
    pairs = {}
    if want_pairs and len(ok):
        keys = np.concatenate(hit_keys)
        ents = np.concatenate(hit_ents)
        sel = np.isin(keys % ncol, ok)
        keys, ents = keys[sel], ents[sel]
        qidx, cols = keys // ncol, keys % ncol
        toks = part.tokens[part.ent_row[ents]]
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
    (notes A11.4)."""
    return max(1, math.ceil(t_frac * n_query - 1e-9))


def search(parts, vectors, qvecs, tau: float, t_frac: float, n_columns: int, **kw) -> PexesoResult:
    """PEXESO over every partition (each a column group with its own index); union [P §IV]."""
    t_abs = t_count(t_frac, len(qvecs))
    stats: dict = {"partitions": 0}
    cols, counts, pairs = [], [], {}
    for part in parts:
        part = part() if callable(part) else part      # lazily loaded partitions
        stats["partitions"] += 1
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

    ``prefilter``: find candidate pairs with one matrix product (d^2 = 2 - 2 q.x for unit
    vectors) with a 1e-6 margin, then decide them with :func:`distances` (same answer, far
    faster; the benchmark's numpy brute force)."""
    n_tok = len(vectors)
    within = np.zeros((len(qvecs), n_tok), dtype=bool)
    q64 = np.asarray(qvecs, dtype=np.float64)
    for s in range(0, n_tok, chunk):
        x = np.asarray(vectors[s:s + chunk], dtype=np.float64)
        if prefilter:
            d2 = 2.0 - 2.0 * (q64 @ x.T)
            qi, xi = np.nonzero(d2 <= (tau + 1e-6) ** 2)
            ok = distances(q64[qi], x[xi]) <= tau
            within[qi[ok], s + xi[ok]] = True
        else:
            d = distances(q64[:, None, :], x[None, :, :])
            within[:, s:s + chunk] = d <= tau
    sizes = np.diff(sets_indptr)
    counts = np.zeros(len(sizes), dtype=np.int64)
    nz = np.nonzero(sizes)[0]
    if len(nz):
        cols = within[:, sets_tokens]                        # |Q| x nnz
        anyhit = np.logical_or.reduceat(cols, sets_indptr[nz], axis=1)
        counts[nz] = anyhit.sum(axis=0)
    return counts


# ------------------------------------------------------------------------- engine method

class PexesoModel:
    """The PEXESO component of an opened index: embedder, vectors, partitions (lazy)."""

    def __init__(self, index):
        self.index = index
        self.section = index.components["pexeso"]

    @cached_property
    def embedder(self):
        from ..embed import get_embedder
        return get_embedder(self.section["embedder"])

    @cached_property
    def vectors(self) -> np.ndarray:
        return self.index.load_npy("pexeso/vectors.npy")

    def partition(self, p: int) -> PexesoPartition:
        ld = self.index.load_npy
        base = f"pexeso/part{p:04d}/"
        meta = self.section["partitions"][p]
        return PexesoPartition(
            pivots=ld(base + "pivots.npy"), lo=ld(base + "lo.npy"), hi=ld(base + "hi.npy"),
            levels=int(self.section["levels"]), tokens=ld(base + "tokens.npy"),
            mapped=ld(base + "mapped.npy"), cell_keys=ld(base + "cell_keys.npy"),
            cell_ptr=ld(base + "cell_ptr.npy"), ent_col=ld(base + "ent_col.npy"),
            ent_row=ld(base + "ent_row.npy")) if meta["vectors"] else None

    def partitions(self):
        for p in range(len(self.section["partitions"])):
            if self.section["partitions"][p]["vectors"]:
                yield (lambda p=p: self.partition(p))


def _model(index) -> PexesoModel:
    m = getattr(index, "_pexeso_model", None)
    if m is None:
        m = PexesoModel(index)
        index._pexeso_model = m
    return m


def _run(index, query, params):
    from .registry import Candidate
    opts = params.options
    tau = float(opts.get("tau", DEFAULT_TAU))
    t_frac = opts.get("joinability", opts.get("T"))
    if t_frac is None:
        t_frac = params.threshold if params.threshold is not None else DEFAULT_T
    t_frac = float(t_frac)
    if not 0 <= tau <= 2:
        raise ValueError(f"tau is a distance between unit vectors, 0..2 (got {tau}).")
    if not 0 <= t_frac <= 1:
        raise ValueError(f"joinability T is a fraction of the query's values, 0..1 (got {t_frac}).")
    model = _model(index)
    t0 = time.perf_counter()
    qvecs = model.embedder.embed(query.tokens)
    embed_s = time.perf_counter() - t0
    res = search(model.partitions(), model.vectors, qvecs, tau, t_frac, index.arrays.n_sets,
                 early_accept=bool(opts.get("early_accept", False)),
                 exclude=sorted(query.exclude))
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
            exact=not opts.get("early_accept", False),
            details={"matched_tokens": [query.tokens[q] for q in qi], "pairs": pairs,
                     "tau": tau, "joinability": n / max(query.size, 1)}))
    stats = dict(res.stats, tau=tau, T=t_frac, embed_s=embed_s, query_vectors=len(qvecs))
    return out, stats


def _register():
    from .registry import ParamSpec, SearchMethod, register_method
    register_method(SearchMethod(
        name="pexeso", label="Fuzzy / semantic (PEXESO)", kind="exact", run=_run,
        requires=("pexeso",), priority=-10, score_name="joinability",
        description="Columns in which at least a fraction T of the query's values have a "
                    "value within distance tau in embedding space (exact, PEXESO).",
        params=(ParamSpec("tau", "distance tau", "float", DEFAULT_TAU, 0.0, 1.0, 0.01,
                          help="max distance between unit embeddings (0..2); 0.12 = 6% of max"),
                ParamSpec("joinability", "joinability T", "float", DEFAULT_T, 0.05, 1.0, 0.05,
                          help="fraction of the query's values that must find a match"))))


_register()
