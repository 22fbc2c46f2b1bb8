"""Auto-Join end to end (thesis §4.3): row pairs -> learned program -> constrained fuzzy join.

``autojoin(left, right)`` tries both directions (the other side supplies a key column: 1:1 or
N:1 only): sample (sampling.py, §4.5), row pairs (pairs.py, §4.4.1), the program joining the
most target keys (learn.py, §4.4.2), composite keys (composite.py, §4.4.3), fuzzy (§4.6).
Note: unspecified in the thesis: a key column is ``key_ratio`` (0.9) distinct, 2+ values; a
    program joins ``min_coverage`` (3) keys, 1 untaught. Deviations (docs/algorithms/autojoin.md):
    - program sets, estimated precision (programset.py; short codes: chance.py; key parts: on
      whole values; else, and partial: row pairs, 69, 74; 81); a failing composite set of 4 retried
      without each example; 2-3 adjacent short columns probed joined; column matches intersected;
    - not accepted: numbers equated no more often than chance (``chance_matches``) unless one
      side is covered and most rows join; a refuted program; chance short codes (``_evidenced``);
    - 2-4 keys: short, all through most rows (``_acceptable``); ties: one value per key, more
      rows, smaller; relearned without varying constants, numbers whole, padded (``_generalised``);
    - variants equal on the examples scored where they join more rows, keeping its rows' keys
      (``_extends``); a residual-round replacement or key-adding branch passes ``_checks``; a
      refutation reads the bags apart, one evidence once; numbers among words face chance;
    - nearly every source row (``N1_ROWS``) onto 2+ keys: accepted, and, with half its rows
      confirmed by the row pairs, first over more keys through under 1/``N1_FEWER`` the rows;
    - ``_direction``: pairs containing the other's win, unless the other joins 1:1 and most
      extra ones are ties another key column's evidence gives to other rows (71) or namesakes
      lacking its pieces (75); then (unsampled) 1:1 with more rows of both (63), keys, ``prefer``;
    - learning stops at the most keys a target column holds; (unsampled) 1:1 with as many keys
      beats outputs onto a key of 2+ target rows (78); a varying constant field: read (79);
    - named columns: every branch keys from one of each named side's, else not found; several:
      1:1 through all (64-65); none: partial, half+ rows (68); N:1 loses to 1:1 by keys x
      estimate (77); non-key target: no folding (80); a field dropped the target writes:
      unjoined (82); casing: plain (83); letter constants relearned (84); row-own Replace (86);
    - integers cut into ones a dense target holds by chance: after a text program, estimated
      at chance; a gram its own key holds but for separators names no other key (87)."""
from __future__ import annotations

import dataclasses
import itertools
import re
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...errors import QueryError, a_kind
from ...frames import is_spark_frame
from ...lake.normalize import normalize_text
from ..keys import compared_keys
from ..preview import TYPE_SHARE, affix_free, chance_containment, integers_of
from .chance import chance_gain, chance_precision, code_rates, hit_rate
from .constant_fields import dropped_fields, replaced_field, unfolded, writes_digits
from .composite import key_parts
from .constant_partners import partner_examples, relearned
from .dsl import (Constant, Program, ProgramSet, Substring, apply_frame, cell_text,
                  column_texts, columns_of, compile_expr, plain_program)
from .fuzzy import constrained_fuzzy_join
from .learn import (N1_ROWS, Candidate, Example, LearnSettings, example_sets, generalised,
                    learn_from_set, moves_by_row_literal, no_digits, padded_variant, pair_example_sets, spread,
                    try_learn_transform, writes_source_field)
from .pairs import (ColumnValues, combined_pair_groups, find_joinable_row_pairs,
                    whole_key_groups)
from .programset import (SetSettings, estimated_precision, evidence_counts, key_owners,
                         learn_program_set, row_evidence)
from .sampling import bernoulli_rows, sample_rates


class AutoJoinInputError(QueryError):
    """The tables or columns given to Auto-Join cannot be used as given."""


@dataclass
class AutoJoinSettings:
    learn: LearnSettings = field(default_factory=LearnSettings)
    program_set: SetSettings = field(default_factory=SetSettings)
    key_ratio: float = 0.9          # KeyColumns: distinct / non-null values
    min_coverage: int = 3           # keys a program must join to be accepted
    min_score: float = 1 / 64       # q-gram pairs scoring below are dropped
    fuzzy: bool = True              # constrained fuzzy join after the equi-join
    max_distance: float = 0.5       # fuzzy pairs further apart are never considered
    fuzzy_max_values: int = 10_000  # above this many distinct values per side: no fuzzy step
    sample: str = "auto"            # "auto" (tables above sample_min_rows) | "always" | "never"
    sample_min_rows: int = 20_000
    participation: float = 0.1      # r of §4.5: fraction of target rows that join
    composite: bool = True          # split composite keys when both directions fail
    partial: bool = True            # then a partial program joining half the source rows
    seed: int = 0
    prefer: str | None = None       # "left" / "right": the source side a tie between the
                                    # directions goes to (a search hit's verified direction)


# ------------------------------------------------------------------ tables

class Table:
    """One side of the join: the pandas frame, its columns as text, and the row sample."""

    def __init__(self, frame: pd.DataFrame, label: str):
        self.frame = frame
        self.label = label
        self.labels = {}               # column name (str) -> original column label
        for c in frame.columns:
            if isinstance(c, tuple):
                raise AutoJoinInputError(f"The {label} table has a multi-level column index; "
                                         f"flatten it first (df.columns = [...]).")
            name = str(c)
            if name in self.labels:
                raise AutoJoinInputError(f"The {label} table has two columns named {name!r}; "
                                         f"rename one (df.columns = [...]) and try again.")
            self.labels[name] = c
        self.columns = list(self.labels)
        self.n_rows = len(frame)
        self.positions = np.arange(self.n_rows)
        self._sample_key = "all"
        self._cells: dict = {}
        self._values: dict = {}
        self._rows: dict = {}

    @property
    def sampled(self) -> bool:
        return len(self.positions) < self.n_rows

    def sample(self, rate: float, seed: int) -> None:
        """Bernoulli(rate) rows; the same (rate, seed) as the current sample keeps it, with
        its texts and suffix indexes (the composite step re-samples with the same rates)."""
        if rate >= 1.0:
            self.use_all()
            return
        if self._sample_key == (rate, seed):
            return
        self._sample_key = (rate, seed)
        self.positions = bernoulli_rows(self.n_rows, rate, seed)
        self._cells.clear()
        self._values.clear()
        self._rows.clear()

    def use_all(self) -> None:
        """Every row (no sample); the caches stay when every row was already in use, so an
        unsampled table's suffix indexes serve both directions instead of being rebuilt."""
        if self._sample_key == "all":
            return
        self._sample_key = "all"
        self.positions = np.arange(self.n_rows)
        self._cells.clear()
        self._values.clear()
        self._rows.clear()

    def cells(self, name: str) -> list:
        """The column's cells as text (None for nulls), for the sampled rows."""
        got = self._cells.get(name)
        if got is None:
            col = self.frame[self.labels[name]]
            if self.sampled:
                col = col.iloc[self.positions]
            got = column_texts(col)
            self._cells[name] = got
        return got

    def row(self, i: int) -> tuple:
        got = self._rows.get(i)
        if got is None:
            got = tuple(self.cells(c)[i] for c in self.columns)
            self._rows[i] = got
        return got

    def values(self, name: str) -> ColumnValues:
        got = self._values.get(name)
        if got is None:
            got = ColumnValues.from_cells(name, self.cells(name))
            self._values[name] = got
        return got

    def has_values(self, name: str) -> bool:
        """Does the column (its sampled rows) hold a non-blank cell? Stops at the first."""
        col = self.frame[self.labels[name]]
        if self.sampled:
            col = col.iloc[self.positions]
        for v in col:
            t = v if type(v) is str else cell_text(v)
            if t is not None and t.strip():
                return True
        return False

    def is_key(self, name: str, ratio: float) -> bool:
        vals = [v for v in self.cells(name) if v is not None]
        distinct = len(set(vals))
        return distinct >= 2 and distinct >= ratio * len(vals)

    def sample_frame(self) -> pd.DataFrame:
        return self.frame.iloc[self.positions] if self.sampled else self.frame


def _check_input(obj, label: str) -> pd.DataFrame:
    if not isinstance(obj, pd.DataFrame):
        kind = "a Spark DataFrame" if is_spark_frame(obj) else a_kind(obj)
        raise AutoJoinInputError(f"Auto-Join needs pandas DataFrames; the {label} table is "
                                 f"{kind}. Convert it first (e.g. spark_df.toPandas()), or "
                                 f"call lakejoin_jupyter.autojoin, which takes a Spark first "
                                 f"table.")
    if obj.shape[1] == 0:
        raise AutoJoinInputError(f"The {label} table has no columns: nothing to join on.")
    if obj.shape[0] == 0:
        raise AutoJoinInputError(f"The {label} table is empty (no rows): nothing to join.")
    return obj


def _columns(table: Table, on, label: str) -> list | None:
    if on is None:
        return None
    names = [on] if not isinstance(on, (list, tuple)) else list(on)
    out = []
    for n in names:
        if str(n) not in table.labels:
            raise AutoJoinInputError(f"Column {n!r} is not in the {label} table; it has: "
                                     f"{table.columns[:30]}")
        if not table.has_values(str(n)):
            raise AutoJoinInputError(f"Column {n!r} of the {label} table has no values (all "
                                     f"null or empty): it cannot be joined. Pick another column.")
        out.append(str(n))
    return out


# ------------------------------------------------------------------ one direction

@dataclass
class DirectionResult:
    source: str                       # "left" or "right"
    best: Candidate | None
    candidates: list
    groups: list
    n_pairs: int
    n_sets: int
    key_columns: list
    target_parts: dict = field(default_factory=dict)   # derived key column -> KeyPart
    source_positions: object = None   # the row samples the pairs' row numbers refer to
    target_positions: object = None
    joined_pairs: frozenset = frozenset()   # (source row, target row) the best program joins


