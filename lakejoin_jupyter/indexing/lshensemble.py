"""Index component "lshensemble": LSH Ensemble's size partitions and banded MinHash tables
(thesis ch. 2, §2.4; digest notes/lshensemble_autojoin.md §1.6-1.9, §6 items 4-5, 9).

What is built
-------------
1. **Optimal partitioning by set size** (§2.4.6, Def. 2.4.2, Eq. 2.17-2.19). The sizes of
   the non-empty sets (the core's set sizes) are counted per distinct size; on the driver a
   dynamic programme splits the sorted distinct sizes into ``n`` contiguous intervals
   ``[l_i, u_i]`` minimizing the query-independent false-positive bound
   ``sum_i sum_{x in [l_i,u_i]} N_x (1 - x/u_i)``. Each interval's cost is O(1) from prefix
   sums of ``N_x`` and ``x N_x``; the DP is ``O(B^2 n)`` vectorized over ``B`` bins.
   Binning (so 10^5 distinct sizes stay cheap): above ``max_bins`` distinct sizes, sizes
   are grouped into log-spaced bins and partition boundaries are restricted to bin edges.
   Costs stay exact (each bin keeps its own ``sum N_x``, ``sum x N_x`` and its largest
   size); only the set of admissible boundaries shrinks. With 2048 bins over sizes
   1..10^7 a bin spans a size ratio below 0.8 %, and sizes below ~130 keep their own bin.
2. **Banded tables for query-time (b, r)** (§2.4.7, LSH Forest style). For every partition
   and every signature position ``p`` the table holds the partition's set ids sorted by
   their MinHash value at ``p`` (``values.npy`` uint32, ``set_ids.npy`` int32). A band
   ``j`` of ``r`` rows covers positions ``[j r, j r + r)``: the query finds the sets that
   agree on the band's first value by binary search in the table of position ``j r`` (the
   root level of an LSH Forest prefix tree) and keeps those that also agree on the other
   ``r - 1`` values, read from the core index's signature matrix (the deeper tree levels).
   So one structure serves every ``(b, r)`` with ``b r <= m``, any threshold, no rebuild;
   the search module picks ``(b, r)`` per query and partition.
   Deviation from LSH Forest (Bawa et al.) and from the authors' Go/datasketch code: no
   separate prefix trees per band width (the Go "Plus" variant keeps one LSH per r, datasketch
   one MinHashLSH per distinct optimal r with r <= 8): every position is a root, the rest of
   the prefix is compared against the signatures, which are in the index anyway. Memory is
   ``8 m`` bytes per set (2 KiB at m = 256) whatever the range of r.
3. **Incremental insert** (generations). When ``ctx.base`` is set (``lakejoin index --add``
   builds a generation for tables added later), the base's partition intervals are reused: a new set of
   size x goes to the first partition whose upper bound is >= x (sizes falling between two
   base partitions go to the upper one, whose bound already covers them); sizes above the
   base's largest bound go to the last partition, whose upper bound is widened. Each
   partition records the largest size it actually holds, and the search translates with
   that (§2.4.2: the bound must be >= every size in the partition, or the translation
   creates false negatives). Drift and the rebuild advice: search/lshensemble.py.

Layout on disk (``lshensemble/``): ``partitions.npy`` int64 ``(n, 6)`` rows
``(lower, upper, n_sets, offset, dir_bits, dir_offset)``; partition i, position p is the
slice ``offset_i + p n_i .. offset_i + (p+1) n_i`` of ``values.npy`` (uint32 keys
``fmix32(MinHash value)``, sorted) / ``set_ids.npy`` (int32); ``directory.npy`` (uint32)
holds, per segment, the start of each of its ``2^dir_bits`` key buckets (top bits of the
key, about ``BUCKET_SIZE`` entries each), so a lookup is one directory read plus a binary
search inside one bucket.

Default component: the build is one Spark pass over the signatures (a shuffle of
``n_sets x m`` 32-bit values plus ids) whose cost is a fraction of the core build's,
which already shuffles every (column, value) cell several times; see bench/results/lshensemble.md.
"""
from __future__ import annotations

import shutil
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..hashing import fmix32
from .component import Component

DEFAULT_PARTITIONS = 32      # thesis §2.5.3 / §3.5.4: 8, 16, 32; 32 is the most precise
MAX_BINS = 2048
BUCKET_SIZE = 8              # mean entries per directory bucket of a table segment
NAME = "lshensemble"


# --------------------------------------------------------------------------- partitioning

@dataclass
class SizeBins:
    """A set-size histogram grouped into bins (each bin: a run of distinct sizes)."""
    lower: np.ndarray     # smallest size in the bin
    upper: np.ndarray     # largest size in the bin
    count: np.ndarray     # sum of N_x over the bin
    weight: np.ndarray    # sum of x N_x over the bin


def size_bins(sizes, counts, max_bins: int = MAX_BINS) -> SizeBins:
    """Group distinct ``sizes`` (with ``counts`` sets each) into at most ``max_bins`` bins:
    one bin per distinct size when there are few enough, else log-spaced bins."""
    sizes = np.asarray(sizes, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.float64)
    order = np.argsort(sizes)
    sizes, counts = sizes[order], counts[order]
    if len(sizes) and sizes[0] < 1:
        raise ValueError("set sizes must be positive (empty sets are not indexed)")
    if len(sizes) <= max_bins:
        return SizeBins(sizes, sizes.copy(), counts, sizes * counts)
    logs = np.log(sizes.astype(np.float64))
    span = logs[-1] - logs[0]
    bin_of = np.floor((logs - logs[0]) / span * (max_bins - 1) + 1e-9).astype(np.int64)
    starts = np.flatnonzero(np.r_[True, np.diff(bin_of) > 0])
    return SizeBins(lower=sizes[starts], upper=np.maximum.reduceat(sizes, starts),
                    count=np.add.reduceat(counts, starts),
                    weight=np.add.reduceat(sizes * counts, starts))


