"""The Auto-Join transformation language (thesis §4.3 Eq. 4.1, §4.4.2), as data: frozen
dataclass nodes (``Column``, ``Split``, ``SelectK``, ``Substring``, ``Constant``, ``Concat``),
one interpreter for learning, coverage and joins (:func:`compile_expr`, column-wise
:func:`evaluate_columns`; a null cell or a missing part gives no key), and
:meth:`Program.python_code`, the same program as plain Python (strings through ``repr()``).

Deviations (docs/algorithms/autojoin.md):
* ``Replace(of, old, new)``: keys written without or with other inner spaces;
* :class:`ProgramSet`: programs tried in order under optional :class:`Guard` s;
* ``Pad(of, width)``: digits left-padded with zeros ("4" -> "004");
* ``SelectK(of, k, rest)``: the parts before / after part k, joined;
* ``Split(of, chars, any_of=True)``: a split at each of several characters ("a_b.c" at "_.");
* ``Trim(of)``: end spaces stripped, inner runs of spaces made one;
* ``Map(of, table)``: a fixed equivalence (numbers, months, US states), None outside it;
* ``Words(of, sep, casing, joiner)``: each word recased, then joined ("KeyPress" -> "KEY_PRESS");
* ``Words(..., caps_end=True)``: a run of capitals ending the value kept as one word ("FiraGO");
* ``Encode(of, scheme)``: as a URL's query ("A/B" -> "A%2FB") or Texinfo ("A_002fB") writes it.
"""
from __future__ import annotations

import dataclasses
import functools
import datetime as _dt
import inspect
import json
import keyword
import re
import urllib.parse
from dataclasses import dataclass
from typing import Callable, Sequence

from ...lake.normalize import render_value

CASINGS = ("same", "lower", "upper", "title")
FORMAT = "lakejoin-autojoin-program"
FORMAT_VERSION = 1



def _check_header(d, fmt: str, what: str) -> None:
    """``d`` is a dict of format ``fmt`` at this module's version, else a clear error."""
    if not isinstance(d, dict) or d.get("format") != fmt:
        raise ProgramFormatError(f"not a serialized Auto-Join {what} (format must be {fmt!r})")
    if d.get("version") != FORMAT_VERSION:
        raise ProgramFormatError(f"{what} format version {d.get('version')!r} is not "
                                 f"supported (this version reads {FORMAT_VERSION})")


def _json_object(text: str):
    """``json.loads(text)``; not JSON is a :class:`ProgramFormatError`."""
    try:
        return json.loads(text)
    except (TypeError, json.JSONDecodeError) as e:
        raise ProgramFormatError(f"not valid JSON: {e}") from None

class ProgramFormatError(ValueError):
    """A serialized program is malformed (the message says which node and why)."""


# ------------------------------------------------------------------ nodes

@dataclass(frozen=True)
class Column:
    name: str


@dataclass(frozen=True)
class Split:
    of: object          # a string-valued node
    sep: str
    any_of: bool = False    # split at each occurrence of any character of sep (deviation 73)

    def __post_init__(self):
        if self.any_of and len(set(self.sep)) < 2:
            raise ValueError(f"a split at any of several characters needs two or more "
                             f"distinct characters, not {self.sep!r}")

    def parts(self, v: str) -> list:
        """``v`` split at ``sep``, or at each of its characters when ``any_of``."""
        return _any_of(self.sep).split(v) if self.any_of else v.split(self.sep)


@functools.lru_cache(maxsize=None)
def _any_of(chars: str):
    """The pattern of one character of ``chars`` (a split at the first of several)."""
    return re.compile("[" + "".join(map(re.escape, sorted(set(chars)))) + "]")


@dataclass(frozen=True)
class SelectK:
    of: Split
    k: int
    rest: str = ""      # "before" / "after": the parts before / after part k, joined by sep

    def __post_init__(self):
        if self.rest and isinstance(self.of, Split) and self.of.any_of:
            raise ValueError("the parts before / after a part are not taken of a split at "
                             "any of several characters (its separators differ)")


def select_rest(parts: list, k: int, rest: str, sep: str):
    """``SelectK`` with ``rest``: the parts before (``"before"``) or after (``"after"``)
    part ``k``, joined by the separator; None when part k does not exist or nothing is
    before / after it ("George H.W. Bush" split at " ": before part -1 is "George H.W.")."""
    n = len(parts)
    if not -n <= k < n:
        return None
    i = k % n
    if rest == "before":
        return sep.join(parts[:i]) if i >= 1 else None
    return sep.join(parts[i + 1:]) if i < n - 1 else None


@dataclass(frozen=True)
class Substring:
    of: object          # Column or SelectK
    start: int | None = None
    stop: int | None = None
    casing: str = "same"


@dataclass(frozen=True)
class Constant:
    text: str


@dataclass(frozen=True)
class Replace:
    of: object          # Column or SelectK
    old: str
    new: str


@dataclass(frozen=True)
class Trim:
    of: object          # Column or SelectK


@dataclass(frozen=True)
class Encode:
    of: object          # Column or SelectK
    scheme: str = "url"     # one of ENCODINGS


def percent_encode(v: str) -> str:
    """``v`` as a URL's query string writes it (``application/x-www-form-urlencoded``): a
    space as "+", every character but letters, digits and "_.-~" as "%" and its UTF-8
    bytes in hex ("Production/Stable" -> "Production%2FStable")."""
    return urllib.parse.quote_plus(v, safe="")


def texinfo_encode(v: str) -> str:
    """``v`` as Texinfo writes a node name in HTML file names and anchors (the Texinfo
    manual, "HTML Xref Node Name Expansion"): runs of whitespace made one space and the
    ends stripped; ASCII letters and digits kept, a space as "-", any other character as
    "_" and its code point in 4 lower-case hex digits ("_" and 6 digits above U+FFFF, so
    "__01f600"); "g_t" before a name not beginning with an ASCII letter ("Time-Stamping"
    -> "Time_002dStamping", "3.1" -> "g_t3_002e1")."""
    v = " ".join(v.split())
    out = "".join(ch if ch.isascii() and ch.isalnum() else "-" if ch == " " else
                  f"_{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"__{ord(ch):06x}" for ch in v)
    return out if v[:1].isascii() and v[:1].isalpha() else "g_t" + out


ENCODINGS = {"url": percent_encode, "texinfo": texinfo_encode}


def normalize_space(v: str) -> str:
    """``v`` without whitespace at its ends and with every inner run of whitespace as one
    space ("  Terre   Haute " -> "Terre Haute")."""
    return " ".join(v.split())


@dataclass(frozen=True)
class Pad:
    of: object          # Column, SelectK or Replace
    width: int


def pad_digits(v: str, width: int) -> str:
    """``v`` left-padded with zeros to ``width`` when it is a run of ASCII digits (never
    cut); any other value as it is."""
    return v.rjust(width, "0") if v.isascii() and v.isdigit() else v


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
    "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
    "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan",
    "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana",
    "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
    "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota",
    "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee",
    "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
    "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "PR": "Puerto Rico",
    "AS": "American Samoa", "GU": "Guam", "MP": "Northern Mariana Islands",
    "VI": "U.S. Virgin Islands"}
