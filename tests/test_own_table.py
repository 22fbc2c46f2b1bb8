"""The query's own table, "(your table)" (engine.py, ``Engine.own_tables``): the join
search, with every method, and the union search decide by one rule which lake table a
frame's rows come from."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import lake_engine


@pytest.fixture(scope="module")
def own_lake(spark, tmp_path_factory):
    """zones: 120 time zones, offsets and a region; zones_more: zones' rows 70-119's time
    zones and another column; people: names and ages (no time zone)."""
    rng = np.random.default_rng(5)
    areas = ["Europe", "America", "Asia", "Africa", "Pacific", "Australia"]
    words = ["".join(rng.choice(list("abcdefghiklmnoprstuvwyz"), 7)).capitalize()
             for _ in range(400)]
    zones = list(dict.fromkeys(f"{rng.choice(areas)}/{w}" for w in words))[:120]
    zt = pd.DataFrame({"tz": zones, "offset": [str(int(o)) for o in rng.integers(-11, 13, 120)],
                       "region": [f"R{i % 5}" for i in range(120)]})
    tables = {"geo/zones.csv": zt,
              "geo/zones_more.csv": zt.iloc[70:][["tz"]].assign(dst=[str(b) for b in
                                                                    rng.random(50) < 0.5]),
              "misc/people.csv": pd.DataFrame({"person": words[200:280],
                                               "age": [str(a) for a in rng.integers(18, 90, 80)]})}
    engine = lake_engine(spark, tmp_path_factory, "ownlake", tables, components=("union",))
    return engine, zt


def _join(engine, frame, cols, method, **kw):
    m = engine.method(method)
    return engine.search(frame, cols, k=None, method=method,
                         threshold=0.3 if m.needs_threshold else None, **kw)


def _join_marks(engine, frame, cols, method):
    res = _join(engine, frame, cols, method)
    return {h.table: h.is_query_table for h in res}


def _union_marks(engine, frame):
    return {h.table: h.is_query_table for h in engine.search_unionable(frame, k=10)}


@pytest.mark.spark
def test_join_search_marks_a_cut_of_a_lake_table_as_union_search_does(own_lake):
    """A frame of some of zones' columns and rows is zones' rows: every one-column join
    method marks zones "(your table)" (left out by include_own=False), as the union search
    does, when the frame holds a column besides the key (its values are zones' too). A frame
    of the key columns only is zones' for the join search only with zones' row count (the
    time zone column alone of 80 rows, or the MATE pair of 90, may be the user's own list
    of keys, whose best partner a mark would send to the end, and joining zones adds its
    other columns), while the union search takes the one-column one for a cut. A few time
    zones, or ones zones_more also holds, are no cut: neither search marks a table."""
    engine, zt = own_lake
    one = [m.name for m in engine.methods() if m.single_column]
    assert {"josie", "lshensemble"} <= set(one), one
    keys_only = zt.iloc[:80][["tz"]]
    assert _union_marks(engine, keys_only).get("geo/zones")
    for m in one:
        assert not any(_join_marks(engine, keys_only, "tz", m).values()), m
        assert _join_marks(engine, zt[["tz"]], "tz", m)["geo/zones"], m
    cuts = [zt.sample(50, random_state=1)[["tz", "offset"]],
            zt.iloc[10:90][["region", "tz"]], zt.iloc[:100]]
    for frame in cuts:
        assert _union_marks(engine, frame).get("geo/zones"), list(frame.columns)
        for m in one:
            marks = _join_marks(engine, frame, "tz", m)
            assert marks["geo/zones"] and not any(v for t, v in marks.items()
                                                  if t != "geo/zones"), (m, list(frame.columns))
            assert "geo/zones" not in {h.table for h in _join(engine, frame, "tz", m,
                                                           include_own=False)}
    pair = zt.iloc[5:95][["tz", "offset"]]
    assert not any(_join_marks(engine, pair, ["tz", "offset"], "mate").values())
    assert _join_marks(engine, zt.iloc[5:95], ["tz", "offset"], "mate")["geo/zones"]
    for frame in (zt.iloc[:5][["tz"]], zt.iloc[75:115][["tz"]]):
        assert not any(_union_marks(engine, frame).values())
        for m in one:
            assert not any(_join_marks(engine, frame, "tz", m).values()), (m, len(frame))


@pytest.mark.spark
def test_one_rule_decides_the_own_table_of_both_searches(own_lake, monkeypatch):
    """The join search and the union search ask the same function: with it answering
    "none", neither marks a table."""
    from lakejoin_jupyter.engine import Engine
    engine, zt = own_lake
    monkeypatch.setattr(Engine, "own_tables", lambda self, *a, **k: set())
    frame = zt.iloc[:80][["tz", "offset"]]
    assert not any(_union_marks(engine, frame).values())
    assert not any(_join_marks(engine, frame, "tz", "josie").values())


# (case, frame's rows and columns of zones (None: all), extra frame changes, the join's
# key columns or () for the union search, the row count given, the tables it is the own of)
OWN_CASES = [
    ("join: key only, fewer rows than zones", slice(0, 80), ["tz"], None, ["tz"], None, set()),
    ("join: key only, a few values: no cut", slice(0, 5), ["tz"], None, ["tz"], None, set()),
    ("join: key only, zones' row count", slice(None), ["tz"], None, ["tz"], None,
     {"geo/zones"}),
    ("join: key only, zones' row count given (Spark)", slice(0, 80), ["tz"], None, ["tz"],
     120, {"geo/zones"}),
    ("union: one column, a cut of zones", slice(0, 80), ["tz"], None, (), None,
     {"geo/zones"}),
    ("union: one column, a few values: no cut", slice(0, 5), ["tz"], None, (), None, set()),
    ("union: one column zones_more holds too: no cut", slice(75, 115), ["tz"], None, (), None,
     set()),
    ("join: key only, zones_more's row count, but zones holds it too: no cut",
     slice(70, 120), ["tz"], None, ["tz"], None, set()),
    ("join: key pair only, fewer rows", slice(5, 95), ["tz", "offset"], None,
     ["tz", "offset"], None, set()),
    ("join: key pair only, zones' row count", slice(None), ["tz", "offset"], None,
     ["tz", "offset"], None, {"geo/zones"}),
    ("join: key and another column zones holds", slice(0, 50), ["tz", "offset"], None,
     ["tz"], None, {"geo/zones"}),
    ("union: two columns zones holds", slice(0, 50), ["tz", "offset"], None, (), None,
     {"geo/zones"}),
    ("join: zones' very columns, fewer rows", slice(0, 100), None, None, ["tz"], None,
     {"geo/zones"}),
    ("join: zones' very columns, non-key values zones lacks", slice(0, 100), None,
     "offset", ["tz"], None, {"geo/zones"}),
    ("union: zones' very columns, values zones lacks", slice(0, 100), None, "offset",
     (), None, set()),
    ("join: zones' very columns, a key value zones lacks", slice(0, 100), None, "tz", ["tz"],
     None, set()),
    ("join: a key list and a column no lake table has", slice(0, 50), ["tz"], "extra",
     ["tz"], None, set()),
    ("union: a cut of zones and a column no lake table has", slice(0, 50), ["tz"], "extra",
     (), None, {"geo/zones"}),
    ("join: a cut of zones and two columns no lake table has: less than half", slice(0, 50),
     ["tz"], "extra2", ["tz"], None, set()),
    ("union: a cut of zones and two columns no lake table has: less than half",
     slice(0, 50), ["tz"], "extra2", (), None, set()),
]


@pytest.mark.spark
@pytest.mark.parametrize("case, rows, columns, change, keys, n_rows, want", OWN_CASES,
                         ids=[c[0] for c in OWN_CASES])
def test_own_table_rule_case_by_case(own_lake, case, rows, columns, change, keys, n_rows,
                                     want):
    """``Engine.own_tables``, the one rule of both searches, on each kind of frame: a key
    only frame (with or without added columns) is its table's with the table's row count
    (or its very columns), a frame
    with a column besides its keys (the union search has no keys) with its values held,
    one with the table's very columns with its key values held (the join's; the union's
    with all); one column of a wider table must be a cut of it; at least half of the
    frame's columns must be matched."""
    engine, zt = own_lake
    frame = zt.iloc[rows][columns if columns is not None else list(zt.columns)].copy()
    if change in ("extra", "extra2"):
        frame["extra"] = "x"
        if change == "extra2":
            frame["extra2"] = "y"
    elif change is not None:                  # values the lake does not hold
        frame[change] = frame[change] + "x"
    tables = engine.index.tables["name"].tolist()
    got = engine.own_tables(frame, range(len(tables)), n_rows, keys=keys)
    assert {tables[t] for t in got} == want


