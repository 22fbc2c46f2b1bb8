"""Numbers written with a decimal comma (a spreadsheet saved in a German or French locale:
";" separators, "13,2", a byte-order mark) are read as numbers everywhere the index reads
them (lake/read.py ``_decimal_commas``): the build (search by value, number columns'
types and key kinds, union's number features), a query file, the join and union code the
product writes (run in a fresh namespace), the Spark reader and the CLI. A column mixing
"1,5" and "1.5", one with thousands points ("1.234,5"), "1,500"-only columns and ID
columns ("0012") keep their text. Oracle: ``pd.read_csv(path, sep=";", decimal=",")``."""
from __future__ import annotations

import io

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import lake_engine
from lakejoin_jupyter.lake.read import TableInfo, _csv_columns, read_as_pandas, read_columns

STATES = ["Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado",
          "Connecticut", "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois",
          "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland"]
ARRESTS = pd.DataFrame({
    "State": STATES,
    "Murder": [13.2, 10.0, 8.1, 8.8, 9.0, 7.9, 3.3, 5.9, 15.4, 17.4, 5.3, 2.6, 10.4, 7.2,
               2.2, 6.0, 9.7, 15.4, 2.1, 11.3],
    "Assault": [236, 263, 294, 190, 276, 204, 110, 238, 335, 211, 46, 120, 249, 113, 56,
                115, 109, 249, 83, 300],
    "Code": [f"{i:04d}" for i in range(12, 32)]})


def excel_bytes(frame: pd.DataFrame) -> bytes:
    """``frame`` as a spreadsheet in a German locale saves it: ";", decimal commas, a BOM."""
    return frame.to_csv(sep=";", decimal=",", index=False).encode("utf-8-sig")


def test_a_decimal_comma_column_reads_as_numbers_and_the_rest_keeps_its_text(tmp_path):
    """Murder ("13,2", "10,0") reads as "13.2", "10.0" and types as pandas reads it with
    decimal=","; an integer column, an ID column ("0012"), text holding commas, a
    "1,500"-only column and a ","-separated file's quoted "13,2" keep their text; columns
    mixing decimal commas with decimal or thousands points stay text, named in a warning."""
    f = tmp_path / "arrests.csv"
    f.write_bytes(excel_bytes(ARRESTS))
    info, cols = read_columns(0, str(f), "csv")
    assert cols[1].to_pylist() == [f"{v:.1f}" for v in ARRESTS["Murder"]]
    assert info.delimiter == ";" and info.decimal_commas == ["Murder"] and not info.warnings
    assert cols[3].to_pylist() == list(ARRESTS["Code"])
    typed = read_as_pandas(info)
    want = pd.read_csv(f, sep=";", decimal=",", encoding="utf-8-sig")
    pd.testing.assert_series_equal(typed["Murder"], want["Murder"])
    assert typed["Murder"].dtype == "float64"

    g = tmp_path / "mixed.csv"
    g.write_bytes("\ufeffState;Murder;Mixed;Thousands;Pop;Note\nAlabama;13,2;1,5;1.234,5;1,500;a,b\n"
                  "Alaska;10;1.5;12,5;2,000;\nArizona;8,1;2;3;;x\n".encode("utf-8"))
    info, cols = read_columns(0, str(g), "csv")
    assert info.decimal_commas == ["Murder"]
    assert [c.to_pylist() for c in cols[2:]] == [["1,5", "1.5", "2"], ["1.234,5", "12,5", "3"],
                                                 ["1,500", "2,000", None], ["a,b", None, "x"]]
    said = [w for w in info.warnings if "decimal comma" in w]
    assert len(said) == 1 and "'Mixed', 'Thousands'" in said[0] and "'Pop'" not in said[0]
    assert pd.to_numeric(read_as_pandas(info)["Murder"]).tolist() == [13.2, 10.0, 8.1]

    h = tmp_path / "plain.csv"
    h.write_text('a,b\n"13,2",x\n"8,1",y\n', encoding="utf-8")
    info, cols = read_columns(0, str(h), "csv")
    assert cols[0].to_pylist() == ["13,2", "8,1"] and not info.decimal_commas


NUMBERS = st.one_of(st.integers(-10**6, 10**6),
                    st.builds(lambda n, d: n / 10 ** d, st.integers(-10**6, 10**6),
                              st.integers(1, 3)))


@given(st.lists(st.lists(st.one_of(st.none(), NUMBERS), min_size=2, max_size=2), min_size=1,
                max_size=12), st.booleans())
