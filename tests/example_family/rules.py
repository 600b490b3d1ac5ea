"""Take-three Nim: a move takes 1, 2 or 3 stones from one heap."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from example_family.formulas import take_three_grundy
from nimlab.core.ruleset import HeapRuleset

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = ["TakeThree"]


@dataclass(frozen=True)
class TakeThree(HeapRuleset):
    """Take-three Nim on any number of heaps.

    Examples
    --------
    >>> sorted(TakeThree().moves((2, 5)))
    [(0, 5), (1, 5), (2, 2), (2, 3), (2, 4)]
    >>> TakeThree().closed_grundy((5, 6, 7))
    0
    """

    name = "take-three"
    aliases = ("take-three-nim",)
    summary = "take 1, 2 or 3 stones from one heap"
    theorems = ("EX-T1",)
    grundy_theorem = "EX-T1"
    p_theorem = "EX-T1"

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for i, h in enumerate(position):
            for t in range(1, min(3, h) + 1):
                yield (*position[:i], h - t, *position[i + 1 :])

    def closed_grundy(self, position: tuple[int, ...]) -> int:
        return take_three_grundy(position)

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`example_family.strategy`."""
        from example_family.strategy import take_three_strategy

        return take_three_strategy(self, position, misere)

    def compiled_options(self) -> Any:
        """The numba move model of :mod:`example_family.compiled`."""
        from example_family.compiled import take_three

        return take_three()

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """The closed form at *position* (and after *move*), residue by residue.

        Examples
        --------
        >>> TakeThree().explain_notes((5, 6), (5, 5))
        ['G = (5 mod 4) ⊕ (6 mod 4) = 1 ⊕ 2 = 3 [EX-T1]', 'after the move: 1 ⊕ 1 = 0']
        """

        def residues(p: tuple[int, ...]) -> str:
            return " ⊕ ".join(str(h % 4) for h in p) + f" = {take_three_grundy(p)}"

        terms = " ⊕ ".join(f"({h} mod 4)" for h in position)
        out = [f"G = {terms} = {residues(position)} [EX-T1]"]
        if move is not None:
            out.append(f"after the move: {residues(move)}")
        return out
