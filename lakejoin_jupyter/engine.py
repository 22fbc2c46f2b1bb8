"""The public API: build or open an index, search it, look at the hits.

    lj = lakejoin_jupyter.build_index("data/lake", "data/lake.index")   # Spark build
    lj = lakejoin_jupyter.open_index("data/lake.index")                  # memory-mapped
    res = lj.search(df, "country", k=10)        # exact top-k by overlap
    res.to_pandas(); hit = res[0]; hit.matches, hit.join_rows

Search is two-stage (thesis §5.2.1): a method (search/registry.py) proposes candidates,
the engine names them and computes the common fields (overlap, containment, Jaccard,
matched values) exactly from the index's sets. It then says what each join would do
(join/preview.py: lake rows, fan-out, the query rows covered, the rows of a left join, the
key's kind, the columns added) and, with ``rank="useful"``, ranks by that. Every front end
(CLI, magics, widget) calls only this module.
"""
from __future__ import annotations

import dataclasses
import hashlib
import html
import math
import re
import time
import types
from dataclasses import dataclass, field
from functools import cached_property
import os
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from .errors import LakeJoinError, QueryError, a_kind
from .formats import RANK_WORDS, clip, clip_all, fraction, percent, whole_percent
from .formats import rows as rows_text
from .frames import CHAIN, is_spark_frame, joined_tables, learning_frame
from .index.store import LakeIndex
from .index.tables import LakeTable, find_table, lake_table
from .join import preview
from .join.joinable import Joinable
from .join.plan import Aggregate, Key, make_plan, renamed_columns
from .lake.normalize import normalize_many
from .search import (bruteforce, bruteforce_nary, distributed, josie, lshensemble, mate,
                     mergelist, pexeso, probeset)
from .search.registry import Candidate, SearchMethod, SearchParams
from .join.autojoin import discovery as transform_discovery
from .join.autojoin.choice import (Reach, plain_program_on, reaches_further, takes_over,
                                   unfolded_program, why_taken)

MAX_QUERY_VALUES = 1_000_000   # distinct values taken from a Spark DataFrame query column
RANKS = ("overlap", "useful")
POOL_FACTOR, POOL_EXTRA = 2, 10  # rank="useful" ranks max(2k, k + 10) candidates of the method
POOL_GROWTH, POOL_MAX = 4, 300   # ... and 4 times more, up to 300, while fewer than k of them
                                 # are unflagged (docs/algorithms/hits.md)
# a category column makes a key with a repeating integer column only if it would tell apart the
# rows of each of its values by chance with at most this probability (docs/algorithms/hits.md)
KEY_PARTNER_CHANCE = 0.01
FRAME_CACHE_ROWS = 2_000_000   # rows of frame columns whose category reading is kept
CHANCE_TEST_VALUES = 200_000   # lake integer columns up to this size are read for the chance test
# a lake column's repeating integers are a key per category when the query frame's pairs meet
# its table's on at least this share of the query rows the column reaches (Engine._frame_pair)
PAIR_SHARE = 0.5
CELLS_KEPT = 16    # lake columns whose cells an engine keeps for transformation hits' casing
ROWS = "__lakejoin_rows"        # query rows per distinct key, collected from a Spark query

# The search methods an engine offers (each search/<name>.py defines its METHOD).
SEARCH_METHODS = (josie.METHOD, mergelist.METHOD, probeset.METHOD, bruteforce.METHOD,
                  distributed.METHOD, lshensemble.METHOD, lshensemble.TOPK_METHOD,
                  mate.METHOD, bruteforce_nary.METHOD, pexeso.METHOD, transform_discovery.METHOD)


# ---------------------------------------------------------------------- queries

@dataclass
class Query:
    """A query column (or several) after normalization, as every method receives it."""
    columns: tuple                    # query column name(s)
    tokens: list                      # distinct tokens of the first/only column, sorted
    size: int                         # |Q|: distinct tokens, including ones not in the lake
    token_ids: np.ndarray = None      # ids of those tokens in the generation searched, sorted
                                      # (set per generation by the engine)
    source: str = ""                  # human description of where the query came from
    display: dict = field(default_factory=dict)   # token -> a raw value as the user wrote it
    rows: list | None = None          # multi-column: distinct key tuples of tokens
    frame: pd.DataFrame | None = None # the query's key columns (raw), when from a DataFrame
    exclude: set = field(default_factory=set)     # set ids never returned (the query itself)
    notes: list = field(default_factory=list)
    frame_columns: tuple = ()         # every column of the user's DataFrame (joins plan with them)
    spark: bool = False               # the query came from a Spark DataFrame
    sampled: bool = False             # a sample of its distinct keys (join figures estimated)
    token_rows: np.ndarray | None = None  # query rows holding each token (aligned with tokens)
    n_rows: int = 0                   # query rows, those without a key included
    row_counts: dict | None = None    # multi-column: query rows per key tuple
    row_display: dict | None = None   # multi-column: key tuple -> the tuple as first written
    origin: str | None = None         # the lake table the query was read from, if known
    chain: tuple = ()                 # lake tables joined into the query frame
    partners: tuple = ()              # category columns of the frame making a key with the
                                      # (one, integer) query column (docs/algorithms/hits.md)
    column_id: int | None = None      # the lake column named as the query, if it is one
    whole: pd.DataFrame | None = field(default=None, repr=False, compare=False)  # its frame
    cache: dict = field(default_factory=dict, repr=False)   # per generation: sorted ids, rows

    @property
    def n_columns(self) -> int:
        return len(self.columns)

    @property
    def size_label(self) -> str:
        """"1,234 distinct values", or "... distinct key tuples" for a multi-column key."""
        if self.n_columns > 1 and self.rows is not None:
            return f"{len(self.rows):,} distinct key tuples"
        return f"{self.size:,} distinct values"


def make_query(index: LakeIndex, query, column=None, *, max_values: int = MAX_QUERY_VALUES,
               exclude_self: bool = True) -> Query:
    """Normalize any supported query into a :class:`Query`.

    ``query`` may be a pandas DataFrame (with ``column``: a name or a list of names), a
    Spark DataFrame (distinct values are collected; above ``max_values`` a sample is taken
    and a note says so), a pandas Series, a list/array of values, or the name of a lake
    table (with ``column``), in which case that column is excluded from its own results.
    A DataFrame read with ``engine.table()`` is a DataFrame: its own table is decided on
    its rows (marked, listed last), not left out.
    """
    cols = _as_columns(column)
    if isinstance(query, (str, Path)) and not isinstance(query, bool):
        if not cols:
            raise QueryError("A lake table query needs a column: search('table', 'column').")
        return _lake_query(index, str(query), cols, exclude_self)
    if isinstance(query, (int, np.integer)) and not isinstance(query, bool):
        return _column_id_query(index, int(query), exclude_self)
    notes = []
    if is_spark_frame(query):
        frame, weights, notes = _collect_spark(query, cols, max_values)
        q = _frame_query(index, frame, tuple(cols), "Spark DataFrame", notes, weights)
        q.frame_columns, q.spark, q.sampled = tuple(query.columns), True, bool(notes)
        return q
    elif isinstance(query, pd.DataFrame):
        check_query_labels(query)
        if not cols:
            raise QueryError(f"Name the query column: search(df, 'column'). "
                             f"Columns: {list(map(str, query.columns))[:20]}"
                             + _index_hint(query, ()))
        cols = _check_columns(query.columns, cols, query)
        if query.empty:
            raise QueryError("The query DataFrame is empty (no rows): nothing to search for.")
        # a frame read with engine.table() keeps attrs["lakejoin_table"] through head(),
        # selections and copies: its own table is decided on its rows, as any frame's
        # (Engine._own_marks), never left out for the name; that table counts as already
        # joined only in a frame a join made (attrs["lakejoin_chain"])
        q = _frame_query(index, query[list(cols)], tuple(cols), "DataFrame", notes,
                         whole=query)
        q.frame_columns, q.whole = tuple(query.columns), query
        q.chain = tuple(joined_tables(query)) if query.attrs.get(CHAIN) else ()
        return q
    elif isinstance(query, pd.Series):
        name = cols[0] if cols else (str(query.name) if query.name is not None else "values")
        frame, cols, source = query.to_frame(name=name), (name,), "Series"
    elif isinstance(query, (list, tuple, set, frozenset, np.ndarray, pd.Index)):
        name = cols[0] if cols else "values"
        frame, cols, source = pd.DataFrame({name: list(query)}), (name,), "values"
    else:
        raise QueryError(f"Cannot search with {a_kind(query)}: pass a pandas or "
                         f"Spark DataFrame and a column name, a Series, or a list of values.")
    return _frame_query(index, frame, tuple(cols), source, notes)


def _as_columns(column) -> tuple:
    if column is None:
        return ()
    if isinstance(column, (list, tuple)):
        return tuple(column)
    return (column,)


def check_query_labels(frame: pd.DataFrame) -> None:
    """Refuse, before searching, a pandas query with MultiIndex columns: a lake table's
    columns have one-level names, so a join could not put them beside the query's (pandas'
    merge refuses it too); the message gives the one line that flattens them."""
    columns = frame.columns
    if isinstance(columns, pd.MultiIndex):
        raise QueryError(
            f"The DataFrame has MultiIndex columns ({columns.nlevels} levels, e.g. "
            f"{columns[0]!r}); lakejoin searches and joins columns with one-level names. "
            f"Flatten them first: df.columns = ['_'.join(map(str, c)) for c in df.columns]")


def _index_hint(frame, missing) -> str:
    """Why a query column may be missing: it is a level of the frame's index (the key is
    there when the index is named so, or unnamed and not of row numbers: a filtered frame's
    integer index is no key)."""
    if not isinstance(frame, pd.DataFrame):
        return ""
    index = frame.index
    names = [n for n in index.names if n is not None]
    named = [c for c in missing if any(str(c) == str(n) for n in names)]
    if named:
        return (f". {str(named[0])!r} is in the DataFrame's index, not a column: search "
                f"df.reset_index() (it makes the index levels columns)")
    if not names and index.nlevels == 1 and len(index) and \
            not pd.api.types.is_integer_dtype(index.dtype):
        return (". The DataFrame's index (unnamed, e.g. "
                f"{index[0]!r}) is not a column: to search it, df.reset_index() makes it "
                f"the column 'index'")
    return ""


_DATE_TOKEN = re.compile(r"\d{4}-\d{2}-\d{2}(t[\d:.]+)?")


def _dates_hint(query) -> str:
    """When the query's values are dates or timestamps: which text forms of them the lake
    can hold and still match (an empty result may be dates written otherwise)."""
    tokens = list(query.tokens)[:200]
    if not tokens or not all(_DATE_TOKEN.fullmatch(str(t)) for t in tokens):
        return ""
    return (" The query holds dates or timestamps: lake text matches them when written "
            "ISO-8601 (2026-03-29, 2026-03-29 12:00:00, 2026-03-29T12:00:00.000Z, with an "
            "offset compared in UTC), unpadded (2026-3-9) or with slashes year first "
            "(2026/03/29); dates written otherwise "
            "(03/29/2026, 29.03.2026) are "
            "compared as text and never match them.")


def _check_columns(available, cols, frame=None) -> tuple:
    """The query columns as the frame labels them: a name matches its label, or else the one
    label whose str() it is (``"0"`` finds the integer column 0). A name the frame holds
    twice, or none, is an error naming it (and saying when it is in ``frame``'s index)."""
    available = list(available)
    found = {}
    for c in cols:
        same = [a for a in available if type(a) is type(c) and a == c]
        found[c] = same or [a for a in available if str(a) == str(c)]
    missing = [c for c in cols if not found[c]]
    if missing:
        raise QueryError(f"Column(s) {missing} not found; the DataFrame has: "
                         f"{[_label(a) for a in available][:30]}" + _index_hint(frame, missing))
    out = []
    for c in cols:
        same = found[c]
        if len(same) > 1:
            kinds = sorted({type(a).__name__ for a in same})
            raise QueryError(
                f"The DataFrame has {len(same)} columns named {str(c)!r}"
                + (f" (of types {', '.join(kinds)})" if len(kinds) > 1 else "")
                + "; rename them so the query column is unambiguous "
                  "(e.g. df.columns = [...]).")
        out.append(same[0])
    if len(set(map(repr, out))) != len(out):
        raise QueryError(f"A query column is repeated: {[_label(c) for c in out]}")
    return tuple(out)


def _label(c) -> str:
    """A column label for messages: strings as they are, other labels with their type."""
    return c if isinstance(c, str) else f"{c!r} ({type(c).__name__})"


def _collect_spark(sdf, cols, max_values):
    """The query's distinct key values and the rows holding each (one Spark aggregation)."""
    from pyspark.sql import functions as F

    from .spark import fetch_results, instant_column, instant_columns, spark_job, utc_instants
    if not cols:
        raise QueryError(f"Name the query column; the Spark DataFrame has: {sdf.columns[:20]}")
    cols = _check_columns(sdf.columns, cols)
    quoted = ["`" + str(c).replace("`", "``") + "`" for c in cols]
    instants = set(instant_columns(sdf)) & set(cols)   # TIMESTAMP: collected as UTC instants
    distinct = (sdf.groupBy(*[(instant_column(sdf, c) if c in instants else sdf[q]).alias(str(c))
                              for q, c in zip(quoted, cols)])
                .agg(F.count(F.lit(1)).alias(ROWS)))
    notes = []
    what = f"collecting the query column(s) {list(cols)}"
    with spark_job(what):
        pdf = fetch_results(distinct.limit(max_values + 1).toPandas, what)
        if len(pdf) > max_values:
            total = distinct.count()
            frac = min(1.0, max_values / max(total, 1))
            pdf = fetch_results(distinct.sample(fraction=frac, seed=7).limit(max_values)
                                .toPandas, what)
            notes.append(f"the Spark DataFrame has {total:,} distinct key values; searched with "
                         f"a random sample of {len(pdf):,} (containment and row coverage are "
                         f"estimated on the sample)")
    pdf.columns = list(cols) + [ROWS]
    for c in instants:
        pdf[c] = utc_instants(pdf[c])
    return pdf[list(cols)], pdf[ROWS].to_numpy(dtype=np.int64), notes


def _frame_query(index, frame: pd.DataFrame, cols: tuple, source: str, notes: list,
                 weights: np.ndarray | None = None, whole: pd.DataFrame | None = None) -> Query:
    """``weights``: rows each row of ``frame`` stands for (a Spark query's distinct keys);
    ``whole``: the user's pandas frame, whose category columns may make a key with a
    one-column query (:func:`frame_partners`)."""
    for c in cols:
        if _list_elements(frame[c]) is not None:
            raise QueryError(
                f"Column {c!r} holds lists: search their elements with one row per element, "
                f"e.g. df.explode({c!r}) (the lake's list columns are searched by element).")
    norm = {c: normalize_many(frame[c].tolist()) for c in cols}
    first = cols[0]
    display: dict = {}
    for raw, tok in zip(frame[first].tolist(), norm[first]):
        if tok is not None and tok not in display:
            display[tok] = raw
    tokens = sorted(display)
    if not tokens:
        raise QueryError(f"Column {first!r} has no values to search with (all null or empty).")
    rows = None
    if len(cols) > 1:
        for c in cols[1:]:
            if not any(t is not None for t in norm[c]):
                raise QueryError(f"Column {c!r} has no values to search with (all null or empty).")
        rows = sorted({tup for tup in zip(*(norm[c] for c in cols)) if None not in tup})
        if not rows:
            raise QueryError(f"No row has a value in every query column {list(cols)}.")
    w = np.ones(len(frame), dtype=np.int64) if weights is None else np.asarray(weights, np.int64)
    per_token = pd.Series(w).groupby(pd.Series(norm[first], dtype=object)).sum()
    row_counts = row_display = None
    if rows is not None:
        row_counts, row_display = {}, {}
        raw = zip(*(frame[c].tolist() for c in cols))
        for t, n, written in zip(zip(*(norm[c] for c in cols)), w.tolist(), raw):
            if None not in t:
                row_counts[t] = row_counts.get(t, 0) + n
                row_display.setdefault(t, written)
    token_rows = per_token.reindex(tokens).to_numpy(dtype=np.int64)
    partners = ()
    if whole is not None and len(cols) == 1 and weights is None:
        partners = frame_partners(whole, first, norm[first], tokens, token_rows)
    return Query(columns=cols, tokens=tokens, size=len(tokens), source=source, display=display,
                 rows=rows, frame=frame, notes=list(notes), token_rows=token_rows,
                 n_rows=int(w.sum()), row_counts=row_counts, row_display=row_display,
                 partners=partners)


def _token_codes(tokens: list, codes: np.ndarray | None = None) -> tuple[np.ndarray, list]:
    """(a code per row, -1: none; the distinct tokens) of ``tokens`` (one per row, or per
    distinct cell with ``codes`` the cell of each row)."""
    tcodes, distinct = pd.factorize(pd.Series(tokens, dtype=object), use_na_sentinel=True)
    if codes is not None:
        tcodes = np.append(tcodes, -1)[codes]     # a null cell (-1) has no token
    return np.asarray(tcodes, dtype=np.int64), list(distinct)


def _pairs_repeat(key: np.ndarray, codes: np.ndarray) -> bool:
    """Some row of ``key`` lacks a code, or two rows hold the same (key, code) pair."""
    if (codes < 0).any():
        return True
    both = np.sort(key * (int(codes.max(initial=0)) + 1) + codes)
    return bool((both[1:] == both[:-1]).any())


def _list_elements(col: pd.Series):
    """(row of each element, the elements) of a column whose non-null cells are all lists
    of scalars (lists, tuples or arrays, as a Parquet list column reads), the lake's list
    columns' rule (index-format.md, "List columns"); else None."""
    cells = col.tolist()
    seen = False
    for v in cells:
        if isinstance(v, (list, tuple, np.ndarray)):
            if any(isinstance(e, (list, tuple, dict, np.ndarray)) for e in v):
                return None           # lists of lists or of structs: their JSON text
            seen = True
        elif v is not None and not (isinstance(v, float) and v != v) and v is not pd.NA:
            return None
    if not seen:
        return None
    at, elements = [], []
    for i, v in enumerate(cells):
        if isinstance(v, (list, tuple, np.ndarray)):
            at.extend([i] * len(v))
            elements.extend(v)
    return np.asarray(at, dtype=np.int64), elements


