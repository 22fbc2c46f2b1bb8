"""The search methods the engine offers, registered by the modules that implement them.

A method is a function ``run(index, query, params) -> list[Candidate]``; the engine turns
candidates into :class:`~lakejoin_jupyter.engine.Hit` objects (names, containment, matched
values) so every method reports the same fields. Front ends list ``available(index)`` and
gain new methods without changes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Candidate:
    """One result of a search method, before the engine names and decorates it."""
    column_ids: tuple            # candidate column(s); one per query column for multi-column
    score: float                 # the method's ranking score (higher is better)
    overlap: int | None = None   # exact |Q ∩ X| (distinct values / key tuples), when known
    exact: bool = True           # score and overlap are exact (not estimated)
    estimated_containment: float | None = None
    details: dict = field(default_factory=dict)   # method-specific (mapping, pairs, ...)


@dataclass
class ParamSpec:
    """A tunable parameter of a method or action, so front ends can draw a control for it."""
    name: str                    # keyword passed in SearchParams.options (or k / threshold)
    label: str
    kind: str = "float"          # "int" | "float" | "choice" | "bool"
    default: object = None
    min: float | None = None
    max: float | None = None
    step: float | None = None
    choices: tuple = ()
    help: str = ""


@dataclass
class SearchParams:
    k: int | None = 10
    threshold: float | None = None
    options: dict = field(default_factory=dict)


@dataclass
class SearchMethod:
    name: str                    # e.g. "josie"
    label: str                   # for menus, e.g. "Exact top-k (JOSIE)"
    kind: str                    # "exact" | "approximate"
    run: Callable                # run(index, query, params) -> list[Candidate]
    requires: tuple = ()         # index components it needs
    multi_column: bool = False   # takes several query columns (composite keys)
    single_column: bool = True
    needs_threshold: bool = False
    priority: int = 0            # "auto" picks the available method with the highest priority
    description: str = ""
    score_name: str = "overlap"
    params: tuple = ()           # ParamSpec of method-specific options (beyond k, threshold)


METHODS: dict[str, SearchMethod] = {}


def register_method(method: SearchMethod) -> SearchMethod:
    METHODS[method.name] = method
    return method


def available(index) -> list[SearchMethod]:
    _load_builtin()
    return [m for m in METHODS.values() if all(index.has(c) for c in m.requires)]


def get(name: str) -> SearchMethod:
    _load_builtin()
    if name not in METHODS:
        raise ValueError(f"Unknown search method {name!r}; available: {sorted(METHODS)}")
    return METHODS[name]


_loaded = False


def _load_builtin() -> None:
    """Import every module of the search package once; modules register their methods on
    import, so adding a method means adding a module, nothing else."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import pkgutil

    from .. import search
    for mod in pkgutil.iter_modules(search.__path__):
        if mod.name != "registry":
            importlib.import_module(f"{search.__name__}.{mod.name}")
