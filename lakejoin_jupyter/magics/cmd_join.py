"""``%lakejoin join N --from VAR``: join the query DataFrame of a saved search with its hit N.

The search is named (``%lakejoin search df.col --save VAR``), never "the last one", and the
query DataFrame is read from the notebook when the join runs, so "Run all" joins what the
cells above say; when it is not the frame searched, the summary says so (the widget's rule,
ui/session.py ``Searched``). A fuzzy / semantic (PEXESO) hit is joined by the fuzzy join at
``--precision-target``, as ``lakejoin join`` joins it (``actions.join_hit``); a "Needs a
transformation" hit by the Find transformation action (Auto-Join)."""
from __future__ import annotations

from ..errors import QueryError, a_kind
from ..cli import add_join_shape_arguments, check_similar_join, refuse_precision_target
from .context import MagicError, Subcommand


def configure(p):
    p.add_argument("rank", type=int, help="rank of the hit in the saved search")
    p.add_argument("--from", dest="source", metavar="VAR", required=True,
                   help="the SearchResult saved by %%lakejoin search ... --save VAR")
    add_join_shape_arguments(p)
    p.add_argument("--into", metavar="VAR",
                   help="variable for the joined DataFrame (default: named after both tables, "
                        "the lake column added for a second join of that table; the same "
                        "join run again rebinds it; never a variable you made)")
    p.add_argument("--insert", action="store_true",
                   help="insert the reproducing code as the next cell")
    p.add_argument("--quiet", action="store_true", help="bind the result, show nothing")


def run(ctx, a):
    from .. import actions
    from ..engine import SearchResult
    from ..ui.render import display_action_result, markdown_text
    from ..ui.session import join_identity
    engine = ctx.engine
    result = ctx.variable(a.source)
    if not isinstance(result, SearchResult):
        raise MagicError(f"{a.source!r} is {a_kind(result)}, not a search result: save "
                         f"one with `%lakejoin search VAR.COLUMN --save {a.source}`.")
    name = getattr(result, "query_name", None)
    if not name:
        raise MagicError(f"The search {a.source!r} was not made with a DataFrame of the notebook; "
                         f"search with VAR.COLUMN to join its hits.")
    hits = result.hits
    if not 1 <= a.rank <= len(hits):
        raise MagicError(f"{a.source} has {len(hits)} hit(s); pick a rank from 1 to "
                         f"{len(hits)}." if hits else f"{a.source} found nothing to join.")
    hit = hits[a.rank - 1]
    # the frame the code names, as the widget joins it: said when it is not the one searched
    if result.searched is None:              # a search no front end recorded: as it is now
        frame, changed = ctx.variable(name), ""
    else:
        try:
            frame, changed = result.searched.current(ctx.user_ns, hit.query_columns)
        except QueryError as e:
            raise MagicError(str(e)) from None
    # a "Needs a transformation" hit (-m transform) is joined by Auto-Join, as the widget's
    # Find transformation and `lakejoin join` join it
    # a similar-values (PEXESO) hit is joined by the fuzzy join and named as the widget's
    # Fuzzy join names it (<query>_<table>_fuzzy), so an equality join never replaces it
    action = actions.get("autojoin" if "program_json" in hit.details else
                         "fuzzy_join" if "tau" in hit.details else "join")
    # the widget's rule: a re-run (or edited) join takes its own variable back, a join of
    # the table on another lake column gets that column's name, a user's name is kept
    into = a.into or ctx.session.action_variable(ctx.user_ns, name, hit, action.name,
                                                 action.suffix)
    if action.name == "autojoin":
        out = _join_transformed(engine, hit, frame, name, a)
    else:
        check_similar_join(a, a.rank, hit)     # a PEXESO hit: the CLI's checks, in its words
        out = actions.join_hit(engine, hit, frame, how=a.how, duplicates=a.duplicates,
                               aggregate=a.aggregate, order_by=a.order_by, dates=a.dates,
                               precision_target=a.precision_target, frame_name=name)
        if not out.ok:          # no fuzzy join reaches the target: why, as the CLI says it
            raise MagicError(f"Hit {a.rank} ({hit.table}.{hit.column}): "
                             f"{markdown_text(out.summary).strip()}")
    if changed:
        out.summary = f"**Note:** {changed}\n\n{out.summary}"
    ctx.bind(into, out.joined)
    key = None if a.into else f"{action.name}:{into}"
    if key:
        ctx.session.note(key, out.joined, join_identity(name, hit))
    code = out.code(name, into)
    if a.insert:
        ctx.insert(code, key, join_identity(name, hit), by="%lakejoin join")
    if not a.quiet:
        display_action_result(out, bound_as=into, code=code)
    return None


def _join_transformed(engine, hit, frame, name: str, a):
    """The Find transformation action on a transform hit (Auto-Join learns on the rows the
    hit's program joins), joined ``--how``, and ``--duplicates`` / ``--aggregate`` /
    ``--order-by`` / ``--dates`` as the equi-join's (the widget's Find transformation
    options)."""
    from .. import actions
    refuse_precision_target(a, a.rank, "joins through a learned transformation (Auto-Join)")
    out = actions.get("autojoin")(engine, hit, frame, how=a.how, duplicates=a.duplicates,
                                  aggregate=a.aggregate, order_by=a.order_by, dates=a.dates,
                                  frame_name=name)
    if not out.ok or out.joined is None:
        raise MagicError(f"Hit {a.rank} ({hit.table}.{hit.column}): {out.summary.replace('**', '')}")
    return out


SUBCOMMAND = Subcommand("join", "join the query of a saved search with one of its hits",
                        configure, run)
