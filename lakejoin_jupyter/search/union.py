"""Table union search: the lake tables whose rows can be stacked under a query frame.

Nargesian et al., "Table Union Search on Open Data", VLDB 2018 [TUS]; D3L (Bogatu et al.,
ICDE 2020) for the format and numeric evidence. Per query column, evidence against a lake
column (index/union_profile.py): set unionability from the exact overlap [TUS §3.1], the
cosine of column vectors [TUS §5.1.3], format-histogram intersection and 1 - KS distance of
numeric sketches [D3L], header 3-grams (weak). Each is turned into a likelihood against the
lake's background (the share of a fixed sample of lake columns it beats [TUS §5]) and the
column score is their weighted mean [TUS's ensemble]. Candidates: per query column, the
columns sharing values (the index's postings) and the nearest column vectors; a table's
alignment is the max-weight bipartite matching of query columns to its columns (pairs under
``min_column`` left out) and its score the matched sum over the number of query columns.

Note:
    - The ensemble is a weighted mean of sharpened likelihoods, not TUS's max (the max lets
      one coincidental measure decide); sharpness and min_column tuned on development seeds.
    - Nearest neighbours are exact (one matrix product over the lake's column vectors).
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..embed import cached_embedder
from ..errors import QueryError
from ..index.union_profile import (cell_text, column_vectors, cosine,
                                   format_histogram, format_similarity, header_grams,
                                   is_numeric, ks_similarity,
                                   numeric_summary_counted, sample_tokens,
                                   set_statistic)
from ..lake.normalize import normalize_many

EVIDENCE = ("set", "semantic", "format", "numeric", "header")
WEIGHTS = {"set": 1.0, "semantic": 1.0, "format": 1.0, "numeric": 1.0, "header": 0.25}
BASELINES = {"header": {"header": 1.0}, "overlap": {"set": 1.0}}
MIN_COLUMN = 0.5            # a pair scoring less is not aligned
SHARPNESS = 8.0             # likelihood exponent: the top of the background decides
NEIGHBOURS = 20             # nearest columns per query column (vectors), and by overlap
MAX_TABLES = 60             # candidate tables scored per query (most candidate columns)
BACKGROUND = 400            # lake columns sampled as the background of each measure
MAX_VALUES = 20_000         # query values profiled per column (a sample above)


@dataclass
class LakeProfiles:
    """The union arrays of every generation, concatenated by global column id."""
    fmt: np.ndarray
    share: np.ndarray
    n_num: np.ndarray
    quantiles: np.ndarray
    vectors: np.ndarray
    sizes: np.ndarray
    table_ids: np.ndarray
    headers: object             # sparse (columns x header 3-grams) indicator matrix
    grams: dict                 # header 3-gram -> matrix column
    embedder: dict
    sample_values: int
    background: np.ndarray
    _fmt_unit: np.ndarray | None = None

    @property
    def numeric(self) -> np.ndarray:
        return is_numeric(self.share, self.n_num)

    @property
    def fmt_unit(self) -> np.ndarray:
        """Format histograms scaled to unit length (the nearest-neighbour key)."""
        if self._fmt_unit is None:
            f = np.asarray(self.fmt, dtype=np.float32)
            self._fmt_unit = f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-12)
        return self._fmt_unit


_PROFILES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def lake_profiles(index) -> LakeProfiles:
    got = _PROFILES.get(index)
    if got is not None:
        return got
    if not index.has("union"):
        raise QueryError(f"The index {index.path} has no union component: rebuild it with "
                         f"`lakejoin index LAKE --out {index.path} --overwrite --with union` "
                         f"(Python: build_index(LAKE, OUT, components=['union'])).")
    parts = {k: [] for k in ("format", "numeric_share", "numeric_n", "quantiles", "vectors")}
    sizes = []
    for g in index.generations:
        for k in parts:
            parts[k].append(np.asarray(g.load_npy(f"union/{k}.npy")))
        sizes.append(np.diff(np.asarray(g.arrays.sets_indptr)))
    cols = index.columns
    sec = index.components["union"]
    n = len(cols)
    have = np.flatnonzero(np.concatenate(sizes) > 0)
    rng = np.random.default_rng(0)
    bg = np.sort(rng.choice(have, size=min(BACKGROUND, len(have)), replace=False)) \
        if len(have) else np.zeros(0, np.int64)
    headers, grams = header_matrix([header_grams(c) for c in cols["name"]])
    p = LakeProfiles(fmt=np.concatenate(parts["format"]), share=np.concatenate(parts["numeric_share"]),
                     n_num=np.concatenate(parts["numeric_n"]),
                     quantiles=np.concatenate(parts["quantiles"]),
                     vectors=np.concatenate(parts["vectors"]), sizes=np.concatenate(sizes),
                     table_ids=cols["table_id"].to_numpy(), headers=headers, grams=grams,
                     embedder=sec["embedder"], sample_values=int(sec["sample_values"]),
                     background=bg)
    assert len(p.sizes) == n
    _PROFILES[index] = p
    return p


def header_matrix(gram_sets: list):
    """A sparse 0/1 matrix (one row per column name, one column per 3-gram) and the
    3-gram -> column map."""
    from scipy.sparse import csr_matrix
    grams: dict = {}
    indptr, indices = [0], []
    for g in gram_sets:
        indices += [grams.setdefault(x, len(grams)) for x in sorted(g)]
        indptr.append(len(indices))
    m = csr_matrix((np.ones(len(indices), np.float32), indices, indptr),
                   shape=(len(gram_sets), max(len(grams), 1)))
    return m, grams


def header_similarities(q: frozenset, lp: "LakeProfiles", ids: np.ndarray) -> np.ndarray:
    """Jaccard of q's header 3-grams with those of lake columns ``ids``."""
    known = [lp.grams[g] for g in q if g in lp.grams]
    if not q:
        return np.zeros(len(ids))
    rows = lp.headers[ids]
    inter = np.asarray(rows[:, known].sum(axis=1)).ravel() if known else np.zeros(len(ids))
    union = len(q) + np.diff(rows.indptr) - inter
    return np.divide(inter, union, out=np.zeros(len(ids)), where=union > 0)


