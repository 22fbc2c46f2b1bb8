"""Perform the join a search found, in pandas or in Spark, with normalized keys.

The index matched the query and the lake column on *normalized* values (lake/normalize.py:
case, spacing, number formats), so a plain ``merge`` on the raw values would lose most of
the matches the search reported ("Côte d'Ivoire" vs "CÔTE D'IVOIRE", 7 vs "007"). Both
sides therefore get a temporary key column holding the normalized value, the tables are
joined on it, and the temporary columns are dropped:

* nulls (and values normalization drops: "", "n/a", "-", ...) never match: lake rows with
  a null key are removed before the merge (pandas would otherwise match NaN with NaN);
* ``how`` is "left" (keep every query row: augmentation) or "inner" (only matched rows);
  rows come in the query's order; a query row's lake partners come in file order for a
  left join and in pandas' order for an inner one (pandas does not keep file order there
  when the query repeats a key);
* ``duplicates`` is "all" (every matching lake row, SQL semantics: a query row may be
  repeated when the lake column is not a key) or "first" (the first lake row per key in
  file order, so a left join keeps the query's row count);
* lake columns whose name clashes with a query column get a suffix naming the table.

The lake table is read the way codegen.py's code reads it (pandas: ``engine.table``, the
build's own reader; Spark: Spark's readers with the sniffed format options), and
codegen.py writes exactly these steps as code, so running the generated code reproduces
the joined frame (tests/test_codegen.py checks equality). The "Join" action on a search
hit, shown as a button by the widget, is registered at the bottom of this module.
"""
from __future__ import annotations

import keyword
import re
import unicodedata
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ..errors import QueryError
from ..lake.normalize import normalize_many

HOWS = ("left", "inner")
DUPLICATES = ("all", "first")
KEY_PREFIX = "__lakejoin_key_"


@dataclass(frozen=True)
class TableSource:
    """Where a lake table lives and how to read it (from the index catalog)."""
    name: str                 # table name in the index
    format: str               # csv | tsv | parquet | jsonl | catalog
    uri: str                  # absolute path, or the catalog table name
    columns: tuple            # column names as the index knows them
    encoding: str = ""
    delimiter: str = ","
    index_path: str = ""      # the index the table belongs to (for engine-based reading)
    header_matches: bool = True   # pandas' own header parsing yields ``columns``
    clean: bool = True        # no ragged rows / renamed columns: plain readers suffice

    @property
    def short_name(self) -> str:
        return self.name.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class JoinPlan:
    """Everything needed to perform (and write the code of) one join."""
    left_on: tuple            # query column(s)
    right_on: tuple           # lake column(s), aligned with left_on
    source: TableSource
    how: str = "left"
    duplicates: str = "all"
    suffix: str = "_lake"     # appended to lake columns whose name clashes
    keys: tuple = ()          # temporary normalized-key column names
    renamed: dict = field(default_factory=dict)   # lake column -> new name (clashes)
    query_name: str = "df"    # the query frame's variable (generated code)
    variable: str = "joined"  # the result's variable (generated code)


# ----------------------------------------------------------------------- planning

def table_source(engine, table: str) -> TableSource:
    """The catalog entry of a lake table as a :class:`TableSource`."""
    from ..lake.read import TableInfo
    t = engine.index.tables
    hit = t[(t["name"] == table) | (t["path"] == table)]
    if hit.empty:
        raise QueryError(f"No table {table!r} in the index {engine.path}.")
    row = hit.iloc[0]
    if row["format"] == "catalog":
        cols = engine.index.columns
        names = tuple(cols[cols["table_id"] == row["table_id"]].sort_values("position")["name"])
        return TableSource(str(row["name"]), "catalog", str(row["path"]), names,
                           index_path=str(engine.path), clean=True)
    return source_from_info(str(row["name"]), TableInfo.from_json(row["info"]), str(engine.path))


def source_from_info(name: str, info, index_path: str = "") -> TableSource:
    """A :class:`TableSource` from the build's sniffing result (lake/read.py TableInfo)."""
    clean = not info.warnings and info.n_fields_max <= len(info.columns)
    header = _pandas_header(info) if info.format in ("csv", "tsv") and clean else None
    return TableSource(name, info.format, info.uri, tuple(info.columns),
                       encoding=info.encoding, delimiter=info.delimiter or ",",
                       index_path=index_path, header_matches=header == list(info.columns),
                       clean=clean)


def _pandas_header(info) -> list | None:
    """The column names pandas reads from the file's header line (None if it cannot)."""
    if info.uri.lower().endswith((".gz", ".bz2", ".xz", ".zst")):
        return None
    try:
        df = pd.read_csv(info.uri, sep=info.delimiter or ",", encoding=_py_encoding(info.encoding),
                         nrows=0, dtype=str)
    except Exception:  # noqa: BLE001 - the plain reader cannot read it: use the engine's
        return None
    return [str(c) for c in df.columns]


