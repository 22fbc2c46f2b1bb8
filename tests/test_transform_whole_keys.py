"""The "Needs a transformation" search sets a program that joins part of the query's rows
against one learned from the column's values the query's values hold as whole words
(docs/algorithms/transform_search.md, "A partial program meets whole keys"). Found by use:
visits stamped "3/3/24 10:18" against a two-year daily table "3/3/24" were verified by
`part 1 (split at ":") of word 2 + "/" + ...`, the time of day read as a month and day,
which meets a day of the table for a third of the rows by chance, while the date part
joins every row. Checked against the date each stamp begins with, by hand."""
from __future__ import annotations

import random
from datetime import date, timedelta

import numpy as np
import pandas as pd
import pytest

from conftest import write_lake


def _day(d: date) -> str:
    return f"{d.month}/{d.day}/{d.year % 100}"


def visits_lake(seed: int, first: date | None = None) -> tuple[dict, pd.DataFrame]:
    """Visits on two days from ``first`` (default: drawn in March 2024; ``"3/3/24 10:18"``,
    8:00-11:59, 250 and 12 of them) and a daily table of 700 days around them
    (``"3/3/24"``), as the user's."""
    rng = random.Random(seed)
    first = first or date(2024, 3, 3) + timedelta(days=rng.randrange(30))
    stamps = []
    for k, n in enumerate((250, 12)):
        d = first + timedelta(days=k)
        stamps += [f"{_day(d)} {m // 60}:{m % 60:02d}"
                   for m in (rng.randrange(480, 720) for _ in range(n))]
    rng.shuffle(stamps)
    start = date(2023, 6, 1)
    daily = pd.DataFrame({"day": [_day(start + timedelta(days=i)) for i in range(700)],
                          "rain_mm": [rng.randint(0, 30) for _ in range(700)]})
    return {"weather/daily.csv": daily}, pd.DataFrame({"visited": stamps})


@pytest.fixture(scope="module", params=[19, 3])
def visits_engine(spark, tmp_path_factory, request):
    from lakejoin_jupyter import build_index
    tables, query = visits_lake(request.param)
    root = write_lake(tmp_path_factory.mktemp("vlake") / "lake", tables)
    out = tmp_path_factory.mktemp("vidx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False,
                       components=["transform"]), query


@pytest.mark.spark
def test_the_date_part_joins_every_visit_not_the_time_of_day(visits_engine):
    from lakejoin_jupyter.join.autojoin.dsl import Program, evaluate_columns
    engine, visits = visits_engine
    res = engine.search(visits, "visited", method="transform", k=3)
    assert [(h.table, h.column) for h in res] == [("weather/daily", "day")], res
    hit = res[0]
    program = Program.from_json(hit.details["program_json"])
    out = evaluate_columns(program.expr, {"visited": visits.visited.str.casefold().tolist()},
                           len(visits))
    assert out == [s.split(" ")[0] for s in visits.visited], hit.details["program"]
    assert hit.details["coverage"] == 1.0 and res.stats["whole_keys"] == 1


def test_whole_key_pairs_are_the_keys_a_value_holds_as_words():
    """By hand: runs of whole words (letters and digits) that are keys, of 3+ characters,
    none inside another found in the same value: "3/3/24" in "3/3/24 10:18" and not "3/24"
    (inside it); "3/24" in "x3/3/24 9:05" ("x3" is a word); "1018" whole, "ab3/3/24" no
    run of "3/4/24 1018"."""
    from lakejoin_jupyter.join.autojoin.discovery import _whole_key_pairs
    keys = {"3/3/24", "3/24", "10:18", "1018", "ab3/3/24"}
    texts = ["3/3/24 10:18", "x3/3/24 9:05", "3/4/24 1018", "none here"]
    left, rows, right, pairs = _whole_key_pairs(keys, texts, np.array([2.0, 1.0, 1.0, 5.0]))
    got = {(left[p.source_row], right[p.target_row]) for p in pairs}
    assert got == {("3/3/24 10:18", "3/3/24"), ("3/3/24 10:18", "10:18"),
                   ("x3/3/24 9:05", "3/24"), ("3/4/24 1018", "1018")}
    assert rows == [2.0, 1.0, 1.0]


