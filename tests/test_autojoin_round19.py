"""Auto-Join deviation 40: an N:1 group's paired values hold for every row holding them, so
a few distinct values repeated over (nearly) every source row give the 2-pair example set
of deviation 34 (hand-built: resource links "...#user" onto the resource types)."""
import pandas as pd

from lakejoin_jupyter.join.autojoin.learn import LearnSettings, example_sets
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair
from lakejoin_jupyter.join.autojoin.pipeline import Table, _group_rows, autojoin

KINDS = ["service", "user", "users", "group", "project", "issue", "label", "milestone",
         "comment", "branch", "release", "webhook"]
NAMES = [f"u{i:02d}" for i in range(1, 13)]


def _source() -> pd.DataFrame:
    # nine entries of type "user" and the two collection pages of type "users": 11 rows,
    # 2 distinct links
    link = "http://example.org/api/#"
    rows = [(n, f"http://example.org/api/~{n}", link + "user") for n in NAMES[:9]]
    rows.insert(4, ("page 1", None, link + "users"))
    rows.append(("page 2", None, link + "users"))
    return pd.DataFrame(rows, columns=["name", "self", "type link"])


def _target() -> pd.DataFrame:
    return pd.DataFrame({"type": KINDS})


def test_repeated_values_count_every_row_holding_them():
    # hand-checked: the pairs name rows 0 and 4 ("#user" and "#users"); rows 0-3, 5-9 hold
    # the first link and rows 4, 10 the second: 11 rows, where the pairs' own rows are 2
    src = Table(_source(), "left")
    group = PairGroup("type link", "type", [RowPair(4, 2, "users", 1.0),
                                            RowPair(0, 1, "user", 0.5)])
    assert _group_rows(group, src) == 11
    assert _group_rows(PairGroup("self + name", "type", group.pairs), src) == 2  # not a column


def test_two_pairs_over_nearly_every_row_give_an_example_set():
    group = PairGroup("type link", "type", [RowPair(4, 2, "users", 1.0),
                                            RowPair(0, 1, "user", 0.5)])
    ls = LearnSettings()
    assert example_sets([group], ls, {"type": 12}, 11) == [[]]       # the pairs' rows: 2 of 11
    assert example_sets([group], ls, {"type": 12}, 11, lambda g: 11) == [[group.pairs]]
    assert example_sets([group], ls, {"type": 12}, 11, lambda g: 9) == [[]]  # under 90 %


def test_links_onto_two_resource_types_are_joined():
    # main's learner drew no example set (2 distinct pairs through 2 of the 11 rows) and
    # found nothing; the program is the link's part after "#", every row joined
    src = _source()
    res = autojoin(src, _target(), fuzzy=False)
    assert res.found
    j = res.join()
    assert len(j) == len(src)
    assert set(zip(j["type link"], j["type"])) == {(v, v.split("#")[1]) for v in src["type link"]}


def test_two_keys_through_few_of_the_rows_stay_refused():
    # the same two links on 3 of 11 rows (the others link nothing): the values repeat, but
    # a program through a third of the rows is no N:1 join of the table
    src = _source().iloc[:8].copy()
    src.loc[src.index[[1, 2, 3, 5, 6]], "type link"] = None
    src = pd.concat([src, pd.DataFrame({"name": NAMES[9:], "self": None, "type link": None})],
                    ignore_index=True)
    assert not autojoin(src, _target(), fuzzy=False).found
