"""Decision-ready hits: what a join will do, said before it runs, equals what pandas does.

* join/preview.py's figures (join_rows, row_coverage, key_ratio) equal a pandas merge on
  random columns with duplicate keys, nulls and normalization collisions (hypothesis, no
  Spark), and the engine's annotations equal ``hit.join(df)`` on a Spark-built random lake;
* the Spark build's join statistics equal their numpy reference;
* rank="useful" puts a key table before a panel table of the same overlap, which
  rank="overlap" ties; the query's own table is marked and last; a joined frame's tables
  are marked as already joined;
* an index of format version 1 opens with a note and estimated figures;
* key kinds: years, small integers, decimals, identifiers, categories, text; integers that repeat but
  make a key with another column of their table, or of the query frame (the same rule on
  both sides), and composite keys unique per row.
"""
import json
import re
import shutil

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from lakejoin_jupyter.errors import QueryError
from lakejoin_jupyter.index.joinstats import reference_stats
from lakejoin_jupyter.join import preview
from lakejoin_jupyter.join.execute import join_pandas
from lakejoin_jupyter.join.plan import make_plan
from lakejoin_jupyter.lake.normalize import normalize_many

from conftest import write_lake

# raw spellings that collide after normalization, numbers in several forms, nulls
SPELLINGS = ["Paris", "paris", " PARIS ", "Lyon", "lyon ", "Nice", "Côte d'Ivoire",
             "CÔTE D'IVOIRE", "7", "007", "7.0", "12", "12.50", "12.5", "x", None, "", "n/a"]


def pandas_truth(query: pd.Series, lake: pd.Series) -> dict:
    """The figures the preview promises, computed by pandas on the real frames."""
    q, lk = query.to_frame("q"), lake.to_frame("l")
    plan = make_plan(["q"], ["q"], ["l"], ["l"], other_label="lake")
    joined = join_pandas(q, lk, plan)
    qk = pd.Series(normalize_many(query.tolist()), dtype=object)
    lkeys = pd.Series(normalize_many(lake.tolist()), dtype=object).dropna()
    matched = qk.isin(set(lkeys)) & qk.notna()
    keys = set(qk[matched])
    return {"join_rows": len(joined), "matched_rows": int(matched.sum()),
            "matched_values": len(keys),
            "key_ratio": (int(lkeys.isin(keys).sum()) / len(keys)) if keys else None}


def preview_of(query: pd.Series, lake: pd.Series):
    """join/preview.py's figures from the index's view: the lake column's token set and
    its stored multiplicities (reference_stats), the query's rows per token."""
    ltok = normalize_many(lake.tolist())
    vocab = sorted({t for t in ltok if t is not None})
    token_id = {t: i for i, t in enumerate(vocab)}
    stats = reference_stats([ltok], token_id).as_joinstats()
    qtok = normalize_many(query.tolist())
    distinct = sorted({t for t in qtok if t is not None})
    rows = np.array([qtok.count(t) for t in distinct], dtype=np.int64)
    ids = np.array([token_id.get(t, -1) for t in distinct], dtype=np.int64)
    qi, qr = preview.sorted_query(ids, rows)
    return preview.single_counts(qi, qr, len(query), np.arange(len(vocab), dtype=np.int32),
                                 *stats.repeated(0))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(SPELLINGS), min_size=1, max_size=40),
       st.lists(st.sampled_from(SPELLINGS), min_size=0, max_size=60))
def test_join_figures_equal_a_pandas_merge(query, lake):
    query, lake = pd.Series(query, dtype=object), pd.Series(lake, dtype=object)
    got, want = preview_of(query, lake), pandas_truth(query, lake)
    assert got.exact
    assert got.join_rows == want["join_rows"]
    assert got.matched_rows == want["matched_rows"]
    assert got.matched_values == want["matched_values"]
    assert got.row_coverage == pytest.approx(want["matched_rows"] / len(query))
    assert got.key_ratio == pytest.approx(want["key_ratio"]) if want["key_ratio"] else \
        got.key_ratio is None


def test_estimate_without_multiplicities_uses_the_mean():
    """Without stored multiplicities a lake value counts the column's mean rows per value."""
    qi, qr = preview.sorted_query(np.array([0, 1, -1]), np.array([2, 1, 4]))
    c = preview.single_counts(qi, qr, 7, np.array([0, 1, 5], dtype=np.int32), None, None,
                              mean_count=3.0)
    assert not c.exact and c.matched_rows == 3 and c.join_rows == 7 + 3 * 2
    assert c.key_ratio == 3.0


@pytest.mark.parametrize("col_type, n, keyed, shape, kind, warns", [
    ("integer", 60, 900, {"n_year": 60, "n_numeric": 60, "num_min": 1960, "num_max": 2023}, "year-like", True),
    ("integer", 12, 400, {"n_year": 0, "n_numeric": 12, "num_min": 1, "num_max": 12}, "number", True),
    ("integer", 2, 2, {"n_year": 0, "n_numeric": 2, "num_min": 200, "num_max": 999}, "identifier", False),
    ("integer", 5, 5, {"n_year": 0, "n_numeric": 5, "num_min": 1, "num_max": 5}, "number", True),
    ("float", 300, 320, {"n_year": 0, "n_numeric": 300, "num_min": 0.1, "num_max": 99.5}, "number", True),
    ("integer", 500, 500, {"n_year": 3, "n_numeric": 500, "num_min": 1001, "num_max": 56045}, "identifier", False),
    ("string", 190, 13000, {"n_year": 0, "n_numeric": 0, "mean_len": 9.0, "mean_words": 1.3}, "identifier", False),
    # a package's section: fewer values than rows per value
    ("string", 58, 63440, {"n_year": 0, "n_numeric": 0, "mean_len": 6.0, "mean_words": 1.0}, "category", True),
    ("string", 8, 8, {"n_year": 0, "n_numeric": 0, "mean_len": 6.0, "mean_words": 1.0}, "identifier", False),
    ("string", 400, 400, {"n_year": 0, "n_numeric": 0, "mean_len": 80.0, "mean_words": 14.0}, "text", False),
    ("date", 365, 365, {"n_year": 0, "n_numeric": 0}, "date", False),
    ("boolean", 2, 300, {"n_year": 0, "n_numeric": 0}, "text", True),
])
def test_key_kinds(col_type, n, keyed, shape, kind, warns):
    full = {"num_min": np.nan, "num_max": np.nan, "mean_len": 5.0, "mean_words": 1.0, **shape}
    got, warning = preview.key_kind(col_type, n, keyed, full)
    assert got == kind and (warning is not None) == warns


