"""The new user's short codes, with the fuzzy join as it is and with round 7's decoy-rank
variant (bench/fuzzyjoin_decoy_rank.py, v9; not in the join): the demo lake's ISO 3166
alpha-2 codes (the table to match) against the Americas' codes, lower-cased (the reference
table). Every right code has at most one partner, its own code; a fuzzy pair between two
different codes is wrong. Prints, per precision target, the joins, the estimated and the
achieved precision (bench/results/fuzzyjoin_calibration.md, fourteenth session). Since
the fifteenth session "base", the join as it is, corrects the semantic function's decoys
for their rank (v9 on that function only: bench/results/fuzzyjoin_small.md).

    python bench/fuzzyjoin_short_codes.py [--variants base,v9]
"""
from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

import fuzzyjoin_decoy_rank as dr     # (first: its replay harness puts the repository on sys.path)
from lakejoin_jupyter.join import fuzzy

CODES = Path(__file__).resolve().parent.parent / "lakejoin_jupyter/demo_lake/reference/country-codes.csv"


def tables():
    cc = pd.read_csv(CODES, keep_default_na=False, dtype=str)
    cc = cc[cc["ISO3166-1-Alpha-2"].str.len() == 2]
    left = pd.DataFrame({"code": cc.loc[cc["Region Name"] == "Americas", "ISO3166-1-Alpha-2"].str.lower()})
    right = pd.DataFrame({"iso2": cc["ISO3166-1-Alpha-2"]})
    return left, right


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default="base,v9")
    ap.add_argument("--targets", default="0.8,0.9,0.95")
    a = ap.parse_args(argv)
    left, right = tables()
    original = fuzzy._Candidates
    print(f"left (reference) {len(left)} codes, right {len(right)} codes, "
          f"{right.iso2.str.lower().isin(left.code).sum()} with a partner")
    print("| estimator | target | joins | estimated P | achieved P | functions |")
    print("|---|---|---|---|---|---|")
    for v in a.variants.split(","):
        if v == "base":
            fuzzy._Candidates = original
        else:
            dr.Candidates.variant = dr.VARIANTS[v][0]
            fuzzy._Candidates = dr.Candidates
        for t in (float(x) for x in a.targets.split(",")):
            fj = fuzzy.fuzzy_join(left, right, on=("code", "iso2"), precision_target=t)
            m = fj.matches()
            ok = m.right.str.lower() == m.left.str.lower()
            est = fj.estimated_precision
            print(f"| {v} | {t:g} | {len(m)} | {est:.3f} | {ok.mean():.3f} | "
                  f"{', '.join(sorted(set(m.function)))} |")
    fuzzy._Candidates = original


if __name__ == "__main__":
    main()
