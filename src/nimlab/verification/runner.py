"""Run a local check over chunks: serially, on a process pool, or on a Dask cluster.

:func:`verify` checks a user's closed form (a Python callable or an expression string)
on a position space; :func:`run_spec` is the engine shared with theorem checks. Results
go to the SQLite :class:`~nimlab.verification.store.Store` when one is given, chunk by
chunk, so that a killed run resumes (``resume=True``) to exactly the same totals.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import pickle
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

from nimlab.core.errors import InvalidArgumentError, InvalidParameterError, NimlabError
from nimlab.core.params import as_index
from nimlab.core.ruleset import Ruleset
from nimlab.verification.chunks import check_chunk, install_prepared, needs_prepare, prepare_part
from nimlab.verification.expr import parse_expression
from nimlab.verification.local import (
    CheckKind,
    ChunkResult,
    Claim,
    ExprClaim,
    Failure,
    FunctionClaim,
)
from nimlab.verification.spaces import (
    BoxSpace,
    DistinctBoxSpace,
    IndexSpace,
    ListSpace,
    SortedBoxSpace,
    SortedTotalSpace,
    Space,
    TotalSpace,
    rows_per_chunk,
)

__all__ = [
    "CheckSpec",
    "VerificationResult",
    "conjecture_spec",
    "heap_space",
    "run_spec",
    "verify",
]

PY_CHUNK = 8192
# Positions a verification run may check unless the caller raises it (max_positions=N,
# --max-positions N): about 3 minutes on the vectorised kernel, hours in Python; checked
# before the run starts.
MAX_POSITIONS = 10**9
FAST_CHUNK = 1 << 19
COMPILED_CHUNK = 1 << 17
LIST_CHUNK = 2048
FAST_MIN_POOL = 8


@dataclass(frozen=True)
class CheckSpec:
    """Everything a worker needs to check one chunk (picklable).

    Attributes
    ----------
    game : Ruleset
        The rules.
    kind : {"grundy", "p-set", "misere-p-set"}
        What is claimed.
    claim : Claim
        The claimed values.
    space : Space
        The move-closed set of positions, in chunks.
    target : str
        Theorem id or the conjecture's text (for the store and reports).
    bound : int
        The bound the space was built from.
    fast : bool
        Whether the vectorised kernel may be used.
    compiled : bool
        Whether the compiled local check (:mod:`nimlab.verification.compiled`: the game's
        ``compiled_options`` hook and a compiled claim) may be used.
    """

    game: Ruleset[Any]
    kind: CheckKind
    claim: Claim
    space: Space
    target: str
    bound: int
    fast: bool = False
    compiled: bool = False

    def key(self) -> str:
        """Stable identity of the spec (same key = same chunks): used to resume."""
        sp = self.space
        if isinstance(sp, ListSpace):
            space_id = hashlib.sha256(repr(sp.positions).encode()).hexdigest()
            space_id += f"/{sp.chunk_size}"
        else:
            space_id = f"{sp!r}"
        claim_id = self.claim.key()
        if claim_id.startswith("fn:") and claim_id.count(":") >= 2:
            claim_id = claim_id.rsplit(":", 1)[0]  # its code is in the fingerprint below
        parts: list[Any] = [
            claim_id,
            repr(self.game),
            self.kind,
            space_id,
            self.bound,
            self.fast,
        ]
        if self.compiled:
            parts.append("compiled")
        text = json.dumps(parts)
        from nimlab.verification.identity import code_fingerprint

        # what is checked, then the code that decides it (a resumed run must share both)
        return (
            f"{hashlib.sha256(text.encode()).hexdigest()}:{code_fingerprint(self.game, self.claim)}"
        )


@dataclass(frozen=True)
class VerificationResult:
    """The outcome of a verification run.

    Attributes
    ----------
    target : str
        Theorem id or the conjecture's text.
    game : str
        Label of the game.
    kind : str
        ``grundy``, ``p-set`` or ``misere-p-set``.
    bound : int
        The bound.
    space : str
        Description of the position space.
    positions_checked : int
        Positions checked (on failure: up to and including the counterexample).
    ok : bool
        Whether the claim holds on the whole space.
    seconds : float
        Wall-clock time of this invocation.
    counterexample : Counterexample or None
        The smallest counterexample in the space's order, with the claimed and the true
        value and the option that breaks the rule.
    run_id : int or None
        Id in the results store.
    chunks : int
        Number of chunks; ``chunks_resumed`` of them came from an earlier run.
    method : str
        ``vectorised`` or ``python``.
    backend : str
        ``serial``, ``threads``, ``processes`` or ``dask``.
    """

    target: str
    game: str
    kind: str
    bound: int
    space: str
    positions_checked: int
    ok: bool
    seconds: float
    counterexample: Any = None
    run_id: int | None = None
    chunks: int = 0
    chunks_resumed: int = 0
    method: str = "python"
    backend: str = "serial"
    workers: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def result(self) -> str:
        """``"verified"`` or ``"FAILED"``."""
        return "verified" if self.ok else "FAILED"

    @property
    def rate(self) -> float:
        """Positions checked per second."""
        return self.positions_checked / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "target": self.target,
            "game": self.game,
            "kind": self.kind,
            "bound": self.bound,
            "space": self.space,
            "positions_checked": self.positions_checked,
            "result": self.result,
            "seconds": self.seconds,
            "counterexample": None
            if self.counterexample is None
            else self.counterexample.to_dict(),
            "run_id": self.run_id,
            "chunks": self.chunks,
            "chunks_resumed": self.chunks_resumed,
            "method": self.method,
            "backend": self.backend,
            "workers": self.workers,
        }


# -- spaces -----------------------------------------------------------------------------


def _default_heaps(game: Ruleset[Any]) -> int:
    """The game's own number of heaps, else the first of 3, 2, 1, 4, ... it accepts."""
    from nimlab.core.errors import NimlabError

    n = getattr(type(game), "n_heaps", None)
    if isinstance(n, int):
        return n
    low = int(getattr(type(game), "min_heap_size", 0))
    for k in (3, 2, 1, 4, 5, 6, 7, 8):
        try:
            game.validate(tuple(range(low, low + k)))
        except NimlabError:
            continue
        return k
    return 3


