"""MergeList-D: read every distinct posting list of the query and count (JOSIE §2.2, Eq.1,
over distinct lists §3.5).

A list standing for a duplicate group of ``skipped + 1`` query tokens counts that many
times. Dense queries count with one integer ``bincount`` (a weighted list is read that many
times) and take the top k from block maxima; sparse ones sort the entries. Reads no sets;
cost sum L(f_i), flat in k. Details: docs/algorithms/josie.md.
"""
from __future__ import annotations

import numpy as np

from ..index.reads import plain, read_list_ids, read_lists
from .overlap import Stats, distinct_lists, method_runner
from .registry import SearchMethod

DENSE_FACTOR = 16   # bincount when entries * DENSE_FACTOR >= number of sets
REPEAT_MAX = 0.5    # read weighted lists again when that adds at most this share of entries
TOPK_BLOCK = 64     # counts per block in topk_of_counts


def count_overlaps(a, lists):
    """Overlaps of the sets in the query's distinct lists: ``(counts, None, entries)`` with
    a count for every set id when dense, else ``(ids, overlaps, entries)`` of the sets met.
    Dense and weighted: a list of weight w is read w times (one gather of the repeated
    token ids), so one integer ``bincount`` counts it (a float-weighted ``bincount``
    costs several times an integer one per entry); beyond ``REPEAT_MAX`` extra entries per
    entry the weights are used (docs/algorithms/josie.md says how it was chosen)."""
    a = plain(a)
    weight = lists.skipped + 1
    lens = lists.freqs                                # the read lists' lengths
    entries = int(lens.sum())
    weighted = bool(lists.skipped.any())
    if entries * DENSE_FACTOR >= a.n_sets:
        if not weighted or int((lists.skipped * lens).sum()) <= REPEAT_MAX * entries:
            toks = np.repeat(lists.list_tokens, weight) if weighted else lists.list_tokens
            sids = read_list_ids(a, toks, readahead=lists.cold)
            return np.bincount(sids, minlength=a.n_sets), None, entries
        sids = read_lists(a, lists.list_tokens, positional=False, readahead=lists.cold)[0]
        counts = np.bincount(sids, weights=np.repeat(weight, lens), minlength=a.n_sets)
        return counts.astype(np.int64), None, entries
    sids = read_lists(a, lists.list_tokens, positional=False, readahead=lists.cold)[0]
    ids, inv = np.unique(sids, return_inverse=True)
    ov = np.bincount(inv, weights=np.repeat(weight, lens) if weighted else None,
                     minlength=len(ids))
    return ids, ov.astype(np.int64), entries


def topk_of_counts(counts, k, floor_overlap, exclude):
    """The top k of a count per set id (``counts`` is modified: the excluded sets' counts
    are zeroed), and the number of sets met.

    The maxima of blocks of TOPK_BLOCK counts are taken in one pass; k blocks whose maximum
    is at least b hold k sets of count >= b, so the k-th largest block maximum is a lower
    bound of the k-th largest count, and only the blocks reaching it are searched (about k
    blocks, instead of every count)."""
    lo = max(int(floor_overlap), 1)
    met = int(np.count_nonzero(counts))
    if len(exclude):
        counts[exclude] = 0
    n, b = len(counts), TOPK_BLOCK
    full = n // b * b
    if k is None or n <= b or n // b <= k:
        ids = np.flatnonzero(counts >= lo)
    else:
        bmax = counts[:full].reshape(-1, b).max(axis=1)
        if full < n:
            bmax = np.r_[bmax, counts[full:].max()]
        lo = max(lo, int(np.partition(bmax, len(bmax) - k)[len(bmax) - k]))
        blocks = np.flatnonzero(bmax >= lo)
        ids = (blocks[:, None] * b + np.arange(b)).ravel()
        ids = ids[ids < n]
        ids = ids[counts[ids] >= lo]
    return topk_from_counts(ids, counts[ids], k, floor_overlap, ()), met


def topk_from_counts(ids, ov, k, floor_overlap, exclude):
    keep = ov >= floor_overlap
    if len(exclude):
        keep &= ~np.isin(ids, exclude)
    ids, ov = ids[keep], ov[keep]
    if k is not None and len(ids) > k:
        # every set tied with the k-th is kept before sorting, so ties break by set id
        kth = np.partition(ov, len(ov) - k)[len(ov) - k]
        sel = ov >= kth
        ids, ov = ids[sel], ov[sel]
    order = np.lexsort((ids, -ov))
    if k is not None:
        order = order[:k]
    return [(int(s), int(o)) for s, o in zip(ids[order], ov[order])]


def search(a, token_ids, k, exclude=(), floor_overlap: int = 1, lists=None):
    """[(set id, overlap)] best first, and Stats (``lists``: the query's DistinctLists, when
    the caller already has them)."""
    if lists is None:
        lists = distinct_lists(a, token_ids, exclude)
    st = Stats("mergelist", n=lists.n, distinct_lists=lists.n_lists)
    if lists.n == 0:
        return [], st
    ids, ov, entries = count_overlaps(a, lists)
    st.lists_read = lists.n_lists
    st.posting_entries_read = entries
    if ov is None:                                   # dense: a count for every set id
        rows, st.extra["candidates"] = topk_of_counts(ids, k, floor_overlap, lists.exclude)
        return rows, st
    st.extra["candidates"] = int(len(ids))
    return topk_from_counts(ids, ov, k, floor_overlap, lists.exclude), st


METHOD = SearchMethod(
    name="mergelist", label="Exact top-k (MergeList-D)", kind="exact", run=method_runner(search),
    more="next",
    priority=5,
    description="Reads every distinct posting list of the query and counts overlaps "
                "(JOSIE's MergeList-D baseline). Flat in k; reads no sets.")
