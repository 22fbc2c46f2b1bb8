"""How shares are written for a person: one formatter for the CLI, the notebook's HTML and
the widget (its JavaScript twin is ``pct`` in js/results_table.js).

A containment of 105 values out of 878,005 is not "0.0%": below 0.1 % a percentage keeps
two significant digits, and a fraction below 0.001 is written in scientific notation.
"""
from __future__ import annotations

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
    """A long table or column name shortened for a terminal table (csv and json keep it)."""
    name = " ".join(str(name).split())
    return name if len(name) <= width else name[: width - 1] + "\u2026"
