"""Table union search: the build's column profiles, the alignment and ranking against a brute
force over every table and every matching, and the union plan's code reproducing its frame."""
from __future__ import annotations

import contextlib
import io
import itertools
import os
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.errors import QueryError
from lakejoin_jupyter.index import union_profile as up
from lakejoin_jupyter.search import union as us

from conftest import UNION_ONLY, lake_engine


# ----------------------------------------------------------------------- alignment oracle

def brute_alignment(S: np.ndarray, min_column: float, pairs: bool = False):
    """The best sum over every partial injective map of rows to columns (pairs >= min);
    ``pairs``: (the sum, the first map reaching it)."""
    n, m = S.shape
    best, where = 0.0, []
    for r in range(0, min(n, m) + 1):
        for rows in itertools.combinations(range(n), r):
            for cols in itertools.permutations(range(m), r):
                vals = [S[i, j] for i, j in zip(rows, cols)]
                if all(v >= min_column for v in vals) and float(sum(vals)) > best:
                    best, where = float(sum(vals)), list(zip(rows, cols))
    return (best, where) if pairs else best


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5), st.integers(0, 2**31 - 1),
       st.sampled_from([0.0, 0.3, 0.5, 0.8]))
def test_best_alignment_is_the_best_matching(n, m, seed, min_column):
    S = np.round(np.random.default_rng(seed).random((n, m)), 2)
    pairs, total = us.best_alignment(S, min_column)
    assert total == pytest.approx(brute_alignment(S, min_column))
    assert total == pytest.approx(sum(S[i, j] for i, j in pairs))
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    assert all(S[i, j] >= min_column for i, j in pairs)


def test_set_statistic_bounds_the_hypergeometric_tail():
    from scipy.stats import hypergeom
    rng = np.random.default_rng(3)
    for _ in range(300):
        na, nb = rng.integers(1, 300, 2)
        t = rng.integers(1, min(na, nb) + 1)
        # the tail given that the columns meet (t >= 1)
        exact = -np.log10(max(hypergeom.sf(t - 1, na + nb, na, nb), 1e-300)) \
            + np.log10(hypergeom.sf(0, na + nb, na, nb))
        got = up.set_statistic(t, na, nb)
        assert got <= exact + 1e-6           # the bound: the tail is at most pmf / (1 - r)
        assert got >= exact - 1.0 or got == 0.0   # and within a factor of 10 of it


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=21, max_size=21),
       st.lists(st.integers(-5, 5), min_size=21, max_size=21))
def test_ks_similarity_is_scipy_two_sample_ks(a, b):
    from scipy.stats import ks_2samp
    a, b = np.sort(np.array(a, float)), np.sort(np.array(b, float))
    assert up.ks_similarity(a, b) == pytest.approx(1 - ks_2samp(a, b).statistic)
    both = up.ks_similarity(np.stack([a, b]), np.stack([b, b]))
    assert both.shape == (2, 2) and both[1, 1] == pytest.approx(1.0)
    assert both[0, 0] == pytest.approx(1 - ks_2samp(a, b).statistic)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 3), st.integers(1, 8), st.integers(0, 12))
def test_likelihoods_are_the_share_of_the_other_background_columns_beaten(seed, nq, m, nbg):
    """Brute force: the share of the background columns, other than the column itself, whose
    value it beats strictly (NaN left out; no other column: the raw value clipped to 0-1),
    fewer than MIN_BACKGROUND completed with copies of the background's median."""
    rng = np.random.default_rng(seed)
    lake = rng.choice([0.0, 0.2, 0.5, 0.9, 1.0, np.nan], size=(nq, 20))   # ties and NaN
    bg_ids = np.sort(rng.choice(20, size=nbg, replace=False))
    ids = rng.choice(20, size=m, replace=False)
    chance = rng.random((nq, m)) < 0.3
    got = us.likelihoods({"set": lake[:, ids]}, {"set": lake[:, bg_ids]}, ids, bg_ids,
                         chance)["set"]
    for r in range(nq):
        for j, cid in enumerate(ids):
            x = lake[r, cid]
            others = [lake[r, c] for c in bg_ids if c != cid and not np.isnan(lake[r, c])]
            if np.isnan(x):
                assert np.isnan(got[r, j])
            elif not others:
                assert got[r, j] == pytest.approx(min(max(x, 0.0), 1.0))
            else:
                fill = max(us.MIN_BACKGROUND - len(others), 0)
                med = sorted(v for v in lake[r, bg_ids] if not np.isnan(v))[
                    (sum(~np.isnan(lake[r, bg_ids])) - 1) // 2]
                # a chance overlap (marked) beats nothing where the background was completed
                assert got[r, j] == pytest.approx(0.0 if fill and chance[r, j] else
                    (sum(v < x for v in others) + fill * (x > med)) / (len(others) + fill))


def _numeric_summary_of_cells(cell_tokens):
    toks = [t for t in cell_tokens if t is not None]
    x = np.asarray([float(t) for t in toks if up._NUMERIC_TOKEN.fullmatch(t)], dtype=np.float64)
    share = len(x) / len(toks) if toks else 0.0
    q = (np.quantile(x, up.QUANTILES, method="inverted_cdf") if len(x)
         else np.full(len(up.QUANTILES), np.nan))
    return share, len(x), q


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.sampled_from(
           ["1", "-2.5", "1e3", ".5", "007", "abc", "1,000", "12", "-0", "3.25", "x1"])),
                          st.integers(1, 4)), max_size=12))
def test_numeric_summary_counted_is_the_summary_of_the_cells(pairs):
    """Each distinct token tested once, weighted by its cells: the same share, count and
    quantiles as a summary over every cell (the build's, before it read each text once)."""
    tokens = [t for t, _ in pairs]
    counts = [n for _, n in pairs]
    cells = [t for t, n in pairs for _ in range(n)]
    got = up.numeric_summary_counted(tokens, counts)
    want = _numeric_summary_of_cells(cells)
    assert got[0] == pytest.approx(want[0]) and got[1] == want[1]
    np.testing.assert_array_equal(got[2], want[2])


# ----------------------------------------------------------------------- a random lake

def _domains(rng):
    names = ["".join(rng.choice(list("bcdfghklmnprstvz"), 1).tolist() +
                     rng.choice(list("aeiou"), 1).tolist() +
                     rng.choice(list("bcdfghklmnprstvz"), 1).tolist() +
                     rng.choice(list("aeiou"), 1).tolist()).capitalize() for _ in range(300)]
    return {
        "city": lambda n: rng.choice(names[:150], n),
        "person": lambda n: rng.choice(names[150:], n),
        "code": lambda n: [f"{a}-{b:03d}" for a, b in zip(rng.choice(["AB", "CD", "EF"], n),
                                                          rng.integers(0, 999, n))],
        "amount": lambda n: np.round(rng.normal(1000, 150, n), 2),
        "year": lambda n: rng.integers(1950, 2021, n),
        "share": lambda n: np.round(rng.random(n), 3),
        "flag": lambda n: rng.choice(["yes", "no"], n),
    }


LAKE_SPEC = {   # table -> its columns' domains
    "sales.csv": ["city", "amount", "year", "code"],
    "people.csv": ["person", "year", "flag"],
    "scores.csv": ["share", "person", "code"],
    "towns.csv": ["city", "share", "flag"],
    "mix.csv": ["code", "amount", "person", "year", "share"],
    "other/sales_copy.csv": ["city", "amount", "year"],
}


@pytest.fixture(scope="module")
def union_lake(spark, tmp_path_factory):
    rng = np.random.default_rng(11)
    dom = _domains(rng)
    tables = {}
    for name, doms in LAKE_SPEC.items():
        n = int(rng.integers(30, 80))
        tables[name] = pd.DataFrame({f"{d}_{i}": dom[d](n) for i, d in enumerate(doms)})
    # texts without a token ("n/a", "-") among a column's values (their hash is null), in a
    # column of more distinct values than the vector sample takes (the hashes then choose)
    n = 120
    tables["notes.csv"] = pd.DataFrame({
        "ref": [f"R-{i:03d}" if i % 7 else "n/a" for i in range(n)],
        "remark": rng.choice(["late", "on time", "-", "early", "#N/A"], n),
        "score": [str(round(float(x), 1)) if x > 0.2 else "-" for x in rng.random(n)]})
    engine = lake_engine(spark, tmp_path_factory, "ulake", tables, components=UNION_ONLY)
    return engine, tables, dom


@pytest.mark.parametrize("vector_min", [None, 0])
def test_build_profiles_equal_the_query_side_profiles(union_lake, monkeypatch, vector_min):
    """The Spark component's arrays equal the profile functions on each table's cells (the
    query side value by value, as these small columns go, and all at once: vector_min 0)."""
    if vector_min is not None:
        monkeypatch.setattr(us, "VECTOR_MIN", vector_min)
        monkeypatch.setattr(up, "PATTERN_VECTOR_MIN", vector_min)
    engine, tables, _ = union_lake
    lp = us.lake_profiles(engine.index)
    emb = us.cached_embedder(lp.embedder)
    cols = engine.index.columns
    for name in engine.index.tables["name"]:
        frame = engine.table(name)
        prof = us.profile_frame(frame, emb, lp.sample_values)
        for q in prof:
            cid = engine.index.find_column(name, q.name)
            np.testing.assert_allclose(lp.fmt[cid], q.fmt, atol=1e-6)
            assert lp.share[cid] == pytest.approx(q.share)
            assert lp.n_num[cid] == q.n_num
            np.testing.assert_allclose(lp.quantiles[cid], q.quantiles, equal_nan=True)
            np.testing.assert_allclose(lp.vectors[cid], q.vector, atol=1e-5)
            assert lp.sizes[cid] == len(q.tokens)
    assert len(cols) == len(lp.sizes)


def folded(name) -> str | None:
    """The name rule's folded name, by regular expression (None: no letter)."""
    import re
    import unicodedata
    key = re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", str(name)).casefold())
    return key if re.search(r"[^\W\d_]", key) else None


def kind_by_hand(texts) -> str:
    """dates / text of distinct normalized texts, one value at a time (dateutil)."""
    import warnings

    from dateutil import parser
    texts = [t for t in texts if t]
    ok = 0
    for t in texts[:us.KIND_SAMPLE]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                parser.parse(t)
            ok += any(c.isdigit() for c in t)
        except (ValueError, OverflowError):
            pass
    return "date" if texts and ok >= us.DATE_SHARE * min(len(texts), us.KIND_SAMPLE) else "text"


