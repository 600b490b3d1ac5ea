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
# The threads of one process share the box by bands of columns: thread k of W checks the
# columns lo_k..hi_k of every row, in row order, as a pipeline. A column's line state is
# kept by one thread only (the state of all threads together is that of one worker, not
# W copies), each thread evaluates the claim over its own band (and the few columns left
# of it that offset moves read), and a row's line state crosses the bands once: thread k,
# done with a chunk's rows, hands the rows' bitsets (or flags) over its band, and the
# bitsets of the diagonals leaving its band, to thread k + 1, which continues the same
# rows from them while thread k takes the next chunk. No position is read twice; thread
# k + 1 starts one chunk after thread k (the pipeline's fill: one chunk of a band).
#
# The bands balance themselves: each boundary starts right of equal widths (START_SHIFT
# of a band: the values, and the words a position reads, grow with the heaps, so the
# right bands cost more a column); after each chunk thread k compares its CPU seconds per
# column with its neighbours' on the same chunks (later rows cost more; the threads are
# not at the same chunk), aiming at a band LEAD cheaper than thread k + 1's (so that
# thread k stays ahead and thread k + 1, which continues its rows, does not wait), and
# moves half of the columns that would reach that, with their line state: its last
# columns to thread k + 1 from its next chunk when its band costs more than CEDE_SLACK
# above the aim (a cede: they are complete up to the rows thread k + 1 is about to
# take), or, when thread k + 1's band costs GIVE_SLACK more, thread k + 1's first
# columns to thread k from the first chunk thread k has not started (a give: thread k
# waits there for their state, complete once thread k + 1 has finished the chunk
# before, then thread k + 1 waits for thread k: the pipeline drains, so gives are kept
# rare). One move at a time across each boundary.

#: Each boundary starts this fraction of a band right of equal widths (then moves left).
START_SHIFT = 0.3
#: The part of the columns that would balance two bands that a boundary moves at once.
CEDE_GAIN = 0.5
#: The chunks over which two threads' CPU seconds per column are compared.
RATE_CHUNKS = 16
#: Bands closer than this (in CPU time) keep their boundary: noise moves none.
CEDE_SLACK = 0.01
#: Thread k + 1 gives columns to thread k only when its band costs this much more (a
#: give drains the pipeline: thread k waits for thread k + 1 to reach it, then thread
#: k + 1 waits for thread k's next chunk).
GIVE_SLACK = 0.15
#: Thread k's band is kept this much cheaper than thread k + 1's, so that thread k stays
#: ahead (thread k + 1 continues its rows: it waits whenever thread k is behind).
LEAD = 0.03


#: Each thread's seconds waiting for its neighbours in the last 100 runs of this process
#: (for benchmarks): for thread k + 1, thread k's rows of a chunk; for thread k, the
#: state of the columns thread k + 1 gives it.
RUNS: list[list[float]] = []


