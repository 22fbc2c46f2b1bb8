"""newuser17's defects D3, D4, D6, D7, D9: Auto-Join compares its keys as the search does
(normalized), writes PySpark code for a Spark query, takes a Spark query frame; ``lakejoin
info`` describes an index of an older normalization; a fuzzy join's two configurations of
one function are told apart. Hand-checked answers and a brute-force oracle."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import lakejoin_jupyter as lj
from lakejoin_jupyter.lake.normalize import normalize_many

FIRST = ["Yaxel", "Kawhi", "Draymond", "Jamal", "Trae", "Stephen", "LeBron", "Nikola",
         "Jayson", "Devin", "Damian", "Anthony"]
LAST = ["Lendeborg", "Leonard", "Green", "Murray", "Young", "Curry", "James", "Jokic",
        "Tatum", "Booker", "Lillard", "Edwards"]


def _players():
    """A query of "First Last" names, one written in capitals, and a table of "Last, First"
    (one name more, one less)."""
    names = [f"{f} {l}" for f, l in zip(FIRST, LAST)]
    names[0] = names[0].upper()                                  # "YAXEL LENDEBORG"
    q = pd.DataFrame({"player": names[:-1] + ["Zzyzx Nobody"], "n": range(len(names))})
    other = pd.DataFrame({"player": [f"{l}, {f}" for f, l in zip(FIRST, LAST)],
                          "team": [f"T{i}" for i in range(len(FIRST))]})
    return q, other


def _oracle_pairs(q, other):
    """(query row, other row) whose "First Last" from "Last, First" equals the query's name
    after lakejoin's normalization: by brute force over every pair."""
    derived = [" ".join(reversed(v.split(", "))) for v in other["player"]]
    qn, dn = normalize_many(list(q["player"])), normalize_many(derived)
    return {(i, j) for i, a in enumerate(qn) for j, b in enumerate(dn) if a is not None and a == b}


@pytest.mark.parametrize("fuzzy", [False, True])
def test_d3_autojoin_equality_is_the_normalized_one(fuzzy):
    """D3: "YAXEL LENDEBORG" joins "Lendeborg, Yaxel" by equality (it was lost without the
    fuzzy join and a fuzzy "match" with it); the join, its pairs and its code agree with
    the oracle: 11 of 12 rows."""
    q, other = _players()
    aj = lj.autojoin(q, "player", other, "player", fuzzy=fuzzy)
    assert aj.found
    want = _oracle_pairs(q, other)
    assert len(want) == 11 and (0, 0) in want
    assert set(aj.pairs(fuzzy=fuzzy)) == want
    assert aj.coverage == 11 and aj.joined_rows == 11
    assert aj.fuzzy is None or not aj.fuzzy.matches       # no fuzzy match for a case change
    joined = aj.join(q)
    assert sorted(joined["n"]) == sorted(i for i, _ in want)
    ns = {"q": q, "other": other}
    exec(aj.code("q", "out", other="other"), ns)
    pd.testing.assert_frame_equal(ns["out"], joined)


def _states():
    from tests.test_join_contract import states_frame
    return states_frame()


def _same_rows(spark_frame, pandas_frame):
    got = spark_frame.toPandas().astype(str).sort_values(list(pandas_frame.columns))
    want = pandas_frame.astype(str).sort_values(list(pandas_frame.columns))
    assert got.reset_index(drop=True).equals(want.reset_index(drop=True))


@pytest.mark.spark
def test_d4_hit_autojoin_of_a_spark_frame_writes_pyspark_that_runs(demo_engine, spark):
    """D4: the code of ``hit.autojoin(spark_df)`` is PySpark; run in a fresh namespace
    where only ``sq`` (the Spark frame) is bound, it gives the join's rows, which are the
    pandas join's (the oracle: the same program over the pandas frame)."""
    frame = _states()
    sq = spark.createDataFrame(frame)
    hit = next(h for h in demo_engine.search(sq, "state", k=None)
               if h.table == "fivethirtyeight/bad-drivers/bad-drivers" and h.column == "State")
    aj = hit.autojoin(sq)
    assert aj.found
    code = aj.code("sq", "out")
    assert "(PySpark;" in code.splitlines()[0] and ".assign(" not in code
    ns = {"sq": sq}
    exec(compile(code, "<cell>", "exec"), ns)            # noqa: S102 - the code under test
    want = hit.autojoin(frame).join(frame)
    assert len(want) == len(frame)
    _same_rows(ns["out"], want)
    _same_rows(aj.join(sq), want)


@pytest.mark.spark
def test_d6_lj_autojoin_takes_a_spark_query_frame(spark):
    """D6: ``lj.autojoin(spark_df, ...)`` learns as ``hit.autojoin`` does (its first rows)
    and joins and writes PySpark; a Spark *other* table is refused saying what to pass."""
    q, other = _players()
    sq = spark.createDataFrame(q)
    aj = lj.autojoin(sq, "player", other, "player", fuzzy=False)
    assert aj.found and set(aj.pairs(fuzzy=False)) == _oracle_pairs(q, other)
    code = aj.code("sq", "out", other="other")
    assert "(PySpark;" in code.splitlines()[0]
    ns = {"sq": sq, "other": spark.createDataFrame(other)}   # PySpark code: Spark frames
    exec(compile(code, "<cell>", "exec"), ns)            # noqa: S102 - the code under test
    want = lj.autojoin(q, "player", other, "player", fuzzy=False).join(q)
    assert len(want) == 11
    _same_rows(ns["out"], want)
    _same_rows(aj.join(sq), want)
    from lakejoin_jupyter.join.autojoin import AutoJoinInputError
    with pytest.raises(AutoJoinInputError, match=r"other table is a Spark DataFrame.*"
                                                 r"other\.toPandas\(\)"):
        lj.autojoin(q, "player", spark.createDataFrame(other), "player")


