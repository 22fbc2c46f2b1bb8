"""List columns of Parquet and JSON-lines tables (list<string>, list<int>, a JSON-lines column
whose values are all lists) are searched and joined by their elements: the reader and the
build's long form hold a list's elements as the column's values (checked against Python
sets, also on random list columns); the Spark build's search figures equal Python sets over
the elements; a hit says it is a list column; ``hit.join(df)`` equals the lake table
exploded and merged, in pandas and in Spark, and so does the code it writes. Lists of lists
stay JSON text."""
import json

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.errors import QueryError
from lakejoin_jupyter.indexing.read import long_form_of
from lakejoin_jupyter.lake.normalize import normalize_many
from lakejoin_jupyter.lake.read import read_columns, read_table

ZONES = pd.DataFrame({
    "zone": ["America/New_York", "America/Toronto", "Europe/Paris", "Asia/Tokyo",
             "Pacific/Nowhere", "Antarctica/Troll", "Europe/Zurich", "America/Tijuana"],
    "codes": [["US", "CA"], ["CA"], ["FR", "MC"], ["JP"], None, [], ["CH", "DE", "LI", None],
              ["MX", "US", "US"]],
    "nested": [[["a"]], None, [["b", "c"]], [], [["d"]], None, [], [["e"]]]})
IDS = pd.DataFrame({"name": ["p", "q", "r", "s", "t"],
                    "ids": [[1, 2, 3], [3], None, [], [40, 2]]})
LANGS = [{"lang": "fr", "countries": ["FR", "BE", "CH", "CA"]},
         {"lang": "de", "countries": ["DE", "CH", "AT"]},
         {"lang": "xx", "countries": None},
         {"lang": "yy"},
         {"lang": "zz", "countries": []},
         {"lang": "en", "countries": ["US", "GB", "CA", "AU"]}]
QUERY = pd.DataFrame({"code": ["US", "CA", "FR", "DE", "CH", "BR", "JP", "AT"], "n": range(8)})
QUERY_IDS = pd.DataFrame({"id": ["1", "2", "40", "7"]})
NESTED_TEXT = json.dumps([["a"]])


