"""Calibration of Auto-Join's constrained fuzzy step: the precision it estimates for the
matches it adds (join/match_precision.py) against the precision those matches achieve.

    python bench/autojoin_fuzzy_calibration.py FOLDER... [--cases a,b] [--nulls] [--results OUT.md]

Per case (the benchmark of bench/autojoin_eval.py): Auto-Join with its fuzzy step; the
row pairs the fuzzy step adds are those it joins beyond the equality-only join; achieved
precision = the share of them in the ground truth. The estimate is the mean probability of
the added value matches (one per derived value); a value match can join several rows, so
the two are compared per case, and pooled by the added row pairs. The estimator was not
tuned on these cases (its parameters come from the fuzzy join's development split).
``--nulls``: the same matches' mean probability under three nulls (match_precision.py) beside
it: every derived value's ratios (before deviation 74), their rank-corrected form, and the
step's own (values with no equal key against the equal ones' decoys, deviation 74).
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from autojoin_eval import ground_truth_pairs, predicted_pairs, read_case  # noqa: E402

from lakejoin_jupyter.join import match_precision as mp  # noqa: E402
from lakejoin_jupyter.join.autojoin import autojoin  # noqa: E402
from lakejoin_jupyter.join.autojoin import fuzzy as fz_mod  # noqa: E402

NULLS = ("every value", "rank-corrected", "own")
_LAST: list = []       # the last scoring call's arguments (the chosen configuration's)
_score = fz_mod.match_probabilities


def _recording(derived, keys, tokenizer, kind, cache=None):
    _LAST[:] = [derived, keys, tokenizer, kind]
    return _score(derived, keys, tokenizer, kind, cache)


def null_means(matches) -> dict:
    """The mean probability of ``matches`` (derived value -> key) under each of NULLS."""
    derived, keys, tokenizer, kind = _LAST
    near, _, ties = fz_mod.nearest_keys(derived, keys, tokenizer, kind)
    s1, s2 = mp.nearest_ratios(near)
    cap = 1.0 / np.maximum(ties, 1)
    at = {v: i for i, v in enumerate(derived)}
    idx = [at[v] for v in matches if v in at]

    def prob(null):
        return np.minimum(np.where(np.isfinite(null), 1.0 - np.nan_to_num(null), 0.0), cap)
    every = prob(mp.null_probability(s1, s2)[0])
    ranked = prob(mp.rank_corrected_null(s1, s2)[0])
    own = fz_mod.match_probabilities(derived, keys, tokenizer, kind)
    return {n: float(np.mean(p[idx])) for n, p in zip(NULLS, (every, ranked, own))}


def run_case(folder: Path, nulls: bool = False) -> dict:
    source, target, gt = read_case(folder)
    g, _ = ground_truth_pairs(source, target, gt)
    _LAST.clear()
    aj = autojoin(source, target, left_name="source", right_name="target", fuzzy=True)
    added = predicted_pairs(aj, source, target, fuzzy=True) - \
        predicted_pairs(aj, source, target, fuzzy=False)
    fz = aj.fuzzy if aj.found else None
    out = {"case": folder.name, "value_matches": len(fz.matches) if fz else 0,
           "estimated": fz.estimated_precision if fz else None,
           "added_pairs": len(added), "correct": len(added & g)}
    if nulls and fz is not None and fz.matches and _LAST:
        out["nulls"] = null_means(fz.matches)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", type=Path, nargs="+")
    ap.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    ap.add_argument("--nulls", action="store_true")
    ap.add_argument("--results", type=Path)
    a = ap.parse_args(argv)
    wanted = {c for c in a.cases.split(",") if c}
    cases = [p for root in a.path for p in sorted(root.iterdir())
             if (p / "ground_truth.csv").exists() and (not wanted or p.name in wanted)]
    if a.nulls:
        fz_mod.match_probabilities = _recording
    rows = []
    for folder in cases:
        r = run_case(folder, a.nulls)
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
    by_null = [r for r in used if "nulls" in r]
    if by_null:
        n = sum(r["added_pairs"] for r in by_null)
        lines += ["", f"Under each null ({len(by_null)} cases, {n} added row pairs; "
                  f"achieved {sum(r['correct'] for r in by_null) / n:.3f} pooled):", "",
                  "| null | estimated, pooled | per case: mean estimated - achieved | "
                  "mean absolute |", "|---|---|---|---|"]
        for name in NULLS:
            gaps = [r["nulls"][name] - r["correct"] / r["added_pairs"] for r in by_null]
            pooled = sum(r["nulls"][name] * r["added_pairs"] for r in by_null) / n
            lines.append(f"| {name} | {pooled:.3f} | {sum(gaps) / len(gaps):+.3f} | "
                         f"{sum(abs(x) for x in gaps) / len(gaps):.3f} |")
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
