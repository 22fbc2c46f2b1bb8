"""%lakejoin / %%lakejoin: parsing, help, the subcommand router, joins that name their saved
search, and every bad input giving one clear message while the shell stays usable."""
import shutil

import pandas as pd
import pytest

from conftest import write_lake
from lakejoin_jupyter import magics
from lakejoin_jupyter.join.plan import default_variable
from lakejoin_jupyter.magics import MagicError, Subcommand
from lakejoin_jupyter.errors import QueryError
from lakejoin_jupyter.search.registry import parse_option_items as parse_options
from lakejoin_jupyter.magics.context import MagicContext
from lakejoin_jupyter.ui.session import SESSION


@pytest.fixture
def ip():
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "lakejoin_jupyter")
    saved = SESSION.engine
    SESSION.engine = None
    yield shell
    SESSION.engine = saved


def magic(ip, line):
    return ip.run_line_magic("lakejoin", line)


def test_help_lists_every_subcommand(ip, capsys):
    assert magic(ip, "--help") is None
    out = capsys.readouterr().out
    for name in ("index", "open", "search", "join", "ui", "info"):
        assert f"    {name} " in out
    for name in ("index", "open", "search", "join", "ui", "info"):
        magic(ip, f"{name} --help")
        assert f"usage: %lakejoin {name}" in capsys.readouterr().out


def test_bad_arguments_are_one_message_not_an_exit(ip):
    with pytest.raises(MagicError, match="invalid int value"):
        magic(ip, "search df.x -k many")
    with pytest.raises(MagicError, match="invalid choice"):
        magic(ip, "nosuchcommand")
    with pytest.raises(MagicError, match="check the quotes"):
        magic(ip, "search 'unclosed")
    with pytest.raises(MagicError, match=r"unrecognized arguments: df.y; a multi-column key "
                                         r"is one DataFrame and a -c per column: "
                                         r"%lakejoin search VAR -c COL1 -c COL2"):
        magic(ip, "search df.x df.y")
    with pytest.raises(MagicError, match=r"unrecognized arguments: --nosuch \(see %lakejoin "
                                         r"join --help\)"):
        magic(ip, "join 1 --from h --nosuch")
    assert ip.run_cell("1 + 1").result == 2      # the shell is still fine


def test_no_index_open_is_explained(ip):
    ip.user_ns["nx_df"] = pd.DataFrame({"a": ["x"]})
    for line in ("search nx_df.a", "join 1 --from nx_df", "info"):
        with pytest.raises(MagicError, match="No index is open"):
            magic(ip, line)
    err = MagicError("boom")
    assert err._render_traceback_() == ["\x1b[31mlakejoin:\x1b[0m boom"]   # no traceback


def test_errors_follow_the_shells_colours(ip):
    """`ipython --colors=NoColor` (or `%colors nocolor`): the error line has no escape codes."""
    saved = ip.colors
    try:
        ip.colors = "nocolor"
        assert MagicError("boom")._render_traceback_() == ["lakejoin: boom"]
        ip.colors = "linux"
        assert MagicError("boom")._render_traceback_() == ["\x1b[31mlakejoin:\x1b[0m boom"]
    finally:
        ip.colors = saved


def test_routed_subcommands_appear_and_run(ip, capsys):
    calls = []
    magics.SUBCOMMANDS["echo-test"] = Subcommand(
        "echo-test", "repeat the words", lambda p: p.add_argument("words", nargs="+"),
        lambda ctx, a: calls.append((ctx.user_ns is ip.user_ns, a.words)) or "done")
    try:
        magic(ip, "--help")
        assert "echo-test" in capsys.readouterr().out
        assert magic(ip, "echo-test a 'b c'") == "done"
        assert calls == [(True, ["a", "b c"])]
        # cell magic: one request per line, continuation, comments
        out = ip.run_cell_magic("lakejoin", "", "# c\necho-test x \\\n  y\n\necho-test z\n")
        assert out == "done" and calls[1:] == [(True, ["x", "y"]), (True, ["z"])]
    finally:
        magics.SUBCOMMANDS.pop("echo-test")


