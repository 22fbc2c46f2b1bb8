"""q-gram row-pair discovery (thesis §4.4.1, Algorithm 3) against a brute-force oracle that
tries every prefix of every suffix by scanning all values."""
from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.join.autojoin.pairs import (MAX_GRAM, MIN_Q, ColumnValues, SuffixIndex,
                                                  binary_search_q, find_joinable_row_pairs,
                                                  combined_pair_groups, find_pair_group)

cells = st.lists(st.one_of(st.none(), st.text("abcAB-", min_size=0, max_size=9)),
                 min_size=1, max_size=12)


def distinct_first(cells):
    first = {}
    for row, c in enumerate(cells):
        if c is None or not c.strip():
            continue
        first.setdefault(c.lower(), row)
    return first


def keep_best(best, rows, score, new):
    """The oracle's MaxByScore, written here apart from the product's: (best score, rows)
    after rows ``new`` scored ``score``: theirs alone above the best, joined on a tie."""
    if score > best:
        return score, set(new)
    if score == best:
        return best, rows | set(new)
    return best, rows


def oracle_pairs(src_cells, tgt_cells, min_score):
    """Algorithm 3 by brute force: (source row, target row, score) of each source value's
    best q-gram matches (all ties)."""
    S, T = distinct_first(src_cells), distinct_first(tgt_cells)
    svals, tvals = list(S), list(T)
    out = set()

    def abbreviates(t, v):     # t's first character starts a word of v, the rest follow
        return len(v) >= MIN_Q and any(
            v[i] == t[0] and (i == 0 or not v[i - 1].isalnum())
            and re.fullmatch("".join(".*" + re.escape(c) for c in t[1:]) + ".*", v[i + 1:],
                             re.S) is not None
            for i in range(len(v)))
    codes = [t for t in tvals if len(t) < MIN_Q and t.isalpha()]
    # short codes with a digit ("05", "a1") pair with the values holding them as a field
    digit_codes = [t for t in tvals if len(t) < MIN_Q and t.isalnum()
                   and any(c.isdigit() for c in t)]

    def word_of(t, v):         # t between v's ends or punctuation ("_" too), not whitespace,
        return len(v) >= MIN_Q and any(     # and not in a decimal ("8" of "8.4")
            v.startswith(t, i) and (i == 0 or re.match(r"[^\w\s]|_", v[i - 1]))
            and (i + len(t) == len(v) or re.match(r"[^\w\s]|_", v[i + len(t)]))
            and not in_decimal(v, i) for i in range(len(v)))

    def in_decimal(v, i):      # v[i] in a run of digits and points that, its end points
        lo, hi = i, i          # dropped, is digits "." digits
        while lo > 0 and v[lo - 1] in "0123456789.":
            lo -= 1
        while hi < len(v) and v[hi] in "0123456789.":
            hi += 1
        run = v[lo:hi]
        core = run.strip(".")
        start = lo + (len(run) - len(run.lstrip(".")))
        return bool(re.fullmatch(r"[0-9]+\.[0-9]+", core)) and start <= i < start + len(core)

    def as_words(t, v):        # t occurs in v, not next to an alphanumeric character
        return any(v.startswith(t, i) and (i == 0 or not v[i - 1].isalnum())
                   and (i + len(t) == len(v) or not v[i + len(t)].isalnum())
                   for i in range(len(v)))
    bare = []
    for v in svals:
        # a whole key (3+ characters, a letter, as words of v) whose 1/(n m) is below
        # min_score: score 1, that key alone; of several, those in the most source values
        whole = [t for t in tvals if len(t) >= MIN_Q and re.search(r"[^\W\d_]", t)
                 and t[0].isalnum() and t[-1].isalnum() and as_words(t, v)]
        # not one inside another whole key of v (deviation 51)
        whole = [t for t in whole if not any(t != h and t in h for h in whole)]
        n = {t: sum(t in x for x in svals) for t in whole
             if sum(t in x for x in svals) * sum(t in y for y in tvals) * min_score > 1.0}
        if n:
            out |= {(S[v], T[t], 1.0) for t in whole if n[t] == max(n.values())}
            # beside it, v's 1-to-1 grams longer than those keys (deviation 42)
            longer = max(map(len, n))
            for i in range(len(v)):
                u = v[i:i + MAX_GRAM]
                qs = [h for h in range(MIN_Q, len(u) + 1) if any(u[:h] in t for t in tvals)]
                if not qs or max(qs) <= longer:
                    continue
                g = u[:max(qs)]
                rt = [t for t in tvals if g in t]
                if len(rt) == 1 and sum(g in x for x in svals) == 1:
                    out.add((S[v], T[rt[0]], 1.0))
            continue
        best, rows = 0.0, set()
        # short target values ("ia") pair with the source values they abbreviate ("iowa")
        mine = [t for t in codes if abbreviates(t, v)]
        for t in mine:
            score = 1.0 / (sum(abbreviates(t, x) for x in svals) * len(mine))
            best, rows = keep_best(best, rows, score, {T[t]})
        for t in digit_codes:        # held by 2+ source values (a 1:1 match: none)
            n = sum(word_of(t, x) for x in svals)
            if word_of(t, v) and n > 1:
                best, rows = keep_best(best, rows, 1.0 / n, {T[t]})
        q_min = min(MIN_Q, len(v))       # a value shorter than 3 is probed whole
        for i in range(len(v) - q_min + 1):
            u = v[i:i + MAX_GRAM]
            qs = [h for h in range(q_min, len(u) + 1) if any(u[:h] in t for t in tvals)]
            if not qs:
                continue
            g = u[:max(qs)]
            rt = [t for t in tvals if g in t]
            rs = [s for s in svals if g in s]
            score = 1.0 / (len(rs) * len(rt))
            best, rows = keep_best(best, rows, score, {T[t] for t in rt})
        if best >= min_score and rows:
            out |= {(S[v], r, best) for r in rows}
        else:
            bare.append(v)

    # a value with no pair, labelling one number ("district 1"), pairs with the target
    # values labelling the same number ("ak-01"), 1/(n m)
    def label(v):
        runs = re.findall(r"[0-9]+", v)
        return str(int(runs[0])) if len(runs) == 1 and re.search(r"[^\W\d_]", v) else None
    labelled = set()
    for v in bare:
        if label(v) is None:
            continue
        sv = [x for x in bare if label(x) == label(v)]
        tv = [t for t in tvals if label(t) == label(v)]
        if tv and 1.0 / (len(sv) * len(tv)) >= min_score:
            out |= {(S[v], T[t], 1.0 / (len(sv) * len(tv))) for t in tv}
            labelled.add(v)

    # a value still with no pair, read with its punctuation dropped ("3.2a1" as "32a1"):
    # at each token start, its longest gram spanning a dropped separator (one between two
    # alphanumeric characters) that source and target values hold as whole tokens (runs of
    # digits or letters, whitespace and dropped separators as bounds), the target's as
    # written (no separator inside), 1/(n m), MaxByScore
    def reading(v):
        g, points, dropped = re.sub(r"[^\w\s]|_", "", v), [], 0
        for m in re.finditer(r"(?:[^\w\s]|_)+", v):
            if 0 < m.start() and m.end() < len(v) and v[m.start() - 1].isalnum() \
                    and v[m.end()].isalnum():
                points.append(m.start() - dropped)
            dropped += m.end() - m.start()
        return g, points, bounds_of(g, points)

    def bounds_of(text, points=()):   # where a run of digits or of letters starts or ends
        return {0, len(text)} | set(points) | {
            i for i in range(1, len(text))
            for a, b in [(re.match(r"[^\W_]", text[i - 1]), re.match(r"[^\W_]", text[i]))]
            if bool(a) != bool(b) or (a and b and bool(re.match(r"\d", text[i - 1]))
                                      != bool(re.match(r"\d", text[i])))}

    def whole(g, v, glued=True):       # a target value is read as written
        text, bounds = (reading(v)[0], reading(v)[2]) if glued else (v, bounds_of(v))
        return any(text.startswith(g, k) and k in bounds and k + len(g) in bounds
                   for k in range(len(text)))
    glued = set()
    for v in bare:
        if v in labelled:
            continue
        gv, ps, bounds = reading(v)
        best, rows = 0.0, set()
        for i in sorted(bounds):
            later = [x for x in ps if x > i]
            ok = [gv[i:j] for j in sorted(bounds, reverse=True)
                  if later and j > later[0] and any(whole(gv[i:j], t, False) for t in tvals)]
            if not ok:
                continue
            g = ok[0]
            rt = [t for t in tvals if whole(g, t, False)]
            score = 1.0 / (sum(whole(g, x) for x in svals) * len(rt))
            best, rows = keep_best(best, rows, score, {T[t] for t in rt})
        if best >= min_score and rows:
            out |= {(S[v], r, best) for r in rows}
            glued.add(v)

    # a value still with no pair, made of letter-or-digit tokens joined by one separator
    # character, read with that separator as another the target writes between two
    # letters or digits: it pairs with the target values holding the reading as one whole
    # part (beside it no letter, digit or that separator), 1/(n m), MaxByScore
    def part(g, text, sep):
        return any(text.startswith(g, k)
                   and (k == 0 or not (text[k - 1].isalnum() or text[k - 1] == sep))
                   and (k + len(g) == len(text)
                        or not (text[k + len(g)].isalnum() or text[k + len(g)] == sep))
                   for k in range(len(text)))
    seps = {t[i] for t in tvals for i in range(1, len(t) - 1)
            if not t[i].isalnum() and not t[i].isspace() and t[i - 1].isalnum()
            and t[i + 1].isalnum()}
    for v in bare:
        if v in labelled or v in glued:
            continue
        m = re.fullmatch(r"[^\W_]+(?:([^\w\s]|_)[^\W_]+)+", v)
        if m is None or len(set(re.findall(r"[^\w\s]|_", v))) != 1:
            continue
        best, rows = 0.0, set()
        for c in seps - {m.group(1)}:
            r = v.replace(m.group(1), c)
            rt = [t for t in tvals if part(r, t, c)]
            if not rt:
                continue
            score = 1.0 / (sum(part(v, x, m.group(1)) for x in svals) * len(rt))
            best, rows = keep_best(best, rows, score, {T[t] for t in rt})
        if best >= min_score and rows:
            out |= {(S[v], r, best) for r in rows}
    # rare token bags: equal multisets of 2+ alphanumeric tokens held by one value per side
    def bag(v):
        return tuple(sorted(str(int(t)) if t.isascii() and t.isdigit() else t   # by value
                            for t in re.findall(r"[^\W_]+", v)))
    # and rare number bags: the same over the digit runs alone, between a value of numbers
    # only and one with a letter next to a digit ("1 5" and "S01E05")
    def numbers(v):
        return tuple(sorted(str(int(t)) for t in re.findall(r"[0-9]+", v)))

    def kind(v):
        toks = re.findall(r"[^\W_]+", v)
        if all(t.isascii() and t.isdigit() for t in toks):
            return "pure"
        if re.search(r"[0-9][^\W\d_]|[^\W\d_][0-9]", v):
            return "mixed"
        return None
    bagged = set()
    for v in svals:
        b = bag(v)
        same_s = [x for x in svals if bag(x) == b]
        same_t = [t for t in tvals if bag(t) == b]
        if len(b) >= 2 and len(same_s) == 1 and len(same_t) == 1:
            pair = (S[v], T[same_t[0]])
            out = {x for x in out if x[:2] != pair} | {pair + (1.0,)}   # score 1 wins
            bagged.add(pair)
    for v in svals:
        b = numbers(v)
        same_s = [x for x in svals if numbers(x) == b]
        same_t = [t for t in tvals if numbers(t) == b]
        if (len(b) >= 2 and len(same_s) == 1 and len(same_t) == 1 and kind(v)
                and kind(same_t[0]) and kind(v) != kind(same_t[0])):
            pair = (S[v], T[same_t[0]])
            out = {x for x in out if x[:2] != pair} | {pair + (1.0,)}
            bagged.add(pair)
    # and with 4-digit numbers cut to their last two digits ("2022" as "22"), among the
    # values holding a 2- or 4-digit number
    def cut(v):
        toks = re.findall(r"[^\W_]+", v)
        if len(toks) < 2 or not any(len(t) in (2, 4) and t.isascii() and t.isdigit()
                                    for t in toks):
            return None
        return tuple(sorted(str(int(t[2:] if len(t) == 4 else t)) if t.isascii()
                            and t.isdigit() else t for t in toks))
    for v in svals:
        b = cut(v)
        same_s = [x for x in svals if cut(x) == b]
        same_t = [t for t in tvals if cut(t) == b]
        if b is not None and len(same_s) == 1 and len(same_t) == 1:
            pair = (S[v], T[same_t[0]])
            out = {x for x in out if x[:2] != pair} | {pair + (1.0,)}
            bagged.add(pair)
    # a source row with a bag pair keeps no other pair to another target row
    rows = {}
    for a, b in bagged:
        rows.setdefault(a, set()).add(b)
    return {x for x in out if x[0] not in rows or x[1] in rows[x[0]]}


