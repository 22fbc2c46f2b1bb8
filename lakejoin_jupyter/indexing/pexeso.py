"""Spark job: the PEXESO component (opt-in: ``build_index(..., components=["pexeso"])``).

Dong et al., ICDE 2021 [P]: every distinct value is embedded in a pandas UDF; with
``partitions`` > 1 columns are clustered by their pivot-space histograms [P §IV]; per
partition, pivots from a deterministic sample (PCA-based [P §III-D] or random), the mapping
to pivot space and leaf keys in pandas UDFs, m by the cost model of [P §III-E]
(search/pexeso_cost.py) unless fixed, and the cell postings sorted by Spark and finished
into CSR ``.npy`` arrays (index/pexeso_arrays.py). The result equals
index.pexeso_arrays.build_partition on the same vectors and columns (tests/test_pexeso.py).

Note:
    |P| = 10 pivots by default, not the paper's 5 (its optimum on fastText, Table VI): on
    the n-gram embedder the filters only bite as pivots multiply. Model embedders embed and
    index only values with a letter (option ``values``); a distance profile per index sets
    the default tau. Adding tables keeps the base generation's pivots and profile (one
    partition). Why, and the figures: docs/algorithms/pexeso.md.
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pyarrow.dataset as pads

from ..embed import cached_embedder, get_embedder
from ..index.pexeso_arrays import (PROFILE_COLUMNS, PROFILE_VALUES, SAMPLE_MULT,
                                   cluster_columns, default_tau, default_tau_rule,
                                   distance_profile, domain, leaf_coords, map_to_pivots,
                                   morton_keys, nearest_other, partition_from_entries,
                                   select_pivots)
from ..search.pexeso_cost import PROFILE_TAUS, TAU_MAX, WORKLOAD, choose_levels, tau_profile
from ..spark import fetch_results
from .component import Component, choice_option, embedder_option, integer_option

DEFAULTS = {"embedder": "semantic", "pivots": 10, "levels": "auto", "pivot_method": "pca",
            "sample_size": 20_000, "partitions": 1, "cluster_iterations": 10, "seed": 0,
            "values": "auto"}
HASHED_EMBEDDERS = ("ngram", "vectors")   # cheap: "auto" embeds every value with these
TEXT = r"\p{L}"                           # a value with a letter is text [P §II-A]
HIST_BINS = 4
HIST_DIMS = 3


def _embed_batches(spec: dict):
    def run(batches):
        import os
        os.environ.setdefault("OMP_NUM_THREADS", "1")     # one Python worker per core
        emb = cached_embedder(spec)
        for pdf in batches:
            v = emb.embed(pdf["token"].tolist())
            yield pd.DataFrame({"token_id": pdf["token_id"].astype("int32"),
                                "vec": [r.tobytes() for r in v]})
    return run


def _vectors(pdf, dim):
    return np.frombuffer(b"".join(pdf["vec"].tolist()), dtype=np.float32).reshape(len(pdf), dim)


def _map_batches(pivots: dict, dim: int):
    def run(batches):
        for pdf in batches:
            parts = pdf["part"].to_numpy()
            vecs = _vectors(pdf, dim)
            out = np.zeros((len(pdf), len(next(iter(pivots.values())))), dtype=np.float64)
            for p in np.unique(parts):
                sel = parts == p
                out[sel] = map_to_pivots(vecs[sel], pivots[int(p)])
            yield pd.DataFrame({"part": pdf["part"].astype("int32"),
                                "token_id": pdf["token_id"].astype("int32"),
                                "mapped": list(out)})
    return run


def _key_batches(domains: dict, levels: int):
    def run(batches):
        for pdf in batches:
            parts = pdf["part"].to_numpy()
            mapped = np.vstack(pdf["mapped"].to_numpy()) if len(pdf) else np.zeros((0, 1))
            keys = np.zeros(len(pdf), dtype=np.int64)
            for p in np.unique(parts):
                sel = parts == p
                lo, hi = domains[int(p)]
                keys[sel] = morton_keys(leaf_coords(mapped[sel], lo, hi, levels), levels)
            yield pd.DataFrame({"part": pdf["part"].astype("int32"),
                                "token_id": pdf["token_id"].astype("int32"), "key": keys})
    return run


def _hist_batches(pivots: np.ndarray, lo, hi, dim: int):
    dims = min(HIST_DIMS, len(pivots))

    def run(batches):
        for pdf in batches:
            mapped = map_to_pivots(_vectors(pdf, dim), pivots[:dims])
            c = leaf_coords(mapped, lo[:dims], hi[:dims], 2)      # 4 bins per dimension
            b = np.zeros(len(pdf), dtype=np.int64)
            for d in range(dims):
                b = b * HIST_BINS + c[:, d]
            yield pd.DataFrame({"column_id": pdf["column_id"].astype("int32"),
                                "bin": b.astype("int32")})
    return run


OPTIONS = {"embedder": embedder_option(), "pivots": integer_option(1, 62),
           "levels": integer_option(1, 62, "auto"), "pivot_method": choice_option("pca", "random"),
           "sample_size": integer_option(1), "partitions": integer_option(1),
           "cluster_iterations": integer_option(1), "seed": integer_option(),
           "values": choice_option("auto", "text", "all")}


def check_pivots_levels(given: dict) -> None:
    """The grid's Morton keys hold pivots * levels bits: at most 62 (31 pivots when the
    cost model chooses the levels)."""
    opts = dict(DEFAULTS, **given)
    P, levels = int(opts["pivots"]), opts["levels"]
    if P * (1 if levels == "auto" else int(levels)) > 62 or (levels == "auto" and P > 31):
        raise ValueError(f"pexeso: pivots * levels must be at most 62, and pivots at most 31 "
                         f"with levels 'auto' (got {P} pivots, levels {levels}).")


def _sample(df, n_col: str, sample_size: int):
    """Rows kept by the deterministic sample rule (index.pexeso_arrays.sample_mask)."""
    from pyspark.sql import functions as F
    cut = F.least(F.lit(1 << 32), (F.lit(sample_size) / F.col(n_col) * F.lit(1 << 32)).cast("long"))
    h = F.pmod(F.col("token_id").cast("long") * F.lit(SAMPLE_MULT), F.lit(1 << 32))
    return df.where((F.col(n_col) <= sample_size) | (h < cut))


def build(ctx) -> dict:
    from pyspark.sql import functions as F

    opts = dict(DEFAULTS, **(getattr(ctx.settings, "component_options", None) or {}).get("pexeso", {}))
    base = getattr(ctx, "base", None)          # adding tables: keep the base's embedder
    first = None                               # the base generation, when adding tables
    if base is not None and base.generations[0].has("pexeso"):
        first = base.generations[0]
        sec = first.components["pexeso"]
        opts.update(embedder=sec["embedder"], pivots=sec["pivots"], levels=sec["levels"],
                    pivot_method=sec["pivot_method"], sample_size=sec["sample_size"],
                    seed=sec["seed"], partitions=len(sec["partitions"]),
                    values=sec.get("values", "all"))
    P = int(opts["pivots"])
    auto = opts["levels"] == "auto"
    m = 1 if auto else int(opts["levels"])
    spec = get_embedder(opts["embedder"]).spec()
    dim = int(spec["dim"])
    values = opts["values"] if opts["values"] != "auto" else \
        ("all" if spec["name"] in HASHED_EMBEDDERS else "text")
    spark, w, prog = ctx.spark, ctx.writer, ctx.progress

    prog.step("pexeso: embedding values")
    t_embed = time.perf_counter()
    dictionary = ctx.dictionary.select("token_id", "token")
    if values == "text":          # a model embeds only values with a letter [P §II-A]
        dictionary = dictionary.where(F.col("token").rlike(TEXT))
    n_parts_in = max(2, spark.sparkContext.defaultParallelism * 2)
    (dictionary.repartition(n_parts_in)
     .mapInPandas(_embed_batches(spec), "token_id int, vec binary")
     .write.parquet(w.uri("pexeso/vectors.parquet")))
    vecs = spark.read.parquet(w.uri("pexeso/vectors.parquet"))
    _finish_vectors(w, ctx.n_tokens, dim)
    embed_s = round(time.perf_counter() - t_embed, 3)

    kept = []                     # what an added generation takes from the base generation
    profile = (first.components["pexeso"].get("distance_profile")
               if first is not None else None)
    if profile:                   # one default tau for every generation of the index
        kept.append("distance_profile")
    else:
        prog.step("pexeso: distance profile (default tau)")
        profile = _distance_profile(ctx, vecs, dim)
    tau0 = default_tau(profile, spec["name"])

    members = ctx.sets.select("column_id", F.explode("token_ids").alias("token_id"))
    if values == "text":
        members = members.join(dictionary.select("token_id"), "token_id")
    k = int(opts["partitions"])
    if k > 1:
        prog.step("pexeso: clustering columns into partitions")
        col_part = _partition_columns(ctx, members, vecs, dim, opts)
    else:
        col_part = ctx.sets.select("column_id", F.lit(0).alias("part"))
    members = members.join(F.broadcast(col_part), "column_id")
    part_tokens = members.select("part", "token_id").distinct().persist()
    counts = part_tokens.groupBy("part").count().withColumnRenamed("count", "n")

    pivots = _base_pivots(first, k, P, dim)
    if pivots:                    # any pivots keep the search exact [P §III-C]
        kept.append("pivots")
    else:
        prog.step("pexeso: choosing pivots")
        sample = fetch_results(
            _sample(part_tokens.join(counts, "part"), "n", int(opts["sample_size"]))
            .join(vecs, "token_id").select("part", "token_id", "vec").toPandas,
            "sampling vectors for the pivots")
        for p, g in sample.groupby("part"):
            g = g.sort_values("token_id")
            pv = select_pivots(_vectors(g, dim), P, opts["pivot_method"], int(opts["seed"]))
            # a partition with fewer distinct vectors than |P| repeats its pivots: every
            # mapped vector keeps |P| coordinates, and a repeated pivot filters as its
            # original does
            pivots[int(p)] = pv[np.arange(P) % len(pv)]
    if not pivots:
        pivots = {0: np.zeros((P, dim))}

    prog.step("pexeso: mapping to pivot space")
    (part_tokens.join(vecs, "token_id")
     .mapInPandas(_map_batches(pivots, dim), "part int, token_id int, mapped array<double>")
     .write.parquet(w.uri("pexeso/mapped.parquet")))
    mapped = spark.read.parquet(w.uri("pexeso/mapped.parquet"))
    agg = [f(F.col("mapped")[i]).alias(f"{n}{i}") for i in range(P)
           for f, n in ((F.min, "lo"), (F.max, "hi"))]
    domains = {}
    for r in fetch_results(mapped.groupBy("part").agg(*agg).collect,
                           "measuring the partitions' pivot space"):
        lo = np.array([r[f"lo{i}"] for i in range(P)], dtype=np.float64)
        hi = np.array([r[f"hi{i}"] for i in range(P)], dtype=np.float64)
        domains[int(r["part"])] = domain(np.vstack([lo, hi]))

    levels_model = None
    if auto:                                    # the cost model of [P §III-E]
        prog.step("pexeso: choosing the grid levels (cost model)")
        m, table = choose_levels([_mapped_of(w, p, P)[1] for p in sorted(pivots)],
                                 [pivots[p] for p in sorted(pivots)], seed=int(opts["seed"]))
        levels_model = {"chosen": m, "workload": f"{WORKLOAD} lake vectors, tau over "
                                                 f"(0, {TAU_MAX}]",
                        "costs_us": table.to_dict(orient="records")}

    prog.step("pexeso: grid, cell postings and plan models")
    keys = mapped.mapInPandas(_key_batches(domains, m), "part int, token_id int, key long")
    (members.join(keys, ["part", "token_id"])
     .select("part", "key", "column_id", "token_id")
     .repartition("part").sortWithinPartitions("part", "key", "column_id", "token_id")
     .write.partitionBy("part").parquet(w.uri("pexeso/entries.parquet")))
    part_tokens.unpersist()

    parts_meta, plan_model = [], []
    n_parts = max(list(pivots) + list(domains) + [k - 1]) + 1
    for p in range(n_parts):
        meta, model = _finish_partition(w, p, pivots.get(p), m, P, seed=int(opts["seed"]),
                                        extra_tau=tau0)
        parts_meta.append(meta)
        plan_model.append(model)
    return {"embedder": spec, "pivots": P, "levels": m, "levels_model": levels_model,
            "plan_model": plan_model, "default_tau": tau0, "values": values,
            "default_tau_rule": default_tau_rule(spec["name"]),
            "distance_profile": profile,
            "embedding": {"values": int(ctx.n_tokens), "seconds": embed_s,
                          "cores": int(spark.sparkContext.defaultParallelism)},
            "pivot_method": opts["pivot_method"],
            "sample_size": int(opts["sample_size"]), "seed": int(opts["seed"]),
            "distance": "euclidean on unit vectors", "domain": "per-partition min..max of mapped",
            "partitioning": ({"method": "k-means on column histograms, symmetrised KL / 2",
                              "histogram": f"{HIST_BINS} bins x first {HIST_DIMS} pivot dims",
                              "smoothing": "add 1e-3 per bin", "k": k,
                              "iterations": int(opts["cluster_iterations"])} if k > 1 else None),
            "partitions": parts_meta, "vectors": ctx.n_tokens, "dim": dim,
            "kept_from_base": kept}


def _base_pivots(first, k: int, n_pivots: int, dim: int) -> dict:
    """Adding tables to an index of one partition: the base generation's pivots ({0: |P| x
    dim}), so the added generation chooses none; {} otherwise (a full build, partitions,
    whose clustering is per generation, or a base partition without vectors)."""
    if first is None or k != 1:
        return {}
    parts = first.components["pexeso"].get("partitions") or []
    if len(parts) != 1 or not parts[0].get("vectors"):
        return {}
    pv = np.asarray(first.load_npy("pexeso/part0000/pivots.npy"), dtype=np.float64)
    return {0: pv} if pv.shape == (n_pivots, dim) else {}


def _partition_columns(ctx, members, vecs, dim, opts):
    """Column -> partition by histogram clustering [P §IV] (pandas DataFrame -> Spark)."""
    from pyspark.sql import functions as F
    n = ctx.n_tokens
    sample = fetch_results(_sample(vecs.withColumn("n", F.lit(n)), "n",
                                   int(opts["sample_size"])).orderBy("token_id").toPandas,
                           "sampling vectors for the partitioning")
    piv = select_pivots(_vectors(sample, dim), int(opts["pivots"]), opts["pivot_method"],
                        int(opts["seed"]))
    lo, hi = domain(map_to_pivots(_vectors(sample, dim), piv))
    bins = fetch_results(members.join(vecs, "token_id")
                         .mapInPandas(_hist_batches(piv, lo, hi, dim), "column_id int, bin int")
                         .groupBy("column_id", "bin").count().toPandas,
                         "computing the columns' histograms")
    cols = np.sort(bins["column_id"].unique())
    n_bins = HIST_BINS ** min(HIST_DIMS, len(piv))
    hist = np.zeros((len(cols), n_bins))
    hist[np.searchsorted(cols, bins["column_id"]), bins["bin"]] = bins["count"]
    labels = cluster_columns(hist, int(opts["partitions"]), int(opts["cluster_iterations"]),
                             int(opts["seed"]))
    return ctx.spark.createDataFrame(pd.DataFrame({"column_id": cols.astype("int32"),
                                                   "part": labels.astype("int32")}))


def _finish_vectors(w, n_tokens: int, dim: int) -> None:
    out = np.lib.format.open_memmap(w.path("pexeso/vectors.npy"), mode="w+",
                                    dtype=np.float32, shape=(n_tokens, dim))
    for batch in pads.dataset(str(w.path("pexeso/vectors.parquet")), format="parquet").to_batches():
        if batch.num_rows:
            tid = batch.column("token_id").to_numpy()
            blob = b"".join(batch.column("vec").to_pylist())
            out[tid] = np.frombuffer(blob, dtype=np.float32).reshape(len(tid), dim)
    out.flush()
    del out


def _mapped_of(w, p: int, n_pivots: int):
    """(sorted token ids, their mapped coordinates) of partition p, from its Parquet rows."""
    import pyarrow.compute as pc
    mp = pads.dataset(str(w.path("pexeso/mapped.parquet")), format="parquet") \
        .to_table(filter=pc.field("part") == p)
    tok = mp.column("token_id").to_numpy()
    order = np.argsort(tok, kind="stable")
    mapped = (np.vstack(mp.column("mapped").to_numpy(zero_copy_only=False))[order]
              if len(tok) else np.zeros((0, n_pivots)))
    return tok[order], mapped


def _profile_batches(dim: int):
    def run(pdf):
        d = nearest_other(_vectors(pdf, dim))
        return pd.DataFrame({"column_id": np.full(len(d), int(pdf["column_id"].iloc[0]),
                                                  dtype=np.int32), "d": d})
    return run


def _distance_profile(ctx, vecs, dim: int) -> dict:
    """The distance profile (index/pexeso_arrays.distance_profile) by a Spark job: the text
    values (with a letter) of a deterministic sample of columns, at most PROFILE_VALUES per
    column, each column's nearest-other distances in a pandas UDF."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    h32 = F.lit(1 << 32)
    members = ctx.sets.select("column_id", F.explode("token_ids").alias("token_id"))
    if ctx.n_sets > PROFILE_COLUMNS:
        cut = int(PROFILE_COLUMNS / ctx.n_sets * (1 << 32))
        members = members.where(F.pmod(F.col("column_id").cast("long") * F.lit(SAMPLE_MULT), h32)
                                < F.lit(cut))
    text = ctx.dictionary.where(F.col("token").rlike(TEXT)).select("token_id")
    order = Window.partitionBy("column_id").orderBy(
        F.pmod(F.col("token_id").cast("long") * F.lit(SAMPLE_MULT), h32), "token_id")
    sample = (members.join(text, "token_id").withColumn("r", F.row_number().over(order))
              .where(F.col("r") <= PROFILE_VALUES).join(vecs, "token_id")
              .select("column_id", "token_id", "vec"))
    got = fetch_results(sample.groupBy("column_id").applyInPandas(
        _profile_batches(dim), "column_id int, d double").toPandas,
        "computing the distance profile")
    return distance_profile(got["d"].to_numpy(), columns=got["column_id"].nunique())


