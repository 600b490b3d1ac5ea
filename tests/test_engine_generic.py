"""The compiled generic engine (compiled move models) agrees with search and hand kernels."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import nimlab
from nimlab import game, table
from nimlab.core.errors import SearchTooLargeError
from nimlab.engine.compiled import CompiledSolver, Session

# numba compiles a kernel per game and number of heaps: seconds each, more on a loaded machine
pytestmark = pytest.mark.timeout(600)


def _same(a: Any, b: Any) -> bool:
    ma, mb = np.ma.getmaskarray(a), np.ma.getmaskarray(b)
    if not np.array_equal(ma, mb):
        return False
    return bool(np.array_equal(np.ma.getdata(a)[~ma], np.ma.getdata(b)[~mb]))


@pytest.mark.parametrize(
    ("name", "params", "shape", "kind"),
    [
        ("welter", {}, (6, 6, 6), "grundy"),
        ("lim", {}, (5, 5, 5), "misere"),
        ("single-delete", {}, (7, 7, 7), "grundy"),
        ("single-delete", {}, (7, 7, 7), "misere"),
        ("moore", {"k": 2}, (4, 4, 4, 4), "outcome"),
        ("circular", {"k": 2}, (3, 3, 3, 3), "grundy"),
        ("abo-delete", {}, (9, 9, 9), "grundy"),
        ("ryuo", {"p": 3}, (9, 7), "grundy"),
    ],
)
def test_compiled_engine_equals_search(
    name: str, params: dict[str, Any], shape: tuple[int, ...], kind: str
) -> None:
    g = game(name, **params)
    a = table(g, shape, kind=kind, engine="compiled")
    b = table(g, shape, kind=kind, engine="generic")
    assert _same(a, b)


@pytest.mark.parametrize(
    ("name", "params", "shape", "kind"),
    [
        ("nim", {}, (9, 7, 5), "grundy"),
        ("nim", {}, (6, 6, 5), "misere"),  # 3 heaps: the kernel of the case above
        ("wythoff", {}, (20, 17), "grundy"),
        ("moore", {"k": 2}, (6, 6, 6), "grundy"),
        ("lim", {}, (7, 7, 7), "grundy"),
        ("delete-nim", {}, (15, 15), "outcome"),
        ("nimhoff", {"k": 1}, (9, 9, 9), "grundy"),
    ],
)
def test_compiled_engine_equals_hand_kernels(
    name: str, params: dict[str, Any], shape: tuple[int, ...], kind: str
) -> None:
    g = game(name, **params)
    a = table(g, shape, kind=kind, engine="compiled")
    b = table(g, shape, kind=kind, engine="kernel")
    assert _same(a, b)


def test_many_heaps_agree_with_closed_forms() -> None:
    # Nim on 6 heaps: Bouton (S19-T1), every box position (one kernel for both kinds; the
    # compiled engine on 5 heaps: test_single_delete_counts_match_the_c_reference)
    tg = table("nim", (4, 3, 4, 2, 3, 2), engine="compiled")
    for pos in itertools.product(*(range(n) for n in tg.shape)):
        assert int(tg[pos]) == np.bitwise_xor.reduce(pos)
    t6 = table("nim", (2, 3, 2, 3, 2, 3), kind="outcome", engine="compiled")
    for pos in itertools.product(*(range(n) for n in t6.shape)):
        assert bool(t6[pos]) == (np.bitwise_xor.reduce(pos) == 0)
    # Single-delete on 4 heaps: [Sh] Theorem 6 (proved criterion) on every position < 14
    g = game("single-delete")
    t = table(g, (14,) * 4, kind="outcome")
    checked = 0
    for pos in itertools.combinations_with_replacement(range(1, 14), 4):
        assert bool(t[pos]) == g.closed_is_p(pos), pos
        checked += 1
    assert checked == 1820
    assert bool(np.ma.getmaskarray(t)[0, 1, 1, 1])  # heaps are positive


def test_single_delete_counts_match_the_c_reference() -> None:
    # benchmarks/reference_c/single_delete_table.c prints, for n=4, N=16:
    # positions=3060 P=502, and for n=5, N=10: positions=1287 P=202
    s = CompiledSolver(game("single-delete"), 4, "outcome")
    s.solve_below(16)
    assert (int((s.state >= 0).sum()), int((s.state == 0).sum())) == (3060, 502)
    s5 = CompiledSolver(game("single-delete"), 5, "outcome")
    s5.solve_below(10)
    assert (int((s5.state >= 0).sum()), int((s5.state == 0).sum())) == (1287, 202)


def test_budget_is_checked_before_work() -> None:
    with pytest.raises(SearchTooLargeError, match="MiB"):
        table("single-delete", (400,) * 6, kind="outcome", max_bytes=2**30)
    with pytest.raises(SearchTooLargeError, match="MiB"):
        CompiledSolver(game("nim"), 6, "grundy", max_bytes=2**20).ensure(100)


def test_session_reuses_work() -> None:
    s = Session()
    g = game("single-delete")
    values = [s.outcome(g, p) for p in itertools.combinations_with_replacement(range(1, 9), 4)]
    solver = s.solver(g, 4, "outcome")
    assert solver.side >= 9
    expected = [
        "P" if g.closed_is_p(p) else "N"
        for p in itertools.combinations_with_replacement(range(1, 9), 4)
    ]
    assert values == expected
    assert s.grundy(game("lim"), (3, 5, 6)) == nimlab.grundy("lim", (3, 5, 6))


@pytest.mark.parametrize("n", range(1, 7))
def test_sorting_networks_sort_every_input(n: int) -> None:
    from nimlab.engine._generic import NETWORKS

    # the 0-1 principle: a network that sorts every 0-1 input sorts every input
    for bits in itertools.product((0, 1), repeat=n):
        a = list(bits)
        for i, j in NETWORKS[n]:
            a[i], a[j] = min(a[i], a[j]), max(a[i], a[j])
        assert a == sorted(bits)


def test_start_rows_are_the_sorted_positions_in_colex_order() -> None:
    """The start rows of an order-free table (one compiled function for every number of
    heaps), whole and in blocks, against itertools, with their colex ranks."""
    import math

    from nimlab.engine import _generic
    from nimlab.engine.compiled import _ranks

    for n in range(1, 7):
        for lo, side in [(0, 5), (2, 4)]:
            cb = _ranks(side, n)
            want = sorted(
                itertools.combinations_with_replacement(range(lo, side), n), key=lambda t: t[::-1]
            )
            start = np.full((1, n), lo, np.int64)
            rows, ix = _generic.multisets(lo, side, start, len(want), cb)
            assert [tuple(r) for r in rows.tolist()] == want
            assert ix.tolist() == [
                sum(math.comb(h + i, i + 1) for i, h in enumerate(t)) for t in want
            ]
            got: list[tuple[int, ...]] = []
            while len(got) < len(want):  # in blocks, each from the row after the last
                count = min(7, len(want) - len(got))
                rows, _ = _generic.multisets(lo, side, start, count + 1, cb)
                start = rows[-1:].copy()
                got += [tuple(r) for r in rows[:count].tolist()]
            assert got == want


def test_keyrank_module_is_its_generated_text() -> None:
    """The key and rank functions are a real file (numba caches them on disk, shared by
    every move model's kernel); it is exactly the text its generator writes."""
    from pathlib import Path

    from nimlab.engine import _generic, _keyrank

    assert Path(_keyrank.__file__).read_text(encoding="utf-8") == _generic.keyrank_source()


@pytest.mark.parametrize("free", [True, False])
def test_compiled_key_and_rank_equal_their_python_definition(free: bool) -> None:
    from numba import njit

    from nimlab.engine import _generic
    from nimlab.engine.compiled import _ranks

    side = 7
    cb = _ranks(side, 4)

    @njit
    def both(o: Any, free: bool, side: int, cb: Any) -> Any:  # pragma: no cover - compiled
        k = _generic.key(o, free)
        return k, _generic.rank(k, free, side, cb)

    seen = set()
    for o in itertools.product(range(-1, side + 1), repeat=4):
        k, r = both(o, free, side, cb)
        pk = _generic.key(o, free)
        assert k == pk and r == _generic.rank(pk, free, side, cb)
        if r >= 0:
            seen.add((k, r))
    # ranks are a bijection of the keys inside the array onto 0..size-1
    size = len({k for k, _ in seen})
    assert sorted(r for _, r in seen) == list(range(size))


@pytest.mark.parametrize(("rows", "cols", "need"), [(64, 7, 64), (5, 3, 11), (1024, 4, 1030)])
def test_grown_stacks_keep_their_rows(rows: int, cols: int, need: int) -> None:
    # the solve kernel's stacks grow by one memcpy of the old rows (engine/_generic._grow2)
    from nimlab.engine._generic import _grow2

    a = np.random.default_rng(rows).integers(-(2**40), 2**40, size=(rows, cols))
    assert _grow2(a, rows - 1) is a
    b = _grow2(a, need)
    assert b.shape == (max(2 * rows, need + 1), cols)
    assert np.array_equal(b[:rows], a)
