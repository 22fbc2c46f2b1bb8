"""Reads of posting lists and set suffixes from the memory-mapped index.

These are the two I/O primitives of the exact top-k overlap methods (JOSIE, MergeList-D,
ProbeSet-D in search/); JOSIE's cost model of them is search/josie_cost.py, fitted at build
time on these very readers. Cold reads: a query on an index not yet in the page cache first
advises the kernel of the pages it will read (:func:`is_cold`, :func:`prefetch`), so they
are read together instead of one fault (and one read-ahead window) at a time;
``LAKEJOIN_READAHEAD=0`` turns it off.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import mmap
import os
import threading
import weakref

import numpy as np

from .arrays import IndexArrays

# ------------------------------------------------------------------------ read-ahead

PAGE = 4096
PREFETCH_RUNS = 4096      # madvise calls per array and read, at most (runs merged past it)
PREFETCH_MAX_PAGES = 4096  # a run longer than this (16 MiB) is left to the kernel's read-ahead
MADV_WILLNEED = 3


def _libc():
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        lib.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        lib.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        return lib
    except (OSError, AttributeError):
        return None


# LAKEJOIN_READAHEAD=0 turns the read-ahead advice off (reads then fault as usual)
_LIBC = _libc() if os.name == "posix" and os.environ.get("LAKEJOIN_READAHEAD", "1") != "0" \
    else None


_MAPPED: dict = {}          # id(array) -> (weak ref, address of item 0 or None if not mapped)


def _mapped_address(arr) -> int | None:
    """Address of ``arr[0]`` when read-ahead is on and ``arr`` is a non-empty (view of a)
    memory map, else None (cached: ``ndarray.ctypes`` alone costs microseconds)."""
    if _LIBC is None or not isinstance(arr, np.ndarray) or arr.size == 0:
        return None
    hit = _MAPPED.get(id(arr))
    if hit is not None and hit[0]() is arr:
        return hit[1]
    b = arr
    while b is not None and not isinstance(b, mmap.mmap):
        b = getattr(b, "base", None)
    addr = arr.__array_interface__["data"][0] if b is not None else None
    if len(_MAPPED) > 4096:
        _MAPPED.clear()
    _MAPPED[id(arr)] = (weakref.ref(arr), addr)
    return addr


def page_runs(first: np.ndarray, last: np.ndarray, max_runs: int = PREFETCH_RUNS):
    """Pages [first_i, last_i] (inclusive) merged into at most ``max_runs`` runs
    [lo, hi): overlapping or adjacent ones always, then across the smallest gaps (reading
    a few unneeded pages beats one more system call per run)."""
    first = np.asarray(first, dtype=np.int64)
    last = np.asarray(last, dtype=np.int64)
    if len(first) == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z
    if len(first) > 1 and (first[1:] < first[:-1]).any():
        o = np.argsort(first, kind="stable")
        first, last = first[o], last[o]
    reach = np.maximum.accumulate(last)
    gap = first[1:] - reach[:-1] - 1                  # pages between run i and the next
    split = np.flatnonzero(gap > 0)
    if len(split) >= max_runs:                        # keep only the max_runs - 1 widest gaps
        n_keep = max_runs - 1
        keep = np.argpartition(gap[split], len(split) - n_keep)[len(split) - n_keep:] \
            if n_keep else np.zeros(0, dtype=np.int64)
        split = np.sort(split[keep])
    lo = np.r_[first[0], first[split + 1]]
    hi = np.r_[reach[split], reach[-1]] + 1
    return lo, hi


def _resident(pages) -> bool:
    """Are all these (virtual) pages in memory? One ``mincore`` of a page each: over a
    long span one call costs far more than a few single pages (it walks every page)."""
    vec = ctypes.c_ubyte()
    ref = ctypes.byref(vec)
    for p in pages:
        if _LIBC.mincore(ctypes.c_void_p(p * PAGE), PAGE, ref) != 0 or not vec.value & 1:
            return False
    return True


def is_cold(arr: np.ndarray, items) -> bool:
    """Is ``arr`` memory-mapped with the pages of ``items`` (sorted indices) not in the page
    cache? A ``mincore`` of the first, middle and last item's page (a few microseconds):
    a sample, so a partly cached index may read as warm (then reads just fault as usual)."""
    base = _mapped_address(arr)
    n = len(items)
    if base is None or n == 0:
        return False
    return not _resident([(base + int(items[i]) * arr.itemsize) // PAGE
                          for i in {0, n // 2, n - 1}])


def prefetch(arr: np.ndarray, starts, lengths=None) -> int:
    """Ask the kernel to read the pages holding ``arr[starts_i : starts_i + lengths_i]``
    (or the items ``arr[starts]``) ahead, when ``arr`` is memory-mapped; returns the
    number of pages advised. Call it when :func:`is_cold` says so.

    Why: a cold read through a memory map faults one page at a time, and each fault reads
    the device's whole read-ahead window around it, one after the other. Advising the
    needed pages first (``madvise(MADV_WILLNEED)``, coalesced into at most PREFETCH_RUNS
    runs) lets the kernel issue those reads together, and the gather that follows finds
    them cached. Every run is advised however many pages the read needs in all (leaving
    scattered pages to the faults reads several times more; docs/algorithms/josie.md).
    Only a single run longer than PREFETCH_MAX_PAGES is left to the kernel's read-ahead,
    which streams a long sequential read while the gather proceeds. Results never depend
    on it (a hint)."""
    base = _mapped_address(arr)
    if base is None:
        return 0
    starts = np.asarray(starts, dtype=np.int64)
    ends = starts + 1 if lengths is None else starts + np.asarray(lengths, dtype=np.int64)
    nonempty = ends > starts
    if not nonempty.all():
        starts, ends = starts[nonempty], ends[nonempty]
    if len(starts) == 0:
        return 0
    isz = arr.itemsize
    first = (base + starts * isz) // PAGE
    last = (base + ends * isz - 1) // PAGE
    run_lo, run_hi = page_runs(first, last, max_runs=len(first))
    short = run_hi - run_lo <= PREFETCH_MAX_PAGES
    if not short.all():
        run_lo, run_hi = run_lo[short], run_hi[short]
    if len(run_lo) > PREFETCH_RUNS:
        run_lo, run_hi = page_runs(run_lo, run_hi - 1)
    for a, b in zip(run_lo.tolist(), run_hi.tolist()):
        _LIBC.madvise(ctypes.c_void_p(a * PAGE), (b - a) * PAGE, MADV_WILLNEED)
    return int((run_hi - run_lo).sum())


# ------------------------------------------------------------------------ the readers

class PlainArrays:
    """Plain ndarray views of an IndexArrays' memory maps (np.memmap slices carry
    per-call subclass overhead that dominates microsecond reads)."""

    def __init__(self, a: IndexArrays):
        for name in ("token_freq", "token_group", "sets_indptr", "sets_tokens", "post_indptr",
                     "post_sets", "post_pos", "post_sizes"):
            setattr(self, name, np.asarray(getattr(a, name)).view(np.ndarray))
        self.n_sets = a.n_sets
        self.n_tokens = a.n_tokens

    def set_tokens(self, set_id: int) -> np.ndarray:
        return self.sets_tokens[self.sets_indptr[set_id]:self.sets_indptr[set_id + 1]]


def plain(a) -> PlainArrays:
    """The PlainArrays of ``a``, made once and kept on it."""
    if isinstance(a, PlainArrays):
        return a
    p = a.__dict__.get("_plain")
    if p is None:
        p = a.__dict__["_plain"] = PlainArrays(a)
    return p


def read_list(a: PlainArrays, token_id: int, readahead: bool = False):
    """One positional posting list: (set ids, positions, set sizes), copied out
    (``readahead``: the index is cold, advise the list's pages first)."""
    lo, hi = a.post_indptr[token_id], a.post_indptr[token_id + 1]
    if readahead:
        for arr in (a.post_sets, a.post_pos, a.post_sizes):
            prefetch(arr, [lo], [hi - lo])
    return a.post_sets[lo:hi].copy(), a.post_pos[lo:hi].copy(), a.post_sizes[lo:hi].copy()


_ARANGE = np.zeros(0, dtype=np.int64)
ARANGE_KEPT = 1 << 25     # ranges() keeps an arange of up to this many entries (256 MiB)


def _arange(total: int) -> np.ndarray:
    """arange(total) as int64, a view of one kept array when it is not too long (a fresh
    16 MiB arange per posting-list read costs more than the read's own gather)."""
    global _ARANGE
    if len(_ARANGE) < total <= ARANGE_KEPT:
        _ARANGE = np.arange(min(max(total, 2 * len(_ARANGE)), ARANGE_KEPT), dtype=np.int64)
    return _ARANGE[:total] if total <= len(_ARANGE) else np.arange(total, dtype=np.int64)


def ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenation of arange(s, s + n) for each (s, n), as a new int64 array."""
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths
    idx = np.repeat(np.asarray(starts, dtype=np.int64) - offsets, lengths)
    idx += _arange(total)
    return idx


def row_spans(indptr: np.ndarray, ids: np.ndarray):
    """(starts, lengths) of the CSR rows ``ids``."""
    lo = indptr[ids]
    return lo, indptr[ids + 1] - lo


SLICE_MIN_MEAN = 256     # read_spans copies slices when spans average at least this long
# ... or when there are at most this many: one slice per span and a concatenate beat one
# gather through an index array up to about this many short spans
FEW_SPANS = 24


def read_spans(arrays, lo: np.ndarray, lens: np.ndarray) -> list:
    """``arr[lo_i : lo_i + lens_i]`` concatenated over i, for each array of ``arrays`` (the
    same spans of each), as new arrays: slices copied when the spans are few or long, else
    one gather through an index array."""
    if len(lens) <= FEW_SPANS or int(lens.sum()) >= SLICE_MIN_MEAN * len(lens):
        spans = list(zip(lo.tolist(), (lo + lens).tolist()))
        return [np.concatenate([arr[s:e] for s, e in spans]) if spans else arr[:0].copy()
                for arr in arrays]
    idx = ranges(lo, lens)
    return [arr.take(idx) for arr in arrays]


def read_lists(a: PlainArrays, token_ids: np.ndarray, positional: bool = True,
               readahead: bool = False):
    """Several posting lists concatenated: (set ids, positions, sizes, lengths); with
    ``positional=False`` only set ids (MergeList needs nothing else). ``readahead``: the
    index is cold (:func:`is_cold`), so advise the lists' pages before reading them (their
    offsets were advised with the query's tokens, :func:`search.overlap.distinct_lists`)."""
    token_ids = np.asarray(token_ids, dtype=np.int64)
    lo, lens = row_spans(a.post_indptr, token_ids)
    arrays = (a.post_sets, a.post_pos, a.post_sizes) if positional else (a.post_sets,)
    if readahead:
        for arr in arrays:
            prefetch(arr, lo, lens)
    out = read_spans(arrays, lo, lens)
    if not positional:
        return out[0], None, None, lens
    return out[0], out[1], out[2], lens


def read_list_ids(a: PlainArrays, token_ids: np.ndarray, readahead: bool = False) -> np.ndarray:
    """The set ids of several posting lists, concatenated, as int64 (what ``bincount``
    counts without a cast of its own): the index array of every entry (:func:`ranges`),
    gathered with ``take`` and written back into that same int64 array, so the large
    temporaries are allocated once (faster than :func:`read_lists` and a ``bincount`` of
    int32, which casts on its own)."""
    token_ids = np.asarray(token_ids, dtype=np.int64)
    lo, lens = row_spans(a.post_indptr, token_ids)
    if readahead:
        prefetch(a.post_sets, lo, lens)
    idx = ranges(lo, lens)
    idx[:] = a.post_sets.take(idx)
    return idx


def count_in_sorted(needles: np.ndarray, haystack: np.ndarray) -> int:
    """How many of the (distinct, sorted) ``needles`` occur in the sorted ``haystack``."""
    if len(needles) == 0 or len(haystack) == 0:
        return 0
    if len(needles) > len(haystack):
        needles, haystack = haystack, needles
    idx = np.searchsorted(haystack, needles)
    idx[idx == len(haystack)] = len(haystack) - 1
    return int(np.count_nonzero(haystack[idx] == needles))


def advise_suffixes(a: PlainArrays, set_ids, starts) -> int:
    """Advise the pages of the set suffixes ``X[start:]`` about to be read (a cold index:
    one contiguous run per set, read together instead of page by page); pages advised."""
    ids = np.asarray(set_ids, dtype=np.int64)
    lo = a.sets_indptr[ids] + np.asarray(starts, dtype=np.int64)
    return prefetch(a.sets_tokens, lo, np.maximum(a.sets_indptr[ids + 1] - lo, 0))


def read_suffix_overlap(a: PlainArrays, set_id: int, start: int, query_rest: np.ndarray,
                        readahead: bool = False):
    """Read set ``set_id`` from 0-based position ``start`` to its end and count its tokens
    in ``query_rest`` (sorted query tokens after the current list). Returns (matches,
    tokens read). ``readahead``: the index is cold, advise the suffix's pages first."""
    lo = a.sets_indptr[set_id] + start
    hi = a.sets_indptr[set_id + 1]
    if hi <= lo:
        return 0, 0
    if readahead:
        prefetch(a.sets_tokens, [lo], [hi - lo])
    suffix = a.sets_tokens[lo:hi].copy()
    return count_in_sorted(suffix, query_rest), int(hi - lo)


class ZeroedScratch:
    """Zero-filled arrays reused from query to query. A query takes one and gives it back
    zeroed again, clearing only the entries it set, so a query over a large index does not
    zero (and fault in) megabytes it barely touches (JOSIE-D's query map has a byte per
    token id, its candidate slots an int32 per set). Thread-safe; an array not given back
    (a query that failed) is dropped, never reused."""

    KEEP = 2                              # free arrays kept per (length, dtype)

    def __init__(self):
        self._free: dict = {}
        self._lock = threading.Lock()

    def take(self, n: int, dtype) -> np.ndarray:
        key = (int(n), np.dtype(dtype).str)
        with self._lock:
            free = self._free.get(key)
            if free:
                return free.pop()
        return np.zeros(int(n), dtype=dtype)

    def give(self, arr: np.ndarray) -> None:
        """Give back ``arr``, which the caller has zeroed again."""
        key = (len(arr), arr.dtype.str)
        with self._lock:
            free = self._free.setdefault(key, [])
            if len(free) < self.KEEP:
                free.append(arr)


SCRATCH = ZeroedScratch()


class QueryMembership:
    """Counts a set suffix's tokens that are in a query (sorted distinct token ids ``q``),
    as :func:`read_suffix_overlap` does with ``query_rest = q``.

    A binary search costs about log2 |Q| per token. A map of the query over all token ids
    answers in one lookup per token. The map is a byte per token id (``bytemap``) up to
    BYTEMAP_MAX_TOKENS token ids, else a bit per token id (``bitmap``, n_tokens / 8 bytes).
    A byte map costs one gather and one count per suffix, where a bit map needs a shift, a
    mask and a test as well (docs/algorithms/josie.md gives the measured gain). Either
    comes zeroed from the scratch pool, so building it costs setting |Q| entries (the bit
    map is charged its zeroing as well). It is built once the searches made so far, plus this
    one for each of the ``expected`` reads still to come (JOSIE passes k: it reads at
    least that many sets to fill its heap), cost about as much as building it would.
    With ``expected`` = 1 this is the ski-rental rule: never more than twice the cheaper
    choice in hindsight."""

    SEARCH_NS = 1.0          # per token per halving of a binary search (measured)
    BUILD_NS_PER_BYTE = 0.25  # zeroing and setting the bitmap, per byte (measured)
    SET_NS = 2.0             # setting one query token's byte in the byte map
    BYTEMAP_MAX_TOKENS = 1 << 28   # a byte per token id up to 256 MiB of scratch

    def __init__(self, q: np.ndarray, n_tokens: int, expected: int = 1):
        self.q = np.asarray(q)
        self.n_tokens = int(n_tokens)
        self.bits = None
        self.spent = 0.0
        self.expected = max(1, int(expected))
        self.reads = 0
        self.bytemap = self.n_tokens <= self.BYTEMAP_MAX_TOKENS
        self.build_ns = self.SET_NS * len(self.q) if self.bytemap else \
            self.BUILD_NS_PER_BYTE * (self.n_tokens / 8 + 8 * len(self.q))

    def _build(self):
        if self.bytemap:
            self.bits = SCRATCH.take(self.n_tokens, np.uint8)
            self.bits[self.q] = 1
            return
        q = self.q.astype(np.int64)
        bits = SCRATCH.take(self.n_tokens // 8 + 1, np.uint8)
        self._bytes = np.zeros(0, dtype=np.int64)
        if len(q):                        # q is sorted: OR the bits of each byte together
            byte = q >> 3
            mask = np.left_shift(np.uint8(1), (q & 7).astype(np.uint8))
            first = np.flatnonzero(np.r_[True, byte[1:] != byte[:-1]])
            self._bytes = byte[first]
            bits[self._bytes] = np.bitwise_or.reduceat(mask, first)
        self.bits = bits

    def release(self) -> None:
        """Done: the map's entries are zeroed again and it goes back to the scratch pool."""
        if self.bits is not None:
            self.bits[self.q if self.bytemap else self._bytes] = 0
            SCRATCH.give(self.bits)
            self.bits = None

    def count(self, a: PlainArrays, set_id: int, start: int):
        """(tokens of set ``set_id`` from position ``start`` on that are in ``q``, tokens
        read). On a cold index the caller advises the suffix first
        (:func:`advise_suffixes`)."""
        lo = a.sets_indptr[set_id] + start
        hi = a.sets_indptr[set_id + 1]
        if hi <= lo:
            return 0, 0
        suffix = a.sets_tokens[lo:hi]
        if self.bits is None:
            small, large = sorted((int(hi - lo), len(self.q)))
            cost = self.SEARCH_NS * small * np.log2(large + 1)
            self.reads += 1
            if self.spent + cost * max(1, self.expected - self.reads + 1) < self.build_ns:
                self.spent += cost
                return read_suffix_overlap(a, set_id, start, self.q)
            self._build()
        if self.bytemap:
            return int(np.count_nonzero(self.bits.take(suffix))), int(hi - lo)
        hit = self.bits[suffix >> 3] & np.left_shift(np.uint8(1), (suffix & 7).astype(np.uint8))
        return int(np.count_nonzero(hit)), int(hi - lo)


# ------------------------------------------------------------------------ calibration

def drop_from_page_cache(paths) -> bool:
    """Ask the kernel to drop ``paths`` from the page cache (fsync first so dirty pages can
    go). Pages mapped by a live memory map stay. Returns False where unsupported."""
    if not hasattr(os, "posix_fadvise"):
        return False
    for p in paths:
        fd = os.open(p, os.O_RDONLY)
        try:
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
    return True


def load_arrays(index_dir) -> PlainArrays:
    """The core arrays of the index folder ``index_dir``, memory-mapped."""
    from .store import ARRAY_FILES
    return plain(IndexArrays(**{n: np.load(os.path.join(index_dir, rel), mmap_mode="r",
                                           allow_pickle=False)
                                for n, rel in ARRAY_FILES.items()}))
