"""Column profiles for table union search, and the statistics that compare two of them.

One set of functions profiles a lake column (the Spark build, indexing/union.py) and a query
column (search/union.py), so both sides mean the same thing: the column's distinct tokens
(its set, already in the index), a *format histogram* (D3L, Bogatu et al., ICDE 2020,
§III-B: each value as a pattern of character classes), a *numeric summary* (the share of
numeric cells and 21 quantiles, for D3L's distribution evidence) and a *column vector* (the
mean of the embedder's unit vectors over a sample of values: TUS's topic vector, Nargesian
et al., VLDB 2018, §5.1.3). The statistics: set unionability (TUS §3.1), the cosine of
column vectors (TUS §5.1.3), format-histogram intersection, 1 - Kolmogorov-Smirnov distance
of the quantile sketches (D3L, each sketch read as a sample of its points), header 3-gram
Jaccard (0 for names sharing one 3-gram inside longer words: ``names_alike``).

Note:
    - Set unionability is -log10 of the hypergeometric upper tail P(X >= t | X >= 1) (TUS
      uses the CDF, which saturates at 1.0; given that the columns meet, one shared value is
      no evidence); the tail is bounded by the geometric series of pmf ratios; 0 where that
      tail is over 1/2 (an overlap chance gives more often than not).
    - The domain may be smaller than the disjoint union (numbers on a grid), never smaller
      than the values the two columns hold (``numeric_grid``, ``grid_size``).
    - The vector sample is the S distinct tokens of smallest 64-bit hash (consistent across
      columns, so overlapping columns embed overlapping values).
    - Format patterns read a boolean and an integral decimal ("14.0") one way on both sides
      (histogram version 3), so a column read back from its file has its file's format.
    Derivations: docs/algorithms/union.md.
"""
from __future__ import annotations

import math
import re
from typing import Sequence

import mmh3
import numpy as np

from ..hashing import token_hash64
from ..lake.normalize import datetime_token, render_value

SAMPLE_VALUES = 50                    # distinct values embedded per column
FORMAT_DIMS = 128                     # hashed pattern buckets of the format histogram
QUANTILES = np.linspace(0.0, 1.0, 21)  # probabilities of the numeric sketch
NUMERIC_SHARE = 0.9                   # a column is numeric when this share of cells is
MIN_NUMERIC_CELLS = 3
PATTERN_PARTS = 8                     # pattern elements kept (then an ellipsis)
MAX_PATTERN_CHARS = 200
FORMAT_VERSION = 3                    # 2: date-time texts by their token; 3: booleans and
                                      # integral decimals written one way (format_histogram)
PATTERN_VECTOR_MIN = 64               # texts from which patterns are computed all at once

_NUMERIC_TOKEN = re.compile(r"-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:e[+-]?[0-9]+)?")
_NUMERIC_ANCHORED = f"^(?:{_NUMERIC_TOKEN.pattern})$"    # the same, for Arrow (RE2)
_INTEGRAL_DECIMAL = re.compile(r"\s*(-?[0-9]+)\.0+\s*")        # "14.0": 14 written as a float
_INTEGRAL_DECIMAL_RE2 = r"^\s*(-?[0-9]+)\.0+\s*$"                 # the same, for Arrow
BOOLEAN_PATTERN = "<true or false>"   # the pattern of a boolean text, however it is written
_PATTERN_PART = re.compile(r"[^\W\d_]+|[0-9]+|\s+|.", re.UNICODE | re.DOTALL)
_HEADER_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\W\d_]+", re.UNICODE)


# ----------------------------------------------------------------------- values

def cell_text(value) -> str | None:
    """A cell as the text a lake file would hold (None for a null): the normalizer's
    rendering (2015.0 -> "2015", dates in ISO form), so formats compare like with like."""
    text = render_value(value)
    return None if text is None or not text.strip() else text


