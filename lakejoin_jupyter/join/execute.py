"""Run a :class:`~.plan.JoinPlan`, in pandas or in Spark.

Both sides get temporary key columns (join/keys.py: normalized values, cell text, or an
Auto-Join program's output; a fuzzy join's matched keys rewritten to their partner's; an
Auto-Join's text and program keys then normalized as the search compares values), the
tables are merged on them, and the temporary columns are dropped:

* null keys never match: rows of the other table with a null key are removed first (pandas
  would otherwise match None with None);
* ``how`` "left" keeps every query row (augmentation), "inner" only matched rows; rows come
  in the query's order, a query row's partners in the other table's order;
* ``duplicates`` "all" keeps every matching row of the other table (SQL semantics: a query
  row repeats when the other key is not unique), "first" the first per key, so a left join
  keeps the query's row count;
* ``aggregate`` reduces the other table to one row per key first (latest by a date or
  year, first, mean or sum of its numeric columns, or the count alone), with its row count;
* the other table's columns that clash with the query's are renamed (``plan.renamed``);
* a union's numeric, boolean and string query columns keep the query's dtype when every
  stacked value fits it, nullable when values are missing (``frames.stacked_as_query``);
  its "only new rows" compares the aligned columns' normalized values (``keys.union_keys``);
* a Parquet lake table keeps its column types (its text and program keys read the text the
  index read, ``keys.lake_text``); a left join's unmatched rows hold None in object columns;
* a list column of the lake table that a key reads gives one row per element first
  (``plan.explode``: pandas ``explode``, Spark ``explode_outer``), as the index holds them.

join/codegen.py writes exactly these steps as code, so the generated code reproduces the
frame (tests check equality on random and hostile inputs).
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ..errors import QueryError, a_kind
from ..frames import is_spark_frame, stacked_as_query
from ..index.tables import lake_table, spark_quote, spark_table
from ..spark import ensure_worker_python, key_columns, to_pandas_utc, union_key_column
from .keys import (lake_texts, new_rows, numeric_values, order_keys, side_keys, union_keys)
from .plan import Aggregate, JoinPlan

ORDER, ROW, RANK = "__lakejoin_order", "__lakejoin_row", "__lakejoin_rank"
UNION_KEY, UNION_SEEN = "__lakejoin_union_key_", "__lakejoin_union_seen_"


def execute(plan: JoinPlan, df, other_frame=None):
    """Join the user's frame ``df`` as ``plan`` says. The other table is read from the lake
    (``plan.other``) or is ``other_frame``. pandas in, pandas out; Spark in, lazy Spark out."""
    if df is None:
        raise QueryError("Pass the DataFrame to join.")
    if plan.other is None and other_frame is None:
        raise QueryError(f"This join needs the other table ({plan.other_label}) as a DataFrame.")
    if is_spark_frame(df):
        return join_spark(df, _spark_other(df.sparkSession, plan, other_frame), plan)
    if not isinstance(df, pd.DataFrame):
        raise QueryError(f"Cannot join {a_kind(df)}; pass a pandas or Spark DataFrame.")
    other = lake_table(plan.other, types=True) if plan.other is not None else other_frame
    if is_spark_frame(other):
        other = to_pandas_utc(other)
    return join_pandas(df, explode_pandas(other, plan), plan)


def explode_pandas(other: pd.DataFrame, plan: JoinPlan) -> pd.DataFrame:
    """The other table with one row per element of each list column its keys read
    (``plan.explode``; an empty or null list: one row with a null element, which no key
    matches), rows renumbered; the table itself when there is none."""
    for c in plan.explode:
        other = other.explode(c, ignore_index=True)
    return other


# ----------------------------------------------------------------------- pandas

def plan_keys(left: pd.DataFrame, right: pd.DataFrame, plan: JoinPlan) -> tuple:
    """(query key Series per key, other key Series per key), fuzzy matches applied."""
    m = dict(plan.matches) if plan.matches or plan.matches_only else None
    lm, rm = (m, None) if plan.matches_on == "query" else (None, m)
    lkeys = [side_keys(left, k, lm, plan.matches_only) for k in plan.query_on]
    if plan.other is not None and plan.other.format == "parquet":
        right = lake_texts(right, plan.other_on)     # its types kept: keys read the index's text
    rkeys = [side_keys(right, k, rm, plan.matches_only) for k in plan.other_on]
    return lkeys, rkeys


def join_pandas(left: pd.DataFrame, right: pd.DataFrame, plan: JoinPlan,
                keys: tuple | None = None) -> pd.DataFrame:
    """Join two pandas frames as the plan says (``keys``: :func:`plan_keys`, if computed)."""
    lkeys, rkeys = keys or plan_keys(left, right, plan)
    names = list(plan.keys)
    lk = left.assign(**dict(zip(names, lkeys)))
    rk = right.assign(**dict(zip(names, rkeys))).dropna(subset=names)
    if plan.aggregate is not None:
        rk = aggregate_pandas(rk, names, plan.aggregate)
    elif plan.duplicates == "first":
        rk = rk.drop_duplicates(subset=names)
    if plan.renamed:
        rk = rk.rename(columns=plan.renamed)
    out = merge_in_query_order(lk, rk, plan).drop(columns=names)
    if plan.aggregate is not None:          # rows per key: 0 where the query row has none
        c = plan.aggregate.count_column
        out[c] = out[c].fillna(0).astype("int64")
    return out


def merge_in_query_order(lk: pd.DataFrame, rk: pd.DataFrame, plan: JoinPlan) -> pd.DataFrame:
    """``lk.merge(rk)`` on the plan's keys, rows in the query's row order for either ``how``
    (pandas keeps it for left merges only; an inner one is a left one without the unmatched);
    in a left one, the other table's object columns hold None (not NaN) on unmatched rows."""
    names = list(plan.keys)
    m = plan.match_column
    out = lk.merge(rk, on=names, how="left", indicator=m)
    if plan.how == "left":   # an unmatched row's text, Decimal or date cells: None, as nulls
        added = [c for c in plan.added_columns if c in out.columns and out[c].dtype == object]
        matched = out[m] == "both"
        return out.assign(**{c: out[c].where(matched, None) for c in added}).drop(columns=[m])
    return out.loc[out[m] == "both"].drop(columns=[m]).reset_index(drop=True)


