"""Auto-Join deviation 49 (round 26, fresh30's zero): two digits of a text that meet a time
stamp's minutes are tested as numbers drawn by chance although the program's other outputs
are words; a refutation counts one value's evidence once; a direction whose joined row
pairs contain the other's wins. Hand-built tables with hand-checked counts."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.dsl import Program, extract
from lakejoin_jupyter.join.autojoin.learn import Candidate
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair
from lakejoin_jupyter.join.autojoin.pipeline import (DirectionResult, Table, _by_chance,
                                                     _direction, _joined_pairs, _refuted,
                                                     chance_matches)
from lakejoin_jupyter.join.autojoin.programset import evidence_counts

# ---------------------------------------------------------------- numbers among words


def _minutes_case(seed=0):
    """A changelog's 12 time stamps (keys: their minutes, 00-59) and 300 news items whose
    "code" (what a program reads out of an item: two digits of a version, or a word) is a
    two-digit number for 45 of its distinct values."""
    rng = random.Random(seed)
    minutes = sorted(f"{m:02d}" for m in rng.sample(range(60), 12))
    numbers = [f"{m:02d}" for m in rng.sample(range(60), 45)]
    words = [f"w{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(90)]
    codes = [rng.choice(numbers) if i % 3 == 0 else rng.choice(words) for i in range(300)]
    for i, n in enumerate(numbers):         # every number is some item's code
        codes[3 * i] = n
    return minutes, numbers, codes


def test_two_digits_meeting_minutes_are_chance_among_words():
    minutes, numbers, codes = _minutes_case()
    src = Table(pd.DataFrame({"code": codes}), "news")
    cand = Candidate(Program((extract("code"),)), 0, "minute", [])
    hits = set(numbers) & set(minutes)
    cand.coverage = len(hits)
    cand.joined_rows = sum(1 for c in codes if c in hits)
    # hand check: the 45 numbers of 00-59 meet the 12 minutes about 45 * 12 / 60 = 9 times
    # by chance (deviation 31 counts both inside their common range)
    lo = max(min(map(int, numbers)), min(map(int, minutes)))
    hi = min(max(map(int, numbers)), max(map(int, minutes)))
    n_c = sum(lo <= int(v) <= hi for v in numbers)
    n_k = sum(lo <= int(v) <= hi for v in minutes)
    assert abs(chance_matches(set(numbers), set(minutes)) - n_c * n_k / (hi - lo + 1)) < 1e-9
    assert cand.coverage >= 8
    # main: the words among the outputs made the test inapplicable (not by chance)
    assert _by_chance(cand, src, minutes + [None] * 3)
    assert cand.extra["chance_matches"] > 0.5 * cand.coverage


def test_numbers_among_words_that_cover_most_rows_still_join():
    # ids of 1..300 with a few "n/a" cells: every id is a key and most rows join
    rng = random.Random(1)
    ids = [str(i) for i in rng.sample(range(1, 301), 60)]
    src = Table(pd.DataFrame({"id": ids + ["n/a", "unknown"]}), "source")
    cand = Candidate(Program((extract("id"),)), 0, "id", [])
    cand.coverage = cand.joined_rows = 60
    assert not _by_chance(cand, src, sorted(ids, key=int))


# ---------------------------------------------------------------- one value's evidence


def _maintainer_chance_case():
    """A maintainer's name met by chance in a news item: row 0's name ("ith pa") and rows 1
    and 2's one name ("tore b") pair them 1-to-1 with items that are not their release."""
    src = Table(pd.DataFrame({
        "version": ["3.6.2-1+deb12u3", "3.6.2-1+deb12u2", "3.6.2-1+deb12u1"],
        "maintainer": ["Abhijith PA", "Salvatore B", "Salvatore B"]}), "changelog")
    groups = [PairGroup("maintainer", "item", [RowPair(0, 1, "ith pa", 1.0),
                                               RowPair(1, 2, "tore b", 1.0)])]
    program = Program((extract("version", stop=5),))
    tcells = ["3.6.2", "work with pax format", "restore by cloning"]
    return src, groups, program, tcells


def test_a_refutation_counts_one_values_evidence_once():
    # a maintainer's name met by chance in a news item: row 0's name ("ith pa") and rows 1
    # and 2's one name ("tore b") pair them 1-to-1 with items that are not their release
    src, groups, program, tcells = _maintainer_chance_case()
    # per row, three rows contradict it (main refutes it); one value's evidence, two
    assert not _refuted(Candidate(program, 0, "item", []), src, tcells, groups)
    assert evidence_counts(program, src, tcells, groups, "item") == (0, 3)
    assert evidence_counts(program, src, tcells, groups, "item", distinct=True) == (0, 2)
    # three rows whose evidence names three partners refute it
    src3 = Table(pd.DataFrame({
        "version": ["3.6.2-1+deb12u3", "3.6.2-1+deb12u2", "3.6.2-1+deb12u1"],
        "maintainer": ["Abhijith PA", "Salvatore B", "Moritz M"]}), "changelog")
    groups3 = [PairGroup("maintainer", "item", [RowPair(0, 1, "ith pa", 1.0),
                                                RowPair(1, 2, "tore b", 1.0),
                                                RowPair(2, 3, "ritz m", 1.0)])]
    tcells3 = tcells + ["Fritz maintenance"]
    assert _refuted(Candidate(program, 0, "item", []), src3, tcells3, groups3)


