"""Exact containment of candidate sets, and the exact containment-threshold search by the
prefix filter.

:func:`exact_overlaps` is LSH Ensemble's verification step (thesis §2.4.2: candidates are
checked against the sets); :func:`prefix_filter_search` answers the same question, "every
set X with |Q ∩ X| >= t*|Q|", exactly and without the LSH tables:

    need = min_overlap(t*, |Q|). Of the n query values the index knows, X misses at most
    n - need, so X holds at least one of *any* n - need + 1 of them (pigeonhole: the prefix
    filter of set-similarity joins, Chaudhuri et al., ICDE 2006; JOSIE §3.3 bounds its
    prefix the same way). Read the posting lists of the n - need + 1 query values with the
    *shortest* lists; every set they name with |X| >= need is a candidate. The prefix is
    extended when that is cheap, and a candidate must then be named by several of its lists
    (:func:`prefix_lists`). A candidate's overlap is its count among the lists read plus its
    overlap with the query values not read, computed exactly (:func:`exact_overlaps`).

The thesis compares LSH Ensemble with exact search and finds exact search faster on some
workloads (§2.5.5, and JOSIE against LSH Ensemble); LSH Ensemble's query routes to this
search when its cost model says so (search/lshensemble.py, "Routing").
"""
from __future__ import annotations

import math
import threading

import numpy as np

from ..index.reads import ranges


def min_overlap(t: float, q_size: int) -> int:
    """The least |Q ∩ X| with containment >= t (within 1e-12), at least 1."""
    return max(1, math.ceil(q_size * (float(t) - 1e-12) - 1e-9))


def distinct_query(arrays, q_ids) -> np.ndarray:
    """The query's token ids, sorted, distinct, and known to the index."""
    q = np.asarray(q_ids, dtype=np.int64)
    if len(q) > 1 and not (q[1:] > q[:-1]).all():
        q = np.unique(q)
    if len(q) and (q[0] < 0 or q[-1] >= arrays.n_tokens):
        q = q[(q >= 0) & (q < arrays.n_tokens)]
    return q


# Strategy costs, microseconds: (fixed, per unit), least squares over the three strategies
# timed on the candidates of 600 (query, t*) of the 10^5-set benchmark lake
# (bench/containment_costs.py). Units: posting entries, set tokens, (candidates, search steps).
COST_POSTINGS_US = (76.0, 0.0068)
COST_SCAN_US = (57.0, 0.0051)
COST_PROBE_US = (26.0, 4.3, 0.0018)


