"""nimlab.conjecture rediscovers the papers' results from tables alone (every registered
closed form disabled); each proposal is then checked against the registered result on the
registered positions at the registered bound (``theorem(id).default_bound``)."""

from __future__ import annotations

from typing import Any

import pytest
from discovery_cases import CASES, against_registered, disable_closed_forms, make_game

import nimlab

# cases whose search or registered box takes more than a couple of seconds
_SLOW = {"S19-T1", "S19-T5", "S19-T8", "S19-T10", "Sh-T3", "S18-T7", "S18-T8", "S18-T9"}


@pytest.mark.parametrize(
    ("tid", "game", "kwargs", "claim"),
    [
        pytest.param(*case, id=case[0], marks=[pytest.mark.slow] if case[0] in _SLOW else [])
        for case in CASES
    ],
)
def test_rediscovered_and_equal_to_the_registered_result(
    monkeypatch: pytest.MonkeyPatch, tid: str, game: Any, kwargs: dict[str, Any], claim: str
) -> None:
    g = make_game(game)
    with monkeypatch.context() as m:
        disable_closed_forms(m)
        found = nimlab.conjecture(g, time_budget=60, verify_bound=0, **kwargs)
    exact = [p for p in found.proposals if p.exceptions == 0 and p.kind == claim]
    assert exact, (tid, found.tried)
    check = against_registered(tid, g, exact[0].statement, found.heaps)
    assert check["mismatch"] is None, (tid, exact[0].statement, check)
    assert check["positions"] > found.proposals[0].tested
