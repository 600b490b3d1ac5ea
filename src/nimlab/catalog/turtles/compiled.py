"""Turning Turtles' compiled index model (the ``index_model`` hook; imports numba, so the
rules import it only inside the hook): a board's sets of heads as bit masks.

Module-level functions over a tuple of parameters (``params``), so that one compiled
kernel serves every region of a game (numba compiles per function and argument types,
not per region).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = ["turtles_decode", "turtles_encode", "turtles_options"]
#
# Module-level functions over a tuple of parameters (``params``), so that one compiled
# kernel serves every region of a game (numba compiles per function and argument types,
# not per region).


@njit(cache=True)
def turtles_decode(params: Any, i: Any) -> Any:  # pragma: no cover - compiled
    """Turning Turtles: the code ``(mask,)`` of index *i* (the mask itself)."""
    return (np.int64(i),)


@njit(cache=True)
def turtles_encode(params: Any, q: Any) -> Any:  # pragma: no cover - compiled
    m = q[0]
    return m if 0 <= m < params[2] else np.int64(-1)


@njit  # a generator: numba cannot reload a cached one for another kernel (KeyError)
def turtles_options(params: Any, q: Any) -> Any:  # pragma: no cover - compiled
    """Options of the board ``params = (rows, cols, 2^(rows*cols))``: bit
    ``(a-1)*cols + (b-1)`` is the coin ``(a, b)`` (row-major). A move turns a head and
    the set ``{(a', b), (a, b'), (a', b')}``, all before it in row-major order, so the mask
    decreases."""
    rows = params[0]
    cols = params[1]
    m = q[0]
    a = 0
    while a < rows:
        b = 0
        while b < cols:
            head = np.int64(1) << (a * cols + b)
            if m & head:
                a2 = 0
                while a2 <= a:
                    b2 = 0
                    while b2 <= b:
                        flip = (
                            head
                            | (np.int64(1) << (a2 * cols + b))
                            | (np.int64(1) << (a * cols + b2))
                            | (np.int64(1) << (a2 * cols + b2))
                        )
                        yield (m ^ flip,)
                        b2 += 1
                    a2 += 1
            b += 1
        a += 1
