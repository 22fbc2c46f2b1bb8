"""A query frame whose labels are not plain columns: MultiIndex columns, a key in the index,
repeated non-key column names (new user 9, items 3, 5 and 6)."""
import pandas as pd
import pytest

from lakejoin_jupyter.errors import QueryError

pytestmark = pytest.mark.spark

COUNTRIES = ["France", "Japan", "Germany", "Brazil"]


def test_multiindex_columns_are_refused_with_the_flattening_line(demo_engine):
    q = pd.DataFrame({("geo", "country"): COUNTRIES, ("val", "n"): range(4)})
    fix = "df.columns = ['_'.join(map(str, c)) for c in df.columns]"
    for column in ([("geo", "country")], ("geo", "country"), "geo"):
        with pytest.raises(QueryError, match="MultiIndex columns") as err:
            demo_engine.search(q, column, k=1)
        assert fix in str(err.value)
    df = q.copy()
    exec(fix, {"df": df})                         # the advice, as written, works
    hit = demo_engine.search(df, "geo_country", k=1)[0]
    assert hit.join(df)["geo_country"].tolist() == COUNTRIES
    with pytest.raises(QueryError, match="MultiIndex columns"):
        hit.join(q)                               # not a bare pandas MergeError


def test_a_key_in_the_index_is_named_with_the_fix(demo_engine):
    named = pd.DataFrame({"n": range(4)}, index=pd.Index(COUNTRIES, name="country"))
    with pytest.raises(QueryError, match=r"'country' is in the DataFrame's index, not a "
                                         r"column: search df\.reset_index\(\)"):
        demo_engine.search(named, "country", k=1)
    unnamed = pd.DataFrame({"n": range(4)}, index=COUNTRIES)
    for column in (None, "country"):
        with pytest.raises(QueryError, match=r"index \(unnamed, e\.g\. 'France'\).*"
                                             r"df\.reset_index\(\)"):
            demo_engine.search(unnamed, column, k=1)
    plain = pd.DataFrame({"n": range(4)})        # row numbers (a filtered frame's): no hint
    for frame in (plain, plain.iloc[[1, 3]]):
        with pytest.raises(QueryError) as err:
            demo_engine.search(frame, "country", k=1)
        assert "index" not in str(err.value)
    hit = demo_engine.search(named.reset_index(), "country", k=1)[0]
    with pytest.raises(QueryError, match=r"in the DataFrame's index.*reset_index"):
        hit.join(named)
    assert hit.join(named.reset_index())["country"].tolist() == COUNTRIES


def test_repeated_non_key_names_join_as_pandas_merges(demo_engine):
    q = pd.DataFrame([[c, i, -i] for i, c in enumerate(COUNTRIES)], columns=["country", "n", "n"])
    hit = demo_engine.search(q, "country", k=1)[0]
    joined = hit.join(q)
    assert list(joined.columns[:3]) == ["country", "n", "n"]
    # the oracle: the same join of the frame with its columns told apart
    apart = q.set_axis(["country", "n", "n2"], axis=1)
    expected = hit.join(apart)
    pd.testing.assert_frame_equal(joined.set_axis(expected.columns, axis=1), expected)
    ns = {"df": q}
    exec(hit.code("df", "out"), ns)               # its code, in a fresh namespace
    pd.testing.assert_frame_equal(ns["out"], joined)
    q2 = pd.DataFrame([[c, c] for c in COUNTRIES], columns=["country", "country"])
    with pytest.raises(QueryError, match="2 columns named 'country'"):
        demo_engine.search(q2, "country", k=1)    # a repeated key stays refused
