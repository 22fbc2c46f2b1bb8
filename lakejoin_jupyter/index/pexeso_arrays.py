"""PEXESO's index arrays: pivots, pivot mapping, hierarchical grid keys, cell postings.

Dong et al., ICDE 2021 [P]: pivot mapping x -> (d(p_1, x), ..., d(p_|P|, x)) [P §III-A];
pivot selection by PCA over outlier candidates (Mao, Miranker & Miranker, the paper's
ref. 22) or at random [P §III-D]; a grid halving each pivot dimension m times, leaf keys in
Morton order so a subtree is one slice of the sorted postings (leaf key, column id, row)
[P §III-B, §III-C]; partitions of columns with their own pivots and grid [P §IV]. Shared
by the Spark build (indexing/pexeso.py) and the search (search/pexeso.py);
:func:`build_partition` is the pure-numpy reference builder the Spark build is tested
against. Vectors are unit length and :func:`distances` is the one distance function of
search and oracle.

Note:
    The grid's domain per dimension is the min and max of the partition's mapped vectors
    (the paper leaves it open). The distance profile (nearest other value within a column,
    over sampled columns) and the default tau taken from it, at least a per-embedder typo
    floor, are ours, not the paper's.
    Details: docs/algorithms/pexeso.md.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_KEY_BITS = 62
DIST_CHUNK = 4096                 # rows per block in distances()
SAMPLE_MULT = 2654435761          # Knuth's multiplicative hash for a deterministic sample


def distances(q: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Row-wise Euclidean distances between q[i] and x[i] (float64). Both the search and
    the brute-force oracle use this function, so their answers agree bit for bit."""
    q, x = np.asarray(q), np.asarray(x)
    if q.ndim != 2 or x.ndim != 2 or max(len(q), len(x)) <= DIST_CHUNK:
        d = q.astype(np.float64) - x.astype(np.float64)
        return np.sqrt((d * d).sum(axis=-1))
    n = max(len(q), len(x))                    # chunks keep the temporaries in cache
    out = np.empty(n, dtype=np.float64)
    for s in range(0, n, DIST_CHUNK):
        qs = q if len(q) == 1 else q[s:s + DIST_CHUNK]
        xs = x if len(x) == 1 else x[s:s + DIST_CHUNK]
        d = qs.astype(np.float64) - xs.astype(np.float64)
        out[s:s + DIST_CHUNK] = np.sqrt((d * d).sum(axis=-1))
    return out


def map_to_pivots(x: np.ndarray, pivots: np.ndarray) -> np.ndarray:
    """(n, |P|) float64 pivot-space coordinates of the rows of x [P §III-A]."""
    x = np.asarray(x, dtype=np.float64)
    out = np.empty((len(x), len(pivots)), dtype=np.float64)
    for i, p in enumerate(np.asarray(pivots, dtype=np.float64)):
        out[:, i] = distances(x, p[None, :])
    return out


def sample_mask(token_ids: np.ndarray, n_total: int, sample_size: int) -> np.ndarray:
    """Deterministic sample of token ids (same rule in Spark SQL: indexing/pexeso.py)."""
    if n_total <= sample_size:
        return np.ones(len(token_ids), dtype=bool)
    cut = int(sample_size / n_total * (1 << 32))
    return (np.asarray(token_ids, dtype=np.int64) * SAMPLE_MULT) % (1 << 32) < cut


def farthest_first(sample: np.ndarray, k: int) -> np.ndarray:
    """Indices of k outlier candidates by farthest-first traversal (start: the point
    farthest from the sample mean)."""
    x = np.asarray(sample, dtype=np.float64)
    k = min(k, len(x))
    first = int(np.argmax(distances(x, x.mean(axis=0)[None, :])))
    chosen = [first]
    dmin = distances(x, x[first][None, :])
    for _ in range(k - 1):
        nxt = int(np.argmax(dmin))
        if dmin[nxt] <= 0:
            break
        chosen.append(nxt)
        dmin = np.minimum(dmin, distances(x, x[nxt][None, :]))
    return np.asarray(chosen, dtype=np.int64)