STATE_ALIASES = {"washington dc": "DC", "washington d.c": "DC", "northern marianas": "MP",
                 "virgin islands": "VI", "us virgin islands": "VI"}


def _build_tables() -> dict:
    """The fixed equivalence tables of :class:`Map`: lower-cased, space-normalized key ->
    canonical text (numbers are handled apart, by value)."""
    months = {}
    for i, name in enumerate(MONTHS):
        for key in {name.lower(), name[:3].lower(), str(i + 1), f"{i + 1:02d}"}:
            months[key] = i + 1
    months["sept"] = 9
    states = {}
    for code, name in STATES.items():
        states[code.lower()] = code
        states[name.lower()] = code
    states.update(STATE_ALIASES)
    return {"month_name": {k: MONTHS[v - 1] for k, v in months.items()},
            "month_number": {k: str(v) for k, v in months.items()},
            "state_code": dict(states),
            "state_name": {k: STATES[v] for k, v in states.items()}}


MAP_TABLES = _build_tables()
MAPS = ("number",) + tuple(MAP_TABLES)


def map_value(v: str, table: str):
    """``v`` through the named equivalence: ``number`` a run of ASCII digits by its value
    ("007" -> "7"); ``month_name`` / ``month_number`` a month as a number, a name or its
    3-letter form ("07", "jul", "July" -> "July" / "7"); ``state_code`` / ``state_name`` a
    US state as its name or USPS code ("new york" -> "NY" / "New York"). None when ``v`` is
    not in the table (no key)."""
    if table == "number":
        return (v.lstrip("0") or "0") if v.isascii() and v.isdigit() else None
    key = " ".join(v.split()).lower().rstrip(".")
    return MAP_TABLES[table].get(key)


@dataclass(frozen=True)
class Map:
    of: object          # Column, SelectK, Replace or Trim
    table: str          # one of MAPS


@dataclass(frozen=True)
class Words:
    of: object          # Column or SelectK
    sep: str            # "" splits at case changes ("KeyPress" -> "Key", "Press")
    casing: str         # one of CASINGS, applied to each word
    joiner: str
    caps_end: bool = False  # at case changes, a run of capitals ending v kept with its word


_CASE_CHANGE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_CASE_CHANGE_CAPS_END = re.compile(r"(?<=[a-z0-9])(?=[A-Z])(?![A-Z]{2,}$)|(?<=[A-Z])(?=[A-Z][a-z])")


def split_words(v: str, sep: str, caps_end: bool = False) -> list:
    """``v`` split at ``sep``, or at its case changes when ``sep`` is "" (before a capital
    that follows a small letter or digit, and before the last capital of a run followed by
    a small letter: "HTTPServerX2Value" -> "HTTP", "Server", "X2", "Value"); with
    ``caps_end`` a run of two or more capitals ending ``v`` stays with the word before it
    ("FiraGO" -> "FiraGO", deviation 72)."""
    if sep:
        return v.split(sep)
    return (_CASE_CHANGE_CAPS_END if caps_end else _CASE_CHANGE).split(v)


def join_words(v: str, sep: str, casing: str, joiner: str, caps_end: bool = False) -> str:
    """Every word of ``v`` (:func:`split_words`) cased, joined by ``joiner``
    ("ERRCODE_SUCCESSFUL_COMPLETION", "_", title, "" -> "ErrcodeSuccessfulCompletion")."""
    return joiner.join(apply_casing(w, casing) for w in split_words(v, sep, caps_end))


@dataclass(frozen=True)
class Concat:
    parts: tuple


STRING_NODES = (Column, SelectK, Substring, Constant, Concat, Replace, Pad, Trim, Map, Words,
                Encode)


def extract(column: str, splits: Sequence[tuple[str, int]] = (), start: int | None = None,
            stop: int | None = None, casing: str = "same",
            replace: tuple[str, str] | None = None, pad: int | None = None,
            trim: bool = False) -> Substring:
    """The logical operator SUBSTR / SPLITSUBSTR / SPLITSPLITSUBSTR as a physical tree:
    ``Substring(SelectK(Split(... SelectK(Split(Column(column), sep1), k1) ...)), start, stop)``,
    the operand read through ``Trim`` when ``trim`` is true, through ``Replace(old, new)``
    when ``replace`` is given, then through ``Pad(width)`` when ``pad`` is."""
    node = Column(column)
    for sep, k in splits:
        node = SelectK(Split(node, sep), k)
    if trim:
        node = Trim(node)
    if replace is not None:
        node = Replace(node, *replace)
    if pad is not None:
        node = Pad(node, pad)
    return Substring(node, start, stop, casing)


def columns_of(node) -> list[str]:
    """Input columns a node reads, in first-use order."""
    out: list[str] = []

    def walk(n):
        if isinstance(n, Column):
            if n.name not in out:
                out.append(n.name)
        elif isinstance(n, Concat):
            for p in n.parts:
                walk(p)
        elif isinstance(n, (Split, SelectK, Substring, Replace, Pad, Trim, Map, Words, Encode)):
            walk(n.of)

    walk(node)
    return out


def rename_columns(node, names: dict):
    """``node`` with every ``Column(name)`` read as ``Column(names.get(name, name))``."""
    if isinstance(node, Column):
        return Column(names.get(node.name, node.name))
    if isinstance(node, Concat):
        return Concat(tuple(rename_columns(p, names) for p in node.parts))
    if isinstance(node, (Split, SelectK, Substring, Replace, Pad, Trim, Map, Words, Encode)):
        return dataclasses.replace(node, of=rename_columns(node.of, names))
    return node


