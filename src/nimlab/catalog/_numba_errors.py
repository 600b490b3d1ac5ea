"""The exceptions by which numba says that a function does not compile.

Numba raises most of them as subclasses of ``NumbaError``, but not all:
``UnsupportedBytecodeError`` (a move function using ``yield from``, for example) derives
from ``Exception`` directly. Every place that falls back to Python when numba cannot
compile a user's function asks this module, so that no such error escapes as an
internal error.
"""

from __future__ import annotations


def compile_errors() -> tuple[type[BaseException], ...]:
    """The exception classes that mean "numba cannot compile this function".

    Returns
    -------
    tuple of type
        ``NumbaError`` and the compile errors outside its hierarchy (empty when numba is
        not installed).

    Examples
    --------
    >>> from numba.core.errors import NumbaError
    >>> NumbaError in compile_errors()
    True
    """
    try:
        from numba.core import errors
    except ImportError:  # pragma: no cover - numba is a dependency
        return ()
    found: list[type[BaseException]] = [errors.NumbaError]
    extra = getattr(errors, "UnsupportedBytecodeError", None)
    if isinstance(extra, type) and issubclass(extra, BaseException):
        found.append(extra)
    return tuple(found)


def is_compile_error(exc: BaseException) -> bool:
    """Whether *exc* says that numba could not compile a function.

    Examples
    --------
    >>> is_compile_error(ValueError("no"))
    False
    """
    return isinstance(exc, compile_errors())
