"""The join contract: every action and every result type joins through one plan, and its
``code(name, into)`` run in a fresh namespace holding only the user's frame binds a frame
equal to what ``join(df)`` returned (pandas, and PySpark for a Spark query frame); names that
are not identifiers are refused before any code exists."""
import os

import pandas as pd
import pytest

from lakejoin_jupyter.actions import ACTIONS, get
from lakejoin_jupyter.errors import QueryError

STATES = ["Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut",
          "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa"]


def fifa_frame():
    from lakejoin_jupyter.demo import demo_query
    return demo_query()


def states_frame():
    """State names written "NAME (US)": equality finds bad-drivers.State only for none of
    them, a transformation joins them all."""
    return pd.DataFrame({"state": STATES[:3] + [f"{s} (US)" for s in STATES[3:]],
                         "n": range(len(STATES))})


def hit_for(engine, frame, column, table, hit_column):
    res = engine.search(frame, column, k=None)
    return next(h for h in res if h.table == table and h.column == hit_column)


CASES = {   # action -> (frame, query column, lake table, lake column, action params)
    "join": (fifa_frame, "country", "reference/country-codes", "CLDR display name", {}),
    "autojoin": (states_frame, "state", "fivethirtyeight/bad-drivers/bad-drivers", "State", {}),
    "fuzzy_join": (fifa_frame, "country", "reference/country-codes", "CLDR display name", {}),
    "predicate": (fifa_frame, "country", "fivethirtyeight/elo-blatter/elo_blatter", "country",
                  {"time_limit": 20.0}),
}


def test_every_action_has_a_contract_case():
    assert {a.name for a in ACTIONS} == set(CASES)


def run_fresh(code: str, name: str, frame) -> dict:
    ns = {name: frame}
    exec(compile(code, "<inserted cell>", "exec"), ns)   # noqa: S102 - the code under test
    return ns


@pytest.mark.spark
@pytest.mark.parametrize("action", sorted(CASES))
def test_action_code_reproduces_its_join_in_a_fresh_namespace(demo_engine, action):
    make, col, table, hit_col, params = CASES[action]
    frame = make()
    hit = hit_for(demo_engine, frame, col, table, hit_col)
    out = get(action)(demo_engine, hit, frame, frame_name="user_frame", **params)
    assert out.ok, out.summary
    if action == "autojoin":     # summaries and tables name the user's frame, not "df"
        assert out.result.left_name == "user_frame"
    code = out.code("user_frame", "user_frame_out")
    assert "engine" not in code.replace("lakejoin_jupyter", "")     # no session names
    ns = run_fresh(code, "user_frame", frame)
    pd.testing.assert_frame_equal(ns["user_frame_out"], out.joined)
    pd.testing.assert_frame_equal(out.result.join(frame, **out.code_options), out.joined)


def _rows(df: pd.DataFrame, digits: int | None = None) -> list:
    def cell(v):
        if pd.isna(v):
            return None
        if digits is not None and isinstance(v, float):
            return f"{v:.{digits}g}"
        return str(v)
    return sorted((tuple(cell(v) for v in r) for r in df.itertuples(index=False)), key=repr)


@pytest.mark.spark
@pytest.mark.parametrize("action", sorted(CASES))
def test_action_on_a_spark_frame_writes_pyspark_that_reproduces_it(demo_engine, spark, action):
    make, col, table, hit_col, params = CASES[action]
    pdf = make()
    sdf = spark.createDataFrame(pdf)
    hit = hit_for(demo_engine, sdf, col, table, hit_col)
    out = get(action)(demo_engine, hit, sdf, **params)
    assert out.ok, out.summary
    code = out.code("sdf", "joined_sdf")
    assert "spark" in code and "pd.read_csv" not in code
    ns = run_fresh(code, "sdf", sdf)
    want = out.joined.toPandas()
    assert list(ns["joined_sdf"].columns) == list(want.columns)
    assert _rows(ns["joined_sdf"].toPandas()) == _rows(want)
    if action == "join":      # the Spark join equals the pandas join of the same hit
        assert _rows(want) == _rows(hit.join(pdf))


