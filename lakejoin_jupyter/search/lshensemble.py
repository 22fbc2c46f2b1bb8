"""LSH Ensemble: approximate threshold containment search, verified and ranked.

Zhu et al., VLDB 2016, as in Zhu's thesis ch. 2 (§2.4): per size partition [l_i, u_i] of
the build, skip it when ``u_i < t*|Q|``, choose (b_i, r_i) minimizing the weighted FP + FN
of Eq. 2.23-2.26 (tabulated once, looked up per query), probe the banded tables, drop
candidates smaller than t*|Q|, then verify exactly (search/containment.py) and rank by
containment. ``lshensemble-topk`` descends thresholds 1.0, 0.95, ... (thesis §3.5.4).

Note:
    Deviations (the why and the figures: docs/algorithms/lshensemble.md):
    - False negatives weigh 0.9 against false positives 0.1 (``fn_weight=0.5``: the thesis).
    - (b, r) for t* above 0.9 is tuned at 0.9 (the partition skip and size filter use t*).
    - (b, r) comes from a grid of x/|Q| with ratio 1.01, rounded up (conservative).
    - ``route="auto"`` answers by the exact prefix filter when its fitted cost is lower.
    - ``rebuild_advice`` flags added generations that drifted from the base's partitions.
"""
from __future__ import annotations

import math
import threading
import time
import weakref
from dataclasses import dataclass, field

import numpy as np

from ..errors import ComponentMissingError, QueryError
from ..hashing import fmix32, minhash_of_tokens
from .containment import (distinct_query, exact_overlaps, min_overlap, prefix_entries_estimate,
                          prefix_filter_search, prefix_lists, without)
from .registry import Candidate, ParamSpec, SearchMethod

COMPONENT = "lshensemble"
GRID_POINTS = 2048            # sigma grid of the tabulated objective
FN_WEIGHT = 0.9               # weight of FN against FP when choosing (b, r); thesis: 0.5
TUNE_MAX = 0.9                # (b, r) for t* above this is tuned at this threshold
TOPK_STEP = 0.05              # threshold descent step (thesis §3.5.4)


# ------------------------------------------------------------------ (b, r) optimizer

def sigma_grid(k: int = GRID_POINTS) -> np.ndarray:
    """Chebyshev points on [0, 1]: dense near 0 (large b, r = 1) and near 1 (large r)."""
    return (1.0 - np.cos(np.pi * np.arange(k + 1) / k)) / 2.0


@dataclass
class ObjectiveTable:
    """G_{b,r}(sigma) for every (b, r) with b r <= m (derived in
    docs/algorithms/lshensemble.md)."""
    m: int
    b: np.ndarray                 # int, one per pair
    r: np.ndarray
    grid: np.ndarray              # sigma grid
    g: np.ndarray                 # float32 [grid, pairs] (a query reads whole rows)

    @classmethod
    def compute(cls, m: int, k: int = GRID_POINTS) -> "ObjectiveTable":
        grid = sigma_grid(k)
        w = 1.0 / (1.0 + grid) ** 2
        bs, rs, gs = [], [], []
        dx = np.diff(grid)
        for r in range(1, m + 1):
            nb = m // r
            y = 1.0 - grid ** r                          # P(no collision in one band)
            powers = np.cumprod(np.broadcast_to(y, (nb, len(grid))), axis=0)   # y^b, b=1..nb
            f = (1.0 - powers) * w
            g = np.zeros_like(f)
            np.cumsum((f[:, 1:] + f[:, :-1]) * (dx / 2.0), axis=1, out=g[:, 1:])
            bs.append(np.arange(1, nb + 1))
            rs.append(np.full(nb, r))
            gs.append(g)
        return cls(m=m, b=np.concatenate(bs), r=np.concatenate(rs), grid=grid,
                   g=np.ascontiguousarray(np.concatenate(gs).T, dtype=np.float32))

    def at(self, sigma: np.ndarray) -> np.ndarray:
        """G of every pair at each sigma: [len(sigma), pairs] (linear interpolation)."""
        sigma = np.clip(np.asarray(sigma, dtype=np.float64), 0.0, 1.0)
        k = len(self.grid) - 1
        pos = np.arccos(np.clip(1.0 - 2.0 * sigma, -1.0, 1.0)) * (k / np.pi)
        i = np.clip(np.floor(pos).astype(np.int64), 0, k - 1)
        lo, hi = self.grid[i], self.grid[i + 1]
        frac = np.clip((sigma - lo) / (hi - lo), 0.0, 1.0).astype(self.g.dtype)[:, None]
        g0 = self.g[i]
        out = self.g[i + 1] - g0
        out *= frac
        out += g0
        return out


_TABLES: dict = {}
_TABLES_LOCK = threading.Lock()


def objective_table(m: int) -> ObjectiveTable:
    with _TABLES_LOCK:
        if m not in _TABLES:
            _TABLES[m] = ObjectiveTable.compute(m)
        return _TABLES[m]


def _sigma(t, xq):
    """Jaccard of a set of size x with containment t of Q (Eq. 2.7), xq = x/|Q|."""
    return t / (xq + 1.0 - t)


def _limits(xq: np.ndarray, t: float):
    """Integration limits of Eq. 2.23/2.24 mapped to Jaccard: sigma(min(t*, x/q)),
    sigma(t*) (capped at x/q), sigma(min(1, x/q)); plus the scale x/q + 1."""
    a = np.minimum(t, xq)
    c = np.minimum(1.0, xq)
    return (np.concatenate([_sigma(a, xq), _sigma(np.minimum(t, c), xq), _sigma(c, xq)]),
            xq + 1.0, c)


