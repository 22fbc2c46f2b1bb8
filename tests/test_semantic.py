"""The semantic embedder (embedder="semantic": the model that ships inside its package),
without a skip: it loads with the network closed, puts synonyms and abbreviations of real
names next to each other, PEXESO on its vectors equals brute force, the distance profile and
the default tau a build records, the Spark build on it, and the fuzzy join's "semantic"
join function."""
from __future__ import annotations

import socket

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.embed import SEMANTIC, cached_embedder, get_embedder
from lakejoin_jupyter.index import pexeso_arrays as pa
from lakejoin_jupyter.search import pexeso as px

# real names: (variant, the name a reference table writes, a name of another entity that
# shares its vocabulary)
SYNONYMS = [("UK", "United Kingdom", "Ukraine"), ("Viet Nam", "Vietnam", "Cambodia"),
            ("USA", "United States", "Mexico"), ("Czechia", "Czech Republic", "Slovakia"),
            ("Ivory Coast", "Côte d'Ivoire", "Ghana"), ("Deutschland", "Germany", "Denmark"),
            ("Calif.", "California", "Colorado"), ("Holland", "Netherlands", "Belgium")]
NAMES = sorted({n for t in SYNONYMS for n in t} | {
    "France", "Spain", "Italy", "Japan", "China", "India", "Brazil", "Canada", "Peru", "Chile",
    "Niger", "Nigeria", "Austria", "Australia", "Iran", "Iraq", "Sweden", "Switzerland",
    "New York", "New Jersey", "Texas", "Georgia", "French", "German", "Paris", "Berlin"})


@pytest.fixture(scope="module")
def emb():
    return cached_embedder("semantic")


@pytest.fixture(scope="module")
def name_vectors(emb):
    return emb.embed(NAMES)


def test_semantic_loads_with_the_network_closed(monkeypatch):
    """Loading and embedding never touch the network (the weights are in the package)."""
    def refuse(*a, **k):
        raise AssertionError("the semantic embedder opened a network connection")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    e = get_embedder("semantic")
    assert e.spec()["name"] == SEMANTIC and e.dim == e.embed(["x"]).shape[1]


def test_semantic_vectors_are_unit_and_synonyms_are_nearest(emb, name_vectors):
    v = name_vectors
    assert v.dtype == np.float32 and v.shape == (len(NAMES), emb.dim)
    assert np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-5)
    assert np.array_equal(emb.embed(NAMES[:5]), emb.embed(NAMES[:5]))      # deterministic
    assert emb.embed([]).shape == (0, emb.dim)
    idx = {n: i for i, n in enumerate(NAMES)}
    for variant, name, other in SYNONYMS:
        d_syn = np.linalg.norm(v[idx[variant]] - v[idx[name]])
        d_other = np.linalg.norm(v[idx[variant]] - v[idx[other]])
        assert d_syn < d_other, (variant, name, other, d_syn, d_other)
    # "semantic" is a name: the manifest records the concrete model, which reloads it
    assert get_embedder(emb.spec()).spec() == emb.spec()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), level=st.sampled_from([0.0, 0.02, 0.1, 0.3, 0.6]),
       T=st.sampled_from([0.1, 0.3, 0.6]), n_pivots=st.integers(1, 6), levels=st.integers(1, 4))
