"""A test-only game that brings a compiled kernel of a kind the engine does not know.

Take-three Nim, optionally with pair moves (take the same 1, 2 or 3 stones from two
heaps at once), on 1 to 3 heaps. Its ``table_kernel`` hook answers a
:class:`VectorKernel` (kind ``"example-vectors"``: the box filled by mex over a list of
move vectors, compiled with numba) and its ``sequence_kernel`` hook a
:class:`TakeThreeRecurrence` (kind ``"example-take-three"``). The engine has runners for
neither kind: it runs them through the protocol's ``run`` methods
(:mod:`nimlab.core.kernels`), and the verifier reads the two-heap move lines from the
same description. ``tests/test_kernel_protocol.py`` checks every answer against
exhaustive search.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import numba

from nimlab.core.kernels import OneHeapKernel, TableKernel, TableRequest
from nimlab.core.ruleset import HeapRuleset

__all__ = ["TakeThreeRecurrence", "VectorGame", "VectorKernel"]

#: How many times each kind ran (the tests see the engine call the game's kernels).
RUNS: dict[str, int] = {"table": 0, "sequence": 0}


def _vectors(dims: int, pairs: bool) -> tuple[tuple[int, ...], ...]:
    out = []
    for t in (1, 2, 3):
        for i in range(dims):
            out.append(tuple(t if k == i else 0 for k in range(dims)))
        if pairs:
            for i in range(dims):
                for j in range(i + 1, dims):
                    out.append(tuple(t if k in (i, j) else 0 for k in range(dims)))
    return tuple(out)


@numba.njit(cache=True)
def _fill(out: Any, dims: Any, vectors: Any) -> None:  # pragma: no cover - compiled
    """Grundy values of the box *dims* (flat, row-major) by mex over the move *vectors*."""
    k = dims.shape[0]
    strides = [1] * k
    for i in range(k - 2, -1, -1):
        strides[i] = strides[i + 1] * dims[i + 1]
    m = vectors.shape[0]
    seen = [False] * (m + 2)
    coord = [0] * k
    for idx in range(out.shape[0]):
        rest = idx
        for i in range(k):
            coord[i] = rest // strides[i]
            rest -= coord[i] * strides[i]
        for v in range(m + 2):
            seen[v] = False
        for v in range(m):
            ok = True
            off = 0
            for i in range(k):
                if vectors[v, i] > coord[i]:
                    ok = False
                    break
                off += vectors[v, i] * strides[i]
            if ok:
                seen[out[idx - off]] = True
        g = 0
        while seen[g]:
            g += 1
        out[idx] = g


@dataclass(frozen=True)
class VectorKernel(TableKernel):
    """Grundy values of a game whose moves subtract fixed vectors (a new kernel kind).

    Examples
    --------
    >>> k = VectorKernel(((1, 0), (0, 1), (1, 1)))
    >>> k.run(TableRequest((3, 3), "grundy", 1 << 20, "example")).tolist()
    [[0, 1, 0], [1, 2, 3], [0, 3, 0]]
    >>> k.run(TableRequest((3, 3), "misere", 1 << 20, "example")) is None
    True
    """

    kind: ClassVar[str] = "example-vectors"

    vectors: tuple[tuple[int, ...], ...]

    def run(self, request: TableRequest) -> Any:
        import numpy as np

        if request.kind == "misere":
            return None  # normal play only: the engine's next method answers
        RUNS["table"] += 1
        out = np.zeros(int(np.prod(request.shape)), dtype=np.int64)
        dims = np.array(request.shape, dtype=np.int64)
        _fill(out, dims, np.array(self.vectors, dtype=np.int64))
        values = out.reshape(request.shape)
        return values if request.kind == "grundy" else values == 0

    def two_heap_lines(self) -> tuple[bool, bool, bool, tuple[tuple[int, int], ...]] | None:
        if any(len(v) != 2 for v in self.vectors):
            return None
        return False, False, False, tuple((v[0], v[1]) for v in self.vectors)


@dataclass(frozen=True)
class TakeThreeRecurrence(OneHeapKernel):
    """One heap of take-three Nim, by its recurrence (a new recurrence kind).

    Examples
    --------
    >>> TakeThreeRecurrence().run(6).tolist()
    [0, 1, 2, 3, 0, 1]
    """

    kind: ClassVar[str] = "example-take-three"

    def run(self, n: int) -> Any:
        import numpy as np

        RUNS["sequence"] += 1
        out = np.zeros(n, dtype=np.int64)
        for h in range(n):
            options = {int(out[h - t]) for t in (1, 2, 3) if t <= h}
            out[h] = min(set(range(5)) - options)
        return out


@dataclass(frozen=True)
class VectorGame(HeapRuleset):
    """Take 1, 2 or 3 stones from one heap (or, with *pairs*, the same from two heaps).

    Examples
    --------
    >>> sorted(VectorGame(pairs=True).moves((1, 2)))
    [(0, 1), (0, 2), (1, 0), (1, 1)]
    """

    name: ClassVar[str] = "example-vectors"

    pairs: bool = False

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for v in _vectors(len(position), self.pairs):
            if all(t <= h for t, h in zip(v, position, strict=True)):
                yield tuple(h - t for h, t in zip(position, v, strict=True))

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        if len(shape) == 1:
            return super().table_kernel(shape, kind)
        return VectorKernel(_vectors(len(shape), self.pairs))

    def sequence_kernel(self) -> OneHeapKernel | None:
        return TakeThreeRecurrence()
