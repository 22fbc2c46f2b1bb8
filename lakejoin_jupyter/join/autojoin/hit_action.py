"""The "Find transformation" action on a search hit: Auto-Join between the query frame and
the hit's table, restricted to the query column and the hit column (both directions)."""
from __future__ import annotations

from ...errors import LakeJoinError
from ...search.registry import ParamSpec
from ..actions import ActionResult, HitAction, register_action


def run(engine, hit, query_frame, fuzzy: bool = True, seed: int = 0, **params) -> ActionResult:
    left_on = [c for c in hit.query_columns if c in query_frame.columns] or None
    right_on = list(hit.columns)
    try:
        aj = engine.autojoin(query_frame, left_on, hit.table, right_on, fuzzy=fuzzy, seed=seed,
                             **params)
    except LakeJoinError as e:
        return ActionResult(title="Find transformation", summary=str(e), ok=False)
    if not aj.found:
        return ActionResult(title="Find transformation", summary=aj.message, ok=False,
                            details={"autojoin": aj.to_dict()})
    joined = aj.join()
    head = (f"**{aj.program.describe()}**\n\n" + aj.explain())
    return ActionResult(
        title="Find transformation", summary=head,
        tables={"Example rows that taught the program": aj.examples_frame(),
                f"Joined rows ({len(joined):,}; first 50)": joined.head(50)},
        joined=joined, code=aj.code(left="df", right="other"), variable="joined", ok=True,
        details={"autojoin": aj.to_dict(), "coverage": aj.coverage,
                 "target_keys": aj.target_keys, "joined_rows": aj.joined_rows})


register_action(HitAction(
    name="autojoin", label="Find transformation", run=run,
    applies=lambda hit: len(hit.columns) == 1,
    params=(ParamSpec("fuzzy", "Constrained fuzzy join", "bool", True,
                      help="extend the equi-join with fuzzy matches that keep it 1:1 / N:1"),
            ParamSpec("seed", "Random seed", "int", 0, 0, 10_000, 1,
                      help="seed of the example sets drawn for learning")),
    order=20))
