"""Constructions: winning moves built from a proof, as a game's ``strategy`` hook returns them.

A :class:`Construction` is the procedure of a paper's proof applied to one position (its
own winning move, and when cheap, a lazy list of every winning move). Rulesets build them
in their :meth:`~nimlab.core.ruleset.Ruleset.strategy` hook; :mod:`nimlab.solvers.strategy`
uses them to answer ``winning_moves`` and ``winning_move`` without scanning all moves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["Construction"]


@dataclass(frozen=True)
class Construction:
    """A constructive strategy applied to one position.

    Attributes
    ----------
    procedure : str
        Who built it and where: ``"Naito's procedure (N99 §2.1)"``.
    theorem : str or None
        Id of the result (GAMES.md §6) that proves the constructed moves win.
    one : callable
        Returns the procedure's own winning move, or None for a P-position.
    every : callable or None
        Returns a lazy iterator over *all* winning moves, without repeats, the
        procedure's move first; None when only ``one`` is known (then a full list needs
        a scan of the moves).
    count : callable or None
        Returns the exact number of winning moves, when it is cheap to compute.
    """

    procedure: str
    theorem: str | None
    one: Callable[[], Any]
    every: Callable[[], Iterator[Any]] | None = None
    count: Callable[[], int] | None = None

    @classmethod
    def listed(cls, procedure: str, theorem: str | None, moves: list[Any]) -> Construction:
        """A construction whose winning moves are already listed (the first is ``one``).

        Examples
        --------
        >>> c = Construction.listed("Bouton's rule", "S19-T1", [(1, 1)])
        >>> c.one(), list(c.every()), c.count()
        ((1, 1), [(1, 1)], 1)
        >>> Construction.listed("none", None, []).one() is None
        True
        """
        return cls(
            procedure=procedure,
            theorem=theorem,
            one=lambda: moves[0] if moves else None,
            every=lambda: iter(moves),
            count=lambda: len(moves),
        )
