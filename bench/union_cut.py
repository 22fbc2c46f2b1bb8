"""How often "(your table)" is right: the own-table rule (engine.py ``Engine.own_tables``)
over a range of CUT_SHARE, on cuts of real lake tables and on frames that are no cut.

    python bench/union_cut.py --lakes LAKES --work /tmp/union_cut --out REPORT.md

The lake's readable tables (pandas' defaults, >= 2 columns, >= 20 rows, no unnamed or
duplicate column) are shuffled with a fixed seed; HOLDOUT of them are the users' own data,
left out of the copy of the lake that is indexed (core components), the others stay. Both
kinds are split into a development and a validation half.

* Cuts (the answer is their table T, an indexed one): a random subset of T's columns (one
  column; two or more, when T has three or more) of a random sample of ROW_SHARES of its rows.
* No cut (the answer is no table): frames of a held-out table A's rows: for an indexed table
  B sharing a column name with A (not a copy of A: another header), A's rows whose value in
  that column is one of B's (one column, or every column name A and B share, each value in
  B's), then a sample of ROW_SHARES of them. They hold B's values under B's names, the case
  a rule of values alone confuses.

Every table of the lake searched is a candidate (the searches ask only about their hits: a
harder test). CUT_SHARE decides one-column frames of wider tables only; it is chosen on the
development half (the best balanced accuracy on one-column queries, the mean of the right
share of cuts and of no-cuts; a tie goes to the value nearest the current one) and the
validation half is run once with it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from union import read_csv  # noqa: E402  (the union benchmark's reader of lake CSVs)

SEED = 20261129
ROW_SHARES = (0.05, 0.2, 0.5, 0.8, 1.0)
SHARES = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
PARTNERS = 3            # tables B per table A for the no-cut frames
HOLDOUT = 0.3           # share of the usable tables held out as the users' own data
MAX_ROWS = 200_000




def usable(lake: Path) -> dict:
    """{relative path: frame} of the usable tables (read as a user reads them)."""
    out = {}
    for p in sorted(lake.rglob("*.csv")):
        df = read_csv(p)
        if df is None or df.shape[1] < 2 or not 20 <= len(df) <= MAX_ROWS:
            continue
        if df.columns.duplicated().any() or any(str(c).startswith("Unnamed") for c in df.columns):
            continue
        df.columns = [str(c) for c in df.columns]
        out[p.relative_to(lake).as_posix()] = df
    return out


def column_set(engine, table_id: int, name: str) -> set:
    cat = engine._catalog
    cid = dict(zip(cat.table_columns(table_id), cat.table_column_ids(table_id)))[name]
    gen, local = engine.index.generation_of(int(cid))
    return set(gen.token_text(gen.arrays.set_tokens(local)))


def sample(df, share, rng):
    n = max(1, int(round(share * len(df))))
    return df.iloc[np.sort(rng.choice(len(df), size=n, replace=False))]


def make_queries(engine, tables: dict, ids: list, held_out: list, rng) -> list:
    """(kind "cut" | "none", frame, answer table id or None, excluded table ids, share):
    cuts of the indexed tables ``ids`` ({id: frame} ``tables``), no-cuts of the held-out
    frames ``held_out``."""
    from lakejoin_jupyter.join.keys import normalized_keys
    cat = engine._catalog
    all_headers = {int(t): frozenset(cat.table_columns(int(t)))
                   for t in engine.index.tables["table_id"]}
    out = []
    for t in ids:
        df = tables[t]
        useful = [c for c in df.columns if df[c].nunique(dropna=True) >= 2]
        if not useful:
            continue
        for share in ROW_SHARES:
            rows = sample(df, share, rng)
            one = [useful[int(rng.integers(len(useful)))]]
            out.append(("cut", rows[one], t, set(), share))
            if df.shape[1] >= 3:
                m = int(rng.integers(2, df.shape[1] + 1))
                cols = [df.columns[i] for i in rng.permutation(df.shape[1])[:m]]
                out.append(("cut", rows[cols], t, set(), share))
    for df in held_out:          # no cut: the user's own table A, its rows holding B's values
        mine = frozenset(df.columns)
        gone = {u for u, h in all_headers.items() if h == mine}      # copies of A: left out
        partners = [u for u, h in all_headers.items() if u not in gone and h & mine]
        rng.shuffle(partners)
        made = 0
        for b in partners:
            if made >= PARTNERS:
                break
            keep = {}
            for c in sorted(all_headers[b] & mine):
                held = column_set(engine, b, c)
                keep[c] = normalized_keys(df[c]).map(lambda k: k is not None and k in held) \
                    .to_numpy(dtype=bool)
            usable_cols = [c for c in keep if keep[c].sum() >= 2]
            if not usable_cols:
                continue
            made += 1
            c = usable_cols[int(rng.integers(len(usable_cols)))]
            variants = [[c]] + ([usable_cols] if len(usable_cols) >= 2 else [])
            for cols in variants:
                mask = np.logical_and.reduce([keep[x] | df[x].isna().to_numpy() for x in cols])
                mask &= df[cols].notna().any(axis=1).to_numpy()
                rows = df.loc[mask, cols]
                if rows[cols[0]].nunique() < 2:
                    continue
                for share in ROW_SHARES:
                    out.append(("none", sample(rows, share, rng), None, gone, share))
    return out


def judge(engine, queries: list, all_ids: set) -> list:
    """Each query's outcome: "right", "missed" (a cut with no table marked) or "wrong"."""
    out = []
    for kind, frame, answer, gone, _ in queries:
        got = engine.own_tables(frame, all_ids - gone)
        if kind == "cut":
            out.append("right" if got == {answer} else "missed" if not got else "wrong")
        else:
            out.append("right" if not got else "wrong")
    return out


