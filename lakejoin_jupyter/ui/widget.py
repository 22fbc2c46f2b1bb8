"""The discovery widget: pick a DataFrame and column(s), search the lake, open a hit, join.

    from lakejoin_jupyter.ui import DiscoveryWidget
    DiscoveryWidget(engine)            # or: %lakejoin ui [VAR[.COLUMN]]

Built from ipywidgets controls plus two anywidget views (js/): the ranked results table
and the code panel. Everything it offers comes from the engine's registries, so new search
methods and hit actions appear without changes here: ``engine.methods()`` fills the method
menu and each method's ``ParamSpec`` options become controls; "Auto" shows an approximate
method's rows first, then the exact method's; a hit opens a detail pane (matched values, a
coverage chart, a preview) with one button per ``actions.actions_for(hit)``, whose
``ActionResult`` is rendered generically. A joined DataFrame is bound to a variable, its
code inserted as the next cell, and it can be the query of the next search.

Searches, joins and builds run in background threads (ui/tasks.py) with a progress bar and
a Cancel button; the kernel's main thread stays free.
"""
from __future__ import annotations

import contextlib
import html
import keyword
import time
from pathlib import Path

import anywidget
import ipywidgets as W
import pandas as pd
import traitlets as T

from ..errors import LakeJoinError
from ..frames import is_spark_frame
from .session import SESSION, NoIndexOpenError, Session, dataframes_in, is_dataframe, unique_name
from .tasks import BackgroundTask

PROGRESSIVE = "auto:progressive"


def asset(name: str) -> Path:
    """A JS/CSS file of the widget: shipped in the package (static/, copied there by
    setup.py), or in js/ of a source checkout."""
    here = Path(__file__).resolve().parent.parent
    for p in (here / "static" / name, here.parent / "js" / name):
        if p.is_file():
            return p
    raise FileNotFoundError(f"lakejoin_jupyter widget asset {name} is missing from "
                            f"{here / 'static'}; reinstall the package.")


class ResultsTable(anywidget.AnyWidget):
    """Ranked hits; clicking a row sets ``selected``."""
    _esm = asset("results_table.js")
    _css = asset("lakejoin.css")
    columns = T.List(T.Dict()).tag(sync=True)
    rows = T.List(T.Dict()).tag(sync=True)
    selected = T.Int(-1).tag(sync=True)
    phase = T.Unicode("").tag(sync=True)
    empty_text = T.Unicode("Pick a DataFrame and column(s), then press Search.").tag(sync=True)


class CodePanel(anywidget.AnyWidget):
    """Generated code, with buttons to insert it as the next cell or copy it."""
    _esm = asset("code_panel.js")
    _css = asset("lakejoin.css")
    code = T.Unicode("").tag(sync=True)
    root_id = T.Unicode("").tag(sync=True)     # model id of the widget whose cell we follow
    last_cell_id = T.Unicode("").tag(sync=True)
    status = T.Unicode("").tag(sync=True)

    def __init__(self, **kw):
        super().__init__(**kw)
        self._requests = 0
        self.replies = []                         # what the frontend reported, newest last
        self.on_msg(self._on_frontend)

    def request_insert(self) -> int:
        """Ask the frontend to insert ``code`` as a new cell below the widget's cell."""
        self._requests += 1
        self.status = "inserting the code as the next cell..."
        self.send({"type": "insert", "request": self._requests})
        return self._requests

    def _on_frontend(self, _widget, content, _buffers):
        if not isinstance(content, dict):
            return
        self.replies.append(content)
        if content.get("type") == "inserted":
            how = content.get("how")
            self.status = {"notebook": "inserted as the next cell",
                           "clipboard": "this frontend cannot insert cells: code copied to "
                                        "the clipboard"}.get(how, "could not insert or copy "
                                                                  "the code: copy it by hand")
        elif content.get("type") == "copied":
            self.status = "copied" if content.get("ok") else "copy failed: select the code"


