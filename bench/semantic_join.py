"""Effectiveness of semantic join discovery, in the manner of PEXESO's Table IV [P §VI-B]: which
lake columns each method finds joinable with a query column, against labels.

    python bench/semantic_join.py --reference REF --fivethirtyeight FTE --work W \
        --embedders ngram,e5-small,minilm --out bench/results/semantic_join.md

The lake (assembled under --work): the reference tables (country codes with their CLDR,
official, UNTERM and M49 names in six languages, GDP, population, top economies), 14
FiveThirtyEight tables with country or US state columns (one copy of each), two decoy tables
written here (nationalities, languages: country names' vocabulary, other entities). One index
per embedder (Spark build, ``--with pexeso``); equality is the engine's exact containment
search (JOSIE) at the same T.

Queries (QUERIES, split into development and validation, fixed below): 16 name columns of the
lake itself (each excluded from its own results) and 10 query tables written here (colloquial
names, abbreviations, AP state abbreviations, German and Italian names, formal and historical
names, typos, "State of X"), with the entity every value names.

Labels: a value names an entity (country: ISO 3166 alpha-3 of its reference row; M49 region;
currency; capital; US state), read off the reference rows (every name column of a row names
that row's entity) and the US state list below; a lake column S is joinable with a query Q when
at least T of Q's distinct values name an entity that some value of S names (the join predicate
"same entity", at the search's T). Codes (ISO, postal) are not names and name nothing here.

Reported per method at the index's default tau and T (no options): precision and recall of the
joinable columns found (recall against all labelled columns, and against the pool all methods
found: Table IV's recall), and the share of the query's values matched in them. Tuning
(``--tune``): the distance profile's quantile that makes an embedder's default tau, chosen on
the development queries only. Speed: PEXESO vs the BLAS scan at the default tau per embedder
(answers compared), and the build's embedding throughput (values/s/core, from the manifest)."""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

T = 0.6                               # the search's default T [P §VI-A]

FIVETHIRTYEIGHT = [
    "antiquities-act/actions_under_antiquities_act.csv", "bad-drivers/bad-drivers.csv",
    "cousin-marriage/cousin-marriage-data.csv", "elo-blatter/elo_blatter.csv",
    "fifa/fifa_countries_audience.csv", "gop-delegate-benchmarks-2024/delegate_targets.csv",
    "hate-crimes/hate_crimes.csv", "infrastructure-jobs/payroll-states.csv",
    "most-common-name/state-pop.csv", "murder_2016/murder_2015_final.csv",
    "state-of-the-state/index.csv", "trump-world-trust/TRUMPWORLD-issue-1.csv",
    "urbanization-index/urbanization-state.csv", "world-cup-predictions/wc-20140609-140000.csv",
]

US_STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia",
    "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa",
    "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
    "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi",
    "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire",
    "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
    "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee",
    "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
    "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "DC": "District of Columbia",
    "PR": "Puerto Rico", "GU": "Guam", "VI": "U.S. Virgin Islands", "AS": "American Samoa",
    "MP": "Northern Mariana Islands"}

