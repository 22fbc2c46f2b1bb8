"""Spark job: integer sets and positional postings (JOSIE §3.5 layout).

* sets: per column, its token ids sorted ascending (the "integer sets");
* postings: per token, entries (set id, 0-based position of the token in the set, set size),
  sorted by set id.

Both are written as Parquet (the distributed search reads them there) and turned into
CSR ``.npy`` arrays for memory mapping by :func:`finish_sets` / :func:`finish_postings`.
"""
from __future__ import annotations

import numpy as np
import pyarrow.dataset as pads


def build_sets(column_tokens, dictionary):
    """DataFrame (column_id int, size int, token_ids array<int> sorted ascending)."""
    from pyspark.sql import functions as F

    return (column_tokens.join(dictionary.select("token", "token_id"), "token")
            .groupBy("column_id")
            .agg(F.sort_array(F.collect_list("token_id")).alias("token_ids"))
            .select("column_id", F.size("token_ids").cast("int").alias("size"), "token_ids"))


def build_postings(sets):
    """DataFrame (token_id int, set_id int, position int, set_size int)."""
    from pyspark.sql import functions as F

    return (sets.select("column_id", "size", F.posexplode("token_ids").alias("position", "token_id"))
            .select("token_id", F.col("column_id").alias("set_id"),
                    F.col("position").cast("int").alias("position"),
                    F.col("size").alias("set_size")))


def _read(path, columns):
    return pads.dataset(str(path), format="parquet").to_table(columns=columns)


def finish_sets(sets_dir, n_sets: int):
    """(indptr int64 [n_sets+1], token_ids int32) from the sets Parquet; sets absent from
    the Parquet (columns with no token) are empty."""
    t = _read(sets_dir, ["column_id", "size", "token_ids"])
    cid = t.column("column_id").to_numpy()
    order = np.argsort(cid, kind="stable")
    sizes = np.zeros(n_sets, dtype=np.int64)
    sizes[cid] = t.column("size").to_numpy()
    indptr = np.zeros(n_sets + 1, dtype=np.int64)
    np.cumsum(sizes, out=indptr[1:])
    lists = t.column("token_ids").combine_chunks()
    flat = lists.values.to_numpy(zero_copy_only=False).astype(np.int32)
    offsets = lists.offsets.to_numpy()
    out = np.empty(int(indptr[-1]), dtype=np.int32)
    # copy each row's slice to its CSR place; rows are permuted by column id
    starts_src = offsets[:-1][order]
    lens = np.diff(offsets)[order]
    dst = indptr[cid[order]]
    idx = np.repeat(starts_src - dst, lens) + np.arange(len(out))
    out[:] = flat[idx]
    return indptr, out


def finish_postings(postings_dir, n_tokens: int):
    """CSR postings (indptr, set_ids, positions, set_sizes) sorted by (token, set)."""
    t = _read(postings_dir, ["token_id", "set_id", "position", "set_size"])
    tok = t.column("token_id").to_numpy()
    sid = t.column("set_id").to_numpy()
    order = np.lexsort((sid, tok))
    freq = np.bincount(tok, minlength=n_tokens)
    indptr = np.zeros(n_tokens + 1, dtype=np.int64)
    np.cumsum(freq, out=indptr[1:])
    return (indptr, sid[order].astype(np.int32),
            t.column("position").to_numpy()[order].astype(np.int32),
            t.column("set_size").to_numpy()[order].astype(np.int32))
