"""lakejoin_jupyter: interactive join discovery over data lakes, in Jupyter.

    import lakejoin_jupyter as lj
    engine = lj.build_index("data/lake", "data/lake.index")   # or lj.open_index(...)
    engine.search(df, "country", k=10)
"""
from ._version import __version__
from .engine import Engine, Hit, Query, SearchResult, build_index, open_index

__all__ = ["__version__", "Engine", "Hit", "Query", "SearchResult", "build_index", "open_index"]