def select_pivots(sample: np.ndarray, n_pivots: int, method: str = "pca", seed: int = 0,
                  n_candidates: int | None = None) -> np.ndarray:
    """|P| x dim pivots chosen from the sample rows (see module docstring)."""
    x = np.asarray(sample, dtype=np.float64)
    if len(x) == 0:
        raise ValueError("cannot choose pivots from an empty sample")
    if method == "random":
        rng = np.random.default_rng(seed)
        idx = rng.choice(len(x), size=min(n_pivots, len(x)), replace=False)
        return x[np.sort(idx)]
    if method != "pca":
        raise ValueError(f"unknown pivot selection {method!r}: use 'pca' or 'random'")
    cand = farthest_first(x, n_candidates or max(4 * n_pivots, 20))
    if len(cand) <= n_pivots:
        return x[cand]
    mapped = map_to_pivots(x, x[cand])                  # sample in candidate-pivot space
    centered = mapped - mapped.mean(axis=0)
    _, _, vt = np.linalg.svd(centered, full_matrices=False)
    picked: list[int] = []
    for comp in vt:                                       # leading components first
        for j in np.argsort(-np.abs(comp), kind="stable"):
            if int(j) not in picked:
                picked.append(int(j))
                break
        if len(picked) == n_pivots:
            break
    return x[cand[picked]]


