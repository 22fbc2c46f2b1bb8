"""Orchestrates an index build: discover -> read the lake once -> derive -> components -> commit.

    discover (driver)        lake/discover.py: files and their fingerprint
    read (Spark, one job)    indexing/read.py: each file read once (sniff + parse) into the
                             long form (values, cells, columns) in a scratch folder; the
                             per-column profile (profile.py) and MinHash signature
                             (minhash.py) are computed in the same task
    profile (driver)         the columns' profiles -> catalog/columns.parquet
    dictionary (Spark)       indexing/dictionary.py: shuffle by token, Arrow grouping, one sort
    sets, postings (driver)  indexing/postings.py: numpy over the sorted lists -> CSR .npy
    components               JOSIE, LSH Ensemble, MATE (default), PEXESO, ...: Spark jobs over
                             the long form and the core arrays
    commit                   index/store.py: checksums, manifest, rename into place

A progress line is printed per phase; the phases (including starting Spark) add up to the
build's wall time, which the report gives with their sum. A build that started Spark stops
it afterwards, JVM included; a session the caller passed or already had is left running.
The whole build holds the out path's lock (index/lock.py): a second build of the same path
is refused, naming the first; the build first repairs a commit a crash interrupted and
removes the folders of dead builds of the path. A failing Spark job is reported in one
line (spark.py ``spark_job``). Nothing is persisted in Spark's memory: the long form and
the core's arrays are files in the index's scratch folder, removed before the commit.

Components are listed in :data:`COMPONENTS`; each receives the
:class:`~.component.BuildContext` and returns its manifest section.
"""
from __future__ import annotations

import logging
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..config import BuildSettings, SparkSettings
from ..errors import EmptyLakeError
from ..index.arrays import IndexArrays
from ..index.lock import BuildLock, describe
from ..index.store import (ARRAY_FILES, GenerationWriter, IndexWriter, LakeIndex,
                           check_destination, check_same_lake, is_index, read_manifest,
                           recover_commit, remove_dead_leftovers, resolve_destination)
from ..lake.discover import LakeSpec, discover
from ..lake.normalize import MAX_TOKEN_CHARS
from ..spark import release_memory
from . import dictionary as dictionary_job
from . import minhash as minhash_job
from . import postings as postings_job
from . import profile as profile_job
from . import read as read_job
from . import josie as josie_component
from . import joinstats as joinstats_component
from . import lshensemble as lshensemble_component
from . import mate as mate_component
from . import pexeso as pexeso_component
from . import transform as transform_component
from . import union as union_component
from .component import BuildContext, Component, check_component_options

log = logging.getLogger("lakejoin")


# The optional components a build offers, in build order (each module defines COMPONENT).
COMPONENTS: dict[str, Component] = {c.name: c for c in (
    josie_component.COMPONENT, joinstats_component.COMPONENT, lshensemble_component.COMPONENT,
    mate_component.COMPONENT, pexeso_component.COMPONENT, transform_component.COMPONENT,
    union_component.COMPONENT)}


@dataclass
class BuildReport:
    index_path: Path
    n_tables: int
    n_indexed: int
    n_columns: int
    n_tokens: int
    skipped: list = field(default_factory=list)     # [(path, reason)]
    warnings: list = field(default_factory=list)    # [(path, message)]
    seconds: float = 0.0
    phase_seconds: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)       # what the build repaired or removed
    left_out: list = field(default_factory=list)    # [(path, why)]: files that are not tables

    def summary(self, phases: bool = True) -> str:
        """What was built, skipped and warned about; ``phases=False`` leaves out the line of
        phase times (for a caller that already printed a progress line per phase)."""
        lines = [f"Indexed {self.n_indexed} of {self.n_tables} tables ({self.n_columns} columns, "
                 f"{self.n_tokens} distinct values) in {self.seconds:.1f} s -> {self.index_path}"]
        if self.phase_seconds and phases:
            lines.append("Phases: " + ", ".join(f"{p} {s:.1f} s" for p, s in self.phase_seconds.items())
                         + f" (sum {sum(self.phase_seconds.values()):.1f} s)")
        lines += [f"note: {n}" for n in self.notes]
        if self.skipped:
            lines.append(f"Skipped {len(self.skipped)} file(s):")
            lines += [f"  {p}: {why}" for p, why in self.skipped]
        lines += left_out_lines(self.left_out)
        if self.warnings:
            lines.append(f"Warnings on {len({p for p, _ in self.warnings})} table(s):")
            lines += [f"  {p}: {w}" for p, w in self.warnings]
        return "\n".join(lines)


