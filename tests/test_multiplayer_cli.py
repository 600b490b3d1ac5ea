"""Multiplayer on the command line: tables, last-mover, and m-player play through stdin."""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
from collections.abc import Callable

import click
import pytest

from nimlab import InvalidParameterError, games_profile
from nimlab.cli import main
from nimlab.cli.multiplayer_play import run_multiplayer_play


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def digit_sums_zero(heaps: tuple[int, ...], m: int) -> bool:
    width = max(heaps, default=0).bit_length()
    return all(sum((h >> b) & 1 for h in heaps) % m == 0 for b in range(width))


# -- nimlab multiplayer ----------------------------------------------------------------------
def test_grid_json_matches_sm_theorem_4_2(capsys: pytest.CaptureFixture[str]) -> None:
    # GAMEs(1,2,0), 3 players: a 0-position iff ⊕3 = 0 (some heap > 1) or = 1 (heaps <= 1)
    code, out, _ = run(
        capsys, "multiplayer", "nim", "--players", "3", "--preference", "1,2,0", "--size", "8",
        "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["label"] == "GAMEs(1,2,0)" and data["value"] == "i"
    grid = data["grid"]
    assert len(grid) == 8 and all(len(row) == 8 for row in grid)
    for x, y in itertools.product(range(8), repeat=2):
        claim = digit_sums_zero((x, y), 3) if max(x, y) > 1 else (x + y) % 3 == 1
        assert (grid[x][y] == 0) == claim


def test_grid_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "multiplayer", "nim", "--players", "3", "--size", "4")
    assert code == 0
    lines = out.splitlines()
    assert "GAMEs(0,1,2)" in lines[0]
    assert lines[1].split() == ["x\\y", "0", "1", "2", "3"]
    # row 2 of Li's 3-player Nim: from (2,0) the mover takes all (a 0-position); from (2,1),
    # (2,2), (2,3) it cannot move last, and prefers the next player: 1-positions
    assert lines[4].split() == ["2", "0", "1", "1", "1"]
    assert lines[2].split() == ["0", "2", "0", "0", "0"]


def test_all_profiles_four_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "multiplayer", "nim", "--players", "4", "--all-profiles", "--size", "5", "--json"
    )
    assert code == 0
    data = json.loads(out)
    tables = data["tables"]
    assert len(tables) == 24
    labels = [t["label"] for t in tables]
    assert len(set(labels)) == 24 and "GAMEs(0,1,2,3)" in labels
    for t in tables:
        ks = [int(k) for k in t["label"][6:-1].split(",")]
        # every table is the symmetric profile it names
        assert t["profile"] == [list(o) for o in games_profile(*ks).orders]
        # (0,0) is terminal: the player before the mover moved last, i = m-1
        assert t["grid"][0][0] == 3
        # x > 0, y = 0: the mover takes everything if it most wants itself to move last
        if ks[0] == 0:
            assert all(t["grid"][x][0] == 0 for x in range(1, 5))
        if ks == [0, 1, 2, 3]:  # SM Thm 3.1 with m = 4
            for x, y in itertools.product(range(5), repeat=2):
                assert (t["grid"][x][y] == 3) == digit_sums_zero((x, y), 4)
    code, out, _ = run(capsys, "multiplayer", "nim", "--players", "3", "--all-profiles", "-n", "3")
    assert code == 0
    assert out.count("GAMEs(") == 6


