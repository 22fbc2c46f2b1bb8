"""Single-column record-linkage cases for the fuzzy join, made from clean real name lists.

Each case takes the distinct values of one column of a real table (people, places,
products), samples ``left`` from them (the reference table: one row per entity), and makes
``right`` from noisy copies: most of them of left values (their partners), some of values
NOT in left (no partner: a correct join leaves them unjoined), a few left values twice with
different noise. The noise is what such lists carry in practice: keyboard typos (a key
next to the intended one, a dropped, doubled or swapped letter), abbreviations
("Department" -> "Dept.", "Robert" -> "R."), dropped middle names or ranks, reordered
"Last, First", changed case and punctuation. Everything is drawn from a generator seeded per
case, so the files are the same on every run.

    python bench/fuzzyjoin_cases.py --lake /work/shared/data/lakes --out /tmp/fj-cases

writes ``OUT/<case>/{left,right,gt}.csv`` in autofj's layout (``id,title``; ``id_l,id_r``).
``CASES`` also fixes each case's split (``dev``: may be looked at while tuning the fuzzy
join; ``validation``: only reported), chosen before any tuning.
"""
from __future__ import annotations

import argparse
import re
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

# name -> (split, kind, n_left, n_right, source reader name)
CASES = {
    "rl-baseball-players": ("dev", "people", 5000, 2000, "baseball_players"),
    "rl-police-departments": ("dev", "places", 5000, 2000, "police_departments"),
    "rl-rock-songs": ("dev", "products", 1800, 1000, "rock_songs"),
    "rl-congress-members": ("dev", "people", 2600, 1200, "congress_members"),
    "rl-police-officers": ("validation", "ranked", 5000, 2000, "police_officers"),
    "rl-marvel-characters": ("validation", "people", 5000, 2000, "marvel_characters"),
    "rl-dc-characters": ("validation", "people", 5000, 2000, "dc_characters"),
    "rl-nba-players": ("validation", "people", 3000, 1500, "nba_players"),
    "rl-street-addresses": ("validation", "places", 380, 250, "street_addresses"),
}
UNMATCHED = 0.15      # share of right values whose entity is not in left
REPEATED = 0.08       # share of right values that are a second noisy copy of a left value


# ----------------------------------------------------------------------- clean lists

def _col(lake: Path, rel: str, col: str, **kw) -> pd.Series:
    return pd.read_csv(lake / "fivethirtyeight" / rel, **kw)[col]


def baseball_players(lake):
    return _col(lake, "goose/goose_rawdata.csv", "name")


def police_departments(lake):
    return _col(lake, "police-deaths/all_data.csv", "dept")


def police_officers(lake):
    return _col(lake, "police-deaths/all_data.csv", "person")


def rock_songs(lake):
    return _col(lake, "classic-rock/classic-rock-song-list.csv", "COMBINED")


def congress_members(lake):
    c = pd.read_csv(lake / "fivethirtyeight" / "congress-age/congress-terms.csv")
    parts = [c[k].fillna("").astype(str) for k in ("firstname", "middlename", "lastname")]
    name = (parts[0] + " " + parts[1] + " " + parts[2]).str.split().str.join(" ")
    suffix = c["suffix"].fillna("").astype(str)
    return name.where(suffix == "", name + " " + suffix)


def _characters(lake, file):
    s = _col(lake, f"comic-characters/{file}", "name").astype(str)
    return s.str.replace(r"\s*\([^)]*\)\s*$", "", regex=True)   # "(Earth-616)"


def marvel_characters(lake):
    return _characters(lake, "marvel-wikia-data.csv")


def dc_characters(lake):
    return _characters(lake, "dc-wikia-data.csv")


def nba_players(lake):
    return _col(lake, "nba-raptor/historical_RAPTOR_by_player.csv", "player_name")


def street_addresses(lake):
    p = pd.read_csv(lake / "fivethirtyeight" / "police-killings/police_killings.csv",
                    encoding="latin-1")
    return p["streetaddress"].astype(str) + ", " + p["city"].astype(str) + ", " + p["state"]


# ----------------------------------------------------------------------- noise

_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
_NEAR = {}
for _r, _row in enumerate(_ROWS):
    for _i, _c in enumerate(_row):
        near = [_row[j] for j in (_i - 1, _i + 1) if 0 <= j < len(_row)]
        for rr in (_r - 1, _r + 1):
            if 0 <= rr < len(_ROWS):
                near += [_ROWS[rr][j] for j in (_i - 1, _i, _i + 1) if 0 <= j < len(_ROWS[rr])]
        _NEAR[_c] = near

