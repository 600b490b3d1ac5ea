"""Run a local check over chunks: serially, on threads, a process pool, or a Dask cluster.

:func:`verify` checks a user's closed form (a Python callable or an expression string)
on a position space; :func:`run_spec` is the engine shared with theorem checks. Results
go to the SQLite :class:`~nimlab.verification.store.Store` when one is given, chunk by
chunk, so that a killed run resumes (``resume=True``) to exactly the same totals.

The run is plan -> backend -> store: :func:`conjecture_spec` builds the
:class:`~nimlab.verification.spec.CheckSpec` (space, claim, path chosen by the planner),
:mod:`~nimlab.verification.backends` checks its chunks where they run, and :func:`_run`
records each chunk and turns the tally into the one
:class:`~nimlab.verification.spec.VerificationResult`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

from nimlab.core.errors import InvalidArgumentError, InvalidParameterError, NimlabError
from nimlab.core.params import as_index
from nimlab.core.ruleset import Ruleset
from nimlab.verification.backends import _watch_parent as _watch_parent  # theory/_jobs
from nimlab.verification.backends import check_scheduler as check_scheduler
from nimlab.verification.backends import choose_backend, chunk_results, dumps_spec
from nimlab.verification.backends import user_files as user_files
from nimlab.verification.expr import parse_expression
from nimlab.verification.heapspace import SYMMETRY_SAMPLE as SYMMETRY_SAMPLE
from nimlab.verification.heapspace import heap_space, multiset_space
from nimlab.verification.local import (
    CheckKind,
    ChunkResult,
    Claim,
    ExprClaim,
    Failure,
    FunctionClaim,
)
from nimlab.verification.progress import RunProgress
from nimlab.verification.spaces import ListSpace, Space, heap_box, own_walk, space_size
from nimlab.verification.spec import COMPILED_CHUNK, MAX_POSITIONS, CheckSpec
from nimlab.verification.spec import FAST_CHUNK as FAST_CHUNK
from nimlab.verification.spec import LIST_CHUNK as LIST_CHUNK
from nimlab.verification.spec import VerificationResult as VerificationResult

__all__ = [
    "CheckSpec",
    "VerificationResult",
    "conjecture_spec",
    "heap_space",
    "run_spec",
    "verify",
]


def _changed_code(run_id: int, path: Any) -> InvalidParameterError:
    return InvalidParameterError(
        f"run {run_id} in {path} was checked with other code (the game's move function or "
        "file, the claim, or nimlab's version changed since): its chunks do not apply to "
        "this code; run again without --resume to start afresh"
    )


def _check_run_args(
    workers: object, scheduler: object, store: object, resume: object, chunk_size: object = None
) -> None:
    """Refuse meaningless run options before anything is opened or started."""
    from nimlab.core.errors import InvalidArgumentError
    from nimlab.core.params import as_index

    if workers is not None and (as_index(workers) is None or as_index(workers) < 1):  # type: ignore[operator]
        raise InvalidArgumentError(f"workers must be an integer >= 1, got {workers!r:.40}")
    if chunk_size is not None and (as_index(chunk_size) is None or as_index(chunk_size) < 1):  # type: ignore[operator]
        raise InvalidArgumentError(
            f"chunk size must be an integer >= 1 (positions per chunk), got {chunk_size!r:.40}"
        )
    if scheduler is not None:
        check_scheduler(scheduler)  # type: ignore[arg-type]
    if not isinstance(resume, (bool, int)):
        raise InvalidArgumentError(f"resume must be True, False or a run id, got {resume!r:.40}")
    if store is False and resume is not False:
        raise InvalidParameterError(
            "resume needs the results store: --no-store (store=False) and --resume contradict"
        )


def _actual(game: Ruleset[Any], kind: str, pos: Any) -> Any:
    from nimlab.core.errors import SearchTooLargeError
    from nimlab.engine.search import Solver

    s = Solver(game, max_positions=2_000_000)
    try:
        if kind == "grundy":
            return s.grundy(pos, method="search")
        return s.is_p(pos, misere=kind == "misere-p-set", method="search")
    except SearchTooLargeError:
        return None


def check_budget(spec: CheckSpec, max_positions: int | None) -> None:
    """Refuse a run over more positions than *max_positions*, before it starts."""
    budget = MAX_POSITIONS if max_positions is None else max_positions
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise InvalidArgumentError(f"max_positions must be an integer >= 1, got {budget!r:.40}")
    size = space_size(spec.space)
    if size is not None and size > budget:
        from nimlab.core.errors import WorkTooLargeError

        shown = f"{size:,}" if size < 10**15 else f"about 10^{len(str(size)) - 1}"
        raise WorkTooLargeError(
            f"{spec.target}: {spec.space.describe()} is {shown} positions, more than the "
            f"budget of {budget:,}; lower the bound, or raise the budget "
            "(--max-positions N, max_positions=N) for a long run (it shows its progress, "
            "stops cleanly on Ctrl-C and resumes with --resume)"
        )


#: Seconds of Python per position (claim and options) the slow-path note estimates with.
PY_SECONDS_PER_POSITION = 20e-6
#: The slow-path note is given when the Python part is expected to take this long.
SLOW_NOTE_SECONDS = 2.0
_NOTED: set[str] = set()


def _seconds(t: float) -> str:
    if t < 120:
        return f"{t:.0f} s"
    if t < 7200:
        return f"{t / 60:.0f} min"
    return f"{t / 3600:.1f} h"


def python_seconds(spec: CheckSpec) -> float:
    """Expected seconds of *spec* on the Python path (0 on the vectorised and compiled
    paths): positions times moves per position, a rough guide for budgets.

    Examples
    --------
    >>> from nimlab import game
    >>> python_seconds(conjecture_spec(game("nim"), "a ^ b", bound=8, heaps=2)) >= 0
    True
    """
    if spec.fast or spec.compiled:
        return 0.0  # the compiled walk (a claim tabulated in Python says so itself)
    size = space_size(spec.space) or 0
    moves = 1
    est = getattr(spec.game, "estimate_moves", None)
    n = getattr(spec.space, "n_heaps", 0)
    bound = getattr(spec.space, "bound", 0)
    if est is not None and n:
        try:
            moves = max(1, int(est(tuple([max(bound // 2, 1)] * n)) or 1))
        except Exception:  # an estimate is only a hint
            moves = 1
    return float(size * PY_SECONDS_PER_POSITION * max(1, moves // 8))


def slow_path_note(spec: CheckSpec) -> str | None:
    """One sentence when *spec* leaves the compiled path in a way that costs time: why,
    the expected cost and how to stay fast; None on the fast paths (or a short run).

    Examples
    --------
    >>> from nimlab import game
    >>> spec = conjecture_spec(game("nim"), lambda a, b: a ^ b, bound=4, heaps=2)
    >>> slow_path_note(spec) is None  # 16 positions: nothing worth saying
    True
    """
    size = space_size(spec.space) or 0
    cost = python_seconds(spec)
    if cost < SLOW_NOTE_SECONDS:
        return None
    from nimlab.planner import Question, plan

    why = plan(spec.game, Question.CHECK, space=spec.space, kind=spec.kind).reason
    return (
        f"{spec.target}: this check runs in Python ({why}; the game has no compiled move "
        "model that fits this space, or the claim does not compile), about "
        f"{_seconds(cost)} for {size:,} positions; to stay fast write the game's moves "
        "as a function of integers (nimlab.heap_game) or give it a compiled_options hook, "
        "and the claim as an expression or a function numba compiles"
    )


def _note_slow_path(spec: CheckSpec) -> None:
    """Say :func:`slow_path_note` once per spec and process (a RuntimeWarning)."""
    import warnings

    key = spec.key()
    if key in _NOTED:
        return
    note = slow_path_note(spec)
    if note is not None:
        _NOTED.add(key)
        warnings.warn(note, RuntimeWarning, stacklevel=3)


def run_spec(
    spec: CheckSpec,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: bool = False,
    store: Any = None,
    resume: bool | int = False,
    progress: bool = False,
    what: str = "conjecture",
    max_positions: int | None = None,
) -> VerificationResult:
    """Check every chunk of *spec*; see :func:`verify` for the parameters."""
    from nimlab.verification.store import Store

    _check_run_args(workers, scheduler, store, resume)
    check_budget(spec, max_positions)
    _note_slow_path(spec)
    st: Store | None = None
    own = False
    if store is not None and store is not False:
        if isinstance(store, Store):
            st = store
        else:
            st, own = Store(None if store is True else store), True
    elif resume:
        st, own = Store(), True
    try:
        return _run(spec, st, workers, scheduler, dask_local, resume, progress, what)
    finally:
        if own and st is not None:
            st.close()


# -- the run: store, backend, tally -------------------------------------------------------


@dataclass
class _Tally:
    """What the chunks of a run gave so far (those of a resumed run included)."""

    resumed: int = 0
    counts: dict[int, int] = field(default_factory=dict)
    failures: dict[int, Failure] = field(default_factory=dict)
    methods: set[str] = field(default_factory=set)
    stop: list[int] = field(default_factory=list)  # the first failing chunk, once known

    @classmethod
    def of(cls, done: dict[int, tuple[int, float, dict[str, Any] | None]]) -> _Tally:
        """The tally of the chunks an earlier run stored."""
        tally = cls(resumed=len(done))
        for i, (cnt, _secs, fail) in done.items():
            tally.counts[i] = cnt
            if fail is not None:
                tally.failures[i] = Failure(
                    fail["position"], fail["claimed"], fail["detail"], fail["option"]
                )
        if tally.failures:
            tally.stop.append(min(tally.failures))
        return tally

    def add(self, res: ChunkResult) -> None:
        """Count chunk *res*; a failure before the first known one becomes the stop."""
        self.counts[res.index] = res.count
        self.methods.add(res.method)
        if res.failure is not None:
            self.failures[res.index] = res.failure
            if not self.stop or res.index < self.stop[0]:
                self.stop[:] = [res.index]


def _resumed_run(st: Any, resume: bool | int, key: str) -> int | None:
    """The run *resume* names (a run id, or True: the unfinished run of *key*), or None."""
    if not resume:
        return None
    if isinstance(resume, int) and not isinstance(resume, bool):
        found = st.run_spec(resume)
        if found is None:
            raise InvalidParameterError(f"no run {resume} in {st.path}")
        if found[0] != key:
            if found[0].partition(":")[0] == key.partition(":")[0]:
                raise _changed_code(resume, st.path)
            raise InvalidParameterError(
                f"run {resume} checked something else; resume it with exactly the same arguments"
            )
        return resume
    run_id: int | None = st.find_resumable(key)
    if run_id is None:
        old = st.find_resumable_like(key.partition(":")[0])
        if old is not None:
            raise _changed_code(old, st.path)
    return run_id


def _open_run(
    spec: CheckSpec, st: Any, resume: bool | int, what: str
) -> tuple[int | None, dict[int, tuple[int, float, dict[str, Any] | None]]]:
    """The run's id in the store *st* (resumed or new) and the chunks already done."""
    if st is None:
        return None, {}
    key = spec.key()
    run_id = _resumed_run(st, resume, key)
    if run_id is not None:
        st.mark_running(run_id)
        return run_id, st.done_chunks(run_id)
    params = spec.game.param_values()
    run_id = st.create_run(
        spec_key=key,
        what=what,
        target=spec.target,
        game=spec.game.label(),
        params={k: sorted(v) if isinstance(v, frozenset) else v for k, v in params.items()},
        kind=spec.kind,
        bound=spec.bound,
        space=spec.space.describe(),
        n_chunks=spec.space.n_chunks,
        spec=dumps_spec(spec),
    )
    return run_id, {}


