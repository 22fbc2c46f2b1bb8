"""The Spark build against pure-Python oracles on randomized lakes: core arrays and token
texts (index.arrays.build_arrays), MinHash signatures (datasketch), the column profile
(computed here from the cells), MATE's arrays (index.mate_arrays.build_reference) and the
join statistics (a pandas count, tests/test_joinstats.py).

Each lake mixes formats, shares values between columns (identical posting lists, ties in
frequency), spells one value several ways (one token, several raw texts), holds nulls,
placeholders, over-long texts and unreadable files, and is read in many small batches and
chunks, so the long form's parts, their order and the raw-text -> token map are exercised."""
import json
import random
import re
from collections import Counter
from dataclasses import fields

import mmh3
import numpy as np
import pandas as pd
import pytest
from datasketch import MinHash

from conftest import write_lake
from test_joinstats import assert_stats_equal, pandas_stats
from lakejoin_jupyter.config import BuildSettings
from lakejoin_jupyter.index.arrays import build_arrays
from lakejoin_jupyter.index.mate_arrays import build_reference, load
from lakejoin_jupyter.index.store import LakeIndex
from lakejoin_jupyter.indexing import dictionary as dictionary_job
from lakejoin_jupyter.indexing import read as read_job
from lakejoin_jupyter.indexing.pipeline import build
from lakejoin_jupyter.lake.normalize import MAX_TOKEN_CHARS, normalize_many
from lakejoin_jupyter.lake.read import TableInfo, read_table
from lakejoin_jupyter.xash import XashSpec

pytestmark = pytest.mark.spark

WORDS = ["Paris", "paris", " PARIS ", "Lyon", "Nice", "Côte d'Ivoire", "São Paulo", "007", "7",
         "7.0", "2.50", "-0", "n/a", "-", "", "x" * (MAX_TOKEN_CHARS + 3), "2020-01-05", "true",
         "ﬁne", "fine", "a b", "a  b", "İstanbul", "1e3", "1000"]


def random_lake(root, seed: int) -> dict:
    rnd = random.Random(seed)
    tables = {}
    for t in range(rnd.randint(4, 9)):
        fmt = rnd.choice(["csv", "csv", "tsv", "parquet", "jsonl"])
        n_rows = rnd.choice([0, 1, 3, 17, 60])
        n_cols = rnd.randint(1, 5)
        cols = {}
        for c in range(n_cols):
            kind = rnd.random()
            if kind < 0.3:                                     # shared small vocabulary
                vals = [rnd.choice(WORDS) for _ in range(n_rows)]
            elif kind < 0.5:                                   # a copy of an earlier column
                vals = list(next(iter(cols.values()))) if cols else [str(i) for i in range(n_rows)]
            elif kind < 0.7:                                   # numbers with many spellings
                vals = [rnd.choice(["", "0", "00", str(rnd.randint(0, 9)), f"{rnd.random():.2f}"])
                        for _ in range(n_rows)]
            else:                                              # mostly distinct
                vals = [f"v{rnd.randint(0, 40)}" if rnd.random() > 0.1 else None
                        for _ in range(n_rows)]
            cols[f"c{c}"] = vals
        df = pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in cols.items()}) \
            if n_rows else pd.DataFrame({k: pd.Series([], dtype=object) for k in cols})
        tables[f"d{t % 3}/t{t}.{fmt}"] = df
    tables["broken.csv"] = b"PK\x03\x04 not a table"
    return tables


def python_tables(ix):
    ids, out = [], []
    for _, t in ix.tables.sort_values("table_id").iterrows():
        if t["status"] == "indexed":
            ids.append(int(t["table_id"]))
            out.append(read_table(TableInfo.from_json(t["info"])))
    return ids, out


