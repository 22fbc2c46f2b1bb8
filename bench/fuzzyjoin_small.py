"""The fuzzy join on small tables and short codes: labelled single-column cases built from
public reference tables (the demo lake's country codes and UN M49 lists, the system's
ISO 3166 and time-zone tables, fivethirtyeight's state tables), each at most a few hundred
distinct values a side, so that the "semantic" join function takes part (it is used up to
``fuzzy.SEMANTIC_MAX_VALUES`` distinct values; the autofj benchmark's tables are larger).
Results: bench/results/fuzzyjoin_small.md.

Every case has a reference (left) column without duplicates, a right column, and the truth:
each right value's partner among the left values, or none. A join is right when it pairs a
right value with its partner; precision and recall are over distinct right values (recall:
of the right values that have a partner). The split into development and validation cases
is fixed below (``SPLIT``), before anything was measured.

    python bench/fuzzyjoin_small.py dump --work W [--lake LAKES] [--split dev]
    python bench/fuzzyjoin_small.py replay --work W --split dev [--variant base] [--out f.csv]

``dump`` runs every default join function once per case (``fuzzy_join``) and saves each
function's blocking output (W/small/<case>.pkl); ``replay`` rebuilds the candidates under a
variant (``VARIANTS``) and chooses at each target with ``fuzzy._choose``, the code
``fuzzy_join`` runs. ``--lake`` is the folder holding fivethirtyeight/ (its state cases
are skipped without it); ``--reference`` the folder of country-codes.csv (default: the
demo lake's).
"""
from __future__ import annotations

import argparse
import pickle
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REFERENCE = ROOT / "lakejoin_jupyter/demo_lake/reference"
ZONEINFO = Path("/usr/share/zoneinfo")
TARGETS = (0.8, 0.9, 0.95)
RAW = ("r_left", "r_dist", "r_near", "r_ties", "r_sibling")

# Fixed before any measurement: each kind of case (codes in another case or system, names
# in two spellings, typos, states) has cases on both sides.
SPLIT = {
    "iso2-lower-americas": "dev", "iso2-lower-europe": "val",
    "iso2-lower-asia": "dev", "iso3-lower-africa": "val",
    "iso3-subset-full": "dev", "iso2-prefixed": "val",
    "tld-iso2": "dev", "iso3-iso2": "val",
    "fips-iso2": "dev", "ioc-iso3": "val",
    "fifa-iso3": "dev", "itu-iso3": "val",
    "official-cldr": "dev", "unterm-cldr": "val",
    "currency-official": "val", "fr-m49fr": "dev",
    "tab-cldr": "dev", "official-typos": "val",
    "cldr-typos-nopartner": "dev", "capital-typos": "val",
    "tz-city": "dev", "elo-cldr": "val",
    "state-abbr-name": "dev", "state-name-upper": "val",
    "state-typos": "dev", "state-abbr-lower": "val",
}


@dataclass
class Case:
    name: str
    kind: str
    left: list
    right: list
    truth: dict = field(default_factory=dict)      # right value -> its left partner

    @property
    def split(self) -> str:
        return SPLIT[self.name]


def _case(name, kind, pairs, extra_left=(), extra_right=()) -> Case:
    """A case from (left value, right value) pairs of the same entity plus left values
    without a right partner and right values without a left one. Blank values are dropped,
    and so are the pairs of a left or right value that two entities share (its partner
    would be ambiguous). A right value equal to a left value other than its partner (a
    code of one system that is another country's code in the other) keeps its pair's
    truth."""
    pairs = [(str(l).strip(), str(r).strip()) for l, r in pairs
             if str(l).strip() and str(r).strip() and str(l) != "nan" and str(r) != "nan"]
    lcount = pd.Series([l for l, _ in pairs]).value_counts()
    rcount = pd.Series([r for _, r in pairs]).value_counts()
    pairs = [(l, r) for l, r in pairs if lcount[l] == 1 and rcount[r] == 1]
    left = [l for l, _ in pairs] + [x for x in extra_left if x not in set(l for l, _ in pairs)]
    truth = {r: l for l, r in pairs}
    right = list(truth) + [x for x in extra_right if x not in truth]
    left = list(dict.fromkeys(left))
    right = list(dict.fromkeys(right))
    return Case(name, kind, left, right, truth)


