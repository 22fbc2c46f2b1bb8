"""Table union search: the build's column profiles, the alignment and ranking against a brute
force over every table and every matching, and the union plan's code reproducing its frame."""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.index import union_profile as up
from lakejoin_jupyter.search import union as us

from conftest import write_lake


# ----------------------------------------------------------------------- alignment oracle

def brute_alignment(S: np.ndarray, min_column: float) -> float:
    """The best sum over every partial injective map of rows to columns (pairs >= min)."""
    n, m = S.shape
    best = 0.0
    for r in range(0, min(n, m) + 1):
        for rows in itertools.combinations(range(n), r):
            for cols in itertools.permutations(range(m), r):
                vals = [S[i, j] for i, j in zip(rows, cols)]
                if all(v >= min_column for v in vals):
                    best = max(best, float(sum(vals)))
    return best


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5), st.integers(0, 2**31 - 1),
       st.sampled_from([0.0, 0.3, 0.5, 0.8]))
def test_best_alignment_is_the_best_matching(n, m, seed, min_column):
    S = np.round(np.random.default_rng(seed).random((n, m)), 2)
    pairs, total = us.best_alignment(S, min_column)
    assert total == pytest.approx(brute_alignment(S, min_column))
    assert total == pytest.approx(sum(S[i, j] for i, j in pairs))
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    assert all(S[i, j] >= min_column for i, j in pairs)


def test_set_statistic_bounds_the_hypergeometric_tail():
    from scipy.stats import hypergeom
    rng = np.random.default_rng(3)
    for _ in range(300):
        na, nb = rng.integers(1, 300, 2)
        t = rng.integers(0, min(na, nb) + 1)
        exact = -np.log10(max(hypergeom.sf(t - 1, na + nb, na, nb), 1e-300))
        got = up.set_statistic(t, na, nb)
        assert got <= exact + 1e-6           # the bound: the tail is at most pmf / (1 - r)
        assert got >= exact - 1.0 or got == 0.0   # and within a factor of 10 of it


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=21, max_size=21),
       st.lists(st.integers(-5, 5), min_size=21, max_size=21))
def test_ks_similarity_is_scipy_two_sample_ks(a, b):
    from scipy.stats import ks_2samp
    a, b = np.sort(np.array(a, float)), np.sort(np.array(b, float))
    assert up.ks_similarity(a, b) == pytest.approx(1 - ks_2samp(a, b).statistic)
    both = up.ks_similarity(np.stack([a, b]), np.stack([b, b]))
    assert both[1] == pytest.approx(1.0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.sampled_from(
           ["1", "-2.5", "1e3", ".5", "007", "abc", "1,000", "12", "-0", "3.25", "x1"])),
                          st.integers(1, 4)), max_size=12))
def test_numeric_summary_counted_is_the_summary_of_the_cells(pairs):
    """The query side tests each distinct token once, weighted by its cells: the same share,
    count and quantiles as numeric_summary over every cell (what the build computes)."""
    tokens = [t for t, _ in pairs]
    counts = [n for _, n in pairs]
    cells = [t for t, n in pairs for _ in range(n)]
    got = up.numeric_summary_counted(tokens, counts)
    want = up.numeric_summary(cells)
    assert got[0] == pytest.approx(want[0]) and got[1] == want[1]
    np.testing.assert_array_equal(got[2], want[2])


# ----------------------------------------------------------------------- a random lake

def _domains(rng):
    names = ["".join(rng.choice(list("bcdfghklmnprstvz"), 1).tolist() +
                     rng.choice(list("aeiou"), 1).tolist() +
                     rng.choice(list("bcdfghklmnprstvz"), 1).tolist() +
                     rng.choice(list("aeiou"), 1).tolist()).capitalize() for _ in range(300)]
    return {
        "city": lambda n: rng.choice(names[:150], n),
        "person": lambda n: rng.choice(names[150:], n),
        "code": lambda n: [f"{a}-{b:03d}" for a, b in zip(rng.choice(["AB", "CD", "EF"], n),
                                                          rng.integers(0, 999, n))],
        "amount": lambda n: np.round(rng.normal(1000, 150, n), 2),
        "year": lambda n: rng.integers(1950, 2021, n),
        "share": lambda n: np.round(rng.random(n), 3),
        "flag": lambda n: rng.choice(["yes", "no"], n),
    }


LAKE_SPEC = {   # table -> its columns' domains
    "sales.csv": ["city", "amount", "year", "code"],
    "people.csv": ["person", "year", "flag"],
    "scores.csv": ["share", "person", "code"],
    "towns.csv": ["city", "share", "flag"],
    "mix.csv": ["code", "amount", "person", "year", "share"],
    "other/sales_copy.csv": ["city", "amount", "year"],
}


