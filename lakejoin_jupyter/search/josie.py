"""JOSIE-D: exact top-k overlap set similarity search with a read-cost model
(Zhu et al., SIGMOD 2019, §3, Algorithm 1, with distinct posting lists §3.5;
notes/josie_schemaless.md A3.4, A6).

The loop alternates between reading the next batch of ``λ`` distinct posting lists and
reading (the unread suffix of) one candidate set, whichever has the lower net cost:

* unread candidate X keeps (J §3.2): ``c`` = |Q[:i] ∩ X| (credited ``skipped + 1`` per
  distinct list, always *added*: the authors' code assigned it until 2023, A6.4),
  ``i0`` = query position of its first match, ``j0``/``j`` = positions in X of its first
  and latest match, ``|X|``;
* position filter, Eq.6: ``ub = c + min(n-1-i, |X|-1-j)``; X is dropped once ``ub <= θ``
  (θ = k-th overlap of the running top-k); at first sight Eq.2, and a pruned set is
  ignored for good; an unseen set met in list i can reach at most ``n - first_i`` (the
  prefix filter), so it is admitted only while that exceeds θ;
* estimates: Eq.4 ``est = c / (i - i0 + 1) * (n - i0)`` capped by ``ub``; Eq.5 the new θ
  if X were read (θ_k, θ_{k-1} from the heap); Eq.9-11 X's bound after the next batch;
* benefits: Eq.7 for reading X (posting lists that leave the prefix + other candidates the
  raised θ would prune), Eq.12 for reading the next batch (candidates pruned, suffix
  shortened); net costs Eq.13 with the fitted read costs S and L (index/reads.py, fitted at
  build time by indexing/josie.py, Eq.15);
* termination: when the prefix is exhausted and no candidate is unread; once every list is
  read the partial counts are exact and the remaining candidates are pushed unread.

Where this follows the authors' code rather than the paper's text, and why:

* Eq.9 uses the observed density ``c / (i - i0 + 1) * (i' - i)`` (code) instead of the
  printed ``/(|Q| - i0 + 1)``: it is the same sampling argument as Eq.4, which the printed
  form contradicts (A3.4 d).
* Eq.10 in 0-based form ``j' = j + (i'-i) / (n-i0) * (|X|-j0)`` (code); suffix lengths are
  ``|X| - 1 - j`` (= |X[j_X+1:]| in the paper's 1-based notation), as in Eq.7/13 and the code.
* A candidate's estimate is used only after more than λ query tokens since its first match
  (code; the paper says "a few posting lists", J §3.2). ``i0`` is the position of the first
  query token of the group where X was first met, so the sample counts skipped tokens too.
* Estimates are truncated to integers (code), overlaps being integers.

Where this departs from both, and why:

* Best(u) is the candidate of lowest NetCost, as in the paper (Alg.1 line 9), computed
  exactly for every candidate at every decision in O(|u| log |u|): the benefit of Eq.7
  depends on X only through θ' of Eq.5, so the pruned-candidate term is a prefix sum over
  candidates sorted by bound. The code approximates Best by the highest estimate to save
  that cost. Before the heap holds k sets every benefit is zero (there is no θ to raise), so
  there the candidates with the highest estimates are read (as in the code) until the heap
  is full, in one go since nothing changes between those reads: the cheapest reads would
  fill the heap with sets unlikely to stay in it.
* Batches are sized for a step's bookkeeping, not only by λ (``min_batch_entries=0``
  restores the paper's batches). The paper prices I/O only; here every step of the loop
  (a batch or a decision) also costs 50-100 us of numpy calls, and the query's lists are
  mostly short (98 % stand for duplicate groups), so 20 of them cost far more to bookkeep
  than to read. Two rules, both exact:
  - a batch holds at least ``MIN_BATCH_ENTRIES`` (256) posting entries;
  - when a batch read with nothing unread admits no candidate, θ has not moved and the
    next batch would be read next anyway, so it is twice as large (λ and entries), again
    while that lasts, and back to one size after an admission. It still stops at the
    prefix end; the most it can read past what one-size batches would is what was read
    since the last admission.
  Measured on the 10^6 open-data lake (bench/results/josie_1e6.md, warm, p50, k = 1 / 10
  / 50; 30 queries in a same-process A/B): 36 / 81 / 157 ms with the paper's batches,
  10.2 / 16.7 / 29.7 ms with these, MergeList-D 17-18 ms. Batches per query fell from
  457 / 996 / 1941 to 7 / 9 / 15; posting entries read are unchanged (65.6k / 219k / 841k
  of 2.04 M).
* On a cold index each batch's pages are advised before it is read (index/reads.prefetch),
  now that batches are few: cold top-10 p50 183 -> 150 ms (10^6), 74 -> 55 ms (10^5);
  so is each candidate suffix before it is read (the sets that fill the heap, together),
  which otherwise faults in page by page (bench/results/josie_1e6.md).
* When nothing is unread, a batch stops at the end of the prefix (lists past it could
  only serve the sets the batch itself admits; whether to read on is then the cost
  model's decision, as for every later batch).
* Eq.7's list term counts only lists not yet read (``max(i, p')+1 .. p``): a list already
  read cannot be saved; the paper's and the code's sum include them (A3.4 c).
* A candidate whose set has no token after its latest match (``|X|-1-j = 0``) has an exact
  count already; it is resolved without a read.
* ``k=None`` (every set above a threshold, no k): with no k-th overlap there is no
  prefix to shorten, so MergeList-D answers (reported as the plan).

Plan (``plan="auto"``, the engine's default; the issue allows choosing per query as long as
both are exact and the choice is reported in ``stats["plan"]``). JOSIE's cost model prices
I/O only (S, L); in Python a query's CPU time is what differs between the plans. So the
planner compares whole-query CPU times fitted at build time (:func:`calibrate_plan`, on
sampled lake columns as self-queries, k in {1, 10, 50}; search/josie_cost.PlanFit):
MergeList-D ``a + b E`` (E: entries of the query's distinct lists) against JOSIE-D
``c + d k + |Q| (e + f ln k)`` (its set reads grow with k, its bookkeeping with |Q| and the
prefix). The cheaper runs; the estimates are in ``stats["plan_estimates_ns"]``. Measured
(bench/results/josie_1e6.md, josie_1e5.md):
on the 10^6 open-data lake it picks JOSIE-D for most top-1 and top-10 queries and
MergeList-D for top-50; on the 10^5 lake MergeList-D, which reads everything in ~2 ms.
"""
from __future__ import annotations

