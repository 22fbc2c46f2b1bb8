"""Spark job: the token dictionary in JOSIE's global order (JOSIE §3.5), with the posting
lists it is sorted by.

* posting list of a token = sorted ids of the sets (columns) holding it; freq = its length;
* token id = rank by (freq, posting list, token text): ascending frequency, identical lists
  adjacent; group id = rank of the distinct (freq, list) pairs.

One ``groupBy(token)`` over the long form's ``values`` and one global
``orderBy(freq, sids, token)``, written as Parquet; ranks are then row numbers, which the
driver derives part by part with numpy (:func:`finish_dictionary`), with no second pass.

Note:
    Ties are broken without JOSIE's MurmurHash of the list (see index/arrays.py).
    Details: docs/algorithms/build.md, docs/algorithms/index-format.md.
"""
from __future__ import annotations

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


def _parts(folder) -> list[str]:
    return sorted(str(p) for p in Path(folder).glob("part-*.parquet"))


def finish_dictionary(folder, w, raw_ptr: np.ndarray, raw_tokens: np.ndarray) -> dict:
    """Stream the sorted parts (in part order, which is the sort's range order) into the
    index's dictionary and postings arrays, written through memory maps: token id = row
    number, freq, group (a new group wherever the list differs from the previous token's),
    the token texts, the 64-bit hashes (sorted, for lookup), the posting lists
    (postings/indptr.npy, set_ids.npy); and fills ``raw_tokens`` (the token id of every
    (column, raw text)). Checks the order it relies on. Returns the counts."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    files = _parts(folder)
    n_tokens = nnz = nbytes = 0
    for f in files:                         # pass 1: sizes of the outputs
        t = pq.read_table(f, columns=["token", "freq"])
        n_tokens += t.num_rows
        nnz += int(pc.sum(t.column("freq")).as_py() or 0)
        nbytes += int(pc.sum(pc.binary_length(t.column("token"))).as_py() or 0)

    def out(rel, dtype, n):
        return np.lib.format.open_memmap(w.path(rel), mode="w+", dtype=dtype, shape=(n,))

    freq_out, group_out = out("dictionary/freq.npy", np.int32, n_tokens), \
        out("dictionary/group.npy", np.int32, n_tokens)
    off_out = out("dictionary/values_offsets.npy", np.int64, n_tokens + 1)
    bytes_out = out("dictionary/values_bytes.npy", np.uint8, nbytes)
    indptr_out = out("postings/indptr.npy", np.int64, n_tokens + 1)
    sets_out = out("postings/set_ids.npy", np.int32, nnz)
    hashes = np.zeros(n_tokens, dtype=np.uint64)
    off_out[0] = indptr_out[0] = 0
    at_t = at_p = at_b = 0
    prev, group = None, -1                  # the previous token's list, its group
    for f in files:                         # pass 2
        t = pq.read_table(f)
        n = t.num_rows
        if n == 0:
            continue
        freq = t.column("freq").to_numpy().astype(np.int64)
        lists = t.column("sids").combine_chunks()
        flat = lists.flatten().to_numpy().astype(np.int32)
        starts = np.r_[0, np.cumsum(freq)[:-1]]
        new = _new_lists(freq, flat, starts, prev)
        groups = group + np.cumsum(new)
        group = int(groups[-1])
        prev = flat[starts[-1]:]
        freq_out[at_t:at_t + n] = freq
        group_out[at_t:at_t + n] = groups
        indptr_out[at_t + 1:at_t + n + 1] = at_p + np.cumsum(freq)
        sets_out[at_p:at_p + len(flat)] = flat
        tokens = t.column("token").combine_chunks().cast("large_string")
        o = np.frombuffer(tokens.buffers()[1], dtype=np.int64)[tokens.offset:tokens.offset + n + 1]
        data = np.frombuffer(tokens.buffers()[2], dtype=np.uint8)[o[0]:o[-1]]
        off_out[at_t + 1:at_t + n + 1] = at_b + (o[1:] - o[0])
        bytes_out[at_b:at_b + len(data)] = data
        hashes[at_t:at_t + n] = t.column("hash64").to_numpy().view(np.uint64)
        pairs = t.column("pairs").combine_chunks()
        pair_n = np.diff(pairs.offsets.to_numpy())
        fields = pairs.flatten()
        cols = fields.field("column_id").to_numpy()
        raw_tokens[raw_ptr[cols] + fields.field("rcode").to_numpy()] = np.repeat(
            np.arange(at_t, at_t + n, dtype=np.int32), pair_n)
        at_t, at_p, at_b = at_t + n, at_p + len(flat), at_b + len(data)
    for a in (freq_out, group_out, off_out, bytes_out, indptr_out, sets_out):
        a.flush()
    del freq_out, group_out, off_out, bytes_out, indptr_out, sets_out
    order = np.argsort(hashes, kind="stable")
    w.save_npy("dictionary/hash_sorted.npy", hashes[order])
    w.save_npy("dictionary/hash_ids.npy", order.astype(np.int32))
    return {"tokens": n_tokens, "postings": nnz, "groups": group + 1}


def _new_lists(freq: np.ndarray, flat: np.ndarray, starts: np.ndarray, prev) -> np.ndarray:
    """Per token: does its list differ from the previous token's? Raises if the tokens are
    not in (freq, list) order."""
    n = len(freq)
    if np.any(np.diff(freq) < 0) or (prev is not None and freq[0] < len(prev)):
        raise RuntimeError("dictionary parts are not in (freq, list) order (build bug)")
    same_len = np.r_[prev is not None and len(prev) == freq[0], freq[1:] == freq[:-1]]
    new = np.ones(n, dtype=bool)
    if not same_len.any():
        return new
    owner = np.repeat(np.arange(n, dtype=np.int32), freq)
    idx = np.flatnonzero(same_len[owner])
    before = np.empty(len(idx), dtype=np.int32)     # the same element of the previous list
    inside = owner[idx] > 0
    before[inside] = flat[idx[inside] - freq[owner[idx[inside]]]]
    if (~inside).any():
        before[~inside] = prev[idx[~inside]]
    mismatch = flat[idx] != before
    toks, first = np.unique(owner[idx[mismatch]], return_index=True)
    if np.any(flat[idx[mismatch][first]] < before[mismatch][first]):
        raise RuntimeError("dictionary parts are not in (freq, list) order (build bug)")
    new[:] = ~same_len
    new[toks] = True
    return new
