"""Misère quotients against the literature and against direct misère search."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab import game
from nimlab.core.errors import InvalidParameterError, InvalidPositionError
from nimlab.misere import QuotientTooLargeError, misere_quotient
from nimlab.solvers.search import Solver

# (code, heap bound) computed and checked against exhaustive misère search
CASES = [
    ("0.3333", 3),
    ("0.75", 14),
    ("0.77", 12),
    ("0.07", 14),
    ("0.07", 22),
    ("4.7", 10),
    ("4!.0", 12),
    ("0.123", 10),
    ("0.31", 10),
    ("0.6", 10),
]


@functools.cache
def _quotient(code: str, n: int):  # type: ignore[no-untyped-def]
    return misere_quotient(code, max_heap=n)


@functools.cache
def _solver(code: str) -> Solver:  # type: ignore[type-arg]
    return Solver(game("octal", code=code))


def test_misere_nim_quotient_is_the_published_one() -> None:
    # Plambeck–Siegel: misère Nim (heaps up to 3) has the quotient T2 = <a, b | a^2 = 1,
    # b^3 = b> of order 6 with P-portion {a, b^2}; *1 -> a, *2 -> b, *3 -> ab
    q = misere_quotient("0.3333", max_heap=3)
    assert q.order == 6
    assert q.presentation() == "<a, b | a^2 = 1, b^3 = b>"
    assert q.p_portion == ("a", "b^2")
    assert q.pretending == ("1", "a", "b", "ab")


def test_075_quotient_is_r8() -> None:
    # Plambeck–Siegel: 0.75 has the quotient R8 = <a, b, c | a^2 = 1, b^3 = b, bc = ab,
    # c^2 = b^2> of order 8, P = {a, b^2}
    q = misere_quotient("0.75", max_heap=30)
    assert q.order == 8
    assert set(q.relations) == {("a^2", "1"), ("b^3", "b"), ("bc", "ab"), ("c^2", "b^2")}
    assert q.p_portion == ("a", "b^2")
    assert q.period() == (2, 8)


@pytest.mark.parametrize(("code", "n"), CASES)
def test_order_is_even_and_presentation_is_consistent(code: str, n: int) -> None:
    q = _quotient(code, n)
    assert q.order % 2 == 0  # Plambeck–Siegel: every misère quotient has even order
    assert len(q.elements) == len(set(q.elements)) == q.order
    assert set(q.p_portion) <= set(q.elements)
    assert q.pretending[0] == "1"


@pytest.mark.timeout(300)  # 2,000 sums, each decided by the exhaustive misère search
@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(CASES), st.lists(st.integers(0, 14), min_size=1, max_size=4))
def test_outcomes_agree_with_direct_misere_search(case: tuple[str, int], heaps: list[int]) -> None:
    code, n = case
    hs = tuple(min(h, n) for h in heaps)
    if sum(hs) > 26:
        hs = hs[:2]
    q = _quotient(code, n)
    truth = _solver(code).is_p(hs, misere=True, method="search")
    assert q.is_p(hs) == truth
    move = q.winning_move(hs)
    if truth:
        assert move is None
    elif move is None:  # an N-position without a winning move has no move at all
        assert not _solver(code).children(hs)
    else:
        assert _solver(code).is_p(move, misere=True, method="search")


def test_many_sums_of_kayles_and_dawsons_kayles() -> None:
    for code, n in (("0.77", 12), ("0.07", 14)):
        q = _quotient(code, n)
        s = _solver(code)
        count = 0
        for a in range(n + 1):
            for b in range(a, n + 1):
                for c in range(b, min(n, 26 - a - b) + 1):
                    assert q.is_p((a, b, c)) == s.is_p((a, b, c), misere=True, method="search")
                    count += 1
        assert count > 300


def test_kayles_quotient_stabilises_at_order_40() -> None:
    q = misere_quotient("0.77", max_heap=40)
    assert (q.order, len(q.p_portion), len(q.generators)) == (40, 9, 7)


# Siegel's MisereSolver, as shipped in CGSuite's sources (github.com/aaron-siegel/cgsuite,
# commit e909ab8, lib/core/src/main/scala/org/cgsuite/core/misere/solver), run on 0.77 to
# heap 120: |Q| and |P| after each heap where they change, and its pretending function
# (element numbers of its own monoid) for heaps 0..72. Its output reaches |Q| = 40,
# |P| = 9 at heap 27 and keeps it to heap 120.
MISERESOLVER_KAYLES_ORDERS = {
    1: (2, 1), 2: (6, 2), 4: (6, 2), 5: (12, 3), 8: (12, 3), 9: (18, 6), 11: (18, 6),
    12: (24, 8), 24: (24, 8), 25: (32, 9), 26: (32, 9), 27: (40, 9), 30: (40, 9),
}  # fmt: skip
MISERESOLVER_KAYLES_PRETENDING = [
    0, 1, 2, 3, 1, 14, 3, 2, 5, 10, 2, 6, 18, 5, 2, 7, 5, 22, 3, 2, 21, 8, 6, 7, 8, 24,
    2, 32, 9, 8, 7, 2, 5, 32, 6, 7, 8, 5, 2, 3, 5, 8, 7, 2, 5, 32, 2, 7, 8, 5, 2, 32, 5,
    8, 7, 2, 5, 8, 2, 7, 8, 5, 2, 32, 5, 8, 7, 2, 5, 32, 6, 7, 8,
]  # fmt: skip


def _heap_classes(pretending: Sequence[object]) -> list[int]:
    """Each heap's least heap of the same class: the partition, whatever the names."""
    first: dict[object, int] = {}
    return [first.setdefault(x, h) for h, x in enumerate(pretending)]


