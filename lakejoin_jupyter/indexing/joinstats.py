"""Index component "joinstats": per-column row counts of every value, and the values' shape.

Two Spark aggregations over the build's cells: rows per (column, token), joined to the
dictionary's token ids; then per column the shape of its distinct tokens (how many look
like years or numbers, the numeric range, mean length in characters and words). The
tokens held by more than one row are written with their counts (Parquet, then CSR arrays
on the driver as the core's sets are); index/joinstats.py reads them and describes the
layout. A search uses them to say, before a join runs, how many rows it yields
(join/preview.py).
"""
from __future__ import annotations

import shutil

import numpy as np
import pyarrow.dataset as pads

from ..index.joinstats import COLUMNS_FILE, FILES, FOLDER, NUMBER, SHAPE_FIELDS, YEAR
from .component import Component


def token_rows(ctx):
    """Spark DF (column_id, token, n): rows of each column holding each token. A build
    context that offers the long form's per-text cell counts (``ctx.values``) is summed
    from those; otherwise the cells are counted."""
    from pyspark.sql import functions as F
    values = getattr(ctx, "values", None)
    if values is not None:
        return (values.where(F.col("token").isNotNull())
                .groupBy("column_id", "token").agg(F.sum("n").cast("long").alias("n")))
    return (ctx.cells.where(F.col("token").isNotNull())
            .groupBy("column_id", "token").agg(F.count("*").alias("n")))


def shapes(per_token):
    """Spark DF (column_id, SHAPE_FIELDS...) from (column_id, token, n)."""
    from pyspark.sql import functions as F
    tok = F.col("token")
    numeric = tok.rlike(NUMBER)
    return per_token.groupBy("column_id").agg(
        F.sum("n").cast("long").alias("keyed_rows"),
        F.max("n").cast("long").alias("max_count"),
        F.sum((F.col("n") > 1).cast("long")).alias("n_repeated"),
        F.sum(tok.rlike(YEAR).cast("long")).alias("n_year"),
        F.sum(numeric.cast("long")).alias("n_numeric"),
        F.min(F.when(numeric, tok.cast("double"))).alias("num_min"),
        F.max(F.when(numeric, tok.cast("double"))).alias("num_max"),
        F.avg(F.length(tok).cast("double")).alias("mean_len"),
        F.avg(F.size(F.split(tok, " ")).cast("double")).alias("mean_words"))


def finish_repeated(path, n_sets: int):
    """(indptr int64 [n_sets+1], token ids int32, counts int32): the repeated tokens per
    column, token ids ascending, from the Parquet (column_id, token_id, n)."""
    t = pads.dataset(str(path), format="parquet").to_table()
    cid = t.column("column_id").to_numpy().astype(np.int64)
    tid = t.column("token_id").to_numpy().astype(np.int32)
    cnt = t.column("n").to_numpy().astype(np.int32)
    order = np.lexsort((tid, cid))
    indptr = np.zeros(n_sets + 1, dtype=np.int64)
    np.cumsum(np.bincount(cid, minlength=n_sets), out=indptr[1:])
    return indptr, tid[order], cnt[order]


def build(ctx) -> dict:
    from pyspark.sql import functions as F
    w = ctx.writer
    ctx.progress.step("joinstats: rows per value")
    per_token = token_rows(ctx).persist()
    try:
        (per_token.where(F.col("n") > 1)
         .join(ctx.dictionary.select("token", "token_id"), "token")
         .select("column_id", "token_id", F.col("n").cast("int").alias("n"))
         .write.parquet(w.uri(f"{FOLDER}/repeated.parquet")))
        ctx.progress.step("joinstats: value shapes")
        shape = shapes(per_token).toPandas()
    finally:
        per_token.unpersist()
    indptr, toks, counts = finish_repeated(w.path(f"{FOLDER}/repeated.parquet"), ctx.n_sets)
    shutil.rmtree(w.path(f"{FOLDER}/repeated.parquet"), ignore_errors=True)
    for name, arr in zip(("dup_indptr", "dup_tokens", "dup_counts"), (indptr, toks, counts)):
        w.save_npy(FILES[name], arr)
    full = shape.set_index("column_id").reindex(range(ctx.n_sets))
    for f in SHAPE_FIELDS:
        if f not in ("num_min", "num_max", "mean_len", "mean_words"):
            full[f] = full[f].fillna(0).astype("int64")
    full["mean_len"] = full["mean_len"].fillna(0.0)
    full["mean_words"] = full["mean_words"].fillna(0.0)
    w.save_frame(COLUMNS_FILE, full.rename_axis("column_id").reset_index())
    return {"repeated_tokens": int(len(toks)),
            "columns_with_repeats": int(np.count_nonzero(np.diff(indptr))),
            "multiplicities": "exact: tokens in more than one row, with their row counts"}


COMPONENT = Component(
    name="joinstats", build=build, default=True,
    description="Join statistics: the row count of every repeated value and the shape of "
                "each column's values (exact join sizes, fan-out and key kinds before a join).")
