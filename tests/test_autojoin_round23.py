"""Auto-Join deviation 45: a source value with no pair is read with its separator as the
one the target writes there (hand-built: language tags "pt-BR" against gettext catalogs
"po/pt_BR.po", 1:1: the regional tags share no 3-gram with their catalog, since every one
spans the "-" that the catalog writes "_")."""
import pandas as pd

from lakejoin_jupyter.join.autojoin.pairs import ColumnValues, find_pair_group
from lakejoin_jupyter.join.autojoin.pipeline import autojoin

PLAIN = ["de", "fr", "it", "ja", "ko", "nl", "pl", "ru", "sv", "tr", "uk", "cs"]
REGIONAL = ["pt-BR", "en-GB", "zh-CN", "zh-TW", "es-MX", "fr-CA"]


def _tags() -> list:
    return PLAIN + REGIONAL


def _catalog(tag: str) -> str:
    return f"po/{tag.replace('-', '_')}.po"


def test_regional_tags_pair_with_their_catalog_only():
    src = ColumnValues.from_cells("language", _tags())
    tgt = ColumnValues.from_cells("catalog", [_catalog(t) for t in _tags()])
    g = find_pair_group(src, tgt)
    got = {(src.values[src.rows.index(p.source_row)], tgt.values[p.target_row])
           for p in g.pairs}
    for tag in REGIONAL:
        assert {c for s, c in got if s == tag.lower()} == {_catalog(tag).lower()}


def test_a_reading_inside_a_longer_run_of_that_separator_does_not_pair():
    # "21:16" read as "21/16" sits in "1/21/16" between two "/": not one whole part
    src = ColumnValues.from_cells("time", ["21:16", "07:45"])
    tgt = ColumnValues.from_cells("date", ["1/21/16", "3/07/45"])
    assert find_pair_group(src, tgt).pairs == []


def test_tags_join_their_catalogs():
    tags = _tags()
    src = pd.DataFrame({"language": tags,
                        "translated": [str(100 + 13 * i) for i in range(len(tags))]})
    tgt = pd.DataFrame({"catalog": [_catalog(t) for t in reversed(tags)]})
    res = autojoin(src, tgt, fuzzy=False)
    assert res.found
    j = res.join(src)
    assert set(zip(j["language"], j["catalog"])) == {(t, _catalog(t)) for t in tags}
