"""The compiled move model of the nimhoff family (the ``compiled_options`` hook; imports
numba, so the rules import it only inside the hook)."""

from __future__ import annotations

from typing import Any

from numba import njit

from nimlab.catalog._compiled import setitem

__all__ = ["nimhoff"]


def nimhoff(k: int) -> Any:
    """The numba generator of 2^k-balanced Nimhoff's options: Nim's, and ``2^k`` from
    two heaps.

    Examples
    --------
    >>> sorted(nimhoff(1)((2, 2)))
    [(0, 0), (0, 2), (1, 2), (2, 0), (2, 1)]
    """
    s = 1 << min(k, 62)  # compiled heaps are below 2^62: a larger 2^k allows no pair move

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        n = len(h)
        for i in range(n):
            for v in range(h[i]):
                yield setitem(h, i, v)
        for i in range(n):
            if h[i] >= s:
                for j in range(i + 1, n):
                    if h[j] >= s:
                        yield setitem(setitem(h, i, h[i] - s), j, h[j] - s)

    return gen