def _py_encoding(enc: str) -> str:
    return enc or "utf-8"


def plan_join(source: TableSource, left_columns, left_on, right_on, *, how: str = "left",
              duplicates: str = "all", query_name: str = "df", variable: str = "joined") -> JoinPlan:
    """Check the request against both tables' columns and fix the temporary names."""
    left_columns = list(left_columns)
    left_on, right_on = tuple(left_on), tuple(right_on)
    if how not in HOWS:
        raise QueryError(f"how must be one of {list(HOWS)} (got {how!r}).")
    if duplicates not in DUPLICATES:
        raise QueryError(f"duplicates must be one of {list(DUPLICATES)} (got {duplicates!r}).")
    if not left_on or len(left_on) != len(right_on):
        raise QueryError(f"Join columns do not line up: query {list(left_on)} vs lake "
                         f"{list(right_on)}.")
    if len(set(map(str, left_columns))) != len(left_columns):
        dup = sorted({str(c) for c in left_columns if left_columns.count(c) > 1})
        raise QueryError(f"The query DataFrame has duplicate column names {dup}; rename them "
                         f"before joining.")
    missing = [c for c in left_on if c not in left_columns]
    if missing:
        raise QueryError(f"Query column(s) {missing} not found; the DataFrame has: "
                         f"{[str(c) for c in left_columns][:30]}")
    missing = [c for c in right_on if c not in source.columns]
    if missing:
        raise QueryError(f"Lake table {source.name!r} has no column(s) {missing}; its "
                         f"columns: {list(source.columns)[:30]}")
    taken = {str(c) for c in left_columns} | {str(c) for c in source.columns}
    keys = []
    i = 0
    while len(keys) < len(left_on):
        k = f"{KEY_PREFIX}{i}"
        if k not in taken:
            keys.append(k)
        i += 1
    suffix = "_" + source.short_name
    left_set = {str(c) for c in left_columns}
    renamed = {}
    for c in source.columns:
        if c in left_set:
            new, n = f"{c}{suffix}", 2
            while new in left_set or new in source.columns or new in renamed.values():
                new, n = f"{c}{suffix}_{n}", n + 1
            renamed[c] = new
    return JoinPlan(left_on=left_on, right_on=right_on, source=source, how=how,
                    duplicates=duplicates, suffix=suffix, keys=tuple(keys), renamed=renamed,
                    query_name=query_name, variable=variable)


def plan_for_hit(engine, hit, query_frame, **kw) -> JoinPlan:
    """The plan joining ``query_frame`` with the table of a search hit on its mapping."""
    columns = list(query_frame.columns)
    return plan_join(table_source(engine, hit.table), columns, tuple(hit.query_columns),
                     tuple(hit.columns), **kw)


# ----------------------------------------------------------------------- pandas

def normalized_keys(values: pd.Series) -> pd.Series:
    """The normalized join key of every value (None: never matches), as an object Series
    on the same index (so an empty frame still merges on an object column).

    Each distinct value is normalized once (``pd.factorize``, then one ``normalize_many``
    over the uniques), which is what makes a million-row key column affordable. Object
    columns mixing types go through ``normalize_many`` value by value instead: factorize
    would merge 1, 1.0 and True (equal in Python), whose tokens differ ("1" vs "true").
    """
    if values.dtype == object and pd.api.types.infer_dtype(values, skipna=True) != "string":
        return pd.Series(normalize_many(values.tolist()), index=values.index, dtype=object)
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    tokens = np.array(normalize_many(list(uniques)) + [None], dtype=object)
    return pd.Series(tokens[codes], index=values.index, dtype=object)   # code -1 -> None


def join_pandas(left: pd.DataFrame, right: pd.DataFrame, plan: JoinPlan,
                keys: tuple | None = None) -> pd.DataFrame:
    """Join two pandas frames as the plan says (see the module docstring). ``keys``: the
    normalized key columns of both sides, when already computed (:func:`key_columns`)."""
    lkeys, rkeys = keys or key_columns(left, right, plan)
    lk = left.assign(**dict(zip(plan.keys, lkeys)))
    rk = right.assign(**dict(zip(plan.keys, rkeys)))
    rk = rk.dropna(subset=list(plan.keys))
    if plan.duplicates == "first":
        rk = rk.drop_duplicates(subset=list(plan.keys))
    if plan.renamed:
        rk = rk.rename(columns=plan.renamed)
    out = lk.merge(rk, on=list(plan.keys), how=plan.how)
    return out.drop(columns=list(plan.keys))


