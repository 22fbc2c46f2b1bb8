"""A list column as a key partner (docs/algorithms/hits.md, "Key kind"): a row holds each of
its elements, in a query frame (``engine.frame_partners``) as in a lake table's rows
(``MateArrays.key_partners``, the index's rows holding a cell per element), so a list
column makes a key with a repeated integer column when no two rows of a value share an
element, whatever the order of the elements, and not when its cells' JSON texts differ."""
import numpy as np
import pandas as pd

from lakejoin_jupyter.lake.normalize import normalize_many

PORTS = [str(5000 + i) for i in range(30)]


def ports_frame() -> pd.DataFrame:
    """Each port on two rows: ``proto`` (tcp / udp) and ``tags`` (["a"] / ["b", "c"]) tell
    them apart; ``protos`` (["tcp", "x"] / ["x", "udp"]) holds "x" on both rows of every
    port, so after an explode (port, "x") is on two rows: no key, though the two lists,
    read as text, differ."""
    rows = []
    for p in PORTS:
        rows.append({"port": p, "proto": "tcp", "protos": ["tcp", "x"], "tags": ["a"]})
        rows.append({"port": p, "proto": "udp", "protos": ["x", "udp"], "tags": ["b", "c"]})
    return pd.DataFrame(rows)


def test_a_query_frames_list_column_is_read_as_its_elements():
    from lakejoin_jupyter.engine import frame_partners
    df = ports_frame()
    toks = normalize_many(df["port"].tolist())
    per = pd.Series(toks).value_counts().sort_index()
    assert frame_partners(df, "port", toks, list(per.index), per.to_numpy()) == ("proto", "tags")
    # tuples and arrays (a Parquet list column read by pyarrow) read alike
    arrays = df.assign(protos=[np.array(v) for v in df["protos"]],
                       tags=[tuple(v) for v in df["tags"]])
    assert frame_partners(arrays, "port", toks, list(per.index), per.to_numpy()) == \
        ("proto", "tags")


def test_a_lake_tables_list_column_is_read_as_its_elements_too():
    """The same table as the index's rows (a cell per element, in list order): the same
    partners, where reading one element per row (the last) took ``protos`` for one."""
    from lakejoin_jupyter.index.mate_arrays import build_reference
    df = ports_frame()
    table = [[r.port, r.proto, list(r.protos), list(r.tags)] for r in df.itertuples()]
    vocab = sorted({e for r in table for c in r for e in (c if isinstance(c, list) else [c])})
    token_id = {t: i for i, t in enumerate(vocab)}
    ma = build_reference([table], token_id, len(vocab))
    assert ma.key_partners(0, 0, [1, 2, 3], chance=0.01) == [1, 3]
