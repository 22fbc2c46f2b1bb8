"""A JSON-lines column pandas reads as dates (``pd.read_json(lines=True)``'s default: a
column named ``date``, ``..._at``, ``timestamp...`` holding epoch numbers, as
``df.to_json(orient="records", lines=True)`` writes datetimes) is read so by the index too
(lake/read.py, normalization version 5): its tokens are pandas' timestamps', so a frame of
the file finds its own table and a date query finds it. Checked against pandas itself."""
from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.lake.normalize import normalize_many
from lakejoin_jupyter.lake.read import inspect, read_table

NAMES = ["date", "Date", "created_at", "end_time", "timestamp_utc", "modified", "datetime",
         "n", "day"]


def _tokens_of_index(path) -> dict:
    """Each column's tokens as the index reads the file (the build's sniffing pass, then
    the reader a join uses)."""
    df = read_table(inspect(0, str(path), "jsonl"))
    return {c: normalize_many(df[c].tolist()) for c in df.columns}


def _tokens_of_pandas(path) -> dict:
    df = pd.read_json(path, lines=True)
    return {c: normalize_many(df[c].tolist()) for c in df.columns}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(NAMES),
       st.lists(st.one_of(st.none(), st.integers(0, 4_000_000_000_000),
                          st.floats(1e8, 4e12, allow_nan=False)), min_size=1, max_size=12),
       st.sampled_from(["s", "ms", "us", "none"]))
def test_a_number_column_reads_as_pandas_reads_it(tmp_path_factory, name, values, unit):
    """Whatever the name and the numbers (epoch seconds, milliseconds, microseconds, small
    numbers pandas leaves alone, floats, nulls), the index's tokens are those of the column
    pd.read_json gives."""
    scale = {"s": 1, "ms": 1000, "us": 1_000_000, "none": 1}[unit]
    cells = [None if v is None else (v * scale if isinstance(v, int) and unit != "none"
                                     else v) for v in values]
    if all(v is None for v in cells):
        return
    path = tmp_path_factory.mktemp("jl") / "t.jsonl"
    path.write_text("".join(json.dumps({name: v, "k": i}) + "\n" for i, v in enumerate(cells)))
    try:
        want = _tokens_of_pandas(path)
    except (ValueError, OverflowError):
        return                          # pandas cannot read the file: nothing to agree with
    assert _tokens_of_index(path)[name] == want[name]


def test_to_json_default_dates_are_read_as_dates(tmp_path):
    """vega's ohlc written by pandas' default to_json: `date` as epoch milliseconds."""
    frame = pd.DataFrame({"date": pd.to_datetime(["2009-06-01 00:00", "2009-06-02 00:00", None,
                                                  "2009-06-03 12:30"]),
                          "open": [28.7, 30.04, 29.62, 31.02], "year": [2009] * 4})
    path = tmp_path / "ohlc.jsonl"
    frame.to_json(path, orient="records", lines=True)
    assert '"date":1243814400000' in path.read_text()
    got = _tokens_of_index(path)
    assert got["date"] == ["2009-06-01", "2009-06-02", None, "2009-06-03t12:30:00"]
    assert got["year"] == ["2009"] * 4 and got["open"][0] == "28.7"
    assert got == _tokens_of_pandas(path)


@pytest.fixture(scope="module")
def epoch_lake(spark, tmp_path_factory):
    from conftest import write_lake
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    root = tmp_path_factory.mktemp("epoch")
    days = pd.date_range("2009-06-01", periods=40)
    ohlc = pd.DataFrame({"date": days, "open": np.arange(40) + 0.5})
    lake = write_lake(root / "lake", {
        "econ/employment.csv": pd.DataFrame({"month": [d.date().isoformat() for d in days[::7]],
                                             "jobs": range(6)})})
    (lake / "finance").mkdir()
    ohlc.to_json(lake / "finance" / "ohlc.jsonl", orient="records", lines=True)
    build(lake, root / "e.index", spark=spark, progress=False)
    return open_index(root / "e.index"), lake


@pytest.mark.spark
def test_the_users_case_the_table_finds_itself_and_a_date_query_finds_it(epoch_lake):
    engine, lake = epoch_lake
    frame = pd.read_json(lake / "finance" / "ohlc.jsonl", lines=True)
    assert str(frame["date"].dtype).startswith("datetime64")
    own = {h.table: h for h in engine.search(frame, "date", k=5, include_own=True)}
    assert own["finance/ohlc"].overlap == 40 and own["finance/ohlc"].is_query_table
    assert own["econ/employment"].overlap == 6
    named = engine.search("finance/ohlc", "date", k=5)         # the lake column as the query
    assert [h.table for h in named] == ["econ/employment"] and named[0].overlap == 6
    q = pd.DataFrame({"day": pd.to_datetime(["2009-06-01", "2009-06-02", "2001-01-01"])})
    hits = {h.table: h for h in engine.search(q, "day", k=5)}
    assert hits["finance/ohlc"].overlap == 2
    joined = hits["finance/ohlc"].join(q)
    assert joined["open"].tolist()[:2] == ["0.5", "1.5"] and pd.isna(joined["open"].iloc[2])


@pytest.mark.spark
def test_a_spark_join_and_its_code_read_the_epoch_dates_as_the_index(epoch_lake, spark):
    """A Spark query joins the table on the same days as the pandas join, through
    lakejoin's Spark reader and through the PySpark code written for it."""
    engine, _ = epoch_lake
    q = pd.DataFrame({"day": pd.to_datetime(["2009-06-01", "2009-06-02", "2001-01-01"])})
    hit = next(h for h in engine.search(q, "day", k=5) if h.table == "finance/ohlc")
    sdf = spark.createDataFrame(q)
    want = sorted(hit.join(q)["open"].dropna().astype(float))
    assert want == [0.5, 1.5]
    got = hit.join(sdf).toPandas()
    assert sorted(got["open"].dropna().astype(float)) == want
    code = hit.code("sdf", "out", df=sdf)
    assert "timestamp_millis" in code
    ns = {"sdf": sdf}
    exec(code, ns)  # noqa: S102
    assert sorted(ns["out"].toPandas()["open"].dropna().astype(float)) == want
