"""Transformation learning from a few example row pairs (thesis §4.4.2, Algorithms 4 and 5).

TryLearnTransform (Algorithm 4) is a greedy hierarchical search over the logical operators
CONSTANT, SUBSTR, SPLITSUBSTR and SPLITSPLITSUBSTR: the operator producing the most output
characters over the examples is chosen, each output is cut around its piece, and the
remainders are learned recursively, backtracking to the next-best operator when one cannot
be learned; at most ``tau`` logical operators. LearnTransform (Algorithm 5) learns from random
example sets of 3-4 top pairs per column pair, keeping the most target keys (MaxByCoverage).

Note:
    Choices the thesis leaves open: SPLIT separators (also text every example has around
    its output, " at "), SelectK range, example sets from the k best pairs, leftmost
    occurrences, ties by validation pairs, a backtracking budget, operands ranked lazily.
    Deviations (each explained in docs/algorithms/autojoin.md):
    - operands read through Replace (whitespace; a value's one separator as the text the
      output has there), Trim, Pad (zero width; also a number cut from a cell, 63) and Map;
    - ties: a whole column or part before a cut one, and before a shared constant;
    - parts before the last (two) / after the first (two, 73), a first word dropped with
      its punctuation, the part before the first / after the last of two characters (73);
    - a padded variant of number programs; a failing set of 4 retried without each example;
      a set of 2 for 2 keys, any 2 in the partial pass (68); an N:1 group: every paired row;
    - a column's punctuation character swapped for another (or dropped) everywhere, or in
      a split's part, where that makes every example's value occur whole in its output;
    - operands read through Words (each word cased, joined: "ERRCODE_NO_DATA" -> "NoData";
      "FiraGO" kept whole, 72), cut between words only; through Encode ("A/B" -> "A%2FB");
    - the programs that differ in one piece giving the same piece on every example (a tie
      lost to the order above) are returned as variants, kept where they extend the program;
    - ``generalised``: no constant that is a piece of a field varying across the target or
      a field the sources hold and other rows vary (79), no cut inside a number (``whole_rows``;
      ``moves_by_row_literal`` flags a Replace of a few rows' own text onto other keys, 86).
"""
from __future__ import annotations

import functools
import heapq
import itertools
import random
import re
import dataclasses
from dataclasses import dataclass, field
from math import comb
from typing import Callable, Sequence

import numpy as np

from .dsl import (CASINGS, ENCODINGS, MAP_TABLES, MAPS, Column, Concat, Constant, Encode, Map,
                  Pad, Program, ProgramSet, Replace, SelectK, Split, Substring, Trim, Words,
                  apply_casing, compile_expr, evaluate_columns, join_words, map_value,
                  select_rest, normalize_space, pad_digits, split_words)
from .constant_fields import constant_fields, varying_field, widened, writes_varying

_TOKENS = re.compile(r"[^\W_]+")
MAX_SEP_LEN = 3
MAX_PARTS = 8


@dataclass(frozen=True)
class Example:
    """One input/output pair: the source row's cells (aligned with the learner's columns)
    and the target key value the program must produce."""
    row: tuple
    output: str
    source_row: int = -1
    target_row: int = -1


@dataclass
class LearnSettings:
    tau: int = 10               # max logical operators per program (thesis: 10 suffices, 16 ok)
    max_branch: int = 4         # operators tried per search node before giving up
    max_nodes: int = 64         # search nodes per example set
    max_expand: int = 8         # operands expanded into operators per search node
    max_validation: int = 8     # validation pairs that break ties in progress
    examples_per_set: tuple = (3, 4)   # b: size of an example set (alternating)
    top_k: int = 16             # k: best pairs per group used to draw example sets
    sets_per_group: int = 32    # r: example sets drawn per group
    max_sets: int = 128         # L: example sets in total
    patience: int = 8           # once a program is found, a group stops after this many
                                # sets that do not improve the best coverage
    leave_one_out: bool = True  # where the caller asks (the composite fallback): a failing
                                # set of 4 is learned without each of its examples
    seed: int = 0


# ------------------------------------------------------------------ operands

def separators(values: Sequence[str]) -> list[str]:
    """SPLIT separator candidates of some values (see module docstring), in first-seen order."""
    seen: dict = {}
    for v in values:
        run = []
        for ch in v + "a":
            if not ch.isalnum():
                run.append(ch)
                continue
            if run:
                if len(run) <= MAX_SEP_LEN:
                    seen.setdefault("".join(run), None)
                for c in run:
                    seen.setdefault(c, None)
                run = []
    return list(seen)


def _indexes(n: int) -> list[int]:
    m = min(n, MAX_PARTS)
    return list(range(m)) + [-i for i in range(1, m + 1)]


_INDEXES = [_indexes(n) for n in range(MAX_PARTS + 1)]    # _indexes(n) for n <= MAX_PARTS


def _separators_of(v: str, cache: dict) -> list:
    key = ("seps", v)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = separators((v,))
    return hit


def _splits(sep: str, cache: dict) -> dict:
    """The memo of splits at ``sep``: a value -> ``value.split(sep)``."""
    memo = cache.get(("split", sep))
    if memo is None:
        memo = cache[("split", sep)] = {}
    return memo


def _split_any(v: str, split: Split, cache: dict) -> list:
    key = ("split_any", v, split.sep)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = split.parts(v)
    return hit


# the spans of a split offered (deviation 26; the second pair, deviation 73, only at a
# separator without whitespace of a part before the first / after the last of two
# characters): all before the last part, all after the first, before the last two, after
# the first two
SPANS = ((-1, "before"), (0, "after"), (-2, "before"), (1, "after"))


def _field_separator(sep: str) -> bool:
    """A separator of a code's or a file name's fields ("-", "/"), not of words."""
    return not any(ch.isspace() for ch in sep)


def _first_of_part(node) -> bool:
    """The part before the first / after the last of two characters (deviation 73)."""
    return isinstance(node, SelectK) and node.of.any_of


def operands(examples: Sequence[Example], columns: Sequence[str],
             cache: dict | None = None) -> list:
    """Distinct operand tuples (one string per example) with the simplest path producing
    them: columns first, then SelectK(Split(column)), then SelectK(Split(SelectK(Split(
    column)))), each level expanded from the new tuples of the previous one, then the
    parts before the first / after the last of two characters of a column and their parts
    (deviation 73). Separators are those of any example's value; string work is cached
    across example sets."""
    cache = cache if cache is not None else {}
    out: dict = {}
    level1 = []
    for ci, name in enumerate(columns):
        vals = tuple(ex.row[ci] for ex in examples)
        if any(not v for v in vals):
            continue
        node = Column(name)
        if vals not in out:
            out[vals] = node
            level1.append((node, vals))

    outputs = [ex.output for ex in examples]

    def expand(items, first_of: bool):
        nxt = []
        for node, vals in items:
            seps = dict.fromkeys(sep for v in vals for sep in _separators_of(v, cache))
            seps.update(dict.fromkeys(context_separators(vals, outputs)))
            for sep in seps:
                memo = _splits(sep, cache)
                try:
                    parts = list(map(memo.__getitem__, vals))
                except KeyError:
                    parts = [memo[v] if v in memo else memo.setdefault(v, v.split(sep))
                             for v in vals]
                counts = list(map(len, parts))
                n = min(counts)
                if max(counts) == 1:
                    continue
                split = Split(node, sep)
                for k in _INDEXES[min(n, MAX_PARTS)]:
                    sub = tuple([p[k] for p in parts])
                    if sub in out or not all(sub) or sub == vals:
                        continue
                    child = SelectK(split, k)
                    out[sub] = child
                    nxt.append((child, sub))
                # all before the last part, all after the first (deviation 26): a part of
                # varying length, "George H.W." of "George H.W. Bush" beside "Bill" of
                # "Bill Clinton"; only where the examples' part counts differ (otherwise
                # the fixed parts and constants between them say the same); added after
                # every plain part, which keeps the values both give
                if n < 2 or max(counts) == n:
                    continue
                for k, rest in SPANS if _first_of_part(node) and _field_separator(sep) \
                        else SPANS[:2]:
                    sub = tuple(select_rest(p, k, rest, sep) for p in parts)
                    if all(sub) and sub != vals:
                        spans.append((SelectK(split, k, rest), sub))
            # the part before the first / after the last of two punctuation characters of
            # a column (deviation 73): a field that ends at "_" in some values and at "."
            # in others; kept aside, after every plain part (see below)
            chars = [sep for sep in seps if len(sep) == 1 and not sep.isspace()] \
                if first_of else []
            for a, b in itertools.combinations(chars, 2):
                split = Split(node, "".join(sorted(a + b)), any_of=True)
                parts = [_split_any(v, split, cache) for v in vals]
                n = min(len(p) for p in parts)
                if n < 2:
                    continue
                for k in (0, -1):
                    sub = tuple(p[k] for p in parts)
                    if sub in out or sub in firsts or not all(sub):
                        continue
                    firsts[sub] = SelectK(split, k)
        return nxt

    spans: list = []
    firsts: dict = {}
    expand(expand(level1, True), False)
    # the first-of parts, each after a plain part of two splits giving the same values
    # ("part 1 (split at ".") of part 1 (split at "_")" where no example ends at "_" first),
    # then their own parts, which no two splits reach
    for sub, node in firsts.items():
        out.setdefault(sub, node)
    expand([(node, sub) for sub, node in firsts.items()], False)
    for node, sub in spans:
        out.setdefault(sub, node)
    return [(node, vals) for vals, node in out.items()]


