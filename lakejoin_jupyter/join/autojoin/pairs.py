"""Candidate joinable row pairs from rare q-gram matches (thesis §4.4.1, Algorithm 3).

For every source column C_s and key column C_t of the target, each distinct source value v
is probed: for every suffix u of v, BinarySearchQ finds the longest prefix g of u (q >= 3)
that still occurs in C_t (Prop. 4.4.2), and the pair (v's row, each target row holding g)
scores 1/(n*m), n and m being the numbers of distinct values of C_s and C_t containing g.
Per v all tied best pairs are kept (MaxByScore); pairs are grouped by column pair and
sorted by score. QueryIndex is a suffix array per column (binary search, cached).

Note:
    Choices the thesis leaves open (why: docs/algorithms/autojoin.md): case-insensitive
    matching; values over ``MAX_VALUE_CHARS`` skipped, q capped at ``MAX_GRAM``; a value's
    pairs for its own row only; pairs below ``min_score`` dropped, ties to the longer gram.
    Deviations: every value is also read as a canonical token sequence (numbers by value,
    month names as numbers: the language's ``Map`` equivalences) and compared through
    views of it (``signatures``): a key held by one value on each side pairs with score 1
    (whole bags "7/1/2014" = "July 1, 2014" = "2014-07-01", with years cut to two digits
    "3/1/22", numbers alone "1 5" = "S01E05"); such pairs come first among ties and drop
    the row's other gram pairs; a value with no pair labelling one number pairs by it
    ("District 1", "AK-01", 1/(n m)). A value shorter than 3 ("NY") is probed whole, and a
    target value shorter than 3 pairs with the source values it abbreviates ("IA",
    "Iowa"); a row's best matches in 2-3 columns are intersected (``combined_pair_groups``);
    a whole key too common for 1/(n m) (any whole key, the partial pass: 68) pairs with score 1
    in a group of its own (N:1), unless it lies inside a longer whole key ("espn.go.com");
    beside it, the value keeps its 1-to-1 q-gram matches longer than that key. A value
    with no pair at all is read with its punctuation dropped and pairs on whole tokens
    across a dropped separator ("3.2a1" and "cpython-32" through "32": ``glued_pairs``);
    still none: its one separator read as the target's ("pt-br" as "pt_br": ``swapped_pairs``).
    A short code with a digit pairs with the 2+ values holding it as a field between punctuation
    ("10" of "x%1:10:00::"); a combined pair of grams under MIN_Q together is no evidence (61).
"""
from __future__ import annotations

import functools
import itertools
import re
import zlib
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

import numpy as np

from .dsl import MAP_TABLES

_MONTH_NUMBER = {k: v for k, v in MAP_TABLES["month_number"].items() if not k.isdigit()}
MIN_Q = 3
MAX_GRAM = 64
MAX_VALUE_CHARS = 256
_TOP = "\U0010ffff"
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_DIGITS = re.compile(r"[0-9]+")
_MIXED = re.compile(r"[0-9][^\W\d_]|[^\W\d_][0-9]")      # a letter next to a digit


def _token_value(token: str) -> str:
    """A token as bags compare it, in the canonical form of the language's ``Map``
    equivalences: a number by its value ("07" and "7" are one token), a month's name or
    3-letter form by its number ("jul" and "July" are "7")."""
    if token.isascii() and token.isdigit():
        return token.lstrip("0") or "0"
    return _MONTH_NUMBER.get(token, token)


def _is_number(t: str) -> bool:
    return t.isascii() and t.isdigit()


def signatures(v: str) -> list:
    """The (view, key) pairs under which a (folded) value is compared (:func:`_signatures`,
    as a list)."""
    return list(_signatures(v))


@functools.lru_cache(maxsize=1 << 16)
def _signatures(v: str) -> tuple:
    """The (view, key) pairs under which a (folded) value is compared with the other
    column's values: one canonical reading of its tokens (:func:`_token_value`: numbers by
    value, month names as numbers) seen whole or in part.

    * ``bag``: every token (2+), as a sorted multiset ("7/1/2014" = "2014-7-1");
    * ``cut``: the same with each 4-digit number cut to its last two digits, for values
      holding a 2- or 4-digit number ("3/1/22" = "2022-03-01");
    * ``numbers`` / ``coded``: the numbers alone (2+), of a value made of numbers only
      ("1 5") / of one gluing letters to digits ("S01E05"); each view meets the other,
      and a key counts as unique when no other value has those numbers (``runs``);
    * ``label``: the one number of a value holding exactly one digit run and a letter
      ("district 1" and "ak-01": "1")."""
    tokens = _TOKEN.findall(v)
    out = []
    if len(tokens) >= 2:
        out.append(("bag", tuple(sorted(_token_value(t) for t in tokens))))
        if any(len(t) in (2, 4) and _is_number(t) for t in tokens):
            out.append(("cut", tuple(sorted(_token_value(t[2:] if len(t) == 4 and _is_number(t)
                                                          else t) for t in tokens))))
    runs = _DIGITS.findall(v)
    if len(runs) >= 2:
        numbers = tuple(sorted(_token_value(t) for t in runs))
        out.append(("runs", numbers))
        if all(_is_number(t) for t in tokens):
            out.append(("numbers", numbers))
        elif any(_MIXED.search(t) for t in tokens):
            out.append(("coded", numbers))
    elif len(runs) == 1 and any(ch.isalpha() for ch in v):
        out.append(("label", _token_value(runs[0])))
    return tuple(out)


# views whose unique keys pair a source value with a target value (score 1)
MATCHING_VIEWS = (("bag", "bag"), ("numbers", "coded"), ("coded", "numbers"), ("cut", "cut"))


def fold(text: str) -> str:
    return text.lower()


