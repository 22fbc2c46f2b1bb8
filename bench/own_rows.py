"""What the own table's row check costs ("(your table)", engine.py ``rows_held``, which
``Engine._holds_rows`` runs on a lake table it has read): the engine's check, which
normalizes every distinct cell text at once (lake/normalize.py ``normalize_array``),
against the same check normalizing cell by cell (``normalize_text``, the reference below),
on the same inputs in one run, alternating; the two must give the same answer.

    python bench/own_rows.py real INDEX [--repeats 3] [--min-rows 1000] [--json OUT]
    python bench/own_rows.py synthetic [--rows 200000] [--repeats 3] [--json OUT]

``real``: every table of the index's lake with two or more columns and at least
``--min-rows`` rows, its frame as a user reads it (``Engine.table``) checked against the
lake table as the engine reads it (every column by its name: the table's own rows, True),
and the same frame with its first column's values reversed (rows that are no longer the
table's, mostly False). ``synthetic``: a lake table of ``--rows`` rows (an id, a category
written with case and space variants, a float, a date as text), the frame its rows read back
by pandas, and the same with one cell changed (False). Reading the lake table is not timed
(the engine reads it once either way).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def reference_rows_held(lake: pd.DataFrame, frame: pd.DataFrame, pairs: dict) -> bool:
    """The row check normalizing cell by cell (``normalize_text`` of each cell)."""
    from lakejoin_jupyter.index.union_profile import cell_texts
    from lakejoin_jupyter.lake.normalize import normalize_text
    in_frame = {str(c): c for c in frame.columns}

    def keyed(values: pd.Series, floats: bool, text: bool = False) -> list:
        if floats:
            if text:
                values = values.map(lambda t: None if t is None else normalize_text(str(t)))
            x = pd.to_numeric(values, errors="coerce")
            return [None if pd.isna(v) else f"{float(v):.12g}" for v in x]
        texts = cell_texts(values.to_numpy(dtype=object) if values.dtype == object
                           else values.to_numpy())
        return [None if t is None or (isinstance(t, float) and np.isnan(t))
                else normalize_text(str(t)) for t in texts]

    mine, theirs = [], []
    for name, col in pairs.items():
        v = frame[in_frame[name]]
        if v.dtype == object and v.map(lambda c: isinstance(c, (list, tuple, dict,
                                                                np.ndarray))).any():
            continue
        if col not in lake.columns:
            return True
        floats = v.dtype.kind == "f"
        mine.append(keyed(v, floats))
        theirs.append(keyed(lake[col], floats, text=True))
    if len(mine) < 2:
        return True
    rows = set(zip(*theirs))
    return all(r in rows for r in zip(*mine))


def time_pair(lake, frame, pairs, repeats: int) -> dict:
    from lakejoin_jupyter.engine import rows_held
    ms = {"vectorized": [], "cell by cell": []}
    answers = set()
    for _ in range(repeats):
        for name, f in (("vectorized", rows_held), ("cell by cell", reference_rows_held)):
            t0 = time.perf_counter()
            answers.add((name, f(lake, frame, pairs)))
            ms[name].append((time.perf_counter() - t0) * 1000)
    got = dict(answers)
    if len(answers) != 2 or got["vectorized"] != got["cell by cell"]:
        raise SystemExit(f"the two checks disagree: {sorted(answers)}")
    return {"answer": got["vectorized"], **{k: statistics.median(v) for k, v in ms.items()}}


def real(index: str, repeats: int, min_rows: int) -> list:
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.engine import index_table
    engine = open_index(index, check_lake=False)
    tables = engine.index.tables
    out = []
    for tid, name in zip(tables["table_id"], tables["name"]):
        try:
            lake = index_table(engine.index, int(tid))
            frame = engine.table(int(tid))
        except Exception as e:      # noqa: BLE001 - an unreadable table is reported, not timed
            print(f"skip {name}: {e}", file=sys.stderr)
            continue
        if len(lake) < min_rows or lake.shape[1] < 2 or not frame.columns.is_unique:
            continue
        pairs = {str(c): str(c) for c in frame.columns if str(c) in lake.columns}
        if len(pairs) < 2:
            continue
        first = frame.columns[0]
        other = frame.assign(**{str(first): frame[first].to_numpy()[::-1]})
        for case, f in (("own rows", frame), ("first column reversed", other)):
            out.append({"table": str(name), "rows": len(lake), "columns": len(pairs),
                        "case": case, **time_pair(lake, f, pairs, repeats)})
            print(out[-1], flush=True)
    return out


def synthetic(n: int, repeats: int) -> list:
    import io
    rng = np.random.default_rng(0)
    cats = np.array(["North", "north ", "SOUTH", "South  East", "west", "Côte d'Ivoire"])
    lake = pd.DataFrame({
        "id": [f"K{i:07d}" for i in range(n)],
        "region": cats[rng.integers(0, len(cats), n)],
        "amount": [repr(float(x)) for x in np.round(rng.normal(1e4, 3e3, n), 3)],
        "day": pd.Timestamp("2001-01-01") + pd.to_timedelta(rng.integers(0, 9000, n), "D"),
    }).astype({"day": str})
    frame = pd.read_csv(io.StringIO(lake.to_csv(index=False)))
    pairs = {c: c for c in lake.columns}
    changed = frame.copy()
    changed.loc[n // 2, "region"] = "Nowhere"
    out = []
    for case, f in (("own rows", frame), ("one cell changed", changed)):
        out.append({"table": f"synthetic {n:,} rows", "rows": n, "columns": 4, "case": case,
                    **time_pair(lake, f, pairs, repeats)})
        print(out[-1], flush=True)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["real", "synthetic"])
    p.add_argument("index", nargs="?")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--min-rows", type=int, default=1000)
    p.add_argument("--rows", type=int, default=200_000)
    p.add_argument("--json", type=Path)
    a = p.parse_args(argv)
    if a.what == "real" and not a.index:
        p.error("real needs INDEX")
    out = real(a.index, a.repeats, a.min_rows) if a.what == "real" else \
        synthetic(a.rows, a.repeats)
    vec = [r["vectorized"] for r in out]
    ref = [r["cell by cell"] for r in out]
    ratios = [r["vectorized"] / r["cell by cell"] for r in out]
    print(f"{len(out)} checks; ms total vectorized {sum(vec):.0f}, cell by cell {sum(ref):.0f}; "
          f"median ratio {statistics.median(ratios):.3f}; max ms {max(vec):.1f} / {max(ref):.1f}")
    if a.json:
        a.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
