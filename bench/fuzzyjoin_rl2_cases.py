"""rl2: a second, blind set of single-column record-linkage cases for the fuzzy join.

Each case takes one clean real name list (film crews, primary candidates, appellate case
titles, pollsters, ISO 3166-2 subdivisions), samples ``left`` from it (the reference: one
row per entity) and makes ``right`` from noisy copies of some left entities, names of
held-out entities of the same list (no partner; some share a surname, a party or a leading
word with a left entity) and a few left entities twice. The noise model, written before
any case was generated (bench/results/fuzzyjoin_rl2_cases.md): dropped and added words
(articles, legal and generational suffixes, middle names), abbreviations, reordering
("Last, First"), accent loss and transliteration, punctuation and spacing changes,
keyboard typos, OCR look-alikes, case changes and truncation, each with a per-case rate
drawn from a fixed range. Every draw comes from a generator seeded by the case name, so
the files are the same on every run. Every case is ``validation``.

    python bench/fuzzyjoin_rl2_cases.py --lake LAKES --out OUT

writes ``OUT/<case>/{left,right,gt}.csv`` in autofj's layout (``id,title``; ``id_l,id_r``).
"""
from __future__ import annotations

import argparse
import json
import re
import unicodedata
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

ISO_CODES = Path("/usr/share/iso-codes/json")

# name -> (split, kind, n_left, n_right, source reader name)
CASES = {
    "rl2-film-crew": ("validation", "people", 4000, 1800, "film_crew"),
    "rl2-primary-candidates": ("validation", "people", 2500, 1200, "primary_candidates"),
    "rl2-court-cases": ("validation", "titles", 550, 250, "court_cases"),
    "rl2-pollsters": ("validation", "organisations", 550, 250, "pollsters"),
    "rl2-subdivisions": ("validation", "places", 3500, 1500, "subdivisions"),
}

# per-case rates, each drawn once from its range (bench/results/fuzzyjoin_rl2_cases.md)
RANGES = {
    "unmatched": (0.15, 0.35),
    "hard": (0.30, 0.60),
    "repeated": (0.03, 0.10),
    "exact": (0.02, 0.08),
    "drop": (0.10, 0.30),
    "add": (0.03, 0.10),
    "abbreviate": (0.10, 0.30),
    "reorder": (0.05, 0.20),
    "accents": (0.40, 0.90),
    "punctuation": (0.10, 0.30),
    "spacing": (0.02, 0.06),
    "typos": (0.35, 0.65),
    "typo_rate": (0.01, 0.03),
    "ocr": (0.03, 0.10),
    "case": (0.05, 0.20),
    "truncate": (0.02, 0.08),
}
EXACT_BOUND = 0.10   # stated: at most this share of partnered right titles equal their left
ATTEMPTS = 20


# ----------------------------------------------------------------------- clean lists

def _read(path: Path, **kw) -> pd.DataFrame:
    try:
        return pd.read_csv(path, **kw)
    except UnicodeDecodeError:
        return pd.read_csv(path, encoding="mac_roman", **kw)


def film_crew(lake: Path, iso: Path):
    return list(_read(lake / "fivethirtyeight/next-bechdel/nextBechdel_crewGender.csv")
                ["FULL_NAME"])


def primary_candidates(lake: Path, iso: Path):
    out = []
    for d in ("primary-candidates-2018", "primary-project-2022"):
        for party in ("dem", "rep"):
            out += list(_read(lake / "fivethirtyeight" / d / f"{party}_candidates.csv")
                        ["Candidate"])
    return out


def court_cases(lake: Path, iso: Path):
    return list(_read(lake / "fivethirtyeight/tenth-circuit/tenth-circuit.csv")["Title"])


def pollsters(lake: Path, iso: Path):
    out = []
    for f in sorted((lake / "fivethirtyeight/state-of-the-polls-2024").glob("*_polls.csv")):
        d = _read(f)
        out += list(d["pollster_name"])
        out += [v for v in d["sponsor_names"].dropna().astype(str) if "," not in v]
    return out


def subdivisions(lake: Path, iso: Path):
    return [s["name"] for s in json.loads((iso / "iso_3166-2.json").read_text())["3166-2"]]


def fold(s: str) -> str:
    """The key two titles must not share: case, accents and non-alphanumerics removed."""
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if c.isalnum()).casefold()


