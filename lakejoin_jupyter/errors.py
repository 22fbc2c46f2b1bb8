"""Every error the package raises on purpose: each says what is wrong and what to do."""


class LakeJoinError(Exception):
    """Base class: catch this to handle any lakejoin_jupyter failure."""


class LakeNotFoundError(LakeJoinError, FileNotFoundError):
    pass


class EmptyLakeError(LakeJoinError):
    pass


class TableReadError(LakeJoinError):
    """One table could not be read; builds report it and skip the table."""

    def __init__(self, path, reason, hint=""):
        self.path, self.reason, self.hint = str(path), reason, hint
        super().__init__(f"{path}: {reason}" + (f" ({hint})" if hint else ""))


class IndexNotFoundError(LakeJoinError, FileNotFoundError):
    pass


class NotAnIndexError(LakeJoinError):
    pass


class IndexVersionError(LakeJoinError):
    pass


class IndexCorruptError(LakeJoinError):
    pass


class IndexIncompleteError(IndexCorruptError):
    """The index folder was left half-written (an interrupted build)."""


class IndexLockedError(LakeJoinError):
    """Another build is writing the same index path right now."""


class IndexOfAnotherLakeError(LakeJoinError, FileExistsError):
    """A rebuild of an index from a lake other than the one it records (``overwrite``
    replaces it deliberately)."""


class ComponentMissingError(LakeJoinError):
    """The index was built without a component a search method needs."""


class QueryError(LakeJoinError, ValueError):
    """The query (DataFrame, column, values) cannot be searched as given."""


class JavaNotFoundError(LakeJoinError):
    pass


class SparkStartError(LakeJoinError):
    pass


class SparkWorkerPythonError(LakeJoinError):
    """Spark's Python workers would run an interpreter that cannot import lakejoin_jupyter."""


class SparkJobError(LakeJoinError):
    """A Spark job failed: the message is one line (the cause and the file holding the full
    log); IPython shows only that line (``_render_traceback_``)."""

    def __init__(self, message: str, log_path: str = ""):
        super().__init__(message)
        self.log_path = log_path

    def _render_traceback_(self):
        return [f"SparkJobError: {self}"]


class LakeJoinWarning(UserWarning):
    """Base class of the warnings the package gives on purpose (front ends print them as
    one plain line)."""


class LakeChangedWarning(LakeJoinWarning):
    """The lake's files differ from the ones the index was built from."""


class WorkerPythonWarning(LakeJoinWarning):
    """A local session's Python workers were switched to the interpreter lakejoin runs in."""


class IndexRecoveredWarning(LakeJoinWarning):
    """Opening an index completed (or undid) a commit that a crash had interrupted, or
    removed the folders and the lock that killed builds of its path left."""


_KINDS = {"str": "a string", "int": "an integer", "float": "a number", "bool": "True or False",
          "NoneType": "None", "list": "a list", "tuple": "a tuple", "dict": "a dict"}


def a_kind(value) -> str:
    """What a wrong value is, for a message: "a string", "an integer", "a DataFrame"."""
    import numbers
    name = type(value).__name__
    if name not in _KINDS and isinstance(value, numbers.Integral) and not isinstance(value, bool):
        name = "int"              # numpy's integers
    if name in _KINDS:
        return _KINDS[name]
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name
