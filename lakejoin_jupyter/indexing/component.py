"""What an index component is and what it gets: a Spark job built after the core (dictionary,
sets, postings, MinHash) that writes its own files and returns its manifest section. The
pipeline (pipeline.py) lists the components it offers; each component module defines
``COMPONENT``.

A component reads the lake through the build's long form (indexing/read.py), never the
files again: ``ctx.values`` (one row per distinct raw text of a column, with its token,
cell count and hash) and ``ctx.long_cells`` (one row per cell, with its row) are Spark
views of it. The core's results are there as numpy arrays (``ctx.arrays``, ``ctx.columns``)
and, made on first use, as Spark views (``ctx.dictionary``, ``ctx.sets``, ``ctx.signatures``,
``ctx.set_sizes``). ``ctx.cells`` and ``ctx.column_tokens`` (the views of earlier builds)
remain, computed from the long form when a component asks for them.

A component declares the options ``--set COMPONENT.NAME=VALUE`` may give it
(:attr:`Component.options`); :func:`check_component_options` checks every given section by
that one rule before a build starts Spark.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from ..config import BuildSettings
from ..index.store import IndexWriter, LakeIndex
from ..lake.discover import LakeSpec

SCRATCH = "_build"          # scratch folder inside the index being written; removed on commit


@dataclass(frozen=True)
class Option:
    """One ``--set COMPONENT.NAME=VALUE`` option: what values it takes, as an error says it
    ("an integer >= 1 or 'auto'"), and the test of a value (False, or an error raised with
    its own text, refuses it)."""
    takes: str
    accepts: Callable[[object], bool]


def _integer(value) -> int | None:
    """The integer ``value`` is (an int, an integral float, or the text of one), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return int(value)
    return None


def integer_option(low: int | None = None, high: int | None = None, *words: str) -> Option:
    """An integer from ``low`` to ``high`` (None: no bound), or one of ``words``."""
    bound = (f" from {low} to {high}" if low is not None and high is not None
             else f" >= {low}" if low is not None else "")
    takes = f"an integer{bound}" + "".join(f" or {w!r}" for w in words)

    def accepts(value) -> bool:
        if value in words:
            return True
        n = _integer(value)
        return n is not None and (low is None or n >= low) and (high is None or n <= high)
    return Option(takes, accepts)


def choice_option(*values: str) -> Option:
    """One of ``values``."""
    names = [repr(v) for v in values]
    return Option(f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0],
                  lambda value: value in values)


def embedder_option() -> Option:
    """An embedder spec (embed.get_embedder: "ngram", "ngram:dim=64", "semantic", ...);
    an unknown one raises get_embedder's error, which lists the embedders."""
    def accepts(value) -> bool:
        from ..embed import get_embedder
        get_embedder(value)
        return True
    return Option("an embedder ('ngram', 'ngram:dim=N', 'semantic', 'minilm' or "
                  "'vectors:path=FILE')", accepts)


def check_component_options(component_options: dict, components: dict) -> None:
    """Every section of ``component_options`` ({component: {option: value}}) against its
    component's :attr:`Component.options` (``components``: name -> Component): an unknown
    option name, or a value the option does not take, is a ValueError naming the option,
    what it takes and the valid names. Runs before a build starts Spark."""
    for comp, given in (component_options or {}).items():
        component = components.get(comp)
        if component is None:
            raise ValueError(f"Options are given for unknown index component(s) {[comp]}; "
                             f"available: {sorted(components)}")
        known = sorted(component.options)
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ValueError(f"Unknown {comp} option(s) {unknown}; "
                             + (f"known: {known}." if known else f"{comp} takes no options."))
        for name, value in given.items():
            option = component.options[name]
            try:
                ok = option.accepts(value)
            except Exception as e:  # noqa: BLE001 - the check's own message says why
                raise ValueError(f"{comp}.{name}={value}: {e}") from None
            if not ok:
                raise ValueError(f"{comp}.{name} takes {option.takes} (got {value!r}).")
        if component.check_together is not None:
            component.check_together(given)


@dataclass
class Component:
    """An optional index component built after the core (dictionary, sets, postings)."""
    name: str
    build: Callable[["BuildContext"], dict]
    description: str = ""
    default: bool = False
    # the options (as ``--set`` takes them) a built manifest section records: a rebuild
    # passes them again (pipeline.recorded_settings)
    recorded_options: Callable[[dict], dict] | None = None
    # the options ``--set`` may give (name -> Option), checked before the build starts
    options: dict = field(default_factory=dict)
    # a check of the given options' values together (raises ValueError), after each alone
    check_together: Callable[[dict], None] | None = None


