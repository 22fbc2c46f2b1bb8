"""Notebook front end: the discovery widget (widget.py), altair charts (charts.py), the
session the magics and the widget share (session.py) and background tasks (tasks.py)."""


def __getattr__(name):
    # lazy: importing lakejoin_jupyter.ui.session must not pull in ipywidgets/anywidget
    if name in ("DiscoveryWidget", "ResultsTable", "CodePanel"):
        from . import widget
        return getattr(widget, name)
    raise AttributeError(name)


__all__ = ["DiscoveryWidget", "ResultsTable", "CodePanel"]