def _older_index(tmp_path):
    """An index folder whose manifest records an older normalization (all ``info`` reads)."""
    import json
    from lakejoin_jupyter.index.store import FORMAT_NAME, MANIFEST, READABLE_VERSIONS
    from lakejoin_jupyter.lake.normalize import normalization_spec
    path = tmp_path / "old.index"
    path.mkdir()
    norm = dict(normalization_spec(), version=normalization_spec()["version"] - 1)
    (path / MANIFEST).write_text(json.dumps({
        "format": FORMAT_NAME, "format_version": max(READABLE_VERSIONS), "normalization": norm,
        "created": "2026-01-02T03:04:05+00:00", "package_version": "0.1.0",
        "lake": {"kind": "folder", "root": str(tmp_path / "lake"), "catalog_tables": []},
        "counts": {"tables": 3, "indexed_tables": 2, "columns": 7, "tokens": 120,
                   "postings": 140},
        "components": {"josie": {}, "union": {}},
        "build": {"options": ["--with", "union"]},
        "skipped": [{"path": "bad.csv", "reason": "is empty (nothing to index)"}]}))
    return path, norm


def test_d7_info_describes_an_index_of_an_older_normalization(tmp_path, capsys):
    """D7: ``lakejoin info`` of an index built with an older normalization says what it
    holds and was built with, then the rebuild (exit status 1: it cannot be searched)."""
    from lakejoin_jupyter.cli import main
    path, norm = _older_index(tmp_path)
    assert main(["info", str(path)]) == 1
    out = capsys.readouterr().out
    for said in (f"from {tmp_path / 'lake'}", f"normalization {norm['name']} v{norm['version']}",
                 "3 tables (2 indexed), 7 columns, 120 distinct values", "components: josie, union",
                 "build options: --with union", "bad.csv: is empty",
                 f"rebuild the index: `lakejoin index {tmp_path / 'lake'} --out {path} "
                 f"--with union --overwrite`"):
        assert said in out, (said, out)
    assert main(["info", str(path), "--json"]) == 1
    import json
    d = json.loads(capsys.readouterr().out)
    assert d["searchable"] is False and d["counts"]["tables"] == 3
    assert d["normalization"]["version"] == norm["version"] and "rebuild" in d["advice"][0]


def test_d9_two_configurations_of_one_function_are_told_apart():
    """D9: a union holding one function at two thresholds: the repr says the second is the
    same function again, and matches() gives each value the threshold of the configuration
    that joined it (oracle: the lower one for a distance within it, listed first and rating
    its matches at least as probable; the higher one beyond)."""
    from lakejoin_jupyter.join.fuzzy import fuzzy_join, union_matches
    ref = pd.DataFrame({"name": ["Germany", "France", "United States", "United Kingdom",
                                 "Vietnam", "Brazil", "Mexico", "Norway", "Kenya", "Japan",
                                 "Peru", "Chile", "Bolivia", "Syria", "Czechia", "Russia"]})
    q = pd.DataFrame({"land": ["Germny", "Frnace", "Untied States", "Viet Nam", "Brasil",
                               "Mexiko", "Norwegen", "Kenia", "Japan", "Peru", "Chile"]})
    fj = fuzzy_join(ref, q, on=("name", "land"), precision_target=0.5)
    f = fj.function
    c = fj._cands[f]
    dist = np.sort(np.unique(c.r_dist[np.isfinite(c.r_dist) & (c.r_dist > 0)]))
    assert len(dist) >= 3
    low, high = float(dist[len(dist) // 2 - 1]), float(dist[-1])
    fj.configs, fj.threshold = [(f, low), (f, high)], high      # as the choice sets them
    fj._union, fj._union_fn = union_matches(fj._cands, fj.configs)
    # in the order added (newuser18 D9), the second the same function again (the repr's
    # one line names those that joined the most first: newuser19 D4)
    assert f"join functions in the order chosen: {f} at {low:.3f} (of 0..1.00; " in fj.summary()
    assert f"), {f} again at {high:.3f} (of 0..1.00; " in fj.summary()
    m = fj.matches()
    assert len(m) > 0 and (m["distance"] > low).any() and (m["distance"] <= low).any()
    want = [low if d <= low else high for d in m["distance"]]
    assert list(m["threshold"]) == want


def test_d3_compared_keys_fold_case_and_keep_what_normalization_drops():
    """The keys Auto-Join compares: the normalized token, or the text as written where the
    normalization drops it (oracle: normalize_many per value, by hand)."""
    from lakejoin_jupyter.join.keys import compared_keys
    long = "f(" + ", ".join(f"arg{i}" for i in range(120)) + ")"
    texts = ["YAXEL LENDEBORG", "Yaxel  Lendeborg ", "NULL", "+()", long, None, "007", "", "  "]
    got = compared_keys(pd.Series(texts, dtype=object)).tolist()
    assert got == ["yaxel lendeborg", "yaxel lendeborg", "NULL", "+()", long, None, "7", None,
                   None]
    assert [n if n is not None or not (t or "").strip() else t
            for t, n in zip(texts, normalize_many(texts))] == got
