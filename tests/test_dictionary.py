"""The dictionary job's pieces that run without Spark: the binary sort key against Python's
tuple order, and the Arrow task against a brute-force grouping (any batch split)."""
import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.indexing.dictionary import COLUMNS, sort_keys, token_rows

ids = st.integers(min_value=0, max_value=2**31 - 1)
entries = st.lists(st.tuples(st.lists(ids, min_size=1, max_size=6, unique=True).map(sorted),
                             st.text(max_size=8)),
                   min_size=1, max_size=40, unique_by=lambda e: e[1])


@settings(max_examples=300)
@given(entries)
def test_sort_key_orders_like_freq_sids_token(es):
    freq = np.array([len(s) for s, _ in es])
    flat = np.array([i for s, _ in es for i in s], dtype=np.int64)
    keys = sort_keys(freq, flat, pa.array([t for _, t in es], pa.string())).to_pylist()
    for (s, t), k in zip(es, keys):     # the bytes as specified
        assert k == len(s).to_bytes(4, "big") + b"".join(i.to_bytes(4, "big") for i in s) \
            + t.encode()
    by_key = sorted(range(len(es)), key=lambda i: keys[i])
    by_tuple = sorted(range(len(es)), key=lambda i: (len(es[i][0]), tuple(es[i][0]), es[i][1]))
    assert by_key == by_tuple


@settings(max_examples=100)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "bb", "é", "x y"]),
                          st.integers(0, 5), st.integers(0, 3)), min_size=1, max_size=60,
                unique=True),
       st.integers(1, 20))
def test_token_rows_equal_brute_force(rows, batch):
    rows = sorted(rows)
    tab = pa.table({"token": [r[0] for r in rows],
                    "column_id": pa.array([r[1] for r in rows], pa.int32()),
                    "rcode": pa.array([r[2] for r in rows], pa.int32()),
                    "hash64": [len(r[0]) * 7 for r in rows]})
    got = pa.Table.from_batches(list(token_rows(iter(tab.to_batches(max_chunksize=batch)))))
    want = {}
    for t, c, r in rows:
        want.setdefault(t, []).append((c, r))
    assert got.select(list(COLUMNS)).to_pylist() == [
        {"token": t, "hash64": len(t) * 7, "freq": len({c for c, _ in p}),
         "sids": sorted({c for c, _ in p}),
         "pairs": [{"column_id": c, "rcode": r} for c, r in p]} for t, p in sorted(want.items())]
    assert got.column("key").to_pylist() == sort_keys(
        got.column("freq").to_numpy(), np.concatenate(got.column("sids").to_pylist()),
        got.column("token").combine_chunks()).to_pylist()