def _consume(
    it: Iterator[ChunkResult],
    tally: _Tally,
    st: Any,
    run_id: int | None,
    prog: RunProgress,
    t0: float,
) -> None:
    """Tally and store every chunk result of *it*; an interrupted run is marked so."""
    status = "interrupted"
    try:
        for res in it:
            _add(res, tally, st, run_id, prog)
        status = "done"
    finally:
        prog.close()
        if status != "done":
            _interrupted(tally, st, run_id, t0)


def _add(res: ChunkResult, tally: _Tally, st: Any, run_id: int | None, prog: RunProgress) -> None:
    """Count chunk *res* in *tally*, record it in the store *st* (when one is kept) and
    show it on *prog*."""
    tally.add(res)
    if st is not None and run_id is not None:
        st.record_chunk(
            run_id,
            res.index,
            res.count,
            res.seconds,
            res.method,
            None if res.failure is None else res.failure.to_dict(),
        )
    prog.advance(1, res.count)


def _interrupted(tally: _Tally, st: Any, run_id: int | None, t0: float) -> None:
    """Mark the run *run_id* of the store *st* interrupted (resumable), if one is kept."""
    if st is not None and run_id is not None:
        total = sum(tally.counts.values())
        st.finish_run(run_id, "interrupted", total, time.perf_counter() - t0)
        st.conn.execute("UPDATE runs SET finished = NULL WHERE id = ?", (run_id,))


