"""Integer columns read as numbers that pair with a category as a key of their table.

    python bench/key_partners.py INDEX

For every integer column of INDEX that the profile rules read as a *number*
(join/preview.py ``key_kind``), the engine's key-partner check (``Engine._key_partners``,
MATE's row store): how long it takes (once per column and engine) and which columns it
turns into identifiers, with their partners (docs/algorithms/hits.md, "Key kind").
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lakejoin_jupyter.engine import open_index  # noqa: E402
from lakejoin_jupyter.join import preview  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("index", type=Path)
    args = p.parse_args()
    engine = open_index(args.index, check_lake=False)
    cat = engine._catalog
    names = engine.index.tables["name"].astype(str).tolist()
    took, changed = [], []
    for cid in range(len(cat.type)):
        if cat.type[cid] != "integer":
            continue
        gen, local = engine.index.generation_of(cid)
        stats = gen.joinstats
        kind = preview.key_kind(cat.type[cid], cat.n_distinct[cid], cat.keyed[cid],
                                stats.shape(local) if stats is not None else None,
                                samples=() if stats is not None else cat.samples(cid))
        if kind[0] != "number":
            continue
        t0 = time.perf_counter()
        partners = engine._key_partners(cid)
        took.append((time.perf_counter() - t0) * 1000)
        now = engine.column_kind(cid)[0]
        if now != kind[0]:
            changed.append((names[cat.table_id[cid]], cat.name[cid],
                            [str(cat.name[c]) for c in partners], now))
    ms = np.array(took)
    print(f"integer columns read as numbers: {len(ms)}; the check: p50 {np.percentile(ms, 50):.2f} "
          f"ms, p90 {np.percentile(ms, 90):.2f} ms, max {ms.max():.1f} ms" if len(ms) else
          "no integer column read as a number")
    print(f"read as identifiers with a key partner: {len(changed)}")
    for table, column, partners, now in changed:
        print(f"  {table}.{column} with {', '.join(partners)} -> {now}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