MAX_CONTEXT_SEP = 16


def context_separators(vals: Sequence[str], outputs: Sequence[str]) -> list:
    """Separators with letters, from the examples' own context (not in the thesis): where
    every output occurs whole in its example's value (ignoring case), the longest text
    before it that all examples share, cut to start at a non-alphanumeric character, and
    likewise after it, cut to end at one (" at " and " Tickets on " around "New Orleans
    Saints" in "Atlanta Falcons at New Orleans Saints Tickets on 21-Dec-2014"; no cut when
    the text is the same in every example), each of at most ``MAX_CONTEXT_SEP``
    characters. A field delimited by words is then a part."""
    lefts, rights = [], []
    for v, o in zip(vals, outputs):
        i = v.lower().find(o.lower()) if o else -1
        if i < 0:
            return []
        lefts.append(v[:i])
        rights.append(v[i + len(o):])
    out = []
    before = _common_end(lefts)
    if len(set(lefts)) == 1 and len(before) <= MAX_CONTEXT_SEP:
        out.append(before)                     # the whole text before: no cut needed
    else:
        before = before[-MAX_CONTEXT_SEP:]
        cut = next((k for k, ch in enumerate(before) if not ch.isalnum()), None)
        if cut is not None:
            out.append(before[cut:])
    after = _common_start(rights)
    if len(set(rights)) == 1 and len(after) <= MAX_CONTEXT_SEP:
        out.append(after)
    else:
        after = after[:MAX_CONTEXT_SEP]
        cut = next((k for k in range(len(after) - 1, -1, -1) if not after[k].isalnum()), None)
        if cut is not None:
            out.append(after[:cut + 1])
    return [sep for sep in out if any(ch.isalnum() for ch in sep)]


def _common_start(texts: Sequence[str]) -> str:
    first = texts[0]
    n = min(len(t) for t in texts)
    i = 0
    while i < n and all(t[i] == first[i] for t in texts):
        i += 1
    return first[:i]


def _common_end(texts: Sequence[str]) -> str:
    return _common_start([t[::-1] for t in texts])[::-1]


def replaced_operands(ops: list, outputs: Sequence[str], cache: dict | None = None) -> list:
    """Operands read through ``Replace(old, new)``: ``old`` a whitespace character of the
    operand's values, ``new`` empty or a non-alphanumeric character of the outputs. One
    is kept only where it matters: for some example the replaced value (ignoring case)
    occurs whole in the output while the value as it is does not ("New York" ->
    "NewYork")."""
    cache = cache if cache is not None else {}
    news = [""] + sorted({ch for o in outputs for ch in o if not ch.isalnum()})
    seen = {vals for _node, vals in ops}
    out = []
    known = [cache.setdefault(("repl of", o), {}) for o in outputs]   # per output: v -> hit
    for node, vals in ops:
        useful: set = set()
        for v, o, hits in zip(vals, outputs, known):
            hit = hits.get(v)
            if hit is None:
                hit = hits[v] = _useful_replacements(v, o, news, cache)
            if hit:
                useful.update(hit)
        if isinstance(node, Column):       # a whole value's separators (deviation 32)
            useful.update(_separator_swaps(vals, outputs, news, cache))
        elif isinstance(node, SelectK):    # a split's part that is the whole key (dev. 36)
            useful.update(_part_swaps(vals, outputs, news, cache))
        for old, new in sorted(useful):
            rv = tuple(v.replace(old, new) for v in vals)
            if rv not in seen and all(rv):
                seen.add(rv)
                out.append((Replace(node, old, new), rv))
    return out


def _separator_swaps(vals: Sequence[str], outputs: Sequence[str], news: list,
                     cache: dict) -> set:
    """For a whole column's values, (old, new): ``old`` a punctuation character of the
    values, ``new`` empty or another
    non-alphanumeric character of the outputs, such that every value with every ``old``
    as ``new`` occurs whole in its output (ignoring case), and some value holds ``old``
    and does not occur as it is ("zh_Hant_TW" -> "zh-Hant-TW" beside "aa_DJ" -> "aa-DJ";
    deviation 32). Every example must fit, unlike the whitespace kind: a punctuation
    character has several roles in a value ("." in "H.W." and in "www."); parts of a
    split are fields, inside which a swap fitted odd pieces ("word 3 with ';' as ' '")."""
    per, any_fit = [], False
    chars = "".join(news)                  # (each "" or one character: a key for them)
    for v, o in zip(vals, outputs):
        # per output and ``news`` (the fits are drawn from it): v -> (fits, whole)
        known = cache.get(("swap of", o, chars))
        if known is None:
            known = cache[("swap of", o, chars)] = {}
        got = known.get(v)
        if got is None:
            lv, lo = v.lower(), o.lower()
            olds = sorted({ch for ch in v if not ch.isalnum() and not ch.isspace()})
            fits = frozenset((old, new) for old in olds for new in news
                             if new != old and lv.replace(old, new) in lo)
            got = known[v] = (fits, lv in lo)
        any_fit = any_fit or bool(got[0])
        per.append((v, got[0], got[1]))
    if not any_fit:
        return set()
    candidates = set().union(*(fits for _v, fits, _whole in per))
    # a value without ``old`` fits a swap of it when it occurs whole as it is
    return {(old, new) for old, new in candidates
            if all((old, new) in fits or (old not in v and whole) for v, fits, whole in per)
            and any(old in v and not whole for v, _fits, whole in per)}


def _part_swaps(vals: Sequence[str], outputs: Sequence[str], news: list,
                cache: dict) -> set:
    """For a part of a split, the swaps of :func:`_separator_swaps` of one punctuation
    character for another after which every example's part equals its whole output
    (ignoring case): the part is the key, written with another separator
    ("jupyter_client" of "jupyter_client==8.6.3" for "jupyter-client"; deviation 36). A
    part inside a longer output is left out, as deviation 32 leaves it out (odd pieces),
    and so are swaps to a space or to nothing (words, found from the other side)."""
    # a swap of one character for one keeps the lower-cased value's length: a part whose
    # length differs from its output's is none (before any swap is computed)
    if any(_lower_len(v) != _lower_len(o) for v, o in zip(vals, outputs)):
        return set()
    return {(old, new) for old, new in _separator_swaps(vals, outputs, news, cache)
            if new and not new.isspace()
            and all(v.lower().replace(old, new) == o.lower() for v, o in zip(vals, outputs))}


def _lower_len(text: str) -> int:
    """``len(text.lower())`` (equal to ``len(text)`` for ASCII text)."""
    return len(text) if text.isascii() else len(text.lower())


_LEAD = re.compile(r"[^\W_]+[^\w\s]+")


def _useful_replacements(v: str, o: str, news: list, cache: dict) -> tuple:
    """(old, new) pairs after which v occurs whole in o (ignoring case) though v does not."""
    key = ("repl", v, o)
    hit = cache.get(key)
    if hit is None:
        lv, lo = v.lower(), o.lower()
        hit = ()
        if lv not in lo:
            olds = {ch for ch in v if ch.isspace()}
            hit = tuple((old, new) for old in sorted(olds) for new in news
                        if new != old and lv.replace(old, new) in lo)
            # the value's first word and the punctuation after it, dropped ("www." of
            # "www.nfl.com" for "nfl.com"; deviation 28); not a word before a space: a
            # first name dropped from one example fits that example only
            m = _LEAD.match(v)
            if m and (rest := lv.replace(m.group().lower(), "")) and rest in lo:
                hit += ((m.group(), ""),)
            hit += tuple(r for r in _aligned_replacement(v, o) if r not in hit)
        cache[key] = hit
    return hit


MAX_INSERT = 8
_SEP_RUN = re.compile(r"[\W_]+")


