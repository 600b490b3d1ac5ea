"""Wythoff Nim's compiled move model (the ``compiled_options`` hook; imports numba, so
the rules import it only inside the hook)."""

from __future__ import annotations

from typing import Any

from numba import njit

from nimlab.catalog._compiled import setitem

__all__ = ["wythoff"]


def wythoff() -> Any:
    """The numba generator of Wythoff Nim's options of a pair of ``int64`` heaps.

    Examples
    --------
    >>> sorted(wythoff()((1, 1)))
    [(0, 0), (0, 1), (1, 0)]
    """

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        x = h[0]
        y = h[1]
        for t in range(1, x + 1):
            yield setitem(h, 0, x - t)
        for t in range(1, y + 1):
            yield setitem(h, 1, y - t)
        for t in range(1, min(x, y) + 1):
            yield setitem(setitem(h, 0, x - t), 1, y - t)

    return gen
