"""The actions on a hit, one tab each: the action's full label, its own labeled parameters,
the variable the joined frame goes to, a Run button, the result and the code.

Controls follow the action's ``ParamSpec``s (actions.py), so a new action gets its tab
without changes here. A parameter whose default is None is the action's own choice (the
fuzzy join's threshold): its control starts in an "auto" state that says so, and after a
run shows the value the action chose (``ActionResult.chosen``) until the user sets one.
Summaries are the actions' Markdown, rendered (render.markdown_html). Running is the
composition's business (widget.py): a tab only calls ``on_run(name)``.
"""
from __future__ import annotations

import html

import ipywidgets as W
import pandas as pd

from .render import frame_html, markdown_html
from .views import CodePanel

LABEL_WIDTH = "170px"


def control_for(spec, labeled: bool = False):
    """An ipywidgets control for a registry.ParamSpec, labeled with ``spec.label`` (an
    AutoFloat only if ``labeled``: an action's tab labels its rows itself)."""
    if spec.kind == "float" and spec.default is None:
        return AutoFloat(spec, labeled)
    style = {"description_width": "initial"}
    common = dict(description=spec.label, style=style, tooltip=spec.help or spec.label)
    # a self-labeled box: room for its label and about eight digits (the label would squeeze
    # a fixed-width box's input to nothing: "Values scanned for gram partners" and 10000000)
    boxed = W.Layout(width=f"{max(200, 7 * len(spec.label or '') + 110)}px")
    if spec.kind == "bool":
        return W.Checkbox(value=bool(spec.default), indent=False, **common)
    if spec.kind == "choice":
        choices = list(spec.choices)
        value = spec.default if spec.default in choices else (choices[0] if choices else None)
        return W.Dropdown(options=choices, value=value, layout=W.Layout(width="220px"), **common)
    if spec.kind == "str":
        return W.Text(value=spec.default or "", layout=W.Layout(width="220px"), **common)
    if spec.kind == "int":
        value = int(spec.default if spec.default is not None else (spec.min or 0))
        if spec.min is not None and spec.max is not None:
            return W.BoundedIntText(value=value, min=int(spec.min), max=int(spec.max),
                                    step=int(spec.step or 1), layout=boxed, **common)
        return W.IntText(value=value, layout=boxed, **common)
    value = float(spec.default if spec.default is not None else (spec.min or 0.0))
    if spec.min is not None and spec.max is not None:
        return W.FloatSlider(value=value, min=float(spec.min), max=float(spec.max),
                             step=float(spec.step or (spec.max - spec.min) / 100),
                             readout_format=".2f", continuous_update=False, **common)
    return W.FloatText(value=value, layout=boxed, **common)


class AutoFloat(W.HBox):
    """A float the action (or method) chooses unless the user sets one: its label (if
    ``labeled``), an "auto" checkbox, a slider that is off while auto is on and then reads
    "auto", and a note of what auto means or chose. ``value`` is None in the auto state
    (what the action takes as "choose it yourself")."""

    def __init__(self, spec, labeled: bool = False):
        self.spec = spec
        self.label = W.HTML(f"<label class='lakejoin-param-label' title='{html.escape(spec.name)}'>"
                            f"{html.escape(spec.label or spec.name)}</label>",
                            layout=W.Layout(min_width="max-content"))
        self.auto = W.Checkbox(value=True, description="auto", indent=False,
                               layout=W.Layout(width="64px"))
        lo = float(spec.min if spec.min is not None else 0.0)
        hi = float(spec.max if spec.max is not None else 1.0)
        self.slider = W.FloatSlider(value=lo, min=lo, max=hi, step=float(spec.step or (hi - lo) / 100),
                                    readout_format=".3f", continuous_update=False, disabled=True,
                                    layout=W.Layout(width="260px"))
        self.readout = W.HTML(layout=W.Layout(width="56px"))     # "auto" in place of a number
        self.readout.add_class("lakejoin-auto-readout")
        self.note = W.HTML(layout=W.Layout(flex="1 1 12em", min_width="0"))
        self.chosen = None
        self.ran = False                  # a run reported its choice (chosen may be None)
        self.scale = None                 # the run's range text (ActionResult.ranges)
        super().__init__([self.label] * labeled + [self.auto, self.slider, self.readout,
                                                   self.note],
                         layout=W.Layout(align_items="center", flex_flow="row wrap"))
        self.add_class("lakejoin-auto-float")
        self.auto.observe(lambda _: self._sync(), "value")
        self._sync()

    @property
    def value(self):
        return None if self.auto.value else float(self.slider.value)

    @value.setter
    def value(self, v):
        if v is None:
            self.auto.value = True
        else:
            self.slider.value = float(v)
            self.auto.value = False

    def show_chosen(self, value) -> None:
        """After a run: the value the action chose (None: it could not choose one)."""
        self.chosen, self.ran = value, True
        if value is not None and self.auto.value:
            self.slider.value = float(value)
        self._sync()

    def set_range(self, low: float, high: float, what: str) -> None:
        """The range a run allows (the fuzzy join's chosen function's distances): the
        slider's bounds, and ``what`` (e.g. "of 0..1.41, the distances of join function
        char3") in the note."""
        low, high = float(low), float(high)
        s = self.slider
        if low > s.max:                   # (ipywidgets refuses min > max in between)
            s.max = high
            s.min = low
        else:
            s.min = low
            s.max = high
        self.scale = what
        self._sync()

    def reset_range(self) -> None:
        """Another hit: the parameter's own bounds, until a run says its range."""
        self.set_range(self.spec.min if self.spec.min is not None else 0.0,
                       self.spec.max if self.spec.max is not None else 1.0, None)

    def forget_chosen(self) -> None:
        """The inputs of the choice changed (another hit, another target): back to the
        plain auto note."""
        self.chosen, self.ran = None, False
        self._sync()

    def _sync(self):
        self.slider.disabled = self.auto.value
        self.slider.readout = not self.auto.value
        self.readout.value = "auto" if self.auto.value else ""
        self.readout.layout.display = "" if self.auto.value else "none"
        what = html.escape(self.spec.help or "chosen by the action")
        scale = f" ({html.escape(self.scale)})" if self.scale else ""
        if not self.auto.value:
            text = "set by you" + (f", {html.escape(self.scale)}" if self.scale else "") + (
                f" (the action chose {self.chosen:.3f})" if self.chosen is not None else "")
        elif self.chosen is not None:
            text = f"{what}: <b>{self.chosen:.3f}</b>{scale}"
        elif self.ran:
            text = f"{what}: none reaches it; untick auto to set one{scale}"
        else:
            text = what
        self.note.value = f"<span class='lakejoin-param-note'>{text}</span>"