def _checked(spec: CheckSpec, tally: _Tally, st: Any, run_id: int | None, t0: float) -> int:
    """Positions checked: all of them, or those up to the first failing chunk's."""
    n_chunks = spec.space.n_chunks
    first = min(tally.failures) if tally.failures else None
    if first is None and n_chunks and not any(tally.counts.values()):
        if st is not None and run_id is not None:
            st.finish_run(run_id, "error", 0, time.perf_counter() - t0)
        raise InvalidParameterError(
            f"{spec.game.label()}: no valid position in {spec.space.describe()}; "
            "check --heaps and --bound"
        )
    if first is None:
        missing = [i for i in range(n_chunks) if i not in tally.counts]
        if missing:  # pragma: no cover - defensive
            raise NimlabError(f"chunks {missing[:5]} were not checked")
        return sum(tally.counts.values())
    return sum(tally.counts[i] for i in range(first)) + tally.counts[first]


def _counterexample(spec: CheckSpec, tally: _Tally) -> Any:
    """The smallest counterexample of the run (None if the claim held), with the true value."""
    from nimlab.core.results import Counterexample

    if not tally.failures:
        return None
    f = tally.failures[min(tally.failures)]
    actual = _actual(spec.game, spec.kind, f.position)
    return Counterexample(spec.game.label(), f.position, f.claimed, actual, f.detail, f.option)