def learn_direction(src: Table, tgt: Table, src_on, tgt_on, settings: AutoJoinSettings,
                    target_columns: dict | None = None,
                    leave_one_out: bool = False, partial: bool = False,
                    dropped: dict | None = None) -> DirectionResult:
    """Steps 2-3 for one direction. ``target_columns`` (name -> cells) replaces the target's
    key columns (the composite fallback passes key parts here); ``leave_one_out``: a failing
    example set of 4 is retried without each example (:func:`~.learn.learn_from_set`; the
    composite fallback does, which runs only when nothing else was found); ``partial``: the
    pass run when nothing at all was found (deviation 68: whole keys of any kind as pairs,
    example sets of 2, the program joining the most source rows, half of them at least);
    ``dropped``: per key part, the digit fields of its column it leaves out
    (constant_fields.py)."""
    src_cols = src_on or [c for c in src.columns if src.has_values(c)]
    not_keys: set = set()       # named target columns that are no key (deviation 80)
    if target_columns is None:
        key_cols = tgt_on or [c for c in tgt.columns
                              if tgt.has_values(c) and tgt.is_key(c, settings.key_ratio)]
        target_columns = {c: tgt.cells(c) for c in key_cols}
        t_vals = [tgt.values(c) for c in key_cols]
        not_keys = {c for c in (tgt_on or ()) if not tgt.is_key(c, settings.key_ratio)}
    else:
        t_vals = [ColumnValues.from_cells(c, cells) for c, cells in target_columns.items()]
    s_vals = [src.values(c) for c in src_cols]
    if src_on is None or len(src_on) > 1:   # several named: probed joined too (dev. 64)
        s_vals += joined_columns(src, src_cols)
    groups = find_joinable_row_pairs(s_vals, t_vals, settings.min_score)
    if len(src_cols) > 1:
        groups += combined_pair_groups(groups, {c: src.cells(c) for c in src_cols},
                                       settings.min_score)
        groups.sort(key=lambda g: (-g.average_score, -len(g.pairs)))
    if partial:
        groups += whole_key_groups(s_vals, t_vals)
    ls = settings.learn
    cache: dict = {}
    found: dict = {}
    several = bool(src_on) and len(src_on) > 1     # a key over several named columns: a
    n_sets = _learn_round(groups, ls, src, target_columns, settings, cache, found,  # set
                          leave_one_out or several, src_on,  # of 4 retried without each
                          pair_example_sets(groups, ls) if partial else None)
    candidates = _unfolded(_ranked(found), found, src, target_columns, ls, cache)
    if src_on:          # the column(s) asked for: a program reading none of them is not it
        candidates = [c for c in candidates if _reads(c.program, src_on)]
    n_keys = {c: len({v for v in cells if v is not None}) for c, cells in target_columns.items()}
    n_rows = len(src.positions)

    def passes(c, chance: bool = True) -> bool:     # chance: deviation 31's test too
        tcells = target_columns[c.target_column]
        if c.target_column in not_keys and _folds(c.program, src, tcells, settings.key_ratio):
            c.extra["many_to_many"] = True  # values folded onto a named non-key column (80)
            return False
        if partial:     # rows decide, and the row pairs confirm rows (as in deviation 34)
            return (_partial_acceptable(c, n_rows) and not _by_chance(c, src, tcells)
                    and 2 * _paired_rows(c, src, tcells, groups) >= c.joined_rows)
        return (_acceptable(c, settings, n_keys[c.target_column], n_rows)
                and not (chance and _by_chance(c, src, tcells))
                and not _refuted(c, src, tcells, groups)
                and not _writes_other_field(c.program, src,
                                            (dropped or {}).get(c.target_column, ()))
                and not _moves_by_row_literal(c.program, src, tcells))
    passing = (c for c in candidates if passes(c))
    if partial:         # the most source rows joined, then keys, then the smaller (dev. 68)
        best = max(passing, key=lambda c: (c.joined_rows, c.coverage, -c.program.size),
                   default=None)
    else:
        best = next(passing, None)
    if best is not None and not partial:    # a win by chance short codes (dev. 47)
        best = _evidenced(best, candidates, passes, src, target_columns[best.target_column])
        passing = (c for c in candidates[candidates.index(best) + 1:] if passes(c))
    if best is not None and not partial and _row_numbers(best, src,
                                                         target_columns[best.target_column]):
        # integers meeting a dense sequence: a text program first (deviation 87)
        text = next((c for c in candidates if passes(c) and not _row_numbers(
            c, src, target_columns[c.target_column])), None)
        if text is not None:
            best = text
            passing = (c for c in candidates[candidates.index(best) + 1:] if passes(c))
    if best is not None and not partial and best.joined_rows * N1_FEWER < n_rows:
        # a program joining nearly every source row into fewer keys first (deviation 34)
        many = [c for c in passing if c.joined_rows >= N1_ROWS * n_rows
                and c.joined_rows > N1_FEWER * best.joined_rows
                and 2 * _paired_rows(c, src, target_columns[c.target_column], groups)
                >= c.joined_rows]
        best = max(many, key=lambda c: (c.joined_rows, c.coverage, -c.program.size),
                   default=best)
    if best is not None:
        best = _generalised(best, src, target_columns[best.target_column], ls, cache, passes,
                            src_on)
        best = _partnered(best, src, target_columns[best.target_column], ls, cache, passes,
                          src_on)
        tcells = target_columns[best.target_column]
        first = best
        best = learn_program_set(best, candidates, groups, src, tcells, settings, cache,
                                 _checks(src, tcells, groups, best.target_column))
        if src_on and not _reads(best.program, src_on):
            best = first        # a replacement reading none of the asked columns
        _estimate(best, src, tcells, groups, partial)
        if not partial:     # an N:1 join trading right keys for more keys (deviation 77)
            best = _one_to_one_instead(best, candidates, passes, src, tcells, groups, src_on)
        best = _unfold_rows(best, src, tcells, groups, partial)
    pairs = frozenset() if best is None else _joined_pairs(
        best.program, src, tgt, target_columns[best.target_column])
    return DirectionResult("", best, candidates, groups, sum(len(g.pairs) for g in groups),
                           n_sets, list(target_columns), source_positions=src.positions,
                           target_positions=tgt.positions, joined_pairs=pairs)


def _unfold_rows(best: Candidate, src: Table, tcells: list, groups: list,
                 partial: bool) -> Candidate:
    """``best`` with its rows folded onto another row's key (a dropped field the other side
    writes beside the output: "+05:30" -> "UTC+5" beside "UTC+5:30") left unjoined under a
    guard (constant_fields.unfolded, deviation 82), measured again."""
    program = best.program
    if len(program.columns) != 1 or isinstance(program, ProgramSet):
        return best
    cells = src.cells(program.columns[0])
    outs = [None if o is None else _compared(o) for o in
            program.evaluate({program.columns[0]: cells}, len(cells))]
    guarded = unfolded(program, cells, outs, {_compared(v) for v in tcells if v is not None})
    if guarded is program:
        return best
    out = dataclasses.replace(best, program=guarded, extra=dict(best.extra))
    out.extra["unfolded"] = program
    _coverage(out, src, tcells)
    _estimate(out, src, tcells, groups, partial)
    return out


def _estimate(cand: Candidate, src: Table, tcells: list, groups: list,
              partial: bool = False) -> float | None:
    """The estimated precision of ``cand``'s join, stored in its ``extra`` with its basis:
    the independent evidence (programset.py), else, for short codes, the chance rate
    (deviation 47), else the row pairs (deviation 69; the partial pass's only basis); each
    less the rows a guard sent to one of several keys the pairs name alike (deviation 81)."""
    evidence = groups if partial else _without_own_grams(cand, src, tcells, groups)
    est = None if partial else estimated_precision(cand.program, src, tcells, evidence,
                                                   cand.target_column, cand.examples)
    if est is None and not partial:
        est = _chance_precision(cand.program, src, tcells)
        if est is not None:
            cand.extra["precision_basis"] = "chance"
    if est is None:
        est = _pair_precision(cand, src, tcells, groups)
        if est is not None:
            cand.extra["precision_basis"] = "pairs"
    if est is not None:
        est *= 1 - guard_choice_share(cand, src, tcells, groups)
    if not partial and _row_numbers(cand, src, tcells):
        # keys a dense sequence holds whatever they are: chance explains them (deviation 87)
        _by_chance(cand, src, tcells)
        expected = cand.extra.get("chance_matches") or 0.0
        beyond = max(0.0, 1.0 - expected / cand.coverage) if cand.coverage else 0.0
        if est is None or beyond < est:
            est = beyond
            cand.extra["precision_basis"] = "chance"
    cand.extra["estimated_precision"] = est
    return est


def guard_choice_share(cand: Candidate, src: Table, tcells: list, groups: list) -> float:
    """The share of the joined rows (not taught) a guard of ``cand``'s program sends to one
    of k keys its branches derive for the row, counted as wrong by 1 - 1/k where the row's
    pairs in step 1 do not single out the chosen key (they name another of the k too, or
    not the chosen one; deviation 81): the row had several candidate keys, and a guard
    learned from the sampled examples chose among them (a schema's shape picking `_ops.h`
    over `.h`, both named by the operator's pairs); that choice is no evidence, whatever
    basis the rest rests on. A guard the pairs bear out ("Na+" onto "Na", not "N") costs
    nothing. A branch before the chosen one counts where its guard fails; a later one where
    the chosen branch has a guard (an unguarded earlier branch is an order of preference)."""
    branches = getattr(cand.program, "branches", None)
    if not branches or all(g is None for g, _p in branches):
        return 0.0
    partners, keys, _outs, cells = row_partners(cand, src, tcells, groups)
    n = len(src.positions)
    outs = [p.evaluate({c: src.cells(c) for c in p.columns}, n) for _g, p in branches]
    holds = [[True] * n if g is None else [g.test(cell) for cell in src.cells(g.column)]
             for g, _p in branches]
    taught = {ex.source_row for ex in cand.examples}
    joined = lost = 0
    for i in range(n):
        chosen = next((b for b in range(len(branches))
                       if holds[b][i] and outs[b][i] is not None), None)
        if chosen is None or i in taught or outs[chosen][i] not in keys:
            continue
        joined += 1
        o = outs[chosen][i]
        others = {outs[c][i] for c in range(len(branches))
                  if c != chosen and (not holds[c][i] if c < chosen
                                      else branches[chosen][0] is not None)
                  and outs[c][i] is not None and outs[c][i] in keys and outs[c][i] != o}
        if not others:
            continue
        named = set()
        for c, found in partners.items():
            named |= found.get(cells[c][i], set())
        if o not in named or not named.isdisjoint(others):
            lost += 1 - 1 / (1 + len(others))
    return lost / joined if joined else 0.0


