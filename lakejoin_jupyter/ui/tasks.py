"""Background work for the widget: searches, joins and builds off the kernel's main thread.

The kernel's main thread must stay free, or the widget's own button clicks (Cancel) could
not even reach Python. A :class:`BackgroundTask` runs a function in a daemon thread and
hands its result (or error) to callbacks, unless it was cancelled or superseded.

Cancelling:
* numpy searches cannot be stopped midway, so a cancelled search's result is discarded:
  the widget is usable at once, the thread ends on its own;
* Spark work (collecting a Spark query, building an index, a Spark join) runs in a Spark
  job group, which ``cancel()`` cancels, so the cluster stops at once;
* an index build also stops at its next phase (the progress callback raises), and the
  build's atomic writer removes its temporary folder: no half-written index.
"""
from __future__ import annotations

import itertools
import threading
import traceback
from typing import Callable

_ids = itertools.count(1)


class Cancelled(Exception):
    """Raised inside a task that noticed it was cancelled."""


class BackgroundTask:
    def __init__(self, fn: Callable, *, on_done: Callable = None, on_error: Callable = None,
                 name: str = "lakejoin"):
        self.fn = fn
        self.on_done = on_done
        self.on_error = on_error
        self.name = name
        self.cancel_event = threading.Event()
        self.group = f"lakejoin-{name}-{next(_ids)}"
        self.thread = None
        self.error = None
        self.result = None

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def check(self) -> None:
        """Raise :class:`Cancelled` when cancel() was called (call between steps)."""
        if self.cancel_event.is_set():
            raise Cancelled(self.name)

    def start(self) -> "BackgroundTask":
        self.thread = threading.Thread(target=self._run, name=self.group, daemon=True)
        self.thread.start()
        return self

    def spark_job_group(self) -> None:
        """Put this thread's Spark jobs in the task's job group (when Spark is running)."""
        sc = _active_spark_context()
        if sc is not None:
            sc.setJobGroup(self.group, self.name, interruptOnCancel=True)

    def _run(self):
        try:
            self.spark_job_group()
            self.result = self.fn(self)
        except Cancelled:
            return
        except BaseException as e:  # noqa: BLE001 - reported to the widget, never lost
            if self.cancelled:
                return
            self.error = e
            if self.on_error:
                _safely(self.on_error, e)
            else:
                traceback.print_exc()
            return
        if not self.cancelled and self.on_done:
            _safely(self.on_done, self.result)

    def cancel(self) -> None:
        self.cancel_event.set()
        sc = _active_spark_context()
        if sc is not None:
            try:
                sc.cancelJobGroup(self.group)
            except Exception:  # noqa: BLE001 - nothing running in the group
                pass

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the thread ends (tests); True when it did."""
        if self.thread is None:
            return True
        self.thread.join(timeout)
        return not self.thread.is_alive()

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()


def _active_spark_context():
    try:
        from pyspark import SparkContext
        return SparkContext._active_spark_context
    except Exception:  # noqa: BLE001 - pyspark missing or broken: no Spark work to group
        return None


def _safely(fn, *args):
    try:
        fn(*args)
    except Exception:  # noqa: BLE001 - a UI callback must not kill the worker silently
        traceback.print_exc()
