"""The quickstart in a real JupyterLab 4 (and the widget in Notebook 7), driven by headless
Debian Chromium through Playwright: run all cells, use the widget (pick DataFrame and column,
search, open a hit, Join), then check the page (status, inserted code cell) and the kernel
(the joined variable and its shape). Screenshots go to artifacts/.

Needs /usr/bin/chromium (Debian's package; never a downloaded browser) and the playwright
Python package (the dev extra); skipped with the reason when either is absent, except
under .ci/run, which installs Chromium and sets LAKEJOIN_REQUIRE_BROWSER=1 so a missing
browser fails the run instead of hiding the test.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]

pytestmark = [pytest.mark.browser, pytest.mark.spark]

WIDGET_NOTEBOOK = [
    "%load_ext lakejoin_jupyter\nfrom lakejoin_jupyter.demo import demo_query\nfifa = demo_query()",
    "%lakejoin open demo.index",
    "%lakejoin ui fifa.country",
]


def _require_browser():
    missing = pytest.fail if os.environ.get("LAKEJOIN_REQUIRE_BROWSER") == "1" else pytest.skip
    if not Path(CHROMIUM).exists():
        missing(f"{CHROMIUM} is absent: apt-get install chromium chromium-driver (.ci/run does)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("the playwright Python package is absent: pip install -e '.[dev]' installs it")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(demo_index_path, tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 serving a folder with the quickstart, a widget
    notebook and the demo index; every Jupyter state folder is private to the test."""
    _require_browser()
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook
    base = tmp_path_factory.mktemp("lab")
    root = base / "root"
    root.mkdir()
    shutil.copy(ROOT / "example_notebooks" / "quickstart.ipynb", root / "quickstart.ipynb")
    shutil.copytree(demo_index_path, root / "demo.index")
    nb = new_notebook(cells=[new_code_cell(s) for s in WIDGET_NOTEBOOK],
                      metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                               "language": "python"}})
    nbformat.write(nb, root / "widget7.ipynb")
    env = dict(os.environ)
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                     ("IPYTHONDIR", "ipython"), ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                     ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"), ("JUPYTER_DATA_DIR", "data")):
        (base / sub).mkdir()
        env[var] = str(base / sub)
    # no "get notified about Jupyter news?" toast over the page
    notif = base / "settings" / "@jupyterlab" / "apputils-extension"
    notif.mkdir(parents=True)
    (notif / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYSPARK_PYTHON"] = sys.executable
    # data files (labextensions: widgets, anywidget) still come from the venv's share/jupyter
    env["JUPYTER_PATH"] = os.pathsep.join([str(Path(sys.prefix) / "share" / "jupyter")])
    port = _free_port()
    log = open(base / "jupyter.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
         "--ip=127.0.0.1", f"--port={port}", "--IdentityProvider.token=",
         "--ServerApp.password=", f"--ServerApp.root_dir={root}",
         "--LabApp.news_url=", "--ServerApp.open_browser=False"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 180
        while True:
            try:
                with urllib.request.urlopen(url + "/api/status", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("JupyterLab did not start:\n" + (base / "jupyter.log").read_text()[-3000:])
            time.sleep(0.5)
        yield {"url": url, "root": root, "runtime": base / "runtime", "log": base / "jupyter.log"}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        log.close()


@pytest.fixture(scope="module")
def browser(lab):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def _kernel_id(lab, notebook: str, timeout: float = 240) -> str:
    deadline = time.time() + timeout
    while True:
        with urllib.request.urlopen(lab["url"] + "/api/sessions") as r:
            sessions = json.load(r)
        for s in sessions:
            if s["path"].endswith(notebook) and s.get("kernel"):
                if s["kernel"].get("execution_state") == "idle":
                    return s["kernel"]["id"]
        if time.time() > deadline:
            raise TimeoutError(f"no idle kernel for {notebook}: {sessions}")
        time.sleep(0.5)


def kernel_eval(lab, notebook: str, expression: str):
    """Evaluate an expression in the kernel of ``notebook`` through its connection file."""
    from jupyter_client import BlockingKernelClient
    kid = _kernel_id(lab, notebook)
    client = BlockingKernelClient(connection_file=str(lab["runtime"] / f"kernel-{kid}.json"))
    client.load_connection_file()
    client.start_channels()
    outputs = []
    try:
        reply = client.execute_interactive(f"print(repr({expression}))", timeout=120,
                                           output_hook=outputs.append)
    finally:
        client.stop_channels()
    assert reply["content"]["status"] == "ok", reply["content"]
    text = "".join(m["content"].get("text", "") for m in outputs if m["msg_type"] == "stream")
    return eval(text)  # noqa: S307 - our own repr of ints/tuples from our own kernel


def run_all(page):
    page.click(".lm-MenuBar-itemLabel:text-is('Run')")
    page.click("li.lm-Menu-item:has-text('Run All Cells')")


def use_widget(page, expect_rows: int, variable: str, shot: str):
    w = page.locator(".lakejoin-widget").first
    w.wait_for(timeout=240_000)
    w.locator(".lakejoin-frame select").select_option("fifa")
    w.locator(".lakejoin-columns select").select_option(["country"])
    w.locator("button.lakejoin-search").click()
    row = w.locator("tr.lakejoin-row[data-table='reference/country-codes']").first
    row.wait_for(timeout=120_000)
    assert w.locator("tr.lakejoin-row").count() >= 5
    row.click()
    join = w.locator("button.lakejoin-action-join")
    join.wait_for(timeout=60_000)
    w.locator(".lakejoin-values:has-text('matched (171)')").wait_for(timeout=60_000)
    join.click()
    status = w.locator(".lakejoin-status")
    page.wait_for_function(
        "(sel) => document.querySelector(sel) && document.querySelector(sel).textContent.includes('bound to')",
        arg=".lakejoin-widget .lakejoin-status", timeout=120_000)
    text = status.inner_text()
    assert f"bound to {variable} ({expect_rows:,} rows" in text, text
    # the reproducing code was inserted as a new cell, right below the widget's cell
    page.locator(f".jp-Cell .cm-content:has-text('{variable} = (')").first.wait_for(timeout=60_000)
    # the kernel sets this status when the frontend reports the insert: wait for the round trip
    w.locator(".lakejoin-code-status:has-text('inserted as the next cell')").wait_for(
        timeout=60_000)
    below = page.evaluate("""() => {
        const cells = [...document.querySelectorAll('.jp-Notebook .jp-Cell')];
        const i = cells.findIndex(c => c.querySelector('.lakejoin-widget'));
        const next = cells[i + 1];
        return next ? next.querySelector('.cm-content').textContent : '';
    }""")
    assert f"{variable} = (" in below and "normalized_keys" in below, below[:300]
    ARTIFACTS.mkdir(exist_ok=True)
    w.scroll_into_view_if_needed()
    w.screenshot(path=str(ARTIFACTS / shot))


def test_quickstart_and_widget_in_jupyterlab(lab, browser, demo_engine):
    from lakejoin_jupyter.demo import demo_query
    fifa = demo_query()
    hit = next(h for h in demo_engine.search(fifa, "country", k=10)
               if h.table == "reference/country-codes")
    expected = hit.join(fifa).shape
    page = browser.new_page(viewport={"width": 1300, "height": 2300})
    page.goto(lab["url"] + "/lab/tree/quickstart.ipynb?reset")
    page.locator(".jp-Notebook >> visible=true").wait_for(timeout=240_000)
    page.keyboard.press("Control+b")            # hide the file browser: width for the widget
    _kernel_id(lab, "quickstart.ipynb")
    run_all(page)
    # the last cells' charts render offline (the mimetype renderer, JupyterLab's vega 5)
    page.wait_for_function("() => document.querySelectorAll('.vega-embed').length >= 2",
                           timeout=300_000)
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert "Traceback" not in " ".join(errors.all_inner_texts())
    use_widget(page, expected[0], "fifa_country_codes", "widget-jupyterlab.png")
    assert kernel_eval(lab, "quickstart.ipynb", "fifa_country_codes.shape") == expected
    assert kernel_eval(lab, "quickstart.ipynb", "fifa_codes.shape") == expected
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.screenshot(path=str(ARTIFACTS / "quickstart-jupyterlab.png"), full_page=False)
    page.close()


def test_widget_in_notebook7(lab, browser):
    try:
        import notebook
        if int(notebook.__version__.split(".")[0]) < 7:
            pytest.skip(f"notebook {notebook.__version__} is not Notebook 7")
    except ImportError:
        pytest.skip("notebook>=7 is not installed (it is in setup.py's dev extra)")
    page = browser.new_page(viewport={"width": 1300, "height": 2300})
    page.goto(lab["url"] + "/notebooks/widget7.ipynb")
    page.locator(".jp-Notebook >> visible=true").wait_for(timeout=240_000)
    _kernel_id(lab, "widget7.ipynb")
    run_all(page)
    use_widget(page, 191, "fifa_country_codes", "widget-notebook7.png")
    assert kernel_eval(lab, "widget7.ipynb", "fifa_country_codes.shape")[0] == 191
    page.close()
