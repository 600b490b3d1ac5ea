"""The theorems of catalog part B pass their registry checks at small bounds."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from nimlab import Theorem, game, theorem, theorems
from nimlab.solvers.search import Solver
from nimlab.theory.registry import check_theorem

SMALL = {
    "S19-T11": 24,
    "S19-T12": 4,
    "S19-T13": 4,
    "Sh-T1": 20,
    "Sh-T2": 18,
    "Sh-T3": 14,
    "Sh-T6": 12,
    "Sh-P7": 10,
    "Sh-P8": 12,
    "S18-T8": 16,
    "S18-T9": 16,
    "S18-T12": 16,
}


def test_every_part_b_theorem_is_registered() -> None:
    ids = {t.id for t in theorems()}
    assert set(SMALL) <= ids
    assert {theorem(t).paper for t in SMALL} == {"S19", "Sh", "S18"}


@pytest.mark.parametrize(("tid", "bound"), sorted(SMALL.items()))
def test_registry_check_passes(tid: str, bound: int) -> None:
    r = check_theorem(tid, bound)
    assert r.ok, r.counterexample
    assert r.positions_checked > 0


def first_disagreement(t: Theorem, bound: int) -> tuple[int, Any]:
    """Compare the claim with exhaustive search at every position of every instance."""
    count = 0
    for inst in t.instances(bound):  # type: ignore[misc]
        s: Solver[Any] = Solver(inst.game)
        for pos in inst.iter_positions():
            claimed = t.claimed(inst.game, pos)
            if t.kind == "grundy":
                actual: Any = s.grundy(pos, method="search")
            else:
                actual = s.is_p(pos, method="search")
            count += 1
            if claimed != actual:
                return count, (inst.game.label(), pos, claimed, actual)
    return count, None


@pytest.mark.parametrize(("tid", "bound"), sorted(SMALL.items()))
def test_claims_agree_with_search(tid: str, bound: int) -> None:
    count, bad = first_disagreement(theorem(tid), bound)
    assert bad is None
    assert count > 0


def test_theorems_name_their_games_and_hooks() -> None:
    for tid in SMALL:
        t = theorem(tid)
        cls = type(game(t.game, **_params(t.game)))
        assert tid in cls.theorems, (tid, cls.name)


def _params(name: str) -> dict[str, Any]:
    params: dict[str, dict[str, Any]] = {
        "ryuo": {"p": 2},
        "restricted-ryuo": {"p": 2, "q": 4},
        "rgames": {"g0": "subtraction:1", "parts": "nim"},
    }
    return params.get(name, {})


def test_wrong_claims_are_caught() -> None:
    """The comparison is not vacuous: false claims meet a counterexample."""
    t = replace(theorem("S19-T11"), claim=lambda g, p: (p[0] | p[1]) & 1)
    assert first_disagreement(t, 8)[1] is not None
    t = replace(theorem("Sh-P8"), claim=lambda g, p: len(p) % 3 != 1)
    assert first_disagreement(t, 6)[1] is not None
    t = replace(theorem("S18-T12"), claim=lambda g, p: g.closed_grundy(p) ^ (p == (9, 13)))
    assert first_disagreement(t, 16)[1][1] == (9, 13)
    t = replace(theorem("Sh-T6"), claim=lambda g, p: len({h % 2 for h in p}) == 1)
    assert first_disagreement(t, 12)[1] is not None


@pytest.mark.parametrize("tid", ["S18-T8", "S18-T9"])
def test_vector_claims_equal_the_closed_forms(tid: str) -> None:
    import numpy as np

    t = theorem(tid)
    assert t.vector_claim is not None
    x, y = np.meshgrid(np.arange(40, dtype=np.int64), np.arange(40, dtype=np.int64))
    for inst in t.instances(40):  # type: ignore[misc]
        arr = t.vector_claim(inst.game, (x, y))
        for a, b in zip(x.ravel().tolist(), y.ravel().tolist(), strict=True):
            assert arr[b, a] == inst.game.closed_grundy((a, b))


@pytest.mark.parametrize("tid", ["S18-T8", "S18-T9"])
def test_vectorised_check_catches_a_wrong_claim(tid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Ryuo theorems run the vectorised local check; a false claim fails there."""
    from nimlab.theory import registry

    t = theorem(tid)
    vc = t.vector_claim
    assert vc is not None

    def wrong_vec(g: Any, heaps: tuple[Any, ...]) -> Any:
        x, y = heaps
        return vc(g, heaps) ^ ((x == 5) & (y == 7))

    def wrong(g: Any, p: tuple[int, int]) -> int:
        return int(wrong_vec(g, p))

    monkeypatch.setitem(registry._THEOREMS, tid, replace(t, claim=wrong, vector_claim=wrong_vec))
    r = check_theorem(tid, 12)
    assert not r.ok and r.counterexample is not None
