"""Read one table file in one pass: sniff it, decode it, parse it, hand out its cells as
Arrow arrays (one per column).

These functions run inside Spark tasks (indexing/read.py) and in the notebook, so a table
reads the same way in both. CSV is parsed by Arrow's reader when it gives exactly Python's
csv records, otherwise by Python's csv module. Every problem with a file becomes a
:class:`TableReadError` naming the file, what is wrong and what to do (the table skipped).

What is tolerated, and reported as a warning on the table:
* encodings: UTF-8 (with or without BOM), UTF-16/32 with BOM, otherwise Windows-1252, and
  Latin-1 as the last resort (it decodes any byte string);
* duplicate column names (the second "x" becomes "x.2") and empty ones ("column_3");
* ragged rows: short rows are padded with nulls, cells beyond the header are dropped;
* lines above the header (comments starting with "#", a title, blank lines): skipped when
  the line after them reads as a header its data rows agree with (:func:`preamble_lines`);
* JSON lines files: a line that is not a JSON object is skipped (the warning gives its number);
* very long cells (they are read; normalization does not index values over 512 chars);
* decimal commas ("13,2"; "n/a", "-" missing) in a file not separated by commas: numbers
  ("13.2", :func:`_decimal_commas`); with points or a cell such as "k.A.": text, warned;
* decimal-point numbers with "-", "n/a" cells: those missing (:func:`_marked_numbers`).
List columns: a Parquet column of lists of scalars, or a JSON-lines column whose values are all
lists of scalars (or null), is a list column (``TableInfo.lists``): the build reads it as one
list of element texts per cell (``lists=True``), so its values are its elements; elsewhere
its cells read as their JSON text. Lists of lists or of structs stay JSON text.
Refused: empty files, a header without data rows, binary content (Excel or ZIP named .csv),
JSON that is not JSON lines (an array, no line an object), files that cannot be opened.
A table as pandas reads its file (``read_as_pandas``: the types ``pd.read_csv``,
``pd.read_parquet`` or ``pd.read_json(lines=True)`` give, the index's missing values) is for
a query file and for output that keeps them. A table read after the build takes the indexed
columns by name (``indexed_order``); one the file no longer has is a ColumnsChangedError.
"""
from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import lzma
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

from ..errors import TableReadError
from .normalize import render_value

SNIFF_BYTES = 1 << 16
CHUNK_ROWS = 100_000
csv.field_size_limit(1 << 30)

_MAGIC = {
    b"PK\x03\x04": "a ZIP archive (an Excel .xlsx file?); export it as CSV",
    b"\xd0\xcf\x11\xe0": "an old Excel/Office file; export it as CSV",
    b"PAR1": "a Parquet file with the wrong extension; rename it to .parquet",
    b"%PDF": "a PDF document",
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"SQLite format 3": "an SQLite database",
}


@dataclass
class TableInfo:
    """What the sniffing pass learned about one table (sent from executors to the driver)."""
    table_id: int
    uri: str
    format: str
    ok: bool = False
    error: str = ""
    hint: str = ""
    encoding: str = ""
    delimiter: str = ""
    columns: list[str] = field(default_factory=list)
    n_rows: int = 0
    n_fields_max: int = 0
    skip_lines: int = 0       # lines above the header (comments, a title), not read
    digest: str = ""          # content digest of the file (the build's read job takes it)
    warnings: list[str] = field(default_factory=list)
    partitions: list[str] = field(default_factory=list)  # a Parquet folder's key=value columns
    lists: list[str] = field(default_factory=list)  # list columns: their values are elements
    epoch_dates: dict = field(default_factory=dict)  # JSON-lines epoch dates: column -> unit
    decimal_commas: list[str] = field(default_factory=list)  # CSV columns read "13,2" -> "13.2"
    marked_numbers: list[str] = field(default_factory=list)  # CSV numbers with "-" cells missing

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, s: str) -> "TableInfo":
        return cls(**json.loads(s))


# ------------------------------------------------------------------ bytes and text

def _open_bytes(uri: str) -> bytes:
    p = Path(uri)
    try:
        if p.is_dir():
            raise TableReadError(uri, "is a folder, not a file")
        raw = p.read_bytes()
    except TableReadError:
        raise
    except PermissionError as e:
        raise TableReadError(uri, f"cannot be read: permission denied ({e.strerror})",
                             "give the build user read access or remove the file from the lake")
    except FileNotFoundError:
        raise TableReadError(uri, "cannot be opened: the file is missing or a broken link",
                             "remove it from the lake or fix the link")
    except OSError as e:
        raise TableReadError(uri, f"cannot be read: {e.strerror or e}")
    name = p.name.lower()
    try:
        if name.endswith(".gz"):
            raw = gzip.decompress(raw)
        elif name.endswith(".bz2"):
            raw = bz2.decompress(raw)
        elif name.endswith(".xz"):
            raw = lzma.decompress(raw)
    except (OSError, EOFError, lzma.LZMAError) as e:
        raise TableReadError(uri, f"is not a valid compressed file ({e})")
    return raw


