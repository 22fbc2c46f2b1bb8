"""Index component "mate": MATE's single-value inverted index with row super keys (MATE §3,
§5.1, §5.3). Spark tasks over the build's long form:

1. XASH of every distinct token: tasks over token-id ranges read the core's dictionary
   arrays and write their rows of token_xash.npy (``xash.xash_array``, vectorized);
2. rows: one task per part of the long form's cells ((table, row, column) order); a row's
   super key = OR of its cells' XASH (``np.bitwise_or.reduceat``); parts concatenated in order;
3. value postings: a counting sort over the row parts in order, in passes over token ranges
   (bounded memory), appended to CSR arrays.

Settings: ``BuildSettings.mate_bits`` (128 default, or 512); a generation of added tables
uses the base index's size. Built by default (``components=["-mate"]`` leaves it out).

Note:
    Super keys are stored per row, not per posting item (§7.1's space-efficient layout).
    Build cost and details: docs/algorithms/mate.md, docs/algorithms/build.md.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ..index.mate_arrays import FILES
from ..spark import fetch_results, release_memory
from ..xash import XashSpec, xash_array
from .component import Component

XASH_TOKENS_PER_TASK = 2_000_000  # tokens hashed by one task


def _xash_ranges(index_dir: str, out: str, spec: XashSpec):
    """Task: the XASH of token ids [lo, hi), read from the index's dictionary arrays and
    written into its rows of the (pre-created) token_xash.npy."""
    def run(ranges):
        import pyarrow as pa
        off = np.load(Path(index_dir) / "dictionary/values_offsets.npy", mmap_mode="r")
        data = np.load(Path(index_dir) / "dictionary/values_bytes.npy", mmap_mode="r")
        dest = np.load(out, mmap_mode="r+")
        for lo, hi in ranges:
            o = np.asarray(off[lo:hi + 1])
            tokens = pa.LargeStringArray.from_buffers(
                hi - lo, pa.py_buffer(o - o[0]), pa.py_buffer(np.asarray(data[o[0]:o[-1]])))
            dest[lo:hi] = xash_array(tokens, spec)
            yield hi - lo
        dest.flush()
    return run


def _row_parts(inputs: dict, words: int):
    """Task: the rows of some parts of the long form's cells (see the module docstring)."""
    def run(items):
        import pyarrow.parquet as pq
        first = np.load(inputs["first"])
        raw_ptr = np.load(inputs["raw_ptr"], mmap_mode="r")
        raw_tokens = np.load(inputs["raw_tokens"], mmap_mode="r")
        xash = np.load(inputs["xash"], mmap_mode="r")
        for k, path in items:
            t = pq.read_table(path)
            table = t.column("table_id").to_numpy()
            rid = t.column("row_id").to_numpy()
            col = (first[table] + t.column("position").to_numpy()).astype(np.int64)
            tok = raw_tokens[raw_ptr[col] + t.column("rcode").to_numpy()]
            keep = tok >= 0
            table, rid, col, tok = table[keep], rid[keep], col[keep].astype(np.int32), tok[keep]
            new = np.ones(len(tok), dtype=bool)
            new[1:] = (rid[1:] != rid[:-1]) | (table[1:] != table[:-1])
            starts = np.flatnonzero(new)
            keys = (np.bitwise_or.reduceat(xash[tok], starts, axis=0) if len(starts)
                    else np.zeros((0, words), np.uint64))
            out = Path(inputs["rows"]) / f"part-{k:05d}.npz"
            np.savez(out, row_table=table[starts].astype(np.int32), row_ids=rid[starts],
                     row_sizes=np.diff(np.r_[starts, len(tok)]).astype(np.int64),
                     row_columns=col, row_tokens=tok.astype(np.int32), superkeys=keys)
            yield k, len(starts), len(tok)
        release_memory()
    return run