# Query tables written for this benchmark: "value=ENTITY" (ISO alpha-3, or US-XX)
WRITTEN = {
    "w:colloquial": "UK=GBR USA=USA Russia=RUS South Korea=KOR North Korea=PRK Iran=IRN "
                    "Vietnam=VNM Syria=SYR Laos=LAO Bolivia=BOL Venezuela=VEN Tanzania=TZA "
                    "Moldova=MDA Czech Republic=CZE Ivory Coast=CIV Burma=MMR Holland=NLD "
                    "Macedonia=MKD Swaziland=SWZ Cape Verde=CPV East Timor=TLS Brunei=BRN "
                    "Micronesia=FSM The Gambia=GMB The Bahamas=BHS Taiwan=TWN Palestine=PSE "
                    "Vatican=VAT Congo-Kinshasa=COD Congo-Brazzaville=COG",
    "w:abbreviations": "U.S.=USA U.K.=GBR UAE=ARE DRC=COD PRC=CHN ROK=KOR DPRK=PRK NZ=NZL "
                       "PNG=PNG CAR=CAF BiH=BIH KSA=SAU S. Africa=ZAF N. Korea=PRK "
                       "S. Korea=KOR St. Lucia=LCA St. Kitts and Nevis=KNA St. Vincent=VCT "
                       "Eq. Guinea=GNQ Dom. Rep.=DOM Czech Rep.=CZE Bosnia=BIH Trinidad=TTO "
                       "Antigua=ATG Sao Tome=STP",
    "w:states-ap": "Ala.=US-AL Ariz.=US-AZ Ark.=US-AR Calif.=US-CA Colo.=US-CO Conn.=US-CT "
                   "Del.=US-DE Fla.=US-FL Ga.=US-GA Ill.=US-IL Ind.=US-IN Kan.=US-KS "
                   "Ky.=US-KY La.=US-LA Md.=US-MD Mass.=US-MA Mich.=US-MI Minn.=US-MN "
                   "Miss.=US-MS Mo.=US-MO Mont.=US-MT Neb.=US-NE Nev.=US-NV N.H.=US-NH "
                   "N.J.=US-NJ N.M.=US-NM N.Y.=US-NY N.C.=US-NC N.D.=US-ND Okla.=US-OK "
                   "Ore.=US-OR Pa.=US-PA R.I.=US-RI S.C.=US-SC S.D.=US-SD Tenn.=US-TN "
                   "Tex.=US-TX Vt.=US-VT Va.=US-VA Wash.=US-WA W.Va.=US-WV Wis.=US-WI "
                   "Wyo.=US-WY",
    "w:german": "Deutschland=DEU Frankreich=FRA Spanien=ESP Italien=ITA Niederlande=NLD "
                "Belgien=BEL Schweiz=CHE Österreich=AUT Polen=POL Tschechien=CZE "
                "Ungarn=HUN Griechenland=GRC Türkei=TUR Russland=RUS China=CHN Japan=JPN "
                "Indien=IND Brasilien=BRA Argentinien=ARG Mexiko=MEX Kanada=CAN "
                "Vereinigte Staaten=USA Vereinigtes Königreich=GBR Schweden=SWE "
                "Norwegen=NOR Dänemark=DNK Finnland=FIN Ägypten=EGY Südafrika=ZAF "
                "Australien=AUS",
    "w:italian": "Germania=DEU Francia=FRA Spagna=ESP Regno Unito=GBR Stati Uniti=USA "
                 "Paesi Bassi=NLD Belgio=BEL Svizzera=CHE Austria=AUT Polonia=POL "
                 "Grecia=GRC Turchia=TUR Russia=RUS Cina=CHN Giappone=JPN India=IND "
                 "Brasile=BRA Argentina=ARG Messico=MEX Canada=CAN Svezia=SWE "
                 "Norvegia=NOR Danimarca=DNK Finlandia=FIN Egitto=EGY Sudafrica=ZAF "
                 "Australia=AUS Portogallo=PRT Irlanda=IRL Ungheria=HUN",
    "w:formal": "Republic of Korea=KOR Kingdom of Spain=ESP French Republic=FRA "
                "Federal Republic of Germany=DEU Kingdom of Sweden=SWE Republic of India=IND "
                "People's Republic of China=CHN United Mexican States=MEX "
                "Commonwealth of Australia=AUS Republic of South Africa=ZAF "
                "Swiss Confederation=CHE Kingdom of the Netherlands=NLD Italian Republic=ITA "
                "Arab Republic of Egypt=EGY Islamic Republic of Pakistan=PAK "
                "Kingdom of Norway=NOR Republic of Finland=FIN Republic of Poland=POL "
                "Hellenic Republic=GRC Republic of Turkey=TUR Argentine Republic=ARG "
                "Federative Republic of Brazil=BRA Republic of Chile=CHL Republic of Peru=PER "
                "Bolivarian Republic of Venezuela=VEN State of Japan=JPN "
                "Kingdom of Denmark=DNK Portuguese Republic=PRT Republic of Ireland=IRL "
                "Kingdom of Belgium=BEL",
    "w:typos": "Viet Nam=VNM Cote d'Ivoire=CIV Phillipines=PHL Columbia=COL Argentinia=ARG "
               "Marocco=MAR Tunesia=TUN Kazakstan=KAZ Kyrgystan=KGZ Czech Rep.=CZE "
               "Untied Kingdom=GBR Brasil=BRA Germany=DEU Japan=JPN Mexico=MEX Nigera=NGA "
               "Swizerland=CHE Ukriane=UKR Portugal=PRT Peru=PER",
    "w:historical": "Burma=MMR Zaire=COD Ceylon=LKA Siam=THA Persia=IRN Rhodesia=ZWE "
                    "Dahomey=BEN Upper Volta=BFA Formosa=TWN Kampuchea=KHM Bechuanaland=BWA "
                    "Basutoland=LSO Nyasaland=MWI Gold Coast=GHA Abyssinia=ETH Swaziland=SWZ "
                    "East Pakistan=BGD Holland=NLD Byelorussia=BLR Malagasy Republic=MDG "
                    "Tanganyika=TZA British Honduras=BLZ Dutch Guiana=SUR French Sudan=MLI",
    "w:states-formal": "State of California=US-CA Commonwealth of Massachusetts=US-MA "
                       "State of New York=US-NY State of Texas=US-TX State of Florida=US-FL "
                       "Commonwealth of Pennsylvania=US-PA State of Ohio=US-OH "
                       "State of Illinois=US-IL State of Michigan=US-MI State of Georgia=US-GA "
                       "State of Washington=US-WA Commonwealth of Virginia=US-VA "
                       "State of Arizona=US-AZ State of Colorado=US-CO State of Oregon=US-OR "
                       "State of Nevada=US-NV State of Utah=US-UT State of Iowa=US-IA "
                       "Commonwealth of Kentucky=US-KY State of Tennessee=US-TN "
                       "State of Alabama=US-AL State of Louisiana=US-LA "
                       "State of Minnesota=US-MN State of Wisconsin=US-WI "
                       "State of Missouri=US-MO State of Indiana=US-IN State of Maryland=US-MD "
                       "State of New Jersey=US-NJ State of Connecticut=US-CT "
                       "State of Oklahoma=US-OK",
    "w:survey": "United Kingdom=GBR Germany=DEU France=FRA USA=USA Russia=RUS Korea=KOR "
                "Iran=IRN Spain=ESP Italy=ITA Holland=NLD Czechia=CZE Ivory Coast=CIV "
                "Japan=JPN China=CHN India=IND Brazil=BRA Mexico=MEX Canada=CAN "
                "Vietnam=VNM UAE=ARE Turkey=TUR Egypt=EGY Great Britain=GBR America=USA "
                "Persia=IRN",
}

