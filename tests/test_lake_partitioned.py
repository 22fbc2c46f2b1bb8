"""A partitioned Parquet folder (hive-style ``key=value/`` folders, Spark's ``partitionBy``
output) and Spark's unpartitioned output (part files beside ``_SUCCESS``) are one lake table
each, named after the folder, with the partition columns as text columns (the value each
folder name gives): in discovery, the Spark build, searches, joins in pandas and Spark, the
code a join writes, the command line's query table and the lake-change check. Checked
against pandas and Python sets over the whole dataset."""
import json
import re
import shutil
from urllib.parse import quote

import pandas as pd
import pytest

from lakejoin_jupyter.lake.discover import discover, fingerprint_changes
from lakejoin_jupyter.lake.read import inspect, read_table
from conftest import write_lake

CODES = [f"{a}{b}" for a in "ABCDEFG" for b in "XYZ"]                   # 21 codes
ZONES = pd.DataFrame({"country": [CODES[(5 * i) % 21] for i in range(40)],
                      "tz": [f"Zone/{i}" for i in range(40)],
                      "continent": ["Europe", "Africa", "Asia", "America"] * 10})
MONTHLY = pd.DataFrame({"country": CODES[:12] * 2, "amount": [str(i) for i in range(24)],
                        "year": ["2025"] * 12 + ["2024"] * 12,
                        "month": [f"{m:02d}" for m in range(12, 0, -1)] * 2})
LOCALES = pd.DataFrame({"locale": [f"l{i}" for i in range(30)],
                        "country": [CODES[(3 * i) % 21] for i in range(30)],
                        "charset": ["UTF-8", "ISO-8859-1", "Big 5", "ISO:646", "KOI8/R"] * 6})
QUERY = pd.DataFrame({"code": CODES[::2] + ["QQ", "RR"], "n": range(13)})
PKGS = pd.DataFrame({"pkg": [f"p{i}" for i in range(26)],
                     "country": [CODES[(7 * i + 2) % 21] for i in range(26)]})
EVENTS = pd.DataFrame({"country": [CODES[(2 * i + 1) % 21] for i in range(18)],
                       "kind": ["a", "b", "c"] * 6, "dt": ["2024-01-01", "2024-01-02"] * 9})


def write_hive(root, rel, df, by, name="part-00000.parquet"):
    """``df`` as a hive-partitioned folder (one file per partition), as pyarrow writes it
    (a value's "/" and ":" percent-escaped, as Spark and pyarrow write them)."""
    for values, part in df.groupby(by, sort=True):
        sub = "/".join(f"{k}={quote(v, safe=' ')}" for k, v in zip(by, values))
        path = root / rel / sub / name
        path.parent.mkdir(parents=True, exist_ok=True)
        part.drop(columns=by).to_parquet(path, index=False)


def write_hive_table(root):
    """Hive's layout: a table folder of Parquet files without an extension (000000_0), one
    partitioned (dt=.../000000_0), and a lone extensionless Parquet file beside a note."""
    (root / "hive/pkgs").mkdir(parents=True, exist_ok=True)
    PKGS.iloc[:13].to_parquet(root / "hive/pkgs/000000_0", index=False)
    PKGS.iloc[13:].to_parquet(root / "hive/pkgs/000001_0", index=False)
    write_hive(root, "hive/events", EVENTS, ["dt"], name="000000_0")
    (root / "loose").mkdir(parents=True, exist_ok=True)
    PKGS.to_parquet(root / "loose/codes", index=False)
    (root / "loose/notes.md").write_text("not a table\n")


def whole(df, by):
    """The oracle: the whole dataset as a reader of the folder sees it (partitions in the
    order of their folders' names, the partition columns last, as text)."""
    rest = [c for c in df.columns if c not in by]
    return df.sort_values(by, kind="stable", key=lambda s: s.map(lambda v: quote(v, safe=" ")))[
        rest + list(by)].reset_index(drop=True)


def texts(df):
    return df.astype(object).where(df.notna(), None)


