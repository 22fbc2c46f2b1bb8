"""SparkSession factory: quiet, correctly wired, any master.

* ``local[*]`` by default; any master (``spark://``, ``yarn``, ``k8s://``) by argument or
  ``LAKEJOIN_SPARK_MASTER``.
* Python workers run the interpreter we run in (PYSPARK_PYTHON), or pandas UDFs would start
  the system Python without pandas. On a non-local
  master the package itself is shipped to the executors as a zip. Workers run with
  PYTHONSAFEPATH, so a ``lakejoin_jupyter`` folder in the working directory (another
  checkout) does not shadow the package the driver runs.
* The JVM's startup chatter goes to a log file, not into notebook cells; the
  console progress bar and the UI are off; the log level is ERROR.
* Java is checked first: missing or older than 17 gives a message that says how to install it.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

from .config import SparkSettings
from .errors import JavaNotFoundError, SparkStartError

MIN_JAVA = 17
_JAVA_HELP = (
    "lakejoin_jupyter builds its index with Apache Spark 4, which needs Java 17 or 21. "
    "Install it (Debian/Ubuntu: `sudo apt-get install openjdk-17-jre-headless`; "
    "macOS: `brew install openjdk@17`; conda: `conda install -c conda-forge openjdk=17`) "
    "and make sure `java` is on PATH or JAVA_HOME points at it.")


def java_version(java: str | None = None) -> int:
    """Major version of the Java that Spark would use; raises JavaNotFoundError."""
    if java is None:
        home = os.environ.get("JAVA_HOME")
        java = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    if not java or not Path(java).exists():
        raise JavaNotFoundError(f"Java was not found. {_JAVA_HELP}")
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        raise JavaNotFoundError(f"Running `{java} -version` failed ({e}). {_JAVA_HELP}") from e
    text = out.stderr + out.stdout
    m = re.search(r'version "(\d+)(?:\.(\d+))?', text)
    if not m:
        raise JavaNotFoundError(f"Could not read the Java version from `{java} -version` "
                                f"({text.strip()[:200]!r}). {_JAVA_HELP}")
    major = int(m.group(1))
    if major == 1 and m.group(2):  # "1.8.0_292" is Java 8
        major = int(m.group(2))
    if major < MIN_JAVA:
        raise JavaNotFoundError(f"Java {major} found at {java}, but Spark 4 needs Java "
                                f"{MIN_JAVA} or newer. {_JAVA_HELP}")
    return major


@contextlib.contextmanager
def _jvm_output_to(path: Path):
    """Send fd 1/2 to a log file while the JVM starts (it keeps them for its lifetime)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # noqa: BLE001
        pass
    saved = os.dup(1), os.dup(2)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    try:
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


def _make_package_importable_by_workers() -> None:
    """Local Python workers inherit PYTHONPATH: put this package's folder on it, so UDFs
    resolve lakejoin_jupyter even when it runs from a source tree rather than an install."""
    parent = str(Path(__file__).resolve().parent.parent)
    current = os.environ.get("PYTHONPATH", "")
    if parent not in current.split(os.pathsep):
        os.environ["PYTHONPATH"] = parent + (os.pathsep + current if current else "")


_lock = threading.Lock()
_package_zip: str | None = None


def _zip_package() -> str:
    """The lakejoin_jupyter package as a zip, for executors on a non-local master."""
    global _package_zip
    if _package_zip and Path(_package_zip).exists():
        return _package_zip
    src = Path(__file__).resolve().parent
    out = Path(tempfile.mkdtemp(prefix="lakejoin-pkg-")) / "lakejoin_jupyter.zip"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for f in src.rglob("*.py"):
            z.write(f, Path("lakejoin_jupyter") / f.relative_to(src))
    _package_zip = str(out)
    return _package_zip