@settings(max_examples=150, deadline=None)
@given(cells, cells)
def test_pairs_match_the_oracle(src, tgt):
    s = ColumnValues.from_cells("s", src)
    t = ColumnValues.from_cells("t", tgt)
    group = find_pair_group(s, t, min_score=0.0)
    got = {(p.source_row, p.target_row, p.score) for p in group.pairs}
    assert got == oracle_pairs(src, tgt, 0.0)
    # sorted by score, ties: bag pairs (no gram) first, then the longer q-gram
    keys = [(-p.score, p.gram != "", -len(p.gram)) for p in group.pairs]
    assert keys == sorted(keys)


digit_cells = st.lists(st.one_of(st.none(), st.text("ab12090/-", min_size=0, max_size=10)),
                       min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(digit_cells, digit_cells)
def test_pairs_with_numbers_match_the_oracle(src, tgt):
    """Digits: token bags by value, years cut to two digits, labelled numbers."""
    group = find_pair_group(ColumnValues.from_cells("s", src), ColumnValues.from_cells("t", tgt),
                            min_score=0.0)
    assert {(p.source_row, p.target_row, p.score) for p in group.pairs} == \
        oracle_pairs(src, tgt, 0.0)


# tokens of two characters joined by one separator ("pt-br"): no 3-gram without a
# separator; target values join one or two of them with "/" ("x1/pt_br")
sep_value = st.tuples(st.lists(st.sampled_from(["pt", "br", "en", "x1"]), min_size=1,
                               max_size=3),
                      st.sampled_from(["-", "_", ".", "/"])).map(lambda x: x[1].join(x[0]))
sep_cells = st.lists(st.one_of(st.none(), sep_value), min_size=1, max_size=10)
sep_targets = st.lists(st.one_of(st.none(), st.lists(sep_value, min_size=1, max_size=2)
                                 .map("/".join)), min_size=1, max_size=10)


@settings(max_examples=200, deadline=None)
@given(sep_cells, sep_targets)
def test_pairs_with_separators_match_the_oracle(src, tgt):
    """Separators: a value with no pair read glued, or with its separator as the
    target's ("a-b" as "a_b")."""
    group = find_pair_group(ColumnValues.from_cells("s", src), ColumnValues.from_cells("t", tgt),
                            min_score=0.0)
    assert {(p.source_row, p.target_row, p.score) for p in group.pairs} == \
        oracle_pairs(src, tgt, 0.0)


@settings(max_examples=100, deadline=None)
@given(cells, cells, st.sampled_from([1.0, 0.5, 1 / 4]))
def test_min_score_drops_weak_pairs(src, tgt, min_score):
    group = find_pair_group(ColumnValues.from_cells("s", src), ColumnValues.from_cells("t", tgt),
                            min_score=min_score)
    assert {(p.source_row, p.target_row, p.score) for p in group.pairs} == \
        oracle_pairs(src, tgt, min_score)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text("abc", min_size=1, max_size=8), min_size=1, max_size=10, unique=True),
       st.text("abc", min_size=0, max_size=10))
