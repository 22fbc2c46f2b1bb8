"""``%lakejoin ui [VAR[.COLUMN]]``: the discovery widget; with a column it searches at once.
``%lakejoin ui --union VAR``: the widget in Union mode, searching for tables that stack under
VAR at once."""
from __future__ import annotations

from .context import MagicError, Subcommand


def configure(p):
    p.add_argument("frame", nargs="?", help="DataFrame to start with (VAR or VAR.COLUMN)")
    p.add_argument("--column", "-c", action="append", default=[], help="query column(s)")
    p.add_argument("--union", action="store_true",
                   help="Union mode: lake tables whose rows stack under the DataFrame")
    p.add_argument("--no-search", action="store_true",
                   help="only select the column(s); do not search yet")


def run(ctx, a):
    from ..ui.widget import DiscoveryWidget
    frame, cols = a.frame, list(a.column)
    if frame and "." in frame and frame not in ctx.user_ns:
        frame, _, col = frame.partition(".")
        cols.insert(0, col)
    if frame and frame not in ctx.user_ns:
        raise MagicError(f"No variable {frame!r} in the notebook.")
    search = bool(cols or (a.union and frame)) and not a.no_search
    return DiscoveryWidget(session=ctx.session, namespace=ctx.user_ns, frame=frame,
                           columns=cols, search=search, mode="union" if a.union else "join")


SUBCOMMAND = Subcommand("ui", "the discovery widget", configure, run)
