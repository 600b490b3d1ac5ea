"""The kernel protocol is open: a game brings a compiled kernel of a kind the engine does
not know (``tests/vector_kernel_game.py``), and tables, Grundy values, sequences, the
verifier and the theorem checks use it through the protocol; every answer is checked
against exhaustive search.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from vector_kernel_game import RUNS, TakeThreeRecurrence, VectorGame, VectorKernel

import nimlab
from nimlab.core.errors import GameDefinitionError
from nimlab.core.kernels import TableRequest
from nimlab.engine.search import Solver
from nimlab.verification.fast import move_model


def _search_table(g: Any, shape: tuple[int, ...], kind: str) -> np.ndarray[Any, Any]:
    solver = Solver(g)
    out = np.zeros(shape, dtype=np.int64 if kind == "grundy" else np.bool_)
    for p in itertools.product(*(range(n) for n in shape)):
        if kind == "grundy":
            out[p] = solver.grundy(p)
        else:
            out[p] = solver.is_p(p, misere=kind == "misere")
    return out


@pytest.mark.parametrize("pairs", [False, True])
@pytest.mark.parametrize("shape", [(9, 7), (5, 6, 4)])
def test_table_runs_the_new_kind_as_search(pairs: bool, shape: tuple[int, ...]) -> None:
    g = VectorGame(pairs=pairs)
    assert g.table_kernel(shape, "grundy").kind not in ("lines", "wythoff")  # type: ignore[union-attr]
    for kind in ("grundy", "outcome"):
        before = RUNS["table"]
        got = nimlab.table(g, shape, kind=kind, engine="kernel")
        assert RUNS["table"] == before + 1  # the game's own kernel ran
        assert (got == _search_table(g, shape, kind)).all(), kind
    # a request the kernel declines (misère) is answered by the next method, exactly
    misere = nimlab.table(g, shape, kind="misere")
    assert (misere == _search_table(g, shape, "misere")).all()


def test_grundy_plans_the_new_kernel() -> None:
    g = VectorGame(pairs=True)
    pos = (149, 149)  # 22,500 positions below: the planner picks the compiled table
    before = RUNS["table"]
    a = nimlab.answer(g, pos, kind="grundy")
    assert a.method == "compiled table" and RUNS["table"] == before + 1
    assert a.value == Solver(g).grundy(pos)


def test_sequences_run_the_new_recurrence() -> None:
    g = VectorGame()
    before = RUNS["sequence"]
    got = nimlab.sequence(g, 40)
    assert RUNS["sequence"] == before + 1
    solver = Solver(g)
    assert got.tolist() == [solver.grundy((h,)) for h in range(40)]
    assert nimlab.table(g, (30,)).tolist() == got[:30].tolist()


def test_the_verifier_reads_the_new_kernels_moves() -> None:
    g = VectorGame()
    model = move_model(g)  # from the description's two_heap_lines, checked against moves
    assert model is not None and len(model.offsets) == 6
    r = nimlab.verify(g, "(a % 4) ^ (b % 4)", bound=40, heaps=2, workers=1)
    assert (r.ok, r.method, r.positions_checked) == (True, "vectorised", 1600)
    solver = Solver(g)
    assert all(solver.grundy((a, b)) == (a % 4) ^ (b % 4) for a in range(40) for b in range(40))
    # with pair moves the sum's formula fails, first where search says so
    pg = VectorGame(pairs=True)
    bad = nimlab.verify(pg, "(a % 4) ^ (b % 4)", bound=40, heaps=2, workers=1)
    assert not bad.ok and bad.method == "vectorised"
    cx = bad.counterexample
    psolver = Solver(pg)
    assert cx.actual == psolver.grundy(cx.position) != cx.claimed
    assert cx.position == (1, 1)


def test_a_broken_answer_of_a_new_kind_is_refused() -> None:
    class Broken(VectorKernel):
        def run(self, request: TableRequest) -> Any:
            return np.zeros((2, 2), dtype=np.int64)

    class BrokenGame(VectorGame):
        def table_kernel(self, shape: tuple[int, ...], kind: str) -> Any:
            return Broken(((1, 0), (0, 1)))

    with pytest.raises(GameDefinitionError, match="example-vectors"):
        nimlab.table(BrokenGame(), (3, 3), engine="kernel")
    assert TakeThreeRecurrence().kind == "example-take-three"


def _mod4_sum(game: Any, position: tuple[int, ...]) -> int:
    out = 0
    for h in position:
        out ^= h % 4
    return out


def _mod3(game: Any, position: tuple[int, ...]) -> int:
    return position[0] % 3


def test_a_theorem_check_compares_with_the_new_recurrence() -> None:
    from nimlab.core.theorems import HeapSpace, InstanceSpec, TheoremSpec
    from nimlab.theory.registry import check_theorem, from_spec

    def spec(claim: Any, heaps: tuple[int, ...]) -> TheoremSpec:
        return TheoremSpec(
            id="EXK-T1",
            paper="EXK",
            statement="take-three Nim: G = XOR of the heaps mod 4",
            game="example-vectors",
            kind="grundy",
            instances=lambda b: [InstanceSpec(VectorGame(), HeapSpace(n, b)) for n in heaps],
            default_bound=16,
            claim=claim,
        )

    before = RUNS["sequence"]
    t = from_spec(spec(_mod4_sum, (1, 2)))
    r = check_theorem(t, 40)
    assert r.ok and "sequence" in r.method and RUNS["sequence"] == before + 1
    assert r.positions_checked == check_theorem(t, 40, method="search").positions_checked
    bad = check_theorem(from_spec(spec(_mod3, (1,))), 40)
    assert not bad.ok and bad.method == "sequence"
    searched = check_theorem(from_spec(spec(_mod3, (1,))), 40, method="search")
    assert bad.counterexample == searched.counterexample
    assert (bad.counterexample.position, bad.counterexample.actual) == ((3,), 3)