def _one_to_one_instead(best: Candidate, candidates: list, passes, src: Table, tcells: list,
                        groups: list, src_on) -> Candidate:
    """``best``, unless its join is N:1 (some key joined through 2+ source rows) and the
    first accepted first-round program on its target column that joins 1:1, reaching at
    least half of its keys but not all, joins more keys weighted by estimated precision
    (keys joined x estimate): then that one (deviation 77). MaxByCoverage counts a key
    joined through rows of other keys as joined; a key column's value is one row's, so a
    program folding many of them onto one key where another joins each once is trading
    right keys for more keys ("010" + the last digits of any state's ZIP: 20 keys at 47 %
    against 14 at 100 %).
    Where ``best`` joins numbers within twice the matches chance predicts (accepted as
    covering one side, deviation 31), that test does not refuse the 1:1 program: both
    are then within chance by that count, and the estimate decides."""
    keys = {v for v in tcells if v is not None}
    est = best.extra.get("estimated_precision")
    if est is None or _one_row_per_key(_outputs(best.program, src), keys):
        return best
    _by_chance(best, src, tcells)
    expected = best.extra.get("chance_matches")
    chance = expected is None or best.coverage > 2 * expected
    for c in candidates:
        if (c.target_column != best.target_column or c.program == best.program
                or 2 * c.coverage < best.coverage or c.joined_rows != c.coverage
                or (src_on and not _reads(c.program, src_on)) or not passes(c, chance)):
            continue
        if c.coverage >= best.coverage:
            return best      # no key traded: more rows onto the same keys (deviation 38)
        alt = dataclasses.replace(c, extra=dict(c.extra))
        alt_est = _estimate(alt, src, tcells, groups)
        return alt if alt_est is not None and alt.coverage * alt_est > best.coverage * est \
            else best
    return best


UNFOLD_TRIES = 8         # candidates ranked first that deviation 55 may learn again unfolded


def _unfolded(candidates: list, found: dict, src: Table, target_columns: dict,
              ls: LearnSettings, cache: dict) -> list:
    """``candidates`` ranked again where one of the first ``UNFOLD_TRIES`` folds distinct
    source values onto a key and writes a constant with a digit, and the program learned
    again from its examples writing no digit as a constant joins as many keys and folds
    at most half as many values: that program (or its padded variant, where that joins
    more; deviation 58) replaces it in ``found`` (deviation 55:
    "2014-07-" + the day sends every month's day onto one month's keys; the month is a
    field varying across the source; the folding program is neither an N:1 join nor a
    chance alternative)."""
    dropped = []
    for c in candidates[:UNFOLD_TRIES]:
        if c.extra.get("folds", 0) <= 0 or not any(
                isinstance(p, Constant) and not no_digits(p.text)
                for p in getattr(c.program, "pieces", ())):
            continue
        program = try_learn_transform(c.examples, src.columns, ls, cache,
                                      constant_ok=no_digits, whole_rows=_spread_rows(src))
        if program is None:
            continue
        cand = None         # the program or its padded variant, as the first round ranks them
        for prog in (program, padded_variant(program, c.examples, src.columns)):
            got = None if prog is None else found.get((prog, c.target_column))
            if prog is not None and got is None:
                got = Candidate(prog, c.group, c.target_column, c.examples)
                _coverage(got, src, target_columns[c.target_column])
            if got is not None and (cand is None or (got.coverage, got.joined_rows)
                                    > (cand.coverage, cand.joined_rows)):
                cand = got
        if cand.coverage < c.coverage or 2 * cand.extra["folds"] > c.extra["folds"]:
            continue                # the constant is not what folds most of its values
        dropped.append((c.program, c.target_column))
        found[(cand.program, c.target_column)] = cand
    for key in dropped:
        found.pop(key, None)
    return _ranked(found) if dropped else candidates


def _spread_rows(src: Table) -> list:
    """Source rows spread evenly over the (sampled) table (:func:`~.learn.spread`)."""
    return [src.row(i) for i in spread(range(len(src.positions)))]


def _generalised(best: Candidate, src: Table, tcells: list, ls: LearnSettings, cache: dict,
                 passes, src_on) -> Candidate:
    """``best``, or the program learned again from its examples writing no constant that is
    a piece of a field varying across the target column, when that one joins as many keys
    and rows and passes the same checks (deviation 55); whatever it joins where ``best``
    writes as a constant a field its examples' sources hold and other rows vary (79)."""
    whole_rows = _spread_rows(src)
    program = generalised(best.program, best.examples, src.columns, ls, cache, tcells,
                          whole_rows=whole_rows)
    if program is None or (src_on and not _reads(program, src_on)):
        return best
    cand = Candidate(program, best.group, best.target_column, best.examples,
                     learned_times=best.learned_times)
    _coverage(cand, src, tcells)
    if writes_source_field(best.program, best.examples, whole_rows):
        return cand if cand.coverage and passes(cand) else best   # (deviation 79)
    if (cand.coverage >= best.coverage and cand.joined_rows >= best.joined_rows
            and cand.extra["folds"] <= best.extra.get("folds", 0) and passes(cand)):
        return cand
    return best


def _partnered(best: Candidate, src: Table, tcells: list, ls: LearnSettings, cache: dict,
               passes, src_on) -> Candidate:
    """``best``, or a program learned again from its examples with a row whose one partner
    key differs from its output only at a constant of letters (:mod:`.constant_partners`),
    when it joins more keys, as many rows, folds no more values and passes the same
    checks (deviation 84)."""
    n = len(src.positions)
    texts = {c: src.cells(c) for c in best.program.columns}
    partners = partner_examples(best.program, texts, n, tcells)
    if not partners:
        return best
    chosen = best
    for program, taught in relearned(best.program, best.examples, partners, src.row,
                                     src.columns, ls, cache):
        if src_on and not _reads(program, src_on):
            continue
        cand = Candidate(program, best.group, best.target_column, taught,
                         learned_times=best.learned_times)
        _coverage(cand, src, tcells)
        if (cand.coverage > chosen.coverage and cand.joined_rows >= best.joined_rows
                and cand.extra["folds"] <= best.extra.get("folds", 0) and passes(cand)):
            chosen = cand
    return chosen


def _joined_pairs(program, src: Table, tgt: Table, tcells: list) -> frozenset:
    """The (source row, target row) pairs, as row numbers of the whole tables, that the
    program's keys equi-join on the (sampled) rows, through keys one target row holds (a
    key several target rows hold gives its source rows no one partner; deviation 49)."""
    rows: dict = {}
    for j, v in enumerate(tcells):
        if v is not None:
            rows[v] = -1 if v in rows else int(tgt.positions[j])
    return frozenset((int(src.positions[i]), rows[o]) for i, o in
                     enumerate(_outputs(program, src)) if o is not None and rows.get(o, -1) >= 0)


def _folds(program, src: Table, tcells: list, ratio: float) -> bool:
    """Does the program derive the keys it joins from distinct source values, fewer than
    ``ratio`` keys per value (the source cells it reads, on the rows in use)? Onto a target
    column that is no key, such a join is N:M (deviation 80)."""
    keys = {v for v in tcells if v is not None}
    inputs = zip(*(src.cells(c) for c in program.columns))
    joined = {(value, out) for value, out in zip(inputs, _outputs(program, src))
              if out is not None and out in keys}
    return len({out for _, out in joined}) < ratio * len(joined)


def _moves_by_row_literal(program, src: Table, tcells: list) -> bool:
    """:func:`~.learn.moves_by_row_literal` on the (sampled) source rows (deviation 86)."""
    keys = {v for v in tcells if v is not None}
    return moves_by_row_literal(program, {c: src.cells(c) for c in program.columns},
                                len(src.positions), keys.__contains__) is not None


def _outputs(program, src: Table) -> list:
    """The program's output for each (sampled) source row."""
    return program.evaluate({c: src.cells(c) for c in program.columns}, len(src.positions))


def _chance_precision(program, src: Table, tcells: list) -> float | None:
    """The estimated precision of a join of short codes, which have no independent evidence:
    from the rows whose output is no key, at the rate of the outputs' characters
    (deviations 47-48), and the inputs folded onto one key (deviation 54)."""
    inputs = list(zip(*(src.cells(c) for c in program.columns)))
    return chance_precision(_outputs(program, src), {v for v in tcells if v is not None},
                            inputs)


def _evidenced(best: Candidate, candidates: list, passes, src: Table, tcells: list):
    """The first-ranked program, unless it wins over a program it ranks before (one it
    joins every key of, on the same target column) only by keys that chance hits of short
    codes among its differing outputs explain (:func:`~.chance.chance_gain`); then that
    program, checked the same way against the ones after it (deviation 47)."""
    keys = {v for v in tcells if v is not None}
    rates = code_rates(keys)
    outs = _outputs(best.program, src)
    short = len({o for o in outs if o is not None and o in keys and hit_rate(o, rates) > 0})
    if not short:
        return best
    i = candidates.index(best)
    for c in candidates[i + 1:]:
        if c.target_column != best.target_column or c.coverage >= best.coverage:
            continue
        if best.coverage - c.coverage > short:
            break             # ranked by coverage: no later gain is chance hits alone
        if not passes(c):
            continue
        other = _outputs(c.program, src)
        if chance_gain(outs, other, keys, rates):
            best, outs = c, other
            short = len({o for o in outs if o is not None and o in keys
                         and hit_rate(o, rates) > 0})
    return best


def _reads(program, columns) -> bool:
    """Does the program derive its keys from one of ``columns`` (the columns the caller
    named)? Every branch's program (a guard only selects rows) reads one, and more than
    single letters of it where it also reads another column (one letter of a country name
    beside another column's code is no derivation)."""
    named = set(columns)
    for prog in getattr(program, "programs", [program]):
        pieces = [p for p in prog.pieces if named & set(columns_of(p))]
        if not pieces:
            return False
        if set(prog.columns) - named and all(_one_letter(p) for p in pieces):
            return False
    return True


def _one_letter(piece) -> bool:
    """Is the piece one letter of its operand ("letter 3 of `land`")?"""
    if not isinstance(piece, Substring):
        return False
    a, b = piece.start, piece.stop
    a = 0 if a is None and b is not None and b > 0 else a
    return (a is not None and b is not None and b - a == 1) or (a == -1 and b is None)


