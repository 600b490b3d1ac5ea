"""With two players, GAMEs(0,1) is normal play and GAMEs(1,0) misère play, for every game.

Each registered game is built (with sample parameters when it needs some) and every
position reachable from a few small seeds is compared with the two-player solvers
(``Solver.is_p(..., method="search")``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

import nimlab
from nimlab import HeapRuleset, MultiplayerSolver, NimlabError, Solver, games_profile

# Parameters for games that need some (several instances where parameters matter).
SAMPLE_PARAMS: dict[str, list[dict[str, Any]]] = {
    "moore": [{"k": 1}, {"k": 2}, {"k": 3}],
    "circular": [{"k": 1}, {"k": 2}],
    "nimhoff": [{"k": 1}, {"k": 2}],
    "subtraction": [{"S": "1,2"}, {"S": "1,3,4"}, {"S": "2,5"}],
    "allbut": [{}, {"S": "2"}, {"S": "1,3"}],
    "ryuo": [{"p": 2}, {"p": 3}],
    "restricted-ryuo": [{"p": 2, "q": 4}],
    "rgames": [{"g0": "subtraction:1,2,3", "parts": "allbut:8;allbut:4,8"}],
    "emperor": [{"k": 1}, {"k": 2}],
    "octal": [{"code": "0.77"}, {"code": "0.07"}, {"code": "4.07"}],
}

# Seeds for games whose positions are not plain heaps.
SEEDS: dict[str, list[Any]] = {
    "emperor": [((1, 2), (2,)), ((1, 2), (2, 1)), ((2, 2), (1,)), ((2,), (1,), (1,))],
    "turning-turtles": [[(2, 2), (1, 3)], [(3, 3)], [(2, 3), (3, 2)], [(1, 1), (2, 1), (2, 3)]],
}

MAX_POSITIONS_PER_GAME = 1500


def _instances() -> Iterator[tuple[str, Any]]:
    for info in nimlab.games():
        params = SAMPLE_PARAMS.get(info.name, [{}])
        for p in params:
            yield info.name, p


def _heap_seeds(g: Any) -> Iterator[tuple[int, ...]]:
    lo = g.min_heap_size
    fixed = g.n_heaps
    counts = [fixed] if fixed is not None else range(max(1, g.min_heaps), 5)
    top = {1: 30, 2: 8, 3: 5, 4: 3}
    for n in counts:
        hi = top.get(n, 3)
        for t in sorted(itertools.product(range(lo, lo + hi), repeat=n), key=sum):
            try:
                yield g.validate(t)
            except NimlabError:
                continue


def _closure(g: Any, seeds: list[Any]) -> list[Any]:
    """A move-closed set of positions: whole subtrees of the seeds, smallest seeds first,
    stopping before the set would exceed MAX_POSITIONS_PER_GAME (so searches stay small)."""
    seen: dict[Any, None] = {}
    for seed in seeds:
        new: dict[Any, None] = {}
        todo = [g.canonical(seed)]
        while todo and len(seen) + len(new) <= MAX_POSITIONS_PER_GAME:
            c = todo.pop()
            if c in seen or c in new:
                continue
            new[c] = None
            todo.extend(g.canonical(o) for o in g.moves(c))
        if todo:  # this seed's subtree is too large: keep what is complete
            break
        seen.update(new)
    return list(seen)


@pytest.mark.parametrize(("name", "params"), list(_instances()))
def test_two_players_normal_and_misere(name: str, params: dict[str, Any]) -> None:
    try:
        g = nimlab.game(name, **params)
    except NimlabError as exc:  # a game registered later with parameters we do not know
        pytest.skip(f"{name}: no sample parameters ({exc})")
    if isinstance(g, HeapRuleset):
        seeds: list[Any] = list(_heap_seeds(g))
    elif name in SEEDS:
        seeds = [g.validate(s) for s in SEEDS[name]]
    else:
        pytest.skip(f"{name}: positions are not heaps and no seed is known")
    positions = _closure(g, seeds)
    assert len(positions) > 5
    normal = MultiplayerSolver(g, games_profile(0, 1))
    misere = MultiplayerSolver(g, games_profile(1, 0))
    two = Solver(g)
    for pos in positions:
        is_p = two.is_p(pos, misere=False, method="search")
        # P-position: the player to move (0) loses, so the opponent (1) moved last
        assert (normal.last_mover(pos, 0) == 1) == is_p, (g.label(), pos)
        assert normal.last_mover(pos, 1) == (0 if is_p else 1)
        mis_p = two.is_p(pos, misere=True, method="search")
        # misère P-position: the player to move is forced to make the last move
        assert (misere.last_mover(pos, 0) == 0) == mis_p, (g.label(), pos)


def test_the_common_games_are_covered() -> None:
    names = {n for n, _ in _instances()}
    assert {"nim", "wythoff", "subtraction", "allbut"} <= names