def control_for(spec):
    """An ipywidgets control for a registry.ParamSpec."""
    style = {"description_width": "initial"}
    common = dict(description=spec.label, style=style, tooltip=spec.help or spec.label)
    if spec.kind == "bool":
        return W.Checkbox(value=bool(spec.default), indent=False, **common)
    if spec.kind == "choice":
        choices = list(spec.choices)
        value = spec.default if spec.default in choices else (choices[0] if choices else None)
        return W.Dropdown(options=choices, value=value, layout=W.Layout(width="220px"), **common)
    if spec.kind == "int":
        value = int(spec.default if spec.default is not None else (spec.min or 0))
        if spec.min is not None and spec.max is not None:
            return W.BoundedIntText(value=value, min=int(spec.min), max=int(spec.max),
                                    step=int(spec.step or 1), layout=W.Layout(width="200px"),
                                    **common)
        return W.IntText(value=value, layout=W.Layout(width="200px"), **common)
    value = float(spec.default if spec.default is not None else (spec.min or 0.0))
    if spec.min is not None and spec.max is not None:
        ctl = W.FloatSlider(value=value, min=float(spec.min), max=float(spec.max),
                            step=float(spec.step or (spec.max - spec.min) / 100),
                            readout_format=".2f", continuous_update=False, **common)
    else:
        ctl = W.FloatText(value=value, layout=W.Layout(width="200px"), **common)
    if spec.default is None:          # no default of its own (the method decides): an
        ctl.unset_value = value       # untouched control passes None (control_values)
    return ctl


def control_values(controls: dict) -> dict:
    """The options of a set of controls; a control left at the placeholder of an option
    without a default gives None, so the method applies its own default (PEXESO's tau is
    the index's)."""
    return {n: (None if getattr(c, "unset_value", object()) == c.value else c.value)
            for n, c in controls.items()}


def _num(x):
    if x is None:
        return None
    try:
        return float(x) if not float(x).is_integer() or isinstance(x, float) else int(x)
    except (TypeError, ValueError):
        return None


def _error_text(e: BaseException) -> str:
    if isinstance(e, LakeJoinError):
        return str(e)
    return f"{type(e).__name__}: {e}"