# lake columns used as queries: (table as the index names it, column)
LAKE_QUERIES = [
    ("reference/country-codes", "CLDR display name"),
    ("reference/country-codes", "official_name_en"),
    ("reference/country-codes", "UNTERM English Short"),
    ("reference/country-codes", "UNTERM English Formal"),
    ("reference/country-codes", "official_name_fr"),
    ("reference/country-codes", "official_name_es"),
    ("reference/country-codes", "UNTERM French Formal"),
    ("reference/country-codes", "UNTERM Spanish Formal"),
    ("reference/country-codes", "Capital"),
    ("reference/country-codes", "ISO4217-currency_name"),
    ("reference/unsd-m49-en", "Country or Area"),
    ("reference/unsd-m49-fr", "Country or Area"),
    ("reference/unsd-m49-fr", "Sub-region Name"),
    ("reference/gdp", "Country Name"),
    ("fivethirtyeight/fifa/fifa_countries_audience", "country"),
    ("fivethirtyeight/hate-crimes/hate_crimes", "state"),
]

# fixed split: development (tuning) and validation (the headline)
DEV = {"w:colloquial", "w:states-ap", "w:italian", "w:typos", "w:states-formal",
       "reference/country-codes.CLDR display name", "reference/country-codes.UNTERM English Short",
       "reference/country-codes.official_name_fr", "reference/country-codes.UNTERM French Formal",
       "reference/country-codes.Capital", "reference/unsd-m49-en.Country or Area",
       "reference/unsd-m49-fr.Sub-region Name",
       "fivethirtyeight/fifa/fifa_countries_audience.country"}

