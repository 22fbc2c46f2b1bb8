"""The command line reads a query file as pandas does: `lakejoin join` (one column, an
aggregate, a composite key) and `lakejoin union --stack` write a Parquet query's own columns
with the file's types, next to the lake's typed columns, a CSV query's with the types
`pd.read_csv` gives them and a JSON-lines query's with those of `pd.read_json(lines=True)`;
a lake table named as the query is read the same way."""
from __future__ import annotations

import datetime as dt
import io

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from conftest import write_lake
from lakejoin_jupyter.cli import main as cli
from lakejoin_jupyter.errors import LakeJoinWarning

pytestmark = pytest.mark.spark

PACKAGES = [f"pkg{i:02d}" for i in range(30)]


@pytest.fixture(scope="module")
def typed_lake(spark, tmp_path_factory):
    """A Parquet panel table (a package's downloads per day), a CSV table of packages, an
    index over them with the union component, and a Parquet and a CSV query."""
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    rng = np.random.default_rng(5)
    days = [dt.date(2026, 1, 1) + dt.timedelta(days=d) for d in range(6)]
    daily = pd.DataFrame([(p, d, int(rng.integers(0, 500))) for p in PACKAGES for d in days],
                         columns=["package", "day", "downloads"])
    info = pd.DataFrame({"package": PACKAGES, "section": [f"s{i % 4}" for i in range(30)],
                         "size": rng.integers(100, 10_000, 30)})
    root = write_lake(tmp_path_factory.mktemp("tlake") / "lake",
                      {"daily.parquet": daily, "info.csv": info})
    out = tmp_path_factory.mktemp("tindex") / "t.index"
    build(root, out, spark=spark, progress=False, settings=BuildSettings(components=("union",)))
    qdir = tmp_path_factory.mktemp("tq")
    picked = rng.choice(len(PACKAGES), 12, replace=False)
    query = pd.DataFrame({
        "package": [PACKAGES[i] for i in picked] + ["nosuch"],
        "day": [days[int(rng.integers(0, 6))] for _ in picked] + [days[0]],
        "qty": rng.integers(0, 9, len(picked) + 1).astype("int64"),
        "price": rng.random(len(picked) + 1).round(2)})
    query.to_parquet(qdir / "q.parquet", index=False)
    query.astype({"day": str}).to_csv(qdir / "q.csv", index=False)
    return str(out), daily, info, qdir


def _same_query_columns(out, source) -> pd.DataFrame:
    """The output's query columns, checked against pandas reading the query file: the same
    Arrow types and the same values in the same rows."""
    got = pd.read_parquet(out)
    want = pd.read_parquet(source)
    have = pq.read_schema(out)
    for c in want.columns:
        assert have.field(c).type == pq.read_schema(source).field(c).type, c
    pd.testing.assert_frame_equal(got[list(want.columns)].iloc[:len(want)], want)
    return got


def test_join_aggregate_keeps_parquet_query_types(typed_lake, tmp_path, capsys):
    """`lakejoin join -t q.parquet -c package --aggregate latest`: the query's date and
    integer columns stay date32 and int64; the lake's columns are the latest row per
    package, as pandas computes it."""
    index, daily, _, qdir = typed_lake
    out = tmp_path / "agg.parquet"
    assert cli(["search", index, "-t", str(qdir / "q.parquet"), "-c", "package",
                "--format", "csv"]) == 0
    ranked = capsys.readouterr().out.splitlines()
    hit = next(i for i, line in enumerate(ranked[1:], 1) if line.split(",")[1] == "daily")
    assert cli(["join", index, "-t", str(qdir / "q.parquet"), "-c", "package", "--hit",
                str(hit), "--aggregate", "latest", "--out", str(out)]) == 0
    got = _same_query_columns(out, qdir / "q.parquet")
    latest = daily.sort_values("day").groupby("package").tail(1).set_index("package")
    query = pd.read_parquet(qdir / "q.parquet")
    want_day = [latest["day"].get(p) for p in query["package"]]
    assert got["day_daily"].tolist() == want_day
    assert got["downloads"].tolist() == [
        latest["downloads"].get(p, pd.NA) for p in query["package"]]
    assert pq.read_schema(out).field("day_daily").type == pq.read_schema(
        qdir / "q.parquet").field("day").type


