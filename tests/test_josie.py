"""JOSIE-D, MergeList-D and ProbeSet-D against the brute-force oracle (no Spark).

Random lakes are Zipfian (token frequencies and set sizes) and carry blocks of tokens that
always occur together, so many posting lists are duplicates and the "-D" credit of skipped
tokens is exercised. Results are compared as overlap multisets (ties at the k-th place may
be broken differently).
"""
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from lakejoin_jupyter.index.arrays import build_arrays
from lakejoin_jupyter.search.josie_cost import CostModel, LinearCost, PlanFit, _fit, calibrate
from lakejoin_jupyter.search import bruteforce, josie, mergelist, probeset
from lakejoin_jupyter.search.overlap import distinct_lists

PAPER_SETS = [["x1", "x100", "x200"], ["x2", "x5"], ["x2"], [f"x{i}" for i in range(2, 102)]]
PAPER_QUERY = ["x1", "x2", "x100", "x200"]


def zipf_lake(seed, n_sets, n_tokens, n_blocks, max_size):
    """Token sets with Zipfian token frequencies and sizes; each block is a run of tokens
    that always co-occur (identical posting lists)."""
    rng = np.random.default_rng(seed)
    w = 1.0 / np.arange(1, n_tokens + 1) ** 1.2
    w /= w.sum()
    blocks = [[f"b{b}_{r}" for r in range(int(rng.integers(2, 6)))] for b in range(n_blocks)]
    sets = []
    for _ in range(n_sets):
        size = int(min(n_tokens, max_size, rng.zipf(1.6)))
        toks = [f"t{x}" for x in rng.choice(n_tokens, size=size, replace=False, p=w)]
        for blk in blocks:
            if rng.random() < 0.25:
                toks += blk
        sets.append(toks)
    return sets


def random_query(rng, sets, n_tokens, n_blocks):
    vocab = [f"t{x}" for x in range(n_tokens)] + [f"b{b}_{r}" for b in range(n_blocks) for r in range(6)]
    if rng.random() < 0.4 and sets:          # a query overlapping a lake set heavily
        base = list(set(sets[int(rng.integers(0, len(sets)))]))
        extra = list(rng.choice(vocab, size=int(rng.integers(0, 10))))
        return base + extra + ["never-in-the-lake"]
    return list(rng.choice(vocab, size=int(rng.integers(1, min(len(vocab), 80))), replace=False))


def multiset(results):
    return sorted(o for _, o in results)


def random_costs(rng):
    """Cost constants far apart, so every decision path of JOSIE gets taken somewhere."""
    s = LinearCost(float(rng.choice([10, 1e3, 1e6])), float(rng.choice([0, 1, 1e3])), 1.0)
    l_ = LinearCost(float(rng.choice([10, 1e3, 1e6])), float(rng.choice([0, 1, 1e3])), 1.0)
    return CostModel(s, l_, source="test")


# ------------------------------------------------------------------ the paper's example

def test_paper_example_2_3():
    ref = build_arrays(PAPER_SETS)
    a = ref.arrays
    q = ref.token_ids(PAPER_QUERY)
    # x1 and x200 hold exactly X1: one duplicate group, read once with a skipped credit
    lists = distinct_lists(a, q)
    assert lists.n == 4 and lists.n_lists == 3 and list(lists.skipped) == [1, 0, 0]
    assert bruteforce.topk(a, q, 2) == [(0, 3), (3, 2)]
    for lam in (1, 2, 3, 20):
        assert josie.search(a, q, 2, plan="josie", batch_size=lam)[0] == [(0, 3), (3, 2)]
    assert mergelist.search(a, q, 2)[0] == [(0, 3), (3, 2)]
    assert probeset.search(a, q, 2)[0] == [(0, 3), (3, 2)]
    # in the frequency order the prefix is |Q| - θ + 1 = 3 tokens: the groups {x1, x200}
    # and {x100}; x2's list (X2, X3, X4) is never read
    res, stats = probeset.search(a, q, 2)
    assert stats.lists_read == 2 and stats.sets_read == 2


# ------------------------------------------------------------------ property tests

@pytest.mark.parametrize("dense, repeat_max, block", [(10**9, 3.0, 64), (10**9, 3.0, 1),
                                                       (10**9, 0.0, 3), (0, 3.0, 7)])
