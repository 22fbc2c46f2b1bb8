"""Transformation-aware search benchmark: planted transformed copies of real key columns.

    python bench/transform_search.py --lake /work/shared/data/lakes --work /tmp/transform_bench \
        [--per-kind 12] [--seed 7] [--k 10] [--cost] [--out bench/results/transform_search.md]

1. Key columns of the lake (``--lake``, e.g. FiveThirtyEight + reference) are found by
   shape: person names ("First [Middle] Last"), dates (ISO or M/D/YYYY) and codes (short
   alphanumeric keys that are not small integers or years), at least 20 distinct values,
   one column per distinct value set.
2. For each transformation kind, ``--per-kind`` source columns are drawn (fixed seed) and a
   transformed copy of each one's distinct values (at most 3,000) is planted as a new table
   in a copy of the lake under ``--work``; the query is the source column itself (or, for
   "Last, First" kinds, the source column rewritten that way), as a pandas DataFrame.
3. One index is built over the lake plus the planted tables (default components plus
   "transform"); each query runs the "transform" method (k = 10) and, as the peer in the
   same run, the equality search the engine picks by default (JOSIE), which is where
   Auto-Join used to start from. Reported: recall@k of the planted columns, whether the
   planted column reached verification (retrieval recall), the program found for it,
   latency p50/p90 (after one warm-up query) and the latency ratio to the peer.
4. ``--cost``: the plain lake is also built twice in the same run, with and without the
   component, for its build time and size.
5. The whole-key check (``WHOLE_KEY_BELOW`` of join/autojoin/discovery.py) is counted per
   query: checks, programs replaced, replaced ones in the top k, planted ones replaced.
   ``--whole-key-below`` sets its share for a run (0: off).

Kinds are split into development and validation ones (fixed below); anything tuned was
tuned on the development kinds only, the validation kinds are the headline. The short-value
kinds (development; 2-4 character key columns: a code inside a longer line, a name glued to
a letter prefix in the lake or to a suffix in the query) come last, so the earlier kinds'
draws and plants are as they were; ``--splits`` runs one split's queries.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lakejoin_jupyter.engine import open_index  # noqa: E402

NAME = re.compile(r"^[A-Z][a-zA-Z'\-]+( [A-Z][a-zA-Z'.\-]*)?( [A-Z][a-zA-Z'\-]+)$")
ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
US = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
CODE = re.compile(r"^[A-Za-z0-9]{2,10}$")
DOMAINS = ("example.org", "mail.com", "corp.net", "uni.edu")
PREFIXES = ("ID", "REF", "K", "NO")
SHORT = re.compile(r"^[A-Za-z0-9]{2,4}$")
LINE_HEADS = ("HTTP/1.1", "STATUS", "REC 7")
LINE_WORDS = ("Not Found", "OK", "Moved", "Gone", "Accepted", "Bad Request", "Conflict",
              "Locked", "Too Early", "Created", "No Content", "Unauthorized", "Forbidden",
              "Payment Required", "See Other", "Teapot", "Timeout", "Expired")
GLUE_HEADS = ("SIG", "K", "ISO")
GLUE_TAILS = ("X", "SFX", "CD")


def _words(name: str):
    w = name.split()
    return w[0], w[-1]


def _email_dot(v, rng_pick):
    first, last = _words(v)
    return f"{first}.{last}@{rng_pick(DOMAINS)}".lower()


def _email_initial(v, rng_pick):
    first, last = _words(v)
    return f"{first[0]}{last}@{rng_pick(DOMAINS)}".lower()


def _last_first(v, rng_pick=None):
    first, last = _words(v)
    return f"{last}, {first}"


def _date_us(v, rng_pick=None):
    m = ISO.match(v)
    if m:
        return f"{m.group(2)}/{m.group(3)}/{m.group(1)}"
    m = US.match(v)
    return f"{m.group(3)}-{m.group(1)}-{m.group(2)}"


def _date_eu(v, rng_pick=None):
    m = ISO.match(v)
    if m:
        return f"{m.group(3)}.{m.group(2)}.{m.group(1)}"
    m = US.match(v)
    return f"{m.group(2)}.{m.group(1)}.{m.group(3)}"


def _code_prefix(v, rng_pick):
    return f"{rng_pick(PREFIXES)}-{v}"


def _code_tight(v, rng_pick):
    return f"E{v}" if v[0].isdigit() else f"iso:{v}"


def _in_line(v, rng_pick):
    """A short code inside a longer line: "HTTP/1.1 404 Not Found" (the trailing phrase
    varies with the code, so no pattern key pairs the two)."""
    word = LINE_WORDS[int(hashlib.sha1(v.encode()).hexdigest(), 16) % len(LINE_WORDS)]
    return f"{rng_pick(LINE_HEADS)} {v} {word}"


def _glued_prefix(v, rng_pick):
    """A short name glued to a letter prefix, as `kill -l`'s INT is SIGINT."""
    return f"{rng_pick(GLUE_HEADS)}{v}"


