"""Auto-Join on the autojoin benchmark: precision, recall and F1 of the joined row pairs.

    python bench/autojoin_eval.py path/to/autojoin-benchmark [--json OUT] [--cases a,b]

Each case folder holds source.csv, target.csv and ground_truth.csv (the correct joined
rows: the source row's cells followed by the target row's cells). Auto-Join runs with no
hint (both directions, every column, as in thesis §4.7); its joined pairs (source row,
target row) are compared with the ground truth's. Rows are identified by their cells
(lower-cased, non-alphanumeric characters removed, so the few ground-truth rows whose
cells were retyped, e.g. "North Dakota" for "NorthDakota", still resolve; ground-truth rows
that match no row at all stay in G and count as misses).

Metrics as in §4.7.1: precision |G∩J|/|J|, recall |G∩J|/|G|, F1; a case with an empty
output is left out of the mean precision and counts 0 in the mean recall and F1. "AJ" is
Auto-Join with the constrained fuzzy join, "AJ-E" with equality only.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lakejoin_jupyter.join.autojoin import autojoin  # noqa: E402

_NON_ALNUM = re.compile(r"[\W_]+", re.UNICODE)


def norm_cell(v) -> str:
    if v is None or (isinstance(v, float) and v != v):
        return ""
    return _NON_ALNUM.sub("", str(v).lower())


def norm_row(cells) -> tuple:
    return tuple(norm_cell(v) for v in cells)


def read_case(folder: Path):
    def read(name):
        return pd.read_csv(folder / f"{name}.csv", dtype=str, keep_default_na=False,
                           na_values=[""], encoding="utf-8")
    return read("source"), read("target"), read("ground_truth")


def ground_truth_pairs(source: pd.DataFrame, target: pd.DataFrame, gt: pd.DataFrame):
    """G as a set of (normalized source row, normalized target row), and how many ground
    truth rows name a row that is not in the table."""
    ns = source.shape[1]
    if gt.shape[1] != ns + target.shape[1]:
        raise ValueError(f"ground truth has {gt.shape[1]} columns, expected "
                         f"{ns} + {target.shape[1]}")
    src_rows = {norm_row(r) for r in source.itertuples(index=False)}
    tgt_rows = {norm_row(r) for r in target.itertuples(index=False)}
    g, missing = set(), 0
    for r in gt.itertuples(index=False):
        s, t = norm_row(r[:ns]), norm_row(r[ns:])
        if s not in src_rows or t not in tgt_rows:
            missing += 1
        g.add((s, t))
    return g, missing


def score(pred: set, g: set) -> dict:
    hit = len(pred & g)
    p = hit / len(pred) if pred else None
    r = hit / len(g) if g else 0.0
    f = 2 * p * r / (p + r) if p and r else 0.0
    return {"precision": p, "recall": r, "f1": f, "joined": len(pred), "correct": hit}


def predicted_pairs(aj, source, target, fuzzy: bool) -> set:
    if not aj.found:
        return set()
    s_rows = [norm_row(r) for r in source.itertuples(index=False)]
    t_rows = [norm_row(r) for r in target.itertuples(index=False)]
    return {(s_rows[i], t_rows[j]) for i, j in aj.pairs(fuzzy=fuzzy)}


def run_case(folder: Path, **options) -> dict:
    source, target, gt = read_case(folder)
    g, missing = ground_truth_pairs(source, target, gt)
    t0, c0 = time.perf_counter(), time.process_time()
    aj = autojoin(source, target, left_name="source", right_name="target", **options)
    pairs_aj = predicted_pairs(aj, source, target, fuzzy=True)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    pairs_e = predicted_pairs(aj, source, target, fuzzy=False)
    out = {"case": folder.name, "rows": [len(source), len(target)], "gt_pairs": len(g),
           "gt_unresolved": missing, "seconds": seconds, "cpu_seconds": cpu,
           "found": aj.found,
           "AJ": score(pairs_aj, g), "AJ-E": score(pairs_e, g)}
    if aj.found:
        out.update({"direction": f"{aj.source_name} -> {aj.target_name}",
                    "program": aj.program.describe(), "target_column": aj.target_column,
                    "target_program": aj.target_program.describe() if aj.target_program else None,
                    "fuzzy": aj.fuzzy.describe() if aj.fuzzy else None,
                    "coverage": f"{aj.coverage}/{aj.target_keys}"})
    else:
        out["message"] = aj.message
    return out


def summarize(results: list, method: str) -> dict:
    ps = [r[method]["precision"] for r in results if r[method]["precision"] is not None]
    return {"precision": statistics.mean(ps) if ps else 0.0,
            "recall": statistics.mean(r[method]["recall"] for r in results),
            "f1": statistics.mean(r[method]["f1"] for r in results)}


def fmt(x):
    return "-" if x is None else f"{x:.3f}"


def markdown(results: list) -> str:
    lines = ["| case | rows (src/tgt) | G | AJ P | AJ R | AJ F1 | AJ-E F1 | time (s) | CPU (s) | program |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        prog = r.get("program") or "(none) " + r.get("message", "")[:80]
        if r.get("target_program"):
            prog += f"  =  {r['target_program']}"
        prog = prog.replace("|", "\\|")
        lines.append(f"| {r['case']} | {r['rows'][0]}/{r['rows'][1]} | {r['gt_pairs']} | "
                     f"{fmt(r['AJ']['precision'])} | {fmt(r['AJ']['recall'])} | "
                     f"{fmt(r['AJ']['f1'])} | {fmt(r['AJ-E']['f1'])} | {r['seconds']:.2f} | "
                     f"{r['cpu_seconds']:.2f} | "
                     f"{r.get('direction', '')}: `{prog}` |")
    aj, aje = summarize(results, "AJ"), summarize(results, "AJ-E")
    secs = [r["seconds"] for r in results]
    cpu = [r["cpu_seconds"] for r in results]
    lines += ["", "| method | mean precision | mean recall | mean F1 |", "|---|---|---|---|",
              f"| AJ (with constrained fuzzy join) | {aj['precision']:.4f} | {aj['recall']:.4f} | {aj['f1']:.4f} |",
              f"| AJ-E (equality only) | {aje['precision']:.4f} | {aje['recall']:.4f} | {aje['f1']:.4f} |",
              "", f"time per case: median {statistics.median(secs):.2f} s, mean "
              f"{statistics.mean(secs):.2f} s, max {max(secs):.2f} s; CPU time of this process: "
              f"median {statistics.median(cpu):.2f} s, mean {statistics.mean(cpu):.2f} s, max "
              f"{max(cpu):.2f} s ({len(results)} cases)"]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", type=Path, help="benchmark folder (one sub-folder per case)")
    ap.add_argument("--cases", help="comma-separated case names (default: all)")
    ap.add_argument("--json", type=Path, help="write per-case results here")
    ap.add_argument("--no-fuzzy", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if not args.path.is_dir():
        ap.error(f"{args.path} is not a folder")
    cases = sorted(p for p in args.path.iterdir() if (p / "ground_truth.csv").exists())
    if args.cases:
        want = set(args.cases.split(","))
        cases = [p for p in cases if p.name in want]
    results = []
    for folder in cases:
        r = run_case(folder, fuzzy=not args.no_fuzzy, seed=args.seed)
        results.append(r)
        print(f"{r['case']:28s} F1 {r['AJ']['f1']:.3f} (AJ-E {r['AJ-E']['f1']:.3f}) "
              f"{r['seconds']:.2f}s cpu {r['cpu_seconds']:.2f}s  "
              f"{r.get('program') or r.get('message', '')[:100]}",
              file=sys.stderr, flush=True)
    print(markdown(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