def _aligned_replacement(v: str, o: str) -> tuple:
    """The words the output writes instead of the value's one separator (deviation 29):
    v = A + old + B with ``old`` its only run of at most ``MAX_SEP_LEN`` non-alphanumeric
    characters between two non-empty sides, o = ... A + new + B ... (ignoring case) with
    ``new`` of at most ``MAX_INSERT`` characters holding a letter or digit ("$50,000-$74,999"
    -> "$50,000 to $74,999" gives ("-$", " to $")). Punctuation for punctuation is left
    out, as for whitespace (deviation 1): it produced odd programs joining no more."""
    runs = [m for m in _SEP_RUN.finditer(v) if 0 < m.start() and m.end() < len(v)]
    out = []
    lv, lo = v.lower(), o.lower()
    for m in runs:
        old = m.group()
        if len(old) > MAX_SEP_LEN or v.count(old) != 1:
            continue
        a, b = lv[:m.start()], lv[m.end():]
        i = lo.find(a)
        j = lo.find(b, i + len(a)) if i >= 0 else -1
        if j < 0:
            continue
        new = o[i + len(a):j]
        if len(new) <= MAX_INSERT and any(ch.isalnum() for ch in new) \
                and lv.replace(old, new.lower()) in lo:
            out.append((old, new))
    return tuple(out)


def worded_operands(ops: list, outputs: Sequence[str], cache: dict | None = None) -> list:
    """Operands read through ``Words(sep, casing, joiner)`` (deviation 35): every word
    cased, joined by ``joiner`` (empty or a non-alphanumeric character of the outputs).
    Offered are what ``Replace`` and a Substring's casing cannot write: title-cased words
    of a split at a punctuation character of the values ("ERRCODE_NO_DATA" -> "ErrcodeNoData"),
    and words split at case changes in any casing, joined by a character ("KeyPress" ->
    "KEY_PRESS"). One is kept when, for some example, two of its adjacent words as cased
    and joined occur in the output (case-sensitive) and the value's plain casings do not
    occur whole there."""
    cache = cache if cache is not None else {}
    seen = {vals for _node, vals in ops}
    out = []
    known = [cache.setdefault(("word forms of", o), {}) for o in outputs]   # v -> forms
    for node, vals in ops:
        forms: set = set()
        for v, o, hits in zip(vals, outputs, known):
            hit = hits.get(v)
            if hit is None:
                hit = hits[v] = _word_forms(v, o, cache)
            if hit:
                forms.update(hit)
        if forms and any(_CAPS_END.search(v) for v in vals):
            # the same split keeping a run of capitals that ends a value ("FiraGO": deviation 72)
            forms |= {(sep, c, j, True) for sep, c, j, _caps in forms if sep == ""}
        for sep, casing, joiner, caps in sorted(forms):
            wv = tuple(join_words(v, sep, casing, joiner, caps) for v in vals)
            if wv in seen or not all(wv):
                continue
            seen.add(wv)
            wnode = Words(node, sep, casing, joiner, caps)
            for v, w in zip(vals, wv):
                key = ("wbounds", wnode, w)
                if key not in cache:
                    cache[key] = _word_bounds(v, sep, casing, joiner, caps)
            out.append((wnode, wv))
    return out


def _word_bounds(v: str, sep: str, casing: str, joiner: str, caps: bool = False) -> np.ndarray:
    """Where a Substring may cut the Words output of ``v`` (deviation 37): True at the
    start and end of each word (so on either side of a joiner), False inside a word."""
    words = [apply_casing(w, casing) for w in split_words(v, sep, caps)]
    n = sum(map(len, words)) + len(joiner) * (len(words) - 1)
    at = np.zeros(n + 1, dtype=bool)
    pos = 0
    for w in words:
        at[pos] = at[pos + len(w)] = True
        pos += len(w) + len(joiner)
    return at


_CAMEL = re.compile(r"[a-z0-9][A-Z]|[A-Z][A-Z][a-z]")
_CAPS_END = re.compile(r"[a-z0-9][A-Z]{2,}$")


def _word_forms(v: str, o: str, cache: dict) -> tuple:
    """The (sep, casing, joiner) of :func:`worded_operands` that fit one example: two
    adjacent words of ``v`` (cased, joined) occur in ``o`` while ``v`` in none of the
    casings does, and the words say what ``Replace`` and a casing cannot ("2014-07-01" as
    "2014/07/01" is a separator swapped: not a Words operand). Cached."""
    info = cache.get(("winfo", v))
    if info is None:
        seps = sorted({ch for ch in v if not ch.isalnum() and not ch.isspace()})
        titled = [(sep, [w.title() for w in v.split(sep)]) for sep in seps]
        camel = split_words(v, "") if _CAMEL.search(v) else None
        info = cache[("winfo", v)] = ([t for t in titled if len(t[1]) > 1], camel)
    titled, camel = info
    if not titled and camel is None:
        return ()
    key = ("words", v, o)
    hit = cache.get(key)
    if hit is not None:
        return hit
    joiners = cache.get(("wjoin", o))
    if joiners is None:
        joiners = cache[("wjoin", o)] = sorted({ch for ch in o if not ch.isalnum()})
    found = []
    for sep, words in titled:
        pairs = _pairs_in(words, o)
        if not pairs:
            continue            # two adjacent words joined in o: each of them is in o
        for joiner in [""] + joiners:
            if joiner != sep and any(a + joiner + b in o for a, b in pairs) and \
                    joiner.join(words) not in {apply_casing(v.replace(sep, joiner), c)
                                               for c in CASINGS}:
                found.append((sep, "title", joiner, False))
    if camel is not None and joiners:
        for casing in CASINGS:
            pairs = _pairs_in([apply_casing(w, casing) for w in camel], o)
            if pairs:
                found += [("", casing, j, False) for j in joiners
                          if any(a + j + b in o for a, b in pairs)]
    if found and any(apply_casing(v, c) in o for c in CASINGS):
        found = []
    hit = cache[key] = tuple(found)
    return hit


def _pairs_in(words: list, o: str) -> list:
    """The adjacent pairs of non-empty words both in ``o``: the only ones that can occur
    joined in ``o``, by any joiner."""
    inside = [bool(w) and w in o for w in words]
    return [(a, b) for a, b, x, y in zip(words, words[1:], inside, inside[1:]) if x and y]


def memo_map(memo: dict, fn, vals) -> tuple:
    """``tuple(fn(v) for v in vals)``, each value's result kept in ``memo`` (the operand
    builders meet the same rows again across a run's example sets)."""
    try:
        return tuple(map(memo.__getitem__, vals))
    except KeyError:
        for v in vals:
            if v not in memo:
                memo[v] = fn(v)
        return tuple(map(memo.__getitem__, vals))


def trimmed_operands(ops: list, outputs: Sequence[str], cache: dict | None = None) -> list:
    """Operands read through ``Trim`` (ends stripped, inner whitespace runs as one space).
    One is kept only where it matters: for some example the trimmed value occurs whole in
    the output (ignoring case) while the value as it is does not (" Barack" cut at "," from
    "Obama ,  Barack" -> "Barack Obama")."""
    cache = cache if cache is not None else {}
    trimmed = cache.setdefault("trim", {})         # a value -> normalize_space of it
    seen = {vals for _node, vals in ops}
    out = []
    for node, vals in ops:
        tv = memo_map(trimmed, normalize_space, vals)
        if tv in seen or not all(tv):
            continue
        if any(t != v and t.lower() in o.lower() and v.lower() not in o.lower()
               for t, v, o in zip(tv, vals, outputs)):
            seen.add(tv)
            out.append((Trim(node), tv))
    return out


def encoded_operands(ops: list, outputs: Sequence[str], cache: dict | None = None) -> list:
    """Operands read through ``Encode`` (percent-encoded as a URL's query writes them, or
    as Texinfo writes a node name in HTML file names). One is kept only where it matters:
    for some example the encoded value occurs whole in the output (ignoring case) while the
    value as it is does not ("Production/Stable" in "...c=Production%2FStable",
    "Time-Stamping" in "Time_002dStamping.html"). Encodings are cached per value."""
    cache = cache if cache is not None else {}
    seen = {vals for _node, vals in ops}
    lowered = [o.lower() for o in outputs]
    out = []
    for scheme, encode in ENCODINGS.items():
        done = cache.setdefault(("encode", scheme), {})
        # per output: a value -> whether its encoding, not itself, occurs there
        fitted = [cache.setdefault(("encode fits", scheme, lo), {}) for lo in lowered]
        for node, vals in ops:
            if isinstance(node, (Replace, Trim, Pad, Map, Words)):
                continue
            ev = memo_map(done, encode, vals)
            if ev in seen or not all(ev):
                continue
            fits = False
            for e, v, lo, known in zip(ev, vals, lowered, fitted):
                ok = known.get(v)
                if ok is None:
                    ok = known[v] = e != v and e.lower() in lo and v.lower() not in lo
                if ok:
                    fits = True
                    break
            if fits:
                seen.add(ev)
                out.append((Encode(node, scheme), ev))
    return out


MAX_PAD = 12
MAX_VARIANTS = 4   # programs differing in one piece equal on the examples (deviation 46)


def _digits(v) -> bool:
    return isinstance(v, str) and v.isascii() and v.isdigit()


def _has_digit(v) -> bool:
    """Whether a cell holds an ASCII digit: a number operand cut from it can be padded."""
    return isinstance(v, str) and any(ch.isascii() and ch.isdigit() for ch in v)


