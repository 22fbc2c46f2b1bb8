"""bench/fuzzyjoin_admissible.py's ``admissible_near`` against hand-checked distances: d1
kept, d2 and d3 from the first two left values (ranks 2..K) the rules allow, inf where
fewer are found; and with the join's own NegativeRules on a version family."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_admissible as adm  # noqa: E402
from lakejoin_jupyter.join import fuzzy  # noqa: E402


def test_admissible_near_by_hand():
    rd = np.array([[0.1, 0.2, 0.3, 0.4, 0.5],
                   [0.0, 0.6, 0.7, np.inf, np.inf],
                   [0.2, 0.3, 0.4, 0.9, 1.0]])
    ri = np.array([[7, 1, 2, 3, 4],
                   [7, 5, 6, -1, -1],
                   [7, 1, 2, 3, 4]])
    banned = {(0, 1), (0, 3), (1, 5), (1, 6), (2, 2)}
    near = adm.admissible_near(rd, ri, lambda i, l: (i, l) in banned)
    assert np.array_equal(near, np.array([[0.1, 0.3, 0.5],
                                          [0.0, np.inf, np.inf],
                                          [0.2, 0.3, 0.9]]))


def test_admissible_near_skips_a_forbidden_version_sibling():
    left = ["Eiffel Forum License v1.0", "Eiffel Forum License v2.0", "Apache License 2.0",
            "MIT License"]
    rules = fuzzy.NegativeRules(left, ["Eiffel Forum License 2.0"])
    assert rules.forbids(0, 0) and not rules.forbids(0, 1) and not rules.forbids(0, 2)
    rd, ri = np.array([[0.2, 0.4, 0.8, 0.9]]), np.array([[1, 0, 2, 3]])
    assert np.array_equal(adm.admissible_near(rd, ri, rules.forbids),
                          np.array([[0.2, 0.8, 0.9]]))


def test_agrees_by_hand():
    lic = "Eiffel Forum License v2.0"
    # the right value carries no word the nearest lacks, or none a removed sibling holds
    # ("openldap"): the lever kept
    assert adm.agrees("Eiffel Forum License 2.0", lic, ["Eiffel Forum License v1.0"], False)
    assert adm.agrees("Pad Abort Test 1", "Pad Abort Test-1 (Apollo)",
                      ["Pad Abort Test-2 (Apollo)"], False)
    assert adm.agrees("OpenLDAP Public License 2.1", "Open LDAP Public License v2.1",
                      ["Open LDAP Public License v1.2", "Open LDAP Public License 2.2.2"],
                      False)
    assert adm.agrees("Spirit rover", "Spirit (rover)", ["Curiosity (rover)"], False)
    # its "c" is a mark of the family ("Eutelsat 16C") the nearest lacks: fall back; where
    # no removed sibling shows the mark, the variant cannot tell (its limit)
    assert not adm.agrees("Eutelsat 33C", "Eutelsat 33A", ["Eutelsat 36A", "Eutelsat 16C"],
                          False)
    assert adm.agrees("Eutelsat 33C", "Eutelsat 33A", ["Eutelsat 36A", "Eutelsat 36B"], False)
    # other digits, or a join the rules forbid
    assert not adm.agrees("4-Androstenedione", "Androstenedione", ["5-Androstenediol"], False)
    assert not adm.agrees("PROBA2", "PROBA", ["PROBA-V"], False)
    assert not adm.agrees("Eiffel Forum License 2.0", lic, ["Eiffel Forum License v1.0"], True)


def test_removed_by_hand():
    banned = {(0, 1), (0, 3), (0, 6)}
    forbids = lambda i, l: (i, l) in banned  # noqa: E731
    assert adm.removed(np.array([7, 1, 2, 3, 4, 6]), 0, forbids) == [1, 3]
    assert adm.removed(np.array([7, 2, 4, 1, 3]), 0, forbids) == []
    assert adm.removed(np.array([7, 1, 3, -1, -1]), 0, forbids) == [1, 3]


def test_agreeing_near_falls_back_on_a_letter_the_rules_do_not_read():
    left = ["Eutelsat 33A", "Eutelsat 36A", "Eutelsat 16C", "Astra", "Intelsat"]
    right = ["Eutelsat 33C", "Eiffel Forum License 2.0"]
    rules = fuzzy.NegativeRules(left + ["Eiffel Forum License v1.0",
                                        "Eiffel Forum License v2.0"], right)
    lkeys = left + ["Eiffel Forum License v1.0", "Eiffel Forum License v2.0"]
    assert not rules.forbids(0, 0) and rules.forbids(0, 1) and rules.forbids(0, 2)
    assert not rules.forbids(0, 3) and not rules.forbids(0, 4)
    assert rules.forbids(1, 5) and not rules.forbids(1, 6) and not rules.forbids(1, 3)
    rd = np.array([[0.39, 0.52, 0.55, 0.9, 1.0],
                   [0.2, 0.4, 0.8, 0.9, np.inf]])
    ri = np.array([[0, 1, 2, 3, 4],
                   [6, 5, 3, 4, -1]])
    near = rd[:, :3].copy()
    # ADMISSIBLE drops the satellite's numbered siblings; the variant keeps them (its "c"
    # is "16C"'s, the nearest's "a" not), and drops the licence's forbidden v1.0
    assert np.array_equal(adm.admissible_near(rd, ri, rules.forbids)[0], [0.39, 0.9, 1.0])
    assert np.array_equal(adm.agreeing_near(near, rd, ri, right, lkeys, rules.forbids),
                          np.array([[0.39, 0.52, 0.55],
                                    [0.2, 0.8, 0.9]]))


def test_agreeing_near_falls_back_where_the_nearest_is_forbidden_or_missing():
    left = ["Kosmos 601", "Kosmos 608", "Kosmos 6"]
    rules = fuzzy.NegativeRules(left, ["Kosmos 605", "Zond"])
    rd = np.array([[0.3, 0.35, 0.6, 0.7], [np.inf] * 4])
    ri = np.array([[0, 1, 2, -1], [-1] * 4])
    near = np.array([[0.3, 0.35, 0.6], [np.inf] * 3])
    assert rules.forbids(0, 0)
    assert np.array_equal(adm.agreeing_near(near, rd, ri, ["Kosmos 605", "Zond"], left,
                                            rules.forbids), near)


def test_family_reads_marks_only_from_the_nearest_s_own_family():
    # "16C" is of "33A"'s family (c / a): its "c" still a mark, 33C falls back
    assert adm.same_family("Eutelsat 16C", "Eutelsat 33A")
    assert not adm.agrees("Eutelsat 33C", "Eutelsat 33A", ["Eutelsat 36A", "Eutelsat 16C"],
                          False, family=True)
    # a stranger's common word is no mark: AGREEING falls back, FAMILY keeps the lever
    near, stranger = "Beach Soccer World Cup 1995", "2009 AFC Beach Soccer Championship"
    assert not adm.same_family(stranger, near)
    assert not adm.agrees("1995 Beach Soccer World Championship", near, [stranger], False)
    assert adm.agrees("1995 Beach Soccer World Championship", near, [stranger], False,
                      family=True)
    # other digits or a forbidden join: as AGREEING
    assert not adm.agrees("PROBA2", "PROBA", ["PROBA-V"], False, family=True)
    assert not adm.agrees("Eiffel Forum License 2.0", "Eiffel Forum License v2.0",
                          ["Eiffel Forum License v1.0"], True, family=True)