@pytest.fixture(scope="module")
def union_lake(spark, tmp_path_factory):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    rng = np.random.default_rng(11)
    dom = _domains(rng)
    tables = {}
    for name, doms in LAKE_SPEC.items():
        n = int(rng.integers(30, 80))
        tables[name] = pd.DataFrame({f"{d}_{i}": dom[d](n) for i, d in enumerate(doms)})
    root = write_lake(tmp_path_factory.mktemp("ulake") / "lake", tables)
    out = tmp_path_factory.mktemp("uindex") / "u.index"
    build(root, out, spark=spark, progress=False,
          settings=BuildSettings(components=("-josie", "-mate", "-lshensemble", "union")))
    return open_index(out), tables, dom


def test_build_profiles_equal_the_query_side_profiles(union_lake):
    """The Spark component's arrays equal the profile functions on each table's cells."""
    engine, tables, _ = union_lake
    lp = us.lake_profiles(engine.index)
    emb = us.cached_embedder(lp.embedder)
    cols = engine.index.columns
    for name in engine.index.tables["name"]:
        frame = engine.table(name)
        prof = us.profile_frame(frame, emb, lp.sample_values)
        for q in prof:
            cid = engine.index.find_column(name, q.name)
            np.testing.assert_allclose(lp.fmt[cid], q.fmt, atol=1e-6)
            assert lp.share[cid] == pytest.approx(q.share)
            assert lp.n_num[cid] == q.n_num
            np.testing.assert_allclose(lp.quantiles[cid], q.quantiles, equal_nan=True)
            np.testing.assert_allclose(lp.vectors[cid], q.vector, atol=1e-5)
            assert lp.sizes[cid] == len(q.tokens)
    assert len(cols) == len(lp.sizes)


def brute_search(index, frame, k, weights=None, min_column=us.MIN_COLUMN):
    """Every table, every column, every matching: the ranking search() must return."""
    lp = us.lake_profiles(index)
    qcols = us.profile_frame(frame, us.cached_embedder(lp.embedder), lp.sample_values)
    weights = us.WEIGHTS if weights is None else weights
    out = []
    t = index.tables
    for tid, first, m in zip(t["table_id"], t["first_column_id"], t["n_columns"]):
        ids = np.arange(first, first + m)
        S = np.zeros((len(qcols), m))
        for i, q in enumerate(qcols):
            ov = us.overlaps(index, q.tokens)
            # |Q ∩ X| the slow way, from the lake column's own tokens
            for j, cid in enumerate(ids):
                gen, local = index.generation_of(int(cid))
                toks = set(gen.token_text(gen.arrays.set_tokens(local)))
                assert ov[cid] == len(toks & set(q.tokens))
            bg = us.evidence(q, lp, lp.background, ov)
            S[i] = us.ensemble(us.likelihoods(us.evidence(q, lp, ids, ov), bg), weights,
                               us.SHARPNESS)
        best = brute_alignment(S, min_column)
        if best > 0:
            out.append((int(tid), best / len(qcols)))
    out.sort(key=lambda x: (-x[1], x[0]))
    return out[:k]


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**31 - 1))
@example(95780)   # float32 cosines of a matrix and a vector product rounded apart: ties broke
@example(410)
@example(784)
def test_search_equals_brute_force_on_random_queries(union_lake, seed):
    engine, tables, _ = union_lake
    rng = np.random.default_rng(seed)
    name = sorted(tables)[int(rng.integers(len(tables)))]
    src = tables[name]
    cols = list(rng.permutation(src.columns)[: int(rng.integers(1, src.shape[1] + 1))])
    q = src.sample(frac=float(rng.uniform(0.3, 1.0)), random_state=seed % 1000)[cols]
    q.columns = [f"c{i}" for i in range(len(cols))]
    found, _ = us.search(engine.index, q, k=10, neighbours=10**6, max_tables=10**6)
    expect = brute_search(engine.index, q, 10)
    assert [(c.table_id, round(c.score, 9)) for c in found] == \
        [(t, round(s, 9)) for t, s in expect]


def test_search_ranks_the_source_table_first(union_lake):
    """A sample of a table with renamed columns finds that table first, aligned right."""
    engine, tables, _ = union_lake
    for name in ("sales.csv", "mix.csv", "people.csv"):
        src = tables[name]
        q = src.sample(frac=0.5, random_state=1)
        q.columns = [f"x{i}" for i in range(q.shape[1])]
        truth = dict(zip(q.columns, src.columns))
        # on a 21-column lake a likelihood moves in steps of 1/21: the default sharpness
        # (tuned on a 9,651-column lake) leaves columns whose domain three tables share
        # unaligned, so the ranking is checked unsharpened
        res = engine.search_unionable(q, k=3, sharpness=1.0)
        assert res[0].table == name.removesuffix(".csv")
        assert res[0].mapping == truth
        assert res[0].rows == len(src)
        for hit in engine.search_unionable(q, k=3):      # default: no wrong pair
            if hit.table == name.removesuffix(".csv"):
                assert hit.mapping.items() <= truth.items()


