"""Circular Nim CN(n, k): the CN(6, 4) criterion and the circle's symmetries.

n heaps stand on a circle; a move chooses ``k`` consecutive heaps and takes at least
one stone in total from them. CN(n, 1) is Nim, CN(n, n) is one heap of the total and
CN(n, n−1) is Moore's Nim_{n−1} ([S19] §1.7).

References
----------
[S19] §1.7, Theorem 9 (``S19-T9``): with heaps ``a..f`` clockwise and ``a`` the minimum,
CN(6, 4) is P iff ``a+b = d+e``, ``b+c = e+f`` and ``a ⊕ c ⊕ e = 0``. GAMES.md's
clarification: the criterion must hold for *some* labelling with a minimum at ``a``
(ties, or reading counter-clockwise).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from nimlab.core.errors import InvalidPositionError

__all__ = ["cn64_is_p", "dihedral_images", "dihedral_min"]


def dihedral_images(heaps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The rotations of the circle of heaps, read clockwise and counter-clockwise.

    Examples
    --------
    >>> sorted(set(dihedral_images((1, 2, 3))))
    [(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)]
    """
    t = tuple(heaps)
    n = len(t)
    r = t[::-1]
    for s in range(n):
        yield t[s:] + t[:s]
        yield r[s:] + r[:s]


def dihedral_min(heaps: Sequence[int]) -> tuple[int, ...]:
    """The least of :func:`dihedral_images` (the canonical reading of the circle).

    Only the readings that start at a smallest heap can be least, so only they are built
    (a search canonicalises every option it generates).

    Examples
    --------
    >>> dihedral_min((3, 1, 2, 1))
    (1, 2, 1, 3)
    >>> dihedral_min((2, 0, 5, 0, 4)) == min(dihedral_images((2, 0, 5, 0, 4)))
    True
    """
    t = tuple(heaps)
    if not t:
        return t
    n = len(t)
    low = min(t)
    r = t[::-1]
    best: tuple[int, ...] | None = None
    for s in range(n):
        if t[s] == low:
            cand = t[s:] + t[:s]
            if best is None or cand < best:
                best = cand
        if r[s] == low:
            cand = r[s:] + r[:s]
            if best is None or cand < best:
                best = cand
    assert best is not None
    return best


def cn64_is_p(heaps: Sequence[int]) -> bool:
    """CN(6, 4) P-criterion (S19-T9), for six heaps in circle order.

    Examples
    --------
    >>> cn64_is_p((0, 0, 0, 0, 0, 0))
    True
    >>> cn64_is_p((1, 2, 3, 1, 2, 3))   # a+b=d+e, b+c=e+f, 1⊕3⊕2 = 0
    True
    >>> cn64_is_p((2, 3, 1, 2, 3, 1))   # the same circle, started elsewhere
    True
    >>> cn64_is_p((1, 1, 1, 1, 1, 2))
    False
    """
    t = tuple(heaps)
    if len(t) != 6:
        raise InvalidPositionError(f"CN(6, 4) has six heaps, got {len(t)}")
    low = min(t)
    tt = t + t  # the circle read from each start s, clockwise then counter-clockwise
    for s in range(6):
        if tt[s] != low:
            continue  # a is a minimum
        a, b, c, d, e, f = tt[s : s + 6]
        if a + b == d + e and b + c == e + f and a ^ c ^ e == 0:
            return True
        a, b, c, d, e, f = a, tt[s + 5], tt[s + 4], d, tt[s + 2], tt[s + 1]
        if a + b == d + e and b + c == e + f and a ^ c ^ e == 0:
            return True
    return False
