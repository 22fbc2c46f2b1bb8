"""Generated join code runs and reproduces the engine's join, whatever the names hold.

Names mix quotes, backslashes, newlines, '#', unicode and Python keywords, so a code
generator that pasted names into the source instead of repr()-quoting them produces a
syntax error, a different column, or runs a statement hidden in a name (the CANARY).
"""
import io
import keyword
import tokenize

import pandas as pd
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lakejoin_jupyter.index.tables import LakeTable as TableSource
from lakejoin_jupyter.index.tables import table_from_info
from lakejoin_jupyter.join import codegen
from lakejoin_jupyter.join.execute import join_pandas
from lakejoin_jupyter.join.plan import make_plan
from lakejoin_jupyter.lake.read import inspect, read_table

NASTY = ["it's", 'say "hi"', "back\\slash", "new\nline", "# not a comment", "ünïcødé ✓",
         "class", "None", "lambda", "import os", "a.b", "`tick`", "tab\tbed", "''' triple",
         "x'); CANARY.append(1); ('", "\\n", "{braces}", "%s %d", "$HOME"]
VALUES = ["France", "FRANCE", " france", "Chad", "tchad", "7", "007", "7.0", "", "n/a", None,
          "a,b", 'quo"te', "multi\nline", "# hash", "ünï", "1,5", "-13,25"]
QUERY_NAMES = ["df", "données", "q_2", "sales", "Df"]

CANARY = []


def plan_join(src, left_columns, left_on, right_on, **kw):
    """A plan joining a frame with columns ``left_columns`` to the lake table ``src``."""
    return make_plan(list(left_columns), list(left_on), src.columns, list(right_on), other=src,
                     **kw)


def names(n):
    base = st.one_of(st.sampled_from(NASTY),
                     st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1,
                             max_size=6),
                     st.sampled_from(keyword.kwlist))
    return st.lists(base, min_size=n, max_size=n,
                    unique_by=lambda s: s.strip()).filter(
        lambda xs: all(x.strip() for x in xs) and len({x.strip() for x in xs}) == len(xs))


@st.composite
def cases(draw):
    n_right = draw(st.integers(1, 4))
    right_names = draw(names(n_right))
    left_names = draw(names(2))
    rows = draw(st.lists(st.lists(st.sampled_from(VALUES), min_size=n_right, max_size=n_right),
                         min_size=1, max_size=8))
    left_vals = draw(st.lists(st.sampled_from(VALUES), min_size=1, max_size=8))
    table = draw(st.sampled_from(NASTY))
    return right_names, left_names, rows, left_vals, table, draw(st.sampled_from(QUERY_NAMES)), \
        draw(st.sampled_from(["left", "inner"])), draw(st.sampled_from(["all", "first"])), \
        draw(st.sampled_from([",", ";", "\t", "|"]))


@settings(max_examples=60, deadline=None)
@given(cases())
def test_pandas_code_reproduces_join_for_nasty_names(tmp_path_factory, case):
    right_names, left_names, rows, left_vals, table, qname, how, dup, sep = case
    d = tmp_path_factory.mktemp("lake")
    path = d / "t.csv"
    pd.DataFrame(rows, columns=right_names).to_csv(path, index=False, sep=sep)
    info = inspect(0, str(path), "csv")
    # a one-column file of "a,b" values is ambiguous to any delimiter sniffer, and a file
    # of one empty cell has no data row: those are the reader's business, not codegen's
    assume(info.ok and info.columns == [c.strip() for c in right_names])
    source = table_from_info(table, info)
    assume(source.clean)   # ragged: read by the engine reader, tested with a real index
    right = read_table(info)                      # what engine.table() returns
    left = pd.DataFrame({left_names[0]: left_vals,
                         left_names[1]: [f"p{i}" for i in range(len(left_vals))]})
    plan = plan_join(source, left.columns, [left_names[0]], [info.columns[0]], how=how,
                     duplicates=dup)
    want = join_pandas(left, right, plan)
    code = codegen.plan_code(plan, name=qname, into="joined_x")
    compile(code, "<generated>", "exec")
    ns = {qname: left, "CANARY": CANARY}
    exec(code, ns)  # noqa: S102 - generated from repr()-quoted names only
    pd.testing.assert_frame_equal(ns["joined_x"], want)
    assert CANARY == []
    assert ns[qname] is left and list(left.columns) == left_names   # query left untouched


