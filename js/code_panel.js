// lakejoin_jupyter: code that belongs in the notebook, with "Insert cell" and "Copy"
// (anywidget ESM, ui/views.py::CodePanel).
//
// One cell per key. JupyterLab 4 and Notebook 7 both render widgets through
// @jupyter-widgets/jupyterlab-manager, whose widget manager holds the document context; its
// notebook model (a shared YNotebook) is what JupyterLab's own set_next_input edits. A cell
// we write is tagged `metadata.lakejoin.cell = key`: the next write with that key replaces
// the cell's source (and clears its stale outputs) instead of inserting another cell, also
// after a kernel restart or from a new widget. A new key's cell goes below the widget's cell
// (found by the widget's model id, `root_id`), after the cells already written there. A
// write `only_if_missing` (the search a widget makes by itself when it is created, e.g. by
// "Run all") never changes an existing cell: it reports it "kept", with its source.
// A write `after_cells` (the cells the kernel saw change the action's query frame: their ids,
// or execution counts when the frontend sent no id) goes after the lowest of them in the
// notebook when that is below the widget: "Run all" then reaches it with the frame as the
// action joined it, whichever cell ran last (below the widget it would read the frame before
// the change; after the last cell run, when that is a cell above the change, too). With none
// of them found, a write `after_last_run` (the frame changed after the widget's cell) goes
// after the cell the kernel ran last (the highest execution count). A cell of its key above
// that point moves there.
// Frontends without that model (classic notebook, VS Code, Colab) get the code copied to the
// clipboard instead, and the code stays visible to copy by hand.

const handled = new Set();   // write requests already served (a model may have two views)

function notebookModel(model) {
  try {
    const ctx = model.widget_manager && model.widget_manager.context;
    const shared = ctx && ctx.model && ctx.model.sharedModel;
    if (shared && typeof shared.insertCell === "function" && shared.cells) return shared;
  } catch (e) {
    // not a JupyterLab-based frontend
  }
  return null;
}

function outputsOf(cell) {
  if (typeof cell.getOutputs === "function") return cell.getOutputs() || [];
  return cell.outputs || [];
}

function metadataOf(cell) {
  try {
    if (typeof cell.getMetadata === "function") return cell.getMetadata() || {};
    return cell.metadata || {};
  } catch (e) {
    return {};
  }
}

function keyOf(cell) {
  const md = metadataOf(cell).lakejoin;
  return md && typeof md.cell === "string" ? md.cell : null;
}

function sourceOf(cell) {
  return typeof cell.getSource === "function" ? cell.getSource() : String(cell.source || "");
}

function widgetCellIndex(cells, rootId) {
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (cell.cell_type !== "code") continue;
    for (const out of outputsOf(cell)) {
      const data = out && out.data && out.data["application/vnd.jupyter.widget-view+json"];
      if (data && data.model_id === rootId) return i;
    }
  }
  return -1;
}

function lastRunIndex(cells) {
  let at = -1;
  let count = -1;
  for (let i = 0; i < cells.length; i++) {
    const n = cells[i].cell_type === "code" ? cells[i].execution_count : null;
    if (typeof n === "number" && n > count) {
      count = n;
      at = i;
    }
  }
  return at;
}

function cellId(cell) {
  try {
    return typeof cell.getId === "function" ? cell.getId() : cell.id;
  } catch (e) {
    return undefined;
  }
}

// The lowest cell of `changes` ({id, count}: a cell's id, else its execution count) in the
// notebook, or -1.
function changedIndex(cells, changes) {
  let at = -1;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (cell.cell_type !== "code") continue;
    const id = cellId(cell);
    const n = cell.execution_count;
    if ((changes || []).some((c) => (c.id ? c.id === id
                                          : typeof c.count === "number" && c.count === n))) at = i;
  }
  return at;
}