def summary(queries: list, outcomes: list) -> dict:
    r = {}
    for width, pick in (("one", lambda f: f.shape[1] == 1), ("several", lambda f: f.shape[1] > 1)):
        for kind in ("cut", "none"):
            o = [x for q, x in zip(queries, outcomes) if q[0] == kind and pick(q[1])]
            r[(width, kind, "n")] = len(o)
            for what in ("right", "missed", "wrong"):
                r[(width, kind, what)] = (sum(x == what for x in o) / len(o)) if o else float("nan")
        r[(width, "balanced")] = (r[(width, "cut", "right")] + r[(width, "none", "right")]) / 2
    return r


def by_share(queries: list, outcomes: list, kind: str) -> dict:
    """One-column queries of ``kind``: right share per row share."""
    out = {}
    for s in ROW_SHARES:
        o = [x for q, x in zip(queries, outcomes) if q[0] == kind and q[1].shape[1] == 1 and q[4] == s]
        out[s] = (sum(x == "right" for x in o) / len(o)) if o else float("nan")
    return out


def memoize(engine, eng) -> None:
    """The rule's value work (a frame column's tokens, a lake column holding them) done once
    per query, not once per CUT_SHARE: the grid reruns the real rule, only faster."""
    holds, tokens = engine._holds, eng._frame_tokens
    held, made = {}, {}

    def _holds(cid, toks, floats=False, ids=None):
        key = (int(cid), tuple(toks), bool(floats))
        if key not in held:
            held[key] = holds(cid, toks, floats, ids)
        return held[key]

    def _tokens(values):
        key = (str(values.name), len(values), str(values.dtype),
               int(pd.util.hash_pandas_object(values, index=False).sum()))
        if key not in made:
            made[key] = tokens(values)
        return made[key]

    engine._holds = _holds
    eng._frame_tokens = _tokens


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lakes", required=True, type=Path, help="the lake folder")
    ap.add_argument("--work", required=True, type=Path, help="scratch folder (the index)")
    ap.add_argument("--out", required=True, type=Path,
                    help="Markdown report to write (the committed one: bench/results/union_cut.md)")
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--master", default="local[2]")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    import lakejoin_jupyter.engine as eng
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    args.work.mkdir(parents=True, exist_ok=True)
    idx, lake = args.work / "lake.index", args.work / "lake"
    files = usable(args.lakes)
    rng = np.random.default_rng(SEED)
    order = [sorted(files)[i] for i in rng.permutation(len(files))]
    n_out = int(round(HOLDOUT * len(order)))
    held_out, indexed = order[:n_out], order[n_out:]
    if args.rebuild or not idx.exists():
        if lake.exists():
            shutil.rmtree(lake)
        shutil.copytree(args.lakes, lake, ignore=lambda d, names: [
            n for n in names if (Path(d) / n).relative_to(args.lakes).as_posix() in held_out])
        build(lake, idx, master=args.master, overwrite=True, progress=False,
              settings=BuildSettings(components=("-josie", "-mate", "-lshensemble")))
    engine = open_index(idx, verify=False)
    memoize(engine, eng)
    t = engine.index.tables
    id_of = dict(zip(t["path"], t["table_id"]))
    tables = {int(id_of[p]): files[p] for p in indexed if p in id_of}
    ids = [int(id_of[p]) for p in indexed if p in id_of]
    half, half_out = len(ids) // 2, len(held_out) // 2
    dev_ids, val_ids = sorted(ids[:half]), sorted(ids[half:])
    all_ids = {int(x) for x in t["table_id"]}
    dev = make_queries(engine, tables, dev_ids, [files[p] for p in held_out[:half_out]],
                       np.random.default_rng(SEED + 1))
    val = make_queries(engine, tables, val_ids, [files[p] for p in held_out[half_out:]],
                       np.random.default_rng(SEED + 2))
    print(f"{len(tables)} indexed tables, {len(held_out)} held out; {len(dev)} development "
          f"and {len(val)} validation queries", flush=True)
    current = eng.CUT_SHARE
    grid = {}
    t0 = time.perf_counter()
    for s in SHARES:
        eng.CUT_SHARE = s
        out = judge(engine, dev, all_ids)
        grid[s] = (summary(dev, out), by_share(dev, out, "cut"), by_share(dev, out, "none"))
        r = grid[s][0]
        print(f"dev CUT_SHARE {s}: one-column balanced {r[('one', 'balanced')]:.3f} "
              f"(cuts right {r[('one', 'cut', 'right')]:.3f}, no-cuts right "
              f"{r[('one', 'none', 'right')]:.3f}); several {r[('several', 'balanced')]:.3f}",
              flush=True)
    dev_s = time.perf_counter() - t0
    best = max(SHARES, key=lambda s: (round(grid[s][0][("one", "balanced")], 9),
                                      -abs(s - current)))
    eng.CUT_SHARE = best
    out = judge(engine, val, all_ids)
    v = (summary(val, out), by_share(val, out, "cut"), by_share(val, out, "none"))
    eng.CUT_SHARE = current
    print("validation at", best, {k: round(x, 3) for k, x in v[0].items()
                                  if not isinstance(x, int)})
    write(args, grid, v, best, current, (len(tables), len(held_out)), len(dev_ids),
          len(val_ids), dev, val, dev_s)


