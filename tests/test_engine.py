"""Engine and CLI on real Spark-built indexes: results against independently computed sets."""
import json
from pathlib import Path
import shutil

import numpy as np
import pandas as pd
import pytest

from conftest import write_lake
from lakejoin_jupyter import open_index
from lakejoin_jupyter.cli import main as cli
from lakejoin_jupyter.errors import QueryError
from lakejoin_jupyter.index import store
from lakejoin_jupyter.lake.normalize import normalize_many
from lakejoin_jupyter.lake.read import TableInfo, read_table

pytestmark = pytest.mark.spark


def lake_sets(index):
    """{(table name, column name): set of tokens}, read without the index's arrays."""
    out = {}
    for _, t in index.tables.iterrows():
        if t["status"] == "indexed":
            df = read_table(TableInfo.from_json(t["info"]))
            for c in df.columns:
                out[(t["name"], c)] = {x for x in normalize_many(df[c].tolist()) if x is not None}
    return out


def test_dataframe_query_equals_python_sets(demo_engine):
    sets = lake_sets(demo_engine.index)
    q = pd.DataFrame({"country": ["France", "GERMANY ", "Côte d'Ivoire", "Japan", None, "Atlantis"]})
    res = demo_engine.search(q, "country", k=10)
    qset = set(filter(None, normalize_many(q["country"])))
    truth = sorted(((len(qset & s), k) for k, s in sets.items() if qset & s), reverse=True)
    assert [h.overlap for h in res] == [o for o, _ in truth[:10]]
    for h in res:
        assert h.overlap == len(qset & sets[(h.table, h.column)])
        assert h.containment == pytest.approx(h.overlap / len(qset))
        assert h.jaccard == pytest.approx(h.overlap / len(qset | sets[(h.table, h.column)]))
        assert len(h.matches) == h.overlap and "Atlantis" in h.unmatched


def test_lake_table_query_excludes_itself(demo_engine):
    res = demo_engine.search("reference/gdp", "Country Code", k=5)
    assert ("reference/gdp", "Country Code") not in [(h.table, h.column) for h in res]
    assert res[0].table == "reference/population" and res[0].column == "Country Code"
    assert res[0].containment == 1.0
    kept = demo_engine.search("reference/gdp", "Country Code", k=5, exclude_self=False)
    assert (kept[-1].table, kept[-1].column) == ("reference/gdp", "Country Code")
    assert kept[-1].is_query_table               # kept, listed last (under either ranking)
    assert not any(h.is_query_table for h in kept[:-1])


def test_query_kinds_agree(demo_engine, spark):
    values = ["Alabama", "Alaska", "Texas", "Ohio"]
    by_list = demo_engine.search(values, k=3).to_pandas()
    by_series = demo_engine.search(pd.Series(values, name="state"), k=3).to_pandas()
    by_spark = demo_engine.search(spark.createDataFrame(pd.DataFrame({"state": values})),
                                  "state", k=3).to_pandas()
    for other in (by_series, by_spark):
        assert list(other["overlap"]) == list(by_list["overlap"])
        assert list(other["column_ids"]) == list(by_list["column_ids"])


def test_large_spark_query_is_sampled_and_says_so(demo_engine, spark):
    from lakejoin_jupyter.engine import make_query
    sdf = spark.createDataFrame(pd.DataFrame({"v": [f"x{i}" for i in range(500)]}))
    q = make_query(demo_engine.index, sdf, "v", max_values=100)
    assert q.size == 100 and "random sample of 100" in q.notes[0]
    assert q.sampled and not make_query(demo_engine.index, sdf, "v").sampled
    states = spark.createDataFrame(pd.DataFrame({"s": ["Ohio", "Texas", "Iowa", "Utah"] * 3}))
    sample = make_query(demo_engine.index, states, "s", max_values=3)
    hits = demo_engine.search(sample, k=3)
    assert hits and not any(h.join_rows_exact for h in hits)    # the sample's rows, not df's
    assert all(h.join_rows_exact for h in demo_engine.search(states, "s", k=3))


@pytest.mark.parametrize("args,message", [
    ((pd.DataFrame({"a": []}), "a"), "empty"),
    ((pd.DataFrame({"a": [None, float("nan"), "", " - "]}), "a"), "no values"),
    ((pd.DataFrame({"a": [1]}), "b"), "not found"),
    ((pd.DataFrame({"a": [1]}), None), "Name the query column"),
    (("no/such/table", "x"), "No table"),
    (("reference/gdp", "nope"), "has no column"),
    ((object(),), "Cannot search with"),
])
def test_bad_queries(demo_engine, args, message):
    with pytest.raises(QueryError, match=message):
        demo_engine.search(*args)


