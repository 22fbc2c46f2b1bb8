"""The exact oracle: overlap, containment and Jaccard of a query set against every set.

Deliberately independent of the posting lists: it scans the integer sets
(``sets_tokens``) with one vectorized membership test and one cumulative sum, so every
index-based algorithm (JOSIE, LSH Ensemble, MATE, ...) and the posting lists themselves are
checked against something that does not share their code path. Cost O(total set tokens)
per query, no Python loop per set.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..index.arrays import IndexArrays
from .registry import SearchMethod


@dataclass
class Scores:
    """Per-set exact scores for one query; arrays indexed by set id."""
    overlap: np.ndarray       # int64
    set_sizes: np.ndarray     # int64
    query_size: int           # |Q|, distinct query tokens, including tokens not in the lake

    @property
    def containment(self) -> np.ndarray:
        """|Q ∩ X| / |Q| (containment of the query in each set)."""
        return self.overlap / max(self.query_size, 1)

    @property
    def jaccard(self) -> np.ndarray:
        union = self.query_size + self.set_sizes - self.overlap
        return np.divide(self.overlap, union, out=np.zeros(len(union)), where=union > 0)


def overlaps(arrays: IndexArrays, query_token_ids: np.ndarray) -> np.ndarray:
    """|Q ∩ X| for every set X (query tokens given as distinct token ids)."""
    member = np.zeros(arrays.n_tokens, dtype=np.bool_)
    q = np.asarray(query_token_ids, dtype=np.int64)
    member[q[(q >= 0) & (q < arrays.n_tokens)]] = True
    cum = np.zeros(len(arrays.sets_tokens) + 1, dtype=np.int64)
    np.cumsum(member[arrays.sets_tokens], out=cum[1:])
    return cum[arrays.sets_indptr[1:]] - cum[arrays.sets_indptr[:-1]]


def scores(arrays: IndexArrays, query_token_ids: np.ndarray, query_size: int | None = None
           ) -> Scores:
    q = np.unique(np.asarray(query_token_ids, dtype=np.int64))
    q = q[q >= 0]
    size = len(q) if query_size is None else int(query_size)
    return Scores(overlap=overlaps(arrays, q), set_sizes=np.diff(arrays.sets_indptr),
                  query_size=size)


def topk(arrays: IndexArrays, query_token_ids: np.ndarray, k: int,
         exclude: np.ndarray | list | None = None, by: str = "overlap"
         ) -> list[tuple[int, int]]:
    """The k sets of largest overlap (or containment/jaccard), as [(set_id, overlap)].

    Only sets with overlap > 0 qualify (JOSIE Def. 1); ties are broken by smaller set id.
    """
    s = scores(arrays, query_token_ids)
    key = {"overlap": s.overlap, "containment": s.containment, "jaccard": s.jaccard}[by]
    candidates = np.nonzero(s.overlap > 0)[0]
    if exclude is not None and len(exclude):
        candidates = np.setdiff1d(candidates, np.asarray(exclude), assume_unique=False)
    order = np.lexsort((candidates, -key[candidates]))[:k]
    return [(int(c), int(s.overlap[c])) for c in candidates[order]]


def threshold(arrays: IndexArrays, query_token_ids: np.ndarray, t: float,
              query_size: int | None = None) -> np.ndarray:
    """Set ids whose containment of the query is at least t (LSH Ensemble's exact answer)."""
    s = scores(arrays, query_token_ids, query_size)
    return np.nonzero((s.overlap > 0) & (s.containment >= t - 1e-12))[0]


# ------------------------------------------------------------------ engine method

def _run(index, query, params):
    from .registry import Candidate

    s = scores(index.arrays, query.token_ids, query.size)
    keep = s.overlap > 0
    if params.threshold is not None:
        keep &= s.containment >= params.threshold - 1e-12
    ids = np.nonzero(keep)[0]
    if query.exclude:
        ids = np.setdiff1d(ids, np.fromiter(query.exclude, dtype=np.int64))
    order = np.lexsort((ids, -s.overlap[ids]))
    if params.k is not None:
        order = order[: params.k]
    return [Candidate(column_ids=(int(c),), score=float(s.overlap[c]), overlap=int(s.overlap[c]))
            for c in ids[order]], {}


METHOD = SearchMethod(
    name="bruteforce", label="Exact (brute force scan)", kind="exact", run=_run,
    requires=("sets",), priority=0, score_name="overlap", more="next",
    description="Scans every set; the oracle the other methods are tested against.")
