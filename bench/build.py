"""Build speed: the Spark build against the in-process yardstick (bench/build_yardstick.py), on
the same lake in the same run, with the ratio per phase.

    python bench/build.py --work W [--lake NAME=PATH ...] [--synthetic N ...] [--spark-only]
        [--master local[*]] [--driver-memory 4g] [--results bench/results/build_speed.md]

For each lake, in this order: the yardstick (fresh process), the Spark build (a fresh
`lakejoin index` process: cold JVM, as a user runs it, every default component), the yardstick
again with ``--check`` against the index the Spark build wrote (every core array, the token
texts and the signatures must be equal; a difference fails the run). The two yardstick runs
bracket the Spark build; their mean is the yardstick time, so a change of load during the run
shows as a spread between them. Then the Spark floor: a fresh process that starts Spark as the
build does, runs one Python-worker job (a build's read is one) and stops it (the fixed cost any
Spark build pays: a small build runs no SQL job; "(Spark - floor) / yardstick" is the
pipeline's own share). Peak RSS is the whole process tree (driver Python, JVM, Python workers)
sampled every 0.2 s with psutil, also without its file-backed pages (memory-mapped index files,
libraries: the kernel drops and re-reads them), with the last phase done when the peak came;
the load average is recorded before and after each lake. Synthetic lakes (of N columns) come
from bench/synthetic.py (open-data shape, 4 columns per table, seed 0) and are generated once
under W.

``--spark-only`` runs the Spark build alone (for lakes whose yardstick would not fit in memory,
10^6 columns): wall, CPU, peak RSS, the load average sampled every 10 s during the build, the
phases; the build's output goes to W/NAME.log as it runs.

Phases compared (Spark's names from the manifest): read + profile + MinHash, Spark's "reading
tables" + "profiling columns" against the yardstick's "read" + "signatures"; dictionary, sets,
postings, Spark's "building the dictionary" + "sets and postings" against the yardstick's
"dictionary, sets, postings". The rest of the Spark build (starting Spark, the components, the
manifest) has no counterpart in the yardstick and is listed as is."""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GROUPS = {
    "read + profile + MinHash": (("reading tables", "profiling columns"), ("read", "signatures")),
    "dictionary, sets, postings": (("building the dictionary", "sets and postings"),
                                   ("dictionary, sets, postings",)),
}


def tree_rss(pid: int) -> tuple[int, int, int, int]:
    """(total, jvm, python, anonymous) RSS bytes of a process and its descendants.
    *anonymous* leaves out file-backed pages (memory-mapped index files being written or
    read, shared libraries), which the kernel can drop and read again: the memory the build
    itself needs. A JVM's child still named java is left out: the JVM starts commands
    (Hadoop's file system calls chmod) through vfork, and until the child's exec /proc
    shows the parent's whole address space, which is not a second copy."""
    try:
        root = psutil.Process(pid)
        procs = [root] + root.children(recursive=True)
    except psutil.NoSuchProcess:
        return 0, 0, 0, 0
    total = jvm = py = anon = 0
    for p in procs:
        try:
            mem = p.memory_info()
            name = p.name()
            if "java" in name and "java" in p.parent().name():
                continue
        except (psutil.Error, AttributeError):
            continue
        total += mem.rss
        anon += max(0, mem.rss - mem.shared)
        if "java" in name:
            jvm += mem.rss
        elif "python" in name:
            py += mem.rss
    return total, jvm, py, anon


def run_measured(cmd, env=None, log: Path | None = None, cwd=None) -> dict:
    """Run a command, sampling the peak RSS of its process tree; returns wall, CPU seconds
    (user + system of the whole tree, from the reaped children's rusage), peaks, the load
    average seen, output. ``log``: stdout and stderr go to this file as they come (a build
    killed half way still shows the phases it reached). ``cwd``: where it runs (a
    ``python -m`` process and Spark's Python workers import from there first)."""
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.time()
    sink = open(log, "w") if log else None
    proc = subprocess.Popen(cmd, env=env, text=True, cwd=cwd,
                            stdout=sink or subprocess.PIPE,
                            stderr=subprocess.STDOUT if sink else subprocess.PIPE)
    peak = [0, 0, 0, 0]
    peak_phase = [""]                              # the last progress line at the RSS peak
    loads = []                                     # 1-minute load average, every 10 s
    stop = threading.Event()

    def last_line():
        try:
            lines = Path(log).read_text(errors="replace").splitlines() if log else []
        except OSError:
            return ""
        return next((ln for ln in reversed(lines) if ln.startswith("[")), "")

    def sample():
        k = 0
        while not stop.is_set():
            cur = tree_rss(proc.pid)
            if cur[0] > peak[0]:
                peak_phase[0] = last_line()
            for i in range(4):
                peak[i] = max(peak[i], cur[i])
            if k % 50 == 0:
                loads.append(os.getloadavg()[0])
            k += 1
            stop.wait(0.2)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    stdout, stderr = proc.communicate()
    wall = time.time() - t0
    if sink:
        sink.close()
        stdout, stderr = Path(log).read_text(), ""
    stop.set()
    th.join()
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[:4]} failed ({proc.returncode}):\n{stderr[-4000:]}\n{stdout[-2000:]}")
    return {"wall_s": wall, "cpu_s": cpu, "peak_rss": peak[0], "peak_jvm": peak[1], "peak_python": peak[2],
            "peak_anon": peak[3], "peak_after": peak_phase[0],
            "load": [min(loads), sum(loads) / len(loads), max(loads)] if loads else None,
            "stdout": stdout, "stderr": stderr}


