"""Spark job: sniff and read every table of the lake into one long DataFrame of cells.

Two passes, both ``mapInPandas`` over the list of files, so files are opened by executors,
not by the driver (on a cluster the lake must sit on storage every executor can read):

1. sniff (lake/read.py ``inspect``): encoding, delimiter, header, row count, problems;
   the small per-table results come back to the driver, which numbers the columns and
   reports the files it skips and why;
2. read: the readable tables become cells ``(column_id, row_id, value, token)`` where
   ``token`` is the normalized value (lake/normalize.py) and null cells are dropped.

Spark catalog tables are read with ``spark.table`` and melted with ``posexplode``; their
values are normalized by the same function in a pandas UDF.
"""
from __future__ import annotations

import math

import pandas as pd

from ..lake import read as lakeread
from ..lake.discover import LakeSpec
from ..lake.normalize import normalize_many

CELL_SCHEMA = "column_id int, row_id long, value string, token string"


def _inspect_batches(batches):
    for pdf in batches:
        out = [lakeread.inspect(int(r.table_id), r.uri, r.format).to_json()
               for r in pdf.itertuples(index=False)]
        yield pd.DataFrame({"table_id": pdf["table_id"].astype("int32"), "info": out})


def _cell_batches(batches):
    for pdf in batches:
        for r in pdf.itertuples(index=False):
            info = lakeread.TableInfo.from_json(r.info)
            for chunk in lakeread.cells(info, int(r.first_column_id)):
                yield chunk.astype({"column_id": "int32", "row_id": "int64"})


def _task_count(spark, n_files: int, files_per_task: int) -> int:
    parallel = spark.sparkContext.defaultParallelism
    return max(1, min(math.ceil(n_files / max(files_per_task, 1)), 8 * parallel))


def sniff_files(spark, lake: LakeSpec, files_per_task: int = 4) -> list[lakeread.TableInfo]:
    files = [t for t in lake.tables if t.format != "catalog"]
    if not files:
        return []
    src = spark.createDataFrame(
        pd.DataFrame({"table_id": [t.table_id for t in files], "uri": [t.uri for t in files],
                      "format": [t.format for t in files]}),
        "table_id int, uri string, format string")
    src = src.repartition(_task_count(spark, len(files), files_per_task), "table_id")
    rows = (src.mapInPandas(_inspect_batches, "table_id int, info string")
            .toPandas())
    infos = [lakeread.TableInfo.from_json(s) for s in rows["info"]]
    return sorted(infos, key=lambda i: i.table_id)


def sniff_catalog(spark, lake: LakeSpec) -> list[lakeread.TableInfo]:
    infos = []
    for t in lake.tables:
        if t.format != "catalog":
            continue
        info = lakeread.TableInfo(table_id=t.table_id, uri=t.uri, format="catalog",
                                  encoding="spark")
        try:
            df = spark.table(t.path)
            info.columns, info.warnings = lakeread._fix_header(df.columns)
            info.n_rows = df.count()
            info.ok = info.n_rows > 0 and bool(info.columns)
            if not info.ok:
                info.error = "has no rows" if info.columns else "has no columns"
        except Exception as e:  # noqa: BLE001
            info.error = f"cannot be read from the Spark catalog ({type(e).__name__}: {e})"
        infos.append(info)
    return infos


def read_cells(spark, lake: LakeSpec, infos: list[lakeread.TableInfo],
               first_column_ids: dict[int, int], files_per_task: int = 4):
    """Cells of all readable tables as one Spark DataFrame (``CELL_SCHEMA``)."""
    from pyspark.sql import functions as F

    ok_files = [i for i in infos if i.ok and i.format != "catalog"]
    frames = []
    if ok_files:
        src = spark.createDataFrame(
            pd.DataFrame({"table_id": [i.table_id for i in ok_files],
                          "info": [i.to_json() for i in ok_files],
                          "first_column_id": [first_column_ids[i.table_id] for i in ok_files]}),
            "table_id int, info string, first_column_id int")
        src = src.repartition(_task_count(spark, len(ok_files), files_per_task), "table_id")
        frames.append(src.mapInPandas(_cell_batches, CELL_SCHEMA))
    by_id = {t.table_id: t for t in lake.tables}
    for info in infos:
        if not info.ok or info.format != "catalog":
            continue
        df = spark.table(by_id[info.table_id].path)
        arr = F.array(*[F.col(f"`{c}`").cast("string") for c in df.columns])
        long = (df.select(F.monotonically_increasing_id().alias("row_id"), arr.alias("_v"))
                .select("row_id", F.posexplode("_v").alias("pos", "value"))
                .where(F.col("value").isNotNull()))
        long = long.select(
            (F.col("pos") + F.lit(first_column_ids[info.table_id])).cast("int").alias("column_id"),
            "row_id", "value", _normalize_udf()("value").alias("token"))
        frames.append(long)
    if not frames:
        return None
    out = frames[0]
    for f in frames[1:]:
        out = out.unionByName(f)
    return out


def _normalize_udf():
    from pyspark.sql.functions import pandas_udf

    @pandas_udf("string")
    def normalize_values(values: pd.Series) -> pd.Series:
        return pd.Series(normalize_many(values.tolist()), dtype=object)

    return normalize_values
