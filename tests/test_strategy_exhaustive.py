"""Strategy functions called directly, on every small position, against the rules.

The public helpers of ``nimlab.catalog.strategies`` (Naito's enumeration, Lim's automaton,
Emperor's construction, Ryuo's inversion) are checked here one by one, P-positions
included, against brute force written from the rules; and ``has_inner_period`` against
its definition. These close gaps that mutation testing found (docs/MUTATION.md).
"""

from __future__ import annotations

import itertools
from functools import cache
from math import lcm
from types import SimpleNamespace

import pytest

from nimlab import InvalidParameterError, NimlabError, game, winning_move
from nimlab.catalog.emperor.formulas import emperor_is_p
from nimlab.catalog.emperor.strategy import emperor_move
from nimlab.catalog.lim.strategy import lim_moves, lim_winning_t
from nimlab.catalog.ryuo.formulas import restricted_ryuo_grundy, rgames_grundy, ryuo_grundy
from nimlab.catalog.ryuo.strategy import (
    restricted_ryuo_moves,
    restricted_ryuo_strategy,
    ryuo_moves,
)
from nimlab.catalog.strategies.nimk import (
    misere_nimk_moves,
    naito_procedure,
    nimk_is_p,
    nimk_moves,
)
from nimlab.formulas.onepile import (
    Periodicity,
    allbut_periodicity,
    has_inner_period,
    subtraction_periodicity,
)


# -- Moore's Nim_K ------------------------------------------------------------------------
def moore_p(heaps: tuple[int, ...], K: int) -> bool:
    """[S19] Theorem 5, written out: every binary digit is set in a multiple of K+1 heaps."""
    return all(sum((h >> j) & 1 for h in heaps) % (K + 1) == 0 for j in range(12))


def nimk_options(heaps: tuple[int, ...], K: int) -> set[tuple[int, ...]]:
    """Every move of Nim_K: lower at most K heaps (at least one stone in total)."""
    out: set[tuple[int, ...]] = set()
    for chosen in itertools.combinations(range(len(heaps)), min(K, len(heaps))):
        for vals in itertools.product(*(range(heaps[i] + 1) for i in chosen)):
            new = list(heaps)
            for i, v in zip(chosen, vals, strict=True):
                new[i] = v
            out.add(tuple(new))
    out.discard(heaps)
    return out


NIMK_CASES = [
    (K, pos)
    for K in (1, 2, 3)
    for n, bound in ((1, 9), (2, 9), (3, 8), (4, 4))
    for pos in itertools.product(range(bound), repeat=n)
]


def test_nimk_moves_are_exactly_the_winning_moves_p_positions_included() -> None:
    p_seen = 0
    for K, pos in NIMK_CASES:
        want = {o for o in nimk_options(pos, K) if moore_p(o, K)}
        got = list(nimk_moves(pos, K))
        assert len(got) == len(set(got)), (pos, K)  # no move listed twice
        assert set(got) == want, (pos, K)
        assert nimk_is_p(pos, K) == moore_p(pos, K), (pos, K)
        first = naito_procedure(pos, K)
        if moore_p(pos, K):
            p_seen += 1
            assert got == [] and first is None, (pos, K)
        else:
            assert first in want, (pos, K)
    assert p_seen > 100


def misere_moore_p(heaps: tuple[int, ...], K: int) -> bool:
    """[N99] Theorem 2.10 written out."""
    if any(h > 1 for h in heaps):
        return moore_p(heaps, K)
    return sum(heaps) % (K + 1) == 1


def test_misere_nimk_moves_are_exactly_the_winning_moves() -> None:
    for K, pos in NIMK_CASES:
        want = {o for o in nimk_options(pos, K) if misere_moore_p(o, K)}
        got = list(misere_nimk_moves(pos, K))
        assert len(got) == len(set(got)), (pos, K)
        assert set(got) == want, (pos, K)


def test_nimk_functions_on_no_heap() -> None:
    """The position with no heap has no move: a P-position, with no winning move."""
    for K in (1, 2, 3):
        assert nimk_is_p((), K) is True
        assert naito_procedure((), K) is None
        assert list(nimk_moves((), K)) == []