@pytest.fixture(scope="module")
def copies_lake(spark, tmp_path_factory):
    """zones.csv and zones_copy.parquet: the same 120 rows (a Parquet copy of a CSV), and
    people, another table."""
    rng = np.random.default_rng(7)
    zt = pd.DataFrame({"tz": [f"Zone/{''.join(rng.choice(list('abcdefghik'), 8))}"
                              for _ in range(120)],
                       "offset": [str(int(o)) for o in rng.integers(-11, 13, 120)]})
    tables = {"geo/zones.csv": zt, "geo/zones_copy.parquet": zt,
              "misc/people.csv": pd.DataFrame({"person": [f"P{i}" for i in range(60)],
                                               "offset": [str(i % 7) for i in range(60)]})}
    engine = lake_engine(spark, tmp_path_factory, "copylake", tables, components=("union",))
    return engine, zt


@pytest.mark.spark
def test_a_frame_two_copies_hold_marks_neither_and_says_so(copies_lake):
    """A cut of zones is also every row of its Parquet copy: which table it came from is not
    in the index, so neither is "(your table)" (listed last, under unrelated tables); the
    join and the union search say which tables hold the frame's rows."""
    engine, zt = copies_lake
    frame = zt.iloc[:50]
    tables = engine.index.tables["name"].tolist()
    several = []
    assert engine.own_tables(frame, range(len(tables)), several=several) == set()
    assert {tables[t] for t in several} == {"geo/zones", "geo/zones_copy"}
    res = engine.search_unionable(frame, k=5)
    assert not any(h.is_query_table for h in res)
    assert [h.table for h in res][:2] in (["geo/zones", "geo/zones_copy"],
                                          ["geo/zones_copy", "geo/zones"])
    note = "the frame's rows are in each of geo/zones, geo/zones_copy"
    assert any(note in n for n in res.notes) and note in repr(res)
    hits = engine.search(frame, "tz", k=None, method="josie")
    assert not any(h.is_query_table for h in hits)
    assert any(note in n for n in hits.notes)