def write(args, grid, v, best, current, n_tables, n_dev, n_val, dev, val, dev_s) -> None:
    def row(label, r):
        return (f"| {label} | {r[('one', 'cut', 'right')]:.3f} | {r[('one', 'cut', 'missed')]:.3f} | "
                f"{r[('one', 'cut', 'wrong')]:.3f} | {r[('one', 'none', 'wrong')]:.3f} | "
                f"{r[('one', 'balanced')]:.3f} | {r[('several', 'cut', 'right')]:.3f} | "
                f"{r[('several', 'none', 'wrong')]:.3f} |")

    head = ["| CUT_SHARE | 1 col: cuts right | cuts missed | cuts wrong table | no-cuts marked "
            "| balanced | 2+ cols: cuts right | no-cuts marked |", "|" + "---|" * 8]

    def counts(qs):
        n = {(w, k): 0 for w in ("one", "several") for k in ("cut", "none")}
        for kind, f, *_ in qs:
            n[("one" if f.shape[1] == 1 else "several", kind)] += 1
        return (f"{n[('one', 'cut')]} one-column cuts, {n[('one', 'none')]} one-column "
                f"no-cuts, {n[('several', 'cut')]} cuts and {n[('several', 'none')]} no-cuts "
                "of two or more columns")

    lines = [f"Command: `python bench/union_cut.py --lakes {args.lakes} --work {args.work} "
             f"--out {args.out}`", "",
             f"The own-table rule (`Engine.own_tables`, join and union search) on the "
             f"FiveThirtyEight + reference lake: {n_tables[0]} usable tables indexed "
             f"({n_dev} development / {n_val} validation, fixed seed), {n_tables[1]} held out "
             f"as users' own data. Development: {counts(dev)}; validation: "
             f"{counts(val)}. Row samples of {', '.join(f'{s:.0%}' for s in ROW_SHARES)} of "
             "the rows. Every lake table is a candidate. \"no-cuts marked\": a frame of the "
             "user's own data (a held-out table) marked as a lake table's.", "",
             f"### Development (CUT_SHARE chosen here: {best}; it was {current})", ""] + head
    lines += [row(f"{s}" + (" (chosen)" if s == best else ""), grid[s][0]) for s in grid]
    lines += ["", "One-column queries, right share by row sample (development):", "",
              "| CUT_SHARE | " + " | ".join(f"cuts {s:.0%}" for s in ROW_SHARES) + " | "
              + " | ".join(f"no-cuts {s:.0%}" for s in ROW_SHARES) + " |",
              "|" + "---|" * (1 + 2 * len(ROW_SHARES))]
    for s, (_, c, n) in grid.items():
        lines.append(f"| {s} | " + " | ".join(f"{c[x]:.3f}" for x in ROW_SHARES) + " | "
                     + " | ".join(f"{n[x]:.3f}" for x in ROW_SHARES) + " |")
    lines += ["", f"### Validation (run once, CUT_SHARE {best})", ""] + head + [
        row(f"{best}", v[0]), "", "One-column queries, right share by row sample (validation):",
        "", "| " + " | ".join(f"cuts {s:.0%}" for s in ROW_SHARES) + " | "
        + " | ".join(f"no-cuts {s:.0%}" for s in ROW_SHARES) + " |",
        "|" + "---|" * (2 * len(ROW_SHARES)),
        "| " + " | ".join(f"{v[1][x]:.3f}" for x in ROW_SHARES) + " | "
        + " | ".join(f"{v[2][x]:.3f}" for x in ROW_SHARES) + " |", "",
        f"The development grid took {dev_s:.0f} s on a shared machine ({len(grid)} values)."]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
