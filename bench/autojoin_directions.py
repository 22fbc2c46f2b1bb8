"""Which direction should win? Both directions' best programs on every case, scored.

    python bench/autojoin_directions.py OUT.jsonl CASE_FOLDER [CASE_FOLDER ...]   # run
    python bench/autojoin_directions.py --report OUT.jsonl                        # rules

For every case (one sub-folder per case, as bench/autojoin_eval.py reads them) Auto-Join
runs as usual; where both directions find a program, it runs again with the other
direction forced, so each direction's F1 is known. Each line of OUT holds, per direction,
the best program's distinct target keys joined (``cov``), source rows joined (``rows``),
the (sampled) source and target rows (``ns``, ``nt``), its logical operators (``size``),
its distinct derived values (``outs``), its estimated precision (``est``; ``est_one_to_one``
with deviation 20's N:1 whole-key pairs left out of the evidence) and its F1. ``--report``
replays alternative rules for choosing the direction (the pipeline's own: the fraction of
the target's rows joined, §4.3) on these records and lists the cases each rule changes (F1
differences over 0.001).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import autojoin_eval as E  # noqa: E402
from lakejoin_jupyter.join.autojoin import autojoin  # noqa: E402
from lakejoin_jupyter.join.autojoin import pipeline as P  # noqa: E402
from lakejoin_jupyter.join.autojoin.pairs import PairGroup  # noqa: E402
from lakejoin_jupyter.join.autojoin.programset import evidence_counts  # noqa: E402

_STATE: dict = {"force": None, "rec": {}}
_ORIGINAL = P._joined_fraction
_ORIGINAL_DIRECTION = P._direction


def _recording(result):
    d, src, _tgt = result
    b = d.best
    texts = {c: src.cells(c) for c in b.program.columns}
    outs = {v for v in b.program.evaluate(texts, len(src.positions)) if v is not None}
    _STATE["rec"][d.source] = dict(
        cov=b.coverage, rows=b.joined_rows, ns=len(src.positions), nt=len(d.target_positions),
        size=b.program.size, outs=len(outs), prog=b.program.describe()[:150],
        est=b.extra.get("estimated_precision"), est_one_to_one=_one_to_one_estimate(d, src, _tgt))
    if _STATE["force"] is None:
        return _ORIGINAL(result)
    return 1.0 if d.source == _STATE["force"] else 0.0


def _direction(found):
    """The pipeline's choice, or the forced direction (the pipeline's choice may rank
    keys before the fraction, deviation 39 (b))."""
    if _STATE["force"] is None:
        return _ORIGINAL_DIRECTION(found)
    return max(found, key=_recording)


def _one_to_one_estimate(d, src, tgt):
    """The estimated precision with deviation 20's pairs (a common whole key inside the
    source value, N:1) left out of the evidence: 1-to-1 matches and token bags only."""
    b = d.best
    if b.target_column not in tgt.columns:       # a key part of the composite fallback
        return None
    groups = [PairGroup(g.source_column, g.target_column, [p for p in g.pairs if not p.whole])
              for g in d.groups]
    agree, checked = evidence_counts(b.program, src, tgt.cells(b.target_column), groups,
                                     b.target_column, b.examples)
    return agree / checked if checked else None


def run(out_path: Path, folders: list) -> None:
    P._joined_fraction = _recording
    P._direction = _direction
    with out_path.open("w") as out:
        for path in folders:
            for folder in sorted(p for p in path.iterdir() if (p / "ground_truth.csv").exists()):
                source, target, gt = E.read_case(folder)
                g, _ = E.ground_truth_pairs(source, target, gt)
                _STATE.update(force=None, rec={})
                aj = autojoin(source, target, left_name="source", right_name="target")
                rec = dict(_STATE["rec"])
                f1 = {}
                chosen = None
                if aj.found:
                    chosen = "left" if aj.source_name == "source" else "right"
                    f1[chosen] = E.score(E.predicted_pairs(aj, source, target, True), g)["f1"]
                if len(rec) == 2:
                    other = "right" if chosen == "left" else "left"
                    _STATE["force"] = other
                    aj2 = autojoin(source, target, left_name="source", right_name="target")
                    f1[other] = E.score(E.predicted_pairs(aj2, source, target, True), g)["f1"]
                for side, v in rec.items():
                    v["f1"] = f1.get(side)
                out.write(json.dumps({"case": folder.name, "benchmark": folder.parent.name,
                                      "chosen": chosen, "dirs": rec}) + "\n")
                out.flush()


def _frac(v):
    return v["cov"] / max(v["nt"], 1)


DOUBTFUL = 0.8   # an estimated precision below this: the evidence doubts the program

RULES = {
    "fraction of the target's rows joined (the pipeline's rule, §4.3)":
        lambda v: (_frac(v), v["cov"], -v["size"]),
    "distinct keys joined, then fewer operators (MaxByCoverage across directions)":
        lambda v: (v["cov"], -v["size"], _frac(v)),
    "source rows joined (the join's size), then the pipeline's rule":
        lambda v: (v["rows"], _frac(v), v["cov"], -v["size"]),
    "both tables' joined fractions summed, then the pipeline's rule":
        lambda v: (round(v["rows"] / max(v["ns"], 1) + _frac(v), 9), _frac(v), v["cov"],
                   -v["size"]),
    "the larger of both tables' joined fractions, then the pipeline's rule":
        lambda v: (round(max(v["rows"] / max(v["ns"], 1), _frac(v)), 9), _frac(v), v["cov"],
                   -v["size"]),
    "fraction of the distinct derived values joined, then the pipeline's rule":
        lambda v: (round(v["cov"] / max(min(v["nt"], v["outs"]), 1), 9), _frac(v), v["cov"],
                   -v["size"]),
    "a program the evidence doubts (estimated precision < 0.8) after one it does not, "
    "then the pipeline's rule":
        lambda v: (not _doubtful(v["est"]), _frac(v), v["cov"], -v["size"]),
    "the same, the estimate from 1-to-1 evidence only (deviation 20's pairs left out)":
        lambda v: (not _doubtful(v.get("est_one_to_one")), _frac(v), v["cov"], -v["size"]),
}


def _doubtful(est) -> bool:
    return est is not None and est < DOUBTFUL


def report(path: Path) -> str:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    two = [r for r in rows if len(r["dirs"]) == 2
           and all(v.get("f1") is not None for v in r["dirs"].values())]
    base = next(iter(RULES.values()))
    lines = [f"{len(rows)} cases, {len(two)} with a program in both directions", ""]
    for name, rule in RULES.items():
        gains, losses = [], []
        for r in two:
            d = r["dirs"]
            p0 = max(d, key=lambda s: base(d[s]))
            p = max(d, key=lambda s: rule(d[s]))
            a, b = d[p0]["f1"], d[p]["f1"]
            if b > a + 1e-3:
                gains.append(f"{r['case']} {a:.3f} -> {b:.3f}")
            elif b < a - 1e-3:
                losses.append(f"{r['case']} {a:.3f} -> {b:.3f}")
        lines.append(f"* {name}: {len(gains)} higher, {len(losses)} lower")
        if gains:
            lines.append("  higher: " + "; ".join(gains))
        if losses:
            lines.append("  lower: " + "; ".join(losses))
    return "\n".join(lines)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "--report":
        print(report(Path(argv[1])))
        return
    if len(argv) < 2:
        sys.exit(__doc__)
    run(Path(argv[0]), [Path(p) for p in argv[1:]])


if __name__ == "__main__":
    main()
