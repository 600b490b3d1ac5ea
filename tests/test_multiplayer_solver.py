"""Multiplayer last movers under preference profiles ([SM] §3–§5): the solver and its API."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

import nimlab
from nimlab import (
    HeapRuleset,
    InvalidParameterError,
    InvalidPositionError,
    MultiplayerSolver,
    NimlabError,
    PreferenceProfile,
    SearchTooLargeError,
    game,
    games_profile,
    i_position,
    last_mover,
    li_ranking,
    misere_profile,
    multiplayer_choice,
    multiplayer_moves,
    symmetric_profiles,
)

Orders = tuple[tuple[int, ...], ...]


def naive_last_mover(g: Any, pos: Any, mover: int, orders: Orders) -> int:
    """[SM] Definition 4.1 word for word: plain recursion over all options, no shortcuts."""

    @cache
    def w(p: Any, a: int) -> int:
        m = len(orders)
        opts = list(g.moves(p))
        if not opts:
            return (a - 1) % m  # P(A)
        vals = [w(o, (a + 1) % m) for o in opts]
        return min(vals, key=lambda v: orders[a].index(v))  # greatest in A's order

    return w(pos, mover)


# -- profiles -----------------------------------------------------------------------------
def test_games_profile_is_the_papers_definition() -> None:
    # GAMEs(k1..km): player A prefers N^{k1}(A) most, then N^{k2}(A), ...
    for m in range(2, 6):
        for ks in itertools.permutations(range(m)):
            prof = games_profile(*ks)
            assert prof.players == m
            assert prof.offsets == ks
            for a in range(m):
                assert prof.orders[a] == tuple((a + k) % m for k in ks)
                assert prof.most_wanted(a) == (a + ks[0]) % m
    assert games_profile(0, 1, 2).orders == ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    assert li_ranking(3) == games_profile(0, 1, 2)
    assert misere_profile() == games_profile(1, 0)
    assert len(list(symmetric_profiles(4))) == 24
    assert all(p.is_symmetric for p in symmetric_profiles(3))


def test_symmetry_follows_sm_definition_4_2() -> None:
    # X <_B Y  <=>  N^k(X) <_A N^k(Y) for A = N^k(B): check by brute force on all 3-player profiles
    perms = list(itertools.permutations(range(3)))
    for orders in itertools.product(perms, repeat=3):
        prof = PreferenceProfile(orders)
        m = 3
        sym = all(
            (prof.rank(b, x) < prof.rank(b, y))
            == (prof.rank((b + k) % m, (x + k) % m) < prof.rank((b + k) % m, (y + k) % m))
            for b, k, x, y in itertools.product(range(m), repeat=4)
            if x != y
        )
        assert prof.is_symmetric == sym


@pytest.mark.parametrize(
    ("bad", "fragment"),
    [
        ([[0, 1], [1, 1]], "player 1 must list each of the players 0..1 exactly once"),
        ([[0, 1], [1, 0, 2]], "must order all 2 players"),
        ([[0, 1]], "at least 2 players"),
        ([[0, 2], [1, 0]], "2 not a player of 0..1"),
        ([[0, "1"], [1, 0]], "player number"),
        ("01", "one order per player"),
    ],
)
def test_invalid_profiles_are_refused_clearly(bad: Any, fragment: str) -> None:
    with pytest.raises(InvalidParameterError, match=fragment):
        PreferenceProfile(bad)


def test_parse_and_text_round_trip() -> None:
    assert PreferenceProfile.parse("1,2,0") == games_profile(1, 2, 0)
    full = PreferenceProfile.parse("0,1,2;1,0,2;2,0,1")
    assert full.orders == ((0, 1, 2), (1, 0, 2), (2, 0, 1))
    assert not full.is_symmetric
    assert PreferenceProfile.parse(full.to_text()) == full
    assert PreferenceProfile.parse("0,1,2;1,2,0;2,0,1") == li_ranking(3)
    with pytest.raises(InvalidParameterError, match="cannot read preference"):
        PreferenceProfile.parse("1;x")
    with pytest.raises(InvalidParameterError, match="is for 2 players, but players=3"):
        PreferenceProfile.parse("1,0", players=3)
    with pytest.raises(InvalidParameterError, match="exactly once"):
        games_profile(0, 0)


# -- [SM] worked examples -------------------------------------------------------------------
def test_sm_section5_example() -> None:
    prof = games_profile(0, 1, 2)
    assert i_position("nim", (2, 2, 2), prof) == 2
    assert i_position("nim", (1, 3), prof) == 1
    assert i_position("nim", (2, 2, 2, 1, 3), prof) == 0
    # the paper's move: to (2,2,1,1,3), where the digit sums mod 3 vanish: a 2-position
    assert i_position("nim", (2, 2, 1, 1, 3), prof) == 2
    assert (2, 2, 1, 1, 3) in multiplayer_moves("nim", (2, 2, 2, 1, 3), preference=prof)
    # i-positions do not depend on who is to move
    for a in range(3):
        assert last_mover("nim", (2, 2, 2, 1, 3), preference=prof, to_move=a) == a
        assert last_mover("nim", (1, 3), preference=prof, to_move=a) == (a + 1) % 3


def test_sm_section3_three_players_from_1_2_the_mover_chooses_the_winner() -> None:
    # From heaps (1,2) the player to move cannot move last, but decides which of the two
    # others does: (1,0) lets N(A) win, (1,1) lets N^2(A) win (and after (0,2) N(A) takes
    # all, under Li's ranking).
    g = game("nim")
    choice = multiplayer_choice(g, (1, 2), players=3)
    assert {w for _, w in choice.options} == {1, 2}
    assert dict(choice.options) == {(0, 2): 1, (1, 0): 1, (1, 1): 2}
    perms = list(itertools.permutations(range(3)))
    for orders in itertools.product(perms, repeat=3):
        prof = PreferenceProfile(orders)
        w = last_mover(g, (1, 2), preference=prof)
        assert w != 0  # the mover cannot win, whatever anyone prefers
        # ... and the one it ranks higher of players 1 and 2 moves last
        assert w == min((1, 2), key=lambda x: prof.rank(0, x))
        # from (0,2) player 1 picks between moving last itself (0,0) and player 2 (0,1)
        after_02 = min((1, 2), key=lambda x: prof.rank(1, x))
        by_option = {(0, 2): after_02, (1, 0): 1, (1, 1): 2}
        best = multiplayer_moves(g, (1, 2), preference=prof)
        assert best == [o for o, v in by_option.items() if v == w]


def test_two_players_games01_is_normal_play_and_games10_is_misere_on_nim() -> None:
    nim = game("nim")
    normal = MultiplayerSolver(nim, games_profile(0, 1))
    misere = MultiplayerSolver(nim, misere_profile())
    s = nimlab.Solver(nim)
    for n in range(1, 5):
        for pos in itertools.product(range(5), repeat=n):
            assert (normal.last_mover(pos) == 1) == s.is_p(pos, method="search")
            assert (misere.last_mover(pos) == 0) == s.is_p(pos, misere=True, method="search")


# -- the search against the definition ------------------------------------------------------
@pytest.mark.parametrize("m", [2, 3, 4])
def test_search_matches_the_definition_for_random_profiles(m: int) -> None:
    rng = random.Random(5 + m)
    perms = list(itertools.permutations(range(m)))
    nim = game("nim")
    wy = game("wythoff")
    profiles = [tuple(rng.choice(perms) for _ in range(m)) for _ in range(6)]
    profiles += [games_profile(*rng.choice(perms)).orders for _ in range(3)]
    for orders in profiles:
        prof = PreferenceProfile(orders)
        s_nim = MultiplayerSolver(nim, prof)
        s_wy = MultiplayerSolver(wy, prof)
        for pos in itertools.product(range(4), repeat=3):
            for a in range(m):
                assert s_nim.last_mover(pos, a) == naive_last_mover(nim, pos, a, orders)
        for pos in itertools.product(range(5), repeat=2):
            for a in range(m):
                assert s_wy.last_mover(pos, a) == naive_last_mover(wy, pos, a, orders)


def test_best_moves_are_all_options_reaching_the_value() -> None:
    prof = PreferenceProfile(((2, 0, 1), (1, 2, 0), (0, 1, 2)))
    g = game("nim")
    for pos in itertools.product(range(4), repeat=3):
        for a in range(3):
            c = multiplayer_choice(g, pos, preference=prof, to_move=a)
            expected_opts = list(dict.fromkeys(g.moves(pos)))
            assert [o for o, _ in c.options] == expected_opts
            for o, w in c.options:
                assert w == naive_last_mover(g, o, (a + 1) % 3, prof.orders)
            if expected_opts:
                top = min((w for _, w in c.options), key=lambda v: prof.rank(a, v))
                assert c.last_mover == top
                assert list(c.best) == [o for o, w in c.options if w == top]
            else:
                assert c.last_mover == (a - 1) % 3 and c.best == ()
            d = c.to_dict()
            assert d["last_mover"] == c.last_mover and d["i"] is None


def test_terminal_position_previous_player_moved_last() -> None:
    for m in range(2, 6):
        for a in range(m):
            assert last_mover("nim", (0, 0), players=m, to_move=a) == (a - 1) % m
        assert i_position("nim", (), players=m) == m - 1


def test_every_catalog_heap_game_plays_with_four_players() -> None:
    # Nim_K (moore) included: m players, a non-symmetric profile, against the definition
    orders = ((3, 0, 1, 2), (0, 1, 2, 3), (1, 3, 2, 0), (2, 1, 0, 3))
    for g, pos in [
        (game("moore", k=2), (2, 1, 2)),
        (game("subtraction", S={1, 2}), (7,)),
        (game("lim"), (1, 2, 2)),
        (game("welter"), (0, 2, 3)),
    ]:
        for a in range(4):
            assert last_mover(g, pos, preference=orders, to_move=a) == naive_last_mover(
                g, g.validate(pos), a, orders
            )


# -- scale, errors ----------------------------------------------------------------------------
def test_long_chain_is_iterative() -> None:
    g = game("subtraction", S={1})
    # 50000 forced single-stone moves (far beyond the recursion limit): player 0 makes
    # moves 1, 4, 7, ..., so player (50000 - 1) mod 3 = 1 makes the last one
    assert last_mover(g, 50_000, players=3) == 1
    assert last_mover(g, 50_000, preference=[[1, 0, 2], [2, 1, 0], [0, 2, 1]]) == 1


def test_budget_and_errors() -> None:
    with pytest.raises(SearchTooLargeError, match="more than 100 positions"):
        last_mover("nim", (9, 9, 9), players=3, max_positions=100)
    with pytest.raises(InvalidPositionError):
        last_mover("nim", (3, -1), players=3)
    with pytest.raises(InvalidParameterError, match=r"to_move must be a player 0\.\.2"):
        last_mover("nim", (1, 2), players=3, to_move=3)
    with pytest.raises(InvalidParameterError, match="not symmetric"):
        i_position("nim", (1, 2), preference=[[0, 1, 2], [1, 0, 2], [2, 0, 1]])
    with pytest.raises(InvalidParameterError, match="players >= 2"):
        last_mover("nim", (1, 2), players=1)
    with pytest.raises(InvalidParameterError, match="is for 2 players"):
        last_mover("nim", (1, 2), players=3, preference=misere_profile())
    with pytest.raises(InvalidParameterError, match="cannot read preference"):
        last_mover("nim", (1, 2), preference=3.5)
    # preferences given as text, k-list, orders or profile are the same
    for pref in ("1,2,0", [1, 2, 0], games_profile(1, 2, 0).orders, games_profile(1, 2, 0)):
        assert last_mover("nim", (2, 3), preference=pref) == last_mover(
            "nim", (2, 3), preference=games_profile(1, 2, 0)
        )
    # default: two players, normal play
    assert last_mover("nim", (1, 2, 3)) == 1


@dataclass(frozen=True)
class _Loopy(HeapRuleset):
    name = "loopy-test"

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        (n,) = position
        yield ((n + 1) % 3,)


def test_loopy_game_is_reported() -> None:
    with pytest.raises(NimlabError, match="loopy"):
        last_mover(_Loopy(), (0,), players=3)
