"""Union search over columns of small integers (the eighteenth user's report, D3 and D5).

D3: a query's district ids (three digits, a sentinel 999 on a third of the rows) were aligned
with a lake table's vote count (one value shared by chance, set evidence 0, header 0) over
the table's own `district_id` (set 0 too, header 1): without set evidence the other measures
only say that both are integers, and a few background columns' difference decided. Now a
pair without set evidence is chosen with its header counted as fully as the strongest
measure (``named_choice``); the score stays the ensemble's. D5: a row counter 0..9 held
all six party sizes 1..6 of a tips table, set evidence 1.0 on the two columns' disjoint
union (16 values); the six are any integers within the counter's span. The grid of numbers
the two columns could hold is now their domain also against a lake column strictly inside
the query's span (docs/algorithms/union.md, "Small integers").
"""
from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from conftest import UNION_ONLY, lake_engine
from lakejoin_jupyter.index import union_profile as up
from lakejoin_jupyter.search import union as un


def lake_of(columns: list) -> SimpleNamespace:
    """The part of LakeProfiles set_population reads, for lake columns given as lists of
    integers."""
    q = [(min(c), max(c), 1.0) for c in columns]
    return SimpleNamespace(sizes=np.array([len(set(c)) for c in columns]), vocabulary=10_000,
                           numeric=np.ones(len(columns), dtype=bool),
                           grids=tuple(np.array(x, dtype=np.float64) for x in zip(*q)),
                           quantiles=np.array([np.quantile(sorted(set(c)), np.linspace(0, 1, 21))
                                               for c in columns]))


def query_column(values: list):
    return un.profile_column(pd.Series(values, name="x"), 50)[0]


def brute_tail(t, query: set, nb: int, domain: list) -> float:
    """P(|Q ∩ X| >= t | |Q ∩ X| >= 1), X every nb-subset of ``domain``, one at a time."""
    meet = at_least = 0
    for x in itertools.combinations(domain, nb):
        k = len(query.intersection(x))
        meet += k >= 1
        at_least += k >= t
    return at_least / meet if meet else 1.0


def test_a_lake_column_within_a_dense_query_span_is_chance_by_hand():
    """D5 in numbers: 0..9 against 1..6 (6 of 6 shared). Old domain: the disjoint union, 16
    values, p = C(10,6) / C(16,6) = 0.026 (given one shared value: / (1 - 1 / C(16,6))),
    statistic 1.58 (significant). Now: the grid from
    0 to 9, 10 integers, which holds every value of both, so p = 1, statistic 0. Equal spans
    (two 1-5 ratings) and a shared end (1..4 against 1..5, a sample missing its top) keep
    the disjoint union; so does a sparse query span (the grid is only ever a smaller domain)."""
    lp = lake_of([list(range(1, 7)), list(range(1, 6)), list(range(1, 7)), list(range(1, 5))])
    pop = un.set_population([query_column(list(range(10)))], np.array([0]), lp)[0]
    assert pop[0] == pytest.approx(10)
    assert float(up.set_statistic(6, 10, 6, pop[0])) == 0.0
    assert float(up.set_statistic(6, 10, 6, 16)) == pytest.approx(    # given X >= 1
        -np.log10((210 / 8008) / (1 - 1 / 8008)), abs=1e-9)
    ratings = un.set_population([query_column([1, 2, 3, 4, 5] * 3)], np.array([1]), lp)[0]
    assert ratings[0] == pytest.approx(10)                              # 5 + 5: the disjoint union
    sparse = un.set_population([query_column([0, 2, 3, 5, 6, 1000])], np.array([2]), lp)[0]
    # 6 + 6 < the 1001 integers of 0..1000: the common range 1..6, where the query's 4
    # values all are the lake's (6 integers, all held): 6 * 6 * 6 / (4 * 6) (common_range)
    assert sparse[0] == pytest.approx(9)
    one_end = un.set_population([query_column([1, 2, 3, 4, 5] * 3)], np.array([3]), lp)[0]
    assert one_end[0] == pytest.approx(9)              # 5 + 4, not the grid's 5