class SuffixIndex:
    """QueryIndex(C, g) of Algorithm 3 over one column's distinct (folded) values."""

    def __init__(self, values: list[str]):
        self.values = values
        grams = [v[i:i + MAX_GRAM] for v in values for i in range(len(v) - MIN_Q + 1)]
        ids = [vid for vid, v in enumerate(values) for _ in range(len(v) - MIN_Q + 1)]
        order = sorted(range(len(grams)), key=grams.__getitem__)   # stable: ties by value id
        self.suffixes = list(map(grams.__getitem__, order))
        self.value_ids = list(map(ids.__getitem__, order))
        self._trigrams = None
        self._has: dict = {}
        self._rows: dict = {}
        self._short: dict | None = None
        self._order = order
        self._rows_of: dict = {}      # width -> the sorted suffixes as rows (longest_matches)

    def _short_values(self, g: str) -> tuple:
        """Ids of the values containing g, for g shorter than MIN_Q: the suffix array finds
        the occurrences that start a gram of MIN_Q+ characters; the others start within
        the last MIN_Q - 1 characters of a value, kept in a small dictionary of every such
        substring (built on first use)."""
        hit = self._rows.get(g)
        if hit is None:
            if self._short is None:
                short: dict = {}
                for vid, v in enumerate(self.values):
                    for i in range(max(len(v) - MIN_Q + 1, 0), len(v)):
                        for j in range(i + 1, len(v) + 1):
                            short.setdefault(v[i:j], set()).add(vid)
                self._short = short
            lo = bisect_left(self.suffixes, g)
            hi = bisect_left(self.suffixes, g + _TOP, lo)
            hit = tuple(sorted(set(self.value_ids[lo:hi]) | self._short.get(g, set())))
            self._rows[g] = hit
        return hit

    def __len__(self):
        return len(self.suffixes)

    @property
    def trigrams(self) -> set:
        """The suffixes' first MIN_Q characters (made on first use)."""
        if self._trigrams is None:
            self._trigrams = {s[:MIN_Q] for s in self.suffixes}
        return self._trigrams

    def has(self, g: str) -> bool:
        """Does any value contain g?"""
        if len(g) < MIN_Q:
            return bool(self._short_values(g))
        hit = self._has.get(g)
        if hit is None:
            i = bisect_left(self.suffixes, g)
            hit = i < len(self.suffixes) and self.suffixes[i].startswith(g)
            self._has[g] = hit
        return hit

    def starts_gram(self, u: str) -> bool:
        """Does a suffix start with u's first MIN_Q characters (False for a shorter u)?
        The same as their membership in :attr:`trigrams`, probed without making them."""
        return len(u) >= MIN_Q and self.has(u[:MIN_Q])

    def values_with(self, g: str) -> tuple:
        """Ids of the distinct values containing g (the rows r of QueryIndex)."""
        if len(g) < MIN_Q:
            return self._short_values(g)
        hit = self._rows.get(g)
        if hit is None:
            suffixes = self.suffixes
            lo = bisect_left(suffixes, g)
            # a rare gram (the common case) ends within a few entries: scan before bisecting
            hi, stop = lo, min(lo + 8, len(suffixes))
            while hi < stop and suffixes[hi].startswith(g):
                hi += 1
            if hi == stop:
                hi = bisect_left(suffixes, g + _TOP, lo)
            hit = tuple(sorted(set(self.value_ids[lo:hi])))
            self._rows[g] = hit
        return hit


class ValueScan:
    """The ids of a few values' holders, found by scanning the values joined by NULs
    (``str.find``, jumping to the next value after each hit): the same answers as
    :meth:`SuffixIndex.values_with`, for a column asked too few times for its suffix array
    to pay for its sorting (the glued values of :func:`glued_pairs`)."""

    def __init__(self, values: list[str]):
        self.values = values
        self._text = None
        self._starts: list = []
        self._rows: dict = {}

    def values_with(self, g: str) -> tuple:
        """Ids of the distinct values containing g, as ``SuffixIndex.values_with`` gives
        them (none for g longer than MAX_GRAM, which no suffix holds)."""
        hit = self._rows.get(g)
        if hit is None:
            if len(g) > MAX_GRAM or not g:
                hit = ()
            elif "\x00" in g or any("\x00" in v for v in self.values):
                hit = tuple(i for i, v in enumerate(self.values) if g in v)
            else:
                if self._text is None:
                    self._text = "\x00".join(self.values) + "\x00"
                    starts, at = [], 0
                    for v in self.values:
                        starts.append(at)
                        at += len(v) + 1
                    self._starts = starts + [at]
                text, starts, found = self._text, self._starts, []
                at = text.find(g)
                while at >= 0:
                    vid = bisect_right(starts, at) - 1
                    found.append(vid)
                    at = text.find(g, starts[vid + 1])
                hit = tuple(found)
            self._rows[g] = hit
        return hit


def binary_search_q(u: str, index: SuffixIndex) -> int:
    """BinarySearchQ(u, C_t): the largest h in [3, |u|] such that u[:h] occurs in C_t, or
    2 when even u[:3] does not (Algorithm 3, lines 26-38). Same answer as the thesis's
    binary search over h, found with one bisection of the sorted suffixes instead of
    O(log |u|): the suffix sharing the longest prefix with u sits next to u's insertion
    point, so h is the longer common prefix of u with those two neighbours."""
    suffixes = index.suffixes
    i = bisect_left(suffixes, u)
    best = 0
    for j in (i - 1, i):
        if 0 <= j < len(suffixes):
            best = max(best, _common_prefix(u, suffixes[j]))
    best = min(best, MAX_GRAM)
    return best if best >= MIN_Q else MIN_Q - 1


def _windows(values: list, width: int) -> tuple:
    """The values' code points, each value followed by ``width`` zeros, as overlapping rows
    of ``width`` (row k: the text from position k, zeros after its value's end), and the
    position where each value starts."""
    pad = "\x00" * width
    codes = np.frombuffer((pad.join(values) + pad).encode("utf-32-le"), dtype=np.uint32)
    lens = np.fromiter(map(len, values), dtype=np.int64, count=len(values))
    starts = np.concatenate([[0], np.cumsum(lens + width)[:-1]]).astype(np.int64)
    return np.lib.stride_tricks.sliding_window_view(codes, width), starts, lens