def aggregate_pandas(rk: pd.DataFrame, keys: list, agg: Aggregate) -> pd.DataFrame:
    """One row per key of ``rk`` (keys computed, null keys dropped), as ``agg`` says; the
    code writer (codegen.py) writes these same calls."""
    count = agg.count_column
    if agg.how == "count":
        return rk.groupby(keys, sort=False).size().reset_index(name=count)
    if agg.how in ("mean", "sum"):
        cols = list(agg.columns)
        return (rk[keys + cols]
                .assign(**{c: numeric_values(rk[c]) for c in cols})
                .groupby(keys, sort=False)
                .agg(**{c: (c, agg.how) for c in cols}, **{count: (keys[0], "size")})
                .reset_index())
    if agg.how == "latest":
        order = order_keys(rk[agg.order_by], agg.dayfirst, agg.years)
        if order.isna().all() and rk[agg.order_by].notna().any():
            example = rk[agg.order_by].dropna().iloc[0]
            raise QueryError(
                f"'latest' cannot order the rows by {agg.order_by!r}: none of its values "
                f"({a_kind(example)}, such as {str(example)!r}) reads as a date, a time or a "
                f"number, so each key would keep its first row in table order. Name a date, "
                f"time or number column (order_by=...) or aggregate with 'first'.")
        rk = (rk.assign(**{ORDER: order})
              .sort_values(ORDER, ascending=False, kind="stable", na_position="last")
              .drop(columns=[ORDER]))
    return (rk.assign(**{count: rk.groupby(keys, sort=False)[keys[0]].transform("size")})
            .drop_duplicates(subset=keys))


def match_stats(left: pd.DataFrame, right: pd.DataFrame, plan: JoinPlan,
                keys: tuple | None = None) -> dict:
    """How many query rows find a partner, whether the other table's key is unique, and
    whether it is unique on the keys the query holds (else the join repeats query rows)."""
    lcols, rcols = keys or plan_keys(left, right, plan)
    lk = pd.MultiIndex.from_arrays(lcols) if len(lcols) > 1 else pd.Index(lcols[0])
    rk = pd.MultiIndex.from_arrays(rcols) if len(rcols) > 1 else pd.Index(rcols[0])
    l_ok = np.logical_and.reduce([c.notna().to_numpy() for c in lcols])
    r_ok = np.logical_and.reduce([c.notna().to_numpy() for c in rcols])
    rk = rk[r_ok]
    matched = int((np.asarray(lk.isin(rk)) & l_ok).sum())
    partners = rk[np.asarray(rk.isin(lk[l_ok]))]
    return {"query_rows": len(left), "matched_rows": matched, "lake_rows": len(right),
            "lake_key_unique": bool(rk.is_unique),
            "matched_key_unique": bool(partners.is_unique)}


# ----------------------------------------------------------------------- Spark

def _spark_other(spark, plan: JoinPlan, other_frame):
    if plan.other is not None:
        return spark_table(spark, plan.other)
    if is_spark_frame(other_frame):
        return other_frame
    return spark.createDataFrame(other_frame.astype(object).where(other_frame.notna(), None))


