"""Forcing how "Per key: latest" reads an ambiguous date column (``Aggregate.dayfirst``)
where users join: the Join action's ``dates`` parameter (the widget's "Dates read"
control), ``lakejoin join --dates`` and ``%lakejoin join --dates`` (both from
``cli.add_join_shape_arguments``)."""
import pandas as pd
import pytest

from conftest import lake_engine
from lakejoin_jupyter.errors import LakeJoinError

# events/seen: every date reads either way (auto: month-first, "ambiguous")
SEEN = pd.DataFrame({"user": ["ann@x.org", "ann@x.org", "bob@x.org", "bob@x.org"],
                     "seen": ["02/03/2020", "04/01/2020", "2019", "01/02/2019"],
                     "what": ["Feb 3 or 2 Mar", "Apr 1 or 4 Jan", "2019", "Jan 2 or 1 Feb"]})
QUERY = pd.DataFrame({"who": ["ann@x.org", "bob@x.org", "carl@x.org"]})
# events/uploads: one date of five reads day-first only (25/12/2020), and it is ann's latest
UPLOADS = pd.DataFrame({"who": ["ann@x.org", "ann@x.org", "bob@x.org", "bob@x.org",
                                "bob@x.org"],
                        "uploaded": ["02/03/2020", "25/12/2020", "01/02/2020", "03/04/2020",
                                     "05/06/2020"]})
# events/late: most dates read day-first only
LATE = pd.DataFrame({"who": ["ann@x.org", "ann@x.org", "bob@x.org"],
                     "stamp": ["27/04/2026", "25/08/2025", "02/06/2025"]})
LATEST = {"auto": ["Apr 1 or 4 Jan", "Jan 2 or 1 Feb", None],
          "month-first": ["Apr 1 or 4 Jan", "Jan 2 or 1 Feb", None],
          "day-first": ["Feb 3 or 2 Mar", "Jan 2 or 1 Feb", None]}


@pytest.fixture(scope="module")
def seen_engine(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "dates",
                       {"events/seen.csv": SEEN, "events/uploads.csv": UPLOADS,
                        "events/late.csv": LATE,
                        "people.csv": pd.DataFrame({"who": ["ann@x.org", "bob@x.org"]})})


def _hit(engine, table="events/seen"):
    return next(h for h in engine.search(QUERY, "who", k=None) if h.table == table)


def _widget_on(engine, frame, column, method, table):
    """The widget on ``frame``'s ``column`` (as "q"), searched with ``method``, the hit of
    ``table`` selected."""
    from lakejoin_jupyter.ui.session import Session
    from lakejoin_jupyter.ui.widget import DiscoveryWidget
    w = DiscoveryWidget(engine, session=Session(), namespace={"q": frame}, frame="q",
                        columns=[column], auto_insert=False)
    w.method_picker.value = method
    w.search().wait()
    w.results.selected = next(i for i, r in enumerate(w.results.rows) if r["table"] == table)
    w.wait()
    return w


def _run_latest(w, action, dates, column) -> list:
    """Run ``action``'s tab with aggregate "latest" and ``dates``: the joined ``column``."""
    tab = w.actions.tabs[action]
    tab.controls["aggregate"].value = "latest"
    tab.controls["dates"].value = dates
    w.action_buttons[action].click()
    w.wait()
    assert w.last_action_result.ok, w.last_action_result.summary
    got = w.last_action_result.joined[column]
    return got.where(got.notna(), None).tolist()


@pytest.mark.spark
@pytest.mark.parametrize("dates", sorted(LATEST))
def test_the_join_action_forces_the_reading_and_its_code_agrees(seen_engine, dates):
    from lakejoin_jupyter.actions import get
    out = get("join")(seen_engine, _hit(seen_engine), QUERY, aggregate="latest", dates=dates)
    assert out.joined["what"].where(out.joined["what"].notna(), None).tolist() == LATEST[dates]
    assert ("ambiguous" in out.summary) == (dates == "auto"), out.summary
    assert ("dates read day-first" in out.summary) == (dates == "day-first"), out.summary
    ns = {"df": QUERY}
    exec(compile(out.code("df", "joined"), "<cell>", "exec"), ns)  # noqa: S102
    pd.testing.assert_frame_equal(ns["joined"], out.joined)
    if dates == "day-first":
        assert "dayfirst=True" in out.code("df", "joined")


@pytest.mark.spark
def test_dates_goes_with_latest_and_names_its_choices(seen_engine):
    from lakejoin_jupyter.actions import get
    with pytest.raises(LakeJoinError, match="goes with aggregate = latest"):
        get("join")(seen_engine, _hit(seen_engine), QUERY, dates="day-first")
    with pytest.raises(LakeJoinError, match="'auto', 'day-first', 'month-first'"):
        get("join")(seen_engine, _hit(seen_engine), QUERY, aggregate="latest", dates="dmy")


