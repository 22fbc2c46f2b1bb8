"""What an index component is and what it gets: a Spark job built after the core (dictionary,
sets, postings, MinHash) that writes its own files and returns its manifest section. The
pipeline (pipeline.py) lists the components it offers; each component module defines
``COMPONENT``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import pandas as pd

from ..config import BuildSettings
from ..index.store import IndexWriter, LakeIndex
from ..lake.discover import LakeSpec


@dataclass
class Component:
    """An optional index component built after the core (dictionary, sets, postings)."""
    name: str
    build: Callable[["BuildContext"], dict]
    description: str = ""
    default: bool = False


@dataclass
class BuildContext:
    spark: object
    writer: IndexWriter
    lake: LakeSpec
    settings: BuildSettings
    progress: object
    tables: pd.DataFrame = None        # catalog/tables
    columns: pd.DataFrame = None       # catalog/columns
    infos: list = None                 # lake.read.TableInfo per table
    cells: object = None               # Spark DF (column_id, row_id, value, token)
    column_tokens: object = None       # Spark DF distinct (column_id, token)
    dictionary: object = None          # Spark DF (token_id, token, freq, group_id, hash64)
    sets: object = None                # Spark DF (column_id, size, token_ids)
    n_sets: int = 0
    n_tokens: int = 0
    base: LakeIndex | None = None      # adding tables: the index they are added to
    component_sections: dict = field(default_factory=dict)  # manifest "components" entries