def spark_key(frame, key, matches: dict | None = None, only: bool = False, lake: bool = False):
    """A Spark column holding the keys of a :class:`~.plan.Key` (a pandas UDF over the
    key's columns, computing exactly what :func:`~.keys.side_keys` computes; ``lake``:
    of a typed lake table, as :func:`plan_keys` computes them). A TIMESTAMP column reaches
    the UDF as its UTC wall-clock time (``spark.key_columns``), as pandas renders it."""
    from pyspark.sql import functions as F
    ensure_worker_python(frame.sparkSession)    # before the UDF takes the workers' Python
    names = [str(c) for c in key.columns]

    @F.pandas_udf("string")
    def lakejoin_key(rows: pd.DataFrame) -> pd.Series:
        rows.columns = names
        return side_keys(lake_texts(rows, [key]) if lake else rows, key, matches, only)

    return lakejoin_key(F.struct(*key_columns(frame, key.columns)))   # TIMESTAMP: UTC clock


def join_spark(left, right, plan: JoinPlan):
    """Join two Spark DataFrames as the plan says (lazy; nothing runs until an action)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    m = dict(plan.matches) if plan.matches or plan.matches_only else None
    lm, rm = (m, None) if plan.matches_on == "query" else (None, m)
    only = plan.matches_only
    lk = left.withColumns({n: spark_key(left, k, lm, only) for n, k in zip(plan.keys, plan.query_on)})
    lake = plan.other is not None and plan.other.format == "parquet"
    for c in plan.explode:          # one row per element of a list column (explode_pandas)
        right = right.withColumn(c, F.explode_outer(F.col(spark_quote(c))))
    rk = right.withColumns({n: spark_key(right, k, rm, only, lake)
                            for n, k in zip(plan.keys, plan.other_on)})
    rk = rk.dropna(subset=list(plan.keys))
    if plan.aggregate is not None:
        rk = aggregate_spark(rk, list(plan.keys), plan.aggregate)
    elif plan.duplicates == "first":
        w = Window.partitionBy(*plan.keys).orderBy(ROW)
        rk = (rk.withColumn(ROW, F.monotonically_increasing_id())
              .withColumn(RANK, F.row_number().over(w))
              .where(F.col(RANK) == 1).drop(ROW, RANK))
    if plan.renamed:
        rk = rk.withColumnsRenamed(plan.renamed)
    out = lk.join(rk, on=list(plan.keys), how=plan.how).drop(*plan.keys)
    if plan.aggregate is not None:          # rows per key: 0 where the query row has none
        c = plan.aggregate.count_column
        out = out.withColumn(c, F.coalesce(F.col(spark_quote(c)), F.lit(0)))
    return out


def spark_values(column: str, fn):
    """A double Spark column: ``fn`` (:func:`~.keys.numeric_values` or
    :func:`~.keys.order_keys`) applied to ``column`` in a pandas UDF (on the session that
    :func:`spark_key` checked)."""
    from pyspark.sql import functions as F

    @F.pandas_udf("double")
    def lakejoin_values(values: pd.Series) -> pd.Series:
        return fn(values)

    return lakejoin_values(F.col(spark_quote(column)))


def aggregate_spark(rk, keys: list, agg: Aggregate):
    """:func:`aggregate_pandas` in Spark: the same rows (a sum of no number is 0, as in
    pandas; table order is Spark's row order of the file)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    count = agg.count_column
    if agg.how == "count":
        return rk.groupBy(*keys).agg(F.count(F.lit(1)).alias(count))
    if agg.how in ("mean", "sum"):
        cols = list(agg.columns)
        fn = {"mean": F.avg, "sum": lambda c: F.coalesce(F.sum(c), F.lit(0.0))}[agg.how]
        return (rk.select(*keys, *[spark_values(c, numeric_values).alias(c) for c in cols])
                .groupBy(*keys)
                .agg(*[fn(F.col(spark_quote(c))).alias(c) for c in cols],
                     F.count(F.lit(1)).alias(count)))
    order = [F.col(ROW)]
    rk = rk.withColumn(ROW, F.monotonically_increasing_id())
    if agg.how == "latest":
        # the column's reading, decided for the whole column: every batch reads it alike
        read = partial(order_keys, dayfirst=agg.dayfirst, years=agg.years)
        rk = rk.withColumn(ORDER, spark_values(agg.order_by, read))
        order = [F.col(ORDER).desc_nulls_last(), F.col(ROW)]
    return (rk.withColumn(count, F.count(F.lit(1)).over(Window.partitionBy(*keys)))
            .withColumn(RANK, F.row_number().over(Window.partitionBy(*keys).orderBy(*order)))
            .where(F.col(RANK) == 1).drop(ROW, RANK, ORDER))


# ----------------------------------------------------------------------- union

def execute_union(plan, df, report: dict | None = None):
    """Stack the plan's lake table under ``df`` (pandas in, pandas out; Spark: lazy Spark).
    ``report`` (pandas): filled as :func:`union_pandas` says."""
    if is_spark_frame(df):
        return union_spark(df, spark_table(df.sparkSession, plan.other), plan)
    if not isinstance(df, pd.DataFrame):
        raise QueryError(f"Cannot union {a_kind(df)}; pass a pandas or Spark DataFrame.")
    return union_pandas(df, lake_table(plan.other, types=True), plan, report)


def exact_integer(value):
    """A lake cell as a Python int, exactly (text of digits, an integer, a whole float), or
    None: the conversion of a union under a query column of Python integers (beyond int64)."""
    import numbers
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, float):
        return int(value) if value == value and value.is_integer() else None
    # int() reads "1_000" as 1000 (Python's digit grouping): an "_" in a cell makes it text
    text = str(value).strip().replace("_", "x")
    try:
        return int(text)
    except ValueError:
        return None


