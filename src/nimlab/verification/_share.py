"""Work sharing between the tasks of a Dask run's last round (:mod:`.cluster`).

The tasks of a round hold shares of equal positions, but a worker slowed by anything else
on its cores (another process, a host that runs two virtual cores on one physical core)
would hold up the run's end. So each task's share is a queue of chunks kept in its
worker's process: the task takes its chunks one at a time from the front (a lock of its
own process, no message), and a task that has emptied its queue asks the worker of
another task of the round for the back half, in positions, of the chunks that task has
not started (one message from worker to worker, answered by that worker's event loop
while its task checks), puts them in its own queue (another may take from it in turn)
and checks them as its own. A chunk is taken out of a queue once, by the owner or by one
taker, so each is checked once; the owner's last message tells the client which of its
chunks others took (:mod:`._stream`), and the client sends out again any chunk of the
round that no task reported (a taker lost with its worker), so nothing is lost.

A queue is made by whichever comes first, its task or a taker (the task may not have
started: its worker still busy with an earlier task): both make it from the round's plan.
A message holds a run's name and numbers only; its answer is a list of chunks.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Iterator
from typing import Any

__all__ = [
    "TAKEN",
    "Share",
    "pack",
    "request",
    "serve_takers",
    "take_back",
    "task_name",
    "unpack",
]

#: The name of the workers' handler of a taker's request (:func:`_handle`).
OP = "nimlab_take"
#: The rounds whose queues a process keeps (the last ones: a late request for an older
#: round would make its queue again, and the chunks it gave would be checked twice).
KEEP_RUNS = 64

#: A taker gives up a worker that does not take its connection within this many seconds
#: (a worker lost: its task runs again elsewhere, or the run ends with its error).
CONNECT_SECONDS = 1.0

_LOCK = threading.Lock()
#: round -> task -> its chunks not started (front: the owner's next), their positions.
_QUEUES: dict[str, dict[int, collections.deque[int]]] = {}
_COSTS: dict[str, dict[int, float]] = {}
#: round -> tasks known to have ended with an empty queue (they asked this process's
#: queue for chunks and got none: no need to ask them back).
_ENDED: dict[str, set[int]] = {}
#: What this process's tasks took from others: ``(round, task taken from, chunks)``, the
#: last few (for a run's figures and tests).
TAKEN: collections.deque[tuple[str, int, list[int]]] = collections.deque(maxlen=256)


def _queue(run: str, k: int, chunks: list[int], costs: list[float]) -> collections.deque[int]:
    """The queue of task *k* of round *run* (made from its *chunks* if new); under _LOCK."""
    runs = _QUEUES.setdefault(run, {})
    q = runs.get(k)
    if q is None:
        q = runs[k] = collections.deque(chunks)
        _COSTS.setdefault(run, {}).update(zip(chunks, costs, strict=False))
    for old in list(_QUEUES)[: max(0, len(_QUEUES) - KEEP_RUNS)]:
        _QUEUES.pop(old, None)
        _COSTS.pop(old, None)
        _ENDED.pop(old, None)
    return q


def take_back(
    run: str, k: int, chunks: list[int], costs: list[float], taker: int = -1
) -> list[int]:
    """The back half, in positions, of the chunks task *k* of round *run* has not started
    (at least one while any is left), taken out of its queue for task *taker*.

    Examples
    --------
    >>> take_back("doc", 0, [1, 2, 3, 4], [5, 1, 1, 3])  # 5 of the 10 positions
    [2, 3, 4]
    >>> take_back("doc", 0, [1, 2, 3, 4], [5, 1, 1, 3], taker=1)  # its queue is [1] now
    [1]
    >>> take_back("doc", 0, [], [], taker=1), sorted(_ENDED["doc"])  # none left: it ends
    ([], [1])
    """
    with _LOCK:
        q = _queue(run, k, chunks, costs)
        cost = _COSTS.get(run, {})
        left = sum(cost.get(i, 1.0) for i in q)
        out: list[int] = []
        got = 0.0
        while q and (not out or 2 * got + cost.get(q[-1], 1.0) <= left):
            i = q.pop()
            out.append(i)
            got += cost.get(i, 1.0)
        if not out and taker >= 0:
            _ENDED.setdefault(run, set()).add(taker)
        out.reverse()
        return out


def _handle(run: Any = None, k: Any = None, chunks: Any = None, costs: Any = None,
            taker: Any = -1) -> list[int]:  # fmt: skip
    """A taker's request on this worker (its event loop): plain numbers checked, chunks
    back; anything else gets none."""
    ok = isinstance(run, str) and type(k) is int and type(taker) is int
    ok = ok and isinstance(chunks, (list, tuple)) and isinstance(costs, (list, tuple))
    ok = ok and all(type(i) is int for i in chunks)
    ok = ok and all(isinstance(c, (int, float)) for c in costs)
    if not ok:
        return []
    return take_back(run, k, list(chunks), [float(c) for c in costs], taker)


async def request(worker: Any, addr: str, op: str, **args: Any) -> Any:
    """The answer of the Dask worker at *addr* to one message *op* with *args*, over
    *worker*'s pooled connections (kept between requests). A worker that does not take
    the connection within :data:`CONNECT_SECONDS` is gone (distributed would try again
    for 30 s); once sent, no time limit: a request given up on its way would lose what
    it asked for (the chunks a taker took)."""
    from distributed.core import send_recv

    pool = worker.rpc
    comm = await pool.connect(addr, timeout=CONNECT_SECONDS)
    try:
        return await send_recv(comm=comm, op=op, **args)
    finally:
        pool.reuse(addr, comm)


def pack(*data: Any) -> bytes:
    """*data* (lists of numbers and names) as one opaque argument of a task: Dask walks
    every element of a task's list arguments when it is submitted (2,000 elements, 3-4 ms
    of the client's event loop a run, when the plans went as lists).

    Examples
    --------
    >>> unpack(pack(["tcp://a:1"], [[0, 2], [1]]))
    [['tcp://a:1'], [[0, 2], [1]]]
    """
    import json

    return json.dumps(data, separators=(",", ":")).encode()


def unpack(data: Any) -> Any:
    """The data of :func:`pack` (a list; *data* as it is when it is not bytes).

    Examples
    --------
    >>> unpack(b"[[0, 1], [2]]"), unpack([[0, 1], [2]])
    ([[0, 1], [2]], [[0, 1], [2]])
    """
    if not isinstance(data, bytes):
        return data
    import json

    return json.loads(data)


def serve_takers() -> Any:
    """Set this Dask worker's handler of the takers' requests (once; None outside a
    worker, else the worker)."""
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):  # not on a worker: no other task to answer
        return None
    worker.handlers.setdefault(OP, _handle)
    return worker


def task_name(run: str, k: int) -> str:
    """The name of task *k* of round *run* in its messages.

    Examples
    --------
    >>> task_name("abc-1", 0)
    'abc-1/0'
    """
    return f"{run}/{k}"


class Share:
    """The chunks task *k* of a round checks: its own queue's, front first, then those it
    takes from the round's other tasks, until none is left anywhere.

    *plan*: ``[round, k, where, shares, costs]``: the round's name, this task's number,
    the worker of each task, each task's chunks and their positions (the last three
    may come as one :func:`pack`).
    """

    def __init__(self, plan: list[Any]) -> None:
        run, k, *rest = plan
        where, shares, costs = unpack(rest[0]) if len(rest) == 1 else rest
        self.run, self.k, self.where = str(run), int(k), list(where)
        self.task = task_name(self.run, self.k)
        self.shares, self.costs = list(shares), list(costs)
        self.own: set[int] = set()  # chunks of its own share it checked
        self.worker: Any = serve_takers()
        with _LOCK:
            self.queue = _queue(self.run, self.k, self.shares[self.k], self.costs[self.k])

    def __iter__(self) -> Iterator[int]:
        mine = set(self.shares[self.k])
        while True:
            with _LOCK:
                i = self.queue.popleft() if self.queue else None
            if i is None:
                got = self._take()
                if not got:
                    return
                with _LOCK:
                    self.queue.extend(got)
                continue
            if i in mine:
                self.own.add(i)
            yield i

    def given(self) -> list[int]:
        """The chunks of its own share that other tasks took (once its queue is empty)."""
        return [i for i in self.shares[self.k] if i not in self.own]

    def _take(self) -> list[int]:
        """Chunks taken from another task of the round (none: every other is done)."""
        n = len(self.shares)
        for d in range(1, n):
            j = (self.k + d) % n
            with _LOCK:
                if j in _ENDED.get(self.run, ()):
                    continue  # it ended with nothing left: nothing to take
            got = self._ask(j)
            if got:
                TAKEN.append((self.run, j, list(got)))
                return got
        return []

    def _ask(self, j: int) -> list[int]:
        """Task *j*'s back half, asked of its worker (taken here when it is this one)."""
        args = {"run": self.run, "k": j, "chunks": self.shares[j], "costs": self.costs[j],
                "taker": self.k}  # fmt: skip
        there = self.where[j] if j < len(self.where) else None
        if self.worker is None or there is None or there == self.worker.address:
            return take_back(**args)
        from distributed.utils import sync

        try:
            got = sync(self.worker.loop, request, self.worker, there, OP, **args)
        except Exception:  # its worker lost (its task runs again elsewhere): none from it
            return []
        if not isinstance(got, (list, tuple)) or not all(type(i) is int for i in got):
            return []
        return list(got)
