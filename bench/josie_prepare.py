"""Synthetic lakes and their indexes for bench/josie.py (generated and built once, reused).

    python bench/josie_prepare.py WORK_DIR opendata-1e5 [webtable-1e5 opendata-1e6 ...]

A lake name is [ref-]SHAPE-SETS[-cptN][-maxM]: SHAPE is opendata or webtable (bench/synthetic.py),
SETS the number of columns (sets), cptN the columns per table (default 4; more columns per
table means fewer files), maxM the largest open-data set size (default 100000). The lake is
written to WORK_DIR/NAME/lake and indexed with the real Spark build
(lakejoin_jupyter.indexing.pipeline.build, default components unless ``--without`` leaves some
out; JOSIE's costs are always fitted) into
WORK_DIR/NAME/index. Timings go to WORK_DIR/NAME/prepare.json.

With the prefix ``ref-`` no Spark runs and no lake is written: the same sets, drawn as
integers (bench.synthetic.generate_ids), are indexed by the vectorized reference builder
lakejoin_jupyter.index.arrays.build_arrays_from_ids (equal to build_arrays, tests/test_josie.py,
whose output the Spark build equals, tests/test_build.py; token ids differ from a Spark build
of the written lake only inside duplicate groups, whose members tie on frequency and list)
into the same array files, the postings Parquet (for DuckDB) is written
with pandas, and the "josie" component's calibration runs on them. For a quick run when a
Spark build of the lake does not fit the time available.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def parse_name(name: str) -> dict:
    m = re.fullmatch(r"(opendata|webtable)-(\d+(?:e\d+)?)(?:-cpt(\d+))?(?:-max(\d+(?:e\d+)?))?", name)
    if not m:
        raise SystemExit(f"bad lake name {name!r}: expected e.g. opendata-1e5, webtable-1e5-cpt20")
    return {"shape": m.group(1), "n_sets": int(float(m.group(2))),
            "columns_per_table": int(m.group(3) or 4),
            "max_size": int(float(m.group(4))) if m.group(4) else 100_000}


def prepare_reference(work: Path, name: str, seed: int = 0) -> Path:
    import numpy as np
    import pandas as pd

    from bench.synthetic import generate_ids
    from lakejoin_jupyter.indexing.josie import _section_from
    from lakejoin_jupyter.index.arrays import build_arrays_from_ids
    from lakejoin_jupyter.index.store import ARRAY_FILES

    spec = parse_name(name[len("ref-"):])
    root = work / name
    index = root / "index"
    if (index / "manifest.json").exists():
        return index
    root.mkdir(parents=True, exist_ok=True)
    t = time.time()
    indptr, values = generate_ids(spec["n_sets"], shape=spec["shape"], seed=seed,
                                  max_size=spec["max_size"],
                                  columns_per_table=spec["columns_per_table"])
    gen_s = time.time() - t
    t = time.time()
    a = build_arrays_from_ids(indptr, values).arrays
    del indptr, values
    tmp = root / "index.tmp"
    for field_name, rel in ARRAY_FILES.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        np.save(tmp / rel, getattr(a, field_name))
    post = tmp / "postings" / "postings.parquet"
    post.mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"token_id": np.repeat(np.arange(a.n_tokens, dtype=np.int32), np.diff(a.post_indptr)),
                  "set_id": a.post_sets, "position": a.post_pos, "set_size": a.post_sizes}
                 ).to_parquet(post / "part-00000.parquet", index=False)
    groups = np.bincount(a.token_group)
    lists = {"original": int(a.n_tokens), "distinct": int(len(groups)),
             "in_duplicate_groups": int(groups[groups > 1].sum()),
             "dup_pct": round(100.0 * groups[groups > 1].sum() / max(a.n_tokens, 1), 3),
             "largest_group": int(groups.max()) if len(groups) else 0}
    section = _section_from(tmp, lists)
    manifest = {"counts": {"columns": int(a.n_sets), "tokens": int(a.n_tokens),
                           "groups": int(len(groups)), "postings": int(len(a.post_sets))},
                "components": {"josie": section}, "builder": "index.arrays.build_arrays"}
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1))
    tmp.rename(index)
    (root / "prepare.json").write_text(json.dumps(
        dict(spec, generate_seconds=round(gen_s, 1), build_seconds=round(time.time() - t, 1),
             builder="reference (numpy, no Spark)"), indent=1))
    return index


def prepare(work: Path, name: str, driver_memory: str = "6g", seed: int = 0,
            without: tuple = ()) -> Path:
    if name.startswith("ref-"):
        return prepare_reference(work, name, seed)
    from bench.synthetic import generate
    from lakejoin_jupyter.indexing.pipeline import build
    from lakejoin_jupyter.config import BuildSettings, SparkSettings
    from lakejoin_jupyter.index.store import is_index
    from lakejoin_jupyter.spark import get_spark

    spec = parse_name(name)
    root = work / name
    lake, index = root / "lake", root / "index"
    info_path = root / "prepare.json"
    info = json.loads(info_path.read_text()) if info_path.exists() else {}
    if is_index(index):
        return index
    root.mkdir(parents=True, exist_ok=True)
    if not (root / "lake.done").exists():
        t = time.time()
        generate(lake, spec["n_sets"], shape=spec["shape"], seed=seed, max_size=spec["max_size"],
                 columns_per_table=spec["columns_per_table"])
        (root / "lake.done").write_text("ok")
        info["generate_seconds"] = round(time.time() - t, 1)
        info_path.write_text(json.dumps(info, indent=1))
    spark = get_spark(SparkSettings(master="local[2]", driver_memory=driver_memory,
                                    shuffle_partitions=16, log_dir=str(work / "spark-logs")))
    t = time.time()
    settings = BuildSettings(components=tuple(f"-{c}" for c in without))
    report = build(lake, index, spark=spark, settings=settings, progress=False, overwrite=True)
    info.update(spec)
    info["without"] = list(without)
    info["build_seconds"] = round(time.time() - t, 1)
    info["summary"] = report.summary().splitlines()[0]
    info_path.write_text(json.dumps(info, indent=1))
    return index


def recalibrate(work: Path, name: str) -> dict:
    """Fit the "josie" manifest section (read costs, planner) of an existing index again
    with the current code, keeping its list statistics; the manifest is replaced whole."""
    from lakejoin_jupyter.indexing.josie import _section_from
    index = work / name / "index"
    path = index / "manifest.json"
    manifest = json.loads(path.read_text())
    lists = manifest["components"]["josie"]["lists"]
    manifest["components"]["josie"] = _section_from(index, lists)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(manifest, indent=1))
    tmp.replace(path)
    return manifest["components"]["josie"]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("work", type=Path)
    p.add_argument("lakes", nargs="+")
    p.add_argument("--driver-memory", default="6g")
    p.add_argument("--without", action="append", default=[], metavar="COMPONENT",
                   help="leave a default component out of the Spark build (repeatable), e.g. "
                        "mate and lshensemble, which JOSIE does not read")
    p.add_argument("--recalibrate", action="store_true",
                   help="re-fit the JOSIE read costs and planner of already prepared indexes "
                        "with the current code (after a change to the search or the reads)")
    a = p.parse_args(argv)
    for name in a.lakes:
        t = time.time()
        prepare(a.work, name, a.driver_memory, without=tuple(a.without))
        if a.recalibrate:
            recalibrate(a.work, name)
        print(f"{name}: ready in {time.time() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
