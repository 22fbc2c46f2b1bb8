"""Auto-Join (thesis chapter 4): join two tables whose key columns are formatted
differently, by learning the transformation program that makes them equi-join.

    from lakejoin_jupyter.join.autojoin import autojoin
    aj = autojoin(people, emails)            # or engine.autojoin(df, "Name", "table", "email")
    aj.explain(); aj.join(); print(aj.code())

Modules: dsl (the language), pairs (q-gram row pairs, §4.4.1), learn (Algorithms 4-5),
programset (ordered program sets, estimated precision), sampling (§4.5), fuzzy (§4.6),
composite (§4.4.3), pipeline (both directions), result (the AutoJoin answer).
"""
from .dsl import Program, ProgramSet
from .pipeline import AutoJoinInputError, AutoJoinSettings, autojoin
from .result import AutoJoin

__all__ = ["AutoJoin", "AutoJoinInputError", "AutoJoinSettings", "Program", "ProgramSet",
           "autojoin"]
