"""Schemaless join: the join predicate that best fits a result-set preference.

Gao, Pei, Wang, Chang, "Schemaless Join for Result Set Preferences" [S]: given two tables R
(left) and S (right) and a preference h ("h1".."h5", [S §IV, Table I]), find the valid,
closed join predicate p (a set of column pairs) that maximizes h(p) [S Def. 4], from the
data alone. Search [S §V, Algorithm 1]: a depth-first walk of the set-enumeration tree
whose children come from a multi-way merge join (vectorized over a node's groups, so only
valid children exist), with non-closed pruning (Thm 3) and bound pruning (Lemmas 1-4).

Note:
    Fixes to the pseudocode (why: docs/algorithms/schemaless.md): the root ∅ is never an
    answer and the best starts at −inf; bounds prune on a strict ``bound < best``;
    non-monotonic preferences prune with their bound, never with h(p).
    Values are compared normalized (lake/normalize.py); nulls never match.
    Optional deviations: ``max_pairs`` / ``time_limit`` (an anytime answer,
    ``complete=False``) and, above ``max_rows``, a row sample with exact re-scoring.
"""
from __future__ import annotations

import html
import keyword
import math
import time
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import pandas as pd

from ..errors import QueryError
from ..lake.normalize import normalize_many
from ..frames import is_spark_frame
from .joinable import Joinable
from .plan import Key, make_plan

DEFAULT_MAX_ROWS = 200_000     # rows per side searched exactly; above it: a sample + rescoring
DEFAULT_RESCORE = 10           # predicates re-scored exactly on the full tables after a sample
_H4_TOL = 1e-12                # entropy is a float sum: ties and bounds compared with a tolerance


# ---------------------------------------------------------------------- preferences

@dataclass(frozen=True)
class Preference:
    """One result-set preference [S Table I]: a score to maximize and a monotonic bound."""
    name: str
    label: str
    help: str
    monotonic: bool

    def score(self, st: "Stats"):
        return _SCORES[self.name](st)

    def bound(self, st: "Stats"):
        return _BOUNDS[self.name](st)


@dataclass
class Stats:
    """Aggregates of the joining groups of one predicate (or arrays of them, one per child).

    n_keys = |K(p)|, sum_r = Σ r_k, sum_s = Σ s_k, join = Σ r_k s_k, rslog = Σ r_k s_k log2(r_k s_k);
    n_left, n_right = |R|, |S| of the tables searched.
    """
    n_keys: object
    sum_r: object
    sum_s: object
    join: object
    rslog: object
    n_left: int
    n_right: int

    @staticmethod
    def of_groups(r, s, n_left, n_right) -> "Stats":
        r = np.asarray(r, dtype=np.int64)
        s = np.asarray(s, dtype=np.int64)
        rs = r * s
        return Stats(int(len(r)), int(r.sum()), int(s.sum()), int(rs.sum()),
                     float(_xlog2x(rs).sum()), n_left, n_right)

    def row(self, i=None) -> "Stats":
        if i is None:
            return self
        return Stats(int(self.n_keys[i]), int(self.sum_r[i]), int(self.sum_s[i]),
                     int(self.join[i]), float(self.rslog[i]), self.n_left, self.n_right)

    def describe(self) -> dict:
        """The figures a user sees for one predicate."""
        involved = self.sum_r + self.sum_s
        return {
            "join_size": int(self.join),
            "outer_join_size": int(self.n_left + self.n_right - h3(self)),
            "n_keys": int(self.n_keys),
            "left_rows_matched": int(self.sum_r),
            "right_rows_matched": int(self.sum_s),
            "coverage": involved / (self.n_left + self.n_right) if self.n_left + self.n_right else 0.0,
            "strength": involved / (2 * self.join) if self.join else 0.0,
            "entropy": float(h4(self)),
            **{name: float(p.score(self)) for name, p in PREFERENCES.items()},
        }


def _xlog2x(x):
    x = np.asarray(x, dtype=np.float64)
    return np.where(x > 0, x * np.log2(np.maximum(x, 1.0)), 0.0)


def h1(st):
    return st.sum_r + st.sum_s


def h2(st):
    return st.n_keys


def h3(st):
    return st.sum_r + st.sum_s - st.join