def env_for(args) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), SPARK_LOCAL_IP="127.0.0.1",
               PYSPARK_PYTHON=sys.executable)
    if args.driver_memory:
        env["LAKEJOIN_SPARK_DRIVER_MEMORY"] = args.driver_memory
    if args.shuffle_partitions:
        env["LAKEJOIN_SPARK_SHUFFLE_PARTITIONS"] = str(args.shuffle_partitions)
    return env


def yardstick(lake: Path, env, check: Path | None = None) -> dict:
    out = Path(f"{check or lake}.yardstick.json")
    cmd = [sys.executable, str(ROOT / "bench" / "build_yardstick.py"), str(lake), "--json", str(out)]
    if check:
        cmd += ["--check", str(check)]
    r = run_measured(cmd, env)
    r.update(json.loads(out.read_text()))
    out.unlink()
    return r


def spark_build(lake: Path, index: Path, args, env, log: Path | None = None) -> dict:
    shutil.rmtree(index, ignore_errors=True)
    cmd = [sys.executable, "-m", "lakejoin_jupyter.cli", "index", str(lake), "--out", str(index)]
    if args.master:
        cmd += ["--master", args.master]
    for c in args.without:
        cmd += ["--without", c]
    r = run_measured(cmd, env, log)
    manifest = json.loads((index / "manifest.json").read_text())
    r.update(build_s=manifest["build"]["seconds"], phases=manifest["build"]["phases"],
             counts=manifest["counts"], master=manifest["build"]["spark_master"],
             index_bytes=sum(f.stat().st_size for f in index.rglob("*") if f.is_file()))
    return r


FLOOR = """
from lakejoin_jupyter.spark import get_spark, stop_spark
spark = get_spark()
spark.sparkContext.parallelize(range(4), 2).map(lambda x: x + 1).collect()  # Python workers
stop_spark(spark)
"""


def spark_floor(args, env) -> dict:
    """A fresh process that starts Spark as the build does, runs one job with Python
    workers, and stops it: the fixed cost any Spark build pays."""
    cmd = [sys.executable, "-c", FLOOR]
    if args.master:
        env = dict(env, LAKEJOIN_SPARK_MASTER=args.master)
    return run_measured(cmd, env)


def measure(name: str, lake: Path, work: Path, args) -> dict:
    env = env_for(args)
    index = work / f"index-{name}"
    load0 = os.getloadavg()
    y1 = yardstick(lake, env)
    print(f"{name}: yardstick {y1['total_s']:.1f} s", flush=True)
    s = spark_build(lake, index, args, env)
    print(f"{name}: Spark build {s['wall_s']:.1f} s wall", flush=True)
    y2 = yardstick(lake, env, check=index)
    print(f"{name}: yardstick {y2['total_s']:.1f} s, check: "
          f"{'equal' if not y2['check_failed'] else y2['check_failed']}", flush=True)
    floor = spark_floor(args, env)
    print(f"{name}: Spark floor {floor['wall_s']:.1f} s", flush=True)
    load1 = os.getloadavg()
    if y2["check_failed"]:
        raise SystemExit(f"{name}: the Spark build's core arrays differ from the yardstick's: "
                         f"{y2['check_failed']}")
    if not args.keep:
        shutil.rmtree(index, ignore_errors=True)
    return {"name": name, "yardstick": [y1, y2], "spark": s, "floor": floor, "load": [load0, load1]}


def measure_spark_only(name: str, lake: Path, work: Path, args) -> dict:
    """The Spark build alone (no yardstick, no floor): for lakes whose in-process yardstick
    would not fit in memory (10^6 columns). Its output is logged to W/NAME.log as it runs."""
    env = env_for(args)
    index = work / f"index-{name}"
    load0 = os.getloadavg()
    s = spark_build(lake, index, args, env, log=work / f"{name}.log")
    print(f"{name}: Spark build {s['wall_s']:.1f} s wall", flush=True)
    load1 = os.getloadavg()
    if not args.keep:
        shutil.rmtree(index, ignore_errors=True)
    return {"name": name, "spark": s, "load": [load0, load1]}