def cell_texts(values) -> list:
    """cell_text of each value of a pandas Index or numpy array, vectorized by dtype: texts
    as they are, integers and booleans at once, floats with an integral value as integers
    and the others by repr (what render_value does); any other dtype value by value."""
    import pandas as pd
    dtype = getattr(values, "dtype", None)
    kind = dtype.kind if isinstance(dtype, np.dtype) else None
    if kind is not None and kind in "iu":
        return np.asarray(values).astype(str).tolist()
    if kind == "b":
        return np.where(np.asarray(values), "true", "false").tolist()
    if kind == "f":
        x = np.asarray(values, dtype=np.float64)
        out = np.empty(len(x), dtype=object)
        small = (np.floor(x) == x) & (np.abs(x) < 2.0 ** 62)
        out[small] = x[small].astype(np.int64).astype(str)
        frac = np.isfinite(x) & (np.floor(x) != x)
        out[frac] = list(map(repr, x[frac].tolist()))
        rest = np.flatnonzero(~small & ~frac)                 # infinities, huge integers
        out[rest] = [cell_text(v) for v in x[rest].tolist()]
        return out.tolist()
    if kind == "O" and pd.api.types.infer_dtype(values, skipna=False) == "string":
        v = list(values)
        blank = [i for i, t in enumerate(v) if not t.strip()]      # texts: only blanks -> None
        for i in blank:
            v[i] = None
        return v
    return [cell_text(v) for v in values]


def value_pattern(text: str) -> str:
    """A value's format (D3L): letter runs as C (capitalized), U (upper), L (lower) or M
    (mixed), digit runs as N<length> (N+ from 5 digits), whitespace as one space, any other
    character as itself; at most PATTERN_PARTS elements. "Ann Arbor, MI" -> "C C, U"."""
    parts = []
    for m in _PATTERN_PART.finditer(text[:MAX_PATTERN_CHARS]):
        s = m.group()
        c = s[0]
        if c.isdigit():
            parts.append(f"N{len(s)}" if len(s) < 5 else "N+")
        elif c.isalpha():
            if s.isupper():
                parts.append("C" if len(s) == 1 else "U")
            elif s.islower():
                parts.append("L")
            elif c.isupper() and s[1:].islower():
                parts.append("C")
            else:
                parts.append("M")
        elif c.isspace():
            parts.append(" ")
        else:
            parts.append(c)
        if len(parts) > PATTERN_PARTS:
            parts[PATTERN_PARTS:] = ["\u2026"]
            break
    return "".join(parts)


_PART_TEXT = {256: "C", 257: "U", 258: "L", 259: "M", 260: "N1", 261: "N2", 262: "N3",
              263: "N4", 264: "N+", 265: "\u2026"}     # other codes: the character itself
