"""The on-disk index: manifest, components, atomic writes, verification, memory-mapped load.

An index is a folder: ``manifest.json`` (written last), ``catalog/``, ``dictionary/``,
``sets/``, ``postings/``, ``minhash/`` (memory-mapped ``.npy``; the postings also as Parquet),
one folder per component; the full layout is in docs/algorithms/index-format.md.

A build holds the path's lock (index/lock.py), writes into ``INDEX.tmp-<id>/`` and commits
with two renames (INDEX -> ``INDEX.old-<id>``, tmp -> INDEX); the next open or build repairs
a crash between them (:func:`recover_commit`). Opening checks array bounds even without
checksums (:meth:`Generation.check_arrays`). Details: docs/algorithms/index-format.md.

Generations: tables added later (``lakejoin index --add``) are built by Spark into
``INDEX/generations/gNNNN/`` (the same layout, with its own dictionary, sets, postings and
components, and a ``generation.json`` with its checksums), renamed into place, and then
listed in ``manifest.json`` by an atomic replace. The base is never rewritten, so an add
never puts the existing index at risk. :class:`Generation` is one generation (what search
methods receive); :class:`LakeIndex` is the whole opened index: its generations and the
global catalog (global column id = generation offset + local id).
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import shutil
import uuid
import warnings
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from .._version import __version__
from ..errors import (IndexCorruptError, IndexIncompleteError, IndexLockedError,
                      IndexNotFoundError, IndexOfAnotherLakeError, IndexRecoveredWarning,
                      IndexVersionError,
                      LakeChangedWarning, LakeNotFoundError, NotAnIndexError)
from ..lake.discover import table_format
from ..lake.normalize import normalization_spec
from .arrays import IndexArrays
from .joinstats import FILES as JOINSTATS_FILES
from .joinstats import FOLDER as JOINSTATS
from .joinstats import JoinStats
from .lock import BuildLock, describe, lock_path, own_build, running_build

FORMAT_NAME = "lakejoin-index"
FORMAT_VERSION = 2          # 2: no Parquet copies, new dictionary arrays, joinstats/
READABLE_VERSIONS = (FORMAT_VERSION,)
MANIFEST = "manifest.json"
GENERATION_MANIFEST = "generation.json"
GENERATIONS = "generations"
PARTIAL_MARKER = ".lakejoin-partial"
ADD_PREFIX = ".lakejoin-add-"       # temporary folder of a component being added

ARRAY_FILES = {
    "token_freq": "dictionary/freq.npy",
    "token_group": "dictionary/group.npy",
    "sets_indptr": "sets/indptr.npy",
    "sets_tokens": "sets/token_ids.npy",
    "post_indptr": "postings/indptr.npy",
    "post_sets": "postings/set_ids.npy",
    "post_pos": "postings/positions.npy",
    "post_sizes": "postings/set_sizes.npy",
}


# --------------------------------------------------------------------------- writing

def resolve_destination(path) -> Path:
    """The folder an index at ``path`` is written to: absolute, and through a symlink."""
    path = Path(path).expanduser().absolute()
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def check_destination(path, overwrite: bool = False) -> Path:
    """Refuse a destination we must not write to, before any work starts. The messages
    name the path as the caller wrote it (absolute), not the folder a link leads to."""
    shown = Path(path).expanduser().absolute()
    path = resolve_destination(path)
    if path.exists():
        if path.is_file():
            raise NotAnIndexError(
                f"{shown} is a file, not an index folder. Choose another --out path.")
        if is_index(path):
            if not overwrite:
                recorded = recorded_lake(path)[1]
                of = f" of the lake {recorded}" if recorded else ""
                raise FileExistsError(
                    f"An index{of} already exists at {shown}. Pass overwrite=True "
                    f"(CLI: --overwrite) to replace it, or choose another path.")
        elif any(path.iterdir()):
            raise NotAnIndexError(
                f"{shown} exists, is not empty and is not a lakejoin index; refusing to write "
                f"into it. Choose a new or empty folder for the index.")
    if not path.parent.exists():
        raise IndexNotFoundError(f"The parent folder of {path} does not exist; create it first.")
    return path


def lake_identity(lake) -> tuple:
    """What identifies a lake as ``discover`` reads it: ("folder", real path) for one
    folder, ("files", frozenset of real paths) for files, ("catalog", None) for ``None``."""
    if lake is None:
        return ("catalog", None)
    paths = [lake] if isinstance(lake, (str, os.PathLike)) else list(lake)
    real = [os.path.realpath(Path(p).expanduser()) for p in paths]
    if len(real) == 1 and os.path.isdir(real[0]):
        return ("folder", real[0])
    return ("files", frozenset(real))


def recorded_lake(path) -> tuple[tuple | None, str]:
    """The lake the index at ``path`` records (its manifest's ``lake`` section, read without
    the version checks of :func:`read_manifest`, so an index of an older format is known
    too): its :func:`lake_identity` and how to name it; (None, "") when unreadable."""
    try:
        lake = json.loads((Path(path) / MANIFEST).read_text(encoding="utf-8")).get("lake") or {}
    except (OSError, ValueError, AttributeError):
        return None, ""
    if lake.get("kind") == "catalog":
        return ("catalog", None), "Spark catalog tables"
    if lake.get("kind") == "folder" and lake.get("root"):
        return ("folder", os.path.realpath(lake["root"])), str(lake["root"])
    files = list(lake.get("files") or {})
    if not files:
        return None, ""
    more = f" (and {len(files) - 1} more file(s))" if len(files) > 1 else ""
    return ("files", frozenset(os.path.realpath(f) for f in files)), files[0] + more


def check_same_lake(path, lake) -> None:
    """Refuse to rebuild the index at ``path`` from ``lake`` when it records another lake:
    a rebuild keeps what an index is (the index of its lake); replacing it with another
    lake's index is ``overwrite``. An index whose lake cannot be read is not refused."""
    recorded, shown_recorded = recorded_lake(path)
    if recorded is None or recorded == lake_identity(lake):
        return
    given = lake if isinstance(lake, (str, os.PathLike)) or lake is None else \
        (f"{list(lake)[0]} (and {len(list(lake)) - 1} more file(s))" if len(list(lake)) > 1
         else list(lake)[0])
    given = "Spark catalog tables" if given is None else str(Path(given).expanduser().absolute())
    error = IndexOfAnotherLakeError(
        f"Not rebuilding {Path(path).expanduser().absolute()}: it is the index of the lake "
        f"{shown_recorded}, not of {given}. To replace it with the index of {given}, pass "
        f"overwrite=True (CLI and %lakejoin index: --overwrite); to keep it, build to a new "
        f"index path.")
    error.recorded, error.given = shown_recorded, given
    raise error


