"""Single-column record-linkage cases with natural variants, for the fuzzy join (suite fresh1).

Each case pairs two real, independently written name lists installed on this machine that
carry the same explicit key (an ISO code): ``left`` takes one source's name per key (the
reference table), ``right`` another source's names for the keys. A right row's partner is
the left row with its key; rows whose key is not in left (held out by a seeded draw, or
absent from the reference source) have none. No title is altered and no string similarity
is used: the key alone decides the truth. The admission criteria are fixed in
bench/results/fuzzyjoin_fresh1_cases.md (also summarised in ``CRITERIA`` below).

    python bench/fuzzyjoin_fresh_cases.py --out bench/data/fuzzyjoin-fresh1

writes ``OUT/<case>/{left,right,gt}.csv`` in autofj's layout (``id,title``; ``id_l,id_r``)
and prints per case the counts and the hand-check samples (``--check`` pairs and unmatched
rows). Sources: Debian's iso-codes (/usr/share/iso-codes/json), the Unicode CLDR English
names shipped with Babel, glibc's locale definitions (/usr/share/i18n/locales) and the tz
database's country table (/usr/share/zoneinfo/iso3166.tab).
"""
from __future__ import annotations

import argparse
import json
import re
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

CRITERIA = """\
1 sources: files installed on this machine, left and right from different producers,
  titles as written (only surrounding whitespace stripped), no noise generator;
2 key: an identifier both sources carry (an ISO code), never derived from the titles;
3 left: one row per key; keys whose folded title (case folding, whitespace collapsed) is
  shared with another key are all dropped;
4 right: dropped when equal to its partner after folding (counted), a repeated
  (key, folded title), an unmatched title equal to any left title after folding, a
  matched title equal to another key's left title after folding;
5 unmatched rights: key absent from left (held out by a seeded draw, or absent from the
  reference source), 10-50 % of right; left also holds keys without a right partner;
6 sizes: left 200-5,000, right 80-2,000 (seeded sampling, keys with a partner first for
  left); 4-6 cases; at most 3 MB; a candidate that cannot reach them is rejected;
7 hand check: 30 random pairs and 30 random unmatched rows read per case; more than 2 of
  30 wrong pairs, or more than 2 of 30 unmatched rows plainly present in left, rejects
  the case; so do pairs that are more than 80 % one mechanical rewrite;
8 deterministic: fixed seeds over sorted inputs; every case is split validation."""

ISO = Path("/usr/share/iso-codes/json")
LOCALES = Path("/usr/share/i18n/locales")
TZ_COUNTRIES = Path("/usr/share/zoneinfo/iso3166.tab")

HOLDOUT = 0.2        # share of the keys with a right partner held out of left
MAX_LEFT, MAX_RIGHT = 5000, 2000


def fold(s: str) -> str:
    return " ".join(str(s).casefold().split())


# ----------------------------------------------------------------------------- sources

def iso(part: str) -> list[dict]:
    return json.loads((ISO / f"iso_{part}.json").read_text(encoding="utf-8"))[part]


def cldr(kind: str) -> dict[str, str]:
    """CLDR's English display names (Babel's locale data): territories, languages,
    scripts or currencies, by code."""
    from babel import Locale
    return dict(getattr(Locale("en"), kind))


def _unescape(s: str) -> str:
    return re.sub(r"<U([0-9A-Fa-f]{4,6})>", lambda m: chr(int(m.group(1), 16)), s)


def glibc_locales() -> list[dict]:
    """Per glibc locale file: its English ``language`` and ``territory`` names
    (LC_IDENTIFICATION) and its codes (LC_ADDRESS ``country_ab2``, ``lang_term``,
    ``lang_ab``), where the file states them itself."""
    out = []
    for f in sorted(LOCALES.iterdir()):
        if not f.is_file():
            continue
        text = f.read_text(encoding="utf-8", errors="replace")
        row = {"file": f.name}
        for k in ("language", "territory", "country_ab2", "lang_term", "lang_ab"):
            m = re.search(rf'^{k}\s+"([^"]*)"', text, re.M)
            if m:
                row[k] = _unescape(m.group(1)).strip()
        out.append(row)
    return out


def tz_country_names() -> dict[str, str]:
    out = {}
    for line in TZ_COUNTRIES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            code, name = line.split("\t")[:2]
            out[code] = name.strip()
    return out


# ------------------------------------------------------------------------- case makers