def _glued_suffix(v, rng_pick):
    """A short name glued to a letter suffix (the query side of a kind): "USDX"."""
    return f"{v}{rng_pick(GLUE_TAILS)}"


# kind -> (source family, query transform (None: the source as is), lake transform)
KINDS = {
    "email_dot": ("name", None, _email_dot),
    "date_us": ("date", None, _date_us),
    "code_prefix": ("code", None, _code_prefix),
    "last_first_email": ("name", _last_first, _email_dot),
    "email_initial": ("name", None, _email_initial),
    "date_eu": ("date", None, _date_eu),
    "code_tight": ("code", None, _code_tight),
    "name_last_first": ("name", None, _last_first),
    # short values (added after the kinds above, so their draws and plants are unchanged)
    "short_in_line": ("short", None, _in_line),
    "short_glued_prefix": ("short_alpha", None, _glued_prefix),
    "short_glued_suffix": ("short_alpha", _glued_suffix, lambda v, rng_pick=None: v),
}
DEVELOPMENT = ("email_dot", "date_us", "code_prefix", "last_first_email", "short_in_line",
               "short_glued_prefix", "short_glued_suffix")
VALIDATION = ("email_initial", "date_eu", "code_tight", "name_last_first")


def family(values: list) -> str | None:
    """The source family of a column's distinct values, or None."""
    if len(values) < 20:
        return None

    def share(test):
        return sum(1 for v in values if test(v)) / len(values)
    if len(values) >= 30 and share(NAME.match) >= 0.9:
        return "name"
    if share(ISO.match) >= 0.9 or share(US.match) >= 0.9:
        return "date"
    if share(CODE.match) < 0.95:
        return None
    lengths = pd.Series([len(v) for v in values]).value_counts()
    if share(lambda v: re.search("[a-zA-Z]", v) and re.search("[0-9]", v)) >= 0.5:
        return "code"          # mixed letters and digits (S01E01, A10)
    if share(str.isdigit) >= 0.95 and lengths.index[0] >= 4 and \
            lengths.iloc[0] >= 0.95 * len(values) and \
            share(lambda v: re.match(r"^(18|19|20)[0-9][0-9]$", v)) < 0.5:
        return "code"          # fixed-width numeric codes (1100, 06037), not measures
    if share(lambda v: v.isalpha() and len(v) <= 5) >= 0.9:
        return "code"          # abbreviations (NYY, CA)
    return None


def short_family(values: list, n_cells: int) -> str | None:
    """The short-value family of a key column's distinct values (a column may be in a
    family of :func:`family` too): "short_alpha" (2-4 letters: NYY, CA), "short" (2-4
    letters or digits: 404, M49's 004; not years), or None."""
    if len(values) < 20 or len(values) < 0.9 * n_cells:
        return None
    share = sum(1 for v in values if SHORT.match(v)) / len(values)
    if share < 0.95 or sum(1 for v in values if re.match(r"^(18|19|20)[0-9][0-9]$", v)) \
            >= 0.5 * len(values):
        return None
    if sum(1 for v in values if v.isalpha()) >= 0.9 * len(values):
        return "short_alpha"
    return "short"