def test_misere_moore_move_is_naitos_procedure() -> None:
    """[N99] §2.3 (proof of Theorem 2.10): in misère play the move is Naito's normal-play
    move, unless it leaves only heaps of at most one stone; then one changed heap that it
    emptied takes one stone fewer. The construction's move is that move wherever it
    applies, and always a move of the rules to a P-position (Theorem 2.10 written out)."""
    kept = repaired = 0
    more = [(2, p) for p in itertools.product(range(5), repeat=4)]
    more += [(3, p) for p in itertools.product(range(3), repeat=6)]  # K + 3 heaps
    for K, pos in NIMK_CASES + more:
        c = game("moore", k=K).strategy(pos, True)
        assert c is not None
        one = c.one()
        if misere_moore_p(pos, K) or not any(pos):  # no heap left: won, but no move
            assert one is None, (pos, K)
            continue
        # a move of the rules: at most K heaps lowered, none raised; to a P-position
        lowered = [i for i in range(len(pos)) if one[i] != pos[i]]
        assert 1 <= len(lowered) <= K and all(one[i] < pos[i] for i in lowered), (pos, one)
        assert misere_moore_p(one, K), (pos, K, one)
        if not any(h > 1 for h in pos):
            continue
        normal = naito_procedure(pos, K)
        if normal is None:
            continue
        if any(h > 1 for h in normal):
            kept += 1
            assert one == normal, (pos, K, one, normal)
        elif any(v == 0 and h > 1 for h, v in zip(pos, normal, strict=True)):
            repaired += 1
            diff = [i for i in range(len(pos)) if one[i] != normal[i]]
            assert len(diff) == 1, (pos, K, one, normal)
            i = diff[0]
            assert normal[i] == 0 < pos[i] and one[i] == 1, (pos, K, one, normal)
    assert kept > 500 and repaired > 20, (kept, repaired)


@pytest.mark.parametrize("misere", [False, True])
def test_moore_lists_every_winning_move_of_a_large_position(misere: bool) -> None:
    """Moore's construction enumerates the winning moves (no scan of 2^280 moves): from
    four heaps of 2^70 with K = 2, digit 70 must be cleared in exactly one heap, and its
    lower digits (0 in the other heaps) stay 0, so the 4 moves empty one heap."""
    from nimlab import winning_moves

    h = 2**70
    got = winning_moves(game("moore", k=2), (h, h, h, h), misere=misere, limit=5)
    assert sorted(got) == sorted({(h, h, h, h)[:i] + (0,) + (h, h, h)[i:] for i in range(4)})


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "2"])
def test_nimk_functions_refuse_a_bad_k(bad: object) -> None:
    for fn in (nimk_is_p, naito_procedure):
        with pytest.raises(InvalidParameterError, match="K must be an integer >= 1"):
            fn((1, 2, 3), bad)  # type: ignore[arg-type]
    for gen in (nimk_moves, misere_nimk_moves):
        with pytest.raises(InvalidParameterError, match="K must be an integer >= 1"):
            list(gen((1, 2, 3), bad))  # type: ignore[arg-type]


# -- Lim ----------------------------------------------------------------------------------
def test_lim_winning_t_is_every_winning_t_p_positions_included() -> None:
    p_seen = 0
    for x, y, z in itertools.product(range(20), repeat=3):
        want = [
            t
            for t in range(1, min(x, y) + 1)
            if ((x - t) & (y - t)) | ((x - t) & (z + t)) | ((y - t) & (z + t)) == 0
        ]
        assert lim_winning_t(x, y, z) == want, (x, y, z)
        if (x & y) | (x & z) | (y & z) == 0:  # a P-position (S19-T8): no winning t
            p_seen += 1
            assert want == []
    assert p_seen > 500


def test_lim_moves_are_exactly_the_winning_moves() -> None:
    for pos in itertools.product(range(12), repeat=3):
        want = set()
        for i, j, k in ((0, 1, 2), (0, 2, 1), (1, 2, 0)):
            for t in range(1, min(pos[i], pos[j]) + 1):
                new = list(pos)
                new[i] -= t
                new[j] -= t
                new[k] += t
                a, b, c = new
                if (a & b) | (a & c) | (b & c) == 0:
                    want.add(tuple(new))
        got = lim_moves(pos)
        assert len(got) == len(set(got)) and set(got) == want, pos


