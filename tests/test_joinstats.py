"""The join statistics (indexing/joinstats.py) against a brute-force pandas count.

The read task counts the rows of every (column, token) and the shape of each column's
values (``batch_stats``, called by read.py ``long_form_of``); the driver maps the repeated
values to token ids and writes the arrays (``build``). Here random tables (hypothesis) go
through exactly that, in several long-form parts, without Spark, and the result must equal
pandas' ``value_counts`` of the normalized columns. The Spark build of randomized lakes is
checked against the same count in tests/test_build_random.py.
"""
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
from hypothesis import HealthCheck, given, settings, strategies as st

from lakejoin_jupyter.index.joinstats import FILES, NUMBER, SHAPE_FIELDS, YEAR, JoinStats
from lakejoin_jupyter.indexing import joinstats as joinstats_job
from lakejoin_jupyter.indexing import read as read_job
from lakejoin_jupyter.lake.normalize import normalize_many

# spellings that collide after normalization, years, numbers (one beyond the double range,
# one of 320 digits), words with spaces, nulls and placeholders
VOCAB = ["Paris", "paris", " PARIS ", "Lyon", "a b", "a  b", "a b c", "1999", "1999.0",
         "2024", "1599", "2100", "7", "007", "-3", "2.50", ".5", "1e3", "1e400", "-1e400",
         "9" * 320, "x", "ﬁne", "Côte d'Ivoire", None, "", "n/a", "-"]


def pandas_stats(columns: list[list], token_id: dict) -> dict:
    """Brute force: per column, pandas' value_counts of its normalized cells."""
    indptr, toks, counts, shapes = [0], [], [], {f: [] for f in SHAPE_FIELDS}
    for values in columns:
        s = pd.Series(normalize_many(values), dtype=object).dropna()
        vc = s.value_counts()
        rep = sorted((token_id[t], int(n)) for t, n in vc.items() if n > 1)
        toks += [t for t, _ in rep]
        counts += [n for _, n in rep]
        indptr.append(len(toks))
        d = pd.Series(vc.index, dtype=object)
        numeric = d[d.str.fullmatch(NUMBER[1:-1]).astype(bool)] if len(d) else d
        nums = numeric.map(float)
        shapes["keyed_rows"].append(len(s))
        shapes["max_count"].append(int(vc.max()) if len(vc) else 0)
        shapes["n_repeated"].append(int((vc > 1).sum()))
        shapes["n_year"].append(int(d.str.fullmatch(YEAR[1:-1]).sum()) if len(d) else 0)
        shapes["n_numeric"].append(len(numeric))
        shapes["num_min"].append(nums.min() if len(nums) else np.nan)
        shapes["num_max"].append(nums.max() if len(nums) else np.nan)
        shapes["mean_len"].append(d.str.len().sum() / len(d) if len(d) else 0.0)
        shapes["mean_words"].append((d.str.count(" ") + 1).sum() / len(d) if len(d) else 0.0)
    return {"dup_indptr": np.array(indptr, np.int64), "dup_tokens": np.array(toks, np.int32),
            "dup_counts": np.array(counts, np.int32),
            "shapes": {f: np.array(v, dtype=np.float64) for f, v in shapes.items()}}


def assert_stats_equal(stats: JoinStats, want: dict) -> None:
    for name in ("dup_indptr", "dup_tokens", "dup_counts"):
        assert np.array_equal(getattr(stats, name), want[name]), name
    for f in SHAPE_FIELDS:     # exactly equal, NaN where no value is a number
        np.testing.assert_array_equal(stats.shapes[f], want["shapes"][f], err_msg=f)


class _Writer:
    """What build() uses of an IndexWriter."""
    def __init__(self, root: Path):
        self.root = root

    def path(self, rel):
        p = self.root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        return p

    def save_npy(self, rel, arr):
        np.save(self.path(rel), arr)

    def save_frame(self, rel, df):
        df.to_parquet(self.path(rel), index=False)


class _Ctx:
    pass


def stats_via_long_form(tables: list[list[list]], chunks: list[int], root: Path):
    """The tables (each a list of columns) through long_form_of in chunks of tables (one
    long-form part each), a dictionary of the sorted tokens, and joinstats.build."""
    long = read_job.LongForm(str(root / "long"))
    at = 0
    for k, size in enumerate(chunks):
        part = [(t, [pa.array(c, pa.string()) for c in tables[t]], None)
                for t in range(at, min(at + size, len(tables)))]
        at += size
        if part:
            read_job.write_long_form(long, k, 0, read_job.long_form_of(part, 1, 1, 0, True))
    columns = [c for t in tables for c in t]
    vocab = sorted({t for c in columns for t in normalize_many(c) if t is not None})
    token_id = {t: i for i, t in enumerate(vocab)}
    first = np.cumsum([0] + [len(t) for t in tables])[:-1]
    ctx = _Ctx()
    ctx.n_sets, ctx.long, ctx.writer, ctx.lookup = len(columns), long, _Writer(root / "ix"), None
    ctx.first_column = pd.DataFrame({"table_id": np.arange(len(tables)), "first_column_id": first})
    values = pd.concat([pd.read_parquet(f) for f in long.files("values")])
    values["column_id"] = first[values["table_id"]] + values["position"]
    n_raw = np.bincount(values["column_id"], minlength=len(columns))
    ctx.raw_ptr = np.r_[0, np.cumsum(n_raw)]
    ctx.raw_tokens = np.full(int(ctx.raw_ptr[-1]), -1, dtype=np.int32)
    keyed = values["token"].notna()
    ctx.raw_tokens[ctx.raw_ptr[values["column_id"][keyed]] + values["rcode"][keyed]] = \
        values["token"][keyed].map(token_id).to_numpy()
    joinstats_job.build(ctx)
    ix = ctx.writer.root
    arrays = {n: np.load(ix / rel) for n, rel in FILES.items()}
    from lakejoin_jupyter.index.joinstats import shape_arrays
    frame = pd.read_parquet(ix / "joinstats/columns.parquet")
    return JoinStats(shapes=shape_arrays(frame, len(columns)), **arrays), columns, token_id


column = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=25)
table = st.integers(0, 12).flatmap(
    lambda n: st.lists(st.lists(st.sampled_from(VOCAB), min_size=n, max_size=n),
                       min_size=1, max_size=4))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(table, min_size=1, max_size=6), st.lists(st.integers(1, 3), min_size=6,
                                                         max_size=6))
def test_counts_and_shapes_equal_pandas(tmp_path_factory, tables, chunks):
    root = tmp_path_factory.mktemp("js")
    stats, columns, token_id = stats_via_long_form(tables, chunks, root)
    assert_stats_equal(stats, pandas_stats(columns, token_id))


@settings(max_examples=300, deadline=None)
@given(st.from_regex(NUMBER, fullmatch=True).filter(lambda s: "\n" not in s))
def test_numbers_parse_as_python_floats(text):
    got = joinstats_job.parse_numbers(pa.array([text, "1e400", "-" + "9" * 400]))
    assert np.array_equal(got, [float(text), float("inf"), float("-inf")])


def test_year_and_number_patterns_are_whole_tokens():
    d = pd.Series(["1999", "1999 1", "x1999", "2100", "1e+50", "1.", "-.5", "0e8"])
    assert d.str.fullmatch(YEAR[1:-1]).tolist() == [True, False, False, False, False, False, False,
                                                     False]
    assert [bool(re.fullmatch(NUMBER, t)) for t in d] == [True, False, False, True, True, False,
                                                          True, False]    # 0e8: a code