def domain(mapped: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-dimension [lo, hi] of the grid (a zero-width dimension gets width 1)."""
    lo, hi = mapped.min(axis=0), mapped.max(axis=0)
    return lo, np.where(hi > lo, hi, lo + 1.0)


def leaf_coords(mapped: np.ndarray, lo: np.ndarray, hi: np.ndarray, levels: int) -> np.ndarray:
    """Per-dimension leaf cell coordinates in [0, 2^m - 1] (points outside are clipped)."""
    n = 1 << levels
    c = np.floor((mapped - lo) / ((hi - lo) / n)).astype(np.int64)
    return np.clip(c, 0, n - 1)


def morton_keys(coords: np.ndarray, levels: int) -> np.ndarray:
    """Leaf key: for level l = 1..m, the |P| bits (bit m-l of each coordinate) in turn."""
    n_dim = coords.shape[1]
    if n_dim * levels > MAX_KEY_BITS:
        raise ValueError(f"|P| * m = {n_dim * levels} exceeds {MAX_KEY_BITS} bits")
    key = np.zeros(len(coords), dtype=np.int64)
    for lvl in range(1, levels + 1):
        bit = levels - lvl
        digit = np.zeros(len(coords), dtype=np.int64)
        for d in range(n_dim):
            digit |= ((coords[:, d] >> bit) & 1) << d
        key = (key << n_dim) | digit
    return key


def key_coords(keys: np.ndarray, n_dim: int, level: int) -> np.ndarray:
    """Per-dimension coordinates (at that level) of level-``level`` keys."""
    coords = np.zeros((len(keys), n_dim), dtype=np.int64)
    for lvl in range(1, level + 1):
        digit = (keys >> (n_dim * (level - lvl))) & ((1 << n_dim) - 1)
        for d in range(n_dim):
            coords[:, d] = (coords[:, d] << 1) | ((digit >> d) & 1)
    return coords


@dataclass
class PexesoPartition:
    """One PEXESO instance: pivots, grid domain and the cell -> column postings."""
    pivots: np.ndarray      # float64 (|P|, dim)
    lo: np.ndarray          # float64 (|P|,) grid domain
    hi: np.ndarray          # float64 (|P|,)
    levels: int             # m
    tokens: np.ndarray      # int32 (n,) token ids of this partition's vectors, sorted
    mapped: np.ndarray      # float64 (n, |P|) their pivot-space coordinates
    cell_keys: np.ndarray   # int64 (n_cells,) non-empty leaf keys, sorted
    cell_ptr: np.ndarray    # int64 (n_cells + 1,) entries of each leaf
    ent_col: np.ndarray     # int32 entries sorted by (leaf, column, row): column id
    ent_row: np.ndarray     # int32 row into tokens/mapped

    @property
    def n_pivots(self) -> int:
        return len(self.pivots)

    def equals(self, other: "PexesoPartition") -> bool:
        return self.levels == other.levels and all(
            np.array_equal(getattr(self, f), getattr(other, f))
            for f in ("pivots", "lo", "hi", "tokens", "mapped", "cell_keys", "cell_ptr",
                      "ent_col", "ent_row"))


def partition_from_entries(pivots, levels, tokens, mapped, ent_col, ent_tok) -> PexesoPartition:
    """Finish a partition from its mapped tokens and (column, token) memberships."""
    tokens = np.asarray(tokens, dtype=np.int32)
    mapped = np.asarray(mapped, dtype=np.float64).reshape(len(tokens), len(pivots))
    lo, hi = domain(mapped) if len(tokens) else (np.zeros(len(pivots)), np.ones(len(pivots)))
    keys = morton_keys(leaf_coords(mapped, lo, hi, levels), levels)
    row = np.searchsorted(tokens, np.asarray(ent_tok, dtype=np.int64)).astype(np.int32)
    ent_col = np.asarray(ent_col, dtype=np.int32)
    ekey = keys[row]
    order = np.lexsort((row, ent_col, ekey))
    ekey, ent_col, row = ekey[order], ent_col[order], row[order]
    cell_keys, starts = np.unique(ekey, return_index=True)
    cell_ptr = np.append(starts, len(ekey)).astype(np.int64)
    return PexesoPartition(pivots=np.asarray(pivots, dtype=np.float64), lo=lo, hi=hi,
                           levels=int(levels), tokens=tokens, mapped=mapped,
                           cell_keys=cell_keys.astype(np.int64), cell_ptr=cell_ptr,
                           ent_col=ent_col, ent_row=row)


def build_partition(vectors: np.ndarray, sets_indptr: np.ndarray, sets_tokens: np.ndarray,
                    columns=None, n_pivots: int = 5, levels: int = 6, pivot_method: str = "pca",
                    sample_size: int = 20_000, seed: int = 0,
                    pivots: np.ndarray | None = None) -> PexesoPartition:
    """Reference (driver, numpy) build of one partition over ``columns`` (default: all)."""
    n_sets = len(sets_indptr) - 1
    columns = np.arange(n_sets) if columns is None else np.asarray(columns, dtype=np.int64)
    sizes = np.diff(sets_indptr)[columns]
    ent_col = np.repeat(columns, sizes)
    ent_tok = np.concatenate([sets_tokens[sets_indptr[c]:sets_indptr[c + 1]] for c in columns]) \
        if len(columns) else np.zeros(0, dtype=np.int64)
    tokens = np.unique(ent_tok).astype(np.int32)
    if pivots is None and not len(tokens):     # no values: zero pivots, as the Spark build
        pivots = np.zeros((n_pivots, vectors.shape[1]))
    elif pivots is None:
        keep = sample_mask(tokens, len(tokens), sample_size)
        pivots = select_pivots(vectors[tokens[keep]], n_pivots, pivot_method, seed)
    mapped = map_to_pivots(vectors[tokens], pivots)
    return partition_from_entries(pivots, levels, tokens, mapped, ent_col, ent_tok)


# --------------------------------------------------------------- distance profile, default tau

PROFILE_COLUMNS = 2000            # columns sampled for the distance profile ...
PROFILE_VALUES = 400              # ... and text values per sampled column
PROFILE_LEVELS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3,
                  0.4, 0.5)
SAME_VECTOR = 1e-6                # closer than this: one value to the embedder (not counted)
# the quantile of the profile that is an embedder's default tau: the largest whose columns
# found keep precision >= 0.95 and whose variant pairs >= 0.9 on the development queries of
# bench/semantic_join.py (docs/algorithms/pexeso.md)
TAU_QUANTILE = {"ngram": 0.01, "e5-small": 0.3, "sentence-transformers": 0.2}
TAU_QUANTILE_OTHER = 0.01
# an embedder's typo floor: the default tau is never below it. The largest tau at which
# queries with one-character typos find no column that equality misses for the clean
# column, on the development queries of bench/pexeso_typos.py (docs/algorithms/pexeso.md)
TAU_FLOOR = {"ngram": 0.8, "e5-small": 0.25}


def profile_columns(column_ids: np.ndarray, n_columns: int) -> np.ndarray:
    """Mask of the columns the profile samples (same rule in Spark SQL)."""
    return sample_mask(column_ids, n_columns, PROFILE_COLUMNS)


def profile_rank_key(token_ids: np.ndarray) -> np.ndarray:
    """Order of a column's values in the profile's sample: its first PROFILE_VALUES by
    (this key, token id) are taken (same rule in Spark SQL)."""
    return (np.asarray(token_ids, dtype=np.int64) * SAMPLE_MULT) % (1 << 32)


def nearest_other(vecs: np.ndarray) -> np.ndarray:
    """For each row (unit vectors of one column's values), the distance to the nearest
    other row whose vector differs (rows the embedder makes identical are one value);
    rows without such a neighbour are left out."""
    x = np.asarray(vecs, dtype=np.float64)
    if len(x) < 2:
        return np.zeros(0)
    sq = np.einsum("ij,ij->i", x, x)
    d = np.sqrt(np.clip(sq[:, None] + sq[None, :] - 2.0 * (x @ x.T), 0.0, None))
    d[d <= SAME_VECTOR] = np.inf                  # itself, and values with its vector
    best = d.min(axis=1)
    return best[np.isfinite(best)]


def distance_profile(dists: np.ndarray, columns: int) -> dict:
    """The profile recorded in the manifest: quantiles of the nearest-other distances."""
    d = np.sort(np.asarray(dists, dtype=np.float64))
    q = [float(np.quantile(d, lv)) if len(d) else None for lv in PROFILE_LEVELS]
    return {"what": "distance from a text value to the nearest other value of its column",
            "columns": int(columns), "values": int(len(d)),
            "levels": list(PROFILE_LEVELS), "quantiles": [None if v is None else round(v, 6)
                                                         for v in q]}


def default_tau(profile: dict | None, embedder_name: str) -> float | None:
    """An embedder's default tau: the quantile TAU_QUANTILE[embedder] of the profile's
    nearest-other distances (interpolated between the recorded levels), raised to the
    embedder's typo floor TAU_FLOOR; without a profile, the floor (None without one)."""
    floor = TAU_FLOOR.get(embedder_name)
    if not profile or not profile.get("values"):
        return floor
    level = TAU_QUANTILE.get(embedder_name, TAU_QUANTILE_OTHER)
    lv = np.asarray(profile["levels"], dtype=np.float64)
    qv = np.asarray(profile["quantiles"], dtype=np.float64)
    return round(max(float(np.interp(level, lv, qv)), floor or 0.0), 4)


def default_tau_rule(embedder_name: str) -> str:
    """The rule default_tau applies, as the manifest records it."""
    rule = (f"quantile {TAU_QUANTILE.get(embedder_name, TAU_QUANTILE_OTHER)} of the "
            f"distance profile")
    floor = TAU_FLOOR.get(embedder_name)
    return rule + (f", at least {floor} (typo floor)" if floor is not None else "")


# --------------------------------------------------------------- out-of-core partitioning

def symmetric_kl(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The paper's "JSD" [P §IV]: (KL(A||B) + KL(B||A)) / 2, rows of a against rows of b
    (the paper's name; it is the symmetrised KL / 2. Histograms are already smoothed, so
    every bin is positive)."""
    la, lb = np.log(a), np.log(b)
    kl_ab = (a * la).sum(1)[:, None] - a @ lb.T
    kl_ba = (b * lb).sum(1)[None, :] - la @ b.T
    return (kl_ab + kl_ba) / 2


def cluster_columns(hist: np.ndarray, k: int, iterations: int = 10, seed: int = 0,
                    eps: float = 1e-3) -> np.ndarray:
    """k-means-style clustering of column histograms by the symmetrised KL [P §IV]:
    k random columns as centres, assign each column to the nearest centre, recompute the
    centres as the mean histogram, repeat (the paper's steps 3-4). Histograms are
    smoothed by adding ``eps`` to every bin and renormalizing. Returns a label per row."""
    h = np.asarray(hist, dtype=np.float64) + eps
    h /= h.sum(axis=1, keepdims=True)
    n = len(h)
    k = max(1, min(k, n))
    rng = np.random.default_rng(seed)
    centres = h[rng.choice(n, size=k, replace=False)]
    labels = np.zeros(n, dtype=np.int64)
    for _ in range(iterations):
        labels = np.argmin(symmetric_kl(h, centres), axis=1)
        new = np.vstack([h[labels == c].mean(axis=0) if np.any(labels == c) else centres[c]
                         for c in range(k)])
        if np.allclose(new, centres):
            break
        centres = new
    # relabel so partition ids follow the smallest column id in each (deterministic order)
    first = {c: np.nonzero(labels == c)[0][0] for c in np.unique(labels)}
    order = sorted(first, key=first.get)
    remap = {c: i for i, c in enumerate(order)}
    return np.asarray([remap[c] for c in labels], dtype=np.int64)
