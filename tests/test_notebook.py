"""example_notebooks/quickstart.ipynb runs top to bottom in a fresh kernel (nbclient) and its
outputs are the expected ones: search hits, the widget, the join and its code, the second
hop, the offline (mimetype) charts, and no error or JVM noise anywhere."""
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "example_notebooks" / "quickstart.ipynb"

pytestmark = [pytest.mark.notebook, pytest.mark.spark]


def kernel_env(monkeypatch):
    """The kernel imports this checkout (also when it is not pip-installed) and its Spark
    workers run this interpreter."""
    path = os.environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + (os.pathsep + path if path else ""))
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)


def texts(cell) -> str:
    out = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            out.append(o["text"])
        elif "data" in o:
            out.append(o["data"].get("text/plain", ""))
            out.append(o["data"].get("text/html", ""))
    return "\n".join(out)


def mimetypes(cell) -> set:
    return {m for o in cell.get("outputs", []) for m in o.get("data", {})}


def test_quickstart_runs_with_expected_outputs(demo_index_path, tmp_path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient
    kernel_env(monkeypatch)
    work = tmp_path / "nb"
    work.mkdir()
    shutil.copytree(demo_index_path, work / "demo.index")     # built once by the fixture
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(work)}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    for c in code:
        for o in c.get("outputs", []):
            assert o["output_type"] != "error", (c.source, o.get("evalue"))
            if o["output_type"] == "stream" and o["name"] == "stderr":
                assert "WARN" not in o["text"] and "Exception" not in o["text"], o["text"]
    by_source = {c.source.splitlines()[0]: c for c in code}
    assert "Opened the existing index" in texts(by_source["%lakejoin index --demo --out demo.index --reuse"])
    search = texts(by_source["%lakejoin search fifa.country -k 8"])
    assert "reference/country-codes" in search and "8</b> joinable column(s)" in search
    assert "application/vnd.jupyter.widget-view+json" in mimetypes(by_source["%lakejoin ui fifa.country"])
    joined = texts(by_source["engine = lj.open_index(\"demo.index\")"])
    assert "reference/country-codes . CLDR display name: 171 of 191 countries (90%)" in joined
    assert "joined shape (191, 61)" in joined
    gen = texts(by_source["print(hit.code(fifa, name=\"fifa\", variable=\"fifa_codes\"))"])
    assert "pd.read_csv(" in gen and "fifa_codes = (" in gen
    assert "reference/gdp" in texts(by_source["res2 = engine.search(fifa_codes, \"ISO3166-1-Alpha-3\", k=5)"])
    hop = texts(by_source["gdp_hit = next(h for h in res2 if h.table == \"reference/gdp\")"])
    n = int(hop.split(" countries with a GDP figure")[0].split()[-1])
    assert 150 <= n <= 191
    for first in ("import altair as alt",
                  "from lakejoin_jupyter.ui.charts import coverage_chart, results_chart"):
        assert "application/vnd.vegalite.v5+json" in mimetypes(by_source[first]), first
