"""Value -> token: the one normalization every build and every query goes through.

A lake cell and a notebook value become the same token when they mean the same key:

* text: Unicode NFKC, case folded, surrounding whitespace stripped, inner whitespace runs
  collapsed ("  Côte   d'Ivoire " -> "côte d'ivoire");
* numbers written as text get one canonical form ("007" -> "7", "2001.0" -> "2001",
  "2.50" -> "2.5", "1e+3" and "1.0E3" -> "1000"); digits around a bare E ("0E8", "1E1")
  are a code, not a number; Python ints, floats, bools, dates and timestamps are rendered
  first;
* a timestamp is compared as its UTC wall-clock time (:func:`render_datetime`): a tz-aware
  one is converted to UTC and loses its offset, a naive one is taken as written (as UTC),
  so an instant matches itself in any zone, as naive UTC, and as Spark's TIMESTAMP or
  TIMESTAMP_NTZ; midnight is the date alone, so a date matches a midnight timestamp;
  ISO-8601 date-time text (a space or "T" between date and time, seconds and their fraction
  optional, an offset or "Z": what pandas' ``to_csv``/``to_json`` and Spark's CSV writer
  write) becomes the token of the timestamp it writes (:func:`_iso_datetime`); a date
  written year-month-day without zero padding ("2014-7-1", also before a time) or with
  slashes ("2012/01/01", "2014/7/1") is the padded date (:func:`_padded_date`);
  day-month text ("07/01/2014") stays text;
* nulls are dropped: None, NaN, NaT, empty strings, the usual null spellings ("null",
  "n/a", "#n/a", ...) and cells with no letter or digit ("-", "*"), as JOSIE drops junk;
* a token longer than MAX_TOKEN_CHARS characters is dropped (counted in the profile).

The name and version below are written into every index manifest; an index built with a
different normalization refuses to answer queries normalized by this one.
"""
from __future__ import annotations

import datetime as _dt
import math
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from typing import Iterable

NORMALIZATION_NAME = "nfkc-casefold-numeric"
NORMALIZATION_VERSION = 6   # 2: timestamps compared as UTC wall-clock times; 3: ISO text
                            # too; 4: unpadded year-month-day dates too; 5: year/month/day
                            # dates too, JSON-lines epoch dates read as pandas does, and
                            # digits around a bare E ("0E8") kept as a code; 6: CSV columns
                            # of decimal-comma numbers read as numbers (lake/read.py)
MAX_TOKEN_CHARS = 512

NULL_SPELLINGS = frozenset({"", "null", "nan", "n/a", "#n/a", "<na>", "nat"})

_SPACE_RUN = re.compile(r"\s+")
_INT = re.compile(r"[+-]?[0-9]+")
# a decimal, or scientific notation as number formatters write it: a point in the mantissa
# ("1.5e3", "2.0E10") or a sign in the exponent ("1e+22", "1E-3"); digits around a bare E
# ("0E8", "1E1": FAA airport codes) are a code, as no formatter writes a number so
_DEC = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?=[eE][+-]))(?:[eE][+-]?[0-9]+)?")
_MAX_EXPONENT = 40  # beyond this a number keeps scientific notation instead of 10^k digits
# ISO-8601 date and time as text (case folded): "2026-03-29 12:00:00", "...t12:00:00.250z",
# "...12:00+02:00"; _RE2_ISO_DATETIME: its start, for the vectorized path (RE2 syntax)
_ISO_DATETIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})[ t](\d{2}):(\d{2})"
                           r"(?::(\d{2})(?:\.(\d{1,9}))?)?(z|[+-]\d{2}(?::?\d{2})?)?")
_RE2_ISO_DATETIME = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[ Tt][0-9]{2}:[0-9]{2}"
# a date written year-month-day with a month or day of one digit ("2014-7-1"), or with
# slashes ("2012/01/01", "2014/7/1"), alone or before a time; _RE2_UNPADDED_DATE: the same,
# for the vectorized path
_UNPADDED_DATE = re.compile(r"([0-9]{4})([-/])([0-9]{1,2})\2([0-9]{1,2})(?=$|[ t])")
_RE2_UNPADDED_DATE = (r"^[0-9]{4}(?:-(?:[0-9]-[0-9]{1,2}|[0-9]{2}-[0-9])|/[0-9]{1,2}/[0-9]{1,2})"
                      r"(?:$|[ Tt])")


def normalization_spec() -> dict:
    """What the manifest records about the normalization."""
    return {"name": NORMALIZATION_NAME, "version": NORMALIZATION_VERSION,
            "max_token_chars": MAX_TOKEN_CHARS}


