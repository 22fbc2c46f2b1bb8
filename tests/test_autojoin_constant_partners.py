"""Deviation 84: a constant of letters the target varies, where the program's other pieces
fix a row's one partner key, is learned again from those rows (fresh6's
legislature_ocd_ids: "sldl" / "sldu" by the chamber "lower" / "upper")."""
import random

import pandas as pd
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.constant_partners import partner_examples
from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program, Substring

STATES = ["NM", "MN", "NV", "OR", "PA", "CO", "MI", "TX", "GA", "FL"]


def _districts(seed: int):
    """Ten states' lower districts 1-30 and upper districts 1-10 (each an upper number a
    lower district holds too: the q-grams tie) and one upper district of its own."""
    rnd = random.Random(seed)
    rows = []
    for s in STATES:
        rows += [(s, "lower", str(d)) for d in range(1, 31)]
        rows += [(s, "upper", str(d)) for d in range(1, 11)]
        rows.append((s, "upper", str(40 + rnd.randint(0, 20))))
    rnd.shuffle(rows)
    src = pd.DataFrame([{"state": s, "chamber": c, "district": d,
                         "score": f"R+{rnd.randint(1, 60)}.{rnd.randint(0, 9)}"}
                        for s, c, d in rows])
    keys = [f"ocd-division/country:us/state:{s.lower()}/sld{c[0]}:{d}" for s, c, d in rows]
    tgt = pd.DataFrame({"division": keys,
                        "population": [str(rnd.randint(10000, 99999)) for _ in keys]})
    tgt = tgt.sample(frac=1, random_state=seed).reset_index(drop=True)
    return src, tgt, keys


def test_chamber_letter_is_read_from_the_source():
    """On these seeds the example sets all drew lower rows and main wrote "/sldl:" as a
    constant (300 right, the 100 upper rows tied onto lower keys); the upper rows whose
    one partner holds "/sldu:" teach the chamber's first letter: every row joins its own."""
    for seed in (2, 3):
        src, tgt, keys = _districts(seed)
        result = autojoin(src, tgt)
        assert result.found
        assert "first letter of `chamber`" in result.program.describe()
        where = {k: i for i, k in enumerate(tgt["division"])}
        assert set(result.pairs(fuzzy=False)) == {(i, where[k]) for i, k in enumerate(keys)}


def test_partner_examples_by_hand():
    """The upper row whose one key around "/sld?:" holds "/sldu:" is a partner; the tied
    row (both chambers' keys) and the row already joined are not."""
    prog = Program((Column("s"), Constant("/sldl:"), Column("d")))
    texts = {"s": ["mn", "nv", "pa", "pa"], "d": ["40", "6", "7", "9"]}
    keys = ["mn/sldu:40", "nv/sldl:6", "nv/sldu:6", "pa/sldl:7", "pa/sldu:9"]
    found = partner_examples(prog, texts, 4, keys)
    assert [(r, keys[j]) for r, j, _k in found] == [(0, "mn/sldu:40"), (3, "pa/sldu:9")]
    assert partner_examples(prog, {"s": ["mn"], "d": ["40"]}, 1, keys) == []  # one value


def _brute(prog, texts, n, keys):
    """Every row whose keys of the template's length with its prefix and suffix are one,
    holding another text at the constant (the first row per prefix and suffix)."""
    const = prog.pieces[1]
    before = Program(prog.pieces[:1]).evaluate(texts, n)
    after = Program(prog.pieces[2:]).evaluate(texts, n)
    counts = {k: keys.count(k) for k in keys}
    seen = {}
    for r in range(n):
        p, s = before[r], after[r]
        if p is None or s is None or not (p or s):
            continue
        hits = [k for k in counts if counts[k] == 1 and k.startswith(p) and k.endswith(s)
                and len(k) == len(p) + len(const.text) + len(s)]
        if len(hits) == 1 and hits[0][len(p):len(p) + len(const.text)] != const.text:
            seen.setdefault((p, s), (r, keys.index(hits[0]), hits[0]))
    return list(seen.values()) if len(seen) >= 2 else []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "ab"]), st.sampled_from(["1", "2", "12"])),
                min_size=1, max_size=8),
       st.lists(st.text(alphabet="ab12-x", min_size=1, max_size=8), max_size=12),
       st.sampled_from(["-x", "x", "-xa"]), st.booleans())
def test_partner_examples_against_brute_force(rows, keys, const, cut):
    """Against a scan of every key: the same partners, for a constant between two column
    reads or after a cut one."""
    first = Substring(Column("s"), 0, 1) if cut else Column("s")
    prog = Program((first, Constant(const), Column("d")))
    texts = {"s": [r[0] for r in rows], "d": [r[1] for r in rows]}
    got = partner_examples(prog, texts, len(rows), keys)
    want = _brute(prog, texts, len(rows), keys)
    assert sorted(got) == sorted(want)
