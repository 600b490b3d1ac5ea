"""Dask backends: a LocalCluster, and a separately started scheduler and worker."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import nimlab
from nimlab.verification import verify

BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_local_cluster_counts_equal_process_pool() -> None:
    pool = verify("nim", "a ^ b ^ c", bound=9, workers=2, chunk_size=81)
    dask = verify("nim", "a ^ b ^ c", bound=9, workers=2, chunk_size=81, dask_local=True)
    assert dask.backend == "dask" and pool.backend == "threads"  # compiled: threads
    assert dask.ok and pool.ok
    assert dask.positions_checked == pool.positions_checked == 729
    assert dask.chunks == pool.chunks == 9


@pytest.fixture
def dask_cluster(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    addr = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ)
    env.pop("NIMLAB_VERIFY_CHUNK_SLEEP", None)
    log = open(tmp_path / "dask.log", "w")  # noqa: SIM115
    sched = subprocess.Popen(
        [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
         "--no-dashboard"],
        stdout=log, stderr=log, env=env, start_new_session=True,
    )  # fmt: skip
    worker = subprocess.Popen(
        [str(BIN / "dask"), "worker", addr, "--nworkers", "2", "--nthreads", "1",
         "--no-dashboard", "--host", "127.0.0.1"],
        stdout=log, stderr=log, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.2)
        yield addr
    finally:
        for p in (worker, sched):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in (worker, sched):
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        log.close()


def test_scheduler_and_worker_serve_a_cli_run(dask_cluster: str, tmp_path: Path) -> None:
    env = dict(os.environ)
    env["NIMLAB_STORE"] = str(tmp_path / "r.sqlite")
    env.pop("NIMLAB_VERIFY_CHUNK_SLEEP", None)
    cmd = [
        sys.executable, "-m", "nimlab", "verify", "--game", "nimhoff", "-p", "k=1",
        "--formula", "a ^ b ^ ((a >> 1) & (b >> 1) & 1)", "--heaps", "2", "--bound", "24",
        "--scheduler", dask_cluster, "--json", "--chunk-size", "48",
    ]  # fmt: skip
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["backend"] == "dask" and data["result"] == "verified"
    assert data["positions_checked"] == 24 * 24 and data["chunks"] == 12
    local = verify(nimlab.game("nimhoff", k=1), "a ^ b ^ ((a >> 1) & (b >> 1) & 1)",
                   heaps=2, bound=24, workers=1, chunk_size=48)  # fmt: skip
    assert local.positions_checked == data["positions_checked"]
    bad = subprocess.run(
        [*cmd[:9], "a ^ b", *cmd[10:]], env=env, capture_output=True, text=True, timeout=120
    )
    assert bad.returncode == 1
    cex = json.loads(bad.stdout)["counterexample"]
    assert cex["position"] == [2, 2] and cex["claimed"] == 0 and cex["actual"] == 1


class _Now:
    """A finished future (the fake client below runs each task at once)."""

    def __init__(self, value: object) -> None:
        self.value = value

    def result(self) -> object:
        return self.value

    def cancel(self) -> None:
        pass


class _NowClient:
    """A Dask client that runs each task when it is submitted, on 'two workers'."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, object]]] = []

    def scheduler_info(self) -> dict[str, object]:
        return {"workers": {"tcp://a:1": {}, "tcp://b:1": {}}}

    def scatter(self, blob: bytes, broadcast: bool = False) -> bytes:
        return blob

    def submit(self, fn: object, *args: object, **kw: object) -> _Now:
        self.calls.append((getattr(fn, "__name__", ""), kw))
        got = [a.value if isinstance(a, _Now) else a for a in args]
        return _Now(fn(*got))  # type: ignore[operator]


class _ForgetfulClient(_NowClient):
    """As :class:`_NowClient`, but each task runs on a worker that holds nothing of the
    earlier tasks (as after a lost worker): every part of a block rebuilds its state."""

    def submit(self, fn: object, *args: object, **kw: object) -> _Now:
        from nimlab.verification import cluster

        cluster._STATES.clear()
        cluster._KEPT.clear()
        return super().submit(fn, *args, **kw)


