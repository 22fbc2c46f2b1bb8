"""The shared value fold (lakejoin_jupyter/textfold.py; docs/algorithms/fuzzyjoin.md,
Folding): each Latin letter NFKD leaves whole written as Unicode's Latin-ASCII writes it,
checked by hand; folding idempotent and ASCII for Latin text (hypothesis); every folding
site reads the one fold; an index whose recorded embedder fold differs is refused as stale."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.embed import FoldChangedError, get_embedder
from lakejoin_jupyter.errors import IndexVersionError
from lakejoin_jupyter.textfold import FOLD_ID, LATIN_ASCII, fold, transliterate

# (letter, its capital, fold) by hand from CLDR's Latin-ASCII transform (unidecode agrees
# but for ŋ, which it writes "ng")
HAND = [("ø", "Ø", "o"), ("æ", "Æ", "ae"), ("œ", "Œ", "oe"), ("ß", "ẞ", "ss"),
        ("ł", "Ł", "l"), ("đ", "Đ", "d"), ("ð", "Ð", "d"), ("þ", "Þ", "th"),
        ("ı", "I", "i"), ("ħ", "Ħ", "h"), ("ŋ", "Ŋ", "n")]


@pytest.mark.parametrize("small,capital,want", HAND)
def test_each_letter_nfkd_leaves_whole_folds_as_typed_without_its_key(small, capital, want):
    import unicodedata
    assert unicodedata.normalize("NFKD", small) == small          # what NFKD missed
    assert fold(small) == fold(capital) == want
    assert fold(f"X{small}y") == f"x{want}y"


def test_names_fold_as_a_user_types_them():
    assert fold("Herøya") == fold("Heroya") == "heroya"
    assert fold("Karmøy") == "karmoy" and fold("Bodø") == fold("BODO") == "bodo"
    assert fold("Ærøskøbing") == "aeroskobing" and fold("Œuvre") == "oeuvre"
    assert fold("Straße") == fold("STRASSE") == "strasse"
    assert fold("Łódź") == "lodz" and fold("Đakovo") == "dakovo"
    assert fold("Þórshöfn") == "thorshofn" and fold("Kırıkkale") == "kirikkale"
    assert fold("Ħamrun") == "hamrun" and fold("Göteborg") == "goteborg"
    # what the fold did before stays: accents, punctuation variants, spacing
    assert fold("Côte d’Ivoire") == fold("COTE D'IVOIRE ") == "cote d'ivoire"
    assert fold("a – b\u00a0 c") == "a - b c"
    # other scripts are not transliterated
    assert fold("Москва") == "москва"


def test_transliterate_keeps_case_for_identifiers():
    from lakejoin_jupyter.join.plan import python_name
    assert transliterate("Bodø Havn") == "Bodo Havn" and transliterate("Þing") == "THing"
    assert python_name("Bodø-havn") == "bodo_havn" and python_name("Łódź") == "lodz"
    assert python_name("Straße") == "strasse"


# Latin text: the letters of Basic Latin, Latin-1 Supplement and Latin Extended-A (but µ,
# a Greek letter there), the table's Extended-B letters, digits, spaces, combining marks
# and ASCII or folded punctuation
LATIN = st.text(st.characters(
    categories=("Lu", "Ll", "Lt", "Lo", "Nd", "Zs", "Mn"), exclude_characters="µ",
    include_characters="".join(LATIN_ASCII) + "".join(map(str.upper, LATIN_ASCII))
    + "ẞ’‘“”–—!\"#$%&'()*+,-./:;<=>?@[]^_`{|}~", max_codepoint=0x17F), max_size=30)


@settings(max_examples=400, deadline=None)
@given(LATIN)
def test_fold_of_latin_text_is_ascii_and_idempotent(text):
    f = fold(text)
    assert f.isascii(), (text, f)
    assert fold(f) == f


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_fold_is_idempotent_on_any_text(text):
    f = fold(text)
    assert fold(f) == f


def test_every_folding_site_reads_the_one_fold():
    from lakejoin_jupyter.join.autojoin.fuzzy import tokens
    from lakejoin_jupyter.join.fuzzy import NegativeRules
    assert tokens("Herøya", "3gram") == tokens("HEROYA", "3gram")
    assert tokens("Bodø Havn", "word") == frozenset({"bodo", "havn"})
    rules = NegativeRules(["Bodø"], ["Bodo"])
    assert rules.lt == rules.rt == [frozenset({"bodo"})]
    e = get_embedder("ngram:dim=64")
    v = e.embed(["Karmøy", "karmoy", "Tromsø", "Tromso"])
    assert np.array_equal(v[0], v[1]) and np.array_equal(v[2], v[3])
    assert e.spec()["fold"] == FOLD_ID


def test_a_spec_recorded_with_another_fold_is_refused():
    spec = get_embedder("ngram:dim=64").spec()
    assert get_embedder(spec).spec() == spec                       # the current fold
    assert get_embedder({"name": "ngram", "dim": 64}).dim == 64    # a spec naming no fold
    with pytest.raises(FoldChangedError, match="nfkd-casefold-strip-accents'.*Rebuild"):
        get_embedder(dict(spec, fold="nfkd-casefold-strip-accents"))


@pytest.mark.spark
def test_an_index_built_with_the_old_fold_is_stale(spark, tmp_path, ip, capsys):
    """An index whose manifest records the earlier fold is refused on open (as one of an
    older normalization is), with the stale component and the rebuild command; --add
    refuses it; ``--reuse`` rebuilds it with the options it was built with."""
    from conftest import write_lake

    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.cli import main as cli
    lake = write_lake(tmp_path / "lake", {
        "ports.csv": pd.DataFrame({"port": ["Bodø", "Herøya", "Karmøy", "Tromsø", "Oslo"],
                                   "code": ["BOO", "HRY", "KMY", "TOS", "OSL"]})})
    more = write_lake(tmp_path / "more", {"other.csv": pd.DataFrame({"p": ["Bergen", "Oslo"]})})
    out = tmp_path / "ix"
    assert cli(["index", str(lake), "--out", str(out), "-q", "--with", "pexeso", "--with",
                "union", "--set", "pexeso.pivots=2", "--set",
                "pexeso.embedder=ngram:dim=64"]) == 0
    q = pd.DataFrame({"p": ["Bodo", "Heroya", "Karmoy", "Tromso"]})
    res = open_index(out).search(q, "p", method="pexeso", tau=0.1, joinability=0.5, k=5)
    assert [(h.table, h.column) for h in res] == [("ports", "port")]   # ø folds to o

    mpath = out / "manifest.json"
    manifest = json.loads(mpath.read_text(encoding="utf-8"))
    for comp in ("pexeso", "union"):
        assert manifest["components"][comp]["embedder"]["fold"] == FOLD_ID
    manifest["components"]["union"]["embedder"]["fold"] = "nfkd-casefold-strip-accents"
    mpath.write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(IndexVersionError, match=r"stale for union: its ngram embedder folded "
                                                r"values with 'nfkd-casefold-strip-accents'.*"
                                                r"rebuild the index: `lakejoin index "):
        open_index(out)
    capsys.readouterr()
    assert cli(["index", "--add", str(more), str(out), "-q"]) != 0
    assert "stale for union" in capsys.readouterr().err

    ip.run_line_magic("lakejoin", f"index {lake} --out {out} --reuse --quiet")
    assert "Rebuilding" in capsys.readouterr().out
    manifest = json.loads(mpath.read_text(encoding="utf-8"))
    assert {c: manifest["components"][c]["embedder"]["fold"] for c in ("pexeso", "union")} \
        == {"pexeso": FOLD_ID, "union": FOLD_ID}
    assert manifest["components"]["pexeso"]["embedder"]["dim"] == 64    # its options kept
    res = open_index(out).search(q, "p", method="pexeso", tau=0.1, joinability=0.5, k=5)
    assert [(h.table, h.column) for h in res] == [("ports", "port")]