@pytest.mark.spark
def test_fuzzy_action_joins_at_the_threshold_it_chose(demo_engine):
    frame = fifa_frame()
    hit = hit_for(demo_engine, frame, "country", "reference/country-codes", "CLDR display name")
    out = get("fuzzy_join")(demo_engine, hit, frame)
    fj = out.result
    t = out.chosen["threshold"]
    assert t is not None and t > 0 and out.details["threshold"] == t
    assert f"{t:.3f}" in out.summary
    # the estimate with its pairs and the bound the choice compared with the target
    assert (f"{fj.precision_text(fj.estimated_precision)}** (the model's lower bound "
            f"{fj.bound():.1%}, one-sided 95%)") in out.summary
    pd.testing.assert_frame_equal(out.joined, fj.join(frame))
    # the matched values: every pair, those whose values differ after the normalization (the
    # ones to check) first, then those equal after it, then the identical ones
    from lakejoin_jupyter.lake.normalize import normalize_value
    caption, shown = next((c, df) for c, df in out.tables.items() if c.startswith("matched values"))
    m = fj.matches()
    differ = [(r, l) for r, l in zip(m["right"], m["left"])
              if normalize_value(r) != normalize_value(l)]
    same = sum(r == l for r, l in zip(m["right"], m["left"]))
    assert differ and f"{len(m):,} pairs: {len(differ):,} differ in spelling" in caption
    pairs = list(zip(shown["country (query)"], shown["CLDR display name (lake)"]))
    assert sorted(pairs) == sorted(zip(m["right"], m["left"]))
    assert sorted(pairs[:len(differ)]) == sorted(differ)
    assert list(shown["equal"]) == (["no"] * len(differ) + ["normalized"] *
                                    (len(m) - len(differ) - same) + ["yes"] * same)
    # not the slider's start value: threshold 0 matches fewer (only identical texts)
    at_zero = get("fuzzy_join")(demo_engine, hit, frame, threshold=0.0)
    assert f"(the model's lower bound {max(fj.bound(0.0), 0):.1%}, one-sided 95%)" in at_zero.summary
    assert at_zero.joined["CLDR display name"].notna().sum() < \
        out.joined["CLDR display name"].notna().sum()


@pytest.mark.spark
@pytest.mark.parametrize("call", ["fuzzy_join", "autojoin", "best_predicate"])
def test_api_results_code_runs_as_written_with_df_bound(demo_engine, call):
    """Results made from the API (not an action): ``code()`` without arguments reads the
    query frame as ``df``, the name every result's code uses, so the cell runs as written."""
    frame = fifa_frame() if call != "autojoin" else states_frame()
    e = demo_engine
    res = {"fuzzy_join": lambda: e.fuzzy_join("reference/country-codes", frame,
                                              on=("CLDR display name", "country")),
           "autojoin": lambda: e.autojoin(frame, "state",
                                          "fivethirtyeight/bad-drivers/bad-drivers", "State"),
           "best_predicate": lambda: e.best_predicate(
               frame, "fivethirtyeight/elo-blatter/elo_blatter", time_limit=20.0,
               seed_pair=[("country", "country")])}[call]()
    ns = run_fresh(res.code(), "df", frame)
    pd.testing.assert_frame_equal(ns["joined"].reset_index(drop=True),
                                  res.join(frame).reset_index(drop=True))


@pytest.mark.spark
def test_find_transformation_counts_the_querys_keys_for_pandas_and_spark(demo_engine, spark):
    """The summary's "joins K of the D distinct keys" counts the query column's keys for a
    pandas and a Spark query alike (oracle: pandas over the frame and the pairs joined)."""
    make, col, table, hit_col, params = CASES["autojoin"]
    frame = make()
    said = []
    for query in (frame, spark.createDataFrame(frame)):
        hit = hit_for(demo_engine, query, col, table, hit_col)
        out = get("autojoin")(demo_engine, hit, query, **params)
        assert out.ok, out.summary
        rows = {i for i, _ in out.result.pairs(True)}
        joined = frame.loc[sorted(rows), col].nunique()
        said.append(f"joins **{joined}** of the {frame[col].nunique()} distinct keys of `{col}`")
        assert said[-1] in out.summary, out.summary
    assert said[0] == said[1]


