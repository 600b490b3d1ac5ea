"""Formulas of catalog part A against the worked examples of [S19] §1 and [N99] §1–2."""

from __future__ import annotations

import itertools
from functools import reduce
from operator import xor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.catalog.circular.formulas import cn64_is_p
from nimlab.catalog.lim.formulas import bitwise_majority, lim_grundy
from nimlab.catalog.nimhoff.formulas import ksum, nimhoff_grundy
from nimlab.catalog.welter.formulas import welter_grundy, welter_m
from nimlab.core.errors import InvalidParameterError, InvalidPositionError
from nimlab.formulas.moore import misere_moore_is_p, moore_is_p, moore_string, nim_k_value
from nimlab.formulas.nimmul import (
    NimDivisionByZeroError,
    nim_div,
    nim_inverse,
    nim_product_table,
    nim_square,
    nimmul,
    nimmul_by_mex,
)

FAST = settings(max_examples=60, deadline=None)
big = st.integers(min_value=0, max_value=2**300)


# -- Moore's Nim_k: [S19] Examples 6-8, Theorem 5; [N99] Examples 1.2, 1.5, 2.3, 2.5 ----------
def test_s19_moore_strings() -> None:
    assert moore_string([3, 5, 7], 2) == "220"  # Example 6: 3 ⊕3 5 ⊕3 7
    assert moore_string([8, 9, 10, 11], 3) == "22"  # Example 7: '0022' = '22'
    assert moore_string([3, 5, 6, 7], 2) == "0"  # Example 8: '000' = 0
    assert moore_is_p([3, 5, 6, 7], 2)
    assert not moore_is_p([3, 5, 7], 2)
    assert not moore_is_p([8, 9, 10, 11], 3)


def test_n99_nim_values() -> None:
    # Example 1.2: NIM({3,4,5}) = (0,1,0)_2 = 2, NIM({2,5,7}) = 0
    assert nim_k_value([3, 4, 5], 1) == 2
    assert nim_k_value([2, 5, 7], 1) == 0
    # Example 1.5: NIM({7,6,5}) = 4 -> {3,6,5}; NIM({3,4,5}) = 2 -> {1,4,5}
    assert nim_k_value([7, 6, 5], 1) == 4
    assert nim_k_value([3, 6, 5], 1) == 0
    assert nim_k_value([1, 4, 5], 1) == 0


def test_n99_nim_k_values() -> None:
    # Example 2.3: NIM_2({3,4,5}) = (2,1,2)_3 = 23
    assert nim_k_value([3, 4, 5], 2) == 23
    assert moore_string([3, 4, 5], 2) == "212"
    # Example 2.5: {3,4,5} -> {3,3,3}; {3,4,5,9} = (1,2,1,0)_3 -> {3,4,5,7} = (0,0,2,0)_3 -> {1,4,5,5}
    assert nim_k_value([3, 3, 3], 2) == 0
    assert moore_string([3, 4, 5, 9], 2) == "1210"
    assert nim_k_value([3, 4, 5, 9], 2) == 27 + 2 * 9 + 3
    assert moore_string([3, 4, 5, 7], 2) == "20"
    assert nim_k_value([3, 4, 5, 7], 2) == 6
    assert nim_k_value([1, 4, 5, 5], 2) == 0


@FAST
@given(st.lists(big, max_size=6))
def test_nim_1_is_xor(heaps: list[int]) -> None:
    assert nim_k_value(heaps, 1) == reduce(xor, heaps, 0)
    assert moore_is_p(heaps, 1) == (reduce(xor, heaps, 0) == 0)


@FAST
@given(st.lists(big, max_size=6), st.integers(1, 12))
def test_moore_value_string_and_criterion_agree(heaps: list[int], k: int) -> None:
    s = moore_string(heaps, k)
    assert moore_is_p(heaps, k) == (s == "0") == (nim_k_value(heaps, k) == 0)
    digits = [int(d) for d in (s.split(",") if k + 1 > 10 else s)]
    assert all(0 <= d <= k for d in digits)
    assert nim_k_value(heaps, k) == reduce(lambda v, d: v * (k + 1) + d, digits, 0)


def test_misere_moore_small_cases() -> None:
    # all heaps <= 1: P iff the number of 1-heaps is 1 mod K+1 ([N99] Definition 2.9)
    assert misere_moore_is_p([1], 2)
    assert not misere_moore_is_p([], 2)
    assert misere_moore_is_p([1, 1, 1, 1, 0], 2)
    assert not misere_moore_is_p([1, 1, 1], 2)
    assert misere_moore_is_p([2, 2, 2], 2)
    assert misere_moore_is_p([1, 1, 1], 1)  # misère Nim


# -- nim product: [S19] Definition 6, Theorem 6 ----------------------------------------------
def test_nim_product_small_values() -> None:
    # classic values: 2⊗2 = 3, 4⊗4 = 6, 8⊗8 = 13, 16⊗16 = 24 (Fermat 2-power F: F⊗F = 3F/2)
    assert [nimmul(2**i, 2**i) for i in range(5)] == [1, 3, 6, 13, 24]
    assert nim_product_table(4) == [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]


