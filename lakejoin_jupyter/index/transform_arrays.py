"""The "transform" component's arrays on disk (INDEX/transform/*, memory mapped) and their
pure-numpy reference builder (search/segments.py defines keys, grams and patterns).

Only the columns a transformation join can key on are indexed: not those typed float,
boolean or empty, and not values longer than ``max_value_bytes``. Layout (CSR, 0-based):

* pattern keys: key ``key_hashes[i]`` (sorted, distinct) is held by the (column, token id)
  pairs ``key_columns`` / ``key_tokens`` [key_indptr[i]:key_indptr[i+1]], sorted by
  (column, token); a token is listed under its full key and, when its column has constant
  segments (or, with the spec's ``affix``, a constant affix it holds), under its stripped
  key too;
* segment q-grams: gram ``gram_codes[i]`` (sorted, distinct; a short segment's code,
  below 256^(q-1), is a gram too when the spec's ``short`` is set) occurs in the columns
  ``gram_columns`` [gram_indptr[i]:gram_indptr[i+1]] (ascending), in ``gram_counts`` of
  each column's distinct values; grams held by more than ``max_gram_columns`` columns
  (stop grams) are left out;
* ``columns.parquet``: per column its syntactic pattern, the pattern's share, its constant
  segments and the number of values indexed.

:func:`assemble` turns the flat entries into these arrays, for the Spark build
(indexing/transform.py) and for its pure-numpy reference (search/segments.py
``build_reference``), which the tests compare.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, fields

import numpy as np
import pandas as pd


FOLDER = "transform"
FILES = {
    "key_hashes": "transform/key_hashes.npy",
    "key_indptr": "transform/key_indptr.npy",
    "key_columns": "transform/key_columns.npy",
    "key_tokens": "transform/key_tokens.npy",
    "gram_codes": "transform/gram_codes.npy",
    "gram_indptr": "transform/gram_indptr.npy",
    "gram_columns": "transform/gram_columns.npy",
    "gram_counts": "transform/gram_counts.npy",
}
COLUMNS_FILE = "transform/columns.parquet"
SKIPPED_TYPES = ("float", "boolean", "empty")


@dataclass(frozen=True)
class TransformSpec:
    q: int = 5                        # bytes per segment gram
    max_gram_columns: int = 0         # stop grams: held by more columns (0: n_columns // 50, >= 50)
    max_value_bytes: int = 128        # longer values are not keys
    short: int = 2                    # segments of short..q-1 bytes are grams themselves (0: no)
    affix: int = 1                    # stripped keys cut a column's constant affixes (0: no)

    def gram_limit(self, n_columns: int) -> int:
        return self.max_gram_columns or max(50, n_columns // 50)

    def manifest(self) -> dict:
        return {"q": self.q, "max_gram_columns": self.max_gram_columns,
                "max_value_bytes": self.max_value_bytes, "short": self.short,
                "affix": self.affix}

    @classmethod
    def from_manifest(cls, d: dict) -> "TransformSpec":
        """The spec a build wrote; one written before short grams and affixes existed
        (no "short" / "affix") was built without them."""
        return cls(q=int(d["q"]), max_gram_columns=int(d["max_gram_columns"]),
                   max_value_bytes=int(d["max_value_bytes"]), short=int(d.get("short", 0)),
                   affix=int(d.get("affix", 0)))


@dataclass
class TransformArrays:
    key_hashes: np.ndarray    # uint64 [n_keys]
    key_indptr: np.ndarray    # int64 [n_keys + 1]
    key_columns: np.ndarray   # int32
    key_tokens: np.ndarray    # int32
    gram_codes: np.ndarray    # uint64 [n_grams]
    gram_indptr: np.ndarray   # int64 [n_grams + 1]
    gram_columns: np.ndarray  # int32
    gram_counts: np.ndarray   # int32

    def equals(self, other: "TransformArrays") -> bool:
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name))
                   for f in fields(self))

    @property
    def nbytes(self) -> int:
        return sum(getattr(self, f.name).nbytes for f in fields(self))


@dataclass
class TransformIndex:
    spec: TransformSpec
    arrays: TransformArrays
    columns: pd.DataFrame     # column_id, pattern, pattern_share, constants, n_indexed
    gram_limit: int           # the stop-gram limit the build applied
    stop_grams: int = 0       # grams left out as stop grams


_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def load(index) -> TransformIndex:
    """The memory-mapped arrays of an opened Index generation (loaded once per object)."""
    if index in _CACHE:
        return _CACHE[index]
    from ..errors import ComponentMissingError
    if not index.has("transform"):
        raise ComponentMissingError(
            f"{index.path} was built without the transform component; rebuild it with "
            f"components=['transform'] (CLI: lakejoin index LAKE --with transform).")
    section = index.components["transform"]
    arrays = TransformArrays(**{name: index.load_npy(rel) for name, rel in FILES.items()})
    ti = TransformIndex(TransformSpec.from_manifest(section["spec"]), arrays,
                        pd.read_parquet(index.file(COLUMNS_FILE)), int(section["gram_limit"]),
                        int(section["stop_grams"]))
    _CACHE[index] = ti
    return ti


def indexed_column(column_type: str) -> bool:
    return column_type not in SKIPPED_TYPES


def _csr(keys: np.ndarray, *payload):
    """Sorted distinct keys, indptr, and the payload arrays grouped by key (order: key, then
    the payloads in the order given)."""
    order = np.lexsort(tuple(reversed(payload)) + (keys,))
    keys = keys[order]
    payload = [p[order] for p in payload]
    uniq, starts = np.unique(keys, return_index=True)
    indptr = np.append(starts, len(keys)).astype(np.int64)
    return uniq.astype(np.uint64), indptr, payload


def columns_frame(rows) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=["column_id", "pattern", "pattern_share", "constants",
                                     "n_indexed"])
    df = df.sort_values("column_id", kind="stable").reset_index(drop=True)
    df["column_id"] = df["column_id"].astype("int32")
    df["n_indexed"] = df["n_indexed"].astype("int64")
    df["pattern_share"] = df["pattern_share"].astype("float64")
    df["constants"] = [list(c) for c in df["constants"]]
    return df


def assemble(key_hashes, key_columns, key_tokens, gram_codes, gram_columns, gram_counts,
             columns: pd.DataFrame, spec: TransformSpec, n_columns: int) -> TransformIndex:
    """Arrays from the flat (key, column, token) and (gram, column, count) entries, with the
    stop grams (more than the limit's columns) left out."""
    limit = spec.gram_limit(n_columns)
    uk, kptr, (kcol, ktok) = _csr(key_hashes, key_columns, key_tokens)
    codes, df = np.unique(gram_codes, return_counts=True)
    stop = codes[df > limit]
    keep = ~np.isin(gram_codes, stop)
    ug, gptr, (gcol, gcnt) = _csr(gram_codes[keep], gram_columns[keep], gram_counts[keep])
    arrays = TransformArrays(uk, kptr, kcol.astype(np.int32), ktok.astype(np.int32),
                             ug, gptr, gcol.astype(np.int32),
                             np.minimum(gcnt, np.iinfo(np.int32).max).astype(np.int32))
    return TransformIndex(spec, arrays, columns, limit, int(len(stop)))
