"""The worker's side of a chunked canonical solve (:mod:`nimlab.engine.chunked`): the
values solved so far in this process, the parts solved and written, the assembly.

A task (:func:`solve_parts`, :func:`assemble`) runs in a Dask worker or in the calling
process alike. It first brings the process's values up to date from the chunks of the
levels below that other workers wrote, so a worker started after another was lost, or a
task run again, gives the same values.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from nimlab.core.errors import InvalidParameterError, NimlabError
from nimlab.engine import _chunkstore as store
from nimlab.engine._chunkstore import Run
from nimlab.engine._levels import get, put

__all__: list[str] = []

_KINDS = {"grundy": 0, "outcome": 1, "misere": 2}


# Outcome tables are kept two bits a position (uint64 words: bit 0 known, bit 1 the
# outcome), the layout of the wavefront's own packed levels, read and written by its
# get and put (nimlab.engine._levels: a quarter of a byte a position); Grundy values in
# the engine's int32 array.


@njit(cache=True)
def walk(n, lo, total, tasks, cb, state, vals, mode):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """The sorted positions of *total* stones whose two largest heaps are the rows of
    *tasks*, in a fixed order: ``mode`` 1 copies their values out (``vals[j] =
    state[rank]``), 2 back in; returns their number."""
    q = 2 if n > 2 else 1
    k = n - q
    p = np.empty(n, np.int64)
    a = np.empty(max(k, 1), np.int64)
    rem = np.empty(max(k, 1), np.int64)
    j = 0
    for t in range(tasks.shape[0]):
        p[n - 1] = tasks[t, 0]
        cap = tasks[t, 0]
        r = total - tasks[t, 0]
        if q == 2:
            p[n - 2] = tasks[t, 1]
            cap = tasks[t, 1]
            r -= cap
        i = 0
        rem[0] = r
        a[0] = max(lo, r - (k - 1) * cap) - 1 if k > 1 else r - 1
        while i >= 0:
            a[i] += 1
            if k == 1:
                if a[0] > r or r < lo or r > cap:
                    break
                p[0] = r
            elif a[i] * (k - i) > rem[i]:
                i -= 1
                continue
            elif i < k - 2:
                rem[i + 1] = rem[i] - a[i]
                i += 1
                a[i] = max(a[i - 1], rem[i] - (k - 1 - i) * cap) - 1
                continue
            else:
                for m in range(k - 1):
                    p[m] = a[m]
                p[k - 1] = rem[k - 2] - a[k - 2]
            ix = 0
            for m in range(n):
                ix += cb[m, p[m]]
            if mode == 1:
                vals[j] = get(state, ix)
            elif mode == 2:
                put(state, ix, vals[j])
            j += 1
    return j


class _Worker:
    """The values a worker process has solved or read so far, for one run."""

    def __init__(self, run: Run) -> None:
        from nimlab.engine.compiled import _ranks

        size = _engine_count(run)
        if run.kind == "grundy":
            self.state = np.full(size, -1, dtype=np.int32)
            self.vals: Any = np.int32
        else:  # two bits a position, all unknown
            self.state = np.zeros((size + 31) // 32, dtype=np.uint64)
            self.vals = np.int8
        self.ranks = _ranks(run.side, run.heaps)
        self.gen = run.game.compiled_options()
        self.zero = (0,) * run.heaps
        self.levels = store.plan(run.heaps, run.low, run.side, run.chunk_positions)
        self.applied = 0  # levels below this index are all in ``state``
        self.own: set[tuple[int, int]] = set()  # parts of later levels already in it
        self.lock = threading.Lock()


def _engine_count(run: Run) -> int:
    """Positions of the engine's array: sorted heaps ``0..side-1`` (ranks from heap 0)."""
    import math

    return math.comb(run.side + run.heaps - 1, run.heaps)


_WORKERS: dict[tuple[str, int, str], _Worker] = {}
_WORKERS_LOCK = threading.Lock()


def _worker(run: Run) -> _Worker:
    key = (run.key, run.chunk_positions, run.directory)
    with _WORKERS_LOCK:
        w = _WORKERS.get(key)
        if w is None:
            _WORKERS.clear()  # another run's values
            w = _WORKERS[key] = _Worker(run)
        return w