def test_nimmul_matches_mex_definition() -> None:
    table = nim_product_table(32)
    for a, b in itertools.product(range(32), repeat=2):
        assert nimmul(a, b) == table[a][b]
    assert nimmul_by_mex(13, 11) == nimmul(13, 11)


@pytest.mark.parametrize("e", [1, 2, 4, 8, 16, 32, 64, 128, 256])
def test_fermat_two_powers(e: int) -> None:
    f = 2**e
    assert nimmul(f, f) == f + f // 2
    for x in {1, f // 2, f - 1, f // 3, 2 if f > 2 else 1, 3 if f > 3 else 1}:
        assert nimmul(f, x) == f * x  # x < F: the nim product is the ordinary one


@FAST
@given(big, big, big)
def test_nim_field_laws(a: int, b: int, c: int) -> None:
    assert nimmul(a, b) == nimmul(b, a)
    assert nimmul(a, nimmul(b, c)) == nimmul(nimmul(a, b), c)
    assert nimmul(a, b ^ c) == nimmul(a, b) ^ nimmul(a, c)
    assert nim_square(a) == nimmul(a, a)
    if a:
        assert nimmul(a, nim_inverse(a)) == 1
        assert nim_div(nimmul(b, a), a) == b


@FAST
@given(st.sampled_from([8, 16, 32, 64, 128]), st.data())
def test_nim_product_stays_in_field(w: int, data: st.DataObject) -> None:
    a = data.draw(st.integers(0, 2**w - 1))
    b = data.draw(st.integers(0, 2**w - 1))
    assert nimmul(a, b) < 2**w


def test_nimmul_errors() -> None:
    with pytest.raises(InvalidParameterError, match="non-negative"):
        nimmul(-1, 2)
    with pytest.raises(InvalidParameterError, match="non-negative integer"):
        nimmul(1.5, 2)  # type: ignore[arg-type]
    with pytest.raises(NimDivisionByZeroError):
        nim_div(3, 0)
    with pytest.raises(ZeroDivisionError):
        nim_inverse(0)
    with pytest.raises(InvalidParameterError, match="too slow"):
        nim_product_table(1000)


# -- Welter: [S19] Definition 7, Examples 9-10 --------------------------------------------------
def test_welter_m_examples() -> None:
    assert welter_m(3, 7) == 7  # Example 9
    assert welter_m(5, 6) == 1  # Example 10


@FAST
@given(big, big)
def test_welter_m_definition(x: int, y: int) -> None:
    if x == y:
        with pytest.raises(InvalidParameterError):
            welter_m(x, y)
        return
    m = welter_m(x, y)
    e = (m + 1).bit_length() - 2
    assert m == 2 ** (e + 1) - 1
    assert (x - y) % 2**e == 0 and (x - y) % 2 ** (e + 1) != 0
    assert welter_m(y, x) == m


def test_welter_grundy_errors() -> None:
    with pytest.raises(InvalidPositionError, match="heaps 1 and 3 are both 2"):
        welter_grundy([2, 5, 2])


# -- Lim: [S19] Theorem 8, Examples 11-12 -----------------------------------------------------
def test_lim_examples() -> None:
    assert lim_grundy(3, 5, 5) == 5  # Example 11
    assert lim_grundy(11, 6, 5) == 7  # Example 12


@FAST
@given(big, big, big)
def test_lim_is_bitwise_majority(a: int, b: int, c: int) -> None:
    assert lim_grundy(a, b, c) == bitwise_majority(a, b, c)


# -- Nimhoff: [S19] Definition 8, Examples 13-14 ----------------------------------------------
def test_ksum_examples() -> None:
    assert ksum(4, 6, 2) == 3  # Example 13
    assert ksum(13, 3, 1) == 14  # Example 14


@FAST
@given(big, big, big, st.integers(1, 10))
def test_ksum_is_associative_and_commutative(a: int, b: int, c: int, k: int) -> None:
    assert ksum(a, b, k) == ksum(b, a, k)
    assert ksum(ksum(a, b, k), c, k) == ksum(a, ksum(b, c, k), k)
    assert nimhoff_grundy([a, b, c], k) == ksum(a, ksum(b, c, k), k)


def test_nimhoff_grundy_refuses_k0() -> None:
    with pytest.raises(InvalidParameterError, match="fails for k = 0"):
        nimhoff_grundy([1, 2], 0)


# -- CN(6,4): [S19] Theorem 9 -----------------------------------------------------------------
def test_cn64_is_invariant_under_the_circle_symmetries() -> None:
    for t in itertools.product(range(3), repeat=6):
        v = cn64_is_p(t)
        assert cn64_is_p(t[1:] + t[:1]) == v
        assert cn64_is_p(t[::-1]) == v


def test_cn64_needs_six_heaps() -> None:
    with pytest.raises(InvalidPositionError, match="six heaps"):
        cn64_is_p((1, 2, 3))


@FAST
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_table_paths_match_the_plain_recursion(a: int, b: int) -> None:
    from nimlab.formulas.nimmul import _mul

    assert nimmul(a, b) == _mul(a, b, 32, tables=False)
    assert nimmul(a & 0xFFFF, b & 0xFFFF) == _mul(a & 0xFFFF, b & 0xFFFF, 16, tables=False)
