"""Constrained fuzzy join after the transformation (thesis §4.6, Eq. 4.9-4.10, Algorithm 6).

Between C, the distinct values the learned program derives from the source, and K, the
distinct target keys, a configuration (tokenizer t, distance d, threshold s) joins every
key within distance s of some derived value (Eq. 4.9); s is the largest threshold that
keeps the join 1:1 / N:1 (Eq. 4.10), found by binary search per (t, d) over the distinct
pair distances, and the (t, d, s) joining the most keys wins.

Note:
    - Algorithm 6 as printed moves the search the wrong way; here a feasible probe moves
      the lower end up and the best feasible threshold is returned (-1 when none).
    - Tokenizers word / 2-gram / 3-gram and distances Jaccard / cosine / Dice (the thesis
      names examples only); candidate pairs from a prefix filter exact up to
      ``max_distance``; tokens of the values as the fuzzy join folds them (textfold.fold).
      Details: docs/algorithms/autojoin.md.
    - Added: each added match's probability of being right (match_precision.py: its
      distance ratio against decoys), shown as the mean, the estimated precision; the null
      is the step's own: values with no equal key against the equal ones' decoys (74).
    - Added: two short codes (``short_code``) are never matched by token similarity: a code
      one character off is another code (XXX and NXX), not a typo.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from ...textfold import fold
from ..match_precision import TIE, nearest_ratios, null_probability

TOKENIZERS = ("word", "2gram", "3gram")
DISTANCES = ("jaccard", "cosine", "dice")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def tokens(text: str, tokenizer: str) -> frozenset:
    t = fold(text)
    if tokenizer == "word":
        return frozenset(_WORD.findall(t)) or frozenset([t])
    q = int(tokenizer[0])
    if len(t) < q:
        return frozenset([t])
    if q == 2:          # the q-grams by pairing shifted copies (the same set, in C)
        return frozenset(map(str.__add__, t, t[1:]))
    if q == 3:
        return frozenset(map(str.__add__, map(str.__add__, t, t[1:]), t[2:]))
    return frozenset(t[i:i + q] for i in range(len(t) - q + 1))


SHORT_CODE_CHARS = 4          # a value without whitespace of this many characters or fewer
CODE_WITH_DIGITS_CHARS = 8    # ... or of letters and digits (a digit among them) up to this


def short_code(text: str) -> bool:
    """Is ``text`` a short code ("JFK", "KJFK", "UA", "DL5777"): no whitespace, and at most
    ``SHORT_CODE_CHARS`` characters, or at most ``CODE_WITH_DIGITS_CHARS`` letters and
    digits with a digit? Two such codes differing in a character are different codes, so
    the fuzzy step does not match them by their shared q-grams."""
    if not text or len(text) > CODE_WITH_DIGITS_CHARS or any(map(str.isspace, text)):
        return False
    if len(text) <= SHORT_CODE_CHARS:
        return True
    return (len(text) <= CODE_WITH_DIGITS_CHARS and text.isalnum()
            and any(c.isdigit() for c in text) and any(c.isalpha() for c in text))


def distance(a: frozenset, b: frozenset, kind: str) -> float:
    inter = len(a & b)
    if kind == "jaccard":
        return 1.0 - inter / (len(a) + len(b) - inter)
    if kind == "cosine":
        return 1.0 - inter / math.sqrt(len(a) * len(b))
    return 1.0 - 2.0 * inter / (len(a) + len(b))


def _min_overlap_fraction(kind: str, sim: float) -> float:
    """alpha such that sim(x, y) >= sim implies |x & y| >= alpha |x| (for any y)."""
    if kind == "jaccard":
        return sim
    if kind == "cosine":
        return sim * sim
    return sim / (2.0 - sim)


class TooManyPairs(Exception):
    """The prefix filter leaves more candidate pairs than the budget allows."""


def _tokenized(derived: list, keys: list, tokenizer: str, cache: dict | None):
    hit = cache.get(tokenizer) if cache is not None else None
    if hit is None:
        tc = [tokens(v, tokenizer) for v in derived]
        tk = [tokens(v, tokenizer) for v in keys]
        freq = Counter(chain.from_iterable(tc))
        freq.update(chain.from_iterable(tk))
        hit = (tc, tk, freq)
        if cache is not None:
            cache[tokenizer] = hit
    return hit


def _set_distance(kind: str, inter, x, y):
    """The token-set distance of sets of sizes ``x`` and ``y`` sharing ``inter`` tokens
    (arrays, broadcast): Jaccard, cosine or Dice."""
    if kind == "jaccard":
        return 1.0 - inter / (x + y - inter)
    if kind == "cosine":
        return 1.0 - inter / np.sqrt(x * y)
    return 1.0 - 2.0 * inter / (x + y)


def candidate_pairs(derived: list, keys: list, tokenizer: str, kind: str,
                    max_distance: float, max_pairs: int | None = None,
                    cache: dict | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(derived index, key index, distance) of every pair within ``max_distance``, by prefix
    filtering: with tokens ordered by ascending frequency, two sets within the distance
    share a token among the first |x| - ceil(alpha |x|) + 1 tokens of each."""
    tc, tk, freq = _tokenized(derived, keys, tokenizer, cache)
    alpha = _min_overlap_fraction(kind, 1.0 - max_distance)
    # each set's tokens by ascending frequency, the same for every distance (cached), and
    # flat: (token rank, set number, place in the set) per token of every set
    key = ("ordered", tokenizer)
    ordered = cache.get(key) if cache is not None else None
    flat = cache.get(("flat", tokenizer)) if cache is not None else None
    if ordered is None or flat is None:
        # (frequency, token) as one rank per token: the same order, one key lookup a token
        rank = {x: r for r, x in enumerate(sorted(freq, key=lambda x: (freq[x], x)))}

        def by_frequency(sets):
            return [sorted(s, key=rank.__getitem__) for s in sets]

        def flattened(sets):
            lens = np.fromiter(map(len, sets), dtype=np.int64, count=len(sets))
            toks = np.fromiter(map(rank.__getitem__, chain.from_iterable(sets)),
                               dtype=np.int64, count=int(lens.sum()))
            owner = np.repeat(np.arange(len(sets)), lens)
            place = np.arange(len(toks)) - np.repeat(np.cumsum(lens) - lens, lens)
            return toks, owner, place, lens
        ordered = (by_frequency(tc), by_frequency(tk))
        flat = (flattened(ordered[0]), flattened(ordered[1]), len(rank))
        if cache is not None:
            cache[key] = ordered
            cache[("flat", tokenizer)] = flat
    (c_tok, c_own, c_place, c_len), (k_tok, k_own, k_place, k_len), n_tokens = flat

    def prefix(toks, owner, place, lens):
        """The tokens of each set's prefix (its first max(|x| - ceil(alpha |x|) + 1, 1)),
        in order, with their sets."""
        p = np.maximum(lens - np.ceil(alpha * lens - 1e-9).astype(np.int64) + 1, 1)
        m = place < p[owner]
        return toks[m], owner[m]

    # the keys' prefix tokens as an index: token -> the keys holding it, ascending
    kt, kj = prefix(k_tok, k_own, k_place, k_len)
    by_token = np.argsort(kt, kind="stable")
    kj = kj[by_token]
    size = np.bincount(kt, minlength=n_tokens)
    start = np.concatenate([[0], np.cumsum(size)[:-1]])
    ct, cown = prefix(c_tok, c_own, c_place, c_len)
    counts = size[ct]
    work = int(counts.sum())
    if max_pairs is not None and work > max_pairs:
        raise TooManyPairs(f"{work:,} candidate pairs for {tokenizer} tokens (limit "
                           f"{max_pairs:,})")
    # the pairs in the filter's order (by derived value, then as its prefix tokens list
    # the keys), each once; their distances from token-set intersections, vectorized
    ci = np.repeat(cown, counts)
    ki = kj[np.repeat(start[ct], counts)
            + (np.arange(work) - np.repeat(np.cumsum(counts) - counts, counts))]
    if not work:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy(), np.zeros(0, dtype=np.float64)
    _, first = np.unique(ci * len(keys) + ki, return_index=True)
    first.sort()
    ci, ki = ci[first], ki[first]
    C, K, nc, nk, same = _token_matrices(derived, keys, tokenizer, flat, cache)
    inter = np.concatenate([np.asarray(C[ci[a:a + _CHUNK]].multiply(K[ki[a:a + _CHUNK]])
                                       .sum(axis=1)).ravel()
                            for a in range(0, len(ci), _CHUNK)])
    dist = _set_distance(kind, inter, nc[ci], nk[ki])
    dist[same[ci] == ki] = 0.0
    keep = dist <= max_distance + 1e-12
    return ci[keep], ki[keep], dist[keep]


