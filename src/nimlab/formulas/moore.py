"""Closed forms for Moore's Nim_k (Nim_K): the digit-wise sums mod k+1.

A move of Nim_k takes stones from at most ``k`` heaps (at least one stone in total).

References
----------
[S19] §1.3, Definition 5 and Theorem 5 (``S19-T5``): P iff ``n1 ⊕_{k+1} ... ⊕_{k+1} nr = 0``.
[N99] Definition 2.1 (``NIM_K``), Theorem 2.4 (``N99-T2.4``, the same criterion) and
Definition 2.9 / Theorem 2.10 (``N99-T2.10``, misère Nim_K).
"""

from __future__ import annotations

from collections.abc import Iterable

from nimlab.core.errors import InvalidParameterError

__all__ = ["digit_sums", "misere_moore_is_p", "moore_is_p", "moore_string", "nim_k_value"]


def _modulus(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidParameterError(
            f"k must be an integer >= 1 (the number of heaps a move may touch), got {k!r}"
        )
    return k + 1


def digit_sums(heaps: Iterable[int], modulus: int) -> list[int]:
    """Sums mod *modulus* of the binary digits of the heaps, lowest digit first.

    Trailing (most significant) zero sums are removed, so the empty list means "all 0".

    Examples
    --------
    >>> digit_sums([3, 5, 7], 3)
    [0, 2, 2]
    >>> digit_sums([2, 5, 7], 2)
    []
    """
    counts: list[int] = []
    for h in heaps:
        if h < 0:
            raise InvalidParameterError(f"heap {h} is negative; heaps are integers >= 0")
        i = 0
        while h:
            if h & 1:
                while len(counts) <= i:
                    counts.append(0)
                counts[i] += 1
            h >>= 1
            i += 1
    sums = [c % modulus for c in counts]
    while sums and sums[-1] == 0:
        sums.pop()
    return sums


def moore_string(heaps: Iterable[int], k: int) -> str:
    """[S19]'s string ``n1 ⊕_{k+1} n2 ⊕_{k+1} ... ⊕_{k+1} nr``.

    The binary digits of the heaps are added digit by digit mod ``k+1``, written from the
    most significant digit, with leading zeros removed; an empty result is ``'0'``. When
    ``k+1 > 10`` a digit may need two characters, so digits are then separated by ``,``.

    Parameters
    ----------
    heaps : iterable of int
        Heap sizes (>= 0).
    k : int
        The number of heaps a move may touch (>= 1); the modulus is ``k+1``.

    Examples
    --------
    >>> moore_string([3, 5, 7], 2)       # 3 ⊕3 5 ⊕3 7
    '220'
    >>> moore_string([8, 9, 10, 11], 3)  # 8 ⊕4 9 ⊕4 10 ⊕4 11
    '22'
    >>> moore_string([3, 5, 6, 7], 2)    # 3 ⊕3 5 ⊕3 6 ⊕3 7
    '0'
    >>> moore_string([1] * 11, 11)
    '11'
    >>> moore_string([1] * 11, 10)
    '0'
    """
    m = _modulus(k)
    digits = digit_sums(heaps, m)
    if not digits:
        return "0"
    sep = "" if m <= 10 else ","
    return sep.join(str(d) for d in reversed(digits))


def moore_is_p(heaps: Iterable[int], k: int) -> bool:
    """Moore's criterion (S19-T5, N99-T2.4): P iff every digit-wise sum is 0 mod k+1.

    Examples
    --------
    >>> moore_is_p([3, 5, 6, 7], 2)
    True
    >>> moore_is_p([3, 5, 7], 2)
    False
    >>> moore_is_p([1, 2, 3], 1)  # Nim_1 is Nim
    True
    """
    return not digit_sums(heaps, _modulus(k))


def nim_k_value(heaps: Iterable[int], K: int) -> int:
    """[N99]'s ``NIM_K(N)``: the digit-wise sums mod K+1 read as a number in base K+1.

    ``NIM_1`` is the nim-sum; a position is P iff ``NIM_K = 0``.

    Examples
    --------
    >>> nim_k_value([3, 4, 5], 2)   # (2, 1, 2) in base 3
    23
    >>> nim_k_value([3, 4, 5], 1), nim_k_value([2, 5, 7], 1)
    (2, 0)
    """
    m = _modulus(K)
    value = 0
    for d in reversed(digit_sums(heaps, m)):
        value = value * m + d
    return value


def misere_moore_is_p(heaps: Iterable[int], k: int) -> bool:
    """Misère Nim_k criterion (N99-T2.10): the last mover loses.

    P iff (some heap > 1 and the normal-play criterion holds) or (every heap <= 1 and
    the number of heaps of size 1 is ≡ 1 mod k+1).

    Examples
    --------
    >>> misere_moore_is_p([1, 1, 1, 1], 2), misere_moore_is_p([1, 1, 1], 2)
    (True, False)
    >>> misere_moore_is_p([3, 5, 6, 7], 2)
    True
    """
    hs = list(heaps)
    m = _modulus(k)
    if any(h > 1 for h in hs):
        return not digit_sums(hs, m)
    return sum(1 for h in hs if h == 1) % m == 1