def _token_codes_of(uniques) -> tuple[np.ndarray, list]:
    """:func:`_token_codes` of a column's distinct cells' tokens; many texts normalized at
    once (lake/normalize.py ``normalize_array``, equal to ``normalize_text`` on any text)
    from as many as the union profile's (below, Arrow's fixed cost per call is the larger)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from .lake.normalize import normalize_array
    from .search.union import VECTOR_MIN
    values = pd.Series(uniques, dtype=object).tolist()
    if len(values) < VECTOR_MIN or not all(isinstance(v, str) for v in values):
        return _token_codes(normalize_many(values))
    enc = pc.dictionary_encode(normalize_array(pa.array(values, pa.string())))
    return (enc.indices.fill_null(-1).to_numpy().astype(np.int64),
            enc.dictionary.to_pylist())


def frame_category(col: pd.Series, most: int | None = None, written=None) -> tuple | None:
    """The one rule of a category column of a pandas frame, for the key partners of a query
    column (:func:`frame_partners`) and the frame pairing of a lake hit
    (``Engine._frame_categories``); a lake table's columns meet the same rule in the index's
    profile (``Engine._table_categories``): cells of text (object, string or categorical
    dtype) or dates (datetime64, read as their text, as the query's own values are: a
    panel's period typed by pd.to_datetime is the period its text is; typed numbers and
    booleans are no category), whose distinct tokens read
    as text or dates (a panel's period) by the profile's type rule, fewer than TYPE_SHARE
    of the rows holding one (not
    nearly unique) and, with ``most`` (the key column's distinct values), no more than it.
    A list column's rows hold its elements (MATE's rows of a lake list column); cells of
    mixed types are told apart as their tokens are (1, True and "1" differ).

    ``written(cells, uniques)``: a caller's test of a text column on its cells as written
    (pandas' factorize), True to reject it before normalizing (normalizing only merges
    cells). Returns (the rows: a code per row, -1 none, or for a list column (the row of
    each element, the element's code); the distinct tokens), or None when no category."""
    from .indexing.profile import tokens_type
    if isinstance(col, pd.DataFrame) or not (
            pd.api.types.is_object_dtype(col) or pd.api.types.is_string_dtype(col)
            or isinstance(col.dtype, pd.CategoricalDtype)
            or pd.api.types.is_datetime64_any_dtype(col)):
        return None
    elements = None if pd.api.types.is_datetime64_any_dtype(col) else _list_elements(col)
    if elements is not None:          # a list column: a row holds each of its elements
        codes, distinct = _token_codes(normalize_many(elements[1]))
        rows, keyed = (elements[0], codes), int((codes >= 0).sum())
    elif pd.api.types.infer_dtype(col, skipna=True) not in ("string", "categorical"):
        # mixed cells: factorize would merge 1, 1.0 and True, whose tokens differ
        try:
            rows, distinct = _token_codes(normalize_many(col.tolist()))
        except TypeError:             # cells that cannot be compared (lists)
            return None
        keyed = int((rows >= 0).sum())
    else:
        cells, uniques = pd.factorize(col, use_na_sentinel=True)
        if written is not None and written(cells, uniques):
            return None
        codes, distinct = _token_codes_of(uniques)
        rows = np.append(codes, -1)[cells]      # a null cell (-1) has no token
        keyed = int((rows >= 0).sum())
    n = len(distinct)
    if 0 < n < preview.TYPE_SHARE * keyed and (most is None or n <= most) \
            and tokens_type(distinct) in ("string", "date"):
        return rows, distinct
    return None


def _text_column_cells(col) -> tuple | None:
    """(dtype, the cells) of a column of text cells (or a categorical: its dtype names its
    categories' type), what :func:`frame_category` reads in it, to compare with a column
    read before (the texts' own hashes are cached by Python, and a frame searched again
    holds the same objects); None for other columns (1, 1.0 and True compare equal there)."""
    if isinstance(col, pd.DataFrame) or \
            pd.api.types.infer_dtype(col, skipna=True) not in ("string", "categorical"):
        return None
    return repr(col.dtype), tuple(col.tolist())


def frame_partners(frame: pd.DataFrame, column, row_tokens: list, tokens: list,
                   token_rows: np.ndarray) -> tuple:
    """The category columns of ``frame`` (:func:`frame_category`, no more distinct values
    than its ``column``) that make a key with ``column`` (its token per row
    ``row_tokens``, distinct ``tokens`` and their rows) when its values are integers that
    repeat, by the rule of a lake column's (``Engine._key_partners``), checked exactly on
    the frame's rows: they tell apart the rows of each repeated value, and not by chance.
    A column whose cells as written already repeat a pair with a repeated value
    (normalizing only merges cells), or hold fewer values than such a value's rows, is not
    normalized. A list column's rows hold its elements, as a lake list column's rows do."""
    from .index.mate_arrays import pair_partners
    if (not len(token_rows) or int(np.max(token_rows)) < 2
            or not all(t.lstrip("-").isdigit() for t in tokens)):
        return ()
    most = int(np.max(token_rows))
    key = _token_codes(row_tokens)[0]
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    repeated = (key >= 0) & (counts[inverse] > 1)

    def cannot_pair(cells, uniques) -> bool:
        return len(uniques) < most or _pairs_repeat(key[repeated], cells[repeated])

    names, codes = [], []
    for c in frame.columns:
        found = None if c == column else frame_category(frame[c], len(tokens), cannot_pair)
        if found is not None:
            names.append(c)
            codes.append(found[0])
    if not names:
        return ()
    return tuple(names[i] for i in pair_partners(key, codes, KEY_PARTNER_CHANCE))


def _query_column_note(q: Query, warning: str, hit=None) -> str:
    """The search's note on its query column, from the warning :func:`preview.key_kind`
    gives a key (too few values, a measure), said of the query column; ``hit``: a
    transformation hit whose program's keys, the query's side of its join, are so (its
    key kind is then the lake column's, as an equality hit's is)."""
    text = warning.replace("the key", "the query column", 1)
    if hit is None:
        return f"{q.columns[0]!r}: {text}"
    return f"{q.columns[0]!r} after the program of #{hit.rank} ({hit.table}.{hit.column}): {text}"


def _pair_note(h, q: Query) -> str:
    """The note of a hit whose integers are a key per category (``Engine._frame_pair``)."""
    pair, col = h.details["frame_pair"], q.columns[0]
    return (f"#{h.rank} {h.table}.{h.column}: its values repeat, but with {pair['lake']!r} "
            f"they hold the ({pair['frame']}, {col}) pairs of {pair['rows']:,} of the query's "
            f"{pair['of']:,} rows, so it is read as a key per {pair['frame']}; the pair is the "
            f"key: search(df, [{pair['frame']!r}, {col!r}]) (CLI: -c {pair['frame']} -c {col}).")


def _lake_query(index, table, cols, exclude_self) -> Query:
    try:
        cids = [index.find_column(table, c) for c in cols]
    except KeyError as e:
        raise QueryError(str(e.args[0])) from None
    if len(cids) > 1:
        frame = index_table(index, table)[list(cols)]
        q = _frame_query(index, frame, tuple(cols), f"lake table {table}", [])
        q.origin = index.column_label(cids[0])[0]
    else:
        q = _column_id_query(index, cids[0], exclude_self)
    if exclude_self:
        q.exclude = set(cids)
    return q


def _column_id_query(index: LakeIndex, cid: int, exclude_self: bool) -> Query:
    try:
        gen, local = index.generation_of(cid)
    except KeyError as e:
        raise QueryError(str(e.args[0])) from None
    ids = np.asarray(gen.arrays.set_tokens(local))
    texts = gen.token_text(ids)
    table, name = index.column_label(cid)
    if not texts:
        raise QueryError(f"Column {name!r} of {table} has no values to search with.")
    stats = gen.joinstats
    rows = stats.counts(local, ids) if stats is not None else np.ones(len(ids), np.int64)
    order = sorted(range(len(texts)), key=texts.__getitem__)
    tokens = [texts[i] for i in order]
    n_rows = int(index.tables.iloc[int(index.columns.iloc[cid]["table_id"])]["n_rows"])
    return Query(columns=(name,), tokens=tokens, size=len(tokens),
                 source=f"lake table {table}", display={t: t for t in tokens},
                 exclude={cid} if exclude_self else set(),
                 token_rows=rows[order].astype(np.int64), n_rows=max(n_rows, int(rows.sum())),
                 origin=str(table), column_id=int(cid))


def index_table(index: LakeIndex, table, max_rows: int | None = None,
                types: bool = False) -> pd.DataFrame:
    """A lake table as pandas (string values; with ``types`` a Parquet table keeps its
    column types), read with the same parser as the build; ``table``: its name, path, file
    or table id."""
    return lake_table(find_table(index, table), max_rows, types=types)


def element_table(table: LakeTable, columns=None, read=None,
                  warn_changed: bool = True) -> tuple[pd.DataFrame, tuple]:
    """(frame, its exploded columns): a lake table as Auto-Join and the fuzzy join learn on
    it, the text the index read, with its list columns among ``columns`` (all when None) one
    row per element, as the equi-join explodes them (join/execute.py ``explode_pandas``), the
    element as the text its key reads (``keys.lake_text``); its other list columns, whose
    JSON text no join key reads, left out. ``read``: the table already read (its text frame
    and its typed frame), for several calls. ``warn_changed=False``: no LakeChangedWarning
    (Auto-Join learns on it; its join reads the file again and warns once, there)."""
    from .join.keys import lake_text
    frame = lake_table(table, warn_changed=warn_changed) if read is None else read[0].copy()
    lists = [c for c in table.lists if c in frame.columns]
    if not lists:
        return frame, ()
    wanted = set(lists if columns is None else _as_columns(columns))
    explode = tuple(c for c in lists if c in wanted)
    attrs = dict(frame.attrs)
    frame = frame.drop(columns=[c for c in lists if c not in explode])
    if explode:
        typed = (lake_table(table, types=True, warn_changed=False) if read is None
                 else read[1])
        for c in explode:
            frame[c] = typed[c].to_numpy(dtype=object)
        for c in explode:
            frame = frame.explode(c, ignore_index=True)
        for c in explode:
            text = lake_text(frame[c])
            frame[c] = text.where(text.notna(), None).astype(object)
    frame.attrs = attrs
    return frame, explode


# a lake table this large (rows), and this many times the query's rows, is joined by Auto-Join
# through the transformation search's hit when the index has it (Engine.autojoin)
LARGE_PARTNER = (50_000, 20)

# ---------------------------------------------------------------------- results

@dataclass
class Hit(Joinable):
    """One joinable column (or column combination) found by a search.

    ``join(df, how="left", duplicates="all", aggregate=None)`` joins the user's frame with the
    hit's table on the normalized key values (``aggregate``: "latest", "first", "mean",
    "sum" or "count" reduces the table to one row per key first); ``code(name="df",
    into="joined")`` writes the code that does the same where only ``name`` is bound
    (join/plan.py).

    What the join would do, before it runs (join/preview.py): ``lake_rows``, ``key_ratio``
    (lake rows per matched key), ``row_coverage`` (share of the query's rows with a partner),
    ``join_rows`` (rows of the left join; ``join_rows_exact`` False: an estimate),
    ``added_columns``, ``key_kind`` and ``key_warning``, ``is_query_table`` and ``in_chain``
    (the query's own table; a table already joined into the query frame); a transformation
    hit's ``query_ratio`` (distinct query values per key its program makes: above 1, it
    merges query values, as a fan-out multiplies lake rows). ``list_columns``:
    the hit's columns that are list columns, whose values are their elements (the join
    gives one row per element)."""
    rank: int
    table: str
    table_id: int
    columns: tuple            # candidate column name(s), aligned with query_columns
    column_ids: tuple
    score: float
    overlap: int | None
    containment: float | None     # |Q ∩ X| / |Q|
    jaccard: float | None
    method: str
    exact: bool
    query_columns: tuple
    estimated_containment: float | None = None
    details: dict = field(default_factory=dict)
    lake_rows: int | None = None
    key_ratio: float | None = None
    row_coverage: float | None = None
    join_rows: int | None = None
    join_rows_exact: bool | None = None
    key_kind: str | None = None
    key_warning: str | None = None
    is_query_table: bool = False
    in_chain: bool = False
    usefulness: float | None = None
    query_ratio: float | None = None  # a program's distinct query values per key it joins on
    list_columns: tuple = ()      # its list columns: found, and joined, by their elements
    _engine: "Engine" = field(default=None, repr=False, compare=False)
    _query: Query = field(default=None, repr=False, compare=False)

    @property
    def column(self) -> str:
        return self.columns[0]

    @property
    def columns_label(self) -> str:
        """The lake columns as hits describe them ("each element of codes" for a list)."""
        return ", ".join(_column_name(self, c) for c in self.columns)

    @property
    def figures(self) -> str:
        """How the hit's overlap, containment and coverage were found: "exact" (counted
        from the index), "estimated" (an approximate method), or "learned" (a
        transformation hit: counted by applying a program learned from a sample of the
        query's values to all of them, exact for that program; Find transformation learns
        on the whole tables and may learn another)."""
        if not self.exact:
            return "estimated"
        return "learned" if "program_json" in self.details else "exact"

    @property
    def mapping(self) -> dict:
        """Query column -> candidate column."""
        return dict(zip(self.query_columns, self.columns))

    def _matched_tokens(self) -> list:
        if "matched_tokens" in self.details:
            return self.details["matched_tokens"]
        gen, local = self._engine.index.generation_of(self.column_ids[0])
        ids = gen.lookup(self._query.tokens)
        common = np.intersect1d(ids[ids >= 0], np.asarray(gen.arrays.set_tokens(local)))
        toks = gen.token_text(common)
        self.details["matched_tokens"] = toks
        return toks

    def _written(self) -> dict:
        """Normalized query value -> as written. A query named as a lake column holds the
        index's normalized values only: its table is read once for how they are written."""
        q = self._query
        if q.origin is None or q.frame is not None or q.n_columns > 1:
            return q.display
        if "written" not in q.cache:
            try:
                raw = index_table(self._engine.index, q.origin)[q.columns[0]].tolist()
            except (OSError, KeyError, LakeJoinError):   # the file moved: show the tokens
                raw = []
            written: dict = {}
            for value, tok in zip(raw, normalize_many(raw)):
                if tok is not None and tok not in written:
                    written[tok] = value
            q.cache["written"] = written
        return q.cache["written"]

    def _matched_keys(self) -> list | None:
        """A multi-column hit's matched key tuples (normalized, as its overlap, coverage and
        join rows count them), or None for a one-column hit."""
        if len(self.query_columns) < 2 or self._query is None \
                or self._query.rows is None:
            return None
        return [tuple(k) for k in self.details.get("matched_keys", ())]

    @property
    def matches(self) -> list:
        """The query's values that find a partner in this column (as the user wrote them);
        for a multi-column hit, its key tuples that some row of the table holds."""
        keys = self._matched_keys()
        if keys is not None:
            shown = self._query.row_display or {}
            return [shown.get(k, k) for k in sorted(set(keys))]
        written = self._written()
        return [written.get(t, t) for t in self._matched_tokens()]

    @property
    def unmatched(self) -> list:
        """The query's values without a partner in this column (as the user wrote them);
        for a multi-column hit, its key tuples no row of the table holds."""
        keys = self._matched_keys()
        if keys is not None:
            found, shown = set(keys), self._query.row_display or {}
            return [shown.get(r, r) for r in self._query.rows if r not in found]
        matched = set(self._matched_tokens())
        written = self._written()
        return [written.get(t, t) for t in self._query.tokens if t not in matched]

    def _frame_columns(self, df=None) -> list:
        q = self._query
        return (list(df.columns) if df is not None else
                list(q.frame_columns or self.query_columns) if q is not None
                else list(self.query_columns))

    def plan(self, df=None, how: str | None = None, *, duplicates: str = "all",
             aggregate: str | Aggregate | None = None, order_by: str | None = None):
        """The :class:`~.join.plan.JoinPlan` joining ``df`` (default: the columns of the frame
        searched with) with this hit's table on its column mapping. ``aggregate`` (a name
        or an :class:`~.join.plan.Aggregate`): one row per key of the table first; "latest"
        orders by ``order_by`` (default: the table's finest time column,
        ``Engine._latest_order_column``), "mean" and "sum" take its numeric columns that are
        neither the key nor years."""
        if "program_json" in self.details:
            raise QueryError(
                f"This hit joins only through the program {self.details['program']!r} "
                f"(method {self.method!r}), not on equal values. Join it with Auto-Join: "
                f"aj = hit.autojoin(df), then aj.join(df) and aj.code() (it learns on the "
                f"rows the program joins; aggregate= and duplicates= keep one row per query "
                f"row there too), or the widget's Find transformation.")
        if "tau" in self.details:
            q, c = self.query_columns[0], self.columns[0]
            raise QueryError(
                f"This hit matches values within distance tau = {self.details['tau']:.3g} in "
                f"embedding space (method {self.method!r}), not on equal values: an equi-join "
                f"would miss those matches. Join it with the fuzzy join, which chooses the "
                f"matches at a precision target: engine.fuzzy_join({self.table!r}, df, "
                f"on=({c!r}, {q!r})), the widget's Fuzzy join, `%lakejoin join N --from "
                f"HITS`, or `lakejoin join ... -m pexeso --hit N` in a terminal.")
        table = find_table(self._engine.index, self.table_id)
        agg = aggregate
        if isinstance(aggregate, str):
            agg = self._engine.aggregate_for(self, aggregate, order_by)
        elif order_by is not None:
            raise QueryError("order_by goes with aggregate='latest'.")
        elif agg is not None:
            agg = self._engine.read_latest(self, agg)
        if isinstance(df, pd.DataFrame):
            check_query_labels(df)
            missing = [c for c in self.query_columns if c not in list(df.columns)]
            if missing and _index_hint(df, missing):
                raise QueryError(f"Query column(s) {missing} not found; the DataFrame has: "
                                 f"{[_label(a) for a in df.columns][:30]}"
                                 + _index_hint(df, missing))
        return make_plan(self._frame_columns(df), [Key((c,)) for c in self.query_columns],
                         table.columns, [Key((c,)) for c in self.columns], other=table,
                         how=how or "left", duplicates=duplicates, aggregate=agg)

    def autojoin(self, df=None, **options):
        """Auto-Join (:meth:`Engine.autojoin`) between ``df`` (default: the frame searched
        with; a Spark frame is learned on its first rows, ``frames.learning_frame``) and
        this hit's table, on the query column and the hit's column. A "Needs a
        transformation" hit learns on the table's rows its program joins, then counts and
        joins on the whole table: a small query against a large table holds too few joinable
        rows for the row sampling (thesis §4.5), and learning on every row is slow. A tie
        between the two directions goes to the hit's (Auto-Join's ``prefer``). Where the
        hit's column repeats on those rows, it learns again with every column of the table
        and keeps the narrower join (:func:`takes_over`). A table not large next to the
        query (:data:`LARGE_PARTNER`) is also learned on whole, the rows the hit's program
        misses included, and that join kept when it reaches further (:func:`reaches_further`).
        The hit's own program is kept against the one learned as :func:`takes_over` says, as
        is, for an equality hit, the identity (:func:`_at_least_identity`)."""
        frame = df if df is not None else (self._query.frame if self._query is not None else None)
        if frame is None:
            raise QueryError("This hit was found without a DataFrame: pass it, hit.autojoin(df).")
        spark = is_spark_frame(frame)
        out = self._autojoin_learned(learning_frame(frame), options)   # Spark: its first rows
        out.spark_query = spark             # its code: PySpark, as the join of a Spark frame
        return out

    def _autojoin_learned(self, frame, options):
        """:meth:`autojoin` on the pandas ``frame`` it learns from."""
        engine = self._engine
        left_on = [c for c in self.query_columns if c in frame.columns] or None
        if "program_json" not in self.details or left_on is None or len(self.columns) != 1:
            out = engine.autojoin(frame, left_on, find_table(engine.index, self.table_id),
                                  list(self.columns), **options)
            out.how = "left"
            if out.found and self._equality_hit() and len(left_on) == 1:
                out = _at_least_identity(out, left_on[0], self.column)
            return out
        from .join.autojoin.dsl import Program
        table = find_table(engine.index, self.table_id)
        # a list column: its elements; a file changed since the build: the join says it
        whole, explode = element_table(table, [self.column], warn_changed=False)
        program = Program.from_json(self.details["program_json"])
        rows = transform_discovery.partner_rows(
            program, self.details.get("direction") == "query -> lake",
            frame[left_on[0]].tolist(), whole[self.column].tolist())
        if len(rows) == 0:          # on the searched column alone, as below
            out = engine.autojoin(frame[left_on], left_on, table, list(self.columns), **options)
            out.left, out.how = frame, "left"
            return out
        options.setdefault("right_name", table.name)
        options.setdefault("left_name", "df")
        # a tie between the directions goes to the hit's: its program, verified on the whole
        # column, is the one the user was shown (the rows learned on are only its partners)
        options.setdefault("prefer", "left" if self.details.get("direction") == "query -> lake"
                           else "right")
        # learned on the query column the search was asked about alone: the hit's program
        # reads it, and another query column equal to the hit's column as it is (a `city`
        # beside a `zone`) would otherwise be learned instead, joining on a column not asked
        asked = frame[left_on]
        result = self._autojoin_on(asked, left_on, whole, rows, [self.column], options)
        partners = whole[self.column].iloc[rows]
        if len(whole.columns) > 1 and len(rows) > 1.5 * max(partners.nunique(), 1):
            # the hit's column repeats on the rows it joins (a prefix of "s3.us-east-1..."
            # is on every region's row): a program reading more of the table's columns may
            # join each query row to one row (taken as takes_over says, a tie to the hit's)
            wider = self._autojoin_on(asked, left_on, whole, rows, None, options)
            if wider.found and (not result.found or takes_over(
                    Reach.of(wider, fuzzy=False), Reach.of(result, fuzzy=False), tie=False)):
                result = wider
        if len(rows) < len(whole) and not _large_partner(len(whole), len(frame)):
            # a table not large next to the query: learned on all its rows too, the rows the
            # hit's program misses included ("de_DE.UTF-8" beside "aa_DJ"), and kept when
            # its join reaches further (:func:`reaches_further`)
            everything = self._autojoin_on(asked, left_on, whole, np.arange(len(whole)),
                                           [self.column], options)
            if everything.found and reaches_further(everything, result):
                result = everything
        # the hit's own program, verified on the whole column: where nothing was learned,
        # or in place of the learned one as takes_over says (a flagged hit keeps its flag)
        result = self._own_program(frame, left_on[0], whole, program, result, options,
                                   learned=result if result.found else None)
        result.left = frame         # joined and written as code with every query column
        result.lake, result.explode = table, explode
        result.aggregates = engine._lake_aggregates(table)
        result.how = "left"         # keeps the query's rows, as the hit's equi-join does
        return result

    def _equality_hit(self) -> bool:
        """A hit joined on equal (normalized) values: not a program's, not a distance's."""
        return ("program_json" not in self.details and "tau" not in self.details
                and len(self.columns) == 1)

    def _own_program(self, frame, column, whole, program, failed, options, learned=None):
        """The join by the hit's own program where Auto-Join learns none from the tables'
        rows (a coincidence the search flagged: days of the month equal to port numbers,
        whose rows share no 3-gram to learn from); else in place of the program ``learned``
        (on the hit's partner rows alone, which may all share a month and day the learned
        program then writes as a constant) where :func:`takes_over` takes it, a tie going
        to the hit's, and ``learned`` otherwise. Find transformation joins what the hit
        showed, and says why."""
        from .join.autojoin.result import AutoJoin
        forward = self.details.get("direction") == "query -> lake"
        read = column if forward else self.column
        program = program.renamed({c: str(read) for c in program.columns})
        program = unfolded_program(program, frame[column] if forward else whole[self.column],
                                   whole[self.column] if forward else frame[column])
        same = learned is not None and learned.program.describe() == program.describe()
        if same and not self.key_warning:   # nothing to keep: a flagged hit keeps its flag
            return learned
        out = AutoJoin(found=True, message="",
                       left=frame[[column]], right=whole,
                       left_name=options.get("left_name", "df"),
                       right_name=options.get("right_name", self.table),
                       source="left" if forward else "right", program=program,
                       source_column=str(read),
                       target_column=str(self.column if forward else column),
                       stats={"learned_on": failed.stats.get("learned_on")}).with_right(whole)
        if learned is not None:
            own, other = Reach.of(out, fuzzy=False), Reach.of(learned, fuzzy=True)
            if not takes_over(own, other, tie=True):
                return learned
            if same:
                note = ("The search's own program, verified on the whole column; Auto-Join "
                        "learned the same one from the rows it joins")
            else:
                note = ("The search's own program, verified on the whole column: " + why_taken(
                    own, other, "the one Auto-Join learned from the rows it joins ("
                    f"{learned.program.describe()})"))
            message = f"{note}."
        else:
            note = ("Auto-Join learned no program from these tables' rows, so this is the "
                    "search's own program, verified on the whole column; no example row "
                    "confirms it")
            message = f"{note}. ({failed.message})"
        if self.key_warning:
            note += f". The search flagged it: {self.key_warning}"
            message = f"{message} The search flagged it: {self.key_warning}."
        out.message, out.stats["from_hit"] = message, note
        return out

    def _autojoin_on(self, frame, left_on, whole, rows, columns, options):
        """Auto-Join learned on ``whole``'s ``rows``, then counted and joined on ``whole``."""
        result = self._engine.autojoin(frame, left_on, whole.iloc[rows], columns, **options)
        if result.found and result.source == "left" and result.target_column in whole.columns:
            # learned on the rows the hit joins: the lake column's other values may show
            # a padding the frame's numbers cannot ("proto-103": padded to 3, not "proto-0" + 2)
            from .join.autojoin.learn import widest_padding
            wider = widest_padding(result.program, whole[result.target_column].tolist())
            if wider != result.program:
                result.message = result.message.replace(result.program.describe(),
                                                        wider.describe())
                result.program = wider
        result.stats["learned_on"] = {"rows": int(len(rows)), "of": int(len(whole))}
        at = "source_row" if result.source == "right" else "target_row"
        for ex in result.examples:               # row numbers of the whole table
            ex[at] = int(rows[ex[at]])
        return result.with_right(whole)

    def _joined_tables(self, plan) -> list:
        """The query's own table (when this search recognised it) and this hit's table."""
        own = self._query.cache.get("own_tables", []) if self._query is not None else []
        return [*own, self.table]

    @property
    def added_columns(self) -> list:
        """The columns a plain join adds (:class:`~.join.preview.AddedColumn`: their names in
        the joined frame, type and null share in the lake table): every column of the
        table, its key columns included."""
        return self._engine.added_columns(self)

    @property
    def multiplies_rows(self) -> bool:
        """A left join with this hit would give the query more rows than it has."""
        q = self._query
        return bool(self.join_rows is not None and q is not None and self.join_rows > q.n_rows)

    def _spark_query(self) -> bool:
        return bool(self._query is not None and self._query.spark)

    def card(self) -> str:
        """The hit as a card (HTML): what the join would do, the columns it adds, the key's
        kind, values that match and values that do not (the widget shows it on click)."""
        return hit_card_html(self)

    def _repr_html_(self):
        return self.card()

    def to_dict(self) -> dict:
        d = {"rank": self.rank, "table": self.table, "column": ", ".join(self.columns),
             "overlap": self.overlap, "containment": self.containment, "jaccard": self.jaccard,
             "score": self.score, "method": self.method, "exact": self.exact,
             "figures": self.figures, "est_containment": self.estimated_containment,
             "lake_rows": self.lake_rows, "key_ratio": self.key_ratio,
             "query_ratio": self.query_ratio, "row_coverage": self.row_coverage, "join_rows": self.join_rows,
             "join_rows_exact": self.join_rows_exact,
             "added_columns": self._engine.n_added(self) if self._engine else None,
             "key_kind": self.key_kind, "key_warning": self.key_warning,
             "is_query_table": self.is_query_table, "in_chain": self.in_chain,
             "usefulness": self.usefulness, "table_id": self.table_id,
             "column_ids": list(self.column_ids)}
        if len(self.query_columns) > 1:
            d["mapping"] = ", ".join(f"{a} -> {b}" for a, b in self.mapping.items())
        if "program" in self.details:       # "Needs a transformation": the program it joins by
            d["transformation"] = self.details["program"]
            d["direction"] = self.details.get("direction")
        return d


def _cell_tokens(values: pd.Series, floats: bool, text: bool = False):
    """The token of each cell of a column (an Arrow string array, null: none) as the index
    normalizes it, every distinct text once: at once (lake/normalize.py ``normalize_array``)
    from as many as the union profile's, below it one by one; with ``floats`` the number it
    reads as, to 12 significant digits (``text``: the lake's text, read as the index reads
    numbers)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from .index.union_profile import cell_texts
    from .lake.normalize import normalize_array, normalize_text
    from .search.union import VECTOR_MIN
    if floats and not text:
        x = pd.to_numeric(values, errors="coerce")
    else:
        if values.dtype == object and pd.api.types.infer_dtype(values, skipna=True) == "string":
            texts = pa.array(values.to_numpy(dtype=object), pa.string(), from_pandas=True)
        else:                        # blanks are nulls to the normalization too
            texts = cell_texts(values.to_numpy(dtype=object) if values.dtype == object
                               else values.to_numpy())
            texts = pa.array([t if t is None or isinstance(t, str) else None
                              if isinstance(t, float) and np.isnan(t) else str(t)
                              for t in texts], pa.string())
        enc = pc.dictionary_encode(texts)
        distinct = enc.dictionary
        if len(distinct) < VECTOR_MIN:       # Arrow's fixed cost per call is the larger
            distinct = pa.array([normalize_text(t) for t in distinct.to_pylist()], pa.string())
        else:
            distinct = normalize_array(distinct)
        tokens = pc.take(distinct, enc.indices)
        if not floats:
            return tokens
        x = pd.to_numeric(pd.Series(tokens.to_numpy(zero_copy_only=False), dtype=object),
                          errors="coerce")
    codes, uniques = pd.factorize(np.asarray(x, dtype=np.float64), use_na_sentinel=True)
    written = pa.array([f"{float(v) + 0.0:.12g}" for v in uniques],   # -0.0: 0
                       pa.string())
    return pa.DictionaryArray.from_arrays(pa.array(codes, pa.int64(), mask=codes < 0),
                                          written).cast(pa.string())


def rows_held(lake: pd.DataFrame, frame: pd.DataFrame, pairs: dict) -> bool:
    """Whether every row of ``frame``, the values of its columns ``pairs`` (frame column
    name: ``lake``'s column) together, is a row of ``lake`` (a lake table as read): its texts
    normalized as the index normalizes values (:func:`_cell_tokens`), floats compared to 12
    significant digits; a column of list cells is left out (its elements were held), and
    fewer than two columns decide nothing (True). The column of the most distinct frame
    values first: only the lake rows that agree with a frame row on it are normalized in the
    others (the head of a wide table: its few rows, not every cell), those others at once
    per kind (:func:`_group_tokens`); a frame row left without a lake row ends it (False)."""
    in_frame = {str(c): c for c in frame.columns}
    compared = []
    for name, col in pairs.items():
        v = frame[in_frame[name]]
        if v.dtype == object and pd.api.types.infer_dtype(v, skipna=True) != "string" and \
                v.map(lambda c: isinstance(c, (list, tuple, dict, np.ndarray))).any():
            continue                     # list cells: their elements were held
        if col not in lake.columns:
            return True
        compared.append((in_frame[name], col))
    if len(compared) < 2:
        return True
    first = max(range(len(compared)), key=lambda i: (_distinct(frame[compared[i][0]]), -i))
    rest = compared[:first] + compared[first + 1:]
    rows = np.arange(len(lake))                          # the lake rows still in the running
    theirs = np.zeros(len(rows), dtype=np.int64)         # a code per row (lake, frame) so far
    mine = np.zeros(len(frame), dtype=np.int64)
    for group in ([compared[first]], *_column_groups(frame, rest)):
        codes = _group_tokens(lake, frame, group, rows)
        key = np.concatenate([theirs, mine])
        for c in codes:
            key = pd.factorize(key * (int(c.max(initial=0)) + 2) + (c + 1))[0]
        theirs, mine = key[:len(rows)], key[len(rows):]
        if not np.isin(mine, theirs).all():
            return False
        agree = np.isin(theirs, mine)
        rows, theirs = rows[agree], theirs[agree]
    return True


def _distinct(values: pd.Series) -> int:
    """How many distinct cells a column has (0 when they cannot be hashed)."""
    try:
        return int(values.nunique())
    except TypeError:
        return 0


def _column_groups(frame: pd.DataFrame, compared: list) -> list:
    """``compared`` (frame column, lake column) in groups normalized together, whose cells
    read alike side by side: columns of one NumPy number or boolean dtype, columns of texts
    (and nulls); any other alone."""
    groups, alone = {}, []
    for m, col in compared:
        v = frame[m]
        if isinstance(v.dtype, np.dtype) and v.dtype.kind in "iufb":
            groups.setdefault(v.dtype, []).append((m, col))
        elif v.dtype == object and pd.api.types.infer_dtype(v, skipna=True) == "string":
            groups.setdefault("texts", []).append((m, col))
        else:
            alone.append([(m, col)])
    return [*groups.values(), *alone]


def _group_tokens(lake: pd.DataFrame, frame: pd.DataFrame, group: list, rows) -> list:
    """Per column of ``group`` (frame columns of one dtype, their lake columns), the codes of
    its cells' tokens (:func:`_cell_tokens`; null -1), the lake's ``rows`` then the frame's,
    equal tokens equal codes; the cells of all of them normalized in one call per side."""
    import pyarrow as pa
    import pyarrow.compute as pc
    floats = frame[group[0][0]].dtype.kind == "f"
    n, k = len(rows), len(group)
    every = n == len(lake)
    lake_cells = np.concatenate([lake[col].to_numpy(dtype=object) if every else
                                 lake[col].to_numpy(dtype=object)[rows] for _, col in group])
    frame_cells = np.concatenate([frame[m].to_numpy() for m, _ in group]) if k > 1 else \
        frame[group[0][0]]
    cells = pa.concat_arrays([_cell_tokens(pd.Series(lake_cells, dtype=object), floats, text=True),
                              _cell_tokens(pd.Series(frame_cells), floats)])
    codes = pc.dictionary_encode(cells).indices.fill_null(-1).to_numpy().astype(np.int64)
    lake_codes, frame_codes = codes[:n * k].reshape(k, n), codes[n * k:].reshape(k, len(frame))
    return [np.concatenate([a, b]) for a, b in zip(lake_codes, frame_codes)]


def _frame_tokens(values: pd.Series) -> list:
    """The distinct normalized values of a frame's column, as the index holds a lake
    column's (a list's elements; JSON objects as their text)."""
    from .index.union_profile import cell_texts
    from .lake.normalize import normalize_text
    from .search.union import scalar_cells
    cells = scalar_cells(values).dropna().unique()
    return sorted({normalize_text(t) for t in cell_texts(cells) if t is not None} - {None})


# texts pandas' read_csv reads as missing by default (its na_values) that the index keeps as
# values (lake/normalize.py drops the others: "null", "N/A", "NaN", "")
READ_AS_MISSING = ("NA", "None", "#NA", "-NaN", "1.#IND", "-1.#IND", "1.#QNAN", "-1.#QNAN",
                   "#N/A N/A")


def _read_as_missing_note(column, nulls: int, texts: tuple, held_by: str,
                          several: bool = False) -> str:
    """The note of lake columns (``held_by``) holding ``texts`` that pandas' read_csv reads
    as missing, the query column having ``nulls`` null rows (Engine._read_as_missing)."""
    said = " and ".join(repr(t) for t in texts)
    example = " (Namibia's country code NA)" if "NA" in texts else ""
    return (f"{column!r} has {nulls:,} null row{'s' if nulls != 1 else ''} and {held_by} "
            f"hold{'' if several else 's'} the text {said}, which pandas' read_csv "
            f"reads as missing by default: a key your frame may have lost{example}; read the "
            f"file with pd.read_csv(..., keep_default_na=False) to keep it")


FLOAT_TOLERANCE = 1e-12  # relative: a float read back from its text by another parser

CUT_SHARE = 0.05      # a one-column frame holding this share of a lake column's values: a cut
CARD_COLUMNS = 12      # added columns listed on a hit card
CARD_VALUES = 6        # matched / unmatched values shown on a hit card


def _near(lake: np.ndarray, x: np.ndarray) -> bool:
    """Whether every number of ``x`` is within FLOAT_TOLERANCE of one of ``lake`` (sorted);
    False for a value that is no number."""
    if not len(lake) or np.isnan(x).any():
        return False
    at = np.clip(np.searchsorted(lake, x), 1, len(lake) - 1) if len(lake) > 1 else \
        np.zeros(len(x), dtype=np.int64)
    near = np.minimum(np.abs(lake[at] - x), np.abs(lake[np.maximum(at - 1, 0)] - x))
    return bool((near <= FLOAT_TOLERANCE * np.maximum(np.abs(x), 1.0)).all())


def key_kind_label(h: Hit) -> str:
    """The hit's key kind as shown: an identifier whose lake rows repeat per key (a join
    multiplies the query's rows) is a "repeated identifier", so the word agrees with the
    fan-out beside it."""
    if h.key_kind == "identifier" and (h.key_ratio or 1.0) > 1.0:
        return "repeated identifier"
    return h.key_kind or ""


def hit_card_html(h: Hit) -> str:
    """An Auctus-like result card of one hit (see :meth:`Hit.card`)."""
    esc = html.escape
    q = h._query
    n_rows = q.n_rows if q is not None else None
    mark = (" <span class='lj-mark'>(your table)</span>" if h.is_query_table else
            " <span class='lj-mark'>(already joined)</span>" if h.in_chain else "")
    added = h.added_columns if h._engine is not None else []
    facts = []
    if h.lake_rows is not None:
        facts.append(f"<b>{h.lake_rows:,}</b> rows &times; {len(added)} columns")
    if h.overlap is not None:
        c = h.containment if h.containment is not None else (h.estimated_containment or 0.0)
        what = "key tuples" if len(h.query_columns) > 1 else "values"   # MATE: tuples
        facts.append(f"{h.overlap:,} shared {what} ({c:.0%} of the query's distinct {what})")
    lines = [" &middot; ".join(facts)]
    if h.row_coverage is not None and n_rows:
        lines.append(f"{_bar(h.row_coverage, '#3a9a5b')} <b>{h.row_coverage:.0%}</b> of the "
                     f"query's {rows_text(n_rows)} find a partner")
    if h.join_rows is not None and n_rows is not None:
        est = "" if h.join_rows_exact else " (estimated)"
        if h.multiplies_rows:
            call = aggregate_call(h).replace("'", '"')
            lines.append(f"<span style='color:#b35900'>&#9888; a left join gives "
                         f"<b>{n_rows:,} &rarr; {rows_text(h.join_rows)}</b>{est}: "
                         f"&times;{h.key_ratio:,.3g} lake rows per key. Aggregate per key to keep "
                         f"one row per query row: <code>{esc(call)}</code> "
                         f"(<i>Per key</i> in the widget's {per_key_tab(h)}).</span>")
        else:
            lines.append(f"a left join keeps the query's {rows_text(n_rows)}{est}: each key "
                         f"matches at most one lake row")
    if (h.query_ratio or 1.0) > 1.0:
        lines.append(f"<span style='color:#b35900'>&#9888; the program merges "
                     f"<b>{h.query_ratio:,.3g}</b> distinct query values onto each key it "
                     f"joins on: several query values meet the same lake rows</span>")
    if h.key_kind:
        kind = f"key: <b>{esc(key_kind_label(h))}</b>"
        if key_kind_label(h) != h.key_kind:
            kind += f" (\u00d7{h.key_ratio:,.3g} lake rows per key)"
        if h.key_warning:
            kind += f" <span style='color:#b35900'>&#9888; {esc(h.key_warning)}</span>"
        lines.append(kind)
    if h.details.get("read_as_missing"):
        lines.append(f"<span style='color:#b35900'>&#9888; {esc(h.details['read_as_missing'])}"
                     f"</span>")
    # (a name may break anywhere, as the card's lines; a type at its spaces, a share not)
    cols = "".join(f"<tr><td>{esc(a.name)}</td><td style='overflow-wrap:normal'>"
                   f"{esc(a.shown_type)}</td><td style='text-align:right;white-space:nowrap'>"
                   f"{a.null_share:.0%}</td></tr>"
                   for a in added[:CARD_COLUMNS])
    more = (f"<div style='color:#777'>and {len(added) - CARD_COLUMNS} more</div>"
            if len(added) > CARD_COLUMNS else "")
    table = (f"<table class='lj-card-cols'><thead><tr><th>adds column</th>"
             f"<th style='overflow-wrap:normal'>type</th><th style='white-space:nowrap'>null"
             f"</th></tr></thead><tbody>{cols}</tbody></table>{more}" if added else
             "<div>adds no column</div>")
    values = ""
    if q is not None and h._engine is not None:
        m, u = h.matches, h.unmatched      # a multi-column hit's: key tuples

        def as_text(x):
            return "(" + ", ".join(map(str, x)) + ")" if isinstance(x, tuple) else str(x)

        def sample(xs):
            return (", ".join(esc(as_text(x)) for x in xs[:CARD_VALUES])
                    + (" ..." if len(xs) > CARD_VALUES else ""))
        matched = f"<b>matched ({len(m):,}):</b> {sample(m)}"
        pairs = h.details.get("pairs") if "tau" in h.details else None
        if pairs and len(pairs) == len(m):
            # PEXESO: the similar pairs (the query's value is not the lake's) come first, the
            # farthest first: those are the ones to check; then the equal values
            tokens = h.details["matched_tokens"]
            differ = sorted(((value, lake, d) for tok, (value, lake, d) in zip(tokens, pairs)
                             if tok != lake), key=lambda x: -x[2])
            equal = [value for tok, (value, lake, _) in zip(tokens, pairs) if tok == lake]
            shown = [f"{value} \u2192 {lake}" for value, lake, _ in differ]
            matched = (f"<b>matched ({len(m):,}):</b> "
                       + (f"<b>{len(differ):,} similar, not equal</b> (check them): "
                          f"{sample(shown)}" if differ else "")
                       + ("; " if differ and equal else "")
                       + (f"<b>{len(equal):,} equal</b>: {sample(equal)}" if equal else ""))
        values = (f"<div class='lakejoin-values'>{matched}"
                  + (f"<br><b>not matched ({len(u):,}):</b> {sample(u)}" if u else "") + "</div>")
    # its lines wrap within the cell, a long name anywhere (a narrow notebook cut them at
    # the card's right edge)
    return (f"<div class='lj-card' style='border:1px solid #ccd;border-radius:6px;padding:8px 12px;"
            f"max-width:min(760px, 100%);box-sizing:border-box;overflow-wrap:anywhere'><div style='font-size:1.1em'><b>{esc(h.table)}</b> &middot; "
            f"{esc(_columns_label(h))}{mark}</div>"
            + "".join(f"<div>{x}</div>" for x in lines if x) + table + values + "</div>")


def aggregate_call(h: Hit) -> str:
    """The Python call that joins hit ``h`` with one row per query row: the hit's own join,
    or for a hit joinable only through a program, Auto-Join's (``hit.autojoin(df)``)."""
    join = "hit.autojoin(df).join" if "program_json" in h.details else "hit.join"
    return f"{join}(df, aggregate='{_suggested_aggregate(h)}')"


def per_key_tab(h: Hit) -> str:
    """The widget's tab whose *Per key* aggregates hit ``h``'s join."""
    return "Find transformation" if "program_json" in h.details else "Join"


def _suggested_aggregate(h: Hit) -> str:
    """'latest' when the hit's table has a date or year column, else 'first': the aggregate
    the hit card and the search's "would multiply" note both advise."""
    try:
        h._engine.aggregate_for(h, "latest")
        return "latest"
    except (QueryError, AttributeError):
        return "first"


def _column_name(hit: Hit, column: str) -> str:
    """A column of a hit as hits describe it: a list column is "each element of codes"."""
    return f"each element of {column}" if column in hit.list_columns else str(column)


def _columns_label(hit: Hit) -> str:
    """The hit's column, or for a multi-column query its mapping ("city → town, ...")."""
    if len(hit.query_columns) < 2:
        return ", ".join(_column_name(hit, c) for c in hit.columns)
    return ", ".join(f"{q} \u2192 {_column_name(hit, c)}" for q, c in hit.mapping.items())


def _large_partner(table_rows: int, query_rows: int) -> bool:
    """A lake table large next to the query (:data:`LARGE_PARTNER`)."""
    return table_rows >= LARGE_PARTNER[0] and table_rows >= LARGE_PARTNER[1] * max(query_rows, 1)


def _joinability_reaching(matched: int, n_query: int) -> float:
    """The largest joinability of two decimals (four below 1 %) whose count of query values
    (search/pexeso.py: t_count) is at most ``matched``."""
    from .search.pexeso import t_count
    scale = 100 if matched / n_query >= 0.01 else 10_000
    t = math.floor(matched / n_query * scale + 1e-9) / scale
    while t > 0 and t_count(t, n_query) > matched:
        t = round(t - 1 / scale, 6)
    return t


class SearchResult(Sequence):
    """Ranked hits of one search, with what was searched and how long it took."""

    def __init__(self, hits, query: Query, method: str, params: SearchParams, seconds: float,
                 stats: dict | None = None, rank: str = "overlap", notes=(), rebuild=None,
                 transform_search: bool | str | None = None):
        self.hits = list(hits)
        self._rebuild = rebuild            # Engine.rebuild_command of the index searched
        # for an empty one-column search: True when the index can also search for joins
        # after a transformation (method "transform"), else the command that adds that
        # component; None: no such advice (a search of that method, or none given)
        self.transform_search = transform_search
        self.query = query
        self.method = method
        self.params = params
        self.seconds = seconds
        self.stats = stats or {}
        self.rank = rank
        self.notes = list(query.notes) + list(notes)
        self.query_name: str | None = None   # the notebook variable searched with (front ends)
        self.searched = None                 # ui.session.Searched: that frame as searched
        self.lake_changed: str | None = None  # the note that the lake changed since the build
        self.absent_columns: list = []       # an empty multi-column search's query columns
                                             # with no value in the lake (Engine.search)
        self.include_own = True
        self.own_left_out: list = []         # the query's own table and those already joined,
                                             # marked: left out (include_own=False), or
                                             # passed over for k others (also_matching)

    def __getitem__(self, i):
        return self.hits[i]

    def __len__(self):
        return len(self.hits)

    @property
    def plan(self) -> str | None:
        """Which of the method's exact plans answered, from its stats ("plan mergelist",
        "plan bruteforce", "route exact", ...): JOSIE's planner, PEXESO's per partition,
        LSH Ensemble's route; None for a method that has no choice."""
        for key in ("plan", "route"):
            val = self.stats.get(key)
            if isinstance(val, (list, tuple)):
                val = ", ".join(sorted({str(v) for v in val}))
            if val:
                return f"{key} {val}"
        return None

    @property
    def empty_message(self) -> str:
        """What an empty result means for this method, and what to try instead."""
        return self.empty_text()

    def empty_text(self, widget: bool = False) -> str:
        """``empty_message``; with ``widget``, an option is named by its label in the
        widget's options ("share of values to match (T)") instead of its CLI and Python
        spellings. A query named as a lake table says its own column(s) were left out (they
        share every value with it: "no column" would be false)."""
        text = self._empty_reason(widget)
        q = self.query
        if not text.startswith("No "):
            return text
        if q.exclude and q.origin:
            cols = ", ".join(repr(str(c)) for c in q.columns)
            return (f"The query is the lake table {q.origin}: its own column"
                    f"{'s' if len(q.columns) > 1 else ''} {cols} left out of its results. "
                    f"No other {text[3:]}")
        if self.own_left_out:            # (passed over: only beside hits)
            return (f"Left out as asked (include_own=False, --no-own): "
                    f"{', '.join(self.own_left_out)}. No other {text[3:]}")
        return text

    def also_matching(self, widget: bool = False) -> str:
        """The line under the hits naming the query's own table and tables already joined
        that ranked among them but took no place of the k (``own_left_out``), or '' (none,
        or left out as asked). ``widget``: without the API's and magics' option."""
        if not self.own_left_out or not self.include_own or not self.hits:
            return ""
        one = len(self.own_left_out) == 1
        how = "" if widget else \
            f"; include_own=False (--no-own) leaves {'it' if one else 'them'} out"
        return (f"Also matching: {', '.join(self.own_left_out)}, not counted: listed only "
                f"when fewer than {self.params.k} other columns qualify{how}.")

    def _empty_reason(self, widget: bool) -> str:
        """What found nothing, by method, and what to try instead."""
        t = self.params.threshold
        tau, share = self.stats.get("tau"), self.stats.get("T")
        if self.method == "pexeso" and tau is not None and share is not None:
            head = (f"No lake column has a value within distance tau = {tau:.3g} of "
                    f"{share:.0%} of the query's values (fuzzy / semantic search).")
            # a larger tau admits pairs farther apart than the index's default, chosen as the
            # largest that kept them precise (docs/algorithms/pexeso.md); a smaller
            # joinability keeps the pairs as close, so the advice measures that one
            closest = self.stats.get("closest") or {}
            best, n_q = closest.get("best_matched"), closest.get("query_vectors")
            if best and n_q:
                t_new = _joinability_reaching(best, n_q)
                name = (f" (table {closest['best_table']}, column "
                        f"{closest['best_column_name']})" if closest.get("best_table") else "")
                how = (f'"{self._option_label("joinability")}" at {t_new:g}' if widget else
                       f"-O joinability={t_new:g} (CLI, magics), joinability={t_new:g} "
                       f"(search()), or the widget's options")
                return (f"{head} At this tau the closest column{name} matches {best:,} of the "
                        f"{n_q:,} ({best / n_q:.0%}): a smaller joinability finds it, its "
                        f"pairs within the same tau: {how}. A larger "
                        f"tau admits values farther apart than the index's default (chosen as "
                        f"the largest that kept matches precise): check its pairs.")
            if best == 0:
                return (f"{head} No query value has a lake value within this tau. A larger "
                        f"tau admits values farther apart than the index's default (chosen as "
                        f"the largest that kept matches precise): check the pairs it finds "
                        f"(hit.details['pairs']); for typos of short values the fuzzy join "
                        f"(engine.fuzzy_join) chooses matches at a precision target.")
            how = (f'"{self._option_label("joinability")}"' if widget else
                   "-O joinability=..., joinability=... in search(), or the widget's options")
            return (f"{head} A smaller joinability ({how}) finds columns matching fewer of the "
                    f"query's values; a larger tau admits values farther apart.")
        if self.method == "transform":
            old = "" if self.stats.get("short_segments", True) else (
                f" The index's transform component holds no short values (codes of a few "
                f"characters inside longer ones: it was built before they were searched, "
                f"or with --set transform.short=0); rebuilding it finds them: "
                f"{self._transform_rebuild()}.")
            by_chance = self.stats.get("chance_numbers", 0)
            chance = "" if not by_chance else (
                f" {by_chance} column(s) joined only through small numbers read out of the "
                f"query's values (a day cut out of dates) that the column's numbers fill: "
                f"any numbers of that range would join as many, so they were left out.")
            coincidences = self.stats.get("chance", 0)
            if coincidences:
                chance += (f" {coincidences} column(s) joined by a program whose keys meet "
                           f"the column no more often than chance would (short codes, or "
                           f"dates of the column's shape: random dates within its span meet "
                           f"as many), so they were left out.")
            by_field = self.stats.get("constant_field", 0)
            field = "" if not by_field else (
                f" {by_field} column(s) joined only through a program writing a constant "
                f"digit field where the query's values hold another (a year \"2024\" where "
                f"they hold 2023): every row would meet a row the value does not name, so "
                f"they were left out.")
            few = "" if self.query.n_columns > 1 or self.query.size > 3 else (
                f" The query has {self.query.size} distinct value(s): a hit's program must "
                f"join at least three, one beyond the examples it was learned from, so this "
                f"search cannot find one for so few; learn it against a table you expect to "
                f"join: `%lakejoin autojoin DF TABLE.COLUMN --on COLUMN` (a notebook) or "
                f"engine.autojoin(df, column, table, table_column).")
            return (f"No lake column joins the query after a transformation the search could "
                    f"learn ({self.stats.get('paired_columns', 0)} column(s) shared patterns "
                    f"or q-grams with it, {self.stats.get('verified', 0)} verified).{chance}"
                    f"{field}{old}{few}")
        if self.query.n_columns > 1:      # a composite key: its values together in one row
            cols = ", ".join(map(str, self.query.columns))
            absent = self.absent_columns
            if absent:
                which = ", ".join(repr(str(c)) for c in absent)
                rest = [str(c) for c in self.query.columns if c not in absent]
                return (f"No lake table holds any of the query's key tuples ({cols}): no lake "
                        f"column holds any value of {'column' if len(absent) == 1 else 'columns'} "
                        f"{which}. Search without {'it' if len(absent) == 1 else 'them'}"
                        + (f" (on {', '.join(rest)})." if rest else "."))
            if t is not None:
                return (f"No lake table holds {percent(t)} or more of the query's key tuples "
                        f"({cols}), each tuple's values together in one row.")
            return (f"No lake table holds any of the query's key tuples ({cols}): no row of a "
                    f"table has a tuple's values together, under any mapping of its columns.")
        if t is not None:
            return (f"No column of the lake holds {percent(t)} or more of the query's "
                    f"values." + _dates_hint(self.query) + self._transform_hint(widget))
        return ("No column of the lake shares a value with the query." + _dates_hint(self.query)
                + self._transform_hint(widget))

    def _transform_hint(self, widget: bool) -> str:
        """For an empty one-column search: where to search for joins after a transformation
        (values written otherwise: "_" for " ", a prefix, another date format), or how to add
        the component that search needs."""
        what = (" A lake column may still join after a transformation of its values (another "
                "separator, a prefix, another date format)")
        if self.transform_search is True:
            label = next((m.label for m in SEARCH_METHODS if m.name == "transform"), "transform")
            how = (f"Method '{label}'" if widget else
                   f"-m transform (CLI, magics), method='transform' (search()) or the "
                   f"widget's Method '{label}'")
            return f"{what}: this index can search for those: {how}."
        if isinstance(self.transform_search, str):
            return (f"{what}; searching for those needs the index's transform component: "
                    f"{self.transform_search}.")
        return ""

    def _transform_rebuild(self) -> str:
        """The command that rebuilds the index searched with short segments: as it was
        built, with transform and without a recorded transform.short=0."""
        if self._rebuild is None:
            return "`lakejoin index LAKE --out INDEX --overwrite --with transform`"
        return self._rebuild("transform", unset=("transform.short",))

    def _option_label(self, name: str) -> str:
        """The label of this method's option ``name`` (the widget's control for it)."""
        method = next((m for m in SEARCH_METHODS if m.name == self.method), None)
        spec = next((p for p in (method.params if method else ()) if p.name == name), None)
        return spec.label if spec is not None else name

    @property
    def how(self) -> str:
        """How the search ran: the method, its plan if it has one, and the time
        ("josie, plan josie, 12.3 ms")."""
        plan = self.plan
        return (f"{self.method}{', ' + plan if plan else ''}, "
                f"{self.seconds * 1000:.1f} ms")

    COLUMNS = ["rank", "table", "column", "overlap", "containment", "jaccard", "score",
               "method", "exact", "figures", "est_containment", "lake_rows", "key_ratio", "query_ratio", "row_coverage",
               "join_rows", "join_rows_exact", "added_columns", "key_kind", "key_warning",
               "is_query_table", "in_chain", "usefulness", "table_id", "column_ids"]

    def to_pandas(self) -> pd.DataFrame:
        """One row per hit: the search's figures, then what its join would do
        (``added_columns`` counts them; ``hit.added_columns`` lists them)."""
        rows = [h.to_dict() for h in self.hits]
        extra = [c for c in ("mapping", "transformation", "direction")
                 if any(c in r for r in rows)]
        return pd.DataFrame(rows, columns=self.COLUMNS + extra)

    def text_table(self, df: pd.DataFrame | None = None) -> pd.DataFrame:
        """The hits as a terminal shows them (the CLI, ``repr``): shares as percentages,
        fan-out and row counts written as the widget writes them; ``df``: ``to_pandas()``."""
        df = self.to_pandas() if df is None else df
        res = self.hits
        show = df[["rank", "table", "column", "overlap", "containment", "jaccard"]].copy()
        show["table"] = [t + (" (your table)" if h.is_query_table else " (joined)"
                              if h.in_chain else "")
                         for t, h in zip(clip_all(show["table"]), res)]
        show["column"] = clip_all([h.columns_label for h in res])
        if "mapping" in df:
            show["mapping"] = df["mapping"]
        show["containment"] = [percent(c) for c in show["containment"]]
        show["jaccard"] = [fraction(j) for j in show["jaccard"]]
        show["rows"] = [f"{h.lake_rows:,}" if h.lake_rows is not None else "" for h in res]
        show["fan-out"] = [((NA if _similarity_hit(h) else "") if h.key_ratio is None else
                            f"x{h.key_ratio:,.0f}" if h.key_ratio >= 1000 else
                            f"x{h.key_ratio:.3g}") for h in res]
        if any((h.query_ratio or 1.0) > 1.0 for h in res):
            show["query values/key"] = [(f"{h.query_ratio:.3g}" if h.query_ratio else "")
                                        for h in res]
        show["row coverage"] = [whole_percent(h.row_coverage) for h in res]
        show["join rows"] = [(f"{h.join_rows:,}" + ("" if h.join_rows_exact else " (est.)"))
                             if h.join_rows is not None else
                             NA if _similarity_hit(h) else "" for h in res]
        if any(h.figures != "exact" for h in res):
            show["figures"] = [h.figures for h in res]
        if "transformation" in df:
            show["transformation"] = [
                clip(f"{p} ({'query' if d == 'query -> lake' else 'lake'})", 60)
                if isinstance(p, str) else "" for p, d in zip(df["transformation"], df["direction"])]
        return show

    def __repr__(self):
        head = (f"{len(self.hits)} hit(s) for {', '.join(map(str, self.query.columns))} "
                f"(|Q|={self.query.size_label}, {self.query.n_rows} rows, {self.how}; "
                f"ranked by {RANK_WORDS[self.rank]})")
        notes = [f"note: {n}" for n in self.notes]     # as the HTML and union's repr show them
        if not self.hits:
            return "\n".join([head, self.empty_message, *notes])
        return "\n".join([head, self.text_table().to_string(index=False), *self.text_notes(),
                          *notes])

    def multiplying(self) -> list:
        """The hits whose left join would give the query more rows than it has."""
        return [h for h in self.hits if h.multiplies_rows]

    def multiply_note(self, markup: bool = False, cli: bool = False) -> str:
        """'N of these joins would multiply the query's rows (...); join them with an
        aggregate per key (...)', or '' when none would: the one text of the HTML's note
        (``markup``: its code and emphasis as HTML) and of the terminal's (``cli``: the
        ``lakejoin join`` options, not Python)."""
        many = self.multiplying()
        if not many:
            return ""
        worst = max(many, key=lambda h: h.join_rows)
        code = (lambda s: f"<code>{html.escape(s, quote=False)}</code>") if markup else str
        em = (lambda s: f"<i>{s}</i>") if markup else str
        # the aggregate the hit card suggests for the hit named (one rule, so the two agree)
        head = (f"{len(many)} of these joins would multiply the query's "
                f"{rows_text(self.query.n_rows)} (#{worst.rank}: {worst.join_rows:,} rows); "
                f"join them with an aggregate per key (#{worst.rank}: ")
        if cli:
            m = " -m transform" if "program_json" in worst.details else ""
            return (head + f"lakejoin join ...{m} --hit {worst.rank} --aggregate "
                    f"{_suggested_aggregate(worst)}, or --duplicates first).")
        return (head + f"{code(aggregate_call(worst))}, or {em('Per key')} in the widget's "
                f"{per_key_tab(worst)}).")

    def text_notes(self, cli: bool = False) -> list[str]:
        """The lines a terminal prints under the hits' table: :meth:`also_matching`, each
        hit's key warning ("#1: the key is a category ...") and the :meth:`multiply_note`
        (``cli``: in ``lakejoin join``'s options)."""
        also = self.also_matching()
        lines = [also] if also else []
        lines += [f"#{h.rank}: {h.key_warning}" for h in self.hits if h.key_warning]
        note = self.multiply_note(cli=cli)
        return lines + ([note] if note else [])

    def _repr_html_(self):
        q = self.query
        cap = (f"<b>{len(self.hits)}</b> joinable column(s) for <code>{html.escape(', '.join(map(str, q.columns)))}</code> "
               f"&middot; {q.size_label} &middot; method <code>{html.escape(self.method)}</code> "
               + (f"({html.escape(self.plan)}) " if self.plan else "")
               + f"&middot; ranked by {RANK_WORDS[self.rank]} &middot; {self.seconds * 1000:.1f} ms")
        notes = "".join(f"<div style='color:#a60'>note: {html.escape(n)}</div>" for n in self.notes)
        if not self.hits:
            return (f"<div>{cap}</div>{notes}<div><i>{html.escape(self.empty_message)}"
                    f"</i></div>")
        rows = [_hit_row_html(h, q) for h in self.hits]
        note = self.multiply_note(markup=True)
        warn = f"<div style='color:#a60'>{note}</div>" if note else ""
        head = "".join(f"<th title='{html.escape(t)}'>{html.escape(h)}</th>" for h, t in (
            ("#", "rank"), ("table", "lake table"), ("column", "lake column"),
            ("overlap", "distinct values shared"), ("containment", "share of the query's values"),
            ("rows", "rows of the lake table"), ("fan-out", "lake rows per matched key"),
            ("coverage", "share of the query's rows that find a partner"),
            ("join rows", "rows of a left join (est.: estimated)"),
            ("adds", "columns the join adds"), ("key", "kind of the lake key")))
        also = self.also_matching()
        also = f"<div style='color:#777'>{html.escape(also)}</div>" if also else ""
        return (f"<div>{cap}</div>{notes}{warn}<table><thead><tr>{head}</tr></thead>"
                f"<tbody>{''.join(rows)}</tbody></table>{also}")


def _bar(share: float | None, color: str = "#4a78c2") -> str:
    c = max(0.0, min(1.0, share or 0.0))
    return (f"<div style='background:#e8eef7;width:80px;height:10px;display:inline-block'>"
            f"<div style='background:{color};width:{c * 80:.0f}px;height:10px'></div></div>")


SIMILARITY_NOTE = ("fan-out and join rows are n/a for the similarity (PEXESO) hits: they "
                   "match values within distance tau, not equal ones, so there is no "
                   "equi-join to count; the fuzzy join joins them (engine.fuzzy_join, the "
                   "widget's Fuzzy join, `%lakejoin join`, `lakejoin join -m pexeso`), "
                   "choosing its matches at a precision target")
NA = "n/a"


def _similarity_hit(h: Hit) -> bool:
    """A hit that matches similar values (PEXESO): no equi-join, so no join figures."""
    return "tau" in h.details and "program_json" not in h.details


def _hit_row_html(h: Hit, q: Query) -> str:
    c = h.containment if h.containment is not None else (h.estimated_containment or 0)
    mark = (" <span style='color:#777'>(your table)</span>" if h.is_query_table else
            " <span style='color:#777'>(already joined)</span>" if h.in_chain else "")
    fan = (NA if _similarity_hit(h) else "") if h.key_ratio is None else \
        f"\u00d7{h.key_ratio:,.3g}"
    fan_style = "color:#b35900;font-weight:600" if (h.key_ratio or 1) > 1 else ""
    cover = ("" if h.row_coverage is None else
             f"{_bar(h.row_coverage, '#3a9a5b')} {whole_percent(h.row_coverage)}")
    rows = (NA if _similarity_hit(h) else "") if h.join_rows is None else (
        f"{q.n_rows:,} \u2192 {h.join_rows:,}" + ("" if h.join_rows_exact else " (est.)"))
    key = html.escape(key_kind_label(h) if h.key_kind else "")
    if h.key_warning:
        key = f"<span title='{html.escape(h.key_warning)}' style='color:#b35900'>\u26a0 {key}</span>"
    n_add = h._engine.n_added(h) if h._engine is not None else None
    return (f"<tr><td>{h.rank}</td><td>{html.escape(h.table)}{mark}</td>"
            f"<td>{html.escape(_columns_label(h))}</td>"
            f"<td style='text-align:right'>{'' if h.overlap is None else f'{h.overlap:,}'}</td>"
            f"<td>{_bar(c)} {percent(c)}{'' if h.exact else ' (est.)'}</td>"
            f"<td style='text-align:right'>{'' if h.lake_rows is None else f'{h.lake_rows:,}'}</td>"
            f"<td style='text-align:right;{fan_style}'>{fan}</td><td>{cover}</td>"
            f"<td style='text-align:right'>{rows}</td>"
            f"<td style='text-align:right'>{'' if n_add is None else f'+{n_add}'}</td>"
            f"<td>{key}</td></tr>" + _program_row(h))


def _dates_as_text(samples) -> bool:
    """Whether a text column's sample values are all dates written as text (RFC 2822's
    "Tue, 04 Nov 2025 10:00:00 +0100", ISO's, dd/mm/yyyy, ...), bare years among them: the
    order "latest" reads them so."""
    from .join.keys import numeric_values, order_keys
    values = pd.Series([str(v) for v in samples if v is not None and str(v).strip()],
                       dtype=object)
    if values.empty or numeric_values(values).notna().all():
        return False
    return bool(order_keys(values).notna().all())


def _unordered(tokens: pd.Series, reading, label: str, probe: int = 2000) -> str:
    """What "latest" cannot order among a column's distinct values ``tokens`` read as
    ``reading`` says: "" when all read (a probe of ``probe`` evenly spaced values, else all);
    raises QueryError when none does."""
    from .join.keys import order_keys
    tokens = tokens[tokens.notna()]
    if tokens.empty:
        return ""
    probed = tokens.iloc[np.linspace(0, len(tokens) - 1, probe).astype(int)] \
        if len(tokens) > probe else tokens
    keys = order_keys(probed, reading.dayfirst, reading.years)
    if keys.isna().all() and len(probed) < len(tokens):
        probed, keys = tokens, order_keys(tokens, reading.dayfirst, reading.years)
    bad = probed[keys.isna().to_numpy()]
    if bad.empty:
        return ""
    example = str(bad.iloc[0]).strip()
    if len(bad) == len(probed):
        raise QueryError(
            f"{label} cannot order the rows of a key: none of its values reads as a date, a "
            f"time or a number (such as {example!r}), so 'latest' would keep the first row in "
            f"table order. Name a date, time or number column (order_by=..., --order-by) or "
            f"aggregate with 'first'.")
    some = (f"{len(bad):,} of its {len(tokens):,} distinct values" if len(probed) == len(tokens)
            else f"some of its values ({len(bad):,} of {len(probed):,} probed)")
    return (f"{some} read as no date, time or number (such as {example!r}) and are left out "
            f"of 'latest'")


def _program_row(h: Hit) -> str:
    """A "Needs a transformation" hit's program, in a row of its own under the hit's,
    across the table (in the column's cell, between the figures, it wrapped a word a
    line)."""
    if "program" not in h.details:
        return ""
    side = "query" if h.details.get("direction") == "query -> lake" else "lake"
    return (f"<tr><td></td><td colspan='10' style='text-align:left;color:#555;"
            f"white-space:normal'>after <code style='white-space:normal'>"
            f"{html.escape(h.details['program'])}</code> ({side} side, on normalized "
            f"values)</td></tr>")


# ---------------------------------------------------------------------- engine

class _Catalog:
    """The catalog as arrays by global column / table id, for the per-hit figures."""

    def __init__(self, index: LakeIndex):
        c, t = index.columns, index.tables
        self.name = c["name"].astype(str).to_numpy(dtype=object)
        self.type = c["type"].astype(str).to_numpy(dtype=object)
        self.n_distinct = c["n_distinct"].to_numpy(dtype=np.int64)
        self.table_id = c["table_id"].to_numpy(dtype=np.int64)
        self.keyed = (c["n_values"] - c["n_keyless"]).to_numpy(dtype=np.int64)
        self._samples = c["samples"]
        self.table_rows = t["n_rows"].fillna(0).to_numpy(dtype=np.int64)
        self.first = t["first_column_id"].to_numpy(dtype=np.int64)
        self.n_columns = t["n_columns"].fillna(0).to_numpy(dtype=np.int64)
        rows = self.table_rows[c["table_id"].to_numpy(dtype=np.int64)]
        empty = (c["n_null"] + c["n_keyless"] - c["n_too_long"]).to_numpy(dtype=np.float64)
        self.null_share = np.where(rows > 0, empty / np.maximum(rows, 1), 0.0)
        self.is_list = (c["list"].eq(True).to_numpy(dtype=bool) if "list" in c
                        else np.zeros(len(c), dtype=bool))     # an index built before lists

    def mean_count(self, cid: int) -> float:
        """Mean rows per distinct value of a column (the estimate without joinstats)."""
        return float(self.keyed[cid] / self.n_distinct[cid]) if self.n_distinct[cid] else 1.0

    def samples(self, cid: int) -> list:
        s = self._samples.iloc[int(cid)]
        return list(s) if s is not None else []

    def table_column_ids(self, table_id: int) -> range:
        return range(int(self.first[table_id]), int(self.first[table_id] + self.n_columns[table_id]))

    def table_columns(self, table_id: int) -> list:
        return list(self.name[self.first[table_id]:self.first[table_id] + self.n_columns[table_id]])


def _check_search_args(k, threshold) -> None:
    """k and threshold are numbers (not strings, not booleans) in their ranges."""
    if k is not None and (isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer))
                          or k < 1):
        integer = isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))
        raise QueryError(f"k must be a positive integer, the number of results (got {k!r}"
                         + ("" if integer else f", {a_kind(k)}") + ").")
    if threshold is None:
        return
    if isinstance(threshold, (bool, np.bool_)) or not isinstance(
            threshold, (int, float, np.integer, np.floating)):
        raise QueryError(f"threshold is a containment, a number between 0 and 1 (got "
                         f"{threshold!r}, {a_kind(threshold)}); e.g. threshold=0.5.")
    if not 0 <= threshold <= 1:
        raise QueryError(f"threshold is a containment between 0 and 1 (got {threshold!r}).")


