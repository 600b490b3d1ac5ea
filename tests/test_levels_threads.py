"""The canonical wavefront's threads: small levels on one thread, large ones on all, the
same values as the serial engine; OpenMP's waiting policy set before numba loads it,
never over the user's own."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from nimlab import game
from nimlab.engine import _levels
from nimlab.engine.compiled import CompiledSolver


def test_small_levels_on_one_thread_large_on_all_same_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a low threshold: the levels near both ends run on one thread, the middle on two
    monkeypatch.setattr(_levels, "LEVEL_MIN_POSITIONS", 40)
    asked: list[int] = []
    real = _levels.use_threads

    def spy(k: int) -> None:
        asked.append(k)
        real(k)

    monkeypatch.setattr(_levels, "use_threads", spy)
    before = _levels.threads()
    a = CompiledSolver(game("single-delete"), 4, "outcome", parallel=False)
    b = CompiledSolver(game("single-delete"), 4, "outcome", parallel=True)
    a.solve_below(18)
    b.solve_below(18)
    assert np.array_equal(a.state, b.state)
    assert int((b.state == 0).sum()) > 0
    assert 1 in asked[:3] and asked[-1] == before  # restored
    if before > 1:
        assert before in asked[:-1]  # some levels on every thread


def _omp_env(extra: dict[str, str]) -> str:
    """libgomp's settings as it prints them when loaded (``OMP_DISPLAY_ENV``), in a new
    process that imports the wavefront and then starts numba's threads."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMP_", "GOMP_"))}
    env.update(extra, OMP_DISPLAY_ENV="verbose")
    code = "import nimlab.engine._levels, numba; numba.get_num_threads()"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return out.stderr


def _setting(text: str, name: str) -> Any:
    for line in text.splitlines():
        if line.strip().startswith(name + " ="):
            return line.split("=", 1)[1].strip().strip("'")
    return None


def test_the_wait_policy_reaches_openmp_unless_the_user_chose() -> None:
    ours = _omp_env({})
    if "OPENMP DISPLAY ENVIRONMENT" not in ours:
        pytest.skip("numba's threading layer here is not GNU OpenMP")
    assert _setting(ours, "OMP_WAIT_POLICY") == "PASSIVE"
    assert _setting(ours, "GOMP_SPINCOUNT") == "10000"
    theirs = _omp_env({"OMP_WAIT_POLICY": "ACTIVE"})
    assert _setting(theirs, "OMP_WAIT_POLICY") == "ACTIVE"
    assert _setting(theirs, "GOMP_SPINCOUNT") != "10000"  # libgomp's own for ACTIVE
