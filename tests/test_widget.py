"""The discovery widget's logic, driven from Python (no browser): pickers, methods and their
ParamSpec controls, progressive results, the detail pane, actions, binding, multi-hop,
cancellation and every bad input."""
import contextlib
import html
import shutil
import threading

import ipywidgets as W
import pandas as pd
import pytest

from lakejoin_jupyter.join.plan import default_variable
from lakejoin_jupyter.search.registry import Candidate, ParamSpec, SearchMethod
from lakejoin_jupyter.ui.session import Session
from lakejoin_jupyter.ui.actions_panel import AutoFloat, control_for
from lakejoin_jupyter.ui.views import CodePanel, asset
from lakejoin_jupyter.ui.widget import PROGRESSIVE, DiscoveryWidget, search_magic


def make(engine=None, ns=None, **kw):
    return DiscoveryWidget(engine, session=Session(), namespace={} if ns is None else ns, **kw)


# ---------------------------------------------------------------- no index needed

def test_controls_follow_param_specs():
    c = control_for(ParamSpec("tau", "distance", kind="float", default=0.2, min=0, max=1, step=0.05))
    assert isinstance(c, W.FloatSlider) and (c.value, c.min, c.max, c.step) == (0.2, 0, 1, 0.05)
    c = control_for(ParamSpec("n", "n", kind="int", default=3, min=1, max=9))
    assert isinstance(c, W.BoundedIntText) and (c.value, c.min, c.max) == (3, 1, 9)
    assert isinstance(control_for(ParamSpec("n", "n", kind="int", default=3)), W.IntText)
    c = control_for(ParamSpec("p", "pref", kind="choice", default="h5", choices=("h1", "h5")))
    assert isinstance(c, W.Dropdown) and c.value == "h5" and list(c.options) == ["h1", "h5"]
    c = control_for(ParamSpec("v", "verify", kind="bool", default=True))
    assert isinstance(c, W.Checkbox) and c.value is True
    assert isinstance(control_for(ParamSpec("x", "x", kind="float", default=1.5)), W.FloatText)


def test_an_option_without_default_left_untouched_passes_none():
    """PEXESO's tau has no default of its own (the index's is used): the widget must not
    send the slider's placeholder as a tau."""
    from lakejoin_jupyter.ui.query_panel import control_values
    tau = control_for(ParamSpec("tau", "tau", kind="float", default=None, min=0, max=2))
    t = control_for(ParamSpec("T", "T", kind="float", default=0.6, min=0, max=1))
    assert control_values({"tau": tau, "T": t}) == {"tau": None, "T": 0.6}
    tau.value = 0.4
    assert control_values({"tau": tau, "T": t}) == {"tau": 0.4, "T": 0.6}


def test_assets_ship_with_the_widget():
    for name in ("results_table.js", "code_panel.js", "lakejoin.css"):
        text = asset(name).read_text()
        assert text.strip()
    assert "export default" in asset("results_table.js").read_text()
    assert "insertCell" in asset("code_panel.js").read_text()


def test_a_transformation_hit_shows_its_lake_pattern_as_code_with_a_true_legend():
    """The hit's pattern "a" is code (never a word of the sentence), called the column's
    most common shape with its share, and the legend says that hyphens, underscores and
    the like are kept as written, with one of the column's own values as the example
    (new user 12: always "argon2-cffi has the shape a9-a", whatever the column)."""
    from types import SimpleNamespace
    from lakejoin_jupyter.search.segments import value_shape
    from lakejoin_jupyter.ui.widget import _program_html
    hit = SimpleNamespace(details={"program": 'part 1 (split at "==") of `req`',
                                   "direction": "query -> lake", "coverage": 1.0,
                                   "lake_pattern": "a", "lake_pattern_share": 0.41,
                                   "lake_pattern_example": "requests"})
    text = _program_html(hit)
    assert "look like a (" not in text and "look like <code>a</code>" not in text
    assert "most common value shape is <code class='lakejoin-pattern'>a</code> (41.0% of them)" in text
    assert value_shape("argon2-cffi") == "a9-a" and value_shape("jupyter_client") == "a_a"
    assert ("<code class='lakejoin-pattern'>requests</code> has the shape "
            "<code class='lakejoin-pattern'>a</code>") in text
    assert "argon2" not in text and "hyphens, underscores" in text
    assert "code.lakejoin-pattern" in asset("lakejoin.css").read_text()   # boxed, monospace
    hit.details.pop("lake_pattern_share")           # an index searched before the share
    assert "shape is <code class='lakejoin-pattern'>a</code>: in a shape" in _program_html(hit)
    hit.details.pop("lake_pattern_example")         # no value of that shape: no example
    assert _program_html(hit).endswith("a constant part) is as written</div>")


def test_a_key_whose_lake_rows_repeat_is_not_called_an_identifier():
    """New user 12: the card said "key: identifier" for a column at x2.16 lake rows per key;
    an identifier whose rows repeat per key is a "repeated identifier", with its fan-out,
    in the card and in the results' HTML table; a unique one stays an identifier."""
    from lakejoin_jupyter.engine import Hit, _hit_row_html, hit_card_html
    kw = dict(rank=1, table="debian/packages", table_id=0, score=1.0, overlap=25,
              containment=1.0, jaccard=0.1, exact=True, columns=("Maintainer",),
              column_ids=(3,), method="transform", query_columns=("login",),
              key_kind="identifier")
    many = Hit(key_ratio=2.16, **kw)
    assert "key: <b>repeated identifier</b> (\u00d72.16 lake rows per key)" in hit_card_html(many)
    assert "key: <b>identifier</b>" not in hit_card_html(many)
    assert "repeated identifier" in _hit_row_html(many, None)
    one = Hit(key_ratio=1.0, **kw)
    assert "key: <b>identifier</b>" in hit_card_html(one) and "repeated" not in hit_card_html(one)


def test_a_transformation_tables_program_gets_the_width_of_constant_columns():
    """New user 12: a transformation search's table cut its program to about 12 characters
    while "method" repeated "transform" and "figures" "learned" on every row. Those two
    columns are left out when every row repeats them (the status names the method), and
    the program's cells wrap instead of being cut; a mixed table keeps them."""
    from lakejoin_jupyter.engine import Hit
    kw = dict(table="geo/countries", table_id=0, score=1.0, overlap=40, containment=1.0,
              jaccard=0.1, exact=True, columns=("code",), column_ids=(3,),
              query_columns=("iso",))
    program = {"program": 'part 2 (split at "-") of `iso`', "program_json": "{}"}
    w = make()
    w._show_hits([Hit(rank=i, method="transform", details=dict(program), **kw)
                  for i in (1, 2)], None)
    keys = [c["key"] for c in w.results.columns]
    assert "program" in keys and "method" not in keys and "figures" not in keys, keys
    assert next(c for c in w.results.columns if c["key"] == "program")["wrap"] is True
    assert ".lakejoin-wrap" in asset("lakejoin.css").read_text()
    assert "column.wrap" in asset("results_table.js").read_text()
    # a narrow box (lakejoin.css, 700 px) folds the overlap (the containment gives it as a
    # share) and the score of a table with programs (newuser20 D8)
    folds = lambda: {c["key"] for c in w.results.columns if c.get("fold")}  # noqa: E731
    assert folds() == {"overlap", "score"}, folds()
    assert ".lakejoin-fold" in asset("lakejoin.css").read_text()
    w._show_hits([Hit(rank=1, method="transform", details=dict(program), **kw),
                  Hit(rank=2, method="josie", **kw)], None)
    assert [c["key"] for c in w.results.columns][-2:] == ["method", "figures"]
    # a mixed list's figures, which each method has one kind of, fold; its method does not
    assert folds() == {"overlap", "score", "figures"}, folds()
    # but in the narrowest box (600 px) it does, an equality hit's written in its empty
    # transformation cell
    by_key = {c["key"]: c for c in w.results.columns}
    assert by_key["method"]["fold_at"] == 600 and by_key["program"]["placeholder"] == "equal"
    assert [r["equal"] for r in w.results.rows] == ["", "equal values (josie)"]
    # and its figures from 1120 px (Notebook 7 at 1400 px), so that its names show whole
    assert by_key["figures"]["fold_at"] == 1120
    css = asset("lakejoin.css").read_text()
    assert ".lakejoin-fold-600" in css and ".lakejoin-fold-1120" in css
    assert "column.placeholder" in asset("results_table.js").read_text()
    w._show_hits([Hit(rank=1, method="transform", details=dict(program), **kw),
                  Hit(rank=2, method="josie", **kw),
                  Hit(rank=3, method="josie", **{**kw, "exact": False})], None)
    assert "figures" not in folds(), folds()        # josie's figures differ between rows
    w._show_hits([Hit(rank=1, method="josie", **kw)], None)           # an equality search
    assert [c["key"] for c in w.results.columns][-2:] == ["method", "figures"]
    assert folds() == {"method", "figures"}, folds()
    assert "fold_at" not in next(c for c in w.results.columns if c["key"] == "method")


def test_texts_count_key_tuples_and_one_row():
    """A multi-column (MATE) hit's card counts the key tuples it shares, not "values";
    one row is "1 row" (the multiply note of a 1-row query)."""
    from types import SimpleNamespace
    from lakejoin_jupyter.engine import Hit, SearchResult, hit_card_html
    from lakejoin_jupyter.formats import rows
    from lakejoin_jupyter.ui.widget import multiply_note
    kw = dict(rank=1, table="ref", table_id=0, score=1.0, overlap=27, containment=0.49,
              jaccard=0.1, exact=True)
    two = Hit(columns=("pkg", "ver"), column_ids=(3, 4), method="mate",
              query_columns=("p", "v"), **kw)
    assert "27 shared key tuples (49% of the query's distinct key tuples)" in hit_card_html(two)
    one = Hit(columns=("pkg",), column_ids=(3,), method="josie", query_columns=("p",), **kw)
    assert "27 shared values (49% of the query's distinct values)" in hit_card_html(one)
    assert (rows(1), rows(0), rows(1200)) == ("1 row", "0 rows", "1,200 rows")
    many = SimpleNamespace(rank=2, table="t", join_rows=4, join_rows_exact=True, details={})
    result = SimpleNamespace(multiplying=lambda: [many], query=SimpleNamespace(n_rows=1))
    assert "multiply the query's 1 row (#2 t: 4)" in multiply_note(result)
    result.hits = [many]
    assert "multiply the query's 1 row (#2: 4 rows)" in SearchResult.multiply_note(result)


def test_without_an_index_the_widget_explains(tmp_path):
    ns = {"df": pd.DataFrame({"a": ["x", "y"]})}
    w = make(ns=ns, frame="df", columns=["a"])
    assert "No index is open" in w.status_text
    assert w.search() is None and "No index is open" in w.status_text
    w.open_index("")
    assert "Type the index folder" in w.status_text
    w.open_index(str(tmp_path / "nope.index"))
    w.wait()
    assert "No index at" in w.status_text and not w.search_button.disabled
    assert w.frame_picker.options == ("df",) and w.column_picker.value == ("a",)


def test_frames_are_rescanned_and_choices_kept():
    ns = {"a_df": pd.DataFrame({"k": [1]}), "_hidden": pd.DataFrame({"z": [1]}), "n": 3}
    w = make(ns=ns, frame="a_df", columns=["k"])
    assert w.frame_picker.options == ("a_df",)
    ns["b_df"] = pd.DataFrame({"q": [1]})
    w.refresh_frames()
    assert w.frame_picker.options == ("a_df", "b_df")
    assert w.frame_picker.value == "a_df" and w.column_picker.value == ("k",)
    ns["a_df"] = pd.DataFrame({"other": [1]})       # reassigned: the column is gone
    w.refresh_frames()
    assert w.column_picker.value == () and [v for _, v in w.column_picker.options] == ["other"]


def test_code_panel_writes_one_cell_per_key_and_reports_what_the_frontend_did():
    p = CodePanel(code="x = 1\n", key="join:x")
    sent = []
    p.send = sent.append
    assert p.write_cell() == 1 and "writing" in p.status
    # the code and the key travel with the request: the frontend never reads a stale trait
    assert sent[-1]["type"] == "write" and sent[-1]["key"] == "join:x" \
        and sent[-1]["code"] == "x = 1\n"
    p.code, p.key = "x = 2\n", "join:y"
    p.write_cell()
    assert (sent[-1]["code"], sent[-1]["key"]) == ("x = 2\n", "join:y")
    assert sent[0]["token"] != sent[1]["token"]
    p._on_frontend(p, {"type": "written", "ok": True, "how": "inserted", "index": 3}, [])
    assert p.status == "inserted as a new cell below the widget"
    p._on_frontend(p, {"type": "written", "ok": True, "how": "updated", "index": 3}, [])
    assert p.status == "its cell was updated in place"
    p._on_frontend(p, {"type": "written", "ok": True, "how": "clipboard"}, [])
    assert "copied to the clipboard" in p.status


# A notebook model like JupyterLab's shared model, for code_panel.js's writeCell run by node
# (the run_code_panel_js fixture): cell(source, key, execution count, outputs, id), the
# widget's output (widgetOut), notebook(cells) and the widget's model(nb).
FAKE_NOTEBOOK_JS = r"""
const { writeCell } = await import(process.argv[2]);
function cell(source, key, count = null, outputs = [], id = null) {
  return { cell_type: "code", source, metadata: key ? { lakejoin: { cell: key } } : {}, outputs,
    execution_count: count, id: id || "id-" + source,
    getSource() { return this.source; }, setSource(s) { this.source = s; },
    getMetadata(k) { return k === undefined ? this.metadata : this.metadata[k]; },
    setMetadata(k, v) { this.metadata[k] = v; },
    getOutputs() { return this.outputs; }, setOutputs(o) { this.outputs = o; } };
}
const widgetOut = [{ data: { "application/vnd.jupyter.widget-view+json": { model_id: "W" } } }];
function notebook(cells) {
  return { cells,
    insertCell(i, c) {
      this.cells.splice(i, 0, cell(c.source, c.metadata.lakejoin && c.metadata.lakejoin.cell));
    },
    deleteCell(i) { this.cells.splice(i, 1); },
    transact(f) { f(); } };
}
function model(nb) {
  return { widget_manager: { context: { model: { sharedModel: nb } } },
    get(k) { return k === "root_id" ? "W" : undefined; } };
}
"""


