"""Exact top-k overlap as a Spark job over the index's Parquet postings, for an index that
does not fit one machine (JOSIE App. 7.1.6 partitions the sets and merges per-partition
top-k, which a shuffle does for us).

    postings.parquet (token_id, set_id, position, set_size)
      ⋈ broadcast(query's distinct lists: token_id, weight = skipped + 1)
      -> group by set_id: overlap = sum(weight)       (MergeList-D, distributed)
      -> drop excluded sets, keep overlap >= the threshold's minimum
      -> top k by (overlap desc, set_id asc)           (Spark's TakeOrderedAndProject)

The query side (which tokens, duplicate groups, excluded sets) comes from the same
search/overlap.py as the in-memory methods, so the answers are the same overlap multiset as
JOSIE's (tested). Only the driver's small query table and the k results cross the network.
Needs a Spark session: the active one, or a new local one (lakejoin_jupyter.spark).
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from .overlap import Stats, candidates, distinct_lists, min_overlap
from .registry import SearchMethod

POSTINGS = "postings/postings.parquet"


def search(spark, postings_uri: str, a, token_ids, k, exclude=(), floor_overlap: int = 1):
    """[(set id, overlap)] best first, and Stats."""
    from pyspark.sql import functions as F

    from ..spark import fetch_results
    lists = distinct_lists(a, token_ids, exclude)
    st = Stats("distributed", n=lists.n, distinct_lists=lists.n_lists)
    if lists.n == 0:
        return [], st
    t0 = time.perf_counter()
    qdf = spark.createDataFrame(pd.DataFrame({
        "token_id": lists.list_tokens.astype(np.int32),
        "weight": (lists.skipped + 1).astype(np.int64)}))
    post = spark.read.parquet(postings_uri).select("token_id", "set_id")
    hits = post.join(F.broadcast(qdf), "token_id")
    if len(lists.exclude):
        hits = hits.where(~F.col("set_id").isin([int(x) for x in lists.exclude]))
    scores = hits.groupBy("set_id").agg(F.sum("weight").alias("overlap"))
    if floor_overlap > 1:
        scores = scores.where(F.col("overlap") >= floor_overlap)
    ranked = scores.orderBy(F.col("overlap").desc(), F.col("set_id").asc())
    if k is not None:
        ranked = ranked.limit(int(k))
    rows = fetch_results(ranked.collect, "collecting the distributed search's top k")
    st.lists_read = lists.n_lists
    st.posting_entries_read = int(lists.freqs.sum())
    st.extra["spark_seconds"] = round(time.perf_counter() - t0, 3)
    st.extra["spark_master"] = spark.sparkContext.master
    return [(int(r["set_id"]), int(r["overlap"])) for r in rows], st


def _run(index, query, params):
    from ..spark import get_spark

    spark = get_spark()
    res, st = search(spark, index.file(POSTINGS).as_uri(), index.arrays, query.token_ids,
                     params.k, query.exclude, min_overlap(params, query.size))
    return candidates(res), st.as_dict()


METHOD = SearchMethod(
    name="distributed", label="Exact top-k on Spark (distributed)", kind="exact", run=_run,
    priority=1, more="next",
    description="The exact top-k as a Spark job over the Parquet postings (broadcast join "
                "with the query's distinct lists, group by set); for indexes larger than "
                "one machine. Needs a Spark session.")
