"""Compiled move models of the games whose results were checked in Python only (issue 11):
RGAMES (S18-T12), Turning Turtles (S19-T6), Emperor and k-Emperor Nim (S19-T12, S19-T13).

Each check runs on the compiled path, agrees with exhaustive search where search is
feasible, and fails with a counterexample when a wrong claim is planted.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from nimlab.theory.registry import check_theorem, theorem

pytestmark = pytest.mark.timeout(300)


def _wrong(tid: str, claim: Any) -> Any:
    return replace(theorem(tid), claim=claim)


def test_rgames_check_is_compiled_and_agrees_with_search() -> None:
    local = check_theorem("S18-T12", bound=24)
    assert local.ok and local.method == "local (compiled)"
    search = check_theorem("S18-T12", bound=24, method="search")
    assert search.ok and search.positions_checked == local.positions_checked


def test_rgames_compiled_check_catches_a_planted_error() -> None:
    t = _wrong("S18-T12", lambda g, p: g.closed_grundy(p) ^ (p == (9, 13)))
    r = check_theorem(t, bound=40)
    assert not r.ok and r.method == "local (compiled)"
    assert r.counterexample is not None
    # the mex rule fails at (9, 13) itself or at a position with (9, 13) as an option
    pos = r.counterexample.position
    assert pos == (9, 13) or (pos[0] >= 9 and pos[1] >= 13)


@pytest.mark.parametrize(("tid", "bound"), [("S19-T6", 10), ("S19-T12", 5), ("S19-T13", 4)])
def test_index_space_checks_are_compiled_and_agree_with_search(tid: str, bound: int) -> None:
    """The compiled check over the game's index space covers the same positions as the
    exhaustive Python search, and both verify."""
    local = check_theorem(tid, bound=bound, workers=1)
    assert local.ok and "local (compiled)" in local.method
    search = check_theorem(tid, bound=bound, method="search")
    assert search.ok and search.positions_checked == local.positions_checked


def test_turtles_compiled_check_catches_a_planted_error() -> None:
    bad = frozenset({(1, 1), (2, 3)})

    def claim(g: Any, p: Any) -> int:
        v = int(g.closed_grundy(p))
        return v ^ 1 if p == bad else v

    r = check_theorem(_wrong("S19-T6", claim), bound=10, workers=1)
    assert not r.ok and r.method == "local (compiled)"
    assert r.counterexample is not None and r.counterexample.position == bad
    assert (r.counterexample.claimed, r.counterexample.actual) == (1, 0)


@pytest.mark.parametrize(
    ("tid", "flipped"),
    [
        ("S19-T12", ((1, 1), (2, 2))),  # N (totals 2, 4) claimed P
        ("S19-T12", ((1, 1), (2, 2), (3, 3))),  # P (totals 2, 4, 6) claimed N
        ("S19-T13", ((1, 1), (1, 1), (2, 2))),  # N for k = 2 claimed P
        ("S19-T13", ((1, 1), (1, 1), (1, 1))),  # P for k = 2 (2+2+2 = 0 mod 3) claimed N
    ],
)
def test_emperor_compiled_check_catches_a_planted_error(tid: str, flipped: Any) -> None:
    """A wrong outcome at one position, either way, is caught by the compiled check (the
    exact is_option test against the claimed P-positions)."""

    def claim(g: Any, p: Any) -> bool:
        return bool(g.closed_is_p(p)) != (p == flipped)

    r = check_theorem(_wrong(tid, claim), bound=5, workers=1)
    assert not r.ok and "local (compiled)" in r.method
    cex = r.counterexample
    assert cex is not None and cex.claimed != cex.actual


def _options(model: Any, code: Any) -> list[Any]:
    return [model.position(tuple(int(x) for x in q)) for q in model.options(model.params, code)]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_emperor_index_model_equals_moves(k: int) -> None:
    """Decode, encode, options and is_option of the Emperor model against the ruleset's
    own moves, on every position of small regions (the listed positions of S19b)."""
    from nimlab import game
    from nimlab.theory.s19b import emperor_positions

    g = game("emperor", k=k)
    for shape, b in (((1, 2), 4), ((2, 2), 4), ((1, 1, 1), 4), ((2, 3), 3), ((1, 2, 2), 3)):
        m = g.index_model((b, *shape))
        assert m is not None
        codes = [m.decode(m.params, i) for i in range(m.size)]
        pos = [m.position(tuple(int(x) for x in c)) for c in codes]
        assert sorted(pos) == sorted(emperor_positions(shape, b))
        for i, p in enumerate(pos):
            assert m.index(p) == i
            want = {g.canonical(q) for q in g.moves(p)}
            assert set(_options(m, codes[i])) == want
            assert all(0 <= m.encode(m.params, q) < i for q in m.options(m.params, codes[i]))
            got = {pos[j] for j in range(m.size) if m.is_option(m.params, codes[i], codes[j])}
            assert got == want, (k, p)


def test_turtles_index_model_equals_moves() -> None:
    from nimlab import game

    g = game("turning-turtles")
    for r, c in ((1, 5), (2, 3), (3, 3)):
        m = g.index_model((r, c))
        assert m is not None and m.size == 1 << (r * c)
        for i in range(m.size):
            code = m.decode(m.params, i)
            p = m.position(tuple(int(x) for x in code))
            assert m.index(p) == i
            want = sorted(sorted(q) for q in g.moves(p))
            got = sorted(sorted(q) for q in _options(m, code))
            assert got == want