def left_out_lines(left_out: list, shown: int = 5) -> list[str]:
    """Lines naming the files discovery did not take as tables, a few per reason, with what
    to do about a ``.txt`` file that holds a table."""
    by_reason: dict[str, list[str]] = {}
    for path, why in left_out:
        by_reason.setdefault(why, []).append(str(path))
    lines = []
    for why, paths in by_reason.items():
        more = f" and {len(paths) - shown} more" if len(paths) > shown else ""
        lines.append(f"Left out {len(paths)} ({why}): {', '.join(paths[:shown])}{more}")
        if any(p.lower().endswith(".txt") for p in paths):
            lines.append("  a .txt file holding a table is indexed once it is named .csv or "
                         ".tsv, or given alone (`lakejoin index FILE.txt --out INDEX`)")
    return lines


# A lake of at most this many bytes of files is built by a driver JVM that only uses the
# quick (C1) JIT compiler: the build is seconds of work, most of it code run once, and the
# optimizing compiler's threads spend more CPU compiling than it saves (docs/algorithms/build.md).
SMALL_LAKE_BYTES = 16 << 20
SMALL_LAKE_JVM_OPTIONS = "-XX:TieredStopAtLevel=1"


def small_lake_settings(spec: LakeSpec, settings: SparkSettings | None) -> SparkSettings:
    """The Spark settings a build that starts Spark itself uses: for a small lake of files
    (no catalog table), the driver JVM gets :data:`SMALL_LAKE_JVM_OPTIONS`, unless the
    settings already give driver Java options. Results do not depend on it."""
    from dataclasses import replace

    settings = settings or SparkSettings()
    if "spark.driver.extraJavaOptions" in settings.extra \
            or any(t.format == "catalog" for t in spec.tables) \
            or sum(max(t.size, 0) for t in spec.tables) > SMALL_LAKE_BYTES:
        return settings
    return replace(settings, extra={**settings.extra,
                                    "spark.driver.extraJavaOptions": SMALL_LAKE_JVM_OPTIONS})


def _rel(lake: LakeSpec, uri: str) -> str:
    if lake.root and uri.startswith(lake.root):
        return uri[len(lake.root):].lstrip("/")
    return uri


