"""Spark job: the token dictionary in JOSIE's global order (JOSIE §3.5), with the posting
lists it is sorted by.

* posting list of a token = sorted ids of the sets (columns) holding it; freq = its length;
* token id = rank by (freq, posting list, token text): ascending frequency, identical lists
  adjacent; group id = rank of the distinct (freq, list) pairs.

The long form's ``values`` rows are shuffled by token and sorted within partitions (a
small lake's by Python tasks, each keeping one hash bucket of tokens: no Spark SQL); an
Arrow task turns each run of one token into its row with numpy (no ``collect_list``
aggregation) and writes them to scratch Parquet itself (pyarrow, as the read tasks do);
then one global sort on a single binary key (:func:`sort_keys`) writes the rows in order.
Ranks are then row numbers, which the driver derives part by part with numpy
(:func:`finish_dictionary`).

Note:
    Ties are broken without JOSIE's MurmurHash of the list (see index/arrays.py).
    Details: docs/algorithms/build.md, docs/algorithms/index-format.md.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..spark import fetch_results

COLUMNS = ("token", "hash64", "freq", "sids", "pairs")


DRIVER_SORT_TOKENS = 1 << 24    # at most this many tokens: the global sort runs on the driver
PYTHON_GROUPING_BYTES = 64 << 20  # at most this many bytes of values parts: grouped by Python tasks


def build_dictionary(spark, values_files, first_of, values_frame, grouped_dir, out_dir) -> None:
    """Write the tokens sorted by (freq, sids, token) to ``out_dir`` (part-*.parquet in
    order): columns token, hash64, freq, sids (the posting list), pairs (column_id, rcode)
    of every raw text holding the token, in (column_id, rcode) order. ``grouped_dir``: a
    scratch folder (on storage every executor can write) where the grouping tasks write
    the unsorted rows themselves.

    Grouping: up to ``PYTHON_GROUPING_BYTES`` of values parts, one job of Python tasks
    (:func:`_group_in_python_tasks`: no Spark SQL, whose first query in a fresh JVM costs
    seconds, more than grouping a small lake); above, Spark SQL shuffles ``values_frame()``
    by token. Global sort: up to ``DRIVER_SORT_TOKENS`` tokens the driver sorts them (one
    Arrow sort instead of a range-partitioned Spark sort, whose sampling, shuffle and write
    cost more than the sort itself at that size); above, Spark does.

    ``values_files``: the long form's values parts; ``first_of``: the first column id of
    each table id; ``values_frame``: a function returning the same rows as a Spark
    DataFrame (column_id, rcode, token, hash64), token not null."""
    from functools import partial

    Path(grouped_dir).mkdir(parents=True, exist_ok=True)
    if sum(Path(f).stat().st_size for f in values_files) <= PYTHON_GROUPING_BYTES:
        n_tokens = _group_in_python_tasks(spark, values_files, first_of, str(grouped_dir))
    else:
        n_tokens = sum(r.tokens for r in fetch_results(
            values_frame().select("token", "column_id", "rcode", "hash64")
            .repartition("token").sortWithinPartitions("token", "column_id", "rcode")
            .mapInArrow(partial(_write_token_rows, str(grouped_dir)), "tokens long").collect,
            "grouping the values by token"))
    if n_tokens <= DRIVER_SORT_TOKENS:
        _sort_on_driver(grouped_dir, out_dir)
        return
    (spark.read.schema(SPARK_SCHEMA).parquet(Path(grouped_dir).as_uri())
     .orderBy("key").select(*COLUMNS).write.parquet(Path(out_dir).as_uri()))


def _group_in_python_tasks(spark, values_files, first_of, folder: str) -> int:
    """The grouping as one job of ``defaultParallelism`` Python tasks: task b reads every
    values part (they are small) and keeps the tokens whose hash64 is b modulo the number of
    tasks, sorts them by (token, column_id, rcode) with Arrow and writes their token rows
    as the Spark SQL path's tasks do. Returns the number of tokens."""
    n = max(1, spark.sparkContext.defaultParallelism)
    files = [str(f) for f in values_files]
    first_of = np.asarray(first_of, dtype=np.int64)

    def run(buckets):
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        for b in buckets:
            parts = []
            for f in files:
                t = pq.read_table(f, columns=["table_id", "position", "rcode", "token", "hash64"])
                t = t.filter(t.column("token").is_valid())
                # int64 throughout: with a null, to_numpy would give floats (rounded hashes)
                t = t.filter(pa.array(pc.fill_null(t.column("hash64"), 0).to_numpy() % n == b))
                cid = first_of[t.column("table_id").to_numpy()] + t.column("position").to_numpy()
                parts.append(pa.table({"token": t.column("token"),
                                       "column_id": pa.array(cid.astype(np.int32)),
                                       "rcode": t.column("rcode"), "hash64": t.column("hash64")}))
            t = pa.concat_tables(parts).combine_chunks() if parts else None
            if t is None or t.num_rows == 0:
                yield 0
                continue
            t = t.take(pc.sort_indices(t, [("token", "ascending"), ("column_id", "ascending"),
                                           ("rcode", "ascending")]))
            yield from (r.column(0)[0].as_py() for r in _write_token_rows(folder, t.to_batches()))

    return sum(fetch_results(spark.sparkContext.parallelize(range(n), n).mapPartitions(run)
                             .collect, "grouping the values by token"))


