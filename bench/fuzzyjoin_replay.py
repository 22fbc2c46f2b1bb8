"""Replay the fuzzy join's choice of configuration on saved blocking output, to compare
precision estimators and choice rules on the DEVELOPMENT split without re-running the
join functions (bench/fuzzyjoin_autofj.py fixes the split; results in
bench/results/fuzzyjoin_calibration.md).

    python bench/fuzzyjoin_replay.py dump --work /tmp/fj-bench --split dev
    python bench/fuzzyjoin_replay.py dump --work /tmp/fj-bench --split dev --suites fresh1,fresh2
    python bench/fuzzyjoin_replay.py replay --work /tmp/fj-bench --split dev
    python bench/fuzzyjoin_replay.py replay --work /tmp/fj-bench --set fuzzy.STANDARD_ERRORS=1.0
    python bench/fuzzyjoin_replay.py oracle --work /tmp/fj-bench --split dev

``dump`` runs every join function once per dataset and saves, per function, each right
value's nearest left values (what ``_Candidates`` is built from) with the row counts
needed to score any choice against the ground truth. ``replay`` rebuilds the candidates
with the current join/match_precision.py and join/fuzzy.py, chooses at each target with
``fuzzy._choose`` (the code ``fuzzy_join`` runs) and prints the calibration per dataset
and in total (``--set MODULE.NAME=VALUE``: with a parameter of join/<MODULE>.py
changed), the mean |P - target| beside its parts: undershoot, overshoot that cost recall
(a configuration reaching the target finds more true pairs: column ``cost<target>``, the
recall left, :func:`overshoot_cost`) and overshoot that cost none. ``oracle`` prints what a chooser that knows the truth reaches among single
configurations: on the join's threshold grid, at every distinct distance (the finest
configuration space of these functions), and at every distance preferring, among those
with the most true pairs, the one with the most joins (:func:`truth_chooser`). The replay reproduces ``fuzzyjoin_autofj.py``'s figures exactly (checked
by running both on the development split).

It is also the harness of the variant replays (bench/fuzzyjoin_agree.py, ..._caps.py,
..._rival_cap.py, ...), which import it (from their own folder) and keep only their
variant: ``variant_run`` (their command line), ``saved``, ``case_folders``,
``with_curves``, ``chooser`` and ``mean_lines``.
"""
from __future__ import annotations

import argparse
import inspect
import pickle
import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from fuzzyjoin_autofj import datasets, ensure_autofj_venv, dataset_root, load  # noqa: E402

RAW = ("r_left", "r_dist", "r_near", "r_ties", "r_sibling", "r_namesake")
AUTOFJ_VENV = str(Path.home() / ".cache/lakejoin/venv-autofj")


def case_folders(work: Path, venv, suites, split: str = "all") -> list:
    """(suite, name, split, folder) of the datasets of ``suites`` (``split``: "all" for
    every one): autofj's own, read from its environment at ``venv`` (created if missing),
    the others from WORK/cases."""
    root = dataset_root(ensure_autofj_venv(Path(venv)))
    return datasets(root, Path(work) / "cases", list(suites), split)


def saved(work: Path, split: str = "all", names=()):
    """The datasets ``dump`` saved in WORK/replay, in name order: those of ``split`` ("all":
    every one), and with ``names`` only those."""
    for f in sorted((Path(work) / "replay").glob("*.pkl")):
        d = pickle.load(open(f, "rb"))
        if (split != "all" and d["split"] != split) or (names and d["name"] not in names):
            continue
        yield d


def with_curves(d: dict, cands: dict):
    """(``cands``, their threshold curves on the dataset's grids), as ``fuzzy_join`` builds
    them: what ``build`` returns."""
    from lakejoin_jupyter.join import fuzzy
    n_r = len(next(iter(cands.values())).r_dist)
    return cands, {f: fuzzy.threshold_curve(c, d["grids"][f], n_r) for f, c in cands.items()}


