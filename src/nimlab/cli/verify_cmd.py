"""Commands of verification: theorems, verify, reproduce, runs."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, fields
from typing import Any

import click

from nimlab.cli.app import Count, Seconds, emit_json, game_from_cli, json_option, param_option


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


def lock_timeout_option(f: Any) -> Any:
    """The ``--lock-timeout SECONDS`` option: how long to wait for a locked store."""
    return click.option(
        "--lock-timeout",
        type=Seconds(),
        default=None,
        metavar="SECONDS",
        help="Wait this long for another process's lock on the store (default 5, "
        "or $NIMLAB_LOCK_TIMEOUT).",
    )(f)


def _set_lock_timeout(seconds: float | None) -> None:
    """Make *seconds* the store's lock timeout for this process (``$NIMLAB_LOCK_TIMEOUT``)."""
    import os

    from nimlab.core.errors import InvalidParameterError

    if seconds is None:
        return
    if not 0 <= seconds <= 86_400:
        raise InvalidParameterError(
            f"--lock-timeout must be a number of seconds between 0 and 86400, got {seconds:g}"
        )
    old = os.environ.get("NIMLAB_LOCK_TIMEOUT")
    os.environ["NIMLAB_LOCK_TIMEOUT"] = repr(seconds)

    def restore() -> None:  # the command ends: the caller's environment is as it was
        if old is None:
            os.environ.pop("NIMLAB_LOCK_TIMEOUT", None)
        else:
            os.environ["NIMLAB_LOCK_TIMEOUT"] = old

    click.get_current_context().call_on_close(restore)


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
@click.option(
    "--claim",
    "claim_ref",
    metavar="FILE.py:NAME",
    help="Claimed Grundy function: the Python function NAME(*heaps) of FILE.py.",
)
@click.option(
    "--p-set",
    "p_set",
    metavar="EXPR",
    help="Claimed P-set, e.g. 'a == b', or FILE.py:NAME (a predicate NAME(*heaps) in FILE.py).",
)
@click.option("--misere", is_flag=True, help="With --p-set: the claim is about misère play.")
@click.option(
    "--bound", type=Count(), metavar="N", help="Every heap < N (theorems: their own default bound)."
)
@click.option(
    "--heaps", type=Count(), metavar="N", help="Number of heaps (default: the game's usual number)."
)
@click.option("--workers", type=Count(), metavar="N", help="Processes (default: all cores).")
@click.option("--scheduler", metavar="ADDRESS", help="Run on this Dask scheduler.")
@click.option("--dask-local", is_flag=True, help="Run on a local Dask cluster.")
@click.option("--store", metavar="PATH", help="SQLite results store (default $NIMLAB_STORE).")
@click.option("--no-store", is_flag=True, help="Keep no record of this run.")
@click.option("--resume", is_flag=True, help="Continue the unfinished run with the same spec.")
@lock_timeout_option
@click.option(
    "--run", "run_id", type=Count(), metavar="ID", help="With --resume: continue this run id."
)
@click.option(
    "--method",
    type=click.Choice(["local", "search"]),
    default="local",
    show_default=True,
    help="Theorems: local check, or comparison with exhaustive search (serial).",
)
@click.option(
    "--chunk-size", type=Count(), metavar="N", help="About N positions per chunk (conjectures)."
)
@click.option(
    "--max-positions",
    type=Count(1),
    default=None,
    metavar="N",
    help="Budget of positions, checked before the run starts (default 10^9).",
)
@click.option(
    "--all",
    "list_all",
    is_flag=True,
    help="When the check fails: list every counterexample up to the bound.",
)
@click.option(
    "--group-by",
    metavar="EXPRS",
    help="With --all: group the counterexamples by these expressions, e.g. 'v2(a),v2(b)'.",
)
@click.option("--csv", "csv_path", metavar="FILE", help="With --all: write them to FILE (CSV).")
@click.option(
    "--limit",
    type=Count(),
    default=100_000,
    show_default=True,
    metavar="N",
    help="With --all: at most N counterexamples.",
)
@json_option
def verify_cmd(theorem_id: str | None, **options: Any) -> int:
    """Verify a theorem (nimlab verify S18-T8 --bound 1000) or a conjecture
    (nimlab verify --game ryuo -p p=3 --formula '3*((a//3)^(b//3)) + (a+b)%3' --bound 4096)."""
    opts = VerifyOptions.of(options)
    _check_verify_options(opts)
    run = opts.run
    _set_lock_timeout(run.lock_timeout)
    st = _store_arg(run.store, run.no_store)
    res_flag: bool | int = run.run_id if run.run_id is not None else run.resume
    formula = _claimed_formula(opts.claim)
    if theorem_id is not None:
        return _verify_theorem(theorem_id, opts, formula, st, res_flag)
    return _verify_conjecture(opts, formula, st, res_flag)


