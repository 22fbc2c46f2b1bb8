"""Dates, timestamps, times and durations become the same token whichever way they are read:
Python values, pandas (with and without a zone), numpy, Arrow (the build's Parquet reader),
Spark queries (TIMESTAMP and TIMESTAMP_NTZ, any session zone) and Spark catalog tables."""
from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from lakejoin_jupyter.lake.normalize import normalize_text, normalize_value
from lakejoin_jupyter.lake.read import _arrow_text

UTC = dt.timezone.utc
# instants: whole hours, a fraction of a second, UTC midnight, both sides of Paris' DST change
INSTANTS = [dt.datetime(2026, 3, 29, 1, 0, tzinfo=UTC), dt.datetime(2026, 3, 29, 0, 59, 59, 500000, tzinfo=UTC),
            dt.datetime(2026, 3, 29, 0, 0, tzinfo=UTC), dt.datetime(2026, 10, 25, 0, 30, tzinfo=UTC),
            dt.datetime(2026, 10, 25, 1, 30, tzinfo=UTC), dt.datetime(1999, 12, 31, 23, 59, 59, 1, tzinfo=UTC),
            dt.datetime(2026, 3, 8, 7, 0, tzinfo=UTC)]
PARIS = "Europe/Paris"


def _tokens(values) -> set:
    return {normalize_value(v) for v in values} - {None}


def _arrow_tokens(arr) -> set:
    return {normalize_text(t) for t in _arrow_text(arr).to_pylist() if t is not None} - {None}


def test_one_instant_one_token_in_every_python_form():
    oracle = set(INSTANTS)                    # the instants, as Python compares them
    utc = pd.Series(pd.to_datetime(INSTANTS, utc=True))
    forms = {
        "datetime UTC": INSTANTS,
        "datetime Paris": [t.astimezone(pd.Timestamp(0, tz=PARIS).tzinfo) for t in INSTANTS],
        "datetime +05:30": [t.astimezone(dt.timezone(dt.timedelta(hours=5, minutes=30))) for t in INSTANTS],
        "datetime naive UTC": [t.replace(tzinfo=None) for t in INSTANTS],
        "pandas UTC": utc.tolist(),
        "pandas Paris": utc.dt.tz_convert(PARIS).tolist(),
        "pandas naive UTC": utc.dt.tz_localize(None).tolist(),
        "numpy datetime64[ns]": list(utc.dt.tz_localize(None).to_numpy()),
        "numpy datetime64[us]": list(utc.dt.tz_localize(None).to_numpy().astype("datetime64[us]")),
    }
    expected = _tokens(INSTANTS)
    assert len(expected) == len(oracle)
    for name, values in forms.items():
        assert _tokens(values) == expected, name
    for unit in ("us", "ns"):
        for tz in ("UTC", PARIS, None):
            arr = pa.array(utc.dt.tz_convert(tz or "UTC").dt.tz_localize(None) if tz is None
                           else utc.dt.tz_convert(tz), pa.timestamp(unit, tz=tz))
            assert _arrow_tokens(arr) == expected, (unit, tz)


def test_dates_and_midnights_agree():
    days = [dt.date(2026, 3, 29), dt.date(1999, 12, 31), dt.date(2026, 10, 25)]
    expected = {d.isoformat() for d in days}
    midnight_paris = [pd.Timestamp(d).tz_localize("UTC").tz_convert(PARIS) for d in days]
    for values in (days, [pd.Timestamp(d) for d in days], midnight_paris,
                   [np.datetime64(d, "D") for d in days],
                   [dt.datetime(d.year, d.month, d.day, tzinfo=UTC) for d in days]):
        assert _tokens(values) == expected
    for typ in (pa.date32(), pa.date64()):
        assert _arrow_tokens(pa.array(days, typ)) == expected
    assert _arrow_tokens(pa.array(midnight_paris, pa.timestamp("us", tz=PARIS))) == expected


def test_times_and_durations_agree():
    deltas = [dt.timedelta(hours=1), dt.timedelta(days=1, seconds=7, microseconds=5),
              -dt.timedelta(minutes=90)]
    expected = _tokens(deltas)
    assert len(expected) == 3
    assert _tokens([pd.Timedelta(d) for d in deltas]) == expected
    assert _tokens([np.timedelta64(pd.Timedelta(d).value, "ns") for d in deltas]) == expected
    assert _arrow_tokens(pa.array(deltas, pa.duration("us"))) == expected
    times = [dt.time(1, 2, 3), dt.time(23, 59, 59, 250000)]
    assert _arrow_tokens(pa.array(times, pa.time64("us"))) == _tokens(times) == {"01:02:03", "23:59:59.25"}


