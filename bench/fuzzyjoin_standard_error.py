"""Calibration round 17 (bench/results/fuzzyjoin_calibration.md, twenty-second session):
is the bound's standard error calibrated? ``measure`` replays, on the DEVELOPMENT
datasets' saved blocking output (bench/fuzzyjoin_replay.py dump), the greedy's path (at
0.8: the path does not depend on the target, only where it stops) and the choice at each
target, and writes per union its estimate, standard error, the precision it achieves per
right value (the estimator's unit) and per row, and the error's three variance terms
(outcomes, decoys, pi0); ``fit`` prints the constants below from that path. The variants
replace the standard error se of every bound (the single configurations' curves and the
greedy union) with one whose shape the measurement gives, n the set's joins:

* ``base``: the join as it is (1.645 * se);
* ``flat``: SIGMA / sqrt(n) in place of se, Z_KEEP of them (the same empirical coverage
  along the path as the bound now has);
* ``mix``: sqrt(se^2 + SIGMA_MIX^2 / n), Z_KEEP_MIX of them;
* ``flat95``: SIGMA / sqrt(n), 1.645 of them (a calibrated one-sided 95 % bound).

    python bench/fuzzyjoin_standard_error.py measure --work W --out m   # m_path.csv, m_chosen.csv
    python bench/fuzzyjoin_standard_error.py fit --out m
    python bench/fuzzyjoin_standard_error.py --work W --variant flat --out dev_flat.csv
"""
from __future__ import annotations

import inspect
import pickle
from pathlib import Path

import numpy as np
import pandas as pd

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)

VARIANTS = ("base", "flat", "mix", "flat95")
SIGMA, Z_KEEP = 0.734, 0.667           # fitted by ``fit`` on the development path
SIGMA_MIX, Z_KEEP_MIX = 0.645, 0.665
MEDIAN_ABS_NORMAL = 0.6744897501960817


def width(var: float, shared: float, n: int, variant: str) -> float:
    """How far below the estimate the bound lies, from the model's variance terms (sum of
    the joins' own variances, sum of their shared errors) of a set of n joins."""
    from lakejoin_jupyter.join import match_precision as mp
    se = np.sqrt(var + shared ** 2) / n
    if variant == "flat":
        return Z_KEEP * SIGMA / np.sqrt(n)
    if variant == "mix":
        return Z_KEEP_MIX * np.sqrt(se ** 2 + SIGMA_MIX ** 2 / n)
    if variant == "flat95":
        return mp.STANDARD_ERRORS * SIGMA / np.sqrt(n)
    return mp.STANDARD_ERRORS * se


def configure(variant: str) -> None:
    if variant == "base":
        return
    replay.patch_bound(lambda est, var, shared, n: est - width(var, shared, n, variant))