def test_join_composite_key_keeps_parquet_query_types(typed_lake, tmp_path, capsys):
    """The same with a composite key (package, day): MATE's hit joined row for row."""
    index, daily, _, qdir = typed_lake
    out = tmp_path / "mate.parquet"
    assert cli(["join", index, "-t", str(qdir / "q.parquet"), "-c", "package", "-c", "day",
                "--hit", "1", "--out", str(out)]) == 0
    assert "daily" in capsys.readouterr().err
    got = _same_query_columns(out, qdir / "q.parquet")
    query = pd.read_parquet(qdir / "q.parquet")
    want = query.merge(daily, on=["package", "day"], how="left")
    assert got["downloads"].astype("Int64").tolist() == want["downloads"].astype(
        "Int64").tolist()


def test_join_lake_table_query_keeps_parquet_types(typed_lake, tmp_path, capsys):
    """A Parquet lake table given by name as the query keeps its types in the output too."""
    index, daily, info, _ = typed_lake
    out = tmp_path / "named.parquet"
    assert cli(["join", index, "-t", "daily", "-c", "package", "--hit", "1",
                "--out", str(out)]) == 0
    capsys.readouterr()
    got = pd.read_parquet(out)
    pd.testing.assert_frame_equal(got[list(daily.columns)], daily)


def test_union_stack_keeps_parquet_query_types(typed_lake, tmp_path, capsys):
    """`lakejoin union -t q.parquet --stack 1 --out x.parquet`: the query's rows first, with
    the file's types, then the lake table's new rows in them (its dates as dates)."""
    index, daily, _, qdir = typed_lake
    out = tmp_path / "stacked.parquet"
    assert cli(["union", index, "-t", str(qdir / "q.parquet"), "-c", "package", "-c", "day",
                "--stack", "1", "--out", str(out)]) == 0
    assert "Stacked daily" in capsys.readouterr().err
    got = pd.read_parquet(out)
    want = pd.read_parquet(qdir / "q.parquet")[["package", "day"]]
    assert pq.read_schema(out).field("day").type == pq.read_schema(
        qdir / "q.parquet").field("day").type
    pd.testing.assert_frame_equal(got[["package", "day"]].iloc[:len(want)], want)
    added = got.iloc[len(want):]
    assert set(zip(added["package"], added["day"])) <= set(zip(daily["package"], daily["day"]))


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_csv_query_joined_has_read_csv_types(typed_lake, tmp_path, capsys, suffix):
    """A CSV query joined into a CSV or a Parquet file: its columns read back with the types
    and values ``pd.read_csv`` gives the query file (int64 and float64, not text)."""
    index, _, info, qdir = typed_lake
    out = tmp_path / f"joined{suffix}"
    assert cli(["join", index, "-t", str(qdir / "q.csv"), "-c", "package", "--hit", "1",
                "--out", str(out)]) == 0
    capsys.readouterr()
    got = pd.read_csv(out) if suffix == ".csv" else pd.read_parquet(out)
    want = pd.read_csv(qdir / "q.csv")
    pd.testing.assert_frame_equal(got[list(want.columns)], want)


def test_csv_lake_table_query_has_read_csv_types(typed_lake, tmp_path, capsys):
    """A CSV lake table named as the query: its columns as ``pd.read_csv`` reads its file."""
    index, daily, info, _ = typed_lake
    out = tmp_path / "named.parquet"
    assert cli(["join", index, "-t", "info", "-c", "package", "--hit", "1",
                "--duplicates", "first", "--out", str(out)]) == 0
    capsys.readouterr()
    pd.testing.assert_frame_equal(pd.read_parquet(out)[list(info.columns)], info)


