"""A terminal table's long names (formats.py ``clip``, ``clip_all``): cut in the middle,
keeping the last part that tells two tables of a folder apart; two different names are
never shown alike (newuser16 D14)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.formats import clip, clip_all

GOP = "fivethirtyeight/gop-delegate-benchmarks"


def test_the_reported_tables_keep_their_last_part():
    a, b = f"{GOP}/delegate_targets", f"{GOP}/previous-targets/delegate_targets_2024-01-11"
    assert clip(a) == "fivethirtyeight/gop-de\u2026/delegate_targets"
    assert clip(b) == "fivethirtye\u2026/delegate_targets_2024-01-11"
    assert len(clip(a)) == len(clip(b)) == 40
    assert clip("air/airports") == "air/airports"
    # a last part too long for the width: its start and its end
    long_tail = "x/" + "a" * 30 + "_middle_" + "b" * 30
    assert clip(long_tail) == "x/" + "a" * 18 + "\u2026" + "b" * 19
    assert clip_all([a, b, a]) == [clip(a), clip(b), clip(a)]


def test_names_cut_alike_are_shown_in_full():
    a = "lake/" + "t" * 20 + "_one_" + "u" * 30
    b = "lake/" + "t" * 20 + "_two_" + "u" * 30
    assert clip(a) == clip(b)
    assert clip_all([a, b, "short"]) == [a, b, "short"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab/_", min_size=1, max_size=70), min_size=1, max_size=8))
def test_two_different_names_are_never_shown_alike(names):
    names = [" ".join(n.split()) or "x" for n in names]
    shown = clip_all(names)
    assert all(len(s) <= 40 or s == n for s, n in zip(shown, names))
    pairs = {(s, n) for s, n in zip(shown, names)}
    assert len({s for s, _ in pairs}) == len({n for _, n in pairs})
