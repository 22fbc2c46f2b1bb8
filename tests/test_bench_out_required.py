"""The union benchmarks write their report only where ``--out`` says: without it they stop
before any work (they used to overwrite the committed bench/results/ files by default)."""
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.mark.parametrize("script, args", [("union_build.py", ["LAKE", "--work", "WORK"]),
                                          ("union_cut.py", ["--lakes", "LAKE", "--work", "WORK"])])
def test_union_benchmarks_need_out(tmp_path, script, args):
    args = [str(tmp_path / a) if a.isupper() else a for a in args]
    run = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                         text=True, cwd=tmp_path, timeout=300)
    assert run.returncode == 2 and "required: --out" in run.stderr, run.stderr[-2000:]
    assert not (tmp_path / "WORK").exists()
