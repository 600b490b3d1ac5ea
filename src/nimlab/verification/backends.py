"""Where a run's chunks are checked: in this process, on threads, on a process pool or on
a Dask cluster (:func:`choose_backend`, :func:`chunk_results`), each yielding the chunks'
results as they come (the runner stores each at once, so a killed run resumes).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import pickle
import re
import sys
import time
from collections.abc import Iterator
from typing import Any

from nimlab.core.errors import InvalidParameterError, NimlabError
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
    from nimlab.core.errors import ClusterError

    where = f"the Dask scheduler at {scheduler}" if scheduler else "the local Dask cluster"
    then = (
        "the chunks checked so far are in the store: run the same command with --resume to continue"
        if stored
        else "nothing was stored (--no-store): run the command again"
    )
    if type(exc).__name__ == "KilledWorker":  # the scheduler gave up a task: its workers died
        tries = getattr(exc, "allowed_failures", None)
        last = getattr(getattr(exc, "last_worker", None), "address", None)
        who = f" ({last})" if last else ""
        said = (
            f", and the scheduler gives a task no more tries "
            f"(distributed.scheduler.allowed-failures = {tries})"
            if isinstance(tries, int)
            else ""
        )
        return ClusterError(
            f"a Dask worker{who} of {where} died while checking chunks{said}; {then}"
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
    >>> from nimlab.verification.expr import parse_expression
    >>> from nimlab.verification.local import ExprClaim
    >>> from nimlab.verification.spaces import BoxSpace
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
    own = True  # a client made here is closed here
    held = _held_client(dist, scheduler) if scheduler else None
    if held is not None:
        client, own = held, False  # this session's client of the same scheduler: no start-up
    elif scheduler:
        try:
            client = Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as exc:
            from nimlab.core.errors import ClusterError

            raise ClusterError(
                f"cannot reach the Dask scheduler at {scheduler!r} ({exc}); start one with "
                "`dask scheduler` and workers with `dask worker ADDRESS`"
            ) from None
    else:
        import signal
        import threading

        # the workers ignore Ctrl-C (they inherit SIG_IGN): this process stops them, and
        # no worker prints its own KeyboardInterrupt traceback
        main = threading.current_thread() is threading.main_thread()
        old_int = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            cluster = _local_cluster(LocalCluster, workers)
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
        if own:
            client.close()
        if cluster is not None:
            cluster.close()


def _local_cluster(make: Any, workers: int) -> Any:
    """A local Dask cluster of *workers* single-threaded worker processes, its workers'
    stack sampling off (the dashboard's profile: every 10 ms it takes Python's lock in
    the worker, about a quarter of a short check's CPU)."""
    import logging

    import dask

    with dask.config.set({"distributed.worker.profile.enabled": False}):
        return make(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            # the scheduler's HTTP server (health checks) on a free loopback port: its
            # default, 8787, warns on stderr when another cluster holds it
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.CRITICAL,
        )


def _held_client(dist: Any, scheduler: str) -> Any:
    """This session's Dask client (``distributed.default_client()``, the last one made)
    when it is connected to *scheduler*, else None: a run reuses it instead of making
    and closing its own (a second or so of start-up for a short run)."""
    find = getattr(dist, "default_client", None)
    if find is None:
        return None
    try:
        client = find()
        address = client.scheduler.address
    except (ValueError, AttributeError):
        return None
    if getattr(client, "status", "") != "running":
        return None
    return client if address == scheduler.strip() else None


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
    return _dask(dumps_spec(spec), pending, n_workers, scheduler, stop, stored=stored)
