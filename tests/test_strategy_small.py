"""Constructive winning moves against exhaustive search, on small positions of every game.

For each game with a strategy: every returned move is legal (in ``game.moves``), its
result is a P-position by exhaustive search, the list is empty exactly at P-positions,
and the list equals the full set of winning moves found by search (constructions that
give one move are completed by a scan; their own move must be among the search's).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nimlab import game, winning_move, winning_moves
from nimlab.solvers.search import Solver
from nimlab.solvers.strategy import construction

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def heaps(n_min: int, n_max: int, lo: int, hi: int) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(lo, hi), min_size=n_min, max_size=n_max).map(tuple)


CASES: list[tuple[str, dict[str, Any], st.SearchStrategy[Any], bool]] = [
    ("nim", {}, heaps(1, 4, 0, 9), False),
    ("nim", {}, heaps(1, 4, 0, 5), True),
    ("moore", {"k": 1}, heaps(1, 4, 0, 6), False),
    ("moore", {"k": 2}, heaps(1, 4, 0, 6), False),
    ("moore", {"k": 3}, heaps(2, 4, 0, 5), False),
    ("moore", {"k": 2}, heaps(1, 4, 0, 5), True),
    ("moore", {"k": 3}, heaps(2, 4, 0, 4), True),
    ("circular", {"k": 1}, heaps(3, 4, 0, 5), False),
    ("circular", {"k": 3}, heaps(4, 4, 0, 3), False),
    ("circular", {"k": 3}, heaps(3, 3, 0, 5), False),
    (
        "welter",
        {},
        st.lists(st.integers(0, 10), min_size=1, max_size=4, unique=True).map(tuple),
        False,
    ),
    ("lim", {}, heaps(3, 3, 0, 10), False),
    ("nimhoff", {"k": 1}, heaps(1, 4, 0, 7), False),
    ("nimhoff", {"k": 2}, heaps(1, 3, 0, 10), False),
    ("delete-nim", {}, heaps(2, 2, 0, 14), False),
    ("single-delete", {}, heaps(2, 2, 1, 16), False),
    ("single-delete", {}, heaps(3, 3, 1, 14), False),
    ("single-delete", {}, heaps(4, 4, 1, 10), False),
    ("abo-delete", {}, heaps(2, 3, 1, 13), False),
    ("emperor", {"k": 1}, st.lists(heaps(1, 2, 0, 3), min_size=1, max_size=3).map(tuple), False),
    ("emperor", {"k": 2}, st.lists(heaps(1, 2, 0, 3), min_size=1, max_size=3).map(tuple), False),
    ("ryuo", {"p": 3}, heaps(2, 2, 0, 14), False),
    ("ryuo", {"p": 5}, heaps(2, 2, 0, 14), False),
    ("restricted-ryuo", {"p": 3, "q": 6}, heaps(2, 2, 0, 16), False),
    ("restricted-ryuo", {"p": 2, "q": 8}, heaps(2, 2, 0, 16), False),
    (
        "rgames",
        {"g0": "subtraction:1,2,3", "parts": "allbut:8;allbut:4,8"},
        heaps(2, 2, 0, 30),
        False,
    ),
    ("rgames", {"g0": "subtraction:1", "parts": "nim;allbut:2;nim"}, heaps(3, 3, 0, 7), False),
    (
        "turning-turtles",
        {},
        st.frozensets(st.tuples(st.integers(1, 3), st.integers(1, 3)), max_size=3),
        False,
    ),
]


@pytest.mark.parametrize(
    ("name", "params", "positions", "misere"),
    CASES,
    ids=[f"{n}-{p}-{'misere' if m else 'normal'}" for n, p, _, m in CASES],
)
def test_constructive_moves_match_search(
    name: str, params: dict[str, Any], positions: st.SearchStrategy[Any], misere: bool
) -> None:
    g = game(name, **params)

    @SETTINGS
    @given(positions)
    def check(raw: Any) -> None:
        pos = g.validate(raw)
        assert construction(g, pos, misere) is not None
        solver = Solver(g)
        reference = solver.winning_moves(pos, misere, "search")
        got = winning_moves(g, pos, misere=misere)
        assert len(got) == len(set(got))
        legal = set(g.moves(pos))
        for mv in got:
            assert mv in legal
            assert solver.is_p(mv, misere, "search")
        assert set(got) == set(reference)
        one = winning_move(g, pos, misere=misere)
        if reference:
            assert one in set(reference)
            assert got[0] == one  # the construction's own move comes first
        else:
            assert one is None
            assert solver.is_p(pos, misere, "search") or not legal

    check()


@pytest.mark.parametrize(
    ("name", "S"),
    [("subtraction", {1, 3, 4}), ("subtraction", {2, 5}), ("allbut", {2}), ("allbut", {1, 4})],
)
@SETTINGS
@given(n=st.integers(0, 60))
def test_one_heap_games(name: str, S: set[int], n: int) -> None:
    g = game(name, S=S)
    pos = g.validate(n)
    reference = Solver(g).winning_moves(pos, False, "search")
    got = winning_moves(g, pos)
    assert construction(g, pos, False) is not None
    assert set(got) == set(reference) and len(got) == len(set(got))
