"""Fuzzy join of two tables on a column, with the join function and threshold chosen to
maximize matches at an estimated precision target (after Auto-FuzzyJoin, Li et al.,
SIGMOD 2021).

``left`` is the reference table (no near-duplicates); every ``right`` value joins at most
one left value, its nearest under the join function, within the threshold. Join functions
(:data:`JOIN_FUNCTIONS`) are n-gram features (embed/) compared by Euclidean distance of unit
vectors, 1 - weighted Jaccard or 1 - max-inclusion. Each join's probability of being right
is estimated without labels (match_precision.py); among the configurations whose lower
bound on the precision (one-sided 95 %) reaches the target, the one with the most
estimated true matches wins (:func:`greedy_union` or the best single one).
:class:`NegativeRules` veto joins first.

Note:
    Deviations (why: docs/algorithms/fuzzyjoin.md): precision from the ratio d1/d2 against
    decoy ratios d2/d3 (a local false discovery rate), not from left neighbours within 2t;
    the target is met by a lower bound, not the estimate (selection and small tables); a
    union counts a right value once, its rival pairs lowering its probability; a join capped
    at 1/2 where its left value has another left value as near as the right value is
    (``NAMESAKES``); the joins to one left value expected to hold at most 2 true partners
    (``HUB_PARTNERS``); a join whose ratio d1/d2 exceeds ``AGREE_RATIO`` rated by the mean
    of the functions joining its right value to the same left value (their fits differ by
    noise there); the semantic function's decoys corrected for their rank; d2 and d3 from
    the left values the rules allow where the right value agrees with its nearest in its
    family's distinguishing part, read from the nearest's own family (``FAMILY_SEARCH``: a
    forbidden version sibling is no alternative to that join); 15 join functions instead
    of about 140 ("semantic" by default only up to ``SEMANTIC_MAX_VALUES`` values); exact
    blocking by sparse matrix products; ties go to the first left value (``argmin``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..embed import EmbedderError, NgramEmbedder, cached_embedder
from ..errors import QueryError
from ..textfold import fold
from .joinable import Joinable
from .keys import text_keys
from .match_precision import (STANDARD_ERRORS, TIE, join_variance, nearest_ratios,
                              null_probability, null_scale, pi0_relative_variance,
                              precision_bound, rank_corrected_null)

# name -> (embedder, weighting, measure). "cosine": Euclidean distance of the unit weighted
# n-gram vectors; "jaccard" / "contain": 1 - weighted Jaccard / max-inclusion (|A n B| /
# min(|A|, |B|)) of the feature sets, features weighted by IDF (Auto-FuzzyJoin's set
# distances, which catch a value that is the other plus or minus a few words).
JOIN_FUNCTIONS = {
    "char3-idf": (dict(n=(3,), words=False, punct="drop"), "idf", "cosine"),
    "char23-idf": (dict(n=(2, 3), words=False, punct="keep"), "idf", "cosine"),
    "char3-word-idf": (dict(n=(3,), words=True, punct="drop"), "idf", "cosine"),
    "word-idf": (dict(n=(), words=True, punct="drop"), "idf", "cosine"),
    "char3": (dict(n=(3,), words=False, punct="drop"), "tf", "cosine"),
    "word": (dict(n=(), words=True, punct="drop"), "tf", "cosine"),
    "word-jaccard-idf": (dict(n=(), words=True, punct="drop"), "idf", "jaccard"),
    "char3-jaccard-idf": (dict(n=(3,), words=False, punct="drop"), "idf", "jaccard"),
    "word-contain-idf": (dict(n=(), words=True, punct="drop"), "idf", "contain"),
    "char3-contain-idf": (dict(n=(3,), words=False, punct="drop"), "idf", "contain"),
    "char3-word-contain-idf": (dict(n=(3,), words=True, punct="drop"), "idf", "contain"),
    "char23-jaccard-idf": (dict(n=(2, 3), words=False, punct="keep"), "idf", "jaccard"),
    "word-jaccard": (dict(n=(), words=True, punct="drop"), "tf", "jaccard"),
    "word-contain": (dict(n=(), words=True, punct="drop"), "tf", "contain"),
    # the semantic embedder (embed/, embedder="semantic"): synonyms and abbreviations
    # ("UK" / "United Kingdom") that share no n-grams; dense unit vectors, Euclidean
    "semantic": ("semantic", "model", "cosine"),
}
PATIENCE = 0.05          # Auto-FuzzyJoin's default
NEAREST = 3               # nearest left distances kept per right value (the join, 2 decoys)
# left values searched for the ratio's second and third distances among those the negative
# rules allow, for a right value whose nearest agrees with it in its family's distinguishing
# part (family_nearest; None: the three nearest, forbidden ones included)
FAMILY_SEARCH = 10
SIBLINGS = True
# cap at 1/2 a join whose left value has another left value (a namesake) no further from it
# than the right value is: the reference table shows a different entity that close
NAMESAKES = True
# the joins at a threshold to one left value count for at most this many true partners
# (their probabilities scaled down to sum to it; None: no cap): a hub of right values
HUB_PARTNERS = 2.0
# functions whose decoys are corrected for their rank (match_precision.rank_corrected_null):
# the dense embedder, whose ratios for values without a partner (short codes the model
# knows nothing of) run far lower than its plain decoys (docs/algorithms/fuzzyjoin.md)
RANK_CORRECTED = frozenset({"semantic"})
# above this ratio s1 = d1 / d2, a join is rated by the mean probability of the join
# functions whose nearest left value for its right value is the same (None: its own):
# there the functions' fits differ by noise, which the choice of the highest selects
AGREE_RATIO = 0.7
N_THRESHOLDS = 50         # candidate thresholds per join function (Auto-FuzzyJoin: 50)
HUB_SIZE = 3              # a left value that this many right values match is a hub (warnings)
LOWEST_TARGET = 0.5       # the lowest precision target the CLI, magics and widget accept
# values equal after the featurization lie at distance 0 up to round-off (1e-8 .. 4e-8
# for the cosine functions: the square root of a dot product's last-place error); what is
# shown treats distances this close as one, and a threshold given by hand reaches this far
# past itself, so a given 0.000 joins them all as the tables say (the choice compares the
# distances as computed)
ROUNDOFF = 1e-6
# one-sided level of the bound (STANDARD_ERRORS) and of the sample check: n pairs, all of
# them right, show a precision of at least CHECK_LEVEL ** (1 / n) at this level
CHECK_LEVEL = 0.05
WARN_SHARE = 0.1          # warn when this share of the matches is on hubs or on namesakes
CHUNK = 2048
MIN_THRESHOLD_SPAN = 0.1   # the chart's threshold axis spans at least 0 to this
CHART_HEIGHT = 200        # the chart's plot height and a point label's height, in pixels
LABEL_PX = 12
# the page's colour under a point's label: JupyterLab's and Notebook 7's theme variable (an
# SVG attribute's var() follows the theme, a later switch included), white without it; a
# box of another colour (the widget's action tabs) sets --lakejoin-chart-page (lakejoin.css)
HALO = "var(--lakejoin-chart-page, var(--jp-layout-color0, white))"
# the largest distance of each measure: unit vectors of non-negative weights (n-grams) are
# at most sqrt(2) apart, dense embeddings at most 2; 1 - a similarity in [0, 1] at most 1
MAX_DISTANCE = {"cosine": float(np.sqrt(2.0)), "jaccard": 1.0, "contain": 1.0}


def distance_range(fn: str) -> float:
    """The largest distance join function ``fn`` can give (its distances run from 0)."""
    embedder, _, measure = JOIN_FUNCTIONS[fn]
    return 2.0 if embedder == "semantic" else MAX_DISTANCE[measure]


def check_threshold(fn: str, threshold) -> float:
    """``threshold`` as a float, refused outside join function ``fn``'s distances."""
    try:
        t = float(threshold)
    except (TypeError, ValueError):
        raise QueryError(f"threshold must be a number (got {threshold!r}).") from None
    top = distance_range(fn)
    if not 0.0 <= t <= top + 0.005:     # what rounds to the range shown is taken
        raise QueryError(f"threshold {t:g} is outside the distances of join function {fn!r}, "
                         f"0..{top:.2f}: give a threshold in that range.")
    return t


class _Rows:
    """Feature rows of one side for a join function: ``m`` (scipy CSR) and, for the set
    measures, ``size`` (sum of feature weights per row) and ``ones`` (the same rows with
    weight 1, so ``a.m @ b.ones.T`` is the weight of the intersection)."""

    def __init__(self, m, measure, size=None, ones=None):
        self.m, self.measure, self.size, self.ones = m, measure, size, ones
        self.shape = m.shape

    def __getitem__(self, rows):
        return _Rows(self.m[rows], self.measure,
                     None if self.size is None else self.size[rows],
                     None if self.ones is None else self.ones[rows])