# -- Emperor Nim --------------------------------------------------------------------------
def legal_emperor_move(before: tuple[tuple[int, ...], ...], after: object, k: int) -> bool:
    """[S19] Games 9/10: at most k ranges play freely, every other range changes at most
    one heap, heaps only shrink, at least one stone is taken, the ranges keep their heaps."""
    assert isinstance(after, tuple) and len(after) == len(before)
    free = 0
    for r0, r1 in zip(before, after, strict=True):
        if len(r0) != len(r1) or any(b > a or b < 0 for a, b in zip(r0, r1, strict=True)):
            return False
        changed = sum(1 for a, b in zip(r0, r1, strict=True) if a != b)
        free += changed > 1
    return free <= k and after != before


EMPEROR_SHAPES = [(3, 3), (3, 3, 3), (3, 1, 2), (2, 3)]


@pytest.mark.parametrize("shape", EMPEROR_SHAPES)
@pytest.mark.parametrize("k", [1, 2])
def test_every_emperor_move_is_legal_and_wins(shape: tuple[int, ...], k: int) -> None:
    """Every position with ranges of these sizes (3 heaps per range included), heaps < 4
    (< 3 for three ranges of 3): the move is legal, reaches P, and exists iff N."""
    bound = 3 if sum(shape) > 6 else 4
    n_moves = 0
    for flat in itertools.product(range(bound), repeat=sum(shape)):
        it = iter(flat)
        pos = tuple(tuple(next(it) for _ in range(size)) for size in shape)
        mv = emperor_move(pos, k)
        if emperor_is_p(pos, k):
            assert mv is None, pos
            continue
        assert mv is not None, pos
        assert legal_emperor_move(pos, mv, k), (pos, mv)
        assert emperor_is_p(mv, k), (pos, mv)
        n_moves += 1
    assert n_moves > 100


def test_emperor_strategy_through_the_public_api_on_ranges_of_three() -> None:
    for k in (1, 2):
        g = game("emperor", k=k)
        for pos in [((4, 4, 4), (1, 2, 3)), ((4, 4, 4), (4, 4, 4), (7, 1, 1)), ((5, 6, 7),)]:
            mv = winning_move(g, pos)
            assert mv is not None and legal_emperor_move(pos, mv, k), (pos, mv)
            assert emperor_is_p(mv, k)


# -- Ryuo Nim and restricted Ryuo Nim -----------------------------------------------------
def ryuo_options(x: int, y: int, p: int, q: int | None) -> set[tuple[int, int]]:
    """[S18] Definitions 13/14: one heap loses < q (any, for Ryuo), or both lose t < p."""
    out = set()
    for v in range(x):
        if q is None or x - v < q:
            out.add((v, y))
    for v in range(y):
        if q is None or y - v < q:
            out.add((x, v))
    for t in range(1, p):
        for a in range(t + 1):
            if a <= x and t - a <= y:
                out.add((x - a, y - (t - a)))
    return out


@pytest.mark.parametrize(("p", "q"), [(1, None), (2, None), (3, None), (2, 4), (3, 6), (2, 2)])
def test_ryuo_moves_are_exactly_the_winning_moves(p: int, q: int | None) -> None:
    def value(x: int, y: int) -> int:
        return ryuo_grundy(x, y, p) if q is None else restricted_ryuo_grundy(x, y, p, q)

    for x, y in itertools.product(range(14), repeat=2):
        want = {o for o in ryuo_options(x, y, p, q) if value(*o) == 0}
        got = ryuo_moves(x, y, p) if q is None else restricted_ryuo_moves(x, y, p, q)
        assert len(got) == len(set(got)) and set(got) == want, (x, y)


def test_ryuo_with_p_0_is_a_clear_parameter_error() -> None:
    for call in (
        lambda: ryuo_moves(3, 4, 0),
        lambda: restricted_ryuo_moves(3, 4, 0, 3),
        lambda: restricted_ryuo_moves(3, 4, 2, 0),
        lambda: restricted_ryuo_moves(3, 4, 2, 3),  # p must divide q
        lambda: ryuo_grundy(3, 4, 0),
        lambda: restricted_ryuo_grundy(3, 4, 0, 3),
        lambda: rgames_grundy((1, 2), (1, 2), 0),
        lambda: rgames_grundy((1, 2), (1,), 2),
    ):
        with pytest.raises(InvalidParameterError):
            call()
    broken = SimpleNamespace(p=0, q=3)  # a game object that escaped validation
    with pytest.raises(InvalidParameterError, match="p must be an integer >= 1, got 0"):
        restricted_ryuo_strategy(broken, (3, 4), False)  # type: ignore[arg-type]
    with pytest.raises(NimlabError):
        game("restricted-ryuo", p=0, q=3)


