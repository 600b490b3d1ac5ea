"""Nim (Bouton).

A move takes at least one stone from one heap.

References
----------
[S19] §1, Theorem 1 (``S19-T1``): ``G(n1, ..., nr) = n1 ⊕ ... ⊕ nr``.
[N99] Theorem 1.11 (``N99-T1.11``): misère Nim.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimlab.catalog.registry import register
from nimlab.core import views
from nimlab.core.kernels import LinesKernel, OneHeapKernel, TableKernel, TakeAnyKernel
from nimlab.core.ruleset import HeapRuleset, Ruleset
from nimlab.core.views import BinaryFigure
from nimlab.formulas.nim import misere_nim_is_p, nim_sum
from nimlab.formulas.onepile import allbut_periodicity_proof

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = ["Nim"]


@register
@dataclass(frozen=True)
class Nim(HeapRuleset):
    """Nim: take any positive number of stones from one heap.

    Examples
    --------
    >>> from nimlab import grundy, outcome
    >>> grundy(Nim(), (3, 4, 5))
    2
    >>> str(outcome(Nim(), (1, 2, 3)))
    'P'
    """

    name = "nim"
    aliases = ("bouton",)
    summary = "take any positive number of stones from one heap"
    theorems = ("S19-T1", "N99-T1.11")
    grundy_theorem = "S19-T1"
    p_theorem = "S19-T1"
    misere_theorem = "N99-T1.11"

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.strategies.nimk`."""
        from nimlab.catalog.strategies.nimk import nim_strategy

        return nim_strategy(self, position, misere)

    def nimk_equivalent(self, position: tuple[int, ...]) -> int:
        """Nim is Nim_1."""
        return 1

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure:
        """The heaps in binary and their nim-sum (S19-T1)."""
        labelled = list(zip(views.heap_labels(len(position)), position, strict=True))
        return views.xor_figure(labelled, "nim-sum", "S19-T1", ": G = n1 ⊕ … ⊕ nr")

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for i, h in enumerate(position):
            for v in range(h):
                yield position[:i] + (v,) + position[i + 1 :]

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.nim import compiled as family_compiled

        return _compiled.compiled("nim", family_compiled.nim)

    def components(self, position: tuple[int, ...]) -> Sequence[tuple[Ruleset[Any], Any]] | None:
        if len(position) <= 1:
            return None
        return [(self, (h,)) for h in position]

    def closed_grundy(self, position: tuple[int, ...]) -> int:
        return nim_sum(position)

    def closed_misere_is_p(self, position: tuple[int, ...]) -> bool:
        return misere_nim_is_p(position)

    def sequence_kernel(self) -> OneHeapKernel:
        """One heap: take any number of stones."""
        return TakeAnyKernel()

    def periodicity_proof(
        self, values: Sequence[int], preperiod: int, period: int, saltus: int
    ) -> tuple[bool, str, int]:
        """One-heap Nim is All-but(∅): the all-but induction."""
        return allbut_periodicity_proof(values, preperiod, period, saltus, ())

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """Every heap is a line of cofinite moves."""
        d = len(shape)
        if d in (2, 3):
            return LinesKernel((True,) * d, (0,) * d, ())
        return super().table_kernel(shape, kind)

    def strategy_moves(self, position: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Bouton's construction: reduce each heap h with h ⊕ s < h to h ⊕ s."""
        s = nim_sum(position)
        if s == 0:
            return []
        return [
            position[:i] + (h ^ s,) + position[i + 1 :] for i, h in enumerate(position) if h ^ s < h
        ]
