"""Union search results: a lake table whose rows stack under the user's frame.

:class:`UnionHit` holds the table, its column alignment (query column -> lake column, with
each pair's unionability and evidence) and its row count; ``union(df)`` runs its
:class:`~.plan.UnionPlan` (join/execute.py) and ``code(name, into)`` writes it
(join/codegen.py), so the code reproduces the frame ``union`` returns.
"""
from __future__ import annotations

import html
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from ..errors import LakeJoinWarning, QueryError
from ..formats import clip_all
from ..frames import check_identifier, is_spark_frame
from ..index.tables import LakeTable, check_table_present, find_table
from .codegen import union_code
from .execute import execute_union
from .plan import UnionPlan, make_union_plan


SHARED_COLUMNS = ("shared values", "query values", "lake values")
KIND_WORDS = {"numeric": "numbers", "integer": "integers", "datetime": "date-times"}
PAIRS_SHOWN = 3         # pairs of an alignment a text repr prints before "and N more"


def union_gaps(plan: UnionPlan, report: dict) -> dict:
    """The query columns that are empty in the rows a pandas union added, and why, from the
    ``report`` of :func:`~.execute.union_pandas`: "empty_aligned" (aligned, yet no value:
    the lake column is empty or none of its values converts to the query column's type),
    "lossy" (aligned, some values lost in the conversion), "unaligned" (no lake column: null
    by design), "rows" and one (level, sentence) per case ("messages"): a "warning" for an
    empty aligned column, and for the unaligned ones when at least half of the query's
    columns are empty in the added rows; a "note" otherwise."""
    rows, values = report.get("rows", 0), report.get("values", {})
    kinds = dict(zip([a for a, _ in plan.alignment], plan.kinds))
    lake = dict(plan.alignment)
    table = plan.other.name
    empty, lossy, msgs = [], [], []
    for a, (raw, kept) in values.items():
        if not rows or kept == raw:
            if rows and raw == 0:
                empty.append(a)
                msgs.append(("warning", f"`{a}` <- `{lake[a]}` is empty in all {rows:,} "
                                        f"added rows: `{lake[a]}` of {table} has no value."))
            continue
        what = KIND_WORDS.get(kinds.get(a), "the query column's type")
        if kept == 0:
            empty.append(a)
            msgs.append(("warning", f"`{a}` <- `{lake[a]}` is empty in all {rows:,} added "
                                    f"rows: none of its {raw:,} values converts to {what} "
                                    f"(the type of the query's `{a}`)."))
        else:
            lossy.append(a)
            msgs.append(("note", f"`{a}` <- `{lake[a]}`: {raw - kept:,} of its {raw:,} "
                                 f"values do not convert to {what} and are empty."))
    unaligned = [c for c in plan.query_columns if c not in lake]
    if unaligned and rows:
        names = ", ".join(f"`{c}`" for c in unaligned)
        most = 2 * (len(unaligned) + len(empty)) >= len(plan.query_columns)
        msgs.append(("warning" if most else "note",
                     f"{names} {'has' if len(unaligned) == 1 else 'have'} no aligned column "
                     f"in {table}: empty in all {rows:,} added rows."))
    return {"rows": rows, "empty_aligned": empty, "lossy": lossy, "unaligned": unaligned,
            "messages": msgs}