# ----------------------------------------------------------------------- query side

@dataclass
class QueryColumn:
    name: object
    tokens: list            # distinct tokens
    fmt: np.ndarray
    share: float
    n_num: int
    quantiles: np.ndarray
    vector: np.ndarray
    header: frozenset

    @property
    def numeric(self) -> bool:
        return bool(is_numeric(self.share, self.n_num))


def profile_frame(frame: pd.DataFrame, embedder, sample_values: int) -> list[QueryColumn]:
    """The union profile of each column of a pandas frame (what the build computes)."""
    out, samples = [], []
    for pos in range(frame.shape[1]):
        c = frame.columns[pos]
        codes, uniq = pd.factorize(frame.iloc[:, pos], use_na_sentinel=True)
        uniq = list(uniq)
        toks_u = normalize_many(uniq) + [None]          # code -1 (null) -> None
        counts = np.bincount(np.asarray(codes) + 1, minlength=len(uniq) + 1)
        texts = sorted({t for t in (cell_text(v) for v in uniq) if t is not None})
        # per distinct value, weighted by its cells (the build's numeric_summary over cells)
        share, n_num, q = numeric_summary_counted(toks_u, np.roll(counts, -1))
        distinct = sorted({t for t in toks_u if t is not None})
        samples.append(sample_tokens(distinct, sample_values))
        out.append(QueryColumn(c, distinct, format_histogram(texts), share, n_num, q, None,
                               header_grams(c)))
    vecs = column_vectors(embedder, samples)
    for qc, v in zip(out, vecs):
        qc.vector = v
    return out


def overlaps(index, tokens: list) -> np.ndarray:
    """|Q ∩ X| for every lake column X, from the posting lists of Q's tokens."""
    out = np.zeros(index.n_sets, dtype=np.int64)
    for g in index.generations:
        ids = g.lookup(tokens)
        ids = ids[ids >= 0]
        if not len(ids):
            continue
        a = g.arrays
        ptr = np.asarray(a.post_indptr)
        starts, ends = ptr[ids], ptr[ids + 1]
        sets = np.asarray(a.post_sets)
        lens = ends - starts
        idx = np.repeat(starts - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens) + \
            np.arange(int(lens.sum()))
        out[g.column_offset:g.column_offset + g.n_sets] += np.bincount(sets[idx], minlength=g.n_sets)
    return out


