"""Transformation-aware search: each hit's program is its own column's (a program learned
for one candidate and tried on the next reads the next one's column), integer queries meet
zero-padded codes, and a number cut out of the query that joins a column of counts is
weighed and labelled as the coincidence it is (docs/algorithms/transform_search.md)."""
from __future__ import annotations

import datetime as dt
import random
import string

import pandas as pd
import pytest

from conftest import write_lake


def hit_lake(seed: int) -> tuple[dict, list, list]:
    """Two tables whose columns hold two-digit numbers inside "<letters><n>-<digits>"
    (one program cuts the number out of either), a table of codes "PKG-00nnn", dates as
    dd/mm/yyyy and a table of upload counts (1-40, repeating); returns the tables, the
    two-digit query, the integer query of the codes and the dates as ISO."""
    rng = random.Random(seed)

    def glued(ns):
        return [("".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 5)))
                 + f"{n}-{rng.randint(1000, 9999)}") for n in ns]

    small = rng.sample(range(10, 100), 60)
    codes = rng.sample(range(100, 1000), 300)
    start = dt.date(2012, 1, 1)
    dates = [start + dt.timedelta(days=d) for d in sorted(rng.sample(range(4000), 90))]
    tables = {
        "events.csv": pd.DataFrame({"when": [d.strftime("%d/%m/%Y") for d in dates],
                                    "n": [rng.randint(1, 9) for _ in dates]}),
        "maintainers.csv": pd.DataFrame({"email": [f"m{i}@x.org" for i in range(400)],
                                         "uploads": [rng.randint(1, 40) for _ in range(400)]}),
        "tags.csv": pd.DataFrame({"tag": glued(small[:50]), "w": range(50)}),
        "labels.csv": pd.DataFrame({"label": glued(small[10:]), "v": range(50)}),
        "packages.csv": pd.DataFrame({"pkg_id": [f"PKG-{n:05d}" for n in codes],
                                      "name": [f"p{i}" for i in range(len(codes))]}),
    }
    return tables, small, rng.sample(codes, 80), [d.isoformat() for d in dates]


@pytest.fixture(scope="module")
def hit_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    tables, small, ids, dates = hit_lake(5)
    root = write_lake(tmp_path_factory.mktemp("hlake") / "lake", tables)
    out = tmp_path_factory.mktemp("hidx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False,
                       components=["transform"]), small, ids, dates


@pytest.mark.spark
def test_each_hit_shows_a_program_of_its_own_column(hit_engine):
    from lakejoin_jupyter.join.autojoin.dsl import Program
    engine, small, _ids, _dates = hit_engine
    frame = pd.DataFrame({"n": small})
    res = engine.search(frame, "n", method="transform", k=10)
    found = {h.column: h for h in res}
    shown = [(h.table, h.column, h.details["program"]) for h in res]
    assert {"tag", "label"} <= set(found), shown
    for h in res:
        program = Program.from_json(h.details["program_json"])
        own = "n" if h.details["direction"] == "query -> lake" else h.column
        assert program.columns == [own], shown
        assert f"`{own}`" in h.details["program"], shown


@pytest.mark.spark
def test_integer_ids_find_zero_padded_prefixed_codes(hit_engine):
    engine, _small, ids, _dates = hit_engine
    frame = pd.DataFrame({"id": ids, "installs": range(len(ids))})
    assert str(frame["id"].dtype) == "int64"
    res = engine.search(frame, "id", method="transform", k=5)
    shown = [(h.table, h.column, h.details["program"]) for h in res]
    assert res and (res[0].table, res[0].column) == ("packages", "pkg_id"), shown
    assert res[0].details["coverage"] == 1.0, shown
    assert sorted(res[0].details["matched_tokens"]) == sorted(str(i) for i in ids)


def test_padded_spellings_pad_every_short_run():
    import numpy as np
    from lakejoin_jupyter.search.transform import padded_spellings
    texts, owner = padded_spellings(["42", "2019-3-5", "abc"], np.array([0, 1, 2]), 4)
    got = {}
    for t, o in zip(texts, owner.tolist()):
        got.setdefault(o, []).append(t)
    assert got == {0: ["042", "0042"], 1: ["2019-03-05", "2019-003-005", "2019-0003-0005"]}


@pytest.mark.spark
def test_a_day_cut_out_of_dates_does_not_join_a_count_column(hit_engine):
    engine, _small, _ids, dates = hit_engine
    frame = pd.DataFrame({"uploaded": dates})
    res = engine.search(frame, "uploaded", method="transform", k=10)
    shown = [(h.table, h.column, round(h.score, 3), h.details["program"]) for h in res]
    assert (res[0].table, res[0].column) == ("events", "when"), shown
    assert res[0].details["coverage"] == 1.0
    assert ("maintainers", "uploads") not in {(h.table, h.column) for h in res}, shown
    assert res.stats["many_to_many"] >= 1


def test_many_to_many_needs_a_merging_program_and_no_key_on_the_other_side():
    from lakejoin_jupyter.join.autojoin.discovery import many_to_many
    days = {str(d): 2 for d in range(1, 29)}          # 56 dates made 28 day numbers
    assert many_to_many(days, 56, other_is_key=False)
    assert not many_to_many(days, 56, other_is_key=True)      # errno: N:1
    iso = {f"2020-01-{d:02d}": 1 for d in range(1, 29)}        # one key per date
    assert not many_to_many(iso, 28, other_is_key=False)
