"""Spark job: read every table of the lake once into the build's long form.

One job over batches of files (contiguous table ids, balanced by bytes; one task each):
a task reads its tables with lake/read.py ``read_columns`` (sniff and parse in one pass),
normalizes every distinct cell text once (lake/normalize.py ``normalize_array``) and
derives what needs nothing but the column: its profile (indexing/profile.py) and its
MinHash signature (hashing.py). It writes its share of the long form with pyarrow, in
chunks of tables (``LongForm``), and returns each table's TableInfo to the driver:

    values/   one row per distinct raw text of a column: (table_id, position, rcode,
              value, token, n, hash64); rcode numbers the column's texts 0..n_raw-1,
              token is null for a text without a key, n counts its cells
    cells/    one row per non-null cell, in (table, row, position) order:
              (table_id, row_id, position, rcode); a list column's cells are its
              elements (lake/read.py), each in its row: every component sees elements
    columns/  one row per column: (table_id, position, n_raw, n_filled: rows with a value,
              profile fields, signature, and with the join statistics their value-shape
              fields)
    repeated/ with the join statistics (indexing/joinstats.py): one row per (column, token)
              held by more than one row: (table_id, position, rcode of the column's first
              raw text of the token, token, n rows)

Part files are named by (batch, chunk), so reading them in name order is table order.
Spark catalog tables are read by one task each (the table coalesced into one partition,
each column cast to text by Spark) and go through the same per-batch code.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..hashing import minhash_signatures, token_hash32, token_hash64
from ..lake import read as lakeread
from ..lake.discover import LakeSpec, file_digest
from ..lake.normalize import render_value, normalize_array
from ..spark import fetch_results, instant_column, release_memory, utc_instants
from . import joinstats as joinstats_job
from . import profile as profile_job

CHUNK_CELLS = 4_000_000          # cells held in memory at once by a read task
BATCH_BYTES = 256 << 20          # about this many file bytes per read task


# Spark schemas of the long form's files (as long_form_of writes them), so that reading them
# needs no schema-inference job; columns: the fields the Spark views read
SPARK_SCHEMAS = {
    "values": "table_id int, position int, rcode int, value string, token string, n long, "
              "hash64 long",
    "cells": "table_id int, row_id long, position int, rcode int",
    "columns": "table_id int, position int, signature binary",
}


@dataclass(frozen=True)
class LongForm:
    """Where a build's long form lives (a scratch folder inside the index being written)."""
    root: str

    def part(self, kind: str, batch: int, chunk: int) -> Path:
        d = Path(self.root) / kind
        d.mkdir(parents=True, exist_ok=True)
        return d / f"part-{batch:05d}-{chunk:05d}.parquet"

    def files(self, kind: str) -> list[str]:
        d = Path(self.root) / kind
        return sorted(str(p) for p in d.glob("part-*.parquet")) if d.exists() else []

    def uri(self, kind: str) -> str:
        return (Path(self.root) / kind).as_uri()

    def spark_frame(self, spark, kind: str):
        """The ``kind`` files as a Spark DataFrame with their known schema."""
        return spark.read.schema(SPARK_SCHEMAS[kind]).parquet(self.uri(kind))


# --------------------------------------------------------------------------- one batch

