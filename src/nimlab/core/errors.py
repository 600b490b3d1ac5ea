"""Precise errors of nimlab.

Every error a user can cause derives from :class:`NimlabError` and says what is wrong
and how to fix it. The command line prints the message on one line and exits with
status 2; the Python API raises these exceptions unchanged.
"""

from __future__ import annotations

__all__ = [
    "InvalidParameterError",
    "InvalidPositionError",
    "MoveSetTooLargeError",
    "NimlabError",
    "NoClosedFormError",
    "SearchTooLargeError",
    "UnknownGameError",
    "UnknownTheoremError",
]


class NimlabError(Exception):
    """Base class of every error nimlab raises for a user's mistake."""


class InvalidPositionError(NimlabError, ValueError):
    """A position breaks a rule of its game (negative heap, equal heaps in Welter, ...).

    Examples
    --------
    >>> from nimlab import game
    >>> game("nim").validate((3, -1))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidPositionError: nim: heap 2 is -1, but heaps must be integers >= 0
    """


class InvalidParameterError(NimlabError, ValueError):
    """A game parameter is missing, unknown or out of range (Nimhoff with k=0, ...)."""


class UnknownGameError(NimlabError, ValueError):
    """No game of the registry has this name or alias."""


class UnknownTheoremError(NimlabError, ValueError):
    """No theorem of the registry has this id."""


class NoClosedFormError(NimlabError, ValueError):
    """A closed form was requested where the papers give none for this game or position."""


class SearchTooLargeError(NimlabError, RuntimeError):
    """An exhaustive search would visit more positions than the allowed budget."""


class MoveSetTooLargeError(SearchTooLargeError):
    """The moves (or winning moves) of a position are too many to scan or to list."""