def _probe_closed(game: Ruleset[Any], n: int, low: int, bound: int) -> str:
    """``"box"`` if moves never leave a box, ``"total"`` if they keep the total, else refuse."""
    import itertools

    from nimlab.core.errors import InvalidPositionError

    top = min(bound, low + 5)
    leaves_box = False
    for t in itertools.product(range(low, top), repeat=n):
        try:
            pos = game.validate(t)
        except InvalidPositionError:
            continue
        for q in game.moves(pos):
            if not isinstance(q, tuple) or len(q) != n:
                raise InvalidParameterError(
                    f"{game.label()}: moves change the number of heaps; verify positions of "
                    "this game through the Python API with an explicit move-closed space"
                )
            if any(h >= top for h in q):
                leaves_box = True
                if sum(q) > sum(t):
                    raise InvalidParameterError(
                        f"{game.label()}: a move adds stones ({t} -> {q}), so no box of heaps "
                        "is move-closed and a local check cannot be bounded; use the Python "
                        "API with an explicit move-closed space"
                    )
    return "total" if leaves_box else "box"


def heap_space(
    game: Ruleset[Any],
    bound: int,
    heaps: int | None = None,
    *,
    fast: bool = False,
    chunk_size: int | None = None,
) -> Space:
    """The CLI's position space: every heap < *bound*, or the total < *bound* if moves
    can raise a heap (Lim); invalid tuples are skipped.

    Examples
    --------
    >>> from nimlab import game
    >>> heap_space(game("nim"), 4, 2)
    BoxSpace(n_heaps=2, bound=4, low=0, rows=4, game=Nim())
    """
    from nimlab.core.ruleset import HeapRuleset

    if not isinstance(game, HeapRuleset):
        raise InvalidParameterError(
            f"{game.label()}: positions are not tuples of heaps; verify it through the "
            "Python API (nimlab.verify(game, ..., positions=...))"
        )
    if not isinstance(bound, int) or bound < 1:
        raise InvalidParameterError(f"bound must be a positive integer, got {bound!r}")
    n = heaps if heaps is not None else _default_heaps(game)
    fixed = getattr(type(game), "n_heaps", None)
    if fixed is not None and n != fixed:
        raise InvalidParameterError(f"{game.name} is played on exactly {fixed} heaps, not {n}")
    least = max(1, getattr(type(game), "min_heaps", 0))
    if n < least:
        raise InvalidParameterError(f"{game.name} needs at least {least} heaps, got {n}")
    if n > 8:
        raise InvalidParameterError(f"at most 8 heaps can be enumerated, got {n}")
    low = int(getattr(type(game), "min_heap_size", 0))
    if bound <= low:
        raise InvalidParameterError(f"bound must be > {low} for {game.name} (heaps >= {low})")
    span = bound - low
    if span**n > 10**11:
        raise InvalidParameterError(
            f"{span}^{n} positions is too many to enumerate; lower --bound or --heaps"
        )
    mode = _probe_closed(game, n, low, bound)
    row_size = span ** (n - 1)
    target = chunk_size if chunk_size else (FAST_CHUNK if fast else PY_CHUNK)
    rows = rows_per_chunk(span, row_size, target)
    if mode == "total":
        return TotalSpace(n, bound, low, rows, game)
    return BoxSpace(n, bound, low, rows, game)


