"""Calibration round 25 (bench/results/fuzzyjoin_calibration.md): right values the left table
certainly lacks as a sample of null ratios beside the decoys.

The join rates a join by its ratio s1 = d1 / d2 against decoy ratios s2 = d2 / d3
(``match_precision.null_probability``). Where the null group's ratios run lower than the
decoys (a list dense in families: a right value without a partner has a family member as its
nearest), the estimate is optimistic. A right value none of whose words the left table holds,
even with a typo, certainly has no partner there, so its s1 is a null ratio the table itself
shows. The variants replay the choice on a ``bench/fuzzyjoin_replay.py`` dump:

* ``base``: the join as it is (the family distances of round 23, ``fuzzyjoin_admissible.py
  --variant family``, which the join computes);
* ``sure``: ``base``, and per join function the s1 of the ``sure_nulls`` (finite ones) pooled
  with the decoys wherever the decoys enter (the null's shape, Storey's pi0, the count of
  decoys behind each estimate and pi0's error).

``sure_nulls``: every word of the right value (the negative rules' tokens, lower case; words
of digits only dropped; at least one word left) is more than one letter from every word of
the left values: none is reached from it by deleting at most one letter from each.

    python bench/fuzzyjoin_sure_null.py --work W --variant sure --out dev_sure.csv
    python bench/fuzzyjoin_sure_null.py signal --work W --out signal.csv   # the check itself

The family distances are cached in ``W/family/``, the sure nulls in ``W/sure/``.
"""
from __future__ import annotations

import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)
import fuzzyjoin_admissible as admissible
from fuzzyjoin_autofj import load
from lakejoin_jupyter.join import fuzzy, match_precision as mp

VARIANTS = ("base", "sure")
SUITES = ["autofj", "rl", "fresh1", "fresh2", "fresh3", "fresh4", "fresh6", "fresh7", "fresh9"]
STATE = {"variant": "base", "work": None, "folders": None}


def _deletions(word: str) -> set:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


def _words(value) -> list:
    return [w for w in fuzzy._TOKEN.findall(str(value).lower()) if not w.isdigit()]


def sure_nulls(lkeys, rkeys) -> np.ndarray:
    """Mask over the right values ``rkeys``: every word (``_words``; at least one) is more
    than one letter from every word of the left values ``lkeys`` (no left word is reached
    from it by deleting at most one letter from each: "patientory" beside a left table
    holding only "PTOY" is sure; "etherum" beside "ethereum" is not)."""
    vocab = {w for v in lkeys for w in _words(v)}
    dels = set().union(*(_deletions(w) for w in vocab)) if vocab else set()

    def near(w: str) -> bool:
        if w in vocab or w in dels:
            return True
        d = _deletions(w)
        return bool(d & vocab) or bool(d & dels)
    return np.array([bool(ws) and not any(near(w) for w in ws)
                     for ws in (_words(v) for v in rkeys)], dtype=bool)


def measure_sure(d: dict, folder) -> np.ndarray:
    left, right, _ = load(folder)
    lkeys, _ = fuzzy._distinct(left["title"])
    rkeys, _ = fuzzy._distinct(right["title"])
    if len(rkeys) != len(d["n_rows"]):
        raise ValueError(f"{d['name']}: the tables do not give the dump's right values")
    return sure_nulls(lkeys, rkeys)


def pooled_candidates(sure: np.ndarray):
    """A ``fuzzy._Candidates`` whose decoys are the s2 and the finite s1 of ``sure``."""
    class Pooled(fuzzy._Candidates):
        def __post_init__(self):
            real = fuzzy.nearest_ratios

            def pooled(near):
                s1, s2 = real(near)
                return s1, np.concatenate([s2, s1[sure & np.isfinite(s1)]])
            fuzzy.nearest_ratios = pooled
            try:
                super().__post_init__()
            finally:
                fuzzy.nearest_ratios = real
    return Pooled


def prepare(d: dict) -> None:
    for fn, near in admissible.cached_family(d, STATE).items():
        d["raw"][fn]["r_near"] = near
    if STATE["variant"] == "sure":
        d["candidates"] = pooled_candidates(replay.cached_measure(d, STATE, "sure",
                                                                  measure_sure))


def signal(a) -> None:
    """Per dataset (the truth only to score): the sure nulls, how many lack a partner
    (purity), their s1 below 0.7 against the decoys' s2 (the check), the null group's (the
    truth) and the model's misfit (wrong joins among s1 <= 0.7 over the expected)."""
    import pandas as pd
    from pathlib import Path
    STATE["work"] = Path(a.work)
    STATE["folders"] = {n: f for _, n, _, f in
                        replay.case_folders(a.work, a.autofj_venv, SUITES)}
    rows = []
    for d in replay.saved(Path(a.work), a.split):
        prepare(d)
        sure = replay.cached_measure(d, STATE, "sure", measure_sure)
        left, right, gt = load(STATE["folders"][d["name"]])
        _, rrows = fuzzy._distinct(right["title"])
        ids = right["id"].to_numpy()
        partnered = set(gt["id_r"].astype(int))
        has = np.array([any(int(ids[p]) in partnered for p in r) for r in rrows])
        cands, _ = replay.build(d)
        c = dict.fromkeys(("n", "s07", "m", "d07", "nul", "n07", "lw", "lm"), 0.0)
        for f, k in cands.items():
            s1, s2 = mp.nearest_ratios(k.r_near)
            ok, okd = np.isfinite(s1) & (k.r_left >= 0), np.isfinite(s2)
            null, x, lo = ok & (d["tp"][f] == 0), ok & sure, ok & (s1 <= 0.7)
            c["n"] += x.sum(); c["s07"] += (s1[x] < 0.7).sum()               # noqa: E702
            c["m"] += okd.sum(); c["d07"] += (s2[okd] < 0.7).sum()           # noqa: E702
            c["nul"] += null.sum(); c["n07"] += (s1[null] < 0.7).sum()       # noqa: E702
            c["lw"] += (lo & null).sum(); c["lm"] += float((1 - k.p[lo]).sum())  # noqa: E702
        dec = c["d07"] / max(c["m"], 1)
        rows.append({"suite": d["suite"], "dataset": d["name"], "right": len(sure),
                     "sure": int(sure.sum()),
                     "purity": float((~has[sure]).mean()) if sure.any() else float("nan"),
                     "check": c["s07"] / max(c["n"], 1) / dec if c["n"] and dec else float("nan"),
                     "null_vs_decoys": c["n07"] / max(c["nul"], 1) / dec if dec else float("nan"),
                     "misfit": c["lw"] / c["lm"] if c["lm"] else float("nan")})
        print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    if a.out:
        df.to_csv(a.out, index=False)


def main(argv=None):
    options = {"--work": dict(required=True), "--split": dict(default="dev"),
               "--out": dict(default=None),
               "--autofj-venv": dict(default=replay.AUTOFJ_VENV)}
    replay.variant_run(__doc__, VARIANTS, argv, prepare=prepare, state=STATE, suites=SUITES,
                       subcommands={"signal": (signal, options)})


if __name__ == "__main__":
    main()
