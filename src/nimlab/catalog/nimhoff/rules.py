"""2^k-balanced Nimhoff (Fraenkel–Lorberbom).

A move is a Nim move (take any positive number from one heap), or takes exactly
``2^k`` stones from each of two heaps; ``k ≥ 1`` is fixed.

References
----------
[S19] §1.8, Theorem 10 (``S19-T10``): ``G(n1, ..., nr) = n1 ⓚ n2 ⓚ ... ⓚ nr`` with the
k-nim-sum ``a ⓚ b = a ⊕ b ⊕ a_k·b_k``. The formula fails for ``k = 0``, which is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimlab.catalog.nimhoff.formulas import check_nimhoff_k, nimhoff_grundy
from nimlab.catalog.registry import register
from nimlab.core import views
from nimlab.core.kernels import LinesKernel, TableKernel, pair_offsets
from nimlab.core.params import Param
from nimlab.core.ruleset import HeapRuleset, int_heaps
from nimlab.core.views import BinaryBlock, BinaryFigure, BinaryRow
from nimlab.formulas.nim import nim_sum

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = ["Nimhoff"]


def _nimhoff_k(name: str, value: Any) -> int:
    return check_nimhoff_k(value)


@register
@dataclass(frozen=True)
class Nimhoff(HeapRuleset):
    """2^k-balanced Nimhoff: a Nim move, or take exactly ``2^k`` from each of two heaps.

    Examples
    --------
    >>> from nimlab import game, grundy
    >>> g = game("nimhoff", k=2)
    >>> grundy(g, (4, 6))   # 4 ② 6 = 3
    3
    >>> sorted(game("nimhoff", k=1).moves((2, 2)))
    [(0, 0), (0, 2), (1, 2), (2, 0), (2, 1)]
    """

    k: int = 1

    name = "nimhoff"
    aliases = ("balanced-nimhoff", "2k-balanced-nimhoff")
    params = (
        Param("k", "each two-heap move takes exactly 2^k from both (k >= 1)", convert=_nimhoff_k),
    )
    summary = "take from one heap, or exactly 2^k from each of two heaps"
    theorems = ("S19-T10",)
    grundy_theorem = "S19-T10"
    p_theorem = "S19-T10"

    def __post_init__(self) -> None:
        check_nimhoff_k(self.k)

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.nimhoff.strategy`."""
        from nimlab.catalog.nimhoff.strategy import nimhoff_strategy

        return nimhoff_strategy(self, position, misere)

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """Moves counted from the heaps."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        return sum(heaps) + len(heaps) ** 2

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure:
        """The heaps, their XOR and the bit-k correction (S19-T10)."""
        k = int(self.k)
        x = nim_sum(position)
        acc = position[0] if position else 0
        carry = 0
        for h in position[1:]:
            c = ((acc >> k) & 1) & ((h >> k) & 1)
            carry ^= c
            acc = acc ^ h ^ c
        width = views.width(position, k + 1)
        rows = views.heap_rows(position, width, views.mark_at(width, k))
        rows.append(BinaryRow("⊕", views.bits(x, width), str(x), "result"))
        rows.append(BinaryRow("bit 0 +", views.bits(carry, width), str(carry), "result"))
        rows.append(BinaryRow("G", views.bits(acc, width), str(acc), "result"))
        return BinaryFigure(
            (BinaryBlock("", tuple(rows)),),
            f"G = n1 ⓚ … ⓚ nr = {acc}: {views.pn(acc == 0)} (S19-T10: a ⓚ b = a ⊕ b ⊕ a_k·b_k, "
            f"k = {k}; the marked column is bit k)",
            acc,
            acc == 0,
            "S19-T10",
            (f"bit k = {k}",),
        )

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for i, h in enumerate(position):
            for v in range(h):
                yield position[:i] + (v,) + position[i + 1 :]
        big = [i for i, h in enumerate(position) if h.bit_length() > self.k]  # h >= 2^k
        s = 1 << self.k if len(big) > 1 else 0
        for x, i in enumerate(big):
            for j in big[x + 1 :]:
                new = list(position)
                new[i] -= s
                new[j] -= s
                yield tuple(new)

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """Lines of cofinite moves plus the pair moves (2^k from two heaps)."""
        d = len(shape)
        if d not in (2, 3):
            return None
        # compiled heaps are below 2^62: a larger 2^k allows no pair move
        offs = tuple(pair_offsets(d, 1 << self.k)) if self.k < 62 else ()
        return LinesKernel((True,) * d, (0,) * d, offs)

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.nimhoff import compiled as family_compiled

        return _compiled.compiled(("nimhoff", self.k), lambda: family_compiled.nimhoff(self.k))

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """The k-nim-sum ``a ⓚ b = a ⊕ b ⊕ (a_k · b_k)``, heap by heap.

        Examples
        --------
        >>> print(Nimhoff(k=1).explain_notes((3, 2), None)[0])
        G = n1 ⓚ n2 ⓚ …, a ⓚ b = a ⊕ b ⊕ (a_k·b_k) (bit k of both: the product flips bit 0) [S19-T10]: 3 ① 2 = 3 ⊕ 2 ⊕ 1 = 0
        """
        if not isinstance(position, tuple) or not position or len(position) > 12:
            return []
        k = int(self.k)
        sym = chr(0x2460 + k - 1) if 1 <= k <= 20 else f"({k})"

        def steps(p: tuple[int, ...]) -> str:
            acc = p[0]
            parts = []
            for h in p[1:]:
                bit = (acc >> k) & (h >> k) & 1
                parts.append(f"{acc} {sym} {h} = {acc} ⊕ {h} ⊕ {bit} = {acc ^ h ^ bit}")
                acc = acc ^ h ^ bit
            return "; ".join(parts) if parts else f"{acc}"

        out = [
            "G = n1 ⓚ n2 ⓚ …, a ⓚ b = a ⊕ b ⊕ (a_k·b_k) (bit k of both: the product flips "
            f"bit 0) [S19-T10]: {steps(position)}"
        ]
        if move is not None:
            out.append(f"after the move: {steps(move)}")
        return out

    def closed_grundy(self, position: tuple[int, ...]) -> int:
        return nimhoff_grundy(position, self.k)
