"""newuser21's Auto-Join leftovers: a row folded onto another row's key by a dropped field
(deviation 82: Kolkata "+05:30" -> "UTC+5" beside "UTC+5:30"), a constant year held by a
minority of the query (deviation 79 without a majority), and a case change or trimming
around the whole output that the join's comparison folds (deviation 83, D6)."""
import pandas as pd
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.constant_fields import (field_keeper, folded_rows,
                                                            replaced_field, unfolded)
from lakejoin_jupyter.join.autojoin.dsl import (Column, Constant, Program, ProgramSet,
                                                SelectK, Split, Substring, Trim,
                                                plain_program)
from lakejoin_jupyter.join.autojoin.learn import Example, try_learn_transform
from test_autojoin_varying_field import assert_no_date_joins_another_year

# the user's frame (meetings.csv) and the lake's labels (offsets/utc_labels.csv)
OFFSETS = ["+01:00", "+01:00", "-05:00", "-08:00", "+09:00", "+11:00", "-03:00", "+02:00",
           "+05:30", "+13:00", "+00:00", "-03:00"]
LABELS = ["UTC+0", "UTC+1", "UTC+2", "UTC+3", "UTC+5", "UTC+5:30", "UTC+5:45", "UTC+8",
          "UTC+9", "UTC+9:30", "UTC+11", "UTC+13", "UTC-3", "UTC-3:30", "UTC-5", "UTC-8"]


def _utc(offset: str) -> str:
    sign, hours, minutes = offset[0], int(offset[1:3]), offset[4:6]
    return f"UTC{sign}{hours}" + ("" if minutes == "00" else f":{minutes}")


def _hours_program():
    """`"UTC" + sign + hours`, learned from three whole-hour offsets (the minutes dropped)."""
    examples = [Example((o,), _utc(o)) for o in ("+01:00", "-05:00", "+09:00")]
    program = try_learn_transform(examples, ["offset"])
    assert program is not None
    out = program.evaluate({"offset": ["+05:30"]}, 1)
    assert out == ["UTC+5"]                           # the fold the rule is about
    return program


def test_folded_rows_by_hand():
    """Kolkata's minutes "30" differ from most offsets' "00", its output "UTC+5" drops them,
    and the lake holds "UTC+5:30": row 8 alone is folded. Without "UTC+5:30" in the lake,
    no row is (nothing reads the field). A lake writing "UTC+9:00" reads the whole hour's
    minutes too: "+09:00" is folded onto "UTC+9" beside it."""
    program = _hours_program()
    out = program.evaluate({"offset": OFFSETS}, len(OFFSETS))
    assert folded_rows(OFFSETS, out, set(LABELS)) == {8}
    assert folded_rows(OFFSETS, out, set(LABELS) - {"UTC+5:30"}) == set()
    halves = ["+05:30", "+04:30", "+03:30", "+09:00"]
    assert folded_rows(halves, program.evaluate({"offset": halves}, 4),
                       {"UTC+5", "UTC+4", "UTC+3", "UTC+9", "UTC+9:00"}) == {3}
    # "UTC+1" beside "UTC+10": the key only extends the output's number, no field beside it
    assert folded_rows(["+01:10", "+02:00", "+03:00"], ["UTC+1", "UTC+2", "UTC+3"],
                       {"UTC+1", "UTC+10", "UTC+2", "UTC+3"}) == set()


def test_unfolded_guards_the_program():
    """The guard on the offset's last word keeps every whole-hour row and leaves Kolkata
    unjoined (checked row by row)."""
    program = _hours_program()
    out = program.evaluate({"offset": OFFSETS}, len(OFFSETS))
    guarded = unfolded(program, OFFSETS, out, set(LABELS))
    assert isinstance(guarded, ProgramSet)
    assert guarded.describe().startswith('first that applies of (1) if `offset` ends with the '
                                         'word "00": ')
    got = guarded.evaluate({"offset": OFFSETS}, len(OFFSETS))
    assert got == [None if o == "+05:30" else _utc(o) for o in OFFSETS]
    assert unfolded(program, OFFSETS, out, set(LABELS) - {"UTC+5:30"}) is program


CITIES = ["paris", "berlin", "new york", "los angeles", "tokyo", "sydney", "sao paulo",
          "windhoek", "kolkata", "auckland", "london", "santiago", "lima", "cairo"]


