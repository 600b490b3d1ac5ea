"""The playground's computations, over nimlab's public Python API.

Every function here takes plain values (a game name, parameter texts, a position text)
and returns JSON-ready dicts; it validates everything through the game's own rules
(:func:`nimlab.game` and the ``Param`` checks, ``parse_position``, ``moves``) and bounds
its work by :class:`~nimlab.web.limits.Limits` (search budgets, option counts). Nothing
here keeps state between calls: the browser holds the game (its history of positions)
and sends the current position with each request.

Positions are drawn from their shape, never from the game's name: a tuple of integers is
a row of heaps, a tuple of tuples is heaps grouped in ranges, a set of pairs is a board of
coins (the heads); a user's game of any of these shapes is drawn the same way, and any
other game is shown as text.

Examples
--------
>>> from nimlab.web.service import build_game, read_position, analyse
>>> from nimlab.web.limits import Limits
>>> g = build_game("nim", {})
>>> pos = read_position(g, "3 4 5", Limits())
>>> a = analyse(g, pos, False, Limits())
>>> a["outcome"], a["value"], [o["position"] for o in a["options"] if o["winning"]]
('N', 2, ['1 4 5'])
"""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Literal

import nimlab
from nimlab.catalog.registry import no_game_files
from nimlab.planner import Method, plan
from nimlab.web.limits import Limits, heavy
from nimlab.web.menu import GameMenu, catalog, game_info

__all__ = [
    "STRENGTHS",
    "GameMenu",
    "Shapes",
    "Task",
    "analyse",
    "apply_move",
    "build_game",
    "candidates",
    "catalog",
    "computer_move",
    "estimate_moves",
    "game_info",
    "grundy_table",
    "multiplayer",
    "random_position",
    "read_position",
    "run_task",
    "start_worker",
    "state",
    "tree_svg",
    "view",
    "web_words",
]

STRENGTHS = ("perfect", "random", "mixed")
#: probability that the "mixed" computer plays the perfect move
MIXED_PERFECT = 0.5
MAX_PARAMS = 8
MAX_PARAM_CHARS = 200
#: board sizes drawn as coins (larger boards are shown as text)
MAX_BOARD = 16


class WebInputError(nimlab.NimlabError, ValueError):
    """A request the playground refuses (too long, too many heaps, unknown strength, ...)."""


# -- games --------------------------------------------------------------------------------


def build_game(name: str, params: Mapping[str, str]) -> nimlab.Ruleset[Any]:
    """The ruleset *name* with parameters given as text, checked by the game's ``Param`` specs.

    Empty texts mean "the default". Raises the registry's ``UnknownGameError`` or
    ``InvalidParameterError`` (or :class:`WebInputError` for oversized input).

    Examples
    --------
    >>> build_game("moore", {"k": "2"}).label()
    'moore(k=2)'
    >>> build_game("moore", {"k": "two"})
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: parameter k must be an integer, got 'two': for example k=3
    """
    if len(params) > MAX_PARAMS:
        raise WebInputError(f"too many parameters ({len(params)}); a game has at most {MAX_PARAMS}")
    given: dict[str, str] = {}
    for key, value in params.items():
        if len(key) > 40 or len(value) > MAX_PARAM_CHARS:
            raise WebInputError(
                f"parameter {key[:40]!r} is too long (at most {MAX_PARAM_CHARS} characters)"
            )
        if value.strip():
            given[key] = value
    return nimlab.game(name, **given)


# -- positions ----------------------------------------------------------------------------


def read_position(g: nimlab.Ruleset[Any], text: str, limits: Limits) -> Any:
    """Read a position typed as on the command line (``3 4 5``, ``1,2 3,3``), validated.

    Examples
    --------
    >>> read_position(build_game("nim", {}), "3 -4", Limits())
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidPositionError: nim: heap 2 is -4, but heaps must be integers >= 0
    """
    return g.parse_position(_check_text(text, limits))


