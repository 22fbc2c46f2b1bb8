"""Index component "josie": what JOSIE needs beyond the core dictionary, sets and postings.

The core build already gives JOSIE's layout (notes/josie_schemaless.md A1.2-A1.4, A7):
token ids in ascending-frequency order with identical posting lists adjacent and sharing a
group id, integer sets sorted by token id, positional postings (set id, position, set
size) sorted by set id. This component adds:

* the distinct-posting-list statistics of JOSIE Table 3 (original lists, share of lists in
  a duplicate group, lists after de-duplication), from a Spark aggregation over the
  dictionary;
* the read-cost constants of the cost model (JOSIE App. 7.2, Eq.15): linear fits with a
  floor of timed set-suffix reads and posting-list reads on the real storage, i.e. the
  memory-mapped ``.npy`` files of this index, cold (page cache dropped) and warm
  (search/josie_cost.py::calibrate). The paper times ~1,000 sets and ~1,000 lists; so do we;
* the planner's fit: whole-query CPU time of MergeList-D and of JOSIE-D, timed by running
  both on sampled columns as self-queries (search/josie.py::calibrate_plan; imported here,
  against the usual build -> search direction, because it measures the search code itself).

Group bounds are not stored as extra arrays: ``token_group`` (dictionary/group.npy) already
says, per token, which distinct list it belongs to, and a query only needs the group ids of
its own tokens.
"""
from __future__ import annotations

from .component import Component

CALIBRATION_SAMPLES = 1000


def _list_stats(dictionary) -> dict:
    from pyspark.sql import functions as F

    groups = dictionary.groupBy("group_id").agg(F.count("*").alias("n"))
    row = groups.agg(F.count("*").alias("groups"), F.sum("n").alias("tokens"),
                     F.sum(F.when(F.col("n") > 1, F.col("n")).otherwise(0)).alias("dup"),
                     F.max("n").alias("largest")).collect()[0]
    tokens = int(row["tokens"] or 0)
    return {"original": tokens, "distinct": int(row["groups"] or 0),
            "in_duplicate_groups": int(row["dup"] or 0),
            "dup_pct": round(100.0 * (row["dup"] or 0) / tokens, 3) if tokens else 0.0,
            "largest_group": int(row["largest"] or 0)}


def _section_from(index_dir, lists: dict) -> dict:
    """The manifest section: list statistics, fitted read costs and the planner's fit."""
    from ..index.reads import load_arrays
    from ..search.josie_cost import CostModel, calibrate
    from ..search.josie import calibrate_plan

    costs = calibrate(index_dir, n_samples=CALIBRATION_SAMPLES)
    section = {"lists": lists, "costs": costs, "cost_unit": "ns",
               "cost_form": "max(intercept + slope * n, floor)",
               "calibration_samples": CALIBRATION_SAMPLES}
    model = CostModel.from_manifest({"components": {"josie": section}}, "warm")
    plan = calibrate_plan(load_arrays(index_dir), costs=model)
    if plan is not None:
        section["plan"] = plan
    return section


def build(ctx) -> dict:
    ctx.progress.step("josie: distinct posting lists")
    lists = _list_stats(ctx.dictionary)
    ctx.progress.step("josie: fitting read costs")
    return _section_from(ctx.writer.tmp, lists)


COMPONENT = Component(
    name="josie", build=build, default=True,
    description="JOSIE: distinct posting-list statistics and read-cost constants fitted "
                "on this index's storage (cost model of the exact top-k search).")
