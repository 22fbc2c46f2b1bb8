"""Auto-Join round 30: the rows a token-bag reading contradicts are a count over every
joined row without evidence, not a sample beside the rows with evidence (the estimated
precision, deviation 56); a q-gram pair whose value and key read as token bags apart
confirms no widening branch (deviation 57); a program learned again reads numbers whole on
other source rows too, and is padded where that joins more (deviation 58). Hand-built
tables with hand-checked answers, and a development case."""
from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from conftest import read_case
from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.learn import (Candidate, Example, LearnSettings, no_digits,
                                                  try_learn_transform)
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair
from lakejoin_jupyter.join.autojoin.pipeline import Table, _coverage, _unfolded
from lakejoin_jupyter.join.autojoin.programset import (_widens, estimated_precision,
                                                       partner_keys)


def _program(columns: tuple, outputs: list):
    return SimpleNamespace(columns=columns, evaluate=lambda cells, n: list(outputs))


# ---------------------------------------------------------------- the bags read apart


def _polls(n_plain: int):
    """Polls (start, end) onto model dates through the end date: rows 0-2 have a bag pair
    of the end date ("8/7/18" with "8/7/2018"), the next ``n_plain`` rows none (their end
    date reads as the key, right); the last row is given the key "9/30/2018" that neither
    date reads as (wrong, contradicted)."""
    start = [f"{m}/{d}/18" for m, d in [(8, 5), (8, 9), (8, 12)]]
    end = [f"{m}/{d}/18" for m, d in [(8, 7), (8, 12), (8, 14)]]
    for i in range(n_plain):
        start.append(f"{10 + i % 3}/{1 + i}/18")
        end.append(f"{10 + i % 3}/{3 + i}/18")
    start.append("9/28/18")
    end.append("9/29/18")
    keys = [e[:-2] + "2018" for e in end[:-1]] + ["9/30/2018"]
    src = Table(pd.DataFrame({"Start": start, "End": end}), "polls")
    groups = [PairGroup("End", "modeldate", [RowPair(i, i, "", 1.0) for i in range(3)])]
    return src, keys, groups


def _brute_precision(src, keys):
    """Hand-checked truth: a row is right where its key is its end date with the year whole."""
    end = src.cells("End")
    return sum(k == e[:-2] + "2018" for k, e in zip(keys, end)) / len(keys)


def test_contradicted_rows_count_over_every_joined_row():
    for n_plain in (3, 6, 16):
        src, keys, groups = _polls(n_plain)
        truth = _brute_precision(src, keys)
        assert truth == (len(keys) - 1) / len(keys)
        program = _program(("Start", "End"), keys)
        est = estimated_precision(program, src, keys, groups, "modeldate")
        # main: 3 agreeing rows and 1 contradicted, as if the 4 were the sample: 0.75 for
        # every n; the contradicted row is 1 of the len(keys) joined rows
        assert abs(est - truth) < 1e-9


def test_the_rate_of_the_checked_rows_holds_for_the_rest():
    # rows 0-2 checked, row 1's evidence names another key (a wrong row among the checked:
    # rate 2/3); 7 rows without evidence, one of them contradicted: 2/3 of the 6 others are
    # taken as right, so (2 + 6 * 2/3) / 10 = 2/3 * 9/10. Row 1's evidence names row 5's
    # key, which no evidence of row 5 confirms (round 32: naming row 2's key, which row 2's
    # own evidence confirms, would be a mention in this 1:1 join, deviation 60)
    src, keys, _ = _polls(6)
    groups = [PairGroup("End", "modeldate", [RowPair(0, 0, "", 1.0), RowPair(1, 5, "", 1.0),
                                            RowPair(2, 2, "", 1.0)])]
    est = estimated_precision(_program(("Start", "End"), keys), src, keys, groups, "modeldate")
    assert abs(est - 2 / 3 * 9 / 10) < 1e-9         # main: 2 of 4 (0.5)


def test_without_a_contradiction_the_checked_rows_alone():
    src, keys, groups = _polls(6)
    keys = keys[:-1] + [src.cells("End")[-1][:-2] + "2018"]
    est = estimated_precision(_program(("Start", "End"), keys), src, keys, groups, "modeldate")
    assert est == 1.0


# ---------------------------------------------------------------- pairs through shared words


def _start_dates():
    """Polls of 2017 and 2018 (start dates "10/30/17") against model dates of 2018
    ("10/30/2018"). Rows 0-3 (2018) have a bag pair with their own day; rows 4-7 (2017)
    have only a q-gram pair with the 2018 day of the same month and day ("10/30/"), which
    the truth does not join: no 2017 model date is in the target."""
    start = ["8/5/18", "8/9/18", "8/12/18", "9/2/18",
             "10/30/17", "10/29/17", "12/1/17", "12/3/17"]
    target = ["8/5/2018", "8/9/2018", "8/12/2018", "9/2/2018",
              "10/30/2018", "10/29/2018", "12/1/2018", "12/3/2018"]
    src = Table(pd.DataFrame({"Start": start}), "polls")
    pairs = [RowPair(i, i, "", 1.0) for i in range(4)] + \
        [RowPair(i, i, start[i][:-2], 0.5) for i in range(4, 8)]
    return src, target, [PairGroup("Start", "modeldate", pairs)]


