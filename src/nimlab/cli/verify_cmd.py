"""Commands of verification: theorems, verify, reproduce, runs."""

from __future__ import annotations

import sys
from typing import Any

import click

from nimlab.cli.app import emit_json, game_from_cli, json_option, param_option


def _console() -> Any:
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else 160)


@click.command("theorems")
@json_option
def theorems_cmd(as_json: bool) -> None:
    """List the registered results of the papers (ids of GAMES.md §6)."""
    from nimlab import theorems

    ts = theorems()
    if as_json:
        emit_json(
            [
                {
                    "id": t.id,
                    "aliases": list(t.aliases),
                    "paper": t.paper,
                    "statement": t.statement,
                    "game": t.game,
                    "params": t.params,
                    "kind": t.kind,
                    "default_bound": t.default_bound,
                    "bound": t.bound_doc,
                    "status": t.status.to_dict(),
                }
                for t in ts
            ]
        )
        return
    from rich.table import Table

    table = Table(title="nimlab theorems")
    for col in ("id", "paper", "game", "params", "statement", "status"):
        table.add_column(col, overflow="fold")
    for t in ts:
        ident = t.id + (f" ({', '.join(t.aliases)})" if t.aliases else "")
        st = t.status
        if st.state == "proved":
            status = f"[green]proved[/] (checked to {t.default_bound} by reproduce)"
        elif st.state == "refuted":
            status = f"[bold red]refuted[/]: {st.summary().removeprefix('refuted: ')}"
            if st.replaced_by:
                status += f"; see {st.replaced_by}"
        else:
            status = f"[yellow]conjectured[/]: {st.summary().removeprefix('conjectured: ')}"
        table.add_row(ident, t.paper, t.game, t.params, t.statement, status)
    _console().print(table)


def _store_arg(store: str | None, no_store: bool) -> Any:
    if no_store:
        if store is not None:
            from nimlab.core.errors import InvalidParameterError

            raise InvalidParameterError("give either --store PATH or --no-store, not both")
        return False
    return store if store is not None else True


def _fmt_value(kind: str, v: Any) -> str:
    if v is None:
        return "?"
    if kind != "grundy" and isinstance(v, bool):
        return "P" if v else "N"
    return str(v)


def _report(res: Any, kind: str, label: str, bound: int, as_json: bool) -> int:
    if as_json:
        emit_json(res.to_dict())
        return 0 if res.ok else 1
    ids = list(getattr(res, "run_ids", ()) or [getattr(res, "run_id", None)])
    ids = [i for i in ids if i is not None]
    extra = ""
    if len(ids) == 1:
        extra = f", run {ids[0]}"
    elif ids:
        extra = f", runs {ids[0]}-{ids[-1]}"
    click.echo(
        f"{label}: {res.result} — {res.positions_checked:,} positions checked in "
        f"{res.seconds:.2f} s (bound {bound}{extra})"
    )
    cex = res.counterexample
    if cex is not None:
        pos = cex.position
        shown = " ".join(str(h) for h in pos) if isinstance(pos, tuple) else str(pos)
        click.echo(
            f"smallest counterexample: {cex.game} at {shown}: claimed "
            f"{_fmt_value(kind, cex.claimed)}, actual {_fmt_value(kind, cex.actual)}"
            + (f" ({cex.detail})" if cex.detail else "")
        )
    return 0 if res.ok else 1


