"""``%lakejoin index``: build an index of a lake with Spark (or reuse one already built), or
add tables or a component to one (``--add``, as ``lakejoin index --add``: cli.add_to_index)."""
from __future__ import annotations

from ..cli import (ADD_HELP, add_build_option_arguments, add_to_index, build_options,
                   build_sizes)
from .context import MagicError, Subcommand


def configure(p):
    p.add_argument("lake", nargs="?", help="folder (or file) of the lake's tables")
    p.add_argument("--out", "-o", help="index folder to write")
    p.add_argument("--add", nargs=2, metavar=("NEW_TABLES", "INDEX"),
                   help=ADD_HELP + "; then opens INDEX")
    p.add_argument("--demo", action="store_true", help="index the packaged demo lake")
    p.add_argument("--master", help="Spark master (default local[*] or LAKEJOIN_SPARK_MASTER)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing index")
    p.add_argument("--reuse", action="store_true",
                   help="open the index at --out if it is already there instead of rebuilding "
                        "(rebuilt, with its options, when the lake changed since its build or "
                        "another version of lakejoin built it; an index of another lake is "
                        "refused)")
    add_build_option_arguments(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(ctx, a):
    from pathlib import Path

    from ..engine import build_index, check_rebuild, open_index
    from ..errors import IndexVersionError
    from ..index.store import is_index
    if a.add:
        given = [f for f, on in (("--demo", a.demo), ("--reuse", a.reuse),
                                 ("--overwrite", a.overwrite)) if on]
        if given:
            raise MagicError(f"{given[0]} cannot be used with --add, which adds to the "
                             f"existing index.")
        ctx.session.engine = add_to_index(a, _refuse)
        return None
    if not a.out:
        raise MagicError("Give --out INDEX, the index folder to write (or --add NEW_TABLES "
                         "INDEX to add tables to an existing index).")
    if a.demo == bool(a.lake):
        raise MagicError("Give the lake folder to index, or --demo for the packaged demo lake.")
    given = build_options(a, _refuse)
    overwrite, rebuild, in_place = a.overwrite, False, False
    engine = None
    kept = {}
    if a.demo:
        from ..demo import demo_lake
        lake = demo_lake()
    else:
        lake = a.lake
    if a.reuse and is_index(Path(a.out).expanduser()):
        try:
            engine = open_index(a.out, check_lake=False)
        except IndexVersionError as e:     # built by another version: rebuilt, as --reuse means
            check_rebuild(lake, a.out)     # (of its own lake only: another's is refused)
            print(f"Rebuilding {a.out} (--reuse), with the options it was built with: "
                  f"{e}".split("; rebuild")[0] + ".")
            rebuild = True                 # (the build checks the lake again, under its lock)
    if engine is not None:
        engine = _same_lake_or_rebuild(engine, lake, a.demo)
        if engine is None:                 # its lake changed: rebuilt
            overwrite = in_place = True
    if in_place or rebuild:                # --reuse rebuilds it with the options it was
        kept = _recorded(a.out)            # built with, whatever made it rebuild
    if engine is not None:
        missing = [c for c in given["components"]
                   if not c.startswith("-") and not engine.index.has(c)]
        if missing:
            with_ = " ".join(f"--with {c}" for c in given["components"])
            raise MagicError(
                f"The index at {engine.path} was built without {', '.join(missing)}, which "
                f"--with asks for. Rebuild it (the same command with --overwrite instead of "
                f"--reuse: {with_} --overwrite), or build to another --out.")
        _same_sizes_or_refuse(engine, a)
        ctx.session.engine = engine
        print(f"Opened the existing index {engine.path} (--reuse).")
        return None
    cell = given["components"]
    components = list(cell) + [c for c in kept.pop("components", ())
                               if c not in cell and f"-{c}" not in cell]
    options = kept.pop("component_options", {})
    for comp, opts in given["component_options"].items():    # given in the cell: wins
        options[comp] = {**options.get(comp, {}), **opts}
    kept.update(build_sizes(a))          # given in the cell: wins over the recorded ones
    engine = build_index(lake, a.out, master=a.master, overwrite=overwrite, rebuild=rebuild,
                         num_perm=kept.pop("num_perm", a.num_perm), components=components,
                         component_options=options, progress=not a.quiet, **kept)
    ctx.session.engine = engine
    print(engine.build_report.summary(phases=a.quiet))
    return None


def _same_sizes_or_refuse(engine, a) -> None:
    """``--reuse`` of an index built with another --minhash-seed or --mate-bits than the
    cell asks for: refused (its signatures or super keys are not those asked for)."""
    from ..indexing.pipeline import recorded_settings
    s = recorded_settings(engine.index.manifest)
    if a.mate_bits is not None and not engine.index.has("mate"):
        return                           # an index without mate: its XASH size is moot
    for flag, want, have in (("--minhash-seed", a.minhash_seed, s.minhash_seed),
                             ("--mate-bits", a.mate_bits, s.mate_bits)):
        if want is not None and want != have:
            raise MagicError(
                f"The index at {engine.path} was built with {flag} {have}, not {want} as "
                f"this cell asks. Rebuild it (the same command with --overwrite instead of "
                f"--reuse), or build to another --out.")


def _same_lake_or_rebuild(engine, lake, demo: bool = False):
    """``--reuse`` of an opened index: refused when it is the index of another lake (the
    engine's rule, :func:`~lakejoin_jupyter.engine.check_rebuild`: a rebuild would replace an
    index the user may still need); None (rebuild it) when its lake changed since the build,
    as a re-run cell expects the index of the lake as it is now; the engine when nothing
    changed. An index with added tables (``--add``) is opened with the lake-change warning
    instead: a rebuild from the cell would drop them. The demo lake is recognised by its
    folder (a package installed elsewhere holds it too)."""
    from pathlib import Path

    from ..engine import check_rebuild
    from ..errors import IndexOfAnotherLakeError
    try:
        check_rebuild(lake, engine.path)
    except IndexOfAnotherLakeError as e:
        if not (demo and Path(e.recorded).parts[-2:] == Path(lake).parts[-2:]):
            raise MagicError(
                f"The index at {engine.path} is the index of the lake {e.recorded}, not of "
                f"{e.given}: --reuse opens only an index of the same lake. Use --overwrite "
                f"instead of --reuse to replace it with the index of {e.given}, or another "
                f"--out.") from None
    changes = engine.index.find_lake_changes()
    if not changes:
        return engine
    if len(engine.index.generations) > 1:
        engine.index.lake_changes = changes
        print(f"warning: {engine.index.lake_changed_message(changes)}")
        return engine
    shown = "; ".join(changes[:3]) + (f" (and {len(changes) - 3} more)" if len(changes) > 3 else "")
    print(f"Rebuilding {engine.path} (--reuse), with the options it was built with: the lake "
          f"changed since its build: {shown}.")
    return None


def _recorded(out) -> dict:
    """The build settings the index at ``out`` records as ``build_index`` keywords, so a
    rebuild keeps them: the options it was built with (``build.options`` of its manifest,
    read by the parser of ``lakejoin index``: cli.py ``read_build_options``), else those its
    sections record (indexing/pipeline.py ``recorded_settings``); of an index another
    version built, as its manifest writes them. Recorded options this version cannot
    read: MagicError naming the index and the command that rebuilds it."""
    import json
    from pathlib import Path

    from ..cli import read_build_options
    from ..errors import IndexVersionError
    from ..index.store import MANIFEST, read_manifest, rebuild_command
    from ..indexing.pipeline import recorded_settings
    try:
        manifest = read_manifest(out)
    except IndexVersionError:           # built by another version: its record as written
        manifest = json.loads((Path(out).expanduser() / MANIFEST).read_text(encoding="utf-8"))
    s = recorded_settings(manifest)
    kept = {"components": list(s.components), "num_perm": s.num_perm,
            "minhash_seed": s.minhash_seed, "mate_bits": s.mate_bits,
            "component_options": s.component_options}
    words = (manifest.get("build") or {}).get("options")
    if words is None:
        return kept
    try:
        given = read_build_options(words)
    except ValueError as e:
        raise MagicError(
            f"The index at {out} records build options (build.options of its manifest) that "
            f"this lakejoin_jupyter cannot read: {e}. Rebuild it with the options you want: "
            f"{rebuild_command(out, dict(manifest, build={}))}; or build to another --out.")
    return {**kept, **given, "components": list(given["components"])}


def _refuse(message: str):
    """A malformed build option of the cell: a MagicError saying what is wrong."""
    raise MagicError(message)


SUBCOMMAND = Subcommand(
    "index", "build an index of a lake with Spark, or add tables to one", configure, run,
    description="Build the index of LAKE at --out and open it; or, with --add NEW_TABLES "
                "INDEX, add the tables of NEW_TABLES (or the joinstats or transform "
                "component) to the existing INDEX as `lakejoin index --add` does, and open it.")
