"""Lim: the winning move for each pair of heaps, by a carry automaton on binary digits.

``G(a, b, c)`` is the bitwise majority, so a position is P iff its three heaps have no
binary digit in common two by two. A move takes ``t`` from two heaps and adds it to the
third; for each choice of the pair at most one ``t`` wins (positions reached with
different ``t`` from the same pair are options of one another). That ``t`` is found by
running the subtraction ``x − t``, ``y − t`` and the addition ``z + t`` digit by digit,
from the lowest, with their borrows and carry as the state (8 states): a path through
the digits that never puts a 1 in two heaps at once is a winning ``t``.

References
----------
[S19] Theorem 8 (``S19-T8``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimlab.core.strategy import Construction

if TYPE_CHECKING:
    from nimlab.catalog.lim.rules import Lim

__all__ = ["lim_moves", "lim_strategy", "lim_winning_t"]

Heaps = tuple[int, ...]
PAIRS = ((0, 1, 2), (0, 2, 1), (1, 2, 0))


def lim_winning_t(x: int, y: int, z: int) -> list[int]:
    """Every ``t ≥ 1`` (``t ≤ min(x, y)``) making ``x−t, y−t, z+t`` pairwise disjoint.

    Examples
    --------
    >>> lim_winning_t(3, 5, 5)
    [3]
    >>> [t for t in range(1, 4) if ((3-t) & (5-t)) | ((3-t) & (5+t)) | ((5-t) & (5+t)) == 0]
    [3]
    """
    width = max(x, y, z).bit_length() + 2
    # forward pass: reachable states (borrow_x, borrow_y, carry_z) per digit
    layers: list[dict[tuple[int, int, int], list[tuple[tuple[int, int, int], int]]]] = []
    current = {(0, 0, 0)}
    for b in range(width):
        xb, yb, zb = (x >> b) & 1, (y >> b) & 1, (z >> b) & 1
        nxt: dict[tuple[int, int, int], list[tuple[tuple[int, int, int], int]]] = {}
        for st in current:
            bx, by, cz = st
            for tb in (0, 1):
                dx = xb - tb - bx
                dy = yb - tb - by
                sz = zb + tb + cz
                ox, nbx = dx & 1, 1 if dx < 0 else 0
                oy, nby = dy & 1, 1 if dy < 0 else 0
                oz, ncz = sz & 1, sz >> 1
                if ox + oy + oz > 1:
                    continue
                nxt.setdefault((nbx, nby, ncz), []).append((st, tb))
        layers.append(nxt)
        current = set(nxt)
    # backward: every path to the final state (no borrow, no carry) is one t
    out: list[int] = []
    stack: list[tuple[int, tuple[int, int, int], int]] = []
    if (0, 0, 0) in layers[-1]:
        stack.append((width - 1, (0, 0, 0), 0))
    while stack:
        b, st, t = stack.pop()
        for prev, tb in layers[b][st]:
            nt = t | (tb << b)
            if b == 0:
                if prev == (0, 0, 0) and nt >= 1:
                    out.append(nt)
            else:
                stack.append((b - 1, prev, nt))
    return sorted(out)


def lim_moves(heaps: Heaps) -> list[Heaps]:
    """All winning moves of a Lim position (at most one per pair of heaps).

    Examples
    --------
    >>> lim_moves((3, 5, 5))
    [(0, 2, 8), (0, 8, 2), (8, 0, 0)]
    """
    a, b, c = heaps
    if (a & b) | (a & c) | (b & c) == 0:
        return []
    out: list[Heaps] = []
    for i, j, k in PAIRS:
        for t in lim_winning_t(heaps[i], heaps[j], heaps[k]):
            new = list(heaps)
            new[i] -= t
            new[j] -= t
            new[k] += t
            out.append(tuple(new))
    return list(dict.fromkeys(out))


def lim_strategy(game: Lim, position: Heaps, misere: bool) -> Construction | None:
    """Lim's winning moves (normal play)."""
    if misere:
        return None
    moves = lim_moves(position)
    return Construction.listed(
        "a digit automaton for x−t, y−t, z+t (S19 Theorem 8)",
        "S19-T8",
        moves,
    )