class DiscoveryWidget(W.VBox):
    """See the module docstring."""

    def __init__(self, engine=None, *, session: Session | None = None, namespace: dict | None = None,
                 frame: str | None = None, columns=(), max_values: int | None = None,
                 auto_bind: bool = True, auto_insert: bool = True, search: bool = False):
        from ..charts import enable_offline_rendering
        enable_offline_rendering()
        self.session = session or SESSION
        if engine is not None:
            self.session.engine = engine
        self.namespace = namespace if namespace is not None else _user_namespace()
        self.max_values = max_values
        self._tasks: dict[str, BackgroundTask] = {}
        self._hits = []
        self._result = None
        self._query_name = None
        self._query_frame = None
        self.last_action_result = None
        self.last_action_code = self.last_action_variable = None
        self.bound = []                                   # variables the widget bound
        self.status_text = ""
        self.action_buttons: dict[str, W.Button] = {}
        self._action_controls: dict[str, dict] = {}
        self._method_controls: dict[str, W.Widget] = {}

        layout_full = W.Layout(width="100%")
        self.title = W.HTML()
        # -- index
        self.index_path = W.Text(placeholder="index folder", description="Index",
                                 layout=W.Layout(width="360px"))
        self.open_button = W.Button(description="Open", tooltip="open this index")
        self.lake_path = W.Text(placeholder="lake folder to index", description="Lake",
                                layout=W.Layout(width="320px"))
        self.build_button = W.Button(description="Build", tooltip="index the lake folder "
                                     "into the index folder with Spark")
        index_box = W.HBox([self.index_path, self.open_button, self.lake_path, self.build_button])
        # -- query
        self.frame_picker = W.Dropdown(description="DataFrame", layout=W.Layout(width="300px"))
        self.refresh_button = W.Button(icon="refresh", tooltip="rescan the notebook's DataFrames",
                                       layout=W.Layout(width="36px"))
        self.column_picker = W.SelectMultiple(description="Column(s)", rows=5,
                                              layout=W.Layout(width="300px"))
        self.method_picker = W.Dropdown(description="Method", layout=W.Layout(width="380px"))
        self.k_box = W.BoundedIntText(value=10, min=1, max=10_000, description="k",
                                      layout=W.Layout(width="140px"))
        self.use_threshold = W.Checkbox(value=False, description="min containment", indent=False,
                                        layout=W.Layout(width="130px"))
        self.threshold = W.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.05,
                                       readout_format=".2f", continuous_update=False,
                                       disabled=True, layout=W.Layout(width="200px"),
                                       style={"description_width": "0px"})
        self.method_params = W.VBox()
        self.search_button = W.Button(description="Search", button_style="primary", icon="search")
        self.cancel_button = W.Button(description="Cancel", icon="stop", disabled=True)
        self.progress = W.FloatProgress(value=0.0, min=0.0, max=1.0, layout=W.Layout(
            width="160px", visibility="hidden"))
        self.status = W.HTML()
        self.auto_bind = W.Checkbox(value=auto_bind, description="bind joined frames",
                                    indent=False, layout=W.Layout(width="160px"))
        self.auto_insert = W.Checkbox(value=auto_insert, description="insert code cells",
                                      indent=False, layout=W.Layout(width="150px"))
        query_box = W.HBox([
            W.VBox([W.HBox([self.frame_picker, self.refresh_button]), self.column_picker]),
            W.VBox([self.method_picker, W.HBox([self.k_box, self.use_threshold, self.threshold]),
                    self.method_params]),
        ])
        run_box = W.HBox([self.search_button, self.cancel_button, self.progress, self.status],
                         layout=W.Layout(align_items="center"))
        # -- results and detail
        self.results = ResultsTable(layout=layout_full)
        self.detail_html = W.HTML()
        self.chart_out = W.Output(layout=W.Layout(min_width="400px"))
        self.preview_out = W.Output(layout=W.Layout(overflow="auto", max_width="660px",
                                                    max_height="230px"))
        self.actions_box = W.HBox()
        self.action_params = W.HBox()
        self.action_out = W.Output(layout=W.Layout(width="100%", max_height="300px",
                                                   overflow="auto"))
        self.code_panel = CodePanel(layout=layout_full)
        self.variable = W.Text(description="variable", layout=W.Layout(width="320px"))
        self.bind_button = W.Button(description="Bind", tooltip="bind the joined DataFrame to "
                                    "this variable", disabled=True)
        self.bind_box = W.HBox([self.variable, self.bind_button], layout=W.Layout(display="none"))
        self.detail = W.VBox([self.detail_html, W.HBox([self.chart_out, self.preview_out]),
                              W.HBox([self.actions_box, self.action_params]), self.action_out,
                              self.code_panel, self.bind_box],
                             layout=W.Layout(display="none"))
        super().__init__([self.title, index_box, query_box, run_box,
                          W.HBox([self.auto_bind, self.auto_insert]), self.results, self.detail])
        self.add_class("lakejoin-widget")
        for w, cls in ((self.frame_picker, "lakejoin-frame"), (self.column_picker, "lakejoin-columns"),
                       (self.method_picker, "lakejoin-method"), (self.search_button, "lakejoin-search"),
                       (self.cancel_button, "lakejoin-cancel"), (self.status, "lakejoin-status"),
                       (self.detail, "lakejoin-detail"), (self.action_out, "lakejoin-action-out"),
                       (self.index_path, "lakejoin-index-path"), (self.refresh_button, "lakejoin-refresh")):
            w.add_class(cls)
        self.code_panel.root_id = self.model_id

        self.open_button.on_click(lambda _: self.open_index(self.index_path.value))
        self.build_button.on_click(lambda _: self.build_index(self.lake_path.value,
                                                              self.index_path.value))
        self.refresh_button.on_click(lambda _: self.refresh_frames())
        self.search_button.on_click(lambda _: self.search())
        self.cancel_button.on_click(lambda _: self.cancel())
        self.bind_button.on_click(lambda _: self.bind_joined(self.variable.value))
        self.frame_picker.observe(self._on_frame, "value")
        self.column_picker.observe(lambda _: self._refresh_methods(), "value")
        self.method_picker.observe(lambda _: self._refresh_method_params(), "value")
        self.use_threshold.observe(lambda _: self._sync_threshold(), "value")
        self.results.observe(self._on_select, "selected")
        self._shell = _shell()
        if self._shell is not None:
            self._shell.events.register("post_execute", self.refresh_frames)

        self._refresh_title()
        self.refresh_frames(select=frame)
        if columns:
            opts = [v for _, v in self.column_picker.options]
            missing = [c for c in columns if c not in opts]
            if missing:
                self._set_status(f"Column(s) {missing} not found in {frame!r}; its columns: "
                                 f"{[str(c) for c in opts][:20]}", "error")
            else:
                self.column_picker.value = tuple(columns)
        self._refresh_methods()
        if self.session.engine is None:
            self._set_status(_no_index_text(), "note")
        elif search and self.column_picker.value:
            self.search()

    # ------------------------------------------------------------------ helpers
    @property
    def engine(self):
        return self.session.engine

    def close(self):
        if self._shell is not None:
            try:
                self._shell.events.unregister("post_execute", self.refresh_frames)
            except ValueError:
                pass
        for t in self._tasks.values():
            t.cancel()
        super().close()

    def wait(self, timeout: float = 120) -> None:
        """Block until the background tasks finish (tests, scripts)."""
        end = time.time() + timeout
        while True:
            running = [t for t in list(self._tasks.values()) if t.running]
            if not running:
                return
            for t in running:
                t.wait(max(0.0, end - time.time()))
            if time.time() >= end:
                raise TimeoutError("lakejoin widget task still running")

    def _set_status(self, text: str, kind: str = "info") -> None:
        self.status_text = text
        cls = {"error": "lakejoin-status-error", "note": "lakejoin-status-note"}.get(kind, "")
        self.status.value = f"<span class='{cls}'>{html.escape(text)}</span>"

    def _busy(self, busy: bool, progress: float | None = None) -> None:
        self.search_button.disabled = busy
        self.open_button.disabled = busy
        self.build_button.disabled = busy
        self.cancel_button.disabled = not busy
        self.progress.layout.visibility = "visible" if busy else "hidden"
        self.progress.bar_style = "info"
        if progress is not None:
            self.progress.value = progress

    def _run(self, kind: str, fn, on_done, on_error=None) -> BackgroundTask:
        old = self._tasks.get(kind)
        if old is not None and old.running:
            old.cancel()
        task = BackgroundTask(fn, name=kind)

        def done(result, task=task):
            if self._tasks.get(kind) is task and not task.cancelled:
                on_done(result)

        def error(e, task=task):
            if self._tasks.get(kind) is task and not task.cancelled:
                (on_error or self._on_task_error)(e)

        task.on_done, task.on_error = done, error
        self._tasks[kind] = task
        return task.start()

    def _on_task_error(self, e: BaseException) -> None:
        self._busy(False)
        self._set_status(_error_text(e), "error")

    def _refresh_title(self) -> None:
        e = self.engine
        if e is None:
            self.title.value = "<span class='lakejoin-title'>lakejoin</span> &middot; no index open"
            return
        c = e.index.manifest.get("counts", {})
        self.title.value = (f"<span class='lakejoin-title'>lakejoin</span> &middot; "
                            f"<code>{html.escape(str(e.path))}</code> &middot; "
                            f"{c.get('indexed_tables', c.get('tables'))} tables, "
                            f"{c.get('columns'):,} columns, {c.get('tokens'):,} distinct values")
        if not self.index_path.value:
            self.index_path.value = str(e.path)

    # ------------------------------------------------------------------ query pickers
    def refresh_frames(self, select: str | None = None, *_):
        """Rescan the namespace for pandas/Spark DataFrames (after every cell, and on ↻);
        the chosen DataFrame and columns stay chosen while they exist."""
        names = dataframes_in(self.namespace)
        current = select if isinstance(select, str) else self.frame_picker.value
        self._frames_changing = True
        try:
            if tuple(names) != tuple(self.frame_picker.options):
                self.frame_picker.options = names
            if current in names:
                self.frame_picker.value = current
            elif names:
                self.frame_picker.value = names[0]
        finally:
            self._frames_changing = False
        self._on_frame()

    def _on_frame(self, change=None):
        if getattr(self, "_frames_changing", False):
            return
        name = self.frame_picker.value
        obj = self.namespace.get(name) if name else None
        cols = list(obj.columns) if is_dataframe(obj) else []
        keep = tuple(c for c in self.column_picker.value if c in cols)
        options = [(str(c), c) for c in cols]
        if options != list(self.column_picker.options):
            self.column_picker.options = options
        if tuple(self.column_picker.value) != keep:
            self.column_picker.value = keep

    def _available_methods(self):
        if self.engine is None:
            return []
        multi = len(self.column_picker.value) > 1
        return [m for m in self.engine.methods() if (m.multi_column if multi else m.single_column)]

    def _progressive_pair(self, threshold_given: bool):
        """(approximate, exact) methods for progressive results, or None."""
        ms = self._available_methods()
        exact = [m for m in ms if m.kind == "exact"]
        approx = [m for m in ms if m.kind != "exact" and (threshold_given or not m.needs_threshold)]
        if not exact or not approx:
            return None
        return max(approx, key=lambda m: m.priority), max(exact, key=lambda m: m.priority)

    def _refresh_methods(self):
        ms = self._available_methods()
        options = []
        if any(m.kind != "exact" for m in ms) and any(m.kind == "exact" for m in ms):
            options.append(("Auto: approximate first, then exact", PROGRESSIVE))
        options.append(("Auto: best exact method", "auto"))
        options += [(f"{m.label} ({m.kind})", m.name) for m in ms]
        current = self.method_picker.value
        self.method_picker.options = options
        values = [v for _, v in options]
        self.method_picker.value = current if current in values else values[0]
        self._refresh_method_params()

    def _selected_method(self):
        name = self.method_picker.value
        if name in (None, "auto", PROGRESSIVE) or self.engine is None:
            return None
        return next((m for m in self.engine.methods() if m.name == name), None)

    def _refresh_method_params(self):
        m = self._selected_method()
        self._method_controls = {p.name: control_for(p) for p in (m.params if m else ())}
        self.method_params.children = list(self._method_controls.values())
        self._sync_threshold()

    def _sync_threshold(self):
        m = self._selected_method()
        needs = bool(m and m.needs_threshold)
        if needs:
            self.use_threshold.value = True
        self.use_threshold.disabled = needs
        self.threshold.disabled = not self.use_threshold.value

    # ------------------------------------------------------------------ index
    def open_index(self, path: str):
        from ..engine import open_index
        path = (path or "").strip()
        if not path:
            self._set_status("Type the index folder to open.", "error")
            return None
        self._busy(True, 0.3)
        self._set_status(f"Opening {path}...")

        def work(task):
            return open_index(path)

        def done(engine):
            self.session.engine = engine
            self._busy(False)
            self._after_index_change(f"Opened {engine.path}.")

        return self._run("index", work, done)

    def build_index(self, lake: str, out: str, overwrite: bool = False):
        """Build an index with Spark in the background (progress bar, Cancel)."""
        from ..engine import build_index
        lake, out = (lake or "").strip(), (out or "").strip()
        if not lake or not out:
            self._set_status("Type the lake folder and the index folder to build.", "error")
            return None
        self._busy(True, 0.0)
        self._set_status(f"Building the index of {lake} with Spark...")

        def work(task):
            from ..spark import get_spark
            spark = get_spark()
            task.spark_job_group()

            def progress(phase, done, total):
                if done is None:
                    task.check()          # between phases: stop a cancelled build here
                    self._set_status(f"Building: {phase}...")
                elif total:
                    self.progress.value = min(1.0, done / total)
            return build_index(lake, out, progress=False, spark=spark, overwrite=overwrite,
                               progress_callback=progress)

        def done(engine):
            self.session.engine = engine
            self._busy(False)
            self._after_index_change(engine.build_report.summary())

        return self._run("index", work, done)

    def _after_index_change(self, message: str):
        self._refresh_title()
        self._refresh_methods()
        self._show_hits([], None)
        self._set_status(message)

    # ------------------------------------------------------------------ search
    def search(self):
        """Search with the current choices (in the background); returns the task."""
        try:
            engine = self.session.require_engine()
        except NoIndexOpenError as e:
            self._set_status(str(e), "error")
            return None
        name = self.frame_picker.value
        if not name or name not in self.namespace:
            self._set_status("Pick a DataFrame of the notebook (pandas or Spark); press ↻ "
                             "after creating one.", "error")
            return None
        frame = self.namespace[name]
        cols = list(self.column_picker.value)
        if not cols:
            self._set_status(f"Pick the column(s) of {name} to search with.", "error")
            return None
        k = int(self.k_box.value)
        threshold = float(self.threshold.value) if self.use_threshold.value else None
        options = control_values(self._method_controls)
        choice = self.method_picker.value
        if choice == PROGRESSIVE:
            pair = self._progressive_pair(threshold is not None)
            plan = ([(pair[0].name, f"approximate results ({pair[0].label}); exact search "
                                    f"running..."), (pair[1].name, "exact")] if pair
                    else [("auto", "")])
        else:
            plan = [(choice, "")]
        max_values = self.max_values
        self._busy(True, 0.0)
        self._set_status(f"Searching with {name}[{', '.join(map(str, cols))}]...")

        def work(task):
            kw = {"max_values": max_values} if max_values else {}
            with self._spark_progress(frame, task):
                query = engine.query(frame, cols if len(cols) > 1 else cols[0], **kw)
            task.check()
            result = None
            for i, (method, phase) in enumerate(plan):
                result = engine.search(query, k=k, threshold=threshold, method=method,
                                       **(options if method == choice else {}))
                task.check()
                last = i == len(plan) - 1
                if self._tasks.get("search") is task:
                    self._show_hits(result.hits, result, phase=phase if not last else
                                    ("exact results" if len(plan) > 1 else ""))
                    self.progress.value = (i + 1) / len(plan)
            return result

        def done(result):
            self._busy(False)
            self._query_name, self._query_frame = name, frame
            result.query_name = name
            text = (f"{len(result)} hit(s) for {name}[{', '.join(map(str, cols))}] "
                    f"(|Q| = {result.query.size:,} distinct values; {result.how}).")
            if result.notes:
                self._set_status(text + " Note: " + "; ".join(result.notes), "note")
            else:
                self._set_status(text if len(result) else text + " No lake column shares a "
                                 "value with the query.")

        return self._run("search", work, done)

    def _spark_progress(self, frame, task):
        if not is_spark_frame(frame):
            return contextlib.nullcontext()
        from ..spark import SparkProgress

        def cb(phase, done, total):
            if total:
                self.progress.value = 0.9 * done / total
        return SparkProgress(frame.sparkSession, enabled=False, callback=cb)

    def cancel(self):
        """Cancel the running search/build/action: the widget is usable at once."""
        cancelled = [k for k, t in self._tasks.items() if t.running]
        for k in cancelled:
            self._tasks[k].cancel()
        self._busy(False)
        what = ", ".join(cancelled) or "nothing was running"
        self.results.phase = ("approximate results (exact search cancelled)"
                              if self.results.phase.startswith("approximate") else self.results.phase)
        self._set_status(f"Cancelled ({what}); the results shown are those of the last "
                         f"finished step.", "note")

    def _show_hits(self, hits, result, phase: str = ""):
        previous = None
        if 0 <= self.results.selected < len(self._hits):
            previous = self._hits[self.results.selected].column_ids
        self._hits = list(hits)
        self._result = result
        multi = bool(hits) and len(hits[0].query_columns) > 1
        columns = [{"key": "rank", "label": "#", "kind": "int"},
                   {"key": "table", "label": "table", "kind": "text"},
                   ({"key": "mapping", "label": "query → lake columns", "kind": "text"} if multi
                    else {"key": "column", "label": "column", "kind": "text"}),
                   {"key": "overlap", "label": "overlap", "kind": "int"},
                   {"key": "containment", "label": "containment", "kind": "bar"},
                   *([{"key": "score", "label": "score", "kind": "text"}] if any(
                       h.overlap is None or float(h.score) != float(h.overlap) for h in hits)
                     else []),
                   *([{"key": "program", "label": "transformation", "kind": "text"}]
                     if any("program" in h.details for h in hits) else []),
                   {"key": "method", "label": "method", "kind": "text"},
                   {"key": "exact", "label": "figures", "kind": "flag"}]
        rows = []
        for h in hits:
            c = h.containment if h.containment is not None else h.estimated_containment
            rows.append({"rank": int(h.rank), "table": h.table, "column": ", ".join(h.columns),
                         "mapping": ", ".join(f"{a} → {b}" for a, b in h.mapping.items()),
                         "overlap": None if h.overlap is None else int(h.overlap),
                         "containment": _num(c), "score": f"{float(h.score):.4g}",
                         "program": h.details.get("program", ""),
                         "method": h.method, "exact": bool(h.exact)})
        with self.results.hold_sync():            # one update for the browser
            self.results.phase = phase            # phase first: observers of rows see it
            self.results.empty_text = ("No lake column shares a value with the query."
                                       if result is not None else
                                       "Pick a DataFrame and column(s), then press Search.")
            self.results.columns = columns
            self.results.rows = rows
        keep = next((i for i, h in enumerate(self._hits) if h.column_ids == previous), -1)
        if keep != self.results.selected:
            self.results.selected = keep
        elif keep >= 0:
            self._on_select()
        if keep < 0:
            self.detail.layout.display = "none"

    # ------------------------------------------------------------------ detail pane
    def selected_hit(self):
        i = self.results.selected
        return self._hits[i] if 0 <= i < len(self._hits) else None

    def _on_select(self, change=None):
        hit = self.selected_hit()
        if hit is None:
            self.detail.layout.display = "none"
            return
        self.detail.layout.display = ""
        c = hit.containment if hit.containment is not None else hit.estimated_containment
        self.detail_html.value = (
            f"<b>#{hit.rank} {html.escape(hit.table)}</b> &middot; "
            f"{html.escape(', '.join(f'{a} → {b}' for a, b in hit.mapping.items()))} &middot; "
            f"containment {0 if c is None else c:.1%}{'' if hit.exact else ' (estimated)'}"
            + _program_html(hit)
            + "<div class='lakejoin-values'>loading matched values...</div>")
        self._draw_actions(hit)
        self.action_out.outputs = ()
        self.code_panel.code = ""
        self.bind_box.layout.display = "none"
        frame = self._query_frame

        def work(task):
            from ..charts import coverage_chart
            matched, unmatched = hit.matches, hit.unmatched
            task.check()
            chart = coverage_chart(hit, frame if isinstance(frame, pd.DataFrame) else None,
                                   width=300)
            preview = self.engine.table(hit.table, max_rows=8)
            return matched, unmatched, chart, preview

        def done(out):
            matched, unmatched, chart, preview = out
            if self.selected_hit() is not hit:
                return
            self.detail_html.value = self.detail_html.value.split("<div class='lakejoin-values'>")[0] + (
                f"<div class='lakejoin-values'><b>matched ({len(matched):,}):</b> "
                f"{html.escape(_sample(matched))}<br><b>not matched ({len(unmatched):,}):</b> "
                f"{html.escape(_sample(unmatched))}</div>")
            _show(self.chart_out, chart)
            from IPython.display import HTML
            from .render import frame_html
            _show(self.preview_out, HTML(frame_html(preview, f"{hit.table} (first rows)", 8)))

        def error(e):
            self.detail_html.value += (f"<div class='lakejoin-status-error'>"
                                       f"{html.escape(_error_text(e))}</div>")

        self._run("detail", work, done, error)

    def _draw_actions(self, hit):
        from ..actions import actions_for
        self.action_buttons, self._action_controls, controls = {}, {}, []
        for a in actions_for(hit):
            b = W.Button(description=a.label, tooltip=f"{a.label} ({a.name})")
            b.add_class(f"lakejoin-action-{a.name}")
            b.on_click(lambda _, a=a: self.run_action(a.name))
            self.action_buttons[a.name] = b
            self._action_controls[a.name] = {p.name: control_for(p) for p in a.params}
            controls += list(self._action_controls[a.name].values())
        self.actions_box.children = list(self.action_buttons.values())
        self.action_params.children = controls

    # ------------------------------------------------------------------ actions
    def run_action(self, name: str, **params):
        """Run a hit action on the selected hit (in the background); returns the task."""
        from .. import actions
        hit = self.selected_hit()
        action = next((a for a in actions.ACTIONS if a.name == name), None)
        if hit is None or action is None:
            self._set_status("Select a hit first." if hit is None else f"No action {name!r}.",
                             "error")
            return None
        frame, qname = self._query_frame, self._query_name or "df"
        if frame is None:
            self._set_status("Search again: the query DataFrame of these results is gone.",
                             "error")
            return None
        values = {n: c.value for n, c in self._action_controls.get(name, {}).items()}
        values.update(params)
        variable = self._action_variable(qname, hit, action)
        self._busy(True, 0.2)
        self._set_status(f"{action.label}: {hit.table}...")

        def work(task):
            with self._spark_progress(frame, task):
                result = action(self.engine, hit, frame, **values)
                code = result.code(qname, variable)
            return result, code

        def done(out):
            self._busy(False)
            self.show_action_result(out[0], variable=variable, code=out[1])

        return self._run("action", work, done)

    def _action_variable(self, qname: str, hit, action) -> str:
        """The action's stable variable, ``<query>_<table>[_<action>]``: the widget rebinds
        its own variable on a re-run, never one the user made (then ``_2``, ``_3``...)."""
        from ..join.plan import default_variable
        wanted = default_variable(qname, hit.table, action.suffix)
        if wanted in self.bound or wanted not in self.namespace:
            return wanted
        return unique_name({k: v for k, v in self.namespace.items() if k not in self.bound},
                           wanted)

    def show_action_result(self, result, variable: str = "joined", code: str | None = None):
        """Render an ActionResult; bind its joined frame and insert its code if asked."""
        from IPython.display import HTML

        from .render import frame_html, summary_html
        self.last_action_result = result
        objs = [HTML(f"<b>{html.escape(result.title)}</b>" + summary_html(result.summary))]
        for caption, df in (result.tables or {}).items():
            if isinstance(df, pd.DataFrame):
                objs.append(HTML(frame_html(df, caption)))
            else:                                 # anything else an action returns: as text
                objs.append(HTML(f"<b>{html.escape(str(caption))}</b><pre>"
                                 f"{html.escape(str(df))}</pre>"))
        if result.chart is not None:
            objs.append(result.chart)
        _show(self.action_out, *objs)
        self.last_action_code, self.last_action_variable = code, variable
        self.code_panel.code = code or ""
        self.code_panel.status = ""
        joined = result.joined
        self.bind_box.layout.display = "" if joined is not None else "none"
        self.bind_button.disabled = joined is None
        message = result.title + ("" if result.ok else ": nothing usable found")
        if joined is not None:
            self.variable.value = variable
            if self.auto_bind.value:
                name = self.bind_joined(self.variable.value, quiet=True)
                message = f"{result.title}: bound to {name} ({_shape_text(joined)})."
        if code and self.auto_insert.value:
            self.code_panel.request_insert()
        self._set_status(message, "info" if result.ok else "note")

    def bind_joined(self, name: str, quiet: bool = False) -> str | None:
        result = self.last_action_result
        if result is None or result.joined is None:
            self._set_status("Nothing to bind: run Join first.", "error")
            return None
        name = (name or "").strip()
        if not name.isidentifier() or keyword.iskeyword(name):
            self._set_status(f"{name!r} is not a valid Python variable name.", "error")
            return None
        self.namespace[name] = result.joined
        if name not in self.bound:
            self.bound.append(name)
        code = self.last_action_code or ""
        if name != self.last_action_variable and code:
            self.code_panel.code = code + f"{name} = {self.last_action_variable}\n"
        self.refresh_frames()
        if not quiet:
            self._set_status(f"Bound {name} ({_shape_text(result.joined)}).")
        return name


