"""What a join with a hit will do, before it runs: rows, fan-out, coverage, key kind.

For a left join on normalized values, with q(v) the query rows holding value v and l(v) the
lake rows holding it (index/joinstats.py stores l(v) exactly for every v with l(v) > 1):

    join_rows    = query rows + sum over matched v of q(v) * (l(v) - 1)
    row_coverage = sum over matched v of q(v) / query rows
    key_ratio    = sum over matched v of l(v) / matched values     (1.0: the lake key is unique)

These are exact when l(v) is known: stored by the join statistics, or counted in MATE's
value postings by the engine for an index built without them. Otherwise l(v) is the
column's mean rows per value, an estimate the ``exact`` flag marks. For a composite key
found by MATE, l(tuple) is counted by its verification (exact); otherwise it is the
smallest of its columns' counts, exact when that is 1. The key kind (identifier, category,
text, number, date, year-like, row number) comes from the lake column's profile (an integer
column that is a key of its table with another column is read as unique; one of unique
integers holding nearly every integer 1..max is a row number: :func:`counts_up`); a transformation's key is
read from its values, their common affixes cut (:func:`values_kind`). A pair whose lake
column holds the query's integers no more often than its density below them would is
chance (:func:`chance_containment`). :func:`usefulness` is the score of ``rank="useful"``;
docs/algorithms/hits.md gives the reasons.
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass

import numpy as np

KEY_KINDS = ("identifier", "category", "text", "number", "date", "year-like", "row number")
# a category weighs as an identifier: its matches are meaningful, and its fan-out discounts it;
# a row number (every integer 1..max) below all: its matches say only that the query's
# integers are below its max
KIND_WEIGHT = {"identifier": 1.0, "category": 1.0, "text": 0.8, "date": 0.5, "number": 0.3,
               "year-like": 0.2, "row number": 0.1}
COINCIDENTAL_KINDS = ("number", "year-like", "row number")   # "matches are likely coincidental"
COINCIDENCE_WEIGHT = max(KIND_WEIGHT[k] for k in COINCIDENTAL_KINDS)
# a pair whose matches its lake column's density explains weighs as a row number (density 1)
CHANCE_WEIGHT = KIND_WEIGHT["row number"]
CHANCE_P = 0.05           # a binomial tail at least this: the query's integers found by chance
TYPE_SHARE = 0.9          # share of distinct values that must have a shape (as the profile)
TEXT_WORDS = 4            # mean words per value above which a string column is text
TEXT_CHARS = 40           # mean characters per value above which a string column is text
FEW_KEYS = 2              # a key of this many distinct values or fewer tells no rows apart


@dataclass(frozen=True)
class AddedColumn:
    """A column the join adds to the query frame: its name there, the type the join gives
    it, its null share and, when the join gives it as text but its values read as another
    type (a CSV column of decimals: "float"), that type (``values``; else None)."""
    name: str
    type: str
    null_share: float
    values: str | None = None

    @property
    def shown_type(self) -> str:
        """The type as a card shows it: "string (float values)" for text of numbers."""
        return f"{self.type} ({self.values} values)" if self.values else self.type

    def __str__(self):
        return f"{self.name} ({self.shown_type}, {self.null_share:.0%} null)"


@dataclass(frozen=True)
class JoinCounts:
    """The join-size figures of one hit (see module docstring)."""
    matched_values: int       # distinct query values (or key tuples) with a partner
    matched_rows: int         # query rows with a partner
    query_rows: int
    join_rows: int            # rows of the left join
    lake_matched_rows: int    # lake rows holding a matched value
    exact: bool

    @property
    def row_coverage(self) -> float:
        return self.matched_rows / self.query_rows if self.query_rows else 0.0

    @property
    def key_ratio(self) -> float | None:
        return self.lake_matched_rows / self.matched_values if self.matched_values else None


def sorted_query(ids: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The query's values present in a generation, as (token ids ascending, query rows of
    each), from ``ids`` (token id per distinct query value, -1: absent) and ``rows``."""
    present = ids >= 0
    order = np.argsort(ids[present], kind="stable")
    return ids[present][order], rows[present][order]


