"""What the notebook front ends share: the open index, the last search, the namespace.

``%lakejoin open`` and the widget's Open/Build set :data:`SESSION.engine`; ``%lakejoin
search`` and the widget record the last search so ``%lakejoin join 2`` knows what to join.
Everything else goes through the engine's public API.
"""
from __future__ import annotations

import keyword
from dataclasses import dataclass, field

import pandas as pd

from ..errors import LakeJoinError, QueryError

NO_INDEX = ("No index is open. Open one with `%lakejoin open PATH` (or build one with "
            "`%lakejoin index LAKE --out PATH`; `%lakejoin index --demo --out demo.index` "
            "builds the packaged demo lake).")


class NoIndexOpenError(LakeJoinError):
    """A search or join was asked for before any index was opened."""


@dataclass
class Session:
    engine: object = None            # lakejoin_jupyter.Engine
    last_result: object = None       # SearchResult of the last search
    last_frame: object = None        # the DataFrame that search was made with
    last_frame_name: str = "df"
    history: list = field(default_factory=list)

    def require_engine(self):
        if self.engine is None:
            raise NoIndexOpenError(NO_INDEX)
        return self.engine

    def remember(self, result, frame, name: str) -> None:
        self.last_result, self.last_frame, self.last_frame_name = result, frame, name
        self.history.append((name, result))


SESSION = Session()


def is_dataframe(obj) -> bool:
    """pandas or Spark DataFrame."""
    return isinstance(obj, pd.DataFrame) or (
        type(obj).__module__.startswith("pyspark.sql") and hasattr(obj, "toPandas")
        and hasattr(obj, "columns"))


def dataframes_in(namespace: dict) -> list[str]:
    """Names of the pandas and Spark DataFrames of a namespace (no private names)."""
    return sorted(n for n, v in list(namespace.items())
                  if not n.startswith("_") and is_dataframe(v))


def frame_columns(frame) -> list:
    return list(frame.columns)


def unique_name(namespace: dict, wanted: str, overwrite: bool = False) -> str:
    """``wanted`` if it is free in the namespace (or ``overwrite``), else wanted_2, _3..."""
    if not wanted.isidentifier() or keyword.iskeyword(wanted):
        raise QueryError(f"{wanted!r} is not a valid Python variable name.")
    if overwrite or wanted not in namespace:
        return wanted
    n = 2
    while f"{wanted}_{n}" in namespace:
        n += 1
    return f"{wanted}_{n}"