def brute_search(index, frame, k, weights=None, min_column=us.MIN_COLUMN, aligned=None):
    """Every table, every column, every matching: the ranking search() must return.
    ``aligned`` (a dict): table id -> {query position: (lake column id, by name)}, the value
    alignment completed by the name rule, checked pair by pair."""
    lp = us.lake_profiles(index)
    qcols = us.profile_frame(frame, us.cached_embedder(lp.embedder), lp.sample_values)
    weights = us.WEIGHTS if weights is None else weights
    out = []
    t = index.tables
    lake_sets = []
    for cid in range(len(lp.sizes)):
        gen, local = index.generation_of(int(cid))
        lake_sets.append(set(gen.token_text(gen.arrays.set_tokens(local))))
    bg_ids = [int(c) for c in lp.background]
    for tid, first, m in zip(t["table_id"], t["first_column_id"], t["n_columns"]):
        ids = np.arange(first, first + m)
        S = np.zeros((len(qcols), m))
        R = np.ones((len(qcols), m))     # a small lake: a pair's share by its test's reach
        evident = np.zeros((len(qcols), m), dtype=bool)   # set or header likelihood above 0
        named_or_shared = np.zeros((len(qcols), m), dtype=bool)  # the same, text included
        unshared = np.zeros((len(qcols), m), dtype=bool)   # no value beyond chance, no name
        same_name = np.zeros((len(qcols), m), dtype=bool)  # the same folded name
        set_u = np.zeros((len(qcols), m))
        small = int((lp.sizes > 0).sum()) <= us.MIN_BACKGROUND
        for i, q in enumerate(qcols):
            ov = us.overlaps(index, q.tokens)
            # |Q ∩ X| the slow way, from the lake column's own tokens
            for j, cid in enumerate(ids):
                assert ov[cid] == len(lake_sets[cid] & set(q.tokens))
            bg = us.evidence([q], us.lake_part(lp, lp.background), ov[None], lp,
                             background=True)
            ev = us.evidence([q], us.lake_part(lp, ids), ov[None], lp)
            # the largest set statistic the two columns allow (one holds the other's values)
            pop = us.set_population([q], ids, lp)[0]
            top = [up.set_statistic(min(len(q.tokens), lp.sizes[c]), len(q.tokens), lp.sizes[c],
                                    pop[j]) for j, c in enumerate(ids)]
            for j, c in enumerate(ids):
                if small and len(q.tokens) >= 2 and lp.sizes[c] >= 2:
                    R[i, j] = min(1.0, top[j] / us.SIGNIFICANT)
            # the likelihoods by hand: the share of the other background columns beaten,
            # the query column's partners (values shared beyond chance) not counted
            partner = bg["set"][0] >= us.SIGNIFICANT
            u = {}
            for e in us.EVIDENCE:
                u[e] = np.full((1, m), np.nan)
                for j, cid in enumerate(ids):
                    x = ev[e][0, j]
                    others = [v for c, v, p in zip(bg_ids, bg[e][0], partner)
                              if c != cid and not np.isnan(v) and not p]
                    every = sorted(v for v, p in zip(bg[e][0], partner) if not np.isnan(v) and not p)
                    fill = max(us.MIN_BACKGROUND - len(others), 0)
                    if not np.isnan(x):
                        u[e][0, j] = ((sum(v < x for v in others)
                                       + fill * (x > every[(len(every) - 1) // 2]))
                                      / (len(others) + fill) if others
                                      else min(max(x, 0.0), 1.0))
                    # a small lake: an overlap under p = 0.05 where the test could reach it
                    if (e == "set" and others and fill and x < us.SIGNIFICANT
                            and top[j] >= us.SIGNIFICANT):
                        u[e][0, j] = 0.0
            # values shared beyond chance: written alike on at least the share held
            for j, cid in enumerate(ids):
                if ev["set"][0, j] >= us.SIGNIFICANT and not np.isnan(u["format"][0, j]):
                    u["format"][0, j] = max(u["format"][0, j], ov[cid] / len(q.tokens))
            # two columns of the table sharing a text column's values: set scaled by the
            # overlap over the table's largest
            most = max(int(ov[c]) for c in ids)
            for j, cid in enumerate(ids):
                if most and not q.numeric:
                    u["set"][0, j] *= ov[cid] / most
            S[i] = us.ensemble(u, weights, us.SHARPNESS)[0]
            names = index.columns["name"].to_numpy()
            same_name[i] = [folded(q.name) is not None and folded(names[c]) == folded(q.name)
                            for c in ids]
            # values beyond chance or the same name: not aligned by kind alone
            named_or_shared[i] = (np.nan_to_num(u["set"][0]) > 0) | same_name[i]
            evident[i] = (np.nan_to_num(u["set"][0]) > 0) \
                | (np.nan_to_num(u["header"][0]) > 0) | (not q.numeric)
            for j, cid in enumerate(ids):      # numbers never align with text
                if (q.numeric and lp.share[cid] < 0.5) or (q.share < 0.5 and lp.numeric[cid]):
                    S[i, j] = 0.0
                # values sharing none (or, more than 3, none beyond chance) and no name
                # alike (numbers: not the same name) (apart in a table of a key)
                unshared[i, j] = (not lake_sets[cid] & set(q.tokens)
                                  or (len(q.tokens) > us.FEW_VALUES
                                      and not np.nan_to_num(u["set"][0, j]) > 0)) and \
                    not (same_name[i, j] if q.numeric else np.nan_to_num(u["header"][0, j]) > 0)
                # true/false only with true/false (from the lake column's own tokens)
                flag = {"true", "false"}
                if (bool(q.tokens) and set(q.tokens) <= flag) != \
                        (bool(lake_sets[cid]) and lake_sets[cid] <= flag):
                    S[i, j] = 0.0
            set_u[i] = np.nan_to_num(u["set"][0])
        # no value beyond chance, and a same-named partner of the query or lake column
        # elsewhere in the table: the names decide (names_crossed)
        for i in range(len(qcols)):
            for j in range(m):
                if not same_name[i, j] and set_u[i, j] <= 0 and \
                        (same_name[i].any() or same_name[:, j].any()):
                    S[i, j] = 0.0
        best, pairs = brute_alignment(S, min_column, pairs=True)
        # a key of the query (each value in one cell) aligned with set evidence: the table
        # holds the query's entities, and numbers sharing none of its values are left out
        cells = [int(frame.iloc[:, i].notna().sum()) for i in range(len(qcols))]
        if any(len(qcols[i].tokens) >= 2 and len(qcols[i].tokens) >= us.KEY_SHARE * cells[i]
               and set_u[i, j] > 0 for i, j in pairs):
            best, pairs = brute_alignment(np.where(unshared, 0.0, S), min_column, pairs=True)
        # times the chance that two query rows (drawn without replacement) differ on the
        # aligned columns, counted from the frame's rows there (nulls equal); not when the
        # query's rows are all equal
        def differ(sub):
            sub = sub.astype(object)
            rows = [tuple(r) for r in sub.where(sub.notna(), "<null>").astype(str).to_numpy()]
            n = len(rows)
            return sum(a != b for i, a in enumerate(rows) for b in rows[i + 1:]) / (
                n * (n - 1) / 2) if n > 1 else 0.0
        # a query column of one value in every row weighs 1/2 (a one-row query: 1)
        w = [0.5 if len(frame) > 1 and frame.iloc[:, i].astype(str).nunique(dropna=False) == 1
             else 1.0 for i in range(len(qcols))]
        best = sum(w[i] * R[i, j] * S[i, j] for i, j in pairs)
        if pairs and differ(frame) > 0:
            best *= differ(frame.iloc[:, sorted(i for i, _ in pairs)])
        if pairs and not any(evident[i, j] for i, j in pairs):
            best = 0.0        # numeric pairs of their kind alone list no table
        if best > 0:
            done = {i: (int(ids[j]), False) for i, j in pairs}
            names = index.columns["name"].to_numpy()
            for i, q in enumerate(qcols):
                same = [j for j in range(m) if folded(q.name) is not None
                        and folded(names[ids[j]]) == folded(q.name)
                        and int(ids[j]) not in {c for c, _ in done.values()}]
                if i in done or not q.tokens or not same:
                    continue
                for j in sorted(same, key=lambda j: -S[i, j]):
                    gen, local = index.generation_of(int(ids[j]))
                    kind = "numeric" if q.numeric else kind_by_hand(q.tokens)
                    lake = "numeric" if lp.numeric[ids[j]] else kind_by_hand(
                        gen.token_text(gen.arrays.set_tokens(local)))
                    alike = sum(min(a, b) for a, b in zip(q.fmt, lp.fmt[ids[j]])) >= 0.5
                    if kind == lake and (kind != "text" or alike):
                        done[i] = (int(ids[j]), True)
                        break
            if aligned is not None:
                aligned[int(tid)] = done
            # no scored pair (those by name left out: names never rank) with set evidence
            # or the same name: after every other table
            kind_alone = not any(named_or_shared[i, c - first]
                                 for i, (c, by_name) in done.items() if not by_name)
            out.append((kind_alone, int(tid), best / sum(w)))
    out.sort(key=lambda x: (x[0], -x[2], x[1]))
    return [(t, score) for _, t, score in out[:k]]


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**31 - 1))
@example(95780)   # float32 cosines of a matrix and a vector product rounded apart: ties broke
@example(410)
@example(784)
def test_search_equals_brute_force_on_random_queries(union_lake, seed):
    engine, tables, _ = union_lake
    rng = np.random.default_rng(seed)
    name = sorted(tables)[int(rng.integers(len(tables)))]
    src = tables[name]
    cols = list(rng.permutation(src.columns)[: int(rng.integers(1, src.shape[1] + 1))])
    q = src.sample(frac=float(rng.uniform(0.3, 1.0)), random_state=seed % 1000)[cols]
    q.columns = [f"c{i}" for i in range(len(cols))]
    found, _ = us.search(engine.index, q, k=10, neighbours=10**6, max_tables=10**6)
    expect = brute_search(engine.index, q, 10)
    assert [(c.table_id, round(c.score, 9)) for c in found] == \
        [(t, round(s, 9)) for t, s in expect]


def test_search_ranks_the_source_table_first(union_lake):
    """A sample of a table with renamed columns finds that table first, aligned right."""
    engine, tables, _ = union_lake
    for name in ("sales.csv", "mix.csv", "people.csv"):
        src = tables[name]
        q = src.sample(frac=0.5, random_state=1)
        q.columns = [f"x{i}" for i in range(q.shape[1])]
        truth = dict(zip(q.columns, src.columns))
        # on a 21-column lake a likelihood moves in steps of 1/21: the default sharpness
        # (tuned on a 9,651-column lake) leaves columns whose domain three tables share
        # unaligned, so the ranking is checked unsharpened
        res = engine.search_unionable(q, k=3, sharpness=1.0)
        assert res[0].table == name.removesuffix(".csv")
        assert res[0].mapping == truth
        assert res[0].rows == len(src)
        for hit in engine.search_unionable(q, k=3):      # default: no wrong pair
            if hit.table == name.removesuffix(".csv"):
                assert hit.mapping.items() <= truth.items()


def test_alignment_frame_counts_the_shared_values(union_lake):
    """Each aligned pair's shared, query and lake distinct values equal the normalized sets
    counted by hand (lake side from the index's tokens); set is 0 where the sharing is no
    more than chance for those sizes."""
    from lakejoin_jupyter.lake.normalize import normalize_text
    from lakejoin_jupyter.search.union import EVIDENCE
    engine, tables, _ = union_lake
    idx = engine.index
    seen = 0
    for name in ("sales.csv", "mix.csv", "people.csv"):
        q = tables[name].sample(frac=0.5, random_state=3)
        for hit in engine.search_unionable(q, k=3, sharpness=1.0):
            frame = hit.alignment_frame()
            assert list(frame.columns)[:6] == ["query column", "lake column", "score",
                                               "shared values", "query values", "lake values"]
            assert list(frame.columns)[6:] == [*EVIDENCE, "by name"]
            for _, r in frame.iterrows():
                qset = {normalize_text(v) for v in q[r["query column"]].astype(str)} - {None}
                gen, local = idx.generation_of(idx.find_column(hit.table, r["lake column"]))
                lset = set(gen.token_text(gen.arrays.set_tokens(local)))
                assert (r["shared values"], r["query values"], r["lake values"]) == \
                    (len(qset & lset), len(qset), len(lset))
                expect = us.set_statistic(len(qset & lset), len(qset), len(lset))
                if float(expect) == 0:
                    assert r["set"] == 0
                seen += 1
    assert seen >= 3


def test_baseline_weights_and_errors(union_lake):
    engine, tables, _ = union_lake
    q = tables["sales.csv"].head(20)
    res = engine.search_unionable(q, k=10, weights={"header": 1.0})    # every table
    best = max(res, key=lambda h: h.score)
    assert best.table == "sales"            # identical headers
    assert best is res[-1] and best.is_query_table      # the query's rows are its rows
    top = engine.search_unionable(q, k=3, weights={"header": 1.0})    # it takes no place
    assert [h.table for h in top] == [h.table for h in res[:3]]       # of k (newuser20 D3)
    assert top.own_left_out == ["sales"]
    with pytest.raises(Exception, match="Unknown union evidence"):
        engine.search_unionable(q, weights={"colour": 1.0})
    with pytest.raises(Exception, match="k must be"):
        engine.search_unionable(q, k=0)
    with pytest.raises(QueryError, match="k must be"):
        engine.search_unionable(q, k=True)          # a bool is no count of results
    for bad, kind in ((42, "an integer"), (None, "None"), (["sales"], "a list"),
                      (q.iloc[:, 0], "a Series")):
        with pytest.raises(QueryError) as e:
            engine.search_unionable(bad)
        assert str(e.value) == ("search_unionable searches with a pandas or Spark DataFrame "
                                "or the name of a lake table (a string or a Path); got "
                                f"{kind}."), str(e.value)


def test_search_unionable_takes_a_lake_table_name(union_lake):
    """A lake table's name (or path) is a query, as for search and `lakejoin union --table`:
    the table itself left out, the other hits those of its frame from engine.table, which
    is decided on its rows (sales listed last, marked, where fewer than k other tables
    qualify, here k=10; at k=5 named in own_left_out; include_own=False: left out)."""
    engine, tables, _ = union_lake
    frame = engine.table("sales")
    mine = engine.search_unionable(frame, k=10)
    assert mine[-1].table == "sales" and mine[-1].is_query_table
    assert engine.search_unionable(frame, k=5).own_left_out == ["sales"]
    expect = [(h.table, round(h.score, 9), h.mapping)
              for h in engine.search_unionable(frame, k=5, include_own=False)]
    assert expect and "sales" not in [t for t, _, _ in expect]
    for query in ("sales", "sales.csv", engine.index.tables.set_index("name").loc["sales", "path"]):
        res = engine.search_unionable(query, k=5)
        assert [(h.table, round(h.score, 9), h.mapping) for h in res] == expect
    stacked = res[0].union()
    assert stacked.shape[0] == len(frame) + res[0].rows


def test_union_cli_ranks_stacks_and_says_what_is_wrong(union_lake, tmp_path, capsys):
    """`lakejoin union`: the same ranking as search_unionable, the stacked file equal to
    hit.union(df), a lake table queried by name left out of its results, and clear errors."""
    from lakejoin_jupyter.cli import main as cli
    engine, tables, _ = union_lake
    q = tables["sales.csv"].sample(frac=0.5, random_state=3)
    q.to_csv(tmp_path / "q.csv", index=False)
    index = str(engine.index.path)
    assert cli(["union", index, "-t", str(tmp_path / "q.csv"), "-k", "3", "--format", "csv"]) == 0
    got = pd.read_csv(io.StringIO(capsys.readouterr().out))
    want = engine.search_unionable(pd.read_csv(tmp_path / "q.csv"), k=3)
    assert got["table"].tolist() == [h.table for h in want] and len(got) >= 1
    out = tmp_path / "stacked.csv"
    assert cli(["union", index, "-t", str(tmp_path / "q.csv"), "--stack", "1", "--out",
                str(out)]) == 0
    said = capsys.readouterr()
    text = said.out
    assert want[0].table in text and "table rows" in text
    assert "Stacked" in said.err and "*" not in said.err       # terminal text, no Markdown
    stacked = pd.read_csv(out, dtype=str, keep_default_na=False)
    expect = want[0].union(pd.read_csv(tmp_path / "q.csv"))
    assert stacked.shape == expect.shape and list(stacked.columns) == list(expect.columns)
    assert cli(["union", index, "-t", "sales", "-k", "5", "--format", "csv"]) == 0
    assert "sales" not in pd.read_csv(io.StringIO(capsys.readouterr().out))["table"].tolist()
    assert cli(["union", index, "-t", str(tmp_path / "q.csv"), "--stack", "1"]) == 1
    assert "--stack N and --out FILE go together" in capsys.readouterr().err
    assert cli(["union", index, "-t", str(tmp_path / "q.csv"), "--stack", "1", "--out",
                str(tmp_path / "x.txt")]) == 1
    assert "write a .csv or a .parquet file" in capsys.readouterr().err
    assert cli(["union", index, "-t", str(tmp_path / "q.csv"), "--stack", "99", "--out",
                str(tmp_path / "stacked99.csv")]) == 1
    assert "--stack 99: the search found" in capsys.readouterr().err
    (tmp_path / "empty.csv").write_text("a,b\n")
    assert cli(["union", index, "-t", str(tmp_path / "empty.csv")]) == 1
    assert "has a header but no data rows (nothing to search with)" in capsys.readouterr().err


def test_union_adds_only_new_rows_as_drop_duplicates(union_lake, tmp_path, capsys):
    """hit.union, its code, the Union action and `lakejoin union --stack` add the table's
    rows the query lacks, each once: pd.concat + drop_duplicates on the query's columns
    (the query has no repeated row); distinct=False / --keep-duplicates add every row."""
    from lakejoin_jupyter import actions
    from lakejoin_jupyter.cli import main as cli
    engine, tables, _ = union_lake
    tables["sales.csv"].to_csv(tmp_path / "sales.csv", index=False)
    rows = pd.read_csv(tmp_path / "sales.csv")           # the lake table, read by pandas
    assert not rows.duplicated().any()
    for q in (rows.sample(20, random_state=4), rows):
        hit = {h.table: h for h in engine.search_unionable(q, k=10)}["sales"]
        assert hit.mapping == {c: c for c in q.columns}
        oracle = pd.concat([q, rows], ignore_index=True).drop_duplicates(ignore_index=True)
        got = hit.union(q)
        pd.testing.assert_frame_equal(got.drop(columns="source_table"), oracle)
        assert (got["source_table"] == "query").sum() == len(q)
        every = hit.union(q, distinct=False)
        assert len(every) == len(q) + len(rows)
        for distinct, want in ((True, got), (False, every)):
            ns = {"q": q}
            exec(hit.code("q", "out", distinct=distinct), ns)
            pd.testing.assert_frame_equal(ns["out"], want)
            done = actions.UNION_ACTIONS[0](engine, hit, q, distinct=distinct)
            pd.testing.assert_frame_equal(done.joined, want)
            ns = {"q": q}
            exec(done.code("q", "out"), ns)
            pd.testing.assert_frame_equal(ns["out"], want)
        done = actions.UNION_ACTIONS[0](engine, hit, q)
        new = len(oracle) - len(q)
        assert done.details["rows_added"] == new
        assert done.details["duplicates_left_out"] == len(rows) - new
        assert f"**{new:,}** new rows" in done.summary
    assert new == 0 and f"Left out {len(rows):,} of its {len(rows):,} rows" in done.summary
    # the CLI: a copy of the table stacked under itself adds no row
    q.to_csv(tmp_path / "copy.csv", index=False)
    out = tmp_path / "stacked.csv"
    index = str(engine.index.path)
    rank = str(len(engine.search_unionable(pd.read_csv(tmp_path / "copy.csv"), k=10)))
    assert cli(["union", index, "-t", str(tmp_path / "copy.csv"), "--stack", rank, "--out",
                str(out)]) == 0          # the copy's own table, listed last
    assert "0 new rows added" in capsys.readouterr().err
    assert len(pd.read_csv(out)) == len(q)
    assert cli(["union", index, "-t", str(tmp_path / "copy.csv"), "--stack", rank, "--out",
                str(out), "--keep-duplicates", "--overwrite"]) == 0
    assert len(pd.read_csv(out)) == len(q) + len(rows)


def test_only_new_rows_compare_the_aligned_columns(union_lake, tmp_path, capsys, spark):
    """A query column the table does not align is null in every added row, so "only new
    rows" compares the aligned columns: a lake row equal to a query row there is left out
    (pandas, its code, the Union action, `lakejoin union --stack`, Spark and its code),
    checked against a set oracle of the aligned tuples."""
    import dataclasses

    from lakejoin_jupyter import actions
    from lakejoin_jupyter.cli import main as cli
    engine, tables, _ = union_lake
    tables["sales.csv"].to_csv(tmp_path / "sales.csv", index=False)
    rows = pd.read_csv(tmp_path / "sales.csv")           # the lake table, read by pandas
    cols = list(rows.columns)
    q = rows.sample(20, random_state=6).reset_index(drop=True)
    q["memo"] = [f"note {i}" for i in range(len(q))]    # no lake column holds these
    hit = {h.table: h for h in engine.search_unionable(rows.head(20), k=10)}["sales"]
    hit = dataclasses.replace(hit, alignment=tuple((c, c, 0.9) for c in cols))
    seen = set(map(tuple, q[cols].itertuples(index=False)))
    oracle = [r for r in dict.fromkeys(map(tuple, rows.itertuples(index=False))) if r not in seen]
    assert 0 < len(oracle) < len(rows)
    got = hit.union(q)
    added = got.iloc[len(q):]
    assert list(map(tuple, added[cols].itertuples(index=False))) == oracle
    assert added["memo"].isna().all()
    ns = {"q": q}
    exec(hit.code("q", "out"), ns)
    pd.testing.assert_frame_equal(ns["out"], got)
    done = actions.UNION_ACTIONS[0](engine, hit, q)
    pd.testing.assert_frame_equal(done.joined, got)
    assert done.details["rows_added"] == len(oracle)
    assert done.details["duplicates_left_out"] == len(rows) - len(oracle)
    assert "(equal on the aligned columns, compared as the search compares values: case, " \
        "spacing and number formats aside)" in done.summary
    # Spark and its code: the same rows
    sq = spark.createDataFrame(q)
    su = hit.union(sq)
    ns = {"sq": sq}
    exec(hit.code("sq", "u", df=sq), ns)
    for frame in (su, ns["u"]):
        part = frame.toPandas()
        part = part[part["source_table"] == "sales"]
        assert sorted(map(tuple, part[cols].itertuples(index=False))) == sorted(oracle)
    # the CLI's --stack, from a file holding the query
    q.to_csv(tmp_path / "q.csv", index=False)
    import unittest.mock as mock

    from lakejoin_jupyter.join.union import UnionResult
    with mock.patch.object(type(engine), "search_unionable",     # this alignment, ranked 1
                           lambda self, *a, **k: UnionResult([hit], list(q.columns), 0.0)):
        assert cli(["union", str(engine.index.path), "-t", str(tmp_path / "q.csv"), "--stack",
                    "1", "--out", str(tmp_path / "s.csv")]) == 0
    err = capsys.readouterr().err
    assert f"{len(oracle):,} new rows added" in err and "on the aligned columns" in err
    assert len(pd.read_csv(tmp_path / "s.csv")) == len(q) + len(oracle)


def test_union_keys_are_the_normalized_values_long_texts_as_written():
    """A union's "same row" compares each aligned cell as the search and the join do (case,
    spacing, number formats; every cell without a key as null), except a text too long to
    have a key, compared as written, so two different long texts stay two rows."""
    from lakejoin_jupyter.join.keys import new_rows, union_keys
    from lakejoin_jupyter.lake.normalize import MAX_TOKEN_CHARS
    long_a, long_b = "a" * (MAX_TOKEN_CHARS + 5), "a" * (MAX_TOKEN_CHARS + 4) + "b"
    got = union_keys(pd.Series(["TCP", " tcp ", "007", None, "n/a", long_a, long_b]))
    assert got.tolist() == ["tcp", "tcp", "7", None, None, long_a, long_b]
    assert union_keys(pd.Series([7.0, np.nan])).tolist() == ["7", None]
    q = pd.DataFrame({"port": [7, 9], "proto": ["TCP", "UDP"], "note": [long_a, None]})
    lake = pd.DataFrame({"port": [7.0, 9.0, 9.0, 9.0, 7.0],
                         "proto": ["tcp", "udp ", "UDP", "ddp", "tcp"],
                         "note": [long_a, "N/A", long_b, None, long_b]})
    assert new_rows(q, lake, ["port", "proto", "note"]).tolist() == \
        [False, False, True, True, True]
    assert new_rows(q, lake, ["port", "proto"]).tolist() == [False, False, False, True, False]


@pytest.mark.spark
def test_only_new_rows_compare_normalized_values(union_lake, spark):
    """Union's "only new rows" compares the aligned values after lakejoin's normalization, as
    the search and the join compare them: the table's rows that differ from the query's only
    in case or surrounding spaces are not added again (pandas, its code, the Union action,
    Spark and its code), and the query's rows keep their text."""
    import dataclasses

    from lakejoin_jupyter import actions
    from lakejoin_jupyter.lake.normalize import normalize_value
    engine, tables, _ = union_lake
    rows = engine.table("sales")                       # every cell as text
    cols = list(rows.columns)
    q = rows.sample(20, random_state=8).reset_index(drop=True)
    q = q.apply(lambda c: " " + c.str.upper() + " ")  # the same values, written otherwise
    hit = {h.table: h for h in engine.search_unionable(tables["sales.csv"].head(20), k=10)}["sales"]
    hit = dataclasses.replace(hit, alignment=tuple((c, c, 0.9) for c in cols))

    def norm(row):
        return tuple(normalize_value(v) for v in row)
    seen = {norm(r) for r in q.itertuples(index=False)}
    oracle = {}
    for r in rows.itertuples(index=False):
        oracle.setdefault(norm(r), tuple(r))
    oracle = [r for k, r in oracle.items() if k not in seen]
    assert 0 < len(oracle) <= len(rows) - 20
    got = hit.union(q)
    pd.testing.assert_frame_equal(got.iloc[:len(q)].drop(columns="source_table"), q)
    added = got.iloc[len(q):]
    assert list(map(tuple, added[cols].itertuples(index=False))) == oracle
    ns = {"q": q}
    exec(hit.code("q", "out", df=q), ns)
    pd.testing.assert_frame_equal(ns["out"], got)
    done = actions.UNION_ACTIONS[0](engine, hit, q)
    assert done.details["rows_added"] == len(oracle)
    sq = spark.createDataFrame(q)
    su = hit.union(sq)
    ns = {"sq": sq}
    exec(hit.code("sq", "u", df=sq), ns)
    for frame in (su, ns["u"]):
        part = frame.toPandas()
        assert sorted(map(tuple, part[part["source_table"] == "query"][cols].itertuples(
            index=False))) == sorted(map(tuple, q.itertuples(index=False)))
        part = part[part["source_table"] == "sales"]
        assert sorted(map(tuple, part[cols].itertuples(index=False))) == sorted(oracle)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**31 - 1), st.booleans())
