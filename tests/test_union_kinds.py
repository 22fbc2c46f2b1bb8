"""Table union search on a lake of package lists: a column of numbers never aligns with a
text column holding a few bare numbers, and of two columns of one table sharing a query
column's values, the one holding more of them is its partner (search/union.py)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import write_lake

pytestmark = pytest.mark.spark


def package_lake():
    """packages (package, version, source, size_kb): 400 plain names and 1,300 names of
    other shapes (libX1-dev, python3-X, X-Y2.0); versions such as 3.14-2+b1, 1% of them a
    bare number 1-5; source holds 8 of the query's 11 names (the others replaced) and the
    plain part of the other names, so its values look more like the query's. Three more
    tables hold names, words and small counts. The query: 11 plain names and one unknown,
    with a 1-5 rating."""
    rng = np.random.default_rng(5)

    def word(lo=3, hi=8):
        return "".join(rng.choice(list("abcdefghiklmnoprstuvwyz"), int(rng.integers(lo, hi + 1))))
    plain = list(dict.fromkeys(word() for _ in range(700)))[:400]
    shaped = [f"lib{word()}{rng.integers(1, 9)}-dev" for _ in range(500)] + \
             [f"python3-{word()}" for _ in range(500)] + \
             [f"{word()}-{word()}{rng.integers(0, 99)}.{rng.integers(0, 9)}" for _ in range(300)]
    names = plain + shaped
    n = len(names)
    version = [f"{rng.integers(0, 20)}.{rng.integers(0, 99)}-{rng.integers(1, 5)}"
               f"+b{rng.integers(1, 4)}" for _ in range(n)]
    for i in rng.choice(n, n // 100, replace=False):
        version[i] = str(int(rng.integers(1, 6)))
    source = [names[i] if i >= 400 or i < 8 or i >= 11 else plain[11 + i] for i in range(n)]
    source = [s if not s.startswith(("lib", "python3-"))
              else s.split("-")[0].removeprefix("lib").rstrip("0123456789") or s for s in source]
    tables = {
        "debian/packages.csv": pd.DataFrame({"package": names, "version": version,
                                             "source": source,
                                             "size_kb": rng.integers(10, 90000, n)}),
        "debian/deps.csv": pd.DataFrame({"dep": rng.choice(names, 600),
                                         "n_depends": rng.integers(0, 40, 600)}),
        "man/pages.csv": pd.DataFrame({"page": [word() for _ in range(500)],
                                       "section": rng.integers(1, 9, 500)}),
        "people.csv": pd.DataFrame({"email": [f"{word()}@{word()}.org" for _ in range(300)],
                                    "n_packages": rng.integers(1, 200, 300)}),
    }
    query = pd.DataFrame({"pkg": plain[:11] + ["not-a-package"],
                          "rating": [5, 4, 5, 5, 3, 4, 5, 2, 1, 5, 4, 4]})
    return tables, query


@pytest.fixture(scope="module")
def package_index(spark, tmp_path_factory):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.config import BuildSettings
    from lakejoin_jupyter.indexing.pipeline import build
    tables, query = package_lake()
    root = write_lake(tmp_path_factory.mktemp("plake") / "lake", tables)
    out = tmp_path_factory.mktemp("pindex") / "p.index"
    build(root, out, spark=spark, progress=False,
          settings=BuildSettings(components=("-josie", "-mate", "-lshensemble", "union")))
    return open_index(out), tables, query


def _packages_hit(res):
    return next(h for h in res if h.table == "debian/packages")


def test_numbers_never_align_with_text_holding_a_few_numbers(package_index):
    """rating (1-5) shares all its values with version only through the 1% of versions that
    are bare numbers: not aligned. The oracle: the share of version's values that are
    numbers, by pandas."""
    engine, tables, query = package_index
    version = tables["debian/packages.csv"]["version"]
    assert set(query["rating"].astype(str)) <= set(version)
    assert pd.to_numeric(version, errors="coerce").notna().mean() < 0.05
    res = engine.search_unionable(query, k=10)
    assert "version" not in _packages_hit(res).mapping.values()
    for h in res:                       # nowhere a number aligned with text
        for a, b in h.mapping.items():
            lake = engine.table(h.table)[b]
            assert (a == "rating") == (pd.to_numeric(lake, errors="coerce").notna().mean() > 0.9)


def test_of_two_columns_sharing_values_the_one_holding_more_aligns(package_index):
    """pkg: 11 of its 12 names are in package, 8 in source (whose values look more like
    pkg's): pkg <- package."""
    engine, tables, query = package_index
    t = tables["debian/packages.csv"]
    shared = {c: query["pkg"].isin(set(t[c])).sum() for c in ("package", "source")}
    assert shared == {"package": 11, "source": 8}
    hit = _packages_hit(engine.search_unionable(query, k=10))
    assert hit.mapping.get("pkg") == "package"
    assert hit.shared["pkg"][0] == 11
