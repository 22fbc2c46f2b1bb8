"""Auto-Join deviation 81: the estimated precision where the evidence shares the program's
mistake. A guard of a program set choosing among keys its branches derive for a row counts
1 - 1/k of that row wrong (k candidate keys), whatever the basis; in the row-pair estimate,
rows the program folds onto one key whose pairs offer them keys of their own, unjoined,
count 1/n each (n rows on the key). Hand-computed tables, each estimated wrongly before."""
from __future__ import annotations

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin.dsl import Constant, Guard, Program, ProgramSet, extract
from lakejoin_jupyter.join.autojoin.learn import Candidate, Example
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair
from lakejoin_jupyter.join.autojoin.pipeline import (Table, _estimate, _pair_precision,
                                                     _row_pair_counts, guard_choice_share)

# ------------------------------------------------ a guard choosing among the branches' keys

NAMES = ["alpha", "bravo", "charlie", "delta", "echo"]
KINDS = ["X", "Y", "X", "Y", "X"]
# alpha and delta have both headers in the target, the others one; echo joins nothing
HEADERS = ["alpha.h", "alpha_ops.h", "bravo.h", "charlie_ops.h", "delta.h", "delta_ops.h"]


def _headers():
    src = Table(pd.DataFrame({"name": NAMES, "kind": KINDS}), "s")
    ops = Program((extract("name"), Constant("_ops.h")))
    plain = Program((extract("name"), Constant(".h")))
    guarded = ProgramSet(((Guard("kind", "last word", frozenset({"X"})), ops), (None, plain)))
    return src, ops, plain, guarded


def test_guard_choice_share_by_hand():
    src, ops, plain, guarded = _headers()
    # joined: alpha -> alpha_ops.h (alpha.h a key too: k = 2, 1/2 lost), bravo -> bravo.h
    # (bravo_ops.h no key), charlie -> charlie_ops.h (charlie.h no key), delta -> delta.h
    # (the guard failed on delta_ops.h, a key: k = 2, 1/2 lost); echo_ops.h is no key
    assert guard_choice_share(guarded, src, HEADERS) == pytest.approx(1.0 / 4)
    taught = [Example(("alpha",), "alpha_ops.h", source_row=0)]
    assert guard_choice_share(guarded, src, HEADERS, taught) == pytest.approx(0.5 / 3)
    # no guard: the first branch is a preference, not a choice; a single program: none
    assert guard_choice_share(ProgramSet(((None, ops), (None, plain))), src, HEADERS) == 0.0
    assert guard_choice_share(plain, src, HEADERS) == 0.0


def test_estimate_takes_the_guards_choices_off():
    # every joined row confirmed by its row pairs (short q-grams: no independent evidence,
    # no short codes), so the row pairs alone say 1.0; two of the four joined rows had two
    # keys and the guard picked one: 1 - (1/2 + 1/2) / 4
    src, _ops, _plain, guarded = _headers()
    outs = guarded.evaluate({c: src.cells(c) for c in guarded.columns}, len(NAMES))
    pairs = [RowPair(i, HEADERS.index(o), o[:3], 0.5) for i, o in enumerate(outs)
             if o in HEADERS]
    groups = [PairGroup("name", "key", pairs)]
    cand = Candidate(guarded, 0, "key", [])
    assert _row_pair_counts(cand, src, HEADERS, groups) == (4, 4)
    assert _estimate(cand, src, HEADERS, groups) == pytest.approx(0.75)
    assert cand.extra["precision_basis"] == "pairs"


# ------------------------------------------------ rows folded onto one key (row pairs)

def _folded(extra_values=(), extra_keys=()):
    """Question numbers of two pools written onto pool 7's file: q1 and q2 of pools 7 and
    9 onto "7-q1" / "7-q2" (the pairs of q1 name 7-q1 and 9-q1, unjoined), q3 of pool 7
    alone; plus ``extra_values`` written as they are."""
    values = ["q1", "q1", "q2", "q2", "q3", *extra_values]
    out = ["7-" + v for v in values[:5]] + list(extra_values)
    keys = ["7-q1", "9-q1", "7-q2", "9-q2", "7-q3", *extra_keys]
    src = Table(pd.DataFrame({"question": values, "out": out}), "s")
    return src, keys, values


def test_folded_rows_count_one_over_n():
    src, keys, values = _folded()
    named = {"q1": ["7-q1", "9-q1"], "q2": ["7-q2", "9-q2"], "q3": ["7-q3"]}
    first = {}
    for i, v in enumerate(values):
        first.setdefault(v, i)
    pairs = [RowPair(first[v], keys.index(k), v, 0.5) for v, ks in named.items() for k in ks]
    groups = [PairGroup("question", "key", pairs)]
    cand = Candidate(Program((extract("out"),)), 0, "key", [])
    # every row agrees (its key is among its pairs' keys): main read 5 / 5
    assert _row_pair_counts(cand, src, keys, groups) == (5, 5)
    # four rows two per key, each with a key of its own (9-q1, 9-q2) no row gets: 1/2 each
    assert _pair_precision(cand, src, keys, groups) == pytest.approx((5 - 4 * 0.5) / 5)


def test_a_key_of_many_rows_with_fewer_partners_is_not_folded():
    # three rows of "CA" onto "California", whose pairs also name "Carolina" (unjoined):
    # two partners for three rows cannot give each its own key, an N:1 join as it should be
    values = ["CA", "CA", "CA", "Texas", "Ohio"]
    keys = ["California", "Carolina", "Texas", "Ohio"]
    out = ["California", "California", "California", "Texas", "Ohio"]
    src = Table(pd.DataFrame({"state": values, "out": out}), "s")
    pairs = [RowPair(0, 0, "ca", 0.5), RowPair(0, 1, "ca", 0.3), RowPair(3, 2, "tex", 0.5),
             RowPair(4, 3, "ohi", 0.5)]
    cand = Candidate(Program((extract("out"),)), 0, "key", [])
    assert _pair_precision(cand, src, keys, [PairGroup("state", "key", pairs)]) == 1.0