class _ThreadLines:
    """One thread's line state in a :class:`ColumnRun`: the bitsets (or flags) of every
    column (its band's used; others filled when a neighbour cedes them), every
    diagonal's, and their width in 64-bit words (0: P-set flags)."""

    def __init__(self, model: MoveModel, top: int, n: int, width: int) -> None:
        import numpy as np

        self.width = width
        self.per_col = width == 0 or model.line_a
        self.col: Any
        self.diag: Any
        self.full: Any = None  # the columns' full words (Grundy), None: to be made again
        if width == 0:
            self.col = np.zeros(max(top, 1), np.bool_)
            self.diag = np.zeros(2 * n - 1, np.bool_)
        else:
            self.col = np.zeros((max(top, 1) if model.line_a else 1, width), np.uint64)
            self.diag = np.zeros((2 * n - 1 if model.line_d else 1, width), np.uint64)

    def widen(self, width: int, lo: int, hi: int) -> None:
        """At least *width* words per bitset (the columns ``lo..hi`` and the diagonals
        copied into wider arrays)."""
        import numpy as np

        if width <= self.width:
            return
        col = np.zeros((self.col.shape[0], width), np.uint64)
        diag = np.zeros((self.diag.shape[0], width), np.uint64)
        col[lo:hi, : self.width] = self.col[lo:hi]
        diag[:, : self.width] = self.diag
        self.col, self.diag, self.width, self.full = col, diag, width, None

    def band(self, lo: int, hi: int) -> Any:
        """The state of the columns ``lo..hi`` (a view)."""
        return self.col[lo:hi] if self.per_col else self.col

    def take(self, lo: int, state: Any) -> None:
        """The state of columns ``lo..`` ceded by thread k - 1 (at most *width* words)."""
        if not self.per_col or state is None:
            return
        _or_rows(self.col, lo, state, self.width)
        if self.width and self.full is not None:  # those columns' full words made again
            from nimlab.verification._kernels import _full_words

            hi = lo + state.shape[0]
            self.full[lo:hi] = 0
            _full_words(self.col, lo, hi, self.width, self.full)

    def diagonals(self, d0: int, state: Any) -> None:
        """OR the diagonals ``d0..`` handed over by thread k - 1 into this state."""
        _or_rows(self.diag, d0, state, self.width)


def _or_rows(dst: Any, at: int, state: Any, width: int) -> None:
    """OR the rows of *state* into ``dst[at:]``: whole rows when *width* is 0 (flags),
    else their first *width* words at most."""
    rows = state.shape[0]
    if width == 0:
        dst[at : at + rows] |= state
    else:
        w = min(width, state.shape[1])
        dst[at : at + rows, :w] |= state[:, :w]


def _used_words(*states: Any) -> int:
    """The words up to the last one holding a value in any of the bitsets *states* (0
    for none, or flags): a neighbour's arrays are wider than its values (their slack)."""
    import numpy as np

    top = 0
    for a in states:
        if a is not None and a.ndim == 2:
            used = np.flatnonzero(a.any(axis=0))
            top = max(top, int(used[-1]) + 1 if len(used) else 0)
    return top


class _Hand:
    """What thread k hands thread k + 1 for one chunk: the rows' state over the bands up
    to k's (bitsets and full words, or flags); *lo*, thread k + 1's first column in this
    chunk; *cols*, the state of the columns thread k ceded from this chunk on (``lo..``,
    None if none); *diag*, the diagonals ``d0..`` leaving k's band at those rows or
    crossing the ceded columns (None without diagonal moves); *upto*: the rows below it
    are complete (a failure found at row *upto* leaves the rows from it unfinished)."""

    def __init__(self, rows: Any, full: Any, upto: int, lo: int = 0) -> None:
        self.rows, self.full, self.upto, self.lo = rows, full, upto, lo
        self.cols: Any = None
        self.diag: Any = None
        self.d0 = 0

    def words(self) -> int:
        """The words the values of the columns and diagonals handed over need."""
        return _used_words(self.cols, self.diag)


class _Offer:
    """The columns ``at..at + count`` that thread k + 1 gives thread k from chunk
    *chunk* on; once *ready*: their line state *cols* and the diagonals ``d0..`` through
    them at the chunk's first row (*ok* False: thread k + 1 has no state)."""

    def __init__(self, chunk: int, at: int, count: int) -> None:
        self.chunk, self.at, self.count = chunk, at, count
        self.ready = threading.Event()
        self.ok = False
        self.cols: Any = None
        self.diag: Any = None
        self.d0 = 0

    def words(self) -> int:
        """The words the values of the columns and diagonals given need."""
        return _used_words(self.cols, self.diag)


