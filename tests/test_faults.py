"""Faults outside the user's input: a killed client, a lost Dask scheduler (issue 11)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest

import nimlab
from nimlab.core.errors import ClusterError


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(x) for x in out.stdout.split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_pool_workers_end_with_a_killed_client(tmp_path: Path) -> None:
    env = dict(os.environ, NIMLAB_VERIFY_CHUNK_SLEEP="0.5", NIMLAB_STORE=str(tmp_path / "s.sqlite"))
    env["NIMLAB_VERIFY_POOL"] = "processes"  # compiled chunks run on threads otherwise
    client = subprocess.Popen(
        [sys.executable, "-m", "nimlab", "verify", "--game", "nim", "--formula", "a^b^c",
         "--bound", "40", "--heaps", "3", "--workers", "2", "--chunk-size", "200"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        kids: list[int] = []
        while time.monotonic() < deadline and len(kids) < 2:
            time.sleep(0.2)
            kids = _children(client.pid)
        assert len(kids) >= 2, "the pool did not start"
        client.send_signal(signal.SIGKILL)
        client.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(k) for k in kids):
            time.sleep(0.2)
        left = [k for k in kids if _alive(k)]
        for k in left:
            os.kill(k, signal.SIGKILL)
        assert not left, f"pool workers {left} outlived their client"
    finally:
        if client.poll() is None:
            client.kill()


class _LostFuture:
    def __init__(self, key: str) -> None:
        self.key = key

    def result(self) -> Any:
        raise RuntimeError("FutureCancelledError: scheduler connection lost")

    def cancel(self) -> None:
        pass


class _LostClient:
    def __init__(self, address: str, timeout: str = "") -> None:
        self.address = address

    def scatter(self, blob: bytes, broadcast: bool = False) -> bytes:
        return blob

    def submit(
        self, fn: Any, *args: Any, pure: bool = False, key: str = "", **options: Any
    ) -> _LostFuture:
        # options: Dask's scheduling hints (priority, workers, ...), which a lost
        # scheduler never reads
        return _LostFuture(key)

    def close(self) -> None:
        pass


def _verify_on_a_fake_dask(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, client: type, address: str
) -> None:
    """Verify Nim's claim on the scheduler at *address*, Dask's client being *client*."""
    fake = types.ModuleType("distributed")
    fake.Client = client  # type: ignore[attr-defined]
    fake.LocalCluster = None  # type: ignore[attr-defined]
    fake.as_completed = lambda futs: iter(futs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "distributed", fake)
    nimlab.verify(
        "nim", "a ^ b", bound=8, heaps=2, scheduler=address, store=str(tmp_path / "s.sqlite")
    )


def test_a_lost_scheduler_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with pytest.raises(
        ClusterError, match=r"lost the Dask scheduler at tcp://127\.0\.0\.1:8786.*--resume"
    ):
        _verify_on_a_fake_dask(monkeypatch, tmp_path, _LostClient, "tcp://127.0.0.1:8786")


class _UnreachableClient:
    def __init__(self, address: str, timeout: str = "") -> None:
        raise OSError(f"Timed out trying to connect to {address} after 20 s")


def test_an_unreachable_scheduler_is_a_cluster_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with pytest.raises(
        ClusterError, match=r"cannot reach the Dask scheduler at 'tcp://127\.0\.0\.1:1'"
    ):
        _verify_on_a_fake_dask(monkeypatch, tmp_path, _UnreachableClient, "tcp://127.0.0.1:1")


# -- the store: a lock held by another process, a read-only store ---------------------

_HOLD = (
    "import sqlite3, sys, time\n"
    "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
    "c.execute('BEGIN EXCLUSIVE')\n"
    "print('held', flush=True)\n"
    "time.sleep(float(sys.argv[2]))\n"
)


def _hold_lock(path: Path, seconds: float) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(path), str(seconds)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "nimlab", *args], capture_output=True, text=True, timeout=60,
        env=dict(os.environ, **(env or {})), stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_a_held_lock_is_a_short_wait_naming_its_holder(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    nimlab.runs(str(path))  # create it
    holder = _hold_lock(path, 30)
    try:
        t0 = time.monotonic()
        res = _cli("verify", "S19-T1", "--bound", "4", "--workers", "1", "--store", str(path),
                   "--lock-timeout", "0.5")  # fmt: skip
        waited = time.monotonic() - t0
        assert res.returncode == 2, res.stderr
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
        assert "locked by process" in lines[0] and str(holder.pid) in lines[0], lines[0]
        assert "waited 0.5 s" in lines[0] and "--lock-timeout SECONDS" in lines[0]
        assert waited < 20, waited  # not the old 60 s
        # the environment variable sets the same wait; a bad value is one clear line
        res = _cli("runs", "--store", str(path), env={"NIMLAB_LOCK_TIMEOUT": "abc"})
        assert res.returncode == 2 and "NIMLAB_LOCK_TIMEOUT must be" in res.stderr, res.stderr
        with pytest.raises(nimlab.StoreError, match="locked by process"):
            os.environ["NIMLAB_LOCK_TIMEOUT"] = "0.2"
            try:
                nimlab.verify("nim", "a ^ b", bound=4, heaps=2, workers=1, store=str(path))
            finally:
                del os.environ["NIMLAB_LOCK_TIMEOUT"]
    finally:
        holder.kill()
        holder.wait()
    # once the holder is gone the same command runs, and nothing was lost
    res = _cli("verify", "S19-T1", "--bound", "4", "--workers", "1", "--store", str(path))
    assert res.returncode == 0, res.stderr
    assert all(r.status == "verified" for r in nimlab.runs(str(path)))


def test_a_longer_wait_outlasts_a_short_lock(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    nimlab.runs(str(path))
    holder = _hold_lock(path, 1.0)
    try:
        res = _cli("verify", "S19-T1", "--bound", "4", "--workers", "1", "--store", str(path),
                   "--lock-timeout", "30")  # fmt: skip
        assert res.returncode == 0, res.stderr
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.parametrize("bad", ["-1", "nan", "inf", "1e9"])
def test_a_meaningless_lock_timeout_is_refused(bad: str, tmp_path: Path) -> None:
    res = _cli("runs", "--store", str(tmp_path / "s.sqlite"), "--lock-timeout", bad)
    assert res.returncode == 2 and "--lock-timeout" in res.stderr, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1, res.stderr
    with pytest.raises(nimlab.InvalidArgumentError, match="lock timeout must be"):
        nimlab.runs(str(tmp_path / "s.sqlite"), lock_timeout=float(bad))


def _immutable(path: Path) -> bool:
    """Make *path* immutable (chattr +i: even root cannot write it), if this system can."""
    try:
        res = subprocess.run(["chattr", "+i", str(path)], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return res.returncode == 0


def _mutable(path: Path) -> None:
    subprocess.run(["chattr", "-i", str(path)], capture_output=True, timeout=10)


def _store_with_a_run(tmp_path: Path) -> tuple[Path, list[Any]]:
    path = tmp_path / "ro" / "s.sqlite"
    path.parent.mkdir()
    res = _cli("verify", "S19-T1", "--bound", "4", "--workers", "1", "--store", str(path))
    assert res.returncode == 0, res.stderr
    before = [r.to_dict() for r in nimlab.runs(str(path))]
    for extra in path.parent.glob("s.sqlite-*"):
        extra.unlink()
    return path, before


def _check_read_only_refused(path: Path, before: list[Any], fragment: str) -> None:
    for args in (
        ("verify", "S19-T1", "--bound", "5", "--workers", "1"),
        ("verify", "--game", "nim", "--formula", "a^b", "--bound", "4", "--workers", "1"),
        ("reproduce", "--only", "S19-T1", "--workers", "1"),
    ):
        res = _cli(*args, "--store", str(path))
        lines = res.stderr.strip().splitlines()
        assert res.returncode == 2, res.stderr
        assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
        assert fragment in lines[0], lines[0]
    with pytest.raises(nimlab.StoreError, match=fragment):
        nimlab.check_theorem("S19-T1", 5, workers=1, store=str(path))
    # reading still works, and nothing was lost
    assert [r.to_dict() for r in nimlab.runs(str(path))] == before


def test_a_read_only_store_is_refused_and_loses_nothing(tmp_path: Path) -> None:
    path, before = _store_with_a_run(tmp_path)
    if not _immutable(path):
        pytest.skip("chattr +i is not available here (the monkeypatched test covers it)")
    try:
        _check_read_only_refused(path, before, "it is read-only")
    finally:
        _mutable(path)


def test_a_store_in_a_read_only_folder_is_refused(tmp_path: Path) -> None:
    path, before = _store_with_a_run(tmp_path)
    if not _immutable(path.parent):
        pytest.skip("chattr +i is not available here (the monkeypatched test covers it)")
    try:
        _check_read_only_refused(path, before, "is read-only")
        res = _cli("verify", "S19-T1", "--bound", "4", "--store", str(path.parent / "new.sqlite"))
        assert res.returncode == 2 and "is read-only" in res.stderr, res.stderr
    finally:
        _mutable(path.parent)


def test_read_only_as_the_system_says_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where chattr is not available: os.access says what a non-root user would see."""
    path, before = _store_with_a_run(tmp_path)
    real = os.access

    def access(p: Any, mode: int, **kw: Any) -> bool:
        if mode & os.W_OK and Path(p) == path:
            return False
        return real(p, mode, **kw)

    monkeypatch.setattr(os, "access", access)
    with pytest.raises(nimlab.StoreError, match="it is read-only"):
        nimlab.verify("nim", "a ^ b", bound=4, heaps=2, workers=1, store=str(path))
    with pytest.raises(nimlab.StoreError, match="it is read-only"):
        nimlab.check_theorem("S19-T1", 5, workers=1, store=str(path))
    monkeypatch.undo()
    assert [r.to_dict() for r in nimlab.runs(str(path))] == before
