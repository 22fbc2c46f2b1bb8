"""Parquet lake tables in a Spark-built index: columns that repeat a name are read by position
(values under the name the index gives them, "x.2" for the second "x", in the build, the
search, the join and the generated code); a pandas join keeps the table's column types as
the Spark join does; names with dots, spaces, backticks, quotes and non-ASCII letters work
in the generated pandas and PySpark code."""
import datetime as dt
from decimal import Decimal

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

pytestmark = pytest.mark.spark

CODES = ["FR", "DE", "US", "PE", "TD"]
WEIRD = ["a.b c", "`tick`", "it's \"q\"", "ünï.✓"]


def _typed_table():
    n = len(CODES)
    return pa.table({
        "code": pa.array(CODES),
        "n": pa.array([81, None, 3, -4, 2 ** 40], pa.int64()),
        "x": pa.array([0.5, 1.0, None, -2.25, 1e20], pa.float64()),
        "price": pa.array([Decimal("0.079"), Decimal("1.500"), None, Decimal("-3.000"),
                           Decimal("12.345")], pa.decimal128(8, 3)),
        "flag": pa.array([True, False, None, True, False], pa.bool_()),
        "day": pa.array([dt.date(2026, 3, 1), None, dt.date(1999, 12, 31),
                         dt.date(2000, 1, 1), dt.date(2026, 11, 28)], pa.date32()),
        "at": pa.array([dt.datetime(2026, 3, 1, 12, 30), dt.datetime(2026, 3, 2),
                        None, dt.datetime(1970, 1, 1, 0, 0, 1),
                        dt.datetime(2026, 11, 28, 23, 59, 59, 123456)], pa.timestamp("us")),
        **{w: pa.array([f"{w}-{i}" for i in range(n)]) for w in WEIRD},
        "tags": pa.array([["a", "b"], [], None, ["c"], ["d"]], pa.list_(pa.string())),
    })


