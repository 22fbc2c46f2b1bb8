"""Segments of values, pattern keys and segment q-grams: what transformation-aware search
indexes and queries with (the thesis's future work on searching transformation joins,
ch. 5: tokenize values by their syntactic pattern; transformations rarely break tokens).

A value's UTF-8 bytes are classed as digits, letters (ASCII and every non-ASCII byte) or
separators; a *segment* is a maximal run of digits or of letters ("E09" -> "e", "09").
Vectorized numpy over (bytes, offsets) batches, the same code in the Spark build's pandas
UDFs, the reference builder and at query time (docs/algorithms/transform_search.md):

* pattern key: an order-free 64-bit hash of a value's multiset of segments; the *stripped*
  key leaves out the column's constant segments and cuts its constant letter affixes
  ("sig" of SIGINT), so "john.smith@org.com" meets "smith john" and "SIGINT" meets "INT";
* segment q-grams: q consecutive bytes inside one non-constant segment, packed big-endian
  into a uint64 (q <= 8: exact); a segment of ``short`` to q - 1 bytes is a gram itself;
* the column's syntactic pattern (for display): its most common value shape.

:func:`column_entries` is what one column contributes to the index, :func:`build_reference`
the pure-numpy construction the Spark build (indexing/transform.py) is tested against.

Deviations: bytes, not characters (both sides cut alike); non-ASCII bytes count as letters;
segment hashes are a polynomial hash with a 64-bit finalizer (a collision only proposes a
candidate); short segments are grams and letter affixes are cut like constants (values too
short for a q-gram, or glued to a constant, would pair with nothing).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..index.transform_arrays import (TransformIndex, TransformSpec, assemble, columns_frame,
                                      indexed_column)

DIGIT, LETTER, SEPARATOR = 1, 2, 0
CONSTANT_SHARE = 0.5          # a segment in this share of a column's values is a constant
CONSTANT_MIN_VALUES = 4       # ... when the column has at least this many distinct values
MAX_AFFIX = 8                 # bytes of a constant affix glued to a letter segment, at most
_P = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

BYTE_CLASS = np.zeros(256, dtype=np.int8)   # a UTF-8 byte's class: DIGIT, LETTER, SEPARATOR
BYTE_CLASS[ord("0"):ord("9") + 1] = DIGIT
BYTE_CLASS[ord("a"):ord("z") + 1] = LETTER
BYTE_CLASS[ord("A"):ord("Z") + 1] = LETTER
BYTE_CLASS[0x80:] = LETTER


def utf8_arrays(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(bytes uint8, offsets int64 [n+1]) of the texts' UTF-8 encodings, back to back."""
    import pyarrow as pa
    arr = pa.array(list(texts), type=pa.large_string())
    return arrow_arrays(arr)


def arrow_arrays(arr) -> tuple[np.ndarray, np.ndarray]:
    """(bytes, offsets) of a pyarrow (large_)string array without nulls, zero-copy where
    possible."""
    import pyarrow as pa
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if arr.null_count:
        raise ValueError("segments: values must not be null")
    arr = arr.cast(pa.large_string())
    n = len(arr)
    bufs = arr.buffers()
    offsets = np.frombuffer(bufs[1], dtype=np.int64)[arr.offset: arr.offset + n + 1]
    data = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None and n \
        else np.zeros(0, np.uint8)
    if n == 0:
        return np.zeros(0, np.uint8), np.zeros(1, np.int64)
    return data[offsets[0]:offsets[-1]], (offsets - offsets[0]).astype(np.int64)


def mix64(h: np.ndarray) -> np.ndarray:
    """SplitMix64's finalizer (wrapping uint64 arithmetic)."""
    z = np.asarray(h, dtype=np.uint64).copy()
    with np.errstate(over="ignore"):
        z ^= z >> np.uint64(30)
        z *= _M1
        z ^= z >> np.uint64(27)
        z *= _M2
        z ^= z >> np.uint64(31)
    return z


