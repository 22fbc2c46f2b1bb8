"""Bad input: each case gets a clear error or a reported skip, and never a half-written index."""
import contextlib
import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import magic_error, write_lake
from lakejoin_jupyter import open_index
from lakejoin_jupyter.indexing import pipeline
from lakejoin_jupyter.indexing.pipeline import build
from lakejoin_jupyter.errors import (IndexCorruptError, IndexIncompleteError, IndexNotFoundError,
                                     IndexVersionError, JavaNotFoundError, LakeChangedWarning,
                                     LakeNotFoundError, NotAnIndexError)
from lakejoin_jupyter.spark import java_version

GOOD = pd.DataFrame({"country": ["France", "Germany", "Japan"], "n": [1, 2, 3]})


def bad_lake(root: Path) -> Path:
    write_lake(root, {
        "good.csv": GOOD,
        "empty.csv": "",
        "header_only.csv": "a,b,c\n",
        "dupes.csv": "k,k,,x\n1,2,3,4\n5,6,7,8\n",
        "ragged.csv": "a,b,c\n1,2\n3,4,5,6\n7,8,9\n",
        "latin1.csv": "name,city\nRené,Besançon\nZoë,Orléans\n".encode("latin-1"),
        "utf16.csv": "name,city\nJosé,São Paulo\n".encode("utf-16"),
        "binary.csv": bytes(range(256)) * 20,
        "excel.csv": b"PK\x03\x04" + b"\x00" * 200,
        "bigcell.csv": "id,text\n1," + "x" * 1_000_000 + "\n2,short\n",
        "nested/table.parquet": GOOD,
        "lines.jsonl": GOOD,
        "array.json": '[{"a": 1}, {"a": 2}]',
        "notes.txt": "not a table",
    })
    os.symlink(root / "does-not-exist.csv", root / "broken_link.csv")
    return root


@pytest.fixture(scope="module")
def bad_report(spark, tmp_path_factory):
    root = bad_lake(tmp_path_factory.mktemp("badlake") / "lake")
    out = root.parent / "bad.index"
    report = build(root, out, spark=spark, progress=False)
    return report, open_index(out)


@pytest.mark.spark
def test_bad_files_are_reported_and_skipped(bad_report):
    report, engine = bad_report
    skipped = dict(report.skipped)
    assert skipped["empty.csv"].startswith("is empty")
    assert "header but no data rows" in skipped["header_only.csv"]
    assert "binary" in skipped["binary.csv"]
    assert "ZIP archive" in skipped["excel.csv"] and "export it as CSV" in skipped["excel.csv"]
    assert "broken link" in skipped["broken_link.csv"]
    assert "JSON array, not JSON lines" in skipped["array.json"]
    assert set(skipped) == {"empty.csv", "header_only.csv", "binary.csv", "excel.csv",
                            "broken_link.csv", "array.json"}
    tables = engine.index.tables.set_index("path")
    assert (tables.loc[list(skipped), "status"] == "skipped").all()
    assert engine.info()["skipped"]  # the manifest keeps the list
    # files that are not tables are named, with what to do about a .txt table
    assert report.left_out == [("notes.txt", "not a table format (csv, tsv, parquet, jsonl)")]
    summary = report.summary()
    assert "Left out 1 (not a table format (csv, tsv, parquet, jsonl)): notes.txt" in summary
    assert "named .csv or .tsv" in summary
    assert engine.info()["left_out"] == [{"path": "notes.txt",
                                          "reason": "not a table format (csv, tsv, parquet, jsonl)"}]


@pytest.mark.spark
def test_tolerated_files_are_indexed_with_warnings(bad_report):
    report, engine = bad_report
    warned = {}
    for path, msg in report.warnings:
        warned.setdefault(path, []).append(msg)
    cols = engine.index.columns
    tables = engine.index.tables.set_index("path")

    def names(path):
        return list(cols[cols.table_id == tables.loc[path, "table_id"]]["name"])

    assert names("dupes.csv") == ["k", "k.2", "column_3", "x"]
    assert any("renamed 'k.2'" in m for m in warned["dupes.csv"])
    assert any("fewer cells" in m for m in warned["ragged.csv"])
    assert any("more cells" in m for m in warned["ragged.csv"])
    assert tables.loc["latin1.csv", "encoding"] == "cp1252"
    assert tables.loc["utf16.csv", "encoding"] == "utf-16"
    assert any("longer than" in m for m in warned["bigcell.csv"])
    # the decoded values are searchable
    hits = engine.search(["Besançon", "Orléans"], k=1)
    assert hits[0].table == "latin1" and hits[0].overlap == 2
    assert engine.search(["São Paulo"], k=1)[0].table == "utf16"
    assert engine.search(["short"], k=1)[0].table == "bigcell"
    # the same good table in three formats is three identical sets
    good = engine.search(["France", "Germany", "Japan"], k=5)
    assert sorted(h.table for h in good if h.overlap == 3) == ["good", "lines", "nested/table"]


def test_lake_path_that_does_not_exist(tmp_path):
    with pytest.raises(LakeNotFoundError, match="does not exist"):
        build(tmp_path / "nope", tmp_path / "x.index", progress=False)


def test_index_path_that_is_not_an_index(tmp_path):
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    notindex = tmp_path / "mydata"
    notindex.mkdir()
    (notindex / "precious.txt").write_text("keep me")
    with pytest.raises(NotAnIndexError, match="not a lakejoin index"):
        build(lake, notindex, progress=False)
    assert (notindex / "precious.txt").read_text() == "keep me"
    (tmp_path / "file.index").write_text("x")
    with pytest.raises(NotAnIndexError, match="is a file"):
        build(lake, tmp_path / "file.index", progress=False)


def test_lake_folder_given_as_the_index(tmp_path):
    """A newcomer passes the lake where the index goes: the message names the build that
    makes its index (not one writing the index into the lake folder itself)."""
    lake = write_lake(tmp_path / "lake", {"sub/a.csv": GOOD})
    with pytest.raises(NotAnIndexError) as e:
        open_index(lake)
    msg = str(e.value)
    assert "is a folder of tables" in msg
    assert f"lakejoin index {lake} --out {lake}.index" in msg
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(NotAnIndexError, match="Build one with `lakejoin index LAKE --out"):
        open_index(empty)


