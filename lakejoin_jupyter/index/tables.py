"""Lake tables as the index knows them: where each lives and how to read it, in pandas or Spark.

The catalog records, per table, the options the build sniffed (format, encoding, delimiter,
header). :func:`lake_table` reads a table in pandas with the build's own reader (so values
are the text the index saw; a join reads a Parquet table with its column types);
:func:`spark_table` reads it with Spark's readers and the same options. Both take the columns
the index holds by name (a file that lost one: a ColumnsChangedError). Executing a join
(join/execute.py) and writing its code (join/codegen.py) both start from a :class:`LakeTable`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..errors import QueryError
from ..lake.read import LETTER_OR_DIGIT, ColumnsChangedError
from ..lake.normalize import NULL_SPELLINGS
from ..spark import partition_schema, spark_path  # noqa: F401 (used here and by join/codegen)


@dataclass(frozen=True)
class LakeTable:
    """Where a lake table lives and how to read it (from the index catalog)."""
    name: str                 # table name in the index
    format: str               # csv | tsv | parquet | jsonl | catalog
    uri: str                  # absolute path, or the catalog table name
    columns: tuple            # column names as the index knows them
    encoding: str = ""
    delimiter: str = ","
    index_path: str = ""      # the index the table belongs to (for engine-based reading)
    header_matches: bool = True   # pandas' own header parsing yields ``columns`` (any order)
    header: tuple = ()        # pandas' header of the file now (its order, when it differs)
    clean: bool = True        # no ragged rows / renamed columns: plain readers suffice
    info: str = ""            # the build's TableInfo (JSON), for the build's own reader
    fingerprint: tuple = ()   # (size, mtime_ns[, digest]) of its file(s) at build time
    skip_lines: int = 0       # lines above the header (comments, a title) the build skipped
    partitions: tuple = ()    # a Parquet folder's hive-style partition columns (key=value/)
    unique_name: bool = True  # no other table of the index has ``name`` (else ``ref`` is the file)
    lists: tuple = ()         # list columns (lake/read.py): indexed, and joined, by element
    decimal_commas: tuple = ()  # CSV columns of decimal-comma numbers, read "13,2" -> "13.2"
    marked_numbers: tuple = ()  # CSV columns of decimal-point numbers, "-" and "n/a" missing

    @property
    def number_columns(self) -> list:
        """The CSV columns read as numbers: decimal commas made points, and missing marks
        ("-", "n/a") missing in those and in ``marked_numbers`` (lake/read.py)."""
        return list(self.decimal_commas) + list(self.marked_numbers)

    @property
    def ref(self) -> str:
        """What :func:`find_table` (``Engine.table``) resolves to this table alone: its name,
        or its file when another table of the index has the same name."""
        return self.name if self.unique_name else self.uri

    @property
    def short_name(self) -> str:
        return self.name.rsplit("/", 1)[-1]


def find_table(index, table) -> LakeTable:
    """The catalog entry of a lake table as a :class:`LakeTable`: by table id (an int: what a
    hit holds, so it joins exactly the table it was found in), or by name, path or file.
    A name two tables share (an index whose ``--add`` predates the check for it) is refused
    with their files, which identify each."""
    from ..lake.read import TableInfo
    t = index.tables
    if isinstance(table, (int, np.integer)):
        hit = t[t["table_id"] == int(table)]
    else:
        hit = t[(t["name"] == table) | (t["path"] == table)]
        if hit.empty:
            hit = t[t["uri"] == table]
    if hit.empty:
        raise QueryError(f"No table {table!r} in the index {index.path}.")
    if len(hit) > 1:
        files = ", ".join(repr(str(u)) for u in hit["uri"])
        raise QueryError(f"{len(hit)} tables of the index {index.path} are named {table!r} "
                         f"(files {files}): name one by its file.")
    row = hit.iloc[0]
    unique = int((t["name"] == row["name"]).sum()) == 1
    if row["format"] == "catalog":
        cols = index.columns
        names = tuple(cols[cols["table_id"] == row["table_id"]].sort_values("position")["name"])
        return LakeTable(str(row["name"]), "catalog", str(row["path"]), names,
                         index_path=str(index.path), clean=True, unique_name=unique)
    info = TableInfo.from_json(row["info"])
    table = table_from_info(str(row["name"]), info, str(index.path),
                            _built_fingerprint(index, info.uri))
    return table if unique else replace(table, unique_name=False)


def _built_fingerprint(index, uri: str) -> tuple:
    """The (size, mtime_ns[, content digest]) the build recorded for a table file, or ()."""
    for g in getattr(index, "generations", ()):
        f = g.manifest.get("lake", {}).get("files", {}).get(uri)
        if f:
            return (int(f[0]), int(f[1])) + tuple(str(d) for d in f[2:3])
    return ()


def table_from_info(name: str, info, index_path: str = "", fingerprint: tuple = ()) -> LakeTable:
    """A :class:`LakeTable` from the build's sniffing result (lake/read.py TableInfo)."""
    clean = not info.warnings and info.n_fields_max <= len(info.columns)
    header = _pandas_header(info) if info.format in ("csv", "tsv") and clean else None
    return LakeTable(name, info.format, info.uri, tuple(info.columns),
                     encoding=info.encoding, delimiter=info.delimiter or ",",
                     index_path=index_path,
                     header_matches=header is not None and len(set(header)) == len(header)
                     and set(header) == set(info.columns),
                     header=tuple(header) if header and header != list(info.columns) else (),
                     clean=clean, info=info.to_json(), fingerprint=fingerprint,
                     skip_lines=info.skip_lines, partitions=tuple(info.partitions),
                     lists=tuple(info.lists or ()),
                     decimal_commas=tuple(info.decimal_commas),
                     marked_numbers=tuple(info.marked_numbers))


