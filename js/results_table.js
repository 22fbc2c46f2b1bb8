// lakejoin_jupyter: the ranked results table of the discovery widget (anywidget ESM).
// Python (ui/widget.py::ResultsTable) sets `columns` and `rows`; a click on a row sets
// `selected`, which the kernel observes to open the detail pane. No build step, no
// imports: it runs offline in JupyterLab 4 and Notebook 7.

function pct(x) {
  return x === null || x === undefined ? "" : (100 * x).toFixed(1) + "%";
}

function cell(column, row) {
  const td = document.createElement("td");
  const value = row[column.key];
  td.className = "lakejoin-col-" + column.kind;
  if (column.kind === "bar") {
    const bar = document.createElement("div");
    bar.className = "lakejoin-bar";
    const fill = document.createElement("div");
    fill.className = "lakejoin-bar-fill" + (row.exact ? "" : " lakejoin-bar-estimated");
    fill.style.width = Math.max(0, Math.min(1, value || 0)) * 100 + "%";
    bar.appendChild(fill);
    const label = document.createElement("span");
    label.className = "lakejoin-bar-label";
    label.textContent = pct(value) + (row.exact ? "" : " est.");
    td.append(bar, label);
  } else if (column.kind === "int") {
    td.textContent = value === null || value === undefined ? "" : Number(value).toLocaleString();
  } else if (column.kind === "flag") {
    td.textContent = value ? "exact" : "estimated";
  } else {
    td.textContent = value === null || value === undefined ? "" : String(value);
    td.title = td.textContent;
  }
  return td;
}

function render({ model, el }) {
  el.classList.add("lakejoin-results");

  function draw() {
    const rows = model.get("rows");
    const columns = model.get("columns");
    const selected = model.get("selected");
    const phase = model.get("phase");
    el.replaceChildren();
    if (phase) {
      const badge = document.createElement("div");
      badge.className = "lakejoin-phase lakejoin-phase-" + phase.split(" ")[0];
      badge.textContent = phase;
      el.appendChild(badge);
    }
    if (!rows.length) {
      const empty = document.createElement("div");
      empty.className = "lakejoin-empty";
      empty.textContent = model.get("empty_text");
      el.appendChild(empty);
      return;
    }
    const table = document.createElement("table");
    table.className = "lakejoin-table";
    const head = document.createElement("tr");
    for (const c of columns) {
      const th = document.createElement("th");
      th.textContent = c.label;
      th.className = "lakejoin-col-" + c.kind;
      head.appendChild(th);
    }
    const thead = document.createElement("thead");
    thead.appendChild(head);
    const tbody = document.createElement("tbody");
    rows.forEach((row, i) => {
      const tr = document.createElement("tr");
      tr.className = "lakejoin-row" + (i === selected ? " lakejoin-selected" : "") +
        (row.exact ? "" : " lakejoin-estimated");
      tr.dataset.index = String(i);
      tr.dataset.table = row.table;
      for (const c of columns) tr.appendChild(cell(c, row));
      tr.addEventListener("click", () => {
        model.set("selected", i);
        model.save_changes();
      });
      tbody.appendChild(tr);
    });
    table.append(thead, tbody);
    el.appendChild(table);
  }

  for (const name of ["rows", "columns", "selected", "phase", "empty_text"]) {
    model.on("change:" + name, draw);
  }
  draw();
}

export default { render };
