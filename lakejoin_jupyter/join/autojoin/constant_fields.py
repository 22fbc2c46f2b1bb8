"""A program that writes a constant digit field where its source holds another: a chance
program, not a transformation (docs/algorithms/autojoin.md, "A constant digit field where
the source holds another"; docs/algorithms/transform_search.md, "Decisions": one rule).

Auto-Join's simplest program for examples that share a digit run writes it as a constant
(thesis §4.4.2: constants are cheaper than the pieces reading them). When the source's
values all hold one digit field of that width themselves (visits of 2023) and the program
drops it and writes another (`"2024" + ...`), every output names a row the source's value
does not mean: the year of a date decides which day it is. Such a program joins only
because the other side's values all share that constant. :func:`replaced_field` names the
field; the search drops the hit and Auto-Join the program. Fields of one digit are left
alone (a version's "1", a flag), as are constants the source holds or the outputs keep the
source's field beside ("2019-03-" + day + "T00:00:00" from March 2019's dates).
A constant the source holds as a field that varies (the year "2026" of 2026's dates beside
one of 2027; the sign "+" of "+01:00" beside "-05:00") is the same error on the rows where
it differs: :func:`varying_field` names it; the learner learns again without it, and a
program still writing it is refused as the others are (deviation 79).
A row whose program drops a field it holds at a value other than most rows' ("+05:30" ->
"UTC+5") while the other side holds its output with that value beside it ("UTC+5:30") is
folded onto another row's key: :func:`unfolded` leaves such rows unjoined under a guard
(deviation 82).
"""
from __future__ import annotations

import bisect
import re
from collections import Counter

from .dsl import PATTERN_KINDS, Constant, Guard, ProgramSet, cell_text, pattern_of

_DIGITS = re.compile(r"[0-9]+")
# a digit field in at least this share of the source's distinct values is one of its own
SOURCE_SHARE = 0.9
SOURCE_SAMPLE = 2_000


def _fields(values) -> tuple[set, int]:
    """The digit runs of at least ``SOURCE_SHARE`` of the distinct texts, and how many."""
    texts = list(dict.fromkeys(t for t in map(cell_text, values) if t))[:SOURCE_SAMPLE]
    counts: dict = {}
    for t in texts:
        for run in set(_DIGITS.findall(t)):
            counts[run] = counts.get(run, 0) + 1
    return {r for r, n in counts.items() if n >= SOURCE_SHARE * len(texts)}, len(texts)


def dropped_fields(whole_values, part_values) -> tuple:
    """The digit fields nearly all of a target column's values hold that a key part of it
    leaves out ("2024" of "2024-04-22" in its part "04-22"): the join writes them as a
    constant, as a program's constant piece does."""
    whole, _ = _fields(whole_values)
    kept, n = _fields(part_values)
    return tuple(sorted(f for f in whole if len(f) >= 2 and not (n and f in kept)))


# a field: a digit run, or a sign directly before a number that no digit precedes
_FIELD = re.compile(r"(?<![0-9])[+-](?=[0-9])|[0-9]+")
_SIGN = re.compile(r"[+-](?=[0-9]|$)")
# a field held at one place by at least this share of the source's distinct values is the
# source's own field there (deviation 79)
VARYING_SHARE = 0.5
# ... or, for a year (YEAR_DIGITS), the constant itself held there by at least this many
# of them (deviation 79)
HELD_AT_LEAST = 2
YEAR_DIGITS = 4


def _shape(text: str) -> tuple:
    """The fields of a text, in order (digit runs and signs)."""
    return tuple(_FIELD.findall(text))


def constant_fields(text: str) -> list:
    """The fields a constant text writes: digit runs of 2+ digits, and a sign that a digit
    or the constant's end follows (``"UTC+"`` + the hours)."""
    return [r for r in _DIGITS.findall(text) if len(r) >= 2] + _SIGN.findall(text)


def _same_kind(a: str, b: str) -> bool:
    return (a.isdigit() and b.isdigit() and len(a) == len(b)) or \
        (a in "+-" and b in "+-")