@pytest.mark.spark
def test_the_cli_join_says_how_far_to_trust_the_program(visits_engine, tmp_path, capsys):
    """`lakejoin join -m transform --hit 1` says what the Python repr of the join's Auto-Join
    says of it (a partial program, a rough estimate, no estimate), not the program alone."""
    from lakejoin_jupyter.cli import main as cli
    engine, visits = visits_engine
    path = tmp_path / "visits.csv"
    visits.to_csv(path, index=False)
    assert cli(["join", str(engine.index.path), "-t", str(path), "-c", "visited", "-m",
                "transform", "--hit", "1", "--out", str(tmp_path / "j.csv")]) == 0
    err = capsys.readouterr().err
    aj = engine.search(visits, "visited", method="transform", k=3)[0].autojoin(visits)
    trust = aj.trust_text()
    assert f"; {trust}>" in repr(aj)
    said = f"{trust[0].upper()}{trust[1:]}" + (" (hit.autojoin(df).explain() says why)."
                                               if aj.stats.get("partial") else ".")
    assert said in err, err
    joined = pd.read_csv(tmp_path / "j.csv", dtype=str)
    assert joined["rain_mm"].notna().sum() == len(visits)


def test_a_partial_programs_pairs_are_named_by_the_way_they_were_found():
    """The partial pass pairs "3/3/24 10:18" with "3/3/24" because the key is whole words
    of the value, not through a rare substring (none is: the explanation says so just
    before)."""
    from lakejoin_jupyter.join.autojoin import autojoin
    tables, visits = visits_lake(19, date(2024, 3, 3))        # the user's visits
    aj = autojoin(visits, tables["weather/daily.csv"].astype(str), "visited", "day",
                  fuzzy=False)
    assert aj.found and aj.stats.get("partial"), aj
    text = aj.explain()
    assert (f"Learned from {len(aj.examples)} example row pairs found through whole keys "
            f"inside the values of 'visited':") in text, text
    assert "found through rare shared substrings" not in text
    for ex in aj.examples:                      # by hand: each output begins its input
        assert ex["input"]["visited"].startswith(ex["output"] + " ")


@pytest.mark.spark
def test_the_transform_bench_counts_the_check(visits_engine, monkeypatch):
    """bench/transform_search.py's count of the whole-key check: the visits' verified
    program on the day column (the time of day read as a date, about a third of the rows)
    is checked and replaced by `word 1` (every row), as the search's own stats["whole_keys"]
    says; any other check (the rain column's chance program) replaces nothing; the search's
    answer is the same as without the count."""
    import sys
    from pathlib import Path
    from lakejoin_jupyter.join.autojoin import discovery
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import transform_search as bench
    engine, visits = visits_engine
    plain = engine.search(visits, "visited", method="transform", k=3)
    monkeypatch.setattr(discovery, "_by_whole_keys", discovery._by_whole_keys)
    calls = bench.count_whole_key_checks()
    res = engine.search(visits, "visited", method="transform", k=3)
    assert [h.details["program"] for h in res] == [h.details["program"] for h in plain]
    assert all(before < discovery.WHOLE_KEY_BELOW for _, before, _ in calls), calls
    replaced = [c for c in calls if c[2] is not None]
    assert len(replaced) == res.stats["whole_keys"] == 1, calls
    column, before, after = replaced[0]
    assert column == res[0].column_ids[0] and before < 0.5 and after == 1.0, calls


