"""The option index of the compiled P-set check (a game's ``compiled_option_index`` hook):
Single-delete's index says "an option was recorded" exactly when the moves say so, a
wrong hook is refused, and a claim fails or holds the same way with the index, with the
scan of every option and with exhaustive search."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

pytest.importorskip("numba")

import numpy as np

import nimlab.verification._optindex as optindex
from nimlab.catalog import game
from nimlab.catalog.delete import SingleDelete
from nimlab.core.errors import GameDefinitionError
from nimlab.theory.registry import check_theorem, theorem
from nimlab.theory.reproduce import count_positions
from nimlab.verification.spaces import SortedBoxSpace


@pytest.mark.parametrize(("n", "bound"), [(2, 12), (3, 9), (4, 7), (5, 6)])
def test_single_delete_index_is_exactly_has_an_option(n: int, bound: int) -> None:
    g = game("single-delete")
    prepare, note, reaches = g.compiled_option_index()
    space = SortedBoxSpace(n, bound, 1)
    positions = [p for i in range(space.n_chunks) for p in space.chunk(i)]
    cells, aux = prepare(n, 1, bound)
    for o in positions[:: max(1, len(positions) // 40)]:
        index = np.zeros(cells, dtype=np.uint8)
        note(tuple(np.int64(x) for x in o), index, aux)
        for p in positions:
            has = any(tuple(sorted(q)) == o for q in g.moves(p))
            assert bool(reaches(tuple(np.int64(x) for x in p), index, aux)) == has, (p, o)


@dataclasses.dataclass(frozen=True)
class _WrongIndex(SingleDelete):
    def compiled_option_index(self) -> Any:
        from nimlab.catalog.delete import compiled as _compiled

        def prepare(n: int, low: int, bound: int) -> Any:
            cells, aux = _compiled.single_delete_index_prepare(n, low, bound)
            aux = aux.copy()
            aux[n - 2, 1] -= 1  # forgets the splits into the largest sum
            return cells, aux

        return prepare, _compiled.single_delete_note, _compiled.single_delete_reaches


def _instances(g: Any, b: int) -> Any:
    from nimlab.theory.registry import Instance

    yield Instance(g, space=SortedBoxSpace(4, b, 1, 1 << 17))


def test_a_wrong_index_is_refused() -> None:
    t = dataclasses.replace(theorem("Sh-T6*"), instances=lambda b: _instances(_WrongIndex(), b))
    with pytest.raises(GameDefinitionError, match="compiled_option_index"):
        check_theorem(t, bound=12)


def _wrong_at(bad: tuple[int, ...]) -> Any:
    def claim(g: Any, position: tuple[int, ...]) -> bool:
        right = bool(g.closed_is_p(position))
        return not right if position == bad else right

    return claim


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("t", "bound"),
    [
        (theorem("Sh-T6"), 41),  # as printed: (12, 14, 15, 40) is P, it says N
        (
            dataclasses.replace(
                theorem("Sh-T6*"), claim=_wrong_at((1, 2, 3, 5)), scalar_claim=None
            ),
            9,
        ),
        (
            dataclasses.replace(
                theorem("Sh-T6*"), claim=_wrong_at((1, 1, 2, 2)), scalar_claim=None
            ),
            9,
        ),
    ],
)
def test_a_wrong_claim_fails_the_same_way_with_and_without_the_index(
    monkeypatch: Any, t: Any, bound: int
) -> None:
    indexed = check_theorem(t, bound=bound, workers=1, store=False)
    assert any(v is not None for v in optindex._INDEX_HOOKS.values())
    monkeypatch.setattr(optindex, "MAX_INDEX_CELLS", 0)
    monkeypatch.setattr(optindex, "_INDEX_HOOKS", {})
    plain = check_theorem(t, bound=bound, workers=1, store=False)
    assert not any(v is not None for v in optindex._INDEX_HOOKS.values())
    assert not indexed.ok and not plain.ok
    assert indexed.counterexample is not None and plain.counterexample is not None
    assert indexed.counterexample.position == plain.counterexample.position
    assert indexed.positions_checked == plain.positions_checked
    assert "compiled" in indexed.method
    if bound < 12:
        searched = check_theorem(t, bound=bound, method="search")
        assert searched.counterexample is not None
        assert searched.counterexample.position == indexed.counterexample.position


@pytest.mark.slow
def test_the_index_agrees_with_the_count_when_the_claim_holds() -> None:
    t = theorem("Sh-T6*")
    r = check_theorem(t, bound=30, workers=1, store=False)
    assert r.ok and "compiled" in r.method
    assert r.positions_checked == count_positions(t, 30)
    two = check_theorem(t, bound=30, workers=2, store=False)
    assert two.ok and two.positions_checked == r.positions_checked
