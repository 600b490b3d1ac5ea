"""The progress of a verification run: a rich bar on a terminal, else a line every
``$NIMLAB_PROGRESS_INTERVAL`` seconds (5 by default) on stderr.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from nimlab.core.errors import InvalidParameterError

__all__ = ["RunProgress", "listen"]

#: Called as ``fn(label, chunks done, chunks in all)`` after each advance of any run of
#: this process (``reproduce`` shows the chunks of the results its workers check).
_LISTENER: list[Any] = []


def listen(fn: Any) -> None:
    """Report every run's progress of this process to ``fn(label, done, total)`` (None:
    to nobody).

    Examples
    --------
    >>> seen = []
    >>> listen(lambda label, done, total: seen.append((label, done, total)))
    >>> p = RunProgress("demo", 4, enabled=False)
    >>> p.advance(3, 300)
    >>> listen(None)
    >>> seen
    [('demo', 3, 4)]
    """
    _LISTENER[:] = [] if fn is None else [fn]


def _env_seconds(name: str, default: float) -> float:
    """A number of seconds >= 0 from environment variable *name*, or a clear error."""
    text = os.environ.get(name)
    if text is None or not text.strip():
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 <= value < float("inf"):
        raise InvalidParameterError(
            f"environment variable {name} must be a number of seconds >= 0, got "
            f"{text[:40]!r} (unset it or write for example {name}=5)"
        )
    return value


class RunProgress:
    """Chunks and positions checked so far, shown as they come."""

    def __init__(self, label: str, total_chunks: int, enabled: bool) -> None:
        self.enabled = enabled
        self.label = label
        self.total = total_chunks
        self.done = 0
        self.positions = 0
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.bar: Any = None
        self.interval = _env_seconds("NIMLAB_PROGRESS_INTERVAL", 5.0)
        if enabled and sys.stderr.isatty():
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("chunks · {task.fields[pos]} positions · {task.fields[rate]}/s"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                transient=True,
            )
            self.task = self.bar.add_task(label, total=total_chunks, pos="0", rate="0")
            self.bar.start()

    def advance(self, done: int, positions: int) -> None:
        self.done += done
        self.positions += positions
        for fn in _LISTENER:
            fn(self.label, self.done, self.total)
        if not self.enabled or done == 0:
            return
        now = time.perf_counter()
        rate = self.positions / max(now - self.t0, 1e-9)
        if self.bar is not None:
            self.bar.update(self.task, advance=done, pos=f"{self.positions:,}", rate=f"{rate:,.0f}")
        elif now - self.last >= self.interval:
            self.last = now
            left = self.total - self.done
            eta = (now - self.t0) / max(self.done, 1) * left
            print(
                f"{self.label}: {self.done}/{self.total} chunks, {self.positions:,} positions, "
                f"{rate:,.0f}/s, ETA {eta:.0f}s",
                file=sys.stderr,
                flush=True,
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
