""""Per key: latest" reads a column's dates one way for the whole column (join/keys.py)."""
import datetime as dt

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.join.execute import aggregate_pandas
from lakejoin_jupyter.join.keys import date_reading, order_keys
from lakejoin_jupyter.join.plan import Aggregate
from lakejoin_jupyter.lake.normalize import normalize_many


def test_the_reported_column_reads_day_first_and_a_bare_year_is_a_date():
    s = pd.Series(["02/03/2020", "10/01/2020", "15/02/2021", "2021"])
    r = date_reading(s, "visit")
    assert (r.dayfirst, r.years, r.note) == (True, True, "")
    keys = order_keys(s, r.dayfirst, r.years)
    when = pd.to_datetime(keys, unit="s").dt.strftime("%Y-%m-%d").tolist()
    assert when == ["2020-03-02", "2020-01-10", "2021-02-15", "2021-01-01"]
    assert order_keys(s).tolist() == keys.tolist()          # the whole column decides alike
    # a batch without the deciding value reads as the whole column said
    assert order_keys(s[:2], r.dayfirst, r.years).tolist() == keys[:2].tolist()


def test_ambiguous_and_contradictory_columns_say_so():
    r = date_reading(pd.Series(["02/03/2020", "10/01/2020", None]), "visit")
    assert not r.dayfirst and "'02/03/2020'" in r.note
    assert "day-first or month-first" in r.note and "'visit'" in r.note
    r = date_reading(pd.Series(["02/13/2020", "15/01/2020", "20/01/2020"]))
    assert r.dayfirst and "mixes" in r.note
    assert pd.isna(order_keys(pd.Series(["02/13/2020"]), r.dayfirst, r.years)[0])
    assert date_reading(pd.Series(["01/01/2020", "2020-05-03"])).note == ""   # reads one way
    # numbers alone stay numbers (sequence numbers, years)
    assert order_keys(pd.Series(["3", "20000", "2021"])).tolist() == [3.0, 20000.0, 2021.0]
    agg = Aggregate("latest", order_by="d", dayfirst=False, years=True, note=r.note)
    assert "ambiguous" in agg.describe("t") and agg.reading == ", dayfirst=False, years=True"


@st.composite
def date_columns(draw):
    """Rows (key, written date, true date) of one column written in one day-month order,
    with bare years, ISO dates and nulls among them."""
    dayfirst = draw(st.booleans())
    sep = draw(st.sampled_from("/.-"))
    n = draw(st.integers(1, 14))
    rows = []
    for _ in range(n):
        key = draw(st.sampled_from("abc"))
        kind = draw(st.sampled_from(["dm", "dm", "dm", "year", "iso", "null"]))
        day = draw(st.dates(dt.date(1950, 1, 1), dt.date(2040, 12, 31)))
        if kind == "dm":
            a, b = (day.day, day.month) if dayfirst else (day.month, day.day)
            text = f"{a:02d}{sep}{b:02d}{sep}{day.year}"
        elif kind == "year":
            text = str(day.year)
        elif kind == "iso":
            text = day.isoformat()
        else:
            text = None
        rows.append((key, text, kind, day))
    return dayfirst, rows


def oracle_latest(dayfirst: bool, rows: list) -> dict:
    """By hand: the column reads day-first when written so and some day is above 12; a
    column of dd/mm dates that all read either way is read month-first; a bare year is
    1 January of it when the column has dates written as text. key -> index of its latest
    row (ties and rows without a date: the first in table order)."""
    dms = [d for _, _, k, d in rows if k == "dm"]
    read_dayfirst = dayfirst and any(d.day > 12 for d in dms)
    has_text_dates = any(k in ("dm", "iso") for _, _, k, _ in rows)

    def when(text, kind):
        if kind == "null":
            return None
        if kind == "year":
            return dt.datetime(int(text), 1, 1) if has_text_dates else int(text)
        if kind == "iso":
            return dt.datetime.fromisoformat(text)
        a, b, y = text.replace(".", "/").replace("-", "/").split("/")
        day, month = (a, b) if read_dayfirst else (b, a)
        try:
            return dt.datetime(int(y), int(month), int(day))
        except ValueError:        # read month-first, the day is above 12: no date
            return None

    best = {}
    for i, (key, text, kind, _) in enumerate(rows):
        w = when(text, kind)
        if key not in best:
            best[key] = (i, w)
        elif w is not None and (best[key][1] is None or w > best[key][1]):
            best[key] = (i, w)
    return {k: i for k, (i, _) in best.items()}


