"""Constructive winning moves: built from the papers' proofs, without scanning all moves.

:func:`constructive_moves` is consulted first by :func:`nimlab.winning_moves`; it returns
None when no construction is known for the game (or play convention), and the caller then
falls back to scanning moves scored by a closed form, then to exhaustive search.
"""

from __future__ import annotations

from typing import Any

from nimlab.core.ruleset import Ruleset

__all__ = ["constructive_moves"]


def constructive_moves(game: Ruleset[Any], position: Any, misere: bool = False) -> list[Any] | None:
    """Winning moves of a valid *position* by construction, or None if none is known.

    Examples
    --------
    >>> from nimlab import game
    >>> constructive_moves(game("nim"), (3, 4, 5))
    [(1, 4, 5)]
    """
    if misere:
        return None
    return game.strategy_moves(position)
