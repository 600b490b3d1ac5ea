"""Lim (Fink–Fraenkel–Santos).

Three heaps. A move chooses two heaps, takes the same ``t ≥ 1`` from each, and adds
``t`` to the third. Moves add stones to a heap, but the total drops by ``t`` each move,
so every game ends.

References
----------
[S19] §1.6, Theorem 8 (``S19-T8``): ``G(a, b, c) = ((a+b+c) − (a ⊕ b ⊕ c)) / 2``, the
bitwise majority of a, b, c.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from nimlab.catalog.lim.formulas import bitwise_majority, lim_grundy
from nimlab.catalog.registry import register
from nimlab.core import views
from nimlab.core.kernels import LimKernel, TableKernel
from nimlab.core.ruleset import HeapRuleset, int_heaps
from nimlab.core.views import BinaryBlock, BinaryFigure, BinaryRow

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = ["Lim"]


@register
@dataclass(frozen=True)
class Lim(HeapRuleset):
    """Lim on three heaps.

    Examples
    --------
    >>> from nimlab import game, grundy
    >>> g = game("lim")
    >>> sorted(g.moves((1, 1, 0)))
    [(0, 0, 1)]
    >>> grundy(g, (3, 5, 5)), grundy(g, (11, 6, 5))
    (5, 7)
    >>> g.validate((3, 4))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidPositionError: lim: a position has exactly 3 heaps, got 2
    """

    n_heaps: ClassVar[int | None] = 3

    name = "lim"
    aliases = ("lim-game",)
    summary = "three heaps; take t >= 1 from each of two heaps and add t to the third"
    theorems = ("S19-T8",)
    grundy_theorem = "S19-T8"
    p_theorem = "S19-T8"

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.lim.strategy`."""
        from nimlab.catalog.lim.strategy import lim_strategy

        return lim_strategy(self, position, misere)

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """Each move takes the same amount from two heaps."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        a, b, c = (heaps + [0, 0, 0])[:3]
        return min(a, b) + min(a, c) + min(b, c)

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure:
        """The three heaps and their bitwise majority (S19-T8)."""
        maj = bitwise_majority(*position)
        width = views.width(position)
        rows = [
            BinaryRow(lab, views.bits(h, width), str(h))
            for lab, h in zip(("a", "b", "c"), position, strict=True)
        ]
        rows.append(BinaryRow("maj", views.bits(maj, width), str(maj), "result"))
        return BinaryFigure(
            (BinaryBlock("", tuple(rows)),),
            f"G = bitwise majority = ((a+b+c) − (a⊕b⊕c))/2 = {maj}: {views.pn(maj == 0)} (S19-T8)",
            maj,
            maj == 0,
            "S19-T8",
        )

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for i, j, l in ((0, 1, 2), (0, 2, 1), (1, 2, 0)):
            for t in range(1, min(position[i], position[j]) + 1):
                new = list(position)
                new[i] -= t
                new[j] -= t
                new[l] += t
                yield tuple(new)

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """The move-closed simplex of three heaps."""
        return LimKernel() if len(shape) == 3 else None

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog._compiled import compiled
        from nimlab.catalog.lim.compiled import lim

        return compiled("lim", lim)

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """The Lim formula: ``((a+b+c) − (a⊕b⊕c))/2``, the bitwise majority of the heaps.

        Examples
        --------
        >>> print(Lim().explain_notes((3, 5, 6), None)[0])
        G(a, b, c) = ((a + b + c) − (a ⊕ b ⊕ c))/2, the bitwise majority of a, b, c [S19-T8]: ((3 + 5 + 6) − 0)/2 = 7
        """
        if not isinstance(position, tuple) or len(position) != 3:
            return []

        def value(p: tuple[int, ...]) -> str:
            a, b, c = p
            return f"(({a} + {b} + {c}) − {a ^ b ^ c})/2 = {lim_grundy(a, b, c)}"

        out = [
            "G(a, b, c) = ((a + b + c) − (a ⊕ b ⊕ c))/2, the bitwise majority of a, b, c "
            f"[S19-T8]: {value(position)}"
        ]
        if move is not None and len(move) == 3:
            out.append(f"after the move: {value(move)}")
        return out

    def closed_grundy(self, position: tuple[int, ...]) -> int:
        a, b, c = position
        return lim_grundy(a, b, c)
