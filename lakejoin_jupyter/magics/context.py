"""What a ``%lakejoin`` subcommand is and what it gets: its parser, the notebook namespace,
the open index (shared with the widget), and a one-line error type."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Callable

from ..errors import LakeJoinError, a_kind
from ..frames import check_identifier, is_dataframe
from ..ui.session import Session, mark_cell


@dataclass
class Subcommand:
    """One ``%lakejoin NAME ...`` request."""
    name: str
    help: str                                                   # one line, for --help
    configure: Callable[[argparse.ArgumentParser], None]        # adds the arguments
    run: Callable[["MagicContext", argparse.Namespace], object]  # returns what to display
    description: str = ""


class MagicError(LakeJoinError):
    """Shown as one line ("lakejoin: ..."), without a traceback (IPython honours
    ``_render_traceback_``); "lakejoin:" in red unless the shell's colours are off
    (``--colors=NoColor``, ``%colors nocolor``)."""

    def _render_traceback_(self):
        if _shell_colours():
            return [f"\x1b[31mlakejoin:\x1b[0m {self}"]
        return [f"lakejoin: {self}"]


def _shell_colours() -> bool:
    """Whether the running IPython shell colours its errors (True outside one)."""
    try:
        from IPython import get_ipython
        shell = get_ipython()
    except Exception:  # noqa: BLE001 - no IPython: the default
        return True
    return shell is None or str(getattr(shell, "colors", "")).lower() != "nocolor"


class MagicContext:
    """What a subcommand's ``run`` gets: the shell, its namespace and the session."""

    def __init__(self, shell, session: Session):
        self.shell = shell
        self.session = session

    @property
    def user_ns(self) -> dict:
        return self.shell.user_ns if self.shell is not None else {}

    @property
    def engine(self):
        return self.session.require_engine()

    def variable(self, name: str):
        if name not in self.user_ns:
            raise MagicError(f"No variable {name!r} in the notebook.")
        return self.user_ns[name]

    def query(self, text: str, columns=None):
        """(query object, display name, columns) for ``VAR.COLUMN``, ``VAR -c COL`` or a
        lake table name with ``-c COL``."""
        columns = list(columns or [])
        head, dot, rest = text.partition(".")
        if text in self.user_ns:
            name, obj = text, self.user_ns[text]
        elif dot and head in self.user_ns and is_dataframe(self.user_ns[head]):
            name, obj = head, self.user_ns[head]
            columns = [rest] + columns
        else:
            if not columns:
                raise MagicError(
                    f"{text!r} is neither a DataFrame of the notebook (VAR.COLUMN, or VAR "
                    f"--column COL) nor, without --column, a lake table query (TABLE "
                    f"--column COL).")
            return text, text, columns
        if not is_dataframe(obj):
            raise MagicError(f"{name!r} is {a_kind(obj)}, not a pandas or Spark "
                             f"DataFrame.")
        if not columns:
            raise MagicError(f"Name the query column: {name}.COLUMN or {name} --column COLUMN "
                             f"(columns: {[str(c) for c in obj.columns][:20]}).")
        return obj, name, columns

    def bind(self, name: str, value) -> str:
        self.user_ns[check_identifier(name)] = value
        return name

    def insert(self, code: str, key: str | None = None, of: str | None = None,
               by: str = "%lakejoin") -> None:
        """Put ``code`` into the next cell; with ``key`` (``kind:VAR``, VAR named by
        :meth:`Session.action_variable`) marked as lakejoin's cell (``mark_cell``, ``of``:
        the join it holds), so that VAR stays lakejoin's when the cell runs and the magic
        run again takes it back."""
        if self.shell is not None:
            self.shell.set_next_input(mark_cell(code, key, of, by=by) if key else code,
                                      replace=False)


def add_join_insert_arguments(p: argparse.ArgumentParser, by: str, default_name: str) -> None:
    """``--join VAR`` and ``--insert``, declared once for the magics that learn a join
    (``autojoin``, ``predicate``): ``by`` names what the join uses ("the learned program"),
    ``default_name`` the variable ``--insert`` binds without ``--join``."""
    p.add_argument("--join", metavar="VAR",
                   help=f"also join with {by} and bind the result to VAR")
    p.add_argument("--insert", action="store_true",
                   help=f"insert the reproducing join code as the next cell (binding --join "
                        f"VAR, else {default_name}; run again, the magic keeps that "
                        f"name; never a variable you made)")
