"""Integer sets and positional postings from the dictionary's posting lists (JOSIE §3.1;
the "integer sets" and positional postings of its reference code).

* postings: per token, entries (set id, 0-based position of the token in the set, set
  size), sorted by set id: the dictionary job's sorted lists, in token-id order;
* sets: per column, its token ids sorted ascending: the postings transposed by a stable
  sort on set id (tokens already ascend), which also gives every entry's position.

Vectorized numpy over the lists the dictionary job sorted (no further Spark pass); the
postings are also written as Parquet for the distributed search (search/distributed.py).
"""
from __future__ import annotations

import numpy as np

POSTINGS_ROWS_PER_FILE = 1 << 24


def sets_and_postings(post_indptr: np.ndarray, post_sets: np.ndarray, n_sets: int):
    """(sets_indptr, sets_tokens, post_pos, post_sizes) for posting lists in token order."""
    n_tokens = len(post_indptr) - 1
    freq = np.diff(post_indptr)
    order = np.argsort(post_sets, kind="stable")          # by set, tokens ascending within
    sizes = np.bincount(post_sets, minlength=n_sets).astype(np.int64)
    sets_indptr = np.zeros(n_sets + 1, dtype=np.int64)
    np.cumsum(sizes, out=sets_indptr[1:])
    owner = np.repeat(np.arange(n_tokens, dtype=np.int32), freq)
    sets_tokens = owner[order]
    del owner
    post_pos = np.empty(len(post_sets), dtype=np.int32)
    post_pos[order] = (np.arange(len(order), dtype=np.int64)
                       - sets_indptr[post_sets[order]]).astype(np.int32)
    post_sizes = sizes.astype(np.int32)[post_sets]
    return sets_indptr, sets_tokens, post_pos, post_sizes


def write_postings_parquet(folder, post_indptr, post_sets, post_pos, post_sizes) -> None:
    """postings.parquet (token_id, set_id, position, set_size), in token order."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    n = len(post_sets)
    token = np.repeat(np.arange(len(post_indptr) - 1, dtype=np.int32), np.diff(post_indptr))
    for k, lo in enumerate(range(0, max(n, 1), POSTINGS_ROWS_PER_FILE)):
        hi = min(n, lo + POSTINGS_ROWS_PER_FILE)
        pq.write_table(pa.table({"token_id": token[lo:hi], "set_id": post_sets[lo:hi],
                                 "position": post_pos[lo:hi], "set_size": post_sizes[lo:hi]}),
                       folder / f"part-{k:05d}.parquet", compression="snappy",
                       row_group_size=1 << 20)