def _canonical_number(text: str) -> str | None:
    """Canonical text of a numeric string, or None when it is not a plain number."""
    if _INT.fullmatch(text):
        # str(int(text)) without int(): Python refuses int() of more than 4300 digits
        digits = text.lstrip("+-").lstrip("0")
        return "0" if not digits else ("-" + digits if text[0] == "-" else digits)
    if _DEC.fullmatch(text):
        try:
            d = Decimal(text)
        except InvalidOperation:  # pragma: no cover - the regex admits only valid decimals
            return None
        if not d.is_finite():
            return None
        if d == 0:
            return "0"
        d = d.normalize()
        exp = d.as_tuple().exponent
        if abs(exp) > _MAX_EXPONENT or d.adjusted() > _MAX_EXPONENT:
            return format(d, "e").lower()
        if exp >= 0:
            return str(int(d))
        return format(d, "f")
    return None


def render_value(value) -> str | None:
    """Text of a Python/numpy/pandas scalar, or None for a null; a list or dict as the JSON
    text the lake reader gives it (lake/read.py), e.g. a typed lake table's list cell; a
    tuple or a numpy array (pandas' list cell of a Parquet file), also inside one, as a
    list."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, dict)) or _is_array(value):
        import json
        return json.dumps(json_plain(value), ensure_ascii=False, sort_keys=True,
                          default=render_value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", errors="replace")
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return None if math.isnan(value) else ("inf" if value > 0 else "-inf")
        value = float(value)  # numpy 2 reprs np.float64 as "np.float64(x)"
        if value.is_integer():
            return str(int(value))  # exact: repr would round 2**56 + 8 to 17 digits
        return repr(value)
    if isinstance(value, int):
        return str(int(value))
    # numpy scalars, pandas Timestamps/NaT/NA, Decimals, dates
    type_name = type(value).__name__
    if type_name in ("NAType", "NaTType"):
        return None
    if type_name in ("datetime64", "timedelta64"):   # .item() of a ns value is an int
        import pandas as pd
        v = pd.Timestamp(value) if type_name == "datetime64" else pd.Timedelta(value)
        return None if v is pd.NaT else render_value(v)
    if hasattr(value, "item") and not isinstance(value, (_dt.date, _dt.datetime, _dt.timedelta)):
        try:
            return render_value(value.item())
        except (ValueError, TypeError):
            pass
    if isinstance(value, _dt.datetime) or type_name == "Timestamp":
        return render_datetime(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, _dt.time):
        return _clock(value.hour, value.minute, value.second, value.microsecond * 1000)
    if isinstance(value, _dt.timedelta) or type_name == "Timedelta":
        return render_duration(value)
    if isinstance(value, Decimal):
        return str(value) if value.is_finite() else None
    return str(value)


def _is_array(value) -> bool:
    """A numpy array (of one dimension or more), not a numpy scalar."""
    return type(value).__name__ == "ndarray" and getattr(value, "ndim", 0) >= 1


def json_plain(value):
    """``value`` with every tuple and numpy array in it a list and numpy scalars Python's,
    as JSON writes the lake reader's lists (``pyarrow``'s ``to_pylist``)."""
    if isinstance(value, dict):
        return {k: json_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or _is_array(value):
        return [json_plain(v) for v in (value.tolist() if _is_array(value) else value)]
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        return value.item()
    return value


def _clock(h: int, m: int, s: int, nanos: int) -> str:
    """"HH:MM:SS" with the fraction of a second, trailing zeros dropped (none when whole)."""
    text = f"{h:02d}:{m:02d}:{s:02d}"
    return text + ("." + f"{nanos:09d}".rstrip("0") if nanos else "")


def render_datetime(value) -> str:
    """Text of a datetime or pandas Timestamp: its UTC wall-clock time when tz-aware, its
    own when naive; "YYYY-MM-DD" at midnight, else "YYYY-MM-DDTHH:MM:SS[.fraction]" (every
    reader of a lake or a query renders a timestamp through this one function)."""
    if value.tzinfo is not None:
        if type(value).__name__ == "Timestamp":
            value = value.tz_convert("UTC").tz_localize(None)
        else:
            value = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    nanos = value.microsecond * 1000 + int(getattr(value, "nanosecond", 0) or 0)
    day = f"{value.year:04d}-{value.month:02d}-{value.day:02d}"
    if (value.hour, value.minute, value.second, nanos) == (0, 0, 0, 0):
        return day
    return day + "T" + _clock(value.hour, value.minute, value.second, nanos)


def render_duration(value) -> str:
    """Text of a timedelta or pandas Timedelta, ISO 8601: "P1DT2H0M0S" ("-P..." if negative)."""
    nanos = (int(value.value) if type(value).__name__ == "Timedelta"
             else ((value.days * 86400 + value.seconds) * 1_000_000 + value.microseconds) * 1000)
    sign, nanos = ("-", -nanos) if nanos < 0 else ("", nanos)
    secs, frac = divmod(nanos, 1_000_000_000)
    days, secs = divmod(secs, 86400)
    text = f"{sign}P{days}DT{secs // 3600}H{secs % 3600 // 60}M{secs % 60}"
    return text + ("." + f"{frac:09d}".rstrip("0") if frac else "") + "S"


def _iso_datetime(s: str) -> str | None:
    """The token of a timestamp written as case-folded ISO-8601 text (``s``), as
    :func:`render_datetime` renders that timestamp (an offset or "z": its UTC time; none:
    as written; midnight: the date alone), or None when ``s`` is not such a text or not a
    valid date and time."""
    m = _ISO_DATETIME.fullmatch(s)
    if m is None:
        return None
    y, mo, d, h, mi, sec, frac, zone = m.groups()
    try:
        value = _dt.datetime(int(y), int(mo), int(d), int(h), int(mi), int(sec or 0))
        if zone and zone != "z":
            digits = zone[1:].replace(":", "")
            minutes = int(digits[:2]) * 60 + int(digits[2:] or 0)
            value -= _dt.timedelta(minutes=minutes if zone[0] == "+" else -minutes)
    except (ValueError, OverflowError):
        return None
    nanos = int((frac or "").ljust(9, "0"))
    day = f"{value.year:04d}-{value.month:02d}-{value.day:02d}"
    if (value.hour, value.minute, value.second, nanos) == (0, 0, 0, 0):
        return day
    return day + "t" + _clock(value.hour, value.minute, value.second, nanos)


def _padded_date(s: str) -> str | None:
    """The token of a date written year-month-day with a month or day of one digit, or
    with slashes (case-folded ``s``: "2014-7-1", "2014-7-1 12:00", "2012/01/01"): the
    padded ISO date's (the date alone, or the timestamp :func:`_iso_datetime` reads); None
    when ``s`` is no such text, or not a valid date (and time)."""
    m = _UNPADDED_DATE.match(s)
    if m is None or (m.group(2) == "-" and len(m.group(3)) == 2 and len(m.group(4)) == 2):
        return None
    y, mo, d = (int(m.group(i)) for i in (1, 3, 4))
    try:
        day = _dt.date(y, mo, d).isoformat()
    except ValueError:
        return None
    rest = s[m.end():]
    return day if not rest else _iso_datetime(day + rest)


def datetime_token(text: str) -> str | None:
    """The token :func:`normalize_text` gives ``text`` when it is ISO-8601 date-time text
    (the timestamp it writes, as :func:`_iso_datetime`), else None."""
    if len(text) < 16 or not text.lstrip()[:1].isdigit():
        return None
    s = _SPACE_RUN.sub(" ", unicodedata.normalize("NFKC", text)).strip()
    return _iso_datetime(unicodedata.normalize("NFKC", s.casefold())) if len(s) >= 16 else None


def normalize_text(text: str) -> str | None:
    """Token of one cell's text, or None when the cell holds no key."""
    s = unicodedata.normalize("NFKC", text)
    s = _SPACE_RUN.sub(" ", s).strip()
    if not s:
        return None
    number = _canonical_number(s.replace("_", "x")) if s[0] in "+-.0123456789" else None
    if number is not None:
        return number
    s = unicodedata.normalize("NFKC", s.casefold())
    if s[0].isdigit() and len(s) >= 16:
        stamp = _iso_datetime(s)
        if stamp is not None:
            return stamp
    if s[0].isdigit() and s[4:5] in ("-", "/"):
        day = _padded_date(s)
        if day is not None:
            return day
    if s in NULL_SPELLINGS or len(s) > MAX_TOKEN_CHARS:
        return None
    if not any(ch.isalnum() for ch in s):
        return None
    return s


