"""The lock on an index path: one build (or add) at a time writes a given index.

The lock is ``.<name>.lakejoin-lock`` beside the index folder. Holding it means holding an
exclusive ``flock`` on that file, which the kernel releases when the process ends however
it ends (kill -9 included), so a lock can never be left held by a dead build. The file
records the holder (pid, host, start time, command): a refused build names it, and the
next build learns that a previous holder died (its record is still there, unlocked). On a
filesystem without ``flock`` the record alone decides: a holder on this host whose pid is
gone, or now belongs to a process started at another time, is dead.
"""
from __future__ import annotations

import datetime as _dt
import errno
import json
import os
import socket
import sys
from pathlib import Path

from ..errors import IndexLockedError

LOCK_SUFFIX = ".lakejoin-lock"

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None


def lock_path(final: Path) -> Path:
    return final.parent / f".{final.name}{LOCK_SUFFIX}"


def _proc_start(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), to tell a reused pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def holder_alive(record: dict) -> bool:
    """Whether the process a lock record names may still run (another host: assume so)."""
    if record.get("host") != socket.gethostname():
        return True
    pid = int(record.get("pid", -1))
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass                       # alive, another user's
    started = record.get("proc_start")
    return started is None or _proc_start(pid) in (None, started)


def describe(record: dict | None) -> str:
    if not record:
        return "a build that is just starting"
    cmd = record.get("command", "")
    return (f"pid {record.get('pid')} on host {record.get('host')}, started "
            f"{record.get('started', '?')}" + (f": `{cmd}`" if cmd else ""))


def own_build(record: dict) -> bool:
    """Whether a lock record names this very process."""
    return (record.get("host") == socket.gethostname()
            and str(record.get("pid")) == str(os.getpid()))


def running_build(final) -> dict | None:
    """The record of a build now writing ``final`` ({} while it is just starting), or None.
    Reads the lock's record only: it never takes the lock, so it cannot refuse a build."""
    try:
        data = lock_path(Path(final)).read_bytes()
    except OSError:
        return None
    try:
        record = json.loads(data) if data.strip() else {}
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return record if not record or holder_alive(record) else None


def _flock(fd: int) -> bool | None:
    """True: locked; False: another process holds it; None: the filesystem has no flock."""
    if fcntl is None:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    except OSError as e:
        if e.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
            return None
        raise


def _read(fd: int) -> dict | None:
    os.lseek(fd, 0, os.SEEK_SET)
    data = b""
    while chunk := os.read(fd, 1 << 16):
        data += chunk
    try:
        return json.loads(data) if data.strip() else None
    except (json.JSONDecodeError, UnicodeDecodeError):
        return {"pid": -1, "host": "?", "started": "?", "command": "(unreadable lock record)"}


def _record() -> dict:
    return {"pid": os.getpid(), "host": socket.gethostname(), "proc_start": _proc_start(os.getpid()),
            "started": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
            "command": " ".join(sys.argv)[:300]}


class BuildLock:
    """``with BuildLock(index_path) as lock:`` holds the path's lock for the block (released
    on every exit, exceptions and KeyboardInterrupt included). ``lock.dead`` is the record
    of a previous holder that died holding it (None if there was none)."""

    def __init__(self, final):
        self.final = Path(final)
        self.path = lock_path(self.final)
        self.fd: int | None = None
        self.dead: dict | None = None

    def acquire(self) -> "BuildLock":
        for _ in range(20):        # the file may be replaced under us: retry
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                got = _flock(fd)
                record = _read(fd)
                if got is None:    # no flock here: the record decides
                    got = record is None or not holder_alive(record)
                if not got:
                    raise IndexLockedError(
                        f"Another build is writing {self.final} ({describe(record)}). Wait for "
                        f"it to finish (or stop it), then build again; two builds of one path "
                        f"would replace each other's index.")
                if not self._still_ours(fd):
                    os.close(fd)
                    continue
                os.ftruncate(fd, 0)
                os.lseek(fd, 0, os.SEEK_SET)
                os.write(fd, json.dumps(_record()).encode())
                os.fsync(fd)
            except BaseException:
                os.close(fd)
                raise
            self.fd, self.dead = fd, record
            return self
        raise IndexLockedError(f"Could not take the lock {self.path}: it keeps being replaced.")

    def _still_ours(self, fd: int) -> bool:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return False
        own = os.fstat(fd)
        return (st.st_ino, st.st_dev) == (own.st_ino, own.st_dev)

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            if self._still_ours(self.fd):
                os.unlink(self.path)
        except OSError:
            pass
        finally:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> "BuildLock":
        return self.acquire()

    def __exit__(self, *exc) -> bool:
        self.release()
        return False
