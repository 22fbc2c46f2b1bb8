"""Write a :class:`~.plan.JoinPlan` as pandas or PySpark code (join/execute.py's steps).

The code runs where only the user's frame is bound (and the second frame, when the other
table is not a lake table): it reads the lake table itself (``pd.read_csv`` with the options
the build sniffed for a clean CSV/TSV, decimal commas made points as the reader does, else
``lakejoin_jupyter.open_index(...).table(...)``, the build's own reader, with ``types=True``
for Parquet; PySpark: Spark's readers, every column name in backticks), computes the keys
with the functions the join used (join/keys.py, or an Auto-Join program written out as a
Python function), and binds the result. Lake content is data, never code: every table
name, column name, path, constant and matched value enters the code through ``repr()``;
comments hold text as written (:func:`comment_text`: a line break in lake content is
written as its escape, so it cannot end the comment). Variable names are checked
identifiers.
"""
from __future__ import annotations

import inspect

from ..index.tables import (SPARK_TRIM, LakeTable, epoch_date_sql, spark_charset_fix,
                            spark_encoding, spark_path, spark_quote, spark_reads_parquet)
from ..lake.normalize import NULL_SPELLINGS
from ..lake.read import LETTER_OR_DIGIT, PY_LETTER_OR_DIGIT
from ..spark import parquet_nanosecond_columns
from .execute import exact_integer
from .plan import JoinPlan, Key, python_name


def plan_code(plan: JoinPlan, *, name: str, into: str, other_name: str = "other",
              spark: bool = False) -> str:
    """Code binding ``into`` to the joined frame of the user's frame ``name``."""
    return (_SparkWriter if spark else _PandasWriter)(plan, name, into, other_name).code()