def is_index(path) -> bool:
    p = Path(path)
    return (p / MANIFEST).is_file() and not (p / PARTIAL_MARKER).exists()


def _leftovers(final: Path, kind: str) -> list[Path]:
    """``final.tmp-<id>`` or ``final.old-<id>`` folders a build of ``final`` made."""
    if not final.parent.is_dir():
        return []
    pattern = re.compile(re.escape(final.name) + rf"\.{kind}-[0-9a-f]{{8}}")
    return sorted(p for p in final.parent.iterdir() if pattern.fullmatch(p.name)
                  and p.is_dir() and not p.is_symlink()
                  and ((p / MANIFEST).is_file() or (p / PARTIAL_MARKER).exists()))


def recover_commit(final: Path) -> str | None:
    """Repair a commit a crash interrupted between its two renames (the caller holds the
    path's lock): with no index at ``final``, a finished build left beside it is renamed
    into place (and the index it replaced removed), or else the replaced index is put back.
    Returns what was done, or None when there was nothing to repair."""
    if final.exists():
        return None
    finished = [p for p in _leftovers(final, "tmp") if is_index(p)]
    olds = [p for p in _leftovers(final, "old") if is_index(p)]
    if finished:
        new = max(finished, key=lambda p: (p / MANIFEST).stat().st_mtime_ns)
        new.rename(final)
        for old in olds:
            shutil.rmtree(old, ignore_errors=True)
        return (f"completed the commit of {final} that a crash had interrupted: the finished "
                f"build {new.name} is now the index" +
                (f" (the index it replaced, {olds[0].name}, was removed)" if olds else ""))
    if olds:
        old = max(olds, key=lambda p: (p / MANIFEST).stat().st_mtime_ns)
        old.rename(final)
        return (f"restored {final} from {old.name}, where a crash interrupted the commit of "
                f"a build that was replacing it")
    return None


def remove_dead_leftovers(final: Path) -> list[str]:
    """Remove the temporary and replaced folders of earlier builds of ``final`` (the caller
    holds the path's lock, so no live build owns them). Returns their names."""
    gone = []
    olds = _leftovers(final, "old") if is_index(final) else []
    for p in _leftovers(final, "tmp") + olds:
        shutil.rmtree(p, ignore_errors=True)
        if not p.exists():
            gone.append(p.name)
    return gone


def _recover_on_open(path: Path) -> str | None:
    """An open of a missing index repairs an interrupted commit, if that is what happened."""
    final = resolve_destination(path)
    if not (_leftovers(final, "old") or any(is_index(p) for p in _leftovers(final, "tmp"))):
        return None
    try:
        with BuildLock(final):
            return recover_commit(final)
    except IndexLockedError:
        raise IndexNotFoundError(
            f"No index at {path} yet: a build is committing it right now; open it again in "
            f"a moment.") from None
    except OSError as e:
        left = [p.name for p in _leftovers(final, "tmp") + _leftovers(final, "old")]
        raise IndexIncompleteError(
            f"A crash interrupted the commit of {path}, and it cannot be repaired here "
            f"({e.strerror or e}). The finished index is one of {left} beside it: rename it "
            f"to {final.name}.") from None


def _remove_dead_builds_on_open(path: Path) -> str | None:
    """An open of an index removes what killed builds of its path left beside it (their
    ``.tmp-``/``.old-`` folders and the lock file naming them), as the next build would;
    only when no build of the path may run: the lock file names no live process on this
    host (another host's is taken as alive) and its lock can be taken. Returns what was
    removed, or None (nothing, or not now: a read-only folder, a build running)."""
    final = resolve_destination(path)
    if not (lock_path(final).exists() or _leftovers(final, "tmp") or _leftovers(final, "old")):
        return None
    if running_build(final) is not None:
        return None
    try:
        with BuildLock(final) as lock:
            gone = remove_dead_leftovers(final)
            dead = lock.dead
    except (IndexLockedError, OSError):
        return None
    said = [f"the lock of a build that died ({describe(dead)})"] if dead else []
    if gone:
        said.append(f"{len(gone)} folder(s) that killed builds left: {', '.join(gone)}")
    return f"removed, beside {final}, " + " and ".join(said) if said else None


class NpyAppender:
    """Writes an ``.npy`` file of known dtype and shape front to back with ordinary writes,
    the same bytes as ``np.save`` of the whole array. Unlike a writable memory map, the
    pages written do not count in the build's resident memory (a large index's arrays are
    many GB). Use as a context manager; closing checks that every row was written."""

    def __init__(self, path, dtype, shape):
        self.path, self.dtype, self.shape = Path(path), np.dtype(dtype), tuple(int(x) for x in shape)
        self.row_shape, self.rows = self.shape[1:], 0
        self._f = open(self.path, "wb")
        header = {"descr": np.lib.format.dtype_to_descr(self.dtype), "fortran_order": False,
                  "shape": self.shape}
        try:
            np.lib.format.write_array_header_1_0(self._f, header)
        except ValueError:                               # a header longer than 64 KiB
            np.lib.format.write_array_header_2_0(self._f, header)

    def write(self, rows) -> None:
        a = np.ascontiguousarray(rows, dtype=self.dtype)
        if a.shape[1:] != self.row_shape or self.rows + len(a) > self.shape[0]:
            raise ValueError(f"{self.path.name}: rows of shape {a.shape} do not fit "
                             f"{self.rows} of {self.shape} written (build bug)")
        if a.size:
            self._f.write(memoryview(a).cast("B"))
        self.rows += len(a)

    def close(self) -> None:
        if self._f.closed:
            return
        self._f.close()
        if self.rows != self.shape[0]:
            raise ValueError(f"{self.path.name}: {self.rows} of {self.shape[0]} rows written "
                             "(build bug)")

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self._f.close()