def normalize_value(value) -> str | None:
    """Token of any cell value (str, number, bool, date, numpy or pandas scalar)."""
    text = render_value(value)
    if text is None:
        return None
    return normalize_text(text)


def normalize_many(values: Iterable) -> list:
    """Tokens of many values, normalizing each distinct value once."""
    cache: dict = {}
    out = []
    for v in values:
        try:
            key = (type(v), v)
            hash(key)
        except TypeError:
            out.append(normalize_value(v))
            continue
        if key not in cache:
            cache[key] = normalize_value(v)
        out.append(cache[key])
    return out


_ASCII_SPACE_RUN = r"[\t\n\x0b\x0c\r\x1c-\x1f ]+"   # what \\s matches among ASCII characters
_RE2_INT = r"^[+-]?[0-9]+$"
_RE2_DEC = (r"^[+-]?(?:[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?"
            r"|[0-9]+[eE][+-][0-9]+)$")                 # _DEC without its look-ahead


def normalize_array(values):
    """Tokens of an Arrow array of texts (null in, null out): ``normalize_text`` of each
    element, computed once per distinct text. ASCII texts take a vectorized path (Arrow
    compute; for them NFKC is the identity and casefold is lower), the others and the
    decimals go through ``normalize_text``; tests check the two agree on any text."""
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(values, pa.string())
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if len(arr) == 0:
        return pa.array([], pa.string())
    enc = pc.dictionary_encode(arr)
    tokens = _normalize_distinct(enc.dictionary)
    return pc.take(tokens, enc.indices)


