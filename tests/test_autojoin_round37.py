"""Auto-Join deviation 71 (round 37, fresh17's cffi_opcodes_c_macros): a direction whose
joined row pairs strictly contain the other's (deviation 49) does not win when most of its
extra pairs join a target row that the independent evidence of another source row names
and the pair's own row does not: a 1:1 direction joining exactly the evidenced pairs wins.
Checked against the case's ground truth and a brute-force oracle on generated headers."""
from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin import pipeline
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair

BENCH = Path(__file__).resolve().parents[1] / "bench/data"


def _truth(folder: Path) -> set:
    read = lambda name: pd.read_csv(folder / f"{name}.csv", dtype=str, keep_default_na=False)
    src, tgt, gt = read("source"), read("target"), read("ground_truth")
    row_s = {v: i for i, v in enumerate(src["opcode"])}
    row_t = {v: i for i, v in enumerate(tgt["C macro"])}
    return src, tgt, {(row_s[a], row_t[b]) for a, b in zip(gt["opcode"], gt["C macro"])}


def test_cffi_opcodes_join_their_macros_by_name():
    # main: macros -> opcodes `value` (42 macros onto the 21 opcode numbers: cffi numbers its
    # primitive types from 0 too, so each number is an opcode's and a primitive's), which
    # won by deviation 49 as its pairs contain the 21 of `"_CFFI_" + opcode`
    src, tgt, truth = _truth(BENCH / "autojoin-fresh17/cffi_opcodes_c_macros")
    aj = autojoin(src, tgt, fuzzy=False)
    assert aj.source == "left"
    assert aj.program.describe() == '"_CFFI_" + `opcode`'
    assert set(aj.pairs(fuzzy=False)) == truth


def _header(seed: int):
    """A header's opcodes (two words of a small vocabulary, as cffi's "OP_DLOPEN_FUNC" and
    "OP_DLOPEN_CONST", each with an odd number) and its macros: one per opcode ("_LIB_" +
    the opcode, its number) and one per primitive type ("_LIB_PRIM_" + a word, numbered from
    0: every opcode's number is also a primitive's)."""
    rng = random.Random(seed)
    words = set()
    while len(words) < 60:
        words.add("".join(rng.choice("ABCDEFGHIKLMNOPRSTUVW") for _ in range(rng.randint(4, 8))))
    words = sorted(words)
    rng.shuffle(words)
    first, second, types = words[:5], words[5:10], words[10:]
    n = rng.randint(12, 20)
    names = rng.sample([f"OP_{a}_{b}" for a in first for b in second], n)
    ops = [(name, str(2 * i + 1)) for i, name in enumerate(names)]
    prims = [(f"_LIB_PRIM_{w}", str(i)) for i, w in enumerate(types[:2 * n + 2])]
    macros = [("_LIB_" + name, number) for name, number in ops] + prims
    rng.shuffle(macros)
    return (pd.DataFrame(ops, columns=["opcode", "number"]),
            pd.DataFrame(macros, columns=["macro", "value"]))


def _oracle(ops: pd.DataFrame, macros: pd.DataFrame) -> set:
    """Brute force: every (opcode, macro) row pair whose macro names the opcode."""
    return {(i, j) for i, op in enumerate(ops["opcode"]) for j, m in enumerate(macros["macro"])
            if m == "_LIB_" + op}


@pytest.mark.parametrize("seed", range(12))
def test_opcodes_join_their_macros_not_every_macro_of_their_number(seed):
    ops, macros = _header(seed)
    aj = autojoin(ops, macros, fuzzy=False)
    assert set(aj.pairs(fuzzy=False)) == _oracle(ops, macros)


