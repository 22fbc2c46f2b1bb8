"""What the frame pairing costs ``rank="useful"`` (engine.py ``Engine._frame_pair``: a
repeating integer read as a key per category of the query frame), measured inside one run:
each query searched warm with the pairing and with it switched off (``_frame_pair``
answering None), the two alternating per query, so the load of a shared machine falls on
both alike; also the time spent inside ``_frame_pair`` and the rankings with the pairing.

    python bench/frame_pair_cost.py INDEX --queries 100 [--repeats 3] [--k 10] [--json OUT]

Queries: ``bench/hits.py``'s sample (seed 0: random columns with at least 10 distinct
values), each read as its table's DataFrame, its own column left out (``query_table``,
where the engine has it). It uses only what every version of the engine
since the pairing has, so one script measures the code before and after a change (run each
with its PYTHONPATH); ``--json`` keeps the rankings, to compare two versions' hit by hit.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def measure(index: str, n_queries: int, repeats: int, k: int) -> dict:
    from hits import sample_queries, seed_left_out
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.engine import Engine
    engine = open_index(index, check_lake=False)
    queries = sample_queries(engine, n_queries)
    frames = {}
    for t, _ in queries:
        if t not in frames:
            frames[t] = engine.table(t)
    real = Engine._frame_pair
    inside = [0.0]

    def timed(self, h, q):
        t0 = time.perf_counter()
        try:
            return real(self, h, q)
        finally:
            inside[0] += time.perf_counter() - t0

    def off(self, h, q):
        return None

    ranks = []
    for t, c in queries:                       # warm: pages, caches; the rankings kept
        res = engine.search(frames[t], c, k=k, rank="useful", **seed_left_out(engine, t))
        ranks.append({"q": [t, c], "hits": [[h.table, h.column, h.key_kind,
                                             round(h.usefulness or 0.0, 9),
                                             h.details.get("frame_pair")] for h in res]})
    ms = {"with": [], "without": []}
    per_query = []
    for r in range(repeats):
        for i, (t, c) in enumerate(queries):
            got = {}
            order = ("with", "without") if (i + r) % 2 == 0 else ("without", "with")
            for variant in order:
                Engine._frame_pair = timed if variant == "with" else off
                t0 = time.perf_counter()
                engine.search(frames[t], c, k=k, rank="useful", **seed_left_out(engine, t))
                got[variant] = (time.perf_counter() - t0) * 1000
            Engine._frame_pair = real
            for v in got:
                ms[v].append(got[v])
            per_query.append(got["with"] / got["without"])
    p50 = {v: statistics.median(x) for v, x in ms.items()}
    return {"queries": len(queries), "repeats": repeats, "p50_with_ms": p50["with"],
            "p50_without_ms": p50["without"], "p50_ratio": p50["with"] / p50["without"],
            "median_per_search_ratio": statistics.median(per_query),
            "total_with_s": sum(ms["with"]) / 1000, "total_without_s": sum(ms["without"]) / 1000,
            "inside_frame_pair_s": inside[0], "ranks": ranks}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("index")
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--json", type=Path)
    a = p.parse_args(argv)
    out = measure(a.index, a.queries, a.repeats, a.k)
    print({k: round(v, 3) if isinstance(v, float) else v for k, v in out.items()
           if k != "ranks"})
    if a.json:
        a.json.write_text(json.dumps(out, indent=0, default=str))


if __name__ == "__main__":
    main()
