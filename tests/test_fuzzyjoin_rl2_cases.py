"""bench/fuzzyjoin_rl2_cases.py on a tiny synthetic name list: the generator is
deterministic, the truth names existing ids, the unmatched share lies in its range,
partnered right titles rarely equal their left title, no unmatched title folds to a left
one; and bench/fuzzyjoin_autofj.py lists the rl2 suite, every case validation."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_rl2_cases as rl2  # noqa: E402

FIRST = ["Anna", "Bruno", "Chloë", "Dmitri", "Elena", "François", "Grace", "Hiroshi",
         "Ingrid", "José", "Kwame", "Lucía", "Mohammed", "Nora", "Óscar", "Priya"]
LAST = ["Andersson", "Barrière", "Castillo", "Dubois", "Eriksen", "Fischer", "García",
        "Hoffmann", "Ivanova", "Jensen", "Kowalski", "Lindqvist", "Müller", "Nakamura",
        "O'Brien", "Petrov", "Quinn", "Rossi", "Schröder", "Tanaka"]
PEOPLE = [f"{f} {m}. {last}" if (i + j) % 5 == 0 else f"{f} {last}" + (" Jr." if j % 7 == 0
          else "") for i, f in enumerate(FIRST) for j, last in enumerate(LAST)
          for m in "R"]
ORGS = [f"{p} {w}{s}" for p in ("The", "National", "Saint", "North")
        for w in ("Research Institute", "University of Kent", "Polling Company",
                  "Association of Grocers", "Center for Policy", "Media Group",
                  "Broadcasting Corporation", "Survey Services", "Data & Analytics",
                  "Opinion Works", "Mount Hope Clinic", "Department of Health",
                  "Strategies", "Insights", "Partners", "Foundation", "Times",
                  "Herald", "Tribune", "Review")
        for s in ("", ", Inc.", " LLC", " (East)")]


def _case(name="rl2-synthetic-people", values=PEOPLE, kind="people", n_left=200,
          n_right=100):
    return rl2.build_case(name, values, kind, n_left, n_right)


@pytest.mark.parametrize("values,kind", [(PEOPLE, "people"), (ORGS, "organisations")])
def test_rl2_case_is_deterministic_and_consistent(values, kind):
    left, right, gt, stats = _case(values=values, kind=kind)
    left2, right2, gt2, _ = _case(values=values, kind=kind)
    assert left.equals(left2) and right.equals(right2) and gt.equals(gt2)
    assert list(left.columns) == ["id", "title"] and list(gt.columns) == ["id_l", "id_r"]
    assert left["id"].is_unique and right["id"].is_unique and gt["id_r"].is_unique
    assert set(gt["id_l"]) <= set(left["id"]) and set(gt["id_r"]) <= set(right["id"])
    assert len(right) == 100
    # one left row per entity: no two left titles fold alike
    assert left["title"].map(rl2.fold).is_unique
    # the unmatched share lies in its range
    lo, hi = rl2.RANGES["unmatched"]
    unmatched = ~right["id"].isin(gt["id_r"])
    assert lo - 0.01 <= unmatched.mean() <= hi + 0.01
    assert stats["unmatched"] == unmatched.sum()
    # some left entities appear twice, with two different titles
    twice = gt[gt["id_l"].duplicated(keep=False)].merge(right, left_on="id_r", right_on="id")
    assert len(twice) > 0
    assert twice.groupby("id_l")["title"].nunique().eq(2).all()
    # partnered titles rarely equal their left title exactly
    lt = dict(zip(left["id"], left["title"]))
    rt = dict(zip(right["id"], right["title"]))
    pairs = gt.assign(title_l=gt["id_l"].map(lt), title_r=gt["id_r"].map(rt))
    assert (pairs["title_l"] == pairs["title_r"]).mean() <= rl2.EXACT_BOUND
    # a right title with no partner never folds to a left title
    keys = set(left["title"].map(rl2.fold))
    assert not right.loc[unmatched, "title"].map(rl2.fold).isin(keys).any()
    # a partnered copy never folds to another left entity's title
    by_key = dict(zip(left["title"].map(rl2.fold), left["id"]))
    other = pairs["title_r"].map(rl2.fold).map(by_key)
    assert (other.isna() | (other == pairs["id_l"])).all()


def test_rl2_noise_differs_by_case_name():
    a = _case(name="rl2-a")[1]["title"].tolist()
    b = _case(name="rl2-b")[1]["title"].tolist()
    assert a != b


def test_rl2_too_few_values_is_an_error():
    with pytest.raises(ValueError):
        _case(values=PEOPLE[:50])


def test_rl2_suite_is_listed_and_validation(tmp_path):
    import fuzzyjoin_autofj as bench
    got = bench.datasets(tmp_path, tmp_path, ["rl2"], "all", rl2=tmp_path / "rl2")
    assert [d[1] for d in got] == list(rl2.CASES)
    assert all(d[0] == "rl2" and d[2] == "validation" for d in got)
    assert all(d[3] == tmp_path / "rl2" / d[1] for d in got)
    assert bench.datasets(tmp_path, tmp_path, ["rl2"], "dev", rl2=tmp_path / "rl2") == []
    with pytest.raises(ValueError):
        bench.datasets(tmp_path, tmp_path, ["rl2"], "all")
    assert 4 <= len(rl2.CASES) <= 6
    assert all(500 <= c[2] <= 5000 and 250 <= c[3] <= 2000 for c in rl2.CASES.values())
