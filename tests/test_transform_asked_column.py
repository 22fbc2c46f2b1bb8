"""A transformation hit joins on the query column the search was asked about: a query with a
`zone` ("Africa/Abidjan") and a `city` ("Abidjan"), searched on `zone`, finds the lake's
`city` through part 2 (split at "/") of `zone`; ``hit.autojoin`` and ``lakejoin join -m
transform`` join with that program, not with the query's `city` as it is, and the code's
comment names the column the code reads."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import write_lake

REGIONS = ["Africa", "America", "Asia", "Europe"]
CITIES = [f"{a}{b}" for a in ("Ab", "Bel", "Cor", "Dun", "Ev", "Fal", "Gor", "Hal", "Ist", "Jor")
          for b in ("ton", "ville", "mar", "burg", "stad", "haven", "port", "field")]
LAKE = pd.DataFrame({"zone": [f"{REGIONS[i % 4]}/{c}" for i, c in enumerate(CITIES)],
                     "city": CITIES,
                     "code": [f"Z{i:04d}" for i in range(len(CITIES))]})
ROWS = [0, 5, 10, 31, 44, 58, 71]


def _query(shuffled: bool) -> pd.DataFrame:
    """The lake's zone and city of 7 rows; ``shuffled``: each row's city is the next row's
    (every one still a lake city, so joining on it as it is joins other lake rows)."""
    z = LAKE.iloc[ROWS]
    city = z["city"].tolist()
    if shuffled:
        city = city[1:] + city[:1]
    return pd.DataFrame({"zone": z["zone"].tolist(), "city": city, "units": range(len(ROWS))})


def _oracle(q: pd.DataFrame) -> list:
    """The hit's program in pandas: part 2 of the query's zone equals the lake's city."""
    k = q.assign(__k=q["zone"].str.split("/").str[1])
    got = k.merge(LAKE.rename(columns={"zone": "zone_right", "city": "city_right"}),
                  left_on="__k", right_on="city_right", how="left")
    return sorted(zip(got["zone"], got["units"], got["code"]))


def test_the_code_comment_names_the_column_a_key_part_reads():
    """Auto-Join on two whole tables, asked for the query's `zone`, joins through a key part
    of `zone` read from `zone` (not from the query's `city`, equal to that part): the plan's
    description, the code's comment, names the column its code reads."""
    from lakejoin_jupyter.join.autojoin import autojoin
    q = _query(False)
    aj = autojoin(q, LAKE.iloc[ROWS], "zone", "city", left_name="df", right_name="zones")
    assert aj.found
    code = aj.code()
    comment = next(line for line in code.splitlines() if "Auto-Join:" in line)
    read = {c for c in ("zone", "city") if f"zip(df['{c}'])" in code}
    assert read == {"zone"}, code
    other = ({"zone", "city"} - read).pop()
    assert f"`{read.pop()}`" in comment and f"'{other}' of df" not in comment, comment


@pytest.fixture(scope="module")
def zones_index(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    root = write_lake(tmp_path_factory.mktemp("zonelake") / "lake", {"zones_meta.csv": LAKE})
    out = tmp_path_factory.mktemp("zoneidx") / "lake.index"
    build_index(root, out, spark=spark, progress=False, components=["transform"])
    return out


def _hit(engine, q):
    hit = next(h for h in engine.search(q, "zone", method="transform", k=3)
               if h.column == "city")
    assert (hit.details["direction"], hit.details["program"]) == \
        ("query -> lake", 'part 2 (split at "/") of `zone`')
    return hit


@pytest.mark.spark
@pytest.mark.parametrize("shuffled", [False, True])
def test_hit_autojoin_joins_on_the_asked_query_column(zones_index, shuffled):
    """hit.autojoin(q) learns on `zone`, the column searched, and joins as the hit's program
    does (pandas oracle); its code reads `zone` and its comment says so."""
    from lakejoin_jupyter import open_index
    q = _query(shuffled)
    aj = _hit(open_index(zones_index), q).autojoin(q)
    assert aj.found, aj.message
    assert (aj.source, aj.program.describe()) == ("left", 'part 2 (split at "/") of `zone`')
    joined = aj.join(q)
    assert list(joined.columns[:3]) == ["zone", "city", "units"]
    assert sorted(zip(joined["zone"], joined["units"], joined["code"])) == _oracle(q)
    code = aj.code()
    comment = next(line for line in code.splitlines() if "Auto-Join:" in line)
    assert "zip(df['zone'])" in code and "zip(df['city'])" not in code
    assert "`zone`" in comment, comment
    ns = {"df": q}
    exec(code, ns)
    assert sorted(zip(ns["joined"]["zone"], ns["joined"]["units"], ns["joined"]["code"])) == \
        _oracle(q)


@pytest.mark.spark
def test_find_transformation_joins_on_the_asked_query_column(zones_index):
    """The Find transformation action (hit.autojoin underneath) on the query of the report:
    the hit's program, no other one named, the pandas oracle's rows."""
    from lakejoin_jupyter import open_index
    from lakejoin_jupyter.actions import get
    engine = open_index(zones_index)
    q = _query(False)
    res = get("autojoin")(engine, _hit(engine, q), q)
    assert res.ok, res.summary
    assert res.result.program.describe() == 'part 2 (split at "/") of `zone`'
    assert "Not the hit's program" not in res.summary
    assert sorted(zip(res.joined["zone"], res.joined["units"], res.joined["code"])) == _oracle(q)


@pytest.mark.spark
def test_cli_join_transform_joins_on_the_asked_column(zones_index, tmp_path, capsys):
    """``lakejoin join -m transform`` on the query of the report (its `city` equal to the
    lake's): the joined file is the hit's program's join, and the summary names no other
    program."""
    from lakejoin_jupyter.cli import main
    q = _query(False)
    q.to_csv(tmp_path / "q.csv", index=False)
    assert main(["join", str(zones_index), "-t", str(tmp_path / "q.csv"), "-c", "zone",
                 "-m", "transform", "--hit", "1", "--out", str(tmp_path / "j.csv")]) == 0
    err = capsys.readouterr().err
    assert 'part 2 (split at "/") of `zone`, applied to the query\'s `zone`' in err
    assert "Auto-Join (hit.autojoin(df)) joined with" not in err, err
    got = pd.read_csv(tmp_path / "j.csv", dtype=str)
    assert sorted(zip(got["zone"], got["units"].astype(int), got["code"])) == _oracle(q)


@pytest.mark.spark
def test_hit_autojoin_of_a_spark_frame_learns_on_its_first_rows(zones_index, spark):
    """The sixteenth new user's D16: hit.autojoin(spark_df) raised TypeError ('Column' object
    is not callable). It learns on the frame's first rows as pandas (as the Find
    transformation action does), the hit's program, and joins the Spark frame as the pandas
    oracle does."""
    from lakejoin_jupyter import open_index
    q = _query(False)
    sdf = spark.createDataFrame(q)
    aj = _hit(open_index(zones_index), q).autojoin(sdf)
    assert aj.found, aj.message
    assert (aj.source, aj.program.describe()) == ("left", 'part 2 (split at "/") of `zone`')
    joined = aj.join(sdf)
    if not isinstance(joined, pd.DataFrame):
        joined = joined.toPandas()
    assert sorted(zip(joined["zone"], joined["units"], joined["code"])) == _oracle(q)
