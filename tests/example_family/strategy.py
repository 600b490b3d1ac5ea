"""Take-three Nim's winning moves, constructed: Bouton's rule on the residues mod 4
(a move changes one residue to any other, rising from 0)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from example_family.formulas import take_three_grundy
from nimlab.core.strategy import Construction

if TYPE_CHECKING:
    from example_family.rules import TakeThree

__all__ = ["take_three_moves", "take_three_strategy"]


def take_three_moves(heaps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every winning move: from a heap of residue ``r`` (mod 4), take the ``t`` in 1..3
    that leaves residue ``r ⊕ s``, where ``s ≠ 0`` is the Grundy value: ``t = (r − (r ⊕ s))
    mod 4``, when the heap has that many stones (a heap of residue 0 can rise to 1, 2, 3).

    Examples
    --------
    >>> take_three_moves((5, 6))
    [(2, 6), (5, 5)]
    >>> take_three_moves((1, 4))
    [(0, 4), (1, 1)]
    >>> take_three_moves((4, 8))
    []
    """
    s = take_three_grundy(heaps)
    if s == 0:
        return []
    out: list[tuple[int, ...]] = []
    for i, h in enumerate(heaps):
        t = (h % 4 - ((h % 4) ^ s)) % 4
        if 1 <= t <= h:
            out.append((*heaps[:i], h - t, *heaps[i + 1 :]))
    return out


def take_three_strategy(
    game: TakeThree, position: tuple[int, ...], misere: bool
) -> Construction | None:
    """The construction for normal play (None in misère play: no construction there).

    Examples
    --------
    >>> from example_family.rules import TakeThree
    >>> take_three_strategy(TakeThree(), (5, 6), False).one()
    (2, 6)
    """
    if misere:
        return None
    return Construction.listed(
        "Bouton's rule on the heaps mod 4 (EX-T1)", game.grundy_theorem, take_three_moves(position)
    )
