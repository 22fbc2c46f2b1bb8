"""Transformation-aware search ranks a hit by its coverage weighted by the kind of its key,
as the equality search weighs a key (join/preview.py ``usefulness``): a program that cuts a
day number out of a date and joins it onto a column of small unique integers (an
``errno``-like table) is a coincidence, and must not outrank a column holding the same
dates in another format (docs/algorithms/transform_search.md)."""
from __future__ import annotations

import datetime as dt
import random

import pandas as pd
import pytest

from lakejoin_jupyter.join.preview import affix_free, values_kind

from conftest import write_lake


def date_lake(seed: int) -> tuple[dict, list, set]:
    """Random distinct dates over ten years; the lake holds nine in ten of them as
    dd/mm/yyyy, a table of unique small integers (1..150, every day number among them) and
    one of words. Returns the tables, the query's dates (ISO, some rows repeated) and the
    dates the reformatted column holds."""
    rng = random.Random(seed)
    start = dt.date(2015, 1, 1)
    days = sorted(rng.sample(range(3650), 120))
    dates = [start + dt.timedelta(days=d) for d in days]
    held = [d for d in dates if rng.random() < 0.9]
    codes = list(range(1, 151))
    rng.shuffle(codes)
    tables = {
        "events.csv": pd.DataFrame({"when": [d.strftime("%d/%m/%Y") for d in held],
                                    "n": range(len(held))}),
        "errno.csv": pd.DataFrame({"errno": codes,
                                   "name": ["E" + "".join(rng.choice("ABCDEFGHJKLMNPRTUVW")
                                                          for _ in range(6)) for _ in codes]}),
    }
    query = [d.isoformat() for d in dates] + [d.isoformat() for d in rng.sample(dates, 30)]
    return tables, query, {d.isoformat() for d in held}


@pytest.fixture(scope="module")
def date_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    tables, query, held = date_lake(11)
    root = write_lake(tmp_path_factory.mktemp("dlake") / "lake", tables)
    out = tmp_path_factory.mktemp("didx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False,
                       components=["transform"]), query, held


@pytest.mark.spark
@pytest.mark.parametrize("rank", ["overlap", "useful"])
def test_reformatted_dates_outrank_a_day_number_coincidence(date_engine, rank):
    engine, query, held = date_engine
    frame = pd.DataFrame({"seen": query})
    res = engine.search(frame, "seen", method="transform", k=10, rank=rank)
    found = {(h.table, h.column): h for h in res}
    ranked = [(h.table, h.column, round(h.score, 3), h.details["program"]) for h in res]
    assert ("events", "when") in found, ranked
    events = found[("events", "when")]
    assert set(events.details["matched_tokens"]) == held
    assert (res[0].table, res[0].column) == ("events", "when"), ranked
    assert events.details["coverage"] == pytest.approx(
        sum(q in held for q in query) / len(query))
    assert events.score == pytest.approx(events.details["coverage"]
                                         * events.details["key_weight"])
    for h in res:                  # a day number cut out of the dates is a small integer
        if h.column in ("errno", "n"):
            assert h.key_kind == "number" and h.key_warning
            assert h.details["coverage"] > events.details["coverage"]   # joins more rows


def test_a_constant_added_to_a_number_is_read_as_the_number():
    days = [f"2026-03-{d:02d}" for d in range(1, 29)]
    assert affix_free(days)[:3] == ["01", "02", "03"]
    assert affix_free([f"{d}/tcp" for d in range(5, 30)])[0] == "5"
    assert affix_free(["1234", "1256"]) == ["1234", "1256"]         # never inside a run
    assert affix_free(["e1100", "e1101"]) == ["1100", "1101"]       # letters glued to numbers
    assert affix_free(["e1100", "ebbbb"]) == ["e1100", "ebbbb"]     # ... when only they remain
    assert affix_free(["ref-s01e01", "ref-s02e01"]) == ["s01e01", "s02e01"]
    assert affix_free([f"2026-03-08t{h:02d}:00:00+00:00" for h in (1, 2)]) == ["01", "02"]
    assert affix_free(["ref-0712", "ref-0999"]) == ["0712", "0999"]
    assert affix_free(["x"]) == ["x"]
    year = ["31.07.2016", "01.08.2016", "02.08.2016"]      # no cut leaving a separator
    assert affix_free(year) == year and values_kind(year)[0] == "identifier"
    assert values_kind(days, [4] * len(days))[0] == "number"       # days repeat over rows
    mails = ["john.smith@org.com", "ann.lee@org.com", "bo.li@org.com"]
    assert affix_free(mails) == mails and values_kind(mails)[0] == "identifier"
    assert values_kind([f"{y}-01-0{m}" for y in range(2015, 2020) for m in range(1, 4)])[0] \
        == "identifier"


