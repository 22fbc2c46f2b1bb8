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


class ComponentMissingError(LakeJoinError):
    """The index was built without a component a search method needs."""


class QueryError(LakeJoinError, ValueError):
    """The query (DataFrame, column, values) cannot be searched as given."""


class JavaNotFoundError(LakeJoinError):
    pass


class SparkStartError(LakeJoinError):
    pass


class LakeChangedWarning(UserWarning):
    """The lake's files differ from the ones the index was built from."""
