"""The delete-and-split table kernel (Single-delete Nim on 2 to 6 heaps).

Its tables are checked against the exhaustive Python search over the game's own moves,
against the compiled engine, and against the C reference's count of P-positions.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import nimlab
from nimlab.core.kernels import DeleteSplitKernel
from nimlab.engine import _splitkernel
from nimlab.planner import Method, Question, plan

REFERENCE = Path(__file__).resolve().parents[1] / "benchmarks" / "reference_c"


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(
        np.array_equal(np.ma.getmaskarray(a), np.ma.getmaskarray(b))
        and np.array_equal(np.ma.filled(a, 0).astype(int), np.ma.filled(b, 0).astype(int))
    )


@pytest.mark.parametrize(
    "shape", [(14, 14), (10, 10, 10), (7, 7, 7, 7), (5, 5, 5, 5, 5), (3, 6, 4, 5)]
)
@pytest.mark.parametrize("kind", ["grundy", "outcome"])
def test_kernel_equals_search(shape: tuple[int, ...], kind: str) -> None:
    kernel = nimlab.table("single-delete", shape, kind=kind, engine="kernel")
    search = nimlab.table("single-delete", shape, kind=kind, engine="generic")
    assert _same(kernel, search)
    assert np.ma.getmaskarray(kernel)[(0,) * len(shape)]  # an empty heap is no position


def test_kernel_equals_compiled_engine() -> None:
    for shape in [(12, 12, 12, 12), (6, 6, 6, 6, 6, 6)]:
        kernel = nimlab.table("single-delete", shape, engine="kernel")
        engine = nimlab.table("single-delete", shape, engine="compiled")
        assert kernel.dtype == engine.dtype == np.uint8
        assert _same(kernel, engine)


def test_two_byte_values() -> None:
    """Values of 256 and more are written as two bytes: the same cells as one byte."""
    values = _splitkernel.split_values(4, 12, 3)
    wide = np.empty(12**4 * 2, np.uint8)
    _splitkernel.split_fill(wide, np.array([12] * 4), values, 1)
    narrow = nimlab.table("single-delete", (12,) * 4)
    assert np.array_equal(wide.view("<u2").reshape((12,) * 4), np.ma.filled(narrow, 0))


def test_planner_names_the_kernel() -> None:
    g = nimlab.game("single-delete")
    p = plan(g, Question.TABLE, shape=(64,) * 4, kind="grundy")
    assert p.method is Method.COMPILED_TABLE and isinstance(p.value, DeleteSplitKernel)
    assert plan(g, Question.TABLE, shape=(8,) * 4, kind="misere").method is not (
        Method.COMPILED_TABLE
    )
    with pytest.raises(nimlab.InvalidParameterError, match="no position"):
        nimlab.table("single-delete", (1, 5, 5), engine="kernel")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_p_positions_as_the_c_reference(tmp_path: Path) -> None:
    exe = tmp_path / "single_delete_table"
    subprocess.run(
        ["gcc", "-O2", "-o", str(exe), str(REFERENCE / "single_delete_table.c")], check=True
    )
    for n, size in [(4, 24), (5, 12)]:
        out = subprocess.run([str(exe), str(n), str(size)], capture_output=True, text=True)
        m = re.search(r"positions=(\d+) P=(\d+)", out.stdout)
        assert m is not None
        values = _splitkernel.split_values(n, size, n * n * size // 64 + 1)
        t = _splitkernel.colex_terms(n, size)
        ranks = [sum(int(t[i, h]) for i, h in enumerate(pos)) for pos in _sorted_positions(n, size)]
        p = int(np.count_nonzero(values[np.array(ranks)] == 0))
        assert (len(ranks), p) == (int(m.group(1)), int(m.group(2)))


def _sorted_positions(n: int, size: int) -> list[tuple[int, ...]]:
    from itertools import combinations_with_replacement

    return list(combinations_with_replacement(range(1, size), n))
