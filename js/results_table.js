// lakejoin_jupyter: the ranked results table of the discovery widget (anywidget ESM).
// Python (ui/views.py::ResultsTable) sets `columns` ({key, label, kind, sortable?, shrink?:
// a text column that gives up width, its cells cut with an ellipsis, so the table fits;
// ellipsis?: "middle", a path cut in its folders first, then in the middle of its last part
// (its start and its end kept, as formats.py::clip cuts it for the CLI); wrap?: its
// cells wrap onto lines instead of being cut; fold?: a column every row repeats, which a
// narrow box hides, lakejoin.css; fold_at?: a box width (600, 1120) under which the column
// folds, lakejoin.css; placeholder?:
// the key of a text an empty cell shows there, as the folded column would) and
// `rows`; choosing a row sets `selected` (its index in `rows`), which the kernel observes to
// open the detail pane. No build step, no imports: it runs offline in JupyterLab 4 and
// Notebook 7.
//
// Accessibility: an ARIA grid (grid / row / columnheader / gridcell). A header is a button:
// click (or Enter) sorts by that column, again reverses; `aria-sort` says how. Rows are
// reached with Tab (one tab stop, the row last focused), moved through with the arrow keys,
// Home and End, and chosen with Enter or Space (or a click).

// A share: one decimal, or two significant digits below 0.1 % (105 of 878,005 values is
// not "0.0%"); the Python twin is lakejoin_jupyter/formats.py::percent.
function pct(x) {
  if (x === null || x === undefined || Number.isNaN(x)) return "";
  return x === 0 || x >= 0.001 ? (100 * x).toFixed(1) + "%" : (100 * x).toPrecision(2) + "%";
}

const NUMERIC = new Set(["int", "bar", "number"]);

function cell(column, row) {
  const td = document.createElement("td");
  td.setAttribute("role", "gridcell");
  const value = row[column.key];
  td.className = "lakejoin-col-" + column.kind + (column.shrink ? " lakejoin-shrink" : "")
    + (column.wrap ? " lakejoin-wrap" : "") + (column.fold ? " lakejoin-fold" : "")
    + (column.fold_at ? " lakejoin-fold-" + column.fold_at : "");
  if (column.kind === "bar") {
    const bar = document.createElement("div");
    bar.className = "lakejoin-bar";
    bar.setAttribute("aria-hidden", "true");
    const fill = document.createElement("div");
    fill.className = "lakejoin-bar-fill" + (row.exact === false ? " lakejoin-bar-estimated" : "");
    fill.style.width = Math.max(0, Math.min(1, value || 0)) * 100 + "%";
    bar.appendChild(fill);
    const label = document.createElement("span");
    label.className = "lakejoin-bar-label";
    label.textContent = pct(value) + (row.exact === false ? " est." : "");
    td.append(bar, label);
  } else if (column.kind === "int" || column.kind === "number") {
    const empty = value === null || value === undefined;
    const digits = column.digits ? { maximumSignificantDigits: column.digits } : undefined;
    td.textContent = empty ? "" : (column.prefix || "") + Number(value).toLocaleString(undefined, digits);
    if (!empty && column.warn_above !== undefined && Number(value) > column.warn_above) {
      td.classList.add("lakejoin-warn");
    }
  } else if (column.kind === "flag") {
    td.textContent = value ? "exact" : "estimated";
  } else {
    const text = value === null || value === undefined ? "" : String(value);
    td.title = text;
    // the row's marker ("(your table)"), the end of the text: shown whole beside the name
    const mark = column.marker && row[column.marker] && text.endsWith(row[column.marker])
      ? row[column.marker] : "";
    const name = text.slice(0, text.length - mark.length);
    const cut = column.ellipsis === "middle" ? name.lastIndexOf("/", name.length - 2) : -1;
    if (cut > 0) {
      td.classList.add("lakejoin-middle-cell");
      if (mark) td.classList.add("lakejoin-marked");
      td.appendChild(middle(name.slice(0, cut), name.slice(cut + 1), mark.trim()));
    } else td.textContent = text;
    if (!text && column.placeholder && row[column.placeholder]) {
      td.dataset.placeholder = row[column.placeholder];     // shown by lakejoin.css
    }
  }
  return td;
}

