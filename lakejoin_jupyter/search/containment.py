"""Exact containment of candidate sets, and the exact containment-threshold search by the
prefix filter.

:func:`exact_overlaps` is LSH Ensemble's verification step (thesis §2.4.2);
:func:`prefix_filter_search` answers the same question, "every set X with |Q ∩ X| >= t*|Q|",
exactly and without the LSH tables: X misses at most n - need of the n query values the
index knows, so it holds one of *any* n - need + 1 of them (the prefix filter of
set-similarity joins, Chaudhuri et al., ICDE 2006; JOSIE §3.3). The lists of the values
with the shortest lists are read, the prefix extended when that is cheap
(:func:`prefix_lists`), and every set named is verified exactly.

LSH Ensemble's query routes here when its cost model says so (the thesis finds exact
search faster on some workloads, §2.5.5). Details: docs/algorithms/lshensemble.md.
"""
from __future__ import annotations

import functools
import math
import threading
from typing import NamedTuple

import numpy as np

from ..index.reads import ranges, read_spans


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
    sp = arrays.sets_indptr
    s_lo = sp[set_ids]
    slen = sp[set_ids + 1] - s_lo
    how = strategy
    if how is None and probe_cost(slen, len(q)) <= min(COST_POSTINGS_US[0], COST_SCAN_US[0]):
        how = "probe"                          # the others cost at least their fixed part
    elif how is None:
        cost = strategy_costs(float((ip[q + 1] - ip[q]).sum()), slen, len(q))
        how = min(cost, key=cost.get)
    if how == "postings":
        # each posting of a query value, located among the (sorted) candidates, counted
        q_lo = ip[q]
        hit = arrays.post_sets[ranges(q_lo, ip[q + 1] - q_lo)]
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
        toks = arrays.sets_tokens[ranges(s_lo, slen)]
        with _SLOTS_LOCK:                      # member: token id -> in Q
            member = _scratch(int(arrays.n_tokens), np.bool_, False)
            member[q] = True
            inq = member[toks]
            member[q] = False
        cum = np.zeros(len(inq) + 1, dtype=np.int64)
        np.cumsum(inq, out=cum[1:])
        ends = np.cumsum(slen)
        return cum[ends] - cum[ends - slen], how
    counts = np.zeros(len(set_ids), dtype=np.int64)
    tokens = arrays.sets_tokens
    qt = q.astype(tokens.dtype) if q[-1] <= _max_of(tokens.dtype) else q
    for c, (lo, n) in enumerate(zip(s_lo.tolist(), slen.tolist())):
        if n:
            x = tokens[lo:lo + n]                       # a view: nothing copied
            at = x.searchsorted(qt)
            np.minimum(at, n - 1, out=at)
            counts[c] = np.count_nonzero(x[at] == qt)
    return counts, how


@functools.lru_cache(maxsize=None)
def _max_of(dtype) -> int:
    return int(np.iinfo(dtype).max)


def strategy_costs(query_entries: float, set_sizes: np.ndarray, n_query: int) -> dict:
    """Predicted microseconds of each verification strategy (see the constants above)."""
    p0, p1 = COST_POSTINGS_US
    s0, s1 = COST_SCAN_US
    return {"postings": p0 + p1 * query_entries, "scan": s0 + s1 * float(set_sizes.sum()),
            "probe": probe_cost(set_sizes, n_query)}


def probe_cost(set_sizes: np.ndarray, n_query: int) -> float:
    """Predicted microseconds of the binary-search strategy."""
    b0, b1, b2 = COST_PROBE_US
    return b0 + b1 * len(set_sizes) + b2 * n_query * float(np.log2(set_sizes + 2.0).sum())


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


class PrefixLists(NamedTuple):
    """The posting lists the prefix filter reads (:func:`prefix_lists`)."""
    starts: np.ndarray      # where each list read starts in post_sets
    lengths: np.ndarray     # its length
    total: int              # entries of all the query's lists (read or not)
    min_hits: int           # least number of the lists read that name an answer
    rest: np.ndarray        # the query values whose lists are not read, sorted
    entries: int            # entries of the lists read


def prefix_lists(arrays, q: np.ndarray, need: int) -> PrefixLists:
    """The posting lists the prefix filter reads: the ``p = len(q) - need + 1`` shortest
    lists, extended by the next ``s`` shortest while that at most doubles the entries read
    (s <= p): a set with overlap >= need misses at most p - 1 of any query values, so it is
    named by at least ``s + 1`` of the p + s lists (the "l-prefix" of Wang et al., SIGMOD
    2012). The extension is cheap when the prefix is made of rare values (high t*), and it
    drops the sets that share just one of them before they cost a verification."""
    ip = arrays.post_indptr
    lo = ip[q]
    plen = ip[q + 1] - lo
    p = len(q) - need + 1
    if p <= 0 or p >= len(q):
        total = int(plen.sum())
        if p <= 0:
            return PrefixLists(lo[:0], plen[:0], total, 1, q, 0)
        return PrefixLists(lo, plen, total, 1, q[:0], total)
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
    s = int(cum[p:p + s_max].searchsorted(2 * base, side="right"))
    rest = q[p + s:] if order is None else np.sort(q[order[p + s:]])
    return PrefixLists(lo[:p + s], plen[:p + s], int(cum[-1]), s + 1, rest, int(cum[p + s - 1]))


ROUTE_SAMPLES = 512   # queries over twice this long are priced from 2 x this many lengths


