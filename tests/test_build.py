"""The Spark build against the pure-Python reference, on the packaged demo lake."""
import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import mmh3
import numpy as np
import pytest
from datasketch import MinHash

from lakejoin_jupyter.index.arrays import build_arrays
from lakejoin_jupyter.lake.normalize import normalize_many
from lakejoin_jupyter.lake.read import TableInfo, read_table

pytestmark = pytest.mark.spark


def python_token_sets(index):
    """Each indexed column's distinct tokens, read and normalized without Spark."""
    sets = []
    for _, t in index.tables.sort_values("table_id").iterrows():
        if t["status"] != "indexed":
            continue
        df = read_table(TableInfo.from_json(t["info"]))
        for c in df.columns:
            sets.append(sorted({x for x in normalize_many(df[c].tolist()) if x is not None}))
    return sets


def test_spark_index_equals_reference_builder(demo_engine):
    assert len(demo_engine.index.generations) == 1
    ix = demo_engine.index.generations[0]
    sets = python_token_sets(ix)
    ref = build_arrays(sets)
    assert ix.arrays.n_sets == len(sets) == ix.manifest["counts"]["columns"]
    for f in fields(ref.arrays):
        assert np.array_equal(getattr(ix.arrays, f.name), getattr(ref.arrays, f.name)), f.name
    assert ix.token_text(range(ix.n_tokens)) == ref.tokens
    # dictionary lookup finds every token and nothing else
    sample = ref.tokens[::97] + ["no such value ~~"]
    assert list(ix.lookup(sample)) == [ref.tokens.index(t) for t in sample[:-1]] + [-1]


def test_signatures_bit_identical_to_datasketch(demo_engine):
    ix = demo_engine.index.generations[0]
    mh = demo_engine.index.components["minhash"]
    assert mh == ix.manifest["components"]["minhash"]
    for cid in range(0, ix.arrays.n_sets, 7):
        m = MinHash(num_perm=mh["num_perm"], seed=mh["seed"],
                    hashfunc=lambda s: mmh3.hash(s, signed=False))
        for t in ix.token_text(ix.arrays.set_tokens(cid)):
            m.update(t)
        assert np.array_equal(ix.signatures[cid], m.hashvalues), cid


def test_catalog_profile(demo_engine):
    ix = demo_engine.index
    t = ix.tables.set_index("name")
    pk = t.loc["fivethirtyeight/police-killings/police_killings"]
    assert pk["encoding"] == "cp1252" and pk["status"] == "indexed"
    cols = ix.columns
    gdp = cols[cols["table_id"] == t.loc["reference/gdp", "table_id"]].set_index("name")
    assert gdp.loc["Year", "type"] == "integer" and gdp.loc["Value", "type"] == "float"
    assert gdp.loc["Country Name", "type"] == "string"
    assert gdp.loc["Country Code", "n_distinct"] == 264 or gdp.loc["Country Code", "n_distinct"] > 200
    assert gdp.loc["Year", "n_null"] == 0
    assert len(gdp.loc["Country Name", "samples"]) == 5


def test_spark_catalog_tables(spark, tmp_path):
    import pandas as pd
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    spark.createDataFrame(pd.DataFrame({"city": ["Paris", "Lyon", "Nice"], "pop": [2.1, 0.5, 0.3]})) \
        .createOrReplaceTempView("lj_cities")
    spark.createDataFrame(pd.DataFrame({"town": ["lyon", "nice", "Brest"]})) \
        .createOrReplaceTempView("lj_towns")
    out = tmp_path / "cat.index"
    report = build(None, out, spark=spark, progress=False, catalog_tables=["lj_cities", "lj_towns"])
    assert report.n_indexed == 2
    engine = open_index(out)
    assert list(engine.index.tables["format"]) == ["catalog", "catalog"]
    res = engine.search("lj_towns", "town", k=3)
    assert (res[0].table, res[0].column, res[0].overlap) == ("lj_cities", "city", 2)
    assert engine.table("lj_cities").shape == (3, 2)


WORKER_IMPORT = """
import sys
sys.path = [p for p in sys.path if p not in ('', {cwd!r})]
sys.path.insert(0, {root!r})
import lakejoin_jupyter
from lakejoin_jupyter.spark import get_spark
def where(_):
    import lakejoin_jupyter as lj
    return lj.__file__
print(lakejoin_jupyter.__file__)
print(get_spark().sparkContext.parallelize([1], 1).map(where).collect()[0])
"""


def test_workers_import_this_package_not_one_in_the_working_directory(tmp_path):
    """Spark starts Python workers as `python -m pyspark.daemon` in the driver's working
    directory, which `-m` puts first on sys.path: a lakejoin_jupyter folder there (another
    checkout) must not replace this package inside UDFs (PYTHONSAFEPATH for workers)."""
    shadow = tmp_path / "lakejoin_jupyter"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("SHADOW = True\n")
    root = str(Path(__file__).resolve().parent.parent)
    code = WORKER_IMPORT.format(cwd=str(tmp_path), root=root)
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    driver, worker = r.stdout.strip().splitlines()[-2:]
    assert driver.startswith(root)
    assert worker == driver