@pytest.fixture
def run_code_panel_js(tmp_path):
    """Runs a script on FAKE_NOTEBOOK_JS in node (skipped where node is absent) and returns
    what it prints, read as JSON."""
    import json
    import subprocess
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is absent")

    def run(script: str):
        harness = tmp_path / "harness.mjs"
        harness.write_text(FAKE_NOTEBOOK_JS + script)
        out = subprocess.run([node, str(harness), asset("code_panel.js").as_uri()],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)
    return run


WRITE_IF_MISSING_JS = r"""
const nb = notebook([cell("%lakejoin ui fifa.country", null, null, widgetOut),
                     cell("%lakejoin search fifa.country -m pexeso --save fifa_hits",
                          "search:fifa_hits")]);
const m = model(nb);
const out = [];
const auto = "%lakejoin search fifa.country -k 10 --save fifa_hits";
out.push(writeCell(m, "search:fifa_hits", auto, null, true));
out.push(nb.cells.map((c) => c.source));
out.push(writeCell(m, "search:other", "x", null, true));
out.push(writeCell(m, "search:fifa_hits", auto, null, false));
out.push(nb.cells.map((c) => c.source));
console.log(JSON.stringify(out));
"""


def test_code_panel_js_writes_only_a_missing_cell_when_asked(run_code_panel_js):
    """code_panel.js's writeCell on a notebook model like JupyterLab's: a write only if
    missing keeps the existing cell of its key (and sends its source back), still inserts a
    missing one; a plain write replaces it."""
    kept, after_kept, inserted, updated, after = run_code_panel_js(WRITE_IF_MISSING_JS)
    pexeso = "%lakejoin search fifa.country -m pexeso --save fifa_hits"
    assert kept == {"ok": True, "how": "kept", "index": 1, "key": "search:fifa_hits",
                    "source": pexeso}
    assert after_kept[1] == pexeso
    assert inserted["how"] == "inserted" and updated["how"] == "updated"
    assert after[1] == "%lakejoin search fifa.country -k 10 --save fifa_hits"


PLACEMENT_JS = r"""
function typosNotebook() {
  return notebook([cell("typos = pd.read_csv('typos.csv')", null, 1),
                   cell("%lakejoin ui typos.country", null, 2, widgetOut),
                   cell("%lakejoin search typos.country --save typos_hits", "search:typos_hits"),
                   cell("typos = typos.head(3)", null, 3),
                   cell("print('not run yet')")]);
}
const out = [];
let nb = typosNotebook();  // the frame changed after the widget's cell: after the last run
out.push(writeCell(model(nb), "join:typos_gapminder", "J", null, false, true));
out.push(nb.cells.map((c) => c.source));
nb = typosNotebook();      // unchanged: below the widget, after its cells
out.push(writeCell(model(nb), "join:typos_gapminder", "J", null, false, false));
out.push(nb.cells.map((c) => c.source));
nb = typosNotebook();      // its cell written below the widget before the change moves
nb.cells.splice(3, 0, cell("J0", "join:typos_gapminder"));
out.push(writeCell(model(nb), "join:typos_gapminder", "J", null, false, true));
out.push(nb.cells.map((c) => c.source));
console.log(JSON.stringify(out));
"""


def test_code_panel_js_puts_a_changed_frames_cell_after_the_last_cell_run(run_code_panel_js):
    """newuser16 D8: a join on a frame changed by a cell below the widget is written after
    the cell the kernel ran last (the highest execution count), not below the widget where
    "Run all" would join the frame before its change; a cell of its key written earlier
    below the widget moves there; an unchanged frame's cell still goes below the widget."""
    after, cells_after, below, cells_below, moved, cells_moved = run_code_panel_js(PLACEMENT_JS)
    read, ui, search, change, later = ("typos = pd.read_csv('typos.csv')",
                                       "%lakejoin ui typos.country",
                                       "%lakejoin search typos.country --save typos_hits",
                                       "typos = typos.head(3)", "print('not run yet')")
    assert after["how"] == "inserted after the last run" and after["index"] == 4
    assert cells_after == [read, ui, search, change, "J", later]
    assert below["how"] == "inserted" and cells_below == [read, ui, search, "J", change, later]
    assert moved["how"] == "moved" and cells_moved == [read, ui, search, change, "J", later]


@pytest.mark.spark
def test_an_action_on_a_frame_changed_after_the_widgets_cell_writes_after_the_last_run(
        demo_engine, fifa):
    """newuser16 D8, the kernel's side: the frame the widget's cell saw gives a cell below
    the widget; a frame rebound after it asks for a cell after the last cell run, whose code
    says what it reads; that code, run on the changed frame, gives the frame bound."""
    ns = {"fifa": fifa}
    w = _country_codes_selected(demo_engine, ns)
    hit, tab = w.selected_hit(), w.actions.tabs["join"]
    var = default_variable("fifa", hit.table)
    w.action_buttons["join"].click()
    w.wait()
    assert tab.code_panel.after_last_run is False
    assert "after the cell that changed it" not in tab.code_panel.code
    ns["fifa"] = fifa.head(3).copy()
    w.action_buttons["join"].click()
    w.wait()
    assert tab.code_panel.after_last_run is True
    assert tab.code_panel.code.startswith("# reads `fifa` as the cells above leave it (3 rows")
    run = {"fifa": ns["fifa"]}
    exec(tab.code_panel.code, run)  # noqa: S102
    pd.testing.assert_frame_equal(run[var], ns[var])
    sent = []
    tab.code_panel.send = sent.append
    tab.code_panel.write_cell()
    assert sent[-1]["after_last_run"] is True


def test_an_action_after_a_key_column_changed_in_place_goes_after_that_cell(demo_engine, fifa):
    """newuser17 D12's follow-up, the kernel's side: the widget's search watches the query
    frame's key column, so a cell that edits it in place (same frame, same shape) is the
    cell the action's goes after (its id and count sent to the frontend), not the last cell
    run; a cell editing another column is not."""
    from lakejoin_jupyter.ui.session import frame_marks
    ns = {"fifa": fifa.copy()}
    w = _country_codes_selected(demo_engine, ns)
    tab = w.actions.tabs["join"]

    def run_cell(cell_id, count, edit):            # what the shell's hooks note for a cell
        before = frame_marks(ns)
        edit(ns["fifa"])
        w.session.note_frame_changes(cell_id, count, before, frame_marks(ns),
                                     w.session.edited_in_place(ns))

    other = next(c for c in ns["fifa"].columns if c != "country")
    run_cell("other", 7, lambda f: f.__setitem__(other, f[other].copy()[::-1].to_numpy()))
    run_cell("edit", 8, lambda f: f.__setitem__("country", f["country"].str.upper()))
    w.action_buttons["join"].click()
    w.wait()
    assert tab.code_panel.after_last_run is True
    assert tab.code_panel.after_cells == [{"id": "edit", "count": 8}]


D12_JS = r"""
function qNotebook(extra = []) {
  // newuser17 D12: the change (count 4) sits below a cell run after it (count 5)
  return notebook([cell("q = pd.read_csv('q.csv')", null, 1),
                   cell("%lakejoin ui q.country", null, 2, widgetOut),
                   cell("%lakejoin search q.country --save q_hits", "search:q_hits", 3),
                   ...extra,
                   cell("import numpy as np", null, 5),
                   cell("q = q.head(10)", null, 4, [], "chg"),
                   cell("print('not run yet')")]);
}
const out = [];
let nb = qNotebook();    // the change found by its cell id
out.push(writeCell(model(nb), "join:q_laender_de", "J", null, false, true, [{ id: "chg", count: 4 }]));
out.push(nb.cells.map((c) => c.source));
nb = qNotebook();        // a frontend that sent no cell id: by its execution count
out.push(writeCell(model(nb), "join:q_laender_de", "J", null, false, true, [{ id: null, count: 4 }]));
out.push(nb.cells.map((c) => c.source));
nb = qNotebook([cell("J0", "join:q_laender_de")]);   // written below the widget before: moves
out.push(writeCell(model(nb), "join:q_laender_de", "J", null, false, true, [{ id: "chg", count: 4 }]));
out.push(nb.cells.map((c) => c.source));
nb = qNotebook();        // the frame's only change above the widget: below the widget
out.push(writeCell(model(nb), "join:q_laender_de", "J", null, false, true,
                   [{ id: "id-q = pd.read_csv('q.csv')", count: 1 }]));
out.push(nb.cells.map((c) => c.source));
console.log(JSON.stringify(out));
"""


def test_code_panel_js_puts_a_changed_frames_cell_after_the_change_not_the_last_run(
        run_code_panel_js):
    """newuser17 D12: the cell that changed the query frame sits below a cell run after it;
    the action's cell goes after the change (found by the cell id the kernel noted, or its
    execution count), not after the last cell run, where "Run all" would join the frame
    before the change; a change above the widget leaves the cell below the widget."""
    by_id, cells_id, by_count, cells_count, moved, cells_moved, above, cells_above = \
        run_code_panel_js(D12_JS)
    read, ui, search, numpy, change, later = ("q = pd.read_csv('q.csv')", "%lakejoin ui q.country",
                                              "%lakejoin search q.country --save q_hits",
                                              "import numpy as np", "q = q.head(10)",
                                              "print('not run yet')")
    assert by_id["how"] == "inserted after the change"
    assert cells_id == [read, ui, search, numpy, change, "J", later]
    assert by_count["how"] == "inserted after the change" and cells_count == cells_id
    assert moved["how"] == "moved after the change" and cells_moved == cells_id
    assert above["how"] == "inserted"
    assert cells_above == [read, ui, search, "J", numpy, change, later]


@contextlib.contextmanager
def watched_shell(*names):
    """IPython's shell watched by a new Session: yields (shell, session); on the way out the
    session's hooks are unregistered (not the global SESSION's) and ``names`` dropped from
    the shell's namespace."""
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    session = Session()
    events = ("pre_run_cell", "post_run_cell")
    before = {e: list(shell.events.callbacks[e]) for e in events}
    session.watch(shell)
    try:
        yield shell, session
    finally:
        for event in events:
            for f in list(shell.events.callbacks[event]):
                if not any(f is g for g in before[event]):
                    shell.events.unregister(event, f)
        for name in names:
            shell.user_ns.pop(name, None)


def test_the_session_notes_the_cells_that_change_a_frame():
    """newuser17 D12, the kernel's side: a cell that rebinds or reshapes a frame variable is
    noted by its cell id and execution count; a cell that only reads it, or touches other
    names, is not; a cell run again is noted once, as its last run."""
    with watched_shell("q18") as (shell, session):
        shell.run_cell("import pandas as pd\nq18 = pd.DataFrame({'c': range(18)})",
                       store_history=True, cell_id="setup")
        first = shell.execution_count - 1
        shell.run_cell("q18 = q18.head(10)", store_history=True, cell_id="change")
        change = shell.execution_count - 1
        shell.run_cell("n = len(q18)\nimport numpy as np", store_history=True, cell_id="read")
        shell.run_cell("q18['d'] = 1", store_history=True, cell_id="reshape")
        reshape = shell.execution_count - 1
        assert session.changes_of("q18") == [{"id": "setup", "count": first},
                                             {"id": "change", "count": change},
                                             {"id": "reshape", "count": reshape}]
        shell.run_cell("q18 = q18.head(10)", store_history=True, cell_id="change")
        again = shell.execution_count - 1
        assert [c["id"] for c in session.changes_of("q18")] == ["setup", "reshape", "change"]
        assert session.changes_of("q18")[-1]["count"] == again
        assert session.changes_of("n") == []


def test_the_session_notes_a_searched_frames_key_columns_changed_in_place():
    """newuser17 D12's follow-up: a cell that changes a searched frame's key column in place
    (the same frame and shape: ``.loc`` of one cell, the column replaced by its upper case)
    is a change of it, so the action's cell goes after it; a cell that writes the same
    values, or changes a column the search did not use, or touches another frame, is not;
    a frame no search used is not hashed (its in-place edits are not seen)."""
    from lakejoin_jupyter.ui.session import Searched
    with watched_shell("q27", "other27") as (shell, session):
        shell.run_cell("import pandas as pd\nq27 = pd.DataFrame({'k': list('abcd'), 'v': range(4)})"
                       "\nother27 = q27.copy()", store_history=True, cell_id="setup")
        session.note_searched(Searched.of("q27", shell.user_ns["q27"], ["k"]))
        for cell, code in (("loc", "q27.loc[0, 'k'] = 'x'"),
                           ("same", "q27['k'] = q27['k'].copy()"),
                           ("upper", "q27['k'] = q27['k'].str.upper()"),
                           ("value", "q27.loc[1, 'v'] = 99"),
                           ("other", "other27.loc[0, 'k'] = 'y'")):
            shell.run_cell(code, store_history=True, cell_id=cell)
        assert [c["id"] for c in session.changes_of("q27")] == ["setup", "loc", "upper"]
        assert [c["id"] for c in session.changes_of("other27")] == ["setup"]
        shell.run_cell("q27 = q27.head(2)", store_history=True, cell_id="rebind")
        shell.run_cell("q27.loc[1, 'k'] = 'z'", store_history=True, cell_id="after")
        assert [c["id"] for c in session.changes_of("q27")][-2:] == ["rebind", "after"]
        import lakejoin_jupyter.ui.session as session_module     # a frame over the bound:
        bound = session_module.KEY_HASH_ROWS                      # not hashed, not watched
        session_module.KEY_HASH_ROWS = 3
        try:
            session.note_searched(Searched.of("other27", shell.user_ns["other27"], ["k"]))
            shell.run_cell("other27.loc[1, 'k'] = 'w'", store_history=True, cell_id="big")
            shell.run_cell("q27.loc[0, 'k'] = 'v'", store_history=True, cell_id="small")
        finally:
            session_module.KEY_HASH_ROWS = bound
        assert [c["id"] for c in session.changes_of("other27")] == ["setup"]
        assert [c["id"] for c in session.changes_of("q27")][-1] == "small"