def _changed_code(run_id: int, path: Any) -> InvalidParameterError:
    return InvalidParameterError(
        f"run {run_id} in {path} was checked with other code (the game's move function or "
        "file, the claim, or nimlab's version changed since): its chunks do not apply to "
        "this code; run again without --resume to start afresh"
    )


# -- executors --------------------------------------------------------------------------

_WORKER_SPEC: dict[str, Any] = {}


def _dumps(spec: CheckSpec) -> bytes:
    try:
        return pickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, AttributeError, TypeError):
        import cloudpickle  # type: ignore[import-untyped]

        return bytes(cloudpickle.dumps(spec, protocol=pickle.HIGHEST_PROTOCOL))


def _load_spec(blob: bytes) -> CheckSpec:
    key = hashlib.sha1(blob).hexdigest()
    spec = _WORKER_SPEC.get(key)
    if spec is None:
        _WORKER_SPEC.clear()
        spec = _WORKER_SPEC[key] = pickle.loads(blob)
    return spec  # type: ignore[no-any-return]


def _watch_parent(interval: float = 0.5) -> None:
    """End this pool worker as soon as the process that started it is gone.

    A client killed with SIGKILL cannot stop its workers; on Linux the kernel kills them
    with it (``PR_SET_PDEATHSIG``), elsewhere a thread polls the parent's pid.
    """
    import signal
    import threading

    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl
            pass
    if os.getppid() != parent:  # pragma: no cover - the parent died before the watch began
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="nimlab-parent-watch", daemon=True).start()


def _init_worker(blob: bytes) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is handled by the main process
    _watch_parent()
    _load_spec(blob)


def _pool_chunk(i: int) -> ChunkResult:
    spec = next(iter(_WORKER_SPEC.values()))
    return check_chunk(spec, i)


def _pool_prepare(first: int, stop: int) -> Any:
    spec = next(iter(_WORKER_SPEC.values()))
    return prepare_part(spec, range(first, stop))


