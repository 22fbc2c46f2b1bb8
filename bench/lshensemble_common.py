"""Shared by bench/lshensemble_accuracy.py and bench/lshensemble_perf.py: build (or reuse) an
index of a lake with the real Spark build, LSH Ensemble tables with other partition
counts built by the same Spark job from that index, the paper's query benchmark (§2.5.2:
queries drawn uniformly from equal-width size intervals) and brute-force ground truth."""
from __future__ import annotations

import argparse

import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

from lakejoin_jupyter.index.store import Generation, LakeIndex  # noqa: E402
from lakejoin_jupyter.search import bruteforce  # noqa: E402
from lakejoin_jupyter.search import lshensemble as L  # noqa: E402


def spark_session(memory: str = "4g"):
    from lakejoin_jupyter.config import SparkSettings
    from lakejoin_jupyter.spark import get_spark
    return get_spark(SparkSettings(master=os.environ.get("LAKEJOIN_SPARK_MASTER", "local[2]"),
                                   driver_memory=memory, shuffle_partitions=8,
                                   log_dir="/tmp/lakejoin-bench-logs"))


class ReferenceBuiltIndex:
    """What the benchmarks read of an index (arrays, signatures, catalog, minhash section),
    built without Spark by the reference builder ``index.arrays.build_arrays`` (which the
    Spark build is tested equal to, tests/test_build.py) and ``hashing.minhash_signatures``
    (bit-identical to the Spark component's, tests/test_hashing.py), saved as .npy files.

    For lakes whose Spark build does not fit the time available on a shared machine (the
    index folder name must end in ``.ref``). Only the LSH Ensemble tables are then built
    from it, with ``build.lshensemble.reference_tables`` (tested equal to the component)."""

    def __init__(self, root: Path):
        from lakejoin_jupyter.index.arrays import IndexArrays
        import dataclasses
        import pandas as pd
        self.path = Path(root)
        self.arrays = IndexArrays(**{f.name: np.load(self.path / f"{f.name}.npy", mmap_mode="r")
                                     for f in dataclasses.fields(IndexArrays)})
        self.signatures = np.load(self.path / "signatures.npy", mmap_mode="r")
        meta = json.loads((self.path / "meta.json").read_text())
        self.components = {"minhash": meta["minhash"]}
        self.columns = pd.read_parquet(self.path / "columns.parquet")
        self.meta = meta

    @classmethod
    def build(cls, lake: str, root: Path, num_perm: int) -> "ReferenceBuiltIndex":
        import pandas as pd
        from lakejoin_jupyter.hashing import minhash_signatures, token_hash32
        from lakejoin_jupyter.index.arrays import build_arrays
        from lakejoin_jupyter.lake.normalize import normalize_many
        t = time.time()
        files = sorted(Path(lake).rglob("*.parquet"))
        sets, cols = [], []
        for tid, f in enumerate(files):
            df = pd.read_parquet(f)
            for name in df.columns:
                toks = {x for x in normalize_many(df[name].dropna().astype(str).tolist()) if x}
                cols.append((len(sets), tid, str(name), str(f)))
                sets.append(sorted(toks))
        read_s = time.time() - t
        ref = build_arrays(sets)
        a = ref.arrays
        h = token_hash32(ref.tokens)
        sig = minhash_signatures(h[a.sets_tokens], a.sets_indptr, num_perm, 1)
        tmp = Path(f"{root}.tmp")
        tmp.mkdir(parents=True, exist_ok=True)
        import dataclasses
        for f in dataclasses.fields(a):
            np.save(tmp / f"{f.name}.npy", getattr(a, f.name))
        np.save(tmp / "signatures.npy", sig)
        pd.DataFrame(cols, columns=["column_id", "table_id", "name", "file"]).to_parquet(
            tmp / "columns.parquet", index=False)
        (tmp / "meta.json").write_text(json.dumps({
            "minhash": {"num_perm": num_perm, "seed": 1}, "lake": str(lake),
            "builder": "index.arrays.build_arrays + hashing.minhash_signatures (no Spark)",
            "read_seconds": round(read_s, 1), "build_seconds": round(time.time() - t - read_s, 1),
            "n_sets": int(a.n_sets), "n_tokens": int(a.n_tokens)}))
        tmp.rename(root)
        print(f"built {root} (reference builder) in {time.time() - t:.0f} s", flush=True)
        return cls(root)


def bench_parser(doc: str) -> argparse.ArgumentParser:
    """The arguments every LSH Ensemble bench takes: the lake, its index, a result name."""
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lake", required=True, help="folder of the lake's tables")
    p.add_argument("--index", required=True,
                   help="index folder (built with Spark if absent; ending in .ref: reference builder)")
    p.add_argument("--name", required=True, help="name of the result files")
    return p


def ensure_index(lake: str, index: str, num_perm: int = 256) -> Generation:
    """Open INDEX (its base generation), building it from LAKE with the real Spark build if
    it does not exist; an INDEX ending in ``.ref`` is built by the reference builder
    instead (see :class:`ReferenceBuiltIndex`)."""
    p = Path(index)
    if p.suffix == ".ref":
        if not (p / "meta.json").exists():
            return ReferenceBuiltIndex.build(lake, p, num_perm)
        return ReferenceBuiltIndex(p)
    if not (p / "manifest.json").exists():
        from lakejoin_jupyter.indexing.pipeline import build
        from lakejoin_jupyter.config import BuildSettings
        t = time.time()
        report = build(lake, p, spark=spark_session(), settings=BuildSettings(num_perm=num_perm),
                       progress=False)
        print(f"built {p} in {time.time() - t:.0f} s: {report.summary().splitlines()[0]}",
              flush=True)
    return LakeIndex(p, verify=False, check_lake=False).generations[0]


