"""Ryuo Nim, restricted Ryuo Nim, RGAMES and one-heap periodicity ([S18])."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab import InvalidParameterError, InvalidPositionError, game, grundy, moves
from nimlab.catalog.onepile import AllBut, Subtraction
from nimlab.catalog.ryuo.formulas import restricted_ryuo_grundy, rgames_grundy, ryuo_grundy
from nimlab.cli import main
from nimlab.formulas.onepile import (
    allbut_periodicity,
    has_inner_period,
    siegel_allbut_grundy,
    subtraction_periodicity,
)
from nimlab.solvers.search import Solver

DATA = Path(__file__).parent / "data"
EXAMPLE2 = game("rgames", g0="subtraction:1,2,3", parts="allbut:8;allbut:4,8")


def read_table(name: str) -> list[list[int]]:
    rows: list[list[int]] = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        x, _, cells = line.partition("|")
        assert int(x) == len(rows)
        rows.append([int(c) for c in cells.split()])
    return rows


# -- [S18] Table 1 and Table 2, cell by cell --------------------------------------------


def test_table_1_ryuo_nim_3() -> None:
    table = read_table("s18_table1_ryuo3.txt")
    assert len(table) == 9 and all(len(r) == 9 for r in table)
    g = game("ryuo", p=3)
    s = Solver(g)
    for x, y in itertools.product(range(9), repeat=2):
        assert s.grundy((x, y), method="search") == table[x][y], (x, y)
        assert grundy(g, (x, y)) == ryuo_grundy(x, y, 3) == table[x][y], (x, y)


def test_table_2_rgame_example_2() -> None:
    table = read_table("s18_table2_rgame_example2.txt")
    assert len(table) == 32 and all(len(r) == 32 for r in table)
    s = Solver(EXAMPLE2)
    for x, y in itertools.product(range(32), repeat=2):
        assert s.grundy((x, y), method="search") == table[x][y], (x, y)
        assert EXAMPLE2.closed_grundy((x, y)) == table[x][y], (x, y)


def test_table_2_caption_4_by_4_blocks() -> None:
    """Table 2's caption: inner period 4 shows as repeated 4×4 blocks."""
    table = read_table("s18_table2_rgame_example2.txt")
    for x, y in itertools.product(range(32), repeat=2):
        corner = table[x - x % 4][y - y % 4]
        assert corner % 4 == 0
        assert table[x][y] == corner + (x % 4 + y % 4) % 4


def test_example_2_grundy_sequences() -> None:
    """Example 2: G1(x) = (x mod 8) + 8⌊x/16⌋, G2(y) = (y mod 4) + 4⌊y/12⌋."""
    g1, g2 = Solver(AllBut(frozenset({8}))), Solver(AllBut(frozenset({4, 8})))
    p1, p2 = allbut_periodicity({8}), allbut_periodicity({4, 8})
    for n in range(100):
        assert g1.grundy((n,), method="search") == p1.grundy(n) == n % 8 + 8 * (n // 16)
        assert g2.grundy((n,), method="search") == p2.grundy(n) == n % 4 + 4 * (n // 12)
    assert has_inner_period(p1, 4) and has_inner_period(p2, 4)


def test_example_1_restricted_ryuo_is_an_rgame() -> None:
    """Example 1: restricted Ryuo Nim(3, 6) = RGAME(SUB({1,2}); SUB({1..5}), SUB({1..5}))."""
    r = game("restricted-ryuo", p=3, q=6)
    rg = game("rgames", g0="subtraction:1,2", parts="subtraction:1..5;subtraction:1..5")
    sr, srg = Solver(r), Solver(rg)
    for x, y in itertools.product(range(20), repeat=2):
        assert set(moves(r, (x, y))) == set(moves(rg, (x, y)))
        assert sr.grundy((x, y), method="search") == srg.grundy((x, y), method="search")
        assert rg.closed_grundy((x, y)) == restricted_ryuo_grundy(x, y, 3, 6)


@pytest.mark.parametrize("p", [2, 3, 4, 5])
def test_ryuo_is_rgames_of_nim(p: int) -> None:
    """Ryuo Nim(p) = RGAMES(Subtraction({1..p−1}); Nim, Nim), by moves and by search."""
    r = game("ryuo", p=p)
    rg = game("rgames", g0=f"subtraction:1..{p - 1}", parts="nim;nim")
    sr, srg = Solver(r), Solver(rg)
    for x, y in itertools.product(range(16), repeat=2):
        assert set(moves(r, (x, y))) == set(moves(rg, (x, y)))
        assert sr.grundy((x, y), method="search") == srg.grundy((x, y), method="search")


# -- formulas against search, random parameters ------------------------------------------

RYUO = {p: Solver(game("ryuo", p=p)) for p in range(1, 7)}


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(0, 30), st.integers(0, 30))
def test_ryuo_formula_matches_search(p: int, x: int, y: int) -> None:
    assert RYUO[p].grundy((x, y), method="search") == ryuo_grundy(x, y, p)
    assert game("ryuo", p=p).closed_grundy((x, y)) == ryuo_grundy(x, y, p)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 3), st.integers(0, 25), st.integers(0, 25))
