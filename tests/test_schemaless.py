"""Schemaless join (join/schemaless.py): the paper's toy tables, brute force on random tables,
joins and generated code, bad input. Spark tests: engine + hit action on the demo index, and
Spark DataFrame inputs (sampling + exact rescoring by Spark jobs)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from lakejoin_jupyter.errors import QueryError
from lakejoin_jupyter.join import schemaless as sl
from lakejoin_jupyter.join import schemaless_bruteforce as bf

PEOPLE = pd.DataFrame([
    ["P1", "001", "Alice", "Main St.", "Steve"], ["P2", "002", "Alice", "Royal Rd.", "Steve"],
    ["P3", "003", "Bob", "Robson St.", "Ada"], ["P4", "004", "Lucy", "Univ Dr.", "Steve"],
    ["P5", "005", "Steve", "Main St.", "Steve"], ["P6", "006", "Tom", "Beta Ave.", "Steve"]],
    columns=["ID", "Tel", "Name", "Home", "Clerk"])
ORDERS = pd.DataFrame([   # [S Fig. 1] (where Fig. 2 disagrees, Fig. 1 holds)
    ["O1", "Alice", "Main St.", "001", "Apr 1", "Steve"],
    ["O2", "Bob", "Royal Rd.", "010", "Apr 1", "Alice"],
    ["O3", "Bob", "Robson St.", "003", "Apr 2", "Steve"],
    ["O4", "Alice", "Main St.", "001", "Apr 3", "Steve"],
    ["O5", "Tom", "Beta Ave.", "006", "Apr 4", "Steve"],
    ["O6", "Peter", "Main St.", "011", "Apr 5", "Alice"]],
    columns=["ID", "Client", "Address", "Tel", "Date", "Manager"])

P1 = (("Name", "Client"),)
P2 = (("Tel", "Tel"), ("Name", "Client"), ("Home", "Address"))
P3 = (("Home", "Address"),)
P4 = (("Name", "Manager"),)
P5 = (("Name", "Manager"), ("Home", "Address"))
# the paper's toy example: J, h1..h5 per predicate (they match every value printed in [S])
TOY = {P1: (7, 9, 3, 2, 1.3788, 0.6923), P2: (4, 7, 3, 3, 1.5, 0.7),
       P3: (9, 11, 4, 2, 1.4466, 0.7333), P4: (8, 9, 2, 1, 1.0, 0.6429),
       P5: (4, 7, 3, 3, 1.5, 0.7), (): (36, 12, 1, -24, 0.0, 0.2857)}
TOY_OPTIMUM = {"h1": [P3], "h2": [P3], "h3": [P2], "h4": [P2], "h5": [P3]}


def _stats(left, right, pairs) -> sl.Stats:
    enc = sl.encode(left, right)
    lc, rc = enc.left_columns, enc.right_columns
    st = sl._exact_stats_codes(enc.left, enc.right, enc.n_values,
                               [(lc.index(a), rc.index(b)) for a, b in pairs])
    return st


def _as_set(pairs):
    return frozenset(tuple(p) for p in pairs)


# ---------------------------------------------------------------------- the paper's toy tables

@pytest.mark.parametrize("pred", list(TOY))
def test_toy_values_of_every_printed_predicate(pred):
    J, e1, e2, e3, e4, e5 = TOY[pred]
    st = _stats(PEOPLE, ORDERS, pred)
    d = st.describe()
    assert d["join_size"] == J
    assert (d["h1"], d["h2"], d["h3"]) == (e1, e2, e3)
    assert round(d["h4"], 4) == e4 and round(d["h5"], 4) == e5
    assert d["outer_join_size"] == 12 - e3      # |R| + |S| - h3 [S §IV-C]
    # the oracle, written independently, agrees
    if pred:
        groups = bf._groups(*[list(zip(*[sl.normalize_many(f[c].tolist()) for c in f]))
                              for f in (PEOPLE, ORDERS)],
                            [(list(PEOPLE).index(a), list(ORDERS).index(b)) for a, b in pred])
        o = bf.scores(groups, 6, 6)
        assert (o["h1"], o["h2"], o["h3"]) == (e1, e2, e3)
        assert math.isclose(o["h4"], d["h4"]) and math.isclose(o["h5"], d["h5"])


def test_toy_paper_statements():
    d = {p: _stats(PEOPLE, ORDERS, p).describe() for p in TOY}
    # non-monotonicity examples [S §V-B.3]
    assert d[P4]["h2"] == 2 < d[P5]["h2"] == 3
    assert d[P3]["h3"] == 2 < d[P2]["h3"] == 3
    assert round(d[P3]["h4"], 3) == 1.447 < d[P2]["h4"] == 1.5
    assert round(d[P1]["h5"], 3) == 0.692 < d[P2]["h5"] == 0.7
    # p2' = {(Tel, Tel)} is not closed: same result as p2 [S §III]
    assert _stats(PEOPLE, ORDERS, (("Tel", "Tel"),)).join == d[P2]["join_size"]
    # R ⟗_p2 S adds P2, P4, P5 and O2, O6 to the 4 inner rows [S §III]
    assert d[P2]["outer_join_size"] == 4 + 3 + 2
    # K(p2) = {(001, Alice, Main St.), (003, Bob, Robson St.), (006, Tom, Beta Ave.)}
    from lakejoin_jupyter.join.execute import join_pandas
    from lakejoin_jupyter.join.plan import make_plan
    joined = join_pandas(PEOPLE, ORDERS, make_plan(PEOPLE.columns, [a for a, _ in P2],
                                                   ORDERS.columns, [b for _, b in P2], how="inner"))
    assert set(map(tuple, joined[["Tel", "Name", "Home"]].values)) == {
        ("001", "Alice", "Main St."), ("003", "Bob", "Robson St."), ("006", "Tom", "Beta Ave.")}


def test_toy_enumeration_counts_and_closed_predicates():
    # the paper's toy: 19 valid non-empty predicates, 11 of them closed
    res = sl.best_predicate(PEOPLE, ORDERS, "h1", pruning="invalid")
    assert len(res.scored) == 19
    evs = bf.enumerate_predicates(PEOPLE, ORDERS)
    assert len(evs) == 19 and sum(e.closed for e in evs) == 11
    assert {_as_set(p) for p in res.scored["pairs"]} == {_as_set(e.pairs) for e in evs}
    # the comparison shows one row per distinct join result: the 11 closed predicates
    assert {_as_set(p) for p in res.considered["pairs"]} == {
        _as_set(e.pairs) for e in evs if e.closed}
    # the search's own closedness test (the "closed" column) agrees with the oracle
    enc = sl.encode(PEOPLE, ORDERS)
    s = sl.SearchState(enc.left, enc.right, enc.n_values, "h1")
    idx = {_as_set(e.pairs): tuple((list(PEOPLE).index(a), list(ORDERS).index(b))
                                   for a, b in e.pairs) for e in evs}
    assert sum(s.closed(idx[_as_set(e.pairs)]) for e in evs) == 11
    assert all(s.closed(idx[_as_set(e.pairs)]) == e.closed for e in evs)
    shown = res.considered.dropna(subset=["closed"])
    assert len(shown) == 10 and all(
        c == next(e.closed for e in evs if _as_set(e.pairs) == _as_set(p))
        for p, c in zip(shown["pairs"], shown["closed"]))
    closed = {_as_set(e.pairs) for e in evs if e.closed}
    assert _as_set(P2) in closed and _as_set((("Tel", "Tel"),)) not in closed


@pytest.mark.parametrize("pref", ["h1", "h2", "h3", "h4", "h5"])
def test_toy_optimum_per_preference(pref):
    res = sl.best_predicate(PEOPLE, ORDERS, pref)
    assert [tuple(res.predicate)] == TOY_OPTIMUM[pref]        # h3/h4: p2 (tied with p5)
    assert res.h == pytest.approx(dict(zip(["h1", "h2", "h3", "h4", "h5"], TOY[TOY_OPTIMUM[pref][0]][1:]))[pref], abs=1e-4)
    # the non-closed {(Name,Client),(Home,Address)} is pruned (Thm 3: p2 comes first) [S §V-B.2]
    assert _as_set((("Name", "Client"), ("Home", "Address"))) not in {
        _as_set(p) for p in res.scored["pairs"]}
    assert res.considered["chosen"].sum() == 1 and res.considered["chosen"].iloc[0]
    top, opt = bf.best(PEOPLE, ORDERS, pref)
    assert res.h == pytest.approx(top)


def test_toy_merge_join_splits_the_bob_group():
    # [S Fig. 4]: splitting the "Bob" group of {(Name, Client)} with (Home, Address) gives the
    # group (Bob, Robson St.) = ({P3}, {O3})
    enc = sl.encode(PEOPLE, ORDERS)
    s = sl.SearchState(enc.left, enc.right, enc.n_values, "h1")
    node = s.refine(s.root(), 2, 1)
    ch = s.children(node, (2, 1))
    i = ch.pairs.index((3, 2))
    child = s.materialize(node, ch, i)
    groups = {}
    for row, g in zip(child.rows_l, child.gid_l):
        groups.setdefault(g, [set(), set()])[0].add(PEOPLE["ID"][row])
    for row, g in zip(child.rows_r, child.gid_r):
        groups.setdefault(g, [set(), set()])[1].add(ORDERS["ID"][row])
    assert [{"P3"}, {"O3"}] in groups.values()
    # the valid children after (Name, Client): (Home, Address) and (Clerk, Manager); not
    # (Name, Manager) (no Name = Client = Manager row pair), nor any pair before (Name, Client)
    assert ch.pairs == [(3, 2), (4, 5)]
    assert list(ch.stats.join) == [4, 5]


def test_toy_seeded_search():
    res = sl.best_predicate(PEOPLE, ORDERS, "h5", seed_pair=("Name", "Manager"))
    assert tuple(res.predicate) == P5 and res.seed == [("Name", "Manager")]
    assert all(("Name", "Manager") in p for p in res.scored["pairs"])
    top, opt = bf.best(PEOPLE, ORDERS, "h5", seed=[("Name", "Manager")])
    assert res.h == pytest.approx(top) and tuple(res.predicate) in opt


# ---------------------------------------------------------------------- random tables vs brute force

VALUES = ["a", "b", "c", "A ", " b", "1", "01", "1.0", None, "", "n/a", "-"]


@st.composite
def table_pairs(draw):
    m, n = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    nl, nr = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    alpha = draw(st.integers(2, len(VALUES)))
    cell = st.sampled_from(VALUES[:alpha])
    left = pd.DataFrame([[draw(cell) for _ in range(m)] for _ in range(nl)],
                        columns=[f"l{i}" for i in range(m)])
    right = pd.DataFrame([[draw(cell) for _ in range(n)] for _ in range(nr)],
                         columns=[f"r{i}" for i in range(n)])
    return left, right


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_pairs(), st.sampled_from(["h1", "h2", "h3", "h4", "h5"]), st.booleans())
def test_search_finds_the_brute_force_optimum(tables, pref, seeded):
    left, right = tables
    evs = bf.enumerate_predicates(left, right)
    seed = None
    if seeded:
        if not evs:
            return
        seed = evs[len(evs) // 2].pairs[0]
        evs = [e for e in evs if seed in e.pairs]
    closed = [e for e in evs if e.closed]
    res = sl.best_predicate(left, right, pref, seed_pair=seed)
    if not closed:
        assert res.predicate is None
        return
    vals = {_as_set(e.pairs): bf.scores(e.groups, len(left), len(right))[pref] for e in closed}
    top = max(vals.values())
    assert res.predicate is not None
    got = _as_set(res.predicate)
    assert got in vals, "the answer must be a closed valid predicate"
    assert vals[got] == pytest.approx(top, abs=1e-9)
    assert res.h == pytest.approx(top, abs=1e-9)
    # without closed/bound pruning (the ablation) the answer is as good
    ab = sl.best_predicate(left, right, pref, seed_pair=seed, pruning="invalid")
    assert ab.h == pytest.approx(top, abs=1e-9) and _as_set(ab.predicate) in vals


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_pairs())
def test_merge_join_enumerates_exactly_the_valid_predicates(tables):
    # invalid-only pruning visits every valid predicate once, with its exact groups
    left, right = tables
    evs = {_as_set(e.pairs): e for e in bf.enumerate_predicates(left, right)}
    res = sl.best_predicate(left, right, "h1", pruning="invalid")
    got = list(res.scored["pairs"]) if len(res.scored) else []
    assert len(got) == len({_as_set(p) for p in got})          # each predicate once
    assert {_as_set(p) for p in got} == set(evs)
    # the comparison keeps exactly the closed ones (one per distinct join result)
    shown = {_as_set(p) for p in res.considered["pairs"]} if len(res.considered) else set()
    assert shown == {k for k, e in evs.items() if e.closed}
    for _, row in (res.considered.iterrows() if len(res.considered) else []):
        e = evs[_as_set(row["pairs"])]
        o = bf.scores(e.groups, len(left), len(right))
        assert row["join_size"] == e.join_size and row["n_keys"] == len(e.groups)
        assert row["h3"] == o["h3"] and row["h5"] == pytest.approx(o["h5"])
        assert row["h4"] == pytest.approx(o["h4"], abs=1e-9)
        if row["closed"] is not None:
            assert row["closed"] == e.closed


@settings(max_examples=40, deadline=None)
@given(table_pairs(), st.sampled_from(["h1", "h2", "h3", "h4", "h5"]))
def test_no_scored_predicate_has_an_earlier_superset_with_the_same_join(tables, pref):
    # Thm 3 pruning: a node is scored only if no node scored before it (DFS order) is a
    # strict superset with the same join size; and the answer is closed
    left, right = tables
    res = sl.best_predicate(left, right, pref)
    if res.predicate is None:
        return
    by_visit = res.scored.sort_values("visit")
    earlier = []
    for p, j in zip(by_visit["pairs"], by_visit["join_size"]):
        assert not any(j == jq and _as_set(p) < q for q, jq in earlier)
        earlier.append((_as_set(p), j))
    evs = {_as_set(e.pairs): e.closed for e in bf.enumerate_predicates(left, right)}
    assert evs[_as_set(res.predicate)] is True


# ---------------------------------------------------------------------- semantics and limits

def test_normalized_values_match_and_nulls_never_match():
    left = pd.DataFrame({"code": ["007", "Alice ", None, "n/a", ""], "x": [1, 2, 3, 4, 5]})
    right = pd.DataFrame({"id": [7.0, np.nan, np.nan, 3.0], "who": ["alice", None, "N/A", "z"]})
    res = sl.best_predicate(left, right, "h1")
    pairs = {_as_set(p) for p in res.scored["pairs"]}
    assert _as_set([("code", "id")]) in pairs            # "007" = 7.0
    assert _as_set([("code", "who")]) in pairs           # "Alice " = "alice"
    # nulls ("", None, NaN, n/a) never join: each of those pairs has exactly one joined row
    for p, j in zip(res.scored["pairs"], res.scored["join_size"]):
        if _as_set(p) in (_as_set([("code", "id")]), _as_set([("code", "who")])):
            assert j == 1
    assert res.join().shape[0] == res.join_size


def test_all_null_columns_give_no_predicate():
    left = pd.DataFrame({"a": [None, "", "n/a"]})
    right = pd.DataFrame({"b": [None, np.nan, "-"]})
    res = sl.best_predicate(left, right)
    assert res.predicate is None and "no valid join predicate" in res.notes[-1]
    with pytest.raises(QueryError, match="no value"):
        res.join()


def test_budget_stops_the_search_and_says_so():
    res = sl.best_predicate(PEOPLE, ORDERS, "h3", max_nodes=1)
    assert not res.complete and res.search["nodes"] == 1
    assert "node limit" in res.notes[0]
    capped = sl.best_predicate(PEOPLE, ORDERS, "h3", max_pairs=1)
    assert all(n == 1 for n in capped.considered["n_pairs"])
    # the best predicate of at most one pair: {(Tel, Tel)} (h3 = 3, the result of p2)
    assert tuple(capped.predicate) == (("Tel", "Tel"),) and capped.h == 3


def test_sampled_search_rescoring_is_exact_on_the_full_tables():
    rng = np.random.default_rng(3)
    fk = rng.integers(0, 200, 3000)
    left = pd.DataFrame({"fk": fk.astype(str), "noise": rng.integers(0, 5, 3000).astype(str)})
    right = pd.DataFrame({"pk": np.arange(200).astype(str), "v": (np.arange(200) % 7).astype(str)})
    res = sl.best_predicate(left, right, "h2", max_rows=500, rescore=5)
    assert res.sample["left_rows"] == 500 and res.sample["left_total"] == 3000
    assert res.sample["right_total"] == 200
    assert tuple(res.predicate) == (("fk", "pk"),)
    exact = _stats(left, right, res.predicate).describe()
    for k in ("join_size", "n_keys", "h2", "h5", "outer_join_size"):
        assert res.stats[k] == pytest.approx(exact[k])
    assert "h2_sample" in res.considered and "sample" in res.notes[-1]
    assert res.left_rows == 3000 and res.right_rows == 200


def test_bad_input_is_refused_clearly():
    with pytest.raises(QueryError, match="preference"):
        sl.best_predicate(PEOPLE, ORDERS, "h9")
    with pytest.raises(QueryError, match="left table must be"):
        sl.best_predicate([1, 2], ORDERS)
    with pytest.raises(QueryError, match="right table has no rows"):
        sl.best_predicate(PEOPLE, ORDERS.iloc[:0])
    with pytest.raises(QueryError, match="'Nme'.*left table"):
        sl.best_predicate(PEOPLE, ORDERS, seed_pair=("Nme", "Client"))
    with pytest.raises(QueryError, match="'Clint'.*right table"):
        sl.best_predicate(PEOPLE, ORDERS, seed_pair={"Name": "Clint"})
    dup = pd.DataFrame([[1, 2]], columns=["a", "a"])
    with pytest.raises(QueryError, match="repeats column"):
        sl.best_predicate(dup, ORDERS)


def test_seed_without_match_gives_no_predicate():
    res = sl.best_predicate(PEOPLE, ORDERS, seed_pair=("ID", "ID"))
    assert res.predicate is None and "seed" in res.notes[-1]


# ---------------------------------------------------------------------- join() and code()

EVIL = "x'); import os; os.system('touch /tmp/lakejoin_pwned'); ('"


def _run_code(code, ns):
    exec(compile(code, "<generated>", "exec"), ns)   # noqa: S102 - the code under test
    return ns["joined"]


@pytest.mark.parametrize("how", ["inner", "left"])
def test_generated_code_reproduces_join_and_quotes_names(tmp_path, how):
    left = pd.DataFrame({EVIL: ["a", "b", "B ", None], "k\n2": ["1", "2", "2", "3"],
                         "__lj_key0": [1, 2, 3, 4]})
    right = pd.DataFrame({"name": ["A", "b", "c", None], 'q"uote': ["01", "2", "2", "3"]})
    res = sl.best_predicate(left, right, "h5", left_name="people", right_name="orders")
    assert res.predicate is not None
    code = res.code("people", "joined", how=how, other="orders")
    joined = _run_code(code, {"people": left, "orders": right})
    expected = res.join(how=how)
    pd.testing.assert_frame_equal(joined.reset_index(drop=True), expected.reset_index(drop=True))
    import os
    assert not os.path.exists("/tmp/lakejoin_pwned")
    assert "import os" not in code.replace(repr(EVIL), "")
    if how == "inner":
        assert len(joined) == res.join_size


def test_join_matches_the_brute_force_join_size():
    for pref in ("h1", "h2", "h3", "h4", "h5"):
        res = sl.best_predicate(PEOPLE, ORDERS, pref)
        evs = {_as_set(e.pairs): e for e in bf.enumerate_predicates(PEOPLE, ORDERS)}
        assert len(res.join()) == evs[_as_set(res.predicate)].join_size


def test_non_string_column_labels():
    left = pd.DataFrame({0: ["a", "b", "c"], 1: ["x", "y", "z"]})
    right = pd.DataFrame({"k": ["a", "b", "q"]})
    res = sl.best_predicate(left, right, "h1")
    assert res.predicate == [("0", "k")]
    assert len(res.join()) == 2
    assert len(_run_code(res.code("left", other="right"), {"left": left, "right": right})) == 2


class FakeEngine:
    """The engine's best_predicate on the paper's tables (``orders`` as a lake table name)."""

    def best_predicate(self, df, other, preference="h5", seed_pair=None, **kw):
        if isinstance(other, str):
            other = {"orders": ORDERS}[other]
        return sl.best_predicate(df, other, preference, seed_pair=seed_pair, **kw)


def test_predicate_magic(capsys):
    """``%lakejoin predicate`` parses its line, calls the engine and binds/inserts the join."""
    from lakejoin_jupyter.magics import MagicError, run_request
    from lakejoin_jupyter.ui.session import Session

    class Shell:
        user_ns = {"people": PEOPLE}
        inserted = []

        def set_next_input(self, text, replace=False):
            self.inserted.append(text)

    shell, session = Shell(), Session()
    session.engine = FakeEngine()
    res = run_request("predicate people orders --preference h3 --seed Name=Client", shell, session)
    assert tuple(res.predicate) == P2 and res.left_name == "people"
    shell.user_ns["orders"] = ORDERS            # a DataFrame variable as the right table
    res = run_request("predicate people orders -p h1 --max-pairs 1 --join pj --insert",
                      shell, session)
    assert tuple(res.predicate) == P3
    pd.testing.assert_frame_equal(shell.user_ns["pj"], res.join())
    assert len(shell.inserted) == 1 and "pj = " in shell.inserted[0]
    ns = {"people": PEOPLE, "orders": ORDERS}
    exec(compile(shell.inserted[0], "<inserted>", "exec"), ns)   # noqa: S102 - code under test
    pd.testing.assert_frame_equal(ns["pj"].reset_index(drop=True),
                                  res.join().reset_index(drop=True), check_dtype=False)
    with pytest.raises(MagicError, match="No variable 'nobody'"):
        run_request("predicate nobody orders", shell, session)
    with pytest.raises(MagicError, match="LEFT_COLUMN=RIGHT_COLUMN"):
        run_request("predicate people orders --seed Name", shell, session)
    with pytest.raises(MagicError, match="required"):
        run_request("predicate people", shell, session)
    with pytest.raises(MagicError, match="invalid choice"):
        run_request("predicate people orders -p h9", shell, session)
    run_request("predicate --help", shell, session)
    assert "usage: %lakejoin predicate" in capsys.readouterr().out



def test_predicate_magic_run_again_keeps_its_variable(monkeypatch):
    """``%lakejoin predicate L R --insert``, its cell run, then the magic run again (or
    edited): the inserted code binds the same variable, named by the widget's rule
    (``Session.action_variable``: ``people_orders_predicate``), not ``_2``, ``_3``; a variable
    the user made under that name is never taken."""
    from IPython.core.interactiveshell import InteractiveShell

    from lakejoin_jupyter.join.plan import default_variable
    from lakejoin_jupyter.ui.session import SESSION
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "lakejoin_jupyter")
    inserted = []
    monkeypatch.setattr(shell, "set_next_input",
                        lambda text, replace=False: inserted.append(text))
    monkeypatch.setattr(SESSION, "engine", FakeEngine())
    for n in [n for n in shell.user_ns if n.startswith("people")]:
        del shell.user_ns[n]
    shell.user_ns.update(people=PEOPLE, orders=ORDERS)
    before = set(shell.user_ns)            # (the code also binds pd and its helpers)
    for line in ("-p h1", "-p h1", "-p h3"):        # run again, then edited
        shell.run_line_magic("lakejoin", f"predicate people orders {line} --insert")
        assert shell.run_cell(inserted[-1]).success
    name = default_variable("people", "orders", "predicate")
    assert {n for n in set(shell.user_ns) - before if n.startswith("people")} == {name}
    res = sl.best_predicate(PEOPLE, ORDERS, "h3")
    pd.testing.assert_frame_equal(shell.user_ns[name].reset_index(drop=True),
                                  res.join().reset_index(drop=True), check_dtype=False)
    shell.run_cell(f"{name} = 'mine'")                   # the user's own variable
    shell.run_line_magic("lakejoin", "predicate people orders -p h1 --insert")
    assert inserted[-1].count(f"{name}_2 = ") == 1 and shell.user_ns[name] == "mine"

def test_action_is_registered_with_a_preference_control():
    from lakejoin_jupyter.actions import get
    a = get("predicate")
    spec = a.params[0]
    assert spec.name == "preference" and spec.kind == "choice" and spec.default == "h5"
    assert spec.choices == ("h1", "h2", "h3", "h4", "h5")


# ---------------------------------------------------------------------- Spark

@pytest.mark.spark
def test_engine_and_hit_action_on_the_demo_index(demo_engine):
    from lakejoin_jupyter.demo import demo_query
    from lakejoin_jupyter.actions import actions_for
    df = demo_query()
    hits = demo_engine.search(df, "country", k=5)
    hit = next(h for h in hits if "elo_blatter" in h.table)
    action = next(a for a in actions_for(hit) if a.name == "predicate")
    out = action(demo_engine, hit, df, preference="h5")
    assert out.ok, out.summary
    res = out.details["result"]
    assert ("country", hit.column) in res.predicate          # the seed stays in the predicate
    assert len(out.joined) == res.join_size
    assert "Predicates compared" in out.tables and len(out.tables["Predicates compared"])
    ns = {"df": df}
    assert len(_run_code(out.code("df", "joined"), ns)) == len(out.joined)
    # the engine accepts a table name or a DataFrame; both give the same predicate
    other = demo_engine.table(hit.table)
    res2 = demo_engine.best_predicate(df, other, seed_pair=("country", hit.column))
    assert res2.predicate == res.predicate and res2.stats == res.stats


@pytest.mark.spark
def test_spark_dataframes_sampled_and_rescored_exactly(spark):
    rng = np.random.default_rng(5)
    fk = rng.integers(0, 300, 2000)
    left = pd.DataFrame({"fk": fk.astype(str), "grp": (fk % 4).astype(str),
                         "noise": rng.integers(0, 3, 2000).astype(str)})
    right = pd.DataFrame({"pk": np.arange(300).astype(str), "grp": (np.arange(300) % 4).astype(str)})
    exact = sl.best_predicate(left, right, "h5")
    sres = sl.best_predicate(spark.createDataFrame(left), spark.createDataFrame(right), "h5",
                             max_rows=400, rescore=4)
    assert sres.sample["left_total"] == 2000 and sres.sample["left_rows"] <= 400
    assert sres.predicate == exact.predicate
    for k in ("join_size", "n_keys", "outer_join_size", "h5", "coverage"):
        assert sres.stats[k] == pytest.approx(exact.stats[k])
    joined = sres.join()
    assert joined.count() == exact.join_size
    ns = {"left": spark.createDataFrame(left), "right": spark.createDataFrame(right)}
    assert _run_code(sres.code("left", other="right"), ns).count() == exact.join_size


class _FramesEngine:
    """The engine's best_predicate over named frames instead of lake tables."""

    def __init__(self, tables):
        self.tables = tables

    def best_predicate(self, df, other, preference="h5", seed_pair=None, **options):
        return sl.best_predicate(df, self.tables[other], preference, seed_pair=seed_pair,
                                 right_name="contacts", **options)


