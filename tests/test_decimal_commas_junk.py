"""A decimal-comma column whose missing cells are written with no letter or digit ("-",
"--", ".", "*", "–": what a European spreadsheet writes for "no data"; junk to the index,
normalize.py) is numbers, those cells missing, as its null spellings are (newuser19 D1: one
"-" kept pop_k "2019,1 / - / n/a" text in every join while the index counted "-" missing).
Every reader agrees: the build, engine.table, the pandas and Spark joins, their code (run
in a fresh namespace) and the Spark reader. A column of decimal-comma numbers that stays text
because of a cell that is neither a number nor a missing mark ("k.A.") is named, with that
cell, in one build warning on its file.
Oracle: ``pd.read_csv(path, sep=";", decimal=",", na_values=[those cells])`` and by hand."""
from __future__ import annotations

import io

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import lake_engine
from lakejoin_jupyter.lake.read import TableInfo, _csv_columns, read_as_pandas, read_columns
from lakejoin_jupyter.lake.normalize import normalize_text

JUNK = ["-", "--", ".", "*", "\u2013", " - "]
# name;postal;pop_k (decimal commas, "-"-like and "n/a" missing);note (text with a comma)
ETATS = ("name;postal;pop_k;note\nALABAMA;AL;2019,1;a\nALASKA;AK;397,8;b\nARKANSAS;AR;-;c\n"
         "COLORADO;CO;n/a;d\nMAINE;ME;;e\nOHIO;OH;--;f\nUTAH;UT;.;g\nIOWA;IA;*;h\n"
         "IDAHO;ID;\u2013;i\nTEXAS;TX; - ;j\nKANSAS;KS;1691,2;k, l\n")
POP_K = ["2019.1", "397.8", None, None, None, None, None, None, None, None, "1691.2"]
# a column of decimal-comma numbers with a cell that is neither ("k.A.", "12,5 %"), and
# text columns that hold one decimal-comma cell among words (no warning)
STRAY = ("code;rate;share;words\nA;1,5;12,5 %;rue x\nB;2,25;3,5;1,5\nC;k.A.;4,0;allee y\n"
         "D;3,0;-;weg z\n")


def _etats_file(tmp_path):
    f = tmp_path / "etats_fr.csv"
    f.write_bytes(ETATS.encode("cp1252"))
    return f


def test_cells_without_letter_or_digit_are_missing_in_a_decimal_comma_column(tmp_path):
    """pop_k reads "2019.1" and None where the file writes "-", "--", ".", "*", "–", " - ",
    "n/a" or nothing (by hand), with no warning; typed, it is pd.read_csv(decimal=",")'s
    float64 with those cells in na_values. note ("k, l") and postal keep their text."""
    f = _etats_file(tmp_path)
    info, cols = read_columns(0, str(f), "csv")
    assert info.delimiter == ";" and info.decimal_commas == ["pop_k"]
    assert not [w for w in info.warnings if "decimal comma" in w], info.warnings
    assert cols[2].to_pylist() == POP_K
    assert cols[3].to_pylist()[-1] == "k, l"
    typed = read_as_pandas(info)
    want = pd.read_csv(f, sep=";", decimal=",", encoding="cp1252", keep_default_na=False,
                       na_values=["", "n/a"] + JUNK)
    assert want["pop_k"].dtype == "float64"
    pd.testing.assert_series_equal(typed["pop_k"], want["pop_k"])
    assert typed["pop_k"].isna().sum() == 8
    # the index drops the same cells as junk: the two readings agree on what is missing
    written = [line.split(";")[2] for line in ETATS.splitlines()[1:]]
    assert [normalize_text(c) is None for c in written] == [v is None for v in POP_K]


def test_a_cell_neither_number_nor_missing_keeps_the_column_text_and_is_named(tmp_path):
    """rate ("k.A." among "1,5", "2,25", "3,0") and share ("12,5 %") stay text as written;
    one warning names both columns and their cells; `words` (one "1,5" among words) is
    text without a warning. The "-" in share is no longer what keeps it text."""
    f = tmp_path / "stray.csv"
    f.write_text(STRAY, encoding="utf-8")
    info, cols = read_columns(0, str(f), "csv")
    assert info.decimal_commas == []
    assert cols[1].to_pylist() == ["1,5", "2,25", "k.A.", "3,0"]
    assert cols[2].to_pylist() == ["12,5 %", "3,5", "4,0", "-"]
    said = [w for w in info.warnings if "decimal comma" in w]
    assert len(said) == 1, info.warnings
    assert "'rate'" in said[0] and "'k.A.'" in said[0]
    assert "'share'" in said[0] and "'12,5 %'" in said[0]
    assert "'words'" not in said[0]
    g = tmp_path / "fixed.csv"         # the cell written as missing: numbers, no warning
    g.write_text(STRAY.replace("k.A.", "-").replace(" %", ""), encoding="utf-8")
    info, cols = read_columns(0, str(g), "csv")
    assert info.decimal_commas == ["rate", "share"] and not info.warnings
    assert cols[1].to_pylist() == ["1.5", "2.25", None, "3.0"]
    assert cols[2].to_pylist() == ["12.5", "3.5", "4.0", None]


NUMBERS = st.one_of(st.integers(-10**5, 10**5),
                    st.builds(lambda n, d: n / 10 ** d, st.integers(-10**5, 10**5),
                              st.integers(1, 2)))
