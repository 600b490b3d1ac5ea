"""Small closed forms of ``nimlab.formulas`` on every small position, against search.

The searches here are a few lines written from the rules (no nimlab code): mutation
testing (docs/MUTATION.md) found criteria that were only tried on large random heaps,
where the small cases (all heaps at most 1, a heap of 2) never came up.
"""

from __future__ import annotations

import itertools
import re
from functools import cache

import pytest

from nimlab import InvalidParameterError, InvalidPositionError
from nimlab.catalog.circular.formulas import dihedral_images, dihedral_min
from nimlab.catalog.nimhoff.formulas import check_nimhoff_k
from nimlab.catalog.welter.formulas import welter_grundy
from nimlab.formulas.delete import abo_is_p, bit, tail, v2
from nimlab.formulas.moore import (
    digit_sums,
    misere_moore_is_p,
    moore_is_p,
    moore_string,
    nim_k_value,
)
from nimlab.formulas.nim import mex, misere_nim_is_p, nim_sum
from nimlab.formulas.nimmul import nim_square


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


def test_dihedral_min_is_the_least_reading_of_the_circle() -> None:
    import itertools

    for n in range(7):
        for t in itertools.product(range(3), repeat=n):
            assert dihedral_min(t) == min(dihedral_images(t), default=()), t


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


# -- one-heap games: exact periodicity and the periodicity proofs ------------------------
def grundy_by_search(S: set[int], allbut: bool, N: int) -> list[int]:
    """G(0..N-1) of Subtraction(S) (a move removes t in S) or All-but(S) (any t not in S),
    by the mex over the options, from the rules."""
    g: list[int] = []
    for n in range(N):
        ts = [t for t in range(1, n + 1) if (t not in S) == allbut]
        opts = {g[n - t] for t in ts}
        m = 0
        while m in opts:
            m += 1
        g.append(m)
    return g


