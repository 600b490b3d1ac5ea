"""Take-three Nim's compiled move model: a numba generator over a tuple of heaps.

This module imports numba: the rules import it only inside the ``compiled_options`` hook.
"""

from __future__ import annotations

from typing import Any

from numba import njit
from numba.cpython.unsafe.tuple import tuple_setitem

__all__ = ["take_three"]

setitem: Any = tuple_setitem


def take_three() -> Any:
    """The options of a tuple of ``int64`` heaps: one heap lowered by 1, 2 or 3.

    Examples
    --------
    >>> sorted(take_three()((2, 4)))
    [(0, 4), (1, 4), (2, 1), (2, 2), (2, 3)]
    """

    @njit
    def gen(h: Any) -> Any:  # pragma: no cover - compiled
        for i in range(len(h)):
            for t in range(1, min(3, h[i]) + 1):
                yield setitem(h, i, h[i] - t)

    return gen