DECOYS = {
    "decoys/nationalities.csv": ("demonym", [
        "Afghan", "Albanian", "Algerian", "American", "Argentine", "Australian", "Austrian",
        "Belgian", "Bolivian", "Brazilian", "British", "Bulgarian", "Canadian", "Chilean",
        "Chinese", "Colombian", "Croatian", "Cuban", "Czech", "Danish", "Dutch", "Egyptian",
        "English", "Ethiopian", "Finnish", "French", "German", "Greek", "Hungarian", "Indian",
        "Indonesian", "Iranian", "Iraqi", "Irish", "Israeli", "Italian", "Japanese", "Kenyan",
        "Korean", "Lebanese", "Malaysian", "Mexican", "Moroccan", "Nigerian", "Norwegian",
        "Pakistani", "Peruvian", "Filipino", "Polish", "Portuguese", "Romanian", "Russian",
        "Saudi", "Scottish", "Serbian", "Spanish", "Swedish", "Swiss", "Syrian", "Thai",
        "Turkish", "Ukrainian", "Venezuelan", "Vietnamese", "Welsh", "Zimbabwean"]),
    "decoys/languages.csv": ("language", [
        "Arabic", "Bengali", "Bulgarian", "Catalan", "Czech", "Danish", "Dutch", "English",
        "Estonian", "Finnish", "French", "German", "Greek", "Hebrew", "Hindi", "Hungarian",
        "Icelandic", "Indonesian", "Irish", "Italian", "Japanese", "Korean", "Latvian",
        "Lithuanian", "Malay", "Maltese", "Mandarin", "Norwegian", "Persian", "Polish",
        "Portuguese", "Punjabi", "Romanian", "Russian", "Serbian", "Slovak", "Slovenian",
        "Spanish", "Swahili", "Swedish", "Tagalog", "Tamil", "Thai", "Turkish", "Ukrainian",
        "Urdu", "Vietnamese", "Welsh", "Yoruba", "Zulu"]),
}

CC_NAMES = ["CLDR display name", "official_name_en", "official_name_fr", "official_name_es",
            "official_name_ar", "official_name_cn", "official_name_ru",
            "ISO4217-currency_country_name"] + [
    f"UNTERM {lang} {kind}" for lang in ("English", "French", "Spanish", "Russian", "Chinese",
                                          "Arabic") for kind in ("Short", "Formal")]
REGION_PAIRS = [("Global Code", "Global Name"), ("Region Code", "Region Name"),
                ("Sub-region Code", "Sub-region Name"),
                ("Intermediate Region Code", "Intermediate Region Name")]


# ------------------------------------------------------------------------- the lake

def assemble_lake(reference: Path, fte: Path, work: Path) -> Path:
    lake = work / "lake"
    if lake.exists():
        return lake
    (lake / "reference").mkdir(parents=True)
    for f in sorted(reference.glob("*.csv")):
        shutil.copy2(f, lake / "reference" / f.name)
    for rel in FIVETHIRTYEIGHT:
        dst = lake / "fivethirtyeight" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(fte / rel, dst)
    for rel, (col, values) in DECOYS.items():
        dst = lake / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame({col: values}).to_csv(dst, index=False)
    return lake


# ------------------------------------------------------------------------- labels

