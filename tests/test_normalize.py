import datetime as dt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from lakejoin_jupyter.lake.normalize import (MAX_TOKEN_CHARS, normalize_many, normalize_value,
                                             token_set)


@pytest.mark.parametrize("value,token", [
    ("  Côte   d'Ivoire ", "côte d'ivoire"),
    ("STRASSE", "strasse"), ("straße", "strasse"), ("ﬁne", "fine"),
    ("007", "7"), ("+12", "12"), ("-0", "0"), ("2001.0", "2001"), ("2.50", "2.5"),
    ("1e3", "1000"), ("1E-3", "0.001"), (".5", "0.5"), ("0.000", "0"),
    ("1.2.3", "1.2.3"), ("12abc", "12abc"), ("NA", "na"),        # Namibia's code survives
    (3.0, "3"), (np.float64(2.5), "2.5"), (np.float32(2.5), "2.5"), (np.int64(5), "5"),
    (True, "true"), (np.bool_(False), "false"),
    (pd.Timestamp("2020-01-05"), "2020-01-05"), (dt.date(2020, 1, 2), "2020-01-02"),
    (pd.Timestamp("2020-01-05 10:30"), "2020-01-05t10:30:00"),
])
def test_tokens(value, token):
    assert normalize_value(value) == token


@pytest.mark.parametrize("value", [None, float("nan"), pd.NaT, pd.NA, "", "   ", "-", "--",
                                   "*", "$", "N/A", "null", "NaN", "#N/A", "x" * (MAX_TOKEN_CHARS + 1)])
def test_nulls_and_placeholders_dropped(value):
    assert normalize_value(value) is None


def test_pandas_float_column_matches_csv_integers():
    # a year column read by pandas with a missing value becomes float64
    years = pd.Series([2001, 2002, None]).astype("float64")
    assert token_set(years) == token_set(["2001", "2002"])


@given(st.lists(st.one_of(st.text(max_size=12), st.integers(), st.floats(allow_nan=True))))
def test_normalize_many_equals_elementwise(values):
    assert normalize_many(values) == [normalize_value(v) for v in values]


@given(st.text(max_size=30))
def test_idempotent(text):
    t = normalize_value(text)
    if t is not None:
        assert normalize_value(t) == t


@given(st.integers(min_value=-10**30, max_value=10**30))
def test_integers_same_as_text(i):
    assert normalize_value(i) == normalize_value(str(i))
    if int(float(i)) == i:                 # floats lose digits past 2**53
        assert normalize_value(float(i)) == normalize_value(i)
