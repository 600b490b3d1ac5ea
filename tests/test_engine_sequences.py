"""Engine sequences and periodicity: literature values, exhaustive search, proofs (issue 6)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nimlab import (
    InvalidParameterError,
    Periodicity,
    SearchTooLargeError,
    game,
    periodicity,
    periodicity_of,
    sequence,
)
from nimlab.engine.sequences import octal_sequence
from nimlab.solvers.search import Solver

FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Winning Ways ch. 4 / Siegel, CGT §IV.2: Kayles (0.77), rows of 12 from n = 0.
KAYLES_WW = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6,
    4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7,
    4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7,
    4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7,
    4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7,
    4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7,
    4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
]  # fmt: skip
# Dawson's Kayles 0.07 (n = 0, 1, ...); Dawson's chess 0.137 is the same shifted by one
# (OEIS A002187).
DAWSON_0_07 = [
    0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0,
    4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2,
]  # fmt: skip


def test_kayles_values_and_proved_period() -> None:
    seq = sequence(game("octal", code="0.77"), len(KAYLES_WW))
    assert seq.tolist() == KAYLES_WW
    per = periodicity_of(game("octal", code="0.77"), 200)
    assert (per.period, per.preperiod, per.saltus, per.proved) == (12, 71, 0, True)
    assert "Guy–Smith" in per.reason
    assert [per.value(n) for n in range(72, 84)] == [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]


def test_dawsons_kayles_values_and_proved_period() -> None:
    g = game("octal", code="0.07")
    assert sequence(g, len(DAWSON_0_07)).tolist() == DAWSON_0_07
    assert sequence(game("octal", code="0.137"), 40).tolist() == DAWSON_0_07[1:41]
    per = periodicity_of(g, 160)  # extends itself to the 2 n0 + 2p + t terms it needs
    assert (per.period, per.preperiod, per.proved) == (34, 53, True)


def test_grundys_game_first_values() -> None:
    # Grundy's game (Winning Ways ch. 4): 0 0 0 1 0 2 1 0 2 1 0 2 for n = 0..11
    assert sequence(game("octal", code="4!.0"), 12).tolist() == [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2]
    per = periodicity_of(game("octal", code="4!.0"), 300)
    assert not per.proved


def test_subtraction_1_3_4() -> None:
    g = game("subtraction", S="1,3,4")
    assert sequence(g, 21).tolist() == [0, 1, 0, 1, 2, 3, 2] * 3
    per = periodicity_of(g, 60)
    assert (per.period, per.preperiod, per.saltus, per.proved) == (7, 0, 0, True)


codes = st.builds(
    lambda d0, bang0, ds, bangs: (
        (f"{d0}{'!' if bang0 and d0 else ''}." if True else "")
        + "".join(f"{d}{'!' if b and d & 4 else ''}" for d, b in zip(ds, bangs, strict=False))
    ),
    st.sampled_from([0, 4]),
    st.booleans(),
    st.lists(st.integers(0, 7), min_size=1, max_size=3),
    st.lists(st.booleans(), min_size=3, max_size=3),
)


@FAST
@given(codes)
def test_octal_kernel_equals_search(code: str) -> None:
    g = game("octal", code=code)
    s = Solver(g)
    assert sequence(g, 15).tolist() == [s.grundy((n,), method="search") for n in range(15)]


@pytest.mark.parametrize("code", ["0.f", "0.08", "8.0", "c.4f"])
def test_hexadecimal_codes_equal_search(code: str) -> None:
    g = game("octal", code=code)
    s = Solver(g)
    assert sequence(g, 13).tolist() == [s.grundy((n,), method="search") for n in range(13)]
    assert not periodicity_of(g, 300).proved


@pytest.mark.parametrize("code", ["0.6", "0.77", "4.777", "0.4", "4!.0"])
def test_rare_value_method_equals_direct_method(code: str) -> None:
    a = octal_sequence(code, 5000)
    b = octal_sequence(code, 5000, direct=True)
    np.testing.assert_array_equal(a, b)


sets = st.sets(st.integers(1, 7), min_size=1, max_size=3)


@FAST
@given(sets)
def test_subtraction_and_allbut_kernels_equal_search(s: set[int]) -> None:
    for name in ("subtraction", "allbut"):
        g = game(name, S=s)
        sol = Solver(g)
        assert sequence(g, 40).tolist() == [sol.grundy((n,), method="search") for n in range(40)]


@pytest.mark.parametrize(("k", "m"), [(1, 2), (2, 4), (3, 5), (2, 7), (4, 8)])
def test_allbut_siegel_forms_and_inner_period(k: int, m: int) -> None:
    n = np.arange(3000)
    assert sequence(game("allbut", S={k}), 3000).tolist() == (n % k + k * (n // (2 * k))).tolist()
    form = n % k + k * (n // (3 * k)) if m == 2 * k else n % k + k * (n // (2 * k))
    g = game("allbut", S={k, m})
    assert sequence(g, 3000).tolist() == form.tolist()  # S18-T11
    per = periodicity_of(g, 3000)
    assert per.proved and per.preperiod == 0 and per.saltus == k
    assert per.period == (3 * k if m == 2 * k else 2 * k)
    assert per.inner_period == k and per.has_inner_period(k)


def test_all_allbut_sets_up_to_4_proved_and_extend_exactly() -> None:
    for r in range(1, 5):
        for xs in itertools.combinations(range(1, 5), r):
            g = game("allbut", S=set(xs))
            per = periodicity_of(g, 1500)
            assert per.proved, (xs, per)
            long = sequence(g, 20000)
            assert all(per.value(i) == long[i] for i in range(0, 20000, 7))


def test_periodicity_of_plain_sequences() -> None:
    per = periodicity([5, 9, 1, 2, 3] + [1, 2, 3] * 10)
    assert isinstance(per, Periodicity)
    assert (per.period, per.preperiod, per.saltus, per.inner_period) == (3, 2, 0, None)
    assert not per.proved
    per = periodicity([n // 2 for n in range(40)])
    assert (per.period, per.saltus, per.preperiod) == (2, 1, 0)
    assert not periodicity([]).periodic
    with pytest.raises(InvalidParameterError):
        periodicity([[1, 2], [3, 4]])
    with pytest.raises(InvalidParameterError, match="no period"):
        periodicity([0, 1, 3]).value(5)


def test_bad_sequence_inputs() -> None:
    with pytest.raises(InvalidParameterError, match="octal code"):
        game("octal", code="0.g")
    with pytest.raises(InvalidParameterError, match="before the point"):
        game("octal", code="2.7")
    with pytest.raises(InvalidParameterError, match="one-heap"):
        sequence("wythoff", 10)
    with pytest.raises(InvalidParameterError, match="n must be"):
        sequence(game("subtraction", S="1,2"), -1)
    with pytest.raises(SearchTooLargeError, match="max_terms"):
        sequence(game("subtraction", S="1,2"), 10**6, max_terms=1000)


@settings(max_examples=25, deadline=None)
@given(st.sets(st.integers(1, 9), min_size=1, max_size=4))
def test_proved_subtraction_periods_extend_exactly(s: set[int]) -> None:
    g = game("subtraction", S=s)
    per = periodicity_of(g, 600)
    assert per.proved
    long = sequence(g, 5000)
    assert all(per.value(i) == long[i] for i in range(5000))


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "0.51", "4.7", "0.33"])
def test_proved_octal_periods_extend_exactly(code: str) -> None:
    g = game("octal", code=code)
    per = periodicity_of(g, 400)
    long = sequence(g, 6000)
    if per.proved:
        assert all(per.value(i) == long[i] for i in range(6000))
    assert per.proved or code not in ("0.77", "0.07", "0.137")