def file_lake(root):
    """The lake of the tests without Spark: a Spark-like layout written by hand."""
    write_lake(root, {"geo/countries.parquet": pd.DataFrame({"iso2": CODES}),
                      "csvparts/year=2024/a.csv": "x,y\n1,2\n"})
    write_hive(root, "geo/zones", ZONES, ["continent"])
    write_hive(root, "sales/monthly", MONTHLY, ["year", "month"])
    write_hive(root, "out/locales", LOCALES, ["charset"],
               name="part-00000-1f2e.c000.snappy.parquet")
    (root / "out/locales/_SUCCESS").write_bytes(b"")
    (root / "out/locales/._SUCCESS.crc").write_bytes(b"crc")
    write_hive_table(root)
    return root


def test_partitioned_folders_are_one_table_each(tmp_path):
    spec = discover(file_lake(tmp_path / "lake"))
    names = {t.name: t for t in spec.tables}
    assert sorted(names) == ["csvparts/year=2024/a", "geo/countries", "geo/zones",
                             "hive/events", "hive/pkgs", "loose/codes", "out/locales",
                             "sales/monthly"]
    assert [names[n].format for n in ("hive/events", "hive/pkgs", "loose/codes")] == \
        ["parquet"] * 3
    assert names["hive/pkgs"].uri == str(tmp_path / "lake/hive/pkgs")
    assert names["loose/codes"].path == "loose/codes"
    assert names["geo/zones"].format == "parquet"
    assert names["geo/zones"].uri == str(tmp_path / "lake/geo/zones")
    assert names["geo/countries"].path == "geo/countries.parquet"      # a file: unchanged
    # a folder given as the lake is one table too
    assert [t.name for t in discover(tmp_path / "lake/sales/monthly").tables] == ["monthly"]


def test_partitioned_folder_reads_as_the_whole_dataset(tmp_path):
    root = file_lake(tmp_path / "lake")
    for rel, df, by in [("geo/zones", ZONES, ["continent"]),
                        ("sales/monthly", MONTHLY, ["year", "month"]),
                        ("out/locales", LOCALES, ["charset"]),
                        ("hive/pkgs", PKGS, []), ("hive/events", EVENTS, ["dt"]),
                        ("loose/codes", PKGS, [])]:
        info = inspect(0, str(root / rel), "parquet")
        assert info.ok, info.error
        want = whole(df, by)
        assert info.columns == list(want.columns) and (info.partitions or []) == by
        assert info.n_rows == len(df)
        pd.testing.assert_frame_equal(read_table(info), texts(want))
    got = read_table(inspect(0, str(root / "sales/monthly"), "parquet"))
    assert got["month"].iloc[0] == "01"          # as the folder name writes it


def test_a_part_file_added_after_the_build_is_a_change(tmp_path):
    from lakejoin_jupyter.index.tables import changed_since_build, table_from_info
    root = file_lake(tmp_path / "lake")
    spec = discover(root)
    section = spec.fingerprint()
    zones = str(root / "geo/zones")
    table = table_from_info("geo/zones", inspect(0, zones, "parquet"),
                            fingerprint=tuple(section["files"][zones]))
    assert fingerprint_changes(section) == [] and changed_since_build(table) is None
    extra = root / "geo/zones/continent=Asia/part-00001.parquet"
    ZONES.head(3).drop(columns="continent").to_parquet(extra, index=False)
    assert fingerprint_changes(section) == [f"modified {zones}"]
    assert "geo/zones changed since the index was built" in changed_since_build(table)
    extra.unlink()
    new = root / "geo/zones/continent=Oceania/part-00000.parquet"
    new.parent.mkdir()
    ZONES.head(3).drop(columns="continent").to_parquet(new, index=False)
    assert fingerprint_changes(section) == [f"modified {zones}"]


# ------------------------------------------------------------------ the Spark build

@pytest.fixture(scope="module")
def lake(spark, tmp_path_factory):
    root = tmp_path_factory.mktemp("partitioned") / "lake"
    write_lake(root, {"geo/countries.parquet": pd.DataFrame({"iso2": CODES})})
    write_hive(root, "geo/zones", ZONES, ["continent"])
    write_hive(root, "sales/monthly", MONTHLY, ["year", "month"])
    spark.createDataFrame(LOCALES).write.partitionBy("charset").parquet(str(root / "out/locales"))
    spark.createDataFrame(LOCALES.drop(columns="charset")).repartition(2).write.parquet(
        str(root / "out/plain"))
    write_hive_table(root)
    return root


@pytest.fixture(scope="module")
def engine(lake, spark, tmp_path_factory):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    out = tmp_path_factory.mktemp("partitioned-index") / "lake.index"
    build(lake, out, spark=spark, settings=BuildSettings(components=("union",)), progress=False)
    return open_index(out)


