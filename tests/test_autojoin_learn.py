"""Transformation learning (thesis §4.4.2, Algorithms 4-5) on constructed cases with known
programs, and invariants on random ones."""
from __future__ import annotations

import os
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.join.autojoin.dsl import (Column, Constant, Program, SelectK, compile_expr,
                                                extract)
from lakejoin_jupyter.join.autojoin.learn import (Example, LearnSettings, example_sets,
                                                  context_separators, operands,
                                                  learn_from_set, replaced_operands,
                                                  separators, try_learn_transform, _LEAD,
                                                  MAX_INSERT)
from lakejoin_jupyter.join.autojoin.pairs import PairGroup, RowPair

FIRST = ["Suhela", "Maureen", "Missy", "Carolyn", "Kelly", "Barack", "George", "Ronald",
         "Bill", "Hillary", "Ann", "Peter", "Julia", "Omar", "Li", "Zoë"]
LAST = ["Chowdhury", "Paluzzi", "Payne", "Craddock", "Moore", "Obama", "Bush", "Reagan",
        "Clinton", "Richards", "Burnett", "Nguyen", "O'Neil", "Smith", "Ng", "Müller"]


def people(n, seed=0):
    rng = random.Random(seed)
    pairs = set()
    while len(pairs) < n:
        pairs.add((rng.choice(FIRST), rng.choice(LAST)))
    return sorted(pairs)


def learn(rows, outputs, columns, **kw):
    ex = [Example(tuple(r), o) for r, o in zip(rows, outputs)]
    return try_learn_transform(ex, columns, LearnSettings(**kw))


def agrees(program, rows, outputs, columns):
    f = program.compile(columns)
    return all(f(tuple(r)) == o for r, o in zip(rows, outputs))


def test_names_to_emails():
    ps = people(12, seed=1)
    rows = [(f"{a} {b}", "Elementary School") for a, b in ps]
    truth = Program((extract("Name", [(" ", 0)], None, 1, "lower"),
                     extract("Name", [(" ", 1)], casing="lower"), Constant("@forsyth.k12.ga.us")))
    cols = ["Name", "School"]
    outs = [truth.compile(cols)(r) for r in rows]
    p = learn(rows[:4], outs[:4], cols)
    assert p is not None and agrees(p, rows, outs, cols)
    assert p.size == 3


def test_last_comma_first_with_life_span():
    # Figure 4.1 / Example 4.3.1, inverted: "Obama, Barack(1961-)" -> "Barack Obama"
    rows = [("Obama, Barack(1961-)", "47.0"), ("Bush, George W.(1946-)", "49.4"),
            ("Reagan, Ronald(1911- 2004)", "52.8"), ("Clinton, Bill(1946-)", "55.1"),
            ("Bush, George H. W.(1924-)", "60.9")]
    outs = ["Barack Obama", "George W. Bush", "Ronald Reagan", "Bill Clinton", "George H. W. Bush"]
    cols = ["President", "Approval"]
    p = learn(rows[:3], outs[:3], cols)
    assert p is not None and p.size == 3                 # the thesis's minimum: 3 operators
    assert agrees(p, rows, outs, cols)                   # generalizes to the held-out rows


def test_numeric_year_to_year_month():
    rows = [(1974, "01"), (2001, "12"), (1999, "07"), (1850, "03"), (2020, "11")]
    from lakejoin_jupyter.join.autojoin.dsl import cell_text
    text = [tuple(cell_text(v) for v in r) for r in rows]
    outs = [f"{y}-{m}" for y, m in rows]
    p = learn(text[:3], outs[:3], ["year", "month"])
    assert p is not None and agrees(p, text, outs, ["year", "month"])


def test_hierarchical_codes_n_to_1():
    rows = [("France.01.MIX",), ("United States.01.Government",), ("United States.03.PS-LRG",),
            ("United States.04.Retail",), ("Germany.12.SMB",)]
    outs = ["France.01", "United States.01", "United States.03", "United States.04", "Germany.12"]
    # three examples allow a 2-operator program that cuts "United States.01.x" at fixed
    # letters of the last word; a fourth example without a space rules it out
    p = learn(rows[1:], outs[1:], ["Sub-ATU"])
    assert p is not None and agrees(p, rows, outs, ["Sub-ATU"])