@pytest.mark.parametrize("seed", range(12))
def test_mergelist_counting_paths_equal_the_oracle(monkeypatch, dense, repeat_max, block, seed):
    """Each way MergeList-D counts: dense with weighted lists read again (repeat), dense with
    float weights (repeat_max 0), and sparse (sort); the top k by block maxima of the counts
    (blocks of 1, 3, 7 and 64 sets, so the lakes of 80 sets have several)."""
    monkeypatch.setattr(mergelist, "DENSE_FACTOR", dense)
    monkeypatch.setattr(mergelist, "REPEAT_MAX", repeat_max)
    monkeypatch.setattr(mergelist, "TOPK_BLOCK", block)
    sets = zipf_lake(seed, 80, 60, 4, 40)
    ref = build_arrays(sets)
    a = ref.arrays
    rng = np.random.default_rng(seed)
    q = ref.token_ids(random_query(rng, sets, 60, 4) + [f"b0_{r}" for r in range(6)])
    truth = bruteforce.overlaps(a, q)
    for k in (1, 3, 10, None):
        exclude = [int(np.argmax(truth))] if seed % 2 else []
        got, st = mergelist.search(a, q, k, exclude)
        want = bruteforce.topk(a, q, k or len(sets), exclude=exclude)
        assert multiset(got) == multiset(want)
        assert all(truth[x] == o for x, o in got)
        assert st.extra["candidates"] == int(np.count_nonzero(truth))



@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n_sets=st.integers(1, 120), n_tokens=st.integers(3, 300),
       n_blocks=st.integers(0, 6), max_size=st.integers(1, 150), k=st.integers(1, 50),
       lam=st.integers(1, 30), min_entries=st.sampled_from([0, 0, 1, 7, 50, 400]))
def test_all_three_equal_the_oracle(seed, n_sets, n_tokens, n_blocks, max_size, k, lam,
                                    min_entries):
    sets = zipf_lake(seed, n_sets, n_tokens, n_blocks, max_size)
    ref = build_arrays(sets)
    a = ref.arrays
    rng = np.random.default_rng(seed + 1)
    query = random_query(rng, sets, n_tokens, n_blocks)
    q = ref.token_ids(query)
    exclude = [int(rng.integers(0, n_sets))] if rng.random() < 0.4 else []
    want = multiset(bruteforce.topk(a, q, k, exclude=exclude))
    got_j, sj = josie.search(a, q, k, exclude, plan="josie", batch_size=lam,
                             costs=random_costs(rng), min_batch_entries=min_entries)
    got_m, sm = mergelist.search(a, q, k, exclude)
    got_p, sp = probeset.search(a, q, k, exclude)
    assert multiset(got_j) == want
    assert multiset(got_m) == want
    assert multiset(got_p) == want
    # every returned overlap is the true one of that set, excluded sets never come back
    truth = bruteforce.overlaps(a, q)
    for res in (got_j, got_m, got_p):
        assert all(truth[s] == o for s, o in res)
        assert not set(s for s, _ in res) & set(exclude)
    # the work counters add up: lists are read in the global order, each at most once
    lists = distinct_lists(a, q, exclude)
    for s_ in (sj, sm, sp):
        assert s_.lists_read <= lists.n_lists
        assert s_.posting_entries_read == int(lists.freqs[: s_.lists_read].sum())
    assert sm.lists_read == lists.n_lists and sm.sets_read == 0
    assert sj.sets_read <= sj.extra.get("admitted", 0)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), t=st.floats(0.0, 1.0), k=st.one_of(st.none(), st.integers(1, 20)))
def test_threshold_and_all_results(seed, t, k):
    """A containment threshold (and k=None: every qualifying set) gives the oracle's sets."""
    sets = zipf_lake(seed, 60, 80, 3, 60)
    ref = build_arrays(sets)
    a = ref.arrays
    rng = np.random.default_rng(seed)
    query = random_query(rng, sets, 80, 3)
    q = ref.token_ids(query)
    size = len(set(query))
    qualifying = bruteforce.threshold(a, q, t, query_size=size)
    truth = bruteforce.overlaps(a, q)
    want = sorted(truth[qualifying].tolist())
    if k is not None:
        want = want[::-1][:k][::-1]
    floor = max(1, int(np.ceil(t * size - 1e-9)))
    for mod, kw in ((josie, {"plan": "josie"}), (mergelist, {}), (probeset, {})):
        got, _ = mod.search(a, q, k, (), floor, **kw)
        assert multiset(got) == want, mod.__name__