def get_spark(settings: SparkSettings | None = None, master: str | None = None):
    """The active SparkSession, or a new one configured as described in the module doc.

    An existing session (for example one the user created in the notebook) is reused as it
    is, whatever its master.
    """
    from pyspark.sql import SparkSession

    settings = (settings or SparkSettings()).with_master(master)
    with _lock:
        active = SparkSession.getActiveSession()
        if active is not None and (master is None or active.sparkContext.master == settings.master):
            return active
        if active is not None:
            active.stop()
        java_version()
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        _make_package_importable_by_workers()
        log_dir = Path(settings.log_dir)
        log_dir.mkdir(parents=True, exist_ok=True)
        log = log_dir / "spark-jvm.log"
        b = (SparkSession.builder.master(settings.master).appName(settings.app_name)
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", str(settings.shuffle_partitions))
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.sql.execution.arrow.maxRecordsPerBatch", "20000")
             .config("spark.driver.memory", settings.driver_memory)
             .config("spark.pyspark.python", os.environ["PYSPARK_PYTHON"])
             .config("spark.executorEnv.PYSPARK_PYTHON", os.environ["PYSPARK_PYTHON"])
             # workers start as `python -m pyspark.daemon`, which puts their working
             # directory first on sys.path: a lakejoin_jupyter folder there (another
             # checkout) would shadow this package in every UDF
             .config("spark.executorEnv.PYTHONSAFEPATH", "1")
             .config("spark.sql.session.timeZone", "UTC"))
        if not settings.master.startswith("local"):
            b = b.config("spark.driver.host", os.environ.get("SPARK_LOCAL_IP", "127.0.0.1"))
        if settings.executor_memory:
            b = b.config("spark.executor.memory", settings.executor_memory)
        if settings.local_dir:
            b = b.config("spark.local.dir", settings.local_dir)
        for k, v in settings.extra.items():
            b = b.config(k, v)
        try:
            with _jvm_output_to(log):
                spark = b.getOrCreate()
        except Exception as e:  # noqa: BLE001
            tail = ""
            with contextlib.suppress(OSError):
                tail = "\n".join(log.read_text(errors="replace").splitlines()[-15:])
            raise SparkStartError(
                f"Spark did not start with master {settings.master!r}: {e}\n"
                f"Last lines of {log}:\n{tail}") from e
        spark.sparkContext.setLogLevel("ERROR")
        if not settings.master.startswith("local"):
            spark.sparkContext.addPyFile(_zip_package())
        return spark


class SparkProgress:
    """Shows the progress of a build: Spark tasks done / total per phase.

    In a notebook: a tqdm widget bar; in a terminal: a tqdm text bar; when stderr is not
    a terminal (CI logs, pipes): one line per phase with its duration. ``step(name)``
    starts a phase. ``callback(phase, done, total)`` receives the same numbers (the
    notebook widget uses it). ``enabled=False`` keeps it silent (tests).
    """

    def __init__(self, spark, description: str = "lakejoin", enabled: bool = True,
                 interval: float = 0.5, callback=None):
        self.sc = spark.sparkContext
        self.description = description
        self.enabled = enabled
        self.interval = interval
        self.callback = callback
        self.phase = ""
        self._phase_started = time.time()
        self._stop = threading.Event()
        self._thread = None
        self._bar = None
        self._lines = False
        self._seen_stages: dict[int, tuple[int, int]] = {}
        self._last = None
        self.phase_seconds: dict[str, float] = {}   # phase -> wall seconds

    def step(self, phase: str) -> None:
        if self.phase:
            took = time.time() - self._phase_started
            self.phase_seconds[self.phase] = round(self.phase_seconds.get(self.phase, 0) + took, 3)
            if self._lines:
                print(f"[{self.description}] {self.phase}: {took:.1f} s", file=sys.stderr, flush=True)
        self.phase = phase
        self._phase_started = time.time()
        if self.callback:
            self.callback(phase, None, None)

    def _poll(self):
        tracker = self.sc.statusTracker()
        while not self._stop.is_set():
            try:
                for sid in tracker.getActiveStageIds():
                    info = tracker.getStageInfo(sid)
                    if info is not None:
                        self._seen_stages[sid] = (info.numCompletedTasks, info.numTasks)
                done = sum(d for d, _ in self._seen_stages.values())
                total = sum(t for _, t in self._seen_stages.values())
                state = (self.phase, done, total)
                if state != self._last:
                    self._last = state
                    if self.callback:
                        self.callback(self.phase, done, total)
                    if self._bar is not None:
                        self._bar.total = max(total, 1)
                        self._bar.n = done
                        self._bar.set_description(f"{self.description}: {self.phase}", refresh=False)
                        self._bar.refresh()
            except Exception:  # noqa: BLE001 - progress is best effort
                pass
            self._stop.wait(self.interval)

    def __enter__(self):
        if self.enabled:
            in_notebook = "ipykernel" in sys.modules
            if in_notebook or sys.stderr.isatty():
                from tqdm.auto import tqdm
                self._bar = tqdm(total=1, desc=self.description, unit="task", leave=True,
                                 file=sys.stderr, dynamic_ncols=True)
            else:
                self._lines = True
        if self._bar is not None or self.callback:
            self._thread = threading.Thread(target=self._poll, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        self.step("")
        if self._bar is not None:
            self._bar.set_description(f"{self.description}: done" if exc[0] is None
                                      else f"{self.description}: failed")
            self._bar.n = self._bar.total
            self._bar.close()
        return False


def wait_for(predicate, timeout: float, interval: float = 0.2) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