def test_two_columns_with_brackets():
    rows = [("UBAX01", "AXUG General Session"), ("UBAX02", "How2 Session"),
            ("UBAX03", "Master Planning Session"), ("UBAX04", "Financial Reporting")]
    outs = [f"[{a}] {b}" for a, b in rows]
    cols = ["ID", "Session Name"]
    p = learn(rows[:3], outs[:3], cols)
    assert p is not None and agrees(p, rows, outs, cols)
    # "[UBAX0" + ID from letter 6 ties with "[" + ID; CONSTANT wins ties in the thesis
    # (footnote 4), but not against a whole column whose pieces differ between the
    # examples (issue 26 part 1, deviation 25: "UBAX0" is what the three examples share) ...
    assert p.describe() == '"[" + `ID` + "] " + `Session Name`'
    # ... and the group's other pairs tell them apart as well (validation tie-break)
    more = [("UBAX12", "Closing Keynote"), ("UBAX27", "Demo Night")]
    val = [Example(r, f"[{r[0]}] {r[1]}") for r in more]
    ex = [Example(r, o) for r, o in zip(rows[:3], outs[:3])]
    q = try_learn_transform(ex, cols, LearnSettings(), validation=val)
    assert q.describe() == '"[" + `ID` + "] " + `Session Name`'


def test_inconsistent_examples_learn_nothing():
    rows = [("alpha",), ("beta",), ("gamma",)]
    assert learn(rows, ["alpha", "zzz", "gamma"], ["c"]) is None    # "z" comes from nowhere
    assert learn(rows, ["", "b", "c"], ["c"]) is None


def test_size_cap():
    rows = [("a1b2c3d4",), ("e5f6g7h8",), ("i9j0k1l2",)]
    outs = ["1-2-3-4", "5-6-7-8", "9-0-1-2"]
    full = learn(rows, outs, ["c"])
    assert full is not None and full.size == 7 and agrees(full, rows, outs, ["c"])
    assert learn(rows, outs, ["c"], tau=6) is None


# ------------------------------------------------------------------ invariants

WORDS = ["red", "Blue", "green", "ÉCRU", "teal", "olive", "navy", "gold", "rosé", "ink"]


@st.composite
def single_op_case(draw):
    rng = random.Random(draw(st.integers(0, 10**6)))
    sep = draw(st.sampled_from([" ", ", ", "-", "/"]))
    n = draw(st.integers(3, 4))
    rows = []
    for _ in range(n):
        words = [rng.choice(WORDS) + str(rng.randint(0, 99)) for _ in range(rng.randint(2, 4))]
        rows.append((sep.join(words), rng.choice(WORDS)))
    k = draw(st.sampled_from([0, 1, -1]))
    casing = draw(st.sampled_from(["same", "lower", "upper"]))
    start = draw(st.sampled_from([None, 1]))
    truth = extract("text", [(sep, k)], start, None, casing)
    outs = [compile_expr(truth, ["text", "other"])(r) for r in rows]
    return rows, outs


@settings(max_examples=60, deadline=None)
@given(single_op_case())
def test_one_operator_outputs_give_a_one_operator_program(case):
    rows, outs = case
    p = learn(rows, outs, ["text", "other"])
    if len(set(outs)) == 1:        # identical outputs: a constant explains them
        assert p is not None and p.size == 1
        return
    assert p is not None and p.size == 1
    assert agrees(p, rows, outs, ["text", "other"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text("ab -,", min_size=1, max_size=8),
                          st.text("ab -,", min_size=1, max_size=8)), min_size=2, max_size=4),
       st.lists(st.text("ab -,", min_size=1, max_size=8), min_size=2, max_size=4))
def test_any_learned_program_fits_every_example(rows, outs):
    n = min(len(rows), len(outs))
    rows, outs = rows[:n], outs[:n]
    p = learn(rows, outs, ["x", "y"], tau=6)
    if p is not None:
        assert p.size <= 6
        assert agrees(p, rows, outs, ["x", "y"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text("ab -,(", min_size=1, max_size=10),
                          st.text("ab -,(", max_size=10)), min_size=1, max_size=4))
def test_operands_are_what_their_paths_produce(rows):
    examples = [Example(r, "x") for r in rows]
    seen = set()
    for node, vals in operands(examples, ["x", "y"]):
        f = compile_expr(node, ["x", "y"])
        assert tuple(f(r) for r in rows) == vals
        assert vals not in seen and all(vals)
        seen.add(vals)


