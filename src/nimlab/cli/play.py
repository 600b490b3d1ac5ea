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

__all__ = ["PlayResult", "play_cmd", "read_line", "run_play"]

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


@dataclass
class _Game:
    """A game in progress: the positions so far and who made each move."""

    g: Any
    pos: Any
    misere: bool
    output_fn: OutputFn
    history: list[Any] = field(default_factory=list)
    record: list[tuple[str, Any]] = field(default_factory=list)

    def move(self, who: str, new: Any) -> None:
        self.pos = new
        self.record.append((who, new))
        self.history.append(new)

    def computer_moves(self) -> None:
        from nimlab import NimlabError, smallest_step, winning_move

        fmt = self.g.format_position
        try:
            mv = winning_move(self.g, self.pos, self.misere)
        except NimlabError:
            mv = None
        if mv is None:  # a P-position: no move wins; the smallest step keeps the game long
            mv = smallest_step(self.g, self.pos, max_moves=10_001)
        self.output_fn(f"computer: {fmt(self.pos)} → {fmt(mv)}")
        self.move("computer", mv)

    def command(self, cmd: str) -> bool:
        """Run a command (help, hint, moves, undo); False when *cmd* is none."""
        from nimlab import NimlabError, explain

        g, out = self.g, self.output_fn
        if cmd in ("help", "?"):
            out(HELP_MOVES)
        elif cmd == "hint":
            try:
                out(explain(g, self.pos, self.misere).render_text())
            except NimlabError as e:
                out(f"no hint: {e}")
        elif cmd == "moves":
            opts = []
            for count, m in enumerate(g.moves(self.pos)):
                if count >= 50:
                    opts.append("...")
                    break
                opts.append(g.format_position(m))
            out("your options: " + " | ".join(opts))
        elif cmd == "undo":
            self.undo()
        else:
            return False
        return True

    def undo(self) -> None:
        """Take back the human's last move (and the computer's reply after it)."""
        idx = max((i for i, (who, _) in enumerate(self.record) if who == "human"), default=None)
        if idx is None:
            self.output_fn("nothing to undo.")
            return
        del self.record[idx:]
        del self.history[idx + 1 :]
        self.pos = self.history[-1]
        self.output_fn(f"undone; back to {self.g.format_position(self.pos)}")

    def human_moves(self, line: str) -> bool:
        """Play the move typed on *line*; False (and why, written) when it is no legal move."""
        import nimlab

        if not line:
            self.output_fn("illegal input: type a move, or hint, undo, moves, quit")
            return False
        try:
            new = nimlab.parse_move(self.g, self.pos, line)
        except nimlab.NimlabError as e:
            self.output_fn(f"illegal input: {e}")
            return False
        try:
            legal = nimlab.legal_move(self.g, self.pos, new)
        except nimlab.IllegalMoveError as e:
            self.output_fn(f"{e}; try again (or type hint)")
            return False
        self.move("human", legal)
        return True

    def winner(self, turn: str) -> str:
        """Who won, now that the player whose *turn* it is has no move."""
        last = self.record[-1][0] if self.record else ("computer" if turn == "human" else "human")
        other = "human" if last == "computer" else "computer"
        return other if self.misere else last


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
    fmt = g.format_position
    play = "misère play: the last mover loses" if misere else "normal play: the last mover wins"
    output_fn(f"nimlab play: {g.label()} ({play}).")
    output_fn(HELP_MOVES)
    game = _Game(g, position, misere, output_fn, [position])
    turn = first
    while True:
        if not _has_moves(g, game.pos):
            winner = game.winner(turn)
            output_fn(f"position: {fmt(game.pos)} (no moves left)")
            output_fn("You win!" if winner == "human" else "The computer wins.")
            return PlayResult(winner, game.record, game.pos)
        if turn == "computer":
            game.computer_moves()
            turn = "human"
            continue
        output_fn(f"position: {fmt(game.pos)}")
        try:
            line = input_fn("your move> ").strip()
        except EOFError:
            output_fn("end of input: game abandoned.")
            return PlayResult(None, game.record, game.pos)
        if line.lower() in ("quit", "q", "exit"):
            output_fn("game abandoned.")
            return PlayResult(None, game.record, game.pos)
        if not game.command(line.lower()) and game.human_moves(line):
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
