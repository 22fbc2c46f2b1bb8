"""Chance matches of short codes (docs/algorithms/autojoin.md, deviation 47): a program may
not win by keys that chance hits of 2-letter codes explain, a join of short codes gets an
estimated precision from the chance rate, a transformation hit no better than chance is
dropped; and named columns are learned from in the first round when another column holds
the same text."""
from __future__ import annotations

import itertools
import random
import string

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import write_lake
from test_autojoin_locales import CODES


def _locales(seed: int = 3) -> tuple:
    """Country codes, and locales of 150 of them ("aa_DE.UTF-8", "aa_DE@euro", ...), every
    territory with a ".UTF-8" form, plus the bare names "syr", "uzb", "eo", "C.UTF-8",
    "POSIX" (no territory; Syria and Uzbekistan have no locale)."""
    rng = random.Random(seed)
    langs = ["aa", "af", "de", "en", "fr", "es", "it", "nl", "pt", "ru", "sr", "uz", "ar",
             "hi", "ja", "ko", "zh", "sv"]
    territories = [c for c in CODES if c not in ("SY", "UZ")]
    rng.shuffle(territories)
    locs = []
    for c in territories[:150]:
        lang = rng.choice(langs)
        for suffix in [".UTF-8"] + rng.sample(["", "@euro", "@latin", ".ISO-8859-1"],
                                              rng.randint(0, 2)):
            locs.append(f"{lang}_{c}{suffix}")
    locs = list(dict.fromkeys(locs + ["syr", "uzb", "eo", "C.UTF-8", "POSIX"]))
    rng.shuffle(locs)
    countries = pd.DataFrame({"code": CODES, "name": [f"country {c}" for c in CODES]})
    return countries, pd.DataFrame({"locale": locs, "charset": "UTF-8"})


def _wrong(aj) -> list:
    j = aj.join(fuzzy=False)
    j = j[j["locale"].notna()]
    return [(c, loc) for c, loc in zip(j["code"], j["locale"])
            if "_" not in loc or loc.split("_")[1][:2] != c]


def test_a_win_by_chance_codes_needs_evidence():
    """`upper(first 2 letters of last part (split at "_"))` joins the 150 territories and
    "syr" -> SY, "uzb" -> UZ: 152 keys against the right program's 150. The two keys come
    from the outputs where the two differ ("SY", "UZ", "EO", "C.", "PO"), 4 of the keys'
    shape, each a key with p = 249 / 650 = 0.383: 2 or more of 4 with probability 0.49 >
    0.05, no evidence, and the right program is kept (no wrong pair)."""
    from lakejoin_jupyter.join.autojoin import autojoin
    countries, locales = _locales()
    aj = autojoin(countries, locales, "code", "locale")
    assert aj.found and aj.source == "right"
    assert _wrong(aj) == [], aj.program.describe()
    assert aj.coverage == 150


def test_chance_gain_by_hand():
    """249 two-letter codes, written with 25 first letters (none begins with "X") and 26
    second ones: p = 249 / 650. A gain of 2 keys from 3 tries (SY, UZ, EO): no evidence;
    5 keys from 5 tries: p^5 = 0.008, evidence."""
    from lakejoin_jupyter.join.autojoin.chance import chance_gain, code_rates, hit_rate
    keys = set(CODES)
    rates = code_rates(keys)
    assert len({c[0] for c in CODES}) == 25 and len({c[1] for c in CODES}) == 26
    p = hit_rate("SY", rates)
    assert p == pytest.approx(249 / 650)
    assert hit_rate("C.", rates) == 0 and hit_rate("SYR", rates) == 0
    assert hit_rate("XA", rates) == 0
    b = ["DE", "AT", None, None, None]
    assert chance_gain(["DE", "AT", "SY", "UZ", "EO"], b, keys, rates)       # 0.33
    # 1 key (UZ) from the tries UZ, EO: 1 - (1 - p)^2 = 0.62
    assert chance_gain(["DE", "AT", "SY", "UZ", "EO"], ["DE", "AT", "SY", None, None],
                       keys, rates)
    many = ["DE", "AT", "FR", "IT", "ES", "PT", "NL"]
    assert not chance_gain(many, b + [None] * 2, keys, rates)          # 5 of 5: p^5 = 0.008
    assert not chance_gain(["DE", "FR"], ["DE", "AT"], keys, rates)     # AT lost: not a gain


