"""LSH Ensemble's partitioning model: the optimal size partitions of a lake's sets.

The sets are split by size into intervals whose upper bounds serve as the size of every set
in the partition at query time; the false-positive bound of a partition (thesis Eq. 2.17-
2.18) is minimized over all partitionings by a dynamic programme over a size histogram
(Def. 2.4.2, Eq. 2.19). The Spark build (indexing/lshensemble.py) partitions with it and the
engine measures with it how far added generations have drifted (search/lshensemble.py).
Deviation: above ``MAX_BINS`` distinct sizes the histogram is binned log-spaced, so the
programme stays quadratic in the bins, not in the distinct sizes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_BINS = 2048


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
