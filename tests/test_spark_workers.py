"""Joins on a session whose Python workers cannot import lakejoin_jupyter (a session the
user made while ``python3`` on PATH is another interpreter): spark.ensure_worker_python."""
import os
import subprocess
import sys

import pandas as pd
import pytest

import lakejoin_jupyter.spark as lj_spark
from lakejoin_jupyter.errors import SparkWorkerPythonError, WorkerPythonWarning
from lakejoin_jupyter.join.execute import execute, join_pandas
from lakejoin_jupyter.join.plan import make_plan

pytestmark = pytest.mark.spark

BARE = "/usr/bin/python3"       # the system Python: no lakejoin_jupyter, no pandas


@pytest.fixture
def bare_workers(spark):
    """The test session's workers set to the system Python, as PySpark does for a session
    made without PYSPARK_PYTHON; restored afterwards."""
    if not os.path.exists(BARE) or subprocess.run(
            [BARE, "-c", "import lakejoin_jupyter, pandas, pyarrow"],
            capture_output=True).returncode == 0:
        pytest.skip(f"needs a {BARE} that cannot import lakejoin_jupyter")
    sc = spark.sparkContext
    before = sc.pythonExec
    sc.pythonExec = BARE
    yield sc
    sc.pythonExec = before


QUERY = pd.DataFrame({"country": ["France", " GERMANY", "Peru", None], "n": [1, 2, 3, 4]})
OTHER = pd.DataFrame({"name": ["france", "germany", "chile"], "capital": ["Paris", "Berlin",
                                                                          "Santiago"]})


def test_join_on_a_session_with_a_bare_worker_python_runs(spark, bare_workers):
    plan = make_plan(QUERY.columns, ["country"], OTHER.columns, ["name"], other_label="capitals")
    with pytest.warns(WorkerPythonWarning, match="python3"):
        got = execute(plan, spark.createDataFrame(QUERY), OTHER).toPandas()
    rows = sorted(got.astype(object).where(lambda d: d.notna(), None)
                  .itertuples(index=False, name=None), key=str)
    want = sorted(join_pandas(QUERY, OTHER, plan).astype(object)
                  .where(lambda d: d.notna(), None).itertuples(index=False, name=None), key=str)
    assert rows == want and ("France", 1, "france", "Paris") in rows
    assert bare_workers.pythonExec == sys.executable


def test_get_spark_fixes_the_users_session_for_generated_code(spark, bare_workers):
    """Generated PySpark code starts with ``spark = get_spark()``: the session it returns
    runs our UDFs."""
    with pytest.warns(WorkerPythonWarning):
        assert lj_spark.get_spark() is spark
    assert bare_workers.pythonExec == sys.executable


def test_no_usable_python_is_one_clear_error(spark, bare_workers, monkeypatch):
    other = os.path.realpath(BARE)          # the same bare interpreter, by another name
    if other == BARE:
        pytest.skip(f"{BARE} is not a link")
    monkeypatch.setattr(sys, "executable", other)
    plan = make_plan(QUERY.columns, ["country"], OTHER.columns, ["name"], other_label="capitals")
    with pytest.raises(SparkWorkerPythonError, match="PYSPARK_PYTHON") as e:
        execute(plan, spark.createDataFrame(QUERY), OTHER)
    assert BARE in str(e.value) and "No module named" in str(e.value)


def test_build_on_the_users_session_with_a_bare_worker_python(spark, bare_workers, tmp_path):
    from conftest import write_lake

    from lakejoin_jupyter.indexing.pipeline import build
    lake = write_lake(tmp_path / "lake", {"capitals.csv": OTHER})
    with pytest.warns(WorkerPythonWarning):
        build(lake, tmp_path / "lake.index", spark=spark, progress=False)
    assert bare_workers.pythonExec == sys.executable