def decode(uri: str, raw: bytes) -> tuple[str, str]:
    """(text, encoding) of a text file's bytes; refuses binary content."""
    head = raw[:SNIFF_BYTES]
    for magic, what in _MAGIC.items():
        if head.startswith(magic):
            raise TableReadError(uri, f"is binary: it looks like {what}")
    boms = [(b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"),
            (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")]
    for bom, enc in boms:
        if raw.startswith(bom):
            try:
                return raw.decode(enc), enc
            except UnicodeDecodeError as e:
                raise TableReadError(uri, f"starts with a {enc} byte-order mark but is not "
                                          f"valid {enc} ({e.reason} at byte {e.start})")
    if b"\x00" in head:
        raise TableReadError(uri, "is binary (it contains NUL bytes), not a text table",
                             "if it is UTF-16 without a byte-order mark, re-save it as UTF-8")
    controls = sum(1 for b in head if b < 9 or 13 < b < 32)
    if head and controls / len(head) > 0.05:
        raise TableReadError(uri, "is binary (many control bytes), not a text table")
    for enc in ("utf-8", "cp1252"):
        try:
            return raw.decode(enc), enc
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1"), "latin-1"


def _sniff_delimiter(text: str, fmt: str) -> str:
    if fmt == "tsv":
        return "\t"
    sample = text[:SNIFF_BYTES]
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


PREAMBLE_MAX_LINES = 10      # lines looked at above a header
PREAMBLE_CHECK_RECORDS = 50  # data records a header candidate is checked against


def preamble_lines(text: str, delimiter: str) -> int:
    """How many physical lines above the header to skip: comment lines ("#..."), titles
    (at most one non-empty cell, such as a spreadsheet's "Table 1,,,") and blank lines,
    when the first line does not read as a header but a later one does. A header has at
    least two named cells, and at least 80 % of the data records after it have its number
    of cells. 0 when the first line is the header or no line within the first ten is; so a
    header named "#,Name" or "# of units,price", or one shorter than its rows (extra cells
    are dropped, as before), is never skipped; nor is a comment that splits into as many
    cells as the header (it cannot be told from one)."""
    lines = []
    for line in io.StringIO(text[:SNIFF_BYTES], newline=""):
        if len(lines) > PREAMBLE_MAX_LINES:
            break
        lines.append(line)
    offset = 0
    for s, line in enumerate(lines[:PREAMBLE_MAX_LINES]):
        cells = _line_cells(line, delimiter)
        if cells is None:
            return 0                      # a quoted value spans lines: no guessing
        if sum(1 for c in cells if c.strip()) >= 2 and \
                _data_agrees(text, offset + len(line), delimiter, len(cells)):
            return s
        if not _preamble_line(cells):
            return 0
        offset += len(line)
    return 0


def _line_cells(line: str, delimiter: str) -> list[str] | None:
    body = line.rstrip("\r\n").lstrip("\ufeff")
    if body.count('"') % 2:
        return None
    try:
        return next(csv.reader([body], delimiter=delimiter), [])
    except csv.Error:
        return None


def _preamble_line(cells: list[str]) -> bool:
    filled = [c for c in cells if c.strip()]
    return len(filled) <= 1 or cells[0].lstrip().startswith("#")


def _data_agrees(text: str, start: int, delimiter: str, width: int) -> bool:
    sample = text[start:start + SNIFF_BYTES]
    records = []
    try:
        for row in csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter):
            if row and not (len(row) == 1 and not row[0].strip()):
                records.append(len(row))
            if len(records) > PREAMBLE_CHECK_RECORDS:
                break
    except csv.Error:
        return False
    if len(sample) == SNIFF_BYTES and len(records) > 1:
        records.pop()                     # the sample may cut the last record
    return bool(records) and sum(n == width for n in records) >= 0.8 * len(records)


def drop_lines(text: str, n: int) -> str:
    """``text`` without its first ``n`` physical lines (any line ending)."""
    if n <= 0:
        return text
    stream = io.StringIO(text, newline="")
    cut = sum(len(stream.readline()) for _ in range(n))
    return text[cut:]


def unique_header(names: list[str]) -> tuple[list[str], list[str]]:
    """The header with each empty name called ``column_<n>`` and each repeated one numbered
    (``name.2``), and a warning per name changed."""
    warnings, out, seen = [], [], {}
    for i, n in enumerate(names):
        n = (n or "").strip()
        if not n:
            new = f"column_{i + 1}"
            warnings.append(f"column {i + 1} has an empty name; called it {new!r}")
            n = new
        if n in seen:
            seen[n] += 1
            new = f"{n}.{seen[n]}"
            while new in seen:
                seen[n] += 1
                new = f"{n}.{seen[n]}"
            warnings.append(f"duplicate column name {n!r} (column {i + 1}) renamed {new!r}")
            n = new
        seen.setdefault(n, 1)
        out.append(n)
    return out, warnings


# ------------------------------------------------------------------ reading (one pass)

def read_columns(table_id: int, uri: str, fmt: str) -> tuple[TableInfo, list | None]:
    """Sniff, validate and read a table in one pass: its :class:`TableInfo` and its cells as
    one Arrow string array per column (null for a null cell; a list column, ``info.lists``:
    a list<string> array of its element texts), or None when the table cannot be read (the
    TableInfo says why). Never raises."""
    info = TableInfo(table_id=table_id, uri=uri, format=fmt)
    try:
        if fmt in ("csv", "tsv"):
            raw = _open_bytes(uri)
            if not raw.strip():
                raise TableReadError(uri, "is empty", "nothing to index")
            text, info.encoding = decode(uri, raw)
            if info.encoding not in ("utf-8", "utf-8-sig"):
                info.warnings.append(f"not UTF-8; decoded as {info.encoding}")
            info.delimiter = _sniff_delimiter(text, fmt)
            utf8 = raw if info.encoding == "utf-8" else None
            skip = preamble_lines(text, info.delimiter)
            if skip:
                first = next((x.strip() for x in text.splitlines() if x.strip()), "")
                text, utf8 = drop_lines(text, skip), None
                delimiter = _sniff_delimiter(text, fmt)
                if delimiter != info.delimiter and preamble_lines(text, delimiter) == 0:
                    info.delimiter = delimiter
                info.skip_lines = skip
                info.warnings.append(
                    f"skipped {skip} line(s) above the header (comments or a title"
                    + (f", e.g. {_clip(first)!r}" if first else "") + ")")
            cols = _csv_columns(info, text, utf8)
        elif fmt == "parquet":
            cols = _parquet_columns(info, inspect=True, lists=True)
        elif fmt == "jsonl":
            cols = _jsonl_columns(info, lists=True)
        else:
            raise TableReadError(uri, f"unknown table format {fmt!r}")
        if not info.columns:
            raise TableReadError(uri, "has no columns")
        if info.n_rows == 0:
            raise TableReadError(uri, "has a header but no data rows", "nothing to index")
        info.ok = True
        return info, cols
    except TableReadError as e:
        info.ok, info.error, info.hint = False, e.reason, e.hint
    except Exception as e:  # noqa: BLE001 - any parser failure is reported, never fatal
        info.ok, info.error = False, f"could not be parsed: {type(e).__name__}: {e}"
    return info, None


def _clip(s: str, n: int = 60) -> str:
    return s if len(s) <= n else s[: n - 1] + "\u2026"


def inspect(table_id: int, uri: str, fmt: str) -> TableInfo:
    """Sniff and validate one table; never raises (errors go into the TableInfo)."""
    return read_columns(table_id, uri, fmt)[0]


def _csv_columns(info: TableInfo, text: str, utf8: bytes | None = None,
                 decimal_commas: list | None = None, marked_numbers: list | None = None) -> list:
    """The data cells of a CSV/TSV text, one Arrow array per column; sets columns, n_rows,
    n_fields_max and the ragged-row warnings. Rows are the CSV records after the header,
    except empty records and records of one blank field; short rows are padded with nulls,
    cells beyond the header are dropped, an empty cell is null. Decimal commas: as
    :func:`_decimal_commas` finds them, or in the ``decimal_commas`` columns when given;
    missing marks in columns of decimal-point numbers likewise (:func:`_marked_numbers`).

    Parsed by Arrow's CSV reader; a file Arrow would read differently (ragged rows, a
    single column, quoting Arrow rejects) is parsed by Python's csv module instead, which
    defines the result (tests check the two agree)."""
    import pyarrow as pa

    reader = csv.reader(io.StringIO(text, newline=""), delimiter=info.delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise TableReadError(info.uri, "is empty", "nothing to index")
    except csv.Error as e:
        raise TableReadError(info.uri, f"has a malformed header line ({e})")
    info.columns, warns = unique_header(header)
    info.warnings += warns
    info.n_fields_max = len(header)
    cols = _csv_columns_arrow(info, utf8 if utf8 is not None else text.encode("utf-8"),
                              len(header)) if len(header) > 1 else None
    if cols is None:
        cols = _csv_columns_python(info, reader, len(header))
    info.n_rows = len(cols[0]) if cols else 0
    cols = [c if isinstance(c, pa.Array) else pa.array(c, pa.string()) for c in cols]
    return _marked_numbers(info, _decimal_commas(info, cols, decimal_commas), marked_numbers)


# a number written with a decimal comma and nothing else ("13,2", "-0,5"), an integer, and
# the forms read as text that a warning names: thousands points ("1.234,5"), decimal points
_DECIMAL_COMMA = r"^\s*-?[0-9]+,[0-9]+\s*$"
_INTEGER_OR_BLANK = r"^\s*(-?[0-9]+)?\s*$"
_COMMA_WITH_POINTS = r"^\s*-?[0-9]+(\.[0-9]{3})+,[0-9]+\s*$"
_DECIMAL_POINT = r"^\s*-?[0-9]+\.[0-9]+\s*$"
_THREE_DIGITS = r",[0-9]{3}\s*$"


def _decimal_commas(info: TableInfo, cols: list, known: list | None = None) -> list:
    """``cols`` with the decimal-comma columns of a file not separated by commas read as
    numbers: each such column's commas become points ("13,2" -> "13.2") and its null
    spellings missing (:func:`_as_numbers`), as the same file written with decimal points
    reads (``pd.read_csv(..., decimal=",")`` reads the same numbers and NaN); their names go
    to ``info.decimal_commas``. A column is one when every
    non-blank cell is an integer, a number with one decimal comma and no other separator,
    or missing (:func:`_missing_cells`: a null spelling, ``NULL_SPELLINGS``: "n/a", "null",
    "nan", ..., or a cell with no letter or digit: "-", "--", "*"; no key to the index, as
    an empty cell), and some cell's comma is not followed by exactly three digits (a column
    of "1,500" and "2,000" only may be thousands: it stays text). A cell without a comma
    keeps its text ("0012" stays "0012"). Columns that are numbers with a decimal comma but
    also thousands points ("1.234,5") or decimal points ("1.5") stay text: one warning
    names them. Columns of which more than half the non-missing cells are decimal-comma
    numbers or integers (one a fraction) but some cell neither a number nor missing ("k.A.")
    stay text: one warning names each with its first such cell. ``known``
    (a table read after its build): the columns the build read so, whatever the rule
    says of the file now, so a join reads what the index holds."""
    import pyarrow.compute as pc
    info.decimal_commas = []
    if info.delimiter == ",":
        return cols
    if known is not None:
        known = set(known)
        info.decimal_commas = [n for n in info.columns if n in known]
        return [_as_numbers(c) if n in info.decimal_commas else c
                for n, c in zip(info.columns, cols)]
    out, kept, stray = [], [], []
    for name, col in zip(info.columns, cols):
        cells = col.drop_null()
        out.append(col)
        cells = cells.filter(pc.invert(_missing_cells(cells)))
        if len(cells) == 0 or not pc.any(pc.match_substring(cells, ",")).as_py():
            continue
        comma, points, point, whole = (pc.match_substring_regex(cells, r) for r in (
            _DECIMAL_COMMA, _COMMA_WITH_POINTS, _DECIMAL_POINT, _INTEGER_OR_BLANK))
        fraction = pc.and_(pc.or_(comma, points),
                           pc.invert(pc.match_substring_regex(cells, _THREE_DIGITS)))
        number = pc.or_(pc.or_(comma, points), pc.or_(point, whole))
        if not pc.all(number).as_py():                  # not all numbers
            if pc.any(pc.and_(comma, fraction)).as_py() and \
                    2 * pc.sum(pc.or_(comma, whole)).as_py() > len(cells):
                stray.append((name, cells.filter(pc.and_(comma, fraction))[0].as_py().strip(),
                              cells.filter(pc.invert(number))[0].as_py().strip()))
            continue
        if not pc.any(fraction).as_py():
            continue                                    # no comma, or maybe thousands: "1,500"
        if pc.any(pc.or_(points, point)).as_py():
            example = cells.filter(fraction)[0].as_py().strip()
            other = cells.filter(pc.or_(points, point))[0].as_py().strip()
            kept.append((name, example, other))
            continue
        out[-1] = _as_numbers(col)
        info.decimal_commas.append(name)
    if kept:
        names = ", ".join(repr(n) for n, _, _ in kept)
        name, example, other = kept[0]
        info.warnings.append(
            f"column(s) {names} hold numbers written with a decimal comma ({example!r} in "
            f"{name!r}) but also with points ({other!r}): they are indexed as text and "
            f"match only values written so; to join them as numbers, save the file with one "
            f"number format (decimal commas and no thousands separator, or decimal points)")
    if stray:
        cells = "; ".join(f"{name!r}: {other!r} among numbers such as {example!r}"
                          for name, example, other in stray)
        info.warnings.append(
            f"column(s) of numbers written with a decimal comma hold a cell that is neither a "
            f"number nor a missing mark ({cells}): they are indexed as text and match only "
            f"values written so; to join them as numbers, write such a cell as a number, or "
            f"leave it empty (or write n/a or -) where the value is missing")
    return out


# a number as pandas' CSV parser types it (an integer, a decimal point, an exponent)
_POINT_NUMBER = r"^\s*[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?\s*$"


def _marked_numbers(info: TableInfo, cols: list, known: list | None = None) -> list:
    """``cols`` with the missing cells (:func:`_missing_cells`: "-", "--", "*", "n/a") of
    each column of decimal-point numbers or integers that holds some made missing, as in a
    decimal-comma column and as ``pd.read_csv(na_values=those cells)`` types it (a query
    file, ``typed_as_read_csv``): so the two sides of a join read one column alike. A
    column of such marks alone stays text. Their names go to ``info.marked_numbers``;
    ``known`` (a table read after its build): the columns the build read so."""
    import pyarrow as pa
    import pyarrow.compute as pc
    if known is not None:
        known = set(known)
        info.marked_numbers = [n for n in info.columns if n in known]
    else:
        info.marked_numbers = []
        for name, col in zip(info.columns, cols):
            if name in info.decimal_commas:
                continue
            cells = col.drop_null()
            missing = _missing_cells(cells)
            if not pc.any(missing).as_py() or pc.all(missing).as_py():
                continue
            numbers = cells.filter(pc.invert(missing))
            if pc.all(pc.match_substring_regex(numbers, _POINT_NUMBER)).as_py():
                info.marked_numbers.append(name)
    marked = set(info.marked_numbers)
    return [pc.if_else(_missing_cells(c), pa.scalar(None, pa.string()), c) if n in marked
            else c for n, c in zip(info.columns, cols)]


# a cell with a letter or a digit (RE2, and Java's regex for Spark, read it alike; Python's
# re: PY_LETTER_OR_DIGIT): a cell without one ("-", "--", ".", "*", "\u2013") holds no key to
# the index (normalize.py drops it as junk) and is missing in a decimal-comma column
LETTER_OR_DIGIT = r"[\p{L}\p{N}]"
PY_LETTER_OR_DIGIT = r"[^\W_]"


def _missing_cells(cells):
    """Which cells of a decimal-comma column are missing: a null spelling (:func:`_null_spelled`)
    or a cell with no letter or digit ("-", "*", "\u2013": junk to the index, normalize.py)."""
    import pyarrow.compute as pc
    return pc.or_(_null_spelled(cells),
                  pc.invert(pc.match_substring_regex(cells, LETTER_OR_DIGIT)))


def _null_spelled(cells):
    """Which cells are a null spelling (``NULL_SPELLINGS``, in any case, blanks around)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from .normalize import NULL_SPELLINGS
    return pc.is_in(pc.utf8_lower(pc.utf8_trim_whitespace(cells)),
                    value_set=pa.array(sorted(NULL_SPELLINGS), pa.string()))


def _as_numbers(col):
    """A decimal-comma column as numbers read: its commas points ("13,2" -> "13.2"), its
    missing cells (:func:`_missing_cells`: "n/a", "NULL", "-") missing, as
    ``pd.read_csv(..., decimal=",", na_values=[those cells])`` reads them."""
    import pyarrow as pa
    import pyarrow.compute as pc
    col = pc.replace_substring(col, ",", ".")
    return pc.if_else(_missing_cells(col), pa.scalar(None, pa.string()), col)


def _csv_columns_arrow(info: TableInfo, data: bytes, width: int) -> list | None:
    """Arrow's parse of the whole file (header included as row 0), or None if any record
    does not have exactly ``width`` fields or Arrow refuses the file."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    names = [f"f{i}" for i in range(width)]
    invalid = []

    def on_invalid(row):
        invalid.append(row.number)
        return "skip"

    try:
        t = pacsv.read_csv(
            io.BytesIO(data),
            read_options=pacsv.ReadOptions(column_names=names, use_threads=False,
                                           block_size=1 << 24),
            parse_options=pacsv.ParseOptions(
                delimiter=info.delimiter, quote_char='"', double_quote=True, escape_char=False,
                newlines_in_values=True, ignore_empty_lines=True, invalid_row_handler=on_invalid),
            convert_options=pacsv.ConvertOptions(
                column_types={n: pa.string() for n in names}, strings_can_be_null=True,
                quoted_strings_can_be_null=True, null_values=[""]))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if invalid or t.num_rows == 0:
        return None
    return [t.column(i).slice(1).combine_chunks() for i in range(width)]


def _csv_columns_python(info: TableInfo, reader, width: int) -> list:
    cols = [[] for _ in range(width)]
    short = long_ = 0
    fields_max = width
    n = 0
    try:
        for row in reader:
            if not row or (len(row) == 1 and not row[0].strip()):
                continue  # blank line
            n += 1
            if len(row) < width:
                short += 1
                row = row + [""] * (width - len(row))
            elif len(row) > width:
                long_ += 1
                fields_max = max(fields_max, len(row))
            for j in range(width):
                v = row[j]
                cols[j].append(v if v != "" else None)
    except csv.Error as e:
        raise TableReadError(info.uri, f"is not valid CSV near data row {n + 1} ({e})")
    info.n_fields_max = fields_max
    if short:
        info.warnings.append(f"{short} ragged row(s) with fewer cells than the header (padded with nulls)")
    if long_:
        info.warnings.append(f"{long_} ragged row(s) with more cells than the header "
                             f"(cells beyond column {width} ignored)")
    return cols


def _inspect_parquet(info: TableInfo) -> None:
    import pyarrow.parquet as pq
    try:                       # a file (a folder: _parquet_folder_columns); metadata only
        meta = pq.read_metadata(info.uri)
        schema, n = meta.schema.to_arrow_schema(), meta.num_rows
    except (OSError, ValueError) as e:
        p = Path(info.uri)
        if p.is_file() and p.stat().st_size == 0:
            raise TableReadError(info.uri, "is empty", "nothing to index")
        if not p.exists():
            raise TableReadError(info.uri, "cannot be opened: the file is missing or a broken link")
        raise TableReadError(info.uri, f"is not a readable Parquet file ({e})")
    info.encoding = "parquet"
    info.columns, warns = unique_header([f for f in schema.names if f != "__index_level_0__"])
    info.warnings += warns
    info.n_rows = int(n)


def _partition_keys(folder: Path) -> list[str]:
    """The columns of a folder's hive-style partition levels (``key=value/``, outermost
    first), read from its first partition folders."""
    keys, d = [], folder
    while True:
        subs = sorted(e for e in d.iterdir() if "=" in e.name and e.is_dir()
                      and not e.name.startswith((".", "_")))
        if not subs:
            return keys
        keys.append(subs[0].name.split("=", 1)[0])
        d = subs[0]


def dataset_files(folder: Path) -> list[Path]:
    """The files pyarrow's dataset reader reads in a folder: every file below it, in path
    order, but those under a name starting with "." or "_" (_SUCCESS, .crc files)."""
    return sorted(f for f in folder.rglob("*") if f.is_file() and not any(
        part.startswith((".", "_")) for part in f.relative_to(folder).parts))


def _check_folder_files(folder: Path, files: list, keys: list) -> bool:
    """Refuse, naming the file and the column, a dataset folder whose files hold a column
    named as a partition level's key (pyarrow's dataset reader fails on the two types, or
    silently keeps the folder's values and drops the file's). Whether a file repeats a
    column name (pyarrow cannot unify such files: _read_files_by_position reads them)."""
    import pyarrow.parquet as pq
    repeats = False
    for f in files:
        try:
            names = [n for n in pq.read_schema(f).names if n != "__index_level_0__"]
        except (OSError, ValueError):
            continue                    # not Parquet: the dataset reader says so
        repeats = repeats or len(set(names)) < len(names)
        for n in names:
            if n in keys:
                raise TableReadError(
                    str(folder), f"its file {Path(f).relative_to(folder).as_posix()} has a "
                    f"column {n!r}, the key of the partition folders ({n}=...), so the "
                    f"dataset's {n!r} would take the folder names' values and lose the "
                    f"file's (pandas and pyarrow refuse it or do so)",
                    f"drop or rename the column {n!r} in the files, or rename the partition "
                    f"folders")
    return repeats


def _read_files_by_position(folder: Path, files: list, keys: list):
    """A dataset folder whose files repeat a column name, read as pyarrow's dataset reader
    reads the others: the files in path order, each by position (its columns named as the
    first file's, in that order, and of its types), then the partition keys as text from
    each file's ``key=value`` folders (percent-escapes decoded; Hive's default partition
    is null)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    from urllib.parse import unquote
    parts, names, types = [], None, None
    for f in files:
        rel = Path(f).relative_to(folder).as_posix()
        t = _without_index(pq.ParquetFile(f).read(use_threads=False))
        if names is None:
            names, types = t.schema.names, t.schema.types
        elif t.schema.names != names:
            raise TableReadError(
                str(folder), f"its files repeat a column name and differ in their columns "
                f"({files[0].relative_to(folder).as_posix()}: {names}; {rel}: "
                f"{t.schema.names}), so they cannot be read by position",
                "give the files distinct column names")
        cols = []
        for j, c in enumerate(t.columns):
            try:
                cols.append(c.cast(types[j]) if c.type != types[j] else c)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
                raise TableReadError(str(folder), f"its file {rel}: column {j + 1} ({names[j]!r}) "
                                     f"is {c.type}, not {types[j]} as in the first file ({e})")
        given = dict(p.split("=", 1) for p in Path(rel).parent.parts if "=" in p)
        for k in keys:
            v = given.get(k)
            v = None if v is None or v == "__HIVE_DEFAULT_PARTITION__" else unquote(v)
            cols.append(pa.chunked_array([pa.array([v] * t.num_rows, pa.string())]))
        parts.append(cols)
    if not parts:
        raise TableReadError(str(folder), "has no Parquet file")
    arrays = [pa.chunked_array([ch for cols in parts for ch in cols[j].chunks],
                               (list(types) + [pa.string()] * len(keys))[j])
              for j in range(len(names) + len(keys))]
    return pa.Table.from_arrays(arrays, names=list(names) + list(keys))


def _parquet_folder_columns(info: TableInfo, inspect: bool, typed: bool = False,
                            lists: bool = False) -> list:
    """The cells of a Parquet dataset folder as pyarrow's dataset reads it (``pd.read_parquet``'s
    reader: its files in path order), the hive-style partition folders' keys as text
    columns after the files' own, with the value each folder name gives ("01" stays "01",
    where pandas and Spark would infer the number 1), columns by position; ``typed``: as
    stored; with ``inspect`` also its columns, partition columns and row count."""
    import pyarrow as pa
    import pyarrow.dataset as pads
    import pyarrow.parquet as pq
    try:
        keys = _partition_keys(Path(info.uri))
        files = dataset_files(Path(info.uri))
        if _check_folder_files(Path(info.uri), files, keys):
            table = _read_files_by_position(Path(info.uri), files, keys)
        else:
            ds = pq.ParquetDataset(info.uri, partitioning=pads.HivePartitioning.discover(
                schema=pa.schema([(k, pa.string()) for k in keys])) if keys else None)
            table = _without_index(ds.read(use_threads=False))
        names = table.schema.names
    except (OSError, ValueError, TypeError) as e:
        raise TableReadError(info.uri, f"is not a readable Parquet dataset folder ({e})")
    if inspect:
        info.encoding = "parquet"
        info.columns, warns = unique_header(names)
        info.warnings += warns
        info.partitions = [n for n in names if n in keys]
        info.n_rows = table.num_rows
    else:                           # the indexed columns, by name (a rewrite may reorder them)
        table = table.select(indexed_order(info, unique_header(names)[0]))
        names = table.schema.names
    if typed:
        return [table.column(j) for j in range(len(names))]
    if lists:
        info.lists = [info.columns[j] for j in range(len(names))
                      if is_scalar_list(table.schema.field(j).type)]
    return [_cell_texts(table.column(j), lists) for j in range(len(names))]


def _parquet_columns(info: TableInfo, inspect: bool = False, typed: bool = False,
                     lists: bool = False) -> list:
    """The cells of a Parquet file or dataset folder (each file opened once), one Arrow
    array per column by position, as text (``typed``: as stored, chunked arrays; ``lists``:
    a list column as lists of element texts, named in ``info.lists``); with ``inspect``
    also its columns, row count and header warnings (as _inspect_parquet)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    p = Path(info.uri)
    if p.is_dir():
        return _parquet_folder_columns(info, inspect, typed, lists)
    try:
        files = [pq.ParquetFile(p)]
    except (OSError, ValueError) as e:
        if inspect:
            _inspect_parquet(info)     # raises the specific error
        raise TableReadError(info.uri, f"is not a readable Parquet file ({e})")
    if inspect:
        info.encoding = "parquet"
        info.columns, warns = unique_header([f for f in files[0].schema_arrow.names
                                           if f != "__index_level_0__"])
        info.warnings += warns
        info.n_rows = int(files[0].metadata.num_rows)
    parts = [_without_index(pf.read(use_threads=False)) for pf in files]
    if not parts:
        return [pa.array([], pa.string()) for _ in info.columns]
    if not inspect:                 # the indexed columns, by name (a rewrite may reorder them)
        order = indexed_order(info, unique_header(parts[0].schema.names)[0])
        parts = [t.select(order) for t in parts]
    if typed:
        return [pa.chunked_array([c for t in parts for c in t.column(j).chunks],
                                 parts[0].schema.field(j).type)
                for j in range(len(info.columns))]
    if lists:
        info.lists = [info.columns[j] for j in range(len(info.columns))
                      if is_scalar_list(parts[0].schema.field(j).type)]
    return [pa.concat_arrays([_cell_texts(t.column(j), lists) for t in parts])
            for j in range(len(info.columns))]


def _without_index(table):
    """An Arrow table without pandas' index column, its columns taken by position (reading
    by name would give each of two columns named "x" the first one's values)."""
    return table.select([j for j, n in enumerate(table.schema.names) if n != "__index_level_0__"])


def read_parquet_typed(info: TableInfo):
    """A Parquet table the build has sniffed as an Arrow table of its own column types,
    named as the index names its columns (``info.columns``: duplicates renamed "x.2"),
    columns in the file's order."""
    import pyarrow as pa
    return pa.table(_parquet_columns(info, typed=True), names=list(info.columns))


def parquet_pandas_dtypes(info: TableInfo) -> list:
    """For each column of a Parquet table (by position, as :func:`read_parquet_typed` gives
    them), the pandas extension dtype the file's pandas metadata records for it (``Int64``,
    ``boolean``, ``string``, ``Float64``: what ``pd.read_parquet`` restores), else None; a
    folder's from its first file, its partition keys None."""
    import pyarrow.parquet as pq
    p = Path(info.uri)
    try:
        files = dataset_files(p) if p.is_dir() else [p]
        schema = pq.read_schema(files[0]) if files else None
        meta = (schema.pandas_metadata or {}) if schema is not None else {}
    except (OSError, ValueError, TypeError, IndexError):
        return [None] * len(info.columns)
    recorded = {c.get("field_name", c.get("name")): c.get("numpy_type")
                for c in meta.get("columns", []) if isinstance(c, dict)}
    out = []
    names = [n for n in schema.names if n != "__index_level_0__"] if schema else []
    for name in names:
        try:
            dtype = pd.api.types.pandas_dtype(recorded.get(name) or "object")
        except (TypeError, ValueError):
            dtype = None
        out.append(dtype if isinstance(dtype, pd.api.extensions.ExtensionDtype)
                   and hasattr(dtype, "__from_arrow__") else None)
    current = unique_header(names + [k for k in info.partitions if k not in names])[0]
    by_name = dict(zip(current, out))
    return [by_name.get(n) for n in info.columns]


def read_jsonl_typed(info: TableInfo) -> pd.DataFrame:
    """A JSON-lines table the build has sniffed as ``pd.read_json(path, lines=True)`` reads
    its columns (int64, float64, bool, datetimes by pandas' own inference, lists and objects
    as Python lists and dicts), by pandas on the lines the index read (decoded as it decodes
    them, lines that are not objects left out), named as the index names its columns; a file
    pandas cannot read (an integer beyond 64 bits, say) keeps every column's text."""
    import warnings
    text_frame = read_table(info)
    decoded, _ = decode(info.uri, _open_bytes(info.uri))
    lines = [s for s in decoded.splitlines() if s.strip() and _json_object(s)[0] is not None]
    try:
        with warnings.catch_warnings():        # pandas' own deprecation notes, not the user's
            warnings.simplefilter("ignore", FutureWarning)
            typed = pd.read_json(io.StringIO("\n".join(lines)), lines=True)
    except ValueError:
        return text_frame
    if len(typed) != len(text_frame):
        return text_frame
    try:                            # the indexed columns, by name, as read_table takes them
        typed = typed.iloc[:, indexed_order(info, unique_header(list(map(str, typed.columns)))[0])]
    except ColumnsChangedError:
        return text_frame
    typed.columns = text_frame.columns
    return typed.set_axis(text_frame.index)


def typed_frame(arrow) -> pd.DataFrame:
    """An Arrow table as pandas of the same types: integers and booleans as pandas' nullable
    Int64/boolean (a null or an unmatched row does not turn them into floats), floats,
    timestamps, decimals (Decimal objects), dates (date objects) and strings (None for
    nulls) as pyarrow converts them; lists of scalars (list columns) as Python lists of
    their elements (None for a null list); other types (nested lists, structs, binary, times)
    as the text the index read (lake/read.py), since their keys are that text."""
    import pyarrow as pa

    from ..frames import nullable_dtype
    cols, lists = [], {}
    for j, col in enumerate(arrow.columns):
        t = col.type
        if pa.types.is_dictionary(t):
            col = col.cast(t.value_type)
            t = col.type
        if is_scalar_list(t):
            lists[j] = col.to_pylist()
            col = pa.nulls(len(col), pa.string())
        elif not (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_integer(t)
                or pa.types.is_boolean(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)
                or pa.types.is_date(t) or pa.types.is_timestamp(t)):
            col = _arrow_text(col)
        cols.append(col)
    nullable = {t: nullable_dtype(t.to_pandas_dtype())
                for t in (pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(),
                          pa.uint32(), pa.uint64(), pa.bool_())}
    names = list(arrow.column_names)
    frame = pa.table(cols, names=[f"c{j}" for j in range(len(cols))]).to_pandas(
        types_mapper=nullable.get, date_as_object=True)
    frame.columns = names
    for j, c in enumerate(cols):
        if frame.dtypes.iloc[j] == object:   # strings, decimals, dates: None for nulls
            frame[names[j]] = frame[names[j]].astype(object).where(frame[names[j]].notna(), None)
    for j, cells in lists.items():
        a = np.empty(len(cells), dtype=object)
        for i, v in enumerate(cells):                       # lists kept whole, not nested
            a[i] = v
        frame.isetitem(j, pd.Series(a, index=frame.index, dtype=object))
    return frame


def parquet_as_pandas(arrow, dtypes=()) -> pd.DataFrame:
    """A Parquet table (an Arrow table) as ``pd.read_parquet`` gives its columns: integers as
    int64 (float64 with nulls), booleans as bool, floats, strings, Decimal, dates and
    timestamps as pyarrow converts them, dictionary columns as category, and a column the
    file's pandas metadata records as a nullable dtype (``dtypes``, by position: ``Int64``,
    ``boolean``, ``string``) as that dtype; the columns a key reads as text (structs, nested lists, binary, times) and list
    columns as :func:`typed_frame` has them."""
    import pyarrow as pa
    frame = typed_frame(arrow)
    for j, col in enumerate(arrow.columns):
        dtype = dtypes[j] if j < len(dtypes) else None
        if dtype is not None:
            try:
                frame.isetitem(j, pd.Series(dtype.__from_arrow__(col), index=frame.index))
                continue
            except (TypeError, ValueError, pa.ArrowException):
                pass                    # not the type the metadata says: as pyarrow gives it
        if pa.types.is_integer(col.type) or pa.types.is_boolean(col.type) \
                or pa.types.is_dictionary(col.type):      # dictionary: pandas' category
            frame.isetitem(j, col.to_pandas().set_axis(frame.index))
    return frame


def read_as_pandas(info: TableInfo) -> pd.DataFrame:
    """A table file the build has sniffed as pandas reads it, so that joined and stacked
    output keeps its column types: Parquet (a file or a folder) as ``pd.read_parquet``
    (:func:`parquet_as_pandas`), CSV and TSV as ``pd.read_csv`` infers their types, with the
    index's missing values (:func:`typed_as_read_csv`; decimal-comma columns as
    ``decimal=","`` reads them), JSON lines as ``pd.read_json(path, lines=True)``
    (:func:`read_jsonl_typed`), each read by the index's reader (encodings, lines above the
    header, repeated names)."""
    if info.format == "parquet":
        return parquet_as_pandas(read_parquet_typed(info), parquet_pandas_dtypes(info))
    if info.format == "jsonl":
        return read_jsonl_typed(info)
    text = read_table(info)
    return typed_as_read_csv(text) if info.format in ("csv", "tsv") else text


def typed_as_read_csv(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with each column of text cells (str or missing) typed as ``pd.read_csv``
    types a CSV file of those cells (numbers as int64 or float64, True/False as bool), by
    pandas' own parser, but with the index's missing values: only an empty cell is missing
    in a text column ("NA", "None", "null" stay text, as the index reads them), and a column
    that is numbers or booleans but for the index's missing cells (``NULL_SPELLINGS``:
    "nan", "null", "n/a", ...; and cells with no letter or digit, "-", "--", "*": keys of
    none, missing in a decimal-comma column too, :func:`_missing_cells`) is typed with
    those cells missing. Other columns are kept."""
    from .normalize import NULL_SPELLINGS
    letter_or_digit = re.compile(PY_LETTER_OR_DIGIT)
    pos = [i for i in range(frame.shape[1]) if frame.iloc[:, i].dtype == object
           and frame.iloc[:, i].map(lambda v: v is None or isinstance(v, str)).all()]
    if not pos or not len(frame):
        return frame
    text = frame.iloc[:, pos].to_csv(index=False, header=False)
    opts = dict(header=None, names=list(range(len(pos))), skip_blank_lines=False,
                keep_default_na=False)
    typed = pd.read_csv(io.StringIO(text), na_values=[""], **opts)
    nulls, marks = {}, set()
    for k, i in enumerate(pos):
        if typed[k].dtype == object:
            cells = frame.iloc[:, i].dropna().unique()
            said = {v for v in cells if v.strip().casefold() in NULL_SPELLINGS}
            junk = {v for v in cells if not letter_or_digit.search(v)} - said
            if said or junk:
                nulls[k] = sorted(said | junk) + [""]
            if junk:
                marks.add(k)
    if nulls:                       # numbers but for missing cells: those cells missing
        again = pd.read_csv(io.StringIO(text), na_values=nulls, **opts)
        for k in nulls:     # a column of marks alone ("-") is no column of numbers
            if again[k].dtype != object and (k not in marks or again[k].notna().any()):
                typed[k] = again[k]
    out = frame.copy()
    for k, i in enumerate(pos):
        out.isetitem(i, typed[k].set_axis(frame.index))
    return out


def _jsonl_columns(info: TableInfo, lists: bool = False) -> list:
    import pyarrow as pa
    raw = _open_bytes(info.uri)
    if not raw.strip():
        raise TableReadError(info.uri, "is empty", "nothing to index")
    text, info.encoding = decode(info.uri, raw)
    keys: dict[str, None] = {}
    objs = []
    bad = []
    array_hint = "write one JSON object per line (e.g. df.to_json(lines=True, orient='records'))"
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        obj, why = _json_object(line)
        if obj is None:
            if lineno == 1 and line.lstrip().startswith("["):
                raise TableReadError(info.uri, "holds a JSON array, not JSON lines", array_hint)
            bad.append((lineno, why))
            continue
        for k in obj:
            keys.setdefault(str(k), None)
        objs.append({str(k): v for k, v in obj.items()})
    if bad and not objs:
        raise TableReadError(info.uri, f"no line is a JSON object (line {bad[0][0]}: "
                                       f"{bad[0][1]})", array_hint)
    info.columns, warns = unique_header(list(keys))
    info.warnings += warns
    if bad:
        first = ", ".join(f"line {i}: {why}" for i, why in bad[:3])
        info.warnings.append(f"{len(bad)} line(s) skipped, not JSON objects ({first}"
                             + (", ..." if len(bad) > 3 else "") + ")")
    info.n_rows = len(objs)
    out = []
    for name, k in zip(info.columns, keys):
        values = [o.get(k) for o in objs]
        if lists and _json_list_column(values):
            info.lists.append(name)
            out.append(pa.array([None if v is None else [_render_cell(e) for e in v]
                                 for v in values], pa.list_(pa.string())))
        else:
            dates, unit = _json_epoch_dates(k, values)
            if unit:
                info.epoch_dates[name] = unit
            out.append(pa.array(dates if unit else [_render_cell(v) for v in values],
                                pa.string()))
    return out


# pd.read_json's default date conversion (convert_dates=True, keep_default_dates=True):
# the columns it tries, numbers it reads as epoch times, and the units it tries in turn
_PANDAS_DATE_NAMES = ("modified", "date", "datetime")
_PANDAS_MIN_STAMP = 31_536_000          # one year in seconds: smaller numbers stay numbers
_PANDAS_STAMP_UNITS = ("s", "ms", "us", "ns")


def _json_epoch_dates(key: str, values: list) -> tuple[list | None, str | None]:
    """The cells of a JSON-lines column of numbers as ``pd.read_json(lines=True)`` reads
    them, when it reads them as dates: a column named as pandas' default date columns are
    (``date``, ``datetime``, ``modified``, ``..._at``, ``..._time``, ``timestamp...``;
    any case) whose values are all numbers (or null), every one above one year in seconds,
    read in the first epoch unit of seconds, milliseconds, microseconds and nanoseconds
    that gives valid timestamps (pandas' ``to_json`` writes milliseconds by default). Each
    is rendered as any timestamp is (UTC; midnight as the date alone): (cells, unit).
    (None, None) otherwise: the column keeps its numbers' text. Text in such a column stays text (pandas would parse
    it too; ISO-8601 text is normalized to the same token anyway)."""
    low = key.lower()
    if not (low in _PANDAS_DATE_NAMES or low.endswith(("_at", "_time"))
            or low.startswith("timestamp")):
        return None, None
    numbers = [v for v in values if v is not None]
    if not numbers or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                              and v == v and v > _PANDAS_MIN_STAMP for v in numbers):
        return None, None
    whole = len(numbers) == len(values) and all(isinstance(v, int) for v in numbers)
    try:                                                        # as pandas holds them
        series = pd.Series(values, dtype="int64" if whole else "float64")
    except OverflowError:           # beyond 64 bits: pandas does not read the file typed
        return None, None
    for unit in _PANDAS_STAMP_UNITS:
        try:
            stamps = pd.to_datetime(series, errors="raise", unit=unit)
        except (ValueError, OverflowError, TypeError):
            continue
        return [render_value(t) for t in stamps], unit
    return None, None


def _json_list_column(values: list) -> bool:
    """Whether a JSON-lines column is a list column: some value is a list, and every value
    is null or a list of scalars (no object, no list inside)."""
    return any(isinstance(v, list) for v in values) and all(
        v is None or (isinstance(v, list) and not any(isinstance(e, (dict, list)) for e in v))
        for v in values)


def is_scalar_list(t) -> bool:
    """Whether an Arrow type is a list of scalars (a list column; not of lists, structs, maps)."""
    import pyarrow as pa
    return (pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t)) \
        and not pa.types.is_nested(t.value_type)


def _cell_texts(col, lists: bool):
    """:func:`_arrow_text` of a column; with ``lists``, a list column (:func:`is_scalar_list`)
    as a list<string> array of its elements' texts (null for a null list or element)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    if not (lists and is_scalar_list(col.type)):
        return _arrow_text(col)
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    n = pc.list_value_length(col).fill_null(0).to_numpy(zero_copy_only=False)
    offsets = np.zeros(len(n) + 1, dtype=np.int32)
    np.cumsum(n, out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), _arrow_text(pc.list_flatten(col)),
                                    mask=col.is_null())