def long_form_of(tables, num_perm: int, seed: int, n_samples: int,
                 join_stats: bool = False) -> dict:
    """The long form of a few read tables: {"values", "cells", "columns"} Arrow tables, and
    "repeated" with ``join_stats`` (the columns then carry the value-shape fields too).

    ``tables``: [(table_id, [Arrow string array per column], row ids or None)]; row ids
    default to 0..n_rows-1. A list<string> array is a list column (lake/read.py): its
    elements are its cells, each in its row, so its values, tokens and counts are elements'."""
    import pyarrow as pa
    import pyarrow.compute as pc

    col_table, col_pos, cols, parents = [], [], [], []
    for table_id, table_cols, _ in tables:
        for j, c in enumerate(table_cols):
            col_table.append(table_id)
            col_pos.append(j)
            c = c.combine_chunks() if isinstance(c, pa.ChunkedArray) else c
            if pa.types.is_list(c.type):     # a list column: its cells are its elements
                parents.append(pc.list_parent_indices(c).to_numpy())
                c = pc.list_flatten(c)
            else:
                parents.append(None)
            cols.append(c)
    nc = len(cols)
    lengths = np.array([len(c) for c in cols], dtype=np.int64)
    n_values = np.array([len(c) - c.null_count for c in cols], dtype=np.int64)
    # rows with a value: a list column's rows with some non-null element
    n_filled = np.array([n if p is None else len(np.unique(
        p[np.asarray(c.is_valid().to_numpy(zero_copy_only=False), dtype=bool)]))
        for n, p, c in zip(n_values, parents, cols)], dtype=np.int64)
    cells = pa.concat_arrays([c.cast(pa.large_string()) for c in cols]) if nc else \
        pa.array([], pa.large_string())
    # distinct texts of the chunk (one hash pass), then each column's distinct texts: its
    # raw values r, numbered rcode 0.. within the column
    enc = pc.dictionary_encode(cells)
    texts = enc.dictionary
    code = enc.indices.fill_null(-1).to_numpy()
    cell_col = np.repeat(np.arange(nc, dtype=np.int64), lengths)
    valid = code >= 0
    width = max(len(texts), 1)
    # distinct (column, text) keys by Arrow's hash, then sorted (few, against the cells)
    kenc = pc.dictionary_encode(pa.array(cell_col[valid] * width + code[valid]))
    first_seen = kenc.dictionary.to_numpy()
    order = np.argsort(first_seen)
    keys = first_seen[order]
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    inverse = rank[kenc.indices.to_numpy()]
    raw_col, raw_code = keys // width, keys % width
    n_raw = np.bincount(raw_col, minlength=nc).astype(np.int64)
    raw_ptr = np.zeros(nc + 1, dtype=np.int64)
    np.cumsum(n_raw, out=raw_ptr[1:])
    raw_n = np.bincount(inverse, minlength=len(keys)).astype(np.int64)
    raw_text = texts.take(pa.array(raw_code)).cast(pa.string())
    cell_rcode = np.full(len(code), -1, dtype=np.int32)
    cell_rcode[valid] = inverse - raw_ptr[cell_col[valid]]

    # tokens: each distinct text of the chunk normalized once; tokens numbered in the chunk
    text_token = normalize_array(texts)
    enc = pc.dictionary_encode(text_token)
    tokens = enc.dictionary
    raw_tok = enc.indices.fill_null(-1).to_numpy().astype(np.int64)[raw_code]
    raw_token = text_token.take(pa.array(raw_code)).cast(pa.string())
    keyed = raw_tok >= 0
    nt = len(tokens)
    pair_key = np.sort(raw_col[keyed] * max(nt, 1) + raw_tok[keyed])
    pair_key = pair_key[np.r_[True, pair_key[1:] != pair_key[:-1]]] if len(pair_key) else pair_key
    pair_col, pair_tok = pair_key // max(nt, 1), pair_key % max(nt, 1)
    pair_ptr = np.zeros(nc + 1, dtype=np.int64)
    np.cumsum(np.bincount(pair_col, minlength=nc), out=pair_ptr[1:])
    token_list = tokens.to_pylist()
    h64 = token_hash64(token_list)
    h32 = token_hash32(token_list)

    batch = profile_job.ColumnBatch(
        n_columns=nc, raw_col=raw_col, raw_text=raw_text, raw_n=raw_n, raw_tok=raw_tok,
        tokens=tokens, pair_col=pair_col, pair_tok=pair_tok, pair_ptr=pair_ptr,
        n_values=n_values)
    prof = profile_job.profile_columns(batch, n_samples)
    sig = minhash_signatures(h32[pair_tok], pair_ptr, num_perm, seed)

    rcode = np.arange(len(raw_col), dtype=np.int64) - raw_ptr[raw_col]
    col_table = np.asarray(col_table, dtype=np.int32)
    col_pos = np.asarray(col_pos, dtype=np.int32)
    out = {}
    shapes = {}
    if join_stats:
        shapes, rep = joinstats_job.batch_stats(batch, rcode)
        out["repeated"] = pa.table({
            "table_id": pa.array(col_table[rep["column"]]),
            "position": pa.array(col_pos[rep["column"]]),
            "rcode": pa.array(rep["rcode"].astype(np.int32)),
            "token": tokens.take(pa.array(rep["token"], pa.int64())).cast(pa.string()),
            "n": pa.array(rep["n"].astype(np.int64))})
    values = pa.table({
        "table_id": pa.array(col_table[raw_col]),
        "position": pa.array(col_pos[raw_col]),
        "rcode": pa.array(rcode.astype(np.int32)),
        "value": raw_text,
        "token": raw_token,
        "n": pa.array(raw_n),
        "hash64": pa.array(h64.view(np.int64)[np.maximum(raw_tok, 0)] if nt else
                           np.zeros(len(raw_tok), np.int64), mask=~keyed)})
    columns = pa.table({
        "table_id": pa.array(col_table),
        "position": pa.array(col_pos),
        "n_raw": pa.array(n_raw),
        "n_filled": pa.array(n_filled),
        **{f: pa.array(prof[f]) for f in profile_job.FIELDS},
        "signature": pa.array([row.tobytes() for row in sig.astype("<u4")], pa.binary()),
        **{f: pa.array(a) for f, a in shapes.items()},
    })
    return {"values": values, "cells": _cells(tables, cell_rcode, lengths, parents),
            "columns": columns, **out}


