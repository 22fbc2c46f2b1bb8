"""Row pairs a program's other pieces fix: a constant the target varies, learned again from
them (an extension of thesis §4.4.1-4.4.2; docs/algorithms/autojoin.md, deviation 84).

The row pairs (§4.4.1) see q-grams; a piece of the key that a short value of another column
decides ("sldl" / "sldu" of a district id by the chamber "lower" / "upper") shares no
q-gram with it, so the pairs of two rows differing only there are ties, and example sets
drawn from them agree on one value, which the learner writes as a constant. Yet the
program's other pieces name each row's partner: the one target key that holds the row's
prefix and suffix around a text as long as the constant. :func:`partner_examples` gives
the rows whose one such key holds another text there; learning again from the program's
examples with one of them (:func:`relearned`) may read the text from the source.
"""
from __future__ import annotations

from .dsl import Constant, Program
from .learn import Example, try_learn_transform

PARTNER_ROWS = 2      # distinct source values with another text a constant needs
PARTNER_SETS = 8      # example sets learned again, each with one partner
PARTNER_SAMPLE = 2000  # source rows read for partners


def _spread(items: list, k: int) -> list:
    return items[::max(1, -(-len(items) // k))][:k]


def partner_examples(program, texts: dict, n: int, tcells: list) -> list:
    """Examples (source row number, target row number, source cells, key) of the rows
    whose one target key equal to the program's output but at one constant piece of
    letters holds another text of the constant's length there."""
    pieces = getattr(program, "pieces", None)
    if not pieces:
        return []
    rows: dict = {}
    for j, v in enumerate(tcells):
        if v is not None:
            rows[v] = -1 if v in rows else j
    keys = [k for k, j in rows.items() if j >= 0]
    found: list = []
    for i, piece in enumerate(pieces):
        if not (isinstance(piece, Constant) and any(ch.isalpha() for ch in piece.text)):
            continue
        before = Program(pieces[:i]).evaluate(texts, n) if i else [""] * n
        after = Program(pieces[i + 1:]).evaluate(texts, n) if i + 1 < len(pieces) else [""] * n
        width = len(piece.text)
        index: dict = {}
        seen: dict = {}
        for r in range(min(n, PARTNER_SAMPLE)):
            p, s = before[r], after[r]
            if p is None or s is None or not (p or s):
                continue
            shape = (len(p), len(s))
            if shape not in index:
                lp, ls = shape
                by: dict = {}
                for k in keys:
                    if len(k) == lp + width + ls:
                        by.setdefault((k[:lp], k[len(k) - ls:]), []).append(k)
                index[shape] = by
            hits = index[shape].get((p, s), [])
            if len(hits) != 1:
                continue        # no partner, or a tie the row's other pieces cannot break
            key = hits[0]
            if key[len(p):len(p) + width] != piece.text:
                value = (p, s)
                if value not in seen:
                    seen[value] = (r, rows[key], key)
        if len(seen) >= PARTNER_ROWS:
            found += list(seen.values())
    return found


def relearned(program, examples: list, partners: list, row, columns, settings,
              cache: dict) -> list:
    """Programs learned from ``examples`` (the program's own) with one partner each
    (``row(r)``: a source row's cells over ``columns``); those differing from ``program``."""
    out = []
    for r, j, key in _spread(partners, PARTNER_SETS):
        taught = list(examples) + [Example(row(r), key, r, j)]
        learned = try_learn_transform(taught, columns, settings, cache)
        if learned is not None and learned != program and learned not in out:
            out.append((learned, taught))
    return out
