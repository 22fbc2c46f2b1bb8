"""Auto-Join stress cases by *format family*, made from real key columns of the lake.

    python bench/autojoin_families.py path/to/lakes /tmp/ajgen/families
    python bench/autojoin_eval.py /tmp/ajgen/families/dev          # tune on this only
    python bench/autojoin_eval.py /tmp/ajgen/families/validation   # the headline

For each family of transformation used in practice (dates between common formats, person
names, codes with prefixes / suffixes / zero padding, labelled numbers, parts of longer
values, abbreviations, case / punctuation / whitespace, slugs / URLs / file names, keys
over several columns, larger tables) several real columns of the lake (fivethirtyeight and
reference) are rewritten into a source and a target table, 1:1 or N:1, with unmatched rows on both
sides. The ground truth comes from the rows' identity (the entity a row was made from),
never from a transformation program. Everything is seeded: the output is the same on every
run.

The development / validation split is fixed here, by source column: every source of a
family is marked "dev" or "val" where its family function lists it (decided when the
sources were listed, before any learner ran on them; the scale family came later, under
the same rule). Cases go to ``OUT/dev/`` or ``OUT/validation/``. Tune on
dev only; report validation. These cases are for development: none is a clean figure for
the bench sets of bench/autojoin_eval.py.
"""
from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import random
import re
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from autojoin_make_cases import _write  # noqa: E402  (one case writer for both makers)

SEED = 26
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def _read(lake: Path, rel: str) -> pd.DataFrame:
    path = lake / rel
    if not path.exists():
        sys.exit(f"{path} is missing: pass the lake folder holding fivethirtyeight/ and reference/")
    return pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")


def _rng(*key) -> random.Random:
    return random.Random(int(hashlib.sha256(repr((SEED,) + key).encode()).hexdigest(), 16))


# ------------------------------------------------------------------ real values

def _dates(lake, which):
    """Distinct real dates of one table column."""
    if which == "births":
        t = _read(lake, "fivethirtyeight/births/US_births_2000-2014_SSA.csv")
        out = [dt.date(int(y), int(m), int(d)) for y, m, d in zip(t.year, t.month, t.date_of_month)]
    elif which == "congress_birthday":
        t = _read(lake, "fivethirtyeight/congress-age/congress-terms.csv")
        out = [dt.date.fromisoformat(v) for v in t.birthday if re.fullmatch(r"\d{4}-\d\d-\d\d", v)]
    elif which == "cabinet_start":
        t = _read(lake, "fivethirtyeight/cabinet-turnover/cabinet-turnover.csv")
        out = []
        for v in t.start_date:
            m = re.fullmatch(r"(\d+)/(\d+)/(\d\d)", v)
            if m:
                y = int(m[3])
                out.append(dt.date(1900 + y if y > 30 else 2000 + y, int(m[1]), int(m[2])))
    elif which == "weather":
        t = _read(lake, "fivethirtyeight/us-weather-history/KSEA.csv")
        out = [dt.date(*map(int, v.split("-"))) for v in t.date]
    elif which == "impeachment_start":
        t = _read(lake, "fivethirtyeight/impeachment-polls/impeachment_polls.csv")
        out = []
        for v in t.Start:
            m = re.fullmatch(r"(\d+)/(\d+)/(\d{4})", v)
            if m:
                out.append(dt.date(int(m[3]), int(m[1]), int(m[2])))
    else:
        raise ValueError(which)
    return list(dict.fromkeys(out))