@dataclass
class UnionHit:
    """One unionable lake table (see the module docstring)."""
    rank: int
    table: str
    table_id: int
    score: float                  # matched column scores / number of query columns x
    #                               the alignment's information (search/union.py)
    alignment: tuple              # ((query column, lake column, column score), ...)
    rows: int                     # the table's rows (union() counts the new ones)
    evidence: dict = field(default_factory=dict)   # query column -> {measure: likelihood}
    shared: dict = field(default_factory=dict)     # query column -> (shared, query's, lake's distinct)
    named: tuple = ()             # query columns aligned by their name (not in the score)
    is_query_table: bool = False  # the table the query's rows come from (listed last)
    by_kind: bool = False         # no scored pair shares values beyond chance or its name: after
    #                               those that do (search/union.py, by_kind)
    _index: object = field(default=None, repr=False, compare=False)
    _frame: object = field(default=None, repr=False, compare=False)

    @property
    def lake(self) -> LakeTable:
        """Where the table lives and how to read it (the index catalog)."""
        return find_table(self._index, self.table_id)

    @property
    def mapping(self) -> dict:
        """Query column -> lake column."""
        return {a: b for a, b, _ in self.alignment}

    @property
    def column_scores(self) -> dict:
        return {a: s for a, _, s in self.alignment}

    def _df(self, df):
        df = self._frame if df is None else df
        if df is None:
            raise QueryError("Pass the DataFrame to union: hit.union(df).")
        return df

    def plan(self, df=None, *, distinct: bool = True) -> UnionPlan:
        df = self._df(df)
        return make_union_plan(df, [(a, b) for a, b, _ in self.alignment], self.lake,
                               description=f"table union search, score {self.score:.3f}",
                               distinct=distinct)

    def union(self, df=None, *, distinct: bool = True, report: dict | None = None):
        """``df`` with this table's aligned rows stacked under it (pandas, or lazy Spark);
        ``distinct`` (default): only the new rows, a row already in ``df`` (equal on the
        aligned columns once converted, each value after lakejoin's normalization as the
        search and the join compare it, ``join.keys.union_keys``: the other query columns
        are null in every added row) or repeated in the table added once at most, with its
        own text; ``distinct=False``:
        every row of the table. pandas: an aligned column left with no value in the added rows (the lake column is
        empty, or none of its values converts to the query column's type), or losing some
        in the conversion, is named in a :class:`~lakejoin_jupyter.errors.LakeJoinWarning`,
        and so are the query columns without an aligned column when, with the empty ones,
        they are half the query's; ``report`` (a dict) gets what :func:`union_gaps` reads."""
        df = self._df(df)
        plan = self.plan(df, distinct=distinct)
        report = {} if report is None else report
        out = execute_union(plan, df, report)
        gaps = union_gaps(plan, report)
        n = len(gaps["empty_aligned"]) + len(gaps["lossy"])
        said = [m for _, m in gaps["messages"][:n]] + \
            [m for level, m in gaps["messages"][n:] if level == "warning"]
        if self.by_kind:
            said.insert(0, f"{self.table} is aligned by its columns' kind alone: no aligned "
                           f"column shares values beyond chance or a name with the query's "
                           f"(hit.alignment_frame()); its rows may be of another domain.")
        if said:
            warnings.warn(" ".join(said), LakeJoinWarning, stacklevel=2)
        return out

    def code(self, name: str = "df", into: str = "unioned", *, df=None,
             spark: bool | None = None, distinct: bool = True) -> str:
        """Python source that, run where only ``name`` is bound to the user's frame, binds
        ``into`` to the frame :meth:`union` returns with the same ``distinct`` (PySpark for
        a Spark frame)."""
        check_identifier(name, "variable name (name=)")
        check_identifier(into, "variable name (into=)")
        df = self._df(df)
        if spark is None:
            spark = is_spark_frame(df)
        plan = self.plan(df, distinct=distinct)
        check_table_present(plan.other)     # code reading a deleted file: refused, as union()
        return union_code(plan, name=name, into=into, spark=spark)

    def alignment_frame(self, query_columns=None) -> pd.DataFrame:
        """One row per query column (default: the aligned ones): the lake column aligned
        with it (None: the table lacks it, so it is empty in the added rows), the pair's
        score, the distinct values they share, the query column's and the lake column's
        distinct values, and the likelihood of each evidence (NaN: the measure does not
        apply). *set* is 0 when the sharing is what chance gives for those sizes: a lake
        column much larger than the query's holds most of its values anyway. *by name*:
        aligned by the name rule (same name and kind, values not against it; search/union.py),
        its score under the threshold and not counted in the table's."""
        from ..search.union import EVIDENCE
        cols = list(self.mapping) if query_columns is None else list(query_columns)
        scores, mapping = self.column_scores, self.mapping
        rows = []
        for q in cols:
            shared, nq, nl = self.shared.get(q, (None, None, None))
            rows.append({"query column": q, "lake column": mapping.get(q), "score": scores.get(q),
                         "shared values": shared, "query values": nq, "lake values": nl,
                         **{e: self.evidence.get(q, {}).get(e) for e in EVIDENCE},
                         "by name": q in self.named})
        return pd.DataFrame(rows, columns=["query column", "lake column", "score", *SHARED_COLUMNS,
                                           *EVIDENCE, "by name"])

    def _pair_text(self, a, b, s, arrow="<-") -> str:
        return f"{a} {arrow} {b} ({s:.2f}{', by name' if a in self.named else ''})"

    def alignment_text(self, shown: int = PAIRS_SHOWN) -> str:
        """The first ``shown`` pairs of the alignment, then how many more (a text repr's
        line: a wide table aligns hundreds of columns; alignment_frame lists them)."""
        pairs = [self._pair_text(a, b, s) for a, b, s in self.alignment]
        more = len(pairs) - shown
        return ", ".join(pairs[:shown]) + \
            (f" and {more} more (hit.alignment_frame())" if more > 0 else "")

    @property
    def label(self) -> str:
        """The table's name, marked "(your table)" when the query's rows come from it."""
        return self.table + (" (your table)" if self.is_query_table else "")

    def to_dict(self) -> dict:
        return {"rank": self.rank, "table": self.table, "score": round(self.score, 4),
                "aligned": len(self.alignment), "rows": self.rows,
                "alignment": ", ".join(self._pair_text(a, b, s) for a, b, s in self.alignment),
                "is_query_table": self.is_query_table, "table_id": self.table_id}