def _finish_partition(w, p: int, pivots, levels: int, n_pivots: int, seed: int = 0,
                      extra_tau: float | None = None):
    """The CSR arrays of partition p from its Parquet rows (one partition in memory), and
    its plan model (search/pexeso_cost.tau_profile; None without vectors). Returns
    (meta, plan model)."""
    base = f"pexeso/part{p:04d}/"
    tok, mapped = _mapped_of(w, p, n_pivots)
    ent_dir = w.path("pexeso/entries.parquet") / f"part={p}"
    if ent_dir.exists():
        ent = pads.dataset(str(ent_dir), format="parquet").to_table()
        ent_col, ent_tok = ent.column("column_id").to_numpy(), ent.column("token_id").to_numpy()
    else:
        ent_col = ent_tok = np.zeros(0, dtype=np.int64)
    taus = sorted(set(PROFILE_TAUS) | ({float(extra_tau)} if extra_tau else set()))
    model = tau_profile(mapped, pivots, levels, seed=seed, taus=taus) \
        if pivots is not None and len(tok) else None
    if pivots is None:
        pivots = np.zeros((n_pivots, 1))
    part = partition_from_entries(pivots, levels, tok, mapped, ent_col, ent_tok)
    for name in ("pivots", "lo", "hi", "tokens", "mapped", "cell_keys", "cell_ptr",
                 "ent_col", "ent_row"):
        w.save_npy(base + f"{name}.npy", getattr(part, name))
    return {"vectors": int(len(part.tokens)), "cells": int(len(part.cell_keys)),
            "entries": int(len(part.ent_col)),
            "columns": int(len(np.unique(part.ent_col)))}, model


def recorded_options(section: dict) -> dict:
    """The options a built section records ("auto" levels when the cost model chose them;
    the values it embedded, as "auto" resolved them)."""
    parts = section.get("partitioning") or {}
    out = {"embedder": section["embedder"], "pivots": int(section["pivots"]),
           "levels": "auto" if section.get("levels_model") else int(section["levels"]),
           "pivot_method": section["pivot_method"], "sample_size": int(section["sample_size"]),
           "seed": int(section["seed"]), "partitions": int(parts.get("k", 1))}
    if parts.get("iterations") is not None:
        out["cluster_iterations"] = int(parts["iterations"])
    if section.get("values") in ("text", "all"):
        out["values"] = section["values"]
    return out


COMPONENT = Component(
    "pexeso", build, recorded_options=recorded_options, options=OPTIONS,
    check_together=check_pivots_levels, description="value embeddings, pivots, hierarchical grid and cell "
                                 "postings for fuzzy/semantic joinable search (PEXESO)")