def _suffix_rows(index: SuffixIndex, width: int) -> tuple:
    """The index's sorted suffixes as rows of ``width`` code points (zeros after the end),
    their lengths, and the same rows as strings of ``width`` (for ``searchsorted``),
    kept per width."""
    hit = index._rows_of.get(width)
    if hit is None:
        win, starts, lens = _windows(index.values, width)
        counts = np.maximum(lens - MIN_Q + 1, 0)
        first = np.concatenate([[0], np.cumsum(counts)[:-1]])   # each value's first gram
        gram = np.asarray(index._order, dtype=np.int64)          # sorted -> gram number
        vid = np.asarray(index.value_ids, dtype=np.int64)
        at = starts[vid] + gram - first[vid]
        rows = np.ascontiguousarray(win[at])
        hit = (rows, np.minimum(lens[vid] - (gram - first[vid]), MAX_GRAM),
               rows.view(f"<U{width}").ravel())
        index._rows_of[width] = hit
    return hit


_CHUNK = 8192       # probes compared with their neighbours at once
MAX_ROW_CELLS = 1 << 24     # code points of an index's suffixes kept as rows (64 MB)


def longest_matches(values: list, index: SuffixIndex) -> list | None:
    """For each value, :func:`binary_search_q` of each of its suffixes of MIN_Q+ characters
    against ``index`` (list per value, by start), for every value at once: ``searchsorted``
    of the suffixes (as rows of code points) in the index's sorted suffixes (the same
    order: both compare code points), then the common prefix with the two neighbours of
    the insertion point. None when a text holds a NUL, which a row could not tell from
    its end, or when the index's rows would exceed ``MAX_ROW_CELLS`` (then probe one by
    one)."""
    counts = [max(len(v) - MIN_Q + 1, 0) for v in values]
    n_t, total = len(index.suffixes), sum(counts)
    if not total or not n_t:
        return [[MIN_Q - 1] * n for n in counts]
    if any("\x00" in v for v in values) or any("\x00" in v for v in index.values):
        return None
    width = min(MAX_GRAM, max(max(map(len, values)), max(map(len, index.values))))
    if n_t * width > MAX_ROW_CELLS:
        return None             # the rows would take too much memory: probe one by one
    t_rows, t_len, t_arr = _suffix_rows(index, width)
    win, starts, lens = _windows(values, width)
    c = np.asarray(counts, dtype=np.int64)
    vid = np.repeat(np.arange(len(values)), c)
    start = np.arange(total) - np.repeat(np.cumsum(c) - c, c)      # position in its value
    p_at = starts[vid] + start
    p_len = np.minimum(lens[vid] - start, MAX_GRAM)
    best = np.zeros(total, dtype=np.int64)
    for lo in range(0, total, _CHUNK):
        rows = np.ascontiguousarray(win[p_at[lo:lo + _CHUNK]])
        at = np.searchsorted(t_arr, rows.view(f"<U{width}").ravel(), side="left")
        got = best[lo:lo + _CHUNK]
        for j in (at - 1, at):
            ok = (j >= 0) & (j < n_t)
            jj = np.clip(j, 0, n_t - 1)
            differ = rows != t_rows[jj]
            first = np.where(differ.any(axis=1), differ.argmax(axis=1), width)
            common = np.minimum(np.minimum(first, p_len[lo:lo + _CHUNK]), t_len[jj])
            np.maximum(got, np.where(ok, common, 0), out=got)
    q = np.where(best >= MIN_Q, best, MIN_Q - 1).tolist()
    out, at = [], 0
    for n in counts:
        out.append(q[at:at + n])
        at += n
    return out


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    i = 0
    while a[i] == b[i]:
        i += 1
    return i


@dataclass
class ColumnValues:
    """A column's distinct folded values and, for each, the first row holding it."""
    name: str
    values: list
    rows: list
    index: SuffixIndex = field(repr=False, default=None)
    _sigs: dict = field(repr=False, default=None)
    _short: dict = field(repr=False, default=None)
    _ids: dict = field(repr=False, default=None)
    _glued: tuple = field(repr=False, default=None)
    _bounds: dict = field(repr=False, default=None)
    _glue_read: dict = field(repr=False, default=None)
    _longest: int = field(repr=False, default=None)
    _firsts: set = field(repr=False, default=None)

    @property
    def first_words(self) -> set:
        """The :func:`first_words` of the column's values."""
        if self._firsts is None:
            self._firsts = first_words(self.values)
        return self._firsts

    @property
    def longest(self) -> int:
        """The length of the column's longest value."""
        if self._longest is None:
            self._longest = max(map(len, self.values), default=0)
        return self._longest

    @property
    def value_ids(self) -> dict:
        """Folded value -> its id."""
        if self._ids is None:
            self._ids = {v: i for i, v in enumerate(self.values)}
        return self._ids

    def signatures(self) -> dict:
        """The column's values as canonical token sequences (:func:`signatures`): view ->
        key -> ids of the values holding it (built once)."""
        if self._sigs is None:
            sigs: dict = {}
            for vid, v in enumerate(self.values):
                for view, key in _signatures(v):       # cached: residual columns repeat them
                    sigs.setdefault(view, {}).setdefault(key, []).append(vid)
            self._sigs = sigs
        return self._sigs

    def unique(self, view: str) -> dict:
        """Key -> id of the one value holding it, for the keys of ``view`` no other value
        of the column has (for the numbers of a value, in any view: ``runs``)."""
        sigs = self.signatures()
        within = sigs.get("runs", {}) if view in ("numbers", "coded") else None
        return {k: ids[0] for k, ids in sigs.get(view, {}).items()
                if len(ids) == 1 and (within is None or len(within[k]) == 1)}

    def glued(self) -> tuple:
        """The column's values with their punctuation dropped ("3.2a1" -> "32a1"):
        (distinct glued values, their :class:`SuffixIndex` or, when they differ from the
        values, a :class:`ValueScan` of them, glued value -> ids of the values reading
        so), built once (:func:`glued_pairs`)."""
        if self._glued is None:
            ids: dict = {}
            for vid, v in enumerate(self.values):
                ids.setdefault(_glue(v), []).append(vid)
            values = list(ids)
            same = len(values) == len(self.values) and all(map(str.__eq__, values, self.values))
            self._glued = (values, self.index if same else ValueScan(values), ids)
        return self._glued

    def glue_read(self, vid: int) -> tuple:
        """A value's glued reading, token bounds and dropped separators
        (:func:`_glue_bounds`), kept once made."""
        if self._glue_read is None:
            self._glue_read = {}
        hit = self._glue_read.get(vid)
        if hit is None:
            hit = self._glue_read[vid] = _glue_bounds(self.values[vid])
        return hit

    def token_bounds(self, vid: int) -> frozenset:
        """The positions where the tokens of value ``vid`` start or end (:func:`_bounds`),
        kept once made."""
        if self._bounds is None:
            self._bounds = {}
        hit = self._bounds.get(vid)
        if hit is None:
            hit = self._bounds[vid] = _bounds(self.values[vid])
        return hit

    def short_values(self) -> dict:
        """First character -> ids of the values shorter than MIN_Q made of letters ("ny",
        "dz"): the codes an abbreviation match looks for (:func:`abbreviation_matches`;
        a short number is not an abbreviation: "8" is not in "No. 83")."""
        if self._short is None:
            short: dict = {}
            for vid, v in enumerate(self.values):
                if len(v) < MIN_Q and v.isalpha():
                    short.setdefault(v[0], []).append(vid)
            self._short = short
        return self._short

    @classmethod
    def from_cells(cls, name: str, cells: list) -> "ColumnValues":
        first: dict = {}
        for row, cell in enumerate(cells):
            if cell is None or len(cell) > MAX_VALUE_CHARS or not cell.strip():
                continue
            key = fold(cell)
            if key not in first:
                first[key] = row
        values = list(first)
        return cls(name, values, [first[v] for v in values], SuffixIndex(values))