# -- inner periods ([S18] Definition 11) --------------------------------------------------
def inner_period_by_definition(per: Periodicity, p: int) -> bool:
    """Definition 11 checked term by term over many periods: pure periodicity, G(k) ≡ k
    (mod p), and G(k+1) = G(k) + 1 inside each block of p."""
    if per.preperiod != 0:
        return False
    span = 3 * lcm(per.period, p) + p
    return all(
        per.grundy(n) % p == n % p and (n % p == p - 1 or per.grundy(n + 1) == per.grundy(n) + 1)
        for n in range(span)
    )


def test_has_inner_period_matches_the_definition() -> None:
    sequences = [subtraction_periodicity(s) for s in _subsets(range(1, 7), 1, 3)]
    sequences += [allbut_periodicity(s) for s in _subsets(range(1, 9), 0, 2)]
    # not purely periodic (preperiods 8, 11, 12): never an inner period
    sequences += [subtraction_periodicity(s) for s in ({2, 4, 7}, {1, 6, 9}, {2, 7, 8})]
    verdicts = set()
    for per in sequences:
        for p in range(1, 11):
            want = inner_period_by_definition(per, p)
            assert has_inner_period(per, p) == want, (per, p)
            verdicts.add((want, per.pure))
    assert verdicts == {(True, True), (False, True), (False, False)}


def _subsets(items: range, lo: int, hi: int) -> list[set[int]]:
    return [set(c) for r in range(lo, hi + 1) for c in itertools.combinations(items, r)]


@pytest.mark.parametrize(
    ("per", "p", "reason"),
    [
        (Periodicity(1, 1, 1, (5, 1)), 1, "not purely periodic"),
        (Periodicity(0, 2, 3, (0, 1)), 2, "saltus 3 is not a multiple of 2"),
        (Periodicity(0, 2, 2, (1, 0)), 2, "G(0) = 1 is not 0 mod 2"),
        (Periodicity(0, 4, 4, (0, 3, 2, 1)), 2, "G(1) = 3 is not G(0) + 1"),
        (Periodicity(0, 3, 0, (0, 1, 2)), 2, "G(3) = 0 is not 3 mod 2"),
        (Periodicity(0, 4, 0, (0, 1, 0, 1)), 4, "G(2) = 0 is not 2 mod 4"),
    ],
)
def test_has_inner_period_negative_cases(per: Periodicity, p: int, reason: str) -> None:
    assert not has_inner_period(per, p), reason
    assert not inner_period_by_definition(per, p), reason


@pytest.mark.parametrize(
    ("per", "p"),
    [
        (Periodicity(0, 1, 1, (0,)), 5),  # Nim: every p
        (Periodicity(0, 2, 2, (0, 1)), 2),
        (Periodicity(0, 6, 3, (0, 1, 2, 0, 1, 2)), 3),  # the saltus 3 over 6 is a multiple of 3
    ],
)
def test_has_inner_period_positive_cases(per: Periodicity, p: int) -> None:
    assert has_inner_period(per, p)
    assert inner_period_by_definition(per, p)


def test_has_inner_period_refuses_p_below_1() -> None:
    with pytest.raises(ValueError, match="positive integer"):
        has_inner_period(Periodicity(0, 1, 1, (0,)), 0)


@pytest.mark.parametrize(
    ("g0", "parts", "bound"),
    [
        ("subtraction:1,2,3", "subtraction:1,2,3;allbut:4,8", 14),  # a Subtraction part
        # Subtraction({1,2,3,5}) is n mod 4 too: taking all of a heap of 5 is no sum move
        ("subtraction:1,2,3", "subtraction:1,2,3,5;allbut:8", 14),
        ("subtraction:1,2,3", "allbut:8;allbut:4,8", 18),
        ("subtraction:1", "nim;allbut:2;nim", 6),
    ],
)
def test_rgames_moves_are_exactly_the_winning_moves(g0: str, parts: str, bound: int) -> None:
    from nimlab.catalog.ryuo.strategy import rgames_moves

    g = game("rgames", g0=g0, parts=parts)
    n = len(parts.split(";"))
    for pos in itertools.product(range(bound), repeat=n):
        want = {o for o in set(g.moves(pos)) if g.closed_is_p(o)}
        got = rgames_moves(g, pos)
        assert got is not None and len(got) == len(set(got)) and set(got) == want, pos


