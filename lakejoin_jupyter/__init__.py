"""lakejoin_jupyter: interactive join discovery over data lakes, in Jupyter.

    import lakejoin_jupyter as lj
    engine = lj.build_index("data/lake", "data/lake.index")   # or lj.open_index(...)
    engine.search(df, "country", k=10)

In a notebook: ``%load_ext lakejoin_jupyter`` (magics.py: ``%lakejoin``) and
``lakejoin_jupyter.widget(engine)`` for the discovery widget.
"""
from ._version import __version__
from .engine import Engine, Hit, Query, SearchResult, build_index, open_index

__all__ = ["__version__", "Engine", "Hit", "Query", "SearchResult", "build_index", "open_index",
           "load_ipython_extension", "unload_ipython_extension", "widget"]


def load_ipython_extension(ipython):
    """``%load_ext lakejoin_jupyter``: the ``%lakejoin`` magics, offline altair charts."""
    from .magics import load_ipython_extension as load
    load(ipython)


def unload_ipython_extension(ipython):
    from .magics import unload_ipython_extension as unload
    unload(ipython)


def widget(engine=None, **kw):
    """The discovery widget over ``engine`` (default: the index opened by ``%lakejoin``)."""
    from .ui.widget import DiscoveryWidget
    return DiscoveryWidget(engine, **kw)