def test_usefulness_prefers_coverage_identifiers_and_no_fanout():
    u = preview.usefulness
    assert u(0.8, 1.0, "identifier") > u(0.8, 45.0, "identifier") > 0
    assert u(0.8, 1.0, "identifier") > u(0.8, 1.0, "year-like")
    assert u(0.9, 1.0, "identifier") > u(0.5, 1.0, "identifier")


@pytest.mark.parametrize("tokens,rows,kind", [
    ([str(y) for y in range(1960, 2024)], None, "year-like"),
    ([f"c{i:03d}" for i in range(50)], None, "identifier"),
    ([str(i) for i in range(100, 160)], None, "identifier"),      # unique integers
    (["1", "2", "3", "4"], [10, 10, 10, 10], "number"),           # small integers that repeat
    (["200", "999"], None, "identifier"),      # a few integers, neither repeating nor small
    (["200", "999"], [3, 1], "number"),         # ... repeating
    (["1", "2", "3"], None, "number"),          # a few small integers (ranks?)
    (["0.5", "1.25", "3.75"], None, "number"),
    ([f"the quick brown fox {i} jumps over the lazy dog" for i in range(5)], None, "text"),
    (["admin", "devel", "libs", "net"], [16, 16, 16, 16], "category"),
])
def test_query_kind_reads_the_query_as_a_lake_column(tokens, rows, kind):
    got, warning = preview.query_kind(tokens, None if rows is None else np.array(rows))
    assert got == kind and (warning is not None) == (kind in ("year-like", "number", "category"))


def test_years_joined_to_years_rank_above_a_rarer_coincidence():
    """Hand-checked (newuser16 D11): the query year 2007 matches 9 departure times (HHMM,
    read as a number) and the year column of a panel, 142 rows per year, both on every query
    row. Divided by the fan-out, the times won: 0.2 / (1 + log2 9) = 0.048 against
    0.2 / (1 + log2 142) = 0.0245. Years to years are not divided: 0.2."""
    u = preview.usefulness
    times = u(1.0, 9.0, "number", "year-like")
    years = u(1.0, 142.0, "year-like", "year-like")
    assert times == pytest.approx(0.2 / (1 + np.log2(9))) and years == pytest.approx(0.2)
    assert years > times
    assert u(0.5, 142.0, "year-like", "year-like") == pytest.approx(0.1)   # coverage still counts
    # a year-like lake column of a query of another kind keeps the division
    assert u(1.0, 4.0, "year-like", "number") == pytest.approx(0.2 / 3)


def test_usefulness_takes_the_weaker_side_of_the_key():
    """A year-valued query matching a few values of a count column is a coincidence even
    though the lake side alone looks like a number (weight 0.3 > year-like 0.2): the
    weaker kind of the two sides weighs the score, so the full year column ranks first."""
    u = preview.usefulness
    counts, years = (0.08, 1.0, "number"), (1.0, 265.0, "year-like")
    assert u(*counts) > u(*years)                                  # the lake side alone
    assert u(*counts, "year-like") < u(*years, "year-like")
    assert u(0.8, 1.0, "identifier", "identifier") == u(0.8, 1.0, "identifier")
    assert u(0.8, 1.0, "identifier", "year-like") == u(0.8, 1.0, "year-like")


# ----------------------------------------------------------------------- Spark-built lake

COUNTRIES = [f"Country {i}" for i in range(30)]


def _random_tables(seed: int = 5) -> dict:
    rng = np.random.default_rng(seed)
    tables = {}
    for t in range(6):
        n = int(rng.integers(5, 120))
        tables[f"rand/t{t}.csv"] = pd.DataFrame({
            "k": rng.choice(SPELLINGS[:-3] + ["", "n/a"], n),
            "v": rng.integers(0, 5, n).astype(str),
            "w": rng.choice(["a", "b", "Paris", "7"], n)})
    years = list(range(2000, 2010))
    tables["rank/key_table.csv"] = pd.DataFrame({
        "country": COUNTRIES[:20], "capital": [f"Capital {i}" for i in range(20)]})
    tables["rank/by_year.csv"] = pd.DataFrame({             # a panel table: country x year
        "country": [c for c in COUNTRIES[:20] for _ in years],
        "year": [y for _ in COUNTRIES[:20] for y in years],
        "value": [float(i) for i in range(20 * len(years))]})
    tables["rank/key_sibling.csv"] = pd.DataFrame({         # the key table's header, other rows
        "country": COUNTRIES[:4], "capital": [f"Capital {i}" for i in range(4)]})
    return tables


@pytest.fixture(scope="module")
def random_lake(spark, tmp_path_factory):
    from lakejoin_jupyter.indexing.pipeline import build
    from lakejoin_jupyter import open_index
    root = write_lake(tmp_path_factory.mktemp("hits-lake") / "lake", _random_tables())
    out = root.parent / "lake.index"
    build(root, out, spark=spark, progress=False)
    return root, open_index(out)


