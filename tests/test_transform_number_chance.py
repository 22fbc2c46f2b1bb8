"""The "Needs a transformation" search drops a hit whose program reads a small-range number
out of the query's values (a day cut out of dates) and meets the lake column's numbers no
more often than as many random numbers of that range would (join/autojoin/chance.py
``range_tail``; docs/algorithms/transform_search.md, "Numbers read out of dates"). Found by
use: a month of dates against weather tables joined every temperature column through
`part 3 (split at "-")`, at up to 100 %, each listed as "likely coincidental"."""
from __future__ import annotations

import calendar
import datetime as dt
import itertools
import random

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin.chance import SMALL_SPAN, range_tail
from lakejoin_jupyter.join.autojoin.discovery import numbers_by_chance

from conftest import write_lake


def brute_tail(outputs, keys) -> float:
    """The share of all sets of as many distinct integers from the outputs' range that meet
    at least as many keys as the outputs do (every set enumerated)."""
    outs = sorted({int(o) for o in outputs})
    lo, hi = outs[0], outs[-1]
    keyset = {int(k) for k in keys if k.lstrip("-").isdigit()}
    met = sum(o in keyset for o in outs)
    sets = list(itertools.combinations(range(lo, hi + 1), len(outs)))
    return sum(sum(x in keyset for x in s) >= met for s in sets) / len(sets)


@pytest.mark.parametrize("seed", range(12))
def test_range_tail_equals_the_share_of_random_draws(seed):
    rng = random.Random(seed)
    lo = rng.randint(-3, 20)
    span = rng.randint(4, 13)
    outs = rng.sample(range(lo, lo + span), rng.randint(2, span))
    outs += [lo, lo + span - 1]                 # the range is the outputs' own
    keys = {str(v) for v in rng.sample(range(lo - 5, lo + span + 5), rng.randint(1, span))}
    keys.add(str(rng.choice(outs)))             # at least one output meets a key
    keys |= {"n/a", "3.5"}                      # not integers: never counted
    outputs = {str(o) for o in outs}
    assert range_tail(outputs, keys) == pytest.approx(brute_tail(outputs, keys))


def test_range_tail_applies_to_small_ranges_of_integers_only():
    days = [str(d) for d in range(1, 32)]
    temps = {str(t) for t in range(-10, 100)}
    assert range_tail(days, temps) == pytest.approx(1.0)   # any 31 numbers meet as many
    sparse = {"3", "17", "29", "100"}          # a column holding only the query's days
    assert range_tail(["3", "17", "29"], sparse) == pytest.approx(1 / 2925)   # C(27, 3)
    assert range_tail(days, {"x", "y"}) is None                    # no output meets a key
    assert range_tail(["a1", "7"], {"a1", "7"}) is None            # a joined output no number
    assert range_tail([str(d) for d in range(1, SMALL_SPAN + 2)], temps) is None  # too wide
    assert range_tail(["1", "2", "3"], {"1", "2", "3"}) == pytest.approx(1.0)
    # the numbers of zero-padded codes ("port-00022") against a sparse column of ports
    assert not numbers_by_chance({"22": 1, "25": 1, "53": 1, "80": 1},
                                 {"22", "25", "53", "80", "443"}, source_is_numbers=False)
    assert numbers_by_chance(dict.fromkeys(days, 1), temps, source_is_numbers=False)
    assert not numbers_by_chance(dict.fromkeys(days, 1), temps, source_is_numbers=True)


def weather_lake(seed: int) -> tuple[dict, list, str]:
    """A year of daily weather (dates as m/d/yyyy, temperatures that hold most numbers from
    1 to 31, the day of the month itself) and a table of unique small integers; the query
    is every date of one month of that year, ISO. Returns the tables, the query and the
    name of the date column."""
    rng = random.Random(seed)
    year = rng.randint(2010, 2020)
    days = [dt.date(year, 1, 1) + dt.timedelta(days=d) for d in range(365)]
    weather = pd.DataFrame({
        "date": [d.strftime("%m/%d/%Y") for d in days],
        "actual_min_temp": [rng.randint(-5, 70) for _ in days],
        "record_max_temp": [rng.randint(20, 105) for _ in days],
        "day": [d.day for d in days]})
    codes = list(range(1, 151))
    rng.shuffle(codes)
    errno = pd.DataFrame({"errno": codes, "name": [f"E{rng.randrange(10**6):06d}x"
                                                   for _ in codes]})
    month = rng.randint(1, 12)
    query = [dt.date(year, month, d).isoformat()
             for d in range(1, calendar.monthrange(year, month)[1] + 1)]
    return {"weather/KXYZ.csv": weather, "sys/errno.csv": errno}, query, "date"


@pytest.fixture(scope="module", params=[1, 4])
def weather_engine(spark, tmp_path_factory, request):
    from lakejoin_jupyter import build_index
    tables, query, column = weather_lake(request.param)
    root = write_lake(tmp_path_factory.mktemp("wlake") / "lake", tables)
    out = tmp_path_factory.mktemp("widx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False,
                       components=["transform"]), query, column