def test_suffix_index_queries_and_binary_search(values, u):
    idx = SuffixIndex(values)
    for h in range(1, len(u) + 1):       # grams shorter than MIN_Q: a short value probed whole
        g = u[:h]
        assert idx.has(g) == any(g in v for v in values)
        assert idx.values_with(g) == tuple(i for i, v in enumerate(values) if g in v)
    longest = max((h for h in range(MIN_Q, len(u) + 1) if any(u[:h] in v for v in values)),
                  default=MIN_Q - 1)
    assert binary_search_q(u, idx) == longest


def test_short_target_values_pair_with_the_values_they_abbreviate():
    """A two-letter code has no q-gram of 3+ characters: it pairs with the source values it
    abbreviates (first letter at a word start, the rest in order), scored 1/(n m)."""
    names = ColumnValues.from_cells("State", ["Iowa", "New York", "Ohio", "Oklahoma", "Utah"])
    codes = ColumnValues.from_cells("abb", ["IA", "NY", "OH", "OK", "UT", "WA"])
    group = find_pair_group(names, codes)
    got = {(p.source_row, p.target_row, p.score) for p in group.pairs}
    # "ohio" is abbreviated by OH only; "oklahoma" by OH and OK (OH also abbreviates ohio:
    # 1/(2*2)), its best is OK (1/(1*2)); WA is in "iowa" but not at a word start
    assert got == {(0, 0, 1.0), (1, 1, 1.0), (2, 2, 0.5), (3, 3, 0.5), (4, 4, 1.0)}
    assert group.pairs[0].gram in ("ia", "ny", "ut")
    # a short number is not an abbreviation ("8" and "13" in a chart position)
    ranks = ColumnValues.from_cells("rank", ["8", "13", "40"])
    notes = ColumnValues.from_cells("notes", ["Peaked at No. 8 on", "Reached No. 13", "Top 40 hit"])
    assert find_pair_group(notes, ranks).pairs == []