import numpy as np

from ..index.reads import SCRATCH, QueryMembership, advise_suffixes, plain, read_lists
from . import mergelist
from .josie_cost import CostModel, cost_dict
from .overlap import Stats, TopK, candidates, distinct_lists, min_overlap
from .registry import ParamSpec, SearchMethod

BATCH_SIZE = 20          # λ: the authors' value for open data (notes A3.4 g)
MIN_BATCH_ENTRIES = 256  # ... and at least this many posting entries; 0: the paper's batches

def _accumulate(partial, credit):
    """A seen candidate's partial overlap after another of its lists: partial + credit.
    (The authors' Go code assigned ``partial = skipped + 1`` here until April 2023; the
    tests check that doing so is caught.)"""
    return partial + credit


class _Candidates:
    """Candidate state (J §3.2): ``slot[set id]`` is 0 for an unseen set, -1 for a set
    read or pruned (ignored from then on), else 1 + its row in the compact arrays ``c``
    (partial overlap), ``j`` (latest match position), ``i0`` (query position of the first
    match), ``j0`` (set position of the first match), ``size``. ``slot`` comes zeroed from
    the scratch pool (index/reads.ZeroedScratch); every set id written is first given to
    :meth:`add` or :meth:`drop`, so :meth:`release` can zero exactly those again."""

    def __init__(self, n_sets: int):
        self.slot = SCRATCH.take(n_sets, np.int32)
        self.touched = []
        self.c = self.j = self.i0 = self.j0 = self.size = np.zeros(0, dtype=np.int64)

    def drop(self, ids):
        """Sets never to count (excluded, or pruned when first met)."""
        self.touched.append(np.asarray(ids, dtype=np.int64))
        self.slot[ids] = -1

    def release(self):
        for ids in self.touched:
            self.slot[ids] = 0
        SCRATCH.give(self.slot)
        self.slot = None

    def add(self, ids, c, j, i0, j0, size):
        base = len(self.c)
        self.touched.append(ids)
        self.slot[ids] = np.arange(base + 1, base + 1 + len(ids), dtype=np.int32)
        self.c = np.concatenate([self.c, c])
        self.j = np.concatenate([self.j, j])
        self.i0 = np.concatenate([self.i0, i0])
        self.j0 = np.concatenate([self.j0, j0])
        self.size = np.concatenate([self.size, size])
        return np.arange(base, base + len(ids), dtype=np.int64)