def _check_text(text: str, limits: Limits) -> list[str]:
    """The parts of a position (or move) typed, once its length and count are checked."""
    if len(text) > limits.max_position_chars:
        raise WebInputError(
            f"the position is too long ({len(text)} characters; at most "
            f"{limits.max_position_chars})"
        )
    tokens = text.replace(";", " ").split()
    if len(tokens) > limits.max_tokens:
        raise WebInputError(
            f"the position has {len(tokens)} parts; the playground takes at most "
            f"{limits.max_tokens} heaps (or groups, or coins)"
        )
    return tokens


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def view(g: nimlab.Ruleset[Any], pos: Any) -> dict[str, Any]:
    """How to draw *pos*, from its shape: heaps, grouped heaps, a coin board, or text.

    Examples
    --------
    >>> view(build_game("nim", {}), (3, 4))
    {'kind': 'heaps', 'heaps': [3, 4], 'text': '3 4'}
    >>> view(build_game("emperor", {}), ((1, 2), (3,)))["groups"]
    [[1, 2], [3]]
    >>> v = view(build_game("turtles", {}), frozenset({(1, 2)}))
    >>> v["kind"], v["heads"], v["rows"], v["cols"]
    ('board', [[1, 2]], 4, 4)
    """
    text = g.format_position(pos)
    if isinstance(pos, tuple) and all(_is_int(h) for h in pos):
        return {"kind": "heaps", "heaps": list(pos), "text": text}
    if isinstance(pos, tuple) and all(
        isinstance(r, tuple) and all(_is_int(h) for h in r) for r in pos
    ):
        return {"kind": "groups", "groups": [list(r) for r in pos], "text": text}
    if isinstance(pos, frozenset) and all(
        isinstance(c, tuple) and len(c) == 2 and _is_int(c[0]) and _is_int(c[1]) for c in pos
    ):
        heads = sorted([a, b] for a, b in pos)
        rows = max([4] + [a for a, _ in heads])
        cols = max([4] + [b for _, b in heads])
        if rows <= MAX_BOARD and cols <= MAX_BOARD:
            return {"kind": "board", "heads": heads, "rows": rows, "cols": cols, "text": text}
    return {"kind": "text", "text": text}


def estimate_moves(g: nimlab.Ruleset[Any], pos: Any) -> int | None:
    """The game's estimate of the number of moves of *pos* (None when it gives none)."""
    return g.estimate_moves(pos)


def _about(n: int) -> str:
    """A count written short, even beyond floats: ``1.23e+06``, ``10^400``.

    Examples
    --------
    >>> _about(1234567), _about(10**400 * 3)
    ('1.23e+06', '10^400')
    """
    if n < 10**300:
        return f"{n:.3g}"
    return f"10^{len(str(n)) - 1}"


def _short(text: str, width: int = 60) -> str:
    """*text*, cut to *width* characters with an ellipsis (a position of 1,000 digits)."""
    return text if len(text) <= width else text[: width - 1] + "…"


#: methods of the planner that answer at once (no search): requests that use only these
#: stay in the fast lane of the worker pool
_QUICK = frozenset({Method.CLOSED_FORM, Method.CONSTRUCTION})


def _quick(g: nimlab.Ruleset[Any], pos: Any, question: str, misere: bool = False) -> bool:
    """Whether the planner answers *question* at *pos* without a search."""
    try:
        return plan(g, question, pos, misere=misere).method in _QUICK
    except nimlab.NimlabError:
        return False


def _lane_by_moves(g: nimlab.Ruleset[Any], pos: Any, limits: Limits) -> None:
    """A scan of the moves of *pos*: the slow lane when they may be many."""
    est = estimate_moves(g, pos)
    if est is None or est > limits.fast_moves:
        heavy()


def _too_many_moves(g: nimlab.Ruleset[Any], pos: Any, limits: Limits) -> int | None:
    est = estimate_moves(g, pos)
    return est if est is not None and est > limits.max_moves else None