@settings(max_examples=200, deadline=None)
@given(date_columns())
def test_latest_equals_a_hand_oracle_on_random_columns(column):
    dayfirst, rows = column
    frame = pd.DataFrame({"__k": [r[0] for r in rows], "d": [r[1] for r in rows],
                          "row": range(len(rows))})
    # decided as the engine decides it: over the column's normalized distinct values
    r = date_reading(pd.Series(normalize_many(frame["d"].tolist()), dtype=object), "d")
    agg = Aggregate("latest", order_by="d", dayfirst=r.dayfirst, years=r.years)
    got = aggregate_pandas(frame, ["__k"], agg)
    assert dict(zip(got["__k"], got["row"])) == oracle_latest(dayfirst, rows)
    # the reading the whole column gives is the one a half of it is read with
    half = frame.iloc[: len(frame) // 2]
    pd.testing.assert_series_equal(order_keys(half["d"], r.dayfirst, r.years),
                                   order_keys(frame["d"], r.dayfirst, r.years)[: len(half)])


@pytest.mark.spark
def test_latest_reads_the_column_alike_in_pandas_spark_and_both_codes(spark, tmp_path):
    """The reported table: dd/mm/yyyy dates (15/02/2021 decides day-first) and a bare year
    in one column; a second table whose dates read either way is ordered month-first and
    the summary says it is ambiguous. The pandas join, the Spark join and the code each
    writes take the same rows."""
    from conftest import write_lake
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.actions import get
    from lakejoin_jupyter.indexing.pipeline import build
    visits = pd.DataFrame({
        "who": ["ann@x.org", "ann@x.org", "bob@x.org", "bob@x.org", "carl@x.org",
                "carl@x.org", "dora@x.org", "dora@x.org"],
        "visit": ["02/03/2020", "10/01/2020", "2019-12-31", "05/06/2019", "2021",
                  "15/02/2021", None, "01/01/2000"],
        "note": ["2 March", "10 January", "iso", "older", "year", "15 February", "null",
                 "only"]})
    seen = pd.DataFrame({"user": ["ann@x.org", "ann@x.org", "bob@x.org", "bob@x.org"],
                         "seen": ["02/03/2020", "04/01/2020", "2019", "01/02/2019"],
                         "what": ["Feb 3 or 2 Mar", "Apr 1 or 4 Jan", "2019", "Jan 2 or 1 Feb"]})
    root = write_lake(tmp_path / "lake", {"events/visits.csv": visits,
                                          "events/seen.csv": seen})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    q = pd.DataFrame({"who": ["ann@x.org", "bob@x.org", "carl@x.org", "dora@x.org"]})
    hits = {h.table: h for h in engine.search(q, "who", k=None)}
    want = {"events/visits": ("note", ["2 March", "iso", "15 February", "only"]),
            "events/seen": ("what", ["Apr 1 or 4 Jan", "Jan 2 or 1 Feb", None, None])}
    for table, (col, rows) in want.items():
        hit = hits[table]
        out = get("join")(engine, hit, q, aggregate="latest")
        assert out.joined[col].tolist() == rows
        assert ("ambiguous" in out.summary) == (table == "events/seen"), out.summary
        assert ("dates read day-first" in out.summary) == (table == "events/visits"), out.summary
        ns = {"df": q}
        exec(compile(hit.code(aggregate="latest"), "<cell>", "exec"), ns)  # noqa: S102
        pd.testing.assert_frame_equal(ns["joined"], out.joined)
        sdf = spark.createDataFrame(q)
        joined = hit.join(sdf, aggregate="latest").toPandas()
        ns = {"sdf": sdf}
        exec(compile(hit.code("sdf", aggregate="latest", spark=True), "<cell>", "exec"), ns)
        for frame in (joined, ns["joined"].toPandas()):
            got = frame.set_index("who")[col]
            assert [None if pd.isna(got[w]) else got[w] for w in q["who"]] == rows


# ------------------------------------------------------------- typed ordering columns
# newuser22 D1: a Parquet TIMESTAMP column (datetime64) read as numbers of nanoseconds,
# out of the year range the column's text tokens decided (years=True): no order, so the
# stable sort kept table order while the summary said "the latest row".

def test_a_typed_timestamp_column_orders_by_its_times_whatever_the_reading():
    when = pd.Series(pd.to_datetime(["2025-03-18", "2025-08-22", None, "2025-01-31"]))
    want = [1742256000.0, 1755820800.0, None, 1738281600.0]
    for dayfirst in (False, True):
        for years in (False, True):
            got = order_keys(when, dayfirst, years)
            assert [None if pd.isna(v) else v for v in got] == want
    aware = when.dt.tz_localize("Europe/Paris")
    assert order_keys(aware, False, True)[0] == 1742256000.0 - 3600
    dates = pd.Series([dt.date(2025, 3, 18), None, dt.date(9999, 12, 31), dt.date(1, 1, 1)])
    assert order_keys(dates, False, True).tolist()[::2] == [1742256000.0, 253402214400.0]
    frame = pd.DataFrame({"__k": ["a", "a", "a"], "date": when[[0, 1, 3]].to_numpy(),
                          "row": [0, 1, 2]})
    got = aggregate_pandas(frame, ["__k"], Aggregate("latest", order_by="date",
                                                     dayfirst=False, years=True))
    assert got["row"].tolist() == [1]


def test_an_order_column_that_nothing_in_reads_is_refused_not_taken_in_table_order():
    from lakejoin_jupyter.errors import QueryError
    frame = pd.DataFrame({"__k": ["a", "a"], "run": ["RUN-1", "RUN-2"], "row": [0, 1]})
    with pytest.raises(QueryError, match=r"cannot order the rows by 'run'.*'RUN-1'"):
        aggregate_pandas(frame, ["__k"], Aggregate("latest", order_by="run",
                                                   dayfirst=False, years=False))
    frame["run"] = [None, None]       # no value at all: table order, nothing to refuse
    got = aggregate_pandas(frame, ["__k"], Aggregate("latest", order_by="run",
                                                     dayfirst=False, years=False))
    assert got["row"].tolist() == [0]


TYPED_KINDS = ("timestamp", "timestamp_tz", "date", "timestamp_objects", "int", "float")


@st.composite
def typed_columns(draw, kinds=TYPED_KINDS):
    """(kind, keys, values): one typed column with ties (values drawn from a few) and nulls."""
    kind = draw(st.sampled_from(kinds))
    pool = draw(st.lists(st.datetimes(dt.datetime(1900, 1, 1), dt.datetime(2200, 12, 31)),
                         min_size=1, max_size=4))
    n = draw(st.integers(1, 14))
    keys = [draw(st.sampled_from("abc")) for _ in range(n)]
    picks = [draw(st.one_of(st.none(), st.sampled_from(pool))) for _ in range(n)]
    if kind in ("timestamp", "timestamp_tz"):
        values = [None if p is None else p.replace(microsecond=p.microsecond) for p in picks]
    elif kind == "date":
        values = [None if p is None else p.date() for p in picks]
    elif kind == "timestamp_objects":
        zones = [dt.timezone.utc, dt.timezone(dt.timedelta(hours=-5)), None]
        values = [None if p is None else
                  pd.Timestamp(p, tz=draw(st.sampled_from(zones))) for p in picks]
    elif kind == "int":
        values = [None if p is None else p.year * 10 + p.month % 3 - 20000 for p in picks]
    else:
        values = [None if p is None else p.toordinal() / 7.0 - 100000.0 for p in picks]
    return kind, keys, values


def as_column(kind: str, values: list) -> pd.Series:
    if kind == "timestamp":
        return pd.Series(pd.to_datetime(values)).astype("datetime64[us]")
    if kind == "timestamp_tz":
        return pd.Series(pd.to_datetime(values)).astype("datetime64[us]").dt.tz_localize(
            "America/New_York", ambiguous=False, nonexistent="shift_forward")
    if kind == "int":
        return pd.Series(values, dtype="Int64")
    if kind == "float":
        return pd.Series(values, dtype="float64")
    return pd.Series(values, dtype=object)


def brute_latest(keys: list, column: pd.Series) -> dict:
    """key -> row of its latest value, compared as the typed values themselves (instants for
    times with a zone, a naive one as UTC); ties and rows without a value: the first in
    table order."""
    def instant(v):
        if v is None or v is pd.NaT or v is pd.NA or (isinstance(v, float) and v != v):
            return None
        if isinstance(v, dt.datetime):
            ts = pd.Timestamp(v)
            return ts.tz_convert("UTC").tz_localize(None) if ts.tzinfo else ts
        if isinstance(v, dt.date):
            return pd.Timestamp(v)
        return v
    best: dict = {}
    for i, (k, v) in enumerate(zip(keys, column.astype(object).tolist())):
        w = instant(v)
        if k not in best or (w is not None and (best[k][1] is None or w > best[k][1])):
            best[k] = (i, w)
    return {k: i for k, (i, _) in best.items()}


def latest_rows(frame: pd.DataFrame) -> dict:
    got = aggregate_pandas(frame, ["__k"], Aggregate("latest", order_by="v", dayfirst=False,
                                                     years=True))
    return dict(zip(got["__k"], got["row"]))


@settings(max_examples=150, deadline=None)
@given(typed_columns())
def test_latest_of_a_typed_parquet_column_equals_a_brute_force(column):
    """A typed column written to Parquet by pandas and read back (as the engine and the
    generated code read a lake table): "latest" per key is the brute force's, under a
    reading that says dates and bare years (what the column's text tokens gave)."""
    import tempfile
    kind, keys, values = column
    frame = pd.DataFrame({"__k": keys, "v": as_column(kind, values), "row": range(len(keys))})
    with tempfile.TemporaryDirectory() as d:
        path = f"{d}/t.parquet"
        frame.to_parquet(path, index=False)
        back = pd.read_parquet(path)
    for f in (frame, back):
        assert latest_rows(f) == brute_latest(keys, f["v"])


@pytest.mark.spark
def test_latest_of_a_spark_written_parquet_column_equals_a_brute_force(spark, tmp_path):
    """Parquet timestamps, dates and numbers written by Spark, read by pandas (pyarrow) and
    by Spark: the pandas and the Spark aggregation take the brute force's rows."""
    from hypothesis import HealthCheck
    from lakejoin_jupyter.join.execute import aggregate_spark
    runs = iter(range(10 ** 6))

    @settings(max_examples=12, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(typed_columns(("timestamp", "date", "int", "float")))
    def check(column):
        kind, keys, values = column
        frame = pd.DataFrame({"__k": keys, "v": as_column(kind, values),
                              "row": range(len(keys))})
        if kind == "int":
            frame["v"] = frame["v"].astype("float64").astype(object).where(frame["v"].notna(),
                                                                         None)
        path = str(tmp_path / f"t{next(runs)}")
        spark.createDataFrame(frame.astype(object).where(frame.notna(), None),
                              schema=_spark_schema(kind)) \
            .coalesce(1).write.parquet(path)
        back = pd.read_parquet(path).sort_values("row", kind="stable").reset_index(drop=True)
        want = brute_latest(keys, back["v"])
        assert latest_rows(back) == want
        agg = Aggregate("latest", order_by="v", dayfirst=False, years=True)
        got = aggregate_spark(spark.read.parquet(path), ["__k"], agg).toPandas()
        assert dict(zip(got["__k"], got["row"])) == want
    check()


def _spark_schema(kind: str):
    from pyspark.sql import types as T
    v = {"timestamp": T.TimestampType(), "date": T.DateType(), "int": T.DoubleType(),
         "float": T.DoubleType()}[kind]
    return T.StructType([T.StructField("__k", T.StringType()), T.StructField("v", v),
                         T.StructField("row", T.LongType())])


@pytest.mark.spark
def test_latest_by_a_parquet_timestamp_in_the_engine_and_the_code_it_writes(spark, tmp_path):
    """newuser22 D1's table: runs of species with a Parquet TIMESTAMP (pandas-written, naive
    and with a time zone) and a Parquet DATE. The pandas join, the pandas code, the Spark join
    and the Spark code take each species' latest run (checked by sorting the typed column);
    a text column with no date in it is refused as the order, with what to do."""
    from conftest import write_lake
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.actions import get
    from lakejoin_jupyter.errors import QueryError
    from lakejoin_jupyter.indexing.pipeline import build
    when = pd.to_datetime(["2025-01-22", "2025-07-24", "2025-03-01", "2025-06-14",
                           "2025-10-09", "2025-05-08", "2025-08-26", "2025-02-02"])
    runs = pd.DataFrame({"species": ["CH4", "CH4", "CH4", "C2H6", "C2H6", "AR", "AR", "N2"],
                         "run": [f"RUN-{i:03d}" for i in (41, 118, 60, 7, 110, 76, 85, 3)],
                         "date": when.astype("datetime64[us]")})   # Spark reads no ns
    runs["stamp"] = runs["date"].dt.tz_localize("Europe/Paris")
    runs["day"] = runs["date"].dt.date
    root = write_lake(tmp_path / "lake", {"lab/runs.parquet": runs})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    q = pd.DataFrame({"species": ["CH4", "C2H6", "AR", "XE"]})
    hit = [h for h in engine.search(q, "species", k=None) if h.table == "lab/runs"][0]
    want = ["RUN-118", "RUN-110", "RUN-085", None]
    assert [runs.sort_values("date").groupby("species")["run"].last().get(s)
            for s in q["species"]] == want
    for order_by in ("date", "stamp", "day"):
        out = get("join")(engine, hit, q, aggregate="latest", order_by=order_by)
        assert [None if pd.isna(r) else r for r in out.joined["run"]] == want, order_by
        assert f"the latest row by {order_by!r}" in out.summary
        ns = {"df": q}
        exec(compile(hit.code(aggregate="latest", order_by=order_by), "<cell>", "exec"), ns)  # noqa: S102
        pd.testing.assert_frame_equal(ns["joined"], out.joined)
        sdf = spark.createDataFrame(q)
        ns = {"sdf": sdf}
        exec(compile(hit.code("sdf", aggregate="latest", order_by=order_by, spark=True),  # noqa: S102
                     "<cell>", "exec"), ns)
        for frame in (hit.join(sdf, aggregate="latest", order_by=order_by).toPandas(),
                      ns["joined"].toPandas()):
            got = frame.set_index("species")["run"]
            assert [None if pd.isna(got[s]) else got[s] for s in q["species"]] == want
    with pytest.raises(QueryError, match=r"lab/runs\.run cannot order.*'run-0..'.*order_by"):
        hit.join(q, aggregate="latest", order_by="run")


def test_the_engine_says_which_values_latest_cannot_order_and_refuses_a_column_of_none():
    from lakejoin_jupyter.engine import _unordered
    from lakejoin_jupyter.errors import QueryError
    tokens = pd.Series(["2025-01-22", "n/a", "2025-07-24", None], dtype=object)
    said = _unordered(tokens, date_reading(tokens), "lab/runs.date")
    assert said.startswith("1 of its 3 distinct values") and "'n/a'" in said
    assert Aggregate("latest", order_by="date", unread=said).describe("t").count("'n/a'") == 1
    assert _unordered(tokens[[0, 2]], date_reading(tokens), "lab/runs.date") == ""
    runs = pd.Series([f"run-{i:03d}" for i in range(5000)], dtype=object)   # past the probe
    with pytest.raises(QueryError, match=r"lab/runs\.run cannot order .*'run-000'.*'first'"):
        _unordered(runs, date_reading(runs), "lab/runs.run")