def chooser(cands: dict, curves: dict, grids: dict, target: float):
    """The FuzzyJoin ``fuzzy._choose`` (the code ``fuzzy_join`` runs) makes at ``target``
    from saved candidates and their curves."""
    from lakejoin_jupyter.join import fuzzy
    n_r = len(next(iter(cands.values())).r_dist)
    common = dict(left=None, right=None, on=("title", "title"), _cands=cands,
                  _grids=grids, _curves=curves, _lkeys=None, _rkeys=np.arange(n_r),
                  _lrows=None, _rrows=None)
    return fuzzy._choose(common, list(cands), target)


# natural-variant sets run once blind and development since (fresh5 found no case; rl2
# stays validation: nothing is tuned on it)
DEVELOPMENT_SUITES = ("fresh1", "fresh2", "fresh3", "fresh4", "fresh6")


def dump_split(suite: str, split: str) -> str:
    """The split ``dump`` saves a dataset of ``suite`` under: "dev" for the
    DEVELOPMENT_SUITES (bench/fuzzyjoin_autofj.py lists them as validation, their split
    when each was run blind), else the dataset's own ``split``."""
    return "dev" if suite in DEVELOPMENT_SUITES else split


def dump(work: Path, split: str, venv: Path, names=(), suites=("autofj", "rl")):
    from lakejoin_jupyter.join import fuzzy
    fns = [f for f in fuzzy.JOIN_FUNCTIONS if f != "semantic"]
    out = work / "replay"
    out.mkdir(parents=True, exist_ok=True)
    for suite, name, sp, folder in case_folders(work, venv, suites):
        sp = dump_split(suite, sp)
        if (split != "all" and sp != split) or (names and name not in names):
            continue
        left, right, gt = load(folder)
        fj = fuzzy.fuzzy_join(left, right, on=("title", "title"), precision_target=0.9,
                              functions=fns)
        truth = set(zip(gt["id_l"].astype(int), gt["id_r"].astype(int)))
        ids_l, ids_r = left["id"].to_numpy(), right["id"].to_numpy()
        # per function and right value: row pairs the join to its nearest left value makes,
        # and how many of them are true
        n_rows = np.array([len(r) for r in fj._rrows])
        tp = {}
        for f, c in fj._cands.items():
            tp[f] = np.array([sum((int(ids_l[fj._lrows[l][0]]), int(ids_r[rp])) in truth
                                  for rp in fj._rrows[r]) if l >= 0 else 0
                              for r, l in enumerate(c.r_left.tolist())])
        raw = {f: {k: getattr(c, k) for k in RAW} for f, c in fj._cands.items()}
        pickle.dump({"suite": suite, "name": name, "split": sp, "raw": raw,
                     "grids": fj._grids, "n_rows": n_rows, "tp": tp, "n_truth": len(truth)},
                    open(out / f"{name}.pkl", "wb"))
        print(name, flush=True)


def build(d: dict, oracle: str = ""):
    """The candidates and their threshold curves, rebuilt from the saved blocking output
    with the current code (as ``fuzzy_join`` builds them). ``oracle`` (diagnostics, never
    a result): "pi0" puts each function's true pi0 (its share of right values whose
    nearest left value is not their partner) in place of the estimate; "outcome" each
    join's true outcome (the share of its rows joined right) in place of its probability,
    without error terms (the bound is then the mean)."""
    from lakejoin_jupyter.join import fuzzy, match_precision as mp
    cands = {}
    for f, r in d["raw"].items():
        if oracle == "pi0":                # known, so without pi0's error term
            s1, _ = mp.nearest_ratios(r["r_near"])
            true_pi0 = float(np.mean(d["tp"][f][np.isfinite(s1)] == 0))
            real = fuzzy.null_probability
            fuzzy.null_probability = lambda a, b: real(a, b, pi0=true_pi0)
            try:
                c = fuzzy._Candidates(f, **r)
            finally:
                fuzzy.null_probability = real
            c.u = np.zeros_like(c.p)
        else:                  # a variant's class (``replay(prepare=...)``) or the module's
            c = d.get("candidates", fuzzy._Candidates)(f, **r)
        cands[f] = c
    if fuzzy.AGREE_RATIO is not None:      # as fuzzy_join: the functions' agreement
        for f, p in fuzzy.agreed_probability(cands).items():
            cands[f].rate(p)
    for f, r in d["raw"].items():
        if oracle == "outcome":
            c = cands[f]
            c.p = np.where(r["r_left"] >= 0, d["tp"][f] / np.maximum(d["n_rows"], 1), 0.0)
            c.v, c.u = np.zeros_like(c.p), np.zeros_like(c.p)
            c._scale = None                # the outcome as it is: no hub cap over it
    return with_curves(d, cands)