@pytest.mark.parametrize("bad", [0, -2, True, 1.5, "3"])
def test_ryuo_parameters_must_be_integers_at_least_1(bad: object) -> None:
    msg = f"p must be an integer >= 1, got {bad!r}"
    for call in (
        lambda: ryuo_moves(3, 4, bad),  # type: ignore[arg-type]
        lambda: ryuo_grundy(3, 4, bad),  # type: ignore[arg-type]
        lambda: restricted_ryuo_moves(3, 4, bad, 6),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidParameterError) as err:
            call()
        assert str(err.value) == msg
    with pytest.raises(InvalidParameterError) as err:
        restricted_ryuo_moves(3, 4, 2, bad)  # type: ignore[arg-type]
    assert str(err.value) == f"q must be an integer >= 1, got {bad!r}"
    with pytest.raises(InvalidParameterError) as err:
        restricted_ryuo_grundy(3, 4, 2, bad)  # type: ignore[arg-type]
    assert str(err.value) == f"S18-T9 needs p | q, got p=2, q={bad!r}"
    broken = SimpleNamespace(p=2, q=bad)
    with pytest.raises(InvalidParameterError) as err:
        restricted_ryuo_strategy(broken, (3, 4), False)  # type: ignore[arg-type]
    assert str(err.value) == f"q must be an integer >= 1, got {bad!r}"


def test_ryuo_messages_name_the_broken_condition() -> None:
    with pytest.raises(InvalidParameterError) as err:
        restricted_ryuo_moves(3, 4, 2, 3)
    assert str(err.value) == "S18-T9 needs p | q, got p=2, q=3"
    with pytest.raises(InvalidParameterError) as err:
        rgames_grundy((1, 2), (1,), 2)
    assert str(err.value) == "one Grundy value per heap is needed, got 1 for 2 heaps"


def test_lemma_3_reduction_keeps_the_xor_for_every_even_amount() -> None:
    """[S19] Lemma 3 (``reduce_keeping_xor``), on every multiset of up to 4 heaps below 16
    with XOR 0 and every total reachable by an even reduction."""
    from nimlab.catalog.emperor.strategy import reduce_keeping_xor

    checked = 0
    for n in (2, 3, 4):
        for heaps in itertools.combinations_with_replacement(range(16), n):
            x = 0
            for h in heaps:
                x ^= h
            if x:
                continue
            total = sum(heaps)
            for target in range(total % 2, total + 1, 2):
                out = reduce_keeping_xor(list(heaps), target)
                assert len(out) == n and sum(out) == target, (heaps, target, out)
                assert all(0 <= b <= a for a, b in zip(heaps, out, strict=True)), (heaps, out)
                y = 0
                for h in out:
                    y ^= h
                assert y == 0, (heaps, target, out)
                checked += 1
            with pytest.raises(ValueError, match=r"^the total can only go down by an even amount$"):
                reduce_keeping_xor(list(heaps), total + 2)
            if total:
                with pytest.raises(ValueError, match=r"^the total can only go down by an even"):
                    reduce_keeping_xor(list(heaps), total - 1)
            with pytest.raises(ValueError, match=r"^cannot take more stones than the range holds$"):
                reduce_keeping_xor(list(heaps), total % 2 - 2)
    assert checked > 5000


def _check_lemma_3(heaps: list[int], target: int) -> None:
    from nimlab.catalog.emperor.strategy import reduce_keeping_xor

    out = reduce_keeping_xor(list(heaps), target)
    assert len(out) == len(heaps) and sum(out) == target, (heaps, target, out)
    assert all(0 <= b <= a for a, b in zip(heaps, out, strict=True)), (heaps, target, out)
    y = 0
    for h in out:
        y ^= h
    assert y == 0, (heaps, target, out)


def test_lemma_3_reduction_on_many_heaps_and_on_none() -> None:
    """Lemma 3 with no heap, and with up to 16 heaps (several heaps share the lowest
    binary digit, so whole phases and the partial step run on more than one pair)."""
    import random

    _check_lemma_3([], 0)
    rng = random.Random(20261126)
    for n in range(2, 17, 2):
        for v in range(1, 9):
            for target in range(0, n * v + 1, 2):
                _check_lemma_3([v] * n, target)
    for _ in range(400):
        heaps = [rng.randrange(64) for _ in range(rng.randrange(1, 16))]
        x = 0
        for h in heaps:
            x ^= h
        heaps.append(x)
        total = sum(heaps)
        for target in range(total % 2, total + 1, 2):
            _check_lemma_3(heaps, target)