def write_list_lake(root):
    (root / "geo").mkdir(parents=True, exist_ok=True)
    (root / "stats").mkdir(parents=True, exist_ok=True)
    schema = pa.schema([("zone", pa.string()), ("codes", pa.list_(pa.string())),
                        ("nested", pa.list_(pa.list_(pa.string())))])
    pq.write_table(pa.Table.from_pandas(ZONES, schema=schema, preserve_index=False),
                   root / "geo/zone1970.parquet")
    pq.write_table(pa.Table.from_pandas(IDS, schema=pa.schema(
        [("name", pa.string()), ("ids", pa.list_(pa.int64()))]), preserve_index=False),
        root / "stats/ids.parquet")
    (root / "geo/langs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in LANGS))
    return root


def elements(cells) -> list:
    return [e for v in cells if isinstance(v, list) for e in v if e is not None]


def tokens(values) -> set:
    return {t for t in normalize_many([str(v) for v in values]) if t is not None}


# ------------------------------------------------------------------ the reader, no Spark

def test_list_columns_read_as_their_elements(tmp_path):
    root = write_list_lake(tmp_path / "lake")
    info, cols = read_columns(0, str(root / "geo/zone1970.parquet"), "parquet")
    assert info.ok and info.lists == ["codes"]                 # a list of lists stays text
    assert cols[1].to_pylist() == list(ZONES["codes"])
    assert read_table(info)["nested"].iloc[0] == '[["a"]]'
    assert read_table(info)["codes"].iloc[0] == '["US", "CA"]'  # previews: the JSON text
    info, cols = read_columns(0, str(root / "stats/ids.parquet"), "parquet")
    assert info.lists == ["ids"]
    assert cols[1].to_pylist() == [None if v is None else [str(e) for e in v] for v in IDS["ids"]]
    info, cols = read_columns(0, str(root / "geo/langs.jsonl"), "jsonl")
    assert info.lists == ["countries"]
    assert cols[1].to_pylist() == [r.get("countries") for r in LANGS]


def test_long_form_holds_each_element_as_a_cell_of_its_row(tmp_path):
    root = write_list_lake(tmp_path / "lake")
    info, cols = read_columns(3, str(root / "geo/zone1970.parquet"), "parquet")
    out = long_form_of([(3, cols, None)], 16, 1, 5)
    values = out["values"].to_pandas()
    codes = values[values["position"] == 1]
    want = pd.Series(elements(ZONES["codes"])).value_counts()
    assert dict(zip(codes["value"], codes["n"])) == want.to_dict()      # "US" twice in a row
    cells = out["cells"].to_pandas()
    rc = dict(zip(codes["rcode"], codes["value"]))
    got = [(r.row_id, rc[r.rcode]) for r in cells[cells["position"] == 1].itertuples()]
    assert got == [(i, e) for i, v in enumerate(ZONES["codes"]) if isinstance(v, list)
                   for e in v if e is not None]
    order = list(zip(cells["row_id"], cells["position"]))
    assert order == sorted(order)                                      # (row, position) order
    prof = out["columns"].to_pandas()
    assert prof["n_values"].tolist()[:2] == [8, len(elements(ZONES["codes"]))]


def test_a_batch_mixing_tables_with_and_without_lists_keeps_every_cell_in_place():
    plain = [pa.array(["a", None, "b"]), pa.array(["1", "2", None])]
    listed = [pa.array([["x", "y"], None, [], ["x"]], pa.list_(pa.string())),
              pa.array(["p", "q", None, "r"])]
    tables = [(0, plain, None), (1, listed, None), (2, [pa.array(["z"])], None)]
    out = long_form_of(tables, 16, 1, 5)
    v = out["values"].to_pandas()
    text = {(t, p, r): x for t, p, r, x in zip(v["table_id"], v["position"], v["rcode"],
                                               v["value"])}
    cells = out["cells"].to_pandas()
    got = [(t, r, p, text[(t, p, c)]) for t, r, p, c in
           zip(cells["table_id"], cells["row_id"], cells["position"], cells["rcode"])]
    assert got == [(0, 0, 0, "a"), (0, 0, 1, "1"), (0, 1, 1, "2"), (0, 2, 0, "b"),
                   (1, 0, 0, "x"), (1, 0, 0, "y"), (1, 0, 1, "p"), (1, 1, 1, "q"),
                   (1, 3, 0, "x"), (1, 3, 1, "r"), (2, 0, 0, "z")]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.none(), st.lists(st.one_of(
    st.none(), st.sampled_from(["US", "ca", " Ca ", "DE", "x-1", "Ü", "1", "01"])),
    max_size=5)), min_size=1, max_size=12),
    st.lists(st.one_of(st.none(), st.lists(st.integers(-3, 3), max_size=4)), min_size=1,
             max_size=12))
def test_random_list_columns_hold_the_set_of_their_elements(tmp_path_factory, texts, ints):
    path = tmp_path_factory.mktemp("random") / "t.parquet"
    n = min(len(texts), len(ints))
    pq.write_table(pa.table({"s": pa.array(texts[:n], pa.list_(pa.string())),
                             "i": pa.array(ints[:n], pa.list_(pa.int64()))}), path)
    info, cols = read_columns(0, str(path), "parquet")
    assert info.lists == ["s", "i"]
    out = long_form_of([(0, cols, None)], 16, 1, 5)
    values = out["values"].to_pandas()
    prof = out["columns"].to_pandas()
    for j, cells in enumerate((texts[:n], ints[:n])):
        mine = values[values["position"] == j]
        assert set(mine["token"].dropna()) == tokens(elements(cells))
        assert int(mine["n"].sum()) == len(elements(cells))
        assert prof["n_distinct"].iloc[j] == len(tokens(elements(cells)))
        assert prof["n_filled"].iloc[j] == sum(1 for v in cells
                                               if v and any(e is not None for e in v))
    rows = out["cells"].to_pandas()
    assert len(rows) == sum(len(elements(c)) for c in (texts[:n], ints[:n]))


# ------------------------------------------------------------------ the Spark build

@pytest.fixture(scope="module")
def lake(tmp_path_factory):
    return write_list_lake(tmp_path_factory.mktemp("lists") / "lake")


@pytest.fixture(scope="module")
def engine(lake, spark, tmp_path_factory):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    out = tmp_path_factory.mktemp("lists-index") / "lake.index"
    build(lake, out, spark=spark, settings=BuildSettings(components=("union", "pexeso")),
          progress=False)
    return open_index(out)


LAKES = {"geo/zone1970": ("codes", lambda root: pd.read_parquet(root / "geo/zone1970.parquet")
                         .drop(columns="nested")),     # a list of lists: JSON text in pandas
         "stats/ids": ("ids", lambda root: pd.read_parquet(root / "stats/ids.parquet")),
         "geo/langs": ("countries", lambda root: pd.read_json(root / "geo/langs.jsonl",
                                                              lines=True, dtype=False))}
