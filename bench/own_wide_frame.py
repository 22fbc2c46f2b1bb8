"""The own-table test ("(your table)", ``Engine.own_tables``) on a wide frame that is no
lake table: a lake table's key column beside columns of the user's own (random integers,
texts or floats no lake column holds), searched on the key (k = 3, warm), for each width;
the seconds of the search and how many times ``Engine._holds`` (a frame column against a
lake column) ran, with the hits' marks (none may be marked). Run it with the code to
compare on PYTHONPATH.

    python bench/own_wide_frame.py INDEX TABLE_FILE COLUMN [--widths 2,30,100,300]
                                   [--kinds int,text,float] [--rows 50]

``TABLE_FILE``: a lake file (CSV or Parquet) whose ``COLUMN`` is the key.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd


def frame(kind: str, key: pd.Series, width: int, rng) -> pd.DataFrame:
    n = len(key)
    cols = {f"c{i}": (rng.integers(0, 10**6, n) if kind == "int" else
                      [f"v{i}_{j}" for j in range(n)] if kind == "text" else
                      np.round(rng.random(n), 4)) for i in range(width - 1)}
    return pd.DataFrame({**cols, key.name: key.to_numpy()})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("index")
    ap.add_argument("table_file")
    ap.add_argument("column")
    ap.add_argument("--widths", default="2,30,100,300")
    ap.add_argument("--kinds", default="int,text,float")
    ap.add_argument("--rows", type=int, default=50)
    a = ap.parse_args()
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.engine import Engine
    engine = open_index(a.index)
    read = pd.read_parquet if a.table_file.endswith(".parquet") else pd.read_csv
    key = read(a.table_file)[a.column].head(a.rows)
    calls = [0]
    holds = Engine._holds

    def counted(self, *args, **kw):
        calls[0] += 1
        return holds(self, *args, **kw)

    Engine._holds = counted
    rng = np.random.default_rng(0)
    engine.search(frame("int", key, 2, rng), a.column, k=3)          # warm
    for kind in a.kinds.split(","):
        for width in (int(w) for w in a.widths.split(",")):
            f = frame(kind, key, width, rng)
            calls[0] = 0
            t0 = time.perf_counter()
            res = engine.search(f, a.column, k=3)
            took = time.perf_counter() - t0
            print(f"{kind:5} {width:4} columns: {took:7.2f} s, _holds calls {calls[0]:6}, "
                  f"marked {[h.table for h in res if h.is_query_table]}", flush=True)


if __name__ == "__main__":
    main()
