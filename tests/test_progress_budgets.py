"""Long legitimate work: budgets checked first, a progress bar on a terminal (issue 11)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time

import numpy as np
import pytest

import nimlab
from nimlab.engine.sequences import octal_sequence

_KAYLES = nimlab.game("octal", code="0.77")


@pytest.mark.parametrize("code", ["0.77", "4!.0", "0.07", "0.137", "4.7", "0.6", "0.F", "0.4"])
def test_octal_in_chunks_gives_the_same_values(code: str) -> None:
    whole = octal_sequence(code, 3000)
    for chunk in (1, 7, 500):
        assert np.array_equal(octal_sequence(code, 3000, chunk=chunk), whole), chunk
    assert np.array_equal(octal_sequence(code, 3000, direct=True), whole)


def test_periodicity_has_the_budget_of_sequence() -> None:
    with pytest.raises(nimlab.WorkTooLargeError, match="budget of 100 terms"):
        nimlab.periodicity_of(_KAYLES, 200, max_terms=100)
    with pytest.raises(nimlab.WorkTooLargeError, match="budget of 100,000 terms"):
        nimlab.periodicity_of(_KAYLES, 1_000_000)
    # the proof of Kayles' period needs 167 terms: a budget below it leaves it unproved
    per = nimlab.periodicity_of(_KAYLES, 150, max_terms=160)
    assert not per.proved and "more than the budget of 160" in per.reason
    assert nimlab.periodicity_of(_KAYLES, 150, max_terms=400).proved


def test_one_octal_heap_is_read_from_its_sequence() -> None:
    kayles = nimlab.game("octal", code="0.77")
    seq = nimlab.sequence(kayles, 3001)
    t0 = time.monotonic()
    assert nimlab.grundy(kayles, 3000) == int(seq[3000])
    assert nimlab.grundy(kayles, (3000, 2999)) == int(seq[3000]) ^ int(seq[2999])
    assert nimlab.outcome(kayles, (2999, 2999)) == nimlab.Outcome.P
    assert time.monotonic() - t0 < 20
    with pytest.raises(nimlab.WorkTooLargeError, match=r"nimlab sequence \.\.\. -n 1000001"):
        nimlab.grundy(kayles, 1_000_000)


def _in_a_terminal(args: list[str], timeout: float = 120) -> tuple[int, str]:
    """Run the CLI with stderr (and stdout) on a pseudo-terminal; return its status and
    everything it printed."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="160", TERM="xterm")
    proc = subprocess.Popen(
        [sys.executable, "-m", "nimlab", *args],
        stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    out = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
        rc = proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return rc, out.decode(errors="replace")


@pytest.mark.timeout(180)
def test_a_long_octal_sequence_shows_its_progress() -> None:
    rc, out = _in_a_terminal(["sequence", "octal", "-p", "code=0.77", "-n", "40000"])
    assert rc == 0, out[-2000:]
    assert "Grundy values" in out and "terms" in out and "/s" in out, out[-2000:]
    assert "Traceback" not in out
