"""The discovery widget: pick a DataFrame and column(s), search the lake, open a hit, act.

    from lakejoin_jupyter.ui import DiscoveryWidget
    DiscoveryWidget(engine)            # or: %lakejoin ui [VAR[.COLUMN]]

The composition of ipywidgets controls, the two anywidget views (views.py: the ranked
results table and the code panel) and the actions panel (actions_panel.py: one tab per
action). Everything it offers comes from the engine's lists (``engine.methods()``, each
method's ``ParamSpec`` options) and ``actions.ACTIONS``, so new methods and actions appear
without changes here.

Nothing is hidden from the notebook: a search binds ``<query>_hits`` and writes the
equivalent ``%lakejoin search ... --save <query>_hits`` into one cell per query; an action
binds its frame to a stable ``<query>_<table>[_<suffix>]`` and writes its code into one
cell per action and variable, updated in place on a re-run, also by a widget "Run all"
re-created (session.py: what lakejoin bound is its own; a name the user bound never is).
The search a widget makes by itself when created writes its cell only if the notebook has
none: an existing search cell is kept as it is, and the widget takes its method and options;
a search the user saved as ``<query>_hits`` (``_unions``) is shown, never rebound.
Options left on their default are left out of the search line. The code of an action
cell runs on its own in a fresh kernel.

Two modes: "Join" finds lake columns to join with (more columns; ``actions.ACTIONS``),
"Union" finds lake tables whose rows stack under the frame (``engine.search_unionable``,
more rows; its hits show their column alignment and offer ``actions.UNION_ACTIONS``).

Searches, actions, opening and building indexes run in background threads (tasks.py) with
a progress bar and a Cancel button; the kernel's main thread stays free. Progressive
results: with an approximate and an exact method, "Auto" shows the approximate rows first
and replaces them with the exact ones.
"""
from __future__ import annotations

import contextlib
import html
import shlex
import time

import ipywidgets as W
import pandas as pd

from ..errors import LakeJoinError, QueryError
from ..formats import percent, rows as rows_text
from ..frames import check_identifier, is_spark_frame
from ..engine import per_key_tab
from .actions_panel import ActionsPanel, show
from .query_panel import PROGRESSIVE, QueryPanel, read_search_line, search_magic, union_magic
from .session import (SESSION, NoIndexOpenError, Searched, Session, frame_mark, frame_marks,
                      is_dataframe, join_identity, mark_cell, unique_name)
from .tasks import BackgroundTask
from .views import CodePanel, ResultsTable, route_replies_to_live_subshells

__all__ = ["DiscoveryWidget", "PROGRESSIVE", "search_magic", "union_magic"]

SEARCHING = "Searching..."          # the results area while a first search runs
RANK = "useful"      # the widget's ranking (the magic's default too: its search line omits it)


def multiply_note(result) -> str:
    """' N of these joins would multiply the query's rows (...)', or ''."""
    many = result.multiplying()
    if not many:
        return ""
    worst = max(many, key=lambda h: h.join_rows)
    return (f" {len(many)} of these joins would multiply the query's "
            f"{rows_text(result.query.n_rows)} (#{worst.rank} {worst.table}: {worst.join_rows:,}"
            f"{'' if worst.join_rows_exact else ' est.'}); {per_key_tab(worst)} with Per key "
            f"keeps one row each.")


def _route_to_live_subshells(widget) -> None:
    """``views.route_replies_to_live_subshells`` for a widget and every widget it holds
    (the background search updates the buttons as well as the results)."""
    route_replies_to_live_subshells(widget)
    for child in getattr(widget, "children", ()) or ():
        if isinstance(child, W.Widget):
            _route_to_live_subshells(child)