def interval_costs(bins: SizeBins) -> np.ndarray:
    """``cost[i, j]`` = sum over bins i..j of N_x (1 - x/u), u = upper size of bin j
    (Eq. 2.18, single partition); +inf where i > j."""
    c = np.r_[0.0, np.cumsum(bins.count)]
    w = np.r_[0.0, np.cumsum(bins.weight)]
    n = c[1:][None, :] - c[:-1][:, None]
    xw = w[1:][None, :] - w[:-1][:, None]
    cost = n - xw / bins.upper[None, :].astype(np.float64)
    cost[np.tril_indices(len(bins.count), -1)] = np.inf
    return np.maximum(cost, 0.0, where=np.isfinite(cost), out=cost)


def optimal_partitions(sizes, counts, n_partitions: int, max_bins: int = MAX_BINS
                       ) -> list[tuple[int, int]]:
    """Optimal partitioning (Def. 2.4.2) of the set sizes into at most ``n_partitions``
    contiguous intervals ``(lower, upper)``, by the dynamic programme of Eq. 2.19."""
    if n_partitions < 1:
        raise ValueError("n_partitions must be at least 1")
    bins = size_bins(sizes, counts, max_bins)
    nb = len(bins.count)
    if nb == 0:
        return []
    n = min(n_partitions, nb)
    cost = interval_costs(bins)
    best = cost[0].copy()                  # best[j]: 1 partition over bins 0..j
    back = np.zeros((n, nb), dtype=np.int64)
    for p in range(1, n):
        # new last partition starts at bin i >= p; the first p partitions cover 0..i-1
        prev = np.full(nb, np.inf)
        prev[p:] = best[p - 1:nb - 1]
        total = prev[:, None] + cost
        arg = np.argmin(total, axis=0)
        best = total[arg, np.arange(nb)]
        back[p] = arg
    starts = [0] * n
    j = nb - 1
    for p in range(n - 1, 0, -1):
        starts[p] = int(back[p, j])
        j = starts[p] - 1
    ends = starts[1:] + [nb]
    return [(int(bins.lower[s]), int(bins.upper[e - 1])) for s, e in zip(starts, ends)]


def partitioning_cost(sizes, counts, uppers) -> float:
    """Eq. 2.17 for sizes assigned by the partition upper bounds ``uppers`` (ascending):
    a size goes to the first partition whose bound is >= it (the last takes the rest),
    and each partition is charged with its largest actual size."""
    sizes = np.asarray(sizes, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    part = np.minimum(np.searchsorted(np.asarray(uppers), sizes, side="left"), len(uppers) - 1)
    umax = np.zeros(len(uppers))
    np.maximum.at(umax, part, sizes)
    return float(np.sum(counts * (1.0 - sizes / umax[part])))


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
     .write.parquet(out.uri(seg_dir)))

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
    cost = partitioning_cost(hs, hc, uppers)
    return {
        "mode": mode, "num_perm": m, "partitions_requested": int(n_partitions),
        "partitions": [{"lower": int(a), "upper": int(b), "sets": int(c)}
                       for a, b, c in table[:, :3]],
        "intervals": uppers, "max_bins": int(max_bins),
        "distinct_sizes": int(len(hs)), "indexed_sets": int(hc.sum()),
        "fp_cost": round(cost, 3), "bucket_size": BUCKET_SIZE,
        "layout": "per (partition, signature position): set ids sorted by fmix32(MinHash "
                  "value), with a bucket directory on the key's top bits",
        "seconds": round(time.time() - t0, 3),
    }


def base_intervals(base) -> list[int] | None:
    """The partition upper bounds of the LSH Ensemble of the index tables are added to
    (``ctx.base``: a LakeIndex, whose first part is the base generation; every added
    generation reuses them), or None on a full build or a base built without it."""
    if base is None:
        return None
    first = base.parts[0] if hasattr(base, "parts") else base
    if not first.has(NAME):
        return None
    return [int(u) for u in first.components[NAME]["intervals"]]


OPTIONS = ("partitions", "max_bins", "num_perm")


def table_num_perm(opts: dict, index_num_perm: int, base=None) -> int:
    """Signature positions the tables hold: option ``num_perm`` (default all the index's
    MinHash positions; fewer makes the tables proportionally smaller, and queries may then
    use at most that many), or the base's when adding tables to an index."""
    if base is not None:
        first = base.parts[0] if hasattr(base, "parts") else base
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
    unknown = sorted(set(opts) - set(OPTIONS))
    if unknown:
        raise ValueError(f"Unknown lshensemble option(s) {unknown}; known: {list(OPTIONS)}")
    m = table_num_perm(opts, ctx.settings.num_perm, ctx.base)
    n_part = int(opts.get("partitions", DEFAULT_PARTITIONS))
    return build_tables(ctx.spark, ctx.signatures, ctx.arrays.set_sizes, ctx.writer, m,
                        n_partitions=n_part, uppers=base_intervals(ctx.base),
                        max_bins=int(opts.get("max_bins", MAX_BINS)))


COMPONENT = Component(
    name=NAME, build=_build, default=True,
    description="LSH Ensemble: optimal size partitions + MinHash tables for approximate "
                "containment search at any threshold (thesis ch. 2)")
