"""Typed results returned by the solvers."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

__all__ = ["Counterexample", "Outcome"]


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


@dataclass(frozen=True)
class Counterexample:
    """A position where the claim and exhaustive search disagree."""

    game: str
    position: Any
    claimed: Any
    actual: Any
    detail: str = ""
    option: Any = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "game": self.game,
            "position": self.position,
            "claimed": self.claimed,
            "actual": self.actual,
            "detail": self.detail,
            "option": self.option,
        }
