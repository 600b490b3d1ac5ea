"""The compiled move model of Nim (the ``compiled_options`` hook; imports
numba, so the rules import it only inside the hook)."""

from __future__ import annotations

from typing import Any

from numba import njit

from nimlab.catalog._compiled import setitem

__all__ = ["nim"]


def nim() -> Any:
    """Nim's options of a tuple of ``int64`` heaps: one heap lowered to any smaller size.

    Examples
    --------
    >>> sorted(nim()((1, 2)))
    [(0, 2), (1, 0), (1, 1)]
    """

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        for i in range(len(h)):
            for v in range(h[i]):
                yield setitem(h, i, v)

    return gen