def test_markdown_summaries_are_rendered_not_shown_raw():
    from lakejoin_jupyter.actions import _code
    from lakejoin_jupyter.ui.render import markdown_html
    out = markdown_html("Left join with **reference/x** on `country` = `a*b`: **171** of 191 "
                        "<rows> & *duplicates = first*, 2 * 3\n\nsecond paragraph")
    assert "**" not in out and "`" not in out
    assert "<b>reference/x</b>" in out and "<b>171</b>" in out
    assert "<code>country</code>" in out and "<code>a*b</code>" in out     # code stays code
    assert "<i>duplicates = first</i>" in out and "2 * 3" in out
    assert "&lt;rows&gt; &amp;" in out and out.count("<p") == 2
    # an Auto-Join program holds backticks: the action's code span keeps it whole
    program = 'lower(first letter of `name`) + "@acme.com"'
    assert f"<code>{'lower(first letter of `name`) + &quot;@acme.com&quot;'}</code>" in \
        markdown_html(f"**Program:** {_code(program)}")


def test_a_bold_warning_holding_code_spans_is_rendered_bold():
    """Find transformation's folded-values warning is bold and names the column as code
    (`tail`): the bold run spans a code span, and its asterisks were shown raw."""
    import pandas as pd

    from lakejoin_jupyter.join.autojoin.dsl import Column, Program, Substring
    from lakejoin_jupyter.join.autojoin.result import AutoJoin
    from lakejoin_jupyter.ui.render import markdown_html, markdown_text
    lake = pd.DataFrame({"tail": ["N101UA", "N102UA", "N201DL", "N301AA"]})
    query = pd.DataFrame({"carrier": ["ua", "dl", "aa"]})
    program = Program((Substring(Column("tail"), -2, None, "lower"),))
    aj = AutoJoin(found=True, message="", left=query, right=lake, source="right",
                  program=program, source_column="tail", target_column="carrier")
    note = aj.with_right(lake).folded_note()
    assert note.startswith("Warning: 1 of the 3 keys") and "`tail`" in note
    out = markdown_html(f"**Program:** `x`\n\n**{note}**")
    assert "*" not in out and "`" not in out
    assert "<b>Warning: 1 of the 3 keys" in out and "<code>tail</code>" in out
    assert out.count("<b>") == out.count("</b>") == 2
    text = markdown_text(f"**{note}**")
    assert "**" not in text and text.startswith("Warning: 1 of") and "`tail`" in text
    assert markdown_html("a `**b**` c") == "<p style='margin:2px 0'>a <code>**b**</code> c</p>"


def test_a_float_the_action_chooses_starts_auto_and_shows_the_choice():
    from lakejoin_jupyter.actions import ActionResult, get
    from lakejoin_jupyter.ui.actions_panel import ActionTab
    c = control_for(ParamSpec("t", "threshold", kind="float", default=None, min=0, max=2,
                              help="chosen for the precision target"))
    assert isinstance(c, AutoFloat) and c.value is None and c.slider.disabled
    assert "chosen for the precision target" in c.note.value
    c.auto.value = False                         # the user takes over: the slider's value
    assert not c.slider.disabled and c.value == c.slider.value == 0.0
    c.value = None
    assert c.auto.value and c.value is None

    tab = ActionTab(get("fuzzy_join"), on_run=lambda name: None)
    tab.reset("fifa_country_codes_fuzzy")
    t = tab.controls["threshold"]
    assert tab.values() == {"precision_target": 0.9, "threshold": None}   # the action chooses
    assert "chosen for the precision target" in t.note.value and "0.0" not in t.note.value
    assert tab.run_button.description == "Fuzzy join" and tab.variable.value == \
        "fifa_country_codes_fuzzy"
    result = ActionResult(title="Fuzzy join with x", summary="Chose **word-jaccard** at "
                          "threshold **0.333**", chosen={"threshold": 1 / 3})
    tab.show_result(result, "fifa_country_codes_fuzzy", "x = 1\n")
    assert t.value is None and t.slider.value == pytest.approx(0.333, abs=0.001)
    assert "0.333" in t.note.value and "<b>word-jaccard</b>" in tab.summary.value
    assert "**" not in tab.summary.value
    assert tab.values()["threshold"] is None            # a re-run lets the action choose again
    tab.controls["precision_target"].value = 0.95        # what was chosen no longer applies
    assert "0.333" not in t.note.value
    tab.show_result(ActionResult(title="Fuzzy join", ok=False, chosen={"threshold": None}),
                    None, None)
    assert "none reaches it" in t.note.value
    # every action: a labeled row per parameter, the full label on its button
    from lakejoin_jupyter.actions import ACTIONS
    for a in ACTIONS:
        tab = ActionTab(a, on_run=lambda name: None)
        assert tab.run_button.description == a.label
        for spec in a.params:
            assert spec.name in tab.controls
            assert any(isinstance(w, W.HTML) and f">{spec.label}</label>" in w.value
                       for row in tab.children if isinstance(row, W.HBox)
                       for w in row.children)


def test_method_options_are_labeled_and_read_auto_while_automatic():
    """PEXESO's tau and T in the query panel: a label in words before each, and "auto" (not
    the slider's placeholder 0.000) while the method chooses."""
    from lakejoin_jupyter.search.pexeso import METHOD
    from lakejoin_jupyter.ui.query_panel import QueryPanel

    class Engine:
        def methods(self):
            return [METHOD]

        def missing_methods(self):
            return []

    q = QueryPanel({"q": pd.DataFrame({"a": ["x"]})}, lambda: Engine())
    q.refresh_frames()
    q.column_picker.value = ("a",)
    q.method_picker.value = "pexeso"
    assert list(q.method_controls) == [p.name for p in METHOD.params]
    assert list(q.method_params.children) == list(q.method_controls.values())
    labels = {}
    for spec in METHOD.params:
        c = q.method_controls[spec.name]
        if isinstance(c, AutoFloat):
            assert c.children[0] is c.label and f">{spec.label}</label>" in c.label.value
            assert c.value is None and c.readout.value == "auto" and not c.slider.readout
            c.value = 0.4                               # set: the slider's own readout
            assert c.slider.readout and c.readout.layout.display == "none"
            c.value = None
            assert c.readout.value == "auto" and c.readout.layout.display == ""
            labels[spec.name] = spec.label
        else:
            assert c.description == spec.label
    assert "distance" in labels["tau"] and "match" in labels["joinability"]


def test_coverage_chart_tick_labels_have_room():
    """'90%' and '100%' collided at 300 px with a tick every 10%."""
    from types import SimpleNamespace

    from lakejoin_jupyter.charts import coverage_chart
    hit = SimpleNamespace(matches=["a"] * 9, unmatched=["b"], query_columns=["c"], table="t/x")
    width = 300
    axis = coverage_chart(hit, width=width).to_dict()["encoding"]["x"]["axis"]
    ticks = sorted(axis["values"])
    assert ticks[0] == 0 and ticks[-1] == 1 and axis["format"] == "%"
    # room for a label like "100%" (about 30 px at the default 10 px font) between ticks
    assert min(b - a for a, b in zip(ticks, ticks[1:])) * width >= 45
    # so in the results chart (%lakejoin search --chart), 360 px wide
    from lakejoin_jupyter.charts import results_chart
    res = SimpleNamespace(hits=[SimpleNamespace(rank=1, table="t/x", columns=["c"],
                                                containment=0.9, overlap=9, method="m",
                                                exact=True)], query=SimpleNamespace(size=10))
    axis = results_chart(res).to_dict()["encoding"]["x"]["axis"]
    ticks = sorted(axis["values"])
    assert ticks[0] == 0 and ticks[-1] == 1
    assert min(b - a for a, b in zip(ticks, ticks[1:])) * 360 >= 45


def test_charts_follow_the_notebook_theme():
    """Dark theme (new user 11): the widget's charts kept a white box, and a chart drawn in
    one theme kept its colours after a switch. The widget shows them without a background
    of their own, drawn as SVG, whose text and axes its stylesheet colours with
    JupyterLab's theme variables (CSS outranks the colours vega wrote when it drew)."""
    from types import SimpleNamespace

    from lakejoin_jupyter.actions import ActionResult, get
    from lakejoin_jupyter.charts import coverage_chart, enable_offline_rendering
    from lakejoin_jupyter.ui.actions_panel import ActionTab
    enable_offline_rendering()                    # as the widget does when created
    hit = SimpleNamespace(matches=["a"] * 9, unmatched=["b"], query_columns=["c"], table="t/x")
    tab = ActionTab(get("join"), lambda *a: None)
    tab.show_result(ActionResult(title="t", summary="s", chart=coverage_chart(hit)), None, None)
    spec, = [o["data"]["application/vnd.vegalite.v5+json"] for o in tab.output.outputs
             if "application/vnd.vegalite.v5+json" in o.get("data", {})]
    assert spec["background"] == "transparent"
    assert spec["usermeta"]["embedOptions"]["renderer"] == "svg"
    css = asset("lakejoin.css").read_text()
    for role in ("axis-label", "axis-title", "title-text", "legend-label", "legend-title"):
        assert f".lakejoin-widget .vega-embed svg .role-{role} text" in css
    assert "fill: var(--jp-ui-font-color1" in css


def test_a_lake_path_that_cannot_be_indexed_is_refused_before_the_build(tmp_path, monkeypatch):
    """A lake path that does not exist, is not a table file, or cannot be read is refused
    when Build is pressed: one line naming the path and what to type; no task, no Spark, no
    progress bar, the buttons usable. A folder or a table file goes on to the build."""
    import os
    import lakejoin_jupyter.spark as spark_module
    monkeypatch.setattr(spark_module, "get_spark", lambda *a, **k: pytest.fail("Spark started"))
    w = make()
    (tmp_path / "notes.pdf").write_bytes(b"%PDF")
    locked = tmp_path / "locked"
    locked.mkdir()
    missing = tmp_path / "lakes" / "fivethirtyeigth"
    cases = [(missing, "does not exist", "nothing named 'lakes' in"),
             (tmp_path / "notes.pdf", "is not a table file", "type the path of a folder")]
    if os.geteuid() != 0:                 # root reads whatever the permissions say
        locked.chmod(0)
        cases.append((locked, "cannot be read", "check its permissions"))
    try:
        for path, what, hint in cases:
            w.lake_path.value = str(path)
            w.index_path.value = str(tmp_path / "out.index")
            assert w.build_index(w.lake_path.value, w.index_path.value) is None
            assert f"{path.absolute()} {what}" in w.status_text and hint in w.status_text
            assert "lakejoin-status-error" in w.status.value and "\n" not in w.status_text
            assert not w._tasks and w.progress.layout.display == "none"
            assert not w.build_button.disabled and not w.search_button.disabled
            w.build_button.click()                    # the button: the same refusal
            assert not w._tasks and f"{path.absolute()} {what}" in w.status_text
        assert not (tmp_path / "out.index").exists()
    finally:
        locked.chmod(0o755)
    from lakejoin_jupyter.lake.discover import lake_path_problem
    (tmp_path / "t.csv").write_text("a\n1\n")
    (tmp_path / "t.txt").write_text("a\n1\n")
    assert lake_path_problem(tmp_path) is None and lake_path_problem(tmp_path / "t.csv") is None
    assert lake_path_problem(tmp_path / "t.txt") is None
    assert "does not exist" in lake_path_problem("~/no-such-lake-here")


def test_search_magic_is_the_widgets_search_as_a_line():
    assert search_magic("fifa", ["country"], k=10, save="fifa_hits") == \
        "%lakejoin search fifa.country -k 10 --save fifa_hits"
    assert search_magic("q", ["a b", "c"], k=5, save="q_hits", threshold=0.5, method="mate",
                        options={"verify": True, "tau": 0.25}, max_values=1000) == (
        "%lakejoin search q -c 'a b' -c c -k 5 -t 0.5 -m mate -O verify=true -O tau=0.25 "
        "--max-values 1000 --save q_hits")
    assert "-m" not in search_magic("q", ["c"], k=3, save="s", method=PROGRESSIVE)


def test_the_method_picker_calls_the_transformation_search_heuristic():
    """Its candidates are heuristic (README), so the picker does not call it "(exact)"; an
    exact method keeps its kind."""
    import types

    from lakejoin_jupyter.join.autojoin.discovery import METHOD as TRANSFORM
    from lakejoin_jupyter.search.josie import METHOD as JOSIE
    from lakejoin_jupyter.ui.query_panel import QueryPanel
    engine = types.SimpleNamespace(methods=lambda: [JOSIE, TRANSFORM], missing_methods=list)
    panel = QueryPanel({"df": pd.DataFrame({"a": [1]})}, lambda: engine)
    panel.refresh_methods()
    labels = dict((v, label) for label, v in panel.method_picker.options)
    assert labels["transform"] == "Needs a transformation (heuristic)"
    assert labels["josie"] == "Exact top-k (JOSIE) (exact)"


# ---------------------------------------------------------------- with the demo index



@pytest.fixture
def fifa():
    from lakejoin_jupyter.demo import demo_query
    return demo_query()


def _set_value(control, spec):
    """A value away from the control's default, inside its range."""
    if isinstance(control, AutoFloat):
        lo, hi = float(spec.min or 0.0), float(spec.max if spec.max is not None else 1.0)
        return round(lo + 0.3 * (hi - lo), 2)
    if spec.kind == "bool":
        return not control.value
    if spec.kind == "choice":
        return next(c for c in spec.choices if c != control.value)
    if spec.kind == "int":
        return control.value + 1 if spec.max is None or control.value < spec.max else control.value - 1
    if spec.kind == "float":
        step = float(spec.step or 0.05)
        return control.value + step if spec.max is None or control.value + step <= spec.max \
            else control.value - step
    return None


@pytest.fixture(scope="module")
def fuzzy_engine(demo_fuzzy_index_path):
    from lakejoin_jupyter import open_index
    return open_index(demo_fuzzy_index_path)


