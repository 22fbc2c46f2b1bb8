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
