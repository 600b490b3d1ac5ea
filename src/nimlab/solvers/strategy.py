"""Constructive winning moves: built from the papers' proofs, without scanning all moves.

Each game family with a known construction has a *strategy* (in
:mod:`nimlab.solvers.strategies`) that returns a :class:`Construction` for a position:
the procedure's own winning move (:attr:`Construction.one`), and, when the set of all
winning moves can be listed without scanning every move, a lazy enumeration of them
(:attr:`Construction.every`, the procedure's move first).

:func:`find_winning_moves` (used by :func:`nimlab.winning_moves`) takes the list from
the construction when it can, else scans the moves scored by the closed form (or by
exhaustive search), after estimating the number of moves: a move set too large to scan
raises :class:`~nimlab.core.errors.MoveSetTooLargeError` instead of hanging.
:func:`winning_move` returns one winning move, the fastest way there is.
"""

from __future__ import annotations

import importlib
import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from nimlab.core.errors import MoveSetTooLargeError
from nimlab.core.ruleset import Ruleset

__all__ = [
    "DEFAULT_LIST_LIMIT",
    "DEFAULT_MAX_MOVES",
    "Construction",
    "construction",
    "constructive_moves",
    "estimate_moves",
    "find_winning_moves",
    "naito_move",
    "winning_move",
]

#: Most moves a scan scores one by one before giving up.
DEFAULT_MAX_MOVES = 200_000
#: Most winning moves :func:`find_winning_moves` lists when no ``limit`` is given.
DEFAULT_LIST_LIMIT = 10_000


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


Strategy = Callable[[Ruleset[Any], Any, bool], Construction | None]

# game name -> "module:function" of its strategy (imported on first use).
STRATEGIES: dict[str, str] = {
    "nim": "nimlab.solvers.strategies.nimk:nim_strategy",
    "moore": "nimlab.solvers.strategies.nimk:moore_strategy",
    "circular": "nimlab.solvers.strategies.nimk:circular_strategy",
    "welter": "nimlab.solvers.strategies.welter:welter_strategy",
    "lim": "nimlab.solvers.strategies.lim:lim_strategy",
    "nimhoff": "nimlab.solvers.strategies.nimhoff:nimhoff_strategy",
    "turning-turtles": "nimlab.solvers.strategies.turtles:turtles_strategy",
    "delete-nim": "nimlab.solvers.strategies.delete:delete_nim_strategy",
    "single-delete": "nimlab.solvers.strategies.delete:single_delete_strategy",
    "abo-delete": "nimlab.solvers.strategies.delete:abo_strategy",
    "emperor": "nimlab.solvers.strategies.emperor:emperor_strategy",
    "ryuo": "nimlab.solvers.strategies.ryuo:ryuo_strategy",
    "restricted-ryuo": "nimlab.solvers.strategies.ryuo:restricted_ryuo_strategy",
    "rgames": "nimlab.solvers.strategies.ryuo:rgames_strategy",
    "subtraction": "nimlab.solvers.strategies.onepile:onepile_strategy",
    "allbut": "nimlab.solvers.strategies.onepile:onepile_strategy",
}


def _strategy_for(game: Ruleset[Any]) -> Strategy | None:
    target = STRATEGIES.get(game.name)
    if target is None:
        return None
    mod, _, attr = target.partition(":")
    try:
        fn = getattr(importlib.import_module(mod), attr)
    except (ImportError, AttributeError):
        return None
    return fn  # type: ignore[no-any-return]


def construction(game: Ruleset[Any], position: Any, misere: bool = False) -> Construction | None:
    """The constructive strategy for a valid *position*, or None if none is known.

    A game's own :meth:`~nimlab.core.ruleset.Ruleset.strategy_moves` hook (normal play)
    counts as a construction listing every winning move.

    Examples
    --------
    >>> from nimlab import game
    >>> c = construction(game("moore", k=2), (3, 4, 5))
    >>> c.procedure, c.one()
    ("Naito's procedure (N99 §2.1)", (3, 3, 3))
    """
    fn = _strategy_for(game)
    if fn is not None:
        built = fn(game, position, misere)
        if built is not None:
            return built
    if not misere:
        listed = game.strategy_moves(position)
        if listed is not None:
            moves = list(listed)
            return Construction.listed(
                f"{type(game).__name__}.strategy_moves",
                game.p_theorem or game.grundy_theorem,
                moves,
            )
    return None