def test_the_thesis_example_finds_the_presidents():
    left = ["Barack Obama", "George W. Bush", "Bill Clinton", "George H. W. Bush",
            "Ronald Reagan"]
    right = ["Obama, Barack(1961-)", "Bush, George W.(1946-)", "Clinton, Bill(1946-)",
             "Bush, George H. W.(1924-)", "Reagan, Ronald(1911- 2004)"]
    group = find_pair_group(ColumnValues.from_cells("l", left), ColumnValues.from_cells("r", right))
    best = {p.source_row: p for p in group.pairs if p.score == 1.0}
    # every president finds its own row through a 1-to-1 q-gram ("George W." for Bush)
    assert {r: best[r].target_row for r in best} == {i: i for i in range(5)}
    assert best[1].gram == "george w."


def test_matching_ignores_case_and_groups_by_column_pair():
    names = ColumnValues.from_cells("Name", ["Suhela Chowdhury", "Maureen Paluzzi", "Missy Payne"])
    titles = ColumnValues.from_cells("Title", ["Principal", "Instructor", "Instructor"])
    emails = ColumnValues.from_cells("Email", ["SCHOWDHURY@x.us", "mpaluzzi@x.us", "mipayne@x.us"])
    schools = ColumnValues.from_cells("School", ["Big Creek", "Brookwood", "Princeville"])
    groups = find_joinable_row_pairs([names, titles], [emails, schools])
    by = {(g.source_column, g.target_column): g for g in groups}
    assert {(p.source_row, p.target_row) for p in by[("Name", "Email")].pairs} == \
        {(0, 0), (1, 1), (2, 2)}
    assert {(p.source_row, p.target_row) for p in by[("Title", "School")].pairs} == {(0, 2)}
    assert groups[0].average_score >= groups[-1].average_score