@pytest.fixture(scope="module")
def lake(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    root = tmp_path_factory.mktemp("pqcols")
    (root / "lake").mkdir()
    dup = pa.Table.from_arrays(
        [pa.array(["DO", "DZ", "EC", "EE"]),
         pa.array(["Dominican Republic", "Algeria", "Ecuador", "Estonia"]),
         pa.array([1, 2, 3, 4], pa.int64())], names=["iso2", "name", "iso2"])
    pq.write_table(dup, root / "lake" / "dup.parquet")
    pq.write_table(_typed_table(), root / "lake" / "typed.parquet")
    engine = build_index(root / "lake", root / "pq.index", spark=spark, progress=False)
    return engine, root


def test_repeated_column_names_keep_their_values_by_position(lake):
    engine, root = lake
    raw = pq.ParquetFile(root / "lake" / "dup.parquet").read()
    t = engine.table("dup")
    assert list(t.columns) == ["iso2", "name", "iso2.2"]
    for j, c in enumerate(t.columns):      # the file's j-th column, as text
        assert t[c].tolist() == [str(v) for v in raw.column(j).to_pylist()], c
    typed = engine.table("dup", types=True)
    assert typed["iso2.2"].tolist() == [1, 2, 3, 4]
    assert typed["name"].tolist() == raw.column(1).to_pylist()
    # the index: the numbers are in iso2.2, the names in name
    hits = engine.search(pd.DataFrame({"q": [1, 2, 3, 4]}), "q", k=None)
    assert {(h.table, h.column) for h in hits if h.table == "dup"} == {("dup", "iso2.2")}
    hits = engine.search(pd.DataFrame({"q": ["Algeria", "Estonia"]}), "q", k=None)
    assert {(h.table, h.column) for h in hits if h.table == "dup"} == {("dup", "name")}


def test_repeated_column_names_join_and_code_in_pandas_and_spark(lake, spark):
    engine, _ = lake
    q = pd.DataFrame({"k": ["dz", "EE", "zz"]})
    hit = next(h for h in engine.search(q, "k", k=None) if h.table == "dup")
    j = hit.join(q)
    assert j["name"].tolist() == ["Algeria", "Estonia", None]
    assert j["iso2.2"].tolist()[:2] == [2, 4]
    ns = {"q": q}
    exec(hit.code("q", "out"), ns)   # noqa: S102
    pd.testing.assert_frame_equal(ns["out"], j)
    sq = spark.createDataFrame(q)
    js = hit.join(sq)
    code = hit.code("sq", "out", spark=True)
    ns = {"sq": sq}
    exec(code, ns)   # noqa: S102
    for frame in (js, ns["out"]):
        rows = sorted(frame.collect(), key=lambda r: r["k"])
        assert [(r["k"], r["name"], r["iso2.2"]) for r in rows] == \
            [("EE", "Estonia", 4), ("dz", "Algeria", 2), ("zz", None, None)]


def _query():
    return pd.DataFrame({"code": ["us", "fr", "xx", "TD"], "a.b c": [1, 2, 3, 4]})


def _hit(engine, q):
    return next(h for h in engine.search(q, "code", k=None)
                if h.table == "typed" and h.column == "code")


def test_pandas_join_keeps_parquet_types_and_its_code_too(lake):
    engine, root = lake
    q = _query()
    hit = _hit(engine, q)
    j = hit.join(q)
    d = j.dtypes
    assert str(d["n"]) == "Int64" and str(d["flag"]) == "boolean"
    assert str(d["x"]) == "float64" and str(d["at"]).startswith("datetime64")
    assert d["price"] == object and d["day"] == object
    raw = pq.read_table(root / "lake" / "typed.parquet").to_pylist()
    by_code = {r["code"]: r for r in raw}
    for i, code in enumerate(["US", "FR", None, "TD"]):
        row = j.iloc[i]
        if code is None:      # unmatched: the dtype's missing value; None in object columns
            assert row["n"] is pd.NA and row["flag"] is pd.NA and pd.isna(row["x"])
            assert row["at"] is pd.NaT
            assert row["price"] is None and row["day"] is None and row["code_typed"] is None
            continue
        r = by_code[code]
        assert (None if row["n"] is pd.NA else int(row["n"])) == r["n"]
        assert (None if pd.isna(row["x"]) else row["x"]) == r["x"]
        assert row["price"] == r["price"] and row["day"] == r["day"]
        assert (None if row["flag"] is pd.NA else bool(row["flag"])) == r["flag"]
        assert (None if row["at"] is pd.NaT else row["at"].to_pydatetime()) == r["at"]
        assert row["a.b c_typed"] == r["a.b c"]
        assert row["tags"] == r["tags"]            # a list column: its lists, as in Spark
    assert j["n"].sum() == 3 + 81 + 2 ** 40
    ns = {"q": q}
    exec(hit.code("q", "out"), ns)   # noqa: S102
    pd.testing.assert_frame_equal(ns["out"], j)
    inner = hit.join(q, how="inner")
    ns = {"q": q}
    exec(hit.code("q", "out", how="inner"), ns)   # noqa: S102
    pd.testing.assert_frame_equal(ns["out"], inner)
    assert str(inner.dtypes["n"]) == "Int64"


def test_weird_column_names_in_pandas_and_spark_code(lake, spark):
    engine, _ = lake
    q = _query()
    hit = _hit(engine, q)
    j = hit.join(q)
    for w in WEIRD:
        assert (w + "_typed" if w == "a.b c" else w) in j.columns
    sq = spark.createDataFrame(q)
    js = hit.join(sq)
    ns = {"sq": sq}
    exec(hit.code("sq", "out", spark=True), ns)   # noqa: S102
    out = ns["out"]
    assert out.columns == js.columns
    types = dict(js.dtypes)
    assert types["n"] == "bigint" and types["flag"] == "boolean"
    assert types["price"].startswith("decimal") and types["day"] == "date"
    assert types["x"] == "double" and types["at"].startswith("timestamp")

    def rows(frame):
        return sorted((tuple(r) for r in frame.collect()), key=repr)
    assert rows(out) == rows(js)
    got = {r["code"]: r for r in js.collect()}
    assert got["fr"]["ünï.✓"] == "ünï.✓-0" and got["fr"]["`tick`"] == "`tick`-0"
    assert got["TD"]["it's \"q\""] == "it's \"q\"-4" and got["xx"]["n"] is None
    # a lake key whose name has a dot, a space and a backtick, joined from Spark
    q2 = pd.DataFrame({"w": ["`tick`-1", "`tick`-3", "none"]})
    hit2 = next(h for h in engine.search(q2, "w", k=None) if h.column == "`tick`")
    sq2 = spark.createDataFrame(q2)
    ns = {"sq2": sq2}
    exec(hit2.code("sq2", "out", spark=True), ns)   # noqa: S102
    assert rows(ns["out"]) == rows(hit2.join(sq2))
    assert sorted(r["code"] or "" for r in ns["out"].collect()) == ["", "DE", "PE"]
    ns = {"q2": q2}
    exec(hit2.code("q2", "out"), ns)   # noqa: S102
    pd.testing.assert_frame_equal(ns["out"], hit2.join(q2))


def test_lake_text_of_typed_columns_is_the_text_the_index_read(lake):
    """Text and program keys (Auto-Join, fuzzy join) read a typed lake column as the index's
    text: "true" not "True", ISO dates, whole floats without ".0"."""
    from lakejoin_jupyter.join.keys import lake_text, normalized_keys
    engine, _ = lake
    text, typed = engine.table("typed"), engine.table("typed", types=True)
    assert list(text.columns) == list(typed.columns)
    for c in text.columns:
        assert lake_text(typed[c]).tolist() == text[c].tolist(), c
        assert normalized_keys(typed[c]).tolist() == normalized_keys(text[c]).tolist(), c


@pytest.mark.parametrize("column,values", [
    ("flag", ["true", "True"]), ("at", ["2026-03-01T12:30:00", "2026-03-01 12:30:00"]),
    ("day", ["2026-03-01"]), ("x", ["1", "0.5"]), ("n", ["81", "3"])])
def test_text_keys_of_a_typed_lake_column_join_the_index_text(lake, spark, column, values):
    """A text key (fuzzy join, Auto-Join) on a typed Parquet column matches the text the
    index read, in the join, its pandas code and Spark."""
    from lakejoin_jupyter.index.tables import find_table
    from lakejoin_jupyter.join.codegen import plan_code
    from lakejoin_jupyter.join.execute import execute
    from lakejoin_jupyter.join.plan import Key, make_plan
    engine, _ = lake
    table = find_table(engine.index, "typed")
    text = engine.table("typed")
    q = pd.DataFrame({"v": values})
    plan = make_plan(["v"], [Key(("v",), "text")], list(table.columns),
                     [Key((column,), "text")], other=table, how="inner")
    j = execute(plan, q)
    assert len(j) == sum(text[column].eq(v).sum() for v in values) > 0
    assert set(j["v"]) == {v for v in values if v in set(text[column])}
    ns = {"q": q}
    exec(plan_code(plan, name="q", into="out"), ns)   # noqa: S102
    pd.testing.assert_frame_equal(ns["out"], j)
    assert execute(plan, spark.createDataFrame(q)).count() == len(j)