// Where a key's new cell goes: after the cell `after` (-1: the notebook's end) and why.
function placement(cells, rootId, changes, afterLastRun) {
  const w = widgetCellIndex(cells, rootId);
  const changed = changedIndex(cells, changes);
  if (changed > w) return { w, after: changed, why: "change" };
  const run = afterLastRun && changed < 0 ? lastRunIndex(cells) : -1;
  if (run > w) return { w, after: run, why: "last run" };
  return { w, after: w, why: "widget" };
}

function cellIndex(cells, key) {
  return key ? cells.findIndex((c) => keyOf(c) === key) : -1;
}

function replaceSource(nb, cell, code) {
  const apply = () => {
    cell.setSource(code);
    if (cell.cell_type === "code") {
      if (typeof cell.setOutputs === "function") cell.setOutputs([]);
      try {
        cell.execution_count = null;
      } catch (e) {
        // read-only in some versions: the count is only a label
      }
    }
  };
  if (typeof nb.transact === "function") nb.transact(apply);
  else apply();
}

function writeCell(model, key, code, el, onlyIfMissing, afterLastRun, afterCells) {
  const nb = notebookModel(model);
  if (!nb) return { ok: false, how: "none", reason: "this frontend exposes no notebook model" };
  keepWidgetUnfolded(model, el);             // before the cell list changes
  const cells = nb.cells;
  const { w, after, why } = placement(cells, model.get("root_id"), afterCells, afterLastRun);
  let at = cellIndex(cells, key);
  let moved = false;
  if (at >= 0) {
    const cell = cells[at];
    const source = sourceOf(cell);
    const above = after > w && at < after;   // it would read the frame before its change
    if (source === code && !above) return { ok: true, how: "unchanged", index: at, key };
    if (onlyIfMissing) return { ok: true, how: "kept", index: at, key, source };
    if (!above || typeof nb.deleteCell !== "function") {
      replaceSource(nb, cell, code);
      return { ok: true, how: "updated", index: at, key };
    }
    nb.deleteCell(at);
    moved = true;
  }
  const start = moved && at < after ? after - 1 : after;
  let index = start < 0 && w < 0 ? nb.cells.length : start + 1;
  while (index < nb.cells.length && keyOf(nb.cells[index]) !== null) index++;
  const metadata = key ? { lakejoin: { cell: key } } : {};
  nb.insertCell(index, { cell_type: "code", source: code, metadata });
  const inserted = nb.cells[index];
  if (inserted && key && keyOf(inserted) !== key && typeof inserted.setMetadata === "function") {
    inserted.setMetadata("lakejoin", { cell: key });    // versions that drop insert metadata
  }
  const how = why === "change" ? (moved ? "moved after the change" : "inserted after the change")
    : why === "last run" ? (moved ? "moved" : "inserted after the last run") : "inserted";
  return { ok: true, how, index, key };
}

// Notebook 7 folds tall outputs into a small scrolled box unless the cell says otherwise:
// the widget (and its actions panel) would sit in a box inside the page. The standard
// `scrolled: false` cell metadata says so where it stays, but JupyterLab 4's code cell
// deletes a `false` at once, and Notebook 7 folds again on every change of the cell list
// (e.g. the cell written below the widget): so the class goes too, and lakejoin.css makes
// the fold a no-op for the widget's cell meanwhile (the fold and this unfold a tick later
// made the page jump, and Chromium's renderer died on it: newuser22 D5). True when the
// widget's cell was found.
function keepWidgetUnfolded(model, el) {
  try {
    const nb = notebookModel(model);
    if (!nb) return true;
    const at = widgetCellIndex(nb.cells, model.get("root_id"));
    const cell = at >= 0 ? nb.cells[at] : null;
    if (!cell) return false;
    if (typeof cell.getMetadata === "function" && cell.getMetadata("scrolled") === undefined) {
      cell.setMetadata("scrolled", false);
    }
    if (typeof cell.getMetadata === "function" && cell.getMetadata("scrolled") === false) {
      const node = el && el.closest ? el.closest(".jp-Cell") : null;
      if (node) node.classList.remove("jp-mod-outputsScrolled");
    }
    return true;
  } catch (e) {
    return true;              // nothing to unfold in this frontend
  }
}

