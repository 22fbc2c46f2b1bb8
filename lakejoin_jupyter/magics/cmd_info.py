"""``%lakejoin info``: what the open index holds, its methods, the actions and subcommands."""
from __future__ import annotations

from .context import Subcommand


def configure(p):
    pass


def run(ctx, a):
    from ..actions import ACTIONS
    from ..ui.render import info_display
    from . import SUBCOMMANDS
    engine = ctx.engine
    return info_display(engine.info(), engine.methods(), list(ACTIONS), list(SUBCOMMANDS))


SUBCOMMAND = Subcommand("info", "what the open index holds and which methods it offers",
                        configure, run)
