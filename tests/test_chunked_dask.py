"""Chunked canonical solves on a real Dask cluster that loses a worker, then its
scheduler; a client that lost its scheduler; the leftovers of cut-short writes."""

from __future__ import annotations

import contextlib
import math
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_verify_dask import loopback_cluster

import nimlab
from nimlab import canonical_table
from nimlab.engine import _chunkstore as store


def _bouton_p_count(heaps: int, low: int, size: int) -> int:
    """Sorted positions of *heaps* Nim heaps in ``low..size-1`` whose XOR is 0 (Bouton's
    P-positions), counted by multisets: no solve."""
    width = 1 << max(size - 1, 1).bit_length()
    dp = [[0] * width for _ in range(heaps + 1)]  # dp[k][x]: k heaps so far, XOR x
    dp[0][0] = 1
    for v in range(low, size):
        new = [row[:] for row in dp]
        for k in range(heaps):
            for x, ways in enumerate(dp[k]):
                if ways:
                    for m in range(1, heaps - k + 1):  # m more heaps of v
                        new[k + m][x ^ (v if m % 2 else 0)] += ways
        dp = new
    return dp[heaps][0]


def test_bouton_count_is_the_count_of_the_xor_zero_positions() -> None:
    from itertools import combinations_with_replacement

    for heaps, low, size in [(2, 0, 9), (3, 1, 12), (5, 0, 8)]:
        positions = combinations_with_replacement(range(low, size), heaps)
        direct = sum(1 for p in positions if _xor(p) == 0)
        assert _bouton_p_count(heaps, low, size) == direct > 0


def _xor(p: tuple[int, ...]) -> int:
    x = 0
    for h in p:
        x ^= h
    return x


def _chunks(d: Path) -> dict[str, int]:
    """The parts done in *d* (their records) and when each was written."""
    return {p.name: p.stat().st_mtime_ns for p in d.glob("L*.json")} if d.exists() else {}


def _until(cond: Any, seconds: float, step: float = 0.01) -> bool:
    deadline = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(step)
    return True