def comment_text(text) -> str:
    """``text`` for a ``#`` comment: as written, on one line (a line break, tab or other
    non-printable character, as lake content may hold, is written as its Python escape)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def _describe(plan: JoinPlan, engine: str, name: str) -> list[str]:
    on = ", ".join(f"{_key_text(a)} = {_key_text(b)}" for a, b in zip(plan.query_on, plan.other_on))
    other = comment_text(plan.other.name if plan.other is not None else plan.other_label)
    dup = "every matching row" if plan.duplicates == "all" else "the first row per key"
    if plan.aggregate is not None:
        dup = "one aggregated row per key"
    lines = [f"# {plan.how} join of {name} with {other} on {on} ({engine}; {dup} of {other})"]
    if plan.description:
        lines.append(f"# {comment_text(plan.description)}")
    for c in plan.explode:
        lines.append(f"# {c!r} of {other} is a list column: one row per element of it")
    kinds = {k.kind for k in plan.query_on + plan.other_on}
    if "normalize" in kinds or any(map(_normalized_after, plan.query_on + plan.other_on)):
        lines.append("# keys are compared after lakejoin's normalization (case, spacing, number "
                     "formats); nulls never match")
    return lines


def _normalized_after(key) -> bool:
    """A text or program key normalized after it is computed (and its matches applied)."""
    return key.normalized and key.kind != "normalize"


def _key_text(key) -> str:
    if key.kind == "program":
        return f"program: {comment_text(key.program.describe())}"
    return ", ".join(repr(str(c)) for c in key.columns)


class _Writer:
    engine = ""

    def __init__(self, plan: JoinPlan, name: str, into: str, other_name: str):
        self.plan, self.name, self.into = plan, name, into
        taken = {name, into, other_name}
        if plan.other is not None:
            other_name = _free("lake_" + python_name(plan.other.short_name), taken)
        self.other = other_name
        self.per_key = _free(f"{other_name}_per_key", taken) if plan.aggregate else None
        self.functions: list[str] = []      # program functions, defined once each
        self.n_programs = 0
        self.mapped = bool(plan.matches) or plan.matches_only
        self.lake_typed = plan.other is not None and plan.other.format == "parquet"
        self.only = ", only=True" if plan.matches_only else ""

    def program_function(self, key) -> str:
        fn = f"derive_key_{self.n_programs}" if self.n_programs else "derive_key"
        self.n_programs += 1
        self.functions += [f"# Auto-Join program: {comment_text(key.program.describe())}",
                           key.program.python_code(fn).rstrip(), ""]
        return fn

    def key_body(self, frame: str, key, matched: bool, lake: bool = False) -> str:
        """The expression computing a key's Series from the columns of ``frame`` (``lake``:
        a typed lake table, whose text and program keys read the index's text)."""
        def col(c):
            ref = f"{frame}[{c!r}]"
            return f"lake_text({ref})" if lake and key.kind != "normalize" else ref
        if key.kind in ("normalize", "text"):
            fn = "normalized_keys" if key.kind == "normalize" else "text_keys"
            expr = f"{fn}({col(key.columns[0])})"
        else:
            prog = self.program_function(key)
            args = ", ".join(col(c) for c in key.columns)
            expr = f"present([{prog}(*map(cell_text, row)) for row in zip({args})], {frame}.index)"
        if matched:
            expr = f"mapped_keys({expr}, MATCHES{self.only})"
        return f"compared_keys({expr})" if _normalized_after(key) else expr

    def key_exprs(self) -> tuple[list, list]:
        p = self.plan
        return ([self.key_expr(self.name, k, self.mapped and p.matches_on == "query")
                 for k in p.query_on],
                [self.key_expr(self.other, k, self.mapped and p.matches_on == "other",
                               self.lake_typed)
                 for k in p.other_on])

    def imports(self) -> list[str]:
        """Imports of the key functions the plan uses (after the engine's own)."""
        kinds = {k.kind for k in self.plan.query_on + self.plan.other_on}
        agg = self.plan.aggregate
        compared = any(map(_normalized_after, self.plan.query_on + self.plan.other_on))
        used = ["normalized_keys"] * ("normalize" in kinds) + ["compared_keys"] * compared \
            + ["text_keys"] * ("text" in kinds) \
            + ["mapped_keys"] * self.mapped \
            + ["lake_text"] * (self.lake_typed and any(k.kind != "normalize"
                                                        for k in self.plan.other_on)) \
            + ["numeric_values"] * bool(agg and agg.how in ("mean", "sum")) \
            + ["order_keys"] * bool(agg and agg.how == "latest")
        lines = [f"from lakejoin_jupyter.join.keys import {', '.join(used)}"] if used else []
        if "program" in kinds:
            lines += ["from lakejoin_jupyter.join.autojoin.dsl import cell_text", "",
                      "def present(texts, index):  # an empty or blank key never matches",
                      "    return pd.Series([t if t is not None and t.strip() else None "
                      "for t in texts], index=index, dtype=object)"]
        return lines

    def matches_lines(self) -> list[str]:
        if not self.mapped:
            return []
        items = [f"    {a!r}: {b!r}," for a, b in sorted(self.plan.matches, key=repr)]
        side = "query" if self.plan.matches_on == "query" else "other table"
        rest = (" (a key without a match joins nothing)" if self.plan.matches_only else "")
        return [f"# fuzzy matches: a {side} key (left) joins the key it matched (right){rest}",
                "MATCHES = {", *items, "}", ""]


def _free(name: str, taken: set) -> str:
    base, n = name, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


# ----------------------------------------------------------------------- pandas

