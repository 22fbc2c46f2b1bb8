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
      ``max_distance``. Details: docs/algorithms/autojoin.md.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np

TOKENIZERS = ("word", "2gram", "3gram")
DISTANCES = ("jaccard", "cosine", "dice")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def tokens(text: str, tokenizer: str) -> frozenset:
    t = text.lower()
    if tokenizer == "word":
        return frozenset(_WORD.findall(t)) or frozenset([t])
    q = int(tokenizer[0])
    if len(t) < q:
        return frozenset([t])
    return frozenset(t[i:i + q] for i in range(len(t) - q + 1))


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
        freq = Counter()
        for s in tc:
            freq.update(s)
        for s in tk:
            freq.update(s)
        hit = (tc, tk, freq)
        if cache is not None:
            cache[tokenizer] = hit
    return hit


def candidate_pairs(derived: list, keys: list, tokenizer: str, kind: str,
                    max_distance: float, max_pairs: int | None = None,
                    cache: dict | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(derived index, key index, distance) of every pair within ``max_distance``, by prefix
    filtering: with tokens ordered by ascending frequency, two sets within the distance
    share a token among the first |x| - ceil(alpha |x|) + 1 tokens of each."""
    tc, tk, freq = _tokenized(derived, keys, tokenizer, cache)
    alpha = _min_overlap_fraction(kind, 1.0 - max_distance)

    def prefix(s):
        ordered = sorted(s, key=lambda x: (freq[x], x))
        p = len(ordered) - math.ceil(alpha * len(ordered) - 1e-9) + 1
        return ordered[:max(p, 1)]

    index = defaultdict(list)
    for j, s in enumerate(tk):
        for tok in prefix(s):
            index[tok].append(j)
    prefixes = [prefix(s) for s in tc]
    if max_pairs is not None:
        work = sum(len(index.get(tok, ())) for p in prefixes for tok in p)
        if work > max_pairs:
            raise TooManyPairs(f"{work:,} candidate pairs for {tokenizer} tokens (limit "
                               f"{max_pairs:,})")
    ci, ki, dist = [], [], []
    for i, s in enumerate(tc):
        seen = set()
        for tok in prefixes[i]:
            for j in index.get(tok, ()):
                if j in seen:
                    continue
                seen.add(j)
                d = 0.0 if derived[i] == keys[j] else distance(s, tk[j], kind)
                if d <= max_distance + 1e-12:
                    ci.append(i)
                    ki.append(j)
                    dist.append(d)
    return (np.asarray(ci, dtype=np.int64), np.asarray(ki, dtype=np.int64),
            np.asarray(dist, dtype=np.float64))


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


@dataclass
class ConstrainedFuzzyJoin:
    """The chosen configuration and the extra derived-value -> key matches it adds."""
    tokenizer: str
    distance: str
    threshold: float
    coverage: int                 # keys joined, exact matches included
    exact_coverage: int           # keys joined by equality alone
    matches: dict = field(default_factory=dict)   # derived value -> key (non-exact only)
    tried: list = field(default_factory=list)     # (tokenizer, distance, threshold, coverage)

    @property
    def gain(self) -> int:
        return self.coverage - self.exact_coverage

    def describe(self) -> str:
        return (f"{self.tokenizer} tokens, {self.distance} distance <= {self.threshold:.3f} "
                f"(+{self.gain} key{'s' if self.gain != 1 else ''})")


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
    for t in tokenizers:
        for d in distances:
            try:
                ci, ki, dist = candidate_pairs(derived, keys, t, d, max_distance, max_pairs,
                                               cache)
            except TooManyPairs:
                tried.append((t, d, None, 0))
                continue
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
    matches = {derived[i]: keys[j] for i, j in zip(ci[m], ki[m]) if derived[i] != keys[j]}
    return ConstrainedFuzzyJoin(t, d, s, cov, exact, matches, tried)
