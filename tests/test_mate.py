"""XASH (hand-computed vectors, no false negatives) and MATE search against the brute-force
n-ary oracle on random lakes with planted composite keys. No Spark: the MATE arrays come
from the pure-Python reference builder (index/mate_arrays.py), which the Spark build is
checked against in test_mate_build.py."""
from collections import Counter
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.index.mate_arrays import build_reference
from lakejoin_jupyter.search import bruteforce_nary as oracle
from lakejoin_jupyter.search import mate
from lakejoin_jupyter.xash import XashSpec, xash, xash_words

S128, S512 = XashSpec(128), XashSpec(512)


def bits(h: int) -> list:
    return [i for i in range(h.bit_length()) if h >> i & 1]


# ---------------------------------------------------------------- XASH, hand-computed
# 128 bits: beta = 3, character area 111 bits, length segment 17 bits (111..127).
# Alphabet index: " "=0, "0".."9"=1..10, "a".."z"=11..36. Region of a character: the smallest
# i in 0..2 with (sum of its 0-based positions) * 3 <= (i + 1) * len * count. Rotation of the
# character area: d = floor(111 * (len mod 17) / 17). Length bit: 111 + len mod 17.
HAND_128 = {
    # len 8, d = 52. chosen (count, char): d,h,u (1), a (2), m (3).
    # d pos 7 -> region 2 -> 14*3+2 = 44 -> 96;  h pos 2 -> 0 -> 54 -> 106;
    # u pos 1 -> 0 -> 93 -> 145-111 = 34;  a mean 4.5 -> 1 -> 34 -> 86;
    # m mean 3 -> 1 -> 70 -> 122-111 = 11;  length 111+8 = 119.
    "muhammad": [11, 34, 86, 96, 106, 119],
    # len 3, d = 19. l pos 0 -> region 0 -> 66 -> 85; e mean 1.5 -> region 1 -> 46 -> 65; 114.
    "lee": [65, 85, 114],
    # len 2, d = 13. s pos 1 -> 1 -> 88 -> 101; u pos 0 -> 0 -> 93 -> 106; 113.
    "us": [101, 106, 113],
    # len 7, d = 45. a(4)->1: 34->79; e(1)->0: 45->90; g(0)->0: 51->96;
    # m(3)->1: 70->115-111=4; n(5)->2: 74->119-111=8 (r, y not chosen: 5 characters); 118.
    "germany": [4, 8, 79, 90, 96, 118],
    # len 9, d = 58. "." is not in the alphabet: chosen " ",i,l,o,t (count 1, alphabet order);
    # " "(3)->0: 0->58; i(7)->2: 59->6; l(4)->1: 67->14; o(5)->1: 76->23; t(1)->0: 90->37; 120.
    "st. louis": [6, 14, 23, 37, 58, 120],
    # len 20 > 17: length bit 111 + 3 = 114, d = floor(111*3/17) = 19. Count-1 characters
    # a,b,d,f,l (first five in alphabet order): a(19)->2: 35->54; b(17)->2: 38->57;
    # d(0)->0: 42->61; f(10)->1: 49->68; l(14)->2: 68->87.
    "district of columbia": [54, 57, 61, 68, 87, 114],
    # len 5, d = 32. "1" (count 2, positions 0+4) before "0" (count 3, 1+2+3):
    # "1": 4*3 <= (i+1)*5*2 -> i=1: 2*3+1 = 7 -> 39; "0": 6*3 <= (i+1)*15 -> i=1: 4 -> 36; 116.
    "10001": [36, 39, 116],
}
# Two more, computed by hand independently of this code.
HAND_128.update({"boxer": [7, 24, 68, 78, 107, 116], "birder": [13, 75, 82, 85, 96, 117]})


@pytest.mark.parametrize("value", sorted(HAND_128))
def test_xash_128_hand_computed(value):
    assert bits(xash(value, S128)) == HAND_128[value]


def test_xash_512_hand_computed():
    # 512 bits: beta = 13, character area 481, length segment 31 (481..511).
    # "muhammad": len 8, d = floor(481*8/31) = 124; region = ceil(sum*13/(8*count)) - 1:
    # d(7)->11: 14*13+11=193->317; h(2)->3: 237->361; u(1)->1: 404->528-481=47;
    # a(3+6)->7: 150->274; m(0+4+5)->4: 303->427; length 481+8 = 489.
    assert bits(xash("muhammad", S512)) == [47, 274, 317, 361, 427, 489]
    assert (S512.beta, S512.char_bits, S512.length_bits) == (13, 481, 31)
    assert (S128.beta, S128.char_bits, S128.length_bits) == (3, 111, 17)