ABBREVIATIONS = [  # (full, short) word pairs seen in lists of people, places, products
    ("Department", "Dept."), ("County", "Co."), ("Sheriff's", "Sheriffs"),
    ("Police Department", "PD"), ("Office", "Ofc."), ("Saint", "St."), ("Street", "St"),
    ("Avenue", "Ave"), ("Ave", "Avenue"), ("St", "Street"), ("Dr", "Drive"), ("Rd", "Road"),
    ("Blvd", "Boulevard"), ("and", "&"), ("&", "and"), ("Patrolman", "Ptl."),
    ("Sergeant", "Sgt."), ("Deputy Sheriff", "Deputy"), ("Lieutenant", "Lt."),
    ("Detective", "Det."), ("Officer", "Ofc."), ("Captain", "Capt."), ("Corporal", "Cpl."),
    ("Trooper", "Tpr."), ("Junior", "Jr."), ("Jr.", "Jr"), ("Doctor", "Dr."),
    ("Mount", "Mt."), ("Fort", "Ft."), ("North", "N."), ("South", "S."), ("East", "E."),
    ("West", "W."), ("Highway", "Hwy"), ("Patrol", "Ptl"), ("State", "St."),
    ("Public Safety", "Pub. Safety"), ("Captain", "Cap."),
]
RANKS = re.compile(r"^(?:(?:Police|Deputy|Special|Chief|Patrol|Correctional|Corrections|City|"
                   r"Town|Night|Reserve|Game|Federal|Private|K9)\s+)*(?:Patrolman|Officer|"
                   r"Sheriff|Sergeant|Detective|Trooper|Agent|Constable|Lieutenant|Corporal|"
                   r"Captain|Marshal|Policeman|Investigator|Guard|Warden|of Police|Deputy)\s+")


def typo(s: str, rng) -> str:
    """One keyboard typo at a letter: a neighbouring key, a dropped, doubled or swapped
    letter."""
    pos = [i for i, c in enumerate(s) if c.isalpha()]
    if not pos:
        return s
    i = pos[rng.integers(len(pos))]
    c = s[i]
    kind = rng.choice(["near", "drop", "double", "swap"], p=[0.35, 0.25, 0.15, 0.25])
    if kind == "near" and c.lower() in _NEAR:
        n = _NEAR[c.lower()][rng.integers(len(_NEAR[c.lower()]))]
        return s[:i] + (n.upper() if c.isupper() else n) + s[i + 1:]
    if kind == "drop" and len(s) > 3:
        return s[:i] + s[i + 1:]
    if kind == "double":
        return s[:i] + c + s[i:]
    if kind == "swap" and i + 1 < len(s) and s[i + 1] != " ":
        return s[:i] + s[i + 1] + c + s[i + 2:]
    return s[:i] + s[i + 1:] if len(s) > 3 else s


def variant(s: str, kind: str, rng) -> str:
    """One variant of the spelling, of the kinds lists of ``kind`` carry."""
    ops = ["abbrev", "case", "punct"]
    if kind == "people":
        ops += ["initial", "drop_middle", "last_first"]
    if kind == "ranked":                                      # "Patrolman Robert L. Smith"
        ops += ["initial", "drop_middle", "drop_rank"]
    if kind == "products":
        ops += ["drop_the", "dash"]
    if kind == "places":
        ops += ["drop_tail"]
    for op in rng.permutation(ops):
        out = _variant(s, op, rng)
        if out != s and out.strip():
            return out
    return s


def _variant(s, op, rng):
    words = s.split()
    if op == "abbrev":
        hits = [(a, b) for a, b in ABBREVIATIONS if re.search(rf"(?<!\w){re.escape(a)}(?!\w)", s)]
        if hits:
            a, b = hits[rng.integers(len(hits))]
            return re.sub(rf"(?<!\w){re.escape(a)}(?!\w)", b, s, count=1)
        return s
    if op == "case":
        return s.upper() if rng.random() < 0.5 else s.lower()
    if op == "punct":
        return re.sub(r"\s+", " ", re.sub(r"[.,'\-]", lambda m: "" if m.group() != "-" else " ", s)).strip()
    if op == "initial" and len(words) >= 2:                 # "Robert L. Smith" -> "R. L. Smith"
        i = 0 if not RANKS.match(s) else min(len(words) - 2, len(RANKS.match(s).group().split()))
        if len(words[i]) > 2 and words[i][0].isalpha():
            words[i] = words[i][0] + "."
            return " ".join(words)
        return s
    if op == "drop_middle" and len(words) >= 3:
        mid = [i for i in range(1, len(words) - 1) if len(words[i].strip(".")) <= 2]
        if mid:
            del words[mid[rng.integers(len(mid))]]
            return " ".join(words)
        return s
    if op == "last_first" and len(words) >= 2 and not RANKS.match(s):
        last = words[-1]
        if last.rstrip(".").lower() in ("jr", "sr", "ii", "iii", "iv") and len(words) >= 3:
            return f"{words[-2]}, {' '.join(words[:-2])} {last}"
        return f"{last}, {' '.join(words[:-1])}"
    if op == "drop_rank":
        m = RANKS.match(s)
        return s[m.end():] if m and m.end() < len(s) else s
    if op == "drop_the":
        return s[4:] if s.lower().startswith("the ") else s
    if op == "dash":
        return s.replace(" by ", " - ", 1)
    if op == "drop_tail":                                     # ", FL" / ", Pineville, LA"
        i = s.rfind(", ")
        return s[:i] if i > 0 else s
    return s


