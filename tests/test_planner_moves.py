"""Winning moves through the planner (issue 20, item 1): when no construction is known,
the planner's scan scores the options once for the whole position (a compiled table of the
box below it, the one-heap compiled sequence, the compiled engine's solve), with the
budgets of ``planner.Budgets``, and explanations name the method that scored the move."""

from __future__ import annotations

from typing import Any

import pytest

import nimlab
from nimlab import planner
from nimlab.planner import Budgets, Method, plan
from nimlab.solvers.explain import method_phrase
from nimlab.solvers.strategy import scanned_move

KAYLES = {"code": "0.77"}


def _scorer(g: Any, pos: tuple[int, ...], misere: bool = False) -> Method:
    p = plan(g, "moves", pos, misere=misere)
    assert p.method is Method.SCAN
    return Method(p.value.method)


def test_a_search_of_many_moves_goes_to_a_compiled_method() -> None:
    """Fewer positions than the box threshold, but each with hundreds of moves: the
    search would generate millions of options (Wythoff at (37, 465): 17,708 positions,
    539 moves), so the compiled table answers; its value is the search's."""
    w = nimlab.game("wythoff")
    assert (Budgets().kernel_min_cells > 38 * 466) and w.estimate_moves((37, 465)) == 539
    a = nimlab.answer(w, (37, 465), kind="grundy")
    assert (a.method, a.value) == ("compiled table", 485)  # 485 by exhaustive search too
    assert plan(w, "grundy", (37, 465), budgets=Budgets(compiled_min_options=10**9)).method is (
        Method.SEARCH
    )
    assert plan(w, "grundy", (20, 30)).method is Method.SEARCH  # 651 x 70 / 2 options
    small = nimlab.answer(w, (12, 40), kind="grundy", method="search")
    assert nimlab.table(w, (13, 41))[12, 40] == small.value


def test_the_scan_plan_names_its_scorer() -> None:
    kayles = nimlab.game("octal", **KAYLES)
    assert _scorer(kayles, (100,)) is Method.COMPILED_SEQUENCE
    assert _scorer(kayles, (2, 100)) is Method.COMPILED_SEQUENCE  # a sum: heaps by the sequence
    assert _scorer(kayles, (10,)) is Method.SEARCH  # small: no numba
    assert _scorer(nimlab.game("wythoff"), (300, 500), misere=True) is Method.COMPILED_TABLE
    assert _scorer(nimlab.game("wythoff"), (3, 5), misere=True) is Method.SEARCH
    assert _scorer(nimlab.game("single-delete"), (20, 30, 41), misere=True) is (
        Method.COMPILED_ENGINE
    )
    # the budgets decide, and method="search" keeps the search
    big = Budgets(
        sequence_min_heap=1000,
        kernel_min_cells=10**15,
        compiled_min_options=10**18,
        repeat_calls=10**9,
    )
    p = plan(kayles, "moves", (100,), budgets=big)
    assert p.value.method is Method.SEARCH and "exhaustive search" in p.reason
    p = plan(kayles, "moves", (100,), method="search")
    assert p.value.method is Method.SEARCH and "method='search'" in p.reason


# -- small positions: the compiled scorers (budgets lowered) agree with exhaustive search --


@pytest.mark.parametrize(
    ("game", "params", "positions", "misere", "scorer"),
    [
        ("octal", KAYLES, [(n,) for n in range(8, 15)], False, Method.COMPILED_SEQUENCE),
        ("octal", KAYLES, [(3, 9), (2, 10)], False, Method.COMPILED_SEQUENCE),
        ("octal", {"code": "0.07"}, [(n,) for n in range(8, 22)], False, Method.COMPILED_SEQUENCE),
        ("subtraction", {"S": "1,3,4"}, [(n,) for n in range(8, 30)], False, None),
        (
            "wythoff",
            {},
            [(a, b) for a in range(0, 7) for b in range(a, 10) if (a, b) != (0, 0)],
            True,
            Method.COMPILED_TABLE,
        ),
        ("delete-nim", {}, [(2, 5), (4, 9), (6, 7)], True, Method.COMPILED_TABLE),
    ],
)
def test_compiled_scans_agree_with_search(
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    params: dict[str, str],
    positions: list[tuple[int, ...]],
    misere: bool,
    scorer: Method | None,
) -> None:
    monkeypatch.setattr(
        planner, "DEFAULT_BUDGETS", Budgets(kernel_min_cells=10, sequence_min_heap=8)
    )
    g = nimlab.game(game, **params)
    used = set()
    for pos in positions:
        p = plan(g, "moves", pos, misere=misere)
        if p.method is not Method.SCAN:
            continue  # a construction: not this test's business
        used.add(p.value.method)
        fast = nimlab.winning_moves(g, pos, misere)
        slow = nimlab.winning_moves(g, pos, misere, method="search")
        assert sorted(fast) == sorted(slow), (pos, fast, slow)
        mv, _ = scanned_move(g, pos, misere)
        assert (mv is None) == (not slow) and (mv is None or mv in slow), pos
    if scorer is not None:
        assert scorer in used, used