def test_super_key_examples():
    # rows like the paper's running example: {muhammad, lee, us} is covered by the row
    # {muhammad, lee, us, dancer}, not by {muhammad, ali, germany, boxer}
    q = xash("muhammad") | xash("lee") | xash("us")
    row1 = q | xash("dancer")
    row2 = xash("muhammad") | xash("ali") | xash("germany") | xash("boxer")
    assert q | row1 == row1 and q | row2 != row2


def test_words_are_the_bits():
    for spec in (S128, S512):
        vals = list(HAND_128) + ["", "ä"]
        words = xash_words(vals, spec)
        for v, row in zip(vals, words):
            h = sum(int(wd) << (64 * i) for i, wd in enumerate(row.tolist()))
            assert h == xash(v, spec)


text = st.text(alphabet=st.sampled_from(list("abcxyz0129 .-é_ßü")), min_size=1, max_size=40)


@settings(max_examples=300, deadline=None)
@given(text, st.sampled_from([S128, S512]))
def test_xash_layout(value, spec):
    h = xash(value, spec)
    b = bits(h)
    length = [x for x in b if x >= spec.char_bits]
    assert length == [spec.char_bits + len(value) % spec.length_bits]
    n_alpha = len({c for c in value if c in " 0123456789abcdefghijklmnopqrstuvwxyz"})
    # rotation is a bijection of the character area: one distinct bit per chosen character
    assert len(b) - 1 == min(spec.chars, n_alpha)
    assert h < 1 << spec.bits


@settings(max_examples=200, deadline=None)
@given(st.lists(text, min_size=1, max_size=12), st.data(), st.sampled_from([S128, S512]))
def test_super_key_never_drops_a_joinable_row(row, data, spec):
    key = data.draw(st.lists(st.sampled_from(row), min_size=1, max_size=len(row)))
    sk_row = np.bitwise_or.reduce(xash_words(row, spec), axis=0)
    sk_q = np.bitwise_or.reduce(xash_words(key, spec), axis=0)
    assert list(mate.row_filter(sk_row[None, :], np.array([0]), sk_q[None, :], np.array([0]))) == [0]


def test_super_key_never_drops_a_joinable_row_many_rows():
    """50,000 random rows of 1-30 values drawn from 5,000 values; keys of 2-4 of the row's
    values. The row filter must pass every one, and should reject most random keys."""
    rng = np.random.default_rng(7)
    chars = np.array(list("abcdefghijklmnopqrstuvwxyz0123456789 ,."))
    vocab = ["".join(rng.choice(chars, rng.integers(1, 25))) for _ in range(5000)]
    n = 50000
    widths = rng.integers(1, 31, n)
    starts = np.concatenate([[0], np.cumsum(widths)[:-1]])
    flat = rng.integers(0, len(vocab), int(widths.sum()))
    n_key = rng.integers(2, 5, n)
    key_pos = starts[:, None] + (rng.random((n, 4)) * widths[:, None]).astype(np.int64)
    for spec in (S128, S512):
        vx = xash_words(vocab, spec)
        rows_sk = np.bitwise_or.reduceat(vx[flat], starts, axis=0)
        key_sk = np.zeros_like(rows_sk)
        rand_sk = np.zeros_like(rows_sk)
        for j in range(4):
            use = (j < n_key)[:, None]
            key_sk |= np.where(use, vx[flat[key_pos[:, j]]], np.uint64(0))
            rand_sk |= np.where(use, vx[rng.integers(0, len(vocab), n)], np.uint64(0))
        everyone = np.arange(n)
        assert len(mate.row_filter(rows_sk, everyone, key_sk, everyone)) == n
        # keys of random values are mostly filtered out (the filter is not vacuous)
        fp = len(mate.row_filter(rows_sk, everyone, rand_sk, everyone)) / n
        assert fp < (0.03 if spec.bits == 128 else 0.005), (spec.bits, fp)


# ---------------------------------------------------------------- MATE vs the oracle

VOCAB = ["a", "b", "ab", "ba", "abc", "cab", "bca", "aa", "bb", "a b", "b a", "1", "12", "21",
         "x1", "1x", "ny", "yn", "new york", "york new", "é", "st. a", "ab.", "ba-"]
cells = st.sampled_from(VOCAB + [None])