class _PandasWriter(_Writer):
    engine = "pandas"

    key_expr = _Writer.key_body

    def code(self) -> str:
        p, keys = self.plan, list(self.plan.keys)
        lq, lo = self.key_exprs()
        lines = _describe(p, "pandas", self.name) + ["import pandas as pd"] + self.imports()
        if p.other is not None:
            lines += [""] + pandas_read_lines(p.other, self.other)
        lines += [f"{self.other} = {self.other}.explode({c!r}, ignore_index=True)"
                  for c in p.explode]
        lines += [""] + self.functions + self.matches_lines()
        right = [f"        {self.other}", f"        {_assign(keys, lo)}",
                 f"        .dropna(subset={keys!r})"]
        if p.aggregate is not None:
            lines += [f"# {comment_text(p.aggregate.describe(p.other_label))}",
                      f"{self.per_key} = {self.other}{_assign(keys, lo)}.dropna(subset={keys!r})"]
            lines += self.aggregate_lines(keys) + [""]
            right = [f"        {self.per_key}"]
        elif p.duplicates == "first":
            right.append(f"        .drop_duplicates(subset={keys!r})")
        if p.renamed:
            right.append(f"        .rename(columns={p.renamed!r})")
        right[-1] += ","
        lines += [f"{self.into} = (",
                  f"    {self.name}",
                  f"    {_assign(keys, lq)}",
                  "    .merge(",
                  *right,
                  *self.merge_end(keys),
                  *([f"    .fillna({{{p.aggregate.count_column!r}: 0}})",
                     f"    .astype({{{p.aggregate.count_column!r}: 'int64'}})"]
                    if p.aggregate is not None else []),
                  ")",
                  self.into]
        return "\n".join(lines) + "\n"


    def aggregate_lines(self, keys: list) -> list[str]:
        """join/execute.py's aggregate_pandas, written out over ``self.per_key``."""
        a, t = self.plan.aggregate, self.per_key
        if a.how == "count":
            return [f"{t} = {t}.groupby({keys!r}, sort=False).size().reset_index(name={a.count_column!r})"]
        if a.how in ("mean", "sum"):
            cols = list(a.columns)
            conv = ", ".join(f"{c!r}: numeric_values({t}[{c!r}])" for c in cols)
            aggs = ", ".join([f"{c!r}: ({c!r}, {a.how!r})" for c in cols]
                             + [f"{a.count_column!r}: ({keys[0]!r}, 'size')"])
            return [f"{t} = (", f"    {t}[{keys + cols!r}]", f"    .assign(**{{{conv}}})",
                    f"    .groupby({keys!r}, sort=False)", f"    .agg(**{{{aggs}}})",
                    "    .reset_index()", ")"]
        out = []
        if a.how == "latest":
            out += [f"{t} = (", f"    {t}",
                    f"    .assign(**{{'__lakejoin_order': order_keys({t}[{a.order_by!r}]{a.reading})}})",
                    "    .sort_values('__lakejoin_order', ascending=False, kind='stable', "
                    "na_position='last')",
                    "    .drop(columns=['__lakejoin_order'])", ")"]
        return out + [f"{t} = (", f"    {t}",
                      f"    .assign(**{{{a.count_column!r}: {t}.groupby({keys!r}, sort=False)"
                      f"[{keys[0]!r}].transform('size')}})",
                      f"    .drop_duplicates(subset={keys!r})", ")"]

    def merge_end(self, keys) -> list[str]:
        """The merge's last lines: a left merge as is; an inner one as a left one without the
        unmatched rows, which keeps the query's row order (pandas keeps it for left merges)."""
        m = self.plan.match_column
        if self.plan.how == "left":
            added = self.plan.added_columns
            return [f"        on={keys!r}, how='left', indicator={m!r})",
                    "    # an unmatched row's text, Decimal or date cells: None, as nulls",
                    f"    .pipe(lambda joined: joined.assign(**{{c: joined[c].where(joined[{m!r}] "
                    f"== 'both', None) for c in {added!r} if joined[c].dtype == object}}))",
                    f"    .drop(columns={keys + [m]!r})"]
        return [f"        on={keys!r}, how='left', indicator={m!r})",
                f"    .loc[lambda joined: joined[{m!r}] == 'both']",
                f"    .drop(columns={keys + [m]!r})",
                "    .reset_index(drop=True)"]


