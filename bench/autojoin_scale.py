"""Auto-Join at scale (thesis §4.5, §4.7.4): two N-row tables joined through a transformation,
with the corrected row sampling, side by side with the same run without sampling.

    python bench/autojoin_scale.py [--sizes 10000,100000,1000000] [--unsampled-max 100000]
                                   [--participation 0.5] [--seed 0] [--json OUT]

The source has ``name`` ("First Last"), ``emp_id`` ("E0012345") and ``dept``; the target's
key ``login`` is lower(first initial) + lower(last name) + "." + the id's digits +
"@corp.example" for the source rows that take part (``--participation``) and a look-alike
login for the others; both tables are shuffled. The timed part is ``autojoin()`` (sampling,
row pairs, learning, applying the program to the full source, the equi-join coverage) and
then ``join()`` (the pandas merge of the full tables). Each run checks that the learned
program reproduces the planted logins exactly. The unsampled peer is skipped above
``--unsampled-max`` rows (the thesis: it times out at 1M).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lakejoin_jupyter.join.autojoin import autojoin  # noqa: E402

FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David",
         "Elizabeth", "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas",
         "Sarah", "Carlos", "Ana", "Wei", "Mei", "Ahmed", "Fatima", "Olga", "Ivan", "Zoë",
         "Søren", "Aiko", "Kenji"]
SYLLABLES = ["ka", "lo", "mi", "ran", "sen", "tor", "vi", "wen", "bel", "dor", "ga", "han",
             "is", "jor", "ku", "mar", "nov", "pet", "qui", "ros", "sta", "tun", "ul", "vel"]


def make_tables(n: int, participation: float, seed: int):
    rng = np.random.default_rng(seed)
    s = np.array(SYLLABLES)
    last = np.char.capitalize(np.char.add(np.char.add(s[rng.integers(0, len(s), n)],
                                                      s[rng.integers(0, len(s), n)]),
                                          s[rng.integers(0, len(s), n)]))
    first = np.array(FIRST)[rng.integers(0, len(FIRST), n)]
    perm = rng.permutation(10 ** 7)
    ids, other_ids = perm[:n], perm[n:2 * n]     # decoys: ids no source row has
    digits = np.char.zfill(ids.astype(str), 7)
    source = pd.DataFrame({"name": np.char.add(np.char.add(first, " "), last),
                           "emp_id": np.char.add("E", digits),
                           "dept": rng.integers(1, 40, n).astype(str)})
    initial = np.char.lower(np.array([f[0] for f in first]))
    login = np.char.add(np.char.add(np.char.add(initial, np.char.lower(last)), "."), digits)
    joins = rng.random(n) < participation
    # logins of people not in the source: other names, ids no source row has (so neither
    # the name part nor the id part of a decoy login matches its source row)
    other_last = np.char.lower(np.roll(last, 1))
    other = np.char.add(np.char.add(np.char.add(initial, other_last), "."),
                        np.char.zfill(other_ids.astype(str), 7))
    logins = np.char.add(np.where(joins, login, other), "@corp.example")
    target = pd.DataFrame({"login": logins, "quota": rng.integers(0, 1000, n)})
    planted = set(zip(source["emp_id"][joins].tolist(), logins[joins].tolist()))
    order = rng.permutation(n)
    return source, target.iloc[order].reset_index(drop=True), planted


def run(n: int, participation: float, seed: int, sample: str) -> dict:
    source, target, planted = make_tables(n, participation, seed)
    t0, c0 = time.perf_counter(), time.process_time()
    aj = autojoin(source, target, sample=sample, participation=min(participation, 0.1),
                  seed=seed)
    t_learn = time.perf_counter() - t0
    t1 = time.perf_counter()
    joined = aj.join() if aj.found else None
    t_join = time.perf_counter() - t1
    cpu = time.process_time() - c0
    ok = aj.found and len(joined) == len(planted) and \
        set(zip(joined["emp_id"].tolist(), joined["login"].tolist())) == planted
    return {"rows": n, "sample": sample, "found": aj.found,
            "program": aj.program.describe() if aj.found else aj.message,
            "direction": f"{aj.source_name} -> {aj.target_name}" if aj.found else None,
            "planted_pairs": len(planted), "joined_pairs": None if joined is None else len(joined),
            "correct": ok, "seconds_autojoin": t_learn, "seconds_join": t_join,
            "seconds_total": t_learn + t_join, "cpu_seconds_total": cpu, "stages": aj.stats.get("seconds"),
            "sampling": aj.stats.get("sampling")}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--unsampled-max", type=int, default=100_000)
    ap.add_argument("--participation", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    results = []
    for n in [int(x) for x in args.sizes.split(",")]:
        for sample in ("always", "never"):
            if sample == "never" and n > args.unsampled_max:
                results.append({"rows": n, "sample": sample, "skipped": True})
                continue
            r = run(n, args.participation, args.seed, sample)
            results.append(r)
            print(f"{n:>9,} rows sample={sample:6s} found={r['found']} correct={r['correct']} "
                  f"autojoin {r['seconds_autojoin']:.2f}s join {r['seconds_join']:.2f}s "
                  f"{r['program']}", file=sys.stderr, flush=True)
    print("| rows per table | sampling | rows sampled (src/tgt) | Auto-Join (s) | join (s) | "
          "total (s) | CPU (s) | joined pairs = planted | program |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        if r.get("skipped"):
            print(f"| {r['rows']:,} | none | - | skipped | | | | | |")
            continue
        smp = (r["sampling"] or {}).get("left as source")
        rows = f"{smp['rows_source']:,}/{smp['rows_target']:,}" if smp else "all"
        print(f"| {r['rows']:,} | {'corrected §4.5' if r['sample'] == 'always' else 'none'} | "
              f"{rows} | {r['seconds_autojoin']:.2f} | {r['seconds_join']:.2f} | "
              f"{r['seconds_total']:.2f} | {r['cpu_seconds_total']:.2f} | {r['joined_pairs']:,} = {r['planted_pairs']:,} "
              f"({'ok' if r['correct'] else 'WRONG'}) | `{r['program']}` |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))


if __name__ == "__main__":
    main()