@dataclass(frozen=True)
class RowPair:
    source_row: int
    target_row: int
    gram: str          # the (folded) q-gram that matched; combined: see combined_pair_groups
    score: float       # 1 / (n * m)
    whole: bool = False   # a common whole key (N:1 evidence): a group of its own


@dataclass
class PairGroup:
    """The candidate row pairs found between one source column and one target key column."""
    source_column: str
    target_column: str
    pairs: list

    @property
    def average_score(self) -> float:
        return sum(p.score for p in self.pairs) / len(self.pairs) if self.pairs else 0.0

    def top(self, k: int) -> list:
        return self.pairs[:k]


def abbreviation_matches(v: str, short: dict, values: list) -> list:
    """Ids of the short target values (``short``: :meth:`ColumnValues.short_values`) that
    abbreviate the (folded) source value v: the code's first character starts a word of v
    and its other characters follow in order ("ia" in "iowa", "ny" in "new york", "dz" in
    "dza"). Not in the thesis: its q >= 3 leaves codes of 1-2 characters unmatched."""
    out = []
    for i, ch in enumerate(v):
        if not ch.isalnum() or (i and v[i - 1].isalnum()):
            continue
        for tid in short.get(ch, ()):
            t, j = values[tid], i + 1
            for c in t[1:]:
                j = v.find(c, j) + 1
                if not j:
                    break
            else:
                out.append(tid)
    return list(dict.fromkeys(out))


def whole_keys(v: str, keys: dict, longest: int | None = None,
               firsts: set | None = None) -> list:
    """The target values (``keys``: folded value -> id) of 3+ characters with a letter that
    occur in v as whole words: v[i:j] with i at the start of a word (i = 0 or v[i-1] not
    alphanumeric) and j at the end of one (j = len(v) or v[j] not alphanumeric)."""
    return [g for g in whole_word_keys(v, keys, longest, firsts)
            if any(ch.isalpha() for ch in g)]


def _max_by_score(best: float, kept: list, score: float, item) -> float:
    """MaxByScore, one candidate at a time: ``item`` replaces the ``kept`` items when its
    ``score`` beats ``best``, joins them on a tie; returns the best score so far."""
    if score > best:
        kept[:] = [item]
        return score
    if score == best:
        kept.append(item)
    return best


def best_pairs_for_value(vid: int, source: ColumnValues, target: ColumnValues,
                         min_score: float, extra: list = (), qs: list | None = None) -> list:
    """MaxByScore over the q-gram matches of one source value (Algorithm 3, lines 5-20);
    a value shorter than MIN_Q has one gram, itself. ``extra``: further (gram, target value
    ids, score) candidates of the value (abbreviations of short target values); ``qs``:
    the value's :func:`longest_matches` in the target, when known."""
    v = source.values[vid]
    t_index, s_index = target.index, source.index
    best, best_grams = 0.0, []
    for g, rt, score in extra:
        best = _max_by_score(best, best_grams, score, (g, rt))
    if len(v) < MIN_Q:
        rt = t_index.values_with(v)
        if rt and len(rt) * min_score <= 1.0:
            best, best_grams = 1.0 / (len(s_index.values_with(v)) * len(rt)), [(v, rt)]
    keys = target.value_ids
    # a whole key, as words of v, so common among the source values that 1/(n m) falls
    # below min_score (the "N" of an N:1 join: every county of a state) pairs with that
    # key alone, score 1; of several, those held by the most source values ("Ohio County,
    # Kentucky": Kentucky)
    # a whole key inside another whole key of v is a piece of that key, not a key of v
    # ("espn.go.com" in "sports.espn.go.com": always held by at least as many values)
    found = whole_keys(v, keys, target.longest, target.first_words)
    found = [g for g in found if not any(g != h and g in h for h in found)]
    counts = {g: len(s_index.values_with(g)) for g in found}
    counts = {g: n for g, n in counts.items()
              if n * len(t_index.values_with(g)) * min_score > 1.0}
    if counts:
        top = max(counts.values())
        whole = [RowPair(source.rows[vid], target.rows[keys[g]], g, 1.0, True)
                 for g in sorted(counts, key=len, reverse=True) if counts[g] == top]
        return whole + _one_to_one(v, vid, source, target, max(map(len, counts)),
                                   {p.target_row for p in whole}, qs)
    prev = None
    for g in _grams(v, t_index, MIN_Q, qs):
        # a gram inside the last one (its suffix at the next start, mostly) is held by at
        # least the same values on both sides: it scores at most as much, and on a tie the
        # same target rows, which the longer gram pairs first (not probed)
        if prev is not None and g in prev:
            continue
        prev = g
        rt = t_index.values_with(g)
        if len(rt) * best > 1.0 or len(rt) * min_score > 1.0:
            continue       # 1/(n m) <= 1/m is already below the best score or min_score
        rs = s_index.values_with(g)
        best = _max_by_score(best, best_grams, 1.0 / (len(rs) * len(rt)), (g, rt))
    if best < min_score:
        return []
    out, seen_rows = [], set()
    for g, rt in sorted(best_grams, key=lambda x: -len(x[0])):
        for t in rt:
            if t not in seen_rows:
                seen_rows.add(t)
                out.append(RowPair(source.rows[vid], target.rows[t], g, best))
    return out