def evidence(q: QueryColumn, lp: LakeProfiles, ids: np.ndarray, overlap: np.ndarray,
             header: np.ndarray | None = None, semantic: np.ndarray | None = None) -> dict:
    """Raw evidence of query column q against lake columns ``ids`` (NaN: not applicable);
    ``overlap``: |Q ∩ X| per lake column; ``header``, ``semantic``: the header similarity
    and vector cosine per lake column, when already computed. Cosines are rounded to 6
    decimals, so equal vectors tie however the product was computed."""
    ids = np.asarray(ids, dtype=np.int64)
    sem = semantic[ids] if semantic is not None else \
        cosine(q.vector[None, :], lp.vectors[ids])[0]
    ev = {"set": set_statistic(overlap[ids], len(q.tokens), lp.sizes[ids]),
          "semantic": np.round(sem.astype(np.float64), 6),
          "format": format_similarity(q.fmt[None, :], lp.fmt[ids])[0].astype(np.float64)}
    num = np.full(len(ids), np.nan)
    both = lp.numeric[ids] & q.numeric
    if both.any():
        num[both] = ks_similarity(q.quantiles[None, :], lp.quantiles[ids[both]])
    ev["numeric"] = num
    ev["header"] = (header[ids] if header is not None
                    else header_similarities(q.header, lp, ids))
    return ev


def likelihoods(ev: dict, bg: dict) -> dict:
    """Each measure as the share of the background it beats (strictly), NaN kept."""
    out = {}
    for k, x in ev.items():
        b = bg[k][~np.isnan(bg[k])]
        if not len(b):
            out[k] = np.where(np.isnan(x), np.nan, np.clip(x, 0, 1))
            continue
        b = np.sort(b)
        u = np.searchsorted(b, np.nan_to_num(x, nan=-np.inf), side="left") / len(b)
        out[k] = np.where(np.isnan(x), np.nan, u)
    return out


def ensemble(u: dict, weights: dict, sharpness: float = 1.0) -> np.ndarray:
    """Weighted mean of the applicable likelihoods, each raised to ``sharpness`` (a measure
    that is NaN is left out)."""
    num = den = 0.0
    for k, w in weights.items():
        if not w:
            continue
        x = u[k]
        ok = ~np.isnan(x)
        num = num + np.where(ok, w * np.nan_to_num(x) ** sharpness, 0.0)
        den = den + np.where(ok, w, 0.0)
    return np.divide(num, den, out=np.zeros_like(np.asarray(num, dtype=np.float64)),
                     where=np.asarray(den) > 0)


def best_alignment(scores: np.ndarray, min_column: float = MIN_COLUMN) -> tuple[list, float]:
    """Max-weight matching of rows (query columns) to columns (lake columns) using pairs
    scoring >= min_column: ([(row, col), ...] sorted by row, matched sum)."""
    from scipy.optimize import linear_sum_assignment
    s = np.where(scores >= min_column, scores, 0.0)
    if not s.size or not s.any():
        return [], 0.0
    r, c = linear_sum_assignment(s, maximize=True)
    pairs = [(int(i), int(j)) for i, j in zip(r, c) if s[i, j] > 0]
    return pairs, float(sum(s[i, j] for i, j in pairs))


@dataclass
class UnionCandidate:
    table_id: int
    score: float
    pairs: list                 # [(query position, lake column id, column score)]
    evidence: dict = field(default_factory=dict)   # (query pos, column id) -> {measure: u}


