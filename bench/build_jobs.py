"""The Spark jobs a build runs: build a lake once with Spark's event log on, then list each
job (when it started after the application, how long it took, tasks run, the call site of
its last stage) and the phases' seconds.

    python bench/build_jobs.py LAKE OUT [--tree TREE]

``--tree``: the source tree to build with (default: this one), e.g. an older revision
extracted with ``git archive REV | tar -x -C TREE``; run it from a folder without a
``lakejoin_jupyter`` package. The event log goes to OUT.events (uncompressed JSON lines).
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lake")
    ap.add_argument("out")
    ap.add_argument("--tree", default=str(ROOT))
    a = ap.parse_args(argv)
    sys.path.insert(0, str(Path(a.tree).resolve()))
    from lakejoin_jupyter.config import SparkSettings
    from lakejoin_jupyter.indexing.pipeline import build

    out = Path(a.out).resolve()
    ev = out.parent / (out.name + ".events")
    shutil.rmtree(ev, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    ev.mkdir(parents=True)
    t0 = time.time()
    rep = build(a.lake, out, progress=False, spark_settings=SparkSettings(extra={
        "spark.eventLog.enabled": "true", "spark.eventLog.compress": "false",
        "spark.eventLog.rolling.enabled": "false", "spark.eventLog.dir": ev.as_uri()}))
    wall = time.time() - t0
    log = next(p for p in ev.rglob("*") if p.is_file() and not p.name.startswith((".", "app")))
    jobs, done, app0 = {}, {}, 0
    for line in log.open():
        e = json.loads(line)
        kind = e["Event"]
        if kind == "SparkListenerApplicationStart":
            app0 = e["Timestamp"]
        elif kind == "SparkListenerJobStart":
            infos = e["Stage Infos"]
            jobs[e["Job ID"]] = {"start": e["Submission Time"], "stages": [s["Stage ID"] for s in infos],
                                 "name": max(infos, key=lambda s: s["Stage ID"])["Stage Name"]}
        elif kind == "SparkListenerJobEnd":
            jobs[e["Job ID"]]["end"] = e["Completion Time"]
        elif kind == "SparkListenerStageCompleted":
            done[e["Stage Info"]["Stage ID"]] = e["Stage Info"]["Number of Tasks"]
    print(f"{a.lake}: wall {wall:.1f} s; {len(jobs)} jobs, {len(done)} stages run, "
          f"{sum(done.values())} tasks")
    for j, d in sorted(jobs.items()):
        ran = [s for s in d["stages"] if s in done]
        print(f"job {j:3d}  at {(d['start'] - app0) / 1000:6.1f} s  {(d.get('end', 0) - d['start']) / 1000:5.2f} s"
              f"  stages {len(ran)}/{len(d['stages'])}  tasks {sum(done[s] for s in ran):4d}  "
              f"{d['name'][:80]}")
    print(json.dumps(rep.phase_seconds))


if __name__ == "__main__":
    main()
