"""The join contract: every way of joining yields one :class:`JoinPlan`.

A plan says what is joined to what (the user's frame, called the query, and another table:
a lake table or a second frame of the session), how each side's key is computed
(:class:`Key`: lakejoin's normalization, the cell text, or a learned Auto-Join program),
which derived keys a fuzzy join maps to the other side's keys (``matches``), ``how``, and
the duplicates policy, and an optional :class:`Aggregate` that first reduces the other
table to one row per key (a panel table joined without multiplying the query's rows). A
lake table's list columns that its keys read (``explode``) give one row per element first,
as the index holds their elements.
join/execute.py runs a plan (pandas or Spark); join/codegen.py writes
it as code that reproduces the same frame. Result types (search hits, Auto-Join, fuzzy joins,
schemaless predicates) build their plan and get ``join(df)`` / ``code(name, into)`` from
:class:`Joinable`.
"""
from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field, replace

from ..errors import QueryError
from ..index.tables import LakeTable
from ..textfold import transliterate

HOWS = ("left", "inner")
DUPLICATES = ("all", "first")
AGGREGATES = ("latest", "first", "mean", "sum", "count")
# how "latest" reads a column's dd/mm/yyyy-like dates: decided from its values, or forced
DATE_READINGS = ("auto", "day-first", "month-first")
DATE_READING_HELP = ("how 'latest' reads dates like 02/03/2020 in its column: auto (decided "
                     "from the column's values: day-first when one can only be day-first, "
                     "such as 15/02/2021; a column whose dates read either way is read "
                     "month-first and the summary says it is ambiguous), day-first "
                     "(dd/mm/yyyy) or month-first (mm/dd/yyyy); a forced reading says how "
                     "many of the column's dates it cannot read, and is refused when that is "
                     "most of them)")
KEY_KINDS = ("normalize", "text", "program")
KEY_PREFIX = "__lakejoin_key_"


@dataclass(frozen=True)
class Key:
    """How one side computes one join key from its rows.

    ``normalize``: lakejoin's value normalization of ``columns[0]`` (case, spacing, number
    formats; the search's notion of equal); ``text``: the cell as text (the fuzzy join compares
    exact text); ``program``: an Auto-Join program over ``columns``.
    ``normalized``: a text or program key compared after lakejoin's normalization, once a
    fuzzy join's matches have rewritten it (Auto-Join: its outputs meet the keys as the
    search and an equi-join compare values)."""
    columns: tuple
    kind: str = "normalize"
    program: object = None
    normalized: bool = False

    def __post_init__(self):
        if self.kind not in KEY_KINDS:
            raise ValueError(f"key kind {self.kind!r} is not one of {KEY_KINDS}")
        if self.kind == "program" and self.program is None:
            raise ValueError("a program key needs its program")


@dataclass(frozen=True)
class Aggregate:
    """One row per key of the other table, before the join.

    ``how``: "latest" (the row with the greatest ``order_by`` value, a date or a year; ties
    and rows without one: table order), "first" (the first row in table order), "mean" /
    "sum" (of the numeric ``columns``, each cell read as a number; the other columns are
    dropped), "count" (no column but the count). Every kind adds ``count_column``: the other
    table's rows per key, an integer, 0 on a query row without a partner.

    "latest" reads ``order_by`` as decided once for the whole column (join/keys.py's
    ``date_reading``): ``dayfirst`` for its dd/mm/yyyy-like dates, ``years`` whether a bare
    whole number is a year among dates (None: decided from the values the join reads);
    ``note`` says why the column is ambiguous."""
    how: str
    order_by: str | None = None
    columns: tuple = ()
    count_column: str = "rows"
    dayfirst: bool | None = None
    years: bool | None = None
    note: str = ""
    unread: str = ""          # a forced reading: how many of the column's dates it cannot read
    order_why: str = field(default="", compare=False)  # why "latest" chose ``order_by``

    @property
    def reading(self) -> str:
        """The order keys' arguments beyond the column, as code ("" when undecided)."""
        if self.dayfirst is None or self.years is None:
            return ""
        return f", dayfirst={self.dayfirst!r}, years={self.years!r}"

    def output_columns(self, other_columns) -> list:
        """The other table's columns after aggregation (join keys aside)."""
        kept = {"count": [], "mean": list(self.columns), "sum": list(self.columns)}
        return kept.get(self.how, list(other_columns)) + [self.count_column]

    def describe(self, label: str) -> str:
        what = {"latest": f"the latest row by {self.order_by!r}", "first": "the first row",
                "mean": f"the mean of {len(self.columns)} numeric column(s)",
                "sum": f"the sum of {len(self.columns)} numeric column(s)",
                "count": ""}[self.how]
        if self.how == "count":
            return (f"one row per key of {label!r}: its number of rows, {self.count_column!r} "
                    f"(0 for a key it lacks)")
        said = [t for t, on in (("its dates read day-first, dd/mm/yyyy", self.dayfirst),
                                (self.unread, self.unread)) if on]
        if self.how == "latest" and self.order_why:
            what += f" (chosen: {self.order_why})"
        if self.how == "latest" and said:
            what += f" ({'; '.join(said)})"
        if self.how == "latest" and self.note:
            what += f" (ambiguous: {self.note})"
        return (f"one row per key of {label!r}: {what}, and its number of rows "
                f"{self.count_column!r} (0 for a key it lacks)")