def test_tail_is_the_poisson_binomial_tail():
    """Brute force over every outcome of up to 8 events."""
    from lakejoin_jupyter.join.autojoin.chance import tail
    rng = random.Random(5)
    for _ in range(40):
        ps = [rng.choice([0.0, 0.05, 0.3, 0.37, 0.9, 1.0]) for _ in range(rng.randint(0, 8))]
        for u in range(0, len(ps) + 2):
            want = 0.0
            for outcome in itertools.product((0, 1), repeat=len(ps)):
                if sum(outcome) >= u:
                    pr = 1.0
                    for o, p in zip(outcome, ps):
                        pr *= p if o else 1 - p
                    want += pr
            assert tail(ps, u) == pytest.approx(want, abs=1e-12)


def test_short_codes_get_an_estimated_precision_from_the_chance_rate():
    """No 6-character evidence for codes, so the estimate comes from the chance rate. By
    hand: the 20 codes of two different letters of A-E, p = 20 / 25; 40 rows join (each
    code twice); 2 rows give a code of those letters that is no key ("AA", "BB"), each
    standing for p / (1 - p) = 4 rows joined wrongly: 1 - 8 / 40. A null, "a." and "FA"
    (F is at no key's first position) stand for none; a length of fewer than 20 keys
    (MIN_KEYS) has no rate."""
    from lakejoin_jupyter.join.autojoin.chance import code_rates, hit_rate, miss_precision
    every = [a + b for a in "ABCDE" for b in "ABCDE"]
    codes = [c for c in every if c[0] != c[1]]
    others = [c for c in every if c[0] == c[1]]
    assert {c[0] for c in codes} == set("ABCDE") == {c[1] for c in codes}
    rates = code_rates(set(codes))
    assert hit_rate("EA", rates) == pytest.approx(0.8)
    outs = codes * 2 + others[:2] + [None, "a.", "FA"]
    assert miss_precision(outs, set(codes), rates) == pytest.approx(1 - 8 / 40)
    assert code_rates(set(codes[:19])) == {}


def test_a_join_of_short_codes_explains_its_estimate():
    from lakejoin_jupyter.join.autojoin import autojoin
    countries, locales = _locales()
    aj = autojoin(countries, locales, "code", "locale")
    assert aj.estimated_precision is not None and aj.precision_basis == "chance"
    assert aj.estimated_precision > 0.95
    assert "chance rate of its short codes" in aj.explain()
    back = type(aj).from_json(aj.to_json())
    assert back.precision_basis == "chance"


REGIONS = ["Africa", "America", "Asia", "Europe"]
CITIES = ["Abton", "Abhaven", "Belmar", "Dunfield", "Falstad", "Halmar", "Istfield"]


def test_the_first_round_learns_from_the_named_column():
    """The query's `zone` ("Africa/Abton") beside its `city` ("Abton"), named to join the
    lake's `city`: the examples' simplest program is the query's own `city`, which reads no
    named column; it is learned again from `zone` alone, in the first round (without the
    composite step the code before found nothing)."""
    from lakejoin_jupyter.join.autojoin import autojoin
    lake = pd.DataFrame({"zone": [f"{REGIONS[i % 4]}/{c}" for i, c in enumerate(CITIES)],
                         "city": CITIES, "code": [f"Z{i:04d}" for i in range(len(CITIES))]})
    q = pd.DataFrame({"zone": lake["zone"].tolist(), "city": CITIES,
                      "units": range(len(CITIES))})
    aj = autojoin(q, lake, "zone", "city", left_name="df", right_name="zones", composite=False)
    assert aj.found, aj.message
    assert aj.source == "left" and aj.program.columns == ["zone"]
    assert aj.target_program is None
    assert aj.program.describe() == 'part 2 (split at "/") of `zone`'


def _dense_codes(seed: int) -> tuple:
    """60 query codes of 2 letters; a lake column of "ab-p", "ab-q", "ab-r" codes holding
    811 of the 2,028 (40 %); one of the query's codes with "-p" for 54 of them."""
    rng = random.Random(seed)
    pairs = ["".join(t) for t in itertools.product(string.ascii_lowercase, repeat=2)]
    query = rng.sample(pairs, 60)
    codes = [f"{a}-{s}" for a in pairs for s in "pqr"]
    dense = rng.sample(codes, 811)
    glued = [f"{c}-p" for c in query[:54]]
    return query, dense, glued