def changed_since_build(table: LakeTable) -> str | None:
    """A note when the table's file is not the one the index was built from (its size, or
    its time stamp and content, differ): a join then reads the file as it is now, while a
    hit's figures describe the indexed version. None when it is the same (a copy with a new
    time stamp included), or the index recorded nothing."""
    if not table.fingerprint or table.format == "catalog":
        return None
    from ..lake.discover import compare_fingerprint
    try:
        (size, _), same, _ = compare_fingerprint(table.uri, table.fingerprint)
    except OSError:
        return None                   # reading it fails with its own error
    if same:
        return None
    how = (f"{table.fingerprint[0]:,} -> {size:,} bytes" if size != table.fingerprint[0]
           else "same size, other content")
    return (f"{table.name} changed since the index was built ({how}): the join reads the "
            f"file as it is now, while the hit's figures (overlap, join rows) describe the "
            f"indexed version. Rebuild the index to bring them in line.")


def _pandas_header(info) -> list | None:
    """The column names pandas reads from the file's header line (None if it cannot)."""
    if info.uri.lower().endswith((".gz", ".bz2", ".xz", ".zst")):
        return None
    try:
        df = pd.read_csv(info.uri, sep=info.delimiter or ",", encoding=info.encoding or "utf-8",
                         nrows=0, dtype=str)
    except Exception:  # noqa: BLE001 - the plain reader cannot read it: use the build's
        return None
    return [str(c) for c in df.columns]


# ----------------------------------------------------------------------- join types

def join_types(table: LakeTable, profile: list) -> list:
    """The type each column of ``table`` has in a join (:func:`lake_table` with
    ``types=True``), in the profile's words: a CSV, TSV or JSON-lines column is text
    ("string"), whatever its values look like ("list" for a JSON-lines list column); a
    Parquet column has its file's type ("integer", "float", "decimal", "boolean", "date",
    "timestamp", "list"; text, structs and the rest "string", as the join gives them; a
    folder's partition keys "string"). ``profile``: the columns' profile types, kept for a
    catalog table (Spark's types) or a Parquet schema that cannot be read."""
    if table.format == "catalog":
        return list(profile)
    if table.format != "parquet":
        return ["list" if c in table.lists else "string" for c in table.columns]
    from pathlib import Path

    import pyarrow as pa
    import pyarrow.parquet as pq
    from ..lake.read import dataset_files, unique_header
    path = Path(table.uri)
    try:
        files = dataset_files(path) if path.is_dir() else [path]
        schema = pq.read_schema(files[0])
    except (OSError, ValueError, IndexError):
        return list(profile)
    fields = [f for f in schema if f.name != "__index_level_0__"]
    arrow = dict(zip(unique_header([f.name for f in fields])[0], (f.type for f in fields)))

    def word(t) -> str:
        t = t.value_type if pa.types.is_dictionary(t) else t
        for test, name in ((pa.types.is_integer, "integer"), (pa.types.is_floating, "float"),
                           (pa.types.is_decimal, "decimal"), (pa.types.is_boolean, "boolean"),
                           (pa.types.is_date, "date"), (pa.types.is_timestamp, "timestamp")):
            if test(t):
                return name
        return "string"
    return ["list" if c in table.lists else word(arrow[c]) if c in arrow else "string"
            for c in table.columns]


# ----------------------------------------------------------------------- pandas

