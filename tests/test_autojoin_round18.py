"""Auto-Join deviation 39: the row evidence of a value held by several source rows (N:1)
checks only keys the program joins through more than one row. Hand-built case: ONC RPC
procedures against the stubs rpcgen writes (a client stub per procedure and version, a
server stub beside it, one "freeresult" stub per program and version); main's learner lets
the program column's evidence refute the procedure program and joins every procedure onto
its program's freeresult stub."""
import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.dsl import Constant, Program, extract
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair
from lakejoin_jupyter.join.autojoin.pipeline import Table
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
    assert estimated_precision(procedure, src, tcells, groups, "function") == 0.0
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