CASES = [("geo/zone1970", QUERY, "code"), ("stats/ids", QUERY_IDS, "id"),
         ("geo/langs", QUERY, "code")]


def hit_of(res, table):
    return next(h for h in res if h.table == table)


@pytest.mark.spark
def test_the_build_marks_list_columns(engine):
    cols = engine.index.columns
    flagged = {(engine.index.tables.iloc[t]["name"], n)
               for t, n in zip(cols[cols["list"]]["table_id"], cols[cols["list"]]["name"])}
    assert flagged == {("geo/zone1970", "codes"), ("stats/ids", "ids"),
                       ("geo/langs", "countries")}
    z = cols[cols["name"] == "codes"].iloc[0]
    assert z["n_distinct"] == len(tokens(elements(ZONES["codes"])))
    assert z["n_values"] == len(elements(ZONES["codes"]))     # more values than rows
    assert z["n_null"] == 2                 # rows without an element: a null and an empty list


@pytest.mark.spark
@pytest.mark.parametrize("table, query, qcol", CASES)
@pytest.mark.parametrize("method", ["josie", "lshensemble", "bruteforce"])
def test_search_figures_equal_python_sets_over_the_elements(engine, lake, table, query, qcol,
                                                            method):
    col, read = LAKES[table]
    res = engine.search(query, qcol, k=None, method=method,
                        threshold=0.1 if method == "lshensemble" else None)
    hit = hit_of(res, table)
    assert hit.columns == (col,) and hit.list_columns == (col,)
    want = tokens(query[qcol]) & tokens(elements(read(lake)[col].map(
        lambda v: list(v) if v is not None and not isinstance(v, float) else None)))
    if method == "lshensemble":
        assert hit.overlap is None or hit.overlap == len(want)
    else:
        assert hit.overlap == len(want)
        assert hit.containment == pytest.approx(len(want) / len(tokens(query[qcol])))


@pytest.mark.spark
def test_a_lake_list_column_as_the_query_searches_its_elements(engine):
    res = engine.search("geo/zone1970", "codes", k=None)
    langs = hit_of(res, "geo/langs")
    assert langs.overlap == len(tokens(elements(ZONES["codes"])) & tokens(elements(
        [r.get("countries") for r in LANGS])))


@pytest.mark.spark
def test_pexeso_and_union_see_the_elements(engine):
    res = engine.search(QUERY, "code", k=None, method="pexeso")
    assert "geo/zone1970" in {h.table for h in res}
    union = engine.search_unionable(pd.DataFrame({"code": ["US", "CA", "FR", "MX", "JP"]}))
    assert any(h.table == "geo/zone1970" for h in union)



@pytest.mark.spark
def test_a_union_query_frame_of_list_cells_is_profiled_by_its_elements(engine, lake):
    """A union search with a frame of list cells (``pd.read_json(lines=True)`` of a list
    field, or Parquet's lists) failed with "unhashable type: 'list'"; a list column is
    profiled by its elements, as the build profiles a lake list column, and a column of
    lists of lists or of objects by their JSON text: the frame read from geo/langs.jsonl
    is that table, and the zones' codes align with its countries."""
    langs = pd.read_json(lake / "geo/langs.jsonl", lines=True)
    own = hit_of(engine.search_unionable(langs, k=5), "geo/langs")
    assert own.is_query_table and own.mapping == {"lang": "lang", "countries": "countries"}
    zones = pd.read_parquet(lake / "geo/zone1970.parquet").assign(
        meta=[{"k": i} for i in range(len(ZONES))])
    res = engine.search_unionable(zones[["codes", "nested", "meta"]], k=5)
    assert hit_of(res, "geo/langs").mapping == {"codes": "countries"}

@pytest.mark.spark
def test_a_hit_says_it_is_a_list_column(engine, tmp_path, capsys, monkeypatch):
    from lakejoin_jupyter.cli import main
    res = engine.search(QUERY, "code", k=None)
    hit = hit_of(res, "geo/zone1970")
    assert "each element of codes" in hit.card()
    shown = res.text_table()
    assert "each element of codes" in list(shown["column"])
    assert "each element of codes" in repr(res)
    from lakejoin_jupyter.ui.session import Session
    from lakejoin_jupyter.ui.widget import DiscoveryWidget
    w = DiscoveryWidget(engine, session=Session(), namespace={"q": QUERY})
    w._show_hits(list(res), res)
    assert "each element of codes" in {r["column"] for r in w.results.rows}
    monkeypatch.chdir(tmp_path)
    QUERY.to_csv(tmp_path / "q.csv", index=False)
    assert main(["search", str(engine.index.path), "-t", "q.csv", "-c", "code"]) == 0
    assert "each element of codes" in capsys.readouterr().out