def test_cli_help_states_the_pexeso_embedder_default(capsys):
    from lakejoin_jupyter.cli import main
    from lakejoin_jupyter.indexing.pexeso import DEFAULTS
    with pytest.raises(SystemExit):
        main(["index", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"default {DEFAULTS['embedder']})" in text


@pytest.mark.spark
def test_cli_search_messages(demo_index_path, tmp_path, capsys, monkeypatch):
    """What `lakejoin search` says to a newcomer: a composite key's size in key tuples (not
    the distinct values of its first column), a query file or table that does not exist
    (with close names and where to list them), and the command-line form of a missing
    threshold."""
    from lakejoin_jupyter.cli import main
    monkeypatch.chdir(tmp_path)
    pd.DataFrame({"country": ["France", "France", "Japan"], "year": [2000, 2001, 2000]}
                 ).to_csv("q.csv", index=False)
    assert main(["search", str(demo_index_path), "-t", "q.csv", "-c", "country",
                 "-c", "year"]) == 0
    out = capsys.readouterr().out
    assert "3 distinct key tuples" in out.splitlines()[0]
    assert main(["search", str(demo_index_path), "-t", "nosuch.csv", "-c", "x"]) == 1
    err = capsys.readouterr().err
    assert "No file nosuch.csv" in err and "its path in the lake without the extension" in err
    assert "--threshold" not in err
    # a threshold where the table goes (-t is the threshold in %lakejoin search)
    assert main(["search", str(demo_index_path), "-t", "0.5", "-c", "x"]) == 1
    assert "Here -t is --table; a minimum containment of 0.5 is --threshold 0.5" in \
        capsys.readouterr().err
    # a path relative to the lake's folder names the lake table; a near miss gets suggestions
    assert main(["search", str(demo_index_path), "-t", "reference/gdp.csv",
                 "-c", "Country Code", "-k", "2"]) == 0
    assert "lake table reference/gdp" in capsys.readouterr().out
    assert main(["search", str(demo_index_path), "-t", "reference/gpd.csv", "-c", "x"]) == 1
    assert "similar names: reference/gdp" in capsys.readouterr().err
    # a near miss without an extension gets the same help, and `info --tables` lists names
    assert main(["search", str(demo_index_path), "-t", "reference/gpd", "-c", "x"]) == 1
    err = capsys.readouterr().err
    assert "reference/gdp" in err.split("similar names:")[1] and "--tables` lists the tables" in err
    assert main(["info", str(demo_index_path), "--tables"]) == 0
    listed = capsys.readouterr().out
    assert "    reference/gdp  indexed" in listed and "Country Code" in listed
    assert main(["search", str(demo_index_path), "-t", "q.csv", "-c", "country",
                 "-m", "lshensemble"]) == 1
    assert "--threshold 0.5" in capsys.readouterr().err


@pytest.mark.spark
def test_cli_output_into_a_closed_pipe(demo_index_path):
    """`lakejoin info INDEX | head -1`: the reader is gone before the output is written;
    no BrokenPipeError traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "lakejoin_jupyter.cli", "info",
                             str(demo_index_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


@pytest.mark.spark
def test_failed_build_leaves_nothing_behind(spark, tmp_path, monkeypatch):
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    out = tmp_path / "x.index"

    def explode(ctx):
        raise RuntimeError("component failed")

    monkeypatch.setitem(pipeline.COMPONENTS, "explode",
                        pipeline.Component("explode", explode, default=True))
    with pytest.raises(RuntimeError, match="component failed"):
        build(lake, out, spark=spark, progress=False)
    assert not out.exists()
    assert not list(tmp_path.glob("x.index.tmp-*"))


def fake_java(tmp_path, version_line):
    d = tmp_path / "jdk" / "bin"
    d.mkdir(parents=True)
    j = d / "java"
    j.write_text(f"#!/bin/sh\necho '{version_line}' >&2\n")
    j.chmod(0o755)
    return j


def test_java_missing_or_too_old(tmp_path, monkeypatch):
    with pytest.raises(JavaNotFoundError, match="apt-get install openjdk-17"):
        java_version(str(tmp_path / "no-java"))
    old = fake_java(tmp_path, 'openjdk version "1.8.0_292"')
    with pytest.raises(JavaNotFoundError, match="Java 8 found .* needs Java 17"):
        java_version(str(old))
    monkeypatch.setenv("JAVA_HOME", str(old.parent.parent))
    with pytest.raises(JavaNotFoundError, match="Java 8"):
        java_version()
    ok = tmp_path / "ok" / "java"
    ok.parent.mkdir()
    ok.write_text("#!/bin/sh\necho 'openjdk version \"17.0.15\" 2025-04-15' >&2\n")
    ok.chmod(0o755)
    assert java_version(str(ok)) == 17


def test_build_without_java_says_how_to_install(tmp_path):
    """A fresh process with no java on PATH and no JAVA_HOME: the CLI explains."""
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(Path(sys.executable).parent)  # python only, no java
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)
    r = subprocess.run([sys.executable, "-m", "lakejoin_jupyter.cli", "index", str(lake),
                        "--out", str(tmp_path / "i"), "-q"], capture_output=True, text=True, env=env)
    assert r.returncode == 1
    assert "Java was not found" in r.stderr and "openjdk-17" in r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "i").exists()


# ------------------------------------------------------------------ opening a damaged index

@pytest.fixture
def index_copy(demo_index_path, tmp_path):
    dst = tmp_path / "copy.index"
    shutil.copytree(demo_index_path, dst)
    return dst


@pytest.mark.spark
def test_checksum_mismatch_names_the_file(index_copy):
    f = index_copy / "postings" / "set_ids.npy"
    data = bytearray(f.read_bytes())
    data[-1] ^= 0xFF
    f.write_bytes(bytes(data))
    with pytest.raises(IndexCorruptError, match="checksum mismatch in postings/set_ids.npy"):
        open_index(index_copy)


@pytest.mark.spark
def test_truncated_and_missing_files(index_copy):
    f = index_copy / "sets" / "token_ids.npy"
    f.write_bytes(f.read_bytes()[:-8])
    with pytest.raises(IndexCorruptError, match="sets/token_ids.npy has .* bytes"):
        open_index(index_copy, verify=False)
    f.unlink()
    with pytest.raises(IndexCorruptError, match="sets/token_ids.npy is missing"):
        open_index(index_copy)


@pytest.mark.spark
def test_wrong_version_and_foreign_manifest(index_copy):
    m = json.loads((index_copy / "manifest.json").read_text())
    m["format_version"] = 99
    (index_copy / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(IndexVersionError, match="format version 99"):
        open_index(index_copy)
    m["format_version"] = 1             # before the build kept no Parquet copies: rebuild
    (index_copy / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(IndexVersionError, match=r"format version 1;.*Rebuild the index.*--overwrite"):
        open_index(index_copy)
    from lakejoin_jupyter.index.store import READABLE_VERSIONS
    m["format_version"] = max(READABLE_VERSIONS)
    m["normalization"]["version"] = 1   # values written before the timestamp rule
    (index_copy / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(IndexVersionError) as err:
        open_index(index_copy)
    assert "normalization nfkc-casefold-numeric v1" in str(err.value)
    assert f"`lakejoin index {m['lake']['root']} --out {index_copy} --overwrite`" in str(err.value)
    (index_copy / "manifest.json").write_text("{not json")
    with pytest.raises(IndexCorruptError, match="not valid JSON"):
        open_index(index_copy)


def test_half_written_and_missing_indexes(tmp_path):
    half = tmp_path / "lake.index.tmp-1234abcd"
    half.mkdir()
    (half / ".lakejoin-partial").write_text("x")
    with pytest.raises(IndexIncompleteError, match="half-written"):
        open_index(half)
    with pytest.raises(IndexNotFoundError, match="interrupted"):
        open_index(tmp_path / "lake.index")
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(NotAnIndexError, match="no manifest.json"):
        open_index(plain)


@pytest.mark.spark
def test_lake_changed_since_build(spark, tmp_path):
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD, "b.csv": GOOD})
    out = tmp_path / "x.index"
    build(lake, out, spark=spark, progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        open_index(out)                      # unchanged: no warning
    (lake / "a.csv").write_text("country\nSpain\n")
    (lake / "b.csv").unlink()
    write_lake(lake, {"c.csv": GOOD})
    with pytest.warns(LakeChangedWarning) as rec:
        engine = open_index(out)
    msg = str(rec[0].message)
    assert "modified" in msg and "a.csv" in msg and "removed" in msg and "added" in msg
    assert f"`lakejoin index {lake} --out {out} --overwrite`" in msg   # how to rebuild
    assert len(engine.index.lake_changes) == 3
    assert np.array_equal(engine.search(["France"], k=5).to_pandas()["overlap"], [1, 1])


@pytest.mark.spark
def test_new_time_stamp_same_content_is_no_change_same_size_new_content_is(spark, tmp_path):
    """A copy, a checkout or `touch` moves a file's time stamp only: the content digest the
    build took says it is the same file. A same-size edit is still a change."""
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD, "b.csv": GOOD})
    out = tmp_path / "x.index"
    build(lake, out, spark=spark, progress=False)
    files = json.loads((out / "manifest.json").read_text())["lake"]["files"]
    assert all(len(v) == 3 and len(v[2]) == 32 for v in files.values())   # size, mtime, digest
    a, b = lake / "a.csv", lake / "b.csv"
    os.utime(a, ns=(a.stat().st_atime_ns, a.stat().st_mtime_ns + 10 ** 9))
    shutil.copy(b, tmp_path / "b.bak")
    shutil.copy(tmp_path / "b.bak", b)                   # restored from a copy: new mtime
    assert b.stat().st_mtime_ns != files[str(b)][1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine = open_index(out)
        engine.table("a")                                 # a join's read: no warning either
    assert engine.index.lake_changes == []
    text = a.read_text()
    a.write_text(text.replace("France", "Frankr"))        # same size, other content
    assert a.stat().st_size == files[str(a)][0]
    with pytest.warns(LakeChangedWarning, match="modified"):
        engine = open_index(out)
    assert engine.index.lake_changes == [f"modified {a}"]
    with pytest.warns(LakeChangedWarning, match="same size, other content"):
        engine.table("a")


@pytest.mark.spark
def test_file_added_with_add_is_not_a_lake_change(spark, tmp_path):
    """A table dropped into the lake and then indexed with `--add` is in the index: opening
    it says nothing about it (the base's fingerprint alone called it "added")."""
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    out = tmp_path / "x.index"
    build(lake, out, spark=spark, progress=False)
    write_lake(lake, {"c.csv": GOOD})
    with pytest.warns(LakeChangedWarning, match="added"):
        open_index(out)
    build(lake / "c.csv", out, spark=spark, progress=False, add=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine = open_index(out)
    assert engine.index.lake_changes == []
    assert {h.table for h in engine.search(["France"], k=5)} == {"a", "c"}


# ------------------------------------------------------------------ issue 23: faults and odd input

def _cli(*args, env_extra=None, timeout=600):
    """The `lakejoin` command in a fresh process (the package from this checkout)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "lakejoin_jupyter.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=timeout)


def _siblings(path: Path) -> list[str]:
    """Everything beside an index path that a build of it may leave (tmp, old, lock)."""
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name)
                  or p.name.startswith(f".{path.name}"))


@pytest.mark.spark
def test_spark_join_of_a_windows_1252_table(spark, tmp_path):
    """Item 1: Spark 4 rejects the charset name windows-1252; the executed Spark join and the
    generated PySpark code both read the file and get Windows-1252's characters."""
    lake = write_lake(tmp_path / "lake", {
        "a.csv": "c,price\nC\xf4te d\u2019Ivoire,\u20ac5\nFrance,\u20ac7\n".encode("cp1252")})
    out = tmp_path / "x.index"
    build(lake, out, spark=spark, progress=False)
    engine = open_index(out)
    assert engine.index.tables.iloc[0]["encoding"] == "cp1252"
    sdf = spark.createDataFrame(pd.DataFrame({"c": ["C\u00f4te d\u2019Ivoire", "France", "Peru"]}))
    hit = engine.search(sdf, "c")[0]
    want = pd.DataFrame({"c": ["C\u00f4te d\u2019Ivoire", "France", "Peru"],
                         "c_a": ["C\u00f4te d\u2019Ivoire", "France", None],
                         "price": ["\u20ac5", "\u20ac7", None]})
    got = hit.join(sdf).toPandas().sort_values("c").reset_index(drop=True)
    pd.testing.assert_frame_equal(got, want.sort_values("c").reset_index(drop=True),
                                  check_dtype=False)
    code = hit.code("sdf", "joined", df=sdf)
    assert "windows-1252" not in code
    ns = {"sdf": sdf}
    exec(code, ns)
    ran = ns["joined"].toPandas().sort_values("c").reset_index(drop=True)
    pd.testing.assert_frame_equal(ran, got)


@pytest.mark.spark
def test_second_build_of_the_same_path_is_refused(spark, tmp_path, monkeypatch):
    """Item 2: while one build runs, a second build of its path (in this process, and the CLI
    in another) is refused with a message naming the first; the first is not disturbed."""
    from lakejoin_jupyter.errors import IndexLockedError
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    out = tmp_path / "x.index"
    seen = {}

    def second_build(ctx):        # runs inside the first build, which holds the lock
        if seen:                  # (without a lock the second build would get here too)
            return {}
        seen["started"] = True
        with pytest.raises(IndexLockedError) as e:
            build(lake, out, spark=spark, progress=False, overwrite=True)
        seen["here"] = str(e.value)
        seen["cli"] = _cli("index", lake, "--out", out, "-q")
        return {}

    monkeypatch.setitem(pipeline.COMPONENTS, "second_build",
                        pipeline.Component("second_build", second_build, default=True))
    build(lake, out, spark=spark, progress=False)
    me = f"pid {os.getpid()} on host {os.uname().nodename}"
    assert "Another build is writing" in seen["here"] and me in seen["here"]
    cli = seen["cli"]
    assert cli.returncode == 1 and me in cli.stderr
    assert cli.stderr.count("\n") == 1 and "Traceback" not in cli.stderr
    assert open_index(out).search(["France"], k=1)[0].overlap == 1   # the first build is whole
    assert _siblings(out) == ["x.index"]                             # and the lock is gone


def test_lock_is_released_on_every_exit(tmp_path, monkeypatch):
    """Item 2: the lock is released on exceptions and KeyboardInterrupt; while held, a
    second taker is refused; without flock, a record naming a live process still refuses."""
    from lakejoin_jupyter.errors import IndexLockedError
    from lakejoin_jupyter.index import lock as lockmod
    out = tmp_path / "x.index"
    for exc in (RuntimeError("boom"), KeyboardInterrupt()):
        with pytest.raises(type(exc)):
            with lockmod.BuildLock(out):
                with pytest.raises(IndexLockedError, match=f"pid {os.getpid()}"):
                    lockmod.BuildLock(out).acquire()
                raise exc
        assert not lockmod.lock_path(out).exists()
    monkeypatch.setattr(lockmod, "_flock", lambda fd: None)     # a filesystem without flock
    with lockmod.BuildLock(out):
        with pytest.raises(IndexLockedError, match="Another build is writing"):
            lockmod.BuildLock(out).acquire()
    assert not lockmod.lock_path(out).exists()


_HOLD_LOCK = """
import sys, time
from pathlib import Path
from lakejoin_jupyter.index.lock import BuildLock
from lakejoin_jupyter.index.store import IndexWriter
out = Path(sys.argv[1])
BuildLock(out).acquire()
w = IndexWriter(out)
(w.tmp / "part.npy").write_bytes(b"half")
print(w.tmp, flush=True)
time.sleep(600)
"""


def _killed_holder(out: Path) -> Path:
    """A process that takes the lock of ``out``, starts writing, and is killed (-9)."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    proc = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(out)], env=env,
                            stdout=subprocess.PIPE, text=True)
    tmp = Path(proc.stdout.readline().strip())      # blocks until it holds the lock
    proc.kill()
    proc.wait()
    proc.stdout.close()
    assert tmp.is_dir() and (out.parent / f".{out.name}.lakejoin-lock").exists()
    return tmp


def test_opening_an_index_while_its_build_runs_says_so(tmp_path):
    """New user: a search while the index's first build runs said that build "was
    interrupted; run it again"; it names the running build instead, and, once the build
    is dead, the half-written folder it left."""
    from lakejoin_jupyter.errors import IndexLockedError
    out = tmp_path / "x.index"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    proc = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(out)], env=env,
                            stdout=subprocess.PIPE, text=True)
    try:
        tmp = Path(proc.stdout.readline().strip())      # it holds the lock and writes
        with pytest.raises(IndexLockedError) as e:
            open_index(out)
        assert f"A build of {out} is running (pid {proc.pid} " in str(e.value)
        assert "interrupted" not in str(e.value)
        with pytest.raises(IndexLockedError, match="is running"):
            open_index(tmp)                             # the build's own folder too
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    with pytest.raises(IndexNotFoundError, match="interrupted; run it again") as e:
        open_index(out)
    assert str(tmp) in str(e.value)


def test_lock_of_a_killed_build_is_stale(tmp_path, monkeypatch):
    """Items 2 and 10: kill -9 leaves the lock file, but not a held lock: the next taker
    gets it and learns the dead holder's pid; without flock, the pid check decides."""
    from lakejoin_jupyter.index import lock as lockmod
    out = tmp_path / "x.index"
    _killed_holder(out)
    with lockmod.BuildLock(out) as lock:
        assert lock.dead and lock.dead["pid"] != os.getpid()
        assert not lockmod.holder_alive(lock.dead)
    _killed_holder(out)
    monkeypatch.setattr(lockmod, "_flock", lambda fd: None)
    with lockmod.BuildLock(out) as lock:
        assert lock.dead["pid"] != os.getpid()


@pytest.mark.spark
def test_next_build_removes_folders_of_killed_builds(spark, tmp_path):
    """Item 10: the folder a killed build left is removed by the next build of the path,
    which says so; folders of other paths are left alone."""
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    out = tmp_path / "x.index"
    tmp = _killed_holder(out)
    other = tmp_path / "y.index.tmp-0123abcd"
    other.mkdir()
    (other / ".lakejoin-partial").write_text("x")
    report = build(lake, out, spark=spark, progress=False)
    notes = " ".join(report.notes)
    assert "died without finishing" in notes and tmp.name in notes and "removed 1 folder" in notes
    assert not tmp.exists() and other.exists()
    assert _siblings(out) == ["x.index"]
    assert report.notes[0] in report.summary()


@pytest.mark.spark
@pytest.mark.parametrize("damage", ["set_ids", "indptr", "header", "count", "lshensemble"])
def test_damaged_arrays_fail_clearly_without_verify(index_copy, damage):
    """Item 3: with --no-verify (sizes match, content garbage) nothing sizes an allocation
    from unchecked values: a clear error names the file instead of a 15.9 GiB allocation."""
    def garbage(rel, value):
        f = index_copy / rel
        arr = np.load(f)
        arr[...] = value
        raw = f.read_bytes()
        f.write_bytes(raw[: len(raw) - arr.nbytes] + arr.tobytes())   # same header, same size

    if damage == "set_ids":
        garbage("postings/set_ids.npy", 2_000_000_000)
        rel = "postings/set_ids.npy"
    elif damage == "indptr":
        garbage("sets/indptr.npy", 1 << 40)
        rel = "sets/indptr.npy"
    elif damage == "header":                   # the header claims 10^9 rows; the size is right
        rel = "postings/positions.npy"
        f = index_copy / rel
        raw = f.read_bytes()
        hlen = int.from_bytes(raw[8:10], "little")
        header = raw[10:10 + hlen].decode("latin-1")
        n = len(np.load(f))
        new = header.replace(f"({n},)", "(1000000000,)")
        extra = len(new) - len(header)
        assert new[-1 - extra:-1].strip() == ""          # the padding absorbs the change
        f.write_bytes(raw[:10] + (new[:-1 - extra] + "\n").encode("latin-1") + raw[10 + hlen:])
    elif damage == "count":
        m = json.loads((index_copy / "manifest.json").read_text())
        m["counts"]["columns"] = 10 ** 12
        (index_copy / "manifest.json").write_text(json.dumps(m))
        rel = "sets/indptr.npy"
    else:
        garbage("lshensemble/directory.npy", 4_000_000_000)
        rel = "lshensemble/directory.npy"
    if damage == "lshensemble":
        engine = open_index(index_copy, verify=False)
        with pytest.raises(IndexCorruptError, match=rel):
            engine.search(["France"], threshold=0.5, method="lshensemble")
    else:
        with pytest.raises(IndexCorruptError, match=rel):
            open_index(index_copy, verify=False)


@pytest.mark.spark
@pytest.mark.parametrize("damage", ["dup_indptr", "dup_tokens", "dup_counts", "order"])
def test_damaged_joinstats_fail_clearly_without_verify(index_copy, damage):
    """The join statistics are bounds-checked at open like the core arrays: garbage of the
    right size (opened with --no-verify) is a clear error naming the file, not wrong join
    sizes or an out-of-bounds read at search time."""
    indptr = np.load(index_copy / "joinstats/dup_indptr.npy")
    assert indptr[-1] > 2                       # the demo lake has repeated values

    def rewrite(rel, change):
        f = index_copy / rel
        arr = np.load(f)
        change(arr)
        raw = f.read_bytes()
        f.write_bytes(raw[: len(raw) - arr.nbytes] + arr.tobytes())   # same header, same size

    rel = {"order": "joinstats/dup_tokens.npy"}.get(damage, f"joinstats/{damage}.npy")
    if damage == "dup_indptr":
        rewrite(rel, lambda a: a.__setitem__(slice(1, None), 1 << 40))
    elif damage == "dup_tokens":
        rewrite(rel, lambda a: a.__setitem__(Ellipsis, 2_000_000_000))
    elif damage == "dup_counts":
        rewrite(rel, lambda a: a.__setitem__(0, -7))
    else:                                       # two tokens of one column swapped
        col = int(np.flatnonzero(np.diff(indptr) >= 2)[0])
        lo = int(indptr[col])
        rewrite(rel, lambda a: a.__setitem__(slice(lo, lo + 2), a[lo:lo + 2][::-1].copy()))
    with pytest.raises(IndexCorruptError, match=rel):
        open_index(index_copy, verify=False)
    with pytest.raises(IndexCorruptError, match="checksum mismatch in " + rel):
        open_index(index_copy)


@pytest.mark.spark
def test_index_inside_the_lake_is_not_indexed(spark, tmp_path):
    """Item 4 (the index folder is excluded): an index built inside its lake is not a table
    of the lake, opening it reports no change, and a rebuild sees the same tables."""
    from lakejoin_jupyter.lake.discover import discover
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD, "sub/b.csv": GOOD})
    out = lake / "sub" / "x.index"
    build(lake, out, spark=spark, progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine = open_index(out)
    assert sorted(engine.index.tables["path"]) == ["a.csv", "sub/b.csv"]
    again = discover(lake)
    assert [t.path for t in again.tables] == ["a.csv", "sub/b.csv"]
    assert ("sub/x.index", "a lakejoin index (index folders are not lake tables)") in again.ignored


def test_lake_inside_the_index_folder_is_refused(tmp_path):
    """Item 4: the opposite nesting, a lake inside an index replaced with --overwrite, would
    delete the lake: it is refused before any work."""
    out = tmp_path / "x.index"
    lake = write_lake(out / "lake", {"a.csv": GOOD})
    (out / "manifest.json").write_text("{}")          # an index, as far as replacing goes
    with pytest.raises(ValueError, match="is inside the index folder"):
        build(lake, out, progress=False, overwrite=True)
    assert (lake / "a.csv").exists()


@pytest.mark.spark
def test_failing_spark_job_is_one_line(spark, tmp_path, monkeypatch, capsys, ip):
    """Item 8: a Spark job failing in a Python worker is one line (the worker's exception
    and the log file with the full traceback), in the CLI, the magic and IPython."""
    from lakejoin_jupyter.cli import main
    from lakejoin_jupyter.errors import SparkJobError

    def explode(ctx):
        def fail(batches):
            raise RuntimeError("disk on fire")
            yield  # noqa
        ctx.spark.range(1).mapInPandas(fail, "id long").collect()

    monkeypatch.setitem(pipeline.COMPONENTS, "explode",
                        pipeline.Component("explode", explode, default=True))
    monkeypatch.setenv("LAKEJOIN_LOG_DIR", str(tmp_path / "logs"))
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    assert main(["index", str(lake), "--out", str(tmp_path / "x.index"), "-q"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "Spark failed while building" in err[0] and "RuntimeError: disk on fire" in err[0]
    log = Path(err[0].rsplit("(full log: ", 1)[1].rstrip(")"))
    assert log.parent == tmp_path / "logs" and "Traceback" in log.read_text()
    assert "RuntimeError: disk on fire" in magic_error(
        ip, f"index {lake} --out {tmp_path / 'y.index'} --quiet")
    with pytest.raises(SparkJobError) as e:
        build(lake, tmp_path / "z.index", spark=spark, progress=False)
    assert len(e.value._render_traceback_()) == 1 and e.value.__cause__ is None
    assert not [p for p in tmp_path.iterdir() if ".index" in p.name]


@pytest.mark.spark
def test_python_worker_that_cannot_start_is_one_line(tmp_path):
    """Item 8, as the campaign saw it: PYSPARK_PYTHON names a Python the workers cannot
    start. Once a 340-line Py4J traceback, then a one-line error; now, on a local master,
    the workers run the driver's Python and one warning line says what was wrong and how to
    choose (spark.ensure_worker_python), and the index is built."""
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    r = _cli("index", lake, "--out", tmp_path / "x.index", "-q",
             env_extra={"PYSPARK_PYTHON": "/nonexistent/python",
                        "LAKEJOIN_LOG_DIR": str(tmp_path / "logs")})
    assert r.returncode == 0, r.stderr[:3000]
    assert "Traceback" not in r.stderr and "Py4J" not in r.stderr
    said = [line for line in r.stderr.splitlines() if "/nonexistent/python" in line]
    assert len(said) == 1 and "PYSPARK_PYTHON" in said[0], r.stderr[:3000]
    assert (tmp_path / "x.index" / "manifest.json").exists()


_INTERRUPTED_BUILD = """
import sys, time
from pathlib import Path
from IPython.core.interactiveshell import InteractiveShell
from lakejoin_jupyter.indexing import pipeline
lake, out, started = sys.argv[1:4]

def slow(ctx):                  # a Spark job that runs until it is interrupted
    def sleep(batches):
        import time
        time.sleep(300)
        yield from batches
    Path(started).write_text("running")
    ctx.spark.range(2).mapInPandas(sleep, "id long").collect()
    return {}

pipeline.COMPONENTS["slow"] = pipeline.Component("slow", slow, default=True)
ip = InteractiveShell.instance()
ip.run_line_magic("load_ext", "lakejoin_jupyter")
ip.run_cell(f"%lakejoin index {lake} --out {out} --quiet")
print("END", flush=True)
"""


@pytest.mark.spark
def test_interrupted_index_magic_is_one_line(tmp_path):
    """Issue 20: interrupting ``%lakejoin index`` (SIGINT, as the notebook's stop button sends)
    while a Spark job runs prints one line saying nothing changed: py4j's own logging of the
    interrupted call (ERROR:root with tracebacks) does not reach the output."""
    import signal
    import time
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    out, started = tmp_path / "x.index", tmp_path / "started"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    proc = subprocess.Popen([sys.executable, "-c", _INTERRUPTED_BUILD, str(lake), str(out),
                             str(started)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        end = time.time() + 600
        while not started.exists() and proc.poll() is None and time.time() < end:
            time.sleep(0.2)
        time.sleep(3)                                  # the job's tasks are running
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert started.exists(), stderr[-3000:]
    import re
    text = [re.sub(r"\x1b\[[0-9;]*m", "", ln) for ln in (stdout + stderr).splitlines()
            if ln.strip()]
    assert text[-1] == "END", stderr[-3000:]
    assert text[:-1] == ["lakejoin: index was interrupted; nothing was changed."], \
        "\n".join(text[:40])
    assert _siblings(out) == []


def test_progress_bar_of_a_stopped_build_is_red(monkeypatch):
    """Issue 20: in a notebook, the bar of an interrupted or failed build stays where it
    stopped, red, and says which; a finished one is green at 100%."""
    import types

    import tqdm.auto
    import tqdm.notebook
    from lakejoin_jupyter import spark as spark_module
    from lakejoin_jupyter.spark import SparkProgress
    monkeypatch.setattr(spark_module, "_in_kernel", lambda: True)      # as in a notebook
    monkeypatch.setattr(tqdm.auto, "tqdm", tqdm.notebook.tqdm)
    stage = types.SimpleNamespace(numCompletedTasks=4, numTasks=4)   # every task seen is done
    tracker = types.SimpleNamespace(getActiveStageIds=lambda: [0], getStageInfo=lambda i: stage)
    spark = types.SimpleNamespace(sparkContext=types.SimpleNamespace(
        statusTracker=lambda: tracker))
    for exc, word, style in ((KeyboardInterrupt, "interrupted", "danger"),
                             (RuntimeError, "failed", "danger"), (None, "done", "success")):
        prog = SparkProgress(spark, "lakejoin index", interval=0.01)
        with pytest.raises(exc) if exc else contextlib.nullcontext():
            with prog:
                prog.step("sniffing files")
                while prog._bar.n != 4:
                    pass
                if exc:
                    raise exc()
        bar = prog._bar
        assert bar.desc.rstrip(": ") == f"lakejoin index: {word}"
        assert bar.container.children[1].bar_style == style
        assert bar.n == 4 and bar.total == 4


def test_a_notebook_saves_the_bar_of_a_finished_build_finished(monkeypatch):
    """A notebook saves a widget's text as it was when shown ("lakejoin index: 0/1" next to
    "Indexed ... in 12 s"): the bar is shown again when the build ends, the same widget, so
    the last output of its display says done, every task counted."""
    import types

    import tqdm.auto
    import tqdm.notebook
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output
    from lakejoin_jupyter import spark as spark_module
    from lakejoin_jupyter.spark import SparkProgress
    InteractiveShell.instance()
    monkeypatch.setattr(spark_module, "_in_kernel", lambda: True)      # as in a notebook
    monkeypatch.setattr(tqdm.auto, "tqdm", tqdm.notebook.tqdm)
    stage = types.SimpleNamespace(numCompletedTasks=4, numTasks=4)
    tracker = types.SimpleNamespace(getActiveStageIds=lambda: [0], getStageInfo=lambda i: stage)
    spark = types.SimpleNamespace(sparkContext=types.SimpleNamespace(
        statusTracker=lambda: tracker))
    with capture_output() as shown:
        prog = SparkProgress(spark, "lakejoin index", interval=0.01)
        with prog:
            prog.step("sniffing files")
            while prog._bar.n != 4:
                pass
    views = [o.data.get("application/vnd.jupyter.widget-view+json", {}).get("model_id")
             for o in shown.outputs]
    assert views and set(views) == {prog._bar.container.model_id}
    last = shown.outputs[-1].data["text/plain"]
    assert "lakejoin index: done" in last and "4/4" in last and "0/1" not in last, last


_CRASH_IN_COMMIT = """
import json, os, shutil, signal, sys
from pathlib import Path
from lakejoin_jupyter.index import store
src, out = Path(sys.argv[1]), Path(sys.argv[2])
w = store.IndexWriter(out, overwrite=True)
for item in src.iterdir():
    if item.name != "manifest.json":
        (shutil.copytree if item.is_dir() else shutil.copy2)(item, w.tmp / item.name)
manifest = json.loads((src / "manifest.json").read_text())
del manifest["files"], manifest["created"]
manifest["which"] = "new"
renames, real = [], Path.rename
def rename(self, target):
    renames.append(self)
    if len(renames) == 2:              # between the two renames of the commit
        os.kill(os.getpid(), signal.SIGKILL)
    return real(self, target)
Path.rename = rename
w.commit(manifest)
"""


def _crash_in_commit(demo_index_path, out):
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    r = subprocess.run([sys.executable, "-c", _CRASH_IN_COMMIT, str(demo_index_path), str(out)],
                       env=env, capture_output=True, text=True)
    assert r.returncode == -9, r.stderr
    assert not out.exists()
    assert [n.split("-")[0] for n in _siblings(out)] == ["x.index.old", "x.index.tmp"]


@pytest.mark.spark
def test_crash_between_the_commit_renames_is_repaired(demo_index_path, tmp_path):
    """Item 9: kill -9 between the commit's renames; opening the path completes the commit
    (the finished new index), says so, and leaves nothing behind."""
    from lakejoin_jupyter.errors import IndexRecoveredWarning
    out = tmp_path / "x.index"
    shutil.copytree(demo_index_path, out)
    _crash_in_commit(demo_index_path, out)
    with pytest.warns(IndexRecoveredWarning, match="Completed the commit .* a crash"):
        engine = open_index(out)
    assert engine.index.manifest["which"] == "new"
    assert _siblings(out) == ["x.index"]
    assert len(engine.search(["France"], k=3)) == 3
    # only the replaced index is left (the new one was lost): it is put back
    shutil.move(out, tmp_path / "x.index.old-0123abcd")
    with pytest.warns(IndexRecoveredWarning, match="Restored"):
        assert open_index(out).index.manifest["which"] == "new"
    assert _siblings(out) == ["x.index"]


@pytest.mark.spark
def test_next_build_completes_an_interrupted_commit(demo_index_path, tmp_path):
    """Item 9: the next build of the path repairs the commit first and says so."""
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    out = tmp_path / "x.index"
    shutil.copytree(demo_index_path, out)
    _crash_in_commit(demo_index_path, out)
    with pytest.raises(FileExistsError, match="completed the commit"):
        build(lake, out, progress=False)
    assert json.loads((out / "manifest.json").read_text())["which"] == "new"
    assert _siblings(out) == ["x.index"]


@pytest.mark.spark
def test_symlinked_out_path_is_written_through(spark, demo_index_path, tmp_path):
    """Item 11: --overwrite on a symlinked index path writes the new index where the link
    points; the link stays, and nothing is left beside either."""
    store = tmp_path / "store"
    store.mkdir()
    target = store / "real.index"
    shutil.copytree(demo_index_path, target)
    link = tmp_path / "x.index"
    link.symlink_to(target)
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD})
    with pytest.raises(FileExistsError, match="already exists") as refused:
        build(lake, link, spark=spark, progress=False)
    # it names the path as written, the one the caller knows, not the link's target
    assert str(link) in str(refused.value) and str(target) not in str(refused.value)
    report = build(lake, link, spark=spark, progress=False, overwrite=True)
    assert report.index_path == link
    assert link.is_symlink() and link.resolve() == target
    assert list(open_index(link).index.tables["path"]) == ["a.csv"]
    assert sorted(p.name for p in store.iterdir()) == ["real.index"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lake", "store", "x.index"]


def test_unreachable_spark_master_fails_at_once(tmp_path):
    """Item 13: nothing listens at the master's port: one line naming the master, at once,
    and an active session (if any) is left running."""
    import socket

    from lakejoin_jupyter.errors import SparkStartError
    from lakejoin_jupyter.spark import get_spark
    from pyspark.sql import SparkSession
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]                       # closed again: nothing listens
    active = SparkSession.getActiveSession()
    master = f"spark://127.0.0.1:{port}"
    with pytest.raises(SparkStartError) as e:
        get_spark(master=master)
    msg = str(e.value)
    assert f"Cannot reach the Spark master {master}" in msg and "\n" not in msg
    assert SparkSession.getActiveSession() is active
    r = _cli("index", tmp_path, "--out", tmp_path / "x.index", "--master", master, "-q")
    assert r.returncode in (1, 2)


def test_bad_json_line_skips_only_that_line(tmp_path):
    """JSON lines: a bad line is skipped and reported (like ragged CSV rows); the file's
    other rows are read. A file with no object at all is still refused."""
    from lakejoin_jupyter.lake.read import inspect, read_table
    f = tmp_path / "t.jsonl"
    f.write_text('{"c": "France"}\n{"c": "Ger\n[1, 2]\n{"c": "Japan", "n": 3}\n')
    info = inspect(0, str(f), "jsonl")
    assert info.ok, info.error
    assert info.n_rows == 2 and info.columns == ["c", "n"]
    assert any("2 line(s) skipped" in w and "line 2" in w and "line 3" in w
               for w in info.warnings)
    df = read_table(info)
    assert list(df["c"]) == ["France", "Japan"] and list(df["n"]) == [None, "3"]
    f.write_text('{"c": \n"x"\n')
    info = inspect(0, str(f), "jsonl")
    assert not info.ok and "no line is a JSON object" in info.error


@pytest.mark.spark
def test_info_of_an_index_deleted_while_open(index_copy, ip):
    """engine.info() (and %lakejoin info) on an index deleted while open says it is gone; on
    one whose files were deleted, which; on one another build replaced, to open it again."""
    from lakejoin_jupyter.magics import MagicError
    engine = open_index(index_copy)
    assert engine.info()["counts"]
    ip.run_line_magic("lakejoin", f"open {index_copy}")
    f = index_copy / "postings" / "set_ids.npy"
    saved = f.read_bytes()
    f.unlink()
    for run in (engine.info, lambda: engine.search(["France"], k=1),
                lambda: ip.run_line_magic("lakejoin", "info")):
        with pytest.raises((IndexCorruptError, MagicError),
                           match=r"1 file\(s\) of the index .* were deleted while it was open, "
                                 r"e.g. postings/set_ids.npy"):
            run()
    f.write_bytes(saved)
    assert engine.info()["counts"]
    mpath = index_copy / "manifest.json"
    mpath.write_text(mpath.read_text() + " ")             # as a rebuild's manifest would be
    with pytest.raises(IndexCorruptError, match="was replaced on disk .* open it again"):
        engine.info()
    assert "was replaced on disk" in magic_error(ip, "info")
    shutil.rmtree(index_copy)
    with pytest.raises(IndexNotFoundError, match="deleted or moved while it was open"):
        engine.info()
    assert "deleted or moved while it was open" in magic_error(ip, "info")


@pytest.mark.spark
def test_cli_lake_changed_warning_is_one_plain_line(spark, tmp_path, capsys):
    """Item 16: the CLI prints the lake-changed warning as one plain line."""
    from lakejoin_jupyter.cli import main
    lake = write_lake(tmp_path / "lake", {"a.csv": GOOD, "b.csv": GOOD})
    out = tmp_path / "x.index"
    build(lake, out, spark=spark, progress=False)
    (lake / "b.csv").unlink()
    assert main(["search", str(out), "--table", "a", "--column", "country"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("lakejoin: warning: The lake changed since")
    assert "removed" in err[0] and "Warning" not in err[0] and "warnings.warn" not in err[0]


@pytest.mark.spark
def test_duplicate_query_column_names(demo_engine, spark):
    """Item 6: a query column the frame holds twice is a clear error naming it (pandas and
    Spark); a duplicate elsewhere in the frame does not stop the search."""
    from lakejoin_jupyter.errors import QueryError
    df = pd.DataFrame([["France", "x", 1], ["Japan", "y", 2]], columns=["country", "country", "n"])
    with pytest.raises(QueryError, match="2 columns named 'country'"):
        demo_engine.search(df, "country")
    assert demo_engine.search(df, "n", k=1) is not None
    sdf = spark.createDataFrame([("France", "x")], ["country", "country"])
    with pytest.raises(QueryError, match="2 columns named 'country'"):
        demo_engine.search(sdf, "country")


@pytest.mark.spark
@pytest.mark.parametrize("kw,message", [
    ({"threshold": "0.5"}, r"threshold is a containment, a number .*got '0.5', a string\)"),
    ({"threshold": True}, "threshold is a containment, a number"),
    ({"threshold": [0.5]}, "threshold is a containment, a number"),
    ({"k": "10"}, r"k must be a positive integer.*got '10', a string\)"),
    ({"k": 0}, r"k must be a positive integer, the number of results \(got 0\)\.$"),
    ({"k": 2.0}, "k must be a positive integer"),
    ({"k": True}, "k must be a positive integer"),
])
def test_search_arguments_are_numbers(demo_engine, kw, message):
    """Item 14: k and threshold of the wrong type are a clear error, not a TypeError."""
    from lakejoin_jupyter.errors import QueryError
    with pytest.raises(QueryError, match=message):
        demo_engine.search(["France"], **kw)
    assert demo_engine.search(["France"], threshold=np.float32(0.5), k=np.int64(2))


@pytest.mark.spark
def test_integer_column_names(demo_engine):
    """Item 15: a column labelled by the integer 0 is found by 0 and by "0"; with both 0
    and "0" present each finds its own; a missing one lists the labels with their types."""
    from lakejoin_jupyter.errors import QueryError
    countries = ["France", "Germany", "Japan", "Peru"]
    df = pd.DataFrame({0: countries, 1: range(4)})
    by_int, by_str = demo_engine.search(df, 0, k=3), demo_engine.search(df, "0", k=3)
    assert [h.column_ids for h in by_int] == [h.column_ids for h in by_str]
    assert by_str.query.columns == (0,) and "hit(s) for 0 " in repr(by_str)
    assert len(by_str[0].join(df)) >= len(df)
    both = pd.DataFrame({0: ["x"], "0": countries[:1]})
    assert demo_engine.search(both, "0", k=1).query.columns == ("0",)
    with pytest.raises(QueryError, match=r"\['2'\] not found; the DataFrame has: \['0 \(int\)'"):
        demo_engine.search(df, "2")


@pytest.mark.spark
def test_cli_query_table_empty_or_a_folder(demo_index_path, tmp_path, capsys):
    from lakejoin_jupyter.cli import main
    assert main(["search", str(demo_index_path), "--table", "", "--column", "c"]) == 1
    assert "--table is empty" in capsys.readouterr().err
    assert main(["search", str(demo_index_path), "--table", str(tmp_path), "--column", "c"]) == 1
    assert f"Cannot read the query table {str(tmp_path)!r}: is a folder" in capsys.readouterr().err


def test_py4j_error_raised_by_an_interrupt_is_an_interrupt():
    """Interrupting a build while a py4j call is being sent: PySpark's SIGINT handler
    raises KeyboardInterrupt inside the call and py4j, cleaning up, raises a Py4JError of
    its own. That is the user's interrupt ("interrupted; nothing was changed"), not a
    failed Spark job; a Py4JError without an interrupt behind it stays a failure."""
    from py4j.protocol import Py4JError

    from lakejoin_jupyter.errors import SparkJobError
    from lakejoin_jupyter.spark import spark_job

    with pytest.raises(KeyboardInterrupt):
        with spark_job("building x"):
            try:
                raise KeyboardInterrupt()
            except KeyboardInterrupt:
                raise Py4JError("Gateway must be connected to send cancel cmd.")
    with pytest.raises(SparkJobError, match="Spark failed while building x"):
        with spark_job("building x"):
            raise Py4JError("An error occurred while calling o1.collect")


def test_fuzzy_join_called_like_autojoin_says_how_to_call_it(demo_engine):
    """engine.fuzzy_join(df, "col", "table", "col") (autojoin's argument order) names the
    call to make, instead of "no table 'col'"."""
    from lakejoin_jupyter.errors import QueryError
    df = pd.DataFrame({"where": ["France", "Germany"]})
    with pytest.raises(QueryError, match=r"engine\.fuzzy_join\('reference/gdp', df, "
                                         r"on=\('<its column>', 'where'\)\)"):
        demo_engine.fuzzy_join(df, "where", "reference/gdp", "Country Name")
    fj = demo_engine.fuzzy_join("reference/gdp", df, on=("Country Name", "where"))
    assert sorted(set(fj.join(df)["Country Name"])) == ["France", "Germany"]   # every year


def test_the_build_progress_has_one_prefix(monkeypatch, capsys):
    """The line printed after the progress closed (stopping Spark) has the prefix of the
    progress's own lines: "lakejoin index: ..." where a bar shows (the quickstart's first
    cell), "[lakejoin index] ..." in a log; never both in one build."""
    from pathlib import Path

    from lakejoin_jupyter import spark as spark_module
    from lakejoin_jupyter.indexing import pipeline
    for kernel, want in ((True, "lakejoin index: stopping Spark: 1.0 s"),
                         (False, "[lakejoin index] stopping Spark: 1.0 s")):
        monkeypatch.setattr(spark_module, "_in_kernel", lambda k=kernel: k)
        spark_module.progress_line("lakejoin index", "stopping Spark: 1.0 s")
        assert capsys.readouterr().err.strip() == want
    assert "[lakejoin index]" not in Path(pipeline.__file__).read_text()
