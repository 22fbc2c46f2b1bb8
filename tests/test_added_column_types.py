"""`hit.added_columns` (and the hit card) state the type each column has in the join: a CSV
or JSON-lines column is text whatever its values look like (its values' type said beside,
"string (float values)"), a Parquet column has its file's type. Checked against the dtypes
and values of the joined frame itself."""
from __future__ import annotations

import datetime as dt
import json

import pandas as pd
import pytest

from conftest import write_lake

pytestmark = pytest.mark.spark

KEYS = [f"k{i:02d}" for i in range(12)]


def joined_type(col: pd.Series) -> str:
    """The type of a joined column, in the words of ``added_columns``, read off pandas."""
    kind = str(col.dtype)
    if kind in ("Int64", "int64"):
        return "integer"
    if kind == "float64":
        return "float"
    if kind in ("boolean", "bool"):
        return "boolean"
    if kind.startswith("datetime64"):
        return "timestamp"
    values = col.dropna().tolist()
    assert values, col.name
    kinds = {type(v) for v in values}
    assert len(kinds) == 1, (col.name, kinds)
    return {str: "string", list: "list", dt.date: "date"}[kinds.pop()]


@pytest.fixture(scope="module")
def typed_kinds_lake(spark, tmp_path_factory):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    root = tmp_path_factory.mktemp("types") / "lake"
    csv = pd.DataFrame({"key": KEYS, "lat": [47.25 + i for i in range(12)],
                        "n": range(12), "day": [f"2020-01-{i + 1:02d}" for i in range(12)]})
    lines = "".join(json.dumps({"key": k, "length": 6.5 + i, "tags": [f"t{i}", "x"]}) + "\n"
                    for i, k in enumerate(KEYS))
    parquet = pd.DataFrame({"key": KEYS, "price": [1.5 + i for i in range(12)],
                            "qty": pd.array(range(12), dtype="Int64"),
                            "code": [str(100 + i) for i in range(12)],
                            "day": [dt.date(2020, 1, i + 1) for i in range(12)]})
    write_lake(root, {"a/points.csv": csv, "b/flowers.jsonl": lines, "c/prices.parquet": parquet})
    build(root, root.parent / "lake.index", spark=spark, progress=False)
    return open_index(root.parent / "lake.index")


def test_added_column_types_are_the_joins(typed_kinds_lake):
    engine = typed_kinds_lake
    query = pd.DataFrame({"key": KEYS[:8], "v": range(8)})
    res = engine.search(query, "key", k=None)
    assert sorted(h.table for h in res) == ["a/points", "b/flowers", "c/prices"]
    seen = {}
    for h in res:
        joined = h.join(query)
        for a in h.added_columns:
            assert a.type == joined_type(joined[a.name]), (h.table, a)
            seen[(h.table, a.name)] = a
    # text of numbers says what its values are; the Parquet file's text stays plain text
    assert seen[("a/points", "lat")].shown_type == "string (float values)"
    assert seen[("a/points", "n")].values == "integer"
    assert seen[("b/flowers", "length")].shown_type == "string (float values)"
    assert seen[("b/flowers", "tags")].type == "list"
    assert seen[("c/prices", "price")].shown_type == "float"
    assert seen[("c/prices", "day")].type == "date"
    assert seen[("c/prices", "code")].type == "string"
    card = next(h for h in res if h.table == "a/points").card()
    html = card._repr_html_() if hasattr(card, "_repr_html_") else str(card)
    assert "<td>lat</td><td style='overflow-wrap:normal'>string (float values)</td>" in html