@dataclass(frozen=True)
class JoinPlan:
    """One join, resolved against both tables' columns (see :func:`make_plan`)."""
    query_on: tuple                 # Key per join key, on the user's frame
    other_on: tuple                 # Key per join key, on the other table
    query_columns: tuple            # the user's frame's columns (as planned)
    other_columns: tuple            # the other table's columns
    other: LakeTable | None = None  # a lake table, or None: a frame of the session
    other_label: str = "other"      # the other table's name in texts and suffixes
    how: str = "left"
    duplicates: str = "all"
    matches: tuple = ()             # ((derived key, other key), ...) applied to ``matches_on``
    matches_on: str = "query"       # "query" | "other": whose keys ``matches`` rewrites
    matches_only: bool = False      # True: a key without a match joins nothing (fuzzy join)
    keys: tuple = ()                # temporary key column names
    match_column: str = ""          # temporary column marking matched rows (pandas inner join)
    renamed: dict = field(default_factory=dict)   # other's column -> new name (clashes)
    description: str = ""           # one line: what this join is (a comment in the code)
    aggregate: Aggregate | None = None   # one row per key of the other table first
    explode: tuple = ()             # the other table's list columns its keys read: one row
                                    # per element first (pandas explode, Spark explode_outer)

    @property
    def other_output(self) -> list:
        """The other table's columns that the join adds (before renaming)."""
        if self.aggregate is None:
            return list(self.other_columns)
        return self.aggregate.output_columns(self.other_columns)

    @property
    def added_columns(self) -> list:
        """The other table's columns as they appear in the joined frame."""
        return [self.renamed.get(c, c) for c in self.other_output]


