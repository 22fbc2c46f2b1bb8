"""What the exact top-k overlap methods share: the query's distinct posting lists, the
running top-k heap, the threshold, and the method result.

Distinct lists ("-D", JOSIE §3.5): the query's tokens, sorted in the global order, fall
into runs of one duplicate group each. Only the *last* token of a run has its posting list
read; the run's other ``skipped`` tokens are in exactly the same sets, at the positions
just before it, so a set met in that list is credited ``skipped + 1`` matches.

Indices are 0-based throughout, as in the authors' code (the paper's formulas are 1-based).
JOSIE's n is |Q ∩ U| (J §4.2): when the query comes from the lake, tokens held only by
excluded sets (the query column's own unique values) are dropped first, as the authors'
code does for self-queries. Details: docs/algorithms/josie.md.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np

from ..index.reads import is_cold, plain, prefetch, read_lists
from .containment import distinct_query
from .registry import Candidate


@dataclass
class DistinctLists:
    """The query in the global order, and its distinct posting lists."""
    tokens: np.ndarray       # int64 [n] query token ids, sorted (= global order)
    last: np.ndarray         # int64 [D] query position of the list read for each group
    first: np.ndarray        # int64 [D] query position of the group's first query token
    skipped: np.ndarray      # int64 [D] = last - first: tokens credited without a read
    list_tokens: np.ndarray  # int64 [D] token id whose posting list is read
    freqs: np.ndarray        # int64 [D] length of that list
    exclude: np.ndarray      # int64 sorted set ids never returned
    dropped: int = 0         # query tokens held only by excluded sets (not in U)
    cold: bool = False       # the index was not in the page cache (reads are advised ahead)

    @property
    def n(self) -> int:
        return len(self.tokens)

    @property
    def n_lists(self) -> int:
        return len(self.last)


def distinct_lists(a, token_ids, exclude=()) -> DistinctLists:
    """Map query token ids onto the distinct posting lists of the index arrays ``a``."""
    a = plain(a)
    q = distinct_query(a, token_ids)                  # the engine passes them sorted, distinct
    ex = np.unique(np.fromiter((int(x) for x in exclude), dtype=np.int64)) if len(exclude) \
        else np.zeros(0, dtype=np.int64)
    cold = is_cold(a.token_group, q)                    # then read ahead what follows
    if cold:
        for arr in (a.token_group, a.token_freq):
            prefetch(arr, q)
        prefetch(a.post_indptr, q, 2)
    dropped = 0
    if len(ex) and len(q):
        freq = a.token_freq[q].astype(np.int64)
        small = np.nonzero(freq <= len(ex))[0]
        if len(small):
            # advised when cold, like every read: an unadvised fault reads 8 MiB around it
            sids, _, _, lens = read_lists(a, q[small], positional=False, readahead=cold)
            hit = np.isin(sids, ex).astype(np.int64)
            held = np.add.reduceat(hit, np.r_[0, np.cumsum(lens)[:-1]]) if len(sids) else \
                np.zeros(len(small), dtype=np.int64)
            only_excluded = small[held == lens]
            if len(only_excluded):
                q = np.delete(q, only_excluded)
                dropped = len(only_excluded)
    if len(q) == 0:
        z = np.zeros(0, dtype=np.int64)
        return DistinctLists(q, z, z, z, z, z, ex, dropped, cold)
    g = a.token_group[q]
    is_last = np.empty(len(q), dtype=bool)
    is_last[:-1] = g[1:] != g[:-1]
    is_last[-1] = True
    last = np.nonzero(is_last)[0]
    first = np.empty_like(last)
    first[0] = 0
    first[1:] = last[:-1] + 1
    lt = q[last]
    return DistinctLists(tokens=q, last=last, first=first, skipped=last - first, list_tokens=lt,
                         freqs=a.token_freq[lt].astype(np.int64), exclude=ex, dropped=dropped,
                         cold=cold)


def min_overlap(params, query_size: int) -> int:
    """Smallest overlap a result may have: 1 (J Def. 1), or the containment threshold."""
    if params.threshold is None:
        return 1
    return max(1, math.ceil(params.threshold * query_size - 1e-9))


class TopK:
    """Running top-k as a binary min-heap of (overlap, set id) (J §2.3).

    ``theta`` is the k-th overlap (0 until k results exist), raised to ``floor`` when a
    containment threshold asks for at least ``floor + 1`` matches. ``k=None`` keeps every
    result above the floor.
    """

    def __init__(self, k: int | None, floor: int = 0):
        self.k = k
        self.floor = floor
        self.h: list = []

    @property
    def full(self) -> bool:
        return self.k is not None and len(self.h) >= self.k

    @property
    def theta(self) -> int:
        return max(self.h[0][0], self.floor) if self.full else self.floor

    @property
    def theta_k1(self) -> float:
        """The (k-1)-th overlap: the smaller child of the root once full (J Eq.5); while one
        short of full, the heap's minimum; +inf for k = 1."""
        if self.k == 1:
            return math.inf
        if self.full:
            h = self.h
            return max(min(h[1][0], h[2][0]) if len(h) > 2 else h[1][0], self.floor)
        if self.k is not None and len(self.h) == self.k - 1:
            return max(self.h[0][0], self.floor)
        return self.floor

    def push(self, overlap: int, set_id: int) -> bool:
        """TryPopPush: keep the set if it beats the k-th (strictly) or the heap has room."""
        if overlap <= self.floor:
            return False
        if not self.full:
            heapq.heappush(self.h, (overlap, set_id))
            return True
        if overlap > self.h[0][0]:
            heapq.heapreplace(self.h, (overlap, set_id))
            return True
        return False

    def push_many(self, overlaps: np.ndarray, set_ids: np.ndarray) -> None:
        """Push a batch of exact results (only the best k of them can matter)."""
        keep = overlaps > self.theta
        overlaps, set_ids = overlaps[keep], set_ids[keep]
        if self.k is not None and len(overlaps) > self.k:
            top = np.argpartition(-overlaps, self.k - 1)[: self.k]
            overlaps, set_ids = overlaps[top], set_ids[top]
        for o, s in zip(overlaps.tolist(), set_ids.tolist()):
            self.push(o, s)

    def results(self) -> list:
        """[(set id, overlap)] best first, ties by smaller set id."""
        return [(s, o) for o, s in sorted(self.h, key=lambda x: (-x[0], x[1]))]


def candidates(results) -> list:
    return [Candidate(column_ids=(int(s),), score=float(o), overlap=int(o), exact=True)
            for s, o in results]


def method_runner(search):
    """The registry's ``run(index, query, params)`` for an exact top-k ``search(arrays,
    token_ids, k, exclude, floor_overlap)`` that takes no options (MergeList-D, ProbeSet-D)."""
    def run(index, query, params):
        res, st = search(index.arrays, query.token_ids, params.k, query.exclude,
                         min_overlap(params, query.size))
        return candidates(res), st.as_dict()
    return run


@dataclass
class Stats:
    """Per-query work counters reported in SearchResult.stats (J §4.5, Figs 5/7)."""
    method: str
    n: int = 0                    # |Q ∩ U|
    distinct_lists: int = 0       # D: posting lists a full read would touch
    lists_read: int = 0
    posting_entries_read: int = 0
    sets_read: int = 0
    set_tokens_read: int = 0
    extra: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        d = {"method": self.method, "n": self.n, "distinct_lists": self.distinct_lists,
             "lists_read": self.lists_read, "posting_entries_read": self.posting_entries_read,
             "sets_read": self.sets_read, "set_tokens_read": self.set_tokens_read}
        d.update(self.extra)
        return d
