"""Several threads over one box of the vectorised check (:mod:`nimlab.verification.fast`),
by columns: :class:`ColumnRun`."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from nimlab.verification.fast import (
    MAX_STATE_BYTES,
    BoxRun,
    MoveModel,
    _eval_rows,
    _need,
    _strip,
)
from nimlab.verification.local import Failure, check_position

# -- several threads over one box, by columns ---------------------------------------------
#
# The threads of one process share the box by columns instead of blocks of rows: thread k
# of W checks the columns b = k, k + W, ... of every row, in row order. A column's line
# state is then kept by one thread only (the state of all threads together is that of one
# worker, not W copies), the claim of each chunk is evaluated once (by one thread, in
# turn, for all), every thread's work is the same share of every row (no cost model, no
# waiting for summaries), and each chunk is reported as soon as the last thread passes
# it. The work added per thread is one OR per position of the other threads' columns:
# the row's bitset (and the diagonals', for games with diagonal moves) are filled from
# every column.


class _ThreadLines:
    """One thread's line state in a :class:`ColumnRun`: its columns' bitsets (or flags),
    every diagonal's, and their width in 64-bit words (0: P-set flags)."""

    def __init__(self, model: MoveModel, n_cols: int, n: int, width: int) -> None:
        import numpy as np

        self.width = width
        self.col: Any
        self.diag: Any
        if width == 0:
            self.col = np.zeros(max(n_cols, 1), np.bool_)
            self.diag = np.zeros(2 * n - 1, np.bool_)
        else:
            self.col = np.zeros((max(n_cols, 1) if model.line_a else 1, width), np.uint64)
            self.diag = np.zeros((2 * n - 1 if model.line_d else 1, width), np.uint64)

    def widen(self, width: int) -> None:
        """At least *width* words per bitset (copied into wider arrays)."""
        import numpy as np

        if width <= self.width:
            return
        col = np.zeros((self.col.shape[0], width), np.uint64)
        diag = np.zeros((self.diag.shape[0], width), np.uint64)
        col[:, : self.width] = self.col
        diag[:, : self.width] = self.diag
        self.col, self.diag, self.width = col, diag, width