def make_plan(query_columns, query_on, other_columns, other_on, *, other: LakeTable | None = None,
              other_label: str | None = None, how: str = "left", duplicates: str = "all",
              matches=(), matches_on: str = "query", matches_only: bool = False,
              suffix: str | None = None, aggregate: Aggregate | None = None,
              description: str = "", explode: tuple | None = None) -> JoinPlan:
    """Check a join against both tables' columns, pick the temporary key names and the new
    names of the other table's columns that clash with the query's (suffix ``_<table>``).
    ``aggregate``: reduce the other table to one row per key first; its count column is
    renamed ``<table>_rows`` when it is left as the default "rows". ``explode``: the lake
    table's list columns to explode (default: those its keys read); a join learned on the
    table exploded on some columns explodes the same ones."""
    query_columns, other_columns = list(query_columns), list(other_columns)
    query_on = tuple(k if isinstance(k, Key) else Key((k,)) for k in query_on)
    other_on = tuple(k if isinstance(k, Key) else Key((k,)) for k in other_on)
    label = other_label or (other.short_name if other is not None else "other")
    if how not in HOWS:
        raise QueryError(f"how must be one of {list(HOWS)} (got {how!r}).")
    if duplicates not in DUPLICATES:
        raise QueryError(f"duplicates must be one of {list(DUPLICATES)} (got {duplicates!r}).")
    if not query_on or len(query_on) != len(other_on):
        raise QueryError(f"Join keys do not line up: query {[k.columns for k in query_on]} vs "
                         f"{label} {[k.columns for k in other_on]}.")
    # a query's repeated non-key names are joined as pandas' merge does; a key must be one
    for side, cols, only in (("query DataFrame", query_columns,
                              {c for k in query_on for c in k.columns}),
                             (f"table {label!r}", other_columns, None)):
        dup = sorted({str(c) for c in cols if cols.count(c) > 1 and (only is None or c in only)})
        if dup:
            raise QueryError(f"The {side} has duplicate column names {dup}; rename them "
                             f"before joining.")
    missing = [c for k in query_on for c in k.columns if c not in query_columns]
    if missing:
        raise QueryError(f"Query column(s) {missing} not found; the DataFrame has: "
                         f"{[str(c) for c in query_columns][:30]}")
    missing = [c for k in other_on for c in k.columns if c not in other_columns]
    if missing:
        what = f"Lake table {label!r}" if other is not None else f"Table {label!r}"
        raise QueryError(f"{what} has no column(s) {missing}; its columns: "
                         f"{[str(c) for c in other_columns][:30]}")
    if aggregate is not None:
        aggregate = _check_aggregate(aggregate, other_columns, label, duplicates)
    taken = {str(c) for c in query_columns} | {str(c) for c in other_columns}
    keys, i = [], 0
    while len(keys) < len(query_on) + 1:
        k = f"{KEY_PREFIX}{i}"
        if k not in taken:
            keys.append(k)
        i += 1
    keys, match_column = keys[:-1], keys[-1]
    suffix = suffix if suffix is not None else "_" + label
    output = aggregate.output_columns(other_columns) if aggregate else other_columns
    lists = other.lists if other is not None else ()
    explode = (tuple(c for c in lists if c in explode) if explode is not None else
               tuple(c for c in lists if any(c in k.columns for k in other_on)))
    return JoinPlan(query_on=query_on, other_on=other_on, query_columns=tuple(query_columns),
                    other_columns=tuple(other_columns), other=other, other_label=label,
                    how=how, duplicates=duplicates, matches=tuple(matches), matches_on=matches_on,
                    matches_only=matches_only, keys=tuple(keys), match_column=match_column,
                    renamed=renamed_columns(query_columns, output, suffix),
                    description=description, aggregate=aggregate, explode=explode)


def renamed_columns(query_columns, other_columns, suffix: str) -> dict:
    """The other table's columns that clash with the query's, and their new names
    (``<column><suffix>``, then ``_2``, ``_3``... until free)."""
    left_set = set(query_columns)
    renamed: dict = {}
    for c in other_columns:
        if c in left_set:
            new, n = f"{c}{suffix}", 2
            while new in left_set or new in other_columns or new in renamed.values():
                new, n = f"{c}{suffix}_{n}", n + 1
            renamed[c] = new
    return renamed


def _check_aggregate(agg: Aggregate, other_columns: list, label: str, duplicates: str) -> Aggregate:
    if agg.how not in AGGREGATES:
        raise QueryError(f"aggregate must be one of {list(AGGREGATES)} (got {agg.how!r}).")
    if duplicates != "all":
        raise QueryError("An aggregated join already keeps one row per key; leave duplicates "
                         "at 'all'.")
    if agg.how == "latest" and agg.order_by is None:
        raise QueryError(f"aggregate='latest' needs the column that orders the rows of "
                         f"{label!r} (a date or year column): order_by=...")
    missing = [c for c in ([agg.order_by] if agg.order_by is not None else []) + list(agg.columns)
               if c not in other_columns]
    if missing:
        raise QueryError(f"Table {label!r} has no column(s) {missing} to aggregate; its "
                         f"columns: {[str(c) for c in other_columns][:30]}")
    if agg.how in ("mean", "sum") and not agg.columns:
        raise QueryError(f"Table {label!r} has no numeric column to {agg.how}; aggregate with "
                         f"'latest', 'first' or 'count'.")
    count = agg.count_column
    if count == "rows":
        count = f"{python_name(label)}_rows"
    kept = agg.output_columns(other_columns)[:-1]
    base, n = count, 2
    while count in kept:
        count, n = f"{base}_{n}", n + 1
    return replace(agg, count_column=count, columns=tuple(agg.columns))


def python_name(text: str, fallback: str = "t") -> str:
    """A readable Python identifier made from any text ("country-codes" -> country_codes)."""
    s = transliterate(str(text)).encode("ascii", "ignore").decode()
    s = re.sub(r"\W+", "_", s).strip("_").lower()
    if not s:
        s = fallback
    if s[0].isdigit():
        s = f"{fallback}_{s}"
    if keyword.iskeyword(s) or keyword.issoftkeyword(s):
        s += "_"
    return s


