"""Closed forms for Emperor Nim and k-Emperor Nim, over Python ints of any size.

A position is a tuple of *ranges* (each a multiset of heaps). A move of k-Emperor Nim
plays freely (any stones from any heaps) in at most ``k`` ranges and, in every other
range, takes stones from at most one heap; at least one stone in total.

References
----------
[S19] §3, Game 9 and Theorem 12 (``S19-T12``): P iff every range XORs to 0 and the XOR of
the range totals is 0. Game 10 and Theorem 13 (``S19-T13``): P iff every range XORs to 0
and the range totals satisfy Moore's criterion with modulus ``k+1``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from nimlab.formulas.moore import moore_is_p
from nimlab.formulas.nim import nim_sum

__all__ = ["emperor_is_p", "range_totals"]


def range_totals(ranges: Iterable[Sequence[int]]) -> list[int]:
    """The number of stones in each range.

    Examples
    --------
    >>> range_totals([(1, 2), (3, 3), (4,)])
    [3, 6, 4]
    """
    return [sum(r) for r in ranges]


def emperor_is_p(ranges: Sequence[Sequence[int]], k: int = 1) -> bool:
    """Whether a position of k-Emperor Nim is a P-position (S19-T12 for k = 1, S19-T13).

    Parameters
    ----------
    ranges : sequence of sequences of int
        The ranges, each a sequence of heap sizes ``≥ 0``.
    k : int
        How many ranges a move may play freely (``k ≥ 1``).

    Examples
    --------
    >>> emperor_is_p([(1, 1), (2, 2)])        # totals 2 ⊕ 4 ≠ 0
    False
    >>> emperor_is_p([(1, 1), (3, 2, 1), (2, 2), (1, 2, 3)])   # totals 2, 6, 4, 6
    False
    >>> emperor_is_p([(1, 1), (3, 2, 1), (3, 3), (1, 1)])      # totals 2, 6, 6, 2
    True
    >>> emperor_is_p([(1, 1), (1, 1), (1, 1)], k=2)           # totals 2, 2, 2: '3' ≡ 0 mod 3
    True
    >>> emperor_is_p([(10**30, 10**30), (5, 5)])
    False
    """
    if any(nim_sum(r) for r in ranges):
        return False
    return moore_is_p(range_totals(ranges), k)
