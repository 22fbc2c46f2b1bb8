"""Dates written year-month-day without zero padding ("2014-7-1", FiveThirtyEight's weather
files) or with slashes ("2012/01/01", vega's seattle-weather) are the same key as the
padded date, a ``date``, a midnight timestamp and a ``datetime64`` query (lake/normalize.py,
normalization versions 4 and 5); day-month text ("07/01/2014") stays text. Checked against
an oracle that parses the cells itself."""
from __future__ import annotations

import datetime as dt
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, strategies as st

from lakejoin_jupyter.lake.normalize import normalize_array, normalize_text, normalize_value

FORMS = ("iso", "unpadded", "month", "day", "midnight", "unpadded_midnight", "slash",
         "slash_unpadded", "slash_midnight", "mdy")


def written(d: dt.date, form: str) -> str:
    """``d`` as a lake file may write it."""
    return {"iso": d.isoformat(), "unpadded": f"{d.year}-{d.month}-{d.day}",
            "month": f"{d.year}-{d.month}-{d.day:02d}", "day": f"{d.year}-{d.month:02d}-{d.day}",
            "midnight": f"{d.isoformat()} 00:00:00",
            "unpadded_midnight": f"{d.year}-{d.month}-{d.day}T00:00",
            "slash": d.strftime("%Y/%m/%d"), "slash_unpadded": f"{d.year}/{d.month}/{d.day}",
            "slash_midnight": f"{d.year}/{d.month:02d}/{d.day} 00:00:00",
            "mdy": f"{d.month:02d}/{d.day:02d}/{d.year}"}[form]


_YMD = re.compile(r"(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?:[ T]00:00(?::00)?)?")


def oracle_key(cell: str):
    """The date a cell writes in year-month-day order (the oracle's own parse), else the
    cell itself (day-month text is compared as written)."""
    m = _YMD.fullmatch(cell)
    if m is None:
        return ("text", cell)
    try:
        return ("date", dt.date(*map(int, m.group(1, 3, 4))))
    except ValueError:
        return ("text", cell)


dates = st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2099, 12, 31))


@given(dates, st.sampled_from(FORMS[:-1]))
def test_every_year_month_day_form_is_the_date(d, form):
    text = written(d, form)
    assert normalize_text(text) == normalize_value(d) == normalize_value(pd.Timestamp(d))
    assert normalize_array(pa.array([text])).to_pylist() == [normalize_value(d)]


@given(st.lists(st.tuples(dates, st.sampled_from(FORMS)), max_size=30),
       st.lists(st.text(alphabet="0123456789-/ T:", max_size=14), max_size=10))
def test_vectorized_path_agrees_and_matches_the_oracle(cells, noise):
    texts = [written(d, f) for d, f in cells] + noise
    got = normalize_array(pa.array(texts, pa.string())).to_pylist()
    assert got == [normalize_text(t) for t in texts]
    for (d, f), tok in zip(cells, got):
        assert (tok == d.isoformat()) == (f != "mdy")


@pytest.mark.parametrize("text", ["2014-2-30", "2014-13-1", "2014-0-1", "2014-7-1 25:00",
                                  "2014-7-1x", "14-7-1", "2014-7-123", "2014/7-1",
                                  "2014-7/1", "2014/13/1", "2014/2/30", "2014/07/01x",
                                  "2014/7/1 25:00"])
def test_not_a_date_stays_text(text):
    assert normalize_text(text) == text.lower()


# ------------------------------------------------------------------ search over a built lake

QUERY = pd.date_range("2014-07-01", periods=30)


def _random_columns(seed: int, n_columns: int = 6) -> dict:
    """Columns of dates around the query's, each cell in a random form, some dates twice in
    two forms."""
    rng = np.random.default_rng(seed)
    pool = [d.date() for d in pd.date_range("2014-06-10", periods=60)]
    cols = {}
    for c in range(n_columns):
        picked = rng.choice(len(pool), size=int(rng.integers(5, 40)), replace=False)
        cells = []
        for i in picked:
            for f in rng.choice(len(FORMS), size=int(rng.integers(1, 3)), replace=False):
                cells.append(written(pool[int(i)], FORMS[int(f)]))
        rng.shuffle(cells)
        cols[f"d{seed}_{c}"] = cells
    return cols