def _part_ranges(n_chunks: int, parts: int) -> list[tuple[int, int]]:
    """*n_chunks* chunks cut into at most *parts* contiguous ranges of about equal size."""
    parts = max(1, min(parts, n_chunks))
    cuts = [n_chunks * k // parts for k in range(parts + 1)]
    return [(cuts[k], cuts[k + 1]) for k in range(parts) if cuts[k] < cuts[k + 1]]


def _prepare_processes(blob: bytes, n_chunks: int, workers: int) -> list[Any]:
    """The set-up parts of every chunk, computed on a pool of *workers* processes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
    ranges = _part_ranges(n_chunks, workers)
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(blob,)
    ) as ex:
        futs = [ex.submit(_pool_prepare, a, b) for a, b in ranges]
        return [f.result() for f in futs]


def _serial(spec: CheckSpec, pending: list[int], stop: list[int]) -> Iterator[ChunkResult]:
    for i in pending:
        if stop and i > stop[0]:
            continue
        yield check_chunk(spec, i)


def _processes(
    blob: bytes, pending: list[int], workers: int, stop: list[int]
) -> Iterator[ChunkResult]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(blob,)
    ) as ex:
        futs: dict[Future[ChunkResult], int] = {}
        todo = list(pending)
        try:
            while todo or futs:
                while todo and len(futs) < 4 * workers:
                    i = todo.pop(0)
                    if stop and i > stop[0]:
                        continue
                    futs[ex.submit(_pool_chunk, i)] = i
                if not futs:
                    break
                done, _ = wait(list(futs), return_when=FIRST_COMPLETED)
                for f in sorted(done, key=lambda f: futs[f]):
                    futs.pop(f)
                    yield f.result()
                if stop:
                    todo = [i for i in todo if i <= stop[0]]
                    for f, i in list(futs.items()):
                        if i > stop[0] and f.cancel():
                            futs.pop(f)
        except BaseException:
            for f in futs:
                f.cancel()
            ex.shutdown(wait=False, cancel_futures=True)
            raise


def _cluster_lost(scheduler: str | None, exc: BaseException, stored: bool = True) -> NimlabError:
    """One clear error for a Dask failure that is not nimlab's (a lost scheduler, ...).

    Examples
    --------
    >>> print(_cluster_lost(None, OSError("gone"), stored=False))
    lost the local Dask cluster (OSError: gone); nothing was stored (--no-store): run the command again
    """
    from nimlab.core.errors import ClusterError

    where = f"the Dask scheduler at {scheduler}" if scheduler else "the local Dask cluster"
    then = (
        "the chunks checked so far are in the store: run the same command with --resume to continue"
        if stored
        else "nothing was stored (--no-store): run the command again"
    )
    return ClusterError(
        f"lost {where} ({type(exc).__name__}: {str(exc)[:120] or 'no detail'}); {then}"
    )


def user_files(spec: Any) -> list[str]:
    """Source files of the user's own modules a spec refers to (its game's class, its
    claim's function), which Dask workers cannot import unless they receive them.

    A module qualifies when it is not part of nimlab or an installed package and its name
    is its file's stem (so a worker imports it after ``Client.upload_file``).

    Examples
    --------
    >>> from nimlab import game
    >>> user_files(CheckSpec(game("nim"), "grundy", ExprClaim(parse_expression("a", 1, {})),
    ...                      BoxSpace(1, 3), "a", 3))
    []
    """
    import sysconfig
    from pathlib import Path

    roots = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib", "stdlib")}
    objs: list[Any] = [type(spec.game)]
    fn = getattr(spec.claim, "fn", None)
    if fn is not None:
        objs.append(fn)
    out: list[str] = []
    for obj in objs:
        name = getattr(obj, "__module__", None) or ""
        mod = sys.modules.get(name)
        path = getattr(mod, "__file__", None)
        if not path or name.split(".")[0] in ("nimlab", "__main__") or "." in name:
            continue
        file = Path(path).resolve()
        if file.stem != name or any(r in file.parents for r in roots):
            continue
        if str(file) not in out:
            out.append(str(file))
    return out


def _dask(
    blob: bytes,
    pending: list[int],
    workers: int,
    scheduler: str | None,
    stop: list[int],
    stored: bool = True,
) -> Iterator[ChunkResult]:
    with _quiet_dask():
        yield from _dask_run(blob, pending, workers, scheduler, stop, stored)


@contextlib.contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's own logs and asyncio's "exception never retrieved" tracebacks stay silent
    while nimlab runs on Dask: a lost scheduler or a Ctrl-C is said in one line by nimlab."""
    import logging

    with contextlib.suppress(ImportError):  # its loggers exist once it is imported
        importlib.import_module("distributed")

    roots = ("distributed", "asyncio", "tornado")
    names = [*roots, *(n for n in logging.root.manager.loggerDict if n.split(".")[0] in roots)]
    loggers = [logging.getLogger(n) for n in dict.fromkeys(names)]
    old = [(lg, lg.disabled) for lg in loggers]
    for lg in loggers:
        lg.disabled = True  # a disabled logger drops every record, whatever its level
    try:
        yield
    finally:
        for lg, was in old:
            lg.disabled = was


def _dask_run(
    blob: bytes,
    pending: list[int],
    workers: int,
    scheduler: str | None,
    stop: list[int],
    stored: bool,
) -> Iterator[ChunkResult]:
    try:
        dist: Any = importlib.import_module("distributed")
        Client, LocalCluster, as_completed = dist.Client, dist.LocalCluster, dist.as_completed
    except ImportError as exc:  # pragma: no cover - the [dask] extra is installed in tests
        raise InvalidParameterError("Dask is not installed: pip install 'nimlab[dask]'") from exc
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as exc:
            from nimlab.core.errors import ClusterError

            raise ClusterError(
                f"cannot reach the Dask scheduler at {scheduler!r} ({exc}); start one with "
                "`dask scheduler` and workers with `dask worker ADDRESS`"
            ) from None
    else:
        import logging
        import signal
        import threading

        # the workers ignore Ctrl-C (they inherit SIG_IGN): this process stops them, and
        # no worker prints its own KeyboardInterrupt traceback
        main = threading.current_thread() is threading.main_thread()
        old_int = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.CRITICAL,
            )
        finally:
            if main:
                signal.signal(signal.SIGINT, old_int)
        client = Client(cluster)
    try:
        for path in user_files(pickle.loads(blob)):
            client.upload_file(path)  # the user's own game or claim reaches every worker
        from nimlab.verification.cluster import dask_chunks

        def lost(exc: BaseException) -> NimlabError:
            return _cluster_lost(scheduler, exc, stored)

        yield from dask_chunks(client, blob, pending, workers, stop, lost, as_completed)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# -- progress ---------------------------------------------------------------------------