def test_first_match_bookkeeping_over_many_small_lakes():
    """A new candidate's first match (its list, position, skipped tokens) feeds the prefix
    and position filters at first sight; an error there prunes a true top-k set only now
    and then (off by one list: 15 of 4,800 of these searches), so many lakes are swept."""
    for seed in range(400):
        rng = np.random.default_rng(seed)
        n_sets, n_tokens = int(rng.integers(20, 200)), int(rng.integers(20, 400))
        sets = zipf_lake(seed, n_sets, n_tokens, int(rng.integers(0, 8)), int(rng.integers(5, 200)))
        ref = build_arrays(sets)
        q = ref.token_ids(random_query(rng, sets, n_tokens, 4))
        for k in (1, 3, 10):
            want = multiset(bruteforce.topk(ref.arrays, q, k))
            for lam, min_entries in ((2, 0), (3, 0), (2, 7)):
                got = josie.search(ref.arrays, q, k, plan="josie", batch_size=lam,
                                   min_batch_entries=min_entries)[0]
                assert multiset(got) == want, (seed, k, lam, min_entries)


def test_assignment_bug_is_caught(monkeypatch):
    """The reference code once *assigned* ``partial = skipped + 1`` to a seen candidate
    instead of adding it (until 2023). With that bug put back, the oracle comparison above
    fails; with the real code it holds."""
    sets = [["a", "b", "c", "z"], ["a"], ["b", "y"], ["c", "y", "x"], ["z", "x"]]
    ref = build_arrays(sets)
    q = ref.token_ids(["a", "b", "c", "z"])
    assert josie.search(ref.arrays, q, 1, plan="josie", batch_size=1, min_batch_entries=0)[0] == [(0, 4)]
    monkeypatch.setattr(josie, "_accumulate", lambda partial, credit: credit)
    assert multiset(josie.search(ref.arrays, q, 1, plan="josie", batch_size=1, min_batch_entries=0)[0]) != [4]
    wrong = 0
    for seed in range(20):
        sets = zipf_lake(seed, 80, 120, 4, 80)
        ref = build_arrays(sets)
        rng = np.random.default_rng(seed)
        q = ref.token_ids(random_query(rng, sets, 120, 4))
        want = multiset(bruteforce.topk(ref.arrays, q, 10))
        wrong += multiset(josie.search(ref.arrays, q, 10, plan="josie", batch_size=2, min_batch_entries=0)[0]) != want
    assert wrong >= 10


def test_self_query_excludes_itself_and_its_unique_tokens():
    sets = [["u1", "u2", "u3", "a", "b"], ["a", "b", "c"], ["a"], ["b", "c", "d"]]
    ref = build_arrays(sets)
    q = ref.arrays.set_tokens(0)
    lists = distinct_lists(ref.arrays, q, exclude={0})
    # u1..u3 are held by the query's own set only: not in U (JOSIE §4.2), n = |{a, b}|
    assert lists.n == 2 and lists.dropped == 3
    for mod, kw in ((josie, {"plan": "josie", "batch_size": 1}), (mergelist, {}), (probeset, {})):
        res, stats = mod.search(ref.arrays, q, 3, exclude={0}, **kw)
        assert res == [(1, 2), (2, 1), (3, 1)], mod.__name__
        assert stats.n == 2


