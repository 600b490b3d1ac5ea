"""A theorem's vectorised instances side by side on Dask, each whole on one worker
(:mod:`nimlab.verification._instances`), against the runs one after the other."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest

import nimlab
from nimlab.verification.runner import conjecture_spec, run_spec

#: Ryuo Nim(p)'s S18-T8 value for p = 1, 2, 3, then Nim's claim wrong at (40, 60) only,
#: then one more that holds: the run stops after the fourth instance.
_RYUO = "{p}*((a//{p})^(b//{p})) + (a+b)%{p}"
_CASES = [("ryuo", 1, _RYUO), ("ryuo", 2, _RYUO), ("ryuo", 3, _RYUO),
          ("nim", 0, "a ^ b ^ ((a == 40) & (b == 60))"), ("ryuo", 4, _RYUO)]  # fmt: skip


def _specs(bad: bool) -> list[Any]:
    out = []
    for name, p, formula in _CASES if bad else [c for c in _CASES if c[0] == "ryuo"]:
        game = nimlab.game(name, p=p) if p else nimlab.game(name)
        out.append(conjecture_spec(game, formula.format(p=p), bound=96, heaps=2, chunk_size=768))
    assert all(s.fast and s.space.n_chunks == 12 for s in out)
    return out


class _Now:
    def __init__(self, value: object) -> None:
        self.value = value

    def result(self) -> object:
        if isinstance(self.value, BaseException):
            raise self.value
        return self.value

    def cancel(self) -> None:
        pass


class _Client:
    """A Dask client running each task when submitted, on two one-thread workers; from
    its *lost_at*-th task on, every task fails as on a lost scheduler."""

    status = "running"

    def __init__(self, lost_at: int = 10**9) -> None:
        self.calls: list[tuple[Any, dict[str, Any]]] = []  # each task's function, pins
        self.lost_at = lost_at

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": {"tcp://a:1": {"nthreads": 1}, "tcp://b:1": {"nthreads": 1}}}

    def scatter(self, blob: bytes, broadcast: bool = False) -> bytes:
        return blob

    def submit(self, fn: Any, *args: Any, **kw: Any) -> _Now:
        self.calls.append((fn, kw))
        if len(self.calls) > self.lost_at:
            return _Now(ConnectionError("scheduler gone"))
        return _Now(fn(*[a.value if isinstance(a, _Now) else a for a in args]))


def _side_by_side(
    client: _Client, specs: list[Any], monkeypatch: pytest.MonkeyPatch, **options: Any
) -> list[Any] | None:
    import contextlib
    import dataclasses

    from nimlab import _dask, planner
    from nimlab.verification import _instances

    @contextlib.contextmanager
    def fake(*_a: object) -> Any:
        yield client

    monkeypatch.setattr(_dask, "dask_client", fake)
    monkeypatch.setattr(
        _dask, "distributed_module", lambda: types.SimpleNamespace(as_completed=_Waiting)
    )
    # tasks of 4 chunks (3 per instance): results stream back as an instance goes
    small = dataclasses.replace(planner.DEFAULT_BUDGETS, cluster_task_positions=4 * 768)
    monkeypatch.setattr(planner, "DEFAULT_BUDGETS", small)
    return _instances.check_side_by_side(specs, {"scheduler": "tcp://x:1", **options}, "theorem")


class _Waiting:
    def __init__(self, futures: list[object]) -> None:
        self.futures = list(futures)

    def add(self, f: object) -> None:
        self.futures.append(f)

    def __iter__(self) -> Any:
        while self.futures:
            yield self.futures.pop(0)


@pytest.mark.parametrize(
    ("bad", "split"), [(False, False), (True, False), (False, True), (True, True)]
)
def test_instances_side_by_side_agree_with_one_after_the_other(
    bad: bool, split: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each instance whole on one worker (its tasks pinned there, in order, each after
    the one before), the last one cut in two blocks when the other worker would end
    first (*split*: it is said to end now): the counts and first counterexample of each
    instance's own run up to the first failing instance; none after it."""
    from nimlab.verification import _instances

    if split:
        monkeypatch.setattr(_instances._Dispatch, "_left", lambda self, v: 0.0)
    else:  # whether a cut gains depends on the rates measured: here it is said not to
        monkeypatch.setattr(_instances._Dispatch, "_split", lambda self, s, k, pending: [])
    specs = _specs(bad)
    client = _Client()
    got = _side_by_side(client, specs, monkeypatch)
    assert got is not None
    for spec, res in zip(specs, got, strict=True):
        if res is None:  # after the failing instance
            assert bad and not got[3].ok
            continue
        alone = run_spec(spec, workers=1)
        assert (res.ok, res.positions_checked, res.backend) == (
            alone.ok,
            alone.positions_checked,
            "dask",
        )
        assert res.counterexample == alone.counterexample
    if bad:
        assert got[3].counterexample.position == (40, 60) and got[4] is None
    names = [(fn.__name__, kw["workers"][0]) for fn, kw in client.calls]
    assert {w for _, w in names} == {"tcp://a:1", "tcp://b:1"}
    blocks = [w for n, w in names if n == "summary_task"]  # the last instance's two blocks
    assert len(set(blocks)) == len(blocks) == (2 if split and not bad else len(blocks))
    assert split or not blocks


