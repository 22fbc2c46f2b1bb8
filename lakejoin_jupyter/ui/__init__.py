"""Notebook front end: the discovery widget (widget.py, the composition), its anywidget
views (views.py: results table, code panel; one per file of js/), the actions panel
(actions_panel.py: a tab per action), rich display (render.py), the session the magics and
the widget share (session.py) and background tasks (tasks.py)."""


def __getattr__(name):
    # lazy: importing lakejoin_jupyter.ui.session must not pull in ipywidgets/anywidget
    if name == "DiscoveryWidget":
        from . import widget
        return widget.DiscoveryWidget
    if name in ("ResultsTable", "CodePanel"):
        from . import views
        return getattr(views, name)
    raise AttributeError(name)


__all__ = ["DiscoveryWidget", "ResultsTable", "CodePanel"]
