"""The option index's parts exchanged by the Dask workers themselves (a P-set check).

The first task of each worker records its parts of the index (every chunk's claimed
P-positions, shared out by positions in the plan the client sends with the tasks),
publishes each as bytes, takes the other workers' parts as they come, and checks its
chunks once the merged index is installed. When the round's tasks share their chunks
(:mod:`nimlab.verification._share`), a part goes from worker to worker (:class:`_Direct`:
one message, in the background); else it is a variable of the scheduler (:class:`_Board`:
one message to the scheduler and one from it). A part that does not come within the
patience (``Budgets.cluster_patience_seconds``, sent by the client; its worker lost, or
busy) is recorded where it is missing, so the results never depend on another worker.
A part is data (bytes of the packed index, their length checked), never code; the client
deletes the run's variables when the run ends.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

__all__ = ["HELD", "exchange", "forget", "note_held", "part_name", "serve_parts"]

#: The spec (its key) whose chunks' set-up (a P-set's option index, a function of the
#: spec's content) each worker holds, as this process's runs left them: worker address ->
#: key. A run on workers that all hold its spec's sends no set-up task: a warm worker
#: records the index once, not again each run; a worker that lost it since (restarted,
#: another spec's index installed, its task run elsewhere) records the whole index itself
#: before its first chunk (``_optindex._index``), so the results never depend on it.
HELD: dict[str, str] = {}


def note_held(workers: set[str], key: str, stop: list[int]) -> None:
    """After a run of *key* that ended well: its tasks' *workers* hold its set-up.

    Examples
    --------
    >>> note_held({"tcp://10.0.0.1:1"}, "k", []); HELD["tcp://10.0.0.1:1"]
    'k'
    >>> note_held({"tcp://10.0.0.1:1"}, "other", [3]); HELD["tcp://10.0.0.1:1"]  # stopped
    'k'
    """
    if stop:
        return  # tasks cancelled at the first failure may not have run
    if len(HELD) > 1024:
        HELD.clear()
    for w in workers:
        HELD[w] = key


def part_name(run: str, j: int) -> str:
    """The scheduler's variable that holds part *j* of run *run*.

    Examples
    --------
    >>> part_name("abc", 1)
    'nimlab-part-abc-1'
    """
    return f"nimlab-part-{run}-{j}"


def exchange(
    spec: Any,
    plan: list[list[int]] | bytes,
    mine: list[int],
    run: str,
    patience: float | None = None,
    share: list[Any] | None = None,
) -> None:
    """On a Dask worker, before its first chunks: record the parts *mine* of *plan* (the
    chunks of each part, or their ``_share.pack``) of the option index of *spec*, publish them, and install the
    index merged from every part (one not published within *patience* seconds, or four
    times this worker's own parts' time, is recorded here; the planner's
    ``Budgets.cluster_patience_seconds`` of this process when not given). A worker
    that holds the index of this spec already publishes its parts and does not wait; a
    spec without an index does nothing. With *share* (a round's plan for
    :class:`~nimlab.verification._share.Share`, one part per task) the tasks share the
    chunks of their parts as they do their checks' chunks: a worker done with its own
    part's chunks notes some of another's in its part too (each chunk noted once, in one
    of the parts; the index is the OR of them all)."""
    import numpy as np
    from distributed import get_worker

    from nimlab.verification._share import unpack
    from nimlab.verification.chunks import install_prepared, prepare_part
    from nimlab.verification.compiled import has_index, index_cells

    parts: list[list[int]] = unpack(plan)  # packed as one argument by the client
    if not isinstance(patience, (int, float)) or not 0 <= patience <= 3600:
        from nimlab.planner import DEFAULT_BUDGETS

        patience = DEFAULT_BUDGETS.cluster_patience_seconds
    worker = get_worker()
    t0 = time.perf_counter()
    got: dict[int, Any] = {}
    todo: dict[int, Any] = {j: parts[j] for j in mine}
    board: Any = _Board(worker, run)
    if share and len(mine) == 1:
        from nimlab.verification._share import Share

        todo[mine[0]] = notes = Share(share)
        board = _Direct(worker, run, notes.where, notes.k, patience)  # worker to worker
    for j in mine:
        part = prepare_part(spec, todo[j])
        if part is None:
            return  # the spec's chunks need no set-up
        got[j] = part
        board.put(j, part.tobytes())
    if has_index(spec):
        return
    size = (index_cells(spec) + 7) // 8
    deadline = time.perf_counter() + max(patience, 4 * (time.perf_counter() - t0))
    for j in range(len(parts)):
        if j in got:
            continue
        data = None
        with contextlib.suppress(Exception):  # a timeout, a lost scheduler: recorded here
            data = board.get(j, max(0.01, deadline - time.perf_counter()))
        if isinstance(data, bytes) and len(data) == size:
            got[j] = np.frombuffer(data, dtype=np.uint8)
        else:
            got[j] = prepare_part(spec, parts[j])
    board.close()
    install_prepared(spec, [got[j] for j in sorted(got)])


class _Board:
    """Parts published as variables of the scheduler (a message to it; another worker's
    ``variable_get`` waits there for it)."""

    def __init__(self, worker: Any, run: str) -> None:
        self.worker, self.run = worker, run

    def put(self, j: int, data: bytes) -> None:
        from distributed.utils import sync

        sync(self.worker.loop, self.worker.scheduler.variable_set, name=part_name(self.run, j),
             data=data)  # fmt: skip

    def get(self, j: int, timeout: float) -> Any:
        from distributed.utils import sync

        rec = sync(self.worker.loop, self.worker.scheduler.variable_get,
                   name=part_name(self.run, j), timeout=timeout)  # fmt: skip
        return rec.get("value") if isinstance(rec, dict) else None

    def close(self) -> None:
        pass


#: The name of the workers' handler of a part sent to them (:func:`_receive`).
PART_OP = "nimlab_part"
#: Parts sent to this worker by the others: ``(run, part) -> bytes`` (the last few).
_PARTS: dict[tuple[str, int], bytes] = {}
_ARRIVED = threading.Condition()
#: Parts a worker keeps for tasks of its own that have not taken them yet.
KEEP_PARTS = 16


def _receive(run: Any = None, j: Any = None, data: Any = None) -> str | None:
    """A part sent to this worker (its event loop): kept for its task; "OK" once kept."""
    if not (isinstance(run, str) and type(j) is int):
        return None
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        return None
    with _ARRIVED:
        _PARTS[(run, j)] = data
        for old in list(_PARTS)[: max(0, len(_PARTS) - KEEP_PARTS)]:
            del _PARTS[old]
        _ARRIVED.notify_all()
    return "OK"


def serve_parts() -> None:
    """Set this Dask worker's handler of the parts other workers send it (once)."""
    with contextlib.suppress(ImportError, ValueError):  # not on a worker: none come
        from distributed import get_worker

        get_worker().handlers.setdefault(PART_OP, _receive)


