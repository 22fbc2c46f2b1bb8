"""PEXESO's default tau against one-character typos: how far a typo moves a value under each
embedder, against how far apart distinct values sit, and what PEXESO finds at each tau.

    python bench/pexeso_typos.py --lake lakejoin_jupyter/demo_lake --embedders ngram,e5-small \
        --split dev --cache /tmp/pexeso_typos --out /tmp/pexeso_typos/dev.md

The lake: every text column of ``--lake`` (bench/pexeso.py's reader: distinct normalized
values, most holding a letter). Queries: the name-like columns (at least 10 values, median
length >= 4) of the split's tables (DEV_TABLES below, or the other tables for
``--split val``); each is copied with one character edit (deleted, doubled, swapped with
the next, or replaced by a neighbouring letter) in 40 % of its values of 4 or more
characters (seeded), so every typo is exactly one edit away from its value.

Per embedder, per tau (the build's profile quantiles, index/pexeso_arrays.PROFILE_LEVELS,
and the rule's tau):

* typo distance: d(value, its typo), quantiles, by value length;
* typo recall: share of typos within tau of their own value;
* typo right: of the typos whose nearest lake value is within tau, the share whose nearest
  is their own value (the pair a hit shows);
* distinct within tau: share of the clean values that have a *different* lake value within
  tau (what tau lets match that is not the same value);
* columns at T = 0.6 (exact, brute force): whether the source column is found, the typos
  matched in it, and the columns found beyond the ones equality finds for the clean column.
"""
from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from lakejoin_jupyter.embed import get_embedder                        # noqa: E402
from lakejoin_jupyter.index.pexeso_arrays import (PROFILE_LEVELS, PROFILE_VALUES,  # noqa: E402
                                                  default_tau, distance_profile,
                                                  nearest_other, profile_rank_key)
from pexeso import LETTER, read_lake                                  # noqa: E402

T = 0.6
# fixed split by table: development (tuning) and validation (run once, at the end)
DEV_TABLES = ("reference/country-codes.csv", "fivethirtyeight/police-killings/police_killings.csv")
KEYBOARD = "qwertyuiopasdfghjklzxcvbnm"


def one_edit(rng, s: str) -> str:
    """Exactly one character edit of s (the result differs from s)."""
    for _ in range(20):
        i = int(rng.integers(0, len(s)))
        op = int(rng.integers(0, 4))
        if op == 0:
            t = s[:i] + s[i + 1:]
        elif op == 1:
            t = s[:i] + s[i] + s[i:]
        elif op == 2 and i < len(s) - 1:
            t = s[:i] + s[i + 1] + s[i] + s[i + 2:]
        else:
            k = KEYBOARD.find(s[i])
            t = s[:i] + (KEYBOARD[(k + 1) % 26] if k >= 0 else "x") + s[i + 1:]
        if t != s:
            return t
    return s[1:]


