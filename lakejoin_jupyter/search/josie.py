"""JOSIE-D: exact top-k overlap set similarity search with a read-cost model.

Zhu et al., "JOSIE", SIGMOD 2019, §3, Algorithm 1, over distinct posting lists (§3.5): read
the next batch of posting lists or one candidate's unread suffix, whichever the cost model
(Eq.4-13, read costs fitted at build time) prices lower. ``plan="auto"`` runs MergeList-D
instead when the build-time CPU fit says it is cheaper (both exact; ``stats["plan"]``).

Note:
    Deviations (the why and the figures: docs/algorithms/josie.md):
    - Best(u) is priced exactly for every candidate (the authors' code: highest estimate).
    - With no θ yet, the candidates of highest estimate fill the heap in one go.
    - Batches hold >= ``min_batch_entries`` entries, doubled while admitting none (0: λ lists).
    - With nothing unread a batch stops at the prefix end; Eq.7 counts only unread lists.
    - Eq.9 uses the observed density, as the authors' code does (not the printed |Q|-i0+1).
    - A candidate with no token after its latest match is resolved without a read.
    - On a cold index each batch's and suffix's pages are advised before the read.
    - ``k=None`` (threshold only) is answered by MergeList-D.
"""
from __future__ import annotations

import numpy as np

from ..index.reads import SCRATCH, QueryMembership, advise_suffixes, plain, read_lists
from . import mergelist
from .josie_cost import CostModel, cost_dict
from .overlap import Stats, TopK, candidates, distinct_lists, min_overlap
from .registry import ParamSpec, SearchMethod

BATCH_SIZE = 20          # λ: the authors' value for open data
MIN_BATCH_ENTRIES = 256  # ... and at least this many posting entries; 0: the paper's batches

def _accumulate(partial, credit):
    """A seen candidate's partial overlap after another of its lists: partial + credit,
    never ``credit`` alone (the tests check that assigning is caught)."""
    return partial + credit


class _Candidates:
    """The sets met so far (J §3.2). ``slot[set id]`` is 0 for an unseen set, -1 for a set
    read or pruned (ignored from then on), else 1 + its row in the compact arrays:
    ``partial`` (overlap counted so far, the paper's c_X), ``latest`` (position in X of its
    latest match, j_X), ``first_query_pos`` (query position of its first match, i_X,0),
    ``first_pos`` (position in X of that match, j_X,0) and ``size`` (|X|). ``slot`` comes
    zeroed from the scratch pool; every set id written is first given to :meth:`add` or
    :meth:`drop`, so :meth:`release` can zero exactly those again."""

    def __init__(self, n_sets: int):
        self.slot = SCRATCH.take(n_sets, np.int32)
        self.touched = []
        self.partial = self.latest = self.first_query_pos = self.first_pos = self.size = \
            np.zeros(0, dtype=np.int64)

    def drop(self, ids):
        """Sets never to count (excluded, or pruned when first met)."""
        self.touched.append(np.asarray(ids, dtype=np.int64))
        self.slot[ids] = -1

    def release(self):
        for ids in self.touched:
            self.slot[ids] = 0
        SCRATCH.give(self.slot)
        self.slot = None

    def add(self, ids, partial, latest, first_query_pos, first_pos, size):
        """Admit new candidates; returns their rows."""
        base = len(self.partial)
        self.touched.append(ids)
        self.slot[ids] = np.arange(base + 1, base + 1 + len(ids), dtype=np.int32)
        self.partial = np.concatenate([self.partial, partial])
        self.latest = np.concatenate([self.latest, latest])
        self.first_query_pos = np.concatenate([self.first_query_pos, first_query_pos])
        self.first_pos = np.concatenate([self.first_pos, first_pos])
        self.size = np.concatenate([self.size, size])
        return np.arange(base, base + len(ids), dtype=np.int64)


