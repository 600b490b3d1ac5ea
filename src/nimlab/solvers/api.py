"""Public solver functions: validate input, pick closed form or search, return typed values."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from nimlab import planner
from nimlab.catalog.registry import as_game
from nimlab.core.errors import SearchTooLargeError
from nimlab.core.results import Outcome
from nimlab.core.ruleset import Ruleset
from nimlab.engine.search import (
    DEFAULT_MAX_MOVES,
    DEFAULT_MAX_POSITIONS,
    Method,
    Solver,
    search_cache,
)
from nimlab.planner import Method as PlanMethod
from nimlab.planner import Plan, Question, plan

__all__ = ["Answer", "answer", "as_game", "grundy", "moves", "outcome", "winning_moves"]

_METHODS = ("auto", "search", "formula")


@dataclass(frozen=True)
class Answer:
    """A Grundy value or an outcome, and how nimlab found it (:func:`answer`).

    Attributes
    ----------
    game : str
        The game's label.
    position : object
        The position (validated).
    kind : {"grundy", "outcome"}
        What was asked.
    misere : bool
        Misère play (outcomes only).
    value : int or Outcome
        The Grundy value, or the outcome.
    method : str
        How it was found: ``"closed form"`` (a registered result, named by *theorem*),
        ``"compiled table"`` (a compiled kernel over the box below the position),
        ``"compiled sequence"`` (one heap of a game with a compiled recurrence),
        ``"compiled engine"`` (the compiled solver of the game's move model),
        ``"construction"`` (an outcome: the procedure of a proof builds a winning move
        exactly at N-positions), ``"search"`` (exhaustive search), or ``"sum of
        components"`` (the XOR of the Grundy values of the parts of a disjunctive sum,
        each in *parts*): the method :func:`nimlab.planner.plan` chose and that ran (a
        method that could not run is replaced by the plan's fallback, named here).
    theorem : str or None
        The id of the result behind a closed form or a construction.
    parts : tuple of Answer
        The components of a sum, each with its own method.

    Examples
    --------
    >>> a = answer("single-delete", (8, 12, 14, 47))
    >>> str(a.value), a.method, a.theorem
    ('P', 'closed form', 'Sh-T6*')
    >>> a.status
    'conjectured: verified by nimlab for every heap < 256 (180,352,320 positions)'
    >>> answer("wythoff", (300, 500), kind="grundy").method  # no closed form for values
    'compiled table'
    """

    game: str
    position: Any
    kind: str
    misere: bool
    value: int | Outcome
    method: str
    theorem: str | None = None
    parts: tuple[Answer, ...] = ()

    @property
    def status(self) -> str | None:
        """The status of :attr:`theorem` (proved, conjectured with its verified bound), or
        None when no result was used."""
        if self.theorem is None:
            return None
        from nimlab.core.status import status_of

        return status_of(self.theorem).summary()

    def how(self) -> dict[str, Any]:
        """How the answer was found, JSON-ready: method, theorem, status (and parts)."""
        out: dict[str, Any] = {"method": self.method}
        if self.theorem is not None:
            from nimlab.core.status import status_of

            out["theorem"] = self.theorem
            out["status"] = status_of(self.theorem).to_dict()
            out["status"]["summary"] = self.status
        if self.parts:
            out["parts"] = [
                {"game": p.game, "position": p.position, "value": p.value, **p.how()}
                for p in self.parts
            ]
        return out


def _short(value: object) -> str:
    """``repr(value)`` cut to a readable length, for error messages."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _by_sequence(g: Ruleset[Any], n: int) -> int:
    """The Grundy value of heap *n* read from the game's compiled sequence."""
    from nimlab.core.errors import WorkTooLargeError
    from nimlab.engine.sequences import sequence

    try:
        return int(sequence(g, n + 1, progress=True)[n])
    except WorkTooLargeError as exc:
        raise WorkTooLargeError(
            f"{g.label()}: the Grundy value of heap {n:,} is read from the sequence "
            f"G(0..{n:,}), and {exc}".replace(
                "; ask for fewer terms or raise it (max_terms=N, on the command line "
                "--max-terms N)",
                f"; compute it with nimlab.sequence(game, {n + 1}, max_terms=N) "
                f"(on the command line: nimlab sequence ... -n {n + 1} --max-terms N)",
            )
        ) from None


def _by_table(g: Ruleset[Any], pos: tuple[int, ...], kind: str) -> int | None:
    """The value at *pos* in a compiled kernel's table of the box below it (``outcome``:
    1 at a P-position), or None when the kernel does not apply."""
    from nimlab.core.errors import InvalidParameterError
    from nimlab.engine.tables import table

    try:
        arr = table(g, tuple(h + 1 for h in pos), kind=kind, engine="kernel")
    except InvalidParameterError:
        return None
    return int(arr[pos])


def _check_misere(misere: object) -> None:
    if not isinstance(misere, bool):
        from nimlab.core.errors import InvalidArgumentError

        raise InvalidArgumentError(f"misere must be True or False, got {_short(misere)}")


# how many value questions on one game (and number of heaps, and kind) reached the choice
# between the compiled engine and a search: the planner's repeat_calls counts them
_CALLS: dict[tuple[Ruleset[Any], int, str], int] = {}


def _plan_value(
    g: Ruleset[Any],
    pos: Any,
    question: Question,
    m: Method,
    max_positions: int,
    max_moves: int,
    avoid: frozenset[PlanMethod],
) -> Plan:
    """The planner's plan for a value or an outcome, counting the calls it needs."""
    budgets = replace(planner.DEFAULT_BUDGETS, max_positions=max_positions, max_moves=max_moves)
    key = (g, len(pos) if isinstance(pos, tuple) else 0, str(question))
    calls = _CALLS.get(key, 0) + 1
    p = plan(g, question, pos, method=m, budgets=budgets, calls=calls, avoid=avoid)
    if p.method in (PlanMethod.COMPILED_ENGINE, PlanMethod.SEARCH) and m == "auto":
        _CALLS[key] = calls
    return p


def _beyond_budget(
    g: Ruleset[Any], pos: Any, kind: str, exc: SearchTooLargeError
) -> SearchTooLargeError:
    """*exc* (a search out of its budget) said in full where the game has a closed form
    that does not apply at *pos* (its ``closed_form_gap`` hook): why, which method is
    left, and how to give it the budget it needs; else *exc* itself."""
    gap = g.closed_form_gap(pos, kind)
    if gap is None:
        return exc
    from nimlab.engine.search import _shown

    text = str(exc)
    prefix = f"{g.label()}: "
    core = text[len(prefix) :] if text.startswith(prefix) else text
    core = core.split("; use a smaller position", 1)[0]
    msg = (
        f"{g.label()}: no proved criterion decides {_shown(g, pos)}: {gap}; only an "
        f"exhaustive search can, and it is beyond its budget here ({core}); raise its "
        "budgets with max_moves=N and max_positions=N (on the command line: --max-moves N "
        "--max-positions N)"
    )
    from nimlab.planner import compiled_methods

    if isinstance(pos, tuple) and PlanMethod.COMPILED_ENGINE in compiled_methods(g, len(pos)):
        import math

        from nimlab.engine.compiled import order_free

        side = max(pos) + 1
        n = len(pos)
        free = order_free(g)
        cells = math.comb(side + n - 1, n) if free else side**n
        what = "multisets" if free else "positions"
        msg += (
            f", or solve all {what} of {n} heaps below {side} with the compiled engine "
            f"(about {cells * 4 / 2**20:,.0f} MiB: nimlab.Session(max_bytes=N))"
        )
    return type(exc)(msg)


def _check_method(method: str) -> Method:
    if method not in _METHODS:
        from nimlab.core.errors import InvalidParameterError

        raise InvalidParameterError(
            f"unknown method {method!r}: choose one of {', '.join(_METHODS)}"
        )
    return method  # type: ignore[return-value]


def grundy(
    game: Ruleset[Any] | str,
    position: object,
    *,
    method: str = "auto",
    max_positions: int = DEFAULT_MAX_POSITIONS,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> int:
    """Grundy value (nim-value) of *position*.

    Parameters
    ----------
    game : Ruleset or str
        The game, or its registry name.
    position : object
        A position of the game (validated first).
    method : {"auto", "search", "formula"}
        ``auto`` uses a proved closed form when the game has one, else exhaustive search;
        ``search`` always searches; ``formula`` refuses to search. Searches keep what
        they solved in the process's search cache (:func:`nimlab.search_cache`, bounded),
        so repeated calls on one game share their work.
    max_positions : int
        Budget of positions an exhaustive search may store (besides those already kept).
    max_moves : int
        Budget of options an exhaustive search may list (refuses huge move sets quickly).

    Returns
    -------
    int
        The Grundy value.

    Examples
    --------
    >>> from nimlab import game, grundy
    >>> grundy("nim", (3, 4, 5))
    2
    >>> grundy(game("subtraction", S={1, 2, 3}), 200000, method="search")
    0
    >>> grundy("wythoff", (3, 5))
    0
    >>> grundy("wythoff", (300, 500))  # no closed form: a compiled table, not a slow search
    43
    """
    g = as_game(game)
    pos = g.validate(position)
    value = _grundy(g, pos, _check_method(method), max_positions, max_moves).value
    assert isinstance(value, int)
    return value


def _grundy(g: Ruleset[Any], pos: Any, m: Method, max_positions: int, max_moves: int) -> Answer:
    """The Grundy value of a valid *pos* and how it was found."""

    def found(value: int, how: str, theorem: str | None = None, parts: Any = ()) -> Answer:
        return Answer(g.label(), pos, "grundy", False, int(value), str(how), theorem, parts=parts)

    avoid: frozenset[PlanMethod] = frozenset()
    while True:
        p = _plan_value(g, pos, Question.GRUNDY, m, max_positions, max_moves, avoid)
        if p.method is PlanMethod.CLOSED_FORM:
            return found(p.value, p.method, p.theorem)
        if p.method is PlanMethod.SUM_OF_COMPONENTS:
            # a disjunctive sum: the XOR of its parts' values (Sprague-Grundy), each
            # computed by its fastest method (an octal heap by its sequence)
            parts = tuple(
                _grundy(cg, cg.validate(cp), m, max_positions, max_moves)
                for cg, cp in g.components(pos) or ()
            )
            total = 0
            for part in parts:
                assert isinstance(part.value, int)
                total ^= part.value
            return found(total, p.method, parts=parts)
        value: int | None = None
        if p.method is PlanMethod.COMPILED_SEQUENCE:
            value = _by_sequence(g, pos[0])
        elif p.method is PlanMethod.COMPILED_TABLE:
            value = _by_table(g, pos, "grundy")
        elif p.method is PlanMethod.COMPILED_ENGINE:
            from nimlab.engine.compiled import compiled_value

            value = compiled_value(g, pos, "grundy")
        else:
            break
        if value is not None:
            return found(value, p.method)
        avoid |= {p.method}
    cache = search_cache()
    try:
        value = Solver(g, max_positions, max_moves, cache).grundy(pos, m)
    except SearchTooLargeError as exc:
        if m != "auto":
            raise
        raise _beyond_budget(g, pos, "grundy", exc) from None
    finally:
        cache.trim()
    return found(value, p.method)


def outcome(
    game: Ruleset[Any] | str,
    position: object,
    misere: bool = False,
    *,
    method: str = "auto",
    max_positions: int = DEFAULT_MAX_POSITIONS,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> Outcome:
    """Outcome class (P or N) of *position* in normal or misère play.

    Misère play (the last mover loses) is solved by its own search, never derived
    from Grundy values, unless the game has a proved misère criterion.

    Examples
    --------
    >>> from nimlab import outcome
    >>> outcome("nim", (1, 2, 3))
    <Outcome.P: 'P'>
    >>> outcome("nim", (1, 1), misere=True)
    <Outcome.N: 'N'>
    """
    g = as_game(game)
    _check_misere(misere)
    pos = g.validate(position)
    res = _outcome(g, pos, misere, _check_method(method), max_positions, max_moves).value
    assert isinstance(res, Outcome)
    return res


def _outcome(
    g: Ruleset[Any], pos: Any, misere: bool, m: Method, max_positions: int, max_moves: int
) -> Answer:
    """The outcome of a valid *pos* and how it was found."""
    kind = "misere" if misere else "p"

    def found(p: bool, how: str, theorem: str | None = None, parts: Any = ()) -> Answer:
        return Answer(
            g.label(), pos, "outcome", misere, Outcome.from_bool(p), str(how), theorem, parts=parts
        )

    question = Question.MISERE if misere else Question.OUTCOME
    avoid: frozenset[PlanMethod] = frozenset()
    while True:
        p = _plan_value(g, pos, question, m, max_positions, max_moves, avoid)
        if p.method is PlanMethod.CLOSED_FORM:
            return found(bool(p.value), p.method, p.theorem)
        if p.method is PlanMethod.CONSTRUCTION:
            return found(p.value.one() is None, p.method, p.theorem)
        if p.method is PlanMethod.SUM_OF_COMPONENTS:
            # a sum: P when the XOR of its parts' Grundy values is 0
            total = _grundy(g, pos, m, max_positions, max_moves)
            return found(total.value == 0, total.method, total.theorem, total.parts)
        value: int | None = None
        if p.method is PlanMethod.COMPILED_SEQUENCE:
            value = int(_by_sequence(g, pos[0]) == 0)
        elif p.method is PlanMethod.COMPILED_TABLE:
            value = _by_table(g, pos, "misere" if misere else "outcome")
        elif p.method is PlanMethod.COMPILED_ENGINE:
            from nimlab.engine.compiled import compiled_value

            shared = compiled_value(g, pos, "misere" if misere else "outcome")
            value = None if shared is None else int(shared == 0)
        else:
            break
        if value is not None:
            return found(bool(value), p.method)
        avoid |= {p.method}
    cache = search_cache()
    try:
        is_p = Solver(g, max_positions, max_moves, cache).is_p(pos, misere, m)
    except SearchTooLargeError as exc:
        if m != "auto":
            raise
        raise _beyond_budget(g, pos, kind, exc) from None
    finally:
        cache.trim()
    return found(is_p, p.method)


def answer(
    game: Ruleset[Any] | str,
    position: object,
    *,
    kind: str = "outcome",
    misere: bool = False,
    method: str = "auto",
    max_positions: int = DEFAULT_MAX_POSITIONS,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> Answer:
    """The outcome (``kind="outcome"``) or Grundy value (``kind="grundy"``) of *position*,
    with the method that found it: a closed form (with its result id and status), a
    compiled table, sequence or engine, or exhaustive search.

    The same computation as :func:`outcome` and :func:`grundy`, with the same arguments
    and budgets; they return the value alone.

    Examples
    --------
    >>> a = answer("nim", (1, 2, 3))
    >>> str(a.value), a.method, a.theorem, a.status
    ('P', 'closed form', 'S19-T1', 'proved: published proof')
    >>> a = answer("single-delete", (2, 3, 4, 300), method="search", max_moves=10)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.MoveSetTooLargeError: single-delete: 2 3 4 300 has about 4,816 moves, more than the search's budget of 10 moves generated; use a smaller position, a closed form (method='auto'), a table (nimlab.table), or raise max_moves (on the command line: --max-moves N)
    """
    g = as_game(game)
    _check_misere(misere)
    pos = g.validate(position)
    m = _check_method(method)
    if kind == "grundy":
        if misere:
            from nimlab.core.errors import InvalidArgumentError

            raise InvalidArgumentError(
                "misère play has no Grundy values: ask kind='outcome' with misere=True"
            )
        return _grundy(g, pos, m, max_positions, max_moves)
    if kind != "outcome":
        from nimlab.core.errors import InvalidArgumentError

        raise InvalidArgumentError(f"kind must be 'outcome' or 'grundy', got {_short(kind)}")
    return _outcome(g, pos, misere, m, max_positions, max_moves)


def winning_moves(
    game: Ruleset[Any] | str,
    position: object,
    misere: bool = False,
    *,
    method: str = "auto",
    max_positions: int = DEFAULT_MAX_POSITIONS,
    max_moves: int | None = None,
    limit: int | None = None,
) -> list[Any]:
    """Positions reachable in one move that are P-positions (empty for a P-position).

    Uses the game's constructive strategy when it has one (the construction's own move
    first), else scans the moves, each scored as the planner says (a compiled table,
    sequence or engine computed once for the position, else the closed form where one
    applies, else exhaustive search).
    A move set too large to scan or list raises
    :class:`~nimlab.core.errors.MoveSetTooLargeError` (a ``SearchTooLargeError``;
    *max_moves* (default 200,000 options scanned) and *max_positions* are the budgets
    of the scan and its searches);
    ``limit=N`` asks for at most N moves (see :func:`nimlab.winning_move` for one).

    Examples
    --------
    >>> from nimlab import winning_moves
    >>> winning_moves("nim", (3, 4, 5))
    [(1, 4, 5)]
    >>> winning_moves("nim", (1, 2, 3))
    []
    """
    g = as_game(game)
    _check_misere(misere)
    pos = g.validate(position)
    m = _check_method(method)
    from nimlab.solvers.strategy import find_winning_moves

    budgets: dict[str, int] = {"max_positions": max_positions}
    if max_moves is not None:
        budgets["max_moves"] = max_moves
    try:
        return find_winning_moves(g, pos, misere, method=m, limit=limit, **budgets)
    except SearchTooLargeError as exc:
        if m != "auto":
            raise
        raise _beyond_budget(g, pos, "misere" if misere else "p", exc) from None


def moves(
    game: Ruleset[Any] | str, position: object, *, max_moves: int = DEFAULT_MAX_MOVES
) -> list[Any]:
    """All distinct options of *position*, in the game's move order.

    A position with more than *max_moves* options raises
    :class:`~nimlab.core.errors.MoveSetTooLargeError`, before they are listed when the
    game can estimate their number.

    Examples
    --------
    >>> from nimlab import moves
    >>> moves("nim", (1, 2))
    [(0, 2), (1, 0), (1, 1)]
    >>> moves("nim", (10**1000,))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.MoveSetTooLargeError: nim: 1000000000000000000000000000000000000000000000000000000... has about 10^1000 moves, too many to list (at most 5,000,000); use a smaller position or raise max_moves
    """
    from nimlab.core.errors import MoveSetTooLargeError
    from nimlab.engine.search import _count, _shown

    g = as_game(game)
    pos = g.validate(position)

    def too_many(about: str) -> MoveSetTooLargeError:
        return MoveSetTooLargeError(
            f"{g.label()}: {_shown(g, pos)} has {about} moves, too many to list (at most "
            f"{max_moves:,}); use a smaller position or raise max_moves"
        )

    est = g.estimate_moves(pos)
    if est is not None and est > max_moves:
        raise too_many(f"about {_count(est)}")
    out: dict[Any, None] = {}
    for count, m in enumerate(g.moves(pos), 1):
        if count > max_moves:
            raise too_many(f"more than {max_moves:,}")
        out[m] = None
    return list(out)
