"""``%lakejoin fuzzy``: fuzzy-join a DataFrame of the notebook to a lake column at a precision
target (Auto-FuzzyJoin, join/fuzzy.py), as the widget's Fuzzy join action does.

    %lakejoin fuzzy DF.COLUMN TABLE.COLUMN [--precision-target P] [--how left|inner]
                    [--into VAR] [--as VAR] [--insert]
    %lakejoin fuzzy N --from HITS [...]       # hit N of a saved search, its query column

The lake table is the reference (each value of DF's column joins at most one of its values,
its nearest under the join function chosen); ``engine.fuzzy_join`` chooses the join
function and threshold. The joined frame is bound to VAR (default ``<df>_<table>_fuzzy``,
the widget's name, taken back when the magic runs again) and the estimate is printed.
"""
from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from ..cli import PRECISION_TARGET
from ..errors import QueryError, a_kind
from ..frames import is_spark_frame
from .context import MagicError, Subcommand

LOWEST, HIGHEST = 0.5, 1.0          # the precision targets the widget and the CLI take

DESCRIPTION = f"""\
Fuzzy-join a DataFrame column to a lake column: values that are close but not equal (typos,
variants) join, the join function and distance threshold chosen for the largest estimated
recall whose estimated precision reaches the target (engine.fuzzy_join). The lake column is
the reference: each value of the DataFrame's column joins at most one lake value. The joined
frame is bound to a variable and the estimate printed.

examples:
  %lakejoin fuzzy sales.country 'reference/country-codes.official_name_en'
  %lakejoin fuzzy sales.country 'reference/gdp' --lake-column 'Country Name' -p 0.95
  %lakejoin fuzzy 2 --from hits --into fixed    # hit 2 of `%lakejoin search ... --save hits`

Give DF.COLUMN and TABLE.COLUMN before the options; quote a name holding spaces. The
precision target is a fraction from {LOWEST} to {HIGHEST:g}
(default {PRECISION_TARGET}, as the widget's Fuzzy join)."""


def configure(p):
    p.add_argument("query", metavar="DF.COLUMN",
                   help="a pandas DataFrame of the notebook and its column (or DF with "
                        "--column COL); with --from, the rank N of a hit")
    p.add_argument("target", nargs="?", metavar="TABLE.COLUMN",
                   help="a lake table of the open index and its column, split at the last "
                        "dot (or TABLE with --lake-column COL); not with --from")
    p.add_argument("--column", "-c", metavar="COL", help="the DataFrame's column")
    p.add_argument("--lake-column", metavar="COL",
                   help="the lake table's column (one whose name holds a dot)")
    p.add_argument("--from", dest="source", metavar="HITS",
                   help="a search saved by %%lakejoin search ... --save HITS: join its query "
                        "column with hit N's lake column")
    p.add_argument("--precision-target", "-p", type=float, default=PRECISION_TARGET,
                   metavar="P", help=f"the estimated precision to reach, {LOWEST} to "
                                     f"{HIGHEST:g} (default {PRECISION_TARGET})")
    p.add_argument("--how", choices=["left", "inner"], default="left",
                   help="left keeps every row of the DataFrame (default), inner the matched "
                        "ones")
    p.add_argument("--into", metavar="VAR",
                   help="variable for the joined DataFrame (default <df>_<table>_fuzzy, the "
                        "widget's; the same join run again rebinds it; never a variable you "
                        "made)")
    p.add_argument("--as", dest="result", metavar="VAR",
                   help="also bind the FuzzyJoin (VAR.explain(), VAR.matches(), "
                        "VAR.chart(), VAR.code())")
    p.add_argument("--insert", action="store_true",
                   help="insert the reproducing code as the next cell")


def run(ctx, a):
    check_target(a.precision_target)
    if a.source is not None:
        name, frame, qcol, table, lcol, hit = _from_hit(ctx, a)
    else:
        name, frame, qcol = _query(ctx, a)
        table, lcol = _lake_column(ctx, a)
        hit = SimpleNamespace(table=table, query_columns=(qcol,), columns=(lcol,))
    for var in (a.into, a.result):
        if var is not None and not var.isidentifier():
            raise MagicError(f"{var!r} is not a Python variable name.")
    fj = ctx.engine.fuzzy_join(table, frame, on=(lcol, qcol),
                               precision_target=a.precision_target)
    if not fj.ok:
        raise MagicError(f"{name}.{qcol} -> {table}.{lcol}: {fj.summary()} (lowest "
                         f"--precision-target: {LOWEST})".replace("\n", " "))
    from ..actions import get
    from ..ui.session import join_identity
    action = get("fuzzy_join")
    into = a.into or ctx.session.action_variable(ctx.user_ns, name, hit, action.name,
                                                 action.suffix)
    joined = fj.join(frame, how=a.how)
    matched = int(joined[fj.plan(frame, how=a.how).renamed.get(lcol, lcol)].notna().sum())
    ctx.bind(into, joined)
    of = join_identity(name, hit)
    key = None if a.into else f"{action.name}:{into}"
    if key:
        ctx.session.note(key, joined, of)
    if a.result:
        ctx.bind(a.result, fj)
    if a.insert:
        ctx.insert(fj.code(name, into, how=a.how), key, of, by="%lakejoin fuzzy")
    print(f"Fuzzy join of {name}.{qcol} with {table}.{lcol}: {fj.summary()}")
    print(f"Bound to {into}: {len(joined):,} rows, {matched:,} with a partner.")
    return None


