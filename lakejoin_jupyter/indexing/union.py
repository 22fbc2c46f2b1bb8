"""Spark job: the union component (opt-in: ``build_index(..., components=["union"])``).

What table union search (search/union.py) needs beyond the core's sets and postings, per
column, in a pandas UDF over the long form's distinct texts, 64 columns a call (each text
once with its cell count; index/union_profile.py computes each, the same functions the
query side uses): a format histogram of its distinct values (D3L, Bogatu et
al., ICDE 2020, §III-B), a numeric summary (share of numeric cells, their count and 21
quantiles; D3L's distribution evidence) and a column vector (the mean of the embedder's unit
vectors over a hash-chosen sample of distinct values; TUS, Nargesian et al., VLDB 2018,
§5.1.3). Written as dense ``union/*.npy`` arrays indexed by column id.

Note:
    The column vectors use the n-gram embedder by default (option ``embedder``), not the
    semantic model: it embeds the query's samples in milliseconds (docs/algorithms/union.md).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..embed import cached_embedder, get_embedder
from ..index.union_profile import (FORMAT_DIMS, FORMAT_VERSION, QUANTILES, SAMPLE_VALUES,
                                   column_vectors,
                                   format_histogram, numeric_summary_counted, sample_tokens)
from ..spark import fetch_results
from .component import Component, embedder_option, integer_option

DEFAULTS = {"embedder": "ngram", "sample_values": SAMPLE_VALUES}
OPTIONS = {"embedder": embedder_option(), "sample_values": integer_option(1)}
FILES = ("format", "numeric_share", "numeric_n", "quantiles", "vectors")


COLUMNS_PER_TASK = 64       # columns profiled by one call of the pandas UDF


def _profile_groups(spec, s: int, fmt_version: int = FORMAT_VERSION):
    def run(pdf: pd.DataFrame) -> pd.DataFrame:
        import os
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        emb = cached_embedder(spec)
        out, samples = [], []
        for cid, g in pdf.groupby("column_id", sort=True):
            values = [v for v in g["value"].tolist() if v is not None and v.strip()]
            share, n_num, q = numeric_summary_counted(g["token"].tolist(), g["n"].to_numpy())
            keyed = g[g["token"].notna()].drop_duplicates("token")
            assert keyed["hash64"].dtype == np.int64, keyed["hash64"].dtype
            samples.append(sample_tokens(keyed["token"].tolist(), s, keyed["hash64"].to_numpy()))
            fmt = format_histogram(values, version=fmt_version)
            out.append((int(cid), fmt.tobytes(), float(share), int(n_num),
                        np.asarray(q, dtype=np.float64).tobytes()))
        vecs = column_vectors(emb, samples)                 # one embed call for the batch
        return pd.DataFrame({"column_id": [r[0] for r in out], "fmt": [r[1] for r in out],
                             "share": [r[2] for r in out], "n_num": [r[3] for r in out],
                             "q": [r[4] for r in out],
                             "vec": [v.astype(np.float32).tobytes() for v in vecs]})
    return run


def profile_table(values, spec, s: int = SAMPLE_VALUES, fmt_version: int = FORMAT_VERSION):
    """Spark DF (column_id, fmt, share, n_num, q, vec): one row per column with cells, from
    the long form's distinct texts per column (``ctx.values``: each text once, with its
    cell count n and its token's hash), COLUMNS_PER_TASK consecutive columns a UDF call."""
    from pyspark.sql import functions as F
    # a text without a token has a null hash: 0 keeps the column int64 in pandas (with a
    # null, Arrow hands pandas float64, which cannot hold a 64-bit hash)
    return (values.select("column_id", "value", "token", "n",
                          F.coalesce("hash64", F.lit(0).cast("long")).alias("hash64"))
            .withColumn("batch", F.floor(F.col("column_id") / COLUMNS_PER_TASK))
            .groupBy("batch")
            .applyInPandas(lambda pdf: _profile_groups(spec, s, fmt_version)(
                               pdf.drop(columns="batch")),
                           "column_id int, fmt binary, share double, n_num long, q binary, "
                           "vec binary"))


def dense_arrays(pdf: pd.DataFrame, n_sets: int, dim: int) -> dict:
    """The profile rows as dense arrays over column ids 0..n_sets-1 (a column without a cell:
    zero histogram and vector, no numbers)."""
    out = {"format": np.zeros((n_sets, FORMAT_DIMS), np.float32),
           "numeric_share": np.zeros(n_sets, np.float32),
           "numeric_n": np.zeros(n_sets, np.int64),
           "quantiles": np.full((n_sets, len(QUANTILES)), np.nan, np.float64),
           "vectors": np.zeros((n_sets, dim), np.float32)}
    for r in pdf.itertuples(index=False):
        i = int(r.column_id)
        out["format"][i] = np.frombuffer(r.fmt, np.float32)
        out["numeric_share"][i] = r.share
        out["numeric_n"][i] = r.n_num
        out["quantiles"][i] = np.frombuffer(r.q, np.float64)
        out["vectors"][i] = np.frombuffer(r.vec, np.float32)
    return out


def build(ctx) -> dict:
    opts = dict(DEFAULTS, **(getattr(ctx.settings, "component_options", None) or {}).get("union", {}))
    base = getattr(ctx, "base", None)          # adding tables: keep the base's embedder
    fmt_version = FORMAT_VERSION               # and its format histograms (1: unrecorded)
    if base is not None and base.generations[0].has("union"):
        sec = base.generations[0].components["union"]
        opts.update(embedder=sec["embedder"], sample_values=sec["sample_values"])
        fmt_version = int(sec.get("histogram_version", 1))
    spec = get_embedder(opts["embedder"]).spec()
    dim = int(spec["dim"])
    profiles = profile_table(ctx.values, spec, int(opts["sample_values"]), fmt_version)
    pdf = fetch_results(profiles.toPandas, "profiling the columns for union search")
    arrays = dense_arrays(pdf, ctx.n_sets, dim)
    for name in FILES:
        ctx.writer.save_npy(f"union/{name}.npy", arrays[name])
    return {"embedder": spec, "sample_values": int(opts["sample_values"]), "dim": dim,
            "format_dims": FORMAT_DIMS, "histogram_version": fmt_version,
            "quantiles": len(QUANTILES)}


def recorded_options(section: dict) -> dict:
    return {"embedder": section["embedder"], "sample_values": int(section["sample_values"])}


COMPONENT = Component(
    "union", build, recorded_options=recorded_options, options=OPTIONS, description="format histograms, numeric quantile sketches and column "
                                "vectors for table union search")
