"""`lakejoin index --add joinstats INDEX`: the join statistics added to an index built
without them equal the brute-force reference, the index then answers exact join sizes with
no "rebuild" note, and an add that fails or is refused leaves the index as it was."""
import json
import os

import numpy as np
import pandas as pd
import pytest

from conftest import magic_error, write_lake
from lakejoin_jupyter import open_index
from lakejoin_jupyter.cli import main as cli
from lakejoin_jupyter.errors import LakeJoinError
from lakejoin_jupyter.index import store
from lakejoin_jupyter.index.joinstats import reference_stats
from lakejoin_jupyter.indexing import joinstats as joinstats_job
from lakejoin_jupyter.indexing.extend import add_component
from lakejoin_jupyter.lake.normalize import normalize_many
from lakejoin_jupyter.lake.read import TableInfo, read_table
from test_hits import COUNTRIES, SPELLINGS, _random_tables, pandas_truth


def _snapshot(index):
    """Every file and folder of the index with its bytes, and the folders beside it."""
    return ({p.relative_to(index).as_posix(): p.read_bytes() if p.is_file() else None
             for p in sorted(index.rglob("*"))},
            sorted(p.name for p in index.parent.iterdir() if p.is_dir()))


def _reference(gen):
    """reference_stats of a generation's tables, read by pandas (the oracle)."""
    columns = []
    for _, t in gen.tables.sort_values("table_id").iterrows():
        if t["status"] != "indexed":
            continue
        df = read_table(TableInfo.from_json(t["info"]))
        columns += [normalize_many(df[c].tolist()) for c in df.columns]
    token_id = {t: i for i, t in enumerate(gen.token_text(range(gen.n_tokens)))}
    return reference_stats(columns, token_id)


@pytest.fixture
def bare_index(spark, tmp_path):
    """An index of two generations, both built without joinstats (and MATE, which would
    count join rows without them)."""
    tables = _random_tables()
    names = sorted(tables)
    first = write_lake(tmp_path / "lake" / "first", {n: tables[n] for n in names[:5]})
    second = write_lake(tmp_path / "lake" / "second", {n: tables[n] for n in names[5:]})
    out = tmp_path / "ix" / "bare.index"
    out.parent.mkdir()
    assert cli(["index", str(first), "--out", str(out), "--without", "joinstats",
                "--without", "mate", "--without", "lshensemble", "-q"]) == 0
    assert cli(["index", "--add", str(second), str(out), "-q"]) == 0
    return out, first


@pytest.mark.spark
def test_add_joinstats_gives_exact_join_rows(bare_index, capsys):
    out, _ = bare_index
    df = pd.DataFrame({"key": COUNTRIES[10:30] + SPELLINGS[:8]})
    before = open_index(out)
    assert len(before.index.generations) == 2 and not before.index.has("joinstats")
    assert before.index.notes and "Rebuild to get join estimates" in before.index.notes[0]
    assert not all(h.join_rows_exact for h in before.search(df, "key", k=None))

    assert cli(["index", "--add", "joinstats", str(out), "-q"]) == 0
    printed = capsys.readouterr().out
    assert "Added joinstats" in printed and "(2 generation(s))" in printed
    assert "Rebuild" not in printed
    engine = open_index(out)                   # checksums of the new files verified
    assert engine.index.has("joinstats") and engine.index.notes == []
    for gen in engine.index.generations:
        ref, stats = _reference(gen), gen.joinstats
        for name in ("dup_indptr", "dup_tokens", "dup_counts"):
            assert np.array_equal(getattr(stats, name), getattr(ref, name)), (gen.name, name)
        want = ref.as_joinstats().shapes
        for f, arr in stats.shapes.items():
            np.testing.assert_allclose(arr, want[f], equal_nan=True, err_msg=f)
    res = engine.search(df, "key", k=None)
    assert res.notes == [] and len(res) >= 5
    for h in res:
        want = pandas_truth(df["key"], engine.table(h.table)[h.column])
        assert h.join_rows_exact and h.join_rows == want["join_rows"] == len(h.join(df))
        assert h.key_ratio == pytest.approx(want["key_ratio"])
    assert not list(out.rglob(".lakejoin-add-*"))
    assert cli(["index", "--add", "joinstats", str(out), "-q"]) == 0    # again: nothing to do
    assert "already has joinstats; nothing to do" in capsys.readouterr().out


@pytest.mark.spark
@pytest.mark.parametrize("where", ["build", "manifest"])
def test_a_failed_add_leaves_the_index_as_it_was(bare_index, spark, monkeypatch, where):
    out, _ = bare_index
    before = _snapshot(out)

    def boom(*a, **k):
        raise RuntimeError("disk full")
    if where == "build":        # after the read job wrote the long form
        monkeypatch.setattr(joinstats_job, "finish", boom)
    else:                       # the base's folder is in place, its manifest write fails
        monkeypatch.setattr(store, "_write_json_atomic", boom)
    with pytest.raises(RuntimeError, match="disk full"):
        add_component(out, "joinstats", spark=spark, progress=False)
    assert _snapshot(out) == before
    engine = open_index(out)
    assert not engine.index.has("joinstats") and engine.index.notes