def _checks(src: Table, tcells: list, groups: list, target_column: str):
    """The checks a first-round program passes, for a program the residual rounds learn
    that would replace it (programset.py, deviation 33)."""
    def accept(program, examples, scored) -> bool:
        cand = Candidate(program, -1, target_column, examples)
        cand.coverage, cand.joined_rows = scored.coverage, scored.joined_rows
        return (not _by_chance(cand, src, tcells) and not _refuted(cand, src, tcells, groups)
                and not _writes_other_field(program, src))
    return accept


def _writes_other_field(program, src: Table, also_written=()) -> bool:
    """Does the program (or the key part it joins, ``also_written``) write a constant digit
    field where the source's values hold another ("2024" + ... of visits from 2023;
    constant_fields.py)?"""
    if not also_written and not writes_digits(program):
        return False                    # the common case: no outputs computed
    cells = [src.cells(c) for c in program.columns]
    rows = [" ".join(str(v) for v in row if v is not None) for row in zip(*cells)]
    return replaced_field(program, rows, _outputs(program, src), also_written) is not None


MAX_JOINED_CHARS = 6


def joined_columns(src: Table, columns: list) -> list:
    """Keys spread over adjacent short columns (year, month, day; season, episode): every
    run of 2-3 adjacent columns whose cells are all at most ``MAX_JOINED_CHARS`` long,
    joined with spaces, as an extra column for finding row pairs only (the learner reads
    the row's real columns)."""
    short = [all(v is None or len(v) <= MAX_JOINED_CHARS for v in src.cells(c))
             for c in columns]
    out = []
    for width in (2, 3):
        for i in range(len(columns) - width + 1):
            run = columns[i:i + width]
            if not all(short[i:i + width]):
                continue
            cells = [None if None in row else " ".join(row)
                     for row in zip(*(src.cells(c) for c in run))]
            out.append(ColumnValues.from_cells(" + ".join(run), cells))
    return out


def _ranked(found: dict) -> list:
    candidates = list(found.values())
    # equal coverage: the program joining more source rows first (deviation 27)
    # ... and a program learned before one equal to it on its examples (deviation 46)
    # ... and, before both, one giving each key it joins from one distinct value over one
    # folding distinct values onto a key ("port-00" + last 3 digits of 194 and 1194; dev. 52)
    candidates.sort(key=lambda c: (-c.coverage, c.extra.get("folds", 0) > 0, -c.joined_rows,
                                   "variant" in c.extra, c.program.size, -c.learned_times))
    return candidates


def _learn_round(groups, ls: LearnSettings, src: Table, target_columns: dict,
                 settings: AutoJoinSettings, cache: dict, found: dict,
                 leave_one_out: bool = False, named: list | None = None,
                 drawn: list | None = None) -> int:
    """Algorithm 5 over the groups' example sets: each program learned is added to
    ``found`` (program, target column) -> Candidate with its coverage; returns the number
    of example sets tried. ``named``: the source columns the caller named; a program
    reading none of them (another column holding the same text) is learned again from
    the named columns alone, as the composite step does. ``drawn``: the partial pass's
    example sets per group (deviation 68), all tried up to ``max_sets``: its programs rank
    by rows joined, so keys joined stop nothing early."""
    n_sets = 0
    best_cov = max((c.coverage for c in found.values()), default=0)
    key_counts = {c: len({v for v in cells if v is not None})
                  for c, cells in target_columns.items()}
    by_keys = drawn is None
    if by_keys:
        drawn = example_sets(groups, ls, key_counts, len(src.positions),
                             lambda g: _group_rows(g, src))
    for gi, sets in enumerate(drawn):
        column = groups[gi].target_column
        tcells = target_columns[column]
        top = [Example(src.row(p.source_row), tcells[p.target_row], p.source_row, p.target_row)
               for p in groups[gi].top(ls.top_k)]
        idle = 0
        tried = {frozenset((p.source_row, p.target_row) for p in pairs) for pairs in sets}
        for pairs in sets:
            if n_sets >= ls.max_sets or (by_keys and idle >= ls.patience
                                         and best_cov >= settings.min_coverage):
                break
            n_sets += 1
            idle += 1
            examples = [Example(src.row(p.source_row), tcells[p.target_row], p.source_row,
                                p.target_row) for p in pairs]
            if any(ex.output is None for ex in examples):
                continue
            taught = {(ex.source_row, ex.target_row) for ex in examples}
            validation = [ex for ex in top if (ex.source_row, ex.target_row) not in taught
                          and ex.output is not None]
            variants: list = []
            program, examples = learn_from_set(examples, src.columns, ls, cache, validation,
                                               tried, leave_one_out, variants=variants)
            if program is not None and named and not _reads(program, named):
                program, examples, variants = _learn_named(examples, src.columns, named, ls,
                                                           cache, validation)
            if program is None:
                continue
            # the program, then its padded variant (ties keep the program: ranked stably),
            # then the programs equal to it on the examples (deviation 46: ranked after
            # it unless they join more keys or rows)
            for prog in (program, padded_variant(program, examples, src.columns),
                         *variants):
                if prog is None:
                    continue
                key = (prog, column)
                if key in found:
                    if prog in variants:
                        continue
                    found[key].learned_times += 1
                    found[key].extra.pop("variant", None)
                    continue
                if prog in variants and not _extends(prog, program, src, tcells):
                    continue
                cand = found[key] = Candidate(prog, gi, column, examples)
                if prog in variants:
                    cand.extra["variant"] = True
                _coverage(cand, src, tcells)
                if cand.coverage > best_cov:
                    best_cov, idle = cand.coverage, 0
        if by_keys and best_cov and best_cov >= max(key_counts.values()) \
                and n_sets >= ls.patience:
            break            # as many keys as any column has: nothing can do better (78)
    return n_sets


def _learn_named(examples: list, columns: list, named: list, ls: LearnSettings, cache: dict,
                 validation: list) -> tuple:
    """(program, examples, variants) learned from the ``named`` columns of the examples'
    rows alone; the examples are returned with their whole rows."""
    at = [columns.index(c) for c in named]

    def alone(exs):
        return [dataclasses.replace(ex, row=tuple(ex.row[i] for i in at)) for ex in exs]
    variants: list = []
    program = try_learn_transform(alone(examples), named, ls, cache, alone(validation),
                                  variants)
    return program, examples, variants


def _extends(variant, program, src: Table, target_cells: list) -> bool:
    """Whether ``variant`` (equal to ``program`` on its examples) gives every source row
    ``program`` joins the same key and joins more rows, onto keys ``program`` joins
    (deviation 46): "first 2 letters of part 2 (split at '_')" beside "part 1 (split at
    '.') of part 2 (split at '_')" gives "de_AT@euro" the key of "de_AT.UTF-8"."""
    keys = {v for v in target_cells if v is not None}
    n = len(src.positions)
    a = program.evaluate({c: src.cells(c) for c in program.columns}, n)
    b = variant.evaluate({c: src.cells(c) for c in variant.columns}, n)
    joined = {x for x in a if x is not None and x in keys}
    gained = 0
    for x, y in zip(a, b):
        if x is not None and x in keys:
            if y != x:
                return False
        elif y is not None and y in keys:
            if y not in joined:
                return False        # a key of its own: another program, not this one's reach
            gained += 1
    return gained > 0


def _group_rows(group, src: Table) -> int:
    """Source rows a group's pairs pair: every row holding a paired value of a real column
    (a value's pairs are made for its first row only and hold for every row holding it, as
    in :func:`_paired_rows`; deviation 40), the pairs' own rows for a joined or combined
    column."""
    rows = {p.source_row for p in group.pairs}
    if group.source_column not in src.columns:
        return len(rows)
    column = src.cells(group.source_column)
    values = {column[i] for i in rows}
    return sum(1 for v in column if v in values)


def _coverage(cand: Candidate, src: Table, target_cells: list) -> None:
    """MaxByCoverage's measure: distinct target keys the program's output equi-joins."""
    keys = {v for v in target_cells if v is not None}
    used = cand.program.columns
    f = cand.program.compile(used)
    cache: dict = {}
    joined_keys, joined_rows = set(), 0
    for row in zip(*(src.cells(c) for c in used)):
        out = cache.get(row, cache)
        if out is cache:
            out = f(row)
            cache[row] = out
        if out is not None and out in keys:
            joined_keys.add(out)
            joined_rows += 1
    taught = {ex.output for ex in cand.examples}
    cand.coverage = len(joined_keys)
    cand.joined_rows = joined_rows
    # distinct values beyond one per joined key: values the program folds together (dev. 52)
    cand.extra["folds"] = sum(1 for out in cache.values()
                              if out is not None and out in keys) - len(joined_keys)
    cand.extra["beyond_examples"] = len(joined_keys - taught)


_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def chance_matches(outputs, keys) -> float | None:
    """How many distinct numbers two sets of numeric strings would share if drawn
    independently and uniformly over their common range (at the finest resolution either
    writes): ``n_c n_k / slots``; None when either set holds a value that is not a number."""
    counts = _in_range(outputs, keys)
    return None if counts is None else counts[0]


def _in_range(outputs, keys) -> tuple | None:
    """(chance matches, distinct outputs, distinct keys inside the common range), or None
    when either set is empty or holds a value that is not a number."""
    if not outputs or not keys or not all(_NUMBER.fullmatch(v) for v in outputs) \
            or not all(_NUMBER.fullmatch(v) for v in keys):
        return None
    cs, ks = [float(v) for v in outputs], [float(v) for v in keys]
    lo, hi = max(min(cs), min(ks)), min(max(cs), max(ks))
    if hi < lo:
        return 0.0, 0, 0
    decimals = max(len(v) - v.index(".") - 1 if "." in v else 0
                   for v in itertools.chain(outputs, keys))
    slots = (hi - lo) * 10 ** decimals + 1
    n_c = sum(lo <= v <= hi for v in cs)
    n_k = sum(lo <= v <= hi for v in ks)
    return n_c * n_k / slots, n_c, n_k


