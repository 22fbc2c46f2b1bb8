"""``%lakejoin autojoin``: learn the transformation that joins two tables (Auto-Join).

    %lakejoin autojoin DF OTHER [--on COL] [--other-on COL] [--no-fuzzy] [--seed N] [--as VAR]
                      [--join VAR] [--insert] [--how left|inner]

DF is a pandas DataFrame variable of the notebook; OTHER a DataFrame variable or, with an
index open, a lake table name. Either may name its column as the other magics do
(``pkgs.name``: ``pkgs --on name``). The AutoJoin result is displayed and,
with ``--as VAR``, stored in VAR (``VAR.join()``, ``print(VAR.code())``); ``--join VAR``
binds the joined frame, ``--insert`` inserts its code (as ``%lakejoin predicate`` does).

:func:`run_magic` is the plain function behind it (usable without IPython).
"""
from __future__ import annotations

import argparse

import pandas as pd

from ..errors import a_kind
from ..join.autojoin import AutoJoinInputError
from .context import Subcommand, add_join_insert_arguments

DESCRIPTION = ("Learn the transformation (split, substring, casing, constants; thesis ch. 4) "
               "that makes a column of DF equal a key column of OTHER, in either direction, "
               "then show the program, the example rows that taught it, how many keys it "
               "joins, and the joined table.")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("df", help="a pandas DataFrame variable of the notebook (VAR, or VAR.COLUMN "
                              "for --on COLUMN)")
    p.add_argument("other", help="a DataFrame variable, or a lake table name (index open); "
                                 "NAME.COLUMN for --other-on COLUMN")
    p.add_argument("--on", action="append", metavar="COL",
                   help="column of DF to match (repeatable; default: every column)")
    p.add_argument("--other-on", action="append", metavar="COL",
                   help="column of OTHER to match (repeatable; default: every column)")
    p.add_argument("--no-fuzzy", action="store_true",
                   help="equality join only (no constrained fuzzy join, §4.6)")
    p.add_argument("--seed", type=int, default=0, help="seed of the example sets (default 0)")
    p.add_argument("--as", dest="target", metavar="VAR",
                   help="store the Auto-Join result in this variable")
    add_join_insert_arguments(p, "the learned program", "DF_OTHER_transformed")
    p.add_argument("--how", choices=["left", "inner"], default="left",
                   help="the join of --join and --insert: left keeps every row of DF "
                        "(default, as %%lakejoin join), inner the matched ones")


def run_magic(namespace: dict, args: argparse.Namespace, engine_getter=None):
    """Run one parsed ``%lakejoin autojoin`` request against ``namespace`` (the notebook's
    variables); ``engine_getter()`` returns the open engine (needed only when OTHER is a
    lake table name). Returns the AutoJoin."""
    from ..join.autojoin import autojoin
    args = argparse.Namespace(**vars(args))
    args.df, args.on = _named_column(args.df, args.on, lambda v: namespace.get(v))
    if args.other not in namespace and engine_getter is not None and "." in args.other:
        args.other, args.other_on = _named_column(
            args.other, args.other_on, lambda v: namespace.get(v, _lake_table(engine_getter, v)))
    elif args.other not in namespace:
        args.other, args.other_on = _named_column(args.other, args.other_on,
                                                  lambda v: namespace.get(v))
    df = namespace.get(args.df)
    if not isinstance(df, pd.DataFrame):
        what = "no variable" if args.df not in namespace else a_kind(df)
        raise AutoJoinInputError(f"%lakejoin autojoin: {args.df!r} is {what}, not a pandas "
                                 f"DataFrame of this notebook (Spark: df.toPandas() first).")
    if args.target is not None and not args.target.isidentifier():
        raise AutoJoinInputError(f"--as needs a Python variable name, not {args.target!r}.")
    options = dict(fuzzy=not args.no_fuzzy, seed=args.seed, left_name=args.df)
    other = namespace.get(args.other)
    if isinstance(other, pd.DataFrame):
        result = autojoin(df, other, args.on, args.other_on, right_name=args.other, **options)
    elif args.other in namespace:
        raise AutoJoinInputError(f"%lakejoin autojoin: {args.other!r} is {a_kind(other)}, "
                                 f"not a pandas DataFrame.")
    else:
        if engine_getter is None:
            raise AutoJoinInputError(f"%lakejoin autojoin: {args.other!r} is not a DataFrame "
                                     f"variable, and no index is open to read it as a lake table.")
        result = engine_getter().autojoin(df, args.on, args.other, args.other_on, **options)
    if args.target:
        namespace[args.target] = result
    return result


