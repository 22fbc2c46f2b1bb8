"""SparkSession factory: quiet, correctly wired, any master.

* ``local[*]`` by default; any master (``spark://``, ``yarn``, ``k8s://``) by argument or
  ``LAKEJOIN_SPARK_MASTER``.
* Python workers run the interpreter we run in (PYSPARK_PYTHON), or pandas UDFs would start
  the system Python without pandas. On a non-local
  master the package itself is shipped to the executors as a zip. Workers run with
  PYTHONSAFEPATH, so a ``lakejoin_jupyter`` folder in the working directory (another
  checkout) does not shadow the package the driver runs.
* A session the user made is used as it is, but its Python workers are checked first
  (:func:`ensure_worker_python`): on a local master, workers that could not import this
  package (PYSPARK_PYTHON unset, and ``python3`` on PATH is another interpreter) are
  switched to the interpreter we run in; elsewhere a clear error says how to fix it.
* The JVM's startup chatter goes to a log file, not into notebook cells; the
  console progress bar and the UI are off; the log level is ERROR.
* Java is checked first: missing or older than 17 gives a message that says how to install it;
  a ``spark://`` master that does not answer on its port fails at once, naming it.
* The driver JVM loads Spark's classes from a class-data-sharing archive
  (:func:`_class_sharing_options`): the first session writes it when its JVM exits
  (``SparkSettings.class_cache_dir``, ``~/.cache/lakejoin/jvm``), later ones map it,
  which saves about a third of a small build's JVM CPU. ``class_cache=False``
  (``LAKEJOIN_JVM_CLASS_CACHE=0``) turns it off; user-given driver Java options that
  already choose an archive are left alone.
* A failing Spark job (:func:`spark_job`) becomes one line, its cause, with the full
  traceback (Python and Java) written to a log file the line names; py4j's own logging of
  an interrupted or broken call (:func:`quiet_py4j`) is dropped meanwhile. The collects
  of the build, and a search's or join's (a Spark query frame, the distributed search), are
  run again when PySpark fails to fetch their results (:func:`fetch_results`).
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
import zipfile
from pathlib import Path

from .config import SparkSettings
from .errors import (JavaNotFoundError, SparkJobError, SparkStartError, SparkWorkerPythonError,
                     WorkerPythonWarning)

MIN_JAVA = 17
_JAVA_HELP = (
    "lakejoin_jupyter builds its index with Apache Spark 4, which needs Java 17 or 21. "
    "Install it (Debian/Ubuntu: `sudo apt-get install openjdk-17-jre-headless`; "
    "macOS: `brew install openjdk@17`; conda: `conda install -c conda-forge openjdk=17`) "
    "and make sure `java` is on PATH or JAVA_HOME points at it.")


_java_seen: list = []     # [(java executable, what `java -version` printed)], the last check


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
    _java_seen[:] = [(java, text)]
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
_archive_pending: dict = {}     # id of the gateway's process -> (archive being written, its final path)


def _class_archive_path(folder: str) -> Path | None:
    """Where this Java + PySpark's class archive lives in ``folder`` (None: cannot tell
    which Java)."""
    import hashlib

    import pyspark

    if not _java_seen:
        return None
    jars = Path(pyspark.__file__).parent / "jars"
    names = sorted(p.name for p in jars.glob("*.jar")) if jars.is_dir() else []
    key = hashlib.sha256("\n".join([*_java_seen[0], pyspark.__version__,
                                     str(jars), *names]).encode()).hexdigest()[:16]
    return Path(folder) / f"spark-{pyspark.__version__}-{key}.jsa"


def _class_sharing_options(settings: SparkSettings) -> tuple[str, Path | None, Path | None]:
    """Driver Java options for class data sharing: map the archive if it exists, else ask
    the JVM to write one at exit (to a temporary name that :func:`stop_spark` renames into
    place, so a JVM killed halfway never leaves a broken archive). Returns (options,
    temporary archive, final archive); options "" when off or already chosen by the user."""
    user = settings.extra.get("spark.driver.extraJavaOptions", "")
    if not settings.class_cache or any(
            flag in user for flag in ("SharedArchiveFile", "ArchiveClassesAtExit", "Xshare")):
        return "", None, None
    final = _class_archive_path(settings.class_cache_dir)
    if final is None:
        return "", None, None
    if final.exists() and final.stat().st_size > 0:
        return f"-XX:SharedArchiveFile={final}", None, None
    with contextlib.suppress(OSError):
        final.parent.mkdir(parents=True, exist_ok=True)
        for old in final.parent.glob(final.name + ".tmp-*"):   # left by JVMs no one stopped
            with contextlib.suppress(ValueError, OSError):
                pid = int(old.name.rsplit("-", 1)[1])
                if not Path(f"/proc/{pid}").exists():
                    old.unlink()
        tmp = final.with_name(f"{final.name}.tmp-{os.getpid()}")
        return f"-XX:ArchiveClassesAtExit={tmp}", tmp, final
    return "", None, None


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


MASTER_TIMEOUT = 10.0   # seconds to wait for a spark:// master to accept a connection


def check_master_reachable(master: str, timeout: float = MASTER_TIMEOUT) -> None:
    """Refuse a ``spark://host:port[,host:port...]`` master none of whose hosts accepts a
    connection (Spark itself would retry for a minute, then print a Java stack trace)."""
    if not master.startswith("spark://"):
        return
    problems = []
    for hostport in master[len("spark://"):].split(","):
        host, colon, port = hostport.strip().rpartition(":")
        if not colon or not port.isdigit():
            host, port = hostport.strip(), "7077"
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
            return
        except OSError as e:
            why = "no answer" if isinstance(e, TimeoutError) else (e.strerror or str(e))
            problems.append(f"{host}:{port}: {why}")
    raise SparkStartError(
        f"Cannot reach the Spark master {master} ({'; '.join(problems)}); check the URL "
        f"and that the master is running, or build with --master local[*].")


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
            ensure_worker_python(active)
            return active
        check_master_reachable(settings.master)
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
             # with simplified tracebacks on, SQL UDFs get their own worker daemon (an
             # extra environment variable): a second set of workers importing pyarrow
             # and pandas again (about a second); off, RDD and SQL tasks share workers
             .config("spark.sql.execution.pyspark.udf.simplifiedTraceback.enabled", "false")
             .config("spark.sql.session.timeZone", "UTC"))
        if not settings.master.startswith("local"):
            b = b.config("spark.driver.host", os.environ.get("SPARK_LOCAL_IP", "127.0.0.1"))
        if settings.executor_memory:
            b = b.config("spark.executor.memory", settings.executor_memory)
        if settings.local_dir:
            b = b.config("spark.local.dir", settings.local_dir)
        extra = dict(settings.extra)
        sharing, tmp_archive, final_archive = _class_sharing_options(settings)
        if sharing:
            extra["spark.driver.extraJavaOptions"] = " ".join(
                o for o in (extra.get("spark.driver.extraJavaOptions", ""), sharing) if o)
        for k, v in extra.items():
            b = b.config(k, v)
        try:
            with _jvm_output_to(log):
                spark = b.getOrCreate()
            if tmp_archive is not None:
                from pyspark import SparkContext
                proc = getattr(SparkContext._gateway, "proc", None)
                if proc is not None:
                    _archive_pending[id(proc)] = (tmp_archive, final_archive)
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
        ensure_worker_python(spark)     # a PYSPARK_PYTHON of the user's may lack the package
        return spark


# what the workers need to run a join's pandas UDFs
_WORKER_PROBE = ("import sys, pyarrow, lakejoin_jupyter.join.keys; "
                 "print('%d.%d' % sys.version_info[:2])")
_worker_checked: dict = {}      # (id of the SparkContext, python) -> None (fine) or why not


def _worker_python_problem(python: str) -> str | None:
    """Why Python workers running ``python`` (as Spark resolves it: on PATH) could not run
    this package's UDFs; None when they can."""
    exe = shutil.which(python) or python
    try:
        out = subprocess.run([exe, "-c", _WORKER_PROBE], capture_output=True, text=True,
                             timeout=120, env=os.environ.copy())
    except (OSError, subprocess.SubprocessError) as e:
        return f"it cannot be run ({e})"
    if out.returncode != 0:
        last = [ln for ln in out.stderr.splitlines() if ln.strip()]
        return f"it fails with {last[-1].strip() if last else f'exit code {out.returncode}'}"
    version = "%d.%d" % sys.version_info[:2]
    if out.stdout.strip() != version:
        return f"it is Python {out.stdout.strip()}, this one is Python {version}"
    return None


