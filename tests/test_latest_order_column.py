""""Per key: latest" orders by the finest time column of the table, never by a constant one.

A flights-like table whose ``year`` is one value in every row, with an ISO timestamp
``time_hour`` and a ``month`` partition: "latest" orders by ``time_hour`` and each key's
row is its last flight (pandas idxmax by hand); the summary and the generated code name
the column. A table whose only time column is constant is refused, and so is a constant
column named with order_by.
"""
import numpy as np
import pandas as pd
import pytest

from conftest import lake_engine
from lakejoin_jupyter.errors import LakeJoinError


def _flights():
    rng = np.random.default_rng(16)
    rows = []
    for t in range(30):
        for _ in range(int(rng.integers(2, 6))):
            hours = int(rng.integers(0, 2100))
            when = pd.Timestamp("2013-01-01", tz="UTC") + pd.Timedelta(hours=hours)
            rows.append({"year": 2013, "tailnum": f"N{100 + t}MQ",
                         "dep_delay": int(rng.integers(-9, 90)),
                         "time_hour": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "month": when.month})
    return pd.DataFrame(rows).drop_duplicates(["tailnum", "time_hour"])


@pytest.fixture(scope="module")
def flights_engine(spark, tmp_path_factory):
    fl = _flights()
    tables = {f"flights/month={m}/part-0.parquet": g.drop(columns="month")
              for m, g in fl.groupby("month")}
    tables["fleet/inspections.csv"] = pd.DataFrame(
        {"plane": [f"P{i // 3}" for i in range(60)], "year": 2013, "grade": range(60)})
    return lake_engine(spark, tmp_path_factory, "latest_order", tables), fl


@pytest.mark.spark
def test_latest_orders_by_the_timestamp_not_the_constant_year(flights_engine):
    from lakejoin_jupyter.actions import run_join
    engine, fl = flights_engine
    df = pd.DataFrame({"tailnum": [f"N{100 + t}MQ" for t in range(0, 30, 2)]})
    hit = [h for h in engine.search(df, "tailnum", k=3) if h.table.startswith("flights")][0]
    agg = engine.aggregate_for(hit, "latest")
    assert agg.order_by == "time_hour" and "'year' hold(s) one value in every row" in agg.order_why
    got = hit.join(df, aggregate="latest")
    when = pd.to_datetime(fl["time_hour"])
    last = fl.loc[when.groupby(fl["tailnum"]).idxmax()].set_index("tailnum")
    assert got["time_hour"].tolist() == [last.loc[t, "time_hour"] for t in df["tailnum"]]
    assert got["dep_delay"].astype(int).tolist() == \
        [int(last.loc[t, "dep_delay"]) for t in df["tailnum"]]
    res = run_join(engine, hit, df, aggregate="latest")
    assert "the latest row by 'time_hour' (chosen:" in res.summary
    code = res.code()
    assert "the latest row by 'time_hour' (chosen:" in code and "['time_hour']" in code


@pytest.mark.spark
def test_latest_refuses_a_table_whose_only_time_column_is_constant(flights_engine):
    engine, _ = flights_engine
    df = pd.DataFrame({"plane": [f"P{i}" for i in range(20)]})
    hit = [h for h in engine.search(df, "plane", k=3) if h.table.startswith("fleet")][0]
    with pytest.raises(LakeJoinError, match="'year' hold.* one value in every row"):
        hit.join(df, aggregate="latest")
    flights = engine.search(pd.DataFrame({"tailnum": ["N100MQ", "N102MQ"]}), "tailnum", k=1)[0]
    with pytest.raises(LakeJoinError, match="year holds one value in every row"):
        flights.join(pd.DataFrame({"tailnum": ["N100MQ"]}), aggregate="latest", order_by="year")
