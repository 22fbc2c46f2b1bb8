"""Index component "lshensemble": LSH Ensemble's size partitions and banded MinHash tables.

Zhu et al., VLDB 2016, as in Zhu's thesis ch. 2, §2.4: the sizes of the non-empty sets
(the core's) are counted and a dynamic programme on the driver splits them into ``n`` intervals
minimizing the false-positive bound of Eq. 2.17-2.19 (§2.4.6); for every partition and
signature position the set ids are sorted by their MinHash value there, so a band is a
binary search at its first position plus a comparison of its other rows against the
signatures (LSH Forest style, §2.4.7), for any (b, r) with ``b r <= m``.

Note:
    - Above ``max_bins`` distinct sizes, partition bounds are restricted to log-spaced bins
      (costs stay exact).
    - One table per position instead of one LSH per r (Go "Plus", datasketch): 8 m bytes/set.
    - A generation reuses the base's partitions; each records the largest size it holds.
    - Up to ``DRIVER_SETS`` columns the tables are built on the driver (same arrays).
    Layout, derivations and figures: docs/algorithms/lshensemble.md.
"""
from __future__ import annotations

import shutil
import time

import numpy as np
import pandas as pd

from ..hashing import fmix32
from ..search.lshensemble_partitions import MAX_BINS, optimal_partitions, partitioning_cost
from .component import Component, integer_option

DEFAULT_PARTITIONS = 32      # thesis §2.5.3 / §3.5.4: 8, 16, 32; 32 is the most precise
BUCKET_SIZE = 8              # mean entries per directory bucket of a table segment
NAME = "lshensemble"


def assign_partitions(sizes: np.ndarray, uppers) -> np.ndarray:
    """Partition of each set size: the first whose upper bound is >= it, else the last."""
    return np.minimum(np.searchsorted(np.asarray(uppers, dtype=np.int64),
                                      np.asarray(sizes, dtype=np.int64), side="left"),
                      len(uppers) - 1)


# --------------------------------------------------------------------------- tables

def segment_layout(counts, m: int) -> np.ndarray:
    """Partition table (n, 6) int64 from the per-partition set counts: n_sets, the offset of
    the partition's first segment in values/set_ids, its directory bits k (2^k buckets per
    segment, about ``BUCKET_SIZE`` entries each) and the offset of its first directory."""
    counts = np.asarray(counts, dtype=np.int64)
    table = np.zeros((len(counts), 6), dtype=np.int64)
    table[:, 2] = counts
    table[:, 3] = np.r_[0, np.cumsum(counts * m)[:-1]]
    bits = np.floor(np.log2(np.maximum(counts / BUCKET_SIZE, 1.0))).astype(np.int64)
    table[:, 4] = bits
    dir_len = np.where(counts > 0, (2 ** bits + 1) * m, 0)
    table[:, 5] = np.r_[0, np.cumsum(dir_len)[:-1]]
    return table


def sort_segment(values: np.ndarray, ids: np.ndarray, bits: int):
    """One table segment: the keys fmix32(value) sorted (ties by set id; ``ids`` must be
    ascending), the set ids in that order, and the bucket directory: entry b is the first
    position whose key is >= b << (32 - bits), the last entry the segment length."""
    keys = fmix32(values)
    o = np.argsort(keys, kind="stable")
    keys = keys[o]
    edges = np.arange(2 ** bits + 1, dtype=np.uint64) << np.uint64(32 - bits)
    directory = np.searchsorted(keys, edges, side="left").astype(np.uint32)
    return keys, ids[o], directory


