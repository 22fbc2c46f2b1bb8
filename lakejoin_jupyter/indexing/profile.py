"""Spark job: profile every column (type, distinct count, nulls, sample values).

The type is inferred from the column's distinct tokens: "integer", "float", "date",
"boolean" when at least 90% of the distinct tokens have that shape, "empty" when the
column has no token, otherwise "string". Samples are the most frequent raw values.
"""
from __future__ import annotations

import pandas as pd

from ..lake.normalize import MAX_TOKEN_CHARS

TYPE_SHARE = 0.9
_INT = r"^-?[0-9]+$"
_NUM = r"^-?([0-9]+(\.[0-9]+)?|\.[0-9]+)(e[+-]?[0-9]+)?$"
_DATE = r"^([0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([ t][0-9:.]+)?|[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4})$"
_BOOL = ["true", "false", "yes", "no", "t", "f", "y", "n"]


def profile_columns(cells, column_tokens, n_samples: int = 5) -> pd.DataFrame:
    """Per column_id: n_values, n_keyless, n_too_long, n_distinct, type, samples."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    counts = cells.groupBy("column_id").agg(
        F.count("*").alias("n_values"),
        F.sum(F.when(F.col("token").isNull(), 1).otherwise(0)).alias("n_keyless"),
        F.sum(F.when(F.col("token").isNull() & (F.length("value") > MAX_TOKEN_CHARS), 1)
              .otherwise(0)).alias("n_too_long"))
    shapes = column_tokens.groupBy("column_id").agg(
        F.count("*").alias("n_distinct"),
        F.sum(F.col("token").rlike(_INT).cast("int")).alias("n_int"),
        F.sum(F.col("token").rlike(_NUM).cast("int")).alias("n_num"),
        F.sum(F.col("token").rlike(_DATE).cast("int")).alias("n_date"),
        F.sum(F.col("token").isin(_BOOL).cast("int")).alias("n_bool"),
        F.max(F.length("token")).alias("max_len"))
    w = Window.partitionBy("column_id").orderBy(F.col("n").desc(), F.col("value"))
    samples = (cells.where(F.col("token").isNotNull())
               .groupBy("column_id", "value").agg(F.count("*").alias("n"))
               .withColumn("_r", F.row_number().over(w)).where(F.col("_r") <= n_samples)
               .groupBy("column_id")
               .agg(F.sort_array(F.collect_list(F.struct("_r", "value"))).alias("_s"))
               .select("column_id", F.col("_s.value").alias("samples")))
    out = (counts.join(shapes, "column_id", "left").join(samples, "column_id", "left")
           .toPandas())
    for c in ("n_distinct", "n_int", "n_num", "n_date", "n_bool", "max_len"):
        out[c] = out[c].fillna(0).astype("int64")
    out["type"] = [_infer_type(r) for r in out.itertuples(index=False)]
    return out.drop(columns=["n_int", "n_num", "n_date", "n_bool"])


def _infer_type(r) -> str:
    n = r.n_distinct
    if n == 0:
        return "empty"
    if r.n_int >= TYPE_SHARE * n:
        return "integer"
    if r.n_num >= TYPE_SHARE * n:
        return "float"
    if r.n_date >= TYPE_SHARE * n:
        return "date"
    if r.n_bool >= TYPE_SHARE * n:
        return "boolean"
    return "string"
