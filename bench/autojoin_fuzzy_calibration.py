"""Calibration of Auto-Join's constrained fuzzy step: the precision it estimates for the
matches it adds (join/match_precision.py) against the precision those matches achieve.

    python bench/autojoin_fuzzy_calibration.py path/to/autojoin-benchmark [--results OUT.md]

Per case (the benchmark of bench/autojoin_eval.py): Auto-Join with its fuzzy step; the
row pairs the fuzzy step adds are those it joins beyond the equality-only join; achieved
precision = the share of them in the ground truth. The estimate is the mean probability of
the added value matches (one per derived value); a value match can join several rows, so
the two are compared per case, and pooled by the added row pairs. The estimator was not
tuned on these cases (its parameters come from the fuzzy join's development split).
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from autojoin_eval import ground_truth_pairs, predicted_pairs, read_case  # noqa: E402

from lakejoin_jupyter.join.autojoin import autojoin  # noqa: E402


def run_case(folder: Path) -> dict:
    source, target, gt = read_case(folder)
    g, _ = ground_truth_pairs(source, target, gt)
    aj = autojoin(source, target, left_name="source", right_name="target", fuzzy=True)
    added = predicted_pairs(aj, source, target, fuzzy=True) - \
        predicted_pairs(aj, source, target, fuzzy=False)
    fz = aj.fuzzy if aj.found else None
    return {"case": folder.name, "value_matches": len(fz.matches) if fz else 0,
            "estimated": fz.estimated_precision if fz else None,
            "added_pairs": len(added), "correct": len(added & g)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", type=Path)
    ap.add_argument("--results", type=Path)
    a = ap.parse_args(argv)
    cases = sorted(p for p in a.path.iterdir() if (p / "ground_truth.csv").exists())
    rows = []
    for folder in cases:
        r = run_case(folder)
        rows.append(r)
        print(r, file=sys.stderr, flush=True)
    used = [r for r in rows if r["added_pairs"] and r["estimated"] is not None]
    lines = ["| case | value matches added | estimated precision | row pairs added | "
             "achieved precision | achieved - estimated |", "|---|---|---|---|---|---|"]
    for r in rows:
        ach = r["correct"] / r["added_pairs"] if r["added_pairs"] else None
        est = r["estimated"]
        lines.append(f"| {r['case']} | {r['value_matches']} | "
                     f"{'-' if est is None else f'{est:.3f}'} | {r['added_pairs']} | "
                     f"{'-' if ach is None else f'{ach:.3f}'} | "
                     f"{'-' if ach is None or est is None else f'{ach - est:+.3f}'} |")
    if used:
        n = sum(r["added_pairs"] for r in used)
        est_pool = sum(r["estimated"] * r["added_pairs"] for r in used) / n
        ach_pool = sum(r["correct"] for r in used) / n
        gaps = [r["correct"] / r["added_pairs"] - r["estimated"] for r in used]
        lines += ["", f"{len(used)} of {len(rows)} cases add fuzzy matches. Pooled over their "
                  f"{n} added row pairs: estimated {est_pool:.3f}, achieved {ach_pool:.3f}. "
                  f"Per case: mean achieved - estimated {sum(gaps) / len(gaps):+.3f}, mean "
                  f"absolute {sum(abs(x) for x in gaps) / len(gaps):.3f}."]
    text = "\n".join(lines)
    print(text)
    if a.results:
        cmd = "python bench/autojoin_fuzzy_calibration.py " + " ".join(
            argv if argv is not None else sys.argv[1:])
        a.results.write_text(
            "## Auto-Join's fuzzy step: estimated vs achieved precision of the added matches\n\n"
            f"Command: `{cmd}`\n\nMachine: {platform.platform()}, {os.cpu_count()} cores, "
            f"shared (load {os.getloadavg()[0]:.1f}).\n\n" + text + "\n")


if __name__ == "__main__":
    main()