def test_separators():
    assert separators(["Obama, Barack(1961-)"]) == [", ", ",", " ", "(", "-)", "-", ")"]
    assert separators(["a----b"]) == ["-"]          # runs longer than 3 only as single chars


def test_example_sets_are_distinct_subsets_of_the_top_pairs():
    pairs = [RowPair(i, i, "g" * (20 - i), 1.0) for i in range(20)]
    group = PairGroup("s", "t", pairs)
    s = LearnSettings(top_k=8, sets_per_group=10, examples_per_set=(3, 4))
    sets = example_sets([group, PairGroup("s", "u", pairs[:2])], s)
    assert len(sets) == 2 and sets[1] == []          # a group with 2 pairs is too small
    drawn = [tuple(sorted(p.source_row for p in x)) for x in sets[0]]
    assert len(drawn) == 10 == len(set(drawn))
    assert {len(x) for x in drawn} == {3, 4}
    assert all(r < 8 for x in drawn for r in x)     # only the top-k pairs


def test_example_sets_in_a_many_to_one_group_use_k_distinct_pairs():
    # N:1: ten source rows per target row, in score order (ties keep row order), as the
    # pairs of hierarchical codes come; the k best pairs with distinct rows are 8, one per
    # target row, not the 2 distinct ones among the first 16 pairs.
    pairs = [RowPair(i, i // 10, "x", 0.1) for i in range(80)]
    s = LearnSettings(top_k=16, sets_per_group=10, examples_per_set=(3, 4))
    sets = example_sets([PairGroup("s", "t", pairs)], s)[0]
    assert len(sets) == 10
    assert all(len({p.target_row for p in x}) == len(x) for x in sets)
    assert {p.target_row for x in sets for p in x} <= set(range(8))
    assert len({p.target_row for x in sets for p in x}) > 4


# ------------------------------------------------------------------ Replace (inner whitespace)

def test_inner_spaces_removed_after_a_split():
    rows = [("North Dakota (ND)",), ("Texas (TX)",), ("New York (NY)",), ("Rhode Island (RI)",),
            ("Ohio (OH)",), ("New Mexico (NM)",)]
    outs = [r[0].split(" (")[0].replace(" ", "") for r in rows]
    p = learn(rows[:3], outs[:3], ["state"])
    assert p == Program((extract("state", [(" (", 0)], replace=(" ", "")),))
    assert agrees(p, rows, outs, ["state"])


@st.composite
def spaced_values(draw):
    """Multi-word values behind a delimiter; the output writes them with the spaces removed
    or replaced, in one casing, maybe around a constant."""
    rng = random.Random(draw(st.integers(0, 10 ** 6)))
    new = draw(st.sampled_from(["", "_", "-", "."]))
    casing = draw(st.sampled_from(["same", "lower"]))
    prefix = draw(st.sampled_from(["", "@", "/wiki/"]))
    rows, outs = [], []
    for _ in range(8):
        words = [rng.choice(WORDS) + rng.choice(["", "x", "yz"]) for _ in range(rng.randint(1, 3))]
        value = " ".join([words[0].title()] + words[1:])    # (so the casing shows in any row)
        rows.append((f"{value}; {rng.randint(10, 99)}",))
        out = value.replace(" ", new)
        outs.append(prefix + (out.lower() if casing == "lower" else out))
    return rows, outs


@settings(max_examples=40, deadline=None)
@given(spaced_values())
def test_learned_whitespace_programs_fit_every_row(case):
    """Learned from 4 rows (at least one multi-word), checked on all 8 by brute force. The
    training values must differ in their first letter: when they all begin alike ("Gold..."),
    a constant "Gold" + the rest fits them as well as the whole value, and no learner can
    tell which the other rows need."""
    rows, outs = case
    order = sorted(range(8), key=lambda i: -rows[i][0].count(" "))
    train = order[:1] + order[-3:]
    assume(not os.path.commonprefix([rows[i][0] for i in train]))
    p = learn([rows[i] for i in train], [outs[i] for i in train], ["v"])
    assert p is not None and agrees(p, [rows[i] for i in train], [outs[i] for i in train], ["v"])
    multi = [i for i in range(8) if rows[i][0].split(";")[0].count(" ") >= 1]
    assert agrees(p, [rows[i] for i in multi], [outs[i] for i in multi], ["v"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text("ab -,(_", min_size=1, max_size=10),
                          st.text("ab -_", min_size=1, max_size=10)), min_size=1, max_size=4),
       st.lists(st.text("ab-_.", min_size=1, max_size=12), min_size=4, max_size=4))
def test_replaced_operands_are_what_their_paths_produce_and_matter(rows, outs):
    outs = outs[:len(rows)]
    examples = [Example(r, o) for r, o in zip(rows, outs)]
    plain = operands(examples, ["x", "y"])
    seen = {vals for _n, vals in plain}
    for node, vals in replaced_operands(plain, outs):
        f = compile_expr(node, ["x", "y"])
        assert tuple(f(r) for r in rows) == vals and vals not in seen and all(vals)
        seen.add(vals)
        # whitespace to "" or a delimiter, or a leading word with its punctuation dropped,
        # or a value's one separator run as the text the output writes instead (round 10),
        # or a column's punctuation character as "" or another one, fitting every example
        # (round 11)
        swap = (isinstance(node.of, Column) and len(node.old) == 1
                and not node.old.isalnum() and not node.old.isspace()
                and len(node.new) <= 1 and not node.new.isalnum())
        # or a split's part with one punctuation character as another, where the part is
        # every example's whole output (deviation 36)
        part = (isinstance(node.of, SelectK) and len(node.old) == 1
                and not node.old.isalnum() and not node.old.isspace() and len(node.new) == 1
                and not node.new.isalnum() and not node.new.isspace())
        assert (node.old.isspace() and (node.new == "" or not node.new.isalnum())) or \
            (node.new == "" and _LEAD.fullmatch(node.old)) or \
            (not any(ch.isalnum() for ch in node.old) and len(node.new) <= MAX_INSERT
             and len(node.old) <= 3 and any(ch.isalnum() for ch in node.new)) or swap or part
        if swap:      # only the swap makes this shape; it must fit every example
            assert all(v.lower() in o.lower() for v, o in zip(vals, outs))
        if part:
            assert all(v.lower() == o.lower() for v, o in zip(vals, outs))
        original = compile_expr(node.of, ["x", "y"])
        assert any(v.lower() in o.lower() and original(r).lower() not in o.lower()
                   for r, v, o in zip(rows, vals, outs))


def test_zero_padded_episode_codes():
    """Hand-checked: season and episode numbers -> "S01E05"; the width comes from the
    examples' outputs, and the program pads values the examples never padded."""
    rows = [("1", "5"), ("3", "11"), ("12", "2"), ("2", "13"), ("31", "1"), ("7", "7")]
    outs = [f"S{int(s):02d}E{int(e):02d}" for s, e in rows]
    cols = ["season", "episode"]
    p = learn(rows[:3], outs[:3], cols)
    assert p is not None and agrees(p, rows, outs, cols)
    assert p.describe() == ('"S" + `season` padded with zeros to 2 + "E" + '
                            '`episode` padded with zeros to 2')


def test_padded_variant_generalizes_unpadded_examples():
    """Examples that all have the full width teach no padding; the variant of the program
    whose number pieces are padded to the examples' width joins the short codes too."""
    from lakejoin_jupyter.join.autojoin.learn import padded_variant
    rows = [("219",), ("404",), ("512",)]
    ex = [Example(r, r[0]) for r in rows]
    p = try_learn_transform(ex, ["m49"], LearnSettings())
    assert p.describe() == "`m49`"
    v = padded_variant(p, ex, ["m49"])
    assert v.describe() == "`m49` padded with zeros to 3"
    assert [v({"m49": c}) for c in ("4", "12", "219")] == ["004", "012", "219"]
    # outputs of different widths, or not numbers, have no padded variant
    assert padded_variant(p, [Example(("1234",), "1234")] + ex, ["m49"]) is None
    names = [Example(("ab",), "ab"), Example(("cd",), "cd"), Example(("ef",), "ef")]
    assert padded_variant(try_learn_transform(names, ["c"], LearnSettings()), names, ["c"]) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 999), st.integers(0, 99)), min_size=3, max_size=4,
                unique_by=lambda t: t[0]),
       st.sampled_from(["{a:03d}-{b:02d}", "ID{a:04d}", "{b}/{a:03d}"]))
