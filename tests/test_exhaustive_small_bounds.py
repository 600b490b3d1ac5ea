"""Closed forms against exhaustive search written here, at bounds where errors show up.

Each search below is a few lines that follow the rules of the game straight from the
papers and share no code with nimlab (no ruleset, no solver, no formula): a position is P
iff no option is P. The bounds were chosen so that a wrong criterion, or a one-character
change of a right one (mutation testing, docs/MUTATION.md), disagrees somewhere.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.catalog.circular.formulas import cn64_is_p
from nimlab.catalog.delete.strategy import sd4_is_p, single_delete4_move
from nimlab.formulas.delete import single_delete4_is_p


# -- CN(6, 4), [S19] Theorem 9 -------------------------------------------------------------
def cn64_p_table(bound: int) -> np.ndarray:
    """P marks of CN(6, 4) for every circle of six heaps ``< bound``, by search.

    Positions are decided by increasing total. A P-position makes N every position that
    moves to it: those are equal to it outside one window of 4 consecutive heaps and
    at least as large inside (a numpy slice of the box).
    """
    shape = (bound,) * 6
    n_mark = np.zeros(shape, dtype=bool)
    p_mark = np.zeros(shape, dtype=bool)
    grid = np.indices(shape).reshape(6, -1)
    order = np.argsort(grid.sum(axis=0), kind="stable")
    for flat in order:
        pos = tuple(int(v) for v in grid[:, flat])
        if n_mark[pos]:
            continue
        p_mark[pos] = True
        for start in range(6):
            window = {(start + i) % 6 for i in range(4)}
            idx = tuple(slice(pos[i], None) if i in window else pos[i] for i in range(6))
            n_mark[idx] = True
    return p_mark


@pytest.fixture(scope="module")
def cn64_search() -> np.ndarray:
    return cn64_p_table(8)


def test_cn64_search_itself_on_hand_checked_positions(cn64_search: np.ndarray) -> None:
    assert cn64_search[(0,) * 6]
    assert not cn64_search[(0, 0, 0, 0, 0, 1)]  # take the stone
    assert not cn64_search[(1, 0, 0, 1, 0, 0)]  # both stones are in one window
    assert not cn64_search[(1, 0, 0, 0, 1, 1)]  # a window holds all three
    assert cn64_search[(1, 1, 0, 1, 1, 0)]  # [S19]: 1+1 = 1+1, 1+0 = 1+0, 1⊕0⊕1 = 0
    assert cn64_search[(1, 2, 3, 1, 2, 3)]


def test_s19_theorem_9_cn64_matches_search_below_8(cn64_search: np.ndarray) -> None:
    """Every circle of six heaps below 8 (262,144 positions), not only up to heap 3."""
    bad = [
        pos
        for pos in itertools.product(range(8), repeat=6)
        if cn64_is_p(pos) != bool(cn64_search[pos])
    ]
    assert bad == []
    # the criterion is not trivially satisfied: P-positions are few, and many have
    # a unique minimum that is not the first heap (the labelling step matters)
    p_positions = np.argwhere(cn64_search)
    assert len(p_positions) == 300
    assert sum(1 for p in p_positions if int(p[0]) != int(p.min())) > 100


# -- Single-delete Nim on 4 heaps, [Sh] Theorem 6 ------------------------------------------
def single_delete4_p_set(bound: int) -> set[tuple[int, ...]]:
    """P-positions (sorted) of single-delete Nim with 4 positive heaps ``< bound``, by search.

    A move deletes one heap and splits another heap into two positive heaps.
    """
    p_set: set[tuple[int, ...]] = set()
    positions = sorted(
        itertools.combinations_with_replacement(range(1, bound), 4), key=lambda t: (sum(t), t)
    )
    for pos in positions:
        if not any(opt in p_set for opt in _sd4_options(pos)):
            p_set.add(pos)
    return p_set


def _sd4_options(pos: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    for i, j in itertools.permutations(range(4), 2):
        rest = [pos[t] for t in range(4) if t not in (i, j)]
        h = pos[j]
        for u in range(1, h // 2 + 1):
            yield tuple(sorted((*rest, u, h - u)))


SD4_BOUND = 25


@pytest.fixture(scope="module")
def sd4_search() -> set[tuple[int, ...]]:
    return single_delete4_p_set(SD4_BOUND)


def test_single_delete4_search_itself(sd4_search: set[tuple[int, ...]]) -> None:
    assert (1, 1, 1, 1) in sd4_search  # no move: every heap is 1
    assert (1, 1, 1, 2) not in sd4_search  # split the 2, delete a 1
    # case (3) of Theorem 6; a mutant of sd4_is_p that called it N survived 40 random tests
    assert (2, 3, 4, 4) in sd4_search
    assert len(sd4_search) == 2187


def test_both_sh_t6_implementations_match_search_below_25(sd4_search: set[tuple[int, ...]]) -> None:
    """All 12,650 sorted positions with heaps 1..24 (⟨2,3,4,4⟩ among them).

    Below heap 40 the printed Theorem 6 and its correction Sh-T6* agree (the smallest
    counterexample to the printed statement is ⟨12,14,15,40⟩), so this holds for both.
    """
    for pos in itertools.combinations_with_replacement(range(1, SD4_BOUND), 4):
        want = pos in sd4_search
        assert single_delete4_is_p(*pos) == want, pos
        assert sd4_is_p(pos) == want, pos
        # the order of the heaps never matters
        assert sd4_is_p(pos[::-1]) == want, pos
        assert single_delete4_is_p(*pos[1:], pos[0]) == want, pos


def test_all_five_cases_of_theorem_6_occur_below_the_search_bound(
    sd4_search: set[tuple[int, ...]],
) -> None:
    """The search range exercises every case of the theorem, with P and N positions."""

    def v2(z: int) -> int:
        return (z & -z).bit_length() - 1

    seen: dict[str, set[bool]] = {}
    for pos in itertools.combinations_with_replacement(range(1, SD4_BOUND), 4):
        a, b, c, d = sorted(v2(h) for h in pos)
        if a == b == c == d:
            case = "1"
        elif a < b == c == d:
            case = "2"
        elif a < b < c == d:
            case = "3"
        elif a < b < c < d:
            case = "4/5"
        else:
            case = "other"
        seen.setdefault(case, set()).add(pos in sd4_search)
    assert seen == {
        "1": {True},
        "2": {True, False},
        "3": {True, False},
        "4/5": {True, False},
        "other": {False},
    }


def test_single_delete4_move_reaches_a_p_position_below_25(
    sd4_search: set[tuple[int, ...]],
) -> None:
    """The strategy's move is legal and wins, at every N-position of the search range (in
    increasing and decreasing order of the heaps), and it is what the procedure says: a
    split h → (h − 2^k, 2^k) of a heap h, written after the two heaps kept."""
    for pos in itertools.combinations_with_replacement(range(1, SD4_BOUND), 4):
        for shown in (pos, pos[::-1]):
            mv = single_delete4_move(shown)
            if pos in sd4_search:
                assert mv is None, pos
                continue
            assert mv is not None and len(mv) == 4, pos
            assert tuple(sorted(mv)) in sd4_search, (pos, mv)
            # a move: the heaps kept, then the two parts of the heap split; one heap deleted
            left = list(shown)
            for h in (*mv[:2], mv[2] + mv[3]):
                assert h in left, (shown, mv)
                left.remove(h)
            lo, hi = mv[2], mv[3]
            assert 1 <= lo <= hi and (lo & (lo - 1) == 0 or hi & (hi - 1) == 0), (shown, mv)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 2**40), min_size=4, max_size=4))
def test_the_two_sh_t6_implementations_agree_on_large_heaps(heaps: list[int]) -> None:
    """``formulas.delete.single_delete4_is_p`` and the bit-mask ``sd4_is_p`` were written
    independently from the same statement; they must agree everywhere."""
    assert single_delete4_is_p(*heaps) == sd4_is_p(tuple(heaps))


def test_the_two_sh_t6_implementations_agree_on_case_5_positions() -> None:
    """Case (5) (four valuations, top digits 1,1,1) is where the implementations differ
    most in form: every such position with heaps below 128."""

    def v2(z: int) -> int:
        return (z & -z).bit_length() - 1

    by_v: dict[int, list[int]] = {}
    for h in range(1, 128):
        by_v.setdefault(v2(h), []).append(h)
    count = 0
    for a, b, c, d in itertools.combinations(sorted(by_v), 4):
        for w, x, y, z in itertools.product(by_v[a], by_v[b], by_v[c], by_v[d]):
            if (w >> d) & (x >> d) & (y >> d) & 1:
                count += 1
                assert single_delete4_is_p(w, x, y, z) == sd4_is_p((z, y, x, w)), (w, x, y, z)
    assert count > 1000


def test_printed_theorem_6_as_an_implementation_of_its_five_cases(
    sd4_search: set[tuple[int, ...]],
) -> None:
    """[Sh] Theorem 6 as printed (registered as refuted) is tested as what it is: it
    agrees with search below heap 25, calls the paper's worked examples P, is refuted at
    ⟨12,14,15,40⟩, and differs from Sh-T6* only in case (5), never calling an N-position P."""
    from nimlab.theory.sh import _sh_t6_printed

    for pos in itertools.combinations_with_replacement(range(1, SD4_BOUND), 4):
        assert _sh_t6_printed(*pos) == (pos in sd4_search), pos
    for example in [
        (1440, 864, 672, 1120),
        (294, 208, 304, 432),
        (669, 468, 800, 288),
        (11133, 12716, 7136, 13312),
        (45053, 62932, 32576, 64512),
    ]:
        assert _sh_t6_printed(*example)
    assert not _sh_t6_printed(12, 14, 15, 40) and single_delete4_is_p(12, 14, 15, 40)

    def v2(z: int) -> int:
        return (z & -z).bit_length() - 1

    differ = 0
    for pos in itertools.combinations_with_replacement(range(1, 64), 4):
        if len({v2(h) for h in pos}) < 4:
            continue
        printed, star = _sh_t6_printed(*pos), single_delete4_is_p(*pos)
        if printed != star:
            differ += 1
            assert star and not printed, pos
    assert differ > 0