def choose(d: dict, target: float, built=None):
    """The union chosen at ``target`` from the saved candidates with the current code:
    (left index per right value or -1, the joining function per right value, est. P)."""
    cands, curves = built or build(d)
    n_r = len(next(iter(cands.values())).r_dist)
    fj = chooser(cands, curves, d["grids"], target)
    if fj._union is None:
        return np.full(n_r, -1), np.full(n_r, ""), float("nan")
    return fj._union, fj._union_fn, fj.estimated_precision


def truth_choice(d: dict, target: float, fine: bool = False,
                 most_joins: bool = False) -> tuple[float, int, bool]:
    """What a chooser that knows each join's outcome picks among single configurations
    (function, threshold): the one with the most true pairs whose precision reaches
    ``target`` (ties: the fewest joins, or with ``most_joins`` the most, i.e. the
    precision nearest the target from above). Thresholds: the function's grid, or with
    ``fine`` every distinct distance (a join per right value added at a time, up to
    ties). Returns (its precision, its true row pairs, whether it reaches the target);
    no configuration reaching the target: the most precise one's (precision, true pairs,
    False)."""
    best, fallback = None, None
    for f, r in d["raw"].items():
        dist, tp, n = r["r_dist"], d["tp"][f], d["n_rows"]
        ok = np.isfinite(dist)
        x = np.unique(dist[ok]) if fine else np.asarray(d["grids"][f], dtype=float)
        for t in x:
            j = ok & (dist <= t + 1e-12)
            nj = int(n[j].sum())
            if not nj:
                continue
            T = int(tp[j].sum())
            P = T / nj
            if fallback is None or P > fallback[0]:
                fallback = (P, T)
            if P >= target - 1e-12:
                key = (T, nj if most_joins else -nj)
                if best is None or key > best[0]:
                    best = (key, P, T)
    if best:
        return best[1], best[2], True
    return (fallback[0], fallback[1], False) if fallback else (float("nan"), 0, False)


def truth_chooser(d: dict, target: float, fine: bool = False,
                  most_joins: bool = False) -> float:
    """The precision :func:`truth_choice` reaches."""
    return truth_choice(d, target, fine, most_joins)[0]


def overshoot_cost(p: float, tp: int, target: float, truth: tuple, n_truth: int) -> float:
    """The recall an overshoot cost: where the join's precision ``p`` lies above
    ``target`` and the truth-knowing chooser (``truth`` = :func:`truth_choice`) reaches the
    target with more true pairs than the join's ``tp``, the true pairs it would have found
    beyond the join's, over all true pairs; else 0 (an undershoot, or an overshoot no
    configuration reaching the target would have bought recall with)."""
    t_p, t_tp, reached = truth
    if not (p > target + 1e-12 and reached and t_tp > tp and n_truth):
        return 0.0
    return (t_tp - tp) / n_truth


