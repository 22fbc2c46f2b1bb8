"""Configurations that matched nothing are not presented as chosen (newuser20 D10): a
union can hold configurations that join no value (every value they reach is joined, more
probably, by another); the summary, the repr, the widget's summary and threshold note and
explain() name only those that joined a value and fold the rest into one count ("N more
matched nothing"); explain() names them on one line. Oracle: matches(), which gives each
matched value the configuration that joined it."""
import pandas as pd
import pytest

from lakejoin_jupyter.join import fuzzy
from tests.test_fuzzy_shown_threshold import STATES, TYPED, _made


@pytest.fixture(scope="module")
def states():
    return fuzzy.fuzzy_join(pd.DataFrame({"name": STATES}), pd.DataFrame({"st": TYPED}),
                            on=("name", "st"), precision_target=0.9)   # "semantic" included


@pytest.fixture(scope="module")
def widget(states):
    from lakejoin_jupyter.actions import get
    from lakejoin_jupyter.engine import Hit

    class FakeEngine:
        def fuzzy_join(self, table, frame, on, precision_target):
            return states

    hit = Hit(rank=1, table="us/states", table_id=0, columns=("name",), column_ids=(1,),
              score=1.0, overlap=10, containment=0.5, jaccard=0.2, method="josie", exact=True,
              query_columns=("st",))
    return get("fuzzy_join")(FakeEngine(), hit, pd.DataFrame({"st": TYPED}))


def _named(text, f, t):
    return f"{f} at {t:.3f} (" in text or f"{f} again at {t:.3f} (" in text


def test_configurations_that_matched_nothing_are_only_counted(states, widget):
    made = _made(states)
    assert states.config_matches() == made
    zero = [c for c, n in zip(states.configs, made) if n == 0]
    some = [c for c, n in zip(states.configs, made) if n > 0]
    assert zero and len(some) > 1, made            # the case reported: both kinds chosen
    ranges_note = widget.ranges["threshold"][2]
    for text in (states.summary(), repr(states), widget.summary):
        assert "; 0 matched values" not in text
        assert f"and {len(zero)} more matched nothing (explain() lists them)" in text
        assert all(not _named(text, f, t) for f, t in zero
                   if (f, t) not in some)            # a 0-match one is never named
    assert all(_named(states.summary(), f, t) for f, t in some)
    assert widget.summary.startswith(f"Chose {len(some)} configurations, in the order the "
                                     f"choice added them: ")
    assert "; 0 matched values" not in ranges_note and "matched nothing" not in ranges_note
    # explain(): a line per configuration that joined a value, one line for the rest
    lines = states.explain().splitlines()
    assert lines[1:1 + len(some)] == [
        f"  {f} at threshold {t:.3f}: {n} matched value{'s' if n != 1 else ''}"
        for (f, t), n in zip(states.configs, made) if n]
    assert lines[1 + len(some)] == (f"  {len(zero)} more matched nothing: "
                                    + ", ".join(f"{f} at {t:.3f}" for f, t in zero))


def test_the_repr_cut_still_counts_what_the_hidden_joined():
    """newuser19 D4 with 0-match ones beside: by hand, 7 configurations joined 9..3 values
    (5 named, 2 more joining 4 + 3), 2 joined none."""
    configs = [("char3", 0.1 * i) for i in range(1, 10)]
    counts = [9, 0, 8, 7, 6, 5, 4, 0, 3]
    text = fuzzy.configs_scaled_text(configs, counts=counts, most=5)
    assert text.count(" at ") == 5 and "0.200" not in text and "0.800" not in text
    assert text.endswith("and 2 more joining 7 matched values, and 2 more matched nothing "
                         "(explain() lists them)")
    # without a cut, the summary's form: all that joined a value, in the order given
    assert fuzzy.configs_scaled_text(configs, counts=counts).count(" at ") == 7
