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
    row_state,
)
from nimlab.verification.local import Failure, check_position

# -- several threads over one box, by columns ---------------------------------------------
#
# The threads of one process share the box by bands of columns: thread k of W checks the
# columns lo_k..hi_k of every row, in row order, as a pipeline. A column's line state is
# kept by one thread only (the state of all threads together is that of one worker, not
# W copies), each thread evaluates the claim over its own band (and the few columns left
# of it that offset moves read), and a row's line state crosses the bands once: thread k,
# done with a chunk's rows, hands the rows' bitsets (or flags) over its band, and the
# bitsets of the diagonals leaving its band, to thread k + 1, which continues the same
# rows from them while thread k takes the next chunk. No position is read twice; thread
# k + 1 starts one chunk after thread k (the pipeline's fill: one chunk of a band).


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


class _Hand:
    """What thread k hands thread k + 1 for one chunk: the rows' state over the bands up
    to k's (bitsets and full words, or flags), the diagonals leaving k's band at those
    rows (None without diagonal moves), and *upto*: the rows below it are complete (a
    failure found at row *upto* leaves the rows from it unfinished)."""

    def __init__(self, rows: Any, full: Any, diag: Any, upto: int) -> None:
        self.rows, self.full, self.diag, self.upto = rows, full, diag, upto


