"""MinHash signatures of every column.

Computed in the read task (indexing/read.py), where a column's distinct tokens are in hand:
hashing.minhash_signatures over the whole batch of columns with numpy, bit-identical to
datasketch.MinHash(num_perm, seed, hashfunc=32-bit mmh3) over the column's distinct tokens
(tests/test_hashing.py). This module puts the per-column results into the (n_sets,
num_perm) matrix the index stores.
"""
from __future__ import annotations

import numpy as np

from ..hashing import EMPTY_HASH


def signature_matrix(signatures, column_ids: np.ndarray, n_sets: int, num_perm: int) -> np.ndarray:
    """(n_sets, num_perm) uint32 from an Arrow binary array of little-endian signatures."""
    out = np.full((n_sets, num_perm), EMPTY_HASH, dtype=np.uint32)
    if len(column_ids):
        import pyarrow as pa
        arr = signatures.combine_chunks() if isinstance(signatures, pa.ChunkedArray) else signatures
        arr = arr.cast(pa.large_binary())
        off = np.frombuffer(arr.buffers()[1], dtype=np.int64)[arr.offset: arr.offset + len(arr) + 1]
        blob = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[off[0]:off[-1]]
        out[column_ids] = blob.view("<u4").reshape(len(column_ids), num_perm)
    return out
