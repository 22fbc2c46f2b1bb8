"""The Spark "mate" component against the pure-Python reference builder, and MATE through the
engine against the n-ary oracle: on a small written lake (512-bit super keys) and on the
packaged demo lake (the default 128 bits)."""
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from lakejoin_jupyter.index.mate_arrays import build_reference, load
from lakejoin_jupyter.lake.normalize import normalize_many
from lakejoin_jupyter.lake.read import TableInfo, read_table
from lakejoin_jupyter.search import bruteforce_nary as oracle
from lakejoin_jupyter.xash import XashSpec

from conftest import write_lake

pytestmark = pytest.mark.spark

CITIES = pd.DataFrame({
    "city": ["Springfield", "Springfield", "Portland", "Portland", "Salem", "Salem", None, "-",
             "Springfield"],
    "state": ["IL", "MO", "OR", "ME", "OR", "MA", None, "OR", "IL"],   # last row: a duplicate
    "pop": ["116250", "169176", "652503", "68408", "175535", "44480", None, "1", "116250"],
})
STORES = pd.DataFrame({      # the key in the other column order, formatted differently
    "st": ["il", " MO ", "or", "OR", "ma", "wa"],
    "town": ["springfield", "SPRINGFIELD", "portland", "salem", "salem", "springfield"],
    "store": ["a", "b", "c", "d", "e", "f"],
})
PEOPLE = pd.DataFrame({      # the same value in two columns of a row
    "name": ["Ann", "Bob", "Salem"],
    "home": ["Salem", "Portland", "Salem"],
    "work": ["OR", "OR", "OR"],
})
LAKE = {"cities.csv": CITIES, "stores.parquet": STORES, "people.jsonl": PEOPLE,
        "single.csv": pd.DataFrame({"state": ["OR", "IL"]})}


@pytest.fixture(scope="module")
def mate_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    root = write_lake(tmp_path_factory.mktemp("matelake") / "lake", LAKE)
    out = tmp_path_factory.mktemp("mateidx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False, components=["mate"],
                       mate_bits=512)


def python_tables(index):
    """(table ids, tables as rows of tokens), read and normalized without Spark."""
    ids, tables = [], []
    for _, t in index.tables.sort_values("table_id").iterrows():
        if t["status"] != "indexed":
            continue
        df = read_table(TableInfo.from_json(t["info"]))
        cols = [normalize_many(df[c].tolist()) for c in df.columns]
        ids.append(int(t["table_id"]))
        tables.append([list(r) for r in zip(*cols)])
    return ids, tables


def test_spark_mate_arrays_equal_reference(mate_engine):
    ix = mate_engine.index.generations[0]
    ids, tables = python_tables(ix)
    token_id = {t: i for i, t in enumerate(ix.token_text(range(ix.n_tokens)))}
    ref = build_reference(tables, token_id, ix.n_tokens, XashSpec(512), table_ids=ids)
    ma = load(ix)
    assert ma.spec == XashSpec(512) and ma.superkeys.shape[1] == 8
    assert ma.equals(ref)
    section = ix.manifest["components"]["mate"]
    assert section["xash"]["variant"] == "reference" and section["xash"]["bits"] == 512
    assert section["rows"] == ref.n_rows and section["cells"] == len(ref.row_tokens)


def test_demo_index_mate_equals_reference_and_oracle(demo_engine):
    ix = demo_engine.index.generations[0]
    ids, tables = python_tables(ix)
    token_id = {t: i for i, t in enumerate(ix.token_text(range(ix.n_tokens)))}
    assert load(ix).equals(build_reference(tables, token_id, ix.n_tokens, XashSpec(128), ids))
    res = demo_engine.search("reference/gdp", ["Country Code", "Year"], k=3)
    assert res.method == "mate"
    want = oracle_topk(ix, sorted(set(res.query.rows)), 3, frozenset(res.query.exclude),
                       (ids, tables))
    assert [(h.table_id, h.overlap, h.column_ids) for h in res] == \
        [(w.table_id, w.score, w.mapping) for w in want]
    assert res[0].table == "reference/population" and res[0].overlap > 10000
    assert res[0].mapping == {"Country Code": "Country Code", "Year": "Year"}