def test_restricted_ryuo_formula_matches_search(p: int, m: int, x: int, y: int) -> None:
    g = game("restricted-ryuo", p=p, q=p * m)
    assert Solver(g).grundy((x, y), method="search") == g.closed_grundy((x, y))


def test_restricted_ryuo_without_p_dividing_q_has_no_closed_form() -> None:
    g = game("restricted-ryuo", p=2, q=3)
    assert g.closed_grundy((4, 5)) is None
    assert grundy(g, (4, 5)) == Solver(g).grundy((4, 5), method="search")


def part_spec(p: int) -> st.SearchStrategy[str]:
    """One-heap games with inner period p (Siegel: All-but({k}) and ({k, m}) have inner
    period k, so p | k suffices; Subtraction({1..q−1}) has G(n) = n mod q)."""
    k = st.integers(1, 3).map(lambda a: a * p)
    return st.one_of(
        st.just("nim"),
        k.map(lambda kk: f"allbut:{kk}"),
        st.tuples(k, st.integers(1, 6)).map(lambda t: f"allbut:{t[0]},{t[0] + t[1]}"),
        k.filter(lambda kk: kk >= 2).map(lambda kk: f"subtraction:1..{kk - 1}"),
    )


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda p: st.tuples(st.just(p), st.lists(part_spec(p), min_size=1, max_size=3))
    ),
    st.data(),
)
def test_rgames_formula_matches_search(pp: tuple[int, list[str]], data: st.DataObject) -> None:
    p, parts = pp
    g = game("rgames", g0=f"subtraction:1..{p - 1}", parts=";".join(parts))
    top = {1: 24, 2: 14, 3: 6}[len(parts)]
    pos = tuple(data.draw(st.lists(st.integers(0, top), min_size=len(parts), max_size=len(parts))))
    closed = g.closed_grundy(pos)
    assert closed is not None
    assert closed == Solver(g).grundy(pos, method="search")


def test_rgames_without_inner_period_has_no_closed_form() -> None:
    # All-but({6}): G(5) = 5, not ≡ 1 (mod 4)
    g = game("rgames", g0="subtraction:1,2,3", parts="allbut:6;nim")
    assert not has_inner_period(allbut_periodicity({6}), 4)
    assert g.closed_grundy((5, 2)) is None
    assert grundy(g, (5, 2)) == Solver(g).grundy((5, 2), method="search")
    # G0 not of the form Subtraction({1..p-1})
    g2 = game("rgames", g0="subtraction:1,3", parts="nim;nim")
    assert g2.closed_grundy((3, 3)) is None


def test_rgames_formula_on_big_heaps() -> None:
    x, y = 10**30 + 7, 3 * 10**29 + 2
    g1 = (x % 8) + 8 * (x // 16)
    g2 = (y % 4) + 4 * (y // 12)
    assert EXAMPLE2.closed_grundy((x, y)) == rgames_grundy((x, y), (g1, g2), 4)
    assert grundy(game("ryuo", p=7), (x, y)) == ryuo_grundy(x, y, 7)


def test_rgames_order_of_heaps() -> None:
    assert EXAMPLE2.canonical((5, 2)) == (5, 2)
    nim2 = game("rgames", g0="subtraction:1", parts="nim;nim")
    assert nim2.canonical((5, 2)) == (2, 5)


# -- periodicity of one-heap games (S18 Theorems 5, 6, 11) --------------------------------


def brute(take: object, n_max: int) -> list[int]:
    g: list[int] = []
    for n in range(n_max):
        opts = {g[n - t] for t in range(1, n + 1) if take(t)}  # type: ignore[operator]
        m = 0
        while m in opts:
            m += 1
        g.append(m)
    return g


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(1, 9), min_size=1, max_size=4))
def test_subtraction_periodicity_is_exact(s: set[int]) -> None:
    per = subtraction_periodicity(s)
    seq = brute(lambda t: t in s, per.preperiod + 3 * per.period + 40)
    assert [per.grundy(n) for n in range(len(seq))] == seq
    assert per.saltus == 0
    # minimal: no smaller period fits the sequence
    assert not any(
        all(seq[n + d] == seq[n] for n in range(per.preperiod, len(seq) - d))
        for d in range(1, per.period)
    )


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(1, 12), max_size=4))
def test_allbut_periodicity_is_exact(s: set[int]) -> None:
    per = allbut_periodicity(s)
    seq = brute(lambda t: t not in s, per.preperiod + 3 * per.period + 40)
    assert [per.grundy(n) for n in range(len(seq))] == seq
    assert per.saltus > 0