def score(d: dict, union, fn_of) -> dict:
    r = np.nonzero(union >= 0)[0]
    n = int(d["n_rows"][r].sum())
    tp = int(sum(d["tp"][fn_of[i]][i] for i in r))
    p = tp / n if n else (1.0 if not d["n_truth"] else 0.0)
    rec = tp / d["n_truth"] if d["n_truth"] else 1.0
    return {"P": p, "R": rec, "F1": 2 * p * rec / (p + rec) if p + rec else 0.0, "TP": tp}


def replay(work: Path, split: str, targets, names=(), quiet=False,
           oracle: str = "", prepare=None) -> pd.DataFrame:
    """Replay the choice per dataset; ``prepare(d)``, if given, may set d["candidates"]
    (a class built like ``fuzzy._Candidates(fn, **raw)``) to replay a variant estimator."""
    rows = []
    for d in saved(work, split, names):
        if prepare is not None:
            prepare(d)
        row = {"suite": d["suite"], "dataset": d["name"], "right": len(d["n_rows"])}
        built = build(d, oracle)
        for t in targets:
            union, fn_of, est = choose(d, t, built)
            s = score(d, union, fn_of)
            truth = truth_choice(d, t)
            row.update({f"P{t:g}": s["P"], f"R{t:g}": s["R"], f"F1{t:g}": s["F1"],
                        f"est{t:g}": est, f"oracle{t:g}": truth[0],
                        f"cost{t:g}": overshoot_cost(s["P"], s["TP"], t, truth,
                                                     d["n_truth"])})
        rows.append(row)
        if not quiet:
            print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in row.items()), flush=True)
    return pd.DataFrame(rows)


def gap_parts(p, cost, target: float) -> dict:
    """The mean |P - target| over datasets split in three: the undershoot (P below the
    target), the overshoot that cost recall (P above it, and a configuration reaching the
    target would have found more true pairs: ``cost`` > 0) and the overshoot that cost
    none (no configuration reaching the target finds more); they sum to the mean |gap|.
    ``recall_left``: the mean recall the costly overshoots left."""
    gap = np.asarray(p, dtype=float) - target
    cost = np.asarray(cost, dtype=float)
    over = np.clip(gap, 0.0, None)
    return {"mae": float(np.abs(gap).mean()), "under": float(np.clip(-gap, 0.0, None).mean()),
            "over_cost": float((over * (cost > 0)).mean()),
            "over_free": float((over * (cost <= 0)).mean()),
            "n_cost": int((cost > 0).sum()), "recall_left": float(cost.mean())}


def summary(df: pd.DataFrame, targets) -> str:
    out = []
    for t in targets:
        gap = df[f"P{t:g}"] - t
        g = gap_parts(df[f"P{t:g}"], df[f"cost{t:g}"], t)
        out.append(f"target {t:g}: gap mean {gap.mean():+.3f} abs {gap.abs().mean():.3f} "
                   f"F1 {df[f'F1{t:g}'].mean():.3f} | abs = under {g['under']:.3f} + over "
                   f"that cost recall {g['over_cost']:.3f} ({g['n_cost']} datasets, recall "
                   f"left {g['recall_left']:.3f}) + over that cost none {g['over_free']:.3f}")
    return "\n".join(out)


def mean_lines(df: pd.DataFrame, targets) -> str:
    """Per target, the mean |P - target| and mean F1 to five places."""
    return "\n".join(f"target {t:g}: mean |P - target| {(df[f'P{t:g}'] - t).abs().mean():.5f} "
                     f"mean F1 {df[f'F1{t:g}'].mean():.5f}" for t in targets)


def numbers(text: str) -> list[float]:
    """``--targets 0.8,0.9,0.95`` -> [0.8, 0.9, 0.95]."""
    return [float(t) for t in text.split(",")]


def words(text: str) -> list[str]:
    """``--datasets a,b`` -> ["a", "b"] ("" -> [])."""
    return [n for n in text.split(",") if n]