def _options(g: nimlab.Ruleset[Any], pos: Any, limits: Limits, cap: int) -> tuple[list[Any], bool]:
    """The first *cap* distinct options and whether there are more (scan bounded by max_moves)."""
    seen: dict[Any, None] = {}
    more = False
    for m in islice(g.moves(pos), limits.max_moves):
        if m in seen:
            continue
        if len(seen) >= cap:
            more = True
            break
        seen[m] = None
    return list(seen), more


def _has_moves(g: nimlab.Ruleset[Any], pos: Any) -> bool:
    return next(iter(g.moves(pos)), None) is not None


def _solver(g: nimlab.Ruleset[Any], limits: Limits) -> nimlab.Solver[Any]:
    return nimlab.Solver(g, limits.max_positions, limits.max_moves)


def state(g: nimlab.Ruleset[Any], pos: Any, limits: Limits) -> dict[str, Any]:
    """The position as the page needs it: text, drawing, whether the game is over."""
    big = _too_many_moves(g, pos, limits)
    return {
        "game": g.label(),
        "position": g.format_position(pos),
        "view": view(g, pos),
        "terminal": False if big else not _has_moves(g, pos),
        "moves_estimate": estimate_moves(g, pos),
    }


# -- understanding ------------------------------------------------------------------------


def _explanation(g: nimlab.Ruleset[Any], pos: Any, misere: bool, move: Any) -> dict[str, Any]:
    e = (
        nimlab.explain(g, pos, misere, move=move)
        if move is not None
        else nimlab.explain(g, pos, misere)
    )
    d = e.to_dict()
    d["text"] = e.render_text()
    return d


def analyse(
    g: nimlab.Ruleset[Any],
    pos: Any,
    misere: bool,
    limits: Limits,
    *,
    explain: bool = False,
) -> dict[str, Any]:
    """Outcome, Grundy value, options coloured winning/losing, and optionally the explanation.

    An option is *winning* for the player to move when it is a P-position. Searches are
    bounded by ``limits.max_positions``; a position with more moves than
    ``limits.max_moves`` is judged by closed forms and constructions only.

    Examples
    --------
    >>> g = build_game("moore", {"k": "2"})
    >>> a = analyse(g, (3, 4, 5, 9), False, Limits(), explain=True)
    >>> a["outcome"], a["explanation"]["move"], a["explanation"]["theorem"]
    ('N', '1 4 5 5', 'S19-T5')
    >>> analyse(build_game("nim", {}), (1, 1), True, Limits())["outcome"]
    'N'
    """
    big = _too_many_moves(g, pos, limits)
    method: Literal["auto", "formula"] = "formula" if big else "auto"
    if not big:
        if not (
            _quick(g, pos, "outcome", misere)
            and (misere or _quick(g, pos, "grundy"))
            and _quick(g, pos, "moves", misere)
        ):
            heavy()
        _lane_by_moves(g, pos, limits)
    solver = _solver(g, limits)
    is_p = solver.is_p(pos, misere, method)
    value: int | None = None
    if not misere:
        try:
            value = solver.grundy(pos, method)
        except nimlab.NimlabError:
            value = None
    out: dict[str, Any] = {
        **state(g, pos, limits),
        "misere": misere,
        "outcome": "P" if is_p else "N",
        "value": value,
        "options": [],
        "more_options": False,
        "winning_moves": [],
    }
    winning: list[Any] = []
    if not is_p:
        winning = nimlab.winning_moves(g, pos, misere, max_positions=limits.max_positions, limit=3)
        out["winning_moves"] = [g.format_position(m) for m in winning]
    if big:
        out["options_note"] = f"about {_about(big)} moves: too many to list here; type your move"
    else:
        opts, more = _options(g, pos, limits, limits.max_options)
        out["more_options"] = more
        out["options"] = _listed_options(g, opts, winning, solver, misere, value is not None)
    if explain:
        out["explanation"] = _explanation(g, pos, misere, winning[0] if winning else None)
    return out


