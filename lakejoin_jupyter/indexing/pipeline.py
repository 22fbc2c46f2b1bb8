"""Orchestrates an index build: discover -> Spark jobs -> components -> atomic commit.

    discover (driver)      lake/discover.py: files and their fingerprint
    sniff (Spark)          indexing/read.py: encodings, headers, problems -> skipped files
    read (Spark)           cells (column_id, row_id, value, token), persisted
    profile (Spark)        indexing/profile.py -> catalog/columns.parquet
    dictionary (Spark)     indexing/dictionary.py -> dictionary/tokens.parquet (+ .npy)
    sets, postings (Spark) indexing/postings.py -> sets/, postings/ (+ CSR .npy)
    minhash (Spark)        indexing/minhash.py -> minhash/ (+ signatures.npy)
    components             optional later components (LSH Ensemble, MATE, PEXESO, ...)
    commit                 index/store.py: checksums, manifest, rename into place

The whole build holds the out path's lock (index/lock.py): a second build of the same path
is refused, naming the first; the build first repairs a commit a crash interrupted and
removes the folders of dead builds of the path. A failing Spark job is reported in one
line (spark.py ``spark_job``).

Components are listed in :data:`COMPONENTS`; each receives the
:class:`~.component.BuildContext` (Spark session, the persisted cells and column tokens, the written
dictionary/sets, the index writer) and returns its manifest section.
"""
from __future__ import annotations

import contextlib
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..config import BuildSettings, SparkSettings
from ..errors import EmptyLakeError
from ..index.lock import BuildLock, describe
from ..index.store import (GenerationWriter, IndexWriter, LakeIndex, check_destination,
                           recover_commit, remove_dead_leftovers, resolve_destination)
from ..lake.discover import LakeSpec, discover
from ..lake.normalize import MAX_TOKEN_CHARS
from . import dictionary as dictionary_job
from . import minhash as minhash_job
from . import postings as postings_job
from . import profile as profile_job
from . import read as read_job
from . import josie as josie_component
from . import lshensemble as lshensemble_component
from . import mate as mate_component
from . import pexeso as pexeso_component
from . import transform as transform_component
from .component import BuildContext, Component

log = logging.getLogger("lakejoin")


# The optional components a build offers, in build order (each module defines COMPONENT).
COMPONENTS: dict[str, Component] = {c.name: c for c in (
    josie_component.COMPONENT, lshensemble_component.COMPONENT, mate_component.COMPONENT,
    pexeso_component.COMPONENT, transform_component.COMPONENT)}


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

    def summary(self) -> str:
        lines = [f"Indexed {self.n_indexed} of {self.n_tables} tables ({self.n_columns} columns, "
                 f"{self.n_tokens} distinct values) in {self.seconds:.1f} s -> {self.index_path}"]
        lines += [f"note: {n}" for n in self.notes]
        if self.skipped:
            lines.append(f"Skipped {len(self.skipped)} file(s):")
            lines += [f"  {p}: {why}" for p, why in self.skipped]
        if self.warnings:
            lines.append(f"Warnings on {len({p for p, _ in self.warnings})} table(s):")
            lines += [f"  {p}: {w}" for p, w in self.warnings]
        return "\n".join(lines)


def _rel(lake: LakeSpec, uri: str) -> str:
    if lake.root and uri.startswith(lake.root):
        return uri[len(lake.root):].lstrip("/")
    return uri


def build(lake, out, *, master: str | None = None, overwrite: bool = False,
          settings: BuildSettings | None = None, spark_settings: SparkSettings | None = None,
          spark=None, progress: bool = True, progress_callback=None,
          catalog_tables=None, add: bool = False) -> BuildReport:
    """Build the index of ``lake`` at ``out`` (see module docstring). Returns a BuildReport.

    ``add=True``: ``out`` is an existing index; the tables of ``lake`` are built into a new
    generation of it (index/store.py), the existing generations are not touched.
    """
    from ..spark import get_spark, quiet_py4j

    t0 = time.time()
    settings = settings or BuildSettings()
    unknown = [c for c in settings.components if c.lstrip("-") not in COMPONENTS]
    if unknown:
        raise ValueError(f"Unknown index component(s) {unknown}; available: {sorted(COMPONENTS)}")
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
    if not add:
        check_destination(out, overwrite)    # before the lock: a missing parent folder, ...
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
                check_destination(out, overwrite)
            except FileExistsError as e:
                if repaired:
                    raise FileExistsError(f"{e} (Before that: {repaired}.)") from None
                raise
        spark = spark or get_spark(spark_settings, master=master)
        report = _build_locked(spark, spec, out, overwrite, settings, base, progress,
                               progress_callback, spark_settings)
    report.notes = notes + report.notes
    report.seconds = time.time() - t0
    return report