def clean_values(values) -> list[str]:
    """Distinct values (whitespace collapsed, 3+ characters), one per folded key."""
    vals = sorted({" ".join(str(v).split()) for v in values
                   if isinstance(v, str) and len(" ".join(v.split())) >= 3})
    seen, out = set(), []
    for v in vals:
        k = fold(v)
        if k and k not in seen:
            seen.add(k)
            out.append(v)
    return out


# ----------------------------------------------------------------------- hard negatives

GENERATIONAL = {"jr", "sr", "ii", "iii", "iv"}
ARTICLES = {"the", "a", "an"}
LEGAL = {"inc", "llc", "corp", "co", "ltd"}


def _bare(w: str) -> str:
    return re.sub(r"[^\w]", "", w).casefold()


def group_keys(value: str, kind: str) -> set[str]:
    """Source-given tokens an unmatched entity may share with a left one (never a score)."""
    words = value.split()
    if kind == "people":
        core = [w for w in words if _bare(w) not in GENERATIONAL] or words
        return {_bare(core[-1])} - {""}
    if kind == "titles":
        return {p.strip().casefold() for p in re.split(r"\s+v\.?\s+", value)
                if p.strip()} if re.search(r"\sv\.?\s", value) else set()
    core = [w for w in words if _bare(w) not in ARTICLES] or words
    return {_bare(core[0])} - {""}


# ----------------------------------------------------------------------- noise

ABBREVIATIONS = {
    "university": "Univ.", "saint": "St.", "mount": "Mt.", "company": "Co.",
    "corporation": "Corp.", "association": "Assn.", "department": "Dept.",
    "international": "Intl.", "national": "Natl.", "institute": "Inst.",
    "center": "Ctr.", "centre": "Ctr.", "research": "Res.", "services": "Svcs.",
    "province": "Prov.", "district": "Dist.", "region": "Reg.", "north": "N.",
    "south": "S.", "east": "E.", "west": "W.", "and": "&",
}
TRANSLIT = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "ø": "oe", "å": "aa",
            "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "Æ": "Ae", "Ø": "Oe", "Å": "Aa"}
OCR = [("rn", "m"), ("m", "rn"), ("cl", "d"), ("vv", "w"), ("w", "vv"), ("l", "1"),
       ("1", "l"), ("I", "l"), ("O", "0"), ("0", "O"), ("S", "5"), ("B", "8"), ("e", "c"),
       ("h", "b")]
_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
NEIGHBOURS: dict[str, str] = {}
for _r, _row in enumerate(_ROWS):
    for _c, _ch in enumerate(_row):
        near = [_row[j] for j in (_c - 1, _c + 1) if 0 <= j < len(_row)]
        for _o in (_r - 1, _r + 1):
            if 0 <= _o < len(_ROWS):
                near += [_ROWS[_o][j] for j in (_c - 1, _c, _c + 1) if 0 <= j < len(_ROWS[_o])]
        NEIGHBOURS[_ch] = "".join(near)


def draw_rates(rng) -> dict:
    return {k: float(rng.uniform(lo, hi)) for k, (lo, hi) in RANGES.items()}


def _pick(rng, options):
    return options[int(rng.integers(len(options)))] if options else None


def drop_word(v: str, kind: str, rng) -> str:
    words = v.split()
    opts = []
    if len(words) > 1:
        opts += [("word", i) for i, w in enumerate(words)
                 if _bare(w) in ARTICLES | LEGAL | GENERATIONAL]
    if kind == "people" and len(words) >= 3:
        opts += [("word", i) for i in range(1, len(words) - 1)
                 if _bare(words[i]) not in GENERATIONAL]
    if re.search(r"\S\s*\([^)]*\)", v):
        opts.append(("paren", 0))
    if "," in v and len(v.split(",")[0].strip()) >= 3:
        opts.append(("comma", 0))
    op = _pick(rng, opts)
    if op is None:
        return v
    if op[0] == "paren":
        return re.sub(r"\s*\([^)]*\)", "", v, count=1)
    if op[0] == "comma":
        return v.split(",")[0]
    out = " ".join(w for i, w in enumerate(words) if i != op[1])
    return out.rstrip(",")