class ColumnRun(BoxRun):
    """One vectorised check of a box on *workers* threads of this process, by bands of
    columns in a pipeline (see the comment above :class:`_ThreadLines`).

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
        W, n = self.workers, self.n
        self.cols = [j * n // W for j in range(W + 1)]  # thread k: columns cols[k]..cols[k+1]
        self.back = max((db for _, db in self.model.offsets), default=0)  # columns offsets read
        self.last = max(pending) + 1 if pending else 0
        self.grundy = spec.kind == "grundy"
        self.lock = threading.Lock()
        # hands[k][c]: thread k's _Hand of chunk c for thread k + 1 (None: no state)
        self.hands: list[dict[int, _Hand | None]] = [{} for _ in range(W)]
        self.handed = [[threading.Event() for _ in range(self.last)] for _ in range(W)]
        self.left = [W] * self.last
        self.outcomes: list[list[Any]] = [[] for _ in range(self.last)]
        self.failed_at = self.last  # the first chunk with a failure found so far

    def _stopped(self, c: int) -> bool:
        return c > self.failed_at or super()._stopped(c)

    def _received(self, k: int, c: int) -> _Hand | None:
        """Thread k - 1's hand of chunk *c* for thread *k* (None for thread 0; None
        also when stopped or when thread k - 1 has no state: the exact path)."""
        if k == 0:
            return None
        while not self.handed[k - 1][c].wait(0.2):
            if self._stopped(c):
                return None
        with self.lock:
            return self.hands[k - 1].pop(c, None)

    @staticmethod
    def _fit(hand: _Hand | None, rows: int, width: int) -> _Hand:
        """*hand*'s row state on *width* words (a new, empty one for None)."""
        if hand is None:
            bits, full = row_state(rows, width)
            return _Hand(bits, full, None, rows)
        if width == 0 or hand.rows.shape[1] == width:
            return hand
        bits, full = row_state(rows, width)
        w, m = min(width, hand.rows.shape[1]), min(full.shape[1], hand.full.shape[1])
        bits[:, :w] = hand.rows[:, :w]
        full[:, :m] = hand.full[:, :m]  # values past *width* are above this band's: unread
        return _Hand(bits, full, hand.diag, hand.upto)

    def _hand(self, k: int, c: int, hand: _Hand | None, lines: _ThreadLines | None) -> None:
        """Publish thread *k*'s *hand* of chunk *c* for thread k + 1, with the diagonals
        leaving its band at the chunk's rows."""
        if k + 1 >= self.workers:
            return
        if hand is not None and lines is not None and self.model.line_d:
            a0, a1 = self.spec.space.row_range(c)
            d0 = self.cols[k + 1] - a1 + self.n - 1  # the diagonal through (a1 - 1, hi - 1)
            hand.diag = lines.diag[d0 : d0 + a1 - a0].copy()
        with self.lock:
            self.hands[k][c] = hand
        self.handed[k][c].set()

    def run(
        self,
        k: int,
        emit: Callable[[int, int, Failure | None, str], None],
        exact: Callable[[int], None],
    ) -> None:
        """Thread *k*'s share: its band of every chunk up to the last pending one."""
        lo, hi = self.cols[k], self.cols[k + 1]
        fc = max(0, lo - self.back)
        lines: _ThreadLines | None = None
        wide = False  # the state would exceed MAX_STATE_BYTES: the exact path from here
        for c in range(self.last):
            if self._stopped(c):
                return
            a0, a1 = self.spec.space.row_range(c)
            h0 = max(0, a0 - self.hist)
            F = _eval_rows(self.fn, h0, a1, hi, fc)
            need = _need(F[:, lo - fc :], a0 - h0) if self.grundy else 0
            got = self._received(k, c)
            if k and got is None:
                if self._stopped(c):
                    return
                wide = True  # no row state from the left: this band too takes the exact path
            if got is not None and got.diag is not None and self.grundy:
                need = max(need, got.diag.shape[1])  # the diagonals' values from the left
            if self.grundy and 3 * self.n * need * 8 > MAX_STATE_BYTES:
                wide = True
            if not wide:
                if lines is None:
                    width = need + need // 2 + 1 if need else 0
                    lines = _ThreadLines(self.model, hi - lo, self.n, width)
                elif need > lines.width:
                    lines.widen(need + need // 2 + 1)
            if wide or lines is None:
                self._hand(k, c, None, None)
                self._done(c, "exact", emit, exact)
                continue
            hand = self._fit(got, a1 - a0, lines.width)
            outcome = self._band(k, c, lines, hand, F, h0)
            self._hand(k, c, hand, lines)
            self._done(c, outcome, emit, exact)
            if isinstance(outcome, tuple) or hand.upto < a1 - a0:
                return  # no later chunk matters

    def _band(self, k: int, c: int, lines: _ThreadLines, hand: _Hand, F: Any, h0: int) -> Any:
        """Check thread *k*'s band of chunk *c* from *hand* (updated for the next band):
        None (passed), ``(index, failure)`` or "exact"."""
        a0, a1 = self.spec.space.row_range(c)
        n = self.n
        if hand.diag is not None:  # the diagonals entering this band at these rows
            d0 = self.cols[k] - a1 + n - 1
            if lines.width:
                w = min(hand.diag.shape[1], lines.width)
                lines.diag[d0 : d0 + a1 - a0, :w] |= hand.diag[:, :w]
            else:
                lines.diag[d0 : d0 + a1 - a0] |= hand.diag
        status, idx = self._cols(lines, F, h0, a0, a0 + hand.upto, k, hand, c in self.pending)
        if not status:
            return None
        pos = (a0 + int(idx) // n, int(idx) % n)
        fail = check_position(self.spec.game, self.spec.kind, self._claim, pos, self.spec.space)
        if fail is not None:
            hand.upto = pos[0] - a0  # the rows from the failing one on are unfinished
            return (int(idx), fail)
        # the kernel and the exact check disagree: finish the rows, the exact path decides
        self._cols(lines, F, h0, pos[0], a0 + hand.upto, k, hand, False, pos[0] - a0)
        return "exact"

    def _cols(
        self,
        lines: _ThreadLines,
        F: Any,
        h0: int,
        a0: int,
        a1: int,
        k: int,
        hand: _Hand,
        check: bool,
        skip: int = 0,
    ) -> tuple[int, int]:
        """Thread *k*'s kernel on its band of rows ``a0..a1`` (the Grundy rule with
        bitsets, or the P-set rule with flags), the rows' state from row *skip* of
        *hand*: ``(0, 0)`` or ``(1, index of the first failing position)``; *check* False
        only adds the rows to the state."""
        from nimlab.verification import _kernels as kern

        model, n = self.model, self.n
        lo, hi = self.cols[k], self.cols[k + 1]
        fc = max(0, lo - self.back)
        shape = (model.line_a, model.line_b, model.line_d, self.offs, len(model.offsets))
        rows = hand.rows[skip:]
        if lines.width:
            return kern.grundy_cols(
                F, h0, fc, a0, a1, n, lines.width, *shape, lines.col, lines.diag, rows,
                hand.full[skip:], lo, hi, check, _strip(lines.width),
            )  # fmt: skip
        return kern.pset_cols(
            F, h0, fc, a0, a1, n, *shape, lines.col, lines.diag, rows, lo, hi, check
        )

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
            outcomes = self.outcomes[c]
        if c not in self.pending:
            return
        if "exact" in outcomes:
            exact(c)
        elif outcomes:
            idx, fail = min(outcomes, key=lambda o: o[0])
            emit(c, idx + 1, fail, "vectorised")
        else:
            a0, a1 = self.spec.space.row_range(c)
            emit(c, (a1 - a0) * self.n, None, "vectorised")
