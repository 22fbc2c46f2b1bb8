"""Table union search on a lake of package lists: a column of numbers never aligns with a
text column holding a few bare numbers, of two columns of one table sharing a query
column's values the one holding more of them is its partner (search/union.py), the CLI
stacks what the Python API stacks for the same CSV file, and a stacked column's dtype is the
query's whichever table is stacked."""
from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import UNION_ONLY, lake_engine


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
    tables, query = package_lake()
    engine = lake_engine(spark, tmp_path_factory, "plake", tables, components=UNION_ONLY)
    return engine, tables, query


def _packages_hit(res):
    return next(h for h in res if h.table == "debian/packages")


@pytest.mark.spark
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


@pytest.mark.spark
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


@pytest.mark.spark
def test_union_cli_stacks_what_hit_union_stacks_from_pd_read_csv(package_index, tmp_path,
                                                                 capsys):
    """`lakejoin union -t q.csv --stack N --out f.parquet` writes the frame the Python API
    gives for the same file: hit.union(pd.read_csv(path)) (rating an integer column, so a
    lake column aligned with it is converted to numbers), for each of the top hits."""
    from lakejoin_jupyter.cli import main as cli
    engine, _, query = package_index
    path = tmp_path / "pkgs.csv"
    query.to_csv(path, index=False)
    df = pd.read_csv(path)
    res = engine.search_unionable(df, k=3)
    assert any(h.mapping.get("rating") for h in res)
    index = str(engine.index.path)
    assert cli(["union", index, "-t", str(path), "-k", "3", "--format", "csv"]) == 0
    listed = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert listed["alignment"].tolist() == [h.to_dict()["alignment"] for h in res]
    for rank, hit in enumerate(res, 1):
        out = tmp_path / f"stacked{rank}.parquet"
        assert cli(["union", index, "-t", str(path), "--stack", str(rank), "--out",
                    str(out)]) == 0
        assert "rows added" in capsys.readouterr().err
        want = tmp_path / f"api{rank}.parquet"
        with warnings.catch_warnings():            # the CLI prints them (tested in test_union.py)
            warnings.simplefilter("ignore")
            hit.union(df).to_parquet(want, index=False)
        pd.testing.assert_frame_equal(pd.read_parquet(out), pd.read_parquet(want))


def test_a_text_frame_typed_as_read_csv_is_pd_read_csv(tmp_path):
    """The lake reader's text of a CSV file, typed, equals pd.read_csv of the file with the
    index's missing values (only an empty cell is missing; "NA", "n/a" stay text in a text
    column): numbers, floats with an empty cell, booleans, a quoted separator, a repeated
    header (names aside: the lake reader numbers the second `a` .2); a column of numbers but
    for the index's null spellings ("nan", "NULL") is float with those missing."""
    from lakejoin_jupyter.lake.read import inspect, read_table, typed_as_read_csv
    p = tmp_path / "t.csv"
    p.write_text('a,b,c,d,e,a,f,g\n1,2.5,x,True,,007,"1,5",1\n2,,"y, z",False,NA,8,2,nan\n'
                 '3,4.0,  w ,True,n/a,9,3,NULL\n')
    raw = read_table(inspect(0, str(p), "csv"))
    assert (raw.dtypes == object).all()
    got = typed_as_read_csv(raw)
    want = pd.read_csv(p, keep_default_na=False, na_values={"g": ["", "nan", "NULL"],
                                                            **{c: [""] for c in "abcdef"}})
    got.columns = want.columns
    pd.testing.assert_frame_equal(got, want)
    assert got["e"].tolist()[1:] == ["NA", "n/a"] and got["g"].dtype == "float64"
    typed = want[["a", "b", "d"]]
    assert typed_as_read_csv(typed) is typed        # typed columns are kept


def test_a_decimal_point_column_with_dashes_is_numbers(tmp_path):
    """A column of decimal-point numbers whose missing cells are written "-" (or "--", "*",
    an en dash: no letter or digit, no key to the index) is float with those cells missing,
    as a decimal-comma column's are and as pd.read_csv(na_values=those cells) reads it;
    a column of text keeps its "-", and a column of "-" alone stays text (fixnu19a's note:
    one "-" kept a decimal-POINT column text in the CLI's joins)."""
    from lakejoin_jupyter.lake.read import inspect, read_table, typed_as_read_csv
    p = tmp_path / "t.csv"
    p.write_text("pop,name,dash,n\n2019.1,a,-,1\n-,-,-,-\n397.8,c,-,3\n--,d,,*\n"
                 "\u2013,e,-,5\n-12.5,f,-,n/a\n", encoding="utf-8")
    raw = read_table(inspect(0, str(p), "csv"))
    got = typed_as_read_csv(raw)
    want = pd.read_csv(p, keep_default_na=False, na_values={
        "pop": ["", "-", "--", "\u2013"], "n": ["", "-", "*", "n/a"], "name": [""],
        "dash": [""]})
    got.columns = want.columns
    pd.testing.assert_frame_equal(got, want)
    assert got["pop"].tolist()[::2] == [2019.1, 397.8, pytest.approx(float("nan"), nan_ok=True)]
    assert got["name"].tolist()[1] == "-" and got["dash"].dtype == object
    assert got["n"].dtype == "float64" and got["n"].isna().sum() == 3