def test_options_are_typed():
    assert parse_options(["a=1", "b=0.5", "c=true", "d=x"]) == \
        {"a": 1, "b": 0.5, "c": True, "d": "x"}
    with pytest.raises(QueryError, match="NAME=VALUE"):
        parse_options(["novalue"])


def test_query_resolution_messages(ip):
    ctx = MagicContext(ip, SESSION)
    ip.user_ns["qr_df"] = pd.DataFrame({"a.b": ["x"], "c": ["y"]})
    ip.user_ns["qr_num"] = 3
    assert ctx.query("qr_df.a.b")[2] == ["a.b"]           # split at the first dot
    assert ctx.query("qr_df", ["c"])[2] == ["c"]
    assert ctx.query("some/table", ["col"]) == ("some/table", "some/table", ["col"])
    with pytest.raises(MagicError, match="Name the query column"):
        ctx.query("qr_df")
    with pytest.raises(MagicError, match="not a pandas or Spark"):
        ctx.query("qr_num", ["c"])
    with pytest.raises(MagicError, match="neither a DataFrame"):
        ctx.query("nothing_here")


# ---------------------------------------------------------------- with the demo index

@pytest.mark.spark
def test_open_search_join_info(ip, demo_index_path, demo_engine, capsys):
    from lakejoin_jupyter.demo import demo_query
    fifa = demo_query()
    ip.user_ns["fifa"] = fifa
    magic(ip, f"open '{demo_index_path}'")
    assert "Opened" in capsys.readouterr().out
    res = magic(ip, "search fifa.country -k 5 --save mres")
    want = demo_engine.search(fifa, "country", k=5, rank="useful")     # the magic's default
    assert res.rank == "useful"
    page = res._repr_html_()
    for column in ("fan-out", "coverage", "join rows", "adds", "key"):
        assert f">{column}</th>" in page
    by_overlap = magic(ip, "search fifa.country -k 5 --rank overlap")
    assert [h.table for h in by_overlap] == \
        [h.table for h in demo_engine.search(fifa, "country", k=5)]
    assert [(h.table, h.columns, h.overlap) for h in res] == \
        [(h.table, h.columns, h.overlap) for h in want]
    assert ip.user_ns["mres"] is res
    magic(ip, "join 2 --from mres --quiet")
    name = default_variable("fifa", want[1].table)
    pd.testing.assert_frame_equal(ip.user_ns[name], want[1].join(fifa))
    magic(ip, "join 2 --from mres --quiet")      # the same join again: its own variable
    pd.testing.assert_frame_equal(ip.user_ns[name], want[1].join(fifa))
    assert name + "_2" not in ip.user_ns
    magic(ip, "join 2 --from mres --how inner --duplicates first --into inner_j --quiet")
    pd.testing.assert_frame_equal(ip.user_ns["inner_j"],
                                  want[1].join(fifa, how="inner", duplicates="first"))
    every = magic(ip, "search fifa.country --all --save every")
    panel = next(i for i, h in enumerate(every, 1) if h.table == "reference/gdp")
    assert every[panel - 1].key_ratio > 1 and every[panel - 1].multiplies_rows
    magic(ip, f"join {panel} --from every --aggregate latest --into per_key --quiet")
    pd.testing.assert_frame_equal(ip.user_ns["per_key"],
                                  every[panel - 1].join(fifa, aggregate="latest"))
    assert len(ip.user_ns["per_key"]) == len(fifa)
    with pytest.raises(MagicError, match="pick a rank from 1 to 5"):
        magic(ip, "join 9 --from mres")
    # no hidden state: a join names its search; a search in the widget changes nothing
    with pytest.raises(MagicError, match="the following arguments are required: --from"):
        magic(ip, "join 2")
    with pytest.raises(MagicError, match="not a search result"):
        magic(ip, "join 2 --from fifa")
    # the join reads the query DataFrame when it runs (what "Run all" would give)
    ip.user_ns["fifa"] = fifa.head(3)
    magic(ip, "join 2 --from mres --into head_j --quiet")
    pd.testing.assert_frame_equal(ip.user_ns["head_j"], want[1].join(fifa.head(3)))
    html = magic(ip, "info")._repr_html_()
    assert "bruteforce" in html and "Join" in html and "echo-test" not in html
    # lake-table query with a name needing quotes
    res = magic(ip, "search 'reference/country-codes' -c 'ISO3166-1-Alpha-3' -k 3")
    assert res[0].table.startswith("reference/unsd-m49")


