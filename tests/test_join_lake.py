"""Joins and generated code against a real (Spark-built) index whose table and column names
are hostile: Hit.join equals running Hit.code, in pandas and in Spark, for a clean CSV (read
with pd.read_csv), a Parquet file, a ragged CSV and a CSV with comment and title lines above
its header (read with the build's reader)."""
import math

import pandas as pd
import pytest

from lakejoin_jupyter.join.plan import default_variable

pytestmark = pytest.mark.spark

CSV_NAME = 'we"ird #tab\\le ü'
PARQUET_NAME = "par'quet"
CLEAN_COLUMNS = ["country", "it's", 'say "hi"', "new\nline", "# hash", "class", "ünï ✓", "a.b",
                 "`tick`"]


@pytest.fixture(scope="module")
def hostile(spark, tmp_path_factory):
    from conftest import write_lake

    from lakejoin_jupyter import build_index
    root = tmp_path_factory.mktemp("hostile")
    clean = pd.DataFrame([["France", "a", "b", "c", "d", "e", "f", "g", "h"],
                          ["Côte d'Ivoire", "a2", None, "c2", "d2", "e2", "f2", "g2", "h2"],
                          ["chad", "a3", "b3", "multi\nline", "d3", "e3", "f3", "g3", "h3"],
                          ["Chad", "dup", "b4", "c4", "d4", "e4", "f4", "g4", "h4"]],
                         columns=CLEAN_COLUMNS)
    parquet = pd.DataFrame({"Country Name": ["FRANCE", "CHAD", "PERU"],
                            "None": [1, 2, 3], "back\\slash": ["x", "y", None],
                            "x\ny": ["p", "q", "r"]})
    ragged = ('name,code\n"france",FR\nchad,TD,extra\nperu,PE\n')
    preamble = ("# exported 2026-11-28\nCountries by code,,\n\nname,iso,n\n"
                "france,FR,1\nchad,TD,2\nmali,ML,3\n")
    lake = write_lake(root / "lake", {f"{CSV_NAME}.csv": clean,
                                      f"{PARQUET_NAME}.parquet": parquet,
                                      "ragged.csv": ragged, "preamble.csv": preamble})
    engine = build_index(lake, root / "hostile.index", spark=spark, progress=False)
    query = pd.DataFrame({"country": ["france", " CHAD", "Côte d'Ivoire", None, "Peru", "Mali"],
                          "class": [1, 2, 3, 4, 5, 6]})
    return engine, query


def _rows(df):
    """Rows as sorted tuples of text (None for nulls), to compare pandas with Spark."""
    def cell(v):
        if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)) or v == "":
            return None
        if isinstance(v, float) and v.is_integer():   # a nullable Parquet int in toPandas
            return str(int(v))
        return str(v)
    return sorted((tuple(cell(v) for v in r) for r in df.itertuples(index=False)),
                  key=lambda t: tuple("" if v is None else v for v in t))


def test_search_finds_every_hostile_table(hostile):
    engine, query = hostile
    res = engine.search(query, "country", k=None)
    tables = {h.table for h in res}
    assert {CSV_NAME, PARQUET_NAME, "ragged", "preamble"} <= tables
    assert engine.table("preamble").columns.tolist() == ["name", "iso", "n"]


@pytest.mark.parametrize("how,duplicates", [("left", "all"), ("inner", "first")])
def test_pandas_code_equals_hit_join(hostile, how, duplicates):
    engine, query = hostile
    res = engine.search(query, "country", k=None)
    checked = set()
    for hit in res:
        want = hit.join(query, how=how, duplicates=duplicates)
        var = default_variable("données", hit.table)
        code = hit.code("données", var, how=how, duplicates=duplicates, df=query)
        ns = {"données": query}
        exec(code, ns)  # noqa: S102
        got = ns[var]
        pd.testing.assert_frame_equal(got, want)
        checked.add(hit.table)
        if hit.table == CSV_NAME:
            assert "pd.read_csv(" in code
            assert "class_" + CSV_NAME in want.columns  # the clashing lake column, renamed
        if hit.table in (PARQUET_NAME, "ragged", "preamble"):
            assert "open_index(" in code
        if hit.table == "preamble":
            assert got.loc[got["country"] == "france", "iso"].tolist() == ["FR"]
    assert {CSV_NAME, PARQUET_NAME, "ragged", "preamble"} <= checked


def test_lake_join_values(hostile):
    engine, query = hostile
    hit = next(h for h in engine.search(query, "country", k=None) if h.table == CSV_NAME)
    out = hit.join(query)
    # "chad" and "Chad" both match " CHAD": all duplicates kept, in lake order
    chad = out[out["class"] == 2]
    assert chad["it's"].tolist() == ["a3", "dup"]
    assert out[out["class"] == 4]["it's"].isna().all()      # null query key: no partner
    assert len(hit.join(query, duplicates="first")) == len(query)


def test_spark_join_and_code_equal_pandas_join(hostile, spark):
    engine, query = hostile
    sdf = spark.createDataFrame(query.astype({"class": "int64"}))
    res = engine.search(query, "country", k=None)
    for hit in res:
        if hit.table not in (CSV_NAME, PARQUET_NAME, "ragged", "preamble"):
            continue
        for how, dup in (("left", "all"), ("inner", "first")):
            want = hit.join(query, how=how, duplicates=dup)
            joined = hit.join(sdf, how=how, duplicates=dup)
            assert list(joined.columns) == list(want.columns)
            assert _rows(joined.toPandas()) == _rows(want), (hit.table, how, dup)
            var = default_variable("sdf", hit.table)
            code = hit.code("sdf", var, how=how, duplicates=dup, df=sdf)
            assert ("spark.createDataFrame" if hit.table == "preamble" else "spark.read") in code
            ns = {"sdf": sdf}
            exec(code, ns)  # noqa: S102
            got = ns[var]
            assert _rows(got.toPandas()) == _rows(want), (hit.table, how, dup)


def test_join_says_when_the_lake_table_changed_since_the_build(spark, tmp_path):
    """An open index does not re-read its lake; a join reads the table's file as it is now.
    When that file changed since the build, the join says so (its figures describe the
    indexed version) instead of silently mixing the two."""
    import warnings

    from conftest import write_lake

    from lakejoin_jupyter import build_index
    from lakejoin_jupyter.actions import run_join
    from lakejoin_jupyter.errors import LakeChangedWarning
    lake = write_lake(tmp_path / "lake", {"codes.csv": pd.DataFrame(
        {"country": ["france", "chad", "peru"], "code": ["FR", "TD", "PE"]})})
    engine = build_index(lake, tmp_path / "codes.index", spark=spark, progress=False)
    query = pd.DataFrame({"country": ["France", "Chad", "Mali"]})
    hit = engine.search(query, "country", k=1).hits[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error", LakeChangedWarning)
        assert hit.join(query)["code"].tolist()[:2] == ["FR", "TD"]
        assert "changed since" not in run_join(engine, hit, query).summary
    f = lake / "codes.csv"
    f.write_text(f.read_text() + "mali,ML\n")
    res = run_join(engine, hit, query)
    assert "codes changed since the index was built" in res.summary
    assert " bytes)" in res.summary
    assert res.joined["code"].tolist() == ["FR", "TD", "ML"]      # the file as it is now
    with pytest.warns(LakeChangedWarning, match="codes changed since the index was built"):
        hit.join(query)