STOP_SCRIPT = """
import sys, psutil
sys.path.insert(0, {root!r})
from lakejoin_jupyter.config import SparkSettings
from lakejoin_jupyter.indexing.pipeline import build
from lakejoin_jupyter.spark import get_spark

def javas():
    return [p for p in psutil.Process().children(recursive=True) if 'java' in p.name()]

def c1_only(*_):
    jit.update("-XX:TieredStopAtLevel=1" in p.cmdline() for p in javas())

settings = SparkSettings(master="local[1]", log_dir={logs!r})
jit = set()
r = build({lake!r}, {out!r} + "1", progress=False, spark_settings=settings, progress_callback=c1_only)
print("after a build that started Spark:", len(javas()), r.phase_seconds.get("starting Spark", 0) > 0,
      "stopping Spark" in r.phase_seconds)
print("small lake, quick JIT only:", sorted(jit))
build({lake!r}, {out!r} + "2", progress=False, spark_settings=settings)
print("after a second one:", len(javas()))
spark = get_spark(settings)
jit = set()
build({lake!r}, {out!r} + "3", progress=False, progress_callback=c1_only)
print("after a build in the caller's session:", len(javas()), spark.range(3).count(), sorted(jit))
"""


def test_build_stops_the_spark_it_started_and_only_that(tmp_path):
    """A notebook kernel must not keep the JVM (1-2 GB) after a build that started it; a
    session the caller already had stays usable."""
    import pandas as pd
    from conftest import write_lake
    lake = write_lake(tmp_path / "lake", {"a.csv": pd.DataFrame({"x": ["p", "q"], "y": ["1", "2"]})})
    code = STOP_SCRIPT.format(root=str(Path(__file__).resolve().parent.parent), lake=str(lake),
                              out=str(tmp_path / "ix"), logs=str(tmp_path / "logs"))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("after")]
    assert lines == ["after a build that started Spark: 0 True True", "after a second one: 0",
                     "after a build in the caller's session: 1 3 [False]"]
    # the JVM a build of a small lake starts runs the quick JIT only; the caller's is untouched
    assert "small lake, quick JIT only: [True]" in r.stdout.splitlines()


def test_small_lake_settings(tmp_path):
    """Only a small lake of files, built by a JVM the build starts, gets the quick-JIT
    option; options the caller gave win."""
    import pandas as pd
    from conftest import write_lake
    from lakejoin_jupyter.config import SparkSettings
    from lakejoin_jupyter.indexing import pipeline
    from lakejoin_jupyter.lake.discover import discover
    lake = write_lake(tmp_path / "lake", {"a.csv": pd.DataFrame({"x": ["p", "q"]})})
    spec = discover(lake)
    key = "spark.driver.extraJavaOptions"
    assert pipeline.small_lake_settings(spec, None).extra == {key: pipeline.SMALL_LAKE_JVM_OPTIONS}
    mine = SparkSettings(extra={key: "-Xss4m", "spark.x": "1"})
    assert pipeline.small_lake_settings(spec, mine) is mine
    big = SparkSettings(extra={"spark.x": "1"})
    spec.tables[0].size = pipeline.SMALL_LAKE_BYTES + 1
    assert pipeline.small_lake_settings(spec, big) is big


ARCHIVE_SCRIPT = """
import os, sys, psutil
from pathlib import Path
sys.path.insert(0, {root!r})
from lakejoin_jupyter import spark as S
from lakejoin_jupyter.config import SparkSettings

def java_options():
    return [a for p in psutil.Process().children(recursive=True) if 'java' in p.name()
            for a in p.cmdline() if a.startswith('-X') and ('Archive' in a or 'Xshare' in a)]

def session(**extra):
    spark = S.get_spark(SparkSettings(master="local[1]", log_dir={logs!r}, extra=extra))
    opts = java_options()
    assert spark.range(3).count() == 3
    return spark, opts

def files():
    return sorted(f.name.split(".jsa")[0].split("-")[0] + ".jsa" + (".tmp" if ".tmp-" in f.name else "")
                  for f in Path(SparkSettings().class_cache_dir).iterdir())

spark, opts = session()
print("first:", [o.split("=")[0] for o in opts])
print("wrote it:", S.stop_spark(spark))
print("after it stopped:", files())
spark, opts = session()
print("second:", [o.split("=")[0] for o in opts], all(o.endswith(".jsa") for o in opts))
print("wrote it:", S.stop_spark(spark))
spark, opts = session(**{{"spark.driver.extraJavaOptions": "-Xshare:off"}})
print("user's own:", opts)
S.stop_spark(spark)
print("at the end:", files())
"""


def test_driver_jvm_class_archive(tmp_path):
    """The first JVM writes the class archive as it exits (renamed into place only once
    whole), later ones map it; a user's own sharing option is left alone."""
    env = {**os.environ, "LAKEJOIN_JVM_CLASS_CACHE_DIR": str(tmp_path / "jvm")}
    env.pop("LAKEJOIN_JVM_CLASS_CACHE", None)
    code = ARCHIVE_SCRIPT.format(root=str(Path(__file__).resolve().parent.parent),
                                 logs=str(tmp_path / "logs"))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=900, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = [ln for ln in r.stdout.splitlines() if ":" in ln]
    assert lines == ["first: ['-XX:ArchiveClassesAtExit']", "wrote it: True",
                     "after it stopped: ['spark.jsa']", "second: ['-XX:SharedArchiveFile'] True",
                     "wrote it: False", "user's own: ['-Xshare:off']", "at the end: ['spark.jsa']"]
