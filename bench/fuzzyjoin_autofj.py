"""Our precision-targeted fuzzy join (join/fuzzy.py) vs Auto-FuzzyJoin (autofj 0.0.6).

Both run on the 50 datasets autofj ships (``autofj.datasets.load_data``: a reference
table ``left``, a table ``right``, the ground truth ``gt`` of (id_l, id_r) pairs), at
precision target 0.9. Per dataset: precision, recall, F1 and wall time of each; then the
macro means and the median time ratio.

autofj 0.0.6 needs numpy<2 and pandas<2 (its blocker crashes with numpy 2), so this script
creates its own virtual environment for it (``--autofj-venv``, created on first use with
``pip install "numpy<2" "pandas<2" autofj==0.0.6``) and runs each autofj join in a
subprocess with its own working folder (autofj writes ./autofj_temp). The datasets are read
from that environment's autofj package, so both methods see exactly the same files.

    python bench/fuzzyjoin_autofj.py --work /tmp/fj-bench            # everything (~50 min)
    python bench/fuzzyjoin_autofj.py --work /tmp/fj-bench --datasets Country,Award
    python bench/fuzzyjoin_autofj.py --work /tmp/fj-bench --reuse-autofj   # rerun ours only

autofj's results (pairs and seconds) are stored under ``WORK/autofj/<dataset>.json``;
``--reuse-autofj`` reads them instead of running autofj again (the report then says so:
the time ratio is only meaningful when both ran under the same load).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

AUTOFJ_PINS = ["numpy<2", "pandas<2", "autofj==0.0.6"]

WORKER = r'''
import json, sys, time, os
import pandas as pd
from autofj import AutoFJ
from autofj.datasets import load_data
name, out, target = sys.argv[1], sys.argv[2], float(sys.argv[3])
left, right, gt = load_data(name)
t0 = time.perf_counter()
res = AutoFJ(precision_target=target, verbose=False).join(left, right, id_column="id")
secs = time.perf_counter() - t0
pairs = [[int(a), int(b)] for a, b in zip(res["id_l"], res["id_r"])] if len(res) else []
json.dump({"dataset": name, "seconds": secs, "pairs": pairs}, open(out, "w"))
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


def load(root: Path, name: str):
    d = root / name
    return (pd.read_csv(d / "left.csv"), pd.read_csv(d / "right.csv"),
            pd.read_csv(d / "gt.csv"))


def run_autofj(py: Path, work: Path, name: str, target: float, reuse: bool) -> dict:
    out = work / "autofj" / f"{name}.json"
    if reuse and out.exists():
        return json.loads(out.read_text())
    cwd = work / "autofj_runs" / name          # autofj writes ./autofj_temp here
    cwd.mkdir(parents=True, exist_ok=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    proc = subprocess.run([str(py), "-c", WORKER, name, str(out), str(target)], cwd=cwd,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return {"dataset": name, "seconds": time.perf_counter() - t0, "pairs": [],
                "error": proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed"}
    return json.loads(out.read_text())


def run_ours(left, right, target: float, embedder: str | None) -> dict:  # noqa: ARG001
    from lakejoin_jupyter.join.fuzzy import fuzzy_join
    t0 = time.perf_counter()
    fj = fuzzy_join(left, right, on=("title", "title"), precision_target=target,
                    embedder=embedder)
    pairs = fj.pairs()
    secs = time.perf_counter() - t0
    ids_l, ids_r = left["id"].to_numpy(), right["id"].to_numpy()
    return {"seconds": secs, "pairs": [[int(ids_l[a]), int(ids_r[b])] for a, b in pairs],
            "threshold": fj.threshold, "function": fj.function,
            "est_precision": fj.estimated_precision, "est_recall": fj.estimated_recall}


def score(pairs, gt) -> dict:
    truth = set(zip(gt["id_l"].astype(int), gt["id_r"].astype(int)))
    pred = {tuple(p) for p in pairs}
    tp = len(pred & truth)
    p = tp / len(pred) if pred else 1.0 if not truth else 0.0
    r = tp / len(truth) if truth else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": p, "recall": r, "f1": f, "n_pred": len(pred), "n_true": len(truth)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True, help="folder for results and autofj's runs")
    ap.add_argument("--autofj-venv", default=str(Path.home() / ".cache/lakejoin/venv-autofj"))
    ap.add_argument("--datasets", default="", help="comma-separated names (default: all 50)")
    ap.add_argument("--precision-target", type=float, default=0.9)
    ap.add_argument("--reuse-autofj", action="store_true",
                    help="use autofj results stored in WORK/autofj by an earlier run")
    ap.add_argument("--only", choices=["both", "autofj", "ours"], default="both",
                    help="run one side only ('ours' also shows autofj results stored in WORK)")
    ap.add_argument("--embedder", default=None, help="our embedder spec (default: ngram)")
    ap.add_argument("--out", default=None, help="write the per-dataset table as CSV here")
    a = ap.parse_args(argv)

    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    py = ensure_autofj_venv(Path(a.autofj_venv))
    root = dataset_root(py)
    names = [n for n in a.datasets.split(",") if n] or sorted(p.name for p in root.iterdir()
                                                             if (p / "gt.csv").exists())
    rows = []
    for name in names:
        left, right, gt = load(root, name)
        row = {"dataset": name, "left": len(left), "right": len(right)}
        if a.only in ("both", "ours"):
            o = run_ours(left, right, a.precision_target, a.embedder)
            s = score(o["pairs"], gt)
            row.update({f"ours_{k}": v for k, v in s.items() if k in ("precision", "recall", "f1")})
            row.update(ours_s=o["seconds"], ours_fn=o["function"], ours_tau=o["threshold"],
                       ours_est_p=o["est_precision"], ours_est_r=o["est_recall"])
        cached = work / "autofj" / f"{name}.json"
        if a.only in ("both", "autofj") or cached.exists():
            # --only ours still reports autofj results stored by an earlier run
            f = run_autofj(py, work, name, a.precision_target,
                           a.reuse_autofj or a.only == "ours")
            s = score(f["pairs"], gt)
            row.update({f"autofj_{k}": v for k, v in s.items() if k in ("precision", "recall", "f1")})
            row.update(autofj_s=f["seconds"], autofj_error=f.get("error", ""))
        rows.append(row)
        print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in row.items()), flush=True)
    df = pd.DataFrame(rows)
    if a.out:
        df.to_csv(a.out, index=False)
    print()
    print(summary(df, reused=a.reuse_autofj or a.only == "ours"))


def summary(df: pd.DataFrame, reused: bool = False) -> str:
    lines = [f"datasets: {len(df)}"]
    both = df.dropna(subset=[c for c in ("ours_f1", "autofj_f1") if c in df])
    if len(both) < len(df):
        lines.append(f"(autofj results exist for {len(both)} of {len(df)} datasets; "
                     f"the means below are over those {len(both)})")
        df = both
    for who in ("ours", "autofj"):
        if f"{who}_f1" not in df:
            continue
        lines.append(f"{who:6s}: mean precision {df[f'{who}_precision'].mean():.3f}, "
                     f"mean recall {df[f'{who}_recall'].mean():.3f}, "
                     f"mean F1 {df[f'{who}_f1'].mean():.3f}, "
                     f"precision >= 0.9 on {(df[f'{who}_precision'] >= 0.9).sum()}/{len(df)}, "
                     f"median {statistics.median(df[f'{who}_s']):.2f} s, "
                     f"total {df[f'{who}_s'].sum():.1f} s")
    if "ours_s" in df and "autofj_s" in df:
        lines.append(f"median time ratio autofj/ours: "
                     f"{statistics.median(df['autofj_s']) / statistics.median(df['ours_s']):.1f}x"
                     + (" (autofj times from an earlier run: --reuse-autofj)" if reused else ""))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
