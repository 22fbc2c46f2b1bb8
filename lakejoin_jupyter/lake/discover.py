"""Find the tables of a lake: files in a folder tree, a list of files, or Spark catalog tables.

A Parquet dataset folder (Spark's or Hive's output: part files, a _SUCCESS marker, hive-style
``key=value/`` partition folders, Hive's extensionless ``000000_0`` files) is one table named
after the folder; an extensionless file is Parquet when its first bytes say so.

Every table gets a stable id (sorted by path, so the same lake always numbers its tables the
same way, whichever Spark master builds it) and a fingerprint entry (size, mtime, and the
content digest the build's read job takes) that ``open_index`` compares against to tell the
user the lake changed since the build. A file whose time stamp moved but whose size and
content did not (a copy, a checkout, ``touch``) has not changed.
Folders holding a lakejoin index (or a build of one in progress) are never lake tables: an
index may be written inside the lake it indexes.
"""
from __future__ import annotations

import errno
import json
import os
import stat
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

from ..errors import LakeNotFoundError

FORMATS = {
    ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".txt": None,
    ".parquet": "parquet", ".pq": "parquet",
    ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl",
}
COMPRESSED = (".gz", ".bz2", ".xz", ".zst")


@dataclass
class TableSource:
    table_id: int
    name: str            # path relative to the lake root, without extension (or catalog name)
    path: str            # relative posix path (files) or catalog table name
    uri: str             # absolute path (files) or "catalog:<name>"
    format: str          # csv | tsv | parquet | jsonl | catalog
    size: int = 0
    mtime_ns: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class LakeSpec:
    root: str | None                 # absolute folder (files) or None (catalog / file list)
    kind: str                        # "folder" | "files" | "catalog"
    tables: list[TableSource]
    ignored: list[tuple[str, str]] = field(default_factory=list)  # (path, why)

    def fingerprint(self, digests: dict | None = None) -> dict:
        """The lake section of a manifest; ``digests``: {uri: content digest} (read job)."""
        digests = digests or {}
        return {
            "kind": self.kind,
            "root": self.root,
            "files": {t.uri: [t.size, t.mtime_ns] + ([digests[t.uri]] if digests.get(t.uri) else [])
                      for t in self.tables if t.format != "catalog"},
            "catalog_tables": [t.path for t in self.tables if t.format == "catalog"],
        }


def table_format(path: Path) -> str | None:
    name = path.name.lower()
    for comp in COMPRESSED:
        if name.endswith(comp):
            name = name[: -len(comp)]
            break
    return FORMATS.get(Path(name).suffix)