def test_union_pandas_new_rows_are_concat_drop_duplicates(seed, arrays):
    """union_pandas with distinct: the query's rows, then the table's rows that are new, as
    pd.concat + drop_duplicates keeps them (nulls equal; cells that cannot be hashed, as a
    Parquet list column's arrays, compared as text)."""
    from types import SimpleNamespace

    from lakejoin_jupyter.join.execute import union_pandas
    from lakejoin_jupyter.join.plan import UnionPlan
    rng = np.random.default_rng(seed)

    def frame(n):
        a = rng.choice(["x", "y", None], n).tolist()
        return pd.DataFrame({"a": [np.array([len(v or "")]) for v in a] if arrays else a,
                             "b": rng.choice([1.0, 2.0, np.nan], n)})
    q = frame(int(rng.integers(1, 6))).drop_duplicates() if not arrays else frame(1)
    lake = frame(int(rng.integers(0, 12))).rename(columns={"a": "A", "b": "B"})
    lake["B"] = lake["B"].astype(object)           # text in the lake, numbers in the query
    plan = UnionPlan((("a", "A"), ("b", "B")), ("a", "b"), SimpleNamespace(name="t"),
                     kinds=("text", "numeric"))
    got = union_pandas(q, lake, plan)
    rows = lake.rename(columns={"A": "a", "B": "b"}).assign(b=lambda d: pd.to_numeric(d["b"]))
    both = pd.concat([q, rows], ignore_index=True)
    keep = ~(both.astype(str) if arrays else both).duplicated()
    want = both[keep].reset_index(drop=True)
    assert (got["source_table"] == "query").sum() == len(q)
    assert got.drop(columns="source_table").astype(str).equals(want.astype(str))
    every = union_pandas(q, lake, UnionPlan(plan.alignment, plan.query_columns, plan.other,
                                            kinds=plan.kinds, distinct=False))
    assert len(every) == len(q) + len(lake)