@dataclass(frozen=True)
class ClaimOptions:
    """What ``nimlab verify --game`` claims, about which game, on which positions."""

    game_name: str | None
    params: tuple[str, ...]
    formula: str | None
    claim_ref: str | None
    p_set: str | None
    misere: bool
    bound: int | None
    heaps: int | None
    chunk_size: int | None


@dataclass(frozen=True)
class RunOptions:
    """Where and how a verification runs: workers, Dask, the store, resume, budgets."""

    workers: int | None
    scheduler: str | None
    dask_local: bool
    store: str | None
    no_store: bool
    resume: bool
    lock_timeout: float | None
    run_id: int | None
    method: str
    max_positions: int | None


@dataclass(frozen=True)
class ListOptions:
    """``--all``: every counterexample, grouped, written to CSV, up to a limit."""

    list_all: bool
    group_by: str | None
    csv_path: str | None
    limit: int


@dataclass(frozen=True)
class VerifyOptions:
    """The options of ``nimlab verify``, grouped (the command's parameters, by name)."""

    claim: ClaimOptions
    run: RunOptions
    listing: ListOptions
    as_json: bool

    @classmethod
    def of(cls, options: dict[str, Any]) -> VerifyOptions:
        """The groups of click's keyword arguments (each name goes to its group)."""

        def pick(group: type[Any]) -> Any:
            return group(**{f.name: options[f.name] for f in fields(group)})

        return cls(pick(ClaimOptions), pick(RunOptions), pick(ListOptions), options["as_json"])


def _check_verify_options(opts: VerifyOptions) -> None:
    from nimlab.core.errors import InvalidParameterError

    workers, chunk_size, listing = opts.run.workers, opts.claim.chunk_size, opts.listing
    if workers is not None and workers < 1:
        raise InvalidParameterError(f"--workers must be >= 1, got {workers}")
    if chunk_size is not None and chunk_size < 1:
        raise InvalidParameterError(f"--chunk-size must be >= 1, got {chunk_size}")
    if (listing.group_by or listing.csv_path) and not listing.list_all:
        raise InvalidParameterError("--group-by and --csv go with --all")
    if listing.limit < 1:
        raise InvalidParameterError(f"--limit must be >= 1, got {listing.limit}")


def _claimed_formula(claim: ClaimOptions) -> str | None:
    """--formula, or --claim FILE.py:NAME in its place (checked)."""
    from nimlab.core.errors import InvalidParameterError

    if claim.claim_ref is None:
        return claim.formula
    if claim.formula is not None:
        raise InvalidParameterError("give one of --formula EXPR or --claim FILE.py:NAME")
    if _file_function(claim.claim_ref) is None:
        raise InvalidParameterError(
            f"--claim takes FILE.py:NAME (a function in a Python file), got {claim.claim_ref!r:.80}"
        )
    return claim.claim_ref


def _verify_theorem(
    theorem_id: str, opts: VerifyOptions, formula: str | None, st: Any, res_flag: bool | int
) -> int:
    import nimlab
    from nimlab.core.errors import InvalidParameterError

    claim, run, listing = opts.claim, opts.run, opts.listing
    if claim.game_name or formula or claim.p_set:
        raise InvalidParameterError(
            "give either a theorem ID or --game with --formula/--p-set, not both"
        )
    if run.run_id is not None:
        raise InvalidParameterError(
            "--run ID resumes one run of a conjecture (--game); a theorem's runs are "
            "resumed with --resume alone"
        )
    t = nimlab.theorem(theorem_id)
    b = t.default_bound if claim.bound is None else claim.bound
    r = nimlab.check_theorem(
        t.id,
        b,
        method=run.method,  # type: ignore[arg-type]
        workers=run.workers if run.workers is not None else None,
        scheduler=run.scheduler,
        dask_local=run.dask_local,
        store=st if run.method == "local" else None,
        resume=bool(res_flag),
        progress=True,
        max_positions=run.max_positions,
    )
    label = f"{t.id} ({t.statement})"
    if listing.list_all and not r.ok:
        cs = nimlab.counterexamples(t.id, b, limit=listing.limit)
        return _report_all(
            r, t.kind, label, b, opts.as_json, cs, listing.group_by, listing.csv_path
        )
    return _report(r, t.kind, label, b, opts.as_json)


