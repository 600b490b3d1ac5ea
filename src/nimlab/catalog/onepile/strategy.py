"""Subtraction(S) and All-but(S): winning moves from the exact periodicity of G.

The Grundy sequences are ultimately periodic (Subtraction) or arithmetic-periodic
(All-but); the game's ``exact_periodicity()`` finds preperiod, period and saltus
exactly (the sequence's finite state repeats), so ``G(n)`` and the heaps of value 0 below
``n`` are known for heaps of any size.

References
----------
[S18] §1.2 (periodicity, Definitions 10 and 11); Siegel's Theorem 11 (``S18-T11``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimlab.core.strategy import Construction
from nimlab.formulas.onepile import preimages

if TYPE_CHECKING:
    from nimlab.catalog.onepile.rules import AllBut, Subtraction

__all__ = ["onepile_moves", "onepile_strategy"]


def onepile_moves(game: Subtraction | AllBut, n: int) -> list[tuple[int]] | None:
    """All winning moves from a heap of *n* (None when the periodicity is unknown).

    Examples
    --------
    >>> from nimlab import game
    >>> big = 10**100
    >>> [m - big for (m,) in onepile_moves(game("subtraction", S={1, 3, 4}), big + 6)]
    [5, 3]
    >>> onepile_moves(game("allbut", S={2}), 7)
    [(2,), (0,)]
    """
    per = game.exact_periodicity()
    if per is None:
        return None
    S = game.S
    if game.takes_listed:
        cands = [n - t for t in sorted(S) if t <= n]
    else:
        cands = [m for m in sorted(preimages(per, 0, n), reverse=True) if n - m not in S]
    return [(m,) for m in cands if per.grundy(m) == 0]


def onepile_strategy(
    game: Subtraction | AllBut, position: tuple[int, ...], misere: bool
) -> Construction | None:
    """One-heap games: the heaps of Grundy value 0 reachable in one move (normal play)."""
    if misere:
        return None
    moves = onepile_moves(game, position[0])
    if moves is None:
        return None
    return Construction.listed(
        "the exact periodicity of the Grundy sequence",
        game.grundy_theorem,
        moves,
    )
