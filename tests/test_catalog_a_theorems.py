"""The theorems of catalog part A pass their registry checks (claim vs exhaustive search)."""

from __future__ import annotations

import pytest

from nimlab import theorem
from nimlab.theory.registry import check_theorem

SMALL = {
    "S19-T5": 6,
    "N99-T2.10": 6,
    "S19-T6": 6,
    "S19-T7": 10,
    "S19-T8": 30,
    "S19-T9": 3,
    "S19-T10": 20,
}


# the local check compiles a numba kernel per game and number of heaps (12 for Moore)
@pytest.mark.timeout(240)
@pytest.mark.parametrize(("tid", "bound"), sorted(SMALL.items()))
@pytest.mark.parametrize("method", ["local", "search"])
def test_theorem_check_passes(tid: str, bound: int, method: str) -> None:
    r = check_theorem(tid, bound, method=method)  # type: ignore[arg-type]
    assert r.ok, r.counterexample
    assert r.positions_checked > 0


def test_alias_names_the_same_statement() -> None:
    assert theorem("N99-T2.4") is theorem("S19-T5")
    assert theorem("n99-t2.4").id == "S19-T5"


def test_theorems_name_their_games() -> None:
    assert {theorem(t).game for t in SMALL} == {
        "moore",
        "turning-turtles",
        "welter",
        "lim",
        "circular",
        "nimhoff",
    }


def test_a_wrong_claim_is_caught() -> None:
    """The check really compares with search: a false claim yields a counterexample."""
    from dataclasses import replace

    t = replace(theorem("S19-T8"), claim=lambda g, p: sum(p) // 2)
    r = check_theorem(t, 10, method="search")
    assert not r.ok and r.counterexample is not None