# ----------------------------------------------------------------------- the union plan

def _hostile_query(tables):
    src = tables["mix.csv"]
    q = src.sample(frac=0.4, random_state=2).reset_index(drop=True)
    q.columns = ["code 'x'", "amount\n(€)", "who\"", "year", "source_table"]
    q["year"] = q["year"].astype("int64")
    q["when"] = pd.to_datetime("2020-01-01") + pd.to_timedelta(np.arange(len(q)), unit="D")
    return q


def test_union_code_reproduces_the_frame_pandas(union_lake):
    engine, tables, _ = union_lake
    q = _hostile_query(tables)
    res = engine.search_unionable(q, k=5)
    assert res[0].table == "mix"
    for hit in res:
        u = hit.union(q)
        ns = {"q": q.copy()}
        exec(hit.code("q", "u"), ns)
        pd.testing.assert_frame_equal(ns["u"], u)
        assert set(ns) <= {"q", "u", "pd", "__builtins__", "lakejoin_jupyter"} | \
            {k for k in ns if k.startswith("lake_")}
    hit = res[0]
    lake = engine.table("mix")
    # the query's rows are rows of mix (equal on the aligned columns; `when` is unaligned):
    # only mix's other rows are new
    assert len(hit.union(q)) == len(lake)
    u = hit.union(q, distinct=False)
    assert len(u) == len(q) + len(lake)
    assert list(u.columns) == list(q.columns) + ["source_table_2"]
    assert (u["source_table_2"].iloc[len(q):] == "mix").all()
    # aligned values, converted to the query's types
    for a, b, _ in hit.alignment:
        got = u[a].iloc[len(q):].reset_index(drop=True)
        if a == "year":
            assert (got == pd.to_numeric(lake[b])).all()
        elif a == "amount\n(€)":
            np.testing.assert_allclose(got.astype(float), pd.to_numeric(lake[b]))
    with pytest.raises(Exception, match="not a valid Python"):
        hit.code("q", "not valid")


def test_union_code_reproduces_the_frame_spark(union_lake, spark):
    engine, tables, _ = union_lake
    q = _hostile_query(tables).drop(columns=["when"])
    sq = spark.createDataFrame(q)
    res = engine.search_unionable(sq, k=2)
    hit = res[0]
    assert hit.table == "mix"
    u = hit.union(sq)
    ns = {"sq": sq}
    code = hit.code("sq", "u")
    assert "unionByName" in code
    exec(code, ns)
    key = list(u.columns)
    a = u.toPandas().sort_values(key, na_position="first").reset_index(drop=True)
    b = ns["u"].toPandas().sort_values(key, na_position="first").reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    # only the rows of mix the query lacks (its 40% sample left out), as in pandas
    assert len(a) == len(hit.union(q)) == len(engine.table("mix"))
    assert dict(ns["u"].dtypes)["year"] == "bigint"
    every = hit.union(sq, distinct=False)
    ns = {"sq": sq}
    exec(hit.code("sq", "u", distinct=False), ns)
    assert every.count() == ns["u"].count() == len(q) + len(engine.table("mix"))


# ----------------------------------------------------------------------- front ends

@contextlib.contextmanager
def _shell_on(engine):
    """An IPython shell with the extension loaded, its session on ``engine`` (restored)."""
    from IPython.core.interactiveshell import InteractiveShell

    from lakejoin_jupyter.ui.session import SESSION
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "lakejoin_jupyter")
    saved = SESSION.engine
    SESSION.engine = engine
    try:
        yield shell
    finally:
        SESSION.engine = saved


