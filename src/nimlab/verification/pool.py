"""Chunks on several threads of this process: the compiled and vectorised checks.

Their kernels run without Python's global lock (numba ``nogil``), so threads share the
work with no process to start, nothing to pickle and nothing to merge: the compiled
claim, the move model, a P-set check's option index and the vectorised check's line
state are in this process's memory once. :func:`thread_chunks` yields each chunk's
result as it is checked (the runner stores it at once, so a killed run resumes).

- The vectorised check of a box (:class:`~nimlab.verification._columns.ColumnRun`): the
  columns in bands, each keeping its columns' line state (together one worker's); a free
  thread checks the next chunk of a band whose left neighbour has passed that chunk,
  continuing the chunk's row state from it (no position is read twice).
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
        self.times: dict[str, list[float]] = {}

    def mark(self, k: int, what: str) -> None:
        """Note when thread *k* reached *what*, for the figures."""
        _mark(self.times, k, what)

    def emit(self, i: int, count: int, failure: Failure | None, method: str, t0: float) -> None:
        self.results.put(ChunkResult(i, count, time.perf_counter() - t0, failure, method))

    def start(self, targets: list[Callable[[], None]]) -> None:
        def run(k: int, target: Callable[[], None]) -> None:
            c0 = time.thread_time()
            try:
                target()
            except BaseException as exc:  # handed to the main thread, which raises it
                self.cancel.set()
                self.results.put(exc)
            finally:
                self.cpu.append(time.thread_time() - c0)
                self.mark(k, "end")
                self.results.put(None)

        self.figures: dict[str, Any] = {
            "start": time.perf_counter(),
            "cpu": self.cpu,
            "times": self.times,
        }
        RUNS[:] = [*RUNS[-99:], self.figures]

        for k, target in enumerate(targets):
            t = threading.Thread(
                target=run, args=(k, target), name=f"nimlab-check-{k}", daemon=True
            )
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
                elif isinstance(got, list):
                    yield from got
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


#: A thread takes about this many seconds of chunks at a time (at the rate it measured so
#: far; one chunk first) and hands their results over together: a run of many short
#: chunks costs a few hand-overs (each wakes the main thread), not one per chunk.
BATCH_SECONDS = 0.02


class _Queue:
    """Chunks handed out to threads in the given order, a batch at a time: about
    :data:`BATCH_SECONDS` of work at the taker's rate, never more than a ``1 / (2 W)``
    share of what is left (so the threads end together); chunks after ``stop[0]`` (the
    first failure, once known) are dropped."""

    def __init__(self, chunks: list[int], workers: int, stop: list[int]) -> None:
        import collections

        self.todo = collections.deque(chunks)
        self.workers, self.stop = workers, stop
        self.lock = threading.Lock()

    def take(self, seconds: float, done: int) -> list[int]:
        """The next batch of a thread that took *seconds* for its *done* chunks so far."""
        with self.lock:
            share = len(self.todo) // (2 * self.workers)
            n = 1 if done == 0 or seconds <= 0 else int(BATCH_SECONDS * done / seconds)
            n = max(1, min(n, share))
            out: list[int] = []
            while self.todo and len(out) < n:
                i = self.todo.popleft()
                if not (self.stop and i > self.stop[0]):
                    out.append(i)
            return out


def _chunk_targets(
    spec: Any, pending: list[int], workers: int, stop: list[int], pool: _Threads
) -> list[Callable[[], None]]:
    """Threads that take the chunks in batches (after recording the option index)."""
    from nimlab.verification.chunks import chunk_checker, needs_prepare

    index = _SharedIndex(spec, workers, pool.cancel, pool.times) if needs_prepare(spec) else None
    todo = _Queue(list(pending), workers, stop)
    check = chunk_checker(spec)

    def target(k: int) -> Callable[[], None]:
        def run() -> None:
            if index is not None and not index.build(k):
                return
            seconds, done = 0.0, 0
            while not pool.cancel.is_set():
                batch = todo.take(seconds, done)
                if not batch:
                    break
                out = []
                t0 = time.perf_counter()
                for i in batch:
                    if pool.cancel.is_set() or (stop and i > stop[0]):
                        break
                    res = check(i)
                    out.append(res)
                    if res.failure is not None:
                        break  # handed over at once: the runner learns where to stop
                seconds += time.perf_counter() - t0
                done += len(out)
                pool.results.put(out)

        return run

    return [target(k) for k in range(workers)]


class _SharedIndex:
    """The option index of a compiled P-set check, recorded by several threads: each
    notes the claimed P-positions of the chunks it takes (largest first, so the threads
    end together) into its own part (parts are shared by turns when they would take too
    much memory), then all OR the parts by slices, and the merged index is installed for
    the checks."""

    def __init__(
        self, spec: Any, workers: int, cancel: threading.Event, times: dict[str, list[float]]
    ) -> None:
        from nimlab.verification._heapwalks import _starts
        from nimlab.verification.compiled import index_cells, index_noter

        self.spec, self.cancel = spec, cancel
        cells = index_cells(spec)
        self.n_parts = max(1, min(workers, MAX_PART_BYTES // max(cells, 1)))
        self.parts: list[Any] = [None] * self.n_parts
        self.locks = [threading.Lock() for _ in range(self.n_parts)]
        self.cells = cells
        sp = spec.space
        sizes = [_starts(sp, i)[1] for i in range(sp.n_chunks)]
        self.todo = _Queue(sorted(range(sp.n_chunks), key=lambda i: -sizes[i]), workers, [])
        self.note = index_noter(spec)
        self.noted = threading.Barrier(workers)
        self.merged = threading.Barrier(workers)
        self.installed = threading.Barrier(workers)
        self.workers = workers
        self.times = times

    def build(self, k: int) -> bool:
        """Thread *k*'s share of the index; False when the run was cancelled."""
        import numpy as np

        from nimlab.verification.compiled import install_merged

        p = k % self.n_parts
        try:
            seconds, done = 0.0, 0
            while not self.cancel.is_set():
                batch = self.todo.take(seconds, done)
                if not batch:
                    break
                t0 = time.perf_counter()
                with self.locks[p]:
                    if self.parts[p] is None:
                        self.parts[p] = np.zeros(self.cells, dtype=np.uint8)
                    for i in batch:
                        self.note(i, self.parts[p])
                seconds += time.perf_counter() - t0
                done += len(batch)
            _mark(self.times, k, "noted")
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
            _mark(self.times, k, "installed")
        except threading.BrokenBarrierError:
            return False
        except BaseException:
            for b in (self.noted, self.merged, self.installed):
                b.abort()
            raise
        return True


def _mark(times: dict[str, list[float]], k: int, what: str) -> None:
    """Note when thread *k* reached *what* (``time.perf_counter()``), for the figures."""
    got = times.setdefault(what, [])
    got.extend([0.0] * (k + 1 - len(got)))
    got[k] = time.perf_counter()