@pytest.mark.spark
def test_the_search_cell_runs_and_gives_the_widgets_hits(fuzzy_engine, demo_fuzzy_index_path,
                                                         fifa):
    """For every method, its options at their defaults and each set to another value: the
    search line the widget writes runs through the magic in a fresh namespace holding only
    the query frame, and finds the widget's hits (an "auto" option is left out, never
    written as ``tau=None``)."""
    from IPython.core.interactiveshell import InteractiveShell

    from lakejoin_jupyter.ui.session import SESSION
    ns = {"fifa": fifa}
    w = make(fuzzy_engine, ns=ns, frame="fifa", columns=["country"], auto_insert=False)
    methods = [v for _, v in w.method_picker.options]
    assert "pexeso" in methods
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "lakejoin_jupyter")
    saved = SESSION.engine
    ran = []
    try:
        shell.run_line_magic("lakejoin", f"open {demo_fuzzy_index_path}")
        for method in methods:
            w.method_picker.value = method
            m = w.query.selected_method()
            cases = [None] + list(m.params if m is not None else ())
            for spec in cases:
                w.method_picker.value = "auto"            # fresh controls at their defaults
                w.method_picker.value = method
                if spec is not None:
                    value = _set_value(w.query.method_controls[spec.name], spec)
                    if value is None:
                        continue
                    w.query.method_controls[spec.name].value = value
                w.search().wait()
                assert "fifa_hits" in ns, w.status_text
                line = w.search_code.code
                assert "None" not in line, line
                shell.reset(new_session=False)             # a fresh namespace: the frame only
                shell.user_ns["fifa"] = fifa
                out = shell.run_cell(line)
                assert out.success and "fifa_hits" in shell.user_ns, line
                mine = [(h.column_ids, h.overlap, h.score) for h in ns["fifa_hits"]]
                assert [(h.column_ids, h.overlap, h.score)
                        for h in shell.user_ns["fifa_hits"]] == mine, line
                ran.append(line)
    finally:
        SESSION.engine = saved
    assert any("-m pexeso" in r and "-O tau=" not in r for r in ran)   # auto tau: left out
    assert any("-O tau=0.6" in r for r in ran)                          # a set tau: written


@pytest.fixture
def fake_methods(demo_engine):
    """An approximate method with a ParamSpec option, and a slow exact one, offered by the
    engine the way a new search module's METHOD is (the widget has no code for them)."""
    seen, gate = [], threading.Event()

    def approx(index, query, params):
        from lakejoin_jupyter.search.bruteforce import _run
        seen.append(dict(params.options))
        cands, _ = _run(index, query, params)
        return [Candidate(c.column_ids, score=c.score * 0.9, overlap=None, exact=False,
                          estimated_containment=min(1.0, c.overlap / query.size * 0.97))
                for c in cands], {}

    def slow(index, query, params):
        gate.wait(60)
        from lakejoin_jupyter.search.bruteforce import _run
        return _run(index, query, params)[0][:1], {}

    methods = demo_engine.search_methods
    methods["approx-test"] = SearchMethod(
        "approx-test", "Approximate (test)", "approximate", approx, priority=1,
        params=(ParamSpec("noise", "noise level", kind="float", default=0.25, min=0, max=1),))
    methods["slow-test"] = SearchMethod("slow-test", "Slow exact (test)", "exact", slow,
                                        priority=-5)
    yield seen, gate
    gate.set()
    methods.pop("approx-test")
    methods.pop("slow-test")


@pytest.mark.spark
def test_search_select_join_bind_and_second_hop(demo_engine, fifa):
    ns = {"fifa": fifa}
    w = make(demo_engine, ns=ns, frame="fifa", columns=["country"], auto_insert=False)
    w.method_picker.value = "auto"
    w.k_box.value = 5
    w.search().wait()
    want = demo_engine.search(fifa, "country", k=5, rank="useful")     # the widget's ranking
    assert [(r["table"], r["column"], r["overlap"]) for r in w.results.rows] == \
        [(h.table, h.column, h.overlap) for h in want]
    # compact columns: rows, x fan-out, row coverage, +N columns
    keys = [c["key"] for c in w.results.columns]
    assert {"lake_rows", "key_ratio", "row_coverage", "adds"} <= set(keys)
    fan = next(c for c in w.results.columns if c["key"] == "key_ratio")
    assert fan["prefix"] == "×" and fan["warn_above"] == 1
    assert [(r["lake_rows"], r["key_ratio"], r["row_coverage"], r["adds"])
            for r in w.results.rows] == [(h.lake_rows, pytest.approx(h.key_ratio),
                                          pytest.approx(h.row_coverage), h.to_dict()["added_columns"])
                                         for h in want]
    many = want.multiplying()
    assert ("would multiply the query's" in w.status_text) == bool(many)
    assert all(r["exact"] and r["figures"] == "exact" for r in w.results.rows)
    # every row repeats the method and figures: a narrow box may fold them (the status names
    # the method, the badge the figures); the others never fold
    assert {c["key"] for c in w.results.columns if c.get("fold")} == {"method", "figures"}
    assert w.results.rows[1]["containment"] == pytest.approx(want[1].containment)
    assert "5 hit(s) for fifa[country]" in w.status_text
    assert f"{want.method}, {want.plan}, " in w.status_text      # which exact plan answered
    # no hidden state: the search is bound, and its magic is the search cell's code
    assert w.search_code.code == "%lakejoin search fifa.country -k 5 --save fifa_hits"
    assert w.search_code.key == "search:fifa_hits"
    assert [h.column_ids for h in ns["fifa_hits"]] == [h.column_ids for h in want]

    sel = next(i for i, h in enumerate(want) if h.table == "reference/country-codes")
    w.results.selected = sel                    # what a click in the table does
    w.wait()
    hit = want[sel]
    assert f"matched ({len(hit.matches):,})" in w.detail_html.value
    assert f"not matched ({len(hit.unmatched):,})" in w.detail_html.value
    assert hit.card() in w.detail_html.value                  # the hit card
    assert "find a partner" in w.detail_html.value
    spec, = [o["data"]["application/vnd.vegalite.v5+json"] for o in w.chart_out.outputs
             if "application/vnd.vegalite.v5+json" in o.get("data", {})]
    assert spec["background"] == "transparent"            # the theme's, not a white box
    assert spec["usermeta"]["embedOptions"]["renderer"] == "svg"
    assert any(hit.table in o["data"].get("text/html", "") for o in w.preview_out.outputs)
    n_rows = len(demo_engine.table(hit.table))  # the preview's size line is the table's
    assert n_rows > 8 and any(f"first 8 of {n_rows:,} rows &times;" in o["data"].get(
        "text/html", "") for o in w.preview_out.outputs), w.preview_out.outputs
    from lakejoin_jupyter.actions import ACTIONS
    applicable = [a.name for a in ACTIONS if a.applies(hit)]
    assert list(w.action_buttons) == applicable and applicable[0] == "join"   # a tab each
    assert list(w.actions.titles) == [a.label for a in ACTIONS if a.applies(hit)]
    assert [b.description for b in w.action_buttons.values()] == list(w.actions.titles)
    tab = w.actions.tabs["join"]
    assert set(tab.controls) == {"how", "duplicates", "aggregate", "order_by", "dates"}
    per_key = hit.key_ratio > 1                  # offered only for a lake key that repeats
    assert (tab.rows["aggregate"].layout.display != "none") == per_key
    assert (tab.rows["dates"].layout.display != "none") == per_key
    assert tab.values()["order_by"] == "" and tab.values()["aggregate"] == "none"

    w.action_buttons["join"].click()
    w.wait()
    var = default_variable("fifa", hit.table)
    pd.testing.assert_frame_equal(ns[var], hit.join(fifa))
    assert var in w.frame_picker.options and f"bound to {var}" in w.status_text
    tab = w.actions.tabs["join"]
    assert tab.code_panel.key == f"join:{var}" and w.code_panel is tab.code_panel
    code = tab.code_panel.code
    run = {"fifa": fifa}
    exec(code, run)  # noqa: S102
    pd.testing.assert_frame_equal(run[var], ns[var])

    # join again with other options: the action's own variable and cell are updated in place
    tab.controls["how"].value = "inner"
    w.action_buttons["join"].click()
    w.wait()
    pd.testing.assert_frame_equal(ns[var], hit.join(fifa, how="inner"))
    assert var + "_2" not in ns and tab.code_panel.key == f"join:{var}"
    # a name typed into the tab is the user's choice: used as is, with its own cell
    tab.variable.value = "my_copy"
    w.action_buttons["join"].click()
    w.wait()
    pd.testing.assert_frame_equal(ns["my_copy"], hit.join(fifa, how="inner"))
    assert "my_copy = (" in tab.code_panel.code and tab.code_panel.key == "join:my_copy"
    tab.variable.value = "not a name"
    assert w.run_action("join") is None and "not a valid Python variable" in w.status_text

    # second hop: the joined frame is the next query
    w.frame_picker.value = var
    w.column_picker.value = ("ISO3166-1-Alpha-3",)
    w.search().wait()
    assert "reference/gdp" in [r["table"] for r in w.results.rows]
    assert w.results.selected == -1 and w.detail.layout.display == "none"
    assert w.search_code.code == (f"%lakejoin search {var} -c ISO3166-1-Alpha-3 -k 5 "
                                  f"--save {var}_hits")
    # a variable the user made under that name is never overwritten
    ns[var] = user_made = fifa.head(1)
    w.bound.remove(var)
    w.frame_picker.value = "fifa"
    w.column_picker.value = ("country",)
    w.search().wait()
    w.results.selected = sel
    w.wait()
    assert w.actions.tabs["join"].variable.value == var + "_2"
    w.action_buttons["join"].click()
    w.wait()
    assert ns[var] is user_made and var + "_2" in ns


def _country_codes_selected(engine, ns):
    """A widget that searched ``ns["fifa"]``'s country column, its country-codes hit selected."""
    w = make(engine, ns=ns, frame="fifa", columns=["country"], auto_insert=False)
    w.k_box.value = 5
    w.search().wait()
    w.results.selected = next(i for i, r in enumerate(w.results.rows)
                              if r["table"] == "reference/country-codes")
    w.wait()
    return w


@pytest.mark.spark
def test_an_action_joins_the_frame_its_code_names_and_says_when_it_changed(demo_engine, fifa):
    """The query variable rebound after the search (a cell ran ``fifa = ...``): Join joins
    the frame its code names (the variable now, as ``%lakejoin join N --from`` does), and its
    summary and the status say that the frame changed since the search; the same content
    under a new object is no change; a frame without the query column is refused."""
    ns = {"fifa": fifa}
    w = _country_codes_selected(demo_engine, ns)
    hit, tab = w.selected_hit(), w.actions.tabs["join"]
    var = default_variable("fifa", hit.table)

    def join():
        w.action_buttons["join"].click()
        w.wait()
        return ns.get(var)
    ns["fifa"] = fifa.copy()                       # re-run cell: equal content, no note
    pd.testing.assert_frame_equal(join(), hit.join(fifa))
    assert "changed since the search" not in w.status_text + tab.summary.value
    small = fifa.head(3).copy()
    ns["fifa"] = small
    joined = join()
    pd.testing.assert_frame_equal(joined, hit.join(small))    # not the 191 rows searched
    assert len(joined) == 3
    run = {"fifa": small}
    exec(tab.code_panel.code, run)  # noqa: S102     the cell it wrote gives the same frame
    pd.testing.assert_frame_equal(run[var], joined)
    note = (f"`fifa` changed since the search ({len(fifa):,} -> 3 rows): joined the current "
            f"frame; the hit's figures describe the searched one; search again to refresh them.")
    assert note in w.status_text and f"bound to {var} (3 rows" in w.status_text
    assert "<code>fifa</code> changed since the search (191 -&gt; 3 rows)" in tab.summary.value
    # the searched frame changed in place: same rows, other key values
    ns["fifa"] = fifa
    fifa.loc[0, "country"] = "Nowhere"
    pd.testing.assert_frame_equal(join(), hit.join(fifa))
    assert "(the same 191 rows, other values of `country`)" in w.status_text
    # the query column gone: refused, nothing rebound
    ns["fifa"] = small.drop(columns="country")
    before = ns[var]
    assert w.run_action("join") is None and ns[var] is before
    assert "`fifa` changed since the search: it has no column 'country'" in w.status_text
    assert "no column" in tab.summary.value


@pytest.mark.spark
def test_the_hit_card_says_when_the_frame_changed_since_the_search(demo_engine, fifa):
    """The card's figures (containment, coverage) describe the frame searched: shown after
    the query variable changed, the card says so over them (the actions join the current
    frame); the same content under a new object is no change; a frame without the query
    column: the card says what the actions refuse."""
    ns = {"fifa": fifa}
    w = _country_codes_selected(demo_engine, ns)

    def card(frame):
        ns["fifa"] = frame
        w._on_select()                             # the card shown again (selected again)
        w.wait()
        assert "loading" not in w.detail_html.value    # the card itself, not its placeholder
        return w.detail_html.value
    assert "changed since the search" not in card(fifa)
    assert "changed since the search" not in card(fifa.copy())
    said = card(fifa.head(3).copy())
    assert (f"`fifa` changed since the search ({len(fifa):,} -&gt; 3 rows): the figures "
            f"below describe the frame searched; an action joins the current one. Search "
            f"again to refresh them.") in said
    assert said.index("changed since the search") < said.index(f"<b>#{w.selected_hit().rank}</b>")
    said = card(fifa.head(3).drop(columns="country"))
    assert "`fifa` changed since the search: it has no column &#x27;country&#x27;" in said


@pytest.mark.spark
def test_a_second_join_of_the_same_table_keeps_the_first(demo_engine, fifa):
    """Two hits on one lake table (two of its columns), each joined: two variables and two
    cells; the first join run again takes its own name and cell back."""
    ns = {"fifa": fifa}
    w = make(demo_engine, ns=ns, frame="fifa", columns=["country"], auto_insert=False)
    w.k_box.value = 10
    w.search().wait()
    same = [i for i, r in enumerate(w.results.rows) if r["table"] == "reference/country-codes"]
    assert len(same) >= 2
    tab = w.actions.tabs["join"]

    def join(i):
        w.results.selected = i
        w.wait()
        shown = tab.variable.value
        w.action_buttons["join"].click()
        w.wait()
        return w.selected_hit(), shown, tab.code_panel.key, tab.code_panel.code

    hit1, var1, key1, code1 = join(same[0])
    hit2, var2, key2, code2 = join(same[1])
    assert var1 == default_variable("fifa", "reference/country-codes") != var2
    assert (key1, key2) == (f"join:{var1}", f"join:{var2}")
    assert var2 == default_variable("fifa", hit2.table, column=hit2.columns[0])
    pd.testing.assert_frame_equal(ns[var1], hit1.join(fifa))
    pd.testing.assert_frame_equal(ns[var2], hit2.join(fifa))
    assert f"{var2} = (" in code2 and f"{var1} = (" not in code2
    # the very same join again: its own name and cell, updated in place
    again = join(same[0])
    assert again[1:3] == (var1, key1) and f"{var1}_2" not in ns
    pd.testing.assert_frame_equal(ns[var2], hit2.join(fifa))


