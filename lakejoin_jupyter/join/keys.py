"""Join keys, computed the same way by a join and by the code that reproduces it.

Every function maps a column (or a row of columns) to one key per row; None never matches.
``normalized_keys`` is the search's notion of equal values (lake/normalize.py: case, spacing,
number formats), ``text_keys`` the cell as text (the fuzzy join compares exact text),
``program_keys`` an Auto-Join program applied to each row (Auto-Join then compares both sides
normalized: ``side_keys``, ``compared_keys``). Generated code imports these functions, so the keys it computes
are the keys the join computed.
"""
from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..lake.normalize import MAX_TOKEN_CHARS, json_plain, render_value, normalize_many


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


def union_keys(values: pd.Series) -> pd.Series:
    """What a union's "only new rows" compares in a column (join/union.py): the normalized
    key of each cell (:func:`normalized_keys`), so cells differing only in case, spacing or
    number format are the same; a cell without a key (null, empty, a null spelling such as
    "n/a", no letter or digit) compares as null, except a text longer than the normalization
    keeps (``MAX_TOKEN_CHARS``), compared as written. A JSON object or list (a dict, list,
    tuple or array cell, or a text that parses as one) compares as :func:`json_cells` writes
    it: numerically equal numbers are one value ({"n": 1.0} is {"n": 1})."""
    values = json_cells(values)
    keys = normalized_keys(values)
    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_datetime64_any_dtype(values) \
            or not keys.isna().any():
        return keys
    out = keys.tolist()
    for i, v in enumerate(values.tolist()):
        if out[i] is None:
            text = render_value(v) if not isinstance(v, str) else v
            if text is not None and len(text) > MAX_TOKEN_CHARS:
                out[i] = text
    return pd.Series(out, index=values.index, dtype=object)


def json_cells(values: pd.Series) -> pd.Series:
    """``values`` with each JSON object or list in it (a dict, list, tuple or numpy array
    cell, or a text starting with "{" or "[" that parses as JSON) as one canonical JSON
    text: keys sorted, ", " and ": " between items (as ``render_value`` writes one), and a
    number that is a whole float as its integer (1.0 as 1; 1.5 stays 1.5; a boolean stays a
    boolean), so that numerically equal JSON numbers are one text whether the cell came from
    the lake reader, pandas' reading of a JSON or Parquet file or Spark's ``to_json``."""
    if values.dtype != object and not pd.api.types.is_string_dtype(values):
        return values
    cells = values.tolist()
    out, changed = list(cells), False
    for i, v in enumerate(cells):
        if isinstance(v, str):
            head = v.lstrip()[:1]
            if head not in ("{", "["):
                continue
            try:
                v = json.loads(v)
            except ValueError:
                continue
            if not isinstance(v, (dict, list)):
                continue
        elif not isinstance(v, (dict, list, tuple)) and not isinstance(v, np.ndarray):
            continue
        try:
            out[i] = json.dumps(_whole_floats(json_plain(v)), ensure_ascii=False,
                                sort_keys=True, default=render_value)
        except (TypeError, ValueError):     # keys of mixed types: as render_value writes it
            out[i] = render_value(v)
        changed = True
    return pd.Series(out, index=values.index, dtype=object, name=values.name) if changed \
        else values


def _whole_floats(value):
    """A JSON value (after ``json_plain``) with each finite whole float as its int."""
    if isinstance(value, dict):
        return {k: _whole_floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole_floats(v) for v in value]
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return value


def new_rows(query: pd.DataFrame, added: pd.DataFrame, columns) -> np.ndarray:
    """Which rows of ``added`` are new: not equal to a row of ``query`` nor to an earlier row
    of ``added`` on ``columns``, each cell compared as :func:`union_keys` says (nulls equal);
    a boolean mask over ``added``'s rows."""
    def keys(frame):
        return pd.DataFrame({i: union_keys(frame[c]).to_numpy() for i, c in enumerate(columns)},
                            index=pd.RangeIndex(len(frame)))
    both = pd.concat([keys(query), keys(added)], ignore_index=True)
    return ~both.duplicated().to_numpy()[len(query):]


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


def compared_keys(texts: pd.Series) -> pd.Series:
    """What a ``normalized`` text or program key compares (Auto-Join): each text's
    :func:`normalized_keys` ("YAXEL LENDEBORG" is "Yaxel Lendeborg"), and a text the
    normalization drops (a null spelling such as "NULL", no letter or digit such as "+()",
    longer than ``MAX_TOKEN_CHARS``) as written: a key of a table, not junk to leave out of
    a search, so values equal as written always join. None, and a text empty or only
    spaces, stay None (no key, as :func:`text_keys` and :func:`program_keys` give them)."""
    keys = normalized_keys(texts)
    kept = keys.isna() & texts.map(lambda t: isinstance(t, str) and bool(t.strip()))
    if not kept.any():
        return keys
    return keys.where(~kept, texts).astype(object)


