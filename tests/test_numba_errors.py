"""A move function numba cannot compile runs as Python, whatever numba raises."""

from __future__ import annotations

import warnings

import numpy as np

import nimlab
from nimlab.catalog._numba_errors import compile_errors, is_compile_error


def _sub(h, i):  # type: ignore[no-untyped-def]
    for t in (1, 2):
        if t <= h[i]:
            yield nimlab.replace(h, i, h[i] - t)


@nimlab.heap_game("yield-from-take-two")
def yield_from(h):  # type: ignore[no-untyped-def]
    for i in range(len(h)):
        yield from _sub(h, i)  # numba: UnsupportedBytecodeError, not a NumbaError


def test_unsupported_bytecode_is_a_compile_error() -> None:
    from numba.core.errors import UnsupportedBytecodeError

    assert is_compile_error(UnsupportedBytecodeError("GET_YIELD_FROM_ITER"))
    assert not is_compile_error(KeyError("x"))
    assert len(compile_errors()) >= 2


def test_yield_from_runs_as_python_and_agrees_with_the_rule() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = nimlab.table(yield_from, (150, 150))
    x, y = np.indices((150, 150))
    np.testing.assert_array_equal(np.ma.getdata(t), (x % 3) ^ (y % 3))