def typo(s: str, rng: random.Random) -> str:
    """One (length < 10) or two seeded edits of letters: substitution, deletion, insertion or
    transposition."""
    s = list(s)
    for _ in range(1 if len(s) < 10 else 2):
        pos = [i for i, c in enumerate(s) if c.isalpha()]
        if not pos:
            break
        i = rng.choice(pos)
        op = rng.choice("sdit")
        c = rng.choice("abcdefghijklmnopqrstuvwxyz")
        if op == "s":
            s[i] = c if s[i] != c else "q"
        elif op == "d" and len(s) > 3:
            del s[i]
        elif op == "i":
            s.insert(i, c)
        elif i + 1 < len(s):
            s[i], s[i + 1] = s[i + 1], s[i]
        else:
            s[i] = c
    return "".join(s)


def _typo_pairs(values, rng, taken):
    out = []
    for v in values:
        t = typo(v, rng)
        if t != v and t not in taken:
            taken.add(t)
            out.append((v, t))
    return out


def country_cases(reference: Path = REFERENCE, zoneinfo: Path | None = ZONEINFO) -> list:
    cc = pd.read_csv(reference / "country-codes.csv", keep_default_na=False, dtype=str)
    cc = cc[cc["ISO3166-1-Alpha-2"].str.len() == 2].reset_index(drop=True)
    iso2, iso3 = cc["ISO3166-1-Alpha-2"], cc["ISO3166-1-Alpha-3"]
    region = cc["Region Name"]
    rng = random.Random(20261129)
    out = []

    def codes(name, kind, lcol, rcol, lmask=None, rmask=None, lfun=str, rfun=str):
        """Right: rcol of the rows in rmask; left: lcol of the rows in lmask; the partner
        of a right value is its row's left value."""
        lm = np.ones(len(cc), bool) if lmask is None else np.asarray(lmask)
        rm = np.ones(len(cc), bool) if rmask is None else np.asarray(rmask)
        both = lm & rm
        pairs = [(lfun(l), rfun(r)) for l, r in zip(lcol[both], rcol[both])]
        extra_l = [lfun(x) for x in lcol[lm & ~rm] if x.strip()]
        extra_r = [rfun(x) for x in rcol[rm & ~lm] if x.strip()]
        out.append(_case(name, kind, pairs, extra_l, extra_r))

    low = str.lower
    # the user's case: every code against one region's codes, lower-cased
    codes("iso2-lower-americas", "code case", iso2, iso2, lmask=region == "Americas", lfun=low)
    codes("iso2-lower-europe", "code case", iso2, iso2, lmask=region == "Europe", lfun=low)
    codes("iso2-lower-asia", "code case", iso2, iso2, lmask=region == "Asia", lfun=low)
    codes("iso3-lower-africa", "code case", iso3, iso3, lmask=region == "Africa", lfun=low)
    sub = np.zeros(len(cc), bool)
    sub[rng.sample(range(len(cc)), 80)] = True
    codes("iso3-subset-full", "code case", iso3, iso3, rmask=sub, rfun=low)
    codes("iso2-prefixed", "code prefix", iso2, iso2, rmask=region == "Oceania",
          rfun=lambda x: f"ISO-{x}")
    codes("tld-iso2", "code system", iso2, cc["TLD"])
    codes("iso3-iso2", "code system", iso2, iso3, rmask=(region == "Europe") | (region == "Asia"))
    codes("fips-iso2", "code system", iso2, cc["FIPS"])
    codes("ioc-iso3", "code system", iso3, cc["IOC"])
    codes("fifa-iso3", "code system", iso3, cc["FIFA"])
    codes("itu-iso3", "code system", iso3, cc["ITU"])
    # names in two spellings
    codes("official-cldr", "name spelling", cc["official_name_en"], cc["CLDR display name"])
    codes("unterm-cldr", "name spelling", cc["CLDR display name"], cc["UNTERM English Short"])
    sub = np.zeros(len(cc), bool)
    sub[rng.sample(range(len(cc)), 100)] = True
    codes("currency-official", "name spelling", cc["official_name_en"],
          cc["ISO4217-currency_country_name"], rmask=sub)
    m49 = pd.read_csv(reference / "unsd-m49-fr.csv", keep_default_na=False, dtype=str)
    fr = dict(zip(m49["ISO-alpha2 Code"], m49["Country or Area"]))
    out.append(_case("fr-m49fr", "name spelling",
                     [(l, fr.get(c, "")) for l, c in zip(cc["official_name_fr"], iso2)]))
    if zoneinfo is not None and (zoneinfo / "iso3166.tab").exists():
        tab = {}
        for line in (zoneinfo / "iso3166.tab").read_text().splitlines():
            if line and not line.startswith("#"):
                c, n = line.split("\t", 1)
                tab[c] = n
        out.append(_case("tab-cldr", "name spelling",
                         [(l, tab.get(c, "")) for l, c in zip(cc["CLDR display name"], iso2)]))
    # typos (seeded)
    names = [x for x in cc["official_name_en"] if x.strip()]
    taken = set(names)
    out.append(_case("official-typos", "typos", _typo_pairs(rng.sample(names, 120), rng, taken),
                     extra_left=names))
    cldr = cc["CLDR display name"]
    europe_asia = [x for x, r in zip(cldr, region) if r in ("Europe", "Asia") and x.strip()]
    others = [x for x, r in zip(cldr, region) if r not in ("Europe", "Asia") and x.strip()]
    taken = set(cldr)
    out.append(_case("cldr-typos-nopartner", "typos",
                     _typo_pairs(rng.sample(europe_asia, 60), rng, taken), extra_left=europe_asia,
                     extra_right=[typo(x, rng) for x in rng.sample(others, 40)]))
    caps = [x for x in cc["Capital"] if x.strip()]
    caps = [x for x in caps if caps.count(x) == 1]
    taken = set(caps)
    out.append(_case("capital-typos", "typos", _typo_pairs(rng.sample(caps, 100), rng, taken),
                     extra_left=caps))
    if zoneinfo is not None and (zoneinfo / "zone1970.tab").exists():
        zones = [line.split("\t")[2] for line in (zoneinfo / "zone1970.tab").read_text()
                 .splitlines() if line and not line.startswith("#")]
        zones = [z for z in zones if z.count("/") >= 1]
        cities = [z.rsplit("/", 1)[1].replace("_", " ") for z in zones]
        ok = [c for c in cities if cities.count(c) == 1]
        pairs = [(z, c) for z, c in zip(zones, cities) if c in ok]
        out.append(_case("tz-city", "name prefix", rng.sample(pairs, 150),
                         extra_left=[z for z, _ in pairs]))
    return out


