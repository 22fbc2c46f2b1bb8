"""Transformation hits and the joins they make, checked against pandas: the join rows of a
query given as a lake table, one join type default for every way of joining a hit, one
spelling of a hit's program, a program's query-side multiplicity (distinct query values
per key it makes) and the width a learned padding takes from the lake column
(docs/algorithms/transform_search.md)."""
from __future__ import annotations

import datetime as dt
import random

import pandas as pd
import pytest

from conftest import write_lake


def joins_lake(seed: int = 3) -> dict:
    """Protocol numbers (0 on two rows) and their "proto-nnn" codes (proto-000 on two rows);
    upper-case country codes and "cc-xx" references with a rank 1..n; ISO days and the same
    days as dd/mm/yyyy on several rows each."""
    rng = random.Random(seed)
    numbers = [0] + list(range(0, 60)) + [103, 112, 132, 255]
    protocols = pd.DataFrame({"number": [str(n) for n in numbers],
                              "name": [f"p{i}" for i in range(len(numbers))]})
    coded = [0] + list(range(0, 60)) + [103, 112, 132, 255, 300, 301]
    prefixed = pd.DataFrame({"proto_id": [f"proto-{n:03d}" for n in coded],
                             "alias": [f"P{i}" for i in range(len(coded))]})
    letters = "ABCDEFGHIKLMNOPRSTUVZ"
    codes = sorted({rng.choice(letters) + rng.choice(letters) for _ in range(200)})[:120]
    iso = pd.DataFrame({"code": codes, "country": [f"Country {c}" for c in codes]})
    refs = pd.DataFrame({"country_ref": [f"cc-{c.lower()}" for c in codes],
                         "population_rank": list(range(1, len(codes) + 1))})
    start = dt.date(2020, 1, 1)
    days = [start + dt.timedelta(days=d) for d in sorted(rng.sample(range(900), 240))]
    per_day = pd.DataFrame({"day": [d.isoformat() for d in days],
                            "n": [rng.randint(1, 4) for _ in days]})
    dmy = pd.DataFrame({"uploaded": [d.strftime("%d/%m/%Y") for d, n in
                                     zip(days, per_day["n"]) for _ in range(n)]})
    dmy["package"] = [f"pkg{i % 37}" for i in range(len(dmy))]
    return {"net/protocols.csv": protocols, "net/protocols_prefixed.csv": prefixed,
            "geo/iso3166.csv": iso, "geo/country_refs.csv": refs,
            "dpkg/uploads_per_day.csv": per_day, "dpkg/uploads_dmy.csv": dmy}


@pytest.fixture(scope="module")
def joins_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    tables = joins_lake()
    root = write_lake(tmp_path_factory.mktemp("tjlake") / "lake", tables)
    out = tmp_path_factory.mktemp("tjidx") / "lake.index"
    engine = build_index(root, out, spark=spark, progress=False, components=["transform"])
    return engine, root, tables


def _proto_oracle(query: pd.DataFrame, column: str, prefixed: pd.DataFrame, how: str):
    keys = query.assign(_k="proto-" + query[column].astype(str).str.zfill(3))
    return keys.merge(prefixed, left_on="_k", right_on="proto_id", how=how)


@pytest.mark.spark
def test_join_rows_of_a_lake_table_query_count_its_repeated_keys(joins_engine, tmp_path):
    """A query given as a lake table counts each key's rows (its 0 is on two rows) as a
    DataFrame of the same table does: the left join's rows equal pandas'."""
    engine, root, tables = joins_engine
    protocols = tables["net/protocols.csv"]
    want = len(_proto_oracle(protocols, "number", tables["net/protocols_prefixed.csv"], "left"))
    assert want == len(protocols) + 2          # 0 twice on each side: 2 x 2 rows, not 2
    by_name = engine.search("net/protocols", "number", method="transform", k=3)
    frame = pd.read_csv(root / "net/protocols.csv", dtype=str, keep_default_na=False)
    by_frame = engine.search(frame, "number", method="transform", k=3)
    for res in (by_name, by_frame):
        hit = next(h for h in res if h.table == "net/protocols_prefixed")
        assert hit.join_rows == want, (res.query.source, hit.join_rows)
        assert len(hit.autojoin(frame).join(frame, how="left")) == want
