"""Write the pandas or PySpark code that reproduces a join (join/execute.py's steps).

Lake content is data, never code: every table name, column name, path and option goes
into the generated code through ``repr()`` (a valid Python string literal whatever it holds:
quotes, backslashes, newlines, ``#``, unicode), including in comments, where a raw newline
in a column name would otherwise end the comment and start a statement. Variable names are
made with :func:`execute.python_name` (identifiers, never keywords).

The pandas code reads a clean CSV/TSV table with ``pd.read_csv`` (options from the build's
sniffing: delimiter, encoding, and the header names when pandas would read them
differently); any other table (Parquet, JSON lines, ragged or renamed CSV, catalog) through
``lakejoin_jupyter.open_index(...).table(...)``, the reader the build used, so the values
are the same text the index saw. The PySpark code uses Spark's readers with the same
options and a pandas UDF for the normalized key.
"""
from __future__ import annotations

from .execute import (JoinPlan, TableSource, python_name, spark_charset_fix, spark_encoding,
                      spark_path, spark_quote)

NORMALIZE_IMPORT = "from lakejoin_jupyter.lake.normalize import normalize_many"


def _lake_variable(plan: JoinPlan) -> str:
    name = "lake_" + python_name(plan.source.short_name)
    taken = {plan.query_name, plan.variable}
    base, n = name, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


def _describe(plan: JoinPlan, engine: str) -> list[str]:
    on = ", ".join(f"{a!r} = {b!r}" for a, b in zip(plan.left_on, plan.right_on))
    dup = ("every matching lake row" if plan.duplicates == "all"
           else "the first lake row per key")
    return [f"# {plan.how} join of {plan.query_name} with lake table {plan.source.name!r} "
            f"on {on} ({engine}; {dup})",
            "# keys are compared after lakejoin's normalization (case, spacing, number "
            "formats); nulls never match"]


# ----------------------------------------------------------------------- pandas

def pandas_read_lines(source: TableSource, var: str) -> list[str]:
    """Lines that bind ``var`` to the lake table as string-valued pandas (None for nulls)."""
    if source.format in ("csv", "tsv") and source.clean:
        opts = [repr(source.uri), f"sep={source.delimiter!r}",
                f"encoding={(source.encoding or 'utf-8')!r}", "dtype=str",
                "keep_default_na=False", "na_values=['']"]
        if not source.header_matches:
            opts += ["header=0", f"names={list(source.columns)!r}"]
        return [f"{var} = pd.read_csv({', '.join(opts)})",
                f"{var} = {var}.astype(object).where({var}.notna(), None)"]
    return ["import lakejoin_jupyter",
            f"{var} = lakejoin_jupyter.open_index({source.index_path!r}, verify=False, "
            f"check_lake=False).table({source.name!r})"]


def _assign_keys(frame: str, keys, columns) -> str:
    parts = ", ".join(f"{k!r}: lakejoin_key({frame}[{c!r}])"
                      for k, c in zip(keys, columns))
    return f".assign(**{{{parts}}})"


def pandas_code(plan: JoinPlan) -> str:
    """pandas code binding ``plan.variable`` to the joined frame (query: ``plan.query_name``)."""
    lake = _lake_variable(plan)
    keys = list(plan.keys)
    lines = _describe(plan, "pandas")
    lines += ["import pandas as pd",
              "from lakejoin_jupyter.join.execute import normalized_keys as lakejoin_key", ""]
    lines += pandas_read_lines(plan.source, lake)
    right = [f"        {lake}", f"        {_assign_keys(lake, keys, plan.right_on)}",
             f"        .dropna(subset={keys!r})"]
    if plan.duplicates == "first":
        right.append(f"        .drop_duplicates(subset={keys!r})")
    if plan.renamed:
        right.append(f"        .rename(columns={plan.renamed!r})")
    right[-1] += ","
    lines += [f"{plan.variable} = (",
              f"    {plan.query_name}",
              f"    {_assign_keys(plan.query_name, keys, plan.left_on)}",
              "    .merge(",
              *right,
              f"        on={keys!r}, how={plan.how!r})",
              f"    .drop(columns={keys!r})",
              ")",
              plan.variable]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------- PySpark