def _pkgs_and_contacts():
    names = [f"pkg{i}" for i in range(40)]
    authors = [f"First{i} Last{i}" for i in range(40)]
    query = pd.DataFrame({"name": names, "author": authors})
    lake = pd.DataFrame({"pkg": names[:30] + [f"other{i}" for i in range(10)],
                         "email": [f"first{i}.last{i}@example.org" for i in range(40)]})
    return query, lake


@pytest.mark.parametrize("details", [{"program_json": "{}", "program": "lower(...)"},
                                     {"tau": 0.2}, {}])
def test_predicate_action_is_not_stuck_on_a_seed_sharing_no_value(details):
    """A "Needs a transformation" hit (author -> e-mail), a PEXESO hit, or an equal-value hit
    whose columns share nothing as written: the action finds what the unseeded search finds
    (name = pkg), and says the hit's pair did not seed it."""
    from types import SimpleNamespace
    from lakejoin_jupyter.actions import get
    query, lake = _pkgs_and_contacts()
    engine = _FramesEngine({"people/contacts": lake})
    unseeded = sl.best_predicate(query, lake, "h5", right_name="contacts")
    assert unseeded.predicate == [("name", "pkg")]
    hit = SimpleNamespace(table="people/contacts", query_columns=("author",),
                          columns=("email",), details=details)
    out = get("predicate")(engine, hit, query, preference="h5", search="with the hit's key")
    assert out.ok, out.summary
    res = out.details["result"]
    assert res.predicate == unseeded.predicate and res.stats == unseeded.stats
    assert len(out.joined) == unseeded.join_size
    assert "`author` = `email`" in out.summary and "*note:*" in out.summary
    assert "**Best predicate:**" in out.summary          # not seeded: the best of all