def _assign(keys, exprs) -> str:
    return ".assign(**{" + ", ".join(f"{k!r}: {e}" for k, e in zip(keys, exprs)) + "})"


def pandas_read_lines(table: LakeTable, var: str) -> list[str]:
    """Lines that bind ``var`` to the lake table as string-valued pandas (None for nulls;
    Parquet with its types, list columns as lists: ``lake_table(types=True)``)."""
    if table.format in ("csv", "tsv") and table.clean:
        opts = [repr(table.uri), f"sep={table.delimiter!r}",
                f"encoding={(table.encoding or 'utf-8')!r}", "dtype=str",
                "keep_default_na=False", "na_values=['']"]
        if not table.header_matches:
            opts += ["header=0", f"names={list(table.columns)!r}"]
        pick = f"[{list(table.columns)!r}]" if table.header_matches and table.header else ""
        return [f"{var} = pd.read_csv({', '.join(opts)}){pick}"
                + ("  # the indexed columns, by name" if pick else ""),
                *pandas_decimal_comma_lines(table, var),
                f"{var} = {var}.astype(object).where({var}.notna(), None)"]
    types = ", types=True" if table.format == "parquet" or table.lists else ""
    return ["import lakejoin_jupyter",
            f"{var} = lakejoin_jupyter.open_index({table.index_path!r}, verify=False, "
            f"check_lake=False).table({table.ref!r}{types})"]


def pandas_decimal_comma_lines(table: LakeTable, var: str) -> list[str]:
    """Lines reading the table's decimal-comma columns as the index reads them ("13,2" ->
    "13.2": ``pd.read_csv(..., decimal=",")`` reads the same numbers), for ``var`` read
    as text."""
    if not table.number_columns:
        return []
    cols = table.number_columns
    return ["# numbers, read as the index reads them (a decimal comma as a point, '13,2' -> "
            "'13.2'; 'n/a' and cells",
            "# with no letter or digit, '-', missing; pd.read_csv(..., decimal=',', "
            "na_values=...) reads the same numbers)",
            f"{var}[{cols!r}] = {var}[{cols!r}].apply(lambda c: c.str.replace(',', '.', "
            f"regex=False).mask(c.str.strip().str.lower().isin({sorted(NULL_SPELLINGS)!r}) "
            f"| ~c.str.contains({PY_LETTER_OR_DIGIT!r}, na=True)))"]


# ----------------------------------------------------------------------- PySpark