def lake_table(table: LakeTable, max_rows: int | None = None,
               warn_changed: bool = True, types: bool = False) -> pd.DataFrame:
    """The table as pandas, every value as text (None for nulls), read by the build's reader;
    with ``types`` a Parquet table keeps its column types (``lake.read.typed_frame``;
    "arrow": the Arrow table itself) and a JSON-lines table's list columns hold lists of
    element texts; ``types="pandas"``: as pandas reads its file (``lake.read.read_as_pandas``).
    ``df.attrs["lakejoin_table"]`` names it (searches decide the own table on the rows).
    A LakeChangedWarning says when the file changed since the build (``warn_changed``)."""
    check_table_present(table)
    if warn_changed:
        _warn_if_changed(table)
    try:
        return _read_lake_table(table, max_rows, types)
    except ColumnsChangedError as e:
        raise _with_rebuild_command(e, table) from None


def _rebuild(table: LakeTable) -> str:
    """The command that rebuilds the index the table belongs to, as it was built."""
    if not table.index_path:
        return "`lakejoin index LAKE --out INDEX --overwrite`"
    from .store import rebuild_command
    return rebuild_command(table.index_path)


def _with_rebuild_command(e, table: LakeTable):
    """The error of a table whose file lost an indexed column, its hint the command that
    rebuilds this index (``lakejoin index --add`` refuses a table the index holds)."""
    from ..lake.read import REBUILD_HINT
    return ColumnsChangedError(
        e.path, e.reason.replace(" any more", f" any more (lake table {table.name})", 1),
        REBUILD_HINT.format(command=_rebuild(table)))


def check_table_present(table: LakeTable) -> None:
    """A table whose file (or Parquet folder) was deleted or moved since the build: an
    error that says so and gives the rebuild command (the build's "remove it from the
    lake" advice does not apply: it is gone from the lake already). Reading, joining and
    writing the code that reads it (join/codegen.py) all refuse it so."""
    from pathlib import Path
    if table.format == "catalog" or not table.uri or Path(table.uri).exists():
        return
    from ..errors import TableReadError
    raise TableReadError(
        table.uri, f"was deleted or moved after the index was built (lake table "
                   f"{table.name}), so it cannot be read or joined",
        f"rebuild the index to drop it from the results: {_rebuild(table)}")


def _read_lake_table(table: LakeTable, max_rows, types) -> pd.DataFrame:
    if table.format == "catalog":
        from ..spark import get_spark, to_pandas_utc
        sdf = get_spark().table(table.uri)
        df = to_pandas_utc(sdf.limit(max_rows) if max_rows else sdf)
    elif types == "pandas":
        from ..lake.read import TableInfo, read_as_pandas
        df = read_as_pandas(TableInfo.from_json(table.info))
        df = df.head(max_rows) if max_rows is not None else df
    elif types and table.format == "parquet":
        from ..lake.read import TableInfo, read_parquet_typed, typed_frame
        arrow = read_parquet_typed(TableInfo.from_json(table.info))
        arrow = arrow.slice(0, max_rows) if max_rows is not None else arrow
        if types == "arrow":
            return arrow
        df = typed_frame(arrow)
    else:
        from ..lake.read import TableInfo, read_table
        df = read_table(TableInfo.from_json(table.info), max_rows=max_rows,
                        lists=bool(types) and table.format == "jsonl")
    df.attrs["lakejoin_table"] = table.name
    return df


def _warn_if_changed(table: LakeTable) -> None:
    note = changed_since_build(table)
    if note:
        import warnings

        from ..errors import LakeChangedWarning
        warnings.warn(note, LakeChangedWarning, stacklevel=3)


# ----------------------------------------------------------------------- Spark

# Spark 4's CSV reader accepts only a few charsets, not windows-1252 (what the build records
# for most Latin-1 files): such a file is read as ISO-8859-1, which decodes every byte to the
# same character except 0x80-0x9F, and those are then mapped to Windows-1252's (CP1252_FIX).
_SPARK_ENCODINGS = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "cp1252": "ISO-8859-1",
                    "latin-1": "ISO-8859-1", "utf-16": "UTF-16", "utf-32": "UTF-32", "": "UTF-8"}
_CP1252_HIGH = [b for b in range(0x80, 0xA0) if bytes([b]).decode("cp1252", "replace") != "\ufffd"]
CP1252_FIX = ("".join(chr(b) for b in _CP1252_HIGH),
              "".join(bytes([b]).decode("cp1252") for b in _CP1252_HIGH))
# blanks around a cell, as Arrow's utf8_trim_whitespace and Python's str.strip() take them
# (Java's \s with UNICODE_CHARACTER_CLASS): a null spelling with blanks is one
SPARK_TRIM = r"(?U)^\s+|\s+$"


def spark_encoding(enc: str) -> str:
    """The name Spark's CSV reader takes for an encoding the build recorded."""
    return _SPARK_ENCODINGS.get(enc, enc)


