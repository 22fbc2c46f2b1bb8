"""Calibration round 16 (bench/results/fuzzyjoin_calibration.md, twenty-first session):
at 0.8 the chosen union's estimate matches what it achieves but sits well above the
target, because the chooser needs the one-sided lower bound (``STANDARD_ERRORS`` = 1.645
standard errors) at the target and small tables have wide bounds. Replays, on the
DEVELOPMENT datasets' saved blocking output (bench/fuzzyjoin_replay.py dump), the choice
(the single configurations' curves and the greedy union alike) with the bound's width
w = 1.645 * se changed, for a stated share ``WIDTH`` = 0.05 (``fuzzy.PATIENCE``, the
greedy's own tolerance below the target):

* ``base``: the join as it is (w);
* ``wide_mean``: where w exceeds ``WIDTH``, the mean estimate, not the bound, is compared
  to the target (w := 0); elsewhere the bound (w);
* ``last_step``: the greedy's last step made finer: after the last union that meets the
  bound, the configuration the greedy adds next, (f, t), is added at each of f's
  distances in (t0, t] in turn, ascending (t0: the grid threshold below t in f's grid), a
  threshold (f, t') at a time, while the union with it still meets the bound; the last
  such t' is kept as one more configuration (f, t') of the union. The union with (f, t')
  is rated as the greedy rates a union (exclusive pairs, the hub cap, the same bound).
  The bound is unchanged (w).

    python bench/fuzzyjoin_bound_width.py --work W --variant wide_mean --out dev_wide_mean.csv
"""
from __future__ import annotations

import inspect

import numpy as np

import fuzzyjoin_replay as replay  # (first: it puts the repository on sys.path)

VARIANTS = ("base", "wide_mean", "last_step")
WIDTH = 0.05
_STATE = {"variant": "base"}


def width(w: float) -> float:
    """The bound's width under the variant, from the width 1.645 * se."""
    v = _STATE["variant"]
    if v == "wide_mean":
        return 0.0 if w > WIDTH else w
    return w


def configure(variant: str) -> None:
    from lakejoin_jupyter.join import fuzzy, match_precision as mp
    _STATE["variant"] = variant
    if variant == "base":
        return

    if variant == "last_step":
        return last_step(fuzzy)
    replay.patch_bound(lambda est, var, shared, n: est - width(
        mp.STANDARD_ERRORS * np.sqrt(var + shared ** 2) / n))


def last_step(fuzzy) -> None:
    """Patch ``fuzzy.greedy_union`` with the finer last step (``last_step``)."""
    src = inspect.getsource(fuzzy.greedy_union)
    old = "    if result is None:\n        return None\n"
    assert src.count(old) == 1
    src = src.replace(old, "    _LS_SELECTED[:] = list(selected)\n" + old)
    fuzzy._LS_SELECTED = []
    exec(compile(src, fuzzy.__file__, "exec"), fuzzy.__dict__)
    plain = fuzzy.greedy_union

    def greedy(cands, grids, target, patience=fuzzy.PATIENCE):
        out = plain(cands, grids, target, patience)
        if out is None:
            return None
        configs = list(out[0])
        sel = fuzzy._LS_SELECTED
        if len(sel) <= len(configs):
            return out
        f, t = sel[len(configs)]
        grid = np.asarray(grids[f], dtype=float)
        below = grid[grid < t]
        t0 = float(below.max()) if len(below) else -np.inf
        d = cands[f].r_dist
        steps = np.unique(d[np.isfinite(d) & (d > t0) & (d < t)])
        kept = None
        for s in steps:
            avg, lo, TP = fuzzy.union_rating(cands, configs + [(f, float(s))])
            if lo < target:
                break
            kept = (float(s), avg, TP)
        if kept is None:
            return out
        configs.append((f, kept[0]))
        chosen, chosen_fn = fuzzy.union_matches(cands, configs)
        return configs, chosen, kept[1], kept[2], chosen_fn

    fuzzy.greedy_union = greedy


def main(argv=None):
    replay.variant_run(__doc__, VARIANTS, argv, configure=configure)


if __name__ == "__main__":
    main()
