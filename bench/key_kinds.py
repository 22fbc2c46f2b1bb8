"""The lake's columns by key kind, and the text columns read as categories.

    python bench/key_kinds.py INDEX [--ranks OUT.json [--compare OTHER.json]]

For every column of INDEX, its key kind as a hit on it would carry it
(``Engine.column_kind``); for the categories (join/preview.py ``key_kind``: a text
column with at least as many rows per value, on average, as it has values), their
distinct values and rows per value, and the largest of them by distinct values
(docs/algorithms/hits.md, "Key kind"). ``--ranks``: the top 10 by ``rank="useful"`` of
``--queries`` random columns of the index searched as queries (seed 0), written as JSON;
``--compare`` counts the queries whose tables, columns and usefulness equal another run's
(the same command under an older checkout) and the hits whose kind changed.
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lakejoin_jupyter.engine import open_index  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("index", type=Path)
    p.add_argument("--show", type=int, default=10, help="categories listed (most values first)")
    p.add_argument("--ranks", type=Path, help="write the top 10 of --queries random queries")
    p.add_argument("--queries", type=int, default=150)
    p.add_argument("--compare", type=Path, help="another run's --ranks file")
    args = p.parse_args()
    engine = open_index(args.index, check_lake=False)
    cat = engine._catalog
    names = engine.index.tables["name"].astype(str).tolist()
    kinds, cats = collections.Counter(), []
    for cid in range(len(cat.type)):
        kind = engine.column_kind(cid)[0]
        kinds[kind] += 1
        if kind == "category":
            n, keyed = int(cat.n_distinct[cid]), int(cat.keyed[cid])
            cats.append((n, keyed / n, names[cat.table_id[cid]], str(cat.name[cid])))
    print(f"columns: {sum(kinds.values())}; " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
    if cats:
        n = np.array([c[0] for c in cats])
        per = np.array([c[1] for c in cats])
        print(f"categories: distinct values p50 {np.median(n):.0f}, max {n.max()}; rows per value "
              f"p50 {np.median(per):.0f}, min {per.min():.1f}")
        for values, rows, table, column in sorted(cats, reverse=True)[:args.show]:
            print(f"  {table}.{column}: {values} values, {rows:,.0f} rows per value")
    if args.ranks:
        random.seed(0)
        ranks = []
        for cid in random.sample(range(len(cat.type)), args.queries):
            res = engine.search(names[cat.table_id[cid]], str(cat.name[cid]), k=10, rank="useful")
            ranks.append([[h.table, h.column, round(h.usefulness or 0.0, 9), h.key_kind]
                          for h in res])
        args.ranks.write_text(json.dumps(ranks))
        if args.compare:
            other = json.loads(args.compare.read_text())
            same = sum(1 for a, b in zip(ranks, other) if [h[:3] for h in a] == [h[:3] for h in b])
            kinds = sum(1 for a, b in zip(ranks, other) for x, y in zip(a, b) if x[3] != y[3])
            print(f"queries ranked alike (tables, columns, usefulness): {same} of {len(ranks)}; "
                  f"hits whose kind changed: {kinds} of {sum(map(len, ranks))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