def _by_chance(cand: Candidate, src: Table, target_cells: list) -> bool:
    """A program whose outputs and keys are numbers (counts, amounts, ids) and which joins
    no more than twice as many keys as independent numbers over the same range would share
    by chance is a coincidence, not a join, unless it covers one side (80 % of the smaller
    of its distinct outputs and the target's keys: a code join, "12" -> "012") and either
    joins most (half) of the source's rows or meets half of the other side's numbers
    inside the common range: survey ids 1..1613 meet all 11 counts of a summary table,
    every one by chance, through 11 rows (deviation 31; stored in ``extra``). When every
    key is a number, the outputs that are numbers are tested, whatever the other outputs
    are: two digits of a release's text against a time stamp's minutes (deviation 49)."""
    if "by_chance" not in cand.extra:
        used = cand.program.columns
        texts = {c: src.cells(c) for c in used}
        n = len(texts[used[0]]) if used else 0
        outputs = {v for v in cand.program.evaluate(texts, n) if v}
        keys = {v for v in target_cells if v}
        if keys and all(_NUMBER.fullmatch(k) for k in keys):
            # an output that is no number meets no number key: the numbers are the draws
            outputs = {v for v in outputs if _NUMBER.fullmatch(v)}     # (deviation 49)
        counts = _in_range(outputs, keys)
        expected = None if counts is None else counts[0]
        cand.extra["chance_matches"] = expected
        cand.extra["by_chance"] = (
            counts is not None and cand.coverage <= 2 * expected
            and (cand.coverage < 0.8 * min(len(outputs), len(keys))
                 or (cand.joined_rows < 0.5 * n
                     and cand.coverage < 0.5 * max(counts[1], counts[2]))))
    return cand.extra["by_chance"]


def _row_numbers(cand: Candidate, src: Table, target_cells: list) -> bool:
    """Does the program cut integers (the source columns it reads: ``TYPE_SHARE`` of their
    distinct values) into other integers (on most joined rows the output's number is none
    of the row's) that a dense sequence among the target's keys holds no more often than
    its density would (join/preview.py ``chance_containment``, each side without its
    common affixes, as the search's ``numbers_by_density``)? Line numbers cut to three
    digits meet another file's line numbers 4..456 whatever they are: such a join is
    chance, not a key (deviation 87; stored in ``extra``). A number read whole ("12" or
    "012" onto 12) is an id, dense or not: a president's number onto his number."""
    if "row_numbers" not in cand.extra:
        used = cand.program.columns
        columns = [src.cells(c) for c in used]
        numbers = bool(used) and all(
            len(integers_of(vals)) >= TYPE_SHARE * len(vals)
            for vals in ({v for v in cells if v is not None} for cells in columns) if vals)
        flag = False
        if numbers:
            made = _outputs(cand.program, src)
            keys = {v for v in target_cells if v is not None}
            joined = [(o, i) for i, o in enumerate(made) if o is not None and o in keys]
            cut = sum(1 for o, i in joined
                      if _integer(o) not in {_integer(cells[i]) for cells in columns})
            outs = sorted({o for o in made if o is not None})
            sides = [affix_free(outs), affix_free(sorted(keys))]
            flag = (2 * cut > len(joined)
                    and all(side and len(integers_of(side)) >= TYPE_SHARE * len(set(side))
                            for side in sides)
                    and chance_containment(sides[0], sides[1]) is not None)
        cand.extra["row_numbers"] = flag
    return cand.extra["row_numbers"]


def _integer(text) -> int | None:
    """The number the digits of ``text`` write ("RUN-007": 7), or None without a digit."""
    digits = re.sub(r"[^0-9]", "", text or "")
    return int(digits) if digits else None


MIN_REFUTING = 3


def _refuted(cand: Candidate, src: Table, target_cells: list, groups: list) -> bool:
    """A program that the independent evidence of the estimated precision (1-to-1 matches
    of 6+ characters, rare token bags) contradicts on most of the joined rows it covers,
    and on at least ``MIN_REFUTING`` of them, joins rows by chance: "2021-0" + a district
    number against dates whose token bags pair them with other days (stored in ``extra``).
    Rows whose evidence names the same partners and that get the same key (one value held
    by several rows) count once (deviation 49)."""
    if "refuted" not in cand.extra:
        groups = _without_own_grams(cand, src, target_cells, groups)
        agree, checked = evidence_counts(cand.program, src, target_cells, groups,
                                         cand.target_column, cand.examples, distinct=True,
                                         apart=True)
        cand.extra["refuted"] = checked - agree >= MIN_REFUTING and 2 * agree < checked
    return cand.extra["refuted"]


_ALNUM = re.compile(r"[^0-9a-z]+")


def _without_own_grams(cand: Candidate, src: Table, tcells: list, groups: list) -> list:
    """``groups`` without the pairs naming another key than the program's for that row by a
    gram that the program's own key holds once separators and case are dropped (a run of
    letters), but not as written: "_error_" pairs ``set_error_callback`` with
    ``GLFW_ERROR_REPORTING`` alone by its underscores, while ``glfwSetErrorCallback`` holds
    "error" as much, so the pair names neither key over the other (deviation 87). A gram
    the own key holds as written ("anywidget" in ``anywidget._cellmagic``) stays."""
    outs = _outputs(cand.program, src)

    def names_other(p) -> bool:
        o = outs[p.source_row] if p.source_row < len(outs) else None
        gram = _ALNUM.sub("", p.gram.casefold())
        return (o is None or tcells[p.target_row] == o or not gram
                or any(ch.isdigit() for ch in gram) or p.gram.casefold() in o.casefold()
                or gram not in _ALNUM.sub("", o.casefold()))
    return [dataclasses.replace(g, pairs=[p for p in g.pairs if names_other(p)])
            for g in groups]


def _paired_rows(cand: Candidate, src: Table, tcells: list, groups: list) -> int:
    """Joined source rows whose derived key is one of the row's candidate partners (step 1's
    row pairs, any score; a value's pairs hold for every row holding it): the row pairs
    confirm an N:1 program through its rows, not a digit read as a year (deviation 34)."""
    return _row_pair_counts(cand, src, tcells, groups)[0]


def _pair_precision(cand: Candidate, src: Table, tcells: list, groups: list) -> float | None:
    """The estimate from the row pairs, where neither independent evidence nor the chance
    rate gives one, and for a partial program, which was accepted on them (deviation 69):
    of the joined rows not taught that have a candidate partner (as :func:`_paired_rows`;
    in a 1:1 join not one whose partners are all keys other rows get and confirm, as
    deviation 60 reads the evidence: deviation 74), the share whose derived key is one of
    them; None when no such row."""
    taught = {ex.source_row for ex in cand.examples}
    agree, checked = _row_pair_counts(cand, src, tcells, groups, taught)
    if not checked:
        return None
    return (agree - _folded_loss(cand, src, tcells, groups, taught)) / checked


def _folded_loss(cand: Candidate, src: Table, tcells: list, groups: list,
                 taught: set) -> float:
    """What the agreeing rows (not taught) lose where the program folds them: a row whose
    key the program gives n >= 2 rows, whose partners also name a key no joined row gets
    that differs from its key only where the program writes a constant, counts 1/n
    (deviation 81). The pairs support that key as they support the derived one, and only
    the constant chose: a question number of pools 7 and 9 alike onto "7-1A1" beside
    "9-1A1"; one release written for every facter version. Without a constant (a part of
    the value, "person" beside "person-page-resource") nothing is counted."""
    partners, keys, outs, cells = row_partners(cand, src, tcells, groups)
    per_key = Counter(o for o in outs if o is not None and o in keys)
    if all(n < 2 for n in per_key.values()):
        return 0.0
    templates = _constant_templates(cand.program, src)
    lost = 0.0
    for i, o in enumerate(outs):
        n = per_key.get(o, 0) if o is not None else 0
        if n < 2 or i in taught or templates[i] is None:
            continue
        named = set()
        for c, found in partners.items():
            named |= found.get(cells[c][i], set())
        if o in named and any(k not in per_key and templates[i].fullmatch(k) for k in named):
            lost += 1 - 1 / n
    return lost


def _constant_templates(program, src: Table) -> list:
    """Per source row, a pattern of the keys the program's branch for the row writes with
    its constants replaced by any text (its other pieces' outputs kept), None where the
    program gives no output or writes no constant."""
    n = len(src.positions)
    branches = getattr(program, "branches", None) or ((None, program),)
    holds = [None if g is None else [g.test(cell) for cell in src.cells(g.column)]
             for g, _p in branches]
    parts = []          # per branch: per piece, its outputs (None for a constant)
    for _g, p in branches:
        pieces = getattr(p, "pieces", ())
        parts.append([None if isinstance(q, Constant) else
                      Program((q,)).evaluate({c: src.cells(c) for c in Program((q,)).columns},
                                             n) for q in pieces])
    out: list = [None] * n
    for i in range(n):
        for b in range(len(branches)):
            if holds[b] is not None and not holds[b][i]:
                continue
            piece_outs = parts[b]
            if any(x is not None and x[i] is None for x in piece_outs):
                continue        # the branch gives no output: the next one is tried
            if piece_outs and any(x is None for x in piece_outs):
                out[i] = re.compile("".join(".*" if x is None else re.escape(x[i])
                                            for x in piece_outs), re.S)
            break
    return out


def row_partners(cand: Candidate, src: Table, tcells: list, groups: list) -> tuple:
    """(partners, keys, outs, cells) of ``_row_pair_counts``: per source column, the target
    keys step 1's row pairs give each of its values; the target's keys; the program's output
    per source row; and the source columns' cells."""
    partners: dict = {}
    real = set(src.columns)
    for g in groups:
        if g.target_column != cand.target_column or g.source_column not in real:
            continue
        column = src.cells(g.source_column)
        by_value = partners.setdefault(g.source_column, {})
        for p in g.pairs:
            by_value.setdefault(column[p.source_row], set()).add(tcells[p.target_row])
    keys = {v for v in tcells if v is not None}
    outs = cand.program.evaluate({c: src.cells(c) for c in cand.program.columns},
                                 len(src.positions))
    return partners, keys, outs, {c: src.cells(c) for c in partners}


def _row_pair_counts(cand: Candidate, src: Table, tcells: list, groups: list,
                     skip: set = frozenset()) -> tuple:
    """(agree, checked): the joined source rows (not in ``skip``) that have a candidate
    partner in step 1's row pairs of the program's target column (a value's pairs hold for
    every row holding it), and those of them whose derived key is a partner. Where the
    program joins every key through one row, a row whose partners are all keys the program
    gives other rows that they confirm is not checked (deviation 60's reading, 74): its pairs
    name those rows' keys, and say nothing of its own. ``agree`` is the same either way."""
    partners, keys, outs, cells = row_partners(cand, src, tcells, groups)
    agree = checked = 0
    owner: dict = {}        # key -> the agreeing row that gets it
    disagree = []           # per disagreeing row, the key sets its pairs name
    for i, o in enumerate(outs):
        if o is None or o not in keys or i in skip:
            continue
        named = [found[cells[c][i]] for c, found in partners.items() if cells[c][i] in found]
        if named:
            checked += 1
            if any(o in keys_named for keys_named in named):
                agree += 1
                owner[o] = i
            else:
                disagree.append(named)
    if disagree and _one_row_per_key(outs, keys):       # deviations 60, 74
        checked -= sum(1 for named in disagree if all(k in owner for ks in named for k in ks))
    return agree, checked


