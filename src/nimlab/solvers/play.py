"""One home for play: reading a move typed by a player and checking that it is legal.

The terminal (``nimlab play``) and the web playground read moves the same way: the
position after the move (``3 4 1``, as a position is typed on the command line) or
``HEAP:SIZE`` pairs (``3:1``: heap 3 becomes 1; several pairs change several heaps).
:func:`parse_move` reads the text, :func:`legal_move` checks the move against the game's
own moves (equal, or equal up to the game's symmetry) and returns the option itself.
:func:`smallest_step` is the computer's move where no move wins (it keeps the game long).
"""

from __future__ import annotations

from typing import Any

from nimlab.catalog.registry import as_game
from nimlab.core.errors import IllegalMoveError
from nimlab.core.ruleset import Ruleset

__all__ = ["DEFAULT_LEGAL_MOVES", "legal_move", "parse_move", "smallest_step"]

#: how many moves of a position :func:`legal_move` compares at the most, by default
DEFAULT_LEGAL_MOVES = 1_000_000


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse_move(game: Ruleset[Any] | str, position: Any, text: str) -> Any:
    """Read a move typed by a player: the position after it, or ``HEAP:SIZE`` pairs.

    Returns the position the move leads to, validated by the game but not yet checked
    for legality (:func:`legal_move`).

    Parameters
    ----------
    game : Ruleset or str
        The game.
    position : object
        The (valid) position the move is made from.
    text : str
        What the player typed: ``3 4 1`` (groups with commas: ``1,2 3,3``) or
        ``HEAP:SIZE`` pairs, ``3:1`` meaning heap 3 (counted from 1) becomes 1.

    Raises
    ------
    IllegalMoveError
        Text that is no move (empty, an unreadable pair, a heap that does not exist).
    InvalidPositionError
        A position the game's rules refuse.

    Examples
    --------
    >>> from nimlab import parse_move
    >>> parse_move("nim", (3, 4, 5), "3:1")
    (3, 4, 1)
    >>> parse_move("nim", (3, 4, 5), "1 4 5")
    (1, 4, 5)
    >>> parse_move("nim", (3, 4, 5), "9:1")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.IllegalMoveError: there is no heap 9: heaps are numbered 1 to 3
    """
    g = as_game(game)
    tokens = text.replace(";", " ").split()
    if not tokens:
        raise IllegalMoveError("type a move: the position after it (3 4 1) or HEAP:SIZE (3:1)")
    if not all(":" in t for t in tokens):
        return g.parse_position(tokens)
    if not (isinstance(position, tuple) and all(_is_int(h) for h in position)):
        raise IllegalMoveError("HEAP:SIZE moves are for games of heaps; type the whole position")
    new = list(position)
    for t in tokens:
        i_txt, _, v_txt = t.partition(":")
        try:
            i, v = int(i_txt), int(v_txt)
        except ValueError:
            raise IllegalMoveError(
                f"cannot read {t[:40]!r}: write HEAP:SIZE, for example 3:1 (heap 3 becomes 1)"
            ) from None
        if not 1 <= i <= len(new):
            raise IllegalMoveError(f"there is no heap {i}: heaps are numbered 1 to {len(new)}")
        new[i - 1] = v
    return g.validate(tuple(new))


def legal_move(
    game: Ruleset[Any] | str,
    position: Any,
    new: Any,
    *,
    max_moves: int = DEFAULT_LEGAL_MOVES,
) -> Any:
    """The option of *position* equal to *new* (or to it up to the game's symmetry).

    Parameters
    ----------
    game : Ruleset or str
        The game.
    position : object
        The (valid) position the move is made from.
    new : object
        The position the player moves to (:func:`parse_move`).
    max_moves : int
        How many of the position's moves are compared at the most.

    Returns
    -------
    object
        The option itself, as the game's ``moves`` gives it (``new`` when it is one).

    Raises
    ------
    IllegalMoveError
        *new* is the current position, or no option among the first *max_moves*.

    Examples
    --------
    >>> from nimlab import legal_move
    >>> legal_move("nim", (3, 4, 5), (3, 4, 1))
    (3, 4, 1)
    >>> legal_move("nim", (3, 4, 5), (3, 4, 5))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.IllegalMoveError: illegal move: 3 4 5 is the current position; a move must change it
    """
    g = as_game(game)
    fmt = g.format_position
    if new == position:
        raise IllegalMoveError(
            f"illegal move: {fmt(new)} is the current position; a move must change it"
        )
    target = g.canonical(new)
    match = None
    for count, m in enumerate(g.moves(position), 1):
        if m == new:
            return m
        if match is None and g.canonical(m) == target:
            match = m
        if count >= max_moves:
            break
    if match is None:
        raise IllegalMoveError(
            f"illegal move: {fmt(new)} cannot be reached from {fmt(position)} in one move "
            f"of {g.label()}"
        )
    return match


def _weight(pos: object) -> int:
    if isinstance(pos, int) and not isinstance(pos, bool):
        return pos
    if isinstance(pos, (tuple, list, frozenset, set)):
        return sum(_weight(x) for x in pos)
    return 0


def smallest_step(game: Ruleset[Any] | str, position: Any, *, max_moves: int = 10_000) -> Any:
    """The option of *position* that leaves the most (stones, or coordinates): the move of
    a player with no winning move, keeping the game long. None when there is no move.

    Parameters
    ----------
    game : Ruleset or str
        The game.
    position : object
        The (valid) position.
    max_moves : int
        How many of its moves are compared at the most (the first ones).

    Examples
    --------
    >>> from nimlab import smallest_step
    >>> smallest_step("nim", (1, 2)), smallest_step("nim", (0, 0))
    ((0, 2), None)
    """
    g = as_game(game)
    best = None
    best_key = -1
    for count, m in enumerate(g.moves(position), 1):
        key = _weight(m)
        if key > best_key:
            best, best_key = m, key
        if count >= max_moves:
            break
    return best
