"""Basic commands: list, grundy, outcome, moves, tour."""

from __future__ import annotations

import time
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

METHOD = click.Choice(["auto", "search", "formula"])


@click.command("list")
@json_option
def list_cmd(as_json: bool) -> None:
    """List every game with its aliases and parameters."""
    from nimlab import games

    infos = games()
    if as_json:
        emit_json(
            [
                {
                    "name": g.name,
                    "aliases": list(g.aliases),
                    "params": [
                        {"name": p.name, "doc": p.doc, "required": p.required} for p in g.params
                    ],
                    "summary": g.summary,
                    "theorems": list(g.theorems),
                }
                for g in infos
            ]
        )
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title="nimlab games")
    t.add_column("name", style="bold")
    t.add_column("parameters")
    t.add_column("rules")
    t.add_column("results")
    for g in infos:
        ps = ", ".join(p.name + ("" if p.required else "?") for p in g.params)
        t.add_row(g.name, ps, g.summary, " ".join(g.theorems))
    Console().print(t)


def _common(f: Any) -> Any:
    f = json_option(f)
    f = click.option(
        "--method",
        type=METHOD,
        default="auto",
        show_default=True,
        help="auto: proved closed form when there is one; search: exhaustive search.",
    )(f)
    f = click.option(
        "--max-moves",
        type=Count(min=1),
        default=None,
        help="Budget of moves a search may generate (default 5,000,000; a move scan of "
        "--winning: 200,000).",
    )(f)
    f = click.option(
        "--max-positions",
        type=Count(min=1),
        default=None,
        help="Budget of positions a search may store (default 5,000,000).",
    )(f)
    f = param_option(f)
    f = click.argument("heaps", nargs=-1, type=click.UNPROCESSED)(f)
    f = click.argument("game_name", metavar="GAME")(f)
    return f


def _budgets(max_positions: int | None, max_moves: int | None) -> dict[str, Any]:
    """The search budgets given on the command line (the others keep their defaults)."""
    out: dict[str, Any] = {}
    if max_positions is not None:
        out["max_positions"] = max_positions
    if max_moves is not None:
        out["max_moves"] = max_moves
    return out


@click.command("grundy", context_settings=HEAP_CONTEXT)
@_common
def grundy_cmd(
    game_name: str,
    heaps: tuple[str, ...],
    params: tuple[str, ...],
    method: str,
    as_json: bool,
    max_positions: int | None,
    max_moves: int | None,
) -> None:
    """Grundy value of a position: nimlab grundy nim 3 4 5.

    With --json, also how it was found: "method" (closed form, compiled table,
    compiled sequence, compiled engine, search, or sum of components), and for a
    closed form its result id ("theorem") and "status".
    """
    from nimlab import answer

    g = game_from_cli(game_name, params)
    pos = position_from_cli(g, heaps)
    t0 = time.perf_counter()
    res = answer(g, pos, kind="grundy", method=method, **_budgets(max_positions, max_moves))
    if as_json:
        emit_json(
            {
                "game": g.label(),
                "position": pos,
                "grundy": res.value,
                **res.how(),
                "seconds": time.perf_counter() - t0,
            }
        )
    else:
        click.echo(res.value)


@click.command("outcome", context_settings=HEAP_CONTEXT)
@_common
@click.option("--misere", is_flag=True, help="Misère play: the last mover loses.")
def outcome_cmd(
    game_name: str,
    heaps: tuple[str, ...],
    params: tuple[str, ...],
    method: str,
    as_json: bool,
    max_positions: int | None,
    max_moves: int | None,
    misere: bool,
) -> None:
    """Outcome (P or N) of a position: nimlab outcome nim 1 2 3.

    With --json, also how it was found: "method" (closed form, compiled table,
    compiled sequence, compiled engine, search, or sum of components), and for a
    closed form its result id ("theorem") and "status".
    """
    from nimlab import Outcome, answer

    g = game_from_cli(game_name, params)
    pos = position_from_cli(g, heaps)
    res = answer(g, pos, misere=misere, method=method, **_budgets(max_positions, max_moves))
    assert isinstance(res.value, Outcome)
    if as_json:
        emit_json(
            {
                "game": g.label(),
                "position": pos,
                "misere": misere,
                "outcome": res.value.value,
                **res.how(),
            }
        )
    else:
        click.echo(res.value.value)


@click.command("moves", context_settings=HEAP_CONTEXT)
@_common
@click.option("--winning", is_flag=True, help="Only the winning moves (to P-positions).")
@click.option("--misere", is_flag=True, help="With --winning: winning moves in misère play.")
@click.option("--explain", is_flag=True, help="With --winning: explain why the moves win.")
@click.option(
    "--limit",
    type=Count(min=1),
    default=None,
    help="With --winning: at most this many moves (the construction's own move first).",
)
def moves_cmd(
    game_name: str,
    heaps: tuple[str, ...],
    params: tuple[str, ...],
    method: str,
    as_json: bool,
    max_positions: int | None,
    max_moves: int | None,
    winning: bool,
    misere: bool,
    explain: bool,
    limit: int | None,
) -> None:
    """Options of a position, or with --winning only the winning ones."""
    from nimlab import moves, winning_moves

    g = game_from_cli(game_name, params)
    pos = position_from_cli(g, heaps)
    budgets = _budgets(max_positions, max_moves)
    if winning:
        result = winning_moves(g, pos, misere=misere, method=method, limit=limit, **budgets)
    else:
        result = moves(g, pos, **{k: v for k, v in budgets.items() if k == "max_moves"})
    explanation: Any = None
    if explain:
        import nimlab

        explain_fn = getattr(nimlab, "explain", None)
        if explain_fn is None:
            raise click.UsageError("--explain is not available in this version")
        explanation = explain_fn(g, pos, misere=misere)
    if as_json:
        data: dict[str, Any] = {
            "game": g.label(),
            "position": pos,
            "winning": winning,
            "moves": result,
        }
        if explanation is not None:
            data["explanation"] = explanation.to_dict()
        emit_json(data)
        return
    if winning and not result:
        click.echo(f"no winning move: {g.format_position(pos)} is a P-position")
    for m in result:
        click.echo(g.format_position(m))
    if explanation is not None:
        click.echo(explanation.render_text())


@click.command("tour")
def tour_cmd() -> None:
    """A short tour: a few values and tables computed live."""
    from nimlab import game, grundy, outcome, winning_moves

    click.echo(f"Nim (Bouton, S19-T1): G(3,4,5) = 3⊕4⊕5 = {grundy('nim', (3, 4, 5))}")
    click.echo("  winning move from 3 4 5: {}".format(winning_moves("nim", (3, 4, 5))))
    click.echo(
        "Misère Nim (N99-T1.11): (1,1,1) is {}, (2,2) is {}".format(
            outcome("nim", (1, 1, 1), misere=True), outcome("nim", (2, 2), misere=True)
        )
    )
    sub = game("subtraction", S={1, 3, 4})
    seq = [grundy(sub, n) for n in range(21)]
    click.echo("Subtraction{1,3,4}, n = 0..20: " + " ".join(map(str, seq)))
    click.echo("Wythoff Nim Grundy table, 0..7:")
    w = game("wythoff")
    for y in range(8):
        click.echo("  " + " ".join(f"{grundy(w, (x, y)):2d}" for x in range(8)))
