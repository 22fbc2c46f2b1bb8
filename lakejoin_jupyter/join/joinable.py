"""``join(df)`` and ``code(name, into)`` for every result that can build a join plan.

The contract (join/plan.py): ``code(name, into)`` run where only ``name`` is bound to the
user's frame binds ``into`` to a frame equal to ``join(df)``, because both go through the
same :class:`~.plan.JoinPlan`: join/execute.py runs it, join/codegen.py writes it.
"""
from __future__ import annotations

from ..errors import QueryError
from ..frames import check_identifier, is_spark_frame, joined_tables, mark_joined
from ..index.tables import check_table_present
from .codegen import plan_code
from .execute import execute
from .plan import JoinPlan


class Joinable:
    """``join(df)`` and ``code(name, into)`` for a result that can build its :class:`JoinPlan`.

    A subclass implements ``plan(df=None, how=..., **options)``; ``df`` is the user's frame
    (when None, the frame or columns the result was computed with)."""

    def plan(self, df=None, how: str | None = None, **options) -> JoinPlan:
        raise NotImplementedError

    def _frame(self, df):
        """The user's frame when ``df`` is None (subclasses that remember it override)."""
        if df is None:
            raise QueryError("Pass the DataFrame to join: result.join(df).")
        return df

    def _other_frame(self):
        """The other table when it is a frame of the session (not a lake table)."""
        return None

    def join(self, df=None, how: str | None = None, **options):
        """The joined DataFrame (pandas, or a lazy Spark DataFrame for a Spark ``df``). A
        pandas result records the lake tables it holds in ``attrs["lakejoin_chain"]``, so
        a search with it marks them as already joined."""
        df = self._frame(df)
        plan = self.plan(df, how=how, **options)
        out = execute(plan, df, self._other_frame())
        return mark_joined(out, joined_tables(df), self._joined_tables(plan))

    def _joined_tables(self, plan: JoinPlan) -> list:
        """The lake tables a join adds to the frame's chain."""
        return [plan.other.name] if plan.other is not None else []

    def code(self, name: str = "df", into: str = "joined", *, how: str | None = None,
             df=None, other: str = "other", spark: bool | None = None, **options) -> str:
        """Python source that, run where only ``name`` is bound to the user's frame (and
        ``other`` to the second frame, when the other table is not a lake table), binds
        ``into`` to the frame :meth:`join` returns: pandas, or PySpark for a Spark frame
        (``spark=True`` forces it)."""
        check_identifier(name, "variable name (name=)")
        check_identifier(into, "variable name (into=)")
        check_identifier(other, "variable name (other=)")
        plan = self.plan(df, how=how, **options)
        if plan.other is not None:      # code reading a deleted file: refused, as its join
            check_table_present(plan.other)
        if spark is None:
            spark = is_spark_frame(df) if df is not None else self._spark_query()
        return plan_code(plan, name=name, into=into, other_name=other, spark=spark)

    def _spark_query(self) -> bool:
        """Whether the frame this result was computed with is a Spark DataFrame."""
        return False
