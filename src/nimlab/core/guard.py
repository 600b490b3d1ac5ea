"""Users' code under a guard: a time budget, and no way out of nimlab but an error.

A user's move function or game file is code nimlab does not control: it may loop forever,
call ``sys.exit``, ``os._exit`` or raise ``KeyboardInterrupt``. :func:`user_code` runs
such code so that each of these becomes one
:class:`~nimlab.core.errors.GameDefinitionError`:

- a time budget per call (``NIMLAB_USER_CODE_TIMEOUT`` seconds, 30 by default): a
  watchdog thread raises :class:`UserCodeTimeout` inside the thread that runs the user's
  Python code once it has run longer (Python code only: a numba-compiled function is not
  interrupted);
- ``SystemExit`` (``sys.exit``) and ``os._exit`` called by the user's code become errors
  (``os._exit`` is wrapped once, and refuses only inside user code);
- ``KeyboardInterrupt`` raised by the user's code becomes an error, while a real Ctrl-C
  (a SIGINT the command line has seen, :func:`note_sigint`) still stops nimlab.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from typing import Any, NoReturn

from nimlab.core.errors import GameDefinitionError

__all__ = ["UserCodeTimeout", "note_sigint", "user_code", "user_code_timeout"]

DEFAULT_TIMEOUT = 30.0
_MAX_TIMEOUT = 86_400.0


class UserCodeTimeout(GameDefinitionError):
    """The user's code ran longer than its time budget (raised inside that code)."""

    def __str__(self) -> str:
        return (
            "a user's move function or game file ran longer than its time budget "
            f"({user_code_timeout():g} s); fix the game's definition, or raise "
            "NIMLAB_USER_CODE_TIMEOUT"
        )


class _UserExit(BaseException):
    """``os._exit`` called inside the user's code."""


_lock = threading.Lock()
# thread ident -> [deadline, fired]
_active: dict[int, list[Any]] = {}
_watchdog: threading.Thread | None = None
_local = threading.local()
_sigint_at = 0.0
_real_exit = os._exit
_timeouts: dict[str, float] = {}


def note_sigint() -> None:
    """Record that a real SIGINT (Ctrl-C) arrived: a KeyboardInterrupt is then the user's."""
    global _sigint_at
    _sigint_at = time.monotonic()


def user_code_timeout() -> float:
    """Seconds one call of a user's code may run (``NIMLAB_USER_CODE_TIMEOUT``).

    Examples
    --------
    >>> user_code_timeout() > 0
    True
    """
    text = os.environ.get("NIMLAB_USER_CODE_TIMEOUT", "")
    cached = _timeouts.get(text)
    if cached is None:
        from nimlab.core.settings import env_float

        cached = env_float(
            "NIMLAB_USER_CODE_TIMEOUT",
            DEFAULT_TIMEOUT,
            low=0.01,
            high=_MAX_TIMEOUT,
            what="a number of seconds",
        )
        _timeouts[text] = cached
    return cached


def _guarded_exit(status: int) -> NoReturn:
    if getattr(_local, "depth", 0):
        raise _UserExit(status)
    _real_exit(status)


def _watch() -> None:
    set_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
    while True:
        time.sleep(0.1)
        now = time.monotonic()
        with _lock:
            for tid, entry in list(_active.items()):
                if not entry[1] and now > entry[0]:
                    entry[1] = True
                    set_exc(ctypes.c_ulong(tid), ctypes.py_object(UserCodeTimeout))


def _start() -> None:
    global _watchdog
    if _watchdog is None:
        with _lock:
            if _watchdog is None:
                if os._exit is _real_exit:
                    os._exit = _guarded_exit
                t = threading.Thread(target=_watch, name="nimlab-user-code-watchdog", daemon=True)
                t.start()
                _watchdog = t


class user_code:  # used as a function: ``with user_code(...):``
    """Run the block as the user's code *what* (``"game file 'x.py'"``, ``"g: the move
    function at 3 4"``): every way out of it but a value or an ``Exception`` becomes a
    :class:`~nimlab.core.errors.GameDefinitionError`.

    A class, not a generator-based context manager: a move function's every option
    passes through it, so entering and leaving cost well under a microsecond.

    Examples
    --------
    >>> import sys
    >>> with user_code("a test"):
    ...     sys.exit(3)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.GameDefinitionError: a test called sys.exit(3); user code must not end nimlab
    """

    __slots__ = ("budget", "entry", "outer", "started", "tid", "what")

    def __init__(self, what: str) -> None:
        self.what = what
        self.budget = user_code_timeout()  # read once: the object may be entered often

    def __enter__(self) -> None:
        if _watchdog is None:
            _start()
        self.tid = tid = threading.get_ident()
        self.started = now = time.monotonic()
        self.outer = outer = _active.get(tid)
        deadline = now + self.budget
        self.entry = entry = [deadline if outer is None else min(deadline, outer[0]), False]
        _active[tid] = entry
        _local.depth = getattr(_local, "depth", 0) + 1

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        _local.depth -= 1
        entry = self.entry
        with _lock:
            if self.outer is None:
                _active.pop(self.tid, None)
            else:
                _active[self.tid] = self.outer
            if entry[1]:
                # the watchdog fired but its exception may not be raised yet: cancel it
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.tid), None)
        if kind is None or kind is GeneratorExit:
            return
        what = self.what
        if issubclass(kind, UserCodeTimeout):
            raise GameDefinitionError(
                f"{what} ran longer than its budget of {user_code_timeout():g} s (does it ever "
                "stop?); fix the game's definition, or raise NIMLAB_USER_CODE_TIMEOUT"
            ) from None
        if issubclass(kind, SystemExit):
            raise GameDefinitionError(
                f"{what} called sys.exit({exc.code!r:.40}); user code must not end nimlab"
            ) from None
        if issubclass(kind, _UserExit):
            raise GameDefinitionError(
                f"{what} called os._exit({exc.args[0]!r:.40}); user code must not end nimlab"
            ) from None
        if issubclass(kind, KeyboardInterrupt):
            if _sigint_at >= self.started:
                return  # a real Ctrl-C: stop
            raise GameDefinitionError(
                f"{what} raised KeyboardInterrupt; user code must not end nimlab"
            ) from None
        if issubclass(kind, (MemoryError, RecursionError)):
            raise GameDefinitionError(
                f"{what} raised {kind.__name__} (it needs more memory or depth than this "
                "machine gives); fix the game's definition"
            ) from None
