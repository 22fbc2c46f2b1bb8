"""The n-ary joinability oracle: every table, every column mapping, no index (MATE §2).

For a query of m key columns with distinct key tuples K and a table S, the joinability is
Eq. 2 with Eq. 1's set semantics:

    j(K, S) = max over injective ordered choices Y of m columns of S of |K ∩ pi_Y(S)|

i.e. the number of distinct query key tuples that some row of S holds in the columns Y
(duplicate rows of S count once; a column cannot serve two key columns). The best mapping
is the one of largest count, ties going to the smallest tuple of column ids.

A table is a dense (rows x columns) matrix of token ids, -1 where a cell holds no token.
Mappings that cannot score are skipped without changing the result: a key column only maps
to a column holding at least one of its values. Nothing here shares code with the MATE
search (search/mate.py) or its index, so the tests and benchmarks compare MATE against
something independent. A hit carries its matched tuples and the table rows holding each, as
MATE's do, so that its fan-out and join rows are exact too.
"""
from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .registry import SearchMethod


@dataclass
class TableScore:
    table_id: int
    score: int
    mapping: tuple      # candidate column id per key column


def table_joinability(matrix: np.ndarray, first_column: int, key_ids: np.ndarray,
                      exclude=frozenset()) -> tuple[int, tuple | None]:
    """(joinability, best mapping) of one table; key_ids is (n, m) distinct token-id tuples."""
    matrix = np.asarray(matrix, dtype=np.int64)
    key_ids = np.asarray(key_ids, dtype=np.int64)
    if matrix.size == 0 or len(key_ids) == 0:
        return 0, None
    m = key_ids.shape[1]
    wanted = set(map(tuple, key_ids.tolist()))
    member = [np.isin(matrix, np.unique(key_ids[:, j])) for j in range(m)]
    options = []
    for j in range(m):
        cols = [c for c in np.nonzero(member[j].any(axis=0))[0].tolist()
                if first_column + c not in exclude]
        if not cols:
            return 0, None
        options.append(cols)
    best, best_map = 0, None
    for mapping in itertools.product(*options):
        if len(set(mapping)) < m:
            continue
        rows = member[0][:, mapping[0]].copy()
        for j in range(1, m):
            rows &= member[j][:, mapping[j]]
        if not rows.any():
            continue
        got = set(map(tuple, matrix[np.ix_(rows, list(mapping))].tolist())) & wanted
        if len(got) > best:
            best, best_map = len(got), tuple(first_column + c for c in mapping)
    return best, best_map


def mapping_rows(matrix: np.ndarray, first_column: int, key_ids: np.ndarray,
                 mapping: tuple) -> tuple[np.ndarray, np.ndarray]:
    """For a table's mapping: the positions in ``key_ids`` of the key tuples some row holds,
    and how many rows of the table hold each (the join figures MATE reports too)."""
    matrix = np.asarray(matrix, dtype=np.int64)
    key_ids = np.asarray(key_ids, dtype=np.int64)
    cols = [c - first_column for c in mapping]
    held = Counter(map(tuple, matrix[:, cols].tolist()))
    pos = [i for i, k in enumerate(map(tuple, key_ids.tolist())) if k in held]
    rows = [held[tuple(key_ids[i].tolist())] for i in pos]
    return np.asarray(pos, dtype=np.int64), np.asarray(rows, dtype=np.int64)


def joinability(tables, key_ids: np.ndarray, exclude=frozenset()) -> list[TableScore]:
    """Scores of every table with joinability > 0. ``tables``: iterable of
    (table_id, first_column_id, matrix)."""
    out = []
    for table_id, first, matrix in tables:
        score, mapping = table_joinability(matrix, first, key_ids, exclude)
        if score > 0:
            out.append(TableScore(int(table_id), score, mapping))
    return out


def topk(scores: list[TableScore], k: int | None, min_score: int = 1) -> list[TableScore]:
    """Best first (score descending, then table id), at least ``min_score``, at most k."""
    ranked = sorted((s for s in scores if s.score >= min_score),
                    key=lambda s: (-s.score, s.table_id))
    return ranked if k is None else ranked[:k]


# ------------------------------------------------------------------ engine method

def table_matrices(ma):
    """(table_id, first_column_id, matrix) of every table, from the MATE row store."""
    col_table = ma.column_table
    if len(ma.row_table) == 0:
        return
    bounds = np.flatnonzero(np.diff(ma.row_table)) + 1
    starts = np.concatenate([[0], bounds])
    ends = np.concatenate([bounds, [len(ma.row_table)]])
    for r0, r1 in zip(starts.tolist(), ends.tolist()):
        t = int(ma.row_table[r0])
        cols = np.flatnonzero(col_table == t)
        first = int(cols[0])
        mat = np.full((r1 - r0, len(cols)), -1, dtype=np.int64)
        c0, c1 = ma.row_indptr[r0], ma.row_indptr[r1]
        owner = np.repeat(np.arange(r1 - r0), np.diff(ma.row_indptr[r0:r1 + 1]))
        mat[owner, ma.row_columns[c0:c1] - first] = ma.row_tokens[c0:c1]
        yield t, first, mat


def _run(index, query, params):
    from ..index.mate_arrays import load
    from .mate import query_key_ids, result_candidates

    ma = load(index)
    key_ids, n_rows, min_score = query_key_ids(index, query, params.threshold)
    scores = joinability(table_matrices(ma), key_ids, frozenset(query.exclude))
    best = topk(scores, params.k, min_score)
    chosen = {s.table_id: s for s in best}
    found = {}          # the matched tuples and their lake rows, for the join figures
    for t, first, matrix in table_matrices(ma):
        if t in chosen:
            found[t] = mapping_rows(matrix, first, key_ids, chosen[t].mapping)
    return result_candidates(index, query, [(s.table_id, s.score, s.mapping, *found[s.table_id])
                                            for s in best], key_ids), {}


METHOD = SearchMethod(
    name="bruteforce_nary", label="Exact multi-column (brute force, every mapping)",
    kind="exact", run=_run, requires=("mate",), multi_column=True, single_column=False,
    priority=0, score_name="key tuples",
    description="Scans every table of the MATE row store with every column mapping; "
                "the oracle MATE is tested against.")
