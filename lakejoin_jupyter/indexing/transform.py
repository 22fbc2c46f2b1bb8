"""Index component "transform": the columns' syntactic patterns, pattern keys and segment
q-grams, so a search finds columns joinable only after a transformation (thesis ch. 5,
searching transformation joins; search/segments.py defines what is indexed).

Spark jobs over the build's distinct (column, token) pairs:

1. the indexable columns (not float, boolean or empty) are kept by a broadcast join, and
   each token gets its dictionary id;
2. ``groupBy(column).applyInPandas``: per column (on the executors, numpy) its constant
   segments and affixes, every token's pattern keys, its distinct segment grams (short
   segments included) with the number of values holding each, and its pattern row; one
   output with a ``kind`` per row, persisted;
3. keys and grams are written as Parquet, the pattern rows (one per column) collected;
4. finishing step (driver, vectorized numpy, as indexing/postings.py): stop grams (held
   by more than the limit's columns) are dropped and the CSR arrays of
   index/transform_arrays.py written as .npy; the intermediate Parquet is removed.

Not built by default (``components=["transform"]``, CLI ``--with transform``, or added to
a built index: ``lakejoin index --add transform INDEX``); its build time and size on a
real lake are in docs/algorithms/transform_search.md.
"""
from __future__ import annotations

import shutil
import time

import numpy as np
import pandas as pd
import pyarrow.dataset as pads

from ..index.transform_arrays import (COLUMNS_FILE, FILES, SKIPPED_TYPES, TransformSpec,
                                      assemble, columns_frame)
from ..search.segments import column_entries
from ..spark import fetch_results
from .component import Component, integer_option

KEY, GRAM, PATTERN = 0, 1, 2
_SCHEMA = ("kind tinyint, column_id int, code long, token_id int, count long, "
           "pattern string, share double, constants array<string>")


def _per_column(spec: TransformSpec):
    def run(pdf: pd.DataFrame) -> pd.DataFrame:
        order = np.argsort(pdf["token"].to_numpy(dtype=object), kind="stable")
        tokens = pdf["token"].to_numpy(dtype=object)[order].tolist()
        ids = pdf["token_id"].to_numpy(dtype=np.int64)[order]
        cid = int(pdf["column_id"].iloc[0])
        (keys, ktoks), (gram, count), (pattern, share, consts, n) = column_entries(
            tokens, ids, spec)
        nk, ng = len(keys), len(gram)
        return pd.DataFrame({
            "kind": np.r_[np.full(nk, KEY), np.full(ng, GRAM), [PATTERN]].astype(np.int8),
            "column_id": np.full(nk + ng + 1, cid, dtype=np.int32),
            "code": np.r_[keys.view(np.int64), gram.view(np.int64), [0]].astype(np.int64),
            "token_id": np.r_[ktoks, np.full(ng + 1, -1)].astype(np.int32),
            "count": np.r_[np.zeros(nk, np.int64), count, [n]].astype(np.int64),
            "pattern": [None] * (nk + ng) + [pattern],
            "share": np.r_[np.zeros(nk + ng), [share]],
            "constants": [None] * (nk + ng) + [list(consts)]})
    return run


def build(ctx) -> dict:
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    t0 = time.time()
    opts = (ctx.settings.component_options or {}).get("transform", {})
    base = getattr(ctx, "base", None)     # adding tables or this component: keep its spec
    have = [g for g in base.generations if g.has("transform")] if base is not None else []
    if have:
        spec = TransformSpec.from_manifest(have[0].components["transform"]["spec"])
    else:
        spec = TransformSpec(**{k: int(v) for k, v in opts.items()})
    spark, w, prog = ctx.spark, ctx.writer, ctx.progress
    n_columns = int(ctx.n_sets)

    prog.step("transform: patterns, keys and grams per column")
    cols = ctx.columns[~ctx.columns["type"].isin(SKIPPED_TYPES)][["column_id"]].astype("int32")
    indexed = spark.createDataFrame(cols, "column_id int")
    out = (ctx.column_tokens.join(F.broadcast(indexed), "column_id")
           .join(ctx.dictionary.select("token_id", "token"), "token")
           .select("column_id", "token", "token_id")
           .groupBy("column_id").applyInPandas(_per_column(spec), _SCHEMA)
           .persist(StorageLevel.MEMORY_AND_DISK))
    try:
        prog.step("transform: writing keys")
        (out.where(F.col("kind") == KEY).select("code", "column_id", "token_id")
         .write.parquet(w.uri("transform/keys.parquet")))
        prog.step("transform: writing grams")
        (out.where(F.col("kind") == GRAM).select("code", "column_id", "count")
         .write.parquet(w.uri("transform/grams.parquet")))
        patterns = fetch_results(out.where(F.col("kind") == PATTERN)
                                 .select("column_id", "pattern", "share", "constants", "count")
                                 .toPandas, "collecting the columns' patterns")
    finally:
        out.unpersist()

    prog.step("transform: writing arrays")
    keys = _read(w, "transform/keys.parquet", ["code", "column_id", "token_id"])
    grams = _read(w, "transform/grams.parquet", ["code", "column_id", "count"])
    rows = list(zip(patterns["column_id"], patterns["pattern"], patterns["share"],
                    [list(c) if c is not None else [] for c in patterns["constants"]],
                    patterns["count"]))
    ti = assemble(keys["code"].view(np.uint64), keys["column_id"], keys["token_id"],
                  grams["code"].view(np.uint64), grams["column_id"], grams["count"],
                  columns_frame(rows), spec, n_columns)
    del keys, grams
    for name, rel in FILES.items():
        w.save_npy(rel, getattr(ti.arrays, name))
    w.save_frame(COLUMNS_FILE, ti.columns)
    for part in ("keys", "grams"):
        shutil.rmtree(w.path(f"transform/{part}.parquet"), ignore_errors=True)
    nbytes = sum(w.path(rel).stat().st_size for rel in FILES.values()) + \
        w.path(COLUMNS_FILE).stat().st_size
    a = ti.arrays
    return {"spec": spec.manifest(), "gram_limit": int(ti.gram_limit), "stop_grams": int(ti.stop_grams),
            "columns_indexed": int(len(ti.columns)), "keys": int(len(a.key_hashes)),
            "key_entries": int(len(a.key_columns)), "grams": int(len(a.gram_codes)),
            "gram_entries": int(len(a.gram_columns)), "bytes": int(nbytes),
            "seconds": round(time.time() - t0, 3)}


def _read(w, rel: str, columns: list) -> dict:
    t = pads.dataset(str(w.path(rel)), format="parquet").to_table(columns=columns)
    return {c: t.column(c).to_numpy() for c in columns}


def recorded_options(section: dict) -> dict:
    """The spec's fields as written (an index built before short grams and affixes existed
    has neither: a rebuild then adds them at their defaults)."""
    return {k: int(v) for k, v in section["spec"].items()}


COMPONENT = Component(
    name="transform", build=build, default=False, recorded_options=recorded_options,
    options={"q": integer_option(1), "max_gram_columns": integer_option(0),
             "max_value_bytes": integer_option(1), "short": integer_option(0),
             "affix": integer_option(0, 1)},
    description="Transformation-aware search: each column's syntactic pattern, pattern "
                "keys (segments in any order, constants and constant affixes left out) and "
                "segment q-grams (short segments whole)")