def _env_seconds(name: str, default: float) -> float:
    """A number of seconds >= 0 from environment variable *name*, or a clear error."""
    text = os.environ.get(name)
    if text is None or not text.strip():
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 <= value < float("inf"):
        raise InvalidParameterError(
            f"environment variable {name} must be a number of seconds >= 0, got "
            f"{text[:40]!r} (unset it or write for example {name}=5)"
        )
    return value


_SCHEDULER = re.compile(
    r"^(?:(tcp|tls|inproc|ucx|ws|wss)://)?([\w.\-]+|\[[0-9a-fA-F:]+\])(?::(\d{1,5}))?/?$"
)


def check_scheduler(address: str) -> str:
    """A Dask scheduler address (``tcp://host:8786``, ``host:8786``), or a ClusterError.

    Examples
    --------
    >>> check_scheduler("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    >>> check_scheduler("zzz://127.0.0.1:1")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.ClusterError: cannot read the Dask scheduler address 'zzz://127.0.0.1:1': write it as tcp://HOST:PORT (for example tcp://10.0.0.1:8786)
    """
    from nimlab.core.errors import ClusterError

    m = _SCHEDULER.match(address.strip()) if isinstance(address, str) else None
    if m is not None and m.group(1) in ("inproc", "ucx"):
        raise ClusterError(
            f"the Dask scheduler address {address[:60]!r} uses {m.group(1)}://, which nimlab "
            "does not support: write it as tcp://HOST:PORT (for example tcp://10.0.0.1:8786)"
        )
    if m is not None and m.group(3) is None:
        raise ClusterError(
            f"the Dask scheduler address {address[:60]!r} has no port: write it as "
            "tcp://HOST:PORT (the scheduler's default port is 8786)"
        )
    if m is None or (m.group(3) is not None and not 0 < int(m.group(3)) < 65536):
        raise ClusterError(
            f"cannot read the Dask scheduler address {str(address)[:60]!r}: write it as "
            "tcp://HOST:PORT (for example tcp://10.0.0.1:8786)"
        )
    return address.strip()


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


