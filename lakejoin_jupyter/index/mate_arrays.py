"""The MATE component's arrays on disk (INDEX/mate/*.npy, memory mapped) and their reference
builder (MATE §3, §5.1, §7.1).

Rows are numbered densely in (table id, row id) order; only rows holding a token are kept:

* ``superkeys`` (n_rows, words) uint64: each row's super key, the OR of the XASH of every
  token in the row, stored per row (§7.1's space-efficient layout) and gathered by row;
* ``row_table``, ``row_ids``: a row's table id and its 0-based data row in the table;
* row store: row r's cells are ``row_columns`` / ``row_tokens`` [row_indptr[r]:
  row_indptr[r+1]], sorted by column id;
* value postings (§3, Eq. 4): token t's items (row, column) are ``pl_rows`` /
  ``pl_columns`` [pl_indptr[t]:pl_indptr[t+1]], sorted by (row, column);
* ``token_xash`` (n_tokens, words): every dictionary token's XASH, for query super keys.

:func:`build_reference` is the pure-Python reference the Spark build (indexing/mate.py) is
tested against. Details: docs/algorithms/mate.md.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, fields
from typing import Sequence

import numpy as np

from ..xash import XashSpec, xash_words

FILES = {
    "token_xash": "mate/token_xash.npy",
    "superkeys": "mate/row_superkeys.npy",
    "row_table": "mate/row_table.npy",
    "row_ids": "mate/row_ids.npy",
    "row_indptr": "mate/row_indptr.npy",
    "row_columns": "mate/row_columns.npy",
    "row_tokens": "mate/row_tokens.npy",
    "pl_indptr": "mate/pl_indptr.npy",
    "pl_rows": "mate/pl_rows.npy",
    "pl_columns": "mate/pl_columns.npy",
}


@dataclass
class MateArrays:
    spec: XashSpec
    token_xash: np.ndarray    # uint64 [n_tokens, words]
    superkeys: np.ndarray     # uint64 [n_rows, words]
    row_table: np.ndarray     # int32 [n_rows]
    row_ids: np.ndarray       # int64 [n_rows]
    row_indptr: np.ndarray    # int64 [n_rows + 1]
    row_columns: np.ndarray   # int32 [n_cells]
    row_tokens: np.ndarray    # int32 [n_cells]
    pl_indptr: np.ndarray     # int64 [n_tokens + 1]
    pl_rows: np.ndarray       # int32 [n_cells]
    pl_columns: np.ndarray    # int32 [n_cells]
    column_table: np.ndarray  # int32 [n_columns]: table id of each column (the catalog)

    @property
    def n_rows(self) -> int:
        return len(self.row_table)

    def column_counts(self, column: int, token_ids: np.ndarray) -> np.ndarray:
        """Rows of ``column`` (local id) holding each of ``token_ids``: its items in the
        tokens' value postings (one per cell), what the join statistics store, counted."""
        from .reads import ranges
        token_ids = np.asarray(token_ids, dtype=np.int64)
        lo = np.asarray(self.pl_indptr[token_ids], dtype=np.int64)
        lens = np.asarray(self.pl_indptr[token_ids + 1], dtype=np.int64) - lo
        mine = np.asarray(self.pl_columns[ranges(lo, lens)]) == column
        owner = np.repeat(np.arange(len(token_ids)), lens)
        return np.bincount(owner[mine], minlength=len(token_ids)).astype(np.int64)

    def _table_cells(self, table: int) -> tuple:
        """The cells of table ``table`` in the row store (its rows are consecutive): the
        number of its rows, and per cell its row (0-based within the table), local column
        id and token."""
        lo = int(np.searchsorted(self.row_table, table, side="left"))
        hi = int(np.searchsorted(self.row_table, table, side="right"))
        start, stop = int(self.row_indptr[lo]), int(self.row_indptr[hi])
        width = np.diff(np.asarray(self.row_indptr[lo:hi + 1], dtype=np.int64))
        return (hi - lo, np.repeat(np.arange(hi - lo), width),
                np.asarray(self.row_columns[start:stop], dtype=np.int64),
                np.asarray(self.row_tokens[start:stop], dtype=np.int64))

    def key_partners(self, table: int, column: int, candidates, chance: float = 1.0) -> list:
        """Of ``candidates`` (local column ids of table ``table``), those that make a key of
        the table with ``column``: on every row holding one of its repeated values, each holds
        a value and no two such rows hold the same pair. A candidate whose values would tell
        those rows apart by chance with a probability above ``chance`` is left out (each pair
        of rows sharing a value of ``column`` differs in the candidate with 1 - its collision
        probability: all of them with about exp(-pairs x collision)). Read from the row store:
        the table's rows are consecutive."""
        n_rows, row, col, tok = self._table_cells(table)

        def values(c: int) -> np.ndarray:          # token per row of the table (-1: none)
            out = np.full(n_rows, -1, dtype=np.int64)
            at = col == c
            out[row[at]] = tok[at]
            return out

        def cells(c: int) -> tuple:                 # (row, token) of each cell: a list
            at = col == c                           # column's row holds each element
            return row[at], tok[at]

        others = [int(c) for c in candidates if int(c) != int(column)]
        found = pair_partners(values(int(column)), (cells(c) for c in others), chance)
        return [others[i] for i in found]

    def tuple_profile(self, table: int, columns) -> tuple[int, int]:
        """(distinct tuples, rows holding one) of the key made of ``columns`` (local column
        ids of table ``table``): the rows with a value in every one of them, read from the
        row store (a list column's row is read by one of its elements)."""
        n_rows, row, col, tok = self._table_cells(table)
        codes = np.full((n_rows, len(columns)), -1, dtype=np.int64)
        for j, c in enumerate(columns):
            at = col == int(c)
            codes[row[at], j] = tok[at]
        keyed = codes[(codes >= 0).all(axis=1)]
        return (len(np.unique(keyed, axis=0)) if len(keyed) else 0), len(keyed)

    def equals(self, other: "MateArrays") -> bool:
        return self.spec == other.spec and all(
            np.array_equal(getattr(self, f.name), getattr(other, f.name))
            for f in fields(self) if f.name != "spec")