def _listed_options(
    g: nimlab.Ruleset[Any],
    opts: list[Any],
    winning: list[Any],
    solver: nimlab.Solver[Any],
    misere: bool,
    with_values: bool,
) -> list[dict[str, Any]]:
    """The options of a position as the page lists them, a winning move beyond them first."""
    listed = []
    for m in opts:
        p = solver.is_p(m, misere)
        entry: dict[str, Any] = {
            "position": g.format_position(m),
            "winning": p,
            "outcome": "P" if p else "N",
        }
        if not misere:
            # no value for the options when the position's own value is beyond the
            # search budget (four-heap Single-delete: its outcome is a criterion's)
            entry["value"] = solver.grundy(m) if with_values else None
        listed.append(entry)
    shown = {e["position"] for e in listed}
    for m in winning:  # a winning move beyond the listed options is listed too
        if g.format_position(m) not in shown:
            entry = {"position": g.format_position(m), "winning": True, "outcome": "P"}
            if not misere:
                entry["value"] = 0
            listed.insert(0, entry)
    return listed


def tree_svg(g: nimlab.Ruleset[Any], pos: Any, limits: Limits) -> dict[str, Any]:
    """The game tree of a small position as SVG (nimlab's own layout), shallower if needed.

    Examples
    --------
    >>> t = tree_svg(build_game("nim", {}), (1, 2), Limits())
    >>> t["nodes"], t["depth"], t["svg"].startswith("<svg")
    (12, None, True)
    """
    if _too_many_moves(g, pos, limits):
        raise WebInputError("this position is too large for a game tree; try a smaller one")
    last: nimlab.NimlabError | None = None
    for depth, dag in ((None, False), (None, True), (2, False), (1, False)):
        try:
            t = nimlab.game_tree(g, pos, depth=depth, dag=dag, max_nodes=limits.tree_nodes)
        except nimlab.SearchTooLargeError as e:
            last = e
            continue
        return {
            "svg": t.to_svg(engine="python"),
            "nodes": len(t.nodes),
            "depth": depth,
            "dag": dag,
        }
    assert last is not None
    raise last


def grundy_table(
    g: nimlab.Ruleset[Any], pos: Any, misere: bool, size: int, limits: Limits
) -> dict[str, Any]:
    """Values of the two-heap positions ``(x, y)``, ``x, y < size``, with *pos* marked.

    Grundy values in normal play, P/N in misère play; cells the game does not allow are
    None.

    Examples
    --------
    >>> t = grundy_table(build_game("wythoff", {}), (1, 2), False, 4, Limits())
    >>> t["rows"][1], t["mark"]
    ([1, 2, 0, 4], [1, 2])
    """
    if not (isinstance(pos, tuple) and len(pos) == 2 and all(_is_int(h) for h in pos)):
        raise WebInputError("a table is drawn for positions of two heaps only")
    if not 1 <= size <= limits.max_table:
        raise WebInputError(f"the table size must be 1 to {limits.max_table}, got {size}")
    solver = _solver(g, limits)
    rows: list[list[int | str | None]] = []
    for x in range(size):
        row: list[int | str | None] = []
        for y in range(size):
            try:
                p = g.validate((x, y))
            except nimlab.InvalidPositionError:
                row.append(None)
                continue
            if misere:
                row.append("P" if solver.is_p(p, True) else "N")
            else:
                row.append(solver.grundy(p))
        rows.append(row)
    x, y = pos
    return {
        "kind": "misere" if misere else "grundy",
        "size": size,
        "rows": rows,
        "mark": [x, y] if x < size and y < size else None,
    }


# -- playing ------------------------------------------------------------------------------


def _require_playable(g: nimlab.Ruleset[Any], pos: Any, limits: Limits) -> None:
    big = _too_many_moves(g, pos, limits)
    if big:
        raise WebInputError(
            f"{_short(g.format_position(pos))} has about {_about(big)} moves, more than the "
            "playground "
            f"lists ({limits.max_moves:,}); play a smaller position (analysis still works)"
        )


