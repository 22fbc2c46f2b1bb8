"""A Replace of one query row's own text is no generalisation (deviation 86). Found by use:
`lspci -nn` ids ("1af4:1000") against a vendor table learned `first 4 letters of pci_id
without "1af4:"`, which joins the Red Hat row to vendor 1000 (Broadcom), tying on coverage
with `part 1 (split at ":")`; Auto-Join refuses such a program, the transformation search
learns it without the literal, and both join every row to its own vendor."""
from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.join.autojoin.dsl import (Column, Program, Replace, SelectK, Split,
                                                Substring)
from lakejoin_jupyter.join.autojoin.learn import moves_by_row_literal

from conftest import lake_engine

IDS = ["8086:1533", "10de:2204", "1002:73bf", "14e4:165f", "15b3:1017", "1af4:1000",
       "8086:15b8", "144d:a808", "0e11:ae10", "10e1:0690"]
# the query's vendors, vendors equal to some of its device ids (1000, 1533, 15b8), others
VENDORS = sorted({i.split(":")[0] for i in IDS} | {"1000", "1533", "15b8"}
                 | {f"{0x1100 + 7 * n:04x}" for n in range(40)})
LAKE = pd.DataFrame({"vendor_id": VENDORS, "vendor_name": [f"maker {v}" for v in VENDORS]})
QUERY = pd.DataFrame({"pci_id": IDS, "host": [f"h{i:02d}" for i in range(len(IDS))]})


def _literal(old: str) -> Program:
    return Program((Substring(Replace(Column("pci_id"), old, ""), 0, 4),))


def _own_vendor(joined: pd.DataFrame) -> None:
    """Every query row joined to the vendor its id starts with (the hand-checked answer)."""
    assert len(joined) == len(IDS)
    assert sorted(zip(joined["pci_id"], joined["vendor_id"])) == \
        sorted((i, i.split(":")[0]) for i in IDS)


def test_the_rule_on_the_users_programs():
    keys = set(VENDORS).__contains__
    texts = {"pci_id": IDS}
    for old in ("1af4:", "8086:"):          # moves 1af4:1000 onto 1000, 8086:1533 onto 1533
        assert moves_by_row_literal(_literal(old), texts, len(IDS), keys) == \
            Program((Substring(Column("pci_id"), 0, 4),))
    split = Program((SelectK(Split(Column("pci_id"), ":"), 0),))
    assert None is moves_by_row_literal(split, texts, len(IDS), keys)
    # a separator dropped (no letter or digit) is no row's own text
    assert None is moves_by_row_literal(_literal(":"), texts, len(IDS), keys)
    # a literal every row holds is the format, not a row's text
    prefixed = [f"ID-{v}" for v in VENDORS[:10]]
    assert None is moves_by_row_literal(
        Program((Replace(Column("pci_id"), "ID-", ""),)), {"pci_id": prefixed}, 10,
        lambda o: o in set(VENDORS) | set(prefixed))
    # rows that join only through it: nothing is moved
    assert None is moves_by_row_literal(_literal("1af4:"), texts, len(IDS),
                                    lambda o: o in set(VENDORS) - {"1af4"})


def test_autojoin_joins_each_row_to_its_own_vendor():
    from lakejoin_jupyter.join.autojoin import autojoin
    aj = autojoin(QUERY, LAKE, "pci_id", "vendor_id", left_name="mine", right_name="vendors")
    assert aj.found, aj.message
    assert aj.program.describe() == 'part 1 (split at ":") of `pci_id`'
    _own_vendor(aj.join(QUERY))


@pytest.fixture(scope="module")
def vendors_engine(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "pcilake", {"vendors.csv": LAKE},
                       components=["transform"])


@pytest.mark.spark
def test_the_transformation_search_and_its_join(vendors_engine):
    hits = vendors_engine.search(QUERY, "pci_id", method="transform", k=3)
    hit = next(h for h in hits if h.column == "vendor_id")
    # either program without the literal gives each row its own vendor (the join checks it)
    assert hit.details["program"] in ('part 1 (split at ":") of `pci_id`',
                                      'first 4 letters of `pci_id`')
    aj = hit.autojoin(QUERY)
    assert aj.found, aj.message
    _own_vendor(aj.join(QUERY))


_HEX = st.text("0123456789abcdef", min_size=4, max_size=4)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_HEX, _HEX), min_size=3, max_size=12, unique_by=lambda t: t[0]),
       st.lists(_HEX, max_size=8), st.data())
def test_property_a_literal_moving_a_row_is_found_as_brute_force_finds_it(ids, extra, data):
    """Against brute force over every row: `first 4 letters without "<a row's vendor>:"`
    is refused exactly when, for some row the deletion changes, both the output and the
    row's own vendor are keys, and fewer than half the rows given a key change."""
    texts = [f"{v}:{d}" for v, d in ids]
    keys = set(data.draw(st.lists(st.sampled_from([v for v, _ in ids] + [d for _, d in ids]
                                                  + extra), min_size=1)))
    row = data.draw(st.integers(0, len(ids) - 1))
    old = ids[row][0] + ":"
    program = _literal(old)
    outs = [t.replace(old, "")[:4] for t in texts]
    plain = [t[:4] for t in texts]
    changed = [(o, p) for o, p in zip(outs, plain) if o != p]
    expected = 2 * len(changed) < len(texts) and any(o in keys and p in keys
                                                     for o, p in changed)
    assert (moves_by_row_literal(program, {"pci_id": texts}, len(texts),
                                 keys.__contains__) is not None) == expected