def _features(texts, fn: str, counts: dict | None = None):
    """Feature rows of each list of texts over a compact column space (the features
    present), IDF computed over all the lists: unit-normalized weighted counts for
    "cosine", weighted binary sets for "jaccard"/"contain". ``counts`` (a dict kept across
    the join functions of one join) holds each tokenization's counts: the functions share
    five tokenizations, and tokenizing a large reference table is most of the join's time."""
    from scipy import sparse
    kw, weighting, measure = JOIN_FUNCTIONS[fn]
    if weighting == "model":                      # a model's dense unit vectors
        emb = cached_embedder(kw)
        return [_Rows(emb.embed([str(x) for x in t]).astype(np.float64), measure) for t in texts]
    key = tuple(sorted(kw.items()))
    if counts is None or key not in counts:
        emb = NgramEmbedder(**kw)
        mats = [emb.feature_counts(t) for t in texts]
        if counts is not None:
            counts[key] = mats
    mats = counts[key] if counts is not None else mats
    present = np.unique(np.concatenate([m.indices for m in mats]))
    width = max(len(present), 1)
    mats = [sparse.csr_matrix((m.data.astype(np.float64), np.searchsorted(present, m.indices),
                               m.indptr), shape=(m.shape[0], width)) for m in mats]
    if measure != "cosine":
        for m in mats:
            m.data[:] = 1.0
    idf = None
    if weighting == "idf":
        df = np.bincount(np.concatenate([m.indices for m in mats]), minlength=width)
        n = sum(m.shape[0] for m in mats)
        idf = np.log((n + 1) / (df + 1)) + 1.0
    out = []
    for m in mats:
        rows = np.repeat(np.arange(m.shape[0]), np.diff(m.indptr))
        if measure == "cosine":
            if idf is not None:
                m.data *= idf[m.indices]
            norm = np.sqrt(np.bincount(rows, weights=m.data ** 2, minlength=m.shape[0]))
            m.data /= norm[rows]
            out.append(_Rows(m, measure))
        else:
            ones = m.copy()
            if idf is not None:
                m.data *= idf[m.indices]
            size = np.bincount(rows, weights=m.data, minlength=m.shape[0])
            out.append(_Rows(m, measure, size, ones))
    return out


def _distances(a: "_Rows", b: "_Rows", bt, bt_ones, s, e):
    """Dense distances of rows s:e of a to every row of b."""
    if a.measure == "cosine":
        sim = a.m[s:e] @ bt
        sim = sim.toarray() if hasattr(sim, "toarray") else np.asarray(sim)
        return np.sqrt(np.clip(2.0 - 2.0 * sim, 0.0, 4.0))
    inter = (a.m[s:e] @ bt_ones).toarray()
    sa, sb = a.size[s:e, None], b.size[None, :]
    if a.measure == "jaccard":
        den = sa + sb - inter
    else:
        den = np.minimum(sa, sb)
    with np.errstate(divide="ignore", invalid="ignore"):
        sim = np.where(den > 0, inter / den, 0.0)
    return 1.0 - np.clip(sim, 0.0, 1.0)


def _nearest(a, b, k: int, self_index=None):
    """For each row of a: the k smallest distances to rows of b, their indices, and how
    many rows of b lie at the smallest distance (ties); ``self_index[i]``: the row of b
    that is row i of a itself (excluded). The first index is the first row at the
    smallest distance (``argmin``) and, for k > 1, the second index the first row at the
    next distance: reproducible, whereas ``argpartition`` breaks ties by its SIMD
    implementation, which differs between CPUs (the further indices are not)."""
    n, nb = a.shape[0], b.shape[0]
    exclude_self = self_index is not None
    k = max(1, min(k, nb - (1 if exclude_self else 0)))
    dist = np.full((n, k), np.inf)
    idx = np.full((n, k), -1, dtype=np.int64)
    ties = np.zeros(n, dtype=np.int64)
    if nb == 0 or (exclude_self and nb < 2):
        return dist, idx, ties
    if a.measure == "cosine":
        bt, bt_ones = (b.m.T.tocsc() if hasattr(b.m, "tocsc") else b.m.T), None
    else:
        bt, bt_ones = None, b.ones.T.tocsc()
    for s in range(0, n, CHUNK):
        d = _distances(a, b, bt, bt_ones, s, min(s + CHUNK, n))
        if exclude_self:
            d[np.arange(d.shape[0]), self_index[s:s + CHUNK]] = np.inf
        if k == 1:
            part = np.argmin(d, axis=1)[:, None]
        else:
            part = np.argpartition(d, k - 1, axis=1)[:, :k] if k < nb else \
                np.tile(np.arange(nb), (d.shape[0], 1))
        top = np.take_along_axis(d, part, axis=1)
        order = np.argsort(top, axis=1, kind="stable")
        part, top = np.take_along_axis(part, order, 1), np.take_along_axis(top, order, 1)
        ties[s:s + CHUNK] = (d <= top[:, :1] + TIE).sum(axis=1)
        if k > 1:                    # the first and second indices reproducibly, as for k = 1
            rows = np.arange(d.shape[0])
            part[:, 0] = np.argmin(d, axis=1)
            d[rows, part[:, 0]] = np.inf
            part[:, 1] = np.argmin(d, axis=1)
        dist[s:s + CHUNK, :part.shape[1]] = top
        idx[s:s + CHUNK, :part.shape[1]] = part
    return dist, idx, ties


def _pair_distances(a: "_Rows", b: "_Rows") -> np.ndarray:
    """Distance of row i of a to row i of b, for every i (same measure and features)."""
    if a.measure == "cosine":
        prod = a.m.multiply(b.m) if hasattr(a.m, "multiply") else a.m * b.m   # sparse / dense
        sim = np.asarray(prod.sum(axis=1)).ravel()
        return np.sqrt(np.clip(2.0 - 2.0 * sim, 0.0, 4.0))
    inter = np.asarray(a.m.multiply(b.ones).sum(axis=1)).ravel()
    den = a.size + b.size - inter if a.measure == "jaccard" else np.minimum(a.size, b.size)
    with np.errstate(divide="ignore", invalid="ignore"):
        sim = np.where(den > 0, inter / den, 0.0)
    return 1.0 - np.clip(sim, 0.0, 1.0)


_TOKEN = re.compile(r"[^\W_]+")
_DIGITS = re.compile(r"\d+")


class NegativeRules:
    """Negative rules in the spirit of Auto-FuzzyJoin's (Li et al., SIGMOD 2021), learned
    from the reference table only: two left values that differ by exactly one word (a vs
    b, the rest equal) name two entities, so a right value that differs from its nearest
    left value by exactly that substitution is not its match; and two values that both
    carry digits name different things when their digits, read left to right, differ
    ("2008 Baltic League" vs "1990 Baltic League", "AFF U-20 Championship" vs "2007 AFF
    Championship"; "GW 501516" and "GW501516" agree)."""

    def __init__(self, lkeys, rkeys):
        self.lt = [frozenset(_TOKEN.findall(fold(v))) for v in lkeys]
        self.rt = [frozenset(_TOKEN.findall(fold(v))) for v in rkeys]
        self.ld = ["".join(_DIGITS.findall(str(v))) for v in lkeys]
        self.rd = ["".join(_DIGITS.findall(str(v))) for v in rkeys]
        # the words without their digits (what the digit rule does not read)
        self.lb = [_blind_words(t) for t in self.lt]
        self.rb = [_blind_words(t) for t in self.rt]
        self._memo: dict = {}
        removed: dict = {}
        for t in self.lt:
            if 1 < len(t) <= 12:
                for a in t:
                    removed.setdefault(t - {a}, set()).add(a)
        self.pairs = set()
        for words in removed.values():
            if 1 < len(words) <= 50:
                ws = sorted(words)
                self.pairs.update((a, b) for i, a in enumerate(ws) for b in ws[i + 1:])

    def rejects(self, r_left: np.ndarray) -> np.ndarray:
        """Mask over right values: the join to their nearest left value breaks a rule."""
        return np.fromiter((l >= 0 and self.forbids(i, l) for i, l in enumerate(r_left.tolist())),
                           dtype=bool, count=len(r_left))

    def forbids(self, i: int, l: int) -> bool:
        """Does a rule forbid joining right value i to left value l? (memoized: the join
        functions mostly agree on the nearest left value)"""
        hit = self._memo.get((i, l))
        if hit is None:
            tr, tl = self.rt[i], self.lt[l]
            hit = False
            if tr != tl:
                if self.rd[i] and self.ld[l] and self.rd[i] != self.ld[l]:
                    hit = True                      # both carry numbers, and they differ
                else:
                    dl, dr = tl - tr, tr - tl
                    if len(dl) == 1 and len(dr) == 1:
                        a, b = sorted((next(iter(dl)), next(iter(dr))))
                        hit = (a, b) in self.pairs  # a substitution seen inside the left table
            self._memo[(i, l)] = hit
        return hit

    def agrees(self, i: int, l: int, siblings) -> bool:
        """Does right value i agree with left value l (its nearest) in the distinguishing
        part of the family of ``siblings`` (left values the rules forbid for i)? The join
        is allowed, the two carry the same digits, and no digit-free word of i that l
        lacks is held by a sibling of l's own family (digit-free words differing from
        l's by at most one word each way): "Eutelsat 33C" does not agree with "Eutelsat
        33A" beside "Eutelsat 16C" (its "c" is a mark of the family the rules do not
        read); "Eiffel Forum License 2.0" agrees with "... v2.0" beside "... v1.0", and
        "1995 Beach Soccer World Championship" with "Beach Soccer World Cup 1995" beside
        "2009 AFC Beach Soccer Championship" (a stranger: its words are no mark)."""
        if self.forbids(i, l) or self.rd[i] != self.ld[l]:
            return False
        extra, own = self.rb[i] - self.lb[l], self.lb[l]
        return not any(extra & self.lb[s] for s in siblings
                       if len(self.lb[s] - own) <= 1 and len(own - self.lb[s]) <= 1)


def _blind_words(tokens) -> frozenset:
    """The tokens with their digits removed, the empty ones dropped ("33c" -> "c")."""
    return frozenset(w for w in (_DIGITS.sub("", t) for t in tokens) if w)


