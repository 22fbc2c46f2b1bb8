"""Token hashing and MinHash signatures, shared by the Spark build (inside its read tasks) and
by queries, so both sides produce the same numbers.

MinHash follows datasketch 2.x's default ``affine32`` scheme exactly: the 32-bit unsigned
MurmurHash3 of the token's UTF-8 bytes (``mmh3.hash(token, signed=False)``) is pre-mixed with
the MurmurHash3 finalizer, then permutation k maps h -> a_k * h + b_k mod 2^32, with
(a_k, b_k) drawn from ``numpy.random.RandomState(seed)`` as datasketch draws them. A
signature from :func:`minhash_signatures` is therefore bit-identical to
``datasketch.MinHash(num_perm, seed, hashfunc=lambda s: mmh3.hash(s, signed=False))``
updated with the same tokens (tests/test_hashing.py checks this), and datasketch's
LSH classes can consume our signatures unchanged.
"""
from __future__ import annotations

from typing import Sequence

import mmh3
import numpy as np

MINHASH_SCHEME = "affine32"
EMPTY_HASH = np.uint32(0xFFFFFFFF)
_CHUNK = 1 << 13  # tokens per vectorized block: 8192 x 256 perms x 4 bytes = 8 MiB (cache-sized)


def token_hash32(tokens: Sequence[str]) -> np.ndarray:
    """32-bit unsigned MurmurHash3 (seed 0) of each token's UTF-8 bytes."""
    return np.fromiter((mmh3.hash(t, signed=False) for t in tokens), dtype=np.uint32,
                       count=len(tokens))


def token_hash64(tokens: Sequence[str]) -> np.ndarray:
    """64-bit hash of each token (first half of MurmurHash3 x64 128), for dictionary lookup."""
    return np.fromiter((mmh3.hash64(t, signed=False)[0] for t in tokens), dtype=np.uint64,
                       count=len(tokens))


def fmix32(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's 32-bit finalizer (wrapping uint32 arithmetic)."""
    h = h.astype(np.uint32, copy=True)
    h ^= h >> np.uint32(16)
    h *= np.uint32(0x85EBCA6B)
    h ^= h >> np.uint32(13)
    h *= np.uint32(0xC2B2AE35)
    h ^= h >> np.uint32(16)
    return h


def permutations(num_perm: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The (a, b) permutation parameters datasketch draws for the affine32 scheme."""
    gen = np.random.RandomState(seed)
    a = gen.randint(0, 1 << 31, num_perm, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, num_perm, dtype=np.uint64).astype(np.uint32)
    return a, b


def _permuted_min(mixed: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return (mixed[:, None] * a[None, :] + b[None, :]).min(axis=0)


def minhash_signatures(hashes: np.ndarray, indptr: np.ndarray, num_perm: int,
                       seed: int) -> np.ndarray:
    """Signatures of many sets at once.

    ``hashes`` holds the 32-bit token hashes of all sets back to back; set i owns
    ``hashes[indptr[i]:indptr[i+1]]``. Returns an (n_sets, num_perm) uint32 array; an empty
    set gets all 0xFFFFFFFF, as datasketch leaves it.
    """
    a, b = permutations(num_perm, seed)
    n_sets = len(indptr) - 1
    out = np.full((n_sets, num_perm), EMPTY_HASH, dtype=np.uint32)
    mixed = fmix32(np.asarray(hashes, dtype=np.uint32))
    sizes = np.diff(indptr)
    start = 0
    while start < n_sets:
        # a block of whole sets with at most _CHUNK tokens (or one large set alone)
        lo = indptr[start]
        stop = int(np.searchsorted(indptr, lo + _CHUNK, side="right")) - 1
        stop = max(stop, start + 1)
        stop = min(stop, n_sets)
        hi = indptr[stop]
        if stop == start + 1 and hi - lo > _CHUNK:  # one large set, in slices
            acc = np.full(num_perm, EMPTY_HASH, dtype=np.uint32)
            for s in range(lo, hi, _CHUNK):
                np.minimum(acc, _permuted_min(mixed[s:min(s + _CHUNK, hi)], a, b), out=acc)
            out[start] = acc
        elif hi > lo:
            with np.errstate(over="ignore"):
                block = mixed[lo:hi, None] * a[None, :] + b[None, :]
            nonempty = np.nonzero(sizes[start:stop])[0]
            offsets = (indptr[start:stop][nonempty] - lo).astype(np.int64)
            out[start + nonempty] = np.minimum.reduceat(block, offsets, axis=0)
        start = stop
    return out


def minhash_of_tokens(tokens: Sequence[str], num_perm: int, seed: int) -> np.ndarray:
    """Signature of one token set (a query)."""
    hashes = token_hash32(list(tokens))
    return minhash_signatures(hashes, np.array([0, len(hashes)]), num_perm, seed)[0]
