"""What the notebook front ends share: the open index and the notebook's names.

``%lakejoin open`` and the widget's Open/Build set :data:`SESSION.engine`. A join names the
saved search it comes from (``%lakejoin join N --from VAR``). The session also remembers what
lakejoin bound, by cell key (``search:VAR``, ``join:VAR``...): a saved search, a widget's
binding, or an action cell the widget (or a magic's ``--insert``) wrote (marked by
:func:`mark_cell`), so a widget re-created by "Run all", or a magic run again, takes back
its own variables and cells, and a name the user bound is never reused. A saved search is a
widget's only while VAR holds the very object a widget bound (or its own cell bound: a cell
the frontend runs says which widget cell it is, ``metadata.lakejoin.cell``); a ``%lakejoin
search ... --save VAR`` the user wrote is the user's, also over a name a widget bound first.
An action joins the frame its code names, the variable's current value; when that is not
the frame searched (:class:`Searched`: identity, or shape and a hash of the key columns),
its summary (and the widget's hit card, over its figures) says so, and a frame without the
hit's query column is refused. The session notes the cells that change a frame variable
(rebind it or change its shape: :func:`frame_marks` before and after each cell, by the cell's
id and execution count; or, for a frame a search used, change its key columns' values in
place: their hash after each cell, :meth:`Session.edited_in_place`; another column changed
in place, or a frame over KEY_HASH_ROWS rows, is not seen); an action's cell goes after the
lowest of them in the notebook when that is below the widget (the widget's frontend knows
the order), so that "Run all" reads the frame the action joined, whichever cell ran last.
"""
from __future__ import annotations

import hashlib
import keyword
import re
from dataclasses import dataclass, field

import pandas as pd

from ..errors import LakeJoinError, QueryError
from ..frames import is_dataframe

NO_INDEX = ("No index is open. Open one with `%lakejoin open PATH` (or build one with "
            "`%lakejoin index LAKE --out PATH`; `%lakejoin index --demo --out demo.index` "
            "builds the packaged demo lake).")


class NoIndexOpenError(LakeJoinError):
    """A search or join was asked for before any index was opened."""


_MARKER = re.compile(r"^# lakejoin cell ([a-z_]+):([A-Za-z_][A-Za-z0-9_]*)\b"
                     r"(?: \[of (.*)\])?", re.M)


def mark_cell(code: str, key: str, of: str | None = None,
              by: str = "the lakejoin widget, which updates this cell") -> str:
    """``code`` with the line that makes it the widget's cell ``key`` (``action:VAR``),
    after its leading comments; ``of``: what it joins (:func:`join_identity`), so a
    re-run of this join, and no other, takes the cell back; ``by``: who wrote it."""
    lines = code.splitlines()
    at = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    of = f" [of {' '.join(str(of).split())}]" if of else ""
    mark = f"# lakejoin cell {key}{of} (written by {by})"
    return "\n".join(lines[:at] + [mark] + lines[at:]) + ("\n" if code.endswith("\n") else "")