# ---------------------------------------------------------------- contained pairs


def _release_tables(seed=0):
    """A Debian changelog (2-3 revisions per upstream release) against 300 news items, 8 of
    which announce a release: N:1, changelog -> news."""
    rng = random.Random(seed)
    releases = ["3.7.1", "3.6.2", "3.6.0", "3.5.2", "3.4.3", "3.4.2", "3.4.0", "3.3.3"]
    versions = []
    for r in releases:
        versions += [f"{r}-{k}" for k in range(1, rng.randint(2, 3) + 1)]
    words = ["fix", "support", "reader", "writer", "archive", "format", "option", "crash",
             "build", "tar", "zip", "cpio", "error", "handle", "new", "improve", "memory",
             "leak", "test"]
    items = [f"tool {r} released" for r in releases]
    while len(items) < 300:
        item = " ".join(rng.choice(words) for _ in range(rng.randint(3, 6)))
        if item not in items:
            items.append(item)
    rng.shuffle(items)
    return pd.DataFrame({"version": versions}), pd.DataFrame({"item": items})


def test_every_revision_joins_its_release_from_the_changelog():
    src, tgt = _release_tables()
    result = autojoin(src, tgt, left_name="changelog", right_name="news", fuzzy=False)
    # main: news -> changelog `word 2 of item + "-1"` (8 of 23 changelog rows, 0.35, beat
    # 8 of 300 news rows, 0.03), although its 8 pairs are among the other direction's 23
    assert result.source == "left"
    assert result.joined_rows == len(src)
    items = set(tgt["item"])
    derived = [f"tool {v.split('-')[0]} released" for v in src["version"]]
    assert all(k in items for k in derived)          # hand check: every revision's release
    assert result.coverage == len(set(derived)) == 8


def _found(side, pairs, coverage, joined_rows, target_rows):
    best = SimpleNamespace(coverage=coverage, joined_rows=joined_rows,
                           program=SimpleNamespace(size=1))
    return (DirectionResult(side, best, [], [], 0, 0, [], target_positions=range(target_rows),
                            joined_pairs=frozenset(pairs)), None, None)


def test_direction_by_contained_pairs_hand_checked():
    # left -> right: left rows 0-3 onto right rows 7 and 9 (N:1, 2 of 300 right rows);
    # right -> left: right rows 7 and 9 onto left rows 0 and 2 (2 of 4 left rows): the
    # same pairs (seen from the left) and fewer
    a = _found("left", [(0, 7), (1, 7), (2, 9), (3, 9)], 2, 4, 300)
    b = _found("right", [(7, 0), (9, 2)], 2, 2, 4)
    assert _direction([a, b]) is a and _direction([b, a]) is a
    # a pair the other has not: the fractions decide, as before (2 / 4 > 2 / 300)
    c = _found("right", [(7, 0), (9, 2), (5, 1)], 2, 2, 4)
    assert _direction([a, c]) is c and _direction([c, a]) is c


def test_joined_pairs_leave_out_keys_of_several_target_rows():
    # "b" is held by target rows 1 and 3: its source row has no one partner, so a direction
    # joining 1:1 elsewhere does not contain more pairs through it
    src = Table(pd.DataFrame({"k": ["a", "b", "c", "z"]}), "source")
    tgt = Table(pd.DataFrame({"k": ["a", "b", "c", "b"]}), "target")
    pairs = _joined_pairs(Program((extract("k"),)), src, tgt, tgt.cells("k"))
    assert pairs == frozenset({(0, 0), (2, 2)})


def test_an_estimate_needs_three_observations_of_independent_evidence():
    """Deviation 50: the agreement share of checked rows holding fewer than 3 distinct
    observations is no estimate (the chance matches of a maintainer's name above, 0 of 3
    rows but 2 observations, would read "0 %" for a right program); from 3 on, the share
    of the rows is the estimate."""
    from lakejoin_jupyter.join.autojoin.programset import MIN_EVIDENCE, estimated_precision
    src, groups, program, tcells = _maintainer_chance_case()
    assert MIN_EVIDENCE == 3
    assert estimated_precision(program, src, tcells, groups, "item") is None
    # five rows, each with its own 1-to-1 evidence: four name the derived key, one another
    names = ["Ann Lee", "Bob Ray", "Cy Dunn", "Di Moss", "Ed Park"]
    src5 = Table(pd.DataFrame({"version": [f"3.6.{k}-1" for k in range(5)],
                               "maintainer": names}), "changelog")
    tcells5 = [f"3.6.{k}" for k in range(5)] + ["by ed park"]
    pairs = [RowPair(k, k, f"3.6.{k}-", 1.0) for k in range(4)] + [RowPair(4, 5, "ed park", 1.0)]
    groups5 = [PairGroup("maintainer", "item", pairs)]
    assert evidence_counts(program, src5, tcells5, groups5, "item") == (4, 5)
    assert estimated_precision(program, src5, tcells5, groups5, "item") == 0.8