@pytest.mark.spark
def test_a_rerun_join_takes_its_own_variable_back(ip, demo_index_path, demo_engine,
                                                   monkeypatch):
    """The widget's naming rule: the same join run again, or edited (--how inner), rebinds
    its variable (no _2 holding a stale copy), also after its --insert cell has run; a join
    of that table on another lake column gets the column's name; a variable the user made
    is never overwritten."""
    from lakejoin_jupyter.demo import demo_query
    fifa = demo_query()
    for n in [n for n in ip.user_ns if n.startswith("rr_")]:
        del ip.user_ns[n]
    ip.user_ns["rr_fifa"] = fifa
    magic(ip, f"open '{demo_index_path}'")
    hits = magic(ip, "search rr_fifa.country -k 10 --save rr_hits")
    same = [i for i, h in enumerate(hits, 1) if h.table == "reference/country-codes"]
    assert len(same) >= 2
    first, other = hits[same[0] - 1], hits[same[1] - 1]
    name = default_variable("rr_fifa", first.table)
    magic(ip, f"join {same[0]} --from rr_hits --quiet")
    magic(ip, f"join {same[0]} --from rr_hits --quiet")          # the cell run again
    magic(ip, f"join {same[0]} --from rr_hits --how inner --quiet")   # the cell edited
    made = sorted(n for n in ip.user_ns if n.startswith(name))
    assert made == [name]
    pd.testing.assert_frame_equal(ip.user_ns[name], first.join(fifa, how="inner"))
    # another lake column of the same table: its own, column-suffixed variable
    magic(ip, f"join {same[1]} --from rr_hits --quiet")
    col_name = default_variable("rr_fifa", other.table, column=other.columns[0])
    assert col_name != name
    pd.testing.assert_frame_equal(ip.user_ns[col_name], other.join(fifa))
    pd.testing.assert_frame_equal(ip.user_ns[name], first.join(fifa, how="inner"))
    magic(ip, f"join {same[1]} --from rr_hits --how inner --quiet")     # and it is its own
    pd.testing.assert_frame_equal(ip.user_ns[col_name], other.join(fifa, how="inner"))
    assert sorted(n for n in ip.user_ns if n.startswith(name)) == sorted([name, col_name])
    # a variable the user made (or rebound) under that name is kept
    ip.run_cell(f"{name} = rr_fifa.head(2)")
    user_made = ip.user_ns[name]
    magic(ip, f"join {same[0]} --from rr_hits --quiet")
    assert ip.user_ns[name] is user_made
    pd.testing.assert_frame_equal(ip.user_ns[name + "_2"], first.join(fifa))
    magic(ip, f"join {same[1]} --from rr_hits --quiet")     # the other join: still its own
    pd.testing.assert_frame_equal(ip.user_ns[col_name], other.join(fifa))
    assert name + "_3" not in ip.user_ns
    # the code inserted as the next cell, run: the join run again still takes its variable
    inserted = []
    monkeypatch.setattr(ip, "set_next_input", lambda text, replace=False: inserted.append(text))
    magic(ip, f"join {same[1]} --from rr_hits --insert --quiet")
    assert ip.run_cell(inserted[-1]).success
    magic(ip, f"join {same[1]} --from rr_hits --how inner --quiet")
    pd.testing.assert_frame_equal(ip.user_ns[col_name], other.join(fifa, how="inner"))
    assert col_name + "_2" not in ip.user_ns