ORACLES = {"geo/zones": whole(ZONES, ["continent"]),
           "sales/monthly": whole(MONTHLY, ["year", "month"]),
           "out/locales": whole(LOCALES, ["charset"]),
           "out/plain": LOCALES.drop(columns="charset"),
           "hive/pkgs": PKGS, "hive/events": whole(EVENTS, ["dt"]), "loose/codes": PKGS}


@pytest.mark.spark
def test_the_build_indexes_one_table_per_folder(engine):
    t = engine.index.tables
    assert sorted(t["name"]) == ["geo/countries", "geo/zones", "hive/events", "hive/pkgs",
                                 "loose/codes", "out/locales", "out/plain", "sales/monthly"]
    assert set(t["status"]) == {"indexed"}
    cols = engine.index.columns
    for name, want in ORACLES.items():
        row = t[t["name"] == name].iloc[0]
        assert row["n_rows"] == len(want)
        got = cols[cols["table_id"] == row["table_id"]].sort_values("position")["name"]
        assert list(got) == list(want.columns)
    assert json.loads(t[t["name"] == "sales/monthly"]["info"].iloc[0])["partitions"] == \
        ["year", "month"]


@pytest.mark.spark
@pytest.mark.parametrize("table, column, query", [
    ("geo/zones", "country", QUERY["code"]),
    ("geo/zones", "continent", pd.Series(["Asia", "Europe", "Oceania"])),
    ("sales/monthly", "country", QUERY["code"]),
    ("sales/monthly", "month", pd.Series(["01", "02", "13"])),
    ("out/locales", "country", QUERY["code"]),
    ("out/locales", "charset", pd.Series(["UTF-8", "KOI8/R", "ISO:646", "EBCDIC"])),
    ("out/plain", "country", QUERY["code"]),
    ("hive/pkgs", "country", QUERY["code"]),
    ("hive/events", "country", QUERY["code"]),
    ("hive/events", "dt", pd.Series(["2024-01-02", "2024-01-03"])),
    ("loose/codes", "pkg", pd.Series(["p1", "p25", "p26"]))])
def test_search_figures_equal_python_sets(engine, table, column, query):
    res = engine.search(pd.DataFrame({"q": query}), "q", k=None)
    hit = next(h for h in res if h.table == table and h.column == column)
    lake_values = set(ORACLES[table][column])
    assert hit.overlap == len(set(query) & lake_values)
    assert hit.containment == pytest.approx(hit.overlap / len(set(query)))


def run_fresh(code: str, name: str, frame) -> dict:
    ns = {name: frame}
    exec(compile(code, "<inserted cell>", "exec"), ns)   # noqa: S102 - the code under test
    return ns


def rows(df):
    return sorted((tuple(None if pd.isna(v) else str(v) for v in r)
                   for r in df.itertuples(index=False)), key=repr)


@pytest.mark.spark
@pytest.mark.parametrize("table", ["geo/zones", "sales/monthly", "out/locales", "out/plain",
                                   "hive/pkgs", "hive/events", "loose/codes"])
def test_join_and_its_code_equal_a_merge_of_the_whole_dataset(engine, table):
    hit = next(h for h in engine.search(QUERY, "code", k=None)
               if h.table == table and h.column == "country")
    joined = hit.join(QUERY)
    want = QUERY.merge(ORACLES[table], left_on="code", right_on="country", how="left")
    lake_cols = list(ORACLES[table].columns)
    if table.startswith(("out/", "hive/pkgs")):     # Spark's file order: the same rows
        assert rows(joined) == rows(want)
    else:                            # pyarrow's path order: the same frame
        pd.testing.assert_frame_equal(texts(joined[lake_cols]), texts(want[lake_cols]))
        pd.testing.assert_frame_equal(joined[list(QUERY.columns)], want[list(QUERY.columns)])
    ns = run_fresh(hit.code("q", "out"), "q", QUERY)
    pd.testing.assert_frame_equal(ns["out"], joined)