def alias_map(reference: Path) -> dict:
    """normalized name -> set of entities it names (reference rows, US states)."""
    from lakejoin_jupyter.lake.normalize import normalize_value
    names: dict = {}

    def add(value, ent):
        k = normalize_value(value)
        if k is not None and isinstance(value, str) and value.strip():
            names.setdefault(k, set()).add(ent)

    cc = pd.read_csv(reference / "country-codes.csv", dtype=str, keep_default_na=False)
    for _, r in cc.iterrows():
        iso = r["ISO3166-1-Alpha-3"].strip() or f"row:{r['CLDR display name']}"
        for c in CC_NAMES:
            add(r[c], iso)
        add(r["Capital"], "capital:" + iso)
        if r["ISO4217-currency_alphabetic_code"].strip():
            add(r["ISO4217-currency_name"], "currency:" + r["ISO4217-currency_alphabetic_code"])
        for code, name in REGION_PAIRS:
            if r[code].strip():
                add(r[name], "m49:" + r[code].strip().lstrip("0"))
    for f in ("unsd-m49-en.csv", "unsd-m49-fr.csv"):
        m = pd.read_csv(reference / f, dtype=str, keep_default_na=False, encoding="utf-8-sig")
        for _, r in m.iterrows():
            if r["ISO-alpha3 Code"].strip():
                add(r["Country or Area"], r["ISO-alpha3 Code"].strip())
            for code, name in REGION_PAIRS:
                if r[code].strip():
                    add(r[name], "m49:" + r[code].strip().lstrip("0"))
    for f in ("gdp.csv", "population.csv"):
        g = pd.read_csv(reference / f, dtype=str, keep_default_na=False,
                        usecols=["Country Name", "Country Code"]).drop_duplicates()
        for _, r in g.iterrows():
            add(r["Country Name"], r["Country Code"])
    for code, name in US_STATES.items():
        add(name, "US-" + code)
    return names


def written_queries() -> dict:
    """name -> (values, entities) of the WRITTEN query tables."""
    import re
    out = {}
    for name, text in WRITTEN.items():
        items = re.findall(r"(.+?)=([A-Z]{3}|US-[A-Z]{2})(?:\s+|$)", text)
        out[name] = ([v.strip() for v, _ in items], [e for _, e in items])
    return out


def column_entities(values, names) -> set:
    from lakejoin_jupyter.lake.normalize import normalize_value
    ents = set()
    for v in set(values):
        ents |= names.get(normalize_value(v), set())
    return ents


# ------------------------------------------------------------------------- runs

def build(lake: Path, work: Path, embedder: str, rebuild: bool):
    import lakejoin_jupyter as lj
    path = work / f"index-{embedder}"
    if path.exists() and not rebuild:
        return lj.open_index(path, check_lake=False)
    t0 = time.time()
    eng = lj.build_index(lake, path, overwrite=True, components=["pexeso"], progress=False,
                         component_options={"pexeso": {"embedder": embedder}})
    eng.build_seconds = time.time() - t0
    return eng


class MemoEmbedder:
    """The index's embedder with its query embeddings remembered: the benchmark searches
    each query many times (methods, plans, tuning), and the embedding is not what it
    measures (the build's throughput is)."""

    def __init__(self, emb):
        self.emb, self.memo = emb, {}
        self.name, self.dim = emb.name, emb.dim

    def embed(self, texts):
        texts = list(texts)
        todo = [t for t in dict.fromkeys(texts) if t not in self.memo]
        if todo:
            for t, v in zip(todo, self.emb.embed(todo)):
                self.memo[t] = v
        return np.vstack([self.memo[t] for t in texts]) if texts else self.emb.embed([])


def memoize_query_embeddings(engine) -> None:
    from lakejoin_jupyter.search.pexeso import _model
    for part in engine.index.generations:
        m = _model(part)
        m.__dict__["embedder"] = MemoEmbedder(m.embedder)