@pytest.mark.spark
def test_the_text_of_a_join_search_prints_its_notes_once(copies_lake, ip, tmp_path, capsys):
    """newuser19 D2: print(res) / repr(res) of the join search says which tables hold the
    frame's rows, as its HTML does, once ("note: ..." under the table, as union's repr);
    a terminal's %lakejoin search (the repr) and `lakejoin search` print it once too."""
    import html

    from lakejoin_jupyter.cli import main as cli
    from lakejoin_jupyter.ui.session import SESSION
    engine, zt = copies_lake
    frame = zt.iloc[:50]
    note = "the frame's rows are in each of geo/zones, geo/zones_copy"
    res = engine.search(frame, "tz", k=5)
    assert html.escape(note) in res._repr_html_()
    for text in (repr(res), str(res)):
        assert text.count(note) == 1 and f"\nnote: {note}" in text, text
    SESSION.engine = engine
    ip.user_ns["frame"] = frame
    shown = ip.run_line_magic("lakejoin", "search frame.tz -k 5")
    text = ip.display_formatter.format(shown)[0]["text/plain"]
    assert text.count(note) == 1, text
    f = tmp_path / "frame.csv"
    frame.to_csv(f, index=False)
    capsys.readouterr()
    assert cli(["search", str(engine.index.path), "-t", str(f), "-c", "tz", "-k", "5"]) == 0
    out = capsys.readouterr().out
    assert out.count(note) == 1, out


@pytest.fixture(scope="module")
def rows_lake(spark, tmp_path_factory):
    """world/gapminder.csv: 40 countries (20 in Europe, 20 in Africa) x 3 years, with life
    expectancy and population; world/africa_recent.parquet: the African rows only, under the
    names a user may rename gapminder's to (life_exp, population)."""
    rng = np.random.default_rng(11)
    names = list(dict.fromkeys("".join(rng.choice(list("abdeiklmnorstuvz"), 8)).capitalize()
                               for _ in range(200)))[:40]
    rows = [(c, "Europe" if i < 20 else "Africa", y) for i, c in enumerate(names)
            for y in (1997, 2002, 2007)]
    g = pd.DataFrame(rows, columns=["country", "continent", "year"])
    g["lifeExp"] = np.round(rng.uniform(40, 82, len(g)), 3)
    g["pop"] = rng.integers(100_000, 90_000_000, len(g))
    africa = g[g.continent == "Africa"].rename(columns={"lifeExp": "life_exp",
                                                        "pop": "population"})
    engine = lake_engine(spark, tmp_path_factory, "rowslake",
                         {"world/gapminder.csv": g, "world/africa_recent.parquet": africa},
                         components=("union",))
    return engine, g


def _marked(engine, frame, keys=()):
    tables = engine.index.tables["name"].tolist()
    return {tables[t] for t in engine.own_tables(frame, range(len(tables)), keys=keys)}


@pytest.mark.spark
def test_own_table_is_the_table_holding_the_frames_rows_not_the_one_with_its_names(rows_lake):
    """European rows of gapminder, two columns renamed to africa_recent's names: the frame
    has africa_recent's very column names and africa_recent holds its years, but none of its
    rows (nor countries); gapminder holds every row. The join search on year and the union
    search mark gapminder, never africa_recent. Values each held but not together (each
    country with another country's year and population) are no table's rows."""
    engine, g = rows_lake
    eu = g[(g.continent == "Europe") & (g.year == 2007)].head(12).rename(
        columns={"lifeExp": "life_exp", "pop": "population"}).reset_index(drop=True)
    assert _marked(engine, eu, keys=["year"]) == {"world/gapminder"}
    assert _marked(engine, eu) == {"world/gapminder"}
    marks = {h.table: h.is_query_table for h in engine.search(eu, "year", k=None,
                                                               method="josie")}
    assert marks == {"world/gapminder": True, "world/africa_recent": False}
    assert _union_marks(engine, eu).get("world/gapminder") and \
        not _union_marks(engine, eu).get("world/africa_recent")
    europe = g[g.continent == "Europe"].reset_index(drop=True)
    mixed = europe.assign(year=europe.year.sample(frac=1, random_state=2).to_numpy(),
                          pop=europe["pop"].sample(frac=1, random_state=3).to_numpy())
    assert (mixed.year != europe.year).any()
    assert _marked(engine, mixed) == set() and _marked(engine, mixed, keys=["country"]) == set()


