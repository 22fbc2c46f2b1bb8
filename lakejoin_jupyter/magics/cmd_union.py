"""``%lakejoin union DF``: the lake tables whose rows can be stacked under a DataFrame (table
union search), and optionally the union with one of them and its code."""
from __future__ import annotations

from .context import MagicError, Subcommand


def configure(p):
    p.add_argument("frame", help="DataFrame variable of the notebook (the query)")
    p.add_argument("--column", "-c", action="append", default=[],
                   help="query column (repeatable; default: every column)")
    p.add_argument("-k", type=int, default=10, help="number of tables (default 10)")
    p.add_argument("--save", metavar="VAR", help="bind the UnionResult to VAR")
    p.add_argument("--no-own", action="store_true",
                   help="leave out the table the frame's rows come from (listed last, marked "
                        "\"(your table)\", by default)")
    p.add_argument("--union", type=int, metavar="N",
                   help="stack the rows of hit N (1 = best) under the frame")
    p.add_argument("--into", metavar="VAR",
                   help="with --union: bind the stacked frame to VAR (default "
                        "FRAME_TABLE_union; the same union run again rebinds it; never a "
                        "variable you made)")
    p.add_argument("--insert", action="store_true",
                   help="with --union: insert the reproducing code as the next cell")
    p.add_argument("--quiet", action="store_true",
                   help="with --union: bind the stacked frame, show nothing of it")
    p.add_argument("--keep-duplicates", action="store_true",
                   help="with --union: every row of the table (default: only the rows the "
                        "frame does not have on the aligned columns, each once)")


def run(ctx, a):
    from .. import actions
    from ..ui.render import display_action_result
    from ..ui.session import join_identity
    df = ctx.variable(a.frame)
    res = ctx.engine.search_unionable(df, k=a.k, columns=a.column or None,
                                      include_own=not a.no_own)
    res.query_name = a.frame
    if a.save:
        ctx.bind(a.save, res)
        ctx.session.note(f"union:{a.save}", res)     # the widget's search cell
    if a.union is None:
        if a.into or a.insert or a.keep_duplicates or a.quiet:
            raise MagicError("--into, --insert, --quiet and --keep-duplicates go with --union N "
                             "(which hit to stack).")
        return res
    if not 1 <= a.union <= len(res):
        raise MagicError(f"--union {a.union}: the search found {len(res)} table(s); "
                         f"pick 1..{len(res)}.")
    hit = res[a.union - 1]
    action = actions.UNION_ACTIONS[0]   # its summary says what hit.union would warn of
    # the widget's rule: a re-run (or edited) union takes its own variable back, a user's
    # name is kept
    target = a.into or ctx.session.action_variable(ctx.user_ns, a.frame, hit, action.name,
                                                   action.suffix)
    out = action(ctx.engine, hit, df, distinct=not a.keep_duplicates)
    ctx.bind(target, out.joined)
    key, of = (None if a.into else f"{action.name}:{target}"), join_identity(a.frame, hit)
    if key:
        ctx.session.note(key, out.joined, of)
    code = out.code(a.frame, target)
    if a.insert:
        ctx.insert(code, key, of, by="%lakejoin union")
    if not a.quiet:
        display_action_result(out, bound_as=target, code=code)
    return res


SUBCOMMAND = Subcommand("union", "the lake tables whose rows stack under a DataFrame "
                                 "(table union search)", configure, run)
