"""XASH: the hash MATE builds its row super keys from (MATE §5.2-§5.3).

A value's hash sets at most ``chars + 1`` bits of a ``bits``-wide array: the ``chars``
least frequent characters of the value, each in its alphabet segment (§5.3.1, Eq. 6) at a
region given by its mean position (§5.3.3), the character area rotated by the length
(§5.3.5), and one length bit at the most significant end (§5.3.4). The values hashed are
normalized tokens, the same ones the joins compare, so the super key never loses a
joinable row (§6.3).

Note:
    Variant "reference" (recorded in the manifest):
    - Location and rotation follow the authors' reference code, not the paper's text.
    - Characters outside the alphabet are dropped before choosing the least frequent ones.
    - alpha = 6 for every lake (Eq. 5 per lake would change hashes as the lake grows).
    Details: docs/algorithms/mate.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

ALPHABET = " 0123456789abcdefghijklmnopqrstuvwxyz"
_INDEX = {ch: i for i, ch in enumerate(ALPHABET)}
VARIANT = "reference"
SIZES = (128, 512)


@dataclass(frozen=True)
class XashSpec:
    """XASH parameters (hash size and characters encoded per value)."""
    bits: int = 128
    chars: int = 5               # alpha - 1

    def __post_init__(self):
        if self.bits not in SIZES:
            raise ValueError(f"XASH size must be one of {SIZES} bits (got {self.bits!r}).")
        if not 1 <= self.chars <= len(ALPHABET):
            raise ValueError(f"XASH chars must be in 1..{len(ALPHABET)} (got {self.chars!r}).")

    @property
    def beta(self) -> int:
        """Bits per character segment: the largest beta with 37*beta < bits (Eq. 6)."""
        return (self.bits - 1) // len(ALPHABET)

    @property
    def char_bits(self) -> int:
        return len(ALPHABET) * self.beta

    @property
    def length_bits(self) -> int:
        return self.bits - self.char_bits

    @property
    def words(self) -> int:
        """64-bit words per hash (bit i lives in word i // 64)."""
        return self.bits // 64

    def manifest(self) -> dict:
        return {"bits": self.bits, "chars": self.chars, "ones": self.chars + 1,
                "alphabet": ALPHABET, "beta": self.beta, "length_bits": self.length_bits,
                "variant": VARIANT,
                "location": "smallest region i with mean 0-based position <= (i+1)*len/beta",
                "rotation": "left by floor(37*beta*(len mod length_bits)/length_bits), "
                            "character area only",
                "length_bit": "37*beta + len mod length_bits",
                "characters": "alphabet characters only, least frequent in the value, "
                              "ties in alphabet order",
                "words": self.words, "word_order": "word w holds bits 64w..64w+63"}

    @classmethod
    def from_manifest(cls, section: dict) -> "XashSpec":
        if section.get("variant") != VARIANT:
            raise ValueError(f"XASH variant {section.get('variant')!r} is not the one this "
                             f"version computes ({VARIANT!r}); rebuild the index.")
        return cls(bits=int(section["bits"]), chars=int(section["chars"]))


def xash(value: str, spec: XashSpec = XashSpec()) -> int:
    """XASH of one (normalized) value as a Python int of ``spec.bits`` bits."""
    n = len(value)
    if n == 0:
        return 0
    count: dict = {}
    pos_sum: dict = {}
    for i, ch in enumerate(value):
        if ch in _INDEX:
            count[ch] = count.get(ch, 0) + 1
            pos_sum[ch] = pos_sum.get(ch, 0) + i
    beta, area, lbits = spec.beta, spec.char_bits, spec.length_bits
    chosen = sorted(count, key=lambda ch: (count[ch], _INDEX[ch]))[: spec.chars]
    shift = area * (n % lbits) // lbits
    h = 0
    for ch in chosen:
        # smallest i with pos_sum/count <= (i+1)*n/beta, in integers: ceil(pos_sum*beta/(n*count)) - 1
        region = max(0, -(-(pos_sum[ch] * beta) // (n * count[ch])) - 1)
        bit = _INDEX[ch] * beta + region
        h |= 1 << ((bit + shift) % area)
    return h | (1 << (area + n % lbits))


def xash_words(values: Iterable[str], spec: XashSpec = XashSpec()) -> np.ndarray:
    """XASH of many values as a (n, spec.words) uint64 array."""
    values = list(values)
    out = np.zeros((len(values), spec.words), dtype=np.uint64)
    for i, v in enumerate(values):
        h = xash(v, spec)
        for w in range(spec.words):
            out[i, w] = (h >> (64 * w)) & 0xFFFFFFFFFFFFFFFF
    return out


_LUT = np.full(256, -1, dtype=np.int64)
for _i, _ch in enumerate(ALPHABET):
    _LUT[ord(_ch)] = _i
_CHUNK = 1 << 13


def xash_array(values, spec: XashSpec = XashSpec()) -> np.ndarray:
    """:func:`xash_words` of an Arrow string array (or a list of strings), vectorized with
    numpy for ASCII values (a chunk of values at a time: per-character symbol, then per
    value the counts and position sums of the 37 symbols, the least frequent chosen by one
    sort per value); other values go through :func:`xash`. Equal to ``xash_words``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(list(values), pa.string())
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    arr = arr.cast(pa.large_string())
    out = np.zeros((len(arr), spec.words), dtype=np.uint64)
    for lo in range(0, len(arr), _CHUNK):
        part = arr.slice(lo, _CHUNK)
        ascii_ = pc.string_is_ascii(part).to_numpy(zero_copy_only=False)
        out[lo:lo + len(part)] = _xash_ascii(part, spec)
        for i in np.flatnonzero(~ascii_):
            h = xash(part[int(i)].as_py(), spec)
            out[lo + i] = [(h >> (64 * w)) & 0xFFFFFFFFFFFFFFFF for w in range(spec.words)]
    return out


def _xash_ascii(part, spec: XashSpec) -> np.ndarray:
    n_vals = len(part)
    off = np.frombuffer(part.buffers()[1], dtype=np.int64)[part.offset: part.offset + n_vals + 1]
    data = np.frombuffer(part.buffers()[2], dtype=np.uint8)[off[0]:off[-1]]
    off = off - off[0]
    length = np.diff(off)
    owner = np.repeat(np.arange(n_vals, dtype=np.int64), length)
    pos = np.arange(len(data), dtype=np.int64) - off[owner]
    sym = _LUT[data]
    keep = sym >= 0
    k = len(ALPHABET)
    key = owner[keep] * k + sym[keep]
    count = np.bincount(key, minlength=n_vals * k).reshape(n_vals, k)
    pos_sum = np.bincount(key, weights=pos[keep], minlength=n_vals * k).astype(np.int64).reshape(n_vals, k)
    rank = np.where(count > 0, count * 64 + np.arange(k), np.iinfo(np.int64).max)
    chosen = np.argsort(rank, axis=1, kind="stable")[:, :spec.chars]
    rows = np.arange(n_vals)[:, None]
    cnt = count[rows, chosen]
    ps = pos_sum[rows, chosen]
    n = np.maximum(length, 1)[:, None]
    beta, area, lbits = spec.beta, spec.char_bits, spec.length_bits
    region = np.maximum(0, -(-(ps * beta) // (n * np.maximum(cnt, 1))) - 1)
    shift = area * (n % lbits) // lbits
    bit = (chosen * beta + region + shift) % area
    out = np.zeros((n_vals, spec.words), dtype=np.uint64)
    for j in range(chosen.shape[1]):
        sel = np.flatnonzero(cnt[:, j] > 0)
        b = bit[sel, j]
        out[sel, b // 64] |= np.left_shift(np.uint64(1), (b % 64).astype(np.uint64))
    sel = np.flatnonzero(length > 0)
    b = area + length[sel] % lbits
    out[sel, b // 64] |= np.left_shift(np.uint64(1), (b % 64).astype(np.uint64))
    return out