class _Progress:
    def __init__(self, label: str, total_chunks: int, enabled: bool) -> None:
        self.enabled = enabled
        self.label = label
        self.total = total_chunks
        self.done = 0
        self.positions = 0
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.bar: Any = None
        self.interval = _env_seconds("NIMLAB_PROGRESS_INTERVAL", 5.0)
        if enabled and sys.stderr.isatty():
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("chunks · {task.fields[pos]} positions · {task.fields[rate]}/s"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                transient=True,
            )
            self.task = self.bar.add_task(label, total=total_chunks, pos="0", rate="0")
            self.bar.start()

    def advance(self, done: int, positions: int) -> None:
        self.done += done
        self.positions += positions
        if not self.enabled or done == 0:
            return
        now = time.perf_counter()
        rate = self.positions / max(now - self.t0, 1e-9)
        if self.bar is not None:
            self.bar.update(self.task, advance=done, pos=f"{self.positions:,}", rate=f"{rate:,.0f}")
        elif now - self.last >= self.interval:
            self.last = now
            left = self.total - self.done
            eta = (now - self.t0) / max(self.done, 1) * left
            print(
                f"{self.label}: {self.done}/{self.total} chunks, {self.positions:,} positions, "
                f"{rate:,.0f}/s, ETA {eta:.0f}s",
                file=sys.stderr,
                flush=True,
            )

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


# -- the engine -------------------------------------------------------------------------


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


def _space_size(space: Any) -> int | None:
    """Number of positions of *space* (before invalid ones are skipped), or None."""
    from math import comb

    if isinstance(
        space, (BoxSpace, SortedBoxSpace, IndexSpace, DistinctBoxSpace, SortedTotalSpace)
    ):
        return space.size
    if isinstance(space, TotalSpace):
        span = max(0, space.bound - space.low * space.n_heaps)
        return comb(span + space.n_heaps - 1, space.n_heaps)
    return None


