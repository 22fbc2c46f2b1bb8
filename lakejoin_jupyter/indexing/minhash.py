"""Spark job: MinHash signatures of every column, in a pandas UDF.

Each batch of columns is hashed with numpy in one go (hashing.minhash_signatures); the
result is bit-identical to datasketch.MinHash(num_perm, seed, hashfunc=32-bit mmh3) over
the column's distinct tokens (tests/test_hashing.py).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow.dataset as pads

from ..hashing import EMPTY_HASH, minhash_signatures, token_hash32


def _signature_batches(num_perm: int, seed: int):
    def run(batches):
        for pdf in batches:
            lists = pdf["tokens"].tolist()
            sizes = [len(x) for x in lists]
            indptr = np.zeros(len(lists) + 1, dtype=np.int64)
            np.cumsum(sizes, out=indptr[1:])
            flat = [t for x in lists for t in x]
            sig = minhash_signatures(token_hash32(flat), indptr, num_perm, seed)
            yield pd.DataFrame({"column_id": pdf["column_id"].astype("int32"),
                                "signature": [row.tobytes() for row in sig]})
    return run


def build_signatures(column_tokens, num_perm: int, seed: int):
    """DataFrame (column_id int, signature binary: num_perm little-endian uint32)."""
    from pyspark.sql import functions as F

    per_column = column_tokens.groupBy("column_id").agg(F.collect_list("token").alias("tokens"))
    return per_column.mapInPandas(_signature_batches(num_perm, seed),
                                  "column_id int, signature binary")


def finish_signatures(sig_dir, n_sets: int, num_perm: int) -> np.ndarray:
    t = pads.dataset(str(sig_dir), format="parquet").to_table()
    out = np.full((n_sets, num_perm), EMPTY_HASH, dtype=np.uint32)
    cid = t.column("column_id").to_numpy()
    if len(cid):
        blob = b"".join(t.column("signature").to_pylist())
        out[cid] = np.frombuffer(blob, dtype="<u4").reshape(len(cid), num_perm)
    return out
