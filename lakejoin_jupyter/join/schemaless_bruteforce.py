"""Brute-force oracle for schemaless join (join/schemaless.py): every predicate evaluated.

Enumerates every subset of left columns x right columns (up to ``max_pairs``), joins the
two tables on it with plain Python dictionaries of normalized key tuples (nulls never match),
and scores it with the formulas of [S Table I] written out again in plain Python. A predicate
is closed [S Def. 2] when no single extra pair keeps the same join result (by Property 1 a
superset's result is a subset, so comparing join sizes of p and p ∪ {x} decides it, and if
any superset keeps the result, every single pair of it does). Exponential: small tables only
(tests, and the real-data checks in bench/schemaless_tpch.py).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import combinations

import pandas as pd

from ..lake.normalize import normalize_many


@dataclass
class Evaluated:
    pairs: tuple              # ((left column, right column), ...) sorted by column positions
    groups: list              # [(r_k, s_k)] of the joining groups
    closed: bool = False

    @property
    def join_size(self) -> int:
        return sum(r * s for r, s in self.groups)

    @property
    def valid(self) -> bool:
        return bool(self.groups)


def scores(groups, n_left: int, n_right: int) -> dict:
    """h1..h5 of a predicate from its joining groups [S §IV], in plain Python."""
    J = sum(r * s for r, s in groups)
    involved = sum(r + s for r, s in groups)
    ent = -sum((r * s / J) * math.log2(r * s / J) for r, s in groups) if J else 0.0
    return {"h1": involved, "h2": len(groups), "h3": sum(r + s - r * s for r, s in groups),
            "h4": ent, "h5": 2 * involved / (2 * J + n_left + n_right)}


def _groups(ltok, rtok, pairs) -> list:
    lcount = Counter(tuple(row[a] for a, _ in pairs) for row in ltok)
    rcount = Counter(tuple(row[b] for _, b in pairs) for row in rtok)
    return sorted((lcount[k], rcount[k]) for k in lcount
                  if k in rcount and None not in k)


def enumerate_predicates(left: pd.DataFrame, right: pd.DataFrame, seed=(),
                         max_pairs: int | None = None) -> list[Evaluated]:
    """Every valid non-empty predicate containing ``seed`` (column-name pairs), with its
    groups and whether it is closed. Closedness needs every superset by one pair, so it is
    exact only when ``max_pairs`` is None."""
    lcols, rcols = [str(c) for c in left.columns], [str(c) for c in right.columns]
    lcolumns = [normalize_many(left.iloc[:, j].tolist()) for j in range(left.shape[1])]
    rcolumns = [normalize_many(right.iloc[:, j].tolist()) for j in range(right.shape[1])]
    ltok = list(zip(*lcolumns)) if lcolumns else []
    rtok = list(zip(*rcolumns)) if rcolumns else []
    all_pairs = [(a, b) for a in range(len(lcols)) for b in range(len(rcols))]
    seed_idx = tuple(sorted((lcols.index(a), rcols.index(b)) for a, b in seed))
    rest = [p for p in all_pairs if p not in seed_idx]
    top = len(rest) if max_pairs is None else max(0, max_pairs - len(seed_idx))
    size_of: dict = {}
    out = []
    for k in range(0, top + 1):
        for extra in combinations(rest, k):
            pairs = tuple(sorted(seed_idx + extra))
            if not pairs:
                continue
            groups = _groups(ltok, rtok, pairs)
            size_of[pairs] = sum(r * s for r, s in groups)
            if groups:
                out.append(Evaluated(pairs, groups))
    for e in out:
        J = size_of[e.pairs]
        supersets = (tuple(sorted(e.pairs + (x,))) for x in all_pairs if x not in e.pairs)
        e.closed = all(size_of.get(q, -1) != J for q in supersets)
    for e in out:
        e.pairs = tuple((lcols[a], rcols[b]) for a, b in e.pairs)
    return out


def best(left: pd.DataFrame, right: pd.DataFrame, preference: str, seed=(),
         tol: float = 1e-9) -> tuple[float | None, list]:
    """(best score, all closed valid predicates reaching it) for one preference."""
    evs = [e for e in enumerate_predicates(left, right, seed) if e.closed]
    if not evs:
        return None, []
    vals = [scores(e.groups, len(left), len(right))[preference] for e in evs]
    top = max(vals)
    return top, [e.pairs for e, v in zip(evs, vals) if v >= top - tol]