def _members(sorted_ids: np.ndarray, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(positions in ``sorted_ids``, mask over ``candidates``) of the candidates found in
    the sorted array ``sorted_ids``."""
    if not len(sorted_ids) or not len(candidates):
        return np.zeros(0, dtype=np.int64), np.zeros(len(candidates), dtype=bool)
    pos = np.searchsorted(sorted_ids, candidates)
    pos[pos == len(sorted_ids)] = 0
    found = sorted_ids[pos] == candidates
    return pos[found], found


def single_counts(query_ids: np.ndarray, query_rows: np.ndarray, n_query_rows: int,
                  set_tokens: np.ndarray, repeated_tokens: np.ndarray | None,
                  repeated_counts: np.ndarray | None, mean_count: float = 1.0) -> JoinCounts:
    """Join figures of a one-column key. ``query_ids``/``query_rows``: :func:`sorted_query`;
    ``set_tokens``: the lake column's token ids (ascending); ``repeated_*``: its tokens in
    more than one row and their counts (None: not stored, estimated by ``mean_count``)."""
    if len(set_tokens) <= len(query_ids):          # walk the shorter side, search the longer
        qpos, _ = _members(query_ids, set_tokens)
    else:
        qpos = np.flatnonzero(_members(set_tokens, query_ids)[1])
    n_matched = len(qpos)
    matched_rows = int(query_rows[qpos].sum())
    if repeated_tokens is None:
        extra = max(mean_count - 1.0, 0.0)
        return JoinCounts(n_matched, matched_rows, n_query_rows,
                          int(round(n_query_rows + matched_rows * extra)),
                          int(round(n_matched * mean_count)), exact=False)
    rpos, found = _members(query_ids, repeated_tokens)
    more = repeated_counts[found].astype(np.int64) - 1
    return JoinCounts(n_matched, matched_rows, n_query_rows,
                      n_query_rows + int((query_rows[rpos] * more).sum()),
                      n_matched + int(more.sum()), exact=True)


def tuple_counts(matched_keys, row_counts: dict, n_query_rows: int,
                 lake_counts: np.ndarray, exact: bool | None = None) -> JoinCounts:
    """Join figures of a composite key: ``matched_keys`` the query's key tuples found in
    the lake table, ``row_counts`` query rows per tuple, ``lake_counts`` (tuples x
    columns) the lake rows holding each tuple's value in each column. A tuple's lake rows
    are estimated by its columns' smallest count (exact when that is 1). ``exact=True``:
    ``lake_counts`` (tuples x 1) are the rows holding each whole tuple (MATE counts them)."""
    q = np.array([row_counts.get(tuple(k), 0) for k in matched_keys], dtype=np.int64)
    lake = (np.asarray(lake_counts, dtype=np.float64).min(axis=1) if len(lake_counts)
            else np.zeros(0))
    return JoinCounts(len(q), int(q.sum()), n_query_rows,
                      n_query_rows + int(round(float((q * (lake - 1)).sum()))),
                      int(round(float(lake.sum()))),
                      exact=bool(np.all(lake <= 1)) if exact is None else exact)


# ----------------------------------------------------------------------- key kind

def counts_up(n_numeric: float, num_min: float, num_max: float) -> bool:
    """Whether distinct integers with this count and range (a 0 among them counted out)
    hold at least ``TYPE_SHARE`` of the integers 1..max, none negative: a row number or a
    rank, which contains any set of integers below its max by construction."""
    if not (math.isfinite(num_min) and math.isfinite(num_max)) or num_min < 0 or num_max < 1:
        return False
    return n_numeric - (num_min == 0) >= TYPE_SHARE * num_max


def row_number_warning(n_numeric: float, num_min: float, num_max: float) -> str:
    """The warning of a key that :func:`counts_up`."""
    every = "every" if n_numeric - (num_min == 0) >= num_max else "nearly every"
    return (f"the key looks like a row number or a rank (it holds {every} integer "
            f"1..{num_max:,.0f}): any integers up to {num_max:,.0f} are found in it, so "
            f"matches are likely coincidental")


INT64 = (-2 ** 63, 2 ** 63 - 1)


def integers_of(tokens) -> np.ndarray:
    """The distinct integers among normalized tokens (digits, a leading minus), ascending;
    an integer array is taken as it is. Integers outside int64 (ids of 20 digits and more)
    are left out: they lie far past any span 1..h that :func:`chance_containment` reads."""
    if isinstance(tokens, np.ndarray) and tokens.dtype.kind == "i":
        return np.unique(tokens)
    ints = (int(t) for t in map(str, tokens) if t.lstrip("-").isdigit())
    return np.unique(np.array([i for i in ints if INT64[0] <= i <= INT64[1]], dtype=np.int64))


def chance_containment(query_tokens, lake_tokens) -> str | None:
    """The warning of a lake column whose integers hold the query's no more often than their
    density below the query's largest would, else None. With h the query's largest integer
    of 1..max (max: the lake's largest; none negative) and n the lake's integers in 1..h,
    each query integer of 1..h is in the lake with chance d = n / h; the match is chance when
    P(Binomial(m, d) >= found) is at least ``CHANCE_P`` (m: the query's distinct integers in
    1..h). A row number (d = 1) always is; a dense code list (state codes 1..56 and a few
    territories) is for a query of counts up to 70; a sparse one (249 ISO codes of 4..894)
    is not for ISO codes, nor is a sequence far from 1 (1001..1500), whose span the query's
    values falling in is itself evidence."""
    lake = integers_of(lake_tokens)
    if not len(lake) or lake[0] < 0:
        return None
    query = integers_of(query_tokens)
    query = query[(query >= 1) & (query <= lake[-1])]
    if not len(query):
        return None
    h = int(query[-1])
    held = int(np.count_nonzero((lake >= 1) & (lake <= h)))
    found = int(np.count_nonzero(np.isin(query, lake, assume_unique=True)))
    if found == 0:
        return None
    density = held / h
    from scipy.stats import binom
    p = 1.0 if density >= 1.0 else float(binom.sf(found - 1, len(query), density))
    if p < CHANCE_P:
        return None
    return (f"the key holds {density:.0%} of the integers 1..{h:,}, and {found} of the "
            f"query's {len(query)} integers in that range are found in it, no more than "
            f"chance finds there: matches are likely coincidental")


def key_kind(col_type: str, n_distinct: int, keyed_rows: int, shape: dict | None,
             samples=(), paired: bool = False,
             row_numbers: bool = False) -> tuple[str, str | None]:
    """(kind, warning or None) of a lake key column from its profile (type, distinct
    values, rows with a value) and, when the index has them, its value shapes
    (index/joinstats.py). The warning says when the key looks like a measure, or is a
    category (a text column with at least as many rows per value, on average, as it has
    values: a package's section). ``paired``:
    the column is a key of its table with another column (a port number with its
    protocol), so its values repeat as a key's do and are read as unique.
    ``row_numbers``: a column of unique integers that :func:`counts_up` is a row number, with
    :func:`row_number_warning` (for a lake column's whole profile; a query's or a
    program's values may be the matched part of a range)."""
    n = max(int(n_distinct), 0)
    if shape is None:                               # old index: the profile's samples
        years = [s for s in samples if str(s).strip().isdigit() and 1600 <= int(str(s)) < 2100]
        shape = {"n_year": n if samples and len(years) == len(samples) else 0,
                 "n_numeric": n if col_type in ("integer", "float") else 0,
                 "num_min": math.nan, "num_max": math.nan,
                 "mean_len": 0.0, "mean_words": 1.0}
    if n == 0:
        return "text", "the lake column has no values"
    numeric = col_type in ("integer", "float") or shape["n_numeric"] >= TYPE_SHARE * n
    if col_type == "date":
        return "date", None
    if numeric and shape["n_year"] >= TYPE_SHARE * n:
        return "year-like", ("the key looks like years: rows would join because they share a "
                             "year, not because they describe the same thing")
    if numeric:
        unique = paired or (keyed_rows > 0 and n >= TYPE_SHARE * keyed_rows)
        small = not (shape["num_max"] >= 1000 or shape["num_min"] <= -1000)
        if col_type == "integer" and unique and n >= 20:
            alone = keyed_rows > 0 and n >= TYPE_SHARE * keyed_rows   # unique by itself
            if row_numbers and alone and counts_up(shape["n_numeric"], shape["num_min"],
                                                   shape["num_max"]):
                return "row number", row_number_warning(shape["n_numeric"], shape["num_min"],
                                                    shape["num_max"])
            return "identifier", None
        if col_type == "float":
            return "number", ("the key holds decimal numbers, a measure rather than an "
                              "identifier: matches are likely coincidental")
        if col_type == "integer" and unique:        # a few integers, none repeating:
            if not (shape["num_max"] >= 100 or shape["num_min"] <= -100):   # counts, ranks
                return "number", ("the key holds a few small integers (counts or ranks?), "
                                  "a measure rather than an identifier: matches may be "
                                  "coincidental")
            return "identifier", None               # codes such as 200, 404, 999
        if unique:          # none repeats, but not integers: decimals among them
            return "number", ("the key holds decimal numbers among integers (amounts or "
                              "measures?), a measure rather than an identifier: matches are "
                              "likely coincidental")
        return "number", ("the key holds " + ("small " if small else "") + "integers that "
                          "repeat (counts, ranks or amounts?), a measure rather than an "
                          "identifier: matches are likely coincidental")
    if col_type == "boolean" or n <= FEW_KEYS:
        return "text", f"the key has only {n} distinct value(s): it cannot tell rows apart"
    if shape["mean_words"] > TEXT_WORDS or shape["mean_len"] > TEXT_CHARS:
        return "text", None
    if not paired and keyed_rows >= n * n:         # each value on as many rows as there are values
        return "category", (f"the key is a category ({n:,} values, {keyed_rows / n:,.0f} rows "
                            f"per value): it groups rows rather than naming one, so a join "
                            f"repeats a query row for every lake row of its value")
    return "identifier", None


def tuple_kind(n_tuples: int, keyed_rows: int) -> tuple[str, str | None]:
    """(kind, warning or None) of a key of several lake columns, read from its distinct
    tuples and the rows holding one, as :func:`key_kind` reads one text column: a tuple
    names rows unless each tuple is on as many rows as there are tuples (a category). The
    columns' own kinds do not carry over: two measures or a category and a name together
    can name rows, and a tuple matches by chance only when all its values do."""
    n = max(int(n_tuples), 0)
    if n == 0:
        return "text", "the lake columns have no row with a value in each"
    if n <= FEW_KEYS:
        return "text", f"the key has only {n} distinct tuple(s): it cannot tell rows apart"
    if keyed_rows >= n * n:
        return "category", (f"the key is a category ({n:,} tuples, {keyed_rows / n:,.0f} rows "
                            f"per tuple): it groups rows rather than naming one, so a join "
                            f"repeats a query row for every lake row of its tuple")
    return "identifier", None


# digits around an "e" whose mantissa has a leading zero: no number formatter writes it so
_EXPONENT_CODE = re.compile(r"-?0[0-9]+(\.[0-9]+)?e[+-]?[0-9]+", re.IGNORECASE)


def query_kind(tokens, token_rows=None, sample: int | None = None,
               paired: bool = False) -> tuple[str, str | None]:
    """(kind, warning or None) of a query column from its normalized distinct values (and
    the rows holding each), read as :func:`key_kind` reads a lake column's profile. Past
    ``sample`` values, their shapes are counted on evenly spaced ones and scaled. A value
    like "01e01" (a leading zero, a letter inside; left by :func:`affix_free` or a
    program) is a code, not a number in scientific notation. ``paired``: as for
    :func:`key_kind` (the column makes a key with a category column of its frame)."""
    from ..index.joinstats import value_shape
    toks = [str(t) for t in tokens]
    n = len(toks)
    some = toks if sample is None or n <= sample else [toks[i * n // sample]
                                                       for i in range(sample)]
    shape = value_shape(some)
    if any(_EXPONENT_CODE.fullmatch(t) for t in some):   # "01e01": a code, not 10 written in scientific notation
        numbers = value_shape([t for t in some if not _EXPONENT_CODE.fullmatch(t)])
        shape.update({f: numbers[f] for f in ("n_numeric", "num_min", "num_max")})
    ints = sum(1 for t in some if t.lstrip("-").isdigit())
    # the profile's type rule (indexing/profile.py): integers when TYPE_SHARE of the values
    # are and no more are decimals, so a stray placeholder ("bbbb") leaves codes integers
    col_type = ("integer" if some and ints >= TYPE_SHARE * len(some)
                and shape["n_numeric"] <= ints else
                "float" if some and shape["n_numeric"] >= len(some) else "string")
    if len(some) < n:
        shape["n_year"] *= n / len(some)
        shape["n_numeric"] *= n / len(some)
    keyed = int(np.sum(token_rows)) if token_rows is not None else n
    return key_kind(col_type, n, keyed, shape, paired=paired)


def _separator(ch: str) -> bool:
    return not ch.isalnum()


def affix_free(values, limits: tuple | None = None) -> list:
    """The values without the prefix and the suffix all of them share, cut at a separator
    (the prefix through its last separator, the suffix from its first), then letters glued
    to numbers when only the numbers remain; every value keeps a character: a constant that
    a transformation adds to every key tells no rows apart ("2026-03-" + a day is a day, a
    day + "/tcp" too, "08t" + an hour an hour). A run of digits is never cut, and the cut
    is kept only when every value is left one token (no separator): the dates of one year
    ("31.07.2016") are not read as the decimal "31.07". Distinct values stay distinct.
    ``limits``: (prefix, suffix) the most characters cut at each end (a program's leading
    and trailing constants: "01/20/" read out of inauguration dates is data, not added)."""
    vals = [str(v) for v in values]
    if len(vals) < 2:
        return vals
    for glued in (False, True):
        for from_end in (False, True):
            short = min(len(v) for v in vals)
            common = os.path.commonprefix([v[::-1] if from_end else v for v in vals])
            common = common[:max(short - 1, 0)]
            if limits is not None:
                common = common[:limits[1 if from_end else 0]]
            if glued:       # letters glued to numbers: cut when only the numbers remain
                n = len(common)
                while n > 0 and common[n - 1].isdigit():
                    n -= 1
                if not all((v[:-n] if from_end else v[n:]).isdigit() for v in vals):
                    n = 0
            else:
                n = max((i + 1 for i, ch in enumerate(common) if _separator(ch)), default=0)
            if n > 0:
                vals = [v[:-n] for v in vals] if from_end else [v[n:] for v in vals]
    if any(_separator(ch) for v in vals for ch in v):
        return [str(v) for v in values]     # not one token in constants: "31.07" of dates
    return vals


def values_kind(values, rows=None, sample: int = 1000,
                limits: tuple | None = None) -> tuple[str, str | None]:
    """(kind, warning or None) of a key given by its distinct values (and the rows holding
    each): :func:`query_kind` of the values without their common affixes
    (:func:`affix_free`, within ``limits``), so a key a program makes by adding constants
    to a number is read as that number; past ``sample`` values, on a sample of them."""
    return query_kind(affix_free(values, limits), rows, sample)


def usefulness(row_coverage: float | None, key_ratio: float | None, kind: str | None,
               query_kind: str | None = None, query_ratio: float | None = None,
               chance: bool = False) -> float:
    """The score of ``rank="useful"``: the share of the query's rows that find a partner
    times the key kind's weight (the weaker of the lake column's and, when given, the query
    column's), the weight divided by 1 + log2 of the fan-out. The fan-out takes a kind
    whose matches are meaningful toward the weight of the coincidental kinds
    (``COINCIDENTAL_KINDS``), never to it: at equal coverage, a join to aggregate ranks
    above a coincidental one. A transformation's ``query_ratio`` (distinct query values per
    key its program makes) multiplies the fan-out: a program merging 14 dates onto each day
    number pairs each lake row with 14 query values, as a fan-out of 14 would. Years joined
    to years (both sides year-like) are not divided by the fan-out: yearly data holds many
    rows per year, and dividing would rank the rarest coincidence first (an HHMM time).
    ``chance``: the lake column's density explains the matches (:func:`chance_containment`),
    so the pair weighs ``CHANCE_WEIGHT`` at most, whatever the kinds."""
    cover = row_coverage or 0.0
    fan = max(key_ratio or 1.0, 1.0) * max(query_ratio or 1.0, 1.0)
    weight = KIND_WEIGHT.get(kind, 0.5)
    if query_kind is not None:
        weight = min(weight, KIND_WEIGHT.get(query_kind, 0.5))
    if chance:
        weight = min(weight, CHANCE_WEIGHT)
    if kind == query_kind == "year-like":
        return cover * weight        # years joined to years: many rows per year is their shape
    floor = COINCIDENCE_WEIGHT if weight > COINCIDENCE_WEIGHT else 0.0
    return cover * (floor + (weight - floor) / (1.0 + math.log2(fan)))
