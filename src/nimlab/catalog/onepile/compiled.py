"""The compiled move model of the onepile family (the ``compiled_options`` hook; imports
numba, so the rules import it only inside the hook)."""

from __future__ import annotations

from typing import Any

from numba import njit

from nimlab.catalog._compiled import setitem
from nimlab.catalog.nim.compiled import nim

__all__ = ["allbut", "subtraction"]


def subtraction(amounts: tuple[int, ...]) -> Any:
    """Subtraction(S) on one heap: take any amount of *amounts*.

    Examples
    --------
    >>> sorted(subtraction((1, 3))((4,)))
    [(1,), (3,)]
    """
    s_list = tuple(sorted(amounts))

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        for s in s_list:
            if s <= h[0]:
                yield setitem(h, 0, h[0] - s)

    return gen


def allbut(excluded: tuple[int, ...]) -> Any:
    """All-but(S) on one heap: take any positive amount but those of *excluded*.

    Examples
    --------
    >>> sorted(allbut((2,))((3,)))
    [(0,), (2,)]
    """
    if not excluded:
        return nim()
    ex = tuple(sorted(excluded))

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        for s in range(1, h[0] + 1):
            ok = True
            for e in ex:
                if e == s:
                    ok = False
            if ok:
                yield setitem(h, 0, h[0] - s)

    return gen