@pytest.fixture(scope="module")
def date_lake(spark, tmp_path_factory):
    from conftest import write_lake
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    root = tmp_path_factory.mktemp("dates")
    days = [d.date() for d in QUERY]
    tables = {
        # us-weather-history's form, and the user's mixed file (ISO and MM/DD/YYYY alternating)
        "weather/KSEA.csv": pd.DataFrame({"date": [written(d, "unpadded") for d in days],
                                          "actual_mean_temp": range(30)}),
        "weather/seattle-weather.csv": pd.DataFrame(          # vega's form
            {"date": [written(d, "slash") for d in days], "precipitation": range(30)}),
        "weather/KCLT_mixed.csv": pd.DataFrame(
            {"date": [written(d, "iso" if i % 2 == 0 else "mdy") for i, d in enumerate(days)],
             "t": range(30)}),
    }
    oracle_cols = {}
    for seed in (1, 2, 3):
        for name, cells in _random_columns(seed).items():
            tables[f"random/{name}.csv"] = pd.DataFrame({"day": cells})
            oracle_cols[f"random/{name}"] = cells
    lake = write_lake(root / "lake", tables)
    build(lake, root / "dates.index", spark=spark, progress=False)
    return open_index(root / "dates.index"), oracle_cols


def _by_table(result) -> dict:
    return {h.table: h for h in result}


@pytest.mark.spark
def test_users_case_unpadded_lake_dates_match_a_date_query(date_lake):
    engine, _ = date_lake
    q = pd.DataFrame({"date": QUERY, "v": range(30)})
    hits = _by_table(engine.search(q, "date", k=10, rank="overlap"))
    assert hits["weather/KSEA"].overlap == 30 and hits["weather/KSEA"].containment == 1.0
    assert hits["weather/KCLT_mixed"].overlap == 15          # its ISO half; MM/DD/YYYY is text
    seattle = hits["weather/seattle-weather"]
    assert seattle.overlap == 30 and seattle.unmatched == []
    assert seattle.join(q)["precipitation"].astype(int).tolist() == list(range(30))
    joined = hits["weather/KSEA"].join(q)
    assert len(joined) == 30
    assert joined["actual_mean_temp"].astype(int).tolist() == list(range(30))
    assert hits["weather/KSEA"].unmatched == []
    # text written unpadded in the query meets the lake's padded dates too
    text_q = pd.DataFrame({"date": ["2014-7-1", "2014-7-2", "2014-07-03"]})
    hits = _by_table(engine.search(text_q, "date", k=10, rank="overlap"))
    assert hits["weather/KSEA"].overlap == 3 and hits["weather/KCLT_mixed"].overlap == 2
    assert hits["weather/seattle-weather"].overlap == 3


@pytest.mark.spark
@pytest.mark.parametrize("method", ["auto", "bruteforce", "mergelist"])
def test_figures_match_a_brute_force_oracle(date_lake, method):
    """Overlap, containment and Jaccard of every column against the oracle's own parse: a
    date written twice (two forms) in a column counts once."""
    engine, columns = date_lake
    q = pd.DataFrame({"date": QUERY})
    qset = {d.date() for d in QUERY}
    got = _by_table(engine.search(q, "date", k=None, method=method, rank="overlap"))
    for table, cells in columns.items():
        keys = {oracle_key(c) for c in cells}
        overlap = len({v for kind, v in keys if kind == "date"} & qset)
        if overlap == 0:
            assert table not in got
            continue
        h = got[table]
        assert h.overlap == overlap, table
        assert h.containment == pytest.approx(overlap / len(qset))
        assert h.jaccard == pytest.approx(overlap / (len(qset) + len(keys) - overlap)), table
