"""Lim's compiled move model (the ``compiled_options`` hook; imports numba, so the rules
import it only inside the hook)."""

from __future__ import annotations

from typing import Any

from numba import njit

from nimlab.catalog._compiled import setitem

__all__ = ["lim"]


def lim() -> Any:
    """The numba generator of Lim's options of a tuple of three ``int64`` heaps.

    Examples
    --------
    >>> sorted(lim()((1, 1, 0)))
    [(0, 0, 1)]
    """

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        for c in range(3):
            i = 0 if c < 2 else 1
            j = 1 if c == 0 else 2
            m = 3 - i - j
            for t in range(1, min(h[i], h[j]) + 1):
                yield setitem(setitem(setitem(h, i, h[i] - t), j, h[j] - t), m, h[m] + t)

    return gen
