"""Index component "josie": what JOSIE needs beyond the core dictionary, sets and postings.

The core build already gives JOSIE's layout (notes/josie_schemaless.md A1.2-A1.4, A7):
token ids in ascending-frequency order with identical posting lists adjacent and sharing a
group id, integer sets sorted by token id, positional postings (set id, position, set
size) sorted by set id. This component adds:

* the distinct-posting-list statistics of JOSIE Table 3 (original lists, share of lists in
  a duplicate group, lists after de-duplication), from the dictionary's group ids;
* the read-cost constants of the cost model (JOSIE App. 7.2, Eq.15): linear fits with a
  floor of timed set-suffix reads and posting-list reads on the real storage, i.e. the
  memory-mapped ``.npy`` files of this index, cold (page cache dropped) and warm
  (index/reads.py::calibrate). The paper times ~1,000 sets and ~1,000 lists; so do we;
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
    from ..index.reads import CostModel, calibrate, load_arrays
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
