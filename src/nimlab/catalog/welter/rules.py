"""The Welter–Sato game (Mayan game).

Nim, but no move may make two heaps equal; a heap of 0 still counts as a heap, so
positions have pairwise distinct heaps.

References
----------
[S19] §1.5, Theorem 7 (``S19-T7``): ``G = ⊕ n_i ⊕ ⊕_{i<j} M(n_i, n_j)`` with
``M(x, y) = 2^{e+1} − 1`` where x and y agree in exactly their ``e`` lowest binary digits.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimlab.catalog.registry import register
from nimlab.catalog.welter.formulas import welter_grundy, welter_m
from nimlab.core import views
from nimlab.core.errors import InvalidPositionError
from nimlab.core.ruleset import HeapRuleset
from nimlab.core.views import BinaryBlock, BinaryFigure, BinaryRow
from nimlab.formulas.nim import nim_sum

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = ["Welter"]


@register
@dataclass(frozen=True)
class Welter(HeapRuleset):
    """Welter–Sato game: a Nim move that leaves all heaps pairwise distinct.

    Examples
    --------
    >>> from nimlab import game, grundy
    >>> g = game("welter")
    >>> sorted(g.moves((1, 3)))   # [S19] Figure 3: (1, 1) is not allowed
    [(0, 3), (1, 0), (1, 2)]
    >>> grundy(g, (1, 3))
    1
    >>> g.validate((5, 2, 5))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidPositionError: welter: heaps 1 and 3 are both 5, but heaps must be pairwise distinct (a heap of 0 counts as a heap)
    """

    name = "welter"
    aliases = ("welter-sato", "mayan")
    summary = "take from one heap; no two heaps may become equal (0 counts as a heap)"
    theorems = ("S19-T7",)
    grundy_theorem = "S19-T7"
    p_theorem = "S19-T7"

    def check(self, heaps: tuple[int, ...]) -> None:
        first: dict[int, int] = {}
        for i, h in enumerate(heaps, 1):
            j = first.setdefault(h, i)
            if j != i:
                raise InvalidPositionError(
                    f"welter: heaps {j} and {i} are both {h}, but heaps must be pairwise "
                    "distinct (a heap of 0 counts as a heap)"
                )

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.welter.strategy`."""
        from nimlab.catalog.welter.strategy import welter_strategy

        return welter_strategy(self, position, misere)

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure:
        """The heaps, the ``M(x, y)`` terms and their XOR (S19-T7)."""
        n = len(position)
        terms = [
            (f"M(n{i + 1},n{j + 1})", welter_m(position[i], position[j]))
            for i in range(n)
            for j in range(i + 1, n)
        ]
        total = nim_sum([*position, *(t for _, t in terms)])
        width = views.width((*position, *(t for _, t in terms)))
        rows = views.heap_rows(position, width)
        rows += [BinaryRow(lab, views.bits(t, width), str(t), "term") for lab, t in terms]
        rows.append(BinaryRow("G", views.bits(total, width), str(total), "result"))
        return BinaryFigure(
            (BinaryBlock("", tuple(rows)),),
            f"G = ⊕ heaps ⊕ ⊕ M(ni,nj) = {total}: {views.pn(total == 0)} "
            "(S19-T7; M(x,y) = 2^(e+1)-1 where x, y agree in the lowest e digits only)",
            total,
            total == 0,
            "S19-T7",
        )

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        taken = set(position)
        for i, h in enumerate(position):
            for v in range(h):
                if v not in taken:
                    yield position[:i] + (v,) + position[i + 1 :]

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.welter import compiled as family_compiled

        return _compiled.compiled("welter", family_compiled.welter)

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """The terms of the Welter–Sato formula: the heaps' XOR and every ``M(x, y)``.

        Examples
        --------
        >>> print(Welter().explain_notes((1, 2, 4), None)[0])
        G = ⊕ n_i ⊕ ⊕_{i<j} M(n_i, n_j), M(x, y) = 2^(e+1) − 1 where 2^e is the highest power of 2 dividing x − y [S19-T7]: 1 ⊕ 2 ⊕ 4 = 7; M(1, 2) = 1, M(1, 4) = 1, M(2, 4) = 3; G = 7 ⊕ 1 ⊕ 1 ⊕ 3 = 4
        """
        if not isinstance(position, tuple) or len(position) > 12:
            return []

        def terms(p: tuple[int, ...]) -> str:
            x = nim_sum(p)
            ms = [
                (p[i], p[j], welter_m(p[i], p[j]))
                for i in range(len(p))
                for j in range(i + 1, len(p))
            ]
            ms_text = ", ".join(f"M({a}, {b}) = {m}" for a, b, m in ms) or "no pairs"
            total = " ⊕ ".join([str(x)] + [str(m) for _, _, m in ms])
            return " ⊕ ".join(map(str, p)) + f" = {x}; {ms_text}; G = {total} = {welter_grundy(p)}"

        out = [
            "G = ⊕ n_i ⊕ ⊕_{i<j} M(n_i, n_j), M(x, y) = 2^(e+1) − 1 where 2^e is the highest "
            f"power of 2 dividing x − y [S19-T7]: {terms(position)}"
        ]
        if move is not None:
            out.append(f"after the move: {terms(move)}")
        return out

    def closed_grundy(self, position: tuple[int, ...]) -> int:
        return welter_grundy(position)
