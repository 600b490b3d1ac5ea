"""Chunk results streamed from Dask tasks as they go (:mod:`nimlab.verification.cluster`).

A task of chunks sends its chunks' results to the client while it runs, as worker
events through the scheduler (:class:`Sender`: plain numbers and a method's name, at most
one message per ``Budgets.cluster_stream_seconds`` of checking, the last as the task
ends); the client (:class:`Stream`) yields each chunk's result once, as it arrives, and
fetches a task's own result only for the chunks its messages did not hold (a failure,
which travels with its position; a message lost). So the runner stores results while a
task runs (a worker killed mid-task loses none already checked), and the run's last
results come with its tasks' ends: no request for them (four messages through the
scheduler fewer at the end of a run). A message holds data only: numbers checked on
arrival, never code.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from nimlab._dask import check_connected
from nimlab.core.errors import NimlabError
from nimlab.verification.local import ChunkResult

__all__ = ["TOPIC", "Sender", "Stream", "completed", "release_held", "release_later", "streamed"]

#: The topic of the workers' events that carry chunk results (one for every run: a
#: message names its run, and the scheduler keeps a bounded log per topic).
TOPIC = "nimlab-chunks"


class Sender:
    """The chunk results of a task on a Dask worker, sent to the client as it goes;
    inactive (nothing sent) without a *run* or outside a worker.

    Examples
    --------
    >>> s = Sender("")  # no run: nothing is sent
    >>> s.add(ChunkResult(0, 5, 0.1, None, "compiled")); s.flush(); s.batch
    []
    """

    def __init__(self, run: str, every: float | None = None) -> None:
        self.worker: Any = None
        if run:
            with contextlib.suppress(ImportError, ValueError):  # not on a worker
                from distributed import get_worker

                self.worker = get_worker()
        from nimlab.planner import DEFAULT_BUDGETS

        self.run = run
        self.every = DEFAULT_BUDGETS.cluster_stream_seconds if every is None else every
        self.batch: list[list[Any]] = []
        self.last = time.perf_counter()

    def add(self, r: ChunkResult) -> None:
        """Send *r* with the next message (a failure travels with the task's result)."""
        if self.worker is None or r.failure is not None:
            return
        self.batch.append([int(r.index), int(r.count), float(r.seconds), str(r.method)])
        if time.perf_counter() - self.last >= self.every:
            self.flush()

    def end(self, task: str, given: list[int], failed: bool) -> None:
        """Send what is held with the end of task *task* (of a round whose tasks share
        their chunks, :mod:`._share`): the chunks of its share that others took, and
        whether it found a failure (its own result then holds it)."""
        if self.worker is not None:
            self.worker.log_event(TOPIC, {"run": self.run, "chunks": self.batch, "task": task,
                                          "given": [int(i) for i in given],
                                          "failed": bool(failed)})  # fmt: skip
            self.batch = []
        self.last = time.perf_counter()

    def flush(self) -> None:
        """Send what is held."""
        if self.worker is not None and self.batch:
            self.worker.log_event(TOPIC, {"run": self.run, "chunks": self.batch})
            self.batch = []
        self.last = time.perf_counter()


_LOCK = threading.Lock()
#: What the last runs leave to release (their tasks' futures, calls that delete their
#: variables), done with the next run's submission: the client sends a message to the
#: scheduler at once, then waits 10 ms before the next, so a run's releases sent as it
#: ended made the next run's tasks wait 9-12 ms when it came sooner (runs one after the
#: other: a script, a benchmark); sent with them, they cost it nothing.
_LATER: list[Any] = []


def release_later(*items: Any) -> None:
    """Keep *items* (futures, calls) until :func:`release_held`."""
    with _LOCK:
        _LATER.extend(items)


def release_held() -> None:
    """Release what :func:`release_later` kept: futures dropped, calls made (from the
    client's event loop, after the next run's tasks were submitted)."""
    with _LOCK:
        items = list(_LATER)
        _LATER.clear()
    for item in items:
        if callable(item) and not hasattr(item, "key"):
            with contextlib.suppress(Exception):
                item()
    items.clear()


#: The runs of this process streaming now: run -> its queue.
_RUNS: dict[str, queue.Queue[tuple[str, Any]]] = {}
#: The clients whose events reach :func:`_dispatch`: (client id, its scheduler's id; a
#: client that reconnected to a new scheduler subscribes again).
_SUBSCRIBED: set[tuple[str, str]] = set()


def _dispatch(event: Any) -> None:
    """A worker's event of :data:`TOPIC` to its run's queue (the client's event loop)."""
    msg = event[1] if isinstance(event, (tuple, list)) and len(event) == 2 else None
    if isinstance(msg, dict):
        with _LOCK:
            q = _RUNS.get(str(msg.get("run")))
        if q is not None:
            q.put(("chunks", msg))


def _plain(got: Any, known: Callable[[int], bool]) -> list[ChunkResult]:
    """The chunk results of a message: rows ``[index, count, seconds, method]`` of
    numbers and a name, of chunks *known* to the run; anything else is dropped."""
    out = []
    for row in got if isinstance(got, (list, tuple)) else ():  # msgpack: lists as tuples
        if not (isinstance(row, (list, tuple)) and len(row) == 4):
            continue
        i, count, seconds, method = row
        ok = type(i) is int and type(count) is int and count >= 0
        ok = ok and isinstance(seconds, (int, float)) and isinstance(method, str)
        if ok and known(i):
            out.append(ChunkResult(i, count, float(seconds), None, method[:40]))
    return out


class Stream:
    """The results of one run's tasks on a cluster: the chunks their messages carry
    (:class:`Sender`) and the tasks' ends, on one queue, in the order they come."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.run = uuid.uuid4().hex
        self.queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.futures: list[Any] = []  # every task of the run (released with the next run)

    @staticmethod
    def open(client: Any) -> Stream | None:
        """A stream for a run on *client*, or None when it cannot receive events (an
        asynchronous client, an older one or a test's fake): its tasks' results then."""
        if getattr(client, "asynchronous", True) or not callable(
            getattr(client, "subscribe_topic", None)
        ):
            return None
        return Stream(client)

    def subscribe(self) -> None:
        """Receive this run's messages (from the client's event loop, so that a first
        subscription leaves with the tasks, in one message)."""
        seen = getattr(self.client, "_scheduler_identity", None)
        sid = str(seen.get("id", "")) if isinstance(seen, dict) else ""
        with _LOCK:
            _RUNS[self.run] = self.queue
            cid = (str(getattr(self.client, "id", "")), sid)
            new = cid not in _SUBSCRIBED
            _SUBSCRIBED.add(cid)
        if new:
            self.client.subscribe_topic(TOPIC, _dispatch)

    def close(self) -> None:
        with _LOCK:
            _RUNS.pop(self.run, None)

    def watch(self, futures: Iterable[Any]) -> None:
        """Note each of *futures* on the queue when it ends (done, failed, cancelled)."""
        for f in futures:
            self.futures.append(f)
            f.add_done_callback(lambda g: self.queue.put(("done", g)))

    def next(self, lost: Callable[[BaseException], NimlabError]) -> tuple[str, Any]:
        """The next item: ``("chunks", results)`` (a message's chunk results) or
        ``("done", future)`` (a task ended); *lost* makes the error of a client that lost
        its scheduler (its futures are cancelled then: this is the safety net)."""
        while True:
            try:
                return self.queue.get(timeout=1.0)
            except queue.Empty:
                try:
                    check_connected(self.client)
                except Exception as exc:
                    raise lost(exc) from None

    @staticmethod
    def chunks(got: Any, futs: dict[Any, list[int]], seen: set[int]) -> list[ChunkResult]:
        """The results of a message *got* of chunks of the tasks *futs* not yet *seen*."""
        known = {i for chunks in futs.values() for i in chunks}
        return _plain(got, lambda i: i in known and i not in seen)

    @staticmethod
    def fetch(
        f: Any,
        chunks: list[int],
        seen: set[int],
        lost: Callable[[BaseException], NimlabError],
        failed: bool = False,
    ) -> list[ChunkResult]:
        """The results of the ended task *f* (of *chunks*) not yet *seen*: its result is
        asked only when its messages did not hold them all, it did not end well or it
        said it found a failure (*failed*)."""
        done = getattr(f, "status", None) == "finished" and not failed
        if done and all(i in seen for i in chunks):
            return []
        try:
            got: list[ChunkResult] = f.result()
        except NimlabError:
            raise
        except Exception as exc:
            raise lost(exc) from None
        return [r for r in got if r.index not in seen]


def streamed(
    tasks: Any, stream: Stream, first: list[Any], ahead: int, stop: list[int], tag: str
) -> Iterator[ChunkResult]:
    """The chunks' results of a run whose tasks send them as they go (:mod:`._stream`):
    each once, as it comes; a task's own result is asked only for chunks its messages
    did not hold. *tasks*: the run's ``_roundtasks.RoundTasks`` (their futures and chunks,
    its rounds); later rounds are submitted as tasks end, up to *ahead* tasks at once,
    as ``cluster.dask_chunks`` does; *stop*: the first failing chunk once known."""
    futs, seen = tasks.futs, set[int]()
    stream.watch(first)
    try:
        while futs:
            kind, got = stream.next(tasks.lost)
            if kind == "chunks":
                new = stream.chunks(_ended(got, tasks), tasks.sent, seen)
            else:
                chunks = futs.pop(got, None)
                if chunks is None:
                    continue
                if stop and chunks[0] > stop[0]:
                    got.cancel()
                    continue
                given = tasks.given.get(tasks.names.get(got), ())  # the others took them
                owed = [i for i in chunks if i not in given]
                failed = tasks.names.get(got) in tasks.failed
                new = stream.fetch(got, owed, seen, tasks.lost, failed)
            seen.update(r.index for r in new)
            tasks.rounds.record(new)
            yield from new
            if kind == "chunks" and not _reported(tasks, seen):
                continue
            _drop_after_stop(tasks, stop)
            if not futs:  # chunks no task reported (one that took them was lost): again
                tasks.rounds.put_back([i for i in tasks.sent_chunks() if i not in seen
                                       and not (stop and i > stop[0])])  # fmt: skip
            while tasks.rounds.todo and len(futs) < ahead:
                stream.watch(tasks.submit(tag))
    finally:
        stream.close()


def _reported(tasks: Any, seen: set[int]) -> bool:
    """Whether tasks of *tasks* (``_roundtasks.RoundTasks``) whose chunks were shared are
    over for the client (dropped from its tasks out): each said it ended, found no
    failure, and every chunk it still owed was *seen*, so its end through the scheduler
    is not waited for (2-3 ms at a run's end)."""
    over = [f for f, name in tasks.names.items() if name in tasks.ended and f in tasks.futs]
    over = [f for f in over if tasks.names[f] not in tasks.failed]
    over = [f for f in over
            if all(i in seen or i in tasks.given[tasks.names[f]] for i in tasks.futs[f])]  # fmt: skip
    for f in over:
        del tasks.futs[f]
    return bool(over)


def _ended(msg: Any, tasks: Any) -> Any:
    """The chunk results of a message *msg*; the end of a task of a round that shares its
    chunks (:mod:`._share`) noted in *tasks* (``_roundtasks.RoundTasks``): the chunks of its
    share others took (those the run sent), and whether it found a failure."""
    if not isinstance(msg, dict):
        return None
    task = msg.get("task")
    if isinstance(task, str):
        given = msg.get("given")
        sent = tasks.sent_chunks()
        took = tasks.given.setdefault(task, set())
        if isinstance(given, (list, tuple)):
            took.update(i for i in given if type(i) is int and i in sent)
        if msg.get("failed") is not False:
            tasks.failed.add(task)
        tasks.ended.add(task)
    return msg.get("chunks")


def completed(
    tasks: Any,
    first: list[Any],
    as_completed: Any,
    ahead: int,
    stop: list[int],
    tag: str,
) -> Iterator[ChunkResult]:
    """The chunks' results of a run whose tasks do not stream (an asynchronous client, a
    test's fake): each task's result as it ends, later rounds submitted as tasks end (up
    to *ahead* tasks at once), as :func:`streamed` does."""
    lost = tasks.lost
    futs = tasks.futs
    ac = as_completed(first)
    for f in ac:
        chunks = futs.pop(f)
        if stop and chunks[0] > stop[0]:
            f.cancel()
            continue
        try:
            results = f.result()
        except NimlabError:
            raise
        except Exception as exc:
            raise lost(exc) from None
        tasks.rounds.record(results)
        yield from results
        _drop_after_stop(tasks, stop)
        while tasks.rounds.todo and len(futs) < ahead:
            for g in tasks.submit(tag):
                ac.add(g)


def _drop_after_stop(tasks: Any, stop: list[int]) -> None:
    """Once the first failing chunk is known (*stop*), the rounds after it are not sent
    and the tasks out for chunks after it are cancelled."""
    if stop:
        tasks.rounds.drop_after(stop[0])
        for g, js in list(tasks.futs.items()):
            if js[0] > stop[0]:
                g.cancel()