// A path cut in the middle ("refer…/country-codes"): its folders give up their width first,
// the "/" before the last part always shown, as formats.py::clip's "…/" ("w…/world_dev…"),
// the last part (what tells two tables apart) only once they are down to an ellipsis, and
// then in its own middle (cutTails); a marker after it ("(your table)") is never cut. The
// column asks for the width of its longest last part and marker (--lakejoin-tail, measured
// once the table is laid out; lakejoin.css caps it), taken from the other text columns.
function middle(head, tail, mark) {
  const box = document.createElement("span");
  box.className = "lakejoin-middle";
  const parts = [["lakejoin-middle-head", head], ["lakejoin-middle-sep", "/"],
                 ["lakejoin-middle-tail", tail]];
  if (mark) parts.push(["lakejoin-middle-mark", "\u00a0" + mark]);
  for (const [cls, text] of parts) {
    const part = document.createElement("span");
    part.className = cls;
    part.textContent = text;
    box.appendChild(part);
  }
  return box;
}

const LONG_NAME = 31;        // characters of a name shown whole where a table has room

function fitTails(table, tries = 0) {
  const tails = table.querySelectorAll(".lakejoin-middle-tail");
  let widest = 0;
  let marks = 0;                                  // the widest marker ("(your table)")
  for (const t of tails) {
    const mark = t.nextElementSibling;           // the marker, beside the last part
    marks = Math.max(marks, mark ? mark.scrollWidth : 0);
    widest = Math.max(widest, t.scrollWidth + (mark ? mark.scrollWidth : 0));
  }
  if (widest > 0) {
    table.style.setProperty("--lakejoin-tail", widest + "px");
    table.style.setProperty("--lakejoin-mark", marks + "px");
    // and of its whole name, which a table with a wrapping column (a transformation
    // search's programs) gives the name up to 12em ("weather/daily", not "weat…/daily")
    // (of names under LONG_NAME characters: a longer one is cut in its folders, and does
    // not take the width of all)
    let full = 0;
    let fullShort = 0;
    for (const box of table.querySelectorAll(".lakejoin-middle")) {
      const w = [...box.children].reduce((sum, c) => sum + c.scrollWidth, 0);
      full = Math.max(full, w);
      if (box.parentElement.title.length < LONG_NAME) fullShort = Math.max(fullShort, w);
    }
    full = fullShort || full;
    table.style.setProperty("--lakejoin-full", full + "px");
    requestAnimationFrame(() => { wholeNames(table); cutTails(table); });
    if (typeof ResizeObserver === "function") {
      const watch = new ResizeObserver(() => {
        if (table.isConnected) { wholeNames(table); cutTails(table); }
        else watch.disconnect();                  // a table redrawn since
      });
      watch.observe(table);
    }
  } else if (tails.length && tries < 600) requestAnimationFrame(() => fitTails(table, tries + 1));
}

// A table with a wrapping column gives its names their whole width (lakejoin-has-wrap: up
// to 12em; with lakejoin-long-names, up to 18em for a table's name and 17em for a column's,
// names under some 30 characters) only where every column still fits its box, the longer
// first: tried again when the box's width changes (not when the table's does, which the
// try itself changes)
function wholeNames(table) {
  const box = table.parentElement;
  if (!table.classList.contains("lakejoin-wraps") || !box) return;
  const width = box.clientWidth;
  if (table.lakejoinBoxWidth === width) return;
  table.lakejoinBoxWidth = width;
  table.classList.add("lakejoin-has-wrap", "lakejoin-long-names");
  for (const name of ["lakejoin-long-names", "lakejoin-has-wrap"]) {
    if (table.getBoundingClientRect().width <= width + 1) break;
    table.classList.remove(name);
  }
}

// A last part wider than its cell is cut in its middle, as the CLI cuts a name
// (formats.py::clip): n characters are its first n - 1 - floor((n - 1) / 2), an ellipsis
// and its last floor((n - 1) / 2), the most that fit ("world_developme…for_testing_cli_cut").
// Its end, often what tells two tables apart (a date, a version), stays in view; the cell's
// title holds the whole name. Done again when the table's width changes.
function middleCut(text, n) {
  const end = Math.floor((n - 1) / 2);
  return text.slice(0, n - 1 - end) + "\u2026" + text.slice(text.length - end);
}

