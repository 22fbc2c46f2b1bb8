"""The rebuild command an index advises (a lake change, a renamed column, a deleted table
file) rebuilds it as it was built: the build's options (--num-perm, --with, --without,
--set, recorded in its manifest) and the folders of tables added with ``--add``; a join of
a table whose file was deleted since the build, or its code, says so and gives that
command."""
from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest

from conftest import write_lake
from lakejoin_jupyter.index.store import (GENERATION_MANIFEST, GENERATIONS, MANIFEST,
                                          _with_component, rebuild_command)


def _index(tmp_path, options, added=()):
    """A folder with a manifest as a build (and ``--add`` of the folders ``added``) writes."""
    ix = tmp_path / "lake.index"
    ix.mkdir()
    gens = []
    for i, folder in enumerate(added, 1):
        name = f"g{i:04d}"
        (ix / GENERATIONS / name).mkdir(parents=True)
        (ix / GENERATIONS / name / GENERATION_MANIFEST).write_text(json.dumps(
            {"lake": {"kind": "folder", "root": folder, "files": {}}}))
        gens.append({"name": name})
    build = {"seconds": 1.0} if options is None else {"seconds": 1.0, "options": options}
    (ix / MANIFEST).write_text(json.dumps({
        "lake": {"kind": "folder", "root": "/data/lake", "files": {}},
        "components": {"minhash": {}, "union": {}}, "build": build, "generations": gens}))
    return ix


def test_rebuild_command_keeps_options_and_added_tables(tmp_path):
    ix = _index(tmp_path, ["--with", "union", "--set", "lshensemble.num_perm=128"],
                added=["/data/new tables"])
    assert rebuild_command(ix) == (
        f"`lakejoin index /data/lake --out {ix} --with union --set lshensemble.num_perm=128 "
        f"--overwrite`, then re-add the tables added to it: "
        f"`lakejoin index --add '/data/new tables' {ix}`")


def test_rebuild_command_of_an_index_that_records_no_options(tmp_path):
    """An index built before its manifest recorded its options: the command, and what to
    add to it (its components named)."""
    ix = _index(tmp_path, None)
    assert rebuild_command(ix) == (
        f"`lakejoin index /data/lake --out {ix} --overwrite` with the --with/--set options "
        f"it was built with (its components: minhash, union)")


def test_an_added_component_joins_the_recorded_options():
    assert _with_component(["--num-perm", "64"], "transform", False) == [
        "--num-perm", "64", "--with", "transform"]
    assert _with_component(["--without", "joinstats", "--with", "union"], "joinstats",
                           True) == ["--with", "union"]


def test_command_options_of_build_settings():
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import command_options
    s = BuildSettings(num_perm=128, components=("union", "-lshensemble"),
                      component_options={"pexeso": {"embedder": "ngram", "levels": 3}})
    assert command_options(s) == ["--num-perm", "128", "--with", "union", "--without",
                                  "lshensemble", "--set", "pexeso.embedder=ngram",
                                  "--set", "pexeso.levels=3"]
    assert command_options(BuildSettings()) == []