def _one_row_per_key(outs, keys: set) -> bool:
    """Every key among ``outs`` given to one row only."""
    joined = [o for o in outs if o is not None and o in keys]
    return len(joined) == len(set(joined))


SMALL_KEYS = 4           # a target column with at most this many keys is "small"
SMALL_ROWS_PER_KEY = 3   # ... and a program joining all of them must join this many rows per key
N1_FEWER = 4             # a program joining N1_ROWS of the source rows beats one joining more
                         # keys through less than 1/N1_FEWER as many rows (deviation 34)


def _acceptable(cand: Candidate, settings: AutoJoinSettings, n_keys: int = 0,
                n_rows: int = 0) -> bool:
    """At least ``min_coverage`` keys joined, one of them beyond the examples; or, for a
    small target column (at most ``SMALL_KEYS`` keys, which an example set may exhaust),
    every key joined by a program of at most 2 logical operators through at least half of
    the source's rows and ``SMALL_ROWS_PER_KEY`` rows per key (deviation 30: a summary
    table of two or four categories); or, for any target column, 2+ keys joined by such a
    program through ``N1_ROWS`` of the source's rows (deviation 34: services onto "tcp" /
    "udp")."""
    if cand.coverage >= settings.min_coverage and cand.extra.get("beyond_examples", 0) >= 1:
        return True
    if cand.coverage < 2 or cand.program.size > 2 \
            or cand.joined_rows < SMALL_ROWS_PER_KEY * cand.coverage:
        return False
    if 2 <= n_keys <= SMALL_KEYS and cand.coverage == n_keys:
        return cand.joined_rows >= 0.5 * n_rows
    return cand.joined_rows >= N1_ROWS * n_rows


def _partial_acceptable(cand: Candidate, n_rows: int) -> bool:
    """The partial pass's bar (deviation 68): 2+ keys joined through at least half of the
    source's rows and ``SMALL_ROWS_PER_KEY`` rows per key (a constant joins one key; a
    program fitted to its 2 examples' coincidence joins few rows beyond them)."""
    return (cand.coverage >= 2 and 2 * cand.joined_rows >= n_rows
            and cand.joined_rows >= SMALL_ROWS_PER_KEY * cand.coverage)


# ------------------------------------------------------------------ both directions

def autojoin(left: pd.DataFrame, right: pd.DataFrame, left_on=None, right_on=None, *,
             settings: AutoJoinSettings | None = None, left_name: str = "left",
             right_name: str = "right", **options):
    """Learn the transformation that makes ``left`` and ``right`` equi-join (see module
    docstring) and return an :class:`~.result.AutoJoin` (``.found`` says whether one exists).

    ``left_on`` / ``right_on``: column name (or list) to restrict the match to; the program
    reads at least one of them and may read other columns of its source row (a key part of
    a named target column is derived from it); when none does, the result is not found and
    its message gives what every column joins as advice. ``options`` override fields of
    :class:`AutoJoinSettings` (``fuzzy=False``, ``seed=1``, ...) or of :class:`LearnSettings`.
    """
    from .result import AutoJoin
    settings = _settings(settings, options)
    if settings.prefer not in (None, "left", "right"):
        raise AutoJoinInputError(f"prefer={settings.prefer!r}: 'left', 'right' or None (the "
                                 f"source side a tie between the directions goes to).")
    t0 = time.perf_counter()
    L = Table(_check_input(left, left_name), left_name)
    R = Table(_check_input(right, right_name), right_name)
    l_on, r_on = _columns(L, left_on, left_name), _columns(R, right_on, right_name)
    for t, on in ((L, l_on), (R, r_on)):
        if on is None and not any(t.has_values(c) for c in t.columns):
            raise AutoJoinInputError(f"Every column of the {t.label} table is empty (all null): "
                                     f"nothing to join on.")
    stats = {"rows": {"left": L.n_rows, "right": R.n_rows}}
    timings: dict = {}
    results = []
    for src, tgt, s_on, t_on, side in ((L, R, l_on, r_on, "left"), (R, L, r_on, l_on, "right")):
        t = time.perf_counter()
        _sample(src, tgt, settings, stats, side)
        d = learn_direction(src, tgt, s_on, t_on, settings)
        d.source = side
        results.append((d, src, tgt))
        timings[f"learn {side}->"] = time.perf_counter() - t
    found = [r for r in results if r[0].best is not None]
    if not found and settings.composite:
        t = time.perf_counter()
        for d, src, tgt in results:
            _sample(src, tgt, settings, {}, d.source)
            c = _composite(src, tgt, l_on if src is L else r_on, r_on if tgt is R else l_on,
                           settings)
            if c is not None:
                c.source = d.source
                found.append((c, src, tgt))
        timings["composite keys"] = time.perf_counter() - t
    partial = None
    if not found and settings.partial:
        # the best partial program: half the source rows or more (deviation 68)
        t = time.perf_counter()
        for d, src, tgt in results:
            _sample(src, tgt, settings, {}, d.source)
            p = learn_direction(src, tgt, l_on if src is L else r_on,
                                r_on if tgt is R else l_on, settings, partial=True)
            if p.best is not None:
                p.source = d.source
                found.append((p, src, tgt))
        timings["partial"] = time.perf_counter() - t
        partial = _why_not(results, settings) if found else None
    if not found:
        stats["directions"] = {d.source: _summary(d) for d, _, _ in results}
        timings["total"] = time.perf_counter() - t0
        stats["seconds"] = timings
        message = _why_not(results, settings)
        if l_on or r_on:
            message += _none_reads(left, right, (L, l_on), (R, r_on), settings, stats)
        return AutoJoin.not_found(L, R, message, stats, settings)
    why: list = []          # the words of the rule that chose the direction
    named = _through_every_named(found, L, l_on, r_on)
    if named is not None and len(found) > 1:
        why.append("it reads every named column and joins each key from one distinct value, "
                   "where the other folds distinct values onto its keys")
    d, src, tgt = named or _direction(found, settings.prefer, why)
    if why:
        stats["direction_rule"] = why[0]
    if settings.prefer is not None:
        stats["prefer"] = settings.prefer
    if partial is not None:
        why = partial.removeprefix("No transformation joins these tables. ").rstrip(".")
        stats["partial"] = ("A partial program: no program met the acceptance "
                            "rules, this one joins the most source rows (half or more) "
                            f"through 2+ keys. Why none was accepted: {why}")
    stats["directions"] = {r.source: _summary(r) for r, _, _ in results}
    best = d.best
    part = d.target_parts.get(best.target_column)
    # final keys on the full tables
    t = time.perf_counter()
    source_keys = apply_frame(best.program, src.frame, src.labels)
    if part is not None:
        target_keys = apply_frame(part.program, tgt.frame, tgt.labels)
    else:
        target_keys = column_texts(tgt.frame[tgt.labels[best.target_column]])
    timings["apply"] = time.perf_counter() - t
    fuzzy = None
    if settings.fuzzy:
        t = time.perf_counter()
        limit = settings.fuzzy_max_values
        dv = _distinct_upto(source_keys, limit)
        kv = _distinct_upto(target_keys, limit) if dv is not None else None
        if dv is not None and kv is not None:
            fuzzy = constrained_fuzzy_join(dv, kv, max_distance=settings.max_distance)
        else:
            side = "derived" if dv is None else "target"
            stats["fuzzy_skipped"] = (f"more than {limit:,} distinct {side} keys: above "
                                      f"fuzzy_max_values={limit:,}")
        timings["fuzzy"] = time.perf_counter() - t
    best, source_keys, fuzzy = _plain(best, src, source_keys, fuzzy)
    d.best = best
    timings["total"] = time.perf_counter() - t0
    stats["seconds"] = timings
    return AutoJoin.from_search(L, R, src is L, best, part, fuzzy, source_keys, target_keys,
                                d, stats, settings)


def _plain(best: Candidate, src: Table, source_keys: list, fuzzy) -> tuple:
    """``best`` without a case change or trimming around its whole output when its keys,
    as the join compares them, are the same on every source row and its distinct keys one
    for one (a plain equi-join shown as one: deviation 83), with its keys and the fuzzy
    step's matches (found on the learned keys) keyed by them; else as they are."""
    plain = plain_program(best.program)
    if plain is None:
        return best, source_keys, fuzzy
    keys = apply_frame(plain, src.frame, src.labels)
    if not _same_partition(keys, source_keys) or \
            _as_compared(keys) != _as_compared(source_keys):
        return best, source_keys, fuzzy
    out = dataclasses.replace(best, program=plain, extra=dict(best.extra))
    out.extra["plain_of"] = best.program
    if fuzzy is not None and fuzzy.matches:
        spelled = dict(zip(source_keys, keys))
        fuzzy = dataclasses.replace(
            fuzzy, matches={spelled.get(k, k): v for k, v in fuzzy.matches.items()},
            probability={spelled.get(k, k): v for k, v in fuzzy.probability.items()})
    return out, keys, fuzzy


def _same_partition(keys, other) -> bool:
    """Do the two key lists give one key for each of the other's (the fuzzy step's distinct
    keys the same but for their spelling)?"""
    return len(set(keys)) == len(set(other)) == len(set(zip(keys, other)))


def _as_compared(keys) -> list:
    return compared_keys(pd.Series(list(keys), dtype=object)).tolist()


