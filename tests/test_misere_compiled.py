"""The misère quotients' compiled loops against their Python versions (same answers)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from nimlab import planner
from nimlab.misere import _candidates, _compiled, misere_quotient
from nimlab.misere._automaton import _Automaton

# the first test to run compiles the loops (about 15 s of CPU, once: numba keeps them on
# disk), so the module is in the full suite, not the quick subset
pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def _with_threshold(monkeypatch: pytest.MonkeyPatch, steps: int) -> None:
    budgets = dataclasses.replace(planner.DEFAULT_BUDGETS, misere_compiled_after_steps=steps)
    monkeypatch.setattr(planner, "DEFAULT_BUDGETS", budgets)


def _tables(code: str, n: int) -> tuple[Any, ...]:
    q = misere_quotient(code, n)
    return q.order, q.presentation(), q.p_portion, q.pretending, q._mul, q._is_p, q._phi


@pytest.mark.parametrize(
    ("code", "n"),
    [("0.07", 25), ("4.7", 12), ("0.75", 12)],
)
def test_compiled_loops_give_the_same_quotient_tables(
    monkeypatch: pytest.MonkeyPatch, code: str, n: int
) -> None:
    # every candidate in Python, then every candidate on the compiled loops: the same
    # tables element for element (the same candidates, failures and numbering)
    _with_threshold(monkeypatch, 1 << 60)
    python = _tables(code, n)
    _with_threshold(monkeypatch, 0)
    assert _tables(code, n) == python


def test_kernels_agree_with_python_on_the_candidates_of_a_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the automata 4.7 to heap 12 builds and proves, each given to both versions
    _with_threshold(monkeypatch, 1 << 60)
    frees: list[tuple[_Automaton, dict[int, tuple[int, int]], list[int]]] = []
    real_free = _candidates._free

    def record(auto, freed, weights, max_states):  # type: ignore[no-untyped-def]
        frees.append((auto, dict(freed), list(weights)))
        return real_free(auto, freed, weights, max_states)

    monkeypatch.setattr(_candidates, "_free", record)
    misere_quotient("4.7", 12)
    assert len(frees) >= 10
    for auto, freed, weights in frees:
        want = real_free(auto, freed, weights, 10**6)
        got = _compiled.free(auto.array(), auto.start, auto.opts, freed, weights, 10**6)
        assert want is not None and got is not None
        assert (got[0].tolist(), got[1].tolist()) == (want.delta, want.is_p)
        fail = _compiled.least_failure(got[0], want.is_p, 0, want.opts, weights, 10**6)
        assert fail == want.least_failure(weights, 10**6)
        # too many states: both refuse
        assert _compiled.free(auto.array(), auto.start, auto.opts, freed, weights, 1) is None
        assert real_free(auto, freed, weights, 1) is None


def test_compiled_proof_budget_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    from nimlab.misere import QuotientTooLargeError

    _with_threshold(monkeypatch, 0)
    with pytest.raises(QuotientTooLargeError, match="max_pairs"):
        misere_quotient("0.07", max_heap=26, max_pairs=50)
    with pytest.raises(QuotientTooLargeError, match="budget"):
        misere_quotient("0.07", max_heap=26, max_work=200_000)


def test_warm_runs_every_loop() -> None:
    from nimlab.engine._compilewatch import CompileWatch

    _compiled.warm()
    with CompileWatch() as watch:
        _compiled.warm()  # a second time: nothing left to compile
    assert watch.compiles == []
