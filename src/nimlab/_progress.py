"""A progress bar for long engine work (sequences, tables): counts, rate and time left.

The bar appears on stderr only when stderr is a terminal and the work has run for more
than a second (quick calls print nothing); it disappears when the work ends. A compiled
kernel that cannot report its own progress runs in a worker thread (numba kernels release
the GIL) while the calling thread updates the bar and stays responsive to Ctrl-C.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Activity", "OutOfTime", "Progress", "check_deadline", "deadline", "run_watched"]

#: Seconds of work before the bar appears (``$NIMLAB_PROGRESS_DELAY`` overrides it).
DELAY = 1.0


def _delay() -> float:
    """The delay before a bar appears: ``$NIMLAB_PROGRESS_DELAY`` seconds, else `DELAY`."""
    from nimlab.core.settings import env_float

    return env_float("NIMLAB_PROGRESS_DELAY", DELAY, low=0, high=1e12, what="a number of seconds")


class OutOfTime(BaseException):
    """Work stopped because the deadline of :func:`deadline` passed.

    A ``BaseException`` (as ``KeyboardInterrupt``), so that no ``except Exception`` of the
    work swallows it: it ends the work and reaches whoever set the deadline.
    """


_deadline = threading.local()


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Stop the long work of this thread after *seconds*: it raises :class:`OutOfTime`.

    The work checks the time where it reports its progress (each search call starts a
    :class:`Progress`, and updates it every 65,536 moves), so a search stops soon after the
    deadline instead of running to the end of its budget. The web playground runs each
    request under the deadline of its time limit; nested deadlines keep the earliest.

    Examples
    --------
    >>> with deadline(0.0):
    ...     check_deadline()
    Traceback (most recent call last):
    ...
    nimlab._progress.OutOfTime: the work ran past its deadline
    >>> with deadline(60):
    ...     check_deadline()
    """
    old: float | None = getattr(_deadline, "until", None)
    until = time.monotonic() + seconds
    _deadline.until = until if old is None else min(old, until)
    try:
        yield
    finally:
        _deadline.until = old


def check_deadline() -> None:
    """Raise :class:`OutOfTime` when this thread's :func:`deadline` has passed."""
    until: float | None = getattr(_deadline, "until", None)
    if until is not None and time.monotonic() > until:
        raise OutOfTime("the work ran past its deadline")


class Progress:
    """A rich progress bar of *total* items named *unit* (``terms``, ``cells``).

    *start* items may be done already (a resumed run): the bar starts there and its rate
    counts only the items done since. ``update(done, detail)`` can also show a line of
    detail after the rate (a misère quotient's current order, say).

    Examples
    --------
    >>> p = Progress("octal(0.77): sequence", 100, "terms", enabled=False)
    >>> p.update(50); p.close()
    >>> p.done
    50
    >>> p = Progress("octal(0.77): misère quotient", 40, "heaps", start=12, enabled=False)
    >>> p.update(20, "order 24"); p.done - p.first, p.detail
    (8, 'order 24')
    """

    def __init__(
        self, label: str, total: int, unit: str, *, start: int = 0, enabled: bool = True
    ) -> None:
        check_deadline()
        self.label = label
        self.total = total
        self.unit = unit
        self.first = start
        self.done = start
        self.detail = ""
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.perf_counter()
        self.delay = _delay()
        self.bar: Any = None
        self.task: Any = None

    def rate_text(self) -> str:
        """Items per second since the bar was made (two decimals below 10 a second)."""
        rate = (self.done - self.first) / max(time.perf_counter() - self.start, 1e-9)
        return f"{rate:,.0f}" if rate >= 10 else f"{rate:.2f}"

    def update(self, done: int, detail: str | None = None) -> None:
        """Record that *done* items (of the total) are finished, with a line of *detail*."""
        check_deadline()
        self.done = done
        if detail is not None:
            self.detail = detail
        if not self.enabled:
            return
        if self.bar is None:
            if time.perf_counter() - self.start < self.delay:
                return
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress

            self.bar = RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(f"{self.unit} · {{task.fields[rate]}}/s"),
                TextColumn("{task.fields[detail]}"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(
                self.label, total=self.total, completed=self.first, rate="0", detail=""
            )
        self.bar.update(self.task, completed=done, rate=self.rate_text(), detail=self.detail)

    def close(self) -> None:
        """Remove the bar."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


class Activity:
    """A spinner with the elapsed time for work that cannot count its progress (numba
    compiling a kernel): shown on stderr, on a terminal only, once the work has lasted
    the delay (``$NIMLAB_PROGRESS_DELAY``, else a second); removed when it ends.

    Use it as a context manager; rich draws it from its own thread, which runs while the
    work holds the GIL only part of the time (as numba's compiler does).

    Examples
    --------
    >>> with Activity("single-delete: compiling the engine", enabled=False):
    ...     pass
    """

    def __init__(self, label: str, *, enabled: bool = True) -> None:
        self.label = label
        self.enabled = enabled and sys.stderr.isatty()
        self._lock = threading.Lock()
        self._status: Any = None
        self._timer: threading.Timer | None = None
        self._closed = False

    def _show(self) -> None:
        with self._lock:
            if self._closed:
                return
            from rich.console import Console

            self._status = Console(stderr=True).status(f"{self.label} …")
            self._status.start()

    def __enter__(self) -> Activity:
        if self.enabled:
            self._timer = threading.Timer(_delay(), self._show)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            if self._status is not None:
                self._status.stop()
                self._status = None


def run_watched(
    kernel: Callable[[], Any],
    done: Callable[[], int],
    bar: Progress,
    poll: float = 0.2,
    cancel: Callable[[], None] | None = None,
) -> None:
    """Run *kernel* (a call into a compiled kernel) in a worker thread, updating *bar* with
    ``done()`` every *poll* seconds until it ends; its exception, if any, is raised here.

    Ctrl-C in the calling thread (``KeyboardInterrupt``) calls *cancel* (which makes the
    kernel return early, for example by setting a flag it checks) and waits for the worker
    to end before the interrupt goes on, so no computation is left running behind the
    caller's back. Without *cancel* the wait is left at once and the kernel finishes in
    the background (a daemon thread, gone when the process exits).
    """
    failure: list[BaseException] = []
    # waiting on an Event, not on Thread.join: a join interrupted by Ctrl-C can leave the
    # thread marked as ended while it still runs (CPython 3.11)
    finished = threading.Event()

    def target() -> None:
        try:
            kernel()
        except BaseException as exc:  # pragma: no cover - kernels raise only on bugs
            failure.append(exc)
        finally:
            finished.set()

    worker = threading.Thread(target=target, name="nimlab-kernel", daemon=True)
    worker.start()
    try:
        while not finished.wait(poll):
            bar.update(done())
        bar.update(done())
    except BaseException:
        if cancel is not None:
            cancel()
            _wait_uninterrupted(finished)
            worker.join()
        raise
    finally:
        bar.close()
    worker.join()
    if failure:  # pragma: no cover
        raise failure[0]


def _wait_uninterrupted(finished: threading.Event) -> None:
    """Wait until *finished* is set, through further Ctrl-C presses (the worker ends
    soon: it was asked to stop)."""
    while True:
        try:
            if finished.wait(0.1):
                return
        except KeyboardInterrupt:
            continue
