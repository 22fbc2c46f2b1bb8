"""Transformation hits and the joins they make, checked against pandas: the join rows of a
query given as a lake table, one join type default for every way of joining a hit, one
spelling of a hit's program, a program's query-side multiplicity (distinct query values
per key it makes) and the width a learned padding takes from the lake column
(docs/algorithms/transform_search.md)."""
from __future__ import annotations

import datetime as dt
import random

import pandas as pd
import pytest

from conftest import write_lake


def joins_lake(seed: int = 3) -> dict:
    """Protocol numbers (0 on two rows) and their "proto-nnn" codes (proto-000 on two rows);
    upper-case country codes and "cc-xx" references with a rank 1..n; ISO days and the same
    days as dd/mm/yyyy on several rows each."""
    rng = random.Random(seed)
    numbers = [0] + list(range(0, 60)) + [103, 112, 132, 255]
    protocols = pd.DataFrame({"number": [str(n) for n in numbers],
                              "name": [f"p{i}" for i in range(len(numbers))]})
    coded = [0] + list(range(0, 60)) + [103, 112, 132, 255, 300, 301]
    prefixed = pd.DataFrame({"proto_id": [f"proto-{n:03d}" for n in coded],
                             "alias": [f"P{i}" for i in range(len(coded))]})
    letters = "ABCDEFGHIKLMNOPRSTUVZ"
    codes = sorted({rng.choice(letters) + rng.choice(letters) for _ in range(200)})[:120]
    iso = pd.DataFrame({"code": codes, "country": [f"Country {c}" for c in codes]})
    refs = pd.DataFrame({"country_ref": [f"cc-{c.lower()}" for c in codes],
                         "population_rank": list(range(1, len(codes) + 1))})
    start = dt.date(2020, 1, 1)
    days = [start + dt.timedelta(days=d) for d in sorted(rng.sample(range(900), 240))]
    per_day = pd.DataFrame({"day": [d.isoformat() for d in days],
                            "n": [rng.randint(1, 4) for _ in days]})
    dmy = pd.DataFrame({"uploaded": [d.strftime("%d/%m/%Y") for d, n in
                                     zip(days, per_day["n"]) for _ in range(n)]})
    dmy["package"] = [f"pkg{i % 37}" for i in range(len(dmy))]
    months = pd.period_range("2020-01", "2022-06", freq="M").astype(str)
    monthly = pd.DataFrame({"month": months,
                            "releases": [rng.randint(100, 999) for _ in months]})
    return {"net/protocols.csv": protocols, "net/protocols_prefixed.csv": prefixed,
            "geo/iso3166.csv": iso, "geo/country_refs.csv": refs,
            "dpkg/uploads_per_day.csv": per_day, "dpkg/uploads_dmy.csv": dmy,
            "dpkg/releases_per_month.csv": monthly}


@pytest.fixture(scope="module")
def joins_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    tables = joins_lake()
    root = write_lake(tmp_path_factory.mktemp("tjlake") / "lake", tables)
    out = tmp_path_factory.mktemp("tjidx") / "lake.index"
    engine = build_index(root, out, spark=spark, progress=False, components=["transform"])
    return engine, root, tables


def _proto_oracle(query: pd.DataFrame, column: str, prefixed: pd.DataFrame, how: str):
    keys = query.assign(_k="proto-" + query[column].astype(str).str.zfill(3))
    return keys.merge(prefixed, left_on="_k", right_on="proto_id", how=how)


@pytest.mark.spark
def test_join_rows_of_a_lake_table_query_count_its_repeated_keys(joins_engine, tmp_path):
    """A query given as a lake table counts each key's rows (its 0 is on two rows) as a
    DataFrame of the same table does: the left join's rows equal pandas'."""
    engine, root, tables = joins_engine
    protocols = tables["net/protocols.csv"]
    want = len(_proto_oracle(protocols, "number", tables["net/protocols_prefixed.csv"], "left"))
    assert want == len(protocols) + 2          # 0 twice on each side: 2 x 2 rows, not 2
    by_name = engine.search("net/protocols", "number", method="transform", k=3)
    frame = pd.read_csv(root / "net/protocols.csv", dtype=str, keep_default_na=False)
    by_frame = engine.search(frame, "number", method="transform", k=3)
    for res in (by_name, by_frame):
        hit = next(h for h in res if h.table == "net/protocols_prefixed")
        assert hit.join_rows == want, (res.query.source, hit.join_rows)
        assert len(hit.autojoin(frame).join(frame, how="left")) == want


