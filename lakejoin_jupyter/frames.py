"""What kind of DataFrame an object is, answered in one place for every layer; a stacked
frame's columns given the query's dtypes."""
from __future__ import annotations

import keyword

import pandas as pd

from .errors import QueryError


def is_spark_frame(obj) -> bool:
    """A PySpark DataFrame (classic or Spark Connect), recognised without importing pyspark."""
    return (type(obj).__module__.startswith("pyspark.sql") and hasattr(obj, "toPandas")
            and hasattr(obj, "columns"))


LEARN_ROWS = 5_000          # rows of a Spark query frame that learning looks at


def learning_frame(frame, rows: int = LEARN_ROWS):
    """A pandas frame to learn from: the frame itself, or the first ``rows`` rows of a Spark
    one (Auto-Join learns on pandas frames; the join it finds applies to the whole frame)."""
    if is_spark_frame(frame):
        from .spark import fetch_results
        return fetch_results(frame.limit(rows).toPandas,
                             f"collecting the first {rows:,} rows to learn from")
    return frame


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


CHAIN = "lakejoin_chain"      # pandas attrs: the lake tables a frame was joined from


def joined_tables(frame) -> list:
    """The lake tables a pandas frame came from: the table it was read from and those
    joined into it, in order (``frame.attrs``; empty for any other frame)."""
    attrs = getattr(frame, "attrs", None) if isinstance(frame, pd.DataFrame) else None
    if not attrs:
        return []
    chain = [str(t) for t in attrs.get(CHAIN, [])]
    origin = attrs.get("lakejoin_table")
    if origin and origin not in chain:
        chain.insert(0, str(origin))
    return chain


def mark_joined(frame, before: list, tables: list):
    """Record on a joined pandas frame that it holds ``before`` and ``tables``."""
    if isinstance(frame, pd.DataFrame):
        chain = list(before)
        chain += [t for t in tables if t and t not in chain]
        frame.attrs[CHAIN] = chain
    return frame


def nullable_dtype(dtype):
    """The nullable pandas dtype of a numpy integer or boolean dtype, by pandas' own mapping
    (``convert_dtypes``): int64 -> Int64, uint8 -> UInt8, bool -> boolean; an extension dtype
    (already nullable) as it is."""
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):
        return dtype
    return pd.Series([], dtype=dtype).convert_dtypes(convert_string=False).dtype


def stacked_as_query(stacked: pd.DataFrame, query: pd.DataFrame) -> pd.DataFrame:
    """``stacked`` (``query``'s rows with other rows under them, its columns first) with each
    numeric, boolean or ``string`` query column of the query's dtype when every stacked value
    fits it (a ``string`` column's are all text):
    an integer column whose values are all whole numbers keeps its integer dtype (its
    nullable one, e.g. Int64, when values are missing), a float column its float dtype, a
    boolean column whose values are all booleans bool (``boolean`` when values are missing);
    a column whose values do not fit (a rating of 4.5 under integers, text) is left as
    ``pd.concat`` makes it. So a stacked column's dtype depends on the query, not on which
    table is stacked."""
    import numpy as np
    out = None
    for j, want in enumerate(query.dtypes):
        col = stacked.iloc[:, j]
        if col.dtype == want:
            continue
        missing = bool(col.isna().any())
        target = None
        if isinstance(want, pd.StringDtype):
            if col.dropna().map(lambda v: isinstance(v, str)).all():
                target = want
        elif pd.api.types.is_bool_dtype(want):
            if col.dropna().map(lambda v: isinstance(v, (bool, np.bool_))).all():
                target = "boolean" if missing else want
        elif pd.api.types.is_integer_dtype(want) and pd.api.types.is_numeric_dtype(col) \
                and not pd.api.types.is_bool_dtype(col):
            target = nullable_dtype(want) if missing else want
        elif pd.api.types.is_float_dtype(want) and pd.api.types.is_numeric_dtype(col) \
                and not pd.api.types.is_bool_dtype(col):
            target = want
        if target is None:
            continue
        try:
            typed = col.astype(target)
            kept = col.notna().to_numpy()
            if pd.api.types.is_integer_dtype(target) and not (
                    typed[kept].astype("float64").to_numpy()
                    == col[kept].astype("float64").to_numpy()).all():
                continue                # a cast truncates: 4.5 is no integer
        except (TypeError, ValueError, OverflowError):
            continue                    # not whole numbers, or out of range
        if out is None:
            out = stacked.copy()
        out.isetitem(j, typed)
    return stacked if out is None else out
