"""The fuzzy join chart's threshold axis (newuser23 D4): where every match is at distance 0
(nine equal values) the axis read 0.000000000 to 0.000000026; it spans 0 to at least
``MIN_THRESHOLD_SPAN`` and its ticks show at most 3 decimals."""
import pandas as pd

from lakejoin_jupyter.join import fuzzy

NAMES = ["Intel Corporation", "NVIDIA Corporation", "Red Hat, Inc.", "Samsung Electronics",
         "Mellanox Technologies", "Broadcom Inc.", "Compaq Computer", "Tekram Technology",
         "Advanced Micro Devices"]


def _x(spec: dict) -> dict:
    layers = spec.get("layer") or [spec]
    return next(layer["encoding"]["x"] for layer in layers
                if layer.get("encoding", {}).get("x", {}).get("field") == "threshold")


def test_all_matches_at_distance_zero_give_a_readable_axis():
    fj = fuzzy.fuzzy_join(pd.DataFrame({"name": NAMES}), pd.DataFrame({"maker": NAMES}),
                          on=("name", "maker"))
    assert fj.matches()["distance"].max() < 1e-6        # the case: all exact
    x = _x(fj.chart().to_dict())
    lo, hi = x["scale"]["domain"]
    assert lo == 0 and hi >= fuzzy.MIN_THRESHOLD_SPAN
    assert x["axis"]["format"] == ".3~f"


def test_a_wide_curve_keeps_its_range():
    fj = fuzzy.fuzzy_join(pd.DataFrame({"name": NAMES}),
                          pd.DataFrame({"maker": [n.lower()[:-2] for n in NAMES]}),
                          on=("name", "maker"))
    x = _x(fj.chart().to_dict())
    assert x["scale"]["domain"][1] >= fj.curve["threshold"].max()