def build(lake, out, *, master: str | None = None, overwrite: bool = False,
          settings: BuildSettings | None = None, spark_settings: SparkSettings | None = None,
          spark=None, progress: bool = True, progress_callback=None,
          catalog_tables=None, add: bool = False, rebuild: bool = False) -> BuildReport:
    """Build the index of ``lake`` at ``out`` (see module docstring). Returns a BuildReport.

    An index at ``out`` is replaced with ``overwrite`` (whatever lake it records) or with
    ``rebuild`` (only when it records ``lake``: else IndexOfAnotherLakeError, before Spark
    starts and again under the lock); with neither, FileExistsError.

    ``add=True``: ``out`` is an existing index; the tables of ``lake`` are built into a new
    generation of it (index/store.py), the existing generations are not touched.
    ``spark``: a session to use (left running); without it the active session is used, or
    one is started for the build and stopped after it (JVM included).
    """
    from ..spark import (ensure_worker_python, get_spark, progress_line, quiet_py4j,
                         session_running, stop_spark)

    t0 = time.time()
    settings = settings or BuildSettings()
    unknown = [c for c in settings.components if c.lstrip("-") not in COMPONENTS]
    if unknown:
        raise ValueError(f"Unknown index component(s) {unknown}; available: {sorted(COMPONENTS)}")
    check_component_options(settings.component_options, COMPONENTS)   # before Spark starts
    if not add:
        _check_options(settings)
    spec = discover(lake, catalog_tables=catalog_tables) if lake is not None or catalog_tables \
        else None
    if spec is None or not spec.tables:
        raise EmptyLakeError(f"No tables found in {lake}: expected CSV, TSV, Parquet or JSON "
                             f"lines files." + (f" Ignored: {[p for p, _ in spec.ignored][:10]}"
                                                if spec and spec.ignored else ""))
    final = resolve_destination(out)
    _check_lake_outside(spec, final)
    replace = overwrite or rebuild
    if not add:
        check_destination(out, replace)      # before the lock: a missing parent folder, ...
        if rebuild and not overwrite and is_index(final):
            check_same_lake(out, lake)
    else:                                    # no index there: say so (under this build's
        read_manifest(out)                   # own lock, it would look like a running build)
    with quiet_py4j(), BuildLock(final) as lock:     # an interrupt is one line, not py4j's
        notes = []
        if lock.dead:
            notes.append(f"an earlier build of this path died without finishing "
                         f"({describe(lock.dead)})")
        base = None
        if add:
            base = LakeIndex(out, check_lake=False)
            known = set(base.tables["uri"])
            again = [t.uri for t in spec.tables if t.uri in known]
            if again:
                raise FileExistsError(
                    f"{len(again)} table(s) are already in {out}, e.g. {again[0]}; adding them "
                    f"again would duplicate them. To refresh changed tables, rebuild the index.")
            named = {n: u for n, u in zip(base.tables["name"], base.tables["uri"])}
            clash = [(t.name, t.uri, named[t.name]) for t in spec.tables if t.name in named]
            if clash:
                name, uri, old = clash[0]
                raise FileExistsError(
                    f"{len(clash)} table(s) to add have the name of a table {out} holds, e.g. "
                    f"{name!r} ({uri}; the index has {old}). A name identifies one table (in "
                    f"searches, joins and the code they write), and --add never replaces "
                    f"one: to replace the table, rebuild the index with the new file; to "
                    f"keep both, give the new file another name or folder.")
            settings = _settings_like(base, settings)
        else:
            repaired = recover_commit(final)
            if repaired:
                notes.append(repaired)
            gone = remove_dead_leftovers(final)
            if gone:
                notes.append(f"removed {len(gone)} folder(s) left by builds of this path that "
                             f"were killed: {', '.join(gone)}")
            try:
                check_destination(out, replace)
                if rebuild and not overwrite and is_index(final):
                    check_same_lake(out, lake)
            except FileExistsError as e:
                if repaired:
                    raise type(e)(f"{e} (Before that: {repaired}.)") from None
                raise
        started = spark is None and not session_running()
        t_spark = time.time()
        if started:
            spark_settings = small_lake_settings(spec, spark_settings)
        if spark is not None:
            ensure_worker_python(spark)             # get_spark checks the ones it returns
        spark = spark or get_spark(spark_settings, master=master)
        spark_seconds = time.time() - t_spark if started else 0.0
        try:
            report = _build_locked(spark, spec, out, replace, settings, base, progress,
                                   progress_callback, spark_settings, t0, spark_seconds)
        finally:
            if started:
                t_stop = time.time()
                wrote_archive = stop_spark(spark)
                stop_seconds = time.time() - t_stop
    if started:
        report.phase_seconds["stopping Spark"] = round(stop_seconds, 3)
        if progress:
            progress_line("lakejoin index", f"stopping Spark: {stop_seconds:.1f} s")
        if wrote_archive:
            notes.append("Spark's JVM wrote its class archive as it stopped (once per machine; "
                         "later JVMs start faster)")
    report.notes = notes + report.notes
    report.seconds = time.time() - t0
    return report