def test_kayles_quotient_agrees_with_miseresolver() -> None:
    # the order 40 is not a published figure that we found; it is what Siegel's own program
    # computes (see MISERESOLVER_KAYLES_ORDERS), heap bound by heap bound
    for n, (order, p_size) in MISERESOLVER_KAYLES_ORDERS.items():
        q = misere_quotient("0.77", max_heap=n)
        assert (q.order, len(q.p_portion)) == (order, p_size), n
    q = misere_quotient("0.77", max_heap=72)
    assert _heap_classes(q.pretending) == _heap_classes(MISERESOLVER_KAYLES_PRETENDING)


@pytest.mark.slow
@pytest.mark.timeout(120)  # about 1 s of CPU (compiled loops): Dawson's Kayles to heap 30
def test_dawsons_kayles_quotient_at_heap_30_has_order_360() -> None:
    # A. N. Siegel, "Some MisereSolver questions answered", miseregames.wordpress.com,
    # 28 August 2007: "Q_30(0.07) has size 360" (MisereSolver, java -jar misere.jar 0.07
    # -maxheap 30)
    q = misere_quotient("0.07", max_heap=30)
    assert q.order == 360


def test_quotients_beyond_the_old_refinement_agree_with_search() -> None:
    # the refinement of the first version failed for 0.07 beyond heap 24 and for 4.7 from
    # heap 8; recalibration computes them, and they decide sums with big heaps rightly
    for code, n, total in (("0.07", 26, 30), ("4.7", 12, 24)):
        q = _quotient(code, n)
        assert q.order % 2 == 0
        s = _solver(code)
        for a in range(n + 1):
            for b in range(a, n + 1):
                if a + b <= total:
                    assert q.is_p((a, b)) == s.is_p((a, b), misere=True, method="search")
        for hs in ((1, 2, n), (2, 3, n - 4), (4, 7, n - 6)):
            assert q.is_p(hs) == s.is_p(hs, misere=True, method="search")


def test_budget_and_bad_input() -> None:
    with pytest.raises(QuotientTooLargeError):
        misere_quotient("0.77", max_heap=20, max_order=10)
    with pytest.raises(InvalidParameterError):
        misere_quotient("0.77", max_heap=-1)
    with pytest.raises(InvalidParameterError):
        misere_quotient("wythoff", max_heap=3)
    q = _quotient("0.77", 12)
    with pytest.raises(InvalidPositionError):
        q.outcome((13,))


def test_0312_agrees_with_plambecks_solution() -> None:
    # T. E. Plambeck, "0.312" (plambeck.org, misère octal games, quaternary games,
    # solved 4 February 2003): single-heap genera 1^{03131}, 2^{20}, 0^{02}, 2^{1420},
    # 0^{02}, 1^{13} for heaps 1..6, "periodic of length two"; the heap of 4 is the game
    # A of genus 2^{1420} and "we can pretend that A + A = :0"
    from nimlab.misere import genus_sequence

    seq = genus_sequence(game("octal", code="0.312"), 7)[1:]
    published = [(1, (0, 3, 1, 3, 1)), (2, (2, 0)), (0, (0, 2)), (2, (1, 4, 2, 0)), (0, (0, 2))]
    published.append((1, (1, 3)))
    assert [
        (g.g, g.sequence(len(s))) for g, (_, s) in zip(seq, published, strict=True)
    ] == published
    q = misere_quotient("0.312", max_heap=30)
    assert q.element((4, 4)) == "1" and q.element((4,)) != "1"
    assert q.period() is not None and q.period()[0] == 2


@pytest.mark.parametrize(
    ("code", "period"),
    [
        ("0.34", 8),
        ("0.3101", 2),
        ("0.3131", 2),
        ("0.1023", 7),
        ("0.1032", 7),
        ("0.1033", 7),
        ("0.1331", 5),
        ("0.3103", 5),
        ("0.3112", 5),
        ("0.1323", 6),
    ],
)
def test_pretending_periods_agree_with_plambeck_siegel(code: str, period: int) -> None:
    # Plambeck and Siegel, "Misère quotients for impartial games", supplementary material
    # (arXiv:0705.2404), Appendix B: complete solutions of wild octal games with simple
    # misère quotients, with the period p of each pretending function
    q = misere_quotient(code, max_heap=40)
    assert q.order % 2 == 0
    found = q.period()
    assert found is not None and found[0] == period
