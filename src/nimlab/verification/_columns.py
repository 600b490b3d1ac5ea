"""Several threads over one box of the vectorised check (:mod:`nimlab.verification.fast`),
by bands of columns: :class:`ColumnRun`."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from nimlab.verification.fast import (
    MAX_STATE_BYTES,
    BoxRun,
    MoveModel,
    _strip,
    _words,
    row_state,
)
from nimlab.verification.local import Failure, check_position

# -- several threads over one box, by bands of columns ------------------------------------
#
# The box's columns are cut into bands of equal width, BANDS_PER_WORKER per thread; a
# unit of work is one chunk's rows over one band. The line state belongs to the bands,
# not to the threads: a band keeps its columns' bitsets (or flags) and those of the
# diagonals through it, and its chunks are checked in row order, one at a time, by
# whichever thread is free. A chunk's rows cross the bands from left to right: unit
# (chunk c, band j) continues the rows' bitsets (or flags) that unit (c, j - 1) left and
# ORs in the diagonals leaving band j - 1 at those rows. So unit (c, j) can start once
# (c - 1, j) and (c, j - 1) are done: the units form a grid, at most one per band is
# ready at a time, and a free thread takes the ready unit of the oldest chunk. No
# position is read, evaluated or ORed twice (the claim is evaluated over each band, plus
# the few columns left of it that offset moves read, and the rows above that they read).
# With more bands than threads nothing needs balancing (a band that costs more, its
# values being larger, takes more of the threads' time) and a thread waits only at a
# run's start (for the first unit) and end (the last): before, each thread kept one band
# whose boundaries moved to balance their costs, and each thread waited for its left
# neighbour whenever its band was the cheaper one (0.1-0.3 s of a 1.8 s run on 2 cores).

#: Bands of columns per thread (more: finer sharing, more calls and hand-overs).
BANDS_PER_WORKER = 2


#: Each thread's seconds waiting for a unit to become ready in the last 100 runs of this
#: process (for benchmarks).
RUNS: list[list[float]] = []


class _BandLines:
    """One band's line state in a :class:`ColumnRun`: the bitsets (or flags) of its
    *cols* columns, of every diagonal (those through the band used), and their width in
    64-bit words (0: P-set flags)."""

    def __init__(self, model: MoveModel, cols: int, n: int, width: int) -> None:
        import numpy as np

        self.width = width
        self.col: Any
        self.diag: Any
        self.full: Any = None  # the columns' full words (Grundy), None: to be made again
        if width == 0:
            self.col = np.zeros(max(cols, 1), np.bool_)
            self.diag = np.zeros(2 * n - 1, np.bool_)
        else:
            self.col = np.zeros((max(cols, 1) if model.line_a else 1, width), np.uint64)
            self.diag = np.zeros((2 * n - 1 if model.line_d else 1, width), np.uint64)

    def widen(self, width: int, d0: int, d1: int) -> None:
        """At least *width* words per bitset (the columns and the diagonals ``d0..d1``,
        those through the band, copied into wider arrays)."""
        import numpy as np

        if width <= self.width:
            return
        col = np.zeros((self.col.shape[0], width), np.uint64)
        diag = np.zeros((self.diag.shape[0], width), np.uint64)
        col[:, : self.width] = self.col
        d0, d1 = (d0, d1) if diag.shape[0] > 1 else (0, 1)
        diag[d0:d1, : self.width] = self.diag[d0:d1]
        self.col, self.diag, self.width, self.full = col, diag, width, None

    def diagonals(self, d0: int, state: Any) -> None:
        """OR the diagonals ``d0..`` handed over by the band on the left into this state
        (their first *width* words: the caller widened it for their values)."""
        rows = state.shape[0]
        if self.width == 0:
            self.diag[d0 : d0 + rows] |= state
        else:
            w = min(self.width, state.shape[1])
            self.diag[d0 : d0 + rows, :w] |= state[:, :w]


def _used_words(state: Any) -> int:
    """The words up to the last one holding a value in the bitsets *state* (0 for none,
    or flags): the band on the left may have wider arrays than its values need."""
    import numpy as np

    if state is None or state.ndim != 2:
        return 0
    used = np.flatnonzero(state.any(axis=0))
    return int(used[-1]) + 1 if len(used) else 0


class _Hand:
    """A chunk's rows between two bands: their state over the bands done so far
    (bitsets and full words, or flags); *diag*, the diagonals ``d0..`` leaving the last
    band done at those rows (None without diagonal moves); *upto*: the rows below it are
    complete (a failure found at row *upto* leaves the rows from it unfinished)."""

    def __init__(self, rows: Any, full: Any, upto: int) -> None:
        self.rows, self.full, self.upto = rows, full, upto
        self.diag: Any = None
        self.d0 = 0


class ColumnRun(BoxRun):
    """One vectorised check of a box on *workers* threads of this process, by bands of
    columns (see the comment above :data:`BANDS_PER_WORKER`).

    Each thread calls :meth:`run` with its number; *emit* receives each chunk's
    ``(index, count, failure, method)`` once every band has passed it, *exact(i)* checks
    chunk *i* on the exact Python path (where the kernel and the exact check disagree,
    or the state would be too wide); *stop* is the runner's list holding the first
    failing chunk once known; *cancel* ends every thread early.
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
        n = self.n
        bands = 1 if self.workers == 1 else min(n, self.workers * BANDS_PER_WORKER)
        self.cols = [n * j // bands for j in range(bands + 1)]  # band j: cols[j]..cols[j+1]
        self.back = max((db for _, db in self.model.offsets), default=0)  # columns offsets read
        self.last = max(pending) + 1 if pending else 0
        self.grundy = spec.kind == "grundy"
        self.cond = threading.Condition()
        self.lines: list[_BandLines | None] = [None] * bands
        self.next = [0] * bands  # the chunk each band checks next (those before: done)
        self.busy = [False] * bands
        self.hands: dict[int, _Hand] = {}  # a chunk's rows as the last band done left them
        self.outcomes: list[list[Any]] = [[] for _ in range(self.last)]
        self.failed_at = self.last  # the first chunk with a failure found so far
        self.exact_from = self.last  # chunks from it take the exact path (state too wide)
        self.exact_given: set[int] = set()  # those handed to a thread
        self.wide = 0  # the widest band's bitsets so far (words): new rows' state has it
        # each thread's seconds waiting for a ready unit (for benchmarks: RUNS)
        self.waits = [0.0] * self.workers
        RUNS[:] = [*RUNS[-99:], self.waits]

    def _limit(self) -> int:
        """The chunks below this one are checked by the kernel (called under the lock)."""
        end = min(self.last, self.failed_at + 1, self.exact_from)
        return min(end, self.stop[0] + 1) if self.stop else end

    def _ready(self) -> tuple[int, int] | None:
        """The ready unit ``(band, chunk)`` of the oldest chunk, or None (called under
        the lock)."""
        limit, best = self._limit(), None
        for j, c in enumerate(self.next):
            ready = c < limit and not self.busy[j] and (j == 0 or self.next[j - 1] > c)
            if ready and (best is None or c < best[1]):
                best = (j, c)
        return best

    def _take(self, k: int) -> tuple[int, int] | None:
        """Thread *k*'s next unit ``(band, chunk)``, waiting until one is ready;
        ``(-1, chunk)`` for a chunk of the exact path; None: the run is over."""
        t0 = None
        with self.cond:
            try:
                while not self.cancel.is_set():
                    unit = self._ready()
                    if unit is not None:
                        self.busy[unit[0]] = True
                        return unit
                    c = self._exact_chunk()
                    if c is not None:
                        return (-1, c)
                    if not any(self.busy):
                        return None  # every band is past the limit: nothing is left
                    t0 = time.perf_counter() if t0 is None else t0
                    self.cond.wait(0.2)
                return None
            finally:
                if t0 is not None:
                    self.waits[k] += time.perf_counter() - t0

    def _exact_chunk(self) -> int | None:
        """The next chunk for the exact path, if any (called under the lock)."""
        c, end = self.exact_from, min(self.last, self.failed_at + 1)
        while c < end and (c in self.exact_given or c not in self.pending or self._stopped(c)):
            c += 1
        if c >= end:
            return None
        self.exact_given.add(c)
        return c

    def run(
        self,
        k: int,
        emit: Callable[[int, int, Failure | None, str], None],
        exact: Callable[[int], None],
    ) -> None:
        """Thread *k*'s share: units of the bands' grid while any is left."""
        last = len(self.cols) - 2
        while True:
            unit = self._take(k)
            if unit is None:
                return
            j, c = unit
            if j < 0:
                exact(c)
                continue
            outcome: Any = "wide"
            try:
                outcome = self._unit(j, c)
            finally:
                with self.cond:
                    self.busy[j] = False
                    self.next[j] = c + 1
                    if outcome == "wide":
                        self.exact_from = min(self.exact_from, c)
                    elif outcome is not None:
                        self.outcomes[c].append(outcome)
                        if isinstance(outcome, tuple):
                            self.failed_at = min(self.failed_at, c)
                    report = j == last and c < self.exact_from
                    self.cond.notify_all()
            if report:
                self._report(c, emit, exact)

    def _unit(self, j: int, c: int) -> Any:
        """Check band *j* of chunk *c*: None (passed), ``(index, failure)``, "exact" (the
        kernel and the exact check disagree) or "wide" (the state would exceed
        MAX_STATE_BYTES: the exact path from this chunk on)."""
        lo, hi, n = self.cols[j], self.cols[j + 1], self.n
        got = self.hands.pop(c, None) if j else None
        if j and got is None:
            return "wide"
        a0, a1 = self.spec.space.row_range(c)
        h0, fc = max(0, a0 - self.hist), max(0, lo - self.back)
        F, top = self.rows(h0, a1, hi, fc, (a0, lo))
        need = _words(top) if self.grundy else 0
        if got is not None:
            need = max(need, _used_words(got.diag))  # the left's values on the diagonals
        if self.grundy and 3 * n * need * 8 > MAX_STATE_BYTES:
            return "wide"
        lines = self.lines[j]
        if lines is None:
            width = need + need // 2 + 1 if need else 0
            lines = self.lines[j] = _BandLines(self.model, hi - lo, n, width)
        elif need > lines.width:
            lines.widen(need + need // 2 + 1, max(0, lo - 1), min(2 * n - 1, hi + n - 1))
        with self.cond:
            self.wide = max(self.wide, lines.width)
            wide = self.wide
        hand = self._fit(got, a1 - a0, lines.width, wide)
        outcome = self._band(c, lines, hand, F, h0, (fc, lo, hi))
        if j + 2 < len(self.cols):  # the rows (and diagonals) for the band on the right
            if self.model.line_d:  # through (a, hi - 1) for a in a0..a1
                hand.d0 = hi - a1 + n - 1
                hand.diag = lines.diag[hand.d0 : hi - a0 + n - 1].copy()
            self.hands[c] = hand
        return outcome

    @staticmethod
    def _fit(hand: _Hand | None, rows: int, width: int, wide: int = 0) -> _Hand:
        """*hand*'s row state on at least *width* words (a new, empty one for None, on
        at least *wide* words: the widest band's, so that the next band need not copy
        it onto its own width)."""
        if hand is None:
            bits, full = row_state(rows, max(width, wide) if width else 0)
            return _Hand(bits, full, rows)
        if width == 0 or hand.rows.shape[1] >= width:
            return hand
        bits, full = row_state(rows, width)
        w, m = min(width, hand.rows.shape[1]), min(full.shape[1], hand.full.shape[1])
        bits[:, :w] = hand.rows[:, :w]
        full[:, :m] = hand.full[:, :m]
        out = _Hand(bits, full, hand.upto)
        out.diag, out.d0 = hand.diag, hand.d0
        return out

    def _band(
        self,
        c: int,
        lines: _BandLines,
        hand: _Hand,
        F: Any,
        h0: int,
        band: tuple[int, int, int],
    ) -> Any:
        """Check the band ``(fc, lo, hi)`` of chunk *c* from *hand* (updated for the next
        band): None (passed), ``(index, failure)`` or "exact"."""
        a0 = self.spec.space.row_range(c)[0]
        n = self.n
        if hand.diag is not None:  # the diagonals entering this band at these rows
            lines.diagonals(hand.d0, hand.diag)
        status, idx = self._cols(lines, F, h0, a0, a0 + hand.upto, band, hand, c in self.pending)
        if not status:
            return None
        pos = (a0 + int(idx) // n, int(idx) % n)
        fail = check_position(self.spec.game, self.spec.kind, self._claim, pos, self.spec.space)
        if fail is not None:
            hand.upto = pos[0] - a0  # the rows from the failing one on are unfinished
            return (int(idx), fail)
        # the kernel and the exact check disagree: finish the rows, the exact path decides
        self._cols(lines, F, h0, pos[0], a0 + hand.upto, band, hand, False, pos[0] - a0)
        return "exact"

    def _cols(
        self,
        lines: _BandLines,
        F: Any,
        h0: int,
        a0: int,
        a1: int,
        band: tuple[int, int, int],
        hand: _Hand,
        check: bool,
        skip: int = 0,
    ) -> tuple[int, int]:
        """The kernel on the band ``(fc, lo, hi)`` of rows ``a0..a1`` (the Grundy rule
        with bitsets, or the P-set rule with flags; ``F`` from column *fc*), the rows'
        state from row *skip* of *hand*: ``(0, 0)`` or ``(1, index of the first failing
        position)``; *check* False only adds the rows to the state."""
        import numpy as np

        from nimlab.verification import _kernels as kern

        model, n = self.model, self.n
        fc, lo, hi = band
        shape = (model.line_a, model.line_b, model.line_d, self.offs, len(model.offsets))
        rows, col = hand.rows[skip:], lines.col
        if lines.width:
            rebuild = lines.full is None
            if rebuild:  # the full words of the band's columns, made by the kernel
                lines.full = np.zeros((col.shape[0], (lines.width + 63) >> 6), np.uint64)
            return kern.grundy_cols(
                F, h0, fc, a0, a1, n, lines.width, *shape, col, lines.full, rebuild, lines.diag,
                rows, hand.full[skip:], lo, hi, check, _strip(lines.width),
            )  # fmt: skip
        return kern.pset_cols(F, h0, fc, a0, a1, n, *shape, col, lines.diag, rows, lo, hi, check)

    def _report(
        self,
        c: int,
        emit: Callable[[int, int, Failure | None, str], None],
        exact: Callable[[int], None],
    ) -> None:
        """Chunk *c*, passed by every band: its outcomes reported (None: passed;
        ``(index, failure)``; "exact")."""
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