def test_predicate_action_keeps_an_equal_value_seed():
    """An equal-value hit's pair that shares values seeds the search and stays in the answer."""
    from types import SimpleNamespace
    from lakejoin_jupyter.actions import get
    query, lake = _pkgs_and_contacts()
    hit = SimpleNamespace(table="people/contacts", query_columns=("name",), columns=("pkg",),
                          details={})
    out = get("predicate")(_FramesEngine({"people/contacts": lake}), hit, query,
                           search="with the hit's key")
    res = out.details["result"]
    assert out.ok and res.seed == [("name", "pkg")] and ("name", "pkg") in res.predicate
    assert "not seeded" not in out.summary and "again without it" not in out.summary


def _births_like():
    """A query of dates as (year, month, day) whose years mostly miss the lake's: the hit's
    whole key joins 10 rows, a predicate without the year joins many more."""
    days = pd.date_range("2000-01-01", "2004-12-31")
    rng = np.random.default_rng(0)
    lake = pd.DataFrame({"year": days.year, "month": days.month, "date_of_month": days.day,
                         "births": rng.integers(7000, 14000, len(days))})
    q = lake.sample(40, random_state=1)[["year", "month", "date_of_month"]].reset_index(drop=True)
    return q.assign(year=list(q["year"][:10]) + [1990] * 30), lake