def _run(
    spec: CheckSpec,
    st: Any,
    workers: int | None,
    scheduler: str | None,
    dask_local: bool,
    resume: bool | int,
    progress: bool,
    what: str,
) -> VerificationResult:
    t0 = time.perf_counter()
    n_chunks = spec.space.n_chunks
    run_id, done = _open_run(spec, st, resume, what)
    tally = _Tally.of(done)
    stop = tally.stop
    pending = [i for i in range(n_chunks) if i not in done and not (stop and i > stop[0])]
    backend, n_workers = choose_backend(spec, pending, workers, bool(scheduler or dask_local))
    prog = RunProgress(spec.target, n_chunks, progress)
    prog.advance(len(done), sum(tally.counts.values()))
    stored = st is not None
    it = chunk_results(spec, backend, pending, n_workers, stop, scheduler, stored)
    _consume(it, tally, st, run_id, prog, t0)
    return _finish(spec, st, run_id, tally, t0, (backend, n_workers), what)


def _finish(
    spec: CheckSpec,
    st: Any,
    run_id: int | None,
    tally: _Tally,
    t0: float,
    where: tuple[str, int],
    what: str,
) -> VerificationResult:
    """The result of the run of *spec* from its *tally* (recorded in the store *st*, when
    one is kept); *where*: its backend and number of workers."""
    backend, n_workers = where
    n_chunks = spec.space.n_chunks
    total = _checked(spec, tally, st, run_id, t0)
    cex = _counterexample(spec, tally)
    seconds = time.perf_counter() - t0
    result = VerificationResult(
        target=spec.target,
        game=spec.game.label(),
        kind=spec.kind,
        bound=spec.bound,
        space=spec.space.describe(),
        positions_checked=total,
        ok=cex is None,
        seconds=seconds,
        counterexample=cex,
        run_id=run_id,
        chunks=n_chunks,
        chunks_resumed=tally.resumed,
        method="+".join(sorted(tally.methods)) or "python",
        backend=backend,
        workers=1 if backend == "serial" else n_workers,
        what=what,
    )
    if st is not None:
        st.record_result(result)
    return result


class ClaimOptions(TypedDict, total=False):
    """The keyword arguments of :func:`conjecture_spec` (what is claimed, on which
    positions, by which path), which :func:`verify` takes too."""

    p_set: Callable[..., Any] | str | None
    misere: bool
    bound: int | None
    heaps: int | None
    positions: Any
    chunk_size: int | None
    compiled: bool