def reference_tables(signatures: np.ndarray, sizes: np.ndarray, n_partitions: int = DEFAULT_PARTITIONS,
                     uppers=None, max_bins: int = MAX_BINS) -> dict:
    """The component's arrays built with numpy on the driver (tests, small lakes): the
    Spark build produces exactly these. ``uppers`` (a base's partition bounds) assigns
    without partitioning anew, as an incremental insert does."""
    sizes = np.asarray(sizes, dtype=np.int64)
    m = signatures.shape[1]
    ids = np.flatnonzero(sizes > 0)
    if uppers is None:
        dist, cnt = np.unique(sizes[ids], return_counts=True)
        uppers = [u for _, u in optimal_partitions(dist, cnt, n_partitions, max_bins)]
    part = assign_partitions(sizes[ids], uppers)
    table = segment_layout(np.bincount(part, minlength=len(uppers)), m)
    for i in range(len(uppers)):
        s = sizes[ids[part == i]]
        if len(s):
            table[i, 0], table[i, 1] = s.min(), s.max()
    values = np.zeros(int(table[:, 2].sum()) * m, dtype=np.uint32)
    set_ids = np.zeros(len(values), dtype=np.int32)
    directory = np.zeros(_directory_length(table, m), dtype=np.uint32)
    for i in range(len(uppers)):
        members = ids[part == i]               # ascending set id
        n_i, off, bits, doff = (int(x) for x in table[i, 2:6])
        if n_i == 0:                           # a delta may leave base partitions empty
            continue
        for p in range(m):
            k, sid, d = sort_segment(signatures[members, p], members, bits)
            values[off + p * n_i: off + (p + 1) * n_i] = k
            set_ids[off + p * n_i: off + (p + 1) * n_i] = sid
            directory[doff + p * len(d): doff + (p + 1) * len(d)] = d
    return {"partitions": table, "values": values, "set_ids": set_ids, "directory": directory,
            "intervals": [int(u) for u in uppers]}


def _directory_length(table: np.ndarray, m: int) -> int:
    return int(np.sum(np.where(table[:, 2] > 0, (2 ** table[:, 4] + 1) * m, 0)))


# --------------------------------------------------------------------------- Spark job

# A row here holds a whole segment (up to 8 MiB per value). Parquet checks a page's size
# only every 100 rows by default, so a page could buffer ~100 such values (and its compressed
# copy) in the driver's heap: at 10^6 columns that exhausted a 2 GiB heap. Check every row.
LARGE_VALUE_PAGES = {"parquet.page.size.row.check.min": "1",
                     "parquet.page.size.row.check.max": "16"}


