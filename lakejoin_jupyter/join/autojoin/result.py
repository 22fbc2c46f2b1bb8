"""The answer of Auto-Join: the learned program, its evidence, the join and its code.

``AutoJoin`` is what ``autojoin()`` / ``Engine.autojoin()`` return. When ``found`` is False,
``message`` says why and there is no program (rather than a bad one). ``explain()`` also
names the other direction's accepted program, when there is one (both may be joins).
Keys are compared after lakejoin's normalization, as every equi-join compares them
(join/keys.py ``side_keys``; docs/algorithms/autojoin.md, "Keys are compared normalized").
"""
from __future__ import annotations

import html
import json
from dataclasses import replace

import pandas as pd

from ...errors import QueryError
from ..joinable import Joinable
from ..keys import compared_keys
from ..plan import Key
from .chance import chance_precision
from .dsl import Program, ProgramFormatError, apply_frame, column_texts
from .fuzzy import ConstrainedFuzzyJoin

FORMAT = "lakejoin-autojoin"
FORMAT_VERSION = 1


NO_ESTIMATE = ("No estimated precision: fewer than 3 joined rows (or values) have "
               "independent evidence of their partner (a 1-to-1 match of 6+ characters or of "
               "a rare token bag), and its "
               "keys are not short codes whose chance rate gives one, and no joined row "
               "outside the examples has a candidate row pair, so check the examples and the "
               "joined rows")
CHANCE_ESTIMATE = ("from the chance rate of its short codes: a wrong output meets a key as "
                   "often as the outputs' characters, drawn position by position, make keys "
                   "(at least as often as the key set fills the codes of its length), so the "
                   "rows whose output is no key measure the rows joined wrongly")


PAIRS_ESTIMATE = ("from the row pairs it was learned on: the share of the joined rows with a "
                  "candidate partner (a value sharing a q-gram or a whole key with a target "
                  "row) whose key is one of them; the pairs are not independent of the "
                  "learning, so this is a rough figure: wrong rows sharing a right value's "
                  "pairs raise it, chance pairs of other columns lower it")


def precision_note(aj) -> str:
    """How the estimated precision was made, for a sentence after the figure."""
    if aj.precision_basis == "chance":
        return CHANCE_ESTIMATE
    if aj.precision_basis == "pairs":
        return PAIRS_ESTIMATE
    return "agreement with independent rare-substring matches"


def _labels(frame) -> dict:
    return {str(c): c for c in frame.columns} if frame is not None else {}


def _program_key(program, columns) -> Key:
    """A program key over a table with ``columns`` (its labels need not be strings)."""
    labels = {str(c): c for c in columns}
    missing = [c for c in program.columns if c not in labels]
    if missing:
        raise QueryError(f"The program reads column(s) {missing}, which the table does not "
                         f"have (it has {[str(c) for c in columns][:20]}).")
    return Key(tuple(labels[c] for c in program.columns), "program", program, normalized=True)


def compared(keys) -> list:
    """Keys as the join compares them: lakejoin's normalization (the search's and every
    equi-join's; a text it drops as written: join/keys.py ``compared_keys``), None for no
    key."""
    return compared_keys(pd.Series(list(keys), dtype=object)).tolist()


def without_equal(fuzzy: ConstrainedFuzzyJoin | None, keyset: set):
    """``fuzzy`` without the matches of derived keys that equal a key once normalized
    (``keyset``: the compared target keys): those join by equality ("Yaxel Lendeborg" is
    "YAXEL LENDEBORG"); None when no match is left."""
    if fuzzy is None or not fuzzy.matches:
        return fuzzy
    derived = list(fuzzy.matches)
    kept = {d: fuzzy.matches[d] for d, n in zip(derived, compared(derived)) if n not in keyset}
    if len(kept) == len(derived):
        return fuzzy
    if not kept:
        return None
    prob = {d: p for d, p in fuzzy.probability.items() if d in kept}
    return replace(fuzzy, matches=kept, probability=prob,
                   exact_coverage=fuzzy.exact_coverage + len(derived) - len(kept),
                   estimated_precision=sum(prob.values()) / len(prob) if prob else None)


def _key_counts(source_keys, target_keys) -> tuple[int, int, int]:
    """(distinct target keys, source rows whose key is a target key, distinct such keys),
    keys compared normalized (:func:`compared`), None being no key; C-level set operations
    only (no per-key Python bytecode)."""
    source_keys, target_keys = compared(source_keys), compared(target_keys)
    keyset = set(target_keys)
    keyset.discard(None)
    return (len(keyset), sum(map(keyset.__contains__, source_keys)),
            len(keyset.intersection(source_keys)))