# -- 2^k-balanced Nimhoff ---------------------------------------------------------------
def nimhoff_grundy_by_search(k: int, bound: int, n: int) -> dict[tuple[int, ...], int]:
    """Grundy values of every sorted position of n heaps below *bound*, by the mex over
    the moves of the rules: lower one heap, or take 2^k from each of two heaps."""
    from functools import cache

    s = 1 << k

    @cache
    def g(pos: tuple[int, ...]) -> int:
        seen = set()
        for o in nimhoff_options(pos, s):
            seen.add(g(tuple(sorted(o))))
        m = 0
        while m in seen:
            m += 1
        return m

    return {p: g(p) for p in itertools.combinations_with_replacement(range(bound), n)}


def nimhoff_options(pos: tuple[int, ...], s: int) -> set[tuple[int, ...]]:
    out = set()
    for i, h in enumerate(pos):
        for v in range(h):
            out.add(pos[:i] + (v,) + pos[i + 1 :])
    for i, j in itertools.combinations(range(len(pos)), 2):
        if pos[i] >= s and pos[j] >= s:
            new = list(pos)
            new[i] -= s
            new[j] -= s
            out.add(tuple(new))
    return out


@pytest.mark.parametrize(("k", "bound", "n"), [(1, 8, 3), (2, 8, 4), (1, 4, 6), (1, 4, 7)])
def test_nimhoff_value_and_moves_match_search(k: int, bound: int, n: int) -> None:
    """``nimhoff_value`` is the Grundy value, and ``nimhoff_moves`` the set of moves to a
    P-position, on every position of n heaps below *bound* in every order (up to 7 heaps
    carrying digit k, where the bit-0 correction C(c, 2) mod 2 cycles with period 4)."""
    from nimlab.catalog.nimhoff.strategy import nimhoff_moves, nimhoff_value

    values = nimhoff_grundy_by_search(k, bound, n)
    for sorted_pos, gv in values.items():
        for pos in set(itertools.permutations(sorted_pos)) if n <= 4 else {sorted_pos}:
            assert nimhoff_value(pos, k) == gv, (pos, k)
            want = {o for o in nimhoff_options(pos, 1 << k) if values[tuple(sorted(o))] == 0}
            got = nimhoff_moves(pos, k)
            assert len(got) == len(set(got)) and set(got) == want, (pos, k, got, want)


# -- 2-D Turning Turtles: factoring in the nim field ----------------------------------------
@cache
def nim_table_256() -> tuple[list[list[int]], list[dict[int, int]]]:
    """The nim products u ⊗ v below 256, and quotient[u][g] = v with u ⊗ v = g."""
    from nimlab.formulas.nimmul import nimmul

    table = [[nimmul(u, v) for v in range(256)] for u in range(256)]
    quotient: list[dict[int, int]] = [{} for _ in range(256)]
    for u in range(1, 256):
        for v in range(256):
            quotient[u][table[u][v]] = v
    return table, quotient


