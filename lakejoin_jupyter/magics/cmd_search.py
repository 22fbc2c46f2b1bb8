"""``%lakejoin search``: rank the lake's columns joinable with a query column."""
from __future__ import annotations

import warnings

from ..errors import LakeChangedWarning
from ..frames import is_dataframe
from ..search.registry import parse_option_items
from ..ui.session import Searched
from .context import Subcommand


def configure(p):
    p.add_argument("query", help="VAR.COLUMN (a DataFrame of the notebook), VAR with --column, "
                                 "or a lake TABLE with --column")
    p.add_argument("--column", "-c", action="append", default=[],
                   help="query column (repeat for a multi-column key)")
    p.add_argument("-k", type=int, default=10, help="number of hits (default 10)")
    p.add_argument("--all", action="store_true", help="every hit (no k)")
    p.add_argument("--threshold", "-t", type=float,
                   help="minimum containment of the query's values (0..1)")
    p.add_argument("--method", "-m", default="auto",
                   help="search method (see %%lakejoin info); default: the best exact one")
    p.add_argument("--option", "-O", action="append", default=[], metavar="NAME=VALUE",
                   help="method-specific option (repeatable)")
    p.add_argument("--max-values", type=int,
                   help="Spark DataFrame queries: sample above this many distinct values")
    p.add_argument("--save", metavar="VAR",
                   help="bind the SearchResult to VAR (then: %%lakejoin join N --from VAR)")
    p.add_argument("--rank", choices=["useful", "overlap"], default="useful",
                   help="useful (default): joins that reach many query rows on an identifier "
                        "without multiplying them first; overlap: the search method's order "
                        "(distinct values shared)")
    p.add_argument("--no-own", action="store_true",
                   help="leave out the query's own table and tables already joined into it")
    p.add_argument("--chart", action="store_true", help="also show the containment chart")




def run(ctx, a):
    engine = ctx.engine
    obj, name, cols = ctx.query(a.query, a.column)
    kw = {}
    if a.max_values is not None:
        kw["max_values"] = a.max_values
    query = engine.query(obj, cols if len(cols) > 1 else cols[0], **kw)
    with warnings.catch_warnings():         # a lake changed since the build: the result's
        warnings.simplefilter("ignore", LakeChangedWarning)     # note says it, every time
        result = engine.search(query, k=None if a.all else a.k, threshold=a.threshold,
                               method=a.method, rank=a.rank, include_own=not a.no_own,
                               **parse_option_items(a.option))
    result.query_name = name if is_dataframe(obj) else None
    if result.query_name:              # what a join of its hits checks the frame against
        result.searched = Searched.of(name, obj, cols)
        ctx.session.note_searched(result.searched)
    if a.save:
        ctx.bind(a.save, result)
        ctx.session.note(f"search:{a.save}", result)     # the widget's search cell
    if a.chart:
        from IPython.display import display

        from ..charts import results_chart, themed
        display(result)
        return themed(results_chart(result)) if len(result) else None
    return result


SUBCOMMAND = Subcommand("search", "rank the lake's columns joinable with a query column",
                        configure, run)
