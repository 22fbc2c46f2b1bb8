"""A transformation hit joined by Auto-Join keeps the hit's direction when the two directions
tie: codes "005" of the query and "X-005" of the lake join 1:1 either way ("X-" + part, or
part 2 of code, the smaller program), and Find transformation / ``hit.autojoin`` show and
join with the program the search verified (docs/algorithms/transform_search.md)."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import lake_engine

CODES = [3, 17, 42, 77, 101, 150, 199, 5]
LAKE = pd.DataFrame({"code": [f"X-{i:03d}" for i in range(200)],
                     "name": [f"item {i}" for i in range(200)]})


def _query() -> pd.DataFrame:
    return pd.DataFrame({"part": [f"{i:03d}" for i in CODES]})


def test_a_tie_between_the_directions_goes_to_the_preferred_side():
    """Both directions join the 8 codes 1:1, each on all its target's rows: without a
    preference the smaller program (the lake's) wins, with one that side's program."""
    from lakejoin_jupyter.join.autojoin import autojoin
    q, lake = _query(), LAKE.iloc[CODES]
    plain = autojoin(q, lake, "part", "code")
    assert plain.source == "right" and plain.program.describe() == 'part 2 (split at "-") of `code`'
    for side, program in (("left", '"X-" + `part`'), ("right", 'part 2 (split at "-") of `code`')):
        aj = autojoin(q, lake, "part", "code", prefer=side)
        assert (aj.source, aj.program.describe(), aj.coverage) == (side, program, 8)
        assert "a tie goes to the search's program's direction" in aj.explain()
    with pytest.raises(Exception, match="prefer"):
        autojoin(q, lake, "part", "code", prefer="lake")


def test_a_program_recasing_only_its_constants_is_shown_as_such():
    """Learned on case-folded values, "x-" + part gives the lake's "X-005" once its constant
    is upper-cased; the digits it reads are not recased (upper(part) would be noise)."""
    from lakejoin_jupyter.join.autojoin import discovery
    from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program, Substring
    learned = Program((Constant("x-"), Substring(Column("part"))))
    got = discovery.cased_program(learned, _query()["part"], LAKE["code"])
    assert got.describe() == '"X-" + `part`'


@pytest.fixture(scope="module")
def codes_engine(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "tie", {"parts/items.csv": LAKE},
                       components=["transform"])


@pytest.mark.spark
def test_find_transformation_joins_with_the_hits_program_when_the_directions_tie(codes_engine):
    """The search verifies "X-" + part (query -> lake); hit.autojoin learns on the 8 lake rows
    it joins, where both directions join all 8 rows 1:1, and keeps the hit's direction and
    program; the action's summary and its join agree with the hit (pandas oracle)."""
    from lakejoin_jupyter.actions import get
    q = _query()
    hit = next(h for h in codes_engine.search(q, "part", method="transform", k=3)
               if h.column == "code")
    assert (hit.details["direction"], hit.details["program"]) == ("query -> lake", '"X-" + `part`')
    aj = hit.autojoin(q)
    assert (aj.source, aj.program.describe()) == ("left", hit.details["program"])
    res = get("autojoin")(codes_engine, hit, q)
    assert res.ok, res.summary
    assert res.result.program.describe() == hit.details["program"]
    assert "Not the hit's program" not in res.summary
    assert "(df rows transformed)" in res.summary
    want = q.assign(k="X-" + q["part"]).merge(LAKE, left_on="k", right_on="code", how="left")
    assert sorted(zip(res.joined["part"], res.joined["name"])) == \
        sorted(zip(want["part"], want["name"]))


def test_the_summary_says_when_auto_join_leaves_the_hits_program():
    """A hit whose program Auto-Join does not join with (here the other direction) is named
    in the Find transformation summary, with the reason."""
    from types import SimpleNamespace
    from lakejoin_jupyter.actions import _hit_program_note
    from lakejoin_jupyter.join.autojoin import autojoin
    q, lake = _query(), LAKE.iloc[CODES]
    aj = autojoin(q, lake, "part", "code", prefer="right")
    hit = SimpleNamespace(details={"program": '"X-" + `part`', "direction": "query -> lake"})
    note = _hit_program_note(hit, aj)
    assert "Not the hit's program" in note and '"X-" + `part`' in note
    assert "other table's values" in note
    same = SimpleNamespace(details={"program": 'part 2 (split at "-") of `code`',
                                    "direction": "lake -> query"})
    assert _hit_program_note(same, aj) == ""
    # the search's program on case-folded values is the same program: no note
    folded = SimpleNamespace(details={"program": 'PART 2 (split at "-") of `code`',
                                      "direction": "lake -> query"})
    assert _hit_program_note(folded, aj) == ""