def test_union_magic_and_action(union_lake):
    from lakejoin_jupyter import actions
    from lakejoin_jupyter.magics import MagicError
    engine, tables, _ = union_lake
    with _shell_on(engine) as shell:
        q = tables["sales.csv"].sample(frac=0.5, random_state=3).reset_index(drop=True)
        q.columns = ["a", "b", "c", "d"]
        shell.user_ns["uq"] = q
        res = shell.run_line_magic("lakejoin", "union uq -k 3 --save uhits --union 1 --into uu")
        assert res[0].table == "sales" and shell.user_ns["uhits"] is res
        pd.testing.assert_frame_equal(shell.user_ns["uu"], res[0].union(q))
        with pytest.raises(MagicError, match="pick 1"):
            shell.run_line_magic("lakejoin", "union uq -k 3 --union 9")
        with pytest.raises(MagicError, match="go with --union"):
            shell.run_line_magic("lakejoin", "union uq --insert")
        act = actions.UNION_ACTIONS[0]
        out = act(engine, res[0], q)
        pd.testing.assert_frame_equal(out.joined, res[0].union(q))
        ns = {"uq": q}
        exec(out.code("uq", "stacked"), ns)
        pd.testing.assert_frame_equal(ns["stacked"], out.joined)



def test_union_magic_run_again_keeps_its_variable(union_lake, monkeypatch):
    """`%lakejoin union DF --union N` run again, or edited (--keep-duplicates), rebinds its
    own variable as `%lakejoin join` does (the widget's rule, Session.action_variable), also
    after its --insert cell has run; a variable the user made is never overwritten."""
    from lakejoin_jupyter.join.plan import default_variable
    engine, tables, _ = union_lake
    with _shell_on(engine) as shell:
        inserted = []
        monkeypatch.setattr(shell, "set_next_input",
                            lambda text, replace=False: inserted.append(text))
        q = tables["sales.csv"].sample(frac=0.5, random_state=4).reset_index(drop=True)
        q.columns = ["a", "b", "c", "d"]
        for n in [n for n in shell.user_ns if n.startswith("rq")]:
            del shell.user_ns[n]
        shell.user_ns["rq"] = q
        before = set(shell.user_ns)

        def made():
            return {n for n in set(shell.user_ns) - before if n.startswith("rq")}
        res = shell.run_line_magic("lakejoin", "union rq -k 3 --union 1 --quiet")
        name = default_variable("rq", res[0].table, "union")
        shell.run_line_magic("lakejoin", "union rq -k 3 --union 1 --quiet")       # again
        shell.run_line_magic("lakejoin", "union rq -k 3 --union 1 --keep-duplicates --quiet")
        assert made() == {name}
        pd.testing.assert_frame_equal(shell.user_ns[name], res[0].union(q, distinct=False))
        shell.run_line_magic("lakejoin", "union rq -k 3 --union 1 --insert --quiet")
        assert shell.run_cell(inserted[-1]).success                 # its cell run
        shell.run_line_magic("lakejoin", "union rq -k 3 --union 1 --quiet")
        assert made() == {name}
        pd.testing.assert_frame_equal(shell.user_ns[name], res[0].union(q))
        shell.run_cell(f"{name} = rq.head(2)")                       # the user's own
        user_made = shell.user_ns[name]
        shell.run_line_magic("lakejoin", "union rq -k 3 --union 1 --quiet")
        assert shell.user_ns[name] is user_made and made() == {name, f"{name}_2"}
        pd.testing.assert_frame_equal(shell.user_ns[f"{name}_2"], res[0].union(q))

def test_set_statistic_of_a_small_sample_degrades_smoothly():
    """With a domain larger than the two columns' disjoint union (a small query column read
    as a sample of the lake's vocabulary), the statistic is still a bound of the exact
    hypergeometric tail (scipy), grows with the overlap, and one query value missing from a
    large lake column lowers it instead of zeroing it."""
    from scipy.stats import hypergeom
    rng = np.random.default_rng(4)
    for _ in range(300):
        na, nb = rng.integers(1, 300, 2)
        pop = int(na + nb + rng.integers(0, 10**5))
        t = rng.integers(1, min(na, nb) + 1)
        exact = -(hypergeom.logsf(t - 1, pop, na, nb) - hypergeom.logsf(0, pop, na, nb)) / np.log(10)
        got = up.set_statistic(t, na, nb, pop)
        assert got <= exact + 1e-6 and (got >= exact - 1.0 or got == 0.0)
    full, one_off = up.set_statistic([7, 6], 7, 249, 50_000)
    assert full > one_off > 0.5 * full
    assert up.set_statistic(6, 7, 249) == 0        # the disjoint union: chance
    assert np.all(np.diff(up.set_statistic(np.arange(1, 8), 7, 249, 50_000)) > 0)
    assert up.set_statistic(1, 7, 249, 50_000) == 0  # one shared value: the columns meet


def test_a_small_frame_one_value_off_aligns_with_its_table(union_lake):
    """A 7-row frame under a lake table's headers, 6 of its rows from the table and one new
    row (values in no lake column): the table ranks first with both columns aligned, as
    with the 6 rows alone, and each column's set evidence is near its value with all rows
    known, not 0 (checked against the pandas containment of each column)."""
    engine, tables, _ = union_lake
    src = tables["sales.csv"]
    cols = ["city_0", "code_3"]
    six = src.drop_duplicates(cols[0]).drop_duplicates(cols[1]).head(6)[cols]
    seven = pd.concat([six, pd.DataFrame({cols[0]: ["Qwxz"], cols[1]: ["ZZ-999"]})],
                      ignore_index=True)
    for c in cols:        # the oracle: 6 of 7 values of each column are in the table's
        assert seven[c].isin(set(src[c])).sum() == 6 and seven[c].nunique() == 7
    found = {}
    for q in (six, seven):
        res = engine.search_unionable(q, k=5)      # six: the table's rows, "(your table)"
        best = max(res, key=lambda h: h.score)
        assert best.table == "sales" and best.is_query_table == (q is six), repr(res)
        assert best.mapping == {c: c for c in cols}
        found[len(q)] = best
    for c in cols:
        assert found[7].evidence[c]["set"] > 0.8 * found[6].evidence[c]["set"] > 0
    one = engine.search_unionable(seven[["code_3"]], k=5)
    assert "sales" in [h.table for h in one]


def test_the_result_table_calls_the_tables_rows_table_rows_not_rows_added():
    """A hit's ``rows`` is its table's row count, not what a union adds (hit.union counts
    those, fewer when rows are already in the query): the HTML and the text repr say
    "table rows", as `lakejoin union` does, never "rows added"."""
    from lakejoin_jupyter.join.union import UnionHit, UnionResult
    hit = UnionHit(rank=1, table="net/ports", table_id=1, score=0.9,
                   alignment=(("port", "port", 0.9),), rows=223)
    res = UnionResult([hit], ["port", "service"], 0.01)
    page = res._repr_html_()
    assert "rows added" not in page and "<th>table rows</th>" in page and "<td>223</td>" in page
    assert "table rows" in repr(res).splitlines()[1]


