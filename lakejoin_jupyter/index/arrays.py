"""The hot arrays every search algorithm reads, and a pure-numpy reference builder.

All CSR, all 0-based (JOSIE §3.5 layout):

* token ids are ranks in JOSIE's global order (ascending frequency, ties by the posting
  list), so tokens with identical posting lists are adjacent and share a ``token_group``;
* ``sets_indptr``/``sets_tokens``: set i's token ids, sorted ascending (the "integer sets");
* ``post_indptr``/``post_sets``/``post_pos``/``post_sizes``: token t's posting list, sorted
  by set id; each entry is (set id, 0-based position of t inside that set, set size).

:func:`build_arrays` is the reference for the Spark build (indexing/): the Spark index of a
lake must equal ``build_arrays`` of the same token sets, and the tests check it.

Note:
    Frequency ties are broken by the list itself, not by a MurmurHash3 of it first as in
    JOSIE's Spark code (reproducible in numpy). Details: docs/algorithms/index-format.md.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Sequence

import numpy as np


@dataclass
class IndexArrays:
    token_freq: np.ndarray    # int32 [n_tokens]
    token_group: np.ndarray   # int32 [n_tokens], groups contiguous and ascending
    sets_indptr: np.ndarray   # int64 [n_sets + 1]
    sets_tokens: np.ndarray   # int32 [nnz]
    post_indptr: np.ndarray   # int64 [n_tokens + 1]
    post_sets: np.ndarray     # int32 [nnz]
    post_pos: np.ndarray      # int32 [nnz]
    post_sizes: np.ndarray    # int32 [nnz]

    @property
    def n_sets(self) -> int:
        return len(self.sets_indptr) - 1

    @property
    def n_tokens(self) -> int:
        return len(self.token_freq)

    @property
    def set_sizes(self) -> np.ndarray:
        return np.diff(self.sets_indptr).astype(np.int32)

    def set_tokens(self, set_id: int) -> np.ndarray:
        return self.sets_tokens[self.sets_indptr[set_id]:self.sets_indptr[set_id + 1]]

    def postings(self, token_id: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        lo, hi = self.post_indptr[token_id], self.post_indptr[token_id + 1]
        return self.post_sets[lo:hi], self.post_pos[lo:hi], self.post_sizes[lo:hi]

    def equals(self, other: "IndexArrays") -> bool:
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name))
                   for f in fields(self))


@dataclass
class ReferenceIndex:
    """build_arrays' output: the arrays plus the dictionary (token text by token id)."""
    arrays: IndexArrays
    tokens: list[str]                 # token text by token id

    def token_ids(self, tokens) -> np.ndarray:
        lookup = {t: i for i, t in enumerate(self.tokens)}
        return np.array(sorted(lookup[t] for t in set(tokens) if t in lookup), dtype=np.int32)


def postings_from_sets(sets_indptr: np.ndarray, sets_tokens: np.ndarray, n_tokens: int):
    """Positional postings (CSR by token, entries sorted by set id) from integer sets."""
    sizes = np.diff(sets_indptr)
    set_of_entry = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)
    pos = (np.arange(len(sets_tokens), dtype=np.int64)
           - np.repeat(sets_indptr[:-1], sizes)).astype(np.int32)
    order = np.lexsort((set_of_entry, sets_tokens))
    freq = np.bincount(sets_tokens, minlength=n_tokens)
    indptr = np.zeros(n_tokens + 1, dtype=np.int64)
    np.cumsum(freq, out=indptr[1:])
    return (indptr, set_of_entry[order], pos[order],
            np.repeat(sizes, sizes).astype(np.int32)[order])


def build_arrays(token_sets: Sequence[Sequence[str]]) -> ReferenceIndex:
    """Reference (driver-side, pure Python/numpy) index of a list of token sets.

    ``token_sets[i]`` is the tokens of set i (duplicates ignored). Used by tests and as
    the oracle of the Spark build; not meant for large lakes.
    """
    plist: dict[str, list[int]] = {}
    for sid, toks in enumerate(token_sets):
        for t in set(toks):
            plist.setdefault(t, []).append(sid)
    for sids in plist.values():
        sids.sort()
    keys = sorted(plist, key=lambda t: (len(plist[t]), plist[t], t))
    n_tokens = len(keys)
    token_id = {t: i for i, t in enumerate(keys)}
    freq = np.array([len(plist[t]) for t in keys], dtype=np.int32)
    group = np.zeros(n_tokens, dtype=np.int32)
    for i in range(1, n_tokens):
        same = plist[keys[i]] == plist[keys[i - 1]]
        group[i] = group[i - 1] + (0 if same else 1)
    sizes = [len(set(t)) for t in token_sets]
    indptr = np.zeros(len(token_sets) + 1, dtype=np.int64)
    np.cumsum(sizes, out=indptr[1:])
    flat = np.zeros(int(indptr[-1]), dtype=np.int32)
    for sid, toks in enumerate(token_sets):
        flat[indptr[sid]:indptr[sid + 1]] = sorted(token_id[t] for t in set(toks))
    p_indptr, p_sets, p_pos, p_sizes = postings_from_sets(indptr, flat, n_tokens)
    arrays = IndexArrays(token_freq=freq, token_group=group, sets_indptr=indptr,
                         sets_tokens=flat, post_indptr=p_indptr, post_sets=p_sets,
                         post_pos=p_pos, post_sizes=p_sizes)
    return ReferenceIndex(arrays=arrays, tokens=keys)