def test_a_decimal_comma_file_reads_as_the_same_file_written_with_points(rows, point):
    """Oracle: the same numbers written with decimal points (and ","). A column reads so when
    some comma in it is not followed by exactly three digits; otherwise, or when one of its
    cells is written with a point ("1.5" among "1,5"), it keeps its text as written."""
    texts = [["" if v is None else repr(v) for v in row] for row in rows]
    if point:
        texts[0][0] = "1.5"
    written = [[t.replace(".", ",") if not (point and i == j == 0) else t
                for j, t in enumerate(row)] for i, row in enumerate(texts)]
    comma = "a;b\n" + "".join(";".join(r) + "\n" for r in written)
    plain = "a,b\n" + "".join(",".join(r) + "\n" for r in texts)
    got = _csv_columns(TableInfo(0, "t.csv", "csv", delimiter=";"), comma)
    want = _csv_columns(TableInfo(0, "t.csv", "csv", delimiter=","), plain)
    for j in range(2):
        cells = [r[j] for r in written if r[j]]
        fraction = any("," in c and len(c.rsplit(",", 1)[1]) != 3 for c in cells)
        mixed = any("." in c for c in cells)
        expected = (want[j].to_pylist() if fraction and not mixed
                    else [r[j] or None for r in written])
        assert got[j].to_pylist() == expected, (comma, j)


@pytest.fixture(scope="module")
def comma_engine(spark, tmp_path_factory):
    other = pd.DataFrame({"city": [f"c{i}" for i in range(30)],
                          "rate": [round(1.05 + i * 0.7, 2) for i in range(30)]})
    return lake_engine(spark, tmp_path_factory, "decimal_commas",
                       {"states/arrests.csv": excel_bytes(ARRESTS),
                        "towns/rates.csv": other}, components=["union"])


def _column(engine, table: str, column: str):
    cols = engine.index.columns
    tid = int(engine.index.tables.set_index("name").loc[table, "table_id"])
    return cols[(cols["table_id"] == tid) & (cols["name"] == column)].iloc[0]


@pytest.mark.spark
def test_the_build_indexes_decimal_comma_numbers_as_numbers(comma_engine):
    """The build's column type, key kind and value search see Murder's numbers: a query of
    the floats 13.2, 10.0, 8.1, 8.8 finds all four there (the index held "13,2")."""
    assert _column(comma_engine, "states/arrests", "Murder")["type"] == "float"
    assert _column(comma_engine, "states/arrests", "Code")["type"] != "float"
    murder = pd.DataFrame({"m": [13.2, 10.0, 8.1, 8.8]})
    hit = next(h for h in comma_engine.search(murder, "m", k=20)
               if (h.table, h.column) == ("states/arrests", "Murder"))
    assert hit.overlap == 4
    assert hit.key_kind == "number"


@pytest.mark.spark
def test_the_join_and_its_code_read_the_numbers_the_index_saw(comma_engine):
    """The join of a hit on Murder, and its pandas code run where only the query is bound,
    give the frame built by hand from pd.read_csv(sep=";", decimal=",") (text columns as
    the join gives them: the cells' text, numbers with a point)."""
    from lakejoin_jupyter.actions import join_hit
    murder = pd.DataFrame({"m": [13.2, 10.0, 8.1, 99.9]})
    hit = next(h for h in comma_engine.search(murder, "m", k=20)
               if (h.table, h.column) == ("states/arrests", "Murder"))
    out = join_hit(comma_engine, hit, murder, frame_name="murder")
    assert out.ok, out.summary
    path = comma_engine.index.tables.set_index("name").loc["states/arrests", "uri"]
    lake = pd.read_csv(path, sep=";", decimal=",", encoding="utf-8-sig", dtype={"Code": str})
    want = murder.merge(lake, left_on="m", right_on="Murder", how="left")
    got = out.joined
    assert list(got.columns) == list(want.columns)
    assert pd.to_numeric(got["Murder"]).tolist() == pytest.approx(want["Murder"].tolist(),
                                                                   nan_ok=True)
    assert pd.to_numeric(got["Assault"]).tolist() == pytest.approx(want["Assault"].tolist(),
                                                                    nan_ok=True)
    assert got["Code"].tolist() == [c if isinstance(c, str) else None for c in want["Code"]]
    ns = {"murder": murder.copy()}
    code = out.code("murder", "murder_out")
    assert "replace(',', '.'" in code
    exec(compile(code, "<cell>", "exec"), ns)  # noqa: S102 - our own generated code
    pd.testing.assert_frame_equal(ns["murder_out"], out.joined)


