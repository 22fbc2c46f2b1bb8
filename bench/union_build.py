"""The union component's build: over the long form's distinct texts (``ctx.values``, each
text once with its cell count; 64 columns a pandas UDF call; patterns of all ASCII texts at
once) against the build it replaced (over ``ctx.cells``, a join of the long form's cells
with its values, one UDF call per column, each value's pattern, number test and hash one by
one; kept below as the reference), in alternating builds of the same lake, same process,
same run.

    python bench/union_build.py LAKE --work /tmp/union_build --out REPORT.md [--pairs 1]

Each build is the union benchmark's (core without JOSIE / LSH Ensemble / MATE, plus union);
the union phase's seconds come from the build report. The two builds' union arrays must be
equal (checked), so the figure compares the same output.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
_NUMERIC = re.compile(r"-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:e[+-]?[0-9]+)?")


def _cells_profiles(spec, s):
    """The previous UDF: one pandas group per column holding every cell."""
    import mmh3

    from lakejoin_jupyter.embed import cached_embedder
    from lakejoin_jupyter.hashing import token_hash64
    from lakejoin_jupyter.index import union_profile as up

    def sample(tokens):
        toks = sorted(set(tokens))
        if len(toks) <= s:
            return toks
        h = token_hash64(toks).view(np.int64)
        return sorted(toks[i] for i in np.lexsort((np.arange(len(toks)), h))[:s])

    def run(pdf: pd.DataFrame) -> pd.DataFrame:
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        emb = cached_embedder(spec)
        cid = int(pdf["column_id"].iloc[0])
        values = sorted({v for v in pdf["value"].tolist() if v is not None and v.strip()})
        toks = [t for t in pdf["token"].tolist() if t is not None]
        x = np.asarray([float(t) for t in toks if _NUMERIC.fullmatch(t)], dtype=np.float64)
        share = len(x) / len(toks) if toks else 0.0
        q = (np.quantile(x, up.QUANTILES, method="inverted_cdf") if len(x)
             else np.full(len(up.QUANTILES), np.nan))
        counts = np.bincount(np.fromiter((mmh3.hash(up.value_pattern(v), signed=False)
                                          % up.FORMAT_DIMS for v in values), np.int64,
                                         len(values)), minlength=up.FORMAT_DIMS).astype(float)
        fmt = (counts / counts.sum() if counts.sum() else counts).astype(np.float32)
        vec = up.column_vectors(emb, [sample(toks)])[0]
        return pd.DataFrame({"column_id": [cid], "fmt": [fmt.tobytes()], "share": [float(share)],
                             "n_num": [len(x)], "q": [np.asarray(q, np.float64).tobytes()],
                             "vec": [vec.astype(np.float32).tobytes()]})
    return run


def cells_build(ctx):
    """The component's build with the previous profile job (over ctx.cells)."""
    from lakejoin_jupyter.indexing import union as U
    orig = U.profile_table

    def old(values, spec, s):
        return (ctx.cells.select("column_id", "value", "token").groupBy("column_id")
                .applyInPandas(_cells_profiles(spec, s),
                               "column_id int, fmt binary, share double, n_num long, "
                               "q binary, vec binary"))
    U.profile_table = old
    try:
        return U.build(ctx)
    finally:
        U.profile_table = orig


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lake", type=Path)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True,
                    help="Markdown report to write (the committed one: "
                         "bench/results/union_build.md)")
    ap.add_argument("--pairs", type=int, default=1)
    ap.add_argument("--master", default="local[2]")
    args = ap.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing import pipeline
    from lakejoin_jupyter.indexing.union import FILES
    args.work.mkdir(parents=True, exist_ok=True)
    new = pipeline.COMPONENTS["union"]
    variants = {"values (now)": new, "cells (before)": dataclasses.replace(new, build=cells_build)}
    rows, arrays = [], {}
    load = []
    for p in range(args.pairs):
        for name, comp in (list(variants.items()) if p % 2 == 0 else list(variants.items())[::-1]):
            pipeline.COMPONENTS["union"] = comp
            out = args.work / f"{name.split()[0]}.index"
            load.append(os.getloadavg()[0])
            t0 = time.time()
            rep = pipeline.build(args.lake, out, master=args.master, overwrite=True, progress=False,
                                 settings=BuildSettings(components=("-josie", "-mate", "-lshensemble",
                                                                    "union")))
            total = time.time() - t0
            pipeline.COMPONENTS["union"] = new
            rows.append({"variant": name, "pair": p, "build_s": total,
                         "union_s": rep.phase_seconds.get("union", float("nan"))})
            print(rows[-1], flush=True)
            arrays[name] = {f: np.load(out / f"union/{f}.npy") for f in FILES}
            n_cols = len(arrays[name]["numeric_share"])
    a, b = arrays.values()
    for f in FILES:
        np.testing.assert_array_equal(a[f], b[f], err_msg=f)
    df = pd.DataFrame(rows)
    med = df.groupby("variant")[["build_s", "union_s"]].median()
    now, before = med.loc["values (now)"], med.loc["cells (before)"]
    lines = [f"Command: `python bench/union_build.py {args.lake} --work {args.work} "
             f"--out {args.out} --pairs {args.pairs}`",
             "", f"Lake: {args.lake.name} ({n_cols} columns). Alternating builds in one process "
             f"(local[2]); load average (1 min) at the builds' starts: "
             f"{', '.join(f'{x:.1f}' for x in load)} on 2 cores. The union arrays of the two "
             "variants are equal.", "",
             "| variant | build s | union phase s | union share |", "|---|---|---|---|"]
    for name in variants:
        r = df[df.variant == name]
        lines.append(f"| {name} | {r.build_s.median():.0f} | {r.union_s.median():.0f} | "
                     f"{(r.union_s / r.build_s).median():.0%} |")
    lines += ["", f"Union phase now / before: {now.union_s / before.union_s:.2f}x.", ""]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
