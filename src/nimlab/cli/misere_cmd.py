"""Misère commands: genus (and its sequence by heap size), misère quotients."""

from __future__ import annotations

from typing import Any

import click

from nimlab.cli.app import HEAP_CONTEXT, Count, emit_json, game_from_cli, json_option, param_option


def _genus_latex(rows: list[tuple[str, Any]]) -> str:
    lines = [r"\begin{tabular}{rll}", r"position & genus & phylum \\ \hline"]
    for label, g in rows:
        lines.append(f"{label} & ${g.latex()}$ & {g.phylum.kind} \\\\")
    lines.append(r"\end{tabular}")
    return "\n".join(lines)


@click.command("genus", context_settings=HEAP_CONTEXT)
@click.argument("game_name", metavar="GAME")
@click.argument("position", nargs=-1)
@param_option
@click.option("-n", "n", type=Count(), default=None, help="Genus sequence of heaps 0..n-1.")
@click.option("--full", is_flag=True, help="Print the whole superscript (Winning Ways style).")
@click.option("--latex", "latex", is_flag=True, help="Print a LaTeX tabular.")
@click.option(
    "--max-forms",
    type=Count(1),
    default=2_000_000,
    show_default=True,
    help="Budget of distinct misère canonical forms.",
)
@click.option(
    "--max-heap",
    "max_heap",
    type=Count(0),
    default=40,
    show_default=True,
    help="Largest heap computed (the work grows steeply with the heap).",
)
@json_option
def genus_cmd(
    game_name: str,
    position: tuple[str, ...],
    params: tuple[str, ...],
    n: int | None,
    full: bool,
    latex: bool,
    max_forms: int,
    max_heap: int,
    as_json: bool,
) -> None:
    """Conway's genus g^(γ0γ1…) of a position, or of heaps 0..n-1 (-n N).

    The symbol is written as CGSuite prints it (a nim heap by its size, a tame or
    restive game with γ0 only); --full prints the whole superscript. With several
    heaps the genus theory prediction of the misère outcome of their sum is shown.

    Examples: nimlab genus octal -p code=0.77 -n 21; nimlab genus octal -p code=0.77 5;
    nimlab genus nim 2 2.
    """
    from rich.console import Console
    from rich.table import Table

    import nimlab
    from nimlab.core.errors import InvalidParameterError

    g = game_from_cli(game_name, params)
    if (n is None) == (not position):
        if n is None:
            raise InvalidParameterError(
                "give a position (for example 3 4) or -n N for the genus sequence of heaps 0..N-1"
            )
        raise InvalidParameterError("give either a position or -n N, not both")
    sym = (lambda x: x.full_symbol) if full else str
    if n is not None:
        seq = nimlab.genus_sequence(g, n, max_forms=max_forms, max_heap=max_heap)
        if as_json:
            emit_json({"game": g.label(), "n": n, "genus": [x.as_dict() for x in seq]})
            return
        if latex:
            click.echo(_genus_latex([(str(h), x) for h, x in enumerate(seq)]))
            return
        table = Table(title=f"{g.label()}: genus of heaps 0..{n - 1}")
        for col in ("heap", "genus", "γ0", "phylum"):
            table.add_column(col, justify="right" if col != "phylum" else "left")
        for h, x in enumerate(seq):
            table.add_row(str(h), sym(x), str(x.misere_value), x.phylum.kind)
        Console().print(table)
        return
    pos = g.parse_position(list(position))
    whole = nimlab.genus(g, pos, max_forms=max_forms, max_heap=max_heap)
    comps = g.components(pos)
    parts = (
        []
        if comps is None
        else [nimlab.genus(r, p, max_forms=max_forms, max_heap=max_heap) for r, p in comps]
    )
    pred = nimlab.genus_outcome(parts) if len(parts) > 1 else None
    if as_json:
        data: dict[str, Any] = {"game": g.label(), "position": list(pos), "genus": whole.as_dict()}
        if pred is not None:
            data["parts"] = [p.as_dict() for p in parts]
            data["genus_theory"] = pred.as_dict()
        emit_json(data)
        return
    if latex:
        click.echo(_genus_latex([(g.format_position(pos), whole)]))
        return
    click.echo(f"{sym(whole)}  ({whole.phylum.kind}; misère {'P' if whole.is_p else 'N'})")
    if pred is not None:
        click.echo("parts: " + " + ".join(sym(p) for p in parts))
        verdict = "undecided" if pred.outcome is None else str(pred.outcome)
        click.echo(f"genus theory: {verdict} ({pred.reason})")