# ------------------------------------------------------------------ cell text

def cell_text(value):
    """A cell as text, or None for a null: strings as they are, whole floats without ".0"
    (a pandas float column holding 1974.0 reads as "1974"), dates, timestamps and durations
    as the lake reader and the index write them (``render_value``: "2013-01-20" for a
    midnight, "2013-01-20T13:00:00" else), other values with str()."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, (_dt.date, _dt.time, _dt.timedelta)) or type(value).__name__ in (
            "Timestamp", "Timedelta", "datetime64", "timedelta64"):
        return render_value(value)
    if isinstance(value, float) or type(value).__name__.startswith("float"):
        value = float(value)
        if value != value:
            return None
        if value.is_integer() and abs(value) < 1e18:
            return str(int(value))
        return repr(value)
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    if hasattr(value, "item") and not hasattr(value, "isoformat"):
        return cell_text(value.item())
    return str(value)


# ------------------------------------------------------------------ interpreter

def apply_casing(text: str, casing: str) -> str:
    """``text`` in one of CASINGS: as it is, lower, upper or title case."""
    if casing == "same":
        return text
    if casing == "lower":
        return text.lower()
    if casing == "upper":
        return text.upper()
    return text.title()


def compile_expr(node, columns: Sequence[str]) -> Callable[[Sequence], str | None]:
    """A function row -> output (str, or None when the program does not apply to the row).
    ``row`` holds the cells of ``columns`` in that order (str or None). Nested closures, no
    code generation: the program's strings are data, never code."""
    pos = {c: i for i, c in enumerate(columns)}
    return _compile(node, pos)


def _text_map(inner, f):
    """A compiled node applying ``f`` to ``inner``'s value, a text or a split text's parts
    (None stays None)."""
    def run(row):
        v = inner(row)
        return None if v is None else f(v)
    return run


def _compile(node, pos):
    if isinstance(node, Column):
        if node.name not in pos:
            raise KeyError(f"the program reads column {node.name!r}, which the table does not have")
        i = pos[node.name]
        return lambda row: row[i] if isinstance(row[i], str) else None
    if isinstance(node, Constant):
        text = node.text
        return lambda row: text
    if isinstance(node, Split):
        return _text_map(_compile(node.of, pos), node.parts)
    if isinstance(node, SelectK) and node.rest:
        k, rest, sep = node.k, node.rest, node.of.sep
        return _text_map(_compile(node.of, pos), lambda parts: select_rest(parts, k, rest, sep))
    if isinstance(node, SelectK):
        inner, k = _compile(node.of, pos), node.k

        def select(row):
            parts = inner(row)
            if parts is None or not -len(parts) <= k < len(parts):
                return None
            return parts[k]
        return select
    if isinstance(node, Replace):
        old, new = node.old, node.new
        return _text_map(_compile(node.of, pos), lambda v: v.replace(old, new))
    if isinstance(node, Trim):
        return _text_map(_compile(node.of, pos), normalize_space)
    if isinstance(node, Encode):
        return _text_map(_compile(node.of, pos), ENCODINGS[node.scheme])
    if isinstance(node, Pad):
        width = node.width
        return _text_map(_compile(node.of, pos), lambda v: pad_digits(v, width))
    if isinstance(node, Words):
        sep, casing, joiner, caps = node.sep, node.casing, node.joiner, node.caps_end
        return _text_map(_compile(node.of, pos),
                         lambda v: join_words(v, sep, casing, joiner, caps))
    if isinstance(node, Map):
        table = node.table
        return _text_map(_compile(node.of, pos), lambda v: map_value(v, table))
    if isinstance(node, Substring):
        a, b, casing = node.start, node.stop, node.casing
        return _text_map(_compile(node.of, pos), lambda v: apply_casing(v[a:b], casing))
    if isinstance(node, Concat):
        parts = [_compile(p, pos) for p in node.parts]

        def concat(row):
            out = []
            for f in parts:
                v = f(row)
                if v is None:
                    return None
                out.append(v)
            return "".join(out)
        return concat
    raise TypeError(f"not a program node: {node!r}")


# ------------------------------------------------------------------ readable form

def _ordinal(k: int) -> str:
    if k >= 0:
        return str(k + 1)
    if k == -1:
        return "last"
    return f"{-k}th-from-last" if -k > 3 else {2: "2nd-from-last", 3: "3rd-from-last"}[-k]


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _described_input(inner, show_columns: bool) -> str:
    """How :func:`describe` names a node's input: "the value" for a column whose name is
    not shown."""
    return "the value" if isinstance(inner, Column) and not show_columns else \
        describe(inner, show_columns)