def _build_locked(spark, spec, out, overwrite, settings, base, progress, progress_callback,
                  spark_settings, t0, spark_seconds) -> BuildReport:
    """The build proper, under the out path's lock: Spark jobs, components, commit."""
    from ..spark import SparkProgress, spark_job

    writer_cls = (lambda: GenerationWriter(out)) if base is not None else \
        (lambda: IndexWriter(out, overwrite=overwrite))
    log_dir = spark_settings.log_dir if spark_settings else None
    with writer_cls() as writer, \
            SparkProgress(spark, "lakejoin index", enabled=progress,
                          callback=progress_callback) as prog:
        if spark_seconds:
            prog.phase_seconds["starting Spark"] = round(spark_seconds, 3)
            prog.note(f"starting Spark: {spark_seconds:.1f} s")
        ctx = BuildContext(spark=spark, writer=writer, lake=spec, settings=settings, progress=prog,
                           base=base)
        with spark_job(f"building {getattr(writer, 'requested', writer.final)}", log_dir):
            names = selected_components(settings.components) if base is None else \
                [n for n in base.generations[0].components if n in COMPONENTS]
            report = _build_core(ctx, join_stats="joinstats" in names)
            for name in names:
                prog.step(name)
                section = COMPONENTS[name].build(ctx)
                ctx.component_sections[name] = section
            if base is not None:
                report.notes.append(added_note(ctx.component_sections))
        prog.step("writing the manifest")
        shutil.rmtree(ctx.scratch(""), ignore_errors=True)
        report.seconds = time.time() - t0
        report.phase_seconds = dict(prog.phase_seconds)
        manifest = _manifest(ctx, report, spark)
        writer.commit(manifest)
        prog.step("")
        report.phase_seconds = dict(prog.phase_seconds)
        report.seconds = time.time() - t0
        prog.note(f"phases sum to {sum(report.phase_seconds.values()):.1f} s of "
                  f"{report.seconds:.1f} s wall")
    return report


KEPT = {"pivots": "pivots", "distance_profile": "distance profile (the default tau)"}


def added_note(sections: dict) -> str:
    """What adding tables computed: each component indexed the added tables only, in a new
    generation; what it kept of the base generation instead of computing it again."""
    kept = [f"{name} kept the base generation's " + " and ".join(KEPT.get(k, k) for k in ks)
            for name, sec in sections.items() if (ks := (sec or {}).get("kept_from_base"))]
    return ("the added tables are a new generation: the core and every component ("
            + ", ".join(sections) + ") indexed those tables only, not the lake again"
            + ("; " + "; ".join(kept) if kept else "")
            + " (docs/algorithms/index-format.md, \"Adding tables\")")


def _check_lake_outside(spec: LakeSpec, final: Path) -> None:
    """The lake must not lie inside the index folder (replacing the index would delete it).
    The opposite, an index folder inside the lake, is fine: discovery skips index folders."""
    roots = [Path(spec.root)] if spec.root else [Path(t.uri) for t in spec.tables
                                                  if t.format != "catalog"]
    for r in roots:
        r = Path(os.path.realpath(r))
        if r == final or final in r.parents:
            raise ValueError(f"The lake {r} is inside the index folder {final}; choose an "
                             f"--out path outside the lake's folder.")


