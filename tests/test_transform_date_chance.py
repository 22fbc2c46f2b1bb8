"""The "Needs a transformation" search drops a program whose outputs are dates of the lake
column's shape met no more often than random field combinations of that shape would meet
its dense date space, while a rule's would meet more (join/autojoin/chance.py
``dates_by_chance``; docs/algorithms/transform_search.md, "Dates tested in their own
space"). Found by use: visits stamped "3/3/24 10:18" against a daily table written
"18.10.2024" were joined through `minute + "." + hour + ".2024"` (the time of day read as a
day and month) for 23 % of the rows, with no warning; the per-position rate of the keys'
characters, pooled over one length, called 0.29 what the column fills at 0.5-1."""
from __future__ import annotations

import datetime as dt
import random

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin.chance import (_space_rates, date_spaces,
                                                    dates_by_chance)

from conftest import write_lake

START = dt.date(2023, 6, 1)


def daily(days: int = 700, fmt: str = "%d.%m.%Y", every: int = 1, start=START) -> list:
    return [(start + dt.timedelta(days=i)).strftime(fmt) for i in range(0, days, every)]


def stamps(seed: int, n: int = 262) -> list:
    """Visits on 3 and 4 March 2024 between 8:00 and 11:59, as "3/3/24 10:18"."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        m = rng.randrange(480, 720)
        out.append(f"3/{rng.choice((3, 4))}/24 {m // 60}:{m % 60:02d}")
    return out


def minute_hour(values) -> dict:
    """The chance program's distinct outputs: minute + "." + hour + ".2024"."""
    out = {}
    for v in values:
        h, m = v.split()[1].split(":")
        out[f"{m}.{h}.2024"] = out.get(f"{m}.{h}.2024", 0) + 1
    return out


def brute_rates(tries: list, lo: dt.date, hi: dt.date, keys: set) -> tuple:
    """The chance and rule rates by enumeration: every (year, month, day) of the tries'
    ranges between the span's ends (compared as numbers), valid dates read by datetime."""
    space = valid = held = 0
    for y in range(min(t[0] for t in tries), max(t[0] for t in tries) + 1):
        for m in range(min(t[1] for t in tries), max(t[1] for t in tries) + 1):
            for d in range(min(t[2] for t in tries), max(t[2] for t in tries) + 1):
                if not (lo.year, lo.month, lo.day) <= (y, m, d) <= (hi.year, hi.month, hi.day):
                    continue
                space += 1
                try:
                    day = dt.date(y, m, d)
                except ValueError:
                    continue
                valid += 1
                held += day.strftime("%d.%m.%Y") in keys
    return held / space, held / valid


@pytest.mark.parametrize("seed", range(6))
def test_the_space_rates_equal_an_enumeration(seed):
    rng = random.Random(seed)
    keys = set(daily(rng.randint(60, 900), every=rng.choice((1, 1, 2, 7)),
                     start=START + dt.timedelta(days=rng.randrange(400))))
    space = date_spaces(keys)[(".", (2, 2, 4))]
    assert space[0] == (2, 1, 0)                                  # day, month, year
    first = dt.datetime.strptime(min(keys, key=lambda k: k[6:] + k[3:5] + k[:2]), "%d.%m.%Y")
    tries = [(2024, rng.randint(1, 12), rng.randint(0, 59)) for _ in range(40)]
    tries = [t for t in tries if space[1] <= t[0] * 10_000 + t[1] * 100 + t[2] <= space[2]]
    if not tries:
        return
    last = dt.datetime.strptime(max(keys, key=lambda k: k[6:] + k[3:5] + k[:2]), "%d.%m.%Y")
    got = _space_rates(tries, space[1], space[2], space[3])
    want = brute_rates(tries, first.date(), last.date(), keys)
    if want[0] == 0:
        assert got is None
    else:
        assert got == pytest.approx(want)