@pytest.mark.spark
def test_add_refuses_a_changed_lake_and_other_components(bare_index, spark, capsys):
    out, first = bare_index
    before = _snapshot(out)
    assert cli(["index", "--add", "mate", str(out)]) == 1
    err = capsys.readouterr().err
    assert "'mate' cannot be added to a built index" in err and "--with mate" in err
    assert f"lakejoin index {first}" in err          # the index's own lake, as built
    f = next(first.rglob("*.csv"))
    os.utime(f, ns=(f.stat().st_atime_ns, f.stat().st_mtime_ns + 10 ** 9))
    f.write_bytes(f.read_bytes().replace(b",", b";", 1))          # same size, other content
    with pytest.raises(LakeJoinError, match=r"The lake changed since .*Rebuild the index"):
        add_component(out, "joinstats", spark=spark, progress=False)
    assert _snapshot(out) == before
    assert json.loads((out / "manifest.json").read_text())["components"].get("joinstats") is None


@pytest.mark.spark
def test_add_transform_equals_the_reference(bare_index, capsys):
    """`lakejoin index --add transform INDEX`: each generation's arrays equal the reference
    construction from its own tokens, and the "transform" method then answers."""
    from lakejoin_jupyter.index.transform_arrays import load
    from lakejoin_jupyter.search.segments import build_reference
    from lakejoin_jupyter.ui.session import Session
    from lakejoin_jupyter.ui.widget import DiscoveryWidget
    out, _ = bare_index
    before = open_index(out)
    with pytest.raises(LakeJoinError, match=r"--add transform"):
        before.search(pd.DataFrame({"key": COUNTRIES[:20]}), "key", method="transform")
    missing = {m.name: how for m, how in before.missing_methods()}
    assert missing["transform"] == f"lakejoin index --add transform {before.index.path}"
    assert missing["pexeso"] == "rebuild with --with pexeso"
    w = DiscoveryWidget(before, session=Session(), namespace={"q": pd.DataFrame({"key": ["x"]})},
                        frame="q", columns=["key"], auto_insert=False)
    assert "--add transform" in w.query.more_methods.value      # the widget says how to get it
    assert cli(["index", "--add", "transform", str(out), "-q"]) == 0
    assert "Added transform" in capsys.readouterr().out
    engine = open_index(out)
    assert engine.index.has("transform")
    assert "transform" not in {m.name for m, _ in engine.missing_methods()}
    for gen in engine.index.generations:
        ti = load(gen)
        toks = [gen.token_text(gen.arrays.set_tokens(c)) for c in range(gen.n_sets)]
        vocab = {t: i for i, t in enumerate(gen.token_text(np.arange(gen.n_tokens)))}
        ref = build_reference(toks, vocab, gen.columns["type"].tolist(), ti.spec)
        assert ti.arrays.equals(ref.arrays), gen.name
        pd.testing.assert_frame_equal(ti.columns, ref.columns)
    res = engine.search(pd.DataFrame({"key": [s.upper() + "!" for s in COUNTRIES[:20]]}),
                        "key", method="transform")
    assert res.method == "transform"


@pytest.mark.parametrize("words", [["--set", "pexeso.levels=5"], ["--minhash-seed", "3"],
                                   ["--out", "other.index"]])
def test_magic_index_add_refuses_what_the_cli_refuses_in_its_words(ip, tmp_path, capsys,
                                                                    words):
    """`%lakejoin index --add` takes the CLI's --add (cli.add_to_index): an option that does
    not go with it is refused, before any Spark work, in the CLI's words."""
    lake = write_lake(tmp_path / "lake", {"t.csv": "a,b\nx,1\ny,2\n"})
    index = tmp_path / "noidx"
    with pytest.raises(SystemExit):
        cli(["index", "--add", str(lake), str(index), *words])
    said = capsys.readouterr().err.strip().splitlines()[-1]
    message = said.split("error: ", 1)[1]
    assert magic_error(ip, " ".join(["index", "--add", str(lake), str(index), *words])) \
        == message
    assert "--demo cannot be used with --add" in magic_error(
        ip, f"index --add {lake} {index} --demo")
    assert not index.exists()


@pytest.mark.spark
def test_magic_index_add_adds_tables_and_components_as_the_cli(bare_index, ip, tmp_path,
                                                               capsys):
    """`%lakejoin index --add NEW_TABLES INDEX` adds a generation and `--add joinstats INDEX`
    the component, printing what `lakejoin index --add` prints, and opens the index: the
    session's engine answers as a fresh open of it."""
    from lakejoin_jupyter.ui.session import SESSION
    out, _ = bare_index
    capsys.readouterr()
    third = write_lake(tmp_path / "third", {"more/t.csv": pd.DataFrame(
        {"key": COUNTRIES[:12], "n": [str(i) for i in range(12)]})})
    ip.run_line_magic("lakejoin", f"index --add {third} {out} --quiet")
    printed = capsys.readouterr().out
    assert "Indexed 1 of 1 tables" in printed, printed
    assert len(SESSION.engine.index.generations) == 3
    ip.run_line_magic("lakejoin", f"index --add joinstats {out} --quiet")
    printed = capsys.readouterr().out
    assert "Added joinstats" in printed and "(3 generation(s))" in printed, printed
    assert SESSION.engine.index.has("joinstats") and not SESSION.engine.index.notes
    df = pd.DataFrame({"key": COUNTRIES[:12]})
    fresh = open_index(out)
    got = [(h.table, h.column, h.overlap, h.join_rows) for h in SESSION.engine.search(df, "key")]
    assert got == [(h.table, h.column, h.overlap, h.join_rows) for h in fresh.search(df, "key")]
    assert ("more/t", "key", 12) in [g[:3] for g in got]