def test_a_pair_through_shared_words_whose_bags_read_apart_is_no_partner():
    src, tcells, groups = _start_dates()
    partners = partner_keys(groups, src, tcells, "modeldate")
    assert partners[:4] == [{k} for k in tcells[:4]]      # bag pairs: their own day
    assert partners[4:] == [set()] * 4                    # main: {"10/30/2018"}, ...
    # a branch giving the 2017 polls the 2018 date (`Start without its last 3 letters +
    # "/2018"`) after a set joining rows 0-3: 4 rows gained, all wrong, none confirmed
    current = tcells[:4] + [None] * 4
    option = tcells[:4] + [s[:-3] + "/2018" for s in src.cells("Start")[4:]]
    assert option[4:] == tcells[4:]
    assert _widens(current, option, set(tcells), set(), partners) == 0   # main: 4


def test_a_pair_through_shared_words_stays_where_bags_do_not_read_apart():
    # without a bag pair in the column, or with bags of another size ("john smith jr" onto
    # "john smith": a word dropped), a q-gram pair is a partner as before
    src, tcells, groups = _start_dates()
    grams = [PairGroup("Start", "modeldate", [p for p in groups[0].pairs if p.gram])]
    assert partner_keys(grams, src, tcells, "modeldate")[4:] == [{k} for k in tcells[4:]]
    names = Table(pd.DataFrame({"n": ["Ann Lee", "Bo Ray", "John Smith Jr."]}), "people")
    keys = ["ann lee", "bo ray", "john smith"]
    pairs = [RowPair(0, 0, "", 1.0), RowPair(1, 1, "", 1.0), RowPair(2, 2, "john s", 0.5)]
    assert partner_keys([PairGroup("n", "k", pairs)], names, keys, "k") == \
        [{"ann lee"}, {"bo ray"}, {"john smith"}]


# ---------------------------------------------------------------- mueller_topline_dates


def _mueller():
    polls, model, truth = read_case("autojoin-fresh5/mueller_topline_dates", "source", "target",
                                    "ground_truth")
    aj = autojoin(polls, model, fuzzy=False)
    j = aj.join()
    got = {(r.Start, r.End, r.Pollster, r.modeldate) for r in j.itertuples() if r.modeldate}
    right = {(r.Start, r.End, r.Pollster, r.modeldate) for r in truth.itertuples()}
    return aj, got, right


def test_poll_end_dates_join_no_2017_poll():
    # fresh5's mueller_topline_dates (development): every 2018 poll's end date is its model
    # date; no 2017 model date is in the target. main added a branch giving 5 polls of 2017
    # a 2018 date (`Start without its last 3 letters + "/2018"`), a widening confirmed by
    # q-gram pairs "10/30/17" ~ "10/30/2018": 34 of 39 joined rows right (F1 0.932)
    aj, got, right = _mueller()
    assert got == right, sorted(got - right)[:5]
    assert "2018\"" not in aj.program.describe()
    # the estimate: 10 of the 11 rows with evidence agree (a poll whose start date's bag
    # pairs it with that day's model date, while the truth reads the end date)
    assert abs(aj.estimated_precision - 10 / 11) < 1e-9


# ---------------------------------------------------------------- positional cuts of one month


def _weather():
    """A month of padded query dates (July 2014) and a year of lake dates without zero
    padding ("2014-7-13" ... "2015-6-30"), as in deviation 55's test."""
    query = pd.date_range("2014-07-01", periods=30)
    lake = pd.date_range("2014-07-01", "2015-06-30")
    return (list(query.strftime("%Y-%m-%d")), [f"{d.year}-{d.month}-{d.day}" for d in lake])


def _padded(text: str) -> str:
    """The hand-checked answer: year, then month and day padded to 2."""
    y, m, d = text.split("-")
    return f"{y}-{int(m):02d}-{int(d):02d}"


LATE_JULY = (12, 14, 23)          # query rows whose days (13, 15, 24) have two digits


def test_a_cut_after_a_one_digit_month_is_inside_a_two_digit_one():
    # lake -> query from days of July with two digits, no digit constant (deviation 55's
    # other direction): main learned `first 5 letters + part 2 padded to 2 + date from
    # letter 7` ("-13" of "2014-7-13"), which is "0-13" of "2014-10-13": on the lake's other
    # rows the cut starts between the two digits of the month
    query, lake = _weather()
    examples = [Example((lake[i],), query[i], i, i) for i in LATE_JULY]
    program = try_learn_transform(examples, ["date"], LearnSettings(), {},
                                  constant_ok=no_digits, whole_rows=[(v,) for v in lake])
    for text in lake:
        if int(text.split("-")[2]) >= 10:       # the examples show no day of one digit
            assert program({"date": text}) == _padded(text), program.describe()


def test_the_month_learned_again_is_padded_where_that_joins_more():
    # the folding candidate `"2014-07-" + ...` (every month's day onto July) learned again
    # without digit constants from days of two digits writes the day as it is; its padded
    # variant joins the 9 days of one digit too, and replaces the folding candidate
    query, lake = _weather()
    examples = [Example((lake[i],), query[i], i, i) for i in LATE_JULY]
    src = Table(pd.DataFrame({"date": lake}), "lake")
    folding = try_learn_transform(examples, ["date"], LearnSettings(), {})
    assert '"2014-07' in folding.describe()
    cand = Candidate(folding, 0, "date", examples)
    _coverage(cand, src, query)
    assert cand.extra["folds"] > 0
    ranked = _unfolded([cand], {(folding, "date"): cand}, src, {"date": query},
                       LearnSettings(), {})
    best = ranked[0].program
    assert ranked[0].coverage == 30 and ranked[0].extra["folds"] == 0, best.describe()
    for text in lake:
        assert best({"date": text}) == _padded(text), best.describe()   # main: the folding one
