"""Vectorised local check for two-heap games (numpy + numba).

For a claim that can be evaluated over numpy arrays (an expression of
:mod:`nimlab.verification.expr`, or a theorem's ``vector_claim``) on a
:class:`~nimlab.verification.spaces.BoxSpace` of two heaps, the claim is evaluated over
whole rows (compiled, in one call without Python's lock, when the claim has a compiled
form and the box is large: :class:`ClaimRows`) and the local rule is checked by a
compiled kernel. Moves are described by a
:class:`MoveModel`: *lines* (take any amount along a direction: from heap 1, from heap 2,
or the same from both) and finitely many *offsets* (fixed amounts). Along a line the
options' values form a prefix of the line, kept as a bitset of values, so a position
costs ``O(f(p)/64)`` instead of ``O(number of options)``.

The model comes from the game's own two-heap table kernel (its
:meth:`~nimlab.core.ruleset.Ruleset.table_kernel` hook, a
:class:`~nimlab.core.kernels.LinesKernel` without lags or the Wythoff kernel). A model is
used only after it has been compared with the ruleset's own ``moves`` on a small box, so
a wrong model can never give a wrong answer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from nimlab.core.ruleset import Ruleset
from nimlab.planner import Method, register_check
from nimlab.verification.local import Failure, check_position
from nimlab.verification.spaces import BoxSpace, heap_box

__all__ = ["MoveModel", "fast_chunk", "move_model", "supports_fast", "warm_up"]

_BLOCK = 256

# Line state (column/diagonal bitsets) left by this thread's last chunk: a worker that
# gets chunks in increasing order continues from it instead of re-reading all rows above.
_LOCAL = threading.local()
# Above this many bytes of line state, the vectorised path is not used.
MAX_STATE_BYTES = 1 << 30


@dataclass(frozen=True)
class MoveModel:
    """Moves of a two-heap game: lines (a, b, diagonal) and fixed offsets (da, db)."""

    line_a: bool
    line_b: bool
    line_d: bool
    offsets: tuple[tuple[int, int], ...]

    def options(self, a: int, b: int) -> set[tuple[int, int]]:
        """The options of ``(a, b)`` under this model (for the self-test)."""
        out: set[tuple[int, int]] = set()
        if self.line_a:
            out.update((x, b) for x in range(a))
        if self.line_b:
            out.update((a, y) for y in range(b))
        if self.line_d:
            out.update((a - k, b - k) for k in range(1, min(a, b) + 1))
        out.update((a - da, b - db) for da, db in self.offsets if da <= a and db <= b)
        return out


def _model_for(game: Ruleset[Any]) -> MoveModel | None:
    """The model from the game's two-heap table kernel (its ``table_kernel`` hook)."""
    from nimlab.planner import plan

    try:  # the kernel the planner's compiled table of two heaps would run
        spec = plan(game, "table", shape=(2, 2), method="kernel").value
    except Exception:  # no kernel, or a hook that cannot describe this game: no fast path
        return None
    lines = spec.two_heap_lines() if spec is not None else None
    if lines is not None:
        return MoveModel(*lines)
    return None


@lru_cache(maxsize=64)
def move_model(game: Ruleset[Any]) -> MoveModel | None:
    """The move model of a two-heap *game*, checked against ``game.moves``, or None.

    Examples
    --------
    >>> from nimlab import game
    >>> move_model(game("nim"))
    MoveModel(line_a=True, line_b=True, line_d=False, offsets=())
    """
    m = _model_for(game)
    if m is None:
        return None
    for a in range(12):
        for b in range(12):
            try:
                pos = game.validate((a, b))
                real = {tuple(q) for q in game.moves(pos)}
            except Exception:
                return None
            if real != m.options(a, b):
                return None
    return m


