"""``%lakejoin info``: what the open index holds (the report ``lakejoin info`` prints:
index_report.py), its methods, the actions and subcommands."""
from __future__ import annotations

from .context import Subcommand


def configure(p):
    p.add_argument("--tables", action="store_true",
                   help="also list every table: its name (what a search takes), rows and columns")


def run(ctx, a):
    from ..actions import ACTIONS
    from ..index_report import index_lines
    from ..ui.render import info_display
    from . import SUBCOMMANDS
    engine = ctx.engine
    lines = index_lines(engine, engine.info(), tables=a.tables, methods=False,
                        tables_hint="`%lakejoin info --tables` lists them")
    return info_display(lines, engine.methods(), list(ACTIONS), list(SUBCOMMANDS))


SUBCOMMAND = Subcommand("info", "what the open index holds and which methods it offers",
                        configure, run)
