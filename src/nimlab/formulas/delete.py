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

from collections.abc import Callable, Sequence

from nimlab.core.status import verified_below

__all__ = [
    "SH_T6_STAR_VERIFIED_BELOW",
    "abo_is_p",
    "bit",
    "delete_nim_grundy",
    "sh_delete_nim_is_p",
    "sh_t6_rule",
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
#: answer is taken from it (see ``nimlab theorems``). Read from its status
#: (:mod:`nimlab.core.status`), where it is recorded.
SH_T6_STAR_VERIFIED_BELOW = verified_below("Sh-T6*")


def sh_t6_rule(printed: bool) -> Callable[[int, int, int, int], bool]:
    """[Sh] Theorem 6's case analysis on four positive heaps, as a function of the heaps.

    ``printed=False`` gives :func:`single_delete4_is_p` (``Sh-T6*``, case (5A) replaced by a
    scan of the columns); ``printed=True`` gives the theorem exactly as printed, which is
    false (``⟨12, 14, 15, 40⟩`` is P, it says N) and which nimlab keeps only to re-find
    that counterexample (:mod:`nimlab.theory.sh`). The two differ only in case (5A). The
    function uses plain integer operations only (no lists, no calls) and the flag is a
    constant of its closure, so numba compiles the very same function for the compiled
    local check.

    Examples
    --------
    >>> printed = sh_t6_rule(printed=True)
    >>> printed(1440, 864, 672, 1120), printed(12, 14, 15, 40)
    (True, False)
    >>> sh_t6_rule(printed=False)(12, 14, 15, 40)
    True
    """
    return _sh_t6_cases(printed)


def _sh_t6_cases(printed: bool) -> Callable[[int, int, int, int], bool]:
    """The function of :func:`sh_t6_rule`: one function numba compiles whole (it may call
    nothing), with *printed* a constant of its closure."""

    def is_p(w: int, x: int, y: int, z: int) -> bool:
        # the paper's binary digit I_k(h) is bit k - 1 here
        if w <= 0 or x <= 0 or y <= 0 or z <= 0:
            raise ValueError("single-delete heaps are positive integers")
        a = b = c = d = 0  # 2-adic valuations of w, x, y, z
        while (w >> a) & 1 == 0:
            a += 1
        while (x >> b) & 1 == 0:
            b += 1
        while (y >> c) & 1 == 0:
            c += 1
        while (z >> d) & 1 == 0:
            d += 1
        # order the heaps by valuation (a sorting network; ties never matter)
        if a > b:
            a, b, w, x = b, a, x, w
        if c > d:
            c, d, y, z = d, c, z, y
        if a > c:
            a, c, w, y = c, a, y, w
        if b > d:
            b, d, x, z = d, b, z, x
        if b > c:
            b, c, x, y = c, b, y, x
        if a == b and b == c and c == d:  # (1)
            return True
        if a < b and b == c and c == d:  # (2)
            return (w >> d) & 1 == 0
        if a < b and b < c and c == d:  # (3)
            if (w >> d) & 1 == 1 or (x >> d) & 1 == 1 or (w >> b) & 1 == 0:
                return False
            for k in range(b + 1, d):  # noqa: SIM110 - a loop numba compiles
                if (w >> k) & 1 == 0 and (x >> k) & 1 == 0:
                    return False
            return True
        if a < b and b < c and c < d:
            for j in range(c + 1, d):  # (4B) / (5C)
                if ((w >> j) & 1) + ((x >> j) & 1) + ((y >> j) & 1) < 2:
                    return False
            if (w >> c) & 1 == 0 or (x >> c) & 1 == 0 or (w >> b) & 1 == 0:  # (4C/E), (5D/F)
                return False
            for k in range(b + 1, c):  # (4D), (5E)
                if (w >> k) & 1 == 0 and (x >> k) & 1 == 0:
                    return False
            top = ((w >> d) & 1) + ((x >> d) & 1) + ((y >> d) & 1)
            if top == 0:  # (4A)
                return True
            if top != 3:
                return False
            i = d + 1  # (5B), then (5A)
            if printed:  # as printed: no column above has digit sum 1 or 2
                while (w | x | y | z) >> i:
                    s = ((w >> i) & 1) + ((x >> i) & 1) + ((y >> i) & 1) + ((z >> i) & 1)
                    if s == 1 or s == 2:
                        return False
                    i += 1
                return True
            while True:  # Sh-T6*: the first column whose digit sum is not 3 or 4 decides
                s = ((w >> i) & 1) + ((x >> i) & 1) + ((y >> i) & 1) + ((z >> i) & 1)
                if s == 0:
                    return True
                if s <= 2:
                    return False
                i += 1
        # a = b < ..., a < b = c < d and the like: no case applies
        return False

    return is_p


single_delete4_is_p = sh_t6_rule(printed=False)
single_delete4_is_p.__name__ = single_delete4_is_p.__qualname__ = "single_delete4_is_p"
single_delete4_is_p.__doc__ = """Single-delete Nim on 4 positive heaps: the corrected criterion ``Sh-T6*``.

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
