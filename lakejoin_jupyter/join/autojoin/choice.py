"""Which of two joins of the query with one lake table ``Hit.autojoin`` keeps, and the
program it shows (docs/algorithms/autojoin.md; docs/algorithms/transform_search.md,
"Decisions"): what a join reaches (:class:`Reach`), the one rule keeping a join
(:func:`takes_over`) and its reason (:func:`why_taken`), a program learned on the whole
table against the hit's (:func:`reaches_further`), the program without a case change
(:func:`plain_program_on`, deviation 83) and with folded rows left unjoined
(:func:`unfolded_program`, deviation 82).
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ...lake.normalize import normalize_text
from ..keys import compared_keys
from .constant_fields import unfolded
from .dsl import cell_text, column_texts, plain_program


@dataclass(frozen=True)
class Reach:
    """What a join of the query (the left table) with a lake table reaches: the query rows
    it joins, its (query row, lake row) pairs and the distinct lake rows among them."""
    rows: int
    pairs: int
    lake_rows: int

    @classmethod
    def of(cls, result, fuzzy: bool) -> "Reach":
        """An Auto-Join result's join, its fuzzy step included or not."""
        pairs = result.pairs(fuzzy=fuzzy) if result.found else []
        return cls(len({i for i, _ in pairs}), len(pairs), len({j for _, j in pairs}))

    def per_row(self) -> str:
        return f"{self.pairs / max(self.rows, 1):.3g}"


def plain_program_on(program, source):
    """``program`` without a case change or trimming around its whole output, when the
    keys it gives on the ``source`` cells compare the same and its distinct keys are one
    for one (Auto-Join's deviation 83), or None."""
    plain = plain_program(program)
    if plain is None:
        return None
    cells = [cell_text(v) for v in source]
    name = program.columns[0]
    a, b = (pd.Series(p.evaluate({name: cells}, len(cells)), dtype=object)
            for p in (program, plain))
    one_to_one = a.nunique() == b.nunique() == len(set(zip(a, b)))   # the fuzzy step's keys
    return plain if one_to_one and compared_keys(a).tolist() == compared_keys(b).tolist() \
        else None


def unfolded_program(program, source, target):
    """The hit's ``program`` with the ``source`` rows it folds onto another row's key of
    ``target`` left unjoined under a guard (Auto-Join's deviation 82)."""
    cells = column_texts(source)
    outs = program.evaluate({program.columns[0]: cells}, len(cells)) \
        if len(program.columns) == 1 else []
    keys = {normalize_text(v) for v in column_texts(target) if v is not None}
    return unfolded(program, cells, [None if o is None else normalize_text(o) for o in outs],
                    keys)


def takes_over(candidate: Reach, kept: Reach, tie: bool) -> bool:
    """Whether ``candidate`` replaces ``kept`` (two joins of the same query with the same
    lake table): it joins more query rows; or as many, each to fewer lake rows on average
    (through fewer pairs); a candidate joining no row never. On exactly as many rows through
    as many pairs, ``tie`` decides. The one rule ``Hit.autojoin`` keeps a join by: the hit's
    own program or, for an equality hit, the identity (``tie``: the hit's join stays) against
    the program learned (counted with its fuzzy step, as it joins), and the program learned
    on every column against the one learned on the hit's column (``tie``: the hit's column
    stays; both the programs' own joins). :func:`reaches_further` alone differs, on purpose:
    learned on the whole table, a program joining as many query rows to *more* lake rows
    reaches the rows the hit's program misses ("de_DE.UTF-8" beside "aa_DJ")."""
    if candidate.rows == 0 or candidate.rows < kept.rows:
        return False
    if candidate.rows > kept.rows:
        return True
    return candidate.pairs < kept.pairs or (candidate.pairs == kept.pairs and tie)


def why_taken(candidate: Reach, kept: Reach, name: str) -> str:
    """Why :func:`takes_over` took ``candidate`` over ``kept`` (the program ``name``), in
    the user's words."""
    if candidate.rows > kept.rows:
        return (f"it joins {candidate.rows:,} query rows, {name} {kept.rows:,}")
    if candidate.pairs < kept.pairs:
        return (f"it joins as many query rows ({candidate.rows:,}) as {name}, each to fewer "
                f"lake rows ({candidate.per_row()} on average, against {kept.per_row()})")
    return (f"it joins the same number of query rows ({candidate.rows:,}) as {name}, each "
            f"to as many lake rows ({candidate.per_row()} on average)")


def reaches_further(other, result) -> bool:
    """``other`` (an Auto-Join result, learned on the whole table) joins more of the query's
    rows than ``result`` (learned on the hit's partner rows), or as many through more of
    the lake table's rows (the programs' own joins, without the fuzzy step): MaxByCoverage,
    from the query's side. Not :func:`takes_over`: its docstring says why."""
    if not result.found:
        return True
    got, have = Reach.of(other, fuzzy=False), Reach.of(result, fuzzy=False)
    return (got.rows, got.lake_rows) > (have.rows, have.lake_rows)
