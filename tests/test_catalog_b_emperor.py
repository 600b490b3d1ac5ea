"""Emperor Nim and k-Emperor Nim ([S19] §3): rules, positions, criteria against search."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab import InvalidParameterError, InvalidPositionError, Outcome, game, moves, outcome
from nimlab.catalog.emperor.formulas import emperor_is_p
from nimlab.cli import main
from nimlab.solvers.search import Solver
from nimlab.theory.s19b import emperor_positions

EMPEROR = game("emperor")
SOLVERS = {k: Solver(game("emperor", k=k)) for k in (1, 2, 3)}


def canon(k: int, positions: object) -> set[object]:
    g = game("emperor", k=k)
    return {g.canonical(p) for p in positions}  # type: ignore[attr-defined]


def reachable_by_definition(pos: tuple[tuple[int, ...], ...], k: int) -> set[object]:
    """Options straight from [S19] Games 9 and 10: choose at most k ranges to play freely,
    take at most one heap's stones in each other range, at least one stone in total."""
    out: set[object] = set()
    n = len(pos)
    for free in itertools.chain.from_iterable(
        itertools.combinations(range(n), j) for j in range(1, min(k, n) + 1)
    ):
        per_range = []
        for i, r in enumerate(pos):
            if i in free:
                per_range.append(list(itertools.product(*(range(h + 1) for h in r))))
            else:
                opts = [r] + [r[:j] + (v,) + r[j + 1 :] for j, h in enumerate(r) for v in range(h)]
                per_range.append(opts)
        for combo in itertools.product(*per_range):
            if combo != pos:
                out.add(tuple(sorted(tuple(sorted(r)) for r in combo)))
    return out


def test_moves_follow_the_definition() -> None:
    for k in (1, 2, 3):
        for pos in (((1, 1), (1,)), ((1, 2), (2, 1), (1,)), ((2, 1, 1), (1, 1)), ((0, 2), (3,))):
            assert canon(k, moves(game("emperor", k=k), pos)) == reachable_by_definition(pos, k)


def test_one_move_example() -> None:
    # ((1,1),(1,)): empty the pair freely and keep or take the single heap, and so on.
    assert canon(1, moves(EMPEROR, ((1, 1), (1,)))) == {
        ((0, 1), (1,)),
        ((0, 0), (1,)),
        ((0,), (1, 1)),
        ((0,), (0, 1)),
        ((0,), (0, 0)),
    }


def test_k_emperor_plays_more_ranges_freely() -> None:
    pos = ((1, 1), (1, 1))
    empty = ((0, 0), (0, 0))
    assert empty not in canon(1, moves(game("emperor", k=1), pos))
    assert empty in canon(2, moves(game("emperor", k=2), pos))


def test_positions_canonical_parse_format() -> None:
    assert EMPEROR.validate([[2, 1], 4, (3, 3)]) == ((2, 1), (4,), (3, 3))
    assert EMPEROR.canonical(((2, 1), (4,), (3, 3))) == ((1, 2), (3, 3), (4,))
    assert EMPEROR.parse_position(["1,2", "3,3", "4"]) == ((1, 2), (3, 3), (4,))
    assert EMPEROR.format_position(((1, 2), (3, 3), (4,))) == "1,2 3,3 4"
    for tokens in ([",", "5"], ["1,,2"], [",1"], [",,,,"]):
        with pytest.raises(InvalidPositionError, match="empty"):
            EMPEROR.parse_position(tokens)
    with pytest.raises(InvalidPositionError, match="range 1 is empty"):
        EMPEROR.validate([(), (5,)])


def test_cli_reads_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["outcome", "emperor", "1,1", "2,2", "3,3"]) == 0
    assert capsys.readouterr().out.strip() == "P"
    assert main(["outcome", "emperor", "-p", "k=2", "1,1", "1,1", "1,1", "--method", "search"]) == 0
    assert capsys.readouterr().out.strip() == "P"
    assert main(["outcome", "emperor", "1,1", "2,-2"]) == 2
    assert "heaps must be integers >= 0" in capsys.readouterr().err


def test_theorem_12_small_examples_by_search() -> None:
    s = SOLVERS[1]
    # every range XORs to 0 and the totals 2, 4, 6 XOR to 0
    assert s.is_p(((1, 1), (2, 2), (3, 3)), method="search")
    # totals 2 and 4 do not
    assert not s.is_p(((1, 1), (2, 2)), method="search")
    # a range with XOR != 0
    assert not s.is_p(((1, 2), (3,), (3,)), method="search")
    assert outcome(EMPEROR, ((1, 2, 3), (1, 2, 3)), method="search") is Outcome.P


def test_theorem_13_small_examples_by_search() -> None:
    # totals 2, 2, 2: digit counts 3 ≡ 0 mod 3 (k = 2) but 3 ≢ 0 mod 2 (k = 1)
    pos = ((1, 1), (1, 1), (1, 1))
    assert SOLVERS[2].is_p(pos, method="search") and emperor_is_p(pos, 2)
    assert not SOLVERS[1].is_p(pos, method="search") and not emperor_is_p(pos, 1)
    pos4 = ((1, 1), (1, 1), (1, 1), (1, 1))
    assert SOLVERS[3].is_p(pos4, method="search") and emperor_is_p(pos4, 3)
    assert SOLVERS[1].is_p(pos4, method="search") and not SOLVERS[2].is_p(pos4, method="search")


def test_one_heap_ranges_make_one_heap_of_the_total() -> None:
    """With one heap per range every range may lose stones: Grundy value = total stones."""
    s = SOLVERS[1]
    for heaps in itertools.product(range(5), repeat=3):
        pos = tuple((h,) for h in heaps)
        assert s.grundy(pos, method="search") == sum(heaps)


RANGE = st.lists(st.integers(0, 3), min_size=1, max_size=2).map(tuple)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 3), st.lists(RANGE, min_size=1, max_size=3))
def test_criterion_matches_search(k: int, ranges: list[tuple[int, ...]]) -> None:
    pos = tuple(ranges)
    g = game("emperor", k=k)
    expected = SOLVERS[k].is_p(pos, method="search")
    assert g.closed_is_p(pos) == expected
    assert emperor_is_p(pos, k) == expected


def test_enumerated_positions_are_move_closed_and_ordered() -> None:
    ps = list(emperor_positions((1, 2, 2), 3))
    index = {p: i for i, p in enumerate(ps)}
    for p in ps:
        for q in moves(EMPEROR, p):
            assert index[EMPEROR.canonical(q)] < index[p]


@pytest.mark.parametrize("k", [0, -1, "x", True])
def test_bad_k(k: object) -> None:
    with pytest.raises(
        InvalidParameterError, match=r"parameter k (of emperor )?must be an integer"
    ):
        game("emperor", k=k)


@pytest.mark.parametrize(
    ("pos", "msg"),
    [
        (5, "sequence of ranges"),
        (((1, -1),), "range 1 has a heap of -1"),
        (((1, "a"),), "must be integers"),
    ],
)
def test_bad_positions(pos: object, msg: str) -> None:
    with pytest.raises(InvalidPositionError, match=msg):
        EMPEROR.validate(pos)
