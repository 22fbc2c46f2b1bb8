"""The example notebooks run top to bottom in a fresh kernel (nbclient) and their outputs
are the expected ones, with no error or JVM noise anywhere. quickstart.ipynb: search hits,
the widget, the join and its code, the second hop, the offline (mimetype) charts.
beyond_equality.ipynb: LSH Ensemble hits, MATE's composite-key table, the Auto-Join program
and join, the fuzzy join's threshold and estimates, the fuzzy search (PEXESO) with its matched pairs
and plan, the schemaless join predicates, the transformation search's hits and programs,
the union search's hits, alignment and union."""
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "example_notebooks" / "quickstart.ipynb"
BEYOND = ROOT / "example_notebooks" / "beyond_equality.ipynb"

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


def run_notebook(path, demo_index_path, tmp_path, monkeypatch, extra=()) -> dict:
    """Execute the notebook next to a copy of the demo index (and of the ``extra`` indexes);
    its code cells by first line, after checking that no cell raised or printed JVM
    warnings to stderr."""
    import nbformat
    from nbclient import NotebookClient
    kernel_env(monkeypatch)
    work = tmp_path / "nb"
    work.mkdir()
    shutil.copytree(demo_index_path, work / "demo.index")     # built once by the fixture
    for ix in extra:
        shutil.copytree(ix, work / Path(ix).name)
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(work)}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    for c in code:
        for o in c.get("outputs", []):
            assert o["output_type"] != "error", (c.source, o.get("evalue"))
            if o["output_type"] == "stream" and o["name"] == "stderr":
                assert "WARN" not in o["text"] and "Exception" not in o["text"], o["text"]
    return {c.source.splitlines()[0]: c for c in code}


def test_quickstart_runs_with_expected_outputs(demo_index_path, tmp_path, monkeypatch):
    by_source = run_notebook(NOTEBOOK, demo_index_path, tmp_path, monkeypatch)
    assert "Opened the existing index" in texts(by_source["%lakejoin index --demo --out demo.index --reuse"])
    search = texts(by_source["%lakejoin search fifa.country -k 8 --save hits"])
    assert "reference/country-codes" in search and "8</b> joinable column(s)" in search
    assert "ranked by useful" in search
    # the join names its saved search; its summary is rendered Markdown, its code shown
    join = texts(by_source["%lakejoin join 1 --from hits --into fifa_codes"])
    html = "\n".join(o["data"].get("text/html", "") for o in
                     by_source["%lakejoin join 1 --from hits --into fifa_codes"].outputs
                     if "data" in o)
    summary = html.split("<pre")[0]                  # the code below has .assign(**{...})
    assert "Bound to <code>fifa_codes</code>" in summary and "**" not in summary
    assert "Bound to fifa_codes." in join            # the text form, for a terminal
    assert "<b>171</b> of 191 query rows found a partner" in join
    assert "fifa_codes = (" in join and "normalized_keys" in join
    assert "application/vnd.jupyter.widget-view+json" in mimetypes(by_source["%lakejoin ui fifa.country"])
    joined = texts(by_source["engine = lj.open_index(\"demo.index\")"])
    assert "reference/country-codes . CLDR display name: 171 of 191 countries (90%)" in joined
    assert "joined shape (191, 61)" in joined
    gen = texts(by_source["print(hit.code(\"fifa\", \"fifa_codes\"))"])
    assert "pd.read_csv(" in gen and "fifa_codes = (" in gen
    second = texts(by_source["res2 = engine.search(fifa_codes, \"ISO3166-1-Alpha-3\", k=5, rank=\"useful\")"])
    assert "ranked by useful" in second and "reference/gdp" in second and "would multiply" in second
    # already joined: no place among the top 5, named once in the "Also matching" line
    # (the text and the HTML form each name it once, in that line)
    named = re.findall(r"Also matching:[^\n]*?reference/country-codes[^\n]*?not counted", second)
    assert named and len(named) == second.count("reference/country-codes")
    card = texts(by_source["gdp_hit = next(h for h in res2 if h.table == \"reference/gdp\")"])
    assert "a left join gives" in card and "lake rows per key" in card   # the hit card
    assert "aggregate=&quot;latest&quot;" in card and ">Value</td>" in card
    hop = texts(by_source["latest = gdp_hit.join(fifa_codes, aggregate=\"latest\", how=\"inner\")"])
    n = int(hop.split(" countries with a GDP figure")[0].split()[-1])
    assert 150 <= n <= 191
    assert f"per key: {n} rows" in hop                       # one row per country
    for first in ("import altair as alt",
                  "from lakejoin_jupyter.charts import coverage_chart, results_chart"):
        assert "application/vnd.vegalite.v5+json" in mimetypes(by_source[first]), first


