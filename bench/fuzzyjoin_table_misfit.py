"""Calibration round 18 (bench/results/fuzzyjoin_calibration.md, twenty-second session):
a label-free, per-table signal of how far the decoy model's estimate is off on a table.
``signals`` computes, per DEVELOPMENT dataset (bench/fuzzyjoin_replay.py dump), signals
from the join functions' candidates only (never the ground truth) and their rank and
linear correlations with the dataset's mean z along the greedy's path (z = (achieved -
estimate) / se, from bench/fuzzyjoin_standard_error.py measure's OUT_path.csv, unions
with an estimate of 0.75 or more) and with its mean (achieved - estimate); ``fit`` prints
the constants below, from the same path, for the chosen signal, the functions'
agreement A (:func:`agreement`). The variants lower every bound (the single
configurations' curves and the greedy union; the estimate itself and the greedy's
patience unchanged) by a per-table amount:

* ``base``: the join as it is (estimate - 1.645 se);
* ``shift``: estimate - 1.645 se - max(0, SHIFT_A - SHIFT_B * A) (the per-dataset mean
  of achieved - estimate, fitted linear in A);
* ``fdr``: 1 - max(1, FDR_A - FDR_B * A) * (1 - estimate) - 1.645 se (the estimated
  wrong joins scaled by the per-dataset ratio of achieved to estimated wrong joins,
  fitted linear in A).

    python bench/fuzzyjoin_table_misfit.py signals --work W --path m_path.csv --out s.csv
    python bench/fuzzyjoin_table_misfit.py fit --signals s.csv
    python bench/fuzzyjoin_table_misfit.py --work W --variant shift --out dev_shift.csv
"""
from __future__ import annotations

import numpy as np
import pandas as pd

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)

VARIANTS = ("base", "shift", "fdr")
SHIFT_A, SHIFT_B = 0.5014, 0.5693     # fitted by ``fit`` on the development path
FDR_A, FDR_B = 6.2171, 6.0585
STATE = {"agreement": 1.0}


def agreement(r_left: dict) -> float:
    """The join functions' agreement on a table: over the right values some function joins
    (nearest left index >= 0), the mean share of those functions whose nearest left value
    is the most common one among them (1: all functions that join it agree)."""
    L = np.stack([np.asarray(v) for v in r_left.values()], axis=1)
    shares = []
    for row in L:
        row = row[row >= 0]
        if len(row):
            shares.append(np.unique(row, return_counts=True)[1].max() / len(row))
    return float(np.mean(shares)) if shares else 1.0


def discounted(avg: float, se: float, variant: str) -> float:
    """The bound of a set of joins with estimate ``avg`` and standard error ``se`` on the
    current table (its agreement in STATE)."""
    from lakejoin_jupyter.join import match_precision as mp
    a = STATE["agreement"]
    if variant == "shift":
        return avg - mp.STANDARD_ERRORS * se - max(0.0, SHIFT_A - SHIFT_B * a)
    if variant == "fdr":
        return 1.0 - max(1.0, FDR_A - FDR_B * a) * (1.0 - avg) - mp.STANDARD_ERRORS * se
    return avg - mp.STANDARD_ERRORS * se


def configure(variant: str) -> None:
    if variant == "base":
        return
    replay.patch_bound(lambda est, var, shared, n: discounted(
        est, np.sqrt(var + shared ** 2) / n, variant))


def prepare(d: dict) -> None:
    STATE["agreement"] = agreement({f: r["r_left"] for f, r in d["raw"].items()})