def _longest_grams(v: str, t_index, shortest: int, qs: list | None = None):
    """(gram, target values holding it) of :func:`_grams`."""
    for g in _grams(v, t_index, shortest, qs):
        yield g, t_index.values_with(g)


def _grams(v: str, t_index, shortest: int, qs: list | None = None):
    """v's longest q-gram match in ``t_index`` at each start, q at least ``shortest``, each
    distinct gram once, from the left; ``qs``: the match length at each start
    (:func:`longest_matches`), else found here."""
    seen = set()
    if qs is not None:
        for i, q in enumerate(qs[:max(len(v) - shortest + 1, 0)]):
            if q < shortest:
                continue
            g = v[i:i + q]
            if g not in seen:
                seen.add(g)
                yield g
        return
    for i in range(len(v) - shortest + 1):
        u = v[i:i + MAX_GRAM]
        if u[:MIN_Q] not in t_index.trigrams:
            continue
        q = binary_search_q(u, t_index)
        if q < shortest:
            continue
        g = u[:q]
        if g not in seen:
            seen.add(g)
            yield g


def _one_to_one(v: str, vid: int, source: ColumnValues, target: ColumnValues, longer: int,
                skip: set, qs: list | None = None) -> list:
    """The pairs of v's 1-to-1 q-gram matches (score 1: one value on each side holds the
    gram) longer than ``longer`` characters, to target rows not in ``skip``: kept beside a
    common whole key's pair, which they are more specific than ("ssh-add" in
    "/usr/bin/ssh-add" and "SSH-ADD", beside the whole key "ssh"; deviation 42)."""
    t_index, s_index = target.index, source.index
    out, rows = [], set(skip)
    for g, rt in _longest_grams(v, t_index, longer + 1, qs):
        if len(rt) != 1 or len(s_index.values_with(g)) != 1:
            continue
        for t in rt:
            if target.rows[t] not in rows:
                rows.add(target.rows[t])
                out.append(RowPair(source.rows[vid], target.rows[t], g, 1.0))
    return out


def find_pair_group(source: ColumnValues, target: ColumnValues,
                    min_score: float = 1 / 64) -> PairGroup:
    pairs, bare = [], []
    codes = _code_part_candidates(source, target)
    qs = longest_matches(source.values, target.index)
    for vid, extra in enumerate(_abbreviation_candidates(source, target)):
        found = best_pairs_for_value(vid, source, target, min_score, [*extra, *codes[vid]],
                                     None if qs is None else qs[vid])
        pairs.extend(found)
        if not found:
            bare.append(vid)
    numbered = number_pairs(bare, source, target, min_score)
    pairs.extend(numbered)
    have = {(p.source_row, p.target_row): i for i, p in enumerate(pairs)}
    spread: dict = {}           # token-bag pairs tie: a fixed pseudo-random order, not row order
    bags = []
    for view_s, view_t in MATCHING_VIEWS:
        t_unique = target.unique(view_t)
        bags += [(vid, t_unique.get(key)) for key, vid in source.unique(view_s).items()]
    bagged: dict = {}
    for vid, tid in bags:
        if tid is None:
            continue
        pair = RowPair(source.rows[vid], target.rows[tid], "", 1.0)
        bagged.setdefault(pair.source_row, set()).add(pair.target_row)
        at = have.get((pair.source_row, pair.target_row))
        if at is not None and pairs[at].score >= 1.0:
            continue
        spread[pair] = zlib.crc32(source.values[vid].encode("utf-8"))
        if at is None:
            pairs.append(pair)
        else:
            pairs[at] = pair     # a weaker q-gram match of the same rows ("2014") gives way
    # a bag accounts for every token of both values, a gram for a piece: a source row with
    # a bag pair keeps no gram pair to another target row ("3/13/18": not "3/13/2019")
    if bagged:
        pairs = [p for p in pairs if p.source_row not in bagged
                 or p.target_row in bagged[p.source_row]]
    # a value with no pair at all, read with its punctuation dropped
    paired = bagged.keys() | {p.source_row for p in numbered}
    still = [vid for vid in bare if source.rows[vid] not in paired]
    glued = glued_pairs(still, source, target, min_score)
    pairs.extend(glued)
    # and then with its separator read as the one the target writes there
    glued_rows = {p.source_row for p in glued}
    pairs.extend(swapped_pairs([vid for vid in still if source.rows[vid] not in glued_rows],
                               source, target, min_score))
    # ties: a bag match (every token of both values) before a gram (a piece), then the
    # longer gram
    pairs.sort(key=lambda p: (-p.score, p not in spread, -len(p.gram), spread.get(p, 0),
                              p.source_row, p.target_row))
    return PairGroup(source.name, target.name, pairs)


def number_pairs(vids: list, source: ColumnValues, target: ColumnValues,
                 min_score: float) -> list:
    """Pairs for the source values ``vids`` that found no q-gram pair (not in the thesis):
    a value labelling one number ("District 1") pairs with the target values labelling the
    same number ("AK-01"), digits compared by value, scored 1/(n m) as a q-gram match (n
    source values, m target values with that number). One such pair is weak; a row's
    matches in other columns narrow it (:func:`combined_pair_groups`: "AK" and "District
    1" reach only "AK-01")."""
    bare = set(vids)
    numbers: dict = {}
    for n, ids in source.signatures().get("label", {}).items():
        ids = [vid for vid in ids if vid in bare]
        if ids:
            numbers[n] = ids
    t_numbers = target.signatures().get("label", {})
    out = []
    for n, sv in numbers.items():
        tv = t_numbers.get(n)
        if not tv or len(sv) * len(tv) * min_score > 1.0:
            continue
        score = 1.0 / (len(sv) * len(tv))
        for vid in sv:
            out.extend(RowPair(source.rows[vid], target.rows[tid], n, score) for tid in tv)
    return out