def apply_move(g: nimlab.Ruleset[Any], pos: Any, move_text: str, limits: Limits) -> dict[str, Any]:
    """Check a move typed (or clicked) by the player and return the new state.

    Raises ``IllegalMoveError`` (an ``InvalidPositionError``; :func:`nimlab.parse_move`,
    :func:`nimlab.legal_move`) or :class:`WebInputError` with a clear message for an illegal
    move.

    Examples
    --------
    >>> g = build_game("nim", {})
    >>> apply_move(g, (3, 4, 5), "3:1", Limits())["position"]
    '3 4 1'
    >>> apply_move(g, (3, 4, 5), "3 5 5", Limits())
    Traceback (most recent call last):
    ...
    nimlab.core.errors.IllegalMoveError: illegal move: 3 5 5 cannot be reached from 3 4 5 in one move of nim
    """
    _require_playable(g, pos, limits)
    _check_text(move_text, limits)
    new = nimlab.parse_move(g, pos, move_text)
    _lane_by_moves(g, pos, limits)
    return state(g, nimlab.legal_move(g, pos, new, max_moves=limits.max_moves), limits)


def _random_option(g: nimlab.Ruleset[Any], pos: Any, limits: Limits, rng: random.Random) -> Any:
    opts, _ = _options(g, pos, limits, limits.max_options * 4)
    return rng.choice(opts) if opts else None


def computer_move(
    g: nimlab.Ruleset[Any],
    pos: Any,
    misere: bool,
    strength: str,
    limits: Limits,
    seed: int | None = None,
) -> dict[str, Any]:
    """The computer's move: ``perfect`` (a winning move when there is one), ``random``, or
    ``mixed`` (perfect half of the time, so that a beginner can win sometimes).

    Examples
    --------
    >>> g = build_game("nim", {})
    >>> computer_move(g, (3, 4, 5), False, "perfect", Limits())["position"]
    '1 4 5'
    """
    if strength not in STRENGTHS:
        raise WebInputError(
            f"unknown computer strength {strength[:40]!r}: choose one of {', '.join(STRENGTHS)}"
        )
    _require_playable(g, pos, limits)
    if not _has_moves(g, pos):
        raise WebInputError(f"the game is over: {g.format_position(pos)} has no moves")
    rng = random.Random(seed)
    perfect = strength == "perfect" or (strength == "mixed" and rng.random() < MIXED_PERFECT)
    how = "random move"
    mv = None
    _lane_by_moves(g, pos, limits)
    if perfect:
        if not _quick(g, pos, "moves", misere):
            heavy()
        mv = nimlab.winning_move(
            g, pos, misere, max_positions=limits.max_positions, max_moves=limits.max_moves
        )
        how = "winning move"
        if mv is None:
            # a P-position: no move wins; take the smallest step to keep the game long
            mv = nimlab.smallest_step(g, pos, max_moves=limits.max_options * 4)
            how = "no winning move: smallest step"
    if mv is None:
        mv = _random_option(g, pos, limits, rng)
    assert mv is not None
    out = state(g, mv, limits)
    out["how"] = how
    return out


@dataclass(frozen=True)
class Shapes:
    """The sizes of the random positions of :func:`candidates`: heaps of ``low..top``
    (at least the game's ``min_heap_size``), groups of values ``0..top``, coins of
    coordinates ``1..coin_top``, and how many heaps, groups and coins (ranges)."""

    top: int
    low: int
    heaps: tuple[int, int]
    groups: tuple[int, int]
    coin_top: int
    coins: tuple[int, int]


