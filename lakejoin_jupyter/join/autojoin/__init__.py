"""Auto-Join (thesis chapter 4): join two tables whose key columns are formatted
differently, by learning the transformation program that makes them equi-join.

    from lakejoin_jupyter.join.autojoin import autojoin
    aj = autojoin(people, emails)            # or engine.autojoin(df, "Name", "table", "email")
    aj.explain(); aj.join(); print(aj.code())

Modules: dsl (the language), pairs (q-gram row pairs, §4.4.1), learn (Algorithms 4-5),
programset (ordered program sets, estimated precision), sampling (§4.5), fuzzy (§4.6),
composite (§4.4.3), pipeline (both directions), result (the AutoJoin answer), choice (which
join of a hit ``Hit.autojoin`` keeps).
"""
from .dsl import Program, ProgramSet
from .pipeline import AutoJoinInputError, AutoJoinSettings, autojoin
from .result import AutoJoin

__all__ = ["AutoJoin", "AutoJoinInputError", "AutoJoinSettings", "Program", "ProgramSet",
           "autojoin", "autojoin_query"]


def autojoin_query(df, other):
    """(the pandas frame Auto-Join learns ``df`` from, whether ``df`` is a Spark frame): a
    Spark query is learned on its first rows (``frames.learning_frame``), as ``hit.autojoin``
    learns, and its join and code stay Spark's. ``other`` as a Spark frame is refused with
    what to pass instead (the join reads the whole other table, as pandas)."""
    from ...frames import is_spark_frame, learning_frame
    if is_spark_frame(other):
        raise AutoJoinInputError(
            "The other table is a Spark DataFrame: Auto-Join reads the whole other table as "
            "pandas, so pass other.toPandas() (or, with an index, the name of a lake table: "
            "engine.autojoin(df, column, 'table', column)). The first table, the one joined, "
            "may be a Spark DataFrame: it is learned on its first rows and joined whole.")
    return learning_frame(df), is_spark_frame(df)

