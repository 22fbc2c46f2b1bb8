"""Several named columns: a program reading all of them and joining each key from one value
wins over one reading some of them that folds values onto keys (docs/algorithms/autojoin.md,
deviation 65).

A query of flights (carrier "UA", flight 436) named as ["carrier", "flight"] against flight
codes ("UA0436"): the learner returned `first 2 letters of flight_code` = carrier, joining
every query flight to every code of its carrier, and called it "joins 9/9 keys"."""
from __future__ import annotations

import random

import pandas as pd
import pytest

import lakejoin_jupyter as lj

CARRIERS = ["UA", "AA", "DL", "B6", "EV", "MQ", "US", "WN", "VX"]


def flights(seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """40 query flights of 9 carriers (flight numbers 1-6000, unpadded) and 600 lake codes
    (carrier + number padded to 4) holding 10 of the query's flights."""
    rng = random.Random(seed)
    numbers = rng.sample(range(1, 6000), 700)
    q = pd.DataFrame({"carrier": [CARRIERS[i % 9] for i in range(40)],
                      "flight": numbers[:40],
                      "dest": [rng.choice(["LAX", "SFO", "ORD", "ATL"]) for _ in range(40)]})
    codes = [f"{c}{n:04d}" for c, n in zip(q.carrier[:10], q.flight[:10])]
    codes += [f"{rng.choice(CARRIERS)}{n:04d}" for n in numbers[40:630]]
    fc = pd.DataFrame({"flight_code": codes, "on_time_pct": [rng.randint(50, 99)
                                                             for _ in codes]})
    return q, fc.sample(frac=1, random_state=seed).reset_index(drop=True)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_program_through_every_named_column_wins(seed):
    q, fc = flights(seed)
    aj = lj.autojoin(q, ["carrier", "flight"], fc, "flight_code", fuzzy=False)
    assert aj.found
    assert set(aj.program.columns) == {"carrier", "flight"}
    got = aj.join(q)
    # oracle: the query's carrier and flight written as the codes write them
    want = q.assign(flight_code=q.carrier + q.flight.astype(str).str.zfill(4)).merge(
        fc, on="flight_code")
    assert len(got) == len(want) == 10
    assert sorted(zip(got.carrier, got.flight, got.flight_code)) == \
        sorted(zip(want.carrier, want.flight, want.flight_code))
