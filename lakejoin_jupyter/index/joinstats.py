"""Per-column join statistics: how many rows hold each value, and the shape of the values.

A column's multiplicities are stored exactly, as a sparse list: the token ids that occur
in more than one row with their row counts (``dup_indptr`` / ``dup_tokens`` /
``dup_counts``, CSR by column, token ids ascending); every other token of the column's set
occurs in exactly one row. A key column therefore costs nothing, a panel column one entry
per key. ``columns.parquet`` holds, per column, the shape of its distinct values (how many
look like years, their numeric range, their mean length in characters and words), which
``join/preview.py`` turns into a key kind.

The Spark build (indexing/joinstats.py) writes these files; :func:`reference_stats` is its
numpy reference (tests).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

FOLDER = "joinstats"
FILES = {"dup_indptr": f"{FOLDER}/dup_indptr.npy", "dup_tokens": f"{FOLDER}/dup_tokens.npy",
         "dup_counts": f"{FOLDER}/dup_counts.npy"}
COLUMNS_FILE = f"{FOLDER}/columns.parquet"
# per column: rows with a token, the largest row count of a token, tokens in >1 row,
# distinct tokens shaped like a year, numeric range, mean token length (chars, words)
SHAPE_FIELDS = ("keyed_rows", "max_count", "n_repeated", "n_year", "n_numeric", "num_min",
                "num_max", "mean_len", "mean_words")

YEAR = r"^(1[6-9][0-9]{2}|20[0-9]{2})$"          # 1600..2099 as a token
NUMBER = r"^-?(([0-9]+\.[0-9]+|\.[0-9]+)(e[+-]?[0-9]+)?|[0-9]+(e[+-][0-9]+)?)$"  # as normalize


@dataclass
class JoinStats:
    """One generation's join statistics (arrays memory-mapped, shapes as a frame)."""
    dup_indptr: np.ndarray     # int64 [n_sets + 1]
    dup_tokens: np.ndarray     # int32: per column, token ids in more than one row, ascending
    dup_counts: np.ndarray     # int32: their row counts (>= 2)
    shapes: dict               # SHAPE_FIELDS -> array by local column id

    @classmethod
    def load(cls, generation) -> "JoinStats":
        arrays = {name: generation.load_npy(rel) for name, rel in FILES.items()}
        frame = pd.read_parquet(generation.file(COLUMNS_FILE))
        return cls(shapes=shape_arrays(frame, generation.n_sets), **arrays)

    def repeated(self, column: int) -> tuple[np.ndarray, np.ndarray]:
        """(token ids, row counts) of the column's tokens that occur in more than one row."""
        lo, hi = self.dup_indptr[column], self.dup_indptr[column + 1]
        return self.dup_tokens[lo:hi], self.dup_counts[lo:hi]

    def counts(self, column: int, token_ids: np.ndarray) -> np.ndarray:
        """Rows of ``column`` holding each of ``token_ids`` (tokens of its set): 1 unless
        the token is listed as repeated."""
        token_ids = np.asarray(token_ids)
        out = np.ones(len(token_ids), dtype=np.int64)
        toks, cnt = self.repeated(column)
        if len(toks) and len(token_ids):
            pos = np.searchsorted(toks, token_ids)
            pos[pos == len(toks)] = 0
            hit = toks[pos] == token_ids
            out[hit] = cnt[pos[hit]]
        return out

    def shape(self, column: int) -> dict:
        return {f: self.shapes[f][int(column)] for f in SHAPE_FIELDS}


def shape_arrays(frame: pd.DataFrame, n_sets: int) -> dict:
    """The shape frame (column_id, SHAPE_FIELDS) as one array per field, by column id."""
    full = frame.set_index("column_id").reindex(range(n_sets))
    return {f: full[f].to_numpy(dtype=np.float64) for f in SHAPE_FIELDS}


@dataclass
class ReferenceStats:
    """:func:`reference_stats`' output, laid out like the files the build writes."""
    dup_indptr: np.ndarray
    dup_tokens: np.ndarray
    dup_counts: np.ndarray
    shapes: pd.DataFrame

    def as_joinstats(self) -> JoinStats:
        return JoinStats(self.dup_indptr, self.dup_tokens, self.dup_counts,
                         shape_arrays(self.shapes, len(self.dup_indptr) - 1))


def value_shape(tokens) -> dict:
    """The shape fields of a column's distinct tokens: how many look like years and numbers,
    the numbers' range, the mean length in characters and in words."""
    year, number = re.compile(YEAR), re.compile(NUMBER)
    toks = [str(t) for t in tokens]
    nums = [float(t) for t in toks if number.fullmatch(t)]
    return {"n_year": sum(1 for t in toks if year.fullmatch(t)), "n_numeric": len(nums),
            "num_min": min(nums) if nums else np.nan, "num_max": max(nums) if nums else np.nan,
            "mean_len": float(np.mean([len(t) for t in toks])) if toks else 0.0,
            "mean_words": float(np.mean([len(t.split(" ")) for t in toks])) if toks else 0.0}


def reference_stats(column_rows: Sequence[Sequence[str | None]], token_id: dict) -> ReferenceStats:
    """The statistics of columns given as their rows' tokens (None: no token), with the
    dictionary ``token_id`` (token -> id). Pure Python; the oracle of the Spark build."""
    indptr, toks, cnts, shapes = [0], [], [], []
    for cid, rows in enumerate(column_rows):
        counts: dict = {}
        for t in rows:
            if t is not None:
                counts[t] = counts.get(t, 0) + 1
        rep = sorted((token_id[t], n) for t, n in counts.items() if n > 1)
        toks += [i for i, _ in rep]
        cnts += [n for _, n in rep]
        indptr.append(len(toks))
        shapes.append({
            "column_id": cid, "keyed_rows": sum(counts.values()),
            "max_count": max(counts.values(), default=0), "n_repeated": len(rep),
            **value_shape(counts)})
    return ReferenceStats(np.array(indptr, dtype=np.int64), np.array(toks, dtype=np.int32),
                          np.array(cnts, dtype=np.int32), pd.DataFrame(shapes))