def constructive_moves(game: Ruleset[Any], position: Any, misere: bool = False) -> list[Any] | None:
    """All winning moves of a valid *position* by construction, or None if not listable.

    Returns None when no construction is known, or when the construction gives only
    one move (a full list then needs a scan). At most :data:`DEFAULT_LIST_LIMIT` moves
    are listed; more raise :class:`~nimlab.core.errors.MoveSetTooLargeError`.

    Examples
    --------
    >>> from nimlab import game
    >>> constructive_moves(game("nim"), (3, 4, 5))
    [(1, 4, 5)]
    """
    c = construction(game, position, misere)
    if c is None or c.every is None:
        return None
    return _take(game, position, c, None, DEFAULT_LIST_LIMIT)


def _take(
    game: Ruleset[Any], position: Any, c: Construction, limit: int | None, list_limit: int
) -> list[Any]:
    assert c.every is not None
    cap = list_limit if limit is None else limit
    out = list(itertools.islice(c.every(), cap + (1 if limit is None else 0)))
    if limit is None and len(out) > list_limit:
        n = c.count() if c.count is not None else None
        how_many = f"{n:,}" if n is not None else f"more than {list_limit:,}"
        raise MoveSetTooLargeError(
            f"{game.label()}: {game.format_position(position)} has {how_many} winning "
            f"moves, too many to list; pass limit=N (--limit N) to get the first N "
            f"({c.procedure} gives its own move first), or use nimlab.winning_move"
        )
    return out


def _index(x: Any) -> int | None:
    return x if isinstance(x, int) and not isinstance(x, bool) else None


def _product_sum(values: list[int], k: int) -> int:
    """Sum over subsets of size 1..k of the products of *values* (elementary symmetric)."""
    e = [1] + [0] * k
    for v in values:
        for j in range(k, 0, -1):
            e[j] += e[j - 1] * v
    return sum(e[1:])