def family_nearest(rd: np.ndarray, ri: np.ndarray, rules: NegativeRules) -> np.ndarray:
    """The ratio's distances (n_right, NEAREST) from the ``_nearest`` search ``rd``, ``ri``
    (k >= NEAREST): the three nearest, except for a right value whose ranks 2.. hold left
    values the rules forbid (``removed`` before the second one they allow) and that
    ``agrees`` with its nearest: then d1 and the distances of the first two allowed left
    values among ranks 2..k (inf where fewer). A forbidden version sibling is no
    alternative to a join that agrees with its nearest in what tells the family apart."""
    near = rd[:, :NEAREST].copy()
    k = ri.shape[1]
    for i in range(len(rd)):
        l1 = int(ri[i, 0])
        if l1 < 0 or not any(ri[i, j] >= 0 and rules.forbids(i, int(ri[i, j]))
                             for j in range(1, min(k, 3))):
            continue                     # ranks 2 and 3 allowed (or none): nothing removed
        removed, allowed = [], []
        for j in range(1, k):
            l = int(ri[i, j])
            if l < 0 or len(allowed) == 2:
                break
            (removed if rules.forbids(i, l) else allowed).append(j)
        if removed and rules.agrees(i, l1, [int(ri[i, j]) for j in removed]):
            near[i, 1:] = np.inf
            d = rd[i, allowed][:NEAREST - 1]
            near[i, 1:1 + len(d)] = d
    return near


@dataclass
class _Candidates:
    """One join function's blocking output and the probability that each right value's
    join to its nearest left value is right (:func:`null_probability`; at most 1 / ties:
    of left values tied as the nearest, at most one is the partner)."""
    fn: str
    r_left: np.ndarray        # nearest left index per right value (-1: none)
    r_dist: np.ndarray        # its distance (inf: none, or a negative rule forbids it)
    r_near: np.ndarray        # (n_right, 3) sorted distances to the nearest left values
    r_ties: np.ndarray = None  # left values at the nearest distance (1: no tie)
    r_sibling: np.ndarray = None  # distance from the nearest left value to the second
    r_namesake: np.ndarray = None  # from the nearest left value to its nearest other left value
    p: np.ndarray = field(init=False, repr=False)
    v: np.ndarray = field(init=False, repr=False)   # each join's own variance (join_variance)
    u: np.ndarray = field(init=False, repr=False)   # its share of pi0's error (precision_bound)
    pi0: float = field(init=False)

    def __post_init__(self):
        s1, s2 = nearest_ratios(self.r_near)
        tail = None
        if self.fn in RANK_CORRECTED:     # decoys one rank out for the null group
            null, self.pi0, tail = rank_corrected_null(s1, s2)
        else:
            null, self.pi0 = null_probability(s1, s2)
        p = np.where(np.isfinite(null), 1.0 - np.nan_to_num(null), 0.0)
        if self.r_ties is not None:
            p = np.minimum(p, 1.0 / np.maximum(self.r_ties, 1))
        if self.r_sibling is not None and SIBLINGS:
            p = np.where(self.r_sibling <= self.r_near[:, 0] + TIE, np.minimum(p, 0.5), p)
        if self.r_namesake is not None and NAMESAKES:
            p = np.where(self.r_namesake <= self.r_near[:, 0] + TIE, np.minimum(p, 0.5), p)
        self.p = p
        self._scale = null_scale(s1, s2, self.pi0)
        self._rel = np.sqrt(pi0_relative_variance(s1, s2, decoy_tail=tail))
        self.v = join_variance(p, self._scale)
        self.u = self._rel * (1.0 - p)

    def rate(self, p: np.ndarray) -> None:
        """Set each join's probability to ``p``, its error terms with it."""
        self.p = p
        self.v = join_variance(p, self._scale)
        self.u = self._rel * (1.0 - p)

    def at(self, t: float):
        """(joined mask, probability, own variance, share of pi0's error) of the joins at
        threshold t: the one place the curve, the bound, the greedy union and the union's
        pairs read them from (a threshold-dependent estimate overrides only this; the
        replay's variants do: bench/fuzzyjoin_autofj_count.py). With ``HUB_PARTNERS``,
        the joins at t to one left value are scaled to sum to at most that
        (:func:`hub_scale`), their error terms with them."""
        joined = self.r_dist <= t
        if HUB_PARTNERS is None or getattr(self, "_scale", None) is None:
            return joined, self.p[joined], self.v[joined], self.u[joined]
        p = self.p[joined]
        f = hub_scale(self.r_left[joined], p, HUB_PARTNERS)
        if (f == 1.0).all():
            return joined, p, self.v[joined], self.u[joined]
        p = p * f
        return joined, p, join_variance(p, self._scale), self._rel * (1.0 - p)

    def estimate(self, t: float):
        """(joined mask, per-join precision estimate) at threshold t."""
        joined, p, _, _ = self.at(t)
        return joined, p

    def bound(self, t: float) -> float:
        """The one-sided lower bound on the precision at threshold t (precision_bound)."""
        _, p, v, u = self.at(t)
        return precision_bound(p, v, u, STANDARD_ERRORS)


def agreed_probability(cands: dict, ratio: float = AGREE_RATIO, also: dict | None = None) -> dict:
    """Per join function, each right value's probability with the functions' agreement:
    where the function's own ratio s1 = d1 / d2 exceeds ``ratio`` (or ``also[fn]``, a mask
    over right values, holds), the mean of the probabilities of the functions whose nearest
    left value for it is the same left value (the function included; those that join it
    elsewhere or not at all left out), every one the function's own (``_Candidates.p``).
    Returns fn -> probabilities."""
    fns = list(cands)
    L = np.stack([cands[f].r_left for f in fns], axis=1)            # n_r x F
    P = np.stack([cands[f].p for f in fns], axis=1)
    out = {}
    for f in fns:
        c = cands[f]
        s1, _ = nearest_ratios(c.r_near)
        high = (c.r_left >= 0) & np.isfinite(s1) & (
            (s1 > ratio) | (also[f] if also is not None else False))
        same = (L == c.r_left[:, None]) & (c.r_left[:, None] >= 0)
        p = c.p.copy()
        if high.any():
            h = np.flatnonzero(high)
            p[h] = (P[h] * same[h]).sum(axis=1) / same[h].sum(axis=1)
        out[f] = p
    return out


def hub_scale(r_left: np.ndarray, p: np.ndarray, most: float) -> np.ndarray:
    """Per join: min(1, most / the sum of p over the joins to the same left value), the
    factor that makes no left value expect more than ``most`` true partners (the left
    table names each entity once; its partners are the right table's variants of it)."""
    if not len(p):
        return np.ones(0)
    _, inv = np.unique(r_left, return_inverse=True)
    total = np.bincount(inv, weights=p)[inv]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > most, most / total, 1.0)


def at_largest(fn: str, threshold) -> bool:
    """Is ``threshold`` (as written, to 3 decimals) join function ``fn``'s largest distance,
    where every value joins its nearest left value (no veto of a negative rule aside)?"""
    return round(float(threshold), 3) >= round(distance_range(fn), 3)


def _configs_text(configs) -> str:
    """(join function, threshold) pairs as the summaries write them: "f at 0.371, g at 0.500"
    (", its largest distance" after a threshold that lets every value join its nearest)."""
    return ", ".join(f"{f} at {float(t):.3f}" + (" (its largest distance)" if at_largest(f, t)
                                                 else "") for f, t in configs)


SHOWN_ROUNDING = 5e-4   # thresholds are shown to 3 decimals: one typed as shown is the chosen one
HEADLINE_CONFIGS = 5     # chosen configurations the repr names before "and N more"


def configs_scaled_text(configs, counts=None, most=None, keep=None) -> str:
    """(join function, threshold) pairs, each with its own function's distances: "f at
    0.371 (of 0..1.00), g at 1.200 (of 0..1.41)" (functions measure on different scales);
    a function named again at another threshold says so ("f again at 0.400 (of
    0..1.00)"). A threshold at its function's largest distance says that every value
    joins its nearest there; ``counts`` (one per configuration): the matched values it
    joined, as matches() attributes them; those that joined none are not named, only
    counted at the end ("and N more matched nothing"). Without ``most``, in the order of
    ``configs``; with ``most`` (one line), those that joined the most matched values first
    (the order of ``configs`` on a tie), the first that many named (and those of the
    function ``keep``, the one a threshold given by hand moves, and any at its largest
    distance), then how many more and what they joined."""
    order = list(range(len(configs)))
    if most is not None and counts is not None:
        order.sort(key=lambda i: -counts[i])
    nothing = [i for i in order if counts is not None and counts[i] == 0]
    order = [i for i in order if i not in nothing]
    cut = most is not None and len(order) > most + 1

    def named_anyway(i):
        f, t = configs[i]
        return f == keep or at_largest(f, t)
    left = [i for rank, i in enumerate(order) if cut and rank >= most and not named_anyway(i)]
    seen = set()
    out = []
    for i in order:
        if i in left:       # not named: a later one of its function is not "again"
            continue
        f, t = configs[i]
        again = f in seen
        seen.add(f)
        notes = f"of 0..{distance_range(f):.2f}" + (
            ", its largest distance: every value joins its nearest" if at_largest(f, t) else "")
        if counts is not None:
            notes += f"; {counts[i]:,} matched value{'s' if counts[i] != 1 else ''}"
        out.append(f"{f} {'again ' if again else ''}at {float(t):.3f} ({notes})")
    if left:
        joined = (f" joining {sum(counts[i] for i in left):,} matched values"
                  if counts is not None else "")
        out.append(f"and {len(left)} more{joined}")
    if nothing:
        out.append(f"and {len(nothing)} more matched nothing")
    return ", ".join(out) + (" (explain() lists them)" if left or nothing else "")