def pair_partners(key: np.ndarray, others, chance: float = 1.0) -> list:
    """Positions in ``others`` of the columns that make a key with ``key`` (a code per row,
    -1: no value); each of ``others`` is a code per row, or (rows, codes) of its cells, a
    list column's row holding a cell per element: on every row holding a repeated value
    of ``key``, the column holds a value and no two such rows hold the same pair (a value
    and an element, as after an explode); one that would tell those rows apart by chance
    with a probability above ``chance`` is left out (each pair of rows sharing a value
    differs in the column with 1 - its collision probability: all of them with about
    exp(-pairs x collision)). :meth:`MateArrays.key_partners` on the index's rows, the
    engine on a query frame's."""
    key = np.asarray(key, dtype=np.int64)
    values, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    repeated = (key >= 0) & (counts[inverse] > 1)
    n = counts[(values >= 0) & (counts > 1)].astype(np.float64)   # rows per repeated value
    pairs = float((n * (n - 1) / 2).sum())
    out = []
    for i, other in enumerate(others):
        if pairs == 0:
            break
        if isinstance(other, tuple):
            rows, codes = (np.asarray(a, dtype=np.int64) for a in other)
        else:
            codes = np.asarray(other, dtype=np.int64)
            rows = np.arange(len(codes), dtype=np.int64)
        keep = codes >= 0
        rows, codes = rows[keep], codes[keep]
        if len(codes):                      # an element held twice by one row: once
            width = int(codes.max()) + 1
            cell = np.unique(rows * width + codes)
            rows, codes = cell // width, cell % width
        held = np.unique(codes, return_counts=True)[1].astype(np.float64)
        collision = float((held ** 2).sum() / max(held.sum(), 1.0) ** 2)
        if pairs * collision < -np.log(chance):
            continue
        mine = repeated[rows]
        if not np.isin(np.flatnonzero(repeated), rows[mine]).all():
            continue                        # a row of a repeated value without a value
        both = np.sort(key[rows[mine]] * (int(codes.max(initial=0)) + 1) + codes[mine])
        if not (both[1:] == both[:-1]).any():          # no two rows hold the same pair
            out.append(i)
    return out


_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def load(index) -> MateArrays:
    """The memory-mapped MATE arrays of a generation (loaded once per Generation object)."""
    if index in _CACHE:
        return _CACHE[index]
    from ..errors import ComponentMissingError
    if not index.has("mate"):
        raise ComponentMissingError(
            f"{index.path} was built without the MATE component; rebuild it with "
            f"components=['mate'] (CLI: lakejoin index LAKE --with mate).")
    spec = XashSpec.from_manifest(index.components["mate"]["xash"])
    arrays = {name: index.load_npy(rel) for name, rel in FILES.items()}
    ma = MateArrays(spec=spec, column_table=index.columns["table_id"].to_numpy(np.int32),
                    **arrays)
    _check(index, ma)
    _CACHE[index] = ma
    return ma


def _check(index, ma: MateArrays) -> None:
    """Bounds of every value that sizes or indexes the search's arrays: a damaged index
    (opened without checksum verification) fails here, clearly."""
    from .store import check_csr, check_ok, check_range
    path, words = index.path, ma.spec.words
    n_rows, n_tokens = len(ma.row_table), index.n_tokens
    for name, shape in (("token_xash", (n_tokens, words)), ("superkeys", (n_rows, words)),
                        ("row_ids", (n_rows,)), ("row_tokens", ma.row_columns.shape),
                        ("pl_columns", ma.pl_rows.shape)):
        got = getattr(ma, name).shape
        check_ok(path, FILES[name], got == shape, f"shape {got}, expected {shape}")
    check_csr(path, FILES["row_indptr"], ma.row_indptr, n_rows, len(ma.row_columns))
    check_csr(path, FILES["pl_indptr"], ma.pl_indptr, n_tokens, len(ma.pl_rows))
    for name, hi in (("row_columns", index.n_sets), ("pl_columns", index.n_sets),
                     ("row_tokens", n_tokens), ("pl_rows", n_rows),
                     ("row_table", len(index.tables))):
        check_range(path, FILES[name], getattr(ma, name), 0, hi)