def padded_operands(ops: list, outputs: Sequence[str]) -> list:
    """Number operands read through ``Pad(width)``: the widths are those the outputs show
    (a value preceded by zeros in its output: "5" in "S01E05" gives 2). One is kept when
    it pads some example and every padded value occurs in its output."""
    seen = {vals for _node, vals in ops}
    out = []
    for node, vals in ops:
        if not all(_digits(v) for v in vals):
            continue
        widths: set = set()
        for v, o in zip(vals, outputs):
            i = o.find(v)
            while i >= 0:
                z = 0
                while z < i and o[i - z - 1] == "0":
                    z += 1
                widths.update(range(len(v) + 1, min(len(v) + z, MAX_PAD) + 1))
                i = o.find(v, i + 1)
        for w in sorted(widths):
            pv = tuple(pad_digits(v, w) for v in vals)
            if pv not in seen and all(p in o for p, o in zip(pv, outputs)):
                seen.add(pv)
                out.append((Pad(node, w), pv))
    return out


_mapped = functools.lru_cache(maxsize=1 << 16)(map_value)     # a value through a Map table


def mapped_operands(ops: list, outputs: Sequence[str]) -> list:
    """Operands read through ``Map(table)`` (a fixed equivalence: a number without its
    zeros, a month's number or name, a US state's code or name). One is kept when every
    example's value is in the table, some value changes, and every mapped value occurs in
    its output (ignoring case; a name by its first 3 letters: "Jul" of "July")."""
    seen = {vals for _node, vals in ops}
    out = []
    lowered = [o.lower() for o in outputs]
    for node, vals in ops:
        for table in MAPS:
            mv = []
            for v, o in zip(vals, lowered):
                m = _mapped(v, table)
                if m is None or m.lower()[:3] not in o:
                    break
                mv.append(m)
            else:
                mv = tuple(mv)
                if mv != vals and mv not in seen:
                    seen.add(mv)
                    out.append((Map(node, table), mv))
    return out


def padded_variant(program: Program, examples: Sequence[Example],
                   columns: Sequence[str]) -> Program | None:
    """The program with each whole-operand piece whose outputs on the examples are numbers
    of one width (2+) read through ``Pad(width)``; None when no piece qualifies. Examples
    that all have the full width ("219" -> "219") teach no padding, yet the target's width
    is evidence that shorter numbers ("12" -> "012") are padded. Zeros that end the
    constant before the piece belong to the padding: "PKG-00" + "219" is "PKG-" + 5 digits,
    so that 1234 gives "PKG-01234". ``columns``: the layout of the examples' rows."""
    if not examples:
        return None
    pieces, changed = [], False
    for piece in program.pieces:
        if (isinstance(piece, Substring) and piece.stop is None and isinstance(piece.of, Pad)
                and piece.start and piece.start > 0):
            # a padded number cut from a letter ("0139"[1:]) is its number at the width
            # it shows: read the number itself, padded again below (deviation 52)
            piece = Substring(piece.of.of, None, None, piece.casing)
        if (isinstance(piece, Substring) and piece.start in (None, 0) and piece.stop is None
                and not isinstance(piece.of, Pad)):
            f = compile_expr(piece, columns)
            outs = [f(ex.row) for ex in examples]
            if all(_digits(o) for o in outs) and len({len(o) for o in outs}) == 1 \
                    and len(outs[0]) >= 2:
                width = len(outs[0])
                if pieces and isinstance(pieces[-1], Constant):      # "PKG-00" + 3 digits
                    text = pieces[-1].text                           # is "PKG-" + 5 digits
                    zeros = len(text) - len(text.rstrip("0"))
                    width = min(width + zeros, MAX_PAD)
                    text = text[:len(text) - (width - len(outs[0]))]
                    pieces[-1:] = [Constant(text)] if text else []
                pieces.append(Substring(Pad(piece.of, width), None, None, piece.casing))
                changed = True
                continue
        pieces.append(piece)
    return Program(tuple(pieces)) if changed else None


def widest_padding(program, target_values, limit: int = 20_000):
    """The program with the zeros ending a constant before a padded number moved into the
    padding where the target column's own values show that width: "proto-0" + n padded to 2
    and "proto-" + n padded to 3 agree on every number under 100, and examples of such
    numbers cannot tell them apart; a target column holding "proto-103" can. Each variant
    is scored by the target values (the first ``limit`` distinct) it gives from the numbers
    they hold (each digit run without its leading zeros); the most wins, the program as
    learned on ties. A program set is widened branch by branch."""
    if isinstance(program, ProgramSet):
        branches = tuple((g, widest_padding(p, target_values, limit))
                         for g, p in program.branches)
        return program if branches == program.branches else ProgramSet(branches)
    if not isinstance(program, Program) or len(program.columns) != 1:
        return program
    variants = [program]
    for i, piece in enumerate(program.pieces):
        prev = program.pieces[i - 1] if i else None
        if not (isinstance(piece, Substring) and isinstance(piece.of, Pad)
                and isinstance(prev, Constant)):
            continue
        zeros = len(prev.text) - len(prev.text.rstrip("0"))
        for k in range(1, min(zeros, MAX_PAD - piece.of.width) + 1):
            text = prev.text[:-k]
            pieces = list(program.pieces)
            pieces[i] = Substring(Pad(piece.of.of, piece.of.width + k), piece.start,
                                  piece.stop, piece.casing)
            pieces[i - 1:i] = [Constant(text)] if text else []
            variants.append(Program(tuple(pieces)))
    if len(variants) == 1:
        return program
    targets = [v for v in dict.fromkeys(str(t).lower() for t in target_values
                                        if t is not None)][:limit]
    inputs, owner = [], []
    for j, v in enumerate(targets):
        for run in re.findall(r"[0-9]+", v):
            inputs.append(run.lstrip("0") or "0")
            owner.append(j)
    if not inputs:
        return program
    name = program.columns[0]
    best, most = program, -1
    for p in variants:
        out = p.evaluate({name: inputs}, len(inputs))
        n = len({j for j, o in zip(owner, out) if o is not None and o.lower() == targets[j]})
        if n > most:
            best, most = p, n
    return best


# ------------------------------------------------------------------ one example set

_SEP = "\U0010ffff"            # separates operand strings; a noncharacter, never in an output
_BIG = 1 << 30                  # an open stop bound (None) in the vectorized slice arithmetic
_SMALL_EXPAND = 100             # bound pairs up to which an operand is expanded in plain Python


def _casings(v: str) -> tuple:
    """``v`` in each of CASINGS, in their order."""
    return tuple(apply_casing(v, c) for c in CASINGS)


def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


class _Strings:
    """The distinct operand strings of one example, concatenated (sentinel-separated) so that
    one pass over an output finds, for every position of every string, the longest prefix
    of the rest of that string occurring in the output (a "match table")."""

    def __init__(self, strings: list):
        self.ids = {v: i for i, v in enumerate(strings)}
        lens = np.array([len(v) for v in strings], dtype=np.int64)
        self.starts = np.concatenate([[0], np.cumsum(lens + 1)[:-1]]).astype(np.int64)
        self.lens = lens
        self.text = _codes(_SEP.join(strings) + _SEP) if strings else np.zeros(0, np.uint32)
        self.tables: dict = {}
        self.where: dict = {}         # a character -> the text positions holding it

    def positions(self, ch: str) -> np.ndarray:
        hit = self.where.get(ch)
        if hit is None:
            hit = self.where[ch] = np.flatnonzero(self.text == ord(ch))
        return hit

    def table(self, output: str):
        """(maxlen per text position, longest common substring per string) against output.
        run[i] for output position j is the length of the common prefix of text[i:] and
        output[j:]; it is non-zero only where text[i] == output[j], so each step touches
        those positions alone."""
        hit = self.tables.get(output)
        if hit is None:
            n = len(self.text)
            run = np.zeros(n + 1, dtype=np.int32)       # for output position j + 1
            nxt = np.zeros(n + 1, dtype=np.int32)       # for output position j
            best = np.zeros(n, dtype=np.int32)
            last = None                                  # the positions set in run
            where = {ch: (at, at + 1) for ch in set(output)
                     if len(at := self.positions(ch))}
            ats, gots = [], []                           # every run, for best at the end
            for j in range(len(output) - 1, -1, -1):    # along diagonals, last column first
                at = where.get(output[j])
                if at is not None:
                    at, after = at
                    got = run[after] + 1
                    nxt[at] = got
                    ats.append(at)
                    gots.append(got)
                if last is not None:
                    run[last] = 0
                run, nxt = nxt, run
                last = at
            if ats:                                      # best: the longest run per position
                np.maximum.at(best, np.concatenate(ats), np.concatenate(gots))
            if len(self.starts):
                lcs = np.maximum.reduceat(np.concatenate([best, [0]]), self.starts)
            else:
                lcs = np.zeros(0, dtype=np.int32)
            hit = (best, lcs)
            self.tables[output] = hit
        return hit