def test_union_search_marks_the_query_table_as_search_does(union_lake, tmp_path, capsys):
    """A frame whose rows come from a lake table (its column names, every value of each
    query column in the column of the same name: search's rule) is that table's: marked
    "(your table)" and listed last where fewer than k other tables qualify (k=10: every
    table of this lake), as `search` does, else named in own_left_out (k=5);
    include_own=False / `%lakejoin union --no-own` leave it out; a byte-identical copy given to `lakejoin union` is marked too;
    a frame under other names is not."""
    from lakejoin_jupyter.cli import main as cli
    engine, tables, _ = union_lake
    tables["sales.csv"].to_csv(tmp_path / "copy.csv", index=False)
    rows = pd.read_csv(tmp_path / "copy.csv")
    for q in (rows, rows.sample(15, random_state=2)):
        res = engine.search_unionable(q, k=10)
        own = [h for h in res if h.is_query_table]
        assert [h.table for h in own] == ["sales"] and res[-1] is own[0]
        five = engine.search_unionable(q, k=5)
        assert [h.table for h in five] == [h.table for h in res[:5]]
        assert five.own_left_out == ["sales"] and "Also matching: sales" in repr(five)
        assert [h.rank for h in res] == list(range(1, len(res) + 1))
        assert "sales (your table)" in repr(res)
        assert sum("(your table)" in line for line in repr(res).splitlines()) == 1
        assert res.to_pandas()["is_query_table"].tolist() == [h.is_query_table for h in res]
        left = engine.search_unionable(q, k=10, include_own=False)
        assert "sales" not in [h.table for h in left]
        assert [h.table for h in left] == [h.table for h in res[:-1]]
    renamed = rows.rename(columns=lambda c: c.upper())
    assert not any(h.is_query_table for h in engine.search_unionable(renamed, k=5))
    assert cli(["union", str(engine.index.path), "-t", str(tmp_path / "copy.csv")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "sales (your table)" in lines[-1]
    assert sum("(your table)" in line for line in lines) == 1
    with _shell_on(engine) as shell:
        shell.user_ns["mine"] = rows
        got = shell.run_line_magic("lakejoin", "union mine -k 10")
        assert got[-1].table == "sales" and got[-1].is_query_table
        got = shell.run_line_magic("lakejoin", "union mine -k 5")
        assert "sales" not in [h.table for h in got] and got.own_left_out == ["sales"]
        got = shell.run_line_magic("lakejoin", "union mine -k 5 --no-own")
        assert "sales" not in [h.table for h in got]


def test_a_frame_of_some_of_the_tables_columns_is_its_table(union_lake, tmp_path):
    """Rows of a lake table cut to two of its columns are still its rows, as for a join:
    "(your table)", listed last, left out by include_own=False; so is one column of that
    sample (a cut: at least CUT_SHARE of the column's values, bench/union_cut.py), and not one
    value of it (which could be any list's)."""
    engine, tables, _ = union_lake
    tables["sales.csv"].to_csv(tmp_path / "copy.csv", index=False)
    rows = pd.read_csv(tmp_path / "copy.csv").sample(15, random_state=2)
    cut = rows[list(rows.columns[:2])]
    res = engine.search_unionable(cut, k=5)
    assert res[-1].table == "sales" and res[-1].is_query_table, res
    assert "sales" not in [h.table for h in engine.search_unionable(cut, k=5, include_own=False)]
    one = engine.search_unionable(rows[[rows.columns[0]]], k=5)
    assert [h.table for h in one if h.is_query_table] == ["sales"], one
    one = engine.search_unionable(rows[[rows.columns[0]]].head(1), k=5)
    assert not any(h.is_query_table for h in one)


def test_union_magic_says_where_it_bound_the_union_without_a_raw_warning(union_lake,
                                                                         monkeypatch):
    """`%lakejoin union DF --union N` shows the Union action's summary (its warnings in it,
    no Python warning with a file path) and "Bound to VAR", as `%lakejoin join` does."""
    import dataclasses
    import warnings

    from IPython.utils.capture import capture_output

    from lakejoin_jupyter.join.union import UnionResult
    engine, tables, _ = union_lake
    q = tables["sales.csv"].sample(10, random_state=1).reset_index(drop=True)
    hit = {h.table: h for h in engine.search_unionable(q, k=10)}["sales"]
    hit = dataclasses.replace(hit, alignment=(("city_0", "city_0", 0.9),))  # 3 of 4 unaligned
    monkeypatch.setattr(type(engine), "search_unionable",
                        lambda self, *a, **k: UnionResult([hit], list(q.columns), 0.0))
    with _shell_on(engine) as shell:
        shell.user_ns["few"] = q
        with warnings.catch_warnings(record=True) as seen, capture_output() as cap:
            warnings.simplefilter("always")
            shell.run_line_magic("lakejoin", "union few --union 1 --into few_u")
        assert not seen, [str(w.message) for w in seen]
        shown = cap.stdout + " ".join(str(o.data) for o in cap.outputs)
        assert "Bound to few_u" in shown and "no aligned column" in shown
        pd.testing.assert_frame_equal(shell.user_ns["few_u"], hit.union(q))
        with capture_output() as cap:
            shell.run_line_magic("lakejoin", "union few --union 1 --into few_v --quiet")
        assert "Bound to" not in cap.stdout + " ".join(str(o.data) for o in cap.outputs)
        assert "few_v" in shell.user_ns


# ----------------------------------------------------------------------- vectorized profile
# The per-value implementations the query side used before it was vectorized: the oracles.

def _old_numeric_summary_counted(tokens, counts):
    counts = np.asarray(counts, dtype=np.int64)
    keep = np.fromiter((t is not None for t in tokens), dtype=bool, count=len(tokens))
    num = np.fromiter((t is not None and up._NUMERIC_TOKEN.fullmatch(t) is not None
                       for t in tokens), dtype=bool, count=len(tokens))
    cells = int(counts[keep].sum())
    x = np.repeat(np.asarray([float(t) for t, n in zip(tokens, num) if n], dtype=np.float64),
                  counts[num])
    share = len(x) / cells if cells else 0.0
    q = (np.quantile(x, up.QUANTILES, method="inverted_cdf") if len(x)
         else np.full(len(up.QUANTILES), np.nan))
    return share, len(x), q


def _old_sample_tokens(tokens, s):
    from lakejoin_jupyter.hashing import token_hash64
    toks = sorted(set(tokens))
    if len(toks) <= s:
        return toks
    h = token_hash64(toks).view(np.int64)
    order = np.lexsort((np.arange(len(toks)), h))[:s]
    return sorted(toks[i] for i in order)


def _old_profile_frame(frame, embedder, sample_values):
    from lakejoin_jupyter.lake.normalize import normalize_many
    out, samples = [], []
    for pos in range(frame.shape[1]):
        c = frame.columns[pos]
        codes, uniq = pd.factorize(frame.iloc[:, pos], use_na_sentinel=True)
        uniq = list(uniq)
        toks_u = normalize_many(uniq) + [None]
        counts = np.bincount(np.asarray(codes) + 1, minlength=len(uniq) + 1)
        texts = sorted({t for t in (up.cell_text(v) for v in uniq) if t is not None})
        share, n_num, q = _old_numeric_summary_counted(toks_u, np.roll(counts, -1))
        distinct = sorted({t for t in toks_u if t is not None})
        samples.append(_old_sample_tokens(distinct, sample_values))
        # format version 3: a boolean text in a bucket of its own, "14.0" read as "14"
        flags = [t for t in texts if t.strip().casefold() in ("true", "false")]
        texts = [re.sub(r"^\s*(-?[0-9]+)\.0+\s*$", r"\1", t) for t in texts if t not in flags]
        fmt = np.bincount(np.fromiter((mmh3.hash(up.value_pattern(t), signed=False) % up.FORMAT_DIMS
                                       for t in texts), np.int64, len(texts)),
                          minlength=up.FORMAT_DIMS).astype(np.float64)
        fmt[mmh3.hash(up.BOOLEAN_PATTERN, signed=False) % up.FORMAT_DIMS] += len(flags)
        fmt = (fmt / fmt.sum() if fmt.sum() else fmt).astype(np.float32)
        out.append(us.QueryColumn(c, distinct, fmt, share, n_num, q, None, up.header_grams(c)))
    for qc, v in zip(out, up.column_vectors(embedder, samples)):
        qc.vector = v
    return out


import mmh3  # noqa: E402

_PATTERN_CHARS = st.sampled_from(list("aZbYzA09 5\t\x1c\x1f\n.,-_/#%()'") +
                                 ["é", "²", "½", "٣", "\u2026", "ﬁ", "İ", "\xa0", "\u3000", "Ⅻ"])
_TEXTS = st.one_of(st.text(max_size=12), st.lists(_PATTERN_CHARS, max_size=14).map("".join),
                   st.from_regex(r"[A-Za-z0-9 ,.\-]{0,30}", fullmatch=True),
                   st.integers(0, 300).map(lambda n: "1a" * n))


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(_TEXTS, max_size=40))
@example(["", "a" * 300, "1" * 199 + "a", "1" * 201, "Ann Arbor, MI", "x²y", "AbC", "a b c d e"])
def test_pattern_buckets_equal_value_pattern_of_each_text(monkeypatch, texts):
    """The all-at-once patterns (ASCII texts) hash to the bucket of value_pattern's."""
    want = [mmh3.hash(up.value_pattern(t), signed=False) % up.FORMAT_DIMS for t in texts]
    assert up.pattern_buckets(texts).tolist() == want
    monkeypatch.setattr(up, "PATTERN_VECTOR_MIN", 0)
    assert up.pattern_buckets(texts).tolist() == want
    asc = [t for t in texts if t.isascii()]
    assert [up._pattern_of_codes(r) for r in up._ascii_pattern_codes(asc)] == \
        [up.value_pattern(t) for t in asc]


_FLOATS = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                    st.integers(-2**70, 2**70).map(float),
                    st.sampled_from([0.0, -0.0, 2.0**62, -2.0**62, 2.0**63, -2.0**63, 1e16, 0.1]))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(_FLOATS, max_size=30).map(lambda v: pd.Series(v, dtype="float64")),
                 st.lists(st.floats(width=32), max_size=20).map(lambda v: pd.Series(v, dtype="float32")),
                 st.lists(st.integers(-2**63, 2**63 - 1), max_size=20).map(lambda v: pd.Series(v, dtype="int64")),
                 st.lists(st.integers(0, 2**64 - 1), max_size=20).map(lambda v: pd.Series(v, dtype="uint64")),
                 st.lists(st.booleans(), max_size=5).map(lambda v: pd.Series(v, dtype=bool)),
                 st.lists(st.one_of(st.none(), _TEXTS), max_size=20).map(lambda v: pd.Series(v, dtype=object)),
                 st.lists(st.one_of(st.none(), _TEXTS, _FLOATS, st.integers(), st.booleans()),
                          max_size=20).map(lambda v: pd.Series(v, dtype=object)),
                 st.lists(st.datetimes(), max_size=5).map(pd.Series)))
def test_cell_texts_equal_cell_text_of_each_value(s):
    _, uniq = pd.factorize(s, use_na_sentinel=True)
    assert up.cell_texts(uniq) == [up.cell_text(v) for v in uniq]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), _TEXTS, st.from_regex(
           r"-?[0-9]{0,4}(\.[0-9]{0,3})?(e[+-]?[0-9]{1,3})?", fullmatch=True)),
                          st.integers(1, 4)), max_size=25))
def test_numeric_summary_counted_equals_the_per_token_one(pairs):
    tokens = [t for t, _ in pairs]
    counts = [n for _, n in pairs]
    import pyarrow as pa
    want = _old_numeric_summary_counted(tokens, counts)
    for got in (up.numeric_summary_counted(tokens, counts),
                up.numeric_summary_counted(pa.array(tokens, pa.string()), counts)):
        assert got[0] == want[0] and got[1] == want[1]
        np.testing.assert_array_equal(got[2], want[2])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=4), max_size=60), st.integers(1, 20))
def test_sample_tokens_equals_the_sorted_lexsort(tokens, s):
    from lakejoin_jupyter.hashing import token_hash64
    want = _old_sample_tokens(tokens, s)
    assert up.sample_tokens(tokens, s) == want
    distinct = list(dict.fromkeys(tokens))
    assert up.sample_tokens(distinct, s, token_hash64(distinct)) == want


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**31 - 1), st.integers(1, 60), st.sampled_from([0, 10**9]))
def test_profile_frame_equals_the_per_value_profile(monkeypatch, seed, n, vector_min):
    """The vectorized query profile (all at once, and value by value under VECTOR_MIN)
    equals the per-value one it replaced, field by field."""
    monkeypatch.setattr(us, "VECTOR_MIN", vector_min)
    monkeypatch.setattr(up, "PATTERN_VECTOR_MIN", vector_min)
    rng = np.random.default_rng(seed)
    dom = _domains(rng)
    frame = pd.DataFrame({d: dom[d](n) for d in dom})
    frame["mixed"] = pd.Series(rng.choice(np.array(["1", "2.50", " x ", "", "n/a", "Ünï Cödé",
                                                     "007", None, 3.0, 7, True], dtype=object), n))
    frame["floats"] = np.where(rng.random(n) < 0.2, np.nan, np.round(rng.normal(0, 1e3, n), 3))
    frame["when"] = pd.Timestamp("2020-01-01") + pd.to_timedelta(rng.integers(0, 3, n), unit="D")
    emb = us.cached_embedder("ngram")
    s = int(rng.integers(1, 30))
    got, want = us.profile_frame(frame, emb, s), _old_profile_frame(frame, emb, s)
    for g, w in zip(got, want):
        assert g.name == w.name and sorted(g.tokens) == w.tokens and g.header == w.header
        np.testing.assert_array_equal(g.fmt, w.fmt)
        assert (g.share, g.n_num) == (w.share, w.n_num)
        np.testing.assert_array_equal(g.quantiles, w.quantiles)
        np.testing.assert_array_equal(g.vector, w.vector)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 5), st.integers(0, 8))