def table_signals(d: dict) -> dict:
    """Label-free signals of one saved dataset (means over its join functions unless
    said): see the round's section for each one's definition."""
    from lakejoin_jupyter.join import match_precision as mp
    cands, _ = replay.build(d)
    out = {k: [] for k in ("ks_above_half", "mid_excess", "hub_share", "hub_overclaim",
                           "namesake_share", "exact_share", "pi0", "tail_share", "mean_p")}
    for c in cands.values():
        s1, s2 = mp.nearest_ratios(c.r_near)
        a, b = s1[np.isfinite(s1)], s2[np.isfinite(s2)]
        if not len(a) or not len(b):
            continue
        ok = c.r_left >= 0
        out["pi0"].append(c.pi0)
        out["tail_share"].append(np.mean(a > mp.NULL_TAIL))
        lo, hi = 0.8, mp.NULL_TAIL          # below the tail: joins beyond the nulls' share
        pred = c.pi0 * np.mean((b > lo) & (b <= hi))
        out["mid_excess"].append((np.mean((a > lo) & (a <= hi)) - pred) / max(pred, 1e-3))
        aa, bb = np.sort(a[a > 0.5]), np.sort(b[b > 0.5])
        if len(aa) > 2 and len(bb) > 2:     # KS distance of the ratios above 0.5
            x = np.concatenate([aa, bb])
            out["ks_above_half"].append(np.max(np.abs(
                np.searchsorted(aa, x, "right") / len(aa)
                - np.searchsorted(bb, x, "right") / len(bb))))
        _, inv, cnt = np.unique(c.r_left[ok], return_inverse=True, return_counts=True)
        out["hub_share"].append(np.mean(cnt[inv] > 1))
        tot = np.bincount(inv, weights=c.p[ok])
        out["hub_overclaim"].append(np.clip(tot - 1, 0, None).sum() / max(c.p[ok].sum(), 1e-9))
        if c.r_namesake is not None:
            out["namesake_share"].append(np.mean(c.r_namesake[ok] <= c.r_near[ok, 1] + mp.TIE))
        out["exact_share"].append(np.mean(c.r_near[ok, 0] <= mp.TIE))
        out["mean_p"].append(np.mean(c.p[ok]))
    row = {k: float(np.mean(v)) if v else np.nan for k, v in out.items()}
    fns = list(cands)
    L = np.stack([cands[f].r_left for f in fns], 1)
    P = np.stack([cands[f].p for f in fns], 1)
    over = []
    for i in range(len(L)):
        vals = np.unique(L[i][L[i] >= 0])
        if len(vals):
            over.append(max(0.0, sum(P[i][L[i] == v].max() for v in vals) - 1.0))
    n_r = len(d["n_rows"])
    row.update(dataset=d["name"], log10_right=np.log10(n_r),
               agreement=agreement({f: cands[f].r_left for f in fns}),
               overclaim=float(np.mean(over)) if over else 0.0)
    return row


def per_dataset_error(path_csv: str) -> pd.DataFrame:
    q = pd.read_csv(path_csv)
    q = q[q.est >= 0.75]
    z = q[q.se > 1e-12]
    out = pd.DataFrame({
        "mean_z": ((z.ach - z.est) / z.se).groupby(z.dataset).mean(),
        "mean_error": (q.ach - q.est).groupby(q.dataset).mean(),
        "wrong_ratio": (1 - q.ach).groupby(q.dataset).sum()
        / (1 - q.est).groupby(q.dataset).sum().clip(lower=1e-9)})
    return out


def signals(work, path_csv: str, out: str) -> None:
    from scipy.stats import pearsonr, spearmanr
    s = pd.DataFrame([table_signals(d) for d in replay.saved(work, "dev")]).set_index("dataset")
    s = s.join(per_dataset_error(path_csv))
    s.to_csv(out)
    print("| signal | Spearman with mean z (p) | Pearson with mean z | Spearman with mean "
          "(achieved - estimate) |\n|---|---|---|---|")
    for col in [c for c in s.columns if c not in ("mean_z", "mean_error", "wrong_ratio")]:
        x = s[[col, "mean_z", "mean_error"]].dropna()
        r, pv = spearmanr(x[col], x.mean_z)
        print(f"| {col} | {r:+.3f} ({pv:.3f}) | {pearsonr(x[col], x.mean_z)[0]:+.3f} | "
              f"{spearmanr(x[col], x.mean_error)[0]:+.3f} |")


def fit(signals_csv: str) -> None:
    """SHIFT and FDR: least squares, each dataset once, of its mean (achieved - estimate)
    and of its ratio of achieved to estimated wrong joins on its agreement."""
    s = pd.read_csv(signals_csv)
    b, a = np.polyfit(s.agreement, s.mean_error, 1)
    b2, a2 = np.polyfit(s.agreement, s.wrong_ratio, 1)
    print(f"SHIFT_A {-a:.4f} SHIFT_B {b:.4f}   FDR_A {a2:.4f} FDR_B {-b2:.4f}")


SUBCOMMANDS = {
    "signals": (lambda a: signals(a.work, a.path, a.out), {
        "--work": dict(required=True),
        "--path": dict(required=True, help="bench/fuzzyjoin_standard_error.py measure's path CSV"),
        "--out": dict(required=True, help="the signals' CSV")}),
    "fit": (lambda a: fit(a.signals), {"--signals": dict(required=True)})}


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, configure=configure, prepare=prepare,
                       subcommands=SUBCOMMANDS)


if __name__ == "__main__":
    main()