@dataclass
class Session:
    engine: object = None            # lakejoin_jupyter.Engine
    written: dict = field(default_factory=dict, repr=False)  # cell key -> what lakejoin bound
    shells: list = field(default_factory=list, repr=False)   # the shells watched
    serial: int = 0                                           # notes made so far
    noted_at: dict = field(default_factory=dict, repr=False)  # cell key -> serial of its note
    made_of: dict = field(default_factory=dict, repr=False)   # cell key -> the join it holds
    by_widget: dict = field(default_factory=dict, repr=False)  # cell key -> what a widget
    #                      bound for it, took as its own, or what the widget's cell bound
    unknown_cell: set = field(default_factory=set, repr=False)  # keys last noted by a cell
    #                      whose frontend sent no metadata (not known to be a widget's)
    cell_tag: str | None = None      # the running cell's ``metadata.lakejoin.cell`` ("" none,
    #                                  None: the frontend sent no metadata)
    frame_changes: dict = field(default_factory=dict, repr=False)  # variable -> the cells
    #                      that rebound it or changed its shape: [{"id", "count"}], oldest first
    _running: tuple | None = field(default=None, repr=False)  # (cell id, frame marks before)
    key_marks: dict = field(default_factory=dict, repr=False)  # (variable, key columns) a
    #                      search used -> frame_fingerprint of those columns after the last cell

    def require_engine(self):
        if self.engine is None:
            raise NoIndexOpenError(NO_INDEX)
        return self.engine

    def note(self, key: str, value, of: str | None = None, widget: bool = False) -> None:
        """lakejoin bound ``value`` for the cell ``key`` (``kind:VAR``); ``of``: the join
        it is (:func:`join_identity`); ``widget``: a widget bound it (or took the cell that
        did as its own, or the running cell is the widget's cell ``key``), so widgets may
        rebind it while it holds ``value``."""
        if widget or self.cell_tag == key:
            self.by_widget[key] = value
        if widget or self.cell_tag is not None:
            self.unknown_cell.discard(key)
        else:
            self.unknown_cell.add(key)
        self.written[key] = value
        self.serial += 1
        self.noted_at[key] = self.serial
        if of:
            self.made_of[key] = of
        else:
            self.made_of.pop(key, None)

    def widgets(self, key: str, value) -> bool:
        """Is ``value`` what a widget bound for ``key``, took as its own, or its cell
        ``key`` bound (identity: a user's ``--save`` of that name later is not)?"""
        return key in self.by_widget and self.by_widget[key] is value

    def holds_other(self, key: str, of: str | None) -> bool:
        """Does the cell ``key`` hold another join than ``of`` (unknown: no)?"""
        return bool(of) and key in self.made_of and self.made_of[key] != of

    def owns(self, key: str, value) -> bool:
        """Is ``value`` what lakejoin last bound for ``key`` (not a user's rebinding)?"""
        return key in self.written and self.written[key] is value

    def action_variable(self, namespace: dict, query_name: str, hit, kind: str,
                        suffix: str = "") -> str:
        """The stable variable of the action ``kind`` on ``hit`` (the widget's and the
        magic's rule), ``<query>_<table>[_<suffix>]``: taken back when lakejoin bound it
        for this very join (a re-run, or an edited one, rebinds it); when it holds the
        action on another column of the table, ``<query>_<table>_<lake column>[_<suffix>]``
        (a second join never replaces the first); a name the user bound is never taken."""
        from ..join.plan import default_variable
        of = join_identity(query_name, hit)

        def mine(n):
            key = f"{kind}:{n}"
            return self.owns(key, namespace.get(n)) and not self.holds_other(key, of)
        wanted = default_variable(query_name, hit.table, suffix)
        column = "_".join(map(str, getattr(hit, "columns", ()) or ()))
        by_column = default_variable(query_name, hit.table, suffix, column=column)
        if by_column in namespace and mine(by_column):
            return by_column
        if (wanted in namespace and not mine(wanted)
                and self.owns(f"{kind}:{wanted}", namespace.get(wanted))):
            wanted = by_column
        return unique_name(namespace, wanted, mine=mine)

    def noted_since(self, key: str, serial: int) -> bool:
        """Was ``key`` bound after the moment ``serial`` (a cell run since then)?"""
        return self.noted_at.get(key, 0) > serial

    def note_cell(self, source: str, namespace: dict) -> str | None:
        """After a cell ran: if it is a cell the widget wrote (:func:`mark_cell`), note
        the variable it bound. Returns its key, or None."""
        m = _MARKER.search(source)
        if m is None or m.group(2) not in namespace:
            return None
        key = f"{m.group(1)}:{m.group(2)}"
        self.note(key, namespace[m.group(2)], m.group(3))
        return key

    def watch(self, shell) -> None:
        """Note the widget's cells as the shell runs them (once per shell)."""
        if shell is None or any(s is shell for s in self.shells):
            return
        self.shells.append(shell)

        def pre_run_cell(info):
            meta = getattr(info, "cell_meta", None)     # JupyterLab 4, Notebook 7: the
            tag = meta.get("lakejoin") if isinstance(meta, dict) else None  # cell's own
            self.cell_tag = (None if not isinstance(meta, dict) else
                             str(tag.get("cell") or "") if isinstance(tag, dict) else "")
            self._running = (getattr(info, "cell_id", None), frame_marks(shell.user_ns))
        shell.events.register("pre_run_cell", pre_run_cell)

        def post_run_cell(result, shell=shell):
            if result.success and result.info is not None:
                self.note_cell(result.info.raw_cell or "", shell.user_ns)
            if self._running is not None:
                self.note_frame_changes(self._running[0], result.execution_count,
                                        self._running[1], frame_marks(shell.user_ns),
                                        self.edited_in_place(shell.user_ns))
            self.cell_tag = None
            self._running = None
        shell.events.register("post_run_cell", post_run_cell)

    def note_frame_changes(self, cell_id, count, before: dict, after: dict,
                           edited=()) -> None:
        """A cell (its frontend id, None if not sent, and execution count) ran: note it as
        a change of each frame variable it bound, rebound, deleted or reshaped (the marks
        of :func:`frame_marks` before and after it), or whose searched key columns it
        changed in place (``edited``: :meth:`edited_in_place`)."""
        if not cell_id and not isinstance(count, int):
            return
        cell = {"id": str(cell_id) if cell_id else None,
                "count": count if isinstance(count, int) else None}
        for name in set(before) | set(after) | set(edited):
            if before.get(name) != after.get(name) or name in edited:
                cells = [c for c in self.frame_changes.get(name, [])
                         if not (cell["id"] and c["id"] == cell["id"])]
                self.frame_changes[name] = (cells + [cell])[-50:]

    def note_searched(self, searched: "Searched") -> None:
        """A front end searched the frame ``searched.name`` on ``searched.columns``: from
        now on a cell that changes those columns' values in place (the same frame and
        shape: ``df.loc[0, "k"] = "x"``) is a change of it too (:meth:`edited_in_place`).
        The last KEY_MARKS searches' columns are watched; a Spark frame is not (hashing it
        would run a job), nor a frame of more than KEY_HASH_ROWS rows (hashing its keys
        after every cell would slow every cell)."""
        if searched.fingerprint is None or searched.fingerprint[0][0] > KEY_HASH_ROWS:
            return
        key = (searched.name, tuple(searched.columns))
        self.key_marks.pop(key, None)
        self.key_marks[key] = searched.fingerprint
        for old in list(self.key_marks)[:-KEY_MARKS]:
            del self.key_marks[old]

    def edited_in_place(self, namespace: dict) -> set:
        """After a cell ran: the watched variables (:meth:`note_searched`) whose key
        columns' fingerprint (:func:`frame_fingerprint`: shape and a hash of their values)
        changed while they held a pandas frame before and after; each fingerprint is then
        kept as it is now. A rebound or reshaped frame is in :func:`frame_marks` too."""
        edited = set()
        for (name, columns), mark in list(self.key_marks.items()):
            frame = namespace.get(name)
            now = (frame_fingerprint(frame, columns) if isinstance(frame, pd.DataFrame)
                   and len(frame) <= KEY_HASH_ROWS else None)
            if now != mark:
                self.key_marks[(name, columns)] = now
                if now is not None and mark is not None:
                    edited.add(name)
        return edited

    def changes_of(self, name: str) -> list:
        """The cells that changed the frame variable ``name`` (:meth:`note_frame_changes`)."""
        return [dict(c) for c in self.frame_changes.get(name, [])]