def test_an_action_cell_mark_says_which_join_it_holds():
    """A widget re-created by "Run all" learns from the cell's mark which join a variable
    holds, so another column's join does not take that cell."""
    from lakejoin_jupyter.ui.session import mark_cell
    s = Session()
    code = mark_cell("# joined\nx = 1\n", "join:x", "q.a -> t/u.b c")
    assert s.note_cell(code, {"x": 1}) == "join:x"
    assert s.holds_other("join:x", "q.a -> t/u.d") and not s.holds_other("join:x", "q.a -> t/u.b c")
    assert s.note_cell(mark_cell("x = 2\n", "join:x"), {"x": 2}) == "join:x"
    assert not s.holds_other("join:x", "q.a -> t/u.d")     # an older mark: any join's


def test_a_union_cell_mark_names_no_empty_columns():
    """A union hit has no key columns: its identity is the frame and the table, without the
    dots of empty column lists (`[of quotes. -> finance/stocks.]`)."""
    from types import SimpleNamespace

    from lakejoin_jupyter.ui.session import join_identity, mark_cell
    union_hit = SimpleNamespace(table="finance/stocks")
    assert join_identity("quotes", union_hit) == "quotes -> finance/stocks"
    code = mark_cell("u = 1\n", "union:u", join_identity("quotes", union_hit))
    assert "# lakejoin cell union:u [of quotes -> finance/stocks] (written by" in code
    hit = SimpleNamespace(table="t/u", query_columns=("a",), columns=("b", "c"))
    assert join_identity("q", hit) == "q.a -> t/u.b,c"


def _magic_shell():
    """The IPython shell with the extension loaded, and ``run(cell, meta=None)``: run a cell
    (with the frontend's cell metadata) that must succeed, and return its result."""
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "lakejoin_jupyter")

    def run(cell, meta=None):
        out = shell.run_cell(cell, cell_meta=meta)
        assert out.success, cell
        return out.result
    return shell, run


@pytest.mark.spark
def test_a_recreated_widget_updates_its_own_cells_and_variables(demo_index_path, fifa):
    """Restart and "Run all" of a notebook the widget wrote (its search and join cells
    re-run below it), then the same clicks again: the widget takes back its own names and
    cells (no ``fifa_hits_2``, no second join cell), and never a name the user rebound."""
    from lakejoin_jupyter.ui.session import SESSION
    shell, run = _magic_shell()
    saved = SESSION.engine

    def clicks(w):
        """Search, open the country-codes hit, Join: the cells the widget writes."""
        w.k_box.value = 5
        w.search().wait()
        w.results.selected = next(i for i, r in enumerate(w.results.rows)
                                  if r["table"] == "reference/country-codes")
        w.wait()
        w.action_buttons["join"].click()
        w.wait()
        tab = w.actions.tabs["join"]
        return {w.search_code.key: w.search_code.code, tab.code_panel.key: tab.code_panel.code}

    try:
        shell.reset(new_session=False)
        shell.user_ns["fifa"] = fifa
        run(f"%lakejoin open {demo_index_path}")
        first = clicks(run("%lakejoin ui fifa.country --no-search"))
        var = default_variable("fifa", "reference/country-codes")
        assert list(first) == ["search:fifa_hits", f"join:{var}"]
        for again in range(2):                      # restart, Run all, the same clicks
            shell.reset(new_session=False)          # a new kernel knows nothing
            SESSION.engine = None
            SESSION.written.clear()
            SESSION.by_widget.clear()
            shell.user_ns["fifa"] = fifa
            run(f"%lakejoin open {demo_index_path}")
            w = run("%lakejoin ui fifa.country --no-search")
            for key, code in first.items():         # the cells below the widget: the
                # frontend sends their metadata (JupyterLab 4), or none (another frontend)
                out = shell.run_cell(code, cell_meta={"lakejoin": {"cell": key}}
                                     if again == 0 else None)
                assert out.success, code
            assert clicks(w) == first               # same keys: the same cells, updated
            assert not {"fifa_hits_2", f"{var}_2"} & set(shell.user_ns)
            assert w.search_code.code == first["search:fifa_hits"]
        # a name the user rebinds is theirs: the widget moves to another
        run(f"{var} = 'mine'")
        run("fifa_hits = 'mine too'")
        moved = clicks(w)
        assert list(moved) == ["search:fifa_hits_2", f"join:{var}_2"]
        assert shell.user_ns[var] == "mine" and shell.user_ns["fifa_hits"] == "mine too"
        pd.testing.assert_frame_equal(shell.user_ns[f"{var}_2"],
                                      w.selected_hit().join(fifa))
    finally:
        SESSION.engine = saved
        shell.reset(new_session=False)


@pytest.mark.spark
def test_the_first_search_shows_the_users_saved_search_and_never_rebinds_it(demo_index_path,
                                                                          fifa):
    """``%lakejoin search fifa.country -m bruteforce -k 3 --save fifa_hits`` in a cell
    above ``%lakejoin ui fifa.country``: the widget's first search shows that search (its
    method and k) and leaves ``fifa_hits`` and its cell alone; a click on Search saves the
    widget's search under another name, and ``fifa_hits`` is still the user's."""
    from lakejoin_jupyter.ui.session import SESSION
    shell, run = _magic_shell()
    saved = SESSION.engine

    try:
        shell.reset(new_session=False)                   # a fresh kernel
        SESSION.written.clear()
        SESSION.by_widget.clear()
        shell.user_ns["fifa"] = fifa
        run(f"%lakejoin open {demo_index_path}")
        run("%lakejoin search fifa.country -m bruteforce -k 3 --save fifa_hits")
        users = shell.user_ns["fifa_hits"]
        w = run("%lakejoin ui fifa.country")
        w.wait()
        assert shell.user_ns["fifa_hits"] is users
        assert (w.method_picker.value, w.k_box.value) == ("bruteforce", 3)
        assert [r["table"] for r in w.results.rows] == [h.table for h in users]
        assert w.search_code.code == ""                  # the user's cell is the search cell
        assert "fifa_hits, the search your cell saved" in w.status_text, w.status_text
        assert "saved as fifa_hits_2" in w.status_text
        w.results.selected = 0                           # its hits act as the widget's own
        w.wait()
        assert w.selected_hit() is users[0]
        w.k_box.value = 5
        w.search().wait()
        assert shell.user_ns["fifa_hits"] is users
        assert w.search_code.key == "search:fifa_hits_2"
        assert w.search_code.code.endswith("--save fifa_hits_2")
        assert len(shell.user_ns["fifa_hits_2"]) == 5
        w.search().wait()                                # its own name: taken back
        assert w.search_code.key == "search:fifa_hits_2" and "fifa_hits_3" not in shell.user_ns
        again = run("%lakejoin ui fifa.country")           # the widget's cell re-run
        again.wait()
        assert shell.user_ns["fifa_hits"] is users and again.k_box.value == 3
    finally:
        SESSION.engine = saved
        shell.reset(new_session=False)


@pytest.mark.spark
def test_a_users_save_of_a_name_the_widget_bound_first_is_the_users(demo_index_path, fifa):
    """The widget binds ``fifa_hits`` and writes its search cell; the user then saves their
    own search under that name (``%lakejoin search ... --save fifa_hits`` in a cell of
    their own, with or without the frontend's cell metadata): the widget's next searches go
    to ``fifa_hits_2`` and ``fifa_hits`` stays the user's. The widget's own search cell
    (the frontend says which: ``metadata.lakejoin.cell``) run again keeps it the widget's."""
    from lakejoin_jupyter.ui.session import SESSION
    shell, run = _magic_shell()
    saved = SESSION.engine

    try:
        for meta in ({"cellId": "users-cell"}, None):       # JupyterLab / no metadata
            shell.reset(new_session=False)                   # a fresh kernel
            SESSION.written.clear()
            SESSION.by_widget.clear()
            shell.user_ns["fifa"] = fifa
            run(f"%lakejoin open {demo_index_path}")
            w = run("%lakejoin ui fifa.country --no-search")
            w.k_box.value = 5
            w.search().wait()
            cell = w.search_code.code
            assert w.search_code.key == "search:fifa_hits" and len(shell.user_ns["fifa_hits"]) == 5
            # the widget's own cell, run by the user: still the widget's
            run(cell, {"cellId": "widget-cell", "lakejoin": {"cell": "search:fifa_hits"}})
            w.search().wait()
            assert w.search_code.key == "search:fifa_hits" and "fifa_hits_2" not in shell.user_ns
            # the user's own search saved under the widget's name
            run("%lakejoin search fifa.country -m bruteforce -k 3 --save fifa_hits", meta)
            users = shell.user_ns["fifa_hits"]
            w.search().wait()
            assert shell.user_ns["fifa_hits"] is users, meta
            assert w.search_code.key == "search:fifa_hits_2", meta
            assert w.search_code.code.endswith("--save fifa_hits_2")
            assert len(shell.user_ns["fifa_hits_2"]) == 5
            w.search().wait()                                # its own name: taken back
            assert "fifa_hits_3" not in shell.user_ns and shell.user_ns["fifa_hits"] is users
            # a widget re-created: the user's search is shown as theirs, never rebound
            again = run("%lakejoin ui fifa.country")
            again.wait()
            assert shell.user_ns["fifa_hits"] is users
            assert (again.method_picker.value, again.k_box.value) == ("bruteforce", 3)
            assert "the search your cell saved" in again.status_text, again.status_text
    finally:
        SESSION.engine = saved
        shell.reset(new_session=False)


def _sent(monkeypatch):
    """The messages the widget's code panels send to the frontend (none is rendered)."""
    sent = []
    monkeypatch.setattr(CodePanel, "send", lambda self, msg, buffers=None: sent.append(msg))
    return sent


def _reply(panel, request, how, source=""):
    """What code_panel.js answers to a write request."""
    panel._on_frontend(panel, {"type": "written", "request": request, "ok": True, "how": how,
                               "index": 3, "key": panel.key, "source": source}, [])


@pytest.mark.spark
def test_the_first_search_keeps_the_notebooks_search_cell_and_follows_it(
        fuzzy_engine, fifa, monkeypatch):
    """Restart and "Run all" of a notebook whose search cell the user made with PEXESO and
    options: the re-created widget's own first search asks only for a missing cell (the
    frontend keeps the existing one and sends its source back), then takes the cell's method,
    options and k and searches with them, asking again only for a missing cell; a click on
    Search writes the widget's search into the cell."""
    sent = _sent(monkeypatch)
    ns = {"fifa": fifa}
    w = make(fuzzy_engine, ns=ns, frame="fifa", columns=["country"], search=True)
    w.wait()
    default = "%lakejoin search fifa.country -k 10 --save fifa_hits"
    assert (sent[-1]["code"], sent[-1]["key"], sent[-1]["only_if_missing"]) == \
        (default, "search:fifa_hits", True)
    cell = ("%lakejoin search fifa.country -k 5 -m pexeso -O tau=0.3 -O plan=bruteforce "
            "--save fifa_hits")
    _reply(w.search_code, sent[-1]["request"], "kept", cell)
    assert "kept as it is" in w.search_code.status
    w.wait()
    assert w.method_picker.value == "pexeso" and w.k_box.value == 5
    assert w.query.method_controls["tau"].value == pytest.approx(0.3)
    assert w.query.method_controls["plan"].value == "bruteforce"
    assert sent[-1]["only_if_missing"] is True and sent[-1]["key"] == "search:fifa_hits"
    assert sent[-1]["code"] == ("%lakejoin search fifa.country -k 5 -m pexeso -O tau=0.3 "
                                "-O plan=bruteforce --save fifa_hits")
    assert ns["fifa_hits"].method == "pexeso" and ns["fifa_hits"].params.options["tau"] == 0.3
    assert {r["method"] for r in w.results.rows} == {"pexeso"}
    # the cell kept again (as written): the widget already makes its search, no third one
    n = len(sent)
    _reply(w.search_code, sent[-1]["request"], "kept", cell.replace("-k 5", "-k 5 "))
    w.wait()
    assert len(sent) == n
    # a search the user starts rewrites the cell
    w.search_button.click()
    w.wait()
    assert len(sent) == n + 1 and sent[-1]["only_if_missing"] is False


@pytest.mark.spark
def test_a_search_cell_the_widget_cannot_follow_is_kept_with_a_note(fuzzy_engine, fifa,
                                                                     monkeypatch):
    sent = _sent(monkeypatch)
    w = make(fuzzy_engine, ns={"fifa": fifa}, frame="fifa", columns=["country"], search=True)
    w.wait()
    for cell in ("%lakejoin search fifa.country -k 5 --rank overlap --save fifa_hits",
                 "%lakejoin search fifa.country -m no-such-method --save fifa_hits",
                 "%lakejoin search fifa.country -m pexeso -O tau=7 --save fifa_hits",
                 "%lakejoin search fifa.team --save fifa_hits",
                 "fifa_hits = None"):
        n = len(sent)
        _reply(w.search_code, sent[-1]["request"], "kept", cell)
        w.wait()
        assert len(sent) == n and "kept as written; the widget does not follow it" in \
            w.status_text, (cell, w.status_text)
        assert w.method_picker.value != "pexeso" and w.k_box.value == 10
    # a reply to an older request is not this search's cell
    w.search_button.click()
    w.wait()
    n = len(sent)
    _reply(w.search_code, sent[-1]["request"] - 1, "kept",
           "%lakejoin search fifa.country -k 7 --save fifa_hits")
    assert len(sent) == n and w.k_box.value == 10


