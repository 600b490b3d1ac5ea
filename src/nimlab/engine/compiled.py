"""One compiled engine for every heap game with a compiled move model.

:class:`CompiledSolver` solves a heap game of ``n`` heaps (one to six) through its
``compiled_options`` hook: tables of any box (:func:`compiled_table`, used by
:func:`nimlab.table`) and single positions, keeping what it solved for the next call.
:func:`shared_solver` keeps a few solvers per process within a memory bound, so that
repeated calls of :func:`nimlab.grundy` / :func:`nimlab.outcome` on one game cost about
one table; :class:`Session` is the same cache as an explicit object.

Order-free games (the heap order does not matter) solve each multiset of heaps once;
games whose moves only lower heaps are solved in one pass per position with no descent;
games whose moves raise a heap (Lim) grow the array until it holds every position they
reach (exact, by iteration).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab._progress import Activity, Progress
from nimlab.core.errors import NimlabError, SearchTooLargeError
from nimlab.core.ruleset import HeapRuleset, Ruleset

__all__ = [
    "DEFAULT_SESSION_BYTES",
    "MAX_HEAPS",
    "CompiledSolver",
    "Session",
    "compiled_table",
    "has_compiled_model",
    "shared_solver",
]

MAX_HEAPS = 6
#: Memory bound of the solvers kept between calls (per process), in bytes.
DEFAULT_SESSION_BYTES = 512 * 2**20
_KINDS = {"grundy": 0, "outcome": 1, "misere": 2}
_CHUNK_SECONDS = 0.25

_BROKEN: dict[Ruleset[Any], str] = {}
#: (move model, number of heaps) whose solve kernel has run in this process (compiled)
_RAN: set[tuple[Any, int]] = set()


def order_free(game: Ruleset[Any]) -> bool:
    """Whether positions of *game* are multisets of heaps (canonical form: sorted heaps)."""
    return (
        isinstance(game, HeapRuleset)
        and not game.ordered
        and type(game).canonical is HeapRuleset.canonical
    )


def has_compiled_model(game: Ruleset[Any]) -> bool:
    """Whether *game* is a heap game with a compiled move model that compiles."""
    if not isinstance(game, HeapRuleset) or game in _BROKEN:
        return False
    try:
        return game.compiled_options() is not None
    except Exception as exc:  # a model that cannot even be built
        _mark_broken(game, exc)
        return False


def _mark_broken(game: Ruleset[Any], exc: BaseException) -> None:
    import warnings

    if game not in _BROKEN:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        _BROKEN[game] = msg
        warnings.warn(
            f"{game.label()}: the move function does not compile with numba ({msg}); "
            "running it as Python instead (same results, slower)",
            RuntimeWarning,
            stacklevel=3,
        )


def _count(side: int, n: int, free: bool) -> int:
    return math.comb(side + n - 1, n) if free else side**n


def _ranks(side: int, n: int) -> npt.NDArray[np.int64]:
    """``cb[i, h] = C(h + i, i + 1)`` for ``h <= side``: the colex rank of sorted heaps
    ``a0 <= ... <= a(n-1)`` is ``sum cb[i, a_i]`` (each row the running sum of the last)."""
    cb = np.empty((n, side + 1), dtype=np.int64)
    cb[0] = np.arange(side + 1, dtype=np.int64)
    for i in range(1, n):
        np.cumsum(cb[i - 1], out=cb[i])
    return cb


class CompiledSolver:
    """Memoised compiled solver of one heap game, one number of heaps and one kind.

    Parameters
    ----------
    game : HeapRuleset
        A game whose ``compiled_options`` hook gives a compiled move model.
    heaps : int
        The number of heaps (1 to 6).
    kind : {"grundy", "outcome", "misere"}
        Grundy values, or P/N in normal or misère play.
    max_bytes : int
        Memory budget of the dense array of values.
    parallel : bool or None
        Tables of order-free games: solve level by level (number of stones) on every core
        of numba's thread pool (True), serially (False), or in parallel from
        ``planner.Budgets.parallel_min_positions`` sorted positions on when numba has
        several threads
        (None).

    Examples
    --------
    >>> from nimlab import game
    >>> s = CompiledSolver(game("single-delete"), 4, "outcome")
    >>> s.value((3, 5, 7, 9)), s.value((2, 4, 6, 8))   # 0: P (all heaps odd, Sh-P7), 1: N
    (0, 1)
    >>> int(s.table((2, 8, 8, 8))[1, 3, 5, 7])
    0
    """

    def __init__(
        self,
        game: Ruleset[Any],
        heaps: int,
        kind: str,
        max_bytes: int = DEFAULT_SESSION_BYTES,
        parallel: bool | None = None,
    ) -> None:
        if not isinstance(game, HeapRuleset):
            raise NimlabError(f"{game.label()}: the compiled engine takes heap games only")
        gen = game.compiled_options()
        if gen is None:
            raise NimlabError(f"{game.label()}: the game has no compiled move model")
        if not 1 <= heaps <= MAX_HEAPS:
            raise NimlabError(
                f"{game.label()}: the compiled engine takes 1 to {MAX_HEAPS} heaps, got {heaps}"
            )
        self.game = game
        self.gen: Any = gen
        self.heaps = heaps
        self.kind = kind
        self.code = _KINDS[kind]
        self.max_bytes = max_bytes
        self.free = order_free(game)
        self.lo = int(getattr(game, "min_heap_size", 0))
        self.zero = (0,) * heaps
        self.side = 0
        self.dtype = np.int32  # one compiled specialisation for every kind
        self.state: npt.NDArray[Any] = np.zeros(0, dtype=self.dtype)
        self.ranks = _ranks(0, heaps)
        self.complete = 0  # every valid position with heaps < complete is solved
        self._custom_check = type(game).check is not HeapRuleset.check
        self._cache_tried = False
        self._cached: Any = None
        self.parallel = parallel

    # -- memory ---------------------------------------------------------------------
    def nbytes(self) -> int:
        """Bytes held (dense array of values and rank terms)."""
        return int(self.state.nbytes + self.ranks.nbytes)

    def _bytes_for(self, side: int) -> int:
        return _count(side, self.heaps, self.free) * np.dtype(self.dtype).itemsize

    def _check_budget(self, side: int) -> None:
        need = self._bytes_for(side)
        if need > self.max_bytes:
            what = "multisets of" if self.free else "positions of"
            raise SearchTooLargeError(
                f"{self.game.label()}: solving all {what} {self.heaps} heaps below {side} "
                f"needs {need / 2**20:,.1f} MiB, more than the limit of "
                f"{self.max_bytes / 2**20:,.1f} MiB; use smaller heaps or raise max_bytes"
            )

    def ensure(self, side: int) -> None:
        """Grow the dense array to hold every position with heaps below *side*."""
        if side <= self.side:
            return
        new_side = side
        if self.side and self._bytes_for(2 * self.side) <= self.max_bytes:
            new_side = max(side, 2 * self.side)
        self._check_budget(new_side)
        size = _count(new_side, self.heaps, self.free)
        state = np.full(size, -1, dtype=self.dtype)
        if self.side:
            if self.free:  # the colex rank does not depend on the side
                state[: self.state.size] = self.state
            else:
                old = (self.side,) * self.heaps
                box = tuple(slice(0, self.side) for _ in range(self.heaps))
                state.reshape((new_side,) * self.heaps)[box] = self.state.reshape(old)
        self.state = state
        self.side = new_side
        self.ranks = _ranks(new_side, self.heaps)

    # -- solving --------------------------------------------------------------------
    def _indices(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        ix = np.zeros(rows.shape[0], dtype=np.int64)
        for i in range(self.heaps):
            if self.free:
                ix += self.ranks[i, rows[:, i]]
            else:
                ix = ix * self.side + rows[:, i]
        return ix

    def _run(self, starts: npt.NDArray[np.int64]) -> int:
        from nimlab.engine import _generic

        report = np.zeros(self.heaps + 1, dtype=np.int64)
        while True:
            code = self._solve(starts, report)
            if code != _generic.OUTSIDE:
                break
            # a move raised a heap beyond the array: grow it (exactly, by iteration)
            self._reset_stack_marks()
            self.ensure(int(report[: self.heaps].max()) + 1)
        if code != _generic.OK:
            self._reset_stack_marks()
            pos = " ".join(str(int(x)) for x in report[: self.heaps])
            if code == _generic.LOOP:
                from nimlab.engine.search import find_cycle, loopy_error

                where = tuple(int(x) for x in report[: self.heaps])
                raise loopy_error(self.game, find_cycle(self.game, where))
            raise NimlabError(
                f"{self.game.label()}: the move function gave an option with a negative "
                f"heap ({pos}); options must have heaps >= 0"
            )
        return int(report[self.heaps])

    def _solve(self, starts: npt.NDArray[np.int64], report: npt.NDArray[np.int64]) -> int:
        """One run of the kernel: the game's disk-cached kernel when it has one (users'
        games, see :mod:`nimlab.engine._diskcache`), else the kernel compiled in memory."""
        args = (
            self.zero,
            starts,
            self._indices(starts),
            self.state,
            self.free,
            self.side,
            self.ranks,
            self.code,
            report,
        )
        key = (self.gen, self.heaps)
        if key in _RAN:
            return self._solve_now(args)
        # the first run in this process compiles the engine for this game and number of
        # heaps (seconds): a spinner with the elapsed time says so on a terminal
        what = f"{self.game.label()}: compiling the engine for {self.heaps} heaps"
        with Activity(f"{what} (once per process)"):
            code = self._solve_now(args, first=True)
        _RAN.add(key)
        return code

    def _solve_now(self, args: tuple[Any, ...], first: bool = False) -> int:
        from nimlab.engine import _diskcache, _generic

        if not self._cache_tried:
            self._cache_tried = True
            self._cached = _diskcache.cached_solve(self.game)
        if self._cached is not None:
            try:
                if first:  # compiled once when processes need it at once
                    _diskcache.prepare_solve(self.game, args)
                return int(self._cached(*args))
            except Exception as exc:
                if _is_compile_error(exc):
                    _mark_broken(self.game, exc)
                    raise _NotCompiled from exc
                # numba could not load or keep its cache files: compile in memory instead
                _diskcache.discard(self.game)
                self._cached = None
        self._compile_model()
        return int(_generic.solve(self.gen, *args))

    def _compile_model(self) -> None:
        """Type the move model for this number of heaps (a failure means: not compilable)."""
        if getattr(self, "_compiled", False):
            return
        from numba import types

        try:
            tuple_type: Any = types.UniTuple
            self.gen.compile((tuple_type(types.int64, self.heaps),))
        except Exception as exc:
            if _is_compile_error(exc):
                _mark_broken(self.game, exc)
                raise _NotCompiled from exc
            raise
        self._compiled = True

    def _reset_stack_marks(self) -> None:
        self.state[self.state == -2] = -1

    def value(self, position: Sequence[int]) -> int:
        """Grundy value (or 0 for P, 1 for N) of one valid position."""
        pos = tuple(int(h) for h in position)
        if self.free:
            pos = tuple(sorted(pos))
        self.ensure(max(pos) + 1)
        starts = np.array([pos], dtype=np.int64)
        self._run(starts)
        if self.free:
            ix = sum(math.comb(h + i, i + 1) for i, h in enumerate(pos))
        else:
            ix = 0
            for h in pos:
                ix = ix * self.side + h
        return int(self.state[ix])

    def _starts(self, side: int) -> tuple[int, Callable[[int, int], npt.NDArray[np.int64]]]:
        """How many start positions below *side*, and a function giving a slice of them."""
        n = self.heaps
        lo = min(self.lo, side)
        if self.free:
            from nimlab.engine import _generic

            total = math.comb(side - lo + n - 1, n)
            state = {"next": np.full((1, n), lo, dtype=np.int64)}

            def block(first: int, count: int) -> npt.NDArray[np.int64]:
                rows, _ = _generic.multisets(lo, side, state["next"], count + 1, self.ranks)
                state["next"] = rows[-1:].copy()
                return np.ascontiguousarray(rows[:count])

            return total, block
        width = side - lo
        total = width**n

        def block_ordered(first: int, count: int) -> npt.NDArray[np.int64]:
            idx = np.arange(first, first + count, dtype=np.int64)
            cols = np.unravel_index(idx, (width,) * n)
            return np.ascontiguousarray(np.stack(cols, axis=1).astype(np.int64) + lo)

        return total, block_ordered

    def _filter(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        if not self._custom_check:
            return rows
        from nimlab.core.errors import InvalidPositionError

        keep = np.ones(rows.shape[0], dtype=np.bool_)
        for i, r in enumerate(rows.tolist()):
            try:
                self.game.check(tuple(r))
            except InvalidPositionError:
                keep[i] = False
        return np.ascontiguousarray(rows[keep])

    def _use_levels(self, side: int) -> bool:
        """Whether :meth:`solve_below` runs the parallel wavefront (:mod:`._levels`)."""
        if not self.free or self.heaps < 2 or self._custom_check or self.parallel is False:
            return False
        if self.parallel:
            return True
        from nimlab import planner

        least = planner.DEFAULT_BUDGETS.parallel_min_positions  # the planner's threshold
        if _count(side, self.heaps, True) < least:
            return False  # before asking for threads: that starts numba's thread pool
        from nimlab.engine import _levels

        return _levels.threads() > 1

    def _solve_levels(self, side: int, bar: Progress | None) -> bool:
        """Solve the sorted positions below *side* level by level (number of stones), each
        level in parallel; False when a level had positions with unknown options (the
        moves do not all lower the total): the serial engine then finishes.

        Outcome tables (values -1, 0, 1) are solved in a copy of two bits a position
        (:func:`._levels.pack`), when the memory budget has room for it beside the
        engine's array: a sixteenth of the memory traffic, within a core's cache."""
        from nimlab.engine import _levelcache, _levels

        n = self.heaps
        lo = min(self.lo, side)
        if not _levelcache.available(self.game):  # else its module has the move model
            self._compile_model()
        words = (self.state.size + 31) // 32
        small = self.code != 0 and self.state.nbytes + 8 * words <= self.max_bytes
        state = self.state
        if small:
            state = np.empty(words, dtype=np.uint64)
            _levels.pack(self.state, state)
        first, last = lo * n, (side - 1) * n
        step = 1 if bar is not None else max(1, last - first + 1)  # a bar: level by level
        counts = np.zeros((1, 2), dtype=np.int64)
        none = np.zeros((0, 2), dtype=np.int64)
        work = 0  # the positions of the level before
        most = _levels.threads()
        try:
            for start in range(first, last + 1, step):
                try:
                    work = _levelcache.solve_levels(
                        self.game, self.gen, self.zero, state, self.side, self.ranks,
                        self.code, lo, side - 1, start, min(last, start + step - 1), none,
                        counts, _levels.LEVEL_MIN_POSITIONS, work,
                    )  # fmt: skip
                except Exception as exc:
                    if not _is_compile_error(exc):
                        raise
                    self.parallel = False  # the serial engine solves it
                    return False
                if bar is not None:
                    bar.update(int(counts[0, 0]))
                if counts[0, 1]:
                    return False
            return True
        finally:
            _levels.use_threads(most)
            if small:
                _levels.unpack(state, self.state)

    def solve_below(self, side: int, progress: bool = False) -> None:
        """Solve every valid position whose heaps are all below *side*."""
        self.ensure(side)
        if self.complete >= side:
            return
        total, block = self._starts(side)
        done = 0
        chunk = 4096
        bar = (
            Progress(f"{self.game.label()}: {self.kind} table", total, "positions")
            if progress
            else None
        )
        try:
            if self._use_levels(side) and self._solve_levels(side, bar):
                done = total
            while done < total:
                count = min(chunk, total - done)
                rows = self._filter(block(done, count))
                t0 = time.perf_counter()
                self._run(rows)
                dt = time.perf_counter() - t0
                done += count
                if bar is not None:
                    bar.update(done)
                if dt < _CHUNK_SECONDS / 4:
                    chunk *= 2
                elif dt > _CHUNK_SECONDS and chunk > 256:
                    chunk //= 2
        finally:
            if bar is not None:
                bar.close()
        self.complete = side

    def table(self, dims: Sequence[int], progress: bool = False) -> npt.NDArray[Any]:
        """Values over the box ``0 <= h[i] < dims[i]`` (-1 where a position is invalid)."""
        from nimlab.engine import _generic

        dims_t = tuple(int(d) for d in dims)
        side = max(dims_t)
        self.solve_below(side, progress)
        cells = math.prod(dims_t)
        out = np.empty(cells, dtype=self.dtype)
        _generic.expand(
            out,
            self.zero,
            np.array(dims_t, dtype=np.int64),
            self.state,
            self.free,
            self.side,
            self.ranks,
        )
        return out.reshape(dims_t)


class _NotCompiled(Exception):
    """The move model failed to compile (the caller falls back to Python)."""


def _is_compile_error(exc: BaseException) -> bool:
    from nimlab.catalog._numba_errors import is_compile_error

    return is_compile_error(exc)


# -- sharing solvers between calls ------------------------------------------------------


class Session:
    """Compiled solvers kept between calls, within a memory bound.

    ``nimlab.grundy`` and ``nimlab.outcome`` use one process-wide session
    (:func:`shared_solver`); a ``Session`` of your own keeps its solvers apart.

    Parameters
    ----------
    max_bytes : int
        Bound of the memory of all solvers together; the least recently used solvers
        are dropped beyond it.

    Examples
    --------
    >>> from nimlab import game
    >>> s = Session()
    >>> g = game("single-delete")
    >>> [s.outcome(g, (1, 3, h)) for h in (5, 6, 7)]   # the same as [Sh] Theorem 3
    ['P', 'N', 'P']
    """

    def __init__(self, max_bytes: int = DEFAULT_SESSION_BYTES) -> None:
        self.max_bytes = max_bytes
        self._solvers: OrderedDict[tuple[Ruleset[Any], int, str], CompiledSolver] = OrderedDict()

    def solver(self, game: Ruleset[Any], heaps: int, kind: str) -> CompiledSolver:
        """The solver of *game* for *heaps* heaps and *kind* (made on first use)."""
        key = (game, heaps, kind)
        s = self._solvers.get(key)
        if s is None:
            s = self._solvers[key] = CompiledSolver(game, heaps, kind, self.max_bytes)
        self._solvers.move_to_end(key)
        return s

    def trim(self) -> None:
        """Drop the least recently used solvers while the total exceeds the bound."""
        total = sum(s.nbytes() for s in self._solvers.values())
        while total > self.max_bytes and len(self._solvers) > 1:
            _, s = self._solvers.popitem(last=False)
            total -= s.nbytes()
        if total > self.max_bytes and self._solvers:
            self._solvers.clear()

    def value(self, game: Ruleset[Any], position: Sequence[int], kind: str) -> int:
        """Grundy value (kind ``grundy``) or 0/1 for P/N of a validated heap position."""
        s = self.solver(game, len(position), kind)
        try:
            return s.value(position)
        finally:
            self.trim()

    def grundy(self, game: Ruleset[Any], position: Sequence[int]) -> int:
        """Grundy value of a valid position of *game*."""
        return self.value(game, game.validate(position), "grundy")

    def outcome(self, game: Ruleset[Any], position: Sequence[int], misere: bool = False) -> str:
        """``"P"`` or ``"N"`` for a valid position of *game*."""
        v = self.value(game, game.validate(position), "misere" if misere else "outcome")
        return "P" if v == 0 else "N"


_SESSION = Session()


def shared_solver() -> Session:
    """The process-wide session used by :func:`nimlab.grundy` and :func:`nimlab.outcome`."""
    return _SESSION


def compiled_value(game: Ruleset[Any], position: tuple[int, ...], kind: str) -> int | None:
    """*position*'s value by the shared compiled solver, or None (no model, too large).

    A take-and-break game (a one-heap move model, ``split_move_table``) is solved over
    multisets of heaps by :mod:`nimlab.engine.splits`."""
    from nimlab.engine import splits

    if splits.has_split_model(game):
        return splits.split_value(game, position, kind)
    if not 1 <= len(position) <= MAX_HEAPS or not has_compiled_model(game):
        return None
    side = max(position) + 1
    if _count(side, len(position), order_free(game)) * 4 > _SESSION.max_bytes:
        return None  # beyond the session's memory: the caller searches (with its budget)
    try:
        return _SESSION.value(game, position, kind)
    except _NotCompiled:
        return None


def compiled_table(
    game: Ruleset[Any],
    dims: tuple[int, ...],
    kind: str,
    max_bytes: int,
    progress: bool = False,
) -> npt.NDArray[Any] | None:
    """The table of *game* over the box *dims* by the compiled engine (-1: invalid).

    None when the game has no compiled model (or it does not compile).
    """
    from nimlab.engine import splits

    if splits.has_split_model(game):
        return splits.split_table(game, dims, kind, max_bytes)
    if not 1 <= len(dims) <= MAX_HEAPS or not has_compiled_model(game):
        return None
    side = max(dims)
    free = order_free(game)
    itemsize = 4
    need = _count(side, len(dims), free) * itemsize + math.prod(dims) * itemsize
    if need > max_bytes:
        raise SearchTooLargeError(
            f"{game.label()}: a table of shape {dims} needs about {need / 2**20:,.0f} MiB, "
            f"more than the limit of {max_bytes / 2**20:,.0f} MiB; use a smaller shape or "
            "raise max_bytes"
        )
    solver = _SESSION.solver(game, len(dims), kind)
    if solver.side < side and solver.max_bytes < max_bytes:
        solver.max_bytes = max_bytes
    try:
        return solver.table(dims, progress)
    except _NotCompiled:
        return None
    finally:
        _SESSION.trim()