# ----------------------------------------------------------------------- Spark and the build

ZONE_ROWS = 20


def _zones() -> pd.DataFrame:
    inst = [INSTANTS[i % len(INSTANTS)] + dt.timedelta(days=i // len(INSTANTS)) for i in range(ZONE_ROWS)]
    utc = pd.Series(pd.to_datetime(inst, utc=True))
    offsets = [float(h) for h in range(-10, 10)]
    offsets[3], offsets[7] = -3.5, 5.75
    return pd.DataFrame({"zone": [f"zone {i}" for i in range(ZONE_ROWS)],
                         "utc_offset_h": offsets,
                         "t_utc": utc.astype("datetime64[us, UTC]"),   # Spark reads no ns
                         "t_paris": utc.dt.tz_convert(PARIS).astype(f"datetime64[us, {PARIS}]"),
                         "t_naive": utc.dt.tz_localize(None).astype("datetime64[us]"),
                         "day": [t.date() for t in inst]})


@pytest.fixture(scope="module")
def temporal_lake(spark, tmp_path_factory):
    """A lake holding the same instants as pandas wrote them (UTC, Paris, naive) and as
    Spark wrote them (TIMESTAMP as INT96, TIMESTAMP_NTZ) and as text (CSV, UTC clock readings
    as normalization renders them), plus a catalog view; built under a
    session zone that is not UTC."""
    import shutil

    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    from conftest import write_lake
    root = tmp_path_factory.mktemp("temporal")
    zones = _zones()
    from lakejoin_jupyter.lake.normalize import render_value
    text = pd.DataFrame({"zone": zones["zone"], "t_text": [render_value(t) for t in zones["t_utc"]]})
    lake = write_lake(root / "lake", {"geo/zones.parquet": zones, "geo/zones_text.csv": text})
    before = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", "America/Sao_Paulo")
    try:
        sdf = spark.read.parquet(str(lake / "geo/zones.parquet")).select("zone", "t_utc", "t_naive", "day")
        out = root / "spark_out"
        spark.conf.set("spark.sql.parquet.outputTimestampType", "INT96")   # Spark's default
        (sdf.withColumnsRenamed({"t_utc": "t_spark", "t_naive": "t_ntz"}).coalesce(1).write
         .mode("overwrite").parquet(str(out)))
        part = next(out.glob("part-*.parquet"))
        shutil.copy(part, lake / "geo" / "zones_spark.parquet")
        sdf.createOrReplaceTempView("lj_zones_view")
        build(lake, root / "temporal.index", spark=spark, progress=False)
        build(None, root / "catalog.index", spark=spark, progress=False,
              catalog_tables=["lj_zones_view"])
    finally:
        spark.conf.set("spark.sql.session.timeZone", before)
    return lake, open_index(root / "temporal.index"), open_index(root / "catalog.index")


def _containment(engine, query, column, table, target) -> float:
    for h in engine.search(query, column, k=30, rank="overlap"):
        if (h.table, h.column) == (table, target):
            return h.containment
    return 0.0


INSTANT_COLUMNS = [("geo/zones", "t_utc"), ("geo/zones", "t_paris"), ("geo/zones", "t_naive"),
                   ("geo/zones_spark", "t_spark"), ("geo/zones_spark", "t_ntz")]
CATALOG_COLUMNS = [("lj_zones_view", "t_utc"), ("lj_zones_view", "t_naive")]


@pytest.mark.spark
def test_identical_column_matches_itself_every_way(spark, temporal_lake):
    lake, engine, catalog = temporal_lake
    zones = pd.read_parquet(lake / "geo/zones.parquet")
    n_instants = len(set(zones["t_utc"]))         # oracle: the distinct instants
    before = spark.conf.get("spark.sql.session.timeZone")
    for zone in ("America/Sao_Paulo", "UTC"):
        spark.conf.set("spark.sql.session.timeZone", zone)
        try:
            sdf = spark.read.parquet(str(lake / "geo/zones.parquet"))
            sdf_spark = spark.read.parquet(str(lake / "geo/zones_spark.parquet"))
            for col in ("t_utc", "t_paris", "t_naive", "day"):
                assert _containment(engine, zones, col, "geo/zones", col) == 1.0, ("pandas", col)
                assert _containment(engine, sdf, col, "geo/zones", col) == 1.0, ("spark", zone, col)
            for col in ("t_spark", "t_ntz", "day"):
                assert _containment(engine, sdf_spark, col, "geo/zones_spark", col) == 1.0, (zone, col)
            for col in ("t_utc", "t_naive", "day"):
                assert _containment(catalog, spark.table("lj_zones_view"), col,
                                    "lj_zones_view", col) == 1.0, (zone, col)
            # every copy of the instants holds the same ones, whichever way it was written
            for table, col in INSTANT_COLUMNS + CATALOG_COLUMNS:
                e = catalog if (table, col) in CATALOG_COLUMNS else engine
                hit = [h for h in e.search(sdf, "t_paris", k=30, rank="overlap")
                       if (h.table, h.column) == (table, col)]
                assert hit and hit[0].overlap == n_instants and hit[0].containment == 1.0, (zone, table, col)
        finally:
            spark.conf.set("spark.sql.session.timeZone", before)
    # a Spark query collected to pandas (naive wall-clock times of a UTC session)
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    try:
        collected = spark.read.parquet(str(lake / "geo/zones.parquet")).toPandas()
        collected_spark = spark.read.parquet(str(lake / "geo/zones_spark.parquet")).toPandas()
    finally:
        spark.conf.set("spark.sql.session.timeZone", before)
    for table, col in INSTANT_COLUMNS + CATALOG_COLUMNS:
        e = catalog if (table, col) in CATALOG_COLUMNS else engine
        assert _containment(e, collected, "t_utc", table, col) == 1.0, (table, col)
        assert _containment(e, collected_spark, "t_spark", table, col) == 1.0, (table, col)
        assert _containment(e, zones, "t_paris", table, col) == 1.0, (table, col)


@pytest.mark.spark
def test_catalog_table_joins_on_instants(spark, temporal_lake):
    lake, _, catalog = temporal_lake
    zones = pd.read_parquet(lake / "geo/zones.parquet")
    before = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", "America/Sao_Paulo")
    try:
        hit = [h for h in catalog.search(zones[["t_paris"]], "t_paris", k=30, rank="overlap")
               if h.table == "lj_zones_view"][0]
        joined = hit.join(zones[["t_paris"]], how="inner")
    finally:
        spark.conf.set("spark.sql.session.timeZone", before)
    assert len(joined) == ZONE_ROWS


@pytest.mark.spark
def test_spark_join_on_instants_in_any_session_zone(spark, temporal_lake):
    """A Spark TIMESTAMP query key joins, in a session zone that is not UTC, the lake columns
    the search matched (TIMESTAMP, TIMESTAMP_NTZ, text): the Spark join and its PySpark code
    give the rows of the pandas join."""
    lake, engine, _ = temporal_lake
    query = pd.read_parquet(lake / "geo/zones.parquet")[["zone", "t_utc"]]
    targets = [("geo/zones_spark", "t_ntz"), ("geo/zones_spark", "t_spark"),
               ("geo/zones", "t_naive"), ("geo/zones_text", "t_text")]
    before = spark.conf.get("spark.sql.session.timeZone")
    spark.conf.set("spark.sql.session.timeZone", PARIS)
    try:
        sdf = spark.read.parquet(str(lake / "geo/zones.parquet")).select("zone", "t_utc")
        hits = {(h.table, h.column): h for h in engine.search(sdf, "t_utc", k=30, rank="overlap")}
        for target in targets:
            hit = hits[target]
            assert hit.containment == 1.0, target
            expected = sorted(hit.join(query, how="inner")["zone"])
            assert expected == sorted(query["zone"]), target     # every instant is there
            assert sorted(hit.join(sdf, how="inner").toPandas()["zone"]) == expected, target
            ns = {"df": sdf}
            exec(hit.code("df", "joined", how="inner", spark=True), ns)
            assert sorted(ns["joined"].toPandas()["zone"]) == expected, target
    finally:
        spark.conf.set("spark.sql.session.timeZone", before)


@pytest.mark.spark
def test_column_types_of_offsets_and_timestamps(temporal_lake):
    _, engine, catalog = temporal_lake
    names = engine.index.tables["name"].tolist()
    types = {(names[int(r.table_id)], r.name): r.type for r in engine.index.columns.itertuples()}
    assert types[("geo/zones", "utc_offset_h")] == "float"
    for table, col in INSTANT_COLUMNS:
        assert types[(table, col)] == "date", (table, col)
    names = catalog.index.tables["name"].tolist()
    for r in catalog.index.columns.itertuples():
        if r.name.startswith("t_"):
            assert r.type == "date", (names[int(r.table_id)], r.name)