class ColumnRun(BoxRun):
    """One vectorised check of a box on *workers* threads of this process, by bands of
    columns in a pipeline (see the comment above :data:`START_SHIFT`).

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
        shift = START_SHIFT / W  # thread k starts with columns cols[k]..cols[k+1]
        self.cols = [0] + [min(n - W + j, int(n * (j / W + shift))) for j in range(1, W)] + [n]
        self.back = max((db for _, db in self.model.offsets), default=0)  # columns offsets read
        self.last = max(pending) + 1 if pending else 0
        self.grundy = spec.kind == "grundy"
        self.lock = threading.Lock()
        # hands[k][c]: thread k's _Hand of chunk c for thread k + 1 (None: no state)
        self.hands: list[dict[int, _Hand | None]] = [{} for _ in range(W)]
        self.handed = [[threading.Event() for _ in range(self.last)] for _ in range(W)]
        # spent[k][c]: thread k's CPU seconds on chunk c and its band's width then
        self.spent: list[list[tuple[float, int]]] = [[] for _ in range(W)]
        self.tops = self.cols[1:]  # each band's right end in its next chunk
        self.los = self.cols[:-1]  # and its left end in its current one
        self.started = [-1] * W  # the chunk each thread started last
        self.offers: list[_Offer | None] = [None] * W  # offers[k]: from thread k + 1 to k
        self.left = [W] * self.last
        self.outcomes: list[list[Any]] = [[] for _ in range(self.last)]
        self.failed_at = self.last  # the first chunk with a failure found so far
        # each thread's seconds waiting for its neighbours (for benchmarks: RUNS)
        self.waits = [0.0] * W
        self.wide = 0  # the widest band's bitsets so far (words): thread 0's rows have it
        RUNS[:] = [*RUNS[-99:], self.waits]

    def _stopped(self, c: int) -> bool:
        return c > self.failed_at or super()._stopped(c)

    def _received(self, k: int, c: int) -> _Hand | None:
        """Thread k - 1's hand of chunk *c* for thread *k* (None for thread 0; None
        also when stopped or when thread k - 1 has no state: the exact path)."""
        if k == 0:
            return None
        if not self._wait(k, self.handed[k - 1][c], c):
            return None
        with self.lock:
            return self.hands[k - 1].pop(c, None)

    def _wait(self, k: int, event: threading.Event, c: int) -> bool:
        """Thread *k* waits for *event* (False: stopped first, at chunk *c*); the time
        is added to ``waits[k]``."""
        if event.is_set():
            return True
        t0 = time.perf_counter()
        try:
            while not event.wait(0.2):
                if self._stopped(c):
                    return False
            return True
        finally:
            self.waits[k] += time.perf_counter() - t0

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
        full[:, :m] = hand.full[:, :m]  # values past *width* are above this band's: unread
        out = _Hand(bits, full, hand.upto, hand.lo)
        out.cols, out.diag, out.d0 = hand.cols, hand.diag, hand.d0
        return out

    def _hand(
        self, k: int, c: int, hand: _Hand | None, lines: _ThreadLines | None, hi: int, was: int
    ) -> None:
        """Publish thread *k*'s *hand* of chunk *c* for thread k + 1: its band ended at
        *hi* (at *was* in the chunk before: the columns between are ceded), with the
        diagonals thread k + 1 takes over at the chunk's rows."""
        if k + 1 >= self.workers:
            return
        if hand is not None and lines is not None:
            a0, a1 = self.spec.space.row_range(c)
            hand.lo, hand.cols = hi, None
            if hi < was and lines.per_col:
                hand.cols = lines.band(hi, was).copy()
            if self.model.line_d:  # through (a, hi - 1) for a in a0..a1, or at (a0, hi..was)
                hand.d0 = hi - a1 + self.n - 1
                hand.diag = lines.diag[hand.d0 : was - a0 + self.n - 1].copy()
        with self.lock:
            self.hands[k][c] = hand
        self.handed[k][c].set()

    def _rate(self, k: int, upto: int) -> float:
        """Thread *k*'s CPU seconds per column over its last chunks before *upto* (at
        most :data:`RATE_CHUNKS`)."""
        got = self.spent[k][max(0, upto - RATE_CHUNKS) : upto]
        return sum(t for t, _ in got) / max(sum(w for _, w in got), 1)

    def _cede(self, k: int, lo: int, hi: int, top: int) -> int:
        """Thread *k*'s right end for its next chunk (the columns from it ceded to
        thread k + 1), its band ``lo..hi`` and thread k + 1's ending at *top*: the two
        compared on the same chunks (rows further down cost more). Called under the
        lock."""
        if k + 1 >= self.workers or self.offers[k] is not None:
            return hi
        common = min(len(self.spent[k]), len(self.spent[k + 1]))
        mine, theirs = self._rate(k, common), self._rate(k + 1, common)
        if not (mine > 0 and theirs > 0):
            return hi
        load, load1 = (hi - lo) * mine, (top - hi) * theirs
        excess = load - (1 - LEAD) * load1  # thread k's band costs LEAD less than k + 1's
        if excess <= CEDE_SLACK * load:
            return hi
        cols = int(excess / (mine + (1 - LEAD) * theirs) * CEDE_GAIN)
        return max(self._keep(k, lo), hi - cols)

    def _keep(self, k: int, lo: int) -> int:
        """The least right end of thread *k*'s band from *lo*: one column past those it
        has offered thread k - 1."""
        off = self.offers[k - 1] if k else None
        return lo + 1 + (off.count if off is not None else 0)

    def run(
        self,
        k: int,
        emit: Callable[[int, int, Failure | None, str], None],
        exact: Callable[[int], None],
    ) -> None:
        """Thread *k*'s share: its band of every chunk up to the last pending one."""
        lo, hi = self.cols[k], self.cols[k + 1]
        was = hi  # the band's right end in the chunk before
        self.tops[k] = hi
        lines: _ThreadLines | None = None
        wide = False  # the state would exceed MAX_STATE_BYTES: the exact path from here
        for c in range(self.last):
            if self._stopped(c):
                return
            got = self._received(k, c)
            if k and got is None:
                if self._stopped(c):
                    return
                wide = True  # no row state from the left: this band too takes the exact path
            off = self._offered(k, c)
            if off is not None:  # thread k + 1's first columns join this band
                wide = wide or not off.ok
                hi = was = off.at + off.count
            t0 = time.thread_time()
            lo = got.lo if got is not None else lo
            self.los[k] = lo
            a0, a1 = self.spec.space.row_range(c)
            h0, fc = max(0, a0 - self.hist), max(0, lo - self.back)
            F, top = self.rows(h0, a1, hi, fc, (a0, lo))
            need = _words(top) if self.grundy else 0
            need = max(need, got.words() if got is not None else 0)  # the left's values
            if off is not None and off.ok:
                need = max(need, off.words())  # the values of the columns joining
            if self.grundy and 3 * self.n * need * 8 > MAX_STATE_BYTES:
                wide = True
            if not wide:
                if lines is None:
                    width = need + need // 2 + 1 if need else 0
                    lines = _ThreadLines(self.model, self.n, self.n, width)
                elif need > lines.width:
                    lines.widen(need + need // 2 + 1, lo, max(hi, was))  # and the ceded
            if wide or lines is None:
                self._hand(k, c, None, None, hi, was)
                self._done(c, "exact", emit, exact)
                self._pay(k, c, None)
                continue
            if off is not None:
                lines.take(off.at, off.cols)
                if off.diag is not None:
                    lines.diagonals(off.d0, off.diag)
                with self.lock:
                    self.offers[k], self.tops[k] = None, hi
            self.wide = max(self.wide, lines.width)
            hand = self._fit(got, a1 - a0, lines.width, self.wide)
            outcome = self._band(c, lines, hand, F, h0, (fc, lo, hi))
            self._hand(k, c, hand, lines, hi, was)
            self._done(c, outcome, emit, exact)
            if isinstance(outcome, tuple) or hand.upto < a1 - a0:
                return  # no later chunk matters
            self.spent[k].append((time.thread_time() - t0, hi - lo))
            with self.lock:
                was, hi = hi, self._cede(k, lo, hi, self.tops[k + 1] if k + 1 < self.workers else 0)
                self.tops[k] = hi
                self._give(k, c, lo, hi)
            self._pay(k, c, lines)

    def _give(self, k: int, c: int, lo: int, hi: int) -> None:
        """Thread *k* (band ``lo..hi``) offers its first columns to thread k - 1 when
        its band costs more than GIVE_SLACK above its aim (LEAD above thread k - 1's, on
        the same chunks),
        from the first chunk thread k - 1 has not started (it waits there for their state
        if need be). Called under the lock, when no columns are on their way between
        the two."""
        if k == 0 or self.offers[k - 1] is not None or self.tops[k - 1] != lo:
            return
        common = min(len(self.spent[k]), len(self.spent[k - 1]))
        mine, theirs = self._rate(k, common), self._rate(k - 1, common)
        if not (mine > 0 and theirs > 0):
            return
        load, load1 = (hi - lo) * mine, (lo - self.los[k - 1]) * theirs
        excess = (1 - LEAD) * load - load1
        if excess <= GIVE_SLACK * load:
            return
        count = min(hi - lo - 1, int(excess / ((1 - LEAD) * mine + theirs) * CEDE_GAIN))
        if count > 0:
            self.offers[k - 1] = _Offer(max(c + 1, self.started[k - 1] + 1), lo, count)

    def _pay(self, k: int, c: int, lines: _ThreadLines | None) -> None:
        """After chunk *c*: the state of the columns thread *k* offered thread k - 1
        from chunk c + 1 on, if any (complete up to chunk c)."""
        off = self.offers[k - 1] if k else None
        if off is None or off.chunk != c + 1 or off.ready.is_set():
            return
        if lines is not None:
            if lines.per_col:
                off.cols = lines.band(off.at, off.at + off.count).copy()
            if self.model.line_d:
                off.d0 = off.at - self.spec.space.row_range(c + 1)[0] + self.n - 1
                off.diag = lines.diag[off.d0 : off.d0 + off.count].copy()
            off.ok = True
        off.ready.set()

    def _offered(self, k: int, c: int) -> _Offer | None:
        """Thread *k* starting chunk *c*: the columns thread k + 1 gives it from this
        chunk on, once their state is ready (None: none, or stopped)."""
        with self.lock:
            self.started[k] = c
            off = self.offers[k]
        if off is None or off.chunk != c:
            return None
        return off if self._wait(k, off.ready, c) else None

    def _band(
        self,
        c: int,
        lines: _ThreadLines,
        hand: _Hand,
        F: Any,
        h0: int,
        band: tuple[int, int, int],
    ) -> Any:
        """Check the band ``(fc, lo, hi)`` of chunk *c* from *hand* (updated for the next
        band): None (passed), ``(index, failure)`` or "exact"."""
        a0 = self.spec.space.row_range(c)[0]
        n = self.n
        lines.take(band[1], hand.cols)  # the columns ceded from the left, if any
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
        lines: _ThreadLines,
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
        rows, col = hand.rows[skip:], lines.band(lo, hi)
        if lines.width:
            rebuild = lines.full is None
            if rebuild:  # the full words of every column (those of the band made here)
                lines.full = np.zeros((lines.col.shape[0], (lines.width + 63) >> 6), np.uint64)
            full = lines.full[lo:hi] if lines.per_col else lines.full
            return kern.grundy_cols(
                F, h0, fc, a0, a1, n, lines.width, *shape, col, full, rebuild, lines.diag, rows,
                hand.full[skip:], lo, hi, check, _strip(lines.width),
            )  # fmt: skip
        return kern.pset_cols(F, h0, fc, a0, a1, n, *shape, col, lines.diag, rows, lo, hi, check)

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
