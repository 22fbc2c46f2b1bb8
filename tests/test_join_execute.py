"""join/execute.py against a nested-loop oracle on random messy keys (no Spark)."""
import math
import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.errors import QueryError
from lakejoin_jupyter.index.tables import LakeTable as TableSource
from lakejoin_jupyter.join.execute import join_pandas, match_stats
from lakejoin_jupyter.join.keys import normalized_keys
from lakejoin_jupyter.join.plan import default_variable, make_plan, python_name
from lakejoin_jupyter.lake.normalize import normalize_value


def plan_join(src, left_columns, left_on, right_on, **kw):
    """A plan joining a frame with columns ``left_columns`` to the lake table ``src``."""
    return make_plan(list(left_columns), list(left_on), src.columns, list(right_on), other=src,
                     **kw)

# spellings that normalize to the same token, plus nulls and placeholder junk
VALUES = ["France", "FRANCE", "  france ", "Côte d'Ivoire", "CÔTE  D'IVOIRE", "7", "007", "7.0",
          "+7", "8", "x", None, "", "n/a", "-", float("nan"),
          7, 7.0, 1, True, "true", "1"]     # 1 == True in Python, yet tokens "1" != "true"


def oracle_join(left, right, left_on, right_on, how, duplicates):
    """Nested loops over rows: a left row meets every right row whose normalized keys are
    all equal and non-null (the first such row only with duplicates="first")."""
    def key(row, cols):
        k = tuple(normalize_value(row[c]) for c in cols)
        return None if None in k else k

    rkeys = [key(r, right_on) for _, r in right.iterrows()]
    if duplicates == "first":
        seen, keep = set(), []
        for i, k in enumerate(rkeys):
            if k is not None and k not in seen:
                seen.add(k)
                keep.append(i)
    else:
        keep = [i for i, k in enumerate(rkeys) if k is not None]
    rows = []
    for _, lrow in left.iterrows():
        lk = key(lrow, left_on)
        partners = [i for i in keep if lk is not None and rkeys[i] == lk]
        if partners:
            for i in partners:
                rows.append(tuple(lrow) + tuple(right.iloc[i]))
        elif how == "left":
            rows.append(tuple(lrow) + (None,) * right.shape[1])
    return rows


def canon(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    return v


frames = st.integers(1, 2).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.lists(st.sampled_from(VALUES), min_size=n, max_size=n), min_size=0, max_size=12),
    st.lists(st.lists(st.sampled_from(VALUES), min_size=n, max_size=n), min_size=0, max_size=12),
))


@settings(max_examples=120, deadline=None)
@given(frames, st.sampled_from(["left", "inner"]), st.sampled_from(["all", "first"]))
def test_join_pandas_equals_nested_loop_oracle(data, how, duplicates):
    n, lrows, rrows = data
    lcols = [f"k{i}" for i in range(n)]
    rcols = [f"r{i}" for i in range(n)]
    left = pd.DataFrame(lrows, columns=lcols, dtype=object)
    left["payload"] = range(len(left))
    right = pd.DataFrame(rrows, columns=rcols, dtype=object)
    right["info"] = [f"row{i}" for i in range(len(right))]
    src = TableSource("lake/t", "csv", "/nonexistent.csv", tuple(right.columns))
    plan = plan_join(src, left.columns, lcols, rcols, how=how, duplicates=duplicates)
    got = join_pandas(left, right, plan)
    assert list(got.columns) == list(left.columns) + list(right.columns)
    want = oracle_join(left, right, lcols, rcols, how, duplicates)
    got_rows = [tuple(canon(v) for v in r) for r in got.itertuples(index=False)]
    want_rows = [tuple(canon(v) for v in r) for r in want]
    # same rows, in the query's row order; a query row's lake partners may come in any
    # order (pandas keeps the lake's file order for left joins, not always for inner ones)
    def by_query_row(rows):
        groups = {}
        for r in rows:
            groups.setdefault(r[n], []).append(r)
        return [(p, sorted(g, key=repr)) for p, g in groups.items()]
    assert [r[n] for r in got_rows] == [r[n] for r in want_rows]
    assert by_query_row(got_rows) == by_query_row(want_rows)
    inner = oracle_join(left, right, lcols, rcols, "inner", duplicates)
    stats = match_stats(left, right, plan)
    assert stats["matched_rows"] == len({r[n] for r in inner})   # distinct payloads matched
    # the lake key repeats on the query's keys exactly when the join repeats query rows
    fanned = len(oracle_join(left, right, lcols, rcols, "inner", "all")) > stats["matched_rows"]
    assert stats["matched_key_unique"] == (not fanned)
    if duplicates == "first" and how == "left":
        assert len(got) == len(left)


