"""Catalog part A games: exact moves, the papers' examples, definitional agreements
(by exhaustive search) and closed forms against search on random small positions."""

from __future__ import annotations

import itertools
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab import game, grundy, outcome, winning_moves
from nimlab.catalog.turtles import WholeBoardTurningTurtles
from nimlab.formulas.nimmul import nim_product_table, nimmul
from nimlab.solvers.search import Solver

FAST = settings(max_examples=40, deadline=None)


def search_grundy(g: Any, pos: Any) -> int:
    return grundy(g, pos, method="search")


def search_is_p(g: Any, pos: Any, misere: bool = False) -> bool:
    return str(outcome(g, pos, misere, method="search")) == "P"


def brute_moves(position: tuple[int, ...], allowed: list[set[int]]) -> set[tuple[int, ...]]:
    """Every t <= position, t != position, whose changed heaps lie inside one allowed set."""
    out = set()
    for t in itertools.product(*(range(h + 1) for h in position)):
        changed = {i for i, (x, y) in enumerate(zip(t, position, strict=True)) if x != y}
        if changed and any(changed <= s for s in allowed):
            out.add(t)
    return out


# -- registry -----------------------------------------------------------------------------------
def test_names_and_aliases() -> None:
    assert game("nim-k", k=2) == game("moore", k=2) == game("moorenim", k="2")
    assert game("welter-sato") == game("mayan") == game("welter")
    assert game("turning-turtles").name == "turning-turtles"
    assert game("lim").name == "lim"
    assert game("circular", k=3).label() == "circular(k=3)"
    assert game("nimhoff", k=2).label() == "nimhoff(k=2)"
    for name in ("moore", "turning-turtles", "welter", "lim", "circular", "nimhoff"):
        g = game(name, k=1) if name in ("moore", "circular", "nimhoff") else game(name)
        doc = sys.modules[type(g).__module__].__doc__ or ""
        assert g.theorems, name
        assert all(t in doc for t in g.theorems), name  # the module cites its results


# -- Moore's Nim_k ---------------------------------------------------------------------------
@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("position", [(2, 1, 3), (1, 1, 1, 1), (0, 2, 2, 1), (3,), (2, 0, 3)])
def test_moore_moves_are_exact(k: int, position: tuple[int, ...]) -> None:
    g = game("moore", k=k)
    opts = list(g.moves(position))
    assert len(opts) == len(set(opts))  # no duplicates
    n = len(position)
    windows = [set(c) for c in itertools.combinations(range(n), min(k, n))]
    assert set(opts) == brute_moves(position, windows)


def test_moore_1_is_nim() -> None:
    nim, m1 = game("nim"), game("moore", k=1)
    for pos in itertools.product(range(5), repeat=3):
        assert search_grundy(m1, pos) == search_grundy(nim, pos)


def test_n99_winning_moves_by_search() -> None:
    # [N99] Example 1.5 (K = 1) and Example 2.5 (K = 2)
    assert (3, 6, 5) in winning_moves(game("moore", k=1), (7, 6, 5), method="search")
    assert (1, 4, 5) in winning_moves(game("moore", k=1), (3, 4, 5), method="search")
    assert (3, 3, 3) in winning_moves(game("moore", k=2), (3, 4, 5), method="search")
    assert (1, 4, 5, 5) in winning_moves(game("moore", k=2), (3, 4, 5, 9), method="search")
    assert search_is_p(game("moore", k=2), (3, 5, 6, 7))  # [S19] Example 8 is a P-position


@FAST
@given(st.integers(1, 3), st.lists(st.integers(0, 5), min_size=1, max_size=4))
def test_moore_criteria_vs_search(k: int, heaps: list[int]) -> None:
    g = game("moore", k=k)
    pos = tuple(heaps)
    assert g.closed_is_p(pos) == search_is_p(g, pos)
    assert g.closed_misere_is_p(pos) == search_is_p(g, pos, misere=True)
    if k == 1:
        assert g.closed_grundy(pos) == search_grundy(g, pos)
    else:
        assert g.closed_grundy(pos) is None