def candidates(
    g: nimlab.Ruleset[Any], rng: random.Random, shapes: Shapes, tries: int
) -> Iterator[object]:
    """Random positions of every shape the playground draws, for the game to validate:
    a row of heaps, heaps in groups and a board of coins, *tries* of each."""
    lo = int(getattr(g, "min_heap_size", 0))
    fixed = getattr(g, "n_heaps", None)
    least = int(getattr(g, "min_heaps", 0))
    top = shapes.top
    for _ in range(tries):
        n = fixed if isinstance(fixed, int) else max(least, rng.randint(*shapes.heaps))
        yield tuple(rng.randint(max(lo, shapes.low), max(lo, top)) for _ in range(n))
        yield tuple(
            tuple(rng.randint(0, top) for _ in range(rng.randint(1, 3)))
            for _ in range(rng.randint(*shapes.groups))
        )
        yield frozenset(
            (rng.randint(1, max(1, shapes.coin_top)), rng.randint(1, max(1, shapes.coin_top)))
            for _ in range(rng.randint(*shapes.coins))
        )


def random_position(
    g: nimlab.Ruleset[Any], size: int, limits: Limits, seed: int | None = None
) -> dict[str, Any]:
    """A random valid position with heaps (or coordinates) up to *size*, not yet over.

    Examples
    --------
    >>> s = random_position(build_game("wythoff", {}), 9, Limits(), seed=1)
    >>> len(s["view"]["heaps"]), max(s["view"]["heaps"]) <= 9
    (2, True)
    """
    if not 1 <= size <= 100:
        raise WebInputError(f"size must be 1 to 100, got {size}")
    rng = random.Random(seed)
    fallback = None
    for cand in candidates(g, rng, Shapes(size, 0, (2, 4), (2, 3), size, (1, 3)), 200):
        try:
            pos = g.validate(cand)
        except nimlab.NimlabError:
            continue
        if _too_many_moves(g, pos, limits):
            continue
        if _has_moves(g, pos):
            return state(g, pos, limits)
        fallback = fallback or pos
    if fallback is not None:
        return state(g, fallback, limits)
    raise WebInputError(f"no random position found for {g.label()}; type one")


# -- multiplayer --------------------------------------------------------------------------


def multiplayer(
    g: nimlab.Ruleset[Any],
    pos: Any,
    players: int,
    preference: str,
    to_move: int,
    limits: Limits,
) -> dict[str, Any]:
    """m-player play with preferences ([SM]): who moves last, and every option's last mover.

    *preference* is read as on the command line (``1,2,0`` for ``GAMEs(1,2,0)``, or one
    order per player ``0,1,2;1,2,0;2,0,1``); empty means Li's ranking.

    Examples
    --------
    >>> d = multiplayer(build_game("nim", {}), (1, 2), 3, "", 0, Limits())
    >>> d["last_mover"], d["best"]
    (1, ['0 2', '1 0'])
    """
    if not 2 <= players <= limits.max_players:
        raise WebInputError(f"players must be 2 to {limits.max_players}, got {players}")
    if len(preference) > MAX_PARAM_CHARS:
        raise WebInputError(f"the preference is too long (at most {MAX_PARAM_CHARS} characters)")
    _require_playable(g, pos, limits)
    heavy()  # a search of every position below (no closed form for m players)
    prof = (
        nimlab.PreferenceProfile.parse(preference, players)
        if preference.strip()
        else nimlab.PreferenceProfile.of(None, players)
    )
    c = nimlab.multiplayer_choice(
        g, pos, players, prof, to_move, max_positions=limits.max_positions
    )
    fmt = g.format_position
    return {
        **state(g, pos, limits),
        "players": players,
        "profile": prof.label(),
        "orders": [list(o) for o in prof.orders],
        "to_move": c.to_move,
        "last_mover": c.last_mover,
        "best": [fmt(b) for b in c.best],
        "options": [
            {"position": fmt(o), "last_mover": w} for o, w in c.options[: limits.max_options]
        ],
        "more_options": len(c.options) > limits.max_options,
    }


# -- one request's computation, as plain values ------------------------------------------


