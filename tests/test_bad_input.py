"""Bad input: each case gets a clear error or a reported skip, and never a half-written index."""
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

from conftest import write_lake
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
    assert len(engine.index.lake_changes) == 3
    assert np.array_equal(engine.search(["France"], k=5).to_pandas()["overlap"], [1, 1])
