"""The one-pass table reader (lake/read.py): Arrow's CSV parse against Python's csv module,
which defines what a CSV file holds."""
import csv
import io

import pyarrow as pa
from hypothesis import given, settings, strategies as st

from lakejoin_jupyter.lake.read import (TableInfo, _csv_columns_arrow, _csv_columns_python,
                                        read_columns)

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
