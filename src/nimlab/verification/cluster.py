"""Chunks on a Dask cluster: rounds of tasks, sized as results come in.

The chunks go out in rounds: a round takes the next run of consecutive chunks and holds
one task per worker, each of every W-th chunk of the run (W workers: tasks of equal cost,
whatever the cost along the space). A task sends its chunks' results as it goes
(:mod:`nimlab.verification._stream`) and returns them, and the runner stores each at once
(a run killed at any point resumes from the store). :data:`ROUNDS_AHEAD`
rounds are submitted ahead, so a worker always has its next task queued and never waits
for a round trip to this process. Round sizes adapt to the cluster: the first rounds
hold a quarter of the chunks left each, later ones about :data:`TASK_SECONDS` of work per
task at the rate measured so far (at least :data:`MIN_TASK_SECONDS`), never more than a
share of what is left (a failure found early cancels the later rounds), and once what is
left is at most :data:`TASK_SECONDS` of work per worker it goes in one round (a short
run's tail holds no tiny tasks, each a round trip). Task *k* of a round is pinned to
worker *k* (another if it is lost), so no worker holds two while another idles; the tasks
of the last round share their chunks (:mod:`nimlab.verification._share`: a worker done with
its own takes over the back half of what another has not started). A P-set check
with an option index records the index on the workers (:data:`PREPARE_PARTS` part per
worker, of equal positions); each worker merges the parts once, before its first chunks,
receiving them from the other workers, not through this process: on a short run the
first tasks record and exchange them themselves (:mod:`nimlab.verification._exchange`),
else set-up tasks do; none when the workers hold the index of the spec from an earlier
run (a worker that lost it records it whole). A worker counts once per thread.

The vectorised check of a box (S18-T8) runs as one block of consecutive chunks per worker
(:class:`~nimlab.verification.fast.BlockRun`): a first task per block evaluates the claim
over its rows once (kept in that worker's memory) and returns the summary of its lines;
the block's check, on the same worker, starts from the OR of the summaries of the blocks
above it, so no worker re-reads another's rows. The check runs as up to
:data:`BLOCK_PARTS` tasks (of at least :data:`PART_POSITIONS` positions), one after the
other, each continuing from the state the previous one left in the worker: the chunks'
results stream back as the block goes.

Workers load the compiled kernels from the disk cache (``$NIMLAB_CACHE_DIR``, one per
machine: a worker on another host compiles them once, then loads them), so a warm
cluster starts checking at once.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar, cast

from nimlab._dask import check_connected, worker_addresses
from nimlab.core.errors import NimlabError
from nimlab.verification.chunks import (
    check_chunk,
    chunk_checker,
    install_prepared,
    prepare_part,
)
from nimlab.verification.local import ChunkResult
from nimlab.verification.spaces import heap_walk, is_indexed

__all__ = [
    "TASK_SECONDS",
    "block_parts",
    "block_task",
    "check_task",
    "dask_chunks",
    "prepare_task",
    "serial_task",
    "summary_task",
]

#: About how long one task should take once the rate of checking is known.
TASK_SECONDS = 1.0
#: A task holds at most this share of the chunks left per worker...
SHARE = 0.5
#: ... but at least about this many seconds of work (the tasks of a round hold
#: interleaved chunks, so a rate measured on cheap chunks still gives equal tasks).
MIN_TASK_SECONDS = 0.05
#: The option index is recorded in this many parts per worker, each of every so many
#: chunks (so the parts cost about the same: no worker waits long for the others).
PREPARE_PARTS = 1
#: Rounds of tasks submitted ahead (a round: one task per worker): each worker always
#: has its next task queued, so no worker waits for a round trip to this process.
ROUNDS_AHEAD = 2

#: A pickled spec larger than this is scattered to the workers once, not sent with tasks.
SCATTER_BYTES = 1 << 16

_SPECS: dict[str, Any] = {}


def _spec(blob: bytes) -> Any:
    """The spec of a pickled *blob*, unpickled once per worker process."""
    key = hashlib.sha1(blob).hexdigest()
    spec = _SPECS.get(key)
    if spec is None:
        _SPECS.clear()
        spec = _SPECS[key] = pickle.loads(blob)
    return spec


def spec_of(blob: bytes) -> Any:
    """The spec of a pickled *blob* in this process (unpickled once; the run's own spec
    when :func:`remember_spec` made the blob)."""
    return _spec(blob)


def remember_spec(spec: Any, blob: bytes) -> bytes:
    """*blob*, the pickled *spec*: this process's :func:`spec_of` of it is *spec* itself
    (its space's tables are not built again, its claim not unpickled)."""
    _SPECS.clear()
    _SPECS[hashlib.sha1(blob).hexdigest()] = spec
    return blob


#: glibc's mallopt parameters (M_TRIM_THRESHOLD, M_MMAP_THRESHOLD) and the values a task
#: sets: Dask's nanny starts workers with ``MALLOC_TRIM_THRESHOLD_=65536``, so every array
#: a check allocates and frees (the claim's temporaries, a chunk's rows) was handed back
#: to the system and faulted in again (S18-T8 at 3000 on 2 workers: 2.1 s of system time,
#: the workers' CPU twice the threads'). A task keeps freed memory for the next arrays,
#: then gives the worker its settings back.
_M_TRIM, _M_MMAP = -1, -3
_TASK_TRIM, _TASK_MMAP = 1 << 28, 1 << 25


_HEAP_LOCK = threading.Lock()
_HEAP_TASKS = [0]  # tasks inside _kept_heap (a worker of several threads runs several)


@contextlib.contextmanager
def _kept_heap() -> Iterator[None]:
    """Inside: glibc keeps freed memory (trim and mmap thresholds raised), when the worker
    was started with ``MALLOC_TRIM_THRESHOLD_`` (else its own adaptive thresholds serve);
    restored when the last task inside ends (the variable's trim threshold, glibc's
    128 KiB mmap threshold)."""
    import os
    import sys

    env = os.environ.get("MALLOC_TRIM_THRESHOLD_", "")
    libc: Any = None
    if env.isdigit() and sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None)
            libc.mallopt  # noqa: B018 - glibc only: AttributeError elsewhere
        except (OSError, AttributeError):  # pragma: no cover - not glibc
            libc = None
    if libc is not None:
        with _HEAP_LOCK:
            _HEAP_TASKS[0] += 1
            if _HEAP_TASKS[0] == 1:
                libc.mallopt(_M_TRIM, _TASK_TRIM)
                libc.mallopt(_M_MMAP, _TASK_MMAP)
    try:
        yield
    finally:
        if libc is not None:
            with _HEAP_LOCK:
                _HEAP_TASKS[0] -= 1
                if _HEAP_TASKS[0] == 0:
                    libc.mallopt(_M_MMAP, 128 * 1024)
                    libc.mallopt(_M_TRIM, min(int(env), 1 << 30))


