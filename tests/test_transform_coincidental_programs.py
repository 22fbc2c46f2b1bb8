"""The "Needs a transformation" search flags programs that join by coincidence
(join/autojoin/discovery.py ``built_from_constants``, ``numbers_by_density``;
docs/algorithms/transform_search.md, "Keys built from constants"). Found by use: ISO dates
of 2025 joined critical pressures through "2025-0" + the first digit of "18.06 bar" + "-" +
two more (55% of the query), and atomic numbers joined run ids through "RUN-" + Z padded
to 3 (100%), both listed without a warning beside the real reformatted dates."""
from __future__ import annotations

import datetime as dt
import random

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin.discovery import (BUILT_WARNING, built_from_constants,
                                                      kept_and_constant, numbers_by_density)
from lakejoin_jupyter.join.autojoin.dsl import (Column, Constant, Pad, Program, Replace,
                                                SelectK, Split, Substring)

from conftest import write_lake


def pressure_program(column: str = "Pc") -> Program:
    """The user's program: "2025-0" + first letter of Pc + "-" + first 2 letters of word 1
    of Pc without "18."."""
    word = SelectK(Split(Replace(Column(column), "18.", ""), " "), 0)
    return Program((Constant("2025-0"), Substring(Column(column), 0, 1), Constant("-"),
                    Substring(word, 0, 2)))


def test_a_date_written_from_constants_and_digits_of_a_pressure_is_built():
    pressures = ["18.06 bar", "18.30 bar", "18.12 bar", "18.21 bar", "18.09 bar"]
    program = pressure_program()
    assert program.evaluate({"Pc": pressures}, 5)[0] == "2025-01-06"
    kept, const, cut = kept_and_constant(program, pressures)
    assert kept == pytest.approx(3 / 9) and const == pytest.approx(0.7) and cut == 1.0
    assert built_from_constants(program, pressures)
    # the day of a date written into a pressure: 2 of 10 characters kept
    day = Program((SelectK(Split(Column("when"), "-"), 2), Constant(".00 bar")))
    dates = ["2025-01-06", "2025-01-10", "2025-02-18"]
    assert day.evaluate({"when": dates}, 3) == ["06.00 bar", "10.00 bar", "18.00 bar"]
    assert built_from_constants(day, dates)
    # a digit of a formula glued to a constant month: "2025-0" + "2" of "c12h26" + "-26"
    formula = Program((Constant("2025-0"), Substring(Column("species"), -2, -1), Constant("-"),
                       Substring(Column("species"), -2, None)))
    assert formula.evaluate({"species": ["c12h26"]}, 1) == ["2025-02-26"]
    assert built_from_constants(formula, ["c12h26", "c10h22", "c16h34"])


def test_real_transformations_are_not_built_from_constants():
    dates = ["2025-01-06", "2025-03-18", "2025-10-09"]
    # reordered dates, the year written as the constant all the query's dates share
    eu = Program((SelectK(Split(Column("when"), "-"), 2), Constant("/"),
                  SelectK(Split(Column("when"), "-"), 1), Constant("/2025")))
    assert eu.evaluate({"when": dates}, 3)[0] == "06/01/2025"
    assert not built_from_constants(eu, dates)
    z = Program((Constant("Z"), Pad(Column("Z"), 3)))
    assert not built_from_constants(z, ["1", "26", "102"])
    run = Program((Constant("RUN-"), Pad(Column("Z"), 3)))      # the whole number kept
    assert not built_from_constants(run, ["1", "26", "102"])
    assert not built_from_constants(Program((Constant("SP-"), Column("s"))), ["Na", "CH4"])
    assert not built_from_constants(
        Program((Constant('{"'), Column("s"), Constant('": 1}'))), ["H", "Na", "Cl"])
    # a symbol cut out of a label: little kept, no constant written
    symbol = Program((SelectK(Split(SelectK(Split(Column("label"), " ("), 1), ")"), 0),))
    labels = ["Hydrogen (H)", "Sodium (Na)", "Chlorine (Cl)"]
    assert symbol.evaluate({"label": labels}, 3) == ["H", "Na", "Cl"]
    assert not built_from_constants(symbol, labels)
    # an email of an initial and a last name with its domain
    email = Program((Substring(SelectK(Split(Column("name"), " "), 0), 0, 1, "lower"),
                     Substring(SelectK(Split(Column("name"), " "), -1), None, None, "lower"),
                     Constant("@uni.edu")))
    names = ["John Smith", "Maria Garcia", "Wei Zhang", "Anna Kowalski"]
    assert email.evaluate({"name": names}, 4)[0] == "jsmith@uni.edu"
    assert not built_from_constants(email, names)