def profile_oracle(values: list) -> dict:
    cells = [v for v in values if v is not None]
    toks = normalize_many(cells)
    distinct = {t for t in toks if t is not None}
    keyed = Counter(v for v, t in zip(cells, toks) if t is not None)
    n = len(distinct)
    share = lambda rx: sum(bool(re.fullmatch(rx, t)) for t in distinct)  # noqa: E731
    n_int = share(r"-?[0-9]+")
    n_num = share(r"-?([0-9]+(\.[0-9]+)?|\.[0-9]+)(e[+-]?[0-9]+)?")
    kind = "empty" if not n else next(
        (name for name, k in (("integer", n_int if n_num == n_int else 0),   # no fraction
                              ("float", n_num),
                              ("date", share(r"([0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([ t][0-9:.]+"
                                             r"(z|[+-][0-9]{2}(:?[0-9]{2})?)?)?"
                                             r"|[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4})")),
                              ("boolean", sum(t in ("true", "false", "yes", "no", "t", "f", "y", "n")
                                              for t in distinct)))
         if k >= 0.9 * n), "string")
    return {"n_values": len(cells), "n_keyless": sum(t is None for t in toks),
            "n_too_long": sum(t is None and len(v) > MAX_TOKEN_CHARS for v, t in zip(cells, toks)),
            "n_distinct": n, "max_len": max((len(t) for t in distinct), default=0), "type": kind,
            "samples": [v for v, _ in sorted(keyed.items(), key=lambda kv: (-kv[1], kv[0]))[:5]]}


@pytest.mark.parametrize("seed, grouping, global_sort",
                         [(1, "spark sql", "spark"), (2, "python", "spark"), (3, "python", "driver")])
def test_random_lake_build_equals_oracles(spark, tmp_path, monkeypatch, seed, grouping,
                                          global_sort):
    if grouping == "spark sql":                              # the large-lake grouping
        monkeypatch.setattr(dictionary_job, "PYTHON_GROUPING_BYTES", -1)
    if global_sort == "spark":                               # the large-lake sort
        monkeypatch.setattr(dictionary_job, "DRIVER_SORT_TOKENS", 0)
    monkeypatch.setattr(read_job, "BATCH_BYTES", 300)        # many read tasks ...
    monkeypatch.setattr(read_job, "CHUNK_CELLS", 40)         # ... each writing many parts
    lake = write_lake(tmp_path / "lake", random_lake(tmp_path, seed))
    out = tmp_path / "lake.index"
    key = "spark.sql.adaptive.coalescePartitions.enabled"    # the sorts: several ranges
    before = spark.conf.get(key)
    spark.conf.set(key, "false")
    try:
        build(lake, out, spark=spark, progress=False,
              settings=BuildSettings(components=("-lshensemble", "-josie")))
    finally:
        spark.conf.set(key, before)
    ix = LakeIndex(out, check_lake=False).generations[0]
    assert not (out / "_build").exists()                     # the scratch folder is gone
    ids, frames = python_tables(ix)

    sets = [sorted({t for t in normalize_many(df[c].tolist()) if t is not None})
            for df in frames for c in df.columns]
    ref = build_arrays(sets)
    assert ix.arrays.n_sets == len(sets)
    for f in fields(ref.arrays):
        assert np.array_equal(getattr(ix.arrays, f.name), getattr(ref.arrays, f.name)), f.name
    assert ix.token_text(range(ix.n_tokens)) == ref.tokens

    mh = ix.manifest["components"]["minhash"]
    for cid, toks in enumerate(sets):
        m = MinHash(num_perm=mh["num_perm"], seed=mh["seed"],
                    hashfunc=lambda s: mmh3.hash(s, signed=False))
        for t in toks:
            m.update(t)
        assert np.array_equal(ix.signatures[cid], m.hashvalues), cid

    cols = ix.columns
    cid = 0
    for tid, df in zip(ids, frames):
        n_rows = int(ix.tables.set_index("table_id").loc[tid, "n_rows"])
        assert n_rows == len(df)
        for c in df.columns:
            want = profile_oracle(df[c].tolist())
            got = cols.iloc[cid]
            assert got["name"] == c and int(got["table_id"]) == tid
            for k, v in want.items():
                g = list(got[k]) if k == "samples" else got[k]
                assert g == v, (tid, c, k)
            assert got["n_null"] == n_rows - want["n_values"]
            cid += 1

    token_id = {t: i for i, t in enumerate(ref.tokens)}
    rows = [[list(r) for r in zip(*[normalize_many(df[c].tolist()) for c in df.columns])]
            for df in frames]
    assert load(ix).equals(build_reference(rows, token_id, ix.n_tokens, XashSpec(128), ids))
    assert_stats_equal(ix.joinstats, pandas_stats([df[c].tolist() for df in frames
                                                   for c in df.columns], token_id))
    broken = ix.tables[ix.tables["path"] == "broken.csv"].iloc[0]
    assert broken["status"] == "skipped" and "ZIP" in json.loads(broken["info"])["error"]