def check_task(
    blob: bytes,
    chunks: list[int],
    *parts: Any,
    stream: str = "",
    exchange: Any = None,
    share: Any = None,
    every: float | None = None,
) -> list[ChunkResult]:
    """Check *chunks* (in increasing order) of a pickled spec: the task run on Dask workers;
    *parts*: the set-up parts of every chunk (:func:`prepare_task`), merged here once;
    *stream*: the run whose client receives the results as they come (:mod:`._stream`),
    at most every *every* seconds (the client's ``Budgets.cluster_stream_seconds``);
    *exchange*: ``[plan, mine, run, patience, share]``, the set-up parts this task
    records and exchanges with the other workers' first tasks before its chunks
    (:mod:`._exchange`; *share*: the parts' chunks shared as the checks' are, or None);
    *share*: the round's plan when its tasks share their chunks (:mod:`._share`: this
    task then checks those of its queue and those it takes from the others)."""
    from nimlab.verification._stream import Sender

    if share or exchange:  # this worker answers the others' messages before all else
        from nimlab.verification._exchange import serve_parts
        from nimlab.verification._share import serve_takers

        serve_parts()
        serve_takers()
    spec = _spec(blob)
    todo: Any = chunks
    if share:  # its queue made (and the workers' handler of takers set) before all else
        from nimlab.verification._share import Share

        todo = Share(share)
    with _kept_heap():
        if exchange:
            from nimlab.verification._exchange import exchange as swap

            swap(spec, exchange[0], exchange[1], str(exchange[2]), *exchange[3:5])
        if any(p is not None for p in parts):
            from nimlab.verification.compiled import has_index

            if not has_index(spec):
                install_prepared(spec, list(parts))
        check = chunk_checker(spec)  # the planner and the kernel's look-ups once a task
        send = Sender(stream, every)
        out = []
        for i in todo:
            out.append(check(i))
            send.add(out[-1])
        if share:
            send.end(todo.task, todo.given(), any(r.failure is not None for r in out))
        send.flush()
        return out


