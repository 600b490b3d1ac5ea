"""[SM] Theorems 3.1, 4.2, 4.3, the §5 example and [N99] Theorem 3.3, exhaustively for m = 2..5.

The statements are written out here independently of ``nimlab.theory.multiplayer`` and
compared with the exhaustive last-mover search; the registry's checks are run too.
"""

from __future__ import annotations

import itertools

import pytest

import nimlab
from nimlab import MultiplayerSolver, check_theorem, game, games_profile, li_ranking, theorem
from nimlab.theory.multiplayer import _check_li, nim_sum_mod

PLAYERS = (2, 3, 4, 5)


def digit_sums(heaps: tuple[int, ...], mod: int) -> list[int]:
    """Binary digit-wise sums mod *mod* ([SM] Def. 3.1 before reading them in base m)."""
    width = max(heaps, default=0).bit_length()
    return [sum((h >> b) & 1 for h in heaps) % mod for b in range(width)]


def positions(max_heaps: int, bound: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for n in range(1, max_heaps + 1):
        out += itertools.combinations_with_replacement(range(bound), n)
    return out


@pytest.mark.parametrize("m", PLAYERS)
def test_sm_theorem_3_1_li_ranking(m: int) -> None:
    # the m-th player (the one before the mover) moves last iff all digit sums are 0 mod m
    s = MultiplayerSolver(game("nim"), li_ranking(m))
    for pos in positions(4, 7):
        assert (s.i_value(pos) == m - 1) == (not any(digit_sums(pos, m))), pos


@pytest.mark.parametrize("m", PLAYERS)
def test_sm_theorem_4_2(m: int) -> None:
    nim = game("nim")
    for i in range(m):
        prof = games_profile(*[(i + j) % m for j in range(m)])  # GAMEs(i,...,m-1,0,...,i-1)
        s = MultiplayerSolver(nim, prof)
        for pos in positions(4, 6):
            claim = not any(digit_sums(pos, m)) if any(h > 1 for h in pos) else sum(pos) % m == i
            assert (s.i_value(pos) == (i - 1) % m) == claim, (prof, pos)


def test_sm_theorem_4_2_with_m_2_is_misere_nim() -> None:
    s = MultiplayerSolver(game("nim"), games_profile(1, 0))
    two = nimlab.Solver(game("nim"))
    for pos in positions(4, 6):
        # a 0-position: the player to move makes the last move, i.e. loses misère Nim
        assert (s.i_value(pos) == 0) == two.is_p(pos, misere=True, method="search")


@pytest.mark.parametrize("m", PLAYERS)
def test_sm_theorem_4_3_exactly_one_last_heap(m: int) -> None:
    nim = game("nim")
    for i in range(m):
        prof = games_profile(*[(i - j) % m for j in range(m)])  # GAMEs(i,i-1,...,0,m-1,...,i+1)
        s = MultiplayerSolver(nim, prof)
        for n in range(3):
            for prefix in itertools.combinations_with_replacement(range(6), n):
                hits = [x for x in range(40) if s.i_value((*prefix, x)) == (i - 1) % m]
                assert len(hits) == 1, (prof, prefix, hits)


def test_sm_example_section_5() -> None:
    s = MultiplayerSolver(game("nim"), games_profile(0, 1, 2))
    assert s.i_value((2, 2, 2)) == 2
    assert s.i_value((1, 3)) == 1
    assert s.i_value((2, 2, 2, 1, 3)) == 0
    assert not any(digit_sums((2, 2, 1, 1, 3), 3))
    # in two-player play, adding a P-position never changes the winner; here it does
    assert s.i_value((2, 2, 2, 1, 3)) != s.i_value((1, 3))


@pytest.mark.parametrize("k", [1, 2, 3])
def test_n99_theorem_3_3_m_player_nim_k(k: int) -> None:
    g = game("moore", k=k)
    for m in PLAYERS:
        s = MultiplayerSolver(g, li_ranking(m))
        mod = m * k - k + 1
        for pos in positions(3, 5) + positions(4, 3)[-15:]:
            assert (s.i_value(pos) == m - 1) == (not any(digit_sums(pos, mod))), (m, k, pos)


def test_registered_theorems_verify() -> None:
    ids = {t.id for t in nimlab.theorems()}
    assert {"SM-T3.1", "SM-T4.2", "SM-T4.3", "SM-E5", "N99-T3.3"} <= ids
    assert "SM-T4.1" not in ids  # GAMES.md §6 gives it no id
    for tid, bound in [
        ("SM-T3.1", 6),
        ("SM-T4.2", 5),
        ("SM-T4.3", 4),
        ("SM-E5", 0),
        ("N99-T3.3", 4),
    ]:
        t = theorem(tid)
        assert t.kind == "custom" and t.custom_check is not None
        r = check_theorem(tid, bound=bound)
        assert r.ok, r.counterexample
        assert r.positions_checked > 0 and r.counterexample is None
        assert r.to_dict()["result"] == "verified"


def test_a_wrong_statement_yields_a_counterexample() -> None:
    # Li's theorem with modulus m+1 instead of m must fail, with the position reported
    r = _check_li("SM-T3.1", 4, [(game("nim"), 3, 4)], 3)
    assert not r.ok and r.counterexample is not None
    ce = r.counterexample
    assert ce.claimed != ce.actual
    s = MultiplayerSolver(game("nim"), li_ranking(3))
    assert (s.i_value(ce.position) == 2) == ce.actual
    assert "3 players" in ce.game


def test_formula_helpers() -> None:
    assert nim_sum_mod((3, 4, 5), 3) == 23  # [N99] Example 2.3: (2,1,2) in base 3
    for hs in itertools.product(range(9), repeat=3):
        assert nim_sum_mod(hs, 2) == hs[0] ^ hs[1] ^ hs[2]  # [SM] Cor. 3.1
    assert nim_sum_mod((8, 9, 10, 11), 4) == 2 * 4 + 2  # GAMES.md: '22' in base 4