def default_variable(query_name: str, table: str, action: str = "", column: str = "") -> str:
    """The joined frame's variable, named after both tables (fifa + country-codes ->
    fifa_country_codes), the lake column if given (a second join of that table on another
    column: fifa_country_codes_official_name_en), and the action when it is not a plain
    join (fifa_country_codes_fuzzy)."""
    base = f"{python_name(query_name, 'df')}_{python_name(str(table).rsplit('/', 1)[-1])}"
    if column:
        base = f"{base}_{python_name(column)}"
    return f"{base}_{python_name(action)}" if action else base


# ----------------------------------------------------------------------- union

UNION_KINDS = ("text", "numeric", "integer", "datetime")
SOURCE_COLUMN = "source_table"
QUERY_LABEL = "query"


@dataclass(frozen=True)
class UnionPlan:
    """Rows of a lake table stacked under the user's frame (table union search).

    ``alignment``: (query column, lake column) pairs; the lake column is renamed to the query
    column and converted to its type (``kinds``: pandas "text" | "numeric" | "integer" (an
    object column of Python integers, as pandas holds those beyond int64) | "datetime";
    ``spark_types``: the query's Spark type names), every other query column is null in the
    added rows, and ``source`` says where each row comes from ("query" or the table name).
    ``distinct``: an added row equal to a row of the query or to an earlier added row, on
    the aligned columns (after the conversion, each value normalized as the search and the
    join compare it: ``keys.union_keys``; the other query columns are null in every added
    row), is left out: only new rows are added."""
    alignment: tuple
    query_columns: tuple
    other: LakeTable
    kinds: tuple = ()
    spark_types: tuple = ()
    source: str = SOURCE_COLUMN
    description: str = ""
    distinct: bool = True

    @property
    def renamed(self) -> dict:
        return {b: a for a, b in self.alignment}


def make_union_plan(df, alignment, other: LakeTable, description: str = "",
                    distinct: bool = True) -> UnionPlan:
    """Check an alignment against both tables and fix the type conversions from ``df``
    (``distinct``: see :class:`UnionPlan`)."""
    from ..frames import is_spark_frame
    columns = list(df.columns)
    alignment = tuple((a, b) for a, b in alignment)
    if not alignment:
        raise QueryError("A union needs at least one aligned column.")
    for side, cols in (("query DataFrame", columns), (f"table {other.name!r}", list(other.columns))):
        dup = sorted({str(c) for c in cols if cols.count(c) > 1})
        if dup:
            raise QueryError(f"The {side} has duplicate column names {dup}; rename them first.")
    missing = [a for a, _ in alignment if a not in columns]
    if missing:
        raise QueryError(f"Query column(s) {missing} not found; the DataFrame has: "
                         f"{[str(c) for c in columns][:30]}")
    missing = [b for _, b in alignment if b not in other.columns]
    if missing:
        raise QueryError(f"Lake table {other.name!r} has no column(s) {missing}; its columns: "
                         f"{[str(c) for c in other.columns][:30]}")
    for pos in (0, 1):
        seen = [p[pos] for p in alignment]
        if len(set(seen)) != len(seen):
            raise QueryError(f"A column appears twice in the alignment {list(alignment)}.")
    source, n = SOURCE_COLUMN, 2
    while source in columns:
        source, n = f"{SOURCE_COLUMN}_{n}", n + 1
    if is_spark_frame(df):
        types = dict((f.name, f.dataType.simpleString()) for f in df.schema.fields)
        return UnionPlan(alignment, tuple(columns), other,
                         spark_types=tuple(types[a] for a, _ in alignment), source=source,
                         description=description, distinct=bool(distinct))
    kinds = tuple(_pandas_kind(df[a]) for a, _ in alignment)
    return UnionPlan(alignment, tuple(columns), other, kinds=kinds, source=source,
                     description=description, distinct=bool(distinct))


def _pandas_kind(s) -> str:
    from pandas.api import types as pt
    if pt.is_bool_dtype(s.dtype):
        return "text"
    if pt.is_numeric_dtype(s.dtype):
        return "numeric"
    if s.dtype == object and s.notna().any() and pt.infer_dtype(s, skipna=True) == "integer":
        return "integer"
    if pt.is_datetime64_any_dtype(s.dtype) and getattr(s.dtype, "tz", None) is None:
        return "datetime"
    return "text"