@pytest.mark.spark
def test_the_widget_follows_its_own_search_cell_on_other_columns(fuzzy_engine, fifa,
                                                                 monkeypatch):
    """Restart and "Run all" after the user searched other columns with another method than
    the ``%lakejoin ui fifa.country`` line names: the widget's search cell states them, and
    the re-created widget searches what that cell states (columns included), showing the
    hits the cell binds."""
    sent = _sent(monkeypatch)
    before = make(fuzzy_engine, ns={"fifa": fifa}, frame="fifa", columns=["country"],
                  search=True)
    before.wait()
    before.column_picker.value = ("country", "confederation")
    before.k_box.value = 5
    before.search_button.click()
    before.wait()
    cell = sent[-1]["code"]
    assert cell.startswith("%lakejoin search fifa -c country -c confederation -k 5 ")
    rows = [(r["table"], r["mapping"]) for r in before.results.rows]
    assert rows
    ns = {"fifa": fifa}                       # the fresh kernel: a new widget, the same cell
    w = make(fuzzy_engine, ns=ns, frame="fifa", columns=["country"], search=True)
    w.wait()
    assert sent[-1]["only_if_missing"] is True
    _reply(w.search_code, sent[-1]["request"], "kept", cell)
    w.wait()
    assert "does not follow" not in w.status_text, w.status_text
    assert tuple(w.column_picker.value) == ("country", "confederation") and w.k_box.value == 5
    assert [(r["table"], r["mapping"]) for r in w.results.rows] == rows
    assert sent[-1]["code"] == cell and w.search_code.code == cell
    assert ns["fifa_hits"][0].query_columns == ("country", "confederation")
    # a cell naming a column the frame lacks is still kept with a note, nothing changed
    n = len(sent)
    _reply(w.search_code, sent[-1]["request"], "kept",
           "%lakejoin search fifa -c country -c nope --save fifa_hits")
    w.wait()
    assert len(sent) == n and "does not follow it" in w.status_text
    assert tuple(w.column_picker.value) == ("country", "confederation")


@pytest.mark.spark
def test_the_first_search_leaves_the_variable_its_cell_bound(demo_engine, fifa, monkeypatch):
    """"Run all" may run the search cell below the widget before the widget's own first
    search ends: that search then leaves the variable to the cell (the notebook's search
    stays the one its cell states); a search the user starts binds it."""
    _sent(monkeypatch)
    session = Session()
    ns = {"fifa": fifa}
    w = DiscoveryWidget(demo_engine, session=session, namespace=ns, frame="fifa",
                        columns=["country"])
    cells = demo_engine.search(fifa, "country", k=3)     # the search cell, run after the widget
    ns["fifa_hits"] = cells
    session.note("search:fifa_hits", cells)
    w.search(automatic=True).wait()
    assert ns["fifa_hits"] is cells and "saved as" not in w.status_text
    assert "fifa_hits is left to the cell that bound it." in w.status_text
    assert len(w.results.rows) == 10                      # the widget shows its own search
    w.search().wait()
    assert ns["fifa_hits"] is not cells and len(ns["fifa_hits"]) == 10
    # a widget's own binding is its own: its next first search rebinds it
    mine = ns["fifa_hits"]
    w.search(automatic=True).wait()
    assert ns["fifa_hits"] is not mine


def test_read_search_line_is_the_inverse_of_search_magic():
    from lakejoin_jupyter.ui.query_panel import read_search_line
    line = search_magic("q", ["a b", "c"], k=5, save="q_hits", threshold=0.5, method="mate",
                        options={"verify": True, "tau": 0.25, "plan": "x"}, max_values=1000)
    assert read_search_line("%lakejoin open 'my index'\n" + line, "q") == {
        "columns": ["a b", "c"], "k": 5, "threshold": 0.5, "method": "mate",
        "options": {"verify": True, "tau": 0.25, "plan": "x"}, "max_values": 1000,
        "save": "q_hits"}
    assert read_search_line("%lakejoin search q.city --save h", "q")["columns"] == ["city"]
    assert read_search_line("%lakejoin search q.city -c b", "q")["columns"] == ["city", "b"]
    for other in ("%lakejoin search r.city --save h", "%lakejoin search q.city --all",
                  "%lakejoin search q.city --no-own", "%lakejoin search q.city --rank overlap",
                  "%lakejoin search q.city -O nonsense", "%lakejoin search q.city --bogus",
                  "%lakejoin search 'q.city", "x = 1",
                  "%lakejoin search q.a\n%lakejoin search q.b"):
        assert read_search_line(other, "q") is None, other


@pytest.mark.spark
def test_an_empty_result_shows_the_engines_message(fuzzy_engine, union_engine, monkeypatch):
    """The table of an empty result says what the engine says (SearchResult.empty_text,
    UnionResult.empty_message), never a wording of its own, and says it once: the status
    line gives the count only (new user 12: the paragraph was printed twice)."""
    from lakejoin_jupyter.join.union import UnionResult
    q = pd.DataFrame({"code": ["zq-0001-xx", "zq-0002-xx", "zq-0003-xx"]})
    w = make(fuzzy_engine, ns={"q": q}, frame="q", columns=["code"], auto_insert=False)
    for threshold in (None, 0.5):
        w.method_picker.value = "auto"
        w.use_threshold.value = threshold is not None
        w.search().wait()
        want = fuzzy_engine.search(q, "code", threshold=threshold, rank="useful")
        assert len(want) == 0 and w.results.rows == []
        # the index holds the transform component: the widget names its Method, the
        # CLI and Python text the -m option and the keyword
        assert w.results.empty_text == want.empty_text(widget=True)
        assert "Method 'Needs a transformation'" in w.results.empty_text
        assert "-m transform" in want.empty_message
        assert w.status_text.startswith("0 hit(s)") and want.empty_message not in w.status_text
        assert w.results.empty_text not in w.status_text
    engine, frame = union_engine
    monkeypatch.setattr(engine, "search_unionable",
                        lambda f, k, columns=None: UnionResult([], list(f.columns), 0.001))
    w = make(engine, ns={"q": frame}, frame="q", auto_insert=False, mode="union")
    w.search().wait()
    empty = UnionResult([], list(frame.columns), 0.001)
    assert w.results.rows == [] and w.results.empty_text == empty.empty_message
    assert empty.empty_message not in w.status_text
    assert html.escape(empty.empty_message) in empty._repr_html_()


@pytest.mark.spark
def test_an_empty_fuzzy_search_names_the_widgets_own_control(fuzzy_engine):
    """New user 12: a fuzzy search that finds nothing advises a smaller joinability; in the
    widget the advice names the widget's control ("share of values to match (T)"), not the
    CLI's -O joinability=... or search()'s keyword, and it is printed once (the table)."""
    q = pd.DataFrame({"c": ["Germany", "France", "qqqqzzzz", "xxxjjjjv", "wwwkkkyy",
                            "zzqqvvkk", "vvvkkkqq"]})
    w = make(fuzzy_engine, ns={"q": q}, frame="q", columns=["c"], auto_insert=False)
    w.method_picker.value = "pexeso"
    w.search().wait()
    want = fuzzy_engine.search(q, "c", method="pexeso", rank="useful")
    assert len(want) == 0 and "-O joinability=" in want.empty_message
    text = w.results.empty_text
    assert w.results.rows == [] and text == want.empty_text(widget=True)
    assert '"share of values to match (T)" at 0.' in text, text
    assert "-O joinability" not in text and "search()" not in text
    assert "joinability" not in w.status_text and "closest column" not in w.status_text


@pytest.mark.spark
def test_progressive_results_and_method_options(demo_engine, fifa, fake_methods):
    seen, _ = fake_methods
    ns = {"fifa": fifa}
    w = make(demo_engine, ns=ns, frame="fifa", columns=["country"])
    values = [v for _, v in w.method_picker.options]
    assert values[0] == PROGRESSIVE and "approx-test" in values and "slow-test" in values
    snapshots = []
    w.results.observe(lambda ch: snapshots.append((w.results.phase, [r["exact"] for r in ch.new])),
                      "rows")
    w.search().wait()
    assert snapshots[0][0].startswith("approximate results (Approximate (test))")
    assert snapshots[0][1] and not any(snapshots[0][1])          # estimated rows first
    assert snapshots[-1][0] == "exact results" and all(snapshots[-1][1])
    want = demo_engine.search(fifa, "country", k=10, rank="useful")
    assert [r["overlap"] for r in w.results.rows] == [h.overlap for h in want]
    # the approximate method's ParamSpec became a control, its value reaches run()
    w.method_picker.value = "approx-test"
    assert list(w.query.method_controls) == ["noise"]
    w.query.method_controls["noise"].value = 0.75
    w.search().wait()
    assert seen[-1] == {"noise": 0.75}
    assert all(r["method"] == "approx-test" and not r["exact"] and r["figures"] == "estimated"
               for r in w.results.rows)


@pytest.mark.spark
def test_panel_hit_shows_its_card_and_joins_per_key(demo_engine, fifa):
    """GDP (country x year): the status line says a join would multiply the rows, the card
    says by how much and how to aggregate, and the Join tab's Per key keeps one row each."""
    ns = {"fifa": fifa}
    w = make(demo_engine, ns=ns, frame="fifa", columns=["country"], auto_insert=False)
    w.method_picker.value = "auto"
    w.k_box.value = 20
    w.search().wait()
    i = next(i for i, r in enumerate(w.results.rows) if r["table"] == "reference/gdp")
    assert w.results.rows[i]["key_ratio"] > 1
    assert "would multiply the query's 191 rows" in w.status_text
    w.results.selected = i
    w.wait()
    hit = w.selected_hit()
    assert hit.table == "reference/gdp" and hit.multiplies_rows
    assert f"191 &rarr; {hit.join_rows:,} rows" in w.detail_html.value
    assert "aggregate=&quot;latest&quot;" in w.detail_html.value
    tab = w.actions.tabs["join"]
    assert tab.rows["aggregate"].layout.display != "none"
    tab.controls["aggregate"].value = "latest"
    w.action_buttons["join"].click()
    w.wait()
    var = default_variable("fifa", hit.table)
    assert len(ns[var]) == len(fifa)
    pd.testing.assert_frame_equal(ns[var], hit.join(fifa, aggregate="latest"))
    run = {"fifa": fifa}
    exec(tab.code_panel.code, run)  # noqa: S102
    pd.testing.assert_frame_equal(run[var], ns[var])


@pytest.mark.spark
def test_cancel_midway_keeps_the_widget_usable(demo_engine, fifa, fake_methods):
    _, gate = fake_methods
    w = make(demo_engine, ns={"fifa": fifa}, frame="fifa", columns=["country"])
    w.method_picker.value = "auto"
    w.search().wait()
    before = [r["table"] for r in w.results.rows]
    w.method_picker.value = "slow-test"
    task = w.search()
    assert w.search_button.disabled and not w.cancel_button.disabled
    w.cancel()                                   # the Cancel button
    assert "Cancelled (search)" in w.status_text
    assert not w.search_button.disabled and w.cancel_button.disabled
    gate.set()                                   # the numpy search ends on its own...
    assert task.wait(60)
    assert [r["table"] for r in w.results.rows] == before   # ...and its result is discarded
    w.method_picker.value = "auto"
    w.search().wait()
    assert len(w.results.rows) == 10 and "hit(s)" in w.status_text


@pytest.mark.spark
def test_the_results_area_says_searching_while_the_first_search_runs(demo_engine, fifa,
                                                                      fake_methods):
    """A widget opened without a search (`--no-search`): while its first search runs, the
    empty results area says so, not "Pick a DataFrame ..." (the status line says what is
    searched); a cancelled search gives the idle text back, a finished one its hits."""
    _, gate = fake_methods
    w = make(demo_engine, ns={"fifa": fifa}, frame="fifa", columns=["country"])
    idle = w.results.empty_text
    assert w.results.rows == [] and idle.startswith("Pick a DataFrame")
    w.method_picker.value = "slow-test"
    task = w.search()
    assert w.results.rows == [] and w.results.empty_text == "Searching..."
    w.cancel()
    assert w.results.empty_text == idle
    gate.set()
    assert task.wait(60)
    gate.clear()
    task = w.search()
    assert w.results.empty_text == "Searching..."
    gate.set()
    task.wait(60)
    assert len(w.results.rows) == 1 and w.results.empty_text != "Searching..."


@pytest.mark.spark
def test_bad_inputs_in_the_widget(demo_engine, demo_index_path, tmp_path, spark):
    ns = {"empty_df": pd.DataFrame({"c": []}), "null_df": pd.DataFrame({"c": [None, "", "n/a"]}),
          "ok_df": pd.DataFrame({"c": ["France", "Chad", "Peru"]})}
    w = make(demo_engine, ns=ns)
    w.method_picker.value = "auto"
    for name, message in (("empty_df", "empty"), ("null_df", "no values to search with")):
        w.frame_picker.value = name
        w.column_picker.value = ("c",)
        w.search().wait()
        assert message in w.status_text and "lakejoin-status-error" in w.status.value
    w.frame_picker.value = "ok_df"
    assert w.column_picker.value == ("c",)            # the same column name stays chosen
    w.column_picker.value = ()
    assert w.search() is None and "Pick the column(s)" in w.status_text
    w.column_picker.value = ("c",)
    ns["ok_df"] = pd.DataFrame({"renamed": ["France"]})   # reassigned behind the widget
    w.search().wait()
    assert "Column(s) ['c'] not found" in w.status_text
    # a Spark DataFrame too large to collect: sampled, and the widget says so
    ns["big"] = spark.createDataFrame(pd.DataFrame({"c": [f"v{i}" for i in range(300)]}))
    w2 = make(demo_engine, ns=ns, frame="big", columns=["c"], max_values=40)
    w2.method_picker.value = "auto"
    w2.search().wait()
    assert "random sample" in w2.status_text and "lakejoin-status-note" in w2.status.value
    # the index deleted while open
    copy = tmp_path / "copy.index"
    shutil.copytree(demo_index_path, copy)
    from lakejoin_jupyter import open_index
    w3 = make(open_index(copy), ns={"ok": pd.DataFrame({"c": ["France"]})}, frame="ok",
              columns=["c"])
    w3.method_picker.value = "auto"
    shutil.rmtree(copy)
    w3.search().wait()
    assert "deleted or moved while it was open" in w3.status_text
    assert not w3.search_button.disabled


