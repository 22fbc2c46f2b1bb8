"""What to search with: a DataFrame of the notebook, its column(s), a method with its options,
``k`` and a minimum containment; and the ``%lakejoin search`` (or, in Union mode,
``%lakejoin union``) line that makes that search.

The DataFrame menu follows the notebook's namespace (``refresh_frames`` after every cell);
the method menu lists ``engine.methods()`` fitting the number of columns, with "Auto" first,
and each method's ``ParamSpec`` options become controls.
"""
from __future__ import annotations

import html
import shlex

import ipywidgets as W

from .actions_panel import AutoFloat, control_for
from .session import dataframes_in, is_dataframe

PROGRESSIVE = "auto:progressive"
AUTO_METHODS = ("auto", PROGRESSIVE)


def search_magic(frame: str, columns, *, k: int, save: str, threshold: float | None = None,
                 method: str = "auto", options: dict | None = None,
                 max_values: int | None = None) -> str:
    """The ``%lakejoin search`` line that makes the same search as the widget did."""
    cols = [str(c) for c in columns]
    if len(cols) == 1 and cols[0].isidentifier():
        parts = [f"{frame}.{cols[0]}"]
    else:
        parts = [frame] + [a for c in cols for a in ("-c", shlex.quote(c))]
    parts += ["-k", str(int(k))]
    if threshold is not None:
        parts += ["-t", f"{float(threshold):g}"]
    if method not in AUTO_METHODS:
        parts += ["-m", shlex.quote(method)]
    for name, value in (options or {}).items():
        if value is None:                 # "auto": the method's own default, nothing to write
            continue
        text = {True: "true", False: "false"}.get(value, value) if isinstance(value, bool) else value
        parts += ["-O", shlex.quote(f"{name}={text}")]
    if max_values:
        parts += ["--max-values", str(int(max_values))]
    return "%lakejoin search " + " ".join(parts) + f" --save {save}"


def read_search_line(source: str, frame: str) -> dict | None:
    """The search a cell's ``%lakejoin search`` line states, when it searches ``frame`` as
    the widget could (the inverse of :func:`search_magic`): its ``columns``, ``k``,
    ``threshold``, ``method``, ``options``, ``max_values`` and ``save``. None for a cell
    without exactly one such line, or one the widget cannot make (another frame, a lake
    table, ``--all``, ``--rank overlap``, ``--no-own``)."""
    from ..errors import LakeJoinError
    from ..magics import parse_request
    from ..search.registry import parse_option_items
    lines = [line.strip() for line in source.splitlines()
             if line.strip().startswith("%lakejoin search ")]
    if len(lines) != 1:
        return None
    try:
        a = parse_request(lines[0][len("%lakejoin"):])
        options = parse_option_items(a.option)
    except LakeJoinError:
        return None
    if a.all or a.rank != "useful" or a.no_own:
        return None
    head, dot, rest = a.query.partition(".")
    if a.query == frame and a.column:
        columns = list(a.column)
    elif dot and head == frame:
        columns = [rest] + list(a.column)
    else:
        return None
    return {"columns": columns, "k": a.k, "threshold": a.threshold, "method": a.method,
            "options": options, "max_values": a.max_values, "save": a.save}


def union_magic(frame: str, columns, *, k: int, save: str) -> str:
    """The ``%lakejoin union`` line that makes the same union search as the widget did
    (no columns: every column of the frame)."""
    parts = [frame] + [a for c in columns for a in ("-c", shlex.quote(str(c)))]
    return "%lakejoin union " + " ".join(parts + ["-k", str(int(k)), "--save", save])


