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


def _written(program) -> list:
    return [run for p in getattr(program, "pieces", ()) if isinstance(p, Constant)
            for run in _DIGITS.findall(p.text) if len(run) >= 2]


def writes_digits(program) -> bool:
    """Does the program write a constant run of 2+ digits (the rule's premise)?"""
    return bool(_written(program))


def replaced_field(program, source_values, outputs, also_written=()) -> tuple[str, str] | None:
    """(the source's field, the constant written instead) when ``program`` writes a
    constant digit run of 2+ digits that the source's values do not hold, where nearly all
    of them (``SOURCE_SHARE``) hold another run of that width that the outputs drop; else
    None. ``outputs`` are the program's outputs on the source's values; ``also_written``
    the fields a target key part drops (:func:`dropped_fields`)."""
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
