"""The "Needs a transformation" search: lake columns the query joins only after a learned
transformation (thesis ch. 5's searchable transformation joins, with Auto-Join, ch. 4).

1. retrieve (search/transform.py): sampled query values paired with every indexed column
   by pattern keys and segment q-grams (short segments whole), equal values left out;
2. verify the best ``candidates`` columns in order: LearnTransform (Algorithm 5) learns on
   the best-paired values and their partners, both ways (an earlier one's program first);
3. rank by joined coverage (the share of query rows whose key equals a value of the other
   side after the program) times the weight of the key's kind, the weaker of the
   program's outputs (their common affixes cut) and the side they are compared with, as
   the equality search weighs a key (join/preview.py ``usefulness``); verification stops
   once k hits outscore the next candidate's share of paired values. Not hits: an N:M join
   on a key read as a number or year; outputs meeting short codes or numbers of a small
   range no more often than chance (``numbers_by_chance``, chance.py). Numbers of lengths
   the other side fills weigh as a number (``filled_numbers``); keys written mostly from
   constants around part of a number (``built_from_constants``) and integers meeting a
   sequence (``numbers_by_density``) weigh as a row number, flagged.

Deviations: the example rows are the index's pairs, not Algorithm 3's q-gram matches, which
miss values sharing no rare 3-gram (a reformatted date shares only its year); a value paired
by grams is taught with the value of the column sharing the most gram weight, and a residual
round learns on the pairs a program leaves out; a minority of values without key pairs gets
a second draw with its gram partners (``_minority_draw``); hits rank by coverage weighted by
their key's kind; an earlier candidate's program merging query values yields to the column's
``_finer`` one; the query's numbers are also looked up zero-padded (``PAD_DIGITS``), a
padding widened where the column shows a wider width (``widest_padding``); a constant that
is a piece of a field varying across the other column is read instead; a hit whose
small-range numbers a random draw explains is dropped; a program joining part of the rows
yields to one learned from whole keys; dates tested in (y, m, d) space (``dates_by_chance``);
folded by a dropped field the column writes: unjoined (82); a row-own Replace: dropped (86).
"""
from __future__ import annotations

import dataclasses
import re
import time
import unicodedata
from collections import Counter

import numpy as np
import pandas as pd

from ...lake.normalize import MAX_TOKEN_CHARS, NULL_SPELLINGS, normalize_many, normalize_text
from ...search.registry import Candidate, ParamSpec, SearchMethod
from ...search.segments import arrow_arrays, value_shape
from ...search.transform import column_scores, distinct_grams, evidence, gram_partners
from ..preview import (CHANCE_WEIGHT, COINCIDENCE_WEIGHT, FEW_KEYS, KIND_WEIGHT,
                       TYPE_SHARE, affix_free, chance_containment, integers_of, key_kind,
                       values_kind)
from .chance import ALPHA, above_chance, code_rates, dates_by_chance, integers, range_tail
from .constant_fields import SOURCE_SAMPLE, field_keeper, folded_rows, replaced_field, unfolded
from .dsl import Program, evaluate_columns
from .learn import (FORMAT_SAMPLE, Example, LearnSettings, example_sets, generalised,
                    moves_by_row_literal, writes_source_field,
                    pair_example_sets, spread, try_learn_transform, widest_padding)
from .pairs import PairGroup, RowPair, whole_word_keys
from .pipeline import SMALL_ROWS_PER_KEY, AutoJoinSettings

# every one of the 8 example sets is tried (patience = max_sets): with a patience of 3, a few
# wrong pairs among the 16 best ended a column before a clean set was drawn
LEARN = LearnSettings(top_k=16, sets_per_group=8, max_sets=8, patience=8)
# the residual round: pairs a first program leaves unexplained, mostly wrong ones when that
# program is right; its sets are drawn from their best, and it gives up sooner
RESIDUAL = LearnSettings(top_k=16, sets_per_group=8, max_sets=8, patience=3)
KEY_RATIO = AutoJoinSettings.key_ratio    # Auto-Join's key column: this share distinct
MEASURE_KINDS = ("number", "year-like")    # key kinds whose N:M joins are not hits
# the query's numbers are also looked up zero-padded to this many digits ("42": "PKG-00042")
PAD_DIGITS = 8
# a forward program's padding is widened where this many of the column's values show it
WIDEST_PADDING_VALUES = 20_000
# a program joining under this share of the query rows is set against one learned from the
# column's values that the query's values hold as whole words (``_whole_key_program``)
WHOLE_KEY_BELOW = 0.9


def learn_text(value) -> str | None:
    """A query cell as the learner sees it: Unicode NFKC, case folded, whitespace runs
    collapsed (like the lake's tokens, but numbers keep their digits: "06" stays "06")."""
    from .dsl import cell_text
    text = cell_text(value)
    if text is None:
        return None
    s = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return s or None


class _Lake:
    """What verification reads of one index generation: a column's tokens, membership."""

    def __init__(self, index):
        self.index = index
        self._tokens: dict = {}
        self._sets: dict = {}
        self._offsets = index.load_npy("dictionary/values_offsets.npy")
        self._bytes = index.load_npy("dictionary/values_bytes.npy")
        self._arrow = None

    def _strings(self):
        """The dictionary's token texts as one Arrow array (zero-copy over the files)."""
        import pyarrow as pa
        if self._arrow is None:
            self._arrow = pa.LargeStringArray.from_buffers(
                len(self._offsets) - 1, pa.py_buffer(self._offsets), pa.py_buffer(self._bytes))
        return self._arrow

    def lengths(self, ids) -> np.ndarray:
        """Byte lengths of the token texts by id."""
        ids = np.asarray(ids, dtype=np.int64)
        return self._offsets[ids + 1] - self._offsets[ids]

    def raw(self, ids) -> tuple[np.ndarray, np.ndarray]:
        """(bytes, offsets) of the token texts by id (Arrow's take)."""
        import pyarrow as pa
        return arrow_arrays(self._strings().take(pa.array(np.asarray(ids, dtype=np.int64))))

    def texts(self, ids) -> list:
        """Token texts by id."""
        import pyarrow as pa
        return self._strings().take(pa.array(np.asarray(ids, dtype=np.int64))).to_pylist()

    def tokens(self, column: int, limit: int | None = None) -> list:
        """The column's tokens (the first ``limit`` in token-id order, when given)."""
        key = (column, limit)
        got = self._tokens.get(key)
        if got is None:
            ids = self.index.arrays.set_tokens(column)
            got = self._tokens[key] = self.texts(ids if limit is None else ids[:limit])
        return got

    def spread_tokens(self, column: int, k: int) -> list:
        """Up to ``k`` of the column's tokens, spread evenly over them."""
        return self.texts(spread(self.index.arrays.set_tokens(column), k))

    def token_set(self, column: int) -> set:
        got = self._sets.get(column)
        if got is None:
            got = self._sets[column] = set(self.tokens(column))
        return got

    def equal_pairs(self, tokens: list) -> tuple[np.ndarray, np.ndarray]:
        """(query value index, column) of every column holding a query value itself."""
        ids = self.index.lookup(tokens)
        a = self.index.arrays
        found = np.flatnonzero(ids >= 0)
        lo, hi = a.post_indptr[ids[found]], a.post_indptr[ids[found] + 1]
        lens = (hi - lo).astype(np.int64)
        first = np.repeat(np.cumsum(lens) - lens, lens)
        ent = np.repeat(lo, lens) + (np.arange(int(lens.sum())) - first)
        return np.repeat(found, lens), np.asarray(a.post_sets[ent], dtype=np.int64)