def _cuts_number(v: str, a, b) -> bool:
    """Whether ``v[a:b]`` starts or stops between two digits of ``v``."""
    n = len(v)
    lo = 0 if a is None else min(max(a + n if a < 0 else a, 0), n)
    hi = n if b is None else min(max(b + n if b < 0 else b, 0), n)
    return any(0 < i < n and v[i - 1].isdigit() and v[i].isdigit() for i in (lo, hi))


class _Candidates:
    """Logical operators for one set of remaining outputs, best progress first (lazily).

    Every operand's upper bound (the sum over examples of the longest common substring of
    operand and output) comes from the match tables at once; operands are expanded into
    their Substring operators in bound order, and an operator is yielded only when no
    unexpanded operand can beat it (or tie it with a better rank), so the order is exact
    within the ``max_expand`` budget. Constants come first on ties."""

    def __init__(self, learner: "ExampleSetLearner", outputs: tuple):
        self.learner, self.outputs = learner, outputs
        self.tick = itertools.count()
        k = len(outputs)
        heap = []
        o1 = outputs[0]
        common = [len(o1) - i for i in range(len(o1))]
        for o in outputs[1:]:
            common = [min(a, b) for a, b in zip(common, learner.common_prefixes(o1, o))]
        # in the order of the first output (a set's order would vary with the hash seed):
        # by first occurrence in it, then by length (a constant's first occurrence in the
        # first output is one of the positions it is taken from)
        consts = dict.fromkeys(o1[i:i + n] for i, m in enumerate(common) for n in range(1, m + 1))
        allowed = learner.constant_ok
        for c in consts:
            if allowed is not None and not allowed(c):
                continue
            heap.append((-len(c) * k, (-1, 0, 0), next(self.tick), 0, (Constant(c), (c,) * k)))
        self.tables = [st.table(o) for st, o in zip(learner.strings, outputs)]
        # the operands, in queue order, wait in sorted arrays beside the heap (most are
        # never reached): an entry (-bound, (rank, 0, form)) with form 0 for an operand's
        # whole-operand operator, -1 for the operand to expand into its operators
        self.pending = ([], [], [])
        self.next_pending = 0
        if len(learner.cased):
            bounds = np.zeros(len(learner.cased), dtype=np.int64)
            alive = np.ones(len(learner.cased), dtype=bool)
            whole = np.ones(len(learner.cased), dtype=bool)
            for e, (best, lcs) in enumerate(self.tables):
                sid = learner.sid[:, e]
                b = lcs[sid]
                alive &= b > 0
                whole &= b == learner.strings[e].lens[sid]
                bounds += b
            # an operand contained whole in every output yields its whole-operand operator
            # at once (progress = bound); its other operators make at most bound - 1
            ranks = np.flatnonzero(alive)
            full = whole[ranks]
            rest = bounds[ranks] - full
            grow = rest > 0
            neg = np.concatenate([-bounds[ranks][full], -rest[grow]])
            rank = np.concatenate([ranks[full], ranks[grow]])
            form = np.concatenate([np.zeros(int(full.sum()), dtype=np.int64),
                                   np.full(int(grow.sum()), -1, dtype=np.int64)])
            order = np.lexsort((form, rank, neg))
            self.pending = (neg[order].tolist(), rank[order].tolist(), form[order].tolist())
        heapq.heapify(heap)
        self.heap = heap
        self.expanded = 0

    def _peek(self):
        """The progress (negated) of the next entry, None when none is left."""
        negs = self.pending[0]
        if self.next_pending < len(negs):
            neg = negs[self.next_pending]
            return min(neg, self.heap[0][0]) if self.heap else neg
        return self.heap[0][0] if self.heap else None

    def _pop(self):
        """The next entry (-progress, key, tick, kind, item): the heap's or the pending
        operands', whichever is first by (-progress, key); on equal ones the pending entry
        (it was queued first, as its tick would say)."""
        i = self.next_pending
        negs, ranks, forms = self.pending
        if i < len(negs):
            neg, key = negs[i], (ranks[i], 0, forms[i])
            if not self.heap or (neg, key) <= self.heap[0][:2]:
                self.next_pending = i + 1
                if forms[i] == 0:
                    return neg, key, -1, 0, ((ranks[i], None, None), None)
                return neg, key, -1, 1, ranks[i]
        return heapq.heappop(self.heap)

    def __iter__(self):
        learner = self.learner
        yielded: dict = {}            # pieces -> the operator yielded for them
        while True:
            if self._peek() is None:
                break
            neg, key, _, kind, item = self._pop()
            if kind != 0:
                self._expand_into(item)
                continue
            # an operator: gather every operator with the same progress (expanding operands
            # whose bound still equals it), then order the tie by validation hits
            tie = [(key, item)]
            while self._peek() == neg:
                _n, k2, _t, kind2, item2 = self._pop()
                if kind2 == 0:
                    tie.append((k2, item2))
                else:
                    self._expand_into(item2)
            ops = []
            for k, (node, pieces) in tie:
                if pieces is None:             # a Substring (rank, start, stop): build it
                    node, pieces = self._substring(*node)
                    if pieces is None:
                        continue
                if pieces in yielded:
                    learner.equivalent(yielded[pieces], node)
                    continue
                ops.append((-learner.validate(node) if len(ops) or len(tie) > 1 else 0, k,
                            node, pieces))
            # whole parts before cut ones; a constant after a whole part whose pieces
            # differ between the examples (it carries the row's own value: a year, not
            # the century the examples share)
            varied = any(y[1][1] == 0 and not isinstance(y[2], Constant)
                         and len(set(y[3])) > 1 for y in ops)
            ops.sort(key=lambda x: (x[0], x[1][1], varied and isinstance(x[2], Constant),
                                    x[1]))
            first: dict = {}
            for _v, _k, node, pieces in ops:     # (recorded before the first is yielded)
                if pieces in first:
                    learner.equivalent(first[pieces], node)
                else:
                    first[pieces] = node
            for _v, _k, node, pieces in ops:
                if pieces in yielded:
                    continue
                yielded[pieces] = node
                yield node, pieces, -neg

    def _expand_into(self, rank):
        if self.expanded < self.learner.settings.max_expand:
            self.expanded += 1
            for op in self._expand(rank):
                heapq.heappush(self.heap, op)

    def _substring(self, rank, a, b):
        """The Substring operator and its pieces, checked exactly (casing after slicing)."""
        node, casing, _cased, raw = self.learner.cased[rank]
        if self.learner.constant_ok is not None and (
                any(_cuts_number(v, a, b) for v in raw)
                or any(_cuts_number(v, a, b) for v in self.learner.whole_values(node))):
            return None, None       # generalising: a number is read whole (deviations 55, 58)
        pieces = tuple(apply_casing(v[a:b], casing) for v in raw)
        if all(p and p in o for p, o in zip(pieces, self.outputs)):
            return Substring(node, a, b, casing), pieces
        return None, None

    def _expand(self, rank):
        """The operand's Substring operators: bounds enumerated from the first example's
        matches (each start counted from the front or the back, each stop likewise or open),
        checked on every example with the match tables, vectorized."""
        learner = self.learner
        node, casing, cased, raw = learner.cased[rank]
        sids = learner.sid[rank]
        maxlens = []
        for e, (best, _lcs) in enumerate(self.tables):
            st = learner.strings[e]
            a = st.starts[sids[e]]
            maxlens.append(best[a:a + st.lens[sids[e]]])
        n1 = len(cased[0])
        m1 = maxlens[0]
        pairs = int(m1.sum())
        if pairs == 0:
            return
        if pairs <= _SMALL_EXPAND:
            yield from self._expand_small(rank, node, cased, raw, maxlens)
            return
        i = np.repeat(np.arange(n1), m1)
        j = i + 1 + (np.arange(len(i)) - np.repeat(np.cumsum(m1) - m1, m1))
        # four bound forms per (i, j): start from the front/back x stop from the front/back
        # (a stop at the end of the first example is "open" instead of from the back)
        a_front = i
        a_back = i - n1
        b_front = j
        b_back = np.where(j == n1, _BIG, j - n1)
        A = np.concatenate([a_front, a_front, a_back, a_back])
        B = np.concatenate([b_front, b_back, b_front, b_back])
        # every example at once (rows: examples, columns: bound pairs); each example's
        # match lengths are followed by a 0, read where a cut starts at its end
        n = np.array([len(c) for c in cased], dtype=np.int64)[:, None]
        lo = np.minimum(np.maximum(np.where(A < 0, A + n, A), 0), n)
        hi = np.minimum(np.maximum(np.where(B < 0, B + n, B), 0), n)
        width = hi - lo
        at = np.concatenate([[0], np.cumsum(n[:, 0] + 1)[:-1]])[:, None]
        mm = np.concatenate([x for m in maxlens for x in (m, [0])])[at + lo]
        okk = (width > 0) & (mm >= width)
        # a Words operand is cut between its words only, never inside one (deviation 37)
        if isinstance(node, Words):
            for e, w in enumerate(raw):
                bounds = learner.cache.get(("wbounds", node, w))
                if bounds is not None and len(bounds) == n[e, 0] + 1:
                    okk[e] &= bounds[lo[e]] & bounds[hi[e]]
        ok = okk.all(axis=0)
        if not ok.any():
            return
        A, B, total = A[ok], B[ok], width[:, ok].sum(axis=0)
        keep = 2 * learner.settings.max_branch      # a node tries at most max_branch operators
        A, B, total, srank = _top_cuts(A, B, total, lo[:, ok], hi[:, ok], keep)
        for a, b, t, r in zip(A.tolist(), B.tolist(), total.tolist(), srank.tolist()):
            spec = (rank, a if a != 0 else None, None if b == _BIG else b)
            yield (-t, (rank, r, 0), next(self.tick), 0, (spec, None))

    def _expand_small(self, rank, node, cased, raw, maxlens):
        """:meth:`_expand` in plain Python, for few bound pairs (numpy's cost per call
        exceeds the work there): the same pairs in the same order, the same checks (an
        example's cut stops at the first failing one), the same distinct cuts and top."""
        learner = self.learner
        ns = [len(c) for c in cased]
        ms = [m.tolist() for m in maxlens]
        wbs = [None] * len(ns)
        if isinstance(node, Words):
            for e, w in enumerate(raw):
                bounds = learner.cache.get(("wbounds", node, w))
                if bounds is not None and len(bounds) == ns[e] + 1:
                    wbs[e] = bounds.tolist()
        n1, m1 = ns[0], ms[0]
        # per start (from the front, from the back) and position i of the first example:
        # each example's start lo and the furthest stop its match allows, or None when some
        # example has no match there (then no stop makes a cut: width >= 1 > its match)
        hits = [i for i, x in enumerate(m1) if x]
        starts = []
        for back in (False, True):
            row = {}
            for i in hits:
                a = i - n1 if back else i
                los = []
                for n, m in zip(ns, ms):
                    lo = a + n if a < 0 else a
                    lo = 0 if lo < 0 else (n if lo > n else lo)
                    if lo >= n or not m[lo]:
                        los = None
                        break
                    los.append((lo, lo + m[lo]))
                if los is not None:
                    row[i] = los
            starts.append(row)
        per = list(zip(ns, wbs))
        found = []
        for fa, fb in ((False, False), (False, True), (True, False), (True, True)):
            for i, los in starts[fa].items():        # in the order of i
                a = i - n1 if fa else i
                for j in range(i + 1, i + m1[i] + 1):
                    b = (_BIG if j == n1 else j - n1) if fb else j
                    sig, total = [], 0
                    for (lo, lim), (n, wb) in zip(los, per):
                        hi = b + n if b < 0 else b
                        hi = 0 if hi < 0 else (n if hi > n else hi)
                        if hi <= lo or hi > lim or (wb is not None
                                                    and not (wb[lo] and wb[hi])):
                            break
                        sig.append(lo)
                        sig.append(hi)
                        total += hi - lo
                    else:
                        found.append((tuple(sig), (a != 0) + (b != _BIG), a, b, total))
        if not found:
            return
        found.sort(key=lambda x: (x[0], x[1]))            # stable, as lexsort
        distinct = [x for k, x in enumerate(found) if k == 0 or x[0] != found[k - 1][0]]
        keep = 2 * learner.settings.max_branch
        if len(distinct) > keep:
            distinct = sorted(distinct, key=lambda x: (-x[4], x[1]))[:keep]
        for _sig, r, a, b, t in distinct:
            spec = (rank, a if a != 0 else None, None if b == _BIG else b)
            yield (-t, (rank, r, 0), next(self.tick), 0, (spec, None))


