import datetime as dt
import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, strategies as st

from lakejoin_jupyter.lake.normalize import (MAX_TOKEN_CHARS, normalize_many, normalize_value,
                                             token_set)


@pytest.mark.parametrize("value,token", [
    ("  Côte   d'Ivoire ", "côte d'ivoire"),
    ("STRASSE", "strasse"), ("straße", "strasse"), ("ﬁne", "fine"),
    ("007", "7"), ("+12", "12"), ("-0", "0"), ("2001.0", "2001"), ("2.50", "2.5"),
    ("1e+3", "1000"), ("1E-3", "0.001"), ("1.0E3", "1000"), (".5", "0.5"), ("0.000", "0"),
    ("0E8", "0e8"), ("0E0", "0e0"), ("1E1", "1e1"), ("1e3", "1e3"),   # codes (FAA's 0E8)
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


_TRICKY = st.sampled_from(list(" \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u3000+-._eE0019aZzN/#<>$*") +
                          ["nan", "null", "n/a", "ß", "ﬁ", "Ⅻ", "İ", "１", "x" * 511, "y" * 513])


@given(st.lists(st.one_of(st.text(max_size=14), st.lists(_TRICKY, max_size=8).map("".join),
                          st.integers(-10**40, 10**40).map(str),
                          st.floats(allow_nan=False).map(repr),
                          st.from_regex(r"[+-]?0{0,3}[0-9]{0,30}\.[0-9]{0,44}0{0,3}", fullmatch=True)),
                max_size=40))
@example(["z", "-Z-", "9", "_", "A\x1c", "+.5e3", "1e", "-00", "0x1f", "-0.0", "5.", "-.50",
          "100.000", "0." + "0" * 39 + "1", "0." + "0" * 40 + "1", "1" * 28 + ".0", "1" * 29 + ".0",
          "1" * 14 + "." + "1" * 14, "1" * 14 + "." + "1" * 15, "00." + "0" * 50])
def test_normalize_array_equals_normalize_text(texts):
    """The vectorized path (ASCII texts in Arrow compute) gives normalize_text's token."""
    import pyarrow as pa
    from lakejoin_jupyter.lake.normalize import normalize_array, normalize_text
    got = normalize_array(pa.array(texts + [None], pa.string())).to_pylist()
    assert got == [normalize_text(t) for t in texts] + [None]


def test_long_integers_are_canonical_not_an_error():
    from lakejoin_jupyter.lake.normalize import normalize_array
    digits = "0" * 3 + "9" * 5000
    assert normalize_value("+" + digits) == "9" * 5000
    assert normalize_array(["-" + digits, "-" + "0" * 5000]).to_pylist() == ["-" + "9" * 5000, "0"]
