"""``%lakejoin`` and ``%%lakejoin``: join discovery from notebook cells.

    %load_ext lakejoin_jupyter
    %lakejoin index --demo --out demo.index     # or: %lakejoin index data/lake --out lake.index
    %lakejoin open lake.index
    %lakejoin search sales.country -k 10        # DataFrame `sales`, column `country`
    %lakejoin join 2 --how left                 # join hit #2 of the last search
    %lakejoin ui sales                          # the discovery widget
    %lakejoin info

Each subcommand has ``--help``; ``%lakejoin --help`` lists them. Arguments are parsed with
argparse after IPython's ``{expr}``/``$var`` expansion, as JupySQL does; quote arguments
that contain spaces. ``%%lakejoin`` runs one request per line of the cell (a trailing
backslash continues a line, ``#`` starts a comment) and shows the last result.

Errors of the library (no index open, a column that does not exist, an empty DataFrame...)
are shown as one clear message, without a traceback, and leave the kernel usable.

Later features add subcommands from their own modules with :func:`register_subcommand`
(the modules of ``join/`` are imported when the extension loads, so a module there that
registers an action can register its subcommand next to it).
"""
from __future__ import annotations

import argparse
import shlex
from dataclasses import dataclass
from typing import Callable

from .errors import LakeJoinError
from .ui.session import SESSION, Session, is_dataframe, unique_name


# ------------------------------------------------------------------ subcommand registry

@dataclass
class Subcommand:
    """One ``%lakejoin NAME ...`` request."""
    name: str
    help: str                                                   # one line, for --help
    configure: Callable[[argparse.ArgumentParser], None]        # adds the arguments
    run: Callable[["MagicContext", argparse.Namespace], object]  # returns what to display
    description: str = ""


SUBCOMMANDS: dict[str, Subcommand] = {}


def register_subcommand(sub: Subcommand) -> Subcommand:
    SUBCOMMANDS[sub.name] = sub
    return sub


class MagicError(LakeJoinError):
    """Shown as one line ("lakejoin: ..."), without a traceback (IPython honours
    ``_render_traceback_``)."""

    def _render_traceback_(self):
        return [f"\x1b[31mlakejoin:\x1b[0m {self}"]


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


class MagicContext:
    """What a subcommand's ``run`` gets: the shell, its namespace and the session."""

    def __init__(self, shell, session: Session):
        self.shell = shell
        self.session = session

    @property
    def user_ns(self) -> dict:
        return self.shell.user_ns if self.shell is not None else {}

    @property
    def engine(self):
        return self.session.require_engine()

    def variable(self, name: str):
        if name not in self.user_ns:
            raise MagicError(f"No variable {name!r} in the notebook.")
        return self.user_ns[name]

    def query(self, text: str, columns=None):
        """(query object, display name, columns) for ``VAR.COLUMN``, ``VAR -c COL`` or a
        lake table name with ``-c COL``."""
        columns = list(columns or [])
        head, dot, rest = text.partition(".")
        if text in self.user_ns:
            name, obj = text, self.user_ns[text]
        elif dot and head in self.user_ns and is_dataframe(self.user_ns[head]):
            name, obj = head, self.user_ns[head]
            columns = [rest] + columns
        else:
            if not columns:
                raise MagicError(
                    f"{text!r} is neither a DataFrame of the notebook (VAR.COLUMN, or VAR "
                    f"--column COL) nor, without --column, a lake table query (TABLE "
                    f"--column COL).")
            return text, text, columns
        if not is_dataframe(obj):
            raise MagicError(f"{name!r} is a {type(obj).__name__}, not a pandas or Spark "
                             f"DataFrame.")
        if not columns:
            raise MagicError(f"Name the query column: {name}.COLUMN or {name} --column COLUMN "
                             f"(columns: {[str(c) for c in obj.columns][:20]}).")
        return obj, name, columns

    def bind(self, name: str, value, overwrite: bool = True) -> str:
        name = unique_name(self.user_ns, name, overwrite=overwrite)
        self.user_ns[name] = value
        return name


