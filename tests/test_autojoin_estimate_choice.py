"""Auto-Join deviation 81: the estimated precision where the evidence shares the program's
mistake. A guard of a program set choosing among keys its branches derive for a row counts
1 - 1/k of that row wrong (k candidate keys) unless the row pairs single out the chosen key,
whatever the basis; in the row-pair estimate,
rows the program folds onto one key whose pairs offer them keys of their own, unjoined,
count 1/n each (n rows on the key) where such a key differs from theirs only in the program's
constants. Hand-computed tables, the guard's and the fold's estimated wrongly on main."""
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


def _headers(both_named: bool = True):
    """The guarded set and row pairs naming, per name, every header holding it (an
    operator's pairs name all its headers alike); ``both_named=False``: delta's pairs name
    only the header the guard picks."""
    src = Table(pd.DataFrame({"name": NAMES, "kind": KINDS}), "s")
    ops = Program((extract("name"), Constant("_ops.h")))
    plain = Program((extract("name"), Constant(".h")))
    guarded = ProgramSet(((Guard("kind", "last word", frozenset({"X"})), ops), (None, plain)))
    pairs = [RowPair(i, j, name[:3], 0.5) for i, name in enumerate(NAMES)
             for j, h in enumerate(HEADERS) if h.startswith(name)
             and (both_named or h != "delta_ops.h")]
    return src, ops, plain, guarded, [PairGroup("name", "key", pairs)]


def test_guard_choice_share_by_hand():
    src, ops, plain, guarded, groups = _headers()
    # joined: alpha -> alpha_ops.h (alpha.h a key too, both named: k = 2, 1/2 lost), bravo
    # -> bravo.h (bravo_ops.h no key), charlie -> charlie_ops.h (charlie.h no key), delta ->
    # delta.h (the guard failed on delta_ops.h, a key, named: 1/2 lost); echo joins nothing
    assert guard_choice_share(Candidate(guarded, 0, "key", []), src, HEADERS, groups) \
        == pytest.approx(1.0 / 4)
    taught = [Example(("alpha",), "alpha_ops.h", source_row=0)]
    assert guard_choice_share(Candidate(guarded, 0, "key", taught), src, HEADERS, groups) \
        == pytest.approx(0.5 / 3)
    # delta's pairs bear the guard out (delta.h named, delta_ops.h not): alpha's half only
    src, _o, _p, guarded, narrow = _headers(both_named=False)
    assert guard_choice_share(Candidate(guarded, 0, "key", []), src, HEADERS, narrow) \
        == pytest.approx(0.5 / 4)
    # no guard: the first branch is a preference, not a choice; a single program: none
    for program in (ProgramSet(((None, ops), (None, plain))), plain):
        assert guard_choice_share(Candidate(program, 0, "key", []), src, HEADERS, groups) == 0


def test_estimate_takes_the_guards_choices_off():
    # every joined row's key among its row pairs' (short q-grams: no independent evidence,
    # no short codes), so the row pairs alone say 1.0; two of the four joined rows had two
    # keys, both named, and the guard picked one: 1 - (1/2 + 1/2) / 4
    src, _ops, _plain, guarded, groups = _headers()
    cand = Candidate(guarded, 0, "key", [])
    assert _row_pair_counts(cand, src, HEADERS, groups) == (4, 4)
    assert _estimate(cand, src, HEADERS, groups) == pytest.approx(0.75)
    assert cand.extra["precision_basis"] == "pairs"


# ------------------------------------------------ rows folded onto one key (row pairs)

def _folded():
    """Question numbers of two pools written onto pool 7's file: q1 and q2 of pools 7 and
    9 onto "7-q1" / "7-q2" (the pairs of q1 name 7-q1 and 9-q1, unjoined), q3 of pool 7
    alone."""
    values = ["q1", "q1", "q2", "q2", "q3"]
    keys = ["7-q1", "9-q1", "7-q2", "9-q2", "7-q3"]
    src = Table(pd.DataFrame({"question": values}), "s")
    named = {"q1": ["7-q1", "9-q1"], "q2": ["7-q2", "9-q2"], "q3": ["7-q3"]}
    pairs = [RowPair(values.index(v), keys.index(k), v, 0.5) for v, ks in named.items()
             for k in ks]
    return src, keys, [PairGroup("question", "key", pairs)]


def test_folded_rows_count_one_over_n():
    src, keys, groups = _folded()
    cand = Candidate(Program((Constant("7-"), extract("question"))), 0, "key", [])
    # every row agrees (its key is among its pairs' keys): main read 5 / 5
    assert _row_pair_counts(cand, src, keys, groups) == (5, 5)
    # four rows two per key, each named with a key no row gets that differs from it only
    # in the constant ("9-" for "7-"): 1/2 each
    assert _pair_precision(cand, src, keys, groups) == pytest.approx((5 - 4 * 0.5) / 5)


def test_an_unjoined_partner_of_another_form_is_no_fold():
    # two members of one interface onto its file, whose pairs also name the server's file
    # (unjoined): it differs from the key in the part read from the member, an N:1 join
    values = ["EntryGroup.Commit", "EntryGroup.Reset", "DomainBrowser.Free"]
    keys = ["Avahi.EntryGroup.xml", "Avahi.Server.xml", "Avahi.DomainBrowser.xml"]
    src = Table(pd.DataFrame({"member": values}), "s")
    pairs = [RowPair(0, 0, "entryg", 0.5), RowPair(0, 1, "xml", 0.5),
             RowPair(1, 0, "entryg", 0.5), RowPair(1, 1, "xml", 0.5),
             RowPair(2, 2, "domain", 0.5)]
    program = Program((Constant("Avahi."), extract("member", [(".", 0)]), Constant(".xml")))
    cand = Candidate(program, 0, "key", [])
    assert program.evaluate({"member": values}, 3) == [keys[0], keys[0], keys[2]]
    assert _pair_precision(cand, src, keys, [PairGroup("member", "key", pairs)]) == 1.0