@pytest.mark.spark
def test_cli_join_dates(seen_engine, tmp_path, capsys):
    from lakejoin_jupyter.cli import _parser
    from lakejoin_jupyter.cli import main as cli
    QUERY.to_csv(tmp_path / "q.csv", index=False)
    res = seen_engine.search(QUERY, "who", k=10, rank="useful")       # the CLI's ranking
    rank = next(h.rank for h in res if h.table == "events/seen")
    for dates in ("auto", "day-first"):
        out = tmp_path / f"{dates}.csv"
        assert cli(["join", str(seen_engine.index.path), "-t", str(tmp_path / "q.csv"), "-c",
                    "who", "--hit", str(rank), "--aggregate", "latest", "--dates", dates,
                    "--out", str(out)]) == 0
        got = pd.read_csv(out)["what"]
        assert got.where(got.notna(), None).tolist() == LATEST[dates]
    capsys.readouterr()
    with pytest.raises(SystemExit):
        _parser().parse_args(["join", "x", "-t", "q", "-c", "c", "--hit", "1", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--dates {auto,day-first,month-first}" in text and "15/02/2021" in text


@pytest.mark.spark
def test_magic_join_dates(seen_engine, ip):
    ip.user_ns["q"] = QUERY
    ip.run_line_magic("lakejoin", f"open '{seen_engine.index.path}'")
    res = ip.run_line_magic("lakejoin", "search q.who --save qres")
    rank = next(h.rank for h in res if h.table == "events/seen")
    ip.run_line_magic("lakejoin", f"join {rank} --from qres --aggregate latest "
                                  f"--dates day-first --into per_key --quiet")
    got = ip.user_ns["per_key"]["what"]
    assert got.where(got.notna(), None).tolist() == LATEST["day-first"]


@pytest.mark.spark
def test_widget_join_offers_dates_read(seen_engine):
    w = _widget_on(seen_engine, QUERY, "who", "auto", "events/seen")
    control = w.actions.tabs["join"].controls["dates"]
    assert list(control.options) == ["auto", "day-first", "month-first"]
    assert "day-first (dd/mm/yyyy)" in control.tooltip
    assert _run_latest(w, "join", "day-first", "what") == LATEST["day-first"]


@pytest.mark.spark
def test_a_forced_reading_says_which_dates_it_cannot_read(seen_engine):
    from lakejoin_jupyter.actions import get
    hit = _hit(seen_engine, "events/uploads")
    out = get("join")(seen_engine, hit, QUERY, aggregate="latest", dates="month-first")
    first = out.summary.replace("**", "").split("\n\n")[0]
    assert "read month-first" in first
    assert "1 of the 5 dates of 'uploaded' cannot be read month-first" in first, first
    assert "'25/12/2020'" in first
    # ann's latest changes (25/12/2020 is left out), bob's does not
    assert "latest row of 1 key(s)" in first and "ann@x.org (1 of 2 dates)" in first, first
    assert "bob@x.org" not in first
    assert out.joined["uploaded"].tolist()[:2] == ["02/03/2020", "05/06/2020"]
    auto = get("join")(seen_engine, hit, QUERY, aggregate="latest", dates="auto")
    assert "cannot be read" not in auto.summary
    assert auto.joined["uploaded"].tolist()[:2] == ["25/12/2020", "05/06/2020"]


@pytest.mark.spark
def test_a_forced_reading_that_cannot_read_most_dates_is_refused(seen_engine, tmp_path):
    from lakejoin_jupyter.actions import get
    from lakejoin_jupyter.cli import main as cli
    hit = _hit(seen_engine, "events/late")
    with pytest.raises(LakeJoinError, match=r"2 of the 3 dates of events/late.stamp cannot be "
                                            r"read month-first.*choose dates auto \(it reads "
                                            r"this column day-first\)"):
        get("join")(seen_engine, hit, QUERY, aggregate="latest", dates="month-first")
    out = get("join")(seen_engine, hit, QUERY, aggregate="latest", dates="day-first")
    assert out.joined["stamp"].tolist()[:2] == ["27/04/2026", "02/06/2025"]
    QUERY.to_csv(tmp_path / "q.csv", index=False)
    rank = next(h.rank for h in seen_engine.search(QUERY, "who", k=10, rank="useful")
                if h.table == "events/late")
    assert cli(["join", str(seen_engine.index.path), "-t", str(tmp_path / "q.csv"), "-c", "who",
                "--hit", str(rank), "--aggregate", "latest", "--dates", "month-first",
                "--out", str(tmp_path / "x.csv")]) == 1


# the Find transformation action: the query names users, the lake their e-mail addresses
# (a program appends "@x.org"), with 2-3 visits each on dates that read either way
USERS = ["ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal", "ivy", "jon"]
VISITS = pd.DataFrame({
    "who": [f"{u}@x.org" for u in USERS for _ in range(3)],
    "day": [f"{(i * 5) % 12 + 1:02d}/{(i * 7) % 12 + 1:02d}/2021" for i in range(30)],
    "visit": [f"v{i}" for i in range(30)]})
NAMES = pd.DataFrame({"name": USERS + ["zed"]})


def _latest_visit(dayfirst: bool) -> list:
    """Brute force: each query name's visit of the greatest date read that way."""
    when = pd.to_datetime(VISITS["day"], format="%d/%m/%Y" if dayfirst else "%m/%d/%Y")
    best = {}
    for who, t, v in zip(VISITS["who"], when, VISITS["visit"]):
        if who not in best or t > best[who][0]:
            best[who] = (t, v)
    return [best[f"{u}@x.org"][1] if f"{u}@x.org" in best else None for u in NAMES["name"]]


@pytest.fixture(scope="module")
def visits_engine(spark, tmp_path_factory):
    return lake_engine(spark, tmp_path_factory, "visits", {"web/visits.csv": VISITS},
                       components=["transform"])


@pytest.mark.spark
def test_find_transformation_offers_dates_read_and_its_code_agrees(visits_engine):
    """User test: the Find transformation tab had no "Dates read" control while Join's
    had. It has the same one (auto, day-first, month-first), passed to the engine as the
    Join action passes it (a forced reading of the "latest" aggregate); the latest visit per
    key is the one of the greatest date read that way (brute force), and the written code
    reads the dates the same way."""
    from lakejoin_jupyter.actions import get
    assert _latest_visit(True) != _latest_visit(False)         # the reading matters here
    hit = next(h for h in visits_engine.search(NAMES, "name", k=None, method="transform")
               if h.table == "web/visits")
    for dates, dayfirst in (("day-first", True), ("month-first", False)):
        out = get("autojoin")(visits_engine, hit, NAMES, aggregate="latest", dates=dates)
        assert out.ok, out.summary
        got = out.joined["visit"].where(out.joined["visit"].notna(), None).tolist()
        assert got == _latest_visit(dayfirst), (dates, got)
        code = out.code("df", "joined")
        assert f"dayfirst={dayfirst}" in code, code
        ns = {"df": NAMES}
        exec(compile(code, "<cell>", "exec"), ns)  # noqa: S102
        pd.testing.assert_frame_equal(ns["joined"], out.joined)
    with pytest.raises(LakeJoinError, match="goes with aggregate = latest"):
        get("autojoin")(visits_engine, hit, NAMES, dates="day-first")
    # the widget's tab: the same control as Join's, passed through
    w = _widget_on(visits_engine, NAMES, "name", "transform", "web/visits")
    tab = w.actions.tabs["autojoin"]
    assert list(tab.controls["dates"].options) == \
        list(w.actions.tabs["join"].controls["dates"].options)
    assert tab.rows["dates"].layout.display != "none"
    assert _run_latest(w, "autojoin", "day-first", "visit") == _latest_visit(True)
    assert "dayfirst=True" in tab.code_panel.code


@pytest.mark.spark
def test_cli_and_magic_join_of_a_transformation_hit_force_the_reading(visits_engine, tmp_path,
                                                                        ip):
    """`lakejoin join --dates` and `%lakejoin join --dates` of a "Needs a transformation"
    hit (refused before, though Find transformation takes it): the latest visit per name is
    the one of the greatest date read that way (brute force), the magic's code reads the
    dates with the widget's dayfirst=, and the CLI writes the same rows."""
    from lakejoin_jupyter.cli import main as cli
    NAMES.to_csv(tmp_path / "names.csv", index=False)
    res = visits_engine.search(NAMES, "name", k=10, method="transform", rank="useful")
    rank = next(h.rank for h in res if h.table == "web/visits")
    inserted = []
    ip.set_next_input = lambda text, replace=False: inserted.append(text)
    ip.user_ns["names"] = NAMES
    ip.run_line_magic("lakejoin", f"open '{visits_engine.index.path}'")
    found = ip.run_line_magic("lakejoin", "search names.name -m transform --save vres")
    mrank = next(h.rank for h in found if h.table == "web/visits")
    for dates, dayfirst in (("day-first", True), ("month-first", False)):
        out = tmp_path / f"{dates}.csv"
        assert cli(["join", str(visits_engine.index.path), "-t", str(tmp_path / "names.csv"),
                    "-c", "name", "-m", "transform", "--hit", str(rank), "--aggregate",
                    "latest", "--dates", dates, "--out", str(out)]) == 0
        got = pd.read_csv(out, dtype=str, keep_default_na=False)["visit"]
        assert [v or None for v in got] == _latest_visit(dayfirst), dates
        inserted.clear()
        ip.run_line_magic("lakejoin", f"join {mrank} --from vres --aggregate latest "
                                      f"--dates {dates} --into v --insert --quiet")
        joined = ip.user_ns["v"]["visit"]
        assert joined.where(joined.notna(), None).tolist() == _latest_visit(dayfirst)
        assert f"dayfirst={dayfirst}" in inserted[-1], inserted[-1]
        ns = {"names": NAMES}
        exec(compile(inserted[-1], "<cell>", "exec"), ns)  # noqa: S102
        pd.testing.assert_frame_equal(ns["v"], ip.user_ns["v"])