def test_more_heaps_list_and_non_symmetric_profile(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "multiplayer", "nim", "--heaps", "3", "--size", "3", "--json")
    assert code == 0
    data = json.loads(out)
    items = {tuple(p["position"]): p["value"] for p in data["positions"]}
    assert len(items) == 10  # multisets of 3 heaps from 0..2
    for pos, i in items.items():
        assert (i == 2) == digit_sums_zero(pos, 3)
    code, out, _ = run(
        capsys, "multiplayer", "nim", "--profile", "0,1,2;1,0,2;2,0,1", "--size", "3",
        "--to-move", "1", "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["value"] == "last_mover" and data["to_move"] == 1
    assert data["grid"][0][0] == 0  # terminal: the player before player 1


def test_one_heap_and_fixed_heap_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "multiplayer", "subtraction", "-p", "S=1,2", "--players", "3", "-n", "7", "--json"
    )
    assert code == 0
    vals = [p["value"] for p in json.loads(out)["positions"]]
    # with 3 players each wanting to move last, heap n: moves 1 or 2; computed by hand
    # n=0: i=2 (terminal); n=1,2: mover takes all, i=0; n=3: any move leaves 1 or 2: i=1
    assert vals[:4] == [2, 0, 0, 1]
    code, out, _ = run(capsys, "multiplayer", "lim", "-n", "3")
    assert code == 0 and "0 1 2:" in out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("multiplayer", "nim", "--preference", "1,2,2"), "exactly once"),
        (("multiplayer", "nim", "--preference", "1,0", "--players", "3"), "is for 2 players"),
        (("multiplayer", "nim", "--preference", "1,0", "--profile", "0,1;1,0"), "not both"),
        (("multiplayer", "nim", "--profile", "0,1,2"), "one order per player"),
        (("multiplayer", "turning-turtles"), "heaps"),
        (("multiplayer", "wythoff", "--heaps", "3"), "exactly 2 heaps"),
        (("multiplayer", "nim", "--size", "0"), "--size"),
        (("multiplayer", "nim", "--all-profiles", "--players", "7"), "players <= 6"),
        (("multiplayer", "nim", "--heaps", "6", "--size", "40"), "limit"),
        (("last-mover", "nim", "1", "2", "--players", "3", "--to-move", "5"), "to_move"),
        (("last-mover", "nim", "1", "-2", "--players", "3"), "heap 2 is -2"),
        (("last-mover", "nim", "1", "2", "--preference", "x"), "cannot read preference"),
    ],
)
def test_user_errors_exit_2_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], fragment: str
) -> None:
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert fragment in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


# -- nimlab last-mover ------------------------------------------------------------------------
def test_last_mover_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "last-mover", "nim", "2", "2", "2", "1", "3", "--preference", "0,1,2"
    )
    assert (code, out.strip()) == (0, "0")  # SM §5: a 0-position
    code, out, _ = run(
        capsys, "last-mover", "nim", "1", "2", "--players", "3", "--to-move", "2", "--moves"
    )
    assert code == 0
    lines = out.splitlines()
    # player 2 cannot win from (1,2); under Li's ranking it lets the next player (0) win
    assert lines[0] == "0"
    assert "* 0 2  -> player 0 moves last" in out
    assert "  1 1  -> player 1 moves last" in out
    code, out, _ = run(capsys, "last-mover", "nim", "1", "2", "3", "--players", "2", "--json")
    data = json.loads(out)
    assert data["last_mover"] == 1 and data["i"] == 1  # a P-position: every option
    assert len(data["best"]) == len(data["options"]) == 6  # leads to the opponent moving last
    code, out, _ = run(capsys, "last-mover", "nim", "1", "2", "3", "--json")
    data = json.loads(out)
    assert data["label"] == "GAMEs(0,1,2)"  # the command line defaults to 3 players, Li
    assert len(data["profile"]) == 3
    code, out, _ = run(
        capsys, "last-mover", "nim", "1", "1", "--players", "2", "--preference", "1,0"
    )
    assert out.strip() == "1"  # misère: from (1,1) the mover takes one, the other must move last


