"""The compiled move model of the welter family (the ``compiled_options`` hook; imports
numba, so the rules import it only inside the hook)."""

from __future__ import annotations

from typing import Any

from numba import njit

from nimlab.catalog._compiled import setitem

__all__ = ["welter"]


def welter() -> Any:
    """The numba generator of the Welter–Sato game's options (heaps stay distinct).

    Examples
    --------
    >>> sorted(welter()((1, 3)))
    [(0, 3), (1, 0), (1, 2)]
    """

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        n = len(h)
        for i in range(n):
            for v in range(h[i]):
                free = True
                for j in range(n):
                    if h[j] == v:
                        free = False
                        break
                if free:
                    yield setitem(h, i, v)

    return gen