def parse_setting(item: str):
    """``MODULE.NAME=VALUE`` (a parameter of join/<MODULE>.py) -> (module, name, value of
    the parameter's type; a bool from 1/true/yes or anything else)."""
    import importlib
    name, _, value = item.partition("=")
    mod, _, attr = name.rpartition(".")
    if not mod or not value:
        raise ValueError(f"--set {item!r}: expected MODULE.NAME=VALUE")
    module = importlib.import_module(f"lakejoin_jupyter.join.{mod}")
    if not hasattr(module, attr):
        raise ValueError(f"--set: {module.__name__} has no {attr}")
    old = getattr(module, attr)
    if isinstance(old, bool):
        return module, attr, value.lower() in ("1", "true", "yes")
    return module, attr, type(old)(value)


def apply_settings(ap, items) -> None:
    """Set each ``--set MODULE.NAME=VALUE`` of ``items`` (:func:`parse_setting`); a bad one
    ends the command with ``ap``'s usage error."""
    for item in items:
        try:
            mod, attr, value = parse_setting(item)
        except ValueError as e:
            ap.error(str(e))
        setattr(mod, attr, value)


def cached_measure(d: dict, state: dict, folder: str, measure):
    """``measure(d, the dataset's table folder)``, pickled once in WORK/``folder``/NAME.pkl
    (``state``: a variant script's work folder and dataset folders, see ``variant_run``)."""
    cache = Path(state["work"]) / folder / f"{d['name']}.pkl"
    if cache.exists():
        with open(cache, "rb") as f:
            return pickle.load(f)
    out = measure(d, state["folders"][d["name"]])
    cache.parent.mkdir(parents=True, exist_ok=True)
    with open(cache, "wb") as f:
        pickle.dump(out, f)
    return out


def patch_bound(rated) -> None:
    """Replace the join's lower bound by ``rated(estimate, variance sum, shared-error sum,
    joins)``, in the single configurations' curves (``_Candidates.bound``) and in the
    greedy union's check, as the bound-shaping variants do (fuzzyjoin_bound_width.py,
    fuzzyjoin_standard_error.py, fuzzyjoin_table_misfit.py, fuzzyjoin_decoy_check.py);
    the join's own is estimate - STANDARD_ERRORS * sqrt(variance sum + shared sum ** 2) /
    joins."""
    from lakejoin_jupyter.join import fuzzy

    def bound(self, t: float) -> float:
        _, p, v, u = self.at(t)
        if not len(p):
            return 1.0
        return rated(float(np.mean(p)), float(v.sum()), float(u.sum()), len(p))

    fuzzy._Candidates.bound = bound
    src = inspect.getsource(fuzzy.greedy_union)
    old = "if avg - STANDARD_ERRORS * se >= target:"
    assert src.count(old) == 1
    src = src.replace(old, "if _rated_bound(avg, float(var.sum()), float(share.sum()), nj) "
                           ">= target:")
    fuzzy._rated_bound = rated
    exec(compile(src, fuzzy.__file__, "exec"), fuzzy.__dict__)


