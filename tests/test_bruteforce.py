"""The reference index builder and the brute-force oracle, against plain Python sets."""
import numpy as np
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.index.arrays import build_arrays
from lakejoin_jupyter.search import bruteforce

lakes = st.lists(st.lists(st.sampled_from([f"t{i}" for i in range(30)]), max_size=25),
                 min_size=1, max_size=25)


def test_paper_example_2():
    # JOSIE Example 2/3: X1={x1,x100,x200}, X2={x2,x5}, X3={x2}, X4={x2..x101}
    sets = [["x1", "x100", "x200"], ["x2", "x5"], ["x2"], [f"x{i}" for i in range(2, 102)]]
    ref = build_arrays(sets)
    q = ref.token_ids(["x1", "x2", "x100", "x200"])
    assert bruteforce.topk(ref.arrays, q, 2) == [(0, 3), (3, 2)]


@settings(max_examples=60, deadline=None)
@given(lakes, st.lists(st.sampled_from([f"t{i}" for i in range(35)]), min_size=1, max_size=20))
def test_arrays_and_oracle_match_python_sets(sets, query):
    ref = build_arrays(sets)
    a = ref.arrays
    # order: ascending frequency, identical posting lists adjacent and sharing a group
    assert np.all(np.diff(a.token_freq) >= 0)
    plists = [tuple(a.postings(t)[0]) for t in range(a.n_tokens)]
    for t in range(1, a.n_tokens):
        assert (a.token_group[t] == a.token_group[t - 1]) == (plists[t] == plists[t - 1])
    # sets sorted; postings positions point back at the token
    for sid in range(a.n_sets):
        toks = a.set_tokens(sid)
        assert list(toks) == sorted(toks)
        assert {ref.tokens[t] for t in toks} == set(sets[sid])
    for t in range(a.n_tokens):
        sids, pos, sizes = a.postings(t)
        assert list(sids) == sorted(sids)
        for s, p, z in zip(sids, pos, sizes):
            assert a.set_tokens(s)[p] == t and z == len(set(sets[s]))
    # oracle
    q = ref.token_ids(query)
    s = bruteforce.scores(a, q, query_size=len(set(query)))
    for sid, toks in enumerate(sets):
        inter = len(set(toks) & set(query))
        assert s.overlap[sid] == inter
        assert np.isclose(s.containment[sid], inter / len(set(query)))
        union = len(set(toks) | set(query))
        assert np.isclose(s.jaccard[sid], inter / union if union else 0)