def fp_fn(xq: np.ndarray, t: float, table: ObjectiveTable) -> tuple[np.ndarray, np.ndarray]:
    """FP and FN areas (Eq. 2.23, 2.24) of every (b, r) pair for each x/q ratio:
    arrays [len(xq), pairs]."""
    xq = np.asarray(xq, dtype=np.float64)
    n = len(xq)
    sig, scale, c = _limits(xq, t)
    g = table.at(sig).astype(np.float64)
    fp = scale[:, None] * g[:n]
    fn = (c - t)[:, None] - scale[:, None] * (g[2 * n:] - g[n:2 * n])
    fn[xq < t] = 0.0
    return fp, np.maximum(fn, 0.0, out=fn)


def optimal_params(xq, t: float, m: int, *, max_r: int | None = None,
                   fn_weight: float = FN_WEIGHT, table: ObjectiveTable | None = None):
    """(b, r, fp, fn, recall) per x/q ratio minimizing (1-w) FP + w FN subject to b r <= m
    (Eq. 2.26 with x = u_i; w = 0.5 is the thesis' unweighted sum). ``recall`` is the
    model's expected recall of the chosen (b, r) for sets of size x, 1 - FN / (min(1, x/q)
    - t*), or the candidate probability at t = min(1, x/q) when that interval is empty."""
    table = table or objective_table(m)
    xq = np.asarray(xq, dtype=np.float64)
    n = len(xq)
    sig, scale, c = _limits(xq, t)
    g = table.at(sig)
    w = fn_weight
    # (1-w) FP + w FN = scale ((1-w) G(a) - w (G(c) - G(t))) + w (c - t), FN only if x/q >= t*
    obj = g[:n] * np.float32(1.0 - w)
    d = g[2 * n:] - g[n:2 * n]
    d *= np.float32(w)
    d[xq < t] = 0.0
    obj -= d
    obj *= scale[:, None].astype(np.float32)
    ok = table.b * table.r <= m
    if max_r is not None:
        ok &= table.r <= max_r
    if not ok.all():
        obj[:, ~ok] = np.inf
    best = np.argmin(obj, axis=1)
    b, r = table.b[best], table.r[best]
    rows = np.arange(n)
    fp = scale * g[:n][rows, best]
    fn = np.where(xq >= t, np.maximum(0.0, (c - t) - scale * (g[2 * n:][rows, best]
                                                              - g[n:2 * n][rows, best])), 0.0)
    width = c - t
    p_c = 1.0 - (1.0 - _sigma(c, xq) ** r) ** b
    recall = np.where(xq < t, 1.0, np.where(width > 1e-9, 1.0 - fn / np.maximum(width, 1e-9), p_c))
    return b, r, fp, fn, recall


XQ_GRID_RATIO = 1.01          # query-time (b, r): x/|Q| rounded up to this geometric grid
XQ_GRID_RANGE = (1e-7, 1e8)         # set sizes 1..1e8, query sizes 1..1e7


GRID_CHUNK = 256              # grid points minimized together (a chunk is filled on first use)


