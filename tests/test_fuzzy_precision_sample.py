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


def _labels(chart) -> dict:
    """[(value, dy, baseline)] of the chart's text marks (not their halos: a stroked copy
    drawn under each label)."""
    spec = chart.to_dict()
    out = []
    for layer in spec["layer"]:
        mark = layer["mark"] if isinstance(layer["mark"], dict) else {"type": layer["mark"]}
        if mark["type"] == "text" and "stroke" not in mark:
            for row in spec["datasets"][layer["data"]["name"]]:
                out.append((row["value"], mark.get("dy", 0), mark.get("baseline")))
    return out


def _spans(labels) -> list:
    """Each label's vertical extent in pixels from the plot's top (a 200 px plot, 12 px
    text): its point's y plus dy, the text above that (baseline bottom) or below (top)."""
    out = []
    for v, dy, base in labels:
        y = (1 - v) * 200 + dy                  # fuzzy.CHART_HEIGHT
        out.append((y - 12, y) if base == "bottom" else (y, y + 12))   # fuzzy.LABEL_PX
    return sorted(out)


def test_the_chart_labels_of_the_point_never_overlap():
    """At the chosen point the precision and recall labels never overlap, and stay inside
    the plot (they were both drawn 7 px above their points: 100.0% and 90.0% on top of
    each other and of the target line, new user 12)."""
    left, right = pd.DataFrame({"t": LEFT}), pd.DataFrame({"t": RIGHT})
    fj = fuzzy.fuzzy_join(left, right, on="t", functions=["char3"], threshold=0.8)
    fj.threshold_given, fj.precision_target = False, 0.9
    for p, r in ((1.0, 0.9), (0.95, 0.93), (0.9, 0.2), (0.5, 0.52), (0.3, 0.9), (1.0, 1.0)):
        fj.estimated_precision, fj.estimated_recall = p, r
        labels = _labels(fj.chart())
        assert len(labels) == 2, labels
        (a0, a1), (b0, b1) = _spans(labels)
        assert a1 <= b0 and a0 >= 0, (p, r, labels)


def test_the_labels_halos_take_the_pages_colour():
    """Each point label's halo (the stroked copy under it, so a curve through the point does
    not cross the figure) is in the page's colour: JupyterLab's theme variable, not white,
    which stood out as white blobs in JupyterLab Dark; the chart is drawn as SVG (where an
    attribute's var() resolves) with no background of its own (the page's shows)."""
    left, right = pd.DataFrame({"t": LEFT}), pd.DataFrame({"t": RIGHT})
    fj = fuzzy.fuzzy_join(left, right, on="t", functions=["char3"], threshold=0.8)
    spec = fj.chart().to_dict()
    marks = [layer["mark"] for layer in spec["layer"] if isinstance(layer["mark"], dict)]
    halos = [m for m in marks if m["type"] == "text" and "stroke" in m]
    assert len(halos) == 2, marks
    for m in halos:
        assert m["stroke"] == m["color"] == \
            "var(--lakejoin-chart-page, var(--jp-layout-color0, white))", m
    assert spec["background"] == "transparent"
    assert spec["usermeta"]["embedOptions"]["renderer"] == "svg"