def test_long_values_are_not_keys():
    long = "x" * 300 + "abc"
    s = ColumnValues.from_cells("s", [long, "abcdef"])
    assert s.values == ["abcdef"]


@st.composite
def token_columns(draw):
    """Values made of 2-3 tokens from a few, in any order and with any delimiters (so equal
    token bags, unique or not, are common)."""
    def value():
        toks = draw(st.lists(st.sampled_from(["7", "07", "12", "2014", "Cd", "S", "E"]),
                             min_size=1, max_size=3))
        seps = draw(st.lists(st.sampled_from(["-", "/", " ", ", ", ""]), min_size=len(toks),
                             max_size=len(toks)))
        return "".join(t + s for t, s in zip(toks, seps))[:-1] or toks[0]
    n_s, n_t = draw(st.integers(1, 10)), draw(st.integers(1, 10))
    return [value() for _ in range(n_s)], [value() for _ in range(n_t)]


@settings(max_examples=150, deadline=None)
@given(token_columns())
def test_token_bag_pairs_match_the_oracle(cols):
    src, tgt = cols
    group = find_pair_group(ColumnValues.from_cells("s", src), ColumnValues.from_cells("t", tgt),
                            min_score=0.0)
    assert {(p.source_row, p.target_row, p.score) for p in group.pairs} == \
        oracle_pairs(src, tgt, 0.0)