class _Direct:
    """Parts sent from worker to worker (one message; the round's workers, *where*, from
    the plan of its tasks): each part goes to every other task's worker, in the
    background (tried again after 5, 10, 20 ... ms while that worker's task has not
    started and its handler is not set, until the patience passes); a part is waited for
    where it arrives."""

    def __init__(self, worker: Any, run: str, where: list[str], k: int, patience: float) -> None:
        self.worker, self.run, self.k, self.patience = worker, run, k, patience
        self.to = sorted({w for i, w in enumerate(where) if i != k and w != worker.address})
        worker.handlers.setdefault(PART_OP, _receive)

    def put(self, j: int, data: bytes) -> None:
        _receive(self.run, j, data)  # another task of this worker may want it
        for addr in self.to:
            until = time.monotonic() + self.patience
            self.worker.loop.add_callback(self._send, addr, j, data, until)

    async def _send(self, addr: str, j: int, data: bytes, until: float) -> None:
        import asyncio

        from nimlab.verification._share import request

        wait = 0.005
        while True:
            with contextlib.suppress(Exception):  # a worker gone: its task runs elsewhere
                if await request(self.worker, addr, PART_OP, run=self.run, j=j, data=data) == "OK":
                    return
            if time.monotonic() > until:
                return
            await asyncio.sleep(wait)  # its task not started: its handler not set yet
            wait = min(2 * wait, 0.1)

    def get(self, j: int, timeout: float) -> Any:
        with _ARRIVED:
            _ARRIVED.wait_for(lambda: (self.run, j) in _PARTS, timeout=timeout)
            return _PARTS.get((self.run, j))

    def close(self) -> None:
        pass  # the parts stay for another task of this worker (the last few are kept)


def forget(client: Any, run: str, n: int) -> None:
    """Delete the *n* part variables of run *run* on *client*'s scheduler (a message that
    does not wait; nothing when the client is gone)."""
    with contextlib.suppress(Exception):
        from distributed import Variable

        for j in range(n):
            Variable(part_name(run, j), client=client).delete()  # type: ignore[no-untyped-call]
