"""Index component "josie": what JOSIE needs beyond the core dictionary, sets and postings.

The core build already gives JOSIE's layout (Zhu et al., SIGMOD 2019, §3.5 and App. 7.2):
token ids in the global order with identical posting lists sharing a group id, integer
sets, positional postings. This component adds the distinct-list statistics of JOSIE
Table 3 (from the dictionary's group ids), the read-cost constants of Eq.15 fitted
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


def list_stats(token_group) -> dict:
    """JOSIE Table 3 from the tokens' group ids (numpy: one bincount)."""
    import numpy as np
    sizes = np.bincount(np.asarray(token_group)) if len(token_group) else np.zeros(0, np.int64)
    tokens = int(sizes.sum())
    dup = int(sizes[sizes > 1].sum())
    return {"original": tokens, "distinct": int(len(sizes)), "in_duplicate_groups": dup,
            "dup_pct": round(100.0 * dup / tokens, 3) if tokens else 0.0,
            "largest_group": int(sizes.max()) if len(sizes) else 0}


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
    lists = list_stats(ctx.arrays.token_group)
    ctx.progress.step("josie: fitting read costs")
    return _section_from(ctx.writer.tmp, lists)


COMPONENT = Component(
    name="josie", build=build, default=True,
    description="JOSIE: distinct posting-list statistics and read-cost constants fitted "
                "on this index's storage (cost model of the exact top-k search).")