def containments(text: str) -> dict:
    """{"table . column": (estimated, exact, verdict or None)} from the LSH Ensemble cells'
    lines "TABLE . COLUMN: estimated 0.77, exact 0.96[ -> kept]"."""
    out = {}
    for line in text.splitlines():
        if ": estimated " not in line:
            continue
        name, rest = line.split(": estimated ")
        est, rest = rest.split(", exact ")
        exact, _, verdict = rest.partition(" -> ")
        out[name] = (float(est), float(exact), verdict or None)
    return out


def prose_text(path) -> str:
    """Section 4's prose: the markdown cell that says to check the matches."""
    import nbformat
    nb = nbformat.read(path, as_version=4)
    return next(c.source for c in nb.cells if c.cell_type == "markdown"
                and "check the matches" in c.source)


def prose_matches(path) -> list:
    """The (typo, match) pairs the fuzzy join's prose names: "*Nigera* is matched to
    *Niger*, *Ukriane* to *Ukraine*"."""
    said = prose_text(path).split("check the matches")[1]
    return re.findall(r"\*([^*]+)\* (?:is matched )?to \*([^*]+)\*", said)


def test_beyond_equality_prose_names_the_matches_its_fuzzy_join_makes(demo_engine):
    """Section 4's prose names matches to check and values left unmatched; the cell it
    describes, run on the demo index, makes each of those matches and none for those
    values (the prose once named *Ukriane* -> *UK*, the output showed *Ukraine*; since the
    agreeing functions rate a join, *Ukriane* is unmatched at 0.9). The index cell of
    section 5 builds for minutes (the embedding): it shows its progress, so it is not
    --quiet."""
    import nbformat
    nb = nbformat.read(BEYOND, as_version=4)
    cell = next(c.source for c in nb.cells if c.source.startswith("survey = pd.DataFrame({"))
    import pandas as pd
    ns = {"engine": demo_engine, "pd": pd}
    exec(compile(cell, "<cell>", "exec"), ns)  # noqa: S102
    got = {(r.right, r.left) for r in ns["fj"].matches().itertuples()}
    claims = prose_matches(BEYOND)
    assert ("Nigera", "Niger") in claims, claims
    assert set(claims) <= got, (claims, sorted(got))
    unmatched = re.findall(r"\*([^*]+)\* and \*([^*]+)\* stay unmatched", prose_text(BEYOND))
    assert unmatched and not set(unmatched[0]) & {r for r, _ in got}, (unmatched, sorted(got))
    build = next(c.source for c in nb.cells if c.source.startswith("%lakejoin index --demo "
                                                                  "--out demo_fuzzy.index"))
    assert "--quiet" not in build


