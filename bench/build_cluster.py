"""The same lake built in local mode and on a Spark standalone cluster on 127.0.0.1: wall
time of each, and whether the two indexes are the same bytes.

    python bench/build_cluster.py LAKE --work W [--workers 2] [--worker-cores 1]
        [--worker-memory 4g] [--executor-memory 3g] [--results OUT]

Both builds are fresh `lakejoin index` processes (cold JVM, every default component). The
cluster is a master and ``--workers`` workers started from PySpark's own scripts
(``spark-class``), stopped afterwards. Every file of the two indexes is compared byte for
byte, except ``manifest.json`` (it records the master, the times and the host), whose
checksums of the other files are compared instead; a Parquet file whose bytes differ is
also compared by content, so the report says which files differ and how.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.5)
    return False


class Cluster:
    """A standalone master and workers on 127.0.0.1 (a context manager)."""

    def __init__(self, work: Path, workers: int, cores: int, memory: str):
        import pyspark
        self.home = Path(pyspark.__file__).parent
        self.work, self.n, self.cores, self.memory = work, workers, cores, memory
        self.env = dict(os.environ, SPARK_HOME=str(self.home), SPARK_LOCAL_IP="127.0.0.1",
                        SPARK_LOG_DIR=str(work / "logs"), SPARK_WORKER_DIR=str(work / "work"),
                        PYSPARK_PYTHON=sys.executable)
        self.procs: list[subprocess.Popen] = []

    def _start(self, *args) -> None:
        log = open(self.work / "cluster.log", "a")
        self.procs.append(subprocess.Popen([str(self.home / "bin" / "spark-class"), *args],
                                           env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                           start_new_session=True))

    def __enter__(self) -> str:
        try:
            return self._start_all()
        except BaseException:
            self.__exit__()
            raise

    def _start_all(self) -> str:
        self.work.mkdir(parents=True, exist_ok=True)
        port = free_port()
        self._start("org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                    "--port", str(port), "--webui-port", str(free_port()))
        if not wait_port(port, 180):
            raise RuntimeError(f"the master did not start; see {self.work / 'cluster.log'}")
        master = f"spark://127.0.0.1:{port}"
        for _ in range(self.n):
            self._start("org.apache.spark.deploy.worker.Worker", master, "--cores",
                        str(self.cores), "--memory", self.memory, "--webui-port", str(free_port()))
        time.sleep(10)          # the workers register with the master
        return master

    def __exit__(self, *exc) -> None:
        for p in reversed(self.procs):
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in self.procs:
            try:
                p.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)


def build(lake: str, out: Path, master: str, env: dict) -> float:
    shutil.rmtree(out, ignore_errors=True)
    t = time.time()
    r = subprocess.run([sys.executable, "-m", "lakejoin_jupyter.cli", "index", lake, "--out",
                        str(out), "--master", master, "-q"], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"build on {master} failed:\n{r.stderr[-3000:]}")
    return time.time() - t


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def compare(a: Path, b: Path) -> dict:
    """Files of the two indexes: same bytes, same content only (Parquet), or different."""
    import pandas as pd
    files_a = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    files_b = {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    out = {"only_local": sorted(map(str, files_a - files_b)),
           "only_cluster": sorted(map(str, files_b - files_a)),
           "same_bytes": 0, "same_content": [], "different": [], "bytes": 0}
    for rel in sorted(files_a & files_b):
        if rel.name == "manifest.json":
            ma, mb = (json.loads((x / rel).read_text()) for x in (a, b))
            if ma.get("checksums", ma.get("files")) != mb.get("checksums", mb.get("files")):
                out["different"].append(f"{rel} (checksums)")
            continue
        out["bytes"] += (a / rel).stat().st_size
        if digest(a / rel) == digest(b / rel):
            out["same_bytes"] += 1
        elif rel.suffix == ".parquet" and pd.read_parquet(a / rel).equals(pd.read_parquet(b / rel)):
            out["same_content"].append(str(rel))
        else:
            out["different"].append(str(rel))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("lake")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--worker-cores", type=int, default=1)
    ap.add_argument("--worker-memory", default="4g")
    ap.add_argument("--executor-memory", default="3g")
    ap.add_argument("--results", type=Path)
    a = ap.parse_args(argv)
    a.work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT), SPARK_LOCAL_IP="127.0.0.1",
               PYSPARK_PYTHON=sys.executable, LAKEJOIN_SPARK_EXECUTOR_MEMORY=a.executor_memory)
    load = [os.getloadavg()[0]]
    local = build(a.lake, a.work / "local.index", "local[*]", env)
    load.append(os.getloadavg()[0])
    with Cluster(a.work / "cluster", a.workers, a.worker_cores, a.worker_memory) as master:
        remote = build(a.lake, a.work / "cluster.index", master, env)
    load.append(os.getloadavg()[0])
    cmp = compare(a.work / "local.index", a.work / "cluster.index")
    n_files = cmp["same_bytes"] + len(cmp["same_content"]) + len(cmp["different"])
    same = not (cmp["different"] or cmp["only_local"] or cmp["only_cluster"])
    lines = [f"Lake {a.lake}; load average {' -> '.join(f'{x:.1f}' for x in load)}.", "",
             "| build | master | wall (s) |", "|---|---|---:|",
             f"| local | local[*] | {local:.1f} |",
             f"| cluster | {a.workers} workers x {a.worker_cores} core(s), executors "
             f"{a.executor_memory} | {remote:.1f} |", "",
             f"Files compared (manifest aside): {n_files} ({cmp['bytes'] / 2**20:.1f} MiB); "
             f"same bytes {cmp['same_bytes']}; same content, other bytes "
             f"{len(cmp['same_content'])} {cmp['same_content'][:5]}; different "
             f"{len(cmp['different'])} {cmp['different'][:10]}; only in one: "
             f"{cmp['only_local'][:5]} / {cmp['only_cluster'][:5]}.",
             f"**Same index: {'yes' if same else 'no'}**; cluster / local wall "
             f"{remote / local:.2f}x."]
    text = "\n".join(lines)
    print(text)
    if a.results:
        a.results.write_text(text + "\n")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