@pytest.mark.spark
@pytest.mark.parametrize("table", ["geo/zones", "sales/monthly", "out/locales"])
def test_spark_join_and_its_code_keep_the_partition_values(engine, spark, table):
    sdf = spark.createDataFrame(QUERY)
    hit = next(h for h in engine.search(sdf, "code", k=None)
               if h.table == table and h.column == "country")
    joined = hit.join(sdf)
    want = QUERY.merge(ORACLES[table], left_on="code", right_on="country", how="left")
    assert list(joined.columns) == list(want.columns)
    assert rows(joined.toPandas()) == rows(want)          # "01" stays "01"
    code = hit.code("sdf", "joined_sdf")
    assert "spark.read.parquet" in code
    ns = run_fresh(code, "sdf", sdf)
    assert rows(ns["joined_sdf"].toPandas()) == rows(want)


@pytest.mark.spark
def test_cli_reads_a_parquet_folder_as_the_query_table(engine, lake, spark, tmp_path, capsys,
                                                       monkeypatch):
    from lakejoin_jupyter.cli import _read_query_table, main
    monkeypatch.chdir(tmp_path)
    index = str(engine.index.path)
    q = QUERY.assign(charset=["UTF-8", "KOI8/R", "EBCDIC"] * 4 + ["UTF-8"])
    spark.createDataFrame(q).write.partitionBy("charset").parquet(str(tmp_path / "q"))
    frame, name = _read_query_table(engine, "q")
    assert name is None and rows(frame) == rows(q)
    assert main(["search", index, "-t", "q", "-c", "charset"]) == 0
    out = capsys.readouterr().out
    assert "3 distinct values" in out and re.search(r"out/locales\s+charset\s+2\s", out)
    # the partition column is read: the union aligns it (a 3-value column weighs less than
    # a key, so the table need not rank first)
    assert main(["union", index, "-t", "q", "-k", "5"]) == 0
    assert re.search(r"out/locales .* charset <- charset", capsys.readouterr().out)
    # a folder of the lake is its lake table
    assert main(["search", index, "-t", str(lake / "geo/zones"), "-c", "country"]) == 0
    assert "is the lake table geo/zones" in capsys.readouterr().out
    # a folder that is no Parquet dataset is refused with a reason
    shutil.copytree(tmp_path / "q", tmp_path / "notes")
    (tmp_path / "notes/README.md").write_text("hi")
    assert main(["search", index, "-t", "notes", "-c", "country"]) == 1
    assert "not a Parquet dataset" in capsys.readouterr().err


# ------------------------------------------------- names that repeat inside a partitioned folder

