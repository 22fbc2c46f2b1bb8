"""The one-pass table reader (lake/read.py): Arrow's CSV parse against Python's csv module,
which defines what a CSV file holds."""
import csv
import io

import pyarrow as pa
from hypothesis import assume, given, settings, strategies as st

from lakejoin_jupyter.lake.read import (TableInfo, _csv_columns, _csv_columns_arrow,
                                        _csv_columns_python, drop_lines, preamble_lines,
                                        read_arrow, read_columns)

FIELD = st.text(alphabet=st.sampled_from(list('ab ,;"\t\r\n\'\\x1é€')), max_size=6)


def python_parse(text, delimiter, width):
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    next(reader)
    info = TableInfo(0, "t.csv", "csv", delimiter=delimiter)
    return _csv_columns_python(info, reader, width), info


@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from([",", ";", "\t"]), st.sampled_from(["\n", "\r\n", "\r"]),
       st.booleans())
def test_arrow_csv_parse_equals_python_csv(data, delimiter, newline, ragged):
    """Whenever Arrow's parse is used it gives exactly Python's csv records (padded rows,
    blank lines and odd quoting send the file to Python's parser)."""
    width = data.draw(st.integers(2, 4))
    row = st.lists(FIELD, min_size=1 if ragged else width, max_size=width + 1 if ragged else width)
    rows = data.draw(st.lists(row, min_size=2, max_size=8))
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter, lineterminator=newline).writerows([["h"] * width] + rows)
    text = buf.getvalue()
    for j in data.draw(st.lists(st.sampled_from(['"', '""', "\n", "  \n", 'x"y', '"a"b', "\r"]),
                                max_size=2)):                   # raw junk at random places
        k = data.draw(st.integers(0, len(text)))
        text = text[:k] + j + text[k:]
    header = next(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), None)
    if not header or len(header) < 2:
        return
    info = TableInfo(0, "t.csv", "csv", delimiter=delimiter)
    fast = _csv_columns_arrow(info, text.encode("utf-8"), len(header))
    try:
        slow, _ = python_parse(text, delimiter, len(header))
    except Exception:   # noqa: BLE001 - invalid CSV for Python: Arrow must not accept it either
        assert fast is None
        return
    if fast is not None:
        assert [c.to_pylist() for c in fast] == slow


def test_read_columns_pads_ragged_rows_and_reports_them(tmp_path):
    f = tmp_path / "r.csv"
    f.write_text("a,b,c\n1,2,3\n4,5\n\n6,7,8,9\n   \n", encoding="utf-8")
    info, cols = read_columns(0, str(f), "csv")
    assert info.ok and info.n_rows == 3 and info.n_fields_max == 4
    assert [c.to_pylist() for c in cols] == [["1", "4", "6"], ["2", "5", "7"], ["3", None, "8"]]
    assert any("fewer cells" in w for w in info.warnings)
    assert any("more cells" in w for w in info.warnings)


def test_read_columns_clean_file_empty_cells_are_null(tmp_path):
    f = tmp_path / "c.csv"
    f.write_bytes(b'\xef\xbb\xbfname,"x, y"\r\n"Z\xc3\xbcrich",""\r\n,3\r\n')
    info, cols = read_columns(7, str(f), "csv")
    assert info.ok and info.columns == ["name", "x, y"] and info.n_rows == 2
    assert [c.to_pylist() for c in cols] == [["Zürich", None], [None, "3"]]
    assert all(isinstance(c, pa.Array) for c in cols)


PREAMBLE = ["# exported by a tool", "# note: a b c", "Table 1. Population by state,,", "",
            "   ", ",,,", "#", "## section ##"]


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from([",", ";", "\t"]), st.sampled_from(["\n", "\r\n"]))
def test_lines_above_the_header_are_skipped_and_the_rest_read_as_without_them(data, delimiter,
                                                                             newline):
    """A file with comment, title or blank lines above its header reads exactly as the same
    file without them (oracle: the file without the lines), and says how many it skipped."""
    width = data.draw(st.integers(2, 4))
    header = data.draw(st.lists(st.text("abcxyz", min_size=1, max_size=4), min_size=width,
                                max_size=width, unique=True))
    cell = st.text(alphabet=st.sampled_from(list('ab ,;"\t\n1é#')), max_size=5)
    rows = data.draw(st.lists(st.lists(cell, min_size=width, max_size=width), min_size=1,
                              max_size=8))
    assume(any(any(c.strip() for c in r) for r in rows))      # at least one data row
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter, lineterminator=newline).writerows([header] + rows)
    body = buf.getvalue()
    above = data.draw(st.lists(st.sampled_from(PREAMBLE), max_size=4))
    text = "".join(line.replace(",", delimiter) + newline for line in above) + body
    info = TableInfo(0, "t.csv", "csv", delimiter=delimiter)
    skip = preamble_lines(text, delimiter)
    want, _ = python_parse(body, delimiter, width)
    if not any(line.strip() for line in above):
        assert skip == 0 or skip == len(above)        # blank lines only: either way, same read
    else:
        assert skip == len(above)
    got = _csv_columns(info, drop_lines(text, skip))
    assert info.columns == header and [c.to_pylist() for c in got] == [
        [v if v != "" else None for v in col] for col in want]


def test_preamble_reader_round_trip_and_headers_it_must_not_skip(tmp_path):
    f = tmp_path / "p.tsv"
    f.write_text("# kinds: python node\nkind\tname\tversion\napt\tadduser\t3.1\npip\tmmh3\t5\n",
                 encoding="utf-8")
    info, cols = read_columns(0, str(f), "tsv")
    assert info.ok and info.skip_lines == 1 and info.columns == ["kind", "name", "version"]
    assert any("skipped 1 line(s) above the header" in w for w in info.warnings)
    assert [c.to_pylist() for c in read_arrow(info)] == [c.to_pylist() for c in cols]
    for text in ("#,Name,Team\n1,Ann,X\n2,Bob,Y\n",          # a column named "#"
                 "# of units,price\n3,4\n5,6\n",               # or "# of units"
                 "# note: a, b\nx,y\n1,2\n",    # a comment of as many cells: cannot tell
                 "a,b\n1,2,3\n4,5,6\n",                         # a header shorter than its rows
                 '"a\nb",c\n1,2\n'):                            # a header cell over two lines
        g = tmp_path / "h.csv"
        g.write_text(text, encoding="utf-8")
        info, _ = read_columns(0, str(g), "csv")
        assert info.ok and info.skip_lines == 0, text
