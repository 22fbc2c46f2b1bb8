"""``%lakejoin predicate LEFT RIGHT``: the join predicate (set of column pairs) that best fits
a result-set preference, its comparison table, and optionally the join and its code."""
from __future__ import annotations

from types import SimpleNamespace

from ..join.schemaless import PREFERENCES
from .context import MagicError, Subcommand, add_join_insert_arguments

PREFERENCE_HELP = "; ".join(f"{k}: {v.label}" for k, v in PREFERENCES.items())


def configure(p):
    p.add_argument("left", help="DataFrame variable of the notebook (the left table)")
    p.add_argument("right", help="DataFrame variable or lake table name (the right table)")
    p.add_argument("--preference", "-p", default="h5", choices=tuple(PREFERENCES),
                   help=PREFERENCE_HELP)
    p.add_argument("--seed", action="append", default=[], metavar="LEFT_COL=RIGHT_COL",
                   help="only predicates containing this column pair (repeatable)")
    p.add_argument("--max-pairs", type=int, default=None,
                   help="at most this many column pairs in a predicate")
    p.add_argument("--time-limit", type=float, default=None,
                   help="stop after S seconds with the best predicate so far (default 60)")
    add_join_insert_arguments(p, "the chosen predicate", "LEFT_RIGHT_predicate")


def run(ctx, ns):
    left = ctx.variable(ns.left)
    seeds = []
    for s in ns.seed:
        if "=" not in s:
            raise MagicError(f"--seed takes LEFT_COLUMN=RIGHT_COLUMN (got {s!r}).")
        a, b = s.split("=", 1)
        seeds.append((a.strip(), b.strip()))
    other = ctx.user_ns.get(ns.right, ns.right)
    opts = {} if ns.time_limit is None else {"time_limit": ns.time_limit}
    res = ctx.engine.best_predicate(left, other, preference=ns.preference,
                                    seed_pair=seeds or None, max_pairs=ns.max_pairs,
                                    left_name=ns.left, **opts)
    if (ns.join or ns.insert) and res.predicate:
        target, key, of = ns.join, None, None
        if not target:
            # the widget's rule (its Best join predicate action): once the inserted cell
            # has run, the magic run again takes its variable back; a user's name is kept
            from ..actions import get
            from ..ui.session import join_identity
            action, right = get("predicate"), SimpleNamespace(table=ns.right)
            target = ctx.session.action_variable(ctx.user_ns, ns.left, right, action.name,
                                                 action.suffix)
            key, of = f"{action.name}:{target}", join_identity(ns.left, right)
        other_name = ns.right if ns.right in ctx.user_ns else "other"
        code = res.code(ns.left, target, other=other_name)
        if ns.join:
            ctx.bind(target, res.join(left))
        if ns.insert:
            ctx.insert(code, key, of, by="%lakejoin predicate")
    return res


SUBCOMMAND = Subcommand("predicate",
                        "the join predicate (column pairs) that best fits a preference h1-h5",
                        configure, run)
