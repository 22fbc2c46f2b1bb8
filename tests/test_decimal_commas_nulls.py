"""A decimal-comma column holding a null spelling ("n/a", "NULL", "nan": missing to the index
and to ``typed_as_read_csv``) is numbers, as with an empty cell (newuser17 D13: one "n/a" kept
"2,5 / n/a / 1,0 / 3,5" text, so a float query 2.5, 1.0 missed it), and its null spellings
are missing where its commas become points (newuser18 D1: the joins kept the text "n/a", so
pd.to_numeric of a joined column failed). Every reader agrees: the build (value search), the
pandas and Spark joins and their code, engine.table, the union and its code.
A table read after its build takes the decimal-comma columns its index recorded, so an index
built before this rule reads such a column as text, as it holds it, until rebuilt.
Oracle: ``pd.read_csv(path, sep=";", decimal=",")``."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import lake_engine
from lakejoin_jupyter.lake.read import TableInfo, read_as_pandas, read_columns, read_table

SEMI2 = ("code;only_empty;only_na;shouting;other\nFRA;2,5;2,5;2,5;2,5\nDEU;;n/a;NULL;NA\n"
         "ITA;1,0;1,0;NaN;1,0\nESP;3,5;3,5;3,5;3,5\n")


def test_null_spellings_do_not_keep_a_decimal_comma_column_text(tmp_path):
    """only_na, and "NULL" / "NaN" in another column, read as only_empty does: the numbers
    with a point, the null spelling missing, and typed float64 with NaN there, as
    pd.read_csv(decimal=",") reads them. "NA" is a value to the index (not a
    null spelling: Namibia's code), so `other` stays text, as before."""
    f = tmp_path / "semi2.csv"
    f.write_text(SEMI2, encoding="utf-8")
    info, cols = read_columns(0, str(f), "csv")
    assert info.decimal_commas == ["only_empty", "only_na", "shouting"]
    assert cols[1].to_pylist() == ["2.5", None, "1.0", "3.5"]
    assert cols[2].to_pylist() == ["2.5", None, "1.0", "3.5"]
    assert cols[3].to_pylist() == ["2.5", None, None, "3.5"]
    assert cols[4].to_pylist() == ["2,5", "NA", "1,0", "3,5"]
    typed = read_as_pandas(info)
    want = pd.read_csv(f, sep=";", decimal=",")
    for c in ("only_empty", "only_na", "shouting"):
        pd.testing.assert_series_equal(typed[c], want[c].astype("float64"), check_names=False)
        assert typed[c].dtype == "float64"


def test_a_table_read_after_its_build_takes_the_columns_its_index_recorded(tmp_path):
    """The info an index built before the rule holds (only_empty alone): its reading keeps
    only_na as text, as the index holds it, so a join finds what the search counted."""
    f = tmp_path / "semi2.csv"
    f.write_text(SEMI2, encoding="utf-8")
    info, _ = read_columns(0, str(f), "csv")
    old = TableInfo.from_json(info.to_json())
    old.decimal_commas = ["only_empty"]
    got = read_table(old)
    assert got["only_empty"].tolist() == ["2.5", None, "1.0", "3.5"]
    assert got["only_na"].tolist() == ["2,5", "n/a", "1,0", "3,5"]
    assert read_table(info)["only_na"].tolist() == ["2.5", None, "1.0", "3.5"]


@pytest.fixture(scope="module")
def na_engine(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "decimal_comma_nulls",
                       {"semi2.csv": SEMI2.encode("utf-8")}, components=["union"])


@pytest.mark.spark
def test_search_join_union_and_their_code_read_the_numbers(na_engine, spark):
    """The float query 2.5, 1.0 finds only_na (2 of 2, as only_empty); the join of that hit,
    its pandas code and its PySpark code give the same rows; the Spark reader reads the
    column as the pandas one; the union stacks float64 with NaN for "n/a", as its code does."""
    from lakejoin_jupyter.actions import join_hit, run_union
    from lakejoin_jupyter.index.tables import find_table, spark_table
    q = pd.DataFrame({"v": [2.5, 1.0]})
    hits = {h.column: h for h in na_engine.search(q, "v", k=20)}
    assert hits["only_na"].overlap == 2 and hits["only_empty"].overlap == 2
    out = join_hit(na_engine, hits["only_na"], q, frame_name="q")
    assert out.ok, out.summary
    assert out.joined["code"].tolist() == ["FRA", "ITA"]
    ns = {"q": q.copy()}
    exec(compile(out.code("q", "q_out"), "<cell>", "exec"), ns)  # noqa: S102 - our own code
    pd.testing.assert_frame_equal(ns["q_out"], out.joined)
    table = find_table(na_engine.index, "semi2")
    assert spark_table(spark, table).toPandas()["only_na"].tolist() == \
        na_engine.table("semi2")["only_na"].tolist() == ["2.5", None, "1.0", "3.5"]
    sq = spark.createDataFrame(q)
    ns = {"sq": sq}
    exec(compile(hits["only_na"].code("sq", "out", spark=True), "<cell>", "exec"), ns)  # noqa: S102
    assert sorted(r["code"] for r in ns["out"].collect()) == ["FRA", "ITA"]

    query = pd.DataFrame({"code": ["GRC", "PRT", "FRA"], "only_na": [1.5, 2.0, 2.5]})
    hit = next(h for h in na_engine.search_unionable(query, k=5) if h.table == "semi2")
    assert hit.mapping.get("only_na") == "only_na"
    stacked = run_union(na_engine, hit, query, distinct=False)
    want = pd.read_csv(table.uri, sep=";", decimal=",")
    assert stacked.joined["only_na"].dtype == "float64"
    pd.testing.assert_series_equal(stacked.joined["only_na"].iloc[len(query):].reset_index(
        drop=True), want["only_na"].astype("float64"), check_names=False)
    ns = {"query": query.copy()}
    exec(compile(stacked.code("query", "stacked"), "<cell>", "exec"), ns)  # noqa: S102
    pd.testing.assert_frame_equal(ns["stacked"], stacked.joined)


@pytest.mark.spark
def test_every_join_reads_the_null_spellings_missing(na_engine, spark):
    """The join of the key "code" (the four rows), pandas and Spark, their pandas and PySpark
    code each run in a fresh namespace, and engine.table: the decimal-comma columns hold
    "2.5"-like text and None where the file writes "n/a", "NULL", "NaN" or nothing, so
    pd.to_numeric reads pd.read_csv(decimal=",")'s numbers (by hand: 2.5, NaN, 1.0, 3.5;
    shouting 2.5, NaN, NaN, 3.5); `other` ("NA" is a value) stays text as written."""
    from lakejoin_jupyter.index.tables import find_table
    want = pd.read_csv(find_table(na_engine.index, "semi2").uri, sep=";", decimal=",",
                       keep_default_na=False, na_values=["", "n/a", "NULL", "NaN"])
    assert want["shouting"].isna().tolist() == [False, True, True, False]
    q = pd.DataFrame({"code": ["ESP", "FRA", "DEU", "ITA", "GRC"]})
    hit = next(h for h in na_engine.search(q, "code", k=5) if h.table == "semi2")
    sq = spark.createDataFrame(q)
    frames = {"pandas join": hit.join(q), "Spark join": hit.join(sq).toPandas()}
    for label, name, frame, spark_code in (("pandas code", "q", q, False),
                                           ("PySpark code", "sq", sq, True)):
        ns = {name: frame}
        exec(compile(hit.code(name, "out", spark=spark_code), "<cell>", "exec"), ns)  # noqa: S102
        frames[label] = ns["out"].toPandas() if spark_code else ns["out"]
    frames["engine.table"] = na_engine.table("semi2")
    by_code = want.set_index("code")
    for label, got in frames.items():
        got = got.loc[got["code"].notna()].set_index("code").loc[["ESP", "FRA", "DEU", "ITA"]]
        for c in ("only_empty", "only_na", "shouting"):
            assert got[c].map(type).isin([str, type(None)]).all(), (label, c)
            assert [None if pd.isna(v) else v for v in got[c]] == \
                [None if pd.isna(v) else f"{v:.1f}" for v in by_code.loc[got.index, c]], (label, c)
            pd.testing.assert_series_equal(pd.to_numeric(got[c]), by_code.loc[got.index, c],
                                           check_names=False, obj=f"{label} {c}")
        assert got["other"].tolist() == ["3,5", "2,5", "NA", "1,0"], label
