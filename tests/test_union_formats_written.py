"""Union search's format histograms mean the same on both sides (index/union_profile.py
``written_one_way``): a lake file's column, read back by pandas as a user would read it and
profiled as a query, has the format histogram the Spark build gave it. A CSV holds "14.0"
for an integer column with gaps (pandas: floats, rendered "14") and "True"/"False" for a
flag (pandas: booleans, rendered "true"); before format version 3 both differed, so a
query's flag had no format evidence against the lake's flags but full evidence against
"male"/"female"."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import UNION_ONLY, lake_engine


def formats_lake():
    rng = np.random.default_rng(3)
    n = 60
    counts = rng.integers(0, 50, n).astype(float)
    counts[::7] = np.nan                                   # gaps: pandas writes 14.0
    flags = pd.DataFrame({"flag": rng.random(n) < 0.5, "count": counts,
                          "name": [f"Site {i}" for i in range(n)],
                          "day": pd.date_range("2020-01-01", periods=n).strftime("%Y-%m-%d")})
    words = pd.DataFrame({"sex": rng.choice(["male", "female"], n),
                          "code": [f"A{i:03d}" for i in range(n)],
                          "ratio": np.round(rng.uniform(0, 1, n), 3)})
    return {"t/flags.csv": flags, "t/words.csv": words}


@pytest.fixture(scope="module")
def formats_index(spark, tmp_path_factory):
    engine = lake_engine(spark, tmp_path_factory, "flake", formats_lake(), components=UNION_ONLY)
    return engine, Path(engine.lake_root)


@pytest.mark.spark
def test_a_column_read_back_has_its_files_format(formats_index):
    """Oracle: for every column, the query side's histogram of the column pandas reads from
    the file equals the build's (intersection 1)."""
    from lakejoin_jupyter.index.union_profile import format_similarity
    from lakejoin_jupyter.search.union import lake_profiles, profile_column
    engine, root = formats_index
    lp = lake_profiles(engine.index)
    assert lp.format_version >= 3
    cols, tabs = engine.index.columns, engine.index.tables
    checked = 0
    for t in tabs.itertuples():
        frame = pd.read_csv(root / f"{t.name}.csv")
        for j, c in enumerate(frame.columns):
            q, _ = profile_column(frame[c], 50, lp.format_version)
            cid = t.first_column_id + j
            assert cols["name"].iloc[cid] == c
            sim = float(format_similarity(q.fmt[None], lp.fmt[cid][None])[0, 0])
            assert sim == pytest.approx(1.0, abs=1e-5), (t.name, c, sim)
            checked += 1
    assert checked == 7


@pytest.mark.spark
def test_a_flag_is_written_like_a_flag_not_like_a_word(formats_index):
    """The query's true/false column: format evidence 1 against the file's True/False, 0
    against male/female (both lower-case words, one pattern before version 3)."""
    from lakejoin_jupyter.index.union_profile import format_similarity
    from lakejoin_jupyter.search.union import lake_profiles, profile_column
    engine, _ = formats_index
    lp = lake_profiles(engine.index)
    names = list(engine.index.columns["name"])
    q, _ = profile_column(pd.Series([True, False, True], name="south"), 50, lp.format_version)
    sims = format_similarity(q.fmt[None], lp.fmt)[0]
    assert sims[names.index("flag")] == pytest.approx(1.0)
    assert sims[names.index("sex")] == 0.0


def test_written_one_way_matches_its_row_by_row_reading():
    """The Arrow path (64 texts and more) equals the one-by-one path (the oracle)."""
    from lakejoin_jupyter.index.union_profile import written_one_way
    texts = ["14.0", " True", "FALSE", "1.5", "-3.00", "x.0", "10.01", "true", "7", "0.0",
             "1.0e5", "TRUE ", "Truth", "2.50"]
    many = texts * 5
    small = [written_one_way([t]) for t in many]
    assert written_one_way(many) == ([x for o, _ in small for x in o],
                                     sum(b for _, b in small))
    assert written_one_way(texts[:4]) == (["14", "1.5"], 2)
