"""Local check: planted wrong formulas are caught with the smallest counterexample."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nimlab
from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import HeapRuleset
from nimlab.solvers.search import Solver
from nimlab.verification import BoxSpace, TotalSpace, heap_space, local_check, verify
from nimlab.verification.chunks import check_chunk
from nimlab.verification.expr import parse_expression
from nimlab.verification.local import ExprClaim
from nimlab.verification.runner import CheckSpec, run_spec


@dataclass(frozen=True)
class Nimhoff0(HeapRuleset):
    """The k = 0 rules of Nimhoff (refused by the catalog): a Nim move, or 1 from two heaps."""

    name = "nimhoff0-test"

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        n = len(position)
        for i, h in enumerate(position):
            for v in range(h):
                yield position[:i] + (v,) + position[i + 1 :]
        for i, j in itertools.combinations(range(n), 2):
            if position[i] >= 1 and position[j] >= 1:
                p = list(position)
                p[i] -= 1
                p[j] -= 1
                yield tuple(p)


@dataclass(frozen=True)
class Adder(HeapRuleset):
    """A game whose moves add stones (no bounded space is move-closed)."""

    name = "adder-test"
    n_heaps = 2

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        a, b = position
        if a > 0:
            yield (a - 1, b + 2)


def first_mismatch(game: Any, positions: Any, f: Any, kind: str = "grundy") -> Any:
    """Brute force: the first position (in order) where f disagrees with exhaustive search."""
    s = Solver(game)
    for p in positions:
        true = s.grundy(p, "search") if kind == "grundy" else s.is_p(p, misere=kind == "misere")
        claimed = f(*p)
        claimed = claimed if kind == "grundy" else bool(claimed)
        if claimed != true:
            return p, claimed, true
    return None


def test_planted_nimhoff_k0_is_caught() -> None:
    g = Nimhoff0()
    expr = "a ^ b ^ ((a & b) & 1)"
    r = verify(g, expr, bound=12, heaps=2, workers=2, chunk_size=24)
    assert not r.ok and r.result == "FAILED"
    want = first_mismatch(
        g, itertools.product(range(12), repeat=2), lambda a, b: a ^ b ^ (a & b & 1)
    )
    assert want is not None
    cex = r.counterexample
    assert (cex.position, cex.claimed, cex.actual) == want
    assert cex.position == (1, 1)
    assert "f(q) = f(p)" in cex.detail or "missing" in cex.detail
    # a user's order-free game: one position per multiset, by largest heap; checked are
    # everything before the counterexample in that order, (0, 0) and (0, 1), plus it
    assert r.positions_checked == 3


def test_planted_nimhoff_k0_three_heaps_serial_equals_pool() -> None:
    g = Nimhoff0()
    expr = "a ^ b ^ c ^ ((a & b & 1) * (1 - (c & 1)))"
    r1 = verify(g, expr, bound=6, heaps=3, workers=1, chunk_size=36)
    r2 = verify(g, expr, bound=6, heaps=3, workers=2, chunk_size=36)
    f = parse_expression(expr, 3).function()
    want = first_mismatch(g, itertools.product(range(6), repeat=3), lambda *p: f(p))
    assert want is not None
    for r in (r1, r2):
        assert (
            r.counterexample.position,
            r.counterexample.claimed,
            r.counterexample.actual,
        ) == want
    assert r1.positions_checked == r2.positions_checked


def test_planted_lim_bit_flip() -> None:
    lim = nimlab.game("lim")
    r = verify(lim, "((a+b+c)-(a^b^c))//2 ^ 1", bound=9, workers=1)
    space = heap_space(lim, 9)
    assert isinstance(space, TotalSpace)  # Lim moves raise a heap: the total is bounded
    order = [p for i in range(space.n_chunks) for p in space.chunk(i)]
    want = first_mismatch(lim, order, lambda a, b, c: ((a + b + c) - (a ^ b ^ c)) // 2 ^ 1)
    assert want is not None
    assert (r.counterexample.position, r.counterexample.claimed, r.counterexample.actual) == want
    ok = verify(lim, "((a+b+c)-(a^b^c))//2", bound=9, workers=1)
    assert ok.ok and ok.positions_checked == len(order)


@pytest.mark.parametrize(
    "expr", ["a ^ b ^ 1", "a ^ b ^ (a & b & 4)", "a ^ b ^ (a == 5 and b == 6)", "a | b"]
)
def test_planted_nim_vectorised_and_python_agree(expr: str) -> None:
    nim = nimlab.game("nim")
    r = verify(nim, expr, bound=16, heaps=2, workers=1)
    assert r.method == "vectorised"
    f = parse_expression(expr, 2).function()
    want = first_mismatch(nim, itertools.product(range(16), repeat=2), lambda *p: f(p))
    assert want is not None
    assert (r.counterexample.position, r.counterexample.claimed, r.counterexample.actual) == want
    spec = CheckSpec(
        nim, "grundy", ExprClaim(parse_expression(expr, 2)), heap_space(nim, 16, 2), expr, 16
    )
    slow = run_spec(spec, workers=1)
    assert slow.method == "python"
    assert slow.counterexample.position == want[0]
    assert slow.positions_checked == r.positions_checked
    assert slow.counterexample.detail == r.counterexample.detail


def test_wrong_nim_three_heaps() -> None:
    r = verify("nim", "a ^ b ^ c ^ 1", bound=5, workers=1)
    assert r.counterexample.position == (0, 0, 0)
    assert (r.counterexample.claimed, r.counterexample.actual) == (1, 0)
    assert "value 0 is missing" in r.counterexample.detail


def test_ryuo_vectorised_matches_python_and_search() -> None:
    g = nimlab.game("ryuo", p=3)
    good = "3*((a//3)^(b//3)) + (a+b)%3"
    r = verify(g, good, bound=40, workers=1)
    assert r.ok and r.method == "vectorised" and r.positions_checked == 1600
    bad = good + " + (a == 17 and b == 9)"
    rv = verify(g, bad, bound=40, workers=1, chunk_size=200)
    f = parse_expression(bad, 2).function()
    want = first_mismatch(g, itertools.product(range(40), repeat=2), lambda *p: f(p))
    assert (rv.counterexample.position, rv.counterexample.claimed, rv.counterexample.actual) == want
    spec = CheckSpec(g, "grundy", ExprClaim(parse_expression(bad, 2)), heap_space(g, 40), bad, 40)
    rp = run_spec(spec, workers=1)
    assert rp.counterexample.position == want[0] and rp.positions_checked == rv.positions_checked


def test_restricted_ryuo_and_wythoff_kernels() -> None:
    rr = nimlab.game("restricted-ryuo", p=2, q=4)
    r = verify(rr, "2*(((a%4)//2)^((b%4)//2)) + (a+b)%2", bound=30, workers=1)
    assert r.ok and r.method == "vectorised"
    w = nimlab.game("wythoff")
    # P-set of Wythoff: a wrong guess (the diagonal) is refused at (1, 1)
    rw = verify(w, p_set="a == b", bound=20, workers=1)
    assert rw.method == "vectorised" and rw.counterexample.position == (1, 1)
    assert rw.counterexample.actual is False


def test_p_sets_and_misere() -> None:
    nim = nimlab.game("nim")
    assert verify(nim, p_set="a == b", bound=10, heaps=2, workers=1).ok
    r = verify(nim, p_set="a == b or a + b == 3", bound=10, heaps=2, workers=1)
    want = first_mismatch(
        nim, itertools.product(range(10), repeat=2), lambda a, b: a == b or a + b == 3, "p"
    )
    assert r.counterexample.position == want[0] == (0, 3)
    from nimlab.formulas.nim import misere_nim_is_p

    assert verify(nim, p_set=misere_nim_is_p, misere=True, bound=5, workers=1).ok
    bad = verify(nim, p_set="a ^ b ^ c == 0", misere=True, bound=5, workers=2)
    assert bad.counterexample.position == (0, 0, 0)
    assert "terminal" in bad.counterexample.detail and bad.counterexample.actual is False


def test_callable_formulas_and_positions() -> None:
    r = verify("nim", lambda a, b: a ^ b, bound=9, heaps=2, workers=2)
    assert r.ok and r.positions_checked == 81
    r2 = verify("nim", lambda p: p[0] + p[1], bound=9, heaps=2, workers=1)
    assert r2.counterexample.position == (1, 1)
    sub = nimlab.game("subtraction", S={1, 3, 4})
    r3 = verify(sub, lambda n: [0, 1, 0, 1, 2, 3, 2][n % 7], positions=[(n,) for n in range(50)])
    assert r3.ok and r3.positions_checked == 50
    fail = local_check(sub, [(n,) for n in range(20)], formula=lambda n: n % 7)
    assert fail is not None and fail.position == (2,)


def test_theorem_local_equals_search() -> None:
    for tid, bound in (("S19-T1", 8), ("N99-T1.11", 6), ("S18-T7", 30), ("S18-T8", 15)):
        local = nimlab.check_theorem(tid, bound)
        search = nimlab.check_theorem(tid, bound, method="search")
        assert local.ok and search.ok
        assert local.method.startswith("local")
        assert local.positions_checked == search.positions_checked


def test_spaces_partition_and_validate() -> None:
    s = BoxSpace(3, 5, rows=2)
    got = [p for i in range(s.n_chunks) for p in s.chunk(i)]
    assert got == list(itertools.product(range(5), repeat=3))
    welter = nimlab.game("welter")
    sp = heap_space(welter, 6, 3)
    assert sum(1 for i in range(sp.n_chunks) for _ in sp.chunk(i)) == 6 * 5 * 4
    r = verify(welter, "a ^ b ^ c", bound=6, workers=1)
    assert not r.ok  # Welter's game is not Nim: M(x, y) terms are missing


def test_move_closedness_is_enforced() -> None:
    with pytest.raises(InvalidParameterError, match="adds stones"):
        verify(Adder(), "a", bound=5)
    with pytest.raises(InvalidParameterError, match="not move-closed"):
        verify("nim", "a ^ b", positions=[(2, 2), (1, 2)])


def test_parameter_errors() -> None:
    with pytest.raises(InvalidParameterError):
        verify("nim", "a", p_set="a", bound=3)
    with pytest.raises(InvalidParameterError):
        verify("nim", "a ^ b", bound=0)
    with pytest.raises(InvalidParameterError, match="exactly 2 heaps"):
        verify(nimlab.game("ryuo", p=3), "a", bound=3, heaps=3)
    with pytest.raises(
        InvalidParameterError, match=r"cannot be evaluated at \(0, 0\): integer division"
    ):
        verify("nim", "a // b", bound=3, heaps=2, workers=1)


def test_chunk_is_reproducible() -> None:
    nim = nimlab.game("nim")
    spec = CheckSpec(
        nim,
        "grundy",
        ExprClaim(parse_expression("a^b^c", 3)),
        heap_space(nim, 7, chunk_size=50),
        "x",
        7,
    )
    a = [check_chunk(spec, i).count for i in range(spec.space.n_chunks)]
    b = [check_chunk(spec, i).count for i in range(spec.space.n_chunks)]
    assert a == b and sum(a) == 343 and len(a) > 1


def test_random_formulas_against_brute_force() -> None:
    rng = random.Random(7)
    nim = nimlab.game("nim")
    for _ in range(6):
        k = rng.randrange(1, 8)
        expr = f"a ^ b ^ (a & b & {k})"
        r = verify(nim, expr, bound=10, heaps=2, workers=1)
        f = parse_expression(expr, 2).function()
        want = first_mismatch(nim, itertools.product(range(10), repeat=2), lambda *p, f=f: f(p))
        assert (r.counterexample.position if r.counterexample else None) == (
            want[0] if want else None
        )


@settings(max_examples=25, deadline=None)
@given(
    x0=st.integers(0, 11),
    y0=st.integers(0, 11),
    game_name=st.sampled_from(["nim", "ryuo2"]),
    delta=st.integers(1, 3),
)
def test_planted_single_error_is_found_exactly(
    x0: int, y0: int, game_name: str, delta: int
) -> None:
    if game_name == "nim":
        g, base = nimlab.game("nim"), "a ^ b"
    else:
        g, base = nimlab.game("ryuo", p=2), "2*((a//2)^(b//2)) + (a+b)%2"
    expr = f"({base}) + {delta} * (a == {x0} and b == {y0})"
    r = verify(g, expr, bound=12, heaps=2, workers=1)
    assert r.counterexample is not None and r.counterexample.position == (x0, y0)
    assert r.positions_checked == x0 * 12 + y0 + 1
    assert r.counterexample.claimed == r.counterexample.actual + delta


@pytest.mark.parametrize(
    ("name", "params", "kind", "expr"),
    [
        ("ryuo", {"p": 3}, "p-set", "a // 3 == b // 3 and (a + b) % 3 == 0"),
        ("ryuo", {"p": 3}, "p-set", "a // 3 == b // 3 and (a + b) % 3 == 0 or a == b == 7"),
        ("ryuo", {"p": 3}, "p-set", "a // 3 == b // 3 and (a + b) % 3 == 0 and a != 9"),
        (
            "restricted-ryuo",
            {"p": 2, "q": 4},
            "grundy",
            "2*(((a%4)//2)^((b%4)//2)) + (a+b)%2 + (a == 5 and b == 2)",
        ),
        ("wythoff", {}, "p-set", "a == 0 and b == 0 or a + b == 3 and a * b == 2"),
    ],
)
def test_kernels_agree_with_python_path_and_search(
    name: str, params: dict[str, int], kind: str, expr: str
) -> None:
    g = nimlab.game(name, **params)
    kw = {"formula": expr} if kind == "grundy" else {"p_set": expr}
    fast = verify(g, bound=20, workers=1, chunk_size=60, **kw)  # type: ignore[arg-type]
    assert fast.method == "vectorised"
    e = parse_expression(expr, 2)
    slow_spec = CheckSpec(g, kind, ExprClaim(e), heap_space(g, 20), expr, 20)  # type: ignore[arg-type]
    slow = run_spec(slow_spec, workers=1)
    assert slow.method == "python"
    assert fast.ok == slow.ok and fast.positions_checked == slow.positions_checked
    f = e.function()
    want = first_mismatch(
        g,
        itertools.product(range(20), repeat=2),
        lambda *p: f(p),
        "grundy" if kind == "grundy" else "p",
    )
    got = None if fast.counterexample is None else fast.counterexample.position
    assert got == (None if want is None else want[0])
    if want is not None:
        assert fast.counterexample.detail == slow.counterexample.detail