@pytest.mark.spark
def test_own_table_is_recognised_with_an_added_column_or_renamed_columns(rows_lake):
    """A frame read from gapminder plus one derived column, or with two columns renamed to
    names no lake table has, is still gapminder's rows: both searches mark gapminder "(your
    table)", the union search lists it last and leaves it out with include_own=False (so
    stacking it would not add the table's own rows). The key column, a cut of gapminder's,
    and one added column are gapminder's for the union search (half of the frame's columns
    matched), with two added columns no table's; for the join search they are a typed list
    of keys (joining gapminder adds its columns); and one column is matched by its name
    only (renamed, it could be any list of those values)."""
    engine, g = rows_lake
    eu = g[(g.continent == "Europe") & (g.year == 2007)].head(12).reset_index(drop=True)
    derived = eu.assign(gdp_total=eu["pop"] * eu["lifeExp"])
    renamed = eu.rename(columns={"lifeExp": "life_expectancy", "pop": "inhabitants"})
    for frame in (derived, renamed):
        assert _marked(engine, frame) == {"world/gapminder"}, list(frame.columns)
        assert _marked(engine, frame, keys=["country"]) == {"world/gapminder"}
        marks = {h.table: h.is_query_table for h in engine.search(frame, "country", k=None,
                                                                   method="josie")}
        assert marks.get("world/gapminder") is True, marks
        res = engine.search_unionable(frame, k=5)
        assert [h.table for h in res][-1] == "world/gapminder" and res[-1].is_query_table
        assert "world/gapminder" not in {h.table for h in engine.search_unionable(
            frame, k=5, include_own=False)}
    assert _marked(engine, eu[["country"]].assign(note="x"), keys=["country"]) == set()
    assert _marked(engine, eu[["country"]].assign(note="x")) == {"world/gapminder"}
    assert _marked(engine, eu[["country"]].assign(note="x", n=1)) == set()
    # one column has no rows to compare: a cut of gapminder's column by its name only
    assert _marked(engine, eu[["country"]]) == {"world/gapminder"}
    assert _marked(engine, eu[["country"]].rename(columns={"country": "nation"})) == set()


@pytest.fixture(scope="module")
def cut_lake(spark, tmp_path_factory):
    """sport/teams.csv: 30 teams (a 3-letter code under ``abbreviation``, a city, a founding
    year); sport/seasons.csv: those codes under ``team`` (another name), two seasons each;
    wide/indicators.csv: 40 country codes (``ISO3``) and 12 float columns, the first rows of
    one of them -0.0; geo/countries.csv: the 40 codes (``ISO3``) and a name each."""
    rng = np.random.default_rng(17)
    letters = list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    codes = list(dict.fromkeys("".join(rng.choice(letters, 3)) for _ in range(200)))
    teams = pd.DataFrame({"abbreviation": codes[:30],
                          "city": [f"City{''.join(rng.choice(letters, 5)).lower()}"
                                   for _ in range(30)],
                          "founded": [str(y) for y in rng.integers(1946, 2005, 30)]})
    seasons = pd.DataFrame({"team": codes[:30] * 2, "season": ["2023"] * 30 + ["2024"] * 30})
    wide = pd.DataFrame({"ISO3": codes[100:140]})
    for i in range(12):
        wide[f"indicator_{i:03d}"] = np.round(rng.normal(0, 50, 40), 6)
    wide.loc[:4, "indicator_007"] = -0.0         # written "-0.0"; the index holds it as 0
    countries = pd.DataFrame({"ISO3": codes[100:140],
                              "name": [f"Land{''.join(rng.choice(letters, 6)).lower()}"
                                       for _ in range(40)]})
    engine = lake_engine(spark, tmp_path_factory, "cutlake",
                         {"sport/teams.csv": teams, "sport/seasons.csv": seasons,
                          "wide/indicators.csv": wide, "geo/countries.csv": countries},
                         components=("union",))
    return engine, Path(engine.lake_root)


@pytest.mark.spark
def test_a_frame_read_from_a_table_with_negative_zeros_is_that_tables(cut_lake):
    """pandas reads the wide table's "-0.0" cells as -0.0, the index holds them as 0 (its
    normalization): the frame's rows (its first 20, every column) are still the table's
    rows, for the row check (``_holds_rows``) as for the column check (``_holds``), so both
    searches mark the table; geo/countries, which holds the codes, is not the frame's."""
    engine, root = cut_lake
    w = pd.read_csv(root / "wide/indicators.csv").head(20)
    assert (np.signbit(w["indicator_007"]) & (w["indicator_007"] == 0)).sum() == 5
    assert _marked(engine, w) == {"wide/indicators"}
    assert _marked(engine, w, keys=["ISO3"]) == {"wide/indicators"}
    marks = _join_marks(engine, w, "ISO3", "josie")
    assert marks == {"wide/indicators": True, "geo/countries": False}, marks
    assert _union_marks(engine, w).get("wide/indicators") is True


