"""``nimlab play``: a game against the perfect computer in the terminal.

The game loop (:func:`run_play`) reads moves through an input function and writes
through an output function, so tests drive it through standard input.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import click

from nimlab.cli.app import (
    HEAP_CONTEXT,
    Count,
    emit_json,
    game_from_cli,
    param_option,
    position_from_cli,
)

__all__ = ["PlayResult", "parse_move", "play_cmd", "read_line", "run_play"]

HELP_MOVES = (
    "Type the position after your move (for example 3 4 1; groups with commas, 1,2 3,3), "
    "or HEAP:SIZE pairs (3:1 means heap 3 becomes 1; several pairs for moves on several "
    "heaps); hint explains the winning move, undo takes back your last move, moves lists "
    "your options, quit ends the game."
)

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]


@dataclass
class PlayResult:
    """How a game ended: ``winner`` is ``"human"``, ``"computer"`` or None (quit)."""

    winner: str | None
    record: list[tuple[str, Any]] = field(default_factory=list)
    final: Any = None


class _BadMove(Exception):
    pass


def parse_move(g: Any, position: Any, text: str) -> Any:
    """Read a move typed by the player: the resulting position, or ``HEAP:SIZE`` pairs.

    Returns the resulting position (validated, not yet checked for legality).

    Examples
    --------
    >>> from nimlab import game
    >>> parse_move(game("nim"), (3, 4, 5), "3:1")
    (3, 4, 1)
    >>> parse_move(game("nim"), (3, 4, 5), "1 4 5")
    (1, 4, 5)
    """
    tokens = text.replace(";", " ").split()
    if not tokens:
        raise _BadMove("type a move, or hint, undo, moves, quit")
    if all(":" in t for t in tokens):
        if not (isinstance(position, tuple) and all(isinstance(h, int) for h in position)):
            raise _BadMove("HEAP:SIZE moves are for games of heaps; type the whole position")
        new = list(position)
        for t in tokens:
            i_txt, _, v_txt = t.partition(":")
            try:
                i, v = int(i_txt), int(v_txt)
            except ValueError:
                raise _BadMove(
                    f"cannot read {t!r}: write HEAP:SIZE, for example 3:1 (heap 3 becomes 1)"
                ) from None
            if not 1 <= i <= len(new):
                raise _BadMove(f"there is no heap {i}: heaps are numbered 1 to {len(new)}")
            new[i - 1] = v
        return g.validate(tuple(new))
    return g.parse_position(tokens)


def _legal_as(g: Any, position: Any, new: Any, budget: int = 1_000_000) -> Any:
    """The move of *position* equal to *new* (or to it up to symmetry), else None."""
    target = g.canonical(new)
    match = None
    for count, m in enumerate(g.moves(position)):
        if m == new:
            return m
        if match is None and g.canonical(m) == target:
            match = m
        if count >= budget:
            break
    return match


def _stones(pos: Any) -> int:
    if isinstance(pos, int):
        return pos
    if isinstance(pos, (tuple, list, frozenset, set)):
        return sum(_stones(x) for x in pos)
    return 0


def _some_move(g: Any, position: Any) -> Any:
    """A legal move that takes as little as possible (among the first moves)."""
    best = None
    best_key = -1
    for count, m in enumerate(g.moves(position)):
        key = _stones(m)
        if key > best_key:
            best, best_key = m, key
        if count >= 10_000:
            break
    return best


def _has_moves(g: Any, position: Any) -> bool:
    return next(iter(g.moves(position)), None) is not None


#: Longest line read from standard input.
MAX_LINE = 100_000


def read_line(prompt: str) -> str:
    """``input(prompt)``, echoing the line when standard input is not a terminal."""
    import sys

    if sys.stdin is None or sys.stdin.closed:
        raise EOFError  # standard input closed: the same as its end
    if not sys.stdin.isatty():  # a pipe or a file: read a bounded line (no 4 GB line)
        click.echo(prompt, nl=False)
        line = sys.stdin.readline(MAX_LINE + 1)
        if not line:
            raise EOFError
        line = line.rstrip("\r\n")
        if "\x00" in line:
            raise click.UsageError("standard input holds NUL bytes, not moves")
    else:
        try:
            line = input(prompt)
        except RuntimeError:  # input(): lost sys.stdin
            raise EOFError from None
    if len(line) > MAX_LINE:
        raise click.UsageError(f"an input line of more than {MAX_LINE:,} characters")
    if not sys.stdin.isatty():
        click.echo(line)
    return line


def run_play(
    g: Any,
    position: Any,
    first: str = "human",
    misere: bool = False,
    input_fn: InputFn = read_line,
    output_fn: OutputFn = click.echo,
) -> PlayResult:
    """Play *g* from *position*, the human against the perfect computer.

    Parameters
    ----------
    g : Ruleset
        The game.
    position : object
        A valid position.
    first : {"human", "computer"}
        Who moves first.
    misere : bool
        Misère play (the last mover loses).
    input_fn, output_fn : callable
        Read a line (given a prompt) and write a line; :func:`read_line` and
        ``click.echo`` by default. End of input quits the game.

    Returns
    -------
    PlayResult
        The winner and the record of moves.
    """
    from nimlab import NimlabError, explain, winning_move

    fmt = g.format_position
    play = "misère play: the last mover loses" if misere else "normal play: the last mover wins"
    output_fn(f"nimlab play: {g.label()} ({play}).")
    output_fn(HELP_MOVES)
    history: list[Any] = [position]
    record: list[tuple[str, Any]] = []
    turn = first
    pos = position
    while True:
        if not _has_moves(g, pos):
            last = record[-1][0] if record else ("computer" if turn == "human" else "human")
            other = "human" if last == "computer" else "computer"
            winner = other if misere else last
            output_fn(f"position: {fmt(pos)} (no moves left)")
            output_fn("You win!" if winner == "human" else "The computer wins.")
            return PlayResult(winner, record, pos)
        if turn == "computer":
            try:
                mv = winning_move(g, pos, misere)
            except NimlabError:
                mv = None
            if mv is None:
                mv = _some_move(g, pos)
            output_fn(f"computer: {fmt(pos)} → {fmt(mv)}")
            pos = mv
            record.append(("computer", mv))
            history.append(pos)
            turn = "human"
            continue
        output_fn(f"position: {fmt(pos)}")
        try:
            line = input_fn("your move> ").strip()
        except EOFError:
            output_fn("end of input: game abandoned.")
            return PlayResult(None, record, pos)
        cmd = line.lower()
        if cmd in ("quit", "q", "exit"):
            output_fn("game abandoned.")
            return PlayResult(None, record, pos)
        if cmd in ("help", "?"):
            output_fn(HELP_MOVES)
            continue
        if cmd == "hint":
            try:
                output_fn(explain(g, pos, misere).render_text())
            except NimlabError as e:
                output_fn(f"no hint: {e}")
            continue
        if cmd == "moves":
            opts = []
            for count, m in enumerate(g.moves(pos)):
                if count >= 50:
                    opts.append("...")
                    break
                opts.append(fmt(m))
            output_fn("your options: " + " | ".join(opts))
            continue
        if cmd == "undo":
            # take back the human's last move (and the computer's reply after it)
            idx = max((i for i, (who, _) in enumerate(record) if who == "human"), default=None)
            if idx is None:
                output_fn("nothing to undo.")
                continue
            del record[idx:]
            del history[idx + 1 :]
            pos = history[-1]
            output_fn(f"undone; back to {fmt(pos)}")
            continue
        try:
            new = parse_move(g, pos, line)
        except (_BadMove, NimlabError) as e:
            output_fn(f"illegal input: {e}")
            continue
        if new == pos:
            output_fn(f"illegal move: {fmt(new)} is the current position; a move must change it")
            continue
        legal = _legal_as(g, pos, new)
        if legal is None:
            output_fn(
                f"illegal move: {fmt(new)} cannot be reached from {fmt(pos)} in one move "
                f"of {g.name}; try again (or type hint)"
            )
            continue
        pos = legal
        record.append(("human", legal))
        history.append(pos)
        turn = "computer"


@click.command("play", context_settings=HEAP_CONTEXT)
@click.argument("game_name", metavar="GAME")
@click.argument("heaps", nargs=-1, type=click.UNPROCESSED)
@param_option
@click.option(
    "--first",
    type=click.Choice(["human", "computer"]),
    default="human",
    show_default=True,
    help="Who moves first.",
)
@click.option("--misere", is_flag=True, help="Misère play: the last mover loses.")
@click.option(
    "--players",
    type=Count(),
    default=2,
    show_default=True,
    help="Number of players; 3 or more plays multiplayer Nim (preferences, [SM]).",
)
@click.option(
    "--preference",
    default=None,
    metavar="PROFILE",
    help="With --players: the preference profile (for example 0,1,2).",
)
@click.option(
    "--seat",
    type=Count(),
    default=0,
    show_default=True,
    help="With --players: your seat (0 moves first).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the game record as JSON at the end.")
def play_cmd(
    game_name: str,
    heaps: Sequence[str],
    params: tuple[str, ...],
    first: str,
    misere: bool,
    players: int,
    preference: str | None,
    seat: int,
    as_json: bool,
) -> None:
    """Play a game against the perfect computer: nimlab play nim 3 4 5.

    \b
    Moves: type the position after your move (3 4 1; for grouped
    positions the groups with commas, 1,2 3,3), or HEAP:SIZE pairs
    (3:1 means "heap 3 becomes 1"; 1:0 2:2 changes two heaps, for
    Nim_k). Commands: hint (the winning move, explained), undo (take
    back your last move), moves (list your options), quit.
    """
    g = game_from_cli(game_name, params)
    pos = position_from_cli(g, heaps)
    if players < 2:
        raise click.UsageError("--players must be at least 2")
    if players >= 3:
        try:
            mod = importlib.import_module("nimlab.cli.multiplayer_play")
        except ImportError:
            raise click.UsageError(
                "multiplayer play (--players 3 or more) is not available in this version "
                "of nimlab (module nimlab.cli.multiplayer_play is missing); play with 2 players"
            ) from None
        mod.run_multiplayer_play(g, pos, players, preference, seat, misere, read_line, click.echo)
        return
    result = run_play(g, pos, first=first, misere=misere)
    if as_json:
        emit_json(
            {
                "game": g.label(),
                "misere": misere,
                "winner": result.winner,
                "moves": [{"player": who, "position": p} for who, p in result.record],
                "final": result.final,
            }
        )
