"""The packaged demo lake and the `lakejoin demo` walk-through."""
from __future__ import annotations

from pathlib import Path

DEMO_LAKE = Path(__file__).resolve().parent / "demo_lake"


def demo_lake() -> Path:
    """Folder of the demo lake shipped inside the package (public-domain and CC BY tables)."""
    return DEMO_LAKE


def demo_query():
    """A sample query: the country column of FiveThirtyEight's FIFA audience table."""
    import pandas as pd
    return pd.read_csv(DEMO_LAKE / "fivethirtyeight" / "fifa" / "fifa_countries_audience.csv")