_CHUNK = 65536      # candidate pairs whose intersections are computed at once


def _token_matrices(derived: list, keys: list, tokenizer: str, flat: tuple,
                    cache: dict | None):
    """The derived values' and keys' token sets as 0/1 sparse rows over one vocabulary (the
    tokens' ranks of ``flat``, :func:`candidate_pairs`), their sizes, and for each derived
    value the index of the key equal to it (-1: none); cached per tokenizer."""
    hit = cache.get(("matrices", tokenizer)) if cache is not None else None
    if hit is None:
        from scipy import sparse
        (c_tok, _o, _p, c_len), (k_tok, _o2, _p2, k_len), n_tokens = flat

        def matrix(toks, lens):
            ptr = np.concatenate([[0], np.cumsum(lens)])
            return sparse.csr_matrix((np.ones(len(toks)), toks, ptr),
                                     shape=(len(lens), n_tokens))
        at = {v: j for j, v in enumerate(keys)}
        hit = (matrix(c_tok, c_len), matrix(k_tok, k_len), c_len.astype(np.float64),
               k_len.astype(np.float64),
               np.array([at.get(v, -1) for v in derived], dtype=np.int64))
        if cache is not None:
            cache[("matrices", tokenizer)] = hit
    return hit


def check_constraint(ci: np.ndarray, ki: np.ndarray, dist: np.ndarray, s: float) -> bool:
    """CheckConstraint(C, K, s) of Algorithm 6: within distance s, every derived value
    reaches at most one key and every key at most one derived value."""
    m = dist <= s
    c, k = ci[m], ki[m]
    if len(c) == 0:
        return True
    return (np.bincount(c).max() <= 1) and (np.bincount(k).max() <= 1)