def test_format_similarity_is_the_histogram_intersection(seed, n, m):
    """Summed over each query row's nonzero buckets: the intersection over all buckets."""
    rng = np.random.default_rng(seed)
    def hists(k):
        h = rng.random((k, up.FORMAT_DIMS)) * (rng.random((k, up.FORMAT_DIMS)) < rng.random())
        s = h.sum(axis=1, keepdims=True)
        return np.divide(h, s, out=np.zeros_like(h), where=s > 0).astype(np.float32)
    a, b = hists(n), hists(m)
    want = np.minimum(a[:, None, :].astype(np.float64), b[None, :, :]).sum(axis=2)
    np.testing.assert_allclose(up.format_similarity(a, b), want, atol=1e-12)
    for r in range(n):          # a row alone, or fewer lake columns: the same, bit for bit
        np.testing.assert_array_equal(up.format_similarity(a[r:r + 1], b)[0],
                                      up.format_similarity(a, b)[r])
        np.testing.assert_array_equal(up.format_similarity(a[r:r + 1], b[m // 2:])[0],
                                      up.format_similarity(a, b)[r, m // 2:])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="abAB_ 1", max_size=8), min_size=1, max_size=30), st.text(alphabet="abAB_ 1", max_size=8))
def test_header_similarities_from_gram_postings_equal_the_jaccard(names, query):
    """The similarities counted from each 3-gram's columns equal the pairwise Jaccard."""
    from types import SimpleNamespace
    m, grams = us.header_matrix([up.header_grams(c) for c in names])
    lp = SimpleNamespace(gram_columns=m.T.tocsr(), header_len=np.diff(m.indptr), grams=grams)
    q = up.header_grams(query)
    want = [up.header_similarity(q, up.header_grams(c)) for c in names]
    np.testing.assert_array_equal(us.header_similarities(q, lp), want)


def _old_ks_similarity(qa, qb):
    qa, qb = np.broadcast_arrays(np.asarray(qa, dtype=np.float64), np.asarray(qb, dtype=np.float64))
    x = np.concatenate([qa, qb], axis=-1)
    w = np.concatenate([np.full(qa.shape[-1], 1.0 / qa.shape[-1]),
                        np.full(qb.shape[-1], -1.0 / qb.shape[-1])])
    order = np.argsort(x, axis=-1, kind="stable")
    xs = np.take_along_axis(x, order, axis=-1)
    gap = np.abs(np.cumsum(w[order], axis=-1))
    last = np.concatenate([xs[..., 1:] != xs[..., :-1],
                           np.ones(xs.shape[:-1] + (1,), dtype=bool)], axis=-1)
    return 1.0 - np.where(last, gap, 0.0).max(axis=-1)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 30), st.integers(1, 6))
def test_ks_similarity_from_counts_equals_the_cumulative_sum_one(seed, p, span):
    """One sketch against many, and every pair of two sets (the search's call): the step-CDF
    gap of the sorted-merge implementation it replaced (which summed +-1/21 in floating
    point)."""
    rng = np.random.default_rng(seed)
    sk = lambda *shape: np.sort(rng.integers(-span, span + 1, shape).astype(float), axis=-1)
    a, B = sk(21), sk(p, 21)
    np.testing.assert_allclose(up.ks_similarity(a[None, :], B)[0], _old_ks_similarity(a[None, :], B),
                               atol=1e-12)
    A = sk(p, 21)
    np.testing.assert_allclose(up.ks_similarity(A, B),
                               _old_ks_similarity(A[:, None, :], B[None, :, :]), atol=1e-12)
    # a row alone, or fewer columns: the same value, bit for bit
    assert up.ks_similarity(a[None, :], B[:1])[0, 0] == up.ks_similarity(a[None, :], B)[0, 0]
    assert (up.ks_similarity(A[1:], B[1:]) == up.ks_similarity(A, B)[1:, 1:]).all()


# ----------------------------------------------------------------------- a log split in two
# An upload log split into two tables (other headers, other date format): a query drawn from
# one of them shares only part of its values with the other, fewer than the hypergeometric's
# mode for a domain taken as the two columns' disjoint union (TUS §3.1).

def _split_log_lake(rng):
    words = ["".join(rng.choice(list("abcdefghiklmnoprstuvwxyz"), int(rng.integers(3, 9))))
             for _ in range(400)]
    packages = sorted(set(f"lib{w}{rng.integers(0, 4)}" if i % 3 == 0 else w
                          for i, w in enumerate(words)))[:300]
    people = sorted({w for w in words[::3]})[:120]
    emails = [f"{p}@debian.org" for p in people]
    days = pd.Timestamp("2010-01-01") + pd.to_timedelta(rng.integers(0, 4000, 3000), unit="D")

    def log(n, pk, em):
        return pd.DataFrame({
            "package": rng.choice(pk, n),
            "version": [f"{a}.{b}.{c}-{d}" for a, b, c, d in rng.integers(0, [9, 30, 20, 4], (n, 4))],
            "email": rng.choice(em, n),
            "when": rng.choice(days, n)})

    old = log(600, packages[::5], emails[::2])
    new = log(1500, packages, emails)
    tables = {
        "debian/uploads_old.csv": pd.DataFrame({
            "package": old["package"], "version": old["version"], "email": old["email"],
            "uploaded": old["when"].dt.strftime("%a, %d %b %Y 12:00:00 +0100")}),
        "debian/uploads_new.tsv": pd.DataFrame({
            "maintainer_email": new["email"], "pkg": new["package"], "ver": new["version"],
            "upload_date": new["when"].dt.strftime("%Y-%m-%d")}),
        "debian/packages.csv": pd.DataFrame({
            "pkg_id": [f"PKG-{i:05d}" for i in range(len(packages))], "package": packages,
            "n_uploads": rng.integers(1, 90, len(packages))}),
        "debian/maintainers.csv": pd.DataFrame({
            "name": [p.capitalize() for p in people], "email": emails}),
        "colors/rgb.csv": pd.DataFrame({
            "name": [f"{w}{i % 5}" for i, w in enumerate(words[:200])],
            "red": rng.integers(0, 256, 200), "green": rng.integers(0, 256, 200),
            "blue": rng.integers(0, 256, 200)}),
        "xkb/layouts.csv": pd.DataFrame({
            "code": [w[:2] for w in words[200:290]], "description": words[290:380]}),
        "xkb/variants.csv": pd.DataFrame({
            "layout": [w[:2] for w in words[100:190]], "variant": words[10:100],
            "description": [f"{a.capitalize()} ({b})" for a, b in zip(words[:90], words[90:180])]}),
        "colors/hex.csv": pd.DataFrame({
            "colour": words[50:250], "hex": [f"0x{x:06x}" for x in rng.integers(0, 2**24, 200)]}),
        "mime/globs.csv": pd.DataFrame({
            "weight": rng.choice([50, 60, 80], 150), "type": [f"application/x-{w}" for w in words[:150]],
            "pattern": [f"*.{w[:3]}" for w in words[150:300]]}),
        "mime/aliases.csv": pd.DataFrame({
            "alias": [f"text/x-{w}" for w in words[300:380]],
            "type": [f"application/{w}" for w in words[220:300]]}),
        "people/contributors.csv": pd.DataFrame({
            "name": [f"{a.capitalize()} {b.capitalize()}" for a, b in zip(words[:100], words[100:200])],
            "email": [f"{a}.{b}@contrib.example.org" for a, b in zip(words[:100], words[100:200])],
            "joined": pd.DatetimeIndex(rng.choice(days, 100)).strftime("%d/%m/%Y")}),
        "stats/counts.csv": pd.DataFrame({
            "year": rng.integers(1990, 2024, 120), "count": rng.integers(0, 5000, 120),
            "share": np.round(rng.random(120), 3)}),
    }
    query = new.sample(40, random_state=1)[["package", "version", "email", "when"]]
    query = query.assign(uploaded=query.pop("when").dt.strftime("%d/%m/%Y"))
    return tables, query.reset_index(drop=True)


@pytest.fixture(scope="module")
def split_log_lake(spark, tmp_path_factory):
    tables, query = _split_log_lake(np.random.default_rng(5))
    engine = lake_engine(spark, tmp_path_factory, "splitlog", tables, components=UNION_ONLY)
    return engine, tables, query


def test_a_log_split_in_two_finds_its_other_half_aligned(split_log_lake):
    """The query has uploads_old's headers and rows of uploads_new: uploads_old is found near
    the top with version and email aligned by values (on a 35-column lake whose background is
    every column, a column is not compared with itself); a sample of uploads_new lists
    uploads_old too. package has no value evidence (the query shares fewer package values
    with uploads_old than the disjoint union of the two columns gives by chance, so the set
    evidence is 0; here the other measures align it) and uploaded is written in another date
    format: it aligns by the name rule (docs/algorithms/union.md, "A log split in two")."""
    engine, tables, q = split_log_lake
    old = tables["debian/uploads_old.csv"]
    shared = len(set(q["package"]) & set(old["package"]))
    assert 0 < shared < len(set(q["package"])) * old["package"].nunique() / (
        q["package"].nunique() + old["package"].nunique())     # below the mode
    res = engine.search_unionable(q, k=5)
    ranks = {h.table: h for h in res}
    assert "debian/uploads_old" in [h.table for h in res[:2]]
    m = ranks["debian/uploads_old"].mapping
    assert m == {"package": "package", "version": "version", "email": "email",
                 "uploaded": "uploaded"}
    # uploaded (dates in another format) by its name; package by values or by its name
    assert {"uploaded"} <= set(ranks["debian/uploads_old"].named) <= {"package", "uploaded"}
    sample = pd.read_csv(io.StringIO(tables["debian/uploads_new.tsv"].to_csv(index=False)),
                         dtype=str).sample(40, random_state=2)
    hits = {h.table: h for h in engine.search_unionable(sample, k=5)}
    assert "debian/uploads_old" in hits
    assert hits["debian/uploads_old"].mapping.items() <= {
        "pkg": "package", "ver": "version", "maintainer_email": "email",
        "upload_date": "uploaded"}.items()


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**31 - 1))
@example(1)
def test_search_equals_brute_force_on_a_log_split_in_two(split_log_lake, seed):
    """The brute force on queries sharing values with a partner below the mode of the two
    columns' disjoint union, on a lake whose background is every column: rows of uploads_new
    under random column subsets, named as uploads_old's columns or not (the default
    candidate retrieval, not a scan)."""
    engine, tables, _ = split_log_lake
    rng = np.random.default_rng(seed)
    new = tables["debian/uploads_new.tsv"]
    cols = list(rng.permutation(new.columns)[: int(rng.integers(1, 5))])
    q = new.sample(int(rng.integers(10, 60)), random_state=seed % 1000)[cols]
    names = {"pkg": "package", "ver": "version", "maintainer_email": "email",
             "upload_date": "uploaded"}
    if rng.random() < 0.5:
        q = q.rename(columns=names)
    found, _ = us.search(engine.index, q, k=10)
    aligned: dict = {}
    expect = brute_search(engine.index, q, 10, aligned=aligned)
    assert [(c.table_id, round(c.score, 9)) for c in found] == \
        [(t, round(s, 9)) for t, s in expect]
    for c in found:
        assert {i: (cid, i in c.named) for i, cid, _ in c.pairs} == aligned[c.table_id]


