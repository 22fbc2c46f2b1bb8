"""Actions on a search hit (join, find a transformation, fuzzy join, choose a predicate).

Each capability registers a :class:`HitAction`; the widget shows a button for every action
that applies to the selected hit and renders its :class:`ActionResult` (summary, tables,
chart, the joined DataFrame and the code that reproduces it). Actions hold no UI code, so
the notebook gains new ones without changes to ui/.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass
class ActionResult:
    title: str
    summary: str = ""                 # plain text / markdown shown above the outputs
    tables: dict = field(default_factory=dict)    # caption -> pandas DataFrame
    chart: object = None              # an altair chart, or None
    joined: object = None             # the joined pandas DataFrame, if the action joins
    code: str | None = None           # Python code that reproduces `joined`
    variable: str | None = None       # suggested variable name for `joined`
    ok: bool = True                   # False: the action found nothing usable (summary says why)
    details: dict = field(default_factory=dict)


@dataclass
class HitAction:
    name: str
    label: str
    run: Callable                     # run(engine, hit, query_frame, **params) -> ActionResult
    applies: Callable = lambda hit: True
    params: tuple = ()                # registry.ParamSpec controls the widget shows
    order: int = 100                  # buttons sorted by this


ACTIONS: dict[str, HitAction] = {}


def register_action(action: HitAction) -> HitAction:
    ACTIONS[action.name] = action
    return action


def actions_for(hit) -> list[HitAction]:
    _load()
    return sorted((a for a in ACTIONS.values() if a.applies(hit)), key=lambda a: a.order)


_loaded = False


def _load() -> None:
    """Import the join modules that register actions."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import pkgutil

    from .. import join as package
    for mod in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not mod.name.endswith(".actions"):
            importlib.import_module(mod.name)
