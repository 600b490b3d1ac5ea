"""Engine commands: sequence, periodicity, nimmul, warm (the fast engine's public API)."""

from __future__ import annotations

import json
import time
from typing import Any

import click

from nimlab.cli.app import HEAP_CONTEXT, Count, emit_json, game_from_cli, json_option, param_option


def _int_arg(name: str, text: str) -> int:
    from nimlab.core.errors import InvalidParameterError

    try:
        v = int(text, 0)
    except ValueError:
        raise InvalidParameterError(
            f"{name} must be a non-negative integer (decimal, or 0x... hex), got {text!r}"
        ) from None
    return v


def _per_json(per: Any) -> dict[str, Any]:
    return {
        "period": per.period,
        "preperiod": per.preperiod,
        "saltus": per.saltus,
        "inner_period": per.inner_period,
        "proved": per.proved,
        "reason": per.reason,
        "terms": per.length,
    }


def _max_terms_option(f: Any) -> Any:
    """The ``--max-terms N`` budget of sequence and periodicity."""
    return click.option(
        "--max-terms",
        type=Count(1),
        default=None,
        metavar="N",
        help="Budget of terms, checked before computing (default: 100,000 for octal games, "
        "whose work grows fast; 2^25 otherwise). Long runs show their progress.",
    )(f)


@click.command("sequence")
@click.argument("game_name", metavar="GAME")
@param_option
@click.option("-n", "n", type=Count(), default=50, show_default=True, help="Number of terms.")
@click.option("--period", is_flag=True, help="Also find (and prove) the period.")
@_max_terms_option
@json_option
def sequence_cmd(
    game_name: str,
    params: tuple[str, ...],
    n: int,
    period: bool,
    max_terms: int | None,
    as_json: bool,
) -> None:
    """Grundy sequence G(0..n-1) of a one-heap game.

    Examples: nimlab sequence octal -p code=0.77 -n 200 --period;
    nimlab sequence subtraction -p S=1,3,4 -n 50.
    """
    import nimlab

    g = game_from_cli(game_name, params)
    t0 = time.perf_counter()
    seq = nimlab.sequence(g, n, max_terms=max_terms, progress=True)
    per = nimlab.periodicity_of(g, n, max_terms=max_terms, progress=True) if period else None
    seconds = time.perf_counter() - t0
    if as_json:
        if n <= 100_000:
            data: dict[str, Any] = {"game": g.label(), "n": n, "sequence": seq.tolist()}
            if per is not None:
                data["periodicity"] = _per_json(per)
            data["seconds"] = seconds
            emit_json(data)
            return
        head: dict[str, Any] = {"game": g.label(), "n": n}
        if per is not None:
            head["periodicity"] = _per_json(per)
        head["seconds"] = seconds
        text = json.dumps({**head, "sequence": None})
        before, _, after = text.rpartition("null")
        click.echo(before + "[", nl=False)
        _echo_blocks(seq, ", ")
        click.echo("]" + after)
        return
    _echo_blocks(seq, " ")
    click.echo("")
    if per is not None:
        click.echo(per.summary())


def _echo_blocks(seq: Any, sep: str) -> None:
    """Print the terms joined by *sep*, a block at a time (millions of terms, little memory)."""
    block = 65_536
    for i in range(0, len(seq), block):
        part = sep.join(map(str, seq[i : i + block].tolist()))
        click.echo((sep if i else "") + part, nl=False)


@click.command("periodicity")
@click.argument("game_name", metavar="GAME")
@param_option
@click.option(
    "-n", "n", type=Count(), default=1000, show_default=True, help="Terms computed (at least)."
)
@_max_terms_option
@json_option
def periodicity_cmd(
    game_name: str, params: tuple[str, ...], n: int, max_terms: int | None, as_json: bool
) -> None:
    """Period, preperiod and saltus of a one-heap game, proved when a theorem applies.

    Example: nimlab periodicity octal -p code=0.07 -n 300.
    """
    import nimlab

    g = game_from_cli(game_name, params)
    per = nimlab.periodicity_of(g, n, max_terms=max_terms, progress=True)
    if as_json:
        emit_json({"game": g.label(), **_per_json(per), "head": list(per.head)})
        return
    click.echo(per.summary())
    if per.periodic:
        n0 = per.preperiod or 0
        if n0:
            click.echo("preperiod: " + " ".join(map(str, per.head[:n0])))
        click.echo("period:    " + " ".join(map(str, per.head[n0:])))


@click.command("nimmul", context_settings=HEAP_CONTEXT)
@click.argument("a", type=click.UNPROCESSED)
@click.argument("b", type=click.UNPROCESSED)
@json_option
def nimmul_cmd(a: str, b: str, as_json: bool) -> None:
    """Nim product A ⊗ B of two non-negative integers of any size: nimlab nimmul 16 16."""
    import nimlab

    x, y = _int_arg("A", a), _int_arg("B", b)
    r = nimlab.nimmul(x, y)
    if as_json:
        emit_json({"a": x, "b": y, "product": r})
    else:
        click.echo(r)


@click.command("warm")
@click.argument("game_names", metavar="[GAME]...", nargs=-1)
@param_option
@click.option(
    "--heaps",
    "heaps",
    type=Count(1, 6),
    multiple=True,
    metavar="N",
    help="Numbers of heaps for games of any number of heaps (repeatable; default 2 3 4).",
)
@click.option(
    "--theorems",
    is_flag=True,
    help="Also the verification walks of every registered result (each checked once at "
    "its default bound: a few minutes the first time).",
)
@json_option
def warm_cmd(
    game_names: tuple[str, ...],
    params: tuple[str, ...],
    heaps: tuple[int, ...],
    theorems: bool,
    as_json: bool,
) -> None:
    """Compile the catalog's kernels once, ahead of time (kept on disk for every process).

    Without GAME: the catalog's usual games and parameters. Kernels already on disk load
    in milliseconds. Examples: nimlab warm; nimlab warm --theorems (verify and reproduce
    too); nimlab warm subtraction -p S=1,2,5 --heaps 1.
    """
    import nimlab

    games = [game_from_cli(name, params) for name in game_names] or None
    r = nimlab.warm(games, heaps=heaps or None, theorems=theorems, progress=not as_json)
    if as_json:
        emit_json(
            {
                "kernels": r.kernels,
                "compiled": r.compiled,
                "compile_seconds": round(r.compile_seconds, 3),
                "seconds": round(r.seconds, 3),
                "cache_dir": r.cache_dir,
                "steps": [{"kernel": k, "seconds": round(s, 3)} for k, s in r.steps],
                "failed": [{"kernel": k, "error": e} for k, e in r.failed],
            }
        )
        return
    click.echo(
        f"{r.kernels} kernels ready in {r.seconds:.1f} s: {r.compiled} numba compilations "
        f"({r.compile_seconds:.1f} s), kept on disk for every later process"
        if r.compiled
        else f"{r.kernels} kernels ready in {r.seconds:.1f} s, all loaded from the disk cache"
    )
    click.echo(f"compiled engine kernels: {r.cache_dir}")
    for k, e in r.failed:
        click.echo(f"not warmed: {k}: {e}", err=True)