@pytest.mark.spark
def test_the_searches_and_auto_join_agree_on_the_key_and_its_estimate(visits_engine):
    """The date part (`word 1`) makes 2 keys of the visits: the equality search of that part
    calls the lake column the key and notes the query's 2 values; the transformation search
    says the same of its program's keys (a note, no hit warning), and its hit's Auto-Join
    gives the estimate Auto-Join gives the same pair (newuser19's N1: the hit said "the key
    has only 2 distinct value(s)" and its Auto-Join "No estimated precision", Auto-Join
    "partial program, estimated precision 100% (rough)")."""
    engine, _ = visits_engine
    _, visits = visits_lake(19, date(2024, 3, 3))       # the user's visits; the same days
    res = engine.search(visits, "visited", method="transform", k=3)
    hit = res[0]
    assert (hit.table, hit.details["program"]) == ("weather/daily", "word 1 of `visited`")
    assert hit.key_warning is None and hit.key_kind != "text", (hit.key_kind, hit.key_warning)
    few = "the query column has only 2 distinct value(s): it cannot tell rows apart"
    assert f"'visited' after the program of #1 (weather/daily.day): {few}" in res.notes, \
        res.notes
    assert "note: 'visited' after the program of #1" in repr(res)
    parts = visits.assign(d=visits.visited.str.split(" ").str[0])
    equal = engine.search(parts, "d", k=3)
    assert equal[0].table == "weather/daily" and equal[0].key_warning is None
    # (the transformation search reads a column typed as dates from its text, as the
    # program's outputs are: docs/algorithms/transform_search.md; "date" here)
    assert equal[0].key_kind == "date", equal[0].key_kind
    assert f"'d': {few}" in equal.notes, equal.notes
    own = hit.autojoin(visits)
    direct = engine.autojoin(visits, "visited", "weather/daily", "day", fuzzy=False)
    assert own.program.describe() == direct.program.describe() == "word 1 of `visited`"
    assert own.trust_text() == direct.trust_text(), (own.trust_text(), direct.trust_text())
    assert "estimated precision 100%" in own.trust_text() and "flagged" not in own.explain()


@pytest.mark.parametrize("seed", [19, 3])
def test_days_are_not_folded_onto_visit_stamps_that_are_no_key(seed):
    """Seeded visits (first day drawn): with 'visited' named, the backward direction took it
    as the target although it is no key (about 64% distinct) and learned `"3/24/24 9:5" +
    part 2 (split at "/") of day` (seed 19; seed 3 `"3/10/24 11:" + ...`): every day of a
    month 1-9 onto the visits at 9:51-9:59, many-to-many. Refused (deviation 80), the date
    part of the stamps joins every visit (checked by hand: each output begins its input)."""
    from lakejoin_jupyter.join.autojoin import autojoin
    tables, visits = visits_lake(seed)
    assert visits.visited.nunique() < 0.9 * len(visits)         # no key column
    aj = autojoin(visits, tables["weather/daily.csv"].astype(str), "visited", "day",
                  fuzzy=False)
    assert aj.found and aj.program.describe() == "word 1 of `visited`", aj.program.describe()
    assert aj.joined_rows == len(visits)
    assert "the join would be many-to-many" in aj.stats["partial"], aj.stats["partial"]


def test_a_named_target_that_is_no_key_still_takes_a_one_to_one_program():
    """Deviation 80 refuses only folding: names written "Last, First" in a query onto a lake
    table listing each person on three rows (its named column is no key) still join, each
    name onto its own key (a 1:N join of the query's rows), learned in that direction."""
    from lakejoin_jupyter.join.autojoin.pipeline import AutoJoinSettings, Table, learn_direction
    rng = random.Random(5)
    first = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "John", "Frances",
             "Niklaus", "Tony", "Leslie", "Ken", "Dennis", "Margaret", "Edgar", "Robin"]
    last = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Backus", "Allen",
            "Wirth", "Hoare", "Lamport", "Thompson", "Ritchie", "Hamilton", "Codd", "Milner"]
    people = list(zip(first, last))
    query = pd.DataFrame({"name": [f"{b}, {a}" for a, b in people]})
    lake = pd.DataFrame({"who": [f"{a} {b}" for a, b in people for _ in range(3)],
                         "year": [str(rng.randint(1950, 2020)) for _ in range(3 * len(people))]})
    src, tgt = Table(query, "left"), Table(lake, "right")
    assert not tgt.is_key("who", AutoJoinSettings().key_ratio)
    d = learn_direction(src, tgt, ["name"], ["who"], AutoJoinSettings())
    assert d.best is not None and d.best.coverage == len(people), d.best
    keys = d.best.program.evaluate({"name": src.cells("name")}, len(query))
    assert keys == [f"{a} {b}" for a, b in people], d.best.program.describe()