def write_clashing_folders(root):
    """Partitioned folders whose files repeat a name: a column named as the partition key
    (holding the folder's value, other values, or present in one file only), two columns of
    one name; and a folder whose names differ only once stripped or by case (read)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def put(rel, table):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, path)
    for y in ("2020", "2021"):
        put(f"clash/same/year={y}/part-0.parquet",
            pa.table({"city": ["x", "y"], "year": [int(y)] * 2}))
        put(f"clash/other/year={y}/part-0.parquet",
            pa.table({"city": ["x", "y"], "year": ["1999", "1998"]}))
        put(f"clash/one/year={y}/part-0.parquet",
            pa.table({"city": ["x", "y"], **({"year": ["7", "8"]} if y == "2021" else {})}))
        put(f"clash/dup/year={y}/part-0.parquet",
            pa.Table.from_arrays([pa.array(["x", "y"]), pa.array(["u", "v"])], ["city", "city"]))
        put(f"clash/spaced/Year={y}/part-0.parquet",
            pa.table({"city": ["x", "y"], " city": ["u", "v"], "year": [1, 2]}))
    return root


CLASHES = {"clash/same": ("year=2020/part-0.parquet", "a column 'year'"),
           "clash/other": ("year=2020/part-0.parquet", "a column 'year'"),
           "clash/one": ("year=2021/part-0.parquet", "a column 'year'")}
DUP = pd.DataFrame({"city": ["x", "y", "x", "y"], "city.2": ["u", "v", "u", "v"],
                    "year": ["2020", "2020", "2021", "2021"]})


def test_a_folder_whose_files_name_a_column_as_its_key_is_refused_naming_both(tmp_path):
    """pandas (pyarrow's dataset) refuses these folders with a bare schema error, or reads
    the folder names' values in place of the file's (clash/one: the file's 7 and 8 are
    lost); the reader names the file, the column and what to do. A folder whose files
    repeat a name (pandas: "Can't unify schema with duplicate field names") is read by
    position, as a single file is, equal to pyarrow's read of each file; names that differ
    once stripped or by case are read, each column with its own values, as pandas does."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    root = write_clashing_folders(tmp_path / "lake")
    with pytest.raises(pa.ArrowInvalid, match="duplicate field names"):
        pd.read_parquet(root / "clash/dup")
    info = inspect(0, str(root / "clash/dup"), "parquet")
    assert info.ok and info.columns == list(DUP.columns) and info.partitions == ["year"]
    assert any("'city.2'" in w for w in info.warnings)
    want = [pq.ParquetFile(root / f"clash/dup/year={y}/part-0.parquet").read()
            for y in ("2020", "2021")]
    got = read_table(info)
    for j in range(2):
        assert list(got.iloc[:, j]) == [v for t in want for v in t.column(j).to_pylist()]
    assert got.equals(DUP)
    for rel, (file, what) in CLASHES.items():
        folder = root / rel
        try:
            got = pd.read_parquet(folder)
        except Exception:                    # noqa: BLE001 - pyarrow's own schema errors
            got = None
        if rel == "clash/one":
            assert list(got["year"]) == ["2020", "2020", "2021", "2021"] or \
                list(got["year"].astype(str)) == ["2020", "2020", "2021", "2021"]
            assert pq.read_table(folder / file)["year"].to_pylist() == ["7", "8"]
        else:
            assert got is None
        info = inspect(0, str(folder), "parquet")
        assert not info.ok
        assert f"its file {file} has {what}" in info.error
        assert info.hint.startswith("drop or rename")
    folder = root / "clash/spaced"
    want = pd.read_parquet(folder)
    info = inspect(0, str(folder), "parquet")
    assert info.ok and info.columns == ["city", "city.2", "year", "Year"]
    got = read_table(info)
    assert [list(got.iloc[:, j]) for j in range(4)] == \
        [[str(v) for v in want.iloc[:, j]] for j in range(4)]


def test_reading_by_position_equals_the_dataset_reader(tmp_path):
    """On folders without repeated names (partitioned at one or two levels, escaped values,
    Hive's extensionless files), the by-position reader gives what pyarrow's dataset reader
    gives, in the same row order."""
    import pyarrow as pa
    import pyarrow.dataset as pads
    import pyarrow.parquet as pq
    from lakejoin_jupyter.lake import read as rd
    root = file_lake(tmp_path / "lake")
    for rel in ("geo/zones", "sales/monthly", "out/locales", "hive/pkgs", "hive/events"):
        folder = root / rel
        keys = rd._partition_keys(folder)
        ds = pq.ParquetDataset(folder, partitioning=pads.HivePartitioning.discover(
            schema=pa.schema([(k, pa.string()) for k in keys])) if keys else None)
        assert [str(f) for f in rd.dataset_files(folder)] == list(ds.files)
        assert rd._read_files_by_position(folder, rd.dataset_files(folder), keys).equals(
            rd._without_index(ds.read(use_threads=False))), rel


@pytest.mark.spark
def test_the_build_skips_such_a_folder_with_its_reason(spark, tmp_path):
    """The build indexes the other tables, the folder whose files repeat a name included
    (pandas and Spark reads as the reader gives it), and lists each refused folder with the
    reader's reason (the catalog marks it skipped); no half-read table enters the index."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    root = write_clashing_folders(tmp_path / "lake")
    write_lake(root, {"geo/countries.parquet": pd.DataFrame({"iso2": CODES})})
    rep = build(root, tmp_path / "i.index", spark=spark, progress=False,
                settings=BuildSettings(components=("-josie", "-mate", "-lshensemble")))
    why = dict(rep.skipped)
    for rel, (file, what) in CLASHES.items():
        assert f"its file {file} has {what}" in why[rel]
    t = open_index(tmp_path / "i.index").index.tables
    status = dict(zip(t["name"], t["status"]))
    assert status == {"geo/countries": "indexed", "clash/spaced": "indexed",
                      "clash/dup": "indexed", **{rel: "skipped" for rel in CLASHES}}
    engine = open_index(tmp_path / "i.index")
    assert texts(engine.table("clash/dup")).equals(DUP)
    from lakejoin_jupyter.index.tables import find_table, spark_table
    got = spark_table(spark, find_table(engine.index, "clash/dup")).toPandas()
    assert texts(got).equals(DUP)
