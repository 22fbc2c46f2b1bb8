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
  build time by build/josie.py, Eq.15);
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
  there the candidate with the highest estimate is read (as in the code): the cheapest read
  would fill the heap with sets unlikely to stay in it.
* Eq.7's list term counts only lists not yet read (``max(i, p')+1 .. p``): a list already
  read cannot be saved; the paper's and the code's sum include them (A3.4 c).
* A candidate whose set has no token after its latest match (``|X|-1-j = 0``) has an exact
  count already; it is resolved without a read.
* ``k=None`` (every set above a threshold, no k): with no k-th overlap there is no
  prefix to shorten, so MergeList-D answers (reported as the plan).

Plan: with ``plan="auto"`` (the default) a query whose every distinct list together costs
less than ``josie_min_cost`` (``AUTO_LISTS`` batches of list reads plus ``AUTO_SETS`` set
reads, from the fitted costs) is answered by MergeList-D, whose single vectorized pass beats
any per-batch decision loop there; both are exact, and ``stats["plan"]`` says which ran.
"""
from __future__ import annotations

import numpy as np

from ..index.reads import CostModel, cost_dict, plain, read_lists, read_suffix_overlap
from . import mergelist
from .overlap import Stats, TopK, candidates, distinct_lists, min_overlap
from .registry import ParamSpec, SearchMethod, register_method

BATCH_SIZE = 20          # λ: the authors' value for open data (notes A3.4 g)
AUTO_LISTS = 2           # plan="auto": MergeList-D when all lists cost less than this many
AUTO_SETS = 4            #   batches of lists plus this many set reads

UNSEEN, CANDIDATE, DONE = 0, 1, 2


def _accumulate(partial, credit):
    """A seen candidate's partial overlap after another of its lists: partial + credit.
    (The authors' Go code assigned ``partial = skipped + 1`` here until April 2023; the
    tests check that doing so is caught.)"""
    return partial + credit


class _State:
    """Per-candidate state in arrays indexed by set id (allocated lazily by the OS: only
    the pages of sets actually met are touched)."""

    def __init__(self, n_sets: int):
        self.status = np.zeros(n_sets, dtype=np.int8)
        self.c = np.zeros(n_sets, dtype=np.int64)
        self.j = np.zeros(n_sets, dtype=np.int64)
        self.i0 = np.zeros(n_sets, dtype=np.int64)
        self.j0 = np.zeros(n_sets, dtype=np.int64)
        self.size = np.zeros(n_sets, dtype=np.int64)


def search(a, token_ids, k, exclude=(), floor_overlap: int = 1, *, costs: CostModel | None = None,
           batch_size: int = BATCH_SIZE, plan: str = "josie"):
    """[(set id, overlap)] best first, and Stats. ``plan``: "josie", "mergelist" or "auto"."""
    a = plain(a)
    costs = costs or CostModel.from_manifest({})
    lists = distinct_lists(a, token_ids, exclude)
    if plan not in ("josie", "mergelist", "auto"):
        raise ValueError(f"plan must be 'josie', 'mergelist' or 'auto' (got {plan!r})")
    chosen = plan
    if k is None:
        chosen = "mergelist"
    elif plan == "auto":
        all_lists = float(costs.L(lists.freqs).sum()) if lists.n_lists else 0.0
        josie_min = (AUTO_LISTS * float(costs.L(np.zeros(batch_size)).sum())
                     + AUTO_SETS * float(costs.S(0)))
        chosen = "mergelist" if all_lists <= josie_min else "josie"
    if chosen == "mergelist":
        res, st = mergelist.search(a, token_ids, k, exclude, floor_overlap)
        st.method = "josie"
    else:
        res, st = _josie(a, lists, k, floor_overlap, costs, max(1, int(batch_size)))
    st.extra["plan"] = chosen
    st.extra["cost_model"] = costs.source + "/" + costs.profile
    return res, st


def _josie(a, lists, k, floor_overlap, costs: CostModel, lam: int):
    n, D = lists.n, lists.n_lists
    st = Stats("josie", n=n, distinct_lists=D)
    heap = TopK(k, floor_overlap - 1)
    if n == 0:
        return [], st
    q = lists.tokens
    first, last, skipped = lists.first, lists.last, lists.skipped
    cum_l = np.zeros(D + 1)
    np.cumsum(costs.L(lists.freqs), out=cum_l[1:])
    s = _State(a.n_sets)
    s.status[lists.exclude] = DONE
    u = np.zeros(0, dtype=np.int64)          # unread candidates
    m = -1                                   # last distinct list read
    counters = {"batches": 0, "admitted": 0, "pruned_at_first_sight": 0,
                "pruned_by_bound": 0, "exact_without_read": 0, "flushed": 0, "max_unread": 0,
                "set_decisions": 0, "list_decisions": 0}

    def read_batch(m_from: int, m_to: int):
        """Read distinct lists m_from..m_to-1 (θ is constant meanwhile). Returns new ids."""
        theta = heap.theta
        sids, pos, sizes, lens = read_lists(a, lists.list_tokens[m_from:m_to])
        st.lists_read += m_to - m_from
        st.posting_entries_read += len(sids)
        counters["batches"] += 1
        if len(sids) == 0:
            return np.zeros(0, dtype=np.int64)
        lidx = np.repeat(np.arange(m_from, m_to), lens)
        live = s.status[sids] != DONE
        sids, pos, sizes, lidx = sids[live], pos[live], sizes[live], lidx[live]
        if len(sids) == 0:
            return np.zeros(0, dtype=np.int64)
        order = np.argsort(sids, kind="stable")            # entries stay in list order per set
        sids, pos, sizes, lidx = sids[order], pos[order], sizes[order], lidx[order]
        starts = np.flatnonzero(np.r_[True, sids[1:] != sids[:-1]])
        ends = np.r_[starts[1:], len(sids)] - 1
        ids = sids[starts].astype(np.int64)
        credit = np.add.reduceat(skipped[lidx] + 1, starts)
        latest = pos[ends].astype(np.int64)
        old = s.status[ids] == CANDIDATE
        oi = ids[old]
        s.c[oi] = _accumulate(s.c[oi], credit[old])          # add, never assign (A6.4)
        s.j[oi] = latest[old]
        new = ~old
        ni, nl, np0, nz = ids[new], lidx[starts][new], pos[starts][new].astype(np.int64), \
            sizes[starts][new].astype(np.int64)
        ns = skipped[nl]
        # prefix filter (unseen sets can reach n - first) and position filter, Eq.2
        ok = ((n - first[nl]) > theta) & \
             (ns + 1 + np.minimum(n - 1 - last[nl], nz - 1 - np0) > theta)
        counters["pruned_at_first_sight"] += int(len(ni) - ok.sum())
        s.status[ni[~ok]] = DONE
        ni, nl, np0, nz, ns = ni[ok], nl[ok], np0[ok], nz[ok], ns[ok]
        s.status[ni] = CANDIDATE
        s.c[ni] = credit[new][ok]
        s.j[ni] = latest[new][ok]
        s.i0[ni] = first[nl]
        s.j0[ni] = np0 - ns
        s.size[ni] = nz
        counters["admitted"] += len(ni)
        return ni

    while True:
        theta = heap.theta
        i = int(last[m]) if m >= 0 else -1
        if len(u):
            uc, uj, uz = s.c[u], s.j[u], s.size[u]
            suffix = uz - 1 - uj
            ub = uc + np.minimum(n - 1 - i, suffix)          # Eq.6
            drop = ub <= theta
            if drop.any():                                   # position filter
                counters["pruned_by_bound"] += int(drop.sum())
                s.status[u[drop]] = DONE
            exact = ~drop & ((suffix == 0) | (m == D - 1))
            if exact.any():                                  # counts already exact
                if m == D - 1:
                    counters["flushed"] += int(exact.sum())
                else:
                    counters["exact_without_read"] += int(exact.sum())
                heap.push_many(uc[exact], u[exact])
                s.status[u[exact]] = DONE
            if drop.any() or exact.any():
                u = u[~(drop | exact)]
                continue
        if m == D - 1:
            break
        if len(u) == 0:
            if n - first[m + 1] <= theta:                    # prefix exhausted, nothing unread
                break
            m_to = min(m + 1 + lam, D)
            u = np.concatenate([u, read_batch(m + 1, m_to)])
            m = m_to - 1
            counters["max_unread"] = max(counters["max_unread"], len(u))
            continue
        # ---- decide: read the best candidate or the next batch of lists
        uc, uj, uz, ui0, uj0 = s.c[u], s.j[u], s.size[u], s.i0[u], s.j0[u]
        suffix = uz - 1 - uj
        ub = uc + np.minimum(n - 1 - i, suffix)
        window = i - ui0 + 1
        est = np.minimum(np.floor(uc * (n - ui0) / window), ub)          # Eq.4
        eligible = np.flatnonzero(window > lam)
        cost = costs.S(suffix)
        read_x = -1
        if len(eligible):
            if not heap.full:
                e = est[eligible]
                best = eligible[np.lexsort((cost[eligible], -e))[0]]
                read_x = int(best)
            else:
                m_to = min(m + 1 + lam, D)
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
                t_k, t_k1 = theta, heap.theta_k1
                t_new = np.where(e <= t_k, t_k, np.minimum(e, t_k1))
                in_prefix_now = max(int(np.searchsorted(first, n - t_k)), m + 1)
                in_prefix_new = np.maximum(np.searchsorted(first, n - t_new), m + 1)
                benefit_lists = cum_l[in_prefix_now] - cum_l[in_prefix_new]
                order = np.argsort(ub, kind="stable")
                ub_sorted = ub[order]
                cum_cost = np.zeros(len(u) + 1)
                np.cumsum(cost[order], out=cum_cost[1:])
                pruned_cost = cum_cost[np.searchsorted(ub_sorted, t_new, side="right")]
                own = np.where(ub[eligible] <= t_new, cost[eligible], 0.0)
                net_x = cost[eligible] - (benefit_lists + pruned_cost - own)
                b = int(np.argmin(net_x))
                if net_x[b] <= net_b:
                    read_x = int(eligible[b])
        if read_x >= 0:
            counters["set_decisions"] += 1
            x = int(u[read_x])
            matches, read = read_suffix_overlap(a, x, int(uj[read_x]) + 1, q[i + 1:])
            st.sets_read += 1
            st.set_tokens_read += read
            heap.push(int(uc[read_x]) + matches, x)
            s.status[x] = DONE
            u = np.delete(u, read_x)
        else:
            counters["list_decisions"] += 1
            m_to = min(m + 1 + lam, D)
            u = np.concatenate([u, read_batch(m + 1, m_to)])
            m = m_to - 1
            counters["max_unread"] = max(counters["max_unread"], len(u))
    theta = heap.theta
    read_first = first[: m + 1]
    counters["lists_past_prefix"] = int(np.count_nonzero(n - read_first <= theta))
    st.extra.update(counters)
    return heap.results(), st


# ------------------------------------------------------------------ engine method

def _run(index, query, params):
    o = params.options
    costs = CostModel.from_manifest(index.manifest, o.get("cost_profile", "warm"))
    res, st = search(index.arrays, query.token_ids, params.k, query.exclude,
                     min_overlap(params, query.size), costs=costs,
                     batch_size=int(o.get("batch_size", BATCH_SIZE)),
                     plan=o.get("plan", "auto"))
    st.extra["costs"] = cost_dict(costs)
    return candidates(res), st.as_dict()


register_method(SearchMethod(
    name="josie", label="Exact top-k (JOSIE)", kind="exact", run=_run, priority=10,
    description="JOSIE-D (SIGMOD 2019): exact top-k by overlap; a cost model decides between "
                "reading posting lists and candidate sets, so it reads far less than a full "
                "merge on large lakes.",
    params=(ParamSpec("batch_size", "Batch size λ (posting lists)", "int", BATCH_SIZE, 1, 1000, 1,
                      help="Distinct posting lists read between two decisions."),
            ParamSpec("plan", "Plan", "choice", "auto", choices=("auto", "josie", "mergelist"),
                      help="auto: MergeList-D when the whole query costs less than a few "
                           "JOSIE steps (both exact)."),
            ParamSpec("cost_profile", "Cost profile", "choice", "warm", choices=("warm", "cold"),
                      help="Read costs fitted with the index in memory (warm) or on disk (cold).")),
))