# -- 2-D Turning Turtles -------------------------------------------------------------------------
def test_turtle_moves_flip_a_set_of_corners() -> None:
    g = game("turning-turtles")
    opts = {tuple(sorted(p)) for p in g.moves(frozenset({(2, 2)}))}
    assert opts == {
        (),  # a' = a, b' = b: the head alone
        ((1, 2),),  # a' = 1, b' = b
        ((2, 1),),  # a' = a, b' = 1
        ((1, 1), (1, 2), (2, 1)),  # a' = b' = 1: four corners
    }
    # a move on one head leaves the others, toggling coins already showing heads
    opts2 = {tuple(sorted(p)) for p in g.moves(frozenset({(2, 2), (1, 2)}))}
    assert ((1, 1), (2, 1)) in opts2


def test_single_head_values_are_nim_products_by_search() -> None:
    table = nim_product_table(8)
    g = game("turning-turtles")
    solver = Solver(g)
    for a in range(1, 8):
        for b in range(1, 8):
            if a * b <= 12:
                assert solver.grundy(frozenset({(a, b)}), method="search") == table[a][b]


def test_whole_board_search_equals_sum_of_heads() -> None:
    whole = Solver(WholeBoardTurningTurtles())
    coins = [(a, b) for a in (1, 2, 3) for b in (1, 2, 3)]
    for mask in range(1 << 9):
        pos = frozenset(c for i, c in enumerate(coins) if mask >> i & 1)
        expected = 0
        for a, b in pos:
            expected ^= nimmul(a, b)
        assert whole.grundy(pos, method="search") == expected


@FAST
@given(st.sets(st.tuples(st.integers(1, 4), st.integers(1, 3)), max_size=5))
def test_turtles_closed_form_vs_search(heads: set[tuple[int, int]]) -> None:
    g = game("turning-turtles")
    pos = g.validate(heads)
    assert g.closed_grundy(pos) == grundy(WholeBoardTurningTurtles(), pos, method="search")


def test_turtles_positions_and_cli_round_trip() -> None:
    g = game("turning-turtles")
    assert g.validate([(1, 1), [2, 3]]) == frozenset({(1, 1), (2, 3)})
    assert g.validate(((1, 1),)) == g.validate({(1, 1)})
    pos = g.parse_position(["2,3", "1,1"])
    assert g.format_position(pos) == "1,1 2,3"
    assert g.parse_position(g.format_position(pos).split()) == pos
    assert g.parse_position([]) == frozenset() == g.parse_position(["-"])
    assert g.parse_position(g.format_position(frozenset()).split()) == frozenset()
    assert g.canonical(frozenset({(1, 3)})) == g.canonical(frozenset({(3, 1)}))
    assert grundy(g, [(4, 4), (8, 8)]) == 6 ^ 13


# -- Welter–Sato ------------------------------------------------------------------------------------
def test_welter_game_tree_of_s19_figure_3() -> None:
    g = game("welter")
    assert set(g.moves((1, 3))) == {(1, 2), (1, 0), (0, 3)}
    assert set(g.moves((1, 2))) == {(1, 0), (0, 2)}
    assert set(g.moves((0, 3))) == {(0, 1), (0, 2)}
    assert set(g.moves((0, 2))) == {(0, 1)}
    assert list(g.moves((1, 0))) == [] and list(g.moves((0, 1))) == []


@FAST
@given(st.sets(st.integers(0, 12), min_size=1, max_size=4))
def test_welter_closed_form_vs_search(heaps: set[int]) -> None:
    g = game("welter")
    pos = tuple(sorted(heaps, reverse=True))
    assert g.closed_grundy(pos) == search_grundy(g, pos)


# -- Lim ---------------------------------------------------------------------------------------------
def test_lim_examples_by_search() -> None:
    g = game("lim")
    assert search_grundy(g, (3, 5, 5)) == 5  # [S19] Example 11
    assert search_grundy(g, (11, 6, 5)) == 7  # [S19] Example 12


def test_lim_moves_add_to_the_third_heap() -> None:
    assert set(game("lim").moves((2, 1, 0))) == {(1, 0, 1)}
    assert set(game("lim").moves((1, 1, 1))) == {(0, 0, 2), (0, 2, 0), (2, 0, 0)}