TYPO_RATE = 0.035     # typos per letter (at most 2 per value)


def noisy(s: str, kind: str, rng) -> str:
    """A noisy copy: with probability 0.6 a spelling variant, then typos (about one per 30
    letters, at most 2); a value left unchanged by both gets one typo half the time."""
    out = s
    if rng.random() < 0.6:
        out = variant(out, kind, rng)
    n_typos = min(2, int(rng.binomial(len(s), TYPO_RATE)))
    if out == s and n_typos == 0 and rng.random() < 0.5:
        n_typos = 1
    for _ in range(n_typos):
        out = typo(out, rng)
    return out


# ----------------------------------------------------------------------- cases

def clean_values(series: pd.Series) -> list[str]:
    s = series.dropna().astype(str).str.split().str.join(" ")
    s = s[s.str.len() >= 3]
    return sorted(set(s))


def make_case(name: str, lake: Path):
    """(left, right, gt) DataFrames of one case."""
    split, kind, n_left, n_right, reader = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    values = clean_values(globals()[reader](Path(lake)))
    order = rng.permutation(len(values))
    n_left = min(n_left, len(values) - int(n_right * UNMATCHED))
    left_vals = [values[i] for i in order[:n_left]]
    others = [values[i] for i in order[n_left:]]
    n_unmatched = min(int(round(n_right * UNMATCHED)), len(others))
    n_repeat = int(round(n_right * REPEATED))
    n_matched = n_right - n_unmatched - n_repeat
    src = list(rng.choice(n_left, size=n_matched, replace=False))
    src += list(rng.choice(src, size=n_repeat, replace=False))
    left_set = set(left_vals)
    rows = []
    for li in src:
        v = noisy(left_vals[li], kind, rng)
        if v in left_set and v != left_vals[li]:      # noise landed on another entity
            v = left_vals[li]
        rows.append((v, int(li)))
    for j in rng.choice(len(others), size=n_unmatched, replace=False):
        v = noisy(others[j], kind, rng)
        rows.append((v if v not in left_set else others[j], -1))
    perm = rng.permutation(len(rows))
    left_ids = rng.permutation(n_left) + 1000
    left = pd.DataFrame({"id": left_ids, "title": left_vals}).sort_values("id")
    right = pd.DataFrame({"id": np.arange(len(rows)) + 500000,
                          "title": [rows[k][0] for k in perm]})
    gt = pd.DataFrame({"id_l": [int(left_ids[rows[k][1]]) for k in perm if rows[k][1] >= 0],
                       "id_r": [500000 + i for i, k in enumerate(perm) if rows[k][1] >= 0]})
    return left.reset_index(drop=True), right, gt


def write_cases(lake: Path, out: Path, names=None) -> list[str]:
    names = list(names or CASES)
    for name in names:
        left, right, gt = make_case(name, lake)
        d = Path(out) / name
        d.mkdir(parents=True, exist_ok=True)
        left.to_csv(d / "left.csv", index=False)
        right.to_csv(d / "right.csv", index=False)
        gt.to_csv(d / "gt.csv", index=False)
    return names


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lake", required=True, help="the lakes folder (holds fivethirtyeight/)")
    ap.add_argument("--out", required=True, help="folder to write the cases into")
    ap.add_argument("--cases", default="", help="comma-separated names (default: all)")
    a = ap.parse_args(argv)
    names = write_cases(Path(a.lake), Path(a.out), [c for c in a.cases.split(",") if c] or None)
    for n in names:
        d = Path(a.out) / n
        l, r, g = (pd.read_csv(d / f) for f in ("left.csv", "right.csv", "gt.csv"))
        print(f"{n:24s} {CASES[n][0]:10s} left {len(l):5d} right {len(r):5d} "
              f"pairs {len(g):5d}  e.g. {g.merge(l, left_on='id_l', right_on='id').merge(r, left_on='id_r', right_on='id')[['title_x', 'title_y']].head(3).values.tolist()}")


if __name__ == "__main__":
    main()
