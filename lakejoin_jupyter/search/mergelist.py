"""MergeList-D: read every distinct posting list of the query and count (JOSIE §2.2, Eq.1,
§3.5; notes/josie_schemaless.md A3.2).

The read lists' set ids are concatenated in one gather; a list standing for a duplicate
group of ``skipped + 1`` query tokens adds that weight to each of its sets. Counting is a
``bincount`` over all set ids when the entries are many (dense), or a sort of the entries
when they are few compared with the number of sets (sparse), so a small query does not pay
for a counter per set. Top-k by ``argpartition``. Reads no sets; cost Σ L(f_i), flat in k.
"""
from __future__ import annotations

import numpy as np

from ..index.reads import plain, read_lists
from .overlap import Stats, distinct_lists, method_runner
from .registry import SearchMethod, register_method

DENSE_FACTOR = 16   # bincount when entries * DENSE_FACTOR >= number of sets


def count_overlaps(a, lists):
    """(set ids, overlaps) of every set in the query's distinct lists (overlap > 0)."""
    a = plain(a)
    sids, _, _, lens = read_lists(a, lists.list_tokens, positional=False, readahead=lists.cold)
    weighted = bool(lists.skipped.any())
    w = np.repeat(lists.skipped + 1, lens) if weighted else None
    if len(sids) * DENSE_FACTOR >= a.n_sets:
        counts = np.bincount(sids, weights=w, minlength=a.n_sets)
        ids = np.flatnonzero(counts)
        ov = counts[ids]
    else:
        ids, inv = np.unique(sids, return_inverse=True)
        ov = np.bincount(inv, weights=w, minlength=len(ids))
    return ids, ov.astype(np.int64), int(len(sids))


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
    st.extra["candidates"] = int(len(ids))
    return topk_from_counts(ids, ov, k, floor_overlap, lists.exclude), st


register_method(SearchMethod(
    name="mergelist", label="Exact top-k (MergeList-D)", kind="exact", run=method_runner(search),
    priority=5,
    description="Reads every distinct posting list of the query and counts overlaps "
                "(JOSIE's MergeList-D baseline). Flat in k; reads no sets."))
