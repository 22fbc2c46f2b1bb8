"""`--out` of `lakejoin join` and `lakejoin union --stack`: missing parent folders are
created (the join is not done and then lost for want of a folder), and a path that cannot be
written (under a file, a folder itself) is refused in one line before any search is run."""
from __future__ import annotations

import pandas as pd
import pytest

from lakejoin_jupyter.cli import main as cli

pytestmark = pytest.mark.spark

TABLE = "fivethirtyeight/fifa/fifa_countries_audience"


@pytest.mark.parametrize("name", ["j.csv", "j.parquet"])
def test_join_out_creates_missing_folders(demo_index_path, tmp_path, capsys, name):
    out = tmp_path / "new" / "deeper" / name
    assert cli(["join", str(demo_index_path), "-t", TABLE, "-c", "country", "--hit", "1",
                "--out", str(out)]) == 0
    assert f"-> {out}" in capsys.readouterr().err
    got = pd.read_csv(out) if name.endswith(".csv") else pd.read_parquet(out)
    assert len(got) > 0 and "country" in got.columns


def test_union_stack_writes_through_the_same_writer(tmp_path):
    """`lakejoin union --stack` writes by the same function: a frame written under missing
    folders, as .csv and .parquet, reads back equal."""
    from lakejoin_jupyter.cli import _write_table
    frame = pd.DataFrame({"a": ["x", "y"], "n": [1, 2]})
    for name in ("s.csv", "s.parquet"):
        out = tmp_path / "nodir" / name
        _write_table(frame, out)
        got = pd.read_csv(out) if name.endswith(".csv") else pd.read_parquet(out)
        pd.testing.assert_frame_equal(got, frame)


def test_out_under_a_file_is_one_line_before_the_search(demo_index_path, tmp_path, capsys):
    blocker = tmp_path / "afile"
    blocker.write_text("x")
    for argv in (["join", str(demo_index_path), "-t", TABLE, "-c", "country", "--hit", "1",
                  "--out", str(blocker / "sub" / "j.csv")],
                 ["union", str(demo_index_path), "-t", TABLE, "--stack", "1",
                  "--out", str(blocker / "s.parquet")]):
        assert cli(argv) == 1
        captured = capsys.readouterr()
        lines = captured.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("lakejoin: error: --out ")
        assert f"{blocker} is not a folder" in lines[0]
        assert captured.out == ""                    # no search was printed


def test_out_that_is_a_folder_is_refused(demo_index_path, tmp_path, capsys):
    folder = tmp_path / "res.csv"
    folder.mkdir()
    assert cli(["join", str(demo_index_path), "-t", TABLE, "-c", "country", "--hit", "1",
                "--out", str(folder)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is a folder; give a file name in it" in err[0]


def test_an_existing_out_file_is_replaced_only_when_asked_and_never_the_data(
        spark, tmp_path, capsys):
    """`--out` never replaces a file silently: an existing file needs --overwrite; the
    query's own file and a file in the lake are refused even with it (they are the data
    searched), before any search, the file unchanged."""
    from conftest import write_lake
    from lakejoin_jupyter import build_index
    lake = write_lake(tmp_path / "lake", {"codes.csv": pd.DataFrame(
        {"code": ["a1", "b2", "c3", "d4"], "n": [1, 2, 3, 4]})})
    index = tmp_path / "lake.index"
    build_index(lake, index, spark=spark, progress=False)
    query = tmp_path / "q.csv"
    pd.DataFrame({"code": ["a1", "b2", "zz"]}).to_csv(query, index=False)
    base = ["join", str(index), "-t", str(query), "-c", "code", "--hit", "1", "--out"]
    old = tmp_path / "old.csv"
    old.write_text("keep me\n")
    assert cli(base + [str(old)]) == 1
    err = capsys.readouterr()
    assert "the file exists" in err.err and "--overwrite" in err.err and err.out == ""
    assert old.read_text() == "keep me\n"
    assert cli(base + [str(old), "--overwrite"]) == 0
    assert list(pd.read_csv(old)["code"]) == ["a1", "b2", "zz"]
    capsys.readouterr()
    in_lake = lake / "joined.csv"
    before = query.read_text()
    for out, what in ((query, "is the query table's file"), (lake / "codes.csv", "in the lake"),
                      (in_lake, "in the lake")):
        assert cli(base + [str(out), "--overwrite"]) == 1
        assert what in capsys.readouterr().err
    assert query.read_text() == before and not in_lake.exists()
    assert cli(["union", str(index), "-t", str(query), "--stack", "1", "--out",
                str(lake / "stacked.csv"), "--overwrite"]) == 1
    assert "in the lake" in capsys.readouterr().err and not (lake / "stacked.csv").exists()
