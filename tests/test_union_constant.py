"""Table union search on columns of one value and on a one-column cut of a lake table
(search/union.py, ``few_values``; engine.py, ``own_tables``;
docs/algorithms/union.md, "A column of one value is no sample"): a lake column holding
one value gives no semantic or format evidence, so a table aligned only on it is not
listed; a frame of one column cut from a lake table (fewer rows) is that table."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import UNION_ONLY, lake_engine


def _word(rng, lo=4, hi=9):
    return "".join(rng.choice(list("abcdefghiklmnoprstuvwyz"), int(rng.integers(lo, hi + 1))))


def constant_lake():
    """codes: 60 two-letter codes and capitalized names; events: 25 time stamps and a
    ``flag`` that is "a" in every row (the tenth user's lake); zones: 120 time zone names
    and offsets; zones_more: the time zones of zones' rows 70-119 and a flag; noise tables
    of capitalized words and numbers."""
    rng = np.random.default_rng(3)
    letters = list("ABCDEFGHIKLMNOPRSTUVWYZ")
    first = ["US", "CA", "BR", "AU", "RU", "DE", "FR", "NA"]
    codes = [c for c in dict.fromkeys(a + b for a in letters for b in letters) if c not in first]
    codes = first + [codes[i] for i in rng.permutation(len(codes))[:52]]
    areas = ["Europe", "America", "Asia", "Africa", "Pacific", "Australia"]
    zones = list(dict.fromkeys(f"{rng.choice(areas)}/{_word(rng).capitalize()}"
                               for _ in range(200)))[:120]
    zt = pd.DataFrame({"tz": zones, "offset": rng.integers(-11, 13, 120)})
    tables = {
        "ref/codes.csv": pd.DataFrame({"code": codes, "name": [_word(rng).capitalize() for _ in codes]}),
        "ev/events.csv": pd.DataFrame({
            "stamp": pd.date_range("2026-03-29 10:00", periods=25, freq="74min")
            .strftime("%Y-%m-%d %H:%M:%S"), "flag": "a"}),
        "geo/zones.csv": zt,
        "geo/zones_more.csv": zt.iloc[70:][["tz"]].assign(dst=rng.random(50) < 0.5),
        "misc/counts.csv": pd.DataFrame({"item": [_word(rng).capitalize() for _ in range(200)],
                                         "count": rng.integers(1, 500, 200)}),
        "misc/people.csv": pd.DataFrame({"person": [_word(rng).capitalize() for _ in range(80)],
                                         "age": rng.integers(18, 90, 80)}),
    }
    return tables, codes, zt


@pytest.fixture(scope="module")
def constant_index(spark, tmp_path_factory):
    tables, codes, zt = constant_lake()
    engine = lake_engine(spark, tmp_path_factory, "constlake", tables, components=UNION_ONLY)
    return engine, codes, zt


@pytest.mark.spark
def test_a_lake_column_of_one_value_aligns_with_nothing_it_does_not_share(constant_index):
    """The tenth user's defect: codes in mixed case aligned with ``flag``, "a" in every row
    of events (no value shared), with semantic evidence 1.0, and listed events. A column of
    one value is no sample of a domain: its pairs get no semantic or format evidence, and
    events is not listed; the codes still find their table."""
    engine, codes, _ = constant_index
    q = pd.DataFrame({"cc": ["US", "ca", "Br", "AU", "RU", "de", " fr", "NA"]})
    res = engine.search_unionable(q, k=10)
    tables = [h.table for h in res]
    assert "ev/events" not in tables, [(h.table, h.alignment, h.evidence) for h in res]
    assert "ref/codes" in tables, [(h.table, h.score) for h in res]


def test_semantic_and_format_evidence_of_a_single_value_not_shared_does_not_apply():
    """few_values: one column of one value (or of up to FEW_VALUES) against one of more,
    none of its values among the other's (no sample, no membership); a shared value, or
    two columns of as many values each, keep their evidence."""
    from lakejoin_jupyter.search.union import FEW_VALUES, few_values
    na, nb = np.array([[1], [8]]), np.array([[8, 1]])
    assert few_values(na, nb, np.array([[0, 0], [0, 0]])).tolist() == \
        [[True, False], [False, True]]
    assert few_values(na, nb, np.array([[1, 0], [0, 1]])).tolist() == \
        [[False, False], [False, False]]
    na, nb = np.array([[FEW_VALUES], [12]]), np.array([[12, FEW_VALUES, FEW_VALUES + 1]])
    assert few_values(na, nb, np.zeros((2, 3), int)).tolist() == \
        [[True, False, True], [False, True, False]]


@pytest.mark.spark
def test_two_columns_of_one_value_still_align(constant_index):
    """A query ``flag`` of "a" beside the stamps aligns with events' ``flag`` (both of one
    value, the value shared)."""
    engine, _, _ = constant_index
    stamps = pd.date_range("2026-03-29 10:00", periods=25, freq="74min")
    q = pd.DataFrame({"stamp": stamps[:10].strftime("%Y-%m-%d %H:%M:%S"), "flag": "a"})
    hit = next(h for h in engine.search_unionable(q, k=5) if h.table == "ev/events")
    assert hit.mapping == {"stamp": "stamp", "flag": "flag"}


@pytest.mark.spark
def test_a_one_column_cut_of_a_lake_table_with_fewer_rows_is_your_table(constant_index):
    """D12's left part: ``zones[["tz"]]`` of 80 of its 120 rows. The column's name is the
    table's, every one of its values is in that column (most of them), and no other table
    has a ``tz`` holding them all (zones_more holds rows 70-119): the frame is from zones,
    marked "(your table)", listed last and left out by include_own=False. A few values of
    the column (typed by hand, say) are not a cut of it; nor a cut held by two tables."""
    engine, _, zt = constant_index
    cut = zt.iloc[:80][["tz"]].reset_index(drop=True)
    res = engine.search_unionable(cut, k=10)
    own = [(h.table, h.is_query_table) for h in res if h.table == "geo/zones"]
    assert own == [("geo/zones", True)], [(h.table, h.is_query_table) for h in res]
    assert res[len(res) - 1].table == "geo/zones"
    assert "geo/zones" not in [h.table for h in engine.search_unionable(cut, k=10, include_own=False)]
    few = zt.iloc[:5][["tz"]].reset_index(drop=True)
    assert not any(h.is_query_table for h in engine.search_unionable(few, k=10))
    both = zt.iloc[75:115][["tz"]].reset_index(drop=True)       # in zones and zones_more
    assert not any(h.is_query_table for h in engine.search_unionable(both, k=10))
