"""Auto-Join's fast paths against plain ones on random inputs: the match tables of
``_Strings`` against substring tests, ``_Candidates._expand`` (every example at once, or
in plain Python for few bound pairs) against a loop over bound pairs, the lazy queue of ``_Candidates`` against one heap of
every entry (the queue's order before it was made lazy), and the fuzzy step's candidate
pairs (distances vectorized) against the prefix filter's loop, order and values exact, and
its skipped configurations against trying each; ``whole_keys`` (word runs by a pattern)
against word bounds found by position; ``longest_matches`` (every suffix at once) against
``binary_search_q`` one suffix at a time, and a pair group found either way."""
from __future__ import annotations

import heapq
import itertools
import math
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.join.autojoin.dsl import Constant, Words
from lakejoin_jupyter.join.autojoin import fuzzy, pairs
from lakejoin_jupyter.join.autojoin import learn as learn_module
from lakejoin_jupyter.join.autojoin.fuzzy import (DISTANCES, TOKENIZERS, TooManyPairs,
                                                  _min_overlap_fraction, candidate_pairs,
                                                  constrained_fuzzy_join, distance, short_code,
                                                  tokens)
from lakejoin_jupyter.join.autojoin.dsl import CASINGS, apply_casing, split_words
from lakejoin_jupyter.join.autojoin.learn import (_BIG, _SEP, Example, ExampleSetLearner,
                                                  LearnSettings, _Candidates,
                                                  _Strings, _word_forms)
from lakejoin_jupyter.textfold import fold
from lakejoin_jupyter.join.autojoin.pairs import (_TOKEN, MIN_Q, ColumnValues, SuffixIndex,
                                                  whole_word_keys, first_words,
                                                  binary_search_q, find_pair_group,
                                                  longest_matches, whole_keys)

ALPHABET = "abAB-/ _1"
words = st.text(alphabet=ALPHABET, min_size=1, max_size=9)


def longest_prefix_in(text: str, i: int, output: str) -> int:
    h = 0
    while i + h < len(text) and text[i:i + h + 1] in output:
        h += 1
    return h


@settings(max_examples=150, deadline=None)
@given(st.lists(words, min_size=1, max_size=6, unique=True),
       st.lists(st.text(alphabet=ALPHABET, min_size=1, max_size=12), min_size=1, max_size=3))
def test_match_tables_are_the_longest_prefixes_occurring(strings, outputs):
    table = _Strings(strings)
    text = _SEP.join(strings) + _SEP
    for output in outputs:
        best, lcs = table.table(output)
        want = [longest_prefix_in(text, i, output) for i in range(len(text))]
        assert best.tolist() == want
        for v, start in zip(strings, table.starts.tolist()):
            assert lcs[table.ids[v]] == max(want[start:start + len(v)])


def expand_by_loop(cands: _Candidates, rank: int) -> list:
    """_Candidates._expand, one bound pair at a time: every (start, stop) of the first
    example's matches, in four forms (from the front or the back; a stop at the first
    example's end open), kept where every example's piece is non-empty and occurs in its
    output (and a Words operand is cut between words); one per distinct cut (the fewest
    bounds counted from an end, then the first formed), ordered by the cuts; the
    ``2 max_branch`` with the most characters when more."""
    learner = cands.learner
    node, _casing, cased, raw = learner.cased[rank]
    n1 = len(cased[0])
    pairs = [(i, j) for i in range(n1) for j in range(i + 1, n1 + 1)
             if cased[0][i:j] in cands.outputs[0]]
    forms = [(a, b) for fa, fb in ((0, 0), (0, 1), (1, 0), (1, 1)) for i, j in pairs
             for a, b in [(i - n1 * fa, (_BIG if j == n1 else j - n1) if fb else j)]]
    found = []
    for a, b in forms:
        sig, total = [], 0
        for e, v in enumerate(cased):
            n = len(v)
            lo = min(max(a + n if a < 0 else a, 0), n)
            hi = min(max(b + n if b < 0 else b, 0), n)
            piece = v[lo:hi]
            if not piece or piece not in cands.outputs[e]:
                break
            if isinstance(node, Words):
                bounds = learner.cache.get(("wbounds", node, raw[e]))
                if bounds is not None and len(bounds) == n + 1 and not (bounds[lo] and bounds[hi]):
                    break
            sig += [lo, hi]
            total += hi - lo
        else:
            found.append((tuple(sig), (a != 0) + (b != _BIG), a, b, total))
    found.sort(key=lambda x: (x[0], x[1]))
    distinct = [x for k, x in enumerate(found) if k == 0 or x[0] != found[k - 1][0]]
    keep = 2 * learner.settings.max_branch
    if len(distinct) > keep:
        distinct = sorted(distinct, key=lambda x: (-x[4], x[1]))[:keep]
    return [(-t, (rank, r, 0), (rank, a if a != 0 else None, None if b == _BIG else b))
            for _s, r, a, b, t in distinct]