def side_keys(frame: pd.DataFrame, key, matches: dict | None = None,
              only: bool = False) -> pd.Series:
    """The keys one side of a join compares: :func:`compute_keys`, then a fuzzy join's
    ``matches`` (:func:`mapped_keys`), then, for a ``normalized`` text or program key,
    :func:`compared_keys` (Auto-Join's outputs meet the other side's keys as the search
    compares values: "YAXEL LENDEBORG" is "Yaxel Lendeborg")."""
    out = compute_keys(frame, key)
    if matches is not None:
        out = mapped_keys(out, matches, only)
    return compared_keys(out) if key.normalized and key.kind != "normalize" else out


def compute_keys(frame: pd.DataFrame, key) -> pd.Series:
    """The keys of a :class:`~.plan.Key` over a pandas frame (before matches and the
    normalization of a ``normalized`` key: :func:`side_keys`)."""
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


# a date written with day and month as numbers first (dd/mm/yyyy or mm/dd/yyyy, "/", "." or
# "-" between, a 2- or 4-digit year), then nothing or a time after a space or "T"
_DAY_MONTH = r"^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?=$|[\sT])(.*)$"
_YEAR_SECONDS = np.datetime64(0, "s")
_EPOCH = dt.datetime(1970, 1, 1)


@dataclass(frozen=True)
class DateReading:
    """How "latest" reads a column, decided once for the whole column (:func:`date_reading`):
    ``dayfirst`` for its dd/mm/yyyy-like dates, ``years``: whether a bare whole number is a
    year (1 January of it, UTC) among dates, ``note``: why the column is ambiguous (empty when
    it is not)."""
    dayfirst: bool = False
    years: bool = False
    note: str = ""
    example: str = ""        # a value that decided dayfirst, or that reads either way


def _day_month(texts: pd.Series) -> pd.DataFrame:
    """The day-month-year fields of texts written so (NaN rows: other texts)."""
    return texts.str.extract(_DAY_MONTH)


def date_reading(values: pd.Series, column: str = "") -> DateReading:
    """Decide, over every value of a column, how :func:`order_keys` reads it. Day-first when
    some dd/mm/yyyy-like value can only be day-first (15/02/2021) and none can only be
    month-first (02/15/2021); month-first when the reverse; when no value decides (all read
    either way) or values disagree: month-first, and ``note`` says so. Bare whole numbers are
    years (1 January) when the column holds some date written as text; else numbers stay
    numbers (years, sequence numbers)."""
    present = values[values.notna()]
    numbers = numeric_values(present)
    texts = present[numbers.isna().to_numpy()].astype(str)
    parts = _day_month(texts)                 # all-NaN rows: texts written otherwise
    first, second = pd.to_numeric(parts[0]), pd.to_numeric(parts[1])
    day_only = (first > 12) & (second <= 12)
    month_only = (second > 12) & (first <= 12)
    name = f"{column!r} " if column else ""
    if day_only.any() and not month_only.any():
        return DateReading(True, _has_dates(texts, parts), "", texts[day_only].iloc[0])
    if month_only.any() and not day_only.any():
        return DateReading(False, _has_dates(texts, parts), "", texts[month_only].iloc[0])
    if day_only.any():
        d, m = texts[day_only].iloc[0], texts[month_only].iloc[0]
        dayfirst = bool(day_only.sum() > month_only.sum())
        note = (f"column {name}mixes day-first dates ({d.strip()!r}) and month-first dates "
                f"({m.strip()!r}): read {'day' if dayfirst else 'month'}-first throughout, "
                f"so the others have no order")
        return DateReading(dayfirst, True, note, d if dayfirst else m)
    either = texts[(first != second) & (first <= 12) & (second <= 12)]
    if len(either):
        note = (f"column {name}has dates such as {either.iloc[0].strip()!r} that read "
                f"day-first or month-first, and no date decides: read month-first")
        return DateReading(False, True, note, either.iloc[0])
    return DateReading(False, _has_dates(texts, parts))


def dmy_like(values: pd.Series) -> pd.Series:
    """Which values are written as dd/mm/yyyy or mm/dd/yyyy (numbers, then the year)."""
    present = values.notna().to_numpy()
    parts = _day_month(values.astype(object).where(present, "").astype(str))
    return pd.Series(parts[0].notna().to_numpy() & present, index=values.index)


def unreadable_dates(values: pd.Series, dayfirst: bool) -> pd.Series:
    """Which values are dd/mm/yyyy-like dates with no date in that order (read month-first,
    15/02/2021; read day-first, 02/15/2021): :func:`order_keys` gives them no order."""
    present = values.notna().to_numpy()
    parts = _day_month(values.astype(object).where(present, "").astype(str))
    month = pd.to_numeric(parts[0] if not dayfirst else parts[1])
    return pd.Series((month > 12).to_numpy() & present, index=values.index)


def _has_dates(texts: pd.Series, parts: pd.DataFrame, probe: int = 200) -> bool:
    """Whether some text (not a number) reads as a date (the first ``probe`` distinct ones
    are tried)."""
    if parts[0].notna().any():
        return True
    some = pd.Series(texts.drop_duplicates().iloc[:probe], dtype=object)
    return bool(pd.to_datetime(some, errors="coerce", format="mixed", utc=True).notna().any())


