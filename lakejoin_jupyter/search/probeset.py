"""ProbeSet-D: top-k with the prefix and position filters over distinct posting lists
(Xiao et al., as JOSIE §2.3-2.4 describes and evaluates it).

Lists are read in the global order; every set met for the first time is either pruned by
the position filter (Eq.2: ``skipped + 1 + min(n-1-i, |X|-1-j) <= θ``, then ignored for
good) or read at once from the match on (``X[j+1:]`` intersected with ``Q[i+1:]``) and
pushed into the running top-k. Reading stops when the prefix is exhausted: an unseen set
first met at list i can have at most ``n - first_i`` matches (``n - i + skipped``), so once
the k-th overlap θ reaches it no further list can change the answer (Eq.3).
"""
from __future__ import annotations

import numpy as np

from ..index.reads import plain, read_list, read_suffix_overlap
from .overlap import Stats, TopK, distinct_lists, method_runner
from .registry import SearchMethod


def search(a, token_ids, k, exclude=(), floor_overlap: int = 1):
    """[(set id, overlap)] best first, and Stats."""
    a = plain(a)
    lists = distinct_lists(a, token_ids, exclude)
    n = lists.n
    st = Stats("probeset", n=n, distinct_lists=lists.n_lists)
    heap = TopK(k, floor_overlap - 1)
    if n == 0:
        return [], st
    seen = np.zeros(a.n_sets, dtype=bool)
    seen[lists.exclude] = True
    q = lists.tokens
    pruned = 0
    for m in range(lists.n_lists):
        first, i, s = int(lists.first[m]), int(lists.last[m]), int(lists.skipped[m])
        if heap.theta >= n - first:          # prefix filter: no unseen set can qualify
            break
        sids, pos, sizes = read_list(a, int(lists.list_tokens[m]))
        st.lists_read += 1
        st.posting_entries_read += len(sids)
        new = ~seen[sids]
        sids, pos, sizes = sids[new], pos[new], sizes[new]
        seen[sids] = True
        if len(sids) == 0:
            continue
        ub = s + 1 + np.minimum(n - 1 - i, sizes - 1 - pos)       # Eq.2, 0-based
        live = ub > heap.theta
        pruned += int(len(ub) - live.sum())
        if not live.any():
            continue
        rest = q[i + 1:]
        for sid, p, u in zip(sids[live].tolist(), pos[live].tolist(), ub[live].tolist()):
            if u <= heap.theta:                                 # θ rose inside this list
                pruned += 1
                continue
            matches, read = read_suffix_overlap(a, sid, p + 1, rest, readahead=lists.cold)
            st.sets_read += 1
            st.set_tokens_read += read
            heap.push(s + 1 + matches, sid)
    st.extra["pruned_by_position"] = pruned
    return heap.results(), st


METHOD = SearchMethod(
    name="probeset", label="Exact top-k (ProbeSet-D)", kind="exact", run=method_runner(search),
    more="next",
    priority=3,
    description="Prefix and position filters; reads each surviving candidate when first met "
                "(JOSIE's ProbeSet-D baseline).")