# ------------------------------------------------------------------ joins and their code

def run_fresh(code: str, name: str, frame) -> dict:
    ns = {name: frame}
    exec(compile(code, "<inserted cell>", "exec"), ns)   # noqa: S102 - the code under test
    return ns


def cell(v):
    if isinstance(v, float) and v.is_integer():
        return str(int(v))               # Spark's toPandas: a column of ints with nulls
    return None if v is None or (isinstance(v, float) and v != v) else str(v)


def rows(df):
    return [tuple(cell(v) for v in r) for r in df.itertuples(index=False)]


def oracle(lake_frame, col, query, qcol, how="left"):
    """The lake table exploded on its list column, merged on the normalized key."""
    ex = lake_frame.explode(col, ignore_index=True)
    key = pd.Series(normalize_many([cell(v) for v in ex[col]]), index=ex.index, dtype=object)
    qkey = pd.Series(normalize_many([cell(v) for v in query[qcol]]), dtype=object)
    return (query.assign(__k=qkey).merge(ex.assign(__k=key).dropna(subset=["__k"]),
                                         on="__k", how=how).drop(columns="__k"))


@pytest.mark.spark
@pytest.mark.parametrize("table, query, qcol", CASES)
def test_join_and_its_code_equal_the_exploded_merge(engine, lake, table, query, qcol):
    col, read = LAKES[table]
    hit = hit_of(engine.search(query, qcol, k=None), table)
    assert hit.plan(query).explode == (col,)
    joined = hit.join(query)
    want = oracle(read(lake), col, query, qcol)
    assert [c for c in joined.columns if c != "nested"] == list(want.columns)
    assert rows(joined[want.columns]) == rows(want)
    if "nested" in joined:
        assert joined["nested"].iloc[0] == NESTED_TEXT
    assert hit.join_rows == len(want)                   # the figures count exploded rows
    code = hit.code("q", "out")
    assert f".explode({col!r}, ignore_index=True)" in code
    ns = run_fresh(code, "q", query)
    pd.testing.assert_frame_equal(ns["out"], joined)
    inner = hit.join(query, how="inner")
    want = oracle(read(lake), col, query, qcol, how="inner")
    assert rows(inner[want.columns]) == rows(want)
    pd.testing.assert_frame_equal(run_fresh(hit.code("q", "out", how="inner"), "q", query)["out"],
                                  inner)


@pytest.mark.spark
@pytest.mark.parametrize("table, query, qcol", CASES)
def test_spark_join_and_its_code_equal_the_exploded_merge(engine, lake, spark, table, query,
                                                          qcol):
    col, read = LAKES[table]
    sdf = spark.createDataFrame(query)
    hit = hit_of(engine.search(sdf, qcol, k=None), table)
    want = sorted(rows(oracle(read(lake), col, query, qcol)), key=repr)
    cols = list(oracle(read(lake), col, query, qcol).columns)
    joined = hit.join(sdf)
    assert sorted(rows(joined.toPandas()[cols]), key=repr) == want
    code = hit.code("sdf", "joined_sdf")
    assert "F.explode_outer(F.col(" in code
    ns = run_fresh(code, "sdf", sdf)
    assert sorted(rows(ns["joined_sdf"].toPandas()[cols]), key=repr) == want


@pytest.mark.spark
def test_the_join_action_counts_exploded_rows(engine):
    from lakejoin_jupyter.actions import run_join
    hit = hit_of(engine.search(QUERY, "code", k=None), "geo/zone1970")
    want = oracle(pd.DataFrame(ZONES).drop(columns="nested"), "codes", QUERY, "code")
    out = run_join(engine, hit, QUERY)
    assert rows(out.joined[want.columns]) == rows(want)
    assert f"**{len(want):,} rows**" in out.summary