def _query_side(query, index=None):
    """Distinct query tokens, the text the learner gets for each, and the weight (rows) of
    each: the query's rows per token when the query counts them (a frame's, a lake
    table's: its join statistics), else rows of the query frame, else 1 per value. A lake
    column's values are learned on as its table writes them (``_lake_spellings``)."""
    tokens = list(query.tokens)
    display = query.display
    if index is not None and query.frame is None and getattr(query, "column_id", None) \
            is not None:
        display = _lake_spellings(index, query, display)
    texts = [learn_text(display.get(t, t)) or t for t in tokens]
    weights = np.ones(len(tokens))
    frame = query.frame
    rows = query.token_rows
    if rows is not None and len(rows) == len(tokens):
        weights = np.asarray(rows, dtype=float)
    elif frame is not None and query.columns[0] in frame.columns:
        pos = {t: i for i, t in enumerate(tokens)}
        idx = [pos.get(t, -1) for t in normalize_many(frame[query.columns[0]].tolist())]
        idx = np.array([i for i in idx if i >= 0], dtype=np.int64)
        weights = np.bincount(idx, minlength=len(tokens)).astype(float)
    return tokens, texts, weights


def _partners(lake: _Lake, ti, ev, column: int, chosen: np.ndarray, scan: int,
              texts: list, wanted: int, always: bool = False) -> dict:
    """value -> (up to two values of the column paired with it, the pairs' scores), for the
    chosen sampled values. Key pairs name their lake token; a value paired only by grams
    gets the one value among the column's first ``scan`` tokens whose shared grams weigh
    the most (``search.transform.gram_partners``; looked for when key pairs leave over half
    of the ``wanted`` values to teach alone, or ``always``), scored by the share of the
    value's gram weight in the column that partner holds (1: every gram). ``texts``: the
    sampled values' learner texts."""
    key = (ev.token >= 0) & np.isin(ev.qi, chosen)
    order = np.lexsort((ev.token[key], -ev.score[key], ev.qi[key]))
    qi, tok, sc = ev.qi[key][order], ev.token[key][order], ev.score[key][order]
    result: dict = {}
    if len(tok):
        names = dict(zip(np.unique(tok).tolist(), lake.texts(np.unique(tok))))
        for q, t, x in zip(qi.tolist(), tok.tolist(), sc.tolist()):
            vals, scores = result.setdefault(q, ([], []))
            if len(vals) < 2 and names[t] not in vals:
                vals.append(names[t])
                scores.append(x)
    need = [int(q) for q in chosen if int(q) not in result]
    if not need or (not always and len(result) * 2 >= min(wanted, len(chosen))):
        return result
    gram = (ev.token < 0) & np.isin(ev.qi, need)
    if not gram.any():
        return result
    gq, gcode, gscore = distinct_grams(ev.qi[gram], ev.code[gram], ev.score[gram])
    ids = lake.index.arrays.set_tokens(column)[:scan]
    ids = ids[lake.lengths(ids) <= ti.spec.max_value_bytes]      # as the index leaves them
    data, offsets = lake.raw(ids)
    found = gram_partners(data, offsets, ti.spec.q, gq, gcode, gscore,
                          {q: texts[q] for q in need}, ti.spec.max_value_bytes)
    if found:
        words = dict(zip(found, lake.texts(ids[[v for v, _w in found.values()]])))
        uq, inv = np.unique(gq, return_inverse=True)
        held = dict(zip(uq.tolist(), np.bincount(inv, weights=gscore).tolist()))
        for q, (_v, w) in found.items():
            result[q] = ([words[q]], [min(w / held[q], 1.0)])
    return result


def learn_program(pairs: list, left: list, right: list, names: tuple,
                  settings: LearnSettings = LEARN, columns: tuple | None = None,
                  keys: tuple | None = None):
    """LearnTransform (Algorithm 5) on given row pairs, both directions: example sets of
    3-4 of the best pairs go to TryLearnTransform (Algorithm 4); a program must join at
    least three values of the other side, one of them beyond its examples, and the one
    joining the most wins. Then a residual round, as Auto-Join's program sets learn on the
    rows a program leaves unjoined (programset.py): example sets drawn from the pairs the
    best program does not explain, whose program wins if it joins more (a form of the
    values the first sets missed: "jupyter_client==8.6.3" beside "altair==5.5.0").
    ``pairs`` are (left index, right index, score); ``columns`` (left's, right's) are the
    whole columns the rows were drawn from (default: the rows): a digit constant is the
    target's format only if its column holds it (deviation 55), and numbers are read whole
    on its source rows (58); the rows of one query month hold the month; ``keys`` (left's,
    right's): the whole sides' canonical values, the keys a Replace of a few rows' own
    text moves them between (deviation 86; default: the rows). Returns (program, left is
    the source) or None."""
    best = None
    rows_of = {}
    for forward in (True, False):
        rows = [RowPair(i, j, "", sc) if forward else RowPair(j, i, "", sc)
                for i, j, sc in pairs]
        rows.sort(key=lambda r: -r.score)             # stable: the caller's order in ties
        rows_of[forward] = rows
        best = _learn_round(rows, forward, left, right, names, settings, best, keys)
        if best is not None and best[0] >= 0.9 * len(left if best[2] else right):
            break                          # joins nearly all: the other direction can wait
    if best is None:
        return None
    forward = best[2]
    rows_of.setdefault(forward, [])
    src, dst = (left, right) if forward else (right, left)
    col = names[0] if forward else names[1]
    src_col = src if columns is None else (columns[0] if forward else columns[1])
    keeps = field_keeper(best[1], spread(src_col, SOURCE_SAMPLE))
    if keeps is not None:      # a constant over a field the source varies (deviation 79):
        rows = [r for r in rows_of[forward]     # learned again from the pairs keeping it
                if keeps(src[r.source_row], dst[r.target_row])]
        again = _learn_round(rows, forward, left, right, names, settings, None, keys) \
            if len(rows) >= 3 else None
        if again is not None:       # (still writing it: learned again below, else refused)
            best = again
            rows_of[forward] = rows
    out = evaluate_columns(best[1].expr, {col: src}, len(src))
    residual = [r for r in rows_of[forward]
                if canonical(out[r.source_row]) != canonical(dst[r.target_row])]
    if len(residual) >= 3:
        best = _learn_round(residual, forward, left, right, names, RESIDUAL, best, keys)
    src_col, dst_col = (src, dst) if columns is None else \
        (columns if forward else columns[::-1])
    whole_rows = [(v,) for v in spread(src_col)]
    program = generalised(best[1], best[3], [col], settings, {}, spread(dst_col, FORMAT_SAMPLE),
                          whole_rows=whole_rows)
    if program is not None:        # no constant that is a piece of a varying field (dev. 55)
        out = evaluate_columns(program.expr, {col: src}, len(src))
        targets = {canonical(v) for v in dst}
        if len({canonical(o) for o in out} & targets) >= best[0] or \
                writes_source_field(best[1], best[3], whole_rows):   # the source's (79)
            return program, forward
    return best[1], best[2]