def test_pexeso_on_semantic_vectors_equals_bruteforce(name_vectors, seed, level, T, n_pivots,
                                                      levels):
    """Exactness on the model's own geometry (short names crowd together; tau at a
    quantile of the names' own distances, so many pairs sit near it): every plan's columns
    and counts are the literal definition's."""
    rng = np.random.default_rng(seed)
    vec = name_vectors
    n = len(vec)
    d = np.linalg.norm(vec[:, None, :].astype(np.float64) - vec[None, :, :], axis=-1)
    tau = float(np.quantile(d[np.triu_indices(n, 1)], level))
    sets = [np.unique(rng.integers(0, n, rng.integers(1, 16))) for _ in range(8)]
    indptr = np.r_[0, np.cumsum([len(s) for s in sets])].astype(np.int64)
    toks = np.concatenate(sets).astype(np.int32)
    q = vec[rng.choice(n, int(rng.integers(1, 20)), replace=False)]
    part = pa.build_partition(vec, indptr, toks, n_pivots=n_pivots, levels=levels)
    want = px.bruteforce(vec, indptr, toks, q, tau)
    t_abs = px.t_count(T, len(q))
    for plan in ("pexeso", "bruteforce"):
        res = px.search([part], vec, q, tau, T, len(sets), plan=plan)
        got = dict(zip(res.columns.tolist(), res.counts.tolist()))
        assert got == {c: int(k) for c, k in enumerate(want) if k >= t_abs}, plan


def test_nearest_other_is_the_definition():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((40, 5))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    x[7] = x[3]                                  # one value to the embedder: not a neighbour
    got = pa.nearest_other(x)
    want = []
    for i in range(len(x)):
        d = [np.linalg.norm(x[i] - x[j]) for j in range(len(x)) if j != i]
        d = [v for v in d if v > pa.SAME_VECTOR]
        if d:
            want.append(min(d))
    assert np.allclose(got, want)
    assert len(pa.nearest_other(x[:1])) == 0
    assert len(pa.nearest_other(np.vstack([x[3], x[3]]))) == 0


def test_default_tau_is_the_embedders_quantile_of_the_profile_at_least_its_floor():
    d = np.linspace(0.0, 1.0, 1001)
    prof = pa.distance_profile(d, columns=3)
    assert prof["values"] == 1001 and prof["columns"] == 3
    for name in ("ngram", SEMANTIC, "something-else"):
        level = pa.TAU_QUANTILE.get(name, pa.TAU_QUANTILE_OTHER)
        want = max(level, pa.TAU_FLOOR.get(name, 0.0))
        assert pa.default_tau(prof, name) == pytest.approx(want, abs=1e-3)
    # the n-gram typo floor: above its quantile of a lake's profile, and without a profile
    assert pa.default_tau(prof, "ngram") == pa.TAU_FLOOR["ngram"] > pa.TAU_QUANTILE["ngram"]
    assert pa.default_tau(pa.distance_profile(d + 0.9, columns=3), "ngram") == \
        pytest.approx(0.9 + pa.TAU_QUANTILE["ngram"], abs=1e-3)
    assert pa.default_tau(None, "ngram") == pa.TAU_FLOOR["ngram"]
    assert pa.default_tau(pa.distance_profile(np.zeros(0), 0), "ngram") == pa.TAU_FLOOR["ngram"]
    assert pa.default_tau(None, "something-else") is None
    assert "at least 0.8" in pa.default_tau_rule("ngram")
    assert "at least" not in pa.default_tau_rule("something-else")


# ----------------------------------------------------------------------------- Spark build

SEMANTIC_LAKE = {
    "countries.csv": pd.DataFrame({
        "country": ["United Kingdom", "United States", "Vietnam", "Czech Republic", "Germany",
                    "France", "Japan", "Netherlands", "Brazil", "Côte d'Ivoire"],
        "gdp": ["3.1", "25.4", "0.4", "0.3", "4.1", "2.8", "4.2", "1.0", "1.9", "0.07"]}),
    "nationalities.csv": pd.DataFrame({
        "demonym": ["British", "American", "Vietnamese", "Czech", "German", "French",
                    "Japanese", "Dutch", "Brazilian", "Ivorian"]}),
    "cities.csv": pd.DataFrame({"city": ["London", "Washington", "Hanoi", "Prague", "Berlin",
                                         "Paris", "Tokyo", "Amsterdam", "Brasília", "Abidjan"],
                                "pop": ["9", "0.7", "8", "1.3", "3.6", "2.1", "14", "0.9", "4.8",
                                        "5.6"]}),
}