class _SparkWriter(_Writer):
    engine = "PySpark"

    def __init__(self, *a):
        super().__init__(*a)
        self.udfs: list[str] = []

    def key_expr(self, frame: str, key, matched: bool, lake: bool = False) -> str:
        """A pandas UDF over the key's columns (as a struct), named key_<n>."""
        fn = f"key_{len(self.udfs)}"
        cols = [str(c) for c in key.columns]
        body = self.key_body("rows", Key(tuple(cols), key.kind, key.program, key.normalized),
                             matched, lake)
        self.udfs.append("\n".join([
            "@F.pandas_udf('string')",
            f"def {fn}(rows: pd.DataFrame) -> pd.Series:",
            f"    rows.columns = {cols!r}",
            f"    return {body}", ""]))
        return f"{fn}(F.struct(*key_columns({frame}, {cols!r})))"

    def code(self) -> str:
        p, keys = self.plan, list(self.plan.keys)
        lq, lo = self.key_exprs()
        lines = _describe(p, "PySpark", self.name) + [
            "import pandas as pd",
            "from pyspark.sql import Window, functions as F, types as T",
            "# key_columns: the key's columns, a TIMESTAMP as its UTC wall-clock time",
            "from lakejoin_jupyter.spark import get_spark, key_columns"] + self.imports()
        lines += ["", "spark = get_spark()", ""] + self.functions + self.matches_lines()
        lines += self.udfs + self.value_udfs()
        if p.other is not None:
            lines += spark_read_lines(p.other, self.other)
            lines += [f"{self.other} = {self.other}.withColumn({c!r}, F.explode_outer("
                      f"F.col({spark_quote(c)!r})))" for c in p.explode] + [""]
        with_keys = "        .withColumns({" + ", ".join(f"{k!r}: {e}" for k, e in zip(keys, lo)) + "})"
        right = [f"        {self.other}", with_keys, f"        .dropna(subset={keys!r})"]
        if p.aggregate is not None:
            lines += [f"# {comment_text(p.aggregate.describe(p.other_label))}",
                      f"{self.per_key} = (", f"    {self.other}", with_keys[4:],
                      f"    .dropna(subset={keys!r})", ")"]
            lines += self.aggregate_lines(keys) + [""]
            right = [f"        {self.per_key}"]
        elif p.duplicates == "first":
            right += ["        .withColumn('__lakejoin_row', F.monotonically_increasing_id())",
                      "        .withColumn('__lakejoin_rank', F.row_number().over("
                      f"Window.partitionBy(*{keys!r}).orderBy('__lakejoin_row')))",
                      "        .where(F.col('__lakejoin_rank') == 1)",
                      "        .drop('__lakejoin_row', '__lakejoin_rank')"]
        if p.renamed:
            right.append(f"        .withColumnsRenamed({p.renamed!r})")
        right[-1] += ","
        lines += [f"{self.into} = (",
                  f"    {self.name}",
                  "    .withColumns({" + ", ".join(f"{k!r}: {e}" for k, e in zip(keys, lq)) + "})",
                  "    .join(",
                  *right,
                  f"        on={keys!r}, how={p.how!r})",
                  f"    .drop(*{keys!r})",
                  *([f"    .withColumn({p.aggregate.count_column!r}, F.coalesce(F.col("
                     f"{spark_quote(p.aggregate.count_column)!r}), F.lit(0)))"]
                    if p.aggregate is not None else []),
                  ")"]
        return "\n".join(lines) + "\n"


    def value_udfs(self) -> list[str]:
        """The pandas UDFs an aggregation reads numbers or order keys with."""
        a = self.plan.aggregate
        if a is None or a.how not in ("mean", "sum", "latest"):
            return []
        fn, name = ("order_keys", "order_values") if a.how == "latest" else ("numeric_values", "numbers")
        args = a.reading if a.how == "latest" else ""
        return ["@F.pandas_udf('double')", f"def {name}(values: pd.Series) -> pd.Series:",
                f"    return {fn}(values{args})", ""]

    def aggregate_lines(self, keys: list) -> list[str]:
        """join/execute.py's aggregate_spark, written out over ``self.per_key``."""
        a, t = self.plan.aggregate, self.per_key
        count = f"F.count(F.lit(1)).alias({a.count_column!r})"
        if a.how == "count":
            return [f"{t} = {t}.groupBy(*{keys!r}).agg({count})"]
        if a.how in ("mean", "sum"):
            cols = list(a.columns)
            sel = ", ".join(f"numbers(F.col({spark_quote(c)!r})).alias({c!r})" for c in cols)
            fn = ("F.avg({})" if a.how == "mean" else "F.coalesce(F.sum({}), F.lit(0.0))")
            aggs = ", ".join([f"{fn.format(f'F.col({spark_quote(c)!r})')}.alias({c!r})"
                              for c in cols] + [count])
            return [f"{t} = (", f"    {t}", f"    .select(*{keys!r}, {sel})",
                    f"    .groupBy(*{keys!r})", f"    .agg({aggs})", ")"]
        order = "F.col('__lakejoin_row')"
        lines = [f"{t} = (", f"    {t}",
                 "    .withColumn('__lakejoin_row', F.monotonically_increasing_id())"]
        if a.how == "latest":
            lines.append(f"    .withColumn('__lakejoin_order', order_values("
                         f"F.col({spark_quote(a.order_by)!r})))")
            order = "F.col('__lakejoin_order').desc_nulls_last(), F.col('__lakejoin_row')"
        return lines + [
            f"    .withColumn({a.count_column!r}, F.count(F.lit(1)).over("
            f"Window.partitionBy(*{keys!r})))",
            "    .withColumn('__lakejoin_rank', F.row_number().over("
            f"Window.partitionBy(*{keys!r}).orderBy({order})))",
            "    .where(F.col('__lakejoin_rank') == 1)",
            "    .drop('__lakejoin_row', '__lakejoin_rank', '__lakejoin_order')", ")"]