def _check_options(settings: BuildSettings) -> None:
    """Options given for a component the build leaves out would be silently ignored."""
    given = set(settings.component_options or {})
    lshensemble_component.table_num_perm(          # at most the index's MinHash positions
        (settings.component_options or {}).get("lshensemble", {}), settings.num_perm)
    selected = set(selected_components(settings.components))
    if settings.mate_bits != BuildSettings.mate_bits and "mate" not in selected:
        raise ValueError(f"--mate-bits {settings.mate_bits} sets the XASH size of the mate "
                         f"component, which this build leaves out (--without mate); drop "
                         f"one of the two.")
    idle = sorted(given - selected)
    if idle:
        raise ValueError(f"Options are given for component(s) {idle}, which this build leaves "
                         f"out; add them with `--with {idle[0]}` (Python: "
                         f"BuildSettings(components=({idle[0]!r},), ...)).")


def _settings_like(base: LakeIndex, settings: BuildSettings) -> BuildSettings:
    """Build parameters of an added generation: those of the base (signatures must match)."""
    from dataclasses import replace
    mh = base.manifest["components"]["minhash"]
    return replace(settings, num_perm=mh["num_perm"], minhash_seed=mh["seed"])


def recorded_settings(manifest: dict) -> BuildSettings:
    """The build settings an index's manifest records, for a rebuild that keeps them: the
    MinHash size and seed, the opt-in components it holds, MATE's XASH size and each
    component's options (``Component.recorded_options``: every ``--set`` value the section
    records). A default component the index lacks is built again (an index may predate it)."""
    have = manifest.get("components", {})
    params = manifest.get("parameters", {})
    options = {}
    for name, c in COMPONENTS.items():
        if name in have and c.recorded_options is not None:
            opts = c.recorded_options(have[name])
            if opts:
                options[name] = opts
    bits = ((have.get("mate") or {}).get("xash") or {}).get("bits")
    return BuildSettings(
        num_perm=int(params.get("num_perm", BuildSettings.num_perm)),
        minhash_seed=int(params.get("minhash_seed", BuildSettings.minhash_seed)),
        components=tuple(n for n, c in COMPONENTS.items() if not c.default and n in have),
        component_options=options,
        **({"mate_bits": int(bits)} if bits in (128, 512) else {}))


def command_options(settings: BuildSettings) -> list[str]:
    """The ``lakejoin index`` options of a build's settings as given (--num-perm,
    --minhash-seed, --mate-bits, --with, --without, --set), recorded in its manifest: the
    rebuild command a lake change or a changed file advises repeats them (index/store.py
    ``rebuild_command``)."""
    out = []
    if settings.num_perm != BuildSettings.num_perm:
        out += ["--num-perm", str(settings.num_perm)]
    if settings.minhash_seed != BuildSettings.minhash_seed:
        out += ["--minhash-seed", str(settings.minhash_seed)]
    if settings.mate_bits != BuildSettings.mate_bits:
        out += ["--mate-bits", str(settings.mate_bits)]
    for c in settings.components:
        out += ["--without", c[1:]] if c.startswith("-") else ["--with", c]
    for c, opts in (settings.component_options or {}).items():
        out += [w for k, v in opts.items() for w in ("--set", f"{c}.{k}={v}")]
    return out


def selected_components(requested=()) -> list[str]:
    """Default components plus the requested ones, in registration order. A name prefixed
    with "-" (e.g. "-lshensemble") leaves a default component out."""
    drop = {c[1:] for c in requested if c.startswith("-")}
    want = {c for c in requested if not c.startswith("-")}
    return [n for n, c in COMPONENTS.items() if (c.default or n in want) and n not in drop]


