"""Deviation 79: a program writing as a constant a field the source holds and varies (the
year of 2026's dates beside one 2027 date; the sign of UTC offsets) is learned again
reading it, and refused where no such program is found (newuser21 D1, D2)."""
import pandas as pd
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.join.autojoin import discovery
from lakejoin_jupyter.join.autojoin.constant_fields import (field_keeper, replaced_field,
                                                            varying_field)
from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program, Split, SelectK
from lakejoin_jupyter.join.autojoin.learn import Example, generalised, writes_source_field

# the user's shapes: seven 2026 DST dates and one of 2027; the lake writes dd/mm/2026
DATES = ["2026-03-29", "2026-03-08", "2026-04-05", "2026-10-25", "2026-11-01", "2026-09-06",
         "2026-10-04", "2027-03-29"]
LAKE_DATES = ["29/03/2026", "08/03/2026", "05/04/2026", "25/10/2026", "01/11/2026",
              "06/09/2026", "04/10/2026", "23/04/2026", "29/10/2026", "15/02/2026"]


def _dmy(iso: str) -> str:
    y, m, d = iso.split("-")
    return f"{d}/{m}/{y}"


def _utc(offset: str) -> str:
    sign, hours, minutes = offset[0], int(offset[1:3]), offset[4:6]
    return f"UTC{sign}{hours}" + ("" if minutes == "00" else f":{minutes}")


def test_varying_field_by_hand():
    """"2026" is the year the dates hold at their first field, and 2027 holds another
    there; "+" the sign "-05:00" differs in; a constant the source never varies ("00" of
    ":00" minutes all zero) is not a varying field; the day "20" of one date is not the
    source's field at a place most values hold it (a century "20" + yy stays)."""
    assert varying_field(DATES, "2026") == "2027"
    assert varying_field(DATES[:7], "2026") is None
    offsets = ["+01:00", "-05:00", "+09:00", "+02:00"]
    assert varying_field(offsets, "+") == "-"
    assert varying_field(offsets, "00") is None
    assert varying_field(["+01:00", "+02:00", "+03:00", "-05:00"], "-") == "+"   # the other sign
    assert varying_field(["20/04/19", "05/03/19", "11/11/18", "02/01/19"], "20") is None
    # anchored on the examples: every example's first field is 2026
    assert varying_field(DATES, "2026", anchors=DATES[:3]) == "2027"
    assert varying_field(DATES, "2026", anchors=["2026-03-29", "2027-03-29"]) is None


def test_replaced_field_refuses_a_constant_year_the_source_varies():
    """The user's program `part 3 + "/" + part 2 + "/2026"` (D1) is refused on its own
    dates; the reading program is not; on 2026's dates alone the constant is harmless."""
    split = Split(Column("d"), "-")
    const = Program((SelectK(split, 2), Constant("/"), SelectK(split, 1), Constant("/2026")))
    read = Program((SelectK(split, 2), Constant("/"), SelectK(split, 1), Constant("/"),
                    SelectK(split, 0)))
    out = list(const.evaluate({"d": DATES}, len(DATES)))
    assert out[-1] == "29/03/2026"                      # the wrong partner it would join
    assert replaced_field(const, DATES, out) == ("2027", "2026")
    assert replaced_field(read, DATES, list(read.evaluate({"d": DATES}, len(DATES)))) is None
    assert replaced_field(const, DATES[:7], out[:7]) is None


def test_generalised_reads_the_year_from_the_users_dates():
    """Examples of 2026 only, the 2027 date among the other source rows: the program
    learned again copies the year, and it beats the constant one although it joins one
    key fewer (hand-checked program)."""
    split = Split(Column("d"), "-")
    const = Program((SelectK(split, 2), Constant("/"), SelectK(split, 1), Constant("/2026")))
    examples = [Example((d,), _dmy(d)) for d in DATES[:4]]
    whole = [(d,) for d in DATES]
    assert writes_source_field(const, examples, whole)
    program = generalised(const, examples, ["d"], discovery.LEARN, {}, LAKE_DATES,
                          whole_rows=whole)
    assert program.describe() == ('part 3 (split at "-") of `d` + "/" + part 2 (split at "-")'
                                  ' of `d` + "/" + part 1 (split at "-") of `d`')
    assert list(program.evaluate({"d": DATES}, len(DATES))) == [_dmy(d) for d in DATES]


def test_learn_program_dates_d1():
    """The search's learner on the user's row pairs (each date with the lake's same day and
    month, the 2027 one too): the year is read, and 2027-03-29 joins nothing."""
    pairs = [(i, LAKE_DATES.index(_dmy(d).replace("2027", "2026")), 1.0 - 0.01 * i)
             for i, d in enumerate(DATES)]
    program, forward = discovery.learn_program(pairs, DATES, LAKE_DATES, ("d", "date"))
    assert forward
    out = list(program.evaluate({"d": DATES}, len(DATES)))
    assert out == [_dmy(d) for d in DATES]
    assert out[-1] not in LAKE_DATES


OFFSETS = ["+01:00", "+01:00", "-05:00", "-08:00", "+09:00", "+11:00", "-03:00", "+02:00",
           "+13:00", "+00:00"]
LABELS = ["UTC+0", "UTC+1", "UTC+2", "UTC+3", "UTC+5", "UTC+8", "UTC+9", "UTC+11", "UTC+13",
          "UTC-3", "UTC-5", "UTC-8", "UTC-9", "UTC-11"]