def check_budget(spec: CheckSpec, max_positions: int | None) -> None:
    """Refuse a run over more positions than *max_positions*, before it starts."""
    budget = MAX_POSITIONS if max_positions is None else max_positions
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise InvalidArgumentError(f"max_positions must be an integer >= 1, got {budget!r:.40}")
    size = _space_size(spec.space)
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
    size = _space_size(spec.space) or 0
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
    size = _space_size(spec.space) or 0
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
    from nimlab.core.results import Counterexample

    t0 = time.perf_counter()
    n_chunks = spec.space.n_chunks
    key = spec.key()
    run_id: int | None = None
    done: dict[int, tuple[int, float, dict[str, Any] | None]] = {}
    failures: dict[int, Failure] = {}
    counts: dict[int, int] = {}
    methods: set[str] = set()
    if st is not None:
        if resume:
            if isinstance(resume, int) and not isinstance(resume, bool):
                found = st.run_spec(resume)
                if found is None:
                    raise InvalidParameterError(f"no run {resume} in {st.path}")
                if found[0] != key:
                    if found[0].partition(":")[0] == key.partition(":")[0]:
                        raise _changed_code(resume, st.path)
                    raise InvalidParameterError(
                        f"run {resume} checked something else; resume it with "
                        "exactly the same arguments"
                    )
                run_id = resume
            else:
                run_id = st.find_resumable(key)
                if run_id is None:
                    old = st.find_resumable_like(key.partition(":")[0])
                    if old is not None:
                        raise _changed_code(old, st.path)
        if run_id is not None:
            st.mark_running(run_id)
            done = st.done_chunks(run_id)
        else:
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
                n_chunks=n_chunks,
                spec=_dumps(spec),
            )
    for i, (cnt, _secs, fail) in done.items():
        counts[i] = cnt
        if fail is not None:
            failures[i] = Failure(fail["position"], fail["claimed"], fail["detail"], fail["option"])
    stop: list[int] = [min(failures)] if failures else []
    pending = [i for i in range(n_chunks) if i not in done and not (stop and i > stop[0])]
    n_workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    backend = "serial"
    if scheduler or dask_local:
        backend = "dask"
    elif n_workers > 1 and len(pending) > 1:
        backend = "processes"
        if spec.fast and len(pending) < FAST_MIN_POOL:
            backend = "serial"  # a few vectorised chunks: cheaper than starting processes
        from nimlab.verification.pool import uses_threads

        if uses_threads(spec):
            backend = "threads"  # kernels without Python's lock: no process, no copy
    prog = _Progress(spec.target, n_chunks, progress)
    prog.advance(len(done), sum(counts.values()))
    it: Iterator[ChunkResult]
    if backend == "serial":
        it = _serial(spec, pending, stop)
    elif backend == "threads":
        from nimlab.verification.pool import thread_chunks, warm_up_threads

        warm_up_threads(spec)
        it = thread_chunks(spec, pending, n_workers, stop)
    elif backend == "processes":
        if spec.fast:
            from nimlab.planner import Method, check_method
            from nimlab.verification.fast import warm_up

            if check_method(spec) is Method.VECTORISED_CHECK:
                warm_up()  # forked workers inherit the loaded kernels
        if spec.compiled and isinstance(spec.space, IndexSpace):
            from nimlab.verification.indexed import warm_up_indexed

            warm_up_indexed(spec)  # tabulated and compiled once, inherited by the workers
        elif spec.compiled:
            from nimlab.verification.compiled import warm_up_compiled

            warm_up_compiled(spec)  # compiled once, inherited by the forked workers
        blob = _dumps(spec)
        if needs_prepare(spec):  # the chunks' shared set-up, in parallel, merged here
            parts = _prepare_processes(blob, n_chunks, n_workers)
            install_prepared(spec, parts)  # inherited by the workers forked below
        it = _processes(blob, pending, n_workers, stop)
    else:
        it = _dask(_dumps(spec), pending, n_workers, scheduler, stop, stored=st is not None)
    status = "interrupted"
    try:
        for res in it:
            counts[res.index] = res.count
            methods.add(res.method)
            if res.failure is not None:
                failures[res.index] = res.failure
                if not stop or res.index < stop[0]:
                    stop[:] = [res.index]
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
        status = "done"
    finally:
        prog.close()
        if status != "done" and st is not None and run_id is not None:
            st.finish_run(run_id, "interrupted", sum(counts.values()), time.perf_counter() - t0)
            st.conn.execute("UPDATE runs SET finished = NULL WHERE id = ?", (run_id,))
    first = min(failures) if failures else None
    if first is None and n_chunks and not any(counts.values()):
        if st is not None and run_id is not None:
            st.finish_run(run_id, "error", 0, time.perf_counter() - t0)
        raise InvalidParameterError(
            f"{spec.game.label()}: no valid position in {spec.space.describe()}; "
            "check --heaps and --bound"
        )
    if first is None:
        missing = [i for i in range(n_chunks) if i not in counts]
        if missing:  # pragma: no cover - defensive
            raise NimlabError(f"chunks {missing[:5]} were not checked")
        total = sum(counts.values())
    else:
        total = sum(counts[i] for i in range(first))
        total += counts[first]
    cex = None
    if first is not None:
        f = failures[first]
        cex = Counterexample(
            spec.game.label(),
            f.position,
            f.claimed,
            _actual(spec.game, spec.kind, f.position),
            f.detail,
            f.option,
        )
    seconds = time.perf_counter() - t0
    ok = cex is None
    if st is not None and run_id is not None:
        st.finish_run(run_id, "verified" if ok else "FAILED", total, seconds)
    return VerificationResult(
        target=spec.target,
        game=spec.game.label(),
        kind=spec.kind,
        bound=spec.bound,
        space=spec.space.describe(),
        positions_checked=total,
        ok=ok,
        seconds=seconds,
        counterexample=cex,
        run_id=run_id,
        chunks=n_chunks,
        chunks_resumed=len(done),
        method="+".join(sorted(methods)) or "python",
        backend=backend,
        workers=1 if backend == "serial" else n_workers,
    )


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
        :func:`conjecture_spec`, below (*bound* or *positions* is needed).

    Other Parameters
    ----------------
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


