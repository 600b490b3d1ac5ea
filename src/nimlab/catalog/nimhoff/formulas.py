"""2^k-balanced Nimhoff (Fraenkel–Lorberbom): the k-nim-sum.

A move is a Nim move, or takes exactly ``2^k`` stones from each of two heaps.

References
----------
[S19] §1.8, Definition 8 and Theorem 10 (``S19-T10``): ``a ⓚ b = a ⊕ b ⊕ a_k·b_k``
(``a_k`` the binary digit of ``a`` of weight ``2^k``; the product is XORed into bit 0),
and ``G(n1, ..., nr) = n1 ⓚ n2 ⓚ ... ⓚ nr`` for ``k ≥ 1`` (it fails for ``k = 0``).
"""

from __future__ import annotations

from collections.abc import Iterable

from nimlab.core.errors import InvalidParameterError

__all__ = ["check_nimhoff_k", "ksum", "nimhoff_grundy"]


def check_nimhoff_k(k: object) -> int:
    """Return *k* if it is an integer >= 1, else raise InvalidParameterError.

    Examples
    --------
    >>> check_nimhoff_k(0)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: nimhoff needs k >= 1, got k=0: the formula G = n1 ⓚ n2 ⓚ ... (S19-T10) holds only for k >= 1 and fails for k = 0 (moves taking 1 stone from each of two heaps)
    """
    if isinstance(k, bool) or not isinstance(k, int):
        raise InvalidParameterError(f"parameter k of nimhoff must be an integer, got {k!r}")
    if k < 1:
        raise InvalidParameterError(
            f"nimhoff needs k >= 1, got k={k}: the formula G = n1 ⓚ n2 ⓚ ... (S19-T10) holds "
            "only for k >= 1 and fails for k = 0 (moves taking 1 stone from each of two heaps)"
        )
    return k


def ksum(a: int, b: int, k: int) -> int:
    """The k-nim-sum ``a ⓚ b = a ⊕ b ⊕ (a_k · b_k)``.

    Examples
    --------
    >>> ksum(4, 6, 2), ksum(13, 3, 1)
    (3, 14)
    """
    return a ^ b ^ ((a >> k) & (b >> k) & 1)


def nimhoff_grundy(heaps: Iterable[int], k: int) -> int:
    """Grundy value of 2^k-balanced Nimhoff (S19-T10): ``n1 ⓚ n2 ⓚ ... ⓚ nr``.

    Examples
    --------
    >>> nimhoff_grundy([4, 6], 2)
    3
    >>> nimhoff_grundy([2, 2], 1)  # take 2 from both: 2 ⊕ 2 ⊕ 1
    1
    """
    check_nimhoff_k(k)
    g = 0
    for h in heaps:
        g = ksum(g, h, k)
    return g
