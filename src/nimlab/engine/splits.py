"""The compiled engine of take-and-break games: moves that change the number of heaps.

A game whose ``split_move_table`` hook gives its one-heap move model (a move replaces
one heap by the heaps it leaves: octal and hexadecimal codes, take-and-break codes,
users' :func:`nimlab.take_and_break` functions) is solved here over every multiset of
nonempty heaps up to a total size, in normal play (Grundy values, outcomes) and in
misère play, where a position is not the sum of its heaps' values. The positions are
sorted multisets numbered by total, then lexicographically (:mod:`._splitmodel`); the
solver keeps what it solved and grows by appending, so repeated questions on one game
cost about one table. The kernel is compiled once and kept by numba's own disk cache:
the game's model is data (the options of each heap), not code.

:func:`split_value` and :func:`split_table` are what :mod:`nimlab.engine.compiled`
runs when the planner chose the compiled engine for such a game.

Examples
--------
>>> from nimlab import game
>>> s = SplitSolver(game("octal", code="0.77"), "misere")   # misère Kayles
>>> s.value((1,)), s.value((1, 1)), s.value((1, 1, 1))   # 0: P, 1: N
(0, 1, 0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.core.errors import GameDefinitionError, SearchTooLargeError
from nimlab.core.ruleset import HeapRuleset, Ruleset, has_split_model, multisets_up_to

__all__ = ["SplitSolver", "has_split_model", "positions_up_to", "split_table", "split_value"]

_KINDS = {"grundy": 0, "outcome": 1, "misere": 2}
#: Most rows of a one-heap move table (options of every heap up to the largest total).
MAX_ROWS = 20_000_000
#: Memory bound of the split solvers kept between calls, in bytes.
DEFAULT_BYTES = 512 * 2**20


def positions_up_to(total: int) -> int:
    """The number of multisets of nonempty heaps of total at most *total*
    (:func:`nimlab.core.ruleset.multisets_up_to`).

    Examples
    --------
    >>> positions_up_to(3), positions_up_to(60)
    (7, 6639349)
    """
    return multisets_up_to(total)


class SplitSolver:
    """Compiled solver of one take-and-break game and one kind, over sorted multisets.

    Parameters
    ----------
    game : HeapRuleset
        A game whose ``split_move_table`` hook gives its one-heap move model.
    kind : {"grundy", "outcome", "misere"}
        Grundy values, or P/N (0/1) in normal or misère play.
    max_bytes : int
        Memory budget of the values (one byte per position for outcomes, four for values).

    Examples
    --------
    >>> from nimlab import game
    >>> s = SplitSolver(game("octal", code="4!.0"), "grundy")   # Grundy's game
    >>> [s.value((n,)) for n in range(1, 11)]
    [0, 0, 1, 0, 2, 1, 0, 2, 1, 0]
    >>> s.value((7, 8)) == 0 ^ 2
    True
    """

    def __init__(self, game: Ruleset[Any], kind: str, max_bytes: int = DEFAULT_BYTES) -> None:
        if not isinstance(game, HeapRuleset):
            raise GameDefinitionError(f"{game.label()}: the split engine takes heap games only")
        self.game = game
        self.kind = kind
        self.code = _KINDS[kind]
        self.max_bytes = max_bytes
        self.gen: Any = _generator(game)  # None: the one-heap table
        # a generator's kernel is compiled per process: one type of values for all kinds
        self.dtype = np.int32 if kind == "grundy" or self.gen is not None else np.int8
        self.top = -1  # the largest total the arrays hold
        self.state: npt.NDArray[Any] = np.zeros(0, dtype=self.dtype)
        self.done = 0  # positions of rank < done are solved
        self.cur = np.zeros(1, dtype=np.int64)  # the partition of rank done
        self.io = np.zeros(3, dtype=np.int64)  # its number of heaps, its total
        self.seen = np.zeros(64, dtype=np.int64)
        self.q = np.zeros((1, 1), dtype=np.int64)
        self.off = np.zeros(2, dtype=np.int64)
        self._model: tuple[npt.NDArray[np.int64], ...] = ()
        self.buf = np.zeros(64, dtype=np.int64)

    def nbytes(self) -> int:
        """Bytes held (values, counts and the move table)."""
        return int(self.state.nbytes + self.q.nbytes + sum(a.nbytes for a in self._model))

    def _table(self, top: int) -> tuple[npt.NDArray[np.int64], ...]:
        """The one-heap move model for heaps up to *top*, as arrays (``hoff``, ``parts``
        in decreasing order, ``npart``, ``psum``)."""
        table = self.game.split_move_table(top)
        if table is None or len(table) < top + 1:
            raise GameDefinitionError(f"{self.game.label()}: the game gives no one-heap move table")
        rows = sum(len(table[h]) for h in range(1, top + 1))
        if rows > MAX_ROWS:
            raise SearchTooLargeError(
                f"{self.game.label()}: the heaps up to {top} have {rows:,} options, more than "
                f"the compiled engine's {MAX_ROWS:,}; ask smaller positions"
            )
        width = max((len(o) for h in range(1, top + 1) for o in table[h]), default=1)
        hoff = np.zeros(top + 2, dtype=np.int64)
        parts = np.zeros((max(rows, 1), max(width, 1)), dtype=np.int64)
        npart = np.zeros(max(rows, 1), dtype=np.int64)
        psum = np.zeros(max(rows, 1), dtype=np.int64)
        r = 0
        for h in range(top + 1):
            hoff[h] = r
            if h == 0:
                continue
            for o in table[h]:
                heaps = sorted((int(x) for x in o if x), reverse=True)
                if heaps and (heaps[0] >= h or sum(heaps) > h):
                    raise GameDefinitionError(
                        f"{self.game.label()}: a move on a heap of {h} leaves the heaps "
                        f"{tuple(heaps)}: the compiled engine takes moves that leave smaller "
                        "heaps of no more tokens"
                    )
                parts[r, : len(heaps)] = heaps
                npart[r] = len(heaps)
                psum[r] = sum(heaps)
                r += 1
        hoff[top + 1] = r
        return hoff, parts, npart, psum

    def ensure(self, total: int) -> None:
        """Hold every multiset of heaps of total at most *total*."""
        if total <= self.top:
            return
        from nimlab.engine import _splitmodel

        need = positions_up_to(total)
        if need * np.dtype(self.dtype).itemsize > self.max_bytes:
            raise SearchTooLargeError(
                f"{self.game.label()}: the compiled engine solves all {need:,} multisets of "
                f"heaps of total up to {total}, more than its memory limit of "
                f"{self.max_bytes / 2**20:,.0f} MiB allows; ask smaller positions"
            )
        if self.gen is None:
            self._model = self._table(total)
        self.buf = np.zeros(2 * total + 64, dtype=np.int64)
        self.q, self.off = _splitmodel.partition_counts(total)
        state = np.full(need, -1, dtype=self.dtype)
        state[: self.state.size] = self.state
        self.state = state
        cur = np.zeros(total + 1, dtype=np.int64)
        cur[: self.cur.size] = self.cur
        self.cur = cur
        self.top = total

    def solve_to(self, last: int) -> None:
        """Solve every position of rank below *last* (the arrays must hold them)."""
        from nimlab.engine import _splitmodel

        kernel: Any = _splitmodel.solve_range
        while self.done < last:
            if self.gen is not None:
                code = self._run_gen(last)
            else:
                code = kernel(
                    self.state, self.code, self.q, self.off, *self._model,
                    self.cur, self.io, self.done, last, self.seen,
                )  # fmt: skip
            self.done = int(self.io[2])
            if code == _splitmodel.TOO_MANY:
                self.seen = np.zeros(2 * self.seen.size, dtype=np.int64)
            elif code != _splitmodel.OK:
                at = " ".join(map(str, self.cur[: int(self.io[0])].tolist()))
                why = (
                    "an option with a negative heap"
                    if code == _splitmodel.NEGATIVE
                    else "an option the compiled engine has not solved before it (a move "
                    "that adds tokens)"
                )
                raise GameDefinitionError(f"{self.game.label()}: the position {at} has {why}")

    def _run_gen(self, last: int) -> int:
        """One run of the generator's kernel: from the game's module in the cache
        directory when it gives its source (then numba keeps the machine code on disk),
        else compiled in memory."""
        from nimlab.engine import _splitmodel

        args = (
            self.state, self.code, self.q, self.off, self.cur, self.io, self.done, last,
            self.seen, self.buf,
        )  # fmt: skip
        cached = _cached_kernel(self.game)
        if cached is not None:
            try:
                return int(cached(*args))
            except Exception as exc:
                if _not_compiled(exc):
                    raise
                _KERNELS[self.game] = None  # numba could not load or keep its cache files
        return int(_splitmodel.solve_range_gen(self.gen, *args))

    def rank(self, heaps: Sequence[int]) -> int:
        """The rank of the multiset of *heaps* (zeros dropped)."""
        a = sorted((int(h) for h in heaps if h), reverse=True)
        t = sum(a)
        r = int(self.off[t])
        left = t
        for x in a:
            r += int(self.q[left, x - 1])
            left -= x
        return r

    def value(self, position: Sequence[int]) -> int:
        """Grundy value (or 0 for P, 1 for N) of the position *position* (any heaps)."""
        total = sum(int(h) for h in position)
        self.ensure(total)
        r = self.rank(position)
        self.solve_to(r + 1)
        return int(self.state[r])

    def table(self, dims: Sequence[int]) -> npt.NDArray[Any]:
        """Values over the box ``0 <= h[i] < dims[i]``."""
        from nimlab.engine import _splitmodel

        dims_t = tuple(int(d) for d in dims)
        total = sum(d - 1 for d in dims_t)
        self.ensure(total)
        self.solve_to(int(self.off[total + 1]))
        out = np.empty(math.prod(dims_t), dtype=self.dtype)
        _splitmodel.expand_box(out, np.array(dims_t, dtype=np.int64), self.state, self.q, self.off)
        return out.reshape(dims_t)


_SOLVERS: dict[tuple[Ruleset[Any], str], SplitSolver] = {}
_GENERATORS: dict[Ruleset[Any], Any] = {}


_KERNELS: dict[Ruleset[Any], Any] = {}


def _kernel_source() -> str:
    """:func:`._splitmodel.solve_range_gen` as source calling a module's ``gen``
    (:func:`._diskcache.kernel_def`: its globals under prefixed names, apart from the
    user's), named by the kernels' source (numba does not see it change)."""
    import hashlib
    from pathlib import Path

    from nimlab.engine import _diskcache, _splitmodel

    text, imports = _diskcache.kernel_def(_splitmodel.solve_range_gen, "solve_split")
    digest = hashlib.sha256(Path(_splitmodel.__file__).read_bytes()).hexdigest()[:16]
    return "\n".join(
        [
            "",
            f"# -- appended by nimlab.engine.splits (kernels {digest}) --",
            "from numba import njit as _nimlab_split_njit",
            *imports,
            "",
            text,
            "",
            "solve_split = _nimlab_split_njit(cache=True, nogil=True)(solve_split)",
            "",
        ]
    )


def _cached_kernel(game: Ruleset[Any]) -> Any:
    """The generator kernel of *game* from its module in the cache directory, or None
    (no source: a closure, an interactive function; a directory that cannot be used)."""
    if game not in _KERNELS:
        from nimlab.engine import _diskcache

        source_of = getattr(game, "compiled_source", None)
        text = source_of() if source_of is not None else None
        loaded = None if text is None else _diskcache.cached_module(text + _kernel_source())
        _KERNELS[game] = None if loaded is None else loaded[1].solve_split
    return _KERNELS[game]


def _generator(game: HeapRuleset) -> Any:
    """The game's ``compiled_split_options`` generator, one per game and process (the
    kernel that runs it is compiled for each generator object)."""
    if game not in _GENERATORS:
        _GENERATORS[game] = game.compiled_split_options()
    return _GENERATORS[game]


def _solver(game: Ruleset[Any], kind: str, max_bytes: int) -> SplitSolver:
    key = (game, kind)
    s = _SOLVERS.get(key)
    if s is None:
        s = _SOLVERS[key] = SplitSolver(game, kind, max_bytes)
    s.max_bytes = max(s.max_bytes, max_bytes)
    while sum(x.nbytes() for x in _SOLVERS.values()) > DEFAULT_BYTES and len(_SOLVERS) > 1:
        oldest = next(iter(_SOLVERS))
        if oldest == key:
            break
        del _SOLVERS[oldest]
    return s


def split_value(game: Ruleset[Any], position: Sequence[int], kind: str) -> int | None:
    """*position*'s value by the shared split solver of *game*, or None (no model,
    beyond memory, or moves the engine does not take).

    Examples
    --------
    >>> from nimlab import game
    >>> split_value(game("octal", code="0.07"), (3, 4), "misere")   # misère Dawson's Kayles
    1
    """
    total = sum(int(h) for h in position)
    if not has_split_model(game) or positions_up_to(min(total, 120)) * 4 > DEFAULT_BYTES:
        return None
    try:
        return _solver(game, kind, DEFAULT_BYTES).value(position)
    except (SearchTooLargeError, GameDefinitionError):
        _SOLVERS.pop((game, kind), None)
        return None
    except Exception as exc:  # a model numba cannot compile: the search answers
        _SOLVERS.pop((game, kind), None)
        if _not_compiled(exc):
            return None
        raise


def _not_compiled(exc: BaseException) -> bool:
    from nimlab.catalog._numba_errors import is_compile_error

    return is_compile_error(exc)


def split_table(
    game: Ruleset[Any], dims: tuple[int, ...], kind: str, max_bytes: int = DEFAULT_BYTES
) -> npt.NDArray[Any] | None:
    """The table of *game* over the box *dims* by the split engine, or None (no model,
    or moves the engine does not take).

    Examples
    --------
    >>> from nimlab import game
    >>> split_table(game("octal", code="0.77"), (3, 3), "misere").tolist()
    [[1, 0, 1], [0, 1, 1], [1, 1, 0]]
    """
    if not has_split_model(game):
        return None
    try:
        return _solver(game, kind, max_bytes).table(dims)
    except GameDefinitionError:
        _SOLVERS.pop((game, kind), None)
        return None
    except Exception as exc:
        _SOLVERS.pop((game, kind), None)
        if _not_compiled(exc):
            return None
        raise