def test_bad_parameters(demo_engine):
    with pytest.raises(QueryError, match="k must be"):
        demo_engine.search(["a"], k=0)
    with pytest.raises(QueryError, match="threshold"):
        demo_engine.search(["a"], threshold=1.5)
    with pytest.raises(ValueError, match="Unknown search method"):
        demo_engine.search(["a"], method="nope")


def test_threshold_filters_on_containment(demo_engine):
    res = demo_engine.search(["Alabama", "Alaska", "Texas", "Atlantis"], k=None, threshold=0.75)
    assert res.hits and all(h.containment >= 0.75 for h in res)


def test_generations_answer_like_a_full_build(spark, tmp_path, capsys):
    rng = np.random.default_rng(3)
    vocab = [f"v{i}" for i in range(60)]
    tables = {f"t{i}.csv": pd.DataFrame({"a": rng.choice(vocab, 20), "b": rng.choice(vocab, 20)})
              for i in range(6)}
    full = write_lake(tmp_path / "full", tables)
    first = write_lake(tmp_path / "first", dict(list(tables.items())[:3]))
    second = write_lake(tmp_path / "second", dict(list(tables.items())[3:]))
    assert cli(["index", str(full), "--out", str(tmp_path / "full.index"), "-q"]) == 0
    assert cli(["index", str(first), "--out", str(tmp_path / "gen.index"), "-q"]) == 0
    assert cli(["index", "--add", str(second), str(tmp_path / "gen.index"), "-q"]) == 0
    assert "Indexed 3 of 3 tables" in capsys.readouterr().out
    a, b = open_index(tmp_path / "full.index"), open_index(tmp_path / "gen.index")
    assert len(b.index.generations) == 2 and b.index.n_sets == a.index.n_sets == 12
    for q in (vocab[:10], vocab[5:40], ["v1", "zzz"]):
        ra, rb = a.search(q, k=7), b.search(q, k=7)
        assert [h.overlap for h in ra] == [h.overlap for h in rb]
        assert sorted((h.table, h.column, h.overlap) for h in ra if h.overlap > ra[-1].overlap) == \
            sorted((h.table, h.column, h.overlap) for h in rb if h.overlap > rb[-1].overlap)
    # a table added twice is refused
    assert cli(["index", "--add", str(second), str(tmp_path / "gen.index"), "-q"]) == 1
    assert "already in" in capsys.readouterr().err