class _FolderWriter:
    """Writes into a temporary folder (with a partial marker) and renames it on commit."""

    final: Path
    tmp: Path

    def _start(self) -> None:
        self.tmp.mkdir(parents=True)
        (self.tmp / PARTIAL_MARKER).write_text("an interrupted lakejoin build left this folder\n")
        self.committed = False

    def path(self, rel: str) -> Path:
        p = self.tmp / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        return p

    def uri(self, rel: str) -> str:
        """Absolute URI for Spark writers (file:// keeps a cluster from resolving to HDFS)."""
        return self.path(rel).as_uri()

    def save_npy(self, rel: str, array: np.ndarray) -> None:
        np.save(self.path(rel), np.ascontiguousarray(array), allow_pickle=False)

    def save_frame(self, rel: str, df: pd.DataFrame) -> None:
        df.to_parquet(self.path(rel), index=False)

    def npy_appender(self, rel: str, dtype, shape) -> "NpyAppender":
        """An ``.npy`` of known dtype and shape, written front to back (:class:`NpyAppender`)."""
        return NpyAppender(self.path(rel), dtype, shape)

    def _finish_manifest(self, manifest: dict, name: str) -> dict:
        manifest = dict(manifest)
        manifest.setdefault("format", FORMAT_NAME)
        manifest.setdefault("format_version", FORMAT_VERSION)
        manifest.setdefault("package_version", __version__)
        manifest.setdefault("created", _dt.datetime.now(_dt.timezone.utc).isoformat())
        manifest.setdefault("normalization", normalization_spec())
        manifest["files"] = file_checksums(self.tmp)
        _write_json_atomic(self.tmp / name, manifest)
        (self.tmp / PARTIAL_MARKER).unlink()
        return manifest

    def abort(self) -> None:
        if not self.committed:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.abort()
        return False


class IndexWriter(_FolderWriter):
    """A new index: written beside the destination, renamed into place on commit."""

    def __init__(self, path, overwrite: bool = False):
        self.requested = Path(path).expanduser().absolute()
        self.final = check_destination(path, overwrite)
        self.overwrite = overwrite
        self.tmp = self.final.parent / f"{self.final.name}.tmp-{uuid.uuid4().hex[:8]}"
        self.column_offset = self.table_offset = 0
        self._start()

    def commit(self, manifest: dict) -> Path:
        """Checksum every file, write the manifest last, then rename into place."""
        if is_index(self.final) and not self.overwrite:
            raise FileExistsError(
                f"An index appeared at {self.final} while this build ran (a build that does "
                f"not take the lock?); not replacing it. Pass overwrite=True (CLI: "
                f"--overwrite) to replace it.")
        self._finish_manifest(manifest, MANIFEST)
        old = None
        if self.final.exists():
            old = self.final.parent / f"{self.final.name}.old-{uuid.uuid4().hex[:8]}"
            self.final.rename(old)
        self.tmp.rename(self.final)
        self.committed = True
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        return self.final


class GenerationWriter(_FolderWriter):
    """Tables added to an existing index: a new generation under INDEX/generations/."""

    def __init__(self, index_path):
        self.index_path = Path(index_path).expanduser().absolute()
        self.base_manifest = read_manifest(self.index_path)
        gens = self.base_manifest.get("generations", [])
        self.name = f"g{len(gens) + 1:04d}"
        root = self.index_path / GENERATIONS
        for stale in root.glob("*.tmp-*") if root.exists() else []:
            shutil.rmtree(stale, ignore_errors=True)     # an earlier interrupted add
        if (root / self.name).exists():                  # renamed but never listed
            shutil.rmtree(root / self.name)
        self.final = root / self.name
        self.tmp = root / f"{self.name}.tmp-{uuid.uuid4().hex[:8]}"
        counts = self.base_manifest["counts"]
        self.column_offset = counts["columns"] + sum(g["columns"] for g in gens)
        self.table_offset = counts["tables"] + sum(g["tables"] for g in gens)
        self._start()

    def commit(self, manifest: dict) -> Path:
        manifest = self._finish_manifest(manifest, GENERATION_MANIFEST)
        self.tmp.rename(self.final)
        self.committed = True
        top = dict(self.base_manifest)
        top["generations"] = list(top.get("generations", [])) + [{
            "name": self.name, "created": manifest["created"],
            "column_offset": self.column_offset, "table_offset": self.table_offset,
            "columns": manifest["counts"]["columns"], "tables": manifest["counts"]["tables"],
            "tokens": manifest["counts"]["tokens"]}]
        _write_json_atomic(self.index_path / MANIFEST, top)
        return self.final


class ComponentWriter(_FolderWriter):
    """A component added to a built generation (``lakejoin index --add COMPONENT INDEX``):
    written into a temporary folder inside the generation, its folder renamed into place,
    then listed in the generation's manifest by an atomic replace, written last. No
    existing file is rewritten; until the manifest lists it the component does not exist."""

    def __init__(self, generation: "Generation", component: str, folder: str):
        self.final = generation.path
        self.manifest_name = GENERATION_MANIFEST if generation.name != "base" else MANIFEST
        self.component, self.folder = component, folder
        for stale in self.final.glob(f"{ADD_PREFIX}*"):          # an earlier interrupted add
            shutil.rmtree(stale, ignore_errors=True)
        self.tmp = self.final / f"{ADD_PREFIX}{component}.tmp-{uuid.uuid4().hex[:8]}"
        self._start()

    def commit(self, section: dict, default: bool = False) -> Path:
        """List the component (``default``: one a build makes unless --without) in the
        manifest; the base's recorded build options then ask for it too (rebuild_command)."""
        mpath = self.final / self.manifest_name
        manifest = json.loads(mpath.read_text(encoding="utf-8"))
        if self.component in manifest.get("components", {}):
            raise FileExistsError(f"{self.final} got a {self.component} component while this "
                                  f"add ran; not replacing it.")
        src, dst = self.tmp / self.folder, self.final / self.folder
        if any(rel.startswith(self.folder + "/") for rel in manifest.get("files", {})):
            raise FileExistsError(f"{dst} holds files the manifest lists; not replacing them.")
        if dst.exists():            # moved by an add that died before listing it: unlisted
            shutil.rmtree(dst)
        src.rename(dst)
        try:
            manifest["files"] = dict(manifest.get("files", {}))
            for rel, meta in file_checksums(dst).items():
                manifest["files"][f"{self.folder}/{rel}"] = meta
            manifest["components"] = dict(manifest.get("components", {}),
                                          **{self.component: section})
            options = (manifest.get("build") or {}).get("options")
            if options is not None:
                manifest["build"] = dict(manifest["build"], options=_with_component(
                    options, self.component, default))
            _write_json_atomic(mpath, manifest)
        except BaseException:
            shutil.rmtree(dst, ignore_errors=True)
            raise
        self.committed = True
        shutil.rmtree(self.tmp, ignore_errors=True)
        return dst


