"""lakejoin_jupyter: interactive join discovery over data lakes, in Jupyter.

    import lakejoin_jupyter as lj
    engine = lj.build_index("data/lake", "data/lake.index")   # or lj.open_index(...)
    engine.search(df, "country", k=10)

In a notebook: ``%load_ext lakejoin_jupyter`` (magics.py: ``%lakejoin``) and
``lakejoin_jupyter.widget(engine)`` for the discovery widget.
"""
from ._version import __version__

_ENGINE_NAMES = ("Engine", "Hit", "Query", "SearchResult", "build_index", "open_index")

__all__ = ["__version__", "Engine", "Hit", "Query", "SearchResult", "build_index", "open_index",
           "autojoin", "load_ipython_extension", "unload_ipython_extension", "widget"]


def __getattr__(name):
    """The engine's names load on first use, so ``lakejoin index`` does not import the
    search and join layers."""
    if name in _ENGINE_NAMES:
        from . import engine
        return getattr(engine, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_ipython_extension(ipython):
    """``%load_ext lakejoin_jupyter``: the ``%lakejoin`` magics, offline altair charts."""
    from .magics import load_ipython_extension as load
    load(ipython)


def unload_ipython_extension(ipython):
    from .magics import unload_ipython_extension as unload
    unload(ipython)


def autojoin(df, column=None, other=None, other_column=None, **options):
    """Auto-Join (thesis ch. 4): learn the transformation that makes ``df[column]`` equi-join
    ``other[other_column]`` although the two are formatted differently; returns the
    :class:`~lakejoin_jupyter.join.autojoin.AutoJoin` (``.explain()``, ``.join()``,
    ``.code()``). Columns may be omitted (every column is tried, both directions), so
    ``autojoin(df, other)`` works too. ``engine.autojoin`` also takes a lake table name.
    A Spark ``df`` is learned on its first rows (``frames.learning_frame``); its join and
    code are PySpark's."""
    from .frames import is_dataframe
    from .join.autojoin import autojoin as run
    from .join.autojoin import autojoin_query
    if is_dataframe(column) and other is None:
        column, other = None, column            # autojoin(df, other)
    if other is None:
        from .join.autojoin import AutoJoinInputError
        raise AutoJoinInputError("autojoin needs the other table: autojoin(df, column, other, "
                                 "other_column).")
    options.setdefault("left_name", "df")
    options.setdefault("right_name", "other")
    learn, spark = autojoin_query(df, other)
    out = run(learn, other, column, other_column, **options)
    out.spark_query = spark
    return out


def widget(engine=None, **kw):
    """The discovery widget over ``engine`` (default: the index opened by ``%lakejoin``)."""
    from .ui.widget import DiscoveryWidget
    return DiscoveryWidget(engine, **kw)
