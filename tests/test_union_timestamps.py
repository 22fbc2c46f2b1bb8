"""Table union search of date-time columns: ISO-8601 date-time text is one format however it
is written (a space or "T", seconds, an offset; index/union_profile.format_histogram), so a
datetime64 query aligns with every way a lake writes its instants, as the join search
matches them; a stacked date-time column is naive datetime64 holding UTC wall-clock times
(an offset converted), in hit.union and in the code it writes."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from conftest import lake_engine

TS = pd.date_range("2026-03-29 10:00", periods=50, freq="37min")


def test_iso_datetime_texts_share_one_format():
    """Space, "T", no seconds, "Z" and "+02:00": one format histogram, the query's own
    (a datetime64 rendered); plain text keeps its own; version 1 (an older index) as built."""
    from lakejoin_jupyter.index import union_profile as up
    from lakejoin_jupyter.search.union import profile_column
    forms = {"space": TS.strftime("%Y-%m-%d %H:%M:%S"), "T": TS.strftime("%Y-%m-%dT%H:%M:%S"),
             "minutes": TS.strftime("%Y-%m-%d %H:%M"), "Z": TS.strftime("%Y-%m-%dT%H:%M:%SZ"),
             "offset": (TS + pd.Timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S+02:00")}
    query = profile_column(pd.Series(TS, name="t"), 50)[0].fmt
    for name, texts in forms.items():
        np.testing.assert_array_equal(up.format_histogram(list(texts)), query, err_msg=name)
    assert not np.array_equal(up.format_histogram(list(forms["space"]), version=1),
                              up.format_histogram(list(forms["T"]), version=1))
    np.testing.assert_array_equal(up.format_histogram(["Ann Arbor", "2026-03-29 meeting"]),
                                  up.format_histogram(["Ann Arbor", "2026-03-29 meeting"],
                                                      version=1))


@pytest.fixture(scope="module")
def stamp_index(spark, tmp_path_factory):
    """Five tables of the same 50 instants, as text written five ways, and two unrelated."""
    rng = np.random.default_rng(3)
    tables = {
        "ev/zulu.csv": pd.DataFrame({"when": TS.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                     "value": range(50)}),
        "ev/pandas.csv": pd.DataFrame({"stamp": TS, "flag": rng.choice(["a", "b"], 50)}),
        "ev/minutes.csv": pd.DataFrame({"at_min": TS.strftime("%Y-%m-%d %H:%M"),
                                        "k": rng.integers(0, 9, 50)}),
        "ev/offset.csv": pd.DataFrame({
            "at": (TS + pd.Timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S+02:00"),
            "v": rng.integers(0, 9, 50)}),
        "ev/js.jsonl": pd.DataFrame({"ts": TS.strftime("%Y-%m-%dT%H:%M:%S.000"),
                                     "x": rng.integers(0, 9, 50)}),
        "geo/cities.csv": pd.DataFrame({"city": [f"town{i}" for i in range(60)],
                                        "pop": rng.integers(100, 9999, 60)}),
        "misc/codes.csv": pd.DataFrame({"code": [f"C{i:04d}" for i in range(80)]}),
    }
    engine = lake_engine(spark, tmp_path_factory, "tslake", tables, components=("union",))
    return engine


STAMP_TABLES = {"ev/zulu", "ev/pandas", "ev/minutes", "ev/offset", "ev/js"}


@pytest.mark.spark
def test_a_datetime_query_aligns_with_every_iso_writing(stamp_index):
    """The datetime64 query and its to_csv text both align `t` with the five tables, at one
    score (the text was: only the tables written as it is)."""
    for q in (pd.DataFrame({"t": TS[:10]}),
              pd.DataFrame({"t": TS[:10].strftime("%Y-%m-%d %H:%M:%S")})):
        res = stamp_index.search_unionable(q, k=10)
        aligned = {h.table: h.score for h in res if "t" in h.mapping}
        assert set(aligned) >= STAMP_TABLES, aligned
        scores = [aligned[t] for t in STAMP_TABLES]
        assert max(scores) - min(scores) < 1e-9, aligned


@pytest.mark.spark
def test_a_stacked_datetime_column_is_naive_utc(stamp_index):
    """Under a naive datetime64 query, "Z" and "+02:00" text stack as datetime64 holding the
    UTC wall-clock time (the instant the join matches), sortable; hit.code gives the same."""
    q = pd.DataFrame({"t": TS[:10]})
    res = stamp_index.search_unionable(q, k=10)
    for table in ("ev/zulu", "ev/offset", "ev/js"):
        hit = next(h for h in res if h.table == table)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            u = hit.union(q)
        assert pd.api.types.is_datetime64_dtype(u["t"].dtype), (table, u["t"].dtype)
        assert u["t"].dt.tz is None
        assert len(u) == 50 and u["t"].iloc[10] == pd.Timestamp("2026-03-29 16:10"), table
        assert list(u.sort_values("t")["t"]) == list(TS)
        ns = {"df": q.copy()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(hit.code("df", "u"), ns)
        pd.testing.assert_frame_equal(ns["u"], u)


@pytest.mark.spark
def test_the_spark_union_of_offset_timestamps_equals_the_pandas_union(stamp_index, spark):
    """The Spark path (a Spark query frame: the lake text cast to the query column's
    timestamp type) stacks "Z", "+02:00" and zone-less text as the same instants as
    hit.union of the pandas frame (UTC wall-clock), the rows in the same order; and its
    PySpark code gives the same frame."""
    q = pd.DataFrame({"t": TS[:10], "n": range(10)})
    sq = spark.createDataFrame(q)
    res = stamp_index.search_unionable(q, k=10)
    for table in ("ev/zulu", "ev/offset", "ev/js"):
        hit = next(h for h in res if h.table == table)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = hit.union(q)
            got = hit.union(sq).toPandas()
            ns = {"df": sq}
            exec(hit.code("df", "u", df=sq), ns)
            coded = ns["u"].toPandas()
        for frame in (got, coded):
            frame = frame.sort_values(["t", "n"], na_position="last").reset_index(drop=True)
            assert pd.api.types.is_datetime64_dtype(frame["t"].dtype), (table, frame["t"].dtype)
            expect = want.sort_values(["t", "n"], na_position="last").reset_index(drop=True)
            assert list(frame["t"]) == list(expect["t"]), table
            # n (0..9) is unaligned: a column holding every integer 0..49 holds any of them by
            # chance (test_union_chance_containment.py), so it is null in the added rows
            assert [None if pd.isna(v) else int(v) for v in frame["n"]] == \
                [None if pd.isna(v) else int(v) for v in expect["n"]], table
            assert len(frame) > 10 and sorted(frame["t"]) == sorted(want["t"]), table
