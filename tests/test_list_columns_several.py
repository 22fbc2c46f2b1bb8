"""Auto-Join with a lake table of several list columns, none named, explodes only the list
column it joins on (``engine.element_table``, ``AutoJoin.explode``), not the product of all
their elements: the join's rows are the pandas oracle's, the table exploded on that column
alone (docs/algorithms/index-format.md, "List columns")."""
import json

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

HOSTS = [f"h{i:02d}" for i in range(40)]
RACKS = [{"rack": f"rack {chr(65 + g)}", "hosts": [f"{h}.dc1.example.org" for h in HOSTS[2 * g:2 * g + 2]],
          "tags": [f"t{g}a", f"t{g}b", "ssd"]} for g in range(20)]
QUERY = pd.DataFrame({"host": [h.upper() for h in HOSTS[:30]] + ["ZZ"], "n": range(31)})
TABLES = {"net/racks.parquet": "parquet", "net/racks": "jsonl"}


@pytest.fixture(scope="module")
def engine(spark, tmp_path_factory):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    root = tmp_path_factory.mktemp("several") / "lake"
    (root / "net").mkdir(parents=True)
    schema = pa.schema([("rack", pa.string()), ("hosts", pa.list_(pa.string())),
                        ("tags", pa.list_(pa.string()))])
    pq.write_table(pa.Table.from_pylist(RACKS, schema=schema), root / "net/racks.parquet")
    (root / "net/racks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in RACKS))
    out = root.parent / "lake.index"
    build(root, out, spark=spark, progress=False)
    return open_index(out)


def oracle(how: str) -> pd.DataFrame:
    """The rack table exploded on hosts alone and merged on each host name (upper case)."""
    ex = pd.DataFrame(RACKS).explode("hosts", ignore_index=True)
    key = ex["hosts"].str.split(".").str[0].str.upper()
    return QUERY.merge(ex.assign(__k=key), left_on="host", right_on="__k",
                       how=how).drop(columns="__k")


@pytest.mark.spark
@pytest.mark.parametrize("table", list(TABLES))
def test_autojoin_without_a_named_column_explodes_only_the_key_list_column(engine, table):
    """40 hosts on 20 racks of 3 tags each: exploding both lists gives 120 rows where each
    host repeats 3 times (no key column, and 3 joined rows per host); the join's rows are
    the oracle's, which explodes the hosts only."""
    aj = engine.autojoin(QUERY, "host", table)
    assert aj.found, aj.message
    assert aj.explode == ("hosts",)
    want = oracle("left")
    joined = aj.join(QUERY)
    assert len(joined) == len(want) == len(QUERY)
    assert sorted(zip(joined["host"], joined["rack"].fillna(""))) == \
        sorted(zip(want["host"], want["rack"].fillna("")))
    assert aj.joined_rows == len(oracle("inner")) == 30
    code = aj.code("q", "out")
    assert ".explode('hosts', ignore_index=True)" in code and ".explode('tags'" not in code
    ns = {"q": QUERY}
    exec(compile(code, "<inserted cell>", "exec"), ns)   # noqa: S102 - the code under test
    pd.testing.assert_frame_equal(ns["out"], joined)