@pytest.mark.spark
def test_a_one_column_cut_is_its_table_in_union_search_and_a_key_list_in_join_search(cut_lake):
    """teams' codes, its first 8 rows (27% of the 30 codes; no other table has a column
    ``abbreviation``, seasons holds them under ``team``): a cut of teams for the union
    search, alone or with a column the user added (teams listed last, marked). For the join
    search the same frame is a list of keys, as a user would type it: joining teams adds
    its other columns, so teams is a partner, not "(your table)", and comes first. One code
    (3%, under CUT_SHARE) is no cut: nothing marked."""
    engine, root = cut_lake
    teams = pd.read_csv(root / "sport/teams.csv", dtype=str)
    cut = teams.head(8)[["abbreviation"]]
    for frame in (cut, cut.assign(x=1)):
        assert _marked(engine, frame, keys=["abbreviation"]) == set()
        assert _marked(engine, frame) == {"sport/teams"}
        marks = _join_marks(engine, frame, "abbreviation", "josie")
        assert marks == {"sport/teams": False, "sport/seasons": False}, marks
        hits = engine.search(frame, "abbreviation", k=10, rank="useful")
        assert hits[0].table == "sport/teams" and not hits[0].is_query_table
        union = engine.search_unionable(frame, k=5)
        assert union[-1].table == "sport/teams" and union[-1].is_query_table
        assert not any(h.is_query_table for h in union[:-1])
    one = teams.head(1)[["abbreviation"]]
    assert _marked(engine, one, keys=["abbreviation"]) == set() == _marked(engine, one)


def _rows_held_by_hand(lake: pd.DataFrame, frame: pd.DataFrame, pairs: dict) -> bool:
    """rows_held cell by cell: each cell's text normalized alone (a float column's cells
    read as numbers, to 12 significant digits), the frame's row tuples looked up in the
    set of the lake's."""
    from lakejoin_jupyter.index.union_profile import cell_text
    from lakejoin_jupyter.lake.normalize import normalize_text

    def token(cell, floats: bool, lake_side: bool):
        if floats:
            if lake_side:
                cell = None if cell is None else normalize_text(str(cell))
            x = pd.to_numeric(pd.Series([cell], dtype=object), errors="coerce")[0]
            return None if pd.isna(x) else f"{float(x) + 0.0:.12g}"   # -0.0: the index's 0
        text = cell_text(cell)
        return None if text is None else normalize_text(text)

    columns = [(frame[m], lake[t], frame[m].dtype.kind == "f") for m, t in pairs.items()]
    if len(columns) < 2:
        return True
    theirs = {tuple(token(c[1][i], c[2], True) for c in columns) for i in range(len(lake))}
    return all(tuple(token(c[0][i], c[2], False) for c in columns) in theirs
               for i in range(len(frame)))


def test_rows_held_normalizes_at_once_as_cell_by_cell():
    """engine.rows_held (the own table's row check) against the check cell by cell on random
    tables: texts with case, space and number-format variants (a few, or hundreds), integers,
    floats read back from text (0.1 + 0.2, 1e20), nulls and blanks; the frame's rows drawn
    from the lake's (True) with some cells changed (mostly False)."""
    from lakejoin_jupyter.engine import rows_held
    rng = np.random.default_rng(26)
    texts = ["North", "north ", " NORTH", "Côte d'Ivoire", "cote d'ivoire", "007", "7", "7.0",
             "", " ", None, "n/a", "2001-01-01", "2001-1-1", "x"]
    floats = ["0.30000000000000004", "0.3", "1e20", "100000000000000000000", "2.50", "-0",
              None, "abc", "12.0000000000001"]
    many = texts + [f"{w} {i}" for i in range(200) for w in ("Item", "ITEM ", "item")]
    answers = set()
    for it in range(120):        # every 20th: hundreds of distinct texts, normalized at once
        n = int(rng.integers(1, 25)) if it % 20 else 900
        lake = pd.DataFrame({"a": rng.choice(many if n > 25 else texts, n).tolist(),
                             "b": rng.choice(floats, n).tolist(),
                             "c": rng.choice(texts[:10], n).tolist()})
        picked = lake.iloc[rng.integers(0, n, int(rng.integers(1, 12)))].reset_index(drop=True)
        frame = pd.DataFrame({"a": picked["a"].map(lambda t: t.upper() if isinstance(t, str)
                                                   and rng.random() < .3 else t),
                              "b": pd.to_numeric(picked["b"], errors="coerce"),
                              "c": picked["c"].astype(object)})
        if rng.random() < .3:                        # a typed integer column
            frame["c"] = rng.integers(0, 8, len(frame))
        if rng.random() < .4:                        # a cell of another row
            j = int(rng.integers(0, 3))
            frame.iloc[0, j] = frame.iloc[-1, j]
        for pairs in ({"a": "a", "b": "b"}, {"a": "a", "c": "c"}, {"a": "a", "b": "b", "c": "c"},
                      {"b": "c", "c": "a"}):
            want = _rows_held_by_hand(lake, frame, pairs)
            assert rows_held(lake, frame, pairs) == want, (lake, frame, pairs)
            answers.add(want)
    assert answers == {True, False}


