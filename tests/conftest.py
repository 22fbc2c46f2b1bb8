"""Shared fixtures: one Spark session for the whole run, the demo index built once,
helpers to write and index small lakes, and IPython's shell for the magic (``ip``,
:func:`magic_error`). Tests never read ../shared (a fresh clone must pass)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Timing belongs in bench/: no hypothesis deadline (a loaded machine made examples "flaky").
settings.register_profile("lakejoin", deadline=None)
settings.load_profile("lakejoin")

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    from lakejoin_jupyter.config import SparkSettings
    from lakejoin_jupyter.spark import get_spark
    settings = SparkSettings(master="local[2]", shuffle_partitions=4,
                             log_dir=str(tmp_path_factory.mktemp("spark-logs")))
    session = get_spark(settings)
    yield session
    session.stop()


@pytest.fixture(scope="session")
def demo_index_path(spark, tmp_path_factory) -> Path:
    """The packaged demo lake, indexed once per test run (read-only for tests)."""
    from lakejoin_jupyter.indexing.pipeline import build
    from lakejoin_jupyter.demo import demo_lake
    out = tmp_path_factory.mktemp("demo") / "demo.index"
    build(demo_lake(), out, spark=spark, progress=False)
    return out


@pytest.fixture(scope="session")
def demo_fuzzy_index_path(spark, tmp_path_factory) -> Path:
    """The demo lake indexed with the PEXESO, transform and union components
    (beyond_equality.ipynb's second index)."""
    from lakejoin_jupyter.indexing.pipeline import build
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.demo import demo_lake
    out = tmp_path_factory.mktemp("demo-fuzzy") / "demo_fuzzy.index"
    build(demo_lake(), out, spark=spark, settings=BuildSettings(components=("pexeso", "transform", "union")),
          progress=False)
    return out


@pytest.fixture(scope="session")
def demo_engine(demo_index_path):
    from lakejoin_jupyter import open_index
    return open_index(demo_index_path)


def write_lake(root: Path, tables: dict) -> Path:
    """Write {relative path: pandas DataFrame | str | bytes} as files under root."""
    import pandas as pd
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in tables.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, pd.DataFrame):
            if p.suffix == ".parquet":
                content.to_parquet(p, index=False)
            elif p.suffix in (".jsonl", ".json"):
                content.to_json(p, orient="records", lines=True)
            else:
                content.to_csv(p, index=False, sep="\t" if p.suffix == ".tsv" else ",")
        elif isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
    return root


BENCH_DATA = Path(__file__).resolve().parents[1] / "bench" / "data"


def read_case(case: str, *names: str, empty_as_missing: bool = False) -> tuple:
    """The tables ``names`` ("source", "target", "ground_truth") of the Auto-Join benchmark
    case ``case`` under bench/data, every cell text as written (``empty_as_missing``: an
    empty cell missing, as the evaluator reads it)."""
    import pandas as pd
    na = {"na_values": [""]} if empty_as_missing else {}
    return tuple(pd.read_csv(BENCH_DATA / case / f"{n}.csv", dtype=str, keep_default_na=False,
                             **na) for n in names)


UNION_ONLY = ("-josie", "-mate", "-lshensemble", "union")   # components: union search alone


def lake_engine(spark, tmp_path_factory, name: str, tables: dict, **options):
    """The engine of a small lake: ``tables`` written (:func:`write_lake`) and indexed
    (``build_index`` with ``options``, e.g. components=["transform"]) in fresh temporary
    folders named after ``name``."""
    from lakejoin_jupyter import build_index
    root = write_lake(tmp_path_factory.mktemp(name) / "lake", tables)
    out = tmp_path_factory.mktemp(f"{name}_idx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False, **options)


@pytest.fixture
def ip():
    """IPython's shell with the extension loaded; the session's engine is put back after."""
    from IPython.core.interactiveshell import InteractiveShell

    from lakejoin_jupyter.ui.session import SESSION
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "lakejoin_jupyter")
    saved = SESSION.engine
    yield shell
    SESSION.engine = saved


@pytest.fixture
def ip_inserting(ip):
    """``ip`` whose ``set_next_input`` records the cells a magic inserts in ``ip.inserted``
    (put back after)."""
    ip.inserted = []
    ip.set_next_input = lambda text, replace=False: ip.inserted.append(text)
    yield ip
    del ip.set_next_input, ip.inserted


def magic_error(shell, line: str) -> str:
    """The error ``%lakejoin LINE`` must fail with: a MagicError of one line; its text."""
    from lakejoin_jupyter.magics import MagicError
    with pytest.raises(MagicError) as err:
        shell.run_line_magic("lakejoin", line)
    said = str(err.value)
    assert said and "\n" not in said, said
    return said
