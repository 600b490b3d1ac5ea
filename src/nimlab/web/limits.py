"""Bounds on the work of one web request, and the pool that enforces the time limit.

Every request of the playground is small by construction: its body is capped
(:attr:`Limits.max_body_bytes`), its searches have position budgets
(:attr:`Limits.max_positions`), and the computation runs in a worker thread that the
request stops waiting for after :attr:`Limits.time_limit` seconds. Cheap work (closed
forms, small scans) runs in a fast lane of its own, so that expensive requests never
make it wait; expensive work runs in the slow lane. A computation that outlives its
request keeps its worker slot until it stops, which its deadline makes soon (a search
checks it as it reports progress), so slow requests can never pile up more than
:attr:`Limits.workers` busy threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Busy", "Limits", "RemoteError", "TooSlow", "WorkerPool", "heavy", "in_fast_lane"]

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """The bounds of one request (all have defaults that suit a shared classroom server).

    Attributes
    ----------
    max_body_bytes : int
        Largest request body accepted (larger ones get status 413).
    time_limit : float
        Seconds a request may wait for its computation (queue and work together).
    workers : int
        Computations of the slow lane running at once (threads).
    fast_workers : int
        Threads of the fast lane, where every request starts (0: one lane only).
    fast_slice : float
        Seconds a request may compute in the fast lane before it moves to the slow lane.
    fast_moves : int
        Most moves a request may scan in the fast lane.
    processes : bool
        Whether the slow lane's workers are processes (``nimlab serve``) rather than threads.
    max_waiting : int
        Requests that may wait for a worker; more get status 429.
    max_positions : int
        Budget of positions of every exhaustive search of a request.
    max_moves : int
        Budget of options listed by the searches of a request.
    max_options : int
        Options of the current position listed (and coloured) in one answer.
    max_position_chars : int
        Longest position text.
    max_tokens : int
        Most heaps (or groups, or coins) in a position.
    tree_nodes : int
        Largest game tree drawn.
    max_table : int
        Largest side of a Grundy table.
    max_players : int
        Most players of a multiplayer game.

    Examples
    --------
    >>> Limits().time_limit
    10.0
    """

    max_body_bytes: int = 16_384
    time_limit: float = 10.0
    workers: int = 4
    fast_workers: int = 2
    fast_slice: float = 0.25
    fast_moves: int = 20_000
    processes: bool = False
    max_waiting: int = 512
    max_positions: int = 200_000
    max_moves: int = 400_000
    max_options: int = 64
    max_position_chars: int = 1_000
    max_tokens: int = 40
    tree_nodes: int = 60
    max_table: int = 24
    max_players: int = 8


class Busy(Exception):
    """Too many requests are waiting for a worker."""


class TooSlow(Exception):
    """A computation did not finish within the request's time limit."""


class _SlowLane(Exception):
    """Raised in the fast lane: this work belongs to the slow lane (see :func:`heavy`)."""


_lane = threading.local()


def in_fast_lane() -> bool:
    """Whether the calling thread runs a request of the fast lane.

    Examples
    --------
    >>> in_fast_lane()
    False
    """
    return bool(getattr(_lane, "fast", False))


def heavy() -> None:
    """Declare that the work about to start may be long: in the fast lane, the request
    moves to the slow lane (it starts again there); elsewhere nothing happens.

    The service calls it before a search or a scan that no closed form bounds, so that
    expensive requests leave the fast lane at once instead of after its time slice.

    Examples
    --------
    >>> heavy()  # not in the fast lane: nothing to do
    """
    if in_fast_lane():
        raise _SlowLane


def _process_job(fn: Callable[..., T], args: tuple[object, ...], seconds: float) -> object:
    """Run ``fn(*args)`` in a worker process under its deadline; the answer as plain values
    (an error of nimlab as its type name, message and status, since error classes need
    not cross processes)."""
    import nimlab
    from nimlab._progress import OutOfTime, deadline

    try:
        with deadline(seconds):
            return ("ok", fn(*args))
    except OutOfTime:
        return ("slow", None)
    except nimlab.NimlabError as e:
        status = 422 if isinstance(e, nimlab.SearchTooLargeError) else 400
        return ("error", (type(e).__name__, str(e), status))