@pytest.mark.parametrize("k", range(1, 7))
def test_siegel_theorem_11_periods(k: int) -> None:
    """All-but({k}): purely arithmetic-periodic, saltus k, period 2k; All-but({k, 2k}):
    period 3k; All-but({k, m}) otherwise: period 2k; one period 0..k−1 repeated."""
    block = tuple(range(k))
    per = allbut_periodicity({k})
    assert (per.preperiod, per.period, per.saltus, per.values) == (0, 2 * k, k, block * 2)
    per = allbut_periodicity({k, 2 * k})
    assert (per.preperiod, per.period, per.saltus, per.values) == (0, 3 * k, k, block * 3)
    for m in range(k + 1, 3 * k + 2):
        if m != 2 * k:
            per = allbut_periodicity({k, m})
            assert (per.preperiod, per.period, per.saltus, per.values) == (0, 2 * k, k, block * 2)
        for n in range(60):
            assert allbut_periodicity({k, m}).grundy(n) == siegel_allbut_grundy(n, {k, m})


def test_periodicity_of_catalog_games() -> None:
    sub = Subtraction(frozenset({1, 2, 3}))
    assert sub.exact_periodicity() == subtraction_periodicity({1, 2, 3})
    assert AllBut(frozenset()).exact_periodicity() == allbut_periodicity(())


# -- parameters, positions and the command line ---------------------------------------------


def test_cli_rgames_example_2(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["grundy", "rgames", "-p", "g0=subtraction:1,2,3", "-p", "parts=allbut:8;allbut:4,8"]
    assert main([*args, "9", "13"]) == 0
    assert capsys.readouterr().out.strip() == str(
        read_table("s18_table2_rgame_example2.txt")[9][13]
    )
    assert main([*args, "9", "13", "1"]) == 2
    assert "exactly 2 heaps" in capsys.readouterr().err
    assert main(["grundy", "ryuo", "-p", "p=3", "4", "5"]) == 0
    assert capsys.readouterr().out.strip() == "0"


@pytest.mark.parametrize(
    ("name", "params", "msg"),
    [
        ("ryuo", {"p": 0}, "parameter p of ryuo must be an integer >= 1"),
        ("ryuo", {}, "ryuo needs parameter p"),
        (
            "restricted-ryuo",
            {"p": 0, "q": 3},
            "parameter p of restricted-ryuo must be an integer >= 1",
        ),
        (
            "restricted-ryuo",
            {"p": 2, "q": -4},
            "parameter q of restricted-ryuo must be an integer >= 1",
        ),
        ("restricted-ryuo", {"p": "x", "q": 4}, "parameter p must be an integer"),
        ("restricted-ryuo", {"p": 2}, "restricted-ryuo needs parameter q"),
        (
            "rgames",
            {"g0": "wythoff", "parts": "nim"},
            "parameter g0: wythoff is not a one-heap game",
        ),
        (
            "rgames",
            {"g0": "nim", "parts": "nim;wythoff"},
            "parameter parts: wythoff is not a one-heap game",
        ),
        ("rgames", {"g0": "nim", "parts": "nim;foo:1"}, "cannot read 'foo:1' as a one-heap game"),
        ("rgames", {"g0": "nim", "parts": ""}, "needs at least one one-heap game"),
        ("rgames", {"g0": "nim", "parts": 3}, "a list of one-heap games"),
        ("rgames", {"parts": "nim"}, "rgames needs parameter g0"),
    ],
)
def test_bad_parameters(name: str, params: dict[str, object], msg: str) -> None:
    with pytest.raises(InvalidParameterError, match=msg):
        game(name, **params)


def test_bad_positions() -> None:
    with pytest.raises(InvalidPositionError, match="this game has 2 parts"):
        EXAMPLE2.validate((1, 2, 3))
    with pytest.raises(InvalidPositionError, match="exactly 2 heaps"):
        game("ryuo", p=2).validate((1,))
    with pytest.raises(InvalidPositionError, match="integers >= 0"):
        game("restricted-ryuo", p=2, q=4).validate((1, -1))


def test_parts_accept_python_values() -> None:
    g = game(
        "rgames", g0=Subtraction(frozenset({1})), parts=[AllBut(frozenset({2})), "nim", game("nim")]
    )
    assert g.parts == (AllBut(frozenset({2})), AllBut(frozenset()), AllBut(frozenset()))  # type: ignore[attr-defined]
    assert g == game("rgames", g0="subtraction:1", parts="allbut:2;nim;allbut:")
