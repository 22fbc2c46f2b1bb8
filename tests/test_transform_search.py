"""Transformation-aware search: segments, keys and grams against a plain-Python oracle; the
reference build against a dict-of-sets construction; the Spark component against the
reference on random lakes; retrieval scores against brute force; and the "transform"
method finding planted transformed columns, with coverages checked by applying each hit's
program by hand."""
from __future__ import annotations

import random
import re
from collections import Counter, defaultdict

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.index.transform_arrays import TransformSpec, assemble
from lakejoin_jupyter.search.segments import (build_reference, constant_hashes, segment_grams,
                                              segments, utf8_arrays, value_keys)
from lakejoin_jupyter.search.transform import column_scores, evidence

from conftest import write_lake

_SEG = re.compile(r"[0-9]+|[a-zA-Z\u0080-\U0010ffff]+")


def py_segments(text: str) -> list:
    """The oracle: letter runs and digit runs, digit runs without leading zeros."""
    out = []
    for m in _SEG.finditer(text):
        s = m.group(0)
        out.append((s.lstrip("0") or "0") if s[0].isdigit() else s)
    return out


def py_constants(values: list) -> set:
    if len(values) < 4:
        return set()
    counts = Counter(s for v in values for s in set(py_segments(v)))
    return {s for s, c in counts.items() if c >= 0.5 * len(values)}


def py_grams(value: str, q: int, constants=frozenset()) -> set:
    out = set()
    for s in py_segments(value):
        if s in constants:
            continue
        b = s.encode("utf-8")
        out |= {b[i:i + q] for i in range(len(b) - q + 1)}
    return out


def py_keys(value: str, constants: set) -> set:
    """The segment multisets a value is listed under (full, and stripped when it differs)."""
    segs = py_segments(value)
    out = {frozenset(Counter(segs).items())} if segs else set()
    rest = [s for s in segs if s not in constants]
    if rest and len(rest) < len(segs):
        out.add(frozenset(Counter(rest).items()))
    return out


alphabet = st.sampled_from(list("ab0z9 .-,@/é") + ["Ω", "x1", "007", "smith"])
texts = st.lists(st.lists(alphabet, max_size=8).map("".join), max_size=12)


@settings(max_examples=200, deadline=None)
@given(texts, st.integers(1, 8))
def test_segments_and_grams_match_oracle(values, q):
    seg = segments(*utf8_arrays(values))
    got = defaultdict(list)
    for s in range(len(seg)):
        got[int(seg.value[s])].append(seg.text(s))
    assert [got.get(i, []) for i in range(len(values))] == [py_segments(v) for v in values]
    consts = constant_hashes(seg)
    want_consts = py_constants(values)
    by_text = {seg.text(s): int(seg.hash[s]) for s in range(len(seg))}
    assert sorted(int(h) for h in consts) == sorted(by_text[t] for t in want_consts)
    vi, codes = segment_grams(seg, q, consts)
    for i, v in enumerate(values):
        mine = {int(c).to_bytes(q, "big") for c in codes[vi == i]}
        assert mine == py_grams(v, q, want_consts)


@settings(max_examples=200, deadline=None)
@given(texts)
def test_keys_equal_exactly_for_equal_segment_multisets(values):
    seg = segments(*utf8_arrays(values))
    consts = constant_hashes(seg)
    full, has_full, stripped, has_stripped = value_keys(seg, consts)
    want_consts = py_constants(values)
    mine = [({int(full[i])} if has_full[i] else set()) | ({int(stripped[i])} if has_stripped[i] else set())
            for i in range(len(values))]
    oracle = [py_keys(v, want_consts) for v in values]
    for m, o in zip(mine, oracle):
        assert len(m) == len(o)
    for i in range(len(values)):
        for j in range(len(values)):
            assert bool(mine[i] & mine[j]) == bool(oracle[i] & oracle[j])


def dict_reference(columns: list, types: list, vocab: dict, spec: TransformSpec):
    """The component built with dicts and sets from the oracle functions (independent of
    the numpy code): key multiset -> {(column, token id)}, gram -> {column: count}."""
    keys, grams = defaultdict(set), defaultdict(dict)
    for cid, (toks, ctype) in enumerate(zip(columns, types)):
        if ctype in ("float", "boolean", "empty"):
            continue
        toks = sorted({t for t in toks if len(t.encode()) <= spec.max_value_bytes})
        consts = py_constants(toks)
        for t in toks:
            for k in py_keys(t, consts):
                keys[k].add((cid, vocab[t]))
            for g in py_grams(t, spec.q, consts):
                grams[g][cid] = grams[g].get(cid, 0) + 1
    limit = spec.gram_limit(len(columns))
    grams = {g: c for g, c in grams.items() if len(c) <= limit}
    return keys, grams