@pytest.fixture(scope="module")
def semantic_index(spark, tmp_path_factory):
    from conftest import write_lake

    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    root = tmp_path_factory.mktemp("semlake")
    lake = write_lake(root / "lake", SEMANTIC_LAKE)
    build(lake, root / "ix", spark=spark, progress=False, settings=BuildSettings(
        components=("pexeso",), component_options={"pexeso": {"embedder": "semantic",
                                                               "pivots": 3}}))
    return root / "ix"


@pytest.mark.spark
def test_semantic_build_embeds_text_records_profile_and_default_tau(semantic_index, emb):
    from lakejoin_jupyter import open_index
    eng = open_index(semantic_index)
    ix = eng.index.generations[0]
    sec = ix.components["pexeso"]
    assert sec["embedder"] == emb.spec() and sec["values"] == "text"
    tokens = np.asarray(ix.token_text(np.arange(ix.n_tokens)), dtype=object)
    text = np.array([any(ch.isalpha() for ch in t) for t in tokens])
    vec = ix.load_npy("pexeso/vectors.npy")
    # text values carry the model's vectors (to float32 rounding: batches differ), numbers none
    assert np.allclose(vec[text], emb.embed(list(tokens[text])), atol=1e-5)
    assert not vec[~text].any()
    assert sec["partitions"][0]["vectors"] == int(text.sum())
    # the profile: every column's text values (3 columns < PROFILE_COLUMNS), nearest others
    a = ix.arrays
    dists = np.concatenate([pa.nearest_other(vec[[t for t in a.sets_tokens[a.sets_indptr[c]:
                                                                          a.sets_indptr[c + 1]]
                                                  if text[t]]])
                            for c in range(a.n_sets)])
    prof = pa.distance_profile(dists, columns=3)
    assert sec["distance_profile"]["values"] == prof["values"] == 30
    assert np.allclose(sec["distance_profile"]["quantiles"], prof["quantiles"], atol=1e-5)
    assert sec["default_tau"] == pa.default_tau(prof, emb.name)
    assert sec["default_tau"] in sec["plan_model"][0]["taus"]     # the plan is priced there
    assert sec["embedding"]["values"] == ix.n_tokens and sec["embedding"]["seconds"] > 0


@pytest.mark.spark
def test_semantic_search_defaults_find_synonyms_exactly(semantic_index, emb):
    from lakejoin_jupyter import open_index
    eng = open_index(semantic_index)
    ix = eng.index.generations[0]
    sec = ix.components["pexeso"]
    vec = ix.load_npy("pexeso/vectors.npy")
    a = ix.arrays
    tokens = np.asarray(ix.token_text(np.arange(ix.n_tokens)), dtype=object)
    text = np.array([any(ch.isalpha() for ch in t) for t in tokens])
    keep = [np.array([t for t in a.sets_tokens[a.sets_indptr[c]:a.sets_indptr[c + 1]] if text[t]],
                     dtype=np.int64) for c in range(a.n_sets)]
    indptr = np.r_[0, np.cumsum([len(k) for k in keep])].astype(np.int64)
    toks = np.concatenate(keep)
    q = pd.DataFrame({"c": ["UK", "USA", "Viet Nam", "Czechia", "Deutschland", "Holland",
                            "Japan", "France"]})
    equal = eng.search(q, "c", k=None, threshold=0.6)
    assert not len(equal)                      # equality finds no column
    res = eng.search(q, "c", method="pexeso", k=None)        # no options: the defaults
    assert res.stats["tau"] == sec["default_tau"] and res.stats["T"] == px.DEFAULT_T
    qv = emb.embed(res.query.tokens)
    bf = px.bruteforce(vec, indptr, toks, qv, res.stats["tau"])
    t_abs = px.t_count(px.DEFAULT_T, len(qv))
    assert {h.column_ids[0]: h.overlap for h in res} == \
        {c: int(n) for c, n in enumerate(bf) if n >= t_abs}
    # the country column comes first (on a lake this small the default tau, a quantile of
    # 30 distances, also reaches the demonyms: "German" is near "Deutschland")
    assert (res[0].table, res[0].column) == ("countries", "country") and res[0].overlap >= 6
    assert {h.table for h in res} <= {"countries", "nationalities"}
    pairs = {p[0]: p[1] for p in res[0].details["pairs"]}
    assert pairs.get("UK") == "united kingdom" and pairs.get("Viet Nam") == "vietnam"
    for plan in ("pexeso", "bruteforce"):
        r2 = eng.search(q, "c", method="pexeso", k=None, plan=plan)
        assert [(h.column_ids, h.overlap) for h in r2] == [(h.column_ids, h.overlap) for h in res]