def test_factor_below_finds_a_factorisation_exactly_when_one_exists() -> None:
    """Every (a, b, g) below 256 on a sample (heads of 8 bits, so the search splits both
    factors into halves and solves the quadratic): ``factor_below`` returns u, v with
    u ⊗ v = g, a ⊕ u < a, b ⊕ v < b whenever such a pair exists (found by trying every u
    against the nim product table), and None otherwise."""
    import random

    from nimlab.catalog.turtles.strategy import factor_below, turtles_move

    table, quotient = nim_table_256()

    def below(u: int, a: int) -> bool:  # the highest binary digit of u is set in a
        return u != 0 and (a >> (u.bit_length() - 1)) & 1 == 1

    rng = random.Random(5)
    cases = [
        (rng.randrange(1, 256), rng.randrange(1, 256), rng.randrange(1, 256)) for _ in range(1500)
    ]
    cases += [
        (a, b, g) for a, b, g in itertools.product((1, 2, 17, 200), (3, 16, 255), (1, 7, 130))
    ]
    found = 0
    for a, b, g in cases:
        exists = any(below(u, a) and below(quotient[u][g], b) for u in range(1, 256))
        r = factor_below(a, b, g)
        assert (r is not None) == exists, (a, b, g)
        if r is not None:
            u, v = r
            assert table[u][v] == g and below(u, a) and below(v, b), (a, b, g, r)
            found += 1
    assert found > 1000
    assert factor_below(0, 5, 3) is None and factor_below(5, 0, 3) is None
    # u, v below 256 have a product below 256 (a subfield): no factorisation of a larger g
    for _ in range(200):
        a, b, g = rng.randrange(1, 256), rng.randrange(1, 256), rng.randrange(256, 1 << 16)
        assert factor_below(a, b, g) is None, (a, b, g)
    assert factor_below(5, 6, 0) is None
    # a winning move from two heads of 8 bits reaches a position of nim-value 0
    for _ in range(200):
        heads = frozenset({(rng.randrange(16, 256), rng.randrange(16, 256)) for _ in range(2)})
        after = turtles_move(heads)
        value = 0
        for hd in heads:
            value ^= table[hd[0]][hd[1]]
        if value == 0:
            assert after is None
            continue
        assert after is not None
        new_value = 0
        for hd in after:
            new_value ^= table[hd[0]][hd[1]]
        assert new_value == 0, (heads, after)


# Triples (a, b, g) with coordinates below 2^16 where the first, fast search of factor_below
# (64 pairs of top halves sharing the top digits of a1 and b1) found no factorisation
# although g ⊕ a⊗b < a⊗b, so that one exists; found by a random search over 1.5 million
# triples, and each checked below by trying every v whose top digit is set in b.
FAST_SEARCH_MISSES = [
    (38760, 258, 5613),
    (58939, 256, 61167),
    (6024, 264, 7001),
    (39261, 256, 38369),
    (4814, 268, 7079),
    (16788, 258, 19173),
    (19462, 256, 18405),
    (17025, 256, 19622),
    (7469, 258, 6116),
    (17477, 256, 13),
    (13979, 260, 15018),
]


def every_below(a: int) -> list[int]:
    """Every u whose highest binary digit is set in a (a of them)."""
    return [u for u in range(1, 2 * a) if (a >> (u.bit_length() - 1)) & 1]


def nim_mul16(x: int, y: int) -> int:
    """x ⊗ y below 2^16 from the products below 256: halves of 8 bits, F ⊗ F = F ⊕ 128."""
    table, _ = nim_table_256()
    x1, x0, y1, y0 = x >> 8, x & 255, y >> 8, y & 255
    hh = table[x1][y1]
    return ((hh ^ table[x1][y0] ^ table[x0][y1]) << 8) | (table[hh][128] ^ table[x0][y0])


@cache
def nim_inv16(v: int) -> int:
    """v^(2^16 − 2), the inverse of v ≠ 0 in the field of 2^16 nimbers."""
    out, sq, e = 1, v, (1 << 16) - 2
    while e:
        if e & 1:
            out = nim_mul16(out, sq)
        sq = nim_mul16(sq, sq)
        e >>= 1
    return out


def factorisations_below(a: int, b: int, g: int) -> list[tuple[int, int]]:
    """Every (u, v) with u ⊗ v = g < 2^16 and the top digits of u, v set in a, b (every v
    tried, u = g ⊗ v⁻¹; nim arithmetic of its own, not the module's)."""
    out = []
    for v in every_below(b):
        u = nim_mul16(g, nim_inv16(v))
        if u and (a >> (u.bit_length() - 1)) & 1:
            out.append((u, v))
    return out


def turtles_value(heads: frozenset[tuple[int, int]]) -> int:
    from nimlab.formulas.nimmul import nimmul

    g = 0
    for a, b in heads:
        g ^= nimmul(a, b)
    return g


def is_turtles_move(before: frozenset[tuple[int, int]], after: frozenset[tuple[int, int]]) -> bool:
    """The rules: turn the coins {(a,b), (a',b), (a,b'), (a',b')} of a head (a,b), a'≤a, b'≤b."""
    flipped = before ^ after
    if not flipped:
        return False
    a, b = max(x for x, _ in flipped), max(y for _, y in flipped)
    a2, b2 = min(x for x, _ in flipped), min(y for _, y in flipped)
    return (
        (a, b) in before and a2 >= 1 and b2 >= 1 and flipped == {(a, b), (a2, b), (a, b2), (a2, b2)}
    )


