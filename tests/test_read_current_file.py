"""A lake table read after the build is read by the names the index holds: a file whose
columns were reordered since is read by name (CSV, TSV, JSON lines, a Parquet file and a
Parquet folder; pandas and Spark), one that lost an indexed column (renamed, dropped) is a
ColumnsChangedError naming the file, the column and the command that rebuilds the index.
A query file is read with the index's missing values ("NA", "None", "null" are text, as
the index reads them), and a Parquet query's category column stays category."""
from __future__ import annotations

import warnings

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import write_lake
from lakejoin_jupyter.errors import LakeJoinError
from lakejoin_jupyter.index.tables import lake_table, table_from_info
from lakejoin_jupyter.lake.read import (ColumnsChangedError, inspect, read_as_pandas,
                                        read_parquet_typed, read_table)

BEFORE = pd.DataFrame({"iso2": ["FR", "DE", "JP"], "country": ["France", "Germany", "Japan"],
                       "n": [1, 2, 3]})
AFTER = BEFORE[["country", "n", "iso2"]]            # the same data, another column order


def _rewrite(path, frame):
    if path.suffix == ".parquet":
        frame.to_parquet(path, index=False)
    elif path.suffix == ".jsonl":
        frame.to_json(path, orient="records", lines=True)
    else:
        frame.to_csv(path, index=False, sep="\t" if path.suffix == ".tsv" else ",")


@pytest.mark.parametrize("name", ["c.csv", "c.tsv", "c.jsonl", "c.parquet"])
def test_reordered_columns_are_read_by_name(tmp_path, name):
    path = tmp_path / name
    _rewrite(path, BEFORE)
    fmt = name.rsplit(".", 1)[1]
    info = inspect(0, str(path), fmt)
    _rewrite(path, AFTER)
    text = read_table(info)
    assert list(text.columns) == ["iso2", "country", "n"]
    assert text["iso2"].tolist() == ["FR", "DE", "JP"]
    assert text["country"].tolist() == ["France", "Germany", "Japan"]
    typed = read_as_pandas(info)
    pd.testing.assert_frame_equal(typed, BEFORE, check_dtype=False)
    assert lake_table(table_from_info("c", info), types=True)["iso2"].tolist() == ["FR", "DE", "JP"]
    if fmt == "parquet":
        assert read_parquet_typed(info).column("iso2").to_pylist() == ["FR", "DE", "JP"]


def test_reordered_parquet_folder_is_read_by_name(tmp_path):
    folder = tmp_path / "events"
    for year in (2021, 2022):
        (folder / f"year={year}").mkdir(parents=True)
        pq.write_table(pa.Table.from_pandas(BEFORE, preserve_index=False),
                       folder / f"year={year}" / "part-0.parquet")
    info = inspect(0, str(folder), "parquet")
    assert info.columns == ["iso2", "country", "n", "year"]
    for year in (2021, 2022):
        pq.write_table(pa.Table.from_pandas(AFTER, preserve_index=False),
                       folder / f"year={year}" / "part-0.parquet")
    got = read_table(info)
    assert list(got.columns) == info.columns
    assert got["iso2"].tolist() == ["FR", "DE", "JP"] * 2
    assert read_as_pandas(info)["n"].tolist() == [1, 2, 3] * 2


@pytest.mark.parametrize("name", ["c.csv", "c.jsonl", "c.parquet"])
def test_a_renamed_column_is_a_clear_error(tmp_path, name):
    path = tmp_path / name
    _rewrite(path, BEFORE)
    info = inspect(0, str(path), name.rsplit(".", 1)[1])
    _rewrite(path, BEFORE.rename(columns={"iso2": "code"}))
    for read in (read_table, read_as_pandas):
        with pytest.raises(ColumnsChangedError) as e:
            read(info)
        assert str(path) in str(e.value) and "'iso2'" in str(e.value)
        assert "changed since the index was built" in str(e.value)
    table = table_from_info("c", info, index_path=str(tmp_path / "x.index"))
    with pytest.raises(ColumnsChangedError) as e:
        lake_table(table, types=True, warn_changed=False)
    assert "lake table c" in str(e.value)
    assert f"--out {tmp_path / 'x.index'} --overwrite" in str(e.value)