def key_columns(left: pd.DataFrame, right: pd.DataFrame, plan: JoinPlan) -> tuple:
    """(query key Series, lake key Series): normalized values of the join columns."""
    return ([normalized_keys(left[c]) for c in plan.left_on],
            [normalized_keys(right[c]) for c in plan.right_on])


def match_stats(left: pd.DataFrame, right: pd.DataFrame, plan: JoinPlan,
                keys: tuple | None = None) -> dict:
    """How many query rows find a partner, and whether the lake column is a key."""
    lcols, rcols = keys or key_columns(left, right, plan)
    lk = pd.MultiIndex.from_arrays(lcols) if len(lcols) > 1 else pd.Index(lcols[0])
    rk = pd.MultiIndex.from_arrays(rcols) if len(rcols) > 1 else pd.Index(rcols[0])
    l_ok = np.logical_and.reduce([c.notna().to_numpy() for c in lcols])
    r_ok = np.logical_and.reduce([c.notna().to_numpy() for c in rcols])
    rk = rk[r_ok]
    matched = int((np.asarray(lk.isin(rk)) & l_ok).sum())
    return {"query_rows": len(left), "matched_rows": matched, "lake_rows": len(right),
            "lake_key_unique": bool(rk.is_unique)}


# ----------------------------------------------------------------------- Spark

def is_spark_frame(obj) -> bool:
    return type(obj).__module__.startswith("pyspark.sql") and hasattr(obj, "toPandas")


_SPARK_ENCODINGS = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "cp1252": "windows-1252",
                    "latin-1": "ISO-8859-1", "utf-16": "UTF-16", "utf-32": "UTF-32", "": "UTF-8"}


def spark_encoding(enc: str) -> str:
    return _SPARK_ENCODINGS.get(enc, enc)


def spark_col(df, name: str):
    """A column by its exact name (dots, spaces and backticks included)."""
    return df[spark_quote(name)]


def spark_quote(name: str) -> str:
    return "`" + str(name).replace("`", "``") + "`"


def read_spark(spark, source: TableSource):
    """The lake table as a Spark DataFrame with the index's column names."""
    from pyspark.sql import types as T
    if source.format == "catalog":
        return spark.table(source.uri)
    if source.format in ("csv", "tsv"):
        schema = T.StructType([T.StructField(c, T.StringType()) for c in source.columns])
        return spark.read.csv(spark_path(source.uri), schema=schema, header=True,
                              sep=source.delimiter, encoding=spark_encoding(source.encoding),
                              multiLine=True, escape='"')
    if source.format == "parquet":
        df = spark.read.parquet(spark_path(source.uri))
        names = [c for c in df.columns if c != "__index_level_0__"]
        return df.select(*[spark_col(df, c) for c in names]).toDF(*source.columns)
    if source.format == "jsonl":
        df = spark.read.json(spark_path(source.uri))
        return df.select(*[spark_col(df, c) for c in source.columns])
    raise QueryError(f"Cannot read lake table {source.name!r} (format {source.format!r}) in Spark.")


_GLOB_CHARS = "\\*?[]{}"


def spark_path(path: str) -> str:
    """A local file as a path Spark reads literally: the file: scheme (so a cluster does not
    resolve it on HDFS), no percent-encoding (Hadoop paths are not URI-decoded), and the
    glob characters Spark would expand escaped with a backslash."""
    if not path.startswith("/"):
        return path
    return "file://" + "".join("\\" + ch if ch in _GLOB_CHARS else ch for ch in path)


def spark_key_udf():
    """A pandas UDF computing the normalized join key of a column."""
    from pyspark.sql import functions as F

    @F.pandas_udf("string")
    def lakejoin_key(values: pd.Series) -> pd.Series:
        return pd.Series(normalize_many(values.tolist()), index=values.index, dtype=object)

    return lakejoin_key


