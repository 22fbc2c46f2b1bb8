"""Which lake tables the union search scores (search/union.py ``_search``): at most
``max_tables``, value overlap beyond chance first, then the places their columns took among
each query column's nearest. A flag's two values are held by many lake columns alike: the
columns tied with the last one chosen share the places equally, so the order of a tie does
not decide which table is scored (the bob-ross seed of bench/union.py: derived tables whose
episode codes it shares were left out for wide tables of small numbers)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import UNION_ONLY, lake_engine

FLAGS = [f"F{j}" for j in range(6)]


@pytest.fixture(scope="module")
def flag_lake(spark, tmp_path_factory):
    """a_flags, b_flags: 20 yes/no columns each (first by column id); z_derived: 15 of the
    query's rows, its codes and flags under other names."""
    rng = np.random.default_rng(27)
    q = pd.DataFrame({"code": [f"EP{i:03d}x" for i in range(30)],
                      **{f: rng.choice(["yes", "no"], 30) for f in FLAGS}})
    part = q.iloc[5:20].reset_index(drop=True)
    tables = {f"{p}_flags/t.csv": pd.DataFrame({f"c{j}": rng.choice(["yes", "no"], 40)
                                                for j in range(20)})
              for p in ("a", "b")}
    tables["z_derived/t.csv"] = part.set_axis([f"col_{j}" for j in range(part.shape[1])],
                                              axis=1)
    engine = lake_engine(spark, tmp_path_factory, "flaglake", tables, components=UNION_ONLY)
    return engine, q


@pytest.mark.spark
def test_the_table_sharing_codes_is_scored_before_tables_a_tie_reaches(flag_lake):
    """One table scored (``max_tables=1``), two places per query column, value overlap
    only: the flags' yes/no is in all 46 flag columns alike (a tie the first columns by id,
    a_flags', would win by order), the codes in z_derived's alone: z_derived is scored."""
    from lakejoin_jupyter.search import union
    engine, q = flag_lake
    hits, _ = union.search(engine.index, q, k=5, weights={"set": 1.0}, neighbours=2,
                           max_tables=1)
    names = engine.index.tables["name"].to_numpy()
    assert [str(names[h.table_id]) for h in hits] == ["z_derived/t"]
    hits, _ = union.search(engine.index, q, k=5, weights={"set": 1.0}, neighbours=2)
    assert str(names[hits[0].table_id]) == "z_derived/t"
