"""Synthetic lakes shaped like real open data (or web tables), written as Parquet.

Open-data shape (JOSIE Table 2, LSH Ensemble §2.5.1): column set sizes follow a power law
from 1 to ``max_size`` (10^5 and more), values follow a Zipf law inside their domain, and
columns draw from shared key domains (country-like, city-like, id-like) with probability
``shared`` so tables really join; the rest draw from their own private domain.
Web-table shape: many small columns (a few to ~50 values) over one large shared vocabulary
with Zipfian frequencies, so posting lists are long.

    python bench/synthetic.py OUT_DIR --columns 100000 [--shape opendata|webtable] [--seed 0]

Also importable: ``generate(out_dir, n_columns, ...)``, and ``generate_ids(n_columns, ...)``,
which returns the same column sets as integers without writing a lake.
"""
from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np


def _power_law_sizes(rng, n, alpha, lo, hi):
    """n integer sizes from a discrete power law p(x) ~ x^-alpha on [lo, hi] (inverse CDF)."""
    u = rng.random(n)
    a1 = 1.0 - alpha
    x = ((hi ** a1 - lo ** a1) * u + lo ** a1) ** (1.0 / a1)
    return np.clip(np.floor(x).astype(np.int64), lo, hi)


class _ZipfDomain:
    """A value domain of ``size`` ranks with Zipf(s) frequencies (rank 0 most frequent)."""

    def __init__(self, size: int, s: float = 1.1):
        self.size = size
        w = np.arange(1, size + 1, dtype=np.float64) ** -s
        self.cdf = np.cumsum(w) / w.sum()

    def sample_distinct(self, rng, k: int) -> np.ndarray:
        """k distinct ranks, drawn with Zipf weights without replacement."""
        k = min(k, self.size)
        if k > self.size // 2:   # dense: Gumbel top-k is exact and cheap enough here
            keys = np.log(np.diff(self.cdf, prepend=0.0)) + rng.gumbel(size=self.size)
            return np.argpartition(-keys, k - 1)[:k]
        got = np.empty(0, dtype=np.int64)
        while len(got) < k:
            draw = np.searchsorted(self.cdf, rng.random(2 * (k - len(got)) + 16))
            got = np.unique(np.concatenate([got, np.minimum(draw, self.size - 1)]))
        return rng.permutation(got)[:k]


def _columns(n_columns: int, shape: str, seed: int, max_size: int, alpha: float,
             shared: float, columns_per_table: int):
    """Yield (table number, column number, domain or -1, ranks) for every column, in order;
    the values are ``d{domain}_{rank}`` (shared domain) or ``c{column}_{rank}`` (private)."""
    rng = np.random.default_rng(seed)
    if shape == "opendata":
        sizes = _power_law_sizes(rng, n_columns, alpha, 1, max_size)
        # shared key domains of many sizes (country-like .. id-like)
        dom_sizes = np.unique(np.geomspace(50, max(1000, 4 * max_size), 24).astype(np.int64))
        domains = [_ZipfDomain(int(d)) for d in dom_sizes]
        domain_of = np.where(rng.random(n_columns) < shared,
                             rng.integers(0, len(dom_sizes), n_columns), -1)
    elif shape == "webtable":
        sizes = _power_law_sizes(rng, n_columns, 2.2, 2, 60)
        dom_sizes = np.array([max(10_000, n_columns * 2)])
        domains = [_ZipfDomain(int(dom_sizes[0]))]
        domain_of = np.zeros(n_columns, dtype=np.int64)
    else:
        raise ValueError(f"unknown shape {shape!r}")
    n_tables = math.ceil(n_columns / columns_per_table)
    col = 0
    for t in range(n_tables):
        ncols = min(columns_per_table, n_columns - col)
        if ncols <= 0:
            break
        for _ in range(ncols):
            size = int(sizes[col])
            d = int(domain_of[col])
            if d >= 0:
                size = min(size, domains[d].size)
                yield t, col, d, domains[d].sample_distinct(rng, size)
            else:
                yield t, col, d, np.arange(size)
            col += 1


def _write_tables(batch):
    """Write one batch of tables: [(path, {column name: (prefix, ranks)})]."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    for path, columns in batch:
        n_rows = max(len(r) for _, r in columns.values())
        arrays = [pa.array(np.char.add(prefix, np.resize(r, n_rows).astype(str)))
                  for prefix, r in columns.values()]
        pq.write_table(pa.Table.from_arrays(arrays, names=list(columns)), path)


def generate(out_dir, n_columns: int, *, shape: str = "opendata", seed: int = 0,
             max_size: int = 100_000, alpha: float = 1.6, shared: float = 0.5,
             columns_per_table: int = 4, files_per_dir: int = 1000, workers: int = 0):
    """Draw the columns in order (one random stream) and write them with ``workers``
    processes (0: one per core); the draws do not depend on the number of workers."""
    import multiprocessing
    import os
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    workers = workers or os.cpu_count() or 1

    def tables():
        columns, table = {}, 0
        for t, col, d, ranks in _columns(n_columns, shape, seed, max_size, alpha, shared,
                                         columns_per_table):
            if t != table and columns:
                yield table, columns
                columns = {}
            table = t
            columns[f"col{len(columns)}"] = (f"d{d}_" if d >= 0 else f"c{col}_", ranks)
        if columns:
            yield table, columns

    def batches(size=64):
        batch = []
        for t, columns in tables():
            sub = out / f"part{t // files_per_dir:04d}"
            if t % files_per_dir == 0 or not sub.exists():
                sub.mkdir(exist_ok=True)
            batch.append((sub / f"table{t:07d}.parquet", columns))
            if len(batch) == size:
                yield batch
                batch = []
        if batch:
            yield batch

    if workers == 1:
        for batch in batches():
            _write_tables(batch)
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for _ in pool.imap_unordered(_write_tables, batches(), chunksize=1):
            pass


def generate_ids(n_columns: int, *, shape: str = "opendata", seed: int = 0,
                 max_size: int = 100_000, alpha: float = 1.6, shared: float = 0.5,
                 columns_per_table: int = 4):
    """The sets :func:`generate` writes (same arguments, same draws), as integers and
    without writing a lake: (sets indptr, values), value ``d{d}_{r}`` -> ``d << 40 | r``
    and ``c{c}_{r}`` -> ``1 << 62 | c << 20 | r``. For index.arrays.build_arrays_from_ids."""
    parts, sizes = [], []
    for _, col, d, ranks in _columns(n_columns, shape, seed, max_size, alpha, shared,
                                     columns_per_table):
        r = ranks.astype(np.int64)
        parts.append((d << 40) | r if d >= 0 else (1 << 62) | (col << 20) | r)
        sizes.append(len(r))
    indptr = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=indptr[1:])
    return indptr, np.concatenate(parts) if parts else np.zeros(0, np.int64)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out_dir")
    p.add_argument("--columns", type=int, default=10_000)
    p.add_argument("--shape", choices=["opendata", "webtable"], default="opendata")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-size", type=int, default=100_000)
    p.add_argument("--alpha", type=float, default=1.6)
    a = p.parse_args(argv)
    t = time.time()
    generate(a.out_dir, a.columns, shape=a.shape, seed=a.seed, max_size=a.max_size, alpha=a.alpha)
    print(f"wrote {a.columns} columns to {a.out_dir} in {time.time() - t:.1f} s")


if __name__ == "__main__":
    main()
