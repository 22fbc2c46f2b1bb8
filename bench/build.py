"""Build-time scaling: synthetic open-data lakes of growing size, built with the real Spark
pipeline in a fresh process each (cold JVM, as a user runs `lakejoin index`).

    python bench/build.py --work /tmp/lakejoin-bench-build --sizes 10000 30000 100000 \
        [--master local[*]] [--results bench/results/build.md]

Measures wall time of the whole `lakejoin index` command, the build's own phases (from the
manifest), peak RSS of the process tree (driver Python + JVM + Python workers, sampled every
0.2 s with psutil), index size on disk, and time per column.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.synthetic import generate  # noqa: E402


def tree_rss(pid: int) -> tuple[int, int, int]:
    """(total, jvm, python) RSS bytes of a process and its descendants."""
    try:
        root = psutil.Process(pid)
        procs = [root] + root.children(recursive=True)
    except psutil.NoSuchProcess:
        return 0, 0, 0
    total = jvm = py = 0
    for p in procs:
        try:
            rss = p.memory_info().rss
            name = p.name()
        except psutil.Error:
            continue
        total += rss
        if "java" in name:
            jvm += rss
        elif "python" in name:
            py += rss
    return total, jvm, py


def run_build(lake: Path, out: Path, master: str | None) -> dict:
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-m", "lakejoin_jupyter.cli", "index", str(lake), "--out", str(out), "-q"]
    if master:
        cmd += ["--master", master]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    t0 = time.time()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = [0, 0, 0]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            cur = tree_rss(proc.pid)
            for i in range(3):
                peak[i] = max(peak[i], cur[i])
            stop.wait(0.2)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    stdout, stderr = proc.communicate()
    wall = time.time() - t0
    stop.set()
    th.join()
    if proc.returncode != 0:
        raise RuntimeError(f"build failed:\n{stderr[-3000:]}")
    manifest = json.loads((out / "manifest.json").read_text())
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    return {"wall_s": wall, "build_s": manifest["build"]["seconds"],
            "phases": manifest["build"].get("phases", {}), "counts": manifest["counts"],
            "peak_rss": peak[0], "peak_jvm": peak[1], "peak_python": peak[2], "index_bytes": size}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True, help="folder for generated lakes and indexes")
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 30_000, 100_000])
    ap.add_argument("--master", default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--results", default=None, help="write a markdown table here")
    a = ap.parse_args(argv)
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    for n in a.sizes:
        lake = work / f"lake-{n}"
        if not (lake / ".complete").exists():
            shutil.rmtree(lake, ignore_errors=True)
            t = time.time()
            generate(lake, n, seed=a.seed)
            (lake / ".complete").write_text(f"{time.time() - t:.1f}")
        r = run_build(lake, work / f"index-{n}", a.master)
        r["columns"] = n
        rows.append(r)
        print(json.dumps({k: v for k, v in r.items() if k != "phases"}), flush=True)
        write_table(rows, a)      # after every size, so a long run's finished sizes are kept


def write_table(rows, a):
    mib = 1 << 20
    lines = [
        f"Machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / (1 << 30):.0f} GiB RAM, "
        f"{platform.platform()}, Spark master {a.master or 'local[*]'}; load average (1 min) when written "
        f"{os.getloadavg()[0]:.1f}.", "",
        "| columns | tables | distinct values | postings | wall (s) | build (s) | ms / column "
        "| peak RSS (MiB) | of which JVM | index on disk (MiB) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        c = r["counts"]
        lines.append(f"| {r['columns']:,} | {c['tables']:,} | {c['tokens']:,} | {c['postings']:,} "
                     f"| {r['wall_s']:.1f} | {r['build_s']:.1f} | {1000 * r['wall_s'] / r['columns']:.2f} "
                     f"| {r['peak_rss'] / mib:,.0f} | {r['peak_jvm'] / mib:,.0f} "
                     f"| {r['index_bytes'] / mib:,.1f} |")
    phases = sorted({p for r in rows for p in r["phases"]}, key=lambda p: list(rows[0]["phases"]).index(p)
                    if p in rows[0]["phases"] else 99)
    lines += ["", "Build phases (seconds):", "",
              "| phase | " + " | ".join(f"{r['columns']:,}" for r in rows) + " |",
              "|---|" + "---:|" * len(rows)]
    for p in phases:
        lines.append(f"| {p} | " + " | ".join(f"{r['phases'].get(p, 0):.1f}" for r in rows) + " |")
    text = "\n".join(lines)
    print(text)
    if a.results:
        Path(a.results).parent.mkdir(parents=True, exist_ok=True)
        Path(a.results).write_text(text + "\n")


if __name__ == "__main__":
    main()