@pytest.mark.spark
def test_spark_join_statistics_equal_the_reference(random_lake):
    from lakejoin_jupyter.lake.read import TableInfo, read_table
    _, engine = random_lake
    gen = engine.index.generations[0]
    columns = []
    for _, t in gen.tables.sort_values("table_id").iterrows():
        df = read_table(TableInfo.from_json(t["info"]))
        columns += [normalize_many(df[c].tolist()) for c in df.columns]
    token_id = {t: i for i, t in enumerate(gen.token_text(range(gen.n_tokens)))}
    ref = reference_stats(columns, token_id)
    stats = gen.joinstats
    for name in ("dup_indptr", "dup_tokens", "dup_counts"):
        assert np.array_equal(getattr(stats, name), getattr(ref, name)), name
    want = ref.as_joinstats().shapes
    for f, arr in stats.shapes.items():
        np.testing.assert_allclose(arr, want[f], equal_nan=True, err_msg=f)


@pytest.mark.spark
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(SPELLINGS), min_size=1, max_size=30))
def test_engine_annotations_equal_the_join(random_lake, values):
    _, engine = random_lake
    df = pd.DataFrame({"key": values, "n": range(len(values))})
    if all(t is None for t in normalize_many(values)):
        return
    for h in engine.search(df, "key", k=None):
        joined = h.join(df)
        assert h.join_rows_exact and h.join_rows == len(joined), (h.table, h.column)
        lake = engine.table(h.table)[h.column]
        want = pandas_truth(df["key"], lake)
        assert h.row_coverage == pytest.approx(want["matched_rows"] / len(df))
        assert h.key_ratio == pytest.approx(want["key_ratio"])
        assert h.lake_rows == len(engine.table(h.table))


@pytest.mark.spark
def test_useful_ranks_the_key_table_before_the_panel_table(random_lake):
    _, engine = random_lake
    df = pd.DataFrame({"country": COUNTRIES[10:30]})        # 10 of them in both tables
    by_overlap = engine.search(df, "country", k=2, rank="overlap")
    assert {h.table for h in by_overlap} == {"rank/key_table", "rank/by_year"}
    assert by_overlap[0].overlap == by_overlap[1].overlap == 10
    assert by_overlap[0].score == by_overlap[1].score       # tied: the papers' ranking,
    assert by_overlap[0].table == "rank/by_year"            # the tie broken by column id
    useful = engine.search(df, "country", k=2, rank="useful")
    assert [h.table for h in useful] == ["rank/key_table", "rank/by_year"]
    key, panel = useful
    assert key.key_ratio == 1.0 and panel.key_ratio == 10.0
    assert key.join_rows == 20 and panel.join_rows == 10 + 10 * 10
    assert panel.multiplies_rows and not key.multiplies_rows
    assert useful.rank == "useful" and "multiply" in useful._repr_html_()
    card = panel.card()                                    # the hit card says it before the join
    assert "20 &rarr; 110 rows" in card and "&times;10 lake rows per key" in card
    assert "aggregate=&quot;latest&quot;" in card          # it has a year column
    # a CSV's column joins as text: the card says so, with what its values are
    assert ">year</td><td style='overflow-wrap:normal'>string (integer values)</td>" in card and "matched (10):" in card
    card = key.card()
    assert "keeps the query's 20 rows" in card and "&rarr;" not in card
    assert ">capital</td>" in card and "not matched (10):" in card
    assert key._repr_html_() == card


@pytest.mark.spark
def test_panel_table_joins_aggregated_per_key(random_lake):
    _, engine = random_lake
    df = pd.DataFrame({"country": COUNTRIES[10:30]})
    panel = next(h for h in engine.search(df, "country", k=None) if h.table == "rank/by_year")
    # every column the join adds, the table's key column too (renamed: the query has one)
    assert [a.name for a in panel.added_columns] == ["country_by_year", "year", "value"]
    joined = panel.join(df)
    assert [c for c in joined.columns if c not in df.columns] == \
        [a.name for a in panel.added_columns]
    assert panel.to_dict()["added_columns"] == len(panel.added_columns)
    latest = panel.join(df, aggregate="latest")            # order_by: the year-like column
    assert len(latest) == len(df)
    assert latest["year"].tolist()[:10] == ["2009"] * 10 and latest["year"][10:].isna().all()
    assert latest["by_year_rows"].tolist()[:10] == [10.0] * 10
    mean = panel.join(df, aggregate="mean")
    assert list(mean.columns) == ["country", "value", "by_year_rows"]   # years are no measure
    assert mean["value"][0] == pytest.approx(np.mean([100.0 + i for i in range(10)]))
    key = next(h for h in engine.search(df, "country", k=None) if h.table == "rank/key_table")
    with pytest.raises(QueryError, match="no date or year column"):
        key.join(df, aggregate="latest")


@pytest.mark.spark
def test_latest_reads_dates_written_as_text(spark, tmp_path):
    """A changelog's RFC 2822 dates are text to the profile; "latest" still finds them (its
    order reads them as dates) and takes each package's newest entry, as sorting by hand."""
    from lakejoin_jupyter.indexing.pipeline import build
    from lakejoin_jupyter import open_index
    import email.utils
    rng = np.random.default_rng(3)
    rows = []
    for p in range(12):
        for d in rng.choice(3000, size=3, replace=False):
            when = pd.Timestamp("2015-01-01", tz="UTC") + pd.Timedelta(days=int(d), hours=int(p))
            rows.append({"package": f"pkg{p}", "version": f"1.{d}",
                         "date": email.utils.format_datetime(when.to_pydatetime())})
    log = pd.DataFrame(rows)
    root = write_lake(tmp_path / "lake", {"changelog.csv": log})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    df = pd.DataFrame({"package": [f"pkg{p}" for p in range(0, 12, 2)]})
    hit = engine.search(df, "package", k=1)[0]
    latest = hit.join(df, aggregate="latest")
    when = log["date"].map(email.utils.parsedate_to_datetime)
    want = log.loc[when.groupby(log["package"]).idxmax()].set_index("package")["version"]
    assert latest["version"].tolist() == [want[p] for p in df["package"]]