def _tables():
    """Four opcodes (numbers 1-7) and their four macros plus four primitives' macros with
    the same numbers."""
    names = ["ALPHA", "BRAVO", "CHARLIE", "DELTA"]
    ops = pd.DataFrame({"opcode": [f"OP_{n}" for n in names], "number": ["1", "3", "5", "7"]})
    macros = pd.DataFrame({"macro": [f"_L_OP_{n}" for n in names]
                           + [f"_L_PRIM_{n}" for n in names],
                           "value": ["1", "3", "5", "7"] * 2})
    return pipeline.Table(ops, "opcodes"), pipeline.Table(macros, "macros")


def _result(source, src, tgt, pairs, coverage, groups=(), key_columns=(), column="number"):
    """A hand-built direction joining through the target's ``column``: ``pairs`` as (source
    row, target row) of unsampled tables."""
    best = SimpleNamespace(coverage=coverage, joined_rows=len(pairs), target_column=column,
                           program=SimpleNamespace(size=1))
    d = pipeline.DirectionResult(source, best, [], list(groups), 0, 0, list(key_columns),
                                 source_positions=src.positions,
                                 target_positions=tgt.positions, joined_pairs=frozenset(pairs))
    return d, src, tgt


def _name_evidence(rows):
    """1-to-1 matches of 6+ characters from macro rows onto the opcode rows of their name."""
    return PairGroup("macro", "opcode", [RowPair(i, j, "op_" + "x" * 5, 1.0) for i, j in rows])


def test_direction_by_contained_pairs_against_the_evidence_hand_checked():
    ops, macros = _tables()
    numbers = PairGroup("value", "number", [RowPair(i, i % 4, "", 0.5) for i in range(8)])
    narrow = _result("left", ops, macros, {(i, i) for i in range(4)}, 4)
    # macros -> opcodes `value`: 8 macros onto the 4 numbers; its pairs (left, right) are
    # (i, i) and (i, i + 4): they strictly contain the narrow direction's
    wide_pairs = {(i, i % 4) for i in range(8)}
    named = _result("right", macros, ops, wide_pairs, 4, [numbers, _name_evidence(
        [(i, i) for i in range(4)])], ["opcode", "number"])
    # the 4 extra pairs each join an opcode row that macro row i's own evidence (a 6+
    # character match made for that row alone) names, and the primitive's row does not
    assert pipeline._direction([narrow, named]) is narrow
    assert pipeline._direction([named, narrow]) is narrow
    assert pipeline._contradicted(named, frozenset((j, i) for i, j in wide_pairs
                                                   if i >= 4)) == 4
    # no evidence names the extra pairs' rows: deviation 49 as before, the wider wins
    bare = _result("right", macros, ops, wide_pairs, 4, [numbers], ["opcode", "number"])
    assert pipeline._direction([narrow, bare]) is bare
    # the primitives' rows carry evidence naming the same opcodes: not contradicted
    both = _result("right", macros, ops, wide_pairs, 4, [numbers, _name_evidence(
        [(i, i % 4) for i in range(8)])], ["opcode", "number"])
    assert pipeline._contradicted(both, frozenset((j, i) for i, j in wide_pairs
                                                  if i >= 4)) == 0
    assert pipeline._direction([narrow, both]) is both
    # two of the four extra pairs contradicted: not most of them, the wider wins
    half = _result("right", macros, ops, wide_pairs, 4, [numbers, _name_evidence(
        [(i, i) for i in range(4)] + [(4, 0), (5, 1)])], ["opcode", "number"])
    assert pipeline._direction([narrow, half]) is half
    # the evidence is on the column the wider program joins through: one row of the key's
    # several carries it (glibc's "aa_DJ" among "aa_DJ.UTF-8" ... onto the file "aa_DJ"),
    # as in any N:1 join; it contradicts nothing
    same = _result("right", macros, ops, wide_pairs, 4, [numbers, _name_evidence(
        [(i, i) for i in range(4)])], ["opcode", "number"], column="opcode")
    assert pipeline._contradicted(same, frozenset((j, i) for i, j in wide_pairs
                                                  if i >= 4)) == 0
    assert pipeline._direction([narrow, same]) is same
