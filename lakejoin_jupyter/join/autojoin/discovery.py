"""The "Needs a transformation" search: lake columns the query joins only after a learned
transformation (thesis ch. 5's searchable transformation joins, with Auto-Join, ch. 4).

1. retrieve (search/transform.py): a fixed-seed sample of the query's values is paired
   with every indexed column by shared pattern keys and segment q-grams, scored as
   Auto-Join scores row pairs; pairs where the column holds the query value itself are
   left out (equality search finds those), so columns that join as they are rank low;
2. verify the best ``candidates`` columns in that order: the sampled values with the best
   pairs and their partners in the column (from the key postings, or the column's values
   holding the shared gram) go to Auto-Join (both directions, no fuzzy step); columns
   where no program is found are dropped;
3. rank by joined coverage: the program is applied to every query value (query -> lake)
   or every value of the column (lake -> query) and the share of query rows whose key
   then equals a value of the other side is the score; a program that leaves every joined
   value unchanged (an equi-join) is dropped unless ``include_equal``.

The index is never scanned per query: retrieval reads the postings of the sample's keys
and grams, verification reads only the candidates. Verification stops early once k hits
cover at least the next candidate's share of paired values. Each hit's ``details`` hold
the program (``program`` its description, ``program_json``), its direction and coverage.
"""
from __future__ import annotations

import time
import unicodedata

import numpy as np
import pandas as pd

from ...errors import LakeJoinError
from ...lake.normalize import normalize_many, normalize_text
from ...search.registry import Candidate, ParamSpec, SearchMethod
from ...search.segments import utf8_arrays, segments, constant_hashes, segment_grams
from ...search.transform import column_scores, evidence
from .dsl import Program, evaluate_columns
from .pipeline import autojoin

LEARN_OPTIONS = dict(fuzzy=False, composite=False, sample="never", max_sets=24,
                     sets_per_group=12, patience=4)


def learn_text(value) -> str | None:
    """A query cell as the learner sees it: Unicode NFKC, case folded, whitespace runs
    collapsed (like the lake's tokens, but numbers keep their digits: "06" stays "06")."""
    from .dsl import cell_text
    text = cell_text(value)
    if text is None:
        return None
    s = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return s or None


class _Lake:
    """What verification reads of one index generation: a column's tokens, membership."""

    def __init__(self, index):
        self.index = index
        self._tokens: dict = {}

    def tokens(self, column: int) -> list:
        got = self._tokens.get(column)
        if got is None:
            got = self._tokens[column] = self.index.token_text(
                self.index.arrays.set_tokens(column))
        return got

    def holds(self, column: int, tokens: list) -> np.ndarray:
        ids = self.index.lookup(tokens)
        mine = np.asarray(self.index.arrays.set_tokens(column))
        return (ids >= 0) & np.isin(ids, mine)

    def equal_pairs(self, tokens: list) -> tuple[np.ndarray, np.ndarray]:
        """(query value index, column) of every column holding a query value itself."""
        ids = self.index.lookup(tokens)
        a = self.index.arrays
        found = np.flatnonzero(ids >= 0)
        lo, hi = a.post_indptr[ids[found]], a.post_indptr[ids[found] + 1]
        lens = (hi - lo).astype(np.int64)
        first = np.repeat(np.cumsum(lens) - lens, lens)
        ent = np.repeat(lo, lens) + (np.arange(int(lens.sum())) - first)
        return np.repeat(found, lens), np.asarray(a.post_sets[ent], dtype=np.int64)


def _query_side(query):
    """Distinct query tokens, the text the learner gets for each, and the weight (rows) of
    each: rows of the query frame when there is one, else 1 per distinct value."""
    tokens = list(query.tokens)
    texts = [learn_text(query.display.get(t, t)) or t for t in tokens]
    weights = np.ones(len(tokens))
    frame = query.frame
    if frame is not None and query.columns[0] in frame.columns:
        pos = {t: i for i, t in enumerate(tokens)}
        idx = [pos.get(t, -1) for t in normalize_many(frame[query.columns[0]].tolist())]
        idx = np.array([i for i in idx if i >= 0], dtype=np.int64)
        weights = np.bincount(idx, minlength=len(tokens)).astype(float)
    return tokens, texts, weights


