"""Small closed forms of ``nimlab.formulas`` on every small position, against search.

The searches here are a few lines written from the rules (no nimlab code): mutation
testing (docs/MUTATION.md) found criteria that were only tried on large random heaps,
where the small cases (all heaps at most 1, a heap of 2) never came up.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from nimlab import InvalidParameterError, InvalidPositionError
from nimlab.formulas.circular import dihedral_images
from nimlab.formulas.delete import abo_is_p, bit, tail, v2
from nimlab.formulas.moore import (
    digit_sums,
    misere_moore_is_p,
    moore_is_p,
    moore_string,
    nim_k_value,
)
from nimlab.formulas.nim import mex, misere_nim_is_p, nim_sum
from nimlab.formulas.nimhoff import check_nimhoff_k
from nimlab.formulas.nimmul import nim_square
from nimlab.formulas.welter import welter_grundy


@cache
def nimk_outcome(heaps: tuple[int, ...], K: int, misere: bool) -> bool:
    """P (True) or N of Nim_K by search: a move lowers 1..K heaps; with no move, the
    player to move loses (normal play) or wins (misère)."""
    options = set()
    n = len(heaps)
    for chosen in itertools.combinations(range(n), min(K, n)):
        for vals in itertools.product(*(range(heaps[i] + 1) for i in chosen)):
            new = list(heaps)
            for i, v in zip(chosen, vals, strict=True):
                new[i] = v
            options.add(tuple(sorted(new)))
    options.discard(tuple(sorted(heaps)))
    if not options:
        return not misere
    return not any(nimk_outcome(o, K, misere) for o in options)


SMALL = [p for n in range(1, 5) for p in itertools.combinations_with_replacement(range(5), n)]


def test_nim_normal_and_misere_criteria_match_search() -> None:
    for pos in SMALL:
        assert (nim_sum(pos) == 0) == nimk_outcome(pos, 1, False), pos
        assert misere_nim_is_p(pos) == nimk_outcome(pos, 1, True), pos
        assert misere_nim_is_p(list(pos)) == misere_nim_is_p(iter(pos)), pos  # any iterable


@pytest.mark.parametrize("K", [1, 2, 3])
def test_moore_normal_and_misere_criteria_match_search(K: int) -> None:
    for pos in SMALL:
        assert moore_is_p(pos, K) == nimk_outcome(pos, K, False), pos
        assert (nim_k_value(pos, K) == 0) == nimk_outcome(pos, K, False), pos
        assert misere_moore_is_p(pos, K) == nimk_outcome(pos, K, True), pos


def test_moore_string_digits_and_separator() -> None:
    # k + 1 = 10: every digit sum is a single decimal digit, no separator
    assert moore_string([1] * 9, 9) == "9"
    assert moore_string([1] * 9 + [2] * 3, 9) == "39"  # digit 1: three; digit 0: nine
    assert moore_string([3] * 9, 9) == "99"
    # k + 1 = 11: a digit can be 10, so digits are separated
    assert moore_string([3] * 10, 10) == "10,10"
    assert moore_string([2, 1], 10) == "1,1"


def test_nim_k_value_is_base_k_plus_1() -> None:
    assert nim_k_value([3] * 9, 9) == 99
    assert nim_k_value([3] * 10, 10) == 10 * 11 + 10


def test_empty_positions() -> None:
    assert nim_sum([]) == 0 and nim_sum(iter([])) == 0
    assert moore_is_p([], 2) and not misere_nim_is_p([])


def test_mex() -> None:
    assert mex([]) == 0
    assert mex([1, 2]) == 0
    assert mex([0, 1, 3]) == 2
    assert mex(iter([2, 0, 1, 0])) == 3


def test_nim_square_names_its_argument() -> None:
    with pytest.raises(InvalidParameterError, match=r"^a is -1: nim arithmetic"):
        nim_square(-1)
    with pytest.raises(InvalidParameterError, match=r"^a must be a non-negative integer"):
        nim_square("x")  # type: ignore[arg-type]


# -- small helpers of formulas.delete and formulas.circular, called directly -------------
def test_tail_v2_and_bit_against_their_definitions() -> None:
    for z in range(0, 300):
        s = format(z, "b")
        assert tail(z) == len(s) - len(s.rstrip("1")), z
        for k in range(1, 12):
            assert bit(z, k) == (int(s[-k]) if k <= len(s) else 0), (z, k)
        if z:
            assert v2(z) == len(s) - len(s.rstrip("0")), z
    assert bit(1, 1) == 1 and bit(2, 1) == 0 and bit(2, 2) == 1


def test_helpers_refuse_out_of_range_arguments_with_a_message() -> None:
    with pytest.raises(ValueError, match=r"tail is defined for integers >= 0, got -1"):
        tail(-1)
    with pytest.raises(ValueError, match=r"v2 is defined for positive integers, got 0"):
        v2(0)
    with pytest.raises(ValueError, match=r"binary digits are numbered from 1, got k=0"):
        bit(5, 0)
    with pytest.raises(ValueError, match=r"ABO-delete Nim has at least 2 heaps, got 1"):
        abo_is_p([3])


def test_dihedral_images_are_the_12_readings_of_the_circle() -> None:
    t = (1, 2, 3, 4, 5, 6)
    images = list(dihedral_images(t))
    assert len(images) == 12 and len(set(images)) == 12
    assert images[0] == t and images[1] == t[::-1]
    assert (2, 1, 6, 5, 4, 3) in images  # counter-clockwise from 2
    assert set(images) == {
        tuple(t[(s + d * i) % 6] for i in range(6)) for s in range(6) for d in (1, -1)
    }


# -- parameter checks of the formulas, called directly (the games coerce their parameters
# first, so these branches are reached only from Python) ------------------------------
@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "2"])
def test_moore_formulas_refuse_a_bad_k_with_the_reason(bad: object) -> None:
    msg = r"^k must be an integer >= 1 \(the number of heaps a move may touch\), got "
    for f in (moore_is_p, moore_string, nim_k_value, misere_moore_is_p):
        with pytest.raises(InvalidParameterError, match=msg + repr(bad)):
            f([1, 2], bad)  # type: ignore[arg-type]


def test_moore_refuses_a_negative_heap_with_its_value() -> None:
    with pytest.raises(InvalidParameterError, match=r"^heap -3 is negative; heaps are integers"):
        digit_sums([2, -3], 3)


@pytest.mark.parametrize("bad", [True, 1.5, "2", None])
def test_nimhoff_k_must_be_an_integer(bad: object) -> None:
    with pytest.raises(InvalidParameterError, match=r"^parameter k of nimhoff must be an integer"):
        check_nimhoff_k(bad)
    assert check_nimhoff_k(3) == 3


def test_welter_formula_says_why_equal_heaps_are_refused() -> None:
    with pytest.raises(
        InvalidPositionError,
        match=r"heaps 1 and 3 are both 2, but heaps must be pairwise distinct$",
    ):
        welter_grundy([2, 5, 2])
