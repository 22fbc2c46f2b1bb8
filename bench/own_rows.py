"""What the own table's row check costs ("(your table)", engine.py ``rows_held``, which
``Engine._holds_rows`` runs on a lake table it has read): the engine's check, which
normalizes a first column's cells, then the other columns' cells of the lake rows that agree
with a frame row on it only, the columns of one dtype at once, against the check it replaced,
which normalized every cell of each compared column (``every_cell_rows_held`` below), on the
same inputs in one run, alternating; the two must give the same answer (and, with
``--cell-by-cell``, the check normalizing cell by cell, ``reference_rows_held``, too).

    python bench/own_rows.py real INDEX [--repeats 3] [--min-rows 1000] [--json OUT]
    python bench/own_rows.py synthetic [--rows 200000] [--repeats 3] [--json OUT]
    python bench/own_rows.py wide [--rows 256] [--columns 300] [--repeats 3] [--json OUT]
    python bench/own_rows.py search INDEX TABLE.csv COLUMN [--rows 20] [--repeats 3] [--json OUT]

``real``: every table of the index's lake with two or more columns and at least
``--min-rows`` rows, its frame as a user reads it (``Engine.table``) checked against the
lake table as the engine reads it (every column by its name: the table's own rows, True),
its first 20 rows (True), and the frame with its first column's values reversed (rows that
are no longer the table's, mostly False). ``synthetic``: a lake table of ``--rows`` rows (an
id, a category written with case and space variants, a float, a date as text), the frame its
rows read back by pandas, and the same with one cell changed (False). ``wide``: a lake table
of an id and ``--columns`` float columns (some "-0.0" cells), its first 20 rows read back by
pandas, the same with one cell changed, and all its rows. Reading the lake table is not
timed (the engine reads it once either way). ``search``: the whole join search (k = 20,
``rank="useful"``, warm) of ``COLUMN`` of ``pd.read_csv(TABLE.csv).head(rows)``, a lake
table's head, with the engine's row check and with the one it replaced, alternating; the
hits and their marks must be the same.
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
            return [None if pd.isna(v) else f"{float(v) + 0.0:.12g}" for v in x]   # -0.0: 0
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


def every_cell_rows_held(lake: pd.DataFrame, frame: pd.DataFrame, pairs: dict) -> bool:
    """The row check the engine's replaced: every cell of each compared column normalized
    (each distinct text once, ``engine._cell_tokens``), one column at a time, the rows then
    compared as integer codes."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from lakejoin_jupyter.engine import _cell_tokens
    in_frame = {str(c): c for c in frame.columns}
    mine, theirs = [], []
    for name, col in pairs.items():
        v = frame[in_frame[name]]
        if v.dtype == object and pd.api.types.infer_dtype(v, skipna=True) != "string" and \
                v.map(lambda c: isinstance(c, (list, tuple, dict, np.ndarray))).any():
            continue
        if col not in lake.columns:
            return True
        floats = v.dtype.kind == "f"
        mine.append(_cell_tokens(v, floats))
        theirs.append(_cell_tokens(lake[col], floats, text=True))
    if len(mine) < 2:
        return True
    n = len(theirs[0])
    key = np.zeros(n + len(mine[0]), dtype=np.int64)
    for t, m in zip(theirs, mine):
        enc = pc.dictionary_encode(pa.concat_arrays([t, m]))
        codes = enc.indices.fill_null(-1).to_numpy().astype(np.int64)
        key = pd.factorize(key * (len(enc.dictionary) + 1) + (codes + 1))[0]
    return bool(np.isin(key[n:], key[:n]).all())


def time_pair(lake, frame, pairs, repeats: int, cell_by_cell: bool = False) -> dict:
    from lakejoin_jupyter.engine import rows_held
    checks = {"now": rows_held, "every cell": every_cell_rows_held}
    if cell_by_cell:
        checks["cell by cell"] = reference_rows_held
    ms = {name: [] for name in checks}
    answers = set()
    for _ in range(repeats):
        for name, f in checks.items():
            t0 = time.perf_counter()
            answers.add((name, f(lake, frame, pairs)))
            ms[name].append((time.perf_counter() - t0) * 1000)
    got = dict(answers)
    if len(answers) != len(checks) or len(set(got.values())) != 1:
        raise SystemExit(f"the checks disagree: {sorted(answers)}")
    return {"answer": got["now"], **{k: statistics.median(v) for k, v in ms.items()}}


