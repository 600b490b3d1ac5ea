"""Vectorised local check for two-heap games (numpy + numba).

For a claim that can be evaluated over numpy arrays (an expression of
:mod:`nimlab.verification.expr`, or a theorem's ``vector_claim``) on a
:class:`~nimlab.verification.spaces.BoxSpace` of two heaps, the claim is evaluated over
whole rows and the local rule is checked by a compiled kernel. Moves are described by a
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

from nimlab.core.kernels import LinesKernel, WythoffKernel
from nimlab.core.ruleset import Ruleset
from nimlab.verification.local import Failure, check_position
from nimlab.verification.spaces import BoxSpace

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
    try:
        spec = game.table_kernel((2, 2), "grundy")
    except Exception:  # a hook that cannot describe this game: no fast path
        return None
    if isinstance(spec, WythoffKernel):
        return MoveModel(True, True, True, ())
    if (
        isinstance(spec, LinesKernel)
        and len(spec.cofinite) == len(spec.lag) == 2
        and not any(spec.lag)
        and all(len(o) == 2 for o in spec.offsets)
    ):
        offsets = tuple(dict.fromkeys((int(o[0]), int(o[1])) for o in spec.offsets))
        return MoveModel(spec.cofinite[0], spec.cofinite[1], spec.diagonal, offsets)
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
    k.grundy_kernel(F, 0, 0, 1, 1, 1, True, True, True, offs, 0, bits, bits)
    flags = np.zeros(1, dtype=np.bool_)
    k.fill_p(F, 0, 1, flags, flags)
    k.pset_kernel(F, 0, 0, 1, 1, True, True, True, offs, 0, flags, flags)


def supports_fast(spec: Any) -> bool:
    """Whether *spec* can use the vectorised kernel."""
    sp = spec.space
    if not isinstance(sp, BoxSpace) or sp.n_heaps != 2 or sp.low != 0:
        return False
    if spec.kind not in ("grundy", "p-set"):
        return False
    if move_model(spec.game) is None:
        return False
    return spec.claim.vectorised(spec.game, sp.bound) is not None


def _eval_rows(fn: Callable[..., Any], a0: int, a1: int, n: int) -> Any:
    import numpy as np

    a = np.repeat(np.arange(a0, a1, dtype=np.int64), n).reshape(a1 - a0, n)
    b = np.broadcast_to(np.arange(n, dtype=np.int64), (a1 - a0, n))
    return np.ascontiguousarray(fn(a, b), dtype=np.int64).reshape(a1 - a0, n)


def _row_blocks(fn: Callable[..., Any], a0: int, a1: int, n: int) -> Iterator[tuple[int, Any]]:
    """Rows ``a0..a1`` of the claim, ``_BLOCK`` rows at a time: ``(first row, values)``."""
    for s in range(a0, a1, _BLOCK):
        yield s, _eval_rows(fn, s, min(a1, s + _BLOCK), n)


def fast_chunk(spec: Any, i: int) -> tuple[int, Failure | None] | None:
    """Check chunk *i* with the kernel: ``(count, failure)``, or None if not applicable."""
    if not supports_fast(spec):
        return None
    import numpy as np

    from nimlab.verification import _kernels as k

    sp: BoxSpace = spec.space
    model = move_model(spec.game)
    assert model is not None
    fn = spec.claim.vectorised(spec.game, sp.bound)
    assert fn is not None
    n = sp.bound
    a0, a1 = sp.row_range(i)
    hist = max((da for da, _ in model.offsets), default=0)
    h0 = max(0, a0 - hist)
    F = _eval_rows(fn, h0, a1, n)
    offs = np.array(model.offsets or [(0, 0)], dtype=np.int64).reshape(-1, 2)
    n_offs = len(model.offsets)
    key = (spec.key(), spec.kind)
    # take the state out: it is put back only after a complete, successful chunk
    st: dict[str, Any] | None = getattr(_LOCAL, "state", None)
    _LOCAL.state = None
    if st is not None and (st["key"] != key or st["row"] > a0):
        st = None
    if spec.kind == "grundy":
        top = int(F[a0 - h0 :].max()) if a1 > a0 else 0
        need = max(1, (max(top, 0) >> 6) + 1)
        if st is None or st["W"] < need:
            W = need + need // 2 + 1
            lines = (n if model.line_a else 0) + (2 * n if model.line_d else 0)
            if lines * W * 8 > MAX_STATE_BYTES:
                return None
            st = {
                "key": key,
                "row": 0,
                "W": W,
                "col": np.zeros((n if model.line_a else 1, W), dtype=np.uint64),
                "diag": np.zeros((2 * n - 1 if model.line_d else 1, W), dtype=np.uint64),
            }
        W = st["W"]
        colbits, diagbits = st["col"], st["diag"]
        if model.line_a or model.line_d:
            for s, blk in _row_blocks(fn, st["row"], a0, n):
                k.fill_bits(blk, s, n, W, model.line_a, model.line_d, colbits, diagbits)
        status, idx = k.grundy_kernel(
            F,
            h0,
            a0,
            a1,
            n,
            W,
            model.line_a,
            model.line_b,
            model.line_d,
            offs,
            n_offs,
            colbits,
            diagbits,
        )
    else:
        if st is None:
            st = {
                "key": key,
                "row": 0,
                "col": np.zeros(n, dtype=np.bool_),
                "diag": np.zeros(2 * n - 1, dtype=np.bool_),
            }
        colp, diagp = st["col"], st["diag"]
        if model.line_a or model.line_d:
            for s, blk in _row_blocks(fn, st["row"], a0, n):
                k.fill_p(blk, s, n, colp, diagp)
        status, idx = k.pset_kernel(
            F,
            h0,
            a0,
            a1,
            n,
            model.line_a,
            model.line_b,
            model.line_d,
            offs,
            n_offs,
            colp,
            diagp,
        )
    if status == 0:
        # the kernel has added rows a0..a1 to the line state: the next chunk continues
        st["row"] = a1
        _LOCAL.state = st
    total = (a1 - a0) * n
    if status == 0:
        return total, None
    pos = (a0 + int(idx) // n, int(idx) % n)
    claim = spec.claim
    fail = check_position(spec.game, spec.kind, lambda p: claim.value(spec.game, p), pos, sp)
    if fail is None:
        return None  # kernel and Python disagree: let the exact Python path decide
    return int(idx) + 1, fail
