"""Moore's Nim_k (Nim_K): take from at most k heaps.

A move chooses at most ``k`` heaps and takes any number of stones from each of them,
at least one stone in total. Nim_1 is Nim.

References
----------
[S19] §1.3, Theorem 5 (``S19-T5``, alias [N99] Theorem 2.4 ``N99-T2.4``): P iff the
binary digits of the heaps add up to 0 mod k+1 in every position. Grundy values are
unknown in general (open), except for k = 1 where the game is Nim (``S19-T1``).
[N99] Theorem 2.10 (``N99-T2.10``): misère Nim_K.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimlab.catalog.registry import register
from nimlab.core import views
from nimlab.core.errors import InvalidParameterError
from nimlab.core.kernels import MooreKernel, TableKernel
from nimlab.core.params import Param, to_int
from nimlab.core.ruleset import HeapRuleset, int_heaps
from nimlab.core.views import BinaryBlock, BinaryFigure, BinaryRow
from nimlab.formulas.moore import misere_moore_is_p, moore_is_p
from nimlab.formulas.nim import nim_sum

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = ["Moore", "positive_k"]


def positive_k(name: str, value: Any) -> int:
    """Check an integer parameter that must be at least 1.

    Examples
    --------
    >>> positive_k("k", 0)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: parameter k must be an integer >= 1, got 0
    """
    v = to_int(name, value)
    if v < 1:
        raise InvalidParameterError(f"parameter {name} must be an integer >= 1, got {v}")
    return v


def product_sum(values: list[int], k: int) -> int:
    """Sum over subsets of size 1..k of the products of *values* (elementary symmetric).

    Examples
    --------
    >>> product_sum([3, 4, 5], 2)  # 3+4+5 + 12+15+20
    59
    >>> product_sum([3, 4], 10**9)  # no subset has more than 2 elements (no list of 10^9)
    19
    """
    k = min(k, len(values))
    e = [1] + [0] * k
    for v in values:
        for j in range(k, 0, -1):
            e[j] += e[j - 1] * v
    return sum(e[1:])


@register
@dataclass(frozen=True)
class Moore(HeapRuleset):
    """Moore's Nim_k: take stones from at most ``k`` heaps, at least one in total.

    Moves are generated exactly: every nonempty set of at most ``k`` nonzero heaps, each
    strictly reduced to any smaller size (every option once per heap order).

    Examples
    --------
    >>> from nimlab import game, grundy, outcome
    >>> g = game("moore", k=2)
    >>> str(outcome(g, (3, 5, 6, 7)))   # 3 ⊕3 5 ⊕3 6 ⊕3 7 = 0
    'P'
    >>> sorted(g.moves((1, 1, 1)))
    [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0)]
    >>> grundy(game("nim-k", k=1), (3, 4, 5))  # Nim_1 is Nim
    2
    """

    k: int = 1

    name = "moore"
    aliases = ("nim-k", "moorenim")
    params = (Param("k", "the number of heaps a move may touch (k >= 1)", convert=positive_k),)
    summary = "take stones from at most k heaps, at least one stone in total"
    theorems = ("S19-T5", "N99-T2.10", "S19-T1")
    grundy_theorem = "S19-T1"  # k = 1 only: Nim_1 is Nim
    p_theorem = "S19-T5"
    misere_theorem = "N99-T2.10"

    def __post_init__(self) -> None:
        positive_k("k", self.k)

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.strategies.nimk`."""
        from nimlab.catalog.strategies.nimk import moore_strategy

        return moore_strategy(self, position, misere)

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """Sum over sets of up to k heaps of the products of their sizes."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        return product_sum(heaps, self.k)

    def nimk_equivalent(self, position: tuple[int, ...]) -> int:
        """Moore's Nim_k is Nim_K with K = k."""
        return int(self.k)

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure:
        """The heaps in binary and their digit sums mod k+1 (S19-T5)."""
        k = int(self.k)
        m = k + 1
        sums = views.column_sums(position, m)
        width = max(len(sums), 1)
        dw = len(str(k))
        rows = [
            BinaryRow(lab, tuple(d.rjust(dw) for d in views.bits(h, width)), str(h))
            for lab, h in zip(views.heap_labels(len(position)), position, strict=True)
        ]
        s = views.s19_string(sums)
        digits = tuple(d.rjust(dw) for d in views.digits_row(sums, width))
        rows.append(BinaryRow(f"mod {m}", digits, s, "result"))
        p = all(d == 0 for d in sums)
        return BinaryFigure(
            (BinaryBlock("", tuple(rows)),),
            f"digit sums mod {m}: {s!r}: {views.pn(p)} "
            "(S19-T5: P iff every column sums to 0 mod k+1)",
            views.closed_values(self, position)[0],
            p,
            "S19-T5",
        )

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        live = [i for i, h in enumerate(position) if h > 0]
        for size in range(1, min(self.k, len(live)) + 1):
            for chosen in itertools.combinations(live, size):
                ranges = [range(position[i]) for i in chosen]
                for values in itertools.product(*ranges):
                    new = list(position)
                    for i, v in zip(chosen, values, strict=True):
                        new[i] = v
                    yield tuple(new)

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """Plane and box prefix bitsets (take from up to k heaps)."""
        return MooreKernel(self.k) if len(shape) in (2, 3) else None

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.moore import compiled as family_compiled

        return _compiled.compiled(("moore", self.k), lambda: family_compiled.moore(self.k))

    def compiled_predecessors(self) -> Any:
        """Compiled inverse moves (see :meth:`HeapRuleset.compiled_predecessors`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.moore import compiled as family_compiled

        k = self.k
        return _compiled.compiled(("moore-pred", k), lambda: family_compiled.moore_predecessors(k))

    def closed_grundy(self, position: tuple[int, ...]) -> int | None:
        return nim_sum(position) if self.k == 1 else None

    def closed_is_p(self, position: tuple[int, ...]) -> bool:
        return moore_is_p(position, self.k)

    def closed_misere_is_p(self, position: tuple[int, ...]) -> bool:
        return misere_moore_is_p(position, self.k)
