"""What kind of DataFrame an object is, answered in one place for every layer; a text frame
typed as pandas types a CSV file."""
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


def typed_as_read_csv(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with each column of text cells (str or missing) typed as ``pd.read_csv``
    types a CSV file of those cells (numbers as int64 or float64, True/False as bool, the
    missing values pandas reads as NaN), by pandas' own parser: the frame a Python user gets
    from ``pd.read_csv(path)`` when ``frame`` is the lake reader's text of that file. Other
    columns are kept."""
    import io
    pos = [i for i in range(frame.shape[1]) if frame.iloc[:, i].dtype == object
           and frame.iloc[:, i].map(lambda v: v is None or isinstance(v, str)).all()]
    if not pos or not len(frame):
        return frame
    text = frame.iloc[:, pos].to_csv(index=False, header=False)
    typed = pd.read_csv(io.StringIO(text), header=None, names=list(range(len(pos))),
                        skip_blank_lines=False)
    out = frame.copy()
    for k, i in enumerate(pos):
        out.isetitem(i, typed[k].set_axis(frame.index))
    return out