def test_a_code_shaped_like_an_exponent_stays_a_code():
    episodes = [f"ep-{s:02d}e{e:02d}" for s in range(1, 6) for e in range(1, 11)]
    assert affix_free(episodes)[:2] == ["01e01", "01e02"]
    assert values_kind(episodes) == ("identifier", None)
    assert values_kind([e[3:] for e in episodes], [3] * len(episodes)) == ("identifier", None)
    measures = [f"{m}.5e{x}" for m in range(1, 10) for x in range(3)]   # scientific notation
    assert values_kind(measures)[0] == "number"
    # digits around a bare E are a code, as the normalization reads them ("0E8", "1E1":
    # FAA airport codes; no number formatter writes a number so)
    assert values_kind([f"{m}e{x}" for m in range(1, 10) for x in range(3)])[0] != "number"
    assert values_kind([f"{m}e+{x}" for m in range(1, 10) for x in range(3)])[0] == "number"


@pytest.mark.spark
def test_minutes_of_timestamps_onto_ranks_are_a_number_coincidence(spark, tmp_path_factory):
    """Timestamps 37 minutes apart: a lake column holds them as "03/29/2026 10:00", another
    holds ranks 0..248. "Part 2 (split at ':')" (the minutes) meets the ranks whatever the
    rule, since they fill every number of one and two digits; it ranked first, as an
    identifier, tied with the reformatted stamps. It is weighed as a number now."""
    from lakejoin_jupyter import build_index
    ts = pd.date_range("2026-03-29 10:00", periods=50, freq="37min")
    tables = {"ref/ranked.csv": pd.DataFrame({"key": [f"K{i:03d}x" for i in range(249)],
                                              "pop_rank": range(249)}),
              "ev/us.csv": pd.DataFrame({"when_us": ts.strftime("%m/%d/%Y %H:%M"),
                                         "v": [f"e{i}" for i in range(50)]})}
    root = write_lake(tmp_path_factory.mktemp("mlake") / "lake", tables)
    engine = build_index(root, tmp_path_factory.mktemp("midx") / "lake.index", spark=spark,
                         progress=False, components=["transform"])
    res = engine.search(pd.DataFrame({"t": ts[10:40]}), "t", method="transform", k=5)
    ranked = [(h.table, h.column, round(h.score, 3), h.details["program"]) for h in res]
    assert (res[0].table, res[0].column) == ("ev/us", "when_us"), ranked
    for h in res:
        if h.column == "pop_rank":
            assert h.key_kind == "number" and h.key_warning, ranked


def test_an_affix_read_out_of_the_values_is_part_of_the_key():
    """Only the affixes a program's constants add are cut: inauguration dates all fall on
    January 20th, but "01/20/" is read out of the query's dates, so the key is the date
    (no "years" warning); "2026-03-" written by the program is still cut to the day."""
    from lakejoin_jupyter.join.autojoin.discovery import _kinds
    from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program, SelectK, Split
    inaug = {f"01/20/{y}": 1 for y in range(1953, 1997, 4)}
    parts = Split(Column("inaug"), "-")
    read = Program((SelectK(parts, 1), Constant("/"), SelectK(parts, 2), Constant("/"),
                    SelectK(parts, 0)))
    assert values_kind(list(inaug))[0] == "year-like"          # every affix cut
    assert _kinds(inaug, read) == ("identifier", None)
    days = {f"2026-03-{d:02d}": 4 for d in range(1, 29)}
    written = Program((Constant("2026-03-"), Column("day")))
    assert _kinds(days, written)[0] == "number"
    assert affix_free(list(days), (0, 0)) == list(days)
