"""The canonical wavefront's threads: small levels on one thread, large ones on all, the
same values as the serial engine; OpenMP's waiting policy set before numba loads it,
never over the user's own."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from nimlab import canonical_table, game
from nimlab.engine import _levelcache, _levels
from nimlab.engine.compiled import CompiledSolver


@pytest.mark.parametrize("least", [0, 40, 10**9])
def test_small_levels_on_one_thread_large_on_all_same_values(
    monkeypatch: pytest.MonkeyPatch, least: int
) -> None:
    # every level on all threads; the levels near both ends on one; every level on one
    monkeypatch.setattr(_levels, "LEVEL_MIN_POSITIONS", least)
    a = CompiledSolver(game("single-delete"), 4, "outcome", parallel=False)
    b = CompiledSolver(game("single-delete"), 4, "outcome", parallel=True)
    a.solve_below(18)
    b.solve_below(18)
    assert np.array_equal(a.state, b.state)
    assert int((b.state == 0).sum()) > 0


def test_a_progress_bar_runs_level_by_level_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_levels, "LEVEL_MIN_POSITIONS", 40)
    calls: list[tuple[int, int]] = []
    real = _levelcache.solve_levels

    def spy(game: Any, gen: Any, *args: Any) -> int:
        calls.append((args[7], args[8]))  # first, last
        return real(game, gen, *args)

    monkeypatch.setattr(_levelcache, "solve_levels", spy)
    a = CompiledSolver(game("single-delete"), 4, "outcome", parallel=True)
    a.solve_below(14)
    b = CompiledSolver(game("single-delete"), 4, "outcome", parallel=True)
    b.solve_below(14, progress=True)
    assert calls[0] == (4, 52)  # one call for every level (heaps 1..13)
    assert calls[1:] == [(t, t) for t in range(4, 53)]  # with a bar: one a level
    assert np.array_equal(a.state, b.state)


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


@pytest.mark.slow
def test_nim_p_positions_are_boutons_on_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    # Nim's wavefront (its own kernel: a compile of seconds): P iff the XOR is 0 (Bouton)
    import itertools
    from functools import reduce
    from operator import xor

    monkeypatch.setattr(_levels, "LEVEL_MIN_POSITIONS", 8)
    t = canonical_table("nim", 14, heaps=4, kind="outcome", parallel=True)
    want = sum(reduce(xor, p) == 0 for p in itertools.combinations_with_replacement(range(14), 4))
    assert t.p_count == want and t.count == len(
        list(itertools.combinations_with_replacement(range(14), 4))
    )


@pytest.mark.parametrize("kind", ["grundy", "misere"])
def test_levels_without_barriers_same_values_and_counts(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    # every level in one parallel loop (a thread may solve another's option first): the
    # serial engine's values, and each position counted once (Grundy values in the
    # engine's int32 array, misère outcomes packed two bits a position)
    counted: list[Any] = []
    real = _levelcache.solve_levels

    def spy(game: Any, gen: Any, *args: Any) -> int:
        got = real(game, gen, *args)
        counted.append(args[10].copy())  # counts: (solved, deferred)
        return got

    monkeypatch.setattr(_levelcache, "solve_levels", spy)
    a = CompiledSolver(game("single-delete"), 4, kind, parallel=False)
    b = CompiledSolver(game("single-delete"), 4, kind, parallel=True)
    a.solve_below(16)
    b.solve_below(16)
    assert np.array_equal(a.state, b.state)
    # heaps 1..15: C(15 + 3, 4) positions, each solved by the wavefront and counted once
    assert int((b.state >= 0).sum()) == 3060
    assert [c.tolist() for c in counted] == [[[3060, 0]]]


@pytest.mark.slow
def test_an_option_of_a_level_in_progress_is_solved_by_the_thread_that_needs_it() -> None:
    # one level's tasks run (as one thread of solve_levels) while the level below is
    # still unknown, as if another thread held it: each option it needs is solved here
    # first (its own options are known), counted apart, every value the serial engine's
    g = game("single-delete")
    ref = CompiledSolver(g, 4, "outcome", parallel=False)
    ref.solve_below(14)
    s = CompiledSolver(g, 4, "outcome", parallel=False)
    s.ensure(14)
    n, lo, hi, first, level = 4, 1, 13, 4, 30
    totals = np.zeros(s.state.size, np.int64)
    for p in itertools.combinations_with_replacement(range(lo, hi + 1), n):
        totals[sum(s.ranks[i, h] for i, h in enumerate(p))] = sum(p)
    keep = (totals > 0) & (totals < level - 1)
    s.state[keep] = ref.state[keep]
    state = np.empty((s.state.size + 31) // 32, np.uint64)
    _levels.pack(s.state, state)
    tasks, bounds, _rows = _levels._all_tasks(np.zeros((0, 2), np.int64), n, lo, hi, first, level)
    done = bounds[1:] - bounds[:-1]  # every level below marked done: nothing is awaited
    sums = np.zeros(1, np.int64)
    flow = (first, level - first, hi, done, bounds, sums, True)  # as if threads shared it
    solved = 0
    for t in range(bounds[level - first], bounds[level - first + 1]):
        got, deferred = _levels._task(
            g.compiled_options(), s.zero, state, s.side, s.ranks, 1, lo, level,
            tasks[t, 0], tasks[t, 1], n, 2, 2, flow,
        )  # fmt: skip
        solved += got
        assert deferred == 0
    _levels.unpack(state, s.state)
    known = s.state >= 0
    assert np.array_equal(s.state[known], ref.state[known])
    assert solved == int((totals == level).sum()) and (s.state[totals == level] >= 0).all()
    helped = int((known & (totals == level - 1)).sum())
    assert sums[0] == helped > 0