def test_instances_side_by_side_stored_and_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run that loses its scheduler leaves each instance's chunks so far in its own run
    of the store (one clear error); resumed, each chunk is checked once and the results
    are those of an uninterrupted run."""
    import sqlite3

    from nimlab.core.errors import ClusterError
    from nimlab.verification.store import Store

    specs = _specs(False)
    db = tmp_path / "r.sqlite"
    with pytest.raises(ClusterError, match="lost the Dask scheduler"):
        _side_by_side(_Client(lost_at=5), specs, monkeypatch, store=str(db))
    con = sqlite3.connect(str(db))
    before = con.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    con.close()
    assert 0 < before < 4 * 12
    st = Store(str(db))
    try:
        got = _side_by_side(_Client(), specs, monkeypatch, store=st, resume=True)
    finally:
        st.close()
    assert got is not None and all(r.ok and r.positions_checked == 96 * 96 for r in got)
    assert sum(r.chunks_resumed for r in got) == before
    con = sqlite3.connect(str(db))
    rows = con.execute("SELECT run_id, idx FROM chunks").fetchall()
    con.close()
    assert len({r for r, _ in rows}) == 4 and len(rows) == 4 * 12 == len(set(rows))


def test_an_error_opening_a_run_is_not_a_lost_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error of this process while it opens an instance's run (the store's) is raised
    as it is, not said to be the cluster's."""
    from nimlab.verification import _instances

    def broken(self: object, k: int) -> list[int]:
        raise OSError("disk full")

    monkeypatch.setattr(_instances._Runs, "start", broken)
    with pytest.raises(OSError, match="disk full"):
        _side_by_side(_Client(), _specs(False), monkeypatch)


def test_few_instances_run_one_after_the_other(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer instances than the planner's budget per worker thread (or no cluster): None,
    the caller checks them one after the other."""
    from nimlab.verification import _instances

    specs = _specs(False)
    assert _side_by_side(_Client(), specs[:3], monkeypatch) is None
    assert _instances.check_side_by_side(specs, {"scheduler": None}, "theorem") is None


@pytest.mark.slow
def test_a_killed_worker_of_instances_side_by_side_loses_nothing(tmp_path: Path) -> None:
    """A real worker process killed (SIGKILL) while S18-T8's instances run side by side:
    one clear line naming it and --resume, every instance's chunks so far in its own run
    of the store; resumed on the worker left (side by side: one slot), each chunk checked
    once and the positions of one process."""
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    from distributed import Client
    from test_verify_dask import _QUIET, _stored_chunks, loopback_cluster

    db, bound = tmp_path / "r.sqlite", 1000  # five instances of 2 chunks

    with loopback_cluster(tmp_path, 2, {"NIMLAB_VERIFY_CHUNK_SLEEP": "0.25"}) as cluster:
        addr = cluster.address
        cmd = [sys.executable, "-m", "nimlab", "verify", "S18-T8", "--bound", str(bound),
               "--scheduler", addr, "--store", str(db), "--json"]  # fmt: skip
        with Client(addr, timeout="30s") as client:
            pids = client.run(os.getpid)
            run = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_QUIET)  # fmt: skip
            try:
                busy: list[str] = []
                deadline = time.monotonic() + 60
                while not busy and time.monotonic() < deadline and run.poll() is None:
                    time.sleep(0.05)
                    if _stored_chunks(db) >= 1:
                        busy = [w for w, keys in client.processing().items() if keys]
                before = _stored_chunks(db)
                os.kill(pids[busy[0]], signal.SIGKILL)
                _out, err = run.communicate(timeout=60)
            finally:
                if run.poll() is None:
                    run.kill()
                    run.wait()
            assert run.returncode == 2 and len(err.strip().splitlines()) == 1, err
            assert "died while checking chunks" in err and "--resume" in err, err
            assert 1 <= before <= _stored_chunks(db) < 10
            client.run(exec, "import os; os.environ['NIMLAB_VERIFY_CHUNK_SLEEP'] = '0.001'")
        got = nimlab.check_theorem("S18-T8", bound, scheduler=addr, store=str(db), resume=True)
    assert got.ok and got.positions_checked == 5 * bound * bound
    con = sqlite3.connect(str(db))
    rows = con.execute("SELECT run_id, idx FROM chunks").fetchall()
    con.close()
    assert len(rows) == len(set(rows)) == 10 and len({r for r, _ in rows}) == 5