def _help_html(text: str) -> str:
    return f"<span class='lakejoin-param-help'>{html.escape(text or '')}</span>"


class ActionTab(W.VBox):
    """One action's tab: help, labeled parameters, target variable, Run, result, code."""

    def __init__(self, action, on_run):
        self.action = action
        self.controls = {p.name: control_for(p) for p in action.params}
        self.rows = {}                             # parameter -> its row (hidden when not offered)
        rows = []
        for p in action.params:
            c = self.controls[p.name]
            if not isinstance(c, AutoFloat):
                c.description = ""                 # the row's label says it, in full
            if isinstance(c, W.Checkbox):
                c.layout.width = "auto"
            label = W.HTML(f"<label class='lakejoin-param-label' title='{html.escape(p.name)}'>"
                           f"{html.escape(p.label)}</label>", layout=W.Layout(width=LABEL_WIDTH,
                                                                               min_width=LABEL_WIDTH))
            # the note takes the rest of the row, or goes under it when less than 16em is
            # left (a narrow notebook), never one word a line
            help_ = [] if isinstance(c, AutoFloat) else [
                W.HTML(_help_html(p.help), layout=W.Layout(flex="1 1 16em", min_width="0"))]
            row = W.HBox([label, c, *help_], layout=W.Layout(align_items="center",
                                                             flex_flow="row wrap"))
            row.add_class(f"lakejoin-param-{p.name}")
            rows.append(row)
            self.rows[p.name] = row
        self.variable = W.Text(layout=W.Layout(width="300px", max_width="100%"),
                               tooltip="the variable the joined DataFrame is bound to")
        self.run_button = W.Button(description=action.label, button_style="primary",
                                   tooltip=action.help or action.label,
                                   layout=W.Layout(width="auto", min_width="max-content"))
        self.run_button.add_class(f"lakejoin-action-{action.name}")
        self.run_button.add_class("lakejoin-action-run")
        self.run_button.on_click(lambda _: on_run(action.name))
        into = W.HBox([W.HTML("<label class='lakejoin-param-label'>Result variable</label>",
                              layout=W.Layout(width=LABEL_WIDTH, min_width=LABEL_WIDTH)),
                       self.variable], layout=W.Layout(align_items="center",
                                                       flex_flow="row wrap"))
        self.summary = W.HTML()
        self.summary.add_class("lakejoin-action-summary")
        # no inner scroll box: a fuzzy join's pairs to check and its estimates need the room
        self.output = W.Output(layout=W.Layout(width="100%", overflow="auto"))
        self.output.add_class("lakejoin-action-out")
        self.code_panel = CodePanel(layout=W.Layout(width="100%"))
        self.result = None
        self.default_variable = ""
        super().__init__([W.HTML(f"<div class='lakejoin-action-help'>"
                                 f"{html.escape(action.help)}</div>"),
                          *rows, into, W.HBox([self.run_button]), self.summary, self.output,
                          self.code_panel])
        self.add_class("lakejoin-action-tab")
        self.add_class(f"lakejoin-tab-{action.name}")
        target = next((c for c in self.controls.values() if isinstance(c, AutoFloat)), None)
        if target is not None:           # the choice depends on the other parameters
            for other in self.controls.values():
                if other is not target:
                    other.observe(lambda _: target.forget_chosen(), "value")

    def values(self) -> dict:
        """The parameters to run with (None where the action chooses)."""
        return {n: c.value for n, c in self.controls.items()}

    def offer(self, hit) -> list:
        """Show the parameters the action offers for ``hit`` (the Join's *Per key* only for a
        lake key that repeats); a hidden one goes back to its default. Returns their names."""
        offered = [p.name for p in self.action.params_for(hit)]
        for p in self.action.params:
            shown = p.name in offered
            self.rows[p.name].layout.display = "" if shown else "none"
            c = self.controls[p.name]
            if not shown and not isinstance(c, AutoFloat):
                c.value = control_for(p).value
        return offered

    def reset(self, variable: str) -> None:
        """A new hit: no result yet, the action's own variable for it."""
        self.result = None
        self.default_variable = variable
        self.variable.value = variable
        self.summary.value = ""
        self.output.outputs = ()
        self.code_panel.code = ""
        self.code_panel.status = ""
        for c in self.controls.values():
            if isinstance(c, AutoFloat):
                c.forget_chosen()
                c.reset_range()

    def wanted_variable(self) -> str | None:
        """The name the user typed, or None for the action's own (stable) name."""
        v = (self.variable.value or "").strip()
        return None if not v or v == self.default_variable else v

    def show_error(self, text: str) -> None:
        self.summary.value = (f"<div class='lakejoin-status-error'>"
                              f"{html.escape(text)}</div>")

    def show_result(self, result, variable: str | None, code: str | None,
                    bound: str | None = None) -> None:
        """Render an ActionResult: title and Markdown summary, tables, chart, code."""
        self.result = result
        for name, (low, high, what) in (getattr(result, "ranges", None) or {}).items():
            c = self.controls.get(name)
            if isinstance(c, AutoFloat):      # before the choice, which lies in it
                c.set_range(low, high, what)
        for name, value in (result.chosen or {}).items():
            c = self.controls.get(name)
            if isinstance(c, AutoFloat):
                c.show_chosen(value)
        color = "" if result.ok else " lakejoin-status-note"
        where = (f"<p style='margin:2px 0'>Bound to <code>{html.escape(bound)}</code>.</p>"
                 if bound else "")
        refused = getattr(result, "refused", None)
        said = (f"<div class='lakejoin-status-error'>{html.escape(refused)}</div>" if refused
                else markdown_html(result.summary))
        self.summary.value = (f"<div class='lakejoin-action-title{color}'>"
                              f"{html.escape(result.title)}</div>" + said + where)
        from IPython.display import HTML
        objs = []
        for caption, df in (result.tables or {}).items():
            if isinstance(df, pd.DataFrame):
                objs.append(HTML(frame_html(df, caption,
                                            (result.rows_shown or {}).get(caption, 10),
                                            index=caption not in result.no_index)))
            else:                                 # anything else an action returns: as text
                objs.append(HTML(f"<b>{html.escape(str(caption))}</b><pre>"
                                 f"{html.escape(str(df))}</pre>"))
        if result.chart is not None:              # look first, then read (unless a table
            from ..charts import themed               # must come first: pairs to check)
            objs.insert(result.tables_first, themed(result.chart))
        show(self.output, *objs)
        if variable:
            self.variable.value = variable
        self.code_panel.code = code or ""
        self.code_panel.status = ""


