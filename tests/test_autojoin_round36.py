"""Auto-Join deviation 69 (round 36): every returned program carries an estimated precision.
Where neither the independent evidence (3+ observations) nor the chance rate of short codes
gives one, and for a partial program (accepted on its row pairs, deviation 68), the estimate
is the share of the joined rows (not taught) with a candidate partner in step 1's row pairs
whose derived key is one of them. Checked against a brute-force count over hand-built row
pairs and against the ground truth of three development cases."""
from __future__ import annotations

import random

import pandas as pd
import pytest

from conftest import read_case
from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.dsl import Program, extract
from lakejoin_jupyter.join.autojoin.learn import Candidate, Example
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair
from lakejoin_jupyter.join.autojoin.pipeline import (Table, _pair_precision, _paired_rows,
                                                     _row_pair_counts)
from lakejoin_jupyter.join.autojoin.result import AutoJoin


def _read(case: str):
    return read_case(case, "source", "target", "ground_truth", empty_as_missing=True)


def _achieved(aj, source, target, truth) -> float:
    """The equi-join's precision against the case's ground truth (rows compared whole)."""
    ns = source.shape[1]
    g = {(tuple(r[:ns]), tuple(r[ns:])) for r in truth.itertuples(index=False)}
    s_rows = [tuple(r) for r in source.itertuples(index=False)]
    t_rows = [tuple(r) for r in target.itertuples(index=False)]
    pairs = {(s_rows[i], t_rows[j]) for i, j in aj.pairs(fuzzy=False)}
    return len(pairs & g) / len(pairs)


# ---------------------------------------------------------------- the count, brute force


def _random_case(seed: int):
    """40 rows of 12 repeating values (N:1), the program's output per value (a key or
    none), 25 random row pairs onto 8 keys and 5 onto another target column."""
    rng = random.Random(seed)
    keys = [f"k{i}" for i in range(8)]
    values = [f"v{rng.randrange(12)}" for _ in range(40)]
    output = {f"v{i}": rng.choice(keys + [None]) for i in range(12)}
    src = Table(pd.DataFrame({"value": values, "out": [output[v] for v in values]}), "s")
    tcells = keys + [None]
    pairs = [RowPair(rng.randrange(40), rng.randrange(len(keys)), "g", rng.random())
             for _ in range(25)]
    groups = [PairGroup("value", "key", pairs), PairGroup("value", "other", pairs[:5])]
    return src, tcells, groups, values, output


@pytest.mark.parametrize("seed", range(6))
def test_row_pair_counts_against_brute_force(seed):
    src, tcells, groups, values, output = _random_case(seed)
    taught = {0, 1, 2}
    named: dict = {}        # a value's pairs hold for every row holding it
    for p in groups[0].pairs:
        named.setdefault(values[p.source_row], set()).add(tcells[p.target_row])
    agree = checked = 0
    for i, v in enumerate(values):
        if output[v] is None or i in taught or v not in named:
            continue
        checked += 1
        agree += output[v] in named[v]
    cand = Candidate(Program((extract("out"),)), 0, "key",
                     [Example((values[i],), "", source_row=i) for i in taught])
    assert _row_pair_counts(cand, src, tcells, groups, taught) == (agree, checked)
    want = agree / checked if checked else None
    assert _pair_precision(cand, src, tcells, groups) == want


def test_pair_precision_leaves_out_taught_rows_and_is_none_without_pairs():
    src = Table(pd.DataFrame({"value": ["a", "b", "c", "d", "e"],
                              "out": ["k0", "k1", "k2", "k0", "k1"]}), "s")
    tcells = ["k0", "k1", "k2"]
    pairs = [RowPair(0, 0, "a", 1.0), RowPair(1, 1, "b", 1.0), RowPair(2, 0, "c", 0.5),
             RowPair(3, 0, "d", 0.2), RowPair(3, 2, "d", 0.2)]
    groups = [PairGroup("value", "key", pairs)]
    program = Program((extract("out"),))
    # rows 0-3 have pairs: 0 (k0), 1 (k1), 3 (k0 among k0, k2) agree, 2 (k2, named k0) not
    assert _row_pair_counts(Candidate(program, 0, "key", []), src, tcells, groups) == (3, 4)
    assert _paired_rows(Candidate(program, 0, "key", []), src, tcells, groups) == 3
    taught = [Example(("a",), "k0", source_row=0)]
    assert _pair_precision(Candidate(program, 0, "key", taught), src, tcells, groups) == 2 / 3
    assert _pair_precision(Candidate(program, 0, "key", []), src, tcells, []) is None


# ---------------------------------------------------------------- development cases


def test_nonvoters_partial_program_estimated_from_its_row_pairs():
    # fresh7's nonvoters_income_dollars: main estimated the partial program (every joined
    # row right) at 0.29 from chance numbers in other columns; its row pairs say 1.0
    source, target, truth = _read("autojoin-fresh7/nonvoters_income_dollars")
    aj = autojoin(source, target, left_name="source", right_name="target", fuzzy=False)
    assert aj.found and "partial" in aj.stats and aj.joined_rows == 1057
    assert _achieved(aj, source, target, truth) == 1.0
    assert aj.estimated_precision == 1.0 and aj.precision_basis == "pairs"
    assert "from the row pairs" in aj.explain()


@pytest.mark.parametrize("case", ["autojoin-fresh8/html_numeric_references",
                                  "autojoin-fresh10/errno_oserror_messages"])
def test_a_program_without_independent_evidence_has_an_estimate(case):
    # main returned these programs with no estimate (fewer than 3 rows with evidence of
    # 6+ characters, no short codes); every joined row is right
    source, target, truth = _read(case)
    aj = autojoin(source, target, left_name="source", right_name="target", fuzzy=False)
    assert aj.found and aj.precision_basis == "pairs"
    assert abs(aj.estimated_precision - _achieved(aj, source, target, truth)) <= 0.02
    back = AutoJoin.from_json(aj.to_json(), source, target)
    assert back.precision_basis == "pairs"
    assert back.estimated_precision == aj.estimated_precision