@pytest.mark.spark
def test_own_table_is_marked_and_last_and_joined_tables_are_marked(random_lake):
    root, engine = random_lake
    own = pd.read_csv(root / "rank" / "key_table.csv")       # read by hand: no attrs
    res = engine.search(own, "country", k=None, rank="useful")
    assert res[-1].table == "rank/key_table" and res[-1].is_query_table
    assert not any(h.is_query_table for h in res[:-1])
    assert any(h.table == "rank/key_sibling" for h in res)    # same header, not the same table
    assert all(h.table != "rank/key_table"
               for h in engine.search(own, "country", k=None, include_own=False))
    panel = next(h for h in res if h.table == "rank/by_year")
    joined = panel.join(own, aggregate="latest")
    assert joined.attrs["lakejoin_chain"] == ["rank/key_table", "rank/by_year"]
    again = engine.search(joined, "country", k=None, rank="useful")
    marks = {h.table: (h.is_query_table, h.in_chain) for h in again}
    assert marks["rank/by_year"] == (False, True) and marks["rank/key_table"] == (False, True)
    assert all(h.in_chain for h in again[-2:])
    # a table recognised from one column is the own table in every column: rand/t0's "w"
    # shares values with its "k", and is no join partner of a frame read from rand/t0
    t0 = pd.read_csv(root / "rand" / "t0.csv", dtype=str)
    res = engine.search(t0, "k", k=None, rank="useful")
    mine = [h for h in res if h.table == "rand/t0"]
    assert {h.columns for h in mine} >= {("k",), ("w",)}
    assert all(h.is_query_table for h in mine)
    assert [h.table for h in res[-len(mine):]] == ["rand/t0"] * len(mine), [
        (h.table, h.columns, h.is_query_table, h.in_chain, h.usefulness) for h in res]
    assert not any(h.is_query_table for h in res if h.table != "rand/t0")


@pytest.mark.spark
def test_own_table_is_recognised_by_a_multi_column_search_too(spark, tmp_path):
    """A frame read from a lake table is its own table for MATE as for one column, also
    when a key column has nulls (its key tuples are then fewer than its first values)."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    countries = pd.DataFrame({"iso2": COUNTRIES[:20],
                              "zone": [f"Zone/{i}" if i % 7 else "" for i in range(20)],
                              "n": [str(i) for i in range(20)]})
    other = countries.head(12).assign(n="x")             # a partner: fewer rows
    root = write_lake(tmp_path / "lake", {"geo/countries.csv": countries,
                                          "geo/partner.csv": other})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    own = pd.read_csv(root / "geo" / "countries.csv", dtype=str)     # read by hand: no attrs
    for cols in (["iso2"], ["iso2", "zone"]):
        res = engine.search(own, cols, k=None)
        marks = {h.table: h.is_query_table for h in res}
        assert marks == {"geo/countries": True, "geo/partner": False}, (cols, marks)


@pytest.mark.spark
def test_own_table_is_recognised_with_a_column_dropped_or_reordered(spark, tmp_path):
    """A frame of some of a lake table's columns (``df[[...]]``), in any order, is its own
    table ("(your table)", listed last): its other columns' values are the table's. A
    table with the key's values and a column of the same name holding other values is
    not; a frame of its key column only is, when no other table's column of that name
    holds its values, and is neither table's when two do. Of fewer rows, a frame of its
    key column(s) only is not (it may be the user's own list of keys), one with another of
    its columns is."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    codes = [f"C{i:02d}" for i in range(20)]
    countries = pd.DataFrame({"code": codes, "name": [f"Land {i}" for i in range(20)],
                              "region": [f"R{i % 4}" for i in range(20)]})
    partner = pd.DataFrame({"code": codes, "name": [f"Capital {i}" for i in range(20)],
                            "founded": [str(1800 + i) for i in range(20)]})
    ports = pd.DataFrame({"port": [str(p) for p in range(7, 37)],
                          "proto": ["tcp", "udp"] * 15,
                          "service": [f"svc{p}" for p in range(30)]})
    root = write_lake(tmp_path / "lake", {"geo/countries.csv": countries,
                                          "geo/partner.csv": partner,
                                          "net/ports.csv": ports})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    own = pd.read_csv(root / "geo" / "countries.csv", dtype=str)     # read by hand: no attrs

    def marks(df, cols):
        res = engine.search(df, cols, k=None, rank="useful")
        mine = [h.table for h in res if h.is_query_table]
        assert all(h.is_query_table for h in res[len(res) - len(mine):]), [
            (h.table, h.is_query_table) for h in res]              # listed last
        return {h.table: h.is_query_table for h in res}

    for frame in (own[["code", "name"]], own[["name", "code"]], own[["region", "code"]],
                  own[["region", "name", "code"]]):
        assert marks(frame, "code") == {"geo/countries": True, "geo/partner": False}, \
            list(frame.columns)
    # a frame with a value the table's column lacks is not read from it
    other = own[["code", "name"]].assign(name=[f"Land {i + 1}" for i in range(20)])
    assert marks(other, "code") == {"geo/countries": False, "geo/partner": False}
    # key column only: two tables could be its table, so neither is marked
    assert marks(own[["code"]], "code") == {"geo/countries": False, "geo/partner": False}
    svc = pd.read_csv(root / "net" / "ports.csv", dtype=str)
    for cols in (["port"], ["port", "proto"]):
        assert marks(svc[["service", "proto", "port"]], cols) == {"net/ports": True}
        assert marks(svc[cols], cols) == {"net/ports": True}         # key column(s) only
        assert marks(svc[cols].head(12), cols) == {"net/ports": False}   # fewer rows
    # fewer rows with a column besides the key: the values of that column are its rows
    assert marks(svc[["port", "proto"]].head(12), ["port"]) == {"net/ports": True}


def _without(engine, tmp_path, components):
    """A copy of the index as a build without ``components`` leaves it."""
    from lakejoin_jupyter import open_index
    old = tmp_path / "old.index"
    shutil.copytree(engine.index.path, old)
    m = json.loads((old / "manifest.json").read_text())
    for c in components:
        shutil.rmtree(old / c)
        m["components"].pop(c)
        m["files"] = {k: v for k, v in m["files"].items() if not k.startswith(c + "/")}
    (old / "manifest.json").write_text(json.dumps(m))
    return open_index(old)


@pytest.mark.spark
def test_index_without_joinstats_or_mate_opens_with_a_note_and_estimates(random_lake, tmp_path):
    _, engine = random_lake
    res = _without(engine, tmp_path, ["joinstats", "mate"]).search(
        pd.DataFrame({"country": COUNTRIES[10:30]}), "country", k=None)
    assert any("Rebuild to get join estimates" in n and "--add joinstats" in n for n in res.notes)
    panel = next(h for h in res if h.table == "rank/by_year")
    assert panel.join_rows_exact is False and panel.join_rows == 110   # the mean is exact here
    assert panel.key_kind == "identifier"


@pytest.mark.spark
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(SPELLINGS + COUNTRIES[:12]), min_size=1, max_size=30))
def test_without_joinstats_mate_postings_give_exact_join_rows(random_lake, tmp_path_factory,
                                                              values):
    """An index without join statistics but with MATE counts every matched value's lake
    rows in MATE's value postings: exact join rows, equal to the real join."""
    _, engine = random_lake
    if "no_stats" not in _CACHE:
        _CACHE["no_stats"] = _without(engine, tmp_path_factory.mktemp("nostats"), ["joinstats"])
    old = _CACHE["no_stats"]
    assert old.index.notes and "counted from its MATE index" in old.index.notes[0]
    df = pd.DataFrame({"key": values})
    if all(t is None for t in normalize_many(values)):
        return
    for h in old.search(df, "key", k=None):
        want = pandas_truth(df["key"], old.table(h.table)[h.column])
        assert h.join_rows_exact and h.join_rows == want["join_rows"] == len(h.join(df))
        assert h.key_ratio == pytest.approx(want["key_ratio"])


