"""Programs that fold distinct values onto one key (docs/algorithms/autojoin.md, deviation
52), the "Needs a transformation" search on zero-padded numbers against the numbers
themselves, and a coincidental transformation hit joined by its own program.

A query of "port-00022" keys against a table of port numbers: examples of three-digit ports
cannot tell `"port-00" + the last 3 digits` from `"port-" + the port padded to 5`; on the
table the first folds 1194 onto "port-00194". At equal coverage the learner now prefers
the program giving each key from one value, and says so when a join does fold values."""
from __future__ import annotations

import datetime as dt
import random
import string

import pandas as pd
import pytest

from conftest import write_lake


def services(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A table of services on 1- to 5-digit ports (a third on tcp and udp; 55 ports of 4-5
    digits end in the digits of a 2-3 digit one: 1194 and 194) and a query of 80 of the
    1-3 digit ports as "port-00194"."""
    rng = random.Random(seed)
    low = rng.sample(range(1, 100), 20) + rng.sample(range(100, 1000), 140)
    high = [1000 * rng.randint(1, 9) + p for p in rng.sample([p for p in low if p >= 100], 40)]
    high += [10000 * rng.randint(1, 6) + p for p in rng.sample([p for p in low if p >= 10], 15)]
    rows = []
    for i, p in enumerate(low + high):
        for proto in (("tcp", "udp") if i % 3 == 0 else ("tcp",)):
            rows.append({"service": f"svc{i}", "port": p, "protocol": proto})
    table = pd.DataFrame(rows).sample(frac=1, random_state=seed).reset_index(drop=True)
    query = pd.DataFrame({"portid": [f"port-{p:05d}" for p in rng.sample(low, 80)]})
    return table, query


@pytest.mark.parametrize("seed", [2, 5])
def test_padded_ports_are_not_folded_onto_three_digit_keys(seed):
    from lakejoin_jupyter import autojoin
    table, query = services(seed)
    aj = autojoin(query, "portid", table, "port")
    assert aj.found, aj.message
    joined = aj.join()
    wrong = [(k, p) for k, p in zip(joined["portid"], joined["port"])
             if p == p and k != f"port-{int(p):05d}"]
    assert wrong == [], (aj.program.describe(), wrong[:5])
    assert aj.program.describe() == '"port-" + `port` padded with zeros to 5'
    assert aj.coverage == 80 and aj.folded_keys() == (0, None)


@pytest.mark.parametrize("seed", [0, 3, 7])
def test_no_widening_branch_guarded_by_the_wrong_pairs_own_values(seed):
    """On these seeds a widening branch (deviation 38) once followed the right program,
    `if port ends with the word "1432" or "20219" or ...: "port-00" + last 3 letters`: each
    word was one port's whole value, wanted by its tcp and udp rows. A word guard needs 2
    distinct inputs ending with the word (deviation 53)."""
    from lakejoin_jupyter import autojoin
    table, query = services(seed)
    aj = autojoin(query, "portid", table, "port")
    joined = aj.join()
    wrong = [(k, p) for k, p in zip(joined["portid"], joined["port"])
             if p == p and k != f"port-{int(p):05d}"]
    assert wrong == [], (aj.program.describe(), wrong[:5])
    assert aj.coverage == 80


def test_a_word_guard_is_not_one_values_word_on_several_rows():
    """A last word wanted by the tcp and udp rows of one port is that port; by two classes
    it is a form; one enum's word over the rows of several of its members (the branch
    reads the member) is a form of those inputs."""
    from lakejoin_jupyter.join.autojoin.programset import _guard
    cells = ["1432", "1432", "20219", "20219", "139", "XValue", "StrokeValue"]
    assert _guard("port", "last word", cells, [0, 1, 2, 3], [4]) is None
    g = _guard("c", "last word", cells, [5, 6], [4])
    assert g is not None and set(g.patterns) == {"Value"}
    enums = ["PathDataType", "PathDataType", "Antialias"]
    members = [("MOVE_TO",), ("LINE_TO",), ("GRAY",)]
    g = _guard("enum", "last word", enums, [0, 1], [2], members)
    assert g is not None and set(g.patterns) == {"Type"}
    assert _guard("enum", "last word", enums, [0, 1], [2], [("x",), ("x",), ("y",)]) is None


def test_a_cut_padded_number_has_a_padded_variant():
    """"port-00" + the port padded to 4 from letter 2 is, on three-digit examples, "port-"
    + the port padded to 5 (learn.padded_variant)."""
    from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Pad, Program, Substring
    from lakejoin_jupyter.join.autojoin.learn import Example, padded_variant
    cut = Program((Constant("port-00"), Substring(Pad(Column("port"), 4), 1, None)))
    examples = [Example((v,), f"port-00{v}") for v in ("139", "209", "370")]
    got = padded_variant(cut, examples, ["port"])
    assert got is not None and got.describe() == '"port-" + `port` padded with zeros to 5'


def test_explain_warns_when_distinct_values_are_folded_onto_a_key():
    from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Pad, Program, Substring
    from lakejoin_jupyter.join.autojoin.result import AutoJoin
    lake = pd.DataFrame({"port": ["22", "194", "1194", "80", "10080", "443"]})
    query = pd.DataFrame({"portid": ["port-00022", "port-00194", "port-00080"]})
    folding = Program((Constant("port-00"), Substring(Pad(Column("port"), 5), 2, None)))
    right = Program((Constant("port-"), Substring(Pad(Column("port"), 5), None, None)))

    def made(program):
        return AutoJoin(found=True, message="", left=query, right=lake, source="right",
                        program=program, source_column="port",
                        target_column="portid").with_right(lake)
    aj = made(folding)
    n, (key, values) = aj.folded_keys()
    assert n == 2 and key == "port-00080" and values == ["10080", "80"]
    assert "Warning: 2 of the 3 keys joined are derived from several distinct values of " \
           "`port`" in aj.explain()
    assert aj.summary()["folded_keys"] == 2
    ok = made(right)
    assert ok.folded_keys() == (0, None) and "Warning" not in ok.explain()


def test_unpadded_spellings_drop_the_zeros_of_padded_numbers():
    import numpy as np
    from lakejoin_jupyter.search.transform import unpadded_spellings
    texts, owner = unpadded_spellings(["port-00022", "22", "v0.10", "abc"],
                                      np.array([0, 1, 2, 3]))
    assert (texts, owner.tolist()) == (["port-22"], [0])


SMALL_DAYS = (11, 14, 17, 22, 26, 28)


@pytest.fixture(scope="module")
def port_engine(spark, tmp_path_factory):
    """A lake of services (port numbers, as services() makes them) and of 60 small services
    numbered with a few days of the month (``SMALL_DAYS``) and 100-153."""
    from lakejoin_jupyter import build_index
    table, query = services(5)
    rng = random.Random(11)
    small = pd.DataFrame({"Port": list(SMALL_DAYS) + list(range(100, 154)),
                          "Service Name": ["".join(rng.choice(string.ascii_lowercase)
                                                   for _ in range(6)) for _ in range(60)]})
    root = write_lake(tmp_path_factory.mktemp("plake") / "lake",
                      {"net/services.csv": table, "net/small.csv": small})
    out = tmp_path_factory.mktemp("pidx") / "lake.index"
    engine = build_index(root, out, spark=spark, progress=False, components=["transform"])
    return engine, query


@pytest.mark.spark
def test_search_finds_the_numbers_of_zero_padded_codes(port_engine):
    """"port-00022" meets the column holding 22: the query's numbers are also looked up
    without their leading zeros; the hit's Auto-Join joins each key to its own port."""
    engine, query = port_engine
    res = engine.search(query, "portid", method="transform", k=5)
    shown = [(h.table, h.column, h.details["program"]) for h in res]
    found = {(h.table, h.column): h for h in res}
    hit = found.get(("net/services", "port"))
    assert hit is not None and hit.details["coverage"] == 1.0, shown
    joined = hit.autojoin(query).join(query)
    assert all(k == f"port-{int(p):05d}" for k, p in zip(joined["portid"], joined["port"]))