def oracle_topk(ix, query_rows, k, exclude=frozenset(), read=None):
    ids, tables = read or python_tables(ix)
    token_id = {t: i for i, t in enumerate(ix.token_text(range(ix.n_tokens)))}
    keys = np.array([[token_id[v] for v in r] for r in query_rows if all(v in token_id for v in r)],
                    dtype=np.int64).reshape(-1, len(query_rows[0]))
    first, mats = 0, []
    for tid, rows in zip(ids, tables):
        mats.append((tid, first, np.array([[token_id.get(v, -1) if v else -1 for v in r]
                                           for r in rows], dtype=np.int64)))
        first += len(rows[0])
    return oracle.topk(oracle.joinability(mats, keys, exclude), k)


def test_engine_multi_column_search_equals_oracle(mate_engine):
    q = pd.DataFrame({"city": ["Springfield", "springfield ", "Salem", "Portland", "Salem", "Nowhere"],
                      "state": ["IL", "MO", "OR", "OR", "OR", "XX"]})
    res = mate_engine.search(q, ["city", "state"], k=10)
    assert res.method == "mate"
    want = oracle_topk(mate_engine.index.generations[0], sorted(set(res.query.rows)), 10)
    assert [(h.table_id, h.overlap, h.column_ids) for h in res] == \
        [(w.table_id, w.score, w.mapping) for w in want]
    by_table = {h.table: h for h in res}
    assert by_table["cities"].overlap == 4 and by_table["cities"].containment == 4 / 5
    assert by_table["cities"].mapping == {"city": "city", "state": "state"}
    assert by_table["stores"].mapping == {"city": "town", "state": "st"}
    assert by_table["stores"].overlap == 4
    # (salem, or) in two rows counts once; "salem" is in two columns of a row: the mapping
    # (home, work) also holds (portland, or), (name, work) only (salem, or)
    assert by_table["people"].overlap == 2
    assert by_table["people"].mapping == {"city": "home", "state": "work"}
    assert "mapping" in res.to_pandas().columns
    assert "city \u2192 town, state \u2192 st" in res._repr_html_()
    assert "5 distinct key tuples" in res._repr_html_()
    assert sorted(by_table["stores"].details["matched_keys"]) == [
        ("portland", "or"), ("salem", "or"), ("springfield", "il"), ("springfield", "mo")]
    # matched / unmatched: the key tuples, as the query wrote them (first occurrence)
    assert by_table["stores"].matches == [("Portland", "OR"), ("Salem", "OR"),
                                          ("Springfield", "IL"), ("springfield ", "MO")]
    assert by_table["stores"].unmatched == [("Nowhere", "XX")]
    assert "(springfield , MO)" in by_table["stores"].card()   # the card shows the tuples
    brute = mate_engine.search(q, ["city", "state"], k=10, method="bruteforce_nary")
    assert [(h.table_id, h.overlap, h.column_ids) for h in brute] == \
        [(h.table_id, h.overlap, h.column_ids) for h in res]
    # and the join figures MATE fills (fan-out, join rows, row coverage), exact alike
    figures = ["key_ratio", "join_rows", "join_rows_exact", "row_coverage", "matches"]
    assert [[getattr(h, f) for f in figures] for h in brute] == \
        [[getattr(h, f) for f in figures] for h in res]
    assert all(h.join_rows is not None and h.key_ratio is not None for h in brute)
    at = mate_engine.search(q, ["city", "state"], k=None, threshold=0.8)   # 4 of 5 tuples
    assert sorted(h.table for h in at) == ["cities", "stores"]
    assert len(mate_engine.search(q, ["city", "state"], k=None, threshold=0.81)) == 0
    top1 = mate_engine.search(q, ["city", "state"], k=1)
    assert [h.overlap for h in top1] == [want[0].score]
    paper = mate_engine.search(q, ["city", "state"], k=10, initial_column="cardinality")
    assert [(h.table_id, h.overlap, h.column_ids) for h in paper] == \
        [(h.table_id, h.overlap, h.column_ids) for h in res]
    scr = mate_engine.search(q, ["city", "state"], k=10, superkey=False)
    assert [(h.table_id, h.overlap) for h in scr] == [(h.table_id, h.overlap) for h in res]
    assert res.stats["pairs_passed"] < scr.stats["pairs_passed"]