class _FolderWriter:
    """The part of IndexWriter that build_tables uses, writing into a plain folder."""

    def __init__(self, root: Path):
        self.root = root

    def path(self, rel):
        p = self.root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        return p

    def uri(self, rel):
        return self.path(rel).as_uri()

    def save_npy(self, rel, arr):
        np.save(self.path(rel), np.ascontiguousarray(arr), allow_pickle=False)


def ensure_tables(index: Generation, n_partitions: int, num_perm: int | None = None
                  ) -> tuple[L.Tables, dict]:
    """LSH Ensemble tables of ``index`` with ``n_partitions`` partitions over the first
    ``num_perm`` signature positions (default all): the index's own component when it
    matches, else built once (same Spark job) beside the index."""
    sec = index.components.get("lshensemble", {})
    full = int(index.components["minhash"]["num_perm"])
    m = int(num_perm or full)
    if (sec.get("partitions_requested") == n_partitions and "bucket_size" in sec
            and int(sec.get("num_perm", full)) == m):
        return L.Tables.load(index), sec
    root = Path(f"{index.path}.lshe-{n_partitions}" + (f"-m{m}" if m != full else ""))
    meta = root / "section.json"
    if not meta.exists() and isinstance(index, ReferenceBuiltIndex):
        from lakejoin_jupyter.indexing.lshensemble import reference_tables
        t = time.time()
        ref = reference_tables(np.asarray(index.signatures)[:, :m],
                               np.diff(index.arrays.sets_indptr), n_partitions)
        for k in ("partitions", "values", "set_ids", "directory"):
            _FolderWriter(root).save_npy(f"lshensemble/{k}.npy", ref[k])
        meta.write_text(json.dumps({"mode": "full", "builder": "reference_tables (numpy)",
                                    "partitions_requested": n_partitions, "num_perm": m,
                                    "intervals": ref["intervals"],
                                    "seconds": round(time.time() - t, 3)}))
    if not meta.exists():
        from lakejoin_jupyter.indexing.lshensemble import build_tables
        spark = spark_session()
        import pandas as pd
        sig = np.asarray(index.signatures)
        sigs = spark.createDataFrame(pd.DataFrame({
            "column_id": np.arange(len(sig), dtype=np.int32),
            "signature": [row.astype("<u4").tobytes() for row in sig]}),
            "column_id int, signature binary")
        section = build_tables(spark, sigs, np.diff(index.arrays.sets_indptr), _FolderWriter(root),
                               m, n_partitions)
        meta.write_text(json.dumps(section))
    section = json.loads(meta.read_text())
    mh = index.components["minhash"]
    tables = L.Tables(partitions=np.load(root / "lshensemble/partitions.npy"),
                      values=np.asarray(np.load(root / "lshensemble/values.npy", mmap_mode="r")),
                      set_ids=np.asarray(np.load(root / "lshensemble/set_ids.npy", mmap_mode="r")),
                      directory=np.load(root / "lshensemble/directory.npy"),
                      num_perm=int(section.get("num_perm", mh["num_perm"])), seed=int(mh["seed"]))
    return tables, section


def context(index: Generation, tables: L.Tables) -> L.Context:
    """The search context of ``index`` with these tables (same views as the engine uses)."""
    base = L.Context.of_arrays(index)
    return L.Context(arrays=base.arrays, signatures=base.signatures, tables=tables,
                     set_sizes=base.set_sizes)


def pick_queries(index: Generation, per_interval: int, lo: int = 10, hi: int = 1000,
                 intervals: int = 10, seed: int = 0) -> list[int]:
    """Column ids used as queries: ``per_interval`` drawn uniformly from each of ``intervals``
    equal-width size intervals of [lo, hi] (the first starts at lo), as in thesis §2.5.2."""
    sizes = np.diff(index.arrays.sets_indptr)
    rng = np.random.default_rng(seed)
    edges = [lo] + [int(hi * (k + 1) / intervals) for k in range(intervals)]
    out = []
    for a, b in zip(edges[:-1], edges[1:]):
        pool = np.flatnonzero((sizes >= a) & (sizes <= b))
        if len(pool):
            out += rng.choice(pool, min(per_interval, len(pool)), replace=False).tolist()
    return sorted(set(out))


class Query:
    """One benchmark query: a lake column, its signature and exact containment of it in
    every set (the query's own column excluded everywhere)."""

    def __init__(self, index: Generation, cid: int):
        self.cid = cid
        self.ids = np.asarray(index.arrays.set_tokens(cid), dtype=np.int64)
        self.size = len(self.ids)
        self.signature = np.asarray(index.signatures[cid])
        s = bruteforce.scores(index.arrays, self.ids, self.size)
        self.overlap = s.overlap
        self.containment = s.containment
        self.containment[cid] = -1.0           # never an answer

    def truth(self, t: float) -> np.ndarray:
        return np.flatnonzero((self.overlap > 0) & (self.containment >= t - 1e-12))


def precision_recall(found: np.ndarray, truth: np.ndarray, exclude: int):
    """(precision or None when nothing was returned, recall or None when nothing qualifies)."""
    found = found[found != exclude]
    hit = len(np.intersect1d(found, truth, assume_unique=True))
    return (hit / len(found) if len(found) else None,
            hit / len(truth) if len(truth) else None)


def mean(xs):
    xs = [x for x in xs if x is not None]
    return float(np.mean(xs)) if xs else float("nan")