def exact_overlaps(arrays, q_ids: np.ndarray, set_ids: np.ndarray, strategy: str | None = None,
                   distinct: bool = False) -> tuple[np.ndarray, str]:
    """Exact |Q ∩ X| for each X in ``set_ids`` and the strategy used: the cheapest of
    posting lists of Q (reads sum |P_t| entries), a scan of the candidate sets (sum |X|
    tokens), or a binary search of each query value in each candidate set (|C| |Q| log |X|
    steps, one ``searchsorted`` call per candidate). The posting and scan strategies look
    each entry up in a scratch array (set id -> candidate slot, token id -> in Q): one
    gather per entry, no sort, no search.
    ``strategy`` forces one (tests); ``distinct``: ``q_ids`` is already a
    :func:`distinct_query`."""
    set_ids = np.asarray(set_ids, dtype=np.int64)
    q = q_ids if distinct else distinct_query(arrays, q_ids)
    if len(set_ids) == 0 or len(q) == 0:
        return np.zeros(len(set_ids), dtype=np.int64), "none"
    ip = arrays.post_indptr
    plen = ip[q + 1] - ip[q]
    sp = arrays.sets_indptr
    slen = sp[set_ids + 1] - sp[set_ids]
    cost = strategy_costs(float(plen.sum()), slen, len(q))
    how = strategy or min(cost, key=cost.get)
    if how == "postings":
        # each posting of a query value, located among the (sorted) candidates, counted
        hit = arrays.post_sets[ranges(ip[q], plen)]
        if len(set_ids) > 1 and not (set_ids[1:] > set_ids[:-1]).all():
            s, inv = np.unique(set_ids, return_inverse=True)
        else:                                  # already sorted and distinct (the usual case)
            s, inv = set_ids, None
        with _SLOTS_LOCK:                      # slot: set id -> candidate number + 1, else 0
            slot = _scratch(int(arrays.n_sets), np.int32, 0)
            slot[s] = np.arange(1, len(s) + 1, dtype=slot.dtype)
            j = slot[hit]
            slot[s] = 0
        counts = np.bincount(j, minlength=len(s) + 1)[1:]          # bin 0: not a candidate
        return (counts if inv is None else counts[inv]).astype(np.int64), how
    if how == "scan":
        toks = arrays.sets_tokens[ranges(sp[set_ids], slen)]
        with _SLOTS_LOCK:                      # member: token id -> in Q
            member = _scratch(int(arrays.n_tokens), np.bool_, False)
            member[q] = True
            inq = member[toks]
            member[q] = False
        cum = np.zeros(len(inq) + 1, dtype=np.int64)
        np.cumsum(inq, out=cum[1:])
        ends = np.cumsum(slen)
        return cum[ends] - cum[ends - slen], how
    counts = np.empty(len(set_ids), dtype=np.int64)
    tokens = arrays.sets_tokens
    qt = q.astype(tokens.dtype) if q[-1] <= np.iinfo(tokens.dtype).max else q
    for c, (lo, n) in enumerate(zip(sp[set_ids].tolist(), slen.tolist())):
        x = tokens[lo:lo + n]                           # a view: nothing copied
        counts[c] = np.count_nonzero(x[np.minimum(np.searchsorted(x, qt), n - 1)] == qt) if n else 0
    return counts, how


def strategy_costs(query_entries: float, set_sizes: np.ndarray, n_query: int) -> dict:
    """Predicted microseconds of each verification strategy (see the constants above)."""
    p0, p1 = COST_POSTINGS_US
    s0, s1 = COST_SCAN_US
    b0, b1, b2 = COST_PROBE_US
    steps = n_query * float(np.log2(set_sizes + 2.0).sum())
    return {"postings": p0 + p1 * query_entries, "scan": s0 + s1 * float(set_sizes.sum()),
            "probe": b0 + b1 * len(set_sizes) + b2 * steps}


_SLOTS: dict = {}       # (length, dtype) -> scratch array, all `fill` between uses
_SLOTS_LOCK = threading.Lock()


def _scratch(n: int, dtype, fill) -> np.ndarray:
    """A reused scratch array of n entries equal to ``fill`` (call with _SLOTS_LOCK held;
    the caller restores every entry it sets): a lookup then costs one gather instead of a
    sort or a search per entry."""
    key = (n, np.dtype(dtype).str)
    arr = _SLOTS.get(key)
    if arr is None:
        if len(_SLOTS) > 8:
            _SLOTS.clear()
        # zeros: untouched pages of a large scratch stay unallocated
        arr = _SLOTS[key] = np.zeros(n, dtype=dtype) if not fill else np.full(n, fill, dtype)
    return arr