def spark_read_lines(table: LakeTable, var: str) -> list[str]:
    """Lines that bind ``var`` to the lake table as a Spark DataFrame."""
    if table.format == "catalog":
        return [f"{var} = spark.table({table.uri!r})"]
    uri = spark_path(table.uri)
    if table.format in ("csv", "tsv"):
        fields = ", ".join(f"T.StructField({c!r}, T.StringType())" for c in table.columns)
        if table.skip_lines:    # lines above the header: Spark's CSV reader cannot skip them
            return [f"# {comment_text(table.name)} has {table.skip_lines} line(s) above its header: read "
                    f"by lakejoin's reader",
                    "import lakejoin_jupyter",
                    f"{var} = spark.createDataFrame(lakejoin_jupyter.open_index("
                    f"{table.index_path!r}, verify=False, check_lake=False).table("
                    f"{table.ref!r}), schema=T.StructType([{fields}]))"]
        # the header names the columns; Spark's header inference cannot read a path with
        # escaped glob characters (a backslash in a file name), read there by position
        by_name = table.clean and table.header_matches and uri == "file://" + table.uri
        lines = [f"{var} = spark.read.csv(",
                 f"    {uri!r},",
                 "    inferSchema=False," if by_name else f"    schema=T.StructType([{fields}]),",
                 f"    header=True, sep={table.delimiter!r}, "
                 f"encoding={spark_encoding(table.encoding)!r}, multiLine=True, escape='\"')"]
        header = list(getattr(table, "header", None) or table.columns)
        if not by_name and header != list(table.columns):   # by position, in the file's order
            lines[2] = "    schema=T.StructType([" + ", ".join(
                f"T.StructField({c!r}, T.StringType())" for c in header) + "]),"
        if by_name or header != list(table.columns):   # by name, as the index knows them
            cols = ", ".join(repr(spark_quote(c)) for c in table.columns)
            lines[-1] += f".select({cols})"
        fix = spark_charset_fix(table.encoding)
        if fix:
            lines += [f"# the file is {table.encoding}: Spark reads it as "
                      f"{spark_encoding(table.encoding)}, then bytes 0x80-0x9F get their "
                      f"{table.encoding} characters",
                      f"{var} = {var}.select([F.translate({var}['`' + c.replace('`', '``') + '`'], "
                      f"{fix[0]!r}, {fix[1]!r}).alias(c) for c in {var}.columns])"]
        if table.number_columns:
            cols = table.number_columns
            column = f"{var}['`' + c.replace('`', '``') + '`']"
            lines += ["# numbers, read as the index reads them (a decimal comma as a point, "
                      "'13,2' -> '13.2'; 'n/a' and",
                      "# cells with no letter or digit, '-', missing)",
                      f"{var} = {var}.withColumns({{c: F.when(F.lower(F.regexp_replace("
                      f"{column}, {SPARK_TRIM!r}, '')).isin({sorted(NULL_SPELLINGS)!r})"
                      f" | ~{column}.rlike({LETTER_OR_DIGIT!r}), None)"
                      f".otherwise(F.translate({column}, ',', '.')) for c in {cols!r}}})"]
        return lines
    if table.format == "parquet":
        if not spark_reads_parquet(table):
            return [f"# {comment_text(table.name)} repeats column names, which Spark's Parquet reader "
                    f"refuses: read by lakejoin's reader, with its types",
                    "import lakejoin_jupyter",
                    f"{var} = spark.createDataFrame(lakejoin_jupyter.open_index("
                    f"{table.index_path!r}, verify=False, check_lake=False).table("
                    f"{table.ref!r}, types='arrow'))"]
        cols = ", ".join(repr(spark_quote(c)) for c in table.columns)
        nanos = parquet_nanosecond_columns(table.uri)
        if nanos:
            names = ", ".join(repr(c) for c in nanos)
            return [f"# {names} of {comment_text(table.name)}: nanosecond timestamps (pandas' "
                    "default), which Spark's Parquet reader refuses; read_parquet reads them "
                    "as timestamps to the microsecond",
                    "from lakejoin_jupyter.spark import read_parquet",
                    f"{var} = read_parquet(spark, {table.uri!r}"
                    + (f", partitions={list(table.partitions)!r})" if table.partitions else ")"),
                    f"{var} = {var}.select({cols})  # the indexed columns, by name"]
        parts = []
        if table.partitions:     # index/tables.py partition_schema, written out
            parts = ["# partition columns as text, as their folder names write them ('01' "
                     "stays '01')",
                     f"{var} = spark.read.schema(T.StructType([",
                     f"    T.StructField(f.name, T.StringType()) if f.name in "
                     f"{list(table.partitions)!r} else f",
                     f"    for f in {var}.schema.fields])).parquet({uri!r})"]
        return [f"{var} = spark.read.parquet({uri!r})"] + parts + [
                f"{var} = {var}.select({cols})  # the indexed columns, by name"]
    if table.format == "jsonl":
        from ..lake.read import TableInfo
        dates = TableInfo.from_json(table.info).epoch_dates if table.info else {}
        cols = ", ".join(f"F.expr({epoch_date_sql(c, dates[c])!r}).alias({c!r})" if c in dates
                         else repr(spark_quote(c)) for c in table.columns)
        lines = [f"{var} = spark.read.json({uri!r})"]
        if dates:
            lines.append("# epoch numbers under a date name, read as pd.read_json reads them")
        return lines + [f"{var} = {var}.select({cols})"]
    raise ValueError(f"no Spark reader for format {table.format!r}")