def estimate_moves(game: Ruleset[Any], position: Any) -> int | None:
    """An estimate (upper bound where known) of the number of moves from *position*.

    Returns None when the game gives no cheap estimate; scans then count as they go.

    Examples
    --------
    >>> from nimlab import game
    >>> estimate_moves(game("nim"), (3, 4, 5))
    12
    >>> estimate_moves(game("nim"), (10**100,)) > 10**99
    True
    """
    name = game.name
    if isinstance(position, tuple) and all(_index(h) is not None for h in position):
        heaps: list[int] = list(position)
        if name == "subtraction":
            return len(getattr(game, "S", ()))
        if name in ("nim", "welter", "allbut", "wythoff"):
            return int(sum(heaps)) + (min(heaps) if name == "wythoff" and heaps else 0)
        if name == "nimhoff":
            return sum(heaps) + len(heaps) ** 2
        if name == "moore":
            return _product_sum(heaps, int(getattr(game, "k", 1)))
        if name == "circular":
            k = int(getattr(game, "k", 1))
            n = len(heaps)
            return sum(
                math.prod(heaps[(s + j) % n] + 1 for j in range(min(k, n))) for s in range(n)
            )
        if name == "lim":
            a, b, c = (heaps + [0, 0, 0])[:3]
            return min(a, b) + min(a, c) + min(b, c)
        if name in ("ryuo", "restricted-ryuo", "rgames"):
            p = int(getattr(game, "p", 0) or getattr(game, "g0_p", 0) or 10)
            return sum(heaps) + len(heaps) * p * p
        if name == "delete-nim":
            return 2 * (sum(heaps) + 2)
        if name == "single-delete":
            return len(heaps) ** 2 * (max(heaps, default=0) + 1)
        if name == "abo-delete":
            n = len(heaps)
            return sum(math.comb(max(h - 1, 0), n - 1) for h in heaps) * math.factorial(n)
        return int(sum(heaps))
    if name == "emperor" and isinstance(position, tuple):
        ranges: list[list[int]] = [list(r) for r in position]
        totals = [math.prod(h + 1 for h in r) for r in ranges]
        single = [1 + sum(r) for r in ranges]
        k = int(getattr(game, "k", 1))
        if k == 1:
            p = math.prod(single)
            return int(sum(t * p // s for t, s in zip(totals, single, strict=True)))
        return int(math.prod(t for t in totals))
    if name == "turning-turtles":
        try:
            return int(sum(a * b for a, b in position))
        except (TypeError, ValueError):
            return None
    return None


def _scan(
    game: Ruleset[Any],
    position: Any,
    misere: bool,
    method: str,
    max_positions: int,
    max_moves: int,
    first: Any,
    limit: int | None,
) -> list[Any]:
    from nimlab.solvers.search import Solver

    solver: Solver[Any] = Solver(game, max_positions)
    out: list[Any] = [] if first is None else [first]
    seen: set[Any] = set(out)
    for count, child in enumerate(game.moves(position), 1):
        if count > max_moves:
            raise MoveSetTooLargeError(
                f"{game.label()}: {game.format_position(position)} has more than "
                f"{max_moves:,} moves, too many to scan; use a smaller position or raise "
                "max_moves"
            )
        if child in seen:
            continue
        seen.add(child)
        if solver.is_p(child, misere, method):  # type: ignore[arg-type]
            out.append(child)
            if limit is not None and len(out) >= limit:
                break
    return out


def find_winning_moves(
    game: Ruleset[Any],
    position: Any,
    misere: bool = False,
    *,
    method: str = "auto",
    limit: int | None = None,
    max_positions: int = 5_000_000,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> list[Any]:
    """Winning moves of a valid *position*: by construction, else by a bounded scan.

    Parameters
    ----------
    game : Ruleset
        The rules.
    position : object
        A valid position.
    misere : bool
        Misère play (the last mover loses).
    method : {"auto", "search", "formula"}
        ``auto`` uses constructions and closed forms; ``search`` scores every option by
        exhaustive search; ``formula`` refuses to search.
    limit : int or None
        At most this many moves (the construction's own move first). When the move set
        is too large to scan and the construction gives one move, only that move.
    max_positions : int
        Budget of an exhaustive search scoring one option.
    max_moves : int
        Most moves scanned one by one.

    Returns
    -------
    list
        The winning moves (empty for a P-position).

    Raises
    ------
    MoveSetTooLargeError
        When the winning moves cannot be listed in bounded time.

    Examples
    --------
    >>> from nimlab import game
    >>> find_winning_moves(game("nim"), (3, 4, 5))
    [(1, 4, 5)]
    >>> big = (10**100, 10**100 + 5)
    >>> find_winning_moves(game("nim"), big) == [(10**100, 10**100)]
    True
    """
    if limit is not None and limit < 1:
        from nimlab.core.errors import InvalidParameterError

        raise InvalidParameterError(f"limit must be a positive integer, got {limit}")
    c = construction(game, position, misere) if method == "auto" else None
    if c is not None and c.every is not None:
        return _take(game, position, c, limit, DEFAULT_LIST_LIMIT)
    first = c.one() if c is not None else None
    if c is not None and first is None:
        return []
    est = estimate_moves(game, position)
    if est is not None and est > max_moves:
        if first is not None and limit is not None:
            return [first]
        if c is not None:
            raise MoveSetTooLargeError(
                f"{game.label()}: {game.format_position(position)} has about {est:.3g} "
                f"moves, too many to scan for the full list; {c.procedure} builds one "
                "winning move: use nimlab.winning_move, or winning_moves(..., limit=1) (--limit 1)"
            )
        raise MoveSetTooLargeError(
            f"{game.label()}: {game.format_position(position)} has about {est:.3g} moves, "
            f"more than the {max_moves:,} a scan may score, and no construction of a "
            "winning move is known for this game; use a smaller position"
        )
    return _scan(game, position, misere, method, max_positions, max_moves, first, limit)


def winning_move(
    game: Ruleset[Any] | str,
    position: object,
    misere: bool = False,
    *,
    max_positions: int = 5_000_000,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> Any | None:
    """One winning move of *position*, or None for a P-position.

    The move is the construction's own (Bouton, Naito's procedure, the proofs of the
    papers) when one is known: it takes milliseconds even for heaps of 100 digits.

    Examples
    --------
    >>> from nimlab import game, winning_move
    >>> winning_move("nim", (10**100, 10**100 + 5)) == (10**100, 10**100)
    True
    >>> winning_move(game("moore", k=2), (3, 4, 5, 9))
    (1, 4, 5, 5)
    >>> winning_move("nim", (1, 2, 3)) is None
    True
    """
    from nimlab.solvers.api import as_game

    g = as_game(game)
    pos = g.validate(position)
    c = construction(g, pos, misere)
    if c is not None:
        return c.one()
    found = find_winning_moves(
        g, pos, misere, limit=1, max_positions=max_positions, max_moves=max_moves
    )
    return found[0] if found else None


def naito_move(heaps: Iterable[int], K: int) -> tuple[int, ...] | None:
    """The move of Naito's procedure for Nim_K ([N99] §2.1), or None at a P-position.

    Examples
    --------
    >>> naito_move((7, 6, 5), 1)
    (3, 6, 5)
    >>> naito_move((3, 4, 5), 2)
    (3, 3, 3)
    >>> naito_move((3, 4, 5, 9), 2)
    (1, 4, 5, 5)
    """
    from nimlab.solvers.strategies.nimk import naito_procedure

    return naito_procedure(tuple(heaps), K)