# The aggregated join (a panel table reduced to one row per key first): GDP is country x year.
AGGREGATED = [("latest", None), ("latest", "Year"), ("first", None), ("mean", None),
              ("sum", None), ("count", None)]


def gdp_hit(engine, frame):
    return hit_for(engine, frame, "country", "reference/gdp", "Country Name")


@pytest.mark.spark
@pytest.mark.parametrize("aggregate, order_by", AGGREGATED)
def test_aggregated_join_code_reproduces_it_in_a_fresh_namespace(demo_engine, aggregate,
                                                                 order_by):
    frame = fifa_frame()
    hit = gdp_hit(demo_engine, frame)
    assert hit.key_ratio > 1                          # a panel table: the action offers it
    assert "aggregate" in [p.name for p in get("join").params_for(hit)]
    out = get("join")(demo_engine, hit, frame, aggregate=aggregate, order_by=order_by)
    assert out.ok, out.summary
    assert len(out.joined) == len(frame)              # one row per query row
    assert "one row per key" in out.summary and "no column" not in out.summary
    # the count column against pandas: the table's rows per normalized key, 0 without one
    from collections import Counter

    from lakejoin_jupyter.lake.normalize import normalize_many
    count = out.result.plan(frame, **out.code_options).aggregate.count_column
    per_key = Counter(normalize_many(demo_engine.table("reference/gdp")["Country Name"].tolist()))
    want = [per_key.get(k, 0) if k is not None else 0
            for k in normalize_many(frame["country"].tolist())]
    assert 0 in want and out.joined[count].dtype == "int64"
    assert out.joined[count].tolist() == want
    ns = run_fresh(out.code("user_frame", "user_frame_out"), "user_frame", frame)
    pd.testing.assert_frame_equal(ns["user_frame_out"], out.joined)
    pd.testing.assert_frame_equal(out.result.join(frame, **out.code_options), out.joined)


@pytest.mark.spark
@pytest.mark.parametrize("aggregate", ["latest", "mean", "count"])
def test_aggregated_join_on_a_spark_frame_writes_pyspark_that_reproduces_it(demo_engine, spark,
                                                                             aggregate):
    pdf = fifa_frame()
    sdf = spark.createDataFrame(pdf)
    hit = gdp_hit(demo_engine, sdf)
    out = get("join")(demo_engine, hit, sdf, aggregate=aggregate)
    assert out.ok, out.summary
    ns = run_fresh(out.code("sdf", "joined_sdf"), "sdf", sdf)
    want = out.joined.toPandas()
    assert list(ns["joined_sdf"].columns) == list(want.columns)
    assert _rows(ns["joined_sdf"].toPandas()) == _rows(want)
    # Spark sums in another order than pandas: the means agree to 12 significant digits
    assert _rows(want, 12) == _rows(gdp_hit(demo_engine, pdf).join(pdf, aggregate=aggregate), 12)


HOSTILE = "__import__('os').system('touch X') or df"


@pytest.mark.spark
@pytest.mark.parametrize("action", sorted(CASES))
def test_hostile_names_are_refused_before_any_code(demo_engine, action, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make, col, table, hit_col, params = CASES[action]
    frame = make()
    hit = hit_for(demo_engine, frame, col, table, hit_col)
    out = get(action)(demo_engine, hit, frame, **params)
    for kw in ({"name": HOSTILE}, {"into": HOSTILE}, {"name": "class"}, {"into": "1x"}):
        with pytest.raises(QueryError, match="not a valid Python variable name"):
            out.result.code(**kw, **out.code_options)
    assert not os.path.exists(tmp_path / "X")


def test_identifier_check():
    from lakejoin_jupyter.frames import check_identifier
    for good in ("df", "données", "_x2"):
        assert check_identifier(good) == good
    for bad in (HOSTILE, "a b", "def", "", "x;y", None, 3):
        with pytest.raises(QueryError):
            check_identifier(bad)