def variant_run(doc: str, variants, argv=None, configure=None, prepare=None,
                state: dict | None = None, suites=None, subcommands=None):
    """The command line shared by the variant replays (bench/fuzzyjoin_agree.py,
    bench/fuzzyjoin_rival_cap.py, ...): parse --work --variant --split --targets --datasets
    --out --set, set ``state["variant"]`` (a script's state, if given), call
    ``configure(variant)``, replay (``prepare(d)`` per dataset, see ``replay``), write
    --out, print the summary. With ``suites`` (a script that reads the datasets' tables)
    also --autofj-venv, and ``state`` gets the work folder ("work") and the folders of the
    datasets of those suites by name ("folders"). Returns (the per-dataset frame, the
    targets). ``subcommands`` (a script's own measurements: name -> (function, options),
    options flag -> ``add_argument`` keywords): a command line that starts with one of the
    names runs ``function(parsed options)`` in place of a replay, and returns None."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if subcommands and argv and argv[0] in subcommands:
        run, options = subcommands[argv[0]]
        ap = argparse.ArgumentParser(prog=f"{Path(sys.argv[0]).name} {argv[0]}",
                                     description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
        for flag, keywords in options.items():
            ap.add_argument(flag, **keywords)
        run(ap.parse_args(argv[1:]))
        return None
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=f"or: {' | '.join(subcommands)} (each with --help)"
                                 if subcommands else None)
    ap.add_argument("--work", required=True)
    ap.add_argument("--variant", choices=list(variants), required=True)
    ap.add_argument("--split", default="dev")
    ap.add_argument("--targets", default="0.8,0.9,0.95")
    ap.add_argument("--datasets", default="", help="comma-separated names (default: all)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                    help="with a parameter of join/<MODULE>.py changed (repeatable)")
    if suites is not None:
        ap.add_argument("--autofj-venv", default=AUTOFJ_VENV)
    a = ap.parse_args(argv)
    apply_settings(ap, a.set)
    if state is not None:
        state["variant"] = a.variant
    if suites is not None:
        state["work"] = Path(a.work)
        state["folders"] = {n: f for _, n, _, f in case_folders(a.work, a.autofj_venv, suites)}
    if configure is not None:
        configure(a.variant)
    targets = numbers(a.targets)
    df = replay(Path(a.work), a.split, targets, words(a.datasets), quiet=True,
                prepare=prepare)
    if a.out:
        df.to_csv(a.out, index=False)
    print(summary(df, targets))
    return df, targets


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["dump", "replay", "oracle"])
    ap.add_argument("--work", required=True)
    ap.add_argument("--autofj-venv", default=AUTOFJ_VENV)
    ap.add_argument("--split", choices=["dev", "validation", "all"], default="dev")
    ap.add_argument("--datasets", default="")
    ap.add_argument("--suites", default="autofj,rl",
                    help="dump: comma-separated autofj, rl, fresh1, fresh2, fresh3, fresh4, "
                         "fresh6 (the fresh sets are saved as dev)")
    ap.add_argument("--targets", default="0.8,0.9,0.95")
    ap.add_argument("--out", default=None, help="per-dataset CSV (replay)")
    ap.add_argument("--oracle", choices=["", "pi0", "outcome"], default="",
                    help="diagnostic: the true pi0, or each join's true outcome (build())")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                    help="replay with a parameter of join/<MODULE>.py changed, e.g. "
                         "match_precision.PI0_PRIOR=0 (repeatable)")
    a = ap.parse_args(argv)
    apply_settings(ap, a.set)
    names = words(a.datasets)
    if a.what == "dump":
        dump(Path(a.work), a.split, Path(a.autofj_venv), names, words(a.suites))
        return
    targets = numbers(a.targets)
    if a.what == "oracle":
        rows = []
        for d in saved(Path(a.work), a.split, names):
            rows.append({"dataset": d["name"], **{
                f"{mode}{t:g}": truth_chooser(d, t, fine=mode != "grid",
                                              most_joins=mode == "most")
                for mode in ("grid", "fine", "most") for t in targets}})
        df = pd.DataFrame(rows)
        if a.out:
            df.to_csv(a.out, index=False)
        for mode, what in (("grid", "threshold grid"), ("fine", "every distance"),
                           ("most", "every distance, most joins among the most true pairs")):
            print(f"truth-knowing chooser, {what}: mean |P - target| " + " / ".join(
                f"{(df[f'{mode}{t:g}'] - t).abs().mean():.3f}" for t in targets))
        return
    df = replay(Path(a.work), a.split, targets, names, oracle=a.oracle)
    if a.out:
        df.to_csv(a.out, index=False)
    print(summary(df, targets))


if __name__ == "__main__":
    main()
