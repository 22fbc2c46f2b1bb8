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


FIRST = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Niklaus",
         "Margaret", "Dennis", "Ken", "Radia", "Tony", "Leslie", "Shafi", "Butler", "Ivan",
         "Jean", "Robin", "Adele", "Kathleen", "Hedy", "Linus", "Guido", "Bjarne", "Anita",
         "Whitfield", "Martin", "Yukihiro", "Sophie", "Evelyn", "Lynn", "Carol", "Mary"]
LAST = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "Backus",
        "Wirth", "Hamilton", "Ritchie", "Thompson", "Perlman", "Hoare", "Lamport", "Goldwasser",
        "Lampson", "Sutherland", "Sammet", "Milner", "Goldberg", "Booth", "Lamarr", "Torvalds",
        "Rossum", "Stroustrup", "Borg", "Diffie", "Fowler", "Matsumoto", "Wilson", "Berezin",
        "Conway", "Shaw", "Keller"]


@pytest.fixture(scope="module")
def case_engine(spark, tmp_path_factory):
    """People named "Ada Lovelace" in the query; the lake holds their e-mails in lower case
    and their names as "LOVELACE, ADA"."""
    from lakejoin_jupyter import build_index
    names = [f"{f} {l}" for f, l in zip(FIRST, LAST)]
    tables = {"people/contacts.csv": pd.DataFrame({
                  "email": [n.lower().replace(" ", ".") + "@example.org" for n in names],
                  "n": range(len(names))}),
              "people/registry.csv": pd.DataFrame({
                  "who": [f"{l.upper()}, {f.upper()}" for f, l in zip(FIRST, LAST)],
                  "k": range(len(names))})}
    root = write_lake(tmp_path_factory.mktemp("clake") / "lake", tables)
    out = tmp_path_factory.mktemp("cidx") / "lake.index"
    engine = build_index(root, out, spark=spark, progress=False, components=["transform"])
    return engine, pd.DataFrame({"author": names[:30]})


@pytest.mark.spark
def test_a_hits_program_applied_as_shown_gives_the_lakes_values(case_engine):
    """The search compares case-folded values; the program it shows, applied to the query's
    cells as written, gives the lake's cells as written (lower(...) for the e-mails,
    upper(...) for "LOVELACE, ADA")."""
    from lakejoin_jupyter.join.autojoin.dsl import Program
    engine, frame = case_engine
    res = engine.search(frame, "author", method="transform", k=10)
    assert {h.table for h in res} >= {"people/contacts", "people/registry"}
    for h in res:
        assert h.details["direction"] == "query -> lake", h.details
        program = Program.from_json(h.details["program_json"])
        assert program.describe() == h.details["program"]
        out = [o for o in program.apply(frame) if o is not None]
        lake = set(engine.table(h.table)[h.column])
        assert len(out) == len(frame) and set(out) <= lake, (h.details["program"], out[:3])


def test_cased_program_picks_the_casing_of_the_other_sides_cells():
    from lakejoin_jupyter.join.autojoin import discovery
    from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program, Replace
    learned = Program((Replace(Column("a"), " ", "."), Constant("@example.org")))
    query = ["Ada Lovelace", "Alan Turing", None]
    got = discovery.cased_program(learned, query, ["ada.lovelace@example.org", "x"])
    assert got.describe() == 'lower(`a` with " " as ".") + "@example.org"'
    shout = discovery.cased_program(learned, query, ["ALAN.TURING@EXAMPLE.ORG"])
    assert shout.evaluate({"a": ["Alan Turing"]}, 1) == ["ALAN.TURING@EXAMPLE.ORG"]
    assert discovery.cased_program(learned, query, ["Ada.Lovelace@example.org"]) == learned
    # the lake's most frequent cells may join none of the query's: no casing to tell
    assert discovery.cased_program(learned, query, ["grace.hopper@example.org"],
                                   evidence=1) is None
    assert discovery.cased_program(learned, query, ["ALAN.TURING@EXAMPLE.ORG"],
                                   evidence=1) == shout


def test_a_separator_learned_case_folded_is_shown_as_the_cells_write_it():
    """Learned on case-folded cells, `split at "k"` is shown `split at "K"` for "KSEA"; the
    program as learned (applied to case-folded cells) is not changed."""
    from lakejoin_jupyter.join.autojoin import discovery
    from lakejoin_jupyter.join.autojoin.dsl import Column, Program, Replace, SelectK, Split
    learned = Program.from_json(
        '{"format": "lakejoin-autojoin-program", "version": 1, "pieces": [{"op": '
        '"substring", "of": {"op": "select", "of": {"op": "split", "of": {"op": "column", '
        '"name": "icao"}, "sep": "k"}, "k": 0, "rest": "after"}, "start": null, "stop": null, '
        '"casing": "same"}]}')
    assert learned.describe() == 'all after part 1 (split at "k") of `icao`'
    shown = discovery.shown_as_written(learned, ["KSEA", "KLAX", "kjfk", "KOAK", None])
    assert shown.describe() == 'all after part 1 (split at "K") of `icao`'
    assert learned.evaluate({"icao": ["ksea", "kbkl"]}, 2) == ["sea", "bkl"]
    # no cell holds the text, or it has no letters: shown as learned
    assert discovery.shown_as_written(learned, ["SEA"]) == learned
    dash = Program((SelectK(Split(Column("a"), "-"), 1),))
    assert discovery.shown_as_written(dash, ["X-Y"]) == dash
    # the most frequent spelling wins; a replaced text too
    assert discovery.shown_as_written(learned, ["Kab", "Kcd", "kef"]).describe() == \
        'all after part 1 (split at "K") of `icao`'
    rep = Program((Replace(Column("a"), "st", "street"),))
    assert "\"St\"" in discovery.shown_as_written(rep, ["Main St", "Elm St"]).describe()


@pytest.mark.spark
def test_cli_join_joins_a_transformation_hit_as_the_api_does(case_engine, tmp_path, capsys):
    """`lakejoin join -m transform --hit N` writes what hit.autojoin(df).join(df) gives in
    Python; --dates without --aggregate latest is refused, saying why, as for an equi-join."""
    from lakejoin_jupyter.cli import main as cli
    engine, frame = case_engine
    frame.to_csv(tmp_path / "q.csv", index=False)
    query = pd.read_csv(tmp_path / "q.csv")
    index = str(engine.index.path)
    res = engine.search(query, "author", method="transform", k=10, rank="useful")
    for rank, hit in enumerate(res, 1):
        want = hit.autojoin(query).join(query, how="inner")
        out = tmp_path / f"j{rank}.csv"
        assert cli(["join", index, "-t", str(tmp_path / "q.csv"), "-c", "author", "-m",
                    "transform", "--hit", str(rank), "--how", "inner", "--out", str(out)]) == 0
        assert f"Program: {hit.details['program']}, applied to" in capsys.readouterr().err
        got = pd.read_csv(out, dtype=str, keep_default_na=False)
        want = want.astype(str).reset_index(drop=True)
        assert len(got) == len(want) == len(query)
        assert got.columns.tolist() == want.columns.tolist()
        assert got.sort_values(list(got.columns)).values.tolist() == \
            want.astype(str).sort_values(list(want.columns)).values.tolist()
    assert cli(["join", index, "-t", str(tmp_path / "q.csv"), "-c", "author", "-m",
                "transform", "--hit", "1", "--dates", "day-first",
                "--out", str(tmp_path / "x.csv")]) == 1
    err = capsys.readouterr().err
    assert "dates='day-first' goes with aggregate = latest" in err     # as for an equi-join
    assert not (tmp_path / "x.csv").exists()
