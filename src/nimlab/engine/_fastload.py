"""Load numba's cached machine code without setting up its compiler first.

Before loading a function from its disk cache, numba refreshes its typing and target
contexts: it imports and registers every implementation it could need to *compile*
(about 50 modules: strings, lists, dictionaries, random numbers, linear algebra...),
0.3-0.4 s of CPU in a new process, although loading machine code needs none of them.
:func:`install` makes the loads of this process skip that refresh and only start what
the loaded code may call: numba's runtime (NRT) and the symbols of the hash secrets.
Compiling is unchanged: numba's compiler refreshes the contexts itself before every
compilation, so a process that loads some kernels and compiles others later works as
before.
"""

from __future__ import annotations

from typing import Any

__all__ = ["install"]

_INSTALLED = False


def install() -> None:
    """Make numba's cache loads skip the compiler's set-up (once per process; a numba
    whose cache has another shape keeps its own behaviour).

    Examples
    --------
    >>> install()
    >>> from numba.core import caching
    >>> caching.Cache.load_overload.__name__
    'load_overload_light'
    """
    global _INSTALLED
    if _INSTALLED:
        return
    _INSTALLED = True
    from numba.core import caching

    cache: Any = caching.Cache
    if not all(
        hasattr(cache, n)
        for n in ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
    ):  # pragma: no cover - another numba: its own loads
        return
    try:
        from numba.core.runtime import rtsys  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - another numba
        return

    def load_overload_light(self: Any, sig: Any, target_context: Any) -> Any:
        rtsys.initialize(target_context)  # the runtime the loaded code calls
        # the symbols of the hash secrets, which hashing code refers to (strings, bytes)
        from numba.cpython import hashing  # noqa: F401

        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        return None  # pragma: no cover - an I/O error swallowed by numba's guard

    cache.load_overload = load_overload_light
