"""bench/autojoin_estimate_calibration.py: the calibration by basis, checked by hand on four
cases of bench/autojoin_eval.py's JSON form."""
import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _module():
    spec = importlib.util.spec_from_file_location(
        "autojoin_estimate_calibration", BENCH / "autojoin_estimate_calibration.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _case(name, est, basis, p, joined=(10, 10), correct=(10, 10), fuzzy=None, partial=False):
    return {"case": name, "found": True, "estimated_precision": est, "precision_basis": basis,
            "partial": partial, "fuzzy": fuzzy,
            "AJ": {"joined": joined[0], "correct": correct[0]},
            "AJ-E": {"precision": p, "joined": joined[1], "correct": correct[1]}}


CASES = [
    _case("a", 0.9, "evidence", 1.0),
    _case("b", 0.5, "evidence", 0.8),
    # the fuzzy step adds 4 pairs (14 joined against 10), 3 of them right, estimated 90 %
    _case("c", 1.0, "pairs", 0.75, joined=(14, 10), correct=(13, 10),
          fuzzy="word tokens, jaccard distance <= 0.200 (+4 keys, estimated precision 90%)"),
    _case("d", 1.0, "pairs", 1.0, partial=True),
    {"case": "e", "found": False, "AJ": {"joined": 0, "correct": 0},
     "AJ-E": {"precision": None, "joined": 0, "correct": 0}},
]


def test_calibration_by_basis_by_hand():
    mod = _module()
    rows = mod.basis_rows(CASES)
    assert sorted(rows) == ["all", "evidence", "pairs", "partial (pairs)"]
    ev = mod.stats(rows["evidence"])     # errors -0.1 and -0.3
    assert ev["n"] == 2 and ev["signed"] == pytest.approx(-0.2)
    assert ev["abs"] == pytest.approx(0.2) and ev["off"] == 1
    assert mod.stats(rows["pairs"])["abs"] == pytest.approx(0.25)
    assert mod.stats(rows["all"])["abs"] == pytest.approx((0.1 + 0.3 + 0.25 + 0) / 4)
    fz = mod.fuzzy_stats(mod.fuzzy_rows(CASES))
    assert fz["pairs"] == 4 and fz["pooled_est"] == pytest.approx(0.9)
    assert fz["pooled_meas"] == pytest.approx(0.75) and fz["signed"] == pytest.approx(0.15)


def test_numeric_fuzzy_estimate_is_read_before_the_percent(tmp_path, capsys):
    mod = _module()
    case = dict(CASES[2], fuzzy_estimated_precision=0.8)
    assert mod.fuzzy_rows([case]) == [("c", 0.8, 4, 3)]
    path = tmp_path / "run.json"
    path.write_text(json.dumps(CASES))
    mod.main([str(path), "--before", str(path)])
    out = capsys.readouterr().out
    assert "| evidence | 2 | 0.7000 -> 0.7000 |" in out


def test_a_file_of_another_form_is_refused(tmp_path):
    mod = _module()
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"cases": []}))
    with pytest.raises(ValueError, match="expected the list"):
        mod.main([str(path)])


def test_over_table_by_hand():
    # c is over by 0.25 (1.0 against 0.75); with a run before it, b's estimate moved
    # 0.5 -> 0.7 and a's did not: b listed as moved, a left out
    mod = _module()
    lines = mod.over_table(CASES, None, 0.2).splitlines()
    assert lines[2:] == ["| pairs | c | 1.000 | 0.750 | +0.250 |"]
    before = [dict(c, estimated_precision=0.7) if c["case"] == "b" else c for c in CASES]
    lines = mod.over_table(CASES, before, 0.2).splitlines()
    assert lines[2:] == ["| evidence | b | 0.700 -> 0.500 | 0.800 -> 0.800 | -0.100 -> -0.300 |",
                         "| pairs | c | 1.000 -> 1.000 | 0.750 -> 0.750 | +0.250 -> +0.250 |"]