@pytest.mark.spark
def test_build_cancel_leaves_nothing_then_build_opens(spark, tmp_path):
    from conftest import write_lake
    lake = write_lake(tmp_path / "lake", {
        "a.csv": pd.DataFrame({"country": ["France", "Chad", "Peru"], "v": [1, 2, 3]}),
        "b.csv": pd.DataFrame({"name": ["FRANCE", "chad"], "code": ["FR", "TD"]})})
    out = tmp_path / "built.index"
    w = make(ns={"q": pd.DataFrame({"k": ["france"]})}, frame="q", columns=["k"])
    gate = threading.Event()
    real = w._set_status

    def status(text, kind="info"):
        real(text, kind)
        if text.startswith("Building:"):
            gate.set()
    w._set_status = status
    task = w.build_index(str(lake), str(out))
    assert gate.wait(300)
    w.cancel()
    assert task.wait(300)
    assert not out.exists() and not list(tmp_path.glob("built.index.tmp-*"))
    assert w.session.engine is None
    # one line that says nothing was written; no (empty) progress bar is left
    assert w.status_text == "Cancelled the index build; nothing was written."
    assert w.progress.layout.display == "none"
    # a build that fails: one line (what happened, nothing written), no bar
    (tmp_path / "empty").mkdir()
    w.build_index(str(tmp_path / "empty"), str(tmp_path / "never.index")).wait(300)
    assert "No tables found" in w.status_text and "Nothing was written" in w.status_text
    assert "\n" not in w.status_text and w.progress.layout.display == "none"
    assert not (tmp_path / "never.index").exists()
    w.build_index(str(lake), str(out))
    w.wait(600)
    assert w.session.engine is not None and w.session.engine.path == out
    assert "Indexed 2 of 2 tables" in w.status_text
    w.method_picker.value = "auto"
    w.search().wait()
    assert {(r["table"], r["overlap"]) for r in w.results.rows} == {("a", 1), ("b", 1)}


@pytest.mark.spark
def test_rebuild_replaces_the_open_index_and_reopens_it(spark, tmp_path):
    """The Index field holds the open index (through a link, as a Lab root often does):
    the build button reads Rebuild; a build without Rebuild refuses in one line that
    names one path; Open of another index fills the Lake field with that index's lake
    (newuser14 D17); Rebuild from another lake is refused at once (the index unchanged);
    Rebuild from its lake replaces the index, keeps its optional components and every
    build setting it records (MinHash size and seed, XASH size, each component's ``--set``
    options) and reopens it; a rebuild that fails leaves the index and no progress bar."""
    import os
    from conftest import write_lake
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    from lakejoin_jupyter.config import BuildSettings
    names = [f"place {i}" for i in range(60)]
    old = write_lake(tmp_path / "old", {"a.csv": pd.DataFrame({"country": names[:40]})})
    new = write_lake(tmp_path / "new", {
        "a.csv": pd.DataFrame({"country": names + ["peru"]}),
        "b.csv": pd.DataFrame({"name": ["peru", "chad"], "code": ["PE", "TD"]})})
    real = tmp_path / "real.index"
    given = {"pexeso": {"embedder": "ngram:dim=64", "pivots": 6, "seed": 3},
             "union": {"sample_values": 40}, "transform": {"q": 4, "short": 0},
             "lshensemble": {"partitions": 8, "max_bins": 512}}
    build(old, real, spark=spark, progress=False, settings=BuildSettings(
        num_perm=128, minhash_seed=7, mate_bits=512, components=("union", "pexeso", "transform"),
        component_options=given))
    from lakejoin_jupyter.index.store import read_manifest
    from lakejoin_jupyter.indexing.pipeline import recorded_settings
    before = recorded_settings(read_manifest(real))
    assert (before.num_perm, before.minhash_seed, before.mate_bits) == (128, 7, 512)
    assert set(before.components) == {"union", "pexeso", "transform"}
    for comp, opts in given.items():           # every --set value is recorded, and read back
        for name, value in opts.items():
            got = before.component_options[comp][name]
            assert (got["name"], got["dim"]) == ("ngram", 64) if name == "embedder" else \
                got == value, (comp, name, got)
    (tmp_path / "root").mkdir()
    link = tmp_path / "root" / "lake.index"
    os.symlink(real, link)
    other = tmp_path / "other.index"
    build(new, other, spark=spark, progress=False)
    w = make(open_index(link), ns={"q": pd.DataFrame({"k": ["peru"]})}, frame="q", columns=["k"])
    assert w.index_path.value == str(link)
    assert w.lake_path.value == str(old)            # the lake the index records, to rebuild
    assert w.build_button.description == "Rebuild" and w.build_button.button_style == ""
    assert w.build_index(str(old), str(link)) is None          # not Rebuild: refused at once
    assert f"An index already exists at {link} (the index open here)" in w.status_text
    assert "Press Rebuild" in w.status_text and str(real) not in w.status_text
    assert "overwrite=True" not in w.status_text
    # Open of another index: the Lake field follows it (the lake Rebuild would read)
    w.index_path.value = str(other)
    w.open_index(w.index_path.value).wait(120)
    assert w.session.engine.path == other and w.lake_path.value == str(new)
    w.index_path.value = str(link)
    w.open_index(w.index_path.value).wait(120)
    assert w.lake_path.value == str(old) and w.build_button.description == "Rebuild"
    opened = w.session.engine
    w.lake_path.value = str(new)                    # another lake: refused at once, no Spark
    assert w.build_index(w.lake_path.value, w.index_path.value, rebuild=True) is None
    assert w.status_text.startswith(f"Not rebuilding {link} (the index open here): it is the "
                                    f"index of the lake {old}, not of {new}."), w.status_text
    assert "\n" not in w.status_text and "--overwrite" in w.status_text
    assert recorded_settings(read_manifest(link)) == before and w.session.engine is opened
    # Rebuild from its own lake, changed since the build
    write_lake(old, {"a.csv": pd.DataFrame({"country": names + ["peru"]}),
                     "b.csv": pd.DataFrame({"name": ["peru", "chad"], "code": ["PE", "TD"]})})
    w.lake_path.value = str(old)
    w.build_button.click()
    w.wait(600)
    assert w.status_text.startswith(f"Rebuilt {link} and reopened it."), w.status_text
    assert "Indexed 2 of 2 tables" in w.status_text
    engine = w.session.engine
    assert engine.path == link and engine.index.has("union")        # kept, with
    assert engine.index.components["pexeso"]["embedder"]["dim"] == 64     # its embedder
    assert recorded_settings(read_manifest(link)) == before       # and every other setting
    after = read_manifest(link)
    assert after["parameters"] == {"num_perm": 128, "minhash_seed": 7}
    assert after["components"]["mate"]["xash"]["bits"] == 512
    assert after["components"]["transform"]["spec"]["q"] == 4
    assert (after["components"]["pexeso"]["pivots"], after["components"]["pexeso"]["seed"]) == (6, 3)
    assert w.title.value.count("2 tables") == 1
    w.method_picker.value = "auto"
    w.search().wait()
    assert {r["table"] for r in w.results.rows} == {"a", "b"}
    # a rebuild that fails (its lake emptied): the index stays, open; one path named; no bar
    (tmp_path / "empty").mkdir()
    for f in old.iterdir():
        f.rename(tmp_path / "empty" / f.name)
    w.build_button.click()
    w.wait(300)
    assert "No tables found" in w.status_text
    assert f"The index at {link} is unchanged." in w.status_text and str(real) not in w.status_text
    assert w.progress.layout.display == "none" and not w.search_button.disabled
    assert w.session.engine is engine and w.build_button.description == "Rebuild"
    # another folder: Build again
    w.index_path.value = str(tmp_path / "third.index")
    assert w.build_button.description == "Build" and w.build_button.button_style == ""


def test_built_package_ships_the_widget_assets(tmp_path):
    """setup.py's build_py copies js/ into lakejoin_jupyter/static/, which asset() prefers."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    src = tmp_path / "src"
    shutil.copytree(root, src, ignore=shutil.ignore_patterns(
        ".git", "artifacts", "*.index", ".venv", "build", "__pycache__", ".hypothesis"))
    subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib",
                    str(tmp_path / "lib")], cwd=src, check=True, capture_output=True)
    static = tmp_path / "lib" / "lakejoin_jupyter" / "static"
    for name in ("results_table.js", "code_panel.js", "lakejoin.css"):
        assert (static / name).read_bytes() == (root / "js" / name).read_bytes()


@pytest.fixture
def pair_method(demo_engine):
    """A multi-column method (as MATE will register one): proposes the country-codes
    table's (name, alpha-3) column pair with its exact key-tuple overlap."""
    from lakejoin_jupyter.lake.normalize import normalize_many

    def run(index, query, params):          # index: one generation, local column ids
        t = index.tables
        tid = int(t.loc[t["name"] == "reference/country-codes", "table_id"].iloc[0])
        c = index.columns
        ids = c[c["table_id"] == tid].set_index("name")["column_id"]
        a, b = int(ids["CLDR display name"]), int(ids["ISO3166-1-Alpha-3"])
        from lakejoin_jupyter.engine import index_table
        t = index_table(index, "reference/country-codes")
        lake = set(zip(normalize_many(t["CLDR display name"].tolist()),
                       normalize_many(t["ISO3166-1-Alpha-3"].tolist())))
        overlap = sum(1 for r in query.rows if r in lake)
        return [Candidate((a, b), score=overlap, overlap=overlap)], {}

    demo_engine.search_methods["pair-test"] = SearchMethod(
        "pair-test", "Column pairs (test)", "exact", run, multi_column=True, single_column=False)
    yield
    demo_engine.search_methods.pop("pair-test")


@pytest.mark.spark
def test_multi_column_search_shows_the_mapping_and_joins_on_both(demo_engine, fifa, pair_method):
    q = fifa.head(40).assign(code=lambda d: ["xx"] * 5 + [None] * 5 + ["ARG"] * 30)
    q.loc[q["country"] == "Argentina", "code"] = "arg"
    ns = {"q": q}
    w = make(demo_engine, ns=ns, frame="q", columns=["country", "code"], auto_insert=False)
    values = [v for _, v in w.method_picker.options]                 # multi-column only
    assert values[0] == "auto" and {"mate", "pair-test"} <= set(values)
    assert all(demo_engine.search_methods[v].multi_column for v in values[1:])
    # auto picks MATE (the highest-priority multi-column method): the engine's top hit and mapping
    w.search().wait()
    top = demo_engine.search(q, ["country", "code"], k=10)[0]
    assert top.method == "mate" and w.results.rows[0]["overlap"] == top.overlap
    assert w.results.rows[0]["mapping"] == ", ".join(f"{a} → {b}" for a, b in top.mapping.items())
    w.method_picker.value = "pair-test"
    w.search().wait()
    assert w.results.rows[0]["mapping"] == ("country → CLDR display name, "
                                            "code → ISO3166-1-Alpha-3")
    assert {c["key"] for c in w.results.columns} >= {"mapping"}
    assert w.results.rows[0]["overlap"] == 1        # only (Argentina, arg) is in the lake
    w.results.selected = 0
    w.wait()
    w.action_buttons["join"].click()
    w.wait()
    out = ns[default_variable("q", "reference/country-codes")]
    assert len(out) == len(q)
    matched = out[out["FIFA"].notna()]
    assert matched["country"].tolist() == ["Argentina"] and matched["code"].tolist() == ["arg"]
    ns2 = {"q": q}
    exec(w.code_panel.code, ns2)  # noqa: S102
    pd.testing.assert_frame_equal(ns2[default_variable("q", "reference/country-codes")], out)


@pytest.mark.spark
def test_spark_query_is_joined_in_spark(demo_engine, fifa, spark):
    ns = {"sfifa": spark.createDataFrame(fifa)}
    w = make(demo_engine, ns=ns, frame="sfifa", columns=["country"], auto_insert=False)
    w.method_picker.value = "auto"
    w.search().wait()
    i = next(i for i, r in enumerate(w.results.rows) if r["table"] == "reference/country-codes")
    w.results.selected = i
    w.wait()
    w.action_buttons["join"].click()
    w.wait()
    out = ns[default_variable("sfifa", "reference/country-codes")]
    assert type(out).__module__.startswith("pyspark.sql")
    assert "spark.read.csv(" in w.code_panel.code and "Spark DataFrame" in w.status_text
    want = w._hits[i].join(fifa)
    assert out.count() == len(want) and sorted(out.columns) == sorted(want.columns)


# ---------------------------------------------------------------- Union mode

@pytest.fixture(scope="module")
def union_engine(spark, tmp_path_factory):
    """A small lake indexed with the union component: two tables of the same kind (one
    with uninformative headers), one of another kind."""
    import numpy as np

    from conftest import write_lake
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    rng = np.random.default_rng(4)
    towns = [f"{a}{b}ville" for a in "BCDFGHKLMN" for b in "aeiou"]

    def sales(n):
        return pd.DataFrame({"town": rng.choice(towns, n), "amount": np.round(rng.normal(900, 90, n), 2),
                             "year": rng.integers(1990, 2021, n)})

    other = sales(70)
    other.columns = ["c1", "c2", "c3"]
    root = write_lake(tmp_path_factory.mktemp("wulake") / "lake", {
        "sales.csv": sales(60), "archive/old_sales.csv": other,
        **{f"other/t{i}.csv": pd.DataFrame({   # tables of other kinds: the background
            "person": [f"P{j:03d}" for j in rng.integers(0, 500, 50)],
            "flag": rng.choice(["yes", "no", "maybe"][:2 + i % 2], 50),
            "code": [f"{c}-{k:04d}" for c, k in zip(rng.choice(list("ABCDEFGH"), 50),
                                                     rng.integers(0, 9999, 50))],
            "share": np.round(rng.random(50) * (i + 1), 3)}) for i in range(6)}})
    out = tmp_path_factory.mktemp("wuindex") / "u.index"
    build(root, out, spark=spark, progress=False,
          settings=BuildSettings(components=("-josie", "-mate", "-lshensemble", "union")))
    return open_index(out), sales(40).rename(columns={"town": "where", "amount": "paid"})


