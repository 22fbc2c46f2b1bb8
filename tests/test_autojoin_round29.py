"""Auto-Join deviation 55 (round 29): a constant that is a piece of a field varying across
the target column ("2014-7-" learned from one month of dates) loses to reading that field
from the source. Hand-built tables with hand-checked programs."""
from __future__ import annotations

import pandas as pd

from lakejoin_jupyter.join.autojoin import autojoin
from lakejoin_jupyter.join.autojoin.discovery import learn_program
from lakejoin_jupyter.join.autojoin.learn import (Example, LearnSettings, generalised,
                                                  try_learn_transform)
from lakejoin_jupyter.join.autojoin.pipeline import Table, _settings, learn_direction


def _dates():
    """One month of padded query dates; the target: a year of dates unpadded, in two years."""
    query = pd.date_range("2014-07-01", periods=30)
    target = pd.date_range("2014-07-01", "2015-06-30")
    return (list(query.strftime("%Y-%m-%d")),
            [f"{d.year}-{d.month}-{d.day}" for d in target])


def _unpadded(text: str) -> str:
    """The hand-checked answer: year, month and day, each without leading zeros."""
    y, m, d = text.split("-")
    return f"{int(y)}-{int(m)}-{int(d)}"


OTHER_MONTHS = ["2014-10-31", "2014-12-09", "2015-01-05", "2015-02-28"]


def _writes_every_month(program, column: str = "date") -> None:
    for text in OTHER_MONTHS + ["2014-07-04"]:
        assert program({column: text}) == _unpadded(text), program.describe()


def test_the_learner_reads_the_month_it_saw_as_a_constant():
    # what TryLearnTransform alone does (the thesis' simplest program): the examples share
    # "2014-7-", so the constant wins; it is right for July 2014 only
    query, target = _dates()
    at = {v: i for i, v in enumerate(target)}
    examples = [Example((query[i],), _unpadded(query[i]), i, at[_unpadded(query[i])])
                for i in (2, 12, 20, 27)]
    program = try_learn_transform(examples, ["date"], LearnSettings(), {})
    assert program({"date": "2014-07-04"}) == "2014-7-4"
    assert program({"date": "2014-10-31"}) == "2014-7-31"
    general = generalised(program, examples, ["date"], LearnSettings(), {}, target)
    _writes_every_month(general)


def test_a_constant_covering_a_varying_field_loses_to_reading_it():
    query, target = _dates()
    src = Table(pd.DataFrame({"date": query}), "query")
    tgt = Table(pd.DataFrame({"date": target, "t": range(len(target))}), "lake")
    d = learn_direction(src, tgt, ["date"], ["date"], _settings(None, {}))
    assert d.best.coverage == 30
    _writes_every_month(d.best.program)


def test_a_transformation_hit_program_reads_year_and_month():
    query, target = _dates()
    at = {v: i for i, v in enumerate(target)}
    pairs = [(i, at[_unpadded(v)], 1.0) for i, v in enumerate(query)]
    program, forward = learn_program(pairs, query, target, ("date", "date"))
    assert forward
    _writes_every_month(program)


def test_a_constant_every_target_value_holds_stays():
    # the target's own format: "ID-" is in every key, so the program keeps writing it
    src = Table(pd.DataFrame({"n": ["7", "12", "30", "41", "5"]}), "s")
    tgt = Table(pd.DataFrame({"k": ["ID-7", "ID-12", "ID-30", "ID-41", "ID-5", "ID-99"]}), "t")
    d = learn_direction(src, tgt, ["n"], ["k"], _settings(None, {}))
    assert d.best.program.describe() == '"ID-" + `n`'


def _padded(text: str) -> str:
    y, m, d = text.split("-")
    return f"{y}-{int(m):02d}-{int(d):02d}"


def test_the_other_direction_reads_the_month_it_folded():
    # lake -> query: "2014-07-" + the day padded joins every month's day onto July's keys
    # (folds); the program learned without digit constants writes the month
    query, target = _dates()
    src = Table(pd.DataFrame({"date": target}), "lake")
    tgt = Table(pd.DataFrame({"date": query}), "query")
    d = learn_direction(src, tgt, ["date"], ["date"], _settings(None, {}))
    assert d.best.coverage == 30 and d.best.joined_rows == 30
    for text in ["2014-7-4", "2014-10-31", "2015-1-5", "2014-12-9"]:
        assert d.best.program({"date": text}) == _padded(text), d.best.program.describe()


def test_autojoin_joins_each_date_to_its_own_day():
    query, target = _dates()
    aj = autojoin(pd.DataFrame({"date": query}), pd.DataFrame({"date": target}), "date", "date")
    j = aj.join()
    assert len(j) == 30
    assert all(_unpadded(a) == b for a, b in zip(j["date"], j["date_right"])), j.head()