def test_factor_below_is_complete_below_2_16() -> None:
    """Where a factor of 16 bits has a small top half (b1 = 1, 2: few pairs of top halves),
    ``factor_below`` finds a factorisation exactly when one exists (every v tried), on the
    triples the fast search alone missed and on 250 random ones."""
    import random

    from nimlab.catalog.turtles.strategy import factor_below
    from nimlab.formulas.nimmul import nimmul

    rng = random.Random(11)
    cases = list(FAST_SEARCH_MISSES)
    cases += [
        (rng.randrange(1, 1 << 16), rng.randrange(256, 768), rng.randrange(1, 1 << 16))
        for _ in range(250)
    ]
    found = 0
    for a, b, g in cases:
        exists = factorisations_below(a, b, g)
        r = factor_below(a, b, g)
        assert (r is not None) == bool(exists), (a, b, g, r)
        if r is not None:
            u, v = r
            assert nimmul(u, v) == g and (a >> (u.bit_length() - 1)) & 1, (a, b, g, r)
            assert (b >> (v.bit_length() - 1)) & 1, (a, b, g, r)
            found += 1
    assert found > 100
    for a, b, g in FAST_SEARCH_MISSES:  # each is a winning move of its head
        assert g ^ nimmul(a, b) < nimmul(a, b)


def test_turtles_move_where_the_fast_search_missed() -> None:
    """{(17477, 256), (260, 1)} has nim-value 13: an N-position. Its winning move needs a
    factorisation of 13 below (17477, 256), which the fast search missed (the move was
    None: the position was called P). Both heads of every miss with a second head of
    value g ⊕ a⊗b get a legal move to nim-value 0, by ``winning_move`` too."""
    from nimlab import winning_move
    from nimlab.catalog.turtles.strategy import turtles_move

    pos = frozenset({(17477, 256), (260, 1)})
    assert turtles_value(pos) == 13
    for mv in (turtles_move(pos), winning_move("turning-turtles", pos)):
        assert mv is not None and is_turtles_move(pos, mv) and turtles_value(mv) == 0, mv
    for a, b, g in FAST_SEARCH_MISSES:
        other = g ^ turtles_value(frozenset({(a, b)}))
        heads = frozenset({(a, b), (other, 1)})
        assert turtles_value(heads) == g
        mv = turtles_move(heads)
        assert mv is not None and is_turtles_move(heads, mv) and turtles_value(mv) == 0


def test_turtles_move_tries_the_next_head(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no pair of top halves tried (PAIR_BUDGET = 0), the head tried first in
    {(17477, 256), (780, 2)} (nim-value 13) has no factorisation found (its only ones have
    both top halves), so the move comes from the second head; where no head gives one,
    the strategy raises instead of calling the N-position P."""
    from nimlab.catalog.turtles import strategy as turtles

    pos = frozenset({(17477, 256), (780, 2)})
    assert turtles_value(pos) == 13
    assert all(u >= 256 and v >= 256 for u, v in factorisations_below(17477, 256, 13))
    monkeypatch.setattr(turtles, "PAIR_BUDGET", 0)
    assert turtles.factor_below(17477, 256, 13) is None
    mv = turtles.turtles_move(pos)
    assert mv is not None and is_turtles_move(pos, mv) and turtles_value(mv) == 0
    assert (17477, 256) in mv  # the first head was left alone
    with pytest.raises(NimlabError, match="found no winning move"):
        turtles.turtles_move(frozenset({(17477, 256), (260, 1)}))


# -- ABO-delete Nim: the move of Theorem 2's proof on heaps beyond a float's precision ------
@pytest.mark.parametrize("n", [3, 4])
def test_abo_move_on_a_heap_beyond_2_53(n: int) -> None:
    """[Sh] Theorem 2: a P-position has every heap ≡ 1..n−1 (mod n(n−1)). The move deletes
    all heaps but one and splits that one into n such parts: exactly, in integers, for a
    heap of 70 digits (a float quotient would lose the low digits)."""
    from nimlab.catalog.delete.strategy import abo_move

    m = n * (n - 1)
    z = m * (10**70 + 1) + n  # residue n: splittable
    pos = (1,) * (n - 1) + (z,)
    mv = abo_move(pos)
    assert mv is not None and len(mv) == n
    assert all(type(p) is int for p in mv) and sum(mv) == z, mv
    assert all(1 <= p % m <= n - 1 for p in mv), mv
