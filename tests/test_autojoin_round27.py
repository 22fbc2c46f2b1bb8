"""Auto-Join deviation 51 (round 27): the estimated precision where it was far from the
measured one with many observations. A whole key inside a longer whole key of the same
value is no key of it; a value and its key read as token bags of one size that differ
contradict a row where bags pair the join; a key part's program is estimated on the whole
composite values, a row agreeing where they name its key alone; the estimate reads the
evidence once. Hand-built tables with hand-checked counts."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin, programset
from lakejoin_jupyter.join.autojoin.pairs import (ColumnValues, PairGroup, RowPair,
                                                  find_pair_group, fold, signatures)
from lakejoin_jupyter.join.autojoin.pipeline import Table
from lakejoin_jupyter.join.autojoin.programset import estimated_precision


def _program(column: str, outputs: list):
    """A stand-in program: reads ``column``, gives ``outputs`` (one per source row)."""
    return SimpleNamespace(columns=(column,), evaluate=lambda cells, n: list(outputs))


# ---------------------------------------------------------------- nested whole keys


def test_a_whole_key_inside_a_longer_whole_key_is_not_the_values_key():
    # 70 story URLs on "sports.espn.go.com" and 70 on "espn.go.com"; both hosts are outlets
    urls = ([f"http://sports.espn.go.com/nfl/news/story?id={1000 + i}" for i in range(70)]
            + [f"http://espn.go.com/nfl/story/_/id/{2000 + i}/player-{i}" for i in range(70)])
    outlets = ["espn.go.com", "sports.espn.go.com", "nfl.com", "usatoday.com"]
    group = find_pair_group(ColumnValues.from_cells("source", urls),
                            ColumnValues.from_cells("outlet", outlets))
    named = {}
    for p in group.pairs:
        named.setdefault(p.source_row, set()).add(outlets[p.target_row])
    # main: every sports URL paired with "espn.go.com" (held by all 140 values, the most)
    assert all(named.get(i) == {"sports.espn.go.com"} for i in range(70))
    assert all(named.get(i) == {"espn.go.com"} for i in range(70, 140))


# ---------------------------------------------------------------- token bags read apart


def test_a_key_of_other_tokens_is_contradicted_where_bags_pair_the_join():
    days = ["8/5/2018", "9/6/2018", "10/4/2018", "3/13/2019", "4/2/2019", "5/7/2019"]
    keys = ["8/5/18", "9/6/18", "10/4/18", "3/13/18", "4/2/18", "5/7/18"]
    src = Table(pd.DataFrame({"modeldate": days}), "model")
    # `modeldate` without its last 4 letters + "18": a constant year
    program = _program("modeldate", [d[:-4] + "18" for d in days])
    # rows 0-2: unique token bags ("8/5/2018" cut to "8/5/18") pair them with their key
    groups = [PairGroup("modeldate", "start", [RowPair(i, i, "", 1.0) for i in range(3)])]
    # hand check: "3/13/2019" reads (13, 2019, 3), cut (13, 19, 3); "3/13/18" (13, 18, 3)
    def cut(text):
        return dict(signatures(fold(text)))["cut"]
    assert cut("3/13/2019") == ("13", "19", "3") and cut("3/13/18") == ("13", "18", "3")
    assert cut("8/5/2018") == cut("8/5/18")
    # main: 1.0 (rows 3-5 have no evidence and were not checked)
    assert estimated_precision(program, src, keys, groups, "start") == 0.5


def test_bags_of_another_size_or_without_a_bag_pair_contradict_nothing():
    names = ["John Smith Jr.", "Jane Doe", "Ann Lee", "Bo Ray"]
    keys = ["john smith", "jane doe", "ann lee", "bo ray"]
    src = Table(pd.DataFrame({"name": names}), "people")
    program = _program("name", keys)
    bagged = [PairGroup("name", "key", [RowPair(i, i, "", 1.0) for i in range(1, 4)])]
    # "John Smith Jr." (3 tokens) onto "john smith" (2): a token dropped, not changed
    assert estimated_precision(program, src, keys, bagged, "key") == 1.0
    # a join no bag pair shows: differing bags say nothing ("J. Smith" onto "smith, john")
    src2 = Table(pd.DataFrame({"name": ["J. Smith", "A. Doe", "B. Lee", "C. Ray"]}), "p")
    grams = [PairGroup("name", "key", [RowPair(i, i, "gram-x", 1.0) for i in range(1, 4)])]
    assert estimated_precision(_program("name", keys), src2, keys, grams, "key") == 1.0


# ---------------------------------------------------------------- composite key parts


def test_a_key_part_is_estimated_on_the_whole_composite_values():
    # a survey's 5 coarse income brackets against 11 finer ones: only "$25,000 - $49,999" is
    # one of them; the others meet the lower bound of one and the upper bound of another
    coarse = ["$0 - $24,999", "$25,000 - $49,999", "$50,000 - $99,999",
              "$100,000 - $149,999", "$150,000+"]
    counts = [130, 200, 300, 160, 120]
    rows = [b for b, n in zip(coarse, counts) for _ in range(n)]
    rng = random.Random(3)
    src = pd.DataFrame({"RespondentID": [str(rng.randrange(3_300_000_000, 3_310_000_000))
                                         for _ in rows], "Household Income": rows})
    fine = ["$0 to $9,999", "$10,000 to $24,999", "$25,000 to $49,999",
            "$50,000 to $74,999", "$75,000 to $99,999", "$100,000 to $124,999",
            "$125,000 to $149,999", "$150,000 to $174,999", "$175,000 to $199,999",
            "$200,000 and up", "Prefer not to answer"]
    tgt = pd.DataFrame({"household income": fine, "respondents": [
        "93", "99", "178", "160", "115", "91", "59", "39", "15", "57", "133"]})
    aj = autojoin(src, tgt, fuzzy=False)
    assert aj.found and aj.target_program is not None       # a key part of the brackets
    # main: 1.0 on the part's evidence (the lower bounds). The whole values name two
    # brackets for "$50,000 - $99,999" and "$100,000 - $149,999" and another one for
    # "$0 - $24,999" ("$24,999" ends "$10,000 to $24,999"): only "$25,000 - $49,999" and
    # "$150,000+" ("$150,000" begins one bracket) name the derived key alone
    assert abs(aj.estimated_precision - (200 + 120) / len(rows)) < 0.03   # 0.35


# ---------------------------------------------------------------- the review leftover


def test_the_estimate_reads_the_evidence_once(monkeypatch):
    src = Table(pd.DataFrame({"v": [f"value {i}" for i in range(4)]}), "source")
    tcells = [f"a{i}" for i in range(4)]
    groups = [PairGroup("v", "key", [RowPair(i, i, f"gram-{i}", 1.0) for i in range(4)])]
    calls = []
    real = programset.row_evidence
    monkeypatch.setattr(programset, "row_evidence",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    assert estimated_precision(_program("v", tcells), src, tcells, groups, "key") == 1.0
    assert len(calls) == 1          # main: twice (evidence_counts ran twice)