@pytest.mark.spark
def test_advice_after_a_lake_change_and_a_deleted_table(spark, tmp_path, capsys):
    """A built index with options and an added folder: the lake-change warning and the
    join of a table whose file was deleted give the full rebuild command; following it
    rebuilds the index with the same options and tables."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.cli import main as cli
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.errors import LakeChangedWarning, TableReadError
    from lakejoin_jupyter.indexing.pipeline import build
    codes = pd.DataFrame({"iso2": ["FR", "DE", "JP", "NL"],
                          "country": ["France", "Germany", "Japan", "Netherlands"]})
    lake = write_lake(tmp_path / "lake", {"c.csv": codes, "z.csv": codes.head(2)})
    new = write_lake(tmp_path / "new", {"capitals.csv": pd.DataFrame(
        {"iso": ["FR", "DE", "JP"], "capital": ["Paris", "Berlin", "Tokyo"]}),
        "rates.csv": pd.DataFrame({"cur": ["EUR", "JPY"], "rate": [1.0, 160.0]})})
    out = tmp_path / "lake.index"
    settings = BuildSettings(num_perm=64, component_options={"lshensemble": {"num_perm": 32}})
    build(lake, out, spark=spark, progress=False, settings=settings)
    build(new, out, spark=spark, progress=False, settings=settings, add=True)
    (new / "capitals.csv").unlink()
    want = (f"`lakejoin index {lake} --out {out} --num-perm 64 --set lshensemble.num_perm=32 "
            f"--overwrite`, then re-add the tables added to it: "
            f"`lakejoin index --add {new} {out}`")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        e = open_index(out)
    changed = [str(w.message) for w in caught if issubclass(w.category, LakeChangedWarning)]
    assert len(changed) == 1 and want in changed[0]
    # the index's advice says it too, with the lake as it is when asked
    assert e.advice() == changed
    write_lake(lake, {"late.csv": codes})
    advice = e.advice()
    assert len(advice) == 1 and "late.csv" in advice[0] and want in advice[0]
    from lakejoin_jupyter.index_report import index_lines
    assert "  " + advice[0] in index_lines(e, e.info(), methods=False)   # %lakejoin info
    capsys.readouterr()
    assert cli(["info", str(out)]) == 0                         # lakejoin info: once
    said = capsys.readouterr()
    assert said.out.count(want) == 1 and "late.csv" in said.out and want not in said.err
    q = pd.DataFrame({"code": ["FR", "DE", "JP"]})
    hit = next(h for h in e.search(q, "code", k=5) if h.table == "capitals")
    with pytest.raises(TableReadError) as err:
        hit.join(q)
    msg = str(err.value)
    assert "was deleted or moved after the index was built (lake table capitals)" in msg
    assert "remove it from the lake" not in msg and want in msg
    # its code (pandas and PySpark) is refused the same way, not code that fails on
    # pandas' (or Spark's) own missing-file error when run
    for spark_code in (False, True):
        with pytest.raises(TableReadError) as err:
            hit.code("q", "out", spark=spark_code)
        assert str(err.value) == msg
    # the CLI's join says the same
    q.to_csv(tmp_path / "q.csv", index=False)
    rank = 1 + [h.table for h in e.search(q, "code", k=5)].index("capitals")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert cli(["join", str(out), "-t", str(tmp_path / "q.csv"), "-c", "code",
                    "--hit", str(rank), "--out", str(tmp_path / "o.csv")]) != 0
    err_text = capsys.readouterr().err
    assert "deleted or moved after the index was built" in err_text and want in err_text


def test_rebuild_command_with_a_missing_component(tmp_path):
    """The command a search advises for a component the index lacks keeps the build's
    options and asks for the component even when the build left it out (--without)."""
    ix = _index(tmp_path, ["--without", "lshensemble", "--set", "union.sample_values=5"])
    assert rebuild_command(ix, with_="lshensemble") == (
        f"`lakejoin index /data/lake --out {ix} --set union.sample_values=5 --with "
        f"lshensemble --overwrite`")


def test_index_help_offers_the_minhash_seed_and_the_mate_bits(capsys):
    from lakejoin_jupyter.cli import main as cli
    with pytest.raises(SystemExit):
        cli(["index", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--minhash-seed SEED seed of the MinHash hash functions (default 1)" in text
    assert "--mate-bits {128,512}" in text and "XASH row super keys" in text
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import command_options
    assert command_options(BuildSettings(minhash_seed=7, mate_bits=512)) == [
        "--minhash-seed", "7", "--mate-bits", "512"]


@pytest.mark.spark
def test_cli_minhash_seed_and_mate_bits_are_recorded_and_rebuilt(spark, tmp_path, capsys):
    """`lakejoin index --minhash-seed 7 --mate-bits 512`: the index holds them, its
    rebuild command repeats them, and following that command after a lake change keeps
    them; --add refuses them (the added tables take the index's), as a build without mate
    refuses --mate-bits."""
    import shlex

    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.cli import main as cli
    lake = write_lake(tmp_path / "lake", {"c.csv": "iso2,country\nFR,France\nDE,Germany\n"})
    out = tmp_path / "lake.index"
    assert cli(["index", str(lake), "--out", str(out), "--minhash-seed", "7",
                "--mate-bits", "512", "--quiet"]) == 0

    def recorded():
        m = json.loads((out / MANIFEST).read_text())
        return (m["parameters"]["minhash_seed"], m["components"]["minhash"]["seed"],
                m["components"]["mate"]["xash"]["bits"], m["build"]["options"])
    assert recorded() == (7, 7, 512, ["--minhash-seed", "7", "--mate-bits", "512"])
    write_lake(lake, {"d.csv": "iso,capital\nFR,Paris\n"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        command = open_index(out).rebuild_command()
    assert command == (f"`lakejoin index {lake} --out {out} --minhash-seed 7 --mate-bits 512 "
                       f"--overwrite`")
    assert cli(shlex.split(command.strip("`"))[1:] + ["--quiet"]) == 0
    assert recorded() == (7, 7, 512, ["--minhash-seed", "7", "--mate-bits", "512"])
    new = write_lake(tmp_path / "new", {"e.csv": "code\nJP\n"})
    capsys.readouterr()
    with pytest.raises(SystemExit):
        cli(["index", "--add", str(new), str(out), "--mate-bits", "128"])
    assert "--mate-bits cannot be used with --add" in capsys.readouterr().err
    assert cli(["index", str(lake), "--out", str(tmp_path / "x.index"), "--without", "mate",
                "--mate-bits", "512", "--quiet"]) != 0
    assert "--mate-bits 512 sets the XASH size of the mate component, which this build " \
           "leaves out (--without mate)" in capsys.readouterr().err


def test_rebuild_command_leaves_out_an_emptied_added_folder(tmp_path):
    """A folder added with --add whose tables were all deleted since (or the folder
    itself) gets no `--add` step, which would fail on finding no tables: the command says
    why instead; a folder with a table left, or a new one, is re-added."""
    import shutil
    folders = {}
    for name in ("kept", "emptied", "deleted", "refilled"):
        folders[name] = write_lake(tmp_path / name, {f"{name}.csv": "code\nFR\n"})
    ix = _index(tmp_path, [], added=[str(f) for f in folders.values()])
    for i, (name, folder) in enumerate(folders.items(), 1):     # the files each add read
        gman = ix / GENERATIONS / f"g{i:04d}" / GENERATION_MANIFEST
        lake = json.loads(gman.read_text())
        lake["lake"]["files"] = {str(folder / f"{name}.csv"): [8, 0]}
        gman.write_text(json.dumps(lake))
    (folders["emptied"] / "emptied.csv").unlink()
    (folders["emptied"] / "notes.txt").write_text("not a table")
    shutil.rmtree(folders["deleted"])
    (folders["refilled"] / "refilled.csv").unlink()
    write_lake(folders["refilled"], {"other.csv": "code\nDE\n"})
    assert rebuild_command(ix) == (
        f"`lakejoin index /data/lake --out {ix} --overwrite`, then re-add the tables added "
        f"to it: `lakejoin index --add {folders['kept']} {ix}`, "
        f"`lakejoin index --add {folders['refilled']} {ix}` (not re-added: "
        f"{folders['emptied']}, added with --add, holds no tables any more; "
        f"{folders['deleted']}, added with --add, deleted since)")


def _recorded_index(tmp_path, options):
    """An index folder whose manifest records the build ``options`` (as a build writes)."""
    from lakejoin_jupyter.index.store import FORMAT_NAME, FORMAT_VERSION
    from lakejoin_jupyter.lake.normalize import normalization_spec
    ix = _index(tmp_path, options)
    manifest = json.loads((ix / MANIFEST).read_text())
    manifest.update(format=FORMAT_NAME, format_version=FORMAT_VERSION,
                    normalization=normalization_spec())
    manifest["components"]["union"] = {"embedder": "ngram", "sample_values": 5}
    (ix / MANIFEST).write_text(json.dumps(manifest))
    return ix


def _sample_words(action) -> list[str]:
    """Words giving the build option ``action`` a value other than its default."""
    flag = action.option_strings[0]
    if action.dest == "options":
        return [flag, "pexeso.levels=3", flag, "pexeso.embedder=ngram"]
    if action.dest in ("with_", "without"):
        return [flag, "union" if action.dest == "with_" else "lshensemble"]
    if action.choices:
        return [flag, str(next(c for c in action.choices if c != action.default))]
    if action.type is int:
        return [flag, str((action.default or 1) + 6)]
    raise AssertionError(f"no sample value for the build option {flag}: add one here")


def test_every_build_option_round_trips_through_the_record(tmp_path):
    """Each option the ``lakejoin index`` parser declares as a build option (the list read
    from the parser, so a new option is covered without editing this test): given on the
    command line, recorded in the manifest (``command_options``), read back by the
    magic's ``--reuse`` rebuild (``_recorded``), it has the value the command gave."""
    import argparse

    from lakejoin_jupyter.cli import _parser, add_build_option_arguments, build_options
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import command_options
    from lakejoin_jupyter.magics.cmd_index import _recorded
    shared = argparse.ArgumentParser()
    add_build_option_arguments(shared)
    actions = [a for a in shared._actions if a.option_strings and a.dest != "help"]
    assert {a.dest for a in actions} >= {"num_perm", "minhash_seed", "mate_bits", "with_",
                                         "without", "options"}
    for i, action in enumerate(actions):
        words = _sample_words(action)
        args = _parser().parse_args(["index", "LAKE", "--out", "X", *words])
        given = build_options(args, pytest.fail)
        recorded = command_options(BuildSettings(**given))
        (tmp_path / str(i)).mkdir()
        back = _recorded(_recorded_index(tmp_path / str(i), recorded))
        for key, value in given.items():
            want = list(value) if key == "components" else value
            assert back[key] == want, (action.option_strings, key, recorded)


@pytest.mark.parametrize("options, says", [
    (["--no-such-option", "3"], "unrecognized arguments: --no-such-option 3"),
    (["--num-perm", "many"], "--num-perm: invalid int value: 'many'"),
    (["--mate-bits", "256"], "--mate-bits: invalid choice: 256"),
    (["--set", "levels=3"], "--set takes COMPONENT.OPTION=VALUE"),
    (["--with"], "--with: expected one argument"),
    ("--num-perm 64", "not a list of words"),
])
def test_unreadable_recorded_options_name_the_index_and_the_rebuild(tmp_path, options, says):
    """A manifest whose recorded build options this version cannot read (unknown option,
    a bad value): an error naming the index folder, what is wrong and the command that
    rebuilds it (without the unreadable options)."""
    from lakejoin_jupyter.magics import MagicError
    from lakejoin_jupyter.magics.cmd_index import _recorded
    ix = _recorded_index(tmp_path, options)
    with pytest.raises(MagicError) as err:
        _recorded(ix)
    msg = str(err.value)
    assert f"The index at {ix} records build options" in msg and says in msg
    assert f"`lakejoin index /data/lake --out {ix} --overwrite` with the --with/--set " \
           f"options it was built with (its components: minhash, union)" in msg


def _engine_recording(lake):
    """An Engine over an index whose base records the lake folder ``lake`` as a build does
    (sizes, time stamps and content digests of its files), without Spark."""
    from types import SimpleNamespace

    from lakejoin_jupyter.engine import Engine
    from lakejoin_jupyter.index.store import LakeIndex
    from lakejoin_jupyter.lake.discover import discover, file_digest
    spec = discover(lake)
    manifest = {"lake": spec.fingerprint({t.uri: file_digest(t.uri) for t in spec.tables})}
    index = LakeIndex.__new__(LakeIndex)
    index.path, index.manifest, index.lake_changes = lake.parent / "lake.index", manifest, []
    index.generations = [SimpleNamespace(name="base", manifest=manifest)]
    engine = Engine.__new__(Engine)
    engine.index = index
    return engine


def test_advice_looks_at_an_unchanged_lake_once_and_notices_changes(tmp_path, monkeypatch):
    """The index keeps what its lake-change check learnt: asked again with the lake as it
    was, ``advice()`` stats each lake file once (the check that it did not change) and
    neither hashes a file whose time stamp moved again nor lists the folder again; a
    same-size edit, an added and a removed file are still noticed."""
    import os

    from lakejoin_jupyter.lake import discover as discover_module
    lake = write_lake(tmp_path / "lake", {"a.csv": "code\nFR\nDE\n", "b.csv": "code\nJP\n"})
    a, b = lake / "a.csv", lake / "b.csv"
    hour_ago = lambda p: os.utime(p, ns=(p.stat().st_atime_ns,       # noqa: E731
                                         p.stat().st_mtime_ns - 3600 * 10 ** 9))
    for p in (lake, b):
        hour_ago(p)              # a time stamp just taken is not relied on (SETTLED_NS)
    engine = _engine_recording(lake)
    assert engine.advice() == []
    hour_ago(a)                                               # touched: time stamp moved
    assert engine.advice() == []
    stats, hashed, listed = [], [], []
    real_stat, real_digest, real_discover = os.stat, discover_module.file_digest, \
        discover_module.discover
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: stats.append(str(p)) or
                        real_stat(p, *a, **k))
    monkeypatch.setattr(discover_module, "file_digest",
                        lambda p: hashed.append(str(p)) or real_digest(p))
    monkeypatch.setattr(discover_module, "discover",
                        lambda *a, **k: listed.append(a) or real_discover(*a, **k))
    for _ in range(3):
        assert engine.advice() == []
    assert sorted(s for s in stats if s.endswith(".csv")) == sorted([str(a), str(b)] * 3)
    assert hashed == [] and listed == []
    b.write_text("code\nNL\n")                                # same size, other content
    assert engine.index.lake_changes == [] and engine.advice() == [
        engine.index.lake_changed_message([f"modified {b}"])]
    write_lake(lake, {"c.csv": "code\nUS\n"})
    a.unlink()
    assert engine.index.find_lake_changes() == [f"removed {a}", f"modified {b}",
                                                f"added {lake / 'c.csv'}"]
    assert engine.index.lake_changes == [f"modified {b}"]     # advice() keeps what it saw


def test_a_fresh_time_stamp_is_not_relied_on(tmp_path):
    """A file touched a moment ago and found unchanged, then edited (same size) within the
    same clock tick: its time stamp did not move, the edit is still noticed."""
    import os

    lake = write_lake(tmp_path / "lake", {"a.csv": "code\nFR\n"})
    a = lake / "a.csv"
    engine = _engine_recording(lake)
    stamp = a.stat().st_mtime_ns + 10 ** 6
    os.utime(a, ns=(stamp, stamp))
    assert engine.advice() == []
    a.write_text("code\nDE\n")
    os.utime(a, ns=(stamp, stamp))
    assert engine.index.find_lake_changes() == [f"modified {a}"]
