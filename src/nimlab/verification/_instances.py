"""The instances of a theorem side by side on a Dask cluster, each whole on one worker.

A theorem of several vectorised instances (S18-T8: five games Ryuo Nim(p), one box
each) is checked on a cluster with each instance on one worker thread (a slot), in
tasks of consecutive chunks (:func:`~nimlab.verification.cluster.serial_task`: the
instance's line state stays in that worker between them), rather than one instance
after the other, each cut into blocks over the workers (where the worker of a lower
block waits for the summary of the rows above it, sent over the network). The next
instance not started (the costliest first, by
:func:`~nimlab.verification.fast.chunk_costs`) goes to the slot that ends its tasks
first, and the last one is cut in two blocks when that evens out the slots' ends (one
summary sent, made before it is needed: the planner's ``cluster_summary_share`` says
what it costs). Nothing is shared between workers but the scheduler and the store; each instance is its own run of the store, opened when its first task goes out,
its chunks recorded as they arrive (a killed worker or scheduler leaves every run
resumable). The planner's ``Budgets.cluster_instances_per_slot`` says when there are
enough instances for this; else the instances run one after the other as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from nimlab.verification.local import ChunkResult

__all__ = ["check_side_by_side"]


def _parts(spec: Any, pending: list[int]) -> list[list[int]]:
    """The tasks of one instance: runs of consecutive chunks of about the planner's
    ``cluster_task_positions`` each (so its results stream back as it goes)."""
    from nimlab.planner import DEFAULT_BUDGETS
    from nimlab.verification.cluster import block_parts

    sp = spec.space
    runs: list[list[int]] = []
    for c in pending:  # runs of consecutive chunks (a resumed run may have holes)
        if runs and runs[-1][-1] + 1 == c:
            runs[-1].append(c)
        else:
            runs.append([c])
    out = []
    for run in runs:
        rows = sum(a1 - a0 for a0, a1 in (sp.row_range(c) for c in run))
        n = max(1, int(rows * sp.bound) // DEFAULT_BUDGETS.cluster_task_positions)
        out += block_parts(run, n)
    return out


class _Task:
    """A task to send: instance *k*'s ``fn(*args, *deps)`` over *chunks* (none for a
    summary, whose result stays on the cluster), *deps* the futures of those tasks; on
    a worker of several threads a task of chunks also takes the slot's previous task of
    the instance (only ordering)."""

    def __init__(
        self,
        k: int,
        fn: Any,
        args: tuple[Any, ...],
        chunks: list[int],
        deps: list[_Task] | None = None,
    ) -> None:
        self.k, self.fn, self.args, self.chunks = k, fn, args, chunks
        self.deps = deps or []
        self.future: Any = None


class _Dispatch:
    """The tasks of the instances on the slots: each slot keeps two tasks on its worker
    (one running, one queued); the next instance not started goes to the slot that ends
    its tasks first (at the rates measured; queued after its last task, or sent when
    that task ends; ``start(k)`` opens its run and gives its pending chunks). The last
    instance is cut in two blocks when another slot would end its own tasks first: the
    top rows on the slot that takes it (a summary of them first), the bottom rows on the
    slot that ends first, after its tasks (:meth:`_split`)."""

    def __init__(
        self,
        client: Any,
        specs: list[Any],
        blobs: list[Any],
        start: Callable[[int], list[int]],
        stops: list[list[int]],
        slots: list[str],
    ) -> None:
        from nimlab.verification.fast import chunk_costs

        self.client, self.specs, self.blobs, self.start, self.stops = (
            client, specs, blobs, start, stops,
        )  # fmt: skip
        self.costs = [chunk_costs(s, s.space.n_chunks, set(range(s.space.n_chunks))) for s in specs]
        self.order = sorted(range(len(specs)), key=lambda k: -sum(self.costs[k]))
        self.slots = slots
        self.todo: list[list[_Task]] = [[] for _ in slots]  # each slot's tasks to send
        self.last: list[_Task | None] = [None] * len(slots)  # each slot's last task sent
        self.futs: dict[Any, tuple[_Task, int]] = {}  # the tasks out and their slots
        self.failed = len(specs)  # the first instance with a failure found so far
        self.spent = [[0.0, 0.0] for _ in specs]  # seconds, estimated cost of chunks done
        self.began = [time.perf_counter()] * len(slots)  # when each slot's task began

    def record(self, s: int, k: int, results: list[ChunkResult]) -> None:
        """Note the seconds of instance *k*'s chunks *results*, the end of slot *s*'s
        task (its next one begins)."""
        self.spent[k][0] += sum(r.seconds for r in results)
        self.spent[k][1] += sum(self.costs[k][r.index] for r in results)
        self.began[s] = time.perf_counter()

    def _rate(self, k: int | None = None) -> float:
        """Seconds per unit of estimated cost: instance *k*'s, else all instances'."""
        got = [self.spent[k]] if k is not None and self.spent[k][1] else self.spent
        cost = sum(c for _, c in got)
        return sum(t for t, _ in got) / cost if cost else 0.0

    def out(self, s: int) -> int:
        """The tasks of slot *s* out (running or queued on its worker)."""
        return sum(1 for _, slot in self.futs.values() if slot == s)

    def _next_free(self, s: int) -> bool:
        """Whether slot *s* is the first to end its tasks out (at the rates measured)."""
        mine = self._left(s)
        return all(mine <= self._left(v) for v in range(len(self.slots)) if v != s)

    def _left(self, s: int) -> float:
        """The seconds slot *s* has left (its tasks out and to send, at their rates)."""
        tasks = [t for t, slot in self.futs.values() if slot == s] + self.todo[s]
        left = [self._rate(t.k) * sum(self.costs[t.k][c] for c in t.chunks) for t in tasks]
        if left:  # the first task out runs since the slot's last one ended
            left[0] = max(0.0, left[0] - (time.perf_counter() - self.began[s]))
        return sum(left)

    def feed(self, s: int) -> Any:
        """The next task of slot *s* that reports chunks (submitted, after the summaries
        before it), or None when it has no more."""
        while True:
            while not self.todo[s]:
                if not self.order or (self.out(s) and not self._next_free(s)):
                    return None  # none left, or another slot is free first: its turn
                k = self.order.pop(0)
                if k > self.failed:
                    continue  # after a failing instance: not needed
                try:
                    pending = self.start(k)
                except Exception as exc:  # the store's, not the cluster's: said as it is
                    raise _Own(exc) from exc
                if pending:
                    self.todo[s] = (not self.order and self._split(s, k, pending)) or [
                        _Task(k, _task("serial_task"), (self.blobs[k], c), c)
                        for c in _parts(self.specs[k], pending)
                    ]
            task = self.todo[s].pop(0)
            where = self.slots[s]
            pin = {"workers": [where], "allow_other_workers": True} if where else {}
            prev = self.last[s]
            # a worker of one thread runs its tasks in the order they were sent: waiting
            # for the one before (a message to the scheduler and back) only where two
            # threads could run an instance's tasks at once
            shared = self.slots.count(where) > 1
            after = [prev.future] if shared and task.chunks and prev and prev.k == task.k else []
            task.future = self.client.submit(
                task.fn, *task.args, *(d.future for d in task.deps), *after, pure=False,
                key=f"nimlab-inst{task.k}-{time.time_ns()}", **pin,
            )  # fmt: skip
            self.last[s] = task
            if task.chunks:
                self.futs[task.future] = (task, s)
                return task.future

    def _split(self, s: int, k: int, pending: list[int]) -> list[_Task]:
        """Slot *s*'s tasks of instance *k*, the last one, cut in two blocks when the slot
        *v* that ends first of the others would wait for *s* (its tasks left against
        those of *s* and this instance, at the rates measured): the top rows on *s*, the
        bottom rows on *v* after its own tasks (both blocks' first task evaluates their
        claim, the top one's also summarises its lines for the bottom one); [] to check
        it whole on *s*."""
        from nimlab.verification.cluster import block_parts, part_count

        others = sorted({v for _, v in self.futs.values() if v != s})  # busy: fed again
        rate = self._rate()
        if not others or not rate or len(pending) < 2:
            return []
        from nimlab.planner import DEFAULT_BUDGETS

        fill = DEFAULT_BUDGETS.cluster_summary_share  # the top block's summary, extra work
        v = min(others, key=self._left)
        mine, wait = rate * sum(self.costs[k][c] for c in pending), self._left(v) - self._left(s)
        if mine <= wait * (1 + fill):
            return []  # no gain: the other slot ends about when this instance whole does
        last, share, acc = max(pending) + 1, (mine + wait) / (2 + fill) / rate, 0.0
        cut = next(
            (c for c in range(1, last) if (acc := acc + self._cost(k, c - 1, pending)) > share), 0
        )
        if not cut:
            return []
        blocks = [list(range(cut)), list(range(cut, last))]
        blob, summaries = self.blobs[k], []
        tasks: list[list[_Task]] = [[], []]
        for j, block in enumerate(blocks):
            summaries.append(_Task(k, _task("summary_task"), (blob, blocks, pending, j), []))
            tasks[j].append(summaries[-1])
            n = part_count(self.specs[k], block)
            for p, chunks in enumerate(block_parts(block, n)):
                args = (blob, blocks, pending, j, p, n)
                tasks[j].append(_Task(k, _task("block_task"), args, chunks, list(summaries)))
        self.todo[v] += tasks[1]
        return tasks[0]

    def _cost(self, k: int, c: int, pending: list[int]) -> float:
        """The estimated cost of instance *k*'s chunk *c* (0 when it is done already)."""
        return self.costs[k][c] if c in pending else 0.0

    def note_failure(self, k: int) -> None:
        """Instance *k* failed: later instances and its own later chunks are not needed."""
        self.failed = min(self.failed, k)
        for f, (task, _s) in list(self.futs.items()):
            j, chunks = task.k, task.chunks
            if j > self.failed or (self.stops[j] and chunks and chunks[0] > self.stops[j][0]):
                f.cancel()
                del self.futs[f]
        for s in range(len(self.slots)):
            self.todo[s] = [
                t for t in self.todo[s]
                if t.k <= self.failed and not (self.stops[t.k] and t.chunks and t.chunks[0] > self.stops[t.k][0])
            ]  # fmt: skip


def _task(name: str) -> Any:
    from nimlab.verification import cluster

    return getattr(cluster, name)


class _Own(Exception):
    """An error of this process (opening an instance's run), raised as it is."""


def _fill(d: _Dispatch, s: int) -> list[Any]:
    """Slot *s*'s tasks sent until two are out (one running, one queued on its worker:
    it never waits for this process), or it has no more."""
    sent: list[Any] = []
    while d.out(s) < 2 and (f := d.feed(s)) is not None:
        sent.append(f)
    return sent


def instance_chunks(
    client: Any,
    specs: list[Any],
    blobs: list[Any],
    start: Callable[[int], list[int]],
    stops: list[list[int]],
    lost: Callable[[BaseException], Exception],
    as_completed: Any,
) -> Iterator[tuple[int, ChunkResult]]:
    """Check the instances *specs* (pickled as *blobs*) side by side on *client*'s
    cluster, yielding ``(instance, chunk result)`` as each task ends; *stops[k]* holds
    instance k's first failing chunk once known."""
    from nimlab._dask import check_connected, worker_addresses
    from nimlab.core.errors import NimlabError

    try:
        slots = worker_addresses(client) or ["", ""]
        d = _Dispatch(client, specs, blobs, start, stops, slots)
        first = [f for s in range(len(slots)) for f in _fill(d, s)]
        check_connected(client)
        ac = as_completed(first)
        for f in ac:
            got = d.futs.pop(f, None)
            if got is None:
                continue  # cancelled: after a failure
            task, s = got
            k = task.k
            results = f.result()
            d.record(s, k, results)
            for res in results:
                yield k, res
            if any(r.failure is not None for r in results):
                d.note_failure(k)
            for nxt in _fill(d, s):
                check_connected(client)
                ac.add(nxt)
    except _Own as own:
        raise own.__cause__ from None  # type: ignore[misc]
    except NimlabError:
        raise
    except Exception as exc:
        raise lost(exc) from None


def check_side_by_side(specs: list[Any], options: dict[str, Any], what: str) -> list[Any] | None:
    """The results of the vectorised instances *specs* of one theorem checked side by
    side on a Dask cluster (*options*: :func:`~nimlab.verification.runner.run_spec`'s
    keyword arguments, a scheduler among them), in order, None for an instance after a
    failing one that was not finished; None when they run one after the other instead
    (no cluster, fewer instances than the planner's budget asks for, a progress bar)."""
    import os
    import sys

    scheduler = options.get("scheduler")
    if not scheduler or len(specs) < 2 or not all(getattr(s, "fast", False) for s in specs):
        return None
    if options.get("progress") and sys.stderr.isatty():
        return None  # one progress bar at a time
    from nimlab._dask import dask_client, quiet, worker_addresses
    from nimlab.planner import DEFAULT_BUDGETS
    from nimlab.verification.backends import user_files
    from nimlab.verification.runner import _check_run_args
    from nimlab.verification.store import Store

    workers, store, resume = (
        options.get("workers"),
        options.get("store"),
        options.get("resume", False),
    )
    _check_run_args(workers, scheduler, store, resume)  # as each instance's run_spec would

    files = sorted({f for s in specs for f in user_files(s)})
    n_workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    with quiet(), dask_client(scheduler, n_workers, files) as client:
        slots = worker_addresses(client)
        if len(specs) < DEFAULT_BUDGETS.cluster_instances_per_slot * max(1, len(slots)):
            return None
        st, own = (store, False) if isinstance(store, Store) else (None, False)
        if st is None and (store not in (None, False) or resume):
            st, own = Store(None if store in (True, None) else store), True
        try:
            return _Runs(specs, st, resume, what, options).run(client, scheduler, n_workers)
        finally:
            if own and st is not None:
                st.close()


class _Runs:
    """The store's runs of the instances, opened as their first tasks go out."""

    def __init__(
        self, specs: list[Any], st: Any, resume: Any, what: str, options: dict[str, Any]
    ) -> None:
        self.specs, self.st, self.resume, self.what = specs, st, resume, what
        self.progress = bool(options.get("progress"))
        self.opened: dict[int, Any] = {}  # instance -> (run id, tally, progress, start)
        self.stops: list[list[int]] = [[] for _ in specs]

    def start(self, k: int) -> list[int]:
        """Open instance *k*'s run (resumed or new); its pending chunks."""
        from nimlab.verification.progress import RunProgress
        from nimlab.verification.runner import _open_run, _Tally

        spec = self.specs[k]
        t0 = time.perf_counter()
        run_id, done = _open_run(spec, self.st, self.resume, self.what)
        tally = _Tally.of(done)
        self.stops[k][:] = tally.stop
        tally.stop = self.stops[k]
        n = spec.space.n_chunks
        prog = RunProgress(spec.target, n, self.progress)
        prog.advance(len(done), sum(tally.counts.values()))
        self.opened[k] = (run_id, tally, prog, t0)
        stop = tally.stop
        return [i for i in range(n) if i not in done and not (stop and i > stop[0])]

    def run(self, client: Any, scheduler: str, workers: int) -> list[Any]:
        """Check every instance needed; their results in order."""
        from nimlab._dask import distributed_module
        from nimlab.verification.backends import _cluster_lost, dumps_spec
        from nimlab.verification.cluster import SCATTER_BYTES
        from nimlab.verification.runner import _add, _interrupted

        blobs = [dumps_spec(s) for s in self.specs]
        sent = [b if len(b) <= SCATTER_BYTES else client.scatter(b, broadcast=True) for b in blobs]
        done = False
        try:
            it = instance_chunks(
                client, self.specs, sent, self.start, self.stops,
                lambda exc: _cluster_lost(scheduler, exc, self.st is not None),
                distributed_module().as_completed,
            )  # fmt: skip
            for k, res in it:
                run_id, tally, prog, _t0 = self.opened[k]
                _add(res, tally, self.st, run_id, prog)
            done = True
        finally:
            for run_id, tally, prog, t0 in self.opened.values():
                prog.close()
                if not done:
                    _interrupted(tally, self.st, run_id, t0)
        return self._results(workers)

    def _results(self, workers: int) -> list[Any]:
        """Each instance's result up to the first that failed (None after it: an opened
        run not finished is left resumable, as an interrupted one)."""
        from nimlab.verification.runner import _finish, _interrupted

        out: list[Any] = []
        for k, spec in enumerate(self.specs):
            run_id, tally, _prog, t0 = self.opened.get(k, (None, None, None, 0.0))
            if out and (out[-1] is None or not out[-1].ok):
                if tally is not None:
                    _interrupted(tally, self.st, run_id, t0)
                out.append(None)
                continue
            out.append(_finish(spec, self.st, run_id, tally, t0, ("dask", workers), self.what))
        return out