def prefix_lists(arrays, q: np.ndarray, need: int):
    """The posting lists the prefix filter reads: (starts, lengths, total length of all
    the query's lists, least hits, the query values not read). The ``p = len(q) - need + 1``
    shortest lists, extended by the next ``s`` shortest while that at most doubles the
    entries read (s <= p): a set with overlap >= need misses at most p - 1 of any query
    values, so it is named by at least ``s + 1`` of the p + s lists (the "l-prefix" of Wang
    et al., SIGMOD 2012). The extension is cheap when the prefix is made of rare values
    (high t*), and it drops the sets that share just one of them before they cost a
    verification."""
    ip = arrays.post_indptr
    lo = ip[q]
    plen = ip[q + 1] - lo
    total = int(plen.sum())
    p = len(q) - need + 1
    if p <= 0:
        return lo[:0], plen[:0], total, 1, q
    if p >= len(q):
        return lo, plen, total, 1, q[:0]
    # token ids follow the global order (ascending frequency, index/arrays.py), so a sorted
    # query's lists come shortest first; sort them only if an index breaks that
    order = None
    if not (plen[1:] >= plen[:-1]).all():
        order = np.argsort(plen, kind="stable")
        lo, plen = lo[order], plen[order]
    cum = np.cumsum(plen)
    base = int(cum[p - 1])
    # largest s <= p with cum[p + s - 1] <= 2 * base (0 when the next list alone exceeds it)
    s_max = min(p, len(q) - p)
    s = int(np.searchsorted(cum[p:p + s_max], 2 * base, side="right"))
    rest = q[p + s:] if order is None else np.sort(q[order[p + s:]])
    return lo[:p + s], plen[:p + s], total, s + 1, rest


def exclusion_mask(ids: np.ndarray, exclude):
    """True for the ids not in ``exclude`` (a few set ids: compared one by one, which is
    cheaper than ``np.isin`` for a handful), or True when nothing is excluded."""
    if not len(exclude) or len(ids) == 0:
        return True
    if len(exclude) > 16:
        return ~np.isin(ids, np.fromiter(exclude, dtype=np.int64))
    keep = np.ones(len(ids), dtype=bool)
    for e in exclude:
        keep &= ids != e
    return keep


def without(ids: np.ndarray, exclude) -> np.ndarray:
    """``ids`` minus the (few) set ids in ``exclude``, order kept."""
    keep = exclusion_mask(ids, exclude)
    return ids if keep is True else ids[keep]


def prefix_candidates(arrays, set_sizes, starts, lengths, min_hits: int, need: int, exclude=()):
    """The sets the prefix lists name at least ``min_hits`` times, of size >= need and not
    excluded, with their number of matches among the values read: (set ids, counts)."""
    if len(lengths) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    cand, count = np.unique(arrays.post_sets[ranges(starts, lengths)], return_counts=True)
    keep = (count >= min_hits) & (set_sizes[cand] >= need)
    keep &= exclusion_mask(cand, exclude)
    return cand[keep].astype(np.int64), count[keep]


def prefix_filter_search(arrays, set_sizes: np.ndarray, q_ids: np.ndarray, q_size: int,
                         t: float, exclude=(), lists=None, distinct: bool = False):
    """Every set (not in ``exclude``) whose containment of Q is >= t, exactly:
    (set ids, overlaps, stats), unordered. ``q_size`` is |Q| (the query's distinct values,
    some maybe unknown to the index); containment is overlap / q_size. ``lists``: the
    :func:`prefix_lists` of this query and threshold, when already computed; ``distinct``:
    ``q_ids`` is already a :func:`distinct_query`."""
    q = q_ids if distinct else distinct_query(arrays, q_ids)
    need = min_overlap(t, q_size)
    starts, lengths, total, min_hits, rest = (lists if lists is not None
                                              else prefix_lists(arrays, q, need))
    stats = {"prefix_lists": len(lengths), "prefix_entries": int(lengths.sum()),
             "query_entries": total, "min_hits": min_hits}
    empty = np.zeros(0, dtype=np.int64)
    cand, count = prefix_candidates(arrays, set_sizes, starts, lengths, min_hits, need, exclude)
    if len(cand) == 0:
        stats.update(candidates=0, verify_strategy="none")
        return empty, empty, stats
    ov, how = exact_overlaps(arrays, rest, cand, distinct=True)
    ov += count
    keep = (ov >= need) & (ov / q_size >= t - 1e-12)      # the verification's own test
    stats.update(candidates=int(len(cand)), verify_strategy=how)
    return cand[keep], ov[keep], stats