def test_header_that_pandas_reads_differently_is_spelled_out(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(" padded ,b\nx,1\n", encoding="utf-8")
    info = inspect(0, str(path), "csv")
    src = table_from_info("t", info)
    assert info.columns == ["padded", "b"] and not src.header_matches
    plan = plan_join(src, ["k"], ["k"], ["padded"])
    code = codegen.plan_code(plan, name="df", into="out")
    assert "names=['padded', 'b']" in code
    ns = {"df": pd.DataFrame({"k": ["X"]})}
    exec(code, ns)  # noqa: S102
    assert ns["out"].to_dict("records") == [{"k": "X", "padded": "x", "b": "1"}]


def test_comment_lines_cannot_smuggle_code():
    src = TableSource("evil\nCANARY.append('table')", "catalog", "db.t",
                      ("k\nCANARY.append('column')",), index_path="/nowhere")
    plan = plan_join(src, ["q\nCANARY.append('query')"], ["q\nCANARY.append('query')"],
                     ["k\nCANARY.append('column')"])
    for code in (codegen.plan_code(plan, name="df", into="out"),
                 codegen.plan_code(plan, name="df", into="out", spark=True)):
        compile(code, "<generated>", "exec")
        toks = tokenize.generate_tokens(io.StringIO(code).readline)
        names = {t.string for t in toks if t.type == tokenize.NAME}
        assert "CANARY" not in names   # only ever inside string literals or comments


def test_spark_code_compiles_for_every_format():
    for fmt in ("csv", "tsv", "parquet", "jsonl", "catalog"):
        src = TableSource("t'#", fmt, "/lake/we'ird #.x", ("a\nb", "c`d"), encoding="cp1252",
                          delimiter="\t")
        for dup in ("all", "first"):
            plan = plan_join(src, ["q"], ["q"], ["a\nb"], duplicates=dup)
            code = codegen.plan_code(plan, name="df", into="out", spark=True)
            compile(code, "<generated>", "exec")
            if fmt in ("csv", "tsv"):      # Spark 4 has no windows-1252: ISO-8859-1 + a map
                assert "'ISO-8859-1'" in code and "F.translate(" in code
                assert "windows-1252" not in code


def _comments(code):
    return [t.string for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type == tokenize.COMMENT]


def test_comments_are_plain_text_on_one_line():
    """A comment reads as text (no repr quotes, no escaped quotes); a line break in lake
    content is written as its escape, so the comment holds the whole text and ends the line."""
    src = TableSource("travel/air'ports", "catalog", "db.t", ("iata", "k"), index_path="/nowhere")
    desc = "Auto-Join: all after part 1 (split at \"K\") of `icao` equals 'iata'\nCANARY.append(1)"
    plan = plan_join(src, ["icao"], ["icao"], ["iata"], description=desc)
    for code in (codegen.plan_code(plan, name="df", into="out"),
                 codegen.plan_code(plan, name="df", into="out", spark=True)):
        compile(code, "<generated>", "exec")
        comments = _comments(code)
        want = ("# Auto-Join: all after part 1 (split at \"K\") of `icao` equals 'iata'"
                "\\nCANARY.append(1)")
        assert want in comments
        assert any("with travel/air'ports on" in c for c in comments)
        assert not any(c.startswith("# '") or c.startswith('# "') or "\\'" in c
                       for c in comments)


def test_comment_text_escapes_every_line_break():
    for brk in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029":
        text = codegen.comment_text(f"a{brk}b")
        assert len(("# " + text).splitlines()) == 1 and text.startswith("a") and text.endswith("b")
    assert codegen.comment_text("it's \"x\" ✓") == "it's \"x\" ✓"