@pytest.mark.parametrize("fmt", ["csv", "tsv", "jsonl"])
def test_typed_query_file_keeps_the_index_s_keys(tmp_path, fmt):
    """"NA" (Namibia), "None" and "null" are text in a CSV, TSV or JSON-lines query, as the
    index reads them; an empty cell is missing; a numeric column stays numeric."""
    path = tmp_path / f"q.{fmt}"
    text = "iso,n,x\nNA,1,1.5\nFR,2,\nNone,3,nan\nnull,4,2\n"
    if fmt == "jsonl":
        text = ('{"iso": "NA", "n": 1, "x": 1.5}\n{"iso": "FR", "n": 2, "x": null}\n'
                '{"iso": "None", "n": 3, "x": null}\n{"iso": "null", "n": 4, "x": 2}\n')
    path.write_text(text.replace(",", "\t") if fmt == "tsv" else text)
    got = read_as_pandas(inspect(0, str(path), fmt))
    assert got["iso"].tolist() == ["NA", "FR", "None", "null"]
    assert got["n"].dtype == "int64"
    assert got["x"].dtype == "float64" and got["x"].isna().tolist() == [False, True, True, False]


def test_parquet_query_keeps_category(tmp_path):
    path = tmp_path / "q.parquet"
    frame = pd.DataFrame({"code": [200, 404], "cat": pd.Categorical(["a", "b"])})
    frame.to_parquet(path)
    got = read_as_pandas(inspect(0, str(path), "parquet"))
    pd.testing.assert_frame_equal(got, pd.read_parquet(path))


# ------------------------------------------------------------ with an index (Spark build)

@pytest.fixture(scope="module")
def changed_lake(spark, tmp_path_factory):
    """An index over a Parquet and a CSV table of codes (with Namibia's NA), both files then
    rewritten with their columns in another order, and a third table renamed a column."""
    from lakejoin_jupyter.indexing.pipeline import build
    codes = pd.DataFrame({"iso2": ["NA", "FR", "DE", "JP"],
                          "country": ["Namibia", "France", "Germany", "Japan"]})
    other = pd.DataFrame({"iso3": ["NAM", "FRA", "DEU"], "label": ["n", "f", "d"]})
    root = write_lake(tmp_path_factory.mktemp("chg") / "lake",
                      {"p.parquet": codes, "c.csv": codes, "r.parquet": other})
    out = tmp_path_factory.mktemp("chgidx") / "c.index"
    build(root, out, spark=spark, progress=False)
    write_lake(root, {"p.parquet": codes[["country", "iso2"]],
                      "c.csv": codes[["country", "iso2"]],
                      "r.parquet": other.rename(columns={"iso3": "code3"})})
    return str(out), root