def is_parquet_magic(path: Path) -> bool:
    """The file starts as a Parquet file does ("PAR1"): Hive writes its tables' files
    without an extension (``000000_0``)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == b"PAR1"
    except OSError:
        return False


def file_format(path: Path) -> str | None:
    """The table format of a file: by its extension, else "parquet" for an extensionless
    Parquet file (by its first bytes), else None."""
    fmt = table_format(path)
    if fmt is None and not Path(path).suffix and Path(path).is_file() \
            and is_parquet_magic(path):
        return "parquet"
    return fmt


def _strip_ext(rel: str) -> str:
    name = rel
    for comp in COMPRESSED:
        if name.lower().endswith(comp):
            name = name[: -len(comp)]
    stem, dot, ext = name.rpartition(".")
    return stem if dot and "/" not in ext else name


def is_index_folder(d: Path) -> bool:
    """A lakejoin index, or a build of one in progress (index/store.py's manifest and marker)."""
    if (d / ".lakejoin-partial").exists():
        return True
    try:
        with open(d / "manifest.json", encoding="utf-8") as fh:
            return json.load(fh).get("format") == "lakejoin-index"
    except (OSError, ValueError, AttributeError):
        return False


_MARKERS = ("_SUCCESS", "_metadata", "_common_metadata")


def _data_entries(d: Path) -> list:
    """The entries of a folder a Parquet reader reads (not hidden, not "_"-prefixed)."""
    try:
        return [e for e in d.iterdir() if not e.name.startswith((".", "_"))]
    except OSError:
        return []


def _is_parquet_file(f: Path) -> bool:
    if f.name.lower().endswith((".parquet", ".pq")):
        return f.is_file()
    return file_format(f) == "parquet"          # Hive's extensionless 000000_0


def _partition_key(d: Path) -> str | None:
    """The column of a hive-style partition folder ``key=value``, or None."""
    key, eq, _ = d.name.partition("=")
    return key if eq and key and d.is_dir() else None


def _partition_files(entries: list) -> int | None:
    """How many Parquet files hive-style partition folders hold: ``entries`` are folders
    ``key=value`` of one key, each holding Parquet files or the next level of partition
    folders; None when they are not."""
    keys = {_partition_key(e) for e in entries}
    if len(keys) != 1 or None in keys:
        return None
    n = 0
    for e in entries:
        inner = _data_entries(e)
        if inner and all(_is_parquet_file(f) for f in inner):
            n += len(inner)
        elif inner:                   # (an empty partition: a reader reads no rows from it)
            below = _partition_files(inner)
            if below is None:
                return None
            n += below
    return n


def is_parquet_dataset(d: Path) -> bool:
    """A folder written by Spark/Hive/pyarrow as one table: hive-style partition folders
    (``key=value/``, nested, Parquet files in the innermost), Parquet files beside a
    _SUCCESS or _metadata marker, or nothing but part-* Parquet files."""
    entries = _data_entries(d)
    if not entries:
        return False
    if all(e.is_dir() for e in entries):
        return bool(_partition_files(entries))
    try:
        marked = any((d / m).exists() for m in _MARKERS)
    except OSError:
        marked = False
    if marked and any(_is_parquet_file(e) for e in entries):
        return True
    if all(e.is_file() and e.name.startswith("part-") and e.name.endswith(".parquet")
           for e in entries):
        return True
    # a Hive table's folder: nothing but Parquet files without an extension
    return all(not e.suffix and _is_parquet_file(e) for e in entries)


def lake_path_problem(path) -> str | None:
    """What keeps ``path`` from being indexed as a lake, in one sentence that names it and
    says what to do, or None: it must exist and be a readable folder, or a readable file of
    a table format (a ``.txt`` too, read as CSV when given alone). Checked before a build
    starts (the widget), so a typo does not start Spark."""
    p = Path(str(path)).expanduser()
    shown = p.absolute()
    what = "a folder of tables (CSV, TSV, Parquet, JSON lines) or one such file"
    if not p.exists():
        where = next((a for a in shown.parents if a.exists()), None)
        return (f"The lake path {shown} does not exist"
                + (f" (nothing named {shown.relative_to(where).parts[0]!r} in {where})"
                   if where is not None and where != shown.parent else "")
                + f": type the path of {what}.")
    if p.is_dir():
        try:
            with os.scandir(p):
                pass
        except OSError as e:
            return (f"The lake folder {shown} cannot be read ({e.strerror or e}): check its "
                    f"permissions, or type another folder.")
        return None
    if not p.is_file():
        return f"The lake path {shown} is not a folder or a regular file: type the path of {what}."
    name = p.name.lower()
    if table_format(p) is None and not (name.endswith(".txt") or
                                        any(name.endswith(".txt" + c) for c in COMPRESSED)):
        return (f"The lake path {shown} is not a table file (CSV, TSV, Parquet, JSON lines, "
                f"or text read as CSV): type the path of {what}.")
    try:
        with open(p, "rb") as fh:
            fh.read(1)
    except OSError as e:
        return (f"The lake file {shown} cannot be read ({e.strerror or e}): check its "
                f"permissions, or type another path.")
    return None


def discover(lake, catalog_tables: Iterable[str] | None = None) -> LakeSpec:
    """Tables of ``lake``: a folder (searched recursively), one file, or a list of files.

    Files whose extension is not a table format are listed in ``ignored``. Hidden files and
    names starting with "_" (Spark's _SUCCESS) are skipped silently. A Parquet dataset
    folder (:func:`is_parquet_dataset`: Spark's or Hive's output, partitioned or not) is
    one table named after the folder.
    """
    entries: list[tuple[Path, str, str]] = []  # (absolute path, relative name, format)
    ignored: list[tuple[str, str]] = []
    root = None
    kind = "files"
    if catalog_tables is not None and lake is None:
        tables = [TableSource(i, n, n, f"catalog:{n}", "catalog")
                  for i, n in enumerate(sorted(catalog_tables))]
        return LakeSpec(None, "catalog", tables)
    paths = [lake] if isinstance(lake, (str, os.PathLike)) else list(lake)
    for p in paths:
        p = Path(p).expanduser()
        if not p.exists() and not p.is_symlink():
            raise LakeNotFoundError(
                f"Lake path {p} does not exist. Pass a folder of tables (CSV, TSV, Parquet, "
                f"JSON lines) or a list of such files.")
        p = p.absolute()
        if p.is_dir() and len(paths) == 1:
            root, kind = p, "folder"
            if is_index_folder(p):
                ignored.append((p.name, "a lakejoin index (index folders are not lake tables)"))
                continue
            if is_parquet_dataset(p):
                entries.append((p, p.name, "parquet"))
                continue
            for dirpath, dirnames, filenames in os.walk(p, followlinks=False):
                d = Path(dirpath)
                dirnames[:] = sorted(x for x in dirnames if not x.startswith((".", "_")))
                keep = []
                for sub in dirnames:
                    if is_index_folder(d / sub):
                        ignored.append(((d / sub).relative_to(p).as_posix(),
                                        "a lakejoin index (index folders are not lake tables)"))
                    elif is_parquet_dataset(d / sub):
                        entries.append((d / sub, (d / sub).relative_to(p).as_posix(), "parquet"))
                    else:
                        keep.append(sub)
                dirnames[:] = keep
                for fn in sorted(filenames):
                    if fn.startswith((".", "_")):
                        continue
                    f = d / fn
                    rel = f.relative_to(p).as_posix()
                    fmt = file_format(f)
                    if fmt is None:
                        ignored.append((rel, "not a table format (csv, tsv, parquet, jsonl)"))
                    else:
                        entries.append((f, rel, fmt))
        elif p.is_dir():
            entries.append((p, p.name, "parquet"))
        else:
            fmt = file_format(p) or "csv"
            entries.append((p, p.name, fmt))
    entries.sort(key=lambda e: e[1])
    tables = []
    for i, (f, rel, fmt) in enumerate(entries):
        try:
            if not f.exists():
                raise OSError("missing or a broken link")
            if f.is_file():
                st = f.stat()
                size, mtime = st.st_size, st.st_mtime_ns
            else:
                size, mtime = _dir_stat(f)
        except OSError:
            size, mtime = -1, 0   # unreadable: the reader reports why and skips it
        tables.append(TableSource(i, _strip_ext(rel) if f.is_file() or not f.exists() else rel,
                                  rel, str(f), fmt, size, mtime))
    _dedupe_names(tables)
    return LakeSpec(str(root) if root else None, kind, tables, ignored)


def stat_fingerprint(path) -> tuple[int, int]:
    """(size, mtime_ns) of a table file, or of a Parquet folder's files together (the
    fingerprint a build records); raises OSError (FileNotFoundError when it is missing)
    when it cannot be read. A file costs one stat."""
    p = Path(path)
    st = p.stat()
    if stat.S_ISREG(st.st_mode):
        return st.st_size, st.st_mtime_ns
    return _dir_stat(p)


# How many bytes of files whose time stamp moved an open (or a join) hashes to tell a copy
# from a change; beyond it they are reported as modified without reading them.
DIGEST_CHECK_BYTES = 1 << 30


def file_digest(path) -> str:
    """The content digest of a table file, or of a Parquet folder's files (names and bytes),
    as hex (128-bit MurmurHash3); raises OSError when it cannot be read."""
    import mmh3
    p = Path(path)
    h = mmh3.mmh3_x64_128()
    files = [p] if p.is_file() else sorted(f for f in p.rglob("*") if f.is_file())
    for f in files:
        if f != p:
            h.update(f.relative_to(p).as_posix().encode("utf-8") + b"\0")
        with open(f, "rb") as fh:
            while chunk := fh.read(1 << 22):
                h.update(chunk)
    return h.digest().hex()


def compare_fingerprint(path, recorded, hash_limit: int = DIGEST_CHECK_BYTES, now=None):
    """(current (size, mtime_ns), unchanged?, bytes hashed) of a file against the build's
    ``recorded`` (size, mtime_ns[, digest]): unchanged when size and time stamp match, or
    when only the time stamp moved and the content digest still matches (a file of at most
    ``hash_limit`` bytes is hashed; a larger one counts as changed). ``now``: its
    ``stat_fingerprint`` if already taken. Raises OSError when the file cannot be stat'ed."""
    st = now if now is not None else stat_fingerprint(path)
    size, mtime, *digest = recorded
    if list(st) == [size, mtime]:
        return st, True, 0
    if st[0] != size or not digest or size > hash_limit:
        return st, False, 0
    try:
        return st, file_digest(path) == digest[0], size
    except OSError:
        return st, False, size


def _dir_stat(d: Path) -> tuple[int, int]:
    size, mtime = 0, 0
    for f in d.rglob("*"):
        if f.is_file():
            st = f.stat()
            size += st.st_size
            mtime = max(mtime, st.st_mtime_ns)
    return size, mtime


def _dedupe_names(tables: list[TableSource]) -> None:
    seen: dict[str, int] = {}
    for t in tables:
        if t.name in seen:  # a.csv and a.parquet side by side: keep the extension
            t.name = t.path
        seen[t.name] = t.table_id


def fingerprint_changes(lake_section: dict, known: Iterable[str] = (),
                        looked: dict | None = None) -> list[str]:
    """What changed in the lake since the fingerprint was taken (empty list: nothing).
    ``known``: files indexed elsewhere (by a later generation), never reported as added.
    ``looked``: a dict kept from one call to the next (LakeIndex keeps one per generation)
    holding what a call learnt: each file's verdict with the fingerprint it had then (a
    file whose fingerprint did not move since is not hashed again), and the tables of the
    lake folder with the time stamps of its folders (not listed again while no folder
    changed: a file added, removed or renamed changes its folder's time stamp). A time
    stamp less than ``SETTLED_NS`` old is not relied on (another change within the same
    tick of a coarse file system clock would keep it): that look is not kept."""
    known = set(known)
    if not lake_section or lake_section.get("kind") == "catalog":
        return []
    looked = {} if looked is None else looked
    files = lake_section.get("files", {})
    root = lake_section.get("root")
    changes = []
    if root and not Path(root).exists():
        return [f"the lake folder {root} no longer exists"]
    budget = DIGEST_CHECK_BYTES
    settled = time.time_ns() - SETTLED_NS
    verdicts = looked.setdefault("files", {})
    for uri, (size, mtime, *digest) in files.items():
        try:
            now = stat_fingerprint(uri)
        except OSError as e:
            if e.errno in _MISSING and size != -1:  # -1: unreadable at build time too
                changes.append(f"removed {uri}")
            continue
        if verdicts.get(uri, (None,))[0] == now:
            same = verdicts[uri][1]
        else:
            try:
                _, same, hashed = compare_fingerprint(uri, [size, mtime, *digest], budget, now)
            except OSError:
                continue
            budget -= hashed
            if now[1] < settled:
                verdicts[uri] = (now, same)
        if not same:
            changes.append(f"modified {uri}")
    if root:
        for uri in _lake_tables(root, looked, settled):
            if uri not in files and uri not in known:
                changes.append(f"added {uri}")
    return changes


_MISSING = (errno.ENOENT, errno.ENOTDIR, errno.ELOOP)    # what Path.exists() calls missing
SETTLED_NS = 2 * 10 ** 9        # the coarsest file system time stamps (FAT) are 2 s apart


def _lake_tables(root: str, looked: dict, settled: int) -> list[str]:
    """The table files of the lake folder ``root`` now (``discover``), listed again only
    when the time stamp of a folder under it moved since ``looked`` kept them (kept when
    every time stamp is older than ``settled``)."""
    stamps = {}
    for dirpath, dirnames, _ in os.walk(root, followlinks=False):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "_"))]
        try:
            stamps[dirpath] = os.stat(dirpath).st_mtime_ns
        except OSError:
            stamps[dirpath] = None
    kept = looked.get("tables")
    if kept is None or kept[0] != stamps:
        try:
            tables = [t.uri for t in discover(root).tables]
        except Exception:  # noqa: BLE001 - a fingerprint check never fails an open
            tables = []
        kept = (stamps, tables)
        if all(t is not None and t < settled for t in stamps.values()):
            looked["tables"] = kept
    return kept[1]