@FAST
@given(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9)))
def test_lim_closed_form_vs_search(pos: tuple[int, int, int]) -> None:
    g = game("lim")
    assert g.closed_grundy(pos) == search_grundy(g, pos)


# -- Circular Nim ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("k", "position"),
    [
        (1, (2, 1, 3)),
        (2, (1, 2, 1, 1)),
        (3, (1, 1, 2, 1, 1)),
        (4, (1, 0, 1, 1, 2, 1)),
        (3, (2, 1, 2)),
    ],
)
def test_circular_moves_are_exact(k: int, position: tuple[int, ...]) -> None:
    n = len(position)
    windows = [{(s + i) % n for i in range(k)} for s in range(n)]
    opts = list(game("circular", k=k).moves(position))
    assert len(opts) == len(set(opts))
    assert set(opts) == brute_moves(position, windows)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_circular_k1_is_nim(n: int) -> None:
    g, nim = game("circular", k=1), game("nim")
    for pos in itertools.product(range(4), repeat=n):
        assert search_grundy(g, pos) == search_grundy(nim, pos)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_circular_kn_is_one_heap_of_the_total(n: int) -> None:
    g = game("circular", k=n)
    for pos in itertools.product(range(4), repeat=n):
        assert search_grundy(g, pos) == search_grundy(game("nim"), (sum(pos),))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_circular_n_minus_1_is_moore(n: int) -> None:
    g, m = game("circular", k=n - 1), game("moore", k=n - 1)
    top = 4 if n <= 4 else 3
    for pos in itertools.product(range(top), repeat=n):
        assert search_grundy(g, pos) == search_grundy(m, pos)


def test_cn64_example_by_search() -> None:
    g = game("circular", k=4)
    assert search_is_p(g, (1, 2, 3, 1, 2, 3))
    assert search_is_p(g, (2, 3, 1, 2, 3, 1))  # minimum not first: some labelling works
    assert not search_is_p(g, (1, 1, 1, 1, 1, 2))


@FAST
@given(st.data())
def test_circular_closed_forms_vs_search(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 6))
    k = data.draw(st.sampled_from(sorted({1, n - 1, n} - {0} | ({4} if n == 6 else set()))))
    top = 3 if n >= 5 else 4
    pos = tuple(data.draw(st.lists(st.integers(0, top), min_size=n, max_size=n)))
    g = game("circular", k=k)
    claim = g.closed_is_p(pos)
    assert claim is not None
    assert claim == search_is_p(g, pos)
    cg = g.closed_grundy(pos)
    if cg is not None:
        assert cg == search_grundy(g, pos)


def test_circular_has_no_closed_form_elsewhere() -> None:
    g = game("circular", k=2)
    assert g.closed_is_p((1, 2, 3, 4, 5)) is None
    assert g.closed_grundy((1, 2, 3, 4, 5)) is None


# -- Nimhoff -----------------------------------------------------------------------------------------
def test_nimhoff_examples_by_search() -> None:
    assert search_grundy(game("nimhoff", k=2), (4, 6)) == 3  # [S19] Example 13
    assert search_grundy(game("nimhoff", k=1), (13, 3)) == 14  # [S19] Example 14


@FAST
@given(st.integers(1, 3), st.lists(st.integers(0, 11), min_size=1, max_size=3))
def test_nimhoff_closed_form_vs_search(k: int, heaps: list[int]) -> None:
    g = game("nimhoff", k=k)
    pos = tuple(heaps)
    assert g.closed_grundy(pos) == search_grundy(g, pos)


def test_nimhoff_formula_fails_for_k0() -> None:
    """Why k = 0 is refused: with 1-from-two-heaps moves the k-sum is not the value."""
    from nimlab.catalog.nimhoff.formulas import ksum
    from nimlab.core.ruleset import HeapRuleset

    class Nimhoff0(HeapRuleset):
        name = "nimhoff0"

        def moves(self, position: tuple[int, ...]) -> Any:
            yield from game("nim").moves(position)
            if len(position) == 2 and min(position) >= 1:
                yield (position[0] - 1, position[1] - 1)

    g0 = Nimhoff0()
    assert any(search_grundy(g0, (a, b)) != ksum(a, b, 0) for a in range(6) for b in range(6))
