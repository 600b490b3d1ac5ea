"""Where a run's chunks are checked: in this process, on threads, on a process pool or on
a Dask cluster (:func:`choose_backend`, :func:`chunk_results`), each yielding the chunks'
results as they come (the runner stores each at once, so a killed run resumes).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import time
from collections.abc import Iterator
from typing import Any

from nimlab._dask import check_scheduler as check_scheduler
from nimlab._dask import cluster_lost, dask_client, distributed_module, module_files, quiet
from nimlab.core.errors import NimlabError
from nimlab.verification.chunks import check_chunk, install_prepared, needs_prepare, prepare_part
from nimlab.verification.local import ChunkResult
from nimlab.verification.spaces import is_indexed, own_walk, warm_up_own
from nimlab.verification.spec import FAST_MIN_POOL, CheckSpec

__all__ = ["check_scheduler", "choose_backend", "chunk_results", "dumps_spec", "user_files"]

_WORKER_SPEC: dict[str, Any] = {}


def dumps_spec(spec: CheckSpec) -> bytes:
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


def _pool_prepare(first: int, stop: int, step: int = 1) -> Any:
    spec = next(iter(_WORKER_SPEC.values()))
    return prepare_part(spec, range(first, stop, step))


def _part_ranges(n_chunks: int, parts: int) -> list[tuple[int, int, int]]:
    """*n_chunks* chunks shared out into at most *parts* ``(first, stop, step)`` ranges
    of every *parts*-th chunk (interleaved: chunks of unequal cost along the space are
    shared out evenly, as on Dask).

    Examples
    --------
    >>> [list(range(*r)) for r in _part_ranges(7, 3)]
    [[0, 3, 6], [1, 4], [2, 5]]
    """
    parts = max(1, min(parts, n_chunks))
    return [(k, n_chunks, parts) for k in range(parts)]


def _prepare_processes(blob: bytes, n_chunks: int, workers: int) -> list[Any]:
    """The set-up parts of every chunk, computed on a pool of *workers* processes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
    ranges = _part_ranges(n_chunks, workers)
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(blob,)
    ) as ex:
        futs = [ex.submit(_pool_prepare, *r) for r in ranges]
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
    then = (
        "the chunks checked so far are in the store: run the same command with --resume to continue"
        if stored
        else "nothing was stored (--no-store): run the command again"
    )
    return cluster_lost(scheduler, exc, then, "checking chunks")


def user_files(spec: Any) -> list[str]:
    """Source files of the user's own modules a spec refers to (its game's class, its
    claim's function), which Dask workers cannot import unless they receive them.

    A module qualifies when it is not part of nimlab or an installed package and its name
    is its file's stem (so a worker imports it after ``Client.upload_file``).

    Examples
    --------
    >>> from nimlab import game
    >>> from nimlab.verification.expr import parse_expression
    >>> from nimlab.verification.local import ExprClaim
    >>> from nimlab.verification.spaces import BoxSpace
    >>> user_files(CheckSpec(game("nim"), "grundy", ExprClaim(parse_expression("a", 1, {})),
    ...                      BoxSpace(1, 3), "a", 3))
    []
    """
    objs: list[Any] = [type(spec.game)]
    fn = getattr(spec.claim, "fn", None)
    if fn is not None:
        objs.append(fn)
    return module_files(objs)


def _dask(
    blob: bytes,
    pending: list[int],
    workers: int,
    scheduler: str | None,
    stop: list[int],
    stored: bool = True,
) -> Iterator[ChunkResult]:
    with quiet():
        yield from _dask_run(blob, pending, workers, scheduler, stop, stored)


def _dask_run(
    blob: bytes,
    pending: list[int],
    workers: int,
    scheduler: str | None,
    stop: list[int],
    stored: bool,
) -> Iterator[ChunkResult]:
    from nimlab.verification.cluster import dask_chunks, spec_of

    dist = distributed_module()
    # the spec this process unpickles once per blob (the run's own, when it made the blob)
    with dask_client(scheduler, workers, user_files(spec_of(blob))) as client:

        def lost(exc: BaseException) -> NimlabError:
            return _cluster_lost(scheduler, exc, stored)

        yield from dask_chunks(client, blob, pending, workers, stop, lost, dist.as_completed)


