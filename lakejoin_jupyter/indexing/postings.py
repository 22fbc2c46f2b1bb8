"""Integer sets and positional postings from the dictionary's posting lists (JOSIE §3.5
layout).

* postings: per token, entries (set id, 0-based position of the token in the set, set
  size), sorted by set id: the dictionary job's sorted lists, in token-id order;
* sets: per column, its token ids sorted ascending: the postings transposed by a counting
  sort on set id (tokens already ascend), which also gives every entry's position.

Vectorized numpy on the driver, a chunk of entries at a time (no further Spark pass); the
postings are also written as Parquet for search/distributed.py.
Details: docs/algorithms/build.md.
"""
from __future__ import annotations

import numpy as np

POSTINGS_ROWS_PER_FILE = 1 << 24
CHUNK = 1 << 24                       # posting entries transposed at once


def sets_and_positions(w, n_sets: int) -> None:
    """sets/indptr.npy, sets/token_ids.npy, postings/positions.npy, postings/set_sizes.npy
    from the posting lists already written (postings/indptr.npy, set_ids.npy): a counting
    sort by set id, a chunk of entries at a time (the sets through a memory map, the
    postings' columns written front to back)."""
    post_indptr = np.load(w.path("postings/indptr.npy"))
    post_sets = np.load(w.path("postings/set_ids.npy"), mmap_mode="r")
    nnz = len(post_sets)
    sizes = np.zeros(n_sets, dtype=np.int64)
    for lo in range(0, nnz, CHUNK):
        sizes += np.bincount(post_sets[lo:lo + CHUNK], minlength=n_sets)
    sets_indptr = np.zeros(n_sets + 1, dtype=np.int64)
    np.cumsum(sizes, out=sets_indptr[1:])
    w.save_npy("sets/indptr.npy", sets_indptr)

    sets_tokens = np.lib.format.open_memmap(w.path("sets/token_ids.npy"), mode="w+",
                                            dtype=np.int32, shape=(nnz,))
    cursor = sets_indptr[:-1].copy()                 # next free place of each set
    with w.npy_appender("postings/positions.npy", np.int32, (nnz,)) as post_pos, \
            w.npy_appender("postings/set_sizes.npy", np.int32, (nnz,)) as post_sizes:
        for lo in range(0, nnz, CHUNK):
            s = np.asarray(post_sets[lo:lo + CHUNK])
            tok = (np.searchsorted(post_indptr, np.arange(lo, lo + len(s)), side="right") - 1)
            o = np.argsort(s, kind="stable")         # by set; tokens ascend within a set
            ss = s[o]
            run = np.flatnonzero(np.r_[True, ss[1:] != ss[:-1]])
            rank = np.arange(len(ss)) - np.repeat(run, np.diff(np.r_[run, len(ss)]))
            dest = cursor[ss] + rank
            sets_tokens[dest] = tok[o]
            pos = np.empty(len(s), dtype=np.int64)
            pos[o] = dest - sets_indptr[ss]
            post_pos.write(pos)
            post_sizes.write(sizes[s])
            cursor[ss[run]] += np.diff(np.r_[run, len(ss)])
    sets_tokens.flush()


def write_postings_parquet(w) -> None:
    """postings/postings.parquet (token_id, set_id, position, set_size), in token order, for
    the distributed search, from the arrays written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = w.path("postings/postings.parquet/x").parent
    indptr = np.load(w.path("postings/indptr.npy"))
    arrays = {k: np.load(w.path(f"postings/{f}.npy"), mmap_mode="r") for k, f in
              (("set_id", "set_ids"), ("position", "positions"), ("set_size", "set_sizes"))}
    n = int(indptr[-1])
    for k, lo in enumerate(range(0, max(n, 1), POSTINGS_ROWS_PER_FILE)):
        hi = min(n, lo + POSTINGS_ROWS_PER_FILE)
        token = (np.searchsorted(indptr, np.arange(lo, hi), side="right") - 1).astype(np.int32)
        pq.write_table(pa.table({"token_id": token, **{c: np.asarray(a[lo:hi])
                                                       for c, a in arrays.items()}}),
                       folder / f"part-{k:05d}.parquet", compression="snappy",
                       row_group_size=1 << 20)