@dataclass(frozen=True)
class Task:
    """One computation of the JSON API as plain values, so that it can run in a worker
    process of the server's slow lane (:func:`run_task` runs it).

    Attributes
    ----------
    kind : str
        ``position``, ``random``, ``move``, ``computer``, ``analysis``, ``tree``, ``table``
        or ``multiplayer``.
    game : str
        The canonical name of a game of the server's menu (resolved already).
    params : tuple of (str, str)
        The game's parameters as texts.
    position : str
        The position as typed ('' for ``random``).
    limits : Limits
        The bounds of the request.
    options : tuple of (str, object)
        The endpoint's own fields (``misere``, ``move``, ``size``, ...).
    """

    kind: str
    game: str
    params: tuple[tuple[str, str], ...]
    position: str
    limits: Limits = field(default_factory=Limits)
    options: tuple[tuple[str, Any], ...] = ()


def run_task(task: Task) -> dict[str, Any]:
    """Run a :class:`Task` (with no game file loadable while it runs).

    Examples
    --------
    >>> run_task(Task("analysis", "nim", (), "3 4 5", options=(("misere", False),)))["winning_moves"]
    ['1 4 5']
    >>> run_task(Task("position", "/tmp/x.py:evil", (), "3"))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.UnknownGameError: unknown game '/tmp/x.py:evil': this program loads no game file here (game files are given when it starts)
    """
    try:
        with no_game_files():
            return _run(task)
    except nimlab.SearchTooLargeError as e:
        raise type(e)(web_words(str(e))) from None


def web_words(message: str) -> str:
    """A search's refusal as the playground says it: its advice for the command line or
    Python (``--max-moves N``, ``method='auto'``, ``nimlab.table``) becomes the player's.

    Examples
    --------
    >>> web_words("g: the search has generated 5,001 moves, more than the search's budget "
    ...           "of 5,000 moves generated; use a smaller position, a closed form "
    ...           "(method='auto'), or raise max_moves (on the command line: --max-moves N)")
    "g: the search has generated 5,001 moves, more than the search's budget of 5,000 moves generated; try a smaller position (this is the playground's budget)"
    >>> web_words("g: 61 nodes, more than 60")
    'g: 61 nodes, more than 60'
    """
    head, sep, _ = message.partition("; use ")
    if not sep:
        head, sep, _ = message.partition("; raise ")
    if not sep and "command line" not in message:
        return message
    return head + "; try a smaller position (this is the playground's budget)"


def _run(task: Task) -> dict[str, Any]:
    lim = task.limits
    o = dict(task.options)
    g = build_game(task.game, dict(task.params))
    if task.kind == "random":
        return random_position(g, o["size"], lim, o.get("seed"))
    pos = read_position(g, task.position, lim)
    misere = bool(o.get("misere", False))
    if task.kind == "position":
        return state(g, pos, lim)
    if task.kind == "move":
        return apply_move(g, pos, o["move"], lim)
    if task.kind == "computer":
        return computer_move(g, pos, misere, o["strength"], lim, o.get("seed"))
    if task.kind == "analysis":
        return analyse(g, pos, misere, lim, explain=bool(o.get("explain", False)))
    if task.kind == "tree":
        return tree_svg(g, pos, lim)
    if task.kind == "table":
        return grundy_table(g, pos, misere, o["size"], lim)
    if task.kind == "multiplayer":
        return multiplayer(g, pos, o["players"], o["preference"], o["to_move"], lim)
    raise WebInputError(f"unknown computation {task.kind!r}")


#: niceness added to the worker processes of the slow lane (see :func:`start_worker`)
WORKER_NICENESS = 10


def start_worker(game_files: tuple[str, ...]) -> None:
    """Start a worker process of the server's slow lane: the server's games, and no game
    file loaded after them (for the life of the process)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    # searches are background work: the server's own process (its event loop and the fast
    # lane of cheap requests) goes first when the cores are busy
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    GameMenu.at_startup(game_files)
    no_game_files().__enter__()  # never left: no request of this process loads a file
