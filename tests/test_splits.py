"""The compiled engine of take-and-break games (engine/splits.py): positions of any number
of heaps, options with more heaps than their position, normal and misère play, against
the exhaustive search of the moves in Python."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import nimlab
from nimlab.core.ruleset import HeapRuleset, SplitHeapRuleset
from nimlab.engine.search import Solver
from nimlab.engine.splits import SplitSolver, positions_up_to, split_table, split_value


@nimlab.take_and_break("test-splits-near-halves")
def near_halves(h):  # type: ignore[no-untyped-def]
    """Take 1 to 3 tokens; the rest may stay one heap or become two heaps that differ by
    at most 2 (not an octal or hexadecimal code)."""
    for t in (1, 2, 3):
        r = h - t
        if r >= 0:
            yield (r,)
            for a in range(max(1, (r - 2 + 1) // 2), r // 2 + 1):
                if r - a - a <= 2 and a >= 1:
                    yield (a, r - a)


GAMES = {
    "kayles": nimlab.game("octal", code="0.77"),
    "dawson": nimlab.game("octal", code="0.07"),
    "grundy's game": nimlab.game("octal", code="4!.0"),
    "0.137": nimlab.game("octal", code="0.137"),
    "hexadecimal 0.F": nimlab.game("tbcode", code="0.F"),
    "user near-halves": near_halves,
}


def _positions(total: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of at most *most* nonempty heaps of total at most *total*."""
    for n in range(1, most + 1):
        for p in itertools.combinations_with_replacement(range(1, total + 1), n):
            if sum(p) <= total:
                yield p


@pytest.mark.parametrize("name", list(GAMES))
def test_every_multiset_equals_search(name: str) -> None:
    """Grundy values and outcomes (normal and misère) of every multiset of up to six
    heaps of total <= 14 (387 positions): misère play is not the XOR of the heaps."""
    g = GAMES[name]
    assert near_halves.octal_code() is None  # the user's game is searched, not a code
    solvers = {k: SplitSolver(g, k) for k in ("grundy", "outcome", "misere")}
    search = Solver(g)
    count = 0
    for pos in _positions(14, 6):
        assert solvers["grundy"].value(pos) == search.grundy(pos), pos
        assert solvers["outcome"].value(pos) == int(not search.is_p(pos, False)), pos
        assert solvers["misere"].value(pos) == int(not search.is_p(pos, True)), pos
        count += 1
    assert count == 387


def test_misere_is_not_the_sum() -> None:
    """Misère Kayles: the engine's answers differ from 'P iff the XOR is 0' where they
    must (a test that a normal-play shortcut would fail)."""
    g = GAMES["kayles"]
    s = SplitSolver(g, "misere")
    differ = [p for p in _positions(10, 4) if (s.value(p) == 0) != (nimlab.grundy(g, p) == 0)]
    assert (1,) in differ and (1, 1) in differ and len(differ) > 10


def test_tables_equal_the_search_tables() -> None:
    for name in ("kayles", "grundy's game", "user near-halves"):
        g = GAMES[name]
        for kind in ("grundy", "outcome", "misere"):
            fast = nimlab.table(g, (6, 7, 8), kind=kind, engine="compiled")
            slow = nimlab.table(g, (6, 7, 8), kind=kind, engine="generic")
            assert (fast == slow).all(), (name, kind)


def test_planner_routes_misere_sums_to_the_engine() -> None:
    """A misère position of a multi-heap take-and-break game is answered by the compiled
    engine once the search would visit many positions, with the search's answer."""
    g = nimlab.game("octal", code="0.77")
    pos = (1, 1, 27)  # 29 tokens: 23,025 multisets below it
    a = nimlab.answer(g, pos, misere=True)
    assert a.method == "compiled engine"
    assert a.value.name == ("P" if Solver(g).is_p(pos, True) else "N")
    b = nimlab.answer(near_halves, (29,), misere=True)
    assert b.method == "compiled engine"
    assert b.value.name == ("P" if Solver(near_halves).is_p((29,), True) else "N")
    small = nimlab.answer(g, (2, 3), misere=True)
    assert small.method == "search"  # 14 multisets: a search is cheaper
    assert nimlab.answer(g, pos).method == "sum of components"  # normal play: XOR


def test_counts_and_growth() -> None:
    # OEIS A000070: partial sums of the partition numbers
    assert [positions_up_to(n) for n in range(8)] == [1, 2, 4, 7, 12, 19, 30, 45]
    s = SplitSolver(GAMES["dawson"], "misere")
    first = s.value((3, 4))
    s.value((6, 7, 8))  # grows the arrays by appending
    assert s.value((3, 4)) == first == split_value(GAMES["dawson"], (4, 3), "misere")


@dataclass(frozen=True)
class _Growing(SplitHeapRuleset):
    """A move that leaves more tokens than it takes: the engine refuses, search answers."""

    name = "test-splits-growing"

    def heap_options(self, h: int) -> Iterator[tuple[int, ...]]:
        if h >= 2:
            yield (h - 1, h - 1)


def test_models_the_engine_does_not_take() -> None:
    g = _Growing()
    assert split_value(g, (3,), "misere") is None
    assert split_table(g, (3, 3), "outcome") is None
    assert nimlab.outcome(g, (3, 2), misere=True).name == (
        "P" if Solver(g).is_p((3, 2), True) else "N"
    )