def ensure_worker_python(spark) -> None:
    """Make sure the Python workers of ``spark`` can import lakejoin_jupyter before a UDF of
    ours runs on it (a session the user made may start workers with ``python3`` from PATH:
    PySpark takes PYSPARK_PYTHON as it was when the session was made, and ignores a
    ``spark.pyspark.python`` given to the builder of a plain Python process).

    On a local master the workers are processes of this machine, so a broken choice is
    replaced by the interpreter we run in (``sys.executable``: same version, imports the
    package) for the rest of the session; a WorkerPythonWarning says so. Raises
    SparkWorkerPythonError when that interpreter cannot run them either. Remote masters
    are not checked (their workers cannot be probed from here)."""
    sc = getattr(spark, "sparkContext", None) if not _is_connect(spark) else None
    python = getattr(sc, "pythonExec", None)
    if sc is None or not python or not str(sc.master).startswith("local"):
        return
    if os.path.abspath(shutil.which(python) or python) == os.path.abspath(sys.executable):
        return                                          # this interpreter: it imports us
    key = (id(sc), python)
    if key not in _worker_checked:
        _worker_checked[key] = _worker_python_problem(python)
    problem = _worker_checked[key]
    if problem is None:
        return
    fix = (f"set PYSPARK_PYTHON before the session is created, e.g. `import os, sys; "
           f"os.environ['PYSPARK_PYTHON'] = sys.executable`, or create it with "
           f"`lakejoin_jupyter.spark.get_spark()`")
    own = sys.executable
    key_own = (id(sc), own)
    if key_own not in _worker_checked:
        _worker_checked[key_own] = _worker_python_problem(own)
    if _worker_checked[key_own] is not None:
        raise SparkWorkerPythonError(
            f"Spark's Python workers would run {python!r}, which cannot run lakejoin's "
            f"UDFs: {problem}; this Python ({own}) cannot either: "
            f"{_worker_checked[key_own]}. Install lakejoin_jupyter (with pandas and pyarrow) "
            f"for the Python the workers should use, and {fix}.")
    sc.pythonExec = own
    warnings.warn(
        f"lakejoin: Spark's Python workers would run {python!r}, which cannot run lakejoin's "
        f"UDFs ({problem}); this local session now starts them with {own} (the Python "
        f"running here). To choose yourself, {fix}.", WorkerPythonWarning, stacklevel=2)