def describe(node, show_columns: bool = True) -> str:
    """Readable form, e.g. ``lower(first letter of word 1) + lower(word 2) + "@school.edu"``."""
    if isinstance(node, Concat):
        return " + ".join(describe(p, show_columns) for p in node.parts) or '""'
    if isinstance(node, Constant):
        return _quote(node.text)
    if isinstance(node, Column):
        return f"`{node.name}`"
    if isinstance(node, SelectK):
        sep, k = node.of.sep, node.k
        where = describe(node.of.of, show_columns)
        plain = isinstance(node.of.of, Column) and not show_columns
        if node.rest:
            unit = "word" if sep == " " else "part"
            what = ("the last " + unit if k == -1 else f"{unit} {_ordinal(k)}")
            what = ("all before " if node.rest == "before" else "all after ") + what
            if sep != " ":
                what += f" (split at {_quote(sep)})"
        elif node.of.any_of:
            at = ", ".join(map(_quote, sep))
            what = (f"the part before the first of {at}" if k == 0 else
                    f"the part after the last of {at}" if k == -1 else
                    f"part {_ordinal(k)} (split at any of {at})")
        elif sep == " ":
            what = "last word" if k == -1 else f"word {_ordinal(k)}"
        else:
            what = ("last part" if k == -1 else f"part {_ordinal(k)}") + f" (split at {_quote(sep)})"
        return what if plain else f"{what} of {where}"
    if isinstance(node, Replace):
        base = _described_input(node.of, show_columns)
        what = "without " + _quote(node.old) if node.new == "" else \
            f"with {_quote(node.old)} as {_quote(node.new)}"
        return f"{base} {what}"
    if isinstance(node, Pad):
        base = _described_input(node.of, show_columns)
        return f"{base} padded with zeros to {node.width}"
    if isinstance(node, Trim):
        base = _described_input(node.of, show_columns)
        return f"{base} with spaces trimmed"
    if isinstance(node, Encode):
        base = _described_input(node.of, show_columns)
        return f"{base} percent-encoded" if node.scheme == "url" else \
            f"{base} written as a Texinfo node name"
    if isinstance(node, Words):
        base = _described_input(node.of, show_columns)
        at = "at case changes" if node.sep == "" else f"at {_quote(node.sep)}"
        if node.caps_end:
            at += ", a run of capitals at the end kept"
        cased = "words" if node.casing == "same" else f"{node.casing}-cased words"
        return f"{cased} of {base} (split {at}, joined by {_quote(node.joiner)})"
    if isinstance(node, Map):
        base = _described_input(node.of, show_columns)
        what = {"number": "as a number without leading zeros", "month_name": "as a month name",
                "month_number": "as a month number", "state_code": "as a state code",
                "state_name": "as a state name"}[node.table]
        return f"{base} {what}"
    if isinstance(node, Substring):
        base = _described_input(node.of, show_columns)
        a, b = node.start, node.stop
        if (a in (None, 0)) and b is None:
            text = base
        elif a in (None, 0) and b is not None and b > 0:
            text = f"first letter of {base}" if b == 1 else f"first {b} letters of {base}"
        elif a is not None and a < 0 and b is None:
            text = f"last letter of {base}" if a == -1 else f"last {-a} letters of {base}"
        elif a is not None and a > 0 and b is None:
            text = f"{base} from letter {a + 1}"
        elif a in (None, 0) and b is not None and b < 0:
            text = f"{base} without its last {-b} letter{'s' if b < -1 else ''}"
        elif a is not None and a > 0 and b is not None and b > a:
            text = f"letter {b} of {base}" if b == a + 1 else f"letters {a + 1}-{b} of {base}"
        else:
            lo = "" if a is None else str(a)
            hi = "" if b is None else str(b)
            text = f"{base}[{lo}:{hi}]"
        return text if node.casing == "same" else f"{node.casing}({text})"
    raise TypeError(f"not a program node: {node!r}")


# ------------------------------------------------------------------ JSON

def to_dict(node) -> dict:
    if isinstance(node, Column):
        return {"op": "column", "name": node.name}
    if isinstance(node, Split):
        out = {"op": "split", "of": to_dict(node.of), "sep": node.sep}
        return {**out, "any_of": True} if node.any_of else out
    if isinstance(node, SelectK):
        d = {"op": "select", "of": to_dict(node.of), "k": node.k}
        if node.rest:
            d["rest"] = node.rest
        return d
    if isinstance(node, Substring):
        return {"op": "substring", "of": to_dict(node.of), "start": node.start,
                "stop": node.stop, "casing": node.casing}
    if isinstance(node, Constant):
        return {"op": "constant", "text": node.text}
    if isinstance(node, Concat):
        return {"op": "concat", "parts": [to_dict(p) for p in node.parts]}
    if isinstance(node, Replace):
        return {"op": "replace", "of": to_dict(node.of), "old": node.old, "new": node.new}
    if isinstance(node, Pad):
        return {"op": "pad", "of": to_dict(node.of), "width": node.width}
    if isinstance(node, Trim):
        return {"op": "trim", "of": to_dict(node.of)}
    if isinstance(node, Encode):
        out = {"op": "encode", "of": to_dict(node.of)}
        return out if node.scheme == "url" else {**out, "scheme": node.scheme}
    if isinstance(node, Map):
        return {"op": "map", "of": to_dict(node.of), "table": node.table}
    if isinstance(node, Words):
        out = {"op": "words", "of": to_dict(node.of), "sep": node.sep,
               "casing": node.casing, "joiner": node.joiner}
        return {**out, "caps_end": True} if node.caps_end else out
    raise TypeError(f"not a program node: {node!r}")


def _need(d, key, types, where):
    if key not in d:
        raise ProgramFormatError(f"{where}: missing field {key!r}")
    v = d[key]
    if not isinstance(v, types) or isinstance(v, bool):
        raise ProgramFormatError(f"{where}: field {key!r} has the wrong type ({type(v).__name__})")
    return v


