"""What kind of DataFrame an object is, answered in one place for every layer."""
from __future__ import annotations

import keyword

import pandas as pd

from .errors import QueryError


def is_spark_frame(obj) -> bool:
    """A PySpark DataFrame (classic or Spark Connect), recognised without importing pyspark."""
    return (type(obj).__module__.startswith("pyspark.sql") and hasattr(obj, "toPandas")
            and hasattr(obj, "columns"))


def is_dataframe(obj) -> bool:
    """A pandas or a Spark DataFrame."""
    return isinstance(obj, pd.DataFrame) or is_spark_frame(obj)


def check_identifier(name, what: str = "variable name") -> str:
    """``name`` if it is a Python identifier that is not a keyword; a QueryError otherwise
    (generated code binds and reads names, so a name is never allowed to be code)."""
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
        raise QueryError(f"{name!r} is not a valid Python {what}: use letters, digits and "
                         f"underscores, not starting with a digit (e.g. 'df', 'joined').")
    return name