def choose_backend(
    spec: CheckSpec, pending: list[int], workers: int | None, dask: bool
) -> tuple[str, int]:
    """The backend that runs the *pending* chunks (``serial``, ``threads``, ``processes``
    or ``dask``) and its number of workers (default: every core).

    Examples
    --------
    >>> from nimlab import game
    >>> from nimlab.verification.expr import parse_expression
    >>> from nimlab.verification.local import ExprClaim
    >>> from nimlab.verification.spaces import BoxSpace
    >>> spec = CheckSpec(game("nim"), "grundy", ExprClaim(parse_expression("a", 1, {})),
    ...                  BoxSpace(1, 3), "a", 3)
    >>> choose_backend(spec, [0], 4, False)
    ('serial', 4)
    """
    n_workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    if dask:
        return "dask", n_workers
    if n_workers < 2 or len(pending) < 2:
        return "serial", n_workers
    if spec.fast and len(pending) < FAST_MIN_POOL:
        return "serial", n_workers  # a few vectorised chunks: cheaper than starting processes
    from nimlab.verification.pool import uses_threads

    if uses_threads(spec):
        return "threads", n_workers  # kernels without Python's lock: no process, no copy
    return "processes", n_workers


def _warm_up_processes(spec: CheckSpec) -> None:
    """Load or compile the kernels once here, so that the forked workers inherit them."""
    if spec.fast:
        from nimlab.planner import Method, check_method
        from nimlab.verification.fast import warm_up

        if check_method(spec) is Method.VECTORISED_CHECK:
            warm_up()
    if spec.compiled and own_walk(spec.space) is not None:
        warm_up_own(spec.space, spec)  # the space's own walk, inherited by the workers
    elif spec.compiled and is_indexed(spec.space):
        from nimlab.verification.indexed import warm_up_indexed

        warm_up_indexed(spec)  # tabulated and compiled once, inherited by the workers
    elif spec.compiled:
        from nimlab.verification.compiled import warm_up_compiled

        warm_up_compiled(spec)


def chunk_results(
    spec: CheckSpec,
    backend: str,
    pending: list[int],
    n_workers: int,
    stop: list[int],
    scheduler: str | None = None,
    stored: bool = True,
) -> Iterator[ChunkResult]:
    """The results of the *pending* chunks of *spec* on *backend*, as they come; *stop*
    holds the first failing chunk once one is known (later chunks are skipped).

    Examples
    --------
    >>> from nimlab import game
    >>> from nimlab.verification.expr import parse_expression
    >>> from nimlab.verification.local import ExprClaim
    >>> from nimlab.verification.spaces import BoxSpace
    >>> spec = CheckSpec(game("nim"), "grundy", ExprClaim(parse_expression("a", 1, {})),
    ...                  BoxSpace(1, 3), "a", 3)
    >>> [r.count for r in chunk_results(spec, "serial", [0, 1, 2], 1, [])]
    [1, 1, 1]
    """
    if backend == "serial":
        return _serial(spec, pending, stop)
    if backend == "threads":
        from nimlab.verification.pool import thread_chunks, warm_up_threads

        warm_up_threads(spec)
        return thread_chunks(spec, pending, n_workers, stop)
    if backend == "processes":
        _warm_up_processes(spec)
        blob = dumps_spec(spec)
        if needs_prepare(spec):  # the chunks' shared set-up, in parallel, merged here
            parts = _prepare_processes(blob, spec.space.n_chunks, n_workers)
            install_prepared(spec, parts)  # inherited by the workers forked below
        return _processes(blob, pending, n_workers, stop)
    from nimlab.verification.cluster import remember_spec

    blob = remember_spec(spec, dumps_spec(spec))
    return _dask(blob, pending, n_workers, scheduler, stop, stored=stored)
