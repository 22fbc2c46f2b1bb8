"""A fuzzy-join threshold given by hand (new user 12, defect 5): the chosen threshold given
back joins as the automatic choice did (the main function's threshold replaced, the union's
other configurations kept), the summary says which configurations and the distance scale,
and a threshold outside the join function's distances is refused with the range."""
from __future__ import annotations

import pandas as pd
import pytest

from lakejoin_jupyter.errors import QueryError
from lakejoin_jupyter.join import fuzzy
from test_fuzzy import synthetic


@pytest.fixture(scope="module")
def fj():
    left, right, _ = synthetic(9)
    out = fuzzy.fuzzy_join(left, right, on=("name", "label"), precision_target=0.9)
    assert len(out.configs) > 1, "the synthetic data should choose a union"
    return out


def test_the_chosen_threshold_given_back_joins_as_the_choice(fj):
    main_alone, _ = fuzzy.union_matches(fj._cands, [(fj.function, fj.threshold)])
    assert (main_alone >= 0).sum() < len(fj.pairs())   # the union adds matches
    assert fj.pairs(fj.threshold) == fj.pairs()
    pd.testing.assert_frame_equal(fj.join(threshold=fj.threshold), fj.join())
    by_right = [m.sort_values("right")[["right", "left"]].reset_index(drop=True)
                for m in (fj.matches(fj.threshold), fj.matches())]
    pd.testing.assert_frame_equal(*by_right)
    others = [c for c in fj.configs if c[0] != fj.function]
    assert fj.configs_at(0.1) == [(fj.function, 0.1)] + others
    text = fj.threshold_text(0.1)
    assert f"{fj.function} at threshold 0.100 (of {fj.scale}), with the chosen " in text
    assert fj.scale == f"0..{fuzzy.distance_range(fj.function):.2f}"
    ns = {"df": fj.right, "left": fj.left}
    exec(fj.code("df", "out", threshold=0.1), ns)     # noqa: S102 - our own code
    pd.testing.assert_frame_equal(ns["out"], fj.join(threshold=0.1))


def test_a_threshold_outside_the_distances_is_refused_with_the_range(fj):
    top = fuzzy.distance_range(fj.function)
    for t in (5, -0.1, top + 0.1):
        with pytest.raises(QueryError, match=f"outside the distances .*{fj.scale}"):
            fj.join(threshold=t)
    with pytest.raises(QueryError, match=r"0\.\.1\.00"):
        fuzzy.fuzzy_join(fj.left, fj.right, on=("name", "label"),
                         functions=["word-contain"], threshold=1.5)
    assert fuzzy.distance_range("semantic") == 2.0
    given = fuzzy.fuzzy_join(fj.left, fj.right, on=("name", "label"), functions=["char3"],
                             threshold=1.0)
    assert given.configs == [("char3", 1.0)] and given.configs_at(0.5) == [("char3", 0.5)]


def test_the_summaries_give_the_scale_and_the_configurations(fj):
    from lakejoin_jupyter.actions import actions_for
    from lakejoin_jupyter.engine import Hit
    # every configuration with its scale, in the order added (newuser18 D9)
    assert fuzzy.configs_scaled_text(fj.configs, counts=fj.config_matches()) in fj.summary()
    assert f"{fj.function} again at {fj.threshold:.3f} (of {fj.scale}" in fj.summary() or \
        f"{fj.function} at {fj.threshold:.3f} (of {fj.scale}" in fj.summary() or \
        f"threshold {fj.threshold:.3f} of {fj.scale}" in fj.summary()

    class FakeEngine:
        def fuzzy_join(self, table, frame, on, precision_target):
            return fj.at_target(precision_target)       # the same candidates, not learned again

    hit = Hit(rank=1, table="ref", table_id=0, columns=("name",), column_ids=(3,), score=1.0,
              overlap=1, containment=0.1, jaccard=0.1, method="pexeso", exact=True,
              query_columns=("label",))
    act = {a.name: a for a in actions_for(hit)}["fuzzy_join"]
    auto = act(FakeEngine(), hit, fj.right)
    assert f"(of {fj.scale}" in auto.summary
    given = act(FakeEngine(), hit, fj.right, threshold=round(fj.threshold, 3) + 0.0005)
    assert "Threshold given:" in given.summary and "kept" in given.summary
    pd.testing.assert_frame_equal(given.joined, auto.joined)
    bad = act(FakeEngine(), hit, fj.right, threshold=fuzzy.distance_range(fj.function) + 0.5)
    assert not bad.ok and fj.scale in bad.summary


def test_the_code_comment_gives_thresholds_as_the_summary_does(fj):
    """The generated cell's comment names each chosen configuration with its threshold to 3
    decimals (as the widget shows it), not a Python list of tuples with full floats."""
    code = fj.code("df", "out")
    line = next(x for x in code.splitlines() if "configuration(s) chosen" in x)
    for f, t in fj.configs:
        assert f"{f} at {t:.3f}" in line
    assert "[(" not in line and "', " not in line
    line = next(x for x in fj.code("df", "out", threshold=1 / 3).splitlines()
                if "at threshold" in x)
    assert "at threshold 0.333" in line and "0.3333" not in line