@click.command("misere-quotient", context_settings=HEAP_CONTEXT)
@click.argument("code", metavar="CODE")
@click.argument("position", nargs=-1)
@click.option("--max-heap", "max_heap", type=Count(), required=True, help="Heap bound N.")
@click.option(
    "--max-order",
    type=Count(1),
    default=2000,
    show_default=True,
    help="Largest quotient order computed (candidates on the way may reach 16 times it).",
)
@click.option(
    "--max-pairs",
    type=Count(1),
    default=2_000_000,
    show_default=True,
    help="Budget of the proof of each candidate ((class, option classes) pairs).",
)
@click.option(
    "--max-rounds",
    type=Count(0),
    default=2000,
    show_default=True,
    help="Most recalibrations of the candidates at one heap.",
)
@click.option(
    "--heap-budget",
    type=Count(0),
    default=256,
    show_default=True,
    help="Largest heap bound accepted (the work grows faster than its square).",
)
@click.option(
    "--max-work",
    type=Count(min=1),
    default=500_000_000,
    show_default=True,
    help="Budget of steps of the whole computation (about 10 million a second): games "
    "whose heaps have very many options stop within it.",
)
@click.option(
    "--checkpoint",
    type=click.Path(dir_okay=False),
    default=None,
    help="JSON file of the heaps done so far: read (and proved again) when it exists, "
    "rewritten after every heap, so an interrupted run resumes.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr (default: when stderr is a terminal).",
)
@click.option("--latex", "latex", is_flag=True, help="Print the presentation in LaTeX.")
@json_option
def misere_quotient_cmd(
    code: str,
    position: tuple[str, ...],
    max_heap: int,
    max_order: int,
    max_pairs: int,
    max_rounds: int,
    heap_budget: int,
    max_work: int,
    checkpoint: str | None,
    progress: bool | None,
    latex: bool,
    as_json: bool,
) -> None:
    """Misère quotient of the sums of heaps <= N of an octal (or hexadecimal) game.

    CODE is an octal code (0.77 Kayles, 0.07 Dawson's Kayles, 4!.0 Grundy's game) or a
    heap game's name. Prints the presentation, order, P-portion and pretending function;
    with heaps after CODE, their misère outcome and a winning move from the quotient.

    A long run shows its progress, stops cleanly on Ctrl-C, and with --checkpoint
    resumes from the last heap done.

    Examples: nimlab misere-quotient 0.75 --max-heap 20;
    nimlab misere-quotient 0.77 --max-heap 40 3 5 7;
    nimlab misere-quotient 0.07 --max-heap 30 --checkpoint q007.json.
    """
    import sys
    import time

    import nimlab

    if progress is None:
        progress = sys.stderr.isatty()
    t0 = time.perf_counter()
    q = nimlab.misere_quotient(
        code,
        max_heap=max_heap,
        max_order=max_order,
        max_pairs=max_pairs,
        max_rounds=max_rounds,
        heap_budget=heap_budget,
        max_work=max_work,
        progress=progress,
        checkpoint=checkpoint,
    )
    seconds = time.perf_counter() - t0
    heaps = _heaps(position) if position else None
    if as_json:
        data = q.as_dict()
        data["seconds"] = round(seconds, 4)
        if heaps is not None:
            data["position"] = heaps
            data["element"] = q.element(heaps)
            data["outcome"] = q.outcome(heaps).value
            move = q.winning_move(heaps)
            data["winning_move"] = None if move is None else list(move)
        emit_json(data)
        return
    if heaps is not None:
        move = q.winning_move(heaps)
        click.echo(
            f"{' '.join(map(str, heaps))}: class {q.element(heaps)}, misère {q.outcome(heaps)}"
        )
        click.echo("winning move: " + ("none" if move is None else " ".join(map(str, move))))
        return
    if latex:
        click.echo(q.latex())
        return
    _print_quotient(q, max_heap, seconds)


def _heaps(position: tuple[str, ...]) -> list[int]:
    """The heaps typed after the code (integers only)."""
    from nimlab.core.ruleset import parse_group_tokens

    parsed = parse_group_tokens(list(position))
    heaps = [h for h in parsed if isinstance(h, int)]
    if len(heaps) != len(parsed):
        from nimlab.core.errors import InvalidPositionError

        raise InvalidPositionError("write the heaps as integers separated by spaces")
    return heaps


def _print_quotient(q: Any, max_heap: int, seconds: float) -> None:
    """The quotient on screen: order, presentation, P-portion, pretending function."""
    per = q.period()
    click.echo(f"{q.game.label()}, heaps <= {max_heap}: misère quotient of order {q.order}")
    click.echo(f"presentation: {q.presentation()}")
    gens = ", ".join(f"{g} = heap {h}" for g, h in q.generators)
    click.echo(f"generators: {gens}" if gens else "generators: none")
    click.echo(f"P-portion: {{{', '.join(q.p_portion)}}}")
    click.echo("pretending function (heap: class):")
    for start in range(0, len(q.pretending), 10):
        row = q.pretending[start : start + 10]
        click.echo(f"  {start:>4}: " + " ".join(f"{x:>6}" for x in row))
    if per is not None:
        click.echo(
            f"period {per[0]} after heap {per[1]} (observed up to heap {max_heap}, not proved)"
        )
    click.echo(f"({seconds:.2f} s)")
