"""Table union search: the lake tables whose rows can be stacked under a query frame.

Nargesian et al., "Table Union Search on Open Data", VLDB 2018 [TUS]; D3L (Bogatu et al.,
ICDE 2020). Per query column against a lake column (index/union_profile.py): set overlap [TUS
§3.1], vector cosine [TUS §5.1.3], format histograms and numeric KS [D3L], header 3-grams,
each a likelihood against the lake's background [TUS §5], combined [TUS's ensemble].
Candidates: columns sharing values, nearest vectors; a table's alignment: the max-weight
matching of query columns to its columns (``min_column``), scored per query column. Note:
    - Ensemble: a weighted mean of sharpened likelihoods, not TUS's max (tuned on development).
    - Background: a sample of lake columns, not all pairs [TUS §3.4], a column out of its own,
      and a query column's partners (values shared beyond chance) out of its (``partners_out``);
      padded to MIN_BACKGROUND with its median, unbeaten under p = 0.05 (``chance_overlap``).
    - Format: a column holding a share of the query's values beyond chance is written alike on
      at least that share (``written_as_held``); integer codes also read zero-padded (1001, 01001).
    - Names (D3L, Starmie): an unaligned query column aligns, adding nothing, with a same-named
      column of its kind in a value-aligned table; without set evidence the header chooses.
    - A small text query column's set domain nears the lake's vocabulary; numbers whose spans
      differ are tested on their common range (``set_population``, ``common_range``);
      under p = 0.05 a set statistic is no evidence unless a column holds FEW_VALUES or fewer.
    - Numbers never align with text (``kinds_apart``), true/false with other values
      (``booleans_apart``); of two columns sharing a text column's values, ``compete``.
    - In the sum a column of one value weighs 1/2 (``column_weights``), in a small lake a pair
      counts by the reach of its set test (``reach_weights``); the score is scaled by the
      chance that two query rows differ on the aligned columns (``row_information``).
    - Never aligned: FEW_VALUES values or fewer against more, none shared, no vector or format
      evidence; numbers barely meeting (NUMBERS_APART) with no name alike; in a keyed table, no
      value beyond chance nor the same name (``values_unshared``); numeric kind-alone pairs
      yield (``kind_yields``), tables of only those unlisted (``kind_only``), scored pairs without
      set evidence or the same name last (``by_kind``); crossing names yield (``names_crossed``).
    - Tables scored (MAX_TABLES): value overlap beyond chance first; columns tied share places.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..embed import cached_embedder
from ..errors import QueryError
from ..hashing import token_hash64
from ..index.union_profile import (FORMAT_VERSION, cell_texts, column_vectors, cosine,
                                   format_histogram, format_similarity, header_grams,
                                   grid_size, grid_steps, is_numeric, ks_similarity,
                                   names_alike, numeric_grid,
                                   numeric_summary_counted, sample_tokens,
                                   set_statistic)
from ..lake.normalize import normalize_array, normalize_text, render_value

EVIDENCE = ("set", "semantic", "format", "numeric", "header")
WEIGHTS = {"set": 1.0, "semantic": 1.0, "format": 1.0, "numeric": 1.0, "header": 0.25}
BASELINES = {"header": {"header": 1.0}, "overlap": {"set": 1.0}}
MIN_COLUMN = 0.5            # a pair scoring less is not aligned
SHARPNESS = 8.0             # likelihood exponent: the top of the background decides
NEIGHBOURS = 20             # nearest columns per query column (vectors), and by overlap
MAX_TABLES = 60             # candidate tables scored per query (most candidate columns)
BACKGROUND = 400            # lake columns sampled as the background of each measure
MAX_VALUES = 20_000         # query values profiled per column (a sample above)
VECTOR_MIN = 256            # distinct values from which a column is profiled all at once
ONE_THREAD_FLOPS = 10**9    # a query's products up to this size run on one BLAS thread
MIN_BACKGROUND = 100       # a likelihood counts at least this many background columns
KIND_SAMPLE = 100           # distinct values read to tell a column's kind (the name rule)
DATE_SHARE = 0.9            # a text column is of dates when this share of them parses
WRITTEN_ALIKE = 0.5         # same-named text: the format-histogram intersection needed
SMALL_SAMPLE = 20           # a query column of more distinct values weighs the lake's domain less
TEXT_SHARE = 0.5            # a column with a smaller share of numeric cells is text (kind rule)
SIGNIFICANT = -np.log10(0.05)   # small lake: a chance set statistic beats nothing (chance_overlap)
BOOLEAN = frozenset({"true", "false"})  # the tokens of a boolean column (booleans_apart)
FEW_VALUES = 3              # a column of this many distinct values or fewer is no sample (few_values)
KEY_SHARE = 0.9             # distinct values per non-null cell making a key (is_key)
NUMBERS_APART = 0.1         # numeric pairs under this KS similarity never align (numbers_apart)


@dataclass
class LakeProfiles:
    """The union arrays of every generation, concatenated by global column id."""
    fmt: np.ndarray
    share: np.ndarray
    n_num: np.ndarray
    quantiles: np.ndarray
    vectors: np.ndarray
    sizes: np.ndarray
    table_ids: np.ndarray
    gram_columns: object        # sparse (header 3-grams x columns) indicator matrix (CSR)
    header_len: np.ndarray      # header 3-grams per column
    grams: dict                 # header 3-gram -> matrix row
    embedder: dict
    sample_values: int
    background: np.ndarray
    format_version: int = 1     # the build's format histograms (union_profile.format_histogram)
    vocabulary: int = 0         # distinct tokens of the lake (each generation's dictionary)
    boolean: np.ndarray | None = None   # every distinct token true or false (BOOLEAN)
    _near: np.ndarray | None = None
    _numeric: np.ndarray | None = None
    _background: LakePart | None = None
    _grids: tuple | None = None

    @property
    def grids(self) -> tuple:
        """(lowest, highest, step) of every column's numbers (numeric_grid), from the
        sketch's 21 quantiles: its extremes are the column's, and the step is the finest
        the quantiles show (a column with finer values than those has a larger grid: its
        chance overlap is then overstated and its set evidence understated, never the
        reverse)."""
        if self._grids is None:
            q = np.asarray(self.quantiles, dtype=np.float64)
            self._grids = (q[:, 0], q[:, -1], grid_steps(q))
        return self._grids

    @property
    def numeric(self) -> np.ndarray:
        if self._numeric is None:
            self._numeric = is_numeric(self.share, self.n_num)
        return self._numeric

    @property
    def background_part(self) -> "LakePart":
        if self._background is None:
            self._background = lake_part(self, self.background)
        return self._background

    @property
    def near_keys(self) -> np.ndarray:
        """[vectors | format histograms scaled to unit length] (the nearest-neighbour key)."""
        if self._near is None:
            f = np.asarray(self.fmt, dtype=np.float32)
            f = f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-12)
            self._near = np.ascontiguousarray(np.hstack([self.vectors.astype(np.float32), f]))
        return self._near


_PROFILES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def lake_profiles(index) -> LakeProfiles:
    got = _PROFILES.get(index)
    if got is not None:
        return got
    if not index.has("union"):
        from ..index.store import rebuild_command
        raise QueryError(f"The index {index.path} has no union component: rebuild it with "
                         f"{rebuild_command(index.path, index.manifest, 'union')} "
                         f"(Python: build_index(LAKE, OUT, components=['union'])).")
    parts = {k: [] for k in ("format", "numeric_share", "numeric_n", "quantiles", "vectors")}
    sizes = []
    for g in index.generations:
        for k in parts:
            parts[k].append(np.asarray(g.load_npy(f"union/{k}.npy")))
        sizes.append(np.diff(np.asarray(g.arrays.sets_indptr)))
    cols = index.columns
    sec = index.components["union"]
    n = len(cols)
    have = np.flatnonzero(np.concatenate(sizes) > 0)
    rng = np.random.default_rng(0)
    bg = np.sort(rng.choice(have, size=min(BACKGROUND, len(have)), replace=False)) \
        if len(have) else np.zeros(0, np.int64)
    headers, grams = header_matrix([header_grams(c) for c in cols["name"]])
    p = LakeProfiles(fmt=np.concatenate(parts["format"]), share=np.concatenate(parts["numeric_share"]),
                     n_num=np.concatenate(parts["numeric_n"]),
                     quantiles=np.concatenate(parts["quantiles"]),
                     vectors=np.concatenate(parts["vectors"]), sizes=np.concatenate(sizes),
                     table_ids=cols["table_id"].to_numpy(), gram_columns=headers.T.tocsr(),
                     header_len=np.diff(headers.indptr).astype(np.int64), grams=grams,
                     embedder=sec["embedder"], sample_values=int(sec["sample_values"]),
                     background=bg, format_version=int(sec.get("histogram_version", 1)),
                     vocabulary=int(sum(g.n_tokens for g in index.generations)))
    assert len(p.sizes) == n
    p.boolean = (p.sizes > 0) & (overlaps(index, sorted(BOOLEAN)) == p.sizes)
    _PROFILES[index] = p
    return p


def header_matrix(gram_sets: list):
    """A sparse 0/1 matrix (one row per column name, one column per 3-gram) and the
    3-gram -> column map."""
    from scipy.sparse import csr_matrix
    grams: dict = {}
    indptr, indices = [0], []
    for g in gram_sets:
        indices += [grams.setdefault(x, len(grams)) for x in sorted(g)]
        indptr.append(len(indices))
    m = csr_matrix((np.ones(len(indices), np.float32), indices, indptr),
                   shape=(len(gram_sets), max(len(grams), 1)))
    return m, grams


def header_similarities(q: frozenset, lp: "LakeProfiles") -> np.ndarray:
    """Jaccard of q's header 3-grams with those of every lake column, counted from the
    columns of each 3-gram of q (a column sharing none is 0, never visited); 0 for names
    not alike beyond chance (``names_alike``: one 3-gram inside longer words)."""
    out = np.zeros(len(lp.header_len))
    known = [lp.grams[g] for g in q if g in lp.grams]
    if not known:
        return out
    ptr, cols = lp.gram_columns.indptr, lp.gram_columns.indices
    inter = np.bincount(np.concatenate([cols[ptr[g]:ptr[g + 1]] for g in known]),
                        minlength=len(out))
    hit = np.flatnonzero(inter)
    jaccard = inter[hit] / (len(q) + lp.header_len[hit] - inter[hit])
    out[hit] = np.where(names_alike(inter[hit], len(q), lp.header_len[hit]), jaccard, 0.0)
    return out


# ----------------------------------------------------------------------- query side

@dataclass
class QueryColumn:
    name: object
    tokens: list            # distinct tokens
    fmt: np.ndarray
    share: float
    n_num: int
    quantiles: np.ndarray
    vector: np.ndarray
    header: frozenset
    hashes: np.ndarray | None = None    # token_hash64 of tokens
    unseen: float = 0.0     # Good-Turing: the share of cells holding a value seen once
    grid: tuple = (np.nan, np.nan, 0.0)  # numeric_grid of its numbers (numeric columns)
    padded: np.ndarray | None = None    # integer codes zero-padded: formats (padded_formats)
    _numbers: np.ndarray | None = None

    @property
    def numbers(self) -> np.ndarray:
        """Its distinct tokens that are numbers, as floats, sorted (common_range)."""
        if self._numbers is None:
            self._numbers = np.sort(pd.to_numeric(pd.Series(self.tokens, dtype=object),
                                                  errors="coerce").dropna().to_numpy(np.float64))
        return self._numbers

    @property
    def numeric(self) -> bool:
        return bool(is_numeric(self.share, self.n_num))

    @property
    def boolean(self) -> bool:
        return bool(self.tokens) and set(self.tokens) <= BOOLEAN


def scalar_cells(values: pd.Series) -> pd.Series:
    """``values`` with a list column's cells (every cell a list of scalars, or null) as their
    elements, one per row, as the build profiles a lake list column; any other list or dict
    (lists of lists, JSON objects) as the JSON text the lake reader gives it."""
    if values.dtype != object or pd.api.types.infer_dtype(values, skipna=True) not in (
            "mixed", "mixed-integer"):
        return values                 # texts, numbers, dates... (no Python loop over cells)
    nested = values.map(lambda v: isinstance(v, (list, tuple, np.ndarray, dict)))
    if not nested.any():
        return values
    if not values[~nested].notna().any() and not values[nested].map(
            lambda v: isinstance(v, dict)
            or any(isinstance(e, (list, tuple, np.ndarray, dict)) for e in v)).any():
        return values.explode()
    return values.map(lambda v: render_value(v if isinstance(v, dict) else list(v))
                      if isinstance(v, (list, tuple, np.ndarray, dict)) else v)


def profile_column(values: pd.Series, sample_values: int,
                   fmt_version: int = FORMAT_VERSION) -> tuple:
    """(QueryColumn without its vector, the tokens to embed) of one column: each distinct
    value rendered, normalized and given a pattern once; above VECTOR_MIN distinct values
    all at once (index/union_profile.py cell_texts and pattern_buckets, lake/normalize.py
    normalize_array), below it one by one (Arrow's fixed cost per call is the larger)."""
    codes, uniq = pd.factorize(scalar_cells(values), use_na_sentinel=True)
    texts = cell_texts(uniq)
    if len(texts) > VECTOR_MIN:
        import pyarrow as pa
        import pyarrow.compute as pc
        toks = normalize_array(pa.array(texts, pa.string()))
        distinct = pc.unique(toks.drop_null()).to_pylist()
    else:
        toks = [None if t is None else normalize_text(t) for t in texts]
        distinct = list(dict.fromkeys(t for t in toks if t is not None))
    counts = np.bincount(codes[codes >= 0], minlength=len(uniq))
    # per distinct value, weighted by its cells (as the build counts them)
    share, n_num, q = numeric_summary_counted(toks, counts)
    hashes = token_hash64(distinct)
    fmt = format_histogram(list(dict.fromkeys(t for t in texts if t is not None)),
                           version=fmt_version)
    unseen = float((counts == 1).sum() / counts.sum()) if counts.sum() else 0.0
    qc = QueryColumn(values.name, distinct, fmt, share, n_num, q, None,
                     header_grams(values.name), hashes, unseen,
                     padded=padded_formats(texts, fmt_version))
    if qc.numeric:
        qc.grid = numeric_grid(pd.to_numeric(pd.Series(distinct, dtype=object), errors="coerce"))
    return (qc,
            sample_tokens(distinct, sample_values, hashes))


def padded_formats(texts, fmt_version: int = FORMAT_VERSION) -> np.ndarray | None:
    """Integer codes (every distinct text digits, none with a leading zero, as an integer
    column renders: a ZIP code 01001 read as 1001): the format histograms of the texts
    zero-padded to the longest one's width and to one digit more, the widths of the
    zero-padded codes of one length they may have been (2, FORMAT_DIMS); else None. The
    format evidence takes the closest of these and the texts' own (:func:`evidence`), as the
    set evidence reads 1001 and 01001 as one value."""
    texts = list(dict.fromkeys(t for t in texts if t is not None))
    if len(texts) <= FEW_VALUES or not all(t.isascii() and t.isdigit() and t[0] != "0"
                                           for t in texts):
        return None
    width = max(map(len, texts))
    return np.stack([format_histogram([t.rjust(w, "0") for t in texts], version=fmt_version)
                     for w in (width, width + 1)])


def profile_frame(frame: pd.DataFrame, embedder, sample_values: int,
                  fmt_version: int = FORMAT_VERSION) -> list[QueryColumn]:
    """The union profile of each column of a pandas frame (what the build computes; format
    histograms of the index's ``fmt_version``)."""
    out, samples = [], []
    for pos in range(frame.shape[1]):
        col = frame.iloc[:, pos]
        col.name = frame.columns[pos]
        qc, sample = profile_column(col, sample_values, fmt_version)
        out.append(qc)
        samples.append(sample)
    vecs = column_vectors(embedder, samples)
    for qc, v in zip(out, vecs):
        qc.vector = v
    return out


def set_population(qs: list, ids: np.ndarray, lp: "LakeProfiles",
                   shared: np.ndarray | None = None) -> np.ndarray:
    """The domain of the set statistic per query column (rows) and lake column (``ids``,
    nb distinct values each): between the two columns' disjoint union (a query column whose
    values all repeat holds its whole domain, TUS §3.1) and the lake's vocabulary (a query
    column of values seen once is a small sample of a larger domain), geometrically by the
    query column's Good-Turing share of values seen once, times min(1, SMALL_SAMPLE / its
    distinct values), times 1 - na / nb (only a lake column larger than the query column: a
    small column inside a large one). A numeric query column keeps the disjoint union
    (numbers are no vocabulary); against a numeric lake column whose numbers reach beyond
    the query's (below its lowest or above its highest), or lie strictly inside its span,
    the numbers the two could hold at the step they are written at where no more than the
    disjoint union (``grid_size``: the integers from -5 to 62 are 68, and a lake column
    holding 64 of them holds any 10 integers of 16..34 by chance; party sizes 1..6 against
    a counter 0..9: the query holds any integers there), else the test on the two spans'
    common range (``common_range``: 158 of 300 ZIP codes in a list of 900 reaching further,
    166 in the query's span, are no chance; a counter 0..29 holds every count there);
    set_statistic keeps the na + nb - t the columns hold. ``shared``: the pairs' overlaps,
    when known (common_range). A lake
    column sharing the query's span or one end of it keeps the disjoint union: two columns
    of the ratings 1-5 are one domain, as TUS's disjoint union says, though any two such
    columns share every value, and a sample of a count stops short of its rarest end."""
    ids = np.asarray(ids, dtype=np.int64)
    na = np.array([len(q.tokens) for q in qs], dtype=np.float64)[:, None]
    w = np.array([0.0 if q.numeric else q.unseen * min(1.0, SMALL_SAMPLE / max(len(q.tokens), 1))
                  for q in qs], dtype=np.float64)[:, None]
    nb = np.asarray(lp.sizes[ids], dtype=np.float64)[None, :]
    w = w * np.clip(1 - na / np.maximum(nb, 1), 0, 1)
    pair = na + nb
    lake = np.maximum(float(lp.vocabulary), pair)
    pop = np.exp((1 - w) * np.log(pair) + w * np.log(lake))
    rows = [r for r, q in enumerate(qs) if q.numeric]
    cols = np.flatnonzero(lp.numeric[ids])
    if rows and len(cols):
        lo, hi, step = (g[ids[cols]] for g in lp.grids)
        quant = np.asarray(lp.quantiles[ids[cols]], dtype=np.float64)
        for r in rows:
            g = qs[r].grid
            wider = (lo < g[0]) | (hi > g[1])
            inside = (lo > g[0]) & (hi < g[1])
            common = common_range(qs[r], g, lo, hi, step, quant, nb[0, cols],
                                  None if shared is None else np.asarray(shared)[r, cols])
            grid = grid_size(*g, lo, hi, step)
            pop[r, cols] = np.where(wider | inside,
                                    np.where(grid <= pop[r, cols] * (1 + 1e-9), grid,
                                             np.where(np.isfinite(common), common, pop[r, cols])),
                                    pop[r, cols])
    return pop


def common_range(q: "QueryColumn", g: tuple, lo, hi, step, quantiles, nb,
                 shared=None) -> np.ndarray:
    """The set population of a numeric query column (grid ``g``) against numeric lake
    columns (``lo``, ``hi``, ``step``, 21 ``quantiles``, ``nb`` distinct values each) whose
    spans differ: only values inside both spans can be shared, so the test is the one on
    that common range, the query's values there (na') against the lake's (nb', from its
    quantiles), on the disjoint union of those or the grid the range holds, where fewer
    (p'); returned as the population giving the whole columns the same expected overlap,
    p' na nb / (na' nb'). 158 of 300 ZIP codes 01001..02061 in a column of 900 reaching
    06906, about 166 of them in the query's span, are set evidence (p' = 466, not the
    1,200 of the disjoint union); a counter holding every integer 0..29 shares by chance
    every count of a column 1..82 that falls there. inf where the spans do not meet or a
    column has no grid (the caller keeps its population). The quantiles count cells, so
    nb' is never taken under the values shared (``shared``, when known): small counts
    repeat, and a column of clicks 0..400 holds more distinct values under 30 than its
    cells there say."""
    nums = q.numbers
    na = float(len(q.tokens))
    a, b = np.maximum(lo, g[0]), np.minimum(hi, g[1])
    st = np.minimum(step, g[2])
    with np.errstate(divide="ignore", invalid="ignore"):
        grid = np.floor((b - a) / np.where(st > 0, st, np.nan) + 0.5) + 1
        na_in = (np.searchsorted(nums, b, side="right")
                 - np.searchsorted(nums, a, side="left")).astype(np.float64)
        share = np.where(np.isnan(quantiles).any(axis=1), 1.0,
                         sketch_share(quantiles, b, True) - sketch_share(quantiles, a, False))
        nb_in = np.maximum(np.asarray(nb, dtype=np.float64) * np.clip(share, 0, 1), 1.0)
        if shared is not None:
            nb_in = np.maximum(nb_in, np.asarray(shared, dtype=np.float64))
        na_in = np.maximum(na_in, 1.0)
        p_in = np.minimum(na_in + nb_in, grid)
        out = p_in * na * np.asarray(nb, dtype=np.float64) / (na_in * nb_in)
    ok = (b >= a) & (st > 0) & (step > 0) & (g[2] > 0) & np.isfinite(out) & (len(nums) > 0)
    return np.where(ok, out, np.inf)


def sketch_share(quantiles: np.ndarray, x: np.ndarray, inclusive: bool) -> np.ndarray:
    """Per row of ``quantiles`` (sorted, equally spaced probabilities from 0 to 1): the share
    of cells at or below ``x`` (``inclusive``) or below it, interpolated linearly between
    the sketch's points (np.interp's, vectorized over rows)."""
    q = np.asarray(quantiles, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    steps = q.shape[1] - 1
    below = (q <= x[:, None]) if inclusive else (q < x[:, None])
    n = below.sum(axis=1)
    i = np.clip(n - 1, 0, steps - 1)
    rows = np.arange(len(q))
    lo, hi = q[rows, i], q[rows, i + 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.clip(np.where(hi > lo, (x - lo) / (hi - lo), 1.0), 0.0, 1.0)
    out = (i + frac) / steps
    return np.where(n == 0, 0.0, np.where(n > steps, 1.0, out))


def overlaps(index, tokens: list, hashes: np.ndarray | None = None) -> np.ndarray:
    """|Q ∩ X| for every lake column X, from the posting lists of Q's tokens (``hashes``:
    their token_hash64, when known)."""
    out = np.zeros(index.n_sets, dtype=np.int64)
    for g in index.generations:
        ids = g.lookup(tokens, hashes)
        ids = ids[ids >= 0]
        if not len(ids):
            continue
        a = g.arrays
        ptr = np.asarray(a.post_indptr)
        starts, ends = ptr[ids], ptr[ids + 1]
        sets = np.asarray(a.post_sets)
        lens = ends - starts
        idx = np.repeat(starts - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens) + \
            np.arange(int(lens.sum()))
        out[g.column_offset:g.column_offset + g.n_sets] += np.bincount(sets[idx], minlength=g.n_sets)
    return out


@dataclass
class LakePart:
    """The union profiles of some lake columns, gathered once for every query column."""
    ids: np.ndarray
    sizes: np.ndarray
    fmt: np.ndarray
    numeric: np.ndarray
    quantiles: np.ndarray
    vectors: np.ndarray         # float64
    share: np.ndarray           # share of numeric cells
    boolean: np.ndarray         # a column of true/false (LakeProfiles.boolean)


def lake_part(lp: LakeProfiles, ids) -> LakePart:
    ids = np.asarray(ids, dtype=np.int64)
    return LakePart(ids, lp.sizes[ids], lp.fmt[ids], lp.numeric[ids], lp.quantiles[ids],
                    np.asarray(lp.vectors[ids], dtype=np.float64), lp.share[ids],
                    lp.boolean[ids])


def kinds_apart(qs: list, part: LakePart) -> np.ndarray:
    """(len(qs), len(part.ids)): True where one column is of numbers (the profile's test)
    and the other of text, most of its cells not numbers (share under TEXT_SHARE): such a
    pair never aligns, whatever the few numbers among the text share with the other
    column. A mixed column (share between) is of neither kind."""
    qnum = np.array([q.numeric for q in qs], dtype=bool)[:, None]
    qtext = np.array([q.share < TEXT_SHARE for q in qs], dtype=bool)[:, None]
    return (qnum & (part.share < TEXT_SHARE)[None, :]) | (qtext & part.numeric[None, :])


def booleans_apart(qs: list, part: LakePart) -> np.ndarray:
    """(len(qs), len(part.ids)): True where one column is boolean (every distinct token true
    or false) and the other is not: stacked, the boolean column would take other values
    (male/female under a true/false flag). Two booleans are equal on every measure, so the
    rule is not applied to the background (a flag would beat no other flag)."""
    qb = np.array([q.boolean for q in qs], dtype=bool)[:, None]
    return qb != part.boolean[None, :]


def compete(u_set: np.ndarray, overlap: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The set likelihoods (query columns x lake columns, the tables' columns consecutive
    from ``starts``) scaled by each lake column's overlap with the query column over the
    largest overlap of a column of its table: when two columns of one table share a query
    column's values, the one holding more of them is its partner (the likelihood, a share
    of the lake's columns, is near 1 for both). Applied to text query columns only: unrelated
    numeric columns share their values."""
    if not u_set.size:
        return u_set
    best = np.maximum.reduceat(overlap, starts, axis=1)
    size = np.diff(np.append(starts, overlap.shape[1]))
    best = np.repeat(best, size, axis=1).astype(np.float64)
    ratio = np.divide(overlap, best, out=np.ones_like(best), where=best > 0)
    return u_set * ratio


def evidence(qs: list, part: LakePart, overlap: np.ndarray, lp: LakeProfiles,
             header: np.ndarray | None = None, semantic: np.ndarray | None = None,
             background: bool = False) -> dict:
    """Raw evidence of query columns ``qs`` against the lake columns of ``part``, one
    (len(qs), len(part.ids)) array per measure (NaN: not applicable); ``overlap``: |Q ∩ X|
    per query and lake column; ``header``: the header similarity per query and lake column,
    ``semantic``: the vector cosines with part's columns, when already computed. Cosines
    are rounded to 6 decimals, so equal vectors tie however the product was computed.
    ``background``: part is the background, every pair's evidence kept (few_values
    applies to the scored pairs: the background is the lake as it is)."""
    ids = part.ids
    sem = semantic if semantic is not None else \
        cosine(np.stack([q.vector for q in qs]), part.vectors)
    na = np.array([len(q.tokens) for q in qs])[:, None]
    nb = part.sizes[None, :]
    pop = set_population(qs, ids, lp, overlap[:, ids])
    ev = {"set": chance_level(set_statistic(overlap[:, ids], na, nb, pop), na, nb),
          "semantic": np.round(np.asarray(sem, dtype=np.float64), 6),
          "format": format_similarity(np.stack([q.fmt for q in qs]), part.fmt)}
    for r, q in enumerate(qs):      # integer codes: also as zero-padded codes of one length
        if q.padded is not None:
            ev["format"][r] = np.max(np.vstack([ev["format"][r][None],
                                                format_similarity(q.padded, part.fmt)]), axis=0)
    # a column of a few distinct values is no sample of a domain: its vector and its format
    # histogram are those values', so neither measure applies to its pairs unless one of the
    # values is the other column's (few_values)
    if not background:
        one = few_values(na, part.sizes[None, :], overlap[:, ids])
        ev["semantic"] = np.where(one, np.nan, ev["semantic"])
        ev["format"] = np.where(one, np.nan, ev["format"])
    num = np.full((len(qs), len(ids)), np.nan)
    qnum = [r for r, q in enumerate(qs) if q.numeric]
    if qnum and part.numeric.any():
        num[np.ix_(qnum, np.flatnonzero(part.numeric))] = ks_similarity(
            np.stack([qs[r].quantiles for r in qnum]), part.quantiles[part.numeric])
    ev["numeric"] = num
    ev["header"] = (header[:, ids] if header is not None
                    else np.stack([header_similarities(q.header, lp)[ids] for q in qs]))
    return ev


def partners_out(bg: dict) -> dict:
    """The background evidence (query columns x background columns) without each query
    column's partners: a background column sharing the query column's values beyond chance
    (set statistic SIGNIFICANT or more) is left out of that query column's background on
    every measure (NaN). The background stands for the pairs chance makes (TUS's goodness
    is taken over all pairs, nearly all of them not unionable); a partner is not one. In a
    small lake of one domain the partners are a large share of the background, each beaten
    by the others on every measure: 12 time-zone ids held whole by 15 of 75 columns read
    0.86-0.95 there, under ``min_column`` once sharpened."""
    out = np.asarray(bg["set"]) >= SIGNIFICANT
    return {k: np.where(out, np.nan, v) for k, v in bg.items()}


def chance_level(statistic: np.ndarray, na, nb) -> np.ndarray:
    """The set statistics with those under SIGNIFICANT (an overlap chance gives at least once
    in 20) set to 0 where both columns hold more than FEW_VALUES distinct values, on every
    lake: a statistic barely above 0 otherwise beats every background column sharing
    nothing and reads as certain (10 integer percentages among 78 temperatures: p = 0.45 on
    the numbers they could hold, likelihood 1.0). Columns of a few values are left to the
    background (chance_overlap in a small lake): their test can hardly reach significance
    (3 of 3 shared on 6 values is p = 0.05)."""
    small = np.minimum(np.asarray(na), np.asarray(nb)) <= FEW_VALUES
    return np.where((statistic < SIGNIFICANT) & ~small, 0.0, statistic)


def few_values(na, nb, shared) -> np.ndarray:
    """Where a pair's semantic and format evidence does not apply: one of its columns holds
    at most FEW_VALUES distinct values, the other more, and none of them is among the
    other's (``na``, ``nb``: the distinct values of the query and the lake column,
    ``shared``: their overlap, broadcast). TUS's natural-language unionability compares two
    samples of a domain; a few values are no sample (one value's mean vector is that
    value's, a code column's A/N/U one capital letter, as "Albania" is one capitalized
    word), so they can only show that they belong to the other column's domain by being
    some of its values (set evidence); when none is, nothing else speaks for the pair."""
    na, nb = np.asarray(na), np.asarray(nb)
    few = np.minimum(na, nb) <= FEW_VALUES
    return few & (na != nb) & (np.asarray(shared) == 0)


def numbers_apart(numeric: np.ndarray, shared: np.ndarray, header: np.ndarray) -> np.ndarray:
    """Where two numeric columns' distributions barely meet and they share no value: KS
    similarity (the raw numeric evidence, NaN for other pairs) under NUMBERS_APART, as
    longitudes (-176..174, most under -70) against life expectancies (71..81). Such a pair
    never aligns: most lake pairs score 0 on this measure, so any overlap at all beats the
    background and would read as likely. A shared value (a query's one year, 2007, among
    a column of years 1952-2007) keeps the pair to the other measures, and so does a name
    alike (``header``, the raw header similarity, > 0; the caller passes 0 for a same name,
    left to the name rule): ZIP codes of other states, 02062..03086 as `ZIP` under a
    query's `zip_code` 01001..02061, are the same measure of other rows, which a union adds."""
    x = np.asarray(numeric, dtype=np.float64)
    return ((np.nan_to_num(x, nan=1.0) < NUMBERS_APART) & (np.asarray(shared) == 0)
            & ~(np.nan_to_num(np.asarray(header, dtype=np.float64)) > 0))


def likelihoods(ev: dict, bg: dict, ids=None, bg_ids=None, chance=None) -> dict:
    """Each measure as the share of the background it beats (strictly), NaN kept; row r
    of each measure against row r of the background's. ``ids`` (the lake columns of ``ev``)
    and ``bg_ids`` (the background's, sorted): a column of the background is not compared
    with itself (its share is over the other background columns). Fewer than
    MIN_BACKGROUND other columns (a small lake) are completed to MIN_BACKGROUND with copies
    of the background's median value: a score beats those when it beats the median; there,
    a set statistic marked True in ``chance`` (``chance_overlap``) beats nothing."""
    n_cols = next(iter(ev.values())).shape[1] if ev else 0
    own = np.full(n_cols, -1, dtype=np.int64)        # each column's place in the background
    if ids is not None and bg_ids is not None and len(bg_ids):
        ids, bg_ids = np.asarray(ids), np.asarray(bg_ids)
        pos = np.minimum(np.searchsorted(bg_ids, ids), len(bg_ids) - 1)
        own = np.where(bg_ids[pos] == ids, pos, -1)
    mine = np.flatnonzero(own >= 0)
    out = {}
    for k, x in ev.items():
        u = np.full(x.shape, np.nan)
        for r in range(x.shape[0]):
            row = bg[k][r]
            b = row[~np.isnan(row)]
            xr = np.nan_to_num(x[r], nan=-np.inf)
            b = np.sort(b)
            beaten = np.searchsorted(b, xr, side="left").astype(np.float64)
            others = np.full(len(xr), float(len(b)))
            self_bg = row[own[mine]]
            counted = ~np.isnan(self_bg)
            others[mine[counted]] -= 1
            beaten[mine[counted]] -= self_bg[counted] < xr[mine[counted]]
            # a small lake: the other columns completed with copies of the median one
            fill = np.where(others > 0, np.maximum(MIN_BACKGROUND - others, 0), 0)
            if fill.any():
                beaten += fill * (xr > b[(len(b) - 1) // 2])
                others += fill
            u[r] = np.where(others > 0, beaten / np.maximum(others, 1), np.clip(x[r], 0, 1))
            if k == "set" and chance is not None:   # a small lake: a chance overlap
                u[r] = np.where((fill > 0) & chance[r], 0.0, u[r])
        out[k] = np.where(np.isnan(x), np.nan, u)
    return out


def chance_overlap(qs: list, part: LakePart, statistic: np.ndarray, lp: LakeProfiles) -> np.ndarray:
    """(len(qs), len(part.ids)): True where a pair's set statistic is under SIGNIFICANT
    (p > 0.05) while the test could reach it: the statistic of one column holding all of
    the other's values (t = min(|Q|, |X|)), on the same population, is SIGNIFICANT or more.
    Columns too small for the test (two values each: at best 1/6) are never marked."""
    return (statistic < SIGNIFICANT) & (set_reach(qs, part, lp) >= SIGNIFICANT)


def set_reach(qs: list, part: LakePart, lp: LakeProfiles) -> np.ndarray:
    """(len(qs), len(part.ids)): the largest set statistic each pair allows, one column
    holding all of the other's values (t = min(|Q|, |X|)), on the pair's population."""
    na = np.array([len(q.tokens) for q in qs], dtype=np.float64)[:, None]
    nb = part.sizes.astype(np.float64)[None, :]
    return set_statistic(np.minimum(na, nb), na, nb, set_population(qs, part.ids, lp))


def reach_weights(qs: list, part: LakePart, lp: LakeProfiles) -> np.ndarray:
    """Each pair's share of its score in a table's sum, in a small lake (a background of
    at most MIN_BACKGROUND columns, completed with its median, which hides how often
    columns agree by chance): min(1, set_reach / SIGNIFICANT) for two columns of two or
    more values (two flags sharing both values: at best p = 1/6, 0.60), else 1 (a column
    of one value: column_weights). On a larger lake every pair counts whole."""
    shape = (len(qs), len(part.ids))
    if len(lp.background) > MIN_BACKGROUND:
        return np.ones(shape)
    na = np.array([len(q.tokens) for q in qs], dtype=np.float64)[:, None]
    nb = part.sizes.astype(np.float64)[None, :]
    r = np.minimum(1.0, set_reach(qs, part, lp) / SIGNIFICANT)
    return np.where((na >= 2) & (nb >= 2), r, 1.0)


def ensemble(u: dict, weights: dict, sharpness: float = 1.0) -> np.ndarray:
    """Weighted mean of the applicable likelihoods, each raised to ``sharpness`` (a measure
    that is NaN is left out)."""
    num = den = 0.0
    for k, w in weights.items():
        if not w:
            continue
        x = u[k]
        ok = ~np.isnan(x)
        num = num + np.where(ok, w * np.nan_to_num(x) ** sharpness, 0.0)
        den = den + np.where(ok, w, 0.0)
    return np.divide(num, den, out=np.zeros_like(np.asarray(num, dtype=np.float64)),
                     where=np.asarray(den) > 0)


def best_alignment(scores: np.ndarray, min_column: float = MIN_COLUMN,
                   choice: np.ndarray | None = None,
                   named: np.ndarray | None = None) -> tuple[list, float]:
    """Max-weight matching of rows (query columns) to columns (lake columns) using pairs
    scoring >= min_column: ([(row, col), ...] sorted by row, matched sum of ``scores``).
    ``choice``: the weights the matching maximizes instead of ``scores`` (named_choice);
    ``named``: pairs that may also enter by their ``choice`` >= min_column (pairs without
    set evidence whose names are alike: the name chooses them, named_choice)."""
    from scipy.optimize import linear_sum_assignment
    ok = scores >= min_column
    if named is not None and choice is not None:
        ok = ok | (np.asarray(named, dtype=bool) & (choice >= min_column) & (scores > 0))
    s = np.where(ok, scores if choice is None else np.maximum(choice, scores), 0.0)
    if not s.size or not s.any():
        return [], 0.0
    r, c = linear_sum_assignment(s, maximize=True)
    pairs = [(int(i), int(j)) for i, j in zip(r, c) if ok[i, j]]
    return pairs, float(sum(scores[i, j] for i, j in pairs))


def named_choice(scores: np.ndarray, u: dict, weights: dict, sharpness: float) -> np.ndarray:
    """The weights the matching chooses pairs by (best_alignment): each pair's score, plus,
    for a pair without set evidence (set likelihood 0: no value shared beyond chance), its
    header likelihood counted at the weight of the strongest measure instead of the
    header's own (``weights``). Without set evidence the other measures only say that two
    columns are of one kind (integers of a similar size, words of a shape), which every
    such column of a table is, and their differences of a few background columns decide
    nothing; the name then chooses among them (D3L counts names as any other evidence).
    The score stays the ensemble's: names choose a pair, never add to a table's score."""
    w_h, w_top = weights.get("header", 0.0), max(weights.values(), default=0.0)
    if not w_h or not weights.get("set") or w_top <= w_h:
        return scores
    den = sum(w * ~np.isnan(u[k]) for k, w in weights.items() if w)
    header = np.nan_to_num(u["header"]) ** sharpness
    extra = np.divide((w_top - w_h) * header, den, out=np.zeros_like(header), where=den > 0)
    return np.where(np.nan_to_num(u["set"], nan=1.0) == 0, scores + extra, scores)


def kind_only(q: QueryColumn, u: dict, j: int) -> bool:
    """Whether the pair of the numeric query column ``q`` and the lake column ``j`` has no
    evidence but its kind: no value shared beyond chance (set likelihood 0) and no name in
    common (header likelihood 0). Its vector, format and quantile likelihoods then say that
    both are numbers of a similar size, which any two counters or small integers are, and
    none of them has a chance test; a table aligned by such pairs alone is not listed."""
    return q.numeric and not u["set"][j] > 0 and not u["header"][j] > 0


def values_unshared(qs: list, shared: np.ndarray, set_u: np.ndarray, header: np.ndarray,
                    same_name: np.ndarray) -> np.ndarray:
    """(len(qs), lake columns): where a query column and a lake column share no value
    beyond chance (none; or, for a query column of more than FEW_VALUES values, no more
    than gives no set evidence, likelihood 0: a column of one year shares its one value for
    a reason, below any test's reach) and no name: for text no name alike (header
    likelihood 0: `ver` and `version`), for numbers neither the same folded name nor one
    name's words within the other's (``same_name``, :func:`names_within`: `gdp_trillion` in
    `gdp_trillion_usd`; measures share words, `units` and `currency_minor_unit`). In a table
    holding the query's entities (a query column of distinct values, a key (is_key),
    aligned with set evidence) such a pair does not align: the same attribute of the same
    entities would share values, and its vector, format and quantile evidence only says
    that both hold values of one kind: numbers of a similar size (populations and GeoNames
    ids, 49,518..7,626,836 of the same countries), capitalized words (city names under the
    country names of a table holding the query's country codes). Elsewhere other rows'
    amounts or names share no value with the query's (prices with cents) and the pair
    stays. A same-named column still aligns by the name rule."""
    many = np.array([len(q.tokens) > FEW_VALUES for q in qs], dtype=bool)[:, None]
    by_chance = (np.asarray(shared) == 0) | (many & ~(np.nan_to_num(set_u) > 0))
    numeric = np.array([q.numeric for q in qs], dtype=bool)[:, None]
    named = np.where(numeric, np.asarray(same_name, dtype=bool), np.nan_to_num(header) > 0)
    return by_chance & ~named


def names_crossed(has_set: np.ndarray, same_name: np.ndarray) -> np.ndarray:
    """Within one table (query columns x its columns): the pairs without set evidence
    (``has_set``: set likelihood > 0) whose query column or lake column has another partner of the same folded
    name there. With no value to tell, the names decide: `vendor_id <- device_id` and
    `device_id <- vendor_id` (ids of one shape, header 3-grams alike) must not outscore
    `vendor_id <- vendor_id`; a pair sharing values beyond chance keeps them (a renamed
    column)."""
    same = np.asarray(same_name, dtype=bool)
    claimed = same.any(axis=0)[None, :] | same.any(axis=1)[:, None]
    return claimed & ~same & ~np.asarray(has_set, dtype=bool)


def written_as_held(u_format: np.ndarray, shared: np.ndarray, na, statistic: np.ndarray) -> np.ndarray:
    """The format likelihoods (query columns x lake columns) raised, where a pair shares
    values beyond chance (set statistic SIGNIFICANT or more), to at least the share of the
    query column's ``na`` values the lake column holds (``shared``). Shared values are
    equal after the normalization every search and the union use (case, spacing, number
    formats), so that share of the query's values is written as the lake column writes it
    up to what the normalization folds; the histograms tell only that fold (country codes
    `ad` under a query's `FR`: format 0, though the lake column holds all 11 codes)."""
    held = np.asarray(shared, dtype=np.float64) / np.maximum(np.asarray(na, dtype=np.float64), 1)
    lift = np.where(np.asarray(statistic) >= SIGNIFICANT, np.clip(held, 0, 1), 0.0)
    return np.where(np.isnan(u_format), u_format, np.maximum(u_format, lift))


def name_over_kind(qs: list, set_u: np.ndarray, header_u: np.ndarray,
                   scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(named, evidenced, kind), each (len(qs), lake columns), for numeric query columns:
    ``named`` where a pair shares no value beyond chance (set likelihood 0) but a name
    alike (header likelihood > 0) and may align (score > 0); ``evidenced`` where it may
    align with set evidence, or has a name alike (a same-named pair apart is then left to
    the name rule, name_pairs); ``kind`` where it has neither (kind_only). In a
    table, a pair of kind alone yields (``kind_yields``) to the evidenced pairs of its query
    column and of its lake column."""
    numeric = np.array([q.numeric for q in qs], dtype=bool)[:, None]
    has_set = np.nan_to_num(set_u) > 0
    alike = np.nan_to_num(header_u) > 0
    ok = np.asarray(scores) > 0
    named = numeric & ~has_set & alike & ok
    evidenced = numeric & ((has_set & ok) | alike)
    kind = numeric & ~has_set & ~alike
    return named, evidenced, kind


def kind_yields(evidenced: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """Within one table (query columns x its columns): the pairs of kind alone whose query
    column or lake column has an evidenced partner there (name_over_kind). Such a pair
    says only that both are numbers of a similar size, which the query's ZIP codes and the
    lake's populations also are; when the ZIP codes share values with the lake's ZIP
    codes (or a name), the matching must not trade that pair for two of kind alone
    (populations <- ZIP codes and ZIP codes <- populations summing to more), nor stack
    other states' ZIP codes (sharing none, a name alike) as populations."""
    claimed = evidenced.any(axis=0)[None, :] | evidenced.any(axis=1)[:, None]
    return kind & claimed


def is_key(values: pd.Series, q: QueryColumn) -> bool:
    """Whether a query column is a key of its rows (values_unshared's keyed table): two or
    more distinct values, as many as KEY_SHARE of its non-null cells or more. Real keys
    repeat in a few rows (a country entered twice under two spellings, a code shared by
    two names: 251 codes in 254 rows); a column of categories repeats in most."""
    cells = int(values.notna().sum())
    return len(q.tokens) >= 2 and cells > 0 and len(q.tokens) >= KEY_SHARE * cells


def by_kind(u: dict, cols, same=None) -> bool:
    """Whether none of the pairs ``cols`` [(query position, lake column position)] has set
    evidence (likelihood > 0; ``u``: query position -> measure -> likelihoods) or the same
    folded name (``same``, a boolean matrix; without it, header likelihood > 0: names
    sharing a word, `Country Name` and `state_name`, are not enough):
    the table is aligned by its columns' kind alone (codes of capital letters, words of a
    shape, numbers of a size), which a table of another domain shares. Such a table is
    ranked after every table with such a pair, not dropped: a lake table holding other
    rows of the query's domain (a file cut in two) shares no value either."""
    if same is not None:
        return not any(u[i]["set"][j] > 0 or same[i, j] for i, j in cols)
    return not any(u[i]["set"][j] > 0 or u[i]["header"][j] > 0 for i, j in cols)


def row_information(codes: list, positions) -> float:
    """Simpson's index of the query's rows over the columns at ``positions``: the chance
    that two of its rows (drawn at random without replacement) differ there, 1 - sum of
    c_r (c_r - 1) / (n (n - 1)) over the distinct rows r of that projection, c_r rows each
    (n distinct rows: 1; columns of one value: 0; a balanced flag: about 0.5). ``codes``:
    each query column's cells as integer codes from 0 (``row_codes``), by position. Fewer
    than two rows: 0."""
    positions = sorted(positions)
    n = len(codes[positions[0]]) if positions else 0
    if n < 2:
        return 0.0
    key = np.asarray(codes[positions[0]], dtype=np.int64)
    card = int(key.max()) + 1
    for i in positions[1:]:
        c = np.asarray(codes[i], dtype=np.int64)
        k = int(c.max()) + 1
        if card * k >= 2**62:                       # renumber the rows seen so far
            key = pd.factorize(key)[0].astype(np.int64)
            card = int(key.max()) + 1
        key, card = key * k + c, card * k
    c = np.bincount(pd.factorize(key)[0]).astype(np.float64)
    return float(1.0 - np.dot(c, c - 1) / (n * (n - 1.0)))


def column_weights(codes, n_columns: int) -> np.ndarray:
    """Each query column's weight in a table's score: 1/2 for a column of one value in
    every row (a domain shared with a lake column, no row told apart), else 1."""
    return np.array([1.0 if len(codes[i]) < 2 or np.any(codes[i] != codes[i][0]) else 0.5
                     for i in range(n_columns)])


def row_codes(values: pd.Series) -> np.ndarray:
    """A column's cells as integer codes from 0, one per row (a null one more value; cells
    that cannot be hashed, lists, by their text)."""
    try:
        codes = pd.factorize(values, use_na_sentinel=True)[0]
    except TypeError:
        codes = pd.factorize(values.map(repr), use_na_sentinel=True)[0]
    codes = codes.astype(np.int64)
    return np.where(codes < 0, codes.max(initial=-1) + 1, codes)


class FrameCodes(dict):
    """row_codes of a frame's columns by position, each computed when first asked for."""

    def __init__(self, frame: pd.DataFrame):
        super().__init__()
        self.frame = frame

    def __missing__(self, pos):
        self[pos] = row_codes(self.frame.iloc[:, pos])
        return self[pos]


# ----------------------------------------------------------------------- the name rule

def name_key(name) -> str | None:
    """A column name folded for the name rule: NFKC, case folded, letters and digits only
    ("Upload_Date", "upload date" -> "uploaddate"); None for a name without a letter (a
    position such as 0 or "1", not a name)."""
    import unicodedata
    text = unicodedata.normalize("NFKC", str(name)).casefold()
    key = "".join(ch for ch in text if ch.isalnum())
    return key if any(ch.isalpha() for ch in key) else None


def name_words(name) -> frozenset:
    """A column name's words, folded as :func:`name_key` folds ("GDP_trillion" -> {gdp,
    trillion})."""
    import re
    import unicodedata
    text = unicodedata.normalize("NFKC", str(name)).casefold()
    return frozenset(w for w in re.split(r"[\W_]+", text) if w)


def names_within(q_names: list, lake_names: list) -> np.ndarray:
    """(query columns, lake columns): one name's words all among the other's
    (`gdp_trillion` in `gdp_trillion_usd`); `units` is not in `currency_minor_unit`."""
    qw = [name_words(n) for n in q_names]
    lw = [name_words(n) for n in lake_names]
    return np.array([[bool(a) and bool(b) and (a <= b or b <= a) for b in lw] for a in qw],
                    dtype=bool).reshape(len(qw), len(lw))


def value_kind(tokens, numeric: bool) -> str:
    """"numeric" (the profile's test), "date" (at least DATE_SHARE of the first KIND_SAMPLE
    distinct tokens hold a digit and parse as a date or time, in any format) or "text"."""
    if numeric:
        return "numeric"
    sample = [t for t in list(tokens)[:KIND_SAMPLE] if t]
    if not sample:
        return "text"
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = pd.to_datetime(pd.Series(sample, dtype=object), format="mixed",
                                errors="coerce", utc=True)
    digit = np.fromiter((any(ch.isdigit() for ch in t) for t in sample), bool, len(sample))
    return "date" if (parsed.notna().to_numpy() & digit).mean() >= DATE_SHARE else "text"


def lake_kind(index, lp: LakeProfiles, column_id: int) -> str:
    """value_kind of a lake column, from the first KIND_SAMPLE tokens of its set."""
    if lp.numeric[column_id]:
        return "numeric"
    gen, local = index.generation_of(int(column_id))
    return value_kind(gen.token_text(gen.arrays.set_tokens(local)[:KIND_SAMPLE]), False)


def contradicts(kind: str, fmt_q: np.ndarray, fmt_x: np.ndarray) -> bool:
    """Whether a pair's values contradict its shared name, the kinds being equal: text
    written in other formats (histogram intersection under WRITTEN_ALIKE: most values of
    one take formats the other lacks). Numbers (a range may be split) and dates (written
    in any format) are decided by their kind alone."""
    return kind == "text" and float(format_similarity(fmt_q[None], fmt_x[None])[0, 0]) < WRITTEN_ALIKE


def name_pairs(qcols: list, query_kinds: dict, pairs: list, keys: np.ndarray,
               scores: np.ndarray, fmt: np.ndarray, kind_of) -> list:
    """The name rule on one table aligned by ``pairs`` [(query pos, table position)]:
    [(query pos, table position)] of the unaligned query columns whose folded name is that
    of an unmatched lake column (the best scoring such column that passes) of the same kind,
    its values not contradicting it. ``keys``, ``fmt``: the folded names and format
    histograms of the table's columns; ``kind_of(table position)``: a lake column's kind
    (read only when needed); ``query_kinds``: the query columns' kinds, filled on use."""
    used_q, used_x = {i for i, _ in pairs}, {j for _, j in pairs}
    out = []
    for i, q in enumerate(qcols):
        key = name_key(q.name)
        if i in used_q or key is None or not q.tokens:
            continue
        same = [j for j in range(len(keys)) if j not in used_x and keys[j] == key]
        for j in sorted(same, key=lambda j: -scores[i, j]):
            if i not in query_kinds:
                query_kinds[i] = value_kind(q.tokens, q.numeric)
            if query_kinds[i] != kind_of(j) or contradicts(query_kinds[i], q.fmt, fmt[j]):
                continue
            out.append((i, j))
            used_x.add(j)
            break
    return out


@dataclass
class UnionCandidate:
    table_id: int
    score: float
    pairs: list                 # [(query position, lake column id, column score)]
    evidence: dict = field(default_factory=dict)   # (query pos, column id) -> {measure: u}
    shared: dict = field(default_factory=dict)     # (query pos, column id) -> (|Q ∩ X|, |Q|, |X|)
    named: set = field(default_factory=set)        # query positions aligned by the name rule
    by_kind: bool = False       # no scored pair with set evidence or the same name: last (by_kind)


_BLAS: list = []


def blas_threads(flops: float):
    """A context running BLAS on one thread when a query's products are small (threadpoolctl;
    none if it is missing): OpenBLAS's worker threads then cost more than they give, most
    of all on a loaded machine (docs/algorithms/union.md, "Latency")."""
    from contextlib import nullcontext
    if flops > ONE_THREAD_FLOPS:
        return nullcontext()
    if not _BLAS:
        try:
            from threadpoolctl import ThreadpoolController
            _BLAS.append(ThreadpoolController())
        except ImportError:
            _BLAS.append(None)
    return nullcontext() if _BLAS[0] is None else _BLAS[0].limit(limits=1, user_api="blas")


def search(index, frame: pd.DataFrame, k: int = 10, *, weights: dict | None = None,
           min_column: float = MIN_COLUMN, sharpness: float = SHARPNESS, exclude_tables=(),
           neighbours: int = NEIGHBOURS, max_tables: int = MAX_TABLES) -> tuple[list, dict]:
    """The k most unionable lake tables of ``frame`` (see the module docstring)."""
    weights = dict(WEIGHTS if weights is None else weights)
    bad = set(weights) - set(EVIDENCE)
    if bad:
        raise QueryError(f"Unknown union evidence {sorted(bad)}; known: {list(EVIDENCE)}.")
    lp = lake_profiles(index)
    flops = 2.0 * len(lp.sizes) * lp.near_keys.shape[1] * frame.shape[1]
    with blas_threads(flops):
        return _search(index, lp, frame, k, weights, min_column, sharpness, exclude_tables,
                       neighbours, max_tables)


def _search(index, lp, frame, k, weights, min_column, sharpness, exclude_tables, neighbours,
            max_tables):
    if len(frame) > MAX_VALUES:
        frame = frame.sample(MAX_VALUES, random_state=0)
    qcols = profile_frame(frame, cached_embedder(lp.embedder), lp.sample_values,
                          lp.format_version)
    active = [i for i, q in enumerate(qcols) if q.tokens]
    if not active:
        raise QueryError("The query frame has no values to search with (all null or empty).")
    n = len(lp.sizes)
    cand_cols: set = set()
    share = np.zeros(n)          # a candidate column's share of its query column's places
    by_values = np.zeros(n)      # its share as one whose overlap beats chance (set)

    def choose(chosen, scores, into=share):
        """Candidate columns ``chosen`` (ids) by their ``scores`` among ``scores`` (every
        column's that could be): each the place it took, 1, unless more columns tie with
        the last one chosen than were chosen (a flag's 0/1, held by thousands of columns):
        then each an equal part of the places, so a table gathers none by a tie's order."""
        if len(chosen):
            tied = int((scores >= scores[chosen].min()).sum())
            cand_cols.update(chosen.tolist())
            np.maximum.at(into, chosen, min(1.0, len(chosen) / max(tied, 1)))

    ov, heads = {}, {}
    # candidates: the sum of the vector and format cosines of every query column, one
    # float32 product over [vectors | unit format histograms]
    QV = np.stack([qcols[i].vector for i in active]).astype(np.float32)
    QF = np.stack([qcols[i].fmt for i in active]).astype(np.float32)
    QF /= np.maximum(np.linalg.norm(QF, axis=1, keepdims=True), 1e-12)
    if weights.get("semantic") or weights.get("format") or weights.get("numeric"):
        near = np.hstack([QV, QF]) @ lp.near_keys.T                    # (active, n)
        top = np.argpartition(-near, min(neighbours, n - 1), axis=1)[:, :neighbours]
        for a in range(len(active)):
            choose(top[a], near[a])
    for a, i in enumerate(active):
        q = qcols[i]
        ov[i] = overlaps(index, q.tokens, q.hashes)
        heads[i] = header_similarities(q.header, lp)
        if weights.get("set"):
            shares = np.flatnonzero(ov[i])
            st = set_statistic(ov[i][shares], len(q.tokens), lp.sizes[shares],
                               set_population([q], shares, lp, ov[i][shares][None, :])[0])
            order = np.argsort(-st, kind="stable")[:neighbours]
            order = order[st[order] > 0]
            whole = np.zeros(n)
            whole[shares] = st
            choose(shares[order], whole)
            choose(shares[order], whole, by_values)
        if weights.get("header"):
            some = np.flatnonzero(heads[i])             # the columns sharing a 3-gram
            if len(some) > neighbours:
                some = some[np.argpartition(-heads[i][some], neighbours)[:neighbours]]
            choose(some, heads[i])
    cand = np.fromiter(cand_cols, np.int64, len(cand_cols))
    tables, at = np.unique(lp.table_ids[cand], return_inverse=True)
    hits = np.bincount(at, weights=share[cand], minlength=len(tables))   # places taken
    valued = np.bincount(at, weights=by_values[cand], minlength=len(tables))
    keep = ~np.isin(tables, np.asarray(sorted(exclude_tables), dtype=np.int64))
    tables, hits, valued = tables[keep], hits[keep], valued[keep]
    # value overlap beyond chance first (the strongest evidence), then every kind's places
    tables = np.sort(tables[np.lexsort((-hits, -np.round(valued, 9)))[:max_tables]])
    tcat = index.tables
    first = tcat["first_column_id"].to_numpy()
    ncols = tcat["n_columns"].to_numpy()
    tables = tables[first[tables] >= 0]
    ids = np.concatenate([np.arange(first[t], first[t] + ncols[t]) for t in tables]) \
        if len(tables) else np.zeros(0, np.int64)
    S = np.zeros((len(qcols), len(ids)))
    part, bgp = lake_part(lp, ids), lp.background_part
    qs = [qcols[i] for i in active]
    OV, H = np.stack([ov[i] for i in active]), np.stack([heads[i] for i in active])
    # cosines again, in float64, for the scored and the background columns (see cosine)
    QV64 = np.stack([q.vector for q in qs]).astype(np.float64)
    sem = cosine(QV64, np.vstack([part.vectors, bgp.vectors]))
    sem, sem_bg = sem[:, :len(ids)], sem[:, len(ids):]
    bg = partners_out(evidence(qs, bgp, OV, lp, H, sem_bg, background=True))
    ev = evidence(qs, part, OV, lp, H, sem)
    Ua = likelihoods(ev, bg, ids, lp.background, chance_overlap(qs, part, ev["set"], lp))
    Ua["format"] = written_as_held(Ua["format"], OV[:, ids],
                                   np.array([len(q.tokens) for q in qs])[:, None], ev["set"])
    starts = np.concatenate([[0], np.cumsum(ncols[tables])[:-1]]).astype(np.int64)
    text = np.array([not q.numeric for q in qs], dtype=bool)     # numbers: no vocabulary
    Ua["set"][text] = compete(Ua["set"][text], OV[text][:, ids], starts)
    keys = np.array([name_key(x) for x in index.columns["name"].to_numpy()[ids]], dtype=object)
    # a same-named pair apart is left to the name rule (name_pairs), which adds nothing
    same_name = np.array([[name_key(q.name) is not None] for q in qs]) & \
        (np.array([name_key(q.name) for q in qs], dtype=object)[:, None] == keys[None, :])
    S[active] = np.where(kinds_apart(qs, part) | booleans_apart(qs, part)
                         | numbers_apart(ev["numeric"], OV[:, ids],
                                         np.where(same_name, 0.0, ev["header"])), 0.0,
                         ensemble(Ua, weights, sharpness))
    alike = np.zeros_like(S, dtype=bool)        # name_over_kind
    evidenced, kind = np.zeros_like(alike), np.zeros_like(alike)
    alike[active], evidenced[active], kind[active] = name_over_kind(
        qs, Ua["set"], Ua["header"], S[active])
    alike[active] &= ~same_name                 # a same name: the name rule's (name_pairs)
    unshared = np.zeros_like(S, dtype=bool)     # values_unshared, applied to keyed tables
    within = same_name | names_within([q.name for q in qs],
                                      list(index.columns["name"].to_numpy()[ids]))
    unshared[active] = values_unshared(qs, OV[:, ids], Ua["set"], Ua["header"], within)
    has_set, same = np.zeros_like(S, dtype=bool), np.zeros_like(S, dtype=bool)   # names_crossed
    has_set[active], same[active] = np.nan_to_num(Ua["set"]) > 0, same_name
    keyed = [is_key(frame.iloc[:, i], q) for i, q in enumerate(qcols)]
    C = S.copy()                    # the weights pairs are chosen by (named_choice)
    C[active] = named_choice(S[active], Ua, weights, sharpness)
    R = np.ones_like(S)             # a pair's share in the table's sum (reach_weights)
    R[active] = reach_weights(qs, part, lp)
    U = {i: {e: Ua[e][a] for e in EVIDENCE} for a, i in enumerate(active)}
    kinds: dict = {}
    codes, info = FrameCodes(frame), {}
    weight = column_weights(codes, len(qcols))
    out, pos = [], 0
    for t in tables:
        m = int(ncols[t])
        sl = slice(pos, pos + m)
        yields = kind_yields(evidenced[:, sl], kind[:, sl]) | \
            names_crossed(has_set[:, sl], same[:, sl])
        if yields.any():
            S[:, sl] = np.where(yields, 0.0, S[:, sl])
            C[:, sl] = np.where(yields, 0.0, C[:, sl])
        pairs, _ = best_alignment(S[:, sl], min_column, C[:, sl], alike[:, sl])
        drop = unshared[:, sl]
        if drop.any() and any(keyed[i] and U[i]["set"][pos + j] > 0 for i, j in pairs):
            # the table holds the query's entities: values sharing none are another attribute
            pairs, _ = best_alignment(np.where(drop, 0.0, S[:, sl]), min_column,
                                      np.where(drop, 0.0, C[:, sl]), alike[:, sl])
        total = sum(weight[i] * R[i, pos + j] * S[i, pos + j] for i, j in pairs)  # / weight.sum()
        # the information of the alignment: how far it tells the query's rows apart
        aligned = tuple(sorted(i for i, _ in pairs))
        if aligned and aligned not in info:
            info[aligned] = row_information(codes, aligned)
            if info[aligned] == 0 and row_information(codes, range(len(qcols))) == 0:
                info[aligned] = 1.0     # the query's rows are all equal: not scaled
        total *= info.get(aligned, 0.0)
        if pairs and all(kind_only(qcols[i], U[i], pos + j) for i, j in pairs):
            total = 0.0       # only "both are numbers": no table (kind_only)
        if total > 0:
            sl = slice(pos, pos + m)
            named = name_pairs(qcols, kinds, pairs, keys[sl], S[:, sl], lp.fmt[ids[sl]],
                               lambda j, sl=sl: lake_kind(index, lp, int(ids[sl][j])))
            pairs = sorted(pairs + named)
            c = UnionCandidate(int(t), total / weight.sum(),
                               [(i, int(ids[pos + j]), float(S[i, pos + j])) for i, j in pairs],
                               named={i for i, _ in named},
                               by_kind=by_kind(U, [(i, pos + j) for i, j in pairs
                                                   if (i, j) not in named], same))
            c.evidence = {(i, int(ids[pos + j])): {e: float(U[i][e][pos + j]) for e in EVIDENCE}
                          for i, j in pairs}
            c.shared = {(i, int(ids[pos + j])): (int(ov[i][ids[pos + j]]), len(qcols[i].tokens),
                                                 int(lp.sizes[ids[pos + j]]))
                        for i, j in pairs}
            out.append(c)
        pos += m
    out.sort(key=lambda c: (c.by_kind, -c.score, c.table_id))     # kind alone: last (by_kind)
    stats = {"candidate_columns": len(cand_cols), "candidate_tables": int(len(tables)),
             "query_columns": len(qcols), "lake_columns": n}
    return out[:k], stats
