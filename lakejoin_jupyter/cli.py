"""The `lakejoin` command: build, extend and inspect indexes, and search them.

    lakejoin index LAKE --out INDEX [--master URL] [--overwrite] [--with COMPONENT]
    lakejoin index --add NEW_TABLES INDEX
    lakejoin index --add COMPONENT INDEX      (joinstats, transform: onto an index built without it)
    lakejoin search INDEX --table FILE_OR_LAKE_TABLE --column NAME [-k 10] [--method M]
    lakejoin info INDEX [--verify]
    lakejoin demo [--out demo.index]

Exit status: 0 success, 1 a clear error (printed without a traceback), 2 bad usage,
141 the reader of the output left (`| head`).
Warnings of the package (the lake changed since the build, ...) are one plain line each.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import re
import sys
import textwrap
import warnings
from pathlib import Path

from ._version import __version__
from .formats import RANK_WORDS, clip_all
from .index_report import example_name
from .errors import LakeJoinError, LakeJoinWarning
from .join.plan import AGGREGATES, DATE_READING_HELP, DATE_READINGS
from .search.registry import parse_option_items

EPILOG = textwrap.dedent("""\
    Spark: builds run on local[*] unless --master or LAKEJOIN_SPARK_MASTER names another
    master (spark://host:7077, yarn, k8s://...). Executors must be able to read the lake
    and write the index folder (use shared storage on a cluster).
    Docs: README.md; notebook use: %load_ext lakejoin_jupyter
    """)


PRECISION_TARGET = 0.9      # the fuzzy join's default precision target (--precision-target)


def add_join_shape_arguments(p) -> None:
    """The options that shape a join (and the fuzzy join's precision target, for a fuzzy /
    semantic hit), shared by ``lakejoin join`` and ``%lakejoin join``."""
    p.add_argument("--how", choices=["left", "inner"], default="left")
    p.add_argument("--duplicates", choices=["all", "first"], default="all",
                   help="all matching lake rows, or the first one per key")
    p.add_argument("--aggregate", choices=("none",) + AGGREGATES, default="none",
                   help="one row per key of a panel table first: the latest by a date or year "
                        "column, the first, the mean or sum of its numeric columns, or the count")
    p.add_argument("--order-by", metavar="COLUMN",
                   help="the date or year column of --aggregate latest (default: the finest "
                        "that is not constant)")
    p.add_argument("--dates", choices=DATE_READINGS, default="auto",
                   help=f"with --aggregate latest, {DATE_READING_HELP}")
    p.add_argument("--precision-target", type=float, default=None, metavar="P",
                   help="a fuzzy / semantic hit (-m pexeso) only: the fuzzy join's precision "
                        f"target, 0.5 to 1 (default {PRECISION_TARGET})")


ADD_HELP = ("add the tables of NEW_TABLES to the existing INDEX; NEW_TABLES 'joinstats' or "
            "'transform' (not an existing path) adds that component instead")


def add_build_option_arguments(p) -> None:
    """The build options of ``lakejoin index`` an index records (``build.options`` of its
    manifest, indexing/pipeline.py ``command_options``), declared once: for the CLI,
    ``%lakejoin index`` and the reader of recorded options (``read_build_options``).
    --minhash-seed and --mate-bits are None when not given (config.BuildSettings defaults)."""
    p.add_argument("--num-perm", type=int, default=256, help="MinHash signature length (default 256)")
    p.add_argument("--minhash-seed", type=int, default=None, metavar="SEED",
                   help="seed of the MinHash hash functions (default 1): another seed draws "
                        "other signatures, e.g. to check that a result does not hang on one "
                        "draw; the index records it and a rebuild or --add keeps it")
    p.add_argument("--mate-bits", type=int, choices=(128, 512), default=None,
                   help="size in bits of the mate component's XASH row super keys (MATE "
                        "§7.3): 128 (default) or 512, fewer false candidate rows for "
                        "multi-column keys at four times the super-key storage; the index "
                        "records it and a rebuild or --add keeps it")
    p.add_argument("--with", dest="with_", action="append", default=[], metavar="COMPONENT",
                   help="also build an optional component (repeatable); see `lakejoin info`")
    p.add_argument("--without", action="append", default=[], metavar="COMPONENT",
                   help="leave out a default component (repeatable)")
    p.add_argument("--set", dest="options", action="append", default=[],
                   metavar="COMPONENT.OPTION=VALUE",
                   help="a component's build option (repeatable), e.g. pexeso.levels=5 "
                        "(fix the PEXESO grid depth instead of the cost model's choice), "
                        "pexeso.embedder=ngram (character n-grams: typos of longer values, builds in seconds; "
                        "default semantic) or lshensemble.num_perm=128 (LSH tables over "
                        "the first 128 signature positions: half the size)")


def build_options(args, error) -> dict:
    """The build options parsed (``add_build_option_arguments``) as BuildSettings keywords;
    --minhash-seed / --mate-bits only when given. ``error(message)`` reports a malformed
    --set (it must raise)."""
    return {"num_perm": args.num_perm,
            "components": tuple(args.with_) + tuple(f"-{c}" for c in args.without),
            "component_options": _component_options(args.options, error),
            **build_sizes(args)}


def build_sizes(args) -> dict:
    """The --minhash-seed / --mate-bits given, as BuildSettings keywords."""
    return {k: v for k, v in (("minhash_seed", args.minhash_seed),
                              ("mate_bits", args.mate_bits)) if v is not None}


class _RecordedOptions(argparse.ArgumentParser):
    """The parser of recorded build options: an error raises ValueError (no exit)."""

    def error(self, message):
        raise ValueError(message)


def read_build_options(words) -> dict:
    """Recorded build options (``build.options`` of a manifest: ``lakejoin index`` words)
    as BuildSettings keywords, read by the parser of ``lakejoin index`` itself; ValueError
    saying what is wrong for an unknown or malformed option."""
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise ValueError(f"not a list of words: {words!r}")
    p = _RecordedOptions(prog="lakejoin index", add_help=False, allow_abbrev=False)
    add_build_option_arguments(p)
    return build_options(p.parse_args(words), p.error)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="lakejoin", description="Find joinable tables in a data lake.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"lakejoin_jupyter {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    ix = sub.add_parser(
        "index", help="build an index of a lake (Spark job), or add tables to one",
        description="Build the index of LAKE (a folder of CSV/TSV/Parquet/JSON-lines tables, "
                    "or files) at INDEX, or with --add, add NEW_TABLES to the existing INDEX "
                    "as a new generation without rebuilding, or add a component (joinstats "
                    "or transform) to an INDEX built without it.",
        epilog="examples:\n  lakejoin index data/lake --out data/lake.index\n"
               "  lakejoin index --add data/new_tables data/lake.index\n"
               "  lakejoin index --add joinstats data/lake.index\n"
               "  lakejoin index --add transform data/lake.index\n"
               "  lakejoin index data/lake --out lake.index --master spark://10.0.0.5:7077",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ix.add_argument("lake", nargs="?", help="folder of tables (searched recursively) or a table file")
    ix.add_argument("--out", "-o", help="index folder to create")
    ix.add_argument("--add", nargs=2, metavar=("NEW_TABLES", "INDEX"), help=ADD_HELP)
    ix.add_argument("--master", help="Spark master URL (default: local[*] or $LAKEJOIN_SPARK_MASTER)")
    ix.add_argument("--overwrite", action="store_true", help="replace an existing index at --out")
    add_build_option_arguments(ix)
    ix.add_argument("--catalog-table", action="append", default=[], metavar="NAME",
                    help="index a Spark catalog table instead of files (repeatable; LAKE omitted)")
    ix.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    se = sub.add_parser(
        "search", help="find the columns of the lake that join with a column",
        description="Rank the lake's columns by how they join with the query column(s):\n"
                    "  by the distinct values they share (exact top-k by default; --threshold\n"
                    "    and -m lshensemble: by containment; two or more columns: composite\n"
                    "    keys, MATE),\n"
                    "  by values within a distance in an embedding space (-m pexeso: fuzzy /\n"
                    "    semantic),\n"
                    "  by the values a learned transformation makes equal (-m transform).\n"
                    "`lakejoin info INDEX` lists the methods the index supports.",
        epilog="examples:\n  lakejoin search lake.index --table sales.csv --column country -k 10\n"
               "  lakejoin search lake.index --table reference/gdp --column 'Country Name'\n"
               "  lakejoin search lake.index --table q.csv --column name --threshold 0.6 "
               "--method lshensemble",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _key_query_arguments(se)
    se.add_argument("-k", type=int, default=10, help="number of results (default 10)")
    se.add_argument("--threshold", type=float, help="minimum containment of the query (0..1)")
    se.add_argument("--method", "-m", default="auto", help="search method (see `lakejoin info`)")
    se.add_argument("--option", "-O", action="append", default=[], metavar="NAME=VALUE",
                    help="a method's option, repeatable (e.g. -m pexeso -O tau=0.4 -O "
                         "joinability=0.5; `lakejoin info INDEX` lists each method's)")
    se.add_argument("--rank", choices=["useful", "overlap"], default="useful",
                    help="useful (default, as the widget and %%lakejoin search rank): joins "
                         "reaching many query rows on an identifier without multiplying them "
                         "first; overlap: the method's own order, distinct values shared")
    _output_arguments(se)

    un = sub.add_parser(
        "union", help="find the lake tables whose rows stack under a table (table union search)",
        description="Rank the lake's tables by how well their columns align with the query "
                    "table's (values, formats, numbers, headers), i.e. which tables add rows "
                    "to it. Needs an index built with the union component (`lakejoin index "
                    "LAKE --out INDEX --with union`).",
        epilog="examples:\n  lakejoin union lake.index --table sales.csv -k 5\n"
               "  lakejoin union lake.index --table sales.csv --column city --column year\n"
               "  lakejoin union lake.index --table sales.csv --stack 1 --out stacked.csv",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _query_table_arguments(un, "left out of its own results")
    un.add_argument("--column", "-c", action="append",
                    help="a query column to align (repeatable; default: every column)")
    un.add_argument("-k", type=int, default=10, help="number of results (default 10)")
    un.add_argument("--stack", type=int, metavar="N",
                    help="stack the N-th result's aligned rows under the query table and write "
                         "them to --out: only the rows the query does not have, each once")
    un.add_argument("--keep-duplicates", action="store_true",
                    help="with --stack: every row of the table, the query's own rows included")
    un.add_argument("--out", "-o", help="with --stack: the file to write (.csv or .parquet)")
    un.add_argument("--overwrite", action="store_true",
                    help="replace an existing --out file (never the query's file or one in "
                         "the lake)")
    _output_arguments(un)

    jo = sub.add_parser(
        "join", help="search as `search` does, join the query table with hit N, write the result",
        description="Search the lake with the query column(s) as `lakejoin search` does (same "
                    "ranking), then join the query table with the N-th hit on the normalized "
                    "key values (as %lakejoin join and the widget's Join do) and write the "
                    "joined table to --out. A \"Needs a transformation\" hit (-m transform) "
                    "is joined through Auto-Join, as hit.autojoin(df).join(df) does in Python; "
                    "a fuzzy / semantic hit (-m pexeso) through the fuzzy join at "
                    "--precision-target, as the widget's Fuzzy join and "
                    "engine.fuzzy_join(table, df, on=(lake column, query column)) do.",
        epilog="examples:\n  lakejoin join lake.index -t sales.csv -c country --hit 1 "
               "--out joined.csv\n"
               "  lakejoin join lake.index -t sales.csv -c country --hit 2 --aggregate latest "
               "--out joined.parquet",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _key_query_arguments(jo)
    jo.add_argument("--hit", type=int, required=True, metavar="N",
                    help="rank of the hit to join with (1: the first `lakejoin search` lists)")
    jo.add_argument("--out", "-o", required=True, help="the file to write (.csv or .parquet)")
    jo.add_argument("--overwrite", action="store_true",
                    help="replace an existing --out file (never the query's file or one in "
                         "the lake)")
    jo.add_argument("--method", "-m", default="auto", help="search method (see `lakejoin info`)")
    jo.add_argument("--option", "-O", action="append", default=[], metavar="NAME=VALUE",
                    help="a method's option, repeatable (as `lakejoin search -O`)")
    jo.add_argument("--rank", choices=["useful", "overlap"], default="useful",
                    help="how the hits are ranked, as `lakejoin search --rank`")
    add_join_shape_arguments(jo)
    jo.add_argument("--no-verify", action="store_true", help="skip checksum verification on open")

    inf = sub.add_parser("info", help="describe an index: counts, components, methods, skipped files",
                         description="Describe an index; --verify also checks every checksum.")
    inf.add_argument("index")
    inf.add_argument("--verify", action="store_true", help="verify all checksums")
    inf.add_argument("--json", action="store_true", help="machine-readable output")
    inf.add_argument("--tables", action="store_true",
                     help="also list every table: its name (what --table takes), rows and columns")

    de = sub.add_parser("demo", help="index the packaged demo lake and run a sample search",
                        description="Build an index over the demo lake that ships with the "
                                    "package (public tables), search it with a country-name "
                                    "column and print the ranked joinable tables.")
    de.add_argument("--out", default="demo.index", help="where to put the demo index (default demo.index)")
    de.add_argument("--rebuild", action="store_true", help="rebuild even if the index exists")
    de.add_argument("--master", help="Spark master URL")
    for command in sub.choices.values():    # a command's usage errors show its own usage
        command.set_defaults(command_parser=command)
    return p


def _key_query_arguments(p) -> None:
    """The index, the query table and its key column(s) of `search` and `join`."""
    _query_table_arguments(p, "then its other columns are marked \"(your table)\" in the "
                              "results")
    p.add_argument("--column", "-c", required=True, action="append",
                   help="query column (repeat for a multi-column key)")


def _query_table_arguments(p, own_table: str) -> None:
    """The index and the query table of `search`, `join` and `union`."""
    p.add_argument("index", help="index folder")
    p.add_argument("--table", "-t", required=True,
                   help="query table: a file (CSV, TSV, Parquet, JSON lines), a Parquet dataset "
                        "folder (Spark's output, partitioned or not) or the name of a "
                        f"table in the index ({own_table})")


def _output_arguments(p) -> None:
    p.add_argument("--format", choices=["table", "csv", "json"], default="table",
                   help="table: aligned text for reading (default); csv or json: one record "
                        "per hit, for programs")
    p.add_argument("--no-verify", action="store_true", help="skip checksum verification on open")


# Commands that start no Spark: run as a program, they end without the interpreter's
# teardown, where a native thread pool still alive (pyarrow's) can abort the process with
# "terminate called without an active exception" (status 134) after the work is done.
QUICK_EXIT = ("search", "union", "join", "info")


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    rc = _run(args, args.command_parser)
    if argv is None and args.command in QUICK_EXIT:     # the console script, not a caller
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BrokenPipeError:
            rc = 141
        os._exit(rc)
    return rc


def _run(args, parser) -> int:
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", LakeJoinWarning)
            warnings.showwarning = _plain_warning
            return {"index": _index, "search": _search, "union": _union, "join": _join,
                    "info": _info, "demo": _demo}[args.command](args, parser)
    except LakeJoinError as e:
        print(f"lakejoin: error: {e}", file=sys.stderr)
        return 1
    except (FileExistsError, FileNotFoundError, ValueError, KeyError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"lakejoin: error: {msg}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("lakejoin: interrupted; nothing was written", file=sys.stderr)
        return 130
    except BrokenPipeError:             # `lakejoin search ... | head`: the reader left
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())   # so that the exit's flush does not fail too
        return 141


_show_warning = warnings.showwarning


def _plain(summary: str) -> str:
    """An action's Markdown summary as terminal text: no bold, no italic marks."""
    text = summary.replace("**", "").replace("*note:*", "note:")
    return re.sub(r"(?<![\w*])\*(\w[^*\n]*?)\*(?![\w*])", r"\1", text)     # *per key*


def _plain_warning(message, category, filename, lineno, file=None, line=None):
    """The package's warnings as one line ("lakejoin: warning: ..."), others as Python shows
    them."""
    if issubclass(category, LakeJoinWarning):
        text = " ".join(str(message).split())
        print(f"lakejoin: warning: {text}", file=file or sys.stderr)
    else:
        _show_warning(message, category, filename, lineno, file, line)


def _component_options(items, error) -> dict:
    """``["pexeso.levels=auto", ...]`` -> ``{"pexeso": {"levels": "auto"}}``; integers and
    floats are converted, everything else stays a string; ``error(message)`` for a
    malformed item."""
    out: dict = {}
    for item in items:
        key, eq, value = item.partition("=")
        comp, dot, name = key.partition(".")
        if not (eq and dot and comp and name):
            error(f"--set takes COMPONENT.OPTION=VALUE, e.g. pexeso.levels=auto "
                         f"(got {item!r})")
        for cast in (int, float):
            try:
                value = cast(value)
                break
            except ValueError:
                continue
        out.setdefault(comp.strip(), {})[name.strip()] = value
    return out


def _names_component(arg: str) -> bool:
    """``--add joinstats INDEX`` adds a component; a path that exists is a folder of tables."""
    from .indexing.pipeline import COMPONENTS
    return arg in COMPONENTS and not Path(arg).exists()


def add_to_index(args, error):
    """``index --add NEW_TABLES INDEX`` of ``lakejoin index`` and ``%lakejoin index``: add
    the tables of NEW_TABLES to INDEX as a new generation, or the component it names
    (joinstats, transform), printing the build's summary and the index's advice or notes.
    ``error(message)`` refuses options that do not go with --add (it must raise). Returns
    the extended index, opened."""
    from .config import BuildSettings
    from .engine import open_index
    from .indexing.pipeline import build
    given = build_options(args, error)
    components, sizes = given["components"], build_sizes(args)
    if args.lake or args.out:
        error("use either `index LAKE --out INDEX` or `index --add NEW_TABLES INDEX`")
    if args.options or sizes:
        flag = "--set" if args.options else "--" + next(iter(sizes)).replace("_", "-")
        error(f"{flag} cannot be used with --add: added tables are indexed with "
              f"the options of the existing index (rebuild it to change them)")
    new, index = args.add
    if _names_component(new):
        if components:
            error("--with/--without cannot be used when adding a component")
        from .indexing.extend import add_component
        print(add_component(index, new, master=args.master, progress=not args.quiet).summary())
        engine = open_index(index, check_lake=False)
        for text in engine.index.notes:
            print(text)
        return engine
    report = build(new, index, master=args.master, settings=BuildSettings(**given),
                   progress=not args.quiet, add=True)
    print(report.summary(phases=args.quiet))
    engine = open_index(index, check_lake=False)
    for text in engine.advice():
        print(text)
    return engine


def _index(args, parser) -> int:
    from .indexing.pipeline import build
    from .config import BuildSettings
    if args.add:
        add_to_index(args, parser.error)
        return 0
    settings = BuildSettings(**build_options(args, parser.error))
    if not args.out or not (args.lake or args.catalog_table):
        parser.error("index needs LAKE and --out INDEX (or --add NEW_TABLES INDEX)")
    report = build(args.lake, args.out, master=args.master, overwrite=args.overwrite,
                   settings=settings, progress=not args.quiet,
                   catalog_tables=args.catalog_table or None)
    print(report.summary(phases=args.quiet))
    return 0


OWN_COLUMNS = ("its query column(s) are left out of the results, its other columns marked "
               "\"(your table)\"")
OWN_TABLE = "it is left out of its own results"


def _read_query_table(engine, table: str, own: str = OWN_TABLE):
    """A file path -> DataFrame read with the lake reader; otherwise a lake table name
    (``own``: what the results do with a file that is a table of the index, as a note)."""
    if not table.strip():
        raise LakeJoinError("--table is empty: name a file (CSV, TSV, Parquet, JSON lines) or "
                            "a table of the index (its path in the lake without the "
                            "extension, e.g. " + repr(example_name(engine)) + ").")
    p = Path(table)
    if p.exists():
        lake_name = _lake_table_of_file(engine, p)
        if lake_name is not None:       # the file is a table of the index: query it by name
            print(f"note: {table} is the lake table {lake_name}; {own}.")
            return None, lake_name
        from .lake.discover import file_format, is_parquet_dataset
        from .lake.read import inspect, read_as_pandas
        if p.is_dir() and not is_parquet_dataset(p):
            raise LakeJoinError(
                f"Cannot read the query table {table!r}: is a folder, but not a Parquet "
                f"dataset (part files, a _SUCCESS marker or key=value partition folders); "
                f"give a table file or such a folder.")
        info = inspect(0, str(p.absolute()), "parquet" if p.is_dir() else file_format(p) or "csv")
        if not info.ok:
            hint = "nothing to search with" if info.hint == "nothing to index" else info.hint
            raise LakeJoinError(f"Cannot read the query table {table!r}: {info.error}"
                                + (f" ({hint})" if hint else ""))
        return read_as_pandas(info), None          # as pandas reads the file
    tables = engine.index.tables
    skipped = tables.loc[(tables["name"] == table) & (tables["status"] != "indexed"), "reason"]
    if len(skipped) and table not in set(tables.loc[tables["status"] == "indexed", "name"]):
        raise LakeJoinError(f"The table {table!r} was skipped when the index was built "
                            f"({skipped.iloc[0]}): it has no values to search with.")
    if table in set(tables["name"]):
        return None, table
    in_lake = tables.loc[tables["path"] == p.as_posix(), "name"].tolist()
    if in_lake:                         # a path relative to the lake's folder
        return None, in_lake[0]
    import difflib
    indexed = tables.loc[tables["status"] == "indexed", "name"].tolist()
    near = difflib.get_close_matches(table, indexed, n=3, cutoff=0.5)
    raise LakeJoinError(
        f"No file {table} (relative to {Path.cwd()}) and no table of that name or path "
        f"in the index: give the path of a CSV, TSV, Parquet or JSON-lines file, or a "
        f"table's name (its path in the lake without the extension, e.g. "
        f"{(near or [example_name(engine)])[0]!r})"
        + (f"; similar names: {', '.join(near)}" if near else "")
        + f". `lakejoin info {engine.index.path} --tables` lists the tables."
        + (f" (Here -t is --table; a minimum containment of {table} is --threshold {table}, "
           f"as %lakejoin search -t writes it.)" if _is_fraction(table) else ""))


def _is_fraction(text: str) -> bool:
    """Whether ``text`` reads as a number in [0, 1] (a threshold given where a table goes)."""
    try:
        return 0.0 <= float(text) <= 1.0
    except ValueError:
        return False


def _lake_table_of_file(engine, path: Path) -> str | None:
    """The name of the index's table read from ``path`` (same file on disk), or None."""
    t = engine.index.tables
    t = t[t["status"] == "indexed"]
    try:
        same = [os.path.samefile(u, path) if os.path.exists(u) else False for u in t["uri"]]
    except OSError:
        return None
    names = t.loc[same, "name"].tolist()
    return names[0] if names else None


def _search(args, parser) -> int:
    from .engine import open_index
    engine = open_index(args.index, verify=not args.no_verify)
    cols = args.column if len(args.column) > 1 else args.column[0]
    frame, name = _read_query_table(engine, args.table, OWN_COLUMNS)
    if frame is not None:                    # "Query: state (file q.csv; ...)"
        query = engine.query(frame, cols)
        query.source = f"file {args.table}"
    else:
        query = name
    res = engine.search(query, cols, k=args.k, threshold=args.threshold, method=args.method,
                        rank=args.rank, **parse_option_items(args.option))
    df = res.to_pandas().drop(columns=["column_ids", "table_id"])
    if not _printed_as_data(df, args.format):
        _print_ranked(res, df)
    return 0


def _join(args, parser) -> int:
    """Search, then join the query table with the hit of rank ``--hit`` and write it."""
    from .actions import join_hit
    from .engine import open_index
    check_out(args.out, args.overwrite)
    if args.hit < 1:
        raise LakeJoinError(f"--hit {args.hit}: give the rank of a hit, 1 or more.")
    engine = open_index(args.index, verify=not args.no_verify)
    check_out_target(engine, args.out, args.table)
    cols = args.column if len(args.column) > 1 else args.column[0]
    frame, name = _read_query_table(engine, args.table, OWN_COLUMNS)
    if frame is None:
        frame = engine.table(name, types="pandas")
    res = engine.search(frame if name is None else name, cols, k=max(10, args.hit),
                        method=args.method, rank=args.rank, **parse_option_items(args.option))
    if args.hit > len(res):          # no hit: what `lakejoin search` says (its advice)
        raise LakeJoinError(f"--hit {args.hit}: the search found {len(res)} hit(s); give a "
                            f"rank between 1 and {len(res)}." if len(res) else
                            f"The search found no column to join {args.table} with. "
                            f"{res.empty_message}")
    hit = res[args.hit - 1]
    if "program_json" in hit.details:
        joined, summary = _join_transformed(engine, args, hit, frame)
    else:       # equal values, or similar ones (PEXESO) through the fuzzy join, as the magic
        check_similar_join(args, args.hit, hit)
        out = join_hit(engine, hit, frame, how=args.how, duplicates=args.duplicates,
                       aggregate=args.aggregate, order_by=args.order_by, dates=args.dates,
                       precision_target=args.precision_target)
        if not out.ok:
            raise LakeJoinError(f"Hit {args.hit} ({hit.table}.{hit.column}): "
                                f"{_plain(out.summary)}")
        joined, summary = out.joined, _plain(out.summary)    # with its advice, as the magic
        s = out.details.get("stats", {})
        if (not s.get("matched_key_unique", True) and args.duplicates == "all"
                and args.aggregate == "none"):
            summary += ("\n(here: --aggregate first, or latest, mean, sum, count; or "
                        "--duplicates first)")
    path = Path(args.out)
    _write_table(joined, path)
    _print_notes(res, sys.stderr)    # the search's (an error stays one line)
    print(summary, file=sys.stderr)
    print(f"Joined {args.table} with {hit.table}: {len(joined):,} rows, "
          f"{joined.shape[1]} columns -> {path}", file=sys.stderr)
    return 0


def refuse_shaping(args, rank: int, how_joined: str, duplicates: bool = False) -> None:
    """The equi-join's shaping options (--duplicates unless ``duplicates`` allows it,
    --aggregate, --order-by, --dates) are refused, in one line, for the hit of ``rank`` that
    ``how_joined`` (a fuzzy or transformation hit)."""
    shaped = [f"--{n.replace('_', '-')} {v}" for n, v, plain in (
        ("duplicates", "all" if duplicates else args.duplicates, "all"),
        ("aggregate", args.aggregate, "none"),
        ("order_by", args.order_by, None), ("dates", args.dates, "auto")) if v != plain]
    if shaped:
        raise LakeJoinError(
            f"{', '.join(shaped)}: hit {rank} {how_joined}; these options shape "
            f"equi-joins only. Leave them out, or join an equality hit.")


def check_similar_join(args, rank: int, hit) -> None:
    """The options of ``lakejoin join`` and ``%lakejoin join`` (the same flags) for a fuzzy /
    semantic (PEXESO) hit, whose values match within a distance, not equal, and which
    ``actions.join_hit`` joins by the fuzzy join: the equi-join's shaping options are refused
    and --precision-target is checked (its default set), each in the flags' words. For
    other hits --precision-target, which they do not use, is refused."""
    if "tau" not in (getattr(hit, "details", None) or {}):
        refuse_precision_target(args, rank, "matches equal values, joined by an equi-join")
        return
    refuse_shaping(args, rank, "matches similar values (fuzzy / semantic), joined by the "
                                "fuzzy join (--duplicates first or all, the default: every "
                                "lake row of a matched value)", duplicates=True)
    if args.precision_target is None:
        args.precision_target = PRECISION_TARGET
    if not 0.5 <= args.precision_target <= 1:
        raise LakeJoinError(f"--precision-target {args.precision_target:g}: give a value "
                            f"between 0.5 and 1.")


def refuse_precision_target(args, rank: int, how_joined: str) -> None:
    """--precision-target, given for the hit of ``rank`` that ``how_joined`` (an equality
    or transformation hit, which no precision target shapes), is refused in one line, as
    the equi-join's options are for a fuzzy hit (:func:`refuse_shaping`)."""
    if args.precision_target is not None:
        raise LakeJoinError(f"--precision-target {args.precision_target:g}: hit {rank} "
                            f"{how_joined}; the option applies only to similar-values hits "
                            f"(-m pexeso), joined by the fuzzy join. Leave it out.")


def _join_transformed(engine, args, hit, frame):
    """A "Needs a transformation" hit joined as in Python: ``aj = hit.autojoin(df)`` (Auto-Join
    learns the program on the rows the hit's program joins), then ``aj.join(df, how=...)``.
    Returns (the joined frame, a line saying what was learned)."""
    from .actions import transformation_join_shape
    refuse_precision_target(args, args.hit, "joins through a learned transformation "
                                            "(Auto-Join)")
    shape = transformation_join_shape(engine, hit, args.duplicates, args.aggregate,
                                      args.order_by, args.dates)
    aj = hit.autojoin(frame)
    if not aj.found:
        raise LakeJoinError(f"Hit {args.hit} ({hit.table}.{hit.column}): {aj.message}")
    joined = aj.join(frame, how=args.how, **shape)
    many = ("" if shape or len(joined) <= len(frame) else
            f" The join repeats query rows ({len(frame):,} -> {len(joined):,}): --aggregate "
            f"first (or latest, mean, sum, count) or --duplicates first keeps one row per "
            f"query row.")
    side = "the query's" if aj.source == "left" else "the lake's"
    shown = hit.details.get("program")
    qcol, lcol = hit.query_columns[0], hit.column
    if hit.details.get("direction") == "query -> lake":
        line = f"Program: {shown}, applied to the query's `{qcol}` (gives the lake's `{lcol}`)."
    else:
        line = f"Program: {shown}, applied to the lake's `{lcol}` (gives the query's `{qcol}`)."
    if aj.program.describe().casefold() != str(shown).casefold():
        line += (f" Auto-Join (hit.autojoin(df)) joined with {aj.program.describe()}, "
                 f"applied to {side} values.")
    for note in ("from_hit", "identity"):
        if aj.stats.get(note):
            line += f" {aj.stats[note]}."
    trust = aj.trust_text()          # as the Python repr says it: a partial program, rough
    line += f" {trust[0].upper()}{trust[1:]}" + (" (hit.autojoin(df).explain() says why)."
                                                 if aj.stats.get("partial") else ".")
    return joined, line + many


def check_out(out: str, overwrite: bool = False) -> None:
    """``--out FILE`` checked before any search or join is run, so that the work is not done
    and then lost: a .csv or .parquet name, not a folder, not an existing file unless
    ``overwrite``, whose missing parent folders can be created (the nearest existing one
    is a writable folder, not a file). Each problem is one line naming the path."""
    path = Path(out).expanduser()
    if path.suffix.lower() not in (".csv", ".parquet"):
        raise LakeJoinError(f"--out {out}: write a .csv or a .parquet file.")
    if path.is_dir():
        raise LakeJoinError(f"--out {out}: is a folder; give a file name in it "
                            f"({path / ('joined' + path.suffix.lower())}, say).")
    if (path.exists() or path.is_symlink()) and not overwrite:
        raise LakeJoinError(f"--out {out}: the file exists; give another path, or --overwrite "
                            f"to replace it (nothing was searched or written).")
    parent = path.absolute().parent
    while not parent.exists() and not parent.is_symlink() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise LakeJoinError(f"--out {out}: {parent} is not a folder, so the file cannot be "
                            f"written under it; give another path.")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise LakeJoinError(f"--out {out}: the folder {parent} is not writable; give a path "
                            f"you can write to.")


def check_out_target(engine, out: str, table: str | None) -> None:
    """``--out FILE`` is never the query's own file or a file in the lake the index reads,
    whatever --overwrite says: writing there would replace the data searched."""
    path = Path(out).expanduser().resolve()
    if table and Path(table).exists() and Path(table).resolve() == path:
        raise LakeJoinError(f"--out {out}: is the query table's file (--table {table}); "
                            f"write the result elsewhere (nothing was written).")
    root = engine.lake_root
    if root and (path == Path(root).resolve() or Path(root).resolve() in path.parents):
        raise LakeJoinError(f"--out {out}: is in the lake the index reads ({root}); writing "
                            f"there would change or add a lake table: write the result "
                            f"outside it (nothing was written).")


def _write_table(frame, path: Path) -> None:
    """Write ``frame`` to a .parquet or .csv file, creating its missing parent folders (as
    :func:`check_out` checked they can be). A column Parquet cannot store, since it
    mixes kinds of values (a stacked query column of text, say dates read from a CSV, under
    a Parquet table's dates), is written as text, each value as the .csv output writes it,
    with a warning naming it. A write that fails all the same (a full disk) is one line."""
    path = path.expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_file(frame, path)
    except OSError as e:
        raise LakeJoinError(f"--out {path}: could not write the file "
                            f"({e.strerror or e}).") from e


def _write_file(frame, path: Path) -> None:
    if path.suffix.lower() != ".parquet":
        frame.to_csv(path, index=False)
        return
    import pyarrow as pa
    try:
        frame.to_parquet(path, index=False)
        return
    except (pa.ArrowTypeError, pa.ArrowInvalid):
        mixed = [j for j in range(frame.shape[1]) if frame.dtypes.iloc[j] == object
                 and len({type(v) for v in frame.iloc[:, j].dropna()}) > 1]
        if not mixed:
            raise
    frame = frame.copy()
    for j in mixed:
        col = frame.iloc[:, j]
        frame.isetitem(j, col.map(str).where(col.notna(), None))
    names = ", ".join(f"`{frame.columns[j]}`" for j in mixed)
    warnings.warn(f"{names} mix kinds of values (e.g. the query's text and the lake "
                  f"table's dates): written to {path} as text, as a .csv would hold them.",
                  LakeJoinWarning, stacklevel=2)
    frame.to_parquet(path, index=False)


def _printed_as_data(df, fmt: str) -> bool:
    """Print ``df`` as CSV or JSON records when ``fmt`` asks for it."""
    if fmt == "csv":
        df.to_csv(sys.stdout, index=False)
    elif fmt == "json":
        print(df.to_json(orient="records", indent=1))
    return fmt in ("csv", "json")


def _union(args, parser) -> int:
    from .engine import open_index
    if args.keep_duplicates and args.stack is None:
        raise LakeJoinError("--keep-duplicates goes with --stack N.")
    if (args.stack is None) != (args.out is None):
        raise LakeJoinError("--stack N and --out FILE go together (which result to stack, and "
                            "where to write the stacked table).")
    if args.out:
        check_out(args.out, args.overwrite)
    engine = open_index(args.index, verify=not args.no_verify)
    if args.out:
        check_out_target(engine, args.out, args.table)
    frame, name = _read_query_table(engine, args.table)
    if frame is None:
        frame = engine.table(name, types="pandas")
    res = engine.search_unionable(frame, k=args.k, columns=args.column or None,
                                  query_table=name)
    df = res.to_pandas().drop(columns=["table_id"])
    if _printed_as_data(df, args.format):
        pass
    elif df.empty:
        print(f"No {'other ' if res.left_out else ''}lake table aligns with the columns of "
              f"{args.table} ({res.seconds * 1000:.1f} ms)"
              + (f": it is the lake table {res.left_out}, left out of its own results."
                 if res.left_out else "."))
    else:
        show = df.drop(columns=["is_query_table"]).assign(
                         table=[t + (" (your table)" if h.is_query_table else "")
                                for t, h in zip(clip_all([h.table for h in res]), res)],
                         score=[f"{v:.3f}" for v in df["score"]],
                         aligned=[f"{a}/{len(res.columns)}" for a in df["aligned"]],
                         rows=[f"{r:,}" for r in df["rows"]],
                         alignment=[h.alignment_text() for h in res])   # --format: whole
        print(f"Query: {len(res.columns)} column(s) of {args.table}; "
              f"{res.seconds * 1000:.1f} ms")
        for n in res.notes:
            print(f"note: {n}")
        print(show.rename(columns={"rows": "table rows"}).to_string(index=False))
        if res.also_matching():         # the own table passed over for k others
            print(res.also_matching())
    if args.stack is not None:
        if not 1 <= args.stack <= len(res):
            raise LakeJoinError(f"--stack {args.stack}: the search found {len(res)} table(s); "
                                f"give a rank between 1 and {len(res)}.")
        from .actions import run_union
        done = run_union(engine, res[args.stack - 1], frame,   # the Union action's summary
                         distinct=not args.keep_duplicates)
        stacked = done.joined
        for part in _plain(done.summary).split("\n\n")[1:]:
            print(part, file=sys.stderr)                        # its warnings and notes
        out = Path(args.out)
        _write_table(stacked, out)
        new, dup = done.details["rows_added"], done.details["duplicates_left_out"]
        print(f"Stacked {res[args.stack - 1].table} under {args.table}: {new:,} "
              f"{'new ' if not args.keep_duplicates else ''}rows added"
              + (f" ({dup:,} already in the query or repeated on the aligned columns, left "
                 f"out)" if dup else "")
              + f", {len(stacked):,} rows -> {out}", file=sys.stderr)
    return 0


def _print_ranked(res, df) -> None:
    q = res.query
    print(f"Query: {', '.join(map(str, q.columns))} ({q.source}; {q.size_label}); "
          f"method {res.method}; ranked by {RANK_WORDS[res.rank]}; {res.seconds * 1000:.1f} ms")
    _print_notes(res)
    if df.empty:
        print(res.empty_message)
        return
    print(res.text_table(df).to_string(index=False))
    for line in res.text_notes(cli=True):   # key warnings, the "would multiply" advice
        print(line)
    if "transformation" in df:
        print("These columns join after the transformation shown, applied to the query's or the "
              "lake's values.\nTo join one: `lakejoin join ... --hit N --out FILE` (Auto-Join), or in a "
              "notebook `aj = hit.autojoin(df)`, then `aj.join(df)` and `aj.code()`; or the "
              "widget's Find transformation.")


def _print_notes(res, file=None) -> None:
    """A search's notes (the index's, the query's), one "note:" line each, as ``lakejoin
    search`` and ``lakejoin join`` print them; not the lake's changes, which the open's
    warning said."""
    for n in res.notes:
        if n != res.lake_changed:
            print(f"note: {n}", file=file or sys.stdout)


def _info(args, parser) -> int:
    from .engine import open_index
    from .errors import IndexVersionError
    try:
        engine = open_index(args.index, verify=args.verify, check_lake=False)
    except IndexVersionError as e:          # an older index: what it holds, then the rebuild
        return _info_of_older(args, e)
    info = engine.info()           # the lake's changes in its advice, not also as a warning
    if args.json:
        info["method_options"] = {m.name: [dataclasses.asdict(p) for p in m.params]
                                  for m in engine.methods()}
        print(json.dumps(info, indent=1, default=str))
        return 0
    from .index_report import index_lines
    print("\n".join(index_lines(engine, info, tables=args.tables)))
    if args.verify:
        print("  checksums: all files verified")
    return 0


def _info_of_older(args, error) -> int:
    """``lakejoin info`` of an index that cannot be searched (another normalization or
    index format version): what its manifest says it holds and was built with, and the
    rebuild (``error``'s text); status 1, as a search of it."""
    from .index.store import MANIFEST
    path = Path(args.index).expanduser().absolute()
    m = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    norm = m.get("normalization") or {}
    lake = m.get("lake") or {}
    c = m.get("counts") or {}
    built = {"path": str(path), "created": m.get("created"), "lake": lake.get("root"),
             "counts": c, "components": sorted(m.get("components") or {}),
             "build_options": (m.get("build") or {}).get("options"),
             "normalization": norm, "format_version": m.get("format_version"),
             "package_version": m.get("package_version"), "skipped": m.get("skipped", []),
             "generations": [g.get("name") for g in m.get("generations", [])],
             "searchable": False, "advice": [str(error)]}
    if args.json:
        print(json.dumps(built, indent=1, default=str))
        return 1
    print(f"Index {path}")
    print(f"  built {built['created']} from {built['lake'] or 'a list of files or tables'} "
          f"(lakejoin_jupyter {built['package_version']}, index format "
          f"v{built['format_version']}, normalization {norm.get('name')} v{norm.get('version')})")
    if c:
        print(f"  {c.get('tables', '?')} tables ({c.get('indexed_tables', '?')} indexed), "
              f"{c.get('columns', 0):,} columns, {c.get('tokens', 0):,} distinct values in the "
              f"base, {c.get('postings', 0):,} postings")
    if built["generations"]:
        print(f"  {len(built['generations'])} added generation(s): "
              f"{', '.join(map(str, built['generations']))}")
    print(f"  components: {', '.join(built['components'])}")
    print(f"  build options: {' '.join(built['build_options'] or []) or '(defaults)'}")
    if built["skipped"]:
        print(f"  skipped {len(built['skipped'])} file(s):")
        for x in built["skipped"]:
            print(f"    {x.get('path')}: {x.get('reason')}")
    if args.tables:
        try:
            import pandas as pd
            t = pd.read_parquet(path / "catalog" / "tables.parquet",
                                columns=["name", "status", "n_rows"])
        except (OSError, ValueError, KeyError, ImportError) as e:
            print(f"  (tables not listed: its catalog is unreadable here: {e})")
        else:
            print("  tables (name, status, rows):")
            for r in t.sort_values("name").itertuples():
                print(f"    {r.name}  {r.status}  {int(r.n_rows or 0):,} rows")
    print(f"  not searchable by this version: {error}")
    return 1


DEMO_TABLE = "fivethirtyeight/fifa/fifa_countries_audience"


def _demo(args, parser) -> int:
    from .indexing.pipeline import build
    from .demo import demo_lake, demo_query
    from .engine import open_index
    from .index.store import is_index
    out = Path(args.out)
    if args.rebuild or not is_index(out):
        print(f"Building the demo index from {demo_lake()} ...", flush=True)
        report = build(demo_lake(), out, master=args.master, overwrite=True, progress=True)
        print(report.summary(phases=False))
    engine = open_index(out)
    query = demo_query()
    print("\nQuery: the `country` column of fivethirtyeight/fifa/fifa_countries_audience.csv "
          f"({query['country'].nunique()} countries, e.g. {', '.join(query['country'].head(3))}); "
          "being a lake table itself, it is left out of its own results\n")
    res = engine.search(DEMO_TABLE, "country", k=10, rank="useful")
    _print_ranked(res, res.to_pandas())
    top = res[0]
    print(f"\nBest match: {top.table} / {top.column}: {top.overlap} shared values; "
          f"unmatched query values include {top.unmatched[:5]}")
    nb = Path(__file__).resolve().parent.parent / "example_notebooks" / "quickstart.ipynb"
    print("\nNext: open the example notebook in JupyterLab:")
    print(f"  .venv/bin/jupyter lab {nb if nb.exists() else 'example_notebooks/quickstart.ipynb'}")
    print("or in any notebook:  %load_ext lakejoin_jupyter   then   %lakejoin open "
          f"{out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
