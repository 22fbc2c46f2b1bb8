"""Index component "joinstats": per-column row counts of every value, and the values' shape.

Counted where the columns are read: the read task (indexing/read.py) holds each column's
distinct raw texts with their cell counts and tokens, so :func:`batch_stats` sums the rows
of every (column, token) and the shape of the column's distinct tokens (how many look like
years or numbers, the numeric range, mean length in characters and words) with numpy over
the whole batch, and the task writes them into the long form: the shapes as fields of the
``columns`` part, the tokens held by more than one row as ``repeated`` rows (the column,
the code of its first raw text with that token, the row count). No shuffle, no join: the
driver (:func:`build`) maps each repeated row to its token id through ``raw_tokens`` (or,
adding the component to a built index, the generation's dictionary) and writes the CSR
arrays index/joinstats.py describes. A search uses them to say, before a join runs, how many
rows it yields (join/preview.py).
"""
from __future__ import annotations

import numpy as np

from ..index.joinstats import COLUMNS_FILE, FILES, NUMBER, SHAPE_FIELDS, YEAR
from .component import Component

COUNT_FIELDS = ("keyed_rows", "max_count", "n_repeated", "n_year", "n_numeric")


def batch_stats(b, rcode: np.ndarray) -> tuple[dict, dict]:
    """The join statistics of a read task's batch of columns (profile.ColumnBatch; ``rcode``:
    each raw text's code within its column). Returns ({SHAPE_FIELDS: per-column array},
    {"column", "token", "rcode", "n": one entry per (column, token) held by more than one
    row, in (column, token) order, with the code of the column's first raw text of that
    token; "token" indexes ``b.tokens``})."""
    import pyarrow.compute as pc

    nc, nt = b.n_columns, max(len(b.tokens), 1)
    keyed = np.flatnonzero(b.raw_tok >= 0)
    pair_key = b.pair_col.astype(np.int64) * nt + b.pair_tok
    pair_of = np.searchsorted(pair_key, b.raw_col[keyed] * nt + b.raw_tok[keyed])
    n_pairs = len(pair_key)
    rows = np.bincount(pair_of, weights=b.raw_n[keyed], minlength=n_pairs).astype(np.int64)
    rep = rows > 1
    # the first raw text (lowest code) of each repeated pair: raw texts are in code order
    hit = rep[pair_of]
    uniq, first = np.unique(pair_of[hit], return_index=True)
    repeated = {"column": b.pair_col[uniq], "token": b.pair_tok[uniq],
                "rcode": rcode[keyed[hit][first]], "n": rows[uniq]}

    toks = b.tokens
    year = np.asarray(pc.match_substring_regex(toks, YEAR).to_numpy(zero_copy_only=False), bool)
    numeric = np.asarray(pc.match_substring_regex(toks, NUMBER).to_numpy(zero_copy_only=False),
                         bool)
    value = np.full(len(toks), np.nan)
    value[numeric] = parse_numbers(toks.filter(numeric))
    length = pc.utf8_length(toks).to_numpy(zero_copy_only=False).astype(np.int64)
    words = pc.count_substring(toks, " ").to_numpy(zero_copy_only=False).astype(np.int64) + 1

    col, tok = b.pair_col, b.pair_tok
    distinct = np.diff(b.pair_ptr)

    def total(weights=None) -> np.ndarray:      # integer sums below 2^53: exact
        return np.bincount(col, weights=weights, minlength=nc)

    out = {"keyed_rows": total(rows).astype(np.int64),
           "max_count": np.zeros(nc, dtype=np.int64),
           "n_repeated": total(rep).astype(np.int64),
           "n_year": total(year[tok]).astype(np.int64),
           "n_numeric": total(numeric[tok]).astype(np.int64),
           "num_min": np.full(nc, np.nan), "num_max": np.full(nc, np.nan),
           "mean_len": np.zeros(nc), "mean_words": np.zeros(nc)}
    some = np.flatnonzero(distinct > 0)
    if len(some):
        at = b.pair_ptr[some]
        out["max_count"][some] = np.maximum.reduceat(rows, at)
        out["num_min"][some] = np.fmin.reduceat(value[tok], at)
        out["num_max"][some] = np.fmax.reduceat(value[tok], at)
        # an average of integers as a sum over a count: the same double as Spark's avg
        out["mean_len"][some] = total(length[tok])[some] / distinct[some]
        out["mean_words"][some] = total(words[tok])[some] / distinct[some]
    return out, repeated