def varying_field(texts, field: str, anchors=None) -> str | None:
    """The source's own value where it holds a field of the kind of the constant ``field``
    (a digit run, a sign), when writing ``field`` there is wrong for some rows: the source
    holds ``field`` there and another value in other rows (a year, a sign that varies), or,
    for a sign, the other sign; else None. The source's field: the place (among the fields
    of one shape) where every one of ``anchors`` (the examples' source texts) holds one
    value, or, without anchors, ``VARYING_SHARE`` of the distinct ``texts`` do, or where
    that share holds a field of its kind and ``HELD_AT_LEAST`` of them hold ``field``, a
    year, itself (a year of 3 of 8 dates: deviation 79)."""
    texts = list(dict.fromkeys(t for t in map(cell_text, texts) if t))[:SOURCE_SAMPLE]
    shapes = [_shape(t) for t in texts]
    if anchors is not None:
        anchored = [_shape(t) for t in anchors]
        if not anchored:
            return None
        first = anchored[0]
        places = {(len(first), i, f) for i, f in enumerate(first) if _same_kind(f, field)
                  and all(len(s) == len(first) and s[i] == f for s in anchored)}
    else:
        counts: dict = {}
        cover: dict = {}
        for s in shapes:
            for i, f in enumerate(s):
                if _same_kind(f, field):
                    counts[(len(s), i, f)] = counts.get((len(s), i, f), 0) + 1
                    cover[(len(s), i)] = cover.get((len(s), i), 0) + 1
        least = VARYING_SHARE * max(len(texts), 1)
        # a year (4 digits) held at a place most values hold a field of its kind, by
        # HELD_AT_LEAST of them: a minority year (deviation 79); not a day or month, which
        # a roll-up writes as a constant ("2026-03-01" for the days of March)
        places = {p for p, n in counts.items() if n >= least or
                  (p[2] == field and len(field) == YEAR_DIGITS and n >= HELD_AT_LEAST
                   and cover[p[:2]] >= least)}
    for n, i, own in sorted(places):
        if own != field:
            if own in "+-":
                return own              # the other sign, written over the source's own
            continue                    # another digit field: deviation 76's to judge
        for s in shapes:
            if len(s) == n and s[i] != field and _same_kind(s[i], field):
                return s[i]
    return None


def field_keeper(program, texts):
    """For a ``program`` writing as a constant a field the source's ``texts`` hold and vary
    (:func:`writes_varying`, without anchors): a test of a (source text, target text) row
    pair, whether the target holds the source's own value of that field (the pairs a
    program reading it can be learned from: "-08:00" with "UTC-8", not "UTC+8"); else None."""
    texts = list(dict.fromkeys(t for t in map(cell_text, texts) if t))[:SOURCE_SAMPLE]
    outputs = _outputs(program, texts)
    for text in _constants(program):
        for f in _fields_written(text, outputs):
            if varying_field(texts, f) is None:
                continue
            counts: dict = {}
            for t in texts:
                s = _shape(t)
                for i, g in enumerate(s):
                    if _same_kind(g, f):
                        counts[(len(s), i)] = counts.get((len(s), i), 0) + 1
            n, i = max(counts, key=lambda k: (counts[k], k))

            def keeps(source: str, target: str, n=n, i=i) -> bool:
                s = _shape(source or "")
                return len(s) != n or s[i] in (target or "")
            return keeps
    return None


def _outputs(program, texts) -> list:
    columns = getattr(program, "columns", ())
    if len(columns) != 1:
        return []
    return [o for o in program.evaluate({columns[0]: texts}, len(texts)) if o]


def widened(text: str, outputs) -> set:
    """``text`` at each place it stands in ``outputs``, widened over the digits around it
    when it starts or stops between two digits (the texts that differ from it only)."""
    got = set()
    for o in outputs:
        i = o.find(text)
        while i >= 0:
            a, b = i, i + len(text)
            while a > 0 and text[0].isdigit() and o[a - 1].isdigit():
                a -= 1
            while b < len(o) and text[-1].isdigit() and o[b].isdigit():
                b += 1
            if (a, b) != (i, i + len(text)):
                got.add(o[a:b])
            i = o.find(text, i + 1)
    return got


def _fields_written(text: str, outputs) -> list:
    """The fields a constant writes, as a number it stands inside of in ``outputs`` where it
    does ("20" + yy writes the year 2026, not a day "20"; deviation 79)."""
    wide = widened(text, [o for o in outputs if o]) if outputs else set()
    return [f for w in sorted(wide) for f in constant_fields(w)] if wide else \
        constant_fields(text)


def writes_varying(program, texts, anchors=None, outputs=None) -> tuple[str, str] | None:
    """(another value of the field, the constant field) when ``program`` writes as a
    constant a field the source's ``texts`` hold and vary (:func:`varying_field`); a
    constant inside a number of ``outputs`` writes that number (:func:`_fields_written`)."""
    for text in _constants(program):
        for f in _fields_written(text, outputs):
            other = varying_field(texts, f, anchors)
            if other is not None:
                return other, f
    return None


def _constants(program) -> list:
    """The program's constant texts, adjacent constants as one ("/03/20" + "26")."""
    got, run = [], None
    for p in getattr(program, "pieces", ()):
        if isinstance(p, Constant):
            run = (run or "") + p.text
        elif run is not None:
            got.append(run)
            run = None
    return got + ([run] if run is not None else [])


def _written(program) -> list:
    return [run for p in getattr(program, "pieces", ()) if isinstance(p, Constant)
            for run in _DIGITS.findall(p.text) if len(run) >= 2]


