"""The plain-text outputs say what the HTML says: `lakejoin search`'s table and a search
result's text repr print each hit's key warning ("#1: the key is a category ...") and the
"would multiply" advice (the HTML's note, one text), and `lakejoin join` prints the Join
action's advice when the join multiplies the query's rows; none of it for a unique key."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import write_lake
from lakejoin_jupyter.cli import main as cli

pytestmark = pytest.mark.spark

ADVICE = "of these joins would multiply the query's 3 rows"


@pytest.fixture(scope="module")
def cat_lake(spark, tmp_path_factory):
    """A category column (10 values, 10 rows each), a unique key, and a query for each."""
    from lakejoin_jupyter.indexing.pipeline import build
    cat = pd.DataFrame({"g": [f"grp{i}" for i in range(10) for _ in range(10)],
                        "r": range(100)})
    ids = pd.DataFrame({"uid": [f"user{i:03d}" for i in range(100)], "v": range(100)})
    root = write_lake(tmp_path_factory.mktemp("catlake") / "lake",
                      {"cat10.csv": cat, "ids.csv": ids})
    out = root.parent / "lake.index"
    build(root, out, spark=spark, progress=False)
    q = root.parent / "q"
    q.mkdir()
    pd.DataFrame({"g": ["grp1", "grp2", "grp3"]}).to_csv(q / "cat.csv", index=False)
    pd.DataFrame({"uid": ["user001", "user002", "user003"]}).to_csv(q / "ids.csv", index=False)
    return str(out), q


def test_search_text_has_the_key_warning_and_the_advice(cat_lake, capsys):
    index, q = cat_lake
    assert cli(["search", index, "-t", str(q / "cat.csv"), "-c", "g"]) == 0
    out = capsys.readouterr().out
    assert "#1: the key is a category (10 values, 10 rows per value)" in out
    assert f"1 {ADVICE} (#1: 30 rows)" in out
    # the terminal's advice is lakejoin join's option, not Python
    assert "lakejoin join ... --hit 1 --aggregate first, or --duplicates first" in out


def test_search_text_of_a_unique_key_has_neither(cat_lake, capsys):
    index, q = cat_lake
    assert cli(["search", index, "-t", str(q / "ids.csv"), "-c", "uid"]) == 0
    out = capsys.readouterr().out
    assert "ids" in out and "#1:" not in out and "would multiply" not in out


def test_result_repr_has_the_html_note(cat_lake):
    from lakejoin_jupyter import open_index
    index, q = cat_lake
    engine = open_index(index)
    res = engine.search(pd.read_csv(q / "cat.csv"), "g")
    for text in (repr(res), str(res)):
        assert "#1: the key is a category (10 values, 10 rows per value)" in text
        assert f"1 {ADVICE} (#1: 30 rows)" in text
    # one text: the HTML's note is the terminal's with its code and emphasis marked up
    note = res.multiply_note()
    assert note in repr(res)
    html = res._repr_html_()
    assert note.replace("hit.join(df, aggregate='first')",
                        "<code>hit.join(df, aggregate='first')</code>").replace(
        "Per key", "<i>Per key</i>") in html
    unique = engine.search(pd.read_csv(q / "ids.csv"), "uid")
    assert len(unique) and unique[0].key_warning is None
    assert "#1:" not in repr(unique) and "would multiply" not in repr(unique)


def test_join_prints_the_actions_advice(cat_lake, tmp_path, capsys):
    index, q = cat_lake
    out = tmp_path / "j.csv"
    assert cli(["join", index, "-t", str(q / "cat.csv"), "-c", "g", "--hit", "1",
                "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert len(pd.read_csv(out)) == 30
    assert "the result has 30 rows" in err
    assert "choose per key (latest, first, mean, sum, count)" in err and "*" not in err
    assert "--aggregate first" in err
    # with an aggregate the join keeps one row per query row, and gives no advice
    assert cli(["join", index, "-t", str(q / "cat.csv"), "-c", "g", "--hit", "1",
                "--aggregate", "first", "--out", str(out), "--overwrite"]) == 0
    err = capsys.readouterr().err
    assert len(pd.read_csv(out)) == 3 and "choose per key" not in err


def test_join_of_a_unique_key_prints_no_advice(cat_lake, tmp_path, capsys):
    index, q = cat_lake
    out = tmp_path / "j.csv"
    assert cli(["join", index, "-t", str(q / "ids.csv"), "-c", "uid", "--hit", "1",
                "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert len(pd.read_csv(out)) == 3
    assert "choose per key" not in err and "--aggregate" not in err