#: Positions on which a claim about an order-free game is tried in every order of its
#: heaps before only sorted positions are checked.
SYMMETRY_SAMPLE = 64


def _multiset_space(
    g: Ruleset[Any], claim: Claim, space: Space, chunk_size: int | None, compiled: bool
) -> SortedBoxSpace | None:
    """Sorted positions (one per multiset of heaps) for a claim about a user's order-free
    game on a box, or None to keep the box: a catalog game (its conjectures keep the box
    of every heap order, as their stored runs and counts do), the game's heap order
    matters, a tuple of the box is not a position, or the claim gives different values
    to some position's heap orders on a sample (so it is not a claim about multisets)."""
    import itertools
    import random

    from nimlab.catalog.user import UserHeapGame
    from nimlab.core.ruleset import HeapRuleset

    if not isinstance(space, BoxSpace) or not isinstance(g, HeapRuleset) or g.ordered:
        return None
    mine = isinstance(g, UserHeapGame) or not type(g).__module__.startswith("nimlab.")
    if not mine:
        return None
    n, low, bound = space.n_heaps, space.low, space.bound
    if n < 2:
        return None
    target = chunk_size or (COMPILED_CHUNK if compiled else PY_CHUNK)
    sp = SortedBoxSpace(n, bound, low, target)
    rng = random.Random(20)
    probe = [tuple(range(low, low + n))] + [
        tuple(sorted(rng.randrange(low, bound) for _ in range(n))) for _ in range(SYMMETRY_SAMPLE)
    ]
    try:
        for t in probe:
            g.validate(t)
            want = claim.value(g, t)
            for q in itertools.islice(itertools.permutations(t), 1, 8):
                g.validate(q)
                if claim.value(g, q) != want:
                    return None
    except Exception:  # not a position, or the claim fails here: the box reports it
        return None
    return sp


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

    Examples
    --------
    >>> conjecture_spec("nim", "a ^ b", bound=4, heaps=2).space.describe()
    '2 heaps, 0 <= heap < 4'
    """
    from nimlab.catalog.registry import as_game

    g = as_game(game)
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
    kind: CheckKind = "grundy" if formula is not None else ("misere-p-set" if misere else "p-set")
    raw = formula if formula is not None else p_set
    if positions is not None:
        plist = [g.validate(p) for p in positions]
        space: Space = ListSpace.of(plist, chunk_size or LIST_CHUNK, g)
        n = len(plist[0]) if plist and isinstance(plist[0], tuple) else 1
        b = bound if bound is not None else 0
    else:
        if bound is None:
            raise InvalidParameterError("give bound= (every heap < bound) or positions=")
        space = heap_space(g, bound, heaps, chunk_size=chunk_size)
        n = space.n_heaps  # type: ignore[attr-defined]
        b = bound
    claim: Claim
    if isinstance(raw, str):
        consts = {
            k: v
            for k, v in g.param_values().items()
            if isinstance(v, int) and not isinstance(v, bool)
        }
        claim = ExprClaim(parse_expression(raw, n, consts))
        target = raw
    else:
        assert raw is not None
        claim = FunctionClaim(raw)
        target = getattr(raw, "__qualname__", repr(raw))
    multisets = _multiset_space(g, claim, space, chunk_size, compiled)
    spec = CheckSpec(g, kind, claim, multisets or space, target, b)
    if isinstance(space, BoxSpace):
        from nimlab.planner import Method, Question, check_method, plan
        from nimlab.verification import compiled as _compiled  # noqa: F401 - registers
        from nimlab.verification import fast as _fast  # noqa: F401 - its test to the planner

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
            spec = fast_spec
        elif method == Method.COMPILED_CHECK and comp_spec is not None:
            spec = comp_spec
    return spec
