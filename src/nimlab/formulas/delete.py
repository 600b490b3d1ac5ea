"""Closed forms for Delete Nim and its generalizations, over Python ints of any size.

References
----------
[S19] §2, Definition 9 and Theorem 11 (``S19-T11``): Delete Nim ``G(a, b) = tail(a ∨ b)``.
[Sh] Theorem 1 (``Sh-T1``), Theorem 2 (``Sh-T2``, ABO-delete Nim), Theorem 3 (``Sh-T3``,
single-delete Nim on 3 heaps), Theorem 6 (``Sh-T6``, 4 heaps: false as printed; the
corrected ``Sh-T6*`` is a conjecture), Proposition 7 (``Sh-P7``) and Proposition 8
(``Sh-P8``).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "SH_T6_STAR_VERIFIED_BELOW",
    "abo_is_p",
    "bit",
    "delete_nim_grundy",
    "sh_delete_nim_is_p",
    "single_delete3_is_p",
    "single_delete4_is_p",
    "single_delete_all_odd",
    "single_delete_twos_is_p",
    "tail",
    "v2",
]


def tail(x: int) -> int:
    """Number of trailing 1 bits of ``x ≥ 0`` ([S19] Definition 9).

    Examples
    --------
    >>> tail(3), tail(10), tail(21)
    (2, 0, 1)
    >>> tail(2**200 - 1)
    200
    """
    if x < 0:
        raise ValueError(f"tail is defined for integers >= 0, got {x}")
    return (~x & (x + 1)).bit_length() - 1


def delete_nim_grundy(a: int, b: int) -> int:
    """Grundy value of Delete Nim ([S19] form) at heaps ``(a, b)``: ``tail(a ∨ b)`` (S19-T11).

    Examples
    --------
    >>> 3 | 5, 9 | 12
    (7, 13)
    >>> delete_nim_grundy(3, 5), delete_nim_grundy(9, 12), delete_nim_grundy(2, 4)
    (3, 1, 0)
    """
    return tail(a | b)


def v2(z: int) -> int:
    """2-adic valuation of a positive integer: the largest ``k`` with ``2**k`` dividing ``z``.

    Examples
    --------
    >>> v2(1), v2(12), v2(1440), v2(2**100)
    (0, 2, 5, 100)
    """
    if z <= 0:
        raise ValueError(f"v2 is defined for positive integers, got {z}")
    return (z & -z).bit_length() - 1


def bit(z: int, k: int) -> int:
    """``I_k(z)``: the ``k``-th binary digit of ``z`` from the bottom, 1-based ([Sh] §6).

    Examples
    --------
    >>> [bit(6, k) for k in (1, 2, 3, 4)]
    [0, 1, 1, 0]
    """
    if k < 1:
        raise ValueError(f"binary digits are numbered from 1, got k={k}")
    return (z >> (k - 1)) & 1


def sh_delete_nim_is_p(y: int, z: int) -> bool:
    """Delete Nim ([Sh] form, heaps ``≥ 1``): P iff both heaps are odd (Sh-T1).

    Examples
    --------
    >>> sh_delete_nim_is_p(1, 1), sh_delete_nim_is_p(3, 7), sh_delete_nim_is_p(3, 4)
    (True, True, False)
    """
    return y % 2 == 1 and z % 2 == 1


def abo_is_p(heaps: Sequence[int]) -> bool:
    """All-but-one delete Nim on ``n = len(heaps) ≥ 2`` heaps: P iff every heap ``z`` has
    ``1 ≤ z mod n(n−1) ≤ n−1`` (Sh-T2).

    Examples
    --------
    >>> abo_is_p([1, 1]), abo_is_p([3, 5]), abo_is_p([2, 1])
    (True, True, False)
    >>> abo_is_p([1, 2, 7]), abo_is_p([1, 2, 6])
    (True, False)
    """
    n = len(heaps)
    if n < 2:
        raise ValueError(f"ABO-delete Nim has at least 2 heaps, got {n}")
    m = n * (n - 1)
    return all(1 <= z % m <= n - 1 for z in heaps)


def single_delete3_is_p(x: int, y: int, z: int) -> bool:
    """Single-delete Nim on 3 positive heaps: P iff ``v2(x) = v2(y) = v2(z)`` (Sh-T3).

    Examples
    --------
    >>> single_delete3_is_p(1, 1, 1), single_delete3_is_p(2, 6, 10), single_delete3_is_p(2, 4, 6)
    (True, True, False)
    """
    return v2(x) == v2(y) == v2(z)


#: Sh-T6* (the corrected four-heap criterion, a conjecture) has been verified by nimlab's own
#: compiled local check on every position with all heaps below this bound; outside it no
#: answer is taken from it (see ``nimlab theorems``).
SH_T6_STAR_VERIFIED_BELOW = 48


def single_delete4_is_p(w: int, x: int, y: int, z: int) -> bool:
    """Single-delete Nim on 4 positive heaps: the corrected criterion ``Sh-T6*``.

    **Status: conjectured.** [Sh] Theorem 6 as printed is false (smallest counterexample
    ``⟨12, 14, 15, 40⟩``, a P-position that its case (5) calls N). This is the statement
    with case (5A) replaced by a scan of the binary columns ``i = d+2, d+3, …`` from the
    bottom up: a column where ``I_i(w)+I_i(x)+I_i(y)+I_i(z)`` is 1 or 2 makes the position
    N, the first column where it is 0 makes it P, columns with 3 or 4 continue. nimlab
    verified it on every position with heaps below :data:`SH_T6_STAR_VERIFIED_BELOW`
    and answers from it only there; elsewhere it is a conjecture, not a theorem.

    The heaps are first ordered by 2-adic valuation, ``a = v2(w) ≤ b = v2(x) ≤ c = v2(y)
    ≤ d = v2(z)`` (ties never matter: each case names only heaps of distinct valuations).

    Examples
    --------
    The paper's worked examples of cases (1) to (5) are P-positions:

    >>> single_delete4_is_p(1440, 864, 672, 1120)
    True
    >>> single_delete4_is_p(294, 208, 304, 432), single_delete4_is_p(669, 468, 800, 288)
    (True, True)
    >>> single_delete4_is_p(11133, 12716, 7136, 13312)
    True
    >>> single_delete4_is_p(45053, 62932, 32576, 64512)
    True

    and so are the terminal position and the smallest counterexample to the printed
    theorem; the near-miss of case (2) is not:

    >>> single_delete4_is_p(1, 1, 1, 1), single_delete4_is_p(12, 14, 15, 40)
    (True, True)
    >>> single_delete4_is_p(310, 208, 304, 432)
    False
    """
    hs = sorted((w, x, y, z), key=v2)
    w, x, y, z = hs
    a, b, c, d = (v2(h) for h in hs)
    if a == b == c == d:  # (1)
        return True
    if a < b == c == d:  # (2)
        return bit(w, d + 1) == 0
    if a < b < c == d:  # (3)
        return (
            bit(w, d + 1) == 0
            and bit(x, d + 1) == 0
            and all(bit(w, k) + bit(x, k) >= 1 for k in range(b + 2, d + 1))
            and bit(w, b + 1) == 1
        )
    if a < b < c < d:
        common = (
            all(bit(w, j) + bit(x, j) + bit(y, j) >= 2 for j in range(c + 2, d + 1))  # B / C
            and bit(w, c + 1) == 1  # (4C), (5D)
            and bit(x, c + 1) == 1
            and all(bit(w, k) + bit(x, k) >= 1 for k in range(b + 2, c + 1))  # (4D), (5E)
            and bit(w, b + 1) == 1  # (4E), (5F)
        )
        if not common:
            return False
        top = (bit(w, d + 1), bit(x, d + 1), bit(y, d + 1))
        if top == (0, 0, 0):  # (4A)
            return True
        if top == (1, 1, 1):  # (5B), then the column scan that replaces (5A)
            i = d + 2
            while True:
                s = bit(w, i) + bit(x, i) + bit(y, i) + bit(z, i)
                if s == 0:
                    return True
                if s <= 2:
                    return False
                i += 1
        return False
    # a = b < ..., a < b = c < d and the like: no case applies
    return False


def single_delete_all_odd(heaps: Sequence[int]) -> bool:
    """Whether every heap is odd: such positions are P for every ``n ≥ 2`` (Sh-P7).

    Examples
    --------
    >>> single_delete_all_odd([1, 3, 5, 7, 9]), single_delete_all_odd([1, 2, 3])
    (True, False)
    """
    return all(h % 2 == 1 for h in heaps)


def single_delete_twos_is_p(n: int) -> bool:
    """Whether ``⟨2, …, 2⟩`` (``n`` heaps) is P in single-delete Nim: iff ``n mod 3 ≠ 2`` (Sh-P8).

    Examples
    --------
    >>> [single_delete_twos_is_p(n) for n in range(2, 9)]
    [False, True, True, False, True, True, False]
    """
    return n % 3 != 2
