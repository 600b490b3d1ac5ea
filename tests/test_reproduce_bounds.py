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
    ],
)
def test_compiled_claims_agree_with_search(tid: str, bound: int) -> None:
    local = check_theorem(tid, bound=bound)
    assert local.ok
    assert "compiled" in local.method or "sequence" in local.method
    search = check_theorem(tid, bound=bound, method="search")
    assert search.ok
    assert search.positions_checked == local.positions_checked