def warm_up() -> None:
    """Load the compiled kernels in this process (before forking workers that use them)."""
    import numpy as np

    from nimlab.verification import _kernels as k

    F = np.zeros((1, 1), dtype=np.int64)
    offs = np.zeros((1, 2), dtype=np.int64)
    bits = np.zeros((1, 1), dtype=np.uint64)
    k.fill_bits(F, 0, 1, 1, True, True, bits, bits)
    row, full = row_state(1, 1)
    k.grundy_cols(
        F, 0, 0, 0, 1, 1, 1, True, True, True, offs, 0, bits, full, True, bits, row, full, 0, 1,
        True, 1,
    )  # fmt: skip
    flags = np.zeros(1, dtype=np.bool_)
    k.fill_p(F, 0, 1, flags, flags)
    k.pset_cols(F, 0, 0, 0, 1, 1, True, True, True, offs, 0, flags, flags, flags, 0, 1, True)


def row_state(rows: int, width: int) -> tuple[Any, Any]:
    """Empty row state of the kernels for *rows* rows: ``(bitsets, full words)`` of
    *width* words (the Grundy kernel), or ``(flags, flags)`` for *width* 0 (P-set).

    Examples
    --------
    >>> [a.shape for a in row_state(3, 130)], row_state(2, 0)[0].tolist()
    ([(3, 130), (3, 3)], [False, False])
    """
    import numpy as np

    if width == 0:
        flags = np.zeros(max(rows, 1), np.bool_)
        return flags, flags
    bits = np.zeros((max(rows, 1), width), np.uint64)
    return bits, np.zeros((max(rows, 1), (width + 63) >> 6), np.uint64)


def supports_fast(spec: Any) -> bool:
    """Whether *spec* can use the vectorised kernel."""
    sp = heap_box(spec.space)
    if sp is None or sp.n_heaps != 2 or sp.low != 0:
        return False
    if spec.kind not in ("grundy", "p-set"):
        return False
    if move_model(spec.game) is None:
        return False
    return spec.claim.vectorised(spec.game, sp.bound) is not None


#: Bytes of one intermediate array of the claim's numpy evaluation: :func:`_eval_rows`
#: evaluates a few rows at a time, so every temporary stays in a core's cache (S18-T8 at
#: 6000: 0.15 s of CPU an instance against 0.58 s for whole chunks, whose temporaries of
#: a few MB each went through memory).
CLAIM_BLOCK_BYTES = 1 << 18