_CACHE: dict = {}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.sampled_from(["tcp", "udp", "ddp", None]),
                          st.integers(0, 3)), min_size=1, max_size=25))
def test_key_partners_are_the_columns_that_make_a_key_with_the_column(rows):
    """MATE's rows give a column's key partners: the columns whose values tell apart the
    rows of each repeated value of it, as pandas says of the table's rows; with a chance
    bound, only those that would do it by chance at most that often."""
    from lakejoin_jupyter.index.mate_arrays import build_reference
    table = [[str(p), t, f"v{v}"] for p, t, v in rows]
    vocab = sorted({c for r in table for c in r if c is not None})
    token_id = {t: i for i, t in enumerate(vocab)}
    ma = build_reference([table], token_id, len(vocab))
    df = pd.DataFrame(table, columns=["port", "proto", "v"])
    counts = df["port"].value_counts()
    repeated = [token_id[p] for p in counts.index[counts > 1]]
    rep_rows = df[df["port"].isin(counts.index[counts > 1])]
    want = [j for j, c in ((1, "proto"), (2, "v"))
            if len(repeated) and rep_rows[c].notna().all()
            and not rep_rows.duplicated(["port", c]).any()]
    assert ma.key_partners(0, 0, [1, 2]) == want
    pairs = sum(n * (n - 1) / 2 for n in counts)
    def collision(c):
        held = df[c].dropna().value_counts()
        return float((held ** 2).sum() / held.sum() ** 2)
    likely = [j for j in want if pairs * collision(df.columns[j]) >= -np.log(0.01)]
    assert ma.key_partners(0, 0, [1, 2], chance=0.01) == likely