def _is_connect(spark) -> bool:
    """Whether ``spark`` is a Spark Connect session (no SparkContext behind it)."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def session_running() -> bool:
    """Whether this process already has a SparkContext (ours or the user's)."""
    try:
        from pyspark import SparkContext
    except ImportError:  # pragma: no cover
        return False
    return SparkContext._active_spark_context is not None


def _close_accumulator_server_in_background(sc) -> None:
    """PySpark's ``SparkContext.stop`` ends by shutting down its accumulator server, whose
    handler polls a shutdown flag once a second: most of a second of every stop spent
    waiting. Flag it, take it from the context and let a daemon thread wait instead (the
    JVM may exit first: its connection's end is then expected, not an error to print)."""
    server = getattr(sc, "_accumulatorServer", None)
    if server is None:
        return
    sc._accumulatorServer = None
    server.server_shutdown = True
    server.handle_error = lambda request, client_address: None
    threading.Thread(target=server.shutdown, name="accumulator server shutdown",
                     daemon=True).start()


def stop_spark(spark, timeout: float = 30.0) -> bool:
    """Stop the session and the JVM behind it, so a notebook kernel does not keep the
    driver's heap after a build it started. The JVM exits when its stdin closes (PySpark
    starts it with a pipe for that); a later get_spark starts a new one. Returns whether
    the JVM wrote the class archive as it exited (:func:`_class_sharing_options`)."""
    from pyspark import SparkContext

    _close_accumulator_server_in_background(spark.sparkContext)
    spark.stop()
    gateway = SparkContext._gateway
    SparkContext._gateway = None
    SparkContext._jvm = None
    if gateway is None:
        return False
    proc = getattr(gateway, "proc", None)
    with contextlib.suppress(Exception):
        gateway.shutdown()
    if proc is not None:
        with contextlib.suppress(Exception):
            proc.stdin.close()
        try:     # a JVM writing the class archive at exit gets longer (once per machine)
            proc.wait(timeout=timeout if id(proc) not in _archive_pending else max(timeout, 300))
        except Exception:  # noqa: BLE001 - a JVM that does not exit is killed
            proc.kill()
            with contextlib.suppress(Exception):
                proc.wait(timeout=timeout)
        tmp, final = _archive_pending.pop(id(proc), (None, None))
        if tmp is not None:
            with contextlib.suppress(OSError):
                if proc.returncode == 0 and tmp.exists() and tmp.stat().st_size > 0:
                    os.replace(tmp, final)      # the JVM wrote it whole as it exited
                    return True
                tmp.unlink(missing_ok=True)
    return False


def spark_failure(exc: BaseException) -> str | None:
    """Why a Spark job failed, in one line (None: ``exc`` is not a Spark failure): a
    Python worker's own exception, or the task failure Spark reports, or the root cause."""
    texts = []
    try:
        from py4j.protocol import Py4JError, Py4JJavaError
        from pyspark.errors import PySparkException
    except ImportError:  # pragma: no cover
        return None
    if isinstance(exc, Py4JJavaError):
        with contextlib.suppress(Exception):     # the JVM may be gone
            j = exc.java_exception
            while j is not None and len(texts) < 20:
                texts.append(str(j.toString()))
                j = j.getCause()
        texts = texts or [str(exc)]
    elif isinstance(exc, (PySparkException, Py4JError)):
        texts = [str(exc)]
    else:
        return None
    for text in texts:
        worker = _python_traceback_last_line(text)
        if worker:
            return worker
    for text in texts:
        m = re.search(r"most recent failure: Lost task [^\n]*?\): ([^\n]+)", text)
        if m:
            return m.group(1).strip()[:400]
    lines = [ln.strip() for ln in texts[-1].splitlines() if ln.strip()]
    return (lines[0] if lines else type(exc).__name__)[:400]


def _python_traceback_last_line(text: str) -> str | None:
    """The final "ExcType: message" line of a Python traceback inside ``text``."""
    start = text.find("Traceback (most recent call last):")
    if start < 0:
        return None
    last = None
    for line in text[start:].splitlines()[1:]:
        if line.startswith(("\tat ", "Driver stacktrace", "JVM stacktrace")):
            break
        if line.strip() and not line[0].isspace() and not line.startswith(
                ("Traceback", "During handling", "The above exception")):
            last = line.strip()
    return last[:400] if last else None


class _DropPy4J(logging.Filter):
    """Drops records py4j logs through the root logger (``logging.exception(...)``)."""

    def __init__(self, folder: str):
        super().__init__()
        self.folder = folder

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.pathname.startswith(self.folder)


class _LastResort(logging.Handler):
    """Stands in for a missing root handler while py4j is quiet: without any, py4j's
    module-level ``logging.exception`` would call ``logging.basicConfig()`` for the user."""

    def emit(self, record: logging.LogRecord) -> None:
        if logging.lastResort is not None and record.levelno >= logging.lastResort.level:
            logging.lastResort.handle(record)


_quiet_lock = threading.Lock()
_quiet_state: dict = {"depth": 0}


@contextlib.contextmanager
def quiet_py4j():
    """While the block runs, py4j's own logging reaches no handler: an interrupted call logs
    "KeyboardInterrupt while sending command." and every call of another thread on the
    closed connection "Exception while sending command.", each with a traceback (about 80
    lines in a notebook cell); the caller reports the cause in one line instead. Nestable,
    and shared by threads (the widget builds in a background thread)."""
    try:
        import py4j
    except ImportError:  # pragma: no cover
        yield
        return
    root, py4j_log = logging.getLogger(), logging.getLogger("py4j")
    with _quiet_lock:
        st = _quiet_state
        if st["depth"] == 0:
            st["filter"] = _DropPy4J(os.path.dirname(py4j.__file__))
            root.addFilter(st["filter"])
            st["level"] = py4j_log.level
            py4j_log.setLevel(logging.CRITICAL + 1)      # py4j.java_gateway, py4j.clientserver
            st["handler"] = None
            if not root.handlers:
                st["handler"] = _LastResort()
                root.addHandler(st["handler"])
        st["depth"] += 1
    try:
        yield
    finally:
        with _quiet_lock:
            st["depth"] -= 1
            if st["depth"] == 0:
                root.removeFilter(st["filter"])
                py4j_log.setLevel(st["level"])
                if st["handler"] is not None:
                    root.removeHandler(st["handler"])


@contextlib.contextmanager
def spark_job(what: str, log_dir: str | None = None):
    """Turn a failing Spark job inside the block into a :class:`SparkJobError`: one line
    with the cause and the log file holding the full traceback."""
    try:
        with warnings.catch_warnings(), quiet_py4j():   # pyspark repeats the Java trace as a warning
            warnings.filterwarnings("ignore", message=".*attempted Arrow optimization")
            yield
    except Exception as e:  # noqa: BLE001 - re-raised unless it is a Spark failure
        if _from_interrupt(e):
            raise KeyboardInterrupt() from None
        cause = spark_failure(e)
        if cause is None:
            raise
        log = _failure_log(e, what, log_dir)
        raise SparkJobError(f"Spark failed while {what}: {cause} (full log: {log})",
                            str(log)) from None


def _from_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` arose while handling a KeyboardInterrupt: PySpark's SIGINT handler
    raises it inside a py4j call, and py4j, cleaning up the half-sent command, may raise
    a Py4JError of its own ("Gateway must be connected to send cancel cmd."). That is the
    user's interrupt, not a failing job."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _failure_log(exc: BaseException, what: str, log_dir: str | None) -> Path:
    folder = Path(log_dir or SparkSettings().log_dir)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    text = (f"lakejoin: Spark failed while {what}\n\n"
            + "".join(traceback.format_exception(exc)))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"spark-error-{stamp}-{os.getpid()}.log"
        path.write_text(text, encoding="utf-8")
    except OSError:
        fd, name = tempfile.mkstemp(prefix=f"lakejoin-spark-error-{stamp}-", suffix=".log")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        path = Path(name)
    return path


def _in_kernel() -> bool:
    """Whether this process is a Jupyter kernel (where a widget bar shows). ipykernel being
    imported is not enough: a test session or a tool may import it without being one."""
    if "ipykernel" not in sys.modules:
        return False
    try:
        from IPython import get_ipython
        return getattr(get_ipython(), "kernel", None) is not None
    except Exception:  # noqa: BLE001 - no IPython: not a kernel
        return False


def progress_line(description: str, text: str) -> None:
    """A progress line outside a :class:`SparkProgress` (after it closed), with the prefix
    its lines have: "description: text" where a bar shows (a notebook, a terminal),
    "[description] text" in a log."""
    if _in_kernel() or sys.stderr.isatty():
        print(f"{description}: {text}", file=sys.stderr, flush=True)
    else:
        print(f"[{description}] {text}", file=sys.stderr, flush=True)


class SparkProgress:
    """Shows the progress of a build: Spark tasks done / total per phase.

    In a notebook: a tqdm widget bar, shown again when it ends, so that the notebook saves
    its final state as the bar's text (the text of a widget is the one it had when shown);
    in a terminal: a tqdm text bar; when stderr is not
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
        self._shown = None            # the notebook bar's display (updated when it ends)
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

    def note(self, text: str) -> None:
        """A line of its own (phase sums, Spark start-up), shown like the phase lines."""
        if self._lines:
            print(f"[{self.description}] {text}", file=sys.stderr, flush=True)
        elif self._bar is not None:
            self._bar.write(f"{self.description}: {text}", file=sys.stderr)

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
            if _in_kernel() or sys.stderr.isatty():
                from tqdm.auto import tqdm
                from tqdm.notebook import tqdm as notebook_tqdm
                kw = dict(total=1, desc=self.description, unit="task", leave=True,
                          file=sys.stderr, dynamic_ncols=True)
                if issubclass(tqdm, notebook_tqdm):
                    from IPython.display import display
                    self._bar = tqdm(display=False, **kw)
                    self._shown = display(self._bar.container, display_id=True)
                    self._bar.displayed = True
                else:
                    self._bar = tqdm(**kw)
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
            if exc[0] is None:
                self._bar.set_description(f"{self.description}: done", refresh=False)
                self._bar.n = self._bar.total
            else:               # the bar stays where the build stopped, red in a notebook
                what = "interrupted" if issubclass(exc[0], KeyboardInterrupt) else "failed"
                self._bar.set_description(f"{self.description}: {what}", refresh=False)
                if hasattr(self._bar, "container"):          # tqdm.notebook: danger sticks
                    self._bar.disp(bar_style="danger", check_delay=False)
            self._bar.close()
            if self._shown is not None:     # its saved text: the end, not 0/1
                self._shown.update(self._bar.container)
        return False


def wait_for(predicate, timeout: float, interval: float = 0.2) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


RESULT_ATTEMPTS = 3          # fetch_results: tries of one collect / toPandas
RESULT_RETRY_PAUSE = 1.0     # seconds before the second try, twice that before the third


def _lost_result_socket(exc: BaseException | None) -> BaseException | None:
    """The connection error when ``exc`` is, or arose from, PySpark failing to connect to
    the local socket its JVM serves a job's results on (else None):
    ``pyspark.util._load_from_socket`` then closes, in its ``finally``, the socket it never
    opened, and raises ``UnboundLocalError`` naming ``sockfile`` (the connection error,
    CANNOT_OPEN_SOCKET, is its ``__context__``); an Arrow ``toPandas`` may raise its serving
    thread's failure on top of that."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, UnboundLocalError) and "'sockfile'" in str(exc):
            tb = exc.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            if tb is not None and tb.tb_frame.f_code.co_name == "_load_from_socket":
                return exc.__context__ or exc
        exc = exc.__context__
    return None


_LOST_SOCKET_WARNING = r"(?s)toPandas attempted Arrow optimization.*'sockfile'"


def fetch_results(action, what: str):
    """``action()``, a collect or toPandas of a Spark job, run again (at most
    ``RESULT_ATTEMPTS`` tries) when the driver could not connect to the JVM to fetch its
    results (:func:`_lost_result_socket`; on a loaded machine the connection's handshake
    can time out). Running the job again is safe for the build's jobs: their tasks replace
    their own files whole, as Spark's own task retries need; a search's or join's collects
    only read. Failing every time: a
    :class:`SparkJobError` naming ``what`` and the connection error."""
    for attempt in range(1, RESULT_ATTEMPTS + 1):
        try:
            with warnings.catch_warnings():      # an Arrow toPandas warns of the lost socket
                warnings.filterwarnings("ignore", message=_LOST_SOCKET_WARNING)
                return action()
        except Exception as e:  # noqa: BLE001 - re-raised unless the result socket was lost
            lost = _lost_result_socket(e)
            if lost is None:
                raise
            if attempt == RESULT_ATTEMPTS:
                raise SparkJobError(
                    f"Spark failed while {what}: the driver could not connect to the JVM to "
                    f"fetch the results ({RESULT_ATTEMPTS} tries; {lost})") from e
            time.sleep(RESULT_RETRY_PAUSE * attempt)


def release_memory(spark=None) -> None:
    """Give memory the build no longer uses back to the operating system before a step that
    works on the driver: the driver JVM's free heap (a full collection, after which the JVM
    uncommits it; with Spark idle between jobs) and this process's freed Arrow and malloc
    arenas. Without it, a large build's driver steps run beside GBs of idle heap."""
    if spark is not None:
        with contextlib.suppress(Exception):
            spark.sparkContext._jvm.System.gc()
    with contextlib.suppress(Exception):
        import pyarrow as pa
        pa.default_memory_pool().release_unused()
    with contextlib.suppress(Exception):
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def instant_columns(sdf) -> list:
    """The names of a Spark DataFrame's TIMESTAMP columns (instants: ``toPandas`` and pandas
    UDFs hand them out as wall-clock times of the session's zone, without the zone)."""
    from pyspark.sql import types as T
    return [f.name for f in sdf.schema.fields if isinstance(f.dataType, T.TimestampType)]


def instant_column(sdf, name: str):
    """A TIMESTAMP column as microseconds since 1970 UTC (a long; see :func:`utc_instants`)."""
    from pyspark.sql import functions as F
    return F.unix_micros(sdf["`" + str(name).replace("`", "``") + "`"])


def utc_instants(values):
    """pandas Series of microseconds since 1970 (:func:`instant_column`) -> tz-aware UTC
    Timestamps, whatever the session's zone (null stays NaT)."""
    import pandas as pd
    values = pd.Series(values)
    return pd.to_datetime(values.astype("Int64"), unit="us", utc=True).set_axis(values.index)


def key_columns(sdf, names) -> list:
    """The columns a key's pandas UDF reads, by name: a TIMESTAMP as a TIMESTAMP_NTZ holding
    its UTC wall-clock time (pandas UDFs would get the session zone's clock readings; NTZ
    reaches them as written), so a key is the same in any session zone (normalization v2)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
    types = {f.name.lower(): f.dataType for f in sdf.schema.fields}   # Spark: any case
    types.update({f.name: f.dataType for f in sdf.schema.fields})
    epoch = F.lit("1970-01-01 00:00:00").cast(T.TimestampNTZType())
    return [(F.timestamp_add("MICROSECOND", instant_column(sdf, c), epoch)
             if isinstance(types.get(str(c), types.get(str(c).lower())), T.TimestampType)
             else sdf["`" + str(c).replace("`", "``") + "`"]).alias(str(c)) for c in names]


def union_key_column(sdf, name):
    """The column a union's key UDF reads (join/keys.py ``union_keys``): ``key_columns``'
    one, a nested one (struct, array, map: a JSON object or list) as its JSON text (a pandas
    UDF would get a struct as a frame of its fields)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
    col = key_columns(sdf, [name])[0]
    kind = {f.name: f.dataType for f in sdf.schema.fields}.get(str(name))
    if isinstance(kind, (T.StructType, T.ArrayType, T.MapType)):
        return F.to_json(sdf["`" + str(name).replace("`", "``") + "`"]).alias(str(name))
    return col


def to_pandas_utc(sdf):
    """``sdf.toPandas()``, its TIMESTAMP columns as tz-aware UTC instants."""
    instants = set(instant_columns(sdf))
    if not instants:
        return sdf.toPandas()
    cols = [instant_column(sdf, c).alias(c) if c in instants
            else sdf["`" + c.replace("`", "``") + "`"] for c in sdf.columns]
    pdf = sdf.select(*cols).toPandas()
    for j, c in enumerate(sdf.columns):
        if c in instants:
            pdf.isetitem(j, utc_instants(pdf.iloc[:, j]))
    return pdf


NANOS_AS_LONG = "spark.sql.legacy.parquet.nanosAsLong"


def parquet_nanosecond_columns(path: str) -> dict:
    """The columns of a Parquet file (a folder: its first file) stored as nanosecond
    timestamps, ``TIMESTAMP(NANOS)`` (what pandas writes by default), which Spark's reader
    refuses ("Illegal Parquet type: INT64 (TIMESTAMP(NANOS,...))"): {name: adjusted to
    UTC}. An INT96 timestamp, which Spark reads, is not one; nor is a nested field."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    p = Path(path)
    if p.is_dir():                    # the files pyarrow's dataset reader reads there
        import pyarrow.dataset as ds
        try:
            files = sorted(f for f in ds.dataset(str(p), format="parquet").files
                           if Path(f).stat().st_size > 0)
        except (OSError, ValueError, pa.ArrowInvalid):
            return {}
        if not files:
            return {}
        p = Path(files[0])
    try:
        schema = pq.read_metadata(p).schema
    except (OSError, ValueError):     # not a local file, or not Parquet: Spark will tell
        return {}
    nanos = {schema.column(i).path for i in range(len(schema))
             if '"timeUnit":"nanoseconds"' in schema.column(i).logical_type.to_json()}
    return {f.name: f.type.tz is not None for f in schema.to_arrow_schema()
            if pa.types.is_timestamp(f.type) and f.name in nanos}


_GLOB_CHARS = "\\*?[]{}"


def spark_path(path: str) -> str:
    """A local file as a path Spark reads literally: the file: scheme (so a cluster does not
    resolve it on HDFS), no percent-encoding (Hadoop paths are not URI-decoded), and the
    glob characters Spark would expand escaped with a backslash."""
    if not path.startswith("/"):
        return path
    return "file://" + "".join("\\" + ch if ch in _GLOB_CHARS else ch for ch in path)


def partition_schema(schema, partitions):
    """A Spark schema with the ``partitions`` columns as strings: Spark then reads a
    partition folder's value as its name writes it, as pandas and the index do."""
    from pyspark.sql import types as T
    return T.StructType([T.StructField(f.name, T.StringType()) if f.name in partitions else f
                         for f in schema.fields])


def read_parquet(spark, path: str, partitions=()):
    """``spark.read.parquet`` of a local Parquet file or folder (``partitions``: its
    hive-style partition columns, read as the text their folder names write), its
    nanosecond timestamp columns (:func:`parquet_nanosecond_columns`) read as Spark reads
    microsecond ones: through Spark's ``spark.sql.legacy.parquet.nanosAsLong`` (set for
    the read only) as counts of nanoseconds, then as TIMESTAMP (adjusted to UTC) or
    TIMESTAMP_NTZ (a pandas naive column, while ``spark.sql.parquet.inferTimestampNTZ.enabled``),
    to the microsecond below (Spark holds no nanoseconds)."""
    from pyspark.sql import functions as F
    uri = spark_path(path)
    nanos = parquet_nanosecond_columns(path)
    before = spark.conf.get(NANOS_AS_LONG, None) if nanos else None
    if nanos:
        spark.conf.set(NANOS_AS_LONG, "true")
    try:
        df = spark.read.parquet(uri)
        if partitions:
            df = spark.read.schema(partition_schema(df.schema, partitions)).parquet(uri)
    finally:
        if nanos:
            if before is None:
                spark.conf.unset(NANOS_AS_LONG)
            else:
                spark.conf.set(NANOS_AS_LONG, before)
    if not nanos:
        return df
    ntz = str(spark.conf.get("spark.sql.parquet.inferTimestampNTZ.enabled",
                             "true")).lower() == "true"
    epoch = F.lit("1970-01-01 00:00:00").cast("timestamp_ntz")

    def micros(name):                  # floor(nanoseconds / 1000), in integers
        q = "`" + name.replace("`", "``") + "`"
        return F.expr(f"({q} - pmod({q}, 1000)) div 1000")
    return df.withColumns({c: F.timestamp_micros(micros(c)) if utc or not ntz
                           else F.timestamp_add("MICROSECOND", micros(c), epoch)
                           for c, utc in nanos.items() if c in df.columns})
