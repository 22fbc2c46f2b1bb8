"""The one rule ``Hit.autojoin`` keeps a join by (join/autojoin/choice.py: takes_over): more query rows
first, then fewer lake rows per query row, then the tie. Checked on hand-made joins against
a brute-force order of the (query row, lake row) pairs, and the reasons the user reads."""
from __future__ import annotations

import itertools
import random

from lakejoin_jupyter.join.autojoin.choice import Reach, reaches_further, takes_over, why_taken


class _Join:
    """An Auto-Join result reduced to what the rule reads: its pairs."""

    def __init__(self, pairs, found=True):
        self._pairs, self.found = list(pairs), found

    def pairs(self, fuzzy=True):
        return self._pairs


def _oracle(candidate: list, kept: list, tie: bool) -> bool:
    rows_c, rows_k = {i for i, _ in candidate}, {i for i, _ in kept}
    if not rows_c:
        return False
    per_c, per_k = len(candidate) / len(rows_c), len(kept) / max(len(rows_k), 1)
    if len(rows_c) != len(rows_k):
        return len(rows_c) > len(rows_k)
    return per_c < per_k or (per_c == per_k and tie)


def test_the_rule_is_rows_then_lake_rows_per_row_then_the_tie():
    rng = random.Random(0)
    cells = list(itertools.product(range(5), range(4)))
    for _ in range(3000):
        a = rng.sample(cells, rng.randint(0, 8))
        b = rng.sample(cells, rng.randint(0, 8))
        for tie in (True, False):
            got = takes_over(Reach.of(_Join(a), False), Reach.of(_Join(b), False), tie)
            assert got == _oracle(a, b, tie), (a, b, tie)


def test_where_the_four_old_rules_disagreed():
    """A candidate joining one more query row, each to more lake rows: the identity's rule
    (rows only) took it, the hit's-program and the narrower-join rules (rows and lake rows
    per row) did not; now every one takes it, and says why. As many rows through fewer
    pairs is taken; the exact tie goes where ``tie`` says."""
    learned = Reach.of(_Join([(0, 0), (1, 1)]), True)
    more_rows = Reach.of(_Join([(0, 0), (0, 5), (1, 1), (1, 6), (2, 2)]), False)
    assert takes_over(more_rows, learned, tie=False)
    assert why_taken(more_rows, learned, "the learned upper(x)") == \
        "it joins 3 query rows, the learned upper(x) 2"
    fan = Reach.of(_Join([(0, 0), (0, 1), (1, 1)]), False)
    one = Reach.of(_Join([(0, 0), (1, 1)]), False)
    assert takes_over(one, fan, tie=False) and not takes_over(fan, one, tie=True)
    assert why_taken(one, fan, "x") == ("it joins as many query rows (2) as x, each to "
                                         "fewer lake rows (1 on average, against 1.5)")
    assert takes_over(one, one, tie=True) and not takes_over(one, one, tie=False)
    assert "each to as many lake rows" in why_taken(one, one, "x")
    assert not takes_over(Reach.of(_Join([]), False), Reach.of(_Join([]), False), True)


def test_reaching_further_prefers_more_lake_rows_where_the_rule_prefers_fewer():
    """The whole table's program against the partner rows' one: as many query rows through
    more lake rows reaches further (every locale of a country), the opposite second key."""
    partner, whole = _Join([(0, 0), (1, 1)]), _Join([(0, 0), (0, 2), (1, 1), (1, 3)])
    assert reaches_further(whole, partner) and not reaches_further(partner, whole)
    assert not takes_over(Reach.of(whole, False), Reach.of(partner, False), tie=True)
    assert reaches_further(partner, _Join([], found=False))
