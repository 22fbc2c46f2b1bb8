"""Index component "mate": MATE's single-value inverted index with row super keys (MATE §3,
§5.1, §5.3). Spark jobs over the build's cells:

1. XASH of every distinct token (the dictionary), in a pandas UDF on the executors;
2. cells -> (table id, row id, column id, token id, XASH words), one join on the token;
3. row super keys: ``groupBy(table, row).agg(bit_or(w0), bit_or(w1), ...)`` over the
   cells' XASH words (unsigned words travel as Spark longs, bit for bit);
4. finishing step (driver, vectorized numpy): the arrays of index/mate_arrays.py are
   written as .npy for memory mapping and the intermediate Parquet is removed.

Settings: ``BuildSettings.mate_bits`` (128 default, or 512); a generation of added tables
uses the base index's size. Built by default (``components=["-mate"]`` leaves it out).

Note:
    Super keys are stored per row, not per posting item (§7.1's space-efficient layout).
    Build cost and details: docs/algorithms/mate.md.
"""
from __future__ import annotations

import shutil
import time

import numpy as np
import pandas as pd
import pyarrow.dataset as pads

from ..index.mate_arrays import FILES
from ..xash import XashSpec, xash_words
from .component import Component


def _xash_batches(spec: XashSpec):
    def run(batches):
        for pdf in batches:
            words = xash_words(pdf["token"].tolist(), spec).view(np.int64)
            out = {"token_id": pdf["token_id"].astype("int32"), "token": pdf["token"]}
            for w in range(spec.words):
                out[f"w{w}"] = words[:, w]
            yield pd.DataFrame(out)
    return run


def build(ctx) -> dict:
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    t0 = time.time()
    bits = ctx.settings.mate_bits
    base = getattr(ctx, "base", None)          # adding tables: keep the base's XASH size
    if base is not None and base.generations[0].has("mate"):
        bits = int(base.generations[0].components["mate"]["xash"]["bits"])
    spec = XashSpec(bits=bits)
    spark, w, prog = ctx.spark, ctx.writer, ctx.progress
    words = [f"w{i}" for i in range(spec.words)]

    prog.step("MATE: XASH of every value")
    schema = "token_id int, token string, " + ", ".join(f"{c} long" for c in words)
    (ctx.dictionary.select("token_id", "token").mapInPandas(_xash_batches(spec), schema)
     .write.parquet(w.uri("mate/token_xash.parquet")))
    token_xash = spark.read.parquet(w.uri("mate/token_xash.parquet"))

    prog.step("MATE: row super keys")
    column_table = spark.createDataFrame(
        ctx.columns[["column_id", "table_id"]].astype("int32"), "column_id int, table_id int")
    cells = (ctx.cells.where(F.col("token").isNotNull())
             .join(token_xash, "token")
             .join(F.broadcast(column_table), "column_id")
             .select("table_id", "row_id", "column_id", "token_id", *words)
             .persist(StorageLevel.MEMORY_AND_DISK))
    try:
        (cells.groupBy("table_id", "row_id").agg(*[F.bit_or(c).alias(c) for c in words])
         .write.parquet(w.uri("mate/keys.parquet")))
        prog.step("MATE: postings and row store")
        (cells.select("table_id", "row_id", "column_id", "token_id")
         .write.parquet(w.uri("mate/cells.parquet")))
    finally:
        cells.unpersist()

    prog.step("MATE: writing arrays")
    counts = _finish(w, spec, ctx.n_tokens)
    for part in ("token_xash", "keys", "cells"):
        shutil.rmtree(w.path(f"mate/{part}.parquet"), ignore_errors=True)
    nbytes = sum(w.path(rel).stat().st_size for rel in FILES.values())
    return {"xash": spec.manifest(), **counts, "bytes": int(nbytes),
            "layout": "per-row super keys; value postings (row, column); row store",
            "seconds": round(time.time() - t0, 3)}


def _read(w, rel, columns):
    return pads.dataset(str(w.path(rel)), format="parquet").to_table(columns=columns)


def _finish(w, spec: XashSpec, n_tokens: int) -> dict:
    """The .npy arrays from the Parquet the Spark jobs wrote. Rows are numbered densely in
    (table id, row id) order: the rank of a cell's row among the sorted distinct rows."""
    words = [f"w{i}" for i in range(spec.words)]

    t = _read(w, "mate/token_xash.parquet", ["token_id"] + words)
    tid = t.column("token_id").to_numpy()
    token_xash = np.zeros((n_tokens, spec.words), dtype=np.uint64)
    for i, c in enumerate(words):
        token_xash[tid, i] = t.column(c).to_numpy().view(np.uint64)
    w.save_npy(FILES["token_xash"], token_xash)

    t = _read(w, "mate/keys.parquet", ["table_id", "row_id"] + words)
    key_table = t.column("table_id").to_numpy().astype(np.int32)
    key_row = t.column("row_id").to_numpy().astype(np.int64)
    order = np.lexsort((key_row, key_table))
    key_table, key_row = key_table[order], key_row[order]
    n_rows = len(order)
    superkeys = np.empty((n_rows, spec.words), dtype=np.uint64)
    for i, c in enumerate(words):
        superkeys[:, i] = t.column(c).to_numpy().view(np.uint64)[order]
    w.save_npy(FILES["superkeys"], superkeys)
    w.save_npy(FILES["row_table"], key_table)
    w.save_npy(FILES["row_ids"], key_row)
    del superkeys, t

    t = _read(w, "mate/cells.parquet", ["table_id", "row_id", "column_id", "token_id"])
    table = t.column("table_id").to_numpy().astype(np.int32)
    rid = t.column("row_id").to_numpy().astype(np.int64)
    col = t.column("column_id").to_numpy().astype(np.int32)
    tok = t.column("token_id").to_numpy().astype(np.int32)
    del t
    order = np.lexsort((col, rid, table))
    table, rid, col, tok = table[order], rid[order], col[order], tok[order]
    new_row = np.ones(len(rid), dtype=bool)
    new_row[1:] = (rid[1:] != rid[:-1]) | (table[1:] != table[:-1])
    row = np.cumsum(new_row) - 1
    if not (np.array_equal(table[new_row], key_table) and np.array_equal(rid[new_row], key_row)):
        raise RuntimeError("MATE cells and row super keys disagree on the rows (build bug)")
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(row, minlength=n_rows), out=indptr[1:])
    w.save_npy(FILES["row_indptr"], indptr)
    w.save_npy(FILES["row_columns"], col)
    w.save_npy(FILES["row_tokens"], tok)
    order = np.lexsort((col, row, tok))
    indptr = np.zeros(n_tokens + 1, dtype=np.int64)
    np.cumsum(np.bincount(tok, minlength=n_tokens), out=indptr[1:])
    w.save_npy(FILES["pl_indptr"], indptr)
    w.save_npy(FILES["pl_rows"], row[order].astype(np.int32 if n_rows < 2 ** 31 else np.int64))
    w.save_npy(FILES["pl_columns"], col[order])
    return {"rows": int(n_rows), "cells": int(len(row))}


COMPONENT = Component(
    name="mate", build=build, default=True,
    description="MATE multi-column join search: value postings with (table, column, row) "
                "items, XASH row super keys and a row store")
