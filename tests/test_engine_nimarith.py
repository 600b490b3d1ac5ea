"""Engine nim arithmetic: 64-bit kernels against the exact big-int reference (issue 6)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nimlab
from nimlab import InvalidParameterError
from nimlab.engine.nimarith import (
    nim_div64,
    nim_inverse64,
    nim_square64,
    nimmul64,
    nimmul_array,
)
from nimlab.formulas.nimmul import nimmul as exact
from nimlab.formulas.nimmul import nimmul_by_mex

u64 = st.integers(0, 2**64 - 1)


def test_table_0_to_15_equals_the_mex_definition() -> None:
    table = [[nimmul64(a, b) for b in range(16)] for a in range(16)]
    assert table == [[nimmul_by_mex(a, b) for b in range(16)] for a in range(16)]
    # Conway, On Numbers and Games, ch. 6: the row of 2 and the squares of Fermat 2-powers
    assert table[2] == [0, 2, 3, 1, 8, 10, 11, 9, 12, 14, 15, 13, 4, 6, 7, 5]
    assert (table[4][4], table[8][8], nimmul64(16, 16)) == (6, 13, 24)
    assert nimmul64(2**32, 2**32) == 3 * 2**31  # as nim_product64.c checks


@settings(max_examples=200, deadline=None)
@given(u64, u64)
def test_scalar_kernel_equals_exact(a: int, b: int) -> None:
    assert nimmul64(a, b) == exact(a, b)
    assert nim_square64(a) == exact(a, a)
    if b:
        q = nim_div64(a, b)
        assert exact(q, b) == a
        assert exact(nim_inverse64(b), b) == 1


def test_vectorised_random_products_equal_exact() -> None:
    rng = np.random.default_rng(2026)
    a = rng.integers(0, 2**64, 3000, dtype=np.uint64)
    b = rng.integers(0, 2**64, 3000, dtype=np.uint64)
    r = nimlab.nimmul(a, b)
    assert r.dtype == np.uint64
    assert [int(x) for x in r] == [exact(int(x), int(y)) for x, y in zip(a, b, strict=True)]
    inv = nimlab.nim_inverse(a[a != 0])
    assert all(exact(int(x), int(y)) == 1 for x, y in zip(a[a != 0], inv, strict=True))
    sq = nimlab.nim_square(a.reshape(30, 100))
    assert sq.shape == (30, 100)
    assert int(sq[3, 7]) == exact(int(a[307]), int(a[307]))
    d = nimlab.nim_div(a, b[b != 0][0])
    assert int(d[5]) == exact(int(a[5]), nimlab.nim_inverse(int(b[b != 0][0])))
    # broadcasting and plain int arrays
    assert nimmul_array(np.arange(4), np.uint64(2)).tolist() == [0, 2, 3, 1]


def test_public_api_on_big_ints() -> None:
    assert nimlab.nimmul(2**64, 2**64) == 2**64 + 2**63
    x = 3**90
    assert nimlab.nimmul(x, nimlab.nim_inverse(x)) == 1
    assert nimlab.nim_div(nimlab.nimmul(x, 12345), 12345) == x
    assert nimlab.nim_square(2**128) == nimlab.nimmul(2**128, 2**128)


def test_errors() -> None:
    with pytest.raises(ZeroDivisionError):
        nimlab.nim_inverse(np.array([1, 0], dtype=np.uint64))
    with pytest.raises(InvalidParameterError):
        nimlab.nim_div(np.array([1], dtype=np.uint64), np.uint64(0))
    with pytest.raises(InvalidParameterError, match="negative"):
        nimlab.nimmul(np.array([-1]), np.array([2]))
    with pytest.raises(InvalidParameterError, match="dtype"):
        nimlab.nimmul(np.array([1.5]), np.array([2]))
    with pytest.raises(InvalidParameterError, match="2\\^64"):
        nimmul64(2**64, 1)
    with pytest.raises(InvalidParameterError):
        nimlab.nimmul(-1, 3)