def examples_of(values, outputs):
    return [Example((v, w), o) for (v, w), o in zip(values, outputs)]


cells = st.text(alphabet=ALPHABET, min_size=1, max_size=8)


@st.composite
def example_sets(draw):
    """Rows of two cells; each output pieces of its row's cells and constants."""
    k = draw(st.integers(3, 4))
    rows = [(draw(cells), draw(cells)) for _ in range(k)]
    const = draw(st.text(alphabet="-/.x", min_size=0, max_size=2))
    outputs = []
    for v, w in rows:
        a, b = sorted(draw(st.tuples(st.integers(0, len(v)), st.integers(0, len(v)))))
        out = v[a:b] + const + draw(st.sampled_from([w, w.lower(), w[:2], ""]))
        outputs.append(out or v)
    return rows, outputs


@settings(max_examples=120, deadline=None)
@given(example_sets(), st.sampled_from([0, 12, 10 ** 6]))
def test_expand_equals_the_loop_over_bound_pairs(data, small):
    """Vectorized (``small`` 0), in plain Python (10 ** 6) and either by size (12)."""
    rows, outputs = data
    learner = ExampleSetLearner(examples_of(rows, outputs), ["v", "w"], LearnSettings())
    cands = _Candidates(learner, tuple(outputs))
    saved, learn_module._SMALL_EXPAND = learn_module._SMALL_EXPAND, small
    try:
        for rank in range(len(learner.cased)):
            got = [(neg, key, spec)
                   for neg, key, _t, _kind, (spec, _p) in cands._expand(rank)]
            assert got == expand_by_loop(cands, rank)
    finally:
        learn_module._SMALL_EXPAND = saved


@st.composite
def worded_sets(draw):
    """Rows of words joined by "_"; each output a piece of the words title-cased and
    joined ("ab_cd" -> "AbCd": Words operands, cut between their words only)."""
    k = draw(st.integers(3, 4))
    word = st.text(alphabet="abc1", min_size=1, max_size=4)
    rows = [("_".join(draw(st.lists(word, min_size=2, max_size=4))), draw(cells))
            for _ in range(k)]
    outputs = []
    for v, _w in rows:
        joined = "".join(w.title() for w in v.split("_"))
        a, b = sorted(draw(st.tuples(st.integers(0, len(joined)), st.integers(0, len(joined)))))
        outputs.append(joined[a:b] if b - a > 1 else joined)
    return rows, outputs


@settings(max_examples=120, deadline=None)
@given(worded_sets(), st.sampled_from([0, 12, 10 ** 6]))
def test_expand_of_words_equals_the_loop_over_bound_pairs(data, small):
    test_expand_equals_the_loop_over_bound_pairs.hypothesis.inner_test(data, small)


class _EagerCandidates(_Candidates):
    """The queue as one heap of every entry, ticks in the order entries were made."""

    def __init__(self, learner, outputs):
        super().__init__(learner, outputs)
        first = len(self.heap)
        negs, ranks, forms = self.pending
        self.heap = list(self.heap) + [
            (neg, (rank, 0, form), first + t, 0 if form == 0 else 1,
             ((rank, None, None), None) if form == 0 else rank)
            for t, (neg, rank, form) in enumerate(zip(negs, ranks, forms))]
        heapq.heapify(self.heap)
        self.tick = itertools.count(len(self.heap))
        self.pending = ([], [], [])

    def _peek(self):
        return self.heap[0][0] if self.heap else None

    def _pop(self):
        return heapq.heappop(self.heap)


