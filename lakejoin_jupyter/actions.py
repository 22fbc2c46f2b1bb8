"""Actions on a search hit: join, find a transformation, fuzzy join, best join predicate.

Each action runs through the engine's public API and returns an :class:`ActionResult`: a
Markdown summary, tables and a chart to show, the joined DataFrame, and the result object
that made it (a Hit, AutoJoin, FuzzyJoin or PredicateResult), whose ``code(name, into)``
writes the code that reproduces the frame (join/plan.py). Front ends (the widget's tabs,
``%lakejoin join``) list :data:`ACTIONS` and choose the variable names; actions never see
the notebook.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from .errors import LakeJoinError, LakeJoinWarning, QueryError
from .frames import is_spark_frame, learning_frame
from .join.plan import AGGREGATES, DATE_READINGS
from .search.registry import ParamSpec, resolve_options

PAIRS_SHOWN = 50            # the fuzzy join's pairs to check shown (before the equal ones)


@dataclass
class ActionResult:
    title: str
    summary: str = ""                 # Markdown
    tables: dict = field(default_factory=dict)    # caption -> pandas DataFrame
    chart: object = None              # an altair chart, or None
    joined: object = None             # the joined DataFrame, when the action joins
    result: object = None             # the Joinable that made ``joined``
    code_options: dict = field(default_factory=dict)   # what ``result.code`` needs besides names
    chosen: dict = field(default_factory=dict)    # parameter values the action chose itself
    spark: bool = False               # the user's frame is a Spark DataFrame: PySpark code
    ok: bool = True                   # False: nothing usable found (the summary says why)
    rows_shown: dict = field(default_factory=dict)   # caption -> rows shown (default 10)
    tables_first: int = 0             # how many of the tables come before the chart
    no_index: tuple = ()              # captions of the tables shown without pandas' index
                                      # (their own first column numbers the rows)
    details: dict = field(default_factory=dict)
    # parameter -> (low, high, what the range is): the values the run's own choices (the
    # fuzzy join's function) allow, which a control's bounds follow
    ranges: dict = field(default_factory=dict)
    refused: str | None = None        # the engine refused a parameter: its message

    def code(self, name: str = "df", into: str = "joined") -> str | None:
        """The code binding ``into`` to :attr:`joined`, the user's frame being ``name``."""
        if self.result is None or self.joined is None:
            return None
        return self.result.code(name, into, spark=self.spark, **self.code_options)


@dataclass
class HitAction:
    name: str
    label: str
    run: Callable                     # run(engine, hit, frame, **params, frame_name=)
    applies: Callable = lambda hit: True
    params: tuple = ()                # ParamSpec: the action's own parameters
    suffix: str = ""                  # variable name suffix: <query>_<table>[_<suffix>]
    help: str = ""
    offers: Callable = lambda hit, name: True   # whether the param ``name`` matters for hit

    def params_for(self, hit) -> tuple:
        """The parameters worth offering for this hit (front ends show only these)."""
        return tuple(p for p in self.params if self.offers(hit, p.name))

    def __call__(self, engine, hit, frame, *, frame_name: str = "df", **params) -> ActionResult:
        """Run on ``frame`` (the user's variable ``frame_name``, named in summaries)."""
        opts = resolve_options(self.params, params, f"action {self.name!r}")
        return self.run(engine, hit, frame, **opts, frame_name=frame_name)


def actions_for(hit) -> list[HitAction]:
    return [a for a in ACTIONS if a.applies(hit)]


def get(name: str) -> HitAction:
    for a in ACTIONS:
        if a.name == name:
            return a
    raise LakeJoinError(f"No action {name!r}; actions: {[a.name for a in ACTIONS]}.")