class DiscoveryWidget(W.VBox):
    """See the module docstring."""

    def __init__(self, engine=None, *, session: Session | None = None, namespace: dict | None = None,
                 frame: str | None = None, columns=(), max_values: int | None = None,
                 auto_bind: bool = True, auto_insert: bool = True, search: bool = False,
                 mode: str = "join"):
        from .. import actions
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
        self._query_searched = None       # session.Searched: the frame searched, as searched
        self._opened_here = None          # index path the widget itself opened or built
        self._lake_field_of = None        # the engine whose lake the Lake field was set to
        self.last_action_result = None
        self.bound = []                   # variables the widget bound (its own, to rebind)
        self._own_values = {}             # cell key -> what this widget bound for it
        self._born = self.session.serial  # notes made after this: cells run below it
        self._searched = None             # (frame, columns, variable, line) of the last search
        self._frames_at_cell = frame_marks(self.namespace)   # the frames as its cell saw them
        self.status_text = ""

        if mode not in ("join", "union"):
            raise LakeJoinError(f"mode is 'join' or 'union', not {mode!r}.")
        self.title = W.HTML()
        index_row = self._index_row()
        self.mode = W.ToggleButtons(
            options=[("Join", "join"), ("Union", "union")], value=mode,
            tooltips=["lake columns to join with (more columns)",
                      "lake tables whose rows stack under the DataFrame (more rows)"],
            style={"button_width": "90px"})
        self.query = QueryPanel(self.namespace, lambda: self.session.engine)
        q = self.query                      # its pickers, by name (tests, scripts)
        self.frame_picker, self.column_picker, self.method_picker = \
            q.frame_picker, q.column_picker, q.method_picker
        self.k_box, self.use_threshold, self.threshold = q.k_box, q.use_threshold, q.threshold
        self.auto_bind = W.Checkbox(value=auto_bind, description="bind results to variables",
                                    indent=False, layout=W.Layout(width="auto"))
        self.auto_insert = W.Checkbox(value=auto_insert, description="write code cells",
                                      indent=False, layout=W.Layout(width="auto"))
        run_row = self._run_row()
        # the search's equivalent magic, and where it goes in the notebook
        self.search_code = CodePanel(compact=True, layout=W.Layout(width="100%"))
        self.search_code.add_class("lakejoin-search-code")
        self.search_code.on_kept = self._on_search_cell_kept
        self.results = ResultsTable(layout=W.Layout(width="100%"))
        self._idle_text = self.results.empty_text       # (while a search shows SEARCHING)
        self.join_actions = ActionsPanel(actions.ACTIONS, self.run_action)
        self.union_actions = ActionsPanel(actions.UNION_ACTIONS, self.run_action)
        self.actions = self.union_actions if mode == "union" else self.join_actions
        self.detail = self._detail_box()
        super().__init__([self.title, index_row, self.mode, self.query, run_row,
                          W.HBox([self.auto_bind, self.auto_insert],
                                 layout=W.Layout(justify_content="flex-start")),
                          self.search_code, self.results, self.detail])
        self.add_class("lakejoin-widget")
        for panel in [self.search_code] + [t.code_panel for a in (self.join_actions,
                                                                  self.union_actions)
                                           for t in a.tabs.values()]:
            panel.root_id = self.model_id
        self._wire()

        self._refresh_title()
        self.refresh_frames(select=frame)
        if columns:
            opts = self.query.column_options()
            missing = [c for c in columns if c not in opts]
            if missing:
                self._set_status(f"Column(s) {missing} not found in {frame!r}; its columns: "
                                 f"{[str(c) for c in opts][:20]}", "error")
            else:
                self.column_picker.value = tuple(columns)
        self.query.refresh_methods()
        self.query.set_mode(mode)
        if self.session.engine is None:
            self._set_status(_no_index_text(), "note")
        elif mode == "union" and not self.engine.index.has("union"):
            self._set_status(union_rebuild_text(self.engine), "note")
        elif search and (self.column_picker.value or (mode == "union" and frame)):
            self.search(automatic=True)

    # ------------------------------------------------------------------ layout
    def _index_row(self):
        self.index_path = W.Text(placeholder="index folder", description="Index",
                                 layout=W.Layout(width="360px"))
        self.open_button = W.Button(description="Open", tooltip="open this index",
                                    layout=W.Layout(width="auto"))
        self.lake_path = W.Text(placeholder="lake folder to index", description="Lake",
                                layout=W.Layout(width="320px"))
        self.build_button = W.Button(description="Build", tooltip=BUILD_TIP,
                                     layout=W.Layout(width="auto", flex="0 0 auto"))
        self.index_path.observe(lambda _: self._sync_build_button(), "value")
        return W.HBox([self.index_path, self.open_button, self.lake_path, self.build_button],
                      layout=W.Layout(flex_flow="row wrap"))

    def _sync_build_button(self) -> None:
        """The build button reads "Rebuild" when the Index field names a folder that holds
        an index: pressing it replaces that index with one of the lake it records (the Lake
        field, which Open fills with that lake), reopened after. It is neutral
        on an index in order, a warning when a rebuild is advised: the lake changed since the
        build, the index advises it (``engine.advice()``) or it cannot be read."""
        rebuild = holds_index(self.index_path.value)
        why = self._rebuild_reason(self.index_path.value) if rebuild else ""
        self.build_button.description = "Rebuild" if rebuild else "Build"
        self.build_button.button_style = "warning" if why else ""
        self.build_button.tooltip = ((REBUILD_TIP + (f"; advised: {why}" if why else ""))
                                     if rebuild else BUILD_TIP)

    def _rebuild_reason(self, path) -> str:
        """Why the index at ``path`` should be rebuilt ("" when it is in order): the open
        index, its lake's changes and advice (worked out once per open index); another, a
        manifest that cannot be read."""
        from ..index.store import read_manifest, resolve_destination
        engine = self.session.engine
        try:
            here = resolve_destination(path)
            if engine is not None and here == resolve_destination(engine.path):
                cached = getattr(self, "_rebuild_why", None)
                if cached is None or cached[0] is not engine:
                    changes = engine.index.lake_changes
                    why = (f"the lake changed since the build ({len(changes)} change(s))"
                           if changes else "; ".join(engine.advice()))
                    self._rebuild_why = cached = (engine, why)
                return cached[1]
            read_manifest(here)
        except Exception as e:  # noqa: BLE001 - an index that cannot be read: rebuild it
            return f"it cannot be read ({_error_text(e)})"
        return ""

    def _run_row(self):
        # the buttons keep their size; the status (one line, however long) wraps beside them
        self.search_button = W.Button(description="Search", button_style="primary", icon="search",
                                      layout=W.Layout(flex="0 0 auto"))
        self.cancel_button = W.Button(description="Cancel", icon="stop", disabled=True,
                                      layout=W.Layout(flex="0 0 auto"))
        self.progress = W.FloatProgress(value=0.0, min=0.0, max=1.0, layout=W.Layout(
            width="160px", flex="0 0 auto", display="none"))    # shown while a task runs
        # (a narrow notebook: the status goes under the buttons, never a one-word column)
        self.status = W.HTML(layout=W.Layout(flex="1 1 240px", min_width="0"))
        return W.HBox([self.search_button, self.cancel_button, self.progress, self.status],
                      layout=W.Layout(align_items="center", flex_flow="row wrap"))

    def _detail_box(self):
        self.detail_html = W.HTML()
        # the chart keeps its own width (an alignment chart with long labels is wider than
        # 400 px) and the first rows take what is left beside it, scrolling; with less than
        # 280 px left (a narrow notebook) they go below it, and a chart wider than the
        # widget scrolls sideways. The rows scroll both ways in one box of their own
        # (.lakejoin-preview-rows): with the height limited outside the output area, which
        # scrolls a wide table sideways, that scroll bar was under the rows, out of view, and
        # a wide table looked cut at the widget's edge
        self.chart_out = W.Output(layout=W.Layout(min_width="min(400px, 100%)",
                                                  max_width="100%", overflow="auto",
                                                  flex="0 0 auto"))
        self.preview_out = W.Output(layout=W.Layout(max_width="660px", flex="1 1 280px",
                                                    min_width="0", margin="0 0 0 12px"))
        self._detail_row = W.HBox([self.chart_out, self.preview_out],
                                  layout=W.Layout(flex_flow="row wrap"))
        return W.VBox([self.detail_html, self._detail_row, self.actions],
                      layout=W.Layout(display="none"))

    def _wire(self):
        for w, cls in ((self.search_button, "lakejoin-search"), (self.cancel_button, "lakejoin-cancel"),
                       (self.status, "lakejoin-status"), (self.detail, "lakejoin-detail"),
                       (self.progress, "lakejoin-progress"), (self.index_path, "lakejoin-index-path"),
                       (self.lake_path, "lakejoin-lake-path"), (self.build_button, "lakejoin-build"),
                       (self.mode, "lakejoin-mode"), (self.chart_out, "lakejoin-chart"),
                       (self.preview_out, "lakejoin-preview")):
            w.add_class(cls)
        self.open_button.on_click(lambda _: self.open_index(self.index_path.value))
        self.build_button.on_click(lambda _: self.build_index(
            self.lake_path.value, self.index_path.value,
            rebuild=self.build_button.description == "Rebuild"))
        self.search_button.on_click(lambda _: self.search())
        self.cancel_button.on_click(lambda _: self.cancel())
        self.results.observe(self._on_select, "selected")
        self.mode.observe(self._on_mode, "value")
        _route_to_live_subshells(self)
        self._shell = _shell()
        if self._shell is not None:
            self._shell.events.register("post_execute", self.refresh_frames)
            self.session.watch(self._shell)

    # ------------------------------------------------------------------ helpers
    @property
    def engine(self):
        return self.session.engine

    @property
    def action_buttons(self) -> dict:
        """The Run button of each action shown for the selected hit."""
        return {n: t.run_button for n, t in self.actions.shown.items()}

    def close(self):
        if getattr(self, "_shell", None) is not None:
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
        self.mode.disabled = busy
        self.join_actions.set_busy(busy)
        self.union_actions.set_busy(busy)
        self.progress.layout.display = "" if busy else "none"
        self.progress.bar_style = "info"
        if progress is not None:
            self.progress.value = progress
        if not busy:
            self._sync_build_button()
            if self.results.empty_text == SEARCHING:     # failed or cancelled: as before
                self.results.empty_text = self._idle_text

    def _searching(self) -> None:
        """A search starts: an empty results area says so, not "Pick a DataFrame ..."."""
        if not self.results.rows and self.results.empty_text != SEARCHING:
            self._idle_text = self.results.empty_text
            self.results.empty_text = SEARCHING

    def _failed(self, text: str) -> None:
        """A task failed or was interrupted: one line, in red; the bar goes."""
        self._busy(False)
        self._set_status(text, "error")

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

    def _own_variable(self, wanted: str, kind: str) -> str:
        """``wanted`` if it is free or lakejoin's own for the cell ``kind:wanted`` (bound by
        this widget, an earlier one, or its cell re-run by "Run all": rebound, its cell
        updated), else ``wanted_2``, ``_3``...: a name the user bound, a search the user
        saved among them, is never rebound."""
        ns, session = self.namespace, self.session

        def mine(n):       # not a search the user saved (``%lakejoin search --save``)
            key = f"{kind}:{n}"
            return session.owns(key, ns.get(n)) and self._widgets(key, ns.get(n))
        return unique_name(ns, wanted, mine=mine)

    def _widgets(self, key: str, value) -> bool:
        """Is ``value`` lakejoin's for the cell ``key``: what a widget bound (or its cell
        did: :meth:`Session.widgets`), or what a cell the frontend did not name bound since
        this widget was made, for a name no widget had bound ("Run all" ran its cell)?"""
        s = self.session
        return s.widgets(key, value) or (
            s.owns(key, value) and s.noted_since(key, self._born)
            and key in s.unknown_cell and key not in s.by_widget)

    def _bind(self, name: str, value, kind: str, of: str | None = None) -> None:
        self.namespace[name] = value
        self.session.note(f"{kind}:{name}", value, of, widget=True)
        self._own_values[f"{kind}:{name}"] = value
        if name not in self.bound:
            self.bound.append(name)

    def _refresh_title(self) -> None:
        e = self.engine
        if e is None:
            self.title.value = "<span class='lakejoin-title'>lakejoin</span> &middot; no index open"
            return
        self.title.value = (f"<span class='lakejoin-title'>lakejoin</span> &middot; "
                            f"<code>{html.escape(str(e.path))}</code> &middot; "
                            f"{html.escape(e.index.size_label)}")
        if not self.index_path.value:
            self.index_path.value = str(e.path)
        if self._lake_field_of is not e:      # another index: its lake, the one Rebuild
            self._lake_field_of = e           # reads again (a list of files: empty)
            self.lake_path.value = e.lake_root or ""

    def refresh_frames(self, select: str | None = None, *_):
        """Rescan the notebook's DataFrames (after every cell; query_panel.py)."""
        self.query.refresh_frames(select)

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
            self._opened_here = path
            self._busy(False)
            self._after_index_change(f"Opened {engine.path}.")

        return self._run("index", work, done)

    def build_index(self, lake: str, out: str, rebuild: bool = False):
        """Build an index with Spark in the background (progress bar, Cancel), then open it.
        A folder that holds an index (the open one, say) is replaced only with ``rebuild``
        (the "Rebuild" button), and only by the index of the lake it records (the engine's
        ``rebuild=True``: another lake's is refused at once, before Spark); the rebuild keeps
        the optional components of the index it replaces. A failure or a cancel is one line
        and no index is written."""
        from pathlib import Path
        from ..engine import build_index, check_rebuild
        from ..errors import IndexOfAnotherLakeError
        from ..lake.discover import lake_path_problem
        lake, out = (lake or "").strip(), (out or "").strip()
        if not lake or not out:
            self._set_status("Type the lake folder and the index folder to build.", "error")
            return None
        problem = lake_path_problem(lake)       # before Spark starts or the bar shows
        if problem is not None:
            self._set_status(problem, "error")
            return None
        dest = Path(out).expanduser().absolute()          # the one path every message names
        replacing = holds_index(out)
        self._sync_build_button()
        try:
            if replacing:
                check_rebuild(lake, out)
        except IndexOfAnotherLakeError as e:
            self._set_status(
                f"Not rebuilding {dest}{self._open_note(dest)}: it is the index of the lake "
                f"{e.recorded}, not of {e.given}. Type another index folder to build the index "
                f"of {e.given}, or the lake {e.recorded} to rebuild this one (to replace it on "
                f"purpose: %lakejoin index LAKE --out INDEX --overwrite).", "error")
            return None
        if replacing and not rebuild:
            self._set_status(f"An index already exists at {dest}{self._open_note(dest)}. Press "
                             f"Rebuild to replace it with the index of {lake}, or type another "
                             f"index folder.", "error")
            return None
        # Union mode needs the (opt-in) union component: a build from Union mode adds it;
        # a rebuild keeps those of the index it replaces
        components = ["union"] if self.mode.value == "union" else []
        kept = self._rebuild_settings(dest) if replacing else {}
        components += [c for c in kept.pop("components", ()) if c not in components]
        self._busy(True, 0.0)
        with_ = f" (with {', '.join(components)})" if components else ""
        self._set_status(f"Rebuilding the index at {dest} from {lake} with Spark{with_}..."
                         if replacing else
                         f"Building the index of {lake} with Spark{with_}...")

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
            return build_index(lake, out, progress=False, spark=spark, rebuild=replacing,
                               progress_callback=progress, components=tuple(components),
                               **kept)

        def done(engine):
            self.session.engine = engine
            self._opened_here = out
            self._busy(False)
            summary = engine.build_report.summary()
            self._after_index_change(f"Rebuilt {dest} and reopened it. {summary}" if replacing
                                     else summary)

        def error(e):
            self._failed(f"The build of {lake} failed: {_error_text(e)} "
                         + (f"The index at {dest} is unchanged." if replacing else
                            f"Nothing was written to {dest}."))

        return self._run("index", work, done, error)

    def _open_note(self, dest) -> str:
        """' (the index open here)' when ``dest`` is the open index's folder."""
        import os
        e = self.engine
        try:
            same = e is not None and os.path.samefile(e.path, dest)
        except OSError:
            same = False
        return " (the index open here)" if same else ""

    def _rebuild_settings(self, dest) -> dict:
        """The build settings the index at ``dest`` records (indexing/pipeline.py
        ``recorded_settings``: its opt-in components, MinHash size and seed, MATE's XASH
        size and every component's options, the PEXESO embedder among them), as
        ``build_index`` keywords: a rebuild keeps them (the same searches, the same
        distances)."""
        from ..index.store import read_manifest
        from ..indexing.pipeline import recorded_settings
        try:
            s = recorded_settings(read_manifest(dest))
        except Exception:  # noqa: BLE001 - an unreadable index: rebuild with the defaults
            return {}
        return {"components": list(s.components), "num_perm": s.num_perm,
                "minhash_seed": s.minhash_seed, "mate_bits": s.mate_bits,
                "component_options": s.component_options}

    def _after_index_change(self, message: str):
        self._refresh_title()
        self.query.refresh_methods()
        self._show_hits([], None)
        if self.mode.value == "union" and not self.engine.index.has("union"):
            self._set_status(message + " " + union_rebuild_text(self.engine), "note")
        else:
            self._set_status(message)

    # ------------------------------------------------------------------ mode
    def _on_mode(self, change=None):
        """Join <-> Union: the query panel, the actions and the results follow the mode;
        results of the other mode are cleared (a running search is cancelled)."""
        union = self.mode.value == "union"
        task = self._tasks.get("search")
        if task is not None and task.running:
            task.cancel()
            self._busy(False)
        self.query.set_mode(self.mode.value)
        self.actions = self.union_actions if union else self.join_actions
        self.detail.children = [self.detail_html, self._detail_row, self.actions]
        self.search_code.code = ""
        self._hits, self._result = [], None          # hits of the other mode's kind
        self._show_hits([], None)
        if self.engine is None:
            self._set_status(_no_index_text(), "note")
        elif union and not self.engine.index.has("union"):
            self._set_status(union_rebuild_text(self.engine), "note")
        else:
            self._set_status("Union: pick a DataFrame (and optionally its columns), then "
                             "press Search." if union else
                             "Join: pick a DataFrame and column(s), then press Search.")

    # ------------------------------------------------------------------ search
    def _open_engine(self):
        """The open index's engine; None (the status says so) when no index is open."""
        try:
            return self.session.require_engine()
        except NoIndexOpenError as e:
            self._set_status(str(e), "error")
            return None

    def _picked_frame(self):
        """(name, DataFrame, picked columns) of the DataFrame picked; None (the status says
        so) when no DataFrame of the notebook is picked."""
        name = self.frame_picker.value
        if not name or name not in self.namespace:
            self._set_status("Pick a DataFrame of the notebook (pandas or Spark); press ↻ "
                             "after creating one.", "error")
            return None
        return name, self.namespace[name], list(self.column_picker.value)

    def search(self, automatic: bool = False):
        """Search with the current choices (in the background); returns the task. In Union
        mode: :meth:`search_union`. ``automatic``: a search the widget starts by itself,
        which writes its search cell only if the notebook has none."""
        if self.mode.value == "union":
            return self.search_union(automatic)
        engine = self._open_engine()
        picked = self._picked_frame() if engine is not None else None
        if not picked:
            return None
        name, frame, cols = picked
        if not cols:
            self._set_status(f"Pick the column(s) of {name} to search with.", "error")
            return None
        if automatic and self._show_users_search(name, frame, cols):
            return None
        c = self.query.choices()
        k, threshold, choice, options = c["k"], c["threshold"], c["method"], c["options"]
        if choice == PROGRESSIVE:
            pair = self.query.progressive_pair(threshold is not None)
            plan = ([(pair[0].name, f"approximate results ({pair[0].label}); exact search "
                                    f"running..."), (pair[1].name, "exact")] if pair
                    else [("auto", "")])
        else:
            plan = [(choice, "")]
        max_values = self.max_values
        self._busy(True, 0.0)
        self._searching()
        self._set_status(f"Searching with {name}[{', '.join(map(str, cols))}]...")

        def work(task):
            kw = {"max_values": max_values} if max_values else {}
            with self._spark_progress(frame, task):
                query = engine.query(frame, cols if len(cols) > 1 else cols[0], **kw)
            task.check()
            result = None
            for i, (method, phase) in enumerate(plan):
                result = engine.search(query, k=k, threshold=threshold, method=method,
                                       rank=RANK, **(options if method == choice else {}))
                task.check()
                last = i == len(plan) - 1
                if self._tasks.get("search") is task:
                    self._show_hits(result.hits, result, phase=phase if not last else
                                    ("exact results" if len(plan) > 1 else ""))
                    self.progress.value = (i + 1) / len(plan)
            return result

        def done(result):
            self._busy(False)
            self._query_name = name
            result.query_name = name
            result.searched = self._query_searched = Searched.of(name, frame, cols)
            self.session.note_searched(result.searched)
            saved = self._write_search(name, cols, k, threshold, choice, options, max_values,
                                       result, automatic)
            text = (f"{len(result)} hit(s) for {name}[{', '.join(map(str, cols))}] "
                    f"(|Q| = {result.query.size_label}; {result.how})"
                    + self._saved_text(saved, automatic))
            text += multiply_note(result)
            if result.notes:
                self._set_status(text + " Note: " + "; ".join(result.notes), "note")
            else:
                self._set_status(text)       # an empty result's advice: in the table

        return self._run("search", work, done)

    def _show_users_search(self, name: str, frame, cols: list) -> bool:
        """The search the widget makes by itself, when the user saved this query's search
        as ``<query>_hits`` (``%lakejoin search ... --save``, in a cell above, or the API's
        result bound there): show it, with its method, options and k, as a search cell below
        the widget is followed, and leave its variable and cell as they are (the widget's
        own searches take another name). False when there is none, or one the widget cannot
        show."""
        from ..engine import SearchResult
        variable, saved = self._users_result(name, frame, "hits", "search", SearchResult)
        if not (saved is not None and saved.rank == RANK and saved.params.k is not None
                and [str(c) for c in saved.query.columns] == [str(c) for c in cols]):
            return False
        if self.query.apply({"method": saved.method, "k": saved.params.k,
                             "threshold": saved.params.threshold,
                             "options": dict(saved.params.options)}) is not None:
            return False                      # a method or option the widget does not offer
        self._show_users_result(name, frame, variable, saved, "search",
                                f"method {saved.method}, k = {saved.params.k}",
                                multiply_note(saved))
        return True

    def _show_users_union(self, name: str, frame, cols: list) -> bool:
        """Union mode's :meth:`_show_users_search`: a union search the user saved as
        ``<query>_unions`` (``%lakejoin union ... --save``, or the API's result) of the
        columns picked (none picked: of any of the frame's columns, then picked) is shown
        with its k, and left as it is."""
        from ..join.union import UnionResult
        variable, saved = self._users_result(name, frame, "unions", "union", UnionResult)
        if saved is None or not saved.k or not saved.include_own or saved.options:
            return False                      # not a search the widget makes
        by_name = {str(c): c for c in self.query.column_options()}
        asked = [str(c) for c in saved.columns]
        if cols and asked != [str(c) for c in cols]:
            return False
        if not cols and asked != list(by_name):
            if len(set(asked)) != len(asked) or not set(asked) <= set(by_name):
                return False
            self.column_picker.value = tuple(by_name[c] for c in asked)
        self.k_box.value = saved.k
        what = "" if asked == list(by_name) else f"columns {', '.join(asked)}, "
        self._show_users_result(name, frame, variable, saved, "union", f"{what}k = {saved.k}")
        return True

    def _users_result(self, name: str, frame, suffix: str, kind: str, cls):
        """(``<query>_<suffix>``, the search of this query the user bound there) or
        (variable, None): a ``cls`` a ``%lakejoin`` line of theirs saved for ``name``, or
        the API's search of ``frame`` itself; never one a widget (or its cell) bound."""
        from ..join.plan import python_name
        variable = f"{python_name(name, 'df')}_{suffix}"
        saved = self.namespace.get(variable)
        if not isinstance(saved, cls) or self._widgets(f"{kind}:{variable}", saved):
            return variable, None
        searched = (saved.frame if kind == "union" else getattr(saved.query, "whole", None))
        if saved.query_name != name and not (saved.query_name is None and searched is frame):
            return variable, None
        return variable, saved

    def _show_users_result(self, name, frame, variable, saved, kind, how, note=""):
        self._query_name = name
        self._query_searched = getattr(saved, "searched", None) or Searched.of(
            name, frame, saved.columns if kind == "union" else saved.query.columns)
        self._searched = None
        self.search_code.code = ""
        self._show_hits(saved.hits, saved)
        own = self._own_variable(variable, kind)
        what, search = (("hit(s)", "search") if kind == "search" else
                        ("table(s)", "union search"))
        self._set_status(f"{len(saved)} {what} of {variable}, the {search} your cell saved "
                         f"({how}); the widget leaves it as it is: its own searches are "
                         f"saved as {own}." + note, "note")

    def search_union(self, automatic: bool = False):
        """Union search of the chosen DataFrame (its picked columns, or all of them) in the
        background; returns the task (``automatic``: as in :meth:`search`)."""
        engine = self._open_engine()
        if engine is None:
            return None
        if not engine.index.has("union"):
            self._set_status(union_rebuild_text(engine), "error")
            return None
        picked = self._picked_frame()
        if not picked:
            return None
        name, frame, cols = picked
        if automatic and self._show_users_union(name, frame, cols):
            return None
        k = int(self.k_box.value)
        what = f"{name}[{', '.join(map(str, cols))}]" if cols else name
        self._busy(True, 0.1)
        self._searching()
        self._set_status(f"Searching for tables that stack under {what}...")

        def work(task):
            with self._spark_progress(frame, task):
                return engine.search_unionable(frame, k=k, columns=cols or None)

        def done(result):
            self._busy(False)
            self._query_name = name
            result.query_name = name
            self._query_searched = Searched.of(name, frame, result.columns)
            saved = self._write_union_search(name, cols, k, result, automatic)
            n = len(result.columns)
            text = (f"{len(result)} unionable table(s) for {what} ({n} column"
                    f"{'s' if n != 1 else ''}; {result.seconds * 1000:,.0f} ms)"
                    + self._saved_text(saved, automatic))
            if result.notes:
                self._set_status(text + " Note: " + "; ".join(result.notes), "note")
            else:
                self._set_status(text)       # an empty result's advice: in the table
            self._show_hits(result.hits, result)

        return self._run("search", work, done)

    def _write_union_search(self, name, cols, k, result, automatic=False):
        """Bind the UnionResult to ``<query>_unions`` and write its ``%lakejoin union`` line
        into the query's union search cell. Returns the variable, or None."""
        return self._write_search_cell(
            name, cols, "unions", "union", result,
            lambda variable: union_magic(name, cols, k=k, save=variable), automatic)

    def _write_search(self, name, cols, k, threshold, method, options, max_values, result,
                      automatic=False):
        """Bind the result to ``<query>_hits`` and write the equivalent magic into the
        query's search cell (one per query; `%lakejoin join N --from <query>_hits` then
        joins from it). Returns the variable, or None when binding is off."""
        return self._write_search_cell(
            name, cols, "hits", "search", result,
            lambda variable: search_magic(name, cols, k=k, save=variable, threshold=threshold,
                                          method=method, options=options,
                                          max_values=max_values), automatic)

    def _write_search_cell(self, name, cols, suffix, kind, result, magic_line, automatic):
        """Bind ``result`` to ``<query>_<suffix>`` and write ``magic_line(variable)`` (after
        the open line of an index opened here) into the search cell tagged ``kind``.

        A search the widget made by itself (``automatic``) writes the cell only if the
        notebook has none, and leaves the variable to a cell that bound it since the widget
        was created ("Run all" ran the search cell below it): the notebook's search stays
        the one its cell states. Returns the variable bound, or None."""
        from ..join.plan import python_name
        variable = self._own_variable(f"{python_name(name, 'df')}_{suffix}", kind)
        key = f"{kind}:{variable}"
        line = magic_line(variable)
        self._searched = (name, [str(c) for c in cols], variable, line)
        if self._opened_here and self.engine is not None:
            line = f"%lakejoin open {shlex.quote(self._opened_here)}\n" + line
        self.search_code.key = key
        self.search_code.code = line
        self.search_code.status = ""
        if not self.auto_bind.value:
            return None
        bound = variable
        if (automatic and self.session.noted_since(key, self._born)
                and self.session.written.get(key) is not self._own_values.get(key)):
            bound = None                         # its cell's search, bound by that cell
            self.session.by_widget[key] = self.session.written.get(key)   # its search cell's
        else:
            self._bind(variable, result, kind)
        if self.auto_insert.value:
            self.search_code.write_cell(only_if_missing=automatic)
        return bound

    def _saved_text(self, saved, automatic) -> str:
        """The end of a search's status line: where its result is bound."""
        if saved:
            return f", saved as {saved}."
        if automatic and self.auto_bind.value and self._searched is not None:
            return f"; {self._searched[2]} is left to the cell that bound it."
        return "."

    def _on_search_cell_kept(self, source: str, request) -> None:
        """The notebook kept its own search cell for a search the widget made by itself:
        take the method, its options, k and the minimum containment the cell states, and
        search again with them (the cell is kept again), so the widget shows the search
        its cell makes. A cell the widget cannot follow stays as it is, with a note."""
        if request != self.search_code._requests or self._searched is None \
                or self.mode.value != "join":
            return
        name, cols, variable, line = self._searched
        if self.frame_picker.value != name or [str(c) for c in self.column_picker.value] != cols:
            return                                   # the user has moved on
        stated = read_search_line(source, name)
        # the cell may search other columns of the frame (the widget wrote it after the user
        # picked them; its ``%lakejoin ui`` line still names the first ones): take them too
        by_name = {str(c): c for c in self.query.column_options()}
        columns = (None if stated is None or stated["save"] != variable
                   or len(set(stated["columns"])) != len(stated["columns"])
                   or not set(stated["columns"]) <= set(by_name)
                   else tuple(by_name[c] for c in stated["columns"]))
        why = "it is not a %lakejoin search of this query the widget can make"
        if columns is not None:
            before, method = tuple(self.column_picker.value), self.method_picker.value
            if before != columns:
                self.column_picker.value = columns   # the methods offered for them
            why = self.query.apply(stated)
            if why and before != columns:
                self.column_picker.value = before
                if method in [v for _, v in self.method_picker.options]:
                    self.method_picker.value = method
        if why:
            self._set_status(f"The notebook's search cell for {variable} is kept as written; "
                             f"the widget does not follow it ({why}). Search (or Update cell) "
                             f"writes the widget's search into it.", "note")
            return
        self.max_values = stated["max_values"]
        c = self.query.choices()
        now = search_magic(name, stated["columns"], k=c["k"], save=variable,
                           threshold=c["threshold"],
                           method=c["method"], options=c["options"],
                           max_values=self.max_values)
        if now == line:
            return                                   # the widget made the cell's search
        self._set_status(f"The notebook's search cell for {variable} is kept as written; "
                         f"searching as it states...", "note")
        self.search(automatic=True)

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
        self.results.phase = ("approximate results (exact search cancelled)"
                              if self.results.phase.startswith("approximate") else self.results.phase)
        if "index" in cancelled:
            self._failed("Cancelled the index build; nothing was written.")
            return
        what = ", ".join(cancelled) or "nothing was running"
        self._set_status(f"Cancelled ({what}); the results shown are those of the last "
                         f"finished step.", "note")

    def _show_hits(self, hits, result, phase: str = ""):
        if self.mode.value == "union":
            return self._show_union_hits(hits, result)
        previous = None
        if 0 <= self.results.selected < len(self._hits):
            previous = self._hits[self.results.selected].column_ids
        self._hits = list(hits)
        self._result = result
        multi = bool(hits) and len(hits[0].query_columns) > 1
        programs = any("program" in h.details for h in hits)
        # a transformation search's table gives the width of a method and figures that
        # every row repeats (the status names the method) to the programs
        same = programs and len({(h.method, h.figures) for h in hits}) == 1
        # a narrow box (under 700 px: JupyterLab at 1100 or 900 px with its file browser
        # open) folds away a method and figures that every row repeats (the status names the
        # method, the badge above the table the figures), and figures that each method has
        # one kind of (a list of equality and transformation hits: the method tells them)
        # (lakejoin.css, "lakejoin-fold"); a list with programs, which need the width, folds
        # the overlap (the containment beside it gives it as a share of the query's values,
        # which the status counts) and the score (the hit's card has it)
        fold = len({(h.method, h.figures) for h in hits}) == 1
        fold_figures = len({(h.method, h.figures) for h in hits}) == len({h.method for h in hits})
        # a list of equality and transformation hits: its figures, which each method has
        # one kind of, fold from 1120 px (Notebook 7 at 1400 px), so that names under some
        # 30 characters show whole; in the narrowest box (under 600 px: JupyterLab at 900 px
        # with its file browser open) its method folds too, an equality hit's written in its
        # empty transformation cell ("equal values (josie)"), so that names and programs
        # keep their width (lakejoin.css, "lakejoin-fold-600", "lakejoin-fold-1120")
        mixed = programs and not same
        columns = [{"key": "rank", "label": "#", "kind": "int"},
                   {"key": "table_label", "label": "table", "kind": "text", "shrink": True,
                    "ellipsis": "middle", "marker": "mark"},
                   ({"key": "mapping", "label": "query → lake columns", "kind": "text",
                     "shrink": True} if multi
                    else {"key": "column", "label": "column", "kind": "text", "shrink": True}),
                   {"key": "overlap", "label": "over\u00adlap", "kind": "int",
                    "fold": programs},
                   {"key": "containment", "label": "contain\u00adment", "kind": "bar"},
                   *([{"key": "score", "label": "score", "kind": "number",
                       "fold": programs}] if any(
                       h.overlap is None or float(h.score) != float(h.overlap) for h in hits)
                     else []),
                   {"key": "lake_rows", "label": "rows", "kind": "int"},
                   {"key": "key_ratio", "label": "×\u00a0fan\u2011out",   # never wraps
                    "kind": "number", "prefix": "×", "digits": 3, "warn_above": 1,
                    "title": "lake rows per matched key: above 1, a join multiplies the "
                    "query's rows"},
                   *([{"key": "query_ratio", "label": "query values/key", "kind": "number",
                       "digits": 3, "warn_above": 1, "title": "distinct query values the "
                       "program merges onto each key: above 1, several query values meet "
                       "the same lake rows"}]
                     if any((h.query_ratio or 1.0) > 1.0 for h in hits) else []),
                   {"key": "row_coverage", "label": "row cover\u00adage", "kind": "bar",
                    "title": "share of the query's rows that find a partner"},
                   {"key": "adds", "label": "adds", "kind": "int", "prefix": "+",
                    "title": "columns the join adds"},
                   *([{"key": "program", "label": "transfor\u00admation", "kind": "text",
                       "shrink": True, "wrap": True,     # the program, whole, on lines
                       **({"placeholder": "equal"} if mixed else {}),
                       "title": "the program each hit joins through, learned from a sample "
                       "of the query's values"}]          # (a narrow table breaks its header there)
                     if programs else []),
                   *([] if same else [
                       {"key": "method", "label": "method", "kind": "text", "fold": fold,
                        **({"fold_at": 600} if mixed else {})},
                       {"key": "figures", "label": "figures", "kind": "text", "fold": fold_figures,
                        **({"fold_at": 1120} if mixed and fold_figures else {}),
                        "title": "exact: counted from the index; estimated: by an approximate "
                        "method; learned: by applying a program learned from a sample of the "
                        "query's values"}])]
        rows = []
        for h in hits:
            c = h.containment if h.containment is not None else h.estimated_containment
            mark = (" (your table)" if h.is_query_table else
                    " (already joined)" if h.in_chain else "")    # as the hit card marks it
            rows.append({"rank": int(h.rank), "table": h.table, "table_label": h.table + mark,
                         "mark": mark,
                         "column": h.columns_label,
                         "mapping": ", ".join(f"{a} → {b}" for a, b in h.mapping.items()),
                         "overlap": None if h.overlap is None else int(h.overlap),
                         "containment": _num(c), "score": float(f"{float(h.score):.4g}"),
                         "program": h.details.get("program", ""),
                         "equal": "" if "program" in h.details else f"equal values ({h.method})",
                         "method": h.method, "exact": bool(h.exact), "figures": h.figures,
                         "lake_rows": h.lake_rows, "key_ratio": _num(h.key_ratio),
                         "query_ratio": _num(h.query_ratio),
                         "row_coverage": _num(h.row_coverage),
                         "adds": self.engine.n_added(h) if self.engine is not None else None})
        self._publish(columns, rows, phase, result.empty_text(widget=True) if result is not None else
                      "Pick a DataFrame and column(s), then press Search.",
                      next((i for i, h in enumerate(self._hits) if h.column_ids == previous), -1),
                      result.also_matching(widget=True) if result is not None else "")

    def _show_union_hits(self, hits, result):
        """Union hits: table, aligned columns N/M, score, the table's rows, the alignment."""
        previous = self.selected_hit()
        previous = previous.table if previous is not None else None
        self._hits = list(hits)
        self._result = result
        m = len(result.columns) if result is not None else 0
        columns = [{"key": "rank", "label": "#", "kind": "int"},
                   {"key": "table", "label": "table", "kind": "text", "shrink": True,
                    "ellipsis": "middle", "marker": "mark"},
                   {"key": "aligned", "label": "aligned", "kind": "text",
                    "title": "query columns aligned with a column of the table / query columns"},
                   {"key": "score", "label": "score", "kind": "bar",
                    "title": "aligned columns' unionability summed over the query's columns, times "
                             "the chance that two query rows differ on the aligned columns"},
                   {"key": "rows", "label": "rows", "kind": "int",
                    "title": "the table's rows (the Union action adds those the query lacks)"},
                   {"key": "alignment", "label": "query ← lake column", "kind": "text",
                    "shrink": True}]
        rows = [{"rank": int(h.rank), "table": h.label, "mark": h.label[len(h.table):],
                 "aligned": f"{len(h.alignment)}/{m}",
                 "score": float(f"{h.score:.4g}"), "rows": int(h.rows),
                 "alignment": ", ".join(f"{a} ← {b}" for a, b, _ in h.alignment)} for h in hits]
        self._publish(columns, rows, "", result.empty_message if result is not None else
                      "Pick a DataFrame (and optionally its columns), then press Search to "
                      "find tables that add rows.",
                      next((i for i, h in enumerate(self._hits) if h.table == previous), -1),
                      result.also_matching(widget=True) if result is not None else "")

    def _publish(self, columns: list, rows: list, phase: str, empty_text: str, keep: int,
                 footnote: str = ""):
        """Show a table of hits in one update for the browser, and keep the row of the hit
        chosen before (``keep``, its index; -1: none, and the detail pane closes);
        ``footnote``: the line under it (the own table passed over for k others)."""
        with self.results.hold_sync():
            self.results.phase = phase            # phase first: observers of rows see it
            self.results.empty_text = empty_text
            self.results.footnote = footnote
            self.results.columns = columns
            self.results.rows = rows
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
        if self.mode.value == "union":
            return self._on_select_union(hit)
        c = hit.containment if hit.containment is not None else hit.estimated_containment
        self.detail_html.value = (
            f"<b>#{hit.rank} {html.escape(hit.table)}</b> &middot; "
            f"{html.escape(', '.join(f'{a} → {b}' for a, b in hit.mapping.items()))} &middot; "
            f"containment {percent(0 if c is None else c)}{'' if hit.exact else ' (estimated)'}"
            + _program_html(hit)
            + "<div class='lakejoin-values'>loading matched values...</div>")
        qname = self._query_name or "df"
        self.actions.show_hit(hit, lambda a: self._action_variable(qname, hit, a))
        frame = self._query_searched.frame if self._query_searched else None  # as searched

        def work(task):
            from ..charts import coverage_chart
            card = hit.card()
            task.check()
            chart = coverage_chart(hit, frame if isinstance(frame, pd.DataFrame) else None,
                                   width=240)     # with its labels, within 360 px
            return f"<b>#{hit.rank}</b> {card}" + _program_html(hit), chart

        self._load_detail(hit, work)

    def _on_select_union(self, hit):
        """A union hit: its alignment (query column <- lake column, per-column score and
        evidence), a chart of it, the table's first rows and the Union action."""
        qcols = list(self._result.columns) if self._result is not None else list(hit.mapping)
        self.detail_html.value = union_card(hit, qcols) + (
            "<div class='lakejoin-values'>loading the table's first rows...</div>")
        qname = self._query_name or "df"
        self.actions.show_hit(hit, lambda a: self._action_variable(qname, hit, a))

        def work(task):
            from ..charts import alignment_chart
            chart = alignment_chart(hit, qcols)
            task.check()
            return union_card(hit, qcols), chart

        self._load_detail(hit, work)

    def _load_detail(self, hit, work):
        """Fill the detail pane of ``hit`` in the background: ``work(task)`` gives its card
        (HTML) and chart, then the table's first rows are read; shown while the hit is
        still the one selected (an error is added under the card)."""
        def load(task):
            card, chart = work(task)
            rows = int(self.engine.index.tables.iloc[int(hit.table_id)]["n_rows"])
            return card, chart, (self.engine.table(hit.table_id, max_rows=8), rows)

        def done(out):
            card, chart, (preview, rows) = out
            if self.selected_hit() is not hit:
                return
            self.detail_html.value = self._frame_changed_html(hit) + card
            from ..charts import themed
            show(self.chart_out, themed(chart))
            from IPython.display import HTML
            from .render import frame_html
            show(self.preview_out, HTML("<div class='lakejoin-preview-rows'>"
                                        + frame_html(preview, f"{hit.table} (first rows)", 8,
                                                     total_rows=rows) + "</div>"))

        def error(e):
            self.detail_html.value += (f"<div class='lakejoin-status-error'>"
                                       f"{html.escape(_error_text(e))}</div>")

        self._run("detail", load, done, error)

    def _frame_changed_html(self, hit) -> str:
        """A note over a hit's card when the query variable no longer holds the frame
        searched (session.Searched): the card's figures describe the searched frame, the
        actions join the current one (or refuse one without the hit's query column)."""
        if self._query_searched is None:
            return ""
        try:
            frame = self._query_searched.frame_now(self.namespace, _key_columns(hit))
        except QueryError as e:
            return f"<div class='lakejoin-status-note'>{html.escape(str(e))}</div>"
        changed = self._query_searched.changed(frame)
        return (f"<div class='lakejoin-status-note'>{html.escape(changed)}: the figures below "
                f"describe the frame searched; an action joins the current one. Search again "
                f"to refresh them.</div>" if changed else "")

    # ------------------------------------------------------------------ actions
    def run_action(self, name: str, **params):
        """Run a hit action on the selected hit (in the background), with its tab's
        parameters (``params`` override them); returns the task."""
        hit = self.selected_hit()
        tab = self.actions.shown.get(name)
        if hit is None or tab is None:
            self._set_status("Select a hit first." if hit is None else
                             f"No action {name!r} for this hit.", "error")
            return None
        action = tab.action
        qname = self._query_name or "df"
        if self._query_searched is None:
            self._set_status("Search again: the query DataFrame of these results is gone.",
                             "error")
            return None
        try:     # the frame the action's code names: its variable now (the magic's rule)
            frame, changed = self._query_searched.current(self.namespace, _key_columns(hit))
            wanted = tab.wanted_variable()
            variable = (check_identifier(wanted) if wanted
                        else self._action_variable(qname, hit, action))
        except LakeJoinError as e:
            tab.show_error(str(e))
            self._set_status(str(e), "error")
            return None
        values = tab.values()
        values.update(params)
        self.actions.select(name)
        self._busy(True, 0.2)
        self._set_status(f"{action.label}: {hit.table}...")

        def work(task):
            with self._spark_progress(frame, task):
                result = action(self.engine, hit, frame, frame_name=qname, **values)
                code = result.code(qname, variable)
            return result, code

        moved_on = bool(changed) or self._frames_at_cell.get(qname) != frame_mark(frame)

        def done(out):
            self._busy(False)
            if changed:
                out[0].summary = f"**Note:** {changed}\n\n{out[0].summary}"
            code = out[1]
            if code and moved_on:
                code = _depends_on_frame(code, qname, frame)
            self.show_action_result(out[0], variable=variable, code=code, action=name,
                                    of=join_identity(qname, hit), note=changed,
                                    after_last_run=moved_on,
                                    after_cells=self.session.changes_of(qname))

        def error(e):
            self._on_task_error(e)
            tab.show_error(_error_text(e))

        return self._run("action", work, done, error)

    def _action_variable(self, qname: str, hit, action) -> str:
        """The action's stable variable (:meth:`Session.action_variable`, the magic's rule
        too)."""
        return self.session.action_variable(self.namespace, qname, hit, action.name,
                                            action.suffix)

    def show_action_result(self, result, variable: str = "joined", code: str | None = None,
                           action: str | None = None, of: str | None = None, note: str = "",
                           after_last_run: bool = False, after_cells: list | None = None):
        """Show an ActionResult in its tab; bind its joined frame and write its code into
        the action's cell if asked (``of``: the join it is, :func:`join_identity`; ``note``:
        what the status line adds, e.g. that the query frame changed since the search;
        ``after_cells``: the cells that changed the query frame, :meth:`Session.changes_of`:
        the cell goes after the lowest of them below the widget, where "Run all" gives the
        frame joined; ``after_last_run``: the query frame is not the one the widget's cell
        saw, so with none of them in the notebook the cell goes after the last cell run)."""
        tab = self.actions.shown.get(action) if action else None
        self.last_action_result = result
        joined = result.joined
        bound = None
        key = f"{action or 'action'}:{variable}"
        if code and tab is not None:          # the mark that makes it the widget's own cell
            code = mark_cell(code, key, of)
        refused = getattr(result, "refused", None)
        message = result.title + ("" if result.ok else f": {refused}" if refused
                                  else ": nothing usable found")
        if joined is not None and self.auto_bind.value:
            self._bind(variable, joined, action or "action", of)
            bound = variable
            message = f"{result.title}: bound to {variable} ({_shape_text(joined)})."
            self.refresh_frames()
        empty = (result.details or {}).get("empty_columns") or []
        if empty:             # a union's query columns with no value in the added rows
            message += f" Empty in the added rows: {', '.join(map(str, empty))}."
        if note:
            message += f" Note: {note}"
        if tab is not None:
            tab.show_result(result, variable if joined is not None else None, code, bound)
            tab.code_panel.key = key
            tab.code_panel.after_last_run = after_last_run
            tab.code_panel.after_cells = list(after_cells or [])
            if code and self.auto_insert.value:
                tab.code_panel.write_cell()
        self._set_status(message, "error" if refused else
                         "info" if result.ok and not empty and not note else "note")

    @property
    def code_panel(self) -> CodePanel | None:
        """The code panel of the tab shown (the last action's, after a run)."""
        tabs = list(self.actions.shown.values())
        i = self.actions.selected_index
        return tabs[i].code_panel if tabs and i is not None and i < len(tabs) else None


