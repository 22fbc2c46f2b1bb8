"""The row-pair estimate of Auto-Join (deviations 69, 74) row by row, and rules for it compared
by leaving one set of cases out.

    python bench/autojoin_pair_rows.py dump FOLDER... --cases a,b --out ROWS.jsonl
    python bench/autojoin_pair_rows.py rules ROWS.jsonl

``dump`` runs the learner (with the fuzzy step) on the cases (folders of
bench/autojoin_eval.py) and, for each program whose estimate comes from the row pairs (or a
partial one), writes every joined sampled row: taught or not, its candidate partners in step
1's row pairs of the program's target column (a value's pairs for every row holding it, as
``pipeline._row_pair_counts`` reads them), its derived key, and whether its equi-joined pair is
in the ground truth; with the equi-join's measured precision. ``rules`` prints where the wrong
rows are (agreeing, disagreeing, without pairs) and the mean absolute error of each rule over
the programs, in sample and with any constant chosen on the other sets (a fold per folder).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import autojoin_eval as ev  # noqa: E402

from lakejoin_jupyter.join.autojoin import autojoin, pipeline  # noqa: E402


def _rows_of(cand, src, tcells, groups) -> list:
    """[source row, derived key, taught, partners (sorted)] for every joined sampled row."""
    partners, keys, outs, cells = pipeline.row_partners(cand, src, tcells, groups)
    taught = {ex.source_row for ex in cand.examples}
    rows = []
    for i, o in enumerate(outs):
        if o is None or o not in keys:
            continue
        named = set()
        for c, found in partners.items():
            named |= found.get(cells[c][i], set())
        rows.append([int(src.positions[i]), o, i in taught, sorted(named)])
    return rows


def dump(folders: list, cases: set, out: Path) -> None:
    seen: list = []
    original = pipeline._pair_precision

    def recording(cand, src, tcells, groups):
        seen.append((cand.program.describe(), cand.target_column,
                     _rows_of(cand, src, tcells, groups)))
        return original(cand, src, tcells, groups)
    pipeline._pair_precision = recording
    with out.open("w") as f:
        for root in folders:
            for folder in sorted(p for p in root.iterdir() if (p / "ground_truth.csv").exists()):
                if cases and folder.name not in cases:
                    continue
                seen.clear()
                source, target, gt = ev.read_case(folder)
                g, _ = ev.ground_truth_pairs(source, target, gt)
                aj = autojoin(source, target, left_name="source", right_name="target")
                partial = aj.found and bool(aj.stats.get("partial"))
                if not aj.found or not (aj.precision_basis == "pairs" or partial):
                    continue
                mine = [r for p, t, r in seen if p == aj.program.describe()
                        and t == aj.target_column]
                if not mine:
                    continue
                s_rows = [ev.norm_row(r) for r in source.itertuples(index=False)]
                t_rows = [ev.norm_row(r) for r in target.itertuples(index=False)]
                forward = aj.source_name == "source"
                right: dict = {}
                for i, j in aj.pairs(fuzzy=False):
                    row = i if forward else j
                    right[row] = right.get(row, False) or (s_rows[i], t_rows[j]) in g
                measured = ev.score(ev.predicted_pairs(aj, source, target, False), g)["precision"]
                f.write(json.dumps({"case": folder.name, "set": root.name, "partial": partial,
                                    "estimate": aj.estimated_precision, "measured": measured,
                                    "rows": [r + [right.get(r[0])] for r in mine[-1]]}) + "\n")
    pipeline._pair_precision = original


# ------------------------------------------------------------------------------- rules

def _checked(case) -> list:
    """(agrees, partners, key, row) of the rows not taught that have a partner."""
    return [(r[1] in r[3], set(r[3]), r[1], r[0]) for r in case["rows"] if not r[2] and r[3]]


def _one_to_one_reading(case, any_join: bool) -> list:
    rows = _checked(case)
    per_key = Counter(r[1] for r in case["rows"])
    if any_join or all(n == 1 for n in per_key.values()):
        owner = {k: i for a, _, k, i in rows if a}
        rows = [r for r in rows if r[0] or any(owner.get(k, r[3]) == r[3] for k in r[1])]
    return rows


def estimate(case, rule: str, c=None):
    rows = _checked(case)
    if not rows:
        return None
    agree, n = sum(r[0] for r in rows), len(rows)
    if rule == "main":
        return agree / n
    if rule == "uncovered rows at weight c":
        u = sum(1 for r in case["rows"] if not r[2] and not r[3])
        return (agree + c * u) / (n + u)
    if rule == "disagreeing rows right at weight c":
        return (agree + c * (n - agree)) / n
    if rule == "agreeing rows at (1/k)^c":
        return sum((1 / len(r[1])) ** c for r in rows if r[0]) / n
    outs = Counter(r[1] for r in case["rows"])
    total = sum(outs.values())

    def chance(r):      # another joined row's key among this row's partners
        return (sum(outs[k] for k in r[1]) - (r[2] in r[1])) / max(1, total - 1)
    if rule == "agreeing rows at (1 - q)^c, q shuffled":
        return sum((1 - chance(r)) ** c for r in rows if r[0]) / n
    if rule == "chance-corrected (a - q) / (1 - q)":
        q = statistics.mean(chance(r) for r in rows)
        return max(0.0, (agree / n - q) / (1 - q)) if q < 1 else agree / n
    if rule == "(agree + a m) / (checked + a), c = (m, a)":
        m, a = c
        return (agree + a * m) / (n + a)
    if rule == "distinct observations":
        seen = {(r[2], frozenset(r[1])): r[0] for r in rows}
        return sum(seen.values()) / len(seen)
    if rule in ("deviation 60's reading, 1:1 (kept)", "deviation 60's reading, any join"):
        kept = _one_to_one_reading(case, rule.endswith("any join"))
        return sum(r[0] for r in kept) / len(kept) if kept else None
    raise ValueError(rule)


RULES = {
    "main": [None],
    "uncovered rows at weight c": [0, 0.5, 0.8, 0.9, 1.0],
    "disagreeing rows right at weight c": [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
    "agreeing rows at (1/k)^c": [0, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0],
    "agreeing rows at (1 - q)^c, q shuffled": [0, 1, 2, 5, 10],
    "chance-corrected (a - q) / (1 - q)": [None],
    "(agree + a m) / (checked + a), c = (m, a)":
        [(m, a) for m in (0.8, 0.85, 0.9, 0.925, 0.95, 0.975, 1.0)
         for a in (0, 0.5, 1, 2, 3, 5, 8, 12, 16, 20, 30, 50)],
    "distinct observations": [None],
    "deviation 60's reading, 1:1 (kept)": [None],
    "deviation 60's reading, any join": [None],
}


def errors(cases, rule, c) -> list:
    out = []
    for case in cases:
        e = estimate(case, rule, c)
        if e is not None:
            out.append(e - case["measured"])
    return out


def rules(path: Path) -> None:
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    where: dict = {}
    for case in cases:
        per_key = Counter(r[1] for r in case["rows"])
        for pos, key, taught, named, right in case["rows"]:
            if taught or right is None:
                continue
            if not named:
                kind = "no pair covers it"
            elif key in named:
                kind = "its pairs name its key"
            elif all(per_key[k] - (k == key) > 0 for k in named):
                kind = "its pairs name only keys other joined rows get"
            else:
                kind = "its pairs name a key no other joined row gets"
            slot = where.setdefault(kind, [0, 0, Counter()])
            slot[0 if right else 1] += 1
            if not right:
                slot[2][case["case"]] += 1
    print(f"{len(cases)} programs\n\n| joined row | right | wrong | wrong in |\n|---|---|---|---|")
    for kind, (r, w, by) in where.items():
        print(f"| {kind} | {r} | {w} | " + ", ".join(f"{c} {n}" for c, n in by.most_common(6))
              + " |")
    sets = sorted({c["set"] for c in cases})
    print(f"\n| rule | chosen per fold ({len(sets)} folds) | in sample | out of sample | signed |"
          "\n|---|---|---|---|---|")
    for rule, grid in RULES.items():
        def mae(cs, c):
            e = errors(cs, rule, c)
            return statistics.mean(abs(x) for x in e) if e else 0.0
        best = min(grid, key=lambda c: mae(cases, c))
        out, chosen = [], Counter()
        for s in sets:
            c = min(grid, key=lambda c: mae([x for x in cases if x["set"] != s], c))
            chosen[str(c)] += 1
            out += errors([x for x in cases if x["set"] == s], rule, c)
        print(f"| {rule} | {', '.join(f'{c} ({n})' for c, n in chosen.most_common())} | "
              f"{mae(cases, best):.4f} | {statistics.mean(abs(x) for x in out):.4f} | "
              f"{statistics.mean(out):+.4f} |")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("folders", nargs="+", type=Path)
    d.add_argument("--cases", default="")
    d.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("rules")
    r.add_argument("rows", type=Path)
    a = ap.parse_args(argv)
    if a.command == "dump":
        dump(a.folders, {c for c in a.cases.split(",") if c}, a.out)
    else:
        rules(a.rows)


if __name__ == "__main__":
    main()