def add_word(v: str, kind: str, rng) -> str:
    words = v.split()
    if kind == "people":
        if len(words) >= 2 and rng.random() < 0.7:
            initial = chr(ord("A") + int(rng.integers(26))) + "."
            return " ".join([words[0], initial] + words[1:])
        return v if _bare(words[-1]) in GENERATIONAL else v + " Jr."
    if kind == "organisations":
        if rng.random() < 0.5 and _bare(words[0]) != "the":
            return "The " + v
        return v if _bare(words[-1]) in LEGAL else v + ", Inc."
    if kind == "titles":
        m = re.search(r"\s+v\.?\s+", v)
        return v[:m.start()] + ", et al." + v[m.start():] if m else v
    return v


def abbreviate(v: str, kind: str, rng) -> str:
    words = v.split()
    opts = [i for i, w in enumerate(words) if _bare(w) in ABBREVIATIONS]
    if "United States" in v:
        opts.append(-1)
    if kind == "people" and len(words) >= 2 and words[0].isalpha() and len(words[0]) > 2:
        opts.append(-2)
    i = _pick(rng, opts)
    if i is None:
        return v
    if i == -1:
        return v.replace("United States", "U.S.", 1)
    if i == -2:
        return " ".join([words[0][0] + "."] + words[1:])
    trail = "," if words[i].endswith(",") else ""
    words[i] = ABBREVIATIONS[_bare(words[i])] + trail
    return " ".join(words)


def reorder(v: str, kind: str, rng) -> str:
    words = v.split()
    if kind == "people":
        suffix = [w for w in words if _bare(w) in GENERATIONAL]
        core = [w for w in words if _bare(w) not in GENERATIONAL]
        if len(core) < 2:
            return v
        return " ".join([core[-1] + ","] + core[:-1] + suffix)
    if kind == "organisations" and len(words) > 1 and _bare(words[0]) == "the":
        return " ".join(words[1:]) + ", The"
    if ", " in v:
        a, b = v.split(", ", 1)
        return b + " " + a
    if len(words) == 2:
        return words[1] + ", " + words[0]
    return v


def strip_accents(v: str, rng) -> str:
    if all(ord(c) < 128 for c in v):
        return v
    if rng.random() < 1 / 3:
        v = "".join(TRANSLIT.get(c, c) for c in v)
    return "".join(c for c in unicodedata.normalize("NFKD", v)
                   if not unicodedata.combining(c))


def punctuation(v: str, kind: str, rng) -> str:
    opts = []
    if "." in v:
        opts.append("periods")
    if "-" in v:
        opts += ["hyphen-space", "hyphen-spaced"]
    if "'" in v or "\u2019" in v:
        opts.append("apostrophes")
    if "," in v:
        opts.append("commas")
    if "&" in v or " and " in v:
        opts.append("and")
    if kind == "titles" and re.search(r"\sv\.\s", v):
        opts.append("versus")
    op = _pick(rng, opts)
    if op == "periods":
        return v.replace(".", "")
    if op == "hyphen-space":
        return v.replace("-", " ")
    if op == "hyphen-spaced":
        return v.replace("-", " - ", 1)
    if op == "apostrophes":
        return v.replace("'", "").replace("\u2019", "")
    if op == "commas":
        return v.replace(",", "")
    if op == "and":
        return v.replace("&", "and") if "&" in v else v.replace(" and ", " & ")
    if op == "versus":
        return re.sub(r"\sv\.\s", " vs. " if rng.random() < 0.5 else " v ", v, count=1)
    return v


def spacing(v: str, rng) -> str:
    words = v.split(" ")
    opts = [("join", i) for i in range(len(words) - 1)]
    opts += [("split", i) for i, w in enumerate(words) if len(w) >= 6 and w.isalpha()]
    op = _pick(rng, opts)
    if op is None:
        return v
    kind, i = op
    if kind == "join":
        return " ".join(words[:i] + [words[i] + words[i + 1]] + words[i + 2:])
    w = words[i]
    cut = int(rng.integers(2, len(w) - 1))
    return " ".join(words[:i] + [w[:cut], w[cut:]] + words[i + 1:])


