"""Rich display of what the front ends show outside the widget (magics) and inside it.

What the magics display is a :class:`Rich`: HTML for a notebook, plain text for a terminal
IPython (which would otherwise print ``<IPython.core.display.HTML object>``).

``ActionResult`` rendering is generic: summary, tables, chart, joined preview and code,
whatever the action (join, transformation, fuzzy join, predicate) filled in. Summaries are
the small Markdown the actions write (paragraphs, ``**bold**``, ``*italic*``, `` `code` ``),
rendered by :func:`markdown_html`; anything else in them is shown as text.
"""
from __future__ import annotations

import html
import re

import pandas as pd

_CODE = re.compile(r"((?<!`)`+)(?!`)(.+?)(?<!`)\1(?!`)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_HELD = re.compile("\x00([0-9]+)\x00")     # a code span set aside while emphasis is read
_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")


class Rich:
    """A display object with HTML (notebooks) and plain text (terminals) forms."""

    def __init__(self, html_text: str, text: str):
        self.html, self.text = html_text, text

    def _repr_html_(self) -> str:
        return self.html

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(self.text)

    def __repr__(self) -> str:
        return self.text


def code_html(code: str) -> str:
    return (f"<pre class='lakejoin-code' style='white-space:pre;overflow-x:auto;"
            f"background:#f6f8fa;padding:6px;border:1px solid #e1e4e8;border-radius:4px'>"
            f"{html.escape(code)}</pre>")


def _inline(text: str) -> str:
    """A line's `` `code` `` spans formatted, then its emphasis over the whole line (a bold
    run may hold a code span: ``**values of `tail` ...**``)."""
    codes: list = []

    def hold(m) -> str:                     # `code` or ``code with `backticks` ``
        code = m.group(2)
        if len(code) > 2 and code.startswith(" ") and code.endswith(" "):
            code = code[1:-1]
        codes.append(f"<code>{html.escape(code)}</code>")
        return f"\x00{len(codes) - 1}\x00"
    out = _emphasis(_CODE.sub(hold, text.replace("\x00", "")))
    return _HELD.sub(lambda m: codes[int(m.group(1))], out)


def _emphasis(text: str) -> str:
    return _ITALIC.sub(r"<i>\1</i>", _BOLD.sub(r"<b>\1</b>", html.escape(text)))


def markdown_html(text: str) -> str:
    """An action's Markdown summary as HTML: blank lines separate paragraphs, a single
    newline is a line break; ``**bold**``, ``*italic*`` and `` `code` `` are formatted and
    everything else (``<``, ``&``, stray ``*``) is escaped text."""
    paras = [p.strip() for p in re.split(r"\n\s*\n", str(text or "")) if p.strip()]
    return "".join("<p style='margin:2px 0'>" + "<br>".join(_inline(line) for line in
                                                            p.splitlines()) + "</p>"
                   for p in paras)


def markdown_text(text: str) -> str:
    """An action's Markdown summary as plain text (a terminal's text/plain): ``**bold**``
    and ``*italic*`` lose their asterisks, also around a code span; `` `code` `` and
    everything else is kept."""
    codes: list = []

    def hold(m) -> str:
        codes.append(m.group(0))
        return f"\x00{len(codes) - 1}\x00"
    out = _plain(_CODE.sub(hold, str(text or "").replace("\x00", "")))
    return _HELD.sub(lambda m: codes[int(m.group(1))], out)


def _plain(text: str) -> str:
    return _ITALIC.sub(r"\1", _BOLD.sub(r"\1", text))


def shape_text(df: pd.DataFrame, max_rows: int, total_rows: int | None = None,
               times: str = "x") -> str:
    """"249 rows x 2 columns", or "first 8 of 249 rows x 2 columns" when ``df`` holds only
    the first rows of a ``total_rows`` table."""
    total = len(df) if total_rows is None else max(int(total_rows), len(df))
    shown = min(len(df), max_rows)
    rows = f"first {shown:,} of {total:,} rows" if shown < total else f"{total:,} rows"
    return f"{rows} {times} {df.shape[1]} columns"


def frame_html(df: pd.DataFrame, caption: str = "", max_rows: int = 10,
               total_rows: int | None = None, index: bool = True) -> str:
    """The first ``max_rows`` rows as HTML, with the frame's size under them (``total_rows``:
    the table's rows, when ``df`` is its first rows); ``index``: show pandas' index."""
    head = df.head(max_rows)
    cap = (f"<div style='font-weight:600;margin-top:6px;overflow-wrap:anywhere'>"
           f"{html.escape(caption)}</div>" if caption else "")
    more = f"<div style='color:#666'>{shape_text(df, max_rows, total_rows, '&times;')}</div>"
    return cap + head.to_html(max_cols=14, notebook=True, escape=True, na_rep="",
                              index=index, formatters=_decimals(df)) + more


def _decimals(df: pd.DataFrame) -> dict | None:
    """Per-column formatters from ``df.attrs["decimals"]`` ({column: decimals}), so a column
    rounded to 3 decimals reads "1.000" in every table, not "1.0" where the rows shown
    happen to hold only round values (pandas picks the precision from the values)."""
    places = df.attrs.get("decimals") or {}
    return {c: (lambda x, d=d: "" if pd.isna(x) else f"{x:.{d}f}")
            for c, d in places.items() if c in df.columns} or None


def frame_text(df: pd.DataFrame, caption: str = "", max_rows: int = 10,
               total_rows: int | None = None, index: bool = True) -> str:
    """:func:`frame_html` as text."""
    body = df.head(max_rows).to_string(max_cols=14, max_colwidth=40, na_rep="", index=index,
                                       formatters=_decimals(df))
    return "\n".join(x for x in (caption, body, shape_text(df, max_rows, total_rows)) if x)


def display_action_result(result, bound_as: str | None = None, code: str | None = None) -> None:
    """Show an ActionResult in a cell (used by ``%lakejoin join`` and the widget's Output)."""
    from IPython.display import display
    color = "#1a7f37" if result.ok else "#b35900"
    parts = [f"<div style='font-weight:600;color:{color}'>{html.escape(result.title)}</div>",
             markdown_html(result.summary)]
    text = [result.title, markdown_text(result.summary).strip()]
    if bound_as:
        parts.append(f"<p style='margin:2px 0'>Bound to <code>{html.escape(bound_as)}</code>.</p>")
        text.append(f"Bound to {bound_as}.")
    for caption, df in (result.tables or {}).items():
        if isinstance(df, pd.DataFrame):
            rows = (getattr(result, "rows_shown", None) or {}).get(caption, 10)
            index = caption not in (getattr(result, "no_index", None) or ())
            parts.append(frame_html(df, caption, rows, index=index))
            text.append(frame_text(df, caption, rows, index=index))
    display(Rich("".join(parts), "\n".join(t for t in text if t)))
    if result.chart is not None:          # (follows the notebook's theme: charts.themed)
        from ..charts import themed
        display(themed(result.chart))
    if code:
        display(Rich(code_html(code), code.rstrip("\n")))


def info_display(lines: list, methods: list, actions: list, subcommands: list) -> Rich:
    """``%lakejoin info``: the index's report (``lines``: index_report.index_lines, the one
    ``lakejoin info`` prints), its search methods, the actions and the subcommands, as HTML
    (:func:`info_html`) and as text."""
    text = list(lines) + ["", "Search methods:"]
    text += [f"  {m.name:<14} {m.label} ({m.shown_kind}"
             + (", multi-column" if m.multi_column else "")
             + (", needs threshold" if m.needs_threshold else "")
             + (f"; options: {', '.join(p.name for p in m.params)}" if m.params else "") + ")"
             for m in methods]
    text += ["", "Actions on a hit: " + ", ".join(f"{a.label} ({a.name})" for a in actions),
             "Magic subcommands: " + ", ".join(subcommands)]
    return Rich(info_html(lines, methods, actions, subcommands), "\n".join(text))


def info_html(lines: list, methods: list, actions: list, subcommands: list) -> str:
    t = html.escape("\n".join(lines))
    m = "".join(
        f"<tr><td><code>{html.escape(x.name)}</code></td><td>{html.escape(x.label)}</td>"
        f"<td>{x.shown_kind}</td><td>{'yes' if x.multi_column else ''}</td>"
        f"<td>{'yes' if x.needs_threshold else ''}</td>"
        f"<td>{html.escape(', '.join(p.name for p in x.params))}</td></tr>" for x in methods)
    a = ", ".join(f"{html.escape(x.label)} (<code>{html.escape(x.name)}</code>)" for x in actions)
    s = ", ".join(f"<code>{html.escape(x)}</code>" for x in subcommands)
    # the report as ``lakejoin info`` prints it, wrapped where the cell is narrower
    return (f"<pre style='white-space:pre-wrap;overflow-wrap:anywhere;margin:0'>{t}</pre>"
            f"<div style='font-weight:600;margin-top:6px'>Search methods</div>"
            f"<table><tr><th>name</th><th>label</th><th>kind</th><th>multi-column</th>"
            f"<th>needs threshold</th><th>options</th></tr>{m}</table>"
            f"<p>Actions on a hit: {a}</p><p>Magic subcommands: {s}</p>")
