"""``%lakejoin`` and ``%%lakejoin``: join discovery from notebook cells.

    %load_ext lakejoin_jupyter
    %lakejoin index --demo --out demo.index     # or: %lakejoin index data/lake --out lake.index
    %lakejoin open lake.index
    %lakejoin search sales.country -k 10 --save hits
    %lakejoin join 2 --from hits                # join hit #2 of that saved search
    %lakejoin fuzzy sales.country 'reference/gdp.Country Name'   # close values, precision 0.9
    %lakejoin ui sales.country                  # the discovery widget, searching at once
    %lakejoin union sales --union 1             # tables that add rows; stack the best
    %lakejoin info

An explicit router over one module per subcommand (:data:`SUBCOMMANDS`). Each subcommand has
``--help``; ``%lakejoin --help`` lists them. Arguments are parsed with argparse after
IPython's ``{expr}``/``$var`` expansion; quote arguments that contain spaces. ``%%lakejoin``
runs one request per line of the cell (a trailing backslash continues a line, ``#`` starts a
comment) and shows the last result. Every error the library foresees (no index open, a
missing column, an unknown method, a file that cannot be written...) is one line without a
traceback, and the kernel stays usable. Nothing is remembered between cells except the open
index: a join names the saved search it comes from, so "Run all" reproduces the notebook.
"""
from __future__ import annotations

import argparse
import shlex

from ..errors import LakeJoinError
from ..ui.session import SESSION, Session
from . import (cmd_autojoin, cmd_fuzzy, cmd_index, cmd_info, cmd_join, cmd_open, cmd_predicate,
               cmd_search, cmd_ui, cmd_union)
from .context import MagicContext, MagicError, Subcommand

__all__ = ["MagicError", "Subcommand", "SUBCOMMANDS", "parse_request", "run_request", "run_cell",
           "load_ipython_extension", "unload_ipython_extension"]

# The subcommands, in the order --help lists them.
SUBCOMMANDS: dict[str, Subcommand] = {s.name: s for s in (
    cmd_index.SUBCOMMAND, cmd_open.SUBCOMMAND, cmd_search.SUBCOMMAND, cmd_join.SUBCOMMAND,
    cmd_ui.SUBCOMMAND, cmd_info.SUBCOMMAND, cmd_autojoin.SUBCOMMAND, cmd_fuzzy.SUBCOMMAND,
    cmd_predicate.SUBCOMMAND, cmd_union.SUBCOMMAND)}


class _HelpShown(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that reports errors as MagicError instead of exiting the kernel."""

    def error(self, message):
        raise MagicError(f"{message}\n{self.format_usage().strip()}  (see {self.prog} --help)")

    def exit(self, status=0, message=None):
        if message:
            print(message)
        raise _HelpShown()


def _build_parser() -> _Parser:
    p = _Parser(prog="%lakejoin", description="Join discovery over a data lake.",
                formatter_class=argparse.RawDescriptionHelpFormatter,
                epilog="Run %lakejoin SUBCOMMAND --help for the options of one subcommand.")
    sub = p.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", parser_class=_Parser)
    for s in SUBCOMMANDS.values():
        sp = sub.add_parser(s.name, help=s.help, description=s.description or s.help,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
        s.configure(sp)
    return p


def parse_request(line: str) -> argparse.Namespace:
    """The arguments of one request line (``subcommand`` names its subcommand), as
    :func:`run_request` reads them, without running it; a MagicError when they do not
    parse (an empty line or a help request included)."""
    try:
        argv = shlex.split(line, comments=True)
    except ValueError as e:
        raise MagicError(f"Cannot parse {line!r}: {e} (check the quotes).") from None
    try:
        args, extra = _build_parser().parse_known_args(argv)
    except _HelpShown:
        args, extra = None, []
    if args is None or args.subcommand is None or extra:
        raise MagicError(f"{line!r} is not one %lakejoin request.")
    return args


def run_request(line: str, shell=None, session: Session = SESSION):
    """Parse and run one request line (what ``%lakejoin LINE`` does)."""
    try:
        argv = shlex.split(line, comments=True)
    except ValueError as e:
        raise MagicError(f"Cannot parse {line!r}: {e} (check the quotes).") from None
    parser = _build_parser()
    if not argv:
        parser.print_help()
        return None
    try:
        args, extra = parser.parse_known_args(argv)
    except _HelpShown:
        return None
    if args.subcommand is None:
        parser.print_help()
        return None
    if extra:
        hint = ""
        if args.subcommand in ("search", "ui") and any("." in x for x in extra):
            hint = (f"; a multi-column key is one DataFrame and a -c per column: "
                    f"%lakejoin {args.subcommand} VAR -c COL1 -c COL2")
        raise MagicError(f"unrecognized arguments: {' '.join(extra)}{hint} "
                         f"(see %lakejoin {args.subcommand} --help)")
    ctx = MagicContext(shell, session)
    try:
        return SUBCOMMANDS[args.subcommand].run(ctx, args)
    except MagicError:
        raise
    except KeyboardInterrupt:
        _cancel_spark_jobs()
        raise MagicError(f"{args.subcommand} was interrupted; nothing was changed.") from None
    except LakeJoinError as e:
        raise MagicError(str(e)) from None
    except OSError as e:        # a path that cannot be read or written: say which
        raise MagicError(f"{args.subcommand}: {e}") from None


def run_cell(cell: str, shell=None, session: Session = SESSION):
    """``%%lakejoin``: one request per line; returns the last request's result."""
    from IPython.display import display
    lines, buf = [], ""
    for raw in cell.splitlines():
        stripped = raw.strip()
        if not buf and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            buf += stripped[:-1] + " "
            continue
        lines.append(buf + stripped)
        buf = ""
    if buf.strip():
        lines.append(buf)
    result = None
    for line in lines:
        if result is not None:
            display(result)
        result = run_request(line, shell, session)
    return result


def _cancel_spark_jobs() -> None:
    try:
        from pyspark.sql import SparkSession

        from ..spark import quiet_py4j
        s = SparkSession.getActiveSession()
        if s is not None:
            with quiet_py4j():
                s.sparkContext.cancelAllJobs()
    except Exception:  # noqa: BLE001 - nothing to cancel
        pass


# ------------------------------------------------------------------ IPython glue

def _magics_class():
    from IPython.core.magic import Magics, line_cell_magic, magics_class

    @magics_class
    class LakeJoinMagics(Magics):
        @line_cell_magic
        def lakejoin(self, line, cell=None):
            """Join discovery over a data lake; `%lakejoin --help` lists the subcommands."""
            if cell is None:
                return run_request(line, self.shell)
            if line.strip():
                cell = line + "\n" + cell
            return run_cell(cell, self.shell)

    return LakeJoinMagics


def load_ipython_extension(ipython) -> None:
    """``%load_ext lakejoin_jupyter``: register the magics, render altair charts offline,
    note the widget's cells as they run (ui/session.py)."""
    from ..charts import enable_offline_rendering
    ipython.register_magics(_magics_class())
    SESSION.watch(ipython)
    enable_offline_rendering()


def unload_ipython_extension(ipython) -> None:
    pass