def spark_read_lines(source: TableSource, var: str) -> list[str]:
    """Lines that bind ``var`` to the lake table as a Spark DataFrame."""
    if source.format == "catalog":
        return [f"{var} = spark.table({source.uri!r})"]
    uri = spark_path(source.uri)
    if source.format in ("csv", "tsv"):
        fields = ", ".join(f"T.StructField({c!r}, T.StringType())" for c in source.columns)
        lines = [f"{var} = spark.read.csv(",
                 f"    {uri!r},",
                 f"    schema=T.StructType([{fields}]),",
                 f"    header=True, sep={source.delimiter!r}, "
                 f"encoding={spark_encoding(source.encoding)!r}, multiLine=True, escape='\"')"]
        fix = spark_charset_fix(source.encoding)
        if fix:
            lines += [f"# the file is {source.encoding}: Spark reads it as "
                      f"{spark_encoding(source.encoding)}, then bytes 0x80-0x9F get their "
                      f"{source.encoding} characters",
                      f"{var} = {var}.select([F.translate({var}['`' + c.replace('`', '``') + '`'], "
                      f"{fix[0]!r}, {fix[1]!r}).alias(c) for c in {var}.columns])"]
        return lines
    if source.format == "parquet":
        return [f"{var} = spark.read.parquet({uri!r})",
                f"{var} = {var}.select([c for c in {var}.columns if c != '__index_level_0__'])"
                f".toDF(*{list(source.columns)!r})"]
    if source.format == "jsonl":
        cols = ", ".join(repr(spark_quote(c)) for c in source.columns)
        return [f"{var} = spark.read.json({uri!r})",
                f"{var} = {var}.select({cols})"]
    raise ValueError(f"no Spark reader for format {source.format!r}")


def _spark_keys(frame: str, keys, columns) -> str:
    parts = ", ".join(f"{k!r}: lakejoin_key({frame}[{spark_quote(c)!r}])"
                      for k, c in zip(keys, columns))
    return f".withColumns({{{parts}}})"


def spark_code(plan: JoinPlan) -> str:
    """PySpark code binding ``plan.variable`` to the joined (lazy) Spark DataFrame."""
    lake = _lake_variable(plan)
    keys = list(plan.keys)
    lines = _describe(plan, "PySpark")
    lines += ["import pandas as pd",
              "from pyspark.sql import Window, functions as F, types as T",
              "from lakejoin_jupyter.spark import get_spark",
              NORMALIZE_IMPORT,
              "",
              "spark = get_spark()",
              "",
              "@F.pandas_udf('string')",
              "def lakejoin_key(values: pd.Series) -> pd.Series:",
              "    return pd.Series(normalize_many(values.tolist()), index=values.index, "
              "dtype=object)",
              ""]
    lines += spark_read_lines(plan.source, lake)
    right = [f"        {lake}", f"        {_spark_keys(lake, keys, plan.right_on)}",
             f"        .dropna(subset={keys!r})"]
    if plan.duplicates == "first":
        right += ["        .withColumn('__lakejoin_row', F.monotonically_increasing_id())",
                  "        .withColumn('__lakejoin_rank', F.row_number().over("
                  f"Window.partitionBy(*{keys!r}).orderBy('__lakejoin_row')))",
                  "        .where(F.col('__lakejoin_rank') == 1)",
                  "        .drop('__lakejoin_row', '__lakejoin_rank')"]
    if plan.renamed:
        right.append(f"        .withColumnsRenamed({plan.renamed!r})")
    right[-1] += ","
    lines += [f"{plan.variable} = (",
              f"    {plan.query_name}",
              f"    {_spark_keys(plan.query_name, keys, plan.left_on)}",
              "    .join(",
              *right,
              f"        on={keys!r}, how={plan.how!r})",
              f"    .drop(*{keys!r})",
              ")"]
    return "\n".join(lines) + "\n"