def score(found: set, labels: dict) -> tuple:
    tp = sum(1 for c in found if labels.get(c))
    return tp, len(found) - tp


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", required=True, type=Path)
    ap.add_argument("--fivethirtyeight", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--embedders", default="ngram,e5-small,minilm")
    ap.add_argument("--rebuild", action="store_true", help="rebuild the indexes")
    ap.add_argument("--tune", action="store_true",
                    help="also report every profile quantile on the development queries")
    ap.add_argument("--tune-levels", default=None, metavar="Q,Q,...",
                    help="profile quantiles to try with --tune (default: the recorded levels)")
    ap.add_argument("--tune-only", action="store_true", help="only the tuning table")
    ap.add_argument("--speed-repeats", type=int, default=1)
    ap.add_argument("--speed-embedders", default=None,
                    help="embedders of the PEXESO-vs-scan section (default: all)")
    ap.add_argument("--tau-from-profile", action="store_true",
                    help="indexes built before the current TAU_QUANTILE: pass the tau a "
                         "rebuild would record (index/pexeso_arrays.default_tau of the "
                         "recorded profile) instead of the manifest's default_tau")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from lakejoin_jupyter.index.pexeso_arrays import PROFILE_LEVELS, TAU_QUANTILE
    from lakejoin_jupyter.lake.normalize import normalize_value

    lines = []

    def emit(s=""):
        print(s, flush=True)
        lines.append(s)

    args.work.mkdir(parents=True, exist_ok=True)
    lake = assemble_lake(args.reference, args.fivethirtyeight, args.work)
    names = alias_map(args.reference)
    embedders = [e for e in args.embedders.split(",") if e]
    engines = {e: build(lake, args.work, e, args.rebuild) for e in embedders}
    for eng in engines.values():
        memoize_query_embeddings(eng)
    from lakejoin_jupyter.index.pexeso_arrays import default_tau
    taus = {}
    for e, eng in engines.items():
        sec = eng.index.generations[0].components["pexeso"]
        taus[e] = (default_tau(sec["distance_profile"], sec["embedder"]["name"])
                   if args.tau_from_profile else sec.get("default_tau"))
    tau_opt = (lambda e: {"tau": taus[e]}) if args.tau_from_profile else (lambda e: {})
    base = engines[embedders[0]]
    cols = base.index.columns
    tables = base.index.tables
    # every lake column: (table, column) -> entity set
    lake_cols = {}
    frames = {}
    for tname in tables["name"]:
        df = base.table(tname)
        frames[tname] = df
        for c in df.columns:
            lake_cols[(tname, str(c))] = column_entities(df[c].dropna().astype(str), names)
    queries = {}
    for name, (vals, ents) in written_queries().items():
        queries[name] = (pd.DataFrame({"value": vals}), "value",
                         {normalize_value(v): {e} for v, e in zip(vals, ents)}, None)
    for tname, col in LAKE_QUERIES:
        df = frames[tname]
        vals = df[col].dropna().astype(str)
        vals = vals[vals.str.strip() != ""]
        lab = {normalize_value(v): names.get(normalize_value(v), set()) for v in vals}
        queries[f"{tname}.{col}"] = (df, col, lab, (tname, col))

    def labels_of(qname):
        _, _, lab, own = queries[qname]
        qents = [e for e in lab.values()]
        out = {}
        for key, ents in lake_cols.items():
            if key == own:
                continue
            hit = sum(1 for e in qents if e & ents)
            out[key] = hit / max(len(qents), 1) >= T - 1e-12
        return out

    labels = {q: labels_of(q) for q in queries}

    def run(method_engine, qname, **kw):
        df, col, _, own = queries[qname]
        t0 = time.perf_counter()          # a lake column leaves itself out (query_table)
        res = method_engine.search(df, col, k=None, query_table=own[0] if own else None, **kw)
        took = time.perf_counter() - t0
        return {(h.table, h.column): h for h in res}, took, res

    results = {}                      # (method, query) -> (found dict, seconds)
    for q in queries:
        results[("equality", q)] = run(base, q, method="josie", threshold=T)[:2]
    for e, eng in engines.items():
        t0 = time.time()
        for q in queries:
            results[(e, q)] = run(eng, q, method="pexeso", **tau_opt(e))[:2]
        print(f"[{e}: {len(queries)} queries in {time.time() - t0:.0f} s]", flush=True)

    def pair_counts(qname, found):
        """(matched pairs naming the same entity, matched pairs) over the columns found:
        a query value and the lake value shown as its match, when they differ (equal values
        are equality's matches; these are the variants the embedder adds)."""
        lab = queries[qname][2]
        ok = n = 0
        for h in found.values():
            for qv, lv, _ in h.details.get("pairs", []):
                if normalize_value(qv) == lv:
                    continue
                n += 1
                ok += bool(lab.get(normalize_value(qv), set()) &
                           names.get(normalize_value(lv), set()))
        return ok, n

    def summary(method, qset):
        tp = fp = n_true = 0
        share = []
        for q in qset:
            found, _ = results[(method, q)]
            a, b = score(found, labels[q])
            tp, fp = tp + a, fp + b
            n_true += sum(labels[q].values())
            share += [h.containment for k, h in found.items() if labels[q].get(k)]
        return tp, fp, n_true, share

    def pair_precision(method, qset):
        ok = n = 0
        for q in qset:
            a, b = pair_counts(q, results[(method, q)][0])
            ok, n = ok + a, n + b
        return ok / n if n else float("nan")

    methods = ["equality"] + embedders
    dev = [q for q in queries if q in DEV]
    val = [q for q in queries if q not in DEV]
    emit("# Semantic join discovery: effectiveness (PEXESO's Table IV manner) and speed")
    emit()
    emit("Command:")
    emit()
    emit("    " + " ".join(["python", "bench/semantic_join.py"] + (argv or sys.argv[1:])))
    emit()
    emit(f"Lake: {len(tables)} tables, {len(cols)} columns; {len(queries)} query columns "
         f"({len(dev)} development, {len(val)} validation); T = {T}; load average at start "
         f"{os.getloadavg()[0]:.1f}.")
    emit()
    emit("| embedder | default tau (quantile of profile) | values embedded | embedding s | "
         "values/s/core | profile q0.01 / q0.05 / median |")
    emit("|---|---|---|---|---|---|")
    for e, eng in engines.items():
        sec = eng.index.generations[0].components["pexeso"]
        emb = sec.get("embedding", {})
        n_emb = sum(p["vectors"] for p in sec["partitions"])
        prof = sec.get("distance_profile") or {}
        qd = dict(zip(prof.get("levels", []), prof.get("quantiles", [])))
        rate = n_emb / emb["seconds"] / emb["cores"] if emb.get("seconds") else float("nan")
        emit(f"| {sec['embedder']['name']} | {taus[e]} "
             f"({TAU_QUANTILE.get(sec['embedder']['name'])}) | {n_emb:,} of {emb.get('values', 0):,} "
             f"({sec.get('values', 'all')}) | {emb.get('seconds')} | {rate:.0f} | "
             f"{qd.get(0.01)} / {qd.get(0.05)} / {qd.get(0.5)} |")
    emit()
    for title, qset in (("Validation (headline)", val), ("Development", dev),
                        ("All queries", list(queries))):
        emit(f"## {title}: joinable columns found at the default tau and T")
        emit()
        pool = {}
        for q in qset:
            pool[q] = set()
            for m in methods:
                pool[q] |= {k for k in results[(m, q)][0] if labels[q].get(k)}
        n_pool = sum(len(p) for p in pool.values())
        emit("| method | found | true | false | precision | recall (all labelled) | "
             "recall (pool) | x equality | share of query values matched | variant pair precision |")
        emit("|---|---|---|---|---|---|---|---|---|---|")
        eq_tp = summary("equality", qset)[0]
        for m in methods:
            tp, fp, n_true, share = summary(m, qset)
            p = tp / (tp + fp) if tp + fp else float("nan")
            emit(f"| {m} | {tp + fp} | {tp} | {fp} | {p:.3f} | {tp / max(n_true, 1):.3f} "
                 f"({n_true}) | {tp / max(n_pool, 1):.3f} ({n_pool}) | "
                 f"{tp / eq_tp if eq_tp else float('nan'):.2f}x | "
                 f"{np.mean(share) if share else float('nan'):.3f} | "
                 f"{pair_precision(m, qset):.3f} |")
        emit()
    emit("## Per query (true found / false found; labelled joinable columns)")
    emit()
    emit("| query | split | |Q| | labelled | " + " | ".join(methods) + " |")
    emit("|---|---|---|---|" + "---|" * len(methods))
    for q in queries:
        n_lab = sum(labels[q].values())
        cells = []
        for m in methods:
            a, b = score(results[(m, q)][0], labels[q])
            cells.append(f"{a} / {b}")
        emit(f"| {q} | {'dev' if q in DEV else 'val'} | {len(queries[q][2])} | {n_lab} | "
             + " | ".join(cells) + " |")
    emit()
    emit("False positives (method: query -> column):")
    emit()
    for m in methods:
        for q in queries:
            for k in results[(m, q)][0]:
                if not labels[q].get(k):
                    emit(f"* {m}: {q} -> {k[0]}.{k[1]}")
    emit()
    if args.tune:
        emit("## Tuning on the development queries: the profile quantile that makes tau")
        emit()
        emit("| embedder | quantile | tau | found | true | precision | variant pairs | "
             "variant pair precision |")
        emit("|---|---|---|---|---|---|---|---|")
        for e, eng in engines.items():
            sec = eng.index.generations[0].components["pexeso"]
            prof = sec["distance_profile"]
            levels = [float(x) for x in args.tune_levels.split(",")] if args.tune_levels \
                else PROFILE_LEVELS
            for lv in levels:
                tau = float(np.interp(lv, prof["levels"], prof["quantiles"]))
                tp = fp = pok = pn = 0
                for q in dev:
                    found = run(eng, q, method="pexeso", tau=tau)[0]
                    a, b = score(found, labels[q])
                    tp, fp = tp + a, fp + b
                    a, b = pair_counts(q, found)
                    pok, pn = pok + a, pn + b
                p = tp / (tp + fp) if tp + fp else float("nan")
                emit(f"| {e} | {lv} | {tau:.4f} | {tp + fp} | {tp} | {p:.3f} | {pn} | "
                     f"{pok / pn if pn else float('nan'):.3f} |")
        emit()
    if args.tune_only:
        if args.out:
            Path(args.out).write_text("\n".join(lines) + "\n")
        return
    emit("## PEXESO vs the BLAS scan at the default tau (same answers required)")
    emit()
    emit("| embedder | tau | plan | total s (all queries) | identical answers | plan auto chose |")
    emit("|---|---|---|---|---|---|")
    speed = args.speed_embedders.split(",") if args.speed_embedders else list(engines)
    for e, eng in engines.items():
        if e not in speed:
            continue
        tot = {"pexeso": 0.0, "bruteforce": 0.0}
        same = 0
        chosen = {}
        for q in queries:
            outs = {}
            for plan in ("pexeso", "bruteforce"):
                best = None
                for _ in range(max(1, args.speed_repeats)):
                    found, took, res = run(eng, q, method="pexeso", plan=plan, **tau_opt(e))
                    best = took if best is None else min(best, took)
                outs[plan] = {k: h.overlap for k, h in found.items()}
                tot[plan] += best
            same += outs["pexeso"] == outs["bruteforce"]
            _, _, res = run(eng, q, method="pexeso", **tau_opt(e))
            for p in res.stats.get("plan", []):
                chosen[p] = chosen.get(p, 0) + 1
        tau = taus[e]
        emit(f"| {e} | {tau} | PEXESO | {tot['pexeso']:.3f} | {same}/{len(queries)} | {chosen} |")
        emit(f"| {e} | {tau} | BLAS scan | {tot['bruteforce']:.3f} | | ratio scan/PEXESO "
             f"{tot['bruteforce'] / max(tot['pexeso'], 1e-9):.2f}x |")
    emit()
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
