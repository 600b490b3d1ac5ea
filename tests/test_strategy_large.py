"""Winning moves for heaps of up to 100 decimal digits: legal, and P by the closed form.

Legality is checked by the rules of each game directly (the move sets are far too large
to enumerate); the result of every move is a P-position by the game's own closed form.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab import (
    MoveSetTooLargeError,
    SearchTooLargeError,
    game,
    outcome,
    winning_move,
    winning_moves,
)
from nimlab.formulas.nimmul import nimmul

BIG = st.integers(0, 10**100)
POS = st.integers(1, 10**100)
SET = settings(max_examples=25, deadline=None)


def is_p(g: Any, pos: Any, misere: bool = False) -> bool:
    res = g.closed_misere_is_p(pos) if misere else g.closed_is_p(pos)
    assert res is not None
    return bool(res)


def reduced(before: tuple[int, ...], after: tuple[int, ...]) -> list[int]:
    assert len(before) == len(after)
    assert all(b <= a for a, b in zip(before, after, strict=True))
    return [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]


# A call takes milliseconds in practice; the bound only catches work that grows with the
# heaps (exponential in their digits), so it is generous: a loaded CI machine, or mutmut's
# instrumentation (docs/MUTATION.md), runs the same calls several times slower.
CALL_SECONDS = 10.0


def timed(fn: Any, *args: Any, **kw: Any) -> Any:
    t = time.perf_counter()
    out = fn(*args, **kw)
    assert time.perf_counter() - t < CALL_SECONDS
    return out


@SET
@given(st.lists(BIG, min_size=1, max_size=20), st.booleans())
def test_nim_big(hs: list[int], misere: bool) -> None:
    g = game("nim")
    pos = tuple(hs)
    moves = timed(winning_moves, g, pos, misere=misere)
    assert (not moves) == is_p(g, pos, misere) or (misere and max(pos) == 0)
    for mv in moves:
        assert len(reduced(pos, mv)) == 1
        assert is_p(g, mv, misere)


@SET
@given(st.lists(BIG, min_size=1, max_size=20), st.integers(1, 4), st.booleans())
def test_moore_big(hs: list[int], k: int, misere: bool) -> None:
    g = game("moore", k=k)
    pos = tuple(hs)
    mv = timed(winning_move, g, pos, misere=misere)
    if mv is None:
        assert is_p(g, pos, misere) or max(pos) == 0
        return
    assert 1 <= len(reduced(pos, mv)) <= k
    assert is_p(g, mv, misere)
    some = timed(winning_moves, g, pos, misere=misere, limit=5)
    assert some[0] == mv
    for m in some:
        assert 1 <= len(reduced(pos, m)) <= k and is_p(g, m, misere)


@SET
@given(st.lists(BIG, min_size=1, max_size=8, unique=True))
def test_welter_big(hs: list[int]) -> None:
    g = game("welter")
    pos = tuple(hs)
    moves = timed(winning_moves, g, pos)
    assert (not moves) == is_p(g, pos)
    for mv in moves:
        assert len(reduced(pos, mv)) == 1 and len(set(mv)) == len(mv)
        assert is_p(g, mv)


@SET
@given(st.tuples(BIG, BIG, BIG))
def test_lim_big(pos: tuple[int, int, int]) -> None:
    g = game("lim")
    moves = timed(winning_moves, g, pos)
    assert (not moves) == is_p(g, pos)
    for mv in moves:
        d = [b - a for a, b in zip(pos, mv, strict=True)]
        assert sorted(d)[0] == sorted(d)[1] < 0 < sorted(d)[2] == -sorted(d)[0]
        assert is_p(g, mv)


@SET
@given(st.lists(BIG, min_size=1, max_size=10), st.integers(1, 5))
def test_nimhoff_big(hs: list[int], k: int) -> None:
    g = game("nimhoff", k=k)
    pos = tuple(hs)
    moves = timed(winning_moves, g, pos)
    assert (not moves) == is_p(g, pos)
    for mv in moves:
        ch = reduced(pos, mv)
        assert len(ch) == 1 or (len(ch) == 2 and all(pos[i] - mv[i] == 1 << k for i in ch))
        assert is_p(g, mv)


@SET
@given(st.tuples(BIG, BIG))
def test_delete_nim_big(pos: tuple[int, int]) -> None:
    g = game("delete-nim")
    mv = timed(winning_move, g, pos)
    assert (mv is None) == is_p(g, pos)
    if mv is not None:
        assert sum(mv) + 1 in pos and is_p(g, mv)
        assert timed(winning_moves, g, pos, limit=3)[0] == mv


@SET
@given(st.lists(POS, min_size=2, max_size=3))
def test_single_delete_big(hs: list[int]) -> None:
    """2 and 3 heaps: Sh-T1 and Sh-T3 are proved for every size (4 heaps: Sh-T6 is refuted
    and Sh-T6* is verified only for small heaps, see test_single_delete_4_heaps)."""
    g = game("single-delete")
    pos = tuple(hs)
    mv = timed(winning_move, g, pos)
    assert (mv is None) == is_p(g, pos)
    if mv is not None:
        # one heap removed, another split in two positive parts, the rest kept
        n = len(pos)
        assert len(mv) == n and min(mv) >= 1
        found = False
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                rest = Counter(pos[t] for t in range(n) if t not in (i, j))
                if Counter(mv[: n - 2]) == rest and mv[-1] + mv[-2] == pos[j]:
                    found = True
        assert found
        assert is_p(g, mv)


@SET
@given(st.lists(POS, min_size=2, max_size=5))
def test_abo_delete_big(hs: list[int]) -> None:
    g = game("abo-delete")
    pos = tuple(hs)
    mv = timed(winning_move, g, pos)
    assert (mv is None) == is_p(g, pos)
    if mv is not None:
        assert len(mv) == len(pos) and min(mv) >= 1 and sum(mv) in pos
        assert is_p(g, mv)


@SET
@given(
    st.lists(st.lists(BIG, min_size=1, max_size=5).map(tuple), min_size=1, max_size=6),
    st.integers(1, 3),
)
def test_emperor_big(ranges: list[tuple[int, ...]], k: int) -> None:
    g = game("emperor", k=k)
    pos = g.validate(tuple(ranges))
    mv = timed(winning_move, g, pos)
    assert (mv is None) == is_p(g, pos)
    if mv is None:
        return
    free = 0
    for r0, r1 in zip(pos, mv, strict=True):
        ch = reduced(r0, r1)
        if len(ch) > 1:
            free += 1
    assert free <= k and mv != pos
    assert is_p(g, mv)


@SET
@given(st.tuples(BIG, BIG), st.integers(1, 50))
def test_ryuo_big(pos: tuple[int, int], p: int) -> None:
    g = game("ryuo", p=p)
    moves = timed(winning_moves, g, pos)
    assert (not moves) == is_p(g, pos)
    for mv in moves:
        dx, dy = pos[0] - mv[0], pos[1] - mv[1]
        assert dx >= 0 and dy >= 0 and (dx == 0 or dy == 0 or dx + dy < p)
        assert is_p(g, mv)


@SET
@given(st.tuples(BIG, BIG), st.integers(1, 6), st.integers(1, 6))
def test_restricted_ryuo_big(pos: tuple[int, int], p: int, m: int) -> None:
    g = game("restricted-ryuo", p=p, q=p * m)
    moves = timed(winning_moves, g, pos)
    assert (not moves) == is_p(g, pos)
    for mv in moves:
        dx, dy = pos[0] - mv[0], pos[1] - mv[1]
        one_heap = (dx == 0 and 0 < dy < p * m) or (dy == 0 and 0 < dx < p * m)
        assert dx >= 0 and dy >= 0 and (one_heap or 0 < dx + dy < p)
        assert is_p(g, mv)


@SET
@given(st.tuples(BIG, BIG))
def test_rgames_big(pos: tuple[int, int]) -> None:
    g = game("rgames", g0="subtraction:1,2,3", parts="allbut:8;allbut:4,8")
    moves = timed(winning_moves, g, pos)
    assert (not moves) == is_p(g, pos)
    for mv in moves:
        assert all(b <= a for a, b in zip(pos, mv, strict=True)) and is_p(g, mv)


@SET
@given(st.frozensets(st.tuples(st.integers(1, 2**64), st.integers(1, 2**64)), max_size=5))
def test_turning_turtles_64_bit(heads: frozenset[tuple[int, int]]) -> None:
    g = game("turning-turtles")
    pos = g.validate(heads)
    mv = timed(winning_move, g, pos)
    assert (mv is None) == is_p(g, pos)
    if mv is not None:
        flipped = pos ^ mv
        (a, b) = max(flipped)
        assert (a, b) in pos and all(x <= a and y <= b for x, y in flipped)
        xs = {x for x, _ in flipped}
        ys = {y for _, y in flipped}
        assert len(xs) <= 2 and len(ys) <= 2
        value = 0
        for x, y in mv:
            value ^= nimmul(x, y)
        assert value == 0


def test_too_many_winning_moves_is_reported() -> None:
    g = game("delete-nim")
    pos = (10**100 + 1, 4)
    with pytest.raises(MoveSetTooLargeError, match="limit="):
        winning_moves(g, pos)
    assert len(winning_moves(g, pos, limit=3)) == 3


def test_move_set_too_large_without_construction() -> None:
    g = game("circular", k=4)
    pos = (10**50, 3, 10**40, 7, 11, 10**30)
    t = time.perf_counter()
    with pytest.raises(SearchTooLargeError, match="no construction"):
        winning_moves(g, pos)
    assert time.perf_counter() - t < CALL_SECONDS


@SET
@given(st.lists(st.integers(1, 200), min_size=4, max_size=4))
def test_single_delete_4_heaps(hs: list[int]) -> None:
    from nimlab.formulas.delete import SH_T6_STAR_VERIFIED_BELOW

    g = game("single-delete")
    pos = tuple(h % (SH_T6_STAR_VERIFIED_BELOW - 1) + 1 for h in hs)
    mv = timed(winning_move, g, pos)
    assert (mv is None) == is_p(g, pos)
    if mv is not None:
        assert is_p(g, mv) and g.canonical(mv) in {g.canonical(m) for m in g.moves(pos)}


def test_construction_without_full_list_needs_limit() -> None:
    g = game("single-delete")
    pos = (10**60 + 2, 3 * 2**100, 7)
    with pytest.raises(MoveSetTooLargeError, match="winning_move"):
        winning_moves(g, pos)
    (mv,) = winning_moves(g, pos, limit=1)
    assert mv == winning_move(g, pos)
    assert str(outcome(g, mv)) == "P"
