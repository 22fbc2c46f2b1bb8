"""``lakejoin index`` refuses bad ``--set`` values and a missing index before any Spark work:
every component's option names are checked by one rule (the valid ones listed), a value of
the wrong type names the option and what it takes, and ``--add`` to a path without an index
says there is none (never that this very process is a running build)."""
import os

import pytest

from conftest import write_lake
from lakejoin_jupyter.cli import main as cli


@pytest.fixture
def no_spark(monkeypatch):
    """Fail the test if a build starts Spark (the checks must come first)."""
    import lakejoin_jupyter.spark as spark_module

    def started(*a, **k):
        raise AssertionError("Spark was started before the options were checked")
    monkeypatch.setattr(spark_module, "get_spark", started)


@pytest.fixture
def lake(tmp_path):
    return write_lake(tmp_path / "lake", {"t.csv": "a,b\nx,1\ny,2\n"})


@pytest.mark.parametrize("option, component, with_", [
    ("josie.foo=1", "josie", ()), ("mate.foo=1", "mate", ()), ("joinstats.x=1", "joinstats", ()),
    ("lshensemble.foo=1", "lshensemble", ()), ("pexeso.levles=3", "pexeso", ("pexeso",)),
    ("union.foo=1", "union", ("union",)), ("transform.foo=1", "transform", ("transform",))])
def test_unknown_option_of_any_component_is_refused(no_spark, lake, tmp_path, capsys, option,
                                                    component, with_):
    from lakejoin_jupyter.indexing.pipeline import COMPONENTS
    out = tmp_path / "x.index"
    args = ["index", str(lake), "--out", str(out), "-q", "--set", option]
    for w in with_:
        args += ["--with", w]
    assert cli(args) == 1
    err = capsys.readouterr().err
    name = option.split(".")[1].split("=")[0]
    assert f"Unknown {component} option(s) [{name!r}]" in err
    known = sorted(COMPONENTS[component].options)
    assert (f"known: {known}" in err) if known else f"{component} takes no options" in err
    assert not out.exists()


@pytest.mark.parametrize("option, words", [
    ("pexeso.levels=abc", ["pexeso.levels", "an integer", "'auto'", "'abc'"]),
    ("pexeso.pivots=2.5", ["pexeso.pivots", "an integer", "2.5"]),
    ("pexeso.values=some", ["pexeso.values", "'auto', 'text' or 'all'", "'some'"]),
    ("pexeso.embedder=foo", ["pexeso.embedder", "Unknown embedder 'foo'"]),
    ("pexeso.pivot_method=best", ["pexeso.pivot_method", "'pca' or 'random'"]),
    ("union.sample_values=many", ["union.sample_values", "an integer", "'many'"]),
    ("transform.q=x", ["transform.q", "an integer", "'x'"]),
    ("lshensemble.partitions=0", ["lshensemble.partitions", "an integer >= 1", "0"]),
    ("lshensemble.num_perm=300", ["lshensemble.num_perm", "MinHash num_perm (256)", "300"])])
def test_bad_option_value_names_option_type_and_values_before_spark(no_spark, lake, tmp_path,
                                                                     capsys, option, words):
    comp = option.split(".")[0]
    out = tmp_path / "x.index"
    extra = [] if comp == "lshensemble" else ["--with", comp]
    assert cli(["index", str(lake), "--out", str(out), "-q", "--set", option, *extra]) == 1
    err = capsys.readouterr().err
    assert "invalid literal" not in err
    for w in words:
        assert w in err, (w, err)
    assert not out.exists()


def test_add_to_a_missing_index_says_there_is_none(no_spark, lake, tmp_path, capsys):
    missing = tmp_path / "noidx"
    assert cli(["index", "--add", str(lake), str(missing)]) == 1
    err = capsys.readouterr().err
    assert f"No index at {missing}" in err and "lakejoin index LAKE --out" in err
    assert "is running" not in err and f"pid {os.getpid()}" not in err
    assert not missing.exists()


def test_open_during_this_process_own_build_names_no_pid(tmp_path):
    """A build of this process (the widget's, in a thread) holds the lock: opening the
    missing index says this process is building it, not a pid to wait for."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.errors import LakeJoinError
    from lakejoin_jupyter.index.lock import BuildLock
    path = tmp_path / "x.index"
    with BuildLock(path):
        with pytest.raises(LakeJoinError) as err:
            open_index(path)
    msg = str(err.value)
    assert f"pid {os.getpid()}" not in msg and "this process" in msg