def _wide_random_table(rng, n: int):
    """A lake table as read (texts): an id with case and space variants (from a small pool
    when ``dup``: several rows per id), float texts, integer texts and a category."""
    dup = rng.random() < .5
    pool = [f"{w}{i}" for i in range(8 if dup else 3 * n + 10) for w in ("Id", "ID ", " id")]
    floats = ["0.30000000000000004", "0.3", "1e20", "2.50", "-0", "0", None, "abc", "7",
              "-0.0", "12.0000000000001"]
    out = {"id": rng.choice(pool, n).tolist()}
    for j in range(int(rng.integers(2, 9))):
        few = rng.random() < .5                     # a few texts, or a number per row
        out[f"f{j}"] = (rng.choice(floats, n).tolist() if few else
                        [repr(float(x)) for x in np.round(rng.normal(0, 50, n), 2)])
    for j in range(int(rng.integers(1, 4))):
        out[f"i{j}"] = rng.choice(["007", "7", "8", "-1", "12", None], n).tolist()
    out["cat"] = rng.choice(["North", "north ", "SOUTH", "", None], n).tolist()
    return pd.DataFrame(out)


def test_rows_held_on_wide_random_tables_as_cell_by_cell():
    """engine.rows_held, which normalizes the lake rows a first column leaves and the other
    columns at once per dtype, against the check cell by cell on random wide tables: ids
    repeated or not, float, integer and text columns (typed as pandas reads them, or text),
    columns matched under other names, frames of the lake's rows with cells moved between
    rows (a row that agrees on some columns only) or changed; a few hundred lake rows every
    tenth table (the normalization at once)."""
    from lakejoin_jupyter.engine import rows_held
    rng = np.random.default_rng(27)
    answers = []
    for it in range(150):
        n = 400 if it % 10 == 0 else int(rng.integers(1, 40))
        lake = _wide_random_table(rng, n)
        picked = lake.iloc[rng.integers(0, n, int(rng.integers(1, 15)))].reset_index(drop=True)
        frame = pd.DataFrame({"id": picked["id"].map(lambda t: t.upper() if rng.random() < .3
                                                     else t)})
        for c in lake.columns[1:]:
            if c.startswith("f") and rng.random() < .8:
                frame[c] = pd.to_numeric(picked[c], errors="coerce")
            elif c.startswith("i") and rng.random() < .5 and picked[c].notna().all():
                frame[c] = picked[c].astype(np.int64)
            else:
                frame[c] = picked[c].astype(object)
        for _ in range(int(rng.integers(0, 3))):     # a cell from another row, or changed
            i, j = int(rng.integers(0, len(frame))), int(rng.integers(0, frame.shape[1]))
            other = frame.iat[-1 - i, j] if rng.random() < .7 else None
            col = frame.columns[j]
            if frame[col].dtype.kind == "i" and other is None:
                other = 99
            frame[col] = frame[col].astype(object) if frame[col].dtype == object else frame[col]
            frame.iat[i, j] = other
        cols = list(frame.columns)
        for _ in range(3):
            chosen = list(rng.choice(cols, int(rng.integers(2, len(cols) + 1)), replace=False))
            pairs = {c: c for c in chosen}
            if rng.random() < .3:                    # frame columns matched to other columns
                targets = list(rng.permutation(chosen))
                pairs = dict(zip(chosen, targets))
            want = _rows_held_by_hand(lake, frame, pairs)
            assert rows_held(lake, frame, pairs) == want, (lake, frame, pairs)
            answers.append(want)
    assert 0.2 < np.mean(answers) < 0.8


def test_rows_held_normalizes_only_the_lake_rows_a_column_leaves(monkeypatch):
    """The head of a wide lake table (its 20 rows of 300, an id and 60 float columns, as
    pandas reads them): the row check normalizes the id column's 300 lake cells and the
    other columns' cells of the 20 rows with those ids, not the table's 18,300 cells, and
    answers as cell by cell (True; with one cell changed False)."""
    import lakejoin_jupyter.engine as engine_module
    rng = np.random.default_rng(3)
    n = 300
    lake = pd.DataFrame({"ISO3": [f"C{i:03d}" for i in range(n)],
                         **{f"ind_{j}": [repr(float(x)) for x in np.round(rng.normal(0, 9, n), 3)]
                            for j in range(60)}})
    frame = lake.head(20).astype({f"ind_{j}": np.float64 for j in range(60)})
    changed = frame.copy()
    changed.loc[7, "ind_40"] = 1234.5
    pairs = {c: c for c in lake.columns}
    seen = []
    cell_tokens = engine_module._cell_tokens

    def counted(values, floats, text=False):
        if text:
            seen.append(len(values))
        return cell_tokens(values, floats, text)

    monkeypatch.setattr(engine_module, "_cell_tokens", counted)
    for f, want in ((frame, True), (changed, False)):
        seen.clear()
        assert _rows_held_by_hand(lake, f, pairs) is want
        assert engine_module.rows_held(lake, f, pairs) is want
        assert sum(seen) <= n + 20 * 60, sum(seen)