def _learn_round(rows: list, forward: bool, left: list, right: list, names: tuple,
                 settings: LearnSettings, best, keys: tuple | None = None):
    """One LearnTransform round on row pairs (best first) in one direction: the best
    (keys joined, program, forward) of ``best`` and the programs learned here."""
    src, dst = (left, right) if forward else (right, left)
    col = names[0] if forward else names[1]
    group = PairGroup(col, names[1] if forward else names[0], rows)
    targets = {canonical(v) for v in dst}
    whole = targets if keys is None else targets | keys[1 if forward else 0]
    top = [Example((src[r.source_row],), dst[r.target_row], r.source_row, r.target_row)
           for r in group.top(settings.top_k)]
    cache: dict = {}
    idle = 0
    for chosen in example_sets([group], settings)[0][:settings.max_sets]:
        examples = [Example((src[r.source_row],), dst[r.target_row], r.source_row,
                            r.target_row) for r in chosen]
        taught = {(e.source_row, e.target_row) for e in examples}
        program = try_learn_transform(examples, [col], settings, cache,
                                      [e for e in top if (e.source_row, e.target_row)
                                       not in taught])
        idle += 1
        if program is not None:     # a Replace of a few rows' own text: without it (86)
            program = moves_by_row_literal(program, {col: src}, len(src),
                                           lambda o: canonical(o) in whole) or program
        if program is None:
            if idle >= settings.patience and best is None:
                break
            continue
        out = evaluate_columns(program.expr, {col: src}, len(src))
        keys = {canonical(o) for o in out} & targets
        beyond = keys - {canonical(e.output) for e in examples}
        if len(keys) >= 3 and beyond and (best is None or len(keys) > best[0]):
            best, idle = (len(keys), program, forward, examples), 0
        if best is not None and best[0] >= 0.9 * len(src):
            break
        if best is not None and idle >= settings.patience:
            break
    return best


def canonical(text: str | None) -> str | None:
    """normalize_text, skipping the work for plain ASCII outputs it leaves as they are."""
    if not text:
        return None
    if text.isascii() and text.islower() and text[0] not in _NUMERIC_START and \
            len(text) <= MAX_TOKEN_CHARS and " ".join(text.split()) == text and \
            text not in NULL_SPELLINGS:
        return text            # what normalize_text returns for it (ASCII, a letter, no case)
    return normalize_text(text)


_NUMERIC_START = frozenset("+-.0123456789")


def _coverage(program: Program, source_is_query: bool, lake: _Lake, column: int,
              tokens: list, texts: list, weights: np.ndarray):
    """The query values (indexes) whose key equals a value of the other side after the
    program, the program's key: its distinct outputs with the rows (query rows forward,
    lake values backward) that give each, the column's values that join, with the key
    each joins on (its own value forward, its output backward), and the number of
    distinct values it made a key of."""
    if len(program.columns) != 1:
        return np.zeros(0, np.int64), {}, {}, 0
    name = program.columns[0]
    values = lake.token_set(column)
    made: dict = {}
    if source_is_query:
        keys = [canonical(o) for o in evaluate_columns(program.expr, {name: texts}, len(texts))]
        for k, w in zip(keys, weights.tolist()):
            if k is not None:
                made[k] = made.get(k, 0.0) + w
        return (np.array([i for i, k in enumerate(keys) if k in values], dtype=np.int64), made,
                {k: k for k in made if k in values}, sum(k is not None for k in keys))
    lake_values = lake.tokens(column)
    outs = [canonical(o) for o in evaluate_columns(program.expr, {name: lake_values},
                                                   len(lake_values))]
    for k in outs:
        if k is not None:
            made[k] = made.get(k, 0) + 1
    wanted = set(tokens)
    return (np.array([i for i, t in enumerate(tokens) if t in made], dtype=np.int64), made,
            {v: k for v, k in zip(lake_values, outs) if k is not None and k in wanted},
            sum(made.values()))


def key_rows(index, column: int, joins: dict) -> tuple[dict, bool]:
    """(the column's rows per key the program joins, exact): key -> the rows holding the
    values that join on it (``joins``: value -> its key, :func:`_coverage`); without join
    statistics a value's rows are the column's mean rows per value (not exact)."""
    if not joins:
        return {}, True
    values = list(joins)
    stats = index.joinstats
    if stats is not None:
        rows = stats.counts(column, np.asarray(index.lookup(values), dtype=np.int64))
        exact = True
    else:
        row = index.columns.iloc[column]
        keyed, distinct = float(row["n_values"] - row["n_keyless"]), float(row["n_distinct"])
        rows, exact = np.full(len(values), keyed / distinct if distinct else 1.0), False
    out: dict = {}
    for v, n in zip(values, rows.tolist()):
        out[joins[v]] = out.get(joins[v], 0.0) + n
    return out, exact


def lake_rows_per_key(rows: dict) -> float | None:
    """An equality hit's fan-out for a program's join (join/preview.py ``key_ratio``): the
    rows holding the joining values over the keys they give (:func:`key_rows`)."""
    return sum(rows.values()) / len(rows) if rows else None


def joined_query_rows(rows: dict, made: dict, forward: bool, joined, tokens, weights) -> float:
    """The rows a join gives the query rows it joins: each joined query row times its key's
    lake rows (forward ``made`` holds the query rows per key; backward the key is the query
    value itself)."""
    if forward:
        return float(sum(made[k] * n for k, n in rows.items() if k in made))
    return float(sum(weights[i] * rows.get(tokens[i], 0.0) for i in joined.tolist()))


def fan_out(index, column, joins, made, forward, joined, tokens, weights) -> tuple:
    """(lake rows per joined key, exact, rows the joined query rows become)."""
    rows, exact = key_rows(index, column, joins)
    return (lake_rows_per_key(rows), exact,
            joined_query_rows(rows, made, forward, joined, tokens, weights))


def query_values_per_key(joined, joins: dict, forward: bool) -> float:
    """The query side's multiplicity of a program's join: the distinct query values that
    join over the keys they join on. Forward, the program may merge many query values onto
    one key (the first 7 letters of 240 ISO days give 30 months: 8); backward, each joined
    query value is its own key (1)."""
    if not forward or not joins or not len(joined):
        return 1.0
    return max(len(joined) / len(joins), 1.0)


def many_to_many(made: dict, n_in: int, other_is_key: bool) -> bool:
    """The join a program makes is N:M, which Auto-Join never makes (one side must supply
    a key column, at least ``KEY_RATIO`` distinct): the program merges the values it reads
    (its distinct outputs are under ``KEY_RATIO`` of them: a day cut out of dates) and the
    side it is compared with is not a key column either (upload counts). The search drops
    such a hit when its key reads as a measure (``MEASURE_KINDS``); a name-like key may be
    one column of a composite key, which ``Hit.autojoin`` learns by reading more columns."""
    return len(made) < KEY_RATIO * n_in and not other_is_key


FILLED_WARNING = ("the program keeps small numbers that the other side's numbers fill "
                  "(every number of their length is there): matches are likely coincidental")


WRAPPED_WARNING = ("the program wraps small numbers in constants, and numbers drawn at random "
                   "from their range would meet the other side's as often: matches are likely "
                   "coincidental")


def filled_numbers(made, keys: set) -> bool:
    """Are the program's outputs that meet ``keys`` all numbers of a length the keys fill
    (chance rate 1, or too few keys of that length to have a rate: chance.py)? The minutes
    of timestamps meet ranks 0..248 whatever the rule, so the hit is weighed as a number."""
    met = [o for o in made if o is not None and o in keys]
    if not met or not all(o.isascii() and o.isdigit() for o in met):
        return False
    rates = code_rates(keys)
    return all(len(o) not in rates or rates[len(o)][0] >= 1.0 for o in met)