def table_spark_only(rows: list[dict], args) -> str:
    mib = 1 << 20
    lines = [
        f"Machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / (1 << 30):.0f} GiB RAM, "
        f"{platform.platform()}; Spark master {rows[0]['spark']['master'] if rows else '?'}, "
        f"driver memory {args.driver_memory or 'default'}.", "",
        "| lake | columns | tables | distinct values | postings | Spark build wall (s) "
        "| of which starting Spark | ms / column | CPU s | peak RSS (MiB) | of which JVM "
        "| of which Python | of which anonymous (not file-backed) | peak reached during "
        "| index (MiB) | load before / after | load during (min / mean / max) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---|"]
    for r in rows:
        s, c = r["spark"], r["spark"]["counts"]
        ld = s.get("load") or [0, 0, 0]
        lines.append(
            f"| {r['name']} | {c['columns']:,} | {c['indexed_tables']:,} | {c['tokens']:,} "
            f"| {c['postings']:,} | {s['wall_s']:.1f} | {s['phases'].get('starting Spark', 0):.1f} "
            f"| {1000 * s['wall_s'] / c['columns']:.2f} | {s['cpu_s']:.0f} "
            f"| {s['peak_rss'] / mib:,.0f} | {s['peak_jvm'] / mib:,.0f} | {s['peak_python'] / mib:,.0f} "
            f"| {s['peak_anon'] / mib:,.0f} | {_phase_of(s['peak_after'])} "
            f"| {s['index_bytes'] / mib:,.1f} | {r['load'][0][0]:.1f} / {r['load'][1][0]:.1f} "
            f"| {ld[0]:.1f} / {ld[1]:.1f} / {ld[2]:.1f} |")
    lines += ["", "Per phase (seconds):", "", "| phase | " + " | ".join(r["name"] for r in rows) + " |",
              "|---|" + "---:|" * len(rows)]
    names = []
    for r in rows:
        names += [p for p in r["spark"]["phases"] if p not in names]
    for p in names:
        lines.append(f"| {p} | " + " | ".join(f"{r['spark']['phases'].get(p, 0):.1f}" for r in rows) + " |")
    lines.append("| sum | " + " | ".join(
        f"{sum(r['spark']['phases'].values()):.1f} of {r['spark']['wall_s']:.1f} wall" for r in rows) + " |")
    return "\n".join(lines)


def _phase_of(line: str) -> str:
    """The phase after the one a progress line reports done ("" before the first)."""
    return f"after `{line.split('] ', 1)[-1].split(':')[0]}`" if line else "starting"


def _ysum(y, names):
    return sum(y["seconds"].get(n, 0.0) for n in names)


