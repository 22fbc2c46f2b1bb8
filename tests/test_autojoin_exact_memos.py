"""Auto-Join's memos and scans against the plain computations, on random inputs: the
glued values' ``ValueScan`` against a ``SuffixIndex`` of them (and a pair group found
either way); a value's token bounds made on use against ``_bounds``; ``starts_gram`` (a
probe of the index) against the set of the suffixes' first characters; the operand
builders of ``ExampleSetLearner`` with one cache shared by a run of example sets (per-output
memos of the per-value tests, trims, encodings) against a fresh cache for each set, and
the encodings and trims against their first form; the per-example strings and their ids
against their definition; ``_signatures`` cached against the reading made again."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.join.autojoin import pairs
from lakejoin_jupyter.join.autojoin.dsl import ENCODINGS, Encode, Trim, normalize_space
from lakejoin_jupyter.join.autojoin.learn import (Example, ExampleSetLearner, LearnSettings,
                                                  encoded_operands, operands,
                                                  replaced_operands, trimmed_operands,
                                                  worded_operands)
from lakejoin_jupyter.join.autojoin.pairs import (MAX_GRAM, MIN_Q, ColumnValues, SuffixIndex,
                                                  ValueScan, _bounds, _signatures,
                                                  find_pair_group)

GLUE = "ab1-._ \x00"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=GLUE, max_size=12), min_size=1, max_size=10, unique=True),
       st.lists(st.text(alphabet=GLUE, min_size=1, max_size=5), max_size=12), st.data())
def test_value_scan_holders_equal_the_suffix_index(values, probes, data):
    scan, index = ValueScan(values), SuffixIndex(values)
    # pieces of the values too, and one longer than any suffix of the index
    for v in values:
        if v:
            a = data.draw(st.integers(0, len(v) - 1))
            probes.append(v[a:data.draw(st.integers(a + 1, len(v)))])
    probes.append("a" * (MAX_GRAM + 1))
    if any(len(v) > MAX_GRAM for v in values):
        probes.append(max(values, key=len))
    for g in probes:
        assert scan.values_with(g) == index.values_with(g), g
        assert scan.values_with(g) == index.values_with(g), g          # from its memo


def test_value_scan_jumps_to_the_next_value_after_a_hit():
    scan = ValueScan(["aaaa", "xaa", "b", "aab"])
    assert scan.values_with("aa") == (0, 1, 3)
    assert scan.values_with("a" * (MAX_GRAM + 1)) == ()
    long = "ab" * 40
    assert ValueScan([long]).values_with(long) == () == SuffixIndex([long]).values_with(long)


@settings(max_examples=120, deadline=None)
@given(st.lists(st.text(alphabet="ab12-._/ ", min_size=1, max_size=12), min_size=1,
                max_size=12),
       st.lists(st.text(alphabet="ab12-._/ ", min_size=1, max_size=12), min_size=1,
                max_size=12),
       st.sampled_from([1 / 64, 1 / 4, 0.0]))
def test_pair_group_the_same_with_the_glued_values_indexed(src, tgt, min_score):
    fast = find_pair_group(ColumnValues.from_cells("s", src),
                           ColumnValues.from_cells("t", tgt), min_score).pairs
    real = pairs.ValueScan
    pairs.ValueScan = SuffixIndex          # the glued values given a suffix array
    try:
        plain = find_pair_group(ColumnValues.from_cells("s", src),
                                ColumnValues.from_cells("t", tgt), min_score).pairs
    finally:
        pairs.ValueScan = real
    assert fast == plain


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet="ab12-._/ ", min_size=1, max_size=12), min_size=1,
                max_size=10), st.lists(st.text(alphabet="ab1-", max_size=6), max_size=10))
def test_token_bounds_and_trigram_probes_are_the_plain_ones(cells, probes):
    col = ColumnValues.from_cells("c", cells)
    for vid in reversed(range(len(col.values))):
        assert col.token_bounds(vid) == _bounds(col.values[vid])
    index = col.index
    trigrams = {s[:MIN_Q] for s in index.suffixes}
    for u in probes + [v[i:] for v in col.values for i in range(len(v))]:
        assert index.starts_gram(u) == (u[:MIN_Q] in trigrams), u


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab12 -/:JulyMarch", max_size=16))
def test_signatures_cached_equal_made_again(v):
    first = _signatures(v)
    assert _signatures.__wrapped__(v) == first == _signatures(v)
    assert pairs.signatures(v) == list(first)


CELL = "aB1 -_./%é\t"
cells = st.text(alphabet=CELL, min_size=1, max_size=9)


@st.composite
def example_runs(draw):
    """A run of example sets over a few rows of two cells, as a learning round draws them
    (rows recur across sets); each output pieces of its row's cells, cased or swapped,
    and constants."""
    rows = [(draw(cells), draw(cells)) for _ in range(draw(st.integers(3, 6)))]
    outs = []
    for v, w in rows:
        piece = draw(st.sampled_from([v, v.upper(), v.replace(" ", ""), v.replace("-", "_"),
                                      v.replace("/", "%2F"), "x" + w.title() + ".y"]))
        outs.append(piece + draw(st.sampled_from(["", "-" + w, " " + w.lower(), "_"])))
    sets = []
    for _ in range(draw(st.integers(1, 5))):
        size = draw(st.integers(3, min(4, len(rows))))
        picked = draw(st.permutations(range(len(rows))))[:size]
        sets.append([Example(rows[i], outs[i], i, i) for i in picked])
    return sets


def encoded_plain(ops, outputs):
    """encoded_operands as first written: each encoding made and tested afresh."""
    seen, out = {vals for _node, vals in ops}, []
    for scheme, encode in ENCODINGS.items():
        for node, vals in ops:
            ev = tuple(encode(v) for v in vals)
            if ev in seen or not all(ev):
                continue
            if any(e != v and e.lower() in o.lower() and v.lower() not in o.lower()
                   for e, v, o in zip(ev, vals, outputs)):
                seen.add(ev)
                out.append((Encode(node, scheme), ev))
    return out


def trimmed_plain(ops, outputs):
    """trimmed_operands as first written: each value trimmed afresh."""
    seen, out = {vals for _node, vals in ops}, []
    for node, vals in ops:
        tv = tuple(map(normalize_space, vals))
        if tv in seen or not all(tv):
            continue
        if any(t != v and t.lower() in o.lower() and v.lower() not in o.lower()
               for t, v, o in zip(tv, vals, outputs)):
            seen.add(tv)
            out.append((Trim(node), tv))
    return out


def _learner_state(learner):
    return ([(n, c, cv, v) for n, c, cv, v in learner.cased],
            [list(s.ids) for s in learner.strings], learner.sid.tolist(), learner.chars)


@settings(max_examples=120, deadline=None)
@given(example_runs())
def test_operands_with_a_shared_cache_equal_those_made_afresh(sets):
    shared: dict = {}
    for examples in sets:
        outputs = [ex.output for ex in examples]
        plain = operands(examples, ["a", "b"], {})
        assert operands(examples, ["a", "b"], shared) == plain
        for build in (replaced_operands, worded_operands, encoded_operands,
                      trimmed_operands):
            assert build(plain, outputs, shared) == build(plain, outputs, {}), build
        assert encoded_operands(plain, outputs, shared) == encoded_plain(plain, outputs)
        assert trimmed_operands(plain, outputs, shared) == trimmed_plain(plain, outputs)
        fresh = ExampleSetLearner(examples, ["a", "b"], LearnSettings(), {})
        memo = ExampleSetLearner(examples, ["a", "b"], LearnSettings(), shared)
        assert _learner_state(memo) == _learner_state(fresh)


@settings(max_examples=120, deadline=None)
@given(example_runs())
def test_strings_and_ids_per_example_as_defined(sets):
    for examples in sets:
        learner = ExampleSetLearner(examples, ["a", "b"], LearnSettings(), {})
        k = len(examples)
        assert learner.sid.shape == (len(learner.cased), k)
        assert learner.sid.flags["C_CONTIGUOUS"]
        for e in range(k):
            distinct = list(dict.fromkeys(c[2][e] for c in learner.cased))
            assert list(learner.strings[e].ids) == distinct
            for r, c in enumerate(learner.cased):
                assert learner.sid[r, e] == distinct.index(c[2][e])
        # the casings: each operand as it is first, then cased, a casing's values once
        seen = set()
        for node, casing, cv, vals in learner.cased:
            assert cv not in seen
            seen.add(cv)


@settings(max_examples=1000, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4),
       st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(-3, 3),
                          st.integers(-3, 3)), min_size=1, max_size=80))
def test_top_cuts_equal_sorting_every_pair(k, keep, rows):
    """``_top_cuts`` (only the pairs of the largest totals sorted) against every pair
    deduplicated and ranked: the same pairs, totals and ranks in the same order."""
    import numpy as np

    from lakejoin_jupyter.join.autojoin.learn import _BIG, _distinct_cuts, _top_cuts

    # cuts from a small pool so that many pairs share one; a cut's total is its widths' sum
    lo = np.array([[(c * (e + 1)) % 4 for c, _w, _a, _b in rows] for e in range(k)],
                  dtype=np.int64)
    hi = lo + np.array([[w + e % 2 for _c, w, _a, _b in rows] for e in range(k)],
                       dtype=np.int64)
    A = np.array([a for _c, _w, a, _b in rows], dtype=np.int64)
    B = np.array([_BIG if b == 3 else b for _c, _w, _a, b in rows], dtype=np.int64)
    total = (hi - lo).sum(axis=0)
    want = _distinct_cuts(A, B, total, lo, hi)
    if len(want[0]) > keep:
        top = np.lexsort((want[3], -want[2]))[:keep]
        want = tuple(x[top] for x in want)
    got = _top_cuts(A, B, total, lo, hi, keep)
    assert [x.tolist() for x in got] == [x.tolist() for x in want]


def _best_pairs_plain(vid, source, target, min_score, qs):
    """``best_pairs_for_value`` without ``extra``, probing every gram (as first written)."""
    v = source.values[vid]
    t_index, s_index = target.index, source.index
    best, best_grams = 0.0, []
    if len(v) < MIN_Q:
        rt = t_index.values_with(v)
        if rt and len(rt) * min_score <= 1.0:
            best, best_grams = 1.0 / (len(s_index.values_with(v)) * len(rt)), [(v, rt)]
    keys = target.value_ids
    found = pairs.whole_keys(v, keys, target.longest)
    found = [g for g in found if not any(g != h and g in h for h in found)]
    counts = {g: len(s_index.values_with(g)) for g in found}
    counts = {g: n for g, n in counts.items()
              if n * len(t_index.values_with(g)) * min_score > 1.0}
    if counts:
        top = max(counts.values())
        whole = [pairs.RowPair(source.rows[vid], target.rows[keys[g]], g, 1.0, True)
                 for g in sorted(counts, key=len, reverse=True) if counts[g] == top]
        return whole + pairs._one_to_one(v, vid, source, target, max(map(len, counts)),
                                         {p.target_row for p in whole}, qs)
    for g, rt in pairs._longest_grams(v, t_index, MIN_Q, qs):
        if len(rt) * best > 1.0 or len(rt) * min_score > 1.0:
            continue
        rs = s_index.values_with(g)
        best = pairs._max_by_score(best, best_grams, 1.0 / (len(rs) * len(rt)), (g, rt))
    if best < min_score:
        return []
    out, seen_rows = [], set()
    for g, rt in sorted(best_grams, key=lambda x: -len(x[0])):
        for t in rt:
            if t not in seen_rows:
                seen_rows.add(t)
                out.append(pairs.RowPair(source.rows[vid], target.rows[t], g, best))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab1-. ", min_size=1, max_size=16), min_size=1,
                max_size=10),
       st.lists(st.text(alphabet="ab1-. ", min_size=1, max_size=16), min_size=1,
                max_size=10),
       st.sampled_from([1 / 64, 1 / 4, 1.0, 0.0]), st.booleans())
def test_best_pairs_skipping_grams_inside_the_last_equal_probing_every_gram(
        src, tgt, min_score, matched):
    """A gram inside the previous one is not probed (``best_pairs_for_value``): the same
    pairs as probing every gram, with the match lengths given or found per start."""
    source, target = ColumnValues.from_cells("s", src), ColumnValues.from_cells("t", tgt)
    qs = pairs.longest_matches(source.values, target.index) if matched else None
    for vid in range(len(source.values)):
        q = None if qs is None else qs[vid]
        assert pairs.best_pairs_for_value(vid, source, target, min_score, [], q) == \
            _best_pairs_plain(vid, source, target, min_score, q)
