"""Auto-Join's ``duplicates=`` / ``aggregate=``: one row per left row when the right table
repeats the key, as a hit's equi-join does (join/plan.py's Aggregate), and its code."""
from __future__ import annotations

import pandas as pd
import pytest

from lakejoin_jupyter.errors import QueryError
from lakejoin_jupyter.join.autojoin import autojoin

FIRST = ["Suhela", "Maureen", "Missy", "Carolyn", "Kelly", "Barack", "George", "Ronald"]
LAST = ["Chowdhury", "Paluzzi", "Payne", "Craddock", "Moore", "Obama", "Bush", "Reagan",
        "Clinton", "Richards", "Burnett", "Nguyen", "Smith", "Garcia", "Kowalski", "Tanaka"]


def email(name):
    first, last = name.split()
    return f"{first[0].lower()}{last.lower()}@school.edu"


@pytest.fixture(scope="module")
def tables():
    names = [f"{FIRST[i % len(FIRST)]} {b}" for i, b in enumerate(LAST)]
    people = pd.DataFrame({"Name": names + ["Nobody Here"], "Title": ["T"] * (len(names) + 1)})
    # three rows per e-mail but the last (two), in shuffled order
    mail = pd.DataFrame({"email": [email(n) for n in names for _ in range(3)][:-1],
                         "size": [float(i) for i in range(3 * len(names) - 1)]})
    mail = mail.sample(frac=1.0, random_state=3).reset_index(drop=True)
    aj = autojoin(people, mail, ["Name"], ["email"], fuzzy=False)
    assert aj.found and aj.source == "left"
    return people, mail, aj


def _oracle(people, mail, how):
    """Hand-written pandas: a person's key is the e-mail built from the name."""
    left = people.assign(_k=[email(n) if n != "Nobody Here" else None for n in people["Name"]])
    s = mail.assign(_k=mail["email"])
    if how == "first":
        s = s.assign(rows=s.groupby("_k", sort=False)["_k"].transform("size")).drop_duplicates("_k")
    elif how == "dup":
        s = s.drop_duplicates("_k")
    else:
        s = s.groupby("_k", sort=False).agg(size=("size", "sum"), rows=("_k", "size")).reset_index()
    out = left.merge(s, on="_k", how="left").drop(columns="_k")
    if "rows" in out:       # the count column is named after the right table
        out["right_rows"] = out.pop("rows").fillna(0).astype("int64")
    return out


@pytest.mark.parametrize("opts, oracle", [({"aggregate": "first"}, "first"),
                                          ({"duplicates": "first"}, "dup"),
                                          ({"aggregate": "sum"}, "sum")])
def test_one_row_per_left_row_equals_pandas_and_its_code(tables, opts, oracle):
    people, mail, aj = tables
    assert len(aj.join(people, how="left")) == len(mail) + 1   # multiplied
    joined = aj.join(people, how="left", **opts)
    assert len(joined) == len(people)
    want = _oracle(people, mail, oracle)
    pd.testing.assert_frame_equal(joined.reset_index(drop=True), want[list(joined.columns)],
                                  check_dtype=False)
    ns = {"df": people, "other": mail}
    exec(aj.code("df", "out", how="left", **opts), ns)
    pd.testing.assert_frame_equal(ns["out"], joined)


def test_bad_aggregate_options_are_refused(tables):
    people, _, aj = tables
    with pytest.raises(QueryError, match="aggregate must be one of"):
        aj.join(people, aggregate="median")
    with pytest.raises(QueryError, match="no date column"):
        aj.join(people, aggregate="latest")
    with pytest.raises(QueryError, match="leave duplicates"):
        aj.join(people, aggregate="first", duplicates="first")


def test_find_transformation_offers_and_applies_per_key(tables):
    """The Find transformation action offers the Join action's *Per key* for a hit whose
    join multiplies rows, and its frame and code keep one row per query row."""
    from types import SimpleNamespace
    from lakejoin_jupyter import actions
    people, mail, _ = tables

    def answer(df, **kw):                      # a stand-in hit: Hit.autojoin's signature
        kw.pop("left_name")
        aj = autojoin(df, mail, ["Name"], ["email"], **kw)
        aj.how = "left"
        return aj
    hit = SimpleNamespace(query_columns=["Name"], table="mail", columns=["email"],
                          key_ratio=3.0, details={"program_json": "{}"}, autojoin=answer)
    action = actions.get("autojoin")
    offered = [p.name for p in action.params_for(hit)]
    assert {"aggregate", "duplicates", "order_by"} <= set(offered)
    plain = action(None, hit, people, fuzzy=False)
    assert len(plain.joined) > len(people) and "choose *Per key*" in plain.summary
    out = action(None, hit, people, fuzzy=False, aggregate="first")
    assert out.ok and len(out.joined) == len(people)
    pd.testing.assert_frame_equal(out.joined.reset_index(drop=True),
                                  _oracle(people, mail, "first")[list(out.joined.columns)],
                                  check_dtype=False)
    ns = {"df": people, "other": mail}
    exec(out.code("df", "per_key"), ns)
    pd.testing.assert_frame_equal(ns["per_key"], out.joined)


def test_multiply_advice_names_what_works_in_each_front_end():
    """A transformation hit's advice is Auto-Join's call and the Find transformation tab
    (its hit.join raises); an equality hit's is hit.join and the Join tab; the terminal's
    is lakejoin join's options."""
    from types import SimpleNamespace
    from lakejoin_jupyter.engine import SearchResult
    from lakejoin_jupyter.ui.widget import multiply_note
    for details, call, tab, m in (({"program_json": "{}"}, "hit.autojoin(df).join(df, "
                                   "aggregate='first')", "Find transformation", " -m transform"),
                                  ({}, "hit.join(df, aggregate='first')", "Join", "")):
        many = SimpleNamespace(rank=2, table="t", join_rows=54, join_rows_exact=True,
                               details=details)
        result = SimpleNamespace(multiplying=lambda: [many], query=SimpleNamespace(n_rows=25),
                                 hits=[many])
        assert f"(#2: {call}, or Per key in the widget's {tab})" in \
            SearchResult.multiply_note(result)
        assert f"(#2: lakejoin join ...{m} --hit 2 --aggregate first, or --duplicates first)" in \
            SearchResult.multiply_note(result, cli=True)
        assert f"); {tab} with Per key keeps one row each" in multiply_note(result)


def test_a_transformation_hits_equi_join_points_to_auto_joins_aggregate():
    from lakejoin_jupyter.engine import Hit
    hit = Hit(rank=1, table="t", table_id=0, columns=("c",), column_ids=(3,), score=1.0,
              overlap=1, containment=0.1, jaccard=0.1, method="transform", exact=True,
              query_columns=("q",), details={"program_json": "{}", "program": "p"})
    with pytest.raises(QueryError, match=r"aj = hit.autojoin\(df\).*aggregate= and "
                                         r"duplicates= keep one row per query row there"):
        hit.join(pd.DataFrame({"q": ["a"]}), aggregate="first")