def test_autojoin_leaves_the_folded_row_unjoined_and_its_code_agrees():
    """Codes "<city>-<minutes>", most minutes "00", Kolkata's "30" (four others' "45" or
    "15", which the lake does not write); the lake names each city and also "kolkata 30": `part 1 (split at "-")` folds "kolkata-30" onto "kolkata" (main
    joins it there); now it is left unjoined under a guard, every other row joins its city
    (brute force), and the written code, run in a fresh namespace, gives the same join."""
    minutes = {"kolkata": "30", "lima": "45", "cairo": "45", "sydney": "45", "tokyo": "15"}
    codes = [f"{c}-{minutes.get(c, '00')}" for c in CITIES]
    q = pd.DataFrame({"code": codes, "office": [f"o{i}" for i in range(len(codes))]})
    lake = pd.DataFrame({"place": CITIES + ["kolkata 30", "oslo", "rome"],
                         "n": range(len(CITIES) + 3)})
    aj = autojoin(q, lake, "code", "place", fuzzy=False)
    assert aj.found, aj.message
    assert isinstance(aj.program, ProgramSet), aj.program.describe()
    j = aj.join(q)
    got = dict(zip(j["code"], j["place"]))
    assert got == {c: c.split("-")[0] for c in codes if c != "kolkata-30"}
    ns = {"df": q, "other": lake}
    exec(compile(aj.code("df", other="other"), "<autojoin code>", "exec"), ns)
    assert sorted(ns["joined"]["code"]) == sorted(c for c in codes if c != "kolkata-30")


def test_hit_program_on_the_users_offsets_is_guarded():
    """The search hit's own program, as Find transformation verifies it on the whole column
    (``choice.unfolded_program``): Kolkata's row is left unjoined, the others keep theirs."""
    from lakejoin_jupyter.join.autojoin.choice import unfolded_program
    program = _hours_program()
    guarded = unfolded_program(program, pd.Series(OFFSETS), pd.Series(LABELS))
    got = guarded.evaluate({"offset": OFFSETS}, len(OFFSETS))
    assert got == [None if o == "+05:30" else _utc(o) for o in OFFSETS]


@settings(max_examples=25, deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from("+-"), st.integers(0, 12),
                               st.sampled_from(["00", "00", "00", "30", "45"])),
                     min_size=4, max_size=14).filter(
                         lambda rs: len({m == "00" for _s, _h, m in rs}) == 2))
def test_no_guarded_output_joins_a_wrong_label(rows):
    """Random offsets (most minutes ":00", the minutes varying: the rule's premise) against
    every label of both signs, whole hours and the half and three-quarter hours: whatever
    the guard keeps joins the offset's own label (brute force: the label written from the
    offset), and every whole-hour row joins (the lake writes no ":00": none is folded)."""
    offsets = [f"{s}{h:02d}:{m}" for s, h, m in rows]
    labels = {f"UTC{s}{h}" + suffix for s in "+-" for h in range(13)
              for suffix in ("", ":30", ":45")}
    program = _hours_program()
    out = program.evaluate({"offset": offsets}, len(offsets))
    guarded = unfolded(program, offsets, out, labels)
    got = guarded.evaluate({"offset": offsets}, len(offsets))
    for o, g in zip(offsets, got):
        if g in labels:
            assert g == _utc(o), (o, g, guarded.describe())
        if o.endswith(":00"):               # the lake writes no ":00": nothing folded
            assert g == _utc(o), (o, g, guarded.describe())


# deviation 79 without a majority: 3 of 8 dates are of 2026, the lake writes dd/mm/2026
MIXED = ["2026-03-29", "2025-03-08", "2026-04-05", "2027-10-25", "2024-11-01", "2026-09-06",
         "2025-10-04", "2027-03-29"]


