"""An empty equality search points to the transformation search: when the index holds the
transform component, its empty message names ``-m transform`` / ``method='transform'`` (the
widget: its Method label), and that search does find the column; when the index lacks it,
the message gives the command that adds it. A search of that method, or of a composite key,
gets no such advice."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import write_lake

NAMES = ["chevrolet chevelle malibu", "buick skylark 320", "plymouth satellite",
         "amc rebel sst", "ford torino", "ford galaxie 500", "chevrolet impala",
         "plymouth fury iii", "pontiac catalina", "amc ambassador dpl", "dodge challenger se",
         "toyota corona mark ii"]
LAKE = pd.DataFrame({"Name": NAMES, "Cylinders": [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4]})
SPECIES = ["Adelie Penguin (Pygoscelis adeliae)", "Gentoo penguin (Pygoscelis papua)",
           "Chinstrap penguin (Pygoscelis antarctica)"]
PENGUINS = pd.DataFrame({"Species": [SPECIES[i % 3] for i in range(30)],
                         "Mass": [3000 + 50 * i for i in range(30)]})
QUERY = pd.DataFrame({"model": [n.replace(" ", "_") for n in NAMES[:6]],
                      "year": [70, 70, 70, 70, 70, 71]})


@pytest.fixture(scope="module")
def indexes(spark, tmp_path_factory):
    """The lake indexed with the transform component, and without it."""
    from lakejoin_jupyter import build_index
    root = write_lake(tmp_path_factory.mktemp("carlake") / "lake", {"auto/cars.csv": LAKE,
                                                                       "bio/penguins.csv": PENGUINS})
    out = {}
    for name, components in (("with", ["transform"]), ("without", [])):
        out[name] = tmp_path_factory.mktemp(f"car-{name}") / "lake.index"
        build_index(root, out[name], spark=spark, progress=False, components=components)
    return out


@pytest.mark.spark
def test_empty_search_names_the_transform_search_the_index_holds(indexes, tmp_path, capsys):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.cli import main
    engine = open_index(indexes["with"])
    res = engine.search(QUERY, "model")
    assert len(res) == 0
    text = res.empty_message
    assert text.startswith("No column of the lake shares a value with the query.")
    assert "-m transform" in text and "method='transform'" in text, text
    widget = res.empty_text(widget=True)
    assert "Method 'Needs a transformation'" in widget and "-m transform" not in widget, widget
    assert "-m transform" in repr(res)
    # the advice holds: that search finds the lake's Name, all 6 query values joined
    found = engine.search(QUERY, "model", method="transform")
    assert [(h.table, h.column) for h in found][:1] == [("auto/cars", "Name")]
    assert "method='transform'" not in (found.empty_message or "")
    # with a threshold, too
    assert "-m transform" in engine.search(QUERY, "model", threshold=0.5).empty_message
    # a composite key: the transformation search takes one column; no advice
    assert "transform" not in engine.search(QUERY, ["model", "year"]).empty_message
    q = tmp_path / "q.csv"
    QUERY.to_csv(q, index=False)
    main(["search", str(indexes["with"]), "-t", str(q), "-c", "model"])
    out = capsys.readouterr().out
    assert "No column of the lake shares a value" in out and "-m transform (CLI" in out, out


@pytest.mark.spark
def test_empty_search_says_how_to_add_the_component(indexes):
    from lakejoin_jupyter import open_index
    engine = open_index(indexes["without"])
    res = engine.search(QUERY, "model")
    assert len(res) == 0
    text = res.empty_message
    assert f"lakejoin index --add transform {indexes['without']}" in text, text
    assert "-m transform" not in text


@pytest.mark.spark
def test_a_query_of_three_values_is_told_to_learn_against_a_table(indexes):
    """A hit's program must join three values, one beyond its examples: a query of three
    distinct values is never a hit, and the empty message says so and names Auto-Join,
    which learns from fewer rows where they agree and joins them (word 1 of "Adelie
    Penguin (Pygoscelis adeliae)"); a larger query gets no such note."""
    from lakejoin_jupyter import open_index
    engine = open_index(indexes["with"])
    few = pd.DataFrame({"species": ["Adelie", "Gentoo", "Chinstrap"]})
    res = engine.search(few, "species", method="transform", k=5)
    assert len(res) == 0
    text = res.empty_message
    assert "3 distinct value(s)" in text and "%lakejoin autojoin" in text, text
    aj = engine.autojoin(few, "species", "bio/penguins", "Species")
    joined = aj.join(few)
    assert sorted(set(joined.dropna(subset=["Mass"])["species"])) == sorted(few["species"])
    res = engine.search(QUERY, "model", method="transform", k=5)
    assert "distinct value(s)" not in (res.empty_message or "")