@st.composite
def lakes(draw):
    tables = []
    for _ in range(draw(st.integers(1, 7))):
        width = draw(st.integers(1, 5))
        rows = draw(st.lists(st.lists(cells, min_size=width, max_size=width), min_size=1,
                             max_size=10))
        if draw(st.booleans()):                       # duplicate rows
            rows += draw(st.lists(st.sampled_from(rows), max_size=4))
        tables.append(rows)
    return tables


@st.composite
def lake_and_query(draw):
    tables = draw(lakes())
    m = draw(st.integers(2, 3))
    rows = set()
    for _ in range(draw(st.integers(1, 10))):
        t = draw(st.sampled_from(tables))
        if draw(st.integers(0, 9)) < 7 and len(t[0]) >= m:     # planted composite key
            row = draw(st.sampled_from(t))
            cols = draw(st.permutations(range(len(row))))[:m]
            tup = tuple(row[c] for c in cols)
        else:
            tup = tuple(draw(st.sampled_from(VOCAB)) for _ in range(m))
        if None not in tup:
            rows.add(tup)
    return tables, sorted(rows)


def index_lake(tables, spec=S128):
    vocab = sorted({v for t in tables for r in t for v in r if v is not None})
    token_id = {v: i for i, v in enumerate(vocab)}
    ma = build_reference(tables, token_id, len(vocab), spec)
    matrices, first = [], 0
    for tid, t in enumerate(tables):
        mat = np.array([[token_id[v] if v is not None else -1 for v in r] for r in t], dtype=np.int64)
        matrices.append((tid, first, mat))
        first += mat.shape[1]
    return ma, token_id, matrices


def key_array(rows, token_id, m):
    return np.array([[token_id[v] for v in r] for r in rows if all(v in token_id for v in r)],
                    dtype=np.int64).reshape(-1, m)


def check_against_oracle(ma, matrices, keys, k, **kw):
    min_score = kw.pop("min_score", 1)
    exclude = kw.get("exclude", frozenset())
    truth = {s.table_id: s for s in oracle.joinability(matrices, keys, exclude)}
    want = oracle.topk(list(truth.values()), k, min_score)
    got, stats = mate.search(ma, keys, k, min_score=min_score, **kw)
    assert [r[1] for r in got] == [w.score for w in want]
    for table, score, mapping, matched, lake_rows in got:   # each hit: its score and mapping
        assert (truth[table].score, truth[table].mapping) == (score, mapping)
        assert len(matched) == score == len(set(matched.tolist()))
        cols = [c - next(f for t, f, _ in matrices if t == table) for c in mapping]
        mat = next(mt for t, _, mt in matrices if t == table)
        held = Counter(map(tuple, mat[:, cols].tolist()))    # rows holding each key tuple
        assert all(tuple(keys[i]) in held for i in matched.tolist())
        assert lake_rows.tolist() == [held[tuple(keys[i])] for i in matched.tolist()]
    return [r[:3] for r in got], stats


@settings(max_examples=150, deadline=None)
@given(lake_and_query(), st.sampled_from([1, 2, 3, None]), st.sampled_from([S128, S512]),
       st.sampled_from(["cardinality", "postings", "pairs", 0, 1]))
def test_mate_equals_oracle(lq, k, spec, initial):
    tables, rows = lq
    m = len(rows[0]) if rows else 2
    ma, token_id, matrices = index_lake(tables, spec)
    keys = key_array(rows, token_id, m)
    got, stats = check_against_oracle(ma, matrices, keys, k, initial=initial)
    scr, scr_stats = check_against_oracle(ma, matrices, keys, k, initial=initial, superkey=False)
    assert [s for _, s, _ in got] == [s for _, s, _ in scr]
    assert scr_stats["pairs_passed"] == scr_stats["pairs_fetched"]
    assert stats["pairs_true"] <= stats["pairs_passed"] <= stats["pairs_fetched"]
    if k is None:   # no pruning: both see every pair; the filter drops no true pair
        assert stats["pairs_fetched"] == scr_stats["pairs_fetched"]
        assert stats["pairs_true"] == scr_stats["pairs_true"]
        assert stats["rows_true"] == scr_stats["rows_true"]