def test_beyond_equality_runs_with_expected_outputs(demo_index_path, demo_fuzzy_index_path,
                                                    tmp_path, monkeypatch):
    by_source = run_notebook(BEYOND, demo_index_path, tmp_path, monkeypatch,
                             extra=[demo_fuzzy_index_path])
    assert "Opened the existing index" in texts(by_source["%lakejoin index --demo --out demo.index --reuse"])
    # 1. LSH Ensemble: verified hits reach the threshold, and the ISO 3166 alpha-3 columns of
    # the reference tables are among them
    lsh_cell = texts(by_source["orders = pd.DataFrame({"])
    hits = containments(lsh_cell)
    assert re.search(r"answered by the (exact|lsh) route \(predicted us: \{'exact': [0-9.]+",
                     lsh_cell), lsh_cell
    assert {"reference/gdp . Country Code", "reference/country-codes . ISO3166-1-Alpha-3"} <= set(hits)
    assert all(exact >= 0.8 and 0 < est <= 1 for est, exact, _ in hits.values()), hits
    cands = containments(texts(by_source["# the candidates before verification, and their exact "
                                         "containment (JOSIE, exact top-k)"]))
    assert set(hits) <= set(cands)
    assert all((v == "kept") == (exact >= 0.8) for _, exact, v in cands.values()), cands
    assert {n for n, (_, _, v) in cands.items() if v == "kept"} == set(hits)
    topk = texts(by_source["engine.search(orders, \"destination\", k=5, method=\"lshensemble-topk\")"])
    assert "5</b> joinable column(s)" in topk and "lshensemble-topk" in topk
    assert "reference/country-codes" in topk
    # 2. MATE: population holds every (country, year) tuple, under the right column mapping
    mate = texts(by_source["sales = pd.DataFrame({"])
    assert "method <code>mate</code>" in mate
    assert "reference/population" in mate and "country \u2192 Country Name, year \u2192 Year" in mate
    best = texts(by_source["best = res[0]"])
    assert ("reference/population: {'country': 'Country Name', 'year': 'Year'}, 100% of the "
            "key tuples") in best
    # 3. Auto-Join: the learned program, its example rows, the join and its code
    explain = texts(by_source["staff = pd.DataFrame({"])
    assert 'lower(first letter of `name`) + lower(word 2 of `name`) + "@acme.com"' in explain
    assert "It joins 10 of the 10 keys of staff, 10 of the 10 of logins" in explain
    examples = texts(by_source["aj.examples_frame()"])
    assert "staff: name" in examples and "logins: email" in examples and "@acme.com" in examples
    joined = texts(by_source["joined = aj.join()"])
    assert "10 joined rows" in joined and "cdubois@acme.com" in joined
    code = texts(by_source["print(aj.code(\"staff\", other=\"logins\"))"])
    assert "def derive_key(name):" in code and "joined = (\n    staff\n    .assign(" in code
    lake = texts(by_source["claims = pd.DataFrame({"])
    assert ('upper(`State`) + " (US)"; joins 6 of the 6 keys of claims, 6 of the 51 of '
            'fivethirtyeight/bad-drivers/bad-drivers') in lake
    # 4. fuzzy join: a numeric threshold chosen for the target, estimates, matches, chart
    fuzzy = texts(by_source["survey = pd.DataFrame({"])
    head, _, rest = fuzzy.partition("estimated precision ")
    threshold = float(head.split("threshold ")[1].split()[0])
    precision = float(rest.split("%")[0]) / 100
    recall = float(rest.split("estimated recall ")[1].split("%")[0]) / 100
    assert 0 < threshold < 2 and precision >= 0.9 and 0 < recall <= 1, fuzzy
    matches = texts(by_source["fj.matches()"])
    assert "Kazakstan" in matches and "Kazakhstan" in matches
    for typo, match in prose_matches(BEYOND):             # the prose says what the cell shows
        assert re.search(rf"{re.escape(typo)}\s+{re.escape(match)}\s", matches), (typo, matches)
    assert "application/vnd.vegalite.v5+json" in mimetypes(by_source["fj.chart()"])
    # 5. semantic search (PEXESO, the default embedder and tau) on the second index: no
    # column holds 60% of the visitors' names as equal values; the semantic one finds
    # country-name columns, with the synonym / typo pairs; both plans give the same hits
    assert "Opened the existing index" in texts(
        by_source["%lakejoin index --demo --out demo_fuzzy.index --with pexeso --with transform "
                  "--with union --reuse"])
    search = texts(by_source['fuzzy_engine = lj.open_index("demo_fuzzy.index")'])
    assert "equal values (T 0.6): no column" in search, search
    sem_line = next(ln for ln in search.splitlines() if ln.startswith("semantic (tau "))
    assert "T 0.6)" in sem_line, sem_line
    found = re.findall(r"(\S+) \. (.+?) (\d+)/20", sem_line)
    assert found and all(int(n) >= 12 for _, _, n in found), sem_line
    assert "reference/country-codes" in {t for t, _, _ in found}, sem_line
    assert "method <code>pexeso</code>" in search
    pairs = texts(by_source["best = fuzzy[0]"])
    assert re.search(r"Viet Nam\s+\S*viet", pairs) and re.search(r"Phillipines\s+philippines", pairs), pairs
    assert len(re.findall(r"^\s*\d+\s", pairs, re.M)) >= 12, pairs
    plans = texts(by_source['print("plan run:", fuzzy.stats["plan"], "predicted us:", '
                            'fuzzy.stats["plan_estimates_us"])'])
    assert "same hits: True" in plans and "plan run: ['pexeso']" in plans
    # 6. schemaless join: the subcommand's help, and the predicate each preference picks
    helptext = texts(by_source["%lakejoin predicate --help"])
    assert "usage: %lakejoin predicate" in helptext and "h2: most distinct keys" in helptext
    h2 = texts(by_source["%lakejoin predicate sales reference/population --preference h2"])
    assert "best predicate for h2 (most distinct keys): country = Country Name & year = Year" in h2
    h1 = texts(by_source["%lakejoin predicate sales reference/population --preference h1"])
    assert "best predicate for h1 (match the most rows): year = Year\n" in h1
    # 7. transformation search: equality finds nothing, the transform method finds the
    # state columns with the program that makes them join, every row joined
    needs = texts(by_source['print("equal values:", len(engine.search(claims, "region", k=3)), "hits")'])
    assert "equal values: 0 hits" in needs
    # the program without the title() the normalized comparison folds (Auto-Join's 83)
    assert ("fivethirtyeight/bad-drivers/bad-drivers . State: part 1 (split at \" (\") "
            "of `region` (query -> lake), joins 100% of the rows") in needs
    joined = texts(by_source["# join the best hit: Auto-Join learns on the lake rows its program joins, then joins the whole table"])
    assert "`region`" in joined and "Alabama" in joined and "Iowa" in joined
    # 8. table union search: top-economies first, every query column aligned (the GDP
    # figures share no value with the lake's), the alignment, the union and its code
    unions = texts(by_source["economies = pd.DataFrame({"])
    assert re.search(r"<td>1</td><td>reference/top-economies</td><td>0\.\d+</td><td>3/3</td>"
                     r"<td>230</td>", unions), unions
    alignment = texts(by_source["best = unions[0]"])
    for q, lake in (("nation", "country"), ("yr", "year"), ("gdp_trillion_usd", "gdp_trillion")):
        assert re.search(rf"{q}\s+{lake}\s+0\.\d+", alignment), alignment
    more = texts(by_source["more = best.union(economies)"])
    assert "10 + 230 = 240 rows" in more and "reference/top-economies" in more
    code = texts(by_source['print(best.code("economies", "more"))'])
    assert "more = " in code and "source_table" in code
    assert "reference/top-economies" in texts(by_source["%lakejoin union economies -k 3"])
    # 9. the widget, searching at once
    assert "application/vnd.jupyter.widget-view+json" in mimetypes(
        by_source["%lakejoin ui survey.country"])