class ActionsPanel(W.Tab):
    """One :class:`ActionTab` per action that applies to the selected hit."""

    def __init__(self, actions, on_run):
        self.tabs = {a.name: ActionTab(a, on_run) for a in actions}
        self._actions = list(actions)
        super().__init__()
        self.add_class("lakejoin-actions")

    def show_hit(self, hit, variable_for) -> list[str]:
        """Show the tabs of the actions applying to ``hit``; each starts with the variable
        ``variable_for(action)`` and no result. Returns their names."""
        names = [a.name for a in self._actions if a.applies(hit)]
        keep = self.titles[self.selected_index] if self.selected_index is not None and \
            self.selected_index < len(self.titles) else None
        for n in names:
            self.tabs[n].reset(variable_for(self.tabs[n].action))
            self.tabs[n].offer(hit)
        self.children = [self.tabs[n] for n in names]
        self.titles = [self.tabs[n].action.label for n in names]
        labels = list(self.titles)
        self.selected_index = labels.index(keep) if keep in labels else (0 if names else None)
        return names

    @property
    def shown(self) -> dict:
        return {t.action.name: t for t in self.children}

    def select(self, name: str) -> None:
        names = list(self.shown)
        if name in names:
            self.selected_index = names.index(name)

    def set_busy(self, busy: bool) -> None:
        for t in self.tabs.values():
            t.run_button.disabled = busy


def show(out: W.Output, *objs) -> None:
    """Replace an Output's content through its synced ``outputs`` trait: safe from
    background threads (``with out:`` and ``clear_output`` route through the kernel's
    current parent message, which a worker thread does not have)."""
    out.outputs = ()
    for o in objs:
        out.append_display_data(o)
