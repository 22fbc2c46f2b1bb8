"""Joining a "Needs a transformation" hit: a small query against a large lake table.

    python bench/transform_join.py --index IDX --table pypi --lake-column name \
        --query q1.csv:name [--query q2.csv:line ...] [--out bench/results/transform_join.md]

For each query (a CSV file and its column), the "transform" search runs on the index (which
must have that component) and the hit on ``--table`` / ``--lake-column`` is joined two ways
in the same run:

* **hit**: ``Hit.autojoin`` (what the widget's Find transformation runs): Auto-Join learns on
  the lake rows the hit's program joins, then counts and joins on the whole table;
* **whole** (the peer, what it ran before): Auto-Join on the query and the whole lake table,
  on the same two columns.

Reported per query: wall and CPU seconds of each (the hit's including its search), their
ratio, the program each learned, the query rows each joins (distinct query rows in the
join's pairs, counted on the whole table) and the join's size (its pairs: above the rows
joined where a query row meets several lake rows). The product's defaults are used (constrained
fuzzy step on).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def _rows_joined(aj) -> int:
    return len({i for i, _ in aj.pairs()}) if aj.found else 0


def run(index: str, table: str, lake_column: str, queries: list) -> list:
    from lakejoin_jupyter.engine import open_index
    from lakejoin_jupyter.join.autojoin import autojoin
    engine = open_index(index)
    if "transform" not in {m.name for m in engine.methods()}:
        raise SystemExit(f"{index} has no transform component: lakejoin index --add transform {index}")
    whole = engine.table(table)
    rows = []
    for path, column in queries:
        q = pd.read_csv(path, dtype=str, keep_default_na=False)[[column]]

        def via_hit():
            res = engine.search(q, column, method="transform", k=None)
            hit = next((h for h in res if h.table == table and h.column == lake_column), None)
            return None if hit is None else hit.autojoin(q, left_name="query")
        aj, hw, hc = _timed(via_hit)
        peer, ww, wc = _timed(lambda: autojoin(q, whole, column, lake_column, left_name="query",
                                               right_name=table))
        rows.append({
            "query": f"{Path(path).name}:{column}", "query rows": len(q),
            "lake rows": len(whole),
            "hit: s (CPU s)": f"{hw:.1f} ({hc:.1f})" if aj is not None else "no hit",
            "whole table: s (CPU s)": f"{ww:.1f} ({wc:.1f})",
            "CPU ratio": f"{hc / wc:.3f}" if aj is not None and wc else "",
            "hit: rows joined": _rows_joined(aj) if aj is not None else 0,
            "whole: rows joined": _rows_joined(peer),
            "hit: join size": len(aj.pairs()) if aj is not None and aj.found else 0,
            "whole: join size": len(peer.pairs()) if peer.found else 0,
            "hit: program": aj.program.describe() if aj is not None and aj.found else "-",
            "whole: program": peer.program.describe() if peer.found else "-"})
        print(rows[-1], flush=True)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", required=True)
    ap.add_argument("--table", required=True, help="the large lake table")
    ap.add_argument("--lake-column", required=True)
    ap.add_argument("--query", action="append", required=True, metavar="CSV:COLUMN")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    queries = [tuple(q.rsplit(":", 1)) for q in a.query]
    rows = run(a.index, a.table, a.lake_column, queries)
    cols = list(rows[0])
    text = "\n".join(["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
                     + ["| " + " | ".join(str(r[c]).replace("|", "\\|") for c in cols) + " |"
                        for r in rows])
    print(text)
    if a.out:
        load = os.getloadavg()
        a.out.write_text(
            "# Joining a transformation hit: a small query against a large lake table\n\n"
            f"`python bench/transform_join.py --index {a.index} --table {a.table} "
            f"--lake-column {a.lake_column} " + " ".join(f"--query {q}" for q in a.query)
            + f"`\n\nLoad average at the end: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}.\n\n"
            + text + "\n")


if __name__ == "__main__":
    main()