def union_matches(cands: dict, configs, of_config: bool = False) -> tuple:
    """The matched pairs of a union of (join function, threshold) configurations: a right
    value is joined when some configuration joins it (its distance under the function at
    most the threshold), to the nearest left value of the configuration whose estimate
    for it is highest (the earliest in ``configs`` on a tie). Returns the left index per
    right value (-1: unjoined) and the joining function per right value (""); with
    ``of_config``, also the joining configuration's position in ``configs`` (-1), which
    tells apart two configurations of one function."""
    n_r = len(next(iter(cands.values())).r_dist)
    left = np.full(n_r, -1)
    fn_of = np.full(n_r, "", dtype=object)
    config_of = np.full(n_r, -1)
    best = np.full(n_r, -1.0)
    for i, (f, t) in enumerate(configs):
        c = cands[f]
        joined, p, _, _ = c.at(float(t))
        r = np.nonzero(joined)[0]
        up = p > best[r]
        better = r[up]
        left[better], fn_of[better], best[better] = c.r_left[better], f, p[up]
        config_of[better] = i
    return (left, fn_of, config_of) if of_config else (left, fn_of)


def exclusive_probability(best: np.ndarray, total: np.ndarray) -> np.ndarray:
    """The probability that a right value's join in a union is right, when the union joins
    it to the left value of its most probable pair (probability ``best``) and its pairs'
    probabilities sum to ``total``: its pairs are exclusive events (one partner at most),
    so it is at most 1 - the sum of the other pairs' probabilities: min(best, 1 - (total -
    best)), at least 0."""
    return np.clip(np.minimum(best, 1.0 - total + best), 0.0, None)


def greedy_union(cands: dict, grids: dict, target: float, patience: float = PATIENCE):
    """Auto-FuzzyJoin's greedy search for a union of (function, threshold) configurations
    (their Algorithm 1): repeatedly add the configuration with the best estimated
    TP / FP; remember the last union whose lower bound on the precision reaches the
    target (precision_bound); stop once the estimate falls ``patience`` below the target.
    A right value that several configurations join to different left values is one join
    (the union keeps its most probable pair), rated :func:`exclusive_probability` of its
    pairs' probabilities, with its most probable pair's error terms (Auto-FuzzyJoin counts
    every distinct pair as a join instead, which understates the union's precision).
    The hub cap holds for the union's own joins too: those to one left value, whichever
    configurations made them, count for at most ``HUB_PARTNERS`` true partners (their
    probabilities and error terms scaled as in ``_Candidates.at``) in the union's estimate
    and bound; the next configuration is still ranked by its own estimates.
    Returns (configs, left index per right value or -1, est. precision, est. true
    matches, the joining function per right value or ""; the pairs are
    :func:`union_matches` of the configs), or None when no union reaches the target."""
    fns = list(cands)
    n_r = len(cands[fns[0]].r_dist)
    # as in _Candidates.at: no cap without one, nor over probabilities set from outside
    most = HUB_PARTNERS if all(getattr(c, "_scale", None) is not None
                               for c in cands.values()) else None
    # distinct (r, l) pairs over the functions' nearest left values
    L = np.stack([cands[f].r_left for f in fns], axis=1)          # n_r x F
    keys = np.arange(n_r)[:, None] * (L.max() + 2) + L
    _, pair_id = np.unique(keys, return_inverse=True)
    pair_id = pair_id.reshape(n_r, len(fns))
    configs = []
    for j, f in enumerate(fns):
        for t in grids[f]:
            joined, p, v, u = cands[f].at(t)
            r = np.nonzero(joined)[0]
            if len(r):
                configs.append((f, float(t), r, pair_id[r, j], p, v, u))
    if not configs:
        return None
    # every configuration's joins laid end to end (its own arrays become views), so that
    # one pass of array operations rates them all
    R, PID, P = (np.concatenate([c[k] for c in configs]) for k in (2, 3, 4))
    ends = np.cumsum([len(c[2]) for c in configs])
    starts = ends - [len(c[2]) for c in configs]
    configs = [(f, t, R[a:b], PID[a:b], P[a:b], v, u)
               for (f, t, _, _, _, v, u), a, b in zip(configs, starts, ends)]
    alive = np.ones(len(configs), bool)
    best_p, best_v, best_u = np.zeros(n_r), np.zeros(n_r), np.zeros(n_r)
    seen = np.zeros(n_r, bool)                 # joined by a chosen configuration
    has = np.zeros(pair_id.max() + 1, bool)
    pair_p = np.zeros(pair_id.max() + 1)       # highest probability of each pair so far
    rival = np.zeros(n_r)                      # sum of pair_p over each right value's pairs
    # the union's own joins: left value and the function of its best pair (with the cap,
    # :func:`hub_capped` rates them per left value, of which there are n_left)
    left_u = np.full(n_r, -1)
    best_f = np.full(n_r, -1)
    n_left = max(int(L.max()) + 1, 1)
    fn_index = {f: j for j, f in enumerate(fns)}
    TP = 0.0; n_joins = 0; selected = []; result = None
    while alive.any():
        bp, rv, pp = best_p[R], rival[R], pair_p[PID]
        d = (exclusive_probability(np.maximum(bp, P), rv + np.maximum(pp, P) - pp)
             - exclusive_probability(bp, rv))
        nj = n_joins + np.add.reduceat((~seen[R]).astype(np.int64), starts)
        fresh = np.add.reduceat((~has[PID]).astype(np.int64), starts) > 0   # a new pair
        tp = TP + np.add.reduceat(d, starts)
        ok = alive & fresh & (nj > 0)
        if not ok.any():
            break
        with np.errstate(divide="ignore", invalid="ignore"):
            profit = np.where(ok, tp / (nj - tp + 1e-9), -np.inf)
        i = int(np.argmax(profit))              # the first of the best, as the paper's loop
        alive[i] = False
        tp, nj = float(tp[i]), int(nj[i])
        avg = tp / nj
        f, t, r, pid, p, v, u = configs[i]
        up = (p > best_p[r]) | ~seen[r]         # a join rated 0 still carries its error
        gain = np.maximum(pair_p[pid], p) - pair_p[pid]
        pair_p[pid] += gain
        rival[r] += gain
        best_p[r[up]], best_v[r[up]], best_u[r[up]] = p[up], v[up], u[up]
        left_u[r[up]], best_f[r[up]] = cands[f].r_left[r[up]], fn_index[f]
        seen[r] = True
        has[pid] = True; TP, n_joins = tp, nj
        selected.append((f, t))
        var, share = best_v, best_u
        if most is not None:
            # the union's hubs, whichever configurations made them (the choice above ranks
            # by each configuration's own estimate; the union's estimate and bound are exact)
            k = np.flatnonzero(seen)
            TP, var, share = hub_capped(cands, most, k, exclusive_probability(
                best_p[k], rival[k]), best_p[k], left_u[k], best_f[k], var, share, n_left)
            avg = TP / nj
        se = np.sqrt(var.sum() + share.sum() ** 2) / nj
        if avg - STANDARD_ERRORS * se >= target:
            result = (list(selected), avg, TP)
        if avg < target - patience:
            break
    if result is None:
        return None
    chosen, chosen_fn = union_matches(cands, result[0])
    return result[0], chosen, result[1], result[2], chosen_fn


def hub_capped(cands: dict, most: float, at, e, p, left, fn, var, share, n_left: int):
    """The hub cap over a union's own joins (:func:`greedy_union`, :func:`union_rating`):
    its joins to one left value count for at most ``most`` true partners, their
    probabilities scaled to sum to ``most`` and their error terms with them. Per join: its
    place ``at`` in ``var`` and ``share`` (the joins' error terms), its exclusive
    probability ``e``, its most probable pair's probability ``p``, left value (below
    ``n_left``) and join function (its index in ``cands``). Returns (est. true matches,
    var, share), the two copied where a join is capped."""
    fns = list(cands)
    mass = np.zeros(n_left)
    np.add.at(mass, left, e)
    TP = float(np.minimum(mass, most).sum())
    hot = mass[left] > most
    if hot.any():
        q = p[hot] * (most / mass[left[hot]])
        k = at[hot]
        var, share = var.copy(), share.copy()
        for j in np.unique(fn[hot]):
            c, sel = cands[fns[j]], fn[hot] == j
            var[k[sel]] = join_variance(q[sel], c._scale)
            share[k[sel]] = c._rel * (1.0 - q[sel])
    return TP, var, share


def shown_threshold(cands: dict, configs) -> tuple:
    """(main join function, threshold) that a union of configurations shows: the first
    configuration's function that joined a matched value (:func:`union_matches`
    attributes each to one configuration), at the largest of its thresholds that did. A
    configuration that joined no matched value (every value it reaches is joined, more
    probably, by another) changes nothing in the join, so it is not the threshold a user
    is told and would type to reproduce it."""
    of = union_matches(cands, configs, of_config=True)[2]
    made = np.bincount(of[of >= 0], minlength=len(configs))
    useful = [c for c, n in zip(configs, made) if n > 0] or list(configs)
    fn = useful[0][0]
    return fn, max(th for f, th in useful if f == fn)


