"""Transformation-aware search on short values: a query of short keys (status codes, signal
names) whose partners hold them inside longer values, as a token ("HTTP/1.1 404 Not Found")
or glued to a constant letter affix ("SIGINT"), found through short-segment grams and
constant affixes (docs/algorithms/transform_search.md). Checked against the lake's
construction: the planted column is a hit, and each hit's coverage is what its program,
applied by hand, joins."""
from __future__ import annotations

import random
import string

import pandas as pd
import pytest

from lakejoin_jupyter.index.transform_arrays import TransformSpec

from conftest import write_lake
from test_transform_search import brute_coverage

HTTP = {"100": "Continue", "200": "OK", "201": "Created", "202": "Accepted",
        "204": "No Content", "301": "Moved Permanently", "302": "Found", "304": "Not Modified",
        "400": "Bad Request", "401": "Unauthorized", "403": "Forbidden", "404": "Not Found",
        "405": "Method Not Allowed", "409": "Conflict", "410": "Gone", "418": "I'm a teapot",
        "429": "Too Many Requests", "500": "Internal Server Error", "502": "Bad Gateway",
        "503": "Service Unavailable", "504": "Gateway Timeout"}
KILL_L = ["HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV",
          "USR2", "PIPE", "ALRM", "TERM", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG",
          "XCPU", "XFSZ", "PROF", "WINCH", "IO", "PWR", "SYS"]
STATUS_QUERY = ["404", "200", "500", "301", "302", "403", "401", "400", "503", "201", "204",
                "304", "429", "502", "418"]
SIGNAL_QUERY = ["SIGINT", "SIGTERM", "SIGKILL", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGSEGV",
                "SIGPIPE"]
WORDS = ["amber", "basalt", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo",
         "juniper", "kelp", "lumen", "marble", "nectar", "opal", "prairie"]


def short_lake(seed: int) -> tuple[dict, dict]:
    """Random short keys (3 digits, or 2-4 letters) planted inside longer values: a line
    with a constant head and a varying tail, a constant letter prefix glued on, and (for
    a query glued to a suffix) the keys as they are; distractors hold other short codes
    in lines and glued to other prefixes. The keys' letters are none of the affixes' (a
    program cutting at "X" would fit "ABX" but not "AXX"). Returns the tables and, per query, (its values,
    {(table, column): the query values that column joins after the planted change})."""
    rng = random.Random(seed)
    digits = rng.sample(range(100, 1000), 60)
    numbers, decoys = [str(d) for d in digits[:30]], [str(d) for d in digits[30:]]
    alphabet = [c for c in string.ascii_uppercase if c not in "SIGKZQXCD"]   # no affix's
    letters = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(2, 4)))
                      for _ in range(80)})
    rng.shuffle(letters)
    names, other = letters[:30], letters[30:60]
    head = rng.choice(["REC/2", "ACK", "HTTP/1.1"])
    glue, tail = rng.choice(["SIG", "K", "ZQ"]), rng.choice(["X", "CD"])
    in_lines = [n for n in numbers if rng.random() < 0.8]
    glued = [n for n in names if rng.random() < 0.8]
    plain = [n for n in names if rng.random() < 0.8]
    tables = {
        "lines.csv": pd.DataFrame({"line": [f"{head} {n} {rng.choice(WORDS).title()}"
                                            for n in in_lines],
                                   "n": range(len(in_lines))}),
        "glued.csv": pd.DataFrame({"tag": [f"{glue}{n}" for n in glued]}),
        "codes.csv": pd.DataFrame({"code": plain, "rank": range(len(plain))}),
        "decoy_lines.csv": pd.DataFrame({"line": [f"{head} {d} {rng.choice(WORDS)}"
                                                  for d in decoys]}),
        "decoy_glued.csv": pd.DataFrame({"tag": [f"QW{o}" for o in other]}),
        "words.csv": pd.DataFrame({"word": WORDS, "size": [len(w) for w in WORDS]}),
        # the two cases a user reported
        "http_status.csv": pd.DataFrame({"status_line": [f"HTTP/1.1 {c} {r}"
                                                         for c, r in HTTP.items()]}),
        "kill_l.csv": pd.DataFrame({"number": range(1, len(KILL_L) + 1), "name": KILL_L}),
    }
    queries = {
        "numbers": (numbers, {("lines", "line"): set(in_lines)}),
        "names": (names, {("glued", "tag"): set(glued)}),
        "glued_names": ([f"{n}{tail}" for n in names],
                        {("codes", "code"): {f"{n}{tail}" for n in plain}}),
    }
    return tables, queries