def find_sources(lake: Path) -> dict:
    """family -> [(table path relative to the lake, column, distinct values)], one per
    distinct value set. The short families are pooled apart (with their own duplicate
    check), so the other families' pools are as they were before short kinds existed;
    the "short" pool holds the "short_alpha" columns too."""
    out: dict = {"name": [], "date": [], "code": [], "short": [], "short_alpha": []}
    seen = set()
    seen_short = set()
    for f in sorted(lake.rglob("*.csv")):
        try:
            df = pd.read_csv(f, dtype=str, keep_default_na=False, encoding_errors="replace",
                             on_bad_lines="skip")
        except Exception:
            continue
        for c in df.columns:
            vals = sorted({v.strip() for v in df[c].tolist() if v and v.strip()})
            short = short_family(vals, sum(1 for v in df[c] if v.strip()))
            if short is not None:
                h = hashlib.sha1("\n".join(vals).encode()).hexdigest()
                if h not in seen_short:
                    seen_short.add(h)
                    item = (f.relative_to(lake).as_posix(), c, vals)
                    out["short"].append(item)
                    if short == "short_alpha":
                        out["short_alpha"].append(item)
            fam = family(vals)
            if fam is None:
                continue
            if fam == "code" and len(vals) < 0.9 * sum(1 for v in df[c] if v.strip()):
                continue          # codes: a key column (the planted copy joins N:1 anyway)
            h = hashlib.sha1("\n".join(vals).encode()).hexdigest()
            if h in seen:
                continue
            seen.add(h)
            out[fam].append((f.relative_to(lake).as_posix(), c, vals))
    return out


def plant(lake: Path, work: Path, per_kind: int, seed: int) -> list:
    """Copy the lake to work/lake, write the planted tables, return the plan."""
    dst = work / "lake"
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(lake, dst)
    sources = find_sources(lake)
    rng = np.random.default_rng(seed)
    plans = []
    (dst / "planted").mkdir()
    for kind, (fam, qf, lf) in KINDS.items():
        pool = sources[fam]
        picks = rng.choice(len(pool), size=min(per_kind, len(pool)), replace=False)
        for j, p in enumerate(sorted(int(x) for x in picks)):
            path, col, vals = pool[p]
            if len(vals) > 3000:
                vals = sorted(rng.choice(vals, size=3000, replace=False).tolist())
            pick = lambda xs: xs[int(rng.integers(len(xs)))]   # noqa: E731
            chosen = pick(DOMAINS) if lf in (_email_dot, _email_initial) else \
                pick(LINE_HEADS) if lf is _in_line else \
                pick(GLUE_HEADS) if lf is _glued_prefix else pick(PREFIXES)
            fixed = lambda xs, c=chosen: c                     # noqa: E731  one domain/prefix per table
            planted = sorted({lf(v, fixed) for v in vals})
            name = f"planted/{kind}_{j:02d}.csv"
            pd.DataFrame({"key": planted,
                          "n": rng.integers(0, 1000, len(planted))}).to_csv(dst / name, index=False)
            plans.append({"kind": kind, "split": "development" if kind in DEVELOPMENT else "validation",
                          "source": path, "column": col, "planted": name,
                          "query_transform": qf.__name__ if qf else None,
                          "n_values": len(planted)})
    (work / "plan.json").write_text(json.dumps(plans, indent=1))
    return plans


def query_frame(lake: Path, plan: dict) -> pd.DataFrame:
    df = pd.read_csv(lake / plan["source"], dtype=str, keep_default_na=False,
                     encoding_errors="replace", on_bad_lines="skip")
    col = df[plan["column"]].map(lambda v: v.strip() or None)
    qf = KINDS[plan["kind"]][1]
    if qf is not None and KINDS[plan["kind"]][0] == "name":
        col = col.map(lambda v: qf(v) if v and NAME.match(v) else v)
    elif qf is not None:               # one suffix per plan, fixed by its planted table's name
        h = int(hashlib.sha1(plan["planted"].encode()).hexdigest(), 16)
        col = col.map(lambda v: qf(v, lambda xs: xs[h % len(xs)]) if v else v)
    return pd.DataFrame({plan["column"]: col})


