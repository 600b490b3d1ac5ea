"""Count the numba compilations of a piece of work, and their seconds.

:class:`CompileWatch` listens to numba's ``numba:compile`` events: each top-level
compilation (nested ones are part of it) with its function and seconds. Loading machine
code from numba's disk cache is no compilation and is not counted, so a process whose
kernels all come from the cache shows none.
"""

from __future__ import annotations

import threading
import time
from typing import Any

__all__ = ["CompileWatch"]


class CompileWatch:
    """Context manager recording numba compilations: ``(function, seconds)`` pairs.

    Examples
    --------
    >>> from numba import njit
    >>> with CompileWatch() as w:
    ...     _ = njit(lambda x: x + 1)(1)
    >>> len(w.compiles), w.seconds > 0
    (1, True)
    """

    def __init__(self) -> None:
        self.compiles: list[tuple[str, float]] = []
        self._local = threading.local()
        self._listener: Any = None

    @property
    def seconds(self) -> float:
        """Seconds spent compiling (top-level compilations only)."""
        return sum(s for _, s in self.compiles)

    def __enter__(self) -> CompileWatch:
        from numba.core import event

        watch = self

        class _Listener(event.Listener):
            def on_start(self, ev: Any) -> None:
                depth = getattr(watch._local, "depth", 0)
                if depth == 0:
                    watch._local.t0 = time.perf_counter()
                watch._local.depth = depth + 1

            def on_end(self, ev: Any) -> None:
                watch._local.depth -= 1
                if watch._local.depth == 0:
                    d = ev.data.get("dispatcher")
                    fn = getattr(d, "py_func", None)
                    name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', d)}"
                    watch.compiles.append((name, time.perf_counter() - watch._local.t0))

        self._listener = _Listener()
        event.register("numba:compile", self._listener)  # type: ignore[no-untyped-call]
        return self

    def __exit__(self, *exc: object) -> None:
        from numba.core import event

        event.unregister("numba:compile", self._listener)  # type: ignore[no-untyped-call]
