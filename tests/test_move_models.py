"""Compiled move models of the games whose results were checked in Python only (issue 11):
RGAMES (S18-T12), Turning Turtles (S19-T6), Emperor and k-Emperor Nim (S19-T12, S19-T13).

Each check runs on the compiled path, agrees with exhaustive search where search is
feasible, and fails with a counterexample when a wrong claim is planted.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from nimlab.theory.registry import check_theorem, theorem

pytestmark = pytest.mark.timeout(300)


def _wrong(tid: str, claim: Any) -> Any:
    return replace(theorem(tid), claim=claim)


def test_rgames_check_is_compiled_and_agrees_with_search() -> None:
    local = check_theorem("S18-T12", bound=24)
    assert local.ok and local.method == "local (compiled)"
    search = check_theorem("S18-T12", bound=24, method="search")
    assert search.ok and search.positions_checked == local.positions_checked


def test_rgames_compiled_check_catches_a_planted_error() -> None:
    t = _wrong("S18-T12", lambda g, p: g.closed_grundy(p) ^ (p == (9, 13)))
    r = check_theorem(t, bound=40)
    assert not r.ok and r.method == "local (compiled)"
    assert r.counterexample is not None
    # the mex rule fails at (9, 13) itself or at a position with (9, 13) as an option
    pos = r.counterexample.position
    assert pos == (9, 13) or (pos[0] >= 9 and pos[1] >= 13)