def _seconds(value) -> float:
    """A date, datetime (pandas Timestamp), numpy datetime64 or duration as seconds since
    1970 UTC (a naive one read as UTC); NaN for anything else. Years 1 to 9999, beyond pandas'
    nanosecond range too; a float, so its order is exact to the microsecond from about 1700
    to 2240, to the millisecond over all years."""
    if value is pd.NaT:
        return math.nan
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
        if isinstance(value, pd.Timestamp):   # in its own unit (nanoseconds or coarser)
            value = value.to_datetime64()
        else:
            return (value - _EPOCH).total_seconds()
    if isinstance(value, dt.date):
        return float((value - _EPOCH.date()).days * 86400)
    if isinstance(value, np.datetime64):
        return math.nan if np.isnat(value) else float((value - _YEAR_SECONDS) / np.timedelta64(1, "s"))
    if isinstance(value, (dt.timedelta, np.timedelta64)):
        return math.nan if pd.isna(value) else pd.Timedelta(value) / pd.Timedelta(1, "s")
    return math.nan


def _typed_order(values: pd.Series) -> pd.Series | None:
    """:func:`order_keys` of a typed column (datetime64, with a time zone or not, as pandas
    and Spark read Parquet timestamps; durations; numbers; booleans), or of an object column
    holding date/time objects (Parquet and Spark dates, Timestamps) and no text; None for a
    column of text (read by :func:`order_keys`)."""
    dtype = values.dtype
    if isinstance(dtype, pd.ArrowDtype):     # as numpy: datetime64, floats or objects
        values = pd.Series(values.to_numpy(), index=values.index)
        dtype = values.dtype
    if isinstance(dtype, pd.DatetimeTZDtype):
        values = values.dt.tz_convert("UTC").dt.tz_localize(None)
        dtype = values.dtype
    if dtype.kind in "Mm":
        a = values.to_numpy()
        zero = np.timedelta64(0, "s") if dtype.kind == "m" else _YEAR_SECONDS
        out = (a - zero) / np.timedelta64(1, "s")
        return pd.Series(np.where(np.isnat(a), np.nan, out), index=values.index, dtype="float64")
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype):
        return pd.Series(pd.to_numeric(values, errors="coerce"), index=values.index).astype("float64")
    if dtype != object:
        return None
    kinds = (dt.date, np.datetime64, dt.timedelta, np.timedelta64)
    present = values[values.notna().to_numpy()]
    if present.empty or not isinstance(present.iloc[0], kinds) \
            or not all(isinstance(v, kinds) for v in present):
        return None   # text (or text among objects): read as text
    return values.map(_seconds).astype("float64")


def order_keys(values: pd.Series, dayfirst: bool | None = None,
               years: bool | None = None) -> pd.Series:
    """The order of "latest": dates and times as seconds since 1970 (UTC), or numbers (years,
    sequence numbers), else NaN. ``dayfirst``: dd/mm/yyyy-like dates are day-first (else
    month-first; a date invalid in that order has none); ``years``: a bare whole number is
    1 January of that year (other numbers: no order). Both are decided for the whole column
    (:func:`date_reading`); pass them, so that any batch of the column gets the same keys
    (None: decided from ``values``). A typed column (datetime64 with or without a time zone,
    durations, numbers, booleans) or one of date, datetime or Timestamp objects (as Parquet and
    Spark dates read) is ordered by its values, a naive time as UTC; the reading is moot."""
    typed = _typed_order(values)
    if typed is not None:
        return typed
    if dayfirst is None or years is None:
        reading = date_reading(values)
        dayfirst = reading.dayfirst if dayfirst is None else dayfirst
        years = reading.years if years is None else years
    numbers = numeric_values(values)
    keys = numbers.copy()
    if years:
        whole = keys.notna() & (keys == keys.round()) & (keys >= 1) & (keys <= 9999)
        ys = (keys[whole].to_numpy(np.int64) - 1970).astype("datetime64[Y]").astype("datetime64[s]")
        keys = keys.where(whole)
        keys[whole] = (ys - _YEAR_SECONDS).astype(np.float64)
    rest = keys.isna().to_numpy() & values.notna().to_numpy()
    rest &= numbers.isna().to_numpy()
    if rest.any():
        text = values[rest].astype(str)
        parts = _day_month(text)
        dm = parts[0].notna()
        if dm.any():          # written month/day/year, with a valid month, for the parser
            p = parts[dm]
            day, month = (p[0], p[1]) if dayfirst else (p[1], p[0])
            ok = month.astype(int).between(1, 12)
            text = text.copy()
            text[dm] = (month + "/" + day + "/" + p[2] + p[3]).where(ok, "")
        dates = pd.to_datetime(text, errors="coerce", format="mixed", utc=True)
        keys[rest] = (dates - pd.Timestamp(0, tz="UTC")).dt.total_seconds()
    return keys