def union_rating(cands: dict, configs) -> tuple[float, float, float]:
    """(estimate, bound, est. true matches) of a union of configurations, rated as
    :func:`greedy_union` rates the union it keeps: a right value's pairs exclusive, its
    most probable pair's error terms (the earliest configuration on a tie), the hub cap
    over the union's joins to one left value (a chosen join's summary states its bound;
    bench/fuzzyjoin_bound_width.py rates trial unions with it)."""
    fns = list(cands)
    most = HUB_PARTNERS if all(getattr(c, "_scale", None) is not None
                                     for c in cands.values()) else None
    R, Lf, P, V, U, F = [], [], [], [], [], []
    for f, t in configs:
        c = cands[f]
        joined, p, v, u = c.at(float(t))
        r = np.nonzero(joined)[0]
        R.append(r); Lf.append(c.r_left[r]); P.append(p); V.append(v); U.append(u)
        F.append(np.full(len(r), fns.index(f)))
    R, Lf, P, V, U, F = (np.concatenate(x) for x in (R, Lf, P, V, U, F))
    if not len(R):
        return 1.0, 1.0, 0.0
    order = np.arange(len(R))
    n_l = int(max(Lf.max(), 0)) + 2
    key = R * n_l + Lf
    uk, inv = np.unique(key, return_inverse=True)
    pair_p = np.zeros(len(uk))
    np.maximum.at(pair_p, inv, P)
    pr = uk // n_l
    rs, rinv = np.unique(R, return_inverse=True)
    rival = np.zeros(len(rs))
    np.add.at(rival, np.searchsorted(rs, pr), pair_p)
    srt = np.lexsort((order, -P, R))              # per r: highest p, earliest on a tie
    first = srt[np.r_[True, R[srt][1:] != R[srt][:-1]]]
    bp, bv, bu, bl, bf = P[first], V[first], U[first], Lf[first], F[first]
    nj = len(rs)
    e = exclusive_probability(bp, rival)
    if most is None:
        TP, var, share = float(e.sum()), bv, bu
    else:
        TP, var, share = hub_capped(cands, most, np.arange(nj), e, bp, bl, bf, bv, bu, n_l)
    avg = TP / nj
    se = np.sqrt(var.sum() + share.sum() ** 2) / nj
    return avg, avg - STANDARD_ERRORS * se, TP


def equal_pairs(right, left) -> tuple[np.ndarray, np.ndarray]:
    """For each matched pair: (the same text, the same after lakejoin's normalization)."""
    from ..lake.normalize import normalize_many
    r, l = [str(x) for x in right], [str(x) for x in left]
    same_text = np.array([a == b for a, b in zip(r, l)], dtype=bool)
    same_key = same_text | (np.array(normalize_many(r), dtype=object)
                            == np.array(normalize_many(l), dtype=object))
    return same_text, same_key.astype(bool)