def _direction(found: list, prefer: str | None = None, why: list | None = None):
    """The directions compete on the fraction of the target's rows they join (§4.3: "the
    transformation that joins the largest fraction of rows in T_t"); when each of them
    joins 1:1 (every joined source row onto a key of its own), the joined pairs are the
    same seen from either table, and they compete on keys joined (MaxByCoverage). A tie
    goes to the source side ``prefer`` (a transformation hit's direction: its program was
    verified on the whole lake column, where the fraction here may be of a few of its
    rows), then to the smaller program. First, a direction whose joined row pairs strictly
    contain the other's wins: it joins at least the same fraction of either table,
    whichever is taken as T_t (deviation 49: 13 changelog rows onto 6 release items
    against those 6 items onto their "-1" revisions), unless, on unsampled tables, the other
    joins 1:1 and most of the wider one's extra pairs join a target row that evidence on
    another key column of the target gives to another source row alone, and no evidence of
    the pair's own row names: ties the wider direction's key cannot decide, which the other
    one joins as the evidence does (deviation 71: the macros of opcodes and of primitive types onto the
    opcodes' numbers, which both number from 0), or, where the other's target column is one
    the wider program reads, namesakes: a second value onto a row the other joins to its
    own, lacking a piece the other's program reads from that row (deviation 75: class files
    of other packages onto a type's simple name). Then, on unsampled tables, a direction
    joining 1:1 whose pairs hold at least as many distinct rows of each table as the
    other's, and more of one, wins: it joins the larger fraction of either table, whichever
    is taken as T_t, each row once (deviation 63: 464 of 601 listed objects onto catalogue
    rows 1:1 against 457 catalogue rows folded onto 420 of them). Then, on unsampled
    tables, a direction joining 1:1 at least as many keys wins over one whose outputs reach
    a key its target column holds on 2+ rows: that join is N:M there, through no key
    (deviation 78: CSS colours onto Faker's by a hex code "aqua" and "cyan" share). An N:1
    direction's extra rows may be a coarser key's (a title without its artist): the
    fraction decides there.
    ``why``, when given, gets the words of the rule that decided (explain() shows them)."""
    why = [] if why is None else why

    def preferred(r) -> bool:
        return r[0].source == prefer

    if len(found) == 2:      # the joined pairs of one contain the other's (deviation 49)
        a, b = (_left_right(r[0]) for r in found)
        if a > b or b > a:
            wide, narrow, extra = ((found[0], found[1], a - b) if a > b
                                   else (found[1], found[0], b - a))
            if all(_unsampled(r) for r in found) and _one_to_one(narrow):
                if 2 * _contradicted(wide, extra) > len(extra):     # deviation 71
                    why.append("it joins 1:1, and most row pairs the other joins beyond it "
                               "are ties that another key column's evidence gives to other "
                               "rows")
                    return narrow
                if (2 * _lacking_own_pieces(narrow, extra) > len(extra)     # deviation 75
                        and narrow[0].best.target_column in wide[0].best.program.columns):
                    why.append("it joins 1:1, and most row pairs the other joins beyond it "
                               "lack a piece its program reads from their own row")
                    return narrow
            why.append("its joined row pairs contain the other direction's")
            return wide
        if all(_unsampled(r) for r in found):       # more rows of both tables (deviation 63)
            na, nb = _rows_joined(a), _rows_joined(b)
            for r, n, m in ((found[0], na, nb), (found[1], nb, na)):
                if n != m and n[0] >= m[0] and n[1] >= m[1] and _one_to_one(r):
                    why.append("it joins 1:1 and more distinct rows of one table, as many of "
                               "the other")
                    return r
            for r, other in ((found[0], found[1]), (found[1], found[0])):   # deviation 78
                if (_one_to_one(r) and r[0].best.coverage >= other[0].best.coverage
                        and _repeats_keys(other)):
                    why.append("it joins 1:1 as many keys or more, where the other joins a "
                               "source row onto several target rows (its target column "
                               "repeats a key)")
                    return r
    one_to_one = len(found) > 1 and all(r[0].best.coverage == r[0].best.joined_rows
                                        for r in found)
    if one_to_one:
        key = lambda r: (r[0].best.coverage, preferred(r), _joined_fraction(r),  # noqa: E731
                         -r[0].best.program.size)
    else:
        key = lambda r: (_joined_fraction(r), r[0].best.coverage, preferred(r),  # noqa: E731
                         -r[0].best.program.size)
    chosen = max(found, key=key)
    if len(found) > 1:
        runner_up = max((r for r in found if r is not chosen), key=key)
        why.append(_decided_by(chosen, runner_up, key, one_to_one))
    return chosen


def _decided_by(chosen, runner_up, key, one_to_one: bool) -> str:
    """The words of the part of ``_direction``'s ranking ``key`` that put ``chosen`` before
    ``runner_up`` (``one_to_one``: both join 1:1, keys joined ranked first)."""
    keys = f"the same {chosen[0].best.coverage} keys"
    fraction = "the same fraction of their target's rows"
    if one_to_one:
        order = ["keys", "prefer", "fraction", "size"]
        tied = {"keys": "both join 1:1", "prefer": f"both join 1:1 {keys}",
                "fraction": f"both join 1:1 {keys}", "size": f"both join 1:1 {keys} and {fraction}"}
    else:
        order = ["fraction", "keys", "prefer", "size"]
        tied = {"fraction": "", "keys": f"both join {fraction}",
                "prefer": f"both join {fraction} and {keys}",
                "size": f"both join {fraction} and {keys}"}
    won = {"keys": "it joins more keys",
           "fraction": "it joins a larger fraction of its target's rows",
           "prefer": "a tie goes to the search's program's direction",
           "size": f"the program of fewer operators won ({chosen[0].best.program.size} "
                   f"against {runner_up[0].best.program.size})"}
    for part, a, b in zip(order, key(chosen), key(runner_up)):
        if a != b:
            joint = ", so " if part == "size" else ", and "
            return tied[part] + joint + won[part] if tied[part] else won[part]
    return f"{tied['size']} by programs of as many operators, so the direction tried first won"


def _contradicted(result, pairs: frozenset) -> int:
    """Of ``pairs`` ((left row, right row), joined by the direction ``result`` on unsampled
    tables), those whose target row the key cannot give to the pair's source row alone: the
    independent evidence (1-to-1 matches of 6+ characters, rare token bags:
    :func:`~.programset.row_evidence`) made for another source row alone names the row's
    value in another key column of the target, and no evidence of the pair's own source row
    names any of the row's values (deviation 71: the number 7 is an opcode's and a
    primitive type's; the opcode's name pairs the opcode with its own macro, and nothing
    pairs it with the primitive's)."""
    d, src, tgt = result
    evidence = []           # per key column: its cells, the rows' evidence, keys' owners
    for c in d.key_columns:
        if c in tgt.columns:
            tcells = tgt.cells(c)
            partners, shared = row_evidence(src, tcells, d.groups, c)
            owners = key_owners(partners) if c != d.best.target_column else {}
            evidence.append((tcells, partners, shared, owners))
    count = 0
    for left, right in pairs:
        i, j = (left, right) if d.source == "left" else (right, left)
        own = any(tcells[j] in partners.get(i, ()) or tcells[j] in shared.get(i, ())
                  for tcells, partners, shared, _ in evidence)
        count += not own and any(owners.get(tcells[j], set()) - {i}
                                 for tcells, _, _, owners in evidence)
    return count


def _lacking_own_pieces(result, pairs: frozenset) -> int:
    """Of ``pairs`` ((left row, right row), joined by another direction beyond the 1:1
    direction ``result``, on unsampled tables), the namesakes: pairs whose source row
    ``result`` joins to another target row, and whose target row's value (in ``result``'s
    target column) lacks, compared as the join compares them, the output of a piece of
    ``result``'s program that reads that source row (deviation 75: a type's package, written
    as a path, is not in a namesake's class file of another package). The other direction
    joined such a pair by a key that drops what the pair's own row says; a piece written as
    a constant ("-1" of a first revision) says nothing of the row and refutes nothing, and a
    row ``result`` joins to nothing is no namesake (its summary is another wording). A
    program set, or a target key derived by a key part, is not read (0)."""
    d, src, tgt = result
    program = d.best.program
    if not isinstance(program, Program) or d.target_parts.get(d.best.target_column):
        return 0
    columns = program.columns
    pieces = [compile_expr(p, columns) for p in program.pieces if columns_of(p)]
    cells = [src.cells(c) for c in columns]
    tcells = tgt.cells(d.best.target_column)
    joined = {i for i, _ in d.joined_pairs}
    count = 0
    for left, right in pairs:
        i, j = (left, right) if d.source == "left" else (right, left)
        if i not in joined or tcells[j] is None:
            continue
        row = tuple(c[i] for c in cells)
        value = _compared(tcells[j])
        count += any(out and _compared(out) not in value for out in (f(row) for f in pieces))
    return count


def _compared(text: str) -> str:
    """``text`` as the join compares it (lake/normalize.py: case folded, spacing collapsed,
    one form per number: "01" is "1"); a text it drops as junk, case folded."""
    return normalize_text(text) or text.casefold()


def _unsampled(result) -> bool:
    """Whether a direction learned on every row of both tables (rows not known: no)."""
    d, src, tgt = result
    rows_s, rows_t = d.source_positions, d.target_positions
    return (src is not None and tgt is not None and rows_s is not None and rows_t is not None
            and len(rows_s) == src.n_rows and len(rows_t) == tgt.n_rows)


def _one_to_one(result) -> bool:
    """Whether a direction joins every joined source row onto a key of its own."""
    return result[0].best.coverage == result[0].best.joined_rows


def _repeats_keys(result) -> bool:
    """Whether a direction joins some source row onto 2+ target rows: its target column
    holds on 2+ rows a value the program's outputs reach, so that key is no key and the
    join there is not 1:1 or N:1 (deviation 78: colours sharing a hex code, "aqua" and
    "cyan", each joined to both rows). A key part of the target is not read (False)."""
    d, src, tgt = result
    if d.target_parts.get(d.best.target_column):
        return False
    held: dict = {}
    for v in tgt.cells(d.best.target_column):
        if v is not None:
            held[v] = held.get(v, 0) + 1
    return any(held.get(o, 0) > 1 for o in _outputs(d.best.program, src) if o is not None)


def _rows_joined(pairs: frozenset) -> tuple:
    """The distinct left rows and right rows among (left row, right row) pairs."""
    return len({a for a, _ in pairs}), len({b for _, b in pairs})


def _through_every_named(found: list, L: Table, l_on, r_on):
    """With several columns named on a side (deviation 65): the direction whose program
    reads all of them and gives each key it joins from one distinct value, when the other
    direction's program folds distinct values onto its keys (``carrier`` + ``flight``
    padded to 4 against the first 2 letters of ``flight_code`` = ``carrier``, which reads
    one of the two and joins each carrier to all its codes); else None."""
    if len(found) != 2:
        return None

    def whole(r) -> bool:
        d, src, _ = r
        on = l_on if src is L else r_on
        return bool(on) and len(on) > 1 and set(on) <= set(d.best.program.columns) \
            and not _folded(d, src, r[2])
    good = [r for r in found if whole(r)]
    if len(good) != 1:
        return None
    other = found[1] if good[0] is found[0] else found[0]
    return good[0] if _folded(*other) else None