def test_minority_year_constant_is_refused():
    """`part 3 + "/" + part 2 + "/2026"` over dates only 3 of 8 of which are of 2026 writes
    the year the source varies (main: not refused, its share under half); the program
    reading the year is not refused; the search's learner has pairs to learn again from."""
    split = Split(Column("d"), "-")
    const = Program((SelectK(split, 2), Constant("/"), SelectK(split, 1), Constant("/2026")))
    read = Program((SelectK(split, 2), Constant("/"), SelectK(split, 1), Constant("/"),
                    SelectK(split, 0)))
    out = list(const.evaluate({"d": MIXED}, len(MIXED)))
    assert replaced_field(const, MIXED, out) == ("2025", "2026")
    assert replaced_field(read, MIXED, list(read.evaluate({"d": MIXED}, len(MIXED)))) is None
    keeps = field_keeper(const, MIXED)
    assert keeps is not None and keeps("2026-03-29", "29/03/2026") and \
        not keeps("2027-03-29", "29/03/2026")
    # one 2026 date only is no field of the source's (HELD_AT_LEAST)
    one = ["2026-03-29", "2025-03-08", "2024-04-05", "2027-10-25"]
    assert replaced_field(const, one, list(const.evaluate({"d": one}, 4))) is None


def test_century_constant_stays_with_days_of_20():
    """`"20" + yy + "-" + mm + "-" + dd` from mm/dd/yy dates two of which fall on the 20th:
    the constant "20" stands inside the year it writes ("2026"), not over the day field,
    so it is not refused (the false alarm a looser share would open)."""
    dates = ["03/20/26", "04/20/25", "05/11/24", "06/02/26", "07/13/23", "08/24/22",
             "09/05/21", "10/16/26"]
    split = Split(Column("d"), "/")
    cent = Program((Constant("20"), SelectK(split, 2), Constant("-"), SelectK(split, 0),
                    Constant("-"), SelectK(split, 1)))
    out = list(cent.evaluate({"d": dates}, len(dates)))
    assert out[0] == "2026-03-20"
    assert replaced_field(cent, dates, out) is None
    assert field_keeper(cent, dates) is None


@settings(max_examples=15, deadline=None)
@given(years=st.lists(st.sampled_from([2026, 2027, 2025, 2024]), min_size=8,
                     max_size=8).filter(lambda ys: 2 <= ys.count(2026) <= 3),
       days=st.lists(st.integers(1, 28), min_size=8, max_size=8, unique=True))
def test_minority_year_no_output_joins_another_year(years, days):
    """As test_autojoin_varying_field's property, with the lake's year held by 2 or 3 of
    the 8 dates only (a minority): whatever program is learned and not refused, no output
    joins a lake date of another year than its source's."""
    assert_no_date_joins_another_year(years, days)


def test_plain_program_by_hand():
    """The one-piece programs of D6 lose their outer case change and trimming; a program of
    several pieces, or one with nothing to drop, has no plain form."""
    tz = Column("tz")
    upper = Program((Substring(SelectK(Split(tz, "/"), 1), None, None, "upper"),))
    assert plain_program(upper).describe() == 'part 2 (split at "/") of `tz`'
    lower = Program((Substring(Trim(tz), None, None, "lower"),))
    assert plain_program(lower).describe() == "`tz`"
    first = Program((Substring(tz, 0, 3, "upper"),))
    assert plain_program(first).describe() == "first 3 letters of `tz`"
    assert plain_program(Program((Substring(tz),))) is None
    assert plain_program(Program((Substring(tz, None, None, "lower"), Constant("_x")))) is None


def test_autojoin_shows_the_plain_program_and_joins_the_same():
    """Zone ids against upper-cased city names (the user's cities_upper): the program is
    `part 2 (split at "/") of tz` (main: upper(...)), its join is every zone onto its own
    city (brute force), and the written code in a fresh namespace gives that join."""
    zones = ["Europe/Paris", "Europe/Berlin", "America/New_York", "Asia/Tokyo",
             "Asia/Kolkata", "Africa/Windhoek", "America/Santiago"]
    q = pd.DataFrame({"tz": zones})
    cities = pd.DataFrame({"city": [z.split("/")[1].upper() for z in zones] + ["LIMA"],
                           "pop": range(len(zones) + 1)})
    aj = autojoin(q, cities, fuzzy=False)
    assert aj.found and aj.program.describe() == 'part 2 (split at "/") of `tz`'
    j = aj.join(q)
    assert list(j["city"]) == [z.split("/")[1].upper() for z in zones]
    ns = {"df": q, "other": cities}
    exec(compile(aj.code("df", other="other"), "<autojoin code>", "exec"), ns)
    pd.testing.assert_frame_equal(ns["joined"].reset_index(drop=True),
                                  j.reset_index(drop=True))
