"""Same-run A/B of search/josie.py: the module at a git revision against the working tree.

    python bench/josie_ab.py INDEX --old-rev REV [--queries 400] [--rep 5]
        [--out bench/results/josie_ab.md]

For a change to JOSIE-D that must keep its answers and its speed (a refactor). INDEX is an
index with the "josie" component (e.g. ``python bench/josie_prepare.py WORK
ref-opendata-1e5``). Three variants run in one process on the same memory-mapped arrays:
"old" (search/josie.py at REV), "new" (the working tree) and "old-copy" (REV again: the A/A
control, which shows the noise). Queries are lake columns stratified as in JOSIE §4.2 plus
random columns of at least 10 tokens up to ``--queries``, the query's own column excluded.
Per query and k every variant runs ``--rep`` times, interleaved in rotating order, and the
least thread CPU time is kept. Every answer and every stats counter of "new" must equal
"old"'s; mismatches are counted.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lakejoin_jupyter.index.reads import load_arrays  # noqa: E402
from lakejoin_jupyter.search.josie_cost import CostModel  # noqa: E402

MODULE = "lakejoin_jupyter/search/josie.py"


def load(name: str, path: Path):
    """search/josie.py from ``path`` as a module of the package (its relative imports work)."""
    spec = importlib.util.spec_from_file_location("lakejoin_jupyter.search." + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def queries(a, josie, n: int, seed: int = 618):
    rng = np.random.default_rng(seed)
    strat = [int(s) for s, _, _ in josie.stratified_columns(a, 40, rng)[0]]
    pool = np.setdiff1d(np.flatnonzero(np.diff(a.sets_indptr) >= 10), strat)
    extra = rng.choice(pool, size=max(0, min(len(pool), n - len(strat))), replace=False)
    return strat, strat + [int(s) for s in extra]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("index")
    p.add_argument("--old-rev", required=True, help="git revision of the 'old' josie.py")
    p.add_argument("--queries", type=int, default=400)
    p.add_argument("--rep", type=int, default=5)
    p.add_argument("--ks", type=int, nargs="+", default=[1, 10, 50])
    p.add_argument("--out", help="append the Markdown table to this file")
    o = p.parse_args()
    old_src = subprocess.run(["git", "show", f"{o.old_rev}:{MODULE}"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
    tmp = Path(tempfile.mkdtemp()) / "josie_old.py"
    tmp.write_text(old_src)
    variants = {"old": load("_josie_ab_old", tmp), "new": load("_josie_ab_new", ROOT / MODULE),
                "old-copy": load("_josie_ab_old_copy", tmp)}
    names = list(variants)
    a = load_arrays(o.index)
    manifest = json.loads((Path(o.index) / "manifest.json").read_text())
    costs = CostModel.from_manifest(manifest, "warm")
    strat, qs = queries(a, variants["new"], o.queries)
    lines = [f"Index `{o.index}`, old = `{o.old_rev}`: {len(qs)} queries ({len(strat)} "
             f"stratified), least thread CPU time of {o.rep} interleaved runs.", "",
             "| k | queries | p50 old ms | p50 new ms | new/old p50 | new/old per-query median "
             "| new/old total | A/A p50 | A/A per-query median | A/A total |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    mismatches = 0
    for k in o.ks:
        t = {n: [] for n in names}
        for qi, sid in enumerate(qs):
            q, ex = a.set_tokens(sid), {sid}
            best, out = {n: 1 << 62 for n in names}, {}
            for r in range(o.rep):
                for j in range(len(names)):
                    n = names[(j + r + qi) % len(names)]
                    c = time.thread_time_ns()
                    res, st = variants[n].search(a, q, k, ex, costs=costs, plan="josie")
                    best[n] = min(best[n], time.thread_time_ns() - c)
                    out[n] = (res, st.as_dict())
            mismatches += out["old"] != out["new"]
            for n in names:
                t[n].append(best[n] / 1e6)
        for label, sl in (("stratified", slice(0, len(strat))), ("all", slice(None))):
            to, tn, t2 = (np.array(t[n])[sl] for n in names)
            lines.append(f"| {k} | {label} ({len(to)}) | {np.median(to):.3f} | {np.median(tn):.3f} "
                         f"| {np.median(tn) / np.median(to):.3f} | {np.median(tn / to):.3f} "
                         f"| {tn.sum() / to.sum():.3f} | {np.median(t2) / np.median(to):.3f} "
                         f"| {np.median(t2 / to):.3f} | {t2.sum() / to.sum():.3f} |")
    lines += ["", f"Queries x k whose answers or stats differ between old and new: {mismatches}."]
    text = "\n".join(lines)
    print(text)
    if o.out:
        with open(o.out, "a") as f:
            f.write(text + "\n\n")


if __name__ == "__main__":
    main()