def coverage(ki: np.ndarray, dist: np.ndarray, s: float) -> int:
    """|F_{t,d,s}(C, K)| (Eq. 4.9): keys within s of some derived value."""
    return int(len(np.unique(ki[dist <= s])))


def optimize_threshold(ci, ki, dist) -> tuple[float, int]:
    """OptimizeThreshold (Algorithm 6, direction fixed): the largest feasible threshold
    among the pair distances and its coverage, or (-1.0, 0) when even s = 0 is infeasible."""
    levels = np.unique(dist)
    if len(levels) == 0:
        return 0.0, 0
    lo, hi = 0, len(levels) - 1
    best, best_cov = -1.0, 0
    while lo <= hi:
        mid = (lo + hi) // 2
        s = float(levels[mid])
        if check_constraint(ci, ki, dist, s):
            best, best_cov = s, coverage(ki, dist, s)
            lo = mid + 1
        else:
            hi = mid - 1
    return best, best_cov


def nearest_keys(derived: list, keys: list, tokenizer: str, kind: str, k: int = 3,
                 cache: dict | None = None, chunk: int = 2048):
    """For each derived value: its k smallest distances to the keys (sorted), the index of
    the nearest key (the first at that distance) and how many keys lie at it, computed
    exactly from token-set intersections (sparse products, chunked)."""
    from scipy import sparse
    tc, tk, _ = _tokenized(derived, keys, tokenizer, cache)
    vocab = {t: i for i, t in enumerate(sorted({t for s in tc + tk for t in s}))}

    def matrix(sets):
        cols = [vocab[t] for s in sets for t in s]
        ptr = np.cumsum([0] + [len(s) for s in sets])
        return sparse.csr_matrix((np.ones(len(cols)), cols, ptr), shape=(len(sets), len(vocab)))
    C, K = matrix(tc), matrix(tk)
    kt = K.T.tocsc()
    nc, nk = np.array([len(s) for s in tc], float), np.array([len(s) for s in tk], float)
    k = max(1, min(k, len(keys)))
    near = np.full((len(derived), 3), np.inf)
    first = np.full(len(derived), -1)
    ties = np.zeros(len(derived), dtype=np.int64)
    for a in range(0, len(derived), chunk):
        inter = (C[a:a + chunk] @ kt).toarray()
        d = _set_distance(kind, inter, nc[a:a + chunk, None], nk[None, :])
        part = np.sort(np.partition(d, k - 1, axis=1)[:, :k], axis=1) if k < d.shape[1] \
            else np.sort(d, axis=1)
        near[a:a + chunk, :part.shape[1]] = part
        first[a:a + chunk] = np.argmin(d, axis=1)
        ties[a:a + chunk] = (d <= part[:, :1] + TIE).sum(axis=1)
    return near, first, ties