def search(a, token_ids, k, exclude=(), floor_overlap: int = 1, *, costs: CostModel | None = None,
           batch_size: int = BATCH_SIZE, plan: str = "josie",
           min_batch_entries: int = MIN_BATCH_ENTRIES):
    """Exact top-k sets by overlap with the query.

    Args:
        a: the index arrays (index/arrays.IndexArrays or index/reads.PlainArrays).
        token_ids: the query's token ids.
        k (int | None): how many sets; None returns every set reaching ``floor_overlap``.
        exclude: set ids never returned (the query's own column).
        floor_overlap (int): the smallest overlap returned (a containment threshold).
        costs (CostModel): read costs S and L; the index-less defaults when None.
        batch_size (int): λ, distinct posting lists per batch.
        plan (str): "josie", "mergelist" or "auto" (the build-time CPU fit chooses).
        min_batch_entries (int): a batch reads more lists until it holds this many
            posting entries; 0 gives the paper's batches of λ lists.

    Returns:
        ([(set id, overlap)] best first, overlap.Stats).
    """
    a = plain(a)
    costs = costs or CostModel.from_manifest({})
    lists = distinct_lists(a, token_ids, exclude)
    if plan not in ("josie", "mergelist", "auto"):
        raise ValueError(f"plan must be 'josie', 'mergelist' or 'auto' (got {plan!r})")
    chosen = plan
    if k is None:
        chosen = "mergelist"
    estimates = None
    if plan == "auto" and k is not None:
        estimates = plan_estimates(lists, k, costs)
        chosen = "mergelist" if estimates["mergelist"] <= estimates["josie"] else "josie"
    if chosen == "mergelist":
        res, st = mergelist.search(a, token_ids, k, exclude, floor_overlap, lists=lists)
        st.method = "josie"
    else:
        res, st = _josie(a, lists, k, floor_overlap, costs, max(1, int(batch_size)),
                         max(0, int(min_batch_entries)))
    st.extra["plan"] = chosen
    st.extra["cost_model"] = costs.source + "/" + costs.profile
    if estimates:
        st.extra["plan_estimates_ns"] = estimates
    return res, st


def plan_estimates(lists, k: int, costs: CostModel) -> dict:
    """Estimated CPU ns of MergeList-D and of JOSIE-D for this query (the planner)."""
    return {"mergelist": float(costs.plan.mergelist_ns(int(lists.freqs.sum()))),
            "josie": float(costs.plan.josie_ns(int(k), lists.n))}