@pytest.fixture(scope="module")
def ratings_index(spark, tmp_path_factory):
    """Four tables of (package, rating 1-5) that stack under a CSV query of the same columns:
    a Parquet table of int64, a CSV one of whole numbers, a CSV one with an empty rating and
    a Parquet one of nullable Int64 with a null."""
    rng = np.random.default_rng(8)

    def table(start, missing=False, dtype="int64"):
        rating = pd.array(rng.integers(1, 6, 40), dtype="Int64" if missing else dtype)
        if missing:
            rating[3] = None
        return pd.DataFrame({"package": [f"pkg{i:03d}" for i in range(start, start + 40)],
                             "rating": rating})
    tables = {"a.parquet": table(0), "b.csv": table(20), "c.csv": table(40, missing=True),
              "d.parquet": table(60, missing=True, dtype="Int64")}
    engine = lake_engine(spark, tmp_path_factory, "rlake", tables, components=("union",))
    query = pd.DataFrame({"package": [f"pkg{i:03d}" for i in range(0, 100, 7)],
                          "rating": rng.integers(1, 6, 15), "votes": rng.integers(0, 99, 15)})
    path = tmp_path_factory.mktemp("rq") / "q.csv"
    query.to_csv(path, index=False)
    return engine, path


@pytest.mark.spark
def test_a_stacked_column_has_the_query_dtype_whichever_table(ratings_index, tmp_path,
                                                              capsys):
    """The query's integer rating stays int64 under a table of whole numbers, Parquet or CSV,
    and is Int64 under one with a missing rating (the unaligned votes, null in the added
    rows, is Int64), whichever table is stacked; `lakejoin union --stack` writes the dtypes
    hit.union and the Union action give in Python."""
    from lakejoin_jupyter.actions import run_union
    from lakejoin_jupyter.cli import main as cli
    engine, path = ratings_index
    df = pd.read_csv(path)
    res = engine.search_unionable(df, k=4)
    assert {h.table for h in res} == {"a", "b", "c", "d"}
    index = str(engine.index.path)
    for rank, hit in enumerate(res, 1):
        assert hit.mapping.get("rating") == "rating", hit.table
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            python = hit.union(df)
            action = run_union(engine, hit, df).joined
        missing = python["rating"].isna().any()
        assert missing == (hit.table in ("c", "d"))
        assert python.dtypes["rating"] == ("Int64" if missing else "int64"), hit.table
        assert python.dtypes["votes"] == "Int64"
        assert action.dtypes.to_dict() == python.dtypes.to_dict()
        out = tmp_path / f"stacked{rank}.parquet"
        assert cli(["union", index, "-t", str(path), "--stack", str(rank), "--out",
                    str(out)]) == 0
        capsys.readouterr()
        assert pd.read_parquet(out).dtypes.to_dict() == python.dtypes.to_dict()
        ns = {"df": df.copy()}
        exec(hit.code("df", "u"), ns)
        pd.testing.assert_frame_equal(ns["u"], python)


@pytest.mark.parametrize("query_dtype", ["Int64", "int64", "float64", "Float64", "boolean", "bool",
                                         "int32", "uint8"])
@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-5, 5), st.floats(-5, 5, allow_nan=False),
                          st.booleans()), min_size=1, max_size=8))
def test_a_stacked_column_never_changes_a_value(query_dtype, values):
    """``stacked_as_query`` only retypes: every stacked value reads as it did before (a 1.5
    under a nullable integer query column is never cut to 1), whichever values are missing."""
    from lakejoin_jupyter.frames import stacked_as_query
    query = pd.DataFrame({"p": pd.Series([1, 0], dtype=query_dtype)})
    lake = pd.Series(values)                    # the lake's column as pandas infers it
    stacked = pd.concat([query, pd.DataFrame({"p": lake})], ignore_index=True)
    got = stacked_as_query(stacked, query)["p"]
    for before, after in zip(stacked["p"], got):
        if pd.isna(before):
            assert pd.isna(after)
        else:
            assert float(after) == float(before), (list(stacked["p"]), list(got))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64", "bool"])
