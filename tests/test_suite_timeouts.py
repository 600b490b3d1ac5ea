"""The test suite cannot hang: every test has a timeout (pytest-timeout, pyproject.toml).

Mutation testing found that a broken nim multiplication made the suite loop forever
(the log table of the 256 nimbers is built by multiplying until the powers return to 1).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

HANGING_TEST = textwrap.dedent(
    """
    from nimlab.formulas import nimmul as m

    def test_broken_nim_product_hangs(monkeypatch):
        # what a mutant of _mul does: the powers of g never come back to 1
        real = m._mul

        def broken(a, b, w, tables=True):
            return real(a, b, w, tables) if tables else 0

        monkeypatch.setattr(m, "_mul", broken)
        monkeypatch.setattr(m, "_EXP", None)
        monkeypatch.setattr(m, "_LOG", None)
        m.nimmul(3, 5)

    def test_after_the_hang_the_suite_goes_on():
        assert True
    """
)


def test_every_test_has_a_timeout(request: pytest.FixtureRequest) -> None:
    seconds = float(request.config.getini("timeout"))
    assert 0 < seconds <= 120
    assert request.config.getini("timeout_method") == "signal"


@pytest.mark.timeout(120)  # runs a child pytest whose own test times out after 2 s
def test_a_hanging_nim_product_fails_by_timeout_and_the_run_goes_on(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]
    test_file = tmp_path / "test_hang.py"
    test_file.write_text(HANGING_TEST)
    t = time.monotonic()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(test_file),
            "-c",
            str(root / "pyproject.toml"),
            "--rootdir",
            str(tmp_path),
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "-o",
            "timeout=2",
        ],
        capture_output=True,
        text=True,
        timeout=100,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "Timeout" in out, out
    assert "1 failed, 1 passed" in out, out
    assert time.monotonic() - t < 100


def test_the_slow_list_names_only_collected_tests(request: pytest.FixtureRequest) -> None:
    """Every line of tests/slow_tests.txt whose file was collected names a test of it."""
    from conftest import STALE_SLOW_IDS

    assert request.config.stash.get(STALE_SLOW_IDS, []) == []