class UnionResult(Sequence):
    """Ranked union hits of one query frame."""

    def __init__(self, hits, columns, seconds: float, stats: dict | None = None,
                 notes=()):
        self.hits = list(hits)
        self.notes = list(notes)         # what the ranking cannot say (several own tables)
        self.columns = tuple(columns)
        self.seconds = seconds
        self.stats = stats or {}
        self.query_name: str | None = None
        # how it was asked (engine.search_unionable), so a front end can tell its own
        self.k: int | None = None
        self.include_own = True
        self.options: dict = {}          # weights, min_column... given, not the defaults
        self.frame = None                # the query frame
        self.left_out: str | None = None  # the lake table named as the query, left out
        self.own_left_out: list = []     # the table of the query's rows: left out
                                         # (include_own=False), or passed over for k others

    def also_matching(self, widget: bool = False) -> str:
        """The line under the hits naming the table of the query's rows when it ranked among
        them but took no place of the k (``own_left_out``), or '' (none, or left out as
        asked). ``widget``: without the API's and magics' option."""
        if not self.own_left_out or not self.include_own or not self.hits:
            return ""
        one = len(self.own_left_out) == 1
        how = "" if widget else \
            f"; include_own=False (--no-own) leaves {'it' if one else 'them'} out"
        names = ", ".join(f"{t} (your table)" for t in self.own_left_out)
        return (f"Also matching: {names}, not counted: listed only when fewer than {self.k} "
                f"other tables qualify{how}.")

    def __getitem__(self, i):
        return self.hits[i]

    def __len__(self):
        return len(self.hits)

    @property
    def empty_message(self) -> str:
        """What an empty result means (front ends show it in place of the hits)."""
        if self.left_out:
            return (f"No other lake table aligns with the query's columns: the query is the "
                    f"lake table {self.left_out}, left out of its own results.")
        if self.own_left_out:            # (passed over: only beside hits)
            return (f"No other lake table aligns with the query's columns: the table its rows "
                    f"come from, {', '.join(self.own_left_out)}, is left out as asked "
                    f"(include_own=False, --no-own).")
        return "No lake table aligns with the query's columns."

    def to_pandas(self) -> pd.DataFrame:
        return pd.DataFrame([h.to_dict() for h in self.hits],
                            columns=["rank", "table", "score", "aligned", "rows", "alignment",
                                     "is_query_table", "table_id"])

    def __repr__(self):
        head = (f"{len(self.hits)} unionable table(s) for {len(self.columns)} column(s) "
                f"({self.seconds * 1000:.1f} ms)")
        notes = "".join(f"\nnote: {n}" for n in self.notes)
        also = self.also_matching()
        notes = (f"\n{also}" if also else "") + notes
        if not self.hits:                # what was left out, as the HTML and join search say
            return head + "\n" + self.empty_message + notes
        df = self.to_pandas().drop(columns=["table_id", "is_query_table"])
        df["table"] = [t + (" (your table)" if h.is_query_table else "")   # cut as search's
                       for t, h in zip(clip_all([h.table for h in self.hits]), self.hits)]
        df["alignment"] = [h.alignment_text() for h in self.hits]
        # the table's rows, not what a union adds (hit.union counts those)
        return (head + "\n" + df.rename(columns={"rows": "table rows"}).to_string(index=False)
                + notes)

    def _repr_html_(self):
        cap = (f"<b>{len(self.hits)}</b> unionable table(s) for "
               f"<code>{html.escape(', '.join(map(str, self.columns)))}</code> &middot; "
               f"{self.seconds * 1000:.1f} ms")
        cap += "".join(f"<div style='color:#a60'>note: {html.escape(n)}</div>"
                       for n in self.notes)
        if not self.hits:
            return f"<div>{cap}</div><div><i>{html.escape(self.empty_message)}</i></div>"
        rows = "".join(
            f"<tr><td>{h.rank}</td><td>{html.escape(h.label)}</td><td>{h.score:.3f}</td>"
            f"<td>{len(h.alignment)}/{len(self.columns)}</td><td>{h.rows:,}</td>"
            f"<td>{html.escape(', '.join(h._pair_text(a, b, s, '←') for a, b, s in h.alignment))}</td></tr>"
            for h in self.hits)
        also = self.also_matching()
        also = f"<div style='color:#777'>{html.escape(also)}</div>" if also else ""
        return (f"<div>{cap}</div><table><thead><tr><th>#</th><th>table</th><th>score</th>"
                f"<th>aligned</th><th>table rows</th><th>alignment</th></tr></thead>"
                f"<tbody>{rows}</tbody></table>{also}")