def build(ctx) -> dict:
    t0 = time.time()
    bits = ctx.settings.mate_bits
    base = getattr(ctx, "base", None)          # adding tables: keep the base's XASH size
    if base is not None and base.generations[0].has("mate"):
        bits = int(base.generations[0].components["mate"]["xash"]["bits"])
    spec = XashSpec(bits=bits)
    spark, w, prog = ctx.spark, ctx.writer, ctx.progress

    prog.step("MATE: XASH of every value")
    xash_path = w.path(FILES["token_xash"])
    np.lib.format.open_memmap(xash_path, mode="w+", dtype=np.uint64,
                              shape=(ctx.n_tokens, spec.words)).flush()
    ranges = [(lo, min(lo + XASH_TOKENS_PER_TASK, ctx.n_tokens))
              for lo in range(0, ctx.n_tokens, XASH_TOKENS_PER_TASK)]
    if ranges:
        done = sum(fetch_results(spark.sparkContext.parallelize(ranges, len(ranges))
                                 .mapPartitions(_xash_ranges(str(w.tmp), str(xash_path), spec))
                                 .collect, "computing the XASH of every value"))
        if done != ctx.n_tokens:
            raise RuntimeError(f"MATE: XASH of {done} tokens, expected {ctx.n_tokens} (build bug)")

    prog.step("MATE: rows and super keys")
    first = np.full(int(ctx.first_column["table_id"].max()) + 1, -1, dtype=np.int64)
    first[ctx.first_column["table_id"].to_numpy()] = ctx.first_column["first_column_id"].to_numpy()
    inputs = {"first": ctx.scratch("mate/first.npy"), "raw_ptr": ctx.scratch("mate/raw_ptr.npy"),
              "raw_tokens": ctx.scratch("mate/raw_tokens.npy"),
              "xash": w.path(FILES["token_xash"]),
              "rows": ctx.scratch("mate/rows/x").parent}
    np.save(inputs["first"], first)
    np.save(inputs["raw_ptr"], ctx.raw_ptr)
    np.save(inputs["raw_tokens"], ctx.raw_tokens)
    inputs = {k: str(v) for k, v in inputs.items()}
    files = ctx.long.files("cells")
    counts = sorted(fetch_results(
        spark.sparkContext.parallelize(list(enumerate(files)), max(1, len(files)))
        .mapPartitions(_row_parts(inputs, spec.words)).collect,
        "computing the rows' super keys")) if files else []
    release_memory(spark)
    n_rows = sum(c[1] for c in counts)
    n_cells = sum(c[2] for c in counts)
    freq = _concat_rows(w, Path(inputs["rows"]), counts, n_rows, n_cells, spec.words, ctx.n_tokens)

    prog.step("MATE: value postings")
    _postings(w, Path(inputs["rows"]), counts, freq, n_rows)

    nbytes = sum(w.path(rel).stat().st_size for rel in FILES.values())
    return {"xash": spec.manifest(), "rows": int(n_rows), "cells": int(n_cells),
            "bytes": int(nbytes),
            "layout": "per-row super keys; value postings (row, column); row store",
            "seconds": round(time.time() - t0, 3)}


def _concat_rows(w, rows_dir: Path, counts, n_rows: int, n_cells: int, words: int,
                 n_tokens: int) -> np.ndarray:
    """The row store: the tasks' parts appended in order (written front to back). Returns
    the number of cells of every token."""
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    freq = np.zeros(n_tokens, dtype=np.int64)
    r = c = 0
    with w.npy_appender(FILES["row_table"], np.int32, (n_rows,)) as row_table, \
            w.npy_appender(FILES["row_ids"], np.int64, (n_rows,)) as row_ids, \
            w.npy_appender(FILES["superkeys"], np.uint64, (n_rows, words)) as superkeys, \
            w.npy_appender(FILES["row_columns"], np.int32, (n_cells,)) as row_columns, \
            w.npy_appender(FILES["row_tokens"], np.int32, (n_cells,)) as row_tokens:
        for k, nr, nc in counts:
            with np.load(rows_dir / f"part-{k:05d}.npz") as p:
                row_table.write(p["row_table"])
                row_ids.write(p["row_ids"])
                superkeys.write(p["superkeys"])
                indptr[r + 1:r + nr + 1] = c + np.cumsum(p["row_sizes"])
                row_columns.write(p["row_columns"])
                tok = p["row_tokens"]
            row_tokens.write(tok)
            _count_into(freq, tok)
            r, c = r + nr, c + nc
    w.save_npy(FILES["row_indptr"], indptr)
    return freq