def _build_core(ctx: BuildContext, join_stats: bool = False) -> BuildReport:
    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyspark.sql import functions as F

    spark, spec, w, prog, s = ctx.spark, ctx.lake, ctx.writer, ctx.progress, ctx.settings

    prog.step("reading tables")
    ctx.long = read_job.LongForm(str(ctx.scratch("long")))
    infos = read_job.read_lake(spark, spec, ctx.long, s.num_perm, s.minhash_seed,
                               s.sample_values, join_stats=join_stats)
    ctx.infos = infos
    skipped = [(_rel(spec, i.uri), i.error + (f" ({i.hint})" if i.hint else ""))
               for i in infos if not i.ok]
    warnings = [(_rel(spec, i.uri), m) for i in infos if i.ok for m in _compact(i.warnings)]
    for p, why in skipped:
        log.warning("skipped %s: %s", p, why)
    ok = [i for i in infos if i.ok]
    if not ok:
        raise EmptyLakeError(
            "No table of the lake could be read:\n" + "\n".join(f"  {p}: {why}" for p, why in skipped))

    prog.step("profiling columns")
    # column ids: consecutive over readable tables in table-id order
    first, col_rows, cid = {}, [], 0
    by_id = {t.table_id: t for t in spec.tables}
    for i in ok:
        first[i.table_id] = cid
        for j, name in enumerate(i.columns):
            col_rows.append((cid, i.table_id, j, name))
            cid += 1
    ctx.n_sets = cid
    ctx.first_column = pd.DataFrame({"table_id": list(first), "first_column_id": list(first.values())})
    first_of = np.full(max(first) + 1, -1, dtype=np.int64)
    first_of[list(first)] = list(first.values())
    parts = [pq.read_table(f) for f in ctx.long.files("columns")]
    facts = pa.concat_tables(parts) if parts else None
    col_ids = (first_of[facts.column("table_id").to_numpy()] + facts.column("position").to_numpy()) \
        if facts is not None else np.zeros(0, np.int64)
    columns = pd.DataFrame(col_rows, columns=["column_id", "table_id", "position", "name"])
    n_raw = np.zeros(ctx.n_sets, dtype=np.int64)
    n_filled = np.zeros(ctx.n_sets, dtype=np.int64)
    if facts is not None:
        prof = facts.select(list(profile_job.FIELDS)).to_pandas()
        prof.index = col_ids
        columns = columns.join(prof, on="column_id")
        del prof
        n_raw[col_ids] = facts.column("n_raw").to_numpy()
        n_filled[col_ids] = facts.column("n_filled").to_numpy()
    for c in ("n_values", "n_keyless", "n_too_long", "n_distinct", "max_len"):
        columns[c] = columns[c].fillna(0).astype("int64")
    columns["type"] = columns["type"].fillna("empty")
    columns["samples"] = [list(x) if isinstance(x, (list, np.ndarray)) else [] for x in columns["samples"]]
    n_rows = {i.table_id: i.n_rows for i in infos}
    # a list column's values are its elements (lake/read.py): its nulls are the rows
    # without a non-null element
    lists = {(i.table_id, c) for i in infos for c in (i.lists or ())}
    columns["list"] = [(t, c) in lists for t, c in zip(columns["table_id"], columns["name"])]
    columns["n_null"] = [n_rows[t] - v for t, v in zip(columns["table_id"], n_filled)]
    for r in columns[columns["n_too_long"] > 0].itertuples():
        warnings.append((_rel(spec, by_id[r.table_id].uri),
                         f"column {r.name!r}: {r.n_too_long} value(s) longer than "
                         f"{MAX_TOKEN_CHARS} characters not indexed"))
    ctx.columns = columns
    ctx.raw_ptr = np.zeros(ctx.n_sets + 1, dtype=np.int64)
    np.cumsum(n_raw, out=ctx.raw_ptr[1:])
    sig = minhash_job.signature_matrix(facts.column("signature") if facts is not None else None,
                                       col_ids, ctx.n_sets, s.num_perm)
    w.save_npy("minhash/signatures.npy", sig)
    del sig, facts, parts
    release_memory()

    prog.step("building the dictionary")
    grouped_dir, sorted_dir = ctx.scratch("dictionary_grouped"), ctx.scratch("dictionary_sorted")
    dictionary_job.build_dictionary(
        spark, ctx.long.files("values"), first_of,
        lambda: ctx.values.where(F.col("token").isNotNull())
        .select("column_id", "rcode", "token", "hash64"), grouped_dir, sorted_dir)
    shutil.rmtree(grouped_dir, ignore_errors=True)

    prog.step("sets and postings")
    release_memory(spark)
    ctx.raw_tokens = np.full(int(ctx.raw_ptr[-1]), -1, dtype=np.int32)
    counts = dictionary_job.finish_dictionary(sorted_dir, w, ctx.raw_ptr, ctx.raw_tokens)
    shutil.rmtree(sorted_dir, ignore_errors=True)
    ctx.n_tokens = counts["tokens"]
    postings_job.sets_and_positions(w, ctx.n_sets)
    postings_job.write_postings_parquet(w)
    ctx.arrays = IndexArrays(**{name: np.load(w.path(rel), mmap_mode="r")
                                for name, rel in ARRAY_FILES.items()})

    tables = pd.DataFrame([{
        "table_id": t.table_id, "name": t.name, "path": t.path, "uri": t.uri,
        "format": t.format, "size": t.size,
        "status": "indexed" if i.ok else "skipped",
        "reason": i.error, "encoding": i.encoding, "delimiter": i.delimiter,
        "n_rows": i.n_rows, "n_columns": len(i.columns) if i.ok else 0,
        "first_column_id": first.get(t.table_id, -1),
        "warnings": list(i.warnings), "info": i.to_json(),
    } for t, i in zip(spec.tables, infos)])
    ctx.tables = tables
    w.save_frame("catalog/tables.parquet", tables)
    w.save_frame("catalog/columns.parquet", columns)
    return BuildReport(index_path=getattr(w, "requested", w.final), n_tables=len(spec.tables),
                       n_indexed=len(ok),
                       n_columns=ctx.n_sets, n_tokens=ctx.n_tokens, skipped=skipped,
                       warnings=warnings, left_out=list(spec.ignored))