_BYTE_CLASS = np.full(128, 4, np.int8)   # ASCII: 0 upper, 1 lower, 2 digit, 3 space, 4 other
_BYTE_CLASS[65:91], _BYTE_CLASS[97:123], _BYTE_CLASS[48:58] = 0, 1, 2
_BYTE_CLASS[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = 3        # what str.isspace() accepts
_RUN_KIND = np.array([0, 0, 1, 2, 3], np.int8)


def _ascii_pattern_codes(texts: Sequence[str]) -> np.ndarray:
    """value_pattern of ASCII texts as rows of part codes (len(texts), PATTERN_PARTS + 1),
    -1 past the end, computed on all their bytes at once: runs of one class (letters,
    digits, whitespace; each other character alone) numbered by a cumulative sum."""
    n = len(texts)
    codes = np.full((n, PATTERN_PARTS + 1), -1, np.int32)
    lens = np.fromiter(map(len, texts), np.int64, n)
    data = np.frombuffer("".join(texts).encode("ascii"), np.uint8)
    if not len(data):
        return codes
    ends = np.cumsum(lens)
    owner = np.zeros(len(data), np.int32)
    np.add.at(owner, ends[:-1][ends[:-1] < len(data)], 1)   # ends of empty texts repeat
    owner = np.cumsum(owner, dtype=np.int32)
    pos = np.arange(len(data), dtype=np.int32) - (ends - lens)[owner].astype(np.int32)
    if pos.max() >= MAX_PATTERN_CHARS:
        keep = pos < MAX_PATTERN_CHARS
        data, owner, pos = data[keep], owner[keep], pos[keep]
    cls = _BYTE_CLASS[data]
    kind = _RUN_KIND[cls]                          # 0 letter, 1 digit, 2 space, 3 other
    start = np.ones(len(data), bool)
    start[1:] = (pos[1:] == 0) | (kind[1:] != kind[:-1]) | (kind[1:] == 3)
    first = np.flatnonzero(start)
    rlen = np.diff(np.append(first, len(data)))
    rkind, rown = kind[first], owner[first]
    up = np.add.reduceat((cls == 0).astype(np.int64), first)
    low = np.add.reduceat((cls == 1).astype(np.int64), first)
    letter = np.where(up == rlen, np.where(rlen == 1, 256, 257),
                      np.where(low == rlen, 258,
                               np.where((cls[first] == 0) & (low == rlen - 1), 256, 259)))
    part = np.select([rkind == 0, rkind == 1, rkind == 2],
                     [letter, np.where(rlen < 5, 259 + rlen, 264), 32], data[first])
    run0 = np.searchsorted(rown, np.arange(n))       # each text's first run
    rank = np.arange(len(first)) - run0[rown]
    ok = rank < PATTERN_PARTS
    codes[rown[ok], rank[ok]] = part[ok]
    codes[np.bincount(rown, minlength=n) > PATTERN_PARTS, PATTERN_PARTS] = 265
    return codes


def _pattern_of_codes(row) -> str:
    return "".join(_PART_TEXT.get(c) or chr(c) for c in row if c >= 0)


def pattern_buckets(texts: Sequence[str], dims: int = FORMAT_DIMS) -> np.ndarray:
    """The histogram bucket of each text's pattern (32-bit MurmurHash3 of it, mod dims).
    ASCII texts are classified all at once (_ascii_pattern_codes) and each distinct pattern
    hashed once; the others go through value_pattern one by one."""
    import pandas as pd
    texts = list(texts)
    out = np.zeros(len(texts), np.int64)
    asc = np.fromiter(map(str.isascii, texts), bool, len(texts))
    if len(texts) < PATTERN_VECTOR_MIN:            # numpy's cost per call is the larger
        asc[:] = False
    for i in np.flatnonzero(~asc):
        out[i] = mmh3.hash(value_pattern(texts[i]), signed=False) % dims
    a = np.flatnonzero(asc)
    if len(a):
        codes = _ascii_pattern_codes([texts[i] for i in a])
        # a row's codes are < 2**9: the first 5 in one int64, the last 4 in another
        shift = np.int64(9) * np.arange(5, dtype=np.int64)
        hi = ((codes[:, :5].astype(np.int64) + 1) << shift).sum(axis=1)
        lo = ((codes[:, 5:].astype(np.int64) + 1) << shift[:4]).sum(axis=1)
        ids = pd.factorize(pd.factorize(hi)[0].astype(np.int64) << 36 | lo)[0]
        first = np.zeros(ids.max() + 1, np.int64)
        first[ids[::-1]] = np.arange(len(ids))[::-1]
        buckets = np.fromiter((mmh3.hash(_pattern_of_codes(codes[r]), signed=False) % dims
                               for r in first), np.int64, len(first))
        out[a] = buckets[ids]
    return out


def written_one_way(texts: Sequence[str]) -> tuple[list, int]:
    """(the texts that are not booleans, integral decimals written as integers; the number of
    boolean texts). A pandas frame renders a float column's 14.0 as "14" and a flag as
    "true" (cell_text), while a CSV file may hold "14.0" and "True": without this a query
    read from a lake file would not have its own file's format. A boolean ("true"/"false"
    in any case) takes a pattern of its own, shared with no word."""
    texts = list(texts)
    if len(texts) >= PATTERN_VECTOR_MIN:             # all at once (Arrow)
        import pyarrow as pa
        import pyarrow.compute as pc
        a = pa.array(texts, pa.string())
        flag = pc.is_in(pc.utf8_lower(pc.utf8_trim_whitespace(a)),
                        value_set=pa.array(["true", "false"])).to_numpy(zero_copy_only=False)
        rest = pc.replace_substring_regex(a.filter(pa.array(~flag)),
                                          _INTEGRAL_DECIMAL_RE2, r"\1")
        return rest.to_pylist(), int(flag.sum())
    out, booleans = [], 0
    for t in texts:
        if t.strip().casefold() in ("true", "false"):
            booleans += 1
            continue
        m = _INTEGRAL_DECIMAL.fullmatch(t) if "." in t else None
        out.append(m.group(1) if m else t)
    return out, booleans


def format_histogram(texts: Sequence[str], dims: int = FORMAT_DIMS,
                     version: int = FORMAT_VERSION) -> np.ndarray:
    """Share of the distinct texts per pattern bucket (float32, sums to 1; zeros if none).
    From ``version`` 2 an ISO-8601 date-time text takes the pattern of its token (the
    timestamp's one rendering, lake/normalize.py), as a timestamp's does: written with a
    space or "T", with or without seconds or an offset, it is one format. From version 3,
    :func:`written_one_way` too (a query frame's values are rendered, a file's are not)."""
    if version >= 2:
        texts = [datetime_token(t) or t for t in texts]
    booleans = 0
    if version >= 3:
        texts, booleans = written_one_way(texts)
    counts = np.bincount(pattern_buckets(texts, dims), minlength=dims).astype(np.float64)
    if booleans:
        counts[mmh3.hash(BOOLEAN_PATTERN, signed=False) % dims] += booleans
    total = counts.sum()
    return (counts / total if total else counts).astype(np.float32)


def numeric_summary_counted(tokens, counts) -> tuple[float, int, np.ndarray]:
    """The numeric summary of the cells holding ``tokens[i]`` ``counts[i]`` times: (share of
    the cells with a token that are numbers, number of numeric cells, their quantiles at
    QUANTILES by the inverted CDF; NaN when there is none). Each distinct token is tested
    once; the build and the query side both count cells this way.
    ``tokens``: a list (tested one by one) or an Arrow string array (tested all at once)."""
    import pyarrow as pa
    counts = np.asarray(counts, dtype=np.int64)
    if isinstance(tokens, pa.Array):
        import pyarrow.compute as pc
        keep = tokens.is_valid().to_numpy(zero_copy_only=False)
        num = pc.fill_null(pc.match_substring_regex(tokens, _NUMERIC_ANCHORED), False)
        x = pc.filter(tokens, num).to_pylist()
        num = num.to_numpy(zero_copy_only=False)
    else:
        keep = np.fromiter((t is not None for t in tokens), dtype=bool, count=len(tokens))
        num = np.fromiter((t is not None and _NUMERIC_TOKEN.fullmatch(t) is not None
                           for t in tokens), dtype=bool, count=len(tokens))
        x = [t for t, n in zip(tokens, num) if n]
    cells = int(counts[keep].sum())
    x = np.repeat(np.fromiter(map(float, x), np.float64, len(x)), counts[num])
    share = len(x) / cells if cells else 0.0
    q = (np.quantile(x, QUANTILES, method="inverted_cdf") if len(x)
         else np.full(len(QUANTILES), np.nan))
    return share, len(x), q


def is_numeric(share, n_numeric) -> np.ndarray:
    return (np.asarray(share) >= NUMERIC_SHARE) & (np.asarray(n_numeric) >= MIN_NUMERIC_CELLS)


def sample_tokens(tokens: Sequence[str], s: int = SAMPLE_VALUES,
                  hashes: np.ndarray | None = None) -> list[str]:
    """The s distinct tokens of smallest hash (signed 64-bit order; ties by text), sorted.
    ``hashes``: token_hash64 of ``tokens`` when the caller has them (tokens then distinct)."""
    if hashes is None:
        tokens = list(set(tokens))
        if len(tokens) <= s:
            return sorted(tokens)
        hashes = token_hash64(tokens)
    tokens = list(tokens)
    if len(tokens) <= s:
        return sorted(tokens)
    h = np.asarray(hashes).view(np.int64)
    cand = np.flatnonzero(h <= np.partition(h, s - 1)[s - 1])    # the s smallest, and ties
    pick = sorted(cand.tolist(), key=lambda i: (h[i], tokens[i]))[:s]
    return sorted(tokens[i] for i in pick)


def column_vectors(embedder, samples: Sequence[Sequence[str]]) -> np.ndarray:
    """One unit vector per column: the mean of its sampled values' unit vectors (zeros for
    a column without values), computed with one embed call for all columns."""
    flat = [t for s in samples for t in s]
    out = np.zeros((len(samples), embedder.dim), dtype=np.float64)
    if flat:
        v = np.asarray(embedder.embed(flat), dtype=np.float64)
        lens = np.fromiter((len(s) for s in samples), dtype=np.int64, count=len(samples))
        rows = np.repeat(np.arange(len(samples)), lens)
        np.add.at(out, rows, v)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return np.divide(out, norms, out=np.zeros_like(out), where=norms > 0).astype(np.float32)


def header_grams(name) -> frozenset:
    """Character 3-grams of a column name's words (camelCase and separators split, lower
    case, each word padded): "CountryName" and "country_name" share all."""
    words = _HEADER_WORD.findall(str(name))
    grams = set()
    for w in words:
        p = f"#{w.lower()}#"
        grams.update(p[i:i + 3] for i in range(len(p) - 2))
    return frozenset(grams)


# ----------------------------------------------------------------------- statistics

AT_CHANCE = math.log10(2) - 1e-9     # a set statistic under this (tail over 1/2) is 0
GRID_DECIMALS = 6                    # numbers written with more decimals have no grid (numeric_grid)


def set_statistic(t, na, nb, population=None) -> np.ndarray:
    """Set unionability of columns with na and nb distinct values sharing t (TUS §3.1):
    -log10 P(X >= t | X >= 1), X hypergeometric (population: the domain, na successes, nb
    draws); the domain is the two columns' disjoint union na + nb, or ``population``, never
    less than the na + nb - t values the two columns hold. Conditioned on one shared value:
    a lake column is found, and compared with the background, because it meets the query
    column at all (postings), so one shared value is no evidence, and t counts by how far
    it exceeds what columns that meet share (one coincidental code among 15 is not 0.97).
    0 where the conditional tail is over 1/2 (t at or below the distribution's mode, or
    t = 1): such an overlap is no evidence, and any statistic above 0 beats every column
    sharing nothing. The tail is bounded by pmf(t) / (1 - r) with r = pmf(t + 1) / pmf(t)
    (the pmf is log-concave); P(X >= 1) = 1 - pmf(0) is exact."""
    from scipy.special import gammaln
    t = np.asarray(t, dtype=np.float64)
    na = np.asarray(na, dtype=np.float64)
    nb = np.asarray(nb, dtype=np.float64)
    pop = na + nb if population is None else np.asarray(population, dtype=np.float64)
    t, na, nb, pop = np.broadcast_arrays(t, na, nb, pop)
    out = np.zeros(t.shape, dtype=np.float64)
    ok = (t > 0) & (na > 0) & (nb > 0)
    t, na, nb = t[ok], na[ok], nb[ok]
    m = np.maximum(np.maximum(pop[ok], na + nb - t), np.maximum(na, nb))

    def lcomb(n, k):
        return gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)

    log_pmf = lcomb(na, t) + lcomb(m - na, nb - t) - lcomb(m, nb)
    r = (na - t) * (nb - t) / ((t + 1) * (m - na - nb + t + 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        log_tail = np.where(r < 1, log_pmf - np.log1p(-np.minimum(r, 1 - 1e-12)), 0.0)
        # P(X >= 1): 1 when the columns cannot be disjoint (m < na + nb)
        log_p0 = np.where(m - na >= nb, lcomb(np.maximum(m - na, nb), nb) - lcomb(m, nb), -np.inf)
        log_meet = np.log1p(-np.exp(np.minimum(log_p0, 0.0)))
    stat = -(log_tail - log_meet) / math.log(10)
    out[ok] = np.where(stat < AT_CHANCE, 0.0, stat)
    return out


def numeric_grid(values) -> tuple[float, float, float]:
    """(lowest, highest, step) of numbers: the step the values are written at, 10^-d for the
    fewest decimals d <= GRID_DECIMALS that write every value (1 for integers); step 0 when
    none does (no grid: a continuous domain), lowest and highest NaN without a number."""
    x = np.asarray(values, dtype=np.float64)
    x = x[np.isfinite(x)]
    if not len(x):
        return np.nan, np.nan, 0.0
    return float(x.min()), float(x.max()), float(grid_steps(x[None, :])[0])


def grid_steps(x: np.ndarray) -> np.ndarray:
    """Per row of ``x`` (NaN ignored): the step 10^-d of numeric_grid (0: none)."""
    x = np.asarray(x, dtype=np.float64)
    out = np.zeros(x.shape[0])
    todo = np.ones(x.shape[0], dtype=bool)
    for d in range(GRID_DECIMALS + 1):
        with np.errstate(invalid="ignore", over="ignore"):
            y = x * 10.0 ** d
            on = np.all(np.isnan(y) | (np.abs(y - np.round(y)) <= 1e-9 * np.maximum(1.0, np.abs(y))),
                        axis=1)
        out[todo & on] = 10.0 ** -d
        todo &= ~on
    return out


def grid_size(lo_a, hi_a, step_a, lo_b, hi_b, step_b) -> np.ndarray:
    """The numbers a grid at the finer of the two steps holds from the lower of the two
    lowest values to the higher of the two highest (inf where either step is 0 or a column
    has no number): the domain two numeric columns of such values can be drawn from."""
    lo = np.minimum(lo_a, lo_b)
    hi = np.maximum(hi_a, hi_b)
    step = np.minimum(step_a, step_b)
    with np.errstate(divide="ignore", invalid="ignore"):
        n = np.floor((hi - lo) / np.where(step > 0, step, np.nan) + 0.5) + 1
    return np.where(np.isfinite(n) & (np.asarray(step_a) > 0) & (np.asarray(step_b) > 0), n, np.inf)


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine of unit (or zero) vectors: a (n, d) x b (m, d) -> (n, m), summed in
    float64 so that the result does not depend on the product's shape (float32 sums differ
    in the 7th digit between a matrix and a vector product, enough to break exact ties)."""
    return np.asarray(a, dtype=np.float64) @ np.asarray(b, dtype=np.float64).T


def format_similarity(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Histogram intersection sum_i min(a_i, b_i): (n, F) x (m, F) -> (n, m) float64, in
    [0, 1]; each row of a summed over its nonzero buckets only (in bucket order), since a
    query column's values take few patterns."""
    a = np.asarray(a, dtype=np.float32)
    bt = np.ascontiguousarray(np.asarray(b, dtype=np.float32).T)      # (F, m): a bucket a row
    out = np.zeros((len(a), bt.shape[1]))
    for r in range(len(a)):
        nz = np.flatnonzero(a[r])
        if len(nz):
            out[r] = np.minimum(a[r, nz][:, None], bt[nz]).sum(axis=0, dtype=np.float64)
    return out


def _counts_le_self(x: np.ndarray) -> np.ndarray:
    """For rows sorted ascending: how many points of its row are <= each point (the end of
    its run of equal values)."""
    k = x.shape[-1]
    idx = np.arange(1, k + 1)
    end = np.ones(x.shape, bool)
    end[..., :-1] = x[..., 1:] != x[..., :-1]
    return np.minimum.accumulate(np.where(end, idx, k)[..., ::-1], axis=-1)[..., ::-1]


def ks_similarity(qa: np.ndarray, qb: np.ndarray) -> np.ndarray:
    """1 - the Kolmogorov-Smirnov distance between quantile sketches (D3L's numeric
    evidence), each sketch read as an equally weighted sample of its points: the largest
    gap of the two step CDFs, at every point of either, from integer counts of points <= x.
    ``qa`` (k, Pa) and ``qb`` (p, Pb): every pair, (k, p); two single sketches: a float."""
    a_in, b_in = np.asarray(qa, dtype=np.float64), np.asarray(qb, dtype=np.float64)
    a2, b = np.sort(np.atleast_2d(a_in), axis=-1), np.sort(np.atleast_2d(b_in), axis=-1)
    na, nb = a2.shape[-1], b.shape[-1]
    cb_b = _counts_le_self(b)                                       # #b <= each point of b
    ca_a = _counts_le_self(a2)
    rows = (na + 1) * np.arange(len(b))[:, None]
    out = np.empty((len(a2), len(b)))
    for r, a in enumerate(a2):
        ca_b = np.searchsorted(a, b, side="right")                  # #a <= each point of b
        # #b <= a_i: b_j <= a_i exactly when fewer than i + 1 points of a are < b_j
        below = np.searchsorted(a, b, side="left") + rows
        cb_a = np.cumsum(np.bincount(below.ravel(), minlength=(na + 1) * len(b))
                         .reshape(len(b), na + 1), axis=1)[:, :na]
        gap = np.maximum(np.abs(ca_b * nb - cb_b * na).max(axis=-1),
                         np.abs(ca_a[r] * nb - cb_a * na).max(axis=-1))
        out[r] = 1.0 - gap / (na * nb)
    return float(out[0, 0]) if a_in.ndim == 1 and b_in.ndim == 1 else out


def header_similarity(a: frozenset, b: frozenset) -> float:
    """Jaccard of two names' 3-grams (header_grams), 0 where they share fewer than
    ``names_alike`` asks (one 3-gram inside longer words is chance)."""
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / len(a | b) if names_alike(shared, len(a), len(b)) else 0.0


def names_alike(shared, na, nb):
    """Whether two names sharing ``shared`` of their ``na`` and ``nb`` 3-grams are alike
    beyond chance: two 3-grams at least (four characters in a row, a word's padding
    counted: a shared word of two letters), or every 3-gram of one of them (a one-letter
    name). One 3-gram inside two longer words is what unrelated words share ("persons" and
    "isonumeric": "son")."""
    shared = np.asarray(shared)
    return (shared >= 2) | ((shared >= 1) & (shared >= np.minimum(na, nb)))