MISSING = st.sampled_from(["", "n/a", "N/A", "null", "nan"] + JUNK)


@given(st.lists(st.one_of(NUMBERS, MISSING), min_size=1, max_size=15))
def test_a_decimal_comma_column_reads_as_pandas_with_its_missing_marks(cells):
    """Oracle: pd.read_csv(sep=";", decimal=",", na_values=[every missing mark]). A column
    with a comma not followed by exactly three digits reads as those numbers (float64, NaN
    for every missing mark); otherwise it keeps its text."""
    written = [c if isinstance(c, str) else repr(c).replace(".", ",") for c in cells]
    text = "k;v\n" + "".join(f"r{i};{c}\n" for i, c in enumerate(written))
    info = TableInfo(0, "t.csv", "csv", delimiter=";")
    got = _csv_columns(info, text)[1].to_pylist()
    marks = sorted({c for c in cells if isinstance(c, str)})
    want = pd.read_csv(io.StringIO(text), sep=";", decimal=",", keep_default_na=False,
                       na_values=marks)["v"]
    fraction = any("," in c and len(c.rsplit(",", 1)[1]) != 3 for c in written)
    if fraction:
        assert info.decimal_commas == ["v"], text
        assert [None if v is None else float(v) for v in got] == \
            [None if pd.isna(v) else float(v) for v in want], text
    else:
        assert info.decimal_commas == [], text
        # integers with missing marks are numbers read with those marks missing, as a
        # decimal-point column's (test_marked_numbers.py); otherwise the text as written
        numbers = all(not isinstance(c, str) or not c or "," not in c for c in written) and \
            any(not isinstance(c, str) for c in cells) and any(c for c in marks)
        assert info.marked_numbers == (["v"] if numbers else []), text
        assert got == [None if numbers and c in marks else c or None for c in written], text


@pytest.fixture(scope="module")
def junk_engine(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "decimal_comma_junk",
                       {"us/etats_fr.csv": ETATS.encode("cp1252"),
                        "us/etats_utf8.csv": ETATS.encode("utf-8"),
                        "misc/stray.csv": STRAY.encode("utf-8")})


@pytest.mark.parametrize("name", ["us/etats_fr", "us/etats_utf8"])
@pytest.mark.spark
def test_every_join_reads_the_dash_cells_missing(junk_engine, spark, name):
    """The join of the key "postal", pandas and Spark, their pandas and PySpark code each run
    in a fresh namespace, engine.table and the Spark reader: pop_k holds "2019.1"-like text
    and None where the file writes "-", "n/a", ... (by hand, POP_K), so pd.to_numeric reads
    pd.read_csv(decimal=",", na_values=...)'s numbers. The cp1252 file's pandas code reads
    it with lakejoin's reader; the UTF-8 one's with pd.read_csv and its own masking."""
    from lakejoin_jupyter.index.tables import find_table, spark_table
    table = find_table(junk_engine.index, name)
    assert list(table.decimal_commas) == ["pop_k"]
    want = pd.read_csv(table.uri, sep=";", decimal=",", encoding=table.encoding or "utf-8",
                       keep_default_na=False, na_values=["", "n/a"] + JUNK).set_index("postal")
    by_hand = dict(zip(want.index, POP_K))
    q = pd.DataFrame({"postal": ["AL", "AK", "AR", "CO", "ME", "OH", "UT", "IA", "ID", "TX",
                                 "KS", "ZZ"]})
    hit = next(h for h in junk_engine.search(q, "postal", k=5) if h.table == name)
    assert ("pd.read_csv(" in hit.code("q", "out")) == (name == "us/etats_utf8")
    sq = spark.createDataFrame(q)
    frames = {"pandas join": hit.join(q), "Spark join": hit.join(sq).toPandas()}
    for label, var, frame, spark_code in (("pandas code", "q", q, False),
                                          ("PySpark code", "sq", sq, True)):
        ns = {var: frame}
        exec(compile(hit.code(var, "out", spark=spark_code), "<cell>", "exec"), ns)  # noqa: S102
        frames[label] = ns["out"].toPandas() if spark_code else ns["out"]
    frames["engine.table"] = junk_engine.table(name)
    frames["Spark reader"] = spark_table(spark, table).toPandas()
    for label, got in frames.items():
        got = got.loc[got["postal"].isin(list(by_hand))].set_index("postal")
        assert len(got) == 11, label
        assert got["pop_k"].map(type).isin([str, type(None)]).all(), label
        assert [None if pd.isna(v) else v for v in got["pop_k"]] == \
            [by_hand[p] for p in got.index], label
        pd.testing.assert_series_equal(pd.to_numeric(got["pop_k"]),
                                       want.loc[got.index, "pop_k"], check_names=False,
                                       obj=label)


@pytest.mark.spark
def test_the_build_names_the_cell_that_keeps_a_column_text(junk_engine):
    """One warning on misc/stray.csv names rate and its cell "k.A."; none on etats_fr."""
    warned = [(p, m) for p, m in junk_engine.build_report.warnings if "decimal comma" in m]
    assert len(warned) == 1, junk_engine.build_report.warnings
    path, message = warned[0]
    assert path.endswith("stray.csv") and "'rate'" in message and "'k.A.'" in message