@settings(max_examples=120, deadline=None)
@given(example_sets(), st.integers(1, 40))
def test_lazy_queue_yields_as_one_heap(data, expand):
    rows, outputs = data
    ls = LearnSettings(max_expand=expand)
    lazy = _Candidates(ExampleSetLearner(examples_of(rows, outputs), ["v", "w"], ls),
                       tuple(outputs))
    eager = _EagerCandidates(ExampleSetLearner(examples_of(rows, outputs), ["v", "w"], ls),
                             tuple(outputs))
    assert list(lazy) == list(eager)


def test_constants_in_the_first_output_s_order():
    """Constants shared by every output queue by first occurrence, then length."""
    outputs = ("x-ab-y", "z-ab-q", "ab-")
    learner = ExampleSetLearner(examples_of([("x", "y"), ("z", "q"), ("a", "b")], outputs),
                                ["v", "w"], LearnSettings())
    cands = _Candidates(learner, outputs)
    consts = [item[0].text for *_rest, item in sorted(cands.heap)
              if isinstance(item[0], Constant)]
    texts = {outputs[0][i:j] for i in range(6) for j in range(i + 1, 7)
             if all(outputs[0][i:j] in o for o in outputs)}
    assert consts == sorted(texts, key=lambda c: (-len(c), outputs[0].find(c), c))


def pairs_by_loop(derived, keys, t, kind, max_distance):
    """candidate_pairs one pair at a time, in the prefix filter's order: by derived value,
    then as its prefix tokens (ascending frequency) list the keys, each key once."""
    tc, tk = [tokens(v, t) for v in derived], [tokens(v, t) for v in keys]
    freq = Counter(x for s in tc + tk for x in s)
    alpha = _min_overlap_fraction(kind, 1.0 - max_distance)

    def prefix(s):
        ordered = sorted(s, key=lambda x: (freq[x], x))
        return ordered[:max(len(ordered) - math.ceil(alpha * len(ordered) - 1e-9) + 1, 1)]
    index: dict = {}
    for j, s in enumerate(tk):
        for tok in prefix(s):
            index.setdefault(tok, []).append(j)
    out = []
    for i, s in enumerate(tc):
        seen = set()
        for tok in prefix(s):
            for j in index.get(tok, ()):
                if j not in seen:
                    seen.add(j)
                    d = 0.0 if derived[i] == keys[j] else distance(s, tk[j], kind)
                    if d <= max_distance + 1e-12:
                        out.append((i, j, d))
    return out


fuzzy_values = st.lists(st.text("abcd ", min_size=1, max_size=8), min_size=1, max_size=10,
                        unique=True)


@settings(max_examples=150, deadline=None)
@given(fuzzy_values, fuzzy_values, st.sampled_from(TOKENIZERS), st.sampled_from([0.2, 0.5]))
def test_candidate_pairs_equal_the_loop_in_order_and_value(derived, keys, t, max_distance):
    derived, keys = sorted(derived), sorted(keys)
    cache: dict = {}
    for kind in DISTANCES:          # one cache for every distance, as the fuzzy join uses it
        ci, ki, dist = candidate_pairs(derived, keys, t, kind, max_distance, cache=cache)
        got = list(zip(ci.tolist(), ki.tolist(), dist.tolist()))
        assert got == pairs_by_loop(derived, keys, t, kind, max_distance)


