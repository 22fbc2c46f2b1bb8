"""A datetime64 query column read as the text the product writes for it ("2013-01-20"), and
"joins n/m keys" that says when the keys fold values (docs/algorithms/autojoin.md,
deviation 64).

A datetime64 column was read with str() ("2013-01-20 00:00:00"), where the index and the
lake reader write "2013-01-20": against a year of "MM/DD/YYYY" text the learner found no
day program and learned the month on both sides, joining each day ~30 times, while its
repr said "joins 6/6 keys"."""
from __future__ import annotations

import pandas as pd

import lakejoin_jupyter as lj

DAYS = ["2013-01-20", "2013-02-20", "2013-03-22", "2013-04-20", "2013-05-09", "2013-06-20"]


def _year_of_us_dates() -> pd.DataFrame:
    days = pd.date_range("2013-01-01", "2013-12-30")
    return pd.DataFrame({"took": days.strftime("%m/%d/%Y"), "x": range(len(days))})


def test_cell_text_of_a_timestamp_is_the_lake_readers_text():
    from lakejoin_jupyter.join.autojoin.dsl import cell_text
    from lakejoin_jupyter.lake.normalize import render_value
    stamps = pd.Series(pd.to_datetime(["2013-01-20", "2013-01-20 13:05"], format="ISO8601"))
    assert [cell_text(v) for v in stamps.tolist()] == ["2013-01-20", "2013-01-20T13:05:00"]
    assert [cell_text(v) for v in stamps.to_numpy()] == [render_value(v) for v in stamps]


def test_datetime_query_joins_each_day_to_its_own_day():
    q = pd.DataFrame({"d": pd.to_datetime(DAYS), "v": range(6)})
    lake = _year_of_us_dates()
    aj = lj.autojoin(q, "d", lake, "took")
    assert aj.found
    got = aj.join(q)
    # oracle: the query's days written as the lake writes them
    want = q.assign(took=q.d.dt.strftime("%m/%d/%Y")).merge(lake, on="took")
    assert len(got) == len(want) == 6
    assert sorted(zip(got.d.dt.strftime("%Y-%m-%d"), got.took)) == \
        sorted(zip(want.d.dt.strftime("%Y-%m-%d"), want.took))
    # the same program as for the query's days written as ISO text
    text = lj.autojoin(q.assign(d=q.d.dt.strftime("%Y-%m-%d")), "d", lake, "took")
    assert text.program.describe() == aj.program.describe()


def test_repr_says_when_the_keys_fold_many_values():
    from lakejoin_jupyter.join.autojoin.dsl import Column, Program, SelectK, Split
    from lakejoin_jupyter.join.autojoin.result import AutoJoin
    q = pd.DataFrame({"d": DAYS})
    lake = _year_of_us_dates()
    month_of_took = Program((SelectK(Split(Column("took"), "/"), 0),))
    month_of_d = Program((SelectK(Split(Column("d"), "-"), 1),))
    aj = AutoJoin(found=True, message="", left=q, right=lake, source="right",
                  program=month_of_took, target_program=month_of_d, source_column="took",
                  target_column="d").with_right(lake)
    assert aj.coverage == 6 and aj.joined_rows == 181       # 31+28+31+30+31+30
    assert ("joins 6 of the 6 keys of left, 6 of the 12 of right (6 from several values of "
            "`took`, 181 rows: many-to-one)") in repr(aj)
    assert "181 rows: many-to-one" in aj._repr_html_()
    # a query side folding too (two days of one month): many-to-many, also in explain()
    q2 = pd.DataFrame({"d": DAYS + ["2013-01-25"]})
    aj2 = AutoJoin(found=True, message="", left=q2, right=lake, source="right",
                   program=month_of_took, target_program=month_of_d, source_column="took",
                   target_column="d").with_right(lake)
    assert aj2.target_folded_keys() == 1 and "many-to-many" in repr(aj2)
    assert "the join is many-to-many" in aj2.explain()


def test_no_pairs_message_is_true_when_values_share_a_common_substring():
    # every value shares "2013" with every key; none shares a rare substring
    q = pd.DataFrame({"code": [f"{a}{b}2013" for a, b in zip("abcdefgh", "qrstuvwx")]})
    lake = pd.DataFrame({"key": [f"{i:03d}-2013" for i in range(100)], "n": range(100)})
    assert all("2013" in c and "2013" in k for c in q.code for k in lake.key)
    aj = lj.autojoin(q, "code", lake, "key")
    assert not aj.found
    assert "shares a substring of 3+ characters with a key" not in aj.message
    assert "no value shares a rare substring with a key of other ('key')" in aj.message
    assert "at most 64 combinations" in aj.message


def test_datetime_query_is_read_as_its_iso_text_against_us_dates():
    # days of which 5 are in a year of "MM/DD/YYYY" text (3 rows each): the datetime64 query
    # and its ISO text are the same query to the learner
    days = pd.date_range("2013-01-01", "2013-12-30")
    lake = pd.DataFrame({"date": list(days.strftime("%m/%d/%Y")) * 3,
                         "origin": ["JFK"] * len(days) + ["LGA"] * len(days)
                         + ["EWR"] * len(days)})
    q = pd.DataFrame({"day": pd.to_datetime(["2013-01-05", "2013-02-14", "2013-03-01",
                                             "2013-07-04", "2013-12-25", "2014-01-01"])})
    text = q.assign(day=q.day.dt.strftime("%Y-%m-%d"))
    a, b = lj.autojoin(q, "day", lake, "date"), lj.autojoin(text, "day", lake, "date")
    assert a.found == b.found
    assert a.message == b.message if not a.found else \
        a.program.describe() == b.program.describe()
    assert "shares a substring of 3+ characters" not in a.message


def test_too_few_pairs_message_counts_the_distinct_pairs_and_the_rows_without_one():
    """newuser16 D2: the six days against a year of "MM/DD/YYYY" text (3 rows a day) share
    only the year as a substring of 3+ characters; a day pairs with its text only where its
    words and numbers name one date alone (day above 12, or day = month), 2 of the 6. The
    reason said "4 candidate row pair(s), too few distinct rows ... (needs 3 or more)", 4
    read as enough; it now counts the distinct pairs and the rows without a partner, the
    same for the datetime64 query and its ISO text."""
    days = pd.date_range("2013-01-01", "2013-12-30")
    lake = pd.DataFrame({"date": list(days.strftime("%m/%d/%Y")) * 3})
    q = pd.DataFrame({"day": pd.to_datetime(["2013-01-05", "2013-02-14", "2013-03-01",
                                             "2013-07-04", "2013-12-25", "2014-01-01"])})
    held = set(lake.date)
    one_date = [d for d in q.day if d.strftime("%m/%d/%Y") in held
                and (d.day > 12 or d.day == d.month)]        # by hand: 02-14, 12-25
    assert len(one_date) == 2
    for frame in (q, q.assign(day=q.day.dt.strftime("%Y-%m-%d"))):
        aj = lj.autojoin(frame, "day", lake, "date")
        assert not aj.found
        assert (f"{len(one_date)} of them distinct (one per row of each side): too few to "
                f"learn a program from (an example set needs 3 or more); "
                f"{len(q) - len(one_date)} of the {len(q)} rows of df learned from have no "
                f"candidate partner") in aj.message, aj.message
        assert "too few distinct rows" not in aj.message
