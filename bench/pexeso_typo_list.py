"""One-character typos of a public list of names against PEXESO's default tau, per embedder.

    python bench/pexeso_typo_list.py --list /usr/share/zoneinfo/iso3166.tab --field 2 \
        --embedders ngram,e5-small --out /tmp/typo_list.md

The list: one value per line (tab-separated fields: ``--field`` picks one, 1-based; lines
starting with ``#`` are skipped), normalized as the index normalizes cells. Each value of 4
or more characters gets ``--per-value`` seeded one-character typos (bench/pexeso_typos.py's
``one_edit``: deleted, doubled, swapped with the next, or replaced by a keyboard
neighbour). Per embedder and value length, at each tau (the embedder's typo floor, the
user-visible defaults given by ``--taus``), the share of typos matched: within tau of their
own value *and* nearer to it than to any other value of the list (the pair a PEXESO hit on
the list's column would show).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from lakejoin_jupyter.embed import get_embedder                        # noqa: E402
from lakejoin_jupyter.index.pexeso_arrays import TAU_FLOOR             # noqa: E402
from lakejoin_jupyter.lake.normalize import normalize_text             # noqa: E402
from pexeso_typos import one_edit                                      # noqa: E402

BANDS = ((4, 9), (10, 14), (15, 1000), (10, 1000))


def read_list(path: Path, field: int) -> list[str]:
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) >= field:
            v = normalize_text(parts[field - 1].strip())
            if v:
                out.add(v)
    return sorted(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", required=True)
    ap.add_argument("--field", type=int, default=1)
    ap.add_argument("--embedders", default="ngram,e5-small")
    ap.add_argument("--taus", default="0.293,0.39",
                    help="defaults seen on real lakes, reported beside each floor")
    ap.add_argument("--per-value", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    lines = []

    def emit(s=""):
        print(s, flush=True)
        lines.append(s)

    values = read_list(Path(a.list), a.field)
    rng = np.random.default_rng(a.seed)
    pairs = []                        # (value index, typo)
    for i, v in enumerate(values):
        if len(v) < 4:
            continue
        for t in {one_edit(rng, v) for _ in range(a.per_value)}:
            if t not in values:
                pairs.append((i, t))
    vi = np.array([i for i, _ in pairs])
    lens = np.array([len(values[i]) for i in vi])
    emit(f"# One-character typos of {a.list} (field {a.field})\n")
    emit(f"{len(values)} distinct values; {len(pairs)} typos (up to {a.per_value} per value of "
         f"4+ characters, seed {a.seed}). Matched = within tau of its own value and nearer to "
         f"it than to any other value of the list.\n")
    for name in filter(None, a.embedders.split(",")):
        emb = get_embedder(name)
        spec = emb.spec()["name"]
        V = np.asarray(emb.embed(values), np.float64)
        Tv = np.asarray(emb.embed([t for _, t in pairs]), np.float64)
        d_all = np.sqrt(np.clip(2 - 2 * Tv @ V.T, 0, None))
        d_own = d_all[np.arange(len(pairs)), vi]
        nearest_own = d_all.argmin(1) == vi
        taus = sorted({t for t in (TAU_FLOOR.get(spec),) if t is not None}
                      | {float(x) for x in a.taus.split(",") if x})
        emit(f"## {name} ({spec}; typo floor {TAU_FLOOR.get(spec)})\n")
        emit("| value length | typos | d(value, typo) q0.1 / median / q0.9 | "
             + " | ".join(f"matched at tau {t}" for t in taus) + " |")
        emit("|---|---|---|" + "---|" * len(taus))
        for lo, hi in BANDS:
            m = (lens >= lo) & (lens <= hi)
            if not m.any():
                continue
            q = np.quantile(d_own[m], [0.1, 0.5, 0.9])
            label = f"{lo}+" if hi == 1000 else f"{lo}-{hi}"
            cells = [f"{((d_own[m] <= t) & nearest_own[m]).mean():.2f}" for t in taus]
            emit(f"| {label} | {int(m.sum())} | {q[0]:.2f} / {q[1]:.2f} / {q[2]:.2f} | "
                 + " | ".join(cells) + " |")
        emit()
    if a.out:
        Path(a.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
