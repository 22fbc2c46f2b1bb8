"""Calibration round 19 (bench/results/fuzzyjoin_calibration.md, twenty-third session): a
held-out check of the decoy model inside the table. ``signals`` computes per DEVELOPMENT
dataset (bench/fuzzyjoin_replay.py dump) two label-free checks and their correlations with
the dataset's error along the greedy's path (bench/fuzzyjoin_table_misfit.py's
``per_dataset_error`` of bench/fuzzyjoin_standard_error.py measure's OUT_path.csv):

* ``ref_gap``, a second decoy: K = min(|left|, |right|, REF_SAMPLE) left values (evenly
  spaced) queried against the other left values give reference ratios e1 / e2 (the null
  of a right value whose entity the left table lacks). Per join function, over its joins
  rated p >= 1/2 by the join's model (before the caps), the mean of p - p_ref, p_ref the
  same model with the reference ratios as decoys; the mean over the functions.
* ``half_gap``, two halves (even and odd right values): each half's joins rated by the
  model fitted on the other half against their in-sample rating, the mean of the
  difference over the joins rated 1/2 or more, the mean over the functions.

The variants change every bound (curves and greedy union; estimate, order and patience
unchanged) by the table's ref_gap (``fit`` prints REF_A, REF_B):

* ``base``: the join as it is (estimate - 1.645 se);
* ``trust``: where the decoys agree (ref_gap <= AGREE_GAP) the estimate itself is
  compared to the target; elsewhere the join's bound;
* ``two_sided``: ``trust``, and elsewhere 1 - max(1, REF_A + REF_B * ref_gap) (1 -
  estimate) - 1.645 se (round 18's FDR with ref_gap for the functions' agreement).

    python bench/fuzzyjoin_decoy_check.py signals --work W --path m_path.csv --out s.csv
    python bench/fuzzyjoin_decoy_check.py fit --signals s.csv
    python bench/fuzzyjoin_decoy_check.py --work W --variant trust --out dev_trust.csv

The reference ratios are computed once per dataset and cached in ``W/refdecoys/``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)
from fuzzyjoin_autofj import load

VARIANTS = ("base", "trust", "two_sided")
SUITES = ["autofj", "rl", "fresh1", "fresh2", "fresh3", "fresh4", "fresh6"]
REF_SAMPLE = 500          # at most this many left values queried against the others
REF_A, REF_B = 1.0121, 3.6547   # two_sided: fitted by ``fit`` on the development path
AGREE_GAP = 0.05          # trust, two_sided: the decoys agree up to this ref_gap
STATE = {"variant": "base", "work": None, "folders": None, "ref_gap": 0.0}


def reference_sample(n_left: int, n_right: int, most: int = REF_SAMPLE) -> np.ndarray:
    """K = min(|left|, |right|, ``most``) left indices, evenly spaced."""
    k = min(n_left, n_right, most)
    return np.unique(np.linspace(0, n_left - 1, k).round().astype(np.int64))


def reference_ratios(d: dict, folder: Path) -> dict:
    """Per join function of dataset ``d``: the ratios e1 / e2 of the sampled left values
    against the other left values (NaN where undefined)."""
    from lakejoin_jupyter.join import fuzzy, match_precision as mp
    left, right, _ = load(folder)
    lkeys, _ = fuzzy._distinct(left["title"])
    rkeys, _ = fuzzy._distinct(right["title"])
    q = reference_sample(len(lkeys), len(rkeys))
    out, counts = {}, {}
    for fn in d["raw"]:
        L, _ = fuzzy._features([list(lkeys), list(rkeys)], fn, counts)
        near, _, _ = fuzzy._nearest(L[q], L, fuzzy.NEAREST, self_index=q)
        out[fn] = mp.nearest_ratios(near)[0]
    return out


def cached_reference_ratios(d: dict, state: dict) -> dict:
    return replay.cached_measure(d, state, "refdecoys", reference_ratios)


def model_probability(s1: np.ndarray, s2: np.ndarray) -> np.ndarray:
    """1 - null_probability (the join's model before its caps); 0 where s1 is NaN."""
    from lakejoin_jupyter.join import match_precision as mp
    null, _ = mp.null_probability(s1, s2)
    return np.where(np.isfinite(null), 1.0 - np.nan_to_num(null), 0.0)


def ref_gap(raw: dict, ref: dict) -> float:
    """The table's ``ref_gap`` (module docstring) from its saved candidates ``raw`` (fn ->
    RAW fields) and reference ratios ``ref`` (fn -> ratios); 0 where no function has a
    join rated 1/2 or more, or reference ratios."""
    from lakejoin_jupyter.join import match_precision as mp
    gaps = []
    for f, r in raw.items():
        s1, s2 = mp.nearest_ratios(r["r_near"])
        x = np.asarray(ref.get(f, []), dtype=np.float64)
        if not np.isfinite(x).any():
            continue
        p = model_probability(s1, s2)
        sel = (np.asarray(r["r_left"]) >= 0) & np.isfinite(s1) & (p >= 0.5)
        if sel.any():
            gaps.append(float(np.mean(p[sel] - model_probability(s1, x)[sel])))
    return float(np.mean(gaps)) if gaps else 0.0


def cross_probability(s1_fit, s2_fit, s1_new) -> np.ndarray:
    """The model (pi0, decoy share) fitted on ``s1_fit`` / ``s2_fit`` applied to the
    ratios ``s1_new``: each new ratio takes the fitted value at the largest pooled ratio at
    or below it (the fit is a step function; below every pooled ratio, the first step)."""
    from lakejoin_jupyter.join import match_precision as mp
    s1_fit, s2_fit = np.asarray(s1_fit, float), np.asarray(s2_fit, float)
    a, b = s1_fit[np.isfinite(s1_fit)], s2_fit[np.isfinite(s2_fit)]
    out = np.zeros(len(s1_new))
    ok = np.isfinite(s1_new)
    if not len(a) or not len(b) or not ok.any():
        return out
    n, m = len(a), len(b)
    pi0 = min(1.0, (np.sum(a > mp.NULL_TAIL) + 1) / (np.sum(b > mp.NULL_TAIL) * n / m + 1))
    x, inv = np.unique(np.concatenate([a, b]), return_inverse=True)
    size = np.bincount(inv, minlength=len(x)).astype(np.float64)
    decoys = np.bincount(inv[n:], minlength=len(x)).astype(np.float64)
    q = mp.increasing_fit(decoys / size, size)
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.minimum(np.where(q < 1.0, pi0 * (n / m) * q / (1.0 - q), 1.0), 1.0)
    i = np.clip(np.searchsorted(x, s1_new[ok], side="right") - 1, 0, len(x) - 1)
    out[ok] = 1.0 - step[i]
    return out


def half_gap(raw: dict) -> float:
    """The table's ``half_gap`` (module docstring)."""
    from lakejoin_jupyter.join import match_precision as mp
    gaps = []
    for r in raw.values():
        s1, s2 = mp.nearest_ratios(r["r_near"])
        idx = np.arange(len(s1))
        for h in (0, 1):
            a, b = idx % 2 != h, idx % 2 == h
            p_in = model_probability(s1[b], s2[b])
            p_x = cross_probability(s1[a], s2[a], s1[b])
            sel = (np.asarray(r["r_left"])[b] >= 0) & np.isfinite(s1[b]) & (p_in >= 0.5)
            if sel.any():
                gaps.append(float(np.mean(p_in[sel] - p_x[sel])))
    return float(np.mean(gaps)) if gaps else 0.0


def rated(avg: float, var: float, shared: float, n: int, variant: str, gap: float) -> float:
    """The variant's bound of a set of n joins (estimate ``avg``, variance sum ``var``,
    shared-error sum ``shared``) on a table whose ref_gap is ``gap``."""
    from lakejoin_jupyter.join import match_precision as mp
    se = np.sqrt(var + shared ** 2) / n
    if variant in ("trust", "two_sided") and gap <= AGREE_GAP:
        return avg
    if variant == "two_sided":
        return 1.0 - max(1.0, REF_A + REF_B * gap) * (1.0 - avg) - mp.STANDARD_ERRORS * se
    return avg - mp.STANDARD_ERRORS * se


def configure(variant: str) -> None:
    if variant != "base":
        replay.patch_bound(lambda est, var, shared, n: rated(
            est, var, shared, n, variant, STATE["ref_gap"]))


def prepare(d: dict) -> None:
    STATE["ref_gap"] = ref_gap(d["raw"], cached_reference_ratios(d, STATE))


def signals(work: str, path_csv: str, out: str, venv: str) -> None:
    from scipy.stats import pearsonr, spearmanr
    from fuzzyjoin_table_misfit import per_dataset_error
    state = {"work": Path(work),
             "folders": {n: f for _, n, _, f in replay.case_folders(work, venv, SUITES)}}
    rows = []
    for d in replay.saved(work, "dev"):
        ref = cached_reference_ratios(d, state)
        rows.append({"dataset": d["name"], "ref_gap": ref_gap(d["raw"], ref),
                     "half_gap": half_gap(d["raw"])})
        print(rows[-1], flush=True)
    s = pd.DataFrame(rows).set_index("dataset").join(per_dataset_error(path_csv))
    s.to_csv(out)
    print("| signal | Spearman with mean z (p) | Pearson with mean z | Spearman with mean "
          "(achieved - estimate) |\n|---|---|---|---|")
    for col in ("ref_gap", "half_gap"):
        x = s[[col, "mean_z", "mean_error"]].dropna()
        r, pv = spearmanr(x[col], x.mean_z)
        print(f"| {col} | {r:+.3f} ({pv:.3f}) | {pearsonr(x[col], x.mean_z)[0]:+.3f} | "
              f"{spearmanr(x[col], x.mean_error)[0]:+.3f} |")


def fit(signals_csv: str) -> None:
    """two_sided's REF_A, REF_B: least squares, each dataset once, of its ratio of
    achieved to estimated wrong joins along the path on its ref_gap."""
    s = pd.read_csv(signals_csv)
    b, a = np.polyfit(s.ref_gap, s.wrong_ratio, 1)
    print(f"REF_A {a:.4f} REF_B {b:.4f}")


SUBCOMMANDS = {
    "signals": (lambda a: signals(a.work, a.path, a.out, a.autofj_venv), {
        "--work": dict(required=True),
        "--path": dict(required=True, help="bench/fuzzyjoin_standard_error.py measure's path CSV"),
        "--out": dict(required=True, help="the signals' CSV"),
        "--autofj-venv": dict(default=replay.AUTOFJ_VENV)}),
    "fit": (lambda a: fit(a.signals), {"--signals": dict(required=True)})}


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, configure=configure, prepare=prepare,
                       state=STATE, suites=SUITES, subcommands=SUBCOMMANDS)


if __name__ == "__main__":
    main()