def h4(st):
    j = np.asarray(st.join, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(j > 0, np.log2(np.maximum(j, 1.0)) - np.asarray(st.rslog) / np.maximum(j, 1.0), 0.0)
    return np.maximum(out, 0.0) if np.ndim(out) else max(float(out), 0.0)


def h5(st):
    return 2.0 * (st.sum_r + st.sum_s) / (2.0 * st.join + st.n_left + st.n_right)


def _bound_h23(st):
    return np.minimum(st.sum_r, st.sum_s)


def _bound_h4(st):
    m = np.asarray(np.minimum(st.sum_r, st.sum_s), dtype=np.float64)
    return np.log2(np.maximum(m, 1.0))


def _bound_h5(st):
    inv = st.sum_r + st.sum_s
    return 2.0 * inv / (inv + st.n_left + st.n_right)


_SCORES = {"h1": h1, "h2": h2, "h3": h3, "h4": h4, "h5": h5}
_BOUNDS = {"h1": h1, "h2": _bound_h23, "h3": _bound_h23, "h4": _bound_h4, "h5": _bound_h5}

PREFERENCES = {
    "h1": Preference("h1", "match the most rows",
                     "h1: most tuples of both tables involved in the join (coverage)", True),
    "h2": Preference("h2", "most distinct keys",
                     "h2: most joining keys (distinct entities matched)", False),
    "h3": Preference("h3", "smallest merged table",
                     "h3: fewest rows in the full outer join (least duplication)", False),
    "h4": Preference("h4", "most even key distribution",
                     "h4: highest entropy of the joining keys (FK-like)", False),
    "h5": Preference("h5", "balance coverage and strength",
                     "h5: harmonic mean of coverage and strength (default)", False),
}


def get_preference(name) -> Preference:
    if isinstance(name, Preference):
        return name
    key = str(name).strip().lower()
    if key not in PREFERENCES:
        raise QueryError(f"Unknown preference {name!r}; choose one of "
                         + ", ".join(f"{k} ({p.label})" for k, p in PREFERENCES.items()) + ".")
    return PREFERENCES[key]


# ---------------------------------------------------------------------- value encoding

@dataclass
class Encoded:
    """Both tables' cells as integer codes of their normalized values (-1 = null) [S §VI:
    values are mapped to integers once, at load time]."""
    left: np.ndarray          # (n_left, m) int64
    right: np.ndarray         # (n_right, n) int64
    left_columns: list
    right_columns: list
    n_values: int


def _column_tokens(series: pd.Series) -> tuple[np.ndarray, list]:
    """(codes into uniques, normalized token of each unique) for one column."""
    values = series.to_numpy(dtype=object) if series.dtype == object else series
    safe = series.dtype != object or pd.api.types.infer_dtype(series, skipna=True) in ("string", "empty")
    if safe:
        try:
            codes, uniques = pd.factorize(values, use_na_sentinel=True)
            return codes, normalize_many(list(uniques))
        except TypeError:
            pass
    toks = normalize_many(series.tolist())   # mixed Python objects: 1, 1.0 and True differ
    codes, uniques = pd.factorize(np.array([t if t is not None else None for t in toks], dtype=object),
                                  use_na_sentinel=True)
    return codes, list(uniques)


def encode(left: pd.DataFrame, right: pd.DataFrame) -> Encoded:
    """Normalize every cell of both tables and map the tokens to one shared integer code."""
    vocab: dict = {}
    mats = []
    for frame in (left, right):
        mat = np.full((len(frame), frame.shape[1]), -1, dtype=np.int64)
        for j in range(frame.shape[1]):
            codes, toks = _column_tokens(frame.iloc[:, j])
            ids = np.fromiter((vocab.setdefault(t, len(vocab)) if t is not None else -1 for t in toks),
                              dtype=np.int64, count=len(toks))
            ids = np.append(ids, -1)                   # code -1 (pandas null) -> -1
            mat[:, j] = ids[codes]
        mats.append(mat)
    return Encoded(mats[0], mats[1], [str(c) for c in left.columns],
                   [str(c) for c in right.columns], max(len(vocab), 1))


# ---------------------------------------------------------------------- the search

@dataclass
class _Node:
    pairs: tuple              # sorted ((a, b), ...): the predicate (without the seed)
    rows_l: np.ndarray        # left rows in some joining group
    gid_l: np.ndarray         # their group
    rows_r: np.ndarray
    gid_r: np.ndarray


@dataclass
class _Children:
    """All children of one node, from one multi-way merge join over all its groups."""
    pairs: list               # [(a, b)] in lexicographic order
    seg: np.ndarray           # child i's groups are keys[seg[i]:seg[i+1]]
    keys: np.ndarray          # dense ids of (parent group, value) in `common`
    common: np.ndarray        # sorted unique parent_group * n_values + value
    stats: Stats              # arrays, one entry per child


class SearchState:
    """One depth-first search [S Algorithm 1] over integer-coded tables."""

    def __init__(self, left: np.ndarray, right: np.ndarray, n_values: int, preference,
                 seed: Sequence = (), *, pruning: str = "full", max_pairs: int | None = None,
                 time_limit: float | None = None, max_nodes: int | None = None):
        if pruning not in ("full", "invalid"):
            raise ValueError("pruning is 'full' (invalid + closed + bound) or 'invalid'")
        self.L, self.R = left, right
        self.m, self.n = left.shape[1], right.shape[1]
        self.V = int(n_values)
        self.pref = get_preference(preference)
        self.seed = tuple(sorted(set(seed)))
        self.pruning = pruning
        self.max_pairs = max_pairs
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.max_nodes = max_nodes
        self.best: tuple | None = None
        self.best_score = -math.inf
        self.best_stats: Stats | None = None
        self.seen_by_size: dict = {}
        self.visited: list = []           # (pairs incl. seed, Stats) of every scored node
        self.counts = {"nodes": 0, "pruned_bound": 0, "pruned_closed": 0, "children": 0}
        self.complete = True
        self.stop_reason = ""
        self._tol = _H4_TOL if self.pref.name == "h4" else 0.0

    # --- groups -------------------------------------------------------------

    def root(self) -> _Node | None:
        """The root: one group with every row, or the groups of the seed predicate."""
        node = _Node((), np.arange(len(self.L)), np.zeros(len(self.L), dtype=np.int64),
                     np.arange(len(self.R)), np.zeros(len(self.R), dtype=np.int64))
        for a, b in self.seed:
            node = self.refine(node, a, b)
            if node is None:
                return None
        node.pairs = ()                    # the enumeration is over the pairs beyond the seed
        return node

    def refine(self, node: _Node, a: int, b: int) -> _Node | None:
        """The groups of p ∪ {(a, b)} from those of p (None when the join is empty)."""
        kl = node.gid_l * self.V + self.L[node.rows_l, a]
        kr = node.gid_r * self.V + self.R[node.rows_r, b]
        okl, okr = self.L[node.rows_l, a] >= 0, self.R[node.rows_r, b] >= 0
        common = np.intersect1d(kl[okl], kr[okr])
        if common.size == 0:
            return None
        il = np.searchsorted(common, kl)
        ml = okl & (il < common.size) & (common[np.minimum(il, common.size - 1)] == kl)
        ir = np.searchsorted(common, kr)
        mr = okr & (ir < common.size) & (common[np.minimum(ir, common.size - 1)] == kr)
        return _Node(tuple(sorted(node.pairs + ((a, b),))), node.rows_l[ml], il[ml],
                     node.rows_r[mr], ir[mr])

    def group_stats(self, node: _Node) -> Stats:
        r = np.bincount(node.gid_l)
        s = np.bincount(node.gid_r)
        return Stats.of_groups(r, s, len(self.L), len(self.R))

    def children(self, node: _Node, last: tuple | None, exclude=()) -> _Children | None:
        """Multi-way merge join [S §V-C]: split every group of ``node`` by the values of the
        candidate columns; return every child pair after ``last`` with its new groups."""
        la, lb = last if last is not None else (-1, -1)
        A = np.arange(max(la, 0), self.m)
        sub_l = self.L[node.rows_l][:, A]
        sub_r = self.R[node.rows_r]
        okl, okr = sub_l >= 0, sub_r >= 0
        kl = (node.gid_l[:, None] * self.V + sub_l)[okl]
        al = np.broadcast_to(A, sub_l.shape)[okl]
        kr = (node.gid_r[:, None] * self.V + sub_r)[okr]
        br = np.broadcast_to(np.arange(self.n), sub_r.shape)[okr]
        common = np.intersect1d(kl, kr)
        C = common.size
        if C == 0:
            return None
        # distinct (group-value d, column) with the number of rows, on each side
        dl = np.searchsorted(common, kl)
        hit = (dl < C) & (common[np.minimum(dl, C - 1)] == kl)
        ul, cl = np.unique(dl[hit] * self.m + al[hit], return_counts=True)
        dr = np.searchsorted(common, kr)
        hit = (dr < C) & (common[np.minimum(dr, C - 1)] == kr)
        ur, cr = np.unique(dr[hit] * self.n + br[hit], return_counts=True)
        d_l, a_l = np.divmod(ul, self.m)
        d_r, b_r = np.divmod(ur, self.n)
        # every d has >= 1 entry on each side; cross the columns of each d (output-sensitive)
        start_l = np.searchsorted(d_l, np.arange(C))
        cnt_l = np.diff(np.append(start_l, len(d_l)))
        start_r = np.searchsorted(d_r, np.arange(C))
        cnt_r = np.diff(np.append(start_r, len(d_r)))
        per_d = cnt_l * cnt_r
        total = int(per_d.sum())
        d_rep = np.repeat(np.arange(C), per_d)
        off = np.arange(total) - np.repeat(np.cumsum(per_d) - per_d, per_d)
        il = start_l[d_rep] + off // cnt_r[d_rep]
        ir = start_r[d_rep] + off % cnt_r[d_rep]
        a, b = a_l[il], b_r[ir]
        keep = (a > la) | ((a == la) & (b > lb))
        for ea, eb in exclude:
            keep &= ~((a == ea) & (b == eb))
        if not keep.any():
            return None
        a, b, d_rep, r, s = a[keep], b[keep], d_rep[keep], cl[il[keep]], cr[ir[keep]]
        code = a * self.n + b
        order = np.argsort(code, kind="stable")          # stable: groups stay sorted by d
        code, d_rep, r, s = code[order], d_rep[order], r[order], s[order]
        starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
        seg = np.append(starts, len(code))
        rs = r * s
        st = Stats(np.diff(seg), np.add.reduceat(r, starts), np.add.reduceat(s, starts),
                   np.add.reduceat(rs, starts), np.add.reduceat(_xlog2x(rs), starts),
                   len(self.L), len(self.R))
        pairs = [(int(c // self.n), int(c % self.n)) for c in code[starts]]
        return _Children(pairs, seg, d_rep, common, st)

    def materialize(self, node: _Node, ch: _Children, i: int) -> _Node:
        """The rows and groups of child i (only for children the search descends into)."""
        a, b = ch.pairs[i]
        keys = ch.keys[ch.seg[i]:ch.seg[i + 1]]
        C = ch.common.size

        def side(rows, gid, col):
            k = gid * self.V + col
            d = np.searchsorted(ch.common, k)
            ok = (col >= 0) & (d < C) & (ch.common[np.minimum(d, C - 1)] == k)
            pos = np.searchsorted(keys, d)
            ok &= (pos < keys.size) & (keys[np.minimum(pos, keys.size - 1)] == d)
            return rows[ok], pos[ok]

        rl, gl = side(node.rows_l, node.gid_l, self.L[node.rows_l, a])
        rr, gr = side(node.rows_r, node.gid_r, self.R[node.rows_r, b])
        return _Node(node.pairs + ((a, b),), rl, gl, rr, gr)

    # --- the walk -----------------------------------------------------------

    def _out_of_budget(self) -> bool:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.complete, self.stop_reason = False, "time limit"
            return True
        if self.max_nodes is not None and self.counts["nodes"] >= self.max_nodes:
            self.complete, self.stop_reason = False, "node limit"
            return True
        return False

    def visit(self, full: tuple, st: Stats) -> bool:
        """Score one node; False when its subtree is pruned [Algorithm 1 lines 1-4]."""
        if self.pruning == "full":
            if self.pref.bound(st) < self.best_score - self._tol:          # fix 2: strict
                self.counts["pruned_bound"] += 1
                return False
            fs = frozenset(full)
            same = self.seen_by_size.get(st.join, [])
            if any(fs < q for q in same):                                  # Thm 3
                self.counts["pruned_closed"] += 1
                return False
            self.seen_by_size[st.join] = [q for q in same if not q < fs] + [fs]
        self.counts["nodes"] += 1
        s = float(self.pref.score(st))
        self.visited.append((full, st))
        if (s > self.best_score + self._tol
                or (abs(s - self.best_score) <= self._tol and self.best is not None
                    and frozenset(full) > frozenset(self.best))):
            self.best, self.best_score, self.best_stats = full, s, st
        return True

    def run(self) -> "SearchState":
        root = self.root()
        if root is None:
            return self
        seed = self.seed
        if seed:                                    # the seed alone is a candidate answer
            if not self.visit(seed, self.group_stats(root)):
                return self
        if self.max_pairs is not None and len(seed) >= self.max_pairs:
            return self
        stack = [(root, self.children(root, None, exclude=seed), 0)]
        while stack:
            node, ch, i = stack[-1]
            if ch is None or i >= len(ch.pairs):
                stack.pop()
                continue
            stack[-1] = (node, ch, i + 1)
            if self._out_of_budget():
                break
            self.counts["children"] += 1
            st = ch.stats.row(i)
            full = tuple(sorted(seed + node.pairs + (ch.pairs[i],)))
            if not self.visit(full, st):
                continue
            if self.max_pairs is not None and len(full) >= self.max_pairs:
                continue
            child = self.materialize(node, ch, i)
            stack.append((child, self.children(child, ch.pairs[i], exclude=seed), 0))
        return self

    def closed(self, full: tuple) -> bool:
        """Whether a predicate is closed: no extra pair keeps its join size (Property 1)."""
        node = _Node((), np.arange(len(self.L)), np.zeros(len(self.L), dtype=np.int64),
                     np.arange(len(self.R)), np.zeros(len(self.R), dtype=np.int64))
        for a, b in full:
            node = self.refine(node, a, b)
            if node is None:
                return False
        st = self.group_stats(node)
        ch = self.children(node, None, exclude=full)
        return ch is None or not np.any(ch.stats.join == st.join)


# ---------------------------------------------------------------------- inputs

def _check_frame(obj, side: str):
    if is_spark_frame(obj):
        return
    if not isinstance(obj, pd.DataFrame):
        raise QueryError(f"The {side} table must be a pandas or Spark DataFrame "
                         f"(got {type(obj).__name__}).")
    if obj.shape[1] == 0:
        raise QueryError(f"The {side} table has no columns.")
    if len(obj) == 0:
        raise QueryError(f"The {side} table has no rows: nothing to join.")


def _seed_pairs(seed, left_cols: list, right_cols: list) -> tuple:
    """Seed given as (left, right), [(left, right), ...] or {left: right} -> index pairs."""
    if seed is None:
        return ()
    if isinstance(seed, dict):
        items = list(seed.items())
    elif (isinstance(seed, (tuple, list)) and len(seed) == 2
          and not isinstance(seed[0], (tuple, list))):
        items = [tuple(seed)]
    else:
        items = [tuple(x) for x in seed]
    out = []
    for item in items:
        if len(item) != 2:
            raise QueryError(f"A seed pair is (left column, right column); got {item!r}.")
        a, b = map(str, item)
        if a not in left_cols:
            raise QueryError(f"Seed column {a!r} is not a column of the left table "
                             f"(it has {left_cols[:30]}).")
        if b not in right_cols:
            raise QueryError(f"Seed column {b!r} is not a column of the right table "
                             f"(it has {right_cols[:30]}).")
        out.append((left_cols.index(a), right_cols.index(b)))
    return tuple(sorted(set(out)))


def _string_columns(frame: pd.DataFrame, side: str) -> pd.DataFrame:
    cols = [str(c) for c in frame.columns]
    dup = sorted({c for c in cols if cols.count(c) > 1})
    if dup:
        raise QueryError(f"The {side} table repeats column name(s) {dup}; rename them first "
                         f"(a join predicate names its columns).")
    return frame


# ---------------------------------------------------------------------- result

@dataclass
class PredicateResult(Joinable):
    """The best join predicate for a preference, and the predicates it was compared with.
    ``join(df)`` / ``code(name, into)`` follow the join contract (join/plan.py): ``df`` is
    the left table, the right one a lake table or a second frame."""
    preference: str
    predicate: list | None             # [(left column, right column), ...] or None
    stats: dict                        # join_size, outer_join_size, coverage, strength, h1..h5, ...
    considered: pd.DataFrame           # distinct join results scored by the search, best first
    scored: pd.DataFrame               # every predicate the search scored, in visit order
    left_rows: int
    right_rows: int
    seed: list = field(default_factory=list)
    complete: bool = True              # False: a time/node limit stopped the search
    exact: bool = True                 # False: searched on a sample (see `sample`); the
                                       # figures are re-scored exactly, the optimum is likely
    sample: dict | None = None
    search: dict = field(default_factory=dict)   # nodes, prunings, seconds
    notes: list = field(default_factory=list)
    left_name: str = "left"
    right_name: str = "right"
    lake: object = None                # the right table's LakeTable, when it is a lake table
    _left: object = field(default=None, repr=False)
    _right: object = field(default=None, repr=False)

    @property
    def h(self) -> float | None:
        return self.stats.get(self.preference) if self.predicate else None

    @property
    def join_size(self):
        return self.stats.get("join_size")

    @property
    def outer_join_size(self):
        return self.stats.get("outer_join_size")

    @property
    def coverage(self):
        return self.stats.get("coverage")

    @property
    def strength(self):
        return self.stats.get("strength")

    @property
    def left_on(self) -> list:
        return [a for a, _ in self.predicate or []]

    @property
    def right_on(self) -> list:
        return [b for _, b in self.predicate or []]

    def describe(self) -> str:
        return predicate_text(self.predicate) if self.predicate else "(no valid predicate)"

    def plan(self, df=None, how: str | None = None):
        """Equality of the normalized values of every column pair of the predicate
        (``how`` "inner", the default, or "left")."""
        if not self.predicate:
            raise QueryError("No valid join predicate: the tables share no value.")
        left = df if df is not None else self._left
        right_cols = (list(self.lake.columns) if self.lake is not None
                      else list(self._right.columns))
        lmap = {str(c): c for c in left.columns}
        rmap = {str(c): c for c in right_cols}
        return make_plan(list(left.columns), [Key((lmap.get(a, a),)) for a in self.left_on],
                         right_cols, [Key((rmap.get(b, b),)) for b in self.right_on],
                         other=self.lake, other_label=self.right_name, how=how or "inner",
                         suffix="_" + _identifier(self.right_name, "right"),
                         description=f"join predicate chosen by lakejoin schemaless join "
                                     f"({self.preference}): {self.describe()}")

    def _frame(self, df):
        return self._left if df is None else df

    def _other_frame(self):
        return None if self.lake is not None else self._right

    def _spark_query(self) -> bool:
        return is_spark_frame(self._left)

    def to_dict(self) -> dict:
        return {"preference": self.preference, "predicate": self.predicate, **self.stats,
                "complete": self.complete, "exact": self.exact, "seed": self.seed,
                "notes": list(self.notes)}

    def __repr__(self):
        p = PREFERENCES[self.preference]
        head = f"best predicate for {self.preference} ({p.label}): {self.describe()}"
        if self.predicate:
            s = self.stats
            head += (f"\n  {self.preference} = {s[self.preference]:.4g}; join {s['join_size']:,} rows, "
                     f"outer join {s['outer_join_size']:,}, coverage {s['coverage']:.3f}, "
                     f"strength {s['strength']:.3f}, {s['n_keys']:,} keys")
        for n in self.notes:
            head += f"\n  note: {n}"
        if len(self.considered):
            head += "\n" + self.comparison().head(10).to_string(index=False)
        return head

    def comparison(self, n: int | None = None) -> pd.DataFrame:
        """The considered predicates, best first, with the figures a user compares."""
        cols = ["rank", "predicate", "n_pairs", self.preference, "join_size", "outer_join_size",
                "coverage", "strength", "n_keys", "chosen"]
        extra = [c for c in ("closed", f"{self.preference}_sample") if c in self.considered]
        df = self.considered[cols + extra]
        return df if n is None else df.head(n)

    def _repr_html_(self):
        p = PREFERENCES[self.preference]
        notes = "".join(f"<div style='color:#a60'>note: {html.escape(n)}</div>" for n in self.notes)
        if not self.predicate:
            return f"<div><b>No valid join predicate</b>: the tables share no value.</div>{notes}"
        s = self.stats
        cap = (f"<div>Best predicate for <b>{html.escape(self.preference)}</b> "
               f"({html.escape(p.label)}): <code>{html.escape(self.describe())}</code><br>"
               f"{html.escape(self.preference)} = {s[self.preference]:.4g} &middot; "
               f"join {s['join_size']:,} rows &middot; outer join {s['outer_join_size']:,} &middot; "
               f"coverage {s['coverage']:.3f} &middot; strength {s['strength']:.3f} &middot; "
               f"{s['n_keys']:,} keys</div>")
        table = self.comparison(15).to_html(index=False, float_format=lambda x: f"{x:.4g}",
                                            escape=True)
        return cap + notes + table


def predicate_text(pairs) -> str:
    return " & ".join(f"{a} = {b}" for a, b in pairs)


def _identifier(name: str, fallback: str) -> str:
    """``name`` if it can be a Python variable name, else ``fallback``."""
    ok = isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)
    return name if ok else fallback


# ---------------------------------------------------------------------- joining

def _spark_of(*frames):
    for f in frames:
        if is_spark_frame(f):
            return f.sparkSession
    from ..spark import get_spark
    return get_spark()


def _as_spark(spark, frame):
    """A pandas frame as a Spark DataFrame of strings (nulls stay null), for mixed inputs."""
    if is_spark_frame(frame):
        return frame
    from pyspark.sql import types as T
    data = frame.astype(object).where(frame.notna(), None)
    rows = [[None if v is None else str(v) for v in row] for row in data.itertuples(index=False)]
    schema = T.StructType([T.StructField(str(c), T.StringType()) for c in frame.columns])
    return spark.createDataFrame(rows, schema)


# ---------------------------------------------------------------------- sampling, rescoring

def _sample_pandas(frame: pd.DataFrame, max_rows: int, seed: int):
    if len(frame) <= max_rows:
        return frame, None
    return frame.sample(n=max_rows, random_state=seed), len(frame)


def _exact_stats_codes(codes_l, codes_r, V, pairs) -> Stats | None:
    st = SearchState(codes_l, codes_r, V, "h1")
    node = st.root()
    for a, b in pairs:
        node = st.refine(node, a, b)
        if node is None:
            return None
    return st.group_stats(node)


def _spark_exact_stats(left, right, name_pairs_list, n_left, n_right) -> list:
    """Exact group statistics of each predicate on the full Spark tables (one aggregation
    job per predicate over normalized key columns)."""
    from pyspark.sql import functions as F

    from .execute import spark_key                  # the joins' own normalized keys
    spark = _spark_of(left, right)
    left, right = _as_spark(spark, left), _as_spark(spark, right)

    lcols = sorted({a for pairs in name_pairs_list for a, _ in pairs})
    rcols = sorted({b for pairs in name_pairs_list for _, b in pairs})
    ln = left.select(*[spark_key(left, Key((c,))).alias(f"l{i}")
                       for i, c in enumerate(lcols)]).persist()
    rn = right.select(*[spark_key(right, Key((c,))).alias(f"r{i}")
                        for i, c in enumerate(rcols)]).persist()
    out = []
    try:
        for pairs in name_pairs_list:
            lk = [F.col(f"l{lcols.index(a)}").alias(f"k{i}") for i, (a, _) in enumerate(pairs)]
            rk = [F.col(f"r{rcols.index(b)}").alias(f"k{i}") for i, (_, b) in enumerate(pairs)]
            names = [f"k{i}" for i in range(len(pairs))]
            gl = ln.select(*lk).dropna().groupBy(*names).agg(F.count(F.lit(1)).alias("r"))
            gr = rn.select(*rk).dropna().groupBy(*names).agg(F.count(F.lit(1)).alias("s"))
            rs = F.col("r") * F.col("s")
            row = gl.join(gr, on=names).agg(
                F.count(F.lit(1)).alias("K"), F.sum("r").alias("R"), F.sum("s").alias("S"),
                F.sum(rs).alias("J"), F.sum(rs * F.log2(rs.cast("double"))).alias("L")).first()
            if not row or not row["K"]:
                out.append(None)
            else:
                out.append(Stats(int(row["K"]), int(row["R"]), int(row["S"]), int(row["J"]),
                                 float(row["L"] or 0.0), n_left, n_right))
    finally:
        ln.unpersist()
        rn.unpersist()
    return out


# ---------------------------------------------------------------------- the public function

def best_predicate(left, right, preference: str = "h5", *, seed_pair=None,
                   max_pairs: int | None = None, time_limit: float | None = None,
                   max_nodes: int | None = None, max_rows: int = DEFAULT_MAX_ROWS,
                   rescore: int = DEFAULT_RESCORE, pruning: str = "full",
                   left_name: str = "left", right_name: str = "right",
                   random_state: int = 0,
                   max_considered: int = 200) -> PredicateResult:
    """The valid, closed join predicate between ``left`` (R) and ``right`` (S) that maximizes
    ``preference`` ("h1".."h5", see :data:`PREFERENCES`), compared with the other predicates
    the search scored.

    ``seed_pair``: a (left column, right column) pair, a list of pairs, or a dict; only
    predicates containing it are considered (the pair a search found). ``max_pairs`` /
    ``time_limit`` (seconds) / ``max_nodes`` bound the search (result ``complete=False`` when
    one stops it). Tables with more than ``max_rows`` rows (pandas or Spark) are searched on a
    sample and the best ``rescore`` predicates are re-scored exactly. ``pruning="invalid"``
    disables closed and bound pruning (the paper's ablation, [S Fig. 5]).
    """
    pref = get_preference(preference)
    left_name, right_name = _identifier(left_name, "left"), _identifier(right_name, "right")
    _check_frame(left, "left")
    _check_frame(right, "right")
    if max_rows < 1:
        raise QueryError("max_rows must be at least 1.")
    notes: list = []
    t0 = time.perf_counter()
    spark_input = is_spark_frame(left) or is_spark_frame(right)
    full_left, full_right = left, right
    sample_info = None
    if spark_input:
        l_s, l_n = _sample_spark(left, max_rows, random_state)
        r_s, r_n = _sample_spark(right, max_rows, random_state + 1)
    else:
        l_s, l_n = _sample_pandas(left, max_rows, random_state)
        r_s, r_n = _sample_pandas(right, max_rows, random_state + 1)
    l_s = _string_columns(l_s, "left")
    r_s = _string_columns(r_s, "right")
    sampled = l_n is not None or r_n is not None
    if sampled:
        sample_info = {"left_rows": len(l_s), "left_total": l_n or len(l_s),
                       "right_rows": len(r_s), "right_total": r_n or len(r_s)}
    if len(l_s) == 0 or len(r_s) == 0:
        raise QueryError("A table has no rows after sampling: nothing to join.")
    enc = encode(l_s, r_s)
    seed = _seed_pairs(seed_pair, enc.left_columns, enc.right_columns)
    t_enc = time.perf_counter() - t0
    state = SearchState(enc.left, enc.right, enc.n_values, pref, seed, pruning=pruning,
                        max_pairs=max_pairs, time_limit=time_limit, max_nodes=max_nodes)
    t1 = time.perf_counter()
    state.run()
    t_search = time.perf_counter() - t1
    if not state.complete:
        notes.append(f"the search stopped at its {state.stop_reason} after "
                     f"{state.counts['nodes']:,} predicates: the best one found so far is shown, "
                     f"a better one may exist (raise time_limit / max_nodes)")
    if max_pairs is not None:
        notes.append(f"predicates were limited to {max_pairs} column pair(s)")

    def names(full):
        return [(enc.left_columns[a], enc.right_columns[b]) for a, b in full]

    # every scored predicate (visit order), and the comparison: best first, one row per
    # distinct join result (a predicate with a scored strict superset of the same join size
    # has the same result, Property 1; the superset stands for it), the answer first among ties
    visited = state.visited
    rows = [{"predicate": predicate_text(names(full)), "pairs": names(full), "n_pairs": len(full),
             **st.describe(), "visit": i + 1, "_full": full} for i, (full, st) in enumerate(visited)]
    scored = pd.DataFrame(rows)
    considered = scored.iloc[_comparison_order(visited, pref, state.best, max_considered)]
    considered = considered.reset_index(drop=True)
    best = state.best
    stats = state.best_stats.describe() if best is not None else {}
    n_left, n_right = len(l_s), len(r_s)

    if sampled and best is not None:
        n_left, n_right = sample_info["left_total"], sample_info["right_total"]
        considered, best, stats = _rescore(considered, pref, rescore, full_left, full_right,
                                           enc, spark_input, n_left, n_right, best)
        err = (considered[f"{pref.name}_sample"] - considered[pref.name]).abs().max()
        sample_info["max_abs_error"] = float(err) if pd.notna(err) else None
        notes.append(
            f"searched a uniform sample of {sample_info['left_rows']:,} of "
            f"{sample_info['left_total']:,} left rows and {sample_info['right_rows']:,} of "
            f"{sample_info['right_total']:,} right rows; the best {rescore} predicates of the "
            f"sample were re-scored exactly on the full tables (largest |{pref.name} sample - "
            f"exact| = {sample_info['max_abs_error']:.4g}); a predicate whose matches the "
            f"sample missed was not considered")
    if len(considered):
        considered.insert(0, "rank", np.arange(1, len(considered) + 1))
        considered["chosen"] = [f == best for f in considered["_full"]]
        if not sampled:
            shown = min(len(considered), 10)      # closedness of the rows a user sees first
            closed = [state.closed(f) for f in considered["_full"].iloc[:shown]]
            considered["closed"] = closed + [None] * (len(considered) - shown)
        considered = considered.drop(columns=["_full"])
    if len(scored):
        scored = scored.drop(columns=["_full"])
    search = {"nodes": state.counts["nodes"], "pruned_bound": state.counts["pruned_bound"],
              "pruned_closed": state.counts["pruned_closed"],
              "children_generated": state.counts["children"],
              "seconds_encode": t_enc, "seconds_search": t_search,
              "seconds_total": time.perf_counter() - t0, "pruning": pruning}
    if best is None:
        notes.append("no column pair shares a value" + (" with the seed pair" if seed else "")
                     + ": there is no valid join predicate")
    return PredicateResult(
        preference=pref.name, predicate=names(best) if best is not None else None, stats=stats,
        considered=considered, scored=scored, left_rows=n_left, right_rows=n_right,
        seed=names(seed), complete=state.complete, exact=not sampled, sample=sample_info,
        search=search, notes=notes, left_name=left_name, right_name=right_name,
        _left=full_left, _right=full_right)


def _comparison_order(visited, pref, best, limit: int) -> list:
    """Indices of the visited predicates to compare: best score first (the answer first
    among ties, then search order), skipping any predicate whose join result a scored strict
    superset already stands for (equal join size, Property 1)."""
    by_size: dict = {}
    for full, st in visited:
        by_size.setdefault(st.join, []).append(frozenset(full))
    scores = [float(pref.score(st)) for _, st in visited]
    order = sorted(range(len(visited)), key=lambda i: (-scores[i], visited[i][0] != best, i))
    out = []
    for i in order:
        full, st = visited[i]
        fs = frozenset(full)
        if any(fs < q for q in by_size[st.join]):
            continue
        out.append(i)
        if len(out) >= limit:
            break
    return out


def _sample_spark(frame, max_rows, seed):
    """(pandas sample, total rows or None when taken whole) of a pandas or Spark frame."""
    if not is_spark_frame(frame):
        return _sample_pandas(frame, max_rows, seed)
    from ..spark import fetch_results
    total = frame.count()
    if total <= max_rows:
        return fetch_results(frame.toPandas, "collecting the Spark frame to join"), None
    frac = min(1.0, max_rows * 1.05 / total)
    pdf = fetch_results(frame.sample(fraction=frac, seed=seed).limit(max_rows).toPandas,
                        f"collecting a sample of {max_rows:,} rows of the Spark frame")
    return pdf, total


def _rescore(considered, pref, rescore, full_left, full_right, enc, spark_input,
             n_left, n_right, best):
    """Re-score the best `rescore` sample predicates exactly on the full tables, re-rank."""
    top = considered.head(max(1, rescore)).copy()
    top[f"{pref.name}_sample"] = top[pref.name]
    if spark_input:
        exact = _spark_exact_stats(full_left, full_right, list(top["pairs"]), n_left, n_right)
    else:
        full = encode(full_left, full_right)
        exact = [_exact_stats_codes(full.left, full.right, full.n_values, f) for f in top["_full"]]
    desc = []
    for st in exact:
        desc.append(st.describe() if st is not None else None)
    for col in [c for c in top.columns if c in (desc[0] or {})]:
        top[col] = [d[col] if d else np.nan for d in desc]
    top = top.sort_values(pref.name, ascending=False, kind="stable").reset_index(drop=True)
    winner = top.iloc[0]
    stats = {k: winner[k] for k in (desc[0] or {})}
    stats = {k: (int(v) if k in ("join_size", "outer_join_size", "n_keys", "left_rows_matched",
                                 "right_rows_matched", "h1", "h2", "h3") else float(v))
             for k, v in stats.items()}
    return top, winner["_full"], stats
