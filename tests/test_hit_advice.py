"""What the search and the join say about a hit, on a small lake like Debian's package list
(no date or year column; a package column with a few repeated names; a source column that
repeats; a section column of a few values on many rows):

* the search's "would multiply" note advises an aggregate that works for the hit it names,
  the one the hit card advises;
* the Join action says the lake column repeats values only when the join repeats query rows;
* the section column is a category, with a warning, and ranks as an identifier would;
* a composite key that no table holds says so in terms of key tuples.
"""
import pandas as pd
import pytest

from conftest import write_lake

SECTIONS = ["admin", "devel", "libs", "net"]


def _packages() -> pd.DataFrame:
    names = [f"pkg{i:02d}" for i in range(60)]
    return pd.DataFrame({
        "package": names + ["dupa", "dupa", "dupb", "dupb"],      # repeated, never queried
        "source": [names[5 * (i // 5)] for i in range(60)] + ["dupa", "dupa", "dupb", "dupb"],
        "section": [SECTIONS[i % 4] for i in range(64)],
        "version": [f"1.{i}-2" for i in range(64)]})


@pytest.fixture(scope="module")
def packages_lake(spark, tmp_path_factory):
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.indexing.pipeline import build
    root = write_lake(tmp_path_factory.mktemp("advice") / "lake",
                      {"debian/packages.csv": _packages()})
    out = root.parent / "lake.index"
    build(root, out, spark=spark, progress=False)
    return open_index(out)


QUERY = pd.DataFrame({"pkg": ["pkg00", "pkg01", "pkg05", "pkg10", "pkg12", "nothere"]})


@pytest.mark.spark
def test_multiply_note_advises_an_aggregate_the_hit_takes(packages_lake):
    res = packages_lake.search(QUERY, "pkg", k=5, rank="useful")
    source = next(h for h in res if h.column == "source")
    assert source.multiplies_rows and res.multiplying() == [source]
    note = res._repr_html_()
    assert f"#{source.rank}: <code>hit.join(df, aggregate='first')</code>" in note
    assert "aggregate='latest'" not in note          # the table has no date or year column
    assert "aggregate=&quot;first&quot;" in source.card()      # the card says the same
    assert len(source.join(QUERY, aggregate="first")) == len(QUERY)


@pytest.mark.spark
def test_join_note_on_repeats_only_when_query_rows_repeat(packages_lake):
    from lakejoin_jupyter.actions import run_join
    res = packages_lake.search(QUERY, "pkg", k=5, rank="useful")
    package = next(h for h in res if h.column == "package")   # dupa, dupb repeat; not queried
    out = run_join(packages_lake, package, QUERY)
    assert len(out.joined) == len(QUERY) and "repeats" not in out.summary
    source = next(h for h in res if h.column == "source")
    out = run_join(packages_lake, source, QUERY)
    assert len(out.joined) > len(QUERY) and "repeats some of the query's values" in out.summary


@pytest.mark.spark
def test_a_section_column_is_a_category(packages_lake):
    from lakejoin_jupyter.join import preview
    query = pd.DataFrame({"s": ["devel", "libs", "net"] * 3})     # a category too
    res = packages_lake.search(query, "s", k=5, rank="useful")
    section = next(h for h in res if h.column == "section")
    assert section.key_kind == "category" and "category (4 values, 16 rows" in section.key_warning
    assert section.usefulness == pytest.approx(   # the weight of an identifier: no rank moves
        preview.usefulness(section.row_coverage, section.key_ratio, "identifier"))
    assert not any("query column" in n for n in res.notes)    # the query's repeats multiply no row
    package = next(h for h in packages_lake.search(QUERY, "pkg", k=5) if h.column == "package")
    assert package.key_kind == "identifier" and package.key_warning is None


@pytest.mark.spark
def test_a_composite_key_no_table_holds(packages_lake):
    query = pd.DataFrame({"pkg": ["pkg01", "pkg02"], "sec": ["net", "net"]})   # each value is there
    res = packages_lake.search(query, ["pkg", "sec"], k=5)
    assert len(res) == 0
    assert res.empty_message.startswith("No lake table holds any of the query's key tuples "
                                        "(pkg, sec)")
    assert "No lake table holds" in res._repr_html_()