def _distinct_cuts(A, B, total, lo, hi) -> tuple:
    """Of the bound pairs (A, B) cutting every example at (lo, hi), one per distinct cut,
    in the order of the cuts (example by example, start then stop), the simplest bound
    form (``srank``) first, then the earlier pair: (A, B, total, srank)."""
    S = np.empty((len(A), 2 * lo.shape[0]), dtype=np.int64)
    S[:, 0::2] = lo.T
    S[:, 1::2] = hi.T
    srank = (A != 0).astype(np.int64) + (B != _BIG).astype(np.int64)
    order = np.lexsort((srank,) + tuple(S[:, c] for c in range(S.shape[1] - 1, -1, -1)))
    S, A, B, total, srank = S[order], A[order], B[order], total[order], srank[order]
    first = np.ones(len(S), dtype=bool)
    first[1:] = np.any(S[1:] != S[:-1], axis=1)
    return A[first], B[first], total[first], srank[first]


def _top_cuts(A, B, total, lo, hi, keep: int) -> tuple:
    """:func:`_distinct_cuts`, then, when more than ``keep`` are left, the first ``keep``
    by total (largest first), then ``srank``, then that order. Only the pairs of totals at
    least the (4 keep)-th largest are sorted when more than ``keep`` of them are distinct:
    a cut's total is a function of the cut, so a pair left out could not be among the
    first ``keep``; the same answer as sorting them all."""
    got = None
    if len(A) > 4 * keep:
        t = np.partition(total, len(total) - 4 * keep)[len(total) - 4 * keep]
        sel = total >= t
        if not sel.all():
            got = _distinct_cuts(A[sel], B[sel], total[sel], lo[:, sel], hi[:, sel])
            if len(got[0]) <= keep:
                got = None
    A, B, total, srank = got if got is not None else _distinct_cuts(A, B, total, lo, hi)
    if len(A) > keep:
        top = np.lexsort((srank, -total))[:keep]
        A, B, total, srank = A[top], B[top], total[top], srank[top]
    return A, B, total, srank


