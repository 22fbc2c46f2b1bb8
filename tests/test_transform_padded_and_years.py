"""Transformation search on two reported cases, on a miniature lake checked by hand:
a ZIP column read as integers (1001) finds the slugs that hold it zero-padded
("01001-agawam_ma") as its text ("01001") does; and timestamps of one year do not join
the days of another through a program that writes the other year as a constant
(docs/algorithms/transform_search.md, "Decisions")."""
from __future__ import annotations

import random

import pandas as pd
import pytest

CITIES = ["agawam", "amherst", "florence", "hadley", "ware", "palmer", "monson", "belchertown",
          "granby", "ludlow", "wilbraham", "hampden", "westfield", "southwick", "holyoke"]


def zip_lake(seed: int = 3) -> tuple[dict, list, set]:
    rng = random.Random(seed)
    zips = sorted(rng.sample(range(1001, 2792), 160))
    slugged = set(zips[:120])
    days = pd.date_range("2024-01-01", "2024-12-31", freq="D")
    tables = {
        "zip_slugs.csv": pd.DataFrame({"slug": [f"{z:05d}-{rng.choice(CITIES)}_ma"
                                                for z in sorted(slugged)]}),
        "snow.csv": pd.DataFrame({"day": days.strftime("%Y-%m-%d"),
                                  "snow_cm": [rng.randint(0, 29) for _ in days]}),
        "words.csv": pd.DataFrame({"word": CITIES, "n": range(len(CITIES))}),
    }
    return tables, zips, slugged


@pytest.fixture(scope="module")
def nu20_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    from conftest import write_lake
    tables, zips, slugged = zip_lake()
    root = write_lake(tmp_path_factory.mktemp("nu20") / "lake", tables)
    out = tmp_path_factory.mktemp("nu20idx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False,
                       components=["transform"]), zips, slugged


@pytest.mark.spark
@pytest.mark.parametrize("as_text", [False, True])
def test_integer_zip_codes_find_their_zero_padded_slugs(nu20_engine, as_text):
    """1001 and '01001' are one key to the equality search; the transformation search
    finds zip_slugs.slug for both, joining exactly the ZIPs the table was built from."""
    engine, zips, slugged = nu20_engine
    frame = pd.DataFrame({"zip": [f"{z:05d}" if as_text else z for z in zips]})
    res = engine.search(frame, "zip", method="transform", k=3)
    found = {(h.table, h.column): h for h in res}
    assert ("zip_slugs", "slug") in found, [(h.table, h.column) for h in res]
    hit = found[("zip_slugs", "slug")]
    assert {int(t) for t in hit.details["matched_tokens"]} == slugged     # by construction
    assert hit.details["coverage"] == pytest.approx(len(slugged) / len(zips))


def visits(year: int) -> pd.DataFrame:
    rng = random.Random(11)
    days = pd.date_range(f"{year}-01-01", f"{year}-12-31", freq="D")
    picked = sorted(rng.sample(range(len(days)), 120))
    return pd.DataFrame({"visited": [f"{days[i]:%Y-%m-%d} {rng.randint(0, 23):02d}:"
                                     f"{rng.randint(0, 59):02d}" for i in picked]})


@pytest.mark.spark
def test_a_constant_year_does_not_join_another_years_days(nu20_engine):
    """Visits of 2023 hold no day of the lake (snow.day holds 2024 only), so no program may
    join them: one writing "2024" where the query holds 2023 is a chance program (main
    found `"2024" + word 1 of visited from letter 5` at 100%)."""
    engine, _, _ = nu20_engine
    res = engine.search(visits(2023), "visited", method="transform", k=3)
    assert ("snow", "day") not in {(h.table, h.column) for h in res}, \
        [(h.table, h.details["program"]) for h in res]
    assert res.stats["constant_field"] >= 1 and "constant digit field" in res.empty_message


def test_replaced_field_only_where_the_source_holds_another_field():
    """The rule by hand: "2024" + a month and day replaces 2023's year field; it is the
    source's own year in 2024's visits; "00" of a constant time does not replace March's
    "03", which the outputs keep."""
    from lakejoin_jupyter.join.autojoin.constant_fields import replaced_field
    from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program, Substring
    program = Program((Constant("2024"), Substring(Column("v"), 4, 10)))
    v23 = [f"2023-04-{d:02d} 10:00" for d in range(1, 21)]
    v24 = [v.replace("2023", "2024") for v in v23]
    assert replaced_field(program, v23, program.apply(pd.DataFrame({"v": v23}))) == \
        ("2023", "2024")
    assert replaced_field(program, v24, program.apply(pd.DataFrame({"v": v24}))) is None
    days = [f"2019-03-{d:02d}" for d in range(1, 21)]
    midnight = Program((Substring(Column("v")), Constant("T00:00:00")))
    assert replaced_field(midnight, days, [d + "T00:00:00" for d in days]) is None


def test_find_transformation_counts_both_keys_and_shows_no_empty_examples():
    """Timestamps onto days (many-to-one): the summary says how many of the query's keys
    join and onto how many lake keys, the count the many-to-one warning uses; a program no
    example row confirms gets no "Example rows" table (hand-checked: 24 timestamps, 2 on
    each of 12 days; the days table holds 20 days)."""
    from types import SimpleNamespace
    from lakejoin_jupyter.actions import run_transformation
    from lakejoin_jupyter.join.autojoin import autojoin
    stamps = [f"2024-03-{d:02d} {h:02d}:{m:02d}" for d in range(1, 13)
              for h, m in ((8, 5 * d), (17, 2 * d))]
    source = pd.DataFrame({"visited": stamps})
    target = pd.DataFrame({"day": [f"2024-03-{d:02d}" for d in range(1, 21)], "x": range(20)})

    def answer(df, **kw):                      # a stand-in hit: Hit.autojoin's signature
        kw.pop("left_name")
        aj = autojoin(df, target, ["visited"], ["day"], **kw)
        aj.examples = []                       # as when the search's own program is kept
        return aj
    hit = SimpleNamespace(query_columns=["visited"], table="days", columns=["day"], details={},
                          autojoin=answer)
    out = run_transformation(None, hit, source, fuzzy=False)
    assert out.ok, out.summary
    assert ("it joins **24** of the 24 distinct keys of `visited`, onto 12 keys of `day`"
            in out.summary), out.summary
    assert "12 of the 12 keys joined" in out.summary
    assert "Example rows that taught the program" not in out.tables