@pytest.mark.slow
@pytest.mark.timeout(180)  # each worker process and this one compile the wavefront (~7 s CPU)
def test_a_chunked_solve_on_dask_survives_a_killed_worker_and_resumes_after_its_scheduler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Real processes on the loopback: a worker killed (SIGKILL) as it runs its part of the
    solve costs the other one wait, then the survivor solves the lost worker's parts and
    the table ends with Bouton's P-count. Then, on the survivor alone, another table:
    Ctrl-C mid-solve stops the command and the worker's loop; the same command resumes on
    the cluster, its scheduler killed (SIGKILL) mid-solve ends it with one line (exit
    status 2) and keeps every chunk written; the same solve in this process resumes from
    them (none solved again, the leftovers of cut-short writes removed) to Bouton's
    P-count."""
    heaps, size = 5, 32
    want = _bouton_p_count(heaps, 0, size)
    monkeypatch.setenv("NIMLAB_CHUNK_PATIENCE", "1")  # the client's Run carries it
    # the solve at the end runs here: its compile, started now, overlaps the workers'
    warm = threading.Thread(target=canonical_table, args=("nim", 5),
                            kwargs={"heaps": heaps, "kind": "outcome",
                                    "chunk_dir": tmp_path / "warm"}, daemon=True)  # fmt: skip
    warm.start()
    with loopback_cluster(tmp_path, 2, allowed_failures=3) as cluster:
        from distributed import Client

        with Client(cluster.address, timeout="30s") as client:
            pids = client.run(os.getpid)  # worker address -> its process
            d1 = tmp_path / "killed-worker"
            got: list[Any] = []

            def solve() -> None:
                try:
                    got.append(canonical_table("nim", size, heaps=heaps, kind="outcome",
                                               chunk_dir=d1, scheduler=cluster.address))  # fmt: skip
                except BaseException as exc:  # said by the test's thread below
                    got.append(exc)

            thread = threading.Thread(target=solve, daemon=True)
            thread.start()

            # killed as it starts its loop (before it compiles the wavefront: about 7 s
            # of CPU, the dearest part of this test), its parts all still to solve
            def busy() -> list[str]:
                return [w for w, keys in client.processing().items() if keys]

            assert _until(lambda: len(busy()) == 2, 60, 0.05)
            victim = busy()[-1]
            os.kill(pids[victim], signal.SIGKILL)
            at_kill = len(_chunks(d1))
            assert not (d1 / "values.json").exists()
            thread.join(timeout=100)
            assert not thread.is_alive() and got, "the solve did not end"
            table = got[0]
            assert not isinstance(table, BaseException), table
            n_parts = sum(len(parts) for _, _, parts in store.plan(heaps, 0, size, _chunk(d1)))
            assert at_kill < n_parts  # killed mid-solve
            assert table.count == math.comb(size + heaps - 1, heaps)
            assert table.p_count == want
            assert len(_chunks(d1)) == n_parts
            assert victim not in client.scheduler_info()["workers"]
        warm.join(timeout=60)
        _interrupted_then_scheduler_killed(cluster, tmp_path / "stopped", heaps, size + 4)


def _chunk(d: Path) -> int:
    import json

    return int(json.loads((d / "manifest.json").read_text())["chunk_positions"])


def _table(cluster: Any, d: Path, heaps: int, size: int) -> subprocess.Popen[str]:
    """The command line's chunked solve of Nim's outcomes on *cluster*, started."""
    cmd = [sys.executable, "-m", "nimlab", "table", "nim", "--canonical", "--heaps",
           str(heaps), "--size", str(size), "--kind", "outcome", "--chunk-dir", str(d),
           "--scheduler", cluster.address, "--json"]  # fmt: skip
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _stop_after(run: subprocess.Popen[str], d: Path, n: int, stop: Any) -> tuple[str, str, float]:
    """Once *n* chunks are in *d*, *stop*; the command's output and how long it took to
    end after that."""
    try:
        assert _until(lambda: len(_chunks(d)) >= n or run.poll() is not None, 60)
        stop()
        stopped = time.monotonic()
        out, err = run.communicate(timeout=40)
        return out, err, time.monotonic() - stopped
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


def _interrupted_then_scheduler_killed(cluster: Any, d: Path, heaps: int, size: int) -> None:
    n_parts = sum(len(parts) for _, _, parts in store.plan(heaps, 0, size, 4096))
    # Ctrl-C mid-solve: the command stops, and so does the worker's loop (Dask cannot
    # stop a running task: the loop sees it was cancelled), the table left unfinished
    run = _table(cluster, d, heaps, size)
    out, err, _ = _stop_after(run, d, 40, lambda: run.send_signal(signal.SIGINT))
    assert run.returncode == 130 and "Traceback" not in err, (out, err)
    assert _chunk(d) == 4096  # the plan of n_parts
    seen = [_chunks(d)]
    while len(seen) < 20 and (len(seen) < 2 or seen[-1] != seen[-2]):
        time.sleep(0.5)  # until no chunk comes in half a second
        seen.append(_chunks(d))
    interrupted = seen[-1]
    assert 40 <= len(interrupted) < n_parts and seen[-1] == seen[-2], len(interrupted)
    # run again on the cluster: it resumes, and its scheduler is killed mid-solve
    run = _table(cluster, d, heaps, size)
    out, err, ended = _stop_after(run, d, len(interrupted) + 30, cluster.kill_scheduler)
    kept = _chunks(d)
    assert len(interrupted) + 30 <= len(kept) < n_parts, len(kept)  # mid-solve
    assert {k: kept[k] for k in interrupted} == interrupted  # resumed: none solved again
    assert run.returncode == 2, (out, err)
    assert ended < 10, ended  # no wait for the client's 20 s of reconnection
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in err and not out, err
    assert lines[0] == (
        f"error: lost the Dask scheduler at {cluster.address} while solving chunks (its "
        "connection closed: the scheduler stopped, or the network to it failed); the chunks "
        f"written so far are kept in {d}: run the same command again to continue"
    ), err
    after = _chunks(d)
    assert {k: after.get(k) for k in kept} == kept  # every chunk written is kept
    assert not (d / "values.json").exists()
    # the leftovers of writes cut short (a Ctrl-C, a killed worker), and a file not ours
    leftovers = [d / ".L00007-0000.npy.0a1b2c3d.tmp", d / ".values.json.99aa88bb.tmp"]
    for p in leftovers:
        p.write_bytes(b"\x93NUMPY cut short")
    (d / "notes.tmp").write_text("mine")
    table = canonical_table("nim", size, heaps=heaps, kind="outcome", chunk_dir=d)
    assert table.p_count == _bouton_p_count(heaps, 0, size)
    final = _chunks(d)
    assert {k: final[k] for k in after} == after  # resumed: none solved again
    assert len(final) == n_parts
    assert not any(p.exists() for p in leftovers) and (d / "notes.tmp").exists()


class _Pending:
    """A task submitted after the client lost its scheduler: it never ends."""

    waits = 0

    def result(self, timeout: float | None = None) -> object:
        _Pending.waits += 1
        if _Pending.waits > 20:
            raise AssertionError("the solve waits for ever for a task that never ends")
        time.sleep(min(timeout or 0.0, 0.01))
        raise TimeoutError

    def cancel(self) -> None:
        pass


class _LostClient:
    """A client whose scheduler dies as the solve's tasks are submitted."""

    def __init__(self) -> None:
        self.status = "running"
        self.submitted = 0

    def scheduler_info(self) -> dict[str, object]:
        return {"workers": {"tcp://a:1": {}, "tcp://b:1": {}}}

    def submit(self, fn: object, *args: object, **kw: object) -> _Pending:
        self.submitted += 1
        self.status = "connecting"  # the connection closed: reconnecting, for 20 s
        return _Pending()

    def cancel(self, futures: object) -> None:
        pass


def test_a_chunked_solve_whose_client_lost_its_scheduler_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the tasks submitted as the scheduler died are never run nor cancelled: the solve
    # ends on the client's status with the lost scheduler's one line, at once
    from nimlab import _dask
    from nimlab.engine.chunked import _key

    client = _LostClient()
    _Pending.waits = 0

    @contextlib.contextmanager
    def fake(scheduler: object, workers: object, files: object = ()) -> Iterator[object]:
        yield client

    monkeypatch.setattr(_dask, "dask_client", fake)
    g = nimlab.game("nim")
    run = store.Run(g, 3, "outcome", 8, 0, 16, str(tmp_path), _key(g, 3, "outcome", 8, 0), 1 << 30)
    levels = store.plan(3, 0, 8, 16)
    pending = [(li, list(range(len(parts)))) for li, (_, _, parts) in enumerate(levels)]
    whole = [len(parts) == 1 for _, _, parts in levels]
    from nimlab.engine._chunkdask import run_on_dask

    addr = "tcp://10.0.0.1:8786"
    t0 = time.monotonic()
    with pytest.raises(nimlab.ClusterError) as err:
        run_on_dask(run, pending, whole, 0, 2, addr, False)
    assert time.monotonic() - t0 < 5
    assert str(err.value).startswith(f"lost the Dask scheduler at {addr} while solving chunks")
    assert client.submitted == 3  # two loops and the assembly