def test_learned_padding_programs_fit_every_example(pairs, fmt):
    """Any program learned from padded outputs reproduces its examples (brute-force check
    against the outputs written by Python's own formatting)."""
    rows = [(str(a), str(b)) for a, b in pairs]
    outs = [fmt.format(a=a, b=b) for a, b in pairs]
    p = learn(rows, outs, ["a", "b"])
    if p is not None:
        assert agrees(p, rows, outs, ["a", "b"])


GAMES = [("Atlanta Falcons", "New Orleans Saints", "21-Dec-2014", "9037941"),
         ("New Orleans Saints", "Carolina Panthers", "30-Oct-2014", "9037827"),
         ("Miami Dolphins", "New England Patriots", "14-Dec-2014", "9037705"),
         ("St Louis Rams", "San Francisco 49ers", "02-Nov-2014", "9037691"),
         ("Denver Broncos", "Oakland Raiders", "09-Nov-2014", "9037876"),
         ("Tampa Bay Buccaneers", "Carolina Panthers", "14-Dec-2014", "9037831")]


def test_a_field_between_words_is_a_part():
    """Hand-checked (round 5): the home team sits between " at " and " Tickets on "; team
    names have 2-3 words, so no part between non-alphanumeric separators is the team, and
    the separators with letters come from the examples' context."""
    rows = [(f"{a} at {h} Tickets on {d} ({i})", "AFC") for a, h, d, i in GAMES]
    outs = [h for _a, h, _d, _i in GAMES]
    cols = ["Event", "Division"]
    p = learn(rows[:3], outs[:3], cols)
    assert p is not None
    assert p.describe() == 'part 1 (split at " Tickets on ") of part 2 (split at " at ") of `Event`'
    assert agrees(p, rows, outs, cols)


