"""What a search says about its query and its index: a search on an open index after a lake
file changed notes (magic, Python) that its figures describe the indexed files, naming them
and the rebuild, as the CLI's open does; ``lakejoin search -t FILE`` names the file it
searched with; ``%lakejoin autojoin df.nosuch ...`` says the column is missing, not df."""
import warnings

import pandas as pd
import pytest

from conftest import write_lake
from lakejoin_jupyter import magics
from lakejoin_jupyter.cli import main as cli


@pytest.fixture
def ip():
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    shell.extension_manager.load_extension("lakejoin_jupyter")
    yield shell
    from lakejoin_jupyter.ui.session import SESSION
    SESSION.engine = None


def test_autojoin_missing_column_of_a_dataframe_names_the_column(ip):
    from lakejoin_jupyter.magics.cmd_autojoin import run_magic
    df = pd.DataFrame({"state": ["Ohio"], "n": [1]})
    other = pd.DataFrame({"name": ["Ohio"]})
    args = magics.parse_request("autojoin df.nosuch other")
    with pytest.raises(Exception) as err:
        run_magic({"df": df, "other": other}, args)
    msg = str(err.value)
    assert "no variable" not in msg and "not a pandas DataFrame" not in msg
    assert "'nosuch'" in msg and "not found" in msg and "['state', 'n']" in msg
    args = magics.parse_request("autojoin df.state other.nosuch")
    with pytest.raises(Exception) as err:
        run_magic({"df": df, "other": other}, args)
    assert "'nosuch'" in str(err.value) and "['name']" in str(err.value)


@pytest.mark.spark
def test_search_after_a_lake_file_changed_says_so_and_cli_names_the_query_file(
        spark, ip, tmp_path, capsys):
    from lakejoin_jupyter.errors import LakeChangedWarning
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    lake = write_lake(tmp_path / "lake", {"hate.csv": pd.DataFrame(
        {"state": ["Texas", "Ohio", "Utah", "Iowa"], "n": [1, 2, 3, 4]})})
    out = tmp_path / "lake.index"
    build(lake, out, spark=spark, progress=False)
    # the CLI names the query file (not "DataFrame")
    q = write_lake(tmp_path / "q", {"q_state.csv": pd.DataFrame({"state": ["Texas", "Ohio"]})})
    assert cli(["search", str(out), "-t", str(q / "q_state.csv"), "-c", "state"]) == 0
    said = capsys.readouterr().out
    assert f"Query: state (file {q / 'q_state.csv'}; 2 distinct values)" in said
    ip.user_ns["df"] = pd.DataFrame({"state": ["Texas", "Ohio", "Utah"]})
    ip.run_line_magic("lakejoin", f"open {out}")
    api = open_index(out)
    with warnings.catch_warnings():
        warnings.simplefilter("error", LakeChangedWarning)
        res = ip.run_line_magic("lakejoin", "search df.state")
        assert not any("changed" in n for n in api.search(["Ohio"], k=3).notes)
    assert not any("changed" in n for n in res.notes)
    f = lake / "hate.csv"
    f.write_text(f.read_text().replace("Ohio", "OHIO-X"))
    capsys.readouterr()
    for _ in range(2):                     # every search on the stale index says it
        res = ip.run_line_magic("lakejoin", "search df.state")
        stale = [n for n in res.notes if "The lake changed since lake.index was built" in n]
        assert len(stale) == 1 and f"modified {f}" in stale[0]
        assert f"`lakejoin index {lake} --out {out} --overwrite`" in stale[0]
        assert "The lake changed since" in res._repr_html_()
    # the API (opened before the change): warned once, as open_index warns, then noted
    with pytest.warns(LakeChangedWarning, match=f"modified {f}"):
        first = api.search(["Ohio"], k=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", LakeChangedWarning)
        again = api.search(["Ohio"], k=3)
    assert first.lake_changed == again.lake_changed == stale[0] and stale[0] in again.notes
    assert first[0].overlap == 1                     # the indexed figures, said to be so
    # the CLI warns once, at its open, and prints no second copy as a note
    assert cli(["search", str(out), "-t", str(q / "q_state.csv"), "-c", "state"]) == 0
    cap = capsys.readouterr()
    assert cap.err.count("The lake changed since") == 1 and "The lake changed" not in cap.out


@pytest.mark.spark
def test_cli_join_prints_its_search_notes_as_search_does(spark, tmp_path, capsys):
    """`lakejoin join` searches before it joins; the notes of that search (here: the index
    has no join statistics, and how to add them) are printed as `lakejoin search` prints
    them, and the lake's changes once, by the open's warning, as for `lakejoin search`."""
    lake = write_lake(tmp_path / "lake", {"hate.csv": pd.DataFrame(
        {"state": ["Texas", "Ohio", "Utah", "Iowa"], "n": ["1", "2", "3", "4"]})})
    out = tmp_path / "lake.index"
    assert cli(["index", str(lake), "--out", str(out), "--without", "joinstats", "-q"]) == 0
    q = write_lake(tmp_path / "q", {"q.csv": pd.DataFrame({"state": ["Texas", "Ohio"]})})
    capsys.readouterr()
    for changed in (False, True):
        if changed:
            f = lake / "hate.csv"
            f.write_text(f.read_text().replace("Iowa", "IOWA-X"))
        assert cli(["search", str(out), "-t", str(q / "q.csv"), "-c", "state"]) == 0
        search = capsys.readouterr()
        notes = [line for line in search.out.splitlines() if line.startswith("note: ")]
        assert any("built without join statistics" in n for n in notes), search.out
        assert cli(["join", str(out), "-t", str(q / "q.csv"), "-c", "state", "--hit", "1",
                    "--out", str(tmp_path / f"j{int(changed)}.csv")]) == 0
        join = capsys.readouterr()
        assert [line for line in join.err.splitlines() if line.startswith("note: ")] == notes
        assert (join.err.count("The lake changed since") == search.err.count(
            "The lake changed since") == int(changed))
