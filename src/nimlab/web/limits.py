"""Bounds on the work of one web request, and the pool that enforces the time limit.

Every request of the playground is small by construction: its body is capped
(:attr:`Limits.max_body_bytes`), its searches have position budgets
(:attr:`Limits.max_positions`), and the computation runs in a worker thread that the
request stops waiting for after :attr:`Limits.time_limit` seconds. A computation that
outlives its request keeps its worker slot until it ends (its search budget ends it), so
slow requests can never pile up more than :attr:`Limits.workers` busy threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["Busy", "Limits", "TooSlow", "WorkerPool"]

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
        Computations running at once (threads).
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


class WorkerPool:
    """Threads that run the computations of requests, each with a time limit.

    A slot is taken before the work starts and given back when the work ends (not when
    the request stops waiting), so at most ``limits.workers`` computations run at once.

    Examples
    --------
    >>> pool = WorkerPool(Limits(workers=2, time_limit=5))
    >>> asyncio.run(pool.run(sum, [1, 2, 3]))
    6
    >>> pool.shutdown()
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._executor = ThreadPoolExecutor(limits.workers, thread_name_prefix="nimlab-web")
        self._lock = threading.Lock()
        self._waiting = 0
        self._slots: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}

    def _semaphore(self, loop: asyncio.AbstractEventLoop) -> asyncio.Semaphore:
        with self._lock:
            sem = self._slots.get(loop)
            if sem is None:
                sem = self._slots[loop] = asyncio.Semaphore(self.limits.workers)
            return sem

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """Run ``fn(*args)`` in a worker thread; raise :class:`TooSlow` past the time limit."""
        loop = asyncio.get_running_loop()
        sem = self._semaphore(loop)
        with self._lock:
            if self._waiting >= self.limits.max_waiting:
                raise Busy("the server is busy; try again in a few seconds")
            self._waiting += 1
        deadline = loop.time() + self.limits.time_limit
        try:
            try:
                await asyncio.wait_for(sem.acquire(), timeout=self.limits.time_limit)
            except TimeoutError:
                raise TooSlow(self._slow_message()) from None
        finally:
            with self._lock:
                self._waiting -= 1

        def job() -> T:
            try:
                return fn(*args)
            finally:
                # (RuntimeError: the event loop has closed, the server shut down)
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(sem.release)

        try:
            fut = loop.run_in_executor(self._executor, job)
        except BaseException:
            sem.release()
            raise
        remaining = max(deadline - loop.time(), 0.01)
        try:
            return await asyncio.wait_for(asyncio.shield(fut), timeout=remaining)
        except TimeoutError:
            raise TooSlow(self._slow_message()) from None

    def _slow_message(self) -> str:
        return (
            f"this request needs more than the time limit of {self.limits.time_limit:g} s; "
            "try a smaller position"
        )

    def shutdown(self) -> None:
        """Stop the threads (waits for running computations)."""
        self._executor.shutdown(wait=True, cancel_futures=True)