# ---------------------------------------------------------------------- small helpers

def _depends_on_frame(code: str, name: str, frame) -> str:
    """``code`` under a comment saying it reads ``name`` as the cells above it leave it (the
    frame changed after the widget's cell, so its cell goes after the cell that changed it)."""
    rows = f"{len(frame):,} rows" if isinstance(frame, pd.DataFrame) else "a Spark DataFrame"
    return (f"# reads `{name}` as the cells above leave it ({rows} when written); it changed "
            f"after the widget's cell, so this\n# cell goes after the cell that changed it, "
            f"not below the widget: a cell above that changes `{name}` changes this result\n"
            + code)


def _num(x):
    if x is None:
        return None
    try:
        return float(x) if not float(x).is_integer() or isinstance(x, float) else int(x)
    except (TypeError, ValueError):
        return None


BUILD_TIP = "index the lake folder into the index folder with Spark"
REBUILD_TIP = ("the index folder holds an index: replace it with a new index of the lake it "
               "records (the Lake field; Spark; it keeps its optional components), then "
               "reopen it")


def holds_index(path) -> bool:
    """Whether the folder ``path`` names (through a link) holds an index."""
    from ..index.store import is_index, resolve_destination
    path = (path or "").strip()
    if not path:
        return False
    try:
        return is_index(resolve_destination(path))
    except OSError:
        return False


