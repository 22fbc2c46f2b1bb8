"""Issue 26 round 11: a separator written as another punctuation character everywhere
("zh_Hant_TW" -> "zh-Hant-TW", deviation 32) and the other direction's accepted program
named by explain() (reporting only; deviation 33 is round 12's). Hand-built tables with
hand-checked programs, and joins checked row by row."""
from __future__ import annotations

import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.learn import _separator_swaps

LOCALES = [
    "af", "af_ZA", "ar_EG", "az_Cyrl_AZ", "az_Latn_AZ", "be_BY", "bs_Cyrl_BA", "bs_Latn_BA",
    "ca_ES", "cs_CZ", "da_DK", "de", "de_AT", "de_CH", "el_GR", "en", "en_GB", "en_US",
    "es_419", "es_MX", "fa_IR", "fi_FI", "fr_CA", "ha_Latn_NG", "hu_HU", "is_IS", "it_IT",
    "ja_JP", "kk_Cyrl_KZ", "ko_KR", "mn_Mong_CN", "nl_BE", "pa_Arab_PK", "pa_Guru_IN",
    "pt_BR", "ru_RU", "sr_Cyrl_RS", "sr_Latn_ME", "sv_SE", "uz_Arab_AF", "uz_Latn_UZ",
    "vai_Vaii_LR", "zh", "zh_Hans_CN", "zh_Hant_HK", "zh_Hant_TW", "zu_ZA",
    "ca_ES_VALENCIA", "en_US_POSIX", "de_DE_1901", "sl_IT_ROZAJ", "be_BY_TARASK"]


def test_separator_swaps_hand_checked():
    news = ["", "-", " "]
    assert _separator_swaps(("zh_Hant_TW", "aa_DJ", "en"), ("zh-Hant-TW", "aa-DJ", "en"),
                            news, {}) == {("_", "-")}
    # inside a longer output, and the value without the separator as it is
    assert _separator_swaps(("bruce_wayne", "batman"), ("/wiki/Bruce Wayne", "/wiki/Batman"),
                            news, {}) == {("_", " ")}
    # dropped everywhere
    assert _separator_swaps(("U.S.A.", "U.K."), ("USA", "UK"), news, {}) == {(".", "")}
    # every example must fit: "." of "H.W." is kept in one output and swapped in the other
    assert _separator_swaps(("www.nfl.com", "H.W."), ("www-nfl-com", "H.W."), news, {}) == set()
    # nothing to swap: every value occurs as it is
    assert _separator_swaps(("aa-DJ", "en"), ("aa-DJ", "en"), news, {}) == set()
    # a value without the separator must occur as it is
    assert _separator_swaps(("aa_DJ", "en"), ("aa-DJ", "eng"), news, {}) == {("_", "-")}
    assert _separator_swaps(("aa_DJ", "en"), ("aa-DJ", "fr"), news, {}) == set()


def test_separator_swaps_memo_kept_per_set_characters():
    """The per-output memo holds fits drawn from one set's output characters: a set with
    the same output and other characters gets its own ("ⓑ", circled b, is written by
    another output of the first set only; "aⒷb" holds it once lower-cased)."""
    def news_of(outputs):
        return [""] + sorted({ch for o in outputs for ch in o if not ch.isalnum()})
    cache: dict = {}
    first = (("a_b", "z"), ("aⒷb", "ⓑ"))
    second = (("a_b", "z"), ("aⒷb", "z"))
    assert _separator_swaps(*first, news_of(first[1]), cache) == set()
    assert _separator_swaps(*second, news_of(second[1]), {}) == set()
    assert _separator_swaps(*second, news_of(second[1]), cache) == set()   # not ("_", "ⓑ")


def test_locale_tags_every_separator_swapped():
    """One to four parts: the thesis's split programs fix the number of parts (a program
    per form, in a program set of at most 3 branches, so one form is lost); the swap is
    one program for every form."""
    src = pd.DataFrame({"locale": LOCALES})
    tags = [v.replace("_", "-") for v in LOCALES]
    tgt = pd.DataFrame({"tag": tags[::-1]})
    aj = autojoin(src, tgt, fuzzy=False)
    assert aj.found
    assert aj.program.describe() == '`locale` with "_" as "-"'
    joined = aj.join(src)
    assert len(joined) == len(LOCALES)
    assert list(joined["tag"]) == tags


def test_explain_shows_the_other_directions_program():
    """Both directions join (the state codes from the URLs, the URLs from the codes): the
    answer names the other direction's accepted program, so a user can pick it."""
    states = ["NY", "CA", "TX", "WA", "OR", "NV", "AZ", "OH", "PA", "GA", "MI", "NJ"]
    left = pd.DataFrame({"state": states})
    urls = [f"https://www.{s.lower()}.gov/" for s in states]
    right = pd.DataFrame({"portal": urls[::-1]})
    aj = autojoin(left, right, fuzzy=False)
    assert aj.found and aj.source == "right"
    other = aj.stats["directions"]["left"]["accepted"]
    assert other["program"] == '"https://www." + lower(`state`) + ".gov/"'
    assert (other["coverage"], other["joined_rows"], other["target_rows"]) == (12, 12, 12)
    text = aj.explain()
    assert ('The other direction also joins: "https://www." + lower(`state`) + ".gov/" (the '
            "left table's rows) equals 'portal' of the right table for 12 of 12 rows") in text
    assert ("directions compete on the fraction of their target's rows joined (on keys joined "
            "when both join 1:1).") in text
    # one direction only (the codes repeat: no key on that side): nothing to show
    codes = autojoin(pd.DataFrame({"code": ["x1", "x2", "x3", "x4"] * 3}),
                     pd.DataFrame({"label": ["Item x1", "Item x2", "Item x3", "Item x4"]}),
                     fuzzy=False)
    assert codes.found
    assert "other direction" not in codes.explain()
