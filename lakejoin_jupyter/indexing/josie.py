"""Index component "josie": what JOSIE needs beyond the core dictionary, sets and postings.

The core build already gives JOSIE's layout (Zhu et al., SIGMOD 2019, §3.5 and App. 7.2):
token ids in the global order with identical posting lists sharing a group id, integer
sets, positional postings. This component adds the distinct-list statistics of JOSIE
Table 3 (a Spark aggregation over the dictionary), the read-cost constants of Eq.15 fitted
on this index's own files, cold and warm (search/josie_cost.calibrate), and the planner's fit of
whole-query CPU time (search/josie.calibrate_plan, imported here against the usual
build -> search direction because it times the search code itself).

Note:
    Group bounds are not stored: ``token_group`` already says which distinct list each
    token belongs to. Details: docs/algorithms/josie.md.
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