def test_predicate_action_compares_every_predicate_not_only_the_hit_key():
    """A multi-column (MATE) hit: by default the action compares all predicates (the best
    equals the unseeded search's) and scores the hit's key beside it; seeded, it says the
    best is only the best containing the hit's key. The comparison table shows one row
    number, its rank (not pandas' index too)."""
    from types import SimpleNamespace
    from lakejoin_jupyter.actions import get
    from lakejoin_jupyter.ui.render import frame_html
    query, lake = _births_like()
    engine = _FramesEngine({"births/ssa": lake})
    key = [("year", "year"), ("month", "month"), ("date_of_month", "date_of_month")]
    unseeded = sl.best_predicate(query, lake, "h5", right_name="contacts")
    alone = sl.best_predicate(query, lake, "h5", right_name="contacts", seed_pair=key,
                              max_pairs=3)
    assert sorted(unseeded.predicate) != sorted(key) and unseeded.h > alone.h   # the case
    hit = SimpleNamespace(table="births/ssa", query_columns=tuple(a for a, _ in key),
                          columns=tuple(b for _, b in key), details={})
    out = get("predicate")(engine, hit, query, preference="h5")
    res = out.details["result"]
    assert res.predicate == unseeded.predicate and res.stats == unseeded.stats
    assert "**Best predicate:**" in out.summary and "every column pair" in out.summary
    assert f"h5 = {alone.h:.4g}" in out.summary          # the hit's key, scored beside it
    seeded = get("predicate")(engine, hit, query, preference="h5", search="with the hit's key")
    assert sorted(seeded.details["result"].predicate) == sorted(key)
    assert "**Best predicate containing the hit's key:**" in seeded.summary
    # "Predicates compared": numbered once, by its rank column
    caption = "Predicates compared"
    table = out.tables[caption]
    html = frame_html(table, caption, index=caption not in out.no_index)
    head = html[html.index("<thead>"):html.index("</thead>")]
    assert head.count("</th>") == len(table.columns) and "<th>rank</th>" in head


