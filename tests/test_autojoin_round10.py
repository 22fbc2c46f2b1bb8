"""Issue 26 round 10: summary tables of a survey. Survey ids meeting a summary's counts by
chance (deviation 9 tightened), a separator written as other text ("$50,000-$74,999" ->
"$50,000 to $74,999", deviation 29) and target columns of 2-4 keys (deviation 30).
Hand-built tables with hand-checked programs, and joins checked row by row."""
from __future__ import annotations

import random

import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.learn import (LearnSettings, _aligned_replacement,
                                                  example_sets)
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair
from lakejoin_jupyter.join.autojoin.pipeline import chance_matches

BRACKETS = ["$0-$9,999", "$10,000-$24,999", "$25,000-$49,999", "$50,000-$74,999",
            "$75,000-$99,999", "$100,000-$149,999", "$150,000-$199,999",
            "Prefer not to answer", "$200,000+"]


def _summary_key(bracket):
    """How the summary writes a bracket (by hand: "-" as " to ", "+" as " and up")."""
    return bracket.replace("-", " to ").replace("+", " and up")


def _survey(seed=0):
    rng = random.Random(seed)
    sizes = [40, 55, 70, 85, 100, 60, 110, 80, 45]       # distinct counts
    income = [b for b, k in zip(BRACKETS, sizes) for _ in range(k)]
    rng.shuffle(income)
    survey = pd.DataFrame({"respondent": [str(i) for i in range(1, len(income) + 1)],
                           "q0034": income,
                           "kids": [rng.choice(["Has children", "No children"])
                                    for _ in income]})
    counts = {b: income.count(b) for b in BRACKETS}
    assert len(set(counts.values())) == len(BRACKETS)     # counts are a key (distinct)
    summary = pd.DataFrame({"household income": [_summary_key(b) for b in BRACKETS],
                            "respondents": [str(counts[b]) for b in BRACKETS]})
    return survey, summary


def test_aligned_replacement_hand_checked():
    assert _aligned_replacement("$50,000-$74,999", "$50,000 to $74,999") == (("-$", " to $"),)
    assert _aligned_replacement("2000-2009", "2000 or 2009") == (("-", " or "),)
    assert _aligned_replacement("18-29", "18 - 29") == ()             # punctuation only
    assert _aligned_replacement("Bell`Jr", "Bell-Jr") == ()
    assert _aligned_replacement("2014/07", "Jul 2014") == ()          # sides out of order
    assert _aligned_replacement("a-b-c", "a to b to c") == ()         # "-" is not unique
    assert _aligned_replacement("New York", "NewYork") == ()          # nothing inserted
    assert _aligned_replacement("Prefer not", "Prefer not") == ()     # written alike
    assert _aligned_replacement("ab-cd", "ab and then also cd") == ()  # more than 8 characters
    assert _aligned_replacement("x-y", "x very y") == (("-", " ver"),)  # the first "y" after x


def test_survey_ids_meeting_summary_counts_are_chance():
    """Ids 1..645 contain every count of the summary: the numbers cover all 9 keys, the
    bracket program 8 ("$200,000+" is written "$200,000 and up"), but chance (every number
    of the range is an id) predicts exactly the 9."""
    survey, summary = _survey()
    ids = set(survey["respondent"])
    keys = set(summary["respondents"])
    assert keys <= ids
    # every id between the smallest and the largest count is present: chance = every key
    assert chance_matches(ids, keys) == len(keys)
    aj = autojoin(survey, summary, fuzzy=False)
    assert aj.found
    assert "respondent`" not in aj.program.describe()
    assert "q0034" in aj.program.columns


def test_bracket_separator_written_as_other_text():
    survey, summary = _survey()
    aj = autojoin(survey, summary, fuzzy=False)
    assert aj.program.describe() == '`q0034` with "-$" as " to $"'
    # row by row: every survey row joins the summary row of its bracket, the one without a
    # separator ("Prefer not to answer") included; "$200,000+" is not derivable
    joined = aj.join(survey)
    want = [_summary_key(b) for b in survey["q0034"] if b != "$200,000+"]
    assert list(joined["household income"]) == want


def test_two_key_summary_first_letter():
    rng = random.Random(1)
    n = 300
    gender = [rng.choice(["Female", "Male"]) for _ in range(n)]
    survey = pd.DataFrame({"RespId": [str(470000 + 7 * i) for i in range(n)],
                           "ppage": [str(rng.randint(18, 90)) for _ in range(n)],
                           "gender": gender})
    summary = pd.DataFrame({"sex": ["F", "M"],
                            "respondents": [str(gender.count("Female")),
                                            str(gender.count("Male"))]})
    aj = autojoin(survey, summary, fuzzy=False)
    assert aj.found and aj.program.describe() == "first letter of `gender`"
    joined = aj.join(survey)
    assert len(joined) == n and list(joined["sex"]) == [g[0] for g in gender]


def test_two_key_summary_needs_most_source_rows():
    """The same two keys, but only a tenth of the rows hold a matching category: a program
    joining every key through few rows is not trusted on a two-key target."""
    rng = random.Random(2)
    n = 300
    gender = [rng.choice(["Female", "Male"]) if i % 10 == 0
              else rng.choice(["Other", "Unknown", "Nonbinary"]) for i in range(n)]
    survey = pd.DataFrame({"gender": gender, "ppage": [str(rng.randint(18, 90))
                                                       for _ in range(n)]})
    summary = pd.DataFrame({"sex": ["F", "M"], "respondents": ["15", "16"]})
    assert not autojoin(survey, summary, fuzzy=False).found


def test_example_sets_of_a_two_key_column():
    pairs = [RowPair(0, 0, "f", 1.0), RowPair(1, 1, "m", 1.0), RowPair(2, 0, "f", 0.5)]
    group = PairGroup("gender", "sex", pairs)
    ls = LearnSettings()
    assert example_sets([group], ls) == [[]]                 # fewer than 3 distinct pairs
    sets = example_sets([group], ls, {"sex": 2})
    assert [[(p.source_row, p.target_row) for p in s] for s in sets[0]] == [[(0, 0), (1, 1)]]
    assert example_sets([group], ls, {"sex": 5}) == [[]]     # some keys not reached


def test_few_years_onto_a_dense_year_table_stay_a_join():
    """Four election years (every source row) onto yearly keys 2000..2016: the numbers fill
    the range, so chance predicts the 4 matches too, but every source row joins: a foreign
    key, kept (deviation 31 rejects only joins through a small share of the source)."""
    rng = random.Random(3)
    years = [rng.choice(["2000", "2004", "2008", "2012"]) for _ in range(80)]
    left = pd.DataFrame({"senator": [f"senator {chr(97 + i % 26)}{chr(97 + i // 26)}"
                                     for i in range(80)], "year": years})
    right = pd.DataFrame({"year": [str(y) for y in range(2000, 2017)],
                          "marriages": [str(rng.randint(100000, 999999)) for _ in range(17)]})
    aj = autojoin(left, right, fuzzy=False)
    assert aj.found and aj.program.describe() == "`year`"
    assert len(aj.join(left)) == 80
