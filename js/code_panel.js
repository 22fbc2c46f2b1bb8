// lakejoin_jupyter: the generated code of an action, with "Insert as next cell" and "Copy"
// (anywidget ESM, ui/widget.py::CodePanel).
//
// Inserting a cell: JupyterLab 4 and Notebook 7 both render widgets through
// @jupyter-widgets/jupyterlab-manager, whose widget manager holds the document context;
// its notebook model (a shared YNotebook) is what JupyterLab's own set_next_input handling
// edits. We find the code cell whose outputs display the discovery widget (its model id is
// `root_id`) and insert the new cell after it (or after the cell we inserted last), as
// set_next_input would. Frontends without that model (classic notebook, VS Code, Colab)
// get the code copied to the clipboard instead, and the code stays visible to copy by hand.

const handled = new Set();   // insert requests already served (a model may have two views)

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

function insertBelow(model, code) {
  const nb = notebookModel(model);
  if (!nb) return { ok: false, how: "none", reason: "this frontend exposes no notebook model" };
  const cells = nb.cells;
  const lastId = model.get("last_cell_id");
  let at = -1;
  if (lastId) at = cells.findIndex((c) => c.id === lastId);
  if (at < 0) at = widgetCellIndex(cells, model.get("root_id"));
  const index = at < 0 ? cells.length : at + 1;
  const cell = nb.insertCell(index, { cell_type: "code", source: code, metadata: {} });
  if (cell && cell.id) {
    model.set("last_cell_id", cell.id);
    model.save_changes();
  }
  return { ok: true, how: "notebook", index };
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
  insert.textContent = "Insert as next cell";
  const copyButton = document.createElement("button");
  copyButton.className = "lakejoin-copy jupyter-button";
  copyButton.textContent = "Copy";
  const status = document.createElement("span");
  status.className = "lakejoin-code-status";
  bar.append(insert, copyButton, status);
  const pre = document.createElement("pre");
  pre.className = "lakejoin-code";
  el.append(bar, pre);

  function draw() {
    const code = model.get("code");
    pre.textContent = code;
    el.style.display = code ? "" : "none";
    status.textContent = model.get("status");
  }

  async function doInsert(requestId) {
    const code = model.get("code");
    let result = insertBelow(model, code);
    if (!result.ok) {
      const copied = await copy(code, pre);
      result = { ok: copied, how: copied ? "clipboard" : "none", reason: result.reason };
    }
    model.send({ type: "inserted", request: requestId, ...result });
  }

  insert.addEventListener("click", () => doInsert(-1));
  copyButton.addEventListener("click", async () => {
    const ok = await copy(model.get("code"), pre);
    model.send({ type: "copied", ok });
  });
  model.on("msg:custom", (msg) => {
    if (msg && msg.type === "insert") {
      const key = model.get("root_id") + ":" + msg.request;
      if (handled.has(key)) return;
      handled.add(key);
      doInsert(msg.request);
    }
  });
  model.on("change:code", draw);
  model.on("change:status", draw);
  draw();
}

export default { render };
