"""A real Spark standalone master and worker on 127.0.0.1 build the same index as local mode."""
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import write_lake
from lakejoin_jupyter.indexing.pipeline import build
from lakejoin_jupyter.index.store import LakeIndex

pytestmark = [pytest.mark.spark, pytest.mark.cluster]


@pytest.fixture
def standalone_cluster(tmp_path):
    """A master and one 2-core worker on 127.0.0.1 (bench/build_cluster.py's Cluster)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.build_cluster import Cluster
    cluster = Cluster(tmp_path / "cluster", workers=1, cores=2, memory="2g")
    with cluster as master:
        yield master, cluster.env, cluster.work / "cluster.log"


def test_cluster_build_equals_local_build(spark, tmp_path, standalone_cluster):
    master, env, logs = standalone_cluster
    lake = write_lake(tmp_path / "lake", {
        "countries.csv": pd.DataFrame({"country": ["France", "Germany", "Japan", "Peru"],
                                       "code": ["FR", "DE", "JP", "PE"]}),
        "sub/capitals.parquet": pd.DataFrame({"name": ["Paris", "Berlin", "Tokyo"],
                                              "country": ["france", "germany", "japan"]}),
        "latin1.csv": "ville,pays\nOrléans,France\nLiège,Belgique\n".encode("latin-1"),
        "bad.csv": "",
    })
    local = tmp_path / "local.index"
    build(lake, local, spark=spark, progress=False)
    remote = tmp_path / "cluster.index"
    # a fresh process: one JVM holds one SparkContext, and this one is local
    env = dict(env, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    r = subprocess.run([sys.executable, "-m", "lakejoin_jupyter.cli", "index", str(lake),
                        "--out", str(remote), "--master", master, "-q"],
                       capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:] + logs.read_text()[-2000:]
    a, b = LakeIndex(local), LakeIndex(remote)
    assert b.manifest["build"]["spark_master"] == master
    pa, pb = a.generations[0], b.generations[0]
    for f in fields(pa.arrays):
        assert np.array_equal(getattr(pa.arrays, f.name), getattr(pb.arrays, f.name)), f.name
    assert np.array_equal(pa.signatures, pb.signatures)
    assert pa.token_text(range(pa.n_tokens)) == pb.token_text(range(pb.n_tokens))
    keep = ["table_id", "name", "status", "reason", "encoding", "n_rows"]
    pd.testing.assert_frame_equal(a.tables[keep], b.tables[keep])
    keep = ["column_id", "table_id", "name", "type", "n_distinct", "n_null", "samples"]
    pd.testing.assert_frame_equal(a.columns[keep], b.columns[keep])