@pytest.mark.slow  # the compiled engine's misère model of single-delete (loaded from cache)
def test_the_compiled_engine_scan_agrees_with_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(planner, "DEFAULT_BUDGETS", Budgets(kernel_min_cells=10))
    g = nimlab.game("single-delete")
    for pos in [(3, 4, 6), (2, 5, 5), (1, 3, 7)]:
        assert _scorer(g, pos, misere=True) is Method.COMPILED_ENGINE
        fast = nimlab.winning_moves(g, pos, True)
        slow = nimlab.winning_moves(g, pos, True, method="search")
        assert sorted(fast) == sorted(slow), pos


# -- large positions: the cases, against compiled values ---------------------------


def test_kayles_heap_100_by_the_sequence() -> None:
    """Kayles heap 100 went over the search's budget; its winning moves are the options
    (a, b) with G(a) xor G(b) = 0 in the compiled sequence of Grundy values."""
    kayles = nimlab.game("octal", **KAYLES)
    values = nimlab.sequence(kayles, 101).tolist()

    def g_of(pos: tuple[int, ...]) -> int:
        x = 0
        for h in pos:
            x ^= values[h]
        return x

    expected = [o for o in nimlab.moves(kayles, (100,)) if g_of(o) == 0]
    assert sorted(nimlab.winning_moves(kayles, (100,))) == sorted(expected)
    assert len(expected) == 13 and values[100] == 1
    assert nimlab.winning_move(kayles, (100,)) in expected
    e = nimlab.explain(kayles, (100,))
    assert (e.method, e.outcome) == ("compiled sequence", "N")
    assert e.procedure is not None and "compiled sequence" in e.procedure
    assert "exhaustive search" not in e.render_text()
    # a sum with a heap of 100: each option's heaps read from the same sequence
    assert sorted(nimlab.winning_moves(kayles, (1, 100))) == sorted(
        o for o in nimlab.moves(kayles, (1, 100)) if g_of(o) == 0
    )


@pytest.mark.slow  # the compiled engine's misère table of Wythoff 151 x 251: a few seconds
def test_misere_wythoff_by_the_table_agrees_with_the_engine() -> None:
    """The winning moves of a misère Wythoff position are read from one compiled table
    (the game's line kernel): checked against the compiled engine's table of the game's
    move model."""
    w = nimlab.game("wythoff")
    assert _scorer(w, (150, 250), misere=True) is Method.COMPILED_TABLE
    p_positions = nimlab.table(w, (151, 251), kind="misere", engine="compiled")
    expected = [o for o in nimlab.moves(w, (150, 250)) if p_positions[o]]
    assert sorted(nimlab.winning_moves(w, (150, 250), misere=True)) == sorted(expected)


def test_misere_wythoff_300_500() -> None:
    """Misère Wythoff (300, 500) went over the search's budget: now one table is read."""
    w = nimlab.game("wythoff")
    mv, how = scanned_move(w, (300, 500), misere=True)
    assert how is Method.COMPILED_TABLE and mv in nimlab.moves(w, (300, 500))
    moves = nimlab.winning_moves(w, (300, 500), misere=True)
    assert mv in moves and nimlab.winning_move(w, (300, 500), misere=True) in moves
    for m in moves:  # each leads to a P-position (the same kernel over its own box)
        assert str(nimlab.answer(w, m, misere=True).value) == "P"
    e = nimlab.explain(w, (300, 500), misere=True)
    assert (e.method, e.outcome) == ("compiled table", "N")
    assert e.procedure is not None and "compiled table" in e.procedure


def test_a_given_move_is_scored_by_the_scan() -> None:
    kayles = nimlab.game("octal", **KAYLES)
    e = nimlab.explain(kayles, (100,), move=(1, 97))
    assert e.procedure is not None and "compiled sequence" in e.procedure
    # an option outside the scan's compiled method is scored by search, and says so
    small = nimlab.game("octal", **KAYLES)
    mv, how = scanned_move(small, (7,))
    assert how is Method.SEARCH and mv in nimlab.winning_moves(small, (7,), method="search")
    assert method_phrase("search") in (nimlab.explain(small, (7,)).procedure or "")