def build(lake: Path, out: Path, components: tuple, master: str) -> dict:
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build as build_index
    if out.exists():
        shutil.rmtree(out)
    t = time.time()
    report = build_index(lake, out, master=master, progress=False,
                         settings=BuildSettings(components=components))
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    tsize = sum(f.stat().st_size for f in (out / "transform").rglob("*") if f.is_file()) \
        if (out / "transform").exists() else 0
    return {"wall": time.time() - t, "phases": report.phase_seconds, "bytes": size,
            "transform_bytes": tsize, "columns": report.n_columns, "tokens": report.n_tokens}


def count_whole_key_checks() -> list:
    """Wrap discovery's whole-key check so each call appends [column, share of query rows
    the verified program joins, share the whole-key program joins or None (not replaced)]
    to the returned list (cleared by the caller per query). A measurement hook: the
    search's answers are unchanged."""
    from lakejoin_jupyter.join.autojoin import discovery
    calls: list = []
    check = discovery._by_whole_keys

    def counted(measured, lake, column, *args):
        got = check(measured, lake, column, *args)
        calls.append([int(column), round(float(measured[6]), 3),
                      None if got is None else round(float(got[6]), 3)])
        return got

    discovery._by_whole_keys = counted
    return calls


def run_queries(index: Path, work: Path, plans: list, k: int, splits=None,
                ranking: str = "overlap") -> list:
    engine = open_index(index, check_lake=False)
    checks = count_whole_key_checks()
    if splits:
        plans = [p for p in plans if p["split"] in splits]
    lake = work / "lake"
    first = query_frame(lake, plans[0])
    engine.search(first, first.columns[0], k=k, method="transform")     # warm-up
    rows = []
    for p in plans:
        q = query_frame(lake, p)
        col = q.columns[0]
        target = engine.index.find_column(p["planted"], "key")
        checks.clear()
        t = time.perf_counter()
        res = engine.search(q, col, k=k, method="transform", rank=ranking)
        lat = time.perf_counter() - t
        replaced = [c[0] for c in checks if c[2] is not None]
        t = time.perf_counter()
        peer = engine.search(q, col, k=k)
        peer_lat = time.perf_counter() - t
        rank = next((h.rank for h in res if h.column_ids[0] == target), None)
        hit = next((h for h in res if h.column_ids[0] == target), None)
        rows.append({**p, "rank": rank, "latency": lat, "peer": peer.method,
                     "peer_rank": next((h.rank for h in peer if h.column_ids[0] == target), None),
                     "peer_latency": peer_lat, "verified": res.stats.get("verified"),
                     "candidate": target in res.stats.get("candidates", []),
                     "program": hit.details["program"] if hit else None,
                     "coverage": hit.details["coverage"] if hit else None,
                     "hits": len(res), **other_hits(res, target, rank),
                     "whole_key_checks": [list(c) for c in checks],
                     "whole_keys": res.stats.get("whole_keys"),
                     "whole_key_hits": sum(h.column_ids[0] in replaced for h in res),
                     "planted_replaced": target in replaced})
        print(f"{p['kind']:<18} {p['source'][:40]:<40} {col[:20]:<20} rank={rank} "
              f"{lat * 1000:.0f} ms  peer rank={rows[-1]['peer_rank']} {peer_lat * 1000:.0f} ms"
              f"  {rows[-1]['program']}  whole-key checks={len(checks)} "
              f"replaced={len(replaced)}", flush=True)
    return rows


def other_hits(res, target: int, rank) -> dict:
    """The listed hits other than the planted column: how many, how many carry no
    coincidence warning, and how many rank above the planted column (all when it is
    missed). The planted column is the query's one true partner made by a transformation;
    another hit may still be real (a copy of the same keys), so these bound the false hits
    from above."""
    others = [h for h in res if h.column_ids[0] != target]
    return {"others": len(others),
            "others_unflagged": sum(not h.key_warning for h in others),
            "others_above": sum(rank is None or h.rank < rank for h in others)}


def _pct(xs, q):
    return float(np.percentile(xs, q)) if len(xs) else float("nan")


def by_split(df: pd.DataFrame):
    """(split, its rows) of the splits that ran, validation first."""
    for split in ("validation", "development"):
        part = df[df["split"] == split]
        if len(part):
            yield split, part


