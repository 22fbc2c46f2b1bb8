"""A terminal table's long names (formats.py ``clip``, ``clip_all``): cut in the middle,
keeping the last part that tells two tables of a folder apart; two different names are
never shown alike (newuser16 D14)."""
import pytest
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


@pytest.mark.parametrize("fallback, alphabet", [("full", "ab/_"), ("shared", "ab_0")])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_two_different_names_are_never_shown_alike(fallback, alphabet, data):
    names = data.draw(st.lists(st.text(alphabet=alphabet, min_size=1, max_size=70),
                               min_size=1, max_size=8))
    names = [" ".join(n.split()) or "x" for n in names]
    shown = clip_all(names, fallback=fallback)
    assert all(len(s) <= 40 or s == n for s, n in zip(shown, names))
    assert all(s == n or "\u2026" in s for s, n in zip(shown, names))
    pairs = {(s, n) for s, n in zip(shown, names)}
    assert len({s for s, _ in pairs}) == len({n for _, n in pairs})


LONG = [f"meteo_measurement_{i:03d}_with_quite_a_long_column_label" for i in range(5)]


def test_columns_that_differ_in_a_few_characters_keep_them():
    """newuser18 D8: five columns cut in the middle all read
    "meteo_measurement_00…a_long_column_label"; cut in the part they share, each keeps
    the characters that tell it from the others."""
    assert len({clip(c) for c in LONG}) == 1                  # the cut that read alike
    shown = clip_all(["district_id"] + LONG, fallback="shared")
    assert shown[0] == "district_id"
    assert shown[1:] == [f"meteo_measurement_{i:03d}\u2026_long_column_label" for i in range(5)]
    assert all(len(s) == 40 for s in shown[1:])
    # a name unlike the others keeps clip's cut; short ones stay whole
    other = "x/" + "a" * 60
    assert clip_all([other, "b", LONG[0]], fallback="shared") == [clip(other), "b",
                                                                  clip(LONG[0])]


def test_an_unknown_fallback_is_refused():
    with pytest.raises(ValueError, match="fallback must be 'full' or 'shared', not 'apart'"):
        clip_all(["a"], fallback="apart")


def test_info_tables_lists_long_columns_apart(spark, tmp_path, capsys):
    """``lakejoin info --tables`` on a table of long column names alike but for a number."""
    import pandas as pd
    from conftest import write_lake
    from lakejoin_jupyter.cli import main as cli
    lake = write_lake(tmp_path / "lake", {"wide.csv": pd.DataFrame(
        {"district_id": range(12), **{c: [i * 1.5 for i in range(12)] for c in LONG}})})
    out = tmp_path / "ix"
    assert cli(["index", str(lake), "--out", str(out), "-q"]) == 0
    capsys.readouterr()
    assert cli(["info", str(out), "--tables"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("wide "))
    for i in range(5):
        assert f"meteo_measurement_{i:03d}\u2026_long_column_label" in line
