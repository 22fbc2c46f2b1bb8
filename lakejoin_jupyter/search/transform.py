"""Candidate columns a query may join after a transformation: the retrieval stage of the
"Needs a transformation" search (join/autojoin/discovery.py verifies and ranks them).

Auto-Join pairs rows by rare shared q-grams (thesis §4.4.1, Algorithm 3: a pair scores
1/(n m), n and m the values of each column holding the gram); here the same score is
computed against every indexed column at once from the "transform" component
(search/segments.py, index/transform_arrays.py):

* a sampled query value v and a lake column X are *paired* by a shared pattern key (same
  segments in any order and format, constants left out) or a shared segment q-gram;
  n = sampled query values holding the key or gram, m = values of X holding it
  (``gram_counts``, or the key's token postings in X);
* pair(v, X) = the best 1/(n m) over the keys and grams v shares with X;
* score(X) = the mean of pair(v, X) over the sampled values: the share of the query that
  has a rare partner in X, Auto-Join's pairing signal per column.

Query-side postings longer than ``max_postings`` are skipped (a key or gram in that many
columns pairs nothing rare). Deviations: a fixed q instead of Algorithm 3's longest
common substring per suffix; grams stay inside segments.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .segments import (constant_hashes, distinct_pairs, segment_grams, segments, utf8_arrays,
                       value_keys)


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


def query_signals(texts: list, q: int, owner: np.ndarray | None = None):
    """Per sampled query value: its keys (value index, key hash) and its grams (value
    index, code), the query's own constant segments left out as the build leaves out a
    column's. ``owner[i]`` is the sampled value text i spells (a value may come in two
    spellings: as the user wrote it and as its token)."""
    data, offsets = utf8_arrays(texts)
    seg = segments(data, offsets)
    consts = constant_hashes(seg)
    full, has_full, stripped, has_stripped = value_keys(seg, consts)
    idx = np.arange(len(texts), dtype=np.int64) if owner is None else \
        np.asarray(owner, dtype=np.int64)
    key_qi = np.concatenate([idx[has_full], idx[has_stripped]])
    key_hash = np.concatenate([full[has_full], stripped[has_stripped]])
    gram_t, codes = segment_grams(seg, q, consts)
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
             max_postings: int = 2000) -> Evidence:
    """Every (sampled value, column, key or gram) pair with its score 1/(n m) (module
    docstring); ``owner`` as in :func:`query_signals`."""
    a = ti.arrays
    n_values = len(texts) if owner is None else (int(np.max(owner)) + 1 if len(owner) else 0)
    (kqi, khash), (gqi, gcode) = query_signals(texts, ti.spec.q, owner)
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
