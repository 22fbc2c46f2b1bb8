"""Row numbers are chance partners of any integer query (join search's key kind).

A lake column of unique integers holding (nearly) every integer 1..max, such as the
header-less first column of an R ``write.csv`` or a rank, contains any set of integers
below its max by construction. join/preview.py ``counts_up`` tells such a column from its
profile; it is checked here against the integers counted one by one on random columns.
Such a column is a *row number* with a warning, weighed below every other kind, so
``rank="useful"`` puts a column that holds the query's values themselves (a code list),
or a measure holding them, above it; a query's own values are read as
before, and so are a sparse code list, a sequence far from 1 and integers that repeat.
"""
import numpy as np
import pandas as pd
import pytest

from lakejoin_jupyter.index.joinstats import value_shape
from lakejoin_jupyter.join import preview

from conftest import write_lake


def brute_force(values) -> bool:
    """At least 90 % of the integers 1..max are among the values, none negative."""
    vals = set(int(v) for v in values)
    if not vals or min(vals) < 0 or max(vals) < 1:
        return False
    held = sum(1 for i in range(1, max(vals) + 1) if i in vals)
    return held >= 0.9 * max(vals)


def random_columns(seed: int = 3, n: int = 3000):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        size = int(rng.integers(1, 400))
        start = int(rng.choice([0, 1, 1, 2, 5, -3, 1000]))
        shape = rng.integers(4)
        if shape == 0:              # a range with a share of its values removed
            vals = np.arange(start, start + size)
            keep = rng.random(size) >= rng.choice([0.0, 0.02, 0.08, 0.1, 0.12, 0.3])
            vals = vals[keep]
        elif shape == 1:            # sparse codes
            vals = rng.choice(int(size * rng.choice([1.05, 1.1, 1.2, 3, 10])) + 1, size,
                              replace=False) + start
        elif shape == 2:            # a range and a few far values
            vals = np.concatenate([np.arange(start, start + size),
                                   rng.integers(0, 5 * size + 2, int(rng.integers(1, 6)))])
        else:                       # small integers with repeats
            vals = rng.integers(start, start + 30, size)
        vals = sorted({int(v) for v in vals})
        if vals:
            yield vals


def test_counts_up_equals_the_integers_counted_one_by_one():
    """The profile test (count, min, max of the distinct tokens, as the index stores them)
    agrees with counting 1..max one by one, near the 90 % edge included."""
    seen = {True: 0, False: 0}
    for vals in random_columns():
        shape = value_shape([str(v) for v in vals])
        got = preview.counts_up(shape["n_numeric"], shape["num_min"], shape["num_max"])
        assert got == brute_force(vals), vals
        seen[got] += 1
    assert min(seen.values()) > 300, seen          # both answers are exercised


def _shape(values) -> dict:
    return value_shape([str(v) for v in values])


@pytest.mark.parametrize("values, keyed, paired, kind", [
    (range(1, 1616), 1615, False, "row number"),            # R's row numbers
    (range(0, 300), 300, False, "row number"),              # pandas' index written out
    ([i for i in range(1, 401) if i % 13], 370, False, "row number"),    # nearly every
    (range(1, 1616), 1615, True, "row number"),             # paired or not: unique by itself
    (range(1001, 1501), 500, False, "identifier"),      # a sequence far from 1
    ([4, 8, 12, 20, 24, 28, 31, 32, 36, 40, 44, 48, 50, 51, 52, 56, 60, 64, 68, 70, 72, 74,
      76, 84, 86, 90, 92, 96, 100, 104, 108, 112, 116, 120, 124, 132, 136, 140, 144, 148,
      894], 41, False, "identifier"),                   # ISO numeric country codes
    (range(1, 123), 2075, True, "identifier"),          # a billing order per film: a key
])                                                      # with its film, repeating
def test_row_number_kinds(values, keyed, paired, kind):
    values = list(values)
    got, warning = preview.key_kind("integer", len(values), keyed, _shape(values),
                                    paired=paired, row_numbers=True)
    assert got == kind
    assert (warning is not None and "row number" in warning) == (kind == "row number")
    # without row_numbers (a query's values, a program's keys): read as before
    assert preview.key_kind("integer", len(values), keyed, _shape(values),
                            paired=paired)[0] == "identifier"


def test_the_warning_says_every_or_nearly_every():
    w = preview.row_number_warning(1615, 1, 1615)
    assert "every integer 1..1,615" in w and "nearly" not in w
    assert "every integer 1..299" in preview.row_number_warning(300, 0, 299)
    assert "nearly every integer 1..400" in preview.row_number_warning(370, 1, 400)


def test_a_row_number_weighs_below_every_other_kind():
    """Its full coverage ranks below a tenth of it held by an identifier, and below a
    measure or years at equal coverage, whichever the query's kind."""
    u = preview.usefulness
    assert u(1.0, 1.0, "row number") == pytest.approx(0.1)
    assert u(1.0, 1.0, "row number") < u(0.11, 1.0, "identifier")
    for other in ("number", "year-like"):
        for query in (None, "identifier", "number"):
            assert u(1.0, 1.0, "row number", query) < u(1.0, 1.0, other, query)


@pytest.mark.spark
def test_useful_ranks_the_code_list_above_row_numbers(spark, tmp_path):
    """A query of 30 numeric country codes (all below 500): 29 of them are in the code
    list (96.7 % of the rows), all 30 in a survey's R row numbers 1..500 (100 %). The code
    list ranks first by usefulness; the row numbers are a row number with the warning,
    below it; the code list has no warning. The usefulness is 0.967 and 0.1 x 1.0."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    rng = np.random.default_rng(7)
    codes = sorted(rng.choice(np.arange(4, 900, 4), 60, replace=False).tolist())
    low = [c for c in codes if c < 500]
    query = pd.DataFrame({"iso_num": low[:29] + [498 if 498 not in codes else 497]})
    assert query.iso_num.nunique() == 30 and query.iso_num.isin(codes).sum() == 29
    survey = '"","answer","age"\n' + "".join(
        f'"{i}","{"yes" if i % 3 else "no"}",{18 + i % 60}\n' for i in range(1, 501))
    root = write_lake(tmp_path / "lake", {
        "ref/codes.csv": pd.DataFrame({"numeric": codes, "name": [f"c{c}" for c in codes]}),
        "poll/raw-responses.csv": survey})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    res = engine.search(query, "iso_num", k=5, rank="useful")
    top = [(h.table, h.key_kind, h.key_warning is None) for h in res][:2]
    assert top == [("ref/codes", "identifier", True), ("poll/raw-responses", "row number", False)]
    assert [round(h.row_coverage, 3) for h in res][:2] == [0.967, 1.0]
    assert [round(h.usefulness, 3) for h in res][:2] == [0.967, 0.1]
    assert "row number" in res[1].key_warning and "1..500" in res[1].key_warning
    overlap = {(h.table, h.column): h.overlap for h in engine.search(query, "iso_num", k=5)}
    assert overlap[res[1].table, res[1].column] == 30 and overlap["ref/codes", "numeric"] == 29
