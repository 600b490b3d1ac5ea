"""Wythoff Nim P-positions by the golden ratio, exact for integers of any size (S18-T7)."""

from __future__ import annotations

from math import isqrt

__all__ = ["wythoff_is_p", "wythoff_pair"]


def wythoff_pair(n: int) -> tuple[int, int]:
    """The n-th Wythoff pair ``(⌊nφ⌋, ⌊nφ⌋ + n)``, computed with integers only.

    Examples
    --------
    >>> [wythoff_pair(n) for n in range(4)]
    [(0, 0), (1, 2), (3, 5), (4, 7)]
    """
    a = (n + isqrt(5 * n * n)) // 2
    return a, a + n


def wythoff_is_p(x: int, y: int) -> bool:
    """Whether ``(x, y)`` is a P-position of Wythoff Nim.

    Examples
    --------
    >>> wythoff_is_p(3, 5), wythoff_is_p(5, 3), wythoff_is_p(3, 4)
    (True, True, False)
    """
    a, b = (x, y) if x <= y else (y, x)
    return wythoff_pair(b - a)[0] == a
