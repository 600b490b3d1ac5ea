"""Closed forms for Ryuo Nim, restricted Ryuo Nim and RGAMES, over Python ints of any size.

References
----------
[S18] Theorem 8 (``S18-T8``, Miyadera et al.): Ryuo Nim(p),
``G(x, y) = p(⌊x/p⌋ ⊕ ⌊y/p⌋) + ((x + y) mod p)``.
Theorem 9 (``S18-T9``, Suetsugu–Fukui): restricted Ryuo Nim(p, q) with ``p | q``,
``G = p(⌊(x mod q)/p⌋ ⊕ ⌊(y mod q)/p⌋) + ((x + y) mod p)``.
Theorems 10 and 12 (``S18-T12``): RGAMES(Subtraction({1..p−1}); G1, …, Gm) with every Gi
of inner period p, ``G = p(⌊G1(x1)/p⌋ ⊕ … ⊕ ⌊Gm(xm)/p⌋) + ((x1 + … + xm) mod p)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from nimlab.core.errors import InvalidParameterError

__all__ = ["restricted_ryuo_grundy", "rgames_grundy", "ryuo_grundy", "splits"]


def _check_p(p: int) -> None:
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise InvalidParameterError(f"p must be an integer >= 1, got {p!r}")


def ryuo_grundy(x: int, y: int, p: int) -> int:
    """Grundy value of Ryuo Nim(p) at heaps ``(x, y)`` (S18-T8).

    Examples
    --------
    >>> [ryuo_grundy(x, 0, 3) for x in range(9)]
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    >>> ryuo_grundy(1, 1, 3), ryuo_grundy(4, 5, 3), ryuo_grundy(8, 8, 3)
    (2, 0, 1)
    >>> ryuo_grundy(5, 7, 1) == 5 ^ 7   # Ryuo Nim(1) is Nim
    True
    """
    _check_p(p)
    return p * ((x // p) ^ (y // p)) + (x + y) % p


def restricted_ryuo_grundy(x: int, y: int, p: int, q: int) -> int:
    """Grundy value of restricted Ryuo Nim(p, q) at ``(x, y)``, for ``p | q`` (S18-T9).

    Examples
    --------
    >>> restricted_ryuo_grundy(7, 2, 3, 6)   # 3(⌊1/3⌋ ⊕ ⌊2/3⌋) + 0
    0
    >>> restricted_ryuo_grundy(10**20, 1, 2, 4)
    1
    >>> restricted_ryuo_grundy(1, 1, 2, 3)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: S18-T9 needs p | q, got p=2, q=3
    >>> restricted_ryuo_grundy(1, 1, 0, 3)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: p must be an integer >= 1, got 0
    """
    _check_p(p)
    if isinstance(q, bool) or not isinstance(q, int) or q < 1 or q % p:
        raise InvalidParameterError(f"S18-T9 needs p | q, got p={p!r}, q={q!r}")
    return p * (((x % q) // p) ^ ((y % q) // p)) + (x + y) % p


def rgames_grundy(heaps: Sequence[int], part_values: Sequence[int], p: int) -> int:
    """Grundy value of RGAMES(Subtraction({1..p−1}); G1, …, Gm) (S18-T12).

    Parameters
    ----------
    heaps : sequence of int
        The heaps ``x1, …, xm``.
    part_values : sequence of int
        ``G1(x1), …, Gm(xm)``: the Grundy value of each heap in its own one-heap game,
        every one of which must have inner period ``p``.
    p : int
        The inner period; the sum-move takes ``1 … p−1`` stones in total.

    Examples
    --------
    [S18] Example 2: G1 = All-but({8}), G2 = All-but({4, 8}), p = 4, at (x, y) = (9, 13),
    where G1(9) = 1 and G2(13) = 5:

    >>> rgames_grundy((9, 13), (1, 5), 4)
    6
    """
    _check_p(p)
    if len(heaps) != len(part_values):
        raise InvalidParameterError(
            f"one Grundy value per heap is needed, got {len(part_values)} for {len(heaps)} heaps"
        )
    acc = 0
    for v in part_values:
        acc ^= v // p
    return p * acc + sum(heaps) % p


def splits(heaps: tuple[int, ...], t: int) -> Iterator[tuple[int, ...]]:
    """Every way to take *t* stones in total from *heaps*, each at most its heap.

    The sum-move of Ryuo Nim, restricted Ryuo Nim and RGAMES.

    Examples
    --------
    >>> list(splits((1, 2), 2))
    [(1, 0), (0, 1)]
    """
    if len(heaps) == 1:
        if t <= heaps[0]:
            yield (heaps[0] - t,)
        return
    room = sum(heaps[1:])
    for a in range(max(0, t - room), min(t, heaps[0]) + 1):
        for rest in splits(heaps[1:], t - a):
            yield (heaps[0] - a, *rest)