def search(a, token_ids, k, exclude=(), floor_overlap: int = 1, *, costs: CostModel | None = None,
           batch_size: int = BATCH_SIZE, plan: str = "josie",
           min_batch_entries: int = MIN_BATCH_ENTRIES):
    """[(set id, overlap)] best first, and Stats. ``plan``: "josie", "mergelist" or "auto"."""
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
    n, D = lists.n, lists.n_lists
    st = Stats("josie", n=n, distinct_lists=D)
    heap = TopK(k, floor_overlap - 1)
    if n == 0:
        return [], st
    q = lists.tokens
    cum_l = np.zeros(D + 1)
    np.cumsum(costs.L(lists.freqs), out=cum_l[1:])
    cum_e = np.zeros(D + 1, dtype=np.int64)
    np.cumsum(lists.freqs, out=cum_e[1:])
    cs = _Candidates(a.n_sets)
    cs.drop(lists.exclude)
    # a candidate's unread suffix X[j+1:] meets the query only after position i: a query
    # token up to i that X holds was read with its group's list, whose last token then
    # lies at or before j in X. So the suffix is counted against all of Q.
    member = QueryMembership(q, a.n_tokens, expected=k or 1)
    res = _loop(a, lists, k, costs, lam, min_entries, st, heap, cs, member, cum_l, cum_e)
    # the scratch arrays go back zeroed only after a search that ran to its end
    cs.release()
    member.release()
    return res, st