def _arrow_text(col):
    """Text of an Arrow column's cells (null for nulls), as an Arrow string array: strings
    as they are, integers and booleans cast by Arrow in C, everything else (floats, dates,
    nested) rendered the way normalization renders Python values (once per distinct
    value), so Parquet and notebook values agree."""
    import pyarrow as pa
    import pyarrow.compute as pc
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
    t = col.type
    if pa.types.is_dictionary(t):
        col = col.cast(t.value_type)
        t = col.type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return col.cast(pa.string())
    if pa.types.is_integer(t) or pa.types.is_boolean(t):
        return col.cast(pa.string())
    if pa.types.is_null(t):
        return pa.nulls(len(col), pa.string())
    try:
        enc = pc.dictionary_encode(col)
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid, pa.ArrowTypeError):
        return pa.array([_render_cell(v) for v in col.to_pylist()], pa.string())
    texts = pa.array([_render_cell(v) for v in enc.dictionary.to_pylist()], pa.string())
    return pc.take(texts, enc.indices)


def _render_cell(v):
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False, sort_keys=True)
    return render_value(v)


def read_arrow(info: TableInfo, lists: bool = False) -> list:
    """The cells of a table the build has sniffed (its TableInfo), one Arrow string array
    per column, read exactly as the build read them (same encoding and delimiter, the
    decimal-comma columns it found: ``info.decimal_commas``, and ``info.marked_numbers``); a list
    column as its JSON text, or (``lists``) as the build reads it, lists of element texts."""
    if info.format in ("csv", "tsv"):
        raw = _open_bytes(info.uri)
        text = raw.decode(info.encoding or "utf-8")
        probe = TableInfo(table_id=info.table_id, uri=info.uri, format=info.format,
                          encoding=info.encoding, delimiter=info.delimiter or ",")
        if info.skip_lines:             # decimal commas: in the columns the build found
            cols = _csv_columns(probe, drop_lines(text, info.skip_lines),
                                decimal_commas=info.decimal_commas,
                                marked_numbers=info.marked_numbers)
        else:
            cols = _csv_columns(probe, text, raw if info.encoding == "utf-8" else None,
                                decimal_commas=info.decimal_commas,
                                marked_numbers=info.marked_numbers)
        cols = [cols[j] for j in indexed_order(info, probe.columns)]
    elif info.format == "parquet":
        cols = _parquet_columns(TableInfo(**{**asdict(info), "lists": []}), lists=lists)
    elif info.format == "jsonl":
        probe = TableInfo(table_id=info.table_id, uri=info.uri, format="jsonl")
        cols = _jsonl_columns(probe, lists=lists)
        cols = [cols[j] for j in indexed_order(info, probe.columns)]
    else:  # pragma: no cover
        raise TableReadError(info.uri, f"unknown table format {info.format!r}")
    return cols