def from_dict(d, where: str = "program") -> object:
    """Rebuild a node from :func:`to_dict` output, checking every field (no eval)."""
    if not isinstance(d, dict):
        raise ProgramFormatError(f"{where}: expected an object, got {type(d).__name__}")
    op = d.get("op")
    if op == "column":
        return Column(_need(d, "name", str, where))
    if op == "constant":
        return Constant(_need(d, "text", str, where))
    if op == "split":
        sep = _need(d, "sep", str, where)
        if not sep:
            raise ProgramFormatError(f"{where}: a split separator cannot be empty")
        any_of = d.get("any_of", False)
        if not isinstance(any_of, bool):
            raise ProgramFormatError(f"{where}: field 'any_of' must be true or false")
        if any_of and len(set(sep)) < 2:
            raise ProgramFormatError(f"{where}: a split at any of several characters needs "
                                     f"two or more distinct characters, not {sep!r}")
        of = _string_of(d, where)
        return Split(of, sep, any_of)
    if op == "select":
        of = from_dict(d.get("of"), where + ".of")
        if not isinstance(of, Split):
            raise ProgramFormatError(f"{where}: select must take a split")
        rest = d.get("rest", "")
        if rest not in ("", "before", "after"):
            raise ProgramFormatError(f"{where}: rest must be 'before' or 'after', not {rest!r}")
        if rest and of.any_of:
            raise ProgramFormatError(f"{where}: rest is not taken of a split at any of "
                                     f"several characters")
        return SelectK(of, _need(d, "k", int, where), rest)
    if op == "substring":
        of = _string_of(d, where)
        start, stop = d.get("start"), d.get("stop")
        for name, v in (("start", start), ("stop", stop)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise ProgramFormatError(f"{where}: {name} must be an integer or null")
        casing = d.get("casing", "same")
        if casing not in CASINGS:
            raise ProgramFormatError(f"{where}: casing must be one of {CASINGS}, not {casing!r}")
        return Substring(of, start, stop, casing)
    if op == "replace":
        old, new = _need(d, "old", str, where), _need(d, "new", str, where)
        if not old:
            raise ProgramFormatError(f"{where}: the text a replace removes cannot be empty")
        of = _string_of(d, where)
        return Replace(of, old, new)
    if op == "pad":
        width = _need(d, "width", int, where)
        if not 1 <= width <= 64:
            raise ProgramFormatError(f"{where}: a pad width must be 1-64, not {width}")
        of = _string_of(d, where)
        return Pad(of, width)
    if op == "trim":
        of = _string_of(d, where)
        return Trim(of)
    if op == "encode":
        scheme = d.get("scheme", "url")     # programs saved before the Texinfo scheme
        if scheme not in ENCODINGS:
            raise ProgramFormatError(f"{where}: an encoding must be one of "
                                     f"{tuple(ENCODINGS)}, not {scheme!r}")
        of = _string_of(d, where)
        return Encode(of, scheme)
    if op == "map":
        table = _need(d, "table", str, where)
        if table not in MAPS:
            raise ProgramFormatError(f"{where}: a map table must be one of {MAPS}, not {table!r}")
        of = _string_of(d, where)
        return Map(of, table)
    if op == "words":
        sep, joiner = _need(d, "sep", str, where), _need(d, "joiner", str, where)
        casing = _need(d, "casing", str, where)
        if casing not in CASINGS:
            raise ProgramFormatError(f"{where}: casing must be one of {CASINGS}, not {casing!r}")
        caps_end = d.get("caps_end", False)
        if not isinstance(caps_end, bool) or (caps_end and sep):
            raise ProgramFormatError(f"{where}: caps_end must be true or false, and true only "
                                     "for a split at case changes (sep \"\")")
        of = _string_of(d, where)
        return Words(of, sep, casing, joiner, caps_end)
    if op == "concat":
        parts = d.get("parts")
        if not isinstance(parts, list):
            raise ProgramFormatError(f"{where}: concat needs a list of parts")
        nodes = tuple(from_dict(p, f"{where}.parts[{i}]") for i, p in enumerate(parts))
        for i, n in enumerate(nodes):
            _string_node(n, f"{where}.parts[{i}]")
        return Concat(nodes)
    raise ProgramFormatError(f"{where}: unknown operator {op!r}")


def _string_of(d: dict, where: str):
    """The operand ``d["of"]`` of an operator taking a string (not a split)."""
    of = from_dict(d.get("of"), where + ".of")
    _string_node(of, where + ".of")
    return of


def _string_node(node, where):
    if not isinstance(node, STRING_NODES):
        raise ProgramFormatError(f"{where}: expected a string-valued operator, got a split")


# ------------------------------------------------------------------ programs

@dataclass(frozen=True)
class Program:
    """A learned transformation: the concatenation of logical operators (pieces)."""
    pieces: tuple

    @property
    def expr(self) -> Concat:
        return Concat(tuple(self.pieces))

    @property
    def size(self) -> int:
        """Complexity = number of logical operators (§4.4.2, Def. 4.4.3)."""
        return len(self.pieces)

    @property
    def columns(self) -> list[str]:
        return columns_of(self.expr)

    def compile(self, columns: Sequence[str] | None = None):
        return compile_expr(self.expr, list(columns) if columns is not None else self.columns)

    def __call__(self, row: dict) -> str | None:
        """Apply to one row given as a mapping column -> cell."""
        cols = self.columns
        return self.compile(cols)(tuple(cell_text(row.get(c)) for c in cols))

    def apply(self, frame) -> "list":
        """The program's output for every row of a pandas DataFrame (None: no key)."""
        return apply_frame(self, frame)

    def describe(self, show_columns: bool = True) -> str:
        return describe(self.expr, show_columns)

    def renamed(self, names: dict) -> "Program":
        """The same program reading column ``names[c]`` where it read ``c``."""
        return Program(tuple(rename_columns(p, names) for p in self.pieces))

    def __str__(self):
        return self.describe()

    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": FORMAT_VERSION,
                "pieces": [to_dict(p) for p in self.pieces]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def evaluate(self, texts: dict, n: int) -> list:
        """The output for each of ``n`` rows given as columns (name -> list of str/None)."""
        return evaluate_columns(self.expr, texts, n)

    @classmethod
    def from_dict(cls, d) -> "Program":
        """A program from :meth:`to_dict`; a serialized :class:`ProgramSet` gives the set."""
        if isinstance(d, dict) and d.get("format") == SET_FORMAT:
            return ProgramSet.from_dict(d)
        _check_header(d, FORMAT, "program")
        pieces = d.get("pieces")
        if not isinstance(pieces, list) or not pieces:
            raise ProgramFormatError("a program needs a non-empty list of pieces")
        nodes = tuple(from_dict(p, f"pieces[{i}]") for i, p in enumerate(pieces))
        for i, n in enumerate(nodes):
            _string_node(n, f"pieces[{i}]")
        return cls(nodes)

    @classmethod
    def from_json(cls, text: str) -> "Program":
        return cls.from_dict(_json_object(text))

    def python_code(self, function_name: str = "derive_key") -> str:
        """Plain Python source of a function ``f(<one argument per column>) -> str | None``."""
        return python_function(self, function_name)


# ------------------------------------------------------------------ program sets

SET_FORMAT = "lakejoin-autojoin-program-set"
PATTERN_KINDS = ("delimiters", "shape", "last word")


def cell_pattern(text, kind: str):
    """The syntactic pattern a guard tests (None for a null cell). ``delimiters``: the
    value's non-alphanumeric characters in order ("7/1/2014" -> "//"); ``shape``: runs of
    character classes, upper case "A", lower case "a", digits "0", any other character as
    itself ("Board Jr." -> "Aa Aa."); ``last word``: the value's last word, cut at
    delimiters and case changes as :func:`split_words` cuts ("StrokeDashValue" -> "Value",
    "Board Jr." -> "Jr", "X2" -> "X2"; "" when the value has no letter or digit)."""
    if not isinstance(text, str):
        return None
    if kind == "delimiters":
        return "".join(ch for ch in text if not ch.isalnum())
    if kind == "last word":
        end = len(text)
        while end and not text[end - 1].isalnum():
            end -= 1
        start = end
        while start and text[start - 1].isalnum():
            start -= 1
        word = text[start:end]
        for i in range(len(word) - 1, 0, -1):      # the last case change (split_words')
            a, b = word[i - 1], word[i]
            if "A" <= b <= "Z" and ("a" <= a <= "z" or "0" <= a <= "9" or (
                    "A" <= a <= "Z" and i + 1 < len(word) and "a" <= word[i + 1] <= "z")):
                return word[i:]
        return word
    out = []
    for ch in text:
        c = "0" if ch.isdigit() else "A" if ch.isupper() else "a" if ch.isalpha() else ch
        if not out or out[-1] != c or not c.isalnum():
            out.append(c)
    return "".join(out)


@functools.lru_cache(maxsize=1 << 16)
def _string_pattern(text: str, kind: str):
    return cell_pattern(text, kind)


def pattern_of(text, kind: str):
    """:func:`cell_pattern`, cached for strings (guards test the same cells many times;
    ``cell_pattern`` itself stays plain: its source goes into the generated code)."""
    return _string_pattern(text, kind) if isinstance(text, str) else None


def plain_program(program):
    """``program`` without the case change and the trimming around its whole output (one
    piece: ``upper(part 2 of tz)``, ``lower(tz with spaces trimmed)``), which the join's
    comparison folds anyway (keys are compared normalized); None when it has neither. The
    caller keeps it only where the compared keys are the same (deviation 83)."""
    if not isinstance(program, Program) or len(program.pieces) != 1:
        return None
    piece = program.pieces[0]
    if isinstance(piece, Trim):
        piece = Substring(piece)
    if isinstance(piece, Substring):
        piece = dataclasses.replace(piece, casing="same")
        if piece.start is None and piece.stop is None and isinstance(piece.of, Trim):
            piece = dataclasses.replace(piece, of=piece.of.of)      # the ends' spaces
    return None if piece == program.pieces[0] else Program((piece,))


@dataclass(frozen=True)
class Guard:
    """True for a row whose ``column`` cell has one of ``patterns`` (of ``kind``)."""
    column: str
    kind: str
    patterns: frozenset

    def test(self, text) -> bool:
        return pattern_of(text, self.kind) in self.patterns

    def describe(self) -> str:
        if self.kind == "delimiters" and self.patterns == frozenset({""}):
            return f"if `{self.column}` has no delimiter"
        ordered = sorted(self.patterns, key=lambda p: (p == "", p))     # "none" last
        shown = " or ".join("none" if p == "" else _quote(p) for p in ordered[:4])
        more = f" (or {len(self.patterns) - 4} more)" if len(self.patterns) > 4 else ""
        if self.kind == "last word":
            return f"if `{self.column}` ends with the word {shown}{more}"
        what = "delimiters" if self.kind == "delimiters" else "shape"
        return f"if `{self.column}` has the {what} {shown}{more}"

    def to_dict(self) -> dict:
        return {"column": self.column, "kind": self.kind, "patterns": sorted(self.patterns)}

    @classmethod
    def from_dict(cls, d, where: str) -> "Guard":
        if not isinstance(d, dict):
            raise ProgramFormatError(f"{where}: a guard must be an object")
        kind = _need(d, "kind", str, where)
        if kind not in PATTERN_KINDS:
            raise ProgramFormatError(f"{where}: guard kind must be one of {PATTERN_KINDS}")
        patterns = d.get("patterns")
        if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
            raise ProgramFormatError(f"{where}: guard patterns must be a list of strings")
        return cls(_need(d, "column", str, where), kind, frozenset(patterns))


@dataclass(frozen=True)
class ProgramSet:
    """Programs tried in order, each under an optional :class:`Guard`: a row's key is the
    output of the first branch whose guard holds and whose program gives a key (None when
    none does). Same interface as :class:`Program`."""
    branches: tuple            # of (Guard | None, Program)

    @property
    def programs(self) -> list:
        return [p for _g, p in self.branches]

    @property
    def size(self) -> int:
        """Complexity: logical operators over all branches."""
        return sum(p.size for p in self.programs)

    @property
    def columns(self) -> list[str]:
        out: list[str] = []
        for g, p in self.branches:
            for c in ([g.column] if g is not None else []) + p.columns:
                if c not in out:
                    out.append(c)
        return out

    def compile(self, columns: Sequence[str] | None = None):
        columns = list(columns) if columns is not None else self.columns
        pos = {c: i for i, c in enumerate(columns)}
        branches = []
        for g, p in self.branches:
            if g is not None and g.column not in pos:
                raise KeyError(f"the program reads column {g.column!r}, which the table "
                               f"does not have")
            branches.append((None if g is None else (pos[g.column], g), p.compile(columns)))

        def run(row):
            for guard, f in branches:
                if guard is not None and not guard[1].test(row[guard[0]]):
                    continue
                out = f(row)
                if out is not None:
                    return out
            return None
        return run

    def __call__(self, row: dict) -> str | None:
        cols = self.columns
        return self.compile(cols)(tuple(cell_text(row.get(c)) for c in cols))

    def apply(self, frame) -> list:
        return apply_frame(self, frame)

    def evaluate(self, texts: dict, n: int) -> list:
        out = [None] * n
        for g, p in self.branches:
            todo = [i for i in range(n) if out[i] is None]
            if not todo:
                break
            if g is not None:
                cells = texts[g.column]
                todo = [i for i in todo if g.test(cells[i])]
            sub = {c: [texts[c][i] for i in todo] for c in p.columns}
            for i, v in zip(todo, p.evaluate(sub, len(todo))):
                out[i] = v
        return out

    def describe(self, show_columns: bool = True) -> str:
        parts = []
        for i, (g, p) in enumerate(self.branches, 1):
            head = f"{g.describe()}: " if g is not None else ("otherwise: " if i > 1 else "")
            parts.append(f"({i}) {head}{p.describe(show_columns)}")
        return "first that applies of " + "; ".join(parts)

    def __str__(self):
        return self.describe()

    def to_dict(self) -> dict:
        return {"format": SET_FORMAT, "version": FORMAT_VERSION,
                "branches": [{"guard": None if g is None else g.to_dict(),
                              "program": p.to_dict()} for g, p in self.branches]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, d) -> "ProgramSet":
        _check_header(d, SET_FORMAT, "program set")
        branches = d.get("branches")
        if not isinstance(branches, list) or not branches:
            raise ProgramFormatError("a program set needs a non-empty list of branches")
        out = []
        for i, b in enumerate(branches):
            where = f"branches[{i}]"
            if not isinstance(b, dict):
                raise ProgramFormatError(f"{where}: expected an object")
            g = b.get("guard")
            prog = b.get("program")
            if isinstance(prog, dict) and prog.get("format") == SET_FORMAT:
                raise ProgramFormatError(f"{where}: a branch holds a program, not a set")
            out.append((None if g is None else Guard.from_dict(g, where + ".guard"),
                        Program.from_dict(prog)))
        return cls(tuple(out))

    @classmethod
    def from_json(cls, text: str) -> "ProgramSet":
        return cls.from_dict(_json_object(text))

    def python_code(self, function_name: str = "derive_key") -> str:
        """Plain Python source: one function per branch, a pattern helper when a guard needs
        it, and ``function_name(<one argument per column>)`` trying them in order."""
        if not function_name.isidentifier() or keyword.iskeyword(function_name):
            raise ValueError(f"not a Python identifier: {function_name!r}")
        names = [f"{function_name}_branch{i}" for i in range(1, len(self.branches) + 1)]
        taken: set = {function_name, "key", "cell_pattern", *names}
        params = {c: _identifier(c, taken) for c in self.columns}
        out = []
        if any(g is not None for g, _p in self.branches):
            out.append(inspect.getsource(cell_pattern).rstrip() + "\n")
        body = [f"def {function_name}({', '.join(params[c] for c in self.columns)}):",
                f"    {self.describe()!r}"]
        for name, (g, p) in zip(names, self.branches):
            out.append(python_function(p, name))
            call = f"{name}({', '.join(params[c] for c in p.columns)})"
            if g is None:
                body.append(f"    key = {call}")
            else:
                body.append("    key = None")
                body.append(f"    if cell_pattern({params[g.column]}, {g.kind!r}) in "
                            f"{sorted(g.patterns)!r}:")
                body.append(f"        key = {call}")
            body.append("    if key is not None:")
            body.append("        return key")
        body.append("    return None")
        out.append("\n".join(body) + "\n")
        return "\n\n".join(out)




def column_texts(values) -> list:
    """``cell_text`` of every value of a column (a list or a pandas Series); strings, the
    common case, pass through without a call."""
    if hasattr(values, "tolist"):
        values = values.tolist()
    return [v if type(v) is str else cell_text(v) for v in values]


def apply_frame(program, frame, labels: dict | None = None) -> list:
    """Apply ``program`` (a Program or ProgramSet) to each row of ``frame``, column-wise (:func:`evaluate_columns`).
    ``labels`` maps the program's column names to the frame's column labels (when these are
    not strings)."""
    cols = program.columns
    labels = labels or {}
    missing = [c for c in cols if labels.get(c, c) not in frame.columns]
    if missing:
        raise KeyError(f"the program reads column(s) {missing}, which the table does not have "
                       f"(it has {list(map(str, frame.columns))[:20]})")
    texts = {c: column_texts(frame[labels.get(c, c)]) for c in cols}
    return program.evaluate(texts, len(frame))


def evaluate_columns(node, texts: dict, n: int) -> list:
    """The interpreter of :func:`compile_expr` run one operator at a time over whole columns
    (``texts``: column name -> list of str/None, ``n`` rows): the same semantics, one list
    comprehension per operator instead of nested calls per row (what makes applying a
    program to a million rows affordable). Returns one output (str or None) per row."""
    if isinstance(node, Column):
        return [v if isinstance(v, str) else None for v in texts[node.name]]
    if isinstance(node, Constant):
        return [node.text] * n
    if isinstance(node, Split):
        return [None if v is None else node.parts(v) for v in evaluate_columns(node.of, texts, n)]
    if isinstance(node, SelectK) and node.rest:
        k, sep, rest = node.k, node.of.sep, node.rest
        return [None if v is None else select_rest(v.split(sep), k, rest, sep)
                for v in evaluate_columns(node.of.of, texts, n)]
    if isinstance(node, SelectK) and node.of.any_of:
        k, split = node.k, node.of.parts
        return [None if v is None or not -len(p := split(v)) <= k < len(p) else p[k]
                for v in evaluate_columns(node.of.of, texts, n)]
    if isinstance(node, SelectK):
        k, sep = node.k, node.of.sep
        vals = evaluate_columns(node.of.of, texts, n)
        # split at most as far as part k (from the front, or from the back when the
        # separator cannot overlap itself, where rsplit finds the same parts): no list of
        # every part per row, which dominated applying a program to a million rows
        if k >= 0:
            return [None if v is None else p[k] if len(p := v.split(sep, k + 1)) > k else None
                    for v in vals]
        if not any(sep[:i] == sep[-i:] for i in range(1, len(sep))):
            return [None if v is None else p[k] if len(p := v.rsplit(sep, -k)) >= -k else None
                    for v in vals]
        return [None if v is None or not -len(p := v.split(sep)) <= k else p[k] for v in vals]
    if isinstance(node, Replace):
        old, new = node.old, node.new
        return [None if v is None else v.replace(old, new)
                for v in evaluate_columns(node.of, texts, n)]
    if isinstance(node, Pad):
        width = node.width
        return [None if v is None else pad_digits(v, width)
                for v in evaluate_columns(node.of, texts, n)]
    if isinstance(node, Trim):
        return [None if v is None else " ".join(v.split())
                for v in evaluate_columns(node.of, texts, n)]
    if isinstance(node, Encode):
        encode = ENCODINGS[node.scheme]
        return [None if v is None else encode(v)
                for v in evaluate_columns(node.of, texts, n)]
    if isinstance(node, Words):
        sep, casing, joiner, caps = node.sep, node.casing, node.joiner, node.caps_end
        return [None if v is None else join_words(v, sep, casing, joiner, caps)
                for v in evaluate_columns(node.of, texts, n)]
    if isinstance(node, Map):
        table = node.table
        return [None if v is None else map_value(v, table)
                for v in evaluate_columns(node.of, texts, n)]
    if isinstance(node, Substring):
        a, b, casing = node.start, node.stop, node.casing
        vals = evaluate_columns(node.of, texts, n)
        if casing == "same":
            return [None if v is None else v[a:b] for v in vals]
        case = {"lower": str.lower, "upper": str.upper}.get(casing, str.title)
        return [None if v is None else case(v[a:b]) for v in vals]
    if isinstance(node, Concat):
        if not node.parts:
            return [""] * n
        variable = [p for p in node.parts if not isinstance(p, Constant)]
        if len(variable) == 1:
            # constants around one computed piece (e.g. "E" + x[2:9]): no per-row tuples
            i = node.parts.index(variable[0])
            before = "".join(p.text for p in node.parts[:i])
            after = "".join(p.text for p in node.parts[i + 1:])
            return [None if v is None else before + v + after
                    for v in evaluate_columns(variable[0], texts, n)]
        cols = [evaluate_columns(p, texts, n) for p in node.parts]
        return [None if None in row else "".join(row) for row in zip(*cols)]
    raise TypeError(f"not a program node: {node!r}")


# ------------------------------------------------------------------ Python code

def _identifier(name: str, taken: set) -> str:
    base = re.sub(r"[^0-9a-zA-Z_]+", "_", name.strip().lower()).strip("_") or "col"
    if base[0].isdigit():
        base = "c_" + base
    if keyword.iskeyword(base) or base in ("row", "parts", "cell_text", "derive_key", "re", "w"):
        base += "_"
    ident, i = base, 2
    while ident in taken:
        ident, i = f"{base}_{i}", i + 1
    taken.add(ident)
    return ident


def python_function(program: Program, function_name: str = "derive_key") -> str:
    """Source of a Python function reproducing the program. Splits are computed once each;
    a null cell or a missing part raises inside and returns None, like the interpreter."""
    if not function_name.isidentifier() or keyword.iskeyword(function_name):
        raise ValueError(f"not a Python identifier: {function_name!r}")
    taken: set = {function_name}
    params = {c: _identifier(c, taken) for c in program.columns}
    lines: list[str] = []
    names: dict = {}

    def text_of(node) -> str:
        if isinstance(node, Column):
            return params[node.name]
        if isinstance(node, SelectK) and node.rest:
            parts, k = parts_of(node.of), node.k
            var = _identifier(f"{parts}_{node.rest}_{abs(k)}", taken)
            edge = f"{k} % len({parts}) < 1" if node.rest == "before" else \
                f"{k} % len({parts}) >= len({parts}) - 1"
            lines.append(f"if not -len({parts}) <= {k} < len({parts}) or {edge}:")
            lines.append("    return None")
            span = f"[:{k} % len({parts})]" if node.rest == "before" else \
                f"[{k} % len({parts}) + 1:]"
            lines.append(f"{var} = {node.of.sep!r}.join({parts}{span})")
            return var
        if isinstance(node, SelectK):
            return f"{parts_of(node.of)}[{node.k}]"
        if isinstance(node, Replace):
            return f"{text_of(node.of)}.replace({node.old!r}, {node.new!r})"
        if isinstance(node, Trim):
            return f"' '.join({text_of(node.of)}.split())"
        if isinstance(node, Encode) and node.scheme == "url":
            inner = text_of(node.of)
            lines.append("import urllib.parse")
            return f"urllib.parse.quote_plus({inner}, safe='')"
        if isinstance(node, Encode):        # Texinfo's node name expansion
            inner = text_of(node.of)
            name = _identifier(f"{inner}_spaced", taken)
            var = _identifier(f"{inner}_texinfo", taken)
            lines.append(f"{name} = ' '.join({inner}.split())")
            lines.append(f"{var} = ''.join(ch if ch.isascii() and ch.isalnum() else '-' "
                         f"if ch == ' ' else f'_{{ord(ch):04x}}' if ord(ch) <= 0xFFFF "
                         f"else f'__{{ord(ch):06x}}' for ch in {name})")
            lines.append(f"if not ({name}[:1].isascii() and {name}[:1].isalpha()):")
            lines.append(f"    {var} = 'g_t' + {var}")
            return var
        if isinstance(node, Pad):
            inner = text_of(node.of)
            var = _identifier(f"{inner}_padded", taken)
            lines.append(f"{var} = {inner}.rjust({node.width}, '0') "
                         f"if {inner}.isascii() and {inner}.isdigit() else {inner}")
            return var
        if isinstance(node, Words):
            inner = text_of(node.of)
            var = _identifier(f"{inner}_words", taken)
            if node.sep:
                split = f"{inner}.split({node.sep!r})"
            else:
                lines.append("import re")
                pattern = (_CASE_CHANGE_CAPS_END if node.caps_end else _CASE_CHANGE).pattern
                split = f"re.split({pattern!r}, {inner})"
            word = "w" if node.casing == "same" else f"w.{node.casing}()"
            lines.append(f"{var} = {node.joiner!r}.join({word} for w in {split})")
            return var
        if isinstance(node, Map):
            inner = text_of(node.of)
            var = _identifier(f"{inner}_{node.table}", taken)
            if node.table == "number":
                lines.append(f"if not ({inner}.isascii() and {inner}.isdigit()):")
                lines.append("    return None")
                lines.append(f"{var} = {inner}.lstrip('0') or '0'")
            else:
                table = dict(sorted(MAP_TABLES[node.table].items()))
                lines.append(f"{var} = {table!r}.get(' '.join({inner}.split()).lower().rstrip('.'))")
                lines.append(f"if {var} is None:")
                lines.append("    return None")
            return var
        raise TypeError(node)

    def parts_of(split: Split) -> str:
        if split not in names:
            inner = text_of(split.of)
            var = _identifier(f"{inner}_parts", taken)
            if split.any_of:
                lines.append("import re")
                lines.append(f"{var} = re.split({_any_of(split.sep).pattern!r}, {inner})")
            else:
                lines.append(f"{var} = {inner}.split({split.sep!r})")
            names[split] = var
        return names[split]

    pieces = []
    for p in program.pieces:
        if isinstance(p, Constant):
            pieces.append(repr(p.text))
            continue
        src = text_of(p.of)
        if p.start is not None or p.stop is not None:
            lo = "" if p.start is None else str(p.start)
            hi = "" if p.stop is None else str(p.stop)
            src = f"{src}[{lo}:{hi}]"
        if p.casing != "same":
            src = f"{src}.{p.casing}()"
        pieces.append(src)
    doc = program.describe(show_columns=True)
    args = ", ".join(params[c] for c in program.columns)
    check = " or ".join(f"not isinstance({params[c]}, str)" for c in program.columns)
    body = [f"def {function_name}({args}):",
            f"    {doc!r}"]
    if check:
        body += [f"    if {check}:", "        return None"]
    body += ["    try:"]
    body += [f"        {line}" for line in lines]
    body += [f"        return {' + '.join(pieces) or repr('')}",
             "    except IndexError:  # a part the value does not have: no key",
             "        return None"]
    return "\n".join(body) + "\n"