@pytest.mark.parametrize(
    ("formula", "bound", "client"),
    [
        ("3*((a//3)^(b//3)) + (a+b)%3", 96, _NowClient),  # Ryuo Nim(3) (S18-T8): holds
        ("a ^ b ^ ((a == 40) & (b == 60))", 96, _NowClient),  # Nim, wrong at (40, 60) only
        ("3*((a//3)^(b//3)) + (a+b)%3", 96, _ForgetfulClient),
        ("a ^ b ^ ((a == 40) & (b == 60))", 96, _ForgetfulClient),
    ],
)
def test_vectorised_blocks_on_dask_agree_with_one_process(
    formula: str, bound: int, client: type[_NowClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The vectorised check as blocks (a summary task per worker, then the block's check
    in parts, each continuing from the state the previous part left, or rebuilding it)
    gives the chunks' counts and the first counterexample of the serial run."""
    from nimlab.verification.backends import chunk_results, dumps_spec
    from nimlab.verification.cluster import dask_chunks
    from nimlab.verification.runner import conjecture_spec

    game = nimlab.game("ryuo", p=3) if formula.startswith("3*") else nimlab.game("nim")
    spec = conjecture_spec(game, formula, bound=bound, heaps=2, chunk_size=bound * 8)
    assert spec.fast and spec.space.n_chunks >= 8
    pending = list(range(spec.space.n_chunks))
    serial = {r.index: (r.count, r.failure) for r in chunk_results(spec, "serial", pending, 1, [])}
    fake = client()
    from nimlab.verification import cluster

    monkeypatch.setattr(cluster, "PART_POSITIONS", bound * 8)  # parts of one chunk: 8 a block
    got = {
        r.index: (r.count, r.failure)
        for r in dask_chunks(fake, dumps_spec(spec), pending, 2, [], RuntimeError, iter)
    }
    names = [name for name, _ in fake.calls]
    assert names.count("summary_task") == 2 and names[0] == "summary_task"
    second = names.index("summary_task", 1)
    assert second > 2 and names[1:second] == ["block_task"] * (second - 1)  # block 0's parts
    assert all(kw["workers"] == ["tcp://a:1"] for _, kw in fake.calls[:second])
    first = min((i for i, (_, f) in serial.items() if f is not None), default=None)
    if first is None:
        assert got == serial
    else:  # the runs agree up to the first failure (the serial run stops there)
        assert got[first] == serial[first] and got[first][1].position == (40, 60)
        assert {i: v for i, v in got.items() if i < first} == {
            i: v for i, v in serial.items() if i < first
        }


class _Never:
    """A task submitted after the client lost its scheduler: never run, never cancelled."""

    def cancel(self) -> None:
        pass


class _LosingClient(_NowClient):
    """As :class:`_NowClient` until its *lost_at*-th task: then it has lost its scheduler
    (a client trying to reconnect), and every task submitted from then on never ends."""

    def __init__(self, lost_at: int) -> None:
        super().__init__()
        self.lost_at = lost_at
        self.status = "running"

    def submit(self, fn: object, *args: object, **kw: object) -> object:
        if len(self.calls) >= self.lost_at:
            self.status = "connecting"
            self.calls.append((getattr(fn, "__name__", ""), kw))
            return _Never()
        return super().submit(fn, *args, **kw)


class _Waiting:
    """``as_completed`` of finished fakes; waiting for a :class:`_Never` is a hang."""

    def __init__(self, futures: list[object]) -> None:
        self.futures = list(futures)

    def add(self, f: object) -> None:
        self.futures.append(f)

    def __iter__(self) -> Iterator[object]:
        while self.futures:
            f = self.futures.pop(0)
            if isinstance(f, _Never):
                raise AssertionError("the run waits for ever for a task that never ends")
            yield f


@pytest.mark.parametrize(
    ("game", "formula", "lost_at"),
    [("nim", "a ^ b ^ c", 1), ("nim", "a ^ b ^ c", 6), ("ryuo", "3*((a//3)^(b//3)) + (a+b)%3", 3)],
)
def test_tasks_submitted_after_the_scheduler_was_lost_end_the_run(
    game: str, formula: str, lost_at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the client cancels the tasks it holds when its scheduler dies, but a task submitted
    # after that (as the runner submits the next round, or a vectorised block's parts)
    # never ends: the run ends with the scheduler's loss instead of waiting for it
    from dataclasses import replace

    from nimlab import planner
    from nimlab.verification.backends import _cluster_lost, chunk_results, dumps_spec
    from nimlab.verification.cluster import dask_chunks
    from nimlab.verification.runner import conjecture_spec

    heaps = 3 if game == "nim" else 2
    spec = conjecture_spec(nimlab.game(game, **({"p": 3} if game == "ryuo" else {})), formula,
                           bound=16 if game == "nim" else 96, heaps=heaps, chunk_size=128)  # fmt: skip
    pending = list(range(spec.space.n_chunks))
    assert len(pending) >= 8 and spec.fast == (game == "ryuo")
    serial = {r.index: r.count for r in chunk_results(spec, "serial", pending, 1, [])}
    # tasks of one chunk until the rate is known: a run of rounds (a short run goes out
    # at once, with nothing submitted later)
    small = replace(planner.DEFAULT_BUDGETS, cluster_task_positions=128)
    monkeypatch.setattr(planner, "DEFAULT_BUDGETS", small)
    client = _LosingClient(lost_at)
    got: dict[int, int] = {}
    addr = "tcp://10.0.0.1:8786"
    with pytest.raises(nimlab.ClusterError) as err:
        for r in dask_chunks(client, dumps_spec(spec), pending, 2, [],
                             lambda e: _cluster_lost(addr, e), _Waiting):  # fmt: skip
            got[r.index] = r.count
    assert str(err.value).startswith(f"lost the Dask scheduler at {addr} while checking chunks")
    assert client.status == "connecting" and len(client.calls) > lost_at
    assert got == {i: serial[i] for i in got}  # the results before the loss are the chunks'
    if lost_at == 6:  # after 2 set-up tasks and 2 rounds of 2 tasks
        assert got  # the first rounds' results came back before the loss


def test_a_run_reuses_the_sessions_client_of_its_scheduler() -> None:
    # a client this session holds for the same scheduler serves the run (no start-up,
    # not closed by it); another scheduler's, a closed one or none: the run makes its own
    import types

    from nimlab._dask import held_client as _held_client

    def fake(address: str, status: str = "running") -> types.ModuleType:
        client = types.SimpleNamespace(
            scheduler=types.SimpleNamespace(address=address), status=status
        )
        mod = types.ModuleType("distributed")
        mod.default_client = lambda: client  # type: ignore[attr-defined]
        return mod

    here = "tcp://127.0.0.1:8786"
    mod = fake(here)
    assert _held_client(mod, here) is mod.default_client()  # type: ignore[attr-defined]
    assert _held_client(fake("tcp://10.0.0.1:8786"), here) is None
    assert _held_client(fake(here, "closed"), here) is None
    none = types.ModuleType("distributed")

    def no_client() -> object:
        raise ValueError("No clients found")

    none.default_client = no_client  # type: ignore[attr-defined]
    assert _held_client(none, here) is None
    assert _held_client(types.ModuleType("distributed"), here) is None


def _dask_proc(args: list[str], log: object, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(BIN / "dask"), *args], stdout=log, stderr=log, env=env, start_new_session=True
    )


def _stored_chunks(db: Path) -> int:
    import sqlite3

    try:
        con = sqlite3.connect(str(db), timeout=1)
        try:
            return int(con.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


class LoopbackCluster:
    """A ``dask scheduler`` and single-threaded ``dask worker`` processes without nanny
    (a killed worker stays dead) on 127.0.0.1, each in its own session, started by
    :func:`loopback_cluster`; the scheduler gives a task no second chance when
    *allowed_failures* is 0."""

    def __init__(self, tmp_path: Path, worker_env: dict[str, str], allowed_failures: int) -> None:
        self.port = _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        env = dict(os.environ)
        env.pop("NIMLAB_VERIFY_CHUNK_SLEEP", None)
        env["DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES"] = str(allowed_failures)
        self.env = env
        self.log = open(tmp_path / "dask.log", "w")  # noqa: SIM115
        self.scheduler = _dask_proc(["scheduler", "--host", "127.0.0.1", "--port",
                                     str(self.port), "--no-dashboard"], self.log, env)  # fmt: skip
        self.workers: list[subprocess.Popen[bytes]] = []
        self.worker_env = {**env, **worker_env}

    def add_workers(self, n: int) -> None:
        for _ in range(n):
            self.workers.append(_dask_proc(["worker", self.address, "--nthreads", "1",
                                            "--no-nanny", "--no-dashboard", "--host",
                                            "127.0.0.1"], self.log, self.worker_env))  # fmt: skip

    def kill_scheduler(self) -> None:
        os.killpg(self.scheduler.pid, signal.SIGKILL)
        self.scheduler.wait()

    def close(self) -> None:
        for p in [self.scheduler, *self.workers]:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
        self.log.close()


@contextlib.contextmanager
def loopback_cluster(
    tmp_path: Path, workers: int = 2, worker_env: dict[str, str] | None = None,
    allowed_failures: int = 0,
) -> Iterator[LoopbackCluster]:  # fmt: skip
    """A scheduler and *workers* worker processes on the loopback, every worker connected
    (killed on the way out, whatever the test did to them)."""
    cluster = LoopbackCluster(tmp_path, worker_env or {}, allowed_failures)
    try:
        cluster.add_workers(workers)
        from distributed import Client

        with Client(cluster.address, timeout="30s") as client:
            client.wait_for_workers(workers, timeout=30)
        yield cluster
    finally:
        cluster.close()


#: The CLI runs of the kill tests print no progress line (one every 5 s when stderr is
#: not a terminal): on a loaded machine a run can last that long, and the tests check that
#: the failure is said in exactly one line.
_QUIET = dict(os.environ, NIMLAB_PROGRESS_INTERVAL="100000")


@pytest.mark.slow
def test_a_killed_worker_loses_nothing_and_says_so(tmp_path: Path) -> None:
    """A real Dask worker process killed (SIGKILL) mid-run: the scheduler (which gives a
    task no second chance here) fails the task it held; the run ends with one clear line
    naming the lost worker and --resume, the chunks checked so far are in the store, and
    the resumed run on the worker left checks the rest once: the same totals as one
    process, each chunk stored once."""
    slow = {"NIMLAB_VERIFY_CHUNK_SLEEP": "0.2"}
    db = tmp_path / "r.sqlite"
    run = None
    with loopback_cluster(tmp_path, 2, slow) as cluster:
        addr = cluster.address
        cmd = [sys.executable, "-m", "nimlab", "verify", "--game", "nim", "--formula",
               "a ^ b ^ c", "--heaps", "3", "--bound", "16", "--chunk-size", "128",
               "--scheduler", addr, "--store", str(db), "--json"]  # fmt: skip
        try:
            from distributed import Client

            with Client(addr, timeout="30s") as client:
                pids = client.run(os.getpid)  # worker address -> its process
                run = subprocess.Popen(
                    cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_QUIET
                )
                deadline = time.monotonic() + 30
                busy: list[str] = []
                while not busy and time.monotonic() < deadline and run.poll() is None:
                    time.sleep(0.05)
                    if _stored_chunks(db) >= 1:  # mid-run: a worker that holds a task now
                        busy = [w for w, keys in client.processing().items() if keys]
                before = _stored_chunks(db)
                os.kill(pids[busy[0]], signal.SIGKILL)
            out, err = run.communicate(timeout=60)
            n = 16  # chunks of the run (4096 positions)
            assert 1 <= before < n
            assert run.returncode == 2, (out, err)
            lines = [x for x in err.splitlines() if x.strip()]
            assert len(lines) == 1 and "Traceback" not in err, err
            assert f"of the Dask scheduler at {addr} died while checking chunks" in err, err
            assert "allowed-failures = 0" in err and "--resume" in err, err
            kept = _stored_chunks(db)
            assert before <= kept < n
            # the slow chunks were for the kill to come mid-run: the worker left checks the
            # rest at about full speed (0.2 s a chunk made the resume 2-3 s long; not 0,
            # which would choose another path for the chunks)
            with Client(addr, timeout="30s") as client:
                client.run(exec, "import os; os.environ['NIMLAB_VERIFY_CHUNK_SLEEP'] = '0.001'")
            again = verify("nim", "a ^ b ^ c", heaps=3, bound=16, chunk_size=128,
                           scheduler=addr, store=str(db), resume=True)  # fmt: skip
            assert again.ok and again.positions_checked == 16**3
            assert again.chunks == n and again.chunks_resumed == kept
            _each_chunk_once(db, n)
        finally:
            if run is not None and run.poll() is None:
                run.kill()
                run.wait()


def _each_chunk_once(db: Path, n: int) -> None:
    """The store holds one run (resumed), each of its *n* chunks once."""
    import sqlite3

    con = sqlite3.connect(str(db))
    rows = con.execute("SELECT run_id, idx FROM chunks").fetchall()
    con.close()
    assert len({r for r, _ in rows}) == 1  # one run, resumed
    assert sorted(i for _, i in rows) == list(range(n))


#: Nim's P-set claim, wrong at one position of the last chunk only (its a == 15 rows): a
#: resumed run finds it only if it checks the chunks the killed run left.
_LATE_WRONG = "a ^ b ^ c ^ ((a == 15) & (b == 9) & (c == 6))"


@pytest.mark.slow
def test_a_killed_scheduler_loses_nothing_and_says_so(tmp_path: Path) -> None:
    """The scheduler process killed (SIGKILL) mid-run: the client's futures are cancelled
    and the run ends at once (no wait for a reconnection) with one clear line saying the
    scheduler was lost and --resume, exit status 2; the chunks stored before the kill
    are kept, and the run resumed in this process checks the others once: the result,
    counterexample and count of an uninterrupted run."""
    slow = {"NIMLAB_VERIFY_CHUNK_SLEEP": "0.2"}
    db = tmp_path / "r.sqlite"
    n = 16  # chunks of the run (4096 positions, 256 a chunk)
    with loopback_cluster(tmp_path, 2, slow) as cluster:
        cmd = [sys.executable, "-m", "nimlab", "verify", "--game", "nim", "--formula",
               _LATE_WRONG, "--heaps", "3", "--bound", "16", "--chunk-size", "128",
               "--scheduler", cluster.address, "--store", str(db), "--json"]  # fmt: skip
        run = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_QUIET
        )
        try:
            deadline = time.monotonic() + 30
            while _stored_chunks(db) < 1 and time.monotonic() < deadline and run.poll() is None:
                time.sleep(0.02)
            before = _stored_chunks(db)
            cluster.kill_scheduler()  # mid-run: the workers hold the next rounds' tasks
            killed = time.monotonic()
            out, err = run.communicate(timeout=40)
            ended = time.monotonic() - killed
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
    assert 1 <= before < n, before
    assert run.returncode == 2, (out, err)
    assert ended < 10, ended  # no wait for the client's 20 s of reconnection
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in err and not out, err
    assert lines[0].startswith(
        f"error: lost the Dask scheduler at {cluster.address} while checking chunks "
        "(its connection closed"
    ), err
    assert lines[0].endswith("the chunks checked so far are in the store: run the same "
                             "command with --resume to continue"), err  # fmt: skip
    kept = _stored_chunks(db)
    assert before <= kept < n
    whole = verify("nim", _LATE_WRONG, heaps=3, bound=16, chunk_size=128, workers=1)
    again = verify("nim", _LATE_WRONG, heaps=3, bound=16, chunk_size=128, workers=1,
                   store=str(db), resume=True)  # fmt: skip
    assert not whole.ok and whole.counterexample is not None
    assert whole.counterexample.position == (15, 9, 6)
    same = ("result", "counterexample", "positions_checked")
    assert [getattr(again, k) for k in same] == [getattr(whole, k) for k in same]
    assert again.chunks == n and again.chunks_resumed == kept
    _each_chunk_once(db, n)


_FAULTS = """
import resource, numpy as np
from nimlab.verification.cluster import _kept_heap

def faults():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(100):
        a = np.ones(1 << 17)  # 1 MB, allocated and freed as a check's arrays are
        del a
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

faults()
with _kept_heap():
    inside = faults()
print(faults(), inside)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_a_dask_task_keeps_freed_memory_for_its_next_arrays() -> None:
    # Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536: each array freed
    # was given back to the system and faulted in again; inside a task it is kept, and
    # the worker's setting is back after it
    env = {**os.environ, "MALLOC_TRIM_THRESHOLD_": "65536"}
    out = subprocess.run(
        [sys.executable, "-c", _FAULTS], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    after, inside = map(int, out.stdout.split())
    assert after > 100 * 200  # every 1 MB array faulted in again (256 pages each)
    assert inside < 1000


@pytest.mark.slow
def test_a_theorem_or_a_reproduce_on_dask_local_starts_one_cluster(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # S18-T8 has five instances, reproduce runs several results: --dask-local started a
    # cluster for each (starts of 1-3 s, each worker loading the kernels again); one
    # cluster serves a whole theorem, and a whole reproduce, now
    from nimlab import _dask
    from nimlab.theory.registry import check_theorem, theorem

    made: list[int] = []
    real = _dask.local_cluster

    def counted(make: object, workers: int) -> object:
        made.append(workers)
        return real(make, workers)

    monkeypatch.setattr(_dask, "local_cluster", counted)
    on_dask = check_theorem("S18-T8", 60, dask_local=True, workers=2, store=False)
    here = check_theorem("S18-T8", 60, workers=1, store=False)
    assert made == [2]
    assert on_dask.ok and on_dask.positions_checked == here.positions_checked == 5 * 60 * 60

    seen: list[object] = []

    def check(tid: str, bound: int, **run: object) -> object:
        seen.append(run.get("scheduler"))
        assert not run.get("dask_local")
        return check_theorem(tid, bound=min(bound, 12), **run)  # small: the cluster matters

    ids = ["S19-T1", "S18-T8"]
    found = nimlab.reproduce(
        results=[theorem(i) for i in ids], dask_local=True, workers=2, store=False, check=check
    )
    assert made == [2, 2] and len(seen) == 2 and seen[0] == seen[1] and seen[0] is not None
    assert [f.theorem for f in found] == ids
    assert all(f.result is not None and f.result.ok for f in found)


def test_futures_cancelled_for_a_lost_scheduler_are_told_from_other_cancellations() -> None:
    # distributed cancels a client's futures with this reason code when its scheduler is
    # gone; a task cancelled for another reason is not a lost scheduler
    from distributed.client import FutureCancelledError

    from nimlab._dask import cluster_lost

    gone = FutureCancelledError("k", "scheduler-connection-lost")
    lost = cluster_lost(None, gone, "again", "checking")
    assert str(lost).startswith("lost the local Dask cluster while checking (its connection")
    other = cluster_lost(None, FutureCancelledError("k", "lost dependencies"), "again", "checking")
    assert "its connection closed" not in str(other)
    assert "FutureCancelledError" in str(other)


def test_a_short_compiled_run_goes_out_at_once_in_tasks_of_equal_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Sh-T6*'s space (4 sorted heaps): its chunks hold 1 to 8,000 positions, in runs that
    # alternate large and small ones (every other chunk, as the old rounds shared them
    # out, gave one worker a fifth more work). A run of at most two budgets of positions
    # per worker goes out in the first rounds, each worker's task within one chunk of the
    # others' (one task per worker when one budget each holds the run); a longer one in
    # tasks of about one budget until the rate is known.
    import types
    from dataclasses import replace

    from nimlab import planner
    from nimlab.verification.cluster import ROUNDS_AHEAD, _Rounds, chunk_positions
    from nimlab.verification.spaces import SortedBoxSpace

    space = SortedBoxSpace(4, 64, low=1, target=8192)
    spec = types.SimpleNamespace(compiled=True, space=space)
    pending = list(range(space.n_chunks))
    pos = dict(zip(pending, chunk_positions(spec, pending) or [], strict=True))
    assert sum(pos.values()) == space.size

    def set_budget(positions: int) -> None:
        monkeypatch.setattr(planner, "DEFAULT_BUDGETS",
                            replace(planner.DEFAULT_BUDGETS, cluster_task_positions=positions))  # fmt: skip

    for per_worker, n_rounds in ((space.size, 1), (space.size // 2, 1), (space.size // 3, 2)):
        set_budget(per_worker)
        rounds = _Rounds(spec, pending, 2)
        tasks = [rounds.next_round() for _ in range(ROUNDS_AHEAD)]
        assert not rounds.todo  # the whole run at once: no round trip for a later round
        assert sorted(i for r in tasks for t in r for i in t) == pending
        assert [len(r) for r in tasks] == [2] * n_rounds + [0] * (ROUNDS_AHEAD - n_rounds)
        for r in tasks[:n_rounds]:
            loads = [sum(pos[i] for i in t) for t in r]
            assert max(loads) - min(loads) <= max(pos.values())
    budget = space.size // 8  # 4 budgets per worker: a long run
    set_budget(budget)
    rounds = _Rounds(spec, pending, 2)
    first = rounds.next_round()
    assert rounds.todo and len(first) == 2
    assert all(abs(sum(pos[i] for i in t) - budget) <= max(pos.values()) for t in first)


def test_streamed_chunk_results_are_checked_numbers_of_the_runs_own_chunks() -> None:
    # a worker's message of chunk results (msgpack: lists come back as tuples) is data: a
    # row of the wrong shape or types, a chunk the run did not submit or already had, and
    # a failure (which travels with the task's own result) are dropped
    from nimlab.verification._stream import Sender, Stream
    from nimlab.verification.local import ChunkResult

    futs = {"task-a": [0, 2, 4], "task-b": [1, 3]}
    got = ((0, 256, 0.01, "compiled"), [3, 7, 0.5, "python"], (2, "256", 0.1, "compiled"),
           (4, 9, 0.1, None), (9, 1, 0.1, "compiled"), (1, -1, 0.1, "compiled"),
           (1, 5, 0.1), "junk", (True, 5, 0.1, "compiled"))  # fmt: skip
    out = Stream.chunks(got, futs, seen={3})
    assert out == [ChunkResult(0, 256, 0.01, None, "compiled")]
    assert Stream.chunks({"not": "rows"}, futs, set()) == []
    sender = Sender("")  # outside a worker: nothing held, nothing sent
    sender.add(ChunkResult(0, 256, 0.01, None, "compiled"))
    assert sender.batch == [] and sender.worker is None


@pytest.mark.slow
def test_warm_workers_keep_the_option_index_and_a_worker_that_lost_it_records_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a P-set check with an option index (Sh-T6*, Single-delete) on a local cluster of 2:
    # the first run's tasks record and exchange the index's parts; a second run of the
    # same spec on the same workers exchanges none (each worker holds the index of that
    # spec's content); workers that lost it (as restarted) record the whole index
    # themselves; another spec (another bound) exchanges its own parts again; a part that
    # no other worker publishes is recorded by the worker that waits for it; a space of
    # more than the planner's task budget per worker sends set-up tasks instead (parts
    # passed from worker to worker, never held by the scheduler); the counts are the one
    # process's every time
    from dataclasses import replace

    from distributed import Client, LocalCluster

    from nimlab._dask import local_cluster
    from nimlab.theory.registry import check_theorem, theorem_specs
    from nimlab.verification import cluster as clu
    from nimlab.verification.backends import dumps_spec

    serial = {b: check_theorem("Sh-T6*", b, store=False, workers=1) for b in (20, 24)}
    assert all(r.ok for r in serial.values())
    dask_cluster = local_cluster(LocalCluster, 2)
    try:
        with Client(dask_cluster) as client:
            sent: list[tuple[str, bool]] = []
            paces: list[Any] = []
            submit = client.submit

            def counting(fn: Any, *args: Any, **kw: Any) -> Any:
                sent.append((fn.__name__, bool(kw.get("exchange"))))
                paces.append(kw.get("every"))
                return submit(fn, *args, **kw)

            client.submit = counting  # type: ignore[method-assign]

            def run(bound: int) -> list[tuple[str, bool]]:
                sent.clear()
                r = check_theorem("Sh-T6*", bound, store=False, workers=2,
                                  scheduler=dask_cluster.scheduler_address)  # fmt: skip
                assert r.ok and r.positions_checked == serial[bound].positions_checked
                return sorted(set(sent))

            assert run(24) == [("check_task", True)]  # the parts exchanged by the tasks
            assert run(24) == [("check_task", False)]  # warm: the workers hold the index
            forget = "from nimlab.verification import _optindex; _optindex._INDEXES.clear()"
            client.run(exec, forget)
            assert run(24) == [("check_task", False)]  # recorded again on each worker
            assert run(20) == [("check_task", True)]  # another spec's index
            # the client's pace of the streamed results goes with the tasks (a worker's
            # own budgets are the defaults, not the ones the user set)
            from nimlab import planner

            budgets = planner.DEFAULT_BUDGETS
            planner.DEFAULT_BUDGETS = replace(budgets, cluster_stream_seconds=0.125)
            try:
                paces.clear()
                assert run(20) == [("check_task", False)]
            finally:
                planner.DEFAULT_BUDGETS = budgets
            assert paces and set(paces) == {0.125}
            # one task alone, told to wait 0.05 s (the planner's patience as a client sends
            # it) for a part nobody publishes: it records it
            client.run(exec, forget)
            spec = theorem_specs("Sh-T6*", 24)[0]
            every = list(range(spec.space.n_chunks))
            plan = [every[0::2], every[1::2]]
            got = submit(clu.check_task, dumps_spec(spec), every, pure=False,
                         exchange=[plan, [0], "nobody-publishes-part-1", 0.05]).result()  # fmt: skip
            assert sum(r.count for r in got) == serial[24].positions_checked
            assert all(r.failure is None and r.method == "compiled" for r in got)
            # the same with the parts sent from worker to worker (a round's plan whose other
            # worker is not there: neither its chunks taken nor its part sent)
            from nimlab.verification._share import pack

            here = sorted(client.scheduler_info()["workers"])[0]
            client.run(exec, forget)
            notes = [
                "nobody-sends-part-1-parts",
                0,
                pack([here, "tcp://127.0.0.1:9"], plan, [[1] * len(p) for p in plan]),
            ]
            got = submit(
                clu.check_task,
                dumps_spec(spec),
                every,
                pure=False,
                workers=[here],
                exchange=[plan, [0], "nobody-sends-part-1", 0.05, notes],
            ).result()
            assert sum(r.count for r in got) == serial[24].positions_checked
            assert all(r.failure is None and r.method == "compiled" for r in got)
            from nimlab import planner
            from nimlab.verification import _exchange

            small = replace(planner.DEFAULT_BUDGETS, cluster_task_positions=2000)
            monkeypatch.setattr(planner, "DEFAULT_BUDGETS", small)
            _exchange.HELD.clear()
            assert run(24) == [("check_task", False), ("prepare_task", False)]
    finally:
        dask_cluster.close()


def test_a_runs_releases_wait_for_the_next_runs_submission() -> None:
    # a run's futures and its variables' deletion are kept until the next run's tasks
    # are submitted (the client's next message would else wait 10 ms behind them)
    import weakref

    from nimlab.verification._stream import release_held, release_later

    class Task:
        key = "nimlab-x"

    task, calls = Task(), []
    gone = weakref.ref(task)
    release_later(task, lambda: calls.append("deleted"))
    del task
    assert gone() is not None and calls == []  # kept until the next run
    release_held()
    assert gone() is None and calls == ["deleted"]
    release_held()  # nothing left: nothing done twice
    assert calls == ["deleted"]


def test_a_worker_of_several_threads_takes_a_task_per_thread() -> None:
    # a short compiled run goes out as one task per worker thread (a worker started with
    # --nthreads 2 runs two at once), each pinned to its worker; the counts are the run's
    from nimlab.verification.backends import dumps_spec
    from nimlab.verification.cluster import dask_chunks
    from nimlab.verification.runner import conjecture_spec

    class Threads(_NowClient):
        def scheduler_info(self) -> dict[str, object]:
            return {"workers": {"tcp://a:1": {"nthreads": 2}, "tcp://b:1": {"nthreads": 1}}}

    spec = conjecture_spec("nim", "a ^ b ^ c", bound=16, heaps=3, chunk_size=128)
    pending = list(range(spec.space.n_chunks))
    client = Threads()
    got = {r.index: r.count for r in dask_chunks(client, dumps_spec(spec), pending, 2, [],
                                                 lambda e: nimlab.ClusterError(str(e)),
                                                 _Waiting)}  # fmt: skip
    assert got == dict.fromkeys(pending, 256)
    pins = [kw["workers"][0] for name, kw in client.calls if name == "check_task"]
    assert sorted(pins) == ["tcp://a:1", "tcp://a:1", "tcp://b:1"]