def _build_locked(spark, spec, out, overwrite, settings, base, progress, progress_callback,
                  spark_settings) -> BuildReport:
    """The build proper, under the out path's lock: Spark jobs, components, commit."""
    from ..spark import SparkProgress, spark_job

    t0 = time.time()
    writer_cls = (lambda: GenerationWriter(out)) if base is not None else \
        (lambda: IndexWriter(out, overwrite=overwrite))
    log_dir = spark_settings.log_dir if spark_settings else None
    with writer_cls() as writer, \
            SparkProgress(spark, "lakejoin index", enabled=progress,
                          callback=progress_callback) as prog:
        ctx = BuildContext(spark=spark, writer=writer, lake=spec, settings=settings, progress=prog,
                           base=base)
        try:
            with spark_job(f"building {getattr(writer, 'requested', writer.final)}", log_dir):
                report = _build_core(ctx)
                names = selected_components(settings.components) if base is None else \
                    [n for n in base.generations[0].components if n in COMPONENTS]
                for name in names:
                    prog.step(name)
                    section = COMPONENTS[name].build(ctx)
                    ctx.component_sections[name] = section
            prog.step("writing the manifest")
            report.seconds = time.time() - t0
            report.phase_seconds = dict(prog.phase_seconds)
            manifest = _manifest(ctx, report, spark)
            writer.commit(manifest)
        finally:
            for df in (ctx.cells, ctx.column_tokens):
                if df is not None:
                    with contextlib.suppress(Exception):   # the JVM may be gone already
                        df.unpersist()
    return report


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
    unknown = sorted(given - set(COMPONENTS))
    if unknown:
        raise ValueError(f"Options are given for unknown index component(s) {unknown}; "
                         f"available: {sorted(COMPONENTS)}")
    idle = sorted(given - set(selected_components(settings.components)))
    if idle:
        raise ValueError(f"Options are given for component(s) {idle}, which this build leaves "
                         f"out; add them with `--with {idle[0]}` (Python: "
                         f"BuildSettings(components=({idle[0]!r},), ...)).")


def _settings_like(base: LakeIndex, settings: BuildSettings) -> BuildSettings:
    """Build parameters of an added generation: those of the base (signatures must match)."""
    from dataclasses import replace
    mh = base.manifest["components"]["minhash"]
    return replace(settings, num_perm=mh["num_perm"], minhash_seed=mh["seed"])


def selected_components(requested=()) -> list[str]:
    """Default components plus the requested ones, in registration order. A name prefixed
    with "-" (e.g. "-lshensemble") leaves a default component out."""
    drop = {c[1:] for c in requested if c.startswith("-")}
    want = {c for c in requested if not c.startswith("-")}
    return [n for n, c in COMPONENTS.items() if (c.default or n in want) and n not in drop]


def _build_core(ctx: BuildContext) -> BuildReport:
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    spark, spec, w, prog = ctx.spark, ctx.lake, ctx.writer, ctx.progress

    prog.step("sniffing files")
    infos = read_job.sniff_files(spark, spec, ctx.settings.files_per_task) + \
        read_job.sniff_catalog(spark, spec)
    infos.sort(key=lambda i: i.table_id)
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

    # column ids: consecutive over readable tables in table-id order
    first, col_rows, cid = {}, [], 0
    by_id = {t.table_id: t for t in spec.tables}
    for i in ok:
        first[i.table_id] = cid
        for j, name in enumerate(i.columns):
            col_rows.append((cid, i.table_id, j, name))
            cid += 1
    ctx.n_sets = cid

    prog.step("reading tables")
    cells = read_job.read_cells(spark, spec, infos, first, ctx.settings.files_per_task)
    cells = cells.persist(StorageLevel.MEMORY_AND_DISK)
    ctx.cells = cells
    column_tokens = (cells.where(F.col("token").isNotNull()).select("column_id", "token")
                     .distinct().persist(StorageLevel.MEMORY_AND_DISK))
    ctx.column_tokens = column_tokens

    prog.step("profiling columns")
    prof = profile_job.profile_columns(cells, column_tokens, ctx.settings.sample_values)
    columns = pd.DataFrame(col_rows, columns=["column_id", "table_id", "position", "name"])
    columns = columns.merge(prof, on="column_id", how="left")
    for c in ("n_values", "n_keyless", "n_too_long", "n_distinct", "max_len"):
        columns[c] = columns[c].fillna(0).astype("int64")
    columns["type"] = columns["type"].fillna("empty")
    columns["samples"] = [list(s) if isinstance(s, (list, np.ndarray)) else [] for s in columns["samples"]]
    n_rows = {i.table_id: i.n_rows for i in infos}
    columns["n_null"] = [n_rows[t] - v for t, v in zip(columns["table_id"], columns["n_values"])]
    for r in columns[columns["n_too_long"] > 0].itertuples():
        warnings.append((_rel(spec, by_id[r.table_id].uri),
                         f"column {r.name!r}: {r.n_too_long} value(s) longer than "
                         f"{MAX_TOKEN_CHARS} characters not indexed"))
    ctx.columns = columns

    prog.step("building the dictionary")
    dictionary = dictionary_job.build_dictionary(column_tokens)
    dictionary.write.parquet(w.uri("dictionary/tokens.parquet"))
    ctx.dictionary = spark.read.parquet(w.uri("dictionary/tokens.parquet"))

    prog.step("building sets")
    sets = postings_job.build_sets(column_tokens, ctx.dictionary)
    sets.write.parquet(w.uri("sets/sets.parquet"))
    ctx.sets = spark.read.parquet(w.uri("sets/sets.parquet"))

    prog.step("building postings")
    postings_job.build_postings(ctx.sets).write.parquet(w.uri("postings/postings.parquet"))

    prog.step("MinHash signatures")
    s = ctx.settings
    minhash_job.build_signatures(column_tokens, s.num_perm, s.minhash_seed) \
        .write.parquet(w.uri("minhash/signatures.parquet"))

    prog.step("writing arrays")
    ctx.n_tokens = _finish_dictionary(w)
    indptr, toks = postings_job.finish_sets(w.path("sets/sets.parquet"), ctx.n_sets)
    w.save_npy("sets/indptr.npy", indptr)
    w.save_npy("sets/token_ids.npy", toks)
    p = postings_job.finish_postings(w.path("postings/postings.parquet"), ctx.n_tokens)
    for name, arr in zip(("indptr", "set_ids", "positions", "set_sizes"), p):
        w.save_npy(f"postings/{name}.npy", arr)
    sig = minhash_job.finish_signatures(w.path("minhash/signatures.parquet"), ctx.n_sets, s.num_perm)
    w.save_npy("minhash/signatures.npy", sig)

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
                       warnings=warnings)