class ColumnsChangedError(TableReadError):
    """A column the index knows is no longer in the table's file (renamed or dropped)."""


REBUILD_HINT = "rebuild the index to read the file as it is now: {command}"


def indexed_order(info: TableInfo, current: list) -> list[int]:
    """The positions, among a file's ``current`` columns (named as the build names them),
    of the columns the index knows (``info.columns``), in the index's order: a file whose
    columns were reordered since the build is read by name, never relabelled by position.
    A :class:`ColumnsChangedError` names the file and the first column it no longer has."""
    want = list(info.columns)
    current = list(current)
    if current == want:
        return list(range(len(want)))
    where = {n: j for j, n in enumerate(current)}
    gone = [n for n in want if n not in where]
    if gone:
        now = ", ".join(map(repr, current[:12])) + (", ..." if len(current) > 12 else "")
        raise ColumnsChangedError(
            info.uri, f"has no column {gone[0]!r} any more"
            + (f" (nor {', '.join(map(repr, gone[1:4]))})" if len(gone) > 1 else "")
            + f": the file changed since the index was built (its columns now: {now}); a "
            f"join reads columns by the names the index holds",
            REBUILD_HINT.format(command="`lakejoin index LAKE --out INDEX --overwrite`"))
    return [where[n] for n in want]


