"""One typed reader, with bounds, for every number nimlab reads from the environment.

Each ``NIMLAB_*`` variable that holds a number is read by :func:`env_float` (or
:func:`env_int`): an unset or empty variable gives the default; text that is not a
finite number in the bounds is refused with
:class:`~nimlab.core.errors.InvalidArgumentError` naming the variable and what it must
be (one line, exit status 2 on the command line). Numbers given as options are checked
by the same :func:`number` with the option's own name.

The variables: ``NIMLAB_LOCK_TIMEOUT`` (seconds to wait for a store's lock),
``NIMLAB_PROGRESS_INTERVAL`` (seconds between a verification's progress lines),
``NIMLAB_PROGRESS_DELAY`` (seconds before a progress bar appears),
``NIMLAB_VERIFY_CHUNK_SLEEP`` (a test hook: seconds of sleep per verified chunk),
``NIMLAB_CHUNK_PATIENCE`` (seconds a Dask worker of a chunked solve waits for a part
another worker owns before it solves the part itself),
``NIMLAB_USER_CODE_TIMEOUT`` (seconds one call of a user's move function or game file
may run); ``NIMLAB_STORE`` and ``NIMLAB_CACHE_DIR`` are paths, ``NIMLAB_DEBUG`` a flag.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from nimlab.core.errors import InvalidArgumentError

__all__ = ["ENVIRONMENT", "cache_root", "check_environment", "env_float", "env_int", "number"]

#: Longest text read as a number (a longer one is refused before it is converted).
MAX_NUMBER_TEXT = 40


def number(
    name: str,
    text: object,
    *,
    low: float,
    high: float,
    integer: bool = False,
    what: str = "a number",
) -> float:
    """*text* read as a finite number in ``[low, high]``, else a one-line error naming *name*.

    Examples
    --------
    >>> number("--lock-timeout", "2.5", low=0, high=3600)
    2.5
    >>> number("NIMLAB_X", "nan", low=0, high=10, what="a number of seconds")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidArgumentError: NIMLAB_X must be a number of seconds between 0 and 10, got 'nan'
    """
    kind = "an integer" if integer and what == "a number" else what
    bad = InvalidArgumentError(
        f"{name} must be {kind} between {low:g} and {high:g}, got {text!r:.60}"
    )
    if isinstance(text, bool):
        raise bad
    if isinstance(text, (int, float)):
        value: float = text
    else:
        s = str(text).strip()
        if not s or len(s) > MAX_NUMBER_TEXT:
            raise bad
        try:
            value = int(s) if integer else float(s)
        except ValueError:
            raise bad from None
    if isinstance(value, float) and not math.isfinite(value):
        raise bad
    if integer and isinstance(value, float) and not value.is_integer():
        raise bad
    if not low <= value <= high:
        raise bad
    return value


def env_float(
    name: str, default: float, *, low: float, high: float, what: str = "a number"
) -> float:
    """Environment variable *name* as a number in ``[low, high]`` (*default* when unset).

    Examples
    --------
    >>> env_float("NIMLAB_NO_SUCH_VARIABLE", 1.5, low=0, high=10)
    1.5
    """
    text = os.environ.get(name, "")
    if not text.strip():
        return default
    return float(number(f"environment variable {name}", text, low=low, high=high, what=what))


def env_int(name: str, default: int, *, low: int, high: int, what: str = "an integer") -> int:
    """Environment variable *name* as an integer in ``[low, high]`` (*default* when unset).

    Examples
    --------
    >>> env_int("NIMLAB_NO_SUCH_VARIABLE", 4, low=1, high=64)
    4
    """
    text = os.environ.get(name, "")
    if not text.strip():
        return default
    return int(
        number(f"environment variable {name}", text, low=low, high=high, integer=True, what=what)
    )


#: Every numeric environment variable nimlab reads: (name, low, high, what).
ENVIRONMENT: tuple[tuple[str, float, float, str], ...] = (
    ("NIMLAB_LOCK_TIMEOUT", 0, 86_400, "a number of seconds"),
    ("NIMLAB_PROGRESS_INTERVAL", 0, 1e12, "a number of seconds"),
    ("NIMLAB_PROGRESS_DELAY", 0, 1e12, "a number of seconds"),
    ("NIMLAB_VERIFY_CHUNK_SLEEP", 0, 3_600, "a number of seconds"),
    ("NIMLAB_CHUNK_PATIENCE", 0.01, 86_400, "a number of seconds"),
    ("NIMLAB_USER_CODE_TIMEOUT", 0.01, 86_400, "a number of seconds"),
)


def check_environment() -> None:
    """Read every numeric ``NIMLAB_*`` variable once: a bad one is refused before any
    work (the command line calls this first).

    Examples
    --------
    >>> check_environment()
    """
    for name, low, high, what in ENVIRONMENT:
        env_float(name, 0.0, low=low, high=high, what=what)


def cache_root() -> Path:
    """nimlab's cache directory: ``$NIMLAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/nimlab``,
    else ``~/.cache/nimlab`` (not created here).

    Examples
    --------
    >>> import os
    >>> os.environ["NIMLAB_CACHE_DIR"] = "/tmp/nimlab-doctest-cache"
    >>> str(cache_root())
    '/tmp/nimlab-doctest-cache'
    >>> del os.environ["NIMLAB_CACHE_DIR"]
    """
    base = os.environ.get("NIMLAB_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        base = str(Path(xdg) / "nimlab")
    return Path(base)
