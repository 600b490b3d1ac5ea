"""``nimlab serve`` as a real process on a free loopback port, for the tests that need one.

Used by the browser tests (:mod:`test_web_e2e`) and the hostile flood
(:mod:`test_web_flood`): one way to start the server, wait for it and stop it.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    """A TCP port of the loopback that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def nimlab_serve(
    args: Sequence[str],
    log_path: Path,
    *,
    start_timeout: float,
    meanwhile: Callable[[], object] | None = None,
) -> Iterator[str]:
    """Run ``nimlab serve ARGS`` on a free loopback port; yield its URL once it answers.

    The server's output goes to ``log_path`` (a file: a full pipe would block the
    server), shown in the failure when it does not start within ``start_timeout``
    seconds. *meanwhile* is called while the server starts (its imports take a second
    or two: the browser tests start Chromium then). The process is stopped (terminated,
    then killed) on exit.
    """
    port = free_port()
    log = log_path.open("wb")
    cmd = [sys.executable, "-m", "nimlab", "serve", *args]
    cmd += ["--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        if meanwhile is not None:
            meanwhile()
        deadline = time.monotonic() + start_timeout
        while True:
            try:
                with urllib.request.urlopen(url + "/api/games", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                out = log_path.read_text(errors="replace")
                pytest.fail(f"nimlab serve did not start on {url}: {out}")
            time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()