@dataclass
class FuzzyJoin(Joinable):
    """A chosen fuzzy join (``join(df)`` / ``code(name, into)``: the join contract of
    join/plan.py, with ``right`` the user's frame and ``left`` the reference table). ``configs``: the union of (join function, threshold) chosen
    for the precision target; ``function``/``threshold``: its main configuration (the
    first chosen that joined a matched value, at the largest threshold of that function
    that did: :func:`shown_threshold`), which the slider
    moves: ``pairs(t)``, ``join(t)``, ``matches(t)`` with an explicit threshold use that
    function at t in place of its chosen threshold, the union's other configurations kept
    (:meth:`configs_at`: the chosen threshold given back joins as the choice did); a
    threshold outside the function's distances (:func:`distance_range`) is refused.
    ``estimate(t)`` is the main function's alone. ``curve``: estimates of the main function against t, with
    ``est_bound`` the lower bound on the precision that the choice compares with the target."""
    left: pd.DataFrame
    right: pd.DataFrame
    on: tuple
    precision_target: float
    function: str
    threshold: float | None
    estimated_precision: float
    estimated_recall: float
    curve: pd.DataFrame
    functions: pd.DataFrame           # best single configuration of every join function
    configs: list = field(default_factory=list)
    _cands: dict = field(default_factory=dict, repr=False)
    _grids: dict = field(default_factory=dict, repr=False)    # candidate thresholds per function
    _curves: dict = field(default_factory=dict, repr=False)   # estimates per function and threshold
    _union: np.ndarray = field(default=None, repr=False)     # left index per right value
    _union_fn: np.ndarray = field(default=None, repr=False)  # the function that joined it
    _lkeys: np.ndarray = field(default=None, repr=False)
    _rkeys: np.ndarray = field(default=None, repr=False)
    _lrows: list = field(default=None, repr=False)
    _rrows: list = field(default=None, repr=False)
    lake: object = None               # the left table's LakeTable, when it is a lake table
    threshold_given: bool = False     # fuzzy_join(threshold=...): no target chose it

    @property
    def ok(self) -> bool:
        return self.threshold is not None

    def at_target(self, precision_target: float) -> "FuzzyJoin":
        """The join chosen for another precision target from the same candidates (the
        nearest left values and their probabilities do not depend on the target)."""
        if not 0 < precision_target <= 1:
            raise QueryError(f"precision_target is a fraction in (0, 1] (got {precision_target}).")
        keep = ("left", "right", "on", "_cands", "_grids", "_curves", "_lkeys", "_rkeys",
                "_lrows", "_rrows", "lake")
        return _choose({k: getattr(self, k) for k in keep}, list(self._cands), precision_target)

    @property
    def scale(self) -> str:
        """The main join function's distances: "0..1.41"."""
        return f"0..{distance_range(self.function):.2f}"

    def configs_at(self, threshold: float | None) -> list:
        """The configurations a join at ``threshold`` uses: the chosen ones (None), or the
        main function at ``threshold`` in place of its chosen threshold, the union's other
        functions kept at theirs (so the chosen threshold given back joins as the choice
        did; so does one within SHOWN_ROUNDING of it, as the texts write it to 3 decimals).
        Refuses a threshold outside the main function's distances."""
        if threshold is None:
            return list(self.configs)
        t = check_threshold(self.function, threshold)
        if (not self.threshold_given and self.threshold is not None
                and abs(t - self.threshold) <= SHOWN_ROUNDING):
            t = self.threshold          # the chosen threshold as shown, to 3 decimals
        others = [(f, th) for f, th in self.configs if f != self.function]
        return [(self.function, t)] + (others if not self.threshold_given else [])

    def n_pairs(self, threshold: float | None = None) -> int:
        """The matched value pairs an estimate is the mean over: of the join at
        ``threshold`` (the main function's alone, as :meth:`estimate`), or of the chosen
        configurations (None)."""
        if threshold is None:
            return len(self._value_pairs(None)[0])
        return self.estimate(threshold)["matches"]

    def precision_text(self, precision: float, threshold: float | None = None) -> str:
        """An estimated precision with the sample it is the mean over: "100.0% on 7
        matched value pairs" (of the join at ``threshold``: the main function's alone, as
        :meth:`estimate`; None: the chosen configurations), so a perfect figure on a few
        pairs reads as the small sample it is."""
        n = self.n_pairs(threshold)
        return f"{precision:.1%} on {n:,} matched value pair{'s' if n != 1 else ''}"

    def bound(self, threshold: float | None = None) -> float | None:
        """The lower bound (one-sided 95%) on the precision that the choice compares with
        the target: of the chosen configurations as :func:`greedy_union` rates them
        (:func:`union_rating`; None), or of the main function alone at ``threshold`` (as
        :meth:`estimate`, and a join whose threshold was given); None without a join."""
        if threshold is None and not self.threshold_given:
            return union_rating(self._cands, self.configs)[1] if self.ok else None
        t = self.threshold if threshold is None else float(threshold)
        return None if t is None else self._cands[self.function].bound(t + ROUNDOFF)

    def bound_text(self, threshold: float | None = None) -> str:
        """"the model's lower bound 93.1%, one-sided 95%" of :meth:`bound` (empty without a
        join): the bound of the estimate under its own model, which a small sample cannot
        check (:meth:`sample_warning`, whose figure is the most a check by hand of the pairs
        could prove, not a bound on this join's precision)."""
        b = self.bound(threshold)
        return "" if b is None else f"the model's lower bound {max(b, 0.0):.1%}, one-sided 95%"

    def sample_warning(self, threshold: float | None = None) -> str | None:
        """A warning when the join has too few matched value pairs for any sample of them
        to show the precision target (n pairs, all right, show at least CHECK_LEVEL **
        (1/n) at the bound's level): the estimate then rests on its assumption alone (a
        right value whose nearest left value is far nearer than the next counts as right,
        whether or not the left table holds its partner) and cannot be checked."""
        n = self.n_pairs(threshold)
        if not n or (self.precision_target < 1.0
                     and CHECK_LEVEL ** (1.0 / n) >= self.precision_target):
            return None
        pairs = f"{n} matched value pair{'s' if n != 1 else ''}"
        return (f"the estimate rests on {pairs}, too few to check it. Its model counts a "
                f"value as matched right when its nearest left value is much nearer than the "
                f"others, so a value the left table lacks can join a far partner and still "
                f"count, and the model's lower bound holds only as far as that assumption "
                f"does. Nor can a check by hand settle it: finding "
                f"{f'all {n} pairs' if n != 1 else 'the pair'} right would prove only that "
                f"the precision is above "
                f"{CHECK_LEVEL ** (1.0 / n):.0%} (95% confidence), short of the target "
                f"{self.precision_target:.0%}; that is the most a check of so few pairs can "
                f"prove, not an estimate of this join's precision. Check the pairs anyway "
                f"(matches(): those to check first are listed first).")

    def threshold_text(self, threshold: float) -> str:
        """What a join at a given ``threshold`` uses, in words: "char3 at threshold 1.000
        (of 0..1.41), with the chosen char3-contain-idf at 0.250 kept"."""
        configs = self.configs_at(threshold)[1:]
        kept = ", ".join(f"{f} at {t:.3f}" for f, t in configs[:3])
        if len(configs) > 3:
            kept += f" and {len(configs) - 3} more (.configs)"
        return (f"{self.function} at threshold {float(threshold):.3f} (of {self.scale})"
                + (f", with the chosen {kept} kept" if kept else ""))

    def _matched(self, threshold):
        """(right value index, left value index, the function that joined each)."""
        if threshold is None:
            if self._union is None:
                return np.zeros(0, np.int64), np.zeros(0, np.int64), []
            r = np.nonzero(self._union >= 0)[0]
            fns = ([self._union_fn[i] or self.function for i in r]
                   if self._union_fn is not None else [self.function] * len(r))
            return r, self._union[r], fns
        left, fn_of = union_matches(self._cands, self._reaching(threshold))
        r = np.nonzero(left >= 0)[0]
        return r, left[r], [fn_of[i] or self.function for i in r]

    def _reaching(self, threshold) -> list:
        """:meth:`configs_at` as the join compares them: a threshold given by hand (the
        first) reaching ``ROUNDOFF`` past itself."""
        configs = self.configs_at(threshold)
        if threshold is None:
            return configs
        (f, t), *others = configs
        return [(f, t + ROUNDOFF)] + others

    def _value_pairs(self, threshold):
        """(right value index, left value index) of the join at ``threshold``
        (:meth:`configs_at`)."""
        r, l, _ = self._matched(threshold)
        return r, l

    def pairs(self, threshold: float | None = None) -> list[tuple[int, int]]:
        """(left row position, right row position) of every joined pair."""
        rv, lv = self._value_pairs(threshold)
        out = [(lp, rp) for r, l in zip(rv, lv) for rp in self._rrows[r] for lp in self._lrows[l]]
        return sorted(out, key=lambda p: (p[1], p[0]))

    def estimate(self, threshold: float) -> dict:
        c = self._cands[self.function]
        joined, p = c.estimate(float(threshold) + ROUNDOFF)     # a given threshold
        n = int(joined.sum())
        return {"threshold": float(threshold), "matches": n,
                "est_precision": float(p.mean()) if n else 1.0,
                "est_recall": float(p.sum() / max(len(c.r_dist), 1))}

    def matches(self, threshold: float | None = None) -> pd.DataFrame:
        """The joined value pairs (one row per distinct right value), with the join
        function that joined each, its distance under that function and the threshold of
        the configuration that joined it (functions measure on different scales; a
        function chosen at two thresholds: the one that joined the value): the pairs to
        check first, those whose values differ after lakejoin's normalization (case,
        spacing, number formats), farthest first; then those equal after it, then the
        identical ones."""
        rv, lv, fns = self._matched(threshold)
        dist = [self._cands[f].r_dist[r] if self._cands[f].r_left[r] == l else np.nan
                for r, l, f in zip(rv, lv, fns)]
        configs = self.configs_at(threshold)
        limit = dict(configs)
        if len(rv) and len({f for f, _ in configs}) < len(configs):   # a function twice
            config_of = union_matches(self._cands, self._reaching(threshold),
                                      of_config=True)[2][rv]
            limits = [float(configs[i][1]) if i >= 0 and configs[i][0] == f
                      else float(limit.get(f, np.nan)) for i, f in zip(config_of, fns)]
        else:
            limits = [float(limit.get(f, np.nan)) for f in fns]
        dist = [0.0 if d <= ROUNDOFF else d for d in dist]      # round-off of equal values
        m = pd.DataFrame({"right": self._rkeys[rv], "left": self._lkeys[lv],
                          "function": fns, "distance": dist, "threshold": limits})
        same_text, same_key = equal_pairs(m["right"], m["left"])
        return pd.concat([m[~same_key].sort_values("distance", ascending=False, kind="stable"),
                          m[same_key & ~same_text].sort_values("distance", kind="stable"),
                          m[same_text]])

    def plan(self, df=None, how: str | None = None, *, threshold: float | None = None,
             duplicates: str = "all"):
        """The join plan: the right frame's values that the chosen configuration(s) (or the
        main function at ``threshold``) matched are rewritten to the left value they match;
        each right row takes every left row holding it (``duplicates="all"``, as an
        equi-join: a panel table's rows per key all join) or the first ("first"); unmatched
        values join nothing."""
        from .plan import Key, make_plan
        rv, lv = self._value_pairs(threshold)
        matches = tuple((str(self._rkeys[r]), str(self._lkeys[l])) for r, l in zip(rv, lv))
        right = df if df is not None else self.right
        lcol, rcol = self.on
        left_cols = list(self.lake.columns) if self.lake is not None else list(self.left.columns)
        if threshold is None and self.threshold_given:
            threshold = self.threshold
        what = (f"{len(self.configs)} configuration(s) chosen for precision target "
                f"{self.precision_target:g}: {_configs_text(self.configs)}" if threshold is None
                else f"{self.function} at threshold {float(threshold):.3f}" + (
                    f", with the chosen {_configs_text(self.configs_at(threshold)[1:])}"
                    if len(self.configs_at(threshold)) > 1 else ""))
        return make_plan(list(right.columns), [Key((rcol,), "text")], left_cols,
                         [Key((lcol,), "text")], other=self.lake,
                         other_label=self.lake.short_name if self.lake is not None else "left",
                         how=how or "left", duplicates=duplicates, matches=matches,
                         matches_only=True, suffix=None if self.lake is not None else "_left",
                         description=f"fuzzy join: {what}")

    def _frame(self, df):
        return self.right if df is None else df

    def _other_frame(self):
        return None if self.lake is not None else self.left

    def join(self, df=None, how: str | None = None, *, threshold: float | None = None,
             duplicates: str = "all"):
        """``right`` (or ``df``) with the matched ``left`` columns (suffix "_left" on name
        clashes, or the lake table's name). how="left" keeps unmatched rows, "inner" drops
        them. ``threshold``: the main join function at that threshold instead of its chosen
        one, the other chosen configurations kept (:meth:`configs_at`). ``duplicates``:
        "all" left rows holding a matched value (a right row repeats once per such row),
        or the "first"."""
        return super().join(df, how=how, threshold=threshold, duplicates=duplicates)

    def code(self, name: str = "df", into: str = "joined", *, how: str | None = None,
             df=None, other: str = "left", spark: bool | None = None,
             threshold: float | None = None, duplicates: str = "all") -> str:
        """Python that reproduces :meth:`join`: ``name`` is the right (matched) frame's
        variable ("df", as every result's code names the user's frame), ``other`` the left
        one's unless it is a lake table (the code reads it)."""
        return super().code(name, into, how=how, df=df, other=other, spark=spark,
                            threshold=threshold, duplicates=duplicates)

    def chart(self, threshold: float | None = None):
        """Estimated precision and recall of the main join function against the threshold
        (altair), the precision target, and the point the printed figures describe: the
        chosen configuration(s) (whose union can recall more than the main function's
        curve), or the main function at ``threshold``."""
        import altair as alt
        names = {"est_precision": "estimated precision", "est_recall": "estimated recall"}
        # the bound the choice compares with the target, drawn so a point above the target
        # that was not chosen shows why (its bound lies below the target)
        lines = {**names, "est_bound": "precision's lower bound"}
        df = self.curve.melt(id_vars=["threshold"], value_vars=list(lines),
                             var_name="estimate", value_name="value")
        df["estimate"] = df["estimate"].map(lines)
        df["value"] = df["value"].clip(lower=0.0)
        color = alt.Color("estimate:N", title=None, legend=alt.Legend(orient="bottom"),
                          scale=alt.Scale(domain=list(lines.values()),
                                          range=["#4a78c2", "#e8883a", "#8fa9d8"]))
        dash = alt.StrokeDash("estimate:N", legend=None,
                              scale=alt.Scale(domain=list(lines.values()),
                                              range=[[1, 0], [1, 0], [4, 3]]))
        # every match at distance 0 left a zero-width range, ticked 0.000000000 to
        # 0.000000026: the axis spans at least MIN_THRESHOLD_SPAN, ticks to 3 decimals
        top = max([float(v) for v in (*df["threshold"], threshold, self.threshold)
                   if v is not None and np.isfinite(v)] + [MIN_THRESHOLD_SPAN])
        base = alt.Chart(df).mark_line().encode(
            x=alt.X("threshold:Q", title=f"distance threshold ({self.function})",
                    scale=alt.Scale(domain=[0, top], nice=False),
                    axis=alt.Axis(format=".3~f")),
            y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 1]), title="estimate",
                    axis=alt.Axis(format="%")),
            color=color, strokeDash=dash,
            tooltip=["threshold", "estimate", alt.Tooltip("value:Q", format=".1%")])
        layers = [base] if self.threshold_given else [
            base, alt.Chart(pd.DataFrame({"y": [self.precision_target]}))
            .mark_rule(strokeDash=[4, 4], color="gray").encode(y="y:Q")]
        if threshold is not None:
            est = self.estimate(threshold)
            t, p, r = float(threshold), est["est_precision"], est["est_recall"]
            what = f"{self.function} at threshold {t:.3f}"
        elif self.ok:
            t, p, r = self.threshold, self.estimated_precision, self.estimated_recall
            what = (f"{'given' if self.threshold_given else 'chosen'}: {self.function} at "
                    f"{t:.3f}" if len(self.configs) <= 1 else
                    f"chosen: {len(self.configs)} configurations (the union of their matches)")
        else:
            t = None
            what = f"no threshold reaches the precision target {self.precision_target:.0%}"
        if t is not None:
            points = pd.DataFrame({"threshold": [t, t], "value": [p, r],
                                   "estimate": list(names.values()),
                                   "label": [f"{p:.1%}", f"{r:.1%}"]})
            dot = alt.Chart(points).encode(x="threshold:Q", y="value:Q", color=color,
                                           tooltip=["estimate", "label"])
            # mid grey: seen on a light and a dark notebook (black vanished in the dark)
            layers += [alt.Chart(pd.DataFrame({"x": [float(t)]})).mark_rule(color="#888")
                       .encode(x="x:Q"),
                       dot.mark_point(shape="diamond", size=90, filled=True, opacity=1)]
            # the higher figure's label above its point, the lower's below, so the two never
            # share a line; near the top (no room above) both below, the lower one pushed
            # down past the higher one's (LABEL_PX: a label's height in pixels)
            high = 0 if p >= r else 1
            gap = abs(p - r) * CHART_HEIGHT
            placed = (((high, -4, "bottom"), (1 - high, 4, "top"))
                      if max(p, r) * CHART_HEIGHT < CHART_HEIGHT - LABEL_PX - 4 else
                      ((high, 4, "top"), (1 - high, 4 + max(0.0, LABEL_PX + 4 - gap), "top")))
            for i, dy, base in placed:
                label = alt.Chart(points.iloc[[i]]).encode(
                    x="threshold:Q", y="value:Q", text="label:N")
                where = dict(align="left", dx=7, dy=dy, baseline=base, fontWeight="bold")
                # a halo in the page's colour under the figure: the curves pass through
                # the point, so a figure beside it would sit on a line unreadably
                layers += [label.mark_text(**where, color=HALO, stroke=HALO,
                                           strokeWidth=4, strokeJoin="round"),
                           label.encode(color=color).mark_text(**where)]
        title = alt.TitleParams(
            "estimated precision and recall vs threshold",
            subtitle=[f"lines: {self.function} alone; ◆ {what}" + (
                "" if self.threshold_given else
                f"; grey dashed: precision target {self.precision_target:.0%}")] + (
                [] if self.threshold_given else
                ["chosen: the most recall whose lower bound reaches the target"]))
        # drawn as SVG, where the halo's var() resolves (a canvas cannot read it), over the
        # page (no background of its own, as charts.themed draws it): the halo's colour
        return alt.layer(*layers).properties(width=360, height=CHART_HEIGHT, title=title,
                                             background="transparent",
                                             usermeta={"embedOptions": {"renderer": "svg"}})

    def pattern_shares(self, threshold: float | None = None) -> dict:
        """What the matches' own statistics say about the estimate: ``hubs``, the share
        of matched right values whose left value HUB_SIZE or more right values match
        (``hub`` the left value most matched, ``hub_matches`` its count; ``hub_matched``
        the matches on hubs, ``hub_values`` the hubs), and
        ``namesakes``, the share whose left value has another left value no further from
        it than the right value is (under the function that matched it); ``matches``."""
        rv, lv = self._value_pairs(threshold)
        out = {"matches": len(rv), "hubs": 0.0, "namesakes": 0.0, "hub": None,
               "hub_matches": 0, "hub_matched": 0, "hub_values": 0}
        if not len(rv):
            return out
        k = np.bincount(lv)
        out["hubs"] = float(np.mean(k[lv] >= HUB_SIZE))
        out["hub"], out["hub_matches"] = str(self._lkeys[int(np.argmax(k))]), int(k.max())
        out["hub_matched"] = int(np.sum(k[lv] >= HUB_SIZE))
        out["hub_values"] = int(np.sum(k >= HUB_SIZE))
        fns = self._matched(threshold)[2]
        near = [self._cands[f].r_namesake is not None and self._cands[f].r_left[r] == l
                and self._cands[f].r_namesake[r] <= self._cands[f].r_dist[r] + TIE
                for r, l, f in zip(rv, lv, fns)]
        out["namesakes"] = float(np.mean(near))
        return out

    def warnings(self, threshold: float | None = None) -> list[str]:
        """Plain warnings when the matches show the patterns the estimate is blind to
        (docs/algorithms/fuzzyjoin.md): too few of them to check it
        (:meth:`sample_warning`), at least WARN_SHARE of them on hub left values, or on
        left values with a namesake nearer than the right value."""
        s = self.pattern_shares(threshold)
        few = self.sample_warning(threshold)
        out = [few[0].upper() + few[1:]] if few else []
        if s["matches"] and s["hubs"] >= WARN_SHARE:
            n, m = s["hub_matched"], s["hub_values"]
            cap = (f"the estimate counts at most {HUB_PARTNERS:g} of them per left value as "
                   f"right, so " if HUB_PARTNERS else "")
            out.append(f"{s['hubs']:.0%} of the matched values ({n} of {s['matches']}) land "
                       f"on {m} left value{'s' if m != 1 else ''} that {HUB_SIZE} or more "
                       f"right values each match ({s['hub_matches']} on {s['hub']!r}): "
                       f"spellings of one entity, or different entities the left table "
                       f"lacks; check them: {cap}the estimated precision may be optimistic "
                       f"(or, if they are spellings, pessimistic).")
        if s["matches"] and s["namesakes"] >= WARN_SHARE:
            out.append(f"{s['namesakes']:.0%} of the matched values land on a left value "
                       f"that has another left value at least as similar to it (a namesake): "
                       f"the right value may be a different entity the left table lacks, and "
                       f"the estimated precision may be optimistic.")
        return out

    def closest_bound(self) -> dict | None:
        """The configuration whose lower bound on the precision (the one the choice
        compares with the target) is highest, over every join function's candidate
        thresholds: function, threshold, est_precision, est_bound; None without any."""
        best = None
        for fn, curve in self._curves.items():
            c = curve[curve["matches"] > 0]
            if not len(c):
                continue
            row = c.loc[c["est_bound"].idxmax()]
            if best is None or row["est_bound"] > best["est_bound"]:
                best = {"function": fn, "threshold": float(row["threshold"]),
                        "est_precision": float(row["est_precision"]),
                        "est_bound": float(row["est_bound"])}
        return best

    def _headline(self, cut: bool = False) -> str:
        """The chosen join in a sentence; ``cut`` (the repr's one line): the chosen
        configurations, those that joined the most matched values first, named up to
        HEADLINE_CONFIGS (:func:`configs_scaled_text`); the summary names all, in the
        order chosen."""
        if not self.ok:
            b = self.closest_bound()
            lowest = self.precision_target <= LOWEST_TARGET + 1e-12
            advice = ("the target is already the lowest the CLI and widget take: pick a "
                      "threshold (threshold=...) and check its pairs" if lowest else
                      "lower the target or pick a threshold (threshold=...)")
            if b is None:
                return (f"No threshold reaches the precision target "
                        f"{self.precision_target:.0%}: no value has a match; {advice}.")
            return (f"No threshold reaches the precision target {self.precision_target:.0%} "
                    f"with the lower bound of its estimate (one-sided 95%, which the choice "
                    f"compares): at best {max(b['est_bound'], 0):.1%} ({b['function']} at "
                    f"threshold {b['threshold']:.3f}, estimate {b['est_precision']:.1%}); "
                    f"{advice}.")
        if len(self.configs) > 1:       # in the order chosen, with what each joined
            chosen = configs_scaled_text(self.configs, counts=self.config_matches(),
                                         most=HEADLINE_CONFIGS if cut else None,
                                         keep=self.function)
            what = (f"join functions, most matched values first: {chosen}" if cut else
                    f"join functions in the order chosen: {chosen}")
        else:
            what = (f"join function {self.function}, threshold {self.threshold:.3f} of "
                    f"{self.scale}" + (" (its largest distance: every value joins its nearest)"
                                       if at_largest(self.function, self.threshold) else ""))
        return (f"{what}: "
                f"{len(self.pairs())} joined rows, estimated precision "
                f"{self.precision_text(self.estimated_precision)} ({self.bound_text()}), "
                f"estimated recall "
                f"{self.estimated_recall:.1%} "
                + ("(threshold given, not chosen for a precision target)" if self.threshold_given
                   else f"(target {self.precision_target:.0%})"))

    def config_matches(self) -> list:
        """The matched values each chosen configuration joined, in the order of ``configs``
        (the order the choice added them): matches() gives each value the configuration
        that joined it."""
        if not self.ok or self._union is None or not self.configs:
            return [0] * len(self.configs)
        of = union_matches(self._cands, self.configs, of_config=True)[2]
        return np.bincount(of[of >= 0], minlength=len(self.configs)).tolist()

    def summary(self) -> str:
        """One line on the chosen join, then a line per warning (:meth:`warnings`)."""
        return self._headline() + "".join(f"\nWarning: {w}" for w in self.warnings())

    def explain(self) -> str:
        """The chosen join in words: the summary, its configurations, any warnings."""
        lines = [self._headline()]
        if self.ok:
            counts = self.config_matches()
            lines += [f"  {f} at threshold {t:.3f}: {n:,} matched value{'s' if n != 1 else ''}"
                      for (f, t), n in zip(self.configs, counts) if n]
            nothing = [f"{f} at {t:.3f}" for (f, t), n in zip(self.configs, counts) if not n]
            if nothing:     # chosen by the estimate, but they join no value: one line
                lines.append(f"  {len(nothing)} more matched nothing: {', '.join(nothing)}")
        else:
            lines.append(f"  the curve (.curve, {self.function}) shows the estimate "
                         f"(est_precision) and its lower bound (est_bound) at each threshold")
        return "\n".join(lines + [f"Warning: {w}" for w in self.warnings()])

    def __repr__(self):
        return f"<FuzzyJoin {self._headline(cut=True)}>"