def test_auto_plan_is_exact_and_reported():
    sets = zipf_lake(3, 200, 400, 5, 200)
    ref = build_arrays(sets)
    rng = np.random.default_rng(0)
    for _ in range(30):
        q = ref.token_ids(random_query(rng, sets, 400, 5))
        res, stats = josie.search(ref.arrays, q, 10, plan="auto")
        assert multiset(res) == multiset(bruteforce.topk(ref.arrays, q, 10))
        assert stats.extra["plan"] in ("josie", "mergelist")
    lin = LinearCost(1, 1, 1)
    q = np.arange(ref.arrays.n_tokens)                     # many distinct lists
    entries = int(distinct_lists(ref.arrays, q).freqs.sum())
    # JOSIE's fitted time below MergeList-D's: JOSIE, and the other way round
    merge_dear = CostModel(lin, lin, plan=PlanFit(0, 1000, 0, 1, 1, 1))
    merge_cheap = CostModel(lin, lin, plan=PlanFit(0, 1e-3, 1e6, 1, 1, 1))
    for costs, want in ((merge_dear, "josie"), (merge_cheap, "mergelist")):
        res, stats = josie.search(ref.arrays, q, 5, plan="auto", costs=costs)
        assert stats.extra["plan"] == want
        est = stats.extra["plan_estimates_ns"]
        assert est["mergelist"] == costs.plan.mergelist_ns(entries)
        assert est["josie"] == costs.plan.josie_ns(5, len(q))
        assert multiset(res) == multiset(bruteforce.topk(ref.arrays, q, 5))
    with pytest.raises(ValueError, match="plan"):
        josie.search(ref.arrays, q, 5, plan="fastest")


def test_josie_reads_less_than_mergelist_on_a_skewed_lake():
    """The point of the prefix filter: a query overlapping one set heavily stops reading
    long (frequent) posting lists early; MergeList-D reads them all."""
    rng = np.random.default_rng(7)
    hub = [f"h{i}" for i in range(400)]
    sets = [hub] + [list(rng.choice(hub[:40], size=20, replace=False)) for _ in range(300)]
    ref = build_arrays(sets)
    q = ref.token_ids(hub)
    rj, sj = josie.search(ref.arrays, q, 1, plan="josie", batch_size=1, min_batch_entries=0)
    rm, sm = mergelist.search(ref.arrays, q, 1)
    assert rj == rm == [(0, 400)]
    assert sj.posting_entries_read * 5 <= sm.posting_entries_read


# ------------------------------------------------------------------ cost model

def test_linear_fit_and_floor():
    n = np.arange(1, 200, dtype=float)
    fit = _fit(n, 500.0 + 3.0 * n)
    assert fit["slope"] == pytest.approx(3.0) and fit["intercept"] == pytest.approx(500.0)
    assert fit["r2"] == pytest.approx(1.0)
    neg = _fit(n, np.maximum(-50.0 + 2.0 * n, 1.0))      # a negative intercept is floored
    cost = LinearCost(neg["intercept"], neg["slope"], neg["floor"])
    assert (cost(np.arange(0, 10)) >= neg["floor"]).all() and neg["floor"] > 0


def test_calibrate_on_written_arrays(tmp_path):
    from lakejoin_jupyter.index.store import ARRAY_FILES
    sets = zipf_lake(11, 400, 2000, 8, 600)
    a = build_arrays(sets).arrays
    for name, rel in ARRAY_FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        np.save(tmp_path / rel, getattr(a, name))
    fits = calibrate(tmp_path, n_samples=200, profiles=("warm",) + (("cold",) if hasattr(os, "posix_fadvise") else ()))
    for prof, f in fits.items():
        for kind in ("set", "list"):
            assert f[kind]["samples"] > 0 and f[kind]["floor"] > 0 and f[kind]["slope"] >= 0
    model = CostModel.from_manifest({"components": {"josie": {"costs": fits}}})
    assert model.source == "fitted"
    sizes = np.array([0, 1, 10, 100, 10_000])
    assert (np.diff(model.S(sizes)) >= 0).all() and (model.L(sizes) > 0).all()
    assert CostModel.from_manifest({}).source == "default"
    # the planner's fit: both plans timed on sampled self-queries, read back from the manifest
    plan = josie.calibrate_plan(a, per_interval=2, ks=(1, 10))
    assert plan["queries"] > 0 and all(v >= 0 for v in plan["fit"].values())
    assert plan["fit"]["ml_per_entry"] > 0 or plan["fit"]["ml_intercept"] > 0
    model = CostModel.from_manifest({"components": {"josie": {"costs": fits, "plan": plan}}})
    assert model.plan == PlanFit(**plan["fit"])
    assert josie.calibrate_plan(build_arrays([["a"], ["b"]]).arrays) is None   # nothing to time