def spark_charset_fix(enc: str) -> tuple[str, str] | None:
    """(from, to) characters ``F.translate`` maps after Spark read a file of encoding ``enc``
    as :func:`spark_encoding` says, or None."""
    return CP1252_FIX if enc == "cp1252" else None


def spark_quote(name: str) -> str:
    """A column name quoted for Spark's parser (dots, spaces and backticks are literal)."""
    return "`" + str(name).replace("`", "``") + "`"


def epoch_date_sql(column: str, unit: str) -> str:
    """The Spark SQL expression reading a JSON-lines column of epoch numbers as the
    timestamps the index reads (lake/read.py ``_json_epoch_dates``; ``unit`` the one it
    found). Spark keeps microseconds: nanoseconds lose their last three digits."""
    c = spark_quote(column)
    return {"s": f"timestamp_seconds({c})",
            "ms": f"timestamp_millis(CAST({c} AS BIGINT))",
            "us": f"timestamp_micros(CAST({c} AS BIGINT))",
            "ns": f"timestamp_micros(CAST({c} / 1000 AS BIGINT))"}[unit]


def spark_reads_parquet(table: LakeTable) -> bool:
    """Whether Spark's Parquet reader reads the table: it refuses a file whose column names
    repeat (case aside), where the build renamed the second "x" to "x.2"."""
    from ..lake.read import TableInfo
    renamed = table.info and any(w.startswith("duplicate column name")
                                 for w in TableInfo.from_json(table.info).warnings)
    return not renamed and len({str(c).lower() for c in table.columns}) == len(table.columns)


def spark_table(spark, table: LakeTable):
    """The table as a Spark DataFrame with the index's column names (a LakeChangedWarning
    when the file changed since the build)."""
    check_table_present(table)
    _warn_if_changed(table)
    from pyspark.sql import types as T
    if table.format == "catalog":
        return spark.table(table.uri)
    from ..lake.read import TableInfo, current_columns, indexed_order
    info = TableInfo.from_json(table.info) if table.info else None
    try:                            # the indexed columns, by name: a clear error when one is gone
        current = current_columns(info) if info is not None else list(table.columns)
        if info is not None:
            indexed_order(info, current)
    except ColumnsChangedError as e:
        raise _with_rebuild_command(e, table) from None
    if table.format in ("csv", "tsv"):
        from pyspark.sql import functions as F
        if table.skip_lines:     # Spark's CSV reader cannot skip lines above the header
            schema = T.StructType([T.StructField(c, T.StringType()) for c in table.columns])
            return spark.createDataFrame(lake_table(table, warn_changed=False), schema)
        # Spark applies a schema to the columns by position: the file's own, then by name
        schema = T.StructType([T.StructField(c, T.StringType()) for c in current])
        df = spark.read.csv(spark_path(table.uri), schema=schema, header=True,
                            sep=table.delimiter, encoding=spark_encoding(table.encoding),
                            multiLine=True, escape='"')
        if current != list(table.columns):
            df = df.select(*[df[spark_quote(c)] for c in table.columns])
        fix = spark_charset_fix(table.encoding)
        if fix:
            df = df.select([F.translate(df[spark_quote(c)], *fix).alias(c) for c in df.columns])
        if table.number_columns:        # "13,2" -> "13.2", "n/a" and "-" missing, as the
            nulls = sorted(NULL_SPELLINGS)                # build's reader reads them
            df = df.withColumns({c: F.when(F.lower(F.regexp_replace(
                df[spark_quote(c)], SPARK_TRIM, "")).isin(nulls)
                | ~df[spark_quote(c)].rlike(LETTER_OR_DIGIT), None).otherwise(
                F.translate(df[spark_quote(c)], ",", ".")) for c in table.number_columns})
        return df
    if table.format == "parquet":
        if not spark_reads_parquet(table):
            return spark.createDataFrame(lake_table(table, warn_changed=False, types="arrow"))
        from ..spark import read_parquet   # partition values as the folder names write
        df = read_parquet(spark, table.uri, table.partitions)   # them, nanoseconds read
        names = [c for c in df.columns if c != "__index_level_0__"]
        if names != list(table.columns):      # a rewrite reordered them: by name
            names = list(table.columns)
        return df.select(*[df[spark_quote(c)] for c in names]).toDF(*table.columns)
    if table.format == "jsonl":
        from pyspark.sql import functions as F
        df = spark.read.json(spark_path(table.uri))
        dates = info.epoch_dates if info is not None else {}
        return df.select(*[F.expr(epoch_date_sql(c, dates[c])).alias(c) if c in dates
                           else df[spark_quote(c)] for c in table.columns])
    raise QueryError(f"Cannot read lake table {table.name!r} (format {table.format!r}) in Spark.")