#: The vectorised check's line state of each instance this worker checks whole
#: (:func:`serial_task`), between its tasks: ``(spec key, kind) -> state`` (the last few).
_SERIAL: dict[Any, Any] = {}
_SERIAL_LOCK = threading.Lock()
#: Instances whose state a worker keeps at once (a worker of T threads runs T of them).
SERIAL_STATES = 8


def serial_task(blob: bytes, chunks: list[int], *after: Any) -> list[ChunkResult]:
    """Check *chunks* (consecutive, in increasing order) of a pickled vectorised spec on
    this worker, continuing from the line state its previous task of the same spec left
    here (else the rows above are added again: the task moved to another worker); a Dask
    task of an instance checked whole on one worker (:mod:`~nimlab.verification._instances`).
    *after*: the instance's previous task, which only orders this one."""
    from nimlab.verification import fast

    spec = _spec(blob)
    key = (spec.key(), spec.kind)
    with _SERIAL_LOCK:
        fast._LOCAL.state = _SERIAL.pop(key, None)
    try:
        with _kept_heap():
            check = chunk_checker(spec)
            return [check(i) for i in chunks]
    finally:
        state, fast._LOCAL.state = getattr(fast._LOCAL, "state", None), None
        if state is not None and chunks[-1] + 1 < spec.space.n_chunks:
            with _SERIAL_LOCK:
                _SERIAL[key] = state
                for old in list(_SERIAL)[: max(0, len(_SERIAL) - SERIAL_STATES)]:
                    del _SERIAL[old]


def prepare_task(blob: bytes, chunks: list[int]) -> Any:
    """The set-up part (option index) of *chunks* (a Dask task)."""
    with _kept_heap():
        return prepare_part(_spec(blob), chunks)


#: The claim's values of the chunks of the last block this worker summarised (for its
#: check task): ``(spec key, block) -> (kept rows, words needed)``.
_KEPT: dict[tuple[str, int], tuple[dict[int, Any], int]] = {}


def _block_run(blob: bytes, blocks: list[list[int]], pending: list[int]) -> Any:

    from nimlab.verification.fast import BlockRun

    spec = _spec(blob)
    return BlockRun(spec, pending, len(blocks), [], threading.Event(), blocks=blocks)


def summary_task(blob: bytes, blocks: list[list[int]], pending: list[int], j: int) -> Any:
    """The first pass over block *j* of a vectorised check (a Dask task): the claim over
    its rows, kept here for :func:`block_task`; returns the block's line summary."""
    run = _block_run(blob, blocks, pending)
    kept: dict[int, Any] = {}
    with _kept_heap():
        need = run.summarise(j, kept)
    key = run.spec.key()
    for k in [k for k in _KEPT if k[0] != key]:
        del _KEPT[k]  # another check's rows
    _KEPT[(key, j)] = (kept, need)
    return run.summaries[j]


