"""Auto-Join learns the same program whatever Python's string hash seed: candidate
constants of equal length are tried in the order of the first output, not a set's order
(which varies between interpreter runs). Checked on a committed case whose program did
depend on the seed (GNU wget's info nodes against their HTML file names)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "bench" / "data" / "autojoin-fresh20" / "wget_info_nodes_html_files"
LEARN = """
import sys, pandas as pd
from lakejoin_jupyter.join.autojoin.pipeline import autojoin
read = lambda n: pd.read_csv(sys.argv[1] + "/" + n + ".csv", dtype=str, keep_default_na=False)
aj = autojoin(read("source"), read("target"), left_name="source", right_name="target")
print(aj.program.describe() if aj.found else "(none)")
"""


def _program(seed: int) -> str:
    env = {**os.environ, "PYTHONHASHSEED": str(seed),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", LEARN, str(CASE)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_the_learned_program_does_not_depend_on_the_hash_seed():
    # seeds 0 and 3 learned different programs before (F1 0.887 / 0.959 on this case)
    programs = {seed: _program(seed) for seed in (0, 3, 4)}
    assert programs[0] != "(none)"
    assert len(set(programs.values())) == 1, programs