@pytest.mark.spark
def test_port_numbers_have_one_kind_whichever_table_holds_them(spark, tmp_path):
    """The same port numbers are an identifier in every table: nearly unique (svc), or
    repeated once per protocol, a key with it (registry, its Parquet and CSV copies), so
    rank="useful" puts the hit that covers the most rows first; a key of two columns with
    one lake row per tuple has no "coincidental" warning. Counts that repeat, or a rank
    per group (a key with its group, but a few small integers), stay measures."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    ports = list(range(1000, 1060))
    registry = pd.DataFrame({"portnum": ports + ports[:30],
                             "transport": ["tcp"] * 60 + ["udp"] * 30,
                             "desc": [f"service {i}" for i in range(90)]})
    svc = pd.DataFrame({"Port Number": list(range(1040, 1100)) + list(range(1040, 1045)),
                        "Transport": ["tcp"] * 60 + ["udp"] * 5})
    stats = pd.DataFrame({"group": [g for g in "abc" for _ in range(10)],
                          "rank": list(range(1, 11)) * 3,
                          "hits": [1000 + i % 7 for i in range(30)],
                          "kind": [f"k{i % 3}" for i in range(30)]})
    root = write_lake(tmp_path / "lake", {"net/registry.parquet": registry,
                                          "net/registry_copy.csv": registry,
                                          "net/svc.tsv": svc, "net/stats.csv": stats})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    query = pd.DataFrame({"port": ports, "proto": "tcp"})
    res = engine.search(query, "port", k=None, rank="useful")
    kinds = {h.table: (h.key_kind, h.key_warning) for h in res}
    assert kinds["net/registry"] == kinds["net/registry_copy"] == kinds["net/svc"] \
        == ("identifier", None), kinds
    assert [h.table for h in res][:2] in (["net/registry", "net/registry_copy"],
                                          ["net/registry_copy", "net/registry"])
    for h in engine.search(query, ["port", "proto"], k=None, rank="useful"):
        assert h.key_ratio == 1.0 and (h.key_kind, h.key_warning) == ("identifier", None), h
    cat = engine.index.columns
    for name in ("rank", "hits"):
        cid = int(cat.loc[cat["name"] == name, "column_id"].iloc[0])
        assert engine.column_kind(cid)[0] == "number", name


@pytest.mark.spark
def test_a_panel_of_ids_per_date_is_keyed_by_identifiers(spark, tmp_path):
    """A panel keyed by 7-digit ids, each on six dates written day-first (newuser19 D8:
    GeoNames ids read as "integers that repeat ... likely coincidental"): (id, date) names
    one row and the date column is the panel's period, so the ids are an identifier without
    a warning, as the same ids in a table of one row each; the panel's measure (an index
    value that repeats across dates and ids) stays a number, and so do ids whose (id, date)
    repeats (no key)."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    rng = np.random.default_rng(8)
    ids = sorted(int(i) for i in rng.choice(np.arange(4_000_000, 5_900_000), 40, replace=False))
    dates = [f"15/{m:02d}/2025" for m in range(1, 7)]
    panel = pd.DataFrame({"geonameid": [i for i in ids for _ in dates],
                          "date": dates * len(ids),
                          "aqi": rng.integers(12, 150, 6 * len(ids))})
    doubled = panel.assign(date=[dates[k % 3] for k in range(len(panel))])
    root = write_lake(tmp_path / "lake", {"env/air_quality.csv": panel,
                                          "env/doubled.csv": doubled})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    query = pd.DataFrame({"city": [f"City{i}" for i in range(50)],
                          "geonameid": ids[:34] + list(range(6_000_000, 6_000_016))})
    kinds = {h.table: (h.key_kind, h.key_warning, h.key_ratio)
             for h in engine.search(query, "geonameid", k=None, rank="useful")}
    assert kinds["env/air_quality"] == ("identifier", None, 6.0), kinds
    assert kinds["env/doubled"][0] == "number" and "repeat" in kinds["env/doubled"][1]
    cat = engine.index.columns
    aqi = int(cat.loc[cat["name"] == "aqi", "column_id"].iloc[0])
    assert engine.column_kind(aqi)[0] == "number"
    # the panel as the query frame (text dates): its ids read alike, no "repeat" note
    res = engine.search(panel.head(120), "geonameid", k=None, include_own=False)
    assert not any("repeat" in n for n in res.notes), res.notes
    res = engine.search(doubled.head(120), "geonameid", k=None, include_own=False)
    assert any("repeat" in n for n in res.notes), res.notes
    # the dates typed by pd.to_datetime are the same period (fixnu19c's note: a datetime64
    # column was no category of the frame, and the ids read as "integers that repeat")
    for frame, repeat in ((panel, False), (doubled, True)):
        typed = frame.head(120).assign(date=pd.to_datetime(frame.date.head(120),
                                                           format="%d/%m/%Y"))
        res = engine.search(typed, "geonameid", k=None, include_own=False)
        assert any("repeat" in n for n in res.notes) == repeat, res.notes


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([5000 + i for i in range(8)] + ["5000", None]),
                          st.sampled_from(["tcp", "udp", "TCP", "quic", None]),
                          st.sampled_from(["a", "b", "c", "d", "e", 1, True, "1"]),
                          st.integers(0, 3)), min_size=30, max_size=60),
       st.sampled_from([None, "proto", "tag"]))
def test_query_frame_partners_follow_the_lake_rule(rows, unique):
    """A query frame's category columns that make a key with its integer column are the
    ones pandas says tell apart the rows of each repeated value (on normalized values),
    that are categories (text, not nearly unique, no more distinct values than the
    column) and that would not do it by chance, as MATE's rule says of a lake table; cells
    of mixed types (1, True, "1") are told apart as their tokens are."""
    from lakejoin_jupyter.engine import KEY_PARTNER_CHANCE, frame_partners
    df = pd.DataFrame(rows, columns=["port", "proto", "tag", "n"])
    if unique:          # keep one row per (port, column) pair: the column may be a partner
        df = df[~pd.DataFrame({c: normalize_many(df[c].tolist()) for c in ("port", unique)})
                .duplicated().to_numpy()].reset_index(drop=True)
    toks = normalize_many(df["port"].tolist())
    present = [t for t in toks if t is not None]
    if not present:
        return
    per = pd.Series(present).value_counts().sort_index()
    got = frame_partners(df, "port", toks, list(per.index), per.to_numpy())
    norm = pd.DataFrame({c: normalize_many(df[c].tolist()) for c in df.columns})
    keyed = norm[norm["port"].notna()]
    counts = keyed["port"].value_counts()
    rep = keyed[keyed["port"].isin(counts.index[counts > 1])]
    pairs = sum(n * (n - 1) / 2 for n in counts)

    def partner(c):
        held = norm[c].dropna().value_counts()
        n = len(held)
        if df[c].dtype != object or not 0 < n < 0.9 * held.sum() or n > len(counts):
            return False
        ints = sum(1 for t in held.index if t.isdigit())
        bools = sum(1 for t in held.index if t in ("true", "false", "t", "f", "y", "n"))
        if max(ints, bools) >= 0.9 * n:         # the profile's integer or boolean: no category
            return False
        if not len(rep) or rep[c].isna().any() or rep.duplicated(["port", c]).any():
            return False
        return pairs * float((held ** 2).sum() / held.sum() ** 2) >= -np.log(KEY_PARTNER_CHANCE)
    assert list(got) == [c for c in ("proto", "tag") if partner(c)]