@dataclass
class Segments:
    """The segments of a batch of values, in value order."""
    n_values: int
    value: np.ndarray        # int64 [n_segments]: the value each segment belongs to
    indptr: np.ndarray       # int64 [n_segments + 1]: segment s is data[indptr[s]:indptr[s+1]]
    data: np.ndarray         # uint8: the segments' bytes (leading zeros of digit runs removed)
    hash: np.ndarray         # uint64 [n_segments]: mixed hash of each segment's bytes

    def __len__(self):
        return len(self.value)

    def text(self, s: int) -> str:
        return bytes(self.data[self.indptr[s]:self.indptr[s + 1]]).decode("utf-8", "replace")


def segments(data: np.ndarray, offsets: np.ndarray) -> Segments:
    """Split every value into segments (module docstring)."""
    data = np.asarray(data, dtype=np.uint8)
    offsets = np.asarray(offsets, dtype=np.int64)
    n_values = len(offsets) - 1
    n = len(data)
    cls = BYTE_CLASS[data]
    value_of = np.repeat(np.arange(n_values, dtype=np.int64), np.diff(offsets))
    if n == 0:
        return Segments(n_values, np.zeros(0, np.int64), np.zeros(1, np.int64),
                        np.zeros(0, np.uint8), np.zeros(0, np.uint64))
    starts = np.zeros(n, dtype=bool)
    starts[offsets[:-1][offsets[:-1] < offsets[1:]]] = True       # first byte of a value
    starts[1:] |= cls[1:] != cls[:-1]
    in_seg = cls != SEPARATOR
    starts &= in_seg
    kept_pos = np.flatnonzero(in_seg)
    kept = data[kept_pos]
    kept_run = (np.cumsum(starts) - 1)[kept_pos]                   # segment of each byte
    run_starts = np.flatnonzero(starts)
    n_seg = len(run_starts)
    lens = np.bincount(kept_run, minlength=n_seg).astype(np.int64)
    indptr = np.zeros(n_seg + 1, dtype=np.int64)
    np.cumsum(lens, out=indptr[1:])
    return Segments(n_values, value_of[run_starts], indptr, kept, _hashes(kept, indptr))


