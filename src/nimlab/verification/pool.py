"""Chunks on several threads of this process: the compiled and vectorised checks.

Their kernels run without Python's global lock (numba ``nogil``), so threads share the
work with no process to start, nothing to pickle and nothing to merge: the compiled
claim, the move model, a P-set check's option index and the vectorised check's line
state are in this process's memory once. :func:`thread_chunks` yields each chunk's
result as it is checked (the runner stores it at once, so a killed run resumes).

- The vectorised check of a box (:class:`~nimlab.verification._columns.ColumnRun`): thread
  k of W checks the columns k, k + W, ... of every row (so the threads' line states
  together are one worker's, and their shares are equal), each chunk's claim evaluated
  once, by one thread in turn, for all.
- The compiled check: threads take the chunks one at a time; a P-set check with an
  option index first records every chunk's claimed P-positions (each thread in its own
  part of the index, ORed by slices in parallel), then checks.

Threads are used for specs whose kernels release the lock (:func:`uses_threads`); the
Python path and index spaces keep the process pool of the runner. ``NIMLAB_VERIFY_POOL=
processes`` asks for the process pool always (for comparison and tests).
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from nimlab.core.errors import InvalidParameterError
from nimlab.verification.chunks import check_chunk
from nimlab.verification.local import ChunkResult, Failure
from nimlab.verification.spaces import heap_walk

__all__ = ["POOL_ENV", "thread_chunks", "uses_threads", "warm_up_threads"]

POOL_ENV = "NIMLAB_VERIFY_POOL"
#: Bytes of option index all threads' parts may take together (else they share fewer).
MAX_PART_BYTES = 1 << 29


def uses_threads(spec: Any) -> bool:
    """Whether the chunks of *spec* run on threads (compiled or vectorised kernels that
    release Python's lock), not on the process pool.

    Examples
    --------
    >>> from nimlab.verification.runner import conjecture_spec
    >>> uses_threads(conjecture_spec("nim", "a ^ b ^ c", bound=6))
    True
    >>> uses_threads(conjecture_spec("nim", "a ^ b ^ c", bound=6, compiled=False))
    False
    """
    choice = os.environ.get(POOL_ENV, "").strip().lower()
    if choice not in ("", "threads", "processes"):
        raise InvalidParameterError(
            f"environment variable {POOL_ENV} must be threads or processes, got {choice[:40]!r}"
        )
    if choice == "processes":
        return False
    from nimlab.planner import Method, check_method
    from nimlab.verification import compiled, fast  # noqa: F401 - they register their tests

    method = check_method(spec)
    if method is Method.VECTORISED_CHECK:
        return True
    return method is Method.COMPILED_CHECK and heap_walk(spec.space)


def warm_up_threads(spec: Any) -> None:
    """Load (or compile) the kernels of *spec* and fill its caches once, before the
    threads start."""
    if getattr(spec, "fast", False):
        from nimlab.verification.fast import warm_up

        warm_up()
    else:
        from nimlab.verification.compiled import warm_up_compiled

        warm_up_compiled(spec)


#: Figures of the threaded runs of this process, the last 100 (for benchmarks): each
#: with ``start`` and ``end`` (``time.perf_counter()`` when its first thread started and
#: its last ended) and ``cpu``, each thread's CPU seconds.
RUNS: list[dict[str, Any]] = []


class _Threads:
    """Threads running *targets*, their results on one queue, stopped together."""

    def __init__(self) -> None:
        self.results: queue.Queue[Any] = queue.Queue()
        self.cancel = threading.Event()
        self.threads: list[threading.Thread] = []
        self.cpu: list[float] = []

    def emit(self, i: int, count: int, failure: Failure | None, method: str, t0: float) -> None:
        self.results.put(ChunkResult(i, count, time.perf_counter() - t0, failure, method))

    def start(self, targets: list[Callable[[], None]]) -> None:
        def run(target: Callable[[], None]) -> None:
            c0 = time.thread_time()
            try:
                target()
            except BaseException as exc:  # handed to the main thread, which raises it
                self.cancel.set()
                self.results.put(exc)
            finally:
                self.cpu.append(time.thread_time() - c0)
                self.results.put(None)

        self.figures: dict[str, Any] = {"start": time.perf_counter(), "cpu": self.cpu}
        RUNS[:] = [*RUNS[-99:], self.figures]

        for k, target in enumerate(targets):
            t = threading.Thread(target=run, args=(target,), name=f"nimlab-check-{k}", daemon=True)
            self.threads.append(t)
            t.start()

    def drain(self) -> Iterator[ChunkResult]:
        left = len(self.threads)
        try:
            while left:
                got = self.results.get()
                if got is None:
                    left -= 1
                elif isinstance(got, BaseException):
                    raise got
                else:
                    yield got
        finally:
            self.cancel.set()  # the consumer stopped (an error, Ctrl-C): every thread ends
            for t in self.threads:
                t.join()
            self.figures["end"] = time.perf_counter()


def thread_chunks(
    spec: Any, pending: list[int], workers: int, stop: list[int]
) -> Iterator[ChunkResult]:
    """Check the *pending* chunks of *spec* on *workers* threads, yielding each result
    as it comes; chunks after ``stop[0]`` (the first failure, once known) are skipped."""
    pool = _Threads()
    if getattr(spec, "fast", False):
        targets = _block_targets(spec, pending, workers, stop, pool)
    else:
        targets = _chunk_targets(spec, pending, workers, stop, pool)
    pool.start(targets)
    yield from pool.drain()


def _block_targets(
    spec: Any, pending: list[int], workers: int, stop: list[int], pool: _Threads
) -> list[Callable[[], None]]:
    from nimlab.verification._columns import ColumnRun

    run = ColumnRun(spec, pending, workers, stop, pool.cancel)
    python = replace(spec, fast=False)

    def target(j: int) -> Callable[[], None]:
        t0 = [time.perf_counter()]

        def emit(i: int, count: int, failure: Failure | None, method: str) -> None:
            pool.emit(i, count, failure, method, t0[0])
            t0[0] = time.perf_counter()

        def exact(i: int) -> None:
            res = check_chunk(python, i)
            pool.results.put(replace(res, method="python"))
            t0[0] = time.perf_counter()

        return lambda: run.run(j, emit, exact)

    return [target(j) for j in range(run.workers)]


def _chunk_targets(
    spec: Any, pending: list[int], workers: int, stop: list[int], pool: _Threads
) -> list[Callable[[], None]]:
    """Threads that take the chunks one at a time (after recording the option index)."""
    from nimlab.verification.chunks import needs_prepare

    todo = iter(list(pending))
    lock = threading.Lock()
    index = _SharedIndex(spec, workers, pool.cancel) if needs_prepare(spec) else None

    def take() -> int | None:
        with lock:
            for i in todo:
                if not (stop and i > stop[0]):
                    return i
            return None

    def target(k: int) -> Callable[[], None]:
        def run() -> None:
            if index is not None and not index.build(k):
                return
            while not pool.cancel.is_set():
                i = take()
                if i is None:
                    return
                res = check_chunk(spec, i)
                pool.results.put(res)

        return run

    return [target(k) for k in range(workers)]


class _SharedIndex:
    """The option index of a compiled P-set check, recorded by several threads: each
    notes the claimed P-positions of the chunks it takes into its own part (parts are
    shared by turns when they would take too much memory), then all OR the parts by
    slices, and the merged index is installed for the checks."""

    def __init__(self, spec: Any, workers: int, cancel: threading.Event) -> None:
        from nimlab.verification.compiled import index_cells

        self.spec, self.cancel = spec, cancel
        cells = index_cells(spec)
        self.n_parts = max(1, min(workers, MAX_PART_BYTES // max(cells, 1)))
        self.parts: list[Any] = [None] * self.n_parts
        self.locks = [threading.Lock() for _ in range(self.n_parts)]
        self.cells = cells
        self.todo = iter(range(spec.space.n_chunks))
        self.lock = threading.Lock()
        self.noted = threading.Barrier(workers)
        self.merged = threading.Barrier(workers)
        self.installed = threading.Barrier(workers)
        self.workers = workers

    def build(self, k: int) -> bool:
        """Thread *k*'s share of the index; False when the run was cancelled."""
        import numpy as np

        from nimlab.verification.compiled import install_merged, note_chunk

        p = k % self.n_parts
        try:
            while not self.cancel.is_set():
                with self.lock:
                    i = next(self.todo, None)
                if i is None:
                    break
                with self.locks[p]:
                    if self.parts[p] is None:
                        self.parts[p] = np.zeros(self.cells, dtype=np.uint8)
                    note_chunk(self.spec, i, self.parts[p])
            self.noted.wait()
            parts = [q for q in self.parts if q is not None]
            if parts:
                lo = self.cells * k // self.workers
                hi = self.cells * (k + 1) // self.workers
                for q in parts[1:]:
                    np.bitwise_or(parts[0][lo:hi], q[lo:hi], out=parts[0][lo:hi])
            self.merged.wait()
            if k == 0:
                merged = parts[0] if parts else np.zeros(self.cells, np.uint8)
                install_merged(self.spec, merged)
            self.installed.wait()
        except threading.BrokenBarrierError:
            return False
        except BaseException:
            for b in (self.noted, self.merged, self.installed):
                b.abort()
            raise
        return True
