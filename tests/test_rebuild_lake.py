"""A rebuild replaces an index only with one of the lake it records (``rebuild=True``: the
widget's Rebuild, ``%lakejoin index --reuse``), ``overwrite`` replaces it on purpose; an open
of an index removes what killed builds of its path left (folders and a dead lock)."""
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from conftest import magic_error, write_lake
from lakejoin_jupyter import build_index, open_index
from lakejoin_jupyter.engine import check_rebuild
from lakejoin_jupyter.errors import IndexOfAnotherLakeError, IndexRecoveredWarning
from lakejoin_jupyter.indexing.pipeline import build

ROOT = Path(__file__).resolve().parent.parent


def _siblings(path: Path) -> list[str]:
    """Everything beside an index path that a build of it may leave (tmp, old, lock)."""
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name)
                  or p.name.startswith(f".{path.name}"))


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "lakejoin_jupyter.cli", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=600)


def _lakes(tmp_path):
    a = write_lake(tmp_path / "lake_a", {"a.csv": pd.DataFrame({"country": ["France", "Peru"]})})
    b = write_lake(tmp_path / "lake_b", {
        "b.csv": pd.DataFrame({"city": ["Lima", "Oslo"]}),
        "c.csv": pd.DataFrame({"code": ["PE", "NO"]})})
    return a, b


@pytest.mark.spark
def test_rebuild_from_another_lake_is_refused_overwrite_replaces(spark, tmp_path, ip):
    """newuser14 D17: a rebuild of the index of lake A from lake B is refused in one line
    (the index, the lake it records, the lake given, --overwrite or a new path), before
    Spark and with nothing left beside it; from A itself it rebuilds; ``overwrite=True``
    replaces it with B's index on purpose. The CLI without --overwrite names A's index."""
    a, b = _lakes(tmp_path)
    out = tmp_path / "x.index"
    build(a, out, spark=spark, progress=False)
    before = (out / "manifest.json").read_text()
    with pytest.raises(IndexOfAnotherLakeError) as e:
        build(b, out, spark=spark, progress=False, rebuild=True)
    said = str(e.value)
    assert "\n" not in said
    assert f"Not rebuilding {out}: it is the index of the lake {a}, not of {b}." in said
    assert "--overwrite" in said and "new index path" in said
    assert (out / "manifest.json").read_text() == before and _siblings(out) == ["x.index"]
    with pytest.raises(IndexOfAnotherLakeError):
        check_rebuild(b, out)
    check_rebuild(a, out)                                   # its own lake: no objection
    os.symlink(a, tmp_path / "link_a")
    check_rebuild(tmp_path / "link_a", out)                 # the same folder through a link
    with pytest.raises(IndexOfAnotherLakeError):            # one file of it is another lake
        check_rebuild(a / "a.csv", out)
    # %lakejoin index --reuse rebuilds an index of an older format: of its own lake only
    old = tmp_path / "old.index"
    shutil.copytree(out, old)
    manifest = json.loads((old / "manifest.json").read_text())
    (old / "manifest.json").write_text(json.dumps(dict(manifest, format_version=1)))
    said = magic_error(ip, f"index {b} --out {old} --reuse --quiet")
    assert f"it is the index of the lake {a}, not of {b}" in said
    assert json.loads((old / "manifest.json").read_text())["format_version"] == 1
    # the CLI without --overwrite: refused, naming the lake the index records
    cli = _cli("index", b, "--out", out, "-q")
    assert cli.returncode == 1 and cli.stderr.count("\n") == 1, cli.stderr
    assert f"An index of the lake {a} already exists at {out}" in cli.stderr
    # a rebuild from its own lake (changed since): done
    write_lake(a, {"d.csv": pd.DataFrame({"country": ["Chad"]})})
    engine = build_index(a, out, spark=spark, progress=False, rebuild=True)
    assert sorted(engine.index.tables["name"]) == ["a", "d"]
    # overwrite: replaced on purpose by the index of B
    engine = build_index(b, out, spark=spark, progress=False, overwrite=True)
    assert sorted(engine.index.tables["name"]) == ["b", "c"] and engine.lake_root == str(b)
    assert _siblings(out) == ["x.index"]


_HOLD_LOCK = """
import sys, time
from pathlib import Path
from lakejoin_jupyter.index.lock import BuildLock
from lakejoin_jupyter.index.store import IndexWriter
out = Path(sys.argv[1])
BuildLock(out).acquire()
w = IndexWriter(out, overwrite=True)
(w.tmp / "part.npy").write_bytes(b"half")
print(w.tmp, flush=True)
time.sleep(600)
"""


def _holder(out: Path):
    """A process rebuilding ``out``: it holds the lock and has started writing."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(out)], env=env,
                            stdout=subprocess.PIPE, text=True)
    return proc, Path(proc.stdout.readline().strip())


def _kill(proc) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stdout.close()


@pytest.mark.spark
def test_open_removes_what_a_killed_rebuild_left(spark, tmp_path):
    """newuser14 D17: a rebuild killed halfway left ``.x.index.lakejoin-lock`` (a dead pid)
    and ``x.index.tmp-*``; opening the index (``open_index``, ``lakejoin info``) removes
    both and says so; while the rebuild runs, an open leaves them alone."""
    a, _ = _lakes(tmp_path)
    out = tmp_path / "x.index"
    build(a, out, spark=spark, progress=False)
    proc, tmp = _holder(out)
    try:
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("error", IndexRecoveredWarning)
            assert open_index(out).search(["France"], k=1)[0].overlap == 1
        assert tmp.is_dir() and (tmp_path / ".x.index.lakejoin-lock").exists()
    finally:
        _kill(proc)
    with pytest.warns(IndexRecoveredWarning) as seen:
        engine = open_index(out)
    said = str(seen[0].message)
    assert f"the lock of a build that died (pid {proc.pid} " in said and tmp.name in said
    assert _siblings(out) == ["x.index"]
    assert engine.search(["France"], k=1)[0].overlap == 1
    proc, tmp = _holder(out)                         # the same through `lakejoin info`
    _kill(proc)
    info = _cli("info", out)
    assert info.returncode == 0, info.stderr
    assert tmp.name in info.stdout + info.stderr
    assert _siblings(out) == ["x.index"]
