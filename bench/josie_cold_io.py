"""Where a cold exact top-k query's bytes come from: the engine's index pages against
DuckDB's reads of the same postings (JOSIE's cold goal, bench/results/josie_1e6.md).

    python bench/josie_cold_io.py WORK --lake ref-opendata-1e6-cpt20 [--queries 20]

WORK/NAME is a lake prepared by bench/josie_prepare.py. Queries are the first ``--queries``
of bench/josie.py's stratified sample (same seed). For each, with the page cache dropped
before every call (posix_fadvise DONTNEED on the index files and the postings Parquet):

* **needed**: what MergeList-D must read at the least: the query's distinct posting lists
  (entries x 4 bytes of ``postings/set_ids.npy``), and the distinct 4 KiB pages those
  lists lie on, plus the pages of the per-token arrays (group, frequency, list offsets)
  the query's tokens touch;
* **engine**: the engine's default search (planner) cold: wall ms, CPU ms and bytes read
  from the device (``read_bytes`` of /proc/self/io);
* **DuckDB**: the benchmark's DuckDB query over ``read_parquet`` cold: wall ms and bytes
  read.

The medians show how far a layout change could go: even with every needed byte packed
together, the query must read ``needed entries x 4`` bytes, and its warm CPU time stays.
"""
from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.josie import DuckPeer, index_files, parquet_files, sample_queries  # noqa: E402
from lakejoin_jupyter.index.reads import drop_from_page_cache, load_arrays, ranges  # noqa: E402
from lakejoin_jupyter.search.josie_cost import CostModel  # noqa: E402
from lakejoin_jupyter.search import josie  # noqa: E402
from lakejoin_jupyter.search.overlap import distinct_lists  # noqa: E402

PAGE = 4096


def read_bytes() -> int:
    with open("/proc/self/io") as f:
        for line in f:
            if line.startswith("read_bytes"):
                return int(line.split()[1])
    return 0


def pages(starts_bytes: np.ndarray, ends_bytes: np.ndarray) -> int:
    """Distinct 4 KiB pages covered by the byte ranges [start, end)."""
    keep = ends_bytes > starts_bytes
    first, last = starts_bytes[keep] // PAGE, (ends_bytes[keep] - 1) // PAGE
    return len(np.unique(ranges(first, last - first + 1)))


def needed(a, q, sid) -> dict:
    lists = distinct_lists(a, q, {sid})
    lt = lists.list_tokens
    ip = np.asarray(a.post_indptr)
    s, e = ip[lt], ip[lt + 1]
    tok_pages = sum(pages(q * arr.itemsize, (q + 1) * arr.itemsize)
                    for arr in (a.token_group, a.token_freq))
    tok_pages += pages(lt * 8, (lt + 2) * 8)
    return {"lists": int(len(lt)), "entries": int((e - s).sum()),
            "list_pages": pages(s * 4, e * 4), "token_pages": int(tok_pages)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("work", type=Path)
    ap.add_argument("--lake", default="ref-opendata-1e6-cpt20")
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--per-interval", type=int, default=15,
                    help="bench/josie.py's sample (the first --queries of it are used)")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--out", type=Path, default=None, help="markdown file to write")
    args = ap.parse_args(argv)
    index = args.work / args.lake / "index"
    if not (index / "manifest.json").exists():
        ap.error(f"{index} is not a prepared index (run bench/josie_prepare.py first)")
    manifest = json.loads((index / "manifest.json").read_text())
    costs = CostModel.from_manifest(manifest, "cold")
    a = load_arrays(index)
    queries = [q for q, _, _ in sample_queries(a, args.per_interval, None)[0][: args.queries]]
    files = index_files(index) + parquet_files(index)
    duck = DuckPeer(index, in_memory=False)
    rows = []
    for sid in queries:
        q = np.array(a.set_tokens(sid))
        row = needed(a, q, sid)
        for name in ("engine", "duckdb"):
            del a
            gc.collect()
            drop_from_page_cache(files)
            a = load_arrays(index)
            b, c, t = read_bytes(), time.process_time(), time.perf_counter()
            if name == "engine":
                josie.search(a, q, args.k, {sid}, costs=costs, plan="auto")
            else:
                duck.search(a, q, args.k, {sid})
            row[f"{name}_ms"] = (time.perf_counter() - t) * 1e3
            row[f"{name}_cpu_ms"] = (time.process_time() - c) * 1e3
            row[f"{name}_mib"] = (read_bytes() - b) / 2 ** 20
        rows.append(row)
        print(f"query {sid}: |Q| {len(q):,} " + ", ".join(
            f"{k} {v:,.1f}" if isinstance(v, float) else f"{k} {v:,}" for k, v in row.items()),
            flush=True)
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    lines = [
        f"Cold top-{args.k}, {len(rows)} queries of `{args.lake}` (medians; page cache dropped "
        f"before every call). Command: `python bench/josie_cold_io.py WORK --lake {args.lake} "
        f"--queries {args.queries}`",
        "",
        "| what | median |",
        "|---|---|",
        f"| distinct posting lists the query reads | {med['lists']:,.0f} |",
        f"| their entries (x 4 bytes) | {med['entries']:,.0f} ({med['entries'] * 4 / 2**20:.1f} MiB) |",
        f"| 4 KiB pages those lists lie on | {med['list_pages']:,.0f} "
        f"({med['list_pages'] * PAGE / 2**20:.1f} MiB) |",
        f"| pages of the per-token arrays | {med['token_pages']:,.0f} "
        f"({med['token_pages'] * PAGE / 2**20:.1f} MiB) |",
        f"| engine: wall / CPU ms, MiB read | {med['engine_ms']:.1f} / {med['engine_cpu_ms']:.1f}, "
        f"{med['engine_mib']:.1f} |",
        f"| DuckDB: wall / CPU ms, MiB read | {med['duckdb_ms']:.1f} / {med['duckdb_cpu_ms']:.1f}, "
        f"{med['duckdb_mib']:.1f} |",
        f"| DuckDB / engine wall | {med['duckdb_ms'] / med['engine_ms']:.1f}x |",
    ]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
