"""How shares are written for a person: one formatter for the CLI, the notebook's HTML and
the widget (its JavaScript twin is ``pct`` in js/results_table.js).

A containment of 105 values out of 878,005 is not "0.0%": below 0.1 % a percentage keeps
two significant digits, and a fraction below 0.001 is written in scientific notation.
"""
from __future__ import annotations

import os

# "ranked by ..." in the CLI's and the notebook's reports, per rank of engine.search
RANK_WORDS = {"overlap": "overlap", "useful": "usefulness"}


def percent(c) -> str:
    """A share as a percentage: one decimal, or two significant digits below 0.1 %."""
    if c is None or c != c:
        return ""
    return f"{c:.1%}" if c == 0 or c >= 0.001 else f"{c * 100:.2g}%"


def whole_percent(c) -> str:
    """A share as a whole percentage (row coverage), or :func:`percent` below 1 %."""
    if c is None or c != c:
        return ""
    return f"{c:.0%}" if c == 0 or c >= 0.01 else percent(c)


def fraction(j) -> str:
    """A share for a terminal table: three decimals, or two significant digits below 0.001."""
    if j is None or j != j:
        return ""
    return f"{j:.3f}" if j == 0 or j >= 0.001 else f"{j:.1e}"


def rows(n: int) -> str:
    """A count of rows: "1 row", "1,200 rows"."""
    return f"{n:,} row{'' if n == 1 else 's'}"


def clip(name, width: int = 40) -> str:
    """A long table or column name shortened for a terminal table (csv and json keep it),
    cut in the middle as the widget does (js/results_table.js ``middle``): its folders give
    up their width first ("fivethirtyeight/gop-de\u2026/delegate_targets"), its last part,
    what tells two tables of a folder apart, only once they are gone, then it keeps its
    start and its end."""
    name = " ".join(str(name).split())
    if len(name) <= width:
        return name
    head, slash, tail = name.rpartition("/")
    if slash and len(tail) + 2 < width:
        return head[: width - len(tail) - 2] + "\u2026/" + tail
    end = (width - 1) // 2
    return name[: width - 1 - end] + "\u2026" + name[len(name) - end:]


def clip_all(names, width: int = 40, fallback: str = "full") -> list:
    """:func:`clip` of each name; names whose cuts would show alike are, by ``fallback``:

    - ``"full"``: shown in full (table names);
    - ``"shared"``: cut in the part they share instead, keeping the part that tells them
      apart (column names that differ only in a few characters: "measure_000_..._label",
      "measure_001_..."); in full if that part does not fit the width.

    A name that would still show like another one is shown in full: two different names
    are never shown alike."""
    if fallback not in ("full", "shared"):
        raise ValueError(f"clip_all: fallback must be 'full' or 'shared', not {fallback!r}")
    names = [" ".join(str(n).split()) for n in names]
    cut = [clip(n, width) for n in names]
    group: dict = {}
    for n, c in zip(names, cut):
        group.setdefault(c, set()).add(n)
    out = [c if len(group[c]) == 1 else n if fallback == "full"
           else _cut_shared(n, sorted(group[c]), width) for n, c in zip(names, cut)]
    seen: dict = {}
    for n, s in zip(names, out):
        seen.setdefault(s, set()).add(n)
    return [n if len(seen[s]) > 1 else s for n, s in zip(names, out)]


def _cut_shared(name: str, alike: list, width: int) -> str:
    """``name`` in at most ``width`` characters, keeping whole its part that differs from
    the other names of ``alike`` (all but their common start and common end), with as much
    of the start before it and the end after it as fits; in full if that part cannot fit."""
    head = len(os.path.commonprefix(alike))
    tail = len(os.path.commonprefix([a[::-1] for a in alike]))
    tail = min(tail, len(name) - head)        # the two common parts never overlap
    start, end = head, len(name) - tail       # name[start:end] tells it apart
    if len(name) <= width or end - start + 2 > width:
        return name
    before, part, after = name[:start], name[start:end], name[end:]
    # the start whole when a quarter of the width is left for the end, or the end whole
    rest = width - len(before) - len(part) - 1
    if rest >= min(len(after), width // 4):
        return before + part + "\u2026" + after[len(after) - rest:]
    rest = width - len(after) - len(part) - 1
    if rest >= min(len(before), width // 4):
        return before[:rest] + "\u2026" + part + after
    room = width - len(part) - 2                 # else a mark on either side
    return (before[:room // 2] + "\u2026" + part + "\u2026"
            + after[len(after) - (room - room // 2):])
