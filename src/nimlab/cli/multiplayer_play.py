"""Playing with m players in the terminal: the human takes one seat, the computer the others.

Each computer player picks an option that makes the player it prefers most (among those it
can bring about) move last, exactly as in [SM]'s definition of ``W(G, A)``
(:func:`nimlab.last_mover`). ``nimlab play ... --players M`` delegates here; the function is
driven by ``input_fn`` / ``output_fn`` so that tests (and any front end) can script it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

__all__ = ["run_multiplayer_play"]

_HELP = (
    "type the position after your move (heaps separated by spaces), '#N' for option N of "
    "the list, '?' to list the options, 'hint' for the best ones, 'q' to quit"
)


def _who(player: int, human_seat: int) -> str:
    return f"player {player} (you)" if player == human_seat else f"player {player}"


def run_multiplayer_play(
    game: Any,
    position: object,
    players: int,
    preference: Any = None,
    human_seat: int = 0,
    misere: bool = False,
    input_fn: Callable[[str], str] = input,
    output_fn: Callable[[str], None] = click.echo,
) -> int:
    """Play *game* from *position* with *players* players; return the last mover's number.

    Parameters
    ----------
    game : Ruleset or str
        The game (a ruleset or a registry name).
    position : object
        The starting position (validated).
    players : int
        The number of players m >= 2, numbered 0..m-1 in turn order; player 0 moves first.
    preference : PreferenceProfile or None
        The players' preferences; None means Li's ranking ``GAMEs(0, 1, ..., m-1)``.
    human_seat : int
        The human's player number.
    misere : bool
        Misère play, ``GAMEs(1, 0)``: only with 2 players.
    input_fn, output_fn : callable
        Read one line after a prompt, write one message.

    Returns
    -------
    int
        The number of the player who made the last move (by [SM]'s convention, the player
        before the first mover if no move is possible at all).

    Raises
    ------
    click.exceptions.Abort
        When the human quits (``q``) or the input ends.

    Examples
    --------
    >>> moves = iter(["1 1"])
    >>> run_multiplayer_play("nim", (1, 2), 3, None, 0, False,
    ...                      lambda prompt: next(moves), lambda msg: None)
    2
    """
    import nimlab

    g = nimlab.game(game) if isinstance(game, str) else game
    pos = g.validate(position)
    prof = _profile(players, preference, human_seat, misere)
    m: int = prof.players
    solver = nimlab.MultiplayerSolver(g, prof)
    _introduce(g, prof, human_seat, output_fn)
    to_move = 0
    moved = False
    while True:
        options = list(dict.fromkeys(g.moves(pos)))
        if not options:
            last = (to_move - 1) % m
            if moved:
                output_fn(f"position {g.format_position(pos)}: no move left.")
                output_fn(f"{_who(last, human_seat)} made the last move.")
            else:
                output_fn(
                    f"position {g.format_position(pos)}: no move is possible; by the rules the "
                    f"player before the first mover, {_who(last, human_seat)}, counts as last mover."
                )
            return last
        output_fn(f"position {g.format_position(pos)}: {_who(to_move, human_seat)} to move")
        if to_move != human_seat:
            pos = _computer_move(g, solver, pos, options, to_move, human_seat, output_fn)
        else:
            pos = _ask_move(g, solver, pos, options, to_move, input_fn, output_fn)
        moved = True
        to_move = (to_move + 1) % m


def _introduce(g: Any, prof: Any, human_seat: int, output_fn: Callable[[str], None]) -> None:
    """Say who plays, in which order, with which preferences."""
    output_fn(
        f"{g.label()} with {prof.players} players, preferences {prof.label()}; "
        f"you are player {human_seat}."
    )
    output_fn("Players move in turn 0, 1, ...; each wants the players it prefers to move last:")
    for a in range(prof.players):
        order = " > ".join(str(x) for x in prof.orders[a])
        output_fn(f"  {_who(a, human_seat)} prefers {order}")


def _profile(players: int, preference: Any, human_seat: int, misere: bool) -> Any:
    """The players' preference profile, checked with the human's seat."""
    import nimlab
    from nimlab import InvalidParameterError

    if misere:
        if players != 2:
            raise InvalidParameterError(
                f"misère play is GAMEs(1,0) for 2 players; with {players} players give a "
                "preference profile instead (for example --preference 1,2,0)"
            )
        if preference is not None and preference != nimlab.misere_profile():
            raise InvalidParameterError("give either misère play or a preference profile, not both")
        preference = nimlab.misere_profile()
    prof = nimlab.PreferenceProfile.of(preference, players)
    m = prof.players
    if isinstance(human_seat, bool) or not isinstance(human_seat, int) or not 0 <= human_seat < m:
        raise InvalidParameterError(
            f"the human's seat must be a player 0..{m - 1}, got {human_seat!r}"
        )
    return prof


def _computer_move(
    g: Any,
    solver: Any,
    pos: Any,
    options: list[Any],
    to_move: int,
    human_seat: int,
    output_fn: Callable[[str], None],
) -> Any:
    """The option a computer player picks: the player it prefers most moves last."""
    w = solver.last_mover(pos, to_move)
    nxt_player = (to_move + 1) % solver.players
    best = next(o for o in options if solver.last_mover(o, nxt_player) == w)
    output_fn(
        f"{_who(to_move, human_seat)} moves to {g.format_position(best)} "
        f"(so that player {w} moves last, its best choice)"
    )
    return best


def _ask_move(
    g: Any,
    solver: Any,
    pos: Any,
    options: list[Any],
    seat: int,
    input_fn: Callable[[str], str],
    output_fn: Callable[[str], None],
) -> Any:
    import nimlab

    m = solver.players
    nxt = (seat + 1) % m
    while True:
        try:
            text = input_fn(f"your move (player {seat}): ").strip()
        except EOFError:
            raise click.exceptions.Abort() from None
        low = text.lower()
        if not text:
            output_fn(_HELP)
            continue
        if low in ("q", "quit", "exit"):
            raise click.exceptions.Abort()
        if low in ("?", "help", "h"):
            output_fn(_HELP)
            for n, o in enumerate(options, 1):
                w = solver.last_mover(o, nxt)
                output_fn(f"  #{n}: {g.format_position(o)}  (then player {w} moves last)")
            continue
        if low == "hint":
            w = solver.last_mover(pos, seat)
            best = [o for o in options if solver.last_mover(o, nxt) == w]
            rank = solver.profile.rank(seat, w) + 1
            output_fn(
                f"best for you: {', '.join(g.format_position(o) for o in best)} "
                f"(player {w} moves last, your choice number {rank} of {m})"
            )
            continue
        if text.startswith("#"):
            try:
                n = int(text[1:])
            except ValueError:
                n = 0
            if not 1 <= n <= len(options):
                output_fn(f"there is no option {text}: choose #1..#{len(options)} ('?' lists them)")
                continue
            return options[n - 1]
        try:
            target = nimlab.parse_move(g, pos, text)
        except nimlab.NimlabError as exc:
            output_fn(f"{exc}")
            continue
        try:
            return nimlab.legal_move(g, pos, target)
        except nimlab.IllegalMoveError:
            output_fn(
                f"{g.format_position(target)} is not reachable in one move from "
                f"{g.format_position(pos)} ('?' lists the options)"
            )