@pytest.mark.spark
def test_a_transformation_join_is_left_by_default_everywhere(joins_engine, tmp_path):
    """The CLI, ``hit.autojoin(q).join(q)`` and the widget's Find transformation (its Join
    type control, left by default as the Join tab's) join alike; the action's cell, run in a
    fresh namespace, equals pandas (a left join keeps the unmatched 999; inner drops it)."""
    from lakejoin_jupyter.actions import ACTIONS, get
    from lakejoin_jupyter.cli import main as cli
    engine, root, tables = joins_engine
    prefixed = tables["net/protocols_prefixed.csv"]
    q = pd.DataFrame({"num": ["6", "17", "1", "41", "58", "999"]})
    q.to_csv(tmp_path / "q.csv", index=False)
    hit = next(h for h in engine.search(q, "num", method="transform", k=3)
               if h.table == "net/protocols_prefixed")
    oracle = {how: _proto_oracle(q, "num", prefixed, how) for how in ("left", "inner")}
    assert (len(oracle["left"]), len(oracle["inner"])) == (6, 5)
    assert len(hit.autojoin(q).join(q)) == 6
    assert len(hit.autojoin(q).join(q, how="inner")) == 5
    out = tmp_path / "j.csv"
    assert cli(["join", str(engine.index.path), "-t", str(tmp_path / "q.csv"), "-c", "num",
                "-m", "transform", "--hit", str(hit.rank), "--out", str(out)]) == 0
    assert len(pd.read_csv(out)) == 6
    action = next(a for a in ACTIONS if a.name == "autojoin")
    spec = next(p for p in action.params if p.name == "how")
    join_spec = next(p for p in next(a for a in ACTIONS if a.name == "join").params
                     if p.name == "how")
    assert (spec.label, spec.default, spec.choices) == \
        (join_spec.label, join_spec.default, join_spec.choices)
    for how, params in (("left", {}), ("inner", {"how": "inner"})):
        res = get("autojoin")(engine, hit, q, **params)
        assert res.ok, res.summary
        ns = {"df": q}
        exec(compile(res.code(), "<inserted cell>", "exec"), ns)   # noqa: S102
        got = ns["joined"].reset_index(drop=True)
        pd.testing.assert_frame_equal(got, res.joined.reset_index(drop=True))
        want = oracle[how]
        assert len(got) == len(want)
        assert sorted(got["proto_id"].dropna()) == sorted(want["proto_id"].dropna())
        assert sorted(got["num"]) == sorted(want["num"])


@pytest.mark.spark
def test_one_spelling_of_a_hits_program_for_a_lake_table_a_frame_and_the_join(
        joins_engine, tmp_path, capsys):
    """The query given as a lake table, as a frame of the same file, or joined by the CLI
    shows one program for the hit: the one that, applied as shown to the query's cells as
    written, gives the lake's cells as written ("cc-" + lower(code) onto "cc-fr"), and the
    join says to which side it applies."""
    from lakejoin_jupyter.cli import main as cli
    from lakejoin_jupyter.join.autojoin.dsl import Program, evaluate_columns
    engine, root, tables = joins_engine
    iso = pd.read_csv(root / "geo/iso3166.csv", dtype=str, keep_default_na=False)
    refs = set(tables["geo/country_refs.csv"]["country_ref"])
    shown = []
    for query in ("geo/iso3166", iso):
        hit = next(h for h in engine.search(query, "code", method="transform", k=3)
                   if h.table == "geo/country_refs")
        program = Program.from_json(hit.details["program_json"])
        assert program.describe() == hit.details["program"]
        out = evaluate_columns(program.expr, {"code": iso["code"].tolist()}, len(iso))
        assert sum(o in refs for o in out) == len(iso), hit.details["program"]
        shown.append(hit.details["program"])
    assert shown[0] == shown[1], shown
    assert cli(["join", str(engine.index.path), "-t", "geo/iso3166", "-c", "code", "-m",
                "transform", "--hit", str(hit.rank), "--out", str(tmp_path / "j.csv")]) == 0
    err = capsys.readouterr().err
    assert f"Program: {shown[0]}, applied to the query's `code`" in err, err