def _distinct(values) -> tuple[np.ndarray, list]:
    """Distinct non-null texts (the join's text keys: join/keys.py) and, for each, the row
    positions holding it."""
    texts = text_keys(pd.Series(values).reset_index(drop=True)).tolist()
    groups: dict = {}
    for pos, t in enumerate(texts):
        if t is not None:
            groups.setdefault(t, []).append(pos)
    keys = np.array(list(groups), dtype=object)
    return keys, [groups[k] for k in keys]


SEMANTIC_MAX_VALUES = 2000   # "semantic" joins by default up to this many distinct values


def default_functions(n_values: int = 0) -> list:
    """Every join function; "semantic" only where its model is installed (a missing model
    leaves the n-gram functions, it does not fail the join) and both columns together hold
    at most SEMANTIC_MAX_VALUES distinct values (the model embeds tens of values per second
    per core, the n-gram functions many thousands; name it in ``functions`` to use it on
    larger columns)."""
    ngram = [f for f in JOIN_FUNCTIONS if f != "semantic"]
    if n_values > SEMANTIC_MAX_VALUES:
        return ngram
    try:
        cached_embedder(JOIN_FUNCTIONS["semantic"][0])
    except EmbedderError:
        return ngram
    return list(JOIN_FUNCTIONS)