def test_baseline_weights_and_errors(union_lake):
    engine, tables, _ = union_lake
    q = tables["sales.csv"].head(20)
    res = engine.search_unionable(q, k=3, weights={"header": 1.0})
    assert res[0].table == "sales"          # identical headers
    with pytest.raises(Exception, match="Unknown union evidence"):
        engine.search_unionable(q, weights={"colour": 1.0})
    with pytest.raises(Exception, match="k must be"):
        engine.search_unionable(q, k=0)


# ----------------------------------------------------------------------- the union plan

def _hostile_query(tables):
    src = tables["mix.csv"]
    q = src.sample(frac=0.4, random_state=2).reset_index(drop=True)
    q.columns = ["code 'x'", "amount\n(€)", "who\"", "year", "source_table"]
    q["year"] = q["year"].astype("int64")
    q["when"] = pd.to_datetime("2020-01-01") + pd.to_timedelta(np.arange(len(q)), unit="D")
    return q


def test_union_code_reproduces_the_frame_pandas(union_lake):
    engine, tables, _ = union_lake
    q = _hostile_query(tables)
    res = engine.search_unionable(q, k=5)
    assert res[0].table == "mix"
    for hit in res:
        u = hit.union(q)
        ns = {"q": q.copy()}
        exec(hit.code("q", "u"), ns)
        pd.testing.assert_frame_equal(ns["u"], u)
        assert set(ns) <= {"q", "u", "pd", "__builtins__", "lakejoin_jupyter"} | \
            {k for k in ns if k.startswith("lake_")}
    hit = res[0]
    u = hit.union(q)
    lake = engine.table("mix")
    assert len(u) == len(q) + len(lake)
    assert list(u.columns) == list(q.columns) + ["source_table_2"]
    assert (u["source_table_2"].iloc[len(q):] == "mix").all()
    # aligned values, converted to the query's types
    for a, b, _ in hit.alignment:
        got = u[a].iloc[len(q):].reset_index(drop=True)
        if a == "year":
            assert (got == pd.to_numeric(lake[b])).all()
        elif a == "amount\n(€)":
            np.testing.assert_allclose(got.astype(float), pd.to_numeric(lake[b]))
    with pytest.raises(Exception, match="not a valid Python"):
        hit.code("q", "not valid")


def test_union_code_reproduces_the_frame_spark(union_lake, spark):
    engine, tables, _ = union_lake
    q = _hostile_query(tables).drop(columns=["when"])
    sq = spark.createDataFrame(q)
    res = engine.search_unionable(sq, k=2)
    hit = res[0]
    assert hit.table == "mix"
    u = hit.union(sq)
    ns = {"sq": sq}
    code = hit.code("sq", "u")
    assert "unionByName" in code
    exec(code, ns)
    key = list(u.columns)
    a = u.toPandas().sort_values(key, na_position="first").reset_index(drop=True)
    b = ns["u"].toPandas().sort_values(key, na_position="first").reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == len(q) + len(engine.table("mix"))
    assert dict(ns["u"].dtypes)["year"] == "bigint"


# ----------------------------------------------------------------------- front ends

def test_union_magic_and_action(union_lake):
    from IPython.core.interactiveshell import InteractiveShell

    from lakejoin_jupyter import actions
    from lakejoin_jupyter.magics import MagicError
    from lakejoin_jupyter.ui.session import SESSION
    engine, tables, _ = union_lake
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "lakejoin_jupyter")
    saved = SESSION.engine
    SESSION.engine = engine
    try:
        q = tables["sales.csv"].sample(frac=0.5, random_state=3).reset_index(drop=True)
        q.columns = ["a", "b", "c", "d"]
        shell.user_ns["uq"] = q
        res = shell.run_line_magic("lakejoin", "union uq -k 3 --save uhits --union 1 --into uu")
        assert res[0].table == "sales" and shell.user_ns["uhits"] is res
        pd.testing.assert_frame_equal(shell.user_ns["uu"], res[0].union(q))
        with pytest.raises(MagicError, match="pick 1"):
            shell.run_line_magic("lakejoin", "union uq -k 3 --union 9")
        with pytest.raises(MagicError, match="go with --union"):
            shell.run_line_magic("lakejoin", "union uq --insert")
        act = actions.UNION_ACTIONS[0]
        out = act(engine, res[0], q)
        pd.testing.assert_frame_equal(out.joined, res[0].union(q))
        ns = {"uq": q}
        exec(out.code("uq", "stacked"), ns)
        pd.testing.assert_frame_equal(ns["stacked"], out.joined)
    finally:
        SESSION.engine = saved