@pytest.mark.spark
def test_a_day_cut_out_of_dates_is_no_hit_and_the_reformatted_dates_are(weather_engine):
    engine, query, column = weather_engine
    frame = pd.DataFrame({"seen": query})
    res = engine.search(frame, "seen", method="transform", k=10)
    ranked = [(h.table, h.column, round(h.score, 3), h.details["program"]) for h in res]
    assert [(h.table, h.column) for h in res] == [("weather/KXYZ", column)], ranked
    dates = res[0]
    assert dates.details["coverage"] == 1.0 and dates.details["key_warning"] is None
    us = {dt.date.fromisoformat(q).strftime("%m/%d/%Y") for q in query}
    assert set(dates.details["matched_tokens"]) == set(query) and len(us) == len(query)
    # the temperatures, the day column and the unique integers were verified and dropped
    assert res.stats["chance_numbers"] >= 3, res.stats
    # the month is read from the value, not written as the query month's constant
    assert f'"{query[0][5:7]}/"' not in dates.details["program"], dates.details["program"]


def test_an_empty_result_says_how_many_hits_chance_explained():
    from lakejoin_jupyter.engine import Query, SearchResult
    from lakejoin_jupyter.search.registry import SearchParams
    stats = {"paired_columns": 36, "verified": 20, "chance_numbers": 14, "short_segments": True}
    query = Query(columns=("seen",), tokens=[], size=28)
    res = SearchResult([], query, "transform", SearchParams(), 0.1, stats)
    assert "14 column(s) joined only through small numbers" in res.empty_message
    res = SearchResult([], query, "transform", SearchParams(), 0.1,
                       {**stats, "chance_numbers": 0})
    assert "small numbers" not in res.empty_message


def us_date(iso: str) -> str:
    return dt.date.fromisoformat(iso).strftime("%m/%d/%Y")


@pytest.mark.parametrize("seed", [1, 4, 7])
def test_the_search_learner_reads_the_month_the_lake_column_varies(seed):
    """The transformation search learns from the query's values and their partners, every
    one of the query's month: "01/" is in all the partners, in a twelfth of the lake
    column. Deviation 55 measures a digit constant on the column: the month is read from
    the value, and a query of another month joins its own days."""
    from lakejoin_jupyter.join.autojoin.discovery import learn_program
    from lakejoin_jupyter.join.autojoin.dsl import evaluate_columns
    tables, query, column = weather_lake(seed)
    lake = tables["weather/KXYZ.csv"][column].tolist()
    partners = [us_date(q) for q in query]       # the rows the search pairs and learns on
    pairs = [(i, i, 1.0) for i in range(len(query))]
    program, forward = learn_program(pairs, query, partners, ("seen", column),
                                     columns=(query, lake))
    year = int(query[0][:4])
    month = 3 if query[0][5:7] != "03" else 4
    other = [dt.date(year, month, d).isoformat() for d in range(1, 29)]
    if forward:
        out = evaluate_columns(program.expr, {"seen": other}, len(other))
        assert out == [us_date(q) for q in other], program.describe()
    else:
        out = evaluate_columns(program.expr, {column: [us_date(q) for q in other]}, len(other))
        assert out == other, program.describe()
    assert f'"{query[0][5:7]}/"' not in program.describe()


def test_the_search_learner_reads_the_year_a_lake_of_two_years_varies():
    """Over two years the year is a field too: a twelfth of a query year's month written
    as constants ("/2012") is in half the column; read from the value, the program joins a
    month of the other year."""
    from lakejoin_jupyter.join.autojoin.discovery import learn_program
    from lakejoin_jupyter.join.autojoin.dsl import evaluate_columns
    days = [dt.date(2012, 1, 1) + dt.timedelta(days=d) for d in range(731)]
    lake = [d.strftime("%m/%d/%Y") for d in days]
    query = [dt.date(2012, 1, d).isoformat() for d in range(1, 32)]
    pairs = [(i, i, 1.0) for i in range(31)]
    program, forward = learn_program(pairs, query, [us_date(q) for q in query],
                                     ("seen", "date"), columns=(query, lake))
    assert forward, program.describe()
    other = [dt.date(2013, 5, d).isoformat() for d in range(1, 32)]
    out = evaluate_columns(program.expr, {"seen": other}, len(other))
    assert out == [us_date(q) for q in other], program.describe()


def test_numbers_wrapped_in_constants_are_tested_against_chance():
    """"N" + a state code + "A1" meets penguin ids N1A1 ... N100A1 whatever the codes
    (a random draw of codes from 1..99 meets 94 of 99 as often); a lake column holding a
    third of the range, every query code among them, is no coincidence; a program writing
    no constant around its number is not this test's."""
    from lakejoin_jupyter.join.autojoin.discovery import wrapped_numbers_by_chance
    from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program, Substring
    program = Program((Constant("N"), Substring(Column("fips"), None, None), Constant("A1")))
    rng = random.Random(5)
    nests = [n for n in range(1, 101) if n not in (3, 7, 14, 43, 52, 60)]
    keys = {f"n{n}a{k}" for n in nests for k in (1, 2)}
    codes = rng.sample([n for n in nests if n < 100], 20)
    assert wrapped_numbers_by_chance({f"N{c}A1": 1 for c in codes}, keys, program)
    third = set(rng.sample(range(1, 100), 33))
    items = {f"n{n}a1" for n in third}
    query = rng.sample(sorted(third), 20)
    assert not wrapped_numbers_by_chance({f"N{c}A1": 1 for c in query}, items, program)
    bare = Program((Substring(Column("fips"), None, None),))
    assert not wrapped_numbers_by_chance({str(c): 1 for c in codes}, {str(n) for n in nests},
                                         bare)