class ColumnRun(BoxRun):
    """One vectorised check of a box on *workers* threads of this process, by columns
    (see the comment above :class:`_ThreadLines`).

    Each thread calls :meth:`run` with its number; *emit* receives each chunk's
    ``(index, count, failure, method)`` once every thread has passed it, *exact(i)*
    checks chunk *i* on the exact Python path (where the kernel and the exact check
    disagree, or the state would be too wide); *stop* is the runner's list holding the
    first failing chunk once known; *cancel* ends every thread early.
    """

    def __init__(
        self,
        spec: Any,
        pending: list[int],
        workers: int,
        stop: list[int],
        cancel: threading.Event,
    ) -> None:
        super().__init__(spec, pending, stop, cancel)
        self.workers = max(1, min(workers, self.n))
        self.last = max(pending) + 1 if pending else 0
        self.grundy = spec.kind == "grundy"
        self.lock = threading.Lock()
        self.rows: dict[int, tuple[Any, int, int, int, int]] = {}
        self.ready = [threading.Event() for _ in range(self.last)]
        self.left = [self.workers] * self.last
        self.outcomes: list[list[Any]] = [[] for _ in range(self.last)]
        self.failed_at = self.last  # the first chunk with a failure found so far

    def _stopped(self, c: int) -> bool:
        return c > self.failed_at or super()._stopped(c)

    def _evaluate(self, c: int) -> None:
        """The claim over chunk *c*'s rows (and the rows its offset moves read), for
        every thread: ``(F, h0, a0, a1, words needed)``."""
        if self.ready[c].is_set():
            return
        try:
            a0, a1 = self.spec.space.row_range(c)
            h0 = max(0, a0 - self.hist)
            F = _eval_rows(self.fn, h0, a1, self.n)
            need = _need(F, a0 - h0) if self.grundy else 0
            self.rows[c] = (F, h0, a0, a1, need)
        finally:
            self.ready[c].set()  # also on an error: no thread waits for ever

    def _rows_of(self, c: int) -> tuple[Any, int, int, int, int] | None:
        while not self.ready[c].wait(0.2):
            if self._stopped(c):
                return None
        return self.rows.get(c)

    def run(
        self,
        k: int,
        emit: Callable[[int, int, Failure | None, str], None],
        exact: Callable[[int], None],
    ) -> None:
        """Thread *k*'s share: its columns of every chunk up to the last pending one."""
        model, n, W = self.model, self.n, self.workers
        n_cols = len(range(k, n, W))
        lines: _ThreadLines | None = None
        wide = False  # the state would exceed MAX_STATE_BYTES: the exact path from here
        for c in range(self.last):
            if self._stopped(c):
                return
            mine = c + (k - c) % W  # the chunk this thread evaluates for all, soon
            if mine < self.last:
                self._evaluate(mine)
            got = self._rows_of(c)
            if got is None:
                return
            F, h0, a0, a1, need = got
            check = c in self.pending
            outcome: Any = None
            if self.grundy and 3 * n * need * 8 > MAX_STATE_BYTES:
                wide = True
            if wide:
                outcome = "exact"
            else:
                if lines is None:
                    lines = _ThreadLines(model, n_cols, n, need + need // 2 + 1 if need else 0)
                elif need > lines.width:
                    lines.widen(need + need // 2 + 1)
                status, idx = self._cols(lines, F, h0, a0, a1, k, check)
                if status:
                    pos = (a0 + int(idx) // n, int(idx) % n)
                    fail = check_position(
                        self.spec.game, self.spec.kind, self._claim, pos, self.spec.space
                    )
                    if fail is None:  # the kernel and the exact check disagree
                        outcome = "exact"
                        self._fill(lines, F, h0, pos[0], a1, k)
                    else:
                        outcome = (int(idx), fail)
            self._done(c, outcome, emit, exact)
            if isinstance(outcome, tuple):
                return  # no later chunk matters

    def _fill(self, lines: _ThreadLines, F: Any, h0: int, a0: int, a1: int, k: int) -> None:
        """Add rows ``a0..a1`` to thread *k*'s state (again: ORs are idempotent)."""
        self._cols(lines, F, h0, a0, a1, k, False)

    def _cols(
        self, lines: _ThreadLines, F: Any, h0: int, a0: int, a1: int, k: int, check: bool
    ) -> tuple[int, int]:
        """Thread *k*'s kernel on its columns of rows ``a0..a1`` (the Grundy rule with
        bitsets, or the P-set rule with flags): ``(0, 0)`` or ``(1, index of the first
        failing position)``; *check* False only adds the rows to the state."""
        from nimlab.verification import _kernels as kern

        model, n, W = self.model, self.n, self.workers
        shape = (model.line_a, model.line_b, model.line_d, self.offs, len(model.offsets))
        if lines.width:
            return kern.grundy_cols(
                F, h0, a0, a1, n, lines.width, *shape, lines.col, lines.diag, k, W, check,
                _strip(lines.width, W),
            )  # fmt: skip
        return kern.pset_cols(F, h0, a0, a1, n, *shape, lines.col, lines.diag, k, W, check)

    def _done(
        self,
        c: int,
        outcome: Any,
        emit: Callable[[int, int, Failure | None, str], None],
        exact: Callable[[int], None],
    ) -> None:
        """Thread's *outcome* of chunk *c* (None: passed; ``(index, failure)``; "exact");
        the last thread to pass the chunk reports it."""
        with self.lock:
            if isinstance(outcome, tuple):
                self.failed_at = min(self.failed_at, c)
            if outcome is not None:
                self.outcomes[c].append(outcome)
            self.left[c] -= 1
            if self.left[c]:
                return
            got = self.rows.pop(c, None)
            outcomes = self.outcomes[c]
        if c not in self.pending:
            return
        if "exact" in outcomes:
            exact(c)
        elif outcomes:
            idx, fail = min(outcomes, key=lambda o: o[0])
            emit(c, idx + 1, fail, "vectorised")
        else:
            assert got is not None
            emit(c, (got[3] - got[2]) * self.n, None, "vectorised")