class ExampleSetLearner:
    """TryLearnTransform (Algorithm 4) for one set of examples."""

    def __init__(self, examples: Sequence[Example], columns: Sequence[str],
                 settings: LearnSettings, cache: dict | None = None,
                 validation: Sequence[Example] = (), constant_ok=None,
                 whole_rows: Sequence[tuple] = ()):
        self.examples = list(examples)
        self.constant_ok = constant_ok    # None, or which constant texts a program may write
        self.whole_rows = list(whole_rows)   # generalising: rows whose numbers are read whole
        self._whole: dict = {}
        self.columns = list(columns)
        self.validation = [ex for ex in validation if ex.output][:settings.max_validation]
        self._valid: dict = {}
        self.settings = settings
        self.cache = cache if cache is not None else {}
        cased = []
        seen = set()
        cc = self.cache.setdefault("case", {})     # a value -> its forms in CASINGS
        plain = operands(self.examples, columns, self.cache)
        outputs = [ex.output for ex in self.examples]
        mapped = mapped_operands(plain, outputs)
        add, append = seen.add, cased.append
        for node, vals in (plain + replaced_operands(plain, outputs, self.cache)
                           + padded_operands(plain + mapped, outputs)
                           + trimmed_operands(plain, outputs, self.cache) + mapped
                           + encoded_operands(plain, outputs, self.cache)
                           + worded_operands(plain, outputs, self.cache)):
            forms = memo_map(cc, _casings, vals)
            # per casing, the values so cased (the first, "same", equal to vals)
            for casing, cv in zip(CASINGS, zip(*forms)):   # as it is, then cased
                n = len(seen)
                add(cv)
                if len(seen) > n:                          # not seen before
                    append((node, casing, cv, vals))
        self.cased = cased
        k = len(self.examples)
        per_example = list(zip(*(c[2] for c in cased))) if cased else [()] * k
        self.strings = [_Strings(list(dict.fromkeys(col))) for col in per_example]
        self.sid = np.ascontiguousarray(np.array(
            [list(map(st.ids.__getitem__, col)) for st, col in zip(self.strings, per_example)],
            dtype=np.int64).reshape(k, len(cased)).T)
        self.nodes = 0
        self.memo: dict = {}
        self.equivalents: dict = {}   # an operator -> others with its pieces (tie order)
        # characters each example's operands can produce (any casing): an output character
        # outside them must come from a constant, so it must occur in every output
        self.chars = [set("".join(st.ids)) for st in self.strings]

    def common_prefixes(self, v: str, o: str) -> list:
        """m[i] = length of the longest prefix of v[i:] occurring in o (matching statistics:
        m[i+1] >= m[i] - 1), cached."""
        key = ("ms", v, o)
        hit = self.cache.get(key)
        if hit is None:
            hit, n, cur = [], len(v), 0
            for i in range(n):
                cur = max(cur - 1, 0)
                while i + cur < n and v[i:i + cur + 1] in o:
                    cur += 1
                hit.append(cur)
            self.cache[key] = hit
        return hit

    def equivalent(self, node, other) -> None:
        """Record ``other``, which gives ``node``'s piece on every example (a tie lost to
        ``node`` by the order of deviation 4)."""
        if other != node:
            alts = self.equivalents.setdefault(node, [])
            if other not in alts:
                alts.append(other)

    def variants(self, program: Program, limit: int = MAX_VARIANTS) -> list:
        """The programs that differ from ``program`` in one piece, replaced by an operator
        giving the same piece on every example (deviation 46); at most ``limit``."""
        out = []
        for i, piece in enumerate(program.pieces):
            for alt in self.equivalents.get(piece, ()):
                if len(out) >= limit:
                    return out
                if not isinstance(alt, Constant) and not isinstance(piece, Constant):
                    out.append(Program(program.pieces[:i] + (alt,) + program.pieces[i + 1:]))
        return out

    # -- Algorithm 4
    def learn(self) -> Program | None:
        outputs = tuple(ex.output for ex in self.examples)
        if not all(outputs):
            return None
        pieces = self._learn(outputs, self.settings.tau)
        return Program(tuple(pieces)) if pieces else None

    def _learn(self, outputs: tuple, budget: int):
        if all(o == "" for o in outputs):
            return []
        if budget <= 0 or any(o == "" for o in outputs):
            return None
        memo = self.memo.get(outputs)
        if memo is not None:
            ok_budget, result = memo
            if result is not None and len(result) <= budget:
                return result
            if result is None and budget <= ok_budget:
                return None
        result = self._search(outputs, budget)
        self.memo[outputs] = (budget, result)
        return result

    def whole_values(self, node) -> list:
        """The operand ``node``'s values on ``whole_rows`` (other rows of the source): a
        Substring may not cut a number there either, where a field is wider than on the
        examples (deviation 58: "from letter 7" after the month of "2014-7-13" is inside
        the month of "2014-10-13")."""
        got = self._whole.get(node)
        if got is None:
            got = []
            if self.whole_rows:
                f = compile_expr(node, self.columns)
                got = [v for v in map(f, self.whole_rows) if isinstance(v, str)]
            self._whole[node] = got
        return got

    def validate(self, node) -> int:
        """Ties in progress are broken by how many validation pairs (the group's other top
        pairs) the operator's piece fits: its output on that row occurs in the row's key."""
        hit = self._valid.get(node)
        if hit is None:
            if isinstance(node, Constant):
                hit = sum(1 for ex in self.validation if node.text in ex.output)
            else:
                fits = self.cache.setdefault("fits", {})
                f = None
                hit = 0
                for ex in self.validation:
                    key = (node, ex.source_row, ex.target_row, ex.output)
                    ok = fits.get(key)
                    if ok is None:
                        if f is None:
                            f = compile_expr(node, self.columns)
                        p = f(ex.row)
                        ok = fits[key] = bool(p) and p in ex.output
                    hit += ok
            self._valid[node] = hit
        return hit

    def coverable(self, outputs: tuple) -> bool:
        """Necessary condition for any program: every character of every output is one an
        operand of that example has, or one that every output has (a constant's)."""
        shared = set(outputs[0]).intersection(*outputs[1:])
        return all(set(o) <= chars or set(o) - chars <= shared
                   for o, chars in zip(outputs, self.chars))

    def _search(self, outputs: tuple, budget: int):
        s = self.settings
        if not self.coverable(outputs):
            return None
        tried = 0
        for node, pieces, _progress in _Candidates(self, outputs):
            if tried >= s.max_branch or self.nodes >= s.max_nodes:
                return None
            tried += 1
            self.nodes += 1
            lefts, rights = [], []
            for o, p in zip(outputs, pieces):
                i = o.find(p)
                lefts.append(o[:i])
                rights.append(o[i + len(p):])
            lefts, rights = tuple(lefts), tuple(rights)
            l_empty = [x == "" for x in lefts]
            r_empty = [x == "" for x in rights]
            if (any(l_empty) and not all(l_empty)) or (any(r_empty) and not all(r_empty)):
                continue
            need_right = 0 if all(r_empty) else 1
            left = self._learn(lefts, budget - 1 - need_right)
            if left is None:
                continue
            right = self._learn(rights, budget - 1 - len(left))
            if right is None:
                continue
            return left + [node] + right
        return None


def try_learn_transform(examples: Sequence[Example], columns: Sequence[str],
                        settings: LearnSettings | None = None,
                        cache: dict | None = None,
                        validation: Sequence[Example] = (),
                        variants: list | None = None, constant_ok=None,
                        whole_rows: Sequence[tuple] = ()) -> Program | None:
    """TryLearnTransform: a minimum-complexity-seeking program consistent with every example,
    or None. ``variants``: a list the program's equally consistent variants are added to
    (:meth:`ExampleSetLearner.variants`); ``constant_ok``: None, or a test of the constant
    texts the program may write (:func:`generalised`), then no Substring cuts a number of
    the examples' values or of ``whole_rows`` (rows over ``columns``; deviation 58)."""
    cache = cache if cache is not None else {}
    outputs = [ex.output for ex in examples]
    if not all(outputs):
        return None
    shared = set(outputs[0]).intersection(*outputs[1:])
    for ex in examples:        # a cheap necessary condition before building any operand
        missing = set(ex.output) - shared - _row_chars(ex.row, cache)
        if "0" in missing and any(_has_digit(v) for v in ex.row):
            missing.discard("0")           # a Pad's zeros (of a number in the cell: 63)
        if missing and not (all(not ch.isalnum() for ch in missing)
                            and any(not ch.isalnum() for v in ex.row if v for ch in v)):
            return None        # (a non-alphanumeric character may come from a Replace)
    learner = ExampleSetLearner(examples, columns, settings or LearnSettings(), cache,
                                validation, constant_ok, whole_rows)
    program = learner.learn()
    if program is not None and variants is not None:
        variants += learner.variants(program)
    return program


FORMAT_SHARE = 0.9      # a constant with a digit is the target's format when at
                        # least this share of the target's distinct values hold it
FORMAT_SAMPLE = 2000    # distinct target values that share is measured on


WHOLE_ROWS = 200        # source rows, spread over the column, whose numbers a program
                        # learned again reads whole (deviation 58)