def union_pandas(df: pd.DataFrame, other: pd.DataFrame, plan, report: dict | None = None) -> pd.DataFrame:
    """``df`` (source "query") above the aligned, renamed, converted rows of ``other``; with
    ``plan.distinct`` only the rows that are new (not in ``df`` on the aligned columns, each
    once, values compared normalized: ``keys.new_rows``).
    ``report``: given a dict, it gets the rows added ("rows"), the table's rows left out as
    already there ("duplicates") and, per aligned query column, the lake column's non-null
    cells in the added rows before and after the conversion ("values")."""
    raw = other[[b for _, b in plan.alignment]].rename(columns=plan.renamed)
    added = raw.copy()
    for (a, _), kind in zip(plan.alignment, plan.kinds):
        if kind == "numeric":
            added[a] = pd.to_numeric(added[a], errors="coerce")
        elif kind == "integer":     # Python ints, exact (beyond int64, as the query's)
            added[a] = added[a].map(exact_integer).astype(object)
        elif kind == "datetime":    # an instant as its UTC wall-clock time, as the join keys
            added[a] = pd.to_datetime(added[a], errors="coerce", utc=True).dt.tz_localize(None)
    n_table = len(added)
    if plan.distinct:       # on the aligned columns: the others are null in a lake row
        new = new_rows(df, added, [a for a, _ in plan.alignment])
        raw, added = raw[new], added[new]
    if report is not None:
        report["rows"] = len(added)
        report["duplicates"] = n_table - len(added)
        report["values"] = {a: (int(raw[a].notna().sum()), int(added[a].notna().sum()))
                            for a, _ in plan.alignment}
    return stacked_as_query(pd.concat([df.assign(**{plan.source: "query"}),
                                       added.assign(**{plan.source: plan.other.name})],
                                      ignore_index=True), df)


def spark_union_key(frame, column):
    """A Spark column holding :func:`~.keys.union_keys` of ``column`` (a pandas UDF; a
    TIMESTAMP reaches it as its UTC wall-clock time, ``spark.key_columns``)."""
    from pyspark.sql import functions as F
    ensure_worker_python(frame.sparkSession)    # before the UDF takes the workers' Python

    @F.pandas_udf("string")
    def lakejoin_union_key(values: pd.Series) -> pd.Series:
        return union_keys(values)

    return lakejoin_union_key(union_key_column(frame, column))


def union_spark(df, other, plan):
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    cols = [other[spark_quote(b)].cast(t).alias(a)
            for (a, b), t in zip(plan.alignment, plan.spark_types)]
    added = other.select(*cols)
    if plan.distinct:       # as new_rows: the first of each row new on the union keys
        names = [a for a, _ in plan.alignment]
        keys = [f"{UNION_KEY}{i}" for i in range(len(names))]
        seen = [f"{UNION_SEEN}{i}" for i in range(len(names))]
        added = (added.withColumns({k: spark_union_key(added, a) for k, a in zip(keys, names)})
                 .withColumn(ROW, F.monotonically_increasing_id())
                 .withColumn(RANK, F.row_number().over(Window.partitionBy(*keys).orderBy(ROW)))
                 .where(F.col(RANK) == 1).drop(ROW, RANK))
        known = df.select(*[spark_union_key(df, a).alias(s) for s, a in zip(seen, names)])
        on = [F.col(k).eqNullSafe(F.col(s)) for k, s in zip(keys, seen)]
        cond = on[0]
        for c in on[1:]:
            cond = cond & c
        added = added.join(known.distinct(), cond, "left_anti").drop(*keys)
    added = added.withColumn(plan.source, F.lit(plan.other.name))
    return df.withColumn(plan.source, F.lit("query")).unionByName(added, allowMissingColumns=True)