def test_nonnegative_fit():
    rng = np.random.default_rng(0)
    x = np.stack([np.ones(50), rng.random(50), rng.random(50)], 1)
    assert np.allclose(josie._nonnegative_fit(x, x @ [2.0, 3.0, 5.0]), [2, 3, 5])
    y = x @ [2.0, -3.0, 5.0]
    got = josie._nonnegative_fit(x, y)                          # the negative feature is dropped
    assert got[1] == 0 and (got >= 0).all()
    refit, *_ = np.linalg.lstsq(x[:, [0, 2]], y, rcond=None)   # ... and the rest refitted
    assert np.allclose(got[[0, 2]], refit)


@given(t=st.floats(0.0, 1.0), size=st.integers(1, 500))
def test_min_overlap_of_a_containment_threshold(t, size):
    """The engine's threshold becomes the smallest overlap whose containment reaches it."""
    from lakejoin_jupyter.search.overlap import min_overlap
    from lakejoin_jupyter.search.registry import SearchParams
    want = next((o for o in range(1, size + 1) if o / size >= t - 1e-12), size + 1)
    assert min_overlap(SearchParams(threshold=t), size) == max(1, want)
    assert min_overlap(SearchParams(threshold=None), size) == 1


# ------------------------------------------------------------------ read-ahead of a cold index

@pytest.mark.parametrize("slice_min", [0, 10**9])
@pytest.mark.parametrize("seed", range(6))
def test_read_lists_by_slices_or_by_index_equal_the_lists(monkeypatch, slice_min, seed):
    """Both ways read_lists reads (slices of long lists, an index array of short ones)
    return each list whole, in the order asked, with every column."""
    from lakejoin_jupyter.index import reads
    monkeypatch.setattr(reads, "SLICE_MIN_MEAN", slice_min)
    monkeypatch.setattr(reads, "FEW_SPANS", 0)          # so only the mean length decides
    ref = build_arrays(zipf_lake(seed, 60, 50, 3, 30))
    a = reads.plain(ref.arrays)
    rng = np.random.default_rng(seed)
    toks = rng.choice(a.n_tokens, size=min(a.n_tokens, 7), replace=False)
    sids, pos, sizes, lens = reads.read_lists(a, toks)
    only, _, _, lens2 = reads.read_lists(a, toks, positional=False)
    want = [ref.arrays.postings(int(t)) for t in toks]
    assert lens.tolist() == lens2.tolist() == [len(w[0]) for w in want]
    for got, col in ((sids, 0), (pos, 1), (sizes, 2), (only, 0)):
        assert got.tolist() == np.concatenate([w[col] for w in want]).tolist()


@pytest.mark.parametrize("seed", range(8))
def test_josie_scratch_comes_back_zeroed_and_is_reused_safely(seed):
    """JOSIE-D takes its candidate slots and query bitmap zeroed from a pool and gives them
    back zeroed: many queries in a row on one lake (so the arrays are reused) still equal
    the oracle, and every pooled array is all zeros after each."""
    from lakejoin_jupyter.index import reads
    sets = zipf_lake(seed, 150, 400, 5, 120)
    ref = build_arrays(sets)
    a = ref.arrays
    rng = np.random.default_rng(seed)
    for _ in range(12):
        q = ref.token_ids(random_query(rng, sets, 400, 5))
        exclude = [int(rng.integers(0, len(sets)))]
        k = int(rng.integers(1, 30))
        got, _ = josie.search(a, q, k, exclude, plan="josie", batch_size=int(rng.integers(1, 6)),
                              costs=CostModel.from_manifest({}))
        assert multiset(got) == multiset(bruteforce.topk(a, q, k, exclude=exclude))
        pooled = [x for free in reads.SCRATCH._free.values() for x in free]
        assert pooled and all(not x.any() for x in pooled)


@pytest.mark.parametrize("kept", [0, 5, 1 << 25])
@pytest.mark.parametrize("seed", range(6))
def test_read_list_ids_equals_read_lists(monkeypatch, kept, seed):
    """The int64 gather MergeList-D counts, with the shared arange of reads.ranges too
    short, grown, kept."""
    from lakejoin_jupyter.index import reads
    monkeypatch.setattr(reads, "ARANGE_KEPT", kept)
    monkeypatch.setattr(reads, "_ARANGE", np.zeros(0, dtype=np.int64))
    a = reads.plain(build_arrays(zipf_lake(seed, 60, 50, 3, 30)).arrays)
    rng = np.random.default_rng(seed)
    for size in (1, 3, 30):
        toks = rng.choice(a.n_tokens, size=min(a.n_tokens, size))      # repeats allowed
        got = reads.read_list_ids(a, toks)
        assert got.dtype == np.int64
        assert got.tolist() == reads.read_lists(a, toks, positional=False)[0].tolist()


