"""Precise errors of nimlab.

Every error a user can cause derives from :class:`NimlabError` and says what is wrong
and how to fix it. The command line prints the message on one line and exits with
status 2; the Python API raises these exceptions unchanged.
"""

from __future__ import annotations

__all__ = [
    "ChunkStoreError",
    "ClusterError",
    "GameDefinitionError",
    "InvalidArgumentError",
    "InvalidParameterError",
    "InvalidPositionError",
    "MoveSetTooLargeError",
    "NimlabError",
    "NoClosedFormError",
    "NotMoveClosedError",
    "OutputPathError",
    "SearchTooLargeError",
    "StoreError",
    "UnknownGameError",
    "UnknownTheoremError",
    "WorkTooLargeError",
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


class NotMoveClosedError(InvalidParameterError):
    """A local check met a move that leaves its set of positions (the set is not
    move-closed), so the claim must be compared with solved values instead."""


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


class WorkTooLargeError(SearchTooLargeError):
    """A computation (a table, a sequence, a verification) is larger than its budget.

    Raised before any of the work is done; the message names the option that raises the
    budget.
    """


class InvalidArgumentError(NimlabError, TypeError, ValueError):
    """An argument of a public function has the wrong type or a meaningless value.

    Examples
    --------
    >>> from nimlab import grundy
    >>> grundy(None, (1, 2))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidArgumentError: game must be a ruleset or a game name, got None
    """


class StoreError(NimlabError, RuntimeError):
    """The results store cannot be opened or used (not a database, read-only, locked, ...)."""


class ChunkStoreError(StoreError):
    """A directory of chunks of a chunked solve (``canonical_table(..., chunk_dir=...)``)
    is damaged, or holds the chunks of another table."""


class OutputPathError(NimlabError, ValueError):
    """An output file cannot be written at the given path (a directory, no such folder)."""


class ClusterError(NimlabError, RuntimeError):
    """A Dask scheduler address is malformed or the scheduler cannot be reached or was lost."""


class GameDefinitionError(NimlabError, ValueError):
    """A user's own game is broken: its file does not run, or its move function raised,
    never ended, or gave something that is not an option of the position."""


class IllegalMoveError(InvalidPositionError):
    """A move that is not one of the position's options (or text that is not a move).

    Examples
    --------
    >>> from nimlab import legal_move
    >>> legal_move("nim", (3, 4, 5), (3, 5, 5))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.IllegalMoveError: illegal move: 3 5 5 cannot be reached from 3 4 5 in one move of nim
    """