def _key_columns(hit) -> tuple:
    """The query column(s) an action on ``hit`` joins on (a union hit: its mapping's)."""
    return getattr(hit, "query_columns", None) or tuple(hit.mapping)


def _error_text(e: BaseException) -> str:
    if isinstance(e, LakeJoinError):
        return str(e)
    return f"{type(e).__name__}: {e}"


def union_rebuild_text(engine) -> str:
    """The one line saying how to get an index Union mode can search."""
    return (f"This index has no union component, so Union mode cannot search it: rebuild it "
            f"with {engine.rebuild_command('union')} (or type the lake folder above and press "
            f"Rebuild in Union mode: it keeps the index's other components).")


# where a narrow union card may break an alignment header (a soft hyphen: never shown wider)
_HYPHENATED = {"semantic": "seman\u00adtic", "numeric": "nu\u00admer\u00adic",
               "format": "for\u00admat", "header": "head\u00ader"}


def union_card(hit, query_columns) -> str:
    """A union hit's header line and its alignment table (query column <- lake column,
    score, the likelihood of each evidence; columns the table lacks are empty in its rows)."""
    from ..search.union import EVIDENCE
    df = hit.alignment_frame(query_columns)

    def num(x):
        return "" if x is None or x != x else f"{float(x):.2f}"

    def shared(r):
        if r["shared values"] is None or r["shared values"] != r["shared values"]:
            return "<td></td>"
        return (f"<td class='lakejoin-num' data-label='shared' title='the lake column has "
                f"{int(r['lake values']):,} distinct values'>"
                f"{int(r['shared values']):,}/{int(r['query values']):,}</td>")

    # data-label: a narrow card (under 430 px, lakejoin.css) shows each row as a block of
    # labelled figures instead of the table's columns
    body = "".join(
        "<tr>" + f"<td class='lakejoin-query-column'>{html.escape(str(r['query column']))}</td>"
        + (f"<td data-label='\u2190'>{html.escape(str(r['lake column']))}</td>"
           f"<td class='lakejoin-num' data-label='score'><b>{num(r['score'])}</b>"
           f"{' <i>by name</i>' if r['by name'] else ''}</td>" + shared(r)
           + "".join(f"<td class='lakejoin-num' data-label='{e}'>{num(r[e])}</td>"
                     for e in EVIDENCE)
           if r["lake column"] is not None else
           f"<td colspan='{3 + len(EVIDENCE)}'><i>not aligned: empty in the added rows</i></td>")
        + "</tr>" for _, r in df.iterrows())
    # an evidence's label breaks at its soft hyphen in a narrow card ("seman-tic", lakejoin.css)
    head = "".join(f"<th>{h}</th>" for h in ("query column", "lake column")) + "".join(
        f"<th class='lakejoin-num'>{_HYPHENATED.get(h, h)}</th>"
        for h in ("score", "shared", *EVIDENCE))
    return (f"<div class='lakejoin-union-card'>"
            f"<b>#{hit.rank} {html.escape(hit.table)}</b> &middot; aligned "
            f"{len(hit.alignment)}/{len(query_columns)} query columns &middot; score "
            f"{hit.score:.3f} &middot; {hit.rows:,} rows"
            f"<div class='lakejoin-alignment-box'>"
            f"<table class='lakejoin-alignment'><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></div>"
            f"<div class='lakejoin-param-help'>score: the pair's unionability; shared: the "
            f"query column's distinct values found in the lake column; set ... header: the "
            f"likelihood of each evidence against the lake's background (empty: does not "
            f"apply); by name: aligned by its name and kind, the values not against it "
            f"(not counted in the table's score). set is 0 when the sharing is what chance gives: a lake column much "
            f"larger than the query's holds most of its values anyway</div></div>")


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
            f"{percent(float(d.get('coverage', 0)))} of the query rows (learned on the "
            f"index's normalized values, case folded; Find transformation learns it on the "
            f"values as written)"
            + _pattern_html(d) + "</div>")


