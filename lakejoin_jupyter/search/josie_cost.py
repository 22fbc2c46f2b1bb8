"""JOSIE's read-cost model and its planner, fitted on the index's own storage.

JOSIE (Zhu et al., SIGMOD 2019, §4 and App. 7.2, Eq. 15) decides between reading the next
posting lists and reading a candidate set by their cost:

    S(n) = max(s0 + s1 * n, floor_S)   read a set suffix of n tokens (and intersect it)
    L(f) = max(l0 + l1 * f, floor_L)   read a positional posting list of f entries

:func:`calibrate` fits the constants at build time on the index files (about 1,000 sampled
set reads stratified by size and 1,000 list reads stratified by frequency, least squares,
floored), in a ``cold`` profile (files dropped from the page cache first, the paper's set-up)
and a ``warm`` one (an index already in memory, the notebook case; the default at query
time). :class:`PlanFit` is the whole-query planner choosing MergeList-D or JOSIE-D.
Deviation: the planner and the warm profile are ours (docs/algorithms/josie.md says why).
"""
from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass

import numpy as np

from ..index.reads import drop_from_page_cache, load_arrays, read_list, read_suffix_overlap


# Defaults used when an index has no "josie" manifest section (a warm-profile fit on a
# 10^5-set open-data-shaped lake; only speed depends on them).
DEFAULT_COSTS = {
    "warm": {"set": {"intercept": 2500.0, "slope": 6.0, "floor": 1500.0},
             "list": {"intercept": 2500.0, "slope": 2.0, "floor": 1500.0}},
}


@dataclass(frozen=True)
class PlanFit:
    """The exact search's planner (search/josie.py): CPU time of a whole query, fitted at
    build time on sampled self-queries (search/josie.py::calibrate_plan), in ns.
    MergeList-D reads all E entries of the query's distinct lists: ``a + b E``. JOSIE-D's
    time is dominated by its set reads (about 2k + 10 of them) and by bookkeeping per
    query token, which grows as the prefix does with k: ``c + d k + |Q| (e + f ln k)``
    (E is no guide to it, JOSIE reading a prefix). Why the ``ln k`` term, and what it
    gained: docs/algorithms/josie.md ("The planner")."""
    ml_intercept: float
    ml_per_entry: float
    josie_intercept: float
    josie_per_k: float
    josie_per_token: float
    josie_per_token_log_k: float = 0.0

    def mergelist_ns(self, entries):
        return self.ml_intercept + self.ml_per_entry * entries

    def josie_ns(self, k, n):
        return self.josie_intercept + self.josie_per_k * k + \
            n * (self.josie_per_token + self.josie_per_token_log_k * np.log(max(k, 1)))


# the fit on a 10^6-set open-data lake (180 warm queries), for an index without one
DEFAULT_PLAN = PlanFit(27_000.0, 8.5, 2_850_000.0, 232_000.0, 97.0, 45.0)


@dataclass(frozen=True)
class LinearCost:
    intercept: float     # ns per read (index access)
    slope: float         # ns per element read
    floor: float         # ns: the cheapest read observed; cost never goes below it

    def __call__(self, n):
        return np.maximum(self.intercept + self.slope * np.asarray(n, dtype=np.float64),
                          self.floor)


@dataclass(frozen=True)
class CostModel:
    set_cost: LinearCost     # S(|X[j+1:]|)
    list_cost: LinearCost    # L(f)
    profile: str = "warm"
    source: str = "default"  # "fitted" (from the index manifest) or "default"
    plan: PlanFit = DEFAULT_PLAN    # whole-query CPU time of each plan (the planner)

    def S(self, n):
        return self.set_cost(n)

    def L(self, f):
        return self.list_cost(f)

    @classmethod
    def from_manifest(cls, manifest: dict, profile: str = "warm") -> "CostModel":
        josie = manifest.get("components", {}).get("josie", {})
        section = josie.get("costs", {})
        source = "fitted"
        if profile not in section:
            section, source = DEFAULT_COSTS, "default"
            profile = "warm"
        p = section[profile]
        return cls(LinearCost(**{k: float(p["set"][k]) for k in ("intercept", "slope", "floor")}),
                   LinearCost(**{k: float(p["list"][k]) for k in ("intercept", "slope", "floor")}),
                   profile=profile, source=source,
                   plan=PlanFit(**josie["plan"]["fit"]) if "plan" in josie else DEFAULT_PLAN)