def table(rows: list[dict], args) -> str:
    mib = 1 << 20
    lines = [
        f"Machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / (1 << 30):.0f} GiB RAM, "
        f"{platform.platform()}; Spark master {rows[0]['spark']['master'] if rows else '?'}, "
        f"driver memory {args.driver_memory or 'default'}.", "",
        "| lake | columns | cells | distinct values | postings | yardstick (s) | Spark build wall (s) "
        "| of which starting Spark | Spark floor (s) | Spark / yardstick | (Spark - floor) / yardstick "
        "| Spark core / yardstick "
        "| CPU s: Spark / yardstick | ms / column "
        "| peak RSS Spark (MiB) | of which JVM | peak RSS yardstick (MiB) | index (MiB) "
        "| load before / after | core arrays equal |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        s, (y1, y2) = r["spark"], r["yardstick"]
        ymean = (y1["total_s"] + y2["total_s"]) / 2
        fl = r.get("floor", {}).get("wall_s", 0.0)
        core = sum(s["phases"].get(p, 0) for g in GROUPS.values() for p in g[0])
        ycore = sum((_ysum(y1, g[1]) + _ysum(y2, g[1])) / 2 for g in GROUPS.values())
        c = s["counts"]
        lines.append(
            f"| {r['name']} | {c['columns']:,} | {y1['cells']:,} | {c['tokens']:,} | {c['postings']:,} "
            f"| {y1['total_s']:.1f} / {y2['total_s']:.1f} | {s['wall_s']:.1f} "
            f"| {s['phases'].get('starting Spark', 0):.1f} | {fl:.1f} | **{s['wall_s'] / ymean:.1f}x** "
            f"| {(s['wall_s'] - fl) / ymean:.1f}x "
            f"| {core / ycore:.1f}x "
            f"| {s['cpu_s']:.0f} / {(y1['cpu_s'] + y2['cpu_s']) / 2:.0f} = {2 * s['cpu_s'] / (y1['cpu_s'] + y2['cpu_s']):.1f}x "
            f"| {1000 * s['wall_s'] / c['columns']:.2f} "
            f"| {s['peak_rss'] / mib:,.0f} | {s['peak_jvm'] / mib:,.0f} "
            f"| {max(y1['peak_rss'], y2['peak_rss']) / mib:,.0f} | {s['index_bytes'] / mib:,.1f} "
            f"| {r['load'][0][0]:.1f} / {r['load'][1][0]:.1f} | {'yes' if not y2['check_failed'] else 'NO'} |")
    lines += ["", "Per phase (seconds; yardstick: mean of the two runs; ratio = Spark / yardstick):", ""]
    head = "| phase | " + " | ".join(r["name"] for r in rows) + " |"
    lines += [head, "|---|" + "---:|" * len(rows)]
    for g, (sp, yp) in GROUPS.items():
        cells = []
        for r in rows:
            s, (y1, y2) = r["spark"], r["yardstick"]
            a = sum(s["phases"].get(p, 0) for p in sp)
            b = (_ysum(y1, yp) + _ysum(y2, yp)) / 2
            cells.append(f"{a:.1f} vs {b:.1f} = **{a / b:.1f}x**" if b else f"{a:.1f}")
        lines.append(f"| {g} | " + " | ".join(cells) + " |")
    grouped = {p for sp, _ in GROUPS.values() for p in sp}
    others = []
    for r in rows:
        for p in r["spark"]["phases"]:
            if p not in grouped and p not in others:
                others.append(p)
    for p in others:
        lines.append(f"| Spark only: {p} | " + " | ".join(
            f"{r['spark']['phases'].get(p, 0):.1f}" for r in rows) + " |")
    lines.append("| Spark phases, sum | " + " | ".join(
        f"{sum(r['spark']['phases'].values()):.1f} of {r['spark']['wall_s']:.1f} wall" for r in rows) + " |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True, help="folder for generated lakes and the indexes")
    ap.add_argument("--lake", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--synthetic", type=int, nargs="*", default=[], metavar="COLUMNS")
    ap.add_argument("--master", default=None)
    ap.add_argument("--driver-memory", default=None)
    ap.add_argument("--shuffle-partitions", type=int, default=None)
    ap.add_argument("--without", action="append", default=[], metavar="COMPONENT")
    ap.add_argument("--keep", action="store_true", help="keep the Spark-built indexes")
    ap.add_argument("--results", default=None, help="write the markdown table here")
    ap.add_argument("--spark-only", action="store_true",
                    help="the Spark build alone, without the yardstick and the floor (for lakes "
                         "whose yardstick would not fit in memory, e.g. 10^6 columns)")
    a = ap.parse_args(argv)
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    lakes = [tuple(x.split("=", 1)) for x in a.lake]
    for n in a.synthetic:
        lake = work / f"lake-{n}"
        if not (lake / ".complete").exists():
            from bench.synthetic import generate
            shutil.rmtree(lake, ignore_errors=True)
            t = time.time()
            generate(lake, n, seed=0)
            (lake / ".complete").write_text(f"{time.time() - t:.1f}")
        lakes.append((f"synthetic {n:,}", str(lake)))
    rows = []
    for name, path in lakes:
        name = name.replace(" ", "-").replace(",", "")
        if a.spark_only:
            rows.append(measure_spark_only(name, Path(path), work, a))
            text = table_spark_only(rows, a)
            print(text, flush=True)
            if a.results:
                Path(a.results).write_text(text + "\n")
            (work / "build_spark_only.json").write_text(json.dumps(
                [r | {"spark": {k: v for k, v in r["spark"].items() if k not in ("stdout", "stderr")}}
                 for r in rows], indent=1))
            continue
        rows.append(measure(name, Path(path), work, a))
        text = table(rows, a)
        print(text, flush=True)
        if a.results:
            Path(a.results).parent.mkdir(parents=True, exist_ok=True)
            Path(a.results).write_text(text + "\n")
        (work / "build_speed.json").write_text(json.dumps(
            [{k: v for k, v in r.items()} | {"spark": {k: v for k, v in r["spark"].items()
                                                       if k not in ("stdout", "stderr")},
                                             "floor": {k: v for k, v in r["floor"].items()
                                                       if k not in ("stdout", "stderr")},
                                             "yardstick": [{k: v for k, v in y.items()
                                                            if k not in ("stdout", "stderr")}
                                                           for y in r["yardstick"]]}
             for r in rows], indent=1))


if __name__ == "__main__":
    main()
