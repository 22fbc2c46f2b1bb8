"""The build yardstick: the index's core structures built in one Python process with pyarrow,
numpy and datasketch, no Spark. What the Spark build is measured against (bench/build.py).

    python bench/build_yardstick.py LAKE [--check INDEX] [--json OUT]

Phases, each timed:
  read         every table read once with the package's reader (lake/read.py
               read_columns: the same sniffing and parsing as the build) and normalized
               (lake/normalize.py normalize_array), a chunk of tables at a time; kept: the
               distinct (column, token) pairs
  dictionary   tokens numbered in text order (pyarrow), then the JOSIE global order, sets
               and positional postings with numpy (index/arrays.py build_arrays_from_ids,
               the vectorized reference builder)
  signatures   256-position MinHash of every column with datasketch's MinHash.bulk
               (mmh3 as the hash function, the build's scheme)

``--check INDEX`` compares the result with an index the Spark build wrote: every core array
(dictionary order, frequencies, groups, sets, postings), the token texts and the MinHash
signatures must be equal, or the script exits with status 1.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import fields
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CHUNK_CELLS = 4_000_000


def read_pairs(lake):
    """(column ids, tokens) of the distinct (column, token) pairs, the column count, and
    the number of cells read; columns numbered over readable tables in table order."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from lakejoin_jupyter.lake.discover import discover
    from lakejoin_jupyter.lake.normalize import normalize_array
    from lakejoin_jupyter.lake.read import read_columns

    spec = discover(lake)
    out_cols, out_toks = [], []
    pending, held, next_col, n_cells = [], 0, 0, 0

    def flush():
        if not pending:
            return
        col_ids = np.concatenate([np.full(len(c), cid, np.int64) for cid, c in pending])
        tokens = normalize_array(pa.concat_arrays([c for _, c in pending]))
        keep = pc.is_valid(tokens).to_numpy(zero_copy_only=False)
        enc = pc.dictionary_encode(tokens.filter(pa.array(keep)))
        code = enc.indices.to_numpy().astype(np.int64)
        key = np.unique(col_ids[keep] * max(len(enc.dictionary), 1) + code)
        out_cols.append(key // max(len(enc.dictionary), 1))
        out_toks.append(enc.dictionary.take(pa.array(key % max(len(enc.dictionary), 1))))
        pending.clear()

    for t in spec.tables:
        info, cols = read_columns(t.table_id, t.uri, t.format)
        if cols is None:
            continue
        for c in cols:
            pending.append((next_col, c))
            next_col += 1
            held += len(c)
            n_cells += len(c) - c.null_count
        if held >= CHUNK_CELLS:
            flush()
            held = 0
    flush()
    cols = np.concatenate(out_cols) if out_cols else np.zeros(0, np.int64)
    toks = pa.concat_arrays(out_toks) if out_toks else pa.array([], pa.string())
    return cols, toks, next_col, n_cells


def build(lake, num_perm: int = 256, seed: int = 1) -> dict:
    import pyarrow as pa
    import pyarrow.compute as pc

    from lakejoin_jupyter.index.arrays import build_arrays_from_ids

    times = {}
    t = time.perf_counter()
    cols, toks, n_sets, n_cells = read_pairs(lake)
    times["read"] = time.perf_counter() - t

    t = time.perf_counter()
    enc = pc.dictionary_encode(toks)
    text_rank = np.empty(len(enc.dictionary), dtype=np.int64)
    by_text = pc.sort_indices(enc.dictionary).to_numpy()
    text_rank[by_text] = np.arange(len(by_text))
    values = text_rank[enc.indices.to_numpy()]
    order = np.argsort(cols, kind="stable")
    indptr = np.zeros(n_sets + 1, dtype=np.int64)
    np.cumsum(np.bincount(cols, minlength=n_sets), out=indptr[1:])
    ref = build_arrays_from_ids(indptr, values[order])
    token_text = enc.dictionary.take(pa.array(by_text)).take(pa.array(ref.tokens))
    del order, values
    times["dictionary, sets, postings"] = time.perf_counter() - t

    t = time.perf_counter()
    import mmh3
    from datasketch import MinHash
    a = ref.arrays
    texts = token_text.to_pylist()
    sets = [[texts[i] for i in a.set_tokens(s)] for s in range(a.n_sets)]
    sigs = MinHash.bulk(sets, num_perm=num_perm, seed=seed,
                        hashfunc=lambda s: mmh3.hash(s, signed=False))
    signatures = np.vstack([m.hashvalues for m in sigs]).astype(np.uint32) if sigs else \
        np.zeros((0, num_perm), np.uint32)
    times["signatures"] = time.perf_counter() - t
    return {"arrays": a, "tokens": token_text, "signatures": signatures, "seconds": times,
            "columns": n_sets, "cells": n_cells}


def check(result: dict, index_path) -> list[str]:
    """Differences between the yardstick's structures and the Spark-built index's."""
    from lakejoin_jupyter.index.store import LakeIndex

    ix = LakeIndex(index_path, check_lake=False).generations[0]
    bad = [f.name for f in fields(result["arrays"])
           if not np.array_equal(getattr(result["arrays"], f.name), getattr(ix.arrays, f.name))]
    off = ix.load_npy("dictionary/values_offsets.npy")
    data = ix.load_npy("dictionary/values_bytes.npy")
    tok = result["tokens"].cast("large_string")
    n = len(tok)
    ref_off = np.frombuffer(tok.buffers()[1], dtype=np.int64)[tok.offset:tok.offset + n + 1]
    ref_data = np.frombuffer(tok.buffers()[2], dtype=np.uint8)[ref_off[0]:ref_off[-1]]
    if not (np.array_equal(ref_off - ref_off[0], off) and np.array_equal(ref_data, data)):
        bad.append("token texts")
    if not np.array_equal(result["signatures"], np.asarray(ix.signatures)):
        bad.append("signatures")
    return bad


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("lake")
    p.add_argument("--check", help="a Spark-built index of the same lake to compare with")
    p.add_argument("--json", help="write the timings (and the check) here")
    p.add_argument("--num-perm", type=int, default=256)
    a = p.parse_args(argv)
    t = time.perf_counter()
    r = build(a.lake, a.num_perm)
    out = {"seconds": {k: round(v, 3) for k, v in r["seconds"].items()},
           "total_s": round(time.perf_counter() - t, 3), "columns": r["columns"],
           "cells": r["cells"], "tokens": int(r["arrays"].n_tokens),
           "postings": int(len(r["arrays"].post_sets))}
    if a.check:
        out["check_failed"] = check(r, a.check)
    print(json.dumps(out))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))
    return 1 if out.get("check_failed") else 0


if __name__ == "__main__":
    sys.exit(main())