_PUNCT = re.compile(r"(?:[^\w\s]|_)+")
_RUN = re.compile(r"\d+|[^\W\d_]+")


def _glue(v: str) -> str:
    """The value without its punctuation (every character neither alphanumeric nor
    whitespace): "3.2a1" -> "32a1", "cpython-32" -> "cpython32"."""
    return _PUNCT.sub("", v)


def _glue_points(v: str) -> list:
    """Positions in the glued value (:func:`_glue`) where a run of punctuation stood between
    two alphanumeric characters ("3.2a1": [1]; "a - b" has none)."""
    out, dropped = [], 0
    for m in _PUNCT.finditer(v):
        if 0 < m.start() and m.end() < len(v) and v[m.start() - 1].isalnum() \
                and v[m.end()].isalnum():
            out.append(m.start() - dropped)
        dropped += m.end() - m.start()
    return out


def _bounds(text: str, points=()) -> frozenset:
    """The positions where a token of ``text`` starts or ends (a token: a run of digits or
    of letters), its ends and ``points``."""
    bounds = {0, len(text), *points}
    for m in _RUN.finditer(text):
        bounds.add(m.start())
        bounds.add(m.end())
    return frozenset(bounds)


def _glue_bounds(v: str) -> tuple:
    """(glued value, its token bounds, the dropped separators): "3.2a1" -> "32a1" with
    bounds {0, 1, 2, 3, 4}, the separator at 1; "cpython-32" -> "cpython32", {0, 7, 9}, 7."""
    g, points = _glue(v), _glue_points(v)
    return g, _bounds(g, points), tuple(points)


def _whole_in(g: str, text: str, bounds: frozenset) -> bool:
    """Does g occur in ``text`` as whole tokens (starting and ending at ``bounds``)?"""
    at = text.find(g)
    while at >= 0:
        if at in bounds and at + len(g) in bounds:
            return True
        at = text.find(g, at + 1)
    return False


def glued_pairs(vids: list, source: ColumnValues, target: ColumnValues,
                min_score: float) -> list:
    """Pairs for the source values ``vids`` that found no other pair (not in the thesis):
    the value read with its punctuation dropped ("3.2a1" as "32a1") matches a target value
    on a gram that spans a dropped separator ("32": the digits on both sides of "."), is
    made of whole tokens on both sides (runs of digits or of letters: "32" of "cpython-32",
    not "10" of "20120101"), and that the target writes as it is, with no separator
    inside ("21:16" is not in "1/21/16"); the longest at each token start of the value,
    scored 1/(n m), n and m the numbers of source values (read glued) and of target values
    holding the gram so; MaxByScore per value."""
    out, t_index, t_bounds = [], target.index, target.token_bounds
    read = source.glue_read
    found: dict = {}                 # gram -> (target value ids, n)

    def holders(g: str) -> tuple:
        if g not in found:
            rt = [t for t in t_index.values_with(g)
                  if _whole_in(g, target.values[t], t_bounds(t))]
            n = 0
            if rt:
                s_values, s_index, s_ids = source.glued()
                n = sum(_whole_in(g, *read(vid)[:2]) for gid in s_index.values_with(g)
                        for vid in s_ids[s_values[gid]])
            found[g] = (rt, n)
        return found[g]
    for vid in vids:
        if not _PUNCT.search(source.values[vid]):
            continue
        g_v, bounds, points = read(vid)
        if not points:
            continue
        ends = sorted(bounds)
        best, grams = 0.0, []
        for i in ends:
            if i >= points[-1]:
                break
            p = next(x for x in points if x > i)     # the first dropped separator after i
            u = g_v[i:i + MAX_GRAM]
            if t_index.starts_gram(u):
                q = binary_search_q(u, t_index)
            else:
                q = 2 if p == i + 1 and t_index.has(u[:2]) else 0
            for j in reversed(ends):                  # the longest whole gram at i
                if p < j <= i + q:
                    g = g_v[i:j]
                    rt, n = holders(g)
                    if rt:
                        break
            else:
                continue
            if len(rt) * min_score > 1.0:
                continue
            best = _max_by_score(best, grams, 1.0 / (n * len(rt)), (g, rt))
        if best >= min_score:
            out += _pairs_of(vid, source, target, sorted(grams, key=lambda x: -len(x[0])), best)
    return out


def _pairs_of(vid: int, source: ColumnValues, target: ColumnValues, grams: list,
              score: float) -> list:
    """The pairs of source value ``vid`` with the target rows holding its best ``grams``
    ((gram, target value ids), in the order given): one pair per target row."""
    seen, out = set(), []
    for g, rt in grams:
        for tid in rt:
            if target.rows[tid] not in seen:
                seen.add(target.rows[tid])
                out.append(RowPair(source.rows[vid], target.rows[tid], g, score))
    return out


_SWAPPABLE = re.compile(r"[^\W_]+(?:([^\w\s]|_)[^\W_]+)+")


def _whole_part(g: str, text: str, sep: str) -> bool:
    """Does g occur in ``text`` as one whole part: not next to a letter, a digit or
    ``sep`` (the separator inside g) on either side ("pt_br" in ".../pt_br/...", not
    "21/16" in "1/21/16")?"""
    at = text.find(g)
    while at >= 0:
        end = at + len(g)
        if (at == 0 or not (text[at - 1].isalnum() or text[at - 1] == sep)) and \
                (end == len(text) or not (text[end].isalnum() or text[end] == sep)):
            return True
        at = text.find(g, at + 1)
    return False


