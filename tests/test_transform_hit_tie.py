"""Find transformation on a "Needs a transformation" hit keeps the hit's program when the
program Auto-Join learns from the hit's partner rows joins no more: inauguration dates all
fall on January 20th, so the rows teach a constant "01/20/" that joins the wrong day of
any other frame; the hit's program, verified on the whole column, reads month and day."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import write_lake

YEARS = list(range(1953, 2001, 4))
OTHER = [("11/22/1963", "Johnson"), ("08/09/1974", "Ford"), ("04/12/1945", "Truman")]


@pytest.fixture(scope="module")
def terms_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    terms = pd.DataFrame({"took_office": [f"01/20/{y}" for y in YEARS] + [d for d, _ in OTHER],
                          "president": [f"p{y}" for y in YEARS] + [n for _, n in OTHER]})
    root = write_lake(tmp_path_factory.mktemp("terms") / "lake", {"people/terms.csv": terms})
    out = tmp_path_factory.mktemp("termsidx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False, components=["transform"])


@pytest.mark.spark
def test_a_tie_goes_to_the_hits_program_not_a_constant_month_and_day(terms_engine):
    frame = pd.DataFrame({"inaug": pd.to_datetime([f"{y}-01-20" for y in YEARS[:8]])})
    res = terms_engine.search(frame, "inaug", method="transform", k=5)
    hit = next(h for h in res if h.column == "took_office")
    shown = hit.details["program"]
    assert '"01/20/"' not in shown, shown
    aj = hit.autojoin(frame)
    assert aj.program.describe() == shown, (aj.program.describe(), aj.message)
    # why the hit's program was kept: as many query rows, each to as many lake rows
    assert aj.message.startswith("The search's own program, verified on the whole column: it "
                                 "joins the same number of query rows (8) as the one "
                                 "Auto-Join learned from the rows it joins"), aj.message
    assert len(aj.join(frame).dropna(subset=["president"])) == 8
    other = pd.DataFrame({"inaug": pd.to_datetime(["1961-01-20", "1961-11-22", "1974-08-09"])})
    got = aj.join(other)["president"].tolist()
    assert got[0] == "p1961" and got[2] == "Ford" and pd.isna(got[1]), got


@pytest.mark.spark
def test_a_clashing_lake_column_is_named_after_its_table_as_the_equi_join_names_it(
        terms_engine):
    """Find transformation names a lake column whose name the query has `<column>_<table>`,
    as Join and the fuzzy join do, not `<column>_right`."""
    frame = pd.DataFrame({"inaug": pd.to_datetime([f"{y}-01-20" for y in YEARS[:8]]),
                          "president": [f"q{y}" for y in YEARS[:8]]})
    hit = next(h for h in terms_engine.search(frame, "inaug", method="transform", k=5)
               if h.column == "took_office")
    joined = hit.autojoin(frame).join(frame)
    assert "president_terms" in joined.columns and "president_right" not in joined.columns, \
        list(joined.columns)
    assert list(joined["president_terms"]) == [f"p{y}" for y in YEARS[:8]]
