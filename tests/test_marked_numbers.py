"""A decimal-point number column whose missing cells are written "-" (or "--", "*", an en
dash, "n/a": no key to the index) reads those cells missing on both sides of a join: a query
file (``read_as_pandas``: float64, NaN) and the lake table it joins (the build's reader:
text, None), as a decimal-comma column's (test_decimal_commas_junk.py). Before, the lake
side kept "-" as text, so a joined frame held "-" where the query's own column of the same
file held NaN. Every reader agrees: the build, engine.table, the pandas and Spark joins, their
code (run in a fresh namespace) and the Spark reader. A column of "-" alone, and a text
column, keep their text.
Oracle: ``pd.read_csv(path, na_values=[those cells])`` and by hand."""
from __future__ import annotations

import io

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import lake_engine
from lakejoin_jupyter.lake.read import TableInfo, _csv_columns, inspect, read_as_pandas, read_columns

JUNK = ["-", "--", "*", "\u2013", " - "]
STATS = ("postal,pop,name,dash,n\nAL,2019.1,a,-,1\nAK,-,-,-,2\nAR,397.8,c,-,n/a\n"
         "CO,--,d,,4\nME,n/a,e,-,*\nOH,-12.5,f,-,6\nUT,\u2013,g,-,7\nKS,1691.2,h,-,8\n")
POP = ["2019.1", None, "397.8", None, None, "-12.5", None, "1691.2"]
POSTAL = ["AL", "AK", "AR", "CO", "ME", "OH", "UT", "KS"]


def test_the_dash_cells_of_a_decimal_point_column_are_missing(tmp_path):
    """pop and n read None where the file writes a mark (by hand); name keeps its "-" (text)
    and dash (marks alone) stays text; the query file's typed reading has NaN in the same
    rows, pd.read_csv(na_values=marks)'s float64."""
    f = tmp_path / "stats.csv"
    f.write_text(STATS, encoding="utf-8")
    info, cols = read_columns(0, str(f), "csv")
    assert info.marked_numbers == ["pop", "n"] and info.decimal_commas == []
    assert cols[1].to_pylist() == POP
    assert cols[2].to_pylist()[1] == "-" and cols[3].to_pylist()[0] == "-"
    assert cols[4].to_pylist() == ["1", "2", None, "4", None, "6", "7", "8"]
    typed = read_as_pandas(inspect(0, str(f), "csv"))
    want = pd.read_csv(f, keep_default_na=False, na_values={
        "pop": ["", "n/a"] + JUNK, "n": ["", "n/a", "*"], "name": [""], "dash": [""]})
    pd.testing.assert_frame_equal(typed, want)
    assert [v is None for v in POP] == typed["pop"].isna().tolist()


NUMBERS = st.one_of(st.integers(-10**5, 10**5),
                    st.builds(lambda n, d: n / 10 ** d, st.integers(-10**5, 10**5),
                              st.integers(1, 2)))
MISSING = st.sampled_from(["", "n/a", "null", "nan"] + JUNK)


@given(st.lists(st.one_of(NUMBERS, MISSING), min_size=1, max_size=15))
def test_a_decimal_point_column_reads_as_pandas_with_its_missing_marks(cells):
    """Oracle: pd.read_csv(na_values=[every missing mark]). A column of numbers and marks
    reads those numbers (as written) with every mark missing; with no number, or no mark,
    it keeps its text (an empty cell is missing either way)."""
    written = [c if isinstance(c, str) else repr(c) for c in cells]
    text = "k,v\n" + "".join(f"r{i},{c}\n" for i, c in enumerate(written))
    info = TableInfo(0, "t.csv", "csv", delimiter=",")
    got = _csv_columns(info, text)[1].to_pylist()
    marks = sorted({c for c in cells if isinstance(c, str) and c})
    want = pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=marks + [""])["v"]
    if marks and any(not isinstance(c, str) for c in cells):
        assert info.marked_numbers == ["v"], text
        assert [None if v is None else float(v) for v in got] == \
            [None if pd.isna(v) else float(v) for v in want], text
    else:
        assert info.marked_numbers == [], text
        assert got == [c or None for c in written], text


@pytest.fixture(scope="module")
def marked_engine(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "marked_numbers",
                       {"us/stats.csv": STATS.encode("utf-8"),
                        "us/stats_semicolon.csv": STATS.replace(",", ";").encode("cp1252")})


@pytest.mark.parametrize("name", ["us/stats", "us/stats_semicolon"])
@pytest.mark.spark
def test_every_join_reads_the_dash_cells_missing_as_the_query_file_does(marked_engine, spark,
                                                                         name, tmp_path):
    """The join of the key "postal", pandas and Spark, their pandas and PySpark code each run
    in a fresh namespace, engine.table and the Spark reader: pop holds "2019.1"-like text
    and None where the file writes "-", "n/a", ... (by hand, POP), where the same file read
    as a query (the CLI's reading) holds NaN. The cp1252 file's pandas code reads it with
    lakejoin's reader; the UTF-8 one's with pd.read_csv and its own masking."""
    from lakejoin_jupyter.index.tables import find_table, spark_table
    table = find_table(marked_engine.index, name)
    assert list(table.marked_numbers) == ["pop", "n"]
    query = read_as_pandas(inspect(0, table.uri, "csv"))        # the same file as a query
    assert query["pop"].dtype == "float64"
    by_hand = dict(zip(POSTAL, POP))
    q = pd.DataFrame({"postal": POSTAL + ["ZZ"]})
    hit = next(h for h in marked_engine.search(q, "postal", k=5) if h.table == name)
    assert ("pd.read_csv(" in hit.code("q", "out")) == (name == "us/stats")
    sq = spark.createDataFrame(q)
    frames = {"pandas join": hit.join(q), "Spark join": hit.join(sq).toPandas()}
    for label, var, frame, spark_code in (("pandas code", "q", q, False),
                                          ("PySpark code", "sq", sq, True)):
        ns = {var: frame}
        exec(compile(hit.code(var, "out", spark=spark_code), "<cell>", "exec"), ns)  # noqa: S102
        frames[label] = ns["out"].toPandas() if spark_code else ns["out"]
    frames["engine.table"] = marked_engine.table(name)
    frames["Spark reader"] = spark_table(spark, table).toPandas()
    for label, got in frames.items():
        got = got.loc[got["postal"].isin(POSTAL)].set_index("postal")
        assert len(got) == len(POSTAL), label
        assert [None if pd.isna(v) else v for v in got["pop"]] == \
            [by_hand[p] for p in got.index], label
        assert got["pop"].isna().tolist() == \
            query.set_index("postal").loc[got.index, "pop"].isna().tolist(), label
        assert got["name"].loc["AK"] == "-", label          # text keeps its "-"