def swapped_pairs(vids: list, source: ColumnValues, target: ColumnValues,
                  min_score: float) -> list:
    """Pairs for the source values ``vids`` that found no other pair, glued or not (not in
    the thesis): a value of tokens joined by one separator ("pt-br") read with that
    separator as another that the target writes between two letters or digits ("pt_br")
    pairs with the target values holding that reading as one whole part (bounded by the
    value's ends or by other characters than letters, digits and its separator:
    ".../pt_br/..."), scored 1/(n m), n the source values holding the value so with the
    source's separator, m the target values; MaxByScore per value (the language's
    separator swap, deviation 32, then has examples)."""
    out, seps = [], None
    for vid in vids:
        v = source.values[vid]
        m = _SWAPPABLE.fullmatch(v)
        if m is None or len(set(_PUNCT.findall(v))) != 1:
            continue
        s = m.group(1)
        if seps is None:
            seps = set()
            for t in target.values:
                for i in range(1, len(t) - 1):
                    if (not t[i].isalnum() and not t[i].isspace() and t[i - 1].isalnum()
                            and t[i + 1].isalnum()):
                        seps.add(t[i])
        best, found = 0.0, []
        for c in sorted(seps - {s}):
            r = v.replace(s, c)
            rt = [t for t in target.index.values_with(r)
                  if _whole_part(r, target.values[t], c)]
            if not rt or len(rt) * min_score > 1.0:
                continue
            n = sum(_whole_part(v, source.values[x], s) for x in source.index.values_with(v))
            best = _max_by_score(best, found, 1.0 / (n * len(rt)), (r, rt))
        if best >= min_score:
            out += _pairs_of(vid, source, target, found, best)
    return out


def _abbreviation_candidates(source: ColumnValues, target: ColumnValues) -> list:
    """Per source value, its (gram, target value ids, score) candidates from the target's
    short values it abbreviates (:func:`abbreviation_matches`; values shorter than MIN_Q
    are probed whole instead): the pair scores 1/(n m) as a q-gram match does, n the number
    of source values abbreviated by the code, m the number of codes abbreviating v."""
    out = [()] * len(source.values)
    short = target.short_values()
    if not short:
        return out
    hits: dict = {}
    counts: dict = {}
    for vid, v in enumerate(source.values):
        if len(v) >= MIN_Q:
            found = abbreviation_matches(v, short, target.values)
            if found:
                hits[vid] = found
                for tid in found:
                    counts[tid] = counts.get(tid, 0) + 1
    for vid, found in hits.items():
        out[vid] = [(target.values[tid], (tid,), 1.0 / (counts[tid] * len(found)))
                    for tid in found]
    return out


_DECIMAL = re.compile(r"(?<![0-9])(?<![0-9]\.)[0-9]+\.[0-9]+(?!\.?[0-9])")


def _fields(v: str) -> list:
    """The words of v (runs of letters and digits) that are fields of a code: bounded on
    each side by v's end or by punctuation ("10" of "esdras%1:10:00::", "07" of
    "2014-07-01"), not by whitespace (a number among the words of a text is a quantity:
    "8" of "Peaked at No. 8 on"), nor part of a decimal number (one point between digits:
    "8" of "8.4" is a quantity too; "3" of "1.3.2" is a version's field)."""
    inside = {i for m in _DECIMAL.finditer(v) for i in range(m.start(), m.end())}
    return [m.group() for m in _TOKEN.finditer(v)
            if (m.start() == 0 or not v[m.start() - 1].isspace())
            and (m.end() == len(v) or not v[m.end()].isspace()) and m.start() not in inside]


def _code_part_candidates(source: ColumnValues, target: ColumnValues) -> list:
    """Per source value, its (gram, target value ids, score) candidates from the target's
    short codes holding a digit ("05", "7", "a1") that the value holds as a field
    (:func:`_fields`: "10" of "esdras%1:10:00::", not of "2010", "s10" or "No. 10 on");
    values shorter than MIN_Q are probed whole instead. Not in the thesis (deviation 61):
    its q >= 3 leaves such codes unmatched, and an abbreviation
    (:func:`abbreviation_matches`) holds letters only. The pair scores 1/(n m) as a q-gram
    match does, n the number of source values holding the code as a field, m = 1 (the code
    is one distinct target value), for n >= 2 only: the N of an N:1 join; a code one value
    alone holds is a 1:1 match of 1-2 characters, which chance makes as readily (a term's
    number "1; (1789)" against a president's)."""
    out = [()] * len(source.values)
    codes = {t: tid for tid, t in enumerate(target.values)
             if len(t) < MIN_Q and t.isalnum() and any(ch.isdigit() for ch in t)}
    if not codes:
        return out
    hits: dict = {}
    counts: dict = {}
    for vid, v in enumerate(source.values):
        if len(v) >= MIN_Q:
            found = [codes[w] for w in dict.fromkeys(_fields(v)) if w in codes]
            if found:
                hits[vid] = found
                for tid in found:
                    counts[tid] = counts.get(tid, 0) + 1
    for vid, found in hits.items():
        out[vid] = [(target.values[tid], (tid,), 1.0 / counts[tid]) for tid in found
                    if counts[tid] > 1]
    return out


def find_joinable_row_pairs(source_columns: list, target_columns: list,
                            min_score: float = 1 / 64) -> list:
    """FindJoinableRowPairs (Algorithm 3): one :class:`PairGroup` per (C_s, C_t) with at
    least one pair, in descending order of average score (the order GenExampleSets uses).
    Both arguments are lists of :class:`ColumnValues`; ``target_columns`` are the target's
    key columns."""
    groups = []
    for s in source_columns:
        for t in target_columns:
            if s is t or not s.values or not t.values:
                continue
            g = find_pair_group(s, t, min_score)
            whole = [p for p in g.pairs if p.whole]
            if whole and len(whole) < len(g.pairs):
                # the common whole keys of an N:1 join apart from the chance 1-to-1
                # fragments ("alif" of "Halifax" in "California") they tie with
                groups.append(PairGroup(g.source_column, g.target_column, whole))
                g.pairs = [p for p in g.pairs if not p.whole]
            if g.pairs:
                groups.append(g)
    groups.sort(key=lambda g: (-g.average_score, -len(g.pairs)))
    return groups