def test_light_imports() -> None:
    code = (
        "import sys; from nimlab.cli import main;"
        "rc = main(['last-mover','nim','1','2','--players','3']);"
        "heavy = [m for m in ('numba','dask','matplotlib','numpy') if m in sys.modules];"
        "print(heavy); sys.exit(rc)"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert res.stdout.splitlines() == ["1", "[]"]


# -- play -------------------------------------------------------------------------------------
def scripted(
    lines: list[str],
) -> tuple[list[str], Callable[[str], str], Callable[[str], None]]:
    out: list[str] = []
    feed = iter(lines)
    prompts: list[str] = []

    def input_fn(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return out, input_fn, out.append


def test_play_three_players_human_first() -> None:
    out, input_fn, output_fn = scripted(["?", "hint", "5 5", "x", "#9", "1 1"])
    last = run_multiplayer_play("nim", (1, 2), 3, None, 0, False, input_fn, output_fn)
    text = "\n".join(out)
    # the human cannot win from (1,2) ([SM] §3); after (1,1) player 1 takes one, player 2 the last
    assert last == 2
    assert "#3: 1 1  (then player 2 moves last)" in text
    assert "best for you: 0 2, 1 0 (player 1 moves last, your choice number 2 of 3)" in text
    assert "not reachable" in text and "cannot read 'x'" in text and "no option #9" in text
    assert "player 2 made the last move." in text


def test_play_computers_follow_their_preferences() -> None:
    # human in seat 2; player 0 (Li) lets player 1 win by (0,2) or (1,0): it plays (0,2)
    out, input_fn, output_fn = scripted([])
    last = run_multiplayer_play("nim", (1, 2), 3, None, 2, False, input_fn, output_fn)
    assert last == 1
    assert "player 0 moves to 0 2 (so that player 1 moves last, its best choice)" in out
    # GAMEs(0,2,1): player 0 prefers N^2 = player 2 over player 1, so it plays (1,1)
    out, input_fn, output_fn = scripted(["0 0"])
    last = run_multiplayer_play(
        "nim",
        (1, 2),
        3,
        games_profile(0, 2, 1),
        2,
        False,
        input_fn,
        output_fn,
    )
    assert "player 0 moves to 1 1" in "\n".join(out)
    assert last == 2


def test_play_misere_two_players_and_errors() -> None:
    # misère Nim (1,1,1): the human (seat 0) takes one; the computer must leave the last one
    out, input_fn, output_fn = scripted(["0 1 1", "0 0 0"])
    last = run_multiplayer_play("nim", (1, 1, 1), 2, None, 0, True, input_fn, output_fn)
    assert last == 0  # the human is forced to take the last stone: misère P-position
    assert "player 0 (you) made the last move." in out
    with pytest.raises(InvalidParameterError, match="misère play is GAMEs"):
        run_multiplayer_play("nim", (1, 2), 3, None, 0, True, input_fn, output_fn)
    with pytest.raises(InvalidParameterError, match="seat"):
        run_multiplayer_play("nim", (1, 2), 3, None, 3, False, input_fn, output_fn)
    _, input_fn, output_fn = scripted(["q"])
    with pytest.raises(click.exceptions.Abort):
        run_multiplayer_play("nim", (3, 4), 3, None, 0, False, input_fn, output_fn)
    _out, input_fn, output_fn = scripted([])
    assert run_multiplayer_play("nim", (0, 0), 4, None, 1, False, input_fn, output_fn) == 3


def test_play_through_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("2 0\n"))
    printed: list[str] = []
    # Wythoff (2,2), 3 players: the human (seat 0) moves to (2,0); player 1 takes the rest
    last = run_multiplayer_play(
        "wythoff", (2, 2), 3, None, 0, False, input_fn=input, output_fn=printed.append
    )
    assert last == 1
    assert printed[-1] == "player 1 made the last move."


def test_row_labels_stand_apart_from_values(capsys: pytest.CaptureFixture[str]) -> None:
    # issue 11: with 11 players the value 10 ran into the row label ("010")
    assert main(["multiplayer", "nim", "--players", "11", "--size", "3"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    assert rows[0].split() == ["0", "10", "0", "0"]
    assert all(len(r.split()) == 4 for r in rows)
