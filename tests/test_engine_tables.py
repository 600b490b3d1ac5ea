"""Engine tables: every compiled kernel equals the exact generic search (issue 6)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nimlab
from nimlab import InvalidParameterError, SearchTooLargeError, game, table
from nimlab.engine.tables import has_kernel

FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _same(g: nimlab.Ruleset, shape: tuple[int, ...]) -> None:  # type: ignore[type-arg]
    for kind in ("grundy", "outcome"):
        k = table(g, shape, kind=kind, engine="kernel")
        ref = table(g, shape, kind=kind, engine="generic")
        assert k.shape == ref.shape == shape
        np.testing.assert_array_equal(np.asarray(k), np.asarray(ref), err_msg=f"{g} {kind}")


def _same_misere(g: nimlab.Ruleset, shape: tuple[int, ...]) -> None:  # type: ignore[type-arg]
    k = table(g, shape, kind="misere")
    ref = table(g, shape, kind="misere", engine="generic")
    np.testing.assert_array_equal(np.asarray(k), np.asarray(ref), err_msg=f"{g} misere")


dims2 = st.tuples(st.integers(1, 9), st.integers(1, 9))
dims3 = st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5))


@FAST
@given(dims2)
def test_wythoff_kernel_equals_search(shape: tuple[int, int]) -> None:
    _same(game("wythoff"), shape)
    _same_misere(game("wythoff"), shape)


@FAST
@given(st.integers(1, 5), dims2)
def test_ryuo_kernel_equals_search(p: int, shape: tuple[int, int]) -> None:
    _same(game("ryuo", p=p), shape)
    _same_misere(game("ryuo", p=p), shape)


@FAST
@given(st.integers(1, 4), st.integers(1, 6), dims2)
def test_restricted_ryuo_kernel_equals_search(p: int, q: int, shape: tuple[int, int]) -> None:
    _same(game("restricted-ryuo", p=p, q=q), shape)
    _same_misere(game("restricted-ryuo", p=p, q=q), shape)


@FAST
@given(st.integers(1, 3), st.one_of(dims2, dims3))
def test_nimhoff_kernel_equals_search(k: int, shape: tuple[int, ...]) -> None:
    _same(game("nimhoff", k=k), shape)


@FAST
@given(st.integers(1, 4), st.one_of(dims2, dims3))
def test_moore_kernel_equals_search(k: int, shape: tuple[int, ...]) -> None:
    _same(game("moore", k=k), shape)
    _same_misere(game("moore", k=k), shape)


@FAST
@given(st.integers(1, 3), st.one_of(dims2, dims3))
def test_circular_kernel_equals_search(k: int, shape: tuple[int, ...]) -> None:
    g = game("circular", k=k)
    if k > len(shape):
        with pytest.raises(InvalidParameterError, match="consecutive heaps"):
            table(g, shape)
        return
    _same(g, shape)
    _same_misere(g, shape)


one_heap = st.one_of(
    st.just("nim"),
    st.sets(st.integers(1, 5), min_size=1, max_size=3).map(
        lambda s: "subtraction:" + ",".join(map(str, sorted(s)))
    ),
    st.sets(st.integers(1, 5), min_size=1, max_size=3).map(
        lambda s: "allbut:" + ",".join(map(str, sorted(s)))
    ),
)


@FAST
@given(
    st.sets(st.integers(1, 4), min_size=1, max_size=3),
    st.lists(one_heap, min_size=2, max_size=3),
    st.data(),
)
def test_rgames_kernel_equals_search(s0: set[int], parts: list[str], data: st.DataObject) -> None:
    g = game("rgames", g0="subtraction:" + ",".join(map(str, sorted(s0))), parts=";".join(parts))
    shape = data.draw(dims2 if len(parts) == 2 else dims3)
    assert has_kernel(g, len(parts))
    _same(g, shape)
    _same_misere(g, shape)


def test_lim_kernel_equals_search_and_majority() -> None:
    g = game("lim")
    _same(g, (5, 4, 6))
    _same_misere(g, (5, 4, 6))
    t = table(g, (9, 9, 9))
    a, b, c = np.indices(t.shape)
    # S19-T8: G(a, b, c) = ((a + b + c) - (a ^ b ^ c)) / 2, the bitwise majority
    np.testing.assert_array_equal(t, ((a + b + c) - (a ^ b ^ c)) // 2)


def test_delete_nim_kernel_equals_search_and_tail() -> None:
    g = game("delete-nim")
    _same(g, (9, 7))
    _same_misere(g, (9, 7))
    t = table(g, (40, 33))
    a, b = np.indices(t.shape)
    x = a | b
    tail = np.zeros_like(x)
    while (x & 1).any():
        tail += x & 1
        x = np.where(x & 1, x >> 1, 0)
    np.testing.assert_array_equal(t, tail)  # S19-T11: tail(a OR b)


def test_nim_kernel_is_xor_and_misere() -> None:
    t = table("nim", (8, 8, 8))
    a, b, c = np.indices(t.shape)
    np.testing.assert_array_equal(t, a ^ b ^ c)
    _same_misere(game("nim"), (4, 5, 3))
    _same_misere(game("nimhoff", k=1), (6, 7))


def test_one_heap_tables_use_the_sequence_kernels() -> None:
    g = game("subtraction", S="1,3,4")
    np.testing.assert_array_equal(table(g, 30), table(g, 30, engine="generic"))
    np.testing.assert_array_equal(
        table(g, 30, kind="outcome"), table(g, 30, kind="outcome", engine="generic")
    )
    k = game("octal", code="0.77")
    np.testing.assert_array_equal(table(k, (12,)), table(k, (12,), engine="generic"))


def test_generic_path_masks_invalid_positions() -> None:
    t = table("welter", (4, 4))
    assert isinstance(t, np.ma.MaskedArray)
    assert t.mask.diagonal().all() and not t.mask[0, 1]
    assert t[1, 2] == nimlab.grundy("welter", (1, 2), method="search")


def test_wythoff_table_matches_doc_and_p_positions() -> None:
    t = table("wythoff", 200, kind="outcome")
    phi = (1 + 5**0.5) / 2
    expected = np.zeros((200, 200), bool)
    for n in range(200):
        a, b = int(n * phi), int(n * phi) + n
        for x, y in ((a, b), (b, a)):
            if x < 200 and y < 200:
                expected[x, y] = True
    np.testing.assert_array_equal(t, expected)  # S18-T7
    assert table("wythoff", 64).dtype == np.uint8
    assert table("wythoff", 300).dtype == np.uint16


def test_bad_inputs_give_clear_errors() -> None:
    with pytest.raises(InvalidParameterError, match="exactly 2 heaps"):
        table("wythoff", (3, 3, 3))
    with pytest.raises(InvalidParameterError, match="at least 1"):
        table("wythoff", (0, 3))
    with pytest.raises(InvalidParameterError, match="tuple"):
        table("nim", 5)
    with pytest.raises(InvalidParameterError, match="kind"):
        table("nim", (2, 2), kind="grundyy")
    with pytest.raises(SearchTooLargeError, match="MiB"):
        table("wythoff", 1 << 20)
    with pytest.raises(SearchTooLargeError, match="max_positions"):
        table("welter", (300, 300, 300), engine="generic")
    with pytest.raises(InvalidParameterError, match="no compiled"):
        table("welter", (3, 3), engine="kernel")


# -- closed forms of the papers ------------------------------------------------------


@pytest.mark.parametrize("p", [1, 2, 3, 5])
def test_ryuo_table_equals_theorem_8(p: int) -> None:
    t = table(game("ryuo", p=p), (70, 61))
    x, y = np.indices(t.shape)
    np.testing.assert_array_equal(t, p * ((x // p) ^ (y // p)) + (x + y) % p)  # S18-T8


@pytest.mark.parametrize(("p", "q"), [(2, 4), (3, 6), (3, 9), (4, 8)])
def test_restricted_ryuo_table_equals_theorem_9(p: int, q: int) -> None:
    t = table(game("restricted-ryuo", p=p, q=q), (50, 47))
    x, y = np.indices(t.shape)
    expected = p * (((x % q) // p) ^ ((y % q) // p)) + (x + y) % p  # S18-T9
    np.testing.assert_array_equal(t, expected)


def test_rgame_example_2_equals_theorem_10() -> None:
    g = game("rgames", g0="subtraction:1,2,3", parts="allbut:8;allbut:4,8")
    t = table(g, (96, 80))
    x, y = np.indices(t.shape)
    g1 = x % 8 + 8 * (x // 16)  # All-but({8}), S18-T11
    g2 = y % 4 + 4 * (y // 12)  # All-but({4, 8}), m = 2k
    np.testing.assert_array_equal(t, 4 * ((g1 // 4) ^ (g2 // 4)) + (x + y) % 4)  # S18-T12


@pytest.mark.parametrize("k", [1, 2, 3])
def test_nimhoff_table_equals_formula(k: int) -> None:
    def op(a: np.ndarray, b: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
        return a ^ b ^ (((a >> k) & 1) & ((b >> k) & 1))

    t2 = table(game("nimhoff", k=k), (40, 37))
    x, y = np.indices(t2.shape)
    np.testing.assert_array_equal(t2, op(x, y))  # S19-T10
    t3 = table(game("nimhoff", k=k), (12, 11, 10))
    x, y, z = np.indices(t3.shape)
    np.testing.assert_array_equal(t3, op(op(x, y), z))


@pytest.mark.parametrize("k", [1, 2, 3])
def test_moore_misere_equals_theorem_2_10(k: int) -> None:
    shape = (6, 5, 4)
    t = table(game("moore", k=k), shape, kind="misere")
    idx = np.indices(shape)
    normal = np.ones(shape, bool)
    for bit in range(3):
        normal &= (((idx >> bit) & 1).sum(axis=0) % (k + 1)) == 0
    small = (idx <= 1).all(axis=0)
    ones = (idx == 1).sum(axis=0)
    expected = np.where(small, ones % (k + 1) == 1, normal)  # N99-T2.10
    np.testing.assert_array_equal(t, expected)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_moore_p_positions_equal_theorem_5(k: int) -> None:
    shape = (14, 13, 12)
    t = table(game("moore", k=k), shape, kind="outcome")
    idx = np.indices(shape)
    ok = np.ones(shape, bool)
    for bit in range(5):
        ok &= (((idx >> bit) & 1).sum(axis=0) % (k + 1)) == 0  # S19-T5
    np.testing.assert_array_equal(t, ok)