def _joined_columns(name, frame) -> list:
    """The columns of ``frame`` whose names, joined with " & " in the frame's order, make
    ``name`` (a pair group over several columns); [name] when it is one column or no such
    columns are found."""
    columns = [str(c) for c in getattr(frame, "columns", [])]
    if name is None or name in columns:
        return [name]
    out, at = [], 0
    for c in columns:
        end = at + len(c)
        if name.startswith(c, at) and (end == len(name) or name.startswith(" & ", end)):
            out.append(c)
            at = end + 3
            if end == len(name):
                return out
    return [name]


def _and(items: list) -> str:
    """'a', 'b' and 'c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class AutoJoin(Joinable):
    """A transformation join between two DataFrames (see :func:`autojoin`): ``join(df)`` and
    ``code(name, into)`` follow the join contract (join/plan.py)."""

    def __init__(self, *, found: bool, message: str, left=None, right=None,
                 left_name: str = "left", right_name: str = "right", source: str = "left",
                 program: Program | None = None, target_program: Program | None = None,
                 source_column: str | None = None, target_column: str | None = None,
                 examples: list | None = None, coverage: int = 0, target_keys: int = 0,
                 joined_rows: int = 0, fuzzy: ConstrainedFuzzyJoin | None = None,
                 alternatives: list | None = None, stats: dict | None = None,
                 estimated_precision: float | None = None,
                 precision_basis: str | None = None):
        self.found, self.message = found, message
        self.left, self.right = left, right
        self.left_name, self.right_name = left_name, right_name
        self.source = source                      # which table the program transforms
        self.program = program
        self.target_program = target_program      # composite keys: the target-side part
        self.source_column = source_column        # the column whose q-grams found the pairs
        self.target_column = target_column        # the target key column
        self.examples = examples or []            # the example rows that taught the program
        self.coverage = coverage                  # distinct target keys joined by equality
        self.target_keys = target_keys            # distinct keys of the target column
        self.joined_rows = joined_rows            # source rows joined (full tables, equality)
        self.estimated_precision = estimated_precision   # of the equi-join (programset.py)
        # "evidence" (rare-substring matches), "chance" (short codes' chance rate, chance.py)
        # or "pairs" (the row pairs learned on: no other basis, or a partial program)
        self.precision_basis = (None if estimated_precision is None
                                else precision_basis or "evidence")
        self.fuzzy = fuzzy
        self.alternatives = alternatives or []    # (description, coverage) of runner-up programs
        self.stats = stats or {}
        self.lake = None                          # the right table's LakeTable, when from the lake
        self.explode = None                       # its list columns exploded to learn (None:
                                                  # those the keys read, join/plan.py)
        self.how = "inner"                        # join type when none is given ("left": a
                                                  # lake table's, as an equi-join hit's)
        # (how, order_by, key columns) -> Aggregate for a lake table (the engine's
        # ``aggregate_for``, the equi-join hit's rule); None: read from the right frame
        self.aggregates = None
        self.spark_query = False                  # learned from a Spark query's first rows:
                                                  # code() writes PySpark (join/joinable.py)
        self._keys = None

    # ------------------------------------------------------------ construction
    @classmethod
    def not_found(cls, L, R, message, stats, settings) -> "AutoJoin":
        return cls(found=False, message=message, left=L.frame, right=R.frame,
                   left_name=L.label, right_name=R.label, stats=stats)

    @classmethod
    def from_search(cls, L, R, left_is_source, best, part, fuzzy, source_keys, target_keys,
                    direction, stats, settings) -> "AutoJoin":
        src, tgt = (L, R) if left_is_source else (R, L)
        group = direction.groups[best.group]
        examples = []
        for ex in best.examples:
            examples.append({
                "source_row": int(direction.source_positions[ex.source_row]),
                "target_row": int(direction.target_positions[ex.target_row]),
                "input": {c: v for c, v in zip(src.columns, ex.row) if c in best.program.columns
                          or c == group.source_column},
                "output": ex.output})
        n, joined_rows, joined_keys = _key_counts(source_keys, target_keys)
        fuzzy = without_equal(fuzzy, set(compared(target_keys)))
        stats = dict(stats, sample_coverage=best.coverage)
        alts = [(c.program.describe(), c.coverage) for c in direction.candidates
                if c is not best][:5]
        target_column = part.column if part is not None else best.target_column
        shown = part.program.describe() if part is not None else repr(target_column)
        msg = (f"Found: {best.program.describe()} (the {src.label} table's rows) joins "
               f"{shown} of the {tgt.label} table.")
        out = cls(found=True, message=msg, left=L.frame, right=R.frame, left_name=L.label,
                  right_name=R.label, source="left" if left_is_source else "right",
                  program=best.program, target_program=part.program if part else None,
                  source_column=group.source_column, target_column=target_column,
                  examples=examples, coverage=joined_keys, target_keys=n,
                  joined_rows=joined_rows, fuzzy=fuzzy, alternatives=alts, stats=stats,
                  estimated_precision=best.extra.get("estimated_precision"),
                  precision_basis=best.extra.get("precision_basis"))
        out._keys = (source_keys, target_keys)
        return out

    def with_right(self, right: pd.DataFrame) -> "AutoJoin":
        """This join over another right table (the whole table, when the program was learned
        on some of its rows): keys and counts are computed again on it, and so is an estimate
        from the chance rate (the rows learned on are those whose output is a key)."""
        self.right, self._keys = right, None
        if self.found:
            source_keys, target_keys = self._source_target_keys()
            self.target_keys, self.joined_rows, self.coverage = \
                _key_counts(source_keys, target_keys)
            self.fuzzy = without_equal(self.fuzzy, set(compared(target_keys)))
            if self.precision_basis == "chance":
                src, labels = self.source_frame, _labels(self.source_frame)
                inputs = list(zip(*(column_texts(src[labels[c]]) for c in self.program.columns
                                    if c in labels)))
                est = chance_precision(source_keys, {k for k in target_keys if k is not None},
                                       inputs or None)
                if est is not None:
                    self.estimated_precision = est
        return self

    # ------------------------------------------------------------ frames
    @property
    def source_frame(self):
        return self.left if self.source == "left" else self.right

    @property
    def target_frame(self):
        return self.right if self.source == "left" else self.left

    @property
    def source_name(self) -> str:
        return self.left_name if self.source == "left" else self.right_name

    @property
    def target_name(self) -> str:
        return self.right_name if self.source == "left" else self.left_name

    def _need_frames(self):
        if not self.found:
            raise QueryError(f"No transformation was found, so there is nothing to join. "
                             f"{self.message}")
        if self.left is None or self.right is None:
            raise QueryError("This Auto-Join was loaded without its tables; pass them: "
                             "AutoJoin.from_json(text, left=df, right=other).")

    def _source_target_keys(self):
        if self._keys is None:
            self._need_frames()
            src, tgt = self.source_frame, self.target_frame
            skeys = apply_frame(self.program, src, _labels(src))
            if self.target_program is not None:
                tkeys = apply_frame(self.target_program, tgt, _labels(tgt))
            else:
                col = _labels(tgt).get(self.target_column)
                if col is None:
                    raise QueryError(f"The target table has no column {self.target_column!r}.")
                tkeys = column_texts(tgt[col])
            self._keys = (skeys, tkeys)
        return self._keys

    def folded_keys(self) -> tuple[int, tuple | None]:
        """(joined keys the program derives from two or more distinct values of the source
        cells it reads, one such key with up to three of its values): rows of different
        values joined many-to-one ("194" and "1194" both onto "port-00194"), which a
        program fitting only the examples' values may do where a key should have one."""
        skeys, tkeys = map(compared, self._source_target_keys())
        keys = set(tkeys)
        keys.discard(None)
        src = self.source_frame
        labels = _labels(src)
        cells = [column_texts(src[labels[c]]) for c in self.program.columns if c in labels]
        values: dict = {}
        for row, k in zip(zip(*cells), skeys):
            if k is not None and k in keys:
                values.setdefault(k, set()).add(row)
        many = sorted((k for k, v in values.items() if len(v) > 1), key=str)
        if not many:
            return 0, None
        k = many[0]
        shown = sorted(", ".join(str(x) for x in row) for row in values[k])[:3]
        return len(many), (k, shown)

    def target_folded_keys(self) -> int:
        """Joined keys a target-side program (composite keys) derives from two or more
        distinct cells of the target columns it reads: with :meth:`folded_keys`, the join
        is then many-to-many on values."""
        if self.target_program is None:
            return 0
        skeys, tkeys = map(compared, self._source_target_keys())
        joined = set(skeys)
        tgt = self.target_frame
        labels = _labels(tgt)
        cells = [column_texts(tgt[labels[c]]) for c in self.target_program.columns
                 if c in labels]
        values: dict = {}
        for row, k in zip(zip(*cells), tkeys):
            if k is not None and k in joined:
                values.setdefault(k, set()).add(row)
        return sum(len(v) > 1 for v in values.values())

    def keys_text(self) -> str:
        """The distinct keys the join pairs, as a share of each table's, left (the query)
        first whichever table the program transforms: "10 of the 10 keys of pl, 10 of the
        5,158 of nba/players_lastfirst" (a table's keys: its key column's distinct values;
        of the table the program transforms, its distinct outputs and the distinct values
        it gives none for). Without the tables (loaded from JSON): the target's share."""
        if not self.found or self.left is None or self.right is None:
            return f"{self.coverage:,} of the {self.target_keys:,} keys of {self.target_name}"
        skeys = self._source_target_keys()[0]
        src, labels = self.source_frame, _labels(self.source_frame)
        cells = [column_texts(src[labels[c]]) for c in self.program.columns if c in labels]
        source = {k for k in skeys if k is not None} | {
            row for row, k in zip(zip(*cells), skeys)
            if k is None and any(v is not None for v in row)}
        left, right = ((len(source), self.target_keys) if self.source == "left"
                       else (self.target_keys, len(source)))
        return (f"{self.coverage:,} of the {left:,} keys of {self.left_name}, "
                f"{self.coverage:,} of the {right:,} of {self.right_name}")

    def folding_text(self) -> str:
        """How the keys counted as joined fold values, for "joins n/m keys": "" when each
        key comes from one value of each side, else the folded keys and the rows joined
        ("6 from several values of `took`, 181 rows: many-to-one")."""
        if not self.found or self.left is None or self.right is None:
            return ""
        n = self.folded_keys()[0]
        m = self.target_folded_keys()
        if not n and not m:
            return ""
        cols = ", ".join(f"`{c}`" for c in self.program.columns)
        kind = "many-to-many" if n and m else "many-to-one"
        what = (f"{n} from several values of {cols}" if n else
                f"{m} from several values of the {self.target_name} table's "
                + ", ".join(f"`{c}`" for c in self.target_program.columns))
        return f"{what}, {self.joined_rows:,} rows: {kind}"

    def keys(self, fuzzy: bool = True) -> tuple[list, list]:
        """(left keys, right keys): the values the two tables are equi-joined on, one per
        row (None: the row has no key), normalized as the join compares them
        (:func:`compared`). With ``fuzzy``, the derived keys the constrained fuzzy join
        matched are first replaced by the key they match."""
        self._need_frames()
        skeys, tkeys = self._source_target_keys()
        if fuzzy and self.fuzzy is not None and self.fuzzy.matches:
            m = self.fuzzy.matches
            skeys = [m.get(k, k) if k is not None else None for k in skeys]
        skeys, tkeys = compared(skeys), compared(tkeys)
        return (skeys, tkeys) if self.source == "left" else (tkeys, skeys)

    def pairs(self, fuzzy: bool = True) -> list:
        """The joined (left row position, right row position) pairs, in merge order."""
        lk, rk = self.keys(fuzzy)
        where: dict = {}
        for j, k in enumerate(rk):
            if k is not None:
                where.setdefault(k, []).append(j)
        return [(i, j) for i, k in enumerate(lk) if k is not None for j in where.get(k, ())]

    def plan(self, df=None, how: str | None = None, *, fuzzy: bool = True,
             duplicates: str = "all", aggregate=None, order_by: str | None = None):
        """The join plan: the learned program computes the source table's key, the target's
        is its cell text; with ``fuzzy``, the derived keys the constrained fuzzy join matched
        are rewritten to the key they match. ``how`` "inner" or "left" (default: ``self.how``,
        "inner" between two frames, "left" for a search hit's join with its lake table).
        ``duplicates`` ("first": one right row per key) and ``aggregate`` (a name of
        join/plan.py's AGGREGATES or an :class:`~..plan.Aggregate`: the right table reduced
        to one row per key first, ``order_by`` for "latest") shape the join as they shape a
        hit's equi-join (``Hit.plan``): one row per left row."""
        from ..plan import Key, make_plan
        if not self.found:
            raise QueryError(f"No transformation was found, so there is nothing to join and "
                             f"no code. {self.message}")
        left = df if df is not None else self.left
        right_cols = (list(self.lake.columns) if self.lake is not None else
                      list(self.right.columns) if self.right is not None else None)
        if left is None or right_cols is None:
            raise QueryError("This Auto-Join was loaded without its tables; pass them: "
                             "AutoJoin.from_json(text, left=df, right=other).")
        src_cols, tgt_cols = (list(left.columns), right_cols)
        if self.source != "left":
            src_cols, tgt_cols = tgt_cols, src_cols
        src_key = _program_key(self.program, src_cols)
        if self.target_program is not None:
            tgt_key = _program_key(self.target_program, tgt_cols)
        else:
            labels = {str(c): c for c in tgt_cols}
            if self.target_column not in labels:
                raise QueryError(f"The target table has no column {self.target_column!r}.")
            tgt_key = Key((labels[self.target_column],), "text", normalized=True)
        matches = ()
        if fuzzy and self.fuzzy is not None and self.fuzzy.matches:
            matches = tuple(sorted(self.fuzzy.matches.items()))
        q, o = (src_key, tgt_key) if self.source == "left" else (tgt_key, src_key)
        agg = self._aggregate(aggregate, order_by, o.columns, right_cols)
        label = self.lake.short_name if self.lake is not None else self.right_name
        return make_plan(list(left.columns), [q], right_cols, [o], other=self.lake,
                         other_label=label, how=how or self.how, matches=matches,
                         duplicates=duplicates, aggregate=agg,
                         matches_on="query" if self.source == "left" else "other",
                         suffix=None if self.lake is not None else "_right",
                         explode=self.explode if self.lake is not None else None,
                         description=f"Auto-Join: {self.program.describe()} "
                                     f"({self.source_name} rows) equals {self._target_text()} "
                                     f"of {self.target_name}")

    def _aggregate(self, aggregate, order_by, key_columns, right_cols):
        """The :class:`~..plan.Aggregate` of ``aggregate`` (None, a name or one): a lake
        table's by the engine's rule (:attr:`aggregates`), a right frame's from its dtypes."""
        from ..plan import AGGREGATES, Aggregate
        if aggregate is None or aggregate == "none":
            if order_by is not None:
                raise QueryError("order_by goes with aggregate='latest'.")
            return None
        if isinstance(aggregate, Aggregate):
            return aggregate
        if aggregate not in AGGREGATES:
            raise QueryError(f"aggregate must be one of {list(AGGREGATES)} (got {aggregate!r}).")
        if aggregate != "latest" and order_by is not None:
            raise QueryError("order_by goes with aggregate='latest'.")
        if self.aggregates is not None:
            return self.aggregates(aggregate, order_by, tuple(key_columns))
        frame = self.right if self.right is not None else None
        others = [c for c in right_cols if c not in key_columns]
        if aggregate == "latest":
            if order_by is None:
                times = [c for c in others if frame is not None
                         and pd.api.types.is_datetime64_any_dtype(frame[c])]
                if not times:
                    raise QueryError(f"{self.right_name} has no date column to take the latest "
                                     f"row by; name one (order_by=...) or aggregate with "
                                     f"'first', 'mean', 'sum' or 'count'.")
                order_by = times[0]
            return Aggregate("latest", order_by=order_by)
        if aggregate in ("mean", "sum"):
            numeric = tuple(c for c in others if frame is not None
                            and pd.api.types.is_numeric_dtype(frame[c])
                            and not pd.api.types.is_bool_dtype(frame[c]))
            return Aggregate(aggregate, columns=numeric)
        return Aggregate(aggregate)

    def _target_text(self) -> str:
        """The target key as the plan's code reads it: the target column, or the target
        program (a key part of a composite column, which may read another column)."""
        if self.target_program is not None:
            return self.target_program.describe()
        return repr(self.target_column)

    def _frame(self, df):
        if df is None:
            if self.left is None:
                raise QueryError("This Auto-Join was loaded without its tables; pass them: "
                                 "AutoJoin.from_json(text, left=df, right=other).")
            return self.left
        return df

    def _other_frame(self):
        return None if self.lake is not None else self.right

    def _spark_query(self) -> bool:
        return bool(self.spark_query)

    def join(self, df=None, how: str | None = None, *, fuzzy: bool = True,
             duplicates: str = "all", aggregate=None, order_by: str | None = None) -> pd.DataFrame:
        """The joined DataFrame: the left table's columns, then the right's (clashing names
        get a "_<table>" suffix for a lake table, as a hit's equi-join, else "_right"), one
        row per joined pair (``how="inner"``; "left" keeps every
        left row; the default is ``self.how``: "left" for a search hit's lake table).
        ``duplicates="first"`` or ``aggregate`` (latest, first, mean, sum, count) keep one
        row per left row, as a hit's equi-join does (:meth:`plan`)."""
        return super().join(df, how=how, fuzzy=fuzzy, duplicates=duplicates,
                            aggregate=aggregate, order_by=order_by)

    def code(self, name: str = "df", into: str = "joined", *, how: str | None = None,
             df=None, other: str = "other", spark: bool | None = None,
             fuzzy: bool = True, duplicates: str = "all", aggregate=None,
             order_by: str | None = None) -> str:
        """Python that reproduces :meth:`join`: ``name`` is the left DataFrame's variable,
        ``other`` the right one's unless it is a lake table (the code then reads it)."""
        return super().code(name, into, how=how, df=df, other=other, spark=spark, fuzzy=fuzzy,
                            duplicates=duplicates, aggregate=aggregate, order_by=order_by)

    # ------------------------------------------------------------ explanation
    def examples_frame(self) -> pd.DataFrame:
        """The example rows that taught the program: their input cells and target key."""
        rows = []
        for ex in self.examples:
            r = {f"{self.source_name}: {c}": v for c, v in ex["input"].items()}
            r[f"{self.target_name}: {self.target_column}"] = ex["output"]
            rows.append(r)
        return pd.DataFrame(rows)

    def folded_note(self) -> str:
        """A warning when joined keys are derived from several distinct source values
        (:meth:`folded_keys`), else ""."""
        n, example = self.folded_keys()
        m = self.target_folded_keys()
        if not n and not m:
            return ""
        tcols = ", ".join(f"`{c}`" for c in self.target_program.columns) if m else ""
        other = (f"{m} of them are also derived from several distinct values of {tcols} of "
                 f"the {self.target_name} table: the join is many-to-many; " if n and m else "")
        if not n:
            return (f"Warning: {m} of the {self.coverage} keys joined are derived from "
                    f"several distinct values of {tcols} of the {self.target_name} table: "
                    f"their rows are joined one-to-many; check that these values belong to "
                    f"one key.")
        key, values = example
        cols = ", ".join(f"`{c}`" for c in self.program.columns)
        return (f"Warning: {n} of the {self.coverage} keys joined are derived from several "
                f"distinct values of {cols} of the {self.source_name} table (e.g. "
                + ", ".join(repr(v) for v in values) + f" all give {key!r}): their rows are "
                f"joined many-to-one; {other}check that these values belong to one key.")

    def summary(self) -> dict:
        d = {"found": self.found, "source": self.source_name if self.found else None,
             "program": self.program.describe() if self.program else None,
             "target_column": self.target_column, "coverage": self.coverage,
             "target_keys": self.target_keys, "joined_rows": self.joined_rows,
             "estimated_precision": self.estimated_precision,
             "precision_basis": self.precision_basis, "partial": bool(self.stats.get("partial"))}
        if self.fuzzy is not None:
            d["fuzzy"] = self.fuzzy.describe()
        if self.found and self.left is not None and self.right is not None:
            d["folded_keys"] = self.folded_keys()[0]
            d["target_folded_keys"] = self.target_folded_keys()
        return d

    def pairs_found_over(self) -> str:
        """The column(s) whose rare shared substrings found the example row pairs, in words:
        one column by its name; several taken together (a group named by its columns joined
        with " & ", join/autojoin/pairs.py) one by one, with the columns the program reads."""
        columns = _joined_columns(self.source_column, self.source_frame)
        if len(columns) < 2:
            return repr(self.source_column)
        reads = ", ".join(f"`{c}`" for c in self.program.columns)
        return (f"the {self.source_name} table's columns {_and(list(map(repr, columns)))} taken "
                f"together; the program reads {reads}")

    def pairs_found_by(self) -> str:
        """How the example row pairs were found, in words: rare shared substrings, or for a
        partial program (deviation 68) whole keys inside the values where an example's
        output is whole words of its input ("3/3/24" in "3/3/24 10:18"), or both."""
        from .pairs import whole_word_keys
        if not self.stats.get("partial"):
            return "rare shared substrings"
        whole = [any(whole_word_keys(str(v).casefold(), {str(ex["output"]).casefold()})
                     for v in ex["input"].values()) for ex in self.examples]
        if all(whole):
            return "whole keys inside the values"
        return ("rare shared substrings and whole keys inside the values" if any(whole)
                else "rare shared substrings")

    def explain(self) -> str:
        if not self.found:
            return self.message
        n_source = len(self.source_frame) if self.source_frame is not None else 0
        lines = [f"Transformation from the {self.source_name} table:",
                 f"    {self.program.describe()}",
                 f"equals {self.target_column!r} of the {self.target_name} table"
                 + (f" after {self.target_program.describe()}" if self.target_program else "") + ".",
                 f"It joins {self.keys_text()} and {self.joined_rows} {self.source_name} row(s) "
                 f"by equality"
                 + (f" ({self.joined_rows / n_source:.0%} of its {n_source:,})"
                    if n_source else "") + "."]
        folded = self.folded_note()
        if folded:
            lines.append(folded)
        for note in ("from_hit", "identity", "partial"):
            if self.stats.get(note):
                lines.append(self.stats[note] + ".")
        part = self.stats.get("learned_on")
        if self.stats.get("from_hit"):
            part = None
        if part and part["rows"] < part["of"]:
            lines.append(f"Learned on the {part['rows']:,} of {part['of']:,} {self.right_name} "
                         f"rows that the search's program joins; counted on all of them.")
        elif part:
            lines.append(f"Learned on all {part['of']:,} {self.right_name} rows (it joins more "
                         f"than learning on the rows the search's program joins).")
        if self.estimated_precision is not None:
            lines.append(f"Estimated precision of these joins: {self.estimated_precision:.0%} "
                         f"({precision_note(self)}).")
        else:
            lines.append(NO_ESTIMATE + ".")
        if self.stats.get("sampling"):
            lines.append(f"(Learned on row samples: {self.stats['sampling']}.)")
        if self.fuzzy is not None:
            lines.append(f"A constrained fuzzy join ({self.fuzzy.describe()}) adds "
                         f"{len(self.fuzzy.matches)} match(es) that keep the join 1:1 / N:1.")
        if self.examples:
            lines.append(f"Learned from {len(self.examples)} example row pairs found through "
                         f"{self.pairs_found_by()} of {self.pairs_found_over()}:")
        for ex in self.examples:
            inp = ", ".join(f"{c}={v!r}" for c, v in ex["input"].items())
            lines.append(f"    {inp}  ->  {ex['output']!r}")
        if self.alternatives:
            lines.append("Other programs tried (keys joined): " + "; ".join(
                f"{d} ({c})" for d, c in self.alternatives[:3]))
        other = self.stats.get("directions", {}).get(
            "right" if self.source == "left" else "left", {}).get("accepted")
        if other:
            names = (self.right_name, self.left_name) if self.source == "left" \
                else (self.left_name, self.right_name)
            lines.append(f"The other direction also joins: {other['program']} (the {names[0]} "
                         f"table's rows) equals {other['target_column']!r} of the {names[1]} "
                         f"table for {other['coverage']} of {other['target_rows']} rows "
                         f"({other['joined_rows']} {names[0]} row(s)); directions compete "
                         f"on the fraction of their target's rows joined (on keys joined when both "
                         f"join 1:1)"
                         + ("; a tie goes to the search's program's direction"
                            if self.stats.get("prefer") else "") + ".")
            if self.stats.get("direction_rule"):
                lines.append(f"This direction won: {self.stats['direction_rule']}.")
        secs = self.stats.get("seconds", {}).get("total")
        if secs is not None:
            lines.append(f"Search time {secs:.2f} s.")
        return "\n".join(lines)

    def trust_text(self) -> str:
        """What the headline says of how far to trust the joins: "partial program" when no
        program met the acceptance rules (``explain()`` says why), and the estimated
        precision, "rough" when made from the learner's own row pairs."""
        notes = ["partial program"] if self.stats.get("partial") else []
        if self.estimated_precision is None:
            notes.append("no estimated precision")
        else:
            notes.append(f"estimated precision {self.estimated_precision:.0%}"
                         + (" (rough)" if self.precision_basis == "pairs" else ""))
        return ", ".join(notes)

    def __repr__(self):
        if not self.found:
            return f"<AutoJoin: not found. {self.message}>"
        folding = self.folding_text()
        return (f"<AutoJoin {self.source_name} -> {self.target_name}.{self.target_column}: "
                f"{self.program.describe()}; joins {self.keys_text()}"
                + (f" ({folding})" if folding else "") + f"; {self.trust_text()}>")

    def _repr_html_(self):
        if not self.found:
            return f"<div><b>Auto-Join</b>: {html.escape(self.message)}</div>"
        ex = self.examples_frame().to_html(index=False, escape=True)
        return (f"<div><b>Auto-Join</b> ({html.escape(self.source_name)} &rarr; "
                f"{html.escape(self.target_name)}.{html.escape(str(self.target_column))})<br>"
                f"<code>{html.escape(self.program.describe())}</code><br>"
                f"joins {html.escape(self.keys_text())}, {self.joined_rows} rows"
                + (f" ({html.escape(self.folding_text())})" if self.folding_text() else "")
                + (f"; fuzzy: {html.escape(self.fuzzy.describe())}" if self.fuzzy else "")
                + f"<br>{html.escape(self.trust_text())}"
                + f"<br>Example rows:{ex}</div>")

    # ------------------------------------------------------------ JSON
    def to_dict(self) -> dict:
        fz = None
        if self.fuzzy is not None:
            f = self.fuzzy
            fz = {"tokenizer": f.tokenizer, "distance": f.distance, "threshold": f.threshold,
                  "coverage": f.coverage, "exact_coverage": f.exact_coverage,
                  "matches": sorted([k, v] for k, v in f.matches.items())}
        return {"format": FORMAT, "version": FORMAT_VERSION, "found": self.found,
                "message": self.message, "left_name": self.left_name,
                "right_name": self.right_name, "source": self.source,
                "program": self.program.to_dict() if self.program else None,
                "target_program": self.target_program.to_dict() if self.target_program else None,
                "source_column": self.source_column, "target_column": self.target_column,
                "examples": self.examples, "coverage": self.coverage,
                "target_keys": self.target_keys, "joined_rows": self.joined_rows,
                "estimated_precision": self.estimated_precision,
                "precision_basis": self.precision_basis, "fuzzy": fz, "alternatives": [list(a) for a in self.alternatives],
                "how": self.how, "spark_query": bool(self.spark_query)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, default=_plain)

    @classmethod
    def from_json(cls, text: str, left=None, right=None) -> "AutoJoin":
        """Rebuild from :meth:`to_json`; pass the two DataFrames to join again."""
        try:
            d = json.loads(text)
        except (TypeError, json.JSONDecodeError) as e:
            raise ProgramFormatError(f"not valid JSON: {e}") from None
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise ProgramFormatError(f"not a serialized Auto-Join (format must be {FORMAT!r})")
        if d.get("version") != FORMAT_VERSION:
            raise ProgramFormatError(f"Auto-Join format version {d.get('version')!r} is not "
                                     f"supported (this version reads {FORMAT_VERSION})")
        if d.get("source") not in ("left", "right"):
            raise ProgramFormatError("field 'source' must be 'left' or 'right'")
        fz = d.get("fuzzy")
        fuzzy = None
        if fz:
            matches = {}
            for pair in fz.get("matches", []):
                if (not isinstance(pair, list) or len(pair) != 2
                        or not all(isinstance(x, str) for x in pair)):
                    raise ProgramFormatError("fuzzy matches must be [derived, key] string pairs")
                matches[pair[0]] = pair[1]
            fuzzy = ConstrainedFuzzyJoin(str(fz["tokenizer"]), str(fz["distance"]), float(fz["threshold"]),
                              int(fz["coverage"]), int(fz["exact_coverage"]), matches)
        prog = Program.from_dict(d["program"]) if d.get("program") else None
        tprog = Program.from_dict(d["target_program"]) if d.get("target_program") else None
        found = bool(d.get("found")) and prog is not None
        out = cls(found=found, message=str(d.get("message", "")), left=left, right=right,
                   left_name=str(d.get("left_name", "left")),
                   right_name=str(d.get("right_name", "right")), source=d["source"],
                   program=prog, target_program=tprog, source_column=d.get("source_column"),
                   target_column=d.get("target_column"), examples=d.get("examples") or [],
                   coverage=int(d.get("coverage", 0)), target_keys=int(d.get("target_keys", 0)),
                   joined_rows=int(d.get("joined_rows", 0)), fuzzy=fuzzy,
                   alternatives=[tuple(a) for a in d.get("alternatives") or []],
                   estimated_precision=_fraction(d.get("estimated_precision")),
                   precision_basis=(d.get("precision_basis")
                                    if d.get("precision_basis") in ("chance", "pairs") else None))
        if d.get("how") in ("left", "inner"):
            out.how = d["how"]
        if not isinstance(d.get("spark_query", False), bool):
            raise ProgramFormatError("field 'spark_query' must be true or false")
        out.spark_query = d.get("spark_query", False)
        return out


_LINE_BREAKS = {ord(c): f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"
                for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}


def _comment(text: str) -> str:
    """Text safe inside a one-line ``#`` comment: line breaks are written as escapes."""
    return str(text).translate(_LINE_BREAKS)


def _fraction(v):
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1:
        raise ProgramFormatError("field 'estimated_precision' must be a number in [0, 1] or null")
    return float(v)


def _plain(o):
    if hasattr(o, "item"):
        return o.item()
    if isinstance(o, (set, frozenset, tuple)):
        return list(o)
    return str(o)
