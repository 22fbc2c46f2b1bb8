"""JOSIE through the engine on the Spark-built demo index, the "josie" build component, and
the distributed search (Spark) against the in-memory methods and the oracle."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from lakejoin_jupyter.demo import demo_query
from lakejoin_jupyter.index.arrays import build_arrays
from lakejoin_jupyter.search import bruteforce, distributed, josie

from test_josie import multiset, random_query, zipf_lake

pytestmark = pytest.mark.spark


def test_engine_uses_josie_by_default(demo_engine):
    df = demo_query()
    res = demo_engine.search(df, "country", k=10)
    assert res.method == "josie"
    oracle = demo_engine.search(df, "country", k=10, method="bruteforce")
    assert [h.overlap for h in res] == [h.overlap for h in oracle] and len(res) == 10
    # the method's own ranking, the frame's own table (every value) among it: bare
    # (annotate=False never reorders; annotated, the own table takes no place of k)
    bare = demo_engine.search(df, "country", k=10, annotate=False)
    bare_oracle = demo_engine.search(df, "country", k=10, method="bruteforce", annotate=False)
    assert bare.method == "josie" and len(bare) == 10
    assert [h.overlap for h in bare] == [h.overlap for h in bare_oracle]
    assert bare[0].overlap == bare.query.size > res[0].overlap
    assert all(h.exact for h in res)
    for key in ("n", "lists_read", "posting_entries_read", "sets_read", "set_tokens_read", "plan"):
        assert key in res.stats
    assert res.stats["cost_model"].startswith("fitted/")
    # the matched values really are in both columns
    hit = res[0]
    assert len(hit.matches) == hit.overlap
    assert set(hit.matches) <= set(df["country"].astype(str))
    for plan in ("josie", "mergelist"):
        forced = demo_engine.search(df, "country", k=10, plan=plan)
        assert [h.overlap for h in forced] == [h.overlap for h in res]
        assert forced.stats["plan"] == plan


def test_lake_query_excludes_its_own_column(demo_engine):
    table = "fivethirtyeight/fifa/fifa_countries_audience"
    own = demo_engine.index.find_column(table, "country")
    res = demo_engine.search(table, "country", k=20)
    assert own not in {h.column_ids[0] for h in res}
    oracle = demo_engine.search(table, "country", k=20, method="bruteforce")
    assert [h.overlap for h in res] == [h.overlap for h in oracle]
    kept = demo_engine.search(table, "country", k=10, exclude_self=False)
    assert any(h.column_ids == (own,) and h.containment == 1.0 for h in kept)


def test_josie_component_in_manifest(demo_engine):
    ix = demo_engine.index.generations[0]
    sec = ix.manifest["components"]["josie"]
    a = ix.arrays
    assert sec["lists"]["original"] == a.n_tokens
    assert sec["lists"]["distinct"] == int(a.token_group[-1]) + 1
    sizes = np.bincount(a.token_group)
    assert sec["lists"]["in_duplicate_groups"] == int(sizes[sizes > 1].sum())
    for prof in ("warm", "cold"):
        for kind in ("set", "list"):
            f = sec["costs"][prof][kind]
            assert f["samples"] > 0 and f["floor"] > 0 and f["slope"] >= 0


def test_distributed_equals_josie_on_the_demo_index(demo_engine, spark):
    df = demo_query()
    table = "fivethirtyeight/fifa/fifa_countries_audience"
    for query, col, k in ((df, "country", 10), (table, "country", 5), (df, "confederation", 3)):
        want = demo_engine.search(query, col, k=k)
        got = demo_engine.search(query, col, k=k, method="distributed")
        assert [h.overlap for h in got] == [h.overlap for h in want]
        assert got.stats["spark_master"].startswith("local")
    thr = demo_engine.search(df, "country", k=None, threshold=0.5, method="distributed")
    ref = demo_engine.search(df, "country", k=None, threshold=0.5, method="bruteforce")
    assert sorted(h.overlap for h in thr) == sorted(h.overlap for h in ref)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(1, 50))
def test_distributed_on_random_lakes(spark, tmp_path_factory, seed, k):
    sets = zipf_lake(seed, 150, 200, 5, 120)
    ref = build_arrays(sets)
    a = ref.arrays
    sizes = np.diff(a.sets_indptr)
    post = pd.DataFrame({
        "token_id": np.repeat(np.arange(a.n_tokens, dtype=np.int32), np.diff(a.post_indptr)),
        "set_id": a.post_sets, "position": a.post_pos, "set_size": a.post_sizes})
    path = tmp_path_factory.mktemp("post") / "postings.parquet"
    post.sample(frac=1.0, random_state=seed % 1000).to_parquet(path, index=False)  # any row order
    rng = np.random.default_rng(seed)
    q = ref.token_ids(random_query(rng, sets, 200, 5))
    exclude = [int(rng.integers(0, len(sets)))] if rng.random() < 0.5 else []
    got, stats = distributed.search(spark, path.as_uri(), a, q, k, exclude)
    want = bruteforce.topk(a, q, k, exclude=exclude)
    assert multiset(got) == multiset(want)
    assert multiset(josie.search(a, q, k, exclude, plan="josie")[0]) == multiset(want)
    assert stats.posting_entries_read <= int(sizes.sum())
