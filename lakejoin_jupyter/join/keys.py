"""Join keys, computed the same way by a join and by the code that reproduces it.

Every function maps a column (or a row of columns) to one key per row; None never matches.
``normalized_keys`` is the search's notion of equal values (lake/normalize.py: case, spacing,
number formats), ``text_keys`` the cell as text (Auto-Join and the fuzzy join compare exact
text), ``program_keys`` an Auto-Join program applied to each row. Generated code imports
these functions, so the keys it computes are the keys the join computed.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..lake.normalize import render_value, normalize_many


def normalized_keys(values: pd.Series) -> pd.Series:
    """The normalized join key of every value (None: never matches), as an object Series
    on the same index (so an empty frame still merges on an object column).

    Each distinct value is normalized once (``pd.factorize``, then one ``normalize_many``
    over the uniques). Object columns mixing types go through ``normalize_many`` value by
    value instead: factorize would merge 1, 1.0 and True (equal in Python), whose tokens
    differ ("1" vs "true").
    """
    if values.dtype == object and pd.api.types.infer_dtype(values, skipna=True) != "string":
        return pd.Series(normalize_many(values.tolist()), index=values.index, dtype=object)
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    tokens = np.array(normalize_many(list(uniques)) + [None], dtype=object)
    return pd.Series(tokens[codes], index=values.index, dtype=object)   # code -1 -> None


def text_keys(values: pd.Series) -> pd.Series:
    """Each cell as text (Auto-Join's ``cell_text``: whole floats without ".0"); None for
    nulls and for cells that are empty or only spaces."""
    from .autojoin.dsl import column_texts
    return _blank_to_none(column_texts(values), values.index)


def program_keys(frame: pd.DataFrame, program) -> pd.Series:
    """An Auto-Join program applied to every row of ``frame`` (None, or an empty output:
    no key). The program names the columns it reads."""
    from .autojoin.dsl import apply_frame
    return _blank_to_none(apply_frame(program, frame, {str(c): c for c in frame.columns}),
                          frame.index)


def _blank_to_none(texts: list, index) -> pd.Series:
    return pd.Series([t if t is not None and t.strip() else None for t in texts],
                     index=index, dtype=object)


def mapped_keys(keys: pd.Series, matches: dict, only: bool = False) -> pd.Series:
    """Keys with the ones a fuzzy join matched replaced by their partner's key; with
    ``only``, a key without a match gets none (it joins nothing)."""
    if only:
        return keys.map(lambda k: None if k is None else matches.get(k)).astype(object)
    return keys.map(lambda k: None if k is None else matches.get(k, k)).astype(object)


def lake_text(values: pd.Series) -> pd.Series:
    """Each cell of a typed lake column (a Parquet table read with its types) as the text the
    index read (lake/read.py: integers as digits, booleans "true"/"false", floats, decimals,
    dates and times as normalization renders them; None for nulls): what a text or program
    key of a lake table reads, so it joins the values the search and Auto-Join saw."""
    if values.dtype == object and \
            pd.api.types.infer_dtype(values, skipna=True) in ("string", "empty"):
        return values
    return pd.Series([render_value(v) for v in values.tolist()], index=values.index, dtype=object)


def lake_texts(frame: pd.DataFrame, keys) -> pd.DataFrame:
    """``frame`` with the columns its text and program keys read as :func:`lake_text`."""
    cols = {c for k in keys if k.kind != "normalize" for c in k.columns}
    if not cols:
        return frame
    return frame.assign(**{c: lake_text(frame[c]) for c in cols if c in frame.columns})


def compute_keys(frame: pd.DataFrame, key) -> pd.Series:
    """The keys of a :class:`~.plan.Key` over a pandas frame."""
    if key.kind == "normalize":
        return normalized_keys(frame[key.columns[0]])
    if key.kind == "text":
        return text_keys(frame[key.columns[0]])
    return program_keys(frame, key.program)


def numeric_values(values: pd.Series) -> pd.Series:
    """Each cell as a float: text is stripped and read as a plain number (NaN when it is
    not one; thousands separators are not read). What an aggregated join sums or averages."""
    text = values.astype(object).map(lambda v: v.strip() if isinstance(v, str) else v)
    return pd.to_numeric(text, errors="coerce").astype("float64")


def order_keys(values: pd.Series) -> pd.Series:
    """The order of "latest": the number a cell holds (a year, a sequence number), else its
    date and time as seconds since 1970 (UTC), else NaN. Each cell on its own, so any batch
    of the column gets the same keys."""
    keys = numeric_values(values)
    rest = keys.isna().to_numpy() & values.notna().to_numpy()
    if rest.any():
        text = values[rest].astype(str)
        dates = pd.to_datetime(text, errors="coerce", format="mixed", utc=True)
        keys[rest] = (dates - pd.Timestamp(0, tz="UTC")).dt.total_seconds()
    return keys