def whole_key_lines(df: pd.DataFrame, args) -> list:
    """The whole-key check per split: verified programs under the share checked, programs
    replaced, replaced columns among the top k, planted columns whose program it replaced."""
    from lakejoin_jupyter.join.autojoin import discovery
    below = discovery.WHOLE_KEY_BELOW
    out = [f"Whole-key check (a verified program joining under {below:g} of the query rows "
           f"set against one learned from whole keys):", "",
           "| split | queries | checks | queries checked | programs replaced | "
           "replaced in top k | planted column's program replaced |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for split, part in by_split(df):
        n_checks = part["whole_key_checks"].map(len)
        out.append(f"| {split} | {len(part)} | {int(n_checks.sum())} | {int((n_checks > 0).sum())} "
                   f"| {int(part['whole_keys'].sum())} | {int(part['whole_key_hits'].sum())} "
                   f"| {int(part['planted_replaced'].sum())} |")
    return out + [""]


def other_hit_lines(df: pd.DataFrame, args) -> list:
    """Per split: the listed hits other than the planted column (:func:`other_hits`)."""
    if "others" not in df:
        return []
    out = [f"Hits other than the planted column (an upper bound on false hits: another "
           f"column may hold the same keys), per query, top {args.k}:", "",
           "| split | queries | other hits | of them without a warning | ranked above the "
           "planted column | queries with an unwarned other hit |",
           "|---|---:|---:|---:|---:|---:|"]
    for split, part in by_split(df):
        out.append(f"| {split} | {len(part)} | {int(part['others'].sum())} | "
                   f"{int(part['others_unflagged'].sum())} | {int(part['others_above'].sum())} | "
                   f"{int((part['others_unflagged'] > 0).sum())} |")
    return out + [""]


def report(rows: list, cost: dict | None, args, load: str) -> str:
    df = pd.DataFrame(rows)
    cmd = (f"python bench/transform_search.py --lake {args.lake} --work {args.work} "
           f"--per-kind {args.per_kind} --seed {args.seed} --k {args.k}"
           + (" --cost" if args.cost else "")
           + (f" --splits {args.splits}" if args.splits != "development,validation" else "")
           + (f" --rank {args.rank}" if args.rank != "overlap" else "")
           + (f" --whole-key-below {args.whole_key_below}"
              if args.whole_key_below is not None else ""))
    out = ["# Transformation-aware search (issue 26, item 3)", "",
           "Reproduce:", "", "```", cmd, "```", "",
           f"Machine: 2 cores shared with other engineers' jobs ({load}); latencies are single "
           f"runs after one warm-up query, the peer ran on the same query right after.", "",
           f"Lake: {args.lake} copied, plus {len(df)} planted tables (a transformed copy of a "
           f"real key column's distinct values, at most 3,000, each); k = {args.k}. "
           f"Development kinds: {', '.join(DEVELOPMENT)}; validation kinds (never tuned on): "
           f"{', '.join(VALIDATION)}."
           + (" The planted lake and its index were built by an earlier invocation of this "
              "command (same seed and code; `--reuse`)." if args.reuse else ""), ""]
    out += ["| split | kind | plants | recall@k | reached verification | recall@k, equality search "
            "(peer) | p50 ms | p90 ms | peer p50 ms | p50 ratio |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for split, part in by_split(df):
        for kind, g in list(part.groupby("kind", sort=False)) + [("all", part)]:
            out.append(
                f"| {split} | {kind} | {len(g)} | {g['rank'].notna().mean():.2f} | "
                f"{g['candidate'].mean():.2f} | {g['peer_rank'].notna().mean():.2f} | "
                f"{_pct(g['latency'] * 1000, 50):.0f} | {_pct(g['latency'] * 1000, 90):.0f} | "
                f"{_pct(g['peer_latency'] * 1000, 50):.1f} | "
                f"{_pct(g['latency'], 50) / _pct(g['peer_latency'], 50):.0f}x |")
    out += ["", f"All {len(df)} queries: recall@{args.k} {df['rank'].notna().mean():.3f}, "
            f"p50 {_pct(df['latency'] * 1000, 50):.0f} ms, p90 {_pct(df['latency'] * 1000, 90):.0f} ms "
            f"(equality search: recall {df['peer_rank'].notna().mean():.3f}, p50 "
            f"{_pct(df['peer_latency'] * 1000, 50):.1f} ms).", ""]
    out += other_hit_lines(df, args)
    out += whole_key_lines(df, args)
    out += ["Programs found for the planted column (first of each kind):", ""]
    for kind, g in df.groupby("kind", sort=False):
        f = g[g["program"].notna()]
        if len(f):
            r = f.iloc[0]
            out.append(f"* {kind}: `{r['column']}` of {r['source']} -> {r['program']} "
                       f"(coverage {r['coverage']:.2f})")
    missed = df[df["rank"].isna()]
    if len(missed):
        out += ["", "Missed (planted column not in the top k):", ""]
        for r in missed.itertuples():
            out.append(f"* {r.kind}: `{r.column}` of {r.source} (reached verification: "
                       f"{'yes' if r.candidate else 'no'})")
    if cost:
        a, b = cost["without"], cost["with"]
        tp = {k: v for k, v in b["phases"].items() if k.startswith("transform")}
        out += ["", "## Build cost on the plain lake (same run, default components with and "
                "without transform)", "",
                "| build | wall s | index MiB | transform MiB |", "|---|---:|---:|---:|",
                f"| default | {a['wall']:.1f} | {a['bytes'] / 2**20:.1f} | - |",
                f"| default + transform | {b['wall']:.1f} | {b['bytes'] / 2**20:.1f} | "
                f"{b['transform_bytes'] / 2**20:.1f} |", "",
                f"Columns {b['columns']:,}, distinct values {b['tokens']:,}. Transform phases "
                f"(s): " + ", ".join(f"{k} {v:.1f}" for k, v in tp.items())
                + f"; together {sum(tp.values()):.1f} s, {sum(tp.values()) / b['wall']:.0%} of "
                f"the build with it, wall ratio {b['wall'] / a['wall']:.2f}."]
    return "\n".join(out) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lake", required=True, help="lake folder (e.g. ../shared/data/lakes)")
    p.add_argument("--work", required=True, help="folder for the planted lake and indexes")
    p.add_argument("--per-kind", type=int, default=12)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--master", default="local[2]")
    p.add_argument("--cost", action="store_true",
                   help="also build the plain lake with and without the component")
    p.add_argument("--reuse", action="store_true", help="reuse the planted lake and its index")
    p.add_argument("--splits", default="development,validation",
                   help="splits whose queries run (comma-separated; validation runs once, at "
                        "the end)")
    p.add_argument("--rank", default="overlap", choices=("overlap", "useful"),
                   help="the transform search's ranking (overlap: the method's own order)")
    p.add_argument("--whole-key-below", type=float, default=None,
                   help="the share of query rows under which a verified program meets the "
                        "whole-key check (0: off; default: the search's own)")
    p.add_argument("--out", default=str(Path(__file__).parent / "results" / "transform_search.md"))
    args = p.parse_args()
    if args.whole_key_below is not None:
        if not 0.0 <= args.whole_key_below <= 1.0:
            p.error(f"--whole-key-below must be a share of rows in [0, 1], got "
                    f"{args.whole_key_below}")
        from lakejoin_jupyter.join.autojoin import discovery
        discovery.WHOLE_KEY_BELOW = args.whole_key_below
    lake, work = Path(args.lake), Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    index = work / "planted.index"
    if args.reuse and index.exists():
        plans = json.loads((work / "plan.json").read_text())
    else:
        plans = plant(lake, work, args.per_kind, args.seed)
        print(f"planted {len(plans)} tables; building the index", flush=True)
        info = build(work / "lake", index, ("transform",), args.master)
        print(f"built in {info['wall']:.0f} s", flush=True)
    cost = None
    if args.cost:
        cost = {"without": build(lake, work / "plain.index", (), args.master),
                "with": build(lake, work / "plain_transform.index", ("transform",), args.master)}
    load = f"load average {os.getloadavg()[0]:.1f} at the start of the queries"
    rows = run_queries(index, work, plans, args.k, args.splits.split(","), args.rank)
    text = report(rows, cost, args, load)
    Path(args.out).write_text(text)
    (work / "rows.json").write_text(json.dumps(rows, indent=1, default=str))
    print(text)


if __name__ == "__main__":
    main()