@pytest.mark.spark
def test_a_join_from_a_saved_search_says_when_its_frame_changed(ip, demo_index_path):
    """``%lakejoin join N --from VAR`` joins the query variable as it is now (what its code
    names), and says, as the widget's Join does, when that is not the frame searched; a
    frame without the query column is refused."""
    from IPython.utils.capture import capture_output

    from lakejoin_jupyter.demo import demo_query
    fifa = demo_query()
    ip.user_ns["fifa"] = fifa
    magic(ip, f"open '{demo_index_path}'")
    hits = magic(ip, "search fifa.country -k 3 --save mres")

    def join(into):
        with capture_output() as cap:
            magic(ip, f"join 1 --from mres --into {into}")
        return "\n".join(o.data["text/plain"] for o in cap.outputs)
    ip.user_ns["fifa"] = fifa.copy()                  # equal content: no note
    assert "changed since the search" not in join("j1")
    small = fifa.head(3).copy()
    ip.user_ns["fifa"] = small
    said = join("j2")
    pd.testing.assert_frame_equal(ip.user_ns["j2"], hits[0].join(small))
    assert (f"Note: `fifa` changed since the search ({len(fifa):,} -> 3 rows): joined the "
            f"current frame; the hit's figures describe the searched one; search again to "
            f"refresh them.") in said
    ip.user_ns["fifa"] = small.drop(columns="country")
    with pytest.raises(MagicError, match="`fifa` changed since the search: it has no column "
                                         "'country'"):
        magic(ip, "join 1 --from mres --into j3")
    assert "j3" not in ip.user_ns


def test_a_terminal_sees_the_text_of_info_and_join(ip, demo_index_path):
    """Terminal IPython shows text/plain: info, the join's summary and its code must be
    there (not ``<IPython.core.display.HTML object>``); notebooks keep the HTML."""
    from IPython.utils.capture import capture_output

    from lakejoin_jupyter.demo import demo_query
    ip.user_ns["fifa"] = demo_query()
    magic(ip, f"open '{demo_index_path}'")
    data, _ = ip.display_formatter.format(magic(ip, "info"))
    text = data["text/plain"]
    assert "<table>" in data["text/html"]
    assert "bruteforce" in text and "Search methods" in text and "Magic subcommands" in text
    hits = magic(ip, "search fifa.country -k 3 --save hits")
    with capture_output() as cap:
        magic(ip, "join 1 --from hits --into j")
    shown = [o.data for o in cap.outputs]
    assert all("text/html" in d and "IPython.core.display" not in d["text/plain"]
               for d in shown)
    texts = [d["text/plain"] for d in shown]
    assert any(hits[0].table in t and "Bound to j." in t for t in texts)
    summary = next(t for t in texts if "Bound to j." in t)     # no Markdown emphasis
    assert "**" not in summary and f"{len(ip.user_ns['j']):,} rows" in summary
    code = hits[0].code(name="fifa", into="j").rstrip("\n")
    assert code in texts