@pytest.mark.spark
def test_union_stacks_decimal_comma_numbers_as_numbers(comma_engine):
    """A frame of states and murder rates finds states/arrests unionable with Murder aligned
    as numbers; the stacked rows hold pd.read_csv(decimal=",")'s numbers (they were NaN:
    "13,2" is no number to pd.to_numeric), and the union's code gives the same frame."""
    from lakejoin_jupyter.actions import run_union
    query = pd.DataFrame({"State": ["Texas", "Utah", "Ohio", "Alabama"],
                          "Murder": [12.7, 3.2, 7.3, 13.2]})
    res = comma_engine.search_unionable(query, k=5)
    hit = next(h for h in res if h.table == "states/arrests")
    assert hit.mapping.get("Murder") == "Murder"
    assert hit.evidence["Murder"]["numeric"] > 0       # compared as numbers (KS of sketches)
    out = run_union(comma_engine, hit, query, distinct=False)
    lake = pd.read_csv(comma_engine.index.tables.set_index("name").loc["states/arrests", "uri"],
                       sep=";", decimal=",", encoding="utf-8-sig")
    assert out.joined["Murder"].tolist()[len(query):] == lake["Murder"].tolist()
    ns = {"query": query.copy()}
    exec(compile(out.code("query", "stacked"), "<cell>", "exec"), ns)  # noqa: S102
    pd.testing.assert_frame_equal(ns["stacked"], out.joined)


@pytest.mark.spark
def test_spark_reads_the_numbers_the_index_saw(comma_engine, spark):
    """The Spark reader of a lake table (joins of Spark frames) reads Murder as "13.2"; the
    join of a Spark frame and its PySpark code, run in a fresh namespace, give the rows the
    pandas join gives."""
    from lakejoin_jupyter.index.tables import find_table, spark_table
    table = find_table(comma_engine.index, "states/arrests")
    got = spark_table(spark, table).toPandas()
    assert got["Murder"].tolist() == comma_engine.table("states/arrests")["Murder"].tolist()
    assert pd.to_numeric(got["Murder"]).tolist() == ARRESTS["Murder"].tolist()
    murder = pd.DataFrame({"m": [13.2, 10.0, 8.1, 99.9]})
    hit = next(h for h in comma_engine.search(murder, "m", k=20)
               if (h.table, h.column) == ("states/arrests", "Murder"))
    sq = spark.createDataFrame(murder)
    ns = {"sq": sq}
    exec(compile(hit.code("sq", "out", spark=True), "<cell>", "exec"), ns)  # noqa: S102

    def rows(frame):
        return sorted((tuple(None if pd.isna(v) else v for v in r) for r in frame), key=repr)
    want = hit.join(murder)
    assert rows(ns["out"].collect()) == rows(want.itertuples(index=False))
    assert rows(hit.join(sq).collect()) == rows(want.itertuples(index=False))


@pytest.mark.spark
def test_the_cli_reads_a_decimal_comma_query_file_as_numbers(comma_engine, tmp_path, capsys):
    """`lakejoin search INDEX -t q.csv -c r` with q.csv saved the German way finds its four
    rates in towns/rates.rate (written with points; the query held "1,05" as text)."""
    from lakejoin_jupyter.cli import main as cli
    q = tmp_path / "q.csv"
    q.write_bytes(excel_bytes(pd.DataFrame({"r": [1.05, 1.75, 2.45, 3.15],
                                            "n": ["a", "b", "c", "d"]})))
    assert cli(["search", str(comma_engine.index.path), "-t", str(q), "-c", "r", "-k", "20",
                "--format", "csv"]) == 0
    listed = pd.read_csv(io.StringIO(capsys.readouterr().out))
    row = listed[(listed["table"] == "towns/rates") & (listed["column"] == "rate")]
    assert len(row) == 1 and int(row["overlap"].iloc[0]) == 4


@pytest.mark.spark
def test_the_cli_join_writes_the_numbers(comma_engine, tmp_path, capsys):
    """`lakejoin join INDEX -t q.csv -c m --hit N --out out.csv`, q.csv and the lake table
    both saved the German way: the written file holds the query's and Murder's numbers
    (pd.read_csv reads them as floats), Assault matched as pd.read_csv(decimal=",") has it."""
    from lakejoin_jupyter.cli import main as cli
    q = tmp_path / "q.csv"
    q.write_bytes(excel_bytes(pd.DataFrame({"m": [13.2, 10.0, 8.1, 8.8], "n": list("abcd")})))
    index = str(comma_engine.index.path)
    assert cli(["search", index, "-t", str(q), "-c", "m", "-k", "20", "--format", "csv"]) == 0
    listed = pd.read_csv(io.StringIO(capsys.readouterr().out))
    rank = listed.index[(listed["table"] == "states/arrests")
                        & (listed["column"] == "Murder")].tolist()
    assert len(rank) == 1
    out = tmp_path / "out.csv"
    assert cli(["join", index, "-t", str(q), "-c", "m", "--hit", str(rank[0] + 1),
                "--out", str(out)]) == 0
    got = pd.read_csv(out)
    assert got["m"].tolist() == [13.2, 10.0, 8.1, 8.8]
    assert got["Murder"].tolist() == got["m"].tolist()
    lake = ARRESTS.drop_duplicates("Murder").set_index("Murder")
    assert got["Assault"].tolist() == lake.loc[got["m"], "Assault"].tolist()