def test_lake_table_query_excludes_its_own_columns(mate_engine):
    res = mate_engine.search("cities", ["city", "state"], k=5)
    ix = mate_engine.index
    tid = int(ix.tables.set_index("name").loc["cities", "table_id"])
    own = set(ix.columns[ix.columns["table_id"] == tid]["column_id"])
    assert all(not own & set(h.column_ids) for h in res)
    assert {h.table for h in res} == {"stores", "people"}


def test_bad_options_are_clear(mate_engine):
    from lakejoin_jupyter.errors import QueryError
    q = pd.DataFrame({"city": ["Salem"], "state": ["OR"]})
    with pytest.raises(QueryError, match="initial_column 'town'"):
        mate_engine.search(q, ["city", "state"], initial_column="town")
    with pytest.raises(QueryError, match="Unknown option"):
        mate_engine.search(q, ["city", "state"], tau=0.3)


def test_added_generation_answers_like_one_build(spark, tmp_path, mate_engine):
    """Tables added later (a second generation, its own dictionary and MATE arrays) give
    the answers of one build over all tables; the added part keeps the base's XASH size."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    from lakejoin_jupyter.config import BuildSettings
    first = write_lake(tmp_path / "first", {k: LAKE[k] for k in ("cities.csv", "single.csv")})
    second = write_lake(tmp_path / "second", {k: LAKE[k] for k in ("stores.parquet", "people.jsonl")})
    out = tmp_path / "gen.index"
    build(first, out, spark=spark, progress=False,
          settings=BuildSettings(components=("mate",), mate_bits=512))
    build(second, out, spark=spark, progress=False, add=True)     # asks 128 by default
    gen = open_index(out)
    assert len(gen.index.generations) == 2
    assert [p.components["mate"]["xash"]["bits"] for p in gen.index.generations] == [512, 512]
    q = pd.DataFrame({"city": ["Springfield", "springfield ", "Salem", "Portland", "Salem", "Nowhere"],
                      "state": ["IL", "MO", "OR", "OR", "OR", "XX"]})
    for k in (1, 2, 10):
        one, two = mate_engine.search(q, ["city", "state"], k=k), gen.search(q, ["city", "state"], k=k)
        assert two.method == "mate" and [h.overlap for h in one] == [h.overlap for h in two]
    assert sorted((h.table, h.overlap, tuple(h.mapping.items())) for h in one) == \
        sorted((h.table, h.overlap, tuple(h.mapping.items())) for h in two)
    assert {h.table for h in two} == {"cities", "stores", "people"}


KEY_VALUES = [("Springfield", "IL"), ("springfield", "mo"), ("Salem", "OR"), ("Portland", "OR"),
              ("Salem", "MA"), ("Portland", "ME"), ("Nowhere", "XX"), ("Ann", "OR"), ("il", "wa")]


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(KEY_VALUES), min_size=1, max_size=12))
def test_mate_hits_join_rows_are_exact(mate_engine, keys):
    """Composite keys: MATE's verification counts the lake rows of every matched tuple, so
    join_rows is exact (duplicate lake rows, the same value in two columns, duplicate
    query rows) and equals the real left join; coverage and key ratio equal pandas'."""
    q = pd.DataFrame(keys, columns=["city", "state"])
    res = mate_engine.search(q, ["city", "state"], k=None)
    assert res.method == "mate"
    brute = mate_engine.search(q, ["city", "state"], k=None, method="bruteforce_nary")
    for h in [*res, *brute]:
        joined = h.join(q)
        assert h.join_rows_exact and h.join_rows == len(joined), (h.table, h.mapping)
        lake = mate_engine.table(h.table)
        qk = list(zip(*(normalize_many(q[c].tolist()) for c in ["city", "state"])))
        lk = Counter(zip(*(normalize_many(lake[h.mapping[c]].tolist()) for c in ["city", "state"])))
        matched = [k for k in qk if k in lk]
        assert h.row_coverage == pytest.approx(len(matched) / len(q))
        assert h.key_ratio == pytest.approx(sum(lk[k] for k in set(matched)) / len(set(matched)))
        # matched / unmatched are the key tuples (brute force), agreeing with the overlap
        key_of = dict(zip(map(tuple, q[["city", "state"]].to_numpy().tolist()), qk))
        as_keys = [key_of[t] for t in h.matches]
        assert sorted(as_keys) == sorted(set(matched)) and len(as_keys) == h.overlap
        assert sorted(key_of[t] for t in h.unmatched) == sorted(set(qk) - set(matched))


