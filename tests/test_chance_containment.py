"""A dense list of integers holds a query's integers by chance (join search's pairs).

With h the query's largest integer of 1..max (max: the lake column's largest), a lake
column holding n of the integers 1..h contains each query integer of 1..h with chance
d = n / h when its values say nothing about the query's. The match is chance when at least
as many of the query's integers as found would be found that way one time in 20
(join/preview.py ``chance_containment``, checked here against the binomial tail summed
term by term). Such a pair weighs as a row number (the case d = 1) in ``rank="useful"``,
with a warning: a payroll's 53 state codes of 1..78 no longer rank first for a query of
delegate counts, while a sparse code list (ISO numeric codes) holding a query of codes, or
a sequence far from 1 holding a query of its ids, stays an identifier without a warning.
"""
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd
import pytest

from lakejoin_jupyter.join import preview

from conftest import write_lake


def tail(m: int, c: int, n: int, span: int) -> Fraction:
    """P(Binomial(m, n / span) >= c), summed exactly."""
    d = Fraction(min(n, span), span)
    return sum((comb(m, i) * d ** i * (1 - d) ** (m - i) for i in range(c, m + 1)),
               Fraction(0))


def test_the_decision_equals_the_exact_binomial_tail():
    rng = np.random.default_rng(11)
    seen = {True: 0, False: 0}
    for _ in range(400):
        hi = int(rng.integers(20, 300))
        n = int(rng.integers(1, hi + 1))
        lake = set(rng.choice(np.arange(1, hi + 1), n, replace=False).tolist())
        if rng.random() < 0.3:
            lake.add(0)                                  # a 0 is not among 1..h
        if rng.random() < 0.3:
            lake |= {5000, 40760}                        # far codes (as GAUL's)
        query = set(rng.integers(-5, hi + 20, int(rng.integers(1, 60))).tolist())
        if rng.random() < 0.5:                           # values of the lake's among them
            query |= set(rng.choice(sorted(lake), int(rng.integers(1, 40))).tolist())
        inside = [v for v in query if 1 <= v <= max(lake)]
        got = preview.chance_containment([str(v) for v in query] + ["x"],
                                          [str(v) for v in lake] + ["y"])
        found = sum(1 for v in inside if v in lake)
        if found == 0:
            assert got is None
            continue
        h = max(inside)
        held = sum(1 for v in lake if 1 <= v <= h)
        assert (got is not None) == (tail(len(inside), found, held, h) >= Fraction(1, 20))
        seen[got is not None] += 1
    assert min(seen.values()) > 30, seen           # both answers are exercised


def test_hand_checked_cases():
    def chance(query, lake):
        return preview.chance_containment([str(v) for v in query], [str(v) for v in lake])
    # 20 counts of 1..20 against 53 codes of 1..78 holding 14 of 1..20 (d = 0.7): chance
    codes = list(range(1, 15)) + list(range(40, 79))
    w = chance(range(1, 21), codes)
    assert w is not None and "70% of the integers 1..20" in w and "14 of the query's 20" in w
    # 141 ISO codes, 140 among 249 codes of 4..894 (d = 0.28): not chance
    iso = list(range(4, 4 + 6 * 141, 6))
    assert chance(iso, iso[:140] + list(range(5, 5 + 6 * 109, 6))) is None
    # GAUL-like: every integer 1..300, then far codes: temperatures up to 100 are chance
    assert chance(range(30, 101), list(range(1, 301)) + [40760, 61013]) is not None
    # a row number (d = 1) always is; text tokens and values above the lake's are not counted
    assert chance(["5", "6", "x"], range(1, 101)) is not None
    assert chance([500, 600], range(1, 101)) is None
    # a sequence far from 1 holding all of the query: its span is evidence (d = 60 / 1,059)
    assert chance(range(1000, 1060), range(1000, 1060)) is None
    # a chance pair weighs as a row number at most, whatever the kinds
    assert preview.usefulness(1.0, 1.0, "identifier", "number", chance=True) == \
        pytest.approx(0.1)
    assert preview.usefulness(1.0, 1.0, "identifier", "number") == pytest.approx(0.3)


@pytest.mark.spark
def test_useful_ranks_the_counts_above_a_dense_code_list(spark, tmp_path):
    """A query of delegate counts (20 distinct of 1..70, 30 rows): 14 are among a payroll
    table's 53 state codes of 1..78 (unique: an identifier), all 20 among another snapshot's
    counts (25 distinct on 60 rows: a measure). Before, the state codes ranked first by
    usefulness (0.3 x their coverage); now the pair is chance (p >= 0.05), weighs 0.1 and has
    the warning, and the snapshot's counts are first."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    rng = np.random.default_rng(5)
    counts = sorted(rng.choice(np.arange(1, 71), 20, replace=False).tolist())
    codes = sorted(set(rng.choice(np.arange(1, 79), 53, replace=False).tolist()) | {1, 78})
    codes = codes[:26] + codes[-27:]                       # 53 codes, 1 and 78 among them
    assert len(codes) == 53 and sum(c in codes for c in counts) == 14
    query = pd.DataFrame({"allocated": counts + counts[:10]})
    snapshot = pd.DataFrame({"state": [f"s{i % 25}" for i in range(60)],
                             "allocated": [(counts + [71, 73, 75, 77, 79])[i % 25]
                                           for i in range(60)]})
    root = write_lake(tmp_path / "lake", {
        "payroll/people.csv": pd.DataFrame({"state_code": codes,
                                            "name": [f"p{c}" for c in codes]}),
        "votes/snapshot.csv": snapshot})
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    res = {(h.table, h.column): h for h in engine.search(query, "allocated", k=5,
                                                         rank="useful")}
    first = engine.search(query, "allocated", k=5, rank="useful")[0]
    assert (first.table, first.column) == ("votes/snapshot", "allocated")
    code = res["payroll/people", "state_code"]
    assert code.key_kind == "identifier" and "no more than chance" in code.key_warning
    assert code.row_coverage == pytest.approx(23 / 30)      # 14 codes, 9 of them twice
    assert code.usefulness == pytest.approx(0.1 * 23 / 30)
    assert res["votes/snapshot", "allocated"].key_warning is None or \
        "chance" not in res["votes/snapshot", "allocated"].key_warning


def test_integers_beyond_int64_are_left_out():
    """Integers past int64 (a 24-digit code) made the search of such a column raise
    (OverflowError, seen in bench/josie_real.py on the real lake): by hand, the integers
    that fit an int64 are read (2**63 - 1 and -2**63 the last), the others left out, and
    the chance test of a query holding long ids decides on the rest."""
    tokens = ["7", "-3", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
              "-98765432109876543210", "abc", "4.5"]
    assert preview.integers_of(tokens).tolist() == [-2 ** 63, -3, 7, 2 ** 63 - 1]
    lake = [str(i) for i in range(1, 101)] + ["123456789012345678901234"]
    query = ["5", "9", "40", "99999999999999999999999"]
    assert preview.chance_containment(query, lake) is not None    # a row number 1..100