def queries_of(cols, names, split, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for c, n in zip(cols, names):
        table = n.split(":")[0]
        if (table in DEV_TABLES) != (split == "dev"):
            continue
        if len(c) < 10 or np.median([len(v) for v in c]) < 4:
            continue
        typos = {}
        for v in c:
            if len(v) >= 4 and LETTER.search(v) and rng.random() < 0.4:
                typos[v] = one_edit(rng, v)
        out.append((n, c, typos))
    return out


class Vectors:
    """Embeddings by text, cached on disk per embedder."""

    def __init__(self, name, cache: Path | None):
        self.emb = get_embedder(name)
        self.name = name
        self.file = cache / f"vec-{name}.pkl" if cache else None
        self.vec = pickle.loads(self.file.read_bytes()) if self.file and self.file.exists() else {}

    def __call__(self, texts):
        texts = list(texts)
        todo = sorted(set(texts).difference(self.vec))
        for i in range(0, len(todo), 256):
            batch = todo[i:i + 256]
            for t, v in zip(batch, self.emb.embed(batch)):
                self.vec[t] = v
        if todo and self.file:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            self.file.write_bytes(pickle.dumps(self.vec))
        return np.vstack([self.vec[t] for t in texts]) if texts else np.zeros((0, 1))


def dist(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    d2 = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2 * a @ b.T
    return np.sqrt(np.clip(d2, 0, None))


def profile_of(cols, vec, text_only):
    """The build's distance profile (indexing/pexeso._distance_profile) on this lake: the
    same sample rule, with a value's position in its column in place of its token id."""
    ds = []
    for c in cols:
        vals = [v for v in c if LETTER.search(v)] if text_only else list(c)
        if len(vals) < 2:
            continue
        h = profile_rank_key(np.arange(len(vals)))
        keep = [vals[i] for i in np.lexsort((np.arange(len(vals)), h))[:PROFILE_VALUES]]
        ds.append(nearest_other(vec(keep)))
    return distance_profile(np.concatenate(ds), columns=len(ds))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lake", required=True)
    ap.add_argument("--embedders", default="ngram,e5-small")
    ap.add_argument("--split", choices=("dev", "val"), default="dev")
    ap.add_argument("--taus", default="", help="extra taus to report (comma-separated)")
    ap.add_argument("--cache", default=None)
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    out = []

    def emit(s=""):
        print(s, flush=True)
        out.append(s)

    cols, names = read_lake(Path(a.lake))
    qs = queries_of(cols, names, a.split)
    n_typos = sum(len(t) for _, _, t in qs)
    emit(f"# PEXESO and one-character typos ({a.split} split)\n")
    emit(f"Lake {a.lake}: {len(cols)} text columns; {len(qs)} query columns of the {a.split} "
         f"split, {sum(len(c) for _, c, _ in qs)} values, {n_typos} with a typo; T = {T}.\n")
    lake_vals = sorted(set().union(*map(set, cols)))
    lake_idx = {v: i for i, v in enumerate(lake_vals)}
    member = [np.array([lake_idx[v] for v in c]) for c in cols]
    cache = Path(a.cache) if a.cache else None
    for name in filter(None, a.embedders.split(",")):
        vec = Vectors(name, cache)
        emb = vec.emb
        text_only = emb.spec()["name"] != "ngram"
        lv = lake_vals if not text_only else [v for v in lake_vals if LETTER.search(v)]
        lv_set = set(lv)
        L = vec(lv)
        lpos = {v: i for i, v in enumerate(lv)}
        prof = profile_of(cols, vec, text_only)
        rule = default_tau(prof, emb.spec()["name"])
        taus = sorted({round(t, 4) for t in prof["quantiles"] if t is not None}
                      | {float(x) for x in a.taus.split(",") if x} | {rule})
        emit(f"## {name} (default tau by the current rule: {rule})\n")
        # typo distances
        orig = [v for _, _, t in qs for v in t]
        typo = [t[v] for _, _, t in qs for v in t]
        d_typo = np.linalg.norm(vec(orig).astype(np.float64) - vec(typo), axis=1)
        lens = np.array([len(v) for v in orig])
        emit(f"| value length | typos | d(value, typo) q0.1 / median / q0.9 | "
             f"within the default tau {rule} |")
        emit("|---|---|---|---|")
        for lo, hi in ((4, 6), (7, 9), (10, 14), (15, 1000), (4, 1000)):
            m = (lens >= lo) & (lens <= hi)
            if m.any():
                q = np.quantile(d_typo[m], [0.1, 0.5, 0.9])
                emit(f"| {'all' if (lo, hi) == (4, 1000) else f'{lo}-{hi if hi < 1000 else chr(32)}'}"
                     f" | {m.sum()} | {q[0]:.3f} / {q[1]:.3f} / {q[2]:.3f} | "
                     f"{np.mean(d_typo[m] <= rule + 1e-9):.3f} |")
        emit("")
        # nearest lake value of each typo, and of each clean value (other than itself)
        Dt = dist(vec(typo), L)
        near = Dt.argmin(1)
        near_d = Dt[np.arange(len(typo)), near]
        own = np.array([lpos.get(v, -1) for v in orig])
        clean = sorted({v for _, c, _ in qs for v in c if v in lv_set})
        Dc = dist(vec(clean), L)
        Dc[Dc <= 1e-6] = np.inf
        other_d = Dc.min(1)
        emit("| tau | profile level | typo recall | typo right | distinct within tau | "
             "source columns found | typos matched in source | columns beyond equality |")
        emit("|---|---|---|---|---|---|---|---|")
        for tau in taus:
            level = [lv_ for lv_, t in zip(prof["levels"], prof["quantiles"])
                     if t is not None and round(t, 4) == tau]
            recall = float(np.mean(d_typo <= tau + 1e-9))
            hit = near_d <= tau + 1e-9
            right = float(np.mean(near[hit] == own[hit])) if hit.any() else float("nan")
            distinct = float(np.mean(other_d <= tau + 1e-9))
            src_found = matched = extra = 0
            for (qn, c, t), src in zip(qs, (names.index(n) for n, _, _ in qs)):
                qv = [t.get(v, v) for v in c]
                Q = vec(qv)
                D = dist(Q, L) <= tau + 1e-9
                t_abs = max(1, int(np.ceil(T * len(qv))))
                found = set()
                for j, m in enumerate(member):
                    idx = [lpos[lake_vals[i]] for i in m if lake_vals[i] in lpos]
                    if idx and D[:, idx].any(1).sum() >= t_abs:
                        found.add(j)
                eq = {j for j, cc in enumerate(cols) if len(set(c) & set(cc)) >= t_abs}
                src_found += src in found
                sidx = [lpos[v] for v in c if v in lpos]
                typo_rows = [i for i, v in enumerate(c) if v in t]
                matched += int(D[np.ix_(typo_rows, sidx)].any(1).sum()) if typo_rows else 0
                extra += len(found - eq)
            emit(f"| {tau:.4f} | {level[0] if level else ''} | {recall:.3f} | {right:.3f} | "
                 f"{distinct:.3f} | {src_found}/{len(qs)} | {matched}/{n_typos} | {extra} |")
        emit("")
    if a.out:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