def parse_numbers(texts) -> np.ndarray:
    """float64 of texts matching NUMBER (Arrow's cast: correctly rounded, as Java's and
    Python's parsers are; +-inf beyond the double range, as theirs)."""
    import pyarrow as pa

    return texts.cast(pa.float64()).to_numpy(zero_copy_only=False)


def finish(col: np.ndarray, tid: np.ndarray, counts: np.ndarray, n_sets: int):
    """(indptr int64 [n_sets+1], token ids int32, counts int32): the repeated tokens per
    column, token ids ascending."""
    col = np.asarray(col, dtype=np.int64)
    order = np.lexsort((tid, col))
    indptr = np.zeros(n_sets + 1, dtype=np.int64)
    np.cumsum(np.bincount(col, minlength=n_sets), out=indptr[1:])
    return indptr, np.asarray(tid, dtype=np.int32)[order], \
        np.asarray(counts, dtype=np.int32)[order]


def _column_ids(t, first_of: np.ndarray) -> np.ndarray:
    return first_of[t.column("table_id").to_numpy()] + t.column("position").to_numpy()


def build(ctx) -> dict:
    import pandas as pd
    import pyarrow.parquet as pq

    w = ctx.writer
    first = ctx.first_column
    first_of = np.full(int(first["table_id"].max()) + 1 if len(first) else 1, -1, dtype=np.int64)
    first_of[first["table_id"].to_numpy()] = first["first_column_id"].to_numpy()

    cols, tids, counts = [], [], []
    for f in ctx.long.files("repeated"):
        by_token = ctx.raw_tokens is None        # adding the component: look the texts up
        t = pq.read_table(f, columns=["table_id", "position", "rcode", "n"]
                          + (["token"] if by_token else []))
        c = _column_ids(t, first_of)
        if by_token:
            tid = ctx.lookup(t.column("token").to_pylist())
        else:
            tid = ctx.raw_tokens[ctx.raw_ptr[c] + t.column("rcode").to_numpy()]
        if len(tid) and tid.min() < 0:
            raise RuntimeError("joinstats: a repeated value has no token id (build bug)")
        cols.append(c)
        tids.append(tid)
        counts.append(t.column("n").to_numpy())
    cat = (lambda parts, dt: np.concatenate(parts) if parts else np.zeros(0, dt))
    indptr, toks, cnt = finish(cat(cols, np.int64), cat(tids, np.int32), cat(counts, np.int64),
                               ctx.n_sets)
    for name, arr in zip(("dup_indptr", "dup_tokens", "dup_counts"), (indptr, toks, cnt)):
        w.save_npy(FILES[name], arr)

    shapes = {f: np.zeros(ctx.n_sets, dtype=np.int64) if f in COUNT_FIELDS
              else np.full(ctx.n_sets, np.nan) for f in SHAPE_FIELDS}
    seen = np.zeros(ctx.n_sets, dtype=bool)
    for f in ctx.long.files("columns"):
        t = pq.read_table(f, columns=["table_id", "position", *SHAPE_FIELDS])
        c = _column_ids(t, first_of)
        seen[c] = True
        for name in SHAPE_FIELDS:
            shapes[name][c] = t.column(name).to_numpy(zero_copy_only=False)
    if not seen.all():
        raise RuntimeError("joinstats: the long form lacks the shapes of some columns (build bug)")
    w.save_frame(COLUMNS_FILE, pd.DataFrame(
        {"column_id": np.arange(ctx.n_sets, dtype=np.int64), **shapes}))
    return {"repeated_tokens": int(len(toks)),
            "columns_with_repeats": int(np.count_nonzero(np.diff(indptr))),
            "multiplicities": "exact: tokens in more than one row, with their row counts"}


COMPONENT = Component(
    name="joinstats", build=build, default=True,
    description="Join statistics: the row count of every repeated value and the shape of "
                "each column's values (exact join sizes, fan-out and key kinds before a join).")