def countries():
    """left: CLDR English territory names by ISO 3166 / UN M49 code; right: ISO 3166-1's
    short, official and common names (iso-codes), the tz database's country names and
    glibc's locale territory names, by alpha-2 code."""
    left = cldr("territories")
    right = []
    for c in iso("3166-1"):
        for f in ("name", "official_name", "common_name"):
            if c.get(f):
                right.append((c["alpha_2"], c[f], f"iso3166-1.{f}"))
    right += [(k, v, "tz iso3166.tab") for k, v in tz_country_names().items()]
    right += [(r["country_ab2"], r["territory"], "glibc territory") for r in glibc_locales()
              if r.get("country_ab2") and r.get("territory")]
    return left, right


def currencies():
    """left: CLDR English currency names (current and historic) by ISO 4217 code; right:
    ISO 4217's names (iso-codes)."""
    return cldr("currencies"), [(c["alpha_3"], c["name"], "iso4217") for c in iso("4217")]


def _iso639_3_code(code: str, a2: dict[str, str], a3: set[str]) -> str | None:
    if len(code) == 2:
        return a2.get(code)
    if len(code) == 3 and code.isalpha():
        return code
    return None                     # regional or script variants (en_AU, zh_Hant): skipped


def languages(glibc: bool = True):
    """left: ISO 639-3 reference names (SIL, iso-codes) by code; right: CLDR English
    language names and (``glibc``) glibc's locale language names, by ISO 639 code (639-1
    codes mapped through 639-3's own alpha_2 column)."""
    recs = iso("639-3")
    left = {r["alpha_3"]: r["name"] for r in recs}
    a2 = {r["alpha_2"]: r["alpha_3"] for r in recs if "alpha_2" in r}
    right = []
    for code, name in cldr("languages").items():
        k = _iso639_3_code(code, a2, set(left))
        if k:
            right.append((k, name, "cldr"))
    for r in glibc_locales() if glibc else []:
        k = r.get("lang_term") or (a2.get(r["lang_ab"]) if r.get("lang_ab") else None)
        if k and r.get("language"):
            right.append((k, r["language"], "glibc language"))
    return left, right


def language_groups():
    """left: ISO 639-2 names (Library of Congress, iso-codes) by alpha-3 code, individual
    languages and collective groups; right: ISO 639-3 reference names (SIL) of the same
    codes, and ISO 639-5 names of language families and groups (their codes absent from
    639-2 have no partner)."""
    left = {r["alpha_3"]: r["name"] for r in iso("639-2")}
    right = [(r["alpha_3"], r["name"], "iso639-3") for r in iso("639-3")
             if r["alpha_3"] in left]
    right += [(r["alpha_3"], r["name"], "iso639-5") for r in iso("639-5")]
    return left, right


def scripts():
    """left: CLDR English script names by ISO 15924 code; right: ISO 15924's names
    (iso-codes)."""
    return cldr("scripts"), [(s["alpha_4"], s["name"], "iso15924") for s in iso("15924")]


def languages_cldr():
    """As :func:`languages` with CLDR's names only (no glibc)."""
    return languages(glibc=False)


CASES = {
    "fresh-countries": countries,
    "fresh-currencies": currencies,
    "fresh-language-groups": language_groups,
    "fresh-languages-cldr": languages_cldr,
}
# Candidates built and rejected by CRITERIA (kept so the rejection can be reproduced with
# --cases): scripts, right below 80 rows (6); languages, glibc's names of regional varieties
# ("Austrian German" for German) made 4 of 30 checked pairs wrong (7).
REJECTED = {
    "fresh-scripts": scripts,
    "fresh-languages": languages,
}


# ------------------------------------------------------------------------------ assembly

