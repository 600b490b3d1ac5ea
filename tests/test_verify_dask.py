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