@dataclass
class ParamGrid:
    """The optimum of :func:`optimal_params` tabulated over a geometric grid of x/|Q| for
    one (m, t*, weight, max_r): what "pre-computed offline" (§2.4.7) means here. A query
    looks its partitions' ratios up (rounded up to the next grid point, i.e. x taken at
    most 1 % larger, the conservative side of §2.4.2) instead of minimizing over every
    (b, r) pair again, which was most of the candidate stage's time. The grid is filled a
    chunk of :data:`GRID_CHUNK` points at a time, when a lookup first needs it: a query
    touches a few chunks, so a first query no longer pays for the whole grid."""
    xq: np.ndarray
    b: np.ndarray
    r: np.ndarray
    recall: np.ndarray
    done: np.ndarray              # bool per chunk
    spec: tuple                   # (t, m, max_r, fn_weight, table)

    @classmethod
    def compute(cls, t: float, m: int, *, max_r, fn_weight, table) -> "ParamGrid":
        lo, hi = XQ_GRID_RANGE
        xq = np.exp(np.arange(math.log(lo), math.log(hi) + math.log(XQ_GRID_RATIO),
                              math.log(XQ_GRID_RATIO)))
        n = len(xq)
        return cls(xq=xq, b=np.zeros(n, np.int64), r=np.zeros(n, np.int64),
                   recall=np.zeros(n, np.float64),
                   done=np.zeros(-(-n // GRID_CHUNK), dtype=bool),
                   spec=(t, m, max_r, fn_weight, table))

    def _fill(self, chunks) -> None:
        t, m, max_r, fn_weight, table = self.spec
        for c in chunks:
            if self.done[c]:
                continue
            sl = slice(c * GRID_CHUNK, (c + 1) * GRID_CHUNK)
            b, r, _, _, rec = optimal_params(self.xq[sl], t, m, max_r=max_r,
                                             fn_weight=fn_weight, table=table)
            self.b[sl], self.r[sl], self.recall[sl] = b, r, rec
            self.done[c] = True     # two threads filling one chunk write the same values

    def lookup(self, xq: np.ndarray):
        """(b, r, predicted recall) at each ratio, rounded up to the grid."""
        i = np.minimum(np.searchsorted(self.xq, np.asarray(xq) * (1.0 - 1e-12)),
                       len(self.xq) - 1)
        self._fill(np.unique(i // GRID_CHUNK).tolist())
        return self.b[i], self.r[i], self.recall[i]


_GRIDS: dict = {}


def param_grid(t: float, m: int, table_m: int, *, max_r: int | None = None,
               fn_weight: float = FN_WEIGHT) -> ParamGrid:
    """The (cached) :class:`ParamGrid` of one threshold and objective."""
    key = (round(float(t), 12), int(m), int(table_m), max_r, round(float(fn_weight), 12))
    g = _GRIDS.get(key)
    if g is None:
        g = ParamGrid.compute(t, m, max_r=max_r, fn_weight=fn_weight,
                              table=objective_table(table_m))
        with _TABLES_LOCK:
            if len(_GRIDS) > 256:
                _GRIDS.clear()
            _GRIDS[key] = g
    return g


def partition_params(upper: np.ndarray, q_size: int, t: float, m: int, table_m: int, *,
                     max_r: int | None = None, fn_weight: float = FN_WEIGHT):
    """(b, r, predicted recall) for partitions with upper size bounds ``upper`` and a query
    of ``q_size`` values at threshold t (tuned at min(t, TUNE_MAX)), from the grid."""
    g = param_grid(min(t, TUNE_MAX), m, table_m, max_r=max_r, fn_weight=fn_weight)
    return g.lookup(np.asarray(upper, dtype=np.float64) / q_size)


# ------------------------------------------------------------------ tables

@dataclass
class Tables:
    """The component's arrays (memory-mapped) plus what the search needs around them."""
    partitions: np.ndarray        # int64 (n, 6): lower, upper, n_sets, offset, dir bits, dir offset
    values: np.ndarray            # uint32 keys fmix32(MinHash value), see indexing/lshensemble.py
    set_ids: np.ndarray           # int32
    directory: np.ndarray         # uint32 bucket starts per segment
    num_perm: int
    seed: int

    @classmethod
    def load(cls, index) -> "Tables":
        cached = _LOADED.get(index)
        if cached is not None:
            return cached
        if not index.has(COMPONENT):
            from ..index.store import rebuild_command
            raise ComponentMissingError(
                f"{index.path} was built without the LSH Ensemble component; rebuild it with "
                f"{rebuild_command(index.path, index.manifest, COMPONENT)}.")
        mh = index.components["minhash"]
        # the tables may hold fewer signature positions than the index (build option num_perm)
        m = int(index.components[COMPONENT].get("num_perm", mh["num_perm"]))
        # np.asarray: plain ndarray views of the memory maps (np.memmap indexing is slower)
        t = cls(partitions=np.asarray(index.load_npy("lshensemble/partitions.npy", mmap=False)),
                values=np.asarray(index.load_npy("lshensemble/values.npy")),
                set_ids=np.asarray(index.load_npy("lshensemble/set_ids.npy")),
                directory=np.asarray(index.load_npy("lshensemble/directory.npy")),
                num_perm=m, seed=int(mh["seed"]))
        t.check(index)
        _LOADED[index] = t
        return t

    def check(self, index) -> None:
        """Bounds of every value that sizes or indexes the search's arrays: a damaged
        index (opened without checksum verification) fails here, clearly."""
        from ..index.store import check_ok, check_range
        path, rel, p, m = index.path, "lshensemble/partitions.npy", self.partitions, self.num_perm
        check_ok(path, rel, p.ndim == 2 and p.shape[1] == 6 and p.dtype.kind in "iu",
                 f"{p.dtype} array of shape {p.shape}, expected (n, 6) integers")
        check_ok(path, "lshensemble/set_ids.npy", len(self.set_ids) == len(self.values),
                 f"{len(self.set_ids)} ids for {len(self.values)} values")
        check_ok(path, "manifest", 0 < m <= index.signatures.shape[1],
                 f"the tables use {m} signature positions of {index.signatures.shape[1]}")
        for lower, upper, n, offset, bits, dir_offset in p.tolist():
            # an empty partition (a delta whose added sets are all smaller) has no directory
            check_ok(path, rel, 0 <= n <= len(self.values) and 0 <= offset
                     and offset + m * n <= len(self.values) and 0 <= bits <= 32
                     and 0 <= dir_offset and (n == 0 or dir_offset + m * ((1 << bits) + 1)
                                              <= len(self.directory)),
                     f"a partition ({n} sets at {offset}, {bits} directory bits at {dir_offset}) "
                     f"lies outside the tables")
        check_range(path, "lshensemble/set_ids.npy", self.set_ids, 0, index.n_sets)
        check_range(path, "lshensemble/directory.npy", self.directory, 0,
                    int(p[:, 2].max()) + 1 if len(p) else 1)

    @classmethod
    def from_reference(cls, ref: dict, num_perm: int, seed: int = 1) -> "Tables":
        return cls(partitions=ref["partitions"], values=ref["values"], set_ids=ref["set_ids"],
                   directory=ref["directory"], num_perm=num_perm, seed=seed)


_LOADED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def segment_lower_bound(values: np.ndarray, start: np.ndarray, length: np.ndarray,
                        key: np.ndarray) -> np.ndarray:
    """For each i, the first index j in [start_i, start_i + length_i) with
    values[j] >= key_i (or the segment end): many binary searches at once."""
    lo = np.asarray(start, dtype=np.int64).copy()
    length = np.asarray(length, dtype=np.int64)
    hi = lo + length
    key = np.asarray(key, dtype=np.int64)
    if len(lo) == 0 or len(values) == 0:
        return lo
    last = len(values) - 1
    for _ in range(int(length.max()).bit_length()):     # each step halves every interval
        mid = (lo + hi) >> 1
        act = lo < hi
        less = values[np.minimum(mid, last)] < key
        lo = np.where(act & less, mid + 1, lo)
        hi = np.where(act & ~less, mid, hi)
    return lo


def segment_bounds(values, start, length, key) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper bounds of each key in its segment (one vectorized search)."""
    n = len(start)
    both = segment_lower_bound(values, np.concatenate([start, start]),
                               np.concatenate([length, length]),
                               np.concatenate([key, np.asarray(key, dtype=np.int64) + 1]))
    return both[:n], both[n:]


SHORT_BUCKET = 32             # 4x the build's mean bucket size (BUCKET_SIZE)
WINDOW_MAX = 1024            # buckets up to this long are matched by 2-D comparison
PREFIX_CELLS_MAX = 1 << 16    # (entry, row) cells compared at once in prefix_agree


def bucket_matches(values: np.ndarray, start: np.ndarray, length: np.ndarray,
                   key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions j in [start_i, start_i + length_i) with values[j] == key_i, and the i of
    each. Buckets are compared whole in 2-D blocks grouped by length (the directory keeps
    them at about ``BUCKET_SIZE`` entries; a MinHash value shared by many sets makes a few
    of them longer); only buckets longer than ``WINDOW_MAX`` take a binary search."""
    empty = np.zeros(0, dtype=np.int64)
    if len(start) == 0 or len(values) == 0:
        return empty, empty
    entries, bands = [], []
    short = length <= SHORT_BUCKET
    groups = [np.flatnonzero(short)]
    if not short.all():
        groups.append(np.flatnonzero(~short & (length <= WINDOW_MAX)))
    for g in groups:
        if len(g) == 0:
            continue
        ln = length[g]
        off = np.arange(int(ln.max()))
        idx = start[g, None] + off
        hit = (off < ln[:, None]) & (values[np.minimum(idx, len(values) - 1)] == key[g, None])
        row, _ = np.nonzero(hit)
        entries.append(idx[hit])
        bands.append(g[row])
    lb = np.flatnonzero(length > WINDOW_MAX)
    if len(lb):
        lo, hi = segment_bounds(values, start[lb], length[lb], key[lb].astype(np.int64))
        counts = hi - lo
        entries.append(np.repeat(lo - np.cumsum(counts) + counts, counts)
                       + np.arange(int(counts.sum())))
        bands.append(np.repeat(lb, counts))
    if len(entries) == 1:
        return entries[0], bands[0]
    return np.concatenate(entries), np.concatenate(bands)


def prefix_agree(signatures: np.ndarray, sig_q: np.ndarray, ids: np.ndarray,
                 pos0: np.ndarray, r: np.ndarray) -> np.ndarray:
    """The ids whose signature agrees with the query on rows pos0 + 1 .. pos0 + r - 1 of
    their band (the deeper levels of the LSH Forest prefix tree; row pos0 matched in the
    table). Row pos0 + 1 is compared alone first (it drops most entries), the rest in one
    2-D comparison when it is small, else one row at a time."""
    rmax = int(r.max()) if len(r) else 1
    if rmax <= 1:
        return ids
    width = signatures.shape[1]
    # row 1 alone first: most entries share only the band's first value with the query
    p1 = np.minimum(pos0 + 1, width - 1)
    ok = (signatures.reshape(-1)[ids * width + p1] == sig_q[p1]) | (r <= 1)
    if not ok.all():
        ids, pos0, r = ids[ok], pos0[ok], r[ok]
        rmax = int(r.max()) if len(r) else 1
    if rmax <= 2:
        return ids
    if len(ids) * (rmax - 2) <= PREFIX_CELLS_MAX:
        depth = np.arange(2, rmax)
        pos = np.minimum(pos0[:, None] + depth, signatures.shape[1] - 1)
        cell = ids[:, None] * signatures.shape[1] + pos
        agree = (signatures.reshape(-1)[cell] == sig_q[pos]) | (depth >= r[:, None])
        return ids[agree.all(axis=1)]
    sig_flat = signatures.reshape(-1)
    depth = 2
    while True:
        deeper = np.flatnonzero(r > depth)
        if len(deeper) == 0:
            return ids
        p = pos0[deeper] + depth
        bad = deeper[sig_flat[ids[deeper] * width + p] != sig_q[p]]
        if len(bad):
            keep = np.ones(len(ids), dtype=bool)
            keep[bad] = False
            ids, pos0, r = ids[keep], pos0[keep], r[keep]
        depth += 1


@dataclass
class Probe:
    """Candidate generation of one query at one threshold: the plan (which partitions,
    which (b, r)) and, once probed, the candidates."""
    ids: np.ndarray                       # distinct candidate set ids (sorted)
    params: list = field(default_factory=list)   # (partition, upper, b, r, recall, scanned)
    skipped: int = 0                      # partitions skipped (u_i < t*|Q|)
    scanned: int = 0                      # partitions taken whole (predicted recall too low)
    raw: int = 0                          # candidates before the size filter
    bands: int = 0                        # table lookups (bands over probed partitions)
    need: int = 1                         # least overlap (and set size) of an answer
    live: np.ndarray = None               # probed partitions, their b and r, taken whole
    b: np.ndarray = None
    r: np.ndarray = None
    scan: np.ndarray = None


def plan_probe(tables: Tables, q_size: int, t: float, *, num_perm: int | None = None,
               max_r: int | None = None, fn_weight: float = FN_WEIGHT,
               min_recall: float = 0.0) -> Probe:
    """Query steps 1-2 (docs/algorithms/lshensemble.md): the partitions to probe and their
    (b, r)."""
    m = int(num_perm or tables.num_perm)
    if not 1 <= m <= tables.num_perm:
        raise QueryError(f"num_perm must be between 1 and {tables.num_perm} (got {m}).")
    part = tables.partitions
    need = min_overlap(t, q_size)              # |Q ∩ X| >= t*|Q| needs |X| >= need
    live = np.flatnonzero((part[:, 2] > 0) & (part[:, 1] >= need))
    out = Probe(ids=np.zeros(0, dtype=np.int64), need=need, live=live,
                skipped=int(np.sum(part[:, 2] > 0) - len(live)))
    if len(live) == 0:
        return out
    upper = part[live, 1].astype(np.float64)
    out.b, out.r, recall = partition_params(upper, q_size, t, m, tables.num_perm, max_r=max_r,
                                            fn_weight=fn_weight)
    out.scan = recall < min_recall
    out.params = list(zip(live.tolist(), part[live, 1].tolist(), out.b.tolist(),
                          out.r.tolist(), recall.tolist(), out.scan.tolist()))
    out.scanned = int(out.scan.sum())
    out.bands = int(out.b[~out.scan].sum())
    return out


def probe(tables: Tables, signatures: np.ndarray, set_sizes: np.ndarray, sig_q: np.ndarray,
          q_size: int, t: float, *, plan: Probe | None = None, **opts) -> Probe:
    """LSH Ensemble candidates (query steps 1-3 of docs/algorithms/lshensemble.md), by
    ``plan`` (else :func:`plan_probe` with ``opts``). A partition whose predicted recall (see
    :func:`optimal_params`) is below ``min_recall`` contributes all its sets that are large
    enough instead of its LSH candidates."""
    out = plan or plan_probe(tables, q_size, t, **opts)
    if len(out.live) == 0:
        return out
    part, need = tables.partitions, out.need
    live, b, r, scan = out.live, out.b, out.r, out.scan
    whole = []
    if out.scanned:
        whole = [np.asarray(tables.set_ids[part[i, 3]:part[i, 3] + part[i, 2]], dtype=np.int64)
                 for i in live[scan]]
        live, b, r = live[~scan], b[~scan], r[~scan]
    # one lookup per (partition, band): the band's first position j*r, by the bucket
    # directory of that table segment, then the bucket's entries equal to the key
    band_part = np.repeat(live, b)
    band_r = np.repeat(r, b)
    band_j = np.arange(len(band_part)) - np.repeat(np.cumsum(b) - b, b)
    pos0 = band_j * band_r
    pp = part[band_part]
    n_i, bits = pp[:, 2], pp[:, 4]
    seg = pp[:, 3] + pos0 * n_i
    key = fmix32(sig_q[pos0])
    bucket = key.astype(np.int64) >> (32 - bits)
    d = pp[:, 5] + pos0 * ((1 << bits) + 1) + bucket
    start = seg + tables.directory[d]
    length = tables.directory[d + 1].astype(np.int64) - tables.directory[d]
    entry, band = bucket_matches(tables.values, start, length, key)
    ids = tables.set_ids[entry].astype(np.int64)
    ids = prefix_agree(signatures, sig_q, ids, pos0[band], band_r[band])
    ids = np.unique(np.concatenate([ids] + whole)) if whole else np.unique(ids)
    out.raw = len(ids)
    out.ids = ids[set_sizes[ids] >= need]
    return out


# ------------------------------------------------------------------ verification

def estimated_containment(signatures: np.ndarray, set_sizes: np.ndarray, ids: np.ndarray,
                          sig_q: np.ndarray, q_size: int, m: int) -> np.ndarray:
    """Containment from the MinHash Jaccard estimate (Eq. 2.3) translated by Eq. 2.7,
    clipped to [0, min(1, |X|/|Q|)]."""
    if len(ids) == 0:
        return np.zeros(0)
    same = np.add.reduce(np.equal(signatures[ids, :m], sig_q[:m]), axis=1)   # j = same / m
    x = set_sizes[ids]
    est = (x + q_size) * (same / ((m + same) * q_size))   # (|X|/|Q| + 1) j / (1 + j), >= 0
    return np.minimum(est, np.minimum(x, q_size) / q_size, out=est)


# ------------------------------------------------------------------ search

@dataclass
class Context:
    """Everything a search reads, so tests can run without an on-disk index."""
    arrays: object
    signatures: np.ndarray
    tables: Tables
    set_sizes: np.ndarray

    @classmethod
    def of(cls, index) -> "Context":
        """The search context of an opened index (cached; plain views of its memory maps)."""
        ctx = _CONTEXTS.get(index)
        if ctx is None:
            base = cls.of_arrays(index)
            ctx = cls(arrays=base.arrays, signatures=base.signatures, tables=Tables.load(index),
                      set_sizes=base.set_sizes)
            _CONTEXTS[index] = ctx
        return ctx

    @classmethod
    def of_arrays(cls, index) -> "Context":
        """The core arrays of an index as plain ndarray views, without the tables."""
        from dataclasses import fields as _fields
        a = index.arrays
        arrays = type(a)(**{f.name: np.asarray(getattr(a, f.name)) for f in _fields(a)})
        return cls(arrays=arrays, signatures=np.asarray(index.signatures), tables=None,
                   set_sizes=np.diff(arrays.sets_indptr))


_CONTEXTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


ROUTES = ("auto", "lsh", "exact")
# Routing cost model, microseconds: least squares over every (query, t*) of two query sets
# of the 10^5-set benchmark lake, |Q| 10-1,000 and 10-100,000 values, both routes timed on
# each (bench/lshensemble_perf.py --route-fit, then bench/lshensemble_route_fit.py):
ROUTE_EXACT_US = (216.0, 0.0062, 0.0017)  # prefix filter: fixed, per prefix entry, per query entry
ROUTE_LSH_US = (291.0, 1.12, 0.0042)       # LSH: fixed, per band, per query posting entry


def route_costs(n_bands: int, prefix_entries: int, query_entries: int) -> tuple[float, float]:
    """Predicted microseconds of (the prefix-filter search, the LSH probe and its
    verification) for one query (see "Routing" in docs/algorithms/lshensemble.md). Both verify
    their candidates, whose cost grows with the query's posting entries."""
    e0, e1, e2 = ROUTE_EXACT_US
    l0, l1, l2 = ROUTE_LSH_US
    return e0 + e1 * prefix_entries + e2 * query_entries, l0 + l1 * n_bands + l2 * query_entries


def _options(options: dict) -> dict:
    """The tuning options of a search (the engine has validated them against _PARAMS)."""
    return {name: options[name] for name in ("num_perm", "max_r", "fn_weight", "min_recall",
                                             "route") if name in options}


def threshold_search(ctx: Context, q_ids: np.ndarray, sig_q: np.ndarray, q_size: int,
                     t: float, *, k: int | None = None, verify: bool = True,
                     exclude=(), route: str = "auto", **opts):
    """Sets whose containment of Q is (likely) >= t: ([(set id, overlap or None,
    estimated containment)], stats), ranked by exact (or estimated) containment.
    ``route``: "lsh" (probe the tables, verify the candidates), "exact" (the prefix
    filter, search/containment.py) or "auto" (the cheaper by :func:`route_costs`; only
    with ``verify``, since the exact route has no unverified candidates)."""
    if route not in ROUTES:
        raise QueryError(f"route is one of {list(ROUTES)} (got {route!r}).")
    if route == "exact" and not verify:
        raise QueryError("route='exact' answers exactly; it has no unverified candidates "
                         "(use verify=True, or route='lsh').")
    t0 = time.perf_counter()
    m = int(opts.get("num_perm") or ctx.tables.num_perm)
    if not 1 <= m <= ctx.tables.num_perm:
        raise QueryError(f"num_perm must be between 1 and {ctx.tables.num_perm}, the signature "
                         f"positions the LSH tables hold (got {m}).")
    stats, plan, lists = {}, None, None
    if verify and route != "lsh":
        q = distinct_query(ctx.arrays, q_ids)
        need = min_overlap(t, q_size)
        # a long query is priced from a sample of its list lengths (the prefix filter, if it
        # runs, reads the lengths it needs)
        est = prefix_entries_estimate(ctx.arrays, q, need) if route == "auto" else None
        if est is None:
            lists = prefix_lists(ctx.arrays, q, need)
            est = (lists.entries, lists.total)
        exact_us, lsh_us = route_costs(0, *est)
        if route == "auto" and exact_us > lsh_us:    # else exact wins at any band count
            # (the LSH route's cost grows with its bands: its least is at none)
            plan = plan_probe(ctx.tables, q_size, t, **opts)
            exact_us, lsh_us = route_costs(plan.bands, *est)
            route = "exact" if exact_us <= lsh_us else "lsh"
        elif route == "auto":
            route = "exact"
        stats["route_cost_us"] = {"exact": round(exact_us, 1),
                                  "lsh": round(lsh_us, 1) if plan else f">= {lsh_us:.1f}"}
    else:
        route = "lsh"
    if route == "lsh":
        plan = plan or plan_probe(ctx.tables, q_size, t, **opts)
        stats.update(partitions_probed=len(plan.params), partitions_skipped=plan.skipped,
                     partitions_scanned=plan.scanned,
                     band_params=[(u, b, r) for _, u, b, r, _, sc in plan.params if not sc])
    stats["route"] = route
    if route == "exact":
        ids, ov, st = prefix_filter_search(ctx.arrays, ctx.set_sizes, q, q_size, t,
                                           exclude=exclude, lists=lists, distinct=True)
        t1 = time.perf_counter()
        stats.update(candidates=st["candidates"], prefix_entries=st["prefix_entries"],
                     seconds_candidates=t1 - t0)
        how = st["verify_strategy"]
    else:
        pr = probe(ctx.tables, ctx.signatures, ctx.set_sizes, sig_q, q_size, t, plan=plan)
        ids = without(pr.ids, exclude)
        t1 = time.perf_counter()
        stats.update(candidates=int(len(ids)), candidates_before_size_filter=pr.raw,
                     seconds_candidates=t1 - t0)
        if verify:
            ov, how = exact_overlaps(ctx.arrays, q_ids, ids)
            keep = (ov > 0) & (ov / q_size >= t - 1e-12)
            ids, ov = ids[keep], ov[keep]
    if verify:
        order = np.lexsort((ids, -ov))
        if k is not None:
            order = order[:k]
        ids, ov = ids[order], ov[order]
        est = estimated_containment(ctx.signatures, ctx.set_sizes, ids, sig_q, q_size, m)
        rows = list(zip(ids.tolist(), ov.tolist(), est.tolist()))
        stats.update(verify_strategy=how, hits=len(rows),
                     seconds_verify=time.perf_counter() - t1)
    else:
        est = estimated_containment(ctx.signatures, ctx.set_sizes, ids, sig_q, q_size, m)
        order = np.lexsort((ids, -est))
        if k is not None:
            order = order[:k]
        rows = [(int(i), None, float(e)) for i, e in zip(ids[order], est[order])]
        stats.update(hits=len(rows))
    return rows, stats


def topk_search(ctx: Context, q_ids: np.ndarray, sig_q: np.ndarray, q_size: int, k: int,
                *, floor: float | None = None, verify: bool = True, exclude=(),
                step: float = TOPK_STEP, **opts):
    """The k sets of largest containment by threshold descent (thesis §3.5.4): search at
    1.0, 1.0 - step, ... down to ``floor`` (default: one shared value, 1/|Q|), verifying
    new candidates only, until k hits reach the current threshold."""
    lowest = max(floor if floor is not None else 0.0, 1.0 / q_size)
    steps = [x for x in np.round(np.arange(1.0, 0.0, -step), 10) if x > lowest + 1e-12] + [lowest]
    m = int(opts.get("num_perm") or ctx.tables.num_perm)
    score: dict[int, float] = {}          # set id -> exact (or estimated) containment
    overlap: dict[int, int] = {}
    t_used, n_cand, how = 1.0, 0, "none"
    for t in steps:
        t_used = t
        pr = probe(ctx.tables, ctx.signatures, ctx.set_sizes, sig_q, q_size, t, **opts)
        new = without(pr.ids, exclude)
        new = new[[i not in score for i in new.tolist()]] if len(new) else new
        n_cand += len(new)
        if verify:
            ov, how = exact_overlaps(ctx.arrays, q_ids, new)
            for i, o in zip(new.tolist(), ov.tolist()):
                overlap[i], score[i] = o, o / q_size
        else:
            est = estimated_containment(ctx.signatures, ctx.set_sizes, new, sig_q, q_size, m)
            score.update(zip(new.tolist(), est.tolist()))
        if sum(1 for v in score.values() if v >= t - 1e-12) >= k:
            break
    good = [(i, v) for i, v in score.items() if v >= lowest - 1e-12 and (not verify or overlap[i] > 0)]
    good.sort(key=lambda iv: (-iv[1], iv[0]))
    good = good[:k]
    ids = np.array([i for i, _ in good], dtype=np.int64)
    est = estimated_containment(ctx.signatures, ctx.set_sizes, ids, sig_q, q_size, m)
    rows = [(i, overlap.get(i) if verify else None, float(e if verify else v))
            for (i, v), e in zip(good, est)]
    return rows, {"stopped_at_threshold": t_used, "candidates": n_cand, "hits": len(rows),
                  "verify_strategy": how}


def _query_signature(query, ctx: "Context") -> np.ndarray:
    """The query's MinHash signature, as long as the index's: the hash functions depend on
    num_perm (datasketch draws every a, then every b), so a shorter signature is not a prefix
    of a longer one; tables built on fewer positions use the first ones of these."""
    return minhash_of_tokens(query.tokens, int(ctx.signatures.shape[1]), ctx.tables.seed)


def _candidates(rows, verify: bool, q_size: int) -> list:
    return [Candidate(column_ids=(i,), score=(o / q_size if verify else e), overlap=o,
                      exact=verify, estimated_containment=e) for i, o, e in rows]


def _run_threshold(index, query, params):
    opts = dict(params.options)
    verify = opts.pop("verify")
    if params.threshold is None:
        raise QueryError("LSH Ensemble needs a containment threshold, e.g. threshold=0.5 "
                         "(or use method='lshensemble-topk' for the best k).")
    ctx = Context.of(index)
    sig_q = _query_signature(query, ctx)
    rows, stats = threshold_search(ctx, query.token_ids, sig_q, query.size,
                                   float(params.threshold), k=params.k, verify=verify,
                                   exclude=query.exclude, **_options(opts))
    return _candidates(rows, verify, query.size), stats


def _run_topk(index, query, params):
    opts = dict(params.options)
    verify = opts.pop("verify")
    ctx = Context.of(index)
    sig_q = _query_signature(query, ctx)
    opts = _options(opts)
    if opts.pop("route", "auto") != "auto":
        raise QueryError("route applies to the threshold search (method='lshensemble'); top-k "
                         "descends through the LSH tables (for exact top-k use method='josie').")
    rows, stats = topk_search(ctx, query.token_ids, sig_q, query.size, int(params.k or 10),
                              floor=params.threshold, verify=verify, exclude=query.exclude,
                              **opts)
    return _candidates(rows, verify, query.size), stats


_PARAMS = (
    ParamSpec("verify", "Verify exactly", kind="bool", default=True,
              help="Compute exact containment of every candidate and drop false positives."),
    ParamSpec("num_perm", "Hash functions used", kind="int", default=None, min=1,
              help="Use only the first m signature positions (default: all)."),
    ParamSpec("max_r", "Max rows per band", kind="int", default=None, min=1,
              help="Cap on r when choosing (b, r) (default: b r <= m only)."),
    ParamSpec("fn_weight", "False-negative weight", kind="float", default=FN_WEIGHT, min=0.0,
              max=1.0, step=0.05,
              help="Weight of missed sets against false candidates when tuning (b, r); "
                   "0.5 is the paper's unweighted FP + FN."),
    ParamSpec("route", "Route", kind="choice", default="auto", choices=ROUTES,
              help="auto: the exact prefix filter when the cost model predicts it is faster "
                   "than the LSH probe (answers then exact); lsh: always probe the LSH tables; "
                   "exact: always the prefix filter."),
    ParamSpec("min_recall", "Scan partitions below this recall", kind="float", default=0.0,
              min=0.0, max=1.0, step=0.05,
              help="Take every large-enough set of a partition whose predicted LSH recall is "
                   "below this (exact there, more to verify)."),
)

METHOD = SearchMethod(
    name="lshensemble", label="Approximate containment (LSH Ensemble)", kind="approximate",
    run=_run_threshold, requires=(COMPONENT, "minhash", "sets"), needs_threshold=True,
    priority=0, score_name="containment", params=_PARAMS, more="cut",
    description="Columns likely to contain at least the threshold share of the query's "
                "values, found with MinHash LSH over size partitions, then verified; a query "
                "whose exact prefix filter is predicted cheaper is answered exactly instead "
                "(option route).")

TOPK_METHOD = SearchMethod(
    name="lshensemble-topk", label="Approximate top-k containment (LSH Ensemble)",
    kind="approximate", run=_run_topk, requires=(COMPONENT, "minhash", "sets"),
    needs_threshold=False, priority=0, score_name="containment",
    params=tuple(p for p in _PARAMS if p.name != "route"),
    description="The k columns of largest containment, by LSH Ensemble searches at "
                "decreasing thresholds (1.0, 0.95, ...), verified.")


# ------------------------------------------------------------------ generations

REBUILD_COST_RATIO = 1.5      # calibrated in bench/results/lshensemble.md ("drift")
REBUILD_MAX_DELTAS = 8


def generation_report(index_generations) -> dict:
    """How well the base's partitioning still fits an index with added generations.

    ``fp_cost``: the thesis' false-positive bound (Eq. 2.17) of the sets as they are now
    partitioned (each generation's sets in the base intervals, each partition charged with
    its own largest size); ``optimal_cost``: the same bound after a rebuild (the DP over
    the combined size histogram with as many partitions); their ratio is the drift.
    """
    from .lshensemble_partitions import optimal_partitions
    if hasattr(index_generations, "generations"):            # a LakeIndex
        index_generations = index_generations.generations
    gens = [g for g in index_generations if g.has(COMPONENT)]
    if not gens:
        return {}
    uppers = [int(u) for u in gens[0].components[COMPONENT]["intervals"]]
    cost, all_sizes = 0.0, []
    for g in gens:
        sizes = np.diff(g.arrays.sets_indptr)
        sizes = sizes[sizes > 0].astype(np.float64)
        all_sizes.append(sizes)
        part = np.minimum(np.searchsorted(uppers, sizes, side="left"), len(uppers) - 1)
        umax = np.zeros(len(uppers))
        np.maximum.at(umax, part, sizes)
        cost += float(np.sum(1.0 - sizes / umax[part]))
    sizes = np.concatenate(all_sizes)
    dist, cnt = np.unique(sizes.astype(np.int64), return_counts=True)
    best = optimal_partitions(dist, cnt, len(uppers))
    b_up = np.array([u for _, u in best], dtype=np.float64)
    bp = np.minimum(np.searchsorted(b_up, dist, side="left"), len(b_up) - 1)
    optimal = float(np.sum(cnt * (1.0 - dist / b_up[bp])))
    base_sets = len(all_sizes[0])
    return {"generations": len(gens), "base_sets": base_sets,
            "added_sets": int(len(sizes) - base_sets), "fp_cost": cost,
            "optimal_cost": optimal, "cost_ratio": cost / optimal if optimal > 0 else 1.0,
            "base_max_size": int(uppers[-1]), "max_size": int(sizes.max()) if len(sizes) else 0}


def rebuild_advice(index_generations) -> str | None:
    """A sentence advising a rebuild when added generations have drifted from the base's
    partitioning, else None. ``index_generations``: the generations, base first
    (``LakeIndex.generations``; a LakeIndex is accepted too)."""
    r = generation_report(index_generations)
    if not r or r["generations"] < 2:
        return None
    why = []
    if r["cost_ratio"] > REBUILD_COST_RATIO:
        why.append(f"the size partitions fit the lake {r['cost_ratio']:.1f}x worse than a "
                   f"rebuilt index would (expected false candidates, thesis Eq. 2.17)")
    if r["generations"] - 1 > REBUILD_MAX_DELTAS:
        why.append(f"{r['generations'] - 1} added generations are each searched separately")
    if r["added_sets"] > r["base_sets"]:
        why.append(f"added tables hold more columns ({r['added_sets']:,}) than the base "
                   f"({r['base_sets']:,})")
    if not why:
        return None
    return ("Rebuilding the index is advised for LSH Ensemble: " + "; ".join(why) +
            ". Approximate results stay correct but get slower to verify.")