def prefix_entries_estimate(arrays, q: np.ndarray, need: int,
                            samples: int = ROUTE_SAMPLES) -> tuple[float, float] | None:
    """(entries of the lists :func:`prefix_lists` would read, entries of all the query's
    lists), estimated from ``samples`` evenly spaced query values, for pricing the route of
    a long query without reading every list's length (a cache miss each). List lengths
    grow with the token id (the global order), so between two sampled values they are
    interpolated linearly; the longest ``samples`` lists are read exactly.
    None when the query is short (read the lengths) or the sampled lengths are out of order
    (an index that breaks the global order)."""
    n = len(q)
    if n <= 2 * samples:
        return None
    ip = arrays.post_indptr
    # the last `samples` values exactly (the longest lists: in a heavy-tailed lake they
    # weigh most), the rest sampled evenly; strictly rising positions
    head = n - samples
    at = np.r_[np.arange(samples, dtype=np.int64) * (head - 1) // (samples - 1),
               np.arange(head, n, dtype=np.int64)]
    lens = (ip[q[at] + 1] - ip[q[at]]).astype(np.float64)
    if not (lens[1:] >= lens[:-1]).all():
        return None
    # cum[k]: estimated entries of q[0 .. at[k]] (inclusive): the values between two samples
    # are taken at the mean of the two sampled lengths
    cum = np.empty(len(at))
    cum[0] = lens[0] * (at[0] + 1)
    cum[1:] = cum[0] + np.cumsum((lens[1:] + lens[:-1]) / 2 * (np.diff(at) - 1) + lens[1:])

    def entries_before(x):                 # entries of q[0 .. x - 1]
        return 0.0 if x <= 0 else float(np.interp(x - 1, at, cum))

    total = entries_before(n)
    p = n - need + 1
    if p <= 0:
        return 0.0, total
    if p >= n:
        return total, total
    base = entries_before(p)
    end = float(np.interp(2 * base, cum, at)) + 1          # lists up to 2 * base entries
    s = int(min(max(np.floor(end) - p, 0), p, n - p))
    return entries_before(p + s), total


def exclusion_mask(ids: np.ndarray, exclude, ids_sorted: bool = False):
    """True for the ids not in ``exclude``, or True when nothing is excluded. A few set ids
    are compared one by one (cheaper than ``np.isin`` for a handful), or looked up when
    ``ids`` is sorted (one ``searchsorted`` each)."""
    if not len(exclude) or len(ids) == 0:
        return True
    if len(exclude) > 16:
        return ~np.isin(ids, np.fromiter(exclude, dtype=np.int64))
    keep = np.ones(len(ids), dtype=bool)
    for e in exclude:
        if ids_sorted:
            i = int(ids.searchsorted(e))
            if i < len(ids) and ids[i] == e:
                keep[i] = False
        else:
            keep &= ids != e
    return keep


def without(ids: np.ndarray, exclude) -> np.ndarray:
    """``ids`` minus the (few) set ids in ``exclude``, order kept."""
    keep = exclusion_mask(ids, exclude)
    return ids if keep is True else ids[keep]


def counted(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of a *sorted* array and how often each occurs (what
    ``np.unique(ids, return_counts=True)`` returns, in half its time on a few thousand ids:
    no sort, no copies)."""
    n = len(ids)
    edge = np.empty(n + 1, dtype=bool)           # edge[i]: ids[i] starts a run (i < n)
    edge[0] = edge[n] = True
    np.not_equal(ids[1:], ids[:-1], out=edge[1:n])
    at = np.flatnonzero(edge)
    return ids[at[:-1]], np.diff(at)


def prefix_candidates(arrays, set_sizes, starts, lengths, min_hits: int, need: int, exclude=()):
    """The sets the prefix lists name at least ``min_hits`` times, of size >= need and not
    excluded, with their number of matches among the values read: (set ids, counts)."""
    if len(lengths) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    sids = read_spans((arrays.post_sets,), starts, lengths)[0]       # a copy
    sids.sort()
    cand, count = counted(sids)
    keep = count >= min_hits
    keep &= set_sizes[cand] >= need
    keep &= exclusion_mask(cand, exclude, ids_sorted=True)
    cand, count = cand[keep], count[keep]
    return cand.astype(np.int64), count



def prefix_filter_search(arrays, set_sizes: np.ndarray, q_ids: np.ndarray, q_size: int,
                         t: float, exclude=(), lists=None, distinct: bool = False):
    """Every set (not in ``exclude``) whose containment of Q is >= t, exactly:
    (set ids, overlaps, stats), unordered. ``q_size`` is |Q| (the query's distinct values,
    some maybe unknown to the index); containment is overlap / q_size. ``lists``: the
    :func:`prefix_lists` of this query and threshold, when already computed; ``distinct``:
    ``q_ids`` is already a :func:`distinct_query`."""
    q = q_ids if distinct else distinct_query(arrays, q_ids)
    need = min_overlap(t, q_size)
    pl = lists if lists is not None else prefix_lists(arrays, q, need)
    stats = {"prefix_lists": len(pl.lengths), "prefix_entries": pl.entries,
             "query_entries": pl.total, "min_hits": pl.min_hits}
    cand, count = prefix_candidates(arrays, set_sizes, pl.starts, pl.lengths, pl.min_hits,
                                    need, exclude)
    if len(cand) == 0:
        stats.update(candidates=0, verify_strategy="none")
        return cand, count, stats
    ov, how = exact_overlaps(arrays, pl.rest, cand, distinct=True)
    ov += count
    # the verification's own test, ov / q_size >= t (within 1e-12), as one integer bound
    keep = ov >= (need if need / q_size >= t - 1e-12 else need + 1)
    stats.update(candidates=int(len(cand)), verify_strategy=how)
    return cand[keep], ov[keep], stats
