"""Recall round (issue 26, fuzzy goal F1 within 0.03 of autofj's): two candidate-side
variants of the fuzzy join replayed on saved blocking output (bench/fuzzyjoin_replay.py),
DEVELOPMENT data only; results in bench/results/fuzzyjoin_calibration.md. Neither is in
join/fuzzy.py: this script holds them.

* ``subset``: a 16th join function, word-subset-idf, Auto-FuzzyJoin's
  containJaccardDistance over IDF-weighted words (1 - weighted Jaccard where one word set
  holds the other, else 1): "Pullman" is near "Pullman Hotels and Resorts", rivals that
  hold it are ordered by what they add, labels sharing a word but not holding it are far.
* ``ties``: a right value that max-inclusion (the "contain" functions) puts as near to
  several left values joins none of them (today: the first, rated at most 1 / ties).
* ``both``: the two together; ``base``: the join as it is.

    python bench/fuzzyjoin_recall.py dump --work W --out W2      # W: fuzzyjoin_replay.py dump's
    python bench/fuzzyjoin_recall.py replay --work W2 --variant both --out both.csv

``dump`` copies W's saved datasets into W2 with the new function's candidates added (the
cases as ``fuzzyjoin_replay.py`` finds them, W/cases for rl); ``replay`` takes every saved
dataset of W2 (``--split all``: the fresh sets saved under "validation" are development now).
"""
from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import fuzzyjoin_replay as R  # noqa: E402
from fuzzyjoin_autofj import load  # noqa: E402
from lakejoin_jupyter.join import fuzzy  # noqa: E402

SUBSET = "word-subset-idf"


def subset_distance(inter, sa, sb):
    """1 - weighted Jaccard where the intersection is the smaller set (up to round-off), else 1."""
    small = np.minimum(sa, sb)
    with np.errstate(divide="ignore", invalid="ignore"):
        sim = np.where(sa + sb - inter > 0, inter / (sa + sb - inter), 0.0)
    sim = np.where(inter >= small * (1.0 - 1e-9), sim, 0.0)
    return 1.0 - np.clip(sim, 0.0, 1.0)


def register_subset() -> None:
    """Add the function to ``fuzzy`` (its distances patched in beside the others')."""
    if SUBSET in fuzzy.JOIN_FUNCTIONS:
        return
    fuzzy.JOIN_FUNCTIONS[SUBSET] = (dict(n=(), words=True, punct="drop"), "idf", "subset")
    fuzzy.MAX_DISTANCE["subset"] = 1.0
    dist, pair = fuzzy._distances, fuzzy._pair_distances

    def distances(a, b, bt, bt_ones, s, e):
        if a.measure != "subset":
            return dist(a, b, bt, bt_ones, s, e)
        inter = (a.m[s:e] @ bt_ones).toarray()
        return subset_distance(inter, a.size[s:e, None], b.size[None, :])

    def pair_distances(a, b):
        if a.measure != "subset":
            return pair(a, b)
        inter = np.asarray(a.m.multiply(b.ones).sum(axis=1)).ravel()
        return subset_distance(inter, a.size, b.size)

    fuzzy._distances, fuzzy._pair_distances = distances, pair_distances


def dump(work: Path, out: Path, venv: str) -> None:
    register_subset()
    (out / "replay").mkdir(parents=True, exist_ok=True)
    suites = ("autofj", "rl", "fresh1", "fresh2", "fresh3", "fresh4", "fresh12")
    folders = {name: folder for _, name, _, folder in R.case_folders(work, venv, suites)}
    for d in R.saved(work):
        left, right, gt = load(folders[d["name"]])
        fj = fuzzy.fuzzy_join(left, right, on=("title", "title"), precision_target=0.9,
                              functions=[SUBSET])
        truth = set(zip(gt["id_l"].astype(int), gt["id_r"].astype(int)))
        ids_l, ids_r = left["id"].to_numpy(), right["id"].to_numpy()
        assert (np.array([len(r) for r in fj._rrows]) == d["n_rows"]).all()
        c = fj._cands[SUBSET]
        d["tp"][SUBSET] = np.array([
            sum((int(ids_l[fj._lrows[l][0]]), int(ids_r[rp])) in truth for rp in fj._rrows[r])
            if l >= 0 else 0 for r, l in enumerate(c.r_left.tolist())])
        d["raw"][SUBSET] = {k: getattr(c, k) for k in R.RAW}
        d["grids"][SUBSET] = fj._grids[SUBSET]
        pickle.dump(d, open(out / "replay" / f"{d['name']}.pkl", "wb"))
        print(d["name"], flush=True)


def prepare(variant: str, work: Path | None = None):
    """The replay's hook: the family distances the join computes (round 23; a dump older
    than them has them cached in WORK/family/NAME.pkl, bench/fuzzyjoin_admissible.py), then
    drop the new function (base, ties) and veto the ties (ties, both), the threshold grid
    recomputed from the joins left, as ``fuzzy_join`` builds it."""
    def hook(d):
        cache = Path(work) / "family" / f"{d['name']}.pkl" if work is not None else None
        if cache is not None and cache.exists():
            for fn, near in pickle.load(open(cache, "rb")).items():
                if fn in d["raw"]:
                    d["raw"][fn]["r_near"] = near
        for f in list(d["raw"]):
            if f == SUBSET and variant in ("base", "ties"):
                del d["raw"][f]
                continue
            if variant in ("ties", "both") and fuzzy.JOIN_FUNCTIONS.get(f, (0, 0, ""))[2] == "contain":
                r = d["raw"][f]
                r["r_dist"] = np.where(r["r_ties"] > 1, np.inf, r["r_dist"])
                fin = np.unique(r["r_dist"][np.isfinite(r["r_dist"])])
                d["grids"][f] = (np.unique(np.quantile(fin, np.linspace(0, 1, fuzzy.N_THRESHOLDS)))
                                 if len(fin) > fuzzy.N_THRESHOLDS else fin)
    return hook


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["dump", "replay"])
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", default=None, help="dump: the new work folder; replay: a CSV")
    ap.add_argument("--variant", choices=["base", "subset", "ties", "both"], default="both")
    ap.add_argument("--autofj-venv", default=R.AUTOFJ_VENV)
    ap.add_argument("--targets", default="0.8,0.9,0.95")
    a = ap.parse_args(argv)
    if a.what == "dump":
        if not a.out:
            ap.error("dump needs --out (the new work folder)")
        dump(Path(a.work), Path(a.out), a.autofj_venv)
        return
    register_subset()
    targets = R.numbers(a.targets)
    df = R.replay(Path(a.work), "all", targets, prepare=prepare(a.variant, Path(a.work)),
                  quiet=True)
    if a.out:
        df.to_csv(a.out, index=False)
    print(R.summary(df, targets))
    print(R.mean_lines(df, targets))


if __name__ == "__main__":
    main()
