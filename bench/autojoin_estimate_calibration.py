"""Calibration of Auto-Join's estimated precision by basis, from bench/autojoin_eval.py's JSON.

    python bench/autojoin_estimate_calibration.py RUN.json [--before MAIN.json] [--over 0.2]

Per returned program: the estimate (``estimated_precision``, its ``precision_basis``:
evidence / chance / pairs; a partial program counted apart) against the equi-join's measured
precision (AJ-E P); per case where the fuzzy step adds row pairs (AJ's less AJ-E's): its
estimate (``fuzzy_estimated_precision``, else the percent in ``fuzzy``) against the share of
those pairs in the ground truth, per case and pooled over the pairs. Prints one table (with
``--before``, before -> after per row) and the worst cases; ``--over T``: per basis, every
program estimated more than T above its measured precision (in either run), and with
``--before`` every program whose estimate moved.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
from pathlib import Path


def basis_rows(results: list) -> dict:
    """basis -> [(case, estimate, measured)] for every program with both."""
    out: dict = {}
    for r in results:
        est, meas = r.get("estimated_precision"), r.get("AJ-E", {}).get("precision")
        if not r.get("found") or est is None or meas is None:
            continue
        basis = r.get("precision_basis") or "evidence"
        key = f"partial ({basis})" if r.get("partial") else basis
        for k in (key, "all"):
            out.setdefault(k, []).append((r["case"], est, meas))
    return out


def fuzzy_rows(results: list) -> list:
    """[(case, estimate, added pairs, right pairs)] where the fuzzy step adds row pairs."""
    out = []
    for r in results:
        added = r["AJ"]["joined"] - r["AJ-E"]["joined"]
        if not r.get("found") or added <= 0:
            continue
        est = r.get("fuzzy_estimated_precision")
        if est is None and r.get("fuzzy"):
            m = re.search(r"estimated precision (\d+)%", r["fuzzy"])
            est = int(m.group(1)) / 100 if m else None
        if est is not None:
            out.append((r["case"], est, added, r["AJ"]["correct"] - r["AJ-E"]["correct"]))
    return out


def stats(rows: list) -> dict:
    err = [e - m for _, e, m in rows]
    return {"n": len(rows), "est": statistics.mean(e for _, e, _ in rows),
            "meas": statistics.mean(m for _, _, m in rows), "signed": statistics.mean(err),
            "abs": statistics.mean(abs(x) for x in err), "off": sum(abs(x) > 0.1 for x in err)}


def fuzzy_stats(rows: list) -> dict:
    per = [(c, e, k / n) for c, e, n, k in rows]
    s = stats(per)
    n = sum(r[2] for r in rows)
    s.update(pairs=n, pooled_est=sum(e * a for _, e, a, _ in rows) / n,
             pooled_meas=sum(k for *_, k in rows) / n)
    return s


def load(path: Path) -> list:
    results = json.loads(path.read_text())
    if not isinstance(results, list):
        raise ValueError(f"{path}: expected the list bench/autojoin_eval.py --json writes")
    return results


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--before", type=Path)
    ap.add_argument("--over", type=float, help="list the programs over-estimated by more")
    a = ap.parse_args(argv)
    after = load(a.run)
    before = load(a.before) if a.before else None

    def cell(b, x, key, fmt):
        return fmt.format(x[key]) if b is None else f"{fmt.format(b[key])} -> {fmt.format(x[key])}"
    print("| basis | n | mean estimate | mean measured | mean signed error | mean abs. error "
          "| off by > 0.1 |\n|---|---|---|---|---|---|---|")
    now, then = basis_rows(after), basis_rows(before) if before else {}
    for k in sorted(now, key=lambda k: (k == "all", -len(now[k]))):
        x, b = stats(now[k]), (stats(then[k]) if k in then else None)
        print(f"| {k} | {x['n']} | {cell(b, x, 'est', '{:.4f}')} | {cell(b, x, 'meas', '{:.4f}')} "
              f"| {cell(b, x, 'signed', '{:+.4f}')} | {cell(b, x, 'abs', '{:.4f}')} "
              f"| {cell(b, x, 'off', '{}')} |")
    fz = fuzzy_rows(after)
    if fz:
        x = fuzzy_stats(fz)
        b = fuzzy_stats(fuzzy_rows(before)) if before and fuzzy_rows(before) else None
        print(f"| fuzzy step, per case | {x['n']} | {cell(b, x, 'est', '{:.3f}')} | "
              f"{cell(b, x, 'meas', '{:.3f}')} | {cell(b, x, 'signed', '{:+.3f}')} | "
              f"{cell(b, x, 'abs', '{:.3f}')} | {cell(b, x, 'off', '{}')} |")
        print(f"| fuzzy step, pooled over {x['pairs']} added pairs | | "
              f"{cell(b, x, 'pooled_est', '{:.3f}')} | {cell(b, x, 'pooled_meas', '{:.3f}')} "
              f"| | | |")
    print()
    for k, rows in sorted(now.items()):
        if k == "all":
            continue
        worst = sorted(rows, key=lambda r: -abs(r[1] - r[2]))[:6]
        print(f"worst, {k}: " + "; ".join(f"{c} {e:.3f} / {m:.3f}" for c, e, m in worst
                                          if abs(e - m) > 0.01))
    if fz:
        worst = sorted(fz, key=lambda r: -abs(r[1] - r[3] / r[2]))[:6]
        print("worst, fuzzy step: " + "; ".join(f"{c} {e:.3f} / {k}/{n}" for c, e, n, k in worst
                                              if abs(e - k / n) > 0.01))
    if a.over is not None:
        print("\n" + over_table(after, before, a.over))


def over_table(after: list, before: list | None, over: float) -> str:
    """Markdown: per basis (the run's), the programs over-estimated by more than ``over`` in
    either run, and (with ``before``) those whose estimate or measured precision moved."""
    old = {r["case"]: r for r in before or []}

    def row(r):
        est, meas = r.get("estimated_precision"), r.get("AJ-E", {}).get("precision")
        basis = r.get("precision_basis") or "evidence"
        return (f"partial ({basis})" if r.get("partial") else basis), est, meas
    lines = ["| basis | case | estimate | measured | estimate - measured |", "|---|---|---|---|---|"]
    for r in sorted(after, key=lambda r: (row(r)[0], r["case"])):
        basis, est, meas = row(r)
        if not r.get("found") or est is None or meas is None:
            continue
        b = old.get(r["case"])
        b_est, b_meas = (row(b)[1], row(b)[2]) if b and b.get("found") else (None, None)
        high = est - meas > over or (b_est is not None and b_meas is not None
                                     and b_est - b_meas > over)
        moved = b is not None and (b_est is None or b_meas is None
                                   or abs(b_est - est) > 1e-9 or abs(b_meas - meas) > 1e-9)
        if not (high or moved):
            continue
        if b is None:
            lines.append(f"| {basis} | {r['case']} | {est:.3f} | {meas:.3f} | {est - meas:+.3f} |")
        else:
            f = (lambda x: "-" if x is None else f"{x:.3f}")
            g = "-" if b_est is None or b_meas is None else f"{b_est - b_meas:+.3f}"
            lines.append(f"| {basis} | {r['case']} | {f(b_est)} -> {est:.3f} | {f(b_meas)} -> "
                         f"{meas:.3f} | {g} -> {est - meas:+.3f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
