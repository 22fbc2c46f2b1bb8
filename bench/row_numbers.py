"""Row-number columns in join search: the lake's columns read as row numbers, and the
rankings of random queries under both ranks, to compare two versions of the code.

    python bench/row_numbers.py INDEX --out OUT.json [--queries 200] [--k 10]
                                [--compare OTHER.json]

Lists the lake's columns whose kind (``Engine.column_kind``) carries the row-number
warning (join/preview.py ``counts_up``; docs/algorithms/hits.md, "Key kind"). Then
searches ``bench/hits.py``'s sample of query columns (seed 0: random columns with at least
10 distinct values), each read as its table's DataFrame (its own column left out:
``query_table``), top ``--k`` by ``rank="useful"`` and by the method's order, and writes
each hit's table, column, kind, warning and usefulness. ``--compare`` prints the queries whose order of (table, column) differs from
another run's (the same command under another checkout, run with its PYTHONPATH), each
with both orders. It uses only what every version of the engine has (``query_table``
where the engine takes it: hits.py's ``seed_left_out``).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

RANKS = ("useful", "overlap")


def rankings(index: str, n_queries: int, k: int) -> dict:
    from hits import sample_queries, seed_left_out
    from lakejoin_jupyter import open_index
    engine = open_index(index, check_lake=False)
    cat = engine._catalog
    names = engine.index.tables["name"].astype(str).tolist()
    row_numbers = []
    for cid in range(len(cat.type)):
        kind, warning = engine.column_kind(cid)
        if warning and "row number" in warning:
            row_numbers.append([names[cat.table_id[cid]], str(cat.name[cid]), warning])
    frames, out = {}, []
    for t, c in sample_queries(engine, n_queries):
        if t not in frames:
            frames[t] = engine.table(t)
        entry = {"q": [t, c]}
        for rank in RANKS:
            res = engine.search(frames[t], c, k=k, rank=rank, **seed_left_out(engine, t))
            entry[rank] = [[h.table, h.column, h.key_kind, h.key_warning,
                            round(h.usefulness or 0.0, 6)] for h in res]
        out.append(entry)
    return {"row_numbers": row_numbers, "queries": out}


def compare(now: dict, other: dict) -> None:
    print(f"row-number columns: {len(now['row_numbers'])} (other run: "
          f"{len(other['row_numbers'])})")
    for t, c, w in now["row_numbers"]:
        print(f"  {t}.{c}: {w}")
    for rank in RANKS:
        moved = [(a, b) for a, b in zip(now["queries"], other["queries"])
                 if [h[:2] for h in a[rank]] != [h[:2] for h in b[rank]]]
        flagged = sum(1 for a in now["queries"] for h in a[rank]
                      if h[3] and "row number" in h[3])
        print(f"\nrank={rank!r}: {len(moved)} of {len(now['queries'])} rankings differ; "
              f"hits with the row-number warning: {flagged}")
        for a, b in moved:
            print(f"  query {a['q'][0]}.{a['q'][1]}")
            for label, hits in (("other", b[rank]), ("this ", a[rank])):
                print(f"    {label}: " + "; ".join(
                    f"{h[0]}.{h[1]} {h[2]} {h[4]:.3f}" + (" [row number]" if h[3] and
                                                          "row number" in h[3] else "")
                    for h in hits))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("index")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--compare", type=Path, help="another run's --out file")
    a = p.parse_args(argv)
    now = rankings(a.index, a.queries, a.k)
    a.out.write_text(json.dumps(now))
    if a.compare:
        compare(now, json.loads(a.compare.read_text()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
