"""The fuzzy join's estimated precision is shown with the number of matched value pairs it
is the mean over (new user 12, defect 6: "100.0%" on 7 pairs read as certain)."""
from __future__ import annotations

import pandas as pd

from lakejoin_jupyter.join import fuzzy

LEFT = ["Germany", "United States", "Switzerland", "Netherlands", "Brazil", "Viet Nam",
        "Latvia", "Western Sahara", "France", "Spain", "Portugal", "Italy", "Austria"]
RIGHT = ["Germny", "Untied States", "Switzerlnd", "Netherlnds", "Brasil", "Viet Nam",
         "Atlantis", "Narnia", "Latveria", "Westeros", "Genovia"]


def test_the_estimate_names_its_sample():
    left, right = pd.DataFrame({"t": LEFT}), pd.DataFrame({"t": RIGHT})
    fj = fuzzy.fuzzy_join(left, right, on="t", functions=["char3"], threshold=0.8)
    n = len(fj.matches())
    assert 0 < n < len(RIGHT)
    head = fj.summary().splitlines()[0]
    assert f"estimated precision {fj.estimated_precision:.1%} on {n} matched value pairs" in head
    at = fj.estimate(0.3)["matches"]
    assert fj.precision_text(0.5, 0.3) == f"50.0% on {at} matched value pair{'s' if at != 1 else ''}"
