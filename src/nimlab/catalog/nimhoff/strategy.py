"""2^k-balanced Nimhoff: winning moves from the k-nim-sum.

Folding ``a ⓚ b = a ⊕ b ⊕ (a_k b_k)`` over the heaps gives
``G = (n_1 ⊕ … ⊕ n_r) ⊕ [C(c, 2) odd]``, ``c`` the number of heaps with binary digit
``k``; so each heap has at most one winning Nim reduction, computed directly, and the
two-heap moves (take ``2^k`` from each of two heaps) are checked one by one.

References
----------
[S19] Theorem 10 (``S19-T10``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimlab.core.strategy import Construction

if TYPE_CHECKING:
    from nimlab.catalog.nimhoff.rules import Nimhoff

__all__ = ["nimhoff_moves", "nimhoff_strategy", "nimhoff_value"]

Heaps = tuple[int, ...]


def _corr(c: int) -> int:
    return 1 if c % 4 in (2, 3) else 0


def _xor_and_count(heaps: Heaps, k: int) -> tuple[int, int]:
    """The XOR of the heaps and how many heaps have bit ``k`` set."""
    x = 0
    c = 0
    for h in heaps:
        x ^= h
        c += (h >> k) & 1
    return x, c


def nimhoff_value(heaps: Heaps, k: int) -> int:
    """``n_1 ⓚ … ⓚ n_r`` as XOR plus the bit-0 correction.

    Examples
    --------
    >>> nimhoff_value((4, 6), 2), nimhoff_value((13, 3), 1)
    (3, 14)
    """
    x, c = _xor_and_count(heaps, k)
    return x ^ _corr(c)


def nimhoff_moves(heaps: Heaps, k: int) -> list[Heaps]:
    """All winning moves: one-heap reductions first (heap order), then two-heap moves.

    Examples
    --------
    >>> nimhoff_moves((2, 2), 1)
    [(0, 0)]
    """
    x, c = _xor_and_count(heaps, k)
    if x ^ _corr(c) == 0:
        return []
    out: list[Heaps] = []
    for i, h in enumerate(heaps):
        xo = x ^ h
        co = c - ((h >> k) & 1)
        v = xo ^ _corr(co + ((xo >> k) & 1))
        if v < h:
            out.append(heaps[:i] + (v,) + heaps[i + 1 :])
    s = 1 << k
    big = [i for i, h in enumerate(heaps) if h >= s]
    for a, i in enumerate(big):
        for j in big[a + 1 :]:
            hi, hj = heaps[i], heaps[j]
            ni, nj = hi - s, hj - s
            nx = x ^ hi ^ hj ^ ni ^ nj
            nc = c - ((hi >> k) & 1) - ((hj >> k) & 1) + ((ni >> k) & 1) + ((nj >> k) & 1)
            if nx ^ _corr(nc) == 0:
                new = list(heaps)
                new[i], new[j] = ni, nj
                out.append(tuple(new))
    return list(dict.fromkeys(out))


def nimhoff_strategy(game: Nimhoff, position: Heaps, misere: bool) -> Construction | None:
    """Nimhoff's winning moves (normal play)."""
    if misere:
        return None
    moves = nimhoff_moves(position, int(game.k))
    return Construction.listed(
        "inverting the k-nim-sum heap by heap (S19 Theorem 10)",
        "S19-T10",
        moves,
    )