def _partners(lake: _Lake, ti, ev, column: int, chosen: np.ndarray) -> dict:
    """For each chosen sampled value: up to two values of the column paired with it (key
    partners first, then the values holding its rarest shared gram)."""
    out: dict = {}
    key = ev.token >= 0
    for qi, tok in zip(ev.qi[key], ev.token[key]):
        if qi in chosen:
            out.setdefault(int(qi), []).append(int(tok))
    texts = {}
    ids = sorted({t for toks in out.values() for t in toks})
    if ids:
        texts = dict(zip(ids, lake.index.token_text(np.array(ids))))
    result = {qi: [texts[t] for t in toks[:2]] for qi, toks in out.items()}
    need = [int(q) for q in chosen if int(q) not in result]
    if not need:
        return result
    gram = (ev.token < 0) & np.isin(ev.qi, need)
    if not gram.any():
        return result
    values = lake.tokens(column)
    keep = [i for i, v in enumerate(values) if len(v.encode("utf-8")) <= ti.spec.max_value_bytes]
    seg = segments(*utf8_arrays([values[i] for i in keep]))
    vi, codes = segment_grams(seg, ti.spec.q, constant_hashes(seg))
    order = np.argsort(codes, kind="stable")
    codes, vi = codes[order], vi[order]
    g_order = np.lexsort((-ev.score[gram], ev.qi[gram]))
    for qi, code in zip(ev.qi[gram][g_order], ev.code[gram][g_order]):
        qi = int(qi)
        if qi in result:
            continue
        lo, hi = np.searchsorted(codes, code), np.searchsorted(codes, code, side="right")
        if hi > lo:
            result[qi] = [values[keep[int(v)]] for v in vi[lo:hi][:2]]
    return result


def _coverage(program: Program, source_is_query: bool, lake: _Lake, column: int,
              tokens: list, texts: list):
    """(joined query value indexes, identity): which query values join after the program,
    and whether it left every joined value as it was."""
    if len(program.columns) != 1:
        return np.zeros(0, np.int64), False
    name = program.columns[0]
    if source_is_query:
        out = evaluate_columns(program.expr, {name: texts}, len(texts))
        keys = [normalize_text(o) if o else None for o in out]
        present = [k for k in keys if k is not None]
        held = dict(zip(present, lake.holds(column, present))) if present else {}
        joined = np.array([i for i, k in enumerate(keys) if k is not None and held.get(k)],
                          dtype=np.int64)
        identity = all(keys[i] == tokens[i] for i in joined)
    else:
        values = lake.tokens(column)
        out = evaluate_columns(program.expr, {name: values}, len(values))
        produced = {}
        for v, o in zip(values, out):
            k = normalize_text(o) if o else None
            if k is not None:
                produced.setdefault(k, set()).add(v)
        joined = np.array([i for i, t in enumerate(tokens) if t in produced], dtype=np.int64)
        identity = all(produced[tokens[i]] == {tokens[i]} for i in joined)
    return joined, identity