def current_columns(info: TableInfo) -> list:
    """The columns a table's file has now, named as the build names them (repeated names
    numbered "x.2"), read from its header (CSV/TSV), schema (Parquet; a folder's first file,
    then its partition keys) or keys (JSON lines)."""
    import pyarrow.parquet as pq
    p = Path(info.uri)
    if info.format in ("csv", "tsv"):
        if p.name.lower().endswith((".gz", ".bz2", ".xz")):
            raw = _open_bytes(info.uri)
        else:
            try:
                with open(p, "rb") as f:
                    raw = f.read(1 << 20)
            except OSError:
                raw = _open_bytes(info.uri)         # raises the specific error
        text = raw.decode(info.encoding or "utf-8", errors="replace")
        text = drop_lines(text, info.skip_lines)
        header = next(csv.reader(io.StringIO(text, newline=""),
                                 delimiter=info.delimiter or ","), [])
        return unique_header(header)[0]
    if info.format == "parquet":
        try:
            if p.is_dir():
                files = dataset_files(p)
                names = [n for n in pq.read_schema(files[0]).names] if files else []
                names += [k for k in _partition_keys(p) if k not in names]
            else:
                names = list(pq.read_schema(p).names)
        except (OSError, ValueError, IndexError) as e:
            raise TableReadError(info.uri, f"is not a readable Parquet file ({e})")
        return unique_header([n for n in names if n != "__index_level_0__"])[0]
    probe = TableInfo(table_id=info.table_id, uri=info.uri, format=info.format)
    _jsonl_columns(probe)
    return list(probe.columns)