def _code(text) -> str:
    """A Markdown code span that survives backticks inside (column names, programs)."""
    text = str(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest or text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _on(hit) -> str:
    return ", ".join(f"{_code(a)} = {_code(b)}" for a, b in zip(hit.query_columns, hit.columns))


# ----------------------------------------------------------------------- Join

def run_join(engine, hit, frame, how: str = "left", duplicates: str = "all",
             aggregate: str = "none", order_by: str | None = None, dates: str = "auto", *,
             frame_name: str = "df") -> ActionResult:
    """Join the query frame with the hit's table on the normalized key values; with
    ``aggregate`` (latest, first, mean, sum, count) the table is first reduced to one row
    per key (a panel table joined without multiplying the query's rows). ``dates``
    ("latest" only): "auto" (the column's values decide), "day-first" or "month-first"
    forces how its dd/mm/yyyy-like dates read (``Aggregate.dayfirst``)."""
    import dataclasses
    from .frames import joined_tables, mark_joined
    from .index.tables import changed_since_build, find_table, lake_table
    from .join.execute import explode_pandas, join_pandas, match_stats, plan_keys
    agg = None if aggregate == "none" else aggregate
    opts = {"how": how, "duplicates": duplicates}
    dates = _check_dates(dates, agg)
    if agg is not None:
        opts.update(aggregate=agg, order_by=order_by or None)
    elif order_by:
        raise LakeJoinError("order_by goes with aggregate = latest.")
    if dates != "auto":             # forced: the plan carries the reading, not the column
        opts.update(aggregate=_forced_latest(engine, hit, order_by, dates), order_by=None)
    plan = hit.plan(frame, **opts)
    title = f"Join with {hit.table}"
    per_key = (f" ({plan.aggregate.describe(hit.table)})" if plan.aggregate is not None else "")
    if is_spark_frame(frame):
        joined = hit.join(frame, **opts)
        return ActionResult(title=title, joined=joined, result=hit, spark=True, code_options=opts,
                            summary=f"{how.capitalize()} join with **{hit.table}** on {_on(hit)}"
                                    f"{per_key}, as a Spark DataFrame (lazy: nothing is computed "
                                    f"until you use it).", details={"engine": "spark"})
    table = find_table(engine.index, hit.table_id)
    changed = changed_since_build(table)
    right = lake_table(table, warn_changed=False, types=True)   # changes: in the summary
    right = explode_pandas(right, plan)                        # list keys: by element
    keys = plan_keys(frame, right, plan)
    joined = mark_joined(join_pandas(frame, right, plan, keys), joined_tables(frame),
                         hit._joined_tables(plan))
    s = match_stats(frame, right, plan, keys)
    s["joined_rows"] = len(joined)
    lines = [f"{how.capitalize()} join with **{hit.table}** on {_on(hit)}{per_key}: "
             f"**{s['matched_rows']:,}** of {s['query_rows']:,} query rows found a partner; "
             f"the result has **{s['joined_rows']:,} rows** and {joined.shape[1]} columns."]
    if dates != "auto":
        lines[0] += _unread_groups(right, plan, keys)
    if not s["matched_key_unique"] and duplicates == "all" and agg is None:
        lines.append("The lake column repeats some of the query's values, so query rows matching them appear "
                     "several times; choose *per key* (latest, first, mean, sum, count) to keep "
                     "one row per query row, or *duplicates = first*.")
    if changed:
        lines.append(f"**Note:** {changed}")
    return ActionResult(title=title, summary="\n\n".join(lines), joined=joined, result=hit,
                        tables={"joined (first rows)": joined.head(10)}, code_options=opts,
                        details={"stats": s, "engine": "pandas"})


def _check_dates(dates: str | None, aggregate: str | None) -> str:
    """The ``dates`` option of Join and Find transformation, checked: one of
    ``DATE_READINGS``, and forced only with aggregate = latest."""
    dates = dates or "auto"
    if dates not in DATE_READINGS:
        raise LakeJoinError(f"dates must be one of {list(DATE_READINGS)} (got {dates!r}).")
    if dates != "auto" and aggregate != "latest":
        raise LakeJoinError(f"dates={dates!r} goes with aggregate = latest: it says how the "
                            f"column 'latest' orders by reads its dates.")
    return dates


def _forced_latest(engine, hit, order_by: str | None, dates: str):
    """The "latest" Aggregate of the hit's table (by ``order_by`` or its finest
    time column) with its dates read as ``dates`` forces (``Engine.force_reading``)."""
    chosen = engine.aggregate_for(hit, "latest", order_by or None)
    return engine.force_reading(hit, chosen, dates == "day-first")


def _unread_groups(right, plan, keys) -> str:
    """For a forced date reading: the query's keys whose "latest" row changes because some of
    their dates cannot be read that way (read the other way, one of them would be later)."""
    from .join.keys import order_keys, unreadable_dates
    a = plan.aggregate
    lkeys, rkeys = keys
    if len(rkeys) != 1 or a.order_by not in right.columns:
        return ""
    values = right[a.order_by]
    bad = unreadable_dates(values, a.dayfirst)
    if not bad.any():
        return ""
    forced = order_keys(values, a.dayfirst, a.years)
    either = forced.where(~bad, order_keys(values, not a.dayfirst, a.years))
    frame = pd.DataFrame({"key": rkeys[0].to_numpy(), "forced": forced.to_numpy(),
                          "either": either.to_numpy(), "bad": bad.to_numpy()})
    frame = frame[frame["key"].isin(set(lkeys[0].dropna()))]
    changed = []
    for key, g in frame.groupby("key", sort=False):
        if g["bad"].any() and not (g["forced"].max() >= g["either"].max()):
            changed.append(f"{key} ({int(g['bad'].sum())} of {len(g)} dates)")
    if not changed:
        return ""
    way = "day-first" if a.dayfirst else "month-first"
    more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
    return (f" **Read {way}, the latest row of {len(changed):,} key(s) leaves out later dates "
            f"that read only the other way:** {', '.join(changed[:3])}{more}.")


# ----------------------------------------------------------------------- Auto-Join

def run_transformation(engine, hit, frame, how: str = "left", fuzzy: bool = True,
                       seed: int = 0, duplicates: str = "all", aggregate: str = "none",
                       order_by: str | None = None, dates: str = "auto", *,
                       frame_name: str = "df") -> ActionResult:
    """Auto-Join between the query frame and the hit's table, restricted to the query
    column and the hit column (both directions; a "Needs a transformation" hit learns on the
    rows its program joins: :meth:`~.engine.Hit.autojoin`), joined ``how`` (left by
    default, as the Join action); ``duplicates`` and ``aggregate`` / ``order_by`` keep one
    row per query row as the Join action's do (``AutoJoin.join``), and ``dates`` forces how
    "latest" reads dd/mm/yyyy-like dates as the Join action's does (the forced
    :class:`~.join.plan.Aggregate` is ``AutoJoin.join``'s ``aggregate=``)."""
    title = "Find transformation"
    shape = transformation_join_shape(engine, hit, duplicates, aggregate, order_by, dates)
    learn = learning_frame(frame)
    try:
        aj = hit.autojoin(learn, fuzzy=fuzzy, seed=seed, left_name=frame_name)
    except LakeJoinError as e:
        return ActionResult(title=title, summary=str(e), ok=False)
    if not aj.found:
        equal = _equal_as_they_are(hit, learn, frame_name)
        if equal:                    # no program, but the values join with no transformation
            why = aj.message.removeprefix("No transformation joins these tables. ")
            return ActionResult(title="No transformation needed: use Join",
                                summary=f"{equal}\n\nNo program joins more of them: {why}",
                                details={"autojoin": aj.to_dict(), "equal_as_they_are": True})
        return ActionResult(title=title, summary=aj.message, ok=False,
                            details={"autojoin": aj.to_dict()})
    try:
        plan = aj.plan(frame, how=how, fuzzy=fuzzy, **shape)
        joined = aj.join(frame, how=how, fuzzy=fuzzy, **shape)
    except LakeJoinError as e:
        return ActionResult(title=title, summary=str(e), ok=False,
                            details={"autojoin": aj.to_dict()})
    spark = is_spark_frame(frame)
    per_key = (f" ({plan.aggregate.describe(plan.other_label)})" if plan.aggregate is not None
               else " (one lake row per key: duplicates = first)" if duplicates == "first"
               else "")
    n = "" if spark else f" The {how} join{per_key} has **{len(joined):,} rows**."
    if not spark and not shape and len(joined) > len(frame):
        n += (f" It repeats query rows ({len(frame):,} → {len(joined):,}): choose "
              f"*Per key* (latest, first, mean, sum, count) or *duplicates = first* to keep "
              f"one row per query row.")
    summary = (f"**Program:** {_code(aj.program.describe())}\n\n"
               f"{_query_keys_joined(aj, learn, hit.query_columns[0], fuzzy, frame_name, spark)}"
               f" ({aj.source_name} rows transformed).{n}")
    summary += _hit_program_note(hit, aj)
    folded = aj.folded_note()           # distinct values joined onto one key
    if folded:
        summary += f"\n\n**{folded}**"
    if aj.stats.get("from_hit"):        # no program learned: the hit's own (a coincidence?)
        summary += f"\n\n**{aj.stats['from_hit']}.**"
    if aj.stats.get("partial"):         # no program met the acceptance rules
        summary += f"\n\n**{aj.stats['partial']}.**"
    if aj.stats.get("identity"):        # the learned program joins fewer rows than equality
        summary += f"\n\n**{aj.stats['identity']}.**"
    elif aj.estimated_precision is not None:
        from .join.autojoin.result import precision_note
        where = "" if aj.precision_basis == "pairs" else ", on the rows it was learned on"
        summary += (f"\n\nEstimated precision of the equi-join: "
                    f"**{aj.estimated_precision:.0%}** ({precision_note(aj)}{where}).")
    else:
        from .join.autojoin.result import NO_ESTIMATE
        summary += f"\n\n{NO_ESTIMATE}."
    if aj.fuzzy is not None and aj.fuzzy.matches:
        summary += (f"\n\nA constrained fuzzy join ({aj.fuzzy.describe()}) adds "
                    f"{len(aj.fuzzy.matches)} match(es).")
    tables = {}                  # the result first, then the rows that taught the program
    if isinstance(joined, pd.DataFrame):
        tables[f"Joined rows ({len(joined):,}; first 10)"] = joined.head(10)
    examples = aj.examples_frame()      # none when no example row confirms the program
    if len(examples) and len(examples.columns):
        tables["Example rows that taught the program"] = examples
    return ActionResult(title=title, summary=summary, tables=tables, joined=joined, result=aj,
                        code_options={"how": how, "fuzzy": fuzzy, **shape},
                        spark=is_spark_frame(frame),
                        details={"autojoin": aj.to_dict(), "explain": aj.explain(),
                                 "coverage": aj.coverage, "target_keys": aj.target_keys,
                                 "estimated_precision": aj.estimated_precision})


def transformation_shape(duplicates: str = "all", aggregate: str | None = "none",
                         order_by: str | None = None) -> dict:
    """The keyword arguments of ``AutoJoin.join`` that shape a transformation join as the
    Join action's shape an equi-join (only those given: the plain join's code stays plain)."""
    shape = {}
    if duplicates not in (None, "all"):
        shape["duplicates"] = duplicates
    if aggregate not in (None, "none"):
        shape["aggregate"] = aggregate
        if order_by:
            shape["order_by"] = order_by
    elif order_by:
        raise LakeJoinError("order_by goes with aggregate = latest.")
    return shape


def transformation_join_shape(engine, hit, duplicates: str = "all",
                              aggregate: str | None = "none", order_by: str | None = None,
                              dates: str = "auto") -> dict:
    """``transformation_shape`` with ``dates`` (checked: forced only with aggregate =
    latest): a forced reading makes "latest" the hit's table's Aggregate read that way
    (``Engine.force_reading``), as the Join action's; the keywords of ``AutoJoin.join`` of
    the Find transformation action and ``lakejoin join``."""
    dates = _check_dates(dates, None if aggregate in (None, "none") else aggregate)
    shape = transformation_shape(duplicates, aggregate, order_by)
    if dates != "auto":
        shape.pop("order_by", None)
        shape["aggregate"] = _forced_latest(engine, hit, order_by, dates)
    return shape


def _hit_program_note(hit, aj) -> str:
    """What the summary says when Auto-Join joins with another program than the one a
    "Needs a transformation" hit showed (the search's, learned on case-folded values of the
    index), or in the other direction: both, and why (a tie goes to the hit's direction);
    nothing when the two differ only in case (the same program on folded values)."""
    details = hit.details
    shown = details.get("program")
    if shown is None:
        return ""
    hit_side = "left" if details.get("direction") == "query -> lake" else "right"
    if aj.program.describe().casefold() == shown.casefold() and aj.source == hit_side:
        return ""
    where = "query's" if hit_side == "left" else "lake table's"
    if aj.source != hit_side:
        why = ("it applies to the other table's values: that direction joins more of its "
               "target's rows than the hit's does")
    else:
        why = ("learned on the cells as written, where the search learned on the index's "
               "case-folded values")
    return (f"\n\n**Not the hit's program:** the search showed {_code(shown)}, applied to "
            f"the {where} values; Auto-Join joins with the program above ({why}).")


def _query_keys_joined(aj, learn, column, fuzzy, frame_name, spark) -> str:
    """"N of the rows of `df` find a partner: it joins K of the D distinct keys of `col`",
    counted on the query's column whichever side the program transforms (a Spark query: on
    the rows the action learned from)."""
    from .join.keys import normalized_keys
    rows = {i for i, _ in aj.pairs(fuzzy)}
    keys = normalized_keys(learn[column]).reset_index(drop=True) if column in learn.columns \
        else None                   # distinct as the join compares them (normalized)
    if keys is None or not len(learn):
        return f"It joins {aj.keys_text()}"      # both tables' keys, the query's first
    distinct = set(keys.dropna())
    joined = {keys[i] for i in rows if keys[i] is not None}
    which = f"first {len(learn):,} rows" if spark else f"{len(learn):,} rows"
    onto = ""           # the program's keys, which the many-to-one warning counts
    if aj.source == "left" and aj.coverage != len(joined) and not (
            aj.fuzzy is not None and aj.fuzzy.matches):
        onto = f", onto {aj.coverage:,} keys of {_code(aj.target_column)}"
    return (f"**{len(rows):,}** of the {which} of {_code(frame_name)} "
            f"({len(rows) / len(learn):.0%}) find a partner: it joins **{len(joined):,}** of "
            f"the {len(distinct):,} distinct keys of {_code(column)}{onto}")


def _equal_as_they_are(hit, learn, frame_name) -> str | None:
    """When the query column's values already equal values of the hit's column (an equality
    hit, on the frame it was found for), the sentence saying so and pointing to Join."""
    column = hit.query_columns[0] if len(hit.query_columns) == 1 else None
    if column not in learn.columns or "program_json" in hit.details:
        return None
    from .join.keys import normalized_keys
    keys = normalized_keys(learn[column])
    try:
        equal = set(hit._matched_tokens()) & set(keys.dropna())
    except (LakeJoinError, OSError, AttributeError):
        return None
    if not equal:
        return None
    rows = int(keys.isin(equal).sum())
    return (f"**The values already join as they are:** {len(equal):,} of the "
            f"{keys.nunique():,} distinct values of {_code(column)} equal a value of "
            f"{_code(hit.table + '.' + hit.columns[0])} ({rows:,} of the {len(learn):,} rows "
            f"of {_code(frame_name)}). Use **Join** for them.")


# ----------------------------------------------------------------------- fuzzy join

def run_fuzzy(engine, hit, frame, precision_target: float = 0.9,
              threshold: float | None = None, *, how: str = "left", duplicates: str = "all",
              frame_name: str = "df") -> ActionResult:
    """Fuzzy-join the query frame (right) to the hit's lake table (left, the reference), at
    the join function and threshold chosen for the precision target, or, with
    ``threshold``, the main join function at that threshold (the union's other
    configurations kept: ``FuzzyJoin.configs_at``); ``how`` and ``duplicates`` (not the
    action's parameters: the Fuzzy join tab keeps every query row and every lake row of a
    matched value, as the Join action's default) as :func:`join_hit` asks."""
    qcol = hit.query_columns[0]
    title = f"Fuzzy join with {hit.table}.{hit.column}"
    learn = learning_frame(frame)
    fj = engine.fuzzy_join(hit.table, learn, on=(hit.column, qcol),
                           precision_target=precision_target)
    from .join.fuzzy import at_largest, configs_scaled_text, distance_range
    top = distance_range(fj.function)      # the threshold's range: the main function's
    counts = fj.config_matches()
    # the other functions' configurations that joined a value (those that joined none
    # change nothing; the summary counts them)
    kept = [(c, n) for c, n in zip(fj.configs, counts) if c[0] != fj.function and n]
    kept_text = configs_scaled_text([c for c, _ in kept], counts=[n for _, n in kept])
    own = [th for f, th in fj.configs if f == fj.function]
    ranges = {"threshold": (0.0, top, f"of 0..{top:.2f}, the distances of join function "
                                      f"{fj.function}"
                                      + (f" (its {len(own)} chosen thresholds move together; at "
                                         f"{fj.threshold:.3f}, the largest that matched a "
                                         f"value, it joins as chosen)"
                                         if len(own) > 1 and fj.threshold is not None else "")
                                      + (f"; kept beside it: {kept_text}" if kept else ""))}
    estimates = {"join functions": fuzzy_estimates_table(fj.functions)}
    if not fj.ok and threshold is None:
        return ActionResult(title=title, summary=fj.summary(), ok=False,
                            tables=estimates, chart=fj.chart(),
                            chosen={"threshold": None}, ranges=ranges)
    t = fj.threshold if threshold is None else threshold
    try:
        fj.configs_at(threshold)              # a threshold outside the distances: refused
    except LakeJoinError as e:
        return ActionResult(title=title, summary=str(e), ok=False, refused=str(e),
                            chosen={"threshold": fj.threshold}, ranges=ranges)
    est = fj.estimate(t)
    joined = fj.join(frame, how=how, threshold=threshold, duplicates=duplicates)
    if threshold is None:
        # a union's configurations in the order the choice added them, with what each
        # joined (as explain() and the code's comment list them)
        chosen = configs_scaled_text(fj.configs, counts=counts)
        n = sum(c > 0 for c in counts)      # those that matched nothing are only counted
        summary = ((f"Chose {n} configuration{'s' if n != 1 else ''}"
                    + (", in the order the choice added them" if n > 1 else "")
                    + f": {chosen},"
                    if len(fj.configs) > 1 else
                    f"Chose join function **{fj.function}** at threshold **{t:.3f}** "
                    f"(of {fj.scale}"
                    + (", its largest distance: every value joins its nearest"
                       if at_largest(fj.function, t) else "") + ")")
                   + f" for precision target {precision_target:.0%}: estimated precision "
                     f"**{fj.precision_text(fj.estimated_precision)}** ({fj.bound_text()}), "
                     f"estimated recall "
                     f"**{fj.estimated_recall:.1%}**.")
    else:
        chosen = f"{fj.threshold:.3f}" if fj.threshold is not None else "none"
        alone = (f" (of {fj.function} alone at that threshold)"
                 if len(fj.configs_at(threshold)) > 1 else "")
        summary = (f"Threshold given: {fj.threshold_text(threshold)} (chosen: {chosen}): "
                   f"estimated precision **{fj.precision_text(est['est_precision'], t)}** "
                   f"({fj.bound_text(t)}), estimated recall "
                   f"**{est['est_recall']:.1%}**{alone}.")
    if isinstance(joined, pd.DataFrame):
        plan = fj.plan(frame, how=how, threshold=threshold, duplicates=duplicates)
        matched = int(joined[plan.renamed.get(hit.column, hit.column)].notna().sum())
        per_key = " (one lake row per value: duplicates = first)" if duplicates == "first" else ""
        summary += (f" The join{per_key} has **{len(joined):,} rows**, {matched:,} with a "
                    f"partner.")
        if len(joined) > len(frame):
            summary += (f"\n\nThe lake column repeats some of the matched values, so query "
                        f"rows matching them appear several times ({len(frame):,} → "
                        f"{len(joined):,} rows); *duplicates = first* keeps one row per "
                        f"query row.")
    for w in fj.warnings(threshold):
        summary += f"\n\n**Warning:** {w}"
    (caption, pairs), = fuzzy_pairs_table(fj.matches(threshold), qcol, hit.column).items()
    to_check = int((pairs["equal"] == "no").sum())
    return ActionResult(
        title=title, summary=summary, chart=fj.chart(threshold), joined=joined, result=fj,
        tables={caption: pairs, "estimate vs threshold": fuzzy_estimates_table(fj.curve),
                **estimates},
        rows_shown={caption: min(PAIRS_SHOWN, max(10, to_check))}, tables_first=1,
        code_options={"threshold": threshold, "how": how, "duplicates": duplicates},
        chosen={"threshold": fj.threshold},
        spark=is_spark_frame(frame), ranges=ranges,
        details={"threshold": t, "function": fj.function, "configs": fj.configs,
                 "estimated_precision": fj.estimated_precision,
                 "estimated_recall": fj.estimated_recall})


def join_hit(engine, hit, frame, how: str = "left", duplicates: str = "all",
             aggregate: str = "none", order_by: str | None = None, dates: str = "auto",
             precision_target: float = 0.9, *, frame_name: str = "df") -> ActionResult:
    """Join the query frame with a hit, as ``lakejoin join`` and ``%lakejoin join`` do: a hit
    on equal values by the Join action (:func:`run_join`, every option), a fuzzy / semantic
    (PEXESO) hit, whose values match within a distance, by the fuzzy join at
    ``precision_target`` (:func:`run_fuzzy`, ``how`` as asked; the equi-join's shaping
    options but ``duplicates`` are refused: the fuzzy join keeps every lake row of a
    matched value, or the first)."""
    if "tau" not in hit.details:
        return get("join")(engine, hit, frame, how=how, duplicates=duplicates,
                           aggregate=aggregate, order_by=order_by, dates=dates,
                           frame_name=frame_name)
    where = f"{hit.table}.{hit.column}"
    shaped = [f"{n}={v!r}" for n, v, plain in (
        ("aggregate", aggregate, "none"),
        ("order_by", order_by, None), ("dates", dates or "auto", "auto")) if v != plain]
    if shaped:
        raise LakeJoinError(f"{', '.join(shaped)}: the hit {where} matches similar values "
                            f"(fuzzy / semantic), so it is joined by the fuzzy join, which "
                            f"keeps every lake row of a matched value (or the first, "
                            f"duplicates='first'); these options shape equi-joins only. Leave "
                            f"them out, or join a hit on equal values.")
    if duplicates not in ("all", "first"):
        raise LakeJoinError(f"duplicates={duplicates!r}: 'all' (every lake row of a matched "
                            f"value) or 'first'.")
    if how not in ("left", "inner"):
        raise LakeJoinError(f"how={how!r}: the hit {where} matches similar values, joined by "
                            f"the fuzzy join, which keeps every query row (how='left') or only "
                            f"the matched ones (how='inner'). Give one of these two.")
    if not 0.5 <= precision_target <= 1:
        raise LakeJoinError(f"precision_target={precision_target:g}: the fuzzy join of the "
                            f"hit {where} aims at this estimated precision, the share of its "
                            f"matches that are right. Give a value between 0.5 and 1 "
                            f"(default 0.9).")
    out = run_fuzzy(engine, hit, frame, precision_target=precision_target, how=how,
                    duplicates=duplicates, frame_name=frame_name)
    if out.ok:
        out.summary = (f"This hit matches similar values (fuzzy / semantic), not equal ones; "
                       f"joined with the fuzzy join: {out.summary}")
    return out


def fuzzy_estimates_table(df: pd.DataFrame) -> pd.DataFrame:
    """A fuzzy join's estimates (``curve``, ``functions``) as the tab shows them: thresholds
    and fractions to 3 decimals, as the summary writes thresholds (never scientific
    notation), the estimated true matches to 1, counts of matches as integers (empty where
    a function has no threshold). The curve's thresholds within round-off of each other
    (``fuzzy.ROUNDOFF``: values equal after the featurization, at 0 .. 4e-8) are one row,
    at the first of them with the figures of the last, which a threshold given there
    reaches."""
    from .join.fuzzy import ROUNDOFF
    out = df.copy()
    if "function" not in out and len(out):
        t = out["threshold"].astype(float).to_numpy()
        start, first = [], None
        for x in t:
            first = x if first is None or x - first > ROUNDOFF else first
            start.append(first)
        last = np.r_[np.asarray(start[1:]) != np.asarray(start[:-1]), True]
        out = out.assign(threshold=start)[last].reset_index(drop=True)
    decimals = {}
    for col in out.columns:
        if col == "matches":
            out[col] = out[col].round().astype("Int64")
        elif col != "function":
            decimals[col] = 1 if col == "est_true" else 3
            out[col] = out[col].astype(float).round(decimals[col]) + 0.0
    out.attrs["decimals"] = decimals      # shown with as many decimals (ui/render.py)
    return out


def fuzzy_pairs_table(matches: pd.DataFrame, qcol: str, lcol: str, limit: int = 200) -> dict:
    """The fuzzy join's matched values as {caption: table}: the pairs whose values differ
    after the normalization (lake/normalize.py: case, spacing, number formats) first, the
    ones to check, farthest first; then the pairs equal after it, then the identical ones,
    each marked ("no", "normalized", "yes")."""
    from .join.fuzzy import equal_pairs
    m = matches.copy()
    same_text, same_key = equal_pairs(m["right"], m["left"])
    m["equal"] = np.where(same_text, "yes", np.where(same_key, "normalized", "no"))
    m = pd.concat([m[~same_key].sort_values("distance", ascending=False, kind="stable"),
                   m[same_key & ~same_text], m[same_text]])
    # three decimals, never scientific notation: float noise (1.5e-08 between identical
    # values) reads 0 (+ 0.0: no "-0.000")
    m["distance"] = m["distance"].astype(float).round(3) + 0.0
    if "threshold" in m:              # the threshold of the function that joined the pair
        m["threshold"] = m["threshold"].astype(float).round(3) + 0.0
    n, n_norm = int((~same_key).sum()), int((same_key & ~same_text).sum())
    n_same = len(m) - n - n_norm              # three counts that add up to every pair
    parts = [f"{n:,} differ in spelling, shown first to check"]
    if n_norm:
        parts.append(f"{n_norm:,} only in case, spacing or number format")
    if n_same:
        parts.append(f"{n_same:,} identical")
    caption = (f"matched values ({len(m):,} pairs: {'; '.join(parts)})"
               if n else f"matched values ({len(m):,} pairs, all equal after normalization)")
    return {caption: m.head(limit).rename(columns={"right": f"{qcol} (query)",
                                                   "left": f"{lcol} (lake)"})
            .reset_index(drop=True)}


# ----------------------------------------------------------------------- predicate

SEARCH_ALL, SEARCH_SEEDED = "all predicates", "with the hit's key"


def run_predicate(engine, hit, frame, preference: str = "h5", time_limit: float = 30.0,
                  search: str = SEARCH_ALL, *, frame_name: str = "df") -> ActionResult:
    """Compare join predicates and join with the best one. ``search``: "all predicates"
    (every column pair; the hit's key, when it matched equal values, is scored too and
    shown beside the best) or "with the hit's key" (the schemaless search seeded with the
    pair(s) the index found: the best predicate containing them). A hit matched through a
    program or by similar values (whose raw values need not meet), or a seed no predicate
    contains, gets the unseeded search, and the summary says so."""
    from .charts import predicate_chart
    from .join.schemaless import PREFERENCES, predicate_text
    if search not in (SEARCH_ALL, SEARCH_SEEDED):
        raise QueryError(f"search must be {SEARCH_ALL!r} or {SEARCH_SEEDED!r} (got {search!r}).")
    details = hit.details
    unequal = "program_json" in details or "tau" in details
    key = [] if unequal else [(q, c) for q, c in zip(hit.query_columns, hit.columns)
                              if q in frame.columns]
    seeded = search == SEARCH_SEEDED
    res = engine.best_predicate(frame, hit.table, preference=preference,
                                seed_pair=(key or None) if seeded else None,
                                time_limit=time_limit)
    pair = ", ".join(f"{_code(q)} = {_code(c)}" for q, c in zip(hit.query_columns, hit.columns))
    note = None
    if seeded and unequal:
        how = "a transformation" if "program_json" in details else "similar values"
        note = (f"not seeded with the hit's pair {pair}: it matched through {how}, not on "
                f"equal values, so the search considered every column pair")
    elif seeded and key and not res.predicate:
        note = (f"no predicate contains the hit's pair {pair} (its columns share no value as "
                f"written), so the search was run again without it")
        res = engine.best_predicate(frame, hit.table, preference=preference,
                                    time_limit=time_limit)
    if note is not None:
        res.notes.insert(0, note)
    title = f"Join predicate for {hit.table} ({res.preference}: {PREFERENCES[res.preference].label})"
    if not res.predicate:
        return ActionResult(title=title, ok=False, summary="; ".join(res.notes),
                            details={"result": res})
    s = res.stats
    label = ("Best predicate containing the hit's key" if res.seed else "Best predicate")
    summary = (f"**{label}:** {_code(res.describe())}\n\n"
               f"{res.preference} = {s[res.preference]:.4g}; join **{s['join_size']:,} rows**, "
               f"outer join {s['outer_join_size']:,} rows, coverage {s['coverage']:.3f}, "
               f"strength {s['strength']:.3f}, {s['n_keys']:,} distinct keys; "
               f"{res.search['nodes']:,} predicate(s) scored"
               + (f" (seeded with {_code(predicate_text(res.seed))}: only predicates "
                  f"containing it; *Search* = *{SEARCH_ALL}* compares every column pair)"
                  if res.seed else " (every column pair considered)") + ".")
    compared = res.comparison(20)
    own_row = None
    if not res.seed and key and sorted(key) != sorted(res.predicate):
        # the hit's key, scored alone, beside the best: what the search found it beats
        own = engine.best_predicate(frame, hit.table, preference=preference, seed_pair=key,
                                    time_limit=time_limit, max_pairs=len(key))
        if own.predicate:
            text = predicate_text(own.predicate)
            if text not in set(compared["predicate"]):     # in the table and the chart too
                own_row = own.comparison().query("predicate == @text").head(1).assign(
                    rank="the hit's key", chosen=False)
                compared = pd.concat([compared.astype({"rank": object}), own_row],
                                     ignore_index=True)
            o = own.stats
            summary += (f"\n\nThe hit's key {_code(predicate_text(own.predicate))}: "
                        f"{res.preference} = {o[res.preference]:.4g}; join {o['join_size']:,} "
                        f"rows, coverage {o['coverage']:.3f}, strength {o['strength']:.3f} "
                        f"(*Search* = *{SEARCH_SEEDED}* keeps it in the predicate).")
    if res.notes:
        summary += "\n\n" + "\n\n".join(f"*note:* {n}" for n in res.notes)
    joined = res.join(frame)
    return ActionResult(title=title, summary=summary,
                        tables={"Predicates compared": compared},
                        no_index=("Predicates compared",),         # numbered by its rank
                        chart=predicate_chart(res, own_row), joined=joined, result=res,
                        spark=is_spark_frame(frame),
                        details={"result": res, "predicate": res.predicate})


def _join_offers(hit, name: str) -> bool:
    """Aggregating per key is offered when the lake key repeats (fan-out above 1)."""
    if name in ("aggregate", "order_by", "dates"):
        return hit.key_ratio is None or hit.key_ratio > 1
    return True


# The actions the front ends offer, in the order they show them.
def _shape_params(table: str) -> tuple:
    """The Join and Find transformation actions' controls of the lake rows per key."""
    return (ParamSpec("duplicates", "Lake duplicates", "choice", "all", choices=("all", "first"),
                      help="all: every matching lake row; first: one lake row per key"),
            ParamSpec("aggregate", "Per key", "choice", "none", choices=("none",) + AGGREGATES,
                      help=f"one row per key of {table}: the latest by a date or year column, "
                           f"the first, the mean or sum of its numeric columns, or only the "
                           f"count"),
            ParamSpec("order_by", "Latest by", "str", None,
                      help="the date or year column of 'latest' (empty: the table's finest "
                           "that is not constant)"),
            ParamSpec("dates", "Dates read", "choice", "auto", choices=DATE_READINGS,
                      help="how 'latest' reads dates like 02/03/2020: auto (from "
                           "the column's values), day-first (dd/mm/yyyy) or "
                           "month-first (mm/dd/yyyy)"))


ACTIONS = (
    HitAction("join", "Join", run_join, suffix="",
              # a hit joinable only through a learned program ("Find transformation" joins
              # it) or by similar values (PEXESO: "Fuzzy join") has no equi-join
              applies=lambda hit: not {"program", "tau"} & set(hit.details),
              params=(ParamSpec("how", "Join type", "choice", "left", choices=("left", "inner"),
                                help="left keeps every query row; inner keeps matched rows only"),
                      *_shape_params("a panel table")),
              offers=_join_offers,
              help="Equi-join on the normalized values the search matched."),
    HitAction("autojoin", "Find transformation", run_transformation, suffix="transformed",
              applies=lambda hit: len(hit.columns) == 1,
              params=(ParamSpec("how", "Join type", "choice", "left", choices=("left", "inner"),
                                help="left keeps every query row; inner keeps matched rows only"),
                      ParamSpec("fuzzy", "Constrained fuzzy join", "bool", True,
                                help="extend the equi-join with fuzzy matches that keep it "
                                     "1:1 / N:1"),
                      ParamSpec("seed", "Random seed", "int", 0, 0, 10_000, 1,
                                help="seed of the example sets drawn for learning"),
                      *_shape_params("the lake table")),
              offers=_join_offers,
              help="Learn the string transformation (split, substring, case, constants) that "
                   "makes the two columns equal (Auto-Join)."),
    HitAction("fuzzy_join", "Fuzzy join", run_fuzzy, suffix="fuzzy",
              applies=lambda hit: len(hit.column_ids) == 1,
              params=(ParamSpec("precision_target", "Precision target", "float", 0.9, 0.5, 1.0,
                                0.01, help="the join function and threshold are chosen to reach "
                                           "this estimated precision"),
                      # 0..2 the widest (semantic); a run narrows the control to the
                      # chosen function's range (ActionResult.ranges)
                      ParamSpec("threshold", "Distance threshold", "float", None, 0.0, 2.0, 0.01,
                                help="chosen for the precision target")),
              help="Join values that are close but not equal (typos, variants), at a "
                   "precision target (Auto-FuzzyJoin)."),
    HitAction("predicate", "Best join predicate", run_predicate, suffix="predicate",
              applies=lambda hit: getattr(hit, "table", None) is not None,
              params=(ParamSpec("preference", "Preference", "choice", "h5",
                                choices=("h1", "h2", "h3", "h4", "h5"),
                                help="h1 most rows matched, h2 most distinct keys, h3 smallest "
                                     "outer join, h4 most even keys, h5 balance (default)"),
                      ParamSpec("time_limit", "Time limit (s)", "float", 30.0, 1.0, 600.0, 1.0,
                                help="stop with the best predicate found so far"),
                      ParamSpec("search", "Search", "choice", SEARCH_ALL,
                                choices=(SEARCH_ALL, SEARCH_SEEDED),
                                help="all predicates: every column pair, the hit's key "
                                     "scored beside the best; with the hit's key: only "
                                     "predicates containing the key the search found")),
              help="The set of column pairs whose join best fits a result preference "
                   "(schemaless join)."),
)


# ----------------------------------------------------------------------- union

def run_union(engine, hit, frame, *, distinct: bool = True,
              frame_name: str = "df") -> ActionResult:
    """Stack the union hit's aligned rows under the query frame (``distinct``: only the rows
    the query does not have, each once, as ``hit.union``); the summary counts the new rows
    and those left out, and names every query column left empty in the added rows (a
    warning when an aligned one is)."""
    from .join.union import union_gaps
    title = f"Union with {hit.table}"
    report: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LakeJoinWarning)    # said in the summary instead
        unioned = hit.union(frame, distinct=distinct, report=report)
    pairs = ", ".join(f"`{a}` \u2190 `{b}` ({s:.2f}{', by name' if a in hit.named else ''})"
                      for a, b, s in hit.alignment)
    plan = hit.plan(frame, distinct=distinct)
    code = {"distinct": distinct}
    source = plan.source
    unaligned = [c for c in plan.query_columns if c not in hit.mapping]
    if is_spark_frame(frame):
        empty = (f" {', '.join(f'`{c}`' for c in unaligned)} "
                 f"{'has' if len(unaligned) == 1 else 'have'} no aligned column: null in the "
                 f"added rows." if unaligned else "")
        which = ("the rows of **{t}** the query does not have (each once)" if distinct
                 else "every row of **{t}**").format(t=hit.table)
        return ActionResult(title=title, joined=unioned, result=hit, spark=True,
                            code_options=code,
                            summary=f"Stacked {which} under the query "
                                    f"(aligned: {pairs}) as a Spark DataFrame (lazy); "
                                    f"`{source}` says where each row comes from; a value "
                                    f"that does not cast to its query column's type is "
                                    f"null.{empty}",
                            details={"unaligned": unaligned, "distinct": distinct})
    n_q = len(frame)
    gaps = union_gaps(plan, report)
    n_new, n_dup = len(unioned) - n_q, report.get("duplicates", 0)
    n_table = n_new + n_dup
    if distinct:
        summary = (f"Stacked **{n_new:,}** new rows of **{hit.table}** under the query's "
                   f"{n_q:,} rows (aligned: {pairs}); `{source}` says where each row comes "
                   f"from. "
                   + (f"Left out {n_dup:,} of its {n_table:,} rows, already in the query "
                      f"or repeated in the table (equal on the aligned "
                      f"{'column' if len(hit.alignment) == 1 else 'columns'}, compared as the "
                      f"search compares values: case, spacing and number formats aside)."
                      if n_dup else f"None of its {n_table:,} rows was already in the query."))
    else:
        summary = (f"Stacked all **{n_new:,}** rows of **{hit.table}** under the query's "
                   f"{n_q:,} rows (aligned: {pairs}), rows the query already has included; "
                   f"`{source}` says where each row comes from.")
    for level, m in gaps["messages"]:
        summary += f"\n\n{'**Warning:**' if level == 'warning' else '*note:*'} {m}"
    empty = gaps["empty_aligned"] + gaps["unaligned"]
    return ActionResult(title=title, summary=summary, joined=unioned, result=hit,
                        code_options=code,
                        tables={"added rows (first 10)": unioned.iloc[n_q:].head(10)},
                        details={"rows_added": n_new, "duplicates_left_out": n_dup,
                                 "distinct": distinct, "score": hit.score,
                                 "empty_columns": empty,
                                 "empty_aligned": gaps["empty_aligned"],
                                 "lossy": gaps["lossy"], "unaligned": gaps["unaligned"]})


# The actions on a union hit (the widget's Union mode, %lakejoin union --union N).
UNION_ACTIONS = (
    HitAction("union", "Union", run_union, suffix="union",
              params=(ParamSpec("distinct", "Only new rows", "bool", True,
                                help="leave out the table's rows the query already has "
                                     "and repeated ones (equal on the aligned columns, "
                                     "case, spacing and number formats aside)"),),
              help="Stack the table's aligned columns under the query (renamed to the "
                   "query's; where the query's column is numeric or date-time, the table's values "
                   "are converted to it, other columns keep the table's values: text for CSV, "
                   "the file's types for Parquet; a source column added)."),
)
