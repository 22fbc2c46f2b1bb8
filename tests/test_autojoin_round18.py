"""Auto-Join deviation 39: the row evidence of a value held by several source rows (N:1)
checks only keys the program joins through more than one row. Hand-built case: ONC RPC
procedures against the stubs rpcgen writes (a client stub per procedure and version, a
server stub beside it, one "freeresult" stub per program and version); main's learner lets
the program column's evidence refute the procedure program and joins every procedure onto
its program's freeresult stub."""
from types import SimpleNamespace

import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.dsl import Constant, Program, extract
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair
from lakejoin_jupyter.join.autojoin.pipeline import DirectionResult, Table, _direction
from lakejoin_jupyter.join.autojoin.programset import estimated_precision, evidence_counts

PROGRAMS = {"BOOKPROG": (["LOOKUP", "RESERVE", "RETURN", "RENEW"], ["1", "2"]),
            "MAILPROG": (["SEND", "FETCH", "DELETE", "FORWARD"], ["2", "3"]),
            "CLOCKPROG": (["TIME", "ALARM", "TIMER"], ["3"]),
            "PRINTPROG": (["SUBMIT", "CANCEL", "STATUS", "QUEUE", "PAUSE"], ["4"]),
            "WALLPROG": (["POST", "CLEAR"], ["1"])}


def _rpc_tables():
    rows, stubs = [], []
    for program, (procedures, versions) in PROGRAMS.items():
        stem = program[:-4]
        for v in versions:
            for p in procedures:
                proc = f"{stem}PROC_{p}"
                rows.append({"program": program, "version": f"{stem}VERS",
                             "version number": v, "procedure": proc})
                stubs += [f"{proc.lower()}_{v}", f"{proc.lower()}_{v}_svc"]
            stubs.append(f"{program.lower()}_{v}_freeresult")
    return pd.DataFrame(rows), pd.DataFrame({"function": sorted(stubs)})


def test_evidence_of_a_shared_value_hand_checked():
    # "BOOKPROG" (3 rows) and "WALLPROG" (1 row) each match their freeresult stub 1-to-1
    src = Table(pd.DataFrame({
        "program": ["BOOKPROG", "BOOKPROG", "BOOKPROG", "WALLPROG"],
        "procedure": ["BOOKPROC_LOOKUP", "BOOKPROC_RENEW", "BOOKPROC_RETURN",
                      "WALLPROC_POST"]}), "source")
    tcells = ["bookproc_lookup", "bookproc_renew", "bookproc_return", "wallproc_post",
              "bookprog_freeresult", "wallprog_freeresult"]
    groups = [PairGroup("program", "function", [RowPair(0, 4, "bookprog", 1.0),
                                                RowPair(3, 5, "wallprog", 1.0)])]
    procedure = Program((extract("procedure", casing="lower"),))
    freeresult = Program((extract("program", casing="lower"), Constant("_freeresult")))
    one_key = Program((Constant("bookproc_renew"),))
    # the procedure program gives each row a key of its own: the three BOOKPROG rows have
    # only the shared value's evidence and are not checked; WALLPROG's row (a value of one
    # row) is, and contradicts it (main: 0 of 4)
    assert evidence_counts(procedure, src, tcells, groups, "function") == (0, 1)
    # the freeresult program joins the BOOKPROG rows through one key: checked, agreeing
    assert evidence_counts(freeresult, src, tcells, groups, "function") == (4, 4)
    # a key several rows get is checked by the shared value's evidence, wrong or right
    assert evidence_counts(one_key, src, tcells, groups, "function") == (0, 4)
    # one checked row is no estimate (deviation 50; before it: 0.0)
    assert estimated_precision(procedure, src, tcells, groups, "function") is None
    # the other column's pairs are not this target column's evidence
    assert evidence_counts(procedure, src, tcells, groups, "other") == (0, 0)


def test_rpc_procedures_join_their_own_stubs():
    src, tgt = _rpc_tables()
    result = autojoin(src, tgt, fuzzy=False)
    assert result.found
    assert result.program.describe() == 'lower(`procedure`) + "_" + `version number`'
    keys = set(tgt["function"])
    derived = [f"{p.lower()}_{v}" for p, v in zip(src["procedure"], src["version number"])]
    assert all(k in keys for k in derived)          # hand check: every row has its stub
    accepted = result.stats["directions"]["left"]["accepted"]
    assert (accepted["coverage"], accepted["joined_rows"]) == (26, 26)


# ---------------------------------------------------------------- two 1:1 directions

def _found(coverage, joined_rows, target_rows, size=1):
    best = SimpleNamespace(coverage=coverage, joined_rows=joined_rows,
                           program=SimpleNamespace(size=size))
    return (DirectionResult("left", best, [], [], 0, 0, [], target_positions=range(target_rows)),
            None, None)


def test_direction_hand_checked():
    a, b = _found(47, 47, 83), _found(34, 34, 51)
    # both 1:1: the keys joined decide (47 > 34), not the target's fraction (0.57 < 0.67)
    assert _direction([a, b]) is a and _direction([b, a]) is a
    # one of them N:1 (47 keys through 60 rows): the fraction of the target's rows, §4.3
    n1 = _found(47, 60, 83)
    assert _direction([n1, b]) is b and _direction([b, n1]) is b
    # equal keys, both 1:1: the fraction, then the smaller program
    c, d = _found(34, 34, 40), _found(34, 34, 51, size=2)
    assert _direction([c, d]) is c and _direction([_found(34, 34, 51, 3), d])[0].best \
        .program.size == 2
    assert _direction([a]) is a


def test_primitive_types_join_from_the_smaller_table():
    # C types against the header's macros, which also name 17 opcodes: the types -> macros
    # program joins every type (19 of 36 macros); the macros -> types program joins the
    # "_t" types and the one-word ones under a guard (15 of 19 types: a larger fraction)
    sized = ["int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t",
             "uint64_t", "size_t", "ssize_t", "intptr_t", "uintptr_t"]
    plain = ["char", "short", "long", "float", "double", "bool", "wchar"]
    ops = ["PRIMITIVE", "POINTER", "ARRAY", "OPEN_ARRAY", "STRUCT_UNION", "ENUM",
           "FUNCTION", "FUNCTION_END", "NOOP", "BITFIELD", "TYPENAME", "CONSTANT",
           "CONSTANT_INT", "GLOBAL_VAR", "DLOPEN_FUNC", "DLOPEN_CONST", "EXTERN_PYTHON"]
    types = sized + plain
    src = pd.DataFrame({"C type": types, "kind": ["i"] * len(types)})
    macros = ["_CFFI_PRIM_" + (t[:-2] if t.endswith("_t") else t).upper() for t in types]
    macros += ["_CFFI_OP_" + o for o in ops]
    tgt = pd.DataFrame({"C macro": macros, "value": [str(i) for i in range(len(macros))]})
    result = autojoin(src, tgt, fuzzy=False)
    assert result.program.describe() == '"_CFFI_PRIM_" + upper(part 1 (split at "_") of `C type`)'
    # hand check: the program gives every type its own macro
    assert ["_CFFI_PRIM_" + t.split("_")[0].upper() for t in types] == macros[:len(types)]
    right = result.stats["directions"]["right"]["accepted"]
    assert (right["coverage"], right["joined_rows"], right["target_rows"]) == (15, 15, 19)
