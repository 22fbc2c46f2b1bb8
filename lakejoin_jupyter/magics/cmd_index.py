"""``%lakejoin index``: build an index of a lake with Spark (or reuse one already built).

An interrupt (the notebook's stop button) cancels the Spark jobs and a failure stops the
build; either way the cell shows one line that says so and that nothing was written, the
progress bar ends red where it stopped, and py4j's and pyspark's own tracebacks and
warnings stay out of the cell (spark.py).
"""
from __future__ import annotations

import warnings

from ..errors import LakeJoinError
from .context import MagicError, Subcommand


def configure(p):
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


def run(ctx, a):
    from pathlib import Path

    from ..engine import open_index
    from ..index.store import is_index
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
        from ..demo import demo_lake
        lake = demo_lake()
    else:
        lake = a.lake
    engine = _build(lake, a)
    ctx.session.engine = engine
    print(engine.build_report.summary())
    return None


def _build(lake, a):
    from ..engine import build_index
    from ..index.store import check_destination
    from ..spark import error_line, get_spark, interrupts_cancel_jobs
    unchanged = (f"nothing was written; the index at {a.out} is unchanged" if a.overwrite
                 else f"nothing was written to {a.out}")
    check_destination(a.out, a.overwrite)       # a wrong --out says so before Spark starts
    try:
        spark = get_spark(master=a.master)       # before the guard: it sets its own handler
    except KeyboardInterrupt:
        raise MagicError(f"Interrupted while Spark was starting; {unchanged}.") from None
    with interrupts_cancel_jobs() as stop, warnings.catch_warnings(record=True) as caught:
        try:
            engine = build_index(lake, a.out, spark=spark, overwrite=a.overwrite,
                                 num_perm=a.num_perm, components=a.components,
                                 progress=not a.quiet)
        except BaseException as e:  # noqa: BLE001 - one line each; tracebacks stay out
            if stop.interrupted or isinstance(e, KeyboardInterrupt):
                raise MagicError(f"Interrupted: the index build stopped and {unchanged}.") \
                    from None
            if isinstance(e, LakeJoinError):
                raise MagicError(f"{e} ({unchanged})") from None
            if not isinstance(e, Exception):
                raise
            raise MagicError(f"The index build failed: {error_line(e)} ({unchanged}; Spark's "
                             f"log has the details).") from None
    for w in caught:        # a finished build's warnings still show (a failed one's are noise)
        warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    return engine


SUBCOMMAND = Subcommand("index", "build an index of a lake with Spark", configure, run)