@pytest.mark.spark
def test_bad_inputs_in_magics(ip, demo_index_path, tmp_path, spark):
    magic(ip, f"open '{demo_index_path}'")
    ip.user_ns["empty_df"] = pd.DataFrame({"c": []})
    ip.user_ns["null_df"] = pd.DataFrame({"c": [None, float("nan"), ""]})
    ip.user_ns["ok_df"] = pd.DataFrame({"c": ["France", "Chad"]})
    with pytest.raises(MagicError, match="empty"):
        magic(ip, "search empty_df.c")
    with pytest.raises(MagicError, match="no values to search with"):
        magic(ip, "search null_df.c")
    with pytest.raises(MagicError, match=r"Column\(s\) \['nope'\] not found"):
        magic(ip, "search ok_df.nope")
    # a Spark DataFrame above --max-values is sampled, and the result says so
    sdf = spark.createDataFrame(pd.DataFrame({"c": [f"v{i}" for i in range(300)]}))
    ip.user_ns["big_sdf"] = sdf
    res = magic(ip, "search big_sdf.c --max-values 50")
    assert res.query.size <= 50 and any("random sample" in n for n in res.notes)
    assert "random sample" in res._repr_html_()
    # interrupted (Ctrl-C / kernel interrupt) midway: one message, nothing changed
    from lakejoin_jupyter.search.registry import SearchMethod

    def interrupted(index, query, params):
        raise KeyboardInterrupt
    SESSION.engine.search_methods["interrupt-test"] = SearchMethod(
        "interrupt-test", "interrupt", "exact", interrupted)
    try:
        with pytest.raises(MagicError, match="interrupted; nothing was changed"):
            magic(ip, "search ok_df.c -m interrupt-test --save interrupted_res")
        assert "interrupted_res" not in ip.user_ns
    finally:
        SESSION.engine.search_methods.pop("interrupt-test")
    # the index deleted while open
    copy = tmp_path / "copy.index"
    shutil.copytree(demo_index_path, copy)
    magic(ip, f"open '{copy}'")
    shutil.rmtree(copy)
    with pytest.raises(MagicError, match="deleted or moved while it was open"):
        magic(ip, "search ok_df.c")
    assert ip.run_cell("2 * 21").result == 42


@pytest.mark.spark
def test_index_reuse_opens_without_building(ip, demo_index_path, capsys):
    magic(ip, f"index --demo --out '{demo_index_path}' --reuse")
    assert "Opened the existing index" in capsys.readouterr().out
    assert SESSION.engine.path == demo_index_path
    SESSION.engine = None
    # a component the existing index lacks is an error, not a silently different index
    with pytest.raises(MagicError, match=r"built without pexeso.*--with pexeso --overwrite"):
        magic(ip, f"index --demo --out '{demo_index_path}' --with pexeso --reuse")
    assert SESSION.engine is None
    with pytest.raises(MagicError, match="or --demo"):
        magic(ip, "index --out x.index")


@pytest.mark.spark
def test_index_reuse_rebuilds_an_index_of_another_normalization(ip, demo_index_path, tmp_path,
                                                                 capsys):
    """`--reuse` of an index built with an older value normalization (an index made before
    an upgrade) rebuilds it, saying why, instead of leaving a notebook's first search to
    fail on it; the rebuilt index is of the current normalization and opens."""
    import json
    import shutil

    from lakejoin_jupyter.index.store import MANIFEST
    from lakejoin_jupyter.lake.normalize import NORMALIZATION_VERSION
    old = tmp_path / "old.index"
    shutil.copytree(demo_index_path, old)
    manifest = json.loads((old / MANIFEST).read_text())
    manifest["normalization"]["version"] = NORMALIZATION_VERSION - 1
    (old / MANIFEST).write_text(json.dumps(manifest))
    magic(ip, f"index --demo --out '{old}' --reuse --quiet")
    out = capsys.readouterr().out
    assert f"Rebuilding {old} (--reuse)" in out and "normalization" in out
    assert SESSION.engine is not None and SESSION.engine.path == old
    rebuilt = json.loads((old / MANIFEST).read_text())
    assert rebuilt["normalization"]["version"] == NORMALIZATION_VERSION


