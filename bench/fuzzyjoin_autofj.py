"""Our precision-targeted fuzzy join (join/fuzzy.py) vs Auto-FuzzyJoin (autofj 0.0.6):
precision, recall, F1 and calibration (target vs achieved precision) per dataset.

Suites, each split into development and validation before any tuning (fixed below):
* ``autofj``: the 50 datasets autofj ships (reference table ``left``, table ``right``, the
  truth of (id_l, id_r) pairs), read from autofj's package folder so both methods see the
  same files; split by a seeded permutation, written out in AUTOFJ_DEV / AUTOFJ_VALIDATION.
* ``rl``: single-column record linkage from clean real name lists with generated typos and
  variants (bench/fuzzyjoin_cases.py fixes each case's split).
* ``rl2``: a blind set of such cases from other lists and another noise model
  (bench/fuzzyjoin_rl2_cases.py), read from ``--rl2-cases``; all validation.
* ``fresh<N>``: blind sets of natural variants, the same entity named by different real
  sources (bench/fuzzyjoin_fresh_cases.py ``--set fresh<N>``), read from
  ``--fresh<N>-cases`` (``--fresh-cases`` for fresh1); all validation.
Only ``autofj`` and ``rl`` run by default (``--suites``).

autofj runs at ``--precision-target`` (0.9), ours at each of ``--targets``, re-choosing from
the same candidates (``FuzzyJoin.at_target``). autofj needs numpy<2 and pandas<2: it runs in
its own virtual environment (``--autofj-venv``, made on first use) in a subprocess with its
own working folder; its pairs and seconds are cached in WORK/autofj/<dataset>.json, which
``--reuse-autofj`` reads except for the datasets ``--time-autofj`` names (the time ratio is
taken over those only: same run, same load). The report's columns and the use of autofj's
recorded figures are described at the end of bench/results/fuzzyjoin_calibration.md.

    python bench/fuzzyjoin_cases.py --lake path/to/lakes --out /tmp/fj-bench/cases
    python bench/fuzzyjoin_autofj.py --work /tmp/fj-bench --only autofj      # fill the cache
    python bench/fuzzyjoin_autofj.py --work /tmp/fj-bench --split validation --targets 0.9 \\
        --reuse-autofj --time-autofj TennisTournament,Galaxy,NaturalEvent,BasketballTeam
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from fuzzyjoin_cases import CASES, write_cases  # noqa: E402
import fuzzyjoin_rl2_cases as rl2_cases  # noqa: E402

AUTOFJ_PINS = ["numpy<2", "pandas<2", "autofj==0.0.6"]

# np.random.default_rng(26).permutation over the 50 sorted names: first 25 -> dev
AUTOFJ_DEV = [
    "ArtificialSatellite", "ChristianBishop", "ClericalAdministrativeRegion", "Device", "Drug",
    "EthnicGroup", "FootballLeagueSeason", "FootballMatch", "GovernmentAgency", "Hospital",
    "Legislature", "Magazine", "NationalFootballLeagueSeason", "RugbyLeague", "ShoppingMall",
    "SoccerClubSeason", "SoccerLeague", "Song", "SportFacility", "SportsLeague",
    "TelevisionStation", "Tournament", "UnitOfWork", "Venue", "Wrestler"]
AUTOFJ_VALIDATION = [
    "Amphibian", "Artwork", "Award", "BasketballTeam", "Case", "Country", "Election", "Enzyme",
    "Galaxy", "GivenName", "HistoricBuilding", "MemberOfParliament", "Monarch",
    "MotorsportSeason", "Museum", "NCAATeamSeason", "NaturalEvent", "Noble", "PoliticalParty",
    "Race", "RailwayLine", "Reptile", "SoccerTournament", "Stadium", "TennisTournament"]

WORKER = r'''
import json, sys, time
import pandas as pd
from autofj import AutoFJ
folder, out, target = sys.argv[1], sys.argv[2], float(sys.argv[3])
left = pd.read_csv(folder + "/left.csv")
right = pd.read_csv(folder + "/right.csv")
t0 = time.perf_counter()
res = AutoFJ(precision_target=target, verbose=False).join(left, right, id_column="id")
secs = time.perf_counter() - t0
pairs = [[int(a), int(b)] for a, b in zip(res["id_l"], res["id_r"])] if len(res) else []
json.dump({"dataset": folder.rstrip("/").split("/")[-1], "seconds": secs, "pairs": pairs},
          open(out, "w"))
'''


def ensure_autofj_venv(venv: Path) -> Path:
    """The python of a venv holding autofj and its old numpy/pandas (created if missing)."""
    py = venv / "bin" / "python"
    ok = py.exists() and subprocess.run([str(py), "-c", "import autofj"],
                                        capture_output=True).returncode == 0
    if not ok:
        print(f"creating the autofj environment at {venv} ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", *AUTOFJ_PINS], check=True)
    return py


def dataset_root(py: Path) -> Path:
    out = subprocess.run([str(py), "-c", "import autofj, os; print(os.path.join("
                          "os.path.dirname(autofj.__file__), 'benchmark'))"],
                         capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


FRESH_CASES = HERE / "data" / "fuzzyjoin-fresh1"
FRESH2_CASES = HERE / "data" / "fuzzyjoin-fresh2"
FRESH3_CASES = HERE / "data" / "fuzzyjoin-fresh3"
FRESH4_CASES = HERE / "data" / "fuzzyjoin-fresh4"
FRESH6_CASES = HERE / "data" / "fuzzyjoin-fresh6"
FRESH7_CASES = HERE / "data" / "fuzzyjoin-fresh7"
FRESH8_CASES = HERE / "data" / "fuzzyjoin-fresh8"
FRESH9_CASES = HERE / "data" / "fuzzyjoin-fresh9"
FRESH10_CASES = HERE / "data" / "fuzzyjoin-fresh10"
FRESH11_CASES = HERE / "data" / "fuzzyjoin-fresh11"
FRESH12_CASES = HERE / "data" / "fuzzyjoin-fresh12"
FRESH13_CASES = HERE / "data" / "fuzzyjoin-fresh13"
FRESH14_CASES = HERE / "data" / "fuzzyjoin-fresh14"
FRESH15_CASES = HERE / "data" / "fuzzyjoin-fresh15"
FRESH16_CASES = HERE / "data" / "fuzzyjoin-fresh16"


def datasets(root: Path, cases: Path, suites, split: str,
             fresh: Path = FRESH_CASES,
             fresh2: Path = FRESH2_CASES,
             fresh3: Path = FRESH3_CASES,
             fresh4: Path = FRESH4_CASES,
             rl2: Path | None = None,
             fresh6: Path = FRESH6_CASES,
             fresh7: Path = FRESH7_CASES,
             fresh8: Path = FRESH8_CASES,
             fresh9: Path = FRESH9_CASES,
             fresh10: Path = FRESH10_CASES,
             fresh11: Path = FRESH11_CASES,
             fresh12: Path = FRESH12_CASES,
             fresh13: Path = FRESH13_CASES,
             fresh14: Path = FRESH14_CASES,
             fresh15: Path = FRESH15_CASES,
             fresh16: Path = FRESH16_CASES) -> list[tuple[str, str, str, Path]]:
    """(suite, name, split, folder) of every dataset selected."""
    out = []
    if "autofj" in suites:
        out += [("autofj", n, "dev", root / n) for n in AUTOFJ_DEV]
        out += [("autofj", n, "validation", root / n) for n in AUTOFJ_VALIDATION]
    if "rl" in suites:
        out += [("rl", n, CASES[n][0], cases / n) for n in CASES]
    if "rl2" in suites:
        if rl2 is None:
            raise ValueError("the rl2 suite needs its cases folder")
        out += [("rl2", n, rl2_cases.CASES[n][0], Path(rl2) / n) for n in rl2_cases.CASES]
    for suite, folder in (("fresh1", fresh), ("fresh2", fresh2), ("fresh3", fresh3),
                          ("fresh4", fresh4), ("fresh6", fresh6), ("fresh7", fresh7),
                          ("fresh8", fresh8), ("fresh9", fresh9), ("fresh10", fresh10),
                          ("fresh11", fresh11), ("fresh12", fresh12),
                          ("fresh13", fresh13), ("fresh14", fresh14),
                          ("fresh15", fresh15), ("fresh16", fresh16)):
        if suite in suites:
            out += [(suite, d.name, "validation", d) for d in sorted(Path(folder).iterdir())
                    if (d / "gt.csv").exists()]
    return [d for d in out if split == "all" or d[2] == split]


def load(folder: Path):
    return (pd.read_csv(folder / "left.csv"), pd.read_csv(folder / "right.csv"),
            pd.read_csv(folder / "gt.csv"))


def run_autofj(py: Path, work: Path, name: str, folder: Path, target: float,
               reuse: bool) -> dict:
    out = work / "autofj" / f"{name}.json"
    if reuse and out.exists():
        return {**json.loads(out.read_text()), "cached": True}
    cwd = work / "autofj_runs" / name          # autofj writes ./autofj_temp here
    cwd.mkdir(parents=True, exist_ok=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    proc = subprocess.run([str(py), "-c", WORKER, str(folder), str(out), str(target)],
                          cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"dataset": name, "seconds": time.perf_counter() - t0, "pairs": [],
                "error": proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed"}
    return {**json.loads(out.read_text()), "cached": False}


def run_ours(left, right, target: float, functions=None):
    """Ours at ``target`` (timed) and the FuzzyJoin, whose ``at_target`` re-chooses for
    the other targets from the same candidates."""
    from lakejoin_jupyter.join.fuzzy import fuzzy_join
    t0 = time.perf_counter()
    fj = fuzzy_join(left, right, on=("title", "title"), precision_target=target,
                    functions=functions)
    out = ours_result(fj, left, right)
    return {**out, "seconds": time.perf_counter() - t0}, fj


def ours_result(fj, left, right) -> dict:
    ids_l, ids_r = left["id"].to_numpy(), right["id"].to_numpy()
    return {"pairs": [[int(ids_l[a]), int(ids_r[b])] for a, b in fj.pairs()],
            "threshold": fj.threshold, "function": fj.function,
            "est_precision": fj.estimated_precision, "est_recall": fj.estimated_recall}


def oracle_precision(fj, left, right, gt, targets) -> dict:
    """What a chooser that knew the truth would reach at each target from the same
    candidates: among the single configurations (join function, grid threshold) ours
    considers, the one with the most true pairs whose precision reaches the target (if
    none does, the most precise). Where even the largest join is more precise than the
    target, this lies above it: no chooser of these configurations can get closer, which
    bounds how small the calibration gap can be on that dataset. Per target: (its
    precision, its true pairs, whether it reaches the target)."""
    truth = set(zip(gt["id_l"].astype(int), gt["id_r"].astype(int)))
    ids_l, ids_r = left["id"].to_numpy(), right["id"].to_numpy()
    n_rows = np.array([len(r) for r in fj._rrows])
    cfg = []
    for f, c in fj._cands.items():
        tp = np.array([sum((int(ids_l[fj._lrows[l][0]]), int(ids_r[rp])) in truth
                           for rp in fj._rrows[r]) if l >= 0 else 0
                       for r, l in enumerate(c.r_left.tolist())])
        for t in fj._grids[f]:
            j = c.r_dist <= t
            if n_rows[j].sum():
                cfg.append((tp[j].sum(), n_rows[j].sum()))
    if not cfg:
        return {t: (np.nan, 0, False) for t in targets}
    cfg = np.array(cfg, dtype=float)
    prec = cfg[:, 0] / cfg[:, 1]
    out = {}
    for t in targets:
        ok = prec >= t - 1e-12
        i = np.nonzero(ok)[0][np.argmax(cfg[ok, 0])] if ok.any() else int(np.argmax(prec))
        out[t] = (float(prec[i]), int(cfg[i, 0]), bool(ok.any()))
    return out


def overshoot_cost(s: dict, target: float, oracle: tuple) -> float:
    """The recall an overshoot cost (``s``: :func:`score` of ours): where ours lies above
    ``target`` and the truth-knowing chooser (``oracle``: :func:`oracle_precision`'s) reaches
    the target with more true pairs, the recall it would have added; else 0 (an
    undershoot, or an overshoot that no configuration reaching the target would have
    bought recall with)."""
    _, o_tp, reached = oracle
    tp = int(round(s["precision"] * s["n_pred"]))
    if not (s["precision"] > target + 1e-12 and reached and o_tp > tp and s["n_true"]):
        return 0.0
    return (o_tp - tp) / s["n_true"]


def score(pairs, gt) -> dict:
    """Precision, recall, F1 over (id_l, id_r) pairs; no pairs returned: precision 1 when
    nothing was to be found, else 0 (as the earlier runs of this benchmark)."""
    truth = set(zip(gt["id_l"].astype(int), gt["id_r"].astype(int)))
    pred = {tuple(p) for p in pairs}
    tp = len(pred & truth)
    p = tp / len(pred) if pred else 1.0 if not truth else 0.0
    r = tp / len(truth) if truth else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "n_pred": len(pred), "n_true": len(truth)}


def tkey(t: float) -> str:
    return f"{t:g}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True, help="folder for results, cases and autofj's runs")
    ap.add_argument("--autofj-venv", default=str(Path.home() / ".cache/lakejoin/venv-autofj"))
    ap.add_argument("--cases", default=None,
                    help="record-linkage cases folder (default WORK/cases; made with --lake)")
    ap.add_argument("--lake", default=None,
                    help="lakes folder to generate the record-linkage cases from if missing")
    ap.add_argument("--suites", default="autofj,rl",
                    help="comma-separated: autofj, rl, rl2, fresh1, fresh2, fresh3, fresh4, "
                         "fresh6, fresh7, fresh8, fresh9, fresh10, fresh11, fresh12, fresh13, "
                         "fresh14, fresh15, fresh16 "
                         "(default autofj,rl)")
    ap.add_argument("--rl2-cases", default=None,
                    help="folder of the rl2 cases (default WORK/rl2-cases; made with --lake)")
    ap.add_argument("--iso-codes", default=str(rl2_cases.ISO_CODES),
                    help="iso-codes' json folder, read when generating the rl2 cases")
    ap.add_argument("--fresh-cases", default=str(FRESH_CASES),
                    help="folder of the fresh1 cases (one folder per case)")
    ap.add_argument("--fresh2-cases", default=str(FRESH2_CASES),
                    help="folder of the fresh2 cases (one folder per case)")
    ap.add_argument("--fresh3-cases", default=str(FRESH3_CASES),
                    help="folder of the fresh3 cases (one folder per case)")
    ap.add_argument("--fresh4-cases", default=str(FRESH4_CASES),
                    help="folder of the fresh4 cases (one folder per case)")
    ap.add_argument("--fresh6-cases", default=str(FRESH6_CASES),
                    help="folder of the fresh6 cases (one folder per case)")
    ap.add_argument("--fresh7-cases", default=str(FRESH7_CASES),
                    help="folder of the fresh7 cases (one folder per case)")
    ap.add_argument("--fresh8-cases", default=str(FRESH8_CASES),
                    help="folder of the fresh8 cases (one folder per case)")
    ap.add_argument("--fresh9-cases", default=str(FRESH9_CASES),
                    help="folder of the fresh9 cases (one folder per case)")
    ap.add_argument("--fresh10-cases", default=str(FRESH10_CASES),
                    help="folder of the fresh10 cases (one folder per case)")
    ap.add_argument("--fresh11-cases", default=str(FRESH11_CASES),
                    help="folder of the fresh11 cases (one folder per case)")
    ap.add_argument("--fresh12-cases", default=str(FRESH12_CASES),
                    help="folder of the fresh12 cases (one folder per case)")
    ap.add_argument("--fresh13-cases", default=str(FRESH13_CASES),
                    help="folder of the fresh13 cases (one folder per case)")
    ap.add_argument("--fresh14-cases", default=str(FRESH14_CASES),
                    help="folder of the fresh14 cases (one folder per case)")
    ap.add_argument("--fresh15-cases", default=str(FRESH15_CASES),
                    help="folder of the fresh15 cases (one folder per case)")
    ap.add_argument("--fresh16-cases", default=str(FRESH16_CASES),
                    help="folder of the fresh16 cases (one folder per case)")
    ap.add_argument("--split", choices=["dev", "validation", "all"], default="all")
    ap.add_argument("--datasets", default="", help="comma-separated names (default: all)")
    ap.add_argument("--precision-target", type=float, default=0.9)
    ap.add_argument("--functions", default="ngram",
                    help="our join functions: 'ngram' (every n-gram function, the default: "
                         "the semantic model embeds tens of values per second, too slow for "
                         "50 datasets at three targets), 'default' (the library's choice, "
                         "semantic included on small columns) or comma-separated names")
    ap.add_argument("--targets", default="0.8,0.9,0.95",
                    help="our precision targets (calibration); must include --precision-target")
    ap.add_argument("--reuse-autofj", action="store_true",
                    help="use autofj results cached in WORK/autofj by an earlier run")
    ap.add_argument("--time-autofj", default="",
                    help="datasets autofj runs again even with --reuse-autofj (speed ratio)")
    ap.add_argument("--autofj-recorded", default=str(HERE / "results" / "autofj_recorded.csv"),
                    help="autofj's P/R/F1 from an earlier run, used for a dataset with no "
                         "cached pairs (marked 'recorded'; autofj is deterministic: the cached "
                         "runs reproduce these figures)")
    ap.add_argument("--only", choices=["both", "autofj", "ours"], default="both",
                    help="run one side only ('ours' still shows cached autofj results)")
    ap.add_argument("--out", default=None, help="write the per-dataset table as CSV here")
    ap.add_argument("--results", default=None, help="write the markdown report here")
    a = ap.parse_args(argv)

    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    cases = Path(a.cases) if a.cases else work / "cases"
    suites = [s for s in a.suites.split(",") if s]
    rl2 = Path(a.rl2_cases) if a.rl2_cases else work / "rl2-cases"
    if "rl2" in suites and not all((rl2 / n / "gt.csv").exists() for n in rl2_cases.CASES):
        if not a.lake:
            raise SystemExit(f"rl2 cases missing in {rl2}: pass --lake (the folder holding "
                             f"fivethirtyeight/) to generate them, or --rl2-cases")
        rl2_cases.write_cases(Path(a.lake), rl2, iso=Path(a.iso_codes))
    py = ensure_autofj_venv(Path(a.autofj_venv))
    root = dataset_root(py)
    if "rl" in suites and not all((cases / n / "gt.csv").exists() for n in CASES):
        if not a.lake:
            raise SystemExit(f"record-linkage cases missing in {cases}: pass --lake "
                             f"(the folder holding fivethirtyeight/) to generate them")
        write_cases(Path(a.lake), cases)
    targets = sorted({float(t) for t in a.targets.split(",") if t} | {a.precision_target})
    from lakejoin_jupyter.join.fuzzy import JOIN_FUNCTIONS
    functions = ([f for f in JOIN_FUNCTIONS if f != "semantic"] if a.functions == "ngram" else
                 None if a.functions == "default" else a.functions.split(","))
    chosen = [n for n in a.datasets.split(",") if n]
    timed = {n for n in a.time_autofj.split(",") if n}
    recorded = {}
    if a.autofj_recorded and Path(a.autofj_recorded).exists():
        rec = pd.read_csv(a.autofj_recorded, comment="#")
        recorded = {r["dataset"]: r for r in rec.to_dict("records")}
    rows = []
    for suite, name, split, folder in datasets(root, cases, suites, a.split,
                                               Path(a.fresh_cases), Path(a.fresh2_cases),
                                               Path(a.fresh3_cases),
                                               Path(a.fresh4_cases), rl2,
                                               fresh6=Path(a.fresh6_cases),
                                               fresh7=Path(a.fresh7_cases),
                                               fresh8=Path(a.fresh8_cases),
                                               fresh9=Path(a.fresh9_cases),
                                               fresh10=Path(a.fresh10_cases),
                                               fresh11=Path(a.fresh11_cases),
                                               fresh12=Path(a.fresh12_cases),
                                               fresh13=Path(a.fresh13_cases),
                                               fresh14=Path(a.fresh14_cases),
                                               fresh15=Path(a.fresh15_cases),
                                               fresh16=Path(a.fresh16_cases)):
        if chosen and name not in chosen:
            continue
        left, right, gt = load(folder)
        row = {"suite": suite, "dataset": name, "split": split, "left": len(left),
               "right": len(right), "pairs": len(gt)}
        if a.only in ("both", "ours"):
            main, fj = run_ours(left, right, a.precision_target, functions)
            oracle = oracle_precision(fj, left, right, gt, targets)
            for t in targets:
                o = main if t == a.precision_target else ours_result(fj.at_target(t), left, right)
                s = score(o["pairs"], gt)
                k = tkey(t)
                row.update({f"ours{k}_{m}": s[m] for m in ("precision", "recall", "f1")})
                row[f"ours{k}_est_p"] = o["est_precision"]
                row[f"oracle{k}_precision"] = oracle[t][0]
                row[f"ours{k}_cost"] = overshoot_cost(s, t, oracle[t])
                if t == a.precision_target:
                    row.update(ours_s=main["seconds"], ours_fn=o["function"],
                               ours_tau=o["threshold"])
        cached = work / "autofj" / f"{name}.json"
        reuse = (a.reuse_autofj or a.only == "ours") and name not in timed
        # autofj runs here when asked to and not reusing, or timed; otherwise its cached
        # pairs, else its recorded figures, else none (it takes 15-100 minutes on a
        # 5,000 x 2,000 case on a loaded machine)
        if (a.only in ("both", "autofj") and not reuse) or cached.exists():
            f = run_autofj(py, work, name, folder, a.precision_target, reuse)
            s = score(f["pairs"], gt)
            row.update({f"autofj_{m}": s[m] for m in ("precision", "recall", "f1")})
            row.update(autofj_s=f["seconds"], autofj_cached=f.get("cached", True),
                       autofj_source="cached" if f.get("cached", True) else "this run",
                       autofj_error=f.get("error", ""))
        elif name in recorded and a.precision_target == 0.9:
            rec = recorded[name]
            row.update({f"autofj_{m}": rec[m] for m in ("precision", "recall", "f1")})
            row.update(autofj_s=rec["seconds"], autofj_cached=True, autofj_source="recorded",
                       autofj_error="")
        rows.append(row)
        print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in row.items()), flush=True)
    df = pd.DataFrame(rows)
    if a.out:
        df.to_csv(a.out, index=False)
    text = report(df, targets, a.precision_target)
    print()
    print(text)
    if a.results:
        cmd = "python bench/fuzzyjoin_autofj.py " + " ".join(
            x for x in (argv if argv is not None else sys.argv[1:]))
        Path(a.results).write_text(header(cmd) + text + "\n")


def header(cmd: str) -> str:
    return (f"## Fuzzy join at a precision target vs Auto-FuzzyJoin (autofj 0.0.6)\n\n"
            f"Command: `{cmd}`\n\nMachine: {platform.platform()}, "
            f"{__import__('os').cpu_count()} cores, shared with other jobs (load "
            f"{' / '.join(f'{x:.1f}' for x in __import__('os').getloadavg())} at the end).\n\n")


def _fmt(x, nd=3):
    return "" if x is None or (isinstance(x, float) and np.isnan(x)) else \
        f"{x:.{nd}f}" if isinstance(x, float) else str(x)


def summary_rows(df: pd.DataFrame, targets, main_t: float) -> pd.DataFrame:
    """One row per (suite, split) group: means of P/R/F1 at main_t for both, calibration
    (mean achieved - target, mean |achieved - target|) of ours at each target and of autofj
    at main_t."""
    out = []
    groups = [((s, sp), g) for (s, sp), g in df.groupby(["suite", "split"], sort=False)]
    for sp, g in df.groupby("split", sort=False):
        groups.append((("all", sp), g))
    for (suite, split), g in groups:
        r = {"suite": suite, "split": split, "n": len(g)}
        k = tkey(main_t)
        both = g[g["autofj_f1"].notna()] if "autofj_f1" in g else g.iloc[:0]
        r["n_autofj"] = len(both)
        for who, pre in (("ours", f"ours{k}"), ("autofj", "autofj")):
            if f"{pre}_f1" not in g:
                continue
            for m in ("precision", "recall", "f1"):
                r[f"{who}_{m}"] = g[f"{pre}_{m}"].mean()
            r[f"{who}_bias"] = (g[f"{pre}_precision"] - main_t).mean()
            r[f"{who}_mae"] = (g[f"{pre}_precision"] - main_t).abs().mean()
            r[f"{who}_f1_paired"] = both[f"{pre}_f1"].mean() if len(both) else np.nan
        for t in targets:
            c = f"ours{tkey(t)}_precision"
            if c in g:
                r[f"ours@{tkey(t)}_p"] = g[c].mean()
                r[f"ours@{tkey(t)}_bias"] = (g[c] - t).mean()
                r[f"ours@{tkey(t)}_mae"] = (g[c] - t).abs().mean()
                r[f"ours@{tkey(t)}_f1"] = g[f"ours{tkey(t)}_f1"].mean()
            c = f"oracle{tkey(t)}_precision"
            if c in g:
                r[f"ours@{tkey(t)}_oracle"] = (g[c] - t).abs().mean()
            c = f"ours{tkey(t)}_cost"
            if c in g:
                gap = g[f"ours{tkey(t)}_precision"] - t
                over = gap.clip(lower=0.0)
                r[f"ours@{tkey(t)}_under"] = (-gap).clip(lower=0.0).mean()
                r[f"ours@{tkey(t)}_overcost"] = (over * (g[c] > 0)).mean()
                r[f"ours@{tkey(t)}_overfree"] = (over * (g[c] <= 0)).mean()
                r[f"ours@{tkey(t)}_ncost"] = int((g[c] > 0).sum())
                r[f"ours@{tkey(t)}_left"] = g[c].mean()
        out.append(r)
    return pd.DataFrame(out)


def report(df: pd.DataFrame, targets, main_t: float) -> str:
    k = tkey(main_t)
    s = summary_rows(df, targets, main_t)
    lines = [f"### Summary at precision target {main_t:g} (validation is the headline)", "",
             "Calibration: *bias* = mean over datasets of (achieved precision - target), "
             "*MAE* = mean |achieved precision - target|.", "",
             "autofj's columns are over the datasets it has figures for (*with autofj*); "
             "the last column compares both on exactly those datasets.", "",
             "| suite | split | datasets | ours P | ours R | ours F1 | ours bias | ours MAE | "
             "with autofj | autofj P | autofj R | autofj F1 | autofj bias | autofj MAE | "
             "F1 ours - autofj (paired) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in s.iterrows():
        d = r.get("ours_f1_paired", np.nan) - r.get("autofj_f1_paired", np.nan)
        lines.append("| " + " | ".join([r["suite"], r["split"], str(r["n"])] + [
            _fmt(int(r[c]) if c == "n_autofj" else r.get(c))
            for c in ("ours_precision", "ours_recall", "ours_f1", "ours_bias",
                                     "ours_mae", "n_autofj", "autofj_precision", "autofj_recall",
                                     "autofj_f1", "autofj_bias", "autofj_mae")]
            + [_fmt(d)]) + " |")
    lines += ["", "### Calibration of ours at each target", "",
              "*oracle MAE*: the mean |achieved - target| of a chooser that knows the truth "
              "and picks, among the same single configurations, the one with the most true "
              "pairs at the target (where even the largest join is more precise than the "
              "target, no chooser gets closer).", "",
              "| suite | split | " + " | ".join(
                  f"target {tkey(t)}: P / bias / MAE / F1 / oracle MAE" for t in targets) + " |",
              "|---|---|" + "---|" * len(targets)]
    for _, r in s.iterrows():
        lines.append(f"| {r['suite']} | {r['split']} | " + " | ".join(
            " / ".join(_fmt(r.get(f"ours@{tkey(t)}_{m}"))
                       for m in ("p", "bias", "mae", "f1", "oracle"))
            for t in targets) + " |")
    if any(f"ours@{tkey(t)}_under" in s for t in targets):
        lines += ["", "### Where the gap lies: undershoot, and overshoot with and without a "
                  "cost in recall", "",
                  "The mean |achieved - target| (MAE) is the sum of three parts: *under* "
                  "(achieved below the target), *over, cost recall* (above it, while a "
                  "configuration reaching the target finds more true pairs: the truth-knowing "
                  "chooser of *oracle MAE*), *over, no cost* (above it, and no configuration "
                  "reaching the target finds more true pairs). *datasets* counts the costly "
                  "overshoots, *recall left* is their mean lost recall over all datasets.", "",
                  "| suite | split | " + " | ".join(
                      f"target {tkey(t)}: MAE = under + over, cost recall + over, no cost "
                      f"/ datasets / recall left" for t in targets) + " |",
                  "|---|---|" + "---|" * len(targets)]
        for _, r in s.iterrows():
            lines.append(f"| {r['suite']} | {r['split']} | " + " | ".join(
                f"{_fmt(r.get(f'ours@{tkey(t)}_mae'))} = {_fmt(r.get(f'ours@{tkey(t)}_under'))}"
                f" + {_fmt(r.get(f'ours@{tkey(t)}_overcost'))} + "
                f"{_fmt(r.get(f'ours@{tkey(t)}_overfree'))} / "
                f"{_fmt(int(r.get(f'ours@{tkey(t)}_ncost')))} / "
                f"{_fmt(r.get(f'ours@{tkey(t)}_left'))}" for t in targets) + " |")
    if "autofj_s" in df and "ours_s" in df:
        fresh = df[~df["autofj_cached"].astype(bool)] if "autofj_cached" in df else df
        lines += [""]
        if len(fresh):
            ratio = fresh["autofj_s"] / fresh["ours_s"]
            lines.append(f"Speed, same run (autofj ran again on {len(fresh)} datasets: "
                         f"{', '.join(fresh['dataset'])}): autofj {fresh['autofj_s'].sum():.1f} s, "
                         f"ours {fresh['ours_s'].sum():.1f} s; total ratio "
                         f"**{fresh['autofj_s'].sum() / fresh['ours_s'].sum():.1f}x**, median "
                         f"per-dataset ratio {statistics.median(ratio):.1f}x.")
        lines.append(f"All datasets (autofj seconds partly from the cache, other load): "
                     f"median autofj {df['autofj_s'].median():.1f} s, ours "
                     f"{df['ours_s'].median():.2f} s.")
    cols = ["dataset", "split", "left", "right", f"ours{k}_precision", f"ours{k}_recall",
            f"ours{k}_f1", f"ours{k}_est_p", "ours_s", "ours_fn", "autofj_precision",
            "autofj_recall", "autofj_f1", "autofj_s", "autofj_source"] + \
        [f"ours{tkey(t)}_precision" for t in targets if t != main_t] + \
        [f"oracle{k}_precision"] + [f"ours{tkey(t)}_cost" for t in targets]
    names = ["dataset", "split", "left", "right", "P", "R", "F1", "est. P", "s", "main function",
             "autofj P", "autofj R", "autofj F1", "autofj s", "autofj from"] + \
        [f"P at {tkey(t)}" for t in targets if t != main_t] + [f"oracle P at {main_t:g}"] + \
        [f"recall the overshoot left at {tkey(t)}" for t in targets]
    for suite, g in df.groupby("suite", sort=False):
        lines += ["", f"### Per dataset: {suite} (ours at target {main_t:g}; autofj at {main_t:g})",
                  "", "| " + " | ".join(names) + " |", "|" + "---|" * len(names)]
        for _, r in g.iterrows():
            lines.append("| " + " | ".join(_fmt(r.get(c), 2 if c.endswith("_s") else 3)
                                           for c in cols) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