def _loop(a, lists, k, costs, lam, min_entries, st, heap, cs, member, cum_l, cum_e):
    """The loop of :func:`_josie` (Algorithm 1)."""
    n, D = lists.n, lists.n_lists
    first, last, skipped = lists.first, lists.last, lists.skipped

    def batch_end(m_from: int, cap: int, scale: int = 1) -> int:
        """End (exclusive) of the batch from list m_from: ``scale * λ`` lists, or more
        until it holds ``scale * min_entries`` posting entries; at most ``cap``."""
        e = m_from + lam * scale
        if min_entries:
            e = max(e, int(np.searchsorted(cum_e, cum_e[m_from] + scale * min_entries)))
        return min(e, cap)
    grow = 1                                 # doubles over batches that admit nothing
    u = np.zeros(0, dtype=np.int64)          # rows (in cs) of the unread candidates
    u_ids = np.zeros(0, dtype=np.int64)      # their set ids
    m = -1                                   # last distinct list read
    counters = {"batches": 0, "admitted": 0, "pruned_at_first_sight": 0,
                "pruned_by_bound": 0, "exact_without_read": 0, "flushed": 0, "max_unread": 0,
                "set_decisions": 0, "list_decisions": 0}

    def read_batch(m_from: int, m_to: int):
        """Read distinct lists m_from..m_to-1 (θ is constant meanwhile); update the seen
        candidates and admit new ones. Returns (rows, set ids) of the admitted."""
        theta = heap.theta
        sids, pos, sizes, lens = read_lists(a, lists.list_tokens[m_from:m_to],
                                            readahead=lists.cold)
        st.lists_read += m_to - m_from
        st.posting_entries_read += len(sids)
        counters["batches"] += 1
        none = np.zeros(0, dtype=np.int64)
        if len(sids) == 0:
            return none, none
        # group the entries by set (stable: list order kept per set), permuting only the
        # set ids; the other columns are read at each set's first and last entry
        slot = cs.slot[sids]
        live = slot >= 0
        src = None if live.all() else np.flatnonzero(live)     # entries of live sets
        keys = sids if src is None else sids[src]
        if len(keys) == 0:
            return none, none
        order = np.argsort(keys, kind="stable")
        ss = keys[order]
        if src is not None:
            order = src[order]                                  # index into the batch
        brk = np.empty(len(ss), dtype=bool)
        brk[0] = True
        np.not_equal(ss[1:], ss[:-1], out=brk[1:])
        starts = np.flatnonzero(brk)
        ends = np.empty_like(starts)
        ends[:-1] = starts[1:] - 1
        ends[-1] = len(ss) - 1
        weight = skipped[m_from:m_to] + 1
        if (weight == 1).all():
            credit = ends - starts + 1
        else:
            credit = np.add.reduceat(np.repeat(weight, lens)[order], starts)
        fst = order[starts]                                     # each set's first entry
        latest = pos[order[ends]].astype(np.int64)
        sslot = slot[fst]
        old = sslot > 0
        rows = sslot[old].astype(np.int64) - 1
        cs.c[rows] = _accumulate(cs.c[rows], credit[old])    # add, never assign (A6.4)
        cs.j[rows] = latest[old]
        new = ~old
        fn = fst[new]
        ids = ss[starts][new].astype(np.int64)
        nl = np.repeat(np.arange(m_from, m_to), lens)[fn]        # its list
        p0 = pos[fn].astype(np.int64)
        nz = sizes[fn].astype(np.int64)
        ns = skipped[nl]
        # prefix filter (an unseen set can reach n - first) and position filter, Eq.2
        ok = ((n - first[nl]) > theta) & \
             (ns + 1 + np.minimum(n - 1 - last[nl], nz - 1 - p0) > theta)
        if not ok.all():
            counters["pruned_at_first_sight"] += int(len(ok) - ok.sum())
            cs.drop(ids[~ok])
            ids, nl, p0, nz, ns = ids[ok], nl[ok], p0[ok], nz[ok], ns[ok]
            credit_new, latest_new = credit[new][ok], latest[new][ok]
        else:
            credit_new, latest_new = credit[new], latest[new]
        counters["admitted"] += len(ids)
        return cs.add(ids, credit_new, latest_new, first[nl], p0 - ns, nz), ids

    while True:
        theta = heap.theta
        i = int(last[m]) if m >= 0 else -1
        if len(u):
            uc, uj, uz = cs.c[u], cs.j[u], cs.size[u]
            suffix = uz - 1 - uj
            ub = uc + np.minimum(n - 1 - i, suffix)          # Eq.6
            drop = ub <= theta                               # position filter
            exact = (suffix == 0) | (m == D - 1)             # counts already exact
            exact &= ~drop
            if drop.any() or exact.any():
                if drop.any():
                    counters["pruned_by_bound"] += int(drop.sum())
                    cs.slot[u_ids[drop]] = -1
                if exact.any():
                    counters["flushed" if m == D - 1 else "exact_without_read"] += int(exact.sum())
                    heap.push_many(uc[exact], u_ids[exact])
                    cs.slot[u_ids[exact]] = -1
                keep = ~(drop | exact)
                u, u_ids = u[keep], u_ids[keep]
                continue
        if m == D - 1:
            break
        if len(u) == 0:
            if n - first[m + 1] <= theta:                    # prefix exhausted, nothing unread
                break
            # with nothing unread, lists past the prefix could only update sets this very
            # batch admits: stop the batch at the prefix end, the cost model decides on more
            prefix_end = int(np.searchsorted(first, n - theta))
            m_to = batch_end(m + 1, prefix_end, grow)
            u, u_ids = read_batch(m + 1, m_to)
            m = m_to - 1
            counters["max_unread"] = max(counters["max_unread"], len(u))
            grow = grow * 2 if len(u) == 0 and min_entries else 1
            continue
        # ---- decide: read the best candidate, or the next batch of lists
        ui0, uj0 = cs.i0[u], cs.j0[u]
        window = i - ui0 + 1
        est = np.minimum(np.floor(uc * (n - ui0) / window), ub)          # Eq.4
        eligible = np.flatnonzero(window > lam)
        read_x = -1
        if len(eligible):
            cost = costs.S(suffix)
            if not heap.full:
                # no θ yet: read the candidates of highest estimate until the heap is full.
                # Nothing else changes meanwhile (θ stays at its floor, no list is read), so
                # reading them in one go is the same as deciding again after each read.
                need = len(eligible) if heap.k is None else heap.k - len(heap.h)
                picks = eligible[np.lexsort((cost[eligible], -est[eligible]))[:need]]
                if lists.cold:                       # read the picked suffixes together
                    advise_suffixes(a, u_ids[picks], uj[picks] + 1)
                for r in picks.tolist():
                    x = int(u_ids[r])
                    matches, read = member.count(a, x, int(uj[r]) + 1)
                    st.sets_read += 1
                    st.set_tokens_read += read
                    heap.push(int(uc[r]) + matches, x)
                    cs.slot[x] = -1
                counters["set_decisions"] += len(picks)
                keep = np.ones(len(u), dtype=bool)
                keep[picks] = False
                u, u_ids = u[keep], u_ids[keep]
                continue
            else:
                m_to = batch_end(m + 1, D)
                i2 = int(last[m_to - 1])
                # Eq.9-12: the next batch
                trunc = np.floor((i2 - i) / (n - ui0) * (uz - uj0))
                batch_est = np.floor(uc / window * (i2 - i))
                new_suffix = np.maximum(suffix - trunc, 0)
                nub = uc + batch_est + np.minimum(n - 1 - i2, new_suffix)
                benefit_b = np.where(nub <= theta, cost, cost - costs.S(new_suffix)).sum()
                net_b = (cum_l[m_to] - cum_l[m + 1]) - benefit_b
                # Eq.5, 7, 13: every eligible candidate
                e = est[eligible]
                t_new = np.where(e <= theta, theta, np.minimum(e, heap.theta_k1))
                in_prefix_now = max(int(np.searchsorted(first, n - theta)), m + 1)
                in_prefix_new = np.maximum(np.searchsorted(first, n - t_new), m + 1)
                benefit_lists = cum_l[in_prefix_now] - cum_l[in_prefix_new]
                order = np.argsort(ub, kind="stable")
                cum_cost = np.zeros(len(u) + 1)
                np.cumsum(cost[order], out=cum_cost[1:])
                pruned_cost = cum_cost[np.searchsorted(ub[order], t_new, side="right")]
                own = np.where(ub[eligible] <= t_new, cost[eligible], 0.0)
                net_x = cost[eligible] - (benefit_lists + pruned_cost - own)
                b = int(np.argmin(net_x))
                if net_x[b] <= net_b:
                    read_x = int(eligible[b])
        if read_x >= 0:
            counters["set_decisions"] += 1
            x = int(u_ids[read_x])
            if lists.cold:
                advise_suffixes(a, [x], [int(uj[read_x]) + 1])
            matches, read = member.count(a, x, int(uj[read_x]) + 1)
            st.sets_read += 1
            st.set_tokens_read += read
            heap.push(int(uc[read_x]) + matches, x)
            cs.slot[x] = -1
            keep = np.ones(len(u), dtype=bool)
            keep[read_x] = False
            u, u_ids = u[keep], u_ids[keep]
        else:
            counters["list_decisions"] += 1
            m_to = batch_end(m + 1, D)
            nu, nids = read_batch(m + 1, m_to)
            u, u_ids = np.concatenate([u, nu]), np.concatenate([u_ids, nids])
            m = m_to - 1
            counters["max_unread"] = max(counters["max_unread"], len(u))
    read_first = first[: m + 1]
    counters["lists_past_prefix"] = int(np.count_nonzero(n - read_first <= heap.theta))
    st.extra.update(counters)
    return heap.results()


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
