"""Auto-Join and the fuzzy join on a list column (Parquet list<string>, a JSON-lines column of
lists) learn and join on its elements, as the equi-join does: ``engine.autojoin``, a "Needs a
transformation" hit's ``hit.autojoin``, the Find transformation action and
``engine.fuzzy_join`` with the lake table as the reference give the lake table exploded and
merged on the learned keys, and so does the code they write, run in a fresh namespace
(pandas; Auto-Join with a Spark frame and its PySpark code too)."""
import json

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

HOSTS = [f"h{i:02d}" for i in range(40)]
RACKS = ([{"rack": f"rack {g}", "hosts": [f"{h}.dc1.example.org" for h in HOSTS[2 * g:2 * g + 2]]
           + ([None] if g == 3 else [])} for g in range(20)]
         + [{"rack": "empty", "hosts": []}, {"rack": "none", "hosts": None}])
QUERY = pd.DataFrame({"host": [h.upper() for h in HOSTS[:30]] + ["ZZ"], "n": range(31)})
# the hosts' names with a typo each, for the fuzzy join
TYPOS = pd.DataFrame({"fqdn": [f"{h}.dc1.exampel.org" for h in HOSTS[:12]] + ["nowhere.net"]})
TABLES = {"net/racks.parquet": "parquet", "net/racks": "jsonl"}


@pytest.fixture(scope="module")
def engine(spark, tmp_path_factory):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    root = tmp_path_factory.mktemp("learned") / "lake"
    (root / "net").mkdir(parents=True)
    schema = pa.schema([("rack", pa.string()), ("hosts", pa.list_(pa.string()))])
    pq.write_table(pa.Table.from_pylist(RACKS, schema=schema), root / "net/racks.parquet")
    (root / "net/racks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in RACKS))
    out = root.parent / "lake.index"
    build(root, out, spark=spark, settings=BuildSettings(components=("transform",)),
          progress=False)
    return open_index(out)


def exploded() -> pd.DataFrame:
    return pd.DataFrame(RACKS).explode("hosts", ignore_index=True)


def cells(df) -> list:
    return [tuple(None if v is None or (isinstance(v, float) and v != v) else str(v)
                  for v in r) for r in df.itertuples(index=False)]


def run_fresh(code: str, name: str, frame) -> dict:
    ns = {name: frame}
    exec(compile(code, "<inserted cell>", "exec"), ns)   # noqa: S102 - the code under test
    return ns


def host_oracle(how: str = "left") -> pd.DataFrame:
    """The rack table exploded and merged on each element's host name (upper case); a
    join with a lake table keeps the query's rows by default (``how`` "left")."""
    ex = exploded().dropna(subset=["hosts"])
    key = ex["hosts"].str.split(".").str[0].str.upper()
    return QUERY.merge(ex.assign(__k=key), left_on="host", right_on="__k",
                       how=how).drop(columns="__k")


def check_autojoin(aj, engine, table):
    assert aj.found, aj.message
    want = host_oracle()
    joined = aj.join(QUERY)
    assert cells(joined[want.columns]) == cells(want)
    assert all("[" not in str(v) for ex in aj.examples for v in ex["input"].values()), \
        aj.examples                                       # learned on elements, not JSON
    assert aj.plan(QUERY).explode == ("hosts",)
    assert aj.joined_rows == len(host_oracle("inner"))   # matched, on exploded rows
    code = aj.code("q", "out")
    assert ".explode('hosts', ignore_index=True)" in code
    pd.testing.assert_frame_equal(run_fresh(code, "q", QUERY)["out"], joined)


@pytest.mark.spark
@pytest.mark.parametrize("table", list(TABLES))
def test_autojoin_learns_on_the_elements_of_a_list_column(engine, table):
    check_autojoin(engine.autojoin(QUERY, "host", table, "hosts"), engine, table)


@pytest.mark.spark
@pytest.mark.parametrize("table", list(TABLES))
def test_a_transformation_hit_on_a_list_column_joins_its_elements(engine, table):
    from lakejoin_jupyter.actions import run_transformation
    res = engine.search(QUERY, "host", k=None, method="transform")
    hit = next(h for h in res if h.table == table and h.column == "hosts")
    assert hit.list_columns == ("hosts",)
    check_autojoin(hit.autojoin(QUERY), engine, table)
    out = run_transformation(engine, hit, QUERY)
    assert out.ok, out.summary
    assert cells(out.joined[host_oracle().columns]) == cells(host_oracle())


@pytest.mark.spark
@pytest.mark.parametrize("table", list(TABLES))
def test_fuzzy_join_matches_the_elements_of_a_list_column(engine, table):
    fj = engine.fuzzy_join(table, TYPOS, on=("hosts", "fqdn"), functions=["char3-idf"])
    m = fj.matches()
    elements = set(exploded()["hosts"].dropna())
    assert len(m) and set(m["left"]) <= elements, m
    assert all(m.loc[m["right"] == r, "left"].iloc[0] == r.replace("exampel", "example")
               for r in m["right"])
    first = exploded().dropna(subset=["hosts"]).drop_duplicates("hosts")
    key = TYPOS["fqdn"].map(dict(zip(m["right"], m["left"])))
    want = TYPOS.assign(__k=key).merge(first, left_on="__k", right_on="hosts",
                                       how="left").drop(columns="__k")
    joined = fj.join(TYPOS)
    assert cells(joined[want.columns]) == cells(want)
    pd.testing.assert_frame_equal(run_fresh(fj.code("q", "out"), "q", TYPOS)["out"], joined)


@pytest.mark.spark
@pytest.mark.parametrize("table", list(TABLES))
def test_autojoin_of_a_spark_frame_and_its_code_explode_the_list_column(engine, spark, table):
    aj = engine.autojoin(QUERY, "host", table, "hosts")
    sdf = spark.createDataFrame(QUERY)
    want = sorted(cells(host_oracle()), key=repr)
    cols = list(host_oracle().columns)
    assert sorted(cells(aj.join(sdf).toPandas()[cols]), key=repr) == want
    code = aj.code("sdf", "out", spark=True)
    assert "F.explode_outer(F.col(" in code
    assert sorted(cells(run_fresh(code, "sdf", sdf)["out"].toPandas()[cols]), key=repr) == want


@pytest.mark.spark
def test_the_fuzzy_join_action_on_a_list_column_hit(engine):
    from lakejoin_jupyter.actions import run_fuzzy
    frame = pd.concat([TYPOS, pd.DataFrame({"fqdn": ["h30.dc1.example.org"]})],
                      ignore_index=True)
    hit = next(h for h in engine.search(frame, "fqdn", k=None)
               if h.table == "net/racks.parquet" and h.column == "hosts")
    out = run_fuzzy(engine, hit, frame)
    assert out.ok, out.summary
    m = out.result.matches()
    assert set(m["left"]) <= set(exploded()["hosts"].dropna()), m
    first = exploded().dropna(subset=["hosts"]).drop_duplicates("hosts")
    key = frame["fqdn"].map(dict(zip(m["right"], m["left"])))
    want = frame.assign(__k=key).merge(first, left_on="__k", right_on="hosts",
                                       how="left").drop(columns="__k")
    assert cells(out.joined[want.columns]) == cells(want)