def _verify_conjecture(
    opts: VerifyOptions, formula: str | None, st: Any, res_flag: bool | int
) -> int:
    import nimlab
    from nimlab.core.errors import InvalidParameterError

    claim, run, listing = opts.claim, opts.run, opts.listing
    if claim.game_name is None:
        raise InvalidParameterError(
            "give a theorem ID (see `nimlab theorems`) or --game NAME with --formula or --p-set"
        )
    if (formula is None) == (claim.p_set is None):
        raise InvalidParameterError("give exactly one of --formula EXPR or --p-set EXPR")
    if claim.bound is None:
        raise InvalidParameterError("give --bound N (every heap < N)")
    bound, p_set = claim.bound, claim.p_set
    g = game_from_cli(claim.game_name, claim.params)
    claimed_f = _file_function(formula) if formula is not None else None
    claimed_p = _file_function(p_set) if p_set is not None else None
    r2 = nimlab.verify(
        g,
        claimed_f or formula,
        p_set=claimed_p or p_set,
        misere=claim.misere,
        bound=bound,
        heaps=claim.heaps,
        workers=run.workers,
        scheduler=run.scheduler,
        dask_local=run.dask_local,
        store=st,
        resume=res_flag,
        progress=True,
        chunk_size=claim.chunk_size,
        max_positions=run.max_positions,
    )
    kind = "grundy" if formula is not None else "p-set"
    label = f"{g.label()}: {formula or p_set}"
    if listing.list_all and not r2.ok:
        cs = nimlab.counterexamples(
            game=g,
            formula=claimed_f or formula,
            p_set=claimed_p or p_set,
            misere=claim.misere,
            bound=bound,
            heaps=claim.heaps,
            limit=listing.limit,
        )
        return _report_all(
            r2, kind, label, bound, opts.as_json, cs, listing.group_by, listing.csv_path
        )
    return _report(r2, kind, label, bound, opts.as_json)


_FILE_REF = re.compile(r"^(.+\.py):([A-Za-z_][A-Za-z_0-9]*)$")


def _file_function(text: str) -> Any:
    """The function NAME of ``FILE.py:NAME`` (the file is run once), or None when *text*
    is not of that form (an expression)."""
    m = _FILE_REF.match(text.strip())
    if m is None:
        return None
    from nimlab.catalog.registry import load_game_file
    from nimlab.core.errors import InvalidParameterError

    module = load_game_file(m.group(1))
    fn = getattr(module, m.group(2), None)
    if not callable(fn):
        raise InvalidParameterError(f"{m.group(1)} defines no function {m.group(2)!r}")
    return fn


def _report_all(
    res: Any,
    kind: str,
    label: str,
    bound: int,
    as_json: bool,
    cs: Any,
    group_by: str | None,
    csv_path: str | None,
) -> int:
    """Every counterexample of a failed check: grouped, and written to CSV on request."""
    fails = cs.failures
    limit = cs.limit
    groups = cs.groups(group_by) if group_by else []
    written = cs.write_csv(csv_path, group_by) if csv_path else None
    if as_json:
        data = res.to_dict()
        data["counterexamples"] = [f.to_dict() for f in fails]
        data["truncated"] = len(fails) >= limit
        if group_by:
            data["group_by"] = group_by
            data["groups"] = [g.to_dict() for g in groups]
        if csv_path:
            data["csv"] = csv_path
        emit_json(data)
        return 1
    _report(res, kind, label, bound, False)
    more = " (the limit: raise --limit for more)" if len(fails) >= limit else ""
    click.echo(
        f"{len(fails):,} counterexamples below {bound}{more} (positions where the local rule fails)"
    )
    if group_by:
        from rich.table import Table

        table = Table(title=f"counterexamples grouped by {group_by}")
        table.add_column(group_by)
        table.add_column("count", justify="right")
        table.add_column("first", overflow="fold")
        for g in groups:
            first = " ".join(map(str, g.first)) if isinstance(g.first, tuple) else str(g.first)
            table.add_row(", ".join(map(str, g.key)), f"{g.count:,}", first)
        _console().print(table)
    else:
        for f in fails[:50]:
            pos = " ".join(map(str, f.position)) if isinstance(f.position, tuple) else f.position
            click.echo(f"  {pos}: claimed {_fmt_value(kind, f.claimed)} ({f.detail})")
        if len(fails) > 50:
            click.echo(f"  ... {len(fails) - 50:,} more (--csv FILE writes them all)")
    if written is not None:
        click.echo(f"wrote {csv_path} ({written:,} rows)")
    return 1