def build_arrays_from_ids(sets_indptr: np.ndarray, values: np.ndarray) -> ReferenceIndex:
    """:func:`build_arrays` for sets of integer values, vectorized (no Python loop over
    values): set i holds ``values[sets_indptr[i]:sets_indptr[i+1]]`` (duplicates ignored).
    The same order and arrays as ``build_arrays`` of the same sets given as integers
    (tests/test_josie.py); ``tokens`` is then an array of the value of each token id. For
    benchmark lakes of 10^8 entries (bench/josie_prepare.py), where a dict per token does
    not fit in memory."""
    values = np.asarray(values, dtype=np.int64)
    sets_indptr = np.asarray(sets_indptr, dtype=np.int64)
    n_sets = len(sets_indptr) - 1
    set_of = np.repeat(np.arange(n_sets, dtype=np.int64), np.diff(sets_indptr))
    order = np.lexsort((set_of, values))                 # by value, then set id
    v, s = values[order], set_of[order]
    del order, set_of
    keep = np.ones(len(v), dtype=bool)                   # drop duplicates inside a set
    keep[1:] = (v[1:] != v[:-1]) | (s[1:] != s[:-1])
    v, s = v[keep], s[keep]
    del keep
    brk = np.flatnonzero(np.r_[True, v[1:] != v[:-1]]) if len(v) else np.zeros(0, np.int64)
    uniq = v[brk]
    freq = np.diff(np.r_[brk, len(v)])
    del v
    # global order: (frequency, posting list lexicographically, value); all lists of one
    # frequency f have f entries, so they compare as rows of an (n_f, f) matrix
    rank_order = np.empty(len(uniq), dtype=np.int64)
    new_group = np.ones(len(uniq), dtype=bool)           # differs from the previous token
    by_freq = np.argsort(freq, kind="stable")
    fb = np.flatnonzero(np.r_[True, freq[by_freq][1:] != freq[by_freq][:-1]]) if len(freq) \
        else np.zeros(0, np.int64)
    out = 0
    for a, b in zip(fb, np.r_[fb[1:], len(by_freq)]):
        toks = by_freq[a:b]                              # distinct values of frequency f
        f = int(freq[toks[0]])
        mat = s[brk[toks][:, None] + np.arange(f)]       # (n_f, f) posting lists
        o = np.lexsort((uniq[toks],) + tuple(mat[:, c] for c in range(f - 1, -1, -1)))
        rank_order[out:out + len(o)] = toks[o]
        m = mat[o]
        new_group[out + 1:out + len(o)] = np.any(m[1:] != m[:-1], axis=1)
        out += len(o)
    token_id = np.empty(len(uniq), dtype=np.int64)
    token_id[rank_order] = np.arange(len(uniq))
    group = (np.cumsum(new_group) - 1).astype(np.int32)
    # sets: token ids of each set, ascending
    tid = np.repeat(token_id, freq)                      # per entry (sorted by value, set)
    o = np.lexsort((tid, s))
    flat = tid[o].astype(np.int32)
    sizes = np.bincount(s, minlength=n_sets)
    del tid, o, s
    indptr = np.zeros(n_sets + 1, dtype=np.int64)
    np.cumsum(sizes, out=indptr[1:])
    p_indptr, p_sets, p_pos, p_sizes = postings_from_sets(indptr, flat, len(uniq))
    arrays = IndexArrays(token_freq=freq[rank_order].astype(np.int32), token_group=group,
                         sets_indptr=indptr, sets_tokens=flat, post_indptr=p_indptr,
                         post_sets=p_sets, post_pos=p_pos, post_sizes=p_sizes)
    return ReferenceIndex(arrays=arrays, tokens=uniq[rank_order])
