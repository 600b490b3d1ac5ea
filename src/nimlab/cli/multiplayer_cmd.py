"""Multiplayer commands: ``nimlab multiplayer`` (tables of i-positions) and ``nimlab last-mover``.

Players are numbered 0..m-1 in turn order. Preferences are given as ``--preference 1,2,0``
(the symmetric ``GAMEs(1,2,0)`` of [SM]) or ``--profile "0,1,2;1,2,0;2,0,1"`` (one order per
player, most wanted last mover first); the default is Li's ranking ``GAMEs(0,1,...,m-1)``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import click

from nimlab.cli.app import (
    HEAP_CONTEXT,
    Count,
    emit_json,
    game_from_cli,
    json_option,
    param_option,
    position_from_cli,
)

__all__ = ["last_mover_cmd", "multiplayer_cmd"]

#: Refuse tables that would print more than this many positions in all.
MAX_TABLE_POSITIONS = 200_000


def _profile(players: int | None, preference: str | None, profile: str | None) -> Any:
    import nimlab
    from nimlab import InvalidParameterError

    if preference is not None and profile is not None:
        raise InvalidParameterError(
            "give either --preference (a symmetric k-list like 1,2,0) or --profile "
            "(one order per player like 0,1,2;1,2,0;2,0,1), not both"
        )
    text = preference if preference is not None else profile
    if text is None:
        return nimlab.li_ranking(3 if players is None else players)
    if profile is not None and ";" not in profile:
        raise InvalidParameterError(
            f"--profile {profile!r} needs one order per player separated by ';' "
            "(for example 0,1,2;1,2,0;2,0,1); use --preference for a symmetric k-list"
        )
    return nimlab.PreferenceProfile.parse(text, players)


def _player_options(f: Any) -> Any:
    f = click.option(
        "--profile",
        "profile_text",
        metavar="ORDERS",
        help="One preference order per player, separated by ';' (e.g. '0,1,2;1,2,0;2,0,1').",
    )(f)
    f = click.option(
        "--preference",
        metavar="K1,...,KM",
        help="Symmetric preference GAMEs(k1,...,km): each player A prefers N^k1(A) most, "
        "then N^k2(A), ... (default: Li's ranking 0,1,...,m-1).",
    )(f)
    f = click.option(
        "--players",
        "-m",
        type=Count(),
        default=None,
        help="Number of players m (default: from the preference, else 3).",
    )(f)
    return f


# -- nimlab multiplayer --------------------------------------------------------------------
def _heap_count(g: Any, heaps: int | None) -> int:
    from nimlab import InvalidParameterError

    fixed = getattr(g, "n_heaps", None)
    if heaps is None:
        return fixed if fixed is not None else 2
    if heaps < 1:
        raise InvalidParameterError(f"--heaps must be at least 1, got {heaps}")
    if fixed is not None and heaps != fixed:
        raise InvalidParameterError(
            f"{g.label()} is played on exactly {fixed} heap{'s' if fixed != 1 else ''}; "
            f"drop --heaps or use --heaps {fixed}"
        )
    return heaps


def _positions(g: Any, n: int, values: range) -> Iterator[tuple[int, ...]]:
    if getattr(g, "ordered", True) or n <= 2:
        yield from itertools.product(values, repeat=n)
    else:
        yield from itertools.combinations_with_replacement(values, n)


def _table(g: Any, prof: Any, n: int, values: range, to_move: int) -> dict[str, Any]:
    """Values (i, or last mover for non-symmetric profiles) of every valid position."""
    import nimlab
    from nimlab import InvalidPositionError

    solver = nimlab.MultiplayerSolver(g, prof)
    sym = prof.is_symmetric

    def value(pos: tuple[int, ...]) -> int | None:
        try:
            p = g.validate(pos)
        except InvalidPositionError:
            return None
        return int(solver.i_value(p)) if sym else int(solver.last_mover(p, to_move))

    data: dict[str, Any] = {
        "profile": [list(o) for o in prof.orders],
        "label": prof.label(),
        "value": "i" if sym else "last_mover",
    }
    if not sym:
        data["to_move"] = to_move
    if n == 2:
        data["values"] = list(values)
        data["grid"] = [[value((x, y)) for y in values] for x in values]
    else:
        data["positions"] = [
            {"position": list(p), "value": v}
            for p in _positions(g, n, values)
            if (v := value(p)) is not None
        ]
    return data


def _render(g: Any, table: dict[str, Any], n: int, players: int) -> list[str]:
    what = (
        "i (N^i(A) moves last, A to move)"
        if table["value"] == "i"
        else f"the last mover (player {table['to_move']} to move)"
    )
    lines = [f"{g.label()}, {players} players, {table['label']}: {what}"]
    if n == 2:
        vals = table["values"]
        # every column as wide as its widest label or value, plus one space between
        texts = [str(y) for y in vals] + [str(v) for row in table["grid"] for v in row]
        w = max(len(t) for t in [".", *texts]) + 1
        lw = max(4, *(len(str(x)) for x in vals)) if vals else 4
        corner = "x\\y"
        lines.append(f"{corner:>{lw}}" + "".join(f"{y:>{w}}" for y in vals))
        for x, row in zip(vals, table["grid"], strict=True):
            cells = "".join(f"{'.' if v is None else v:>{w}}" for v in row)
            lines.append(f"{x:>{lw}}" + cells)
    else:
        for item in table["positions"]:
            lines.append(f"  {g.format_position(tuple(item['position']))}: {item['value']}")
    return lines


@click.command("multiplayer", context_settings=HEAP_CONTEXT)
@click.argument("game_name", metavar="GAME")
@param_option
@_player_options
@click.option(
    "--all-profiles",
    is_flag=True,
    help="Tabulate every symmetric profile GAMEs(k1,...,km) of m players (m! tables).",
)
@click.option(
    "--size",
    "-n",
    type=Count(),
    default=8,
    show_default=True,
    help="Heaps take the N smallest sizes (0..N-1 for games of heaps >= 0).",
)
@click.option("--heaps", type=Count(), default=None, help="Number of heaps (default: 2, or fixed).")
@click.option(
    "--to-move",
    type=Count(),
    default=0,
    show_default=True,
    help="The player to move (for non-symmetric profiles, which tabulate the last mover).",
)
@json_option
def multiplayer_cmd(
    game_name: str,
    params: tuple[str, ...],
    players: int | None,
    preference: str | None,
    profile_text: str | None,
    all_profiles: bool,
    size: int,
    heaps: int | None,
    to_move: int,
    as_json: bool,
) -> None:
    """Table of i-positions of a game played by m players with preferences.

    For 2-heap positions an N x N grid of i values (the position is an i-position when,
    with A to move, N^i(A) makes the last move); for more heaps a list. Examples:

      nimlab multiplayer nim --players 3 --preference 1,2,0 --size 8

      nimlab multiplayer nim --players 4 --all-profiles --size 8

      nimlab multiplayer nim --heaps 3 --profile "0,1,2;1,0,2;2,0,1" --size 4
    """
    import math

    import nimlab
    from nimlab import HeapRuleset, InvalidParameterError

    g = game_from_cli(game_name, params)
    if not isinstance(g, HeapRuleset):
        raise InvalidParameterError(
            f"{g.label()}: tables need a game whose positions are heaps; use "
            "`nimlab last-mover GAME POSITION` for single positions"
        )
    if size < 1:
        raise InvalidParameterError(f"--size must be at least 1, got {size}")
    n = _heap_count(g, heaps)
    if all_profiles:
        if preference is not None or profile_text is not None:
            raise InvalidParameterError(
                "--all-profiles tabulates every symmetric profile: drop --preference/--profile"
            )
        m = 3 if players is None else players
        if not 2 <= m <= 6:
            raise InvalidParameterError(
                f"--all-profiles needs 2 <= players <= 6 (m! tables), got {m}"
            )
        profiles = list(nimlab.symmetric_profiles(m))
    else:
        profiles = [_profile(players, preference, profile_text)]
        m = profiles[0].players
    if not 0 <= to_move < m:
        raise InvalidParameterError(f"--to-move must be a player 0..{m - 1}, got {to_move}")
    lo = int(getattr(g, "min_heap_size", 0))
    values = range(lo, lo + size)
    total = len(profiles) * (size**n if n <= 2 else math.comb(size + n - 1, n))
    if total > MAX_TABLE_POSITIONS:
        raise InvalidParameterError(
            f"this table would hold {total:,} positions (limit {MAX_TABLE_POSITIONS:,}); "
            "use a smaller --size, fewer --heaps or fewer players"
        )
    tables = [_table(g, prof, n, values, to_move) for prof in profiles]
    if as_json:
        head: dict[str, Any] = {"game": g.label(), "players": m, "heaps": n, "size": size}
        if all_profiles:
            emit_json({**head, "tables": tables})
        else:
            emit_json({**head, **tables[0]})
        return
    for k, table in enumerate(tables):
        if k:
            click.echo("")
        for line in _render(g, table, n, m):
            click.echo(line)


# -- nimlab last-mover -----------------------------------------------------------------------
@click.command("last-mover", context_settings=HEAP_CONTEXT)
@click.argument("game_name", metavar="GAME")
@click.argument("heaps", nargs=-1, type=click.UNPROCESSED)
@param_option
@_player_options
@click.option("--to-move", type=Count(), default=0, show_default=True, help="The player to move.")
@click.option("--moves", "show_moves", is_flag=True, help="Also list every option and its result.")
@json_option
def last_mover_cmd(
    game_name: str,
    heaps: tuple[str, ...],
    params: tuple[str, ...],
    players: int | None,
    preference: str | None,
    profile_text: str | None,
    to_move: int,
    show_moves: bool,
    as_json: bool,
) -> None:
    """The player who moves last from a position: nimlab last-mover nim 1 2 --players 3.

    Prints the player's number (players are 0..m-1 in turn order, --to-move moves first).
    With --moves, every option, the last mover it leads to, and the ones chosen (*).
    """
    import nimlab

    g = game_from_cli(game_name, params)
    pos = position_from_cli(g, heaps)
    prof = _profile(players, preference, profile_text)
    choice = nimlab.multiplayer_choice(g, pos, preference=prof, to_move=to_move)
    if as_json:
        emit_json({"game": g.label(), "label": prof.label(), **choice.to_dict()})
        return
    click.echo(choice.last_mover)
    if show_moves:
        i = (choice.last_mover - to_move) % prof.players
        kind = f"a {i}-position, " if prof.is_symmetric else ""
        click.echo(
            f"{g.format_position(pos)} is {kind}player {to_move} to move, {prof.label()}; "
            f"player {choice.last_mover} moves last"
        )
        best = set(choice.best)
        for opt, w in choice.options:
            mark = "*" if opt in best else " "
            click.echo(f" {mark} {g.format_position(opt)}  -> player {w} moves last")