def _mine(h) -> bool:
    """A hit of the query's own table or of a table already joined."""
    return bool(h.is_query_table or getattr(h, "in_chain", False))   # (union: no chain)


def _k_places(hits: list, k: int | None, keep_place: bool = False) -> tuple[list, list]:
    """(listed, passed over) of the ranked ``hits``: the query's own table and the tables
    already joined take none of the k places while another hit qualifies: the k best others
    are listed, then those two kinds, last, in the places left (fewer than k others); passed
    over: those of them ranked before the k-th other, for the result to name. ``keep_place``
    (the overlap ranking of a query naming a lake table): they keep a place among the
    method's k, listed last."""
    if keep_place or k is None:
        listed = hits if k is None else hits[:k]
        return sorted(listed, key=_mine), []      # stable: the ranking kept
    others = [i for i, h in enumerate(hits) if not _mine(h)][:k]
    listed = [hits[i] for i in others] + [h for h in hits if _mine(h)][:k - len(others)]
    if len(others) < k:
        return listed, []
    return listed, [h for h in hits[:others[-1]] if _mine(h)]


def _own_names(hits: list) -> list:
    """The tables of own or already joined ``hits``, marked as the results write them."""
    return sorted({f"{h.table} (your table)" if h.is_query_table else
                   f"{h.table} (already joined)" for h in hits if _mine(h)})