class RemoteError(Exception):
    """An error of nimlab raised in a worker process: its type name, message and status."""

    def __init__(self, kind: str, message: str, status: int) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status


class WorkerPool:
    """Threads (and processes) that run the computations of requests, in two lanes.

    Every request starts in the **fast lane** (``limits.fast_workers`` threads), where it
    may compute for ``limits.fast_slice`` seconds: the answers of closed forms, small
    searches, moves and pages end there. A request that declares heavy work
    (:func:`heavy`) or outlives its slice moves to the **slow lane** (``limits.workers``
    workers) and starts again there, so expensive requests never make cheap ones wait.
    With ``limits.processes`` the slow lane is made of worker processes (``nimlab serve``
    does so): their searches then hold no lock of the server's process, whose event loop
    and fast lane stay responsive under any load. A slot is taken before the work starts
    and given back when the work ends (not when the request stops waiting), so at most
    ``limits.workers`` slow computations run at once; and every computation runs under
    :func:`nimlab._progress.deadline`, so a search stops soon after its request's time
    limit instead of at the end of its budget.

    Parameters
    ----------
    limits : Limits
        The bounds.
    process_init : callable, optional
        Run by each worker process when it starts, with *init_args* (a function of a
        module: :func:`nimlab.web.service.start_worker` loads the server's games).
    init_args : tuple
        Its arguments.

    Examples
    --------
    >>> pool = WorkerPool(Limits(workers=2, time_limit=5))
    >>> asyncio.run(pool.run(sum, [1, 2, 3]))
    6
    >>> pool.shutdown()
    """

    def __init__(
        self,
        limits: Limits,
        process_init: Callable[..., None] | None = None,
        init_args: tuple[Any, ...] = (),
    ) -> None:
        self.limits = limits
        self.process_init = process_init
        self.init_args = init_args
        self._executor = ThreadPoolExecutor(limits.workers, thread_name_prefix="nimlab-web")
        self._fast_executor = (
            ThreadPoolExecutor(limits.fast_workers, thread_name_prefix="nimlab-web-fast")
            if limits.fast_workers
            else None
        )
        self._processes: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._waiting = 0
        self._slots: dict[tuple[asyncio.AbstractEventLoop, bool], asyncio.Semaphore] = {}

    def _semaphore(self, loop: asyncio.AbstractEventLoop, fast: bool) -> asyncio.Semaphore:
        with self._lock:
            sem = self._slots.get((loop, fast))
            if sem is None:
                n = self.limits.fast_workers if fast else self.limits.workers
                sem = self._slots[(loop, fast)] = asyncio.Semaphore(n)
            return sem

    def _process_pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._processes is None:
                import multiprocessing

                self._processes = ProcessPoolExecutor(
                    self.limits.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=self.process_init,
                    initargs=self.init_args,
                )
            return self._processes

    async def start(self) -> None:
        """Start the threads (and worker processes) now, so that a burst of requests does
        not wait for them to start."""
        loop = asyncio.get_running_loop()
        # (a thread starts per job submitted while none is idle)
        starts = [loop.run_in_executor(self._executor, int) for _ in range(self.limits.workers)]
        if self._fast_executor is not None:
            starts += [
                loop.run_in_executor(self._fast_executor, int)
                for _ in range(self.limits.fast_workers)
            ]
        await asyncio.gather(*starts)
        if self.limits.processes:
            procs = self._process_pool()
            for _ in range(self.limits.workers):
                procs.submit(int)

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """Run ``fn(*args)`` in a worker; raise :class:`TooSlow` past the time limit.

        In the slow lane with processes, *fn* and *args* must be picklable (a function of
        a module and plain values); a closure then stays in the slow lane's threads.
        """
        loop = asyncio.get_running_loop()
        until = loop.time() + self.limits.time_limit
        if self._fast_executor is not None:
            try:
                return await self._run(loop, True, until, fn, args)
            except _SlowLane:
                pass
        return await self._run(loop, False, until, fn, args)

    async def _run(
        self,
        loop: asyncio.AbstractEventLoop,
        fast: bool,
        until: float,
        fn: Callable[..., T],
        args: tuple[object, ...],
    ) -> T:
        from nimlab._progress import OutOfTime, deadline

        sem = self._semaphore(loop, fast)
        with self._lock:
            if self._waiting >= self.limits.max_waiting:
                raise Busy("the server is busy; try again in a few seconds")
            self._waiting += 1
        try:
            try:
                await asyncio.wait_for(sem.acquire(), timeout=max(until - loop.time(), 0.01))
            except TimeoutError:
                raise TooSlow(self._slow_message()) from None
        finally:
            with self._lock:
                self._waiting -= 1
        # the work's own deadline: the fast lane's slice, else the request's time limit
        allowed = max(until - loop.time(), 0.0)
        if fast:
            allowed = min(allowed, self.limits.fast_slice)

        def release(_: object = None) -> None:
            # (RuntimeError: the event loop has closed, the server shut down)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(sem.release)

        def job() -> T:
            _lane.fast = fast
            try:
                with deadline(allowed):
                    return fn(*args)
            except OutOfTime:
                if fast:
                    raise _SlowLane from None
                raise TooSlow(self._slow_message()) from None
            finally:
                _lane.fast = False
                release()

        remote = not fast and self.limits.processes and _picklable(fn, args)
        procs = self._process_pool() if remote else None
        try:
            if procs is not None:
                cf = procs.submit(_process_job, fn, args, allowed)
                cf.add_done_callback(release)
                fut: asyncio.Future[Any] = asyncio.wrap_future(cf, loop=loop)
            else:
                fut = loop.run_in_executor(self._fast_executor if fast else self._executor, job)
        except BrokenProcessPool:
            sem.release()
            raise self._lost(procs) from None
        except BaseException:
            sem.release()
            raise
        # an answer nobody waits for any more (its request timed out) is dropped quietly
        fut.add_done_callback(_consume)
        remaining = max(until - loop.time(), 0.01)
        try:
            out = await asyncio.wait_for(asyncio.shield(fut), timeout=remaining)
        except TimeoutError:
            raise TooSlow(self._slow_message()) from None
        except BrokenProcessPool:
            raise self._lost(procs) from None
        if not remote:
            return out  # type: ignore[no-any-return]
        status, value = out
        if status == "slow":
            raise TooSlow(self._slow_message())
        if status == "error":
            kind, message, code = value
            raise RemoteError(kind, message, code)
        return value  # type: ignore[no-any-return]

    def _lost(self, broken: ProcessPoolExecutor | None) -> RemoteError:
        """A worker process ended abruptly (killed, out of memory, or a game that called
        ``os._exit``): new ones start for the next requests, and this one is told so."""
        with self._lock:
            if self._processes is broken:
                self._processes = None
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)
        return RemoteError(
            "WorkerLost",
            "the computation stopped abruptly (its worker process ended); try again, or "
            "try a smaller position",
            422,
        )

    def _slow_message(self) -> str:
        return (
            f"this request needs more than the time limit of {self.limits.time_limit:g} s; "
            "try a smaller position"
        )

    def shutdown(self) -> None:
        """Stop the threads and processes (running computations end at their deadline)."""
        self._executor.shutdown(wait=True, cancel_futures=True)
        if self._fast_executor is not None:
            self._fast_executor.shutdown(wait=True, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)


def _consume(fut: asyncio.Future[Any]) -> None:
    if not fut.cancelled():
        fut.exception()


def _picklable(fn: Callable[..., Any], args: tuple[object, ...]) -> bool:
    """Whether ``fn(*args)`` can be sent to a worker process (a closure cannot)."""
    import pickle

    try:
        pickle.dumps((fn, args))
    except Exception:
        return False
    return True