def test_the_nullable_dtype_is_pandas_own(dtype):
    """``frames.nullable_dtype`` (a stacked integer column with missing values, a Parquet
    table's integers) gives the dtype pandas gives an array of that dtype."""
    from lakejoin_jupyter.frames import nullable_dtype
    want = pd.array(np.zeros(2, dtype=dtype)).dtype
    assert nullable_dtype(np.dtype(dtype)) == want
    assert nullable_dtype(want) is want                 # already nullable: kept


@pytest.fixture(scope="module")
def codes_lake(spark, tmp_path_factory):
    """world/countries.csv: 60 country-like names, continents and life expectancies
    (45-82); air/airports.csv: 300 airports with a daylight-saving code of three values
    (A, N, U) and longitudes (-176..-65, one at 174); misc/*: 30 other small tables
    (reference codes, amounts and counts, none near the query's) as the lake's
    background: against it, any similarity at all reads as likely."""
    rng = np.random.default_rng(16)

    def word(n=8):
        return "".join(rng.choice(list("abdeiklmnorstuvz"), n)).capitalize()
    names = list(dict.fromkeys(word() for _ in range(200)))[:60]
    countries = pd.DataFrame({"country": names,
                              "continent": rng.choice(["Europe", "Asia", "Africa"], 60),
                              "life_exp": np.round(rng.uniform(45, 82, 60), 3)})
    lon = np.round(rng.uniform(-176, -65, 300), 4)
    lon[0] = 174.1136
    airports = pd.DataFrame({"faa": [word(3).upper() for _ in range(300)],
                             "dst": rng.choice(["A", "N", "U"], 300), "lon": lon})
    tables = {"world/countries.csv": countries, "air/airports.csv": airports}
    for t in range(30):
        tables[f"misc/t{t}.csv"] = pd.DataFrame({
            "ref": [f"{rng.integers(0, 16**6):06x}-{rng.integers(0, 999):03d}"
                    for _ in range(40)],
            "amount": np.round(rng.uniform(1000, 10 ** rng.uniform(4, 7), 40), 2),
            "count": rng.integers(200, 10 ** int(rng.integers(3, 6)), 40)})
    engine = lake_engine(spark, tmp_path_factory, "codeslake", tables, components=("union",))
    return engine, countries


@pytest.mark.spark
def test_a_code_column_and_far_apart_numbers_do_not_align(codes_lake):
    """European-like rows of countries (names, life expectancies) as the query: airports'
    three-value code (A/N/U: none of the countries, a few values are no sample) does not
    align with the country names, nor its longitudes (all but one under -65) with the life
    expectancies (45-82: their distributions barely meet), so airports is not listed;
    countries is (its rows)."""
    engine, countries = codes_lake
    frame = countries.iloc[:12][["country", "life_exp"]].assign(
        country=[c + "ia" for c in countries.country.iloc[:12]])     # rows of no table
    res = engine.search_unionable(frame, k=10)
    pairs = {(h.table, q, c) for h in res for q, c, _ in h.alignment}
    assert ("air/airports", "country", "dst") not in pairs, pairs
    assert ("air/airports", "life_exp", "lon") not in pairs, pairs
    assert "air/airports" not in {h.table for h in res}
    assert ("world/countries", "life_exp", "life_exp") in pairs


def test_numbers_whose_distributions_barely_meet_are_apart():
    """numbers_apart: longitudes (all but one under -65) against life expectancies (45-82)
    meet at one sketch point of 21 (KS similarity 1/21 < NUMBERS_APART) and share no value:
    apart; the query's one year 2007 against years 1952-2007 (as far apart by KS, the value
    shared) and two overlapping ranges are not."""
    from lakejoin_jupyter.index.union_profile import ks_similarity
    from lakejoin_jupyter.search.union import NUMBERS_APART, numbers_apart
    lon = np.append(np.linspace(-176, -65, 20), 174.1)
    life = np.linspace(45, 82, 21)
    years = np.linspace(1952, 2007, 21)
    ks = ks_similarity(np.stack([life, np.full(21, 2007.0), life + 10]),
                       np.stack([lon, years, life]))
    assert ks[0, 0] < NUMBERS_APART and ks[1, 1] < NUMBERS_APART and ks[2, 2] > 0.5
    shared = np.array([[0, 0, 0], [0, 1, 0], [0, 0, 3]])
    apart = numbers_apart(ks, shared, np.zeros_like(ks))
    assert apart[0, 0] and not apart[1, 1] and not apart[2, 2]
    assert not numbers_apart(np.array([[np.nan]]), np.array([[0]]), np.array([[0.0]]))[0, 0]