@settings(max_examples=200, deadline=None)
@given(spans=st.lists(st.tuples(st.integers(0, 300), st.integers(0, 6)), min_size=1, max_size=60),
       max_runs=st.integers(1, 70))
def test_page_runs_cover_exactly_the_pages_and_cut_at_the_widest_gaps(spans, max_runs):
    from lakejoin_jupyter.index.reads import page_runs
    first = np.array([a for a, _ in spans])
    last = first + np.array([n for _, n in spans])
    lo, hi = page_runs(first, last, max_runs=max_runs)
    need = set().union(*(range(a, b + 1) for a, b in zip(first, last)))
    covered = set().union(*(range(a, b) for a, b in zip(lo, hi)))
    exact = sorted(need)                             # oracle: maximal runs of needed pages
    runs = [[exact[0], exact[0]]]
    for p in exact[1:]:
        if p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    assert len(lo) == min(len(runs), max_runs)
    assert need <= covered and (lo[1:] > hi[:-1]).all()          # disjoint, sorted, gaps kept
    gaps = sorted((b[0] - a[1] - 1 for a, b in zip(runs, runs[1:])), reverse=True)
    kept = sorted((int(a - b) for a, b in zip(lo[1:], hi[:-1])), reverse=True)
    assert kept == gaps[:len(kept)]                  # the widest gaps are the ones kept
    assert len(covered) - len(need) == sum(gaps[len(kept):])    # nothing else is read


def resident_fraction(arr) -> float:
    """Share of the pages of a memory-mapped array in the page cache (one mincore of all)."""
    import ctypes
    from lakejoin_jupyter.index import reads
    lo = reads._mapped_address(arr) // reads.PAGE
    hi = (reads._mapped_address(arr) + arr.nbytes - 1) // reads.PAGE + 1
    vec = np.zeros(hi - lo, dtype=np.uint8)
    assert reads._LIBC.mincore(ctypes.c_void_p(lo * reads.PAGE), (hi - lo) * reads.PAGE,
                               vec.ctypes.data_as(ctypes.c_void_p)) == 0
    return float((vec & 1).mean())