def join_spark(left, right, plan: JoinPlan):
    """Join two Spark DataFrames as the plan says (lazy; nothing runs until an action)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    key = spark_key_udf()
    lk = left.withColumns({k: key(spark_col(left, c)) for k, c in zip(plan.keys, plan.left_on)})
    rk = right.withColumns({k: key(spark_col(right, c)) for k, c in zip(plan.keys, plan.right_on)})
    rk = rk.dropna(subset=list(plan.keys))
    if plan.duplicates == "first":
        order = "__lakejoin_row"
        w = Window.partitionBy(*plan.keys).orderBy(order)
        rk = (rk.withColumn(order, F.monotonically_increasing_id())
              .withColumn("__lakejoin_rank", F.row_number().over(w))
              .where(F.col("__lakejoin_rank") == 1).drop(order, "__lakejoin_rank"))
    if plan.renamed:
        rk = rk.withColumnsRenamed(plan.renamed)
    return lk.join(rk, on=list(plan.keys), how=plan.how).drop(*plan.keys)


# ----------------------------------------------------------------------- hits

@dataclass
class JoinOutcome:
    joined: object            # pandas or Spark DataFrame
    plan: JoinPlan
    stats: dict
    engine: str               # "pandas" | "spark"


def join_hit(engine, hit, query_frame, *, how: str = "left", duplicates: str = "all",
             query_name: str = "df", variable: str | None = None) -> JoinOutcome:
    """Join ``query_frame`` (pandas or Spark) with the lake table of ``hit``."""
    if query_frame is None:
        raise QueryError("Pass the query DataFrame to join with: hit.join(df).")
    variable = variable or default_variable(query_name, hit.table)
    if is_spark_frame(query_frame):
        plan = plan_join(table_source(engine, hit.table), query_frame.columns,
                         tuple(hit.query_columns), tuple(hit.columns), how=how,
                         duplicates=duplicates, query_name=query_name, variable=variable)
        from ..spark import get_spark
        right = read_spark(get_spark(), plan.source)
        joined = join_spark(query_frame, right, plan)
        return JoinOutcome(joined, plan, {}, "spark")
    if not isinstance(query_frame, pd.DataFrame):
        raise QueryError(f"Cannot join a {type(query_frame).__name__}; pass the pandas or "
                         f"Spark DataFrame the search was made with.")
    plan = plan_for_hit(engine, hit, query_frame, how=how, duplicates=duplicates,
                        query_name=query_name, variable=variable)
    right = engine.table(hit.table)
    keys = key_columns(query_frame, right, plan)
    joined = join_pandas(query_frame, right, plan, keys)
    stats = match_stats(query_frame, right, plan, keys)
    stats["joined_rows"] = len(joined)
    return JoinOutcome(joined, plan, stats, "pandas")


def python_name(text: str, fallback: str = "t") -> str:
    """A readable Python identifier made from any text ("country-codes" -> country_codes)."""
    s = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    s = re.sub(r"\W+", "_", s).strip("_").lower()
    if not s:
        s = fallback
    if s[0].isdigit():
        s = f"{fallback}_{s}"
    if keyword.iskeyword(s) or keyword.issoftkeyword(s):
        s += "_"
    return s


def default_variable(query_name: str, table: str) -> str:
    """The joined frame's variable, named after both tables (fifa + country-codes)."""
    return f"{python_name(query_name, 'df')}_{python_name(table.rsplit('/', 1)[-1])}"


def with_variable(plan: JoinPlan, variable: str) -> JoinPlan:
    return replace(plan, variable=variable)


# ----------------------------------------------------------------------- the action

def _join_action(engine, hit, query_frame, how: str = "left", duplicates: str = "all",
                 query_name: str = "df", variable: str | None = None):
    from . import codegen
    from .actions import ActionResult
    out = join_hit(engine, hit, query_frame, how=how, duplicates=duplicates,
                   query_name=query_name, variable=variable)
    plan = out.plan
    on = ", ".join(f"{a} = {b}" for a, b in zip(plan.left_on, plan.right_on))
    if out.engine == "pandas":
        s = out.stats
        lines = [f"{how.capitalize()} join of {query_name} with {hit.table} on {on}: "
                 f"{s['matched_rows']:,} of {s['query_rows']:,} query rows found a partner; "
                 f"the result has {s['joined_rows']:,} rows and {out.joined.shape[1]} columns."]
        if not s["lake_key_unique"] and duplicates == "all":
            lines.append("The lake column repeats some values, so query rows matching them "
                         "appear several times; choose duplicates = first to keep one lake "
                         "row per key.")
        code = codegen.pandas_code(plan)
        preview = {"joined (first rows)": out.joined.head(10)}
    else:
        lines = [f"{how.capitalize()} join of {query_name} with {hit.table} on {on}, as a "
                 f"Spark DataFrame (lazy: nothing is computed until you use it)."]
        code = codegen.spark_code(plan)
        preview = {}
    return ActionResult(title=f"Join with {hit.table}", summary="\n".join(lines), tables=preview,
                        joined=out.joined, code=code, variable=plan.variable,
                        details={"stats": out.stats, "engine": out.engine})


def _register():
    from .actions import HitAction, register_action
    from ..search.registry import ParamSpec
    register_action(HitAction(
        name="join", label="Join", run=_join_action, order=0,
        # a hit joinable only through a learned program: "Find transformation" joins it
        applies=lambda hit: "program" not in (getattr(hit, "details", None) or {}),
        params=(ParamSpec("how", "join type", kind="choice", default="left", choices=HOWS,
                          help="left keeps every query row; inner keeps matched rows only"),
                ParamSpec("duplicates", "lake duplicates", kind="choice", default="all",
                          choices=DUPLICATES,
                          help="all: every matching lake row; first: one lake row per key"))))


_register()