def _names(lake, which):
    """Distinct real person names of 2-3 words (first ... last)."""
    if which == "nba_tattoos":
        vals = _read(lake, "fivethirtyeight/nba-tattoos/nba-tattoos-data.csv")["Player Name"]
    elif which == "cabinet":
        vals = _read(lake, "fivethirtyeight/cabinet-turnover/cabinet-turnover.csv").appointee
    elif which == "goose":
        vals = _read(lake, "fivethirtyeight/goose/goose_rawdata.csv").name
    elif which == "congress":
        t = _read(lake, "fivethirtyeight/congress-age/congress-terms.csv")
        vals = [f"{a} {b}" for a, b in zip(t.firstname, t.lastname)]
    elif which == "nba_draft":
        vals = _read(lake, "fivethirtyeight/nba-draft-2015/historical_projections.csv").Player
    else:
        raise ValueError(which)
    out = [" ".join(v.split()) for v in vals
           if re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z'\-]+){1,2}", " ".join(v.split()))]
    return list(dict.fromkeys(out))


STATES = None


def _states(lake):
    global STATES
    if STATES is None:
        t = _read(lake, "fivethirtyeight/gop-delegate-benchmarks-2024/delegate_targets.csv")
        STATES = dict(zip(t.state_name, t.state_abb))
    return STATES


def _column(lake, rel, col, pattern=r".+"):
    vals = [" ".join(v.split()) for v in _read(lake, rel)[col]]
    return list(dict.fromkeys(v for v in vals if re.fullmatch(pattern, v)))


# ------------------------------------------------------------------ formats

DATE_FORMATS = {
    "iso": lambda d: d.isoformat(),
    "iso_nopad": lambda d: f"{d.year}-{d.month}-{d.day}",
    "mdyyyy": lambda d: f"{d.month}/{d.day}/{d.year}",
    "mmddyyyy": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year}",
    "mdyy": lambda d: f"{d.month}/{d.day}/{d.year % 100:02d}",
    "dmonyyyy": lambda d: f"{d.day} {MONTHS[d.month - 1][:3]} {d.year}",
    "monthdyyyy": lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}",
    "yyyymmdd": lambda d: f"{d.year}{d.month:02d}{d.day:02d}",
    "ddmmyyyy_dot": lambda d: f"{d.day:02d}.{d.month:02d}.{d.year}",
}
DATE_PAIRS = [("mdyyyy", "iso"), ("iso", "mdyy"), ("mmddyyyy", "iso_nopad"), ("iso", "dmonyyyy"),
              ("monthdyyyy", "iso"), ("yyyymmdd", "mdyyyy"), ("mdyy", "iso"),
              ("dmonyyyy", "mmddyyyy"), ("ddmmyyyy_dot", "iso"), ("iso", "yyyymmdd")]


def _name_parts(n):
    w = n.split()
    return w[0], w[-1]


NAME_FORMATS = {
    "last_first": lambda n: f"{_name_parts(n)[1]}, {_name_parts(n)[0]}",
    "initial_last": lambda n: f"{n[0]}. {_name_parts(n)[1]}",
    "email": lambda n: f"{_name_parts(n)[0].lower()}.{_name_parts(n)[1].lower()}@example.org",
    "username": lambda n: (n[0] + _name_parts(n)[1]).lower().replace("'", ""),
    "upper_last_first": lambda n: f"{_name_parts(n)[1].upper()} {_name_parts(n)[0]}",
    "last_underscore_first": lambda n: f"{_name_parts(n)[1].lower()}_{_name_parts(n)[0].lower()}",
}


# ------------------------------------------------------------------ cases

