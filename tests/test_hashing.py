import mmh3
import numpy as np
from datasketch import MinHash
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.hashing import minhash_of_tokens, minhash_signatures, token_hash32


def datasketch_signature(tokens, num_perm, seed):
    m = MinHash(num_perm=num_perm, seed=seed, hashfunc=lambda s: mmh3.hash(s, signed=False))
    for t in tokens:
        m.update(t)
    return m.hashvalues


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.text(min_size=1, max_size=8), max_size=40), min_size=1, max_size=8),
       st.sampled_from([16, 128, 256]), st.integers(0, 2**31 - 1))
def test_bit_identical_to_datasketch(sets, num_perm, seed):
    sizes = [len(s) for s in sets]
    indptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    flat = [t for s in sets for t in s]
    sig = minhash_signatures(token_hash32(flat), indptr, num_perm, seed)
    for i, s in enumerate(sets):
        assert np.array_equal(sig[i], datasketch_signature(s, num_perm, seed))


def test_large_set_spanning_blocks_and_empty_set():
    big = [f"v{i}" for i in range(150_000)]   # larger than one vectorized block
    assert np.array_equal(minhash_of_tokens(big, 64, 3), datasketch_signature(big, 64, 3))
    assert np.array_equal(minhash_of_tokens([], 64, 3), datasketch_signature([], 64, 3))
