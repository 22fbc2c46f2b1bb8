"""Digits around a bare E ("0E8", "1E1": FAA airport codes) are a code, not scientific
notation (lake/normalize.py, normalization version 5): two such codes stay two keys, a code
query joins its own airport only and never matches a 0 or a 10 of a numeric column; the
notation number formatters write (a point in the mantissa, a sign in the exponent) is
still a number. Checked against an oracle that parses the text itself."""
from __future__ import annotations

import re
from decimal import Decimal

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, strategies as st

from lakejoin_jupyter.lake.normalize import normalize_array, normalize_text

_FORMATTED = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?=[eE][+-]))[eE][+-]?[0-9]+")


@given(st.from_regex(r"\A[+-]?[0-9]{1,3}(\.[0-9]{0,2})?[eE][+-]?[0-9]{1,2}\Z"))
def test_scientific_notation_is_a_number_only_as_formatters_write_it(text):
    got = normalize_text(text)
    assert normalize_array(pa.array([text])).to_pylist() == [got]
    if _FORMATTED.fullmatch(text):             # the oracle: Decimal's value, compared
        assert Decimal(got) == Decimal(text)
    else:                                      # "0E8", "12e3": a code, as written
        assert got == text.lower()


@pytest.mark.spark
def test_faa_codes_with_an_e_are_their_own_keys(spark, tmp_path):
    from conftest import write_lake
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    airports = pd.DataFrame({"iata": ["0E0", "0E8", "E01", "SEA", "BOS"],
                             "name": ["Moriarty", "Crownpoint", "Mc Kinney", "Seattle", "Boston"]})
    weather = pd.DataFrame({"temp_min": [0, 10, 0, 3, 10], "temp_max": [10, 20, 0, 5, 1]})
    root = write_lake(tmp_path / "lake", {"travel/airports.csv": airports,
                                          "weather/seattle.csv": weather})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    cat = engine.index.columns
    assert int(cat.loc[cat["name"] == "iata", "n_distinct"].iloc[0]) == 5     # 0E0 != 0E8
    q = pd.DataFrame({"faa": ["0E8", "E01", "1E1"], "n": [1, 2, 3]})
    res = engine.search(q, "faa", k=10)
    assert [h.table for h in res] == ["travel/airports"]
    assert res[0].overlap == 2 and res[0].unmatched == ["1E1"]
    joined = res[0].join(q)
    assert joined["name"].tolist()[:2] == ["Crownpoint", "Mc Kinney"] and len(joined) == 3