def _with_component(options: list, name: str, default: bool) -> list:
    """Build options (``lakejoin index`` words) that build component ``name`` too."""
    out, i = [], 0
    while i < len(options):
        if options[i] in ("--with", "--without") and i + 1 < len(options) \
                and options[i + 1] == name:
            i += 2
            continue
        out.append(options[i])
        i += 1
    return out if default else out + ["--with", name]


def _unset(options: list, names) -> list:
    """Build options without the ``--set NAME=VALUE`` of the COMPONENT.OPTION ``names``."""
    out, i = [], 0
    while i < len(options):
        if options[i] == "--set" and i + 1 < len(options) \
                and options[i + 1].partition("=")[0] in names:
            i += 2
            continue
        out.append(options[i])
        i += 1
    return out


def _write_json_atomic(path: Path, obj: dict) -> None:
    tmp = path.with_name(path.name + f".tmp-{uuid.uuid4().hex[:6]}")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=1, sort_keys=True, default=_json_default)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _json_default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, Path):
        return str(o)
    raise TypeError(f"not JSON serializable: {type(o)}")


def _blake2b(path: Path) -> str:
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 22), b""):
            h.update(chunk)
    return h.hexdigest()


def file_checksums(root: Path) -> dict:
    """Size and blake2b of every file under root (generations have their own)."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel_parts = p.relative_to(root).parts
        if rel_parts and rel_parts[0] == GENERATIONS:
            continue
        if p.is_file() and p.name not in (MANIFEST, GENERATION_MANIFEST, PARTIAL_MARKER) \
                and ".tmp-" not in p.name and not p.name.endswith(".crc"):
            rel = p.relative_to(root).as_posix()
            out[rel] = {"bytes": p.stat().st_size, "blake2b": _blake2b(p)}
    return out


# --------------------------------------------------------------------------- reading

def _holds_tables(folder: Path, limit: int = 1000) -> bool:
    """A table file (CSV, TSV, Parquet, JSON lines) among the first ``limit`` entries."""
    for n, p in enumerate(folder.rglob("*")):
        if n >= limit:
            return False
        if table_format(p) is not None:
            return True
    return False


def _refuse_while_building(path: Path) -> None:
    """A build writing ``path`` now: say so, not that an earlier build was interrupted."""
    final = resolve_destination(path)
    building = re.fullmatch(r"(.+)\.tmp-[0-9a-f]{8}", final.name)
    if building:                      # the build's own folder: its index's lock
        final = final.with_name(building.group(1))
    record = running_build(final)
    if record and own_build(record):          # this process's build (e.g. the widget's)
        raise IndexNotFoundError(
            f"No index at {final} yet: this process is building it (started "
            f"{record.get('started', '?')}); open it when that build has finished.")
    if record is not None:
        raise IndexLockedError(
            f"A build of {final} is running ({describe(record)}). Wait for it to finish, "
            f"then open the index.")


def read_manifest(path) -> dict:
    path = Path(path).expanduser()
    if not path.exists():
        _refuse_while_building(path)
        hint = ""
        partial = [p for p in _leftovers(resolve_destination(path), "tmp")
                   if (p / PARTIAL_MARKER).exists()]
        if partial:
            hint = (f" A half-written build was left at {partial[0]}: the last build of this "
                    f"index was interrupted; run it again.")
        raise IndexNotFoundError(
            f"No index at {path}. Build one with `lakejoin index LAKE --out {path}`.{hint}")
    if path.is_file():
        raise NotAnIndexError(f"{path} is a file; an index is a folder holding {MANIFEST}.")
    if (path / PARTIAL_MARKER).exists():
        _refuse_while_building(path)
        raise IndexIncompleteError(
            f"{path} is a half-written index (its build was interrupted before it finished). "
            f"Delete it and build the index again.")
    mpath = path / MANIFEST
    if not mpath.is_file():
        if _holds_tables(path):         # the lake given where its index was meant
            raise NotAnIndexError(
                f"{path} is a folder of tables, not a lakejoin index (it has no {MANIFEST}). "
                f"Build its index with `lakejoin index {path} --out {path}.index` and open "
                f"or search {path}.index.")
        raise NotAnIndexError(
            f"{path} is not a lakejoin index: it has no {MANIFEST}. "
            f"Build one with `lakejoin index LAKE --out {path}`.")
    try:
        manifest = json.loads(mpath.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise IndexCorruptError(f"{mpath} is not valid JSON ({e}); rebuild the index.") from e
    if manifest.get("format") != FORMAT_NAME:
        raise NotAnIndexError(f"{mpath} is not a lakejoin manifest (format={manifest.get('format')!r}).")
    version = manifest.get("format_version")
    if version not in READABLE_VERSIONS:
        raise IndexVersionError(
            f"{path} has index format version {version}; this lakejoin_jupyter "
            f"({__version__}) reads versions {list(READABLE_VERSIONS)}. Rebuild the index with this "
            f"version ({rebuild_command(path, manifest)}).")
    norm = manifest.get("normalization", {})
    if (norm.get("name"), norm.get("version")) != (normalization_spec()["name"],
                                                    normalization_spec()["version"]):
        raise IndexVersionError(
            f"{path} was built with normalization {norm.get('name')} v{norm.get('version')}, "
            f"but queries use {normalization_spec()['name']} v{normalization_spec()['version']} "
            f"(values would not compare as the index holds them); rebuild the index: "
            f"{rebuild_command(path, manifest)}.")
    return manifest


def rebuild_command(path, manifest: dict | None = None, with_: str | None = None,
                    unset: tuple = ()) -> str:
    """The command(s) that rebuild the index at ``path`` as it was built: its lake, the
    build's options (``build.options`` of the manifest: --num-perm, --with, --without,
    --set, but for the ``--set`` of the ``unset`` COMPONENT.OPTION names: back to their
    defaults), and component ``with_`` too, then one ``--add`` per folder of tables added to
    it (each generation's lake), but for a folder deleted, or emptied of tables, since:
    the text names it instead, as an ``--add`` of it would find no tables."""
    import shlex
    path = Path(path).expanduser().absolute()
    if manifest is None:
        try:
            manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            manifest = {}
    lake = manifest.get("lake") or {}
    if lake.get("kind") == "catalog":
        source = " ".join(f"--catalog-table {shlex.quote(t)}"
                          for t in lake.get("catalog_tables", [])) or "LAKE"
    else:
        source = _lake_argument(lake) or "LAKE"
    options = (manifest.get("build") or {}).get("options")
    given = _unset(list(options or ()), unset)
    if with_:
        given = _with_component(given, with_, False)
    out = shlex.quote(str(path))
    words = ["lakejoin", "index", source, "--out", out, *map(shlex.quote, given), "--overwrite"]
    text = f"`{' '.join(words)}`"
    adds, dropped = [], []
    for g in manifest.get("generations", []):
        try:
            glake = json.loads((path / GENERATIONS / g["name"] / GENERATION_MANIFEST)
                               .read_text(encoding="utf-8")).get("lake") or {}
        except (OSError, ValueError, KeyError, TypeError):
            glake = {}
        gone = _emptied(glake)
        if gone:
            dropped.append(gone)
        else:
            adds.append(f"`lakejoin index --add {_lake_argument(glake) or 'NEW_TABLES'} {out}`")
    if options is None:        # built before the manifest recorded its options
        text += (f" with the --with/--set options it was built with (its components: "
                 f"{', '.join(sorted(manifest.get('components', {})))})")
    if adds:
        text += ", then re-add the tables added to it: " + ", ".join(adds)
    if dropped:
        text += f" (not re-added: {'; '.join(dropped)})"
    return text


def _emptied(lake: dict) -> str | None:
    """Why the tables added with ``--add`` from a generation's lake cannot be added again
    (the folder or file deleted, or every table of the folder since), or None: they can.
    The folder is searched only when none of the files it was added with is left."""
    from ..lake.discover import discover
    files = list(lake.get("files") or {})
    if not files or any(os.path.exists(f) for f in files):
        return None
    source = lake.get("root") or (files[0] if len(files) == 1 else None)
    if source is None:
        return f"the {len(files)} files added with --add, all deleted since"
    try:
        if discover(source).tables:
            return None
    except (OSError, LakeNotFoundError):
        return f"{_lake_argument(lake)}, added with --add, deleted since"
    return f"{_lake_argument(lake)}, added with --add, holds no tables any more"


def _lake_argument(lake: dict) -> str | None:
    """The LAKE argument a manifest's lake section was built from (a folder, or the one
    file of a one-file lake), quoted for a shell; None when there is none."""
    import shlex
    if lake.get("root"):
        return shlex.quote(str(lake["root"]))
    files = list(lake.get("files") or {})
    return shlex.quote(files[0]) if len(files) == 1 else None


def verify_files(path: Path, manifest: dict, checksums: bool = True) -> None:
    """Every file the manifest lists exists with its size (and checksum)."""
    for rel, meta in manifest.get("files", {}).items():
        p = path / rel
        if not p.is_file():
            raise IndexCorruptError(f"{path}: component file {rel} is missing; rebuild the index.")
        size = p.stat().st_size
        if size != meta["bytes"]:
            raise IndexCorruptError(
                f"{path}: {rel} has {size} bytes, the manifest says {meta['bytes']}; "
                f"the file was changed or truncated after the build. Rebuild the index.")
        if checksums and _blake2b(p) != meta["blake2b"]:
            raise IndexCorruptError(
                f"{path}: checksum mismatch in {rel}; the file was modified after the build. "
                f"Rebuild the index.")


class Generation:
    """One generation of an index (the files of one build, or of one ``--add``): what
    search methods receive.

    Column and table ids here are local to the generation; ``column_offset`` and
    ``table_offset`` map them to the global ids of the :class:`LakeIndex`.
    """

    def __init__(self, path, manifest: dict, name: str = "base", column_offset: int = 0,
                 table_offset: int = 0):
        self.path = Path(path)
        self.manifest = manifest
        self.name = name
        self.column_offset = column_offset
        self.table_offset = table_offset

    # -- components
    @property
    def components(self) -> dict:
        return self.manifest.get("components", {})

    def has(self, component: str) -> bool:
        return component in self.components

    def embedder(self, component: str):
        """The embedder ``component`` (pexeso, union) was built with, as its section
        records it (:meth:`check_fold` first)."""
        from ..embed import get_embedder
        self.check_fold()
        return get_embedder(self.components[component]["embedder"])

    def check_fold(self) -> None:
        """An embedder recorded in a component's section that folded values otherwise than
        this version does (embed.FoldChangedError) makes the index stale: IndexVersionError
        naming the component, both folds and the command that rebuilds it (its vectors
        would not compare with vectors of queries folded the new way)."""
        from ..embed import FoldChangedError, check_fold
        for component, section in self.components.items():
            try:
                check_fold(section.get("embedder") if isinstance(section, dict) else None)
            except FoldChangedError as e:
                root = self.path if self.name == "base" else self.path.parent.parent
                raise IndexVersionError(
                    f"{root} is stale for {component}: its {e.embedder} embedder folded "
                    f"values with {e.recorded!r}, but this version folds them with "
                    f"{e.current!r} (docs/algorithms/fuzzyjoin.md, Folding), and vectors of "
                    f"the two folds do not compare; rebuild the index: "
                    f"{rebuild_command(root)}.") from None

    def file(self, rel: str) -> Path:
        return self.path / rel

    def load_npy(self, rel: str, mmap: bool = True) -> np.ndarray:
        """An array file, memory-mapped; its header is checked against the file's size
        first, so a damaged header cannot make numpy allocate what the file does not hold."""
        p = self.path / rel
        if not p.is_file():
            raise IndexCorruptError(f"{self.path}: {rel} is missing; rebuild the index.")
        try:
            with open(p, "rb") as fh:
                version = np.lib.format.read_magic(fh)
                read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                               (2, 0): np.lib.format.read_array_header_2_0}.get(version)
                if read_header is None:
                    raise ValueError(f"unexpected .npy format version {version}")
                shape, _, dtype = read_header(fh)
                data_bytes = p.stat().st_size - fh.tell()
            if dtype.hasobject or int(np.prod(shape, dtype=object)) * dtype.itemsize > data_bytes:
                raise ValueError(f"its header claims a {dtype} array of shape {shape}, more "
                                 f"than its {data_bytes} bytes of data")
            return np.load(p, mmap_mode="r" if mmap else None, allow_pickle=False)
        except (ValueError, OSError, EOFError) as e:
            raise IndexCorruptError(f"{self.path}: {rel} is not a valid array file ({e}); "
                                    f"rebuild the index.") from None

    # -- catalog (local ids)
    @cached_property
    def tables(self) -> pd.DataFrame:
        return pd.read_parquet(self.path / "catalog/tables.parquet")

    @cached_property
    def columns(self) -> pd.DataFrame:
        return pd.read_parquet(self.path / "catalog/columns.parquet")

    # -- arrays
    @cached_property
    def arrays(self) -> IndexArrays:
        return IndexArrays(**{name: self.load_npy(rel) for name, rel in ARRAY_FILES.items()})

    @property
    def n_sets(self) -> int:
        return int(self.manifest["counts"]["columns"])

    @property
    def n_tokens(self) -> int:
        return int(self.manifest["counts"]["tokens"])

    @cached_property
    def _dictionary(self):
        return (self.load_npy("dictionary/hash_sorted.npy"), self.load_npy("dictionary/hash_ids.npy"),
                self.load_npy("dictionary/values_offsets.npy"), self.load_npy("dictionary/values_bytes.npy"))

    def token_text(self, token_ids) -> list[str]:
        _, _, off, data = self._dictionary
        return [bytes(data[off[i]:off[i + 1]]).decode("utf-8") for i in np.asarray(token_ids)]

    def lookup(self, tokens: list[str], token_hashes: np.ndarray | None = None) -> np.ndarray:
        """Token id of each (normalized) token, -1 where this generation does not hold it
        (``token_hashes``: the tokens' token_hash64, when the caller has them)."""
        from ..hashing import token_hash64
        hashes, ids, off, data = self._dictionary
        tokens = list(tokens)
        out = np.full(len(tokens), -1, dtype=np.int64)
        if not tokens or len(hashes) == 0:
            return out
        h = token_hash64(tokens) if token_hashes is None else \
            np.asarray(token_hashes, dtype=np.uint64)
        lo = np.searchsorted(hashes, h, side="left")
        hi = np.searchsorted(hashes, h, side="right")
        found = np.nonzero(hi > lo)[0]
        if not len(found):
            return out
        # a 64-bit collision is possible, never assumed away: the first token of each hash
        # is compared byte for byte in one vectorized pass, the rare others one by one
        want = [tokens[i].encode("utf-8") for i in found]
        wlen = np.fromiter(map(len, want), dtype=np.int64, count=len(want))
        tid = np.asarray(ids[lo[found]], dtype=np.int64)
        start = np.asarray(off[tid], dtype=np.int64)
        same = np.asarray(off[tid + 1], dtype=np.int64) - start == wlen
        k = np.nonzero(same)[0]
        lens = wlen[k]
        total = int(lens.sum())
        ok = np.zeros(len(found), dtype=bool)
        if len(k):
            pos = np.repeat(start[k] - np.cumsum(lens) + lens, lens) + np.arange(total)
            stored = np.asarray(data[pos]) if total else np.zeros(0, np.uint8)
            wanted = np.frombuffer(b"".join(want[i] for i in k), dtype=np.uint8)
            bad = np.bincount(np.repeat(np.arange(len(k)), lens), weights=stored != wanted,
                              minlength=len(k))
            ok[k] = bad == 0
        out[found[ok]] = tid[ok]
        for n in np.nonzero(~ok & (hi[found] - lo[found] > 1))[0]:
            i = found[n]
            for j in range(lo[i] + 1, hi[i]):
                t = int(ids[j])
                if bytes(data[off[t]:off[t + 1]]) == want[n]:
                    out[i] = t
                    break
        return out

    @cached_property
    def signatures(self) -> np.ndarray:
        return self.load_npy("minhash/signatures.npy")

    @cached_property
    def joinstats(self) -> JoinStats | None:
        """Rows per value and value shapes per column (None: built without them)."""
        return JoinStats.load(self) if self.has(JOINSTATS) else None

    def check_arrays(self) -> None:
        """Bounds of every value of the core arrays that sizes an allocation or indexes
        another array (counts, CSR pointers, ids): a damaged index (opened without checksum
        verification) fails here with a clear error instead of making a search allocate
        gigabytes. One pass over the id arrays; ``signatures`` are checked by shape."""
        n_sets, n_tokens = self.n_sets, self.n_tokens
        check_ok(self.path, "manifest counts", n_sets >= 0 and n_tokens >= 0,
               f"columns={n_sets}, tokens={n_tokens}")
        a = self.arrays
        for name, rel in ARRAY_FILES.items():
            arr = getattr(a, name)
            check_ok(self.path, rel, arr.ndim == 1 and arr.dtype.kind in "iu",
                   f"{arr.dtype} array of {arr.ndim} dimensions, expected integers")
        check_csr(self.path, ARRAY_FILES["sets_indptr"], a.sets_indptr, n_sets, len(a.sets_tokens))
        check_csr(self.path, ARRAY_FILES["post_indptr"], a.post_indptr, n_tokens, len(a.post_sets))
        nnz = len(a.post_sets)
        check_ok(self.path, "postings", len(a.post_pos) == nnz and len(a.post_sizes) == nnz
               and len(a.sets_tokens) == nnz, "postings and sets hold different numbers of entries")
        max_size = int(np.diff(a.sets_indptr).max()) if n_sets else 0
        check_range(self.path, ARRAY_FILES["sets_tokens"], a.sets_tokens, 0, n_tokens)
        check_range(self.path, ARRAY_FILES["post_sets"], a.post_sets, 0, n_sets)
        check_range(self.path, ARRAY_FILES["post_sizes"], a.post_sizes, 1, max_size + 1)
        check_range(self.path, ARRAY_FILES["post_pos"], a.post_pos, 0, max_size)
        check_ok(self.path, ARRAY_FILES["token_freq"], len(a.token_freq) == n_tokens,
               f"{len(a.token_freq)} entries for {n_tokens} tokens")
        check_range(self.path, ARRAY_FILES["token_freq"], a.token_freq, 1, n_sets + 1)
        check_ok(self.path, ARRAY_FILES["token_group"], len(a.token_group) == n_tokens,
               f"{len(a.token_group)} entries for {n_tokens} tokens")
        check_range(self.path, ARRAY_FILES["token_group"], a.token_group, 0, n_tokens)
        hashes, ids, off, data = self._dictionary
        check_ok(self.path, "dictionary/hash_sorted.npy", len(hashes) == n_tokens,
               f"{len(hashes)} entries for {n_tokens} tokens")
        check_ok(self.path, "dictionary/hash_ids.npy", len(ids) == n_tokens,
               f"{len(ids)} entries for {n_tokens} tokens")
        check_range(self.path, "dictionary/hash_ids.npy", ids, 0, n_tokens)
        check_csr(self.path, "dictionary/values_offsets.npy", off, n_tokens, len(data))
        if self.has("minhash"):
            sig = self.signatures
            num_perm = int(self.components["minhash"].get("num_perm", -1))
            check_ok(self.path, "minhash/signatures.npy", sig.shape == (n_sets, num_perm),
                   f"shape {sig.shape}, expected ({n_sets}, {num_perm})")
        if self.has(JOINSTATS):
            self.check_joinstats()

    def check_joinstats(self) -> None:
        """Bounds of the join statistics (index/joinstats.py): the CSR pointers, token ids
        of this generation, row counts of at least 2, token ids ascending within a column
        (a search looks counts up by binary search)."""
        ind, tok, cnt = (self.load_npy(JOINSTATS_FILES[n])
                         for n in ("dup_indptr", "dup_tokens", "dup_counts"))
        for name, arr in (("dup_tokens", tok), ("dup_counts", cnt)):
            check_ok(self.path, JOINSTATS_FILES[name], arr.ndim == 1 and arr.dtype.kind in "iu",
                     f"{arr.dtype} array of {arr.ndim} dimensions, expected integers")
        check_csr(self.path, JOINSTATS_FILES["dup_indptr"], ind, self.n_sets, len(tok))
        check_ok(self.path, JOINSTATS_FILES["dup_counts"], len(cnt) == len(tok),
                 f"{len(cnt)} counts for {len(tok)} tokens")
        check_range(self.path, JOINSTATS_FILES["dup_tokens"], tok, 0, self.n_tokens)
        check_range(self.path, JOINSTATS_FILES["dup_counts"], cnt, 2, 2 ** 31)
        if len(tok) > 1:
            rising = np.diff(tok) > 0
            starts = np.asarray(ind[1:-1])
            starts = starts[(starts > 0) & (starts < len(tok))]
            rising[starts - 1] = True            # a column's first token follows another's
            check_ok(self.path, JOINSTATS_FILES["dup_tokens"], bool(rising.all()),
                     "token ids are not ascending within a column")

    def column_label(self, column_id: int) -> tuple[str, str]:
        """(table name, column name) of a local column id."""
        row = self.columns.iloc[int(column_id)]
        return self.tables.iloc[int(row["table_id"])]["name"], row["name"]

    def __repr__(self):
        c = self.manifest.get("counts", {})
        return (f"<lakejoin Generation {self.name} at {self.path}: {c.get('tables')} tables, "
                f"{c.get('columns')} columns, {c.get('tokens')} distinct values>")


def check_ok(path: Path, rel: str, ok: bool, what: str) -> None:
    if not ok:
        raise IndexCorruptError(f"{path}: {rel} is damaged ({what}); rebuild the index.")


def check_csr(path: Path, rel: str, indptr: np.ndarray, n_rows: int, n_entries: int) -> None:
    """A CSR pointer array: n_rows + 1 entries, from 0 to n_entries, never decreasing."""
    check_ok(path, rel, indptr.ndim == 1 and indptr.dtype.kind in "iu" and len(indptr) == n_rows + 1,
           f"{indptr.dtype} array of shape {indptr.shape}, expected {n_rows + 1} integers")
    check_ok(path, rel, int(indptr[0]) == 0 and int(indptr[-1]) == n_entries,
           f"it runs from {int(indptr[0])} to {int(indptr[-1])}, expected 0 to {n_entries}")
    check_ok(path, rel, bool(np.all(indptr[1:] >= indptr[:-1])), "its offsets decrease")


def check_range(path: Path, rel: str, arr: np.ndarray, lo: int, hi: int) -> None:
    """Every value in [lo, hi)."""
    if len(arr):
        mn, mx = int(arr.min()), int(arr.max())
        check_ok(path, rel, lo <= mn and mx < hi,
               f"values from {mn} to {mx}, expected {lo} to {hi - 1}")


def _file_identity(path: Path) -> tuple:
    st = path.stat()
    return st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size


class LakeIndex:
    """An opened index: all its generations and the global catalog (read-only)."""

    def __init__(self, path, verify: bool = True, check_lake: bool = True):
        self.path = Path(path).expanduser().absolute()
        self.recovered = None
        if not self.path.exists():
            self.recovered = _recover_on_open(self.path)
            if self.recovered:
                warnings.warn(self.recovered[0].upper() + self.recovered[1:] + ".",
                              IndexRecoveredWarning, stacklevel=3)
        self.manifest = read_manifest(self.path)
        swept = _remove_dead_builds_on_open(self.path)
        if swept:
            warnings.warn(swept[0].upper() + swept[1:] + ".", IndexRecoveredWarning, stacklevel=3)
        self._opened = _file_identity(self.path / MANIFEST)
        verify_files(self.path, self.manifest, checksums=verify)
        self.generations = [Generation(self.path, self.manifest)]
        for g in self.manifest.get("generations", []):
            gpath = self.path / GENERATIONS / g["name"]
            gman = _read_generation(gpath)
            verify_files(gpath, gman, checksums=verify)
            self.generations.append(Generation(gpath, gman, g["name"], g["column_offset"], g["table_offset"]))
        for generation in self.generations:
            generation.check_arrays()
            generation.check_fold()
        self.lake_changes: list[str] = []
        if check_lake:
            self.lake_changes = self.find_lake_changes()
            if self.lake_changes:
                warnings.warn(self.lake_changed_message(self.lake_changes),
                              LakeChangedWarning, stacklevel=3)

    def find_lake_changes(self) -> list[str]:
        """What changed in the lake (files added, removed or modified) since the build and
        the adds of this index (empty: nothing). What a look learns is kept for the next
        (discover.py ``fingerprint_changes``: a file or folder whose time stamp did not
        move is not hashed or listed again)."""
        from ..lake.discover import fingerprint_changes
        known = {uri for gen in self.generations          # a file added with --add
                 for uri in gen.manifest.get("lake", {}).get("files", {})}
        looked = self.__dict__.setdefault("_looked", {})
        changes = []
        for gen in self.generations:
            changes += fingerprint_changes(gen.manifest.get("lake", {}), known,
                                           looked.setdefault(gen.name, {}))
        return changes

    def lake_changed_message(self, changes: list[str]) -> str:
        """The LakeChangedWarning's text: the changes and the command that rebuilds the
        index as it was built (its options and added tables kept)."""
        shown = "; ".join(changes[:5])
        more = f" (and {len(changes) - 5} more)" if len(changes) > 5 else ""
        return (f"The lake changed since {self.path.name} was built: {shown}{more}. "
                f"Results reflect the lake as it was at build time; rebuild the index "
                f"to include the changes ({self.rebuild_command}).")

    @property
    def rebuild_command(self) -> str:
        """The command(s) that rebuild this index as it was built (:func:`rebuild_command`)."""
        return rebuild_command(self.path, self.manifest)

    def has(self, component: str) -> bool:
        return all(p.has(component) for p in self.generations)

    def check_present(self) -> None:
        """Raise when the folder no longer holds the index that was opened (its memory-mapped
        arrays would keep answering from deleted files): the folder deleted or moved, files
        of it deleted, or another build (or ``--add``) replacing its manifest."""
        mpath = self.path / MANIFEST
        rebuild = f"Rebuild it ({self.rebuild_command}) or open another index."
        if not mpath.is_file():
            raise IndexNotFoundError(
                f"The index {self.path} was deleted or moved while it was open. {rebuild}")
        if _file_identity(mpath) != self._opened:
            raise IndexCorruptError(
                f"The index {self.path} was replaced on disk (rebuilt or added to) while it "
                f"was open; open it again (`%lakejoin open {self.path}`, or open_index()).")
        missing = [str(g.path.relative_to(self.path) / rel) if g.path != self.path else rel
                   for g in self.generations for rel in g.manifest.get("files", {})
                   if not (g.path / rel).is_file()]
        if missing:
            raise IndexCorruptError(
                f"{len(missing)} file(s) of the index {self.path} were deleted while it was "
                f"open, e.g. {', '.join(missing[:3])}. {rebuild}")

    @property
    def notes(self) -> list[str]:
        """What this index cannot answer as well as a fresh build would."""
        if self.has(JOINSTATS):
            return []
        version = self.manifest.get("format_version")
        import shlex
        add = (f"Add them with `lakejoin index --add joinstats {shlex.quote(str(self.path))}` "
               f"(or rebuild: {self.rebuild_command}).")
        if self.has("mate"):
            return [f"{self.path.name} was built without join statistics (index format "
                    f"{version}): join rows are counted from its MATE index, key kinds are "
                    f"estimated from the column profile. {add}"]
        return [f"{self.path.name} was built without join statistics (index format {version}): "
                f"join rows, fan-out and key kinds are estimated from the column profile. "
                f"Rebuild to get join estimates from exact row counts. {add}"]

    @property
    def components(self) -> dict:
        """The base generation's component sections: the parameters (num_perm, XASH size,
        partitions, embedder...) that added generations reuse."""
        return self.generations[0].components

    def embedder(self, component: str):
        """The embedder ``component`` was built with (:meth:`Generation.embedder`)."""
        return self.generations[0].embedder(component)

    @property
    def n_sets(self) -> int:
        return sum(p.n_sets for p in self.generations)

    @cached_property
    def tables(self) -> pd.DataFrame:
        frames = []
        for p in self.generations:
            t = p.tables.copy()
            t["table_id"] += p.table_offset
            t["first_column_id"] = np.where(t["first_column_id"] >= 0,
                                            t["first_column_id"] + p.column_offset, -1)
            t["generation"] = p.name
            frames.append(t)
        return pd.concat(frames, ignore_index=True)

    @cached_property
    def columns(self) -> pd.DataFrame:
        frames = []
        for p in self.generations:
            c = p.columns.copy()
            c["column_id"] += p.column_offset
            c["table_id"] += p.table_offset
            frames.append(c)
        return pd.concat(frames, ignore_index=True)

    def generation_of(self, column_id: int) -> tuple[Generation, int]:
        """The generation holding a global column id, and the local id there."""
        for p in reversed(self.generations):
            if column_id >= p.column_offset:
                local = column_id - p.column_offset
                if local >= p.n_sets:
                    break
                return p, local
        raise KeyError(f"No column with id {column_id} (the index has {self.n_sets}).")

    def column_label(self, column_id: int) -> tuple[str, str]:
        row = self.columns.iloc[int(column_id)]
        return self.tables.iloc[int(row["table_id"])]["name"], row["name"]

    def find_column(self, table: str, column: str) -> int:
        """Global column id of TABLE.COLUMN (table by name or path)."""
        t = self.tables
        hit = t[(t["name"] == table) | (t["path"] == table)]
        if hit.empty:
            hit = t[t["uri"] == table]
        if hit.empty:
            close = [n for n in t["name"] if table.lower() in n.lower()][:5]
            raise KeyError(f"No table {table!r} in the index" + (f"; did you mean {close}?" if close else "."))
        if len(hit) > 1:              # a name an --add older than its check gave two tables
            raise KeyError(f"{len(hit)} tables of the index are named {table!r} (files "
                           f"{', '.join(repr(str(u)) for u in hit['uri'])}): name one by its file.")
        tid = int(hit.iloc[0]["table_id"])
        cols = self.columns[self.columns["table_id"] == tid]
        c = cols[cols["name"] == column]
        if c.empty:
            raise KeyError(f"Table {table!r} has no column {column!r}; its columns: {list(cols['name'])}")
        return int(c.iloc[0]["column_id"])

    @property
    def size_label(self) -> str:
        """"41 tables, 110 columns, ..." over every generation, as the notebook shows it."""
        indexed = int((self.tables["status"] == "indexed").sum())
        text = f"{indexed:,} tables, {self.n_sets:,} columns"
        added = len(self.generations) - 1
        if added:
            return text + f" ({added} added generation{'s' if added > 1 else ''})"
        return text + f", {int(self.manifest.get('counts', {}).get('tokens', 0)):,} distinct values"

    def __repr__(self):
        n_tables = len(self.tables)
        gens = f", {len(self.generations) - 1} added generation(s)" if len(self.generations) > 1 else ""
        return (f"<lakejoin index {self.path}: {n_tables} tables, {self.n_sets} columns{gens}>")


def _read_generation(gpath: Path) -> dict:
    mpath = gpath / GENERATION_MANIFEST
    if not mpath.is_file():
        raise IndexCorruptError(f"{gpath}: {GENERATION_MANIFEST} is missing; the generation "
                                f"listed in the manifest was removed. Rebuild the index.")
    try:
        return json.loads(mpath.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise IndexCorruptError(f"{mpath} is not valid JSON ({e}); rebuild the index.") from e
