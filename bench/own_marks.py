"""The query's own table, "(your table)" (``Engine.own_tables``), on frames a user reads by
hand (no ``lakejoin_table`` attribute): which rankings it changes, and what it costs on a
wide frame. Run each mode with the code to compare on PYTHONPATH (the script imports the
engine it finds there first).

    python bench/own_marks.py rankings INDEX --out RANKS.json [--queries 200] [--seed 0]
                                             [--compare OTHER.json]
    python bench/own_marks.py marks INDEX --out MARKS.json [--queries 200] [--seed 0]
                                       [--compare OTHER.json]
    python bench/own_marks.py wide INDEX TABLE.csv COLUMN [--rows 20] [--widths 3,100,200,0]
                                   [--repeats 3]

``rankings``: ``--queries`` random columns of the index with at least 10 distinct values
(``bench/hits.py``'s sample, seed 0), each searched (k = 10, ``rank="useful"``) as three
frames of its table's first 20 rows: every column, the column alone, and the column with
one added column; each hit's table, column, usefulness and mark written as JSON.
``--compare``: per frame, whether the ranking is the same, differs only in the own table
(marked and moved last), or otherwise. ``marks``: the same frames, whether
``Engine.own_tables`` takes the query's table for its own, with the column as the join's key
and as the union search asks (no key); ``--compare``: how many frames each code marks.
``wide``: the search of ``COLUMN`` of
``pd.read_csv(TABLE.csv).head(rows)`` cut to its first w columns (0: all), warm, the median
of ``--repeats`` seconds, and whether the table is marked.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import pandas as pd

VARIANTS = ("all columns", "the column alone", "the column and one added")


def sample(engine, n: int, seed: int) -> list:
    cols, tables = engine.index.columns, engine.index.tables
    ok = cols[cols["n_distinct"] >= 10]
    pick = ok.sample(n=min(n, len(ok)), random_state=seed)
    names = tables.set_index("table_id")["name"]
    return [(str(names[t]), str(c)) for t, c in zip(pick["table_id"], pick["name"])]


def rankings(engine, queries: list) -> list:
    out = []
    for table, column in queries:
        df = engine.table(table).head(20).copy()
        df.attrs = {}                              # as read by hand
        one = df[[column]]
        added = one.assign(**{f"{column}_added": 1})
        row = []
        for frame in (df, one, added):
            res = engine.search(frame, column, k=10, rank="useful")
            row.append([[h.table, list(h.columns), round(h.usefulness or 0.0, 9),
                         bool(h.is_query_table)] for h in res])
        out.append({"table": table, "column": column, "ranks": row})
    return out


def compare(mine: list, other: list) -> dict:
    """Per frame, against ``other`` (the code before): the same ranking; one that differs
    only in the query's own table (the table it was read from: marked now, listed last or
    past the k shown, the other hits in the same order); or another change."""
    kinds = ("same", "own table marked (only)", "own mark removed", "other change")
    counts = {v: dict.fromkeys(kinds, 0) for v in VARIANTS}
    changed = []
    for a, b in zip(mine, other):
        own = a["table"]
        for v, x, y in zip(VARIANTS, a["ranks"], b["ranks"]):
            if x == y:
                counts[v]["same"] += 1
                continue
            rest_x = [h for h in x if h[0] != own]
            rest_y = [h for h in y if h[0] != own]
            n = min(len(rest_x), len(rest_y))
            marked_x = all(h[3] for h in x if h[0] == own)
            if any(h[3] for h in y if h[0] == own) and not marked_x:
                kind = "own mark removed"
            elif marked_x and rest_x[:n] == rest_y[:n] and \
                    not any(h[3] for h in rest_x + rest_y):
                kind = "own table marked (only)"
            else:
                kind = "other change"
            counts[v][kind] += 1
            changed.append((v, a["table"], a["column"], kind))
    return {"counts": counts, "changed": changed}


def marks(engine, queries: list) -> list:
    names = engine.index.tables["name"].tolist()
    out = []
    for table, column in queries:
        df = engine.table(table).head(20).copy()
        df.attrs = {}
        one = df[[column]]
        tid = [names.index(table)]
        out.append([[bool(engine.own_tables(f, tid, keys=[column])),
                     bool(engine.own_tables(f, tid))]
                    for f in (df, one, one.assign(**{f"{column}_added": 1}))])
    return out


def wide(engine, csv: str, column: str, rows: int, widths: list, repeats: int) -> list:
    df = pd.read_csv(csv).head(rows)
    out = []
    for w in widths:
        frame = df if w == 0 else df.iloc[:, :w]
        engine.search(frame, column, k=20, rank="useful")              # warm
        seconds, res = [], None
        for _ in range(repeats):
            t0 = time.perf_counter()
            res = engine.search(frame, column, k=20, rank="useful")
            seconds.append(time.perf_counter() - t0)
        marked = [h.table for h in res if h.is_query_table]
        out.append({"columns": frame.shape[1], "seconds": statistics.median(seconds),
                    "marked": marked})
        print(f"{frame.shape[1]} columns: {statistics.median(seconds):.2f} s "
              f"(runs {', '.join(f'{s:.2f}' for s in seconds)}), marked {marked}", flush=True)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="mode", required=True)
    for mode in ("rankings", "marks"):        # the same arguments, two measurements
        r = sub.add_parser(mode)
        r.add_argument("index")
        r.add_argument("--out", type=Path, required=True)
        r.add_argument("--queries", type=int, default=200)
        r.add_argument("--seed", type=int, default=0)
        r.add_argument("--compare", type=Path)
    w = sub.add_parser("wide")
    w.add_argument("index")
    w.add_argument("csv")
    w.add_argument("column")
    w.add_argument("--rows", type=int, default=20)
    w.add_argument("--widths", default="3,100,200,0")
    w.add_argument("--repeats", type=int, default=3)
    a = p.parse_args(argv)
    import lakejoin_jupyter as lj
    engine = lj.open_index(a.index)
    if a.mode == "wide":
        wide(engine, a.csv, a.column, a.rows, [int(x) for x in a.widths.split(",")], a.repeats)
        return 0
    if a.mode == "marks":
        got = marks(engine, sample(engine, a.queries, a.seed))
        a.out.write_text(json.dumps(got))
        if a.compare:
            old = json.loads(a.compare.read_text())
            for i, v in enumerate(VARIANTS):
                for j, search in enumerate(("join search", "union search")):
                    print(f"{v}, {search}: marked {sum(r[i][j] for r in old)} before, "
                          f"{sum(r[i][j] for r in got)} now; newly "
                          f"{sum(x[i][j] and not y[i][j] for x, y in zip(got, old))}, no longer "
                          f"{sum(y[i][j] and not x[i][j] for x, y in zip(got, old))}")
        return 0
    ranks = rankings(engine, sample(engine, a.queries, a.seed))
    a.out.write_text(json.dumps(ranks))
    if a.compare:
        got = compare(ranks, json.loads(a.compare.read_text()))
        for v, c in got["counts"].items():
            print(f"{v}: " + ", ".join(f"{k} {n}" for k, n in c.items()))
        for row in got["changed"]:
            print("  ", *row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
