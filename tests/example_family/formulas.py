"""Take-three Nim's closed form: the nim-sum of the heaps modulo 4.

One heap is the subtraction game S = {1, 2, 3}: ``G(n) = n mod 4`` (the options of n
have the values of n-1, n-2, n-3 mod 4, every value below n mod 4 and not it). By the
Sprague–Grundy theorem a position is the sum of its heaps.
"""

from __future__ import annotations

from functools import reduce
from operator import xor

__all__ = ["take_three_grundy"]


def take_three_grundy(heaps: tuple[int, ...]) -> int:
    """Grundy value of a Take-three Nim position: ``(n1 mod 4) ⊕ ... ⊕ (nr mod 4)``.

    Examples
    --------
    >>> take_three_grundy((5, 6, 7)), take_three_grundy((4, 8))
    (0, 0)
    """
    return reduce(xor, (h % 4 for h in heaps), 0)