# ----------------------------------------------------------------------- union

def union_code(plan, *, name: str, into: str, spark: bool = False) -> str:
    """Code binding ``into`` to ``name`` with the plan's lake rows stacked under it
    (join/execute.py: union_pandas / union_spark)."""
    var = _free("lake_" + python_name(plan.other.short_name), {name, into})
    pairs = ", ".join(f"{a!r} <- {b!r}" for a, b in plan.alignment)
    head = [f"# union of {name} with the rows of {comment_text(plan.other.name)} "
            f"({'PySpark' if spark else 'pandas'}); aligned columns: {pairs}",
            f"# {plan.source!r} says where each row comes from"]
    if plan.description:
        head.append(f"# {comment_text(plan.description)}")
    if spark:
        cols = ",\n".join(f"    {var}[{spark_quote(b)!r}].cast({t!r}).alias({a!r})"
                          for (a, b), t in zip(plan.alignment, plan.spark_types))
        lines = head + ["from pyspark.sql import functions as F, types as T",
                        "from lakejoin_jupyter.spark import get_spark", "",
                        "spark = get_spark()"] + spark_read_lines(plan.other, var) + [
            f"{var} = {var}.select(",
            f"{cols})"]
        if plan.distinct:
            names = [a for a, _ in plan.alignment]
            keys = [f"__lakejoin_union_key_{i}" for i in range(len(names))]
            seen = [f"__lakejoin_union_seen_{i}" for i in range(len(names))]
            known = _free(f"{var}_known", {name, into, var})
            at = len(head) + 2                 # after the imports of F and get_spark
            lines[at:at] = [
                "import pandas as pd",
                "from pyspark.sql import Window",
                "from lakejoin_jupyter.join.keys import union_keys",
                "from lakejoin_jupyter.spark import union_key_column", "",
                "@F.pandas_udf('string')",
                "def union_key(values: pd.Series) -> pd.Series:",
                "    return union_keys(values)", ""]
            lines += [
                "# only the new rows: those not in the query on the aligned columns, each "
                "once; values",
                "# compared after lakejoin's normalization (case, spacing, number formats; "
                "nulls equal)",
                f"{var} = ({var}.withColumns({{" + ", ".join(
                    f"{k!r}: union_key(union_key_column({var}, {a!r}))"
                    for k, a in zip(keys, names)) + "})",
                "    .withColumn('__lakejoin_row', F.monotonically_increasing_id())",
                "    .withColumn('__lakejoin_rank', F.row_number().over("
                f"Window.partitionBy(*{keys!r}).orderBy('__lakejoin_row')))",
                "    .where(F.col('__lakejoin_rank') == 1)",
                "    .drop('__lakejoin_row', '__lakejoin_rank'))",
                f"{known} = {name}.select(" + ", ".join(
                    f"union_key(union_key_column({name}, {a!r})).alias({s!r})"
                    for s, a in zip(seen, names)) + ").distinct()",
                f"{var} = {var}.join({known}, " + " & ".join(
                    f"F.col({k!r}).eqNullSafe(F.col({s!r}))" for k, s in zip(keys, seen))
                + f", 'left_anti').drop(*{keys!r})"]
        lines += [
            f"{var} = {var}.withColumn({plan.source!r}, F.lit({plan.other.name!r}))",
            f"{into} = {name}.withColumn({plan.source!r}, F.lit('query')).unionByName(",
            f"    {var}, allowMissingColumns=True)"]
        return "\n".join(lines) + "\n"
    lines = head + ["import pandas as pd", ""] + pandas_read_lines(plan.other, var) + [
        f"{var} = {var}[{[b for _, b in plan.alignment]!r}].rename(columns={plan.renamed!r})"]
    for (a, _), kind in zip(plan.alignment, plan.kinds):
        if kind == "numeric":
            lines.append(f"{var}[{a!r}] = pd.to_numeric({var}[{a!r}], errors='coerce')")
        elif kind == "integer":     # Python ints, exactly, as the query's (beyond int64)
            if "def exact_integer(" not in "\n".join(lines):   # the union's own, written out
                lines += ["", *inspect.getsource(exact_integer).splitlines(), ""]
            lines.append(f"{var}[{a!r}] = {var}[{a!r}].map(exact_integer).astype(object)")
        elif kind == "datetime":    # an offset converted to UTC, as the union's keys
            lines.append(f"{var}[{a!r}] = pd.to_datetime({var}[{a!r}], errors='coerce', "
                         "utc=True).dt.tz_localize(None)")
    if plan.distinct:
        cols = [a for a, _ in plan.alignment]
        lines += ["# only the new rows: those not in the query on the aligned columns, each "
                  "once; values",
                  "# compared after lakejoin's normalization (case, spacing, number formats; "
                  "nulls equal)",
                  "import lakejoin_jupyter.join.keys",
                  f"{var} = {var}[lakejoin_jupyter.join.keys.new_rows({name}, {var}, "
                  f"{cols!r})]"]
    lines += [f"{into} = pd.concat([{name}.assign(**{{{plan.source!r}: 'query'}}),",
              f"                {var}.assign(**{{{plan.source!r}: {plan.other.name!r}}})],",
              "               ignore_index=True)",
              "# each numeric, boolean or string query column keeps the query's dtype when "
              "every stacked",
              "# value fits it (nullable, e.g. Int64, when values are missing)",
              "import lakejoin_jupyter.frames",
              f"{into} = lakejoin_jupyter.frames.stacked_as_query({into}, {name})",
              into]
    return "\n".join(lines) + "\n"
