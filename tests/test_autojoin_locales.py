"""glibc's supported locales ("de_DE.UTF-8", "de_AT@euro", "aa_DJ", "syr") against the ISO
3166 country codes: one program must join every form, and no program may win by keys that
its unconfirmed rows join by chance (docs/algorithms/autojoin.md, deviation 46). A pandas
oracle (the code after the first "_") gives the true pairs."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from conftest import write_lake

LOCALES = (Path(__file__).resolve().parents[1] / "bench" / "data" / "autojoin-fresh9"
           / "glibc_supported_locale_sources" / "source.csv")
CODES = (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ "
    "BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM "
    "DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS "
    "GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN "
    "KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ "
    "MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM "
    "PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV "
    "SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI "
    "VN VU WF WS YE YT ZA ZM ZW").split()


def _tables():
    countries = pd.DataFrame({"code": CODES, "name": [f"country {c}" for c in CODES]})
    locales = pd.read_csv(LOCALES, keep_default_na=False)
    return countries, locales


def _truth(countries, locales) -> set:
    """(code, locale) pairs: the locale's territory is the code (pandas oracle)."""
    cc = locales["locale"].str.extract(r"_([A-Z]{2})")[0]
    return {(c, loc) for c, loc in zip(cc, locales["locale"]) if c in set(countries["code"])}


def _pairs(joined) -> set:
    j = joined[joined["locale"].notna()]
    return set(zip(j["code"], j["locale"]))


def test_every_locale_form_joins_its_country_and_no_other():
    """The program joins "de_DE.UTF-8", "de_AT@euro" and "aa_DJ" alike (all 497 true pairs),
    and not "syr" onto Syria or "de_AT@euro" onto Australia: the code before was
    `upper(first letter of last part (split at "_")) + upper(letter 2 of last part (split at
    "@") of ...)`, 149 keys against the right program's 148, 8 of its rows wrong."""
    from lakejoin_jupyter.join.autojoin import autojoin
    countries, locales = _tables()
    aj = autojoin(countries, locales, "code", "locale")
    assert aj.found and aj.source == "right"
    got, want = _pairs(aj.join(fuzzy=False)), _truth(countries, locales)
    assert got - want == set()
    assert got == want and len(want) == 497
    assert aj.coverage == len({c for c, _ in want}) == 148


def test_a_replacement_must_be_confirmed_by_the_row_pairs():
    """Deviation 33's replacement joins every key the set joins through more rows; the rows
    it gains (not its examples) must mostly hold their new key among their step-1 partners."""
    from lakejoin_jupyter.join.autojoin.programset import _replaces, score
    from lakejoin_jupyter.join.autojoin.dsl import Column, Program, Substring
    keys = {"a", "b", "c"}
    current = score(Program((Substring(Column("x")),)), ["a", "b", None, None, None], keys)
    split = Program((Substring(Column("y")),))
    new = score(split, ["a", "b", "c", "a", "b"], keys)
    confirmed = [set(), set(), {"c"}, {"a"}, {"z"}]
    assert _replaces(current, new, keys, set(), confirmed)           # 2 of 3 confirmed
    unconfirmed = [set(), set(), {"c"}, {"q"}, {"z"}]
    assert not _replaces(current, new, keys, set(), unconfirmed)     # 1 of 3
    assert _replaces(current, new, keys, {3, 4}, unconfirmed)        # its own examples: 1 of 1
    assert _replaces(current, new, keys)                              # no partners given


def test_a_program_equal_on_the_examples_is_also_scored():
    """Examples "en_ZM", "ja_JP.UTF-8", "to_TO" are fit by `part 1 (split at ".") of part 2
    (split at "_")` (a whole part first, deviation 4) and, equally, by `first 2 letters of
    part 2 (split at "_")`, which the learner now returns as a variant."""
    from lakejoin_jupyter.join.autojoin.learn import Example, LearnSettings, try_learn_transform
    rows, outs = ["en_ZM", "ja_JP.UTF-8", "to_TO"], ["ZM", "JP", "TO"]
    ex = [Example((r,), o, i, i) for i, (r, o) in enumerate(zip(rows, outs))]
    variants: list = []
    program = try_learn_transform(ex, ["locale"], LearnSettings(), {}, variants=variants)
    assert program.describe() == 'part 1 (split at ".") of part 2 (split at "_") of `locale`'
    described = [v.describe() for v in variants]
    assert 'first 2 letters of part 2 (split at "_") of `locale`' in described
    for v in variants:            # each gives the examples' outputs
        assert [v({"locale": r}) for r in rows] == outs


def test_a_result_of_short_codes_has_an_estimate_from_the_chance_rate():
    """Two-letter codes have no 6+ character match nor a rare token bag; the estimate
    comes from the chance rate (deviation 47): every locale the program gives a territory
    gives an ISO code (no miss), so 1.0, and the explanation says how it was made."""
    from lakejoin_jupyter.join.autojoin import autojoin
    countries, locales = _tables()
    aj = autojoin(countries, locales, "code", "locale")
    assert aj.estimated_precision == 1.0 and aj.precision_basis == "chance"
    assert "No estimated precision" not in aj.explain()
    assert "chance rate of its short codes" in aj.explain()


@pytest.fixture(scope="module")
def locale_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    countries, locales = _tables()
    root = write_lake(tmp_path_factory.mktemp("loclake") / "lake",
                      {"geo/locales.csv": locales})
    out = tmp_path_factory.mktemp("locidx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False, components=["transform"])


@pytest.mark.spark
def test_the_transformation_hit_joins_every_locale_form(locale_engine):
    """The search's program `part 2 (split at "_")` joins the bare locales only (403 rows of
    the left join, against 598); Find transformation learned on those rows alone and kept
    it. The table is not large next to the query: it also learns on every row and keeps
    the join reaching more rows (the same as the direct Auto-Join)."""
    countries, locales = _tables()
    hit = next(h for h in locale_engine.search(countries, "code", method="transform", k=5)
               if h.column == "locale")
    aj = hit.autojoin(countries)
    assert aj.found
    want = _truth(countries, locales)
    joined = aj.join(fuzzy=False)
    assert _pairs(joined) == want
    assert len(joined) == len(countries.merge(
        pd.DataFrame(sorted(want), columns=["code", "locale"]), on="code", how="left")) == 598


def test_a_variant_is_kept_only_where_it_reaches_the_programs_own_keys():
    """`first 2 letters of part 2 (split at "_")` extends `part 1 (split at ".") of part 2`
    onto "bb_DE@euro" (DE, joined already); a row it would give a key of its own ("cc_FRX"
    onto FR) makes it another program, not kept."""
    from lakejoin_jupyter.join.autojoin.dsl import Column, Program, SelectK, Split, Substring
    from lakejoin_jupyter.join.autojoin.pipeline import Table, _extends
    part2 = SelectK(Split(Column("x"), "_"), 1, "")
    program = Program((Substring(SelectK(Split(part2, "."), 0, "")),))
    variant = Program((Substring(part2, None, 2),))
    keys = ["DE", "FR", "IT"]
    src = Table(pd.DataFrame({"x": ["aa_DE.UTF-8", "aa_DE", "bb_DE@euro"]}), "s")
    assert _extends(variant, program, src, keys)
    src = Table(pd.DataFrame({"x": ["aa_DE.UTF-8", "aa_DE", "bb_DE@euro", "cc_FRX"]}), "s")
    assert not _extends(variant, program, src, keys)
    src = Table(pd.DataFrame({"x": ["aa_DE.UTF-8", "aa_DE"]}), "s")
    assert not _extends(variant, program, src, keys)          # no row gained