@pytest.fixture(scope="module")
def holds_lake(spark, tmp_path_factory):
    """w/wide.csv: 60 rows, an id, 30 float columns, 5 integer and 3 text columns (40);
    w/wide_cut.parquet: its rows 10-49 and 8 of its columns, 3 renamed; w/other.csv: 30 of
    its ids and two columns of its own; w/floats_copy.csv: its id and first float columns."""
    from conftest import lake_engine
    rng = np.random.default_rng(19)
    n = 60
    wide = pd.DataFrame({"id": [f"K{i:03d}" for i in rng.permutation(200)[:n]]})
    for j in range(30):
        wide[f"f{j}"] = np.round(rng.normal(0, 50, n), int(rng.integers(1, 7)))
    for j in range(5):
        wide[f"i{j}"] = rng.integers(0, 12 if j < 2 else 10**6, n)
    for j in range(3):
        wide[f"t{j}"] = rng.choice([f"Word{k}" for k in range(8 if j else 70)], n)
    cut = wide.iloc[10:50][["id", "f0", "f1", "i0", "i3", "t0", "t1", "t2"]].rename(
        columns={"f1": "value", "i3": "amount", "t2": "label"})
    other = pd.DataFrame({"id": wide.id[:30].to_numpy(), "score": rng.integers(0, 9, 30),
                          "note": rng.choice(["a", "b"], 30)})
    tables = {"w/wide.csv": wide, "w/wide_cut.parquet": cut, "w/other.csv": other,
              "w/floats_copy.csv": wide[["id", "f0", "f1", "f2"]]}
    engine = lake_engine(spark, tmp_path_factory, "holds", tables, components=["union"])
    return engine, {name.split(".")[0]: t for name, t in tables.items()}


def _brute_holds(engine, column_id, mine, floats) -> bool:
    """Engine._holds by its definition, value by value: every frame token is one of the
    lake column's tokens or, of a float column, within FLOAT_TOLERANCE of one of its
    numbers."""
    from lakejoin_jupyter.engine import FLOAT_TOLERANCE
    gen, local = engine.index.generation_of(int(column_id))
    lake = set(gen.token_text(gen.arrays.set_tokens(local)))
    if len(lake) < len(mine):
        return False
    missing = [t for t in mine if t not in lake]
    if missing and not floats:
        return False
    numbers = pd.to_numeric(pd.Series(sorted(lake), dtype=object), errors="coerce").dropna()
    for t in missing:
        x = pd.to_numeric(pd.Series([t]), errors="coerce")[0]
        if np.isnan(x) or not any(abs(v - x) <= FLOAT_TOLERANCE * max(abs(x), 1.0)
                                  for v in numbers):
            return False
    return True


def _own_tables_by_definition(engine, frame, table_ids, n_rows=None, keys=()) -> set:
    """Engine.own_tables' rule as written before newuser19 D5 (every frame column tried on
    every column of a table, each with :func:`_brute_holds`)."""
    from lakejoin_jupyter.engine import CUT_SHARE, _frame_tokens
    cat = engine._catalog
    names = [str(c) for c in frame.columns]
    n_rows = len(frame) if n_rows is None else int(n_rows)
    keys = {str(k) for k in keys}

    def holds(name, cid):
        mine = _frame_tokens(frame[name])
        return _brute_holds(engine, cid, mine, frame[name].dtype.kind == "f")

    found = []
    for t in sorted({int(t) for t in table_ids}):
        columns = dict(zip(cat.table_columns(t), cat.table_column_ids(t)))
        very = set(names) == set(columns)
        matched, renamed, refuted = {}, [], False
        for name in names:
            if name not in columns:
                renamed.append(name)
            elif holds(name, columns[name]):
                matched[name] = name
            elif name in keys or not (keys and very):
                refuted = True
                break
        free = [c for c in columns if c not in names]
        if refuted or not matched:
            continue
        for name in renamed:
            for c in free:
                if c not in matched.values() and holds(name, columns[c]):
                    matched[name] = c
                    break
        if not keys <= set(matched) or 2 * len(matched) < len(names):
            continue
        cut = False
        if len(matched) == 1 < len(columns):
            name = next(iter(matched))
            mine, cid = _frame_tokens(frame[name]), columns[name]
            if len(mine) < CUT_SHARE * engine._set_size(cid) or any(
                    int(cat.table_id[i]) != t and _brute_holds(engine, i, mine, False)
                    for i in np.flatnonzero(cat.name == cat.name[cid])):
                continue
            cut = True
        if 2 * len(matched) == len(names) and not cut:
            continue
        if keys and set(matched) <= keys and not (very or int(cat.table_rows[t]) == n_rows):
            continue
        pairs = dict(matched)
        if len(pairs) > 1 and not engine._holds_rows(t, frame, pairs):
            continue
        found.append((t, sum(n == c for n, c in matched.items())))
    most = max((by_name for _, by_name in found), default=0)
    found = [t for t, by_name in found if by_name == most]
    same = {t for t in found if int(cat.table_rows[t]) == n_rows}
    own = same or set(found)
    return set() if len(own) > 1 else own