def _nonnegative_fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least squares with every coefficient >= 0 (features with a negative coefficient
    are dropped one at a time and the rest refitted)."""
    active = list(range(x.shape[1]))
    while True:
        c, *_ = np.linalg.lstsq(x[:, active], y, rcond=None)
        if (c >= 0).all() or len(active) == 1:
            out = np.zeros(x.shape[1])
            out[active] = np.maximum(c, 0.0)
            return out
        active.pop(int(np.argmin(c)))


def stratified_columns(a, per_interval: int, rng, max_size: int | None = None):
    """Lake columns to use as self-queries, stratified as in JOSIE §4.2: by |Q ∩ U| (the
    column's tokens that another set holds too) in 10 equal-width intervals over
    [10, max), up to ``per_interval`` drawn from each by ``rng``. Returns
    ([(set id, interval lo, interval hi)], interval edges)."""
    a = plain(a)
    shared = np.zeros(len(a.sets_tokens) + 1, dtype=np.int64)
    np.cumsum(a.token_freq[a.sets_tokens] >= 2, out=shared[1:])
    n_u = shared[a.sets_indptr[1:]] - shared[a.sets_indptr[:-1]]
    top = int(max_size or (n_u.max() + 1 if len(n_u) else 0))
    edges = np.linspace(10, top, 11).astype(np.int64)
    out = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        ids = np.flatnonzero((n_u >= lo) & (n_u < hi))
        pick = rng.choice(ids, size=min(per_interval, len(ids)), replace=False) if len(ids) else []
        out += [(int(s), int(lo), int(hi)) for s in pick]
    return out, edges.tolist()


def calibrate_plan(a, per_interval: int = 3, ks=(1, 10, 50), seed: int = 0,
                   costs: CostModel | None = None) -> dict | None:
    """Fit the planner (search/josie_cost.PlanFit) by timing both plans on lake columns used as
    self-queries (:func:`stratified_columns`; thread CPU clock, each query run once
    untimed first). None when the lake has no column of 10 shared tokens or more."""
    import time
    a = plain(a)
    pool = [sid for sid, _, _ in
            stratified_columns(a, per_interval, np.random.default_rng(seed))[0]]
    if not pool:
        return None
    rows = []
    for sid in pool:
        q = a.set_tokens(int(sid))
        lists = distinct_lists(a, q, {int(sid)})
        entries = int(lists.freqs.sum())
        for k in ks:
            t = {}
            for plan in ("mergelist", "josie"):
                search(a, q, k, {int(sid)}, costs=costs, plan=plan)          # warm the pages
                c = time.thread_time_ns()
                _, st = search(a, q, k, {int(sid)}, costs=costs, plan=plan)
                t[plan] = time.thread_time_ns() - c
            rows.append((k, lists.n, entries, t["mergelist"], t["josie"]))
    r = np.array(rows, dtype=np.float64)
    one = np.ones(len(r))
    ml = _nonnegative_fit(np.stack([one, r[:, 2]], 1), r[:, 3])
    jo = _nonnegative_fit(np.stack([one, r[:, 0], r[:, 1], r[:, 1] * np.log(r[:, 0])], 1),
                          r[:, 4])
    return {"fit": {"ml_intercept": ml[0], "ml_per_entry": ml[1], "josie_intercept": jo[0],
                    "josie_per_k": jo[1], "josie_per_token": jo[2],
                    "josie_per_token_log_k": jo[3]},
            "queries": len(pool), "ks": list(ks), "clock": "thread CPU, warm"}


def _josie(a, lists, k, floor_overlap, costs: CostModel, lam: int, min_entries: int = 0):
    st = Stats("josie", n=lists.n, distinct_lists=lists.n_lists)
    topk = TopK(k, floor_overlap - 1)
    if lists.n == 0:
        return [], st
    cands = _Candidates(a.n_sets)
    cands.drop(lists.exclude)
    # a candidate's unread suffix X[j+1:] meets the query only after position i: a query
    # token up to i that X holds was read with its group's list, whose last token then
    # lies at or before j in X. So the suffix is counted against all of Q.
    membership = QueryMembership(lists.tokens, a.n_tokens, expected=k or 1)
    res = _Search(a, lists, costs, lam, min_entries, st, topk, cands, membership).run()
    # the scratch arrays go back zeroed only after a search that ran to its end
    cands.release()
    membership.release()
    return res, st


class _Unread:
    """The unread candidates at one step of the loop (arrays aligned with
    ``_Search.unread``): partial overlap, latest match, size, suffix length ``|X|-1-j``
    and the position-filter bound of Eq.6. The decision step adds the first-match
    positions, the sample window ``i - i0 + 1`` and the estimate of Eq.4."""
    __slots__ = ("partial", "latest", "size", "suffix", "bound", "read_cost",
                 "first_query_pos", "first_pos", "window", "estimate")


class _Search:
    """One JOSIE-D query: the loop of Algorithm 1 over the query's distinct posting lists.

    ``i`` below is the query position of the last token read (``lists.last`` of the last
    list read, -1 before the first), ``θ`` the k-th overlap of the running top-k.
    State: ``last_read`` (the last distinct list read, -1 before the first); ``unread`` and
    ``unread_ids`` (rows in ``cands`` and set ids of the candidates met and neither read
    nor pruned); ``growth`` (the batch scale, doubled while batches read with nothing
    unread admit no candidate).
    """

    def __init__(self, a, lists, costs: CostModel, batch_size: int, min_batch_entries: int,
                 stats: Stats, topk: TopK, cands: _Candidates, membership: QueryMembership):
        self.a, self.lists, self.costs = a, lists, costs
        self.batch_size, self.min_batch_entries = batch_size, min_batch_entries
        self.stats, self.topk, self.cands, self.membership = stats, topk, cands, membership
        self.n, self.n_lists = lists.n, lists.n_lists
        # read cost of lists [0, m) and posting entries in them, for each m (prefix sums)
        self.list_cost_before = np.zeros(self.n_lists + 1)
        np.cumsum(costs.L(lists.freqs), out=self.list_cost_before[1:])
        self.entries_before = np.zeros(self.n_lists + 1, dtype=np.int64)
        np.cumsum(lists.freqs, out=self.entries_before[1:])
        self.last_read = -1
        self.growth = 1
        self.unread = np.zeros(0, dtype=np.int64)
        self.unread_ids = np.zeros(0, dtype=np.int64)
        self.counters = {"batches": 0, "admitted": 0, "pruned_at_first_sight": 0,
                         "pruned_by_bound": 0, "exact_without_read": 0, "flushed": 0,
                         "max_unread": 0, "set_decisions": 0, "list_decisions": 0}

    # ------------------------------------------------------------------ the loop

    def run(self) -> list:
        """[(set id, overlap)] best first; the step counters go to ``stats.extra``."""
        topk, last, first, n = self.topk, self.lists.last, self.lists.first, self.n
        all_read = self.n_lists - 1
        while True:
            theta = topk.theta
            i = int(last[self.last_read]) if self.last_read >= 0 else -1
            if len(self.unread):
                view = self._bounds(i)                     # Eq.6
                if self._settle(view, theta):              # position filter, exact counts
                    continue
            if self.last_read == all_read:
                break
            if len(self.unread) == 0:
                if n - first[self.last_read + 1] <= theta:
                    break                        # prefix exhausted, nothing unread
                self._read_batch_nothing_unread(theta)
                continue
            eligible = self._estimate(view, i)             # Eq.4
            if len(eligible) and not topk.full:            # no θ yet: best estimates
                self._fill_topk(view, eligible)
                continue
            # Alg.1 lines 9-12: the cheaper of the best candidate and the next batch
            row = self._choose_candidate(view, eligible, theta, i) if len(eligible) else -1
            if row >= 0:
                self._read_candidate(view, row)
            else:
                self._read_next_batch()
        read_first = first[: self.last_read + 1]
        self.counters["lists_past_prefix"] = int(np.count_nonzero(n - read_first <= topk.theta))
        self.stats.extra.update(self.counters)
        return topk.results()

    # ------------------------------------------------------------------ bounds and filters

    def _bounds(self, i: int) -> _Unread:
        """Eq.6 for every unread candidate: ``ub = c + min(n-1-i, |X|-1-j)``."""
        cands, u = self.cands, self.unread
        view = _Unread()
        view.partial, view.latest, view.size = cands.partial[u], cands.latest[u], cands.size[u]
        view.suffix = view.size - 1 - view.latest
        view.bound = view.partial + np.minimum(self.n - 1 - i, view.suffix)
        return view

    def _settle(self, view: _Unread, theta: int) -> bool:
        """Position filter: drop the unread candidates whose bound is at most θ; push to the
        top-k those whose count is already exact (nothing after their latest match, or
        every list read). True when any candidate left the unread."""
        drop = view.bound <= theta
        all_read = self.last_read == self.n_lists - 1
        exact = (view.suffix == 0) | all_read
        exact &= ~drop
        any_drop, any_exact = drop.any(), exact.any()
        if not (any_drop or any_exact):
            return False
        ids = self.unread_ids
        if any_drop:
            self.counters["pruned_by_bound"] += int(drop.sum())
            self.cands.slot[ids[drop]] = -1
        if any_exact:
            self.counters["flushed" if all_read else "exact_without_read"] += int(exact.sum())
            self.topk.push_many(view.partial[exact], ids[exact])
            self.cands.slot[ids[exact]] = -1
        keep = ~(drop | exact)
        self.unread, self.unread_ids = self.unread[keep], ids[keep]
        return True

    def _admissible(self, theta: int, list_no, first_pos, size):
        """Prefix and position filters for sets first met in lists ``list_no`` at set
        position ``first_pos`` (Eq.2): a set unseen until list m can reach at most
        ``n - first[m]``, and at most ``skipped + 1 + min(n-1-last[m], |X|-1-j)``."""
        lists, n = self.lists, self.n
        return ((n - lists.first[list_no]) > theta) & \
            (lists.skipped[list_no] + 1 + np.minimum(n - 1 - lists.last[list_no],
                                                     size - 1 - first_pos) > theta)

    # ------------------------------------------------------------------ reading posting lists

    def _batch_end(self, start: int, cap: int, scale: int = 1) -> int:
        """End (exclusive) of the batch from list ``start``: ``scale * λ`` lists, or more
        until it holds ``scale * min_batch_entries`` posting entries; at most ``cap``."""
        end = start + self.batch_size * scale
        if self.min_batch_entries:
            entries = self.entries_before
            end = max(end, int(np.searchsorted(entries,
                                               entries[start] + scale * self.min_batch_entries)))
        return min(end, cap)

    def _read_batch_nothing_unread(self, theta: int) -> None:
        """With nothing unread, lists past the prefix could only update sets this very batch
        admits: the batch stops at the prefix end and the cost model decides on more. A
        batch that admits nothing makes the next one twice as large (θ has not moved)."""
        prefix_end = int(np.searchsorted(self.lists.first, self.n - theta))
        start = self.last_read + 1
        admitted = self._read_batch(start, self._batch_end(start, prefix_end, self.growth))
        self.growth = self.growth * 2 if admitted == 0 and self.min_batch_entries else 1

    def _read_next_batch(self) -> None:
        """The cost model chose the next batch of λ lists."""
        self.counters["list_decisions"] += 1
        start = self.last_read + 1
        self._read_batch(start, self._batch_end(start, self.n_lists))

    def _read_batch(self, start: int, stop: int) -> int:
        """Read lists start..stop-1 and add the admitted candidates to the unread;
        returns how many were admitted."""
        rows, ids = self._read_lists(start, stop)
        if len(self.unread):
            self.unread = np.concatenate([self.unread, rows])
            self.unread_ids = np.concatenate([self.unread_ids, ids])
        else:
            self.unread, self.unread_ids = rows, ids
        self.last_read = stop - 1
        self.counters["max_unread"] = max(self.counters["max_unread"], len(self.unread))
        return len(ids)

    def _read_lists(self, start: int, stop: int):
        """Read distinct lists start..stop-1 (θ is constant meanwhile): credit the candidates
        met before, admit the new ones that pass the filters. Returns (rows, set ids) of the
        admitted."""
        theta = self.topk.theta
        lists, cands, counters = self.lists, self.cands, self.counters
        sids, pos, sizes, lens = read_lists(self.a, lists.list_tokens[start:stop],
                                            readahead=lists.cold)
        self.stats.lists_read += stop - start
        self.stats.posting_entries_read += len(sids)
        counters["batches"] += 1
        none = np.zeros(0, dtype=np.int64)
        if len(sids) == 0:
            return none, none
        # group the entries by set (stable: list order kept per set), permuting only the
        # set ids; the other columns are read at each set's first and last entry
        slot = cands.slot[sids]
        live = slot >= 0
        src = None if live.all() else np.flatnonzero(live)     # entries of live sets
        keys = sids if src is None else sids[src]
        if len(keys) == 0:
            return none, none
        order = np.argsort(keys, kind="stable")
        set_of = keys[order]
        if src is not None:
            order = src[order]                                  # index into the batch
        new_set = np.empty(len(set_of), dtype=bool)
        new_set[0] = True
        np.not_equal(set_of[1:], set_of[:-1], out=new_set[1:])
        starts = np.flatnonzero(new_set)
        ends = np.empty_like(starts)
        ends[:-1] = starts[1:] - 1
        ends[-1] = len(set_of) - 1
        # each set's credit: skipped + 1 for each list it is in ("-D", J §3.5)
        weight = lists.skipped[start:stop] + 1
        if (weight == 1).all():
            credit = ends - starts + 1
        else:
            credit = np.add.reduceat(np.repeat(weight, lens)[order], starts)
        first_entry = order[starts]
        latest = pos[order[ends]].astype(np.int64)
        set_slot = slot[first_entry]
        seen = set_slot > 0
        rows = set_slot[seen].astype(np.int64) - 1
        cands.partial[rows] = _accumulate(cands.partial[rows], credit[seen])
        cands.latest[rows] = latest[seen]
        # sets met for the first time
        new = ~seen
        entry = first_entry[new]
        ids = set_of[starts][new].astype(np.int64)
        list_no = np.repeat(np.arange(start, stop), lens)[entry]
        first_pos = pos[entry].astype(np.int64)
        size = sizes[entry].astype(np.int64)
        ok = self._admissible(theta, list_no, first_pos, size)
        if not ok.all():
            counters["pruned_at_first_sight"] += int(len(ok) - ok.sum())
            cands.drop(ids[~ok])
            ids, list_no, first_pos, size = ids[ok], list_no[ok], first_pos[ok], size[ok]
            credit_new, latest_new = credit[new][ok], latest[new][ok]
        else:
            credit_new, latest_new = credit[new], latest[new]
        counters["admitted"] += len(ids)
        skipped = lists.skipped[list_no]
        # i0: the group's first query token (the sample counts skipped tokens too);
        # j0: the set position of that token, the read token's position less the skipped
        return cands.add(ids, credit_new, latest_new, lists.first[list_no],
                         first_pos - skipped, size), ids

    # ------------------------------------------------------------------ reading candidate sets

    def _read_set(self, set_id: int, latest: int, partial: int) -> None:
        """Read X[latest+1:], count its query tokens, push the exact overlap to the top-k."""
        matches, read = self.membership.count(self.a, set_id, latest + 1)
        self.stats.sets_read += 1
        self.stats.set_tokens_read += read
        self.topk.push(partial + matches, set_id)
        self.cands.slot[set_id] = -1

    def _forget_unread(self, rows) -> None:
        keep = np.ones(len(self.unread), dtype=bool)
        keep[rows] = False
        self.unread, self.unread_ids = self.unread[keep], self.unread_ids[keep]

    def _fill_topk(self, view: _Unread, eligible) -> None:
        """No θ yet: read the candidates of highest estimate (cheapest first among equals)
        until the top-k is full. Nothing else changes meanwhile (θ stays at its floor, no
        list is read), so reading them in one go is the same as deciding after each."""
        topk = self.topk
        need = len(eligible) if topk.k is None else topk.k - len(topk.h)
        picks = eligible[np.lexsort((view.read_cost[eligible], -view.estimate[eligible]))[:need]]
        if self.lists.cold:                       # read the picked suffixes together
            advise_suffixes(self.a, self.unread_ids[picks], view.latest[picks] + 1)
        for r in picks.tolist():
            self._read_set(int(self.unread_ids[r]), int(view.latest[r]), int(view.partial[r]))
        self.counters["set_decisions"] += len(picks)
        self._forget_unread(picks)

    def _read_candidate(self, view: _Unread, row: int) -> None:
        """The cost model chose to read the unread candidate ``row``."""
        self.counters["set_decisions"] += 1
        set_id, latest = int(self.unread_ids[row]), int(view.latest[row])
        if self.lists.cold:
            advise_suffixes(self.a, [set_id], [latest + 1])
        self._read_set(set_id, latest, int(view.partial[row]))
        self._forget_unread(row)

    # ------------------------------------------------------------------ the cost model

    def _estimate(self, view: _Unread, i: int):
        """Eq.4 for every unread candidate, ``est = c / (i-i0+1) * (n-i0)`` capped by its
        bound, and the read cost of its suffix. Returns the rows whose estimate may be used:
        more than λ query tokens since the first match."""
        cands, u = self.cands, self.unread
        view.first_query_pos, view.first_pos = cands.first_query_pos[u], cands.first_pos[u]
        view.window = i - view.first_query_pos + 1
        view.estimate = np.minimum(np.floor(view.partial * (self.n - view.first_query_pos)
                                            / view.window), view.bound)
        eligible = np.flatnonzero(view.window > self.batch_size)
        if len(eligible):
            view.read_cost = self.costs.S(view.suffix)
        return eligible

    def _choose_candidate(self, view: _Unread, eligible, theta: int, i: int) -> int:
        """Alg.1: the eligible candidate of lowest net cost (Eq.13) if that is no more than
        the next batch's; else -1 (read the batch)."""
        batch = self._next_batch_net_cost(view, theta, i)
        net = self._candidate_net_costs(view, eligible, theta)
        best = int(np.argmin(net))
        return int(eligible[best]) if net[best] <= batch else -1

    def _next_batch_net_cost(self, view: _Unread, theta: int, i: int) -> float:
        """Eq.9-12: the next batch's read cost less its benefit (the candidates it would
        prune and the suffixes it would shorten)."""
        n, cost = self.n, view.read_cost
        start = self.last_read + 1
        stop = self._batch_end(start, self.n_lists)
        i_next = int(self.lists.last[stop - 1])
        shortened = np.floor((i_next - i) / (n - view.first_query_pos)
                             * (view.size - view.first_pos))                    # Eq.10
        gained = np.floor(view.partial / view.window * (i_next - i))           # Eq.9
        new_suffix = np.maximum(view.suffix - shortened, 0)
        new_bound = view.partial + gained + np.minimum(n - 1 - i_next, new_suffix)   # Eq.11
        benefit = np.where(new_bound <= theta, cost, cost - self.costs.S(new_suffix)).sum()
        return (self.list_cost_before[stop] - self.list_cost_before[start]) - benefit

    def _candidate_net_costs(self, view: _Unread, eligible, theta: int):
        """Eq.5, 7, 13 for every eligible candidate X: its read cost less the benefit of the
        θ' reading it would give: the unread lists that would leave the prefix, and the
        other candidates whose bound is at most θ' (a prefix sum over bound order)."""
        n, cost, first = self.n, view.read_cost, self.lists.first
        start = self.last_read + 1
        est = view.estimate[eligible]
        theta_new = np.where(est <= theta, theta, np.minimum(est, self.topk.theta_k1))  # Eq.5
        prefix_now = max(int(np.searchsorted(first, n - theta)), start)
        prefix_new = np.maximum(np.searchsorted(first, n - theta_new), start)
        lists_saved = self.list_cost_before[prefix_now] - self.list_cost_before[prefix_new]
        by_bound = np.argsort(view.bound, kind="stable")
        cost_upto = np.zeros(len(self.unread) + 1)
        np.cumsum(cost[by_bound], out=cost_upto[1:])
        pruned = cost_upto[np.searchsorted(view.bound[by_bound], theta_new, side="right")]
        own = np.where(view.bound[eligible] <= theta_new, cost[eligible], 0.0)
        return cost[eligible] - (lists_saved + pruned - own)


# ------------------------------------------------------------------ engine method

def _run(index, query, params):
    o = params.options
    costs = CostModel.from_manifest(index.manifest, o["cost_profile"])
    res, st = search(index.arrays, query.token_ids, params.k, query.exclude,
                     min_overlap(params, query.size), costs=costs,
                     batch_size=o["batch_size"], min_batch_entries=o["min_batch_entries"],
                     plan=o["plan"])
    st.extra["costs"] = cost_dict(costs)
    return candidates(res), st.as_dict()


METHOD = SearchMethod(
    name="josie", label="Exact top-k (JOSIE)", kind="exact", run=_run, priority=10,
    more="next",
    description="JOSIE-D (SIGMOD 2019): exact top-k by overlap; a cost model decides between "
                "reading posting lists and candidate sets, so it reads far less than a full "
                "merge on large lakes.",
    params=(ParamSpec("batch_size", "Batch size λ (posting lists)", "int", BATCH_SIZE, 1, 1000, 1,
                      help="Distinct posting lists read between two decisions."),
            ParamSpec("min_batch_entries", "Least posting entries per batch", "int",
                      MIN_BATCH_ENTRIES, 0, 1 << 20, 256,
                      help="A batch takes more than λ lists until it holds this many "
                           "entries (0: the paper's λ lists)."),
            ParamSpec("plan", "Plan", "choice", "auto", choices=("auto", "josie", "mergelist"),
                      help="auto: MergeList-D when the whole query costs less than a few "
                           "JOSIE steps (both exact)."),
            ParamSpec("cost_profile", "Cost profile", "choice", "warm", choices=("warm", "cold"),
                      help="Read costs fitted with the index in memory (warm) or on disk (cold).")),
)