@dataclass
class ConstrainedFuzzyJoin:
    """The chosen configuration and the extra derived-value -> key matches it adds, each
    with the probability that it is right (``probability``; match_precision.py: its
    distance ratio against decoys, at most 1 / the keys tied as its nearest) and their
    mean (``estimated_precision``, None when it adds no match)."""
    tokenizer: str
    distance: str
    threshold: float
    coverage: int                 # keys joined, exact matches included
    exact_coverage: int           # keys joined by equality alone
    matches: dict = field(default_factory=dict)   # derived value -> key (non-exact only)
    tried: list = field(default_factory=list)     # (tokenizer, distance, threshold, coverage)
    probability: dict = field(default_factory=dict)  # derived value -> P(match is right)
    estimated_precision: float | None = None      # mean probability of the added matches

    @property
    def gain(self) -> int:
        return self.coverage - self.exact_coverage

    def describe(self) -> str:
        est = "" if self.estimated_precision is None else \
            f", estimated precision {self.estimated_precision:.0%}"
        return (f"{self.tokenizer} tokens, {self.distance} distance <= {self.threshold:.3f} "
                f"(+{self.gain} key{'s' if self.gain != 1 else ''}{est})")


def match_probabilities(derived: list, keys: list, tokenizer: str, kind: str,
                        cache: dict | None = None) -> np.ndarray:
    """P(the nearest key is the right one) for every derived value (match_precision.py),
    from a null of the step's own (deviation 74): the joins scored are the derived values
    with no equal key (the only ones the step can add; a value equal to a key is 1), against
    the decoy ratios d2 / d3 of the values that equal a key, whose second and third nearest
    keys are surely not their partner (all values' decoys where none of those has one)."""
    near, _, ties = nearest_keys(derived, keys, tokenizer, kind, cache=cache)
    s1, s2 = nearest_ratios(near)
    key_set = set(keys)
    equal = np.array([v in key_set for v in derived], dtype=bool)
    decoys = s2[equal] if np.isfinite(s2[equal]).any() else s2
    p = np.ones(len(derived))
    if (~equal).any():
        null, _ = null_probability(s1[~equal], decoys)
        p[~equal] = np.where(np.isfinite(null), 1.0 - np.nan_to_num(null), 0.0)
    return np.minimum(p, 1.0 / np.maximum(ties, 1))


def constrained_fuzzy_join(derived_values, target_keys, *, tokenizers=TOKENIZERS,
                           distances=DISTANCES, max_distance: float = 0.5,
                           max_pairs: int = 300_000) -> ConstrainedFuzzyJoin | None:
    """The (t, d, s) joining the most keys under the 1:1 / N:1 constraints (Eq. 4.10), with
    the matches it adds beyond equality; None when no configuration adds a key. A
    configuration whose prefix filter would compare more than ``max_pairs`` pairs is
    skipped (recorded in ``tried`` with threshold None)."""
    derived = sorted({v for v in derived_values if v is not None})
    keys = sorted({v for v in target_keys if v is not None})
    if not derived or not keys:
        return None
    key_set = set(keys)
    exact = sum(1 for v in derived if v in key_set)
    best = None
    tried = []
    cache: dict = {}
    code_d = np.array([short_code(v) for v in derived], dtype=bool)
    code_k = np.array([short_code(v) for v in keys], dtype=bool)
    for t in tokenizers:
        too_many = None     # the largest overlap fraction whose prefix filter was over budget
        for d in distances:
            # a smaller fraction keeps longer prefixes, so at least as many pairs: over too
            alpha = _min_overlap_fraction(d, 1.0 - max_distance)
            if too_many is not None and alpha <= too_many:
                tried.append((t, d, None, 0))
                continue
            try:
                ci, ki, dist = candidate_pairs(derived, keys, t, d, max_distance, max_pairs,
                                               cache)
            except TooManyPairs:
                too_many = alpha if too_many is None else max(too_many, alpha)
                tried.append((t, d, None, 0))
                continue
            keep = (dist == 0.0) | ~(code_d[ci] & code_k[ki])   # no two codes a char apart
            ci, ki, dist = ci[keep], ki[keep], dist[keep]
            s, cov = optimize_threshold(ci, ki, dist)
            tried.append((t, d, s, cov))
            if s < 0 or cov <= exact:
                continue
            if best is None or cov > best[3]:
                best = (t, d, s, cov, ci, ki, dist)
    if best is None:
        return None
    t, d, s, cov, ci, ki, dist = best
    m = dist <= s
    added = [(i, j) for i, j in zip(ci[m], ki[m]) if derived[i] != keys[j]]
    matches = {derived[i]: keys[j] for i, j in added}
    prob, est = {}, None
    if added:
        p = match_probabilities(derived, keys, t, d, cache)
        prob = {derived[i]: float(p[i]) for i, _ in added}
        est = float(np.mean(list(prob.values())))
    return ConstrainedFuzzyJoin(t, d, s, cov, exact, matches, tried, prob, est)