def lake_cases(lake: Path | None, reference: Path = REFERENCE) -> list:
    """Cases from fivethirtyeight's tables (skipped when ``lake`` is None or lacks them)."""
    if lake is None:
        return []
    f = Path(lake) / "fivethirtyeight"
    out = []
    rng = random.Random(538)
    red = f / "redistricting-alternate-maps/redistricting-alternate-maps.csv"
    if red.exists():
        st = pd.read_csv(red, dtype=str)[["state_abbr", "state_name"]].dropna()
        abbr, name = st["state_abbr"].tolist(), st["state_name"].tolist()
        out.append(_case("state-abbr-name", "state", list(zip(abbr, name))))
        hate = f / "hate-crimes/hate_crimes.csv"
        hn = pd.read_csv(hate, dtype=str)["state"].dropna().tolist() if hate.exists() else name
        known = set(name)
        out.append(_case("state-name-upper", "state", [(n, n.upper()) for n in hn if n in known],
                         extra_left=name, extra_right=[n.upper() for n in hn if n not in known]))
        taken = set(name)
        out.append(_case("state-typos", "state", _typo_pairs(name, rng, taken)))
        dele = f / "gop-delegate-benchmarks-2024/delegate_targets.csv"
        da = pd.read_csv(dele, dtype=str)["state_abb"].dropna().tolist() if dele.exists() else abbr
        ka = set(abbr)
        out.append(_case("state-abbr-lower", "state", [(a, a.lower()) for a in da if a in ka],
                         extra_left=abbr, extra_right=[a.lower() for a in da if a not in ka]))
    elo = f / "elo-blatter/elo_blatter.csv"
    if elo.exists():
        cc = pd.read_csv(Path(reference) / "country-codes.csv", keep_default_na=False, dtype=str)
        cldr = [x for x in cc["CLDR display name"] if x.strip()]
        # a country's partner: the CLDR name of the row that spells it so in one of the name
        # columns (exactly, ignoring case); none found: no partner
        cols = ["CLDR display name", "official_name_en", "UNTERM English Short",
                "ISO4217-currency_country_name"]
        spell = {}
        for _, row in cc.iterrows():
            for c in cols:
                if row[c].strip():
                    spell.setdefault(row[c].strip().lower(), set()).add(row["CLDR display name"])
        countries = pd.read_csv(elo, dtype=str)["country"].dropna().unique().tolist()
        pairs, none = [], []
        for c in countries:
            hit = spell.get(c.lower(), set())
            if len(hit) == 1:
                pairs.append((next(iter(hit)), c))
            elif not hit:
                none.append(c)
        out.append(_case("elo-cldr", "name spelling", pairs, extra_left=cldr, extra_right=[]))
        out[-1].unresolved = none        # right values left out: their partner is unknown
    return out