def _catch_up(w: _Worker, run: Run, upto: int) -> None:
    """Bring the worker's values up to level index *upto* (excluded) from the chunks."""
    for li in range(w.applied, upto):
        total, tasks, parts = w.levels[li]
        for pi, span in enumerate(parts):
            if (li, pi) in w.own:
                continue
            vals = store.read_chunk(run, total, pi, span)
            got = walk(run.heaps, run.low, total, tasks[span[0] : span[1]], w.ranks, w.state,
                       vals.astype(w.vals), 2)  # fmt: skip
            assert got == span[2]
    w.applied = max(w.applied, upto)


def _set_threads(threads: int | None) -> None:
    """Numba's threads for this thread's parallel loops (a Dask worker: its own threads)."""
    if threads is None:
        try:
            from distributed import get_worker

            threads = int(get_worker().state.nthreads)
        except (ImportError, ValueError, AttributeError):
            return
    import numba

    most = int(getattr(numba.config, "NUMBA_NUM_THREADS", 1))
    numba.set_num_threads(max(1, min(threads, most)))


def solve_parts(
    run: Run, li: int, parts: list[int], *after: Any, threads: int | None = None
) -> int:
    """Solve parts *parts* of level index *li* and write their chunks (a Dask task; *after*:
    the previous level's tasks, whose chunks it reads). Returns the positions solved."""
    w = _worker(run)
    with w.lock:
        _set_threads(threads)
        _catch_up(w, run, li)
        total, tasks, spans = w.levels[li]
        todo = [p for p in parts if not store.chunk_done(run, total, p, spans[p])]
        for p in parts:
            if p not in todo and (li, p) not in w.own:  # done by a task lost with its worker
                vals = store.read_chunk(run, total, p, spans[p])
                rows = tasks[spans[p][0] : spans[p][1]]
                walk(run.heaps, run.low, total, rows, w.ranks, w.state,
                     vals.astype(w.vals), 2)  # fmt: skip
                w.own.add((li, p))
        if todo:
            _solve(run, w, li, todo)
        return sum(spans[p][2] for p in parts)


def solve_levels(run: Run, task: list[tuple[int, list[int]]], *after: Any) -> int:
    """Solve the parts of each level of *task* ``[(level index, parts), ...]`` in order
    (a Dask task; *after*: the tasks of the level below). Returns the positions solved."""
    return sum(solve_parts(run, li, parts) for li, parts in task)


def _wait_below(
    run: Run,
    w: _Worker,
    upto: int,
    ready: int,
    patience: float,
    owners: tuple[dict[tuple[int, int], int], set[int]],
    wanted: Callable[[], bool] = lambda: True,
) -> int:
    """Wait until every part of the levels below index *upto* is on disk (levels below
    *ready* are); a part still missing after *patience* seconds is solved here, and so is
    at once every later part of the worker that let it go missing. *owners*: the worker
    of each part (an index) and the workers given up on. :class:`_Dropped` once the task
    is no longer *wanted*."""
    owner_of, lost = owners
    for lj in range(ready, upto):
        total, _, spans = w.levels[lj]
        for p, span in enumerate(spans):
            owner = owner_of.get((lj, p), -1)
            start = time.perf_counter()
            pause = 0.0002
            while not store.chunk_done(run, total, p, span):
                if owner in lost or time.perf_counter() - start > patience:
                    solve_parts(run, lj, [p])
                    lost.add(owner)  # its next parts: solved here, not waited for
                    break
                if not wanted():
                    raise _Dropped(_DROPPED)
                time.sleep(pause)
                pause = min(2 * pause, 0.002)  # a stat and a sleep: cheap
    return max(ready, upto)


