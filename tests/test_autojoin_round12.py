"""Issue 26 round 12: in an N:1 join, a program learned from the rows the current program
leaves unjoined replaces it when it joins every key it joins through more source rows
("aa_DJ" and "aa_DJ.UTF-8" onto "aa_DJ", deviation 33). Hand-built tables with
hand-checked programs, and joins checked row by row."""
from __future__ import annotations

import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.dsl import Column, Program, ProgramSet, SelectK, Split
from lakejoin_jupyter.join.autojoin.pairs import PairGroup
from lakejoin_jupyter.join.autojoin.programset import _replaces, rejoin_groups, score

KEYS = ["aa_DJ", "af_ZA", "agr_PE", "an_ES", "ar_EG", "ast_ES", "be_BY", "be_BY@latin",
        "bg_BG", "br_FR", "bs_BA", "ca_AD", "ca_ES", "ca_ES@valencia", "cs_CZ", "cy_GB",
        "da_DK", "de_AT", "de_BE", "de_CH", "de_DE", "el_GR", "en_AU", "en_GB", "en_US",
        "eo", "es_AR", "es_ES", "et_EE", "eu_ES", "fi_FI", "fil_PH", "fr_FR", "ga_IE",
        "gl_ES", "he_IL", "hu_HU", "id_ID", "is_IS", "it_IT", "ja_JP", "ka_GE", "kk_KZ",
        "ko_KR", "lt_LT", "lv_LV", "nb_NO", "nl_NL", "pl_PL", "pt_BR", "pt_PT", "ro_RO",
        "ru_RU", "sk_SK", "sl_SI", "sr_RS@latin", "sv_SE", "tr_TR", "uk_UA", "zh_CN"]
CHARSETS = ["UTF-8", "ISO-8859-1", "ISO-8859-15", "KOI8-R", "EUC-JP", "GB18030"]


def _locales():
    """Every key once as it is, every other key also with a charset suffix: the identity
    joins every key (through 60 of 90 rows), so no key is left for a new branch."""
    out = []
    for i, k in enumerate(KEYS):
        out.append(k)
        if i % 2 == 0:
            out.append(f"{k}.{CHARSETS[i % len(CHARSETS)]}")
    return out


def test_charset_suffix_rows_join_their_locale():
    """The example pairs the learner sees first are equal values (they score 1), so the
    first round learns the identity; the rows with a charset suffix pair only with keys
    the identity already joins. The code before learned `locale` (60 of 90 rows)."""
    values = _locales()
    src = pd.DataFrame({"locale": values})
    tgt = pd.DataFrame({"source file": KEYS[::-1], "n": [str(i) for i in range(len(KEYS))]})
    aj = autojoin(src, tgt, fuzzy=False)
    assert aj.found
    assert aj.program.describe() == 'part 1 (split at ".") of `locale`'
    joined = aj.join(src)
    assert len(joined) == len(values)
    assert list(joined["source file"]) == [v.split(".")[0] for v in values]


def test_replaces_needs_every_key_and_more_rows():
    keys = {"a", "b", "c"}
    program = Program((Column("x"),))
    split = Program((SelectK(Split(Column("x"), "."), 0),))
    current = score(program, ["a", "b", None, None], keys)
    # every key the current joins, through more rows
    assert _replaces(current, score(split, ["a", "b", "a", None], keys), keys)
    # more rows but one key lost
    assert not _replaces(current, score(split, ["a", "c", "a", "c"], keys), keys)
    # the same rows only
    assert not _replaces(current, score(split, ["a", "b", None, None], keys), keys)
    # re-keys more rows than it gains: "b" moves to "c" on row 1 and row 2 gains "a", but
    # row 0 moves too (two re-keyed, one gained)
    cur = score(program, ["a", "b", None, "c"], keys)
    assert not _replaces(cur, score(split, ["c", "a", "a", "b"], keys), keys)
    # a program set is never a replacement
    both = ProgramSet(((None, split), (None, program)))
    assert not _replaces(current, score(both, ["a", "b", "a", None], keys), keys)


def test_rejoin_groups_keep_open_rows_to_joined_keys():
    class P:
        def __init__(self, s, t):
            self.source_row, self.target_row, self.score = s, t, 1.0
    tcells = ["aa_DJ", "af_ZA", "an_ES"]
    g = PairGroup("locale", "source file", [P(0, 0), P(1, 0), P(2, 2), P(3, 1)])
    joined = [True, False, False, False]
    got = rejoin_groups([g], "source file", joined, {"aa_DJ", "af_ZA"}, tcells)
    assert [(p.source_row, p.target_row) for p in got[0].pairs] == [(1, 0), (3, 1)]
    assert rejoin_groups([g], "other", joined, {"aa_DJ"}, tcells) == []
