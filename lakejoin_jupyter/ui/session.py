"""What the notebook front ends share: the open index and the notebook's names.

``%lakejoin open`` and the widget's Open/Build set :data:`SESSION.engine`. Nothing else is
shared: a join names the saved search it comes from (``%lakejoin join N --from VAR``).
"""
from __future__ import annotations

import keyword
from dataclasses import dataclass


from ..errors import LakeJoinError, QueryError
from ..frames import is_dataframe

NO_INDEX = ("No index is open. Open one with `%lakejoin open PATH` (or build one with "
            "`%lakejoin index LAKE --out PATH`; `%lakejoin index --demo --out demo.index` "
            "builds the packaged demo lake).")


class NoIndexOpenError(LakeJoinError):
    """A search or join was asked for before any index was opened."""


@dataclass
class Session:
    engine: object = None            # lakejoin_jupyter.Engine

    def require_engine(self):
        if self.engine is None:
            raise NoIndexOpenError(NO_INDEX)
        return self.engine


SESSION = Session()


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
