"""The widget's two anywidget views, one per file of js/: the ranked results table
(results_table.js) and the code panel (code_panel.js).

Each is a thin traitlets model; the browser side does the drawing, sorting, keyboard
navigation and the notebook edits, and reports back through the synced traits (``selected``)
or custom messages (what the code panel did with a cell).
"""
from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets as T


def route_replies_to_live_subshells(widget) -> None:
    """Never let the kernel route a frontend message on ``widget``'s comm to a deleted
    subshell.

    ipykernel 7 sends a frontend message on a comm to the subshell of the request the
    kernel last published on it under (``_reply_subshell_for``), even once that subshell
    is gone. JupyterLab and Notebook 7 create and delete comm subshells as a page attaches
    to a running kernel, so after a reopen and "Run all" a widget could have every later
    click and reply dropped, with only "Unknown subshell_id" in the server log. Such a
    message goes to the subshell the frontend named, if it still exists, else to the main
    shell.
    """
    comm = getattr(widget, "comm", None)
    route = getattr(comm, "_reply_subshell_for", None)
    if route is None or getattr(route, "_lakejoin_live", False):
        return

    def live_route(data, default):
        subshell = route(data, default)
        if subshell is None:
            return None
        try:
            kernel = comm.kernel
            if kernel is None:
                from ipykernel.kernelbase import Kernel
                kernel = Kernel.instance()
            live = kernel.shell_channel_thread.manager.list_subshell()
        except Exception:                        # no subshells here: nothing to check
            return subshell
        if subshell in live:
            return subshell
        return default if default in live else None

    live_route._lakejoin_live = True
    comm._reply_subshell_for = live_route


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
    """Ranked hits. ``columns`` describe themselves (``key``, ``label``, ``kind``: int,
    text, bar (a 0..1 share), flag; optional ``sortable``, ``shrink``: a text column
    cut with an ellipsis so the table fits its box, and ``ellipsis="middle"``: a path cut
    in its folders, keeping its last part), ``rows`` are dicts by key; ``footnote``: one
    line under the table (the query's own table passed over for k others).
    Clicking a row, or Enter/Space on it, sets ``selected`` (an index into ``rows``, whatever
    the sort order the user chose by clicking a header)."""
    _esm = asset("results_table.js")
    _css = asset("lakejoin.css")
    columns = T.List(T.Dict()).tag(sync=True)
    rows = T.List(T.Dict()).tag(sync=True)
    selected = T.Int(-1).tag(sync=True)
    phase = T.Unicode("").tag(sync=True)
    empty_text = T.Unicode("Pick a DataFrame and column(s), then press Search.").tag(sync=True)
    footnote = T.Unicode("").tag(sync=True)

    def __init__(self, **kw):
        super().__init__(**kw)
        route_replies_to_live_subshells(self)


STATUS = {
    "inserted": "inserted as a new cell below the widget",
    "inserted after the change": "inserted after the cell that changed the query frame, "
                                 "below the widget (Run all then joins the frame joined here)",
    "inserted after the last run": "inserted after the last cell run (the query frame "
                                   "changed after the widget's cell)",
    "moved after the change": "its cell was updated and moved after the cell that changed "
                              "the query frame (Run all then joins the frame joined here)",
    "moved": "its cell was updated and moved after the last cell run (the query frame "
             "changed after the widget's cell)",
    "updated": "its cell was updated in place",
    "unchanged": "its cell already holds this code",
    "kept": "the notebook already has its cell: kept as it is (Update cell rewrites it)",
    "clipboard": "this frontend cannot edit the notebook: code copied to the clipboard",
}


class CodePanel(anywidget.AnyWidget):
    """Code that belongs in the notebook, shown with "Insert cell" and "Copy".

    The code goes to ONE notebook cell per :attr:`key` (an action and its variable, or the
    search of a query): the first write inserts a cell below the widget's cell (after the
    cells the widget already wrote), tagged ``metadata.lakejoin.cell = key``; later writes
    replace that cell's source (and clear its stale outputs) instead of adding a cell. A
    write ``only_if_missing`` (a search the widget starts by itself) leaves an existing cell
    as it is; the frontend then reports it "kept", with its source, to :attr:`on_kept`.
    With :attr:`after_cells` (the cells that changed the action's query frame) the cell goes
    after the lowest of them in the notebook when that is below the widget; with
    :attr:`after_last_run` (the frame changed after the widget's cell) and none of them
    found, after the last cell the kernel ran. A cell of the key above that point moves there.
    """
    _esm = asset("code_panel.js")
    _css = asset("lakejoin.css")
    code = T.Unicode("").tag(sync=True)
    key = T.Unicode("").tag(sync=True)           # the notebook cell this code belongs to
    root_id = T.Unicode("").tag(sync=True)       # model id of the widget whose cell we follow
    status = T.Unicode("").tag(sync=True)
    compact = T.Bool(False).tag(sync=True)       # one line (the search's magic)
    after_last_run = T.Bool(False).tag(sync=True)  # no change found: after the last cell run
    after_cells = T.List().tag(sync=True)     # [{"id", "count"}]: the cells that changed the frame

    def __init__(self, **kw):
        super().__init__(**kw)
        route_replies_to_live_subshells(self)
        self._requests = 0
        self._pending = None                      # the write not yet reported written
        self.replies = []                         # what the frontend reported, newest last
        self.on_kept = None                       # on_kept(source, request): a cell kept
        self.on_msg(self._on_frontend)

    def write_cell(self, only_if_missing: bool = False) -> int:
        """Ask the frontend to put :attr:`code` into the cell of :attr:`key` (inserting it
        the first time; with ``only_if_missing``, an existing cell is left as it is). The
        code and key travel in the message, so the frontend never writes a stale trait
        value."""
        self._requests += 1
        self.status = "writing the code into the notebook..."
        self._pending = {"type": "write", "request": self._requests, "key": self.key,
                         "code": self.code, "only_if_missing": bool(only_if_missing),
                         "after_last_run": bool(self.after_last_run),
                         "after_cells": list(self.after_cells),
                         "token": f"{self.model_id}:{self._requests}"}
        self.send(self._pending)
        return self._requests

    def _on_frontend(self, _widget, content, _buffers):
        if not isinstance(content, dict):
            return
        self.replies.append(content)
        if content.get("type") == "ready":
            # a view that rendered after the write was sent (a page attaching to a running
            # kernel): it never saw it; the token keeps a page from writing it twice
            if self._pending is not None:
                self.send(self._pending)
            return
        if content.get("type") == "written":
            if self._pending is not None and content.get("request") == self._pending["request"]:
                self._pending = None
            self.status = STATUS.get(content.get("how"),
                                     "could not write or copy the code: copy it by hand")
            if content.get("how") == "kept" and self.on_kept is not None:
                self.on_kept(str(content.get("source", "")), content.get("request"))
        elif content.get("type") == "copied":
            self.status = "copied" if content.get("ok") else "copy failed: select the code"