def wrapped_numbers_by_chance(made, keys: set, program: Program) -> bool:
    """Does a program that wraps numbers in constants ("N" + a state code + "A1") meet
    ``keys`` no more often than numbers drawn at random from the same small range would,
    once the constants are cut from both sides (chance.py ``range_tail`` above ``ALPHA``)?
    The penguin ids N1A1 ... N100A1 meet any codes of 1..99 so."""
    head, tail = (t.casefold() for t in _constant_ends(program))
    if not head and not tail:
        return False

    def inner(v):               # the keys are case-folded, the constants may not be
        v = str(v).casefold()
        if len(v) > len(head) + len(tail) and v.startswith(head) and v.endswith(tail):
            return v[len(head):len(v) - len(tail)]
        return None
    outs = [inner(o) for o in made if o is not None]
    got = range_tail(outs, {k for k in map(inner, keys) if k is not None})
    return got is not None and got > ALPHA


def _constant_ends(program: Program) -> tuple[str, str]:
    """The texts a program's leading and trailing constant pieces write ("", "" when it
    reads nothing: a constant program has no number to wrap)."""
    from .dsl import Constant
    pieces = list(getattr(program, "pieces", ()))
    if all(isinstance(p, Constant) for p in pieces):
        return "", ""

    def run(seq) -> list:
        out = []
        for p in seq:
            if not isinstance(p, Constant):
                break
            out.append(p.text)
        return out
    return "".join(run(pieces)), "".join(reversed(run(reversed(pieces))))


BUILT_WARNING = ("the program writes the key mostly from constants around a few characters "
                 "of the value it reads (part of a number, or little of the value): matches "
                 "are likely coincidental")
CONSTANT_ABOVE = 0.5      # a program writing more than this share of its output as constants
KEPT_BELOW = 0.25         # and keeping under this share of the value it reads builds the key
BUILT_SAMPLE = 200        # source values the shares are measured on
_FIELD_RUN = re.compile(r"[0-9A-Za-z]{2,}")


def _piece_span(piece, out: str, src: str, folded: str):
    """Where in ``src`` a reading piece's output ``out`` comes from: (start, stop), or None
    when it is not there as written (a padding, a case change of part of it, a mapping)."""
    from .dsl import Column, Substring
    if isinstance(piece, Column):
        return 0, len(src)
    if isinstance(piece, Substring) and isinstance(piece.of, Column):
        start, stop, _ = slice(piece.start, piece.stop).indices(len(src))
        return start, max(start, stop)
    at = folded.find(out.casefold())
    return None if at < 0 or not out else (at, at + len(out))


def kept_and_constant(program: Program, sources: list) -> tuple[float, float, float]:
    """Over the ``sources`` the program makes an output of, the mean of: the share of a
    source value's characters its output holds, the share of the output its constant
    pieces write (a constant the value itself holds, a year written as "/2025" for dates of
    2025, counts as read), and whether a piece cuts a number (starts or ends inside a run
    of digits it does not read whole: the first digit of "18.06"). A piece reading the
    value counts where it is found in it, else whole (a padding), at most the value's
    length: "RUN-" + 7 padded keeps all of "7" and writes 4 of 7 characters as constants;
    "2025-0" + the first digit of "18.06 bar" + "-" + "06" keeps 3 of 9, writes 7 of 10
    and cuts "18". A constant's digits glued to the digits a piece reads ("2025-0" + "1")
write part of a number too, a cut of the output's number."""
    from .dsl import Constant
    if len(program.columns) != 1 or not sources:
        return 1.0, 0.0, 0.0
    name, n = program.columns[0], len(sources)
    outs = [evaluate_columns(p, {name: sources}, n) for p in program.pieces]
    kept, const, cut = [], [], []
    for i, src in enumerate(sources):
        parts = [o[i] for o in outs]
        if not src or any(p is None for p in parts):
            continue
        total = sum(map(len, parts))
        if not total:
            continue
        folded = src.casefold()
        covered, unplaced, written, cuts = set(), 0, 0, False
        glued = any(isinstance(x, Constant) != isinstance(y, Constant) and a and b and
                    a[-1].isdigit() and b[0].isdigit()
                    for x, y, a, b in zip(program.pieces, program.pieces[1:], parts, parts[1:]))
        for piece, out in zip(program.pieces, parts):
            if isinstance(piece, Constant):
                held = sum(len(r) for r in _FIELD_RUN.findall(out) if r.casefold() in folded)
                written += len(out) - held
                unplaced += held
                continue
            span = _piece_span(piece, out, src, folded)
            if span is None:
                unplaced += len(out)
                continue
            a, b = span
            covered.update(range(a, b))
            inside = (a > 0 and a < len(src) and src[a - 1].isdigit() and src[a].isdigit()) or \
                (0 < b < len(src) and src[b - 1].isdigit() and src[b].isdigit())
            cuts = cuts or inside
        if cuts:            # a cut another piece reads on from is no cut ("2" + "6" of 26)
            cuts = any(src[j].isdigit() and (j + 1 < len(src) and src[j + 1].isdigit() and
                                             j + 1 not in covered or
                                             j > 0 and src[j - 1].isdigit() and
                                             j - 1 not in covered)
                       for j in covered)
        kept.append(min(len(covered) + unplaced, len(src)) / len(src))
        const.append(written / total)
        cut.append(float(cuts or glued))
    if not kept:
        return 1.0, 0.0, 0.0
    return float(np.mean(kept)), float(np.mean(const)), float(np.mean(cut))


def built_from_constants(program: Program, sources: list) -> bool:
    """Does the program write its key mostly from constants (over ``CONSTANT_ABOVE`` of
    its output) around a few characters of the value it reads: under ``KEPT_BELOW`` of the
    value, or a number cut on most values (:func:`kept_and_constant`)? Such a key ("2025-0"
    + the first digit of a pressure + ...; the day of a date + ".00 bar") meets the other
    side because its constants match, not because the values name the same thing. A
    program cutting a part out of a longer value (a symbol out of "Hydrogen (H)") writes no
    constant, and one wrapping constants around the whole value (an id's prefix, an email's
    domain) keeps it: neither is."""
    kept, const, cut = kept_and_constant(program, sources[:BUILT_SAMPLE])
    return const > CONSTANT_ABOVE and (kept < KEPT_BELOW or cut > 0.5)


def numbers_by_density(made, keys: set, program: Program, forward: bool,
                       tokens: list) -> str | None:
    """The equality search's chance warning (join/preview.py ``chance_containment``) of a
    program's join, read on the numbers inside the keys: the query side's numbers (the
    program's outputs forward, the query's values backward) against the other side's,
    each without its common affixes (the program's constants: "RUN-" + 7 padded is 7).
    Integers that a sequence (RUN-001 ... RUN-120) holds all of below its largest meet it
    whatever they are: atomic numbers meet run ids. Asked only when both sides are numbers
    (``TYPE_SHARE`` of their distinct values integers once the affixes are cut)."""
    head, tail = _constant_ends(program)
    limits = (len(head), len(tail))
    outs = [o for o in made if o is not None]
    if forward:
        query_side, lake_side = affix_free(outs, limits), affix_free(sorted(keys))
    else:
        query_side, lake_side = affix_free(tokens), affix_free(outs, limits)
    for side in (query_side, lake_side):   # numbers both: not a code list holding a "1"
        if len(integers_of(side)) < TYPE_SHARE * len(set(side)):
            return None
    return chance_containment(query_side, lake_side)


def numbers_by_chance(made, keys: set, source_is_numbers) -> bool:
    """Do the numbers a program reads out of the query's values meet the lake column's no
    more often than numbers drawn at random from the same small range would (chance.py
    ``range_tail`` above ``ALPHA``)? A day cut out of a month of dates (1..31) meets every
    column of temperatures holding 1..31, at up to 100% coverage. Not asked when the query's
    values are integers themselves (the program reads no number out of a longer value;
    ``source_is_numbers``: a bool, or a function giving it, asked only when it matters)."""
    tail = range_tail(list(made), keys)
    if tail is None or tail <= ALPHA:
        return False
    return not (source_is_numbers() if callable(source_is_numbers) else source_is_numbers)