def search(index, frame: pd.DataFrame, k: int = 10, *, weights: dict | None = None,
           min_column: float = MIN_COLUMN, sharpness: float = SHARPNESS, exclude_tables=(),
           neighbours: int = NEIGHBOURS, max_tables: int = MAX_TABLES) -> tuple[list, dict]:
    """The k most unionable lake tables of ``frame`` (see the module docstring)."""
    weights = dict(WEIGHTS if weights is None else weights)
    bad = set(weights) - set(EVIDENCE)
    if bad:
        raise QueryError(f"Unknown union evidence {sorted(bad)}; known: {list(EVIDENCE)}.")
    lp = lake_profiles(index)
    if len(frame) > MAX_VALUES:
        frame = frame.sample(MAX_VALUES, random_state=0)
    qcols = profile_frame(frame, cached_embedder(lp.embedder), lp.sample_values)
    active = [i for i, q in enumerate(qcols) if q.tokens]
    if not active:
        raise QueryError("The query frame has no values to search with (all null or empty).")
    n = len(lp.sizes)
    all_ids = np.arange(n)
    cand_cols: set = set()
    ov, heads = {}, {}
    # candidates: one float32 product per measure for all query columns (vector cosines
    # and format cosines)
    QV = np.stack([qcols[i].vector for i in active]).astype(np.float32)
    sem_all = lp.vectors @ QV.T                                    # (n, active)
    QF = np.stack([qcols[i].fmt for i in active]).astype(np.float32)
    QF /= np.maximum(np.linalg.norm(QF, axis=1, keepdims=True), 1e-12)
    near_all = sem_all + lp.fmt_unit @ QF.T
    for a, i in enumerate(active):
        q = qcols[i]
        ov[i] = overlaps(index, q.tokens)
        heads[i] = header_similarities(q.header, lp, all_ids)
        if weights.get("set"):
            shares = np.flatnonzero(ov[i])
            st = set_statistic(ov[i][shares], len(q.tokens), lp.sizes[shares])
            order = np.argsort(-st, kind="stable")[:neighbours]
            cand_cols.update(shares[order][st[order] > 0].tolist())
        if weights.get("semantic") or weights.get("format") or weights.get("numeric"):
            top = np.argpartition(-near_all[:, a], min(neighbours, n - 1))[:neighbours]
            cand_cols.update(top.tolist())
        if weights.get("header"):
            top = np.argpartition(-heads[i], min(neighbours, n - 1))[:neighbours]
            cand_cols.update(top[heads[i][top] > 0].tolist())
    cand = np.fromiter(cand_cols, np.int64, len(cand_cols))
    tables, hits = np.unique(lp.table_ids[cand], return_counts=True)
    keep = ~np.isin(tables, np.asarray(sorted(exclude_tables), dtype=np.int64))
    tables, hits = tables[keep], hits[keep]
    tables = np.sort(tables[np.argsort(-hits, kind="stable")[:max_tables]])
    tcat = index.tables
    first = tcat["first_column_id"].to_numpy()
    ncols = tcat["n_columns"].to_numpy()
    tables = tables[first[tables] >= 0]
    ids = np.concatenate([np.arange(first[t], first[t] + ncols[t]) for t in tables]) \
        if len(tables) else np.zeros(0, np.int64)
    S = np.zeros((len(qcols), len(ids)))
    U = {}
    for i in active:      # cosines again in float64 for the scored columns (see cosine)
        bg = evidence(qcols[i], lp, lp.background, ov[i], heads[i])
        U[i] = likelihoods(evidence(qcols[i], lp, ids, ov[i], heads[i]), bg)
        S[i] = ensemble(U[i], weights, sharpness)
    out, pos = [], 0
    for t in tables:
        m = int(ncols[t])
        pairs, total = best_alignment(S[:, pos:pos + m], min_column)
        if pairs:
            c = UnionCandidate(int(t), total / len(qcols),
                               [(i, int(ids[pos + j]), float(S[i, pos + j])) for i, j in pairs])
            c.evidence = {(i, int(ids[pos + j])): {e: float(U[i][e][pos + j]) for e in EVIDENCE}
                          for i, j in pairs}
            out.append(c)
        pos += m
    out.sort(key=lambda c: (-c.score, c.table_id))
    stats = {"candidate_columns": len(cand_cols), "candidate_tables": int(len(tables)),
             "query_columns": len(qcols), "lake_columns": n}
    return out[:k], stats