def test_learn_program_keeps_the_sign_d2():
    """Row pairs by the hours alone (the q-grams do not see the sign: "-05:00" pairs with
    "UTC+5" and "UTC-5" alike), the wrong ones best, as the index ranked them: the program
    writing "UTC+" is learned first; the rule learns again from the pairs whose label holds
    the offset's own sign, and the program keeps the sign (New York -05:00 -> UTC-5)."""
    pairs = []
    for i, o in enumerate(OFFSETS):
        hours = str(int(o[1:3]))
        for j, lab in enumerate(LABELS):
            if lab[4:] == hours:
                right = lab[3] == o[0]
                pairs.append((i, j, 0.5 if right else 0.9))
    program, forward = discovery.learn_program(pairs, OFFSETS, LABELS, ("offset", "label"))
    assert forward
    out = list(program.evaluate({"offset": OFFSETS}, len(OFFSETS)))
    assert out == [_utc(o) for o in OFFSETS], (program.describe(), out)
    assert out[2] == "UTC-5"


def test_constant_sign_program_is_refused():
    """`"UTC+" + hours` over signed offsets: the sign varies, so the program is a chance
    program (replaced_field names the field); the field keeper tells the pairs apart."""
    from lakejoin_jupyter.join.autojoin.learn import try_learn_transform
    examples = [Example((o,), "UTC+" + str(int(o[1:3]))) for o in ("+01:00", "-05:00", "+09:00")]
    program = try_learn_transform(examples, ["offset"])       # the wrong pairs: "UTC+" fits
    assert program is not None and "UTC+" in program.describe()
    out = list(program.evaluate({"offset": OFFSETS}, len(OFFSETS)))
    assert replaced_field(program, OFFSETS, out) == ("-", "+")
    keeps = field_keeper(program, OFFSETS)
    assert keeps("-05:00", "UTC-5") and not keeps("-05:00", "UTC+5")


def test_autojoin_d1_dates_join_no_2027_row():
    """Auto-Join itself (either direction) on the user's shapes: the 2027 date joins no row."""
    from lakejoin_jupyter.join.autojoin import autojoin
    q = pd.DataFrame({"d": DATES})
    lake = pd.DataFrame({"date": LAKE_DATES, "x": range(len(LAKE_DATES))})
    aj = autojoin(q, lake, "d", "date", fuzzy=False)
    assert aj.found
    j = aj.join(q, aggregate="first")
    row = j[j.d == "2027-03-29"]
    assert row["date"].isna().all(), row.T
    assert (j[j.d != "2027-03-29"]["date"] == [_dmy(d) for d in DATES[:7]]).all()


def assert_no_date_joins_another_year(years, days):
    """Dates of ``years`` and ``days`` against a lake holding every March day of 2026, the
    pairs by day alone, the wrong-year partner scored higher: whatever program is learned
    and not refused (the search drops a program ``replaced_field`` names a field of), no
    output joins a lake date of another year than its source's."""
    dates = [f"{y}-03-{d:02d}" for y, d in zip(years, days)]
    lake = [f"{d:02d}/03/2026" for d in range(1, 29)]
    pairs = [(i, lake.index(f"{d:02d}/03/2026"), 0.9 if y != 2026 else 0.5)
             for i, (y, d) in enumerate(zip(years, days))]
    got = discovery.learn_program(pairs, dates, lake, ("d", "date"))
    if got is not None and got[1]:
        out = list(got[0].evaluate({"d": dates}, len(dates)))
        if replaced_field(got[0], dates, out) is not None:
            out = []                                    # refused: joins nothing
        for src, o in zip(dates, out):
            if o in lake:
                assert o == _dmy(src), (got[0].describe(), src, o)


@settings(max_examples=15, deadline=None)
@given(years=st.lists(st.sampled_from([2026, 2026, 2026, 2027, 2025]), min_size=8,
                     max_size=8).filter(lambda ys: ys.count(2026) >= 4),
       days=st.lists(st.integers(1, 28), min_size=8, max_size=8, unique=True),
       signs=st.lists(st.sampled_from("+-"), min_size=8, max_size=8),
       hours=st.lists(st.integers(1, 12), min_size=8, max_size=8, unique=True))
def test_no_output_joins_a_row_whose_field_differs(years, days, signs, hours):
    """Random year and sign mixes against a lake holding every day of 2026 only (dates) and
    every label of both signs (offsets), pairs by the other fields alone, the wrong-field
    partner scored higher (the lake's year held by half the dates at least, the user's
    shape; any mix of signs): whatever program is learned and not refused (the search drops a
    program ``replaced_field`` names a field of), no output joins a lake value whose year or
    sign differs from the source's."""
    assert_no_date_joins_another_year(years, days)
    offsets = [f"{s}{h:02d}:00" for s, h in zip(signs, hours)]
    labels = [f"UTC{s}{h}" for s in "+-" for h in range(0, 13)]
    pairs = [(i, labels.index(f"UTC{t}{h}"), 0.9 if t != s else 0.5)
             for i, (s, h) in enumerate(zip(signs, hours)) for t in "+-"]
    got = discovery.learn_program(pairs, offsets, labels, ("offset", "label"))
    if got is not None and got[1]:
        out = list(got[0].evaluate({"offset": offsets}, len(offsets)))
        if replaced_field(got[0], offsets, out) is not None:
            out = []
        for src, o in zip(offsets, out):
            if o in labels:
                assert o == _utc(src), (got[0].describe(), src, o)
