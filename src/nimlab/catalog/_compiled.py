"""Compiled move models of the catalog's heap games (the ``compiled_options`` hook).

Nested ``for ... in range`` loops make slow numba generators (about 30 ns per option
against 5-8 ns for ``while`` loops, measured on single-delete), so the hot ones use
``while``.

Each factory returns a numba generator ``gen(h)`` over a tuple of ``int64`` heaps that
yields the options of ``h`` as tuples of the same length (see
:meth:`nimlab.core.ruleset.HeapRuleset.compiled_options` for the contract). This module
imports numba at the top: the catalog imports it only inside the hook methods, so
``import nimlab.catalog`` stays free of numba.

:func:`register_replace` teaches numba :func:`nimlab.core.ruleset.replace` (a tuple with
one heap set to a new size), so that users' move functions written with it compile.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from numba.core import types
from numba.cpython.unsafe.tuple import tuple_setitem
from numba.extending import overload

from nimlab.core.ruleset import replace

__all__ = ["compiled", "register_replace"]

_CACHE: dict[Hashable, Any] = {}
_REPLACE_DONE = False

setitem: Any = tuple_setitem


def register_replace() -> None:
    """Make :func:`nimlab.core.ruleset.replace` callable from numba-compiled code."""
    global _REPLACE_DONE
    if _REPLACE_DONE:
        return
    _REPLACE_DONE = True

    @overload(replace, inline="always")
    def _replace_impl(h: Any, i: Any, v: Any) -> Any:
        if isinstance(h, types.UniTuple):

            def impl(h: Any, i: Any, v: Any) -> Any:  # pragma: no cover - compiled
                return setitem(h, i, v)

            return impl
        return None


def compiled(key: Hashable, factory: Callable[[], Any]) -> Any:
    """The generator built by *factory*, built once per *key* (a family and parameters)."""
    gen = _CACHE.get(key)
    if gen is None:
        gen = _CACHE[key] = factory()
    return gen


# -- one heap changes ----------------------------------------------------------------


# -- several heaps change ------------------------------------------------------------
