"""The size of the lower bound under selection, replayed on the DEVELOPMENT split (round 8
of issue 26's calibration; bench/results/fuzzyjoin_calibration.md, fifteenth session; none
of the variants was kept, and bs0 / bsz were defined but not replayed).

A configuration (join function, threshold) or a greedy union reaches the precision target
when its estimate minus z standard errors does (``match_precision.precision_bound``);
the join takes z = 1.645, one configuration's one-sided 95 % bound, although the chooser
picks among about 700 configurations (a winner's curse). The variants change only how
large the bound is:

* base: the join as it is (z 1.645), through this script (checks the replay);
* z2 / z2.33 / z3: z = 2.0 / 2.326 / 3.0;
* zf: z = Phi^-1(1 - 0.05 / F), F the join functions with any candidate configuration for
  this pair of columns (a non-empty threshold grid): Bonferroni over the functions;
* zft: the same with F_t, the functions with a configuration whose estimate itself
  reaches the target (those that compete at it), per target; 1.645 where F_t <= 1;
* bs0 / bsz: the choice at the target plus a bootstrap estimate of the chooser's optimism
  (``BOOTSTRAP`` resamples of the right values; per resample the blocking output per
  right value and the threshold grids are held fixed, the probabilities, pi0, the isotonic
  share, the caps and the error terms re-estimated from the resampled right values, and
  the chooser re-run; optimism = mean over resamples of est_b(chosen_b) - est(chosen_b),
  est(chosen_b) the same configurations' estimate on the original right values); z 0 /
  z 1.645 in the resamples and in the choice.

    python bench/fuzzyjoin_bound_size.py --work W --variant z2 [--out dev_z2.csv]

W holds ``bench/fuzzyjoin_replay.py dump``'s cache (W/replay).
"""
from __future__ import annotations


import numpy as np
from scipy.stats import norm

import fuzzyjoin_replay as rp  # (first: it puts the repository on sys.path)
from lakejoin_jupyter.join import fuzzy

BOOTSTRAP = 10          # resamples per dataset (bs0, bsz), shared by the targets
SEED = 8

# name -> (the bound's z: a number, "F" for Bonferroni over the functions; bootstrap?)
VARIANTS = {"base": (1.645, False), "z2": (2.0, False), "z2.33": (2.326, False),
            "z3": (3.0, False), "zf": ("F", False), "zft": ("Ft", False), "bs0": (0.0, True),
            "bsz": (1.645, True)}


def functions_with_candidates(d: dict) -> int:
    """F: the join functions whose threshold grid is not empty (some right value has a
    finite, not vetoed, distance to a left value)."""
    return sum(1 for g in d["grids"].values() if len(g))


def competing_functions(curves: dict, target: float) -> int:
    """F_t: the join functions with a configuration whose estimate reaches ``target``."""
    return sum(1 for c in curves.values() if (c["est_precision"] >= target - 1e-12).any())


def bonferroni_z(n_functions: int, alpha: float = 0.05) -> float:
    return float(norm.ppf(1.0 - alpha / max(n_functions, 1)))


def union_estimate(cands: dict, configs) -> float:
    """The estimated precision of a union of configurations as ``greedy_union`` rates it:
    each right value joined once, at ``exclusive_probability`` of its distinct pairs (each
    pair at the highest probability a chosen configuration gives it)."""
    rs, ls, ps = [], [], []
    for f, t in configs:
        c = cands[f]
        joined, p, _, _ = c.at(float(t))
        r = np.nonzero(joined)[0]
        rs.append(r); ls.append(c.r_left[r]); ps.append(p)                # noqa: E702
    r, l, p = np.concatenate(rs), np.concatenate(ls), np.concatenate(ps)
    if not len(r):
        return float("nan")
    key = r * (int(l.max()) + 2) + l
    order = np.lexsort((-p, key))                      # per pair, its highest first
    key, r, p = key[order], r[order], p[order]
    first = np.r_[True, key[1:] != key[:-1]]
    r, p = r[first], p[first]                          # one row per distinct pair
    n_r = int(r.max()) + 1
    best = np.zeros(n_r); total = np.zeros(n_r); seen = np.zeros(n_r, bool)  # noqa: E702
    np.maximum.at(best, r, p)
    np.add.at(total, r, p)
    seen[r] = True
    return float(fuzzy.exclusive_probability(best[seen], total[seen]).mean())


