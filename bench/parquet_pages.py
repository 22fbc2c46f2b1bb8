"""Why the LSH Ensemble segments are written with a page-size check on every row.

Each row of the segments table holds whole segments (binary values of up to 8 MiB at 10^6
columns). Parquet's writer checks a page's size only every 100 rows by default, so a page
buffers ~100 such values, plus its compressed copy, in the driver JVM's heap. This script
writes 4 groups x 60 rows of 2 MiB binaries from applyInPandas into Parquet with a small
heap, once with Parquet's defaults and once with ``indexing.lshensemble.LARGE_VALUE_PAGES``,
each in a fresh process, and prints whether each write succeeded.

    python bench/parquet_pages.py [--heap 600m]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

CHILD = r"""
import sys, numpy as np, pandas as pd
from pyspark.sql import SparkSession
from lakejoin_jupyter.indexing.lshensemble import LARGE_VALUE_PAGES
heap, variant, out = sys.argv[1:4]
spark = (SparkSession.builder.master("local[2]").config("spark.driver.memory", heap)
         .config("spark.ui.enabled", "false").getOrCreate())
spark.sparkContext.setLogLevel("OFF")
def make(pdf):
    g = int(pdf["g"].iloc[0]); rng = np.random.default_rng(g)
    return pd.DataFrame({"g": [g] * 60, "v": [rng.integers(0, 2**32, 1 << 19, dtype=np.uint32).tobytes()
                                               for _ in range(60)]})
w = (spark.range(4).selectExpr("cast(id as int) g").groupBy("g")
     .applyInPandas(make, "g int, v binary").write.mode("overwrite"))
if variant == "checked":
    w = w.options(**LARGE_VALUE_PAGES)
try:
    w.parquet(out)
    print("written")
except Exception as e:
    print("failed: " + ("Java heap space" if "Java heap space" in str(e) else str(e).splitlines()[0][:120]))
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--heap", default="600m", help="driver heap of each child (default 600m)")
    ap.add_argument("--out", default="/tmp/lakejoin-parquet-pages")
    a = ap.parse_args(argv)
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    for variant in ("default", "checked"):
        r = subprocess.run([sys.executable, "-c", CHILD, a.heap, variant, f"{a.out}/{variant}"],
                           capture_output=True, text=True, env=env)
        last = (r.stdout.strip().splitlines() or ["(no output) " + r.stderr[-300:]])[-1]
        print(f"{variant:8s} Parquet page checks, heap {a.heap}: {last}")


if __name__ == "__main__":
    main()