def test_integers_meeting_a_sequence_get_the_equality_searchs_chance_warning():
    z = [1, 6, 7, 8, 11, 17, 26, 29, 47, 79, 92, 102]
    run = Program((Constant("RUN-"), Pad(Column("Z"), 3)))
    made = {f"run-{v:03d}": 1 for v in z}
    runs = {f"run-{v:03d}" for v in range(1, 121)}
    warning = numbers_by_density(made, runs, run, True, [str(v) for v in z])
    assert warning and "100% of the integers 1..102" in warning and "coincidental" in warning
    # codes of a sparse list (isotopes' mass numbers): the query's all there is evidence
    rng = random.Random(3)
    sparse = sorted(set(rng.sample(range(1, 900), 60)) | set(z))
    zp = Program((Constant("Z"), Pad(Column("Z"), 3)))
    assert numbers_by_density({f"z{v:03d}": 1 for v in z}, {f"z{v:03d}" for v in sparse},
                              zp, True, [str(v) for v in z]) is None
    # backward: the lake's ids read as numbers against the query's integers
    back = Program((SelectK(Split(Column("run"), "-"), 1),))
    made_back = {f"{v:03d}": 1 for v in range(1, 121)}
    assert numbers_by_density(made_back, {str(v) for v in z}, back, False,
                              [str(v) for v in z])


def chemistry_lake(seed: int) -> tuple[dict, list, list]:
    """Lab runs RUN-001 ... RUN-120 with dd/mm/yyyy dates of 2025, critical pressures as
    "NN.NN bar" (many near 18 bar, as long alkanes' are), and isotopes named "Z" + a
    zero-padded mass number of a sparse list. Returns the tables, 20 ISO dates of the runs
    and 12 mass numbers of the isotopes."""
    rng = random.Random(seed)
    days = sorted(rng.sample(range(365), 110))
    dates = [dt.date(2025, 1, 1) + dt.timedelta(days=d) for d in days]
    runs = pd.DataFrame({"run": [f"RUN-{i:03d}" for i in range(1, 121)],
                         "date": [rng.choice(dates).strftime("%d/%m/%Y") for _ in range(120)],
                         "yield_pct": [round(rng.uniform(5, 95), 1) for _ in range(120)]})
    pcs = [f"{rng.choice([18, 18, 18, 17, 19, 45, 73, 22]):d}.{rng.randrange(100):02d} bar"
           for _ in range(400)]
    crit = pd.DataFrame({"species": [f"c{rng.randrange(5, 40)}h{rng.randrange(10, 80)}x{i}"
                                     for i in range(400)], "Pc": pcs})
    masses = sorted(rng.sample(range(100, 999), 80))
    iso = pd.DataFrame({"code": [f"Z{m:03d}" for m in masses],
                        "abundance": [round(rng.random(), 4) for _ in masses]})
    used = sorted({d for d in pd.to_datetime(runs["date"], dayfirst=True).dt.date})
    query = [d.isoformat() for d in used[:20]]     # the first 20: "2025-0" shared by all
    return ({"lab/runs_eu.csv": runs, "critical/crit_units.csv": crit,
             "nuclides/isotopes.csv": iso}, sorted(query), rng.sample(masses, 12))


@pytest.fixture(scope="module")
def chem_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    tables, dates, masses = chemistry_lake(11)
    root = write_lake(tmp_path_factory.mktemp("clake") / "lake", tables)
    out = tmp_path_factory.mktemp("cidx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False,
                       components=["transform"]), dates, masses


@pytest.mark.spark
def test_reordered_dates_rank_first_and_no_other_hit_goes_unflagged(chem_engine):
    engine, dates, _ = chem_engine
    res = engine.search(pd.DataFrame({"when": dates}), "when", method="transform", k=10)
    ranked = [(h.table, h.column, round(h.score, 3), h.details["program"], h.key_warning)
              for h in res]
    assert (res[0].table, res[0].column) == ("lab/runs_eu", "date"), ranked
    assert res[0].key_warning is None and res[0].details["coverage"] == 1.0, ranked
    for h in res[1:]:
        assert h.key_warning, ranked            # flagged
        assert h.score < res[0].score / 5, ranked


@pytest.mark.spark
def test_small_integers_meeting_run_ids_are_flagged_and_sparse_codes_are_kept(chem_engine):
    engine, _, masses = chem_engine
    res = engine.search(pd.DataFrame({"Z": masses}), "Z", method="transform", k=10)
    ranked = [(h.table, h.column, round(h.score, 3), h.details["program"], h.key_warning)
              for h in res]
    first = res[0]
    assert (first.table, first.column) == ("nuclides/isotopes", "code"), ranked
    assert first.key_warning is None and first.details["coverage"] == 1.0, ranked
    for h in res:
        if h.table == "lab/runs_eu" and h.column == "run":
            assert h.key_warning and "coincidental" in h.key_warning, ranked
            assert h.score < first.score, ranked
    small = [1, 6, 7, 8, 11, 17, 26, 29, 47, 79, 92, 102]    # atomic numbers: every run id
    res = engine.search(pd.DataFrame({"Z": small}), "Z", method="transform", k=10)
    ranked = [(h.table, h.column, round(h.score, 3), h.details["program"], h.key_warning)
              for h in res]
    runs = [h for h in res if (h.table, h.column) == ("lab/runs_eu", "run")]
    assert runs, ranked
    assert all(h.key_warning and "coincidental" in h.key_warning for h in runs), ranked


def test_the_built_warning_names_the_coincidence():
    assert "constants" in BUILT_WARNING and "coincidental" in BUILT_WARNING