@pytest.mark.spark
def test_a_two_column_key_with_a_list_column(engine, lake):
    q = pd.DataFrame({"c": ["US", "CA", "CA", "FR", "US"],
                      "z": ["America/New_York", "America/Toronto", "Europe/Paris",
                            "Europe/Paris", "America/Tijuana"]})
    res = engine.search(q, ["c", "z"], k=None)
    hit = hit_of(res, "geo/zone1970")
    assert hit.mapping == {"c": "codes", "z": "zone"} and hit.list_columns == ("codes",)
    ex = pd.read_parquet(lake / "geo/zone1970.parquet").drop(columns="nested").explode("codes")
    pairs = set(zip(ex["codes"], ex["zone"]))
    assert hit.overlap == len({t for t in zip(q["c"], q["z"]) if t in pairs})
    joined = hit.join(q)
    want = q.merge(ex.dropna(subset=["codes"]), left_on=["c", "z"],
                   right_on=["codes", "zone"], how="left")
    assert rows(joined[want.columns]) == rows(want)
    pd.testing.assert_frame_equal(run_fresh(hit.code("q", "out"), "q", q)["out"], joined)


@pytest.mark.spark
@pytest.mark.parametrize("options", [{"duplicates": "first"}, {"aggregate": "count"}])
def test_per_key_joins_count_and_pick_exploded_rows(engine, spark, options):
    hit = hit_of(engine.search(QUERY, "code", k=None), "geo/zone1970")
    joined = hit.join(QUERY, **options)
    pd.testing.assert_frame_equal(
        run_fresh(hit.code("q", "out", **options), "q", QUERY)["out"], joined)
    ex = ZONES.drop(columns="nested").explode("codes").dropna(subset=["codes"])
    if "aggregate" in options:
        counts = ex["codes"].value_counts()
        assert joined.iloc[:, -1].tolist() == [int(counts.get(c, 0)) for c in QUERY["code"]]
    else:
        first = ex.drop_duplicates("codes").set_index("codes")["zone"]
        assert joined["zone"].tolist() == [first.get(c) for c in QUERY["code"]]
    sdf = spark.createDataFrame(QUERY)
    shit = hit_of(engine.search(sdf, "code", k=None), "geo/zone1970")
    cols = [c for c in joined.columns if c != "nested"]   # Spark: arrays; pandas: JSON text
    want = sorted(rows(joined[cols]), key=repr)
    assert sorted(rows(shit.join(sdf, **options).toPandas()[cols]), key=repr) == want
    code = shit.code("sdf", "out", **options)
    assert sorted(rows(run_fresh(code, "sdf", sdf)["out"].toPandas()[cols]), key=repr) == want


JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5),
                         st.sampled_from(["US", "us ", "Ü", "7", "x y", ""]))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.none(), st.lists(JSON_SCALARS, max_size=4), JSON_SCALARS,
                          st.just([["nested"]]), st.just([{"k": 1}])), min_size=1, max_size=10))
def test_a_json_lines_column_is_a_list_column_when_all_its_values_are_lists(tmp_path_factory,
                                                                            values):
    path = tmp_path_factory.mktemp("jsonl") / "t.jsonl"
    path.write_text("".join(json.dumps({"i": i, "v": v}) + "\n" for i, v in enumerate(values)))
    info, cols = read_columns(0, str(path), "jsonl")
    listed = any(isinstance(v, list) for v in values) and all(
        v is None or (isinstance(v, list) and not any(isinstance(e, (list, dict)) for e in v))
        for v in values)
    assert info.lists == (["v"] if listed else [])
    out = long_form_of([(0, cols, None)], 16, 1, 5)
    got = out["values"].to_pandas()
    got = set(got[got["position"] == 1]["token"].dropna())
    if listed:
        texts = [read_table(info, lists=True)["v"].iloc[i] for i in range(len(values))]
        assert got == {t for t in normalize_many(elements(texts)) if t is not None}
        assert got == tokens(["true" if e is True else "false" if e is False else e
                              for e in elements(values)])       # JSON's true, not "True"
    else:
        assert got == {t for t in normalize_many(list(read_table(info)["v"])) if t is not None}


@pytest.mark.spark
def test_a_query_frame_of_list_cells_is_told_to_explode(engine):
    """A query column of lists (pd.read_json(lines=True) of a list field) matched nothing and
    said only that no column shares a value; it now says to search its elements."""
    q = pd.DataFrame({"id": [1, 2], "zones": [["US", "CA"], ["FR"]]})
    with pytest.raises(QueryError, match=r"holds lists.*df\.explode\('zones'\)"):
        engine.search(q, "zones")
    exploded = engine.search(q.explode("zones"), "zones", k=None)
    assert hit_of(exploded, "geo/zone1970").overlap == 3