@pytest.mark.spark
def test_query_ports_repeating_per_protocol_are_an_identifier(spark, tmp_path):
    """The query column's kind follows the lake's pairing rule, on the query frame: ports
    that repeat once per protocol, a key with it, are an identifier (no "coincidental"
    warning), the same kind as the lake gives the same table. So rank="useful" puts the
    port registry (80 % of the rows) before a count column that shares every value by
    coincidence; a frame whose protocol does not tell its rows apart keeps the warning."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    ports = list(range(5000, 5050))
    services = pd.DataFrame({"port": ports[:40] * 2, "proto": ["tcp"] * 40 + ["udp"] * 40,
                             "service": [f"svc{i}" for i in range(80)]})
    visits = pd.DataFrame({"visitors": ports * 2,
                           "day": [f"2024-01-{1 + i % 28:02d}" for i in range(100)]})
    root = write_lake(tmp_path / "lake", {"net/services.csv": services,
                                          "web/visits.csv": visits})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    query = pd.DataFrame({"port": ports * 2, "proto": ["tcp"] * 50 + ["udp"] * 50})
    res = engine.search(query, "port", k=None, rank="useful")
    assert [h.table for h in res] == ["net/services", "web/visits"], res
    assert not any("the query column" in n for n in res.notes), res.notes
    first, second = res
    assert (first.key_kind, first.key_warning) == ("identifier", None)
    assert second.key_kind == "number" and first.usefulness > second.usefulness
    # the same table as the lake's column and as a query frame: the same kind
    cat = engine.index.columns
    cid = int(cat.loc[cat["name"] == "port", "column_id"].iloc[0])
    own = engine.search(engine.table("net/services"), "port", k=None)
    assert engine._query_kind(own.query) == engine.column_kind(cid) == ("identifier", None)
    named = engine.search("net/services", "port", k=None)       # the lake column itself
    assert engine._query_kind(named.query) == ("identifier", None)
    assert not any("the query column" in n for n in named.notes), named.notes
    # a protocol that does not tell the rows apart (each port twice under tcp): a measure
    twice = pd.DataFrame({"port": ports * 2, "proto": ["tcp"] * 100})
    res = engine.search(twice, "port", k=None, rank="useful")
    assert any("the query column holds integers that repeat" in n for n in res.notes)


def test_tokens_type_is_the_profile_type():
    """The type a query frame's candidate category gets (``tokens_type``) is the one the
    build's profile gives a lake column of the same distinct tokens."""
    import pyarrow as pa
    from lakejoin_jupyter.indexing.profile import ColumnBatch, profile_columns, tokens_type
    columns = [["tcp", "udp"], ["1", "2", "3"], ["1", "2.5"], ["2024-01-02", "03/04/2020"],
               ["true", "no"], ["tcp", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
               [str(i) for i in range(10)] + ["x"], ["1e5", "-.5", "7"], ["t", "f", "tcp"]]
    vocab = sorted({t for c in columns for t in c})
    where = {t: i for i, t in enumerate(vocab)}
    pairs = sorted((c, where[t]) for c, toks in enumerate(columns) for t in toks)
    pair_col = np.array([c for c, _ in pairs])
    raw = [(c, t) for c, toks in enumerate(columns) for t in toks]
    batch = ColumnBatch(
        n_columns=len(columns), raw_col=np.array([c for c, _ in raw]),
        raw_text=pa.array([t for _, t in raw]), raw_n=np.ones(len(raw), dtype=np.int64),
        raw_tok=np.array([where[t] for _, t in raw]), tokens=pa.array(vocab),
        pair_col=pair_col, pair_tok=np.array([t for _, t in pairs]),
        pair_ptr=np.searchsorted(pair_col, np.arange(len(columns) + 1)),
        n_values=np.array([len(c) for c in columns]))
    assert [tokens_type(c) for c in columns] == list(profile_columns(batch)["type"])


@pytest.mark.spark
def test_the_no_joinstats_note_names_the_real_lake_and_index_quoted(demo_engine, tmp_path):
    """New-user report: the note of an index without join statistics told the user to run
    `lakejoin index LAKE --out <path> --overwrite`, with a placeholder for the lake and
    the index path unquoted (a path with a space broke the command). Every command in it
    names the lake folder the index was built from and the index, quoted for a shell; so
    does the refusal of an index of another format version."""
    import shlex
    from lakejoin_jupyter.errors import IndexVersionError
    from lakejoin_jupyter.index.store import read_manifest
    folder = tmp_path / "my index's folder"
    folder.mkdir()
    for components in (["joinstats", "mate"], ["joinstats"]):
        old = _without(demo_engine, folder, components)
        notes = " ".join(old.index.notes)
        lake = demo_engine.index.manifest["lake"]["root"]
        quoted = shlex.quote(str(old.index.path))
        assert "LAKE" not in notes and "INDEX" not in notes, notes
        assert f"`lakejoin index --add joinstats {quoted}`" in notes, notes
        assert f"lakejoin index {shlex.quote(str(lake))} --out {quoted} " in notes, notes
        commands = re.findall(r"`(lakejoin [^`]*)`", notes)
        assert len(commands) == 2 and all(shlex.split(c)[-1] == str(old.index.path)
                                          or str(old.index.path) in shlex.split(c)
                                          for c in commands), commands
        shutil.rmtree(old.index.path)
    old = _without(demo_engine, folder, [])
    m = json.loads((old.index.path / "manifest.json").read_text())
    m["format_version"] = 999
    (old.index.path / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(IndexVersionError) as e:
        read_manifest(old.index.path)
    assert "LAKE" not in str(e.value) and f"--out {quoted} " in str(e.value), str(e.value)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", None]),
                          st.sampled_from(["x", "y", None]), st.integers(0, 3)),
                min_size=1, max_size=25), st.sampled_from([[0, 1], [1, 2], [0, 1, 2]]))
