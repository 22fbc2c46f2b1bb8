"""Auto-Join deviation 34: an N:1 join of (nearly) every source row onto a few target keys,
hand-built (services -> protocols), and the few-key programs that stay refused."""
import random

import pandas as pd

from conftest import read_case
from lakejoin_jupyter.join.autojoin.dsl import Program, extract
from lakejoin_jupyter.join.autojoin.learn import Candidate
from lakejoin_jupyter.join.autojoin.pipeline import AutoJoinSettings, _acceptable, autojoin

PROTOCOLS = ["ip", "icmp", "igmp", "ggp", "ipencap", "st", "tcp", "egp", "igp", "pup",
             "udp", "hmp", "rdp", "dccp", "xtp", "ddp", "ipv6", "idrp", "rsvp", "gre",
             "esp", "ah", "skip", "rspf", "vmtp", "eigrp", "ospf", "ipip", "pim", "vrrp"]


def _target() -> pd.DataFrame:
    return pd.DataFrame({"protocol": PROTOCOLS,
                         "number": [str(n) for n in range(0, 3 * len(PROTOCOLS), 3)],
                         "alias": [p.upper() for p in PROTOCOLS]})


def _services(protocols, n=120, seed=3) -> pd.DataFrame:
    rng = random.Random(seed)
    ports = rng.sample(range(1, 20000), n)
    return pd.DataFrame({"service": [f"svc{rng.randrange(10 ** 6)}" for _ in ports],
                         "port/protocol": [f"{p}/{rng.choice(protocols)}" for p in ports]})


def _pairs(res) -> set:
    j = res.join()
    return set(zip(j["port/protocol"], j["protocol"]))


def test_every_row_onto_two_keys_is_found():
    # "tcp" / "udp": 2 keys of 30, every one of the 120 source rows joins; main's learner
    # drew no example set (2 keys < 3 examples) and accepted nothing under 3 keys
    src = _services(["tcp", "udp"])
    res = autojoin(src, _target(), fuzzy=False)
    assert res.found
    assert _pairs(res) == {(v, v.split("/")[1]) for v in src["port/protocol"]}


def test_every_row_onto_few_keys_beats_more_keys_through_few_rows():
    # protocol numbers 100..129: the first 3 digits of a port join 24 of them through 45 of
    # the 200 rows (main's learner returned that); the protocol joins 4 keys through all 200
    target = _target()
    target["number"] = [str(100 + i) for i in range(len(target))]
    src = _services(["tcp", "udp", "ddp", "st"], n=200, seed=5)
    res = autojoin(src, target, fuzzy=False)
    assert _pairs(res) == {(v, v.split("/")[1]) for v in src["port/protocol"]}


def test_one_key_through_every_row_is_refused():
    # a constant (or one protocol for every row) joins one key: no join
    src = _services(["tcp"])
    assert not autojoin(src, _target(), fuzzy=False).found


def _cand(coverage, rows):
    program = Program((extract("port/protocol", [("/", 1)]),))
    c = Candidate(program=program, group=0, target_column="protocol", examples=[])
    c.coverage, c.joined_rows = coverage, rows
    c.extra["beyond_examples"] = 0
    return c


def test_few_keys_through_few_rows_is_refused():
    s = AutoJoinSettings()
    assert _acceptable(_cand(2, 300), s, n_keys=57, n_rows=318)        # nearly every row
    assert not _acceptable(_cand(2, 64), s, n_keys=57, n_rows=318)     # a fifth of the rows
    assert not _acceptable(_cand(2, 280), s, n_keys=57, n_rows=318)    # under 90 %
    assert not _acceptable(_cand(1, 318), s, n_keys=57, n_rows=318)    # one key
    assert not _acceptable(_cand(2, 5), s, n_keys=57, n_rows=5)        # under 3 rows per key


def test_a_digit_read_as_a_year_is_not_confirmed_by_the_row_pairs():
    # fresh6's early_senate_marriage_dates (development): `"2" + election_result padded to
    # 3 + "-01-01"` joins 11 year keys through 23 of 107 rows; of the programs joining
    # every row, `"200" + last letter of poll_average + "-01-01"` (10 keys) has 17 rows
    # confirmed by the row pairs, `year + "-01-01"` (4 keys, the truth) all 107
    src, tgt = read_case("autojoin-fresh6/early_senate_marriage_dates", "source", "target")
    j = autojoin(src, tgt, fuzzy=False).join()
    assert len(j) == len(src)
    assert (j["date"] == j["year"] + "-01-01").all()
