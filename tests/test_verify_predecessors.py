"""Retrograde marking in the compiled local check of a P-set: the games' predecessor
hooks are the inverse of their moves, a wrong hook is refused, and a wrong claim fails
with the same counterexample whether or not the marks are used."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

pytest.importorskip("numba")

from numba import njit
from numba.cpython.unsafe.tuple import tuple_setitem

import nimlab.verification._optindex as optindex
from nimlab.catalog import game
from nimlab.catalog.circular import Circular
from nimlab.core.errors import GameDefinitionError
from nimlab.theory.registry import check_theorem, theorem
from nimlab.verification.spaces import BoxSpace, SortedBoxSpace

_set: Any = tuple_setitem


def _predecessors(g: Any, space: Any) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(canonical option, canonical position) pairs of *space* from the hook."""
    pred = g.compiled_predecessors()
    out = set()
    for i in range(space.n_chunks):
        for h in space.chunk(i):
            for p in pred(tuple(h), space.low, space.bound):
                p = tuple(int(x) for x in p)
                assert space.contains(g.canonical(p)), (h, p)
                out.add((g.canonical(tuple(h)), g.canonical(p)))
    return out


def _options(g: Any, space: Any) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    out = set()
    for i in range(space.n_chunks):
        for p in space.chunk(i):
            for q in g.moves(p):
                out.add((g.canonical(q), g.canonical(p)))
    return out


@pytest.mark.parametrize(
    ("g", "space"),
    [
        (game("moore", k=1), SortedBoxSpace(3, 6)),  # 3 heaps: one walk for both (and for
        (game("moore", k=2), SortedBoxSpace(3, 6)),  # the marks of misère Nim_2 below)
        (game("circular", k=2), BoxSpace(6, 3)),  # 6 heaps: one walk for the three values
        (game("circular", k=4), BoxSpace(6, 3)),
        (game("circular", k=3), BoxSpace(6, 3)),
        (game("abo-delete"), SortedBoxSpace(2, 12, 1)),
        (game("abo-delete"), SortedBoxSpace(3, 10, 1)),
        (game("abo-delete"), SortedBoxSpace(5, 9, 1)),
    ],
)
def test_predecessors_are_exactly_the_inverse_of_the_moves(g: Any, space: Any) -> None:
    # every option pair inside the space, both ways: the hook leaves nothing out here
    assert _predecessors(g, space) == _options(g, space)
    assert optindex.check_predecessors(g, space) is None


@njit
def _too_many(h: Any, low: int, bound: int) -> Any:  # pragma: no cover - compiled
    """Raises every heap at once: for CN(6, 4) that is not a move backwards."""
    p = h
    for i in range(len(h)):
        if h[i] + 1 >= bound:
            return
        p = _set(p, i, h[i] + 1)
    yield p


@dataclasses.dataclass(frozen=True)
class _WrongHook(Circular):
    def compiled_predecessors(self) -> Any:
        return _too_many


def test_a_hook_that_yields_a_non_predecessor_is_refused(monkeypatch: Any) -> None:
    g = _WrongHook(k=4)
    assert optindex.check_predecessors(g, BoxSpace(6, 8)) == (0, 0, 0, 0, 0, 0)
    monkeypatch.setattr(optindex, "MARK_MIN_POSITIONS", 1)
    t = dataclasses.replace(theorem("S19-T9"), instances=lambda b: _instances(g, b))
    with pytest.raises(GameDefinitionError, match="compiled_predecessors"):
        check_theorem(t, bound=4)


def _instances(g: Any, b: int) -> Any:
    from nimlab.theory.registry import Instance
    from nimlab.theory.spaces import box_space

    yield Instance(g, space=box_space(6, b))


def _wrong_at(bad: tuple[int, ...], misere: bool = False) -> Any:
    def claim(g: Any, position: tuple[int, ...]) -> bool:
        right = bool(g.closed_misere_is_p(position) if misere else g.closed_is_p(position))
        return not right if position == bad else right

    return claim


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("tid", "bad", "bound"),
    [
        ("S19-T9", (1, 2, 3, 1, 2, 3), 5),  # a P-position claimed N
        ("S19-T9", (0, 0, 0, 1, 2, 3), 5),  # an N-position claimed P
        ("S19-T9", (2, 4, 4, 2, 0, 0), 5),  # the N-position claimed P (a P option)
        ("Sh-T2", (1, 2, 3), 24),  # an N-position claimed P (3 heaps)
        ("Sh-T2", (1, 2, 7), 24),  # a P-position claimed N
    ],
)
def test_a_wrong_claim_fails_the_same_way_with_and_without_marks(
    monkeypatch: Any, tid: str, bad: tuple[int, ...], bound: int
) -> None:
    t = dataclasses.replace(theorem(tid), claim=_wrong_at(bad))
    monkeypatch.setattr(optindex, "MARK_MIN_POSITIONS", 1)
    monkeypatch.setattr(optindex, "_MARKS", {})
    marked = check_theorem(t, bound=bound)
    assert any(isinstance(v, tuple) and v[0].any() for v in optindex._MARKS.values())
    monkeypatch.setattr(optindex, "MARK_MIN_POSITIONS", 1 << 40)
    plain = check_theorem(t, bound=bound)
    searched = check_theorem(t, bound=bound, method="search")
    assert not marked.ok and not plain.ok and not searched.ok
    assert marked.counterexample is not None and plain.counterexample is not None
    assert marked.counterexample.position == plain.counterexample.position
    assert marked.positions_checked == plain.positions_checked
    assert "compiled" in marked.method


@pytest.mark.timeout(120)
def test_marks_agree_with_the_scan_when_the_claim_is_right(monkeypatch: Any) -> None:
    from nimlab.theory.registry import Instance
    from nimlab.theory.reproduce import count_positions
    from nimlab.theory.spaces import sorted_space

    monkeypatch.setattr(optindex, "MARK_MIN_POSITIONS", 1)
    misere = dataclasses.replace(  # misère Nim_2 on 3 heaps: terminal positions are N
        theorem("N99-T2.10"),
        instances=lambda b: iter([Instance(game("moore", k=2), space=sorted_space(3, b))]),
    )
    for t, bound in ((theorem("S19-T9"), 5), (theorem("Sh-T2"), 24), (misere, 9)):
        r = check_theorem(t, bound=bound)
        assert r.ok and "compiled" in r.method, t.id
        assert r.positions_checked == count_positions(t, bound)
    wrong = dataclasses.replace(misere, claim=_wrong_at((0, 0, 0), misere=True))  # claimed P
    r = check_theorem(wrong, bound=9)
    assert not r.ok and r.counterexample is not None
    assert r.counterexample.position == (0, 0, 0)