def worker_loop(run: Run, tasks: list[list[tuple[int, list[int]]]], me: int, ways: int) -> int:
    """The work of worker *me* of *ways* (a Dask task): every *ways*-th of *tasks*
    (runs of levels, or parts of a level), in order, each once the levels below it are
    on disk (written by the other workers: this loop waits for them, with no round trip
    to the scheduler). A part missing after ``run.patience`` seconds (at least; eight
    times this worker's last task when longer) is solved here, and so are the later
    parts of its worker (lost, or far behind: a part solved twice is written twice, the
    same) without waiting for them. A loop its client dropped (a Ctrl-C, a lost client or
    scheduler: Dask cannot stop a running task) stops between parts with an error (never
    a result: its parts are not all on disk) instead of solving the rest of the table for
    no one. Returns the positions solved here."""
    w = _worker(run)
    wanted = _still_wanted()
    ready = 0
    solved = 0
    patience = run.patience
    owner_of = {
        (li, p): turn % ways for turn, task in enumerate(tasks) for li, ps in task for p in ps
    }
    lost: set[int] = set()
    for turn, task in enumerate(tasks):
        ready = _wait_below(run, w, task[0][0], ready, patience, (owner_of, lost), wanted)
        if turn % ways == me:
            if not wanted():
                raise _Dropped(_DROPPED)
            t0 = time.perf_counter()
            solved += solve_levels(run, task)
            if turn >= ways:  # the first task loads or compiles the kernels: not a measure
                patience = max(run.patience, 8 * (time.perf_counter() - t0))
    return solved


class _Dropped(RuntimeError):
    """The Dask task of this loop is no longer wanted (what it solved is on disk)."""


_DROPPED = "the solve's task was cancelled (its client stopped) or its worker is closing"


def _still_wanted() -> Callable[[], bool]:
    """Whether the Dask task running this is still wanted: not once its client cancelled
    it (the worker marks it cancelled; it cannot stop it) or its worker is closing (its
    scheduler lost). Outside a Dask task: always."""
    try:
        from distributed import get_worker

        worker = get_worker()
        key = worker.get_current_task()
    except (ImportError, ValueError, AttributeError):
        return lambda: True

    def wanted() -> bool:
        ts = worker.state.tasks.get(key)  # a read of the worker's state: no lock needed
        running = ts is not None and ts.state in ("executing", "long-running")
        return running and getattr(worker.status, "name", "running") in ("running", "paused")

    return wanted


def _solve(run: Run, w: _Worker, li: int, todo: list[int]) -> None:
    from nimlab.engine import _levelcache

    total, tasks, spans = w.levels[li]
    rows = np.ascontiguousarray(np.concatenate([tasks[spans[p][0] : spans[p][1]] for p in todo]))
    counts = np.zeros((rows.shape[0], 2), dtype=np.int64)
    code = _KINDS[run.kind]
    _levelcache.solve_levels(run.game, w.gen, w.zero, w.state, run.side, w.ranks, code,
                             run.low, run.side - 1, total, total, rows, counts, 0, 0)  # fmt: skip
    if counts[:, 1].any():
        raise InvalidParameterError(
            f"{run.game.label()}: some moves do not lower the number of stones (positions "
            f"of {total} stones have options not solved before them), so the table cannot "
            "be solved level by level in chunks; solve it in one process (no chunk_dir)"
        )
    for p in todo:
        a, b, count = spans[p]
        vals = np.empty(count, dtype=w.vals)
        walk(run.heaps, run.low, total, tasks[a:b], w.ranks, w.state, vals, 1)
        top = int(vals.max()) if count else 0
        store.write_chunk(run, total, p, spans[p], vals.astype(_unsigned(top)))
        w.own.add((li, p))


def _unsigned(top: int) -> Any:
    return np.uint8 if top < 2**8 else np.uint16 if top < 2**16 else np.uint32


def assemble(run: Run, *after: Any, threads: int | None = None) -> int:
    """Write ``values.npy`` (colex order) from the worker's values, brought up to date
    (the last task). Returns the number of values."""
    from nimlab.engine import _levels

    w = _worker(run)
    with w.lock:
        _catch_up(w, run, len(w.levels))
        state = w.state
        if state.dtype == np.uint64:  # outcomes: unpacked for the copy (a byte a position)
            state = np.full(_engine_count(run), -1, dtype=np.int8)
            _levels.unpack(w.state, state)
        top = int(state.max()) if state.size else 0
        out = store.open_values(run, _unsigned(top))
        none = np.zeros(0, dtype=np.bool_)
        bad = _levels.extract(state, w.ranks, run.heaps, run.low, run.side, out, none)
        if bad:
            raise NimlabError(f"{run.game.label()}: {bad} positions were left unsolved")
        getattr(out, "flush", lambda: None)()
        store.record_values(run, out)
        del out
    return run.count
