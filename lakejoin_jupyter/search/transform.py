"""Candidate columns a query may join after a transformation: the retrieval stage of the
"Needs a transformation" search (join/autojoin/discovery.py verifies and ranks them).

Auto-Join pairs rows by rare shared q-grams (thesis §4.4.1, Algorithm 3: a pair scores
1/(n m), n and m the values of each column holding the gram); here the same score is
computed against every indexed column at once from the "transform" component
(search/segments.py, index/transform_arrays.py):

* a sampled query value v and a lake column X are *paired* by a shared pattern key (same
  segments in any order and format, constants and constant affixes left out) or a shared
  segment q-gram or short segment;
  n = sampled query values holding the key or gram, m = values of X holding it
  (``gram_counts``, or the key's token postings in X);
* pair(v, X) = the best 1/(n m) over the keys and grams v shares with X;
* score(X) = the mean of pair(v, X) over the sampled values: the share of the query that
  has a rare partner in X, Auto-Join's pairing signal per column.

Query-side postings longer than ``max_postings`` are skipped (a key or gram in that many
columns pairs nothing rare). :func:`gram_partners` names a value's partner in a column
for verification: the column value sharing the most gram weight (ties: longest common
substring). Deviations: a fixed q instead of Algorithm 3's longest common substring per
suffix; grams stay inside segments; a query's keys are also looked up with its numbers
zero-padded (``pad``: "42" meets the stripped key of "PKG-00042"), and without their
leading zeros ("PKG-00042" meets "42"); a query of whole numbers also by the q-gram of each
number of q-2..q-1 digits padded to q ("1001": "01001", a ZIP code read as an integer).
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import numpy as np

from .segments import (affixes, constant_hashes, distinct_pairs, segment_grams, segments,
                       utf8_arrays, value_keys)


@dataclass
class Evidence:
    """Pairs (sampled query value, lake column) with their score; ``token`` is the lake
    token id of a key pair (-1 for a gram pair), ``code`` the key hash or gram code."""
    qi: np.ndarray        # int64
    column: np.ndarray    # int64
    score: np.ndarray     # float64
    token: np.ndarray     # int64
    code: np.ndarray      # uint64
    n_values: int         # sampled query values

    def of_column(self, column: int) -> "Evidence":
        m = self.column == column
        return Evidence(self.qi[m], self.column[m], self.score[m], self.token[m],
                        self.code[m], self.n_values)


_DIGIT_RUN = re.compile(r"[0-9]+")


def padded_spellings(texts: list, owner: np.ndarray, width: int) -> tuple[list, np.ndarray]:
    """Each text with its digit runs shorter than w left-padded with zeros to w, for every
    w up to ``width`` above its shortest run ("42": "042", "0042", ...; "2019-3-5":
    "2019-03-05", ...), with the owner of the text it pads."""
    out, own = [], []
    for t, o in zip(texts, np.asarray(owner).tolist()):
        runs = [len(r) for r in _DIGIT_RUN.findall(t)]
        seen = {t}
        for w in range(min(runs, default=width) + 1, width + 1):
            v = _DIGIT_RUN.sub(lambda m: m.group().rjust(w, "0"), t)
            if v not in seen:
                seen.add(v)
                out.append(v)
                own.append(o)
    return out, np.array(own, dtype=np.int64)


def unpadded_spellings(texts: list, owner: np.ndarray) -> tuple[list, np.ndarray]:
    """Each text with a zero-padded digit run, with those runs' leading zeros dropped
    ("port-00022": "port-22"), with the owner of the text: a query of padded numbers meets
    a column holding the numbers themselves."""
    out, own = [], []
    for t, o in zip(texts, np.asarray(owner).tolist()):
        v = _DIGIT_RUN.sub(lambda m: m.group().lstrip("0") or "0", t)
        if v != t:
            out.append(v)
            own.append(o)
    return out, np.array(own, dtype=np.int64)


def code_spellings(texts: list, owner: np.ndarray, q: int) -> tuple[list, np.ndarray]:
    """A query of whole numbers (every text digits only, as an integer column reads):
    each number of ``q - 2`` to ``q - 1`` digits zero-padded to ``q`` ("1001": "01001"),
    with its owner. The padded text is one q-gram, found only in lake values that hold
    that fixed-width digit code (a ZIP code's "01001-agawam_ma"): the lake's grams decide
    whether the column meets them, as the equality search reads 1001 and 01001 as one key."""
    if not texts or not all(t.isascii() and t.isdigit() for t in texts):
        return [], np.zeros(0, np.int64)
    out, own = [], []
    for t, o in zip(texts, np.asarray(owner).tolist()):
        if t[0] != "0" and q - 2 <= len(t) < q:
            out.append(t.rjust(q, "0"))
            own.append(o)
    return out, np.array(own, dtype=np.int64)


def _keys(texts: list, idx: np.ndarray):
    """(value index, key hash) of the texts' full and stripped keys, their own constant
    segments left out and constant affixes cut; and the segments and constants."""
    data, offsets = utf8_arrays(texts)
    seg = segments(data, offsets)
    consts = constant_hashes(seg)
    full, has_full, stripped, has_stripped = value_keys(seg, consts, affixes(seg))
    return (np.concatenate([idx[has_full], idx[has_stripped]]),
            np.concatenate([full[has_full], stripped[has_stripped]])), seg, consts


def query_signals(texts: list, q: int, owner: np.ndarray | None = None, short: int = 0,
                  pad: int = 0):
    """Per sampled query value: its keys (value index, key hash) and its grams (value
    index, code; with ``short``, short segments too), the query's own constant segments
    left out and its constant affixes cut as the build does for a column's (the affixes
    whatever the index: a query "SIGINT" meets a lake "INT" under its full key).
    ``owner[i]`` is the sampled value text i spells (a value may come in two spellings: as
    the user wrote it and as its token). With ``pad``, the keys of the values' numbers
    zero-padded up to ``pad`` digits too (:func:`padded_spellings`; no grams: a padded
    gram is any number's), and without their leading zeros (:func:`unpadded_spellings`);
    and a query of whole numbers a gram of each short number padded to one q-gram
    (:func:`code_spellings`)."""
    idx = np.arange(len(texts), dtype=np.int64) if owner is None else \
        np.asarray(owner, dtype=np.int64)
    (key_qi, key_hash), seg, consts = _keys(texts, idx)
    if pad:
        for more, more_idx in (padded_spellings(texts, idx, pad),
                               unpadded_spellings(texts, idx)):
            if more:
                (pq, ph), _s, _c = _keys(more, more_idx)
                key_qi, key_hash = np.concatenate([key_qi, pq]), np.concatenate([key_hash, ph])
    gram_t, codes = segment_grams(seg, q, consts, short)
    if pad:
        codes_idx = [idx[gram_t]]
        more, more_idx = code_spellings(texts, idx, q)
        if more:
            mseg = segments(*utf8_arrays(more))
            mt, mcodes = segment_grams(mseg, q)
            codes_idx.append(more_idx[mt])
            codes = np.concatenate([codes, mcodes])
        return distinct_pairs(key_qi, key_hash), distinct_pairs(np.concatenate(codes_idx), codes)
    return distinct_pairs(key_qi, key_hash), distinct_pairs(idx[gram_t], codes)


def _lookup(sorted_keys: np.ndarray, keys: np.ndarray):
    """Positions of ``keys`` in ``sorted_keys`` and which were found."""
    pos = np.searchsorted(sorted_keys, keys)
    pos = np.minimum(pos, max(len(sorted_keys) - 1, 0))
    found = (sorted_keys[pos] == keys) if len(sorted_keys) else np.zeros(len(keys), bool)
    return pos, found


def _ragged(starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Concatenated ranges starts[i] .. starts[i] + lens[i]."""
    first = np.repeat(np.cumsum(lens) - lens, lens)
    return np.repeat(starts, lens) + (np.arange(int(lens.sum()), dtype=np.int64) - first)


def _postings(qi: np.ndarray, codes: np.ndarray, sorted_codes: np.ndarray,
              indptr: np.ndarray, max_postings: int):
    """The posting entries of the query's codes. Returns ``entries`` (the entries of each
    distinct found code, back to back, code by code), ``entry_code`` (which distinct code
    each belongs to) and, per (query pair, entry): (value, index into ``entries``, n = query
    values holding the code, code). Codes absent from the index or with more than
    ``max_postings`` entries give nothing."""
    uq, inv, nq = np.unique(codes, return_inverse=True, return_counts=True)
    pos, found = _lookup(sorted_codes, uq)
    lens = np.where(found, indptr[np.minimum(pos + 1, len(indptr) - 1)] - indptr[pos], 0)
    lens[lens > max_postings] = 0
    entries = _ragged(indptr[pos], lens)
    entry_code = np.repeat(np.arange(len(uq)), lens)
    start = np.cumsum(lens) - lens                       # each code's first index in entries
    per = lens[inv]
    at = _ragged(start[inv], per)
    owner = np.repeat(np.arange(len(qi)), per)
    return entries, entry_code, (qi[owner], at, nq[inv[owner]], uq[inv[owner]])


def _run_counts(groups: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """For entries sorted by (group, column): how many entries share each one's (group,
    column)."""
    if not len(groups):
        return np.zeros(0, np.int64)
    new = np.r_[True, (groups[1:] != groups[:-1]) | (columns[1:] != columns[:-1])]
    run = np.cumsum(new) - 1
    return np.bincount(run)[run]


def evidence(ti, texts: list, owner: np.ndarray | None = None,
             max_postings: int = 2000, pad: int = 0) -> Evidence:
    """Every (sampled value, column, key or gram) pair with its score 1/(n m) (module
    docstring); ``owner`` and ``pad`` as in :func:`query_signals`."""
    a = ti.arrays
    n_values = len(texts) if owner is None else (int(np.max(owner)) + 1 if len(owner) else 0)
    (kqi, khash), (gqi, gcode) = query_signals(texts, ti.spec.q, owner, ti.spec.short, pad)
    parts = []
    if len(a.key_hashes) and len(khash):
        entries, entry_code, (qv, at, n, code) = _postings(kqi, khash, a.key_hashes,
                                                          a.key_indptr, max_postings)
        cols = a.key_columns[entries].astype(np.int64)
        m = _run_counts(entry_code, cols)                 # the column's tokens under the key
        parts.append((qv, cols[at], 1.0 / (n * m[at]),
                      a.key_tokens[entries].astype(np.int64)[at], code))
    if len(a.gram_codes) and len(gcode):
        entries, _, (qv, at, n, code) = _postings(gqi, gcode, a.gram_codes, a.gram_indptr,
                                                  max_postings)
        parts.append((qv, a.gram_columns[entries].astype(np.int64)[at],
                      1.0 / (n * a.gram_counts[entries].astype(np.int64)[at]),
                      np.full(len(at), -1, np.int64), code))
    if not parts:
        z = np.zeros(0, np.int64)
        return Evidence(z, z, np.zeros(0), z, np.zeros(0, np.uint64), n_values)
    qi, col, score, tok, code = (np.concatenate(x) for x in zip(*parts))
    return Evidence(qi, col, score, tok, code, n_values)


def column_scores(ev: Evidence, exclude=()) -> tuple[np.ndarray, np.ndarray]:
    """(columns, score) by descending score (ties: column id): score(X) is the mean over
    the sampled values of their best pair score with X."""
    if not len(ev.qi):
        return np.zeros(0, np.int64), np.zeros(0)
    key = ev.column * max(ev.n_values, 1) + ev.qi
    order = np.lexsort((-ev.score, key))
    k = key[order]
    first = np.r_[True, k[1:] != k[:-1]]
    best = ev.score[order][first]
    cols = ev.column[order][first]
    uc, inv = np.unique(cols, return_inverse=True)
    total = np.bincount(inv, weights=best) / max(ev.n_values, 1)
    if len(exclude):
        keep = ~np.isin(uc, np.asarray(list(exclude), dtype=np.int64))
        uc, total = uc[keep], total[keep]
    order = np.lexsort((uc, -total))
    return uc[order], total[order]


def distinct_grams(qi: np.ndarray, codes: np.ndarray, scores: np.ndarray):
    """(qi, code, score) with each (qi, code) once, at its best score."""
    order = np.lexsort((-scores, codes, qi))
    qi, codes, scores = qi[order], codes[order], scores[order]
    first = np.r_[True, (qi[1:] != qi[:-1]) | (codes[1:] != codes[:-1])]
    return qi[first], codes[first], scores[first]


_TIE_RTOL = 1e-9          # weights within this relative distance of the best tie


_TABLES = threading.local()


def _prefix_table(p: int) -> np.ndarray:
    """A cleared lookup table over p-byte prefixes, allocated once per thread."""
    got = getattr(_TABLES, f"t{p}", None)
    if got is None:
        got = np.zeros(1 << (8 * p), dtype=bool)
        setattr(_TABLES, f"t{p}", got)
    return got


def _wanted_at(data: np.ndarray, wanted: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(position, code) of every ``width`` bytes of ``data`` whose code (big-endian) is in
    ``wanted`` (sorted, distinct): the positions whose first (up to 3) bytes begin a wanted
    code are found through a lookup table, then checked whole."""
    m = len(data) - width + 1
    p = min(width, 3)
    prefix = data[:m].astype(np.int32)
    for t in range(1, p):
        prefix = (prefix << 8) | data[t:m + t]
    heads = (wanted >> np.uint64(8 * (width - p))).astype(np.int64)
    table = _prefix_table(p)
    table[heads] = True
    try:
        at = np.flatnonzero(table[prefix])
    finally:
        table[heads] = False
    code = np.zeros(len(at), dtype=np.uint64)
    for t in range(width):
        code = (code << np.uint64(8)) | data[at + t].astype(np.uint64)
    pos = np.minimum(np.searchsorted(wanted, code), len(wanted) - 1)
    hit = np.flatnonzero(wanted[pos] == code)
    return at[hit], code[hit]


def window_grams(data: np.ndarray, offsets: np.ndarray, q: int,
                 wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value index, gram code) of each distinct q-gram of the values (bytes, offsets) that
    is in ``wanted``: the grams of :func:`segments.gram_occurrences` (q bytes of one class,
    inside one segment of one value), found from the bytes without cutting the values into
    segments: only the positions whose first bytes begin a wanted gram are checked."""
    from .segments import BYTE_CLASS, SEPARATOR
    data = np.asarray(data, dtype=np.uint8)
    offsets = np.asarray(offsets, dtype=np.int64)
    n = len(data)
    wanted = np.unique(np.asarray(wanted, dtype=np.uint64))
    if n < q or not len(wanted):
        return np.zeros(0, np.int64), np.zeros(0, np.uint64)
    at, code = _wanted_at(data, wanted, q)
    cls = BYTE_CLASS[data[at]]
    ok = cls != SEPARATOR
    for t in range(1, q):
        ok &= BYTE_CLASS[data[at + t]] == cls
    vi = np.searchsorted(offsets, at, side="right") - 1
    ok &= vi == np.searchsorted(offsets, at + (q - 1), side="right") - 1    # one value
    return distinct_pairs(vi[ok].astype(np.int64), code[ok])


def window_segments(data: np.ndarray, offsets: np.ndarray, q: int,
                    wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value index, code) of each distinct short segment of the values (bytes, offsets)
    whose code (:func:`segments.short_segments`: 1 to q - 1 bytes) is in ``wanted``, found
    from the bytes as :func:`window_grams` finds grams: the positions whose first bytes
    begin a wanted code are checked for the code and for a segment boundary on each side."""
    from .segments import BYTE_CLASS, SEPARATOR
    data = np.asarray(data, dtype=np.uint8)
    offsets = np.asarray(offsets, dtype=np.int64)
    wanted = np.unique(np.asarray(wanted, dtype=np.uint64))
    n = len(data)
    if not n or not len(wanted):
        return np.zeros(0, np.int64), np.zeros(0, np.uint64)
    widths = np.array([max((int(c).bit_length() + 7) // 8, 1) for c in wanted])
    cls = BYTE_CLASS[data]
    out_v, out_c = [], []
    for width in np.unique(widths).tolist():
        if width >= q or width > n:
            continue
        at, code = _wanted_at(data, wanted[widths == width], width)
        c = cls[at]
        ok = c != SEPARATOR
        for t in range(1, width):
            ok &= cls[at + t] == c
        vi = np.searchsorted(offsets, at, side="right") - 1
        end = at + width
        ok &= vi == np.searchsorted(offsets, end - 1, side="right") - 1    # one value
        start_ok = (at == offsets[vi]) | (cls[np.maximum(at - 1, 0)] != c)
        end_ok = (end == offsets[np.minimum(vi + 1, len(offsets) - 1)]) | \
            (cls[np.minimum(end, n - 1)] != c)
        ok &= start_ok & end_ok
        out_v.append(vi[ok].astype(np.int64))
        out_c.append(code[ok])
    if not out_v:
        return np.zeros(0, np.int64), np.zeros(0, np.uint64)
    return distinct_pairs(np.concatenate(out_v), np.concatenate(out_c))


def _has_common(subs: dict, text: str, b: str, n: int) -> bool:
    """Do ``text`` and ``b`` share a substring of n characters? (``subs`` caches the sets
    of ``text``'s substrings by length.)"""
    if n == 0:
        return True
    got = subs.get(n)
    if got is None:
        got = subs[n] = {text[i:i + n] for i in range(len(text) - n + 1)}
    return any(b[i:i + n] in got for i in range(len(b) - n + 1))


def longest_common_substring(text: str, b: str, subs: dict | None = None,
                             at_least: int = 0) -> int:
    """Length of the longest common substring of text and b (characters); -1 when it is
    shorter than ``at_least`` (a caller looking for the longest need not measure it)."""
    subs = {} if subs is None else subs
    if not _has_common(subs, text, b, at_least):
        return -1
    n = at_least
    while _has_common(subs, text, b, n + 1):
        n += 1
    return n


def _q_floor(q: int) -> np.uint64:
    """The smallest q-gram code: a code below it is a short segment's."""
    return np.uint64(1 << (8 * (q - 1)))


def gram_partners(data: np.ndarray, offsets: np.ndarray, q: int, qi: np.ndarray,
                  codes: np.ndarray, weights: np.ndarray, query_texts: dict,
                  max_value_bytes: int = 128, max_ties: int = 16) -> dict:
    """Each query value's best partner among a column's values (bytes, offsets): the value
    whose shared q-grams weigh the most, a pair's weight being the sum of ``weights`` of
    the distinct grams both hold (Auto-Join's 1/(n m) per gram, so a partner sharing a long
    substring, many grams, beats one sharing a single rare gram). ``(qi, codes, weights)``
    are the query values' grams, distinct per (qi, code); a short segment's code is found
    where the value holds that segment. Ties (weights within a relative
    1e-9) go to the longest common substring with ``query_texts[qi]``, then the shorter
    value, then the smaller text; a value with more than ``max_ties`` values tied at its
    best weight gets none (nothing tells them apart). Values longer than
    ``max_value_bytes`` are left out, as the index leaves them out. Returns
    {qi: (value index, weight)}."""
    qi = np.asarray(qi, dtype=np.int64)
    codes = np.asarray(codes, dtype=np.uint64)
    weights = np.asarray(weights, dtype=np.float64)
    offsets = np.asarray(offsets, dtype=np.int64)
    if not len(qi) or len(offsets) < 2:
        return {}
    vi, vcode = window_grams(data, offsets, q, codes[codes >= _q_floor(q)])
    small = np.unique(codes[codes < _q_floor(q)])
    if len(small):                                  # short segments held whole
        si, scode = window_segments(data, offsets, q, small)
        vi, vcode = np.r_[vi, si], np.r_[vcode, scode]
    lens = np.diff(offsets)
    keep = lens[vi] <= max_value_bytes
    vi, vcode = vi[keep], vcode[keep]
    if not len(vi):
        return {}
    # each lake occurrence (vi, code) meets every query value holding the code
    order = np.argsort(codes, kind="stable")
    sc, sq, sw = codes[order], qi[order], weights[order]
    lo = np.searchsorted(sc, vcode, side="left")
    hi = np.searchsorted(sc, vcode, side="right")
    ent = _ragged(lo, hi - lo)
    pv = np.repeat(vi, hi - lo)
    pq, pw = sq[ent], sw[ent]
    n_vals = len(offsets) - 1
    key = pq * n_vals + pv
    uk, inv = np.unique(key, return_inverse=True)
    total = np.bincount(inv, weights=pw)
    kq, kv = uk // n_vals, uk % n_vals
    best = np.zeros(int(kq.max()) + 1)
    np.maximum.at(best, kq, total)
    tied = total >= best[kq] * (1 - _TIE_RTOL)
    tq, tv, tw = kq[tied], kv[tied], total[tied]
    out: dict = {}
    bounds = np.flatnonzero(np.r_[True, tq[1:] != tq[:-1], True])
    for s, e in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        if e - s > max_ties:
            continue
        v = int(tq[s])
        if e - s == 1:
            out[v] = (int(tv[s]), float(tw[s]))
            continue
        text = query_texts[v]
        cands = sorted((len(t), t, int(tv[j]), float(tw[j])) for j in range(s, e)
                       for t in [bytes(data[offsets[tv[j]]:offsets[tv[j] + 1]])
                                 .decode("utf-8", "replace")])
        subs: dict = {}
        best, pick = -1, None
        for _n, t, x, w in cands:            # shorter, then smaller text, first
            n = longest_common_substring(text, t, subs, best + 1)
            if n > best:
                best, pick = n, (x, w)
        out[v] = pick
    return out