def _folded(d: DirectionResult, src: Table, tgt: Table) -> bool:
    """Does the direction's program derive a joined key from two or more distinct values of
    the source cells it reads (on the rows in use)?"""
    best = d.best
    part = d.target_parts.get(best.target_column)
    tcells = (part.program.evaluate({c: tgt.cells(c) for c in part.program.columns},
                                    len(tgt.positions)) if part is not None
              else tgt.cells(best.target_column))
    keys = {v for v in tcells if v is not None}
    inputs = list(zip(*(src.cells(c) for c in best.program.columns)))
    seen: dict = {}
    for value, out in zip(inputs, _outputs(best.program, src)):
        if out is not None and out in keys and seen.setdefault(out, value) != value:
            return True
    return False


def _left_right(d: DirectionResult) -> frozenset:
    """A direction's joined pairs as (left row, right row)."""
    return d.joined_pairs if d.source == "left" else frozenset(
        (t, s) for s, t in d.joined_pairs)


def _joined_fraction(result) -> float:
    """The fraction of the target's (sampled) rows a direction's program joins."""
    d = result[0]
    return d.best.coverage / max(len(d.target_positions), 1)


def _distinct_upto(keys, limit: int):
    """The distinct non-null keys, or None as soon as there are more than ``limit`` (the
    fuzzy step is skipped then, so counting a million keys to the end is wasted)."""
    out: set = set()
    add = out.add
    for k in keys:
        if k is not None:
            add(k)
            if len(out) > limit:
                return None
    return out


def _settings(settings, options) -> AutoJoinSettings:
    settings = settings or AutoJoinSettings()
    if not options:
        return settings
    top = {f.name for f in dataclasses.fields(AutoJoinSettings)}
    inner = {f.name for f in dataclasses.fields(LearnSettings)}
    sets = {f.name for f in dataclasses.fields(SetSettings)}
    learn_opts = {k: v for k, v in options.items() if k in inner}
    set_opts = {k: v for k, v in options.items() if k in sets}
    top_opts = {k: v for k, v in options.items() if k in top}
    unknown = set(options) - set(learn_opts) - set(top_opts) - set(set_opts)
    if unknown:
        raise AutoJoinInputError(f"Unknown Auto-Join option(s) {sorted(unknown)}; known: "
                                 f"{sorted((top | inner | sets) - {'learn', 'program_set'})}")
    learn = dataclasses.replace(settings.learn, **learn_opts)
    if "seed" in top_opts:
        learn = dataclasses.replace(learn, seed=top_opts["seed"])
    program_set = dataclasses.replace(settings.program_set, **set_opts)
    return dataclasses.replace(settings, learn=learn, program_set=program_set, **top_opts)


def _sample(src: Table, tgt: Table, settings: AutoJoinSettings, stats: dict, side: str) -> None:
    big = max(src.n_rows, tgt.n_rows) >= settings.sample_min_rows
    if settings.sample == "never" or (settings.sample == "auto" and not big):
        src.use_all()
        tgt.use_all()
        return
    ps, pt = sample_rates(src.n_rows, tgt.n_rows, settings.participation)
    src.sample(ps, settings.seed + 1)
    tgt.sample(pt, settings.seed + 2)
    stats.setdefault("sampling", {})[f"{side} as source"] = {
        "rate_source": ps, "rate_target": pt,
        "rows_source": int(len(src.positions)), "rows_target": int(len(tgt.positions))}


def _composite(src: Table, tgt: Table, s_on, t_on, settings) -> DirectionResult | None:
    """Step 4: key parts of the target's composite columns as target keys."""
    parts: dict = {}
    frame = tgt.sample_frame().reset_index(drop=True).set_axis(tgt.columns, axis=1)
    for c in (t_on or tgt.columns):
        cells = tgt.cells(c)
        for p in key_parts(c, cells, frame, tgt.columns, key_ratio=settings.key_ratio,
                           seed=settings.seed, settings=settings.learn, asked=bool(t_on)):
            parts[f"{c} [{p.program.describe()}]"] = p
    if not parts:
        return None
    d = learn_direction(src, tgt, s_on, None, settings,
                        target_columns={name: p.values for name, p in parts.items()},
                        leave_one_out=True,
                        dropped={name: dropped_fields(tgt.cells(p.column), p.values)
                                 for name, p in parts.items()})
    if d.best is None:
        return None
    d.target_parts = parts
    _whole_estimate(d.best, src, tgt, s_on, parts[d.best.target_column], settings)
    return d


def _whole_estimate(best: Candidate, src: Table, tgt: Table, s_on, part, settings) -> None:
    """The estimated precision of a program onto a key part, from the evidence of the whole
    composite values, a row agreeing where it names the derived key alone: a part drops the
    rest of its value, which may name another row ("$50,000 - $99,999" holds "$50,000 " of
    one bracket and "$99,999" of the next; deviation 51). The part's estimate is kept when
    the whole values give none."""
    cols = s_on or [c for c in src.columns if src.has_values(c)]
    s_vals = [src.values(c) for c in cols] + ([] if s_on else joined_columns(src, cols))
    groups = find_joinable_row_pairs(s_vals, [tgt.values(part.column)], settings.min_score)
    est = estimated_precision(best.program, src, part.values, groups, part.column,
                              best.examples, whole=True)
    if est is not None:
        best.extra["estimated_precision"] = est
        best.extra.pop("precision_basis", None)


def _none_reads(left, right, named_left, named_right, settings, stats: dict) -> str:
    """What a result without a program adds when columns were named: that no program reads
    them and, as advice (``stats["advice"]``), the program Auto-Join learns on every column
    of both tables (without composite keys or fuzzy join), where a named side has others."""
    asked = " and ".join(f"{', '.join(f'`{c}`' for c in on)} of the {t.label} table"
                         for t, on in (named_left, named_right) if on)
    text = f" No program reading the asked column(s) {asked} joins the tables."
    if not any(on and len(t.columns) > len(on) for t, on in (named_left, named_right)):
        return text
    other = autojoin(left, right, settings=dataclasses.replace(settings, composite=False,
                                                               fuzzy=False),
                     left_name=named_left[0].label, right_name=named_right[0].label)
    if not other.found:
        return text + " Learned on every column (no composite keys), no program joins them."
    stats["advice"] = {"program": other.program.describe(), "source": other.source,
                       "target_column": other.target_column, "coverage": other.coverage,
                       "target_keys": other.target_keys}
    return (f"{text} Advice, not the result: with every column, "
            f"{other.message.removeprefix('Found: ').rstrip('.')} ({other.coverage} of "
            f"{other.target_keys} keys); name the columns it reads to join on them.")


def _summary(d: DirectionResult) -> dict:
    out = {"pair_groups": len(d.groups), "pairs": d.n_pairs, "example_sets": d.n_sets,
           "programs": len(d.candidates), "key_columns": d.key_columns,
           "best_coverage": d.candidates[0].coverage if d.candidates else 0}
    if d.best is not None:
        # the direction's accepted program, shown beside the chosen one (a coarser and a
        # finer key can both join; which one is meant is not in the rows)
        out["accepted"] = {"program": d.best.program.describe(),
                           "target_column": d.best.target_column,
                           "coverage": d.best.coverage, "joined_rows": d.best.joined_rows,
                           "target_rows": int(len(d.target_positions))}
    return out


def _why_not(results, settings) -> str:
    lines = []
    for d, src, tgt in results:
        head = f"{src.label} -> {tgt.label}"
        if not d.key_columns:
            lines.append(f"{head}: the {tgt.label} table has no key column (no column with "
                         f"{settings.key_ratio:.0%} distinct values)")
        elif not d.n_pairs:
            lines.append(f"{head}: no value shares a rare substring with a key of "
                         f"{tgt.label} ({', '.join(map(repr, d.key_columns[:5]))}): a "
                         f"substring of 3+ characters pairs rows only when the values and "
                         f"keys holding it make at most {round(1 / settings.min_score)} combinations, so "
                         f"a part most keys hold (a year, a common prefix) pairs none")
        elif not d.candidates and not d.n_sets:
            from .learn import distinct_row_pairs
            distinct = max(len(distinct_row_pairs(g.pairs, settings.learn.top_k)) for g in d.groups)
            paired = len({p.source_row for g in d.groups for p in g.pairs})
            lines.append(f"{head}: {d.n_pairs} candidate row pair(s), {distinct} of them "
                         f"distinct (one per row of each side): too few to learn a program "
                         f"from (an example set needs {min(settings.learn.examples_per_set)} "
                         f"or more); {len(src.positions) - paired} of the {len(src.positions)} "
                         f"rows of {src.label} learned from have no candidate partner: no "
                         f"substring of 3+ characters they share with a key is rare (a part "
                         f"most keys hold, a year, pairs none), nor does one key alone hold "
                         f"their words and numbers")
        elif not d.candidates:
            lines.append(f"{head}: {d.n_pairs} candidate row pairs, but no program of the "
                         f"transformation language fits {d.n_sets} example sets")
        else:
            c = d.candidates[0]
            if c.extra.get("by_chance"):
                lines.append(f"{head}: the best program ({c.program.describe()}) equates "
                             f"numbers and joins {c.coverage} key(s), about as many as "
                             f"independent numbers over the same range share by chance "
                             f"({c.extra['chance_matches']:.0f})")
                continue
            if c.extra.get("many_to_many"):
                lines.append(f"{head}: the best program ({c.program.describe()}) derives the "
                             f"{c.coverage} key(s) it joins from many distinct values, and "
                             f"{c.target_column!r}, named, is no key column of {tgt.label} "
                             f"(under {settings.key_ratio:.0%} distinct): the join would be "
                             f"many-to-many")
                continue
            if _writes_other_field(c.program, src):
                lines.append(f"{head}: the best program ({c.program.describe()}) writes a "
                             f"constant digit field where the values of {src.label} hold "
                             f"another (a year of their own): it joins rows they do not name")
                continue
            lines.append(f"{head}: the best program ({c.program.describe()}) joins only "
                         f"{c.coverage} key(s), {c.extra.get('beyond_examples', 0)} beyond the "
                         f"rows it was learned from (needs {settings.min_coverage}+, 1+)")
    return "No transformation joins these tables. " + "; ".join(lines) + "."