def measure(work: Path, out: str) -> None:
    """Write OUT_path.csv (every union of the greedy's path at 0.8) and OUT_chosen.csv
    (the choice at 0.8, 0.9, 0.95) of the join as it is."""
    from lakejoin_jupyter.join import fuzzy
    trace = []
    src = inspect.getsource(fuzzy.greedy_union)
    old = "        se = np.sqrt(var.sum() + share.sum() ** 2) / nj\n"
    assert src.count(old) == 1
    src = src.replace(old, old + "        _TRACE.append((avg, float(var.sum()), float(share.sum()),"
                      " nj, seen.copy(), best_f.copy(), best_p.copy(), list(selected)))\n")
    fuzzy._TRACE = trace
    exec(compile(src, fuzzy.__file__, "exec"), fuzzy.__dict__)

    def row(d, fns, outc, r, fn_of, avg, vs, ss, nj, p):
        pout = float(np.sum(p * (1 - p)))
        tp = sum(d["tp"][fn_of[i]][i] for i in r)
        return dict(dataset=d["name"], suite=d["suite"], right=len(d["n_rows"]), nj=nj,
                    est=avg, se=np.sqrt(vs + ss ** 2) / nj,
                    ach=float(np.mean([outc[fn_of[i]][i] for i in r])),
                    ach_row=tp / d["n_rows"][r].sum(), var_out=pout, var_decoy=vs - pout,
                    var_pi0=ss ** 2)

    path, chosen = [], []
    for f in sorted((work / "replay").glob("*.pkl")):
        d = pickle.load(open(f, "rb"))
        if d["split"] != "dev":
            continue
        cands, curves = replay.build(d)
        fns = list(cands)
        outc = {g: d["tp"][g] / np.maximum(d["n_rows"], 1) for g in fns}
        trace.clear()
        fuzzy.greedy_union(cands, d["grids"], 0.8)
        for k, (avg, vs, ss, nj, seen, bf, bp, sel) in enumerate(trace):
            r = np.flatnonzero(seen)
            path.append(dict(row(d, fns, outc, r, [fns[j] if j >= 0 else "" for j in bf],
                                 avg, vs, ss, nj, bp[r]), step=k))
        for t in (0.8, 0.9, 0.95):
            trace.clear()
            fj = fuzzy._choose(dict(left=None, right=None, on=("title", "title"),
                                    _cands=cands, _grids=d["grids"], _curves=curves,
                                    _lkeys=None, _rkeys=np.arange(len(d["n_rows"])),
                                    _lrows=None, _rrows=None), fns, t)
            if fj._union is None:
                continue
            r = np.flatnonzero(fj._union >= 0)
            hit = [x for x in trace if x[7] == fj.configs]
            if hit:
                avg, vs, ss, nj, seen, bf, bp, sel = hit[-1]
                p = bp[seen]
            else:                                   # the best single configuration
                (g, th), = fj.configs
                _, p, v, u = cands[g].at(th)
                avg, vs, ss, nj = float(p.mean()), float(v.sum()), float(u.sum()), len(p)
            chosen.append(dict(row(d, fns, outc, r, fj._union_fn, avg, vs, ss, nj, p),
                               target=t, single=not hit))
        print(d["name"], flush=True)
    pd.DataFrame(path).to_csv(f"{out}_path.csv", index=False)
    pd.DataFrame(chosen).to_csv(f"{out}_chosen.csv", index=False)


def fit(out: str) -> None:
    """The constants, from the path's unions with an estimate of 0.75 or more, each
    dataset weighted equally: SIGMA = the median of |achieved - estimate| * sqrt(n) over
    the normal's median |z|; SIGMA_MIX likewise for sqrt(se^2 + SIGMA_MIX^2 / n); Z_KEEP(_MIX)
    = the number of those standard errors below which the achieved precision falls as
    often as it falls below the bound now (1.645 se)."""
    q = pd.read_csv(f"{out}_path.csv")
    q = q[q.est >= 0.75]
    w = (1.0 / q.groupby("dataset").dataset.transform("size")).to_numpy()
    res, n, se = (q.ach - q.est).to_numpy(), q.nj.to_numpy(float), q.se.to_numpy()

    def quantile(x, a):
        o = np.argsort(x)
        return float(x[o][np.searchsorted(np.cumsum(w[o]) / w.sum(), a)])
    cover = float(np.sum(w * (res >= -1.645 * se)) / w.sum())
    sigma = quantile(np.abs(res) * np.sqrt(n), 0.5) / MEDIAN_ABS_NORMAL
    lo, hi = 0.0, 5.0
    for _ in range(100):
        m = (lo + hi) / 2
        lo, hi = (m, hi) if quantile(np.abs(res) / np.sqrt(se ** 2 + m ** 2 / n), 0.5) > \
            MEDIAN_ABS_NORMAL else (lo, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = res / se
    print(f"unions {len(q)}, datasets {q.dataset.nunique()}; the bound now covers {cover:.4f}; "
          f"median |z| (se > 0) {np.median(np.abs(z[se > 0])):.3f}")
    print(f"SIGMA {sigma:.4f} Z_KEEP {-quantile(res * np.sqrt(n) / sigma, 1 - cover):.4f}")
    print(f"SIGMA_MIX {lo:.4f} Z_KEEP_MIX "
          f"{-quantile(res / np.sqrt(se ** 2 + lo ** 2 / n), 1 - cover):.4f}")


_OUT = {"--out": dict(required=True, help="prefix of the measurement's CSVs")}
SUBCOMMANDS = {"measure": (lambda a: measure(Path(a.work), a.out),
                           {"--work": dict(required=True), **_OUT}),
               "fit": (lambda a: fit(a.out), _OUT)}


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, configure=configure, subcommands=SUBCOMMANDS)


if __name__ == "__main__":
    main()