let canvas = null;

function cutTails(table) {
  if (!table.isConnected) return;
  const tails = [...table.querySelectorAll(".lakejoin-middle-tail")];
  for (const t of tails) {
    if (t.dataset.full === undefined) t.dataset.full = t.textContent;
    if (t.textContent !== t.dataset.full) t.textContent = t.dataset.full;
  }
  const cut = tails.filter((t) => t.clientWidth > 0 && t.scrollWidth > t.clientWidth + 0.5)
    .map((t) => [t, t.clientWidth, getComputedStyle(t).font]);
  if (!cut.length) return;
  canvas = canvas || document.createElement("canvas");
  const ctx = canvas.getContext("2d");
  for (const [t, room, font] of cut) {
    const text = t.dataset.full;
    ctx.font = font;
    let lo = 1;                                   // characters shown: the most that fit
    let hi = text.length - 1;
    while (lo < hi) {
      const n = Math.ceil((lo + hi) / 2);
      if (ctx.measureText(middleCut(text, n)).width <= room) lo = n;
      else hi = n - 1;
    }
    t.textContent = middleCut(text, lo);
  }
}

// JupyterLab's and Notebook 7's shortcuts (arrows, Enter, Space move between or run cells)
// must not fire while a row or header has the focus: Lumino skips a keydown whose target
// (or an ancestor below the match) carries this attribute.
function ownKeys(node) {
  node.setAttribute("data-lm-suppress-shortcuts", "true");
  return node;
}

function compare(column, a, b) {
  const x = a[column.key];
  const y = b[column.key];
  const xNull = x === null || x === undefined || x === "";
  const yNull = y === null || y === undefined || y === "";
  if (xNull || yNull) return xNull && yNull ? 0 : xNull ? 1 : -1;   // empty last
  if (NUMERIC.has(column.kind)) return Number(x) - Number(y);
  if (column.kind === "flag") return (x ? 1 : 0) - (y ? 1 : 0);
  return String(x).localeCompare(String(y), undefined, { numeric: true, sensitivity: "base" });
}

