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
"""
from __future__ import annotations

import re

from .dsl import Constant, cell_text

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
    value, or, without anchors, ``VARYING_SHARE`` of the distinct ``texts`` do."""
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
        for s in shapes:
            for i, f in enumerate(s):
                if _same_kind(f, field):
                    counts[(len(s), i, f)] = counts.get((len(s), i, f), 0) + 1
        places = {p for p, n in counts.items() if n >= VARYING_SHARE * max(len(texts), 1)}
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
    for text in _constants(program):
        for f in constant_fields(text):
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


def writes_varying(program, texts, anchors=None) -> tuple[str, str] | None:
    """(another value of the field, the constant field) when ``program`` writes as a
    constant a field the source's ``texts`` hold and vary (:func:`varying_field`)."""
    for text in _constants(program):
        for f in constant_fields(text):
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
    varying = writes_varying(program, source_values)
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