@pytest.mark.spark
def test_union_mode_lists_aligns_stacks_and_writes_the_code(union_engine):
    from IPython.core.interactiveshell import InteractiveShell

    from lakejoin_jupyter.actions import UNION_ACTIONS
    engine, q = union_engine
    ns = {"q": q}
    w = make(engine, ns=ns, frame="q", auto_insert=False, mode="union")
    assert w.query.method_picker.layout.display == "none"     # union has no method to pick
    assert w.query.union_note.layout.display == ""
    w.k_box.value = 5
    w.search().wait()
    want = engine.search_unionable(q, k=5)
    assert [(r["table"], r["aligned"], r["rows"]) for r in w.results.rows] == \
        [(h.table, f"{len(h.alignment)}/3", h.rows) for h in want]
    assert [r["score"] for r in w.results.rows] == [pytest.approx(h.score, rel=1e-3) for h in want]
    assert {"sales", "archive/old_sales"} == {r["table"] for r in w.results.rows[:2]}
    assert w.search_code.code == "%lakejoin union q -k 5 --save q_unions"
    assert ns["q_unions"][0].table == want[0].table and "saved as q_unions" in w.status_text
    # the magic in the search cell finds the same tables (nothing hidden in the widget)
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "lakejoin_jupyter")
    from lakejoin_jupyter.ui.session import SESSION
    saved, SESSION.engine = SESSION.engine, engine
    try:
        shell.user_ns["q"] = q
        again = shell.run_cell(w.search_code.code).result
        assert [h.table for h in again] == [h.table for h in want]
    finally:
        SESSION.engine = saved

    i = next(i for i, r in enumerate(w.results.rows) if r["table"] == "archive/old_sales")
    w.results.selected = i                         # a click on the row
    w.wait()
    hit = want[i]
    assert hit.mapping["where"] == "c1" and hit.mapping["year"] == "c3"
    for a, b, s in hit.alignment:                  # the alignment with per-column scores
        assert (f"<td class='lakejoin-query-column'>{a}</td><td data-label='\u2190'>{b}</td>"
                f"<td class='lakejoin-num' data-label='score'><b>{s:.2f}</b></td>"
                in w.detail_html.value)
        shared, nq, nl = hit.shared[a]             # the values shared, as counted in the card
        assert (f"title='the lake column has {nl:,} distinct values'>{shared:,}/{nq:,}</td>"
                in w.detail_html.value)
    assert f"&middot; {hit.rows:,} rows" in w.detail_html.value
    assert any("application/vnd.vegalite.v5+json" in o.get("data", {}) for o in w.chart_out.outputs)
    assert list(w.action_buttons) == [a.name for a in UNION_ACTIONS] == ["union"]
    w.action_buttons["union"].click()
    w.wait()
    var = default_variable("q", hit.table, "union")
    pd.testing.assert_frame_equal(ns[var], hit.union(q))
    assert len(ns[var]) == len(q) + hit.rows and f"bound to {var}" in w.status_text
    tab = w.actions.tabs["union"]
    assert tab.code_panel.key == f"union:{var}" and w.code_panel is tab.code_panel
    run = {"q": q}
    exec(tab.code_panel.code, run)  # noqa: S102
    pd.testing.assert_frame_equal(run[var], ns[var])
    # a query column left out: the hit aligns only the columns picked
    w.column_picker.value = ("where", "paid")
    w.search().wait()
    assert all(r["aligned"].endswith("/2") for r in w.results.rows)
    assert w.search_code.code == "%lakejoin union q -c where -c paid -k 5 --save q_unions"
    # back to Join: the union results go, the join actions come back
    w.mode.value = "join"
    assert w.results.rows == [] and w.actions is w.join_actions
    assert w.query.method_picker.layout.display == ""


@pytest.mark.spark
def test_union_mode_shows_the_users_saved_union_and_never_rebinds_it(union_engine):
    """As in Join mode: a union search the user saved as ``q_unions`` (``%lakejoin union q
    -c where -c paid -k 3 --save q_unions`` in a cell above, or the API's result bound
    there) is what ``%lakejoin ui --union q`` shows, with its columns and k, and is left as
    it is: the widget's own searches go to ``q_unions_2``. One the widget cannot make (API
    options) is not shown; the widget searches itself, under another name."""

    from lakejoin_jupyter.ui.session import SESSION
    engine, q = union_engine
    shell, run = _magic_shell()
    saved = SESSION.engine

    def fresh():
        shell.reset(new_session=False)
        SESSION.written.clear()
        SESSION.by_widget.clear()
        SESSION.engine = engine
        shell.user_ns["q"] = q

    try:
        fresh()
        run("%lakejoin union q -c where -c paid -k 3 --save q_unions")
        users = shell.user_ns["q_unions"]
        w = run("%lakejoin ui --union q")
        w.wait()
        assert shell.user_ns["q_unions"] is users and w.mode.value == "union"
        assert tuple(w.column_picker.value) == ("where", "paid") and w.k_box.value == 3
        assert [r["table"] for r in w.results.rows] == [h.table for h in users]
        assert w.search_code.code == ""
        assert "q_unions, the union search your cell saved (columns where, paid, k = 3)" in \
            w.status_text, w.status_text
        assert "saved as q_unions_2" in w.status_text
        w.results.selected = 0                           # its hits act as the widget's own
        w.wait()
        assert w.selected_hit() is users[0] and "union" in w.action_buttons
        w.k_box.value = 5
        w.search().wait()
        assert shell.user_ns["q_unions"] is users
        assert w.search_code.code == "%lakejoin union q -c where -c paid -k 5 --save q_unions_2"
        w.search().wait()                                # its own name: taken back
        assert "q_unions_3" not in shell.user_ns and shell.user_ns["q_unions"] is users
        # the API's union search of the frame, bound by the user
        fresh()
        api = shell.user_ns["q_unions"] = engine.search_unionable(q, k=2)
        w = run("%lakejoin ui --union q")
        w.wait()
        assert shell.user_ns["q_unions"] is api and w.k_box.value == 2
        assert w.column_picker.value == () and "(k = 2)" in w.status_text, w.status_text
        assert [r["table"] for r in w.results.rows] == [h.table for h in api]
        # one made with options the widget does not offer: the widget's own search
        fresh()
        api = shell.user_ns["q_unions"] = engine.search_unionable(q, k=2, min_column=0.9)
        w = run("%lakejoin ui --union q")
        w.wait()
        assert shell.user_ns["q_unions"] is api and "saved as q_unions_2" in w.status_text
        assert shell.user_ns["q_unions_2"].k == 10 and shell.user_ns["q_unions_2"].options == {}
    finally:
        SESSION.engine = saved
        shell.reset(new_session=False)


@pytest.mark.spark
def test_union_mode_without_the_union_component_says_how_to_rebuild(demo_engine, fifa):
    w = make(demo_engine, ns={"fifa": fifa}, frame="fifa", mode="union")
    assert "no union component" in w.status_text and "--with union" in w.status_text
    assert demo_engine.rebuild_command("union") in w.status_text     # as built, with union
    assert f"--out {demo_engine.path} " in w.status_text and "--overwrite" in w.status_text
    assert "press Rebuild in Union mode" in w.status_text         # the button's label now
    assert w.build_button.description == "Rebuild"
    assert w.search() is None and "--with union" in w.status_text
    w.mode.value = "join"
    assert "no union component" not in w.status_text
    w.mode.value = "union"                           # switching back says it again
    assert "--with union" in w.status_text
    with pytest.raises(Exception, match="mode is 'join' or 'union'"):
        make(demo_engine, mode="stack")


@pytest.mark.spark
def test_a_search_without_a_dataframe_says_to_pick_one(demo_engine, union_engine):
    """Both modes check the open index, then the picked DataFrame (widget._open_engine,
    _picked_frame)."""
    w = make(ns={}, mode="union")
    assert w.search() is None and "No index is open" in w.status_text
    for engine, mode in ((demo_engine, "join"), (union_engine[0], "union")):
        w = make(engine, ns={}, mode=mode)
        assert w.search() is None and "Pick a DataFrame of the notebook" in w.status_text


def test_a_build_from_union_mode_adds_the_union_component(monkeypatch, tmp_path):
    """Union mode needs the opt-in union component: the widget's Build asks for it there
    (and only there)."""
    import lakejoin_jupyter.engine as engine_mod
    import lakejoin_jupyter.spark as spark_mod
    asked = []

    def fake_build(lake, out, **kw):
        asked.append(tuple(kw.get("components", ())))
        raise RuntimeError("stop here")
    monkeypatch.setattr(engine_mod, "build_index", fake_build)
    monkeypatch.setattr(spark_mod, "get_spark", lambda *a, **k: None)
    lake, out = tmp_path / "lake", str(tmp_path / "out.index")
    lake.mkdir()                      # a lake path that exists: the build starts
    w = make(mode="union")
    w.build_index(str(lake), out).wait(60)
    w.mode.value = "join"
    w.build_index(str(lake), out).wait(60)
    assert asked == [("union",), ()]
    assert "stop here" in w.status_text


@pytest.mark.spark
def test_rebuild_is_a_warning_only_when_a_rebuild_is_advised(spark, tmp_path):
    """On a freshly built index the Rebuild button is neutral; it turns to the warning
    style, saying why in its tooltip, when the lake changed since the build or when the
    index folder named cannot be read."""
    from conftest import write_lake
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    lake = write_lake(tmp_path / "lake", {"a.csv": pd.DataFrame({"k": ["x", "y", "z"]})})
    path = tmp_path / "lake.index"
    build(lake, path, spark=spark, progress=False)
    w = make(open_index(path))
    assert w.build_button.description == "Rebuild" and w.build_button.button_style == ""
    assert "advised" not in w.build_button.tooltip
    (lake / "a.csv").write_text("k\nx\ny\nz\nw\n")         # the lake changes
    from lakejoin_jupyter.errors import LakeChangedWarning
    with pytest.warns(LakeChangedWarning):
        stale = make(open_index(path))
    assert stale.build_button.description == "Rebuild"
    assert stale.build_button.button_style == "warning"
    assert "advised: the lake changed since the build" in stale.build_button.tooltip
    broken = tmp_path / "broken.index"
    broken.mkdir()
    (broken / "manifest.json").write_text("{not json")
    w.index_path.value = str(broken)
    assert w.build_button.description == "Rebuild" and w.build_button.button_style == "warning"
    assert "cannot be read" in w.build_button.tooltip


def test_a_frontend_message_is_never_routed_to_a_deleted_subshell():
    """ipykernel routes a frontend message on a comm to the subshell the kernel last
    published on it under; once that subshell is deleted (a page reopened on a running
    kernel deletes the one it fetched the widgets' state over), the message goes to the
    subshell the frontend named if it exists, else to the main shell (None)."""
    from types import SimpleNamespace
    from lakejoin_jupyter.ui.views import ResultsTable, route_replies_to_live_subshells
    live = ["frontend-subshell"]
    manager = SimpleNamespace(list_subshell=lambda: list(live))
    comm = SimpleNamespace(kernel=SimpleNamespace(shell_channel_thread=SimpleNamespace(
        manager=manager)), _reply_subshell_id="deleted")
    comm._reply_subshell_for = lambda data, default: comm._reply_subshell_id
    widget = SimpleNamespace(comm=comm)
    route_replies_to_live_subshells(widget)
    route_replies_to_live_subshells(widget)                 # once is enough
    assert comm._reply_subshell_for({}, "frontend-subshell") == "frontend-subshell"
    assert comm._reply_subshell_for({}, "gone-too") is None
    assert comm._reply_subshell_for({}, None) is None
    comm._reply_subshell_id = "frontend-subshell"           # a live one is kept
    assert comm._reply_subshell_for({}, None) == "frontend-subshell"
    comm._reply_subshell_id = None
    assert comm._reply_subshell_for({}, "frontend-subshell") is None
    ResultsTable()                                          # no kernel: nothing to wrap


def test_a_code_panel_view_that_renders_late_gets_the_pending_write_again():
    """A view that renders after the "write" message went out (a page attaching to a
    running kernel) announces itself; the kernel sends the unanswered write again, with
    the same token (a page that already served it does not write twice), and nothing once
    the write is reported."""
    panel = CodePanel()
    sent = []
    panel.send = sent.append
    panel.key, panel.code = "search:x_hits", "%lakejoin search x.a --save x_hits"
    request = panel.write_cell()
    panel._on_frontend(panel, {"type": "ready"}, [])
    assert len(sent) == 2 and sent[0] == sent[1] and sent[1]["request"] == request
    panel._on_frontend(panel, {"type": "written", "request": request, "how": "inserted"}, [])
    panel._on_frontend(panel, {"type": "ready"}, [])
    assert len(sent) == 2
    assert panel.status == "inserted as a new cell below the widget"


def test_the_fuzzy_threshold_box_follows_the_chosen_functions_range(demo_engine, fifa,
                                                                     monkeypatch):
    """User test: the Fuzzy join tab's threshold box took 0..2 whatever the join function,
    and a threshold the engine refused read "nothing usable found". After a run its bounds
    are the chosen function's distances (join.fuzzy.distance_range) and its note says the
    scale ("of 0..1.41"); a threshold outside them that still reaches the engine shows the
    engine's refusal in the tab and the status; another hit brings back the widest range.
    (The demo's choice is the semantic function, whose range is 0..2: the join functions
    are restricted to the n-gram cosine ones, 0..1.41.)"""
    from lakejoin_jupyter.join.fuzzy import distance_range
    real = demo_engine.fuzzy_join
    monkeypatch.setattr(demo_engine, "fuzzy_join", lambda *a, **k: real(
        *a, functions=["char3-idf", "char23-idf", "char3"], **k))
    w = make(demo_engine, ns={"fifa": fifa}, frame="fifa", columns=["country"],
             auto_insert=False)
    w.k_box.value = 5
    w.search().wait()
    rows = [r["table"] for r in w.results.rows]
    w.results.selected = rows.index("reference/country-codes")
    w.wait()
    tab = w.actions.tabs["fuzzy_join"]
    t = tab.controls["threshold"]
    assert (t.slider.min, t.slider.max) == (0.0, 2.0)         # no function chosen yet
    w.run_action("fuzzy_join").wait()
    fn = w.last_action_result.details["function"]
    top = distance_range(fn)
    assert top < 2.0, fn                                       # the demo's: an n-gram one
    assert t.slider.max == pytest.approx(top) and t.slider.min == 0.0
    assert f"of 0..{top:.2f}" in t.note.value and fn in t.note.value, t.note.value
    t.auto.value = False
    t.slider.value = 1.99                                      # the box takes no more
    assert t.value == pytest.approx(top)
    assert f"of 0..{top:.2f}" in t.note.value
    w.run_action("fuzzy_join", threshold=top + 0.3).wait()    # one that gets through
    refusal = f"threshold {top + 0.3:g} is outside the distances of join function {fn!r}"
    assert refusal in w.status_text and "nothing usable found" not in w.status_text
    assert "lakejoin-status-error" in w.status.value
    assert refusal in html.unescape(tab.summary.value), tab.summary.value
    assert "lakejoin-status-error" in tab.summary.value
    w.results.selected = next(i for i, r in enumerate(rows) if r != "reference/country-codes")
    w.wait()
    if "fuzzy_join" in w.actions.shown:
        assert t.slider.max == 2.0 and "of 0.." not in t.note.value