def _eval_rows(fn: Callable[..., Any], a0: int, a1: int, n: int, lo: int = 0) -> Any:
    """The claim's values at rows ``a0..a1`` (heap a) and columns ``lo..n`` (heap b):
    an int64 array of shape ``(a1 - a0, n - lo)``. The heaps are passed broadcast (heap
    a a column of rows, heap b a row of columns: each row's own values are computed
    once), a few rows at a time (:data:`CLAIM_BLOCK_BYTES`)."""
    import numpy as np

    out = np.empty((a1 - a0, n - lo), dtype=np.int64)
    b = np.arange(lo, n, dtype=np.int64).reshape(1, n - lo)
    step = max(1, CLAIM_BLOCK_BYTES // (8 * max(n - lo, 1)))
    for s in range(a0, a1, step):
        e = min(a1, s + step)
        out[s - a0 : e - a0] = fn(np.arange(s, e, dtype=np.int64).reshape(e - s, 1), b)
    return out


class ClaimRows:
    """The claim of a vectorised check over rows of its box: compiled when the claim
    has a compiled form (a theorem's ``scalar_claim``, an expression) and the box has
    at least the planner's ``compiled_claim_min_positions`` (*compiled* True or False
    forces the choice), else its numpy form (:func:`_eval_rows`). The compiled rows are
    one call that does not hold Python's lock: threads evaluate their bands in parallel.

    Examples
    --------
    >>> from nimlab.verification.runner import conjecture_spec
    >>> spec = conjecture_spec("nim", "a ^ b", bound=8, heaps=2)
    >>> F, top = ClaimRows(spec, compiled=False)(2, 4, 8, 5, (3, 6))
    >>> F.tolist(), top
    ([[7, 4, 5], [6, 5, 4]], 5)
    """

    def __init__(self, spec: Any, compiled: bool | None = None) -> None:
        import numpy as np

        from nimlab.planner import DEFAULT_BUDGETS

        self.fn = spec.claim.vectorised(spec.game, spec.space.bound)
        if compiled is None:
            compiled = spec.space.bound**2 >= DEFAULT_BUDGETS.compiled_claim_min_positions
        self.compiled: Any = None
        if compiled:
            from nimlab.verification._claims import compiled_rows

            self.compiled = compiled_rows(spec)
        self.table = np.zeros(1, dtype=np.int64)

    def __call__(
        self, a0: int, a1: int, n: int, lo: int = 0, at: tuple[int, int] | None = None
    ) -> tuple[Any, int]:
        """``(F, top)``: the claim's values at rows ``a0..a1`` and columns ``lo..n``
        (as :func:`_eval_rows`) and the largest at rows and columns from ``at`` (-1 when
        *at* is None)."""
        import numpy as np

        r0, c0 = at if at is not None else (a1, n)
        if self.compiled is not None:
            F = np.empty((a1 - a0, n - lo), dtype=np.int64)
            return F, max(-1, int(self.compiled(F, a0, a1, lo, n, r0, c0, self.table)))
        F = _eval_rows(self.fn, a0, a1, n, lo)
        part = F[r0 - a0 :, c0 - lo :]
        return F, max(-1, int(part.max())) if part.size else -1


_ROWS_OF: dict[str, ClaimRows] = {}


def _claim_rows(spec: Any) -> ClaimRows:
    """The :class:`ClaimRows` of *spec* (made once per spec, the last 16 kept)."""
    key = spec.key()
    got = _ROWS_OF.get(key)
    if got is None:
        got = ClaimRows(spec)
        while len(_ROWS_OF) >= 16:
            _ROWS_OF.pop(next(iter(_ROWS_OF)), None)
        _ROWS_OF[key] = got
    return got


def _words(top: int) -> int:
    """Words a bitset needs for values up to *top* (at least 1)."""
    return max(1, (max(top, 0) >> 6) + 1)


def _row_blocks(rows: ClaimRows, a0: int, a1: int, n: int) -> Iterator[tuple[int, Any]]:
    """Rows ``a0..a1`` of the claim, ``_BLOCK`` rows at a time: ``(first row, values)``."""
    for s in range(a0, a1, _BLOCK):
        yield s, rows(s, min(a1, s + _BLOCK), n)[0]


def fast_chunk(spec: Any, i: int) -> tuple[int, Failure | None] | None:
    """Check chunk *i* with the kernel: ``(count, failure)``, or None if not applicable."""
    if not supports_fast(spec):
        return None
    import numpy as np

    sp: BoxSpace = spec.space
    model = move_model(spec.game)
    assert model is not None
    rows = _claim_rows(spec)
    n = sp.bound
    a0, a1 = sp.row_range(i)
    h0 = max(0, a0 - max((da for da, _ in model.offsets), default=0))
    F, top = rows(h0, a1, n, 0, (a0, 0))
    offs = np.array(model.offsets or [(0, 0)], dtype=np.int64).reshape(-1, 2)
    shape = (model.line_a, model.line_b, model.line_d, offs, len(model.offsets))
    key = (spec.key(), spec.kind)
    # take the state out: it is put back only after a complete, successful chunk
    st: dict[str, Any] | None = getattr(_LOCAL, "state", None)
    _LOCAL.state = None
    if st is not None and (st["key"] != key or st["row"] > a0):
        st = None
    if spec.kind == "grundy":
        st = _grundy_state(st, key, model, n, top)
        if st is None:
            return None
        # the columns' full words, kept with the state, made again when rows were added
        rebuild = st["row"] < a0 or "cfull" not in st
        if "cfull" not in st:
            st["cfull"] = row_state(st["col"].shape[0], st["W"])[1]
        _catch_up(st, model, rows, a0, n)
        row, full = row_state(a1 - a0, st["W"])
        status, idx = _kernels().grundy_cols(
            F, h0, 0, a0, a1, n, st["W"], *shape, st["col"], st["cfull"], rebuild, st["diag"],
            row, full, 0, n, True, _strip(st["W"]),
        )  # fmt: skip
    else:
        if st is None:
            st = {"key": key, "row": 0, "col": np.zeros(n, np.bool_)}
            st["diag"] = np.zeros(2 * n - 1, dtype=np.bool_)
        _catch_up(st, model, rows, a0, n)
        row, _ = row_state(a1 - a0, 0)
        status, idx = _kernels().pset_cols(
            F, h0, 0, a0, a1, n, *shape, st["col"], st["diag"], row, 0, n, True
        )
    if status == 0:
        # the kernel has added rows a0..a1 to the line state: the next chunk continues
        st["row"] = a1
        _LOCAL.state = st
        return (a1 - a0) * n, None
    pos = (a0 + int(idx) // n, int(idx) % n)
    claim = spec.claim
    fail = check_position(spec.game, spec.kind, lambda p: claim.value(spec.game, p), pos, sp)
    if fail is None:
        return None  # kernel and Python disagree: let the exact Python path decide
    return int(idx) + 1, fail


#: Bytes of a thread's column bitsets the Grundy kernel keeps in a core's cache at a
#: time (with the chunk's rows' own bitsets): it takes the columns in strips of that
#: size, each for every row of the chunk, so the state is read from memory once per chunk
#: instead of once per row.
STRIP_BYTES = 1 << 18


def _strip(width: int) -> int:
    """Columns per strip of the Grundy kernel for bitsets of *width* words.

    Examples
    --------
    >>> _strip(128), _strip(100_000)
    (256, 16)
    """
    return max(16, STRIP_BYTES // (8 * max(width, 1)))


def _kernels() -> Any:
    from nimlab.verification import _kernels as k

    return k


def _grundy_state(
    st: dict[str, Any] | None, key: Any, model: MoveModel, n: int, top: int
) -> dict[str, Any] | None:
    """The line state *st* of a Grundy check (widened, its bitsets copied, when too
    narrow for values up to *top*), or a new empty one when it is missing; None when it
    would exceed MAX_STATE_BYTES."""
    import numpy as np

    need = max(1, (max(top, 0) >> 6) + 1)
    if st is not None and st["W"] >= need:
        return st
    W = need + need // 2 + 1
    lines = (n if model.line_a else 0) + (2 * n if model.line_d else 0)
    if lines * W * 8 > MAX_STATE_BYTES:
        return None
    if st is not None:  # the rows so far stay in the state: no row is read again
        for part in ("col", "diag"):
            wider = np.zeros((st[part].shape[0], W), dtype=np.uint64)
            wider[:, : st["W"]] = st[part]
            st[part] = wider
        st["W"] = W
        st.pop("cfull", None)  # made again at the next chunk
        return st
    return {
        "key": key,
        "row": 0,
        "W": W,
        "col": np.zeros((n if model.line_a else 1, W), dtype=np.uint64),
        "diag": np.zeros((2 * n - 1 if model.line_d else 1, W), dtype=np.uint64),
    }


def _catch_up(st: dict[str, Any], model: MoveModel, rows: ClaimRows, a0: int, n: int) -> None:
    """Add the rows from ``st["row"]`` to *a0* (not yet in the line state) to *st*."""
    if not (model.line_a or model.line_d):
        return
    k = _kernels()
    for s, blk in _row_blocks(rows, st["row"], a0, n):
        if "W" in st:
            k.fill_bits(blk, s, n, st["W"], model.line_a, model.line_d, st["col"], st["diag"])
        else:
            k.fill_p(blk, s, n, st["col"], st["diag"])


# -- several threads over one box ---------------------------------------------------------
#
# A chunk's check needs the values of every row above it along its lines (columns and
# diagonals). One thread per block of consecutive chunks: each thread evaluates the claim
# over its block once (kept for the check when it fits MAX_KEPT_BYTES), ORs the block's
# rows into a summary of its lines and publishes it; the thread of block j starts its
# check from the OR of the summaries of blocks 0..j-1. So every row's claim is evaluated
# once in all (re-evaluated only when the kept values would not fit), and the only work
# added to one thread's run is filling the summaries (one OR per position, a few per cent).

#: Claim values a block run keeps between its two passes (else evaluated again).
MAX_KEPT_BYTES = 1 << 31
#: Rows of the claim sampled to estimate the cost of each chunk (for equal blocks).
COST_SAMPLE_ROWS = 16


@dataclass
class Lines:
    """Line state of the vectorised check: per column and per diagonal, a bitset of the
    values seen (Grundy claims, *width* 64-bit words) or a flag "holds a claimed
    P-position" (P-set claims, *width* 0)."""

    col: Any
    diag: Any
    width: int

    @classmethod
    def empty(cls, model: MoveModel, n: int, width: int) -> Lines:
        """No row yet; *width* words per bitset (0: P-set flags)."""
        import numpy as np

        if width == 0:  # the P-set kernels mark every column and diagonal
            return cls(np.zeros(n, np.bool_), np.zeros(2 * n - 1, np.bool_), 0)
        ncol = n if model.line_a else 1
        ndiag = 2 * n - 1 if model.line_d else 1
        return cls(np.zeros((ncol, width), np.uint64), np.zeros((ndiag, width), np.uint64), width)

    def widened(self, width: int) -> Lines:
        """This state with at least *width* words per bitset (a copy when wider)."""
        import numpy as np

        if self.width == 0 or width <= self.width:
            return self
        col = np.zeros((self.col.shape[0], width), np.uint64)
        diag = np.zeros((self.diag.shape[0], width), np.uint64)
        col[:, : self.width] = self.col
        diag[:, : self.width] = self.diag
        return Lines(col, diag, width)

    def merged(self, other: Lines) -> Lines:
        """This state ORed with *other* (in place when this one is wide enough)."""
        out = self.widened(other.width)
        if out.width == 0:
            out.col |= other.col
            out.diag |= other.diag
        else:
            out.col[:, : other.width] |= other.col
            out.diag[:, : other.width] |= other.diag
        return out

    def fill(self, model: MoveModel, F: Any, h0: int, a0: int, a1: int, n: int) -> None:
        """OR rows ``a0..a1`` of the claim (``F`` holds rows from ``h0``) into the state."""
        from nimlab.verification import _kernels as k

        if not (model.line_a or model.line_d) or a1 <= a0:
            return
        rows = F[a0 - h0 : a1 - h0]
        if self.width == 0:
            k.fill_p(rows, a0, n, self.col, self.diag)
        else:
            k.fill_bits(rows, a0, n, self.width, model.line_a, model.line_d, self.col, self.diag)


def _need(F: Any, start: int) -> int:
    """Words a bitset needs for the values of ``F[start:]`` (at least 1)."""
    top = int(F[start:].max()) if F.shape[0] > start else 0
    return max(1, (max(top, 0) >> 6) + 1)


def chunk_costs(spec: Any, chunks: int, pending: set[int]) -> list[float]:
    """Estimated cost of each of the first *chunks* chunks: rows times the words a
    position's check reads (from the claim on a sample of rows); a chunk that is only
    read (done in an earlier run) costs a quarter of one that is checked."""
    import numpy as np

    sp: BoxSpace = spec.space
    n = sp.bound
    fn = spec.claim.vectorised(spec.game, n)
    rows = np.unique(np.linspace(0, n - 1, min(n, COST_SAMPLE_ROWS)).astype(np.int64))
    a = np.broadcast_to(rows[:, None], (len(rows), n))
    b = np.broadcast_to(np.arange(n, dtype=np.int64), (len(rows), n))
    vals = np.asarray(fn(a, b), dtype=np.int64).reshape(len(rows), n)
    if spec.kind == "grundy":
        # evaluating the claim costs about as much as reading 16 words (measured: S18-T8)
        per_row = (16 + (np.maximum(vals, 0) >> 6)).sum(axis=1).astype(np.float64)
    else:
        per_row = np.full(len(rows), float(n))
    out = []
    for c in range(chunks):
        a0, a1 = sp.row_range(c)
        cost = float(np.interp((a0 + a1 - 1) / 2, rows, per_row)) * (a1 - a0)
        out.append(cost if c in pending else cost / 4)
    return out


def split_blocks(costs: list[float], parts: int) -> list[list[int]]:
    """Cut the chunks ``0..len(costs)-1`` into at most *parts* runs of consecutive chunks
    of about equal cost.

    Examples
    --------
    >>> split_blocks([1, 1, 1, 1, 4], 2)
    [[0, 1, 2, 3], [4]]
    >>> split_blocks([1.0] * 5, 3)
    [[0, 1], [2], [3, 4]]
    """
    total = sum(costs) or 1.0
    blocks: list[list[int]] = [[]]
    acc = 0.0
    for c, cost in enumerate(costs):
        k = len(blocks)
        if blocks[-1] and k < parts and acc + cost / 2 > total * k / parts:
            blocks.append([])
        blocks[-1].append(c)
        acc += cost
    return blocks


class BoxRun:
    """What every vectorised check of a box on several threads shares: the spec, the
    runner's *stop* list (the first failing chunk once known) and *cancel* event, the
    pending chunks, the game's move model and its offsets as an array, the claim's rows
    (:class:`ClaimRows`) and the side ``n`` of the box."""

    def __init__(
        self, spec: Any, pending: list[int], stop: list[int], cancel: threading.Event
    ) -> None:
        import numpy as np

        self.spec, self.stop, self.cancel = spec, stop, cancel
        self.pending = set(pending)
        model = move_model(spec.game)
        assert model is not None
        self.model = model
        self.rows = _claim_rows(spec)
        self.n: int = spec.space.bound
        self.hist = max((da for da, _ in model.offsets), default=0)
        self.offs = np.array(model.offsets or [(0, 0)], dtype=np.int64).reshape(-1, 2)

    def _claim(self, position: Any) -> Any:
        return self.spec.claim.value(self.spec.game, position)

    def _stopped(self, c: int) -> bool:
        return self.cancel.is_set() or bool(self.stop and c > self.stop[0])


class BlockRun(BoxRun):
    """One vectorised check of a box on several threads, a block of consecutive chunks
    each (see the comment above :data:`MAX_KEPT_BYTES`).

    *emit* receives each checked chunk's ``(index, count, failure)``; *exact(i)* checks
    chunk *i* on the exact Python path (where the kernel and the exact check disagree);
    *stop* is the runner's list holding the first failing chunk once one is known;
    *cancel* ends every block early; *blocks* (default: cut by :func:`chunk_costs`, one
    per worker) are the runs of consecutive chunks, as a Dask run hands them out.
    """

    def __init__(
        self,
        spec: Any,
        pending: list[int],
        workers: int,
        stop: list[int],
        cancel: threading.Event,
        blocks: list[list[int]] | None = None,
    ) -> None:
        super().__init__(spec, pending, stop, cancel)
        sp: BoxSpace = spec.space
        last = max(pending) + 1 if pending else 0
        if blocks is None:
            blocks = split_blocks(chunk_costs(spec, last, self.pending), workers)
        self.blocks = blocks
        self.keep = sp.row_range(last - 1)[1] * self.n * 8 <= MAX_KEPT_BYTES if last else True
        self.summaries: list[Lines | None] = [None] * len(self.blocks)
        self.ready = [threading.Event() for _ in self.blocks]

    def _rows(self, c: int) -> tuple[Any, int, int, int]:
        """The claim over chunk *c*'s rows (and the rows its offset moves read):
        ``(F, h0, a0, a1)``."""
        a0, a1 = self.spec.space.row_range(c)
        h0 = max(0, a0 - self.hist)
        return self.rows(h0, a1, self.n)[0], h0, a0, a1

    def summarise(self, j: int, kept: dict[int, Any]) -> int:
        """Evaluate block *j* (kept in *kept*), publish its summary; the words its
        values need (1 for P-set claims)."""
        grundy = self.spec.kind == "grundy"
        last = j == len(self.blocks) - 1
        need = 1
        summary: Lines | None = None
        try:
            for c in self.blocks[j]:
                if self.cancel.is_set():
                    return need
                F, h0, a0, a1 = kept[c] = self._rows(c)
                if grundy:
                    need = max(need, _need(F, a0 - h0))
                if not last:
                    if summary is None:
                        summary = Lines.empty(self.model, self.n, need if grundy else 0)
                    summary = summary.widened(need)
                    summary.fill(self.model, F, h0, a0, a1, self.n)
                if not self.keep:
                    del kept[c]
            self.summaries[j] = summary
        finally:
            self.ready[j].set()  # also on an error: no block waits for ever
        return need

    def _prefix(self, j: int, need: int) -> Lines | None:
        """The state after every row of blocks ``0..j-1`` (None if cancelled)."""
        grundy = self.spec.kind == "grundy"
        state = Lines.empty(self.model, self.n, need if grundy else 0)
        for i in range(j):
            while not self.ready[i].wait(0.2):
                if self.cancel.is_set():
                    return None
            got = self.summaries[i]
            if got is None:
                return None  # block i failed or was cancelled
            state = state.merged(got)
        return state

    def run_block(
        self,
        j: int,
        emit: Callable[[int, int, Failure | None, str], None],
        exact: Callable[[int], None],
    ) -> None:
        """Check the pending chunks of block *j* in order, each reported through
        ``emit(index, count, failure, method)`` (or ``exact(index)``)."""
        kept: dict[int, Any] = {}
        need = self.summarise(j, kept)
        self.check_block(j, kept, need, emit, exact)

    def check_block(
        self,
        j: int,
        kept: dict[int, Any],
        need: int,
        emit: Callable[[int, int, Failure | None, str], None],
        exact: Callable[[int], None],
        chunks: list[int] | None = None,
        state: Lines | None = None,
    ) -> Lines | None:
        """The second pass of :meth:`run_block`: check block *j* from the summaries of the
        blocks above it, the claim's values of *kept* chunks (others evaluated again)
        and *need* words per bitset. *chunks*: only these (consecutive) chunks of the
        block, from *state* (the state after the chunks before them; None: rebuilt from
        the summaries and those chunks' rows). Returns the state after the chunks, or
        None when the check stopped (a failure, a cancel, the exact path)."""
        from nimlab.verification import _kernels as k

        todo = self.blocks[j] if chunks is None else chunks
        lines = 3 * self.n * need * 8 if self.spec.kind == "grundy" else 0
        if lines > MAX_STATE_BYTES:  # too wide a state: the exact path, chunk by chunk
            for c in todo:
                if c in self.pending and not self._stopped(c):
                    exact(c)
            return None
        model, n = self.model, self.n
        if state is None:
            state = self._prefix(j, need)
            if state is None:
                return None
            state = state.widened(need)
            for c in self.blocks[j]:  # the block's rows above the chunks asked for
                if not todo or c >= todo[0]:
                    break
                F, h0, a0, a1 = kept.pop(c, None) or self._rows(c)
                state.fill(model, F, h0, a0, a1, n)
        state = state.widened(need)
        for c in todo:
            if self._stopped(c):
                return None
            F, h0, a0, a1 = kept.pop(c, None) or self._rows(c)
            if c not in self.pending:
                state.fill(model, F, h0, a0, a1, n)
                continue
            shape = (model.line_a, model.line_b, model.line_d, self.offs, len(model.offsets))
            row, full = row_state(a1 - a0, state.width)
            if state.width:
                cfull = row_state(state.col.shape[0], state.width)[1]
                status, idx = k.grundy_cols(
                    F, h0, 0, a0, a1, n, state.width, *shape, state.col, cfull, True, state.diag,
                    row, full, 0, n, True, _strip(state.width),
                )  # fmt: skip
            else:
                status, idx = k.pset_cols(
                    F, h0, 0, a0, a1, n, *shape, state.col, state.diag, row, 0, n, True
                )
            if status == 0:
                emit(c, (a1 - a0) * n, None, "vectorised")
                continue
            pos = (a0 + int(idx) // n, int(idx) % n)
            fail = check_position(self.spec.game, self.spec.kind, self._claim, pos, self.spec.space)
            if fail is not None:
                emit(c, int(idx) + 1, fail, "vectorised")
                return None  # the chunks after a failure need no check
            exact(c)  # the kernel and the exact check disagree: the exact path decides
            state.fill(model, F, h0, a0, a1, n)  # the kernel stopped inside the chunk
        return state


register_check(Method.VECTORISED_CHECK, supports_fast)  # the planner asks it
