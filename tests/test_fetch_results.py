"""The build's collects survive PySpark's lost result socket (spark.fetch_results): when the
driver cannot connect to the socket the JVM serves a job's results on, PySpark's
``_load_from_socket`` raises ``UnboundLocalError: ... 'sockfile'``; the collect is run again,
and a failure that persists is one clear error. The failure is made as a loaded machine
makes it: PySpark's ``_create_local_socket`` connects, then gives up (its handshake timed
out) and raises the connection error PySpark raises then; PySpark's own code does the rest."""
import pandas as pd
import pytest

import lakejoin_jupyter.spark as lj_spark
from lakejoin_jupyter.errors import SparkJobError

pytestmark = pytest.mark.spark


@pytest.fixture
def lose_sockets(monkeypatch):
    """``lose(fails)``: pyspark's connects to a result socket fail when ``fails(n)`` (n: the
    connect's number, from 1); returns the list of failed connects' numbers."""
    import pyspark.util
    from pyspark.errors import PySparkRuntimeError
    real = pyspark.util._create_local_socket
    monkeypatch.setattr(lj_spark, "RESULT_RETRY_PAUSE", 0.0)

    def lose(fails):
        calls, failed = [0], []

        def connect(sock_info):
            calls[0] += 1
            if fails(calls[0]):
                failed.append(calls[0])
                sockfile, sock = real(sock_info)      # the JVM sees its client come and go
                sockfile.close()
                sock.close()
                raise PySparkRuntimeError(errorClass="CANNOT_OPEN_SOCKET", messageParameters={
                    "errors": "tried to connect to ('127.0.0.1', 1), but an error occurred: "
                              "timed out"})
            return real(sock_info)
        monkeypatch.setattr(pyspark.util, "_create_local_socket", connect)
        return failed
    return lose


def test_pyspark_raises_the_unbound_sockfile_error(spark, lose_sockets):
    """What the CI saw, from PySpark itself: the helper recognises exactly it."""
    lose_sockets(lambda n: True)
    with pytest.raises(UnboundLocalError, match="sockfile") as got:
        spark.range(3).collect()
    assert "CANNOT_OPEN_SOCKET" in str(got.value.__context__)
    assert lj_spark._lost_result_socket(got.value) is got.value.__context__
    assert lj_spark._lost_result_socket(UnboundLocalError("local variable 'sockfile'")) is None


def test_one_lost_socket_is_retried_and_a_lasting_one_is_a_clear_error(spark, lose_sockets):
    """Each way the build fetches results: a DataFrame's collect and toPandas (Arrow), an
    RDD's collect."""
    frame = spark.range(3)
    for action in (frame.collect, frame.rdd.map(lambda r: r.id).collect, frame.toPandas):
        failed = lose_sockets(lambda n: n == 1)
        got = lj_spark.fetch_results(action, "x")
        assert [r if isinstance(r, int) else r.id for r in
                (got["id"].tolist() if isinstance(got, pd.DataFrame) else got)] == [0, 1, 2]
        assert failed == [1]
    failed = lose_sockets(lambda n: True)
    with pytest.raises(SparkJobError, match=r"Spark failed while reading the lake: the driver "
                                            r"could not connect to the JVM .*3 tries.*"
                                            r"CANNOT_OPEN_SOCKET"):
        lj_spark.fetch_results(lambda: spark.range(3).toPandas(), "reading the lake")
    assert failed == [1, 2, 3]


def test_another_unbound_sockfile_is_not_retried():
    calls = []

    def action():
        calls.append(1)
        raise UnboundLocalError("cannot access local variable 'sockfile' where it is not "
                                "associated with a value")    # not from _load_from_socket
    with pytest.raises(UnboundLocalError):
        lj_spark.fetch_results(action, "x")
    assert len(calls) == 1


def test_a_build_whose_every_collect_loses_its_first_socket_succeeds(spark, tmp_path,
                                                                      lose_sockets):
    """Every result socket of the build fails on its first connect (odd connects): the build,
    with its optional components, completes and finds what a clean build finds."""
    from conftest import write_lake
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    names = [f"place {i}" for i in range(40)]
    lake = write_lake(tmp_path / "lake", {
        "a.csv": pd.DataFrame({"country": names, "n": range(40)}),
        "b.csv": pd.DataFrame({"name": ["peru", "chad"], "code": ["PE", "TD"]})})
    settings = BuildSettings(components=("union", "pexeso", "transform"), component_options={
        "pexeso": {"embedder": "ngram:dim=64", "pivots": 4}})
    failed = lose_sockets(lambda n: n % 2 == 1)
    build(lake, tmp_path / "lake.index", spark=spark, progress=False, settings=settings)
    assert len(failed) >= 5, failed           # the lake read, union, pexeso, transform, mate
    res = open_index(tmp_path / "lake.index").search(pd.DataFrame({"k": names[:30]}), "k")
    assert (res[0].table, res[0].column, res[0].overlap) == ("a", "country", 30)


def test_a_build_whose_sockets_stay_lost_fails_in_one_line(spark, tmp_path, lose_sockets):
    from conftest import write_lake
    from lakejoin_jupyter.indexing.pipeline import build
    lake = write_lake(tmp_path / "lake", {"a.csv": pd.DataFrame({"k": ["x", "y"]})})
    lose_sockets(lambda n: True)
    with pytest.raises(SparkJobError, match="could not connect to the JVM"):
        build(lake, tmp_path / "lake.index", spark=spark, progress=False)
    assert not (tmp_path / "lake.index").exists()


def test_a_search_and_a_join_on_a_spark_frame_survive_a_lost_socket(spark, lose_sockets):
    """Search and join time: a Spark query frame's key values (engine._collect_spark, with
    its sample of a frame holding more distinct values than asked for), the rows a learning
    action reads and the schemaless join's sample are fetched again after a lost socket,
    and equal what a clean fetch gives."""
    from lakejoin_jupyter import engine, frames
    from lakejoin_jupyter.join import schemaless
    frame = spark.createDataFrame(pd.DataFrame({"k": [f"v{i % 7}" for i in range(40)],
                                                "n": range(40)}))
    runs = {
        "query": lambda: engine._collect_spark(frame, ("k",), 100),
        "query sample": lambda: engine._collect_spark(frame, ("k",), 5),
        "learning rows": lambda: frames.learning_frame(frame),
        "join sample": lambda: schemaless._sample_spark(frame, 100, 0),
        "join sample of part": lambda: schemaless._sample_spark(frame, 10, 0)}
    for name, run in runs.items():
        clean = run()
        failed = lose_sockets(lambda n: n == 1)
        got = run()
        assert failed == [1], name
        assert repr(got) == repr(clean), name
        lose_sockets(lambda n: False)
    lose_sockets(lambda n: True)
    with pytest.raises(SparkJobError, match=r"collecting the query column\(s\) \['k'\].*"
                                            r"could not connect to the JVM"):
        engine._collect_spark(frame, ("k",), 100)