def whole_key_groups(source_columns: list, target_columns: list) -> list:
    """The partial pass's extra evidence (deviation 68): for every (C_s, C_t), each target
    key of 3+ characters, digits and punctuation alone included ("7/9/14"), that a source
    value holds as whole words pairs with it, score 1, however many values hold it (of
    several keys in one value, those not inside another: "espn.go.com" in
    "sports.espn.go.com"). One group per column pair, the keys held by the most source
    values first. Only the partial pass reads them: deviation 20 keeps to rare or lettered
    keys because a common number is a whole word of many values by chance."""
    groups = []
    for s in source_columns:
        for t in target_columns:
            if s is t or not s.values or not t.values:
                continue
            keys = t.value_ids
            pairs = []
            for vid, v in enumerate(s.values):
                if len(v) > MAX_VALUE_CHARS:
                    continue
                found = whole_word_keys(v, keys, t.longest, t.first_words)
                for g in found:
                    if not any(g != h and g in h for h in found):
                        pairs.append(RowPair(s.rows[vid], t.rows[keys[g]], g, 1.0, True))
            if not pairs:
                continue
            held: dict = {}
            for p in pairs:
                held[p.target_row] = held.get(p.target_row, 0) + 1
            pairs.sort(key=lambda p: (-held[p.target_row], p.target_row, p.source_row))
            groups.append(PairGroup(s.name, t.name, pairs))
    return groups


def first_words(keys) -> set:
    """The first words (runs of letters and digits) that start keys: a run of whole words
    of a value is a key only if its first word is one of them."""
    return {m.group() for k in keys if (m := _TOKEN.match(k))}


def whole_word_keys(v: str, keys: dict, longest: int | None = None,
                    firsts: set | None = None) -> list:
    """The keys (folded value -> id) of 3+ characters that are whole words of v (see
    :func:`whole_keys`), letters or not; ``longest``: no key is longer (the runs of words
    from a start stop there); ``firsts``: the keys' :func:`first_words` (runs from any
    other word are not looked up)."""
    words = [m.span() for m in _TOKEN.finditer(v)]     # runs of letters and digits
    longest = len(v) if longest is None else longest
    out = []
    for a, (i, end) in enumerate(words):
        if firsts is not None and v[i:end] not in firsts:
            continue
        for _start, j in words[a:]:                      # the words ending after i
            if j - i > longest:
                break
            if j - i >= MIN_Q and v[i:j] in keys:
                out.append(v[i:j])
    return list(dict.fromkeys(out))


MAX_COMBINED = 3     # source columns whose matches a row's combined evidence intersects


def combined_pair_groups(groups: list, source_cells: dict, min_score: float = 1 / 64) -> list:
    """Row pairs from the matches of several source columns together (not in the thesis).

    Algorithm 3 scores a pair by one source column's best q-gram. When the key is spread
    over columns whose values each recur in the target ("james smith" from FirstName and
    Surname in a table of 20 first names x 20 surnames), every column's best match is
    shared by many target values (score 1/20 each) and no group holds a right pair among
    its ties. A source row's matches in different columns are independent evidence for the
    same target row, so their intersection is the row's match: for each target key column
    and each source row, the target rows that the best matches of 2-3 of its columns all
    reach (the subset with the fewest, if fewer than any single column reaches). The pair
    scores 1/(n m) like a q-gram match, m the size of the intersection and n the number of
    distinct combinations of (the same columns') source values reaching the target row;
    one group per target column (named after the columns used, "a & b"), sorted like
    :func:`find_pair_group` (rows of one key are one group, whichever columns matched).
    The pair has no gram (evidence, deviation 5, as a token bag) unless its columns' grams
    hold fewer than MIN_Q characters together: then it is a match below the thesis's q, its
    gram those characters ("2" and "5" reaching "25"), no evidence (deviation 61).
    ``source_cells``: column name -> cells of the (sampled) source rows; groups of other
    (joined) columns are ignored."""
    out = []
    for t in dict.fromkeys(g.target_column for g in groups):
        reach: dict = {}             # column -> folded value -> target rows of its best match
        grams: dict = {}             # column -> (folded value, target row) -> its gram
        for g in groups:
            if g.target_column != t or g.source_column not in source_cells:
                continue
            cells = source_cells[g.source_column]
            m = reach.setdefault(g.source_column, {})
            held = grams.setdefault(g.source_column, {})
            for p in g.pairs:
                m.setdefault(fold(cells[p.source_row]), set()).add(p.target_row)
                held.setdefault((fold(cells[p.source_row]), p.target_row), p.gram)
        if len(reach) < 2:
            continue
        columns = [c for c in source_cells if c in reach]   # the source's column order
        combos: dict = {}            # (columns, values) -> (first row, target rows)
        for i in range(len(source_cells[columns[0]])):
            have = []
            for c in columns:
                cell = source_cells[c][i]
                rows = reach[c].get(fold(cell)) if cell is not None else None
                if rows:
                    have.append((len(rows), c, fold(cell), rows))
            if len(have) < 2:
                continue
            have.sort(key=lambda h: h[0])
            have = have[:MAX_COMBINED]
            fewest = have[0][0]
            best = None
            for size in range(2, len(have) + 1):
                for subset in itertools.combinations(have, size):
                    common = set.intersection(*(h[3] for h in subset))
                    if common and len(common) < fewest and (
                            best is None or (len(common), -size) < (len(best[1]), -len(best[0]))):
                        best = (subset, common)
            if best is None:
                continue
            subset = sorted(best[0], key=lambda h: columns.index(h[1]))
            key = (tuple(h[1] for h in subset), tuple(h[2] for h in subset))
            if key not in combos:
                combos[key] = (i, best[1])
        reached: dict = {}           # (columns, target row) -> distinct combinations
        for (cols, _vals), (_i, common) in combos.items():
            for j in common:
                reached[(cols, j)] = reached.get((cols, j), 0) + 1
        items, used = [], set()
        for (cols, vals), (i, common) in combos.items():
            for j in common:
                score = 1.0 / (reached[(cols, j)] * len(common))
                if score >= min_score:
                    used.update(cols)
                    short = "".join(grams[c][(v, j)] for c, v in zip(cols, vals))
                    short = short if len(short) < MIN_Q and all(
                        grams[c][(v, j)] for c, v in zip(cols, vals)) else ""
                    items.append((zlib.crc32(" & ".join(vals).encode("utf-8")),
                                  RowPair(i, j, short, score)))
        if items:
            items.sort(key=lambda x: (-x[1].score, x[0], x[1].source_row, x[1].target_row))
            name = " & ".join(c for c in columns if c in used)
            out.append(PairGroup(name, t, [p for _h, p in items]))
    return out
