"""What a search method is: its declared options, what it returns, how the engine runs it.

Each search module defines ``METHOD = SearchMethod(...)``; the engine holds the explicit list
of methods it offers (engine.SEARCH_METHODS). A method's options are declared once, as
:class:`ParamSpec` (name, type, default, range); the engine validates what a caller passes
(:meth:`SearchMethod.resolve_options`) and hands the method a complete, typed dict, so no
method re-declares a default or ignores a misspelled option. ``run(index, query, params)``
returns ``(list[Candidate], stats dict)``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from ..errors import QueryError, a_kind


@dataclass
class Candidate:
    """One result of a search method, before the engine names and decorates it."""
    column_ids: tuple            # candidate column(s); one per query column for multi-column
    score: float                 # the method's ranking score (higher is better)
    overlap: int | None = None   # exact |Q ∩ X| (distinct values / key tuples), when known
    exact: bool = True           # score and overlap are exact (not estimated)
    estimated_containment: float | None = None
    details: dict = field(default_factory=dict)   # method-specific (mapping, pairs, ...)


KINDS = ("int", "float", "choice", "bool", "str")


@dataclass
class ParamSpec:
    """A typed option of a method or action: front ends draw a control for it, the engine
    validates values against it. ``default=None`` means "the method decides" (None is then
    an accepted value)."""
    name: str
    label: str
    kind: str = "float"          # one of KINDS
    default: object = None
    min: float | None = None
    max: float | None = None
    step: float | None = None
    choices: tuple = ()
    help: str = ""

    def validate(self, value, owner: str = "option"):
        """``value`` checked against the declaration (ints are accepted for floats; nothing
        else is converted): returns it, or raises QueryError saying what is expected."""
        where = f"{owner} {self.name!r}"
        if value is None:
            if self.default is None:
                return None
            raise QueryError(f"{where} needs a value ({self._expects()}).")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise QueryError(f"{where} is True or False (got {value!r}).")
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise QueryError(f"{where} is one of {list(self.choices)} (got {value!r}).")
            return value
        if self.kind == "str":
            if not isinstance(value, str):
                raise QueryError(f"{where} is a string (got {value!r}).")
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                (self.kind == "int" and not float(value).is_integer()):
            raise QueryError(f"{where} is {self._expects()} (got {value!r}, "
                             f"{a_kind(value)}).")
        value = int(value) if self.kind == "int" else float(value)
        if isinstance(value, float) and not math.isfinite(value):
            raise QueryError(f"{where} must be finite (got {value!r}).")
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise QueryError(f"{where} is {self._expects()} (got {value!r}).")
        return value

    def _expects(self) -> str:
        what = {"int": "an integer", "float": "a number"}.get(self.kind, self.kind)
        if self.min is not None and self.max is not None:
            return f"{what} from {self.min:g} to {self.max:g}"
        if self.min is not None:
            return f"{what} >= {self.min:g}"
        if self.max is not None:
            return f"{what} <= {self.max:g}"
        return what


def parse_option_items(items) -> dict:
    """``NAME=VALUE`` items (the magic's and the CLI's ``-O``) as a dict; values read as int,
    float, true/false or text (:func:`resolve_options` then checks them against the
    method's declared options)."""
    out = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise QueryError(f"--option takes NAME=VALUE (got {item!r}).")
        for conv in (int, float):
            try:
                value = conv(value)
                break
            except ValueError:
                continue
        else:
            value = {"true": True, "false": False}.get(value.lower(), value)
        out[name] = value
    return out


def resolve_options(specs, options: dict, owner: str) -> dict:
    """Every declared option, with ``options`` validated over the defaults; an unknown name
    is an error that lists the valid ones."""
    known = {p.name: p for p in specs}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise QueryError(f"Unknown option(s) {unknown} for {owner}; valid options: "
                         f"{sorted(known) or 'none'}.")
    return {name: p.validate(options[name], owner) if name in options else p.default
            for name, p in known.items()}


@dataclass
class SearchParams:
    k: int | None = 10
    threshold: float | None = None
    options: dict = field(default_factory=dict)   # complete and typed (resolve_options)


# How a method is asked for more candidates than it gave (rank="useful", engine.py):
# "next": an exact top-k by score, so the next ones are the top of the sets not yet
# returned: asked for those alone, the sets found excluded; "cut": a threshold search, whose
# k only cuts the ranked answer: asked once for the most; "again": asked again for the
# larger k (docs/algorithms/hits.md says why for each method).
MORE_CANDIDATES = ("next", "cut", "again")


@dataclass
class SearchMethod:
    name: str                    # e.g. "josie"
    label: str                   # for menus, e.g. "Exact top-k (JOSIE)"
    kind: str                    # "exact" | "approximate"
    run: Callable                # run(index, query, params) -> (list[Candidate], dict)
    requires: tuple = ()         # index components it needs
    multi_column: bool = False   # takes several query columns (composite keys)
    single_column: bool = True
    needs_threshold: bool = False
    priority: int = 0            # "auto" picks the available method with the highest priority
    description: str = ""
    score_name: str = "overlap"
    params: tuple = ()           # ParamSpec of method-specific options (beyond k, threshold)
    kind_label: str = ""         # what menus call its kind, when not ``kind`` ("heuristic")
    settings_stats: tuple = ()   # stats that are the search's settings, the same in every
                                 # generation (tau): taken once, not summed over generations
    more: str = "again"          # how rank="useful" gets more candidates (MORE_CANDIDATES)

    def __post_init__(self):
        if self.more not in MORE_CANDIDATES:
            raise ValueError(f"more is one of {MORE_CANDIDATES} (got {self.more!r}).")

    @property
    def shown_kind(self) -> str:
        """Its kind as menus show it: ``kind_label``, else ``kind``."""
        return self.kind_label or self.kind

    def resolve_options(self, options: dict) -> dict:
        return resolve_options(self.params, options, f"method {self.name!r}")

    def available(self, index) -> bool:
        return all(index.has(c) for c in self.requires)