def lake_is_key(index, column: int) -> bool:
    """Auto-Join's key column, from the lake column's profile: at least ``KEY_RATIO`` of
    its values with a key are distinct."""
    row = index.columns.iloc[column]
    return int(row["n_distinct"]) >= KEY_RATIO * int(row["n_values"] - row["n_keyless"])


def _kinds(made: dict, program: Program) -> tuple:
    """(kind, warning) of a program's key from its outputs and their rows, without the
    affixes its leading and trailing constants add (an affix its outputs share because
    the values it reads share it is part of the key: "01/20/" of inauguration dates)."""
    head, tail = _constant_ends(program)
    return values_kind(list(made), np.array(list(made.values())),
                       limits=(len(head), len(tail)))


def lake_kind(index, column: int) -> tuple:
    """(kind, warning) of a lake column as the equality search reads it (its profile and,
    when the index has them, its value shapes: join/preview.py ``key_kind``), except that
    a column typed as dates is read from its text, as the program's outputs are (so
    "03/05/2019", typed a date, and "05.03.2019", not, weigh alike)."""
    row = index.columns.iloc[column]
    stats = index.joinstats
    col_type = str(row["type"])
    return key_kind("string" if col_type == "date" else col_type, int(row["n_distinct"]),
                    int(row["n_values"] - row["n_keyless"]),
                    stats.shape(column) if stats is not None else None,
                    samples=() if stats is not None else list(row["samples"]))


def few_keys(made: dict) -> bool:
    """Does a program make too few distinct keys to tell rows apart (join/preview.py
    ``key_kind``: two or fewer)?"""
    return len(made) <= FEW_KEYS


def key_weight(program_kind: tuple, other_kind: tuple) -> tuple:
    """(weight, kind, warning) of a transformation join, as the equality search weighs a key
    (join/preview.py ``usefulness``): the weaker of the two sides' kinds, the program's key
    on one side (its outputs, affixes cut) and the values it is compared with on the other
    (the lake column's profile forward; the query's values, affixes cut, backward)."""
    a, b = (KIND_WEIGHT.get(k[0], 0.5) for k in (program_kind, other_kind))
    kind = program_kind if a <= b else other_kind
    return min(a, b), kind[0], kind[1]


def partner_rows(program: Program, query_to_lake: bool, query_values, lake_values) -> np.ndarray:
    """Positions in ``lake_values`` (a lake column's cells) of the rows a hit's program joins
    to ``query_values`` (the query column's cells), compared as the search compares them:
    forward, the program's output on the query's learner text equals the lake cell's token;
    backward, its output on the lake cell's token equals a query token. Each distinct cell is
    transformed once."""
    if len(program.columns) != 1:
        raise ValueError("a transformation hit's program reads exactly one column")
    name = program.columns[0]
    lake_values = pd.Series(lake_values, dtype=object)
    codes, distinct = pd.factorize(lake_values, use_na_sentinel=True)
    tokens = normalize_many(distinct.tolist())
    if query_to_lake:
        texts = [t for t in dict.fromkeys(learn_text(v) for v in query_values) if t is not None]
        wanted = {canonical(o) for o in evaluate_columns(program.expr, {name: texts}, len(texts))}
        wanted.discard(None)
        hit = [t in wanted for t in tokens]
    else:
        wanted = set(normalize_many(list(query_values)))
        wanted.discard(None)
        out = evaluate_columns(program.expr, {name: tokens}, len(tokens))
        hit = [canonical(o) in wanted for o in out]
    if not hit:
        return np.zeros(0, dtype=np.int64)
    hit = np.array(hit, dtype=bool)
    return np.flatnonzero((codes >= 0) & hit[np.maximum(codes, 0)])


CASE_CHOICES = ("same", "lower", "upper", "title")


def recased(program: Program, casing: str, constants: bool, read: bool = True) -> Program:
    """``program`` with every piece read from its column in ``casing`` (``read`` False: left
    as they are) and, with ``constants``, its constants too; a table's output (``Map``)
    stays as it is. The texts it looks for in its column (a split's separator) stay as
    learned: the hit's program is applied to case-folded cells (:func:`partner_rows`)."""
    from .dsl import Constant, Map, Substring, Words, apply_casing
    pieces = []
    for p in program.pieces:
        if isinstance(p, Constant):
            p = Constant(apply_casing(p.text, casing)) if constants else p
        elif not read:
            pass
        elif isinstance(p, (Substring, Words)):
            p = dataclasses.replace(p, casing=casing)
        elif not isinstance(p, Map) and casing != "same":
            p = Substring(p, None, None, casing)
        pieces.append(p)
    return Program(tuple(pieces))


def shown_as_written(program: Program, source_values) -> Program:
    """``program`` for display: a text it looks for in its column (a split's separator, a
    replaced text), learned on case-folded cells, spelled as the source's cells write it
    most often ("k" is "K" in "KSEA"). Only for showing: the search applies the program as
    learned to case-folded cells (:func:`partner_rows`)."""
    from .dsl import Map, Replace, Split, Words, cell_text
    cells = [t for t in dict.fromkeys(cell_text(v) for v in source_values) if t is not None]

    def spelled(text: str) -> str:
        if not text or text.lower() == text.upper():
            return text
        found = Counter(m.group(0) for c in cells
                        for m in re.finditer(re.escape(text), c, flags=re.IGNORECASE))
        return found.most_common(1)[0][0] if found else text

    def walk(node):
        if not dataclasses.is_dataclass(node) or isinstance(node, Map):
            return node
        changes = {}
        for f in dataclasses.fields(node):
            v = getattr(node, f.name)
            if (f.name == "sep" and isinstance(node, (Split, Words))) or \
                    (f.name == "old" and isinstance(node, Replace)):
                changes[f.name] = spelled(v)
            elif dataclasses.is_dataclass(v):
                changes[f.name] = walk(v)
            elif isinstance(v, tuple):
                changes[f.name] = tuple(walk(x) for x in v)
        return dataclasses.replace(node, **changes)

    return Program(tuple(walk(p) for p in program.pieces))


def cased_program(program: Program, source_values, target_values,
                  evidence: int = 0) -> Program | None:
    """The program (:func:`recased`) whose outputs on the source's cells as written are
    most often the other side's cells as written. The search learns on case-folded values
    and compares case-insensitively, so its program may give "Vega-Altair.Contributors@..."
    where the lake holds "vega-altair.contributors@...": applied as shown, it should give
    the lake's values. The program as learned wins ties, then the one recasing only its
    constants. None when fewer than ``evidence``
    outputs equal a target but for their case (too few cells to tell the casing)."""
    from .dsl import cell_text
    if len(program.columns) != 1:
        return program
    src = [t for t in dict.fromkeys(cell_text(v) for v in source_values) if t is not None]
    targets = {t for t in (cell_text(v) for v in target_values) if t is not None}
    lowered = {t.lower() for t in targets}
    name = program.columns[0]
    out = evaluate_columns(program.expr, {name: src}, len(src))
    # the cells whose output is a target but for its case: recasing changes only those
    src = [v for v, o in zip(src, out) if o is not None and o.lower() in lowered]
    if len(src) < evidence:
        return None

    def exact(p: Program) -> int:
        return sum(o in targets for o in evaluate_columns(p.expr, {name: src}, len(src)))

    best, most = program, exact(program)
    # the constants alone recased first: pieces whose case is already right ("X-" + a
    # number, not "X-" + upper(number)) stay as learned
    choices = [(c, True, False) for c in CASE_CHOICES[1:]] + \
        [(c, constants, True) for c in CASE_CHOICES for constants in (False, True)]
    for casing, constants, read in choices:
        if most == len(src):
            return best
        p = recased(program, casing, constants, read)
        n = exact(p) if p != program else most
        if n > most:
            best, most = p, n
    return best