def fuzzy_join(left: pd.DataFrame, right: pd.DataFrame, on, precision_target: float = 0.9,
               functions=None, threshold: float | None = None, embedder=None) -> FuzzyJoin:
    """Fuzzy-join ``right`` to the reference table ``left`` on ``on = (left col, right col)``
    (or one name for both); see the module docstring. ``functions`` restricts the join
    functions tried (names of :data:`JOIN_FUNCTIONS`); ``threshold`` fixes the threshold
    instead of choosing it. ``embedder`` is accepted for symmetry with search and ignored
    unless it names a join function."""
    lcol, rcol = (on, on) if isinstance(on, str) else tuple(on)
    for name, df, col in (("left", left, lcol), ("right", right, rcol)):
        if not isinstance(df, pd.DataFrame):
            raise QueryError(f"fuzzy_join: {name} must be a pandas DataFrame "
                             f"(got {type(df).__name__}).")
        if col not in df.columns:
            raise QueryError(f"fuzzy_join: the {name} table has no column {col!r}; its "
                             f"columns: {list(map(str, df.columns))[:30]}")
    if not 0 < precision_target <= 1:
        raise QueryError(f"precision_target is a fraction in (0, 1] (got {precision_target}).")
    lkeys, lrows = _distinct(left[lcol])
    rkeys, rrows = _distinct(right[rcol])
    fns = list(functions) if functions else (
        [embedder] if isinstance(embedder, str) and embedder in JOIN_FUNCTIONS else
        default_functions(len(lkeys) + len(rkeys)))
    bad = [f for f in fns if f not in JOIN_FUNCTIONS]
    if bad:
        raise QueryError(f"Unknown join function(s) {bad}; choose from {list(JOIN_FUNCTIONS)}.")
    if len(lkeys) == 0 or len(rkeys) == 0:
        raise QueryError(f"fuzzy_join: column {lcol if len(lkeys) == 0 else rcol!r} has no values.")
    cands, curves, grids = {}, {}, {}
    rules = NegativeRules(lkeys, rkeys)
    counts: dict = {}
    texts = [list(lkeys), list(rkeys)]
    for fn in fns:
        L, R = _features(texts, fn, counts)
        rd, ri, rties = _nearest(R, L, max(NEAREST, FAMILY_SEARCH or 0))
        r_left = np.where(np.isfinite(rd[:, 0]), ri[:, 0], -1)
        r_dist = rd[:, 0].copy()
        r_dist[rules.rejects(r_left)] = np.inf          # a negative rule forbids the join
        # how far the nearest left value lies from the second nearest (its sibling)
        sib = np.full(len(rkeys), np.inf)
        two = (r_left >= 0) & (ri[:, 1] >= 0) if ri.shape[1] > 1 else np.zeros(len(rkeys), bool)
        if two.any():
            sib[two] = _pair_distances(L[r_left[two]], L[ri[two, 1]])
        # how far the nearest left value lies from its own nearest other left value
        namesake = np.full(len(rkeys), np.inf)
        used = np.unique(r_left[r_left >= 0])
        if NAMESAKES and len(used) and len(lkeys) > 1:
            e = np.full(len(lkeys), np.inf)
            e[used] = _nearest(L[used], L, 1, self_index=used)[0][:, 0]
            namesake[r_left >= 0] = e[r_left[r_left >= 0]]
        near = family_nearest(rd, ri, rules) if FAMILY_SEARCH else rd[:, :NEAREST]
        c = _Candidates(fn, r_left, r_dist, near, rties, sib, namesake)
        cands[fn] = c
        finite = np.unique(c.r_dist[np.isfinite(c.r_dist)])
        grids[fn] = (np.unique(np.quantile(finite, np.linspace(0, 1, N_THRESHOLDS)))
                     if len(finite) > N_THRESHOLDS else finite)
    if AGREE_RATIO is not None:
        for fn, p in agreed_probability(cands).items():
            cands[fn].rate(p)
    for fn in fns:
        curves[fn] = threshold_curve(cands[fn], grids[fn], len(rkeys))
    return _choose(dict(left=left, right=right, on=(lcol, rcol), _cands=cands,
                        _grids=grids, _curves=curves, _lkeys=lkeys, _rkeys=rkeys,
                        _lrows=lrows, _rrows=rrows), fns, precision_target, threshold)


def threshold_curve(c: "_Candidates", grid, n_right: int) -> pd.DataFrame:
    """Estimates of one join function at each threshold of ``grid``: joins, estimated
    precision, its lower bound, estimated true matches and recall."""
    rows = []
    for t in grid:
        joined, p = c.estimate(t)
        n = int(joined.sum())
        rows.append({"threshold": float(t), "matches": n,
                     "est_precision": float(p.mean()) if n else 1.0,
                     "est_bound": c.bound(t),
                     "est_true": float(p.sum()), "est_recall": float(p.sum() / n_right)})
    return pd.DataFrame(rows, columns=["threshold", "matches", "est_precision",
                                       "est_bound", "est_true", "est_recall"])


def _shown(curve: pd.DataFrame) -> pd.DataFrame:
    return curve.drop(columns=["est_true"]).assign(est_bound=curve["est_bound"].clip(lower=0))


def _choose(common: dict, fns: list, precision_target: float,
            threshold: float | None = None) -> "FuzzyJoin":
    """The configuration(s) of the candidates in ``common`` chosen for the target (or
    ``fns[0]`` at ``threshold``), as a FuzzyJoin."""
    cands, grids, curves = common["_cands"], common["_grids"], common["_curves"]
    rkeys = common["_rkeys"]
    best_rows = []
    for fn in fns:
        curve = curves[fn]
        okc = curve[curve["est_bound"] >= precision_target - 1e-12]
        b = okc.loc[okc["est_true"].idxmax()].to_dict() if len(okc) else \
            {"threshold": None, "matches": 0, "est_precision": None, "est_bound": None,
             "est_true": 0.0, "est_recall": 0.0}
        best_rows.append({"function": fn, **b})
    table = pd.DataFrame(best_rows).sort_values("est_true", ascending=False, kind="stable") \
        .reset_index(drop=True)
    union = greedy_union(cands, grids, precision_target) if threshold is None else None
    common = dict(common, precision_target=precision_target, functions=table)
    if threshold is not None:                       # one function at a given threshold
        fn = fns[0]
        threshold = check_threshold(fn, threshold)
        est = FuzzyJoin(function=fn, threshold=float(threshold), estimated_precision=0.0,
                        estimated_recall=0.0, curve=_shown(curves[fn]),
                        **common).estimate(threshold)
        un, _ = union_matches(cands, [(fn, float(threshold) + ROUNDOFF)])
        return FuzzyJoin(function=fn, threshold=float(threshold),
                         estimated_precision=est["est_precision"],
                         estimated_recall=est["est_recall"],
                         curve=_shown(curves[fn]),
                         configs=[(fn, float(threshold))], _union=un,
                         threshold_given=True, **common)
    if union is None:
        fn = str(table.iloc[0]["function"])
        return FuzzyJoin(function=fn, threshold=None, estimated_precision=float("nan"),
                         estimated_recall=0.0, curve=_shown(curves[fn]),
                         **common)
    configs, chosen, prec, tp, chosen_fn = union
    single = table.iloc[0]            # the best single configuration, if it beats the union
    if single["threshold"] is not None and float(single["est_true"]) > tp:
        fn, t = str(single["function"]), float(single["threshold"])
        chosen, chosen_fn = union_matches(cands, [(fn, t)])
        configs, prec, tp = [(fn, t)], float(single["est_precision"]), float(single["est_true"])
    fn, t = shown_threshold(cands, configs)
    return FuzzyJoin(function=fn, threshold=t, estimated_precision=float(prec),
                     estimated_recall=float(tp / len(rkeys)),
                     curve=_shown(curves[fn]), configs=configs,
                     _union=chosen, _union_fn=chosen_fn, **common)
