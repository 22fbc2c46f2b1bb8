"""What the query-side pairing check costs when a search makes its query from a frame.

    python bench/query_partners.py [--rows 1000000] [--repeat 3]

A frame of (port, proto, host, note): ports that repeat, a protocol, 50,000 host names and
a three-valued note. Times the query step (engine._frame_query) with the check
(``whole=`` the frame, ``engine.frame_partners``) and without it (docs/algorithms/hits.md,
"Key kind"). Median of ``--repeat`` runs of each.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lakejoin_jupyter.engine import _frame_query  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    n = a.rows
    df = pd.DataFrame({"port": rng.integers(1000, 60000, n),
                       "proto": rng.choice(["tcp", "udp", "sctp"], n),
                       "host": [f"h{i}" for i in rng.integers(0, 50_000, n)],
                       "note": rng.choice(["a b", "c", "d e f"], n)})
    times = {"without": [], "with": []}
    for _ in range(a.repeat):
        for name, whole in (("without", None), ("with", df)):
            t = time.perf_counter()
            q = _frame_query(None, df[["port"]], ("port",), "DataFrame", [], whole=whole)
            times[name].append(time.perf_counter() - t)
    for name, ts in times.items():
        print(f"{name:8s} the check: median {statistics.median(ts):.2f} s over {len(ts)} runs "
              f"(partners found: {list(q.partners)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