@pytest.mark.spark
def test_a_coincidental_hit_joins_by_its_own_program_and_says_so(port_engine):
    """ISO dates on six days of the month against ports holding those six days and no other
    number from 11 to 28 (more than chance: numbers of 1-60 would meet any day, and the
    search drops such a hit, test_transform_number_chance.py): the day of the month is a
    hit flagged as a number key; Auto-Join learns the same program from the rows at most
    (the days as fields of the dates), so joining the hit uses the program it shows, and
    the explanation keeps the search's flag."""
    from lakejoin_jupyter.actions import run_transformation
    engine, _query = port_engine
    rng = random.Random(5)
    start = dt.date(2016, 1, 1)
    days = [start + dt.timedelta(days=d) for d in range(3000)]
    dates = pd.DataFrame({"date": [d.isoformat() for d in
                                   rng.sample([d for d in days if d.day in SMALL_DAYS], 40)]})
    res = engine.search(dates, "date", method="transform", k=5)
    shown = [(h.table, h.column, h.details["program"], h.key_warning) for h in res]
    hit = {(h.table, h.column): h for h in res}.get(("net/small", "Port"))
    assert hit is not None and hit.key_warning, shown
    aj = hit.autojoin(dates)
    assert aj.found, aj.message
    assert aj.program.describe() == hit.details["program"]
    assert "search's own program" in aj.explain() and hit.key_warning in aj.explain()
    joined = aj.join(dates).dropna(subset=["Port"])
    assert len(joined) and all(int(d[-2:]) == int(p) for d, p in zip(joined["date"],
                                                                     joined["Port"]))
    result = run_transformation(engine, hit, dates)
    assert result.ok and "search's own program" in result.summary
