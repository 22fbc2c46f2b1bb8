"""Calibration rounds 20-21 and 23 (bench/results/fuzzyjoin_calibration.md): the ratio's second
and third distances from the left values the negative rules allow.

The join rates a join by s1 = d1 / d2 and its decoys by s2 = d2 / d3, the distances of the
three nearest left values (``match_precision.nearest_ratios``). A left value that
``fuzzy.NegativeRules`` forbids for the right value (a version or season sibling) is no
alternative the join competes with, yet as the second nearest it makes a right join look
like a near tie. The variants replay the choice on a ``bench/fuzzyjoin_replay.py`` dump:

* ``base``: the join as it is;
* ``admissible``: per function and right value, of the K = ADMISSIBLE_K nearest left
  values (``fuzzy._nearest``), d1 stays the nearest's distance; d2 and d3 are the
  distances of the first two among ranks 2..K the rules allow (infinite where fewer are
  found). They replace the saved ``r_near``; everything else is the join's own.
* ``agreeing`` (round 21): ``admissible``'s distances only for the right values whose
  nearest left value agrees with them in what distinguishes it from the siblings
  ``admissible`` removes (``agrees``: the join allowed, the same digits, and no word
  of the right value the nearest lacks held by a removed sibling); the join's nearest
  distances for the others. Kept by round 21 (``fuzzy.family_nearest``).
* ``family`` (round 23): ``agreeing`` with the family's marks read only from the removed
  siblings of the nearest's own family (``same_family``: their digit-free words differ
  from the nearest's by at most one word each way), not from any removed stranger. Kept:
  the join does it (``fuzzy.NegativeRules.agrees``); ``agreeing`` is now the baseline.

    python bench/fuzzyjoin_admissible.py --work W --variant admissible --out dev_adm.csv

The distances are computed once per dataset (from its tables) and cached in
``W/admissible/``, ``W/agreeing/`` and ``W/family/``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)
from fuzzyjoin_autofj import load
from lakejoin_jupyter.join import fuzzy

VARIANTS = ("base", "admissible", "agreeing", "family")
SUITES = ["autofj", "rl", "fresh1", "fresh2", "fresh3", "fresh4", "fresh6", "fresh7"]
ADMISSIBLE_K = 10         # nearest left values searched for two the rules allow
STATE = {"variant": "base", "work": None, "folders": None}


def admissible_near(rd: np.ndarray, ri: np.ndarray, forbids) -> np.ndarray:
    """(n_right, 3) distances: column 0 ``rd[:, 0]``; columns 1-2 the distances of the first
    two left values ``ri[i, k]`` (k >= 1, index >= 0) with ``forbids(i, l)`` false; inf
    where fewer than two are found."""
    near = np.full((len(rd), 3), np.inf)
    near[:, 0] = rd[:, 0]
    for i in range(len(rd)):
        ok = [rd[i, k] for k in range(1, rd.shape[1])
              if ri[i, k] >= 0 and not forbids(i, int(ri[i, k]))][:2]
        near[i, 1:1 + len(ok)] = ok
    return near


def blind_words(value) -> frozenset:
    """The words of ``value`` as the rules tokenize them (lower case), each with its
    digits removed, the empty ones dropped ("Eutelsat 33C": eutelsat, c)."""
    words = (fuzzy._DIGITS.sub("", w) for w in fuzzy._TOKEN.findall(str(value).lower()))
    return frozenset(w for w in words if w)


def removed(ri_row: np.ndarray, i: int, forbids) -> list:
    """The left values ``admissible_near`` passes over for right value i: those among
    ranks 2..K (``ri_row[1:]``) the rules forbid, before the second one they allow."""
    out, allowed = [], 0
    for l in ri_row[1:].tolist():
        if l < 0 or allowed == 2:
            break
        if forbids(i, l):
            out.append(l)
        else:
            allowed += 1
    return out


def same_family(sibling, nearest) -> bool:
    """Is the left value ``sibling`` of the family of ``nearest``: do their digit-free
    words (``blind_words``) differ by at most one word each way ("Eutelsat 16C" and
    "Eutelsat 33A": c / a; not "2009 AFC Beach Soccer Championship" and "Beach Soccer
    World Cup 1995")?"""
    a, b = blind_words(sibling), blind_words(nearest)
    return len(a - b) <= 1 and len(b - a) <= 1


def agrees(right_value, nearest, siblings, forbidden: bool, family: bool = False) -> bool:
    """Does the family's distinguishing part agree between a right value and its nearest
    left value? The join is allowed; the two carry the same digits read left to right
    (what the digit rule reads); and no digit-free word of the right value that the
    nearest lacks is held by one of the removed ``siblings`` (left values): the right
    value carries no mark of the family ("c" of "Eutelsat 16C") the nearest does not.
    With ``family`` only the siblings ``same_family`` as the nearest are read."""
    if forbidden:
        return False
    digits = ["".join(fuzzy._DIGITS.findall(str(v))) for v in (right_value, nearest)]
    if digits[0] != digits[1]:
        return False
    extra = blind_words(right_value) - blind_words(nearest)
    return not any(extra & blind_words(s) for s in siblings
                   if not family or same_family(s, nearest))


def agreeing_near(near: np.ndarray, rd: np.ndarray, ri: np.ndarray, rkeys, lkeys,
                  forbids, family: bool = False) -> np.ndarray:
    """The join's nearest distances ``near`` (n_right, <= 3), with ``admissible_near``'s
    row in place of right value i's where i ``agrees`` with its nearest left value
    ``ri[i, 0]``, the siblings the ``removed`` ones (``rd``, ``ri``: the K nearest,
    ``fuzzy._nearest``; ``family``: ``agrees``' own)."""
    out = near.copy()
    adm = admissible_near(rd, ri, forbids)[:, :near.shape[1]]
    for i in range(len(rd)):
        l1 = int(ri[i, 0])
        if l1 < 0:
            continue
        siblings = [lkeys[l] for l in removed(ri[i], i, forbids)]
        if siblings and agrees(rkeys[i], lkeys[l1], siblings, forbids(i, l1), family):
            out[i] = adm[i]
    return out


def admissible_distances(d: dict, folder: Path, agreeing: bool = False,
                         family: bool = False) -> dict:
    """Per join function of the saved dataset ``d``: its ``admissible_near`` (with
    ``agreeing``: its ``agreeing_near``, ``family`` passed on) from the dataset's tables (checked against the
    saved nearest distances)."""
    left, right, _ = load(folder)
    lkeys, _ = fuzzy._distinct(left["title"])
    rkeys, _ = fuzzy._distinct(right["title"])
    rules, counts, texts = fuzzy.NegativeRules(lkeys, rkeys), {}, [list(lkeys), list(rkeys)]
    out = {}
    for fn, raw in d["raw"].items():
        L, R = fuzzy._features(texts, fn, counts)
        rd, ri, _ = fuzzy._nearest(R, L, ADMISSIBLE_K)
        k = min(3, rd.shape[1], raw["r_near"].shape[1])
        saved = raw["r_near"][:, :k]
        # a dump of the join before round 21 saved the three nearest, one after it
        # fuzzy.family_nearest's distances (equal to the agreeing variant's)
        same = [np.isclose(saved, got[:, :k], equal_nan=True).all(axis=1)
                for got in (rd, fuzzy.family_nearest(rd, ri, rules))]
        if not (same[0].all() or same[1].all()):
            raise ValueError(f"{d['name']} {fn}: the tables do not give the dump's distances")
        out[fn] = (agreeing_near(raw["r_near"], rd, ri, rkeys, lkeys, rules.forbids, family)
                   if agreeing else admissible_near(rd, ri, rules.forbids))
    return out


def cached_admissible(d: dict, state: dict) -> dict:
    return replay.cached_measure(d, state, "admissible", admissible_distances)


def cached_agreeing(d: dict, state: dict) -> dict:
    return replay.cached_measure(d, state, "agreeing",
                                 lambda d, folder: admissible_distances(d, folder, True))


def cached_family(d: dict, state: dict) -> dict:
    return replay.cached_measure(d, state, "family",
                                 lambda d, folder: admissible_distances(d, folder, True, True))


def prepare(d: dict) -> None:
    if STATE["variant"] != "base":
        measured = {"admissible": cached_admissible, "agreeing": cached_agreeing,
                    "family": cached_family}[STATE["variant"]](d, STATE)
        for fn, near in measured.items():
            d["raw"][fn]["r_near"] = near


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, prepare=prepare, state=STATE, suites=SUITES)


if __name__ == "__main__":
    main()