def test_context_separators():
    vals = [f"{a} at {h} Tickets on {d} ({i})" for a, h, d, i in GAMES[:3]]
    outs = [h for _a, h, _d, _i in GAMES[:3]]
    # before the team: "s at " is shared but cut to start at a non-alphanumeric character
    assert context_separators(vals, outs) == [" at ", " Tickets on "]
    assert context_separators(["x-ab-y", "zz-cd-w"], ["ab", "cd"]) == []   # "-": no letters
    assert context_separators(["ab", "cd"], ["ab", "x"]) == []             # output not inside
    assert context_separators(["Q: v1 :end", "Q: v22 :end"], ["V1", "v22"]) == ["Q: ", " :end"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.text("ab o-", min_size=2, max_size=12), st.integers(0, 11),
                          st.integers(1, 5)), min_size=1, max_size=4))
def test_operands_with_context_separators_are_what_their_paths_produce(spec):
    rows = [(v, "c") for v, _i, _n in spec]
    examples = [Example(r, v[min(i, len(v) - 1):min(i, len(v) - 1) + n])
                for r, (v, i, n) in zip(rows, spec)]
    for node, vals in operands(examples, ["x", "y"]):
        f = compile_expr(node, ["x", "y"])
        assert tuple(f(r) for r in rows) == vals


def test_a_set_with_one_bad_pair_learns_from_the_others():
    """Issue 26 round 7: one false pair (or a row of another group) makes every program
    inconsistent (thesis §4.4.2); a failing set of 4 is retried without each example."""
    rows = [("Barack Obama",), ("Bill Clinton",), ("George Bush",), ("Ronald Reagan",)]
    outs = ["obama@wh.gov", "clinton@wh.gov", "bush@wh.gov", "carter@wh.gov"]   # 4 is wrong
    ex = [Example(r, o, i, i) for i, (r, o) in enumerate(zip(rows, outs))]
    assert try_learn_transform(ex, ["name"]) is None
    program, used = learn_from_set(ex, ["name"], LearnSettings(), {})
    assert program.describe() == 'lower(word 2 of `name`) + "@wh.gov"'
    assert [e.source_row for e in used] == [0, 1, 2]
    assert learn_from_set(ex, ["name"], LearnSettings(leave_one_out=False), {})[0] is None
    tried = {frozenset({(0, 0), (1, 1), (2, 2)})}           # learned before: skipped
    assert learn_from_set(ex, ["name"], LearnSettings(), {}, tried=tried)[0] is None
    assert learn_from_set(ex[1:], ["name"], LearnSettings(), {})[0] is None   # 3: no subsets
