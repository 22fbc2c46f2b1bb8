"""MATE: top-k tables joinable on a composite key.

Esmailoghli et al., "MATE", PVLDB 2022, §4, §6, Algorithm 1. Score (Eq. 1-2, set
semantics): the number of distinct query key tuples some row of the table holds under one
injective mapping of the key columns, maximized over mappings. From the initial column's
posting items, tables are visited by item count L_t; table rules 1 and 2 (§6.2) stop or
skip, the XASH super-key row filter (§6.3, length word first) drops rows, and the rest are
verified against the row store. ``superkey=False`` is the paper's SCR baseline.

Note:
    Deviations (the why and the figures: docs/algorithms/mate.md):
    - The engine's initial column is "pairs" (fewest super-key tests), not §6.1's cardinality.
    - Rule 2 counts rows that passed the filter (the paper's r_match is unknown until verify).
    - Items are processed in vectorized blocks, rule 2 checked after each block.
    - Mappings are injective (the reference code lets two key columns share a column).
"""
from __future__ import annotations

import heapq
import itertools
import math

import numpy as np

from ..errors import QueryError
from ..index.reads import ranges
from .registry import ParamSpec, SearchMethod

CHUNK = 4096          # PL items filtered per vectorized block (rule 2 is checked between blocks)
MAX_PAIRS = 1 << 21   # (PL item, query row) pairs per block, to bound memory
MAX_CELLS = 1 << 22   # row-store cells read per verification batch


def _distinct_sorted(a: np.ndarray) -> int:
    return int(len(a) and 1 + np.count_nonzero(a[1:] != a[:-1]))


def _block_ends(weights: np.ndarray, max_items: int, max_weight: int) -> list:
    """Ends of consecutive blocks of at most max_items items and (unless one item alone
    exceeds it) at most max_weight total weight."""
    cum = np.cumsum(weights)
    ends, a, base = [], 0, 0
    while a < len(weights):
        b = int(np.searchsorted(cum, base + max_weight, side="right"))
        b = max(a + 1, min(b, a + max_items))
        ends.append(b)
        base, a = int(cum[b - 1]), b
    return ends


INITIAL_RULES = ("cardinality", "postings", "pairs")


def initial_column(ma, key_ids: np.ndarray, rule="cardinality") -> int:
    """Index of the initial key column (§6.1): "cardinality" (the paper's heuristic: fewest
    distinct values), "postings" (fewest PL items fetched, the measure of §7.5.4) or
    "pairs" (fewest (PL item, query row) super-key tests, the filter's exact cost); the
    index knows every value's PL count, so the last two cost one array lookup."""
    m = key_ids.shape[1]
    if rule not in INITIAL_RULES:
        raise ValueError(f"unknown initial column rule {rule!r}; use one of {INITIAL_RULES}")
    sizes = []
    for j in range(m):
        v, rows = np.unique(key_ids[:, j], return_counts=True)
        pl = ma.pl_indptr[v + 1] - ma.pl_indptr[v]
        sizes.append(len(v) if rule == "cardinality" else
                     int(pl.sum()) if rule == "postings" else int((pl * rows).sum()))
    return int(np.argmin(sizes))


def row_filter(row_keys: np.ndarray, pair_rows: np.ndarray, query_keys: np.ndarray,
               pair_queries: np.ndarray) -> np.ndarray:
    """Indices i of the pairs whose query key query_keys[pair_queries[i]] is covered by the
    row key row_keys[pair_rows[i]] (§6.3); the most significant word, which holds the
    length segment, is tested first and the other words only on the survivors."""
    words = row_keys.shape[1]
    w = words - 1
    idx = np.flatnonzero((query_keys[pair_queries, w] & ~row_keys[pair_rows, w]) == 0)
    for w in range(words - 2, -1, -1):
        if not len(idx):
            break
        keep = (query_keys[pair_queries[idx], w] & ~row_keys[pair_rows[idx], w]) == 0
        idx = idx[keep]
    return idx


