"""A test-only game that brings a verification space of a kind the verifier does not know.

Even-total Nim: heaps whose total is even; a move takes an even number of stones from
one heap, or one stone from each of two heaps (the total stays even). Its
``verification_space`` hook answers an :class:`EvenTotalSpace`: the positions of
*n_heaps* heaps below a bound with an even total, ordered by total (every option comes
before its position), then lexicographically, one chunk per total. The space counts its
positions (``size``), names itself for the results store (``identity``) and brings its
own vectorised check of a chunk (``compiled_chunk``, numpy: the claim tabulated once,
by ``warm_up`` before the pool's workers are forked, the mex rule over whole arrays of
options). ``tests/test_space_protocol.py`` checks
``nimlab.verify`` and the CLI on it against brute-force enumeration and exhaustive search.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from nimlab.core.errors import InvalidPositionError
from nimlab.core.ruleset import HeapRuleset

__all__ = ["RUNS", "EvenTotalNim", "EvenTotalSpace"]

#: Chunks the space's own check ran in this process, and its warm-ups (the tests see the
#: verifier ask them).
RUNS: dict[str, int] = {"own": 0, "warm": 0}


def _moves(p: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    n = len(p)
    for i in range(n):
        for t in range(2, p[i] + 1, 2):
            yield p[:i] + (p[i] - t,) + p[i + 1 :]
    for i, j in itertools.combinations(range(n), 2):
        if p[i] and p[j]:
            q = list(p)
            q[i] -= 1
            q[j] -= 1
            yield tuple(q)


@dataclass(frozen=True)
class EvenTotalSpace:
    """*n_heaps* heaps ``< bound`` with an even total, by total then lexicographically;
    chunk ``i`` holds the positions of total ``2 i``.

    Examples
    --------
    >>> s = EvenTotalSpace(2, 3)
    >>> [list(s.chunk(i)) for i in range(s.n_chunks)]
    [[(0, 0)], [(0, 2), (1, 1), (2, 0)], [(2, 2)]]
    >>> s.size, s.contains((1, 1)), s.contains((0, 1))
    (5, True, False)
    """

    n_heaps: int
    bound: int
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __getstate__(self) -> dict[str, Any]:
        return {"n_heaps": self.n_heaps, "bound": self.bound}

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "n_heaps", state["n_heaps"])
        object.__setattr__(self, "bound", state["bound"])
        object.__setattr__(self, "_cache", {})

    @property
    def n_chunks(self) -> int:
        return self.n_heaps * (self.bound - 1) // 2 + 1

    def chunk(self, i: int) -> Iterator[tuple[int, ...]]:
        yield from self._of_total(2 * i, self.n_heaps)

    def _of_total(self, total: int, n: int) -> Iterator[tuple[int, ...]]:
        if n == 0:
            if total == 0:
                yield ()
            return
        for h in range(max(0, total - (n - 1) * (self.bound - 1)), min(total, self.bound - 1) + 1):
            for rest in self._of_total(total - h, n - 1):
                yield (h, *rest)

    def contains(self, position: Any) -> bool:
        return (
            type(position) is tuple
            and len(position) == self.n_heaps
            and all(type(h) is int and 0 <= h < self.bound for h in position)
            and sum(position) % 2 == 0
        )

    def describe(self) -> str:
        return f"{self.n_heaps} heaps < {self.bound} of even total, by total"

    @property
    def size(self) -> int:
        """Tuples of even total: ``(bound^n + (evens - odds)^n) / 2``."""
        evens, odds = (self.bound + 1) // 2, self.bound // 2
        return (self.bound**self.n_heaps + (evens - odds) ** self.n_heaps) // 2

    def identity(self) -> str:
        return f"even-total/{self.n_heaps}/{self.bound}"

    def compiled_chunk(self, spec: Any, i: int) -> tuple[int, Any] | None:
        """Chunk *i* of a Grundy claim over whole numpy arrays: ``(count, failure)``, or
        None (another kind of claim, a value that is not an integer: the Python path)."""
        import numpy as np

        from nimlab.verification.local import check_position

        if spec.kind != "grundy":
            return None
        table = self._table(spec)
        if table is None:
            return None
        rows = np.array(list(self.chunk(i)), dtype=np.int64).reshape(-1, self.n_heaps)
        RUNS["own"] += 1
        claimed = table[np.ravel_multi_index(rows.T, (self.bound,) * self.n_heaps)]
        dims = (self.bound,) * self.n_heaps
        opts = [(table[np.ravel_multi_index(q.T, dims)], ok) for q, ok in self._options(rows)]
        if not opts:
            bad = claimed != 0
        else:
            vals = np.sort(np.stack([np.where(ok, v, -1) for v, ok in opts], axis=1), axis=1)
            new = np.ones_like(vals, dtype=bool)
            new[:, 1:] = vals[:, 1:] != vals[:, :-1]
            below = ((vals >= 0) & (vals < claimed[:, None]) & new).sum(axis=1)
            bad = (vals == claimed[:, None]).any(axis=1) | (below != claimed)
        if not bad.any():
            return len(rows), None
        k = int(np.argmax(bad))
        pos = tuple(int(x) for x in rows[k])
        fail = check_position(
            spec.game, spec.kind, lambda p: spec.claim.value(spec.game, p), pos, self
        )
        return (k + 1, fail) if fail is not None else None

    def warm_up(self, spec: Any) -> None:
        """Tabulate the claim once here: the forked workers inherit the table."""
        RUNS["warm"] += 1
        self._table(spec)

    def _options(self, rows: Any) -> Iterator[tuple[Any, Any]]:
        """Per move, the option of every row (clipped to the box) and whether it is legal."""
        import numpy as np

        n = self.n_heaps
        for i in range(n):
            for t in range(2, self.bound, 2):
                q = rows.copy()
                q[:, i] -= t
                yield q.clip(0), (q[:, i] >= 0)
        for i, j in itertools.combinations(range(n), 2):
            q = rows.copy()
            q[:, i] -= 1
            q[:, j] -= 1
            yield q.clip(0), np.minimum(q[:, i], q[:, j]) >= 0

    def _table(self, spec: Any) -> Any:
        """The claim at every position of the box (-1 off the space), once per spec."""
        import numpy as np

        key = spec.key()
        if key not in self._cache:
            table = np.full((self.bound,) * self.n_heaps, -1, dtype=np.int64)
            try:
                for t in range(self.n_chunks):
                    for p in self.chunk(t):
                        v = spec.claim.value(spec.game, p)
                        if isinstance(v, bool) or int(v) != v or v < 0:
                            raise ValueError(v)
                        table[p] = v
                got: Any = table.ravel()
            except Exception:  # the Python path reports the claim's own error at its position
                got = None
            self._cache[key] = got
        return self._cache[key]


@dataclass(frozen=True)
class EvenTotalNim(HeapRuleset):
    """Take an even number of stones from one heap, or one from each of two heaps; the
    heaps' total is even.

    Examples
    --------
    >>> sorted(EvenTotalNim().moves((1, 3)))
    [(0, 2), (1, 1)]
    """

    name: ClassVar[str] = "even-total-nim"

    def validate(self, position: object) -> tuple[int, ...]:
        p = super().validate(position)
        if sum(p) % 2:
            raise InvalidPositionError(f"{p}: the heaps' total must be even")
        return p

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        yield from _moves(position)

    def verification_space(
        self, bound: int, heaps: int | None, chunk_size: int | None
    ) -> EvenTotalSpace:
        return EvenTotalSpace(heaps or 3, bound)
