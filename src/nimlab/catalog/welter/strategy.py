"""Welter–Sato game: the winning move on each heap, solved digit by digit.

For fixed other heaps, the Welter value of a position is injective in one heap (any two
values of that heap are reachable one from the other), so each heap has at most one
winning reduction. Writing ``G = v ⊕ C ⊕ ⊕_j M(v, n_j)`` (``C`` the part without heap
``v``), digit ``b`` of ``M(v, n_j)`` is 1 iff ``v ≡ n_j (mod 2^b)``; so ``G = 0`` fixes the
digits of ``v`` from the lowest up: ``v_b = C_b ⊕ #{j : v ≡ n_j (mod 2^b)} mod 2``.

References
----------
[S19] Theorem 7 (``S19-T7``): ``G = ⊕ n_i ⊕ ⊕_{i<j} M(n_i, n_j)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimlab.core.strategy import Construction

if TYPE_CHECKING:
    from nimlab.catalog.welter.rules import Welter

__all__ = ["welter_moves", "welter_strategy"]

Heaps = tuple[int, ...]


def _m(x: int, y: int) -> int:
    d = x ^ y
    return ((d & -d) << 1) - 1


def welter_moves(heaps: Heaps) -> list[Heaps]:
    """All winning moves of a Welter position (at most one per heap), in heap order.

    Examples
    --------
    >>> welter_moves((1, 2, 4))
    [(1, 2, 0)]
    >>> welter_moves((0, 1)), welter_moves((3, 7))
    ([], [(3, 2)])
    """
    n = len(heaps)
    total = 0
    for i in range(n):
        total ^= heaps[i]
        for j in range(i + 1, n):
            total ^= _m(heaps[i], heaps[j])
    if total == 0:
        return []
    width = max(max(heaps, default=0).bit_length(), total.bit_length()) + 1
    out: list[Heaps] = []
    for i, h in enumerate(heaps):
        others = heaps[:i] + heaps[i + 1 :]
        c = total ^ h
        for o in others:
            c ^= _m(h, o)
        v = 0
        agree = list(others)
        for b in range(width):
            vb = ((c >> b) & 1) ^ (len(agree) & 1)
            v |= vb << b
            agree = [o for o in agree if (o >> b) & 1 == vb]
        if agree or (c >> width):
            continue  # v would need infinitely many digits (it equals another heap)
        if v < h:
            out.append(heaps[:i] + (v,) + heaps[i + 1 :])
    return out


def welter_strategy(game: Welter, position: Heaps, misere: bool) -> Construction | None:
    """Welter's winning moves (normal play)."""
    if misere:
        return None
    moves = welter_moves(position)
    return Construction.listed(
        "solving the Welter formula digit by digit (S19 Theorem 7)",
        "S19-T7",
        moves,
    )