def build(name: str, left_map: dict, right_rows: list, holdout: float = HOLDOUT):
    """(left, right, gt, stats) from a key -> title map and (key, title, source) rows,
    following CRITERIA 3-6."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    stats = {}
    lmap = {str(k): str(v).strip() for k, v in left_map.items() if str(v).strip()}
    by_fold: dict[str, list] = {}
    for k, v in lmap.items():
        by_fold.setdefault(fold(v), []).append(k)
    collide = {k for ks in by_fold.values() if len(ks) > 1 for k in ks}
    stats["left_key_collisions"] = len(collide)
    lmap = {k: v for k, v in sorted(lmap.items()) if k not in collide}

    seen, rows, exact = set(), [], 0
    for k, t, src in sorted(right_rows, key=lambda r: (str(r[0]), str(r[1]).strip(), r[2])):
        k, t = str(k), str(t).strip()
        if not t or (k, fold(t)) in seen:
            continue
        seen.add((k, fold(t)))
        if k in lmap and fold(t) == fold(lmap[k]):
            exact += 1
            continue
        rows.append((k, t, src))
    stats["removed_exact"] = exact

    partnered = sorted({k for k, _, _ in rows if k in lmap})
    held = set(rng.permutation(partnered)[:int(round(holdout * len(partnered)))].tolist())
    stats["held_out_keys"] = len(held)
    lmap = {k: v for k, v in lmap.items() if k not in held}
    lfold = {fold(v): k for k, v in lmap.items()}
    kept, amb = [], 0
    for k, t, src in rows:
        owner = lfold.get(fold(t))
        if owner is not None and owner != k:
            amb += 1            # equal to another (or, unmatched, to any) left title
            continue
        kept.append((k, t, src))
    stats["removed_equal_to_other_left"] = amb

    if len(kept) > MAX_RIGHT:
        kept = [kept[i] for i in sorted(rng.choice(len(kept), MAX_RIGHT, replace=False))]
    need = sorted({k for k, _, _ in kept if k in lmap})
    if len(lmap) > MAX_LEFT:
        rest = sorted(set(lmap) - set(need))
        fill = rng.permutation(rest)[:MAX_LEFT - len(need)].tolist()
        lmap = {k: lmap[k] for k in sorted(set(need) | set(fill))}

    lkeys = rng.permutation(sorted(lmap)).tolist()
    left = pd.DataFrame({"id": range(len(lkeys)), "title": [lmap[k] for k in lkeys]})
    lid = {k: i for i, k in enumerate(lkeys)}
    order = rng.permutation(len(kept))
    kept = [kept[i] for i in order]
    right = pd.DataFrame({"id": range(len(kept)), "title": [t for _, t, _ in kept]})
    gt = pd.DataFrame([(lid[k], i) for i, (k, _, _) in enumerate(kept) if k in lid],
                      columns=["id_l", "id_r"])
    meta = pd.DataFrame({"id_r": range(len(kept)), "key": [k for k, _, _ in kept],
                         "source": [s for _, _, s in kept]})
    stats.update(left=len(left), right=len(right), pairs=len(gt),
                 unmatched=len(right) - len(gt))
    return left, right, gt, meta, stats


def make_case(name: str):
    left_map, right_rows = {**CASES, **REJECTED}[name]()
    return build(name, left_map, right_rows)


def write_cases(out: Path, names=None, check: int = 0) -> dict:
    allstats = {}
    for name in names or CASES:
        left, right, gt, meta, stats = make_case(name)
        d = Path(out) / name
        d.mkdir(parents=True, exist_ok=True)
        left.to_csv(d / "left.csv", index=False)
        right.to_csv(d / "right.csv", index=False)
        gt.to_csv(d / "gt.csv", index=False)
        allstats[name] = stats
        print(name, stats)
        if check:
            show_check(name, left, right, gt, meta, check)
    return allstats


def show_check(name, left, right, gt, meta, n):
    """Print ``n`` random gt pairs and ``n`` random unmatched right rows (the hand check)."""
    rng = np.random.default_rng(zlib.crc32(("check " + name).encode()))
    lt = dict(zip(left["id"], left["title"]))
    rt = dict(zip(right["id"], right["title"]))
    key = dict(zip(meta["id_r"], meta["key"]))
    src = dict(zip(meta["id_r"], meta["source"]))
    print(f"--- {name}: {n} random pairs (key, left | right, source)")
    for i in sorted(rng.choice(len(gt), min(n, len(gt)), replace=False)):
        a, b = gt.iloc[i]
        print(f"  {key[b]:>5}  {lt[a]!r:45} | {rt[b]!r}  [{src[b]}]")
    un = sorted(set(right["id"]) - set(gt["id_r"]))
    print(f"--- {name}: {n} random unmatched right rows (key, title, source)")
    for i in sorted(rng.choice(len(un), min(n, len(un)), replace=False)):
        b = un[i]
        print(f"  {key[b]:>5}  {rt[b]!r}  [{src[b]}]")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="folder to write the cases into")
    ap.add_argument("--cases", default="", help="comma-separated names (default: all)")
    ap.add_argument("--check", type=int, default=0,
                    help="print this many random pairs and unmatched rows per case")
    a = ap.parse_args(argv)
    write_cases(Path(a.out), [c for c in a.cases.split(",") if c] or None, a.check)


if __name__ == "__main__":
    main()