def _examples(chosen, partners: dict, texts: list):
    """The learner's rows: the chosen values with partners (``texts`` by sample position),
    their partners, and the pairs (left index, right index, score), best values first."""
    taught = [int(q) for q in chosen if int(q) in partners]
    left = [texts[q] for q in taught]
    right = sorted({p for q in taught for p in partners[q][0]})
    where = {v: j for j, v in enumerate(right)}
    pairs = [(i, where[p], sc) for i, q in enumerate(taught) for p, sc in zip(*partners[q])]
    return left, right, pairs


def _minority_draw(got, where: tuple, chosen, partners: dict, texts: list, names: tuple,
                   columns: tuple | None = None, keys: tuple | None = None):
    """Learn once more when key pairs left at least three, and a tenth, of the chosen
    values without a partner (too few for the gram lookup, which waits for half): those
    values get their gram partners, and the example pairs alternate between them and the
    key-paired values, so an example set holds both shapes. The program fitting more of
    the two together wins (the first in ties). Found by use: two thirds of a query's IAM
    ARNs are "policy/<name>" (key pairs), a third "policy/service-role/<name>" (grams
    only); learned from the first alone, `part 2 (split at "/")` joins 64% of the rows,
    `last part` all."""
    lake, ti, ev, column, scan = where
    lacking = [int(q) for q in chosen if int(q) not in partners]
    if len(lacking) < 3 or len(lacking) * 10 < len(chosen):
        return got
    more = _partners(lake, ti, ev, column, chosen, scan, texts, len(chosen), always=True)
    if sum(q in more for q in lacking) < 3:
        return got
    left, right, pairs = _examples(chosen, more, texts)
    taught = [int(q) for q in chosen if int(q) in more]
    alone = {i for i, q in enumerate(taught) if q not in partners}
    minority = [p for p in pairs if p[0] in alone]
    majority = [p for p in pairs if p[0] not in alone]
    mixed = [p for two in zip(minority, majority) for p in two]
    mixed += minority[len(majority):] + majority[len(minority):]
    again = learn_program([(i, j, 1.0 / (1 + r)) for r, (i, j, _s) in enumerate(mixed)],
                          left, right, names, columns=columns, keys=keys)
    if again is None:
        return got
    before = _sample_fit(*got, left, right, lake, column)
    return again if _sample_fit(*again, left, right, lake, column) > before else got


def _sample_fit(program: Program, forward: bool, left: list, right: list, lake: _Lake,
                column: int) -> float:
    """Share of the learning sample a program already found joins: of the query values
    (forward: their output is a value of the column) or of the partners (backward: their
    output is one of the sampled query values)."""
    if len(program.columns) != 1:
        return 0.0
    src = left if forward else right
    out = evaluate_columns(program.expr, {program.columns[0]: src}, len(src))
    target = lake.token_set(column) if forward else {canonical(v) for v in left}
    return sum(1 for o in out if canonical(o) in target) / max(len(src), 1)


def _joined(found: tuple, lake: _Lake, column: int, tokens: list, texts: list,
            weights: np.ndarray) -> tuple:
    """A program found for a column, measured on the whole query: (program, forward, then
    :func:`_coverage`'s four results, the share of query rows joined, query values per
    key). A forward program's padding is widened where the column's values show it."""
    program, forward = found
    if forward:      # a padding the sample's numbers cannot show, the column's values do
        program = widest_padding(program, lake.tokens(column, WIDEST_PADDING_VALUES))
    joined, made, joins, n_in = _coverage(program, forward, lake, column, tokens, texts,
                                          weights)
    share = float(weights[joined].sum()) / (float(weights.sum()) or 1.0)
    return (program, forward, joined, made, joins, n_in, share,
            query_values_per_key(joined, joins, forward))


def _finer(one: tuple, other: tuple) -> bool:
    """Does one program's join (:func:`_joined`) cover at least the other's share of query
    rows and keep more query values apart (fewer per key)? Coverage first, as
    LearnTransform ranks programs; the finer program breaks its ties."""
    return one[6] >= other[6] and one[7] < other[7]


def _whole_key_pairs(keys: set, texts: list, weights: np.ndarray) -> tuple:
    """The sampled values (``texts``, ``weights``: their rows) that hold a value of the
    column (``keys``) as whole words ("3/3/24" in "3/3/24 10:18"), as Auto-Join's partial
    pass pairs rows (deviation 68; of several keys in one value, those not inside another):
    (their texts, their rows, the keys held, the row pairs)."""
    longest = max(map(len, keys), default=0)
    left, rows, right, where, pairs = [], [], [], {}, []
    for text, w in zip(texts, weights.tolist()):
        found = whole_word_keys(text, keys, longest) if text else []
        found = [g for g in found if not any(g != h and g in h for h in found)]
        if not found:
            continue
        for g in found:
            if g not in where:
                where[g] = len(right)
                right.append(g)
            pairs.append(RowPair(len(left), where[g], g, 1.0, True))
        left.append(text)
        rows.append(w)
    return left, rows, right, pairs


def _whole_key_program(left: list, lw: list, right: list, pairs: list, keys: set,
                       names: tuple):
    """The program joining the most of ``left``'s rows (weights ``lw``) learned from
    example sets of 2 of the whole-key pairs (:func:`_whole_key_pairs`) with distinct
    values and keys (the partial pass's sets, ``pair_example_sets``), as (program, True),
    or None."""
    held: dict = {}
    for p in pairs:
        held[p.target_row] = held.get(p.target_row, 0) + 1
    pairs = sorted(pairs, key=lambda p: (-held[p.target_row], p.target_row, p.source_row))
    cache: dict = {}
    best = None
    for chosen in pair_example_sets([PairGroup(names[0], names[1], pairs)], LEARN)[0]:
        examples = [Example((left[r.source_row],), right[r.target_row], r.source_row,
                            r.target_row) for r in chosen]
        program = try_learn_transform(examples, [names[0]], LEARN, cache)
        if program is None:
            continue
        out = evaluate_columns(program.expr, {names[0]: left}, len(left))
        rows = sum(w for o, w in zip(out, lw) if canonical(o) in keys)
        if best is None or rows > best[0]:
            best = (rows, program)
    return None if best is None else (best[1], True)


def _by_whole_keys(measured: tuple, lake: _Lake, column: int, sample: tuple, query: tuple,
                   names: tuple):
    """The join (:func:`_joined`) of the program learned from whole keys
    (:func:`_whole_key_program`) when it joins more of the query's rows than the verified
    one (``measured``) and passes the partial pass's bar (Auto-Join's ``_partial_acceptable``):
    2+ keys through at least half of the query's rows, ``SMALL_ROWS_PER_KEY`` rows per key
    (a program fitted to its examples' coincidence joins few rows beyond them); else None.
    Learned only when the sampled values holding a whole key outweigh the rows the verified
    program joins. ``sample``: the sampled values' texts and rows; ``query``: every value's
    tokens, texts and rows."""
    texts, rows = sample
    keys = lake.token_set(column)
    left, lw, right, pairs = _whole_key_pairs(keys, texts, rows)
    if len(right) < 2 or sum(lw) <= measured[6] * float(rows.sum()):
        return None
    got = _whole_key_program(left, lw, right, pairs, keys, names)
    if got is None:
        return None
    tokens, all_texts, weights = query
    own = _joined(got, lake, column, tokens, all_texts, weights)
    joined_rows, n_keys = float(weights[own[2]].sum()), len(own[4])
    if own[6] <= measured[6] or n_keys < 2 or 2 * joined_rows < float(weights.sum()) \
            or joined_rows < SMALL_ROWS_PER_KEY * n_keys:
        return None
    return own