@pytest.fixture(scope="module")
def codes_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    query, dense, glued = _dense_codes(11)
    root = write_lake(tmp_path_factory.mktemp("chancelake") / "lake", {
        "ref/dense.csv": pd.DataFrame({"triple": dense, "n": range(len(dense))}),
        "ref/glued.csv": pd.DataFrame({"tag": glued, "n": range(len(glued))})})
    out = tmp_path_factory.mktemp("chanceidx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False, components=["transform"])


@pytest.mark.spark
def test_a_transformation_hit_no_better_than_chance_is_dropped(codes_engine, monkeypatch):
    """`lower(code) + "-p"` (the learner stood in for) against the column holding 40 % of
    the codes "ab-p", "ab-q", "ab-r" meets about 40 % of the 60 query codes, as it would
    any 60 codes: dropped; against the query's codes with "-p" it meets 54 of 60 (each at
    p = 54 / 676 or so), far above chance: kept."""
    from lakejoin_jupyter.join.autojoin import discovery
    from lakejoin_jupyter.join.autojoin.dsl import Column, Constant, Program, Substring
    query, dense, glued = _dense_codes(11)
    program = Program((Substring(Column("code"), casing="lower"), Constant("-p")))
    monkeypatch.setattr(discovery, "learn_program", lambda *a, **k: (program, True))
    monkeypatch.setattr(discovery, "_minority_draw", lambda got, *a, **k: got)
    hits = codes_engine.search(pd.DataFrame({"code": query}), "code", method="transform",
                               k=10)
    by_column = {h.column: h for h in hits}
    assert "tag" in by_column
    assert "triple" not in by_column, by_column["triple"].details


def test_a_filled_key_shape_tells_nothing_and_keeps_the_hit():
    """Keys "x-000".."x-199" fill every "x-" + 0/1 + two digits (rate 1): the outputs of
    "X-" + a 3-digit part meet keys whatever produced them, so the test cannot call them a
    coincidence and the hit stands; the 40 % dense codes meeting 40 % are still chance."""
    from lakejoin_jupyter.join.autojoin.chance import above_chance, code_rates
    keys = {f"x-{i:03d}" for i in range(200)}
    assert code_rates(keys)[5][0] == 1.0
    outputs = {f"x-{i:03d}": 1 for i in (3, 17, 42, 77, 101, 150, 199, 5)}
    assert above_chance(outputs, keys)
    query, dense, _ = _dense_codes(11)
    made = {f"{c}-p": 1 for c in query}
    assert not above_chance(made, set(dense))


# --- deviation 48: the rate of the outputs' own characters --------------------------------

def _brute_shuffle(outputs, keys, rates, n):
    """The share of keys among every string made by taking position i's character from any
    fitting output of length n (each choice of one output per position, counted once)."""
    from lakejoin_jupyter.join.autojoin.chance import hit_rate
    fit = [o for o in outputs if o is not None and len(o) == n and hit_rate(o, rates) > 0]
    made = [("".join(fit[j][i] for i, j in enumerate(pick)))
            for pick in itertools.product(range(len(fit)), repeat=n)]
    return sum(1 for s in made if s in keys) / len(made)


_LETTERS = "ABCDE"


@given(keys=st.sets(st.text(_LETTERS, min_size=2, max_size=2), min_size=20),
       long_keys=st.sets(st.text(_LETTERS[:3], min_size=3, max_size=3), min_size=20),
       outputs=st.lists(st.one_of(st.none(), st.text(_LETTERS + "F.", min_size=1, max_size=3)),
                        max_size=7))
@settings(max_examples=150, deadline=None)
def test_the_outputs_rate_is_the_brute_force_share_of_keys(keys, long_keys, outputs):
    """shuffle_rates against a count over every per-position choice of outputs, and the
    estimate: each fitting output that is no key stands for q / (1 - q) wrong rows, q the
    larger of that rate and the chance rate."""
    from lakejoin_jupyter.join.autojoin.chance import (code_rates, hit_rate, miss_precision,
                                                       shuffle_rates)
    keys = keys | long_keys
    rates = code_rates(keys)
    got = shuffle_rates(outputs, keys, rates)
    for n in (2, 3):
        if any(o is not None and len(o) == n and hit_rate(o, rates) > 0 for o in outputs):
            assert got[n] == pytest.approx(_brute_shuffle(outputs, keys, rates, n), abs=1e-12)
        else:
            assert n not in got
    joined = sum(1 for o in outputs if o is not None and o in keys)
    wrong = 0.0
    for o in outputs:
        if o is not None and o not in keys and hit_rate(o, rates) > 0:
            q = max(hit_rate(o, rates), _brute_shuffle(outputs, keys, rates, len(o)))
            wrong += q / (1 - q) if q < 1 else 1.0
    want = None if not joined else max(0.0, 1 - wrong / joined)
    assert miss_precision(outputs, keys, rates) == (
        None if want is None else pytest.approx(want, abs=1e-9))


def _initials(seed: int = 1, n: int = 160) -> tuple:
    """Made-up names (skewed first letters, as names have) and a 2-letter code each, made as
    codes are: the name's first two letters when free and taken (60 %), else its first
    letter and a later one, else any free code."""
    rng = random.Random(seed)
    first = "BBBCCCMMMSSSGGPPTTAALKNDEFHRIJ"
    syllables = ["ra", "lo", "ni", "ta", "ve", "mu", "sa", "go", "ki", "be", "do", "li",
                 "an", "er", "or"]
    names: list = []
    while len(names) < n:
        name = rng.choice(first) + "".join(rng.choice(syllables)
                                           for _ in range(rng.randint(1, 3)))
        if name not in names:
            names.append(name)
    codes, used = {}, set()
    for name in names:
        up = name.upper()
        tries = ([up[:2]] if rng.random() < 0.6 else []) + [up[0] + c for c in up[2:]]
        tries += [a + b for a in up[0] + "ZXQWYV" for b in string.ascii_uppercase]
        codes[name] = next(c for c in tries if c not in used)
        used.add(codes[name])
    source = pd.DataFrame({"name": names, "pop": [str(rng.randint(1, 999)) for _ in names]})
    target = pd.DataFrame({"code": [codes[x] for x in names],
                           "area": [str(i) for i in range(n)]}).sample(frac=1, random_state=seed)
    return source, target, codes


def test_initials_onto_codes_are_not_rated_as_random_codes():
    """`upper(first 2 letters of name)` onto codes made from the names' letters: its wrong
    outputs are the first letters of names, which the codes share, so they meet keys far
    more often than the 160 keys over their letters' slots say. Measured precision 0.47;
    the even chance rate rated it 0.89, the outputs' own characters 0.67."""
    from lakejoin_jupyter.join.autojoin import autojoin
    source, target, codes = _initials()
    aj = autojoin(source, target, "name", "code")
    # shown without the upper() the key comparison folds (deviation 83)
    assert aj.found and aj.program.describe() == "first 2 letters of `name`"
    j = aj.join(fuzzy=False)
    j = j[j["code"].notna()]
    measured = sum(codes[x] == c for x, c in zip(j["name"], j["code"])) / len(j)
    assert measured < 0.55
    assert aj.precision_basis == "chance" and aj.estimated_precision < 0.8


def test_an_estimate_learned_on_the_rows_that_join_is_made_again_on_the_whole_table():
    """Minutes ("00".."59", 30 of them) against the ranks 0..248 of a table, learned on
    the 30 ranks that meet a minute (as a transformation hit learns): no row there is a
    miss, so the estimate was 1.0; on the whole table the ranks 0..59 that meet no minute
    are as many as those that do, and the estimate is 0."""
    from lakejoin_jupyter.join.autojoin import autojoin
    rng = random.Random(4)
    minutes = sorted(rng.sample(range(60), 30))
    query = pd.DataFrame({"minute": [f"{m:02d}" for m in minutes],
                          "n": [str(i) for i in range(30)]})
    ranks = pd.DataFrame({"rank": [str(i) for i in range(249)],
                          "name": [f"country {i}" for i in range(249)]})
    aj = autojoin(query, ranks.iloc[minutes], "minute", "rank")
    assert aj.found and aj.precision_basis == "chance" and aj.estimated_precision == 1.0
    aj = aj.with_right(ranks)
    assert aj.joined_rows == 30 and aj.estimated_precision == pytest.approx(0.0)