def verify(
    game: Ruleset[Any] | str,
    formula: Callable[..., Any] | str | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: bool = False,
    store: Any = None,
    resume: bool | int = False,
    progress: bool = False,
    max_positions: int | None = None,
    **claim: Unpack[ClaimOptions],
) -> VerificationResult:
    """Verify a claimed Grundy function or P-set of *game* by local check.

    Parameters
    ----------
    game : Ruleset or str
        The game (a ruleset, or a registry name with default parameters).
    formula : callable or str, optional
        The claimed Grundy function: ``f(position)`` or ``f(*heaps)``, or an expression
        over heap variables (``"a ^ b"``; see :mod:`nimlab.verification.expr`).
    workers : int, optional
        Processes (default: all cores); 1 checks serially in this process.
    scheduler : str, optional
        Address of a Dask scheduler (``tcp://host:8786``) to run the chunks on.
    dask_local : bool
        Run the chunks on a local Dask cluster of *workers* processes.
    store : str or Store, optional
        The SQLite results store (``True``: the default path); None keeps no record.
    resume : bool or int
        Continue the unfinished run with the same spec (True) or with this run id.
    progress : bool
        Show a progress bar (or periodic lines when stderr is not a terminal).
    max_positions : int, optional
        Budget of positions (default :data:`MAX_POSITIONS`), checked before the run
        starts: a larger space raises :class:`~nimlab.core.errors.WorkTooLargeError`.
    **claim : ClaimOptions
        What is claimed, on which positions, by which path: the keyword arguments of
        :func:`conjecture_spec` (*p_set*, *misere*, *bound*, *heaps*, *positions*,
        *chunk_size*, *compiled*; *bound* or *positions* is needed).

    Returns
    -------
    VerificationResult

    Examples
    --------
    >>> import nimlab
    >>> r = nimlab.verify("nim", "a ^ b", bound=8, heaps=2, workers=1)
    >>> r.result, r.positions_checked
    ('verified', 64)
    >>> r = nimlab.verify("nim", lambda a, b: a | b, bound=8, heaps=2, workers=1)
    >>> r.counterexample.position, r.counterexample.claimed, r.counterexample.actual
    ((1, 1), 1, 0)
    """
    _check_run_args(workers, scheduler, store, resume, claim.get("chunk_size"))
    spec = conjecture_spec(game, formula, **claim)
    return run_spec(
        spec,
        workers=workers,
        scheduler=scheduler,
        dask_local=dask_local,
        store=store,
        resume=resume,
        progress=progress,
        max_positions=max_positions,
    )


def _claim_args(formula: Any, p_set: Any, misere: object, bound: object, heaps: object) -> None:
    """Refuse contradictory or mistyped claim arguments before any work."""
    if (formula is None) == (p_set is None):
        raise InvalidParameterError("give exactly one of formula= or p_set=")
    if not isinstance(misere, bool):
        raise InvalidArgumentError(f"misere must be True or False, got {misere!r:.40}")
    if misere and formula is not None:
        raise InvalidParameterError(
            "misere applies to a claimed P-set (--p-set); a Grundy function (--formula) is "
            "about normal play"
        )
    for name, value in (("bound", bound), ("heaps", heaps)):
        if value is not None and as_index(value) is None:
            raise InvalidArgumentError(f"{name} must be an integer, got {value!r:.40}")


def _space_of(
    g: Ruleset[Any], positions: Any, bound: int | None, heaps: int | None, chunk_size: int | None
) -> tuple[Space, int, int]:
    """The space of the claim, its number of heaps and its bound (0 for listed positions)."""
    if positions is not None:
        plist = [g.validate(p) for p in positions]
        space: Space = ListSpace.of(plist, chunk_size or LIST_CHUNK, g)
        n = len(plist[0]) if plist and isinstance(plist[0], tuple) else 1
        return space, n, bound if bound is not None else 0
    if bound is None:
        raise InvalidParameterError("give bound= (every heap < bound) or positions=")
    box = heap_space(g, bound, heaps, chunk_size=chunk_size)
    return box, int(getattr(box, "n_heaps", heaps or 1)), bound


def _claim_of(g: Ruleset[Any], raw: Callable[..., Any] | str, n: int) -> tuple[Claim, str]:
    """The claim of an expression (over *n* heaps and the game's integer parameters) or a
    function, and its text for reports."""
    if isinstance(raw, str):
        consts = {
            k: v
            for k, v in g.param_values().items()
            if isinstance(v, int) and not isinstance(v, bool)
        }
        return ExprClaim(parse_expression(raw, n, consts)), raw
    return FunctionClaim(raw), getattr(raw, "__qualname__", repr(raw))