def _retrieval_texts(tokens: list, texts: list, pick: np.ndarray):
    """The sampled values' spellings for retrieval: as the user wrote them (casefolded) and,
    where it differs, as the lake's tokens spell them ("06" and "6")."""
    spell, owner = [], []
    for j, i in enumerate(pick.tolist()):
        spell.append(texts[i])
        owner.append(j)
        if tokens[i] != texts[i]:
            spell.append(tokens[i])
            owner.append(j)
    return spell, np.array(owner, dtype=np.int64)


def _lake_spellings(index, query, display: dict) -> dict:
    """A lake column query's token -> the first spelling its table writes: the index holds
    tokens ("10" for "0010"), so a program learned on them ("0x" + "10") missed the values
    the join reads as written and the search counted fewer than the join joins."""
    from ...index.tables import find_table, lake_table
    try:
        cells = lake_table(find_table(index, query.origin), warn_changed=False)[
            query.columns[0]].tolist()
    except Exception:       # the table moved or changed: the tokens as they are
        return display
    spelled = dict(display)
    seen: set = set()
    for raw, tok in zip(cells, normalize_many(cells)):
        if tok is not None and tok not in seen:
            seen.add(tok)
            spelled[tok] = raw
    return spelled


def search(index, query, k: int | None = 10, threshold: float | None = None, *, sample: int = 256,
           candidates: int = 20, learn_values: int = 40, scan: int = 10_000_000,
           max_postings: int = 2000, include_equal: bool = False, seed: int = 0):
    """The hits (module docstring) as engine Candidates, and the search's statistics."""
    from ...index.transform_arrays import load
    t0 = time.perf_counter()
    ti = load(index)
    lake = _Lake(index)
    tokens, texts, weights = _query_side(query, index)
    query_keys = set(tokens)
    rng = np.random.default_rng(seed)
    pick = np.sort(rng.choice(len(tokens), size=sample, replace=False)) \
        if len(tokens) > sample else np.arange(len(tokens))
    tie = rng.permutation(len(pick))          # a random order among equally good pairs
    sampled_texts = [texts[i] for i in pick]
    spell, owner = _retrieval_texts(tokens, texts, pick)
    ev = evidence(ti, spell, owner, max_postings, pad=PAD_DIGITS)
    if not include_equal and len(ev.qi):
        eq_q, eq_c = lake.equal_pairs([tokens[i] for i in pick])
        n_cols = max(int(index.n_sets), 1)
        equal = np.isin(ev.qi * n_cols + ev.column, eq_q * n_cols + eq_c)
        ev = type(ev)(ev.qi[~equal], ev.column[~equal], ev.score[~equal], ev.token[~equal],
                      ev.code[~equal], ev.n_values)
    cols, scores = column_scores(ev, exclude=query.exclude)
    t_retrieve = time.perf_counter() - t0
    names = index.columns["name"].astype(str).tolist()
    qname = str(query.columns[0])
    total = float(weights.sum()) or 1.0
    hits, stats = [], {"sampled_values": len(pick), "paired_columns": int(len(cols)),
                       "short_segments": bool(ti.spec.short),
                       "candidates": [int(c) for c in cols[:candidates]],
                       "verified": 0, "programs": 0, "learned": 0, "many_to_many": 0,
                       "chance": 0, "chance_numbers": 0, "whole_keys": 0,
                       "constant_field": 0}
    numbers_of_query: list = []

    def query_is_numbers():             # the query's values are integers themselves
        if not numbers_of_query:
            numbers_of_query.append(len(integers(tokens)) == len(tokens))
        return numbers_of_query[0]
    kind_of_query: list = []

    def query_side_kind():
        if not kind_of_query:
            kind_of_query.append(values_kind(tokens, weights))
        return kind_of_query[0]

    cache: list = []                    # (program, source is query) learned so far
    trace: list = []                    # [column, share, score, coverage] per verified one
    stats["trace"] = trace
    order = np.argsort(ev.column, kind="stable")
    col_sorted = ev.column[order]
    for X, score in zip(cols[:candidates].tolist(), scores[:candidates].tolist()):
        lo, hi = np.searchsorted(col_sorted, X), np.searchsorted(col_sorted, X, side="right")
        sel = order[lo:hi]
        ex = type(ev)(ev.qi[sel], ev.column[sel], ev.score[sel], ev.token[sel], ev.code[sel],
                      ev.n_values)
        share = len(np.unique(ex.qi)) / max(len(pick), 1)
        if k is not None and len(hits) >= k and sorted(h[0] for h in hits)[-k] >= share:
            break                       # k hits cover more than this one pairs
        stats["verified"] += 1
        trace.append([X, round(share, 3), round(score, 3), None])
        by_value = np.lexsort((tie[ex.qi], -ex.score))    # equal scores: in random order
        paired = pd.unique(ex.qi[by_value])
        chosen = paired[:learn_values]                   # by their rarest pair (a redraw's)
        partners = _partners(lake, ti, ex, X, paired, scan, sampled_texts, learn_values)
        keyed = set(ex.qi[ex.token >= 0].tolist())     # key pairs first, then gram pairs
        taught = sorted((int(q) for q in paired if int(q) in partners),
                        key=lambda q: (q not in keyed, -max(partners[q][1]), tie[q]))
        left, right, pairs = _examples(taught[:learn_values], partners, sampled_texts)
        if len(left) < 3 or len(right) < 3:
            continue
        found = None
        for program, forward in cache[-3:]:  # a program found for an earlier candidate
            if not forward:         # it reads that candidate's column: read this one's
                program = program.renamed({c: names[X] for c in program.columns})
            if _sample_fit(program, forward, left, right, lake, X) >= 0.8:
                found = (program, forward)
                break
        measured = None if found is None else _joined(found, lake, X, tokens, texts, weights)
        # one merging query values onto fewer keys (days onto their year) may be coarser
        # than this column's own: learn that too; the finer of two joining as much wins
        if measured is None or measured[7] > 1.0:
            stats["learned"] += 1
            whole = (texts, lake.spread_tokens(X, FORMAT_SAMPLE))
            keys = (query_keys, lake.token_set(X))
            got = learn_program(pairs, left, right, (qname, names[X]), columns=whole,
                                keys=keys)
            if got is not None:
                got = _minority_draw(got, (lake, ti, ex, X, scan), chosen, partners,
                                     sampled_texts, (qname, names[X]), whole, keys)
                stats["programs"] += 1
                if got not in cache:
                    cache.append(got)
                own = _joined(got, lake, X, tokens, texts, weights)
                if measured is None or _finer(own, measured):
                    measured = own
            if measured is None:
                continue
        # a program joining part of the rows may be a chance fit of the index's pairs (the
        # time of day read as a month and day): one learned from whole keys may join more
        whole = None if measured[6] >= WHOLE_KEY_BELOW else _by_whole_keys(
            measured, lake, X, (sampled_texts, weights[pick]), (tokens, texts, weights),
            (qname, names[X]))
        if whole is not None:
            measured = whole
            stats["whole_keys"] += 1
        program, forward, joined, made, joins, n_in = measured[:6]
        shown = program
        if forward and len(joined):     # rows folded onto another's key: unjoined (dev. 82)
            outs = [canonical(o) for o in evaluate_columns(
                program.expr, {program.columns[0]: texts}, len(texts))]
            shown = unfolded(program, texts, outs, lake.token_set(X))
            if shown is not program:
                folded = folded_rows(texts, outs, lake.token_set(X))
                joined = np.array([i for i in joined.tolist() if i not in folded],
                                  dtype=np.int64)
        if not len(joined):
            continue
        coverage = float(weights[joined].sum()) / total
        if threshold is not None and coverage < threshold:
            continue
        keyset = lake.token_set(X) if forward else set(tokens)
        if replaced_field(program, texts if forward else lake.spread_tokens(
                X, SOURCE_SAMPLE), list(made)) is not None:
            stats["constant_field"] += 1        # "2024" written where the query holds 2023
            continue
        if whole is None and (not above_chance(made, keyset) or dates_by_chance(made, keyset)):
            stats["chance"] += 1    # short codes or dates met no more often than chance
            continue
        other = lake_kind(index, X) if forward else query_side_kind()
        made_kind = _kinds(made, program)
        weight, kind, warning = key_weight(made_kind, other)
        if filled_numbers(made, keyset):
            weight, kind, warning = min(weight, COINCIDENCE_WEIGHT), "number", FILLED_WARNING
        elif wrapped_numbers_by_chance(made, keyset, program):
            weight, kind, warning = min(weight, COINCIDENCE_WEIGHT), "number", WRAPPED_WARNING
        elif built_from_constants(program, [texts[i] for i in joined.tolist()] if forward
                                  else list(joins)):
            weight, kind, warning = min(weight, CHANCE_WEIGHT), "number", BUILT_WARNING
        elif (chance := numbers_by_density(made, keyset, program, forward, tokens)):
            weight, kind, warning = min(weight, CHANCE_WEIGHT), "number", chance
        if kind in MEASURE_KINDS and many_to_many(
                made, n_in, lake_is_key(index, X) if forward else
                len(tokens) >= KEY_RATIO * float(weights.sum())):
            stats["many_to_many"] += 1          # a number merged onto counts: a coincidence
            continue
        if forward and numbers_by_chance(made, lake.token_set(X), query_is_numbers):
            stats["chance_numbers"] += 1        # a day of the month onto temperatures
            continue
        query_side = None
        if forward and (kind, warning) in (made_kind, other) and few_keys(made):
            # a forward program's keys are the query's side: that they are few is the
            # query's fact (a note, as the equality search's), the key is the lake column
            query_side, kind, warning = made_kind, other[0], other[1]
        hits.append((coverage * weight, score, X, (program, shown), forward, joined, coverage,
                     kind, warning, fan_out(index, X, joins, made, forward, joined,
                                            tokens, weights),
                     query_values_per_key(joined, joins, forward), query_side))
        trace[-1][3] = round(coverage, 3)
    hits.sort(key=lambda h: (-h[0], -h[1], h[2]))
    out = [_candidate(h, index, tokens, weights) for h in hits[:k]]   # k None: all
    stats.update(retrieve_seconds=round(t_retrieve, 4),
                 seconds=round(time.perf_counter() - t0, 4))
    return out, stats