# ---------------------------------------------------------------------- small helpers

def _no_index_text() -> str:
    from .session import NO_INDEX
    return NO_INDEX + " Or type an index folder above and press Open."


def _program_html(hit) -> str:
    """The transformation a "Needs a transformation" hit joins through, if any."""
    d = hit.details
    if "program" not in d:
        return ""
    return (f"<div class='lakejoin-program'><b>transformation</b> "
            f"({html.escape(str(d.get('direction', '')))}): "
            f"<code>{html.escape(str(d['program']))}</code> joins "
            f"{float(d.get('coverage', 0)):.1%} of the query rows"
            + (f"; lake pattern <code>{html.escape(str(d['lake_pattern']))}</code>"
               if d.get("lake_pattern") else "") + "</div>")


def _sample(values, n: int = 25) -> str:
    shown = ", ".join(str(v) for v in values[:n])
    return shown + (f", ... ({len(values) - n:,} more)" if len(values) > n else "") if values else "none"


def _shape_text(df) -> str:
    if is_dataframe(df) and hasattr(df, "shape"):
        return f"{df.shape[0]:,} rows x {df.shape[1]} columns"
    return f"Spark DataFrame, {len(df.columns)} columns"


def _show(out: W.Output, *objs) -> None:
    """Replace an Output's content through its synced ``outputs`` trait: safe from
    background threads (``with out:`` and ``clear_output`` route through the kernel's
    current parent message, which a worker thread does not have)."""
    out.outputs = ()
    for o in objs:
        out.append_display_data(o)


def _shell():
    try:
        from IPython import get_ipython
        return get_ipython()
    except Exception:  # noqa: BLE001
        return None


def _user_namespace() -> dict:
    shell = _shell()
    return shell.user_ns if shell is not None else {}