def test_interrupting_a_build_is_one_line_and_a_red_bar(tmp_path, monkeypatch):
    """The notebook's stop button during `%lakejoin index`: one line that says the build
    stopped and nothing was written, no py4j/pyspark traceback or warning in the cell, and
    the progress bar red where it stopped (neither green nor "100%")."""
    import queue
    import time

    from jupyter_client.manager import start_new_kernel
    kernel_env(monkeypatch)
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(tmp_path))
    try:
        kc.execute_interactive("%load_ext lakejoin_jupyter", timeout=120)
        msg_id = kc.execute("%lakejoin index --demo --out built.index")
        msgs, interrupted, deadline = [], False, time.time() + 900
        while time.time() < deadline:
            try:
                m = kc.get_iopub_msg(timeout=1)
            except queue.Empty:
                continue
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            msgs.append(m)
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                break
            value = str(m["content"].get("data", {}).get("state", {}).get("value", ""))
            if not interrupted and value.replace("\u2007", " ").count(":") >= 2:
                km.interrupt_kernel()              # a build phase is running: stop it
                interrupted = True
        assert interrupted, "the build never showed a phase"
        reply = kc.execute_interactive("print(1 + 1)", timeout=120)
        assert reply["content"]["status"] == "ok"          # the kernel is fine
    finally:
        km.shutdown_kernel(now=True)
    errors = [m["content"] for m in msgs if m["msg_type"] == "error"]
    assert len(errors) == 1 and errors[0]["ename"] == "MagicError", errors
    (line,) = errors[0]["traceback"]
    assert "index was interrupted; nothing was changed" in line
    streams = "".join(m["content"]["text"] for m in msgs if m["msg_type"] == "stream")
    for noise in ("ERROR:root", "Traceback", "py4j", "Py4J", "Warning"):
        assert noise not in streams, streams[:2000]
    states = [m["content"]["data"].get("state", {}) for m in msgs
              if m["msg_type"] in ("comm_msg", "comm_open")]
    styles = [s["bar_style"] for s in states if s.get("bar_style")]
    assert styles and styles[-1] == "danger" and "success" not in styles, styles
    texts = [str(s.get("value", "")).replace("\u2007", " ") for s in states]
    last = [t for t in texts if t.startswith("lakejoin index:")][-1]
    assert "interrupted" in last and "100%" not in last, last
    assert not (tmp_path / "built.index").exists()
    assert not list(tmp_path.glob("built.index.tmp-*"))
