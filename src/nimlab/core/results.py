"""Typed results returned by the solvers."""

from __future__ import annotations

import enum

__all__ = ["Outcome"]


class Outcome(enum.Enum):
    """Outcome class of a position in a two-player game.

    ``P``: the previous player (the one who just moved) wins; the player to move loses.
    ``N``: the next player (the one to move) wins.

    Examples
    --------
    >>> Outcome.P.value
    'P'
    >>> str(Outcome.N)
    'N'
    >>> Outcome.from_bool(True)
    <Outcome.P: 'P'>
    """

    P = "P"
    N = "N"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def from_bool(cls, is_p: bool) -> Outcome:
        """Return ``P`` when *is_p* is true, else ``N``."""
        return cls.P if is_p else cls.N
