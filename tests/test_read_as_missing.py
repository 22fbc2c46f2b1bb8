"""newuser21: pd.read_csv reads Namibia's country code "NA" as missing (NaN), so a frame of
country codes loses that key and its hit misses it silently, while the lake column (read
with keep_default_na=False by the index) holds "NA". When the query column has nulls and a
hit's lake column holds such a text, the hit's note says so and what to do. Hand-checked
lake: geo/codes.csv (code: NA, FR, DE, CL, PE; name), geo/other.csv (iso: FR, DE, CL, PE,
IT: no NA)."""
from __future__ import annotations

import io

import pandas as pd
import pytest

from conftest import lake_engine
from lakejoin_jupyter.engine import hit_card_html

pytestmark = pytest.mark.spark

CODES = pd.DataFrame({"code": ["NA", "FR", "DE", "CL", "PE"],
                      "name": ["Namibia", "France", "Germany", "Chile", "Peru"]})
OTHER = pd.DataFrame({"iso": ["FR", "DE", "CL", "PE", "IT"],
                      "capital": ["Paris", "Berlin", "Santiago", "Lima", "Rome"]})
# the user's file: Namibia's row among others
MEETINGS = "city,country\nWindhoek,NA\nParis,FR\nLyon,FR\nBerlin,DE\nLima,PE\n"


@pytest.fixture(scope="module")
def geo(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "read_as_missing",
                       {"geo/codes.csv": CODES, "geo/other.csv": OTHER})


def _notes(res):
    return [n for n in res.notes if "keep_default_na" in n]


def test_a_null_query_key_and_an_na_text_in_the_lake_column_are_named(geo):
    """Read with the defaults, Windhoek's country is NaN: the hit geo/codes.code (it holds
    "NA") gets the note with keep_default_na=False, in the result's notes, its text and
    the hit's card; geo/other.iso (no "NA") gets none."""
    frame = pd.read_csv(io.StringIO(MEETINGS))
    assert frame["country"].isna().sum() == 1        # pandas' default: "NA" is missing
    res = geo.search(frame, "country", k=5)
    assert {h.table for h in res} == {"geo/codes", "geo/other"}
    codes = next(h for h in res if h.table == "geo/codes")
    other = next(h for h in res if h.table == "geo/other")
    [note] = _notes(res)
    assert note == (f"'country' has 1 null row and #{codes.rank} geo/codes.code holds the text "
                    f"'NA', which pandas' read_csv reads as missing by default: a key your "
                    f"frame may have lost (Namibia's country code NA); read the file with "
                    f"pd.read_csv(..., keep_default_na=False) to keep it.")
    assert "geo/other" not in note and "read_as_missing" not in other.details
    assert note in repr(res)
    assert codes.details["read_as_missing"].startswith("'country' has 1 null row and this "
                                                        "column holds the text 'NA'")
    assert "keep_default_na=False" in hit_card_html(codes)
    assert "keep_default_na=False" not in hit_card_html(other)


def test_no_note_without_nulls_or_without_the_text(geo):
    """Read with keep_default_na=False the frame keeps NA (no null, Namibia matched): no
    note; a column with a null whose hit holds no such text (capitals): none."""
    kept = pd.read_csv(io.StringIO(MEETINGS), keep_default_na=False)
    res = geo.search(kept, "country", k=5)
    codes = next(h for h in res if h.table == "geo/codes")
    assert codes.overlap == 4 and _notes(res) == []
    capitals = pd.DataFrame({"capital": ["Paris", None, "Lima"]})
    res = geo.search(capitals, "capital", k=5)
    assert [h.table for h in res] == ["geo/other"]
    assert _notes(res) == []
