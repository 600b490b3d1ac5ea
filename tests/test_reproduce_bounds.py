"""The bounds of ``nimlab reproduce`` are data: each result checks at least 10 times the
positions it checked before issue 11 (or says why not), and the claims that now run on
the compiled local check (tabulated or compiled) agree with exhaustive search."""

from __future__ import annotations

import pytest

from nimlab.theory.registry import check_theorem, theorem, theorems
from nimlab.theory.reproduce import (
    BOUNDS_BEFORE,
    CUSTOM_POSITIONS,
    NOT_RAISED,
    count_positions,
)

IDS = [t.id for t in theorems()]


def test_every_result_has_a_recorded_old_bound() -> None:
    assert set(BOUNDS_BEFORE) == set(IDS)
    assert set(NOT_RAISED) <= set(IDS)
    assert all(reason.strip() for reason in NOT_RAISED.values())


@pytest.mark.parametrize("tid", IDS)
def test_default_bound_reaches_ten_times_the_old_positions(tid: str) -> None:
    t = theorem(tid)
    old_bound, old_positions = BOUNDS_BEFORE[tid]
    if t.kind == "custom":
        bound, now = CUSTOM_POSITIONS[tid]
        assert bound == t.default_bound, "re-measure CUSTOM_POSITIONS at the new bound"
    else:
        now = count_positions(t)
        assert now is not None
        assert count_positions(t, old_bound) == old_positions
    if tid in NOT_RAISED:
        return
    assert now >= 10 * old_positions, f"{tid}: {now:,} positions, old {old_positions:,}"
    assert t.deep_bound is None or t.deep_bound > t.default_bound


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("tid", "bound"),
    [
        ("S19-T1", 10),
        ("N99-T1.11", 8),
        ("S19-T5", 7),
        ("N99-T2.10", 7),
        ("S19-T9", 3),
        ("S19-T10", 10),
        ("S19-T11", 20),
        ("Sh-T1", 20),
        ("Sh-T2", 17),
        ("Sh-T3", 14),
        ("S18-T7", 30),
        ("S18-T11", 60),
        ("S19-T7", 14),
        ("S19-T8", 40),
    ],
)
def test_compiled_claims_agree_with_search(tid: str, bound: int) -> None:
    local = check_theorem(tid, bound=bound)
    assert local.ok
    assert "compiled" in local.method or "sequence" in local.method
    search = check_theorem(tid, bound=bound, method="search")
    assert search.ok
    assert search.positions_checked == local.positions_checked


def test_new_spaces_hold_the_old_positions() -> None:
    """Welter's sets and Lim's simplex, walked compiled, are the positions of the lists
    they replace (the old counts of BOUNDS_BEFORE are checked above too)."""
    from nimlab.theory.s19a import distinct_box, lim_triples
    from nimlab.verification.spaces import DistinctBoxSpace, SortedTotalSpace

    for n in (1, 2, 3, 4):
        sp = DistinctBoxSpace(n, 11, target=7)
        got = [p for i in range(sp.n_chunks) for p in sp.chunk(i)]
        assert sorted(got) == list(sorted(distinct_box(n, 11))) and len(got) == sp.size
    sp3 = SortedTotalSpace(3, 23, target=9)
    got = [p for i in range(sp3.n_chunks) for p in sp3.chunk(i)]
    assert got == sorted(lim_triples(23)) and len(got) == sp3.size


def _wrong(tid: str, bad: tuple[int, ...]) -> object:
    import dataclasses

    t = theorem(tid)

    def claim(g: object, position: tuple[int, ...]) -> object:
        right = t.claimed(g, position)  # type: ignore[arg-type]
        return right + 1 if tuple(sorted(position)) == bad else right  # heap order is free

    return dataclasses.replace(t, claim=claim)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("tid", "bad", "bound"),
    [("S19-T7", (1, 4, 6), 9), ("S19-T8", (1, 2, 3), 12), ("S19-T8", (0, 2, 2), 12)],
)
def test_a_wrong_claim_fails_on_the_new_spaces_as_in_python(
    tid: str, bad: tuple[int, ...], bound: int
) -> None:
    import nimlab.verification.compiled as compiled

    t = _wrong(tid, bad)
    fast = check_theorem(t, bound=bound)  # type: ignore[arg-type]
    assert "compiled" in fast.method and not fast.ok
    saved = compiled.supports_compiled
    compiled.supports_compiled = lambda spec: False  # type: ignore[assignment]
    try:
        slow = check_theorem(t, bound=bound)  # type: ignore[arg-type]
    finally:
        compiled.supports_compiled = saved
    assert slow.method == "local" and not slow.ok
    assert fast.counterexample is not None and slow.counterexample is not None
    # the walks differ in order from the Python lists only within a chunk: the same
    # counterexample, as the smallest failing position of the same enumeration
    assert fast.counterexample.position == slow.counterexample.position
    assert fast.positions_checked == slow.positions_checked


def test_sh_p8_lists_single_delete_moves_once_per_pair_of_sizes() -> None:
    import itertools

    from nimlab.catalog import game
    from nimlab.theory.sh import SingleDeleteBySize

    g, by_size = game("single-delete"), SingleDeleteBySize()
    for n in (2, 3, 4, 5):
        for p in itertools.product(range(1, 6), repeat=n):
            assert {g.canonical(q) for q in g.moves(p)} == {
                g.canonical(q) for q in by_size.moves(p)
            }, p
            est = by_size.estimate_moves(p)
            assert est is not None and est >= sum(1 for _ in by_size.moves(p))


@pytest.mark.timeout(120)
def test_a_list_that_is_not_move_closed_is_compared_with_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import dataclasses

    from nimlab import planner
    from nimlab.catalog import game
    from nimlab.theory.registry import Instance
    from nimlab.theory.sh import odd_box

    monkeypatch.setattr(planner, "DEFAULT_BUDGETS", planner.Budgets(engine_min_positions=1))
    g = game("single-delete")
    four = dataclasses.replace(  # Sh-P7 on four odd heaps only
        theorem("Sh-P7"), instances=lambda b: iter([Instance(g, list(odd_box(4, b)))])
    )
    engine = check_theorem(four, bound=12)
    search = check_theorem(four, bound=12, method="search")
    assert engine.ok and search.ok and engine.method == "engine (compiled)"
    assert engine.positions_checked == search.positions_checked == 126
    wrong = dataclasses.replace(four, claim=lambda game, p: p != (3, 5, 7, 9))
    engine = check_theorem(wrong, bound=12)
    search = check_theorem(wrong, bound=12, method="search")
    assert not engine.ok and not search.ok
    assert engine.counterexample == search.counterexample
    assert engine.counterexample is not None and engine.counterexample.position == (3, 5, 7, 9)
    assert engine.positions_checked == search.positions_checked