def chosen(cands: dict, curves: dict, grids: dict, target: float):
    """(configs, estimated precision) the join's chooser picks, or (None, nan)."""
    fj = rp.chooser(cands, curves, grids, target)
    if fj._union is None:
        return None, float("nan")
    return fj.configs, fj.estimated_precision


def resamples(d: dict, rng) -> list:
    """``BOOTSTRAP`` resamples of the right values (with replacement), each as the
    candidates and curves the join would build from them: the blocking output per right
    value and the threshold grids held fixed, everything estimated re-estimated."""
    raw, grids = d["raw"], d["grids"]
    n_r = len(d["n_rows"])
    out = []
    for _ in range(BOOTSTRAP):
        idx = rng.integers(0, n_r, n_r)
        cb = {f: fuzzy._Candidates(f, **{k: (v[idx] if v is not None else None)
                                          for k, v in r.items()})
              for f, r in raw.items()}
        out.append((cb, {f: fuzzy.threshold_curve(c, grids[f], n_r) for f, c in cb.items()}))
    return out


def optimism(d: dict, cands: dict, boots: list, target: float) -> tuple[float, int]:
    """Mean over resamples of est_b(chosen_b) - est(chosen_b) (resamples where nothing
    reaches the target left out); (0, 0) when none chooses anything."""
    diffs = []
    for cb, curves in boots:
        configs, est_b = chosen(cb, curves, d["grids"], target)
        if configs is None:
            continue
        diffs.append(est_b - union_estimate(cands, configs))
    return (float(np.mean(diffs)), len(diffs)) if diffs else (0.0, 0)


OPTIMISM: list = []


def main(argv=None):
    state = {}

    def configure(variant):
        z, boot = VARIANTS[variant]
        state.update(z=z, boot=boot)
        if z not in ("F", "Ft"):
            fuzzy.STANDARD_ERRORS = z

    def prepare(d):
        if state["z"] == "F":
            fuzzy.STANDARD_ERRORS = bonferroni_z(functions_with_candidates(d))
            print(f"{d['name']}: F = {functions_with_candidates(d)}, "
                  f"z = {fuzzy.STANDARD_ERRORS:.3f}", flush=True)

    plain_choose = rp.choose

    boots = {}

    def boot_choose(d, target, built=None):
        """The join's choice at target + the bootstrap optimism at target (the same
        resamples for every target of a dataset)."""
        cands, _ = built
        if d["name"] not in boots:
            boots.clear()
            rng = np.random.default_rng([SEED, sum(map(ord, d["name"]))])
            boots[d["name"]] = resamples(d, rng)
        opt, used = optimism(d, cands, boots[d["name"]], target)
        OPTIMISM.append((d["name"], target, opt, used))
        print(f"{d['name']} target {target:g}: optimism {opt:+.4f} "
              f"({used} of {BOOTSTRAP} resamples chose)", flush=True)
        return plain_choose(d, min(1.0, target + opt), built)

    def competing_choose(d, target, built=None):
        """The join's choice at target with z from the functions that compete at it."""
        cands, curves = built
        f_t = competing_functions(curves, target)
        fuzzy.STANDARD_ERRORS = bonferroni_z(f_t) if f_t > 1 else 1.645
        n_r = len(d["n_rows"])
        curves = {f: fuzzy.threshold_curve(c, d["grids"][f], n_r) for f, c in cands.items()}
        print(f"{d['name']} target {target:g}: F_t = {f_t}, z = {fuzzy.STANDARD_ERRORS:.3f}",
              flush=True)
        return plain_choose(d, target, (cands, curves))

    def configure_all(variant):
        configure(variant)
        if state["boot"]:
            rp.choose = boot_choose
        if state["z"] == "Ft":
            fuzzy.STANDARD_ERRORS = 1.645
            rp.choose = competing_choose

    df, targets = rp.variant_run(__doc__, VARIANTS, argv, configure_all, prepare)
    print(rp.mean_lines(df, targets))
    if OPTIMISM:
        opts = np.array([o[2] for o in OPTIMISM]).reshape(-1, len(targets))
        print("mean optimism per target: " + " / ".join(f"{v:+.4f}" for v in opts.mean(0)))


if __name__ == "__main__":
    main()
