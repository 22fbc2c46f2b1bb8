"""Add a component to a built index (``lakejoin index --add COMPONENT INDEX``).

The lake's tables of each generation that lacks the component are read again by the
build's Spark read job (indexing/read.py) into a scratch long form, with the column ids
and token ids the generation already has (its catalog and dictionary); the component's
own build then runs on that context and is committed by index/store.py
``ComponentWriter`` (its folder renamed into place, the manifest replaced last). The
existing files are never rewritten, so an interrupted add leaves the index as it was.

Only components that need nothing but the long form and the dictionary can be added
(:data:`ADDABLE`); the others need the core build's intermediate results.
A lake changed since the build is refused: the statistics must describe the indexed rows.
"""
from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field, replace

import pandas as pd

from ..config import BuildSettings, SparkSettings
from ..errors import LakeJoinError
from ..index.joinstats import FOLDER as JOINSTATS_FOLDER
from ..index.transform_arrays import FOLDER as TRANSFORM_FOLDER
from ..index.lock import BuildLock
from ..index.store import ComponentWriter, LakeIndex, rebuild_command, resolve_destination
from ..lake.discover import LakeSpec, TableSource, fingerprint_changes
from . import joinstats as joinstats_component
from . import transform as transform_component
from . import read as read_job
from .component import BuildContext

ADDABLE = {"joinstats": (joinstats_component.COMPONENT, JOINSTATS_FOLDER),
           "transform": (transform_component.COMPONENT, TRANSFORM_FOLDER)}


@dataclass
class AddReport:
    index_path: str
    component: str
    generations: list = field(default_factory=list)     # names the component was added to
    skipped: list = field(default_factory=list)         # names that already had it
    seconds: float = 0.0

    def summary(self) -> str:
        if not self.generations:
            return f"{self.index_path} already has {self.component}; nothing to do."
        return (f"Added {self.component} to {self.index_path} "
                f"({len(self.generations)} generation(s)) in {self.seconds:.1f} s.")


def add_component(index, name: str, *, master: str | None = None, spark=None,
                  spark_settings: SparkSettings | None = None,
                  progress: bool = True) -> AddReport:
    """Build component ``name`` for every generation of the index at ``index`` that lacks
    it. Raises LakeJoinError (nothing written) when it cannot be added."""
    from ..spark import SparkProgress, get_spark, quiet_py4j, session_running, stop_spark
    from .pipeline import COMPONENTS

    t0 = time.time()
    if name not in ADDABLE:
        if name not in COMPONENTS:
            raise LakeJoinError(f"{name!r} is not an index component; components that can be "
                                f"added to a built index: {sorted(ADDABLE)}.")
        raise LakeJoinError(
            f"{name!r} cannot be added to a built index (it needs the core build's "
            f"intermediate results; {sorted(ADDABLE)} can be). Rebuild the index with it: "
            f"{rebuild_command(index, with_=name)}.")
    component, folder = ADDABLE[name]
    final = resolve_destination(index)
    with quiet_py4j(), BuildLock(final):
        ix = LakeIndex(final, check_lake=False)
        report = AddReport(str(final), name)
        todo = [g for g in ix.generations if not g.has(name)]
        report.skipped = [g.name for g in ix.generations if g.has(name)]
        if not todo:
            return report
        changes = [c for g in todo for c in fingerprint_changes(g.manifest.get("lake", {}))]
        if changes:
            raise LakeJoinError(
                f"The lake changed since {final} was built ({'; '.join(changes[:3])}"
                f"{'; ...' if len(changes) > 3 else ''}): {name} must describe the rows the "
                f"index holds, so it cannot be added. Rebuild the index instead: "
                f"{ix.rebuild_command}.")
        started = spark is None and not session_running()
        spark = spark or get_spark(spark_settings, master=master)
        try:
            with SparkProgress(spark, f"lakejoin index --add {name}", enabled=progress) as prog:
                for g in todo:
                    _add_to_generation(spark, ix, g, name, component, folder, prog)
                    report.generations.append(g.name)
        finally:
            if started:
                stop_spark(spark)
    report.seconds = time.time() - t0
    return report


def _lake_of(generation) -> LakeSpec:
    """The generation's indexed tables, with the table ids of its catalog."""
    t = generation.tables
    t = t[t["status"] == "indexed"]
    lake = generation.manifest.get("lake", {})
    return LakeSpec(root=lake.get("root"), kind=lake.get("kind", "files"), tables=[
        TableSource(int(r.table_id), r.name, r.path, r.uri, r.format, int(r.size))
        for r in t.itertuples()])


def _add_to_generation(spark, ix: LakeIndex, gen, name, component, folder, prog) -> None:
    where = f"{ix.path}" + ("" if gen.name == "base" else f" (generation {gen.name})")
    spec = _lake_of(gen)
    mh = ix.components.get("minhash", {})
    settings = replace(BuildSettings(), minhash_seed=int(mh.get("seed", 1)))
    with ComponentWriter(gen, name, folder) as w:
        ctx = BuildContext(spark=spark, writer=w, lake=spec, settings=settings, progress=prog,
                           core_dir=gen.path, base=ix)
        prog.step(f"reading the tables of {gen.name} again")
        ctx.long = read_job.LongForm(str(ctx.scratch("long")))
        # signatures are not needed here: the shortest one keeps the read cheap
        infos = {i.table_id: i for i in read_job.read_lake(spark, spec, ctx.long, 1,
                                                           settings.minhash_seed, 0,
                                                           join_stats=True)}
        cols = gen.columns.sort_values("column_id")
        for t in spec.tables:
            info = infos.get(t.table_id)
            want = list(cols.loc[cols["table_id"] == t.table_id, "name"])
            if info is None or not info.ok or list(info.columns) != want:
                now = (info.error if info is not None and not info.ok
                       else f"columns {list(info.columns)[:6] if info else []}")
                raise LakeJoinError(
                    f"{t.uri} no longer reads as it did when {where} was built (then: columns "
                    f"{want[:6]}; now: {now}). Rebuild the index: {ix.rebuild_command}.")
        first = gen.tables[gen.tables["status"] == "indexed"]
        ctx.first_column = pd.DataFrame({"table_id": first["table_id"].astype("int64"),
                                         "first_column_id": first["first_column_id"].astype("int64")})
        ctx.n_sets, ctx.n_tokens, ctx.arrays = gen.n_sets, gen.n_tokens, gen.arrays
        ctx.columns = gen.columns
        ctx.lookup = gen.lookup
        prog.step(name)
        section = component.build(ctx)
        section = dict(section, added=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        shutil.rmtree(ctx.scratch(""), ignore_errors=True)
        prog.step("writing the manifest")
        w.commit(section, default=component.default)
        prog.step("")