def real(index: str, repeats: int, min_rows: int, cell_by_cell: bool) -> list:
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
        for case, f in (("own rows", frame), ("first 20 rows", frame.head(20)),
                        ("first column reversed", other)):
            out.append({"table": str(name), "rows": len(lake), "columns": len(pairs),
                        "case": case, **time_pair(lake, f, pairs, repeats, cell_by_cell)})
            print(out[-1], flush=True)
    return out


def synthetic(n: int, repeats: int, cell_by_cell: bool) -> list:
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
                    **time_pair(lake, f, pairs, repeats, cell_by_cell)})
        print(out[-1], flush=True)
    return out


def wide(n: int, width: int, repeats: int, cell_by_cell: bool) -> list:
    import io
    rng = np.random.default_rng(0)
    values = np.round(rng.normal(0, 40, (n, width)), 3)
    text = values.astype(str).astype(object)
    text[rng.random((n, width)) < 0.01] = "-0.0"
    text[rng.random((n, width)) < 0.05] = ""
    lake = pd.DataFrame({"ISO3": [f"C{i:04d}" for i in range(n)],
                         **{f"indicator_{j:03d}": text[:, j] for j in range(width)}})
    frame = pd.read_csv(io.StringIO(lake.to_csv(index=False)), keep_default_na=True)
    pairs = {c: c for c in lake.columns}
    head = frame.head(20)
    changed = head.copy()
    changed.iloc[7, width // 2] = 12345.5
    out = []
    for case, f in (("first 20 rows", head), ("first 20 rows, one cell changed", changed),
                    ("own rows", frame)):
        out.append({"table": f"wide {n} rows x {width + 1} columns", "rows": n,
                    "columns": width + 1, "case": case,
                    **time_pair(lake, f, pairs, repeats, cell_by_cell)})
        print(out[-1], flush=True)
    return out


def search(index: str, csv: str, column: str, rows: int, repeats: int) -> list:
    import lakejoin_jupyter.engine as engine_module
    from lakejoin_jupyter import open_index
    engine = open_index(index)
    frame = pd.read_csv(csv).head(rows)
    checks = {"now": engine_module.rows_held, "every cell": every_cell_rows_held}
    ms, seen = {name: [] for name in checks}, {}
    try:
        for i in range(repeats + 1):                   # the first round warms both
            for name, f in checks.items():
                engine_module.rows_held = f
                t0 = time.perf_counter()
                res = engine.search(frame, column, k=20, rank="useful")
                if i:
                    ms[name].append((time.perf_counter() - t0) * 1000)
                seen[name] = [(h.table, h.columns, h.is_query_table) for h in res]
    finally:
        engine_module.rows_held = checks["now"]
    if seen["now"] != seen["every cell"]:
        raise SystemExit(f"the hits differ: {seen}")
    marked = [t for t, _, own in seen["now"] if own]
    out = [{"table": Path(csv).name, "rows": rows, "columns": frame.shape[1],
            "case": f"search of {column}, marked {marked}",
            **{k: statistics.median(v) for k, v in ms.items()}}]
    print(out[-1], flush=True)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["real", "synthetic", "wide", "search"])
    p.add_argument("index", nargs="?")
    p.add_argument("csv", nargs="?")
    p.add_argument("column", nargs="?")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--min-rows", type=int, default=1000)
    p.add_argument("--rows", type=int)
    p.add_argument("--columns", type=int, default=300)
    p.add_argument("--cell-by-cell", action="store_true",
                   help="also time the check cell by cell (slow on large tables)")
    p.add_argument("--json", type=Path)
    a = p.parse_args(argv)
    if a.what in ("real", "search") and not a.index:
        p.error(f"{a.what} needs INDEX")
    if a.what == "search" and not (a.csv and a.column):
        p.error("search needs INDEX TABLE.csv COLUMN")
    if a.what == "search":
        out = search(a.index, a.csv, a.column, a.rows or 20, a.repeats)
    elif a.what == "real":
        out = real(a.index, a.repeats, a.min_rows, a.cell_by_cell)
    elif a.what == "synthetic":
        out = synthetic(a.rows or 200_000, a.repeats, a.cell_by_cell)
    else:
        out = wide(a.rows or 256, a.columns, a.repeats, a.cell_by_cell)
    now = [r["now"] for r in out]
    before = [r["every cell"] for r in out]
    ratios = [r["now"] / r["every cell"] for r in out]
    print(f"{len(out)} checks; ms total now {sum(now):.0f}, every cell {sum(before):.0f}; "
          f"median ratio {statistics.median(ratios):.3f}; max ms {max(now):.1f} / "
          f"{max(before):.1f}")
    if a.json:
        a.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