async function copy(code, pre) {
  try {
    await navigator.clipboard.writeText(code);
    return true;
  } catch (e) {
    const range = document.createRange();
    range.selectNodeContents(pre);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    try {
      return document.execCommand("copy");
    } catch (e2) {
      return false;
    }
  }
}

function render({ model, el }) {
  el.classList.add("lakejoin-code-panel");
  const bar = document.createElement("div");
  bar.className = "lakejoin-code-bar";
  const insert = document.createElement("button");
  insert.className = "lakejoin-insert jupyter-button";
  const copyButton = document.createElement("button");
  copyButton.className = "lakejoin-copy jupyter-button";
  copyButton.textContent = "Copy";
  const status = document.createElement("span");
  status.className = "lakejoin-code-status";
  status.setAttribute("role", "status");
  const pre = document.createElement("pre");
  pre.className = "lakejoin-code";

  function draw() {
    const code = model.get("code");
    const compact = model.get("compact");
    el.classList.toggle("lakejoin-code-compact", compact);
    if (compact) bar.replaceChildren(pre, insert, copyButton, status);
    else bar.replaceChildren(insert, copyButton, status);
    el.replaceChildren(...(compact ? [bar] : [bar, pre]));
    pre.textContent = code;
    el.classList.toggle("lakejoin-code-none", !code);   // a class: layout owns el.style
    status.textContent = model.get("status");
    const nb = notebookModel(model);
    const exists = nb && cellIndex(nb.cells, model.get("key")) >= 0;
    insert.textContent = exists ? "Update cell" : "Insert cell";
    const why = nb ? placement(nb.cells, model.get("root_id"), model.get("after_cells"),
                               model.get("after_last_run")).why : "widget";
    insert.title = exists ? "replace the source of this code's notebook cell"
      : why === "change"
        ? "insert this code as a cell after the cell that changed the query frame, below the "
          + "widget (Run all then joins the frame joined here)"
        : why === "last run"
          ? "insert this code as a cell after the last cell run (the query frame changed after "
            + "the widget's cell)"
          : "insert this code as a cell below the widget";
  }

  function doWrite(requestId, key, code, onlyIfMissing, afterLastRun, afterCells) {
    let result;
    try {
      result = writeCell(model, key, code, el, onlyIfMissing, afterLastRun, afterCells);
    } catch (e) {
      result = { ok: false, how: "none", reason: String(e) };
    }
    const done = (r) => {
      model.send({ type: "written", request: requestId, ...r });
      draw();
      setTimeout(() => keepWidgetUnfolded(model, el), 0);   // after the fold check
    };
    if (result.ok) return done(result);
    copy(code, pre).then((copied) =>
      done({ ok: copied, how: copied ? "clipboard" : "none", reason: result.reason }));
  }

  insert.addEventListener("click", () => doWrite(-1, model.get("key"), model.get("code"), false,
                                                 model.get("after_last_run"),
                                                 model.get("after_cells")));
  copyButton.addEventListener("click", async () => {
    const ok = await copy(model.get("code"), pre);
    model.send({ type: "copied", ok });
  });
  model.on("msg:custom", (msg) => {
    if (msg && msg.type === "write") {
      if (handled.has(msg.token)) return;
      handled.add(msg.token);
      doWrite(msg.request, msg.key, msg.code, Boolean(msg.only_if_missing),
              Boolean(msg.after_last_run), msg.after_cells || []);
    }
  });
  for (const name of ["code", "status", "key", "compact", "after_last_run", "after_cells"]) {
    model.on("change:" + name, draw);
  }
  draw();
  model.send({ type: "ready" });   // the kernel sends again a write this view never saw
  // the widget's output reaches its cell's model shortly after this view is attached
  let tries = 0;
  const unfold = () => {
    if (!keepWidgetUnfolded(model, el) && ++tries < 40) setTimeout(unfold, 250);
  };
  setTimeout(unfold, 0);
}

export { writeCell };   // (tests)
export default { render };