def test_union_stack_of_a_csv_query_is_the_notebooks(typed_lake, tmp_path, capsys):
    """`lakejoin union -t q.csv --stack 1` writes what the notebook's union gives for
    ``pd.read_csv(q.csv)``: the same rows, values and types (qty an integer column under
    the lake's integer downloads)."""
    from lakejoin_jupyter import open_index
    index, _, _, qdir = typed_lake
    out = tmp_path / "stacked.parquet"
    assert cli(["union", index, "-t", str(qdir / "q.csv"), "-c", "package", "-c", "qty",
                "--stack", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    query = pd.read_csv(qdir / "q.csv")
    with pytest.warns(LakeJoinWarning, match="no aligned column"):
        hits = open_index(index).search_unionable(query, columns=["package", "qty"])
        want = hits[0].union(query).reset_index(drop=True)
    got = pd.read_parquet(out)
    assert got.dtypes.to_dict() == want.dtypes.to_dict()
    pd.testing.assert_frame_equal(got.astype(object).where(got.notna(), None),
                                  want.astype(object).where(want.notna(), None))


def test_union_stack_of_text_dates_under_parquet_dates_is_written(typed_lake, tmp_path,
                                                                   capsys):
    """Text dates of a CSV query stacked under a Parquet table's dates: Parquet cannot hold
    the mixed column, so it is written as text (as the .csv output writes it), with a
    warning, instead of failing."""
    index, daily, _, qdir = typed_lake
    out, as_csv = tmp_path / "stacked.parquet", tmp_path / "stacked.csv"
    for path in (out, as_csv):
        assert cli(["union", index, "-t", str(qdir / "q.csv"), "-c", "package", "-c", "day",
                    "--stack", "1", "--out", str(path)]) == 0
        if path == out:
            assert "lakejoin: warning: `day` mix kinds of values" in capsys.readouterr().err
    got = pd.read_parquet(out)
    assert got["day"].map(type).eq(str).all()
    # qty, null in the added rows, is Int64 (frames.stacked_as_query): the .csv read so
    pd.testing.assert_frame_equal(got, pd.read_csv(as_csv, dtype={"day": str, "qty": "Int64"}))


JSON_QUERY = "\n".join([
    '{"package": "pkg03", "qty": 4, "price": 1.5, "rush": true, "shipped_at": "2026-01-02", '
    '"tags": ["a", "b"], "gift": null}',
    '{"package": "pkg07", "qty": 2, "price": 3, "rush": false, "shipped_at": "2026-01-05", '
    '"tags": null, "gift": true}',
    'not an object',
    '{"package": "nosuch", "qty": 9, "price": 0.25, "rush": false, '
    '"shipped_at": "2026-01-09", "tags": ["c"], "gift": false, "note": "late"}',
]) + "\n"


@pytest.fixture(scope="module")
def json_lake(spark, tmp_path_factory):
    """A lake of a JSON-lines table of orders and a CSV table of packages, indexed, and a
    JSON-lines query file outside the lake (one line not an object)."""
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    info = pd.DataFrame({"package": PACKAGES, "section": [f"s{i % 4}" for i in range(30)],
                         "size": [100 + 7 * i for i in range(30)]})
    root = write_lake(tmp_path_factory.mktemp("jlake") / "lake",
                      {"orders.jsonl": JSON_QUERY, "info.csv": info})
    out = tmp_path_factory.mktemp("jindex") / "j.index"
    build(root, out, spark=spark, progress=False, settings=BuildSettings(components=("union",)))
    query = tmp_path_factory.mktemp("jq") / "q.jsonl"
    query.write_text(JSON_QUERY, encoding="utf-8")
    return str(out), root, query


def _read_json_lines(path) -> pd.DataFrame:
    lines = [s for s in path.read_text().splitlines() if s.startswith("{")]
    return pd.read_json(io.StringIO("\n".join(lines)), lines=True)


@pytest.mark.parametrize("given", ["file", "lake table"])
def test_json_lines_query_joined_has_read_json_types(json_lake, tmp_path, capsys, given):
    """A JSON-lines query (a file, or a lake table named as the query) joined into Parquet:
    its scalar columns read back with the types and values ``pd.read_json(path,
    lines=True)`` gives them (int64, float64, bool, a date-named column as datetimes, a
    boolean with a null as pandas has it), not as text; a list column as lists."""
    index, root, query = json_lake
    out = tmp_path / "joined.parquet"
    table = str(query) if given == "file" else "orders"
    assert cli(["join", index, "-t", table, "-c", "package", "--hit", "1",
                "--out", str(out)]) == 0
    capsys.readouterr()
    got = pd.read_parquet(out)
    want = _read_json_lines(root / "orders.jsonl").drop(columns=["tags"])
    want["note"] = want["note"].where(want["note"].notna(), None)   # Parquet's null text
    pd.testing.assert_frame_equal(got[list(want.columns)], want)
    assert [v if v is None else list(v) for v in got["tags"]] == [["a", "b"], None, ["c"]]
    assert got["section"].tolist() == ["s3", "s3", None]



def test_a_json_lines_list_field_is_read_as_python_reads_it(json_lake, tmp_path, capsys):
    """A JSON-lines query's list field is a column of lists, as ``pd.read_json(path,
    lines=True)`` reads it, not its JSON text: the command line and the Python API on that
    frame give the same outcome. As the key, the same error (search its elements:
    ``df.explode``); beside an integer key repeated on two rows, its elements are what tells
    the two rows apart (here they share "x": no key partner), so the same ranked hits; the
    same unionable tables; and joined on another column, the lists of the API's join."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.errors import QueryError
    index, _, _ = json_lake
    path = tmp_path / "sizes.jsonl"
    rows = [{"size": 100 + 7 * i, "package": PACKAGES[i], "protos": protos}
            for i in range(20) for protos in (["tcp", "x"], ["x", "udp"])]
    pd.DataFrame(rows).to_json(path, orient="records", lines=True)
    df = pd.read_json(path, lines=True)
    engine = open_index(index)
    with pytest.raises(QueryError) as api:
        engine.search(df, "protos")
    assert "df.explode('protos')" in str(api.value)
    assert cli(["search", index, "-t", str(path), "-c", "protos"]) == 1
    assert capsys.readouterr().err.strip() == f"lakejoin: error: {api.value}"
    assert cli(["search", index, "-t", str(path), "-c", "size", "--format", "csv"]) == 0
    want = engine.search(df, "size", rank="useful").to_pandas()
    got = pd.read_csv(io.StringIO(capsys.readouterr().out))
    pd.testing.assert_frame_equal(got, pd.read_csv(io.StringIO(
        want.drop(columns=["column_ids", "table_id"]).to_csv(index=False))))
    assert cli(["union", index, "-t", str(path), "-k", "5", "--format", "csv"]) == 0
    want = engine.search_unionable(df, k=5).to_pandas().drop(columns=["table_id"])
    got = pd.read_csv(io.StringIO(capsys.readouterr().out))
    pd.testing.assert_frame_equal(got, pd.read_csv(io.StringIO(want.to_csv(index=False))))
    out = tmp_path / "joined.parquet"
    assert cli(["join", index, "-t", str(path), "-c", "package", "--hit", "1",
                "--out", str(out)]) == 0
    capsys.readouterr()
    hit = engine.search(df, "package", rank="useful")[0]
    assert [list(v) for v in pd.read_parquet(out)["protos"]] == hit.join(df)["protos"].tolist()

def test_nullable_parquet_query_keeps_pandas_dtypes(typed_lake, tmp_path, capsys):
    """A Parquet query written from pandas' nullable dtypes (Int64, boolean, string, with
    missing values) joined into Parquet: its columns come back as ``pd.read_parquet`` gives
    the query file (the file's pandas metadata applied), not as float64 and object."""
    index, _, info, qdir = typed_lake
    query = pd.DataFrame({
        "package": pd.array(["pkg03", "pkg07", None, "nosuch"], dtype="string"),
        "qty": pd.array([4, None, 2, 9], dtype="Int64"),
        "rush": pd.array([True, None, False, True], dtype="boolean"),
        "count": [1, 2, 3, 4]})
    source = tmp_path / "nullable.parquet"
    query.to_parquet(source, index=False)
    want = pd.read_parquet(source)
    assert want.dtypes["qty"] == "Int64" and want.dtypes["rush"] == "boolean"
    out = tmp_path / "joined.parquet"
    assert cli(["join", index, "-t", str(source), "-c", "package", "--hit", "1",
                "--out", str(out)]) == 0
    capsys.readouterr()
    got = pd.read_parquet(out)
    pd.testing.assert_frame_equal(got[list(want.columns)], want)
    assert got["section"].tolist()[:2] == ["s3", "s3"]


def test_union_stack_of_a_nullable_parquet_query_keeps_its_dtypes(typed_lake, tmp_path,
                                                                  capsys):
    """`lakejoin union --stack` of a Parquet query of nullable dtypes: the stacked columns
    keep them (string for the package names, Int64 and boolean for the columns null in the
    added rows), as pd.read_parquet gives the query."""
    index, daily, _, qdir = typed_lake
    query = pd.DataFrame({
        "package": pd.array(["pkg03", "pkg07", None, "nosuch"], dtype="string"),
        "qty": pd.array([4, None, 2, 9], dtype="Int64"),
        "rush": pd.array([True, None, False, True], dtype="boolean")})
    source = tmp_path / "nullable.parquet"
    query.to_parquet(source, index=False)
    out = tmp_path / "stacked.parquet"
    assert cli(["union", index, "-t", str(source), "-c", "package", "--stack", "1",
                "--out", str(out)]) == 0
    capsys.readouterr()
    got = pd.read_parquet(out)
    want = pd.read_parquet(source)
    assert len(got) > len(want)
    assert got[list(want.columns)].dtypes.to_dict() == want.dtypes.to_dict()
    pd.testing.assert_frame_equal(got[list(want.columns)].iloc[:len(want)], want)
