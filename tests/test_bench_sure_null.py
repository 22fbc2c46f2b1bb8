"""bench/fuzzyjoin_sure_null.py (calibration round 25): ``sure_nulls`` against a brute-force
check over every pair of words, and the pooled decoys against ``null_probability`` called
with the sure nulls' ratios appended to the decoys by hand."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import fuzzyjoin_sure_null as sn  # noqa: E402
from word_brute import one_deletion_close as _close  # noqa: E402
from lakejoin_jupyter.join import fuzzy, match_precision as mp  # noqa: E402



def test_sure_nulls_by_brute_force():
    left = ["Ethereum Classic", "Uniswap: Wrapped Ether", "PTOY", "Kyber Network (old)",
            "2019 Token"]
    right = ["Etherum", "Patientory", "Kyber Crystal", "Wrapped Ether", "2019", "Lunar Coin",
             "Tokne", "Ethereum 2"]
    words = {w for v in left for w in fuzzy._TOKEN.findall(v.lower()) if not w.isdigit()}
    expect = []
    for v in right:
        ws = [w for w in fuzzy._TOKEN.findall(v.lower()) if not w.isdigit()]
        expect.append(bool(ws) and not any(_close(w, u) for w, u in itertools.product(ws, words)))
    got = sn.sure_nulls(left, right)
    assert got.tolist() == expect
    # by hand: a letter dropped ("etherum") or two swapped ("tokne": "toke" from each) and a
    # word held ("kyber") are not sure; digits alone are not; "patientory" beside "ptoy" is
    assert got.tolist() == [False, True, False, False, False, True, False, False]


def test_pooled_candidates_append_the_sure_ratios_to_the_decoys():
    rng = np.random.default_rng(3)
    near = np.sort(rng.uniform(0.05, 1.0, size=(40, 3)), axis=1)
    sure = np.zeros(40, dtype=bool)
    sure[[2, 5, 11, 30]] = True
    n = len(near)
    kw = dict(r_left=np.arange(n), r_dist=near[:, 0], r_near=near)
    c = sn.pooled_candidates(sure)("word", **kw)
    s1, s2 = mp.nearest_ratios(near)
    null, pi0 = mp.null_probability(s1, np.concatenate([s2, s1[sure]]))
    assert np.allclose(c.p, 1.0 - null) and c.pi0 == pi0
    assert fuzzy.nearest_ratios is mp.nearest_ratios          # restored after the build
    plain = fuzzy._Candidates("word", **kw)
    assert not np.allclose(plain.p, c.p)