@settings(max_examples=100, deadline=None)
@given(fuzzy_values, fuzzy_values, st.sampled_from(TOKENIZERS))
def test_tokens_ordered_by_frequency_then_token(derived, keys, t):
    """The prefix filter's token order (one rank per token) is (frequency, token)."""
    cache: dict = {}
    candidate_pairs(derived, keys, t, "jaccard", 0.5, cache=cache)
    tc, tk = [tokens(v, t) for v in derived], [tokens(v, t) for v in keys]
    freq = Counter(x for s in tc + tk for x in s)
    want = tuple([sorted(s, key=lambda x: (freq[x], x)) for s in sets] for sets in (tc, tk))
    assert cache[("ordered", t)] == want


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aB1 -é\U0001f600", max_size=12), st.sampled_from(TOKENIZERS))
def test_tokens_are_the_slices(text, t):
    """tokens (q-grams from shifted copies) against the slices of the folded text (the value
    as the fuzzy join folds it: textfold.fold, case, accents, letters and spaces)."""
    low = fold(text)
    if t == "word":
        want = frozenset(_TOKEN.findall(low)) or frozenset([low])
    else:
        q = int(t[0])
        want = frozenset([low]) if len(low) < q else \
            frozenset(low[i:i + q] for i in range(len(low) - q + 1))
    assert tokens(text, t) == want


def whole_keys_by_position(v, keys):
    """whole_keys from its definition: v[i:j] with i at a word's start, j at a word's end."""
    n = len(v)
    starts = [i for i in range(n) if v[i].isalnum() and (i == 0 or not v[i - 1].isalnum())]
    ends = [j for j in range(1, n + 1) if v[j - 1].isalnum() and (j == n or not v[j].isalnum())]
    out = [v[i:j] for i in starts for j in ends
           if j - i >= 3 and v[i:j] in keys and any(ch.isalpha() for ch in v[i:j])]
    return list(dict.fromkeys(out))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab1 -_é²٣\u00a0", max_size=14), st.data())
def test_whole_keys_from_word_bounds(v, data):
    pieces = {v[i:j] for i in range(len(v)) for j in range(i + 3, len(v) + 1)}
    keys = {k: n for n, k in enumerate(sorted(pieces)) if data.draw(st.booleans())}
    assert whole_keys(v, keys) == whole_keys_by_position(v, keys)
    longest = max(map(len, keys), default=0)    # runs cut at the longest key: the same
    assert whole_keys(v, keys, longest) == whole_keys_by_position(v, keys)
    assert whole_word_keys(v, keys, longest) == whole_word_keys(v, keys)
    # runs only from a word that starts a key: the same
    assert whole_word_keys(v, keys, longest, first_words(keys)) == whole_word_keys(v, keys)
    assert whole_keys(v, keys, None, first_words(keys)) == whole_keys_by_position(v, keys)


def test_word_runs_are_the_alphanumeric_runs():
    """The token pattern's runs are str.isalnum's, on every character up to U+FFFF."""
    for c in map(chr, range(0x10000)):
        assert bool(_TOKEN.fullmatch(c)) == c.isalnum()


def short_code_plain(text):
    """short_code as first written: whitespace first, then the lengths."""
    if not text or any(c.isspace() for c in text):
        return False
    if len(text) <= 4:
        return True
    return (len(text) <= 8 and text.isalnum()
            and any(c.isdigit() for c in text) and any(c.isalpha() for c in text))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aZ1 \u00a0_-é٣", max_size=11))
def test_short_code_as_first_written(text):
    assert short_code(text) == short_code_plain(text)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text("abcd ", min_size=1, max_size=10), min_size=1, max_size=12, unique=True),
       st.lists(st.text("abcd ", min_size=1, max_size=10), min_size=1, max_size=12, unique=True),
       st.integers(0, 60))
def test_fuzzy_join_skips_only_configurations_over_budget(derived, keys, max_pairs):
    """A configuration is skipped (its prefix filter not run) only when running it would
    be over budget: the same ``tried`` as running every one."""
    over = {}
    for t in TOKENIZERS:
        for d in DISTANCES:
            try:
                candidate_pairs(sorted(set(derived)), sorted(set(keys)), t, d, 0.5, max_pairs)
                over[(t, d)] = False
            except TooManyPairs:
                over[(t, d)] = True
    run = []
    real = fuzzy.candidate_pairs

    def recorded(derived, keys, t, d, *args):
        run.append((t, d))
        return real(derived, keys, t, d, *args)
    fuzzy.candidate_pairs = recorded
    try:
        got = constrained_fuzzy_join(derived, keys, max_pairs=max_pairs)
    finally:
        fuzzy.candidate_pairs = real
    assert all(over[c] for c in over if c not in run)
    if got is not None:
        assert [(t, d, s is None) for t, d, s, _c in got.tried] == \
            [(t, d, over[(t, d)]) for t in TOKENIZERS for d in DISTANCES]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text("ab\U0001f600", min_size=1, max_size=9) | st.text("a\x00", max_size=4),
                min_size=0, max_size=8, unique=True),
       st.lists(st.text("ab\U0001f600", min_size=0, max_size=80), min_size=1, max_size=6))