def _pattern_html(d: dict) -> str:
    """The lake column's most common value shape (search/segments.py::value_shape), as
    code, with what its letters mean."""
    pattern = d.get("lake_pattern")
    if not pattern:
        return ""
    share = d.get("lake_pattern_share")
    of = f" ({percent(float(share))} of them)" if share else ""
    example = d.get("lake_pattern_example")     # one of the column's own values
    so = (f", so <code class='lakejoin-pattern'>{html.escape(str(example))}</code> has the "
          f"shape <code class='lakejoin-pattern'>{html.escape(str(pattern))}</code>"
          if example else "")
    return (f"; the lake column's most common value shape is "
            f"<code class='lakejoin-pattern'>{html.escape(str(pattern))}</code>{of}: in a "
            f"shape, <code class='lakejoin-pattern'>a</code> is a run of letters, "
            f"<code class='lakejoin-pattern'>9</code> a run of digits, and everything else "
            f"(hyphens, underscores, dots, a constant part) is as written{so}")


def _sample(values, n: int = 25) -> str:
    shown = ", ".join(str(v) for v in values[:n])
    return shown + (f", ... ({len(values) - n:,} more)" if len(values) > n else "") if values else "none"


def _shape_text(df) -> str:
    if is_dataframe(df) and hasattr(df, "shape"):
        return f"{df.shape[0]:,} rows x {df.shape[1]} columns"
    return f"Spark DataFrame, {len(df.columns)} columns"


def _shell():
    try:
        from IPython import get_ipython
        return get_ipython()
    except Exception:  # noqa: BLE001
        return None


def _user_namespace() -> dict:
    shell = _shell()
    return shell.user_ns if shell is not None else {}