def _make(out, name, entities, src_cols, tgt_cols, rng, n=120, fanout=1, src_names=None,
          tgt_names=None):
    """A case from ``entities`` (distinct): ``src_cols`` / ``tgt_cols`` are functions entity
    -> cell; the source holds ``fanout`` rows per entity (N:1 when > 1, told apart by a
    row number column), the target one; about 85 % of entities on each side, 10 % extra
    rows on the target."""
    ents = list(entities)
    rng.shuffle(ents)
    ents = ents[: n + n // 5]
    src_e = [e for e in ents if rng.random() < 0.88][:n]
    tgt_e = [e for e in ents if e not in set(src_e) or rng.random() < 0.88]
    src_rows, tgt_rows, pairs, seen_s, seen_t = [], [], [], set(), set()
    tpos = {}
    for e in tgt_e:
        row = tuple(f(e) for f in tgt_cols)
        if row[0] in seen_t:
            continue
        seen_t.add(row[0])
        tpos[e] = len(tgt_rows)
        tgt_rows.append(row + (str(rng.randint(1, 999)),))
    for e in src_e:
        for k in range(fanout):
            row = tuple(f(e) for f in src_cols)
            if fanout > 1:
                row += (str(rng.randint(1, 99999)),)
            if row in seen_s:
                continue
            seen_s.add(row)
            if e in tpos:
                pairs.append((len(src_rows), tpos[e]))
            src_rows.append(row)
    sn = list(src_names or [f"s{i}" for i in range(len(src_cols))]) + (["ticket"] if fanout > 1 else [])
    tn = list(tgt_names or [f"t{i}" for i in range(len(tgt_cols))]) + ["count"]
    src = pd.DataFrame(src_rows, columns=sn)
    tgt = pd.DataFrame(tgt_rows, columns=tn)
    return _write(out, name, src, tgt, pairs)


ROTATE = {"births": 0, "congress_birthday": 1, "cabinet_start": 0, "weather": 1,
          "impeachment_start": 0}    # each source gets every other format pair


def family_dates(lake):
    for which, split in [("births", "dev"), ("congress_birthday", "dev"),
                         ("cabinet_start", "val"), ("weather", "val"),
                         ("impeachment_start", "val")]:
        ds = _dates(lake, which)
        for a, b in DATE_PAIRS[ROTATE[which]::2]:
            if True:
                yield split, f"dates_{which}_{a}_to_{b}", dict(
                    entities=ds, src_cols=[DATE_FORMATS[a]], tgt_cols=[DATE_FORMATS[b]],
                    src_names=["date"], tgt_names=["day"],
                    fanout=3 if _pick(which + a + b + "n1", 30) else 1)


def family_names(lake):
    for which, split in [("nba_tattoos", "dev"), ("goose", "dev"), ("cabinet", "val"),
                         ("congress", "val"), ("nba_draft", "val")]:
        ns = _names(lake, which)
        for f in NAME_FORMATS:
            if _pick(which + f, 50):
                yield split, f"names_{which}_to_{f}", dict(
                    entities=ns, src_cols=[lambda e: e], tgt_cols=[NAME_FORMATS[f]],
                    src_names=["name"], tgt_names=["person"])


def family_codes(lake):
    majors = _column(lake, "fivethirtyeight/college-majors/majors-list.csv", "FOD1P", r"\d{4}")
    teams = _column(lake, "fivethirtyeight/march-madness-predictions/bracket-00.csv", "team_id", r"\d+")
    fips = [v for v in _column(lake, "fivethirtyeight/infrastructure-jobs/payroll-states.csv",
                               "state_code", r"\d+")]
    bioguide = _column(lake, "fivethirtyeight/congress-age/congress-terms.csv", "bioguide", r"[A-Z]\d{6}")
    m49 = _column(lake, "reference/unsd-m49-en.csv", "M49 Code", r"\d+")
    variants = {
        "prefix": lambda v: f"ID-{v}",
        "suffix": lambda v: f"{v}.json",
        "pad5": lambda v: v.zfill(5),
        "prefix_pad": lambda v: f"X{v.zfill(4)}",
        "unpad": lambda v: v.lstrip("0") or "0",
        "lower": lambda v: v.lower(),
    }
    for which, vals, split in [("majors", majors, "dev"), ("teams", teams, "dev"),
                               ("bioguide", bioguide, "dev"),
                               ("fips", fips, "val"), ("m49", m49, "val")]:
        for name, f in variants.items():
            if f(vals[0]) == vals[0] or not _pick(which + name, 55):
                continue
            if name == "unpad" and not any(v.startswith("0") for v in vals):
                continue
            yield split, f"codes_{which}_{name}", dict(
                entities=vals, src_cols=[lambda e: e], tgt_cols=[f],
                src_names=["code"], tgt_names=["key"], fanout=2 if _pick(which + name, 20) else 1)


def family_labelled(lake):
    t = _read(lake, "fivethirtyeight/district-urbanization-index-2022/urbanization-index-2022.csv")
    seats = [(s, int(c)) for s, c in zip(t.state, t.cd) if c.isdigit()]
    names = {v: k for k, v in _states(lake).items()}
    yield "dev", "labelled_seat_state_district", dict(
        entities=seats, src_cols=[lambda e: e[0], lambda e: f"District {e[1]}"],
        tgt_cols=[lambda e: f"{e[0]}-{e[1]:02d}"], src_names=["state", "seat"], tgt_names=["code"],
        n=200)
    yield "val", "labelled_seat_name_number", dict(
        entities=[e for e in seats if e[0] in names],
        src_cols=[lambda e: f"{names[e[0]]} {e[1]}"], tgt_cols=[lambda e: f"{e[0]}-{e[1]:02d}"],
        src_names=["seat"], tgt_names=["code"], n=200)
    congress = list(range(60, 119))
    yield "dev", "labelled_congress_ordinal", dict(
        entities=congress, src_cols=[lambda e: f"Congress {e}"], tgt_cols=[
            lambda e: f"{e}{'th' if 10 <= e % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(e % 10, 'th')}"],
        src_names=["session"], tgt_names=["congress"], n=50)
    eps = _column(lake, "fivethirtyeight/bob-ross/elements-by-episode.csv", "EPISODE", r"S\d\dE\d\d")
    yield "val", "labelled_episode_season", dict(
        entities=eps, src_cols=[lambda e: f"Season {int(e[1:3])}", lambda e: f"Episode {int(e[4:])}"],
        tgt_cols=[lambda e: e], src_names=["season", "episode"], tgt_names=["code"], n=200)
    years = list(range(1950, 2020))
    yield "val", "labelled_year_fy", dict(
        entities=years, src_cols=[lambda e: f"FY{e % 100:02d}"], tgt_cols=[lambda e: f"Fiscal year {e}"],
        src_names=["fy"], tgt_names=["year"], n=60)


def family_parts(lake):
    dc = _column(lake, "fivethirtyeight/comic-characters/dc-wikia-data.csv", "name", r"[^()]+ \([^()]+\)")
    films = _column(lake, "fivethirtyeight/fandango/fandango_score_comparison.csv", "FILM", r".+ \(\d{4}\)")
    rock = _column(lake, "fivethirtyeight/classic-rock/classic-rock-song-list.csv", "COMBINED", r".+ by .+")
    marvel = _column(lake, "fivethirtyeight/comic-characters/marvel-wikia-data.csv", "name",
                     r"[^()]+ \([^()]+\)")
    for which, vals, split, cut in [
            ("dc_identity", dc, "dev", lambda v: v.split(" (")[1].rstrip(")")),
            ("dc_alias", dc, "dev", lambda v: v.split(" (")[0]),
            ("film_title", films, "val", lambda v: v.rsplit(" (", 1)[0]),
            ("rock_song", rock, "val", lambda v: v.split(" by ")[0]),
            ("marvel_identity", marvel, "val", lambda v: v.split(" (")[1].rstrip(")"))]:
        keys = {}
        for v in vals:
            keys.setdefault(cut(v), v)
        ents = list(keys.values())
        yield split, f"parts_{which}", dict(entities=ents, src_cols=[lambda e: e],
                                            tgt_cols=[cut], src_names=["full"], tgt_names=["part"])


def family_abbrev(lake):
    states = _states(lake)
    hate = [s for s in _column(lake, "fivethirtyeight/hate-crimes/hate_crimes.csv", "state") if s in states]
    yield "dev", "abbrev_state_to_code", dict(
        entities=hate, src_cols=[lambda e: e], tgt_cols=[lambda e: states[e]],
        src_names=["state"], tgt_names=["abbr"], n=45)
    yield "dev", "abbrev_code_url", dict(
        entities=list(states), src_cols=[lambda e: e],
        tgt_cols=[lambda e: f"https://{states[e].lower()}.gov/"], src_names=["state"], tgt_names=["site"], n=45)
    cc = _read(lake, "reference/country-codes.csv")
    cmap = {n: c for n, c in zip(cc["CLDR display name"], cc["ISO3166-1-Alpha-3"]) if n and c}
    yield "val", "abbrev_country_alpha3", dict(
        entities=list(cmap), src_cols=[lambda e: e], tgt_cols=[lambda e: cmap[e]],
        src_names=["country"], tgt_names=["iso3"], n=150)
    months = [(y, m) for y in range(2000, 2015) for m in range(1, 13)]
    yield "dev", "abbrev_month_name_year", dict(
        entities=months, src_cols=[lambda e: f"{MONTHS[e[1] - 1]} {e[0]}"],
        tgt_cols=[lambda e: f"{e[0]}-{e[1]:02d}"], src_names=["month"], tgt_names=["period"], n=100)
    yield "val", "abbrev_month_short_year", dict(
        entities=months, src_cols=[lambda e: f"{e[1]}/{e[0]}"],
        tgt_cols=[lambda e: f"{MONTHS[e[1] - 1][:3]} {e[0]}"], src_names=["month"], tgt_names=["period"], n=100)
    yield "val", "abbrev_state_code_to_name", dict(
        entities=list(states), src_cols=[lambda e: f"{states[e]}"], tgt_cols=[lambda e: e],
        src_names=["st"], tgt_names=["state"], n=45, fanout=3)


def family_case(lake):
    majors = _column(lake, "fivethirtyeight/college-majors/majors-list.csv", "Major")
    songs = _column(lake, "fivethirtyeight/classic-rock/classic-rock-song-list.csv", "Song Clean")
    cands = _column(lake, "fivethirtyeight/endorsements-june-30/endorsements-june-30.csv", "candidate")
    schools = _column(lake, "fivethirtyeight/fight-songs/fight-songs.csv", "school")
    for which, vals, split, f in [
            ("majors_title", majors, "dev", lambda v: v.title()),
            ("songs_upper", songs, "dev", lambda v: v.upper()),
            ("cands_nopunct", cands, "val", lambda v: re.sub(r"[^\w ]", "", v)),
            ("schools_lower_spaces", schools, "val", lambda v: "  " + v.lower() + " "),
            ("songs_nopunct_lower", songs, "val", lambda v: re.sub(r"[^\w ]", "", v).lower())]:
        ents = list({f(v): v for v in vals}.values())
        yield split, f"case_{which}", dict(entities=ents, src_cols=[lambda e: e], tgt_cols=[f],
                                           src_names=["name"], tgt_names=["label"])


def _slug(v, sep="-"):
    return re.sub(r"[^a-z0-9]+", sep, v.lower()).strip(sep)


def family_slugs(lake):
    schools = _column(lake, "fivethirtyeight/fight-songs/fight-songs.csv", "school")
    songs = _column(lake, "fivethirtyeight/classic-rock/classic-rock-song-list.csv", "Song Clean")
    airlines = _column(lake, "fivethirtyeight/airline-safety/airline-safety.csv", "airline", r"[A-Za-z ]+")
    players = _names(lake, "nba_draft")
    for which, vals, split, f in [
            ("schools_url", schools, "dev", lambda v: f"https://example.org/teams/{_slug(v)}/"),
            ("songs_mp3", songs, "dev", lambda v: f"{_slug(v, '_')}.mp3"),
            ("airlines_slug", airlines, "val", lambda v: _slug(v)),
            ("players_url", players, "val", lambda v: f"https://stats.example.com/player/{_slug(v)}.html")]:
        ents = list({f(v): v for v in vals}.values())
        yield split, f"slugs_{which}", dict(entities=ents, src_cols=[lambda e: e], tgt_cols=[f],
                                            src_names=["name"], tgt_names=["link"])


def family_multicol(lake):
    ds = _dates(lake, "births")
    yield "dev", "multi_ymd_to_iso", dict(
        entities=ds, src_cols=[lambda d: str(d.year), lambda d: str(d.month), lambda d: str(d.day)],
        tgt_cols=[lambda d: d.isoformat()], src_names=["year", "month", "day"], tgt_names=["date"])
    ns = _names(lake, "congress")
    yield "dev", "multi_first_last_to_lastfirst", dict(
        entities=ns, src_cols=[lambda e: _name_parts(e)[0], lambda e: _name_parts(e)[1]],
        tgt_cols=[NAME_FORMATS["last_first"]], src_names=["first", "last"], tgt_names=["name"])
    ws = _dates(lake, "weather")
    yield "val", "multi_ymd_to_mdy", dict(
        entities=ws, src_cols=[lambda d: str(d.year), lambda d: f"{d.month:02d}", lambda d: str(d.day)],
        tgt_cols=[lambda d: f"{d.month}/{d.day}/{d.year}"], src_names=["yr", "mo", "dy"], tgt_names=["date"])
    gs = _names(lake, "goose")
    yield "val", "multi_first_last_to_email", dict(
        entities=gs, src_cols=[lambda e: _name_parts(e)[0], lambda e: _name_parts(e)[1]],
        tgt_cols=[NAME_FORMATS["email"]], src_names=["given", "family"], tgt_names=["email"])
    t = _read(lake, "fivethirtyeight/district-urbanization-index-2022/urbanization-index-2022.csv")
    seats = [(s, int(c)) for s, c in zip(t.state, t.cd) if c.isdigit()]
    yield "val", "multi_state_cd_to_code", dict(
        entities=seats, src_cols=[lambda e: e[0], lambda e: str(e[1])],
        tgt_cols=[lambda e: f"{e[0]}-{e[1]:02d}"], src_names=["st", "cd"], tgt_names=["stcd"], n=200)


def family_scale(lake):
    """Larger tables (the sampling path of §4.5); added after the first measurement."""
    births = _dates(lake, "births")
    yield "dev", "scale_births_mdyyyy_to_iso", dict(
        entities=births, src_cols=[DATE_FORMATS["mdyyyy"]], tgt_cols=[DATE_FORMATS["iso"]],
        src_names=["date"], tgt_names=["day"], n=2500)
    bioguide = _column(lake, "fivethirtyeight/congress-age/congress-terms.csv", "bioguide",
                       r"[A-Z]\d{6}")
    yield "dev", "scale_bioguide_suffix", dict(
        entities=bioguide, src_cols=[lambda e: e], tgt_cols=[lambda e: f"{e}.json"],
        src_names=["code"], tgt_names=["key"], n=2500)
    weather = _dates(lake, "weather")
    yield "val", "scale_weather_iso_to_mdyy", dict(
        entities=weather, src_cols=[DATE_FORMATS["iso"]], tgt_cols=[DATE_FORMATS["mdyy"]],
        src_names=["date"], tgt_names=["day"], n=600, fanout=4)
    congress = _names(lake, "congress")
    yield "val", "scale_congress_email", dict(
        entities=congress, src_cols=[lambda e: e], tgt_cols=[NAME_FORMATS["email"]],
        src_names=["name"], tgt_names=["person"], n=2500)


def _pick(key: str, percent: int) -> bool:
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % 100 < percent


FAMILIES = [family_dates, family_names, family_codes, family_labelled, family_parts,
            family_abbrev, family_case, family_slugs, family_multicol, family_scale]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lake", type=Path, help="folder holding fivethirtyeight/ and reference/")
    ap.add_argument("out", type=Path)
    args = ap.parse_args(argv)
    counts: dict = {}
    for fam in FAMILIES:
        for split, name, spec in fam(args.lake):
            folder = args.out / ("dev" if split == "dev" else "validation")
            r = _make(folder, name, rng=_rng(name), **spec)
            counts[(fam.__name__, split)] = counts.get((fam.__name__, split), 0) + 1
            print(f"{split:3s} {r['case']:45s} {r['source']:4d} {r['target']:4d} {r['pairs']:4d}")
    for (fam, split), n in sorted(counts.items()):
        print(f"{fam:18s} {split}: {n}", file=sys.stderr)


if __name__ == "__main__":
    main()