def verify(ma, rows, init_cols, qrows, key_ids, j0, excluded=None):
    """Exact check of (candidate row, initial column, query row) pairs against the row store.

    Returns (mappings (n, m) int64, pair indices (n,)): one entry per pair and injective
    mapping under which the row holds the query row's whole key tuple."""
    widths = ma.row_indptr[rows + 1] - ma.row_indptr[rows]
    maps, pairs, a = [], [], 0
    for b in _block_ends(widths, len(rows), MAX_CELLS):
        mp, pi = _verify_batch(ma, rows[a:b], init_cols[a:b], qrows[a:b], key_ids, j0, excluded)
        maps.append(mp)
        pairs.append(pi + a)
        a = b
    if not maps:
        return np.zeros((0, key_ids.shape[1]), dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(maps), np.concatenate(pairs)


def _verify_batch(ma, rows, init_cols, qrows, key_ids, j0, excluded):
    m = key_ids.shape[1]
    P = len(rows)
    starts = ma.row_indptr[rows]
    lens = ma.row_indptr[rows + 1] - starts
    cell = ranges(starts, lens)
    owner = np.repeat(np.arange(P), lens)          # ascending: each pair's cells in a run
    ctok = ma.row_tokens[cell]
    ccol = ma.row_columns[cell].astype(np.int64)
    usable = ccol != init_cols[owner]
    if excluded is not None:
        usable &= ~excluded[ccol]
    # the mappings of a pair: every choice of one matching column per key column (a join
    # on the pair, one key column at a time), then only injective ones are kept
    combo = np.arange(P)                           # pair of each partial mapping
    cols = {j0: np.asarray(init_cols, dtype=np.int64)}
    for j in range(m):
        if j == j0:
            continue
        h = np.flatnonzero(usable & (ctok == key_ids[qrows[owner], j]))
        o, c = owner[h], ccol[h]
        first = np.searchsorted(o, np.arange(P))
        count = np.searchsorted(o, np.arange(P), side="right") - first
        reps = count[combo]
        pick = ranges(first[combo], reps)
        cols = {jj: np.repeat(v, reps) for jj, v in cols.items()}
        cols[j] = c[pick]
        combo = np.repeat(combo, reps)
    keep = np.ones(len(combo), dtype=bool)
    for a, b in itertools.combinations([j for j in range(m) if j != j0], 2):
        keep &= cols[a] != cols[b]
    mapping = np.column_stack([cols[j] for j in range(m)]) if len(combo) else \
        np.zeros((0, m), dtype=np.int64)
    return mapping[keep], combo[keep]


def best_mapping(mappings: np.ndarray, qrows: np.ndarray):
    """(largest number of distinct query rows under one mapping, that mapping, those query
    rows); ties go to the smallest mapping."""
    if not len(mappings):
        return 0, None, np.zeros(0, dtype=np.int64)
    m = mappings.shape[1]
    base = int(mappings.min())
    width = int(mappings.max()) - base + 1
    # one integer per mapping, ordered like the mapping tuples (columns of one table)
    code = np.zeros(len(mappings), dtype=np.int64)
    for j in range(m):
        code = code * width + (mappings[:, j] - base)
    n_q = int(qrows.max()) + 1
    pair = np.unique(code * n_q + qrows)               # distinct (mapping, query row)
    codes, first, counts = np.unique(pair // n_q, return_index=True, return_counts=True)
    i = int(np.argmax(counts))                         # first maximum = smallest mapping
    best = int(codes[i])
    mapping = []
    for _ in range(m):
        best, c = divmod(best, width)
        mapping.append(c + base)
    return int(counts[i]), tuple(reversed(mapping)), pair[first[i]:first[i] + counts[i]] % n_q


def rows_per_tuple(maps, qrows, rows, mapping, matched) -> np.ndarray:
    """Rows of the table holding each ``matched`` query tuple under ``mapping``: the
    verified (row, query row) pairs of that mapping, counted per query row. Exact: every
    row holding a matched tuple's initial value was fetched, and the super-key filter only
    drops rows that cannot hold the tuple."""
    mine = np.all(maps == np.asarray(mapping, dtype=np.int64), axis=1)
    pairs = np.unique(np.column_stack([qrows[mine], rows[mine]]), axis=0)
    q, n = np.unique(pairs[:, 0], return_counts=True)
    return n[np.searchsorted(q, matched)].astype(np.int64)


def _verify_pending(ma, pending, found, key_ids, j0, excluded):
    """Verify the pending pairs (lists of rows, initial columns, query rows) and append the
    mappings, their query rows, the rows of the true pairs and the row of each mapping to
    ``found``; empties ``pending``."""
    pr, pc, pq = (np.concatenate(x) if x else np.zeros(0, np.int64) for x in pending)
    for lst in pending:
        lst.clear()
    maps, pidx = verify(ma, pr, pc, pq, key_ids, j0, excluded)
    found[0].append(maps)
    found[1].append(pq[pidx])
    found[2].append(pr[np.unique(pidx)])
    found[3].append(pr[pidx])


def search(ma, key_ids: np.ndarray, k: int | None = 10, *, min_score: int = 1,
           exclude=frozenset(), superkey: bool = True, initial="cardinality",
           chunk: int = CHUNK):
    """MATE top-k over MateArrays ``ma`` (see module docstring).

    ``key_ids``: (n, m) distinct query key tuples as token ids, all present in the index.
    Returns ([(table_id, score, mapping, matched query rows, rows per matched tuple)],
    stats), best first (score, then table id); the matched query rows are indices into
    ``key_ids``, the table's rows holding each of them are :func:`rows_per_tuple`."""
    key_ids = np.asarray(key_ids, dtype=np.int64)
    if key_ids.ndim == 1:
        key_ids = key_ids[:, None]
    n, m = key_ids.shape
    stats = dict(query_rows=n, tables_fetched=0, tables_visited=0, tables_verified=0,
                 rule1_pruned=0, rule2_pruned=0, pl_items=0, pairs_fetched=0,
                 pairs_passed=0, pairs_true=0, rows_fetched=0, rows_passed=0,
                 rows_verified=0, rows_true=0, initial_column=None)
    if n == 0:
        return [], stats
    j0 = initial if isinstance(initial, (int, np.integer)) else initial_column(ma, key_ids, initial)
    stats["initial_column"] = int(j0)
    order = np.argsort(key_ids[:, j0], kind="stable")
    vals, vstart, vcount = np.unique(key_ids[order, j0], return_index=True, return_counts=True)
    # query super keys, in the order of the initial column's values (§6.1)
    skq = np.bitwise_or.reduce(ma.token_xash[key_ids[order]], axis=1)    # (n, words)
    lo = ma.pl_indptr[vals]
    lens = ma.pl_indptr[vals + 1] - lo
    pos = ranges(lo, lens)
    item_val = np.repeat(np.arange(len(vals)), lens)
    item_row = np.asarray(ma.pl_rows[pos], dtype=np.int64)
    item_col = np.asarray(ma.pl_columns[pos], dtype=np.int64)
    excluded = None
    if exclude:
        excluded = np.zeros(len(ma.column_table), dtype=bool)
        excluded[list(exclude)] = True
        keep = ~excluded[item_col]
        item_val, item_row, item_col = item_val[keep], item_row[keep], item_col[keep]
    item_table = ma.row_table[item_row]
    o = np.lexsort((item_col, item_row, item_table))
    item_val, item_row, item_col, item_table = item_val[o], item_row[o], item_col[o], item_table[o]
    tables, tstart, tlen = np.unique(item_table, return_index=True, return_counts=True)
    stats["tables_fetched"] = len(tables)
    stats["pl_items"] = len(item_row)

    heap: list = []          # (score, -table_id, mapping, matched rows): the k best so far
    for ti in np.lexsort((tables, -tlen)).tolist():
        L = int(tlen[ti])
        need = min_score
        if k is not None and len(heap) >= k:
            need = max(need, heap[0][0] + 1)
        if L < need:                                                     # rule 1
            stats["rule1_pruned"] = len(tables) - stats["tables_visited"]
            break
        stats["tables_visited"] += 1
        s0 = int(tstart[ti])
        stats["rows_fetched"] += _distinct_sorted(item_row[s0:s0 + L])
        pending = ([], [], [])               # passed pairs not verified yet: rows, cols, queries
        found = ([], [], [], [])             # verified: mappings, query rows, true rows, rows
        passed, last_row, pruned, n_pending = 0, -1, False, 0
        a = s0
        for e in _block_ends(vcount[item_val[s0:s0 + L]], chunk, MAX_PAIRS):
            b = s0 + e
            cnt = vcount[item_val[a:b]]
            p_item = np.repeat(np.arange(b - a), cnt)      # pairs (item, query row)
            p_q = ranges(vstart[item_val[a:b]], cnt)      # query rows as positions in order
            stats["pairs_fetched"] += len(p_item)
            if superkey:
                keep = row_filter(ma.superkeys[item_row[a:b]], p_item, skq, p_q)
                p_item, p_q = p_item[keep], p_q[keep]
            p_item += a
            stats["pairs_passed"] += len(p_item)
            r = item_row[p_item]
            if len(r):
                passed += _distinct_sorted(r) - (r[0] == last_row)
                last_row = r[-1]
            for lst, arr in zip(pending, (r, item_col[p_item], order[p_q])):
                lst.append(arr)
            n_pending += len(r)
            if L - (b - s0) + passed < need:                             # rule 2
                pruned = True
                break
            if n_pending > MAX_PAIRS:        # verify now rather than hold millions of pairs
                _verify_pending(ma, pending, found, key_ids, j0, excluded)
                n_pending = 0
            a = b
        stats["rows_passed"] += passed
        if pruned:
            stats["rule2_pruned"] += 1
            continue
        _verify_pending(ma, pending, found, key_ids, j0, excluded)
        stats["tables_verified"] += 1
        stats["rows_verified"] += passed
        maps, qs, true_rows, map_rows = (np.concatenate(x) for x in found)
        score, mapping, matched = best_mapping(maps, qs)
        stats["pairs_true"] += len(true_rows)
        stats["rows_true"] += len(np.unique(true_rows))
        if score >= need:
            entry = (score, -int(tables[ti]), mapping, matched,
                     rows_per_tuple(maps, qs, map_rows, mapping, matched))
            if k is not None and len(heap) >= k:
                heapq.heapreplace(heap, entry)
            else:
                heapq.heappush(heap, entry)
    best = sorted(heap, key=lambda e: (-e[0], -e[1]))
    return [(-t, s, mp, qr, lr) for s, t, mp, qr, lr in best], stats


# ------------------------------------------------------------------ engine method

def query_key_ids(index, query, threshold=None):
    """(key tuples as token ids of the rows whose every value the index holds, number of
    query rows, smallest score a threshold admits). Each key column's tokens are looked up
    in the index dictionary separately."""
    rows = query.rows if query.rows is not None else [(t,) for t in query.tokens]
    m = len(query.columns)
    ids = np.empty((len(rows), m), dtype=np.int64)
    for j in range(m):
        col = [r[j] for r in rows]
        distinct = sorted(set(col))
        found = dict(zip(distinct, index.lookup(distinct).tolist()))
        ids[:, j] = [found[t] for t in col]
    key_ids = ids[(ids >= 0).all(axis=1)] if len(ids) else ids
    min_score = 1
    if threshold is not None:
        min_score = max(1, math.ceil(threshold * len(rows) - 1e-9))
    return key_ids, len(rows), min_score


def result_candidates(index, query, results, key_ids=None, stats=None):
    """Engine candidates from [(table_id, score, mapping[, matched query rows[, rows per
    matched tuple]])]; column_ids follow the query's column order. With ``key_ids``,
    details["matched_keys"] holds the matched key tuples (tokens: what Hit.matches shows,
    as the user wrote them) and details["matched_lake_rows"] the lake rows holding each
    tuple (exact join sizes)."""
    from .registry import Candidate
    names = index.columns["name"].tolist()
    text = {}
    if key_ids is not None and results and len(results[0]) > 3:
        used = np.unique(np.concatenate([key_ids[r[3]].ravel() for r in results]))
        text = dict(zip(used.tolist(), index.token_text(used)))
    out = []
    for table_id, score, mapping, *rest in results:
        details = {"mapping": {str(q): names[c] for q, c in zip(query.columns, mapping)}}
        if rest and text:
            keys = key_ids[rest[0]].tolist()
            details["matched_keys"] = [tuple(text[t] for t in row) for row in keys]
            if len(rest) > 1:
                details["matched_lake_rows"] = [int(n) for n in rest[1]]
        if stats is not None:
            details["initial_column"] = stats.get("initial_column_name")
        out.append(Candidate(column_ids=tuple(int(c) for c in mapping), score=float(score),
                             overlap=int(score), exact=True, details=details))
    return out


def _run(index, query, params):
    from ..index.mate_arrays import load

    ma = load(index)
    key_ids, n_rows, min_score = query_key_ids(index, query, params.threshold)
    opts = params.options
    initial = opts["initial_column"]
    if initial not in INITIAL_RULES:
        if initial not in query.columns:
            raise QueryError(f"initial_column {initial!r} is not a query column "
                             f"{list(query.columns)} nor one of {list(INITIAL_RULES)}.")
        initial = list(query.columns).index(initial)
    results, stats = search(ma, key_ids, params.k, min_score=min_score,
                            exclude=frozenset(query.exclude),
                            superkey=opts["superkey"], initial=initial)
    if stats["initial_column"] is not None:
        stats["initial_column_name"] = str(query.columns[stats["initial_column"]])
    stats["query_rows_total"] = n_rows
    stats["xash_bits"] = ma.spec.bits
    return result_candidates(index, query, results, key_ids, stats), stats


METHOD = SearchMethod(
    name="mate", label="Exact multi-column top-k (MATE)", kind="exact", run=_run,
    requires=("mate",), multi_column=True, single_column=False, priority=10,
    score_name="key tuples",
    description="Tables joinable on the whole composite key, ranked by distinct key "
                "tuples shared, with the column mapping (MATE, XASH super keys).",
    params=(ParamSpec("initial_column", "Initial column", kind="str",
                      default="pairs", choices=INITIAL_RULES,
                      help="Key column whose values fetch the candidates: a query column, "
                           "or the rule choosing it: fewest distinct values (cardinality, "
                           "the paper's rule), fewest postings, or fewest super-key tests "
                           "(pairs, default, measured fastest)."),
            ParamSpec("superkey", "Super-key row filter", kind="bool", default=True,
                      help="Off: verify every fetched row (the SCR baseline)."))
)
