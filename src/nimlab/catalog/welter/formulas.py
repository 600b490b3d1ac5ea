"""The Welter–Sato game (Mayan game): Grundy values from the 2-adic closeness of heaps.

A move is a Nim move that never makes two heaps equal (a heap of 0 counts as a heap).

References
----------
[S19] §1.5, Definition 7 and Theorem 7 (``S19-T7``):
``G(n1, ..., nr) = ⊕ n_i ⊕ ⊕_{i<j} M(n_i, n_j)`` with ``M(x, y) = 2^{e+1} − 1`` where
``x ≡ y (mod 2^e)`` and ``x ≢ y (mod 2^{e+1})``.
"""

from __future__ import annotations

from collections.abc import Sequence

from nimlab.core.errors import InvalidParameterError, InvalidPositionError

__all__ = ["welter_grundy", "welter_m"]


def welter_m(x: int, y: int) -> int:
    """``M(x, y) = 2^(e+1) − 1`` where ``e`` is the number of low binary digits x and y share.

    Parameters
    ----------
    x, y : int
        Distinct non-negative integers.

    Examples
    --------
    >>> welter_m(3, 7), welter_m(5, 6)
    (7, 1)
    >>> welter_m(0, 2**100)
    2535301200456458802993406410751
    >>> welter_m(4, 4)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: M(4, 4) is undefined: x and y must differ (they agree in every binary digit)
    """
    if x == y:
        raise InvalidParameterError(
            f"M({x}, {y}) is undefined: x and y must differ (they agree in every binary digit)"
        )
    d = x ^ y
    e = (d & -d).bit_length() - 1
    return (1 << (e + 1)) - 1


def welter_grundy(heaps: Sequence[int]) -> int:
    """Grundy value of a Welter–Sato position (S19-T7).

    Parameters
    ----------
    heaps : sequence of int
        Pairwise distinct heap sizes (>= 0).

    Raises
    ------
    InvalidPositionError
        If two heaps are equal.

    Examples
    --------
    >>> welter_grundy([1, 3])  # 1 ⊕ 3 ⊕ M(1, 3) = 2 ⊕ 3
    1
    >>> welter_grundy([0, 1]), welter_grundy([2])
    (0, 2)
    """
    g = 0
    hs = list(heaps)
    for i, x in enumerate(hs):
        g ^= x
        for j in range(i + 1, len(hs)):
            y = hs[j]
            if x == y:
                raise InvalidPositionError(
                    f"welter: heaps {i + 1} and {j + 1} are both {x}, but heaps must be "
                    "pairwise distinct"
                )
            g ^= welter_m(x, y)
    return g