def least_periodicity(g: list[int]) -> tuple[int, int, int]:
    """The least period p, then the least preperiod, and the saltus of G(n+p) = G(n)+s,
    read off a long prefix (the periods found are far below its length)."""
    N = len(g)
    for p in range(1, N // 4):
        s = g[N - 1] - g[N - 1 - p]
        if all(g[n + p] == g[n] + s for n in range(N // 2, N - p)):
            pre = N // 2
            while pre > 0 and g[pre - 1 + p] == g[pre - 1] + s:
                pre -= 1
            return pre, p, s
    raise AssertionError("no period in the prefix")


ONE_HEAP_SETS = [set(c) for r in range(0, 4) for c in itertools.combinations(range(1, 7), r)]


@pytest.mark.parametrize("allbut", [False, True], ids=["subtraction", "allbut"])
def test_periodicity_is_the_least_one_and_exact(allbut: bool) -> None:
    from nimlab.formulas.onepile import allbut_periodicity, subtraction_periodicity

    for S in ONE_HEAP_SETS:
        if not S and not allbut:
            continue
        g = grundy_by_search(S, allbut, 400)
        per = allbut_periodicity(S) if allbut else subtraction_periodicity(S)
        assert (per.preperiod, per.period, per.saltus) == least_periodicity(g), S
        assert len(per.values) == per.preperiod + per.period, S
        assert [per.grundy(n) for n in range(400)] == g, S


def test_minimise_finds_the_least_period_and_preperiod_of_any_sequence() -> None:
    """``_minimise`` is given a period that is a multiple of the least one and a start at
    or after the least preperiod (as the state-repetition search can give them)."""
    import random

    from nimlab.formulas.onepile import _minimise

    rng = random.Random(11)
    for _ in range(300):
        p, pre, s = rng.randrange(1, 6), rng.randrange(0, 5), rng.randrange(0, 4)
        block = [rng.randrange(4) for _ in range(p)]
        head = [rng.randrange(4) for _ in range(pre)]
        seq = head + [block[i % p] + (i // p) * s for i in range(12 * p)]
        want = least_periodicity(seq)
        k, extra = rng.randrange(1, 4), rng.randrange(0, 3)
        start = want[0] + extra
        g = seq[: start + k * want[1] + rng.randrange(0, k * want[1] + 1)]
        got = _minimise(g, start, k * want[1], k * want[2])
        assert (got.preperiod, got.period, got.saltus) == want, (seq, start, k)
        assert list(got.values) == seq[: want[0] + want[1]]
        assert [got.grundy(n) for n in range(len(seq))] == seq
        big = 10**30 + rng.randrange(100)
        q, r = divmod(big - want[0], want[1])
        assert type(got.saltus) is int and got.grundy(big) == seq[want[0] + r] + q * want[2]


def test_periodicity_search_gives_up_after_max_steps_heaps() -> None:
    """The search looks at heaps m, m+1, … (m = max S) until a window of m values repeats;
    it succeeds exactly when max_steps covers the heaps it had to look at."""
    from nimlab import SearchTooLargeError
    from nimlab.formulas.onepile import subtraction_periodicity

    for S in ONE_HEAP_SETS[1:]:
        m = max(S)
        g = grundy_by_search(S, False, 400)
        first_repeat = next(
            n
            for n in range(m, 400)
            if tuple(g[n - m : n]) in {tuple(g[j - m : j]) for j in range(m, n)}
        )
        looked = first_repeat - m  # heaps m .. first_repeat - 1 were looked at
        assert subtraction_periodicity(S, max_steps=looked - 1).period >= 1, S
        if looked >= 2:
            with pytest.raises(
                SearchTooLargeError,
                match="^"
                + re.escape(
                    f"Subtraction({sorted(S)}): no period found within {looked - 2:,} heaps"
                )
                + "$",
            ):
                subtraction_periodicity(S, max_steps=looked - 2)


def test_one_heap_errors_say_what_is_wrong() -> None:
    from nimlab.formulas.onepile import allbut_periodicity, subtraction_periodicity

    with pytest.raises(
        ValueError,
        match=r"^Subtraction: the set must contain positive integers only, got \[0, 2\]$",
    ):
        subtraction_periodicity({2, 0})
    with pytest.raises(
        ValueError, match=r"^All-but: the set must contain positive integers only, got \[-1\]$"
    ):
        allbut_periodicity({-1})
    with pytest.raises(ValueError, match=r"^Subtraction\(S\) needs a non-empty S$"):
        subtraction_periodicity(set())
    with pytest.raises(ValueError, match=r"^heap sizes are >= 0, got -1$"):
        allbut_periodicity({2}).grundy(-1)


def test_allbut_periodicity_proof_is_sound_and_proves_the_exact_periodicity() -> None:
    """Every periodicity the all-but induction calls proved holds (against search to heap
    300); every period seen on the data is tried; the exact periodicity of All-but(S) is
    proved from the number of terms it says it needs, and not from one term fewer."""
    from nimlab.formulas.onepile import allbut_periodicity, allbut_periodicity_proof

    proved_false = 0
    for S in ONE_HEAP_SETS:
        g = grundy_by_search(S, True, 300)
        per = allbut_periodicity(S)
        t = max(S, default=0)
        need = per.preperiod + t + per.period
        ok, reason, n_need = allbut_periodicity_proof(
            g[:need], per.preperiod, per.period, per.saltus, S
        )
        assert (ok, n_need) == (True, need), (S, reason)
        assert reason == (
            f"all-but induction: G(n+{per.period}) = G(n)+{per.saltus} for {per.preperiod} <= n "
            f"< {need - per.period}, options of n+p are those of n shifted by the saltus"
        )
        assert allbut_periodicity_proof(
            g[: need - 1], per.preperiod, per.period, per.saltus, S
        ) == (
            False,
            f"the all-but theorem needs {need} terms",
            need,
        ), S
        for n0, p in itertools.product(range(0, 5), range(1, 9)):
            for length in (n0 + t + p, n0 + t + p + 3, n0 + t + 2 * p + 6):
                data = g[:length]
                s = data[-1] - data[-1 - p] if length > p else 0
                if not all(data[m + p] == data[m] + s for m in range(n0, length - p)):
                    continue
                ok, reason, _ = allbut_periodicity_proof(data, n0, p, s, S)
                holds = all(g[m + p] == g[m] + s for m in range(n0, 300 - p))
                assert holds or not ok, (S, n0, p, s, length)
                if not ok:
                    assert reason == "the all-but induction conditions fail on this data"
                proved_false += not holds
    assert proved_false > 0  # wrong candidates were tried (and refused)


def test_subtraction_periodicity_proof_needs_n0_plus_max_s_plus_p_terms() -> None:
    from nimlab.formulas.onepile import subtraction_periodicity, subtraction_periodicity_proof

    for S in ONE_HEAP_SETS[1:]:
        per = subtraction_periodicity(S)
        need = per.preperiod + max(S) + per.period
        assert subtraction_periodicity_proof(need, per.preperiod, per.period, 0, S) == (
            True,
            f"subtraction periodicity: G(n+{per.period}) = G(n) for {per.preperiod} <= n "
            f"< {per.preperiod + max(S)}",
            need,
        )
        short = (False, f"the subtraction theorem needs {need} terms", need)
        assert subtraction_periodicity_proof(need - 1, per.preperiod, per.period, 0, S) == short
        # a Subtraction game is never arithmetic-periodic with a saltus
        assert subtraction_periodicity_proof(need + 9, per.preperiod, per.period, 1, S) == (
            False,
            f"the subtraction theorem needs {need} terms",
            need,
        )


# -- nim multiplication: the log/exp tables built from scratch, the rarely taken branches,
# and the messages (the tables are built once per process and cached, so a test that
# only multiplies never checks how they are built) -------------------------------------
def nim_product_reference(x: int, y: int) -> int:
    """The nim product by the textbook Fermat 2-power rule, written independently:
    with F = 2^h, x = x1·F ⊕ x0, y = y1·F ⊕ y0, F⊗F = F ⊕ F/2 and z⊗F = z·F for z < F,
    x⊗y = (x0y1 ⊕ x1y0 ⊕ x1y1)·F ⊕ x0y0 ⊕ (x1y1)⊗(F/2)."""
    if x < 2 or y < 2:
        return x * y
    h = 1
    while max(x, y) >= 1 << (2 * h):
        h *= 2
    mask = (1 << h) - 1
    x1, x0, y1, y0 = x >> h, x & mask, y >> h, y & mask
    c = nim_product_reference(x1, y1)
    high = nim_product_reference(x0, y1) ^ nim_product_reference(x1, y0) ^ c
    return (high << h) ^ nim_product_reference(x0, y0) ^ nim_product_reference(c, 1 << (h - 1))


def test_nim_tables_built_from_scratch_give_the_nim_product(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import random

    from nimlab.formulas import nimmul as nm

    for name in ("_EXP", "_LOG", "_EXP16", "_LOG16"):
        monkeypatch.setattr(nm, name, None)
    for a in range(256):
        for b in (2, 3, 77, 128, 255):
            assert nm.nimmul(a, b) == nim_product_reference(a, b), (a, b)
        if a:
            assert nm.nimmul(a, nm.nim_inverse(a)) == 1, a
    exp, log = nm._tables16()
    assert len(exp) == 2 * 65535 + 1 and exp[65535:131070] == exp[:65535]
    assert sorted(exp[:65535]) == list(range(1, 65536))
    assert all(log[exp[i]] == i for i in range(65535))
    for i in range(0, 65535, 97):
        assert exp[i + 1] == nim_product_reference(exp[i], 258), i
    rng = random.Random(7)
    for _ in range(100):
        a, b = rng.randrange(1 << 16), rng.randrange(1 << 16)
        assert nm.nimmul(a, b) == nim_product_reference(a, b), (a, b)
        assert nm.nim_square(a) == nim_product_reference(a, a), a
        if a:
            assert nim_product_reference(a, nm.nim_inverse(a)) == 1, a
    for _ in range(30):
        a, b = rng.randrange(1 << 64), rng.randrange(1 << 64)
        assert nm.nimmul(a, b) == nim_product_reference(a, b), (a, b)
        assert nm.nim_square(a) == nim_product_reference(a, a), a


def test_nim_inverse_of_elements_of_norm_one() -> None:
    """x ⊘ conj(x) has norm 1 over the half field, so inverting it takes the branch where the
    norm has no high half (conj(x1·F ⊕ x0) = x1·F ⊕ x0 ⊕ x1)."""
    import random

    from nimlab.formulas.nimmul import nim_div, nim_inverse

    rng = random.Random(3)
    for bits in (32, 64, 128):
        for _ in range(20):
            x = rng.randrange(1 << (bits - 1), 1 << bits)
            a = nim_div(x, x ^ (x >> (bits // 2)))
            inv = nim_inverse(a)
            assert nim_product_reference(a, inv) == 1, (bits, a)
            assert nim_div(1, a) == inv


def test_nim_arithmetic_names_the_bad_argument() -> None:
    from nimlab.formulas.nimmul import (
        nim_div,
        nim_inverse,
        nim_product_table,
        nimmul,
        nimmul_by_mex,
    )

    cases = [
        (lambda: nimmul(3, -1), "b is -1"),
        (lambda: nimmul(-2, 3), "a is -2"),
        (lambda: nim_inverse(-1), "a is -1"),
        (lambda: nim_div(-1, 2), "a is -1"),
        (lambda: nim_div(2, -1), "b is -1"),
        (lambda: nim_product_table(-1), "n is -1"),
        (lambda: nimmul_by_mex(-1, 2), "a is -1"),
        (lambda: nimmul_by_mex(2, -1), "b is -1"),
    ]
    for call, start in cases:
        with pytest.raises(
            InvalidParameterError,
            match=rf"^{start}: nim arithmetic is defined on non-negative integers$",
        ):
            call()
    with pytest.raises(InvalidParameterError, match=r"^b must be a non-negative integer, got 'x'$"):
        nimmul(2, "x")  # type: ignore[arg-type]
    with pytest.raises(
        ZeroDivisionError, match=r"^cannot nim-divide 5 by 0 \(0 has no nim inverse\)$"
    ):
        nim_div(5, 0)


def test_mex_table_limit_is_inclusive(monkeypatch: pytest.MonkeyPatch) -> None:
    from nimlab.formulas import nimmul as nm

    monkeypatch.setattr(nm, "MEX_LIMIT", 8)
    t = nm.nim_product_table(8)
    assert t == [[nim_product_reference(a, b) for b in range(8)] for a in range(8)]
    assert nm.nimmul_by_mex(7, 7) == nim_product_reference(7, 7)
    with pytest.raises(
        InvalidParameterError,
        match=r"^nim_product_table\(9\) by the mex definition is too slow; use n <= 8 or nimmul for single products$",
    ):
        nm.nim_product_table(9)


def test_allbut_search_gives_up_after_max_steps_heaps() -> None:
    """All-but(S): the state at heap n is the window G(n−m..n−1) measured from
    M = 1 + max G(j < n−m) and clipped at −1 (module docstring); the search succeeds
    exactly when max_steps covers the heaps looked at before a state repeats."""
    from nimlab import SearchTooLargeError
    from nimlab.formulas.onepile import allbut_periodicity

    for S in [*ONE_HEAP_SETS, {1, 4, 7, 8}]:  # the last: a state first repeats after 19 heaps
        m = max(S, default=0)
        g = grundy_by_search(S, True, 400)

        def state(n: int, g: list[int] = g, m: int = m) -> tuple[int, ...]:
            base = 1 + max(g[: n - m], default=-1)
            return tuple(max(g[n - t] - base, -1) for t in range(1, m + 1))

        first_repeat = next(n for n in range(m, 400) if state(n) in {state(j) for j in range(m, n)})
        looked = first_repeat - m
        assert allbut_periodicity(S, max_steps=looked - 1).period >= 1, S
        if looked >= 2:
            msg = f"All-but({sorted(S)}): no arithmetic period found within {looked - 2:,} heaps"
            with pytest.raises(SearchTooLargeError, match="^" + re.escape(msg) + "$"):
                allbut_periodicity(S, max_steps=looked - 2)


@pytest.mark.parametrize("S", [*ONE_HEAP_SETS, {1, 3, 4, 7}, {2, 3, 5, 7}], ids=str)
def test_allbut_periodicity_proof_proves_every_true_periodicity_from_later_starts(
    S: set[int],
) -> None:
    """A periodicity that holds (checked against search) is also proved when it is claimed
    from a later start n0, or with a multiple of the least period, given 3 terms more than
    the minimum (All-but(∅) is Nim: G(n+1) = G(n)+1 from every n0)."""
    from nimlab.formulas.onepile import allbut_periodicity_proof

    g = grundy_by_search(S, True, 300)
    pre, period, saltus = least_periodicity(g)
    t = max(S, default=0)
    for n0 in range(pre, pre + 5):
        for k in (1, 2):
            p, s = period * k, saltus * k
            assert all(g[m + p] == g[m] + s for m in range(n0, 300 - p))
            for extra in (3, p + 3):
                ok, reason, _ = allbut_periodicity_proof(g[: n0 + t + p + extra], n0, p, s, S)
                assert ok, (S, n0, p, s, extra, reason)


@pytest.mark.timeout(10)  # a heap of 0 let through would loop forever on its 2-adic valuation
def test_single_delete4_refuses_a_heap_below_1_in_every_place() -> None:
    from nimlab.formulas.delete import single_delete4_is_p

    for place in range(4):
        for bad in (0, -3):
            heaps = [5, 6, 7, 9]
            heaps[place] = bad
            with pytest.raises(ValueError, match=r"^single-delete heaps are positive integers$"):
                single_delete4_is_p(*heaps)
