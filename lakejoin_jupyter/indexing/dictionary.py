"""Spark job: the token dictionary in JOSIE's global order (JOSIE §3.1, and the global
order of its reference code), with the posting lists it is sorted by.

* posting list of a token = sorted ids of the sets (columns) holding it; freq = its length;
* token id = rank by (freq, posting list, token text): ascending frequency, identical lists
  adjacent; group id = rank of the distinct (freq, list) pairs (tokens with identical
  lists share a group).

One aggregation and one global sort over the long form's ``values`` (one row per distinct
raw text of a column): ``groupBy(token)`` collects the (column, rcode) pairs holding the
token, ``orderBy(freq, sids, token)`` sorts, and the sorted rows are written as Parquet.
The ranks are then simply row numbers: the driver reads the parts in order
(:func:`finish_dictionary`) and derives ids, groups, postings and the text arrays with
numpy, without a second pass over the data in Spark.
The tie-break deviates from JOSIE's code (no MurmurHash of the list): see index/arrays.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np


def build_dictionary(values, out_uri: str) -> None:
    """Write the tokens sorted by (freq, sids, token): columns token, hash64, freq, sids
    (the posting list), pairs (column_id, rcode) of every raw text holding the token.

    ``values``: Spark DataFrame (column_id, rcode, token, hash64), token not null."""
    from pyspark.sql import functions as F

    plist = (values.groupBy("token")
             .agg(F.first("hash64").alias("hash64"),
                  F.sort_array(F.collect_list(F.struct("column_id", "rcode"))).alias("pairs"))
             .withColumn("sids", F.array_distinct(F.col("pairs.column_id"))))
    (plist.withColumn("freq", F.size("sids"))
     .orderBy("freq", "sids", "token")
     .select("token", "hash64", "freq", "sids", "pairs")
     .write.parquet(out_uri))


@dataclass
class Dictionary:
    """The sorted dictionary as numpy arrays (token id = position)."""
    freq: np.ndarray          # int32 [n_tokens]
    group: np.ndarray         # int32 [n_tokens]
    hash64: np.ndarray        # uint64 [n_tokens]
    offsets: np.ndarray       # int64 [n_tokens + 1] into values
    values: np.ndarray        # uint8: the tokens' UTF-8 bytes back to back
    post_indptr: np.ndarray   # int64 [n_tokens + 1]
    post_sets: np.ndarray     # int32 [nnz]: each token's posting list, ascending
    pair_indptr: np.ndarray   # int64 [n_tokens + 1]
    pair_cols: np.ndarray     # int32: the columns of the raw texts holding each token
    pair_rcodes: np.ndarray   # int32: and the raw texts' numbers in their columns

    @property
    def n_tokens(self) -> int:
        return len(self.freq)


def _parts(folder) -> list[str]:
    return sorted(str(p) for p in Path(folder).glob("part-*.parquet"))


def finish_dictionary(folder) -> Dictionary:
    """Read the sorted parts in order (part number = range of the sort) into arrays."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    parts = [pq.read_table(f) for f in _parts(folder)]
    t = pa.concat_tables(parts) if parts else None
    if t is None or t.num_rows == 0:
        z32, z64 = np.zeros(0, np.int32), np.zeros(1, np.int64)
        return Dictionary(z32, z32, np.zeros(0, np.uint64), z64, np.zeros(0, np.uint8), z64,
                          z32, z64, z32, z32)
    del parts
    freq = t.column("freq").to_numpy().astype(np.int32)
    sids = t.column("sids").combine_chunks()
    post_sets = sids.flatten().to_numpy().astype(np.int32)
    post_indptr = np.zeros(len(freq) + 1, dtype=np.int64)
    np.cumsum(freq, out=post_indptr[1:])
    if not np.array_equal(np.diff(sids.offsets.to_numpy()), freq) or \
            np.any(np.diff(freq) < 0):
        raise RuntimeError("dictionary parts are not in (freq, list) order (build bug)")
    # a token starts a new group unless its list equals the previous token's
    new = np.ones(len(freq), dtype=bool)
    same_len = np.r_[False, freq[1:] == freq[:-1]]
    if same_len.any():
        owner = np.repeat(np.arange(len(freq)), freq)            # token of each entry
        check = same_len[owner]
        idx = np.flatnonzero(check)
        diff = post_sets[idx] != post_sets[idx - freq[owner[idx]]]
        differs = np.zeros(len(freq), dtype=bool)
        differs[owner[idx[diff]]] = True
        new = ~same_len | differs
    group = (np.cumsum(new) - 1).astype(np.int32)
    pairs = t.column("pairs").combine_chunks()
    pair_indptr = pairs.offsets.to_numpy().astype(np.int64)
    pair_indptr = pair_indptr - pair_indptr[0]
    flat = pairs.flatten()
    tokens = t.column("token").combine_chunks().cast(pa.large_string())
    n = len(tokens)
    off = np.frombuffer(tokens.buffers()[1], dtype=np.int64)[tokens.offset: tokens.offset + n + 1]
    data = np.frombuffer(tokens.buffers()[2], dtype=np.uint8)
    return Dictionary(
        freq=freq, group=group,
        hash64=t.column("hash64").to_numpy().view(np.uint64).copy(),
        offsets=off - off[0], values=data[off[0]:off[-1]].copy(),
        post_indptr=post_indptr, post_sets=post_sets, pair_indptr=pair_indptr,
        pair_cols=flat.field("column_id").to_numpy().astype(np.int32),
        pair_rcodes=flat.field("rcode").to_numpy().astype(np.int32))