@settings(max_examples=60, deadline=None)
@given(lake_and_query(), st.sampled_from([1, 3, None]), st.booleans())
def test_mate_equals_oracle_in_tiny_blocks(lq, k, superkey):
    """Blocks of 2 PL items / 3 pairs and verification batches of 4 cells: rule 2 checked
    between blocks and pending pairs verified early must not change the answer."""
    tables, rows = lq
    m = len(rows[0]) if rows else 2
    ma, token_id, matrices = index_lake(tables)
    keys = key_array(rows, token_id, m)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mate, "MAX_PAIRS", 3)
        mp.setattr(mate, "MAX_CELLS", 4)
        _, small = check_against_oracle(ma, matrices, keys, k, superkey=superkey, chunk=2)
    _, whole = check_against_oracle(ma, matrices, keys, k, superkey=superkey)
    for f in ("pairs_fetched", "pairs_true", "rows_true") if k is None else ():
        assert small[f] == whole[f]


@settings(max_examples=60, deadline=None)
@given(lake_and_query(), st.sampled_from([2, None]), st.integers(1, 4), st.data())
def test_mate_threshold_and_exclusion_equal_oracle(lq, k, min_score, data):
    tables, rows = lq
    m = len(rows[0]) if rows else 2
    ma, token_id, matrices = index_lake(tables)
    keys = key_array(rows, token_id, m)
    n_cols = len(ma.column_table)
    exclude = frozenset(data.draw(st.lists(st.integers(0, n_cols - 1), max_size=3)))
    check_against_oracle(ma, matrices, keys, k, min_score=min_score, exclude=exclude)


def test_both_pruning_rules_fire_and_keep_the_answer():
    q = [(f"city{i}", f"state{i}") for i in range(5)]
    a = [[c, s, "x"] for c, s in q] * 2                      # L = 10, score 5 (duplicates once)
    c = [[q[i % 5][0], "nowhere", f"z{i}"] for i in range(8)]  # L = 8, no row passes
    d = [[q[i][0], q[i][1]] for i in range(3)]                 # L = 3 <= 5
    e = [[q[0][0], q[0][1]]]                                   # L = 1
    tables = [d, c, a, e]
    ma, token_id, matrices = index_lake(tables)
    keys = key_array(q, token_id, 2)
    got, stats = check_against_oracle(ma, matrices, keys, 1)
    assert got == [(2, 5, (5, 6))]
    assert stats["rule2_pruned"] == 1 and stats["rule1_pruned"] == 2
    assert stats["tables_verified"] == 1 and stats["rows_verified"] == 10
    # without the super key, rule 2 cannot skip table c: its rows are all verified
    _, scr = check_against_oracle(ma, matrices, keys, 1, superkey=False)
    assert scr["rule2_pruned"] == 0 and scr["rows_verified"] == 18
    # k = 3: the heap is not full, so no rule prunes a table that can score
    got, stats = check_against_oracle(ma, matrices, keys, 3)
    assert [(t, s) for t, s, _ in got] == [(2, 5), (0, 3), (3, 1)]


def test_mapping_is_injective_and_found_in_any_column_order():
    # the key (x, x) needs two different columns holding "x"; the table holds the key in
    # reversed column order and the value "p" in two columns
    tables = [[["x", "q"], ["y", "y"]], [["p", "x", "x"], ["q", "r", "p"]], [["b", "p", "a"]]]
    ma, token_id, matrices = index_lake(tables)
    keys = key_array([("x", "x"), ("y", "y"), ("a", "b"), ("p", "b")], token_id, 2)
    got, _ = check_against_oracle(ma, matrices, keys, None)
    # T0: (y, y) under (0, 1) and (1, 0), the smaller wins; (x, x) has one "x" only.
    # T1: (x, x) under (3, 4). T2: (a, b) under (7, 5) and (p, b) under (6, 5): a tie.
    assert got == [(0, 1, (0, 1)), (1, 1, (3, 4)), (2, 1, (6, 5))]
    # three key columns: the two columns besides the initial one must differ as well
    tables = [[["x", "x", "q"]], [["x", "q", "x", "x"]]]
    ma, token_id, matrices = index_lake(tables)
    keys = key_array([("x", "x", "x")], token_id, 3)
    got, _ = check_against_oracle(ma, matrices, keys, None)
    assert got == [(1, 1, (3, 5, 6))]


@given(st.lists(st.one_of(st.text(alphabet=st.sampled_from(list(" 0123456789abcxyz.-_/éß")), max_size=40),
                          st.text(max_size=8)), max_size=30),
       st.sampled_from([128, 512]))
def test_xash_array_equals_xash_words(values, bits):
    from lakejoin_jupyter.xash import xash_array
    spec = XashSpec(bits)
    assert np.array_equal(xash_array(values, spec), xash_words(values, spec))
