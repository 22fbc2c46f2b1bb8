"""``rank="useful"`` of "Needs a transformation" hits: a date query against an upload log
holding the same dates in another format (each date on many log rows: a fan-out) and two
X11 colour tables whose names "gray0".."gray100" / "grey0".."grey100" join the day number
cut out of each date (a coincidence, weighed as a number key). The fan-out of a join to
aggregate must not put it below a coincidental join (join/preview.py ``usefulness``,
docs/algorithms/hits.md)."""
from __future__ import annotations

import datetime as dt
import random

import pandas as pd
import pytest

from lakejoin_jupyter.join import preview

from conftest import write_lake

LOG_ROWS = 19          # upload-log rows per date


def upload_lake(seed: int = 3) -> tuple[dict, list]:
    """The lake's tables and the query's dates (ISO; 39 days, most day numbers two digits,
    so "gray" + the day joins most of them)."""
    rng = random.Random(seed)
    dates = [dt.date(2026, 3, 10) + dt.timedelta(days=d) for d in range(39)]
    log = [{"uploaded": d.strftime("%d/%m/%Y"), "package": f"pkg{rng.randrange(500)}",
            "size": rng.randrange(10 ** 6)} for d in dates for _ in range(LOG_ROWS)]
    rng.shuffle(log)
    grays = [f"gray{i}" for i in range(101)] + ["snow", "ghost white", "linen", "gainsboro"]
    greys = [f"grey{i}" for i in range(101)]
    tables = {
        "uploads.csv": pd.DataFrame(log),
        "x11/colors.csv": pd.DataFrame({"name": grays,
                                        "red": [rng.randrange(256) for _ in grays]}),
        "x11/greys.csv": pd.DataFrame({"name": greys,
                                       "level": [round(i / 100, 2) for i in range(101)]}),
    }
    return tables, [d.isoformat() for d in dates]


@pytest.fixture(scope="module")
def upload_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    tables, query = upload_lake()
    root = write_lake(tmp_path_factory.mktemp("ulake") / "lake", tables)
    out = tmp_path_factory.mktemp("uidx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False,
                       components=["transform"]), query


@pytest.mark.spark
@pytest.mark.parametrize("rank", ["overlap", "useful"])
def test_reformatted_dates_with_a_fan_out_outrank_gray_plus_a_day(upload_engine, rank):
    engine, query = upload_engine
    res = engine.search(pd.DataFrame({"day": query}), "day", method="transform", k=10,
                        rank=rank)
    ranked = [(h.table, h.column, h.details["program"], h.key_kind, h.key_ratio,
               h.row_coverage, h.usefulness) for h in res]
    first = res[0]
    assert (first.table, first.column) == ("uploads", "uploaded"), ranked
    assert first.row_coverage == 1.0 and first.key_ratio == pytest.approx(LOG_ROWS)
    grays = [h for h in res if h.table.startswith("x11/") and h.column == "name"]
    assert len(grays) == 2, ranked       # the coincidences are found, and weighed as numbers
    for h in grays:
        assert h.key_kind == "number" and "coincidental" in h.key_warning
        assert h.key_ratio == 1.0 and h.row_coverage > 0.5
        assert h.usefulness < first.usefulness


def test_a_fan_out_never_weighs_a_key_below_a_coincidental_kind():
    """The fan-out discount takes an identifier, text or date key toward the coincidental
    kinds' weight, never to it; within a kind it still orders by fan-out."""
    u = preview.usefulness
    for kind in ("identifier", "text", "date"):
        for fan in (2.0, 19.0, 1e6):
            assert u(1.0, fan, kind) > u(1.0, 1.0, "number") > u(1.0, 1.0, "year-like")
            assert u(1.0, fan, kind) < u(1.0, fan / 2, kind) <= u(1.0, 1.0, kind)
    assert u(1.0, 19.0, "number") < u(1.0, 1.0, "number")        # measures: as before
    assert u(1.0, 19.0, "number") == pytest.approx(0.3 / (1 + 4.247927513443585))
    assert u(0.5, 1.0, "identifier") == 0.5 and u(0.5, 4.0, "identifier") == pytest.approx(
        0.5 * (0.3 + 0.7 / 3))
