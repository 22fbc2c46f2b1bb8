"""A lake table pandas wrote to Parquet with its default nanosecond timestamps
(``TIMESTAMP(NANOS)``), which Spark's Parquet reader refuses ("Illegal Parquet type"): Spark
reads it (index/tables.py ``spark_table``, the written PySpark code) through
``lakejoin_jupyter.spark.read_parquet``, with the timestamps pandas reads, to the
microsecond."""
from __future__ import annotations

import warnings

import pandas as pd
import pyarrow.parquet as pq
import pytest

from conftest import write_lake

AT = ["2025-01-02 03:04:05.123456789", "2025-02-03 00:00:00", "1969-12-31 23:59:59.999998500",
      None]


@pytest.fixture(scope="module")
def nanos_lake(spark, tmp_path_factory):
    """Runs with a naive and a zoned timestamp column, written by ``DataFrame.to_parquet``
    (nanoseconds), and their codes; a folder of two such files, partitioned by year."""
    from lakejoin_jupyter.indexing.pipeline import build
    runs = pd.DataFrame({"run": ["RUN-001", "RUN-002", "RUN-003", "RUN-004"],
                         "at": pd.to_datetime(AT, format="ISO8601")})
    runs["at_paris"] = runs["at"].dt.tz_localize("Europe/Paris")
    root = write_lake(tmp_path_factory.mktemp("nanos") / "lake", {"runs.parquet": runs})
    for year, part in runs.groupby(runs["at"].dt.year.fillna(0).astype(int)):
        (root / "by_year" / f"year={year}").mkdir(parents=True)
        part.drop(columns=[]).to_parquet(root / "by_year" / f"year={year}" / "part-0.parquet",
                                         index=False)
    out = tmp_path_factory.mktemp("nanosidx") / "n.index"
    build(root, out, spark=spark, progress=False)
    return str(out), root, runs


def expected(runs):
    """The runs as Spark holds them: each timestamp floored to the microsecond; the zoned
    column as its UTC instant."""
    return [(r, None if pd.isna(a) else a.floor("us").to_pydatetime(),
             None if pd.isna(z) else z.tz_convert("UTC").floor("us").tz_localize(None)
             .to_pydatetime())
            for r, a, z in zip(runs["run"], runs["at"], runs["at_paris"])]


def test_the_lake_file_holds_nanoseconds(nanos_lake):
    """(the premise: pandas' default writes TIMESTAMP(NANOS), and only the two timestamp
    columns are found as such)"""
    from lakejoin_jupyter.spark import parquet_nanosecond_columns
    _, root, _ = nanos_lake
    logical = pq.read_metadata(root / "runs.parquet").schema.column(1).logical_type.to_json()
    assert '"timeUnit":"nanoseconds"' in logical
    assert parquet_nanosecond_columns(str(root / "runs.parquet")) == {"at": False,
                                                                      "at_paris": True}
    assert parquet_nanosecond_columns(str(root / "by_year")) == {"at": False, "at_paris": True}


@pytest.mark.spark
@pytest.mark.parametrize("table", ["runs", "by_year"])
def test_spark_reads_a_pandas_parquet_table_with_nanosecond_timestamps(nanos_lake, spark,
                                                                       table):
    """spark_table and the PySpark join code read the table (main: PARQUET_TYPE_ILLEGAL):
    the naive column as TIMESTAMP_NTZ, the zoned one as TIMESTAMP, each to the microsecond
    below pandas' value (1969's -1.5 µs is -2 µs, not -1); the join on the run codes
    carries them; the partition column stays text."""
    from pyspark.sql import types as T
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.index.tables import find_table, spark_table
    from lakejoin_jupyter.spark import to_pandas_utc
    index, _, runs = nanos_lake
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = open_index(index)
        sdf = spark_table(spark, find_table(e.index, table))
        types = {f.name: f.dataType for f in sdf.schema.fields}
        assert isinstance(types["at"], T.TimestampNTZType)
        assert isinstance(types["at_paris"], T.TimestampType)
        if table == "by_year":
            assert isinstance(types["year"], T.StringType)
        got = to_pandas_utc(sdf).sort_values("run")
        rows = [(r, None if pd.isna(a) else a.to_pydatetime(),
                 None if pd.isna(z) else z.tz_localize(None).to_pydatetime())
                for r, a, z in zip(got["run"], got["at"], got["at_paris"])]
        assert rows == expected(runs)
        q = pd.DataFrame({"code": ["RUN-002", "RUN-003", "RUN-009"]})
        hit = next(h for h in e.search(q, "code", k=5) if h.table == table)
        ns = {"df": spark.createDataFrame(q)}
        exec(hit.code("df", into="joined", spark=True), ns)
        joined = ns["joined"].toPandas().sort_values("code").reset_index(drop=True)
        want = dict((r, a) for r, a, _ in expected(runs))
        assert [None if pd.isna(a) else a.to_pydatetime() for a in joined["at"]] == [
            want["RUN-002"], want["RUN-003"], None]
        assert spark.conf.get("spark.sql.legacy.parquet.nanosAsLong", "false") == "false"