def test_dates_in_two_formats_pair_by_their_tokens():
    src = ["7/1/2014", "7/2/2014", "12/31/2014"]
    tgt = ["2014-12-31", "2014-7-2", "2014-7-1", "2014-7-11"]
    group = find_pair_group(ColumnValues.from_cells("s", src), ColumnValues.from_cells("t", tgt))
    tokens = {(p.source_row, p.target_row) for p in group.pairs if p.gram == ""}
    assert tokens == {(0, 2), (1, 1), (2, 0)}                 # "2014-7-11" has another bag
    assert {(p.source_row, p.target_row) for p in group.pairs if p.score == 1.0} == tokens


def test_padded_numbers_have_one_token_value():
    """Round 4: "2014 7 1" (three columns joined) and "2014-07-01" are one bag."""
    group = find_pair_group(ColumnValues.from_cells("s", ["2014 7 1", "2014 7 2"]),
                            ColumnValues.from_cells("t", ["2014-07-02", "2014-07-01"]))
    assert {(p.source_row, p.target_row) for p in group.pairs if p.gram == ""} == {(0, 1), (1, 0)}


def test_episode_codes_pair_with_season_and_episode_by_their_numbers():
    """Round 5, hand-checked: "S01E05" is one alphanumeric token, so no token bag equals
    "1 5" (season and episode joined); their numbers are one bag. "S01E10" and "S10E01"
    share {1, 10}: neither pairs by numbers."""
    src = ["1 5", "2 3", "1 10", "10 1", "3 12"]
    tgt = ["S03E12", "S01E10", "S02E03", "S10E01", "S01E05"]
    group = find_pair_group(ColumnValues.from_cells("s", src), ColumnValues.from_cells("t", tgt))
    assert {(p.source_row, p.target_row) for p in group.pairs if p.gram == ""} == \
        {(0, 4), (1, 2), (4, 0)}


def test_short_values_are_probed_whole():
    """Two-letter codes (below q = 3) pair with the one target value holding them; a code
    inside every target value (".svg") scores 1/m and is dropped below min_score; the
    brute-force oracle agrees."""
    codes = ["DZ", "EG", "SV", "NA", "LY", "SD"]
    flags = [f"flags/{c.lower()}.svg" for c in reversed(codes)]
    group = find_pair_group(ColumnValues.from_cells("code", codes),
                            ColumnValues.from_cells("flag", flags), min_score=1 / 4)
    got = {(p.source_row, p.target_row, p.gram) for p in group.pairs}
    assert got == {(0, 5, "dz"), (1, 4, "eg"), (3, 2, "na"), (4, 1, "ly"), (5, 0, "sd")}
    assert {(p.source_row, p.target_row, p.score) for p in group.pairs} == \
        oracle_pairs(codes, flags, 1 / 4)