@pytest.mark.spark
def test_index_reuse_refuses_another_lake(ip, demo_index_path, tmp_path):
    """`--reuse` with a lake other than the one the index at --out was built from (a cell
    whose lake was edited) is refused, naming both lakes and --overwrite, instead of
    opening the index of the other lake."""
    import re
    other = write_lake(tmp_path / "other", {"t.csv": "a\n1\n"})
    SESSION.engine = None
    with pytest.raises(MagicError) as err:
        magic(ip, f"index '{other}' --out '{demo_index_path}' --reuse")
    msg = str(err.value)
    assert re.search(rf"index of the lake .*demo.*, not of {re.escape(str(other))}", msg)
    assert "--overwrite" in msg and SESSION.engine is None


@pytest.mark.spark
def test_index_reuse_rebuilds_when_the_lake_changed(ip, tmp_path, capsys):
    """`--reuse` after files were added to (or removed from) the lake rebuilds the index
    (saying what changed) with the options it was built with; unchanged, it opens it."""
    import json

    from lakejoin_jupyter.index.store import MANIFEST
    lake = write_lake(tmp_path / "lake", {"a.csv": "code\nFR\nDE\n"})
    out = tmp_path / "lake.index"
    magic(ip, f"index '{lake}' --out '{out}' --num-perm 64 --quiet")
    magic(ip, f"index '{lake}' --out '{out}' --reuse --quiet")
    assert "Opened the existing index" in capsys.readouterr().out
    write_lake(lake, {"b.csv": "code\nJP\n"})
    magic(ip, f"index '{lake}' --out '{out}' --reuse --quiet")
    said = capsys.readouterr().out
    assert f"Rebuilding {out} (--reuse)" in said and "added" in said and "b.csv" in said
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["parameters"]["num_perm"] == 64
    assert manifest["build"]["options"] == ["--num-perm", "64"]
    assert any(f.endswith("b.csv") for f in manifest["lake"]["files"])
    assert SESSION.engine.path == out
    # with tables added (--add), a rebuild from the cell would drop them: opened, with the
    # lake-change warning and the command that rebuilds it and adds them again
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    new = write_lake(tmp_path / "new", {"c.csv": "code\nNL\n"})
    build(new, out, progress=False, settings=BuildSettings(num_perm=64), add=True)
    (lake / "b.csv").unlink()
    magic(ip, f"index '{lake}' --out '{out}' --reuse --quiet")
    said = capsys.readouterr().out
    assert "warning: The lake changed since lake.index was built: removed" in said
    assert f"--num-perm 64 --overwrite`, then re-add the tables added to it: " in said
    assert f"`lakejoin index --add {new} {out}`" in said and "Rebuilding" not in said
    assert len(json.loads((out / MANIFEST).read_text())["generations"]) == 1


def test_autojoin_and_predicate_share_join_and_insert(capsys):
    """``--join VAR`` / ``--insert`` are declared once (``add_join_insert_arguments``) for
    ``%lakejoin autojoin`` and ``%lakejoin predicate``: both accept them and describe them
    alike, each naming what it joins by and the variable ``--insert`` binds."""
    import argparse

    from lakejoin_jupyter.magics.context import add_join_insert_arguments
    for name, by, default in (("autojoin", "the learned program", "DF_OTHER_transformed"),
                              ("predicate", "the chosen predicate", "LEFT_RIGHT_predicate")):
        args = magics.parse_request(f"{name} a b --join j --insert")
        assert (args.subcommand, args.join, args.insert) == (name, "j", True)
        args = magics.parse_request(f"{name} a b")
        assert (args.join, args.insert) == (None, False)
        shared = argparse.ArgumentParser()
        add_join_insert_arguments(shared, by, default)
        sub = next(a for a in magics._build_parser()._actions
                   if isinstance(a, argparse._SubParsersAction)).choices[name]
        helps = {a.dest: a.help for a in sub._actions if a.dest in ("join", "insert")}
        assert helps == {a.dest: a.help for a in shared._actions
                         if a.dest in ("join", "insert")}
        assert f"also join with {by} and bind the result to VAR" in helps["join"]
        assert default in helps["insert"]