@pytest.mark.parametrize("seed", range(3))
def test_set_statistic_on_the_grid_against_brute_force(seed):
    """Random integer columns of a small grid: where the lake column reaches beyond the
    query's span or lies strictly inside it, and the grid is smaller than the disjoint union,
    the statistic on set_population's domain is -log10 of the conditional tail counted over
    every lake column of that size drawn from the grid of the two spans (0 where the tail is
    over 1/2); where the grid is larger, the common range's population (common_range);
    elsewhere (one end or both shared) the domain is the disjoint union."""
    rng = np.random.default_rng(seed)
    checked = checked_inside = 0
    for _ in range(60):
        lo, hi = sorted(rng.integers(0, 12, 2))
        if hi - lo < 2:
            continue
        q = sorted(set(rng.integers(lo, hi + 1, rng.integers(2, 8)).tolist()) | {lo, hi})
        a, b = sorted(rng.integers(lo - 2, hi + 3, 2))
        x = sorted(set(rng.integers(a, b + 1, rng.integers(1, 7)).tolist()))
        if (min(x), max(x)) == (lo, hi):
            continue
        t = len(set(q) & set(x))
        if not t:
            continue
        pop = un.set_population([query_column(q * 3)], np.array([0]), lake_of([x]),
                                np.array([[t]]))[0][0]
        pop = round(float(pop), 6)
        domain = list(range(min(lo, min(x)), max(hi, max(x)) + 1))
        beyond = min(x) < lo or max(x) > hi
        inside = min(x) > lo and max(x) < hi
        if not (beyond or inside):                                      # the disjoint union
            assert pop == pytest.approx(len(q) + len(x)), (q, x)
            continue
        if len(q) + len(x) < len(domain):             # the grid is larger: common_range
            lp = lake_of([x])
            want = un.common_range(query_column(q * 3), (lo, hi, 1.0), *(g[:1] for g in lp.grids),
                                   lp.quantiles, lp.sizes.astype(float), np.array([t]))[0]
            assert pop == pytest.approx(round(float(want), 6) if np.isfinite(want)
                                        else len(q) + len(x)), (q, x)
            continue
        assert pop == pytest.approx(len(domain)), (q, x)
        checked_inside += inside
        p = brute_tail(t, set(q), len(x), domain)
        got = float(up.set_statistic(t, len(q), len(x), pop))
        assert got == (0.0 if p > 0.5 + 1e-9 else pytest.approx(-np.log10(p), abs=1e-9)), (q, x)
        checked += 1
    assert checked >= 10 and checked_inside >= 2


def brute_alignment(scores, choice, min_column):
    """The matching maximizing the summed ``choice`` over pairs scoring >= min_column, every
    injective assignment tried."""
    n, m = scores.shape
    best, best_pairs = 0.0, []
    for k in range(0, min(n, m) + 1):
        for rows in itertools.combinations(range(n), k):
            for cols in itertools.permutations(range(m), k):
                if all(scores[i, j] >= min_column for i, j in zip(rows, cols)):
                    v = sum(choice[i, j] for i, j in zip(rows, cols))
                    if v > best + 1e-12:
                        best, best_pairs = v, sorted(zip(rows, cols))
    return best_pairs


def test_best_alignment_maximizes_the_choice_against_brute_force():
    rng = np.random.default_rng(18)
    for _ in range(150):
        n, m = rng.integers(1, 4), rng.integers(1, 5)
        scores = rng.uniform(0.3, 1.0, (n, m))
        choice = scores + rng.uniform(0, 0.3, (n, m)) * (rng.random((n, m)) < 0.5)
        pairs, total = un.best_alignment(scores, 0.5, choice)
        assert sorted(pairs) == brute_alignment(scores, choice, 0.5)
        assert total == pytest.approx(sum(scores[i, j] for i, j in pairs))
        assert un.best_alignment(scores, 0.5)[0] == brute_alignment(scores, scores, 0.5)