class QueryPanel(W.HBox):
    """The query pickers; ``engine`` is a callable returning the open engine (or None)."""

    def __init__(self, namespace: dict, engine):
        self.namespace = namespace
        self._engine = engine
        self.method_controls: dict[str, W.Widget] = {}
        self.method_specs = ()            # the selected method's ParamSpecs
        self._frames_changing = False
        self.frame_picker = W.Dropdown(description="DataFrame", layout=W.Layout(width="300px"))
        self.refresh_button = W.Button(icon="refresh", tooltip="rescan the notebook's DataFrames",
                                       layout=W.Layout(width="36px"))
        self.column_picker = W.SelectMultiple(description="Column(s)", rows=5,
                                              layout=W.Layout(width="300px"))
        self.method_picker = W.Dropdown(description="Method", layout=W.Layout(
            width="380px", max_width="100%"))
        self.k_box = W.BoundedIntText(value=10, min=1, max=10_000, description="k",
                                      layout=W.Layout(width="140px"))
        self.use_threshold = W.Checkbox(value=False, description="min containment", indent=False,
                                        layout=W.Layout(width="auto"))
        self.threshold = W.FloatSlider(value=0.5, min=0.0, max=1.0, step=0.05,
                                       readout_format=".2f", continuous_update=False,
                                       disabled=True, layout=W.Layout(width="200px"),
                                       style={"description_width": "0px"})
        self.method_params = W.VBox()
        self.more_methods = W.HTML(layout=W.Layout(width="380px", max_width="100%"))   # what the index lacks
        self.more_methods.add_class("lakejoin-more-methods")
        self.union_note = W.HTML(
            "<span class='lakejoin-param-help'>Union: the lake tables whose rows stack under "
            "the DataFrame, each with its column alignment. The columns picked are aligned "
            "(none picked: every column).</span>", layout=W.Layout(display="none", width="380px",
                                                max_width="100%"))
        self.union_note.add_class("lakejoin-union-note")
        # the pickers keep their width; the method panel takes the rest (at least 400 px,
        # else it goes below them) and its rows wrap: nothing is cut at any width
        super().__init__([
            W.VBox([W.HBox([self.frame_picker, self.refresh_button],
                           layout=W.Layout(flex="0 0 auto")), self.column_picker],
                   layout=W.Layout(flex="0 0 auto", margin="0 12px 0 0")),
            W.VBox([self.method_picker, self.more_methods, self.union_note,
                    W.HBox([self.k_box, self.use_threshold, self.threshold],
                           layout=W.Layout(flex_flow="row wrap", align_items="center")),
                    self.method_params], layout=W.Layout(flex="1 1 400px", min_width="0")),
        ], layout=W.Layout(flex_flow="row wrap"))
        for w, cls in ((self.frame_picker, "lakejoin-frame"), (self.column_picker, "lakejoin-columns"),
                       (self.method_picker, "lakejoin-method"), (self.refresh_button, "lakejoin-refresh")):
            w.add_class(cls)
        self.refresh_button.on_click(lambda _: self.refresh_frames())
        self.frame_picker.observe(self._on_frame, "value")
        self.column_picker.observe(lambda _: self.refresh_methods(), "value")
        self.method_picker.observe(lambda _: self._refresh_method_params(), "value")
        self.use_threshold.observe(lambda _: self._sync_threshold(), "value")

    def set_mode(self, mode: str) -> None:
        """Join mode shows the method, its options and the minimum containment; Union mode
        none of them (union search weighs its own evidence), and a note of what it searches."""
        union = mode == "union"
        for w in (self.method_picker, self.more_methods, self.use_threshold, self.threshold,
                  self.method_params):
            w.layout.display = "none" if union else ""
        self.union_note.layout.display = "" if union else "none"

    # ------------------------------------------------------------------ frames and columns
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
        if self._frames_changing:
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

    def column_options(self) -> list:
        return [v for _, v in self.column_picker.options]

    # ------------------------------------------------------------------ methods
    def available_methods(self):
        engine = self._engine()
        if engine is None:
            return []
        multi = len(self.column_picker.value) > 1
        return [m for m in engine.methods() if (m.multi_column if multi else m.single_column)]

    def progressive_pair(self, threshold_given: bool):
        """(approximate, exact) methods for progressive results, or None."""
        ms = self.available_methods()
        exact = [m for m in ms if m.kind == "exact"]
        approx = [m for m in ms if m.kind != "exact" and (threshold_given or not m.needs_threshold)]
        if not exact or not approx:
            return None
        return max(approx, key=lambda m: m.priority), max(exact, key=lambda m: m.priority)

    def refresh_methods(self):
        ms = self.available_methods()
        options = []
        if any(m.kind != "exact" for m in ms) and any(m.kind == "exact" for m in ms):
            options.append(("Auto: approximate first, then exact", PROGRESSIVE))
        options.append(("Auto: best exact method", "auto"))
        options += [(f"{m.label} ({m.shown_kind})", m.name) for m in ms]
        engine = self._engine()
        missing = engine.missing_methods() if engine is not None else []
        self.more_methods.value = "" if not missing else (
            "<div class='lakejoin-param-help' style='line-height:1.35'>Not in this index:"
            + "".join(f"<br>{html.escape(m.label)}: <code>{html.escape(how)}</code>"
                      for m, how in missing) + "</div>")
        current = self.method_picker.value
        self.method_picker.options = options
        values = [v for _, v in options]
        self.method_picker.value = current if current in values else values[0]
        self._refresh_method_params()

    def selected_method(self):
        name = self.method_picker.value
        engine = self._engine()
        if name in (None, *AUTO_METHODS) or engine is None:
            return None
        return next((m for m in engine.methods() if m.name == name), None)

    def _refresh_method_params(self):
        m = self.selected_method()
        self.method_specs = tuple(m.params) if m else ()
        self.method_controls = {p.name: control_for(p, labeled=True) for p in self.method_specs}
        for c in self.method_controls.values():      # a long note goes under its slider,
            if isinstance(c, AutoFloat):              # which narrows before it wraps
                c.layout.flex_flow = "row wrap"
                c.slider.layout.flex = "1 1 120px"
                c.slider.layout.max_width = "260px"
                c.note.layout.flex = "1 1 240px"
                c.note.layout.min_width = "0"
        self.method_params.children = list(self.method_controls.values())
        self._sync_threshold()

    def _sync_threshold(self):
        m = self.selected_method()
        needs = bool(m and m.needs_threshold)
        if needs:
            self.use_threshold.value = True
        self.use_threshold.disabled = needs
        self.threshold.disabled = not self.use_threshold.value

    # ------------------------------------------------------------------ the search asked for
    def apply(self, search: dict) -> str | None:
        """Set the method, its options, ``k`` and the minimum containment to those of a
        search (:func:`read_search_line`; the columns are the caller's). None when done,
        else why not (nothing is changed then)."""
        values = [v for _, v in self.method_picker.options]
        method = search["method"]
        if method in AUTO_METHODS:
            method = self.method_picker.value if self.method_picker.value in AUTO_METHODS \
                else "auto"
        if method not in values:
            return f"method {search['method']!r} is not offered for this query"
        m = next((m for m in (self._engine().methods() if self._engine() else ())
                  if m.name == method), None)
        specs = {p.name: p for p in (m.params if m is not None else ())}
        unknown = sorted(set(search["options"]) - set(specs))
        if unknown:
            return f"unknown option(s) {unknown} for {method}"
        try:
            options = {n: specs[n].validate(v, method) for n, v in search["options"].items()}
        except Exception as e:  # noqa: BLE001 - QueryError: a value out of range
            return str(e)
        k = int(search["k"])
        if not self.k_box.min <= k <= self.k_box.max:
            return f"k = {k} is outside {self.k_box.min}..{self.k_box.max}"
        t = search["threshold"]
        if t is not None and not 0.0 <= t <= 1.0:
            return f"a minimum containment of {t} is outside 0..1"
        if self.method_picker.value != method:
            self.method_picker.value = method        # its option controls, at their defaults
        else:
            self._refresh_method_params()
        for name, value in options.items():
            self.method_controls[name].value = value
        self.k_box.value = k
        if t is not None:
            self.threshold.value = float(t)
        self.use_threshold.value = t is not None
        self._sync_threshold()                       # a method that needs one keeps it on
        return None

    def choices(self) -> dict:
        """k, threshold, method and its options as chosen now."""
        return {"k": int(self.k_box.value),
                "threshold": float(self.threshold.value) if self.use_threshold.value else None,
                "method": self.method_picker.value,
                "options": set_options(self.method_specs, self.method_controls)}


def control_values(controls: dict) -> dict:
    """The options of a set of controls. A float option without a default of its own is an
    AutoFloat whose value is None while left on "auto", so the method applies its own
    default (PEXESO's tau is the index's), never the slider's placeholder."""
    return {n: c.value for n, c in controls.items()}


def set_options(specs, controls: dict) -> dict:
    """The options set away from their default (None is "auto"): what the widget's search
    passes and its ``%lakejoin search`` line writes, so the line reproduces the search."""
    values = control_values(controls)
    return {p.name: values[p.name] for p in specs
            if values.get(p.name) is not None and values[p.name] != p.default}