@dataclass(frozen=True)
class _PairKayles(HeapRuleset):
    """Kayles in several rows, where a move may also knock one pin off each of two rows:
    a user's game whose positions are not sums of their heaps (its compiled model is a
    generator of ``(removed, added)`` options)."""

    name = "test-splits-pair-kayles"

    def canonical(self, position: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(h for h in position if h > 0))

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        heaps = [h for h in position if h > 0]
        for i, h in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1 :]
            for t in (1, 2):
                for j in range(h - t + 1):
                    yield tuple(sorted([*rest, j, h - t - j]))
        for i in range(len(heaps)):
            for j in range(i + 1, len(heaps)):
                pair = [h - (x in (i, j)) for x, h in enumerate(heaps)]
                yield tuple(sorted(pair))

    def compiled_split_options(self) -> Any:
        from numba import njit

        @njit
        def gen(a):  # type: ignore[no-untyped-def]
            k = a.shape[0]
            for i in range(k):
                h = a[i]
                for t in (1, 2):
                    for j in range(h - t + 1):
                        yield (i, -1), (j, h - t - j)
            for i in range(k):
                for j in range(i + 1, k):
                    yield (i, j), (a[i] - 1, a[j] - 1)

        return gen


_PAIR = _PairKayles()


def test_a_model_of_moves_on_several_heaps() -> None:
    """The generator protocol: every multiset of up to six heaps of total <= 12, Grundy
    values and both outcomes, against the search of the Python moves."""
    assert _PAIR.components((3, 4)) is None  # not a sum: the engine or the search
    solvers = {k: SplitSolver(_PAIR, k) for k in ("grundy", "outcome", "misere")}
    search = Solver(_PAIR)
    for pos in _positions(12, 6):
        assert solvers["grundy"].value(pos) == search.grundy(pos), pos
        assert solvers["outcome"].value(pos) == int(not search.is_p(pos, False)), pos
        assert solvers["misere"].value(pos) == int(not search.is_p(pos, True)), pos
    a = nimlab.answer(_PAIR, (9, 10, 11), misere=True)
    assert a.method == "compiled engine"
    assert a.value.name == "PN"[solvers["misere"].value((9, 10, 11))]
    assert nimlab.grundy(_PAIR, (9, 10, 11)) == solvers["grundy"].value((9, 10, 11))


def test_planner_tables_of_split_models() -> None:
    """A table goes to the split engine when its multisets are not many more than its
    cells (or in misère play, where a search has no sum to use); a normal-play table of
    three large heaps stays with the search, which values a sum by XOR."""
    from nimlab.planner import plan

    g = GAMES["kayles"]
    method = {
        (shape, kind): str(plan(g, "table", shape=shape, kind=kind).method)
        for shape in ((12, 12, 12), (30, 30, 30), (200, 200), (8, 8, 8, 8, 8))
        for kind in ("grundy", "misere")
    }
    assert method[(30, 30, 30), "grundy"] == method[(200, 200), "misere"] == "search"
    assert method[(12, 12, 12), "misere"] == "compiled engine"
    assert method[(8, 8, 8, 8, 8), "grundy"] == "compiled engine"
    assert method[(12, 12, 12), "grundy"] == "search"  # 1,728 cells: not worth compiling


@nimlab.split_game("test-splits-pair-kayles-fn")
def pair_kayles_fn(heaps):  # type: ignore[no-untyped-def]
    """Kayles in several rows, or one pin off each of two rows."""
    k = len(heaps)
    for i in range(k):
        h = heaps[i]
        for t in (1, 2):
            for j in range(h - t + 1):
                yield (i, -1), (j, h - t - j)
    for i in range(k):
        for j in range(i + 1, k):
            yield (i, j), (heaps[i] - 1, heaps[j] - 1)


def test_split_game_moves_equal_the_ruleset() -> None:
    """nimlab.split_game: the same options as the hand-written ruleset, and bad edits
    refused with the game's name."""
    for pos in _positions(9, 4):
        want = sorted(_PAIR.canonical(o) for o in _PAIR.moves(pos))
        assert sorted(pair_kayles_fn.moves(pos)) == want, pos

    @nimlab.split_game("test-splits-bad-index")
    def bad(heaps):  # type: ignore[no-untyped-def]
        yield (len(heaps),), (1,)

    with pytest.raises(nimlab.GameDefinitionError, match=r"test-splits-bad-index.*index a heap"):
        list(bad.moves((3,)))


def test_split_game_compiled_equals_search() -> None:
    """The function compiled for the engine (normal and misère) against the search."""
    solvers = {k: SplitSolver(pair_kayles_fn, k) for k in ("grundy", "misere")}
    assert solvers["grundy"].gen is not None
    search = Solver(pair_kayles_fn)
    for pos in _positions(11, 5):
        assert solvers["grundy"].value(pos) == search.grundy(pos), pos
        assert solvers["misere"].value(pos) == int(not search.is_p(pos, True)), pos
    from nimlab.engine import splits

    # a function written in a file: its kernel is a module of the cache directory
    assert splits._KERNELS[pair_kayles_fn] is not None
    assert splits._KERNELS.get(_PAIR) is None  # a closure: compiled in memory


def test_the_kernel_appended_to_a_users_module_leaves_its_globals(tmp_path: Path) -> None:
    """The solve kernel is appended to the module of a user's function (the disk cache):
    its own globals come under prefixed names, never over the user's (``OK`` here)."""
    import importlib.util

    from nimlab.engine.splits import _kernel_source

    path = tmp_path / "users_module.py"
    path.write_text('OK = "the user\'s"\nedit_rank = OK\n' + _kernel_source())
    spec = importlib.util.spec_from_file_location("users_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines the kernel (numba compiles it when called)
    assert module.OK == module.edit_rank == "the user's"
    assert hasattr(module.solve_split, "py_func")
