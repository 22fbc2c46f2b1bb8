"""Spark job: the token dictionary in JOSIE's global order (JOSIE §3.5).

* posting list of a token = sorted ids of the sets (columns) holding it; freq = its length;
* groups = distinct posting lists, ordered by (freq, list) and numbered 0..G-1 (group id);
  tokens with identical lists share a group, so duplicate lists are adjacent;
* token id = rank by (group id, token text): ascending frequency, identical lists adjacent.

Ranks come without a single-partition window: after the global sort (checkpointed) each
row's offset is its partition's start (a tiny collect of per-partition counts) plus its
position in the partition. Groups are formed by grouping by the list itself, so the last
group needs no special case.

Note:
    Ties are broken without JOSIE's MurmurHash of the list (see index/arrays.py).
    Details: docs/algorithms/index-format.md.
"""
from __future__ import annotations

import pandas as pd

from ..hashing import token_hash64


def _ranked(df, order_cols: list, weight_col: str | None = None):
    """df sorted by order_cols with a dense global rank ``_rank`` (and, if weight_col is
    given, ``_start`` = sum of weight_col over all earlier rows)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    sorted_df = (df.orderBy(*order_cols)
                 .withColumn("_pid", F.spark_partition_id())
                 .withColumn("_mid", F.monotonically_increasing_id())
                 .localCheckpoint(eager=True))
    aggs = [F.count("*").alias("n")]
    if weight_col:
        aggs.append(F.sum(weight_col).alias("w"))
    parts = sorted_df.groupBy("_pid").agg(*aggs).orderBy("_pid").collect()
    n_parts = (max(r["_pid"] for r in parts) + 1) if parts else 1
    row_off, w_off = [0] * n_parts, [0] * n_parts
    acc_n = acc_w = 0
    for r in parts:
        row_off[r["_pid"]] = acc_n
        acc_n += r["n"]
        if weight_col:
            w_off[r["_pid"]] = acc_w
            acc_w += r["w"]
    win = Window.partitionBy("_pid").orderBy("_mid")
    out = sorted_df.withColumn(
        "_rank", F.element_at(F.array(*[F.lit(x) for x in row_off]), F.col("_pid") + 1)
        + F.row_number().over(win) - 1)
    if weight_col:
        cum = F.sum(weight_col).over(win.rowsBetween(Window.unboundedPreceding, 0))
        out = out.withColumn(
            "_start", F.element_at(F.array(*[F.lit(x) for x in w_off]), F.col("_pid") + 1)
            + cum - F.col(weight_col))
    return out.drop("_pid", "_mid")


def _hash64_udf():
    from pyspark.sql.functions import pandas_udf

    @pandas_udf("long")
    def token_hash(tokens: pd.Series) -> pd.Series:
        return pd.Series(token_hash64(tokens.tolist()).view("int64"))

    return token_hash


def build_dictionary(column_tokens):
    """DataFrame (token_id int, token string, freq int, group_id int, hash64 long).

    ``column_tokens`` holds distinct (column_id, token) pairs.
    """
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    plist = (column_tokens.groupBy("token")
             .agg(F.sort_array(F.collect_list("column_id")).alias("sids"))
             .withColumn("freq", F.size("sids")))
    groups = plist.groupBy("freq", "sids").agg(F.count("*").alias("n_tokens"))
    groups = _ranked(groups, ["freq", "sids"], weight_col="n_tokens")
    groups = groups.select("freq", "sids", F.col("_rank").cast("int").alias("group_id"),
                           F.col("_start").alias("group_start"))
    tokens = plist.join(groups, ["freq", "sids"])
    within = Window.partitionBy("group_id").orderBy("token")
    return tokens.select(
        (F.col("group_start") + F.row_number().over(within) - 1).cast("int").alias("token_id"),
        "token", F.col("freq").cast("int").alias("freq"), "group_id",
        _hash64_udf()("token").alias("hash64"))