def search(index, query, k: int = 10, threshold: float | None = None, *, sample: int = 256,
           candidates: int = 20, learn_values: int = 40, max_postings: int = 2000,
           include_equal: bool = False, seed: int = 0):
    """The hits (module docstring) as engine Candidates, and the search's statistics."""
    from ...index.transform_arrays import load
    t0 = time.perf_counter()
    ti = load(index)
    lake = _Lake(index)
    tokens, texts, weights = _query_side(query)
    rng = np.random.default_rng(seed)
    pick = np.sort(rng.choice(len(tokens), size=sample, replace=False)) \
        if len(tokens) > sample else np.arange(len(tokens))
    sample_tokens = [tokens[i] for i in pick]
    ev = evidence(ti, sample_tokens, max_postings)
    if not include_equal and len(ev.qi):
        eq_q, eq_c = lake.equal_pairs(sample_tokens)
        n_cols = max(int(index.n_sets), 1)
        equal = np.isin(ev.qi * n_cols + ev.column, eq_q * n_cols + eq_c)
        ev = type(ev)(ev.qi[~equal], ev.column[~equal], ev.score[~equal], ev.token[~equal],
                      ev.code[~equal], ev.n_values)
    cols, scores = column_scores(ev, exclude=query.exclude)
    t_retrieve = time.perf_counter() - t0
    names = index.columns["name"].astype(str).tolist()
    qname = str(query.columns[0])
    total = float(weights.sum()) or 1.0
    hits, stats = [], {"sampled_values": len(pick), "paired_columns": int(len(cols)),
                       "candidates": [int(c) for c in cols[:candidates]],
                       "verified": 0, "programs": 0}
    cache: list = []                    # (program, source is query) learned so far
    for X, score in zip(cols[:candidates], scores[:candidates]):
        X = int(X)
        ex = ev.of_column(X)
        share = len(np.unique(ex.qi)) / max(len(pick), 1)
        if len(hits) >= k and sorted(h[0] for h in hits)[-k] >= share:
            break
        stats["verified"] += 1
        best = pd.Series(ex.score).groupby(ex.qi).max().sort_values(ascending=False,
                                                                    kind="stable")
        chosen = best.index.to_numpy()[:learn_values]
        partners = _partners(lake, ti, ex, X, chosen)
        left = [texts[pick[q]] for q in chosen if q in partners]
        right = sorted({p for q in chosen for p in partners.get(int(q), [])})
        if len(left) < 3 or len(right) < 3:
            continue
        found = None
        taught = pick[[q for q in chosen if q in partners]]
        for program, forward in cache[-3:]:  # a program found for an earlier candidate
            joined, identity = _coverage(program, forward, lake, X, tokens, texts)
            if np.isin(taught, joined).mean() >= 0.8:
                found = (program, forward, joined, identity)
                break
        if found is None:
            try:
                aj = autojoin(pd.DataFrame({qname: left}), pd.DataFrame({names[X]: right}),
                              qname, names[X], left_name="query", right_name=names[X],
                              **LEARN_OPTIONS)
            except LakeJoinError:
                continue
            if not aj.found:
                continue
            stats["programs"] += 1
            forward = aj.source == "left"
            joined, identity = _coverage(aj.program, forward, lake, X, tokens, texts)
            cache.append((aj.program, forward))
            found = (aj.program, forward, joined, identity)
        program, forward, joined, identity = found
        if not len(joined) or (identity and not include_equal):
            continue
        coverage = float(weights[joined].sum()) / total
        if threshold is not None and coverage < threshold:
            continue
        hits.append((coverage, score, X, program, forward, joined))
    hits.sort(key=lambda h: (-h[0], -h[1], h[2]))
    out = [_candidate(h, index, query, tokens, weights, names) for h in hits[:k]]
    stats.update(retrieve_seconds=round(t_retrieve, 4),
                 seconds=round(time.perf_counter() - t0, 4))
    return out, stats


def _candidate(hit, index, query, tokens, weights, names) -> Candidate:
    coverage, score, X, program, forward, joined = hit
    from ...index.transform_arrays import load
    cols = load(index).columns
    row = cols[cols["column_id"] == X]
    pattern = str(row["pattern"].iloc[0]) if len(row) else ""
    direction = "query -> lake" if forward else "lake -> query"
    return Candidate(
        column_ids=(X,), score=coverage, overlap=int(len(joined)), exact=True,
        details={"program": program.describe(), "program_json": program.to_json(),
                 "direction": direction, "coverage": coverage,
                 "joined_rows": int(weights[joined].sum()), "query_rows": int(weights.sum()),
                 "retrieval_score": float(score), "lake_pattern": pattern,
                 "matched_tokens": sorted(tokens[i] for i in joined)})


def _run(index, query, params):
    o = params.options
    return search(index, query, params.k or 10, params.threshold, sample=o["sample"],
                  candidates=o["candidates"], learn_values=o["learn_values"],
                  max_postings=o["max_postings"], include_equal=o["include_equal"],
                  seed=o["seed"])


METHOD = SearchMethod(
    name="transform", label="Needs a transformation", kind="exact", run=_run,
    requires=("transform",), priority=-10, score_name="joined coverage",
    description="Lake columns the query joins only after a transformation (names vs "
                "emails, reformatted dates, prefixed codes): candidates share rare pattern "
                "keys or q-grams with the query; each is verified by learning an Auto-Join "
                "program, and ranked by the share of query rows it joins.",
    params=(ParamSpec("sample", "Query values sampled", "int", 256, 16, 100_000, 16,
                      help="Query values (fixed seed) paired with the lake's columns."),
            ParamSpec("candidates", "Columns verified at most", "int", 20, 1, 1000, 1,
                      help="Best-paired columns a program is learned for."),
            ParamSpec("learn_values", "Values per verification", "int", 40, 4, 1000, 1,
                      help="Sampled query values (with their partners) given to the learner."),
            ParamSpec("max_postings", "Longest posting list read", "int", 2000, 1, 10**9, 100,
                      help="Keys and grams held more often are not rare: skipped."),
            ParamSpec("include_equal", "Include equi-joins", "bool", False,
                      help="Also pair equal values and keep columns joining as they are."),
            ParamSpec("seed", "Random seed", "int", 0, 0, 10**6, 1,
                      help="Seed of the query sample.")),
)
