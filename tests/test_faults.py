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

    def submit(self, fn: Any, *args: Any, pure: bool = False, key: str = "") -> _LostFuture:
        return _LostFuture(key)

    def close(self) -> None:
        pass


def test_a_lost_scheduler_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = types.ModuleType("distributed")
    fake.Client = _LostClient  # type: ignore[attr-defined]
    fake.LocalCluster = None  # type: ignore[attr-defined]
    fake.as_completed = lambda futs: iter(futs)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "distributed", fake)
    with pytest.raises(
        ClusterError, match=r"lost the Dask scheduler at tcp://127\.0\.0\.1:8786.*--resume"
    ):
        nimlab.verify(
            "nim", "a ^ b", bound=8, heaps=2, scheduler="tcp://127.0.0.1:8786",
            store=str(tmp_path / "s.sqlite"),
        )  # fmt: skip