def _unflagged(hits: list) -> int:
    """Hits with no key warning (a measure, years, a coincidence) outside the query's own
    table and the tables already joined."""
    return sum(1 for h in hits
               if h.key_warning is None and not (h.is_query_table or h.in_chain))


def _add_stats(stats: dict, more: dict, m: SearchMethod) -> None:
    """``more`` (a method run's stats) added to ``stats``: numbers summed (work done), but
    for the method's ``settings_stats`` (PEXESO's tau), taken once; PEXESO's ``closest``
    the best of both; anything else kept as first given."""
    for key, val in more.items():
        if key in m.settings_stats:             # tau: one value, not a count
            stats.setdefault(key, val)
        elif isinstance(val, (int, float, np.integer, np.floating)) and key in stats:
            stats[key] += val
        elif key == "closest" and key in stats:     # PEXESO's: over every generation
            stats[key] = max(stats[key], val, key=lambda c: c["best_matched"])
        else:
            stats.setdefault(key, val)


def _at_least_identity(learned, query_column, lake_column):
    """``learned`` (Auto-Join on an equality hit's columns) or, where :func:`takes_over`
    takes it (a tie to the identity), the identity: both columns as the index compares them
    where the language can say it (ends trimmed, inner spaces one, lower case on both
    sides). Auto-Join started from an equality hit never joins fewer query rows than the
    equality the hit showed: a program fitted to its examples ("title of `state` without
    spaces", undoing " alaska ") loses the rows the examples did not show ("District of
    Columbia")."""
    from .join.autojoin.dsl import Program, extract
    from .join.autojoin.result import AutoJoin
    left, right = learned.left, learned.right
    if left is None or right is None or query_column not in left.columns \
            or lake_column not in right.columns:
        return learned
    program = Program((extract(str(query_column), casing="lower", trim=True),))
    target_program = Program((extract(str(lake_column), casing="lower", trim=True),))
    # the columns as they are where the comparison folds case and ends alike (deviation 83)
    plain = plain_program_on(program, left[query_column])
    if plain is not None and plain_program_on(target_program, right[lake_column]) is not None:
        program, target_program = plain, None
    same = AutoJoin(found=True, message="", left=left, right=right,
                    left_name=learned.left_name, right_name=learned.right_name, source="left",
                    program=program, target_program=target_program,
                    source_column=str(query_column), target_column=str(lake_column))
    same.with_right(right)
    identity, other = Reach.of(same, fuzzy=False), Reach.of(learned, fuzzy=True)
    if not takes_over(identity, other, tie=True):
        return learned
    why = why_taken(identity, other, f"the learned {learned.program.describe()}")
    note = (f"The join is on equal values (case and spacing ignored), the hit's Join: {why}, "
            f"of the {len(left):,} query rows")
    same.message = f"Found: {same.program.describe()} equals " + (
        f"{same.target_program.describe()}." if same.target_program is not None else
        f"`{lake_column}` (case and spacing ignored).")
    same.stats = dict(learned.stats, identity=note)
    same.lake, same.explode = learned.lake, learned.explode
    same.aggregates, same.how = learned.aggregates, learned.how
    return same


