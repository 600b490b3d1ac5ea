"""What a game's constructive strategy says about itself is true, on every small position.

A :class:`~nimlab.core.strategy.Construction` names its procedure and the theorem it comes
from (an explanation cites them), gives one move, and may list every move and count
them. Here, for every position of small boxes: the theorem is registered and is about
this game, the procedure is cited with its paper, ``one()`` is among ``every()``, and
``count()`` is the length of ``every()``. (Mutation testing found that none of this was
checked: docs/MUTATION.md.)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import pytest

from nimlab import game, theorem
from nimlab.formulas.delete import SH_T6_STAR_VERIFIED_BELOW

PAPERS = ("S19", "S18", "N99", "Sh")


def boxes(n: int, lo: int, hi: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(lo, hi + 1), repeat=n))


CASES: list[tuple[str, dict[str, Any], Iterable[Any], bool]] = [
    ("nim", {}, boxes(3, 0, 4), False),
    ("nim", {}, boxes(3, 0, 3) + boxes(2, 0, 2), True),
    ("moore", {"k": 2}, boxes(3, 0, 4), False),
    ("moore", {"k": 2}, boxes(3, 0, 3), True),
    ("circular", {"k": 1}, boxes(3, 0, 3), False),
    ("circular", {"k": 2}, boxes(3, 0, 3), False),
    ("circular", {"k": 3}, boxes(3, 0, 3) + boxes(4, 0, 2), False),
    ("welter", {}, [p for p in boxes(3, 0, 5) if len(set(p)) == 3], False),
    ("lim", {}, boxes(3, 0, 5), False),
    ("nimhoff", {"k": 1}, boxes(2, 0, 7), False),
    ("delete-nim", {}, boxes(2, 0, 9), False),
    ("single-delete", {}, boxes(2, 1, 8) + boxes(3, 1, 6) + boxes(4, 1, 5), False),
    ("single-delete", {}, [(1, 3, 5, 7, 9), (1, 1, 1, 1, 3)], False),
    ("abo-delete", {}, boxes(3, 1, 8), False),
    ("emperor", {"k": 1}, [((a, b), (c,)) for a, b, c in boxes(3, 0, 3)], False),
    ("emperor", {"k": 2}, [((a, b), (c,), (d,)) for a, b, c, d in boxes(4, 0, 2)], False),
    ("ryuo", {"p": 3}, boxes(2, 0, 9), False),
    ("restricted-ryuo", {"p": 2, "q": 4}, boxes(2, 0, 9), False),
    ("rgames", {"g0": "subtraction:1,2,3", "parts": "allbut:8;allbut:4,8"}, boxes(2, 0, 9), False),
    (
        "turning-turtles",
        {},
        [frozenset(s) for r in range(3) for s in itertools.combinations(boxes(2, 1, 3), r)],
        False,
    ),
]


@pytest.mark.parametrize(
    ("name", "params", "positions", "misere"),
    CASES,
    ids=[f"{n}-{p}-{'misere' if m else 'normal'}" for n, p, _, m in CASES],
)
def test_construction_describes_itself_truly(
    name: str, params: dict[str, Any], positions: Iterable[Any], misere: bool
) -> None:
    g = game(name, **params)
    built = 0
    for pos in positions:
        c = g.strategy(pos, misere)
        if c is None:
            continue
        built += 1
        assert isinstance(c.procedure, str) and len(c.procedure) > 10, (pos, c)
        # only CN(n, n) (one heap of the total, no theorem needed) names no theorem
        assert c.theorem is not None or (name == "circular" and params["k"] == len(pos))
        if c.theorem is not None:
            th = theorem(c.theorem)
            assert th.id == c.theorem
            assert th.game == g.name or c.theorem in g.theorems, (pos, c.theorem)
            assert any(paper in c.procedure for paper in PAPERS), (pos, c.procedure)
        one = c.one()
        if c.every is not None:
            every = list(c.every())
            assert len(every) == len(set(every)), pos
            if one is None:
                assert every == [], pos
            else:
                assert every and every[0] == one, pos
            if c.count is not None:
                assert c.count() == len(every), pos
    assert built > 0


@pytest.mark.parametrize(
    ("name", "params", "pos"),
    [
        ("circular", {"k": 4}, (1, 2, 3, 4, 5, 6)),  # CN(6, 4): a criterion, no construction
        ("circular", {"k": 2}, (1, 2, 3, 4)),  # CN(4, 2): no result at all
        ("single-delete", {}, (1, 2, 3, 4, 5)),  # five heaps, not all odd
    ],
)
def test_no_construction_where_no_paper_gives_one(
    name: str, params: dict[str, Any], pos: tuple[int, ...]
) -> None:
    assert game(name, **params).strategy(pos, False) is None


@pytest.mark.parametrize(
    ("name", "params", "pos"),
    [
        ("lim", {}, (3, 5, 5)),
        ("welter", {}, (1, 2, 4)),
        ("nimhoff", {"k": 1}, (3, 5)),
        ("delete-nim", {}, (3, 4)),
        ("single-delete", {}, (2, 4, 7)),
        ("abo-delete", {}, (1, 2, 6)),
        ("emperor", {"k": 1}, ((1, 2), (3,))),
        ("ryuo", {"p": 3}, (4, 6)),
        ("restricted-ryuo", {"p": 2, "q": 4}, (3, 6)),
        ("circular", {"k": 3}, (1, 2, 3)),
        ("turning-turtles", {}, frozenset({(1, 1)})),
    ],
)
def test_normal_play_constructions_do_not_claim_misere(
    name: str, params: dict[str, Any], pos: Any
) -> None:
    g = game(name, **params)
    assert g.strategy(pos, False) is not None
    assert g.strategy(pos, True) is None


# The procedure and theorem each construction names, exactly: an explanation prints them.
NAMED = [
    ("nim", {}, (1, 2), False, "Bouton's rule (N99 Theorem 1.4)", "S19-T1"),
    ("nim", {}, (1, 2), True, "Bouton's rule, misère variant (N99 §1.3)", "N99-T1.11"),
    ("moore", {"k": 2}, (1, 2, 4), False, "Naito's procedure (N99 §2.1)", "S19-T5"),
    (
        "moore",
        {"k": 2},
        (1, 2, 4),
        True,
        "Naito's procedure, misère variant (N99 §2.3)",
        "N99-T2.10",
    ),
    ("circular", {"k": 3}, (1, 2, 3), False, "take everything (CN(n,n) is one heap)", None),
    ("circular", {"k": 1}, (1, 2, 4), False, "Bouton's rule (N99 Theorem 1.4)", "S19-T1"),
    ("circular", {"k": 2}, (1, 2, 4), False, "Naito's procedure (N99 §2.1)", "S19-T5"),
    (
        "welter",
        {},
        (1, 2, 4),
        False,
        "solving the Welter formula digit by digit (S19 Theorem 7)",
        "S19-T7",
    ),
    ("lim", {}, (3, 5, 5), False, "a digit automaton for x−t, y−t, z+t (S19 Theorem 8)", "S19-T8"),
    (
        "nimhoff",
        {"k": 1},
        (3, 5),
        False,
        "inverting the k-nim-sum heap by heap (S19 Theorem 10)",
        "S19-T10",
    ),
    (
        "delete-nim",
        {},
        (3, 4),
        False,
        "keep an odd heap and split the rest into two even heaps (S19 Theorem 11)",
        "S19-T11",
    ),
    (
        "single-delete",
        {},
        (3, 4),
        False,
        "splitting a heap into two parts of the right 2-adic valuation (Sh Theorem 1)",
        "Sh-T1",
    ),
    (
        "single-delete",
        {},
        (2, 4, 7),
        False,
        "splitting a heap into two parts of the right 2-adic valuation (Sh Theorem 3)",
        "Sh-T3",
    ),
    ("single-delete", {}, (1, 3, 5, 7, 9), False, "all heaps odd (Sh Proposition 7)", "Sh-P7"),
    (
        "abo-delete",
        {},
        (1, 2, 6),
        False,
        "splitting a heap into parts ≡ 1..n−1 (mod n(n−1)) (Sh Theorem 2)",
        "Sh-T2",
    ),
    (
        "emperor",
        {"k": 1},
        ((1, 2), (3,)),
        False,
        "the proof of S19 Theorem 12 (Bouton in each range, then Lemma 3 on one range)",
        "S19-T12",
    ),
    (
        "emperor",
        {"k": 2},
        ((1, 2), (3,)),
        False,
        "the proof of S19 Theorem 13 (Bouton in each range, Naito on the totals, Lemma 3)",
        "S19-T13",
    ),
    ("ryuo", {"p": 3}, (4, 6), False, "inverting the Ryuo formula (S18 Theorem 8)", "S18-T8"),
    (
        "restricted-ryuo",
        {"p": 2, "q": 4},
        (3, 6),
        False,
        "inverting the restricted Ryuo formula (S18 Theorem 9)",
        "S18-T9",
    ),
    (
        "rgames",
        {"g0": "subtraction:1,2,3", "parts": "allbut:8;allbut:4,8"},
        (9, 13),
        False,
        "inverting the RGAMES formula (S18 Theorem 12)",
        "S18-T12",
    ),
    (
        "turning-turtles",
        {},
        frozenset({(1, 1)}),
        False,
        "factoring the nim-value in the nim field (S19 Theorem 6)",
        "S19-T6",
    ),
    (
        "single-delete",
        {},
        (1, 2, 3, 5),
        False,
        f"a split scored by Sh-T6* (conjectured, verified for heaps < {SH_T6_STAR_VERIFIED_BELOW}), "
        "Lemma 10's splits h → (h − 2^k, 2^k) first",
        "Sh-T6*",
    ),
    # one-heap games cite the theorem their Grundy sequence comes from (none for
    # Subtraction(S): its periodicity is found, not quoted)
    (
        "subtraction",
        {"S": {1, 3, 4}},
        (7,),
        False,
        "the exact periodicity of the Grundy sequence",
        None,
    ),
    ("allbut", {"S": {2}}, (7,), False, "the exact periodicity of the Grundy sequence", "S18-T11"),
]


@pytest.mark.parametrize(("name", "params", "pos", "misere", "procedure", "theorem_id"), NAMED)
def test_construction_names_its_procedure_and_theorem(
    name: str,
    params: dict[str, Any],
    pos: Any,
    misere: bool,
    procedure: str,
    theorem_id: str | None,
) -> None:
    c = game(name, **params).strategy(pos, misere)
    assert c is not None
    assert (c.procedure, c.theorem) == (procedure, theorem_id)


@pytest.mark.parametrize("pos", [(20001, 4), (4, 20001), (20001, 20003), (20001, 20001)])
def test_too_many_moves_error_states_their_exact_number(pos: tuple[int, int]) -> None:
    """Delete Nim counts its winning moves in closed form: when there are too many to
    list, the error gives their number (the length of ``every()``) as an integer."""
    from nimlab import MoveSetTooLargeError, winning_moves

    c = game("delete-nim").strategy(pos, False)
    assert c is not None and c.every is not None and c.count is not None
    n = len(list(c.every()))
    assert type(c.count()) is int and c.count() == n > 10_000
    with pytest.raises(
        MoveSetTooLargeError, match=rf"^delete-nim: {pos[0]} {pos[1]} has {n:,} winning moves"
    ):
        winning_moves("delete-nim", pos)


def test_four_heap_single_delete_uses_sh_t6_star_only_below_its_verified_bound() -> None:
    from nimlab.formulas.delete import SH_T6_STAR_VERIFIED_BELOW as bound

    g = game("single-delete")
    inside = g.strategy((1, 2, 3, bound - 1), False)
    assert inside is not None and inside.theorem == "Sh-T6*"
    for pos in [(1, 2, 3, bound), (2, 2, bound, 7), (bound + 5, 1, 1, 2)]:
        c = g.strategy(pos, False)
        assert c is None or c.theorem != "Sh-T6*", pos


def test_four_heap_move_refuses_positions_at_the_verified_bound() -> None:
    from nimlab.catalog.delete.strategy import single_delete4_move

    bound = SH_T6_STAR_VERIFIED_BELOW
    with pytest.raises(
        ValueError,
        match=rf"^Sh-T6\* is verified only for heaps < {bound}, got \(1, 2, 3, {bound}\)$",
    ):
        single_delete4_move((1, 2, 3, bound))