def test_demo_panel_composite_join_rows_exact(demo_engine):
    gdp = demo_engine.table("reference/gdp")
    res = demo_engine.search(gdp, ["Country Code", "Year"], k=3)
    assert res.method == "mate" and res.hits
    for h in res:
        assert h.join_rows_exact and h.join_rows == len(h.join(gdp)), h.table


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_row_store_and_postings_in_passes_equal_brute_force(tmp_path, data):
    """The driver steps on random row parts: the row store appended front to back and the
    value postings placed in passes over token ranges (passes of 1-7 items, so a token's
    items span parts and a pass's range ends mid-part) equal a brute force."""
    from lakejoin_jupyter.index.store import IndexWriter
    from lakejoin_jupyter.indexing import mate

    import tempfile
    n_tokens = data.draw(st.integers(1, 12))
    scratch = Path(tempfile.mkdtemp(dir=tmp_path))
    rows_dir = scratch / "rows"
    rows_dir.mkdir()
    counts, all_rows = [], []                  # all_rows: (table, row id, [(column, token)])
    for k in range(data.draw(st.integers(1, 4))):
        part = data.draw(st.lists(st.lists(st.tuples(st.integers(0, 5), st.integers(0, n_tokens - 1)),
                                           min_size=1, max_size=5, unique_by=lambda c: c[0]),
                                  max_size=6))
        part = [sorted(cells) for cells in part]
        rows = [(k, i, cells) for i, cells in enumerate(part)]
        cells = [c for _, _, cs in rows for c in cs]
        np.savez(rows_dir / f"part-{k:05d}.npz",
                 row_table=np.array([r[0] for r in rows], np.int32),
                 row_ids=np.array([r[1] for r in rows], np.int64),
                 row_sizes=np.array([len(r[2]) for r in rows], np.int64),
                 row_columns=np.array([c for c, _ in cells], np.int32),
                 row_tokens=np.array([t for _, t in cells], np.int32),
                 superkeys=np.arange(2 * len(rows), dtype=np.uint64).reshape(len(rows), 2))
        counts.append((k, len(rows), len(cells)))
        all_rows += rows
    n_rows, n_cells = len(all_rows), sum(c[2] for c in counts)
    w = IndexWriter(scratch / "x.index")
    try:
        freq = mate._concat_rows(w, rows_dir, counts, n_rows, n_cells, 2, n_tokens)
        mate._postings(w, rows_dir, counts, freq, n_rows,
                       cells_per_pass=data.draw(st.integers(1, 7)))
        got = {name: np.load(w.path(rel)) for name, rel in mate.FILES.items() if name != "token_xash"}
    finally:
        w.abort()
    cells = [(r, c, t) for r, (_, _, cs) in enumerate(all_rows) for c, t in cs]
    assert got["row_table"].tolist() == [r[0] for r in all_rows]
    assert got["row_ids"].tolist() == [r[1] for r in all_rows]
    assert got["superkeys"].shape == (n_rows, 2)
    assert got["row_indptr"].tolist() == np.cumsum([0] + [len(r[2]) for r in all_rows]).tolist()
    assert got["row_tokens"].tolist() == [t for _, _, t in cells]
    assert got["row_columns"].tolist() == [c for _, c, _ in cells]
    for t in range(n_tokens):
        want = sorted((r, c) for r, c, tok in cells if tok == t)
        lo, hi = got["pl_indptr"][t], got["pl_indptr"][t + 1]
        assert list(zip(got["pl_rows"][lo:hi].tolist(), got["pl_columns"][lo:hi].tolist())) == want
