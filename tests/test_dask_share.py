"""The tasks of a Dask run's last round share their chunks (verification/_share.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from nimlab.verification import verify


def test_an_owner_and_a_taker_check_each_chunk_once() -> None:
    # two tasks of a round in one process (no worker: a taker asks the other's queue
    # directly), in two threads; the owner of the larger share is slowed (its loop sleeps
    # after each chunk), so the other, done with its own, takes from the back of the
    # slow one's queue, half of what is left each time: each chunk is checked once, by
    # one of them, the owner's given() names those the taker checked
    from nimlab.verification import _share

    shares = [list(range(0, 60)), list(range(60, 70))]
    costs = [[1.0 + (i % 3) for i in s] for s in shares]
    plan = ["test-round-1", 0, ["a", "b"], shares, costs]
    tasks = [_share.Share([*plan[:1], k, *plan[2:]]) for k in range(2)]
    checked: list[list[int]] = [[], []]

    def run(k: int, pause: float) -> None:
        for i in tasks[k]:
            checked[k].append(i)
            time.sleep(pause)

    threads = [threading.Thread(target=run, args=(0, 0.002)), threading.Thread(target=run,
               args=(1, 0.0002))]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    every = checked[0] + checked[1]
    assert sorted(every) == list(range(70))  # each chunk once
    taken = [i for i in checked[1] if i < 60]
    assert taken and sorted(tasks[0].given()) == sorted(taken)
    assert tasks[1].given() == []  # the fast one checked its own share
    assert set(checked[0]) & set(range(60)) == set(range(60)) - set(taken)
    # the taker took the back: every chunk it took comes after every one the owner kept
    assert min(taken) > max(i for i in checked[0] if i < 60)


#: The cycle of :func:`_slowed`, a process of its own: a thread of the test's process
#: would need its GIL, which the client's threads hold, to send each signal. It says
#: when its first cycle is done, so that the block starts with the worker slowed.
_CYCLE = """
import os, signal, sys, time
pid, stopped, running = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
first = True
try:
    while True:
        os.kill(pid, signal.SIGSTOP)
        time.sleep(stopped)
        os.kill(pid, signal.SIGCONT)
        if first:
            print("cycling", flush=True)
            first = False
        time.sleep(running)
finally:
    os.kill(pid, signal.SIGCONT)
"""


@contextlib.contextmanager
def _slowed(pid: int, stopped: float = 0.09, running: float = 0.01) -> Iterator[None]:
    """The process *pid* slowed to a tenth of its speed: stopped (SIGSTOP) and continued
    (SIGCONT) in turn, as a core shared with other work would run it, from the first
    cycle on before the block starts. Each run lasts longer than Python's switch
    interval (5 ms), so the worker's event loop, which answers the others' requests, gets
    the GIL in it: with 1 ms runs its task's thread kept it, and did all its chunks
    before the loop could hand any over."""
    import subprocess
    import sys

    args = [sys.executable, "-c", _CYCLE, str(pid), str(stopped), str(running)]
    cycler = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    try:
        assert cycler.stdout is not None and cycler.stdout.readline() == "cycling\n"
        yield
    finally:
        cycler.terminate()  # its finally continues the worker
        cycler.wait(timeout=10)
        os.kill(pid, signal.SIGCONT)  # in case it ended between the two


#: Nim's Grundy claim, wrong at one position of the last chunk only (its a == 15 rows).
_LATE_WRONG = "a ^ b ^ c ^ ((a == 15) & (b == 9) & (c == 6))"


@pytest.mark.slow
def test_a_slowed_workers_chunks_are_taken_by_the_other(tmp_path: Path) -> None:
    # a loopback cluster of two worker processes, one slowed to a tenth of its speed (see
    # _slowed) for the whole run: the other, done with its own share, takes over the
    # chunks the slowed one has not started (to check, and to note in the option index); the results are those of one process and of
    # the threads (a theorem's count, a wrong claim's counterexample), each chunk stored
    # once; the planner's patience (cluster_patience_seconds, as a user sets it) bounds
    # the wait for the slowed worker's part of the option index
    import dataclasses

    from distributed import Client
    from test_verify_dask import _each_chunk_once, loopback_cluster

    from nimlab import planner
    from nimlab.theory.registry import check_theorem

    serial = check_theorem("Sh-T6*", 96, store=False, workers=1)
    threads = check_theorem("Sh-T6*", 96, store=False, workers=2)
    wrong = verify("nim", _LATE_WRONG, heaps=3, bound=16, chunk_size=128, workers=1)
    assert serial.ok and not wrong.ok and wrong.counterexample is not None
    budgets = planner.DEFAULT_BUDGETS
    try:
        planner.DEFAULT_BUDGETS = dataclasses.replace(budgets, cluster_patience_seconds=0.2)
        with loopback_cluster(tmp_path, 2) as cluster, Client(cluster.address) as client:
            pids = client.run(os.getpid)
            slow, fast = sorted(pids)  # the first worker takes task 0 of a round
            check_theorem("Sh-T6*", 48, store=False, workers=2, scheduler=cluster.address)

            def taken() -> list[tuple[str, int, list[int]]]:
                from nimlab.verification import _share

                got = list(_share.TAKEN)
                _share.TAKEN.clear()
                return got

            client.run(taken, workers=[fast])
            with _slowed(pids[slow]):
                got = check_theorem("Sh-T6*", 96, store=str(tmp_path / "t.sqlite"),
                                    workers=2, scheduler=cluster.address)  # fmt: skip
                bad = verify("nim", _LATE_WRONG, heaps=3, bound=16, chunk_size=128,
                             scheduler=cluster.address, store=str(tmp_path / "w.sqlite"))  # fmt: skip
            took = client.run(taken, workers=[fast])[fast]
    finally:
        planner.DEFAULT_BUDGETS = budgets
    assert got.ok and got.positions_checked == serial.positions_checked
    assert threads.positions_checked == serial.positions_checked
    same = ("result", "counterexample", "positions_checked")
    assert [getattr(bad, k) for k in same] == [getattr(wrong, k) for k in same]
    _each_chunk_once(tmp_path / "w.sqlite", 16)  # 4096 positions, 256 a chunk
    # the fast worker took chunks of the slowed one's task (task 0) in the theorem's run
    # (0.1 s of checking; the wrong claim's, a few ms, may end before it asks), both
    # chunks to check and chunks whose claimed P-positions go in the option index
    assert any(j == 0 and chunks and not r.endswith("-parts") for r, j, chunks in took), took
    assert any(j == 0 and chunks and r.endswith("-parts") for r, j, chunks in took), took


class _Task:
    """A finished task of the fake run below: its result is its chunks' results."""

    status = "finished"

    def __init__(self, key: str, chunks: list[int]) -> None:
        self.key, self.chunks = key, chunks

    def result(self) -> list[Any]:
        from nimlab.verification.local import ChunkResult

        return [ChunkResult(i, 10, 0.001, None, "compiled") for i in self.chunks]