def _build_parser() -> _Parser:
    _load_subcommand_modules()
    p = _Parser(prog="%lakejoin", description="Join discovery over a data lake.",
                formatter_class=argparse.RawDescriptionHelpFormatter,
                epilog="Run %lakejoin SUBCOMMAND --help for the options of one subcommand.")
    sub = p.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", parser_class=_Parser)
    for s in SUBCOMMANDS.values():
        sp = sub.add_parser(s.name, help=s.help, description=s.description or s.help,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
        s.configure(sp)
    return p


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
        args = parser.parse_args(argv)
    except _HelpShown:
        return None
    if args.subcommand is None:
        parser.print_help()
        return None
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
    except FileExistsError as e:
        raise MagicError(str(e)) from None


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
    for i, line in enumerate(lines):
        if result is not None:
            display(result)
        result = run_request(line, shell, session)
    return result


def _cancel_spark_jobs() -> None:
    try:
        from pyspark.sql import SparkSession
        s = SparkSession.getActiveSession()
        if s is not None:
            s.sparkContext.cancelAllJobs()
    except Exception:  # noqa: BLE001 - nothing to cancel
        pass


_modules_loaded = False


def _load_subcommand_modules() -> None:
    """Import the modules that may register subcommands (the join/ package, as for actions)."""
    global _modules_loaded
    if _modules_loaded:
        return
    _modules_loaded = True
    from .join import actions
    actions._load()


# ------------------------------------------------------------------ the subcommands

def _configure_index(p):
    p.add_argument("lake", nargs="?", help="folder (or file) of the lake's tables")
    p.add_argument("--out", "-o", required=True, help="index folder to write")
    p.add_argument("--demo", action="store_true", help="index the packaged demo lake")
    p.add_argument("--with", dest="components", action="append", default=[], metavar="COMPONENT",
                   help="also build this optional component (repeatable); -NAME leaves a "
                        "default one out")
    p.add_argument("--master", help="Spark master (default local[*] or LAKEJOIN_SPARK_MASTER)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing index")
    p.add_argument("--reuse", action="store_true",
                   help="open the index at --out if it is already there instead of rebuilding")
    p.add_argument("--num-perm", type=int, default=256, help="MinHash signature length")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _run_index(ctx, a):
    from pathlib import Path

    from . import build_index, open_index
    from .index.store import is_index
    if a.demo == bool(a.lake):
        raise MagicError("Give the lake folder to index, or --demo for the packaged demo lake.")
    if a.reuse and is_index(Path(a.out).expanduser()):
        engine = open_index(a.out, check_lake=False)
        missing = [c for c in a.components if not c.startswith("-") and not engine.index.has(c)]
        if missing:
            with_ = " ".join(f"--with {c}" for c in a.components)
            raise MagicError(
                f"The index at {engine.path} was built without {', '.join(missing)}, which "
                f"--with asks for. Rebuild it (the same command with --overwrite instead of "
                f"--reuse: {with_} --overwrite), or build to another --out.")
        ctx.session.engine = engine
        print(f"Opened the existing index {engine.path} (--reuse).")
        return None
    if a.demo:
        from .demo import demo_lake
        lake = demo_lake()
    else:
        lake = a.lake
    engine = build_index(lake, a.out, master=a.master, overwrite=a.overwrite,
                         num_perm=a.num_perm, components=a.components, progress=not a.quiet)
    ctx.session.engine = engine
    print(engine.build_report.summary())
    return None


def _configure_open(p):
    p.add_argument("path", help="index folder")
    p.add_argument("--no-verify", action="store_true",
                   help="skip the checksum verification of the index files")


def _run_open(ctx, a):
    import warnings

    from . import open_index
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        engine = open_index(a.path, verify=not a.no_verify)
    ctx.session.engine = engine
    c = engine.index.manifest.get("counts", {})
    print(f"Opened {engine.path}: {c.get('indexed_tables', c.get('tables'))} tables, "
          f"{c.get('columns')} columns, {c.get('tokens')} distinct values; methods: "
          f"{', '.join(m.name for m in engine.methods())}.")
    for w in caught:
        print(f"warning: {w.message}")
    return None


def _configure_search(p):
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
    p.add_argument("--save", metavar="VAR", help="also bind the SearchResult to VAR")
    p.add_argument("--chart", action="store_true", help="also show the containment chart")


def _parse_options(items) -> dict:
    out = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise MagicError(f"--option takes NAME=VALUE (got {item!r}).")
        for conv in (int, float):
            try:
                value = conv(value)
                break
            except ValueError:
                continue
        else:
            value = {"true": True, "false": False}.get(value.lower(), value)
        out[name] = value
    return out


def _run_search(ctx, a):
    engine = ctx.engine
    obj, name, cols = ctx.query(a.query, a.column)
    kw = {}
    if a.max_values is not None:
        kw["max_values"] = a.max_values
    query = engine.query(obj, cols if len(cols) > 1 else cols[0], **kw)
    result = engine.search(query, k=None if a.all else a.k, threshold=a.threshold,
                           method=a.method, **_parse_options(a.option))
    ctx.session.remember(result, obj if is_dataframe(obj) else None, name)
    if a.save:
        ctx.bind(a.save, result)
    if a.chart:
        from IPython.display import display

        from .ui.charts import results_chart
        display(result)
        return results_chart(result) if len(result) else None
    return result


def _configure_join(p):
    p.add_argument("rank", nargs="?", type=int, default=1,
                   help="rank of the hit in the last search (default 1)")
    p.add_argument("--how", choices=["left", "inner"], default="left")
    p.add_argument("--duplicates", choices=["all", "first"], default="all",
                   help="all matching lake rows, or the first one per key")
    p.add_argument("--into", metavar="VAR",
                   help="variable for the joined DataFrame (default: named after both tables)")
    p.add_argument("--insert", action="store_true",
                   help="insert the reproducing code as the next cell")
    p.add_argument("--quiet", action="store_true", help="bind the result, show nothing")


def _run_join(ctx, a):
    from .join import actions
    from .join.execute import default_variable
    from .ui.render import display_action_result
    s = ctx.session
    ctx.engine
    if s.last_result is None:
        raise MagicError("Nothing to join yet: run `%lakejoin search VAR.COLUMN` first.")
    if s.last_frame is None:
        raise MagicError("The last search was not made with a DataFrame of the notebook; "
                         "search with VAR.COLUMN to join its hits.")
    hits = s.last_result.hits
    if not 1 <= a.rank <= len(hits):
        raise MagicError(f"The last search has {len(hits)} hit(s); pick a rank from 1 to "
                         f"{len(hits)}." if hits else "The last search found nothing to join.")
    hit = hits[a.rank - 1]
    variable = a.into or unique_name(ctx.user_ns, default_variable(s.last_frame_name, hit.table))
    if not variable.isidentifier():
        raise MagicError(f"{variable!r} is not a valid Python variable name.")
    result = actions.ACTIONS["join"].run(ctx.engine, hit, s.last_frame, how=a.how,
                                         duplicates=a.duplicates, query_name=s.last_frame_name,
                                         variable=variable)
    name = ctx.bind(result.variable, result.joined)
    if a.insert and ctx.shell is not None:
        ctx.shell.set_next_input(result.code, replace=False)
    if not a.quiet:
        display_action_result(result, bound_as=name)
    return None


def _configure_ui(p):
    p.add_argument("frame", nargs="?", help="DataFrame to start with (VAR or VAR.COLUMN)")
    p.add_argument("--column", "-c", action="append", default=[], help="query column(s)")


def _run_ui(ctx, a):
    from .ui.widget import DiscoveryWidget
    frame, cols = a.frame, list(a.column)
    if frame and "." in frame and frame not in ctx.user_ns:
        frame, _, col = frame.partition(".")
        cols.insert(0, col)
    if frame and frame not in ctx.user_ns:
        raise MagicError(f"No variable {frame!r} in the notebook.")
    return DiscoveryWidget(session=ctx.session, namespace=ctx.user_ns, frame=frame,
                           columns=cols)


def _configure_info(p):
    pass


def _run_info(ctx, a):
    from IPython.display import HTML

    from .join.actions import ACTIONS, _load
    from .ui.render import info_html
    engine = ctx.engine
    _load()
    return HTML(info_html(engine.info(), engine.methods(),
                          sorted(ACTIONS.values(), key=lambda x: x.order), list(SUBCOMMANDS)))


for _sub in (
    Subcommand("index", "build an index of a lake with Spark", _configure_index, _run_index),
    Subcommand("open", "open an index (memory-mapped, about a second)", _configure_open, _run_open),
    Subcommand("search", "rank the lake's columns joinable with a query column",
               _configure_search, _run_search),
    Subcommand("join", "join the last search's query with one of its hits", _configure_join,
               _run_join),
    Subcommand("ui", "the discovery widget", _configure_ui, _run_ui),
    Subcommand("info", "what the open index holds and which methods it offers",
               _configure_info, _run_info),
):
    register_subcommand(_sub)


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
    """``%load_ext lakejoin_jupyter``: register the magics, render altair charts offline."""
    from .ui.charts import enable_offline_rendering
    ipython.register_magics(_magics_class())
    enable_offline_rendering()


def unload_ipython_extension(ipython) -> None:
    pass