def _positions_per_block(m: int, largest_partition: int) -> int:
    """Signature positions handled by one Spark group: about 8 MiB of values per group."""
    return int(max(1, min(m, (1 << 21) // max(1, largest_partition))))


def _sort_block(ppb: int, bits_of: dict):
    def run(pdf: pd.DataFrame) -> pd.DataFrame:
        ids = pdf["column_id"].to_numpy(np.int32)
        order = np.argsort(ids, kind="stable")
        ids = ids[order]
        width = len(pdf["sig"].iloc[0]) // 4
        mat = np.frombuffer(b"".join(pdf["sig"].tolist()), dtype="<u4").reshape(len(ids), width)[order]
        part = int(pdf["part"].iloc[0])
        first = int(pdf["block"].iloc[0]) * ppb
        rows = []
        for c in range(width):
            keys, sid, d = sort_segment(mat[:, c], ids, bits_of[part])
            rows.append((part, first + c, keys.astype("<u4").tobytes(),
                         sid.astype("<i4").tobytes(), d.astype("<u4").tobytes()))
        return pd.DataFrame(rows, columns=["part", "position", "values", "ids", "directory"])
    return run


def build_tables(spark, signatures, sizes, out, num_perm: int,
                 n_partitions: int = DEFAULT_PARTITIONS, uppers=None,
                 max_bins: int = MAX_BINS) -> dict:
    """Spark job: partition the sets and write the banded tables.

    ``signatures``: Spark DataFrame (column_id, signature binary), one row per column;
    ``sizes``: numpy array, the size of every set (by column id); the partitioning (a
    histogram of the sizes and the DP) runs on the driver over these numbers;
    ``out``: an object with ``uri(rel)``, ``path(rel)`` and ``save_npy(rel, array)`` (the
    index writer). ``uppers``: partition upper bounds to reuse (incremental insert)
    instead of the DP. Returns the manifest section.
    """
    from pyspark.sql import functions as F

    t0 = time.time()
    m = int(num_perm)
    sizes = np.asarray(sizes, dtype=np.int64)
    ids = np.flatnonzero(sizes > 0)
    if not len(ids):
        raise ValueError("no non-empty column to index with LSH Ensemble")
    hs, hc = np.unique(sizes[ids], return_counts=True)
    mode = "delta" if uppers is not None else "full"
    if uppers is None:
        uppers = [u for _, u in optimal_partitions(hs, hc, n_partitions, max_bins)]
    uppers = [int(u) for u in uppers]
    assigned = spark.createDataFrame(pd.DataFrame({
        "column_id": ids.astype(np.int32),
        "part": assign_partitions(sizes[ids], uppers).astype(np.int32)}), "column_id int, part int")
    hpart = assign_partitions(hs, uppers)
    table = segment_layout(np.bincount(hpart, weights=hc, minlength=len(uppers)).astype(np.int64), m)
    for i in range(len(uppers)):
        sel = hpart == i
        if sel.any():
            table[i, 0], table[i, 1] = hs[sel].min(), hs[sel].max()

    ppb = _positions_per_block(m, int(table[:, 2].max()))
    n_blocks = -(-m // ppb)
    blocks = (signatures.join(F.broadcast(assigned), "column_id")
              .withColumn("block", F.explode(F.sequence(F.lit(0), F.lit(n_blocks - 1))))
              # the last block ends at position m, wherever the signature ends
              .withColumn("sig", F.expr(f"substring(signature, block * {ppb * 4} + 1, "
                                        f"least({ppb}, {m} - block * {ppb}) * 4)"))
              .select("part", "block", "column_id", "sig"))
    seg_dir = "lshensemble/_segments.parquet"
    bits_of = {i: int(table[i, 4]) for i in range(len(uppers))}
    (blocks.groupBy("part", "block")
     .applyInPandas(_sort_block(ppb, bits_of),
                    "part int, position int, values binary, ids binary, directory binary")
     .write.options(**LARGE_VALUE_PAGES).parquet(out.uri(seg_dir)))

    total = int(table[:, 2].sum()) * m
    values = np.lib.format.open_memmap(out.path("lshensemble/values.npy"), mode="w+",
                                       dtype=np.uint32, shape=(total,))
    set_ids = np.lib.format.open_memmap(out.path("lshensemble/set_ids.npy"), mode="w+",
                                        dtype=np.int32, shape=(total,))
    directory = np.zeros(_directory_length(table, m), dtype=np.uint32)
    import pyarrow.dataset as pads
    seen = 0
    for batch in pads.dataset(str(out.path(seg_dir)), format="parquet").to_batches(batch_size=64):
        d = batch.to_pydict()
        for part, pos, v, s, dr in zip(d["part"], d["position"], d["values"], d["ids"],
                                       d["directory"]):
            n_i, off, bits, doff = (int(x) for x in table[part, 2:6])
            dst = off + pos * n_i
            values[dst:dst + n_i] = np.frombuffer(v, dtype="<u4")
            set_ids[dst:dst + n_i] = np.frombuffer(s, dtype="<i4")
            nd = 2 ** bits + 1
            directory[doff + pos * nd: doff + (pos + 1) * nd] = np.frombuffer(dr, dtype="<u4")
            seen += 1
    expected = int((table[:, 2] > 0).sum()) * m
    if seen != expected:
        raise RuntimeError(f"LSH Ensemble build wrote {seen} table segments, expected "
                           f"{expected} (build bug)")
    values.flush()
    set_ids.flush()
    del values, set_ids
    shutil.rmtree(out.path(seg_dir), ignore_errors=True)
    out.save_npy("lshensemble/directory.npy", directory)
    out.save_npy("lshensemble/partitions.npy", table)
    return _section(mode, m, n_partitions, table, uppers, hs, hc, max_bins, t0)


def _section(mode, m, n_partitions, table, uppers, hs, hc, max_bins, t0) -> dict:
    """The component's manifest section."""
    return {
        "mode": mode, "num_perm": m, "partitions_requested": int(n_partitions),
        "partitions": [{"lower": int(a), "upper": int(b), "sets": int(c)}
                       for a, b, c in table[:, :3]],
        "intervals": [int(u) for u in uppers], "max_bins": int(max_bins),
        "distinct_sizes": int(len(hs)), "indexed_sets": int(hc.sum()),
        "fp_cost": round(partitioning_cost(hs, hc, uppers), 3), "bucket_size": BUCKET_SIZE,
        "layout": "per (partition, signature position): set ids sorted by fmix32(MinHash "
                  "value), with a bucket directory on the key's top bits",
        "seconds": round(time.time() - t0, 3),
    }


DRIVER_SETS = 20_000      # at most this many columns: the tables are built on the driver


def driver_tables(signatures: np.ndarray, sizes, out, n_partitions: int = DEFAULT_PARTITIONS,
                  uppers=None, max_bins: int = MAX_BINS) -> dict:
    """A small lake's tables built on the driver (:func:`reference_tables`) and written;
    returns the manifest section, as :func:`build_tables` does. Below ``DRIVER_SETS``
    columns, Spark's broadcast, shuffle and write cost more than the sorting."""
    t0 = time.time()
    sizes = np.asarray(sizes, dtype=np.int64)
    if not np.any(sizes > 0):
        raise ValueError("no non-empty column to index with LSH Ensemble")
    mode = "delta" if uppers is not None else "full"
    ref = reference_tables(np.asarray(signatures), sizes, n_partitions, uppers, max_bins)
    for name in ("values", "set_ids", "directory", "partitions"):
        out.save_npy(f"lshensemble/{name}.npy", ref[name])
    hs, hc = np.unique(sizes[sizes > 0], return_counts=True)
    return _section(mode, int(np.asarray(signatures).shape[1]), n_partitions, ref["partitions"],
                    ref["intervals"], hs, hc, max_bins, t0)


def base_intervals(base) -> list[int] | None:
    """The partition upper bounds of the LSH Ensemble of the index tables are added to
    (``ctx.base``: a LakeIndex, whose first part is the base generation; every added
    generation reuses them), or None on a full build or a base built without it."""
    if base is None:
        return None
    first = base.generations[0] if hasattr(base, "generations") else base
    if not first.has(NAME):
        return None
    return [int(u) for u in first.components[NAME]["intervals"]]


OPTIONS = {"partitions": integer_option(1), "max_bins": integer_option(1),
           "num_perm": integer_option(1)}     # at most the index's num_perm: table_num_perm


def table_num_perm(opts: dict, index_num_perm: int, base=None) -> int:
    """Signature positions the tables hold: option ``num_perm`` (default all the index's
    MinHash positions; fewer makes the tables proportionally smaller, and queries may then
    use at most that many), or the base's when adding tables to an index."""
    if base is not None:
        first = base.generations[0] if hasattr(base, "generations") else base
        if first.has(NAME):
            return int(first.components[NAME].get("num_perm", index_num_perm))
    m = opts.get("num_perm", index_num_perm)
    if not isinstance(m, int) or not 1 <= m <= index_num_perm:
        raise ValueError(f"lshensemble.num_perm is the number of signature positions the LSH "
                         f"tables hold: an integer from 1 to the index's MinHash num_perm "
                         f"({index_num_perm}); got {m!r}. For example "
                         f"`--set lshensemble.num_perm=128`.")
    return m


def _build(ctx) -> dict:
    opts = ctx.settings.component_options.get(NAME, {})
    m = table_num_perm(opts, ctx.settings.num_perm, ctx.base)
    n_part = int(opts.get("partitions", DEFAULT_PARTITIONS))
    if ctx.n_sets <= DRIVER_SETS:
        sig = np.load(ctx.writer.path("minhash/signatures.npy"), mmap_mode="r")[:, :m]
        return driver_tables(sig, ctx.arrays.set_sizes, ctx.writer, n_part,
                             uppers=base_intervals(ctx.base),
                             max_bins=int(opts.get("max_bins", MAX_BINS)))
    return build_tables(ctx.spark, ctx.signatures, ctx.arrays.set_sizes, ctx.writer, m,
                        n_partitions=n_part, uppers=base_intervals(ctx.base),
                        max_bins=int(opts.get("max_bins", MAX_BINS)))


def recorded_options(section: dict) -> dict:
    out = {"num_perm": int(section["num_perm"]), "max_bins": int(section["max_bins"])}
    if section.get("partitions_requested") is not None:
        out["partitions"] = int(section["partitions_requested"])
    return out


COMPONENT = Component(
    name=NAME, build=_build, default=True, recorded_options=recorded_options, options=OPTIONS,
    description="LSH Ensemble: optimal size partitions + MinHash tables for approximate "
                "containment search at any threshold (thesis ch. 2)")
