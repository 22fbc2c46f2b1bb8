"""Shares as a person reads them: the CLI, the notebook's HTML and the widget's detail pane
write a tiny containment as "0.027%", never "0.0%" (lakejoin_jupyter/formats.py)."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from lakejoin_jupyter.formats import fraction, percent, whole_percent


def test_formats_by_hand():
    assert [fraction(j) for j in (0.0, 0.5, 0.0012, 0.000134, None, float("nan"))] == \
        ["0.000", "0.500", "0.001", "1.3e-04", "", ""]
    assert [percent(c) for c in (0.0, 0.5, 0.001, 0.00027, 1.0, None)] == \
        ["0.0%", "50.0%", "0.1%", "0.027%", "100.0%", ""]
    assert [whole_percent(c) for c in (0.0, 0.96, 0.01, 0.0042, None)] == \
        ["0%", "96%", "1%", "0.4%", ""]


@given(st.floats(min_value=1e-9, max_value=1.0))
def test_a_positive_share_never_reads_as_zero(c):
    for text, step in ((percent(c), 0.0005), (whole_percent(c), 0.005)):
        assert re.search(r"[1-9]", text), (c, text)
        assert abs(float(text.rstrip("%")) / 100 - c) <= max(step, 0.05 * c) + 1e-12, (c, text)
    assert re.search(r"[1-9]", fraction(c)), c


def test_notebook_html_row_writes_a_tiny_containment_with_digits():
    from lakejoin_jupyter.engine import Hit, Query, _hit_row_html
    hit = Hit(rank=1, table="pypi", table_id=0, columns=("name",), column_ids=(0,), score=1.0,
              overlap=105, containment=105 / 878_005, jaccard=None, method="josie", exact=True,
              query_columns=("name",), key_ratio=1.0, row_coverage=0.0042,
              join_rows_exact=True, key_kind="key", lake_rows=878_005)
    row = _hit_row_html(hit, Query(columns=("name",), tokens=[], size=105, n_rows=123))
    assert "0.012%" in row and "0.4%" in row and "0.0%" not in row


JS = Path(__file__).resolve().parents[1] / "js" / "results_table.js"


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the widget's pct")
def test_widget_pct_agrees_with_python():
    """js/results_table.js's pct writes what formats.percent writes."""
    src = JS.read_text()
    body = re.search(r"function pct\(x\) \{.*?\n\}", src, re.S).group(0)
    values = [0, 0.5, 0.001, 0.00027, 0.000123, 1]
    out = subprocess.run(["node", "-e", body + f"; console.log(JSON.stringify({values}.map(pct)))"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[" + ",".join(f'"{percent(v)}"' for v in values) + "]"