@click.command("verify")
@click.argument("theorem_id", required=False, metavar="[ID]")
@click.option("--game", "game_name", metavar="NAME", help="Verify a conjecture about this game.")
@param_option
@click.option("--formula", metavar="EXPR", help="Claimed Grundy function, e.g. 'a ^ b'.")
@click.option("--p-set", "p_set", metavar="EXPR", help="Claimed P-set, e.g. 'a == b'.")
@click.option("--misere", is_flag=True, help="With --p-set: the claim is about misère play.")
@click.option(
    "--bound", type=int, metavar="N", help="Every heap < N (theorems: their own default bound)."
)
@click.option(
    "--heaps", type=int, metavar="N", help="Number of heaps (default: the game's usual number)."
)
@click.option("--workers", type=int, metavar="N", help="Processes (default: all cores).")
@click.option("--scheduler", metavar="ADDRESS", help="Run on this Dask scheduler.")
@click.option("--dask-local", is_flag=True, help="Run on a local Dask cluster.")
@click.option("--store", metavar="PATH", help="SQLite results store (default $NIMLAB_STORE).")
@click.option("--no-store", is_flag=True, help="Keep no record of this run.")
@click.option("--resume", is_flag=True, help="Continue the unfinished run with the same spec.")
@click.option(
    "--run", "run_id", type=int, metavar="ID", help="With --resume: continue this run id."
)
@click.option(
    "--method",
    type=click.Choice(["local", "search"]),
    default="local",
    show_default=True,
    help="Theorems: local check, or comparison with exhaustive search (serial).",
)
@click.option(
    "--chunk-size", type=int, metavar="N", help="About N positions per chunk (conjectures)."
)
@click.option(
    "--max-positions",
    type=click.IntRange(1),
    default=None,
    metavar="N",
    help="Budget of positions, checked before the run starts (default 10^9).",
)
@json_option
def verify_cmd(
    theorem_id: str | None,
    game_name: str | None,
    params: tuple[str, ...],
    formula: str | None,
    p_set: str | None,
    misere: bool,
    bound: int | None,
    heaps: int | None,
    workers: int | None,
    scheduler: str | None,
    dask_local: bool,
    store: str | None,
    no_store: bool,
    resume: bool,
    run_id: int | None,
    method: str,
    chunk_size: int | None,
    max_positions: int | None,
    as_json: bool,
) -> int:
    """Verify a theorem (nimlab verify S18-T8 --bound 1000) or a conjecture
    (nimlab verify --game ryuo -p p=3 --formula '3*((a//3)^(b//3)) + (a+b)%3' --bound 4096)."""
    import nimlab
    from nimlab.core.errors import InvalidParameterError

    if workers is not None and workers < 1:
        raise InvalidParameterError(f"--workers must be >= 1, got {workers}")
    if chunk_size is not None and chunk_size < 1:
        raise InvalidParameterError(f"--chunk-size must be >= 1, got {chunk_size}")
    st = _store_arg(store, no_store)
    res_flag: bool | int = run_id if run_id is not None else resume
    if theorem_id is not None:
        if game_name or formula or p_set:
            raise InvalidParameterError(
                "give either a theorem ID or --game with --formula/--p-set, not both"
            )
        if run_id is not None:
            raise InvalidParameterError(
                "--run ID resumes one run of a conjecture (--game); a theorem's runs are "
                "resumed with --resume alone"
            )
        t = nimlab.theorem(theorem_id)
        b = t.default_bound if bound is None else bound
        r = nimlab.check_theorem(
            t.id,
            b,
            method=method,  # type: ignore[arg-type]
            workers=workers if workers is not None else None,
            scheduler=scheduler,
            dask_local=dask_local,
            store=st if method == "local" else None,
            resume=bool(res_flag),
            progress=True,
            max_positions=max_positions,
        )
        return _report(r, t.kind, f"{t.id} ({t.statement})", b, as_json)
    if game_name is None:
        raise InvalidParameterError(
            "give a theorem ID (see `nimlab theorems`) or --game NAME with --formula or --p-set"
        )
    if (formula is None) == (p_set is None):
        raise InvalidParameterError("give exactly one of --formula EXPR or --p-set EXPR")
    if bound is None:
        raise InvalidParameterError("give --bound N (every heap < N)")
    g = game_from_cli(game_name, params)
    r2 = nimlab.verify(
        g,
        formula,
        p_set=p_set,
        misere=misere,
        bound=bound,
        heaps=heaps,
        workers=workers,
        scheduler=scheduler,
        dask_local=dask_local,
        store=st,
        resume=res_flag,
        progress=True,
        chunk_size=chunk_size,
        max_positions=max_positions,
    )
    kind = "grundy" if formula is not None else "p-set"
    return _report(r2, kind, f"{g.label()}: {formula or p_set}", bound, as_json)


