"""``%lakejoin index``: build an index of a lake with Spark (or reuse one already built)."""
from __future__ import annotations

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
                   help="open the index at --out if it is already there instead of rebuilding "
                        "(one built by another version of lakejoin is rebuilt)")
    p.add_argument("--num-perm", type=int, default=256, help="MinHash signature length")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(ctx, a):
    from pathlib import Path

    from ..engine import build_index, open_index
    from ..errors import IndexVersionError
    from ..index.store import is_index
    if a.demo == bool(a.lake):
        raise MagicError("Give the lake folder to index, or --demo for the packaged demo lake.")
    overwrite = a.overwrite
    engine = None
    if a.reuse and is_index(Path(a.out).expanduser()):
        try:
            engine = open_index(a.out, check_lake=False)
        except IndexVersionError as e:     # built by another version: rebuilt, as --reuse means
            print(f"Rebuilding {a.out} (--reuse): {e}".split("; rebuild")[0] + ".")
            overwrite = True
    if engine is not None:
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
    engine = build_index(lake, a.out, master=a.master, overwrite=overwrite,
                         num_perm=a.num_perm, components=a.components, progress=not a.quiet)
    ctx.session.engine = engine
    print(engine.build_report.summary(phases=a.quiet))
    return None


SUBCOMMAND = Subcommand("index", "build an index of a lake with Spark", configure, run)
