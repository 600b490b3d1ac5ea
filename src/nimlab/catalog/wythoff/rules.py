"""Wythoff Nim.

A move takes any positive number from one heap, or the same positive number from both.

References
----------
[S18] §2 (``S18-T7``): P iff ``{x, y} = {⌊nφ⌋, ⌊nφ⌋ + n}``. Grundy values have no known
closed form.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import isqrt
from typing import TYPE_CHECKING, Any

from nimlab.catalog.registry import register
from nimlab.catalog.wythoff.formulas import wythoff_is_p, wythoff_pair
from nimlab.core.kernels import LinesKernel, TableKernel, WythoffKernel
from nimlab.core.ruleset import HeapRuleset, int_heaps

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = ["Wythoff"]


@register
@dataclass(frozen=True)
class Wythoff(HeapRuleset):
    """Wythoff Nim on two heaps.

    Examples
    --------
    >>> from nimlab import grundy, winning_moves
    >>> grundy(Wythoff(), (3, 5))
    0
    >>> winning_moves(Wythoff(), (4, 5))
    [(1, 2), (3, 5)]
    """

    name = "wythoff"
    aliases = ("wythoff-nim", "corner-the-queen")
    summary = "two heaps; take any from one heap, or the same amount from both"
    theorems = ("S18-T7",)
    p_theorem = "S18-T7"
    n_heaps = 2

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """One-heap moves plus the diagonal moves."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        return sum(heaps) + (min(heaps) if heaps else 0)

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        x, y = position
        for t in range(1, x + 1):
            yield (x - t, y)
        for t in range(1, y + 1):
            yield (x, y - t)
        for t in range(1, min(x, y) + 1):
            yield (x - t, y - t)

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog._compiled import compiled
        from nimlab.catalog.wythoff.compiled import wythoff

        return compiled("wythoff", wythoff)

    def closed_is_p(self, position: tuple[int, ...]) -> bool:
        return wythoff_is_p(*position)

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """Row, column and diagonal bitsets (misère: lines plus the diagonal)."""
        if len(shape) != 2:
            return None
        if kind == "misere":
            return LinesKernel((True, True), (0, 0), (), diagonal=True)
        return WythoffKernel()

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """Normal play: move to a Wythoff pair (every winning move, listed without a scan)."""
        if misere:
            return None
        from nimlab.core.strategy import Construction

        return Construction.listed(
            "moving to a Wythoff pair (⌊nφ⌋, ⌊nφ²⌋) (S18 Theorem 7)",
            "S18-T7",
            self.strategy_moves(position),
        )

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """Wythoff's pairs (⌊nφ⌋, ⌊nφ²⌋) = (⌊nφ⌋, ⌊nφ⌋ + n) and the pair the move reaches.

        Examples
        --------
        >>> for line in Wythoff().explain_notes((4, 6), (3, 5)):
        ...     print(line)
        the P-positions of Wythoff Nim are the pairs (⌊nφ⌋, ⌊nφ²⌋) = (⌊nφ⌋, ⌊nφ⌋ + n), φ = (1 + √5)/2: (0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13), ... [S18-T7]
        4 6 is not such a pair: the pair with a heap of 4 is (4, 7), n = 3
        the move 4 6 → 3 5 reaches the pair n = 2: (⌊2φ⌋, ⌊2φ²⌋) = (3, 5)
        """
        if not isinstance(position, tuple) or len(position) != 2:
            return []
        pairs = ", ".join(str(wythoff_pair(n)) for n in range(6))
        out = [
            "the P-positions of Wythoff Nim are the pairs (⌊nφ⌋, ⌊nφ²⌋) = (⌊nφ⌋, ⌊nφ⌋ + n), "
            f"φ = (1 + √5)/2: {pairs}, ... [S18-T7]"
        ]
        x, y = position
        lo, hi = min(x, y), max(x, y)
        if wythoff_is_p(lo, hi):
            n = hi - lo
            out.append(f"{x} {y} is the pair n = {n}: (⌊{n}φ⌋, ⌊{n}φ²⌋) = ({lo}, {hi})")
        else:
            partner = _partners(lo)
            if partner:
                w = partner[0]
                a, b = min(lo, w), max(lo, w)
                out.append(
                    f"{x} {y} is not such a pair: the pair with a heap of {lo} is "
                    f"({a}, {b}), n = {b - a}"
                )
            else:
                out.append(f"{x} {y} is not such a pair")
        if move is not None and len(move) == 2:
            a, b = min(move), max(move)
            n = b - a
            out.append(
                f"the move {x} {y} → {move[0]} {move[1]} reaches the pair n = {n}: "
                f"(⌊{n}φ⌋, ⌊{n}φ²⌋) = ({a}, {b})"
            )
        return out

    def strategy_moves(self, position: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Winning moves from the Wythoff pairs, without scanning all moves."""
        x, y = position
        if wythoff_is_p(x, y):
            return []
        out: list[tuple[int, ...]] = []
        lo, hi = min(x, y), max(x, y)
        # same amount from both: keep the difference d = hi - lo
        a, b = wythoff_pair(hi - lo)
        if a < lo:
            out.append((a, b) if x <= y else (b, a))
        # one heap: the pair containing the other heap value
        for keep, idx in ((x, 1), (y, 0)):
            # find the pair containing `keep` and move the other heap there
            for cand in _partners(keep):
                other = position[idx]
                if cand < other:
                    mv = (keep, cand) if idx == 1 else (cand, keep)
                    out.append(mv)
        return list(dict.fromkeys(out))


def _partners(v: int) -> list[int]:
    """Heap sizes w with (v, w) a P-position of Wythoff Nim."""
    out: list[int] = []
    n0 = (isqrt(5 * v * v) - v) // 2  # about v/φ: where v may be the smaller member
    for base in (n0, v - n0):  # v - v/φ = v/φ²: where v may be the larger member
        for n in range(max(0, base - 2), base + 3):
            a, b = wythoff_pair(n)
            if a == v:
                out.append(b)
            if b == v:
                out.append(a)
    return list(dict.fromkeys(out))
