"""``%lakejoin index LAKE --out OLD --reuse`` on an index of an older normalization version
rebuilds it in its place with the options it was built with (its components), as it does
when the lake changed since its build (newuser17 D14: it came back without union and
transform, and union search then refused it)."""
import json

import pandas as pd
import pytest

from conftest import write_lake
from lakejoin_jupyter.lake.normalize import NORMALIZATION_VERSION


@pytest.mark.spark
def test_reuse_of_an_old_normalization_index_keeps_its_components(spark, tmp_path, ip, capsys):
    lake = write_lake(tmp_path / "lake", {
        "a.csv": pd.DataFrame({"country": ["France", "Peru", "Chad"], "n": [1, 2, 3]}),
        "b.csv": pd.DataFrame({"land": ["Peru", "Chad", "Oman"], "code": ["PE", "TD", "OM"]})})
    out = tmp_path / "old.index"
    ip.run_line_magic("lakejoin", f"index {lake} --out {out} --with union --with transform "
                                  f"--quiet")
    manifest = json.loads((out / "manifest.json").read_text())
    assert {"union", "transform"} <= set(manifest["components"])
    manifest["normalization"]["version"] = NORMALIZATION_VERSION - 1   # built before it
    (out / "manifest.json").write_text(json.dumps(manifest))
    capsys.readouterr()
    ip.run_line_magic("lakejoin", f"index {lake} --out {out} --reuse --quiet")
    said = capsys.readouterr().out
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["normalization"]["version"] == NORMALIZATION_VERSION
    assert {"union", "transform"} <= set(manifest["components"]), manifest["components"]
    assert manifest["build"]["options"] == ["--with", "union", "--with", "transform"]
    assert "(--reuse), with the options it was built with" in said, said
    from lakejoin_jupyter.ui.session import SESSION
    hits = SESSION.engine.search_unionable(pd.DataFrame({"country": ["Peru", "Chad"],
                                                         "n": [2, 3]}), k=2)
    assert {h.table for h in hits} == {"a", "b"}             # union search answers