def check_columns(info: TableInfo) -> list[int]:
    """:func:`indexed_order` of the file as it is now (for readers that take names, Spark's)."""
    return indexed_order(info, current_columns(info))


def _json_object(line: str) -> tuple[dict | None, str]:
    """(the line's JSON object, "") or (None, why it is not one)."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        return None, f"not valid JSON ({e.msg})"
    if not isinstance(obj, dict):
        return None, f"a JSON {type(obj).__name__}, not an object"
    return obj, ""


# ------------------------------------------------------------------ reading pass

def read_frames(info: TableInfo, chunk_rows: int = CHUNK_ROWS,
                lists: bool = False) -> Iterator[pd.DataFrame]:
    """The table as string-valued pandas DataFrames (None for null cells), in row chunks.

    Columns are named by ``info.columns``; the values are the cells' text as written
    (Parquet/JSON values rendered as text the way normalization renders them); ``lists``:
    a list column's cells as Python lists of element texts (:func:`read_arrow`).
    """
    import pyarrow as pa
    cols = read_arrow(info, lists)
    n = len(cols[0]) if cols else 0
    for lo in range(0, max(n, 1), chunk_rows):
        hi = min(lo + chunk_rows, n)
        data = {}
        for name, c in zip(info.columns, cols):
            a = np.empty(hi - lo, dtype=object)
            if not pa.types.is_list(c.type):
                a[:] = c.slice(lo, hi - lo).to_pylist()
            else:                     # lists: one by one (numpy would nest them)
                for i, v in enumerate(c.slice(lo, hi - lo).to_pylist()):
                    a[i] = v
            data[name] = a
        yield pd.DataFrame(data, columns=info.columns)
        if hi >= n:
            break


def read_table(info: TableInfo, max_rows: int | None = None,
               lists: bool = False) -> pd.DataFrame:
    """The whole table (or its first ``max_rows`` rows) as one string-valued DataFrame
    (``lists``: list columns as Python lists of element texts)."""
    frames, n = [], 0
    for chunk in read_frames(info, lists=lists):
        frames.append(chunk)
        n += len(chunk)
        if max_rows is not None and n >= max_rows:
            break
    if not frames:
        return pd.DataFrame(columns=info.columns)
    df = pd.concat(frames, ignore_index=True)
    return df.iloc[:max_rows] if max_rows is not None else df
