"""Two copies of the code side by side on the same Auto-Join cases, alternating, for CPU ratios under one load.

One long-lived worker process per copy (``PYTHONHASHSEED=0``, ``PYTHONPATH`` the copy,
``nice -n 19`` unless ``--no-nice``) runs ``bench/autojoin_eval.py``'s ``run_case`` of that copy on each case
folder it is sent; the driver sends every case to both, the first copy first on even cases
and the second first on odd ones, so both see the same load. Prints per case the two CPU
times, their ratio and whether every output field is equal; ``--json`` keeps both results.

    python bench/autojoin_alternate.py MAIN_COPY BRANCH_COPY CASE_FOLDER... [--json OUT] [--no-nice]

Under a high load a ``nice 19`` worker can get almost no CPU; ``--no-nice`` runs both
workers at the driver's priority (both copies still see the same load).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

FIELDS = ("found", "direction", "program", "target_column", "target_program", "fuzzy",
          "fuzzy_estimated_precision", "coverage", "estimated_precision", "precision_basis",
          "partial", "AJ", "AJ-E")


def worker(copy: Path) -> None:
    sys.path.insert(0, str(copy / "bench"))
    import autojoin_eval
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(autojoin_eval.run_case(Path(line.strip())), default=str),
                  flush=True)


def start(copy: Path, nice: bool = True) -> subprocess.Popen:
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(copy))
    prefix = ["nice", "-n", "19"] if nice else []
    p = subprocess.Popen(prefix + [sys.executable, os.path.abspath(__file__),
                          "--worker", str(copy)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env=env, cwd=str(copy))
    json.loads(p.stdout.readline())
    return p


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("first", type=Path, nargs="?", help="a copy of the code (main)")
    ap.add_argument("second", type=Path, nargs="?", help="another copy (the branch)")
    ap.add_argument("cases", type=Path, nargs="*", help="case folders")
    ap.add_argument("--json", type=Path, help="write both results per case here")
    ap.add_argument("--no-nice", action="store_true",
                    help="run the workers without nice -n 19 (which starves them at high load)")
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return
    if not (args.first and args.second and args.cases):
        ap.error("give two copies and at least one case folder")
    for copy in (args.first, args.second):
        if not (copy / "bench" / "autojoin_eval.py").is_file():
            ap.error(f"{copy} is not a copy of the repository (no bench/autojoin_eval.py)")
    nice = not args.no_nice
    procs = {"first": start(args.first.resolve(), nice),
             "second": start(args.second.resolve(), nice)}
    out, ratios = [], []
    for i, folder in enumerate(args.cases):
        row = {}
        for who in (("first", "second") if i % 2 == 0 else ("second", "first")):
            procs[who].stdin.write(str(folder.resolve()) + "\n")
            procs[who].stdin.flush()
            row[who] = json.loads(procs[who].stdout.readline())
        a, b = row["first"], row["second"]
        same = all(a.get(k) == b.get(k) for k in FIELDS)
        ratios.append(b["cpu_seconds"] / max(a["cpu_seconds"], 1e-9))
        print(f"{a['case']:48s} {a['cpu_seconds']:7.2f} {b['cpu_seconds']:7.2f} "
              f"{ratios[-1]:5.2f} {'same' if same else 'DIFFERENT'}", flush=True)
        out.append(row)
        if args.json:
            args.json.write_text(json.dumps(out))
    for p in procs.values():
        p.stdin.close()
        p.wait()
    first = [r["first"]["cpu_seconds"] for r in out]
    second = [r["second"]["cpu_seconds"] for r in out]
    print(f"median CPU s {statistics.median(first):.3f} -> {statistics.median(second):.3f}; "
          f"median ratio {statistics.median(ratios):.2f}; total {sum(first):.1f} -> "
          f"{sum(second):.1f} ({sum(second) / sum(first):.2f})")


if __name__ == "__main__":
    main()
