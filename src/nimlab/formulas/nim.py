"""Closed forms for Nim: Bouton's nim-sum and the misère rule.

References
----------
[S19] Theorem 1 (Bouton); [N99] Theorem 1.11 (misère Nim, alias [SM] Theorem 2.3).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from operator import xor
from typing import Any

__all__ = ["mex", "misere_nim_is_p", "nim_sum"]


def nim_sum(heaps: Iterable[int]) -> int:
    """XOR of the heaps: the Grundy value of a Nim position (S19-T1).

    Examples
    --------
    >>> nim_sum([3, 4, 5])
    2
    >>> nim_sum([10**30, 10**30])
    0
    """
    return reduce(xor, heaps, 0)


def misere_nim_is_p(heaps: Iterable[int]) -> bool:
    """Misère Nim P-criterion (N99-T1.11).

    P iff (some heap > 1 and the nim-sum is 0) or (every heap <= 1 and the number of
    heaps of size 1 is odd).

    Examples
    --------
    >>> misere_nim_is_p([1, 1, 1])
    True
    >>> misere_nim_is_p([2, 2])
    True
    >>> misere_nim_is_p([1, 1])
    False
    """
    hs = list(heaps)
    if any(h > 1 for h in hs):
        return nim_sum(hs) == 0
    return sum(hs) % 2 == 1


def mex(values: Any) -> int:
    """Minimum excluded value of an iterable of non-negative ints.

    Examples
    --------
    >>> mex([0, 1, 3])
    2
    >>> mex([])
    0
    """
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m