def _named_column(text: str, on, lookup):
    """``VAR.COLUMN`` -> (VAR, on + [COLUMN]) when ``text`` itself names nothing and VAR
    (split at its last dot: lake tables may hold dots) names a table with that column;
    otherwise ``text`` and ``on`` unchanged. A table without that column is an error naming
    the column and listing the table's columns."""
    if lookup(text) is not None or "." not in text:
        return text, on
    var, col = text.rsplit(".", 1)
    table = lookup(var)
    if table is None:
        return text, on
    columns = [str(c) for c in getattr(table, "columns", [])]
    if col not in columns:
        raise AutoJoinInputError(f"%lakejoin autojoin: column(s) {[col]} not found; {var} "
                                 f"has: {columns[:30]}")
    return var, [*(on or []), col]


def _lake_table(engine_getter, name: str):
    """The columns of the open index's table ``name`` (an empty frame), or None."""
    from ..index.tables import find_table
    try:
        table = find_table(engine_getter().index, name)
    except Exception:            # no index open, or no such table: not a lake table
        return None
    return pd.DataFrame(columns=list(table.columns))


def _run(ctx, args):
    result = run_magic(ctx.user_ns, args, lambda: ctx.engine)
    if args.join or args.insert:
        _join_and_insert(ctx, args, result)
    return result


def _join_and_insert(ctx, args, result) -> None:
    """``--join VAR`` / ``--insert``: the join of DF by the learned program, bound and its
    code inserted, named by the widget's rule when VAR is not given (the Find transformation
    action's ``<df>_<other>_transformed``, taken back when the magic runs again)."""
    from types import SimpleNamespace

    from ..actions import get
    from ..ui.session import join_identity
    from .context import MagicError
    if not result.found:
        raise MagicError(f"Nothing to join: {result.message}")
    df_name, df_on = _named_column(args.df, args.on, lambda v: ctx.user_ns.get(v))
    other_name, other_on = _named_column(args.other, args.other_on, lambda v: ctx.user_ns.get(
        v, _lake_table(lambda: ctx.engine, v)))
    target, key, of = args.join, None, None
    if not target:      # the join's identity holds its columns: another column, another join
        action = get("autojoin")
        other = SimpleNamespace(table=other_name, query_columns=tuple(df_on or ()),
                                columns=tuple(other_on or ()))
        target = ctx.session.action_variable(ctx.user_ns, df_name, other, action.name,
                                             action.suffix)
        key, of = f"{action.name}:{target}", join_identity(df_name, other)
    df = ctx.user_ns[df_name]
    other_var = other_name if isinstance(ctx.user_ns.get(other_name), pd.DataFrame) else "other"
    joined = result.join(df, how=args.how)
    code = result.code(df_name, target, other=other_var, how=args.how)
    ctx.bind(target, joined)
    if key:
        ctx.session.note(key, joined, of)
    if args.insert:
        ctx.insert(code, key, of, by="%lakejoin autojoin")
    print(f"Joined {df_name} by the learned program ({args.how}): bound to {target}, "
          f"{len(joined)} rows.")


SUBCOMMAND = Subcommand("autojoin", "learn the transformation that joins two tables (Auto-Join)",
                        configure, _run, description=DESCRIPTION)
