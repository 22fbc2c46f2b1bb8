"""The dictionary job (indexing/dictionary.py) against the job it replaced, alternating in
one Spark session: the long form of a lake is read once into WORK/long, then each round runs
every job on it and reports wall and CPU seconds of the whole process tree (driver, JVM,
Python workers; psutil) and checks the sorted rows equal.

    python bench/build_dictionary.py LAKE WORK [--rounds 3]

Jobs: "groupBy", the job before the current one (``groupBy(token)`` collecting
``sort_array(collect_list(struct(column_id, rcode)))``, then ``orderBy(freq, sids,
token)``); "spark sql", the current job's large-lake grouping (a shuffle by token, Arrow
tasks); "python", its small-lake grouping (Python tasks reading the values parts, no Spark
SQL). Each then sorts as the build does. The first round also warms the JVM (read the later
rounds; the Python grouping's gain in a build is mostly the first SQL query it avoids, which
only the first round shows). The driver JVM runs with the quick JIT only, as the build does
for small lakes.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def groupby_job(values, grouped_dir, out_dir):
    from pyspark.sql import functions as F
    (values.groupBy("token")
     .agg(F.first("hash64").alias("hash64"),
          F.sort_array(F.collect_list(F.struct("column_id", "rcode"))).alias("pairs"))
     .withColumn("sids", F.array_distinct(F.col("pairs.column_id")))
     .withColumn("freq", F.size("sids"))
     .orderBy("freq", "sids", "token")
     .select("token", "hash64", "freq", "sids", "pairs").write.parquet(Path(out_dir).as_uri()))


def _cpu() -> float:
    import psutil
    me, tot = psutil.Process(), 0.0
    for p in [me] + me.children(recursive=True):
        try:
            c = p.cpu_times()
            tot += c.user + c.system
        except psutil.Error:
            pass
    return tot


def _rows(folder):
    import pyarrow as pa
    import pyarrow.parquet as pq
    return pa.concat_tables([pq.read_table(f) for f in sorted(Path(folder).glob("part-*.parquet"))])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("lake")
    ap.add_argument("work", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    from pyspark.sql import functions as F

    from lakejoin_jupyter.config import SparkSettings
    from lakejoin_jupyter.indexing import dictionary, read as read_job
    from lakejoin_jupyter.lake.discover import discover
    from lakejoin_jupyter.spark import get_spark, stop_spark

    spark = get_spark(SparkSettings(extra={
        "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1"}))
    long = read_job.LongForm(str(a.work / "long"))
    if not (a.work / "long" / "values").exists():
        t = time.time()
        read_job.read_lake(spark, discover(a.lake), long, 256, 1, 5)
        print(f"long form read in {time.time() - t:.1f} s", flush=True)
    v = spark.read.parquet(long.uri("values"))
    # a column id per (table, position); the real ids are consecutive, the job does not care
    values = v.select((F.col("table_id") * 4096 + F.col("position")).cast("int").alias("column_id"),
                      "rcode", "token", "hash64").where(F.col("token").isNotNull())
    files = long.files("values")
    first_of = np.arange(4096, dtype=np.int64) * 4096       # the ids above, for the Python tasks

    def current(grouping):
        def job(values, grouped_dir, out_dir):
            limit = dictionary.PYTHON_GROUPING_BYTES
            dictionary.PYTHON_GROUPING_BYTES = -1 if grouping == "spark sql" else 1 << 62
            try:
                dictionary.build_dictionary(spark, files, first_of, lambda: values,
                                            grouped_dir, out_dir)
            finally:
                dictionary.PYTHON_GROUPING_BYTES = limit
        return job

    jobs = {"groupBy": groupby_job, "spark sql": current("spark sql"), "python": current("python")}
    print("| round | job | wall (s) | CPU (s) | load |\n|---|---|---:|---:|---:|")
    for r in range(1, a.rounds + 1):
        for name, job in jobs.items():
            out, grp = a.work / f"out-{name}", a.work / f"grouped-{name}"
            shutil.rmtree(out, ignore_errors=True)
            shutil.rmtree(grp, ignore_errors=True)
            t, c = time.time(), _cpu()
            job(values, str(grp), out)
            print(f"| {r} | {name} | {time.time() - t:.1f} | {_cpu() - c:.1f} | "
                  f"{os.getloadavg()[0]:.1f} |", flush=True)
        old = _rows(a.work / "out-groupBy")
        same = all(old.equals(_rows(a.work / f"out-{name}").cast(old.schema))  # all nullable
                   for name in jobs if name != "groupBy")
        print(f"round {r}: sorted rows equal: {same}", flush=True)
        if not same:
            raise SystemExit("the jobs' rows differ")
    stop_spark(spark)


if __name__ == "__main__":
    main()