def test_named_choice_by_hand():
    """The user's two pairs' likelihoods (set, semantic, format, numeric, header):
    `Bergeron` 0, .9894, .9965, .9887, 0 scores 0.6595, `district_id` 0, .9681, .9823,
    .9774, .9965 scores 0.6385. Without set evidence the header counts at weight 1 in the
    choice: `district_id` + 0.75 x .9965^8 / 4.25 = 0.8093. With set evidence (0.99) the
    vote count would keep its pair (0.8755 against 0.8093)."""
    u = {"set": np.array([[0.0, 0.0]]), "semantic": np.array([[0.9894, 0.9681]]),
         "format": np.array([[0.9965, 0.9823]]), "numeric": np.array([[0.9887, 0.9774]]),
         "header": np.array([[0.0, 0.9965]])}
    s = un.ensemble(u, un.WEIGHTS, 8)
    assert s[0] == pytest.approx([0.6595, 0.6385], abs=5e-4)
    c = un.named_choice(s, u, un.WEIGHTS, 8)
    assert c[0, 0] == s[0, 0]
    assert c[0, 1] == pytest.approx(s[0, 1] + 0.75 * 0.9965 ** 8 / 4.25)
    assert un.best_alignment(s, 0.5, c)[0] == [(0, 1)]
    assert un.best_alignment(s, 0.5)[0] == [(0, 0)]
    u["set"] = np.array([[0.99, 0.0]])
    s = un.ensemble(u, un.WEIGHTS, 8)
    assert un.best_alignment(s, 0.5, un.named_choice(s, u, un.WEIGHTS, 8))[0] == [(0, 0)]
    # the baselines (no header, or header alone) choose by their own score
    for w in (un.BASELINES["overlap"], un.BASELINES["header"]):
        assert np.array_equal(un.named_choice(s, u, w, 8), s)


WINNERS = ["Coderre", "Bergeron", "Joly"]
QUERY_IDS = [101, 102, 11, 111, 112, 113, 12, 121, 122, 123, 13, 131, 132, 133, 134, 14, 141,
             142, 151, 152, 161, 162, 171, 172, 181, 182, 183, 191, 192]
LAKE_IDS = [21, 22, 23, 31, 32, 33, 34, 35, 41, 42, 43, 51, 52, 61, 62, 63, 64, 71, 72, 73,
            74, 81, 82, 91, 92, 93, 94, 193, 194]


def districts(ids, rng):
    return [f"{i}-{name}" for i, name in zip(ids, rng.permutation(
        [f"Quartier {chr(65 + k % 26)}{k}" for k in range(len(ids))]))]


@pytest.fixture(scope="module")
def election_lake(spark, tmp_path_factory):
    """The user's lake in miniature: the second half of an election (districts, three vote
    counts, total, winner, result, district ids 21..194, mostly two digits), a tips table
    (party sizes 1..6), a stock table and a wide table of 120 measurements with every
    district's id."""
    rng = np.random.default_rng(18)
    n = len(LAKE_IDS)
    votes = {w: np.exp(rng.uniform(np.log(120), np.log(6000), n)).astype(int) for w in WINNERS}
    part = pd.DataFrame({"district": districts(LAKE_IDS, rng), **votes})
    part["total"] = sum(votes.values()) + rng.integers(50, 500, n)
    part["winner"] = [WINNERS[int(np.argmax([votes[w][i] for w in WINNERS]))] for i in range(n)]
    part["district_id"] = LAKE_IDS
    part["result"] = rng.choice(["majority", "plurality"], n)
    wide = pd.DataFrame(rng.normal(size=(58, 120)),
                        columns=[f"measure_{c:03d}" for c in range(120)])
    wide.insert(0, "district_id", LAKE_IDS + QUERY_IDS)
    m, k = 244, 40
    tips = pd.DataFrame({"total_bill": np.round(rng.uniform(3, 50, m), 2),
                         "tip": np.round(rng.uniform(1, 10, m), 2),
                         "sex": rng.choice(["Male", "Female"], m),
                         "day": rng.choice(["Thur", "Fri", "Sat", "Sun"], m),
                         "size": rng.choice([1, 2, 2, 2, 3, 3, 4, 5, 6], m)})
    tips.loc[:5, "size"] = [1, 2, 3, 4, 5, 6]
    stocks = pd.DataFrame({"date": pd.date_range("2018-01-01", periods=k).strftime("%Y-%m-%d"),
                           "GOOG": np.round(rng.uniform(0.9, 1.2, k), 6),
                           "AAPL": np.round(rng.uniform(0.9, 1.2, k), 6)})
    return lake_engine(spark, tmp_path_factory, "electionlake", {
        "mtl/measures_wide.csv": wide, "mtl/election_part2.csv": part,
        "misc/tips.csv": tips, "market/stocks.csv": stocks},
        components=UNION_ONLY)


