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


def _rows(df: pd.DataFrame) -> list:
    return sorted((tuple(None if pd.isna(v) else str(v) for v in r)
                   for r in df.itertuples(index=False)), key=repr)


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
    pd.testing.assert_frame_equal(out.joined, fj.join(frame))
    # not the slider's start value: threshold 0 matches fewer (only identical texts)
    at_zero = get("fuzzy_join")(demo_engine, hit, frame, threshold=0.0)
    assert at_zero.joined["CLDR display name"].notna().sum() < \
        out.joined["CLDR display name"].notna().sum()


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