class Engine:
    """Search an opened index (see module docstring)."""

    def __init__(self, index: LakeIndex, methods: Sequence[SearchMethod] = SEARCH_METHODS):
        if isinstance(index, (str, os.PathLike)):
            raise QueryError(f"Engine() takes an opened index, not a path ({str(index)!r}): "
                             f"open it with lakejoin_jupyter.open_index({str(index)!r}) "
                             f"(or Engine.open).")
        self.index = index
        self.search_methods = {m.name: m for m in methods}

    @classmethod
    def open(cls, path, verify: bool = True, check_lake: bool = True) -> "Engine":
        return cls(LakeIndex(path, verify=verify, check_lake=check_lake))

    @property
    def path(self) -> Path:
        return self.index.path

    @property
    def lake_root(self) -> str | None:
        """The lake folder the index was built from (None: a list of files or catalog)."""
        return self.index.manifest.get("lake", {}).get("root")

    def methods(self) -> list:
        """Search methods this index supports (name, label, kind, ...)."""
        return [m for m in self.search_methods.values() if m.available(self.index)]

    def missing_methods(self) -> list:
        """(method, how to get it) for the search methods this index was built without:
        "lakejoin index --add C INDEX" for a component that can be added, else a rebuild
        "--with C"."""
        from .indexing.extend import ADDABLE
        out = []
        for m in self.search_methods.values():
            if m.available(self.index):
                continue
            need = [c for c in m.requires if not self.index.has(c)] or list(m.requires)
            out.append((m, "; ".join(
                f"lakejoin index --add {c} {self.index.path}" if c in ADDABLE
                else f"rebuild with --with {c}" for c in need)))
        return out

    def method(self, name: str) -> SearchMethod:
        """A search method by name (QueryError naming the valid ones otherwise)."""
        if name not in self.search_methods:
            raise QueryError(f"Unknown search method {name!r}; this index offers "
                             f"{[m.name for m in self.methods()]} (and 'auto').")
        return self.search_methods[name]

    def query(self, query, column=None, **kw) -> Query:
        self.check_present()
        return make_query(self.index, query, column, **kw)

    def search(self, query, column=None, *, k: int | None = 10, threshold: float | None = None,
               method: str = "auto", exclude_self: bool = True, rank: str = "overlap",
               include_own: bool = True, annotate: bool = True, query_table: str | None = None,
               **options) -> SearchResult:
        """Tables joinable with the query column(s), best first.

        ``k``: number of hits (None: all that qualify); the query's own table and the tables
        already joined take none of the k places while another hit qualifies (listed last,
        only where fewer than k others do; one passed over is named in ``own_left_out``),
        except under "overlap" for a query naming a lake table, where they keep a place among
        the method's k, listed last. ``threshold``: keep hits whose
        containment of the query is at least this (0..1). ``method``: "auto" (the best
        exact method the index supports for the number of query columns) or a name from
        :meth:`methods`. ``rank``: "overlap" (the method's order, as its paper ranks, but
        the query's own table and tables already joined last, as for "useful") or
        "useful" (join/preview.py: the query rows a join reaches, the key's kind and the
        fan-out; the query's own table and tables already joined go last; the method is
        asked for more candidates than ``k`` to rank from). ``include_own=False`` leaves the
        query's own table and the tables already joined out. ``annotate=False``: the bare
        search, without what each join would do. ``query_table``: the lake table a DataFrame
        query is (read with :meth:`table`, or as the command line reads it): its query
        column(s) are left out of the results and its other columns marked, as for a query
        naming the table, while the frame's values are the query (a frame alone is decided
        on its rows). Extra keyword options go to the method.
        """
        _check_search_args(k, threshold)
        if rank not in RANKS:
            raise QueryError(f"rank must be one of {list(RANKS)} (got {rank!r}).")
        if not annotate and (rank == "useful" or not include_own):
            raise QueryError("rank='useful' and include_own=False need the annotations "
                             "(annotate=True).")
        self.check_present()
        q = query if isinstance(query, Query) else make_query(
            self.index, query, column, exclude_self=exclude_self)
        if query_table is not None:
            q = self._as_query_table(q, query, query_table, exclude_self)
        m = self._pick(method, q, threshold)
        options = m.resolve_options(options)
        useful = rank == "useful"
        # the own table and those already joined take no place of k (_k_places), except
        # under "overlap" for a query naming a lake table (it keeps its place, listed last)
        keep_place = not useful and include_own and q.origin is not None
        own_rule = annotate and k is not None and not keep_place
        pool = k if k is None or not (useful or not include_own) else \
            max(POOL_FACTOR * k, k + POOL_EXTRA)
        stale = self._lake_changed() if annotate else None   # not in the search's seconds
        t0 = time.perf_counter()
        cut = own_rule and m.more == "cut" and pool < POOL_MAX   # asked once for the most
        found, stats = self._run(m, q, SearchParams(k=POOL_MAX if cut else pool,
                                                    threshold=threshold, options=options))
        found, unseen = (found[:pool], found[pool:]) if cut else (found, [])
        hits = [self._hit(i + 1, c, q, m) for i, c in enumerate(found)]
        self._case_programs(hits, q)
        if annotate:         # "overlap": the figures of the hits listed only, below
            if useful:
                self._hit_figures(hits, q)
            self._own_marks(hits, q)
        partial = None

        def short() -> str | None:
            """Why the method is asked for more: too few unflagged candidates to rank by
            usefulness, or fewer than k others than the own and joined tables."""
            if useful and _unflagged(hits) < k and not any(
                    "program_json" in h.details or "tau" in h.details for h in hits):
                return "useful"     # equal values only: a transformation's or a distance's
                                    # candidates cost a program or a fuzzy match each
            return "own" if sum(not _mine(h) for h in hits) < k else None

        while own_rule and (len(found) >= pool or unseen) and (why := short()):
            if why == "useful" and pool >= POOL_MAX:     # more candidates exist, unranked
                partial = pool
                break
            # most candidates are flagged (measures, coincidences): a key column below them
            # by overlap may rank first by usefulness; or the own and joined tables took
            # places: the method is asked for more, continuing where it stopped
            # (search/registry.py MORE_CANDIDATES)
            pool = min(pool * POOL_GROWTH, POOL_MAX) if why == "useful" else \
                pool + k - sum(not _mine(h) for h in hits)
            if m.more == "cut":
                more, unseen = unseen[:pool - len(found)], unseen[pool - len(found):]
            elif m.more == "next":
                ahead = dataclasses.replace(q, exclude=set(q.exclude) | {
                    int(c.column_ids[0]) for c in found})
                more, work = self._run(m, ahead, SearchParams(k=pool - len(found),
                                                              threshold=threshold,
                                                              options=options))
                _add_stats(stats, work, m)
            else:
                more, stats = self._run(m, q, SearchParams(k=pool, threshold=threshold,
                                                           options=options))
            known = {tuple(h.column_ids) for h in hits}
            fresh = [c for c in more if tuple(c.column_ids) not in known]
            if not fresh:
                break
            new = [self._hit(len(found) + i + 1, c, q, m) for i, c in enumerate(fresh)]
            found = found + fresh
            self._case_programs(new, q)
            if useful:
                self._hit_figures(new, q)
            hits = hits + new
            self._own_marks(hits, q)
        if cut and "hits" in stats:     # the candidates ranked, not those asked for
            stats["hits"] = len(found)
        left_out = []
        if not include_own:
            left_out = _own_names(hits)
            hits = [h for h in hits if not _mine(h)]
        if useful:
            hits.sort(key=lambda h: (-(h.usefulness or 0.0), -(h.overlap or 0), h.column_ids))
        hits, passed = _k_places(hits, k, keep_place)      # "overlap": the method's order
        listed = {h.table for h in hits}
        passed = _own_names([h for h in passed if h.table not in listed])
        if annotate and not useful:
            self._hit_figures(hits, q)
        for i, h in enumerate(hits):
            h.rank = i + 1
        params = SearchParams(k=k, threshold=threshold, options=options)
        notes = list(self.index.notes) if annotate else []
        if stale:
            notes.insert(0, stale)
        kind, warning = self._query_kind(q) if annotate and hits else (None, None)
        if warning and kind != "category":      # the query's own repeats multiply no row
            notes.append(_query_column_note(q, warning))
        if annotate:
            notes.extend(_pair_note(h, q) for h in hits if "frame_pair" in h.details)
            notes.extend(_query_column_note(q, h.details["query_key_warning"], h)
                         for h in hits if h.details.get("query_key_warning"))
        if annotate and any(_similarity_hit(h) for h in hits):
            notes.append(SIMILARITY_NOTE)
        if annotate and q.cache.get("own_tables_note"):
            notes.append(q.cache["own_tables_note"])
        if annotate:
            notes.extend(self._read_as_missing(hits, q))
        if partial is not None:
            notes.append(f"Ranked by usefulness among the method's top {partial} candidates by "
                         f"overlap, fewer than {k} of them unflagged; k=None ranks them all.")
        res = SearchResult(hits, q, m.name, params, time.perf_counter() - t0, stats,
                           rank=rank, notes=notes, rebuild=self.rebuild_command,
                           transform_search=self._transform_search(m, q) if annotate and
                           not hits else None)
        res.lake_changed = stale
        res.include_own = include_own
        res.own_left_out = left_out if not include_own else passed
        if not hits and q.n_columns > 1 and q.rows:
            res.absent_columns = self._absent_columns(q)
        return res

    def _as_query_table(self, q: Query, query, query_table, exclude_self: bool) -> Query:
        """``q`` (just made: changed in place), the query of a DataFrame that is the lake
        table ``query_table``: that table's query column(s) left out (``exclude_self``), its
        other columns its own table's."""
        if not (isinstance(query, pd.DataFrame) or is_spark_frame(query)):
            raise QueryError(f"query_table names the lake table a DataFrame query was read "
                             f"from; the query is {a_kind(query)} (a lake table named as "
                             f"the query is left out of its own results already).")
        origin = find_table(self.index, query_table).name
        try:
            cids = {self.index.find_column(origin, c) for c in q.columns}
        except KeyError as e:
            raise QueryError(f"query_table={query_table!r}: {e.args[0]}") from None
        q.origin, q.source = origin, f"lake table {origin}"
        q.exclude = cids if exclude_self else set()
        return q

    def _transform_search(self, method: SearchMethod, q: Query) -> bool | str | None:
        """For an empty search of one column by another method: True when this index can
        search for joins after a transformation, else how to add that component."""
        transform = self.search_methods.get("transform")
        if transform is None or method.name == "transform" or q.n_columns != 1:
            return None
        if transform.available(self.index):
            return True
        return dict((m.name, how) for m, how in self.missing_methods()).get("transform")

    def _absent_columns(self, q: Query) -> list:
        """The columns of a multi-column query none of whose values any lake column holds
        (looked up in the index's dictionary): a composite key with one of them matches
        no row, whatever the others match."""
        absent = []
        for j, name in enumerate(q.columns):
            tokens = sorted({r[j] for r in q.rows})
            if not any((gen.lookup(tokens) >= 0).any() for gen in self.index.generations):
                absent.append(name)
        return absent

    def _lake_changed(self) -> str | None:
        """The lake check of the open (``LakeIndex.find_lake_changes``) done again for a
        search on an index opened before a lake file changed: the LakeChangedWarning's text
        (the changes and the rebuild command) when the lake's files differ from the indexed
        ones, else None. The warning is given once per set of changes (the open gave it
        for those it found); the text goes into every stale result's notes."""
        changes = self.index.find_lake_changes()
        said, self.index.lake_changes = self.index.lake_changes, changes
        if not changes:
            return None
        message = self.index.lake_changed_message(changes)
        if changes != said:
            import warnings

            from .errors import LakeChangedWarning
            warnings.warn(message, LakeChangedWarning, stacklevel=3)
        return message

    def _case_programs(self, hits: list, q: Query) -> None:
        """A transformation hit's program as it applies to the cells as written: the search
        learns and compares case-folded values; the casing under which the program turns
        the source's cells into the other side's cells as written is chosen on the query's
        cells and the lake column's most frequent cells (the catalog's samples), or all of
        its cells when none of those joins (discovery.py ``cased_program``); the program is
        shown with its separators as the source's cells write them (``shown_as_written``)."""
        mine = [h for h in hits if "program_json" in h.details and len(h.column_ids) == 1]
        if not mine:
            return
        from .join.autojoin.dsl import Guard, Program, ProgramSet
        name = q.columns[0]
        query_values = (q.frame[name].tolist() if q.frame is not None and name in q.frame.columns
                        else self._query_cells(q))
        for h in mine:
            program = Program.from_json(h.details["program_json"])
            forward = h.details.get("direction") == "query -> lake"
            better = None
            for lake in (self._catalog.samples(h.column_ids[0]), None):
                if lake is None:    # the samples (most frequent cells) did not tell: read all
                    lake = self._lake_cells(h.table_id, h.column)
                better = transform_discovery.cased_program(
                    program, *((query_values, lake) if forward else (lake, query_values)),
                    evidence=1)
                if better is not None:
                    break
            if better is not None and better != program:
                h.details["program_json"] = better.to_json()
                program = better
            plain = plain_program_on(program, query_values if forward else lake)
            if plain is not None:   # a case change the comparison folds: not shown (83)
                h.details["program_json"] = plain.to_json()
                program = plain
            # shown with the separators as the source's cells write them (display only)
            shown = transform_discovery.shown_as_written(program,
                                                         query_values if forward else lake)
            if h.details.get("program_guard"):     # rows folded onto another's key (82)
                shown = ProgramSet(((Guard.from_dict(h.details["program_guard"], "guard"),
                                     shown),))
            h.details["program"] = shown.describe()

    def _query_cells(self, q: Query) -> list:
        """The query column's cells as written: a lake table's read from the table (its
        tokens are case-folded, and a program cased on them would differ from the one a
        DataFrame of the same table gets), else the values the query kept."""
        if q.origin:
            try:
                cid = self.index.find_column(q.origin, q.columns[0])
                return self._lake_cells(int(self.index.columns.iloc[cid]["table_id"]),
                                        q.columns[0])
            except (KeyError, OSError, LakeJoinError):
                pass
        return list(q.display.values())

    def _lake_cells(self, table_id: int, column: str) -> list:
        """A lake column's cells as written, the last few read kept (searches of one session
        meet the same tables again)."""
        kept = self._cells_kept
        key = (int(table_id), str(column))
        if key not in kept:
            if len(kept) >= CELLS_KEPT:
                kept.pop(next(iter(kept)))
            kept[key] = lake_table(find_table(self.index, table_id))[column].tolist()
        return kept[key]

    @cached_property
    def _cells_kept(self) -> dict:
        """(table id, column) -> its cells as written, the last ``CELLS_KEPT`` read."""
        return {}

    # ------------------------------------------------------------------ what a join would do
    @cached_property
    def _catalog(self) -> "_Catalog":
        return _Catalog(self.index)

    @cached_property
    def _column_kinds(self) -> dict:
        """column id (or a tuple of them) -> (key kind, warning): :meth:`column_kind`'s and
        :meth:`tuple_kind`'s answers, each computed once."""
        return {}

    @cached_property
    def _integers_cache(self) -> dict:
        """column id -> its distinct integers or None (:meth:`_lake_integers`)."""
        return {}

    def _hit_figures(self, hits: list, q: Query) -> None:
        """Each hit's join figures (join/preview.py), key kind and usefulness."""
        cat = self._catalog
        for h in hits:
            gen, local = self.index.generation_of(h.column_ids[0])
            stats = gen.joinstats
            if "program_json" in h.details or "tau" in h.details:
                counts = None     # joins through a program or similar values, not equal ones:
                                  # its join size is not estimated
            elif len(h.column_ids) == 1:
                qi, qr = self._query_side(q, gen)
                rep = stats.repeated(local) if stats is not None else \
                    self._repeated_from_mate(gen, local, qi)
                counts = preview.single_counts(qi, qr, q.n_rows, gen.arrays.set_tokens(local),
                                               *rep, mean_count=cat.mean_count(h.column_ids[0]))
            else:
                counts = self._tuple_counts(h, q, gen, stats)
            h.lake_rows = int(cat.table_rows[h.table_id])
            if counts is not None:
                h.row_coverage, h.key_ratio = counts.row_coverage, counts.key_ratio
                h.join_rows, h.join_rows_exact = counts.join_rows, counts.exact and not q.sampled
            elif "matched_tokens" in h.details and ("program_json" in h.details
                                                    or "tau" in h.details):
                # the transformation search, PEXESO: the rows of the values they matched,
                # of all the query's rows (those without a value included, as above)
                h.row_coverage = self._matched_row_coverage(h, q)
                # a program's hit: the lake rows per key it joins, counted by the search, and
                # the left join's rows (its joined rows times their keys' lake rows)
                h.key_ratio = h.details.get("key_ratio")
                h.query_ratio = h.details.get("query_ratio")
                after = h.details.get("joined_rows_after")
                if after is not None and not q.sampled:
                    h.join_rows = int(round(q.n_rows - h.details["joined_rows"] + after))
                    h.join_rows_exact = bool(h.details.get("key_ratio_exact"))
            program_key = "key_kind" in h.details and "program_json" in h.details
            if program_key:     # the transformation search weighed its program's key
                h.key_kind, h.key_warning = h.details["key_kind"], h.details.get("key_warning")
            elif len(h.column_ids) > 1:      # a composite key: its tuples' kind, not a column's
                h.key_kind, h.key_warning = self.tuple_kind(h)
            else:
                h.key_kind, h.key_warning = self.column_kind(h.column_ids[0])
                if h.key_kind == "number" and cat.type[h.column_ids[0]] == "integer":
                    pair = self._frame_pair(h, q)
                    if pair is not None:    # a key per category, as the query frame's pairs say
                        h.details["frame_pair"] = pair
                        h.key_kind, h.key_warning = self.column_kind(h.column_ids[0],
                                                                     paired=True)
            chance = None
            if counts is not None and len(h.column_ids) == 1 and h.overlap \
                    and cat.type[h.column_ids[0]] == "integer":
                lake = self._lake_integers(h.column_ids[0])   # does its density explain
                if lake is not None:                            # the matches?
                    if "integers" not in q.cache:
                        q.cache["integers"] = preview.integers_of(q.tokens)
                    chance = preview.chance_containment(q.cache["integers"], lake)
                if chance and h.key_kind != "row number":
                    h.key_warning = chance if h.key_warning is None else \
                        f"{h.key_warning}; {chance}"
            h.usefulness = preview.usefulness(h.row_coverage, h.key_ratio, h.key_kind,
                                              h.details.get("query_key_kind") if program_key
                                              else self._query_kind(q)[0],
                                              query_ratio=h.query_ratio,
                                              chance=chance is not None)

    def _lake_integers(self, column_id: int):
        """The distinct integers of a lake column (ascending), read once per engine, or None
        past ``CHANCE_TEST_VALUES`` values."""
        cache = self._integers_cache
        if column_id not in cache:
            gen, local = self.index.generation_of(column_id)
            ids = gen.arrays.set_tokens(local)
            if len(cache) >= 4096:
                cache.clear()
            cache[column_id] = preview.integers_of(gen.token_text(ids)) \
                if len(ids) <= CHANCE_TEST_VALUES else None
        return cache[column_id]

    def _own_marks(self, hits: list, q: Query) -> None:
        """Mark the hits of the query's own table and of the tables already joined."""
        several = []
        if q.origin:
            own = [q.origin]
        elif q.frame_columns:    # the rows of a frame: the tables they come from, as union's
            frame = q.whole if q.whole is not None else q.frame      # (Spark: the key's)
            ids = self.own_tables(frame, {h.table_id for h in hits}, q.n_rows, q.frame_columns,
                                  keys=q.columns, several=several)
            own = sorted({h.table for h in hits if h.table_id in ids})
        else:
            own = []
        q.cache["own_tables"] = own
        q.cache["own_tables_note"] = self.own_tables_note(several) if several else None
        for h in hits:             # every column of the own table is the own table
            h.is_query_table = h.table in own
            h.in_chain = not h.is_query_table and h.table in q.chain

    @staticmethod
    def _repeated_from_mate(gen, local: int, query_ids: np.ndarray):
        """Without join statistics: the matched tokens held by more than one row of the
        column and their row counts, counted in MATE's value postings (exact), or
        (None, None) when the generation has no MATE index either."""
        if not gen.has("mate"):
            return None, None
        from .index.mate_arrays import load
        matched = np.intersect1d(query_ids, np.asarray(gen.arrays.set_tokens(local)))
        counts = load(gen).column_counts(local, matched)
        more = counts > 1
        return matched[more], counts[more]

    @staticmethod
    def _matched_row_coverage(h: Hit, q: Query) -> float:
        """Share of the query's rows (null ones included) whose value is one of the hit's
        matched tokens (a partner within its distance, or through its program)."""
        matched = set(h.details.get("matched_tokens", ()))
        rows = q.token_rows if q.token_rows is not None else np.ones(len(q.tokens), np.int64)
        hit_rows = sum(int(n) for t, n in zip(q.tokens, rows) if t in matched)
        return hit_rows / q.n_rows if q.n_rows else 0.0

    def _query_kind(self, q: Query) -> tuple[str | None, str | None]:
        """(key kind, warning) of a one-column query (join/preview.py ``query_kind``), its
        values read as unique when they make a key with a category column of the frame
        (``Query.partners``) or, for a lake column named as the query, of its table
        (:meth:`_key_partners`), as a lake column's are."""
        if q.n_columns > 1:
            return None, None
        if "kind" not in q.cache:
            kind = preview.query_kind(q.tokens, q.token_rows, paired=bool(q.partners))
            if kind[0] == "number" and q.column_id is not None \
                    and self._catalog.type[q.column_id] == "integer" \
                    and self._key_partners(q.column_id):
                kind = preview.query_kind(q.tokens, q.token_rows, paired=True)
            q.cache["kind"] = kind
        return q.cache["kind"]

    def _query_side(self, q: Query, gen) -> tuple[np.ndarray, np.ndarray]:
        """The query's values present in ``gen``: (token ids ascending, query rows of each)."""
        key = ("sorted", gen.name)
        if key not in q.cache:
            ids = q.cache.get(("ids", gen.name))
            if ids is None:
                ids = gen.lookup(q.tokens)
            rows = q.token_rows if q.token_rows is not None else np.ones(len(q.tokens), np.int64)
            q.cache[key] = preview.sorted_query(np.asarray(ids), rows)
        return q.cache[key]

    def _tuple_counts(self, h: Hit, q: Query, gen, stats):
        matched = h.details.get("matched_keys")
        if matched is None or q.row_counts is None:
            return None
        exact = h.details.get("matched_lake_rows")        # MATE counted them while verifying
        if exact is not None and len(exact) == len(matched):
            return preview.tuple_counts(matched, q.row_counts, q.n_rows,
                                        np.asarray(exact, dtype=np.float64)[:, None], exact=True)
        cat = self._catalog
        lake = np.ones((len(matched), len(h.column_ids)), dtype=np.float64)
        for j, cid in enumerate(h.column_ids):
            ids = gen.lookup([k[j] for k in matched])
            lake[:, j] = (stats.counts(cid - gen.column_offset, ids) if stats is not None
                          else np.full(len(matched), cat.mean_count(cid)))
        counts = preview.tuple_counts(matched, q.row_counts, q.n_rows, lake)
        return counts if stats is not None else dataclasses.replace(counts, exact=False)

    def column_kind(self, column_id: int, paired: bool = False) -> tuple[str, str | None]:
        """(key kind, warning or None) of a lake column (join/preview.py ``key_kind``);
        ``paired``: read as a key with a category column (:meth:`_frame_pair`), not cached."""
        kinds = self._column_kinds
        if column_id in kinds and not paired:
            return kinds[column_id]
        cat = self._catalog
        gen, local = self.index.generation_of(column_id)
        stats = gen.joinstats
        args = (cat.type[column_id], cat.n_distinct[column_id], cat.keyed[column_id],
                stats.shape(local) if stats is not None else None)
        samples = () if stats is not None else cat.samples(column_id)
        if paired:
            return preview.key_kind(*args, samples=samples, paired=True, row_numbers=True)
        kind = preview.key_kind(*args, samples=samples, row_numbers=True)
        if kind[0] == "number" and cat.type[column_id] == "integer" \
                and self._key_partners(column_id):
            kind = preview.key_kind(*args, samples=samples, paired=True, row_numbers=True)
        kinds[column_id] = kind
        return kind

    def tuple_kind(self, h: Hit) -> tuple[str, str | None]:
        """(key kind, warning or None) of the composite key of a hit (join/preview.py
        ``tuple_kind``): its lake table's distinct tuples and the rows holding one, counted
        in the MATE row store; without it, estimated from the table's rows and the matched
        tuples' lake rows per tuple (a key with one row per matched tuple names rows)."""
        key = tuple(h.column_ids)
        kinds = self._column_kinds
        if key not in kinds:
            gen, _ = self.index.generation_of(h.column_ids[0])
            if gen.has("mate"):
                from .index.mate_arrays import load
                n, keyed = load(gen).tuple_profile(
                    h.table_id - gen.table_offset, [c - gen.column_offset for c in key])
            else:
                keyed = int(self._catalog.table_rows[h.table_id])
                n = int(keyed / max(h.key_ratio or 1.0, 1.0))
            kinds[key] = preview.tuple_kind(n, keyed)
        return kinds[key]

    def _key_partners(self, column_id: int) -> list:
        """The category columns of a lake column's table that make a key with it: text,
        neither numbers nor nearly unique, with no more distinct values than the column,
        they tell apart the rows of each of its repeated values (a port number's protocol).
        Read from the MATE index's rows; [] without it."""
        cat = self._catalog
        gen, local = self.index.generation_of(column_id)
        if not gen.has("mate"):
            return []
        from .index.mate_arrays import load
        table = int(cat.table_id[column_id])
        others = self._table_categories(column_id)
        if not others:
            return []
        found = load(gen).key_partners(table - gen.table_offset, local,
                                       [c - gen.column_offset for c in others],
                                       KEY_PARTNER_CHANCE)
        return [c + gen.column_offset for c in found]

    @cached_property
    def _categories_of(self) -> dict:
        """column id -> :meth:`_table_categories`' answer, each computed once."""
        return {}

    def _table_categories(self, column_id: int) -> list:
        """The category columns of a lake column's table that may make a key with it: text
        or dates (a panel's period: an id per month), neither numbers nor nearly unique,
        with no more distinct values than the column (:func:`frame_category`'s rule, read
        from the index's profile); cached."""
        if column_id not in self._categories_of:
            self._categories_of[column_id] = self._find_table_categories(column_id)
        return self._categories_of[column_id]

    def _find_table_categories(self, column_id: int) -> list:
        cat = self._catalog

        def category(c: int) -> bool:
            n = int(cat.n_distinct[c])
            if cat.type[c] not in ("string", "date") \
                    or not 0 < n < preview.TYPE_SHARE * cat.keyed[c] \
                    or n > cat.n_distinct[column_id]:
                return False
            g, loc = self.index.generation_of(c)
            shape = g.joinstats.shape(loc) if g.joinstats is not None else None
            return shape is None or shape["n_numeric"] < preview.TYPE_SHARE * n

        table = int(cat.table_id[column_id])
        return [c for c in cat.table_column_ids(table) if c != column_id and category(c)]

    def _frame_categories(self, q: Query) -> list:
        """(name, the token code of each row (-1: none), the distinct tokens) of the category
        columns of a one-column query's pandas frame (:func:`frame_category`), cached on the
        query. Unlike :func:`frame_partners` there is no bound by the query column's values
        (the key whose kind is read is the lake column, and its table's category is bound
        by it) and a list column is left out: the pairing reads one frame value per row."""
        if "frame_categories" not in q.cache:
            whole, found = q.whole, []
            if isinstance(whole, pd.DataFrame) and q.n_columns == 1 and not q.spark \
                    and len(whole) == q.n_rows:
                for c in whole.columns:
                    got = None if c == q.columns[0] else self._frame_category(whole[c])
                    if got is not None and not isinstance(got[0], tuple):
                        found.append((c, got[0], got[1]))
            q.cache["frame_categories"] = found
        return q.cache["frame_categories"]

    @cached_property
    def _frame_category_cache(self) -> dict:
        """A text column's cells (:func:`_text_column_cells`) -> :func:`frame_category`'s
        answer, the oldest dropped first beyond FRAME_CACHE_ROWS rows: a frame searched
        again (another column, method, k or rank) is not normalized again."""
        return {}

    def _frame_category(self, col: pd.Series):
        """:func:`frame_category` of a query frame's column, from the cache when the column
        holds the same cells as one read before (compared whole, not by a hash)."""
        key = _text_column_cells(col)
        cache = self._frame_category_cache
        if key is None or key not in cache:
            got = frame_category(col)
            if key is not None:
                while cache and sum(len(k[1]) for k in cache) + len(key[1]) > FRAME_CACHE_ROWS:
                    del cache[next(iter(cache))]
                cache[key] = got
            return got
        return cache[key]

    def _frame_pair(self, h: Hit, q: Query) -> dict | None:
        """For a one-column hit on integers that repeat: a category column of its lake
        table and one of the query frame whose pairs with the two keys meet, on at least
        half the query rows the key alone reaches and not by chance (at most
        ``KEY_PARTNER_CHANCE``: a Poisson tail around the pairs chance would give, the
        frame's partner values drawn by their shares); of several, the one whose pairs
        meet on the most rows beyond those chance would give. The integers are then a key
        per category, a flight number per carrier (docs/algorithms/hits.md, "Key kind");
        the hit's table is read from MATE's row store, so an index without MATE gets None."""
        cid = h.column_ids[0]
        gen, local = self.index.generation_of(cid)
        if not isinstance(q.whole, pd.DataFrame) or not gen.has("mate"):
            return None
        lake_cats = self._table_categories(cid)
        frame_cats = self._frame_categories(q) if lake_cats else None
        if not frame_cats:
            return None
        from .index.mate_arrays import load, pair_matches
        cache = q.cache.setdefault(("frame_codes", gen.name), {})
        if None not in cache:
            cache[None] = gen.lookup([t if t is not None else "" for t in
                                      normalize_many(q.whole[q.columns[0]].tolist())])
        for name, frame_cells, tokens in frame_cats:
            if name not in cache:    # the index's token of each row (-1: none, or not held)
                ids = np.append(gen.lookup([t if t is not None else "" for t in tokens]), -1)
                cache[name] = ids[frame_cells]
                cache[name, "held"] = np.unique(ids[ids >= 0])
        # the pairs of a lake category and a frame one that share a value (the index's sets)
        for lc in lake_cats:
            for name, _, _ in frame_cats:
                if (lc, name) not in cache:            # several hits of one table
                    cache[lc, name] = np.intersect1d(gen.arrays.set_tokens(lc - gen.column_offset),
                                                     cache[name, "held"], assume_unique=True).size
        tried = [(lc, name) for lc in lake_cats for name, _, _ in frame_cats if cache[lc, name]]
        if not tried:
            return None
        tables = q.cache.setdefault("table_cells", {})     # several hits of one table
        if h.table_id not in tables:
            tables.clear()
            tables[h.table_id] = load(gen)._table_cells(int(h.table_id) - gen.table_offset)
        n_rows, row, col, tok = tables[h.table_id]
        key = np.full(n_rows, -1, dtype=np.int64)
        at = col == local
        key[row[at]] = tok[at]
        near = np.isin(key, cache[None][cache[None] >= 0])[row]    # rows holding a query value
        row, col, tok = row[near], col[near], tok[near]
        held = {name: int((frame_cells >= 0).sum()) for name, frame_cells, _ in frame_cats}
        best = None
        for lc, name in tried:
            at = col == lc - gen.column_offset
            paired, keyed, chance = pair_matches(key, (row[at], tok[at]), cache[None],
                                                 cache[name], held[name])
            if not paired or paired < PAIR_SHARE * keyed or paired <= chance:
                continue
            # Poisson tail: P(X >= paired) <= exp(-chance) (e chance / paired)^paired
            log_tail = -chance + paired * (1.0 + math.log(max(chance, 1e-300) / paired))
            if log_tail <= math.log(KEY_PARTNER_CHANCE) and (best is None
                                                             or paired - chance > best[0]):
                best = (paired - chance, {"lake": str(self._catalog.name[lc]),
                                          "frame": str(name), "rows": paired, "of": q.n_rows})
        return None if best is None else best[1]

    def n_added(self, h: Hit) -> int:
        """How many columns a plain join with the hit adds: every column of its table, its
        key columns included (renamed where the query has the name, join/plan.py)."""
        return int(self._catalog.n_columns[h.table_id])

    def added_columns(self, h: Hit) -> list:
        """:attr:`Hit.added_columns`."""
        cat = self._catalog
        names = cat.table_columns(h.table_id)
        ids = cat.table_column_ids(h.table_id)
        renamed = renamed_columns(h._frame_columns(), names, "_" + h.table.rsplit("/", 1)[-1])
        profile = [str(cat.type[i]) for i in ids]
        joined = self._join_types(h.table_id, profile)
        return [preview.AddedColumn(renamed.get(n, n), t, float(cat.null_share[i]),
                                    p if t == "string" and p not in ("string", "empty")
                                    else None)
                for n, i, t, p in zip(names, ids, joined, profile)]

    def _join_types(self, table_id: int, profile: list) -> list:
        """The types a join gives the table's columns (index/tables.py ``join_types``),
        each table's read once."""
        cache = self._join_type_cache
        if table_id not in cache:
            from .index.tables import join_types
            cache[table_id] = join_types(find_table(self.index, table_id), profile)
        return cache[table_id]

    @cached_property
    def _join_type_cache(self) -> dict:
        """table id -> the types a join gives its columns (:meth:`_join_types`)."""
        return {}

    def aggregate_for(self, hit: Hit, how: str, order_by: str | None = None) -> Aggregate:
        """The :class:`~.join.plan.Aggregate` of ``hit.join(df, aggregate=how)``: "latest" by
        ``order_by`` or the table's finest time column (``_latest_order_column``); "mean" /
        "sum" of its numeric columns that are neither the key nor years; "first", "count"."""
        cat = self._catalog
        cols = [(n, i) for n, i in zip(cat.table_columns(hit.table_id),
                                       cat.table_column_ids(hit.table_id)) if n not in hit.columns]
        if how == "latest":
            if order_by is not None:
                named = [i for n, i in cols if n == order_by]
                if named and cat.n_distinct[named[0]] <= 1:
                    raise QueryError(f"{hit.table}.{order_by} holds one value in every row: it "
                                     f"cannot order the rows of a key; name another column "
                                     f"(order_by=...) or aggregate with 'first'.")
                return self.read_latest(hit, Aggregate("latest", order_by=order_by))
            order_by, why = self._latest_order_column(hit, cols)
            return self.read_latest(hit, Aggregate("latest", order_by=order_by, order_why=why))
        if order_by is not None:
            raise QueryError("order_by goes with aggregate='latest'.")
        if how in ("mean", "sum"):
            numeric = tuple(n for n, i in cols if cat.type[i] in ("integer", "float")
                            and self.column_kind(i)[0] != "year-like")
            return Aggregate(how, columns=numeric)
        return Aggregate(how)

    def _latest_order_column(self, hit: Hit, cols: list) -> tuple[str, str]:
        """The column "latest" orders the rows of ``hit``'s table by, and why: the finest
        time column (dates and timestamps, typed or written as text, before year columns;
        among either, the one with the most distinct values); a column holding one value
        orders nothing and is never chosen. Raises QueryError when no column can order."""
        cat = self._catalog
        times = [(n, i, 0) for n, i in cols if self.column_kind(i)[0] == "date"
                 or (cat.type[i] == "string" and _dates_as_text(cat.samples(i)))]
        times += [(n, i, 1) for n, i in cols if self.column_kind(i)[0] == "year-like"]
        constant = [n for n, i, _ in times if cat.n_distinct[i] <= 1]
        ordering = [t for t in times if cat.n_distinct[t[1]] > 1]
        if not ordering:
            held = (f" ({', '.join(map(repr, constant))} hold(s) one value in every row and "
                    f"cannot order)" if constant else "")
            raise QueryError(f"{hit.table} has no date or year column to take the latest row "
                             f"by{held}; name one (order_by=...) or aggregate with 'first', "
                             f"'mean', 'sum' or 'count'.")
        best = min(ordering, key=lambda t: (t[2], -int(cat.n_distinct[t[1]])))
        others = [n for n, _, _ in times if n != best[0]]
        why = (f"{'a date' if best[2] == 0 else 'a year'} column, "
               f"{int(cat.n_distinct[best[1]]):,} distinct values")
        if others:
            why += f"; the finest of {', '.join(map(repr, [best[0]] + others))}"
        if constant:
            why += f"; {', '.join(map(repr, constant))} hold(s) one value in every row"
        return best[0], why

    def _lake_aggregates(self, lake: LakeTable):
        """``(how, order_by, key columns) -> Aggregate`` for a join with lake table ``lake``
        on those key columns, by :meth:`aggregate_for` (what an Auto-Join's ``aggregate=``
        uses, so that it aggregates as the equi-join hit does)."""
        t = self.index.tables
        ids = t.loc[t["uri"] == lake.uri, "table_id"]
        if ids.empty:
            return None

        def resolve(how, order_by, key_columns):
            ref = types.SimpleNamespace(table_id=int(ids.iloc[0]), table=lake.name,
                                        columns=tuple(key_columns))
            return self.aggregate_for(ref, how, order_by)
        return resolve

    def read_latest(self, hit: Hit, agg: Aggregate) -> Aggregate:
        """``agg`` ("latest") with how its column reads (day-first or month-first dates,
        bare years), decided once over the column's distinct values in the index, so that
        pandas, Spark and the code they write read every value alike; an ``agg`` that says
        it already, or names no column of the table, as it is. Refused when none of the
        column's values reads as a date, a time or a number (the rows of a key would keep
        their table order); values that do not read are said (``unread``)."""
        from .join.keys import date_reading
        if agg.how != "latest" or agg.dayfirst is not None or agg.years is not None:
            return agg
        tokens = self._column_values(hit, agg.order_by)
        if tokens is None:
            return agg
        r = date_reading(tokens, agg.order_by)
        unread = _unordered(tokens, r, f"{hit.table}.{agg.order_by}")
        return dataclasses.replace(agg, dayfirst=r.dayfirst, years=r.years, note=r.note,
                                   unread=agg.unread or unread)

    def _column_values(self, hit: Hit, name: str):
        """The distinct values (index tokens) of column ``name`` of the hit's table, or None."""
        cat = self._catalog
        ids = [i for n, i in zip(cat.table_columns(hit.table_id),
                                 cat.table_column_ids(hit.table_id)) if n == name]
        if not ids:
            return None
        gen, local = self.index.generation_of(ids[0])
        return pd.Series(gen.token_text(np.asarray(gen.arrays.set_tokens(local))), dtype=object)

    def force_reading(self, hit: Hit, agg: Aggregate, dayfirst: bool) -> Aggregate:
        """``agg`` ("latest", its reading decided by :meth:`read_latest`) read day-first or
        month-first as the user asks, with ``unread`` saying how many of the column's distinct
        dates cannot be read so (they get no order, so "latest" is taken from the others).
        Refused when most of its dd/mm/yyyy-like dates cannot: the message says which
        reading does."""
        from .join.keys import dmy_like, unreadable_dates
        way = "day-first" if dayfirst else "month-first"
        said = "" if dayfirst else "its dates read month-first, mm/dd/yyyy, as asked"
        forced = dataclasses.replace(agg, dayfirst=dayfirst, note="", unread=said)
        values = self._column_values(hit, agg.order_by) if agg.order_by else None
        if values is None:
            return forced
        shaped = int(dmy_like(values).sum())
        bad = unreadable_dates(values, dayfirst)
        n = int(bad.sum())
        if not n:
            return forced
        example = str(values[bad].iloc[0]).strip()
        other = "month-first" if dayfirst else "day-first"
        if 2 * n > shaped:
            auto = ("auto (it reads this column " + ("day-first" if agg.dayfirst else "month-first")
                    + ")") if agg.dayfirst != dayfirst else "auto"
            raise QueryError(
                f"{n:,} of the {shaped:,} dates of {hit.table}.{agg.order_by} cannot be read "
                f"{way} (such as {example!r}, which reads {other} only), so 'latest' would "
                f"ignore most of them: read them {other}, or choose dates {auto}.")
        return dataclasses.replace(
            forced, unread=(f"{said}: " if said else "") +
            f"{n:,} of the {shaped:,} dates of {agg.order_by!r} cannot be read {way} (such "
            f"as {example!r}) and are left out of 'latest'")

    def _run(self, m, q: Query, params: SearchParams):
        """Run a method on every generation and merge: candidates get global column ids;
        top-k keeps the k best scores overall (exact, since each generation's top-k is
        exact), threshold searches keep the union. Numeric stats are summed (work done),
        but for the method's ``settings_stats`` (PEXESO's tau), taken once."""
        found, stats = [], {}
        for gen in self.index.generations:
            ids = gen.lookup(q.tokens)
            q.cache[("ids", gen.name)] = ids
            lo, hi = gen.column_offset, gen.column_offset + gen.n_sets
            qp = dataclasses.replace(
                q, token_ids=np.sort(ids[ids >= 0]),
                exclude={c - lo for c in q.exclude if lo <= c < hi})
            out, gen_stats = m.run(gen, qp, params)
            _add_stats(stats, gen_stats, m)
            for c in out:
                found.append(dataclasses.replace(
                    c, column_ids=tuple(int(i) + lo for i in c.column_ids)))
        if len(self.index.generations) > 1:
            found.sort(key=lambda c: (-c.score, c.column_ids))
            if params.k is not None:
                found = found[: params.k]
        return found, stats

    def _pick(self, method: str, q: Query, threshold):
        avail = self.methods()
        multi = q.n_columns > 1
        if method == "auto":
            fit = [m for m in avail if (m.multi_column if multi else m.single_column)
                   and m.kind == "exact"]
            if not fit:
                raise QueryError("No search method of this index takes "
                                 + ("several query columns; rebuild it with the MATE component."
                                    if multi else "a single query column."))
            return max(fit, key=lambda m: m.priority)
        m = self.method(method)
        if m not in avail:
            how = dict((x.name, h) for x, h in self.missing_methods()).get(m.name, "")
            raise QueryError(f"Method {method!r} needs index component(s) {list(m.requires)}, "
                             f"which {self.index.path.name} was built without (`{how}`); "
                             f"or use one of {[x.name for x in avail]}.")
        if multi and not m.multi_column:
            raise QueryError(f"Method {method!r} takes one query column; use a multi-column "
                             f"method ({[x.name for x in avail if x.multi_column]}).")
        if m.needs_threshold and threshold is None:
            raise QueryError(f"Method {method!r} needs a containment threshold, e.g. threshold=0.5 "
                             f"(command line: --threshold 0.5; %lakejoin search: -t 0.5).")
        return m

    def _hit(self, rank: int, c: Candidate, q: Query, m) -> Hit:
        ix = self.index
        cols = ix.columns
        first = int(c.column_ids[0])
        table_id = int(cols["table_id"].iat[first])     # .iat: a row's .iloc costs ~1 ms
        names = tuple(str(cols["name"].iat[int(i)]) for i in c.column_ids)
        overlap = c.overlap
        containment = jaccard = None
        if overlap is not None:
            if q.n_columns == 1:
                gen, local = ix.generation_of(first)
                size = int(gen.arrays.sets_indptr[local + 1] - gen.arrays.sets_indptr[local])
                containment = overlap / q.size
                union = q.size + size - overlap
                # overlap counts query values; after a program or within a distance, several
                # may meet one lake value, so the sets' Jaccard is not defined there
                equal = "program_json" not in c.details and "tau" not in c.details
                jaccard = (overlap / union if union else 0.0) if equal else None
            else:
                containment = overlap / max(len(q.rows or ()), 1)
        return Hit(rank=rank, table=str(ix.tables["name"].iat[table_id]), table_id=table_id,
                   columns=names, column_ids=tuple(int(i) for i in c.column_ids),
                   score=float(c.score), overlap=overlap, containment=containment,
                   jaccard=jaccard, method=m.name, exact=c.exact,
                   query_columns=q.columns, estimated_containment=c.estimated_containment,
                   details=dict(c.details), _engine=self, _query=q,
                   list_columns=tuple(n for n, i in zip(names, c.column_ids)
                                      if self._catalog.is_list[int(i)]))

    def search_unionable(self, df, k: int = 10, *, columns=None, weights: dict | None = None,
                         min_column: float | None = None, sharpness: float | None = None,
                         exclude_self: bool = True, include_own: bool = True,
                         query_table: str | None = None):
        """The lake tables whose rows can be stacked under ``df``, best first (table union
        search, search/union.py): each :class:`~.join.union.UnionHit` has its column
        alignment, per-column scores and row count; ``hit.union(df)`` stacks the new rows and
        ``hit.code(name, into)`` writes the code. ``columns``: the query columns (default
        all); ``weights``: per measure ("set", "semantic", "format", "numeric", "header");
        ``min_column``, ``sharpness``: see search/union.py; needs an index built with the
        ``union`` component. ``df`` may name a lake table (as :meth:`table` takes it): its
        rows are the query and the table is left out of its own results (``left_out``
        names it; a frame read with :meth:`table` is a frame, as below), as it is from
        the results for ``df`` that is the lake table ``query_table`` read otherwise (the
        command line's typed reading). A table the
        query's rows come from otherwise (:meth:`search`'s rule, :meth:`own_tables`: every
        row of the query a row of the table, columns added or renamed allowed) is marked
        ``is_query_table`` ("(your table)") and takes none of the k places while another
        table qualifies (listed last, only where fewer than k others do; passed over, it is
        named in ``own_left_out``), as in :meth:`search`; ``include_own=False`` leaves it
        out."""
        from .join.union import UnionHit, UnionResult
        from .search import union as union_search
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 1:
            raise QueryError(f"k must be a positive integer (got {k!r}).")
        self.check_present()
        # the lake table named as the query (never a frame's attrs: decided on its rows)
        origin = find_table(self.index, query_table).name if query_table is not None else None
        if isinstance(df, (str, Path, LakeTable)):
            df = self.table(df.name if isinstance(df, LakeTable) else str(df))
            origin = df.attrs["lakejoin_table"]
        spark = is_spark_frame(df)
        if spark:
            frame, _, _ = _collect_spark(df, list(df.columns), union_search.MAX_VALUES)
        elif isinstance(df, pd.DataFrame):
            frame = df
        else:
            raise QueryError(f"search_unionable searches with a pandas or Spark DataFrame or "
                             f"the name of a lake table (a string or a Path); got "
                             f"{a_kind(df)}.")
        if columns is not None:
            cols = list(_as_columns(columns))
            _check_columns(frame.columns, cols)
            frame = frame[cols]
        if frame.empty or not len(frame.columns):
            raise QueryError("The query DataFrame is empty: nothing to search with.")
        dup = sorted({str(c) for c in frame.columns if list(frame.columns).count(c) > 1})
        if dup:
            raise QueryError(f"The query DataFrame has duplicate column names {dup}; rename them.")
        exclude = set()
        if origin and exclude_self:
            t = self.index.tables
            exclude = set(t.loc[(t["name"] == origin) | (t["path"] == origin), "table_id"].tolist())
        t0 = time.perf_counter()
        found, stats = union_search.search(
            self.index, frame, k + 1, weights=weights, exclude_tables=exclude,
            min_column=union_search.MIN_COLUMN if min_column is None else min_column,
            sharpness=union_search.SHARPNESS if sharpness is None else sharpness)
        names = self.index.tables["name"].to_numpy()
        n_rows = self.index.tables["n_rows"].to_numpy()
        col_names = self.index.columns["name"].to_numpy()
        qnames = list(frame.columns)
        hits = []
        for rank, c in enumerate(found, 1):
            alignment = tuple((qnames[i], str(col_names[j]), s) for i, j, s in c.pairs)
            ev = {qnames[i]: c.evidence[(i, j)] for i, j, _ in c.pairs}
            shared = {qnames[i]: c.shared[(i, j)] for i, j, _ in c.pairs}
            hits.append(UnionHit(rank=rank, table=str(names[c.table_id]), table_id=c.table_id,
                                 score=c.score, alignment=alignment, rows=int(n_rows[c.table_id]),
                                 evidence=ev, shared=shared,
                                 named=tuple(qnames[i] for i in sorted(c.named)),
                                 by_kind=c.by_kind, _index=self.index, _frame=df))
        notes = []
        if origin and not exclude_self:        # the table named by the query
            paths = self.index.tables["path"].to_numpy()
            own = {h.table_id for h in hits if origin in (h.table, paths[h.table_id])}
        else:
            several = []
            own = self.own_tables(frame, {h.table_id for h in hits}, several=several)
            if several:
                notes.append(self.own_tables_note(several))
        for h in hits:
            h.is_query_table = h.table_id in own
        # the own table (one at most: own_tables, hence k + 1 asked) takes no place of k, as
        # in search(): the k best others, it last where fewer qualify, named when passed
        # over; the table named by the query keeps its place among the k, listed last;
        # include_own=False leaves it out (then the next best one comes in)
        if include_own:
            hits, passed = _k_places(hits, k, keep_place=bool(origin))
            own_left_out = [h.table for h in passed]
        else:
            own_left_out = [h.table for h in hits if h.is_query_table]
            hits = [h for h in hits if not h.is_query_table][:k]
        for i, h in enumerate(hits):
            h.rank = i + 1
        kind = [h.table for h in hits if h.by_kind]
        if kind and len(kind) < len(hits):
            notes.append(f"{', '.join(kind)} {'is' if len(kind) == 1 else 'are'} ranked after "
                         f"the other tables whatever the score: no aligned column shares values "
                         f"beyond chance or its name, so the columns are only of one kind.")
        elif kind:
            notes.append("Every table listed is aligned by its columns' kind alone: no aligned "
                         "column shares values beyond chance or its name; their rows may be "
                         "of another domain.")
        res = UnionResult(hits, qnames, time.perf_counter() - t0, stats, notes=notes)
        res.k, res.include_own, res.frame = int(k), bool(include_own), df
        res.left_out, res.own_left_out = (origin if exclude else None), own_left_out
        res.options = {n: v for n, v in (("weights", weights), ("min_column", min_column),
                                         ("sharpness", sharpness)) if v is not None}
        if not exclude_self:
            res.options["exclude_self"] = False
        return res

    def own_tables(self, frame: pd.DataFrame, table_ids, n_rows: int | None = None,
                   names=None, keys=(), several: list | None = None) -> set:
        """The tables of ``table_ids`` the rows of ``frame`` come from: the query's own table,
        marked "(your table)" by both the join search and the union search, by one rule,
        decided on rows, not on column names. Each frame column is matched to the table's
        column of its name whose set holds every one of its values, or, when the table has
        no column of its name (a renamed column), to another of its columns that holds them;
        a column without such a partner is one the user added (a derived column). A table
        is the frame's own when its matched columns are more than half of the frame's (or
        half: a cut of one column, below, and one column added) and include its key
        columns, every row of the frame (the values of its matched columns
        together) is a row of the table (:meth:`_holds_rows`), no column of a name the table
        has holds other values (except, for the join search, a non-key column of a frame
        with the table's very columns: another reader may type it otherwise, JSON's true as
        1.0), and the frame shows it was taken from the table rather than typed: it has the
        table's very columns, the table's row count, or a matched column besides its keys;
        at least one column must be matched by its name (a frame under other names only is
        the user's, as a one-column frame renamed could be any list of its values), and one
        column of a wider table must moreover be a cut of it (:meth:`_one_column_cut`). Of several, those with the most columns matched by name (a copy of the table under
        other names is not preferred), then the one with the frame's row count; at most one
        table: when several are the frame's alike (copies of one table, a Parquet copy of a
        CSV), none is, and ``several`` (a list) gets them, for the searches' note.

        ``keys``: the frame's key columns (the join search's; the union search has none);
        ``names``: all the frame's column names when ``frame`` holds the values of some only
        (a Spark query's key); ``n_rows``: its row count (default its length). The key
        columns alone (with or without columns the user added) may be the user's own list of
        keys, whose best partner a mark would send to the end of the hits, and joining the
        table adds its other columns: they need the table's row count or very columns."""
        cat = self._catalog
        names = [str(c) for c in (frame.columns if names is None else names)]
        if len(set(names)) < len(names) or not frame.columns.is_unique:
            return set()                     # duplicate names: no column is the table's
        n_rows = len(frame) if n_rows is None else int(n_rows)
        keys = {str(k) for k in keys}
        in_frame = {str(c): c for c in frame.columns}
        found, values, partners = [], {}, {}

        def tokens(name):
            if name not in values:
                try:
                    values[name] = _frame_tokens(frame[in_frame[name]]), {}
                except (TypeError, ValueError):     # cells no lake column holds
                    values[name] = None, {}
            return values[name]

        def floats(name) -> bool:
            return frame[in_frame[name]].dtype.kind == "f"

        def may_hold(name, gen) -> frozenset | None:
            """The columns (local ids) of ``gen`` that may hold every value of frame column
            ``name``: those whose sets hold its rarest token (its posting list), none when a
            token is not in ``gen`` at all; None (no bound) for floats, held within float
            parsing error, and for a column without values. Computed once per column."""
            if (name, gen.name) not in partners:
                mine, ids = tokens(name)
                if mine is None:
                    found = frozenset()
                elif not mine or floats(name):
                    found = None
                else:
                    if gen.name not in ids:
                        ids[gen.name] = gen.lookup(mine)
                    got = ids[gen.name]
                    found = frozenset() if (got < 0).any() else \
                        frozenset(gen.arrays.postings(int(got.min()))[0].tolist())
                partners[name, gen.name] = found
            return partners[name, gen.name]

        def holds(name, cid):
            (mine, ids) = tokens(name)
            if mine is None:
                return False
            gen, local = self.index.generation_of(int(cid))
            bound = may_hold(name, gen)
            if bound is not None and local not in bound:
                return False          # a value of the frame column is not in the lake column
            if floats(name) and mine:     # its middle value first (one held exactly is
                if (name, "middle") not in partners:      # among the column's numbers too)
                    partners[name, "middle"] = pd.to_numeric(pd.Series(
                        [mine[len(mine) // 2]]), errors="coerce").to_numpy(np.float64)
                if not _near(self._column_floats(int(cid)), partners[name, "middle"]):
                    return False
            return self._holds(cid, mine, floats(name), ids)

        def check(t) -> int | None:
            """Table ``t`` is the frame's (the rule above): its columns matched by
            name; None: it is not."""
            columns = dict(zip(cat.table_columns(t), cat.table_column_ids(t)))
            very = set(names) == set(columns)
            matched, renamed, refuted = {}, [], False
            for name in names:                # by name
                if name not in columns:
                    renamed.append(name)
                elif name not in in_frame or holds(name, columns[name]):
                    matched[name] = name
                elif name in keys or not (keys and very):
                    refuted = True            # the table's column, other values
                    break
            free = [c for c in columns if c not in names]
            if refuted or not matched or 2 * (len(matched) + min(
                    len(free), sum(n in in_frame for n in renamed))) < len(names):
                return None     # none by its name, or too few left to rename to make half
            left = sum(name in in_frame for name in renamed)   # renamed columns to try
            for name in renamed:              # a column renamed: another column holding it
                if name not in in_frame:
                    continue
                left -= 1
                for c in free:
                    if c not in matched.values() and holds(name, columns[c]):
                        matched[name] = c
                        break
                if name not in matched and (name in keys
                                            or 2 * (len(matched) + left) < len(names)):
                    break     # a key not held, or too few columns left to make half
            if not keys <= set(matched) or 2 * len(matched) < len(names):
                return None
            cut = False
            if len(matched) == 1 < len(columns):     # (matched by its name, above)
                name = next(iter(matched))
                if name in in_frame:
                    if not self._one_column_cut(tokens(name)[0], columns[name],
                                                tokens(name)[1]):
                        return None
                    cut = True
            if 2 * len(matched) == len(names) and not cut:
                return None                     # half: only a cut and a column the user added
            if keys and set(matched) <= keys and not (very or int(cat.table_rows[t]) == n_rows):
                return None                     # a list of keys, as typed: not taken from it
            pairs = {n: c for n, c in matched.items() if n in in_frame}
            if len(pairs) > 1 and not self._holds_rows(t, frame, pairs):
                return None
            return sum(n == c for n, c in matched.items())
        # each table's outcome depends on that table and the frame only: remembered per
        # frame (its content, names, keys and row count), so a search whose pool grows, or
        # a search again of the same frame, checks only tables not seen yet
        memo = self._own_memo(frame, names, keys, n_rows)
        for t in sorted({int(t) for t in table_ids}):
            outcome = memo[t] if memo is not None and t in memo else check(t)
            if memo is not None:
                memo[t] = outcome
            if outcome is not None:
                found.append((t, outcome))
        most = max((by_name for _, by_name in found), default=0)
        found = [t for t, by_name in found if by_name == most]   # a renamed copy: not preferred
        same = {t for t in found if int(cat.table_rows[t]) == n_rows}
        own = same or set(found)
        if len(own) > 1:
            if several is not None:
                several.extend(sorted(own))
            return set()
        return own

    def _read_as_missing(self, hits: list, q: Query) -> list[str]:
        """The notes of the hits whose lake column holds a text pandas' read_csv reads as
        missing by default ("NA": Namibia's country code), when their query column has
        nulls: a key the user's frame lost on reading, a silent miss. Also in each such
        hit's ``details["read_as_missing"]`` (its card)."""
        if q.frame is None or q.spark or q.origin or not hits:
            return []
        nulls = {c: int(q.frame[c].isna().sum()) for c in q.columns if c in q.frame}
        if not any(nulls.values()):
            return []
        from .lake.normalize import normalize_text
        spelled: dict = {}                   # token -> its text in pandas' list
        for text in READ_AS_MISSING:
            token = normalize_text(text)
            if token is not None:
                spelled.setdefault(token, text)
        tokens = list(spelled)
        found: dict = {}                     # (query column, texts) -> the hits' names
        for h in hits:
            for qc, cid, col in zip(h.query_columns, h.column_ids, h.columns):
                if not nulls.get(qc):
                    continue
                gen, local = self.index.generation_of(int(cid))
                ids = gen.lookup(tokens)
                held = np.isin(ids, np.asarray(gen.arrays.set_tokens(local))) & (ids >= 0)
                texts = tuple(spelled[t] for t, x in zip(tokens, held) if x)
                if texts:
                    h.details["read_as_missing"] = _read_as_missing_note(qc, nulls[qc], texts,
                                                                         "this column")
                    found.setdefault((qc, texts), []).append(f"#{h.rank} {h.table}.{col}")
        return [_read_as_missing_note(qc, nulls[qc], texts, ", ".join(names), len(names) > 1)
                + "."
                for (qc, texts), names in found.items()]

    OWN_MEMO_FRAMES = 8      # frames whose own-table checks an engine remembers

    @cached_property
    def _own_checks(self) -> dict:
        """frame key -> {table id: columns matched by name, or None} (:meth:`own_tables`)."""
        return {}

    def forget_own_checks(self) -> None:
        """Forget the own-table checks remembered (:meth:`own_tables`): the next search of
        a frame checks its tables again (a benchmark's first search)."""
        self._own_checks.clear()

    def _own_memo(self, frame: pd.DataFrame, names, keys, n_rows: int) -> dict | None:
        """The remembered own-table checks of ``frame`` (a dict to fill), found by its
        content (a hash of every cell, in order), its columns' names and types, the key
        columns and the row count: a frame changed in place is checked again. None when
        its cells cannot be hashed (lists, mixed objects): checked every time."""
        try:
            cells = pd.util.hash_pandas_object(frame, index=False).to_numpy()
        except (TypeError, ValueError):
            return None
        key = (tuple(names), tuple(sorted(keys)), int(n_rows),
               tuple((str(c), str(d)) for c, d in frame.dtypes.items()),
               len(cells), hashlib.blake2b(cells.tobytes(), digest_size=16).digest())
        memo = self._own_checks
        if key not in memo and len(memo) >= self.OWN_MEMO_FRAMES:
            memo.pop(next(iter(memo)))           # the oldest frame
        return memo.setdefault(key, {})

    def _holds_rows(self, table_id: int, frame: pd.DataFrame, pairs: dict) -> bool:
        """Whether every row of ``frame``, the values of its columns ``pairs`` (frame column
        name: the lake table's column) together, is a row of the lake table (read from the
        lake; :func:`rows_held`). A table that cannot be read is taken on its columns alone."""
        try:
            lake = index_table(self.index, int(table_id))
        except Exception:                    # noqa: BLE001 - moved or unreadable: columns decide
            return True
        return rows_held(lake, frame, pairs)

    def own_tables_note(self, table_ids) -> str:
        """The searches' note when several tables are the frame's own alike (none marked)."""
        names = self.index.tables["name"].to_numpy()
        listed = ", ".join(str(names[int(t)]) for t in table_ids)
        return (f"the frame's rows are in each of {listed} (copies of one table?): none is "
                f"marked (your table) nor listed last")

    def _holds(self, column_id: int, tokens: list, floats: bool = False,
               ids: dict | None = None) -> bool:
        """Whether a lake column's set holds every one of ``tokens`` (normalized); of a float
        column (``floats``), a value within float parsing error of one of the column's
        counts (pandas' read_csv may read "10003670690.349657" as ...349655). ``ids``: the
        tokens' ids per generation, filled on first use."""
        gen, local = self.index.generation_of(int(column_id))
        held = np.asarray(gen.arrays.set_tokens(local))
        if len(held) < len(tokens):
            return False
        ids = {} if ids is None else ids
        if gen.name not in ids:
            ids[gen.name] = gen.lookup(tokens)
        found = (ids[gen.name] >= 0) & np.isin(ids[gen.name], held)
        if found.all() or not floats:
            return bool(found.all())
        x = pd.to_numeric(pd.Series([t for t, f in zip(tokens, found) if not f]),
                          errors="coerce").to_numpy(dtype=np.float64)
        return _near(self._column_floats(column_id), x)

    @cached_property
    def _floats_cache(self) -> dict:
        """column id -> its values read as numbers, sorted (:meth:`_column_floats`)."""
        return {}

    def _column_floats(self, column_id: int) -> np.ndarray:
        """The numbers among a lake column's distinct values, sorted; cached."""
        cache = self._floats_cache
        if column_id not in cache:
            gen, local = self.index.generation_of(int(column_id))
            if len(cache) >= 4096:
                cache.clear()
            cache[column_id] = np.sort(pd.to_numeric(
                pd.Series(gen.token_text(gen.arrays.set_tokens(local))), errors="coerce")
                .dropna().to_numpy(dtype=np.float64))
        return cache[column_id]

    def _set_size(self, column_id: int) -> int:
        gen, local = self.index.generation_of(int(column_id))
        return len(gen.arrays.set_tokens(local))

    def _one_column_cut(self, mine: list, column_id: int, ids: dict | None = None) -> bool:
        """Whether a one-column frame whose values (``mine``) are all in a column of a wider
        lake table was cut from it: it holds at least CUT_SHARE of that column's values (a
        few values typed by hand are not a cut), and no column of that name in another
        table holds all of them (the frame could come from either)."""
        cat = self._catalog
        if len(mine) < CUT_SHARE * self._set_size(column_id):
            return False
        table = int(cat.table_id[column_id])
        return not any(int(cat.table_id[i]) != table and self._holds(i, mine, ids=ids)
                       for i in np.flatnonzero(cat.name == cat.name[column_id]))

    def autojoin(self, df, column=None, other=None, other_column=None, **options):
        """Learn the transformation that makes ``df`` and ``other`` equi-join (Auto-Join,
        thesis chapter 4) and return a :class:`~.join.autojoin.AutoJoin`: ``.explain()``,
        ``.join()``, ``.code()``. ``other`` is a DataFrame or the name of a lake table;
        ``column`` / ``other_column`` (optional) restrict the match to those columns. Options
        go to :func:`~.join.autojoin.autojoin` (``fuzzy=False``, ``seed=1``, ...). Its join
        with a lake table is a left join unless told (``join(df, how="inner")``), as a hit's
        equi-join; between two DataFrames, inner.

        A lake table much larger than ``df`` (:data:`LARGE_PARTNER`), on one column each, in
        an index with the "transform" component: when the transformation search finds that
        column, Auto-Join learns on the rows its program joins (:meth:`Hit.autojoin`). A
        Spark ``df`` is learned on its first rows, as :meth:`Hit.autojoin` learns; its join and
        code are PySpark's."""
        if other is None:
            raise QueryError("autojoin needs the other table: a DataFrame or a lake table name.")
        from .join.autojoin import autojoin_query
        df, spark = autojoin_query(df, other)      # a Spark query: learned on its first rows
        out = self._autojoin(df, column, other, other_column, **options)
        out.spark_query = spark
        return out

    def _autojoin(self, df, column, other, other_column, **options):
        """:meth:`autojoin` with a pandas ``df``."""
        from .join.autojoin import autojoin
        lake = None
        if isinstance(other, (str, LakeTable)):
            self.check_present()
            lake = other if isinstance(other, LakeTable) else find_table(self.index, other)
            options.setdefault("right_name", lake.name)
            hit = self._transform_hit(df, column, lake, other_column)
            if hit is not None:
                return hit.autojoin(df, **options)
            if other_column is None and len(lake.lists) > 1:
                return self._autojoin_each_list(df, column, lake, **options)
            # list columns: by element; a file changed since the build: the join says it
            other, explode = element_table(lake, other_column, warn_changed=False)
        options.setdefault("left_name", "df")
        result = autojoin(df, other, column, other_column, **options)
        if lake is not None:
            result.lake, result.explode = lake, explode
            result.aggregates = self._lake_aggregates(lake)
            result.how = "left"     # a lake table: the query's rows kept, as an equi-join's
        return result

    def _autojoin_each_list(self, df, column, lake: LakeTable, **options):
        """Auto-Join with a lake table of several list columns, none named: learned once per
        list column, the table exploded on that one alone (exploding all of them would learn
        on the product of their elements, where no list column is a key), and the result
        joining the most of ``df``'s rows by equality kept (then the most keys; the first
        list column in ties)."""
        from .join.autojoin import autojoin
        options.setdefault("left_name", "df")
        read = (lake_table(lake, warn_changed=False),     # a changed file: the join says it
                lake_table(lake, types=True, warn_changed=False))
        best, reach = None, None
        for c in lake.lists:
            if c not in read[0].columns:
                continue
            other, explode = element_table(lake, [c], read)
            result = autojoin(df, other, column, None, **options)
            result.lake, result.explode = lake, explode
            result.how = "left"
            got = ((len({i for i, _ in result.pairs(False)}), result.coverage)
                   if result.found else (-1, -1))
            if reach is None or got > reach:
                best, reach = result, got
        if best is None:            # the file no longer holds them: as element_table reads it
            other, explode = element_table(lake, warn_changed=False)
            best = autojoin(df, other, column, None, **options)
            best.lake, best.explode, best.how = lake, explode, "left"
            return best
        best.stats["list_columns"] = ("learned once per list column, the table exploded on it "
                                      "alone; kept: " + (", ".join(best.explode) or "none"))
        return best

    def _transform_hit(self, df, column, lake, other_column):
        """The "transform" search's hit on ``lake``'s column for ``df``'s column, when the
        table is large next to ``df`` and the index has the component; else None."""
        one = [column] if isinstance(column, str) else list(column or [])
        other = [other_column] if isinstance(other_column, str) else list(other_column or [])
        t = self.index.tables
        same = t[t["uri"] == lake.uri]
        rows = int(same["n_rows"].fillna(0).iloc[0]) if len(same) else 0
        table_ids = set(same["table_id"].astype(int))
        if (len(one) != 1 or len(other) != 1 or not isinstance(df, pd.DataFrame)
                or one[0] not in df.columns or not _large_partner(rows, len(df))
                or "transform" not in {m.name for m in self.methods()}):
            return None
        res = self.search(df[[one[0]]], one[0], method="transform", k=None)
        return next((h for h in res if h.table_id in table_ids and h.column == other[0]), None)

    def fuzzy_join(self, left, right, on, precision_target: float = 0.9, **kw):
        """Fuzzy-join ``right`` to the reference table ``left`` on ``on=(left col, right
        col)``, choosing the join function and threshold for the precision target
        (join/fuzzy.py). ``left``/``right``: DataFrames or lake table names."""
        from .join.fuzzy import fuzzy_join
        if isinstance(left, pd.DataFrame) and isinstance(right, str) and \
                right in left.columns and not isinstance(on, (tuple, list)):
            raise QueryError(
                f"fuzzy_join takes (reference table, table to match, on=(reference column, "
                f"column)), not autojoin's (df, column, table, column): {right!r} is a "
                f"column of the DataFrame passed first. For a lake table as the reference: "
                f"engine.fuzzy_join({on!r}, df, on=('<its column>', {right!r})).")
        lake = None
        if isinstance(left, str):
            self.check_present()
            lake = find_table(self.index, left)
            lcol = on if isinstance(on, str) else on[0] if isinstance(on, (tuple, list)) \
                and len(on) == 2 else None
            left = element_table(lake, [lcol])[0]      # a list column: by element
        right = self.table(right) if isinstance(right, str) else right
        result = fuzzy_join(left, right, on=on, precision_target=precision_target, **kw)
        result.lake = lake
        return result

    def table(self, name, max_rows: int | None = None, types: bool = False) -> pd.DataFrame:
        """A lake table as a pandas DataFrame: all values as text, the way the index read them;
        with ``types=True`` a Parquet table keeps its column types (nullable Int64 and
        boolean, floats, Decimal, date, timestamps), as joins return it ("arrow": as an
        Arrow table; "pandas": as pandas reads its file, ``pd.read_csv``, ``pd.read_parquet``
        or ``pd.read_json(lines=True)``). ``name``: its name, path, file or table id
        (``hit.table_id``)."""
        self.check_present()
        return index_table(self.index, name, max_rows, types=types)

    def rebuild_command(self, with_component: str | None = None, unset: tuple = ()) -> str:
        """The command(s) that rebuild this index as it was built (its lake, options and
        added folders), with component ``with_component`` too when given, and the options
        ``unset`` (COMPONENT.OPTION names) back at their defaults."""
        from .index.store import rebuild_command
        return rebuild_command(self.index.path, self.index.manifest, with_component, unset)

    def check_present(self) -> None:
        """Raise when the index was deleted, partly deleted or replaced on disk while open
        (its memory-mapped arrays would otherwise keep answering from a vanished index)."""
        self.index.check_present()

    def best_predicate(self, df, other, preference: str = "h5", seed_pair=None, *,
                       time_limit: float | None = 60.0, left_name: str = "df", **options):
        """The join predicate (set of column pairs) between ``df`` and ``other`` that best fits
        a result-set preference (join/schemaless.py): "h1" most rows matched, "h2" most
        distinct keys, "h3" smallest outer join, "h4" most even keys, "h5" (default) balance of
        coverage and strength. ``other`` is a DataFrame (pandas or Spark) or the name of a
        lake table. ``seed_pair`` (left column, right column), e.g. the pair a search hit
        found, restricts the search to predicates containing it. The search stops after
        ``time_limit`` seconds with the best predicate so far (None: no limit); other options
        (max_pairs, max_rows, rescore, ...) go to :func:`schemaless.best_predicate`.
        """
        from .join import schemaless
        lake = None
        right_name = options.pop("right_name", "right")
        if isinstance(other, (str, Path)):
            self.check_present()
            lake = find_table(self.index, str(other))
            right_name = lake.short_name
            other = lake_table(lake)
        result = schemaless.best_predicate(df, other, preference, seed_pair=seed_pair,
                                           time_limit=time_limit, left_name=left_name,
                                           right_name=right_name, **options)
        result.lake = lake
        return result

    def info(self) -> dict:
        """What the index holds; raises IndexNotFoundError if it was deleted or moved while
        open, IndexCorruptError if files of it were deleted or another build replaced it
        (rather than describing an index that is gone)."""
        self.check_present()
        m = self.index.manifest
        advice = self.advice()              # the lake's changes looked at again
        return {"path": str(self.index.path), "created": m.get("created"),
                "counts": m.get("counts"), "components": sorted(m.get("components", {})),
                "generations": [g["name"] for g in m.get("generations", [])],
                "methods": [x.name for x in self.methods()], "skipped": m.get("skipped", []),
                "left_out": m.get("left_out", []),
                "lake": self.lake_root, "lake_changes": self.index.lake_changes,
                "advice": advice}

    def advice(self) -> list[str]:
        """Advice about the index itself: the rebuild (its :meth:`rebuild_command`) when the
        lake changed since the build (files added, changed or removed: looked at now, and
        kept as ``index.lake_changes``; a look stats each lake file once and hashes or lists
        only what moved since the last, ``LakeIndex.find_lake_changes``), or when added
        generations have drifted enough from the base that a rebuild pays off
        (search/lshensemble.py ``rebuild_advice``)."""
        out = []
        changes = self.index.find_lake_changes()
        self.index.lake_changes = changes
        if changes:
            out.append(self.index.lake_changed_message(changes))
        if len(self.index.generations) > 1 and self.index.has("lshensemble"):
            from .search.lshensemble import rebuild_advice
            text = rebuild_advice(self.index)
            if text:
                out.append(text)
        return out

    def __repr__(self):
        return f"<lakejoin Engine over {self.index!r}>"


def open_index(path, verify: bool = True, check_lake: bool = True) -> Engine:
    """Open an index folder (checks version, checksums and the lake) and return its Engine."""
    return Engine.open(path, verify=verify, check_lake=check_lake)


def check_rebuild(lake, out) -> None:
    """Raise IndexOfAnotherLakeError when ``out`` holds the index of a lake other than
    ``lake`` (what ``build_index(lake, out, rebuild=True)`` refuses), without Spark."""
    from .index.store import check_same_lake, is_index, resolve_destination
    if is_index(resolve_destination(out)):
        check_same_lake(out, lake)


def build_index(lake, out, *, master: str | None = None, overwrite: bool = False,
                num_perm: int = 256, components: Sequence[str] = (), progress: bool = True,
                spark=None, catalog_tables=None, progress_callback=None,
                rebuild: bool = False, **settings) -> Engine:
    """Build the index of ``lake`` (folder, file list, or ``catalog_tables`` of the Spark
    catalog with ``lake=None``) at ``out`` with Spark, then open it.

    An index already at ``out`` is replaced with ``overwrite=True`` (whatever lake it
    records), or with ``rebuild=True`` only when it is the index of ``lake`` (else
    IndexOfAnotherLakeError, before Spark starts; :func:`check_rebuild` asks the same first).

    The build report (indexed and skipped files and why) is ``engine.build_report``.
    ``progress_callback(phase, done_tasks, total_tasks)`` receives the build's progress
    (``done_tasks`` is None when a new phase starts; raising there stops the build).
    """
    from .indexing.pipeline import build
    from .config import BuildSettings
    bs = BuildSettings(num_perm=num_perm, components=tuple(components), **settings)
    report = build(lake, out, master=master, overwrite=overwrite, settings=bs, spark=spark,
                   progress=progress, catalog_tables=catalog_tables,
                   progress_callback=progress_callback, rebuild=rebuild)
    engine = open_index(out, check_lake=False)
    engine.build_report = report
    return engine