def _random_frame(rng, tables: dict):
    """A frame cut from a random table of ``tables`` (rows and columns), with columns
    renamed (to new names or to another table's), columns the user added (integers, texts,
    floats no table holds, or derived), cells changed, floats off by a parsing error, and
    key columns; (frame, keys, n_rows)."""
    name = list(tables)[int(rng.integers(0, len(tables)))]
    t = tables[name]
    rows = rng.permutation(len(t))[:int(rng.integers(1, len(t) + 1))] if rng.random() < .8 \
        else np.arange(len(t))
    cols = list(t.columns) if rng.random() < .3 else \
        list(rng.permutation(t.columns)[:int(rng.integers(1, len(t.columns) + 1))])
    frame = t.iloc[np.sort(rows)][cols].reset_index(drop=True)
    for c in list(frame.columns):
        r = rng.random()
        if r < .2:
            frame = frame.rename(columns={c: f"new_{c}"})
        elif r < .25:
            frame = frame.rename(columns={c: str(rng.choice(["value", "amount", "label",
                                                             "score", "f5"]))})
    frame = frame.loc[:, ~frame.columns.duplicated()]
    for j in range(int(rng.choice([0, 0, 1, 3, 12]))):
        kind = rng.random()
        frame[f"added{j}"] = (rng.integers(0, 10**6, len(frame)) if kind < .3 else
                              [f"x{j}_{i}" for i in range(len(frame))] if kind < .55 else
                              rng.normal(0, 50, len(frame)) if kind < .8 else
                              frame.iloc[:, 0].to_numpy())
    if rng.random() < .25:                           # a changed cell
        j = int(rng.integers(0, frame.shape[1]))
        c = frame.columns[j]
        frame[c] = frame[c].astype(object) if frame[c].dtype.kind not in "if" else frame[c]
        frame.iat[0, j] = frame.iat[0, j] + 1 if frame[c].dtype.kind in "if" else "zzz"
    for c in frame.columns:                          # read back by another parser
        if frame[c].dtype.kind == "f" and rng.random() < .3:
            frame[c] = frame[c] * (1 + 4e-16)
    if rng.random() < .5:                            # the added columns among the others
        frame = frame[list(rng.permutation(frame.columns))]
    keys = [str(k) for k in rng.permutation(frame.columns)[:int(rng.integers(0, 3))]]
    n_rows = len(t) if rng.random() < .3 else None
    return frame, keys, n_rows


@pytest.mark.spark
def test_own_tables_as_by_definition_on_random_frames(holds_lake):
    """Engine.own_tables, which tries a frame column only on the lake columns holding its
    rarest value (a float column first on its middle value) and leaves a table as soon as
    a key or half the columns cannot be matched, answers as the rule tried column by column
    and value by value, on 150 random frames of the lake's tables (cut, renamed, with
    columns added and cells changed, floats off by a parsing error, keys or none)."""
    engine, tables = holds_lake
    names = engine.index.tables["name"].tolist()
    rng = np.random.default_rng(31)
    answers = []
    for _ in range(150):
        frame, keys, n_rows = _random_frame(rng, tables)
        want = _own_tables_by_definition(engine, frame, range(len(names)), n_rows, keys)
        got = engine.own_tables(frame, range(len(names)), n_rows, keys=keys)
        assert got == want, (list(frame.columns), keys, n_rows, got, want)
        answers.append(names[next(iter(got))] if got else None)
    assert len(set(answers)) >= 4 and 0.2 < np.mean([a is None for a in answers]) < 0.8


@pytest.mark.spark
def test_own_tables_tries_no_lake_column_a_frame_column_cannot_be_in(holds_lake, monkeypatch):
    """A frame of wide's ids and 40 columns of the user's own (integers, texts, floats no
    lake column holds: newuser19 D5's 300-column frame, 89,403 calls there): the own-table
    test asks Engine._holds about the id and not about the 40 columns against each of
    wide's 39 others (1,524 calls before); no table is the frame's."""
    from lakejoin_jupyter.engine import Engine
    engine, tables = holds_lake
    rng = np.random.default_rng(2)
    frame = tables["w/wide"][["id"]].head(50).copy()
    for j in range(40):
        frame[f"c{j}"] = (rng.integers(0, 10**6, 50) if j % 3 == 0 else
                          [f"v{j}_{i}" for i in range(50)] if j % 3 == 1 else
                          rng.normal(0, 50, 50))
    calls = []
    holds = Engine._holds

    def counted(self, *a, **k):
        calls.append(a[0])
        return holds(self, *a, **k)

    monkeypatch.setattr(Engine, "_holds", counted)
    n_tables = len(engine.index.tables)
    assert engine.own_tables(frame, range(n_tables), keys=["id"]) == set()
    assert len(calls) <= n_tables, len(calls)
    assert engine.own_tables(frame, range(n_tables)) == set()
    assert len(calls) <= 2 * n_tables, len(calls)