def test_clashing_lake_columns_get_the_table_suffix():
    left = pd.DataFrame({"country": ["France", "Chad"], "name": ["a", "b"]})
    right = pd.DataFrame({"name": ["FRANCE", "chad"], "country": ["FR", "TD"],
                          "name_codes": ["x", "y"]})
    src = TableSource("ref/codes", "csv", "/x.csv", tuple(right.columns))
    plan = plan_join(src, left.columns, ["country"], ["name"])
    assert plan.renamed == {"name": "name_codes_2", "country": "country_codes"}
    out = join_pandas(left, right, plan)
    assert list(out.columns) == ["country", "name", "name_codes_2", "country_codes", "name_codes"]
    assert out["country_codes"].tolist() == ["FR", "TD"]


def test_temporary_key_names_never_collide():
    left = pd.DataFrame({"__lakejoin_key_0": ["a"], "k": ["A"]})
    right = pd.DataFrame({"__lakejoin_key_1": ["z"], "v": ["a"]})
    src = TableSource("t", "csv", "/x.csv", tuple(right.columns))
    plan = plan_join(src, left.columns, ["k"], ["v"])
    assert plan.keys == ("__lakejoin_key_2",)
    out = join_pandas(left, right, plan)
    assert out.to_dict("records") == [{"__lakejoin_key_0": "a", "k": "A",
                                       "__lakejoin_key_1": "z", "v": "a"}]


@pytest.mark.parametrize("kw, message", [
    (dict(left_on=["nope"], right_on=["v"]), "Query column(s) ['nope'] not found"),
    (dict(left_on=["k"], right_on=["nope"]), "has no column(s) ['nope']"),
    (dict(left_on=["k"], right_on=["v", "v"]), "do not line up"),
    (dict(left_on=["k"], right_on=["v"], how="cross"), "how must be one of"),
    (dict(left_on=["k"], right_on=["v"], duplicates="some"), "duplicates must be one of"),
])
def test_bad_join_requests_say_what_is_wrong(kw, message):
    src = TableSource("t", "csv", "/x.csv", ("v",))
    with pytest.raises(QueryError, match=re.escape(message)):
        plan_join(src, ["k"], **kw)


def test_duplicate_query_columns_are_refused():
    src = TableSource("t", "csv", "/x.csv", ("v",))
    with pytest.raises(QueryError, match="duplicate column names"):
        plan_join(src, ["k", "k"], ["k"], ["v"])


def test_variable_names_are_identifiers():
    assert python_name("country-codes") == "country_codes"
    assert python_name("2015 data") == "t_2015_data"
    assert python_name("class") == "class_"
    assert python_name("Côte") == "cote"
    assert python_name("%%%") == "t"
    assert default_variable("fifa", "reference/country-codes") == "fifa_country_codes"
    for text in ["a b", "def", "__", "ü", "1", "x\ny", "match"]:
        v = python_name(text)
        assert v.isidentifier() and not __import__("keyword").iskeyword(v)


def test_plan_is_frozen():
    plan = plan_join(TableSource("t", "csv", "/x", ("b",)), ["a"], ["a"], ["b"])
    with pytest.raises(Exception):
        plan.how = "inner"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(VALUES), max_size=30),
       st.sampled_from([None, "int64", "float64", "string", "category"]))
def test_normalized_keys_equal_value_by_value_normalization(values, dtype):
    s = pd.Series(values, dtype=object)
    if dtype == "int64":
        s = pd.Series([v for v in values if isinstance(v, int) and not isinstance(v, bool)],
                      dtype="int64")
    elif dtype == "float64":
        s = pd.Series([float(v) for v in values if isinstance(v, (int, float))], dtype="float64")
    elif dtype in ("string", "category"):
        s = pd.Series([v for v in values if isinstance(v, str) or v is None], dtype=dtype)
    s.index = range(100, 100 + len(s))
    got = normalized_keys(s)
    assert got.dtype == object and list(got.index) == list(s.index)
    assert got.tolist() == [normalize_value(v) for v in s.tolist()]