class _Events:
    """A stream of a run's events, in the order given: ``("chunks", message)`` of the
    tasks' messages, ``("done", task)`` of their ends."""

    def __init__(self, events: list[tuple[str, Any]]) -> None:
        from nimlab.verification._stream import Stream

        self.events = list(events)
        self.chunks, self.fetch = Stream.chunks, Stream.fetch
        self.fetched: list[str] = []

    def watch(self, futures: list[Any]) -> None:
        self.events += [("done", f) for f in futures if f.key.startswith("again")]

    def next(self, lost: Any) -> tuple[str, Any]:
        kind, got = self.events.pop(0)
        if kind == "done":
            self.fetched.append(got.key)
        return kind, got

    def close(self) -> None:
        pass


def test_chunks_that_no_task_reported_are_sent_out_again() -> None:
    # a round of two tasks sharing chunks 0-3: task a (0, 2) took chunk 3 from task b
    # (1, 3) and its worker died; the scheduler ran a again elsewhere, where it checked
    # its own chunks only; b's last message said chunk 3 was taken: once both tasks are
    # over, the client sends chunk 3 out again, and every chunk is reported once
    from nimlab.verification._share import task_name
    from nimlab.verification._stream import streamed

    a, b = _Task("a", [0, 2]), _Task("b", [1, 3])
    end_b = {"run": "r", "chunks": [[1, 10, 0.001, "compiled"]], "task": task_name("r-1", 1),
             "given": [3], "failed": False}  # fmt: skip
    events = _Events([("chunks", end_b), ("done", a), ("done", b)])
    again: list[list[int]] = []

    class Rounds:
        def __init__(self) -> None:
            self.todo: list[int] = []

        def record(self, results: list[Any]) -> None:
            pass

        def put_back(self, chunks: list[int]) -> None:
            self.todo = sorted(chunks)

        def drop_after(self, stop: int) -> None:
            pass

    class Tasks:
        def __init__(self) -> None:
            self.futs: dict[Any, list[int]] = {a: [0, 2], b: [1, 3]}
            self.sent = dict(self.futs)
            self.names = {a: task_name("r-1", 0), b: task_name("r-1", 1)}
            self.given: dict[str, set[int]] = {}
            self.failed: set[str] = set()
            self.ended: set[str] = set()
            self.rounds, self.lost = Rounds(), None

        def sent_chunks(self) -> set[int]:
            return {i for chunks in self.sent.values() for i in chunks}

        def submit(self, tag: str) -> list[Any]:
            chunks, self.rounds.todo = self.rounds.todo, []
            again.append(chunks)
            f = _Task(f"again-{chunks[0]}", chunks)
            self.futs[f] = self.sent[f] = chunks
            return [f]

    got = [r.index for r in streamed(Tasks(), events, [], 2, [], "t")]  # type: ignore[arg-type]
    assert sorted(got) == [0, 1, 2, 3] and again == [[3]]
    assert events.fetched == ["a", "b", "again-3"]