SESSION = Session()
KEY_MARKS = 8          # searched (frame, key columns) whose values each cell run compares
KEY_HASH_ROWS = 200_000   # a searched frame larger than this is not hashed after each cell


def dataframes_in(namespace: dict) -> list[str]:
    """Names of the pandas and Spark DataFrames of a namespace (no private names)."""
    return sorted(n for n, v in list(namespace.items())
                  if not n.startswith("_") and is_dataframe(v))


def frame_columns(frame) -> list:
    return list(frame.columns)


def join_identity(query_name: str, hit) -> str:
    """What makes two runs of an action the same join: the query frame and its columns, the
    lake table and its columns (one line: it goes into the cell's mark); a hit without key
    columns (a union's): the frame and the table."""
    q = ",".join(map(str, getattr(hit, "query_columns", ()) or ()))
    lake = ",".join(map(str, getattr(hit, "columns", ()) or ()))
    left = f"{query_name}.{q}" if q else str(query_name)
    right = f"{hit.table}.{lake}" if lake else str(hit.table)
    return " ".join(f"{left} -> {right}".split())


def frame_fingerprint(frame, columns) -> tuple | None:
    """(shape, hash of the values of ``columns`` in row order) of a pandas frame (a hash of
    None when a column is missing or unhashable); None for a Spark frame (counting it would
    run a job: its identity alone tells)."""
    if not isinstance(frame, pd.DataFrame):
        return None
    try:
        hashed = pd.util.hash_pandas_object(frame[list(columns)], index=False).to_numpy()
    except (KeyError, TypeError, ValueError):
        return (frame.shape, None)
    return (frame.shape, hashlib.blake2b(hashed.tobytes(), digest_size=16).hexdigest())