def spread(items: Sequence, k: int = WHOLE_ROWS) -> list:
    """Up to ``k`` of ``items``, spread evenly over them."""
    return list(items[::max(1, -(-len(items) // k))])


def no_digits(text: str) -> bool:
    """Whether ``text`` holds no digit (a constant that fixes no number's field)."""
    return not any(ch.isdigit() for ch in text)


def format_test(target_values, outputs: Sequence[str] = ()):
    """Whether a constant text is part of the target column's format: it has no digit (a
    digit marks a number's field, a year or a month, which a source row can write; "/emp"
    beside "/ext" is a label no source row writes), or at least FORMAT_SHARE of the
    column's distinct values (the first FORMAT_SAMPLE) hold it; cached per text (deviation
    55). A constant that starts or stops inside a number of ``outputs`` (the examples') is
    measured as that number, widened to its whole digits at each place it stands: "2" of
    "/201" + "2" is the year 2012, not a digit most dates hold."""
    values = list(dict.fromkeys(v for v in target_values if v))[:FORMAT_SAMPLE]
    seen: dict = {}

    def share_ok(text: str) -> bool:
        hit = seen.get(text)
        if hit is None:
            hit = seen[text] = (not values or
                                sum(text in v for v in values) >= FORMAT_SHARE * len(values))
        return hit

    def ok(text: str) -> bool:
        if no_digits(text):
            return True
        return share_ok(text) and all(share_ok(w) for w in widened(text, outputs))
    return ok


def generalised(program: Program, examples: Sequence[Example], columns: Sequence[str],
                settings: LearnSettings, cache: dict, target_values,
                validation: Sequence[Example] = (),
                whole_rows: Sequence[tuple] = ()) -> Program | None:
    """The program learned again from ``examples`` writing no constant that is a piece of
    a field varying across the target column (deviation 55: "2014-7-" + the day, learned
    from one month, against "2014-7-1" ... "2015-6-30": the year and month are read from
    the source instead); None when ``program`` writes no such constant or no program
    without one is consistent with the examples; a number is then read whole, never cut
    ("7-" of "2014-07-03" is the month's last digit), on the examples and on
    ``whole_rows``, other source rows over ``columns`` (deviation 58). Ranking it against
    ``program`` is the caller's (equal coverage: this one)."""
    target_ok = format_test(target_values, [ex.output for ex in examples])
    anchors = [row_text(ex.row) for ex in examples]
    sources = anchors + [row_text(r) for r in whole_rows]

    outputs = [ex.output for ex in examples]

    def ok(text: str) -> bool:   # nor a field the source holds and varies (deviation 79)
        fields = constant_fields(text) + [f for w in widened(text, outputs)
                                          for f in constant_fields(w)]
        return target_ok(text) and not any(varying_field(sources, f, anchors) is not None
                                           for f in fields)
    if not any(isinstance(p, Constant) and not ok(p.text) for p in program.pieces):
        return None
    return try_learn_transform(examples, columns, settings, cache, validation,
                               constant_ok=ok, whole_rows=whole_rows)


def _without(node, target):
    """``node`` with the node ``target`` (a Replace) read as its operand."""
    if node is target:
        return target.of
    if isinstance(node, Concat):
        return Concat(tuple(_without(p, target) for p in node.parts))
    of = getattr(node, "of", None)
    if of is None:
        return node
    return dataclasses.replace(node, of=_without(of, target))


def _replaces(node) -> list:
    """The Replace nodes under ``node``."""
    if isinstance(node, Concat):
        return [r for p in node.parts for r in _replaces(p)]
    of = getattr(node, "of", None)
    found = [] if of is None else _replaces(of)
    return found + [node] if isinstance(node, Replace) else found


def moves_by_row_literal(program: Program, texts: dict, n: int,
                         is_key: Callable) -> Program | None:
    """Does ``program`` read its input through a Replace of a literal holding a letter or
    digit (``"8086:"``) that changes the output of under half the rows given a key, and
    moves one of them from a key (``program`` without the Replace: "8086") onto another key
    ("1533")? Such a literal is a few rows' own text, no generalisation: the rows join
    without it, and it only sends them elsewhere (deviation 86). ``texts``: the source
    columns (name -> cells of ``n`` rows); ``is_key``: is an output a key of the target.
    Returns the program without that Replace when so, else None."""
    literal = [r for r in _replaces(program.expr) if any(ch.isalnum() for ch in r.old)]
    if not literal:
        return None
    outs = evaluate_columns(program.expr, texts, n)
    given = sum(o is not None for o in outs)
    for node in literal:
        without = _without(program.expr, node)
        plain = evaluate_columns(without, texts, n)
        changed = [(o, p) for o, p in zip(outs, plain) if o != p]
        if 2 * len(changed) < given and any(
                o is not None and p is not None and is_key(o) and is_key(p)
                for o, p in changed):
            return Program(tuple(without.parts))
    return None


def row_text(row: tuple) -> str:
    """A source row's cells as one text (the fields :func:`generalised` reads)."""
    return " ".join(str(v) for v in row if v is not None)


def writes_source_field(program: Program, examples: Sequence[Example],
                        whole_rows: Sequence[tuple] = ()) -> bool:
    """Does ``program`` write as a constant a field its examples' source values all hold at
    one place, which other source rows (``whole_rows``) hold another value at? Then a
    program reading it that fits the same examples wins whatever it joins (deviation 79)."""
    anchors = [row_text(ex.row) for ex in examples]
    return writes_varying(program, anchors + [row_text(r) for r in whole_rows],
                          anchors) is not None


def learn_from_set(examples: list, columns: Sequence[str], settings: LearnSettings,
                   cache: dict, validation: Sequence[Example] = (),
                   tried: set | None = None, leave_one_out: bool = True,
                   variants: list | None = None) -> tuple:
    """TryLearnTransform on an example set and, when it fails and the set is larger than
    the smallest size drawn, on each subset without one of its examples (a deviation: one
    false pair, or a row of another group, makes every program inconsistent, thesis
    §4.4.2); ``tried`` (frozensets of (source row, target row)) skips subsets learned
    before. Returns (program or None, the examples it was learned from)."""
    program = try_learn_transform(examples, columns, settings, cache, validation, variants)
    if program is not None or not (settings.leave_one_out and leave_one_out) \
            or len(examples) <= min(settings.examples_per_set):
        return program, examples
    tried = tried if tried is not None else set()
    for drop in range(len(examples)):
        sub = examples[:drop] + examples[drop + 1:]
        key = frozenset((ex.source_row, ex.target_row) for ex in sub)
        if key in tried:
            continue
        tried.add(key)
        program = try_learn_transform(sub, columns, settings, cache, validation, variants)
        if program is not None:
            return program, sub
    return None, examples


def _row_chars(row: tuple, cache: dict) -> set:
    """Every character the row's cells hold, in every casing (operands are pieces of them)."""
    key = ("chars", row)
    hit = cache.get(key)
    if hit is None:
        text = "".join(v for v in row if v)
        mapped = []             # what Map can make of a cell or of one of its tokens
        for v in row:
            if v:
                for t in [v] + _TOKENS.findall(v):
                    mapped += [m for table in MAP_TABLES if (m := map_value(t, table))]
        text += "".join(mapped)
        hit = set(text) | set(text.lower()) | set(text.upper()) | set(text.title())
        cache[key] = hit
    return hit


# ------------------------------------------------------------------ Algorithm 5

N1_ROWS = 0.9   # "nearly every source row" of an N:1 join onto few keys (deviation 34)


def example_sets(groups: Sequence, settings: LearnSettings,
                 key_counts: dict | None = None, n_rows: int = 0,
                 paired: Callable | None = None) -> list:
    """GenExampleSets: for each group (in the order given: best average score first), up to
    ``sets_per_group`` distinct random subsets of 3-4 of its top-k pairs. Returns one list
    of example sets per group; the caller stops at ``max_sets`` sets in total.
    ``key_counts`` (target column -> distinct keys): a group whose top pairs reach every
    key of a column with fewer keys than an example set holds gives one set of them all
    (deviation 30: "F" / "M" against "Female" / "Male"); with ``n_rows`` (source rows), so
    does a group whose top pairs reach 2 keys and whose pairs pair ``N1_ROWS`` of the source
    rows (deviation 34: 318 services onto "tcp" / "udp"). ``paired(group)``: the source
    rows its pairs pair, counting every row holding a paired value (a value's pairs are
    made for its first row only; deviation 40: 13 links onto "person" / "people" through
    2 distinct values); without it, the rows of the pairs themselves."""
    rng = random.Random(settings.seed)
    out = []
    for group in groups:
        top = distinct_row_pairs(group.pairs, settings.top_k)
        sets: list = []
        out.append(sets)
        if len(top) < min(settings.examples_per_set):
            if key_counts and 2 <= len(top) == key_counts.get(group.target_column, 0):
                sets.append(list(top))
            elif len(top) == 2 and n_rows and (
                    paired(group) if paired is not None
                    else len({p.source_row for p in group.pairs})) >= N1_ROWS * n_rows:
                sets.append(list(top))
            continue
        drawn: set = set()
        sizes = [min(b, len(top)) for b in settings.examples_per_set]
        possible = sum(comb(len(top), b) for b in set(sizes))
        want = min(settings.sets_per_group, possible)
        tries = 0
        while len(drawn) < want and tries < want * 20:
            tries += 1
            b = sizes[len(drawn) % len(sizes)]
            subset = tuple(sorted(rng.sample(range(len(top)), b)))
            if subset in drawn:
                continue
            drawn.add(subset)
            sets.append([top[i] for i in subset])
    return out


PAIR_SET_PER_ROW = 2    # pairs per source and per target row a pair set draws from (68)


def pair_example_sets(groups: Sequence, settings: LearnSettings) -> list:
    """The partial pass's example sets (deviation 68): for each group, up to
    ``sets_per_group`` random sets of 2 pairs with distinct source and target rows, drawn
    from the group's first ``top_k`` pairs holding at most ``PAIR_SET_PER_ROW`` pairs per
    source row and per target row (a value pairing with two keys at one score gives both:
    "$75-125k" with "$40,000-$75,000" and "$75,000-$125,000"). One list per group."""
    rng = random.Random(settings.seed)
    out = []
    for group in groups:
        top, per_s, per_t = [], {}, {}
        for p in group.pairs:
            if len(top) >= settings.top_k:
                break
            if per_s.get(p.source_row, 0) >= PAIR_SET_PER_ROW \
                    or per_t.get(p.target_row, 0) >= PAIR_SET_PER_ROW:
                continue
            per_s[p.source_row] = per_s.get(p.source_row, 0) + 1
            per_t[p.target_row] = per_t.get(p.target_row, 0) + 1
            top.append(p)
        both = [[a, b] for a, b in itertools.combinations(top, 2)
                if a.source_row != b.source_row and a.target_row != b.target_row]
        rng.shuffle(both)
        out.append(both[:settings.sets_per_group])
    return out


def distinct_row_pairs(pairs, k: int):
    """The best ``k`` pairs with at most one pair per source row and per target row, in the
    pairs' order (an example set with one source row twice cannot be consistent with a
    1:1 / N:1 program, and one target row twice teaches one output twice). The walk goes
    on past the first k pairs: in an N:1 join many top pairs share a target row."""
    out, rows_s, rows_t = [], set(), set()
    for p in pairs:
        if len(out) >= k:
            break
        if p.source_row in rows_s or p.target_row in rows_t:
            continue
        rows_s.add(p.source_row)
        rows_t.add(p.target_row)
        out.append(p)
    return out


@dataclass
class Candidate:
    """A learned program with its coverage on the (sampled) source table."""
    program: Program
    group: int
    target_column: str
    examples: list
    coverage: int = 0                        # distinct target keys joined
    joined_rows: int = 0                     # source rows whose key joins
    learned_times: int = 1
    extra: dict = field(default_factory=dict)