def _hashes(kept: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """Mixed polynomial hash of each (non-empty) segment: the sum of (byte + 1) * P^j over
    its bytes, plus its length."""
    n_seg = len(indptr) - 1
    if n_seg == 0:
        return np.zeros(0, np.uint64)
    lens = np.diff(indptr)
    j = np.arange(len(kept), dtype=np.int64) - np.repeat(indptr[:-1], lens)
    maxlen = int(lens.max())
    powers = np.ones(max(maxlen, 1), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for i in range(1, maxlen):
            powers[i] = powers[i - 1] * _P
        terms = (kept.astype(np.uint64) + np.uint64(1)) * powers[j]
    h = np.add.reduceat(terms, indptr[:-1])
    return mix64(h + lens.astype(np.uint64))


def _group_sum(values: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
    """uint64 sums (wrapping) of values by group id (groups sorted ascending)."""
    out = np.zeros(n, dtype=np.uint64)
    if len(values):
        first = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        out[groups[first]] = np.add.reduceat(values.astype(np.uint64), first)
    return out


def distinct_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (a, b) pairs, sorted by (a, b)."""
    order = np.lexsort((b, a))
    a, b = a[order], b[order]
    new = np.r_[True, (a[1:] != a[:-1]) | (b[1:] != b[:-1])] if len(a) else np.zeros(0, bool)
    return a[new], b[new]


def constant_hashes(seg: Segments, share: float = CONSTANT_SHARE,
                    min_values: int = CONSTANT_MIN_VALUES) -> np.ndarray:
    """Sorted hashes of the segments found in at least ``share`` of the values (a column's
    constants), or none when it has fewer than ``min_values`` values."""
    if seg.n_values < min_values or not len(seg):
        return np.zeros(0, np.uint64)
    _, hashes = distinct_pairs(seg.value, seg.hash)
    h, counts = np.unique(hashes, return_counts=True)
    return h[counts >= share * seg.n_values]


def _edge_segments(seg: Segments, last: bool) -> np.ndarray:
    """Index of each value's first (last) segment, -1 for a value without segments."""
    out = np.full(seg.n_values, -1, dtype=np.int64)
    if len(seg):
        vals, first, counts = np.unique(seg.value, return_index=True, return_counts=True)
        out[vals] = first + counts - 1 if last else first
    return out


def _edge_codes(seg: Segments, at: np.ndarray, n: int, last: bool) -> np.ndarray:
    """The first (last) n bytes of the segments ``at``, packed big-endian."""
    code = np.zeros(len(at), dtype=np.uint64)
    base = seg.indptr[at + 1] - n if last else seg.indptr[at]
    for t in range(n):
        code = (code << np.uint64(8)) | seg.data[base + t].astype(np.uint64)
    return code


def affixes(seg: Segments, share: float = CONSTANT_SHARE,
            min_values: int = CONSTANT_MIN_VALUES) -> tuple[bytes, bytes]:
    """(prefix, suffix): a column's constant affixes. The prefix is the longest run of
    bytes (at most ``MAX_AFFIX``) that begins the first segment of at least ``share`` of
    the values while that segment is made of letters and longer than it ("sig" of SIGINT,
    SIGTERM, ...; "k" of KABQ, KJFK); the suffix likewise ends the last segment. Ties
    between equally common runs of one length go to the smaller bytes. Empty when none,
    or when the column has fewer than ``min_values`` values."""
    out = []
    for last in (False, True):
        best = b""
        if seg.n_values >= min_values and len(seg):
            at = _edge_segments(seg, last)
            at = at[at >= 0]
            at = at[BYTE_CLASS[seg.data[seg.indptr[at]]] == LETTER]
            lens = seg.indptr[at + 1] - seg.indptr[at]
            for n in range(1, MAX_AFFIX + 1):
                at, lens = at[lens > n], lens[lens > n]
                if len(at) < share * seg.n_values:
                    break
                codes, counts = np.unique(_edge_codes(seg, at, n, last), return_counts=True)
                i = int(np.argmax(counts))
                if counts[i] < share * seg.n_values:
                    break
                best = int(codes[i]).to_bytes(n, "big")
        out.append(best)
    return out[0], out[1]


def cut_affixes(seg: Segments, prefix: bytes, suffix: bytes) -> tuple[Segments, np.ndarray]:
    """The segments with ``prefix`` cut from each value's first segment and ``suffix`` from
    its last where :func:`affixes` saw them (a letter segment longer than the affix; the
    suffix only where something is left after both), and which values were cut. Segment
    i of the result is segment i of ``seg``, shorter where cut."""
    keep = np.ones(len(seg.data), dtype=bool)
    cut = np.zeros(seg.n_values, dtype=bool)
    left = np.diff(seg.indptr).copy()
    for last, affix in ((False, prefix), (True, suffix)):
        n = len(affix)
        if not n or not len(seg):
            continue
        at = _edge_segments(seg, last)
        vals = np.flatnonzero(at >= 0)
        at = at[vals]
        ok = (BYTE_CLASS[seg.data[seg.indptr[at]]] == LETTER) & (left[at] > n)
        vals, at = vals[ok], at[ok]
        want = np.uint64(int.from_bytes(affix, "big"))
        start = seg.indptr[at + 1] - n if last else seg.indptr[at]
        ok = _edge_codes(seg, at, n, last) == want     # (left > n: beyond a cut prefix)
        vals, at, start = vals[ok], at[ok], start[ok]
        for t in range(n):
            keep[start + t] = False
        left[at] -= n
        cut[vals] = True
    if not cut.any():
        return seg, cut
    lens = np.bincount(np.repeat(np.arange(len(seg)), np.diff(seg.indptr))[keep],
                       minlength=len(seg)).astype(np.int64)
    indptr = np.zeros(len(seg) + 1, dtype=np.int64)
    np.cumsum(lens, out=indptr[1:])
    data = seg.data[keep]
    return Segments(seg.n_values, seg.value, indptr, data, _hashes(data, indptr)), cut


def value_keys(seg: Segments, constants: np.ndarray, affix: tuple = (b"", b"")
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per value: (full key, has a full key, stripped key, has a stripped key). The stripped
    key leaves out the ``constants`` and cuts the column's ``affix`` (prefix, suffix; see
    :func:`cut_affixes`); it is reported only where it differs from the full key (some
    constant was left out or an affix cut) and keeps at least one segment."""
    n = seg.n_values
    const = np.isin(seg.hash, constants) if len(constants) else np.zeros(len(seg), bool)
    counts = np.bincount(seg.value, minlength=n)
    full = mix64(_group_sum(seg.hash, seg.value, n))
    rest = ~const
    cseg, cut = cut_affixes(seg, *affix) if (affix[0] or affix[1]) else \
        (seg, np.zeros(n, dtype=bool))
    n_rest = np.bincount(seg.value[rest], minlength=n)
    stripped = mix64(_group_sum(cseg.hash[rest], seg.value[rest], n))
    return full, counts > 0, stripped, (n_rest > 0) & ((n_rest < counts) | cut)


def gram_occurrences(seg: Segments, q: int, constants: np.ndarray = np.zeros(0, np.uint64),
                     short: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(value index, gram code) of every q-gram occurrence in the values' non-constant
    segments, in value order (a gram repeated in a value is listed again). With ``short``,
    a non-constant segment of ``short`` to q - 1 bytes is a gram of its own (its bytes,
    packed: a code below 256^(q-1), which no q-gram has, its bytes being non-zero)."""
    if not 1 <= q <= 8:
        raise ValueError(f"q must be 1..8 bytes (a gram is packed into 64 bits); got {q}")
    lens = np.diff(seg.indptr)
    ok = lens >= q
    if len(constants):
        ok &= ~np.isin(seg.hash, constants)
    per = np.where(ok, lens - q + 1, 0)
    if short:
        small = (lens >= short) & (lens < q)
        if len(constants):
            small &= ~np.isin(seg.hash, constants)
        per = np.where(small, 1, per)
    total = int(per.sum())
    if total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.uint64)
    sid = np.repeat(np.arange(len(lens)), per)
    first = np.repeat(np.cumsum(per) - per, per)
    start = seg.indptr[sid] + (np.arange(total) - first)
    width = np.minimum(lens[sid], q)            # q, or a short segment's length
    code = np.zeros(total, dtype=np.uint64)
    for t in range(q):
        more = t < width
        code = np.where(more, (code << np.uint64(8)) |
                        seg.data[np.where(more, start + t, 0)].astype(np.uint64), code)
    return seg.value[sid], code


def short_segments(seg: Segments, q: int, short: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(value index, code) of every segment of ``short`` to q - 1 bytes, packed as
    :func:`gram_occurrences` packs them (constants not left out)."""
    lens = np.diff(seg.indptr)
    at = np.flatnonzero((lens >= max(short, 1)) & (lens < q))
    code = np.zeros(len(at), dtype=np.uint64)
    for t in range(q - 1):
        more = t < lens[at]
        code = np.where(more, (code << np.uint64(8)) |
                        seg.data[np.where(more, seg.indptr[at] + t, 0)].astype(np.uint64), code)
    return seg.value[at], code


def segment_grams(seg: Segments, q: int, constants: np.ndarray = np.zeros(0, np.uint64),
                  short: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(value index, gram code) of the distinct q-grams (and, with ``short``, short
    segments: :func:`gram_occurrences`) of each value's non-constant segments, sorted by
    (value, code)."""
    return distinct_pairs(*gram_occurrences(seg, q, constants, short))


def gram_bytes(code: int) -> bytes:
    """The bytes of a gram code (a q-gram's q bytes, a short segment's fewer)."""
    code = int(code)
    return code.to_bytes(max((code.bit_length() + 7) // 8, 1), "big")


def gram_text(code: int, q: int | None = None) -> str:
    """The bytes of a gram code, decoded for display."""
    return gram_bytes(code).decode("utf-8", "replace")


_SHAPE = re.compile(r"[0-9]+|[a-zA-Z\u0080-\U0010ffff]+")


def value_shape(text: str, constants: frozenset = frozenset()) -> str:
    """The syntactic pattern of one value: letter runs "a", digit runs "9", constant
    segments and separators as they are."""
    def sub(m):
        s = m.group(0)
        if s in constants:
            return s
        return "9" if s[0].isdigit() else "a"
    return _SHAPE.sub(sub, text)


def column_pattern(texts: Sequence[str], constants: frozenset = frozenset(),
                   limit: int = 2000) -> tuple[str, float]:
    """(the most common shape among the first ``limit`` values, its share)."""
    sample = list(texts[:limit])
    if not sample:
        return "", 0.0
    shape, n = Counter(value_shape(t, constants) for t in sample).most_common(1)[0]
    return shape, n / len(sample)


def constant_texts(seg: Segments, constants: np.ndarray) -> list[str]:
    """The text of each constant segment (for display), in hash order."""
    h, first = np.unique(seg.hash, return_index=True)     # one occurrence of each
    at = np.searchsorted(h, constants)
    return [seg.text(int(first[i])) for i, c in zip(at, constants) if i < len(h) and h[i] == c]


# ------------------------------------------------------------------ what a column indexes

def column_entries(tokens: Sequence[str], token_ids: np.ndarray, spec: TransformSpec):
    """What one column contributes: (key hashes, token ids) pairs, distinct (gram, count)
    pairs, and its pattern row (pattern, share, constants, n_indexed). ``tokens`` are the
    column's distinct tokens; the same function serves the Spark build and the reference."""
    keep = [i for i, t in enumerate(tokens) if len(t.encode("utf-8")) <= spec.max_value_bytes]
    texts = [tokens[i] for i in keep]
    ids = np.asarray(token_ids, dtype=np.int64)[keep] if len(keep) else np.zeros(0, np.int64)
    data, offsets = utf8_arrays(texts)
    seg = segments(data, offsets)
    consts = constant_hashes(seg)
    affix = affixes(seg) if spec.affix else (b"", b"")
    full, has_full, stripped, has_stripped = value_keys(seg, consts, affix)
    keys = np.concatenate([full[has_full], stripped[has_stripped]])
    key_tokens = np.concatenate([ids[has_full], ids[has_stripped]])
    vals, codes = segment_grams(seg, spec.q, consts, spec.short)
    gram, count = np.unique(codes, return_counts=True)
    ctexts = constant_texts(seg, consts)
    pattern, share = column_pattern(texts, frozenset(ctexts))
    return (keys, key_tokens), (gram, count), (pattern, share, ctexts, len(texts))


def build_reference(column_tokens: Sequence[Sequence[str]], token_id: dict,
                    column_types: Sequence[str], spec: TransformSpec = TransformSpec()
                    ) -> TransformIndex:
    """The component of a lake given as each column's distinct tokens (column ids are the
    positions), with ``token_id`` the dictionary (token -> id) and each column's profile
    type. Plain numpy per column; the Spark build must produce the same arrays."""
    kh, kc, kt, gc, gcol, gcnt, rows = [], [], [], [], [], [], []
    for cid, (toks, ctype) in enumerate(zip(column_tokens, column_types)):
        toks = sorted(set(toks))
        if not indexed_column(ctype) or not toks:
            continue
        (keys, ktoks), (gram, count), (pattern, share, consts, n) = column_entries(
            toks, np.array([token_id[t] for t in toks], dtype=np.int64), spec)
        kh.append(keys)
        kt.append(ktoks)
        kc.append(np.full(len(keys), cid, dtype=np.int64))
        gc.append(gram)
        gcnt.append(count)
        gcol.append(np.full(len(gram), cid, dtype=np.int64))
        rows.append((cid, pattern, share, consts, n))
    return assemble(_cat(kh, np.uint64), _cat(kc, np.int64), _cat(kt, np.int64),
                    _cat(gc, np.uint64), _cat(gcol, np.int64), _cat(gcnt, np.int64),
                    columns_frame(rows), spec, len(column_tokens))


def _cat(parts, dtype):
    return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)


