"""``nimlab play``: driven through standard input by scripted and random opponents."""

from __future__ import annotations

import random
from typing import Any

import pytest
from click.testing import CliRunner

from nimlab import game, outcome
from nimlab.cli.app import cli
from nimlab.cli.play import run_play


def scripted_lines() -> str:
    # a naive opponent: tries "heap i becomes v" for every heap and size; illegal
    # attempts are rejected and the next line is read
    lines = [f"{i}:{v}" for _ in range(8) for i in (1, 2, 3) for v in range(5, -1, -1)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("first", ["human", "computer"])
def test_play_nim_345_to_the_end(first: str) -> None:
    result = CliRunner().invoke(
        cli, ["play", "nim", "3", "4", "5", "--first", first], input=scripted_lines()
    )
    assert result.exit_code == 0, result.output
    assert "position: 3 4 5" in result.output or "computer: 3 4 5 → 1 4 5" in result.output
    assert "(no moves left)" in result.output
    assert result.output.rstrip().endswith("The computer wins.")
    assert "illegal move" in result.output  # the naive opponent was told off at least once


def test_play_commands_hint_undo_quit() -> None:
    text = "hint\n3:1\nundo\nfoo\n9:1\n3 4 5\n1:1\nquit\n"
    result = CliRunner().invoke(cli, ["play", "nim", "3", "4", "5"], input=text)
    out = result.output
    assert result.exit_code == 0, out
    assert "winning move: 3 4 5 → 1 4 5" in out  # hint explains Bouton's move
    assert "sum mod 2" in out
    assert "computer: 3 4 1 →" in out
    assert "undone; back to 3 4 5" in out
    assert "illegal input: cannot read 'foo'" in out
    assert "there is no heap 9" in out
    assert "is the current position" in out
    assert "computer: 1 4 5 →" in out  # after the winning move the computer must reply
    assert "game abandoned." in out


def test_play_help_documents_notation() -> None:
    result = CliRunner().invoke(cli, ["play", "--help"])
    assert result.exit_code == 0
    assert "HEAP:SIZE" in result.output and "hint" in result.output and "undo" in result.output


def test_play_errors_are_one_line() -> None:
    result = CliRunner().invoke(cli, ["play", "nim", "3", "-4"])
    assert result.exit_code != 0
    res = CliRunner().invoke(cli, ["play", "nim", "3", "4", "--players", "1"])
    assert res.exit_code == 2
    assert "--players must be at least 2" in res.output


def test_play_delegates_to_multiplayer() -> None:
    pytest.importorskip("nimlab.cli.multiplayer_play")
    res = CliRunner().invoke(cli, ["play", "nim", "3", "4", "--players", "3"], input="quit\n")
    assert "3 players" in res.output


class RandomOpponent:
    """Reads the position the game prints and answers with a random legal move."""

    def __init__(self, g: Any, seed: int) -> None:
        self.g = g
        self.rng = random.Random(seed)
        self.position: Any = None
        self.lines: list[str] = []

    def output(self, line: str) -> None:
        self.lines.append(line)
        if line.startswith("position: ") and "(no moves left)" not in line:
            self.position = self.g.parse_position(line[len("position: ") :].split())

    def input(self, prompt: str) -> str:
        options = list(dict.fromkeys(self.g.moves(self.position)))
        if self.rng.random() < 0.1:
            return self.rng.choice(["hint", "moves", "nonsense"])
        return self.g.format_position(self.rng.choice(options))


GAMES = [
    ("nim", {}, (3, 4, 5), False),
    ("nim", {}, (1, 2, 3, 4), False),
    ("nim", {}, (2, 3, 4), True),
    ("moore", {"k": 2}, (3, 4, 5, 6), False),
    ("moore", {"k": 2}, (2, 3, 3), True),
    ("welter", {}, (1, 3, 6), False),
    ("lim", {}, (2, 3, 4), False),
    ("single-delete", {}, (3, 4, 6, 5), False),
    ("ryuo", {"p": 3}, (5, 8), False),
]


@pytest.mark.parametrize(("name", "params", "start", "misere"), GAMES)
@pytest.mark.parametrize("first", ["human", "computer"])
def test_computer_wins_every_game_it_should(
    name: str, params: dict[str, Any], start: tuple[int, ...], misere: bool, first: str
) -> None:
    g = game(name, **params)
    pos = g.validate(start)
    other = "human" if first == "computer" else "computer"
    wins = 0
    for seed in range(12):
        opp = RandomOpponent(g, seed)
        result = run_play(
            g, pos, first=first, misere=misere, input_fn=opp.input, output_fn=opp.output
        )
        assert result.winner in ("human", "computer")
        seq = [pos] + [p for _, p in result.record]
        movers = [first if t % 2 == 0 else other for t in range(len(seq))]
        assert [who for who, _ in result.record] == movers[: len(result.record)]
        # the computer must win as soon as it is to move at an N-position
        faced_n = any(
            who == "computer" and str(outcome(g, p, misere=misere)) == "N"
            for p, who in zip(seq, movers, strict=True)
        )
        if faced_n:
            assert result.winner == "computer", (name, seed, result.record)
            wins += 1
        assert result.final == seq[-1]
        assert not list(g.moves(result.final))
    assert wins >= 6  # random opponents blunder: the computer wins most games


def test_parse_and_legal_move_agree_with_the_moves() -> None:
    """The one home of play (terminal and web): a typed move is legal exactly when it is one
    of the game's own options, for every HEAP:SIZE pair of small Nim and Wythoff positions."""
    import itertools

    import nimlab

    for name in ("nim", "wythoff"):
        g = nimlab.game(name)
        for pos in itertools.product(range(4), repeat=2):
            options = set(g.moves(pos))
            for i, v in itertools.product((1, 2), range(4)):
                new = nimlab.parse_move(g, pos, f"{i}:{v}")
                assert new == pos[: i - 1] + (v,) + pos[i:]
                try:
                    assert nimlab.legal_move(g, pos, new) == new and new in options
                except nimlab.IllegalMoveError:
                    assert new not in options
            for opt in options:  # the whole position typed
                text = " ".join(map(str, opt))
                assert nimlab.legal_move(g, pos, nimlab.parse_move(g, pos, text)) == opt