def check_target(p: float) -> None:
    """A precision target the widget takes, else what to give."""
    if not LOWEST <= p <= HIGHEST:
        hint = f" (a fraction: {p / 100:g} for {p:g}%)" if LOWEST * 100 <= p <= 100 else ""
        raise MagicError(f"--precision-target {p:g}: the share of the joined values that "
                         f"should be right, from {LOWEST} to {HIGHEST:g}{hint}; default "
                         f"{PRECISION_TARGET}.")


def _frame(ctx, name: str):
    """The pandas DataFrame the notebook variable ``name`` holds."""
    if name not in ctx.user_ns:
        raise MagicError(f"No DataFrame {name!r} in the notebook: give DF.COLUMN of a "
                         f"pandas DataFrame variable.")
    frame = ctx.user_ns[name]
    if is_spark_frame(frame):
        raise MagicError(f"{name!r} is a Spark DataFrame: the fuzzy join reads the column "
                         f"as pandas; join {name}.toPandas() (or the widget's Fuzzy join).")
    if not isinstance(frame, pd.DataFrame):
        raise MagicError(f"{name!r} is {a_kind(frame)}, not a pandas DataFrame.")
    return frame


def _query(ctx, a):
    """(name, frame, column) of DF.COLUMN or DF --column COL."""
    text = a.query
    if a.column is None and text not in ctx.user_ns and "." in text:
        name, col = text.split(".", 1)
    else:
        name, col = text, a.column
    frame = _frame(ctx, name)
    columns = [str(c) for c in frame.columns]
    if col is None:
        raise MagicError(f"Name the column of {name}: {name}.COLUMN or {name} --column COLUMN "
                         f"(columns: {columns[:20]}).")
    if col not in frame.columns:
        raise MagicError(f"{name} has no column {col!r}; its columns: {columns[:20]}.")
    return name, frame, col


def _lake_column(ctx, a):
    """(table, column) of TABLE.COLUMN or TABLE --lake-column COL, both checked in the open
    index."""
    if a.target is None:
        raise MagicError("Name the lake column to join with: TABLE.COLUMN (or N --from HITS "
                         "for a hit of a saved search).")
    if a.lake_column is not None:
        table, column = a.target, a.lake_column
    elif "." not in a.target:
        raise MagicError(f"Name the column of the lake table {a.target!r}: "
                         f"'{a.target}.COLUMN' or {a.target!r} --lake-column COLUMN.")
    else:
        table, column = a.target.rsplit(".", 1)
    try:
        columns = [str(c) for c in ctx.engine.table(table, max_rows=1).columns]
    except QueryError as e:
        hint = (f" (a column whose name holds a dot: '{a.target.split('.', 1)[0]}' "
                f"--lake-column COLUMN)" if a.lake_column is None and a.target.count(".") > 1
                else "")
        raise MagicError(f"{e}{hint}") from None
    if column not in columns:
        raise MagicError(f"The lake table {table!r} has no column {column!r}; its columns: "
                         f"{columns[:30]}.")
    return table, column


def _from_hit(ctx, a):
    """(name, frame, query column, table, lake column, hit) of hit N of a saved search, its
    frame read as the widget reads it (the frame searched, or said why not)."""
    from ..engine import SearchResult
    if a.target is not None or a.column is not None or a.lake_column is not None:
        raise MagicError("With --from HITS give only the hit's rank N: the saved search names "
                         "the DataFrame column and the hit the lake column.")
    try:
        rank = int(a.query)
    except ValueError:
        raise MagicError(f"With --from {a.source} give the rank of a hit, not "
                         f"{a.query!r}.") from None
    result = ctx.variable(a.source)
    if not isinstance(result, SearchResult):
        raise MagicError(f"{a.source!r} is {a_kind(result)}, not a search result: save one "
                         f"with `%lakejoin search VAR.COLUMN --save {a.source}`.")
    if not result.query_name:
        raise MagicError(f"The search {a.source!r} was not made with a DataFrame of the "
                         f"notebook; search with VAR.COLUMN to join its hits.")
    hits = result.hits
    if not 1 <= rank <= len(hits):
        raise MagicError(f"{a.source} has {len(hits)} hit(s); pick a rank from 1 to "
                         f"{len(hits)}." if hits else f"{a.source} found nothing to join.")
    hit = hits[rank - 1]
    if len(hit.columns) != 1 or len(hit.query_columns) != 1:
        raise MagicError(f"Hit {rank} joins {len(hit.query_columns)} columns; the fuzzy join "
                         f"joins one column with one.")
    name = result.query_name
    frame = _frame(ctx, name)
    if result.searched is not None:
        try:
            frame, changed = result.searched.current(ctx.user_ns, hit.query_columns)
        except QueryError as e:
            raise MagicError(str(e)) from None
        if changed:
            print(f"Note: {changed}")
    return name, frame, hit.query_columns[0], hit.table, hit.columns[0], hit


SUBCOMMAND = Subcommand("fuzzy", "fuzzy-join a DataFrame column to a lake column at a "
                                 "precision target", configure, run, description=DESCRIPTION)