def test_the_hits_key_is_a_row_of_the_comparison_and_a_bar_of_the_chart():
    """New user 14: the summary scored the hit's key, but "Predicates compared" and the
    chart left it out when the search never listed it. Now it is a row, ranked "the hit's
    key", with the figures the seeded search gives it, and a bar of its own colour."""
    from types import SimpleNamespace
    from lakejoin_jupyter.actions import get
    query, lake = _births_like()
    key = [("year", "year"), ("month", "month"), ("date_of_month", "date_of_month")]
    alone = sl.best_predicate(query, lake, "h5", right_name="contacts", seed_pair=key,
                              max_pairs=3)
    hit = SimpleNamespace(table="births/ssa", query_columns=tuple(a for a, _ in key),
                          columns=tuple(b for _, b in key), details={})
    out = get("predicate")(_FramesEngine({"births/ssa": lake}), hit, query, preference="h5")
    table = out.tables["Predicates compared"]
    text = sl.predicate_text(alone.predicate)
    rows = table[table["predicate"] == text]
    assert len(rows) == 1, table
    row = rows.iloc[0]
    assert row["rank"] == "the hit's key" and not row["chosen"]
    assert row["h5"] == pytest.approx(alone.h) and row["join_size"] == alone.join_size
    assert table["chosen"].sum() == 1                     # the best stays the one chosen
    bars = [r for rows in out.chart.to_dict()["datasets"].values() for r in rows]
    assert [(r["predicate"], r["chosen"]) for r in bars if r["chosen"] == "the hit's key"] \
        == [(text[:60], "the hit's key")]
    assert [r["score"] for r in bars if r["chosen"] == "the hit's key"] == [pytest.approx(alone.h)]
