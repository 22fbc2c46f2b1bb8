"""What rank="useful" costs when it asks the method for more candidates: the method's runs
(the k asked, the work each reports) and the search's latency, for one query of a lake.

    python bench/useful_pool.py INDEX QUERY.csv COLUMN [--k 10] [--repeats 15] [--method M]
                                [-O NAME=VALUE] [--json OUT]

Runs ``Engine.search(df, COLUMN, k=K, rank="useful")`` once to count the method's runs (its
``run`` wrapped: the k asked, posting entries, lists and sets read), then ``--repeats``
times warm for the latency. It uses only what every version of the engine has, so the
same script measures the code before and after a change (run each with its PYTHONPATH).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORK = ("posting_entries_read", "lists_read", "sets_read", "set_tokens_read")


def measure(index: str, query: str, column: str, k: int, repeats: int, method: str = "auto",
            options: dict | None = None) -> dict:
    import lakejoin_jupyter as lj
    engine = lj.open_index(index)
    df = pd.read_csv(query)
    kw = dict(options or {}, method=method)
    res = engine.search(df, column, k=k, rank="useful", **kw)          # warm: pages, caches
    method = engine.search_methods[res.method]
    runs, real = [], method.run

    def counted(index_, query_, params):
        t0 = time.perf_counter()
        out, stats = real(index_, query_, params)
        runs.append({"k": params.k, "excluded": len(query_.exclude), "returned": len(out),
                     "ms": (time.perf_counter() - t0) * 1000,
                     **{w: int(stats.get(w, 0)) for w in WORK}})
        return out, stats
    method.run = counted
    try:
        res = engine.search(df, column, k=k, rank="useful", **kw)
    finally:
        method.run = real
    seconds = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        engine.search(df, column, k=k, rank="useful", **kw)
        seconds.append(time.perf_counter() - t0)
    return {"method": res.method, "runs": runs, "top": [(h.table, h.column) for h in res][:3],
            "hits": [(h.table, h.column, h.overlap) for h in res], "notes": list(res.notes),
            "p50_ms": statistics.median(seconds) * 1000,
            "method_ms": sum(r["ms"] for r in runs),
            **{w: sum(r[w] for r in runs) for w in WORK}}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("index")
    p.add_argument("query", help="a CSV file, read as pd.read_csv reads it")
    p.add_argument("column")
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--repeats", type=int, default=15)
    p.add_argument("--method", "-m", default="auto")
    p.add_argument("--option", "-O", action="append", default=[], metavar="NAME=VALUE",
                   help="a method's option (e.g. plan=josie), repeatable")
    p.add_argument("--json", help="write the figures here")
    a = p.parse_args(argv)
    options = dict(o.split("=", 1) for o in a.option)
    out = measure(a.index, a.query, a.column, a.k, a.repeats, a.method, options)
    line = (f"{out['method']}: {len(out['runs'])} runs, k asked {[r['k'] for r in out['runs']]}, "
            f"method {out['method_ms']:.1f} ms, posting entries {out['posting_entries_read']:,}, "
            f"sets read {out['sets_read']:,}; search p50 {out['p50_ms']:.1f} ms; "
            f"top {out['top']}")
    print(line)
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    main()
