"""A union's "only new rows" on cells holding JSON objects and lists (join/keys.py
``union_keys``, lake/normalize.py ``render_value``, spark.py ``union_key_column``): a
JSON-lines lake table's nested fields, the user's frame read from JSON or Parquet (lists
as numpy arrays) or in Spark (structs, arrays); the generated code drops the same rows."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import lake_engine


def test_union_keys_of_lists_arrays_tuples_and_objects_agree():
    """A list, a tuple and a numpy array of the same values are one key, also inside a JSON
    object (as pandas reads a Parquet struct's list); long arrays differing in one element
    are two keys (numpy's repr elides the middle of an array); key order is no difference."""
    from lakejoin_jupyter.join.keys import union_keys
    cells = pd.Series([["x", "y"], ("x", "y"), np.array(["x", "y"], dtype=object),
                       {"tags": ["t", "x"], "n": 1}, {"n": np.int64(1), "tags": np.array(["t", "x"])},
                       np.arange(3000), np.where(np.arange(3000) == 1500, -1, np.arange(3000))],
                      dtype=object)
    keys = union_keys(cells).tolist()
    assert keys[0] == keys[1] == keys[2], keys[:3]
    assert keys[3] == keys[4], keys[3:5]
    assert keys[5] != keys[6]


@pytest.fixture(scope="module")
def json_lake(spark, tmp_path_factory):
    rows = [{"id": f"E{i:03d}", "kind": ["click", "view", "buy"][i % 3],
             "meta": {"src": f"s{i % 4}", "n": i % 5, "tags": [f"t{i % 3}", "x"]},
             "items": [{"sku": f"K{i % 7}", "q": i % 2 + 1}],
             "labels": [f"l{i % 4}", f"m{i % 2}"]} for i in range(60)]
    rows.append(dict(rows[7]))                   # a row the table repeats: added once
    engine = lake_engine(spark, tmp_path_factory, "jsonlake", {
        "ev/events.jsonl": "\n".join(json.dumps(r) for r in rows) + "\n",
        "other.csv": pd.DataFrame({"a": range(30), "b": [f"w{i}" for i in range(30)]})},
        components=("union",))
    return engine, Path(engine.lake_root)


def _events_hit(engine, q):
    hit = next(h for h in engine.search_unionable(q, k=3) if h.table == "ev/events")
    assert {a: b for a, b, _ in hit.alignment} == {c: c for c in q.columns}, hit.alignment
    return hit


@pytest.mark.spark
def test_union_of_json_objects_adds_each_new_row_once(json_lake, tmp_path):
    """20 of the table's 61 rows (one repeated), read from JSON lines and from a Parquet copy
    (numpy arrays in its cells): the union adds the other 40 distinct rows, and the
    generated pandas code binds the same frame."""
    engine, root = json_lake
    full = pd.read_json(root / "ev" / "events.jsonl", lines=True)
    full.to_parquet(tmp_path / "copy.parquet")
    for q in (full.iloc[:20].reset_index(drop=True),
              pd.read_parquet(tmp_path / "copy.parquet").iloc[:20].reset_index(drop=True)):
        hit = _events_hit(engine, q)
        got = hit.union(q)
        assert len(got) == 60, (type(q["labels"][0]), len(got))
        assert got["id"].tolist() == [f"E{i:03d}" for i in range(60)]
        ns = {"df": q}
        exec(hit.code("df", "out"), ns)
        pd.testing.assert_frame_equal(ns["out"], got)


@pytest.mark.spark
def test_spark_union_of_json_objects_adds_each_new_row_once(json_lake, spark):
    """The same in Spark (structs and arrays; a pandas UDF gets a struct as a frame, so a
    nested column's key is its JSON text), by union() and by the generated PySpark code."""
    engine, root = json_lake
    sdf = (spark.read.json(str(root / "ev" / "events.jsonl"))
           .select("id", "kind", "meta", "items", "labels").where("id < 'E020'"))
    hit = _events_hit(engine, sdf)
    got = hit.union(sdf)
    assert sdf.count() == 21                     # E007 twice
    assert got.count() == 61 and got.select("id").distinct().count() == 60
    ns = {"df": sdf}
    exec(hit.code("df", "out", spark=True), ns)
    assert sorted(r["id"] for r in ns["out"].collect()) == sorted(r["id"] for r in got.collect())


def _same_json(a, b) -> bool:
    """Brute-force oracle: equal as JSON values, numbers by numeric value (1 == 1.0), a
    boolean only equal to the same boolean (Python's True == 1 is not JSON's)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def test_numerically_equal_json_numbers_are_one_union_key():
    """{"n": 1.0} and {"n": 1} are one value (as a dict, as JSON text with or without
    spaces, Spark's to_json has none); 1.5 and 1, true and 1 are not. Random nested values
    checked against a brute-force oracle, in every pair of spellings."""
    import random
    from lakejoin_jupyter.join.keys import new_rows, union_keys
    assert union_keys(pd.Series([{"n": 1.0}, {"n": 1}, '{"n":1.0}', '{"n": 1}'],
                                dtype=object)).nunique() == 1
    rng = random.Random(7)

    def number():
        i = rng.choice([0, 1, 2, -3, 10 ** 17 + 1, 2 ** 60])
        return rng.choice([i, float(i), i + 0.5, True, False][:5 if abs(i) < 10 else 3])

    def value(depth=0):
        kind = rng.choice(["num", "num", "str", "null"] + (["list", "dict"] if depth < 2 else []))
        if kind == "num":
            return number()
        if kind == "str":
            return rng.choice(["a", "b", "1"])
        if kind == "null":
            return None
        if kind == "list":
            return [value(depth + 1) for _ in range(rng.randint(0, 2))]
        return {k: value(depth + 1) for k in rng.sample(["n", "m", "p"], rng.randint(1, 2))}

    cells = [rng.choice([value, lambda: {"n": number()}, lambda: [number(), number()]])()
             for _ in range(300)]
    cells = [c if isinstance(c, (dict, list)) else {"v": c} for c in cells]
    spelled = []
    for c in cells:
        spelled.append(rng.choice([c, json.dumps(c), json.dumps(c, separators=(",", ":"))]))
    keys = union_keys(pd.Series(spelled, dtype=object)).tolist()
    for i in range(len(cells)):
        for j in range(i + 1, len(cells)):
            assert (keys[i] == keys[j]) == _same_json(cells[i], cells[j]), \
                (spelled[i], spelled[j], keys[i], keys[j])
    # the union's "only new rows": a lake row {"n": 1.0} is the query's {"n": 1}
    query = pd.DataFrame({"meta": [{"n": 1, "tags": ["x"]}], "id": ["E1"]})
    added = pd.DataFrame({"meta": ['{"n": 1.0, "tags": ["x"]}', '{"n": 1.5, "tags": ["x"]}',
                                   '{"n": 1.50, "tags": ["x"]}'], "id": ["E1", "E1", "E1"]})
    assert new_rows(query, added, ["meta", "id"]).tolist() == [False, True, False]