def _stratified(rng, values: np.ndarray, n: int, bins: int = 20) -> np.ndarray:
    """Up to n indices of ``values`` (> 0), spread over log-spaced value bins."""
    ok = np.nonzero(values > 0)[0]
    if len(ok) <= n:
        return rng.permutation(ok)
    v = values[ok].astype(np.float64)
    edges = np.unique(np.geomspace(v.min(), v.max() + 1, bins + 1))
    which = np.clip(np.searchsorted(edges, v, side="right") - 1, 0, len(edges) - 2)
    per = max(1, n // (len(edges) - 1))
    out = []
    for b in range(len(edges) - 1):
        members = ok[which == b]
        if len(members):
            out.append(rng.choice(members, size=min(per, len(members)), replace=False))
    picked = np.concatenate(out)
    if len(picked) < n:  # fill from the whole population, without repeats
        rest = np.setdiff1d(ok, picked)
        picked = np.concatenate([picked, rng.choice(rest, size=min(n - len(picked), len(rest)),
                                                    replace=False)])
    return rng.permutation(picked)


def _fit(sizes: np.ndarray, ns: np.ndarray) -> dict:
    sizes = np.asarray(sizes, dtype=np.float64)
    ns = np.asarray(ns, dtype=np.float64)
    if len(sizes) >= 2 and np.ptp(sizes) > 0:
        slope, intercept = np.polyfit(sizes, ns, 1)
        pred = intercept + slope * sizes
        ss = float(((ns - ns.mean()) ** 2).sum())
        r2 = 1.0 - float(((ns - pred) ** 2).sum()) / ss if ss > 0 else 1.0
    else:
        slope, intercept, r2 = 0.0, float(ns.mean()) if len(ns) else 1000.0, 0.0
    floor = float(max(np.percentile(ns, 5), 1.0)) if len(ns) else 1000.0
    return {"intercept": float(intercept), "slope": float(max(slope, 0.0)), "floor": floor,
            "r2": round(r2, 4), "samples": int(len(ns)),
            "max_elements": int(sizes.max()) if len(sizes) else 0}


def calibrate(index_dir, n_samples: int = 1000, seed: int = 0, profiles=("warm", "cold"),
              query_size: int = 1024) -> dict:
    """Fit S and L (see module doc) on the index files under ``index_dir``.

    Returns {profile: {"set": fit, "list": fit}}, each fit with intercept, slope, floor (ns),
    r2, samples. The sampled set reads intersect with a fixed random query of
    ``query_size`` tokens, as the search does.
    """
    from ..index.store import ARRAY_FILES
    rng = np.random.default_rng(seed)
    files = {name: os.path.join(index_dir, rel) for name, rel in ARRAY_FILES.items()}

    def load():
        return load_arrays(index_dir)

    a = load()
    set_sizes = np.diff(a.sets_indptr)
    set_sample = _stratified(rng, set_sizes, n_samples)
    list_sample = _stratified(rng, a.token_freq.astype(np.int64), n_samples)
    query = np.unique(rng.integers(0, max(a.n_tokens, 1), size=query_size)).astype(np.int32)
    out = {}
    for profile in profiles:
        if profile == "cold":
            del a
            if not drop_from_page_cache(files.values()):
                continue
            a = load()
            reps = 1
        else:
            reps = 3
        # warm reads are CPU work: time them on this thread's CPU clock, which other
        # processes on a busy machine do not inflate; cold reads wait for the disk: wall clock
        clock = time.thread_time_ns if profile == "warm" else time.perf_counter_ns
        cold = profile == "cold"           # read as a cold search does: advised first
        set_ns, list_ns = [], []
        for sid in set_sample:
            best = None
            for _ in range(reps):
                t = clock()
                read_suffix_overlap(a, int(sid), 0, query, readahead=cold)
                d = clock() - t
                best = d if best is None else min(best, d)
            set_ns.append(best)
        for tok in list_sample:
            best = None
            for _ in range(reps):
                t = clock()
                read_list(a, int(tok), readahead=cold)
                d = clock() - t
                best = d if best is None else min(best, d)
            list_ns.append(best)
        out[profile] = {"set": _fit(set_sizes[set_sample], set_ns),
                        "list": _fit(a.token_freq[list_sample], list_ns)}
    return out


def cost_dict(model: CostModel) -> dict:
    return {"profile": model.profile, "source": model.source, "plan_ns": asdict(model.plan),
            "S": asdict(model.set_cost), "L": asdict(model.list_cost)}