def writes_digits(program) -> bool:
    """Does the program write a constant run of 2+ digits or a sign (the rules' premise)?"""
    return any(constant_fields(text) for text in _constants(program))


def replaced_field(program, source_values, outputs, also_written=()) -> tuple[str, str] | None:
    """(the source's field, the constant written instead) when ``program`` writes a
    constant digit run of 2+ digits that the source's values do not hold, where nearly all
    of them (``SOURCE_SHARE``) hold another run of that width that the outputs drop; else
    None. ``outputs`` are the program's outputs on the source's values; ``also_written``
    the fields a target key part drops (:func:`dropped_fields`). A constant field the
    source holds and varies counts too (:func:`writes_varying`, deviation 79)."""
    varying = writes_varying(program, source_values, outputs=outputs)
    if varying is not None:
        return varying
    written = _written(program) + list(also_written)
    if not written:
        return None
    own, n = _fields(source_values)
    if n < 4 or not own:
        return None
    kept, n_out = _fields(outputs)
    for run in written:
        if run in own:
            continue
        for field in sorted(own):
            if len(field) == len(run) and not (n_out and field in kept):
                return field, run
    return None


# keys beginning (or ending) with an output looked at per folded candidate (deviation 82)
FOLD_SCAN = 64


def folded_rows(texts, outputs, keys) -> set:
    """The rows (indexes) whose output, a key, drops a digit field (2+ digits) of the row's
    text that varies across the texts of its shape, where ``keys`` also hold the output with
    the row's value of it written beside it: "+05:30" -> "UTC+5" while "UTC+5:30" is a key
    (the minutes vary; "+05:00" stays, the lake writing no "UTC+5:00"). Such a row is
    folded onto another row's key (deviation 82). ``outputs`` and ``keys`` as compared."""
    keys = keys if isinstance(keys, (set, frozenset)) else set(keys)
    counts: dict = {}
    for t in list(dict.fromkeys(t for t in texts if t))[:SOURCE_SAMPLE]:
        runs = _DIGITS.findall(t)
        for i, r in enumerate(runs):
            counts.setdefault((len(runs), i), Counter())[r] += 1
    varies = {p for p, c in counts.items() if len(c) > 1}
    ordered, backward = sorted(keys), sorted(k[::-1] for k in keys)
    memo: dict = {}
    out = set()
    for idx, (t, o) in enumerate(zip(texts, outputs)):
        if not t or o is None or o not in keys:
            continue
        hit = memo.get((t, o))
        if hit is None:
            hit = memo[(t, o)] = _folds(t, o, varies, ordered, backward)
        if hit:
            out.add(idx)
    return out


def _folds(text: str, output: str, varies: set, ordered: list, backward: list) -> bool:
    runs = _DIGITS.findall(text)
    kept = {int(r) for r in _DIGITS.findall(output)}
    for i, f in enumerate(runs):
        if len(f) < 2 or (len(runs), i) not in varies or int(f) in kept:
            continue
        if _beside(output, int(f), ordered, False) or \
                _beside(output[::-1], int(f), backward, True):
            return True
    return False


def _beside(head: str, value: int, ordered: list, reverse: bool) -> bool:
    """Does a key of ``ordered`` begin with ``head`` (not inside a number of it) and hold
    ``value`` as a number in the rest (``reverse``: the texts are reversed)?"""
    if not head:
        return False
    i = bisect.bisect_left(ordered, head)
    for k in ordered[i:i + FOLD_SCAN]:
        if not k.startswith(head):
            break
        rest = k[len(head):]
        if not rest or (head[-1].isdigit() and rest[0].isdigit()):
            continue
        if value in {int(r) for r in _DIGITS.findall(rest[::-1] if reverse else rest)}:
            return True
    return False


def unfolded(program, texts, outputs, keys):
    """``program`` under a guard on its column's pattern that leaves the rows
    :func:`folded_rows` finds unjoined (the first :data:`~.dsl.PATTERN_KINDS` kind whose
    patterns tell them from the other joined rows: the minutes "30" of "+05:30" as a last
    word); ``program`` itself when no row is folded, it reads several columns or is a set,
    or no guard tells the rows apart (deviation 82)."""
    if isinstance(program, ProgramSet) or len(program.columns) != 1:
        return program
    folded = folded_rows(texts, outputs, keys)
    if not folded:
        return program
    others = [i for i, o in enumerate(outputs) if o in keys and i not in folded]
    for kind in PATTERN_KINDS:
        bad = {pattern_of(texts[i], kind) for i in folded}
        if any(pattern_of(texts[i], kind) in bad for i in others):
            continue
        allowed = frozenset(p for p in {pattern_of(t, kind) for t in texts} - bad
                            if p is not None)
        if allowed:
            return ProgramSet(((Guard(program.columns[0], kind, allowed), program),))
    return program