def all_cases(reference=REFERENCE, lake=None, zoneinfo=ZONEINFO) -> list:
    cases = country_cases(Path(reference), zoneinfo) + lake_cases(lake, Path(reference))
    return [c for c in cases if c.name in SPLIT]


# ---------------------------------------------------------------------------------------
# running and replaying


def dump(case: Case, work: Path):
    from lakejoin_jupyter.join import fuzzy
    fj = fuzzy.fuzzy_join(pd.DataFrame({"v": case.left}), pd.DataFrame({"v": case.right}),
                          on=("v", "v"), precision_target=0.9)
    raw = {f: {k: getattr(c, k) for k in RAW} for f, c in fj._cands.items()}
    d = {"name": case.name, "split": case.split, "kind": case.kind, "raw": raw,
         "grids": fj._grids, "lkeys": list(fj._lkeys), "rkeys": list(fj._rkeys),
         "truth": case.truth, "fns": list(fj._cands)}
    (work / "small").mkdir(parents=True, exist_ok=True)
    pickle.dump(d, open(work / "small" / f"{case.name}.pkl", "wb"))
    return d


def build(d: dict, variant: str = "base"):
    """The candidates and their curves from the saved blocking output, under ``variant``."""
    from lakejoin_jupyter.join import fuzzy
    cands = {}
    n_values = len(d["lkeys"]) + len(d["rkeys"])
    for f, r in d["raw"].items():
        r = dict(r)
        cls = VARIANTS[variant](d, f, r, n_values)
        cands[f] = cls(f, **r)
    n_r = len(d["rkeys"])
    return cands, {f: fuzzy.threshold_curve(c, d["grids"][f], n_r) for f, c in cands.items()}