@pytest.mark.spark
def test_index_minhash_seed_and_mate_bits(ip, tmp_path, capsys):
    """`%lakejoin index --minhash-seed 7 --mate-bits 512`: built with them, kept by a
    --reuse rebuild after a lake change; a --reuse asking other sizes is refused."""
    import json

    from lakejoin_jupyter.index.store import MANIFEST
    lake = write_lake(tmp_path / "lake", {"a.csv": "code\nFR\nDE\n"})
    out = tmp_path / "lake.index"

    def recorded():
        m = json.loads((out / MANIFEST).read_text())
        return (m["parameters"]["minhash_seed"], m["components"]["mate"]["xash"]["bits"],
                m["build"]["options"])
    magic(ip, f"index '{lake}' --out '{out}' --minhash-seed 7 --mate-bits 512 --quiet")
    assert recorded() == (7, 512, ["--minhash-seed", "7", "--mate-bits", "512"])
    write_lake(lake, {"b.csv": "code\nJP\n"})
    magic(ip, f"index '{lake}' --out '{out}' --reuse --quiet")
    assert f"Rebuilding {out} (--reuse)" in capsys.readouterr().out
    assert recorded() == (7, 512, ["--minhash-seed", "7", "--mate-bits", "512"])
    with pytest.raises(MagicError, match=r"built with --mate-bits 512, not 128 as this cell "
                                         r"asks.*--overwrite instead of --reuse"):
        magic(ip, f"index '{lake}' --out '{out}' --reuse --mate-bits 128")
    magic(ip, f"index '{lake}' --out '{out}' --reuse --minhash-seed 7 --quiet")
    assert "Opened the existing index" in capsys.readouterr().out


@pytest.mark.spark
def test_info_counts_the_added_tables_as_lakejoin_info(ip, tmp_path, capsys):
    """newuser19 D11: after ``--add``, ``%lakejoin info`` gave the base's counts (1 of 1
    tables, 1 column) and no generation, and refused ``--tables``. By hand: a lake of one
    table (one column) and one added (two columns): 2 tables, 3 columns, 1 generation;
    the magic's report is ``lakejoin info``'s, line for line (its methods in a table)."""
    from lakejoin_jupyter.cli import main as cli
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    lake = write_lake(tmp_path / "lake", {"a.csv": "code\nFR\nDE\n"})
    new = write_lake(tmp_path / "new", {"weather/daily.csv": "day,rain\n3/3/24,1\n3/4/24,0\n"})
    out = tmp_path / "lake.index"
    build(lake, out, progress=False, settings=BuildSettings(num_perm=64))
    build(new, out, progress=False, settings=BuildSettings(num_perm=64), add=True)
    magic(ip, f"open '{out}'")
    capsys.readouterr()
    for extra in ("", " --tables"):
        data, _ = ip.display_formatter.format(magic(ip, "info" + extra))
        text = data["text/plain"]
        assert "2 tables (2 indexed), 3 columns" in text
        assert "1 added generation(s): g0001" in text
        assert cli(["info", str(out)] + extra.split()) == 0
        printed = capsys.readouterr().out.splitlines()
        # less its search methods (the magic shows them in a table of its own)
        start = printed.index("  search methods:")
        end = start + 1
        while printed[end].startswith("    "):
            end += 1
        report = [x for x in printed[:start] + printed[end:] if "table union search" not in x]
        shown = text.split("\n\nSearch methods:")[0].splitlines()
        hint = [x for x in shown if x.startswith("  tables: 2, e.g.")]   # the magic's own hint
        assert hint == ([] if extra else ["  tables: 2, e.g. 'a' (`%lakejoin info --tables` "
                                          "lists them)"])
        assert [x for x in shown if x not in hint] == [
            x for x in report if not x.startswith("  tables: 2, e.g.")]
        assert ("weather/daily  indexed  2 rows  [day, rain]" in text) == bool(extra)