def _compact(warnings: list[str]) -> list[str]:
    """Collapse the per-column "empty name" warnings of one table into one line."""
    empty = [w for w in warnings if "has an empty name" in w]
    rest = [w for w in warnings if "has an empty name" not in w]
    if len(empty) > 1:
        rest.insert(0, f"{len(empty)} columns have empty names; called them column_<position>")
    else:
        rest = empty + rest
    return rest


def _finish_dictionary(w: IndexWriter) -> int:
    import pyarrow.dataset as pads

    t = pads.dataset(str(w.path("dictionary/tokens.parquet")), format="parquet").to_table()
    n = t.num_rows
    tid = t.column("token_id").to_numpy()
    order = np.argsort(tid, kind="stable")
    if n and not np.array_equal(tid[order], np.arange(n)):
        raise RuntimeError("dictionary token ids are not dense 0..n-1 (build bug)")
    w.save_npy("dictionary/freq.npy", t.column("freq").to_numpy()[order].astype(np.int32))
    w.save_npy("dictionary/group.npy", t.column("group_id").to_numpy()[order].astype(np.int32))
    h = t.column("hash64").to_numpy().view(np.uint64)[order]
    horder = np.argsort(h, kind="stable")
    w.save_npy("dictionary/hash_sorted.npy", h[horder])
    w.save_npy("dictionary/hash_ids.npy", horder.astype(np.int32))
    values = t.column("token").combine_chunks()
    import pyarrow as pa
    import pyarrow.compute as pc
    values = pc.take(values, pa.array(order))
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    values = values.cast(pa.large_string())
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int64)[values.offset: values.offset + n + 1]
    data = np.frombuffer(values.buffers()[2], dtype=np.uint8) if n else np.zeros(0, np.uint8)
    w.save_npy("dictionary/values_offsets.npy", offsets - offsets[0] if n else np.zeros(1, np.int64))
    w.save_npy("dictionary/values_bytes.npy", data[offsets[0]:offsets[-1]] if n else data)
    return n


def _manifest(ctx: BuildContext, report: BuildReport, spark) -> dict:
    s, w = ctx.settings, ctx.writer
    n_post = int(np.load(w.path("postings/indptr.npy"), mmap_mode="r")[-1])
    n_groups = int(np.load(w.path("dictionary/group.npy"), mmap_mode="r")[-1]) + 1 \
        if ctx.n_tokens else 0
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
        "lake": ctx.lake.fingerprint(),
        "counts": {"tables": report.n_tables, "indexed_tables": report.n_indexed,
                   "columns": ctx.n_sets, "tokens": ctx.n_tokens, "groups": n_groups,
                   "postings": n_post},
        "components": components,
        "skipped": [{"path": p, "reason": r} for p, r in report.skipped],
        "warnings": [{"path": p, "message": m} for p, m in report.warnings],
        "build": {"seconds": round(report.seconds, 3), "phases": report.phase_seconds,
                  "spark_master": spark.sparkContext.master, "spark_version": spark.version},
    }
