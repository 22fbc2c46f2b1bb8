"""The function behind ``%lakejoin autojoin``: parse the line, look the tables up, run.

    %lakejoin autojoin DF OTHER [--on COL] [--other-on COL] [--no-fuzzy] [--seed N] [--as VAR]

DF is a DataFrame variable of the notebook; OTHER a DataFrame variable or a lake table name.
"""
from __future__ import annotations

import argparse
import shlex

import pandas as pd

from .pipeline import AutoJoinInputError


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise AutoJoinInputError(f"%lakejoin autojoin: {message}. Usage: {self.format_usage()}")


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="%lakejoin autojoin", add_help=False,
                description="Learn the transformation that joins two tables (Auto-Join).")
    p.add_argument("df", help="a DataFrame variable")
    p.add_argument("other", help="a DataFrame variable or a lake table name")
    p.add_argument("--on", action="append", help="column of DF to match (repeatable)")
    p.add_argument("--other-on", action="append", help="column of OTHER to match (repeatable)")
    p.add_argument("--no-fuzzy", action="store_true", help="equality join only")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--as", dest="target", help="store the AutoJoin result in this variable")
    return p


def run_magic(engine, namespace: dict, line):
    """Run ``%lakejoin autojoin`` with ``line`` (a string or an argv list) against
    ``namespace`` (the notebook's user namespace); returns the AutoJoin result."""
    argv = shlex.split(line) if isinstance(line, str) else list(line)
    args = parser().parse_args(argv)
    df = namespace.get(args.df)
    if not isinstance(df, pd.DataFrame):
        raise AutoJoinInputError(f"%lakejoin autojoin: {args.df!r} is not a pandas DataFrame "
                                 f"variable of this notebook.")
    other = namespace.get(args.other)
    if not isinstance(other, pd.DataFrame):
        other = args.other                       # a lake table name
    result = engine.autojoin(df, args.on, other, args.other_on, fuzzy=not args.no_fuzzy,
                             seed=args.seed, left_name=args.df)
    if args.target:
        if not args.target.isidentifier():
            raise AutoJoinInputError(f"--as needs a Python variable name, not {args.target!r}")
        namespace[args.target] = result
    return result
