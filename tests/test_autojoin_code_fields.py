"""Auto-Join: a short code with a digit against the source values holding it as a field
(deviation 61: WordNet's sense keys onto their lexicographer file numbers, N:1), and a
combined pair as evidence only through its columns' grams together. Hand-checked pairs and
generated N:1 tables whose right join is known by construction."""
from __future__ import annotations

import random
import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.pairs import (MIN_Q, ColumnValues, _code_part_candidates,
                                                  combined_pair_groups, find_pair_group)
from lakejoin_jupyter.join.autojoin.pipeline import Table
from lakejoin_jupyter.join.autojoin.programset import row_evidence


def test_a_short_code_pairs_with_the_values_holding_it_as_a_field():
    """Hand-checked: "esdras" and "ezra" hold the code 10 as a field (two values: 1/2) and
    00 (with "dog": 1/3), their best is 10; "dog" and "cat" share 05 (1/2, better than
    00's 1/3; "01" is no code). "10" among words ("No. 10 on"), inside a number
    ("x2010") or in a decimal ("2.10") is no field. The codes 43 and 02 are held by one value alone ("y"): a 1:1
    match of two characters, no pair. No value pairs otherwise (a target of two-character
    codes has no q-gram of 3)."""
    keys = ColumnValues.from_cells("sense key", ["esdras%1:10:00::", "ezra%1:10:00::",
                                                 "dog%1:05:00::", "cat%1:05:01::",
                                                 "Peaked at No. 10 on", "x2010",
                                                 "y%3:43:02::", "2.10"])
    codes = ColumnValues.from_cells("file number", ["00", "02", "05", "10", "43"])
    got = {(p.source_row, p.target_row, p.score, p.gram)
           for p in find_pair_group(keys, codes).pairs}
    assert got == {(0, 3, 0.5, "10"), (1, 3, 0.5, "10"), (2, 2, 0.5, "05"),
                   (3, 2, 0.5, "05")}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text("0123:. a%", min_size=0, max_size=9), min_size=1, max_size=10),
       st.lists(st.text("0123a", min_size=1, max_size=2), min_size=1, max_size=6))
def test_code_fields_match_the_oracle(src, tgt):
    """The rule by brute force (any value, any code): per source value of 3+ characters,
    the codes (1-2 letters or digits, a digit among them) it holds between its ends and
    punctuation (no whitespace beside, not inside a decimal), each scored 1/n over the n
    values holding it so, n >= 2."""
    s, t = ColumnValues.from_cells("s", src), ColumnValues.from_cells("t", tgt)

    def holds(code, v):
        for i in range(len(v) - len(code) + 1):
            if v[i:i + len(code)] != code:
                continue
            j = i + len(code)
            if (i and (v[i - 1].isalnum() or v[i - 1].isspace())) or \
                    (j < len(v) and (v[j].isalnum() or v[j].isspace())):
                continue
            run = re.search(r"[0-9.]*\Z", v[:i]).group() + re.match(r"[0-9.]*", v[i:]).group()
            core = run.strip(".")
            if re.fullmatch(r"[0-9]+\.[0-9]+", core) and code[0].isdigit():
                continue     # its first character is a digit of the decimal
            return True
        return False
    codes = [c for c in t.values if c.isalnum() and any(ch.isdigit() for ch in c)]
    want = []
    for v in s.values:
        mine = [] if len(v) < MIN_Q else [c for c in codes if holds(c, v)]
        n = {c: sum(len(x) >= MIN_Q and holds(c, x) for x in s.values) for c in mine}
        want.append(sorted((c, (t.value_ids[c],), 1.0 / n[c]) for c in mine if n[c] > 1))
    assert [sorted(x) for x in _code_part_candidates(s, t)] == want


def _lexicon(seed: int, n_rows: int = 600, n_codes: int = 45):
    """A table of sense keys "lemma%t:FF:LL::" whose field FF is one of ``n_codes``
    two-digit file numbers (each shared by many rows: N:1), with the lex id LL mostly "00"
    (every code also occurs elsewhere in the keys), beside a small sense number and a tag
    count (short numbers that meet the codes by chance); the target lists the codes."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    rows, seen = [], set()
    while len(rows) < n_rows:
        lemma = "".join(rng.choice(letters) for _ in range(rng.randint(3, 9)))
        code = f"{rng.randrange(n_codes):02d}"
        lex = rng.choice(["00"] * 6 + ["01", "02", "03"])
        key = f"{lemma}%{rng.randint(1, 5)}:{code}:{lex}::"
        if key in seen:
            continue
        seen.add(key)
        rows.append((key, str(rng.randint(1, 12)), str(rng.choice([0, 0, 0, 1, 2, 5, 14]))))
    source = pd.DataFrame(rows, columns=["sense key", "sense number", "tag count"])
    target = pd.DataFrame({"file number": [f"{k:02d}" for k in range(n_codes)],
                           "file name": [f"file.{k * 7919 % 1000:03d}x" for k in range(n_codes)]})
    return source, target


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sense_keys_join_their_file_numbers(seed):
    """The join is known by construction: every source row onto the code of its second
    field. The learner must find ``part 2 (split at ":")`` of the key and join every row
    right (before: no row pair reached a code, and the chance programs of the short
    numbers were all that was left)."""
    source, target = _lexicon(seed)
    aj = autojoin(source, target, fuzzy=False)
    assert aj.found, aj.message
    codes = list(target["file number"])
    want = {(i, codes.index(k.split(":")[1])) for i, k in enumerate(source["sense key"])}
    assert set(aj.pairs(fuzzy=False)) == want


def test_a_combined_pair_of_two_digits_is_no_evidence():
    """Hand-checked: the digits "2" and "5" both reach only "25" among 00-44, a combined
    pair of score 1 whose columns' grams hold two characters together: a match below the
    thesis's q = 3, so it names no key for its row; the name grid's combined pairs ("ann"
    and "lee") still do."""
    first, second = ["2", "4", "2"], ["5", "1", "0"]
    codes = [f"{k:02d}" for k in range(45)]
    t = ColumnValues.from_cells("code", codes)
    groups = [g for g in (find_pair_group(ColumnValues.from_cells(c, cells), t)
                          for c, cells in (("a", first), ("b", second))) if g.pairs]
    (group,) = combined_pair_groups(groups, {"a": first, "b": second})
    pair = next(p for p in group.pairs if p.source_row == 0)
    assert (codes[pair.target_row], pair.score, pair.gram) == ("25", 1.0, "25")
    src = Table(pd.DataFrame({"a": first, "b": second}), "source")
    partners, shared = row_evidence(src, codes, groups + [group], "code")
    assert not partners and not shared

    names = ["bob kim", "ann lee", "bob lee", "ann kim"]
    f, s = ["Ann", "Ann", "Bob", "Bob"], ["Lee", "Kim", "Lee", "Kim"]
    t = ColumnValues.from_cells("name", names)
    groups = [find_pair_group(ColumnValues.from_cells(c, cells), t, 1 / 4)
              for c, cells in (("first", f), ("last", s))]
    (group,) = combined_pair_groups(groups, {"first": f, "last": s}, 1 / 4)
    src = Table(pd.DataFrame({"first": f, "last": s}), "source")
    partners, _shared = row_evidence(src, names, groups + [group], "name")
    assert partners == {0: {"ann lee"}, 1: {"ann kim"}, 2: {"bob lee"}, 3: {"bob kim"}}