def _sort_on_driver(grouped_dir, out_dir) -> None:
    """The grouped rows sorted by their binary key with Arrow, written as one part."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    parts = [pq.read_table(f) for f in _parts(grouped_dir)]
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    if not parts:
        return
    t = pa.concat_tables(parts)
    t = t.take(pc.sort_indices(t.column("key"))).select(list(COLUMNS))
    pq.write_table(t, Path(out_dir) / "part-00000.parquet")


SPARK_SCHEMA = ("key binary, token string, hash64 long, freq int, sids array<int>, "
                "pairs array<struct<column_id:int,rcode:int>>")


def _write_token_rows(folder: str, batches):
    """Arrow task: the partition's token rows (:func:`token_rows`) written with pyarrow to
    ``folder``/part-<partition>.parquet (via a hidden temporary name, so a re-run task
    replaces its file whole); yields its token count."""
    import os
    import uuid

    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyspark import TaskContext

    from ..spark import release_memory

    part = TaskContext.get().partitionId()
    tmp = os.path.join(folder, f".part-{part:05d}-{uuid.uuid4().hex}")
    writer, pending, n = None, [], 0

    def flush():
        nonlocal writer
        writer = writer or pq.ParquetWriter(tmp, pending[0].schema)
        writer.write_table(pa.Table.from_batches(pending))
        pending.clear()

    for b in token_rows(batches):
        pending.append(b)
        n += b.num_rows
        if sum(x.num_rows for x in pending) >= 1 << 17:
            flush()
    if pending:
        flush()
    if writer is not None:
        writer.close()
        os.replace(tmp, os.path.join(folder, f"part-{part:05d}.parquet"))
    release_memory()
    yield pa.RecordBatch.from_pydict({"tokens": pa.array([n], pa.int64())})


def sort_keys(freq: np.ndarray, sids: np.ndarray, tokens):
    """One binary key per token: freq as 4 bytes big-endian, then each set id of its list as
    4 bytes big-endian, then the token's UTF-8 bytes. For ids in [0, 2^31) the keys' byte
    order is the (freq, sids, token) order: the first 4 bytes order freq; equal freqs give
    list sections of equal length 4*freq, compared id by id; then UTF-8 bytes compare as the
    texts' code points; distinct tokens give distinct keys.

    ``freq``: int array (n,); ``sids``: the lists concatenated; ``tokens``: Arrow strings."""
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(freq)
    head = pa.Array.from_buffers(pa.binary(), n, [
        None, pa.py_buffer(np.arange(0, 4 * n + 1, 4, dtype=np.int32)),
        pa.py_buffer(np.asarray(freq).astype(">u4").tobytes())])
    off = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(freq, out=off[1:])
    lists = pa.Array.from_buffers(pa.large_binary(), n, [
        None, pa.py_buffer(4 * off), pa.py_buffer(np.asarray(sids).astype(">u4").tobytes())])
    return pc.binary_join_element_wise(head.cast(pa.large_binary()), lists,
                                       tokens.cast(pa.large_binary()),
                                       pa.scalar(b"", pa.large_binary())).cast(pa.binary())


def _rows(t, starts: np.ndarray, ends: np.ndarray):
    """Rows [starts[i], ends[i]) of ``t`` (sorted by token, column_id, rcode) hold token i."""
    import pyarrow as pa

    c = t.column("column_id").to_numpy()
    n = len(c)
    new_set = np.zeros(n, dtype=bool)       # first row of a (token, column)
    new_set[starts] = True
    new_set[1:] |= c[1:] != c[:-1]
    seen = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(new_set, out=seen[1:])
    freq = (seen[ends] - seen[starts]).astype(np.int32)
    sids = c[new_set].astype(np.int32)
    idx = pa.array(starts)
    tokens = t.column("token").take(idx).combine_chunks()
    pairs = pa.StructArray.from_arrays(
        [t.column("column_id").combine_chunks().cast(pa.int32()),
         t.column("rcode").combine_chunks().cast(pa.int32())], ["column_id", "rcode"])
    return pa.RecordBatch.from_arrays([
        sort_keys(freq, sids, tokens), tokens,
        t.column("hash64").take(idx).combine_chunks(), pa.array(freq),
        pa.ListArray.from_arrays(pa.array(np.r_[0, np.cumsum(freq)].astype(np.int32)),
                                 pa.array(sids)),
        pa.ListArray.from_arrays(pa.array(np.r_[starts, ends[-1:]].astype(np.int32)), pairs)],
        ["key", *COLUMNS])


def token_rows(batches):
    """Arrow task over a partition sorted by (token, column_id, rcode): one row per token
    (key, token, hash64, freq, sids, pairs). A token whose rows continue in the next batch is
    carried over."""
    import pyarrow as pa
    import pyarrow.compute as pc

    carry = None
    for b in batches:
        if b.num_rows == 0:
            continue
        t = pa.Table.from_batches([b])
        t = (pa.concat_tables([carry, t]) if carry is not None else t).combine_chunks()
        tok, n = t.column("token"), t.num_rows
        change = pc.not_equal(tok.slice(1), tok.slice(0, n - 1)).to_numpy(zero_copy_only=False)
        starts = np.r_[0, np.flatnonzero(change) + 1]
        if len(starts) > 1:
            yield _rows(t, starts[:-1], starts[1:])
        carry = t.slice(starts[-1])
    if carry is not None:
        carry = carry.combine_chunks()
        yield _rows(carry, np.array([0]), np.array([carry.num_rows]))


def _parts(folder) -> list[str]:
    return sorted(str(p) for p in Path(folder).glob("part-*.parquet"))


def finish_dictionary(folder, w, raw_ptr: np.ndarray, raw_tokens: np.ndarray) -> dict:
    """Stream the sorted parts (in part order, which is the sort's range order) into the
    index's dictionary and postings arrays, written front to back: token id = row
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

    hashes = np.zeros(n_tokens, dtype=np.uint64)
    at_t = at_p = at_b = 0
    prev, group = None, -1                  # the previous token's list, its group
    with w.npy_appender("dictionary/freq.npy", np.int32, (n_tokens,)) as freq_out, \
            w.npy_appender("dictionary/group.npy", np.int32, (n_tokens,)) as group_out, \
            w.npy_appender("dictionary/values_offsets.npy", np.int64, (n_tokens + 1,)) as off_out, \
            w.npy_appender("dictionary/values_bytes.npy", np.uint8, (nbytes,)) as bytes_out, \
            w.npy_appender("postings/indptr.npy", np.int64, (n_tokens + 1,)) as indptr_out, \
            w.npy_appender("postings/set_ids.npy", np.int32, (nnz,)) as sets_out:
        off_out.write([0])
        indptr_out.write([0])
        for f in files:                     # pass 2
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
            freq_out.write(freq)
            group_out.write(groups)
            indptr_out.write(at_p + np.cumsum(freq))
            sets_out.write(flat)
            tokens = t.column("token").combine_chunks().cast("large_string")
            o = np.frombuffer(tokens.buffers()[1], dtype=np.int64)[tokens.offset:tokens.offset + n + 1]
            data = np.frombuffer(tokens.buffers()[2], dtype=np.uint8)[o[0]:o[-1]]
            off_out.write(at_b + (o[1:] - o[0]))
            bytes_out.write(data)
            hashes[at_t:at_t + n] = t.column("hash64").to_numpy().view(np.uint64)
            pairs = t.column("pairs").combine_chunks()
            pair_n = np.diff(pairs.offsets.to_numpy())
            fields = pairs.flatten()
            cols = fields.field("column_id").to_numpy()
            raw_tokens[raw_ptr[cols] + fields.field("rcode").to_numpy()] = np.repeat(
                np.arange(at_t, at_t + n, dtype=np.int32), pair_n)
            at_t, at_p, at_b = at_t + n, at_p + len(flat), at_b + len(data)
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