#: The line state a worker's last part of a block left for the block's next part:
#: ``(spec key, block) -> (next chunk, state, kept rows, words needed)``.
_STATES: dict[tuple[str, int], tuple[int, Any, dict[int, Any], int]] = {}
#: A block's check runs as at most this many tasks (parts of consecutive chunks, one after
#: the other on the block's worker), so its results stream back and are stored as it goes...
BLOCK_PARTS = 8
#: ... each of at least about this many positions (a part is a round trip to the
#: scheduler before the next starts: 10-30 ms idle on a loaded machine, so parts of a few
#: tens of ms, S18-T8 at 3000 in 8 parts a block, left the workers idle a quarter of the run).
PART_POSITIONS = 1 << 24


def part_count(spec: Any, block: list[int]) -> int:
    """How many parts block *block* of the vectorised check *spec* is checked in."""
    sp = spec.space
    rows = sum(a1 - a0 for a0, a1 in (sp.row_range(c) for c in block))
    return max(1, min(BLOCK_PARTS, len(block), int(rows * sp.bound) // PART_POSITIONS))


def block_parts(block: list[int], parts: int = BLOCK_PARTS) -> list[list[int]]:
    """The parts of a block's check: at most *parts* runs of consecutive chunks of about
    equal length.

    Examples
    --------
    >>> block_parts(list(range(5, 15)))
    [[5], [6], [7], [8, 9], [10], [11], [12], [13, 14]]
    >>> block_parts(list(range(5, 15)), 2)
    [[5, 6, 7, 8, 9], [10, 11, 12, 13, 14]]
    """
    n = max(1, min(parts, len(block)))
    cuts = [len(block) * p // n for p in range(n + 1)]
    return [block[cuts[p] : cuts[p + 1]] for p in range(n)]


def block_task(
    blob: bytes,
    blocks: list[list[int]],
    pending: list[int],
    j: int,
    part: int,
    parts: int,
    *summaries: Any,
) -> list[ChunkResult]:
    """Check part *part* of the *parts* of block *j* of a vectorised check
    (:func:`block_parts`) from the
    *summaries* of blocks ``0..j-1`` (a Dask task; the arguments after them, block *j*'s
    own summary and the block's previous part, only order the task); the results of its
    pending chunks, up to the first failure. A part continues from the state the
    previous part left in this worker, or rebuilds it (the previous part ran on a worker
    since lost)."""
    from dataclasses import replace

    run = _block_run(blob, blocks, pending)
    for i, got in enumerate(summaries[:j]):
        run.summaries[i] = got
        run.ready[i].set()
    key = run.spec.key()
    chunks = block_parts(blocks[j], parts)[part]
    state = None
    saved = _STATES.pop((key, j), None) if part else None
    if saved is not None and saved[0] == chunks[0]:
        _, state, kept, need = saved
    else:
        hit = _KEPT.pop((key, j), None) if not part else None
        if hit is None:  # summarised on another worker (one was lost): evaluated again
            kept = {}
            hit = (kept, run.summarise(j, kept))
        kept, need = hit
    out: list[ChunkResult] = []
    t0 = [time.perf_counter()]
    python = replace(run.spec, fast=False)

    def emit(i: int, count: int, failure: Any, method: str) -> None:
        out.append(ChunkResult(i, count, time.perf_counter() - t0[0], failure, method))
        t0[0] = time.perf_counter()

    def exact(i: int) -> None:
        out.append(replace(check_chunk(python, i), method="python"))
        t0[0] = time.perf_counter()

    with _kept_heap():
        after = run.check_block(j, kept, need, emit, exact, chunks=chunks, state=state)
    for k in [k for k in _STATES if k[0] != key]:
        del _STATES[k]  # another check's state
    if after is not None and chunks[-1] != blocks[j][-1]:
        _STATES[(key, j)] = (chunks[-1] + 1, after, kept, need)
    return out


def chunk_positions(spec: Any, chunks: list[int]) -> list[int] | None:
    """Positions of each of *chunks* of a compiled heap walk (its kernel's time is about
    proportional), from the space's own figures (no kernel loaded); None for another
    space or path (its chunks then count as equal).

    Examples
    --------
    >>> from nimlab.verification.runner import conjecture_spec
    >>> spec = conjecture_spec("nim", "a ^ b ^ c", bound=6, chunk_size=72)
    >>> chunk_positions(spec, [0, 2])
    [72, 72]
    """
    sp = spec.space
    if not getattr(spec, "compiled", False) or not heap_walk(sp) or is_indexed(sp):
        return None
    if getattr(sp, "walk", None) == "box":
        row = (sp.bound - sp.low) ** (sp.n_heaps - 1)
        return [(b - a) * row for a, b in (sp.row_range(i) for i in chunks)]
    return [int(sp.start(i)[1]) for i in chunks]


def share_out(chunks: list[int], cost: Mapping[int, float], n: int) -> list[list[int]]:
    """*chunks* shared out among at most *n* tasks of about equal *cost* (the costliest
    first, each to the task with least so far), each task's chunks in increasing order.

    Examples
    --------
    >>> share_out([0, 1, 2, 3, 4], {0: 1, 1: 8, 2: 1, 3: 8, 4: 2}, 2)
    [[1, 4], [0, 2, 3]]
    >>> share_out([5, 6, 7], dict.fromkeys([5, 6, 7], 1), 2)  # equal costs: interleaved
    [[5, 7], [6]]
    """
    import heapq

    loads = [(0.0, k) for k in range(max(1, n))]
    out: list[list[int]] = [[] for _ in loads]
    for i in sorted(chunks, key=lambda i: -cost[i]):
        load, k = heapq.heappop(loads)
        out[k].append(i)
        heapq.heappush(loads, (load + cost[i], k))
    return [sorted(task) for task in out if task]


class _Sizer:
    """How much work the next round's tasks take, in the chunks' costs (positions, or 1 a
    chunk when unknown), from the seconds per cost measured so far.

    Before any rate is measured a task takes *per_task* (the planner's
    ``Budgets.cluster_task_positions`` for a compiled check; a run of at most
    :data:`ROUNDS_AHEAD` such tasks per worker is shared out evenly over as few of the
    first rounds as hold it, so it goes out at once: one task per worker when one
    budget each holds it), or a quarter of what is left per worker.

    Examples
    --------
    >>> s = _Sizer(workers=2, total=400)
    >>> s.next_cost(400)  # nothing measured: a quarter of the chunks per worker
    50.0
    >>> s.record(50, 0.5)  # 10 ms a chunk: 100 chunks a second
    >>> s.next_cost(300), s.next_cost(60)  # 60 left: 0.3 s a worker, all now
    (75.0, 30.0)
    >>> s = _Sizer(workers=2, total=1000, per_task=100.0)  # 2 tasks of 100 a worker, or less
    >>> s.next_cost(1000)
    100.0
    >>> _Sizer(workers=2, total=300, per_task=100.0).next_cost(300)  # all in 2 rounds
    75.0
    >>> _Sizer(workers=2, total=150, per_task=100.0).next_cost(150)  # all in 1 round
    75.0
    """

    def __init__(self, workers: int, total: float, per_task: float | None = None) -> None:
        self.workers = max(1, workers)
        self.cost = 0.0
        self.seconds = 0.0
        self.last = 0.0
        self.per_task = per_task
        if per_task is not None and total <= ROUNDS_AHEAD * self.workers * per_task:
            # a short run: all at once, in one task per worker when a budget each holds it
            # (a worker's second task cost 2-10 ms more of the scheduler's messages, and
            # the first's results came back while it ran: Sh-T6* at 128, 11.4 M positions)
            rounds = 1 if total <= self.workers * per_task else ROUNDS_AHEAD
            self.per_task = total / (rounds * self.workers)

    def record(self, cost: float, seconds: float) -> None:
        """Note that chunks of *cost* took *seconds*."""
        self.cost += cost
        self.seconds += seconds
        if cost:  # the latest rate too: the first chunks are often the cheapest
            self.last = seconds / cost

    def next_cost(self, left: float) -> float:
        """The cost of the next task (a round of tasks takes *workers* times as much)."""
        cap = left * SHARE / self.workers
        even = left / self.workers  # all that is left, shared out
        if not self.cost:
            return min(self.per_task, even) if self.per_task is not None else cap / 2
        rate = max(self.seconds / self.cost, self.last)
        if left * rate <= TASK_SECONDS * self.workers:
            return even  # a short run's tail in one round: no round trips for tiny tasks
        want = TASK_SECONDS / rate if rate > 0 else left
        floor = MIN_TASK_SECONDS / rate if rate > 0 else left
        return min(want, max(cap, floor), even)


class _Rounds:
    """The pending chunks of a run, handed out in rounds of one task per worker: the next
    run of consecutive chunks of about :meth:`_Sizer.next_cost` times the workers,
    shared out by cost (:func:`share_out`)."""

    def __init__(self, spec: Any, pending: list[int], workers: int) -> None:
        from nimlab.planner import DEFAULT_BUDGETS

        positions = chunk_positions(spec, pending)
        self.cost = dict(zip(pending, positions or [1] * len(pending), strict=True))
        self.todo = list(pending)
        self.left = float(sum(self.cost.values()))
        per_task = float(DEFAULT_BUDGETS.cluster_task_positions) if positions else None
        self.sizer = _Sizer(workers, self.left, per_task)
        self.workers = max(1, workers)

    def next_round(self) -> list[list[int]]:
        """The tasks of the next round (each a list of chunks), taken from what is left."""
        want = self.sizer.next_cost(self.left) * self.workers
        if want >= self.left * (1 - 1e-9):
            want = self.left  # all that is left (not a tiny round for a rounding error)
        n, got = 0, 0.0
        while n < len(self.todo) and (got < want or n < self.workers):
            got += self.cost[self.todo[n]]
            n += 1
        take, self.todo[:n] = self.todo[:n], []
        self.left -= got
        return share_out(take, self.cost, self.workers)

    def record(self, results: list[ChunkResult]) -> None:
        """Note the seconds the chunks of *results* took."""
        self.sizer.record(sum(self.cost[r.index] for r in results), sum(r.seconds for r in results))

    def put_back(self, chunks: list[int]) -> None:
        """Send *chunks* out again, first (no task of theirs reported them)."""
        self.todo[:0] = sorted(chunks)
        self.left += sum(self.cost[i] for i in chunks)

    def drop_after(self, stop: int) -> None:
        """Forget the chunks after *stop* (the first failure)."""
        self.todo = [i for i in self.todo if i <= stop]
        self.left = float(sum(self.cost[i] for i in self.todo))


def dask_chunks(
    client: Any,
    blob: bytes,
    pending: list[int],
    workers: int,
    stop: list[int],
    lost: Callable[[BaseException], NimlabError],
    as_completed: Any,
) -> Iterator[ChunkResult]:
    """Check the *pending* chunks of the pickled spec *blob* on *client*'s cluster,
    yielding each chunk's result as its task ends; *lost* turns an error of the cluster
    into nimlab's one clear error."""
    blob_f, where, n_workers = _set_up(client, blob, pending, workers, lost)
    blocks = _blocks(blob, pending, n_workers)
    if blocks is not None:
        spec = _spec(blob)
        yield from _block_chunks(
            client, spec, where, blob_f, blocks, pending, stop, lost, as_completed
        )
        return
    from nimlab.verification._exchange import HELD, forget, note_held
    from nimlab.verification._roundtasks import RoundTasks
    from nimlab.verification._stream import (
        Stream,
        completed,
        release_held,
        release_later,
        streamed,
    )

    rounds = _Rounds(_spec(blob), pending, n_workers)
    tasks = RoundTasks(client, blob_f, where, rounds, lost, check_task)
    tag = hashlib.sha1(blob).hexdigest()[:10]
    tasks.stream = Stream.open(client)

    key = _spec(blob).key()
    held = bool(where) and all(HELD.get(w) == key for w in where)

    def submit_first() -> list[Any]:
        """The set-up parts (none when every worker holds them; exchanged by the first
        round's tasks when they stream) and the first rounds (after the stream's
        subscription)."""
        if tasks.stream is not None:
            tasks.stream.subscribe()
        if not held and tasks.stream is not None and _exchanged(_spec(blob), n_workers):
            tasks.plan = _part_plan(_spec(blob), pending, n_workers)
            tasks.plan_costs = [chunk_positions(_spec(blob), p) or [1] * len(p) for p in tasks.plan]
        elif not held:
            tasks.parts = _prepare(client, blob, blob_f, pending, n_workers, where)
        out = [f for _ in range(ROUNDS_AHEAD) if tasks.rounds.todo for f in tasks.submit(tag)]
        release_held()  # the last runs' releases leave with these tasks, in one message
        return out

    try:
        first = at_once(client, submit_first)
    except NimlabError:
        raise
    except Exception as exc:
        if tasks.stream is not None:
            tasks.stream.close()
        raise lost(exc) from None
    if tasks.stream is not None:
        run = tasks.stream.run
        n_plan = 0 if tasks.direct else len(tasks.plan)  # variables to delete, if any
        try:
            yield from streamed(tasks, tasks.stream, first, ROUNDS_AHEAD * n_workers, stop, tag)
        except BaseException:
            forget(client, run, n_plan)
            raise
        note_held(tasks.pinned, key, stop)
        release_later(*tasks.stream.futures, lambda: forget(client, run, n_plan))
        return
    yield from completed(tasks, first, as_completed, ROUNDS_AHEAD * n_workers, stop, tag)


def _set_up(
    client: Any,
    blob: bytes,
    pending: list[int],
    workers: int,
    lost: Callable[[BaseException], NimlabError],
) -> tuple[Any, list[str], int]:
    """The spec as tasks take it, the workers' addresses and their number."""
    try:
        check_connected(client)  # a held client whose scheduler is gone: no 20 s wait below
        # a small spec travels with each task (no round trip to scatter it first)
        blob_f = blob if len(blob) <= SCATTER_BYTES else client.scatter(blob, broadcast=True)
        where = worker_addresses(client)  # asked once (a round trip each)
        return blob_f, where, max(1, len(where) or workers)
    except NimlabError:
        raise
    except Exception as exc:
        raise lost(exc) from None


_T = TypeVar("_T")


def at_once(client: Any, submit: Callable[[], _T]) -> _T:
    """*submit()* (calls of ``client.submit``) run in the client's event loop, so that its
    tasks leave for the scheduler in one message: the client sends a message at once but
    then waits 10 ms before the next (distributed's batched stream), and a run's second
    worker started its first task 10 ms after the first worker. A client without a loop
    of its own (an asynchronous client, a test's fake) submits as it is.

    Examples
    --------
    >>> at_once(object(), lambda: "submitted")
    'submitted'
    """
    sync = getattr(client, "sync", None)
    if sync is None or getattr(client, "asynchronous", True):
        return submit()

    async def inside() -> _T:
        return submit()

    return cast(_T, sync(inside))


def _prepare(
    client: Any,
    blob: bytes,
    blob_f: Any,
    pending: list[int],
    n_workers: int,
    where: list[str] | None = None,
) -> list[Any]:
    """The futures of the set-up parts of the chunks, :data:`PREPARE_PARTS` per worker,
    each of chunks of about equal positions (:func:`share_out`; none when the chunks need
    no set-up), part k on worker k of *where* (another if it is lost); every chunk task
    merges them where it runs."""
    out = []
    for k, chunks in enumerate(_part_plan(_spec(blob), pending, n_workers)):
        pin = {"workers": [where[k % len(where)]], "allow_other_workers": True} if where else {}
        out.append(client.submit(prepare_task, blob_f, chunks, pure=False, **pin))
    return out


def _exchanged(spec: Any, n_workers: int) -> bool:
    """Whether the first tasks exchange the set-up parts through the scheduler
    (:mod:`._exchange`): for a space of at most the planner's
    ``Budgets.cluster_task_positions`` per worker (a short run, whose time the messages
    between a part's end and its use weigh on; each part, the size of the whole packed
    index, then a few hundred KB: Sh-T6* at 128, 11.4 M positions, 129 KB), else set-up
    tasks whose parts go from worker to worker, never held by the scheduler."""
    from nimlab.planner import DEFAULT_BUDGETS

    size = getattr(spec.space, "size", None)
    return isinstance(size, int) and size <= n_workers * DEFAULT_BUDGETS.cluster_task_positions


def _part_plan(spec: Any, pending: list[int], n_workers: int) -> list[list[int]]:
    """The chunks of each set-up part (:data:`PREPARE_PARTS` per worker, of about equal
    positions), or none when the chunks may need no set-up: whether they do is decided
    on the workers (``prepare_part`` gives None), this process loads no kernel."""
    if not pending or not getattr(spec, "compiled", False) or is_indexed(spec.space):
        return []
    every = list(range(spec.space.n_chunks))
    cost = dict(zip(every, chunk_positions(spec, every) or [1] * len(every), strict=True))
    return share_out(every, cost, PREPARE_PARTS * n_workers)


#: A vectorised run of fewer chunks than this runs as tasks of chunks (no blocks).
MIN_BLOCK_CHUNKS = 8


def _blocks(blob: bytes, pending: list[int], n_workers: int) -> list[list[int]] | None:
    """The blocks of a vectorised check on *n_workers* (None: tasks of chunks)."""
    spec = _spec(blob)
    if not getattr(spec, "fast", False) or n_workers < 2 or len(pending) < MIN_BLOCK_CHUNKS:
        return None
    from nimlab.verification.fast import chunk_costs, split_blocks

    last = max(pending) + 1
    blocks = split_blocks(chunk_costs(spec, last, set(pending)), n_workers)
    return blocks if len(blocks) > 1 else None


def _block_chunks(
    client: Any,
    spec: Any,
    where: list[str],
    blob_f: Any,
    blocks: list[list[int]],
    pending: list[int],
    stop: list[int],
    lost: Callable[[BaseException], NimlabError],
    as_completed: Any,
) -> Iterator[ChunkResult]:
    """The vectorised check of *blocks* on the cluster: per block a summary task and a
    check task, both on one worker (another if it is lost); the blocks after the first
    failure once known (*stop*) are cancelled."""
    try:
        summaries: list[Any] = []
        first: dict[Any, int] = {}
        for j in range(len(blocks)):
            pin = {}
            if where:
                pin = {"workers": [where[j % len(where)]], "allow_other_workers": True}
            summaries.append(
                client.submit(summary_task, blob_f, blocks, pending, j, pure=False, **pin)
            )
            prev: list[Any] = []
            n_parts = part_count(spec, blocks[j])
            for p, chunks in enumerate(block_parts(blocks[j], n_parts)):
                f = client.submit(
                    block_task, blob_f, blocks, pending, j, p, n_parts, *summaries, *prev,
                    pure=False, **pin,
                )  # fmt: skip
                first[f] = chunks[0]
                prev = [f]
        check_connected(client)  # submitted after the scheduler was lost: never run
        for f in as_completed(list(first)):
            if stop and first[f] > stop[0]:
                continue  # a part after the first failure: cancelled below
            yield from f.result()
            for g, c in first.items():
                if stop and c > stop[0]:
                    g.cancel()
    except NimlabError:
        raise
    except Exception as exc:
        raise lost(exc) from None