def test_the_time_of_day_read_as_a_date_is_chance_and_a_reformatting_is_not():
    keys = set(daily())                                         # 700 days from 1 June 2023
    visits = stamps(19)
    made = minute_hour(visits)
    met = [o for o in made if o in keys]
    assert 0.15 < len(met) / len(made) < 0.5          # minutes 01..31 of 10-11 h, not 8-9 h
    assert dates_by_chance(made, keys)
    # the same days a rule writes: the visits' dates, and a month of dates, reformatted
    right = {dt.date(2024, 3, d).strftime("%d.%m.%Y"): 1 for d in (3, 4)}
    assert not dates_by_chance(right, keys)
    month = {dt.date(2024, 10, d).strftime("%d.%m.%Y"): 1 for d in range(1, 32)}
    assert not dates_by_chance(month, keys)
    # a rule's dates over thirty years, of which the table's two are met: not chance
    years = {(dt.date(2000, 1, 1) + dt.timedelta(days=i)).strftime("%d.%m.%Y"): 1
             for i in range(0, 11_000, 3)}
    assert not dates_by_chance(years, keys)
    # a sparse table (one day a week): the minutes meet it at half a rule's rate (half of
    # them are no day), and a month of dates, which meets 5 of its 31 days, stands
    weekly = set(daily(every=7))
    assert dates_by_chance(minute_hour(visits), weekly)
    assert sum(o in weekly for o in month) == 5 and not dates_by_chance(month, weekly)
    # no date shape: not this test's to decide
    assert not dates_by_chance({"ab": 1, "cd": 1}, {"ab", "cd", "ef"})


def test_the_mirror_case_unpadded_month_day_year():
    """Stamps "03.03.2024 10:18" against a daily table "3/3/24": `hour + "/" + minute +
    "/24"` meets the table as the minutes fall (9/18/24)."""
    keys = set(daily(fmt="%m/%d/%y").__iter__())
    keys = {f"{int(k[:2])}/{int(k[3:5])}/{k[6:]}" for k in keys}
    made = {}
    for v in stamps(3):
        h, m = v.split()[1].split(":")
        made[f"{h}/{m}/24"] = 1
    assert dates_by_chance(made, keys)
    right = {f"3/{d}/24": 1 for d in (3, 4)}
    assert not dates_by_chance(right, keys)


@pytest.fixture(scope="module")
def tag_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    rng = random.Random(28)
    days = daily()
    table = pd.DataFrame({"datum": days, "temp": [rng.randint(-5, 30) for _ in days]})
    root = write_lake(tmp_path_factory.mktemp("dlake") / "lake", {"weather/tag_de.csv": table})
    out = tmp_path_factory.mktemp("didx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False, components=["transform"])


@pytest.mark.spark
def test_the_search_drops_the_time_of_day_read_as_a_date(tag_engine):
    res = tag_engine.search(pd.DataFrame({"visited": stamps(19)}), "visited",
                            method="transform", k=3)
    assert [(h.table, h.details["program"]) for h in res] == [], res
    assert res.stats["chance"] >= 1, res.stats
    assert "joined by a program whose keys meet the column no more often than chance" \
        in res.empty_message, res.empty_message


@pytest.mark.spark
def test_the_search_keeps_dates_reformatted_into_the_dense_table(tag_engine):
    query = [(dt.date(2024, 9, 20) + dt.timedelta(days=i)).isoformat() for i in range(40)]
    res = tag_engine.search(pd.DataFrame({"seen": query}), "seen", method="transform", k=3)
    assert [(h.table, h.column) for h in res] == [("weather/tag_de", "datum")], res
    hit = res[0]
    assert hit.details["coverage"] == 1.0
    want = {dt.date.fromisoformat(q).strftime("%d.%m.%Y") for q in query}
    from lakejoin_jupyter.join.autojoin.dsl import Program, evaluate_columns
    program = Program.from_json(hit.details["program_json"])
    assert set(evaluate_columns(program.expr, {"seen": query}, len(query))) == want