def _choose_path(
    spec: CheckSpec,
    heaps: int | None,
    chunk_size: int | None,
    compiled: bool,
    multisets: Space | None,
) -> CheckSpec:
    """*spec* on the path the planner chooses among those its box of heaps allows: the
    vectorised check, the compiled check, else Python."""
    from nimlab.planner import Method, Question, check_method, plan
    from nimlab.verification import compiled as _compiled  # noqa: F401 - registers
    from nimlab.verification import fast as _fast  # noqa: F401 - its test to the planner

    g, kind, claim, target, b = spec.game, spec.kind, spec.claim, spec.target, spec.bound
    fast_space = heap_space(g, b, heaps, fast=True, chunk_size=chunk_size)
    fast_spec = CheckSpec(g, kind, claim, fast_space, target, b, True)
    vectorised = check_method(fast_spec) is Method.VECTORISED_CHECK
    comp_spec = None
    if not vectorised and compiled:
        big = multisets or heap_space(g, b, heaps, chunk_size=chunk_size or COMPILED_CHUNK)
        comp_spec = CheckSpec(g, kind, claim, big, target, b, False, True)
        if check_method(comp_spec) is not Method.COMPILED_CHECK:
            comp_spec = None
    # the planner chooses among the paths this space and claim allow
    method = plan(
        g,
        Question.CHECK,
        space=fast_space if vectorised else (comp_spec or spec).space,
        kind=kind,
        vectorised=vectorised,
        compiled=comp_spec is not None,
    ).method
    if method == Method.VECTORISED_CHECK:
        return fast_spec
    if method == Method.COMPILED_CHECK and comp_spec is not None:
        return comp_spec
    return spec


def conjecture_spec(
    game: Ruleset[Any] | str,
    formula: Callable[..., Any] | str | None = None,
    *,
    p_set: Callable[..., Any] | str | None = None,
    misere: bool = False,
    bound: int | None = None,
    heaps: int | None = None,
    positions: Any = None,
    chunk_size: int | None = None,
    compiled: bool = True,
) -> CheckSpec:
    """The :class:`CheckSpec` :func:`verify` runs (same arguments): its space, claim and
    path (vectorised, compiled or Python).

    Parameters
    ----------
    game, formula
        As for :func:`verify`.
    p_set : callable or str, optional
        Instead of *formula*: the claimed P-set, as a predicate or boolean expression.
    misere : bool
        With *p_set*: the claim is about misère play.
    bound : int
        Every heap is ``< bound`` (or the total, for games whose moves raise a heap).
    heaps : int, optional
        Number of heaps (default: the game's own number, else 3).
    positions : iterable, optional
        An explicit move-closed set of positions instead of *bound*.
    chunk_size : int, optional
        About how many positions make a chunk (default: 8192, 2^17 on the compiled path,
        2^19 on the vectorised path); part of the run's identity for ``resume``.
    compiled : bool
        Use the compiled local check when the game has a ``compiled_options`` hook and
        the claim compiles (an expression, or a Python function numba can compile);
        False forces the Python path.

    Examples
    --------
    >>> conjecture_spec("nim", "a ^ b", bound=4, heaps=2).space.describe()
    '2 heaps, 0 <= heap < 4'
    """
    from nimlab.catalog.registry import as_game

    g = as_game(game)
    _claim_args(formula, p_set, misere, bound, heaps)
    kind: CheckKind = "grundy" if formula is not None else ("misere-p-set" if misere else "p-set")
    raw = formula if formula is not None else p_set
    assert raw is not None
    space, n, b = _space_of(g, positions, bound, heaps, chunk_size)
    claim, target = _claim_of(g, raw, n)
    multisets = multiset_space(g, claim, space, chunk_size, compiled)
    spec = CheckSpec(g, kind, claim, multisets or space, target, b)
    if heap_box(space) is None:
        if compiled and own_walk(space) is not None:  # a space's own compiled walk
            return CheckSpec(g, kind, claim, space, target, b, False, True)
        return spec
    return _choose_path(spec, heaps, chunk_size, compiled, multisets)