function render({ model, el }) {
  el.classList.add("lakejoin-results");
  let sortKey = null;      // the column the user sorted by, or null: the ranking's order
  let sortDir = 1;         // 1 ascending, -1 descending
  let focusIndex = null;   // index in `rows` of the row holding the tab stop

  function order(rows, columns) {
    const idx = rows.map((_, i) => i);
    const column = columns.find((c) => c.key === sortKey);
    if (!column) return idx;
    return idx.sort((i, j) => {
      const c = compare(column, rows[i], rows[j]);
      if (c === 0) return i - j;                           // stable: ties keep the rank order
      const xNull = rows[i][column.key] === null || rows[i][column.key] === undefined;
      const yNull = rows[j][column.key] === null || rows[j][column.key] === undefined;
      return xNull || yNull ? c : sortDir * c;             // empty stays last either way
    });
  }

  function choose(i) {
    model.set("selected", i);
    model.save_changes();
  }

  function draw() {
    const rows = model.get("rows");
    const columns = model.get("columns");
    const selected = model.get("selected");
    const phase = model.get("phase");
    const hadFocus = el.contains(document.activeElement);
    const focusedHeader = hadFocus && document.activeElement.dataset
      ? document.activeElement.dataset.key : undefined;
    el.replaceChildren();
    if (phase) {
      const badge = document.createElement("div");
      badge.className = "lakejoin-phase lakejoin-phase-" + phase.split(" ")[0];
      badge.setAttribute("role", "status");
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
    if (sortKey !== null && !columns.some((c) => c.key === sortKey)) sortKey = null;
    if (focusIndex === null || focusIndex >= rows.length) {
      focusIndex = selected >= 0 && selected < rows.length ? selected : 0;
    }
    const table = document.createElement("table");
    table.className = "lakejoin-table" + (columns.some((c) => c.wrap) ? " lakejoin-wraps" : "");
    table.setAttribute("role", "grid");
    table.setAttribute("aria-label", "joinable columns, ranked");
    table.setAttribute("aria-rowcount", String(rows.length + 1));
    const head = document.createElement("tr");
    head.setAttribute("role", "row");
    for (const c of columns) {
      const th = document.createElement("th");
      th.setAttribute("role", "columnheader");
      th.className = "lakejoin-col-" + c.kind + (c.shrink ? " lakejoin-shrink" : "")
        + (c.fold ? " lakejoin-fold" : "") + (c.fold_at ? " lakejoin-fold-" + c.fold_at : "");
      th.dataset.key = c.key;
      if (c.sortable === false) {
        th.textContent = c.label;
      } else {
        const sorted = c.key === sortKey;
        th.setAttribute("aria-sort", sorted ? (sortDir > 0 ? "ascending" : "descending") : "none");
        const button = ownKeys(document.createElement("button"));
        button.className = "lakejoin-sort";
        button.dataset.key = c.key;
        button.title = c.title ? `${c.title} (sort by ${c.label})` : `sort by ${c.label}`;
        button.textContent = c.label;
        const arrow = document.createElement("span");
        arrow.className = "lakejoin-sort-arrow";
        arrow.setAttribute("aria-hidden", "true");
        arrow.textContent = sorted ? (sortDir > 0 ? " ▲" : " ▼") : "";
        button.appendChild(arrow);
        button.addEventListener("click", () => {
          if (sortKey === c.key) sortDir = -sortDir;
          else {
            sortKey = c.key;
            sortDir = NUMERIC.has(c.kind) ? -1 : 1;   // numbers: largest first
          }
          draw();
        });
        th.appendChild(button);
      }
      head.appendChild(th);
    }
    const thead = document.createElement("thead");
    thead.appendChild(head);
    const tbody = document.createElement("tbody");
    const shown = order(rows, columns);
    shown.forEach((i, position) => {
      const row = rows[i];
      const tr = ownKeys(document.createElement("tr"));
      tr.setAttribute("role", "row");
      tr.setAttribute("aria-rowindex", String(position + 2));
      tr.setAttribute("aria-selected", i === selected ? "true" : "false");
      tr.tabIndex = i === focusIndex ? 0 : -1;
      tr.className = "lakejoin-row" + (i === selected ? " lakejoin-selected" : "") +
        (row.exact === false ? " lakejoin-estimated" : "");
      tr.dataset.index = String(i);
      if (row.table !== undefined) tr.dataset.table = row.table;
      for (const c of columns) tr.appendChild(cell(c, row));
      tr.addEventListener("click", () => {
        focusIndex = i;
        choose(i);
      });
      tr.addEventListener("focus", () => {
        focusIndex = i;
        for (const other of tbody.children) other.tabIndex = other === tr ? 0 : -1;
      });
      tbody.appendChild(tr);
    });
    tbody.addEventListener("keydown", (ev) => {
      const current = ev.target.closest ? ev.target.closest("tr.lakejoin-row") : null;
      if (!current) return;
      const list = [...tbody.children];
      const at = list.indexOf(current);
      let next = null;
      if (ev.key === "ArrowDown") next = list[Math.min(at + 1, list.length - 1)];
      else if (ev.key === "ArrowUp") next = list[Math.max(at - 1, 0)];
      else if (ev.key === "Home") next = list[0];
      else if (ev.key === "End") next = list[list.length - 1];
      else if (ev.key === "Enter" || ev.key === " " || ev.key === "Spacebar") {
        ev.preventDefault();
        ev.stopPropagation();
        choose(Number(current.dataset.index));
        return;
      } else return;
      ev.preventDefault();
      ev.stopPropagation();
      next.focus();
    });
    table.append(thead, tbody);
    el.appendChild(table);
    if (model.get("footnote")) {
      const note = document.createElement("div");
      note.className = "lakejoin-footnote";
      note.textContent = model.get("footnote");
      el.appendChild(note);
    }
    fitTails(table);       // (not laid out yet, or in a hidden tab: on a later frame)
    if (hadFocus) {
      const target = focusedHeader !== undefined
        ? thead.querySelector(`button[data-key="${CSS.escape(focusedHeader)}"]`)
        : tbody.querySelector(`tr[data-index="${focusIndex}"]`);
      if (target) target.focus();
    }
  }

  for (const name of ["rows", "columns", "selected", "phase", "empty_text", "footnote"]) {
    model.on("change:" + name, draw);
  }
  draw();
}

export default { render };