def test_a_same_named_table_is_refused_and_hits_join_the_table_they_were_found_in(
        spark, tmp_path, capsys):
    """--add of a table named like one the index holds is refused (a name identifies one
    table). An index that holds two such tables (built before the check) joins each hit
    with the table it was found in, in pandas and in the code it writes; the name alone is
    refused as ambiguous, and `info --tables` shows each one's file."""
    codes = [f"C{i:02d}" for i in range(40)]
    base = pd.DataFrame({"iso2": codes, "name": [f"big {c}" for c in codes]})
    small = pd.DataFrame({"iso2": codes[:5], "name": [f"small {c}" for c in codes[:5]]})
    first = write_lake(tmp_path / "lake", {"geo/countries.csv": base})
    same = write_lake(tmp_path / "add_same", {"geo/countries.csv": small})
    other = write_lake(tmp_path / "add_other", {"geo/countries_small.csv": small})
    out = tmp_path / "x.index"
    assert cli(["index", str(first), "--out", str(out), "-q"]) == 0
    before = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    assert cli(["index", "--add", str(same), str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert "'geo/countries'" in err and "never replaces" in err
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == before
    # an index made before the check: the added table renamed to the base table's name
    assert cli(["index", "--add", str(other), str(out), "-q"]) == 0
    cat = out / "generations" / "g0001" / "catalog" / "tables.parquet"
    t = pd.read_parquet(cat)
    t["name"] = "geo/countries"
    t.to_parquet(cat, index=False)
    gman = out / "generations" / "g0001" / "generation.json"
    m = json.loads(gman.read_text())
    m["files"] = store.file_checksums(gman.parent)
    gman.write_text(json.dumps(m))
    e = open_index(out)
    q = pd.DataFrame({"c": ["C00", "C01", "C02", "C39"]})
    hits = [h for h in e.search(q, "c", k=10) if h.table == "geo/countries"]
    assert sorted(h.lake_rows for h in hits) == [5, 40]
    for h in hits:
        truth = (base if h.lake_rows == 40 else small).set_index("iso2")["name"]
        want = [truth.get(c) for c in q["c"]]           # the oracle: the table the hit found
        got = h.join(q)["name"].tolist()
        assert [None if pd.isna(v) else v for v in got] == want
        ns = {"df": q}
        exec(h.code(), ns)
        assert [None if pd.isna(v) else v for v in ns["joined"]["name"]] == want
        assert e.table(h.table_id)["name"].tolist() == truth.tolist()    # the widget's preview
    for ambiguous in (lambda: e.table("geo/countries"), lambda: e.search("geo/countries", "iso2")):
        with pytest.raises(QueryError, match="name one by its file"):
            ambiguous()
    capsys.readouterr()
    assert cli(["info", str(out), "--tables"]) == 0
    text = capsys.readouterr().out
    assert str(other / "geo" / "countries_small.csv") in text


def test_cli_component_options(spark, tmp_path, capsys):
    lake = write_lake(tmp_path / "lake", {"t.csv": pd.DataFrame({
        "a": [f"value {i}" for i in range(40)], "b": [f"other {i % 7}" for i in range(40)]})})
    out = tmp_path / "ix"
    assert cli(["index", str(lake), "--out", str(out), "-q", "--with", "pexeso",
                "--set", "pexeso.levels=auto", "--set", "pexeso.pivots=2",
                "--set", "pexeso.embedder=ngram:dim=32"]) == 0
    sec = open_index(out).index.generations[0].components["pexeso"]
    assert sec["pivots"] == 2 and sec["embedder"]["dim"] == 32
    assert sec["levels"] == sec["levels_model"]["chosen"] and 2 <= sec["levels"] <= 8
    # options for a component the build leaves out, or an unknown one: refused, nothing written
    for opt, msg in (("pexeso.levels=auto", "--with pexeso"), ("nosuch.x=1", "unknown")):
        assert cli(["index", str(lake), "--out", str(tmp_path / "no"), "-q", "--set", opt]) == 1
        assert msg in capsys.readouterr().err
        assert not (tmp_path / "no").exists()
    with pytest.raises(SystemExit):
        cli(["index", str(lake), "--out", str(tmp_path / "no"), "--set", "levels=auto"])
    assert "COMPONENT.OPTION=VALUE" in capsys.readouterr().err
    with pytest.raises(SystemExit):                # added tables keep the index's options
        cli(["index", "--add", str(lake), str(out), "--set", "pexeso.levels=5"])
    assert "cannot be used with --add" in capsys.readouterr().err


def test_cli_search_info_and_errors(demo_index_path, tmp_path, capsys):
    q = write_lake(tmp_path, {"q.csv": pd.DataFrame({"state": ["Alabama", "Alaska", "Ohio"]})})
    assert cli(["search", str(demo_index_path), "--table", str(q / "q.csv"), "--column", "state",
                "-k", "3"]) == 0
    out = capsys.readouterr().out
    assert "hate-crimes" in out and "100.0%" in out
    assert cli(["search", str(demo_index_path), "--table", "reference/gdp", "-c", "Year",
                "--format", "json", "-k", "2"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["table"] == "reference/population" and rows[0]["column"] == "Year"
    assert cli(["info", str(demo_index_path), "--verify"]) == 0
    out = capsys.readouterr().out
    assert "bruteforce" in out and "checksums: all files verified" in out
    # each method's options, as `lakejoin search --help` says (-O NAME=VALUE)
    lsh = next(m for m in open_index(demo_index_path).methods() if m.name == "lshensemble")
    line = next(ln for ln in out.splitlines()[out.splitlines().index(
        next(ln for ln in out.splitlines() if ln.strip().startswith("lshensemble "))) + 1:]
                if "options" in ln)
    assert "options (-O NAME=VALUE): " in line and all(f"{p.name}=" in line for p in lsh.params)
    assert cli(["info", str(demo_index_path), "--json"]) == 0
    opts = json.loads(capsys.readouterr().out)["method_options"]["lshensemble"]
    assert [o["name"] for o in opts] == [p.name for p in lsh.params]
    assert "union search, `lakejoin union`: needs component union; rebuild with --with union" in out
    assert cli(["search", str(tmp_path / "nope.index"), "-t", "x.csv", "-c", "a"]) == 1
    assert "No index at" in capsys.readouterr().err
    assert cli(["search", str(demo_index_path), "-t", str(q / "q.csv"), "-c", "nope"]) == 1
    assert "not found" in capsys.readouterr().err


def test_cli_query_file_of_the_lake_is_its_table(demo_index_path, tmp_path, capsys):
    """A file of the lake given as --table is that lake table (left out of its results); a
    copy of it elsewhere is marked as the user's table, and a table with the same header but
    other rows is not."""
    from lakejoin_jupyter.demo import demo_lake
    src = Path(demo_lake()) / "reference" / "gdp.csv"
    assert cli(["search", str(demo_index_path), "-t", str(src), "-c", "Country Name",
                "--format", "json", "-k", "50"]) == 0
    out = capsys.readouterr().out
    assert "is the lake table reference/gdp" in out
    rows = json.loads(out[out.index("["):])
    assert rows and all(r["table"] != "reference/gdp" for r in rows)
    copy = tmp_path / "mine.csv"
    shutil.copy(src, copy)
    assert cli(["search", str(demo_index_path), "-t", str(copy), "-c", "Country Name",
                "--rank", "useful", "-k", "50"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines          # the table, without the notes under it
            if not line.startswith("#") and "would multiply" not in line]
    assert "reference/gdp (your table)" in rows[-1]
    assert sum("(your table)" in line for line in lines) == 1


def test_cli_note_on_a_lake_file_agrees_with_the_results(spark, tmp_path, capsys):
    """A lake file given as --table: `search` (and `join`) leave out its query column and
    mark its other columns "(your table)", and the note says that; `union` leaves the whole
    table out, and its note says so."""
    from lakejoin_jupyter.indexing.pipeline import build
    codes = [f"K{i:03d}" for i in range(60)]
    root = write_lake(tmp_path / "lake", {
        "pairs.csv": pd.DataFrame({"src": codes, "dst": codes[5:] + codes[:5]}),
        "other.csv": pd.DataFrame({"key": codes[:40], "n": range(40)})})
    out = tmp_path / "x.index"
    build(root, out, spark=spark, progress=False)
    assert cli(["search", str(out), "-t", str(root / "pairs.csv"), "-c", "src"]) == 0
    text = capsys.readouterr().out
    assert "pairs (your table)" in text                  # dst, the table's other column
    note = next(line for line in text.splitlines() if line.startswith("note:"))
    assert "left out of its own results" not in note
    assert "query column(s) are left out" in note and "(your table)" in note


def test_cli_search_ranks_as_the_widget_and_says_so(demo_index_path, capsys):
    """`lakejoin search` ranks by usefulness by default, as the widget and the magic do (the
    same order as engine.search(rank="useful")), and its header says which ranking it used."""
    args = ["search", str(demo_index_path), "-t", "reference/gdp", "-c", "Country Name",
            "-k", "8"]
    engine = open_index(demo_index_path)
    for extra, rank, word in (([], "useful", "usefulness"), (["--rank", "overlap"], "overlap",
                                                                  "overlap")):
        assert cli(args + extra) == 0
        out = capsys.readouterr().out
        assert f"ranked by {word};" in out.splitlines()[0]
        assert cli(args + extra + ["--format", "json"]) == 0
        out = capsys.readouterr().out
        shown = [(r["table"], r["column"]) for r in json.loads(out[out.index("["):])]
        res = engine.search("reference/gdp", "Country Name", k=8, rank=rank)
        assert shown == [(h.table, ", ".join(h.columns)) for h in res]
    useful = engine.search("reference/gdp", "Country Name", k=8, rank="useful")
    overlap = engine.search("reference/gdp", "Country Name", k=8, rank="overlap")
    assert [h.table for h in useful] != [h.table for h in overlap]  # the default matters here


def test_useful_rank_of_a_year_query_puts_the_year_column_first(demo_index_path):
    """gdp's Year shares 5 values with police_killings' `pop` (counts) by coincidence: with
    the lake side's kind alone (number, 0.3 > year-like 0.2) that 8 % match ranked first;
    weighed by the weaker side of the key it ranks below the two year columns."""
    res = open_index(demo_index_path).search("reference/gdp", "Year", k=5, rank="useful")
    assert [(h.table, h.columns) for h in res][:2] == [
        ("reference/population", ("Year",)), ("reference/top-economies", ("year",))]
    assert any(n.startswith("'Year': the query column looks like years") for n in res.notes)
    names = open_index(demo_index_path).search("reference/gdp", "Country Name", k=5)
    assert not any("the query column" in n for n in names.notes)


def test_cli_demo_output_is_the_readme_s(demo_index_path, capsys):
    """`lakejoin demo` on a built index: the ranked rows the README shows are the ones it
    prints, and the unmatched values are written as in the query table, not normalized."""
    assert cli(["demo", "--out", str(demo_index_path)]) == 0
    out = capsys.readouterr().out
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = readme.split("FiveThirtyEight's FIFA audience table:")[1].split("```")[1].strip("\n")
    shown = [line for line in block.splitlines() if not line.strip().startswith("...")]
    assert "ranked by usefulness" in shown[0]
    strip_ms = lambda line: line.rsplit(";", 1)[0]          # noqa: E731 (timing differs)
    printed = [strip_ms(line) for line in out.splitlines()]
    for line in shown:
        assert strip_ms(line) in printed
    assert "unmatched query values include ['Bosnia-Herzegovina'" in out


def test_hit_values_of_a_lake_table_query_are_as_written(demo_engine):
    """A query named as a lake column holds normalized values; its hits list the values as
    the table writes them, and the same as a DataFrame query of that column does."""
    res = demo_engine.search("fivethirtyeight/fifa/fifa_countries_audience", "country", k=3)
    frame = demo_engine.table("fivethirtyeight/fifa/fifa_countries_audience")
    by_frame = demo_engine.search(frame, "country", k=3, include_own=False)
    top, same = res[0], next(h for h in by_frame if h.table == res[0].table
                             and h.columns == res[0].columns)
    assert "Bosnia-Herzegovina" in top.unmatched and "bosnia-herzegovina" not in top.unmatched
    assert sorted(top.unmatched) == sorted(same.unmatched)
    assert sorted(top.matches) == sorted(same.matches)


def test_cli_search_takes_method_options(demo_index_path, capsys):
    """`lakejoin search -O NAME=VALUE` passes a method's option (as `%lakejoin search -O`),
    and a bad one is the engine's one-line error."""
    args = ["search", str(demo_index_path), "-t", "reference/gdp", "-c", "Country Name",
            "-m", "lshensemble", "--threshold", "0.5", "--format", "json"]
    assert cli(args + ["-O", "route=lsh"]) == 0
    out = capsys.readouterr().out
    scanned = json.loads(out[out.index("["):])
    res = open_index(demo_index_path).search("reference/gdp", "Country Name", threshold=0.5,
                                             method="lshensemble", route="lsh", rank="useful")
    assert [r["table"] for r in scanned] == [h.table for h in res] != []
    assert cli(args + ["-O", "route=nowhere"]) == 1
    assert "route" in capsys.readouterr().err
    assert cli(args + ["-O", "route"]) == 1
    assert "NAME=VALUE" in capsys.readouterr().err


def test_cli_program_ends_with_its_output_flushed(demo_index_path):
    """Run as a program, `lakejoin search` / `info` end without the interpreter's teardown
    (cli.QUICK_EXIT): everything printed still reaches a pipe, and the status is kept."""
    import subprocess
    import sys
    prog = [sys.executable, "-c", "import sys; from lakejoin_jupyter.cli import main; "
                                  "sys.exit(main())"]
    run = subprocess.run(prog + ["search", str(demo_index_path), "-t", "reference/gdp", "-c",
                                 "Country Name", "-k", "50", "--format", "json"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)
    assert len(rows) == len(open_index(demo_index_path).search(
        "reference/gdp", "Country Name", k=50)) > 10
    bad = subprocess.run(prog + ["search", str(demo_index_path), "-t", "reference/gdp", "-c",
                                 "nope"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1 and "lakejoin: error:" in bad.stderr
    info = subprocess.run(prog + ["info", str(demo_index_path)], capture_output=True,
                          text=True, timeout=300)
    assert info.returncode == 0 and info.stdout.rstrip().endswith(
        "a name is what `lakejoin search --table` takes)")


def test_cli_help_texts(capsys):
    for cmd in (["--help"], ["index", "--help"], ["search", "--help"], ["union", "--help"],
                ["info", "--help"], ["demo", "--help"]):
        with pytest.raises(SystemExit) as e:
            cli(cmd)
        assert e.value.code == 0
        out = capsys.readouterr().out
        assert "usage: lakejoin" in out
    with pytest.raises(SystemExit):
        cli(["index", "--help"])
    assert "--add NEW_TABLES INDEX" in capsys.readouterr().out


def test_table_loaded_from_the_lake_is_its_own_table_by_its_rows(demo_engine):
    """A frame of engine.table() is decided on its rows, as the same rows read otherwise:
    its table marked (your table), listed last (k=None), taking none of the k places while
    other tables qualify (k=3: three others, the own table named in own_left_out: the
    lead's rule for newuser20 D3); include_own=False leaves it out."""
    gdp = demo_engine.table("reference/gdp")
    assert gdp.shape[1] == 4 and gdp.attrs["lakejoin_table"] == "reference/gdp"
    every = demo_engine.search(gdp, "Country Code", k=None)
    assert (every[-1].table, every[-1].column) == ("reference/gdp", "Country Code")
    assert every[-1].is_query_table and not any(h.is_query_table for h in every[:-1])
    res = demo_engine.search(gdp, "Country Code", k=3)
    assert [h.column_ids for h in res] == [h.column_ids for h in every[:3]]
    assert not any(h.is_query_table for h in res)
    assert res.own_left_out == ["reference/gdp (your table)"]     # first by overlap
    gone = demo_engine.search(gdp, "Country Code", k=3, include_own=False)
    assert len(gone) == 3 and all(h.table != "reference/gdp" for h in gone)


def test_result_says_which_plan_answered(demo_engine):
    """SearchResult.plan / .how name the exact plan a method chose (JOSIE's planner here;
    PEXESO's plans per partition and LSH Ensemble's route the same way), in the repr too."""
    from lakejoin_jupyter.engine import SearchResult
    res = demo_engine.search(["France", "Germany", "Chile"], k=3)
    assert res.plan == f"plan {res.stats['plan']}" and res.stats["plan"] in ("josie", "mergelist")
    assert res.how.startswith(f"{res.method}, {res.plan}, ") and res.how in repr(res)
    assert res.plan in res._repr_html_()
    for stats, want in (({"plan": ["bruteforce", "pexeso", "bruteforce"]},
                         "plan bruteforce, pexeso"), ({"route": "exact"}, "route exact"),
                        ({}, None)):
        r = SearchResult([], res.query, "m", res.params, 0.001, stats)
        assert r.plan == want
        assert r.how == (f"m, {want}, 1.0 ms" if want else "m, 1.0 ms")


def test_every_method_rejects_unknown_or_mistyped_options():
    """Options are declared once per method (ParamSpec) and checked once by the engine: a
    misspelled option is an error listing the valid ones, for every method, and a value of
    the wrong type or out of range says what is expected."""
    from lakejoin_jupyter.engine import SEARCH_METHODS
    from lakejoin_jupyter.errors import QueryError
    for m in SEARCH_METHODS:
        with pytest.raises(QueryError, match=rf"Unknown option\(s\) \['taux'\] for method "
                                             rf"'{m.name}'; valid options: "):
            m.resolve_options({"taux": 0.1})
        full = m.resolve_options({})
        assert set(full) == {p.name for p in m.params}
        for p in m.params:
            bad = {"bool": "yes", "choice": "nope", "str": 3, "int": 1.5,
                   "float": "0.5"}[p.kind]
            with pytest.raises(QueryError, match=f"method '{m.name}'"):
                m.resolve_options({p.name: bad})
    pexeso = next(m for m in SEARCH_METHODS if m.name == "pexeso")
    with pytest.raises(QueryError, match=r"'tau' is a number from 0 to 2 \(got 3"):
        pexeso.resolve_options({"tau": 3})
    assert pexeso.resolve_options({"tau": 1})["tau"] == 1.0 and \
        isinstance(pexeso.resolve_options({"tau": 1})["tau"], float)


def test_engine_search_refuses_a_misspelled_option(demo_engine):
    from lakejoin_jupyter.errors import QueryError
    for method in ("josie", "mergelist", "lshensemble"):
        with pytest.raises(QueryError, match="valid options"):
            demo_engine.search(["France", "Chile"], k=3, method=method, threshold=0.5,
                               bacth_size=3)


@pytest.mark.parametrize("seed", range(5))
def test_dictionary_lookup_equals_a_dict_with_forced_hash_collisions(seed):
    """Generation.lookup (vectorized byte comparison of the first token of each hash, then
    the other tokens of a colliding hash one by one) against a Python dict, on a dictionary
    whose hash array gives some tokens the hash of another token (a 64-bit collision, placed
    before or after the true one)."""
    import numpy as np

    from lakejoin_jupyter.hashing import token_hash64
    from lakejoin_jupyter.index.store import Generation
    rng = np.random.default_rng(seed)
    alphabet = list("abcé中 -1")
    vocab = sorted({"".join(rng.choice(alphabet, rng.integers(1, 7))) for _ in range(300)})
    held = [t for t in vocab if rng.random() < 0.6]
    data = [t.encode("utf-8") for t in held]
    off = np.concatenate([[0], np.cumsum([len(b) for b in data])]).astype(np.int64)
    h = token_hash64(held).astype(np.uint64)
    entries = list(zip(h.tolist(), range(len(held))))
    for tid in rng.choice(len(held), size=min(40, len(held)), replace=False):  # collisions
        victim = held[int(rng.integers(len(held)))]
        entries.append((int(token_hash64([victim])[0]), int(tid)))
    rng.shuffle(entries)
    entries.sort(key=lambda e: e[0])                # equal hashes in random order
    fake = type("G", (), {})()
    fake._dictionary = (np.array([e[0] for e in entries], dtype=np.uint64),
                        np.array([e[1] for e in entries], dtype=np.int32), off,
                        np.frombuffer(b"".join(data), dtype=np.uint8))
    queries = list(rng.choice(vocab, 200)) + ["", "missing", "x" * 50]
    got = Generation.lookup(fake, queries)
    want = {t: i for i, t in enumerate(held)}
    assert got.tolist() == [want.get(t, -1) for t in queries]
    # the caller's hashes (union search computes them once per query column): the same
    assert Generation.lookup(fake, queries, token_hash64(queries)).tolist() == got.tolist()


def test_cli_build_prints_each_phase_once(spark, tmp_path, capsys):
    """With progress, a line per phase and their sum; the closing summary does not list the
    phases again. Quiet: no progress, so the summary lists them."""
    lake = write_lake(tmp_path / "lake", {"t.csv": pd.DataFrame({"a": ["x", "y", "z"]})})
    assert cli(["index", str(lake), "--out", str(tmp_path / "loud")]) == 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert "building the dictionary" in text and "phases sum to" in text
    assert "Phases:" not in text and text.count("Indexed 1 of 1 tables") == 1
    assert cli(["index", str(lake), "--out", str(tmp_path / "quiet"), "-q"]) == 0
    out = capsys.readouterr()
    assert "phases sum to" not in out.out + out.err
    assert (out.out + out.err).count("Phases: ") == 1


def test_plain_text_result_formats_figures_as_the_cli_does(demo_engine, capsys):
    """Terminal IPython shows the repr: shares, fan-out and rows written as the CLI writes
    them (no raw float like 0.106952)."""
    import re
    res = demo_engine.search(["France", "Germany", "Chile"], k=3)
    text = repr(res).split("\n", 1)[1]
    assert not re.search(r"\d\.\d{4,}", text), text
    h = res[0]
    assert f"{h.containment:.1%}" in text and f"x{h.key_ratio:.3g}" in text
    cli(["search", str(demo_engine.index.path), "-t", "reference/gdp", "-c", "Country Name",
         "-k", "2"])
    printed = capsys.readouterr().out.splitlines()
    assert printed[1].split() == repr(demo_engine.search(
        "reference/gdp", "Country Name", k=2)).splitlines()[1].split()


def test_cli_join_writes_the_join_of_the_hit_it_names(demo_engine, tmp_path, capsys):
    """`lakejoin join INDEX -t Q -c COL --hit N --out FILE`: the file holds hit N's join
    (hit N of the same search as `lakejoin search`), with --aggregate as %lakejoin join."""
    from lakejoin_jupyter.cli import _read_query_table
    index = str(demo_engine.index.path)
    pd.DataFrame({"country": ["France", "Germany", "Chile", "Japan", "Nowhere", "France"],
                  "n": ["1", "2", "3", "4", "5", "6"]}).to_csv(tmp_path / "q.csv", index=False)
    pd.DataFrame({"code": ["FRA", "DEU", "CHL", "JPN", "XXX"]}).to_csv(tmp_path / "c.csv",
                                                                     index=False)
    for name, col, table, extra in (("q.csv", "country", None, []),
                                    ("c.csv", "code", "reference/gdp", ["--aggregate", "latest"])):
        q, _ = _read_query_table(demo_engine, str(tmp_path / name))     # as the CLI reads it
        res = demo_engine.search(q, col, k=10, rank="useful")            # the CLI's ranking
        rank = 1 if table is None else next(h.rank for h in res if h.table == table)
        out = tmp_path / f"joined{rank}.csv"
        assert cli(["join", index, "-t", str(tmp_path / name), "-c", col, "--hit", str(rank),
                    "--out", str(out), *extra]) == 0
        assert f"-> {out}" in capsys.readouterr().err
        want = res[rank - 1].join(q, **({"aggregate": "latest"} if extra else {}))
        assert len(want) == len(q)
        want.to_csv(tmp_path / "want.csv", index=False)
        pd.testing.assert_frame_equal(pd.read_csv(out, dtype=str),
                                      pd.read_csv(tmp_path / "want.csv", dtype=str))
    assert cli(["join", index, "-t", str(tmp_path / "q.csv"), "-c", "country", "--hit", "99",
                "--out", str(tmp_path / "x.csv")]) == 1
    assert "--hit 99: the search found" in capsys.readouterr().err
    assert cli(["join", index, "-t", str(tmp_path / "q.csv"), "-c", "country", "--hit", "1",
                "--out", str(tmp_path / "x.txt")]) == 1
    assert "write a .csv or a .parquet file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli(["join", "--help"])
    assert "--hit N" in capsys.readouterr().out


def test_cli_suggests_only_indexed_tables(spark, tmp_path, capsys):
    """A table skipped at build is never the example name, and naming it says it was
    skipped."""
    from lakejoin_jupyter.indexing.pipeline import build
    root = write_lake(tmp_path / "lake", {"a/array.jsonl": "[1, 2]\n",
                                          "b/people.csv": "email,name\nann@x.org,Ann\n"})
    build(root, tmp_path / "i", spark=spark, progress=False)
    assert cli(["search", str(tmp_path / "i"), "-t", "nosuch", "-c", "email"]) == 1
    err = capsys.readouterr().err
    assert "e.g. 'b/people'" in err and "a/array" not in err
    assert cli(["search", str(tmp_path / "i"), "-t", "a/array", "-c", "email"]) == 1
    assert "'a/array' was skipped when the index was built" in capsys.readouterr().err


def test_engine_caches_are_plain_attributes(demo_index_path, monkeypatch):
    """The engine's per-column caches are attributes of their own (empty on a fresh engine):
    ``column_kind`` computes a column's kind once and keeps it in ``_column_kinds``;
    ``_lake_cells`` keeps the last ``CELLS_KEPT`` columns read in ``_cells_kept``."""
    from lakejoin_jupyter import engine as engine_module
    from lakejoin_jupyter.join import preview
    engine = open_index(demo_index_path)
    assert engine._column_kinds == {} and engine._cells_kept == {}
    calls = []
    key_kind = preview.key_kind
    monkeypatch.setattr(preview, "key_kind", lambda *a, **k: calls.append(a) or key_kind(*a, **k))
    first = engine.column_kind(0)
    n = len(calls)
    assert engine.column_kind(0) == first and len(calls) == n > 0
    assert engine._column_kinds == {0: first}
    cols = engine.index.columns
    reads = []
    lake_table = engine_module.lake_table
    monkeypatch.setattr(engine_module, "lake_table", lambda t, *a, **k: reads.append(t.name)
                        or lake_table(t, *a, **k))
    first_col = cols.iloc[0]
    cells = engine._lake_cells(int(first_col["table_id"]), str(first_col["name"]))
    assert engine._lake_cells(int(first_col["table_id"]), str(first_col["name"])) == cells
    assert len(reads) == 1 and list(engine._cells_kept.values()) == [cells]


def test_cli_usage_errors_show_the_subcommands_usage(capsys, tmp_path):
    """New user 12: `lakejoin index lake` without --out printed the top-level usage
    (`lakejoin [-h] [--version] COMMAND ...`); a command's usage error shows that command's
    usage and exits 2 (argparse's status, which the README states), other errors exit 1."""
    for argv, usage in ((["index", str(tmp_path)], "usage: lakejoin index "),
                        (["index", "--add", "a", "b", "--out", "c"], "usage: lakejoin index "),
                        (["search", str(tmp_path), "-t", "q.csv"], "usage: lakejoin search "),
                        (["union", str(tmp_path)], "usage: lakejoin union ")):
        with pytest.raises(SystemExit) as e:
            cli(argv)
        err = capsys.readouterr().err
        assert e.value.code == 2 and err.startswith(usage), (argv, err)
        assert "COMMAND ..." not in err
    assert cli(["info", str(tmp_path / "missing")]) == 1
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert "exit status 1" in readme and "exits with status 2" in readme


def test_cli_search_help_fits_every_method_and_says_what_format_does(capsys):
    """New user 12: `lakejoin search --help` described only the distinct-values ranking
    (neither -m transform nor -m pexeso) and --format had no help; the PEXESO tau's help
    says which distance it is, not the fuzzy join's scale."""
    from lakejoin_jupyter.search.pexeso import METHOD
    with pytest.raises(SystemExit):
        cli(["search", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "-m pexeso" in text and "-m transform" in text and "lshensemble" in text
    assert "--format {table,csv,json} table: aligned text" in text
    tau = next(p for p in METHOD.params if p.name == "tau")
    assert "Euclidean distance" in tau.help and "Fuzzy join" in tau.help


def test_engine_of_a_path_says_to_open_the_index(tmp_path):
    """Engine(path) used to build an engine that failed at its first search with
    "'str' object has no attribute 'check_present'"; a path is refused at once, naming
    open_index."""
    from lakejoin_jupyter.engine import Engine
    from lakejoin_jupyter.errors import QueryError
    for path in (str(tmp_path / "lake.index"), tmp_path / "lake.index"):
        with pytest.raises(QueryError, match=r"open_index\("):
            Engine(path)
