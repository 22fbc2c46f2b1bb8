"""Per-column profile: type, distinct count, nulls, sample values (catalog/columns.parquet).

Computed where the column is read (the read task, indexing/read.py), from the column's
distinct raw values, their tokens and their cell counts, for a whole batch of columns at
once with numpy and Arrow compute: a column never leaves the task that read it, so the
profile needs no shuffle. Statistics are added here (one more output field).

The type is inferred from the column's distinct tokens: "integer", "float", "date",
"boolean" when at least 90% of the distinct tokens have that shape ("integer" only when no
token is a fractional number: -3.5 among whole hours makes the column "float"; a date may
carry a time and an offset), "empty" when the column has no token, otherwise "string". Samples are the most frequent raw values that
have a token (ties by value).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..lake.normalize import MAX_TOKEN_CHARS

TYPE_SHARE = 0.9
_INT = r"^-?[0-9]+$"
_NUM = r"^-?(([0-9]+\.[0-9]+|\.[0-9]+)(e[+-]?[0-9]+)?|[0-9]+(e[+-][0-9]+)?)$"  # as normalize
_DATE = (r"^([0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([ t][0-9:.]+(z|[+-][0-9]{2}(:?[0-9]{2})?)?)?"
         r"|[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4})$")
_BOOL = ["true", "false", "yes", "no", "t", "f", "y", "n"]

# the profile's fields, in catalog order (the read task writes them per column)
FIELDS = ("n_values", "n_keyless", "n_too_long", "n_distinct", "max_len", "type", "samples")


@dataclass
class ColumnBatch:
    """A batch of columns as the read task holds them (all arrays aligned as described).

    Raw values r (one per distinct cell text of a column): ``raw_col[r]`` its column,
    ``raw_text[r]`` its text, ``raw_n[r]`` its cell count, ``raw_tok[r]`` its token as an
    index into ``tokens`` (-1: the text has no token). Distinct (column, token) pairs:
    ``pair_col``/``pair_tok``, sorted by column then token index; ``pair_ptr`` is the CSR
    pointer of the pairs per column. ``n_values[c]``: non-null cells of column c.
    """
    n_columns: int
    raw_col: np.ndarray
    raw_text: object          # pyarrow StringArray
    raw_n: np.ndarray
    raw_tok: np.ndarray
    tokens: object            # pyarrow StringArray of the batch's distinct tokens
    pair_col: np.ndarray
    pair_tok: np.ndarray
    pair_ptr: np.ndarray
    n_values: np.ndarray


def tokens_type(tokens) -> str:
    """The type :func:`profile_columns` gives a column of these distinct tokens."""
    import re
    toks = [str(t) for t in tokens]
    if not toks:
        return "empty"
    n_int, n_num = (sum(1 for t in toks if re.search(p, t)) for p in (_INT, _NUM))
    counts = {"integer": 0 if n_num > n_int else n_int, "float": n_num,
              "date": sum(1 for t in toks if re.search(_DATE, t)),
              "boolean": sum(1 for t in toks if t in _BOOL)}
    return next((name for name, n in counts.items() if n >= TYPE_SHARE * len(toks)), "string")


def profile_columns(b: ColumnBatch, n_samples: int = 5) -> dict:
    """{field: per-column list or array} for the fields of :data:`FIELDS`."""
    import pyarrow as pa
    import pyarrow.compute as pc

    nc = b.n_columns
    keyless = b.raw_tok < 0
    n_keyless = np.bincount(b.raw_col[keyless], weights=b.raw_n[keyless], minlength=nc)
    too_long = keyless & (pc.utf8_length(b.raw_text).to_numpy(zero_copy_only=False)
                          > MAX_TOKEN_CHARS)
    n_too_long = np.bincount(b.raw_col[too_long], weights=b.raw_n[too_long], minlength=nc)
    n_distinct = np.diff(b.pair_ptr)

    def share(mask_of_tokens) -> np.ndarray:
        m = np.asarray(mask_of_tokens.to_numpy(zero_copy_only=False), dtype=bool)[b.pair_tok]
        return np.bincount(b.pair_col[m], minlength=nc)

    toks = b.tokens
    is_int = pc.match_substring_regex(toks, _INT)
    is_num = pc.match_substring_regex(toks, _NUM)
    n_int, n_num = share(is_int), share(is_num)
    n_int[n_num > n_int] = 0                      # a fractional number: not "integer"
    shapes = [("integer", n_int),
              ("float", n_num),
              ("date", share(pc.match_substring_regex(toks, _DATE))),
              ("boolean", share(pc.is_in(toks, value_set=pa.array(_BOOL))))]
    types = np.full(nc, "string", dtype=object)
    for name, count in reversed(shapes):          # the first shape that fits wins
        types[count >= TYPE_SHARE * n_distinct] = name
    types[n_distinct == 0] = "empty"
    tok_len = pc.utf8_length(toks).to_numpy(zero_copy_only=False).astype(np.int64)
    max_len = np.zeros(nc, dtype=np.int64)
    if len(b.pair_tok):
        np.maximum.at(max_len, b.pair_col, tok_len[b.pair_tok])

    # samples: per column the raw values with a token by (cell count desc, text asc)
    keyed = np.flatnonzero(~keyless)
    text_rank = np.empty(len(b.raw_col), dtype=np.int64)
    text_rank[pc.sort_indices(b.raw_text).to_numpy()] = np.arange(len(b.raw_col))
    order = keyed[np.lexsort((text_rank[keyed], -b.raw_n[keyed], b.raw_col[keyed]))]
    col = b.raw_col[order]
    start = np.searchsorted(col, np.arange(nc))
    rank = np.arange(len(order)) - start[col]
    pick = order[rank < n_samples]
    picked_text = b.raw_text.take(pa.array(pick)).to_pylist()
    samples = [[] for _ in range(nc)]
    for c, t in zip(b.raw_col[pick].tolist(), picked_text):
        samples[c].append(t)
    return {"n_values": b.n_values.astype(np.int64), "n_keyless": n_keyless.astype(np.int64),
            "n_too_long": n_too_long.astype(np.int64), "n_distinct": n_distinct.astype(np.int64),
            "max_len": max_len, "type": types.tolist(), "samples": samples}