@click.command("reproduce")
@click.option("--workers", type=int, metavar="N", help="Processes (default: all cores).")
@click.option("--store", metavar="PATH", help="SQLite results store (default $NIMLAB_STORE).")
@click.option("--no-store", is_flag=True, help="Keep no record of the runs.")
@json_option
def reproduce_cmd(workers: int | None, store: str | None, no_store: bool, as_json: bool) -> int:
    """Check every registered theorem at its default bound and print one table."""
    import time

    import nimlab
    from nimlab.core.errors import NimlabError

    if not no_store:
        nimlab.runs(store, limit=1)  # a broken store is refused before any work
    rows: list[dict[str, Any]] = []
    t_all = time.perf_counter()
    for t in nimlab.theorems():
        t0 = time.perf_counter()
        try:
            res = nimlab.check_theorem(
                t.id,
                workers=workers,
                store=_store_arg(store, no_store),
                progress=sys.stderr.isatty(),
            )
            row = res.to_dict()
        except NimlabError as exc:
            row = {
                "theorem": t.id,
                "bound": t.default_bound,
                "positions_checked": 0,
                "result": "ERROR",
                "seconds": time.perf_counter() - t0,
                "counterexample": None,
                "error": str(exc),
            }
        row["statement"] = t.statement
        rows.append(row)
        if not sys.stderr.isatty() and not as_json:
            click.echo(f"{t.id}: {row['result']} ({row['seconds']:.1f} s)", err=True)
    ok = all(row["result"] == "verified" for row in rows)
    if as_json:
        emit_json(
            {
                "ok": ok,
                "seconds": time.perf_counter() - t_all,
                "theorems": rows,
            }
        )
        return 0 if ok else 1
    from rich.table import Table

    n_ok = sum(row["result"] == "verified" for row in rows)
    table = Table(
        title="nimlab reproduce: every result of the papers, checked by local check",
        caption=f"{n_ok}/{len(rows)} verified in {time.perf_counter() - t_all:.1f} s",
    )
    table.add_column("id", no_wrap=True)
    table.add_column("statement", overflow="fold")
    table.add_column("bound", justify="right")
    table.add_column("positions", justify="right")
    table.add_column("result")
    table.add_column("s", justify="right")
    for row in rows:
        verdict = row["result"]
        style = "green" if verdict == "verified" else "bold red"
        table.add_row(
            row["theorem"],
            row["statement"],
            str(row["bound"]),
            f"{row['positions_checked']:,}",
            f"[{style}]{verdict}[/]",
            f"{row['seconds']:.1f}",
        )
    _console().print(table)
    for row in rows:
        if row.get("error"):
            click.echo(f"{row['theorem']}: error: {row['error']}", err=True)
        elif row.get("counterexample"):
            c = row["counterexample"]
            click.echo(
                f"{row['theorem']}: counterexample {c['game']} at {c['position']}: claimed "
                f"{c['claimed']}, actual {c['actual']} {c.get('detail') or ''}",
                err=True,
            )
    return 0 if ok else 1


@click.command("runs")
@click.option("--store", metavar="PATH", help="SQLite results store (default $NIMLAB_STORE).")
@click.option("--limit", type=int, default=50, show_default=True, help="How many runs.")
@json_option
def runs_cmd(store: str | None, limit: int, as_json: bool) -> None:
    """List past verification runs in the results store."""
    import datetime

    import nimlab

    rs = nimlab.runs(store, limit)
    if as_json:
        emit_json([r.to_dict() for r in rs])
        return
    from rich.table import Table

    table = Table(title="nimlab verification runs")
    for col in ("id", "target", "game", "bound", "chunks", "positions", "status", "started", "s"):
        table.add_column(col, overflow="fold")
    for r in rs:
        started = datetime.datetime.fromtimestamp(r.started).strftime("%Y-%m-%d %H:%M:%S")
        table.add_row(
            str(r.id),
            r.target,
            r.game,
            str(r.bound),
            f"{r.chunks_done}/{r.n_chunks}",
            f"{r.positions:,}",
            r.status,
            started,
            "" if r.seconds is None else f"{r.seconds:.1f}",
        )
    _console().print(table)
