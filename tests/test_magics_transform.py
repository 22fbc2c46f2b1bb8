"""``%lakejoin join`` of a "Needs a transformation" hit and ``%lakejoin autojoin --insert``
(new user 9, item 7): the bound frame equals the Python API's join and pandas, and the
inserted cell, run in a fresh namespace, equals the bound frame."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import write_lake
from test_transform_joins import _proto_oracle, joins_lake

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def lake(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    tables = joins_lake()
    root = write_lake(tmp_path_factory.mktemp("mtlake") / "lake", tables)
    out = tmp_path_factory.mktemp("mtidx") / "lake.index"
    build_index(root, out, spark=spark, progress=False, components=["transform"])
    return out, tables


@pytest.fixture
def ip(ip_inserting):
    return ip_inserting


def _fresh(code: str, **frames) -> dict:
    ns = dict(frames)
    exec(compile(code, "<inserted cell>", "exec"), ns)   # noqa: S102
    return ns


def test_magic_join_of_a_transform_hit(ip, lake):
    from lakejoin_jupyter.magics.context import MagicError
    index, tables = lake
    q = pd.DataFrame({"num": ["6", "17", "1", "41", "58", "999"]})
    ip.user_ns["q"] = q
    ip.run_line_magic("lakejoin", f"open {index}")
    ip.run_line_magic("lakejoin", "search q.num -m transform -k 3 --save th")
    rank = next(h.rank for h in ip.user_ns["th"] if h.table == "net/protocols_prefixed")
    prefixed = tables["net/protocols_prefixed.csv"]
    for how in ("left", "inner"):
        ip.inserted.clear()
        ip.run_line_magic("lakejoin", f"join {rank} --from th --how {how} --into j_{how} "
                                      f"--insert --quiet")
        got = ip.user_ns[f"j_{how}"]
        want = _proto_oracle(q, "num", prefixed, how)
        assert len(got) == len(want) == (6 if how == "left" else 5)
        assert sorted(got["proto_id"].dropna()) == sorted(want["proto_id"].dropna())
        hit = ip.user_ns["th"][rank - 1]
        pd.testing.assert_frame_equal(got, hit.autojoin(q).join(q, how=how))
        fresh = _fresh(ip.inserted[-1], q=q)
        pd.testing.assert_frame_equal(fresh[f"j_{how}"], got)
    ip.run_line_magic("lakejoin", f"join {rank} --from th --quiet")   # the default name
    assert any(k.endswith("_transformed") for k in ip.user_ns if k.startswith("q_"))
    # one row per query row, as the equi-join's options give (new user 12, defect 2)
    for opt in ("--duplicates first", "--aggregate first"):
        ip.inserted.clear()
        ip.run_line_magic("lakejoin", f"join {rank} --from th {opt} --into j1 --insert --quiet")
        got = ip.user_ns["j1"]
        assert len(got) == len(q)
        pd.testing.assert_frame_equal(_fresh(ip.inserted[-1], q=q)["j1"], got)
    with pytest.raises(MagicError, match="dates='day-first' goes with aggregate = latest"):
        ip.run_line_magic("lakejoin", f"join {rank} --from th --dates day-first")


def test_magic_autojoin_inserts_its_join(ip, lake):
    index, tables = lake
    q = pd.DataFrame({"num": ["6", "17", "1", "41", "58", "999"]})
    prefixed = tables["net/protocols_prefixed.csv"]
    ip.user_ns.update(q=q, pre=prefixed)
    ip.run_line_magic("lakejoin", f"open {index}")
    want = _proto_oracle(q, "num", prefixed, "left")       # left, as %lakejoin join
    # with a lake table, and with a DataFrame of the notebook
    for other, var in (("net/protocols_prefixed.proto_id", "jl"), ("pre.proto_id", "jf")):
        ip.inserted.clear()
        aj = ip.run_line_magic("lakejoin", f"autojoin q.num {other} --join {var} --insert")
        assert aj.found
        got = ip.user_ns[var]
        assert len(got) == len(want)
        assert sorted(got["proto_id"].dropna()) == sorted(want["proto_id"].dropna())
        fresh = _fresh(ip.inserted[-1], q=q, pre=prefixed)
        pd.testing.assert_frame_equal(fresh[var], got)
    ip.inserted.clear()
    ip.run_line_magic("lakejoin", "autojoin q.num pre.proto_id --insert")
    name = "q_pre_transformed"
    assert f"{name} = " in ip.inserted[-1] and len(ip.user_ns[name]) == len(want)
    ip.run_line_magic("lakejoin", "autojoin q.num pre.proto_id --insert")   # run again
    assert f"{name} = " in ip.inserted[-1]                                 # its name back
    ip.run_line_magic("lakejoin", "autojoin q.num pre.proto_id --join ji --how inner")
    assert len(ip.user_ns["ji"]) == len(_proto_oracle(q, "num", prefixed, "inner")) == 5


def test_magic_autojoin_on_another_column_never_replaces_the_first(ip, lake, capsys):
    """New user 10, D1/D13/D11: the join identity of ``%lakejoin autojoin`` holds its
    columns, so the same table joined on another query column is another join (another
    variable, the first left as it was), the cell's mark names the columns, and the magic
    says which variable it bound."""
    index, tables = lake
    prefixed = tables["net/protocols_prefixed.csv"]
    q = pd.DataFrame({"num": ["6", "17", "1", "41", "58", "999"],
                      "alt": ["17", "6", "41", "1", "999", "58"]})
    ip.user_ns.update(q2=q, pre=prefixed)
    ip.run_line_magic("lakejoin", f"open {index}")
    ip.inserted.clear()
    ip.run_line_magic("lakejoin", "autojoin q2.num pre.proto_id --insert")
    first = ip.user_ns["q2_pre_transformed"].copy()
    assert "[of q2.num -> pre.proto_id]" in ip.inserted[-1]
    assert "bound to q2_pre_transformed" in capsys.readouterr().out
    ip.run_line_magic("lakejoin", "autojoin q2.alt pre.proto_id --insert")
    assert "[of q2.alt -> pre.proto_id]" in ip.inserted[-1]
    pd.testing.assert_frame_equal(ip.user_ns["q2_pre_transformed"], first)
    second = [k for k in ip.user_ns if k.startswith("q2_pre") and k != "q2_pre_transformed"]
    assert len(second) == 1, second
    want = _proto_oracle(q.rename(columns={"num": "x", "alt": "num"}), "num", prefixed, "left")
    assert sorted(ip.user_ns[second[0]]["proto_id"].dropna()) == sorted(want["proto_id"].dropna())