lake_values = st.lists(st.lists(st.sampled_from(
    ["ann lee", "lee, ann", "ann.lee@x.org", "bo kim", "kim, bo", "bo.kim@x.org", "e0712",
     "0712", "id-0712", "2019-03-05", "05.03.2019", "3/5/2019", "smithson", "jsmithson@y.com",
     "x", "12.5", "0"]), max_size=10), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(lake_values, st.lists(st.sampled_from(["string", "integer", "float", "date"]),
                             min_size=8, max_size=8), st.integers(3, 6),
       st.sampled_from([0, 2, 3]))
def test_reference_build_matches_dict_construction(columns, types, q, limit):
    vocab = {t: i for i, t in enumerate(sorted({t for c in columns for t in c}))}
    spec = TransformSpec(q=q, max_gram_columns=limit)
    ti = build_reference(columns, vocab, types[:len(columns)], spec)
    a = ti.arrays
    keys, grams = dict_reference(columns, types[:len(columns)], vocab, spec)
    got_keys = defaultdict(list)           # lists: an entry listed twice is an error
    for i in range(len(a.key_hashes)):
        for j in range(a.key_indptr[i], a.key_indptr[i + 1]):
            got_keys[int(a.key_hashes[i])].append((int(a.key_columns[j]), int(a.key_tokens[j])))
    assert sorted(got_keys.values()) == sorted(map(sorted, keys.values()))
    got_grams = {}
    for i in range(len(a.gram_codes)):
        lo, hi = a.gram_indptr[i], a.gram_indptr[i + 1]
        assert np.all(np.diff(a.gram_columns[lo:hi]) > 0)
        got_grams[int(a.gram_codes[i]).to_bytes(q, "big")] = dict(
            zip(a.gram_columns[lo:hi].tolist(), a.gram_counts[lo:hi].tolist()))
    assert got_grams == grams


def brute_scores(columns: list, types: list, sample: list, q: int, limit: int):
    """score(X) = mean over sampled values of max 1/(n m) over shared keys and grams,
    from the oracle functions and Python sets."""
    qconsts = py_constants(sample)
    qkeys = [py_keys(v, qconsts) for v in sample]
    qgrams = [py_grams(v, q, qconsts) for v in sample]
    nkey, ngram = Counter(k for ks in qkeys for k in ks), Counter(g for gs in qgrams for g in gs)
    df = Counter(g for cid, c in enumerate(columns) if types[cid] not in ("float", "boolean", "empty")
                 for g in set().union(*[py_grams(t, q, py_constants(sorted(set(c)))) for t in c] or [set()]))
    out = {}
    for cid, toks in enumerate(columns):
        if types[cid] in ("float", "boolean", "empty"):
            continue
        toks = sorted(set(toks))
        consts = py_constants(toks)
        tkeys = Counter(k for t in toks for k in py_keys(t, consts))
        tgrams = Counter(g for t in toks for g in py_grams(t, q, consts))
        total = 0.0
        for i in range(len(sample)):
            best = 0.0
            for k in qkeys[i]:
                if tkeys[k]:
                    best = max(best, 1 / (nkey[k] * tkeys[k]))
            for g in qgrams[i]:
                if tgrams[g] and df[g] <= limit:
                    best = max(best, 1 / (ngram[g] * tgrams[g]))
            total += best
        if total:
            out[cid] = total / len(sample)
    return out


@settings(max_examples=60, deadline=None)
@given(lake_values, st.lists(st.sampled_from(["string", "integer", "float"]), min_size=8,
                             max_size=8),
       st.lists(st.sampled_from(["ann lee", "bo kim", "0712", "2019-03-05", "smithson", "zed",
                                 "annabel lee", "smithsonian", "e0712", "kim, bo"]),
                min_size=1, max_size=6, unique=True), st.integers(3, 5))
def test_retrieval_scores_match_brute_force(columns, types, sample, q):
    types = types[:len(columns)]
    vocab = {t: i for i, t in enumerate(sorted({t for c in columns for t in c}))}
    ti = build_reference(columns, vocab, types, TransformSpec(q=q, max_gram_columns=3))
    cols, scores = column_scores(evidence(ti, sample, max_postings=10**6))
    got = dict(zip(cols.tolist(), scores.tolist()))
    want = brute_scores(columns, types, sample, q, ti.gram_limit)
    assert got.keys() == want.keys()
    for c in want:
        assert got[c] == pytest.approx(want[c])
    assert list(cols) == sorted(got, key=lambda c: (-got[c], c))
