"""What the open-time bounds checks of the index arrays cost (index/store.py check_arrays).

    python bench/open_checks.py --sets 200000 --set-size 50 --repeat 5

Writes a synthetic index (no Spark: random sets through the index writer, valid bounds),
then opens it, page cache warm, three ways in the same run: without checksums and without
the bounds checks (the open before the checks existed), without checksums (``--no-verify``:
bounds checks only), and the default open (checksums and bounds checks). Reports medians
and ratios; writes bench/results/open_checks.md.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lakejoin_jupyter.index import store  # noqa: E402
from lakejoin_jupyter.index.arrays import postings_from_sets  # noqa: E402


def write_index(out: Path, n_sets: int, set_size: int, n_tokens: int, seed: int = 0) -> int:
    rng = np.random.default_rng(seed)
    indptr = np.arange(n_sets + 1, dtype=np.int64) * set_size
    tokens = np.sort(rng.integers(0, n_tokens, size=(n_sets, set_size), dtype=np.int32), axis=1)
    tokens = tokens.ravel()
    p_indptr, p_sets, p_pos, p_sizes = postings_from_sets(indptr, tokens, n_tokens)
    freq = np.maximum(np.diff(p_indptr), 1).astype(np.int32)
    w = store.IndexWriter(out)
    for rel, arr in (("dictionary/freq.npy", freq),
                     ("dictionary/group.npy", np.arange(n_tokens, dtype=np.int32)),
                     ("sets/indptr.npy", indptr), ("sets/token_ids.npy", tokens),
                     ("postings/indptr.npy", p_indptr), ("postings/set_ids.npy", p_sets),
                     ("postings/positions.npy", p_pos), ("postings/set_sizes.npy", p_sizes),
                     ("dictionary/hash_sorted.npy", np.arange(n_tokens, dtype=np.uint64)),
                     ("dictionary/hash_ids.npy", np.arange(n_tokens, dtype=np.int32)),
                     ("dictionary/values_offsets.npy", np.arange(n_tokens + 1, dtype=np.int64)),
                     ("dictionary/values_bytes.npy", np.full(n_tokens, 97, np.uint8)),
                     ("minhash/signatures.npy", np.zeros((n_sets, 8), np.uint32))):
        w.save_npy(rel, arr)
    w.commit({"counts": {"columns": n_sets, "tokens": n_tokens, "tables": 1},
              "components": {"minhash": {"num_perm": 8, "seed": 1}}, "lake": {}})
    return len(tokens)


def timed(fn, repeat: int) -> float:
    fn()                                   # warm the page cache
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", type=int, default=200_000)
    ap.add_argument("--set-size", type=int, default=50)
    ap.add_argument("--tokens", type=int, default=2_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results" / "open_checks.md"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "synthetic.index"
        nnz = write_index(path, a.sets, a.set_size, a.tokens)
        real_check = store.Index.check_arrays
        store.Index.check_arrays = lambda self: None
        t_none = timed(lambda: store.LakeIndex(path, verify=False, check_lake=False), a.repeat)
        store.Index.check_arrays = real_check
        t_bounds = timed(lambda: store.LakeIndex(path, verify=False, check_lake=False), a.repeat)
        t_full = timed(lambda: store.LakeIndex(path, verify=True, check_lake=False), a.repeat)
        size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
    cmd = (f"python bench/open_checks.py --sets {a.sets} --set-size {a.set_size} "
           f"--tokens {a.tokens} --repeat {a.repeat}")
    lines = [
        "Opening an index, page cache warm, median of "
        f"{a.repeat}: a synthetic index of {a.sets:,} sets x {a.set_size} values "
        f"({nnz:,} postings, {a.tokens:,} tokens, {size / 2**20:.0f} MiB of arrays). "
        "The machine was shared and loaded; compare the ratios.", "",
        f"    {cmd}", "",
        "| open | ms | share of the default open |",
        "|---|---|---|",
        f"| `--no-verify`, without bounds checks (before) | {t_none * 1e3:.1f} | "
        f"{t_none / t_full:.1%} |",
        f"| `--no-verify` (bounds checks) | {t_bounds * 1e3:.1f} | {t_bounds / t_full:.1%} |",
        f"| default (checksums + bounds checks) | {t_full * 1e3:.1f} | 100% |",
        "",
        f"The bounds checks cost {(t_bounds - t_none) / nnz * 1e9:.1f} ns per posting "
        "(one pass over the id arrays); memory-mapped arrays are otherwise not read at open.",
    ]
    Path(a.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