def _cells(tables, cell_rcode: np.ndarray, lengths: np.ndarray, parents: list):
    """Non-null cells in (table, row, position) order; ``cell_rcode`` holds every cell of
    the chunk column after column (-1: null); ``parents[c]``: the row of each element of
    a list column c (None: not one), whose elements are cells of their row, in list order."""
    import pyarrow as pa

    parts = []
    at = c = 0
    for table_id, cols, row_ids in tables:
        m = len(cols)
        n = len(cols[0]) if m else 0
        if any(p is not None for p in parents[c:c + m]):
            parts.append(_list_cells(table_id, cell_rcode, lengths, parents, at, c, m, n,
                                     row_ids))
            at, c = at + int(lengths[c:c + m].sum()), c + m
            continue
        codes = cell_rcode[at:at + n * m].reshape(m, n).T.ravel()     # row-major
        at, c = at + n * m, c + m
        keep = codes >= 0
        rows = np.repeat(np.arange(n, dtype=np.int64) if row_ids is None else row_ids, m)
        parts.append(pa.table({
            "table_id": pa.array(np.full(int(keep.sum()), table_id, dtype=np.int32)),
            "row_id": pa.array(rows[keep]),
            "position": pa.array(np.tile(np.arange(m, dtype=np.int32), n)[keep]),
            "rcode": pa.array(codes[keep])}))
    if not parts:
        return pa.table({"table_id": pa.array([], pa.int32()), "row_id": pa.array([], pa.int64()),
                         "position": pa.array([], pa.int32()), "rcode": pa.array([], pa.int32())})
    return pa.concat_tables(parts)


def _list_cells(table_id: int, cell_rcode, lengths, parents, at: int, c: int, m: int, n: int,
                row_ids):
    """:func:`_cells` of a table with list columns: each column's cells with their rows,
    sorted by (row, position), a list's elements in their order."""
    import pyarrow as pa

    rows, pos, codes = [], [], []
    for j in range(m):
        k = int(lengths[c + j])
        code = cell_rcode[at:at + k]
        at += k
        row = parents[c + j] if parents[c + j] is not None else np.arange(n, dtype=np.int64)
        keep = code >= 0
        rows.append(np.asarray(row, dtype=np.int64)[keep])
        pos.append(np.full(int(keep.sum()), j, dtype=np.int32))
        codes.append(code[keep])
    rows, pos, codes = (np.concatenate(x) for x in (rows, pos, codes))
    order = np.lexsort((pos, rows))                  # stable: elements keep their order
    rows, pos, codes = rows[order], pos[order], codes[order]
    if row_ids is not None:
        rows = np.asarray(row_ids, dtype=np.int64)[rows]
    return pa.table({"table_id": pa.array(np.full(len(rows), table_id, dtype=np.int32)),
                     "row_id": pa.array(rows), "position": pa.array(pos),
                     "rcode": pa.array(codes.astype(np.int32))})


def write_long_form(long: LongForm, batch: int, chunk: int, parts: dict) -> None:
    import pyarrow.parquet as pq
    for kind, table in parts.items():
        path = long.part(kind, batch, chunk)
        tmp = path.with_name(path.name + ".inprogress")
        pq.write_table(table, tmp, compression="snappy", row_group_size=1 << 20)
        os.replace(tmp, path)           # a retried task overwrites its own parts whole


# --------------------------------------------------------------------------- the Spark job

def _batches(files, parallelism: int) -> list[list]:
    """Contiguous runs of files (in table-id order) of about equal bytes."""
    total = sum(max(t.size, 1) for t in files)
    n = max(1, min(len(files), max(4 * parallelism, math.ceil(total / BATCH_BYTES))))
    target = total / n
    out, cur, acc = [], [], 0.0
    for t in files:
        cur.append(t)
        acc += max(t.size, 1)
        if acc >= target * (len(out) + 1) and len(out) < n - 1:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def _read_batch(long: LongForm, num_perm: int, seed: int, n_samples: int, chunk_cells: int,
                join_stats: bool):
    def run(items):
        for batch_no, specs in items:
            chunk, pending, held = 0, [], 0
            for table_id, uri, fmt in specs:
                info, cols = lakeread.read_columns(table_id, uri, fmt)
                try:      # while the file is in the page cache: the fingerprint's digest
                    info.digest = file_digest(uri)
                except OSError:
                    pass
                yield info.to_json()
                if cols is None:
                    continue
                pending.append((table_id, cols, None))
                held += len(cols[0]) * len(cols)
                if held >= chunk_cells:
                    write_long_form(long, batch_no, chunk,
                                    long_form_of(pending, num_perm, seed, n_samples,
                                                 join_stats))
                    chunk, pending, held = chunk + 1, [], 0
            if pending:
                write_long_form(long, batch_no, chunk,
                                long_form_of(pending, num_perm, seed, n_samples, join_stats))
            release_memory()      # an idle worker keeps no batch's peak
    return run


