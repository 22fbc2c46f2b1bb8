"""A lake column of integers that repeat read as a key per category when the query frame's
pairs meet its table's (engine.Engine._frame_pair, mate_arrays.pair_matches): flight numbers
that repeat across carriers and days rank above coincidental altitudes (newuser16 D6)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lakejoin_jupyter.index.mate_arrays import pair_matches

from conftest import write_lake


def test_pair_matches_against_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(200):
        n, m = int(rng.integers(1, 30)), int(rng.integers(1, 20))
        lk, lp = rng.integers(-1, 6, n), rng.integers(-1, 4, n)
        qk, qp = rng.integers(-1, 8, m), rng.integers(-1, 5, m)
        held = int((qp >= 0).sum()) + int(rng.integers(0, 3))   # values the index lacks
        lake_pairs = {(a, b) for a, b in zip(lk, lp) if a >= 0 and b >= 0}
        lake_keys = {a for a in lk if a >= 0}
        paired = sum((a, b) in lake_pairs for a, b in zip(qk, qp))
        keyed = sum(a in lake_keys for a in qk)
        share = {b: float((qp == b).sum()) / max(held, 1) for b in range(5)}
        chance = sum(share[b] for a in qk if a in lake_keys for (x, b) in lake_pairs if x == a)
        got = pair_matches(lk, lp, qk, qp, held)
        assert got[:2] == (paired, keyed) and got[2] == pytest.approx(chance)
        rows = np.arange(n)
        assert pair_matches(lk, (rows, lp), qk, qp, held)[:2] == (paired, keyed)


def _lake(tmp_path):
    ranges = {"AA": range(1001, 1031), "DL": range(1021, 1051), "UA": range(1041, 1071),
              "B6": range(1061, 1091)}            # each number flown by one or two carriers
    flights = pd.DataFrame([{"day": d, "carrier": c, "flight": f, "delay": (f * d) % 37 - 5.5}
                            for d in range(1, 9) for c, fs in ranges.items() for f in fs])
    true = [("AA", f) for f in range(1001, 1008)] + [("DL", f) for f in range(1031, 1038)] + \
        [("UA", f) for f in range(1051, 1058)] + [("B6", f) for f in range(1081, 1088)]
    other = [(["AA", "DL", "UA", "B6"][i % 4], 3001 + i) for i in range(12)]
    query = pd.DataFrame(true + other, columns=["carrier", "flight"])
    query["tailnum"] = [f"N{i:03d}X" for i in range(len(query))]
    coincident = [1001, 1002, 1003, 1004, 1031, 1032, 1033] + list(range(3001, 3007))
    alt = coincident + [v for v in range(100, 160) for _ in range(2)]     # 13 once, 60 twice
    airports = pd.DataFrame({"faa": [f"A{i:03d}" for i in range(len(alt))], "alt": alt,
                             "dst": [["A", "N", "U"][v % 3] for v in alt]})
    root = write_lake(tmp_path / "lake", {"air/flights.csv": flights,
                                          "geo/airports.csv": airports})
    return root, query


@pytest.mark.spark
def test_flight_numbers_per_carrier_rank_above_coincidental_altitudes(spark, tmp_path):
    """Hand-checked: 28 of the 40 query flights are in `flights` (8 rows each, the number
    repeats per day and per carrier), 13 equal an altitude held once (the other altitudes
    twice). As numbers, flight scores 0.7 x 0.3 / (1 + log2 8) = 0.0525 below the altitudes'
    0.325 x 0.3 = 0.0975; the query's (carrier, flight) pairs are flights' on all 28 rows
    (by chance on about 7: each number has one carrier there, about a quarter of the
    query's), so flight is a key per carrier: 0.7 x (0.3 + 0.7 / 4) = 0.3325, first."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    root, query = _lake(tmp_path)
    build(root, tmp_path / "lake.index", spark=spark, progress=False)
    engine = open_index(tmp_path / "lake.index")
    res = engine.search(query, "flight", k=None, rank="useful")
    assert [(h.table, h.column) for h in res] == [("air/flights", "flight"),
                                                  ("geo/airports", "alt")], res
    first, second = res
    assert (first.key_kind, first.key_warning) == ("identifier", None)
    assert first.usefulness == pytest.approx(0.7 * (0.3 + 0.7 / 4))
    assert second.key_kind == "number" and second.usefulness == pytest.approx(0.325 * 0.3)
    assert first.details["frame_pair"] == {"lake": "carrier", "frame": "carrier",
                                           "rows": 28, "of": 40}
    note = [n for n in res.notes if "per carrier" in n]
    assert len(note) == 1 and "-c carrier -c flight" in note[0], res.notes
    # the lake column's own kind is unchanged: without the frame's carriers, a measure
    for q in (query["flight"], query[["flight", "tailnum"]]):
        res = engine.search(q, "flight" if isinstance(q, pd.DataFrame) else None,
                            k=None, rank="useful")
        assert [h.table for h in res] == ["geo/airports", "air/flights"], res
        assert res[1].key_kind == "number" and "frame_pair" not in res[1].details
    # carriers that do not fly those numbers there (each moved to the next): no pairs meet
    moved = query.assign(carrier=query["carrier"].map({"AA": "DL", "DL": "UA", "UA": "B6",
                                                       "B6": "AA"}))
    res = engine.search(moved, "flight", k=None, rank="useful")
    assert [h.table for h in res] == ["geo/airports", "air/flights"], res
    assert res[1].key_kind == "number" and not any("per carrier" in n for n in res.notes)


def _category_by_hand(col: pd.Series, most=None):
    """A frame column's token per row (per element of a list column) when it is a category
    column, else None, computed cell by cell: text dtype, its distinct tokens text by the
    profile's type, fewer than 0.9 of the rows holding one, at most ``most`` of them."""
    from lakejoin_jupyter.indexing.profile import tokens_type
    from lakejoin_jupyter.lake.normalize import normalize_value
    if not (col.dtype == object or isinstance(col.dtype, (pd.StringDtype, pd.CategoricalDtype))):
        return None
    cells = col.tolist()
    lists = all(isinstance(v, list) or v is None for v in cells) and \
        any(isinstance(v, list) for v in cells)
    tokens = [normalize_value(e) for v in cells if isinstance(v, list) for e in v] if lists \
        else [normalize_value(v) for v in cells]
    held = [t for t in tokens if t is not None]
    n = len(set(held))
    if 0 < n < 0.9 * len(held) and (most is None or n <= most) \
            and tokens_type(sorted(set(held))) in ("string", "date"):
        return tokens
    return None


def test_one_category_rule_for_partners_and_pairing():
    """``frame_category`` (the rule of frame_partners and of the frame pairing) against the
    rule computed cell by cell, on random columns: texts with case and space variants
    (unique as written yet a category once normalized), mixed cells (1, True, "1", 2.0),
    integers, lists, categorical and string dtypes, and columns of hundreds of texts; the
    pairing's categories (cached per text column: a frame read again, or changed in place
    since) are the same columns but lists (one frame value per row)."""
    import types
    from lakejoin_jupyter.engine import Engine, frame_category
    rng = np.random.default_rng(26)
    pools = {"text": ["tcp", "udp", "TCP", " tcp ", "quic", None, "x1", "A", "a"],
             "mixed": ["a", "b", 1, True, "1", None, 2.0, "c"], "ints": [1, 2, 3, 4, None],
             "lists": [["a", "b"], ["b"], [], None, ["A"]], "variants": ["p", "P", " p", "q"],
             "dates": ["15/01/2025", "15/02/2025", "2025-03-15", "1/2/24", None, "May"],
             # enough distinct texts to be normalized at once (Arrow), with case variants
             "many": [f"{w}{i}" for i in range(160) for w in ("Name ", "name", "NAME  ")],
             "ids": [f"ID-{i}" for i in range(3000)]}
    seen = set()
    engine = Engine.__new__(Engine)       # the pairing's categories, cached per text column

    def read(frame):
        q = types.SimpleNamespace(whole=frame, n_columns=1, spark=False, n_rows=len(frame),
                                  columns=("port",), cache={})
        return {name: [None if c < 0 else toks[c] for c in cells]
                for name, cells, toks in engine._frame_categories(q)}

    for it in range(400):
        n = int(rng.integers(3, 40)) if it % 10 else int(rng.integers(300, 700))
        df = pd.DataFrame({"port": rng.choice([5000, 5001, 5002, None], n).tolist()})
        for j, kind in enumerate(rng.choice(list(pools), 3)):
            pool = pools[kind]
            s = pd.Series([pool[i] for i in rng.integers(0, len(pool), n)], dtype=object)
            if kind == "text":
                s = s.astype(["object", "category", "string"][int(rng.integers(0, 3))])
            df[f"c{j}"] = s
        if it % 3:                 # read before: again as it was, or changed in place since
            read(df)
            col = df.columns[int(rng.integers(1, 4))]
            if it % 3 == 2 and df[col].dtype == object and len(df) > 1 and \
                    not any(isinstance(v, list) for v in df[col]):
                df.loc[0, col], df.loc[1, col] = df.loc[1, col], "P"
        pairing = read(df)
        for c in df.columns[1:]:
            most = int(rng.integers(1, 8))
            for bound in (None, most):
                want = _category_by_hand(df[c], bound)
                got = frame_category(df[c], bound)
                if got is not None:
                    rows, distinct = got
                    codes = rows[1] if isinstance(rows, tuple) else rows
                    got = [None if k < 0 else distinct[k] for k in codes]
                assert got == want, (c, bound, df[c].tolist())
                seen.add((want is None, bound is None))
            lists = any(isinstance(v, list) for v in df[c].tolist())
            want = None if lists else _category_by_hand(df[c])
            assert pairing.get(c) == want, (c, df[c].tolist())
    assert seen == {(True, True), (True, False), (False, True), (False, False)}


def test_a_datetime64_column_is_the_category_its_iso_text_is():
    """A panel's period typed by pd.to_datetime pairs as its text does (frame_category reads
    the cells as the query's values are read: '2025-01-15'); NaT is no value."""
    from lakejoin_jupyter.engine import frame_category
    text = pd.Series(["2025-01-15", "2025-02-15", None, "2025-01-15", "2025-03-15"] * 6)
    typed = pd.to_datetime(text)
    assert typed.dtype.kind == "M"
    got, want = frame_category(typed), frame_category(text)
    assert want is not None and got is not None
    assert got[1] == want[1] == ["2025-01-15", "2025-02-15", "2025-03-15"]
    assert got[0].tolist() == want[0].tolist()
    # nearly unique stamps are no category, typed or not
    stamps = pd.Series(pd.date_range("2025-01-01", periods=30, freq="h"))
    assert frame_category(stamps) is None