def typos(v: str, rate: float, rng) -> str:
    letters = [i for i, c in enumerate(v) if c.isalpha()]
    if not letters:
        return v
    n = int(min(3, max(1, rng.binomial(len(letters), rate))))
    s = list(v)
    for _ in range(n):
        letters = [i for i, c in enumerate(s) if c.isalpha()]
        if len(letters) < 2:
            break
        i = letters[int(rng.integers(len(letters)))]
        op = int(rng.integers(4))
        c = s[i]
        if op == 0:                                   # a neighbouring key
            near = NEIGHBOURS.get(c.lower())
            if near:
                r = near[int(rng.integers(len(near)))]
                s[i] = r.upper() if c.isupper() else r
        elif op == 1:                                 # dropped
            del s[i]
        elif op == 2:                                 # doubled
            s.insert(i, c)
        elif i + 1 < len(s):                          # swapped with the next
            s[i], s[i + 1] = s[i + 1], s[i]
    return "".join(s)


def ocr(v: str, rng) -> str:
    for _ in range(int(rng.integers(1, 3))):
        occ = [(a, b, m.start()) for a, b in OCR for m in re.finditer(re.escape(a), v)]
        if not occ:
            break
        a, b, i = occ[int(rng.integers(len(occ)))]
        v = v[:i] + b + v[i + len(a):]
    return v


def change_case(v: str, rng) -> str:
    return (v.upper(), v.lower(), v.title())[int(rng.integers(3))]


def truncate(v: str, rng) -> str:
    if len(v) < 12:
        return v
    w = max(8, int(len(v) * rng.uniform(0.60, 0.85)))
    return v[:w].rstrip()


def noisy(v: str, kind: str, rates: dict, rng, exact: bool = True) -> tuple[str, bool]:
    """(noisy copy, whether the "exact" draw kept the clean value); ``exact=False``: no
    such draw (partnered copies: the generator picks the exact ones itself)."""
    if exact and rng.random() < rates["exact"]:
        return v, True
    steps = [
        ("drop", lambda s: drop_word(s, kind, rng)),
        ("add", lambda s: add_word(s, kind, rng)),
        ("abbreviate", lambda s: abbreviate(s, kind, rng)),
        ("reorder", lambda s: reorder(s, kind, rng)),
        ("accents", lambda s: strip_accents(s, rng)),
        ("punctuation", lambda s: punctuation(s, kind, rng)),
        ("spacing", lambda s: spacing(s, rng)),
        ("typos", lambda s: typos(s, rates["typo_rate"], rng)),
        ("ocr", lambda s: ocr(s, rng)),
        ("case", lambda s: change_case(s, rng)),
        ("truncate", lambda s: truncate(s, rng)),
    ]
    for name, op in steps:
        if rng.random() < rates[name]:
            v = op(v)
    return " ".join(v.split()), False


# ----------------------------------------------------------------------- cases