def _normalize_distinct(u):
    """normalize_text of each element of an Arrow string array without nulls."""
    import pyarrow as pa
    import pyarrow.compute as pc

    u = u.cast(pa.string())
    n = len(u)
    if n == 0:
        return pa.array([], pa.string())
    ascii_ = pc.string_is_ascii(u)
    s = pc.ascii_trim(pc.replace_substring_regex(u, _ASCII_SPACE_RUN, " "), " ")
    is_int = pc.match_substring_regex(s, _RE2_INT)
    is_dec = pc.and_(pc.match_substring_regex(s, _RE2_DEC), pc.invert(is_int))
    # integers: sign "+" and leading zeros dropped, "-0" -> "0"
    digits = pc.ascii_ltrim(pc.replace_substring_regex(s, r"^[+-]", ""), "0")
    neg = pc.starts_with(s, "-")
    int_tok = pc.if_else(pc.equal(digits, ""), "0",
                         pc.if_else(neg, pc.binary_join_element_wise("-", digits, ""), digits))
    # plain decimals: leading zeros of the integer part and trailing zeros of the fraction
    # dropped; when the digits exceed Decimal's 28 or the exponent bound, normalize_text
    plain = pc.and_(is_dec, pc.match_substring_regex(s, r"^[+-]?[0-9]*\.[0-9]*$"))
    parts = pc.split_pattern(pc.if_else(plain, pc.replace_substring_regex(s, r"^[+-]", ""), "."),
                             ".", max_splits=1)
    ip = pc.ascii_ltrim(pc.list_element(parts, 0), "0")
    fp = pc.ascii_rtrim(pc.list_element(parts, 1), "0")
    n_ip, n_fp = pc.utf8_length(ip), pc.utf8_length(fp)
    plain = pc.and_(plain, pc.and_(pc.less_equal(pc.add(n_ip, n_fp), 28),
                                   pc.less_equal(n_fp, _MAX_EXPONENT)))
    body = pc.binary_join_element_wise(
        pc.if_else(pc.equal(n_ip, 0), "0", ip),
        pc.if_else(pc.equal(n_fp, 0), "", pc.binary_join_element_wise(".", fp, "")), "")
    dec_tok = pc.if_else(pc.equal(pc.add(n_ip, n_fp), 0), "0",
                         pc.if_else(neg, pc.binary_join_element_wise("-", body, ""), body))
    is_dec = pc.and_(is_dec, pc.invert(plain))
    low = pc.ascii_lower(s)
    bad = pc.or_(pc.or_(pc.is_in(low, value_set=pa.array(sorted(NULL_SPELLINGS))),
                        pc.greater(pc.utf8_length(low), MAX_TOKEN_CHARS)),
                 pc.invert(pc.match_substring_regex(low, "[0-9a-z]")))
    null = pa.scalar(None, pa.string())
    out = pc.if_else(is_int, int_tok, pc.if_else(plain, dec_tok, pc.if_else(bad, null, low)))
    slow = pc.or_(pc.or_(pc.invert(ascii_), is_dec),
                  pc.or_(pc.match_substring_regex(s, _RE2_ISO_DATETIME),   # a timestamp's
                         pc.match_substring_regex(s, _RE2_UNPADDED_DATE)))  # or a date's text
    if pc.any(slow).as_py():
        texts = pc.filter(u, slow).to_pylist()
        out = pc.replace_with_mask(out, slow, pa.array([normalize_text(t) for t in texts],
                                                       pa.string()))
    return out


def token_set(values: Iterable) -> list[str]:
    """The distinct tokens of a query column, sorted (the query set Q)."""
    return sorted({t for t in normalize_many(values) if t is not None})