@pytest.mark.spark
@pytest.mark.parametrize("table", ["p", "c"])
def test_join_of_a_reordered_table_uses_the_named_column(changed_lake, spark, table):
    """hit.join, its pandas and PySpark code, and Spark's reading of the table use the
    column named iso2, not the column now in its place."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.index.tables import find_table, spark_table
    index, _ = changed_lake
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = open_index(index)
        q = pd.DataFrame({"iso": ["FR", "NA", "XX"]})
        hit = next(h for h in e.search(q, "iso", k=5) if h.table == table)
        got = hit.join(q)
        assert got["country"].tolist() == ["France", "Namibia", None]
        ns = {"df": q}
        exec(hit.code("df", into="joined"), ns)
        pd.testing.assert_frame_equal(ns["joined"][list(got.columns)], got)
        sdf = spark_table(spark, find_table(e.index, table))
        rows = sdf.toPandas()
        assert list(rows.columns) == ["iso2", "country"]
        assert rows["iso2"].tolist() == ["NA", "FR", "DE", "JP"]
        ns = {"df": spark.createDataFrame(q)}
        exec(hit.code("df", into="joined", spark=True), ns)
        sj = ns["joined"].toPandas().sort_values("iso").reset_index(drop=True)
        assert dict(zip(sj["iso"], sj["country"])) == {"FR": "France", "NA": "Namibia",
                                                       "XX": None}


@pytest.mark.spark
def test_renamed_column_fails_in_the_api_the_cli_and_spark(changed_lake, spark, tmp_path,
                                                           capsys):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.cli import main as cli
    from lakejoin_jupyter.index.tables import find_table, spark_table
    index, root = changed_lake
    q = pd.DataFrame({"code": ["FRA", "DEU"]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e = open_index(index)
        hit = e.search(q, "code", k=1)[0]
        assert (hit.table, hit.column) == ("r", "iso3")
        with pytest.raises(ColumnsChangedError, match="no column 'iso3' any more"):
            hit.join(q)
        with pytest.raises(ColumnsChangedError, match="--overwrite"):
            spark_table(spark, find_table(e.index, "r"))
        q.to_csv(tmp_path / "q.csv", index=False)
        assert cli(["join", index, "-t", str(tmp_path / "q.csv"), "-c", "code", "--hit", "1",
                    "--out", str(tmp_path / "o.csv")]) != 0
    err = capsys.readouterr().err
    assert "no column 'iso3' any more (lake table r)" in err
    assert f"lakejoin index {root} --out {index} --overwrite" in err
    assert not (tmp_path / "o.csv").exists()


@pytest.mark.spark
def test_cli_csv_query_keeps_na_and_none(changed_lake, tmp_path, capsys):
    """The CLI joins a CSV query's NA (Namibia) as the index counted it and writes the
    query's cells back as they were."""
    from lakejoin_jupyter.cli import main as cli
    index, _ = changed_lake
    (tmp_path / "q.csv").write_text("iso,n\nNA,1\nFR,2\nNone,3\nnull,4\n")
    out = tmp_path / "o.csv"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert cli(["join", index, "-t", str(tmp_path / "q.csv"), "-c", "iso", "--hit", "1",
                    "--out", str(out)]) == 0
    got = pd.read_csv(out, keep_default_na=False, dtype=str)
    assert got["iso"].tolist() == ["NA", "FR", "None", "null"]
    assert got["country"].tolist() == ["Namibia", "France", "", ""]


@pytest.mark.spark
def test_magic_join_reads_by_name(changed_lake):
    """%lakejoin join of a reordered table joins the named column; of a table that lost its
    indexed column, one message naming it."""
    from IPython.core.interactiveshell import InteractiveShell

    from lakejoin_jupyter.ui.session import SESSION
    index, _ = changed_lake
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "lakejoin_jupyter")
    saved = SESSION.engine
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ip.run_line_magic("lakejoin", f"open '{index}'")
            ip.user_ns["q"] = pd.DataFrame({"iso": ["FR", "NA", "XX"]})
            res = ip.run_line_magic("lakejoin", "search q.iso -k 5 --save hits")
            rank = next(i for i, h in enumerate(res, 1) if h.table == "p")
            ip.run_line_magic("lakejoin", f"join {rank} --from hits --into j --quiet")
            assert ip.user_ns["j"]["country"].tolist() == ["France", "Namibia", None]
            ip.user_ns["r"] = pd.DataFrame({"code": ["FRA", "DEU"]})
            ip.run_line_magic("lakejoin", "search r.code -k 1 --save rh")
            with pytest.raises(LakeJoinError, match="no column 'iso3' any more"):
                ip.run_line_magic("lakejoin", "join 1 --from rh --into rj --quiet")
    finally:
        SESSION.engine = saved
