"""Emperor Nim and k-Emperor Nim: the winning move of the proof of [S19] Theorem 12.

1. In every range whose heaps do not XOR to 0, a Bouton move on one heap makes the XOR 0
   (a move on at most one heap is allowed in every range).
2. The range totals are now even; a Bouton move on the totals (Naito's procedure for
   ``k`` ranges, k-Emperor) gives new totals, smaller by an even amount.
3. Lemma 3: a range with XOR 0 can lose any even number ``2l`` of stones and keep XOR 0.
   Repeatedly take ``t ≤ 2^h`` from two heaps of 2-adic valuation ``h`` (the smallest
   among nonzero heaps): the XOR is unchanged, and whole phases (``t = 2^h``) clear one
   binary digit of two heaps, so the number of phases is at most the number of digits.

References
----------
[S19] §3, Lemmas 2 and 3, Theorems 12 and 13 (``S19-T12``, ``S19-T13``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nimlab.catalog.strategies.nimk import naito_procedure
from nimlab.core.strategy import Construction

if TYPE_CHECKING:
    from nimlab.catalog.emperor.rules import Emperor

__all__ = ["emperor_move", "emperor_strategy", "reduce_keeping_xor"]

Ranges = tuple[tuple[int, ...], ...]


def reduce_keeping_xor(heaps: list[int], target: int) -> list[int]:
    """Heaps ``≤`` *heaps*, XOR still 0, total *target* ([S19] Lemma 3).

    *heaps* must XOR to 0, and ``sum(heaps) − target`` must be even and ``≥ 0``.

    The phases of the lemma (two heaps of the smallest valuation ``h`` lose ``2^h``)
    are applied digit by digit; the whole phases below some digit are done at once.

    Examples
    --------
    >>> reduce_keeping_xor([3, 5, 6], 8)
    [0, 4, 4]
    >>> reduce_keeping_xor([10**30, 10**30], 2)
    [1, 1]
    """
    cur = list(heaps)
    d, odd = divmod(sum(cur) - target, 2)
    if d < 0 or odd:
        raise ValueError("the total can only go down by an even amount")
    if d > sum(cur) // 2:
        raise ValueError("cannot take more stones than the range holds")

    def low_half(width: int) -> int:
        mask = (1 << width) - 1
        return sum(x & mask for x in cur) >> 1

    # whole phases clear the lowest digits of every heap: find the last digit H up to
    # which they all fit in d (the cost is monotone in H), and clear below H at once
    lo, hi = 0, max(cur, default=0).bit_length()
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if low_half(mid) <= d:
            lo = mid
        else:
            hi = mid - 1
    h = lo
    d -= low_half(h)
    cur = [(x >> h) << h for x in cur]
    if d:
        bit = 1 << h
        s = [i for i, x in enumerate(cur) if x & bit]
        full = min(len(s) // 2, d >> h)
        for i in s[: 2 * full]:
            cur[i] -= bit
        d -= full << h
        if d:  # a partial step t < 2^h on the next pair of valuation h
            for i in s[2 * full : 2 * full + 2]:
                cur[i] -= d
    return cur


def _xor(xs: Any) -> int:
    s = 0
    for x in xs:
        s ^= x
    return s


def emperor_move(ranges: Ranges, k: int = 1) -> Ranges | None:
    """The winning move of the proof of [S19] Theorem 12 (13 for ``k > 1``), or None at P.

    Examples
    --------
    >>> emperor_move(((1, 2), (3, 3), (4,)))
    ((1, 1), (1, 1), (0,))
    >>> emperor_move(((1, 1), (2, 2), (3, 3))) is None
    True
    """
    new = [list(r) for r in ranges]
    changed = False
    for r in new:
        s = _xor(r)
        if s:
            for i, h in enumerate(r):
                if h ^ s < h:
                    r[i] = h ^ s
                    changed = True
                    break
    totals = tuple(sum(r) for r in new)
    targets = naito_procedure(totals, k)
    if targets is None:
        if not changed:
            return None
    else:
        for i, (t0, t1) in enumerate(zip(totals, targets, strict=True)):
            if t1 != t0:
                new[i] = reduce_keeping_xor(new[i], t1)
    return tuple(tuple(r) for r in new)


def emperor_strategy(game: Emperor, position: Ranges, misere: bool) -> Construction | None:
    """Emperor Nim's constructive move (normal play)."""
    if misere:
        return None
    k = int(getattr(game, "k", 1))
    return Construction(
        procedure="the proof of S19 Theorem 12 (Bouton in each range, then Lemma 3 on one range)"
        if k == 1
        else "the proof of S19 Theorem 13 (Bouton in each range, Naito on the totals, Lemma 3)",
        theorem="S19-T12" if k == 1 else "S19-T13",
        one=lambda: emperor_move(position, k),
    )