@pytest.mark.spark
def test_a_program_merging_query_values_shows_it_and_is_discounted(joins_engine):
    """"first 7 letters of day" maps 240 ISO days onto 30 months ("2020-03"): the hit shows
    its query-side multiplicity (distinct query values per key, pandas: 240 / 30) and
    rank="useful" discounts it as a fan-out of that size; the reformatted dates (one query
    value per key) keep 1 and rank first. The day number cut out of the days ("part 3")
    meets the lake's small integers as any 31 numbers would, and is no hit
    (test_transform_number_chance.py)."""
    engine, root, tables = joins_engine
    days = tables["dpkg/uploads_per_day.csv"]["day"]
    res = engine.search("dpkg/uploads_per_day", "day", method="transform", k=5)
    shown = [(h.table, h.column, h.details["program"]) for h in res]
    first = res[0]
    assert (first.table, first.column) == ("dpkg/uploads_dmy", "uploaded"), shown
    assert first.query_ratio == 1.0
    merged = [h for h in res if h.table == "dpkg/releases_per_month"]
    assert len(merged) == 1, shown
    h = merged[0]
    lake = set(tables[h.table + ".csv"][h.column].astype(str))
    keys = days.str[:7]
    joined = days[keys.isin(lake)]
    want = joined.nunique() / keys[keys.isin(lake)].nunique()
    assert want == 8 and h.query_ratio == pytest.approx(want)
    assert h.key_kind == "identifier" and h.row_coverage == 1.0 and h.key_ratio == 1.0
    assert h.usefulness == pytest.approx(0.3 + 0.7 / (1 + 3))     # a fan-out of 8: log2 3
    assert h.usefulness < first.usefulness
    assert "merges" in h.card()
    assert not [x for x in shown if x[2] == 'part 3 (split at "-") of `day`'], shown
    assert res.stats["chance_numbers"] >= 1
    table = res.text_table()
    assert "query values/key" in table.columns


def test_widest_padding_takes_the_width_the_targets_show():
    """"proto-0" + n padded to 2 and "proto-" + n padded to 3 agree below 100; the targets'
    "proto-103" picks the second. Targets that show no wider number keep the program as
    learned, and a program without a padded number is left alone."""
    from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Pad, Program, Substring
    from lakejoin_jupyter.join.autojoin.learn import widest_padding
    narrow = Program((Constant("proto-0"), Substring(Pad(Column("num"), 2))))
    wide = Program((Constant("proto-"), Substring(Pad(Column("num"), 3))))
    assert widest_padding(narrow, ["proto-006", "proto-103", "proto-255"]) == wide
    assert widest_padding(narrow, ["proto-006", "proto-017"]) == narrow
    plain = Program((Constant("cc-"), Substring(Column("code"))))
    assert widest_padding(plain, ["cc-fr"]) == plain


@pytest.mark.spark
def test_find_transformation_on_a_few_numbers_pads_as_the_lake_column_does(joins_engine):
    """Learned from 5 numbers under 100, the program is the lake column's width ("proto-"
    + n padded to 3), so applied to 103 and 132 it joins them (pandas oracle); the search's
    hit shows the same program."""
    from lakejoin_jupyter.actions import get
    engine, root, tables = joins_engine
    prefixed = tables["net/protocols_prefixed.csv"]
    q = pd.DataFrame({"num": ["6", "17", "1", "41", "58"]})
    hit = next(h for h in engine.search(q, "num", method="transform", k=3)
               if h.table == "net/protocols_prefixed")
    assert hit.details["program"] == '"proto-" + `num` padded with zeros to 3'
    res = get("autojoin")(engine, hit, q)
    assert res.ok and res.result.program.describe() == hit.details["program"]
    more = pd.DataFrame({"num": ["6", "103", "132", "999"]})
    got = res.result.join(more, how="left")
    want = _proto_oracle(more, "num", prefixed, "left")
    assert sorted(got["proto_id"].dropna()) == sorted(want["proto_id"].dropna()) == \
        ["proto-006", "proto-103", "proto-132"]


def test_the_widgets_find_transformation_tab_has_the_join_tabs_join_type_control():
    """The Find transformation tab shows a Join type control as the Join tab does: the same
    choices, left by default."""
    from lakejoin_jupyter.actions import get
    from lakejoin_jupyter.ui.actions_panel import ActionTab
    join = ActionTab(get("join"), on_run=lambda name: None).controls["how"]
    transform = ActionTab(get("autojoin"), on_run=lambda name: None).controls["how"]
    assert transform.value == join.value == "left"
    assert tuple(transform.options) == tuple(join.options)