def oracle_combined(columns, tgt, min_score):
    """Combined evidence by brute force: per source row, the smallest non-empty
    intersection (fewer target rows than any single column reaches; ties: more columns) of
    the rows its columns' best matches reach, then 1/(n m) per target row."""
    reach = {}
    for name, col in columns.items():
        m = {}
        firsts = distinct_first(col)
        by_row = {}
        for s, t, _score in oracle_pairs(col, tgt, min_score):
            by_row.setdefault(s, set()).add(t)
        for v, row in firsts.items():
            if row in by_row:
                m[v] = by_row[row]
        if m:
            reach[name] = m
    names = [c for c in columns if c in reach]
    if len(names) < 2:
        return set()
    combos = {}
    n_rows = len(next(iter(columns.values())))
    for i in range(n_rows):
        have = [(c, columns[c][i].lower(), reach[c][columns[c][i].lower()]) for c in names
                if columns[c][i] is not None and columns[c][i].lower() in reach[c]]
        if len(have) < 2:
            continue
        fewest = min(len(h[2]) for h in have)
        options = []
        for size in (2, 3):
            for subset in itertools.combinations(have, size):
                common = set.intersection(*(h[2] for h in subset))
                if common and len(common) < fewest:
                    options.append((len(common), -size, subset, common))
        if not options:
            continue
        best = min(options, key=lambda o: (o[0], o[1]))
        ties = [o for o in options if (o[0], o[1]) == (best[0], best[1])]
        if len({tuple(h[0] for h in o[2]) for o in ties}) > 1:
            return None                   # several subsets tie: the order decides, skip
        key = (tuple(h[0] for h in best[2]), tuple(h[1] for h in best[2]))
        combos.setdefault(key, (i, best[3]))
    count = {}
    for (cols, _v), (_i, common) in combos.items():
        for j in common:
            count[(cols, j)] = count.get((cols, j), 0) + 1
    return {(i, j, 1.0 / (count[(cols, j)] * len(common)))
            for (cols, _v), (i, common) in combos.items() for j in common
            if 1.0 / (count[(cols, j)] * len(common)) >= min_score}


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_combined_pairs_match_the_oracle(data):
    n = data.draw(st.integers(2, 9))
    width = data.draw(st.integers(2, 3))
    col = st.lists(st.one_of(st.none(), st.sampled_from(["ann", "bob", "cyd", "dee", "lee"])),
                   min_size=n, max_size=n)
    columns = {f"c{k}": data.draw(col) for k in range(width)}
    word = st.sampled_from(["ann", "bob", "cyd", "dee", "lee", "nob"])
    tgt = data.draw(st.lists(st.one_of(st.lists(word, min_size=1, max_size=3).map(" ".join),
                                       st.text("abcdelnoy ", max_size=8)),
                             min_size=1, max_size=12))
    min_score = data.draw(st.sampled_from([0.0, 1 / 4]))
    want = oracle_combined(columns, tgt, min_score)
    if want is None:
        return
    t = ColumnValues.from_cells("t", tgt)
    groups = [find_pair_group(ColumnValues.from_cells(c, cells), t, min_score)
              for c, cells in columns.items()]
    got = combined_pair_groups([g for g in groups if g.pairs], columns, min_score)
    assert {(p.source_row, p.target_row, p.score) for g in got for p in g.pairs} == want


def test_name_grid_pairs_through_both_columns():
    """Hand-checked: 2 first names x 2 last names; each column alone reaches 2 targets
    (score 1/2), both together the one right target (score 1)."""
    first, last = ["Ann", "Ann", "Bob", "Bob"], ["Lee", "Kim", "Lee", "Kim"]
    tgt = ["bob kim", "ann lee", "bob lee", "ann kim"]
    t = ColumnValues.from_cells("name", tgt)
    groups = [find_pair_group(ColumnValues.from_cells(c, cells), t, 1 / 4)
              for c, cells in (("first", first), ("last", last))]
    assert all(p.score == 0.5 for g in groups for p in g.pairs)
    (group,) = combined_pair_groups(groups, {"first": first, "last": last}, 1 / 4)
    assert group.source_column == "first & last" and group.target_column == "name"
    assert sorted((p.source_row, p.target_row, p.score) for p in group.pairs) == \
        [(0, 1, 1.0), (1, 3, 1.0), (2, 2, 1.0), (3, 0, 1.0)]


@given(st.lists(st.tuples(st.sampled_from([0.25, 0.5, 1.0]), st.integers(0, 9)), max_size=12))
def test_max_by_score_keeps_every_item_tied_at_the_best_score(offers):
    """MaxByScore's one helper (best pairs, glued and swapped pairings): after every offer,
    the items kept are those of the highest score so far, in the order offered."""
    from lakejoin_jupyter.join.autojoin.pairs import _max_by_score
    best, kept = 0.0, []
    for score, item in offers:
        best = _max_by_score(best, kept, score, item)
    top = max((s for s, _ in offers), default=0.0)
    assert best == top
    assert kept == [i for s, i in offers if s == top and top > 0.0]