def _compact(warnings: list[str]) -> list[str]:
    """Collapse the per-column "empty name" warnings of one table into one line."""
    empty = [w for w in warnings if "has an empty name" in w]
    rest = [w for w in warnings if "has an empty name" not in w]
    if len(empty) > 1:
        rest.insert(0, f"{len(empty)} columns have empty names; called them column_<position>")
    else:
        rest = empty + rest
    return rest


def _manifest(ctx: BuildContext, report: BuildReport, spark) -> dict:
    s = ctx.settings
    n_post = int(ctx.arrays.post_indptr[-1])
    n_groups = int(ctx.arrays.token_group[-1]) + 1 if ctx.n_tokens else 0
    components = {
        "dictionary": {"order": "ascending frequency, then posting list, then token",
                       "groups": "identical posting lists"},
        "sets": {"layout": "csr", "sorted": "ascending token id"},
        "postings": {"layout": "csr", "entries": "set_id, position (0-based), set_size"},
        "minhash": {"num_perm": s.num_perm, "seed": s.minhash_seed, "scheme": "affine32",
                    "hashfunc": "mmh3.hash(token, signed=False)"},
    }
    components.update(ctx.component_sections)
    return {
        "parameters": {"num_perm": s.num_perm, "minhash_seed": s.minhash_seed},
        "lake": ctx.lake.fingerprint({i.uri: i.digest for i in ctx.infos}),
        "counts": {"tables": report.n_tables, "indexed_tables": report.n_indexed,
                   "columns": ctx.n_sets, "tokens": ctx.n_tokens, "groups": n_groups,
                   "postings": n_post},
        "components": components,
        "skipped": [{"path": p, "reason": r} for p, r in report.skipped],
        "left_out": [{"path": p, "reason": r} for p, r in report.left_out],
        "warnings": [{"path": p, "message": m} for p, m in report.warnings],
        "build": {"seconds": round(report.seconds, 3), "phases": report.phase_seconds,
                  "spark_master": spark.sparkContext.master, "spark_version": spark.version,
                  "options": command_options(s)},
    }
