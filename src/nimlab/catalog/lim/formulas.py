"""Lim (Fink–Fraenkel–Santos): the Grundy value is the bitwise majority.

A move chooses two of the three heaps, takes the same ``t ≥ 1`` from each, and adds
``t`` to the third heap.

References
----------
[S19] §1.6, Theorem 8 (``S19-T8``): ``G(a, b, c) = ((a + b + c) − (a ⊕ b ⊕ c)) / 2``,
which is the bitwise majority of a, b, c.
"""

from __future__ import annotations

__all__ = ["bitwise_majority", "lim_grundy"]


def lim_grundy(a: int, b: int, c: int) -> int:
    """Grundy value of the Lim position ``(a, b, c)`` (S19-T8).

    Examples
    --------
    >>> lim_grundy(3, 5, 5), lim_grundy(11, 6, 5)
    (5, 7)
    """
    return ((a + b + c) - (a ^ b ^ c)) >> 1


def bitwise_majority(a: int, b: int, c: int) -> int:
    """The number whose binary digit i is 1 iff at least two of a, b, c have digit i.

    Examples
    --------
    >>> bitwise_majority(0b1011, 0b110, 0b101)
    7
    """
    return (a & b) | (b & c) | (a & c)