def test_longest_matches_equal_binary_search_q(values, probes):
    idx = SuffixIndex(values)
    got = longest_matches(probes, idx)
    if got is None:         # NUL cannot be told from a row's end: probe one by one
        assert any("\x00" in v for v in values + probes)
        return
    want = [[binary_search_q(v[i:i + 64], idx) for i in range(len(v) - MIN_Q + 1)]
            for v in probes]
    assert got == want


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text("ab-c1 ", min_size=1, max_size=12), min_size=1, max_size=12),
       st.lists(st.text("ab-c1 ", min_size=1, max_size=12), min_size=1, max_size=12),
       st.sampled_from([1 / 64, 1 / 4, 0.0]))
def test_pair_group_the_same_with_matches_probed_one_by_one(src, tgt, min_score):
    s, t = ColumnValues.from_cells("s", src), ColumnValues.from_cells("t", tgt)
    fast = find_pair_group(s, t, min_score).pairs
    real = pairs.longest_matches
    pairs.longest_matches = lambda values, index: None
    try:
        s, t = ColumnValues.from_cells("s", src), ColumnValues.from_cells("t", tgt)
        plain = find_pair_group(s, t, min_score).pairs
    finally:
        pairs.longest_matches = real
    assert fast == plain


def _adjacent_in(words: list, joiner: str, o: str) -> bool:
    return any(a and b and a + joiner + b in o for a, b in zip(words, words[1:]))


def word_forms_plain(v, o):
    """_word_forms without its shortcut: every separator and casing tried with every
    joiner (the split keeping a final run of capitals is added later, by worded_operands)."""
    seps = sorted({ch for ch in v if not ch.isalnum() and not ch.isspace()})
    titled = [t for t in ((sep, [w.title() for w in v.split(sep)]) for sep in seps)
              if len(t[1]) > 1]
    camel = split_words(v, "") if re.search(r"[a-z0-9][A-Z]|[A-Z][A-Z][a-z]", v) else None
    if not titled and camel is None:
        return ()
    joiners = sorted({ch for ch in o if not ch.isalnum()})
    found = []
    for sep, words in titled:
        for joiner in [""] + joiners:
            if joiner != sep and _adjacent_in(words, joiner, o) and \
                    joiner.join(words) not in {apply_casing(v.replace(sep, joiner), c)
                                               for c in CASINGS}:
                found.append((sep, "title", joiner, False))
    if camel is not None and joiners:
        for casing in CASINGS:
            cased = [apply_casing(w, casing) for w in camel]
            found += [("", casing, j, False) for j in joiners if _adjacent_in(cased, j, o)]
    if found and any(apply_casing(v, c) in o for c in CASINGS):
        found = []
    return tuple(found)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="aBk_-. ", min_size=1, max_size=12),
       st.text(alphabet="aAbBkK_-. ", max_size=16))
def test_word_forms_as_without_the_shortcut(v, o):
    assert _word_forms(v, o, {}) == word_forms_plain(v, o)


def test_longest_matches_leave_a_large_index_to_the_plain_probes(monkeypatch):
    idx = SuffixIndex(["abcdef", "bcdxyz"])
    assert longest_matches(["xbcdx"], idx) == [[2, 4, 3]]     # "bcdx", "cdx" of "bcdxyz"
    monkeypatch.setattr(pairs, "MAX_ROW_CELLS", 8)       # 8 suffixes of 6 code points
    assert longest_matches(["xbcdx"], idx) is None
