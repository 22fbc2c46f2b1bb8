"""Composite key columns (thesis §4.4.3): split a key column into aligned parts.

When neither direction yields a transformation, a target key may carry a piece the other
table cannot produce ("Obama, Barack(1961-)" has a life span). The thesis splits such
columns "by aligning substrings across rows" with existing methods and runs Auto-Join again
on the parts. Here a delimiter is a non-alphanumeric character occurring equally often in
at least ``min_support`` of the values; every contiguous range of the fields it cuts that
is still a key becomes a part, and each part a target key column through a program learned
from the target rows alone. The join is source_program(row) == target_program(row).

Note:
    Alignment by common delimiters stands in for the methods the thesis cites (TEGRA, list
    extraction); parts that are not keys alone are handled as ranges of parts, not as
    multi-column keys; a part of a column the caller named is derived by a program reading
    that column. Details: docs/algorithms/autojoin.md.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .dsl import Program, apply_frame
from .learn import Example, LearnSettings, try_learn_transform


@dataclass
class KeyPart:
    """A key column derived from a composite target column."""
    column: str                  # the composite column
    fields: tuple                # (first field, last field) of the range
    program: Program             # target row -> part
    values: list                 # the part for every target row (None: no key)
    support: float               # fraction of aligned rows the program reproduces


def _delimiters(values: list, min_support: float) -> list:
    counts = Counter()
    per_char: dict = {}
    for v in values:
        c = Counter(ch for ch in v if not ch.isalnum() and not ch.isspace())
        for ch, n in c.items():
            per_char.setdefault(ch, Counter())[n] += 1
        counts.update(c.keys())
    out = []
    for ch, hist in per_char.items():
        n, freq = hist.most_common(1)[0]
        if freq >= min_support * len(values):
            out.append(ch)
    return out


def align_fields(values: list, min_support: float = 0.8):
    """(fields per value or None, number of fields) after cutting at the aligned delimiters."""
    present = [v for v in values if v]
    if len(present) < 4:
        return [None] * len(values), 0
    delims = set(_delimiters(present, min_support))
    if not delims:
        return [None] * len(values), 0
    sigs = [tuple(ch for ch in v if ch in delims) if v else None for v in values]
    common, freq = Counter(s for s in sigs if s is not None).most_common(1)[0]
    if not common or freq < min_support * len(present):
        return [None] * len(values), 0
    fields = []
    for v, s in zip(values, sigs):
        if s != common:
            fields.append(None)
            continue
        cuts, start = [], 0
        for i, ch in enumerate(v):
            if ch in delims:
                cuts.append((start, i))
                start = i + 1
        cuts.append((start, len(v)))
        fields.append(cuts)
    return fields, len(common) + 1


def key_parts(column: str, values: list, frame, columns: list, *, key_ratio: float = 0.9,
              min_support: float = 0.8, max_parts: int = 12, seed: int = 0,
              settings: LearnSettings | None = None, asked: bool = False) -> list:
    """Key columns derived from a composite column, each with its target-side program.
    ``asked``: the column was named by the caller, so each part's program reads it (a
    program of the row's columns that reads another one alone, `city` equal to part 2 of
    the asked `zone`, is learned again from the asked column alone)."""
    spans, n_fields = align_fields(values, min_support)
    if n_fields < 2:
        return []
    aligned = [i for i, s in enumerate(spans) if s is not None]
    rng = random.Random(seed)
    out = []
    for a in range(n_fields):
        for b in range(a, n_fields):
            if (a, b) == (0, n_fields - 1):
                continue
            part = [None] * len(values)
            for i in aligned:
                s = values[i][spans[i][a][0]:spans[i][b][1]].strip()
                part[i] = s or None
            got = [p for p in part if p is not None]
            if len(got) < min_support * len(aligned) or len(set(got)) < key_ratio * len(got):
                continue
            rows = [i for i in aligned if part[i] is not None]
            ex_rows = rng.sample(rows, min(4, len(rows)))
            cells = [tuple(_cell(frame, c, i) for c in columns) for i in ex_rows]
            examples = [Example(cells[j], part[i], i, i) for j, i in enumerate(ex_rows)]
            program = try_learn_transform(examples, columns, settings)
            if asked and program is not None and column not in program.columns:
                alone = [Example((ex.row[columns.index(column)],), ex.output, ex.source_row,
                                 ex.target_row) for ex in examples]
                program = try_learn_transform(alone, [column], settings)
            if program is None:
                continue
            produced = apply_frame(program, frame)
            agree = sum(1 for i in rows if produced[i] == part[i])
            support = agree / len(rows)
            if support < min_support:
                continue
            keys = [p for p in produced if p is not None]
            if len(set(keys)) < key_ratio * len(keys):
                continue
            out.append(KeyPart(column, (a, b), program, produced, support))
            if len(out) >= max_parts:
                return out
    return out


def _cell(frame, column, i):
    from .dsl import cell_text
    return cell_text(frame[column].iat[i])