@click.command("reproduce")
@click.option("--workers", type=Count(), metavar="N", help="Processes (default: all cores).")
@click.option("--store", metavar="PATH", help="SQLite results store (default $NIMLAB_STORE).")
@click.option("--no-store", is_flag=True, help="Keep no record of the runs.")
@click.option(
    "--deep",
    is_flag=True,
    help="Check every result much further (hours); resumable with --resume and the store.",
)
@click.option("--resume", is_flag=True, help="Continue unfinished runs of the same checks.")
@lock_timeout_option
@click.option("--only", metavar="IDS", help="Only these result ids (comma-separated).")
@json_option
def reproduce_cmd(
    workers: int | None,
    store: str | None,
    no_store: bool,
    deep: bool,
    resume: bool,
    lock_timeout: float | None,
    only: str | None,
    as_json: bool,
) -> int:
    """Check every registered result against its recorded status (proved, refuted,
    conjectured) and print one table; exit 1 if any result does not match its status."""
    import time

    import nimlab
    from nimlab.core.errors import InvalidParameterError

    if workers is not None and workers < 1:
        raise InvalidParameterError(f"--workers must be >= 1, got {workers}")
    _set_lock_timeout(lock_timeout)
    if not no_store:
        nimlab.runs(store, limit=1)  # a broken store is refused before any work
    results = _selected_results(only)
    t_all = time.perf_counter()

    def tell(f: Any) -> None:
        if not sys.stderr.isatty() and not as_json:
            verdict = f.result.result if f.result is not None else "ERROR"
            click.echo(f"{f.theorem}: {verdict} ({f.seconds:.1f} s)", err=True)

    findings = nimlab.reproduce(
        deep=deep,
        results=results,
        check=nimlab.check_theorem,
        on_result=tell,
        workers=workers,
        store=_store_arg(store, no_store),
        resume=resume,
        progress=sys.stderr.isatty(),
    )
    ok = all(f.matches for f in findings)
    seconds = time.perf_counter() - t_all
    if as_json:
        emit_json(
            {
                "ok": ok,
                "seconds": seconds,
                "deep": deep,
                "theorems": [f.to_dict() for f in findings],
            }
        )
        return 0 if ok else 1
    _print_findings(findings, seconds)
    return 0 if ok else 1


def _selected_results(only: str | None) -> list[Any]:
    """The results ``--only`` names (ids, comma-separated), else every registered one."""
    import nimlab
    from nimlab.core.errors import InvalidParameterError

    if only is None:
        return list(nimlab.theorems())
    results = [nimlab.theorem(x.strip()) for x in only.split(",") if x.strip()]
    if not results:
        raise InvalidParameterError(
            f"--only names no result ({only!r}); give ids such as S19-T1,Sh-T6 "
            "(see nimlab theorems)"
        )
    return results


def _print_findings(findings: list[Any], seconds: float) -> None:
    """The table of ``nimlab reproduce``, then a line per finding (and per error or
    counterexample of a result that does not match its status, on stderr)."""
    from rich.table import Table

    n_ok = sum(f.matches for f in findings)
    table = Table(
        title="nimlab reproduce: every result of the papers against its status",
        caption=f"{n_ok}/{len(findings)} as recorded in {seconds:.1f} s",
    )
    table.add_column("id", no_wrap=True)
    table.add_column("status")
    table.add_column("statement", overflow="fold")
    table.add_column("bound", justify="right")
    table.add_column("positions", justify="right")
    table.add_column("result")
    table.add_column("as recorded")
    table.add_column("s", justify="right")
    for f in findings:
        row = f.to_dict()
        verdict = row["result"]
        style = "green" if verdict == "verified" else "bold red"
        table.add_row(
            f.theorem,
            f.state,
            f.statement,
            str(f.bound),
            f"{row['positions_checked']:,}",
            f"[{style}]{verdict}[/]",
            "[green]yes[/]" if f.matches else "[bold red]NO[/]",
            f"{f.seconds:.1f}",
        )
    _console().print(table)
    for f in findings:
        if f.state == "refuted" or not f.matches:
            click.echo(f"finding: {f.theorem}: {f.message}")
        if f.error is not None:
            click.echo(f"{f.theorem}: error: {f.error}", err=True)
        elif not f.matches and f.result is not None and f.result.counterexample is not None:
            c = f.result.counterexample
            click.echo(
                f"{f.theorem}: counterexample {c.game} at {c.position}: claimed "
                f"{c.claimed}, actual {c.actual} {c.detail or ''}",
                err=True,
            )


@click.command("runs")
@click.option("--store", metavar="PATH", help="SQLite results store (default $NIMLAB_STORE).")
@click.option("--limit", type=Count(), default=50, show_default=True, help="How many runs.")
@lock_timeout_option
@json_option
def runs_cmd(store: str | None, limit: int, lock_timeout: float | None, as_json: bool) -> None:
    """List past verification runs in the results store."""
    import datetime

    import nimlab

    _set_lock_timeout(lock_timeout)
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
