"""Circular Nim CN(n, k).

``n`` heaps stand on a circle (a heap of 0 stays in its place). A move chooses ``k``
consecutive heaps and takes at least one stone in total from them (any amount from each).

References
----------
[S19] §1.7 and Theorem 9 (``S19-T9``): CN(n, 1) is Nim (``S19-T1``), CN(n, n) is one heap
holding the total (``S19-T1``), CN(n, n−1) is Moore's Nim_{n−1} (``S19-T5``), and CN(6, 4)
is P iff ``a+b = d+e``, ``b+c = e+f`` and ``a ⊕ c ⊕ e = 0`` for a labelling ``a..f`` along
the circle with a minimum at ``a``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from nimlab.catalog.circular.formulas import cn64_is_p, dihedral_images, dihedral_min
from nimlab.catalog.moore.rules import positive_k
from nimlab.catalog.registry import register
from nimlab.core.errors import InvalidPositionError
from nimlab.core.kernels import MooreKernel, TableKernel
from nimlab.core.params import Param
from nimlab.core.ruleset import HeapRuleset, int_heaps
from nimlab.formulas.moore import moore_is_p
from nimlab.formulas.nim import nim_sum

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = ["Circular"]


@register
@dataclass(frozen=True)
class Circular(HeapRuleset):
    """Circular Nim CN(n, k): take from ``k`` consecutive heaps of a circle of ``n``.

    Positions list the heaps in circle order; ``n`` is the number of heaps, and the
    position must have at least ``k`` of them. Rotations and reflections of the circle
    are symmetries, which :meth:`canonical` uses.

    Examples
    --------
    >>> from nimlab import game, outcome
    >>> g = game("circular", k=4)
    >>> str(outcome(g, (1, 2, 3, 1, 2, 3)))
    'P'
    >>> sorted(game("circular", k=2).moves((1, 0, 1)))
    [(0, 0, 0), (0, 0, 1), (1, 0, 0)]
    >>> g.validate((1, 2, 3))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidPositionError: circular: k=4 consecutive heaps need at least 4 heaps on the circle, got 3 (give more heaps or a smaller k)
    """

    k: int = 1

    ordered: ClassVar[bool] = True
    min_heaps: ClassVar[int] = 1

    name = "circular"
    aliases = ("circular-nim", "cn")
    params = (
        Param("k", "the number of consecutive heaps a move uses (1 <= k <= n)", convert=positive_k),
    )
    summary = "n heaps on a circle; take >= 1 stones in total from k consecutive heaps"
    theorems = ("S19-T9", "S19-T5", "S19-T1")
    grundy_theorem = "S19-T1"  # k = 1 (Nim) and k = n (one heap of the total)
    p_theorem = "S19-T9"  # CN(6, 4); CN(n, n-1) by S19-T5

    def __post_init__(self) -> None:
        positive_k("k", self.k)

    def check(self, heaps: tuple[int, ...]) -> None:
        if len(heaps) < self.k:
            raise InvalidPositionError(
                f"circular: k={self.k} consecutive heaps need at least {self.k} heaps on the "
                f"circle, got {len(heaps)} (give more heaps or a smaller k)"
            )

    def _reducible_sets(self, n: int) -> list[tuple[int, ...]]:
        """Every nonempty set of heap indices inside some window of k consecutive heaps."""
        windows = {tuple(sorted({(s + i) % n for i in range(self.k)})) for s in range(n)}
        out: set[tuple[int, ...]] = set()
        for w in windows:
            for size in range(1, len(w) + 1):
                out.update(itertools.combinations(w, size))
        return sorted(out)

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.strategies.nimk`."""
        from nimlab.catalog.strategies.nimk import circular_strategy

        return circular_strategy(self, position, misere)

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """Sum over the runs of up to k consecutive heaps of their box sizes."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        k, n = self.k, len(heaps)
        return sum(math.prod(heaps[(s + j) % n] + 1 for j in range(min(k, n))) for s in range(n))

    def nimk_equivalent(self, position: tuple[int, ...]) -> int | None:
        """CN(n, 1) is Nim and CN(n, n-1) is Nim_(n-1); other CN(n, k) are not Nim_K."""
        k = int(self.k)
        if k == 1:
            return 1
        if isinstance(position, tuple) and k == len(position) - 1:
            return k
        return None

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for chosen in self._reducible_sets(len(position)):
            if any(position[i] == 0 for i in chosen):
                continue
            for values in itertools.product(*(range(position[i]) for i in chosen)):
                new = list(position)
                for i, v in zip(chosen, values, strict=True):
                    new[i] = v
                yield tuple(new)

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.circular import compiled as family_compiled

        return _compiled.compiled(("circular", self.k), lambda: family_compiled.circular(self.k))

    def compiled_predecessors(self) -> Any:
        """Compiled inverse moves (see :meth:`HeapRuleset.compiled_predecessors`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.circular import compiled as family_compiled

        k = self.k
        return _compiled.compiled(
            ("circular-pred", k), lambda: family_compiled.circular_predecessors(k)
        )

    def canonical(self, position: tuple[int, ...]) -> tuple[int, ...]:
        return dihedral_min(position)

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """On two or three heaps every set of up to k heaps is consecutive: Moore's kernel."""
        return MooreKernel(self.k) if len(shape) in (2, 3) else None

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """CN(6, 4): the criterion's three conditions, read from a minimum heap.

        Examples
        --------
        >>> print(Circular(k=4).explain_notes((1, 2, 3, 1, 2, 4), None)[0])
        [S19-T9] CN(6, 4) is P iff, with heaps a..f around the circle from a minimum a: a+b = d+e, b+c = e+f and a ⊕ c ⊕ e = 0; here (1, 2, 3, 1, 2, 4): 3 = 3, 5 ≠ 6, 1 ⊕ 3 ⊕ 2 = 0
        """
        if not isinstance(position, tuple) or len(position) != 6 or self.k != 4:
            return []

        def eq(u: int, v: int) -> str:
            return f"{u} = {v}" if u == v else f"{u} ≠ {v}"

        def check(p: tuple[int, ...]) -> str:
            low = min(p)
            # a labelling from a minimum that satisfies the criterion, if one does
            start = [t for t in dihedral_images(p) if t[0] == low]
            a, b, c, d, e, f = next((t for t in start if cn64_is_p(t)), dihedral_min(p))
            return (
                f"({a}, {b}, {c}, {d}, {e}, {f}): {eq(a + b, d + e)}, {eq(b + c, e + f)}, "
                f"{a} ⊕ {c} ⊕ {e} = {a ^ c ^ e}"
            )

        out = [
            "[S19-T9] CN(6, 4) is P iff, with heaps a..f around the circle from a minimum a: "
            f"a+b = d+e, b+c = e+f and a ⊕ c ⊕ e = 0; here {check(position)}"
        ]
        if move is not None and len(move) == 6:
            out.append(f"after the move: {check(move)}")
        return out

    def closed_grundy(self, position: tuple[int, ...]) -> int | None:
        if self.k == 1:
            return nim_sum(position)
        if self.k == len(position):
            return sum(position)
        return None

    def closed_is_p(self, position: tuple[int, ...]) -> bool | None:
        g = self.closed_grundy(position)
        if g is not None:
            return g == 0
        n = len(position)
        if self.k == n - 1:
            return moore_is_p(position, n - 1)
        if n == 6 and self.k == 4:
            return cn64_is_p(position)
        return None
