"""The claim's rows of the vectorised check compiled (verification/fast.py ClaimRows,
verification/_claims.py compiled_rows): a theorem's ``scalar_claim`` with its game's
parameters (S18-T8, S18-T9) and an expression, against exhaustive search, the Python
claim and the numpy rows; whole checks with compiled rows on 1 and 2 threads give the
same chunks, counts and counterexamples as the exact Python check."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from two_heap_search import grundy_box

import nimlab
import nimlab.planner
from nimlab.verification import fast
from nimlab.verification.chunks import check_chunk
from nimlab.verification.fast import ClaimRows
from nimlab.verification.pool import thread_chunks

N = 40


def _spec(tid: str, k: int, bound: int) -> Any:
    from nimlab.theory.registry import TheoremClaim, _instance_specs, theorem

    specs = [s for _, s in _instance_specs(theorem(tid), bound, TheoremClaim(tid), None)]
    return specs[k]


@pytest.mark.parametrize(("tid", "k"), [("S18-T8", 2), ("S18-T9", 3)])
def test_compiled_rows_equal_search_and_the_python_claim(tid: str, k: int) -> None:
    # Ryuo Nim(3) and restricted Ryuo Nim(2, 4): the compiled claim, with the game's
    # parameters as constants, is the Grundy function found by search
    from nimlab.theory.registry import theorem

    spec = _spec(tid, k, N)
    g = spec.game
    rows = ClaimRows(spec, compiled=True)
    assert rows.compiled is not None
    F, top = rows(0, N, N, 0, (0, 0))
    t = grundy_box(g, N)
    assert (t == F).all() and top == t.max()
    claimed = [[theorem(tid).claimed(g, (a, b)) for b in range(N)] for a in range(N)]
    assert F.tolist() == claimed
    # a band of rows and columns, the largest value from row 9, column 11 on: as numpy's
    want = ClaimRows(spec, compiled=False)(5, N, N, 7, (9, 11))
    got = rows(5, N, N, 7, (9, 11))
    assert (got[0] == want[0]).all() and got[1] == want[1] == t[9:, 11:].max()
    if tid != "S18-T9":
        return
    # the compiled check's claim (any number of heaps) takes the same parameters
    from nimlab.verification._claims import compiled_claim

    c = compiled_claim(replace(spec, space=nimlab.verification.spaces.BoxSpace(2, N)))
    assert c is not None
    claim, table, radix = c
    assert [
        int(claim((np.int64(a), np.int64(b)), table, radix)) for a, b in [(7, 3), (39, 22)]
    ] == [
        t[7, 3],
        t[39, 22],
    ]


def _force_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every vectorised check evaluates its claim compiled, whatever the box's size."""
    budgets = replace(nimlab.planner.DEFAULT_BUDGETS, compiled_claim_min_positions=0)
    monkeypatch.setattr(nimlab.planner, "DEFAULT_BUDGETS", budgets)
    monkeypatch.setattr(fast, "_ROWS_OF", {})


@pytest.fixture
def compiled_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    _force_compiled(monkeypatch)


@pytest.mark.usefixtures("compiled_rows")
@pytest.mark.parametrize("k", [1, 4])
def test_s18_t8_compiled_on_one_and_two_threads_as_python(k: int) -> None:
    # Ryuo Nim(2) and Ryuo Nim(5) (offset moves up to 4 rows and columns back): every
    # chunk's count as the exact Python check's, on 1 thread and on 2 by bands
    bound = 64
    spec = _spec("S18-T8", k, bound)
    spec = replace(spec, space=replace(spec.space, rows=8))  # 8 chunks of 8 rows
    assert fast.ClaimRows(spec).compiled is not None
    python = replace(spec, fast=False)
    want = [check_chunk(python, i) for i in range(8)]
    assert all(w.failure is None and w.method == "python" for w in want)
    one = [check_chunk(spec, i) for i in range(8)]
    two = {r.index: r for r in thread_chunks(spec, list(range(8)), 2, [])}
    for i in range(8):
        assert one[i].method == two[i].method == "vectorised"
        assert one[i].count == two[i].count == want[i].count
    assert sum(w.count for w in want) == bound * bound


def test_compiled_expression_finds_the_same_counterexample(monkeypatch: pytest.MonkeyPatch) -> None:
    # S18-T8's formula for p = 3 with one value planted wrong: on 1 and 2 threads with
    # compiled rows, the first failure that exhaustive search gives, after as many
    # positions as with numpy's rows
    import itertools

    from nimlab.solvers.search import Solver
    from nimlab.verification.expr import parse_expression

    g = nimlab.game("ryuo", p=3)
    bad = "3*((a//3)^(b//3)) + (a+b)%3 + (a==41)*(b==60)"
    f, s = parse_expression(bad, 2).function(), Solver(g)
    first = next(p for p in itertools.product(range(64), repeat=2) if f(p) != s.grundy(p, "search"))
    runs = []
    monkeypatch.setattr(fast, "_ROWS_OF", {})  # no claim rows of earlier tests (compiled)
    for compiled in (False, True):
        if compiled:
            _force_compiled(monkeypatch)
        for workers in (1, 2):
            r = nimlab.verify(g, bad, bound=64, heaps=2, workers=workers, chunk_size=640)
            assert r.method == "vectorised" and r.counterexample is not None
            runs.append((r.ok, r.positions_checked, r.counterexample))
            assert all((v.compiled is not None) == compiled for v in fast._ROWS_OF.values())
    assert runs[0][2].position == first and runs[0][2].actual == s.grundy(first, "search")
    assert runs[0][2].claimed == f(first)
    assert runs == [runs[0]] * 4
