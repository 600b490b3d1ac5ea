"""Constructive winning moves: built from the papers' proofs, without scanning all moves.

Each game with a known construction answers its
:meth:`~nimlab.core.ruleset.Ruleset.strategy` hook (the catalog's families in
:mod:`nimlab.catalog.strategies`) with a :class:`Construction` for a position:
the procedure's own winning move (:attr:`Construction.one`), and, when the set of all
winning moves can be listed without scanning every move, a lazy enumeration of them
(:attr:`Construction.every`, the procedure's move first).

:func:`find_winning_moves` (used by :func:`nimlab.winning_moves`) takes the list from
the construction when it can, else scans the moves, after estimating their number (a move
set too large to scan raises :class:`~nimlab.core.errors.MoveSetTooLargeError` instead of
hanging), each option scored as the planner's scan plan says: once for the whole position
by a compiled table, the one-heap compiled sequence or the compiled engine, else by the
closed form where one applies, else by exhaustive search.
:func:`winning_move` returns one winning move, the fastest way there is.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from nimlab.core.errors import MoveSetTooLargeError, NimlabError
from nimlab.core.ruleset import Ruleset
from nimlab.core.strategy import Construction
from nimlab.planner import DEFAULT_BUDGETS, Method, Plan, Question, plan

__all__ = [
    "DEFAULT_LIST_LIMIT",
    "DEFAULT_MAX_MOVES",
    "Construction",
    "construction",
    "constructive_moves",
    "estimate_moves",
    "find_winning_moves",
    "naito_move",
    "scanned_move",
    "winning_move",
]

#: Most moves a scan scores one by one before giving up (the planner's budgets).
DEFAULT_MAX_MOVES = DEFAULT_BUDGETS.scan_max_moves
#: Most winning moves :func:`find_winning_moves` lists when no ``limit`` is given.
DEFAULT_LIST_LIMIT = DEFAULT_BUDGETS.list_limit


def construction(game: Ruleset[Any], position: Any, misere: bool = False) -> Construction | None:
    """The constructive strategy for a valid *position*, or None if none is known.

    The planner (:func:`nimlab.planner.plan`, question ``moves``) asks the game's
    :meth:`~nimlab.core.ruleset.Ruleset.strategy` hook, and in normal play its
    :meth:`~nimlab.core.ruleset.Ruleset.strategy_moves` hook, which counts as a
    construction listing every winning move.

    Examples
    --------
    >>> from nimlab import game
    >>> c = construction(game("moore", k=2), (3, 4, 5))
    >>> c.procedure, c.one()
    ("Naito's procedure (N99 §2.1)", (3, 3, 3))
    """
    p = plan(game, Question.MOVES, position, misere=misere)
    return p.value if p.method is Method.CONSTRUCTION else None


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
            f"{game.label()}: {_shown(game, position)} has {how_many} winning "
            f"moves, too many to list; pass limit=N (--limit N) to get the first N "
            f"({c.procedure} gives its own move first), or use nimlab.winning_move"
        )
    return out


def _shown(game: Ruleset[Any], position: Any) -> str:
    """The position as the command line writes it, cut to a readable length."""
    from nimlab.engine.search import _shown as shown

    return shown(game, position)


def _count(n: int) -> str:
    """*n* with thousands separators, or its order of magnitude when it is huge."""
    from nimlab.engine.search import _count as count

    return count(n)


def estimate_moves(game: Ruleset[Any], position: Any) -> int | None:
    """An estimate (upper bound where known) of the number of moves from *position*.

    The game answers through its :meth:`~nimlab.core.ruleset.Ruleset.estimate_moves`
    hook. Returns None when the game gives no cheap estimate; scans then count as they go.

    Examples
    --------
    >>> from nimlab import game
    >>> estimate_moves(game("nim"), (3, 4, 5))
    12
    >>> estimate_moves(game("nim"), (10**100,)) > 10**99
    True
    """
    return game.estimate_moves(position)


class _Scan:
    """Scores the options of one position as the planner's scan plan says (its ``value``:
    the plan of the options' outcomes), remembering which method scored each option.

    A compiled table, sequence or engine is computed once for the whole position; an
    option it does not cover (outside the table's box, not a sum of one-heap parts) is
    scored by search, the plan's fallback, and recorded so.
    """

    def __init__(
        self,
        game: Ruleset[Any],
        position: Any,
        misere: bool,
        method: str,
        max_positions: int,
        max_moves: int,
    ) -> None:
        from nimlab.engine import search

        self.game, self.position, self.misere, self.method = game, position, misere, method
        self.cache = search.search_cache()
        # each option's search has the search's own moves budget, raised with the scan's
        budget = max(max_moves, search.DEFAULT_MAX_MOVES)
        self.solver: search.Solver[Any] = search.Solver(game, max_positions, budget, self.cache)
        from nimlab import planner  # its budgets at each scan (tests patch them)

        self.budgets = replace(
            planner.DEFAULT_BUDGETS, max_positions=max_positions, scan_max_moves=max_moves
        )
        self.avoid: frozenset[Method] = frozenset({Method.CONSTRUCTION})
        self.plan = self._plan()
        self.how: dict[Any, Method] = {}
        self._values: Any = None

    def _plan(self) -> Plan:
        p = plan(
            self.game,
            Question.MOVES,
            self.position,
            misere=self.misere,
            method=self.method,
            budgets=self.budgets,
            avoid=self.avoid,
        )
        assert p.method is Method.SCAN
        score: Plan = p.value
        return score

    @property
    def scorer(self) -> Method:
        """The method that scores the options (before any option's fallback)."""
        return self.plan.method

    def is_p(self, child: Any) -> bool:
        """Whether the option *child* is a P-position (recorded in :attr:`how`)."""
        while True:
            try:
                found = self._compiled(child)
                break
            except NimlabError:  # the compiled method cannot run: the plan's next one
                self.avoid |= {self.plan.method}
                self.plan, self._values = self._plan(), None
        if found is not None:
            self.how[child] = self.plan.method
            return found
        self.how[child] = Method.SEARCH
        return self.solver.is_p(child, self.misere, self.method)  # type: ignore[arg-type]

    def _compiled(self, child: Any) -> bool | None:
        """*child*'s outcome by the plan's compiled method, or None (a search scores it)."""
        score = self.plan
        if score.method is Method.COMPILED_TABLE:
            return self._from_table(child)
        if score.method is Method.COMPILED_SEQUENCE:
            return self._from_sequence(child)
        if score.method is Method.COMPILED_ENGINE:
            from nimlab.engine.compiled import compiled_value

            if not _heaps(child):
                return None
            kind = "misere" if self.misere else "outcome"
            value = compiled_value(self.game, child, kind)
            return None if value is None else value == 0
        return None

    def _from_table(self, child: Any) -> bool | None:
        """*child* read from one table of the box below the position (True at P)."""
        import numpy as np

        from nimlab.engine.tables import table

        if self._values is None:
            shape = tuple(h + 1 for h in self.position)
            kind = "misere" if self.misere else "outcome"
            self._values = table(self.game, shape, kind=kind, engine="kernel")
        t = self._values
        if not _heaps(child) or len(child) != t.ndim or any(map(int.__ge__, child, t.shape)):
            return None
        cell = t[child]
        return None if cell is np.ma.masked else bool(cell)

    def _from_sequence(self, child: Any) -> bool | None:
        """*child* as a sum of one-heap positions of the game: P when the XOR of the
        heaps' values in the compiled sequence is 0."""
        from nimlab.engine.sequences import sequence

        parts = self.game.components(child)
        if parts is None:
            heaps = list(child) if _heaps(child) and len(child) == 1 else None
        elif all(cg is self.game and _heaps(cp) and len(cp) == 1 for cg, cp in parts):
            heaps = [cp[0] for _, cp in parts]
        else:
            heaps = None
        if heaps is None:
            return None
        top = max(heaps, default=0)
        if self._values is None or top >= len(self._values):
            n = max(top, *_as_heaps(self.position)) + 1
            self._values = sequence(self.game, n, progress=True)
        total = 0
        for h in heaps:
            total ^= int(self._values[h])
        return total == 0


def _heaps(pos: Any) -> bool:
    return isinstance(pos, tuple) and all(
        isinstance(h, int) and not isinstance(h, bool) and h >= 0 for h in pos
    )


def _as_heaps(pos: Any) -> tuple[int, ...]:
    return tuple(pos) if _heaps(pos) and pos else (0,)


def _scan(
    game: Ruleset[Any],
    position: Any,
    misere: bool,
    method: str,
    max_positions: int,
    max_moves: int,
    first: Any,
    limit: int | None,
) -> tuple[list[Any], _Scan]:
    """The winning moves found by a scan of the moves of *position* (after *first*, a
    move already known), and the scan (how each option was scored)."""
    scan = _Scan(game, position, misere, method, max_positions, max_moves)
    out: list[Any] = [] if first is None else [first]
    seen: set[Any] = set(out)
    try:
        for count, child in enumerate(game.moves(position), 1):
            if count > max_moves:
                raise MoveSetTooLargeError(
                    f"{game.label()}: {_shown(game, position)} has more than "
                    f"{max_moves:,} moves, too many to scan; use a smaller position or raise "
                    "max_moves"
                )
            if child in seen:
                continue
            seen.add(child)
            if scan.is_p(child):
                out.append(child)
                if limit is not None and len(out) >= limit:
                    break
    finally:
        scan.cache.trim()
    return out, scan


def find_winning_moves(
    game: Ruleset[Any],
    position: Any,
    misere: bool = False,
    *,
    method: str = "auto",
    limit: int | None = None,
    max_positions: int = DEFAULT_BUDGETS.max_positions,
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
    p = plan(game, Question.MOVES, position, misere=misere, method=method)
    c: Construction | None = p.value if p.method is Method.CONSTRUCTION else None
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
                f"{game.label()}: {_shown(game, position)} has about {_count(est)} "
                f"moves, too many to scan for the full list; {c.procedure} builds one "
                "winning move: use nimlab.winning_move, or winning_moves(..., limit=1) (--limit 1)"
            )
        raise _too_many(game, position, est, max_moves)
    return _scan(game, position, misere, method, max_positions, max_moves, first, limit)[0]


def _too_many(game: Ruleset[Any], position: Any, est: int, max_moves: int) -> MoveSetTooLargeError:
    return MoveSetTooLargeError(
        f"{game.label()}: {_shown(game, position)} has about {_count(est)} moves, "
        f"more than the {max_moves:,} a scan may score, and no construction of a "
        "winning move is known for this game; use a smaller position"
    )


def scanned_move(
    game: Ruleset[Any], position: Any, misere: bool = False, move: Any = None
) -> tuple[Any | None, Method]:
    """A winning move of a valid *position* found by the planner's scan of its moves (or
    the option *move*, scored the same way), and the method that scored it.

    The method is the scan's (``compiled table``, ``compiled sequence``, ``compiled
    engine``, or ``search``: closed forms where they apply, else exhaustive search), or
    ``search`` for an option the compiled method does not cover. At a P-position: None
    and the scan's method.

    Examples
    --------
    >>> from nimlab import game
    >>> scanned_move(game("subtraction", S="1,3,4"), (10,))
    ((9,), <Method.SEARCH: 'search'>)
    >>> scanned_move(game("octal", code="0.77"), (100,))[1]
    <Method.COMPILED_SEQUENCE: 'compiled sequence'>
    """
    max_positions, max_moves = DEFAULT_BUDGETS.max_positions, DEFAULT_MAX_MOVES
    if move is not None:
        scan = _Scan(game, position, misere, "auto", max_positions, max_moves)
        try:
            scan.is_p(move)
        finally:
            scan.cache.trim()
        return move, scan.how[move]
    est = estimate_moves(game, position)
    if est is not None and est > max_moves:
        raise _too_many(game, position, est, max_moves)
    found, scan = _scan(game, position, misere, "auto", max_positions, max_moves, None, 1)
    return (found[0], scan.how[found[0]]) if found else (None, scan.scorer)


def winning_move(
    game: Ruleset[Any] | str,
    position: object,
    misere: bool = False,
    *,
    max_positions: int = DEFAULT_BUDGETS.max_positions,
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
    from nimlab.catalog.registry import as_game

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
    from nimlab.catalog.strategies.nimk import naito_procedure

    return naito_procedure(tuple(heaps), K)