def build_reference(tables: Sequence[Sequence[Sequence]], token_id: dict, n_tokens: int,
                    spec: XashSpec = XashSpec(), table_ids: Sequence[int] | None = None
                    ) -> MateArrays:
    """MATE arrays of a lake given as tables of rows of tokens (None for no token; a list:
    a list column's cell, one cell per element in order; every
    row of a table as wide as the table), with column ids numbered consecutively over the
    tables in order, table ids ``table_ids`` (default 0, 1, ...) and ``token_id`` the
    dictionary (token -> id). Plain Python; for tests and as the Spark build's oracle."""
    tokens_by_id = [None] * n_tokens
    for t, i in token_id.items():
        tokens_by_id[i] = t
    token_xash = xash_words(tokens_by_id, spec) if n_tokens else np.zeros((0, spec.words), np.uint64)
    column_table, rows, cells = [], [], []     # rows: (table, row id); cells per row
    first = 0
    table_ids = range(len(tables)) if table_ids is None else table_ids
    for tid, table in zip(table_ids, tables):
        width = max((len(r) for r in table), default=0)
        for rid, row in enumerate(table):
            got = [(first + j, token_id[e]) for j, v in enumerate(row)
                   for e in (v if isinstance(v, list) else [v]) if e is not None]
            if got:
                rows.append((tid, rid))
                cells.append(got)
        column_table += [tid] * width
        first += width
    superkeys = np.zeros((len(rows), spec.words), dtype=np.uint64)
    for r, got in enumerate(cells):
        for _, tok in got:
            superkeys[r] |= token_xash[tok]
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(c) for c in cells])
    postings: dict = {}
    for r, got in enumerate(cells):
        for col, tok in got:
            postings.setdefault(tok, []).append((r, col))
    pl_indptr = np.zeros(n_tokens + 1, dtype=np.int64)
    pl_indptr[1:] = np.cumsum([len(postings.get(t, ())) for t in range(n_tokens)])
    items = [it for t in range(n_tokens) for it in sorted(postings.get(t, ()))]
    return MateArrays(
        spec=spec, token_xash=token_xash, superkeys=superkeys,
        row_table=np.array([t for t, _ in rows], dtype=np.int32),
        row_ids=np.array([r for _, r in rows], dtype=np.int64),
        row_indptr=indptr,
        row_columns=np.array([c for got in cells for c, _ in got], dtype=np.int32),
        row_tokens=np.array([t for got in cells for _, t in got], dtype=np.int32),
        pl_indptr=pl_indptr,
        pl_rows=np.array([r for r, _ in items], dtype=np.int32),
        pl_columns=np.array([c for _, c in items], dtype=np.int32),
        column_table=np.array(column_table, dtype=np.int32))


def pair_matches(lake_key, lake_partner, query_key, query_partner,
                 partner_rows: int) -> tuple[int, int, float]:
    """How a query frame's pairs (key, partner) meet a lake table's: (query rows whose
    pair is one of the lake's, query rows whose key is one of the lake's, the rows of the
    first kind expected by chance). Each argument is a code per row (the index's token ids,
    -1: no value or one the index lacks), ``lake_partner`` also (rows, codes) of its cells
    (a list column); ``partner_rows``: the query rows with a partner value. By chance, a
    query row's partner is one of its key's lake partners with the sum of their shares of
    the query's partner values."""
    lk, qk, qp = (np.asarray(a, dtype=np.int64) for a in (lake_key, query_key, query_partner))
    if isinstance(lake_partner, tuple):
        rows, lp = (np.asarray(a, dtype=np.int64) for a in lake_partner)
    else:
        lp = np.asarray(lake_partner, dtype=np.int64)
        rows = np.arange(len(lp), dtype=np.int64)
    keep = (lp >= 0) & (lk[rows] >= 0)
    width = int(max(lp.max(initial=0), qp.max(initial=0))) + 1
    pairs = np.unique(lk[rows[keep]] * width + lp[keep])
    keyed = (qk >= 0) & np.isin(qk, lk[lk >= 0])
    paired = keyed & (qp >= 0) & np.isin(qk * width + np.maximum(qp, 0), pairs)
    values, held = np.unique(qp[qp >= 0], return_counts=True)
    pk, pl = pairs // width, pairs % width
    pos = np.minimum(np.searchsorted(values, pl), max(len(values) - 1, 0))
    share = np.where(values[pos] == pl, held[pos], 0) / max(int(partner_rows), 1) \
        if len(values) else np.zeros(len(pl))
    keys, at = np.unique(pk, return_inverse=True)
    per_key = np.bincount(at, weights=share, minlength=len(keys))
    pos = np.minimum(np.searchsorted(keys, qk[keyed]), max(len(keys) - 1, 0))
    found = keys[pos] == qk[keyed] if len(keys) else np.zeros(0, dtype=bool)
    return int(paired.sum()), int(keyed.sum()), float(per_key[pos[found]].sum())