def choose(d: dict, target: float, built):
    from lakejoin_jupyter.join import fuzzy
    cands, curves = built
    n_r = len(d["rkeys"])
    common = dict(left=None, right=None, on=("v", "v"), _cands=cands, _grids=d["grids"],
                  _curves=curves, _lkeys=np.array(d["lkeys"], dtype=object),
                  _rkeys=np.array(d["rkeys"], dtype=object), _lrows=None, _rrows=None)
    fj = fuzzy._choose(common, list(cands), target)
    if fj._union is None:
        return np.full(n_r, -1), np.full(n_r, "", dtype=object), float("nan")
    return fj._union, fj._union_fn, fj.estimated_precision


def score(d: dict, left_of: np.ndarray) -> tuple:
    truth = d["truth"]
    lk, rk = d["lkeys"], d["rkeys"]
    joined = np.nonzero(left_of >= 0)[0]
    right = sum(truth.get(rk[r]) == lk[left_of[r]] for r in joined)
    n_true = sum(1 for r in rk if r in truth)
    p = right / len(joined) if len(joined) else 1.0
    rec = right / n_true if n_true else 1.0
    f1 = 2 * p * rec / (p + rec) if p + rec else 0.0
    return len(joined), right, p, rec, f1


SHORT = 3      # V1: at most this many characters (stripped) on both sides: a code


def _short_veto(d, f, r):
    """V1: the semantic function's join of a right value vetoed (distance inf, as a
    negative rule's) when it and its nearest left value are both codes of at most SHORT
    characters."""
    if f != "semantic":
        return
    lk, rk = d["lkeys"], d["rkeys"]
    dist = r["r_dist"].copy()
    for i, l in enumerate(r["r_left"].tolist()):
        if l >= 0 and len(str(rk[i]).strip()) <= SHORT and len(str(lk[l]).strip()) <= SHORT:
            dist[i] = np.inf
    r["r_dist"] = dist


def _v9():
    from bench import fuzzyjoin_decoy_rank as dr
    dr.Candidates.variant = "v9"
    return dr.Candidates


def _plain(f, **r):
    """The candidates without any decoy-rank correction (the join before the fifteenth
    session: ``fuzzy.RANK_CORRECTED`` empty)."""
    from lakejoin_jupyter.join import fuzzy
    kept = fuzzy.RANK_CORRECTED
    fuzzy.RANK_CORRECTED = frozenset()
    try:
        return fuzzy._Candidates(f, **r)
    finally:
        fuzzy.RANK_CORRECTED = kept


def join_variant(d, f, r, n):
    from lakejoin_jupyter.join import fuzzy
    return fuzzy._Candidates


def plain_variant(d, f, r, n):
    return _plain


def sem_short(d, f, r, n):
    _short_veto(d, f, r)
    return _plain


def sem_v9(d, f, r, n):
    return _v9() if f == "semantic" else _plain


def small_v9(d, f, r, n):
    from lakejoin_jupyter.join import fuzzy
    return _v9() if n <= fuzzy.SEMANTIC_MAX_VALUES else _plain


def sem_short_v9(d, f, r, n):
    _short_veto(d, f, r)
    return sem_v9(d, f, r, n)


# name -> a function (case, join function, its raw blocking output (may be changed in
# place), distinct values of both columns) -> what builds the candidates. "join": the code
# as it is; "base": the join before this session (no decoy-rank correction), against which
# the variants were measured; the variants as defined in bench/results/fuzzyjoin_small.md
# ("sem-v9", kept, is what "join" now computes).
VARIANTS = {"join": join_variant, "base": plain_variant, "sem-short": sem_short,
            "sem-v9": sem_v9, "small-v9": small_v9, "sem-short+v9": sem_short_v9}