def pattern_example(index, column_id: int, pattern: str, constants: frozenset,
                    limit: int = 2000) -> str:
    """One of the column's own values with its most common shape (the shortest among the
    first ``limit``), to explain the shape with; "" when none is found."""
    if not pattern:
        return ""
    ids = np.asarray(index.arrays.set_tokens(int(column_id)))[:limit]
    found = [t for t in index.token_text(ids) if value_shape(t, constants) == pattern]
    return min(found, key=lambda t: (len(t), t)) if found else ""


def _candidate(hit, index, tokens, weights) -> Candidate:
    (weighted, score, X, (program, shown), forward, joined, coverage, kind, warning, fan_out,
     merged, query_side) = hit
    from ...index.transform_arrays import load
    cols = load(index).columns
    row = cols[cols["column_id"] == X]
    pattern = str(row["pattern"].iloc[0]) if len(row) else ""
    share = float(row["pattern_share"].iloc[0]) if len(row) else 0.0
    constants = frozenset(row["constants"].iloc[0]) if len(row) else frozenset()
    direction = "query -> lake" if forward else "lake -> query"
    return Candidate(
        column_ids=(X,), score=weighted, overlap=int(len(joined)), exact=True,
        details={"program": shown.describe(), "program_json": program.to_json(),
                 # the guard leaving rows folded onto another's key unjoined (deviation 82)
                 "program_guard": None if shown is program else shown.branches[0][0].to_dict(),
                 "direction": direction, "coverage": coverage, "key_kind": kind,
                 "key_warning": warning, "key_weight": weighted / coverage if coverage else 1.0,
                 "key_ratio": fan_out[0], "key_ratio_exact": fan_out[1],
                 "joined_rows_after": fan_out[2], "query_ratio": merged,
                 "joined_rows": int(weights[joined].sum()), "query_rows": int(weights.sum()),
                 "retrieval_score": float(score), "lake_pattern": pattern,
                 "lake_pattern_share": share,
                 "lake_pattern_example": pattern_example(index, X, pattern, constants),
                 "matched_tokens": sorted(tokens[i] for i in joined),
                 # the program's keys on the query's side, when they are too few to tell
                 # rows apart: (kind, warning), a note of the search's (engine.py)
                 "query_key_kind": None if query_side is None else query_side[0],
                 "query_key_warning": None if query_side is None else query_side[1]})


def _run(index, query, params):
    o = params.options
    return search(index, query, params.k, params.threshold, sample=o["sample"],
                  candidates=o["candidates"], learn_values=o["learn_values"], scan=o["scan"],
                  max_postings=o["max_postings"], include_equal=o["include_equal"],
                  seed=o["seed"])


METHOD = SearchMethod(
    name="transform", label="Needs a transformation", kind="exact", run=_run,
    requires=("transform",), priority=-10, score_name="joined coverage x key weight",
    kind_label="heuristic",    # its candidates are heuristic; each hit's coverage is counted
    description="Lake columns the query joins only after a transformation (names vs "
                "emails, reformatted dates, prefixed codes): candidates share rare pattern "
                "keys or q-grams with the query; each is verified by learning an Auto-Join "
                "program, and ranked by the share of query rows it joins, weighted by "
                "the kind of its key (a number cut out of a date weighs little).",
    params=(ParamSpec("sample", "Query values sampled", "int", 256, 16, 100_000, 16,
                      help="Query values (fixed seed) paired with the lake's columns."),
            ParamSpec("candidates", "Columns verified at most", "int", 20, 1, 1000, 1,
                      help="Best-paired columns a program is learned for."),
            ParamSpec("learn_values", "Values per verification", "int", 40, 4, 1000, 1,
                      help="Sampled query values (with their partners) given to the learner."),
            ParamSpec("scan", "Values scanned for gram partners", "int", 10_000_000, 100, 10**8,
                      1000, help="A column's values searched for partners sharing a gram."),
            ParamSpec("max_postings", "Longest posting list read", "int", 2000, 1, 10**9, 100,
                      help="Keys and grams held more often are not rare: skipped."),
            ParamSpec("include_equal", "Include equi-joins", "bool", False,
                      help="Also pair equal values and keep columns joining as they are."),
            ParamSpec("seed", "Random seed", "int", 0, 0, 10**6, 1,
                      help="Seed of the query sample.")),
)
