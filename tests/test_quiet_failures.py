"""Failures say one line, not a traceback (issue 23, "noise"): Ctrl-C on a local Dask
cluster, play with standard input closed or full of NUL bytes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

NIMLAB = [sys.executable, "-m", "nimlab"]


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("NIMLAB_DEBUG", None)
    env.update(extra)
    return env


def test_play_with_stdin_closed_is_end_of_input() -> None:
    out = subprocess.run(
        [*NIMLAB, "play", "nim", "3", "4"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(),
        preexec_fn=lambda: os.close(0),
    )
    assert out.returncode == 0, out.stderr
    assert "internal error" not in out.stderr and "Traceback" not in out.stderr
    assert "end of input" in out.stdout


def test_play_with_nul_bytes_is_refused_in_one_line() -> None:
    out = subprocess.run(
        [*NIMLAB, "play", "nim", "3", "4"],
        input=b"\0" * 5_000_000,
        capture_output=True,
        timeout=60,
        env=_env(),
    )
    err = out.stderr.decode()
    assert out.returncode == 2 and len(err.strip().splitlines()) == 1, err
    assert "NUL bytes" in err


@pytest.mark.slow
def test_ctrl_c_on_dask_local_says_one_line(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    # 160 chunks of 0.1 s each on one worker: the run is still going long after its first
    # chunk (16 s), and the chunk the worker holds at Ctrl-C ends soon (the cluster's close
    # waits for it: 0.5 s chunks made this test 10 s long)
    args = ["verify", "--game", "nim", "--formula", "a ^ b", "--heaps", "2", "--bound", "80"]
    args += ["--chunk-size", "40", "--dask-local", "--workers", "1", "--store", str(db)]
    proc = subprocess.Popen(
        [*NIMLAB, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(NIMLAB_VERIFY_CHUNK_SLEEP="0.1"),
    )
    try:
        t0 = time.monotonic()
        while time.monotonic() - t0 < 60:  # wait for the first chunk in the store
            try:
                con = sqlite3.connect(str(db), timeout=1)
                n = con.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
                con.close()
                if n:
                    break
            except sqlite3.Error:
                pass
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before its Ctrl-C"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:  # a failure never leaves the run going for the rest of the suite
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    lines = [x for x in err.splitlines() if x.strip()]
    assert proc.returncode == 130, err
    assert "Traceback" not in err and len(lines) <= 2, err