def frame_mark(frame) -> tuple:
    """(identity, shape) of a frame (shape None for a Spark frame: counting runs a job)."""
    return (id(frame), frame.shape if isinstance(frame, pd.DataFrame) else None)


def frame_marks(namespace: dict) -> dict:
    """name -> :func:`frame_mark` of every DataFrame variable of ``namespace``: the frames
    as the cell running now sees them."""
    return {name: frame_mark(v) for name, v in list(namespace.items())
            if not name.startswith("_") and is_dataframe(v)}


@dataclass(frozen=True)
class Searched:
    """The frame a front end searched with: its variable, the object and the fingerprint
    (:func:`frame_fingerprint`) of its key columns at the search."""
    name: str
    frame: object = field(repr=False, compare=False)
    columns: tuple = ()
    fingerprint: tuple | None = None

    @classmethod
    def of(cls, name: str, frame, columns) -> "Searched":
        columns = tuple(columns)
        return cls(name, frame, columns, frame_fingerprint(frame, columns))

    def current(self, namespace: dict, key_columns) -> tuple:
        """(the frame an action on a hit of this search joins, a note or ""): the
        variable's current value (:meth:`frame_now`), which the action's code names. The
        note says when it is not the frame searched."""
        frame = self.frame_now(namespace, key_columns)
        changed = self.changed(frame)
        return frame, (f"{changed}: joined the current frame; the hit's figures describe "
                       f"the searched one; search again to refresh them." if changed else "")

    def frame_now(self, namespace: dict, key_columns):
        """The variable's current value; a QueryError when it holds no DataFrame, or one
        without the hit's query column(s) ``key_columns``."""
        from ..frames import is_dataframe
        name, frame = self.name, namespace.get(self.name)
        if not is_dataframe(frame):
            raise QueryError(f"`{name}`, the DataFrame these hits were searched with, is "
                             f"{'gone' if name not in namespace else 'no longer a DataFrame'}"
                             f": the join's code names it. Search again.")
        missing = [str(c) for c in key_columns if c not in list(frame.columns)]
        if missing:
            raise QueryError(f"`{name}` changed since the search: it has no column "
                             f"{', '.join(map(repr, missing))}, the hit's query column, so "
                             f"nothing is joined. Search again (its columns: "
                             f"{', '.join(map(str, list(frame.columns)[:20]))}).")
        return frame

    def changed(self, frame) -> str:
        """"`name` changed since the search (7 -> 3 rows)" when ``frame`` is not the frame
        searched, else ""."""
        now = frame_fingerprint(frame, self.columns)
        if now == self.fingerprint and (frame is self.frame or now is not None):
            return ""
        return f"`{self.name}` changed since the search{self._how(frame, now)}"

    def _how(self, frame, now) -> str:
        """" (7 -> 3 rows)", or what else differs ("" for a Spark frame)."""
        if now is None or self.fingerprint is None:
            return ""
        (rows, cols), ((rows_now, cols_now), _) = self.fingerprint[0], now
        if rows != rows_now:
            return f" ({rows:,} -> {rows_now:,} rows)"
        if cols != cols_now:
            return f" ({rows:,} rows; {cols} -> {cols_now} columns)"
        return (f" (the same {rows:,} rows, other values of "
                f"{', '.join(f'`{c}`' for c in self.columns)})")


def unique_name(namespace: dict, wanted: str, overwrite: bool = False, mine=None) -> str:
    """``wanted`` if it is free in the namespace (or ``overwrite``, or ``mine(name)``: the
    caller's own), else wanted_2, _3..."""
    if not wanted.isidentifier() or keyword.iskeyword(wanted):
        raise QueryError(f"{wanted!r} is not a valid Python variable name.")

    def free(name):
        return name not in namespace or (mine is not None and mine(name))
    if overwrite or free(wanted):
        return wanted
    n = 2
    while not free(f"{wanted}_{n}"):
        n += 1
    return f"{wanted}_{n}"