@dataclass
class BuildContext:
    spark: object
    writer: IndexWriter
    lake: LakeSpec
    settings: BuildSettings
    progress: object
    tables: pd.DataFrame = None        # catalog/tables
    columns: pd.DataFrame = None       # catalog/columns (the profile)
    infos: list = None                 # lake.read.TableInfo per table
    long: object = None                # indexing.read.LongForm: the long form's files
    first_column: pd.DataFrame = None  # (table_id, first_column_id) of the indexed tables
    arrays: object = None              # index.arrays.IndexArrays of this build (numpy)
    raw_ptr: np.ndarray = None         # column c's raw texts are rcode 0..; start in raw_tokens
    raw_tokens: np.ndarray = None      # token id of each (column, rcode); -1: no token
    n_sets: int = 0
    n_tokens: int = 0
    base: LakeIndex | None = None      # adding tables: the index they are added to
    core_dir: Path | None = None       # adding a component: the built generation's folder
    lookup: Callable | None = None     # adding a component: token texts -> that generation's
                                       # token ids (-1: absent); raw_tokens is None then
    component_sections: dict = field(default_factory=dict)  # manifest "components" entries
    _views: dict = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ scratch files
    def scratch(self, rel: str) -> Path:
        """A path in the build's scratch folder (removed before the index is committed)."""
        return self.writer.path(f"{SCRATCH}/{rel}")

    def _view(self, name: str, make):
        if name not in self._views:
            self._views[name] = make()
        return self._views[name]

    def _first(self):
        from pyspark.sql import functions as F
        return F.broadcast(self._view("first", lambda: self.spark.createDataFrame(
            self.first_column.astype("int32"), "table_id int, first_column_id int")))

    # ------------------------------------------------------------------ the long form
    @property
    def values(self):
        """Spark DF (column_id, rcode, value, token, n, hash64): one row per distinct raw
        text of a column; token null when the text has no key; n = its cells."""
        from pyspark.sql import functions as F

        def make():
            v = self.long.spark_frame(self.spark, "values")
            return v.join(self._first(), "table_id").select(
                (F.col("first_column_id") + F.col("position")).cast("int").alias("column_id"),
                "rcode", "value", "token", "n", "hash64")
        return self._view("values", make)

    @property
    def long_cells(self):
        """Spark DF (table_id, row_id, column_id, rcode): every non-null cell."""
        from pyspark.sql import functions as F

        def make():
            c = self.long.spark_frame(self.spark, "cells")
            return c.join(self._first(), "table_id").select(
                "table_id", "row_id",
                (F.col("first_column_id") + F.col("position")).cast("int").alias("column_id"),
                "rcode")
        return self._view("long_cells", make)

    @property
    def cells(self):
        """Spark DF (column_id, row_id, value, token): every non-null cell (a join of the
        long form's cells with its values; prefer ``long_cells`` + ``raw_tokens``)."""
        return self._view("cells", lambda: self.long_cells.join(
            self.values.select("column_id", "rcode", "value", "token"), ["column_id", "rcode"])
            .select("column_id", "row_id", "value", "token"))

    @property
    def column_tokens(self):
        """Spark DF distinct (column_id, token)."""
        from pyspark.sql import functions as F
        return self._view("column_tokens", lambda: self.values.where(F.col("token").isNotNull())
                          .select("column_id", "token").distinct())

    # ------------------------------------------------------------------ the core, as Spark views
    @property
    def dictionary(self):
        """Spark DF (token_id, token, freq, group_id, hash64)."""
        def make():
            import pyarrow as pa
            import pyarrow.parquet as pq
            path = self.scratch("dictionary.parquet")
            ix_dir = self.core_dir or self.writer.tmp
            off = np.load(ix_dir / "dictionary/values_offsets.npy")
            data = np.load(ix_dir / "dictionary/values_bytes.npy")
            tokens = pa.LargeStringArray.from_buffers(len(off) - 1, pa.py_buffer(off),
                                                      pa.py_buffer(data))
            h = np.empty(len(off) - 1, dtype=np.uint64)
            h[np.load(ix_dir / "dictionary/hash_ids.npy")] = np.load(ix_dir / "dictionary/hash_sorted.npy")
            pq.write_table(pa.table({
                "token_id": np.arange(len(off) - 1, dtype=np.int32), "token": tokens.cast(pa.string()),
                "freq": self.arrays.token_freq, "group_id": self.arrays.token_group,
                "hash64": h.view(np.int64)}), path)
            return self.spark.read.parquet(path.as_uri())
        return self._view("dictionary", make)

    @property
    def sets(self):
        """Spark DF (column_id, size, token_ids array<int> ascending)."""
        def make():
            import pyarrow as pa
            import pyarrow.parquet as pq
            a = self.arrays
            path = self.scratch("sets.parquet")
            lists = pa.LargeListArray.from_arrays(pa.array(a.sets_indptr), pa.array(a.sets_tokens))
            pq.write_table(pa.table({"column_id": np.arange(a.n_sets, dtype=np.int32),
                                     "size": a.set_sizes, "token_ids": lists.cast(pa.list_(pa.int32()))}),
                           path)
            return self.spark.read.parquet(path.as_uri())
        return self._view("sets", make)

    @property
    def set_sizes(self):
        """Spark DF (column_id, size)."""
        return self._view("set_sizes", lambda: self.spark.createDataFrame(pd.DataFrame({
            "column_id": np.arange(self.n_sets, dtype=np.int32),
            "size": self.arrays.set_sizes.astype(np.int32)}), "column_id int, size int"))

    @property
    def signatures(self):
        """Spark DF (column_id, signature binary: num_perm little-endian uint32)."""
        from pyspark.sql import functions as F

        def make():
            c = self.long.spark_frame(self.spark, "columns")
            return c.join(self._first(), "table_id").select(
                (F.col("first_column_id") + F.col("position")).cast("int").alias("column_id"),
                "signature")
        return self._view("signatures", make)