def test_union_action_names_the_columns_left_empty(split_log_lake):
    """The Union action's summary names every query column empty in the added rows (a
    warning when they are most of the query's, or when an aligned column ends up with no
    value), and hit.union warns when an aligned column has no value left after converting."""
    import dataclasses
    import warnings

    from lakejoin_jupyter import actions
    from lakejoin_jupyter.errors import LakeJoinWarning
    engine, tables, q = split_log_lake
    hits = {h.table: h for h in engine.search_unionable(q, k=5)}
    out = actions.UNION_ACTIONS[0](engine, hits["debian/packages"], q)
    added = out.joined.iloc[len(q):]
    empty = [c for c in q.columns if added[c].isna().all()]
    assert sorted(out.details["empty_columns"]) == sorted(empty) and len(empty) >= 2
    assert "**Warning:**" in out.summary
    assert all(f"`{c}`" in out.summary for c in empty)
    assert f"empty in all {len(added):,} added rows" in out.summary
    # hit.union warns of them too (half the query's columns or more are empty)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        hits["debian/packages"].union(q)
    msg = " ".join(str(w.message) for w in seen if issubclass(w.category, LakeJoinWarning))
    assert all(f"`{c}`" in msg for c in empty) and "no aligned column" in msg
    # the CLI's --stack says the same on stderr, and writes the same rows
    import pathlib
    import tempfile

    from lakejoin_jupyter.cli import main as cli
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        q.to_csv(tmp / "q.csv", index=False)
        rank = 1 + [h.table for h in engine.search_unionable(
            pd.read_csv(tmp / "q.csv"), k=5)].index("debian/packages")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            assert cli(["union", str(engine.index.path), "-t", str(tmp / "q.csv"), "--stack",
                        str(rank), "--out", str(tmp / "s.csv")]) == 0
        assert "Warning:" in err.getvalue() and all(f"`{c}`" in err.getvalue() for c in empty)
        assert len(pd.read_csv(tmp / "s.csv")) == len(out.joined)
    # an aligned column none of whose values converts to the query's type (numbers)
    qn = q.assign(n=np.arange(len(q)))
    hit = dataclasses.replace(hits["debian/uploads_old"],
                              alignment=(("package", "package", 0.9), ("n", "email", 0.9)))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        u = hit.union(qn, distinct=False)
    assert u["n"].iloc[len(qn):].isna().all()
    msg = " ".join(str(w.message) for w in seen if issubclass(w.category, LakeJoinWarning))
    assert "`n` <- `email` is empty in all 600 added rows" in msg and "numbers" in msg
    out = actions.UNION_ACTIONS[0](engine, hit, qn, distinct=False)
    assert "**Warning:** `n` <- `email` is empty in all 600 added rows" in out.summary
    assert out.details["empty_aligned"] == ["n"]
    old = hits["debian/uploads_old"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", LakeJoinWarning)   # a clean union says nothing
        old.union(q[[a for a, _, _ in old.alignment]])    # (every query column aligned)


# ----------------------------------------------------------------------- a small lake

def _services_lake(rng):
    """A services table (name, port, protocol; most names on tcp and udp, as /etc/services)
    cut in two by range and in two at random, the halves under two headers, beside a table
    of prefixed port codes: 14 columns, 4 tables of one domain."""
    words = sorted({"".join(rng.choice(list("abcdefghiklmnoprstuvwxyz"), int(rng.integers(3, 10))))
                    for _ in range(400)})[:170]
    rows = []
    port = 1
    for w in words:
        port += int(rng.integers(1, 60))
        for proto in (("tcp", "udp") if rng.random() < 0.85 else ("tcp",)):
            rows.append((w, port, proto))
    sv = pd.DataFrame(rows, columns=["service", "port", "proto"])
    other = {"service": "Name", "port": "Port Number", "proto": "Transport"}
    half = len(sv) // 2
    shuffled = sv.sample(frac=1, random_state=5)
    return {
        "net/services_part1.csv": sv.iloc[:half],
        "net/svc_more.tsv": sv.iloc[half:].rename(columns=other),
        "net/rand_a.csv": shuffled.iloc[:half],
        "net/rand_b.tsv": shuffled.iloc[half:].rename(columns=other),
        "net/port_codes.csv": pd.DataFrame({"code": [f"{p}-{n:05d}" for n, p in
                                                     zip(sv["port"], sv["proto"])],
                                            "svc": sv["service"]}),
    }


@pytest.fixture(scope="module")
def services_lake(spark, tmp_path_factory):
    tables = _services_lake(np.random.default_rng(3))
    return lake_engine(spark, tmp_path_factory, "services", tables, components=UNION_ONLY), tables


def test_a_table_split_in_a_small_lake_finds_its_parts_aligned(services_lake):
    """On a 14-column lake where 4 tables hold one domain, the whole lake is the background
    and the parts outrank each other on every measure, so none aligned: completed to
    MIN_BACKGROUND with its median column, each range half finds both random halves
    first, aligned right, the one under its own header on every column."""
    engine, tables = services_lake
    other = {"service": "Name", "port": "Port Number", "proto": "Transport"}
    for query, same, renamed in (("net/services_part1", "net/rand_a", "net/rand_b"),
                                 ("net/svc_more", "net/rand_b", "net/rand_a")):
        res = engine.search_unionable(engine.table(query), k=5, include_own=False)
        assert {h.table for h in res[:2]} == {same, renamed}, [h.table for h in res]
        hits = {h.table: h for h in res}
        cols = list(engine.table(query).columns)
        assert hits[same].mapping == {c: c for c in cols}
        truth = {a: b for a, b in zip(cols, engine.table(renamed).columns)}
        assert len(hits[renamed].mapping) >= 2 and hits[renamed].mapping.items() <= truth.items()


# ----------------------------------------------------------------------- the name rule
# A table cut by a range of its rows, both halves under one header: they share no service
# name and no port (set 0), and their ports lie in disjoint ranges (numeric 0), so values
# alone align the protocol only. A decoy under the same header holds other kinds of values.

def _named_lake(rng):
    tables = _services_lake(rng)
    sv = pd.concat([tables["net/services_part1.csv"],
                    tables["net/svc_more.tsv"].set_axis(["service", "port", "proto"], axis=1)],
                   ignore_index=True)
    half = len(sv) // 2
    n = 120
    log, _ = _split_log_lake(rng)
    return {
        "net/services_low.csv": sv.iloc[:half],
        "net/services_high.csv": sv.iloc[half:],
        "net/listeners.csv": pd.DataFrame({
            "service": [f"{x:08x}-{y:04x}" for x, y in rng.integers(0, 2**31, (n, 2))],
            "port": rng.choice(["eth0", "eth1", "wlan0", "lo", "br-lan"], n),
            "proto": rng.choice(["tcp", "udp"], n)}),
        **{k: v for k, v in log.items() if k.startswith(("colors/", "mime/", "stats/", "xkb/"))},
    }


@pytest.fixture(scope="module")
def named_lake(spark, tmp_path_factory):
    tables = _named_lake(np.random.default_rng(7))
    return lake_engine(spark, tmp_path_factory, "named", tables, components=UNION_ONLY), tables


def test_same_named_columns_of_a_range_split_align_by_name(named_lake):
    """The two halves of a table cut by range, under one header, align on every column:
    the protocol by values, the service names and ports by the name rule (same name, same
    kind, values alike in shape); the decoy under the same header aligns its protocol only
    (its ports are words, its service names hexadecimal ids). Scores and ranking are the
    values' alone, and the alignments are those of the brute force."""
    engine, tables = named_lake
    q = engine.table("net/services_low")
    res = engine.search_unionable(q, k=10)
    hits = {h.table: h for h in res}
    high = hits["net/services_high"]
    assert high.mapping == {"service": "service", "port": "port", "proto": "proto"}
    assert set(high.named) == {"service", "port"}
    assert hits["net/listeners"].mapping == {"proto": "proto"}
    frame = high.alignment_frame()
    assert frame.set_index("query column")["by name"].to_dict() == \
        {"service": True, "port": True, "proto": False}
    # the values' score, times the chance that two query rows differ on proto (tcp, udp),
    # times the reach of its set test in this small lake: two values sharing both, at best
    # p = 1/6, 1/5 given that they meet, against 0.05
    c = q["proto"].value_counts().to_numpy()
    differ = 1 - (c * (c - 1)).sum() / (len(q) * (len(q) - 1))
    reach = np.log10(5) / -np.log10(0.05)
    assert high.score == pytest.approx(
        frame.loc[~frame["by name"], "score"].sum() * reach / 3 * differ)
    assert "service <- service (" in repr(res) and ", by name)" in repr(res)
    q2 = q.sample(60, random_state=1)
    for query in (q, q2):
        aligned: dict = {}
        expect = brute_search(engine.index, query, 10, aligned=aligned)
        found, _ = us.search(engine.index, query, k=10)
        assert [(c.table_id, round(c.score, 9)) for c in found] == \
            [(t, round(s, 9)) for t, s in expect]
        for c in found:
            assert {i: (cid, i in c.named) for i, cid, _ in c.pairs} == aligned[c.table_id]


def test_name_rule_kinds_and_folded_names():
    """Folded names ignore case, spaces and punctuation, and a name without a letter is a
    position; dates in any format are one kind, apart from numbers and words."""
    assert us.name_key("Upload_Date") == us.name_key(" upload-date ") == "uploaddate"
    assert us.name_key(0) is None and us.name_key("1") is None
    assert us.value_kind(["mon, 05 jan 2015 12:00:00 +0100", "tue, 06 jan 2015 12:00:00 +0100"],
                         False) == "date"
    assert us.value_kind(["05/01/2015", "2015-01-06"], False) == "date"
    assert us.value_kind(["1.2.3-1", "0.9.1-2"], False) == "text"
    assert us.value_kind(["may", "june"], False) == "text"
    assert us.value_kind(["7", "8"], True) == "numeric"


def test_union_code_of_a_deleted_table_is_refused(union_lake):
    """The code of a union hit whose table file was deleted since the build is refused as
    its union is (the file, the table, the rebuild command), not code that fails on
    pandas' own missing-file error when run."""
    from lakejoin_jupyter.errors import TableReadError
    engine, tables, _ = union_lake
    q = tables["sales.csv"].head(10)
    hit = {h.table: h for h in engine.search_unionable(q, k=10)}["sales"]
    path = hit.plan(q).other.uri
    moved = path + ".moved"
    os.rename(path, moved)
    try:
        with pytest.raises(TableReadError) as err:
            hit.union(q)
        for spark in (False, True):
            with pytest.raises(TableReadError) as code_err:
                hit.code("q", "out", spark=spark)
            assert str(code_err.value) == str(err.value)
        assert "was deleted or moved after the index was built (lake table sales)" in \
            str(err.value) and "lakejoin index " in str(err.value)
    finally:
        os.rename(moved, path)