def test_tuple_profile_is_the_distinct_tuples_pandas_counts(rows, columns):
    """MATE's row store gives a composite key's distinct tuples and the rows holding one
    (a value in each of its columns), as pandas counts them."""
    from lakejoin_jupyter.index.mate_arrays import build_reference
    table = [[a, b, f"v{v}"] for a, b, v in rows]
    vocab = sorted({c for r in table for c in r if c is not None})
    token_id = {t: i for i, t in enumerate(vocab)}
    ma = build_reference([table], token_id, len(vocab))
    keyed = pd.DataFrame(table).iloc[:, columns].dropna()
    assert ma.tuple_profile(0, columns) == (len(keyed.drop_duplicates()), len(keyed))


@pytest.mark.parametrize("n, keyed, kind, warns", [
    (2900, 3376, "identifier", None), (9, 200, "category", "9 tuples, 22 rows per tuple"),
    (9, 80, "identifier", None), (2, 50, "text", "only 2 distinct tuple"),
    (0, 0, "text", "no row with a value in each")])
def test_tuple_kinds(n, keyed, kind, warns):
    got, warning = preview.tuple_kind(n, keyed)
    assert got == kind and (warning is None if warns is None else warns in warning)


@pytest.mark.spark
def test_composite_key_has_the_kind_of_its_tuples_not_of_a_column(spark, tmp_path):
    """A (city, state) key: `state` alone is a category (4 values, 60 rows each), but the
    tuples name rows (56 tuples for 60 rows, a few cities with two airports): the hit has
    no warning, and a fan-out above 1 shows as a repeated identifier. A (region, channel)
    key whose 4 tuples each cover 25 of 100 rows is a category with the tuples' figures
    (hand-counted), not those of either column."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.engine import key_kind_label
    from lakejoin_jupyter.indexing.pipeline import build
    states = ["WA", "OR", "ME", "GA"]
    cities = [f"City{i}" for i in range(56)]
    airports = pd.DataFrame({"city": cities + cities[:4],
                             "state": [states[i % 4] for i in range(56)] + states,
                             "iata": [f"A{i:02d}" for i in range(60)]})
    sales = pd.DataFrame({"region": [r for r in ("north", "south") for _ in range(50)],
                          "channel": ["web", "shop"] * 50, "amount": range(100)})
    root = write_lake(tmp_path / "lake", {"travel/airports.csv": airports,
                                          "biz/sales.csv": sales})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    stores = pd.DataFrame({"city": ["City0", "City5", "Nowhere"], "state": ["WA", "OR", "ZZ"]})
    hit, = engine.search(stores, ["city", "state"], k=None)
    cat = engine.index.columns
    state_id = int(cat.loc[cat["name"] == "state", "column_id"].iloc[0])
    assert engine.column_kind(state_id)[0] == "category"        # the column alone
    assert (hit.key_kind, hit.key_warning) == ("identifier", None), hit
    assert hit.key_ratio == pytest.approx(1.5) and key_kind_label(hit) == "repeated identifier"
    query = pd.DataFrame({"region": ["north", "south"], "channel": ["web", "web"]})
    hit, = engine.search(query, ["region", "channel"], k=None)
    assert hit.key_kind == "category"
    assert "(4 tuples, 25 rows per tuple)" in hit.key_warning, hit.key_warning


@settings(max_examples=100, deadline=None)
@given(st.sets(st.integers(1000, 9999), min_size=20, max_size=300),
       st.lists(st.sampled_from(["bbbb", "n/a", "unknown", "x"]), max_size=3, unique=True),
       st.integers(2, 6))
def test_distinct_fixed_width_codes_read_as_identifiers_and_repeating_counts_warn(
        codes, stray, repeats):
    """newuser22 D3: FiveThirtyEight's majors-list FOD1P, 174 distinct 4-digit codes and one
    stray text ("bbbb "), was read as "integers that repeat (counts, ranks or amounts?)"
    while its join is right: one text made it no integer column (the query's rule asked for
    all values integers, the profile's for 90 %), and a numeric column that is no unique
    integer one fell to the "repeat" warning. Codes with a few stray texts (under 10 %) read
    as the profile reads them; the same values on several rows each still warn, and a
    column of small repeating counts too."""
    tokens = [str(c) for c in sorted(codes)] + stray
    if len(stray) >= 0.1 * len(tokens):
        tokens = tokens[:len(codes)]
    assert preview.query_kind(tokens) == ("identifier", None)
    assert preview.query_kind(tokens, np.ones(len(tokens), dtype=np.int64)) == ("identifier", None)
    kind, warning = preview.query_kind(tokens, np.full(len(tokens), repeats, dtype=np.int64))
    assert kind == "number" and "integers that repeat" in warning
    counts = [str(i) for i in range(30)] + stray
    kind, warning = preview.query_kind(counts, np.full(len(counts), repeats * 10, dtype=np.int64))
    assert kind == "number" and "small integers that repeat" in warning


def test_unique_numbers_that_are_not_integers_are_not_said_to_repeat():
    """A numeric column that no value repeats but holds decimals among its integers is a
    measure; its warning does not say the values repeat."""
    tokens = [str(i) for i in range(1000, 1085)] + [f"{i}.5" for i in range(8)] + ["a", "b"]
    kind, warning = preview.query_kind(tokens)
    assert kind == "number" and "repeat" not in warning and "decimal numbers among" in warning