def read_lake(spark, lake: LakeSpec, long: LongForm, num_perm: int, seed: int,
              n_samples: int = 5, join_stats: bool = False) -> list[lakeread.TableInfo]:
    """Read the lake's files (one Spark job) and catalog tables into ``long``; returns the
    TableInfo of every table, by table id. ``join_stats``: also the join statistics'
    inputs (indexing/joinstats.py)."""
    files = [t for t in lake.tables if t.format != "catalog"]
    infos = []
    if files:
        batches = _batches(files, spark.sparkContext.defaultParallelism)
        items = [(b, [(t.table_id, t.uri, t.format) for t in specs])
                 for b, specs in enumerate(batches)]
        rdd = spark.sparkContext.parallelize(items, len(items))
        read = rdd.mapPartitions(_read_batch(long, num_perm, seed, n_samples, CHUNK_CELLS,
                                             join_stats))
        infos += [lakeread.TableInfo.from_json(s) for s in
                  fetch_results(read.collect, "reading the lake's files")]
    first_batch = len(files)
    for k, t in enumerate(t for t in lake.tables if t.format == "catalog"):
        infos.append(_read_catalog_table(spark, t, long, first_batch + k, num_perm, seed,
                                         n_samples, join_stats))
    return sorted(infos, key=lambda i: i.table_id)


def _read_catalog_table(spark, t, long: LongForm, batch_no: int, num_perm: int, seed: int,
                        n_samples: int, join_stats: bool) -> lakeread.TableInfo:
    """A Spark catalog table: every column cast to text by Spark, the whole table in one task."""
    import pandas as pd
    from pyspark.sql import functions as F

    info = lakeread.TableInfo(table_id=t.table_id, uri=t.uri, format="catalog", encoding="spark")
    try:
        df = spark.table(t.path)
        info.columns, info.warnings = lakeread.unique_header(df.columns)
    except Exception as e:  # noqa: BLE001
        info.error = f"cannot be read from the Spark catalog ({type(e).__name__}: {e})"
        return info
    if not info.columns:
        info.error = "has no columns"
        return info
    # timestamps are rendered as every other reader renders them (lake/normalize.py):
    # TIMESTAMP as its UTC instant, TIMESTAMP_NTZ as written; the rest is Spark's text
    from pyspark.sql import types as T
    kinds = ["instant" if isinstance(f.dataType, T.TimestampType) else
             "ntz" if isinstance(f.dataType, T.TimestampNTZType) else "text"
             for f in df.schema.fields]
    text = df.select(*[(instant_column(df, c) if k == "instant" else
                        F.col(f"`{c}`") if k == "ntz" else
                        F.col(f"`{c}`").cast("string")).alias(f"c{j}")
                       for j, (c, k) in enumerate(zip(df.columns, kinds))]).coalesce(1)
    table_id, width = t.table_id, len(df.columns)

    def texts(values, kind):
        if kind == "instant":
            values = utc_instants(values)
        if kind != "text":
            return [render_value(v) for v in values.astype(object).where(values.notna(), None)]
        return values.astype(object).where(values.notna(), None)

    def run(batches):
        import pyarrow as pa
        frames = [pdf for pdf in batches]
        pdf = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
            {f"c{j}": pd.Series([], dtype=object) for j in range(width)})
        cols = [pa.array(texts(pdf[f"c{j}"], kinds[j]), pa.string()) for j in range(width)]
        if len(pdf):
            write_long_form(long, batch_no, 0,
                            long_form_of([(table_id, cols, None)], num_perm, seed, n_samples,
                                         join_stats))
        yield pd.DataFrame({"n_rows": [len(pdf)]})

    counts = fetch_results(text.mapInPandas(run, "n_rows long").toPandas,
                           f"reading the catalog table {t.path}")
    n_rows = int(counts["n_rows"].sum())
    info.n_rows = n_rows
    info.ok = n_rows > 0
    if not info.ok:
        info.error = "has no rows"
    return info