def alignment(hits, table) -> dict:
    for h in hits:
        if h.table == table:
            return h.mapping
    return {}


@pytest.mark.spark
def test_an_id_column_with_a_sentinel_aligns_with_its_namesake_not_a_vote_count(election_lake):
    """D3: the first half's districts with 999 for 10 of the 29 ids. No id is shared with the
    second half and one vote count is 131 (as the user's `Bergeron`): set evidence 0 for
    every pair; the id column aligns by values with `district_id`, not with a vote count."""
    rng = np.random.default_rng(7)
    q = pd.DataFrame({"district": districts(QUERY_IDS, rng), "district_id": QUERY_IDS,
                      "winner": rng.choice(WINNERS, len(QUERY_IDS))})
    q.loc[:9, "district_id"] = 999
    hits = election_lake.search_unionable(q, k=5)
    got = alignment(hits, "mtl/election_part2")
    assert got.get("district_id") == "district_id", got
    h = [h for h in hits if h.table == "mtl/election_part2"][0]
    assert "district_id" not in h.named                     # by values, not the name rule


@pytest.fixture(scope="module")
def counter_search(election_lake):
    """D5's query, ten district names of the second half and a row counter 0..9, and its
    union hits."""
    part = election_lake.table("mtl/election_part2")
    q = part.head(10)[["district"]].assign(x=np.arange(10))
    return q, election_lake.search_unionable(q, k=10)


@pytest.mark.spark
def test_a_row_counter_has_no_set_evidence_against_party_sizes(counter_search):
    """D5: ten district names and a counter 0..9: the tips table's sizes 1..6 lie within the
    counter's span, so sharing all six is chance (set 0), and tips is no longer aligned at
    full set evidence."""
    _, hits = counter_search
    tips = [h for h in hits if h.table == "misc/tips"]
    assert not tips or tips[0].evidence["x"]["set"] == 0.0, tips[0].evidence


@pytest.mark.spark
def test_a_counter_aligned_by_its_kind_alone_lists_no_table(election_lake, counter_search):
    """D5's leftover: without set evidence the counter 0..9 still aligned with the party
    sizes by vectors, formats and quantiles (both are small integers), which made tips the
    first other table for ten district names though nothing else of it aligned. A table
    whose every pair is of a numeric query column without set and header evidence
    (``kind_only``) is not listed; named `size`, the counter lists tips again."""
    q, hits = counter_search
    assert "misc/tips" not in [h.table for h in hits]
    for h in hits:               # every table listed has a pair beyond its kind
        assert any(e["set"] > 0 or e["header"] > 0 or c != "x"
                   for c, e in h.evidence.items()), (h.table, h.evidence)
    named = election_lake.search_unionable(q.rename(columns={"x": "size"}), k=10)
    assert alignment(named, "misc/tips") == {"size": "size"}


def test_kind_only_by_hand():
    num, text = query_column(list(range(10))), query_column([f"w{i}" for i in range(10)])
    u = {"set": np.array([0.0, 0.0, 0.4, np.nan]), "header": np.array([0.0, 0.3, 0.0, 0.0])}
    assert [un.kind_only(num, u, j) for j in range(4)] == [True, False, False, True]
    assert not any(un.kind_only(text, u, j) for j in range(4))
