"""Auto-Join deviation 43: a source value with no pair is probed with its punctuation
dropped, on grams that span a dropped separator (hand-built: firmware releases "5.1.2"
against the series they belong to, "fw51", N:1: the key's digits are not contiguous in the
release, and no gram of 3+ characters is shared)."""
import pandas as pd

from lakejoin_jupyter.join.autojoin.pairs import (ColumnValues, _glue, _glue_points,
                                                  find_pair_group)
from lakejoin_jupyter.join.autojoin.pipeline import autojoin

SERIES = ["4.0", "4.2", "4.7", "5.1", "5.3", "5.8", "6.0", "6.4", "7.2"]
PATCHES = ["0", "3", "9"]


def _releases() -> list:
    return [f"{s}.{p}" for s in SERIES for p in PATCHES]


def _series() -> list:
    return ["fw" + s.replace(".", "") for s in SERIES]


def test_glue_points_hand_checked():
    assert (_glue("5.1.2"), _glue_points("5.1.2")) == ("512", [1, 2])
    assert (_glue("cpython-32"), _glue_points("cpython-32")) == ("cpython32", [7])
    # whitespace is not glued, nor punctuation at an end or beside a space
    assert (_glue("a - b"), _glue_points("a - b")) == ("a  b", [])
    assert (_glue("(x1)"), _glue_points("(x1)")) == ("x1", [])


def test_releases_pair_with_their_series_across_the_dot():
    src = ColumnValues.from_cells("release", _releases())
    tgt = ColumnValues.from_cells("series", _series())
    g = find_pair_group(src, tgt)
    got = {(src.values[src.rows.index(p.source_row)], tgt.values[p.target_row])
           for p in g.pairs}
    # every release pairs, and with its own series only ("5.1.3" -> "fw51" through "51")
    want = {(r, "fw" + r[0] + r[2]) for r in _releases()}
    assert got == want


def test_releases_join_their_series():
    left = pd.DataFrame({"release": _releases(),
                         "notes": [f"build {i}" for i in range(len(_releases()))]})
    right = pd.DataFrame({"series": _series()})
    res = autojoin(left, right, fuzzy=False)
    assert res.found
    j = res.join()
    assert set(zip(j["release"], j["series"])) == {(r, "fw" + r[0] + r[2])
                                                   for r in _releases()}