def build_case(name: str, values, kind: str, n_left: int, n_right: int):
    """(left, right, gt, stats) of one case from a list of clean values."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    rates = draw_rates(rng)
    values = clean_values(values)
    n_unmatched = int(round(n_right * rates["unmatched"]))
    n_repeat = int(round(n_right * rates["repeated"]))
    n_left = min(n_left, len(values) - n_unmatched)
    n_matched = n_right - n_unmatched - n_repeat
    if n_left < n_matched or n_left <= 0:
        raise ValueError(f"{name}: {len(values)} distinct values are too few")
    order = rng.permutation(len(values))
    left_vals = [values[i] for i in order[:n_left]]
    others = [values[i] for i in order[n_left:]]
    left_keys = {fold(v): i for i, v in enumerate(left_vals)}

    rows = []           # (title, left index or -1)
    exact = 0

    def copy_of(li, keep=False, avoid=()):
        nonlocal exact
        clean = left_vals[li]
        if keep:
            exact += 1
            return clean
        for _ in range(ATTEMPTS):
            v, _kept = noisy(clean, kind, rates, rng, exact=False)
            if v and v != clean and v not in avoid and left_keys.get(fold(v), li) == li:
                return v
        for _ in range(ATTEMPTS):                     # collision-prone: one typo only
            v = typos(clean, 0.0, rng)
            if v != clean and v not in avoid and left_keys.get(fold(v), li) == li:
                return v
        exact += 1
        return clean

    src = [int(i) for i in rng.choice(n_left, size=n_matched, replace=False)]
    kept = set(rng.choice(n_matched, size=int(round(n_matched * rates["exact"])),
                          replace=False).tolist())
    for k, li in enumerate(src):
        rows.append((copy_of(li, keep=k in kept), li))
    for li in rng.choice(src, size=n_repeat, replace=False):
        first = next(t for t, j in rows if j == li)
        rows.append((copy_of(int(li), avoid=(first,)), int(li)))

    left_groups = set().union(*(group_keys(v, kind) for v in left_vals))
    hard_pool = [v for v in others if group_keys(v, kind) & left_groups]
    easy_pool = [v for v in others if not group_keys(v, kind) & left_groups]
    hard_pool = [hard_pool[i] for i in rng.permutation(len(hard_pool))]
    easy_pool = [easy_pool[i] for i in rng.permutation(len(easy_pool))]
    n_hard = min(int(round(n_unmatched * rates["hard"])), len(hard_pool))
    queue = [(v, True) for v in hard_pool[:n_hard]] + [(v, False) for v in easy_pool] + \
        [(v, True) for v in hard_pool[n_hard:]]
    hard = 0
    taken = 0
    for v0, is_hard in queue:
        if taken == n_unmatched:
            break
        for _ in range(ATTEMPTS):
            v, _kept = noisy(v0, kind, rates, rng)
            if v and fold(v) not in left_keys:
                rows.append((v, -1))
                taken += 1
                hard += is_hard
                break
    if taken < n_unmatched:
        raise ValueError(f"{name}: only {taken} unmatched values")

    perm = rng.permutation(len(rows))
    left_ids = rng.permutation(n_left) + 1000
    left = pd.DataFrame({"id": left_ids, "title": left_vals}).sort_values("id")
    right = pd.DataFrame({"id": np.arange(len(rows)) + 500000,
                          "title": [rows[k][0] for k in perm]})
    gt = pd.DataFrame({"id_l": [int(left_ids[rows[k][1]]) for k in perm if rows[k][1] >= 0],
                       "id_r": [500000 + i for i, k in enumerate(perm) if rows[k][1] >= 0]})
    stats = {"left": n_left, "right": len(rows), "pairs": len(gt), "unmatched": taken,
             "hard": hard, "repeated": n_repeat, "exact": exact,
             "rates": {k: round(x, 3) for k, x in rates.items()}}
    return left.reset_index(drop=True), right, gt, stats


def make_case(name: str, lake: Path, iso: Path = ISO_CODES):
    split, kind, n_left, n_right, reader = CASES[name]
    values = globals()[reader](Path(lake), Path(iso))
    return build_case(name, values, kind, n_left, n_right)


def write_cases(lake: Path, out: Path, names=None, iso: Path = ISO_CODES) -> dict:
    """Write every case named (default: all); return each case's stats."""
    stats = {}
    for name in list(names or CASES):
        left, right, gt, stats[name] = make_case(name, lake, iso)
        d = Path(out) / name
        d.mkdir(parents=True, exist_ok=True)
        left.to_csv(d / "left.csv", index=False)
        right.to_csv(d / "right.csv", index=False)
        gt.to_csv(d / "gt.csv", index=False)
    return stats


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lake", required=True, help="the lakes folder (holds fivethirtyeight/)")
    ap.add_argument("--out", required=True, help="folder to write the cases into")
    ap.add_argument("--iso-codes", default=str(ISO_CODES),
                    help="iso-codes' json folder (holds iso_3166-2.json)")
    ap.add_argument("--cases", default="", help="comma-separated names (default: all)")
    a = ap.parse_args(argv)
    names = [c for c in a.cases.split(",") if c] or None
    stats = write_cases(Path(a.lake), Path(a.out), names, Path(a.iso_codes))
    print("| case | split | kind | left | right | gt pairs | unmatched | hard negatives "
          "| repeated | exact copies |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n, s in stats.items():
        print(f"| {n} | {CASES[n][0]} | {CASES[n][1]} | {s['left']:,} | {s['right']:,} | "
              f"{s['pairs']:,} | {s['unmatched']:,} ({s['unmatched'] / s['right']:.0%}) | "
              f"{s['hard']:,} | {s['repeated']:,} | {s['exact']:,} "
              f"({s['exact'] / max(1, s['pairs']):.1%}) |")


if __name__ == "__main__":
    main()