# ----------------------------------------------------------------------------- fuzzy join

def test_fuzzy_join_semantic_function_joins_abbreviations():
    from lakejoin_jupyter.join.fuzzy import (JOIN_FUNCTIONS, SEMANTIC_MAX_VALUES,
                                             default_functions, fuzzy_join)
    assert "semantic" in default_functions(SEMANTIC_MAX_VALUES) and "semantic" in JOIN_FUNCTIONS
    assert "semantic" not in default_functions(SEMANTIC_MAX_VALUES + 1)
    left = pd.DataFrame({"name": ["United Kingdom", "United States", "Germany", "France",
                                  "Japan", "Brazil", "Netherlands", "Vietnam", "Spain", "Italy",
                                  "Ukraine", "Mexico"]})
    right = pd.DataFrame({"country": ["UK", "USA", "Deutschland", "Holland", "Viet Nam"]})
    fj = fuzzy_join(left, right, on=("name", "country"), functions=["semantic"],
                    precision_target=0.5)
    got = dict(zip(fj.matches()["right"], fj.matches()["left"]))
    assert got.get("UK") == "United Kingdom" and got.get("USA") == "United States"
    assert got.get("Viet Nam") == "Vietnam"
    assert all(got[r] != "Ukraine" for r in got)
    # the n-gram functions alone join neither abbreviation to its partner
    ng = fuzzy_join(left, right, on=("name", "country"),
                    functions=[f for f in JOIN_FUNCTIONS if f != "semantic"],
                    precision_target=0.5)
    ng_got = dict(zip(ng.matches()["right"], ng.matches()["left"]))
    assert ng_got.get("UK") != "United Kingdom" and ng_got.get("USA") != "United States"


def test_fuzzy_join_short_codes_meet_the_target():
    """The user's miss: every country's ISO 3166 alpha-2 code joined to the Americas'
    codes, lower-cased (57 of 249 codes have a partner). The semantic function's embeddings
    of two-letter codes put a code without a partner nearer its nearest code than the plain
    decoys expect, so their pi0 came out 0.61 against a true 0.77 and the join estimated
    95 % where it achieved 79 %; with the decoys corrected for their rank
    (RANK_CORRECTED) it reaches the target (bench/results/fuzzyjoin_small.md)."""
    from pathlib import Path
    from lakejoin_jupyter.join.fuzzy import fuzzy_join
    cc = pd.read_csv(Path(__file__).resolve().parents[1] / "lakejoin_jupyter/demo_lake/"
                     "reference/country-codes.csv", keep_default_na=False, dtype=str)
    cc = cc[cc["ISO3166-1-Alpha-2"].str.len() == 2]
    left = pd.DataFrame({"code": cc.loc[cc["Region Name"] == "Americas",
                                        "ISO3166-1-Alpha-2"].str.lower()})
    right = pd.DataFrame({"iso2": cc["ISO3166-1-Alpha-2"]})
    fj = fuzzy_join(left, right, on=("code", "iso2"), precision_target=0.9)
    true_pi0 = 1 - 57 / 249                        # codes whose nearest is not their partner
    assert abs(fj._cands["semantic"].pi0 - true_pi0) < 0.05      # plain decoys: 0.61
    m = fj.matches()
    assert "semantic" in set(m.function)
    assert (m.right.str.lower() == m.left).mean() >= 0.85    # 0.905; plain decoys 0.792
    assert len(m) >= 57
