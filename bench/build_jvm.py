"""The driver JVM's start-up options, side by side: the build's choice (the quick JIT only,
``-XX:TieredStopAtLevel=1``, for a lake of at most 16 MiB: pipeline.py ``small_lake_settings``;
Spark's classes mapped from the class archive: spark.py ``_class_sharing_options``) against
the same build without the archive (``LAKEJOIN_JVM_CLASS_CACHE=0``) and with the JVM's
default tiered JIT, in alternating fresh processes, same run. A first, unmeasured build
writes the archive (into WORK/jvm), and its wall time is reported: that is what the first
build on a machine pays once.

    python bench/build_jvm.py LAKE [--pairs 2] [--results OUT]

Each build is a fresh Python process that starts Spark (cold JVM, as `lakejoin index` does)
and builds every default component; wall and CPU seconds are those of the whole process
tree (driver Python, JVM, Python workers), from psutil. On a loaded machine the CPU seconds
are the figure to read: wall time then depends on the share of the cores a build gets.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, shutil, sys, time, psutil
sys.path.insert(0, {root!r})
from lakejoin_jupyter.config import SparkSettings
from lakejoin_jupyter.indexing.pipeline import build

def cpu():                           # this process, its live descendants, the reaped ones
    me = psutil.Process()
    tot = 0.0
    for p in [me] + me.children(recursive=True):
        try:
            c = p.cpu_times()
            tot += c.user + c.system + c.children_user + c.children_system
        except psutil.Error:
            pass
    return tot

extra = {extra!r}
shutil.rmtree({out!r}, ignore_errors=True)
t0, c0 = time.time(), cpu()
r = build({lake!r}, {out!r}, progress=False, spark_settings=SparkSettings(extra=extra))
wall = time.time() - t0              # the build stopped (and reaped) the JVM it started
shutil.rmtree({out!r}, ignore_errors=True)
print(json.dumps({{"wall": wall, "cpu": cpu() - c0, "phases": r.phase_seconds}}))
"""

CHOICE = "quick JIT + class archive (the build's choice)"
SETTINGS = {    # name -> (Spark settings' extra, environment)
    CHOICE: ({}, {}),
    "quick JIT, no class archive": ({}, {"LAKEJOIN_JVM_CLASS_CACHE": "0"}),
    "default tiered JIT (C1 + C2), no class archive": (
        {"spark.driver.extraJavaOptions": "-XX:+TieredCompilation"}, {"LAKEJOIN_JVM_CLASS_CACHE": "0"}),
}


def run(lake: str, setting: tuple, out: str, work: str) -> dict:
    extra, env_extra = setting
    code = CHILD.format(root=str(ROOT), extra=extra, lake=lake, out=out)
    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable,
               LAKEJOIN_JVM_CLASS_CACHE_DIR=f"{work}/jvm", **env_extra)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(r.stderr[-3000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lake")
    ap.add_argument("--pairs", type=int, default=2)
    ap.add_argument("--work", default="/tmp/lakejoin-build-jit")
    ap.add_argument("--results", type=Path)
    a = ap.parse_args(argv)
    Path(a.work).mkdir(parents=True, exist_ok=True)
    names = list(SETTINGS)
    got = {n: [] for n in names}
    loads = [os.getloadavg()[0]]
    import shutil
    import time
    shutil.rmtree(f"{a.work}/jvm", ignore_errors=True)
    t0 = time.time()
    first = run(a.lake, SETTINGS[CHOICE], f"{a.work}/index", a.work)
    first_process = time.time() - t0
    print(f"first build (writes the archive): build {first['wall']:.1f} s, process {first_process:.1f} s")
    for k in range(a.pairs):
        for n in (names if k % 2 == 0 else names[::-1]):
            r = run(a.lake, SETTINGS[n], f"{a.work}/index", a.work)
            got[n].append(r)
            loads.append(os.getloadavg()[0])
            print(f"{n}: wall {r['wall']:.1f} s, CPU {r['cpu']:.1f} s", flush=True)
    lines = [f"Lake {a.lake}; {a.pairs} alternating rounds of fresh builds; load average "
             f"{min(loads):.1f}-{max(loads):.1f}. The first build on the machine (it writes the "
             f"class archive as its JVM exits): build {first['wall']:.1f} s, whole process "
             f"{first_process:.1f} s.", "",
             "| driver JVM | wall (s), each run | CPU (s), each run | mean CPU |", "|---|---|---|---:|"]
    for n in names:
        w = " / ".join(f"{r['wall']:.1f}" for r in got[n])
        c = " / ".join(f"{r['cpu']:.1f}" for r in got[n])
        lines.append(f"| {n} | {w} | {c} | {sum(r['cpu'] for r in got[n]) / len(got[n]):.1f} |")
    mean = {n: sum(r["cpu"] for r in got[n]) / len(got[n]) for n in names}
    lines += [""] + [f"CPU ratio the build's choice / {n}: **{mean[CHOICE] / mean[n]:.2f}**"
                     for n in names[1:]]
    text = "\n".join(lines)
    print(text)
    if a.results:
        a.results.write_text(text + "\n")


if __name__ == "__main__":
    main()
