"""Two source trees' builds of one lake, side by side in the same run: phase by phase,
with the yardstick, and the indexes compared byte for byte.

    git archive REV | tar -x -C OLD          # the tree to compare with (e.g. main)
    python bench/build_ab.py LAKE --old OLD --work W [--rounds 3] [--yardstick]
        [--results OUT]

Each round builds the lake once with each tree (fresh `lakejoin index` processes, cold JVM,
every default component, the same Python environment; the order alternates between rounds
so that a drift of the machine's load hits both), and with ``--yardstick`` runs the
in-process yardstick (bench/build_yardstick.py) once. Reported: the median per phase (from
each index's manifest; phases whose names start alike, e.g. "joinstats: ...", are also
summed), wall and CPU seconds of the whole process tree (bench/build.py
``run_measured``), new / old, and each build against the yardstick. The last index of each
tree is kept under W and every file is compared (manifest.json aside: it records times).
"""
from __future__ import annotations

import argparse
import filecmp
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.build import run_measured  # noqa: E402


def build_once(tree: Path, lake: str, index: Path) -> dict:
    import shutil
    lake, index = str(Path(lake).resolve()), index.resolve()
    shutil.rmtree(index, ignore_errors=True)
    env = dict(os.environ, PYTHONPATH=str(tree), SPARK_LOCAL_IP="127.0.0.1",
               PYSPARK_PYTHON=sys.executable)
    r = run_measured([sys.executable, "-m", "lakejoin_jupyter.cli", "index", lake, "--out",
                      str(index)], env, cwd=tree)       # workers import from their cwd too
    m = json.loads((index / "manifest.json").read_text())
    return {"wall_s": r["wall_s"], "cpu_s": r["cpu_s"], "peak_rss": r["peak_rss"],
            "phases": m["build"]["phases"], "load": r["load"]}


def yardstick_once(lake: str, work: Path) -> dict:
    out = work / "yardstick.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = run_measured([sys.executable, str(ROOT / "bench" / "build_yardstick.py"), lake,
                      "--json", str(out)], env)
    y = json.loads(out.read_text())
    out.unlink()
    return {"wall_s": r["wall_s"], "total_s": y["total_s"]}


def same_files(a: Path, b: Path) -> tuple[int, list[str]]:
    files = sorted(str(p.relative_to(a)) for p in a.rglob("*") if p.is_file())
    other = sorted(str(p.relative_to(b)) for p in b.rglob("*") if p.is_file())
    differ = sorted(set(files) ^ set(other))
    differ += [f for f in files if f in other and f != "manifest.json"
               and not filecmp.cmp(a / f, b / f, shallow=False)]
    return len(files), differ


def phase_rows(builds: list[dict]) -> dict:
    """phase -> [seconds per build]; "X: a", "X: b" also summed as "X (all)"."""
    names = []
    for b in builds:
        names += [p for p in b["phases"] if p not in names]
    rows = {p: [b["phases"].get(p, 0.0) for b in builds] for p in names}
    for stem in {p.split(":")[0] for p in names if ":" in p}:
        parts = [p for p in names if p == stem or p.startswith(stem + ":")]
        rows[f"{stem} (all)"] = [sum(b["phases"].get(p, 0.0) for p in parts) for b in builds]
    return rows


def report(lake: str, runs: dict, ys: list, same, loads) -> str:
    med = statistics.median
    old, new = runs["old"], runs["new"]
    po, pn = phase_rows(old), phase_rows(new)
    lines = [f"Lake {lake}; {len(old)} rounds; load average {loads[0]:.1f} before, "
             f"{loads[1]:.1f} after; medians (s).", "",
             "| phase | old | new | new / old |", "|---|---:|---:|---:|"]
    for p in list(dict.fromkeys(list(po) + list(pn))):
        a, b = med(po.get(p, [0.0])), med(pn.get(p, [0.0]))
        f = (lambda x: f"{x:.2f}" if x < 1 else f"{x:.1f}")
        lines.append(f"| {p} | {f(a)} | {f(b)} | {b / a:.2f}x |" if a >= 0.05 else
                     f"| {p} | {f(a)} | {f(b)} | |")
    for k, label in (("wall_s", "wall"), ("cpu_s", "CPU, whole process tree")):
        a, b = med([r[k] for r in old]), med([r[k] for r in new])
        lines.append(f"| **{label}** | {a:.1f} | {b:.1f} | **{b / a:.2f}x** |")
    a, b = med([r["peak_rss"] for r in old]), med([r["peak_rss"] for r in new])
    lines.append(f"| peak RSS (MiB) | {a / 2**20:,.0f} | {b / 2**20:,.0f} | {b / a:.2f}x |")
    if ys:
        y = med([r["total_s"] for r in ys])
        lines.append(f"| yardstick (in-process) | {y:.1f} | | |")
        lines.append(f"| **wall / yardstick** | {med([r['wall_s'] for r in old]) / y:.2f}x "
                     f"| {med([r['wall_s'] for r in new]) / y:.2f}x | |")
    lines += ["", "Per round (wall s, old / new): " + ", ".join(
        f"{o['wall_s']:.1f} / {n['wall_s']:.1f}" for o, n in zip(old, new))
        + (("; yardstick: " + ", ".join(f"{y['total_s']:.1f}" for y in ys)) if ys else ""),
        f"Same index: {'yes' if not same[1] else 'NO'} ({same[0]} files, manifest.json "
        f"aside{'; differ: ' + ', '.join(same[1][:10]) if same[1] else ''})."]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lake")
    ap.add_argument("--old", required=True, help="the source tree to compare with")
    ap.add_argument("--new", default=str(ROOT), help="default: this tree")
    ap.add_argument("--work", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--yardstick", action="store_true")
    ap.add_argument("--results", default=None)
    a = ap.parse_args(argv)
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    trees = {"old": Path(a.old).resolve(), "new": Path(a.new).resolve()}
    runs = {"old": [], "new": []}
    ys = []
    loads = [os.getloadavg()[0]]
    for k in range(a.rounds):
        order = ["old", "new"] if k % 2 == 0 else ["new", "old"]
        for tag in order:
            t = time.time()
            runs[tag].append(build_once(trees[tag], a.lake, work / f"index-{tag}"))
            print(f"round {k + 1} {tag}: {runs[tag][-1]['wall_s']:.1f} s wall "
                  f"({time.time() - t:.1f})", flush=True)
        if a.yardstick:
            ys.append(yardstick_once(a.lake, work))
            print(f"round {k + 1} yardstick: {ys[-1]['total_s']:.1f} s", flush=True)
        (work / "build_ab.json").write_text(json.dumps({"runs": runs, "yardstick": ys},
                                                       indent=1))   # so far
    loads.append(os.getloadavg()[0])
    same = same_files(work / "index-old", work / "index-new")
    text = report(a.lake, runs, ys, same, loads)
    print(text, flush=True)
    (work / "build_ab.json").write_text(json.dumps({"runs": runs, "yardstick": ys,
                                                    "same": same, "loads": loads}, indent=1))
    if a.results:
        Path(a.results).write_text(text + "\n")


if __name__ == "__main__":
    main()
