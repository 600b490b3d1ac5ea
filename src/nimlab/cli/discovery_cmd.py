"""The conjecture command: nimlab proposes closed forms from tables, then checks them."""

from __future__ import annotations

from typing import Any

import click

from nimlab.cli.app import emit_json, game_from_cli, json_option, param_option


@click.command("conjecture")
@click.argument("game_name", metavar="GAME")
@param_option
@click.option("--heaps", type=click.IntRange(1, 4), default=None, help="Number of heaps.")
@click.option(
    "--below",
    type=click.IntRange(2, 100_000),
    default=None,
    help="Search the table of heaps below N (default: about 40,000 positions).",
)
@click.option(
    "--kind",
    type=click.Choice(["grundy", "outcome", "misere"]),
    default="grundy",
    show_default=True,
    help="Grundy formulas and P-sets, P-sets only, or misère P-sets.",
)
@click.option(
    "--time-budget",
    type=click.FloatRange(0.1, 86_400),
    default=60.0,
    show_default=True,
    help="Seconds for the search.",
)
@click.option(
    "--verify-bound",
    type=click.IntRange(0, 1_000_000),
    default=None,
    help="Check the best statements for heaps below N (default: twice --below; 0: no check).",
)
@click.option(
    "--store",
    "store",
    default=None,
    help="Record the checks as conjectures in this results store (SQLite file).",
)
@json_option
def conjecture_cmd(
    game_name: str,
    params: tuple[str, ...],
    heaps: int | None,
    below: int | None,
    kind: str,
    time_budget: float,
    verify_bound: int | None,
    store: str | None,
    as_json: bool,
) -> None:
    """Propose closed forms from exhaustive tables, then check them deeper.

    nimlab conjecture single-delete --heaps 3 --kind outcome proposes
    v2(a) == v2(b) == v2(c). Each statement is in the language of
    nimlab verify --formula / --p-set; none comes from a registered result.
    """
    import sys

    from nimlab import conjecture

    g = game_from_cli(game_name, params)
    found = conjecture(
        g,
        heaps=heaps,
        below=below,
        kind=kind,
        time_budget=time_budget,
        verify_bound=verify_bound,
        store=store,
        progress=not as_json and sys.stderr.isatty(),
    )
    if as_json:
        emit_json(found.to_dict())
        return
    _show(found)


def _show(found: Any) -> None:
    click.echo(
        f"{found.game}: {len(found.proposals)} statement(s) fit the table of "
        f"{found.heaps} heap(s) below {found.below} ({found.seconds:.1f} s)"
    )
    for p in found.proposals:
        line = f"  [{p.kind}] {p.statement}"
        if p.exceptions:
            samples = ", ".join(" ".join(map(str, s)) for s in p.exception_samples[:3])
            line += f"  (except {p.exceptions} position(s), e.g. {samples})"
        click.echo(line)
        click.echo(f"      found by: {p.found_by}; fits {p.tested:,} positions ({p.region})")
        if p.verified is not None:
            click.echo(
                f"      checked: {p.verified['positions']:,} positions, {p.verified['space']}: "
                f"holds ({p.verified['method']})"
            )
    for p in found.refuted:
        click.echo(
            f"  refuted further out: {p.statement}; counterexample "
            f"{p.verified['counterexample'] if p.verified else '?'}"
        )
    if not found.proposals:
        click.echo("nothing found; tried:")
        for t in found.tried:
            click.echo(f"  - {t}")