@pytest.fixture(scope="module")
def short_engine(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    tables, queries = short_lake(5)
    root = write_lake(tmp_path_factory.mktemp("slake") / "lake", tables)
    out = tmp_path_factory.mktemp("sidx") / "lake.index"
    return build_index(root, out, spark=spark, progress=False,
                       components=["transform"]), queries


def check_hits(engine, frame, column, planted: dict, k: int = 5):
    """Every hit's coverage is its program's join applied by hand; the planted columns are
    hits, joining exactly the query values they were built from."""
    res = engine.search(frame, column, method="transform", k=k)
    for h in res:
        joined, rows = brute_coverage(engine, h, frame, column)
        assert h.details["joined_rows"] == joined and h.details["query_rows"] == rows
    found = {(h.table, h.column): h for h in res}
    for where, values in planted.items():
        assert where in found, (where, [(h.table, h.column) for h in res])
        hit = found[where]
        assert set(hit.details["matched_tokens"]) == {v.lower() for v in values}
        assert hit.details["coverage"] == pytest.approx(len(values) / len(frame))
    return res


@pytest.mark.spark
@pytest.mark.parametrize("query", ["numbers", "names", "glued_names"])
def test_short_keys_inside_longer_values_are_found(short_engine, query):
    engine, queries = short_engine
    values, planted = queries[query]
    frame = pd.DataFrame({"key": values})
    res = check_hits(engine, frame, "key", planted)
    decoys = {("decoy_lines", "line"), ("decoy_glued", "tag")}
    assert not decoys & {(h.table, h.column) for h in res}    # their codes are not the query's


@pytest.mark.spark
@pytest.mark.parametrize("column, values, table, lake_column", [
    ("status", STATUS_QUERY, "http_status", "status_line"),    # "404" / "HTTP/1.1 404 Not Found"
    ("signal", SIGNAL_QUERY, "kill_l", "name")])               # "SIGINT" / `kill -l`'s "INT"
def test_short_codes_join_their_long_or_bare_form(short_engine, column, values, table,
                                                   lake_column):
    """15 HTTP status codes against a column of status lines, and 8 signal names against
    `kill -l`'s names: each finds its column first, covering every row."""
    engine, _ = short_engine
    frame = pd.DataFrame({column: values})
    res = check_hits(engine, frame, column, {(table, lake_column): set(values)})
    assert res[0].table == table and res[0].details["coverage"] == 1.0


@pytest.mark.spark
def test_a_query_without_partners_finds_nothing_on_a_current_index(short_engine):
    """Values no lake column holds in any form: no hit, and no advice to rebuild."""
    engine, _ = short_engine
    none = engine.search(pd.DataFrame({"x": ["qqqqq", "vvvvvvv", "wwww"]}), "x",
                         method="transform")
    assert len(none) == 0 and "rebuild" not in none.empty_message    # a current index


@pytest.mark.spark
def test_an_index_without_short_grams_answers_as_before_and_says_so(spark, tmp_path):
    """Built without short segments and affixes (as an index built before them reads): the
    status codes find nothing and the message says to rebuild; the signal names are still
    found, through the query's own affix."""
    from lakejoin_jupyter import build_index
    tables, _ = short_lake(5)
    root = write_lake(tmp_path / "lake", {k: tables[k] for k in ("http_status.csv",
                                                                 "kill_l.csv")})
    engine = build_index(root, tmp_path / "lake.index", spark=spark, progress=False,
                         components=["transform"],
                         component_options={"transform": {"short": 0, "affix": 0}})
    codes = engine.search(pd.DataFrame({"status": STATUS_QUERY}), "status", method="transform")
    # the index's own rebuild command (its lake, folder and options), short values back on
    out = tmp_path / "lake.index"
    assert len(codes) == 0 and codes.empty_message.endswith(
        f"rebuilding it finds them: `lakejoin index {root} --out {out} --set "
        f"transform.affix=0 --with transform --overwrite`.")
    assert "LAKE" not in codes.empty_message and "transform.short=0`" not in codes.empty_message
    signals = pd.DataFrame({"signal": SIGNAL_QUERY})
    res = engine.search(signals, "signal", method="transform")
    assert [(h.table, h.column) for h in res] == [("kill_l", "name")]


def test_a_spec_written_before_short_grams_reads_as_without_them():
    """An index built before short grams and affixes existed has neither in its spec: it
    reads as built without them (the query side still cuts its own affixes)."""
    old = {"q": 5, "max_gram_columns": 0, "max_value_bytes": 128}
    spec = TransformSpec.from_manifest(old)
    assert (spec.short, spec.affix) == (0, 0)
    assert TransformSpec.from_manifest(TransformSpec().manifest()) == TransformSpec()
    assert (TransformSpec().short, TransformSpec().affix) == (2, 1)