def replay(work: Path, split: str, variant: str = "join", names=()) -> pd.DataFrame:
    rows = []
    for p in sorted((work / "small").glob("*.pkl")):
        d = pickle.load(open(p, "rb"))
        if d["name"] not in SPLIT or (split != "all" and d["split"] != split):
            continue
        if names and d["name"] not in names:
            continue
        built = build(d, variant)
        row = {"case": d["name"], "kind": d["kind"], "split": d["split"],
               "n_left": len(d["lkeys"]), "n_right": len(d["rkeys"]),
               "n_partner": sum(1 for r in d["rkeys"] if r in d["truth"]),
               "semantic": "semantic" in d["raw"]}
        for t in TARGETS:
            left_of, fn_of, est = choose(d, t, built)
            n, right, prec, rec, f1 = score(d, left_of)
            sem = fn_of == "semantic"
            sem_wrong = sum(1 for r in np.nonzero(sem)[0]
                            if d["truth"].get(d["rkeys"][r]) != d["lkeys"][left_of[r]])
            row.update({f"est{t:g}": est, f"P{t:g}": prec, f"R{t:g}": rec, f"F1{t:g}": f1,
                        f"n{t:g}": n, f"wrong{t:g}": n - right, f"semwrong{t:g}": sem_wrong,
                        f"fns{t:g}": ",".join(sorted(set(fn_of[fn_of != ""])))})
        rows.append(row)
    return pd.DataFrame(rows)


def summary(df: pd.DataFrame) -> str:
    """Per target: mean |P - target| = under + over, mean F1, mean estimated - achieved."""
    lines = ["| target | mean \\|P - target\\| = under + over | mean F1 | mean est - P | wrong joins (semantic's) |",
             "|---|---|---|---|---|"]
    for t in TARGETS:
        g = df[f"P{t:g}"] - t
        lines.append(f"| {t:g} | {g.abs().mean():.4f} = {(-g.clip(upper=0)).mean():.4f} + "
                     f"{g.clip(lower=0).mean():.4f} | {df[f'F1{t:g}'].mean():.4f} | "
                     f"{(df[f'est{t:g}'] - df[f'P{t:g}']).mean():+.4f} | "
                     f"{int(df[f'wrong{t:g}'].sum())} ({int(df[f'semwrong{t:g}'].sum())}) |")
    return "\n".join(lines)


def per_case(df: pd.DataFrame) -> str:
    lines = ["| case | split | L / R / with partner | target | est P | P | R | F1 | functions |",
             "|---|---|---|---|---|---|---|---|---|"]
    for _, r in df.iterrows():
        for t in TARGETS:
            lines.append(f"| {r.case} | {r.split} | {r.n_left} / {r.n_right} / {r.n_partner} | "
                         f"{t:g} | {r[f'est{t:g}']:.3f} | {r[f'P{t:g}']:.3f} | "
                         f"{r[f'R{t:g}']:.3f} | {r[f'F1{t:g}']:.3f} | {r[f'fns{t:g}']} |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["dump", "replay", "cases"])
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--lake", type=Path, default=None)
    ap.add_argument("--reference", type=Path, default=REFERENCE)
    ap.add_argument("--split", default="dev", choices=["dev", "val", "all"])
    ap.add_argument("--variant", default="join", choices=list(VARIANTS))
    ap.add_argument("--cases", default="")
    ap.add_argument("--out", default="")
    a = ap.parse_args(argv)
    names = [x for x in a.cases.split(",") if x]
    if a.cmd in ("dump", "cases"):
        for c in all_cases(a.reference, a.lake):
            if (a.split != "all" and c.split != a.split) or (names and c.name not in names):
                continue
            print(f"{c.name} ({c.split}, {c.kind}): left {len(c.left)}, right {len(c.right)}, "
                  f"with a partner {len(c.truth)}", flush=True)
            if a.cmd == "dump":
                dump(c, a.work)
        return
    df = replay(a.work, a.split, a.variant, names)
    if a.out:
        df.to_csv(a.out, index=False)
    print(per_case(df))
    print()
    print(f"{a.variant}, {a.split}, {len(df)} cases")
    print(summary(df))


if __name__ == "__main__":
    main()