def _count_into(counts: np.ndarray, ids: np.ndarray) -> None:
    """counts[i] += occurrences of i in ``ids`` (a sort, not a bincount the size of
    ``counts`` per call)."""
    u, n = np.unique(ids, return_counts=True)
    counts[u] += n


POSTING_CELLS_PER_PASS = 1 << 27   # items of the value postings placed in memory at once


def _postings(w, rows_dir: Path, counts, freq: np.ndarray, n_rows: int,
              cells_per_pass: int = POSTING_CELLS_PER_PASS) -> None:
    """pl_indptr / pl_rows / pl_columns: the items of every token sorted by (row, column).
    A counting sort in passes over ranges of token ids (at most ``cells_per_pass`` items
    each, placed in memory and appended to the files): the parts come in row order and
    hold their cells in (row, column) order, so scattering each part's items (stably
    ordered by token) to the next free places of their tokens keeps every token's items
    sorted."""
    n_cells = int(freq.sum())
    indptr = np.zeros(len(freq) + 1, dtype=np.int64)
    np.cumsum(freq, out=indptr[1:])
    del freq
    w.save_npy(FILES["pl_indptr"], indptr)
    row_dtype = np.int32 if n_rows < 2 ** 31 else np.int64
    bounds = [0]                                   # token ranges of at most cells_per_pass items
    while bounds[-1] < len(indptr) - 1:
        lo = bounds[-1]
        hi = int(np.searchsorted(indptr, indptr[lo] + cells_per_pass, side="right")) - 1
        bounds.append(min(max(hi, lo + 1), len(indptr) - 1))
    with w.npy_appender(FILES["pl_rows"], row_dtype, (n_cells,)) as pl_rows, \
            w.npy_appender(FILES["pl_columns"], np.int32, (n_cells,)) as pl_columns:
        for t_lo, t_hi in zip(bounds[:-1], bounds[1:]):
            base, top = int(indptr[t_lo]), int(indptr[t_hi])
            rows = np.empty(top - base, dtype=row_dtype)
            cols = np.empty(top - base, dtype=np.int32)
            cursor = indptr[t_lo:t_hi].copy()
            r = 0
            for k, nr, nc in counts:
                with np.load(rows_dir / f"part-{k:05d}.npz") as p:
                    tok = p["row_tokens"]
                    sel = np.flatnonzero((tok >= t_lo) & (tok < t_hi))
                    tok = tok[sel]
                    ends = np.cumsum(p["row_sizes"])       # the row of cell i: first end > i
                    row = r + np.searchsorted(ends, sel, side="right")
                    col = p["row_columns"][sel]
                o = np.argsort(tok, kind="stable")
                ts = tok[o] - t_lo
                run = (np.flatnonzero(np.r_[True, ts[1:] != ts[:-1]]) if len(ts)
                       else np.zeros(0, np.int64))
                size = np.diff(np.r_[run, len(ts)])
                dest = cursor[ts] + np.arange(len(ts)) - np.repeat(run, size) - base
                rows[dest] = row[o]
                cols[dest] = col[o]
                cursor[ts[run]] += size
                r += nr
            if not np.array_equal(cursor, indptr[t_lo + 1:t_hi + 1]):
                raise RuntimeError("MATE postings: items and counts disagree (build bug)")
            pl_rows.write(rows)
            pl_columns.write(cols)
            del rows, cols


COMPONENT = Component(
    name="mate", build=build, default=True,
    description="MATE multi-column join search: value postings with (table, column, row) "
                "items, XASH row super keys and a row store")