@pytest.mark.skipif(not hasattr(os, "posix_fadvise"), reason="needs posix_fadvise")
def test_cold_index_is_read_ahead_and_answers_are_unchanged(tmp_path):
    from lakejoin_jupyter.index import reads
    from lakejoin_jupyter.index.store import ARRAY_FILES
    if reads._LIBC is None:
        pytest.skip("no libc mincore/madvise here")
    sets = zipf_lake(5, 3000, 60000, 20, 2000)
    ref = build_arrays(sets).arrays
    for name, rel in ARRAY_FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        np.save(tmp_path / rel, getattr(ref, name))
    files = [str(tmp_path / rel) for rel in ARRAY_FILES.values()]
    q = np.unique(np.concatenate([ref.sets_tokens[ref.sets_indptr[s]:ref.sets_indptr[s + 1]]
                                  for s in (3, 50, 700)]))
    want = multiset(mergelist.search(ref, q, 10)[0])
    reads.drop_from_page_cache(files)
    a = reads.load_arrays(tmp_path)
    if resident_fraction(a.token_group) > 0.5:       # (np.load read the header page)
        pytest.skip("the page cache kept the files (cannot test cold reads here)")
    assert not reads.is_cold(ref.token_group, q)      # an in-memory array is never cold
    lists = distinct_lists(a, q)
    assert lists.cold
    assert multiset(mergelist.search(a, q, 10, lists=lists)[0]) == want
    assert not reads.is_cold(a.token_group, q)        # read now
    assert reads.prefetch(ref.post_sets, [0], [10]) == 0          # not memory-mapped
    # the advice names exactly the pages the items lie on
    base = reads._mapped_address(a.post_indptr)
    items = np.array([0, 1, 2, 5000, 5001, 40000])
    pages = {(base + int(i) * 8) // reads.PAGE for i in items}
    assert reads.prefetch(a.post_indptr, items) == len(pages)


def test_cold_exclusion_check_advises_the_lists_it_reads(monkeypatch):
    """A cold query with an excluded set reads the posting lists of its rarest tokens (are
    they held by excluded sets only?): those lists' pages are advised first, since an
    unadvised fault reads the device's whole read-ahead window (8 MiB here) around it."""
    from lakejoin_jupyter.index import reads
    from lakejoin_jupyter.search import overlap
    sets = zipf_lake(9, 400, 5000, 10, 300)
    ref = build_arrays(sets).arrays
    sid = 7
    q = ref.sets_tokens[ref.sets_indptr[sid]:ref.sets_indptr[sid + 1]]
    advised = []
    monkeypatch.setattr(overlap, "is_cold", lambda arr, items: True)
    monkeypatch.setattr(reads, "prefetch",
                        lambda arr, starts, lengths=None: advised.append((arr, starts, lengths)))
    lists = distinct_lists(ref, q, {sid})
    assert lists.cold and lists.dropped > 0
    spans = [(int(s), int(n)) for arr, st_, ln in advised if np.may_share_memory(arr, ref.post_sets)
             for s, n in zip(st_, ln)]
    rare = np.sort(q)[ref.token_freq[np.sort(q)] <= 1]
    want = [(int(ref.post_indptr[t]), int(ref.post_indptr[t + 1] - ref.post_indptr[t]))
            for t in rare]
    assert spans == want
    assert multiset(mergelist.search(ref, q, 10, {sid}, lists=lists)[0]) == \
        multiset(bruteforce.topk(ref, q, 10, exclude=[sid]))


@settings(max_examples=150, deadline=None)
@given(sets=st.lists(st.lists(st.integers(0, 40), max_size=25), min_size=1, max_size=30))
def test_vectorized_builder_equals_the_reference_builder(sets):
    """index.arrays.build_arrays_from_ids (benchmark lakes of 10^8 entries) builds exactly
    build_arrays' arrays and order, duplicate lists and in-set duplicates included."""
    from lakejoin_jupyter.index.arrays import build_arrays_from_ids
    ref = build_arrays(sets)
    indptr = np.r_[0, np.cumsum([len(s) for s in sets])]
    got = build_arrays_from_ids(indptr, np.array([v for s in sets for v in s], dtype=np.int64))
    assert got.arrays.equals(ref.arrays)
    assert got.tokens.tolist() == ref.tokens



@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_tokens=st.integers(1, 3000), build=st.booleans(),
       expected=st.integers(1, 20), bytemap=st.booleans())
def test_query_membership_counts_like_the_binary_search(seed, n_tokens, build, expected,
                                                        bytemap):
    """JOSIE counts a candidate's suffix against the query by binary search until a map
    of the query (a byte or a bit per token id) pays for itself; every way gives
    count_in_sorted's count, and the map goes back to the scratch pool zeroed."""
    from lakejoin_jupyter.index import reads
    from lakejoin_jupyter.index.reads import QueryMembership, count_in_sorted
    rng = np.random.default_rng(seed)
    sets = [sorted(set(rng.integers(0, n_tokens, rng.integers(0, 60)).tolist())) for _ in range(8)]
    indptr = np.r_[0, np.cumsum([len(s) for s in sets])]
    a = type("A", (), {"sets_indptr": indptr,
                       "sets_tokens": np.array([t for s in sets for t in s], dtype=np.int32)})
    q = np.unique(rng.integers(0, n_tokens, rng.integers(0, 200))).astype(np.int32)
    m = QueryMembership(q, n_tokens, expected=expected)
    m.bytemap = bytemap
    m.build_ns = 0.0 if build else float("inf")
    read_any = False
    for sid, s in enumerate(sets):
        start = int(rng.integers(0, len(s) + 1))
        got = m.count(a, sid, start)
        assert got == (count_in_sorted(np.array(s[start:], dtype=np.int32), q), len(s) - start)
        read_any |= start < len(s)
    assert (m.bits is not None) == (build and read_any)
    if m.bits is not None:
        used = m.bits
        assert len(used) == (n_tokens if bytemap else n_tokens // 8 + 1)
        m.release()
        assert not used.any()
        assert any(x is used for free in reads.SCRATCH._free.values() for x in free)
