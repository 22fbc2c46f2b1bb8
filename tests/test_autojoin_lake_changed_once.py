"""Auto-Join with a lake table whose file changed since the build says so once, at its join
(newuser18 D6: hit.autojoin(q) then aj.join(q) gave the same LakeChangedWarning twice, the
learning's read and the join's). Hand-checked lake: codes (country, code), a row appended
after the build."""
from __future__ import annotations

import warnings

import pandas as pd
import pytest

from conftest import write_lake

pytestmark = pytest.mark.spark


def test_autojoin_then_its_join_warn_once(spark, tmp_path):
    from lakejoin_jupyter import build_index
    from lakejoin_jupyter.errors import LakeChangedWarning
    lake = write_lake(tmp_path / "lake", {"codes.csv": pd.DataFrame(
        {"country": ["france", "chad", "peru", "fiji"], "code": ["FR", "TD", "PE", "FJ"]})})
    engine = build_index(lake, tmp_path / "codes.index", spark=spark, progress=False)
    query = pd.DataFrame({"country": ["France", "Chad", "Peru", "Mali"]})
    hit = engine.search(query, "country", k=1).hits[0]
    f = lake / "codes.csv"
    f.write_text(f.read_text() + "mali,ML\n")
    for learn in (lambda: hit.autojoin(query),
                  lambda: engine.autojoin(query, "country", "codes", "country")):
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            aj = learn()
            joined = aj.join(query)
        changed = [str(w.message) for w in said if issubclass(w.category, LakeChangedWarning)]
        assert len(changed) == 1, changed
        assert changed[0].startswith("codes changed since the index was built")
        # by hand: the four countries, Mali's row the file's new one (the join reads it now)
        assert joined["code"].tolist() == ["FR", "TD", "PE", "ML"]
