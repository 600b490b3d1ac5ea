"""Emperor Nim and k-Emperor Nim: heaps grouped in ranges.

A position is a tuple of *ranges*, each a tuple of heaps (a multiset: the order of heaps in
a range, and of ranges, does not matter). A move of k-Emperor Nim chooses at most ``k``
ranges and takes any stones from any of their heaps; in every other range it may take
stones from at most one heap; at least one stone is taken in total. Emperor Nim is
``k = 1``.

Said otherwise, a move is any decrease of heaps, not all zero, in which at most ``k``
ranges lose stones from two or more heaps.

On the command line ranges are separated by spaces and heaps by commas: ``1,2 3,3 4`` is
``((1, 2), (3, 3), (4,))``.

References
----------
[S19] §3: Game 9 and Theorem 12 (``S19-T12``), Game 10 and Theorem 13 (``S19-T13``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimlab.catalog.emperor.formulas import emperor_is_p
from nimlab.catalog.registry import register
from nimlab.core import views
from nimlab.core.errors import InvalidParameterError, InvalidPositionError
from nimlab.core.params import Param
from nimlab.core.ruleset import Ruleset, _as_int
from nimlab.core.views import BinaryBlock, BinaryFigure, BinaryRow
from nimlab.formulas.nim import nim_sum

if TYPE_CHECKING:
    from nimlab.core.kernels import IndexModel
    from nimlab.core.strategy import Construction

__all__ = ["Emperor", "EmperorPosition"]

EmperorPosition = tuple[tuple[int, ...], ...]


def _range_options(r: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Decreases of one range: those touching exactly one heap, and those touching two or more."""
    single: list[tuple[int, ...]] = []
    for i, h in enumerate(r):
        for v in range(h):
            single.append((*r[:i], v, *r[i + 1 :]))
    multi: list[tuple[int, ...]] = []
    if len(r) >= 2:
        for t in itertools.product(*(range(h + 1) for h in r)):
            if sum(1 for a, b in zip(t, r, strict=True) if a != b) >= 2:
                multi.append(t)
    return single, multi


@register
@dataclass(frozen=True)
class Emperor(Ruleset[EmperorPosition]):
    """k-Emperor Nim ([S19] Games 9 and 10); ``k = 1`` is Emperor Nim.

    Examples
    --------
    >>> from nimlab import game, outcome, grundy
    >>> g = game("emperor")
    >>> g.validate([[1, 2], [3, 3], 4])
    ((1, 2), (3, 3), (4,))
    >>> str(outcome(g, ((1, 1), (2, 2), (3, 3)), method="search"))   # totals 2, 4, 6
    'P'
    >>> str(outcome(g, ((1, 1), (2, 2)), method="search"))
    'N'
    >>> str(outcome(game("emperor", k=2), ((1, 1), (1, 1), (1, 1)), method="search"))
    'P'
    >>> g.parse_position(["1,2", "3,3", "4"])
    ((1, 2), (3, 3), (4,))
    >>> g.format_position(((1, 2), (3, 3), (4,)))
    '1,2 3,3 4'
    """

    k: int = 1

    name = "emperor"
    aliases = ("emperor-nim", "k-emperor", "k-emperor-nim")
    params = (
        Param(
            "k",
            "number of ranges a move may play freely (k >= 1)",
            default=1,
        ),
    )
    summary = (
        "ranges of heaps; take any stones in up to k ranges, and from at most one heap "
        "in each other range"
    )
    theorems = ("S19-T12", "S19-T13")
    p_theorem = "S19-T13"

    def __post_init__(self) -> None:
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise InvalidParameterError(
                f"parameter k of emperor must be an integer >= 1 (the number of ranges a "
                f"move may play freely), got {self.k!r} (for example k=2)"
            )

    def strategy(self, position: EmperorPosition, misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.emperor.strategy`."""
        from nimlab.catalog.emperor.strategy import emperor_strategy

        return emperor_strategy(self, position, misere)

    def estimate_moves(self, position: EmperorPosition) -> int | None:
        """Moves counted from the boxes of the ranges."""
        if not isinstance(position, tuple):
            return None
        if all(isinstance(h, int) and not isinstance(h, bool) for h in position):
            return int(sum(position))  # type: ignore[arg-type]  # not a valid position
        ranges: list[list[int]] = [list(r) for r in position]
        totals = [math.prod(h + 1 for h in r) for r in ranges]
        single = [1 + sum(r) for r in ranges]
        if self.k == 1:
            p = math.prod(single)
            return int(sum(t * p // s for t, s in zip(totals, single, strict=True)))
        return int(math.prod(t for t in totals))

    def explain_notes(self, position: EmperorPosition, move: EmperorPosition | None) -> list[str]:
        """The range XORs and the range totals, before and after the move."""

        def quantities(p: EmperorPosition) -> str:
            xs = ", ".join(str(nim_sum(r)) for r in p)
            ts = [sum(r) for r in p]
            return f"range XORs {xs}; range totals {', '.join(map(str, ts))} (XOR {nim_sum(ts)})"

        out = [f"before: {quantities(position)}"]
        if move is not None:
            out.append(f"after:  {quantities(move)}")
        k = int(self.k)
        if k == 1:
            out.append(
                "[S19-T12]: P iff every range's heaps XOR to 0 and the XOR of the range totals is 0"
            )
        else:
            out.append(
                f"[S19-T13]: P iff every range's heaps XOR to 0 and the range totals satisfy "
                f"Moore's criterion mod {k + 1} (their binary digits add up to 0 mod {k + 1})"
            )
        return out

    def binary_figure(self, position: EmperorPosition) -> BinaryFigure:
        """XOR per range, and the range totals' XOR or digit sums (S19-T12, S19-T13)."""
        k = int(self.k) or 1
        ranges = list(position)
        totals = [sum(r) for r in ranges]
        xors = [nim_sum(r) for r in ranges]
        width = views.width((*totals, *(h for r in ranges for h in r)))
        blocks = []
        for i, (r, x, t) in enumerate(zip(ranges, xors, totals, strict=True), 1):
            rows = [
                BinaryRow(f"n{i}.{j}", views.bits(h, width), str(h)) for j, h in enumerate(r, 1)
            ]
            rows.append(BinaryRow("⊕", views.bits(x, width), str(x), "result"))
            rows.append(BinaryRow("Σ", views.bits(t, width), str(t), "total"))
            blocks.append(BinaryBlock(f"range {i}", tuple(rows)))
        trows = [BinaryRow(f"Σ{i}", views.bits(t, width), str(t)) for i, t in enumerate(totals, 1)]
        if k == 1:
            tx = nim_sum(totals)
            trows.append(BinaryRow("⊕", views.bits(tx, width), str(tx), "result"))
            totals_ok = tx == 0
            how = f"XOR of totals = {tx}"
            thm = "S19-T12"
        else:
            sums = views.column_sums(totals, k + 1)
            s = views.s19_string(sums)
            trows.append(BinaryRow(f"mod {k + 1}", views.digits_row(sums, width), s, "result"))
            totals_ok = all(d == 0 for d in sums)
            how = f"digit sums of totals mod {k + 1} = {s!r}"
            thm = "S19-T13"
        blocks.append(BinaryBlock("range totals", tuple(trows)))
        p = all(x == 0 for x in xors) and totals_ok
        return BinaryFigure(
            tuple(blocks),
            f"range XORs {', '.join(map(str, xors))}; {how}: {views.pn(p)} "
            f"({thm}: P iff every range XORs to 0 and the totals satisfy the criterion)",
            None,
            p,
            thm,
        )

    def validate(self, position: object) -> EmperorPosition:
        """Normalise to a tuple of ranges, each a tuple of heaps ``≥ 0``; a bare int is a range of one heap."""
        if not isinstance(position, (tuple, list)):
            raise InvalidPositionError(
                f"{self.name}: a position is a sequence of ranges, each a sequence of heaps "
                f"(example: ((1, 2), (3, 3), (4,)) or on the command line 1,2 3,3 4), "
                f"got {position!r}"
            )
        out: list[tuple[int, ...]] = []
        for i, r in enumerate(position, 1):
            if isinstance(r, (tuple, list)):
                heaps = tuple(_as_int(self.name, i, h) for h in r)
            else:
                heaps = (_as_int(self.name, i, r),)
            if not heaps:
                raise InvalidPositionError(
                    f"{self.name}: range {i} is empty, but a range has at least one heap "
                    "(example: 1,2 3,3 4)"
                )
            for h in heaps:
                if h < 0:
                    raise InvalidPositionError(
                        f"{self.name}: range {i} has a heap of {h}, but heaps must be integers >= 0"
                    )
            out.append(heaps)
        return tuple(out)

    def index_model(self, region: tuple[int, ...]) -> IndexModel | None:
        """Positions with ranges of the sizes ``region[1:]`` (non-decreasing, at most 4
        heaps each, at most 6 ranges) and every heap below ``region[0]``, as an index space
        (see :func:`nimlab.catalog.emperor.compiled.emperor_params`), with an exact compiled
        ``is_option``.

        Examples
        --------
        >>> m = Emperor().index_model((3, 1, 2))
        >>> m.size, m.position((1, 2, 0)), m.index(((2, 0), (1,)))
        (18, ((0, 2), (1,)), 9)
        """
        if len(region) < 2 or len(region) > 7 or region[0] < 1 or min(region[1:]) < 1:
            return None
        if list(region[1:]) != sorted(region[1:]) or max(region[1:]) > 4:
            return None
        bound = int(region[0])
        sizes = tuple(int(s) for s in region[1:])
        k = int(self.k)
        from nimlab.catalog import _compiled
        from nimlab.catalog.emperor import compiled as family_compiled
        from nimlab.core.kernels import IndexModel

        total, params = _compiled.compiled(
            ("emperor", bound, sizes, k), lambda: family_compiled.emperor_params(bound, sizes, k)
        )
        if params is None:
            return None
        cuts = [0]
        for sz in sizes:
            cuts.append(cuts[-1] + sz)

        def position(code: tuple[int, ...]) -> EmperorPosition:
            return tuple(sorted(tuple(sorted(code[a:b])) for a, b in itertools.pairwise(cuts)))

        def index(p: Any) -> int | None:
            try:
                ranges = sorted((tuple(sorted(r)) for r in p), key=len)
            except TypeError:
                return None
            if tuple(len(r) for r in ranges) != sizes:
                return None
            flat = [h for r in ranges for h in r]
            if any(not 0 <= h < bound for h in flat):
                return None
            import numpy as np

            return int(family_compiled.emperor_encode(params, np.array(flat, dtype=np.int64)))

        shape = " ".join(str(sz) for sz in sizes)
        return IndexModel(
            (bound, *sizes),
            total,
            sum(sizes),
            params,
            family_compiled.emperor_decode,
            family_compiled.emperor_encode,
            family_compiled.emperor_options,
            position,
            index,
            f"ranges of {shape} heaps, every heap < {bound}, one per canonical form",
            family_compiled.emperor_is_option,
        )

    def canonical(self, position: EmperorPosition) -> EmperorPosition:
        """Heaps sorted within each range, and ranges sorted."""
        return tuple(sorted(tuple(sorted(r)) for r in position))

    def moves(self, position: EmperorPosition) -> Iterator[EmperorPosition]:
        opts = [_range_options(r) for r in position]
        n = len(position)

        def rec(i: int, budget: int, changed: bool) -> Iterator[tuple[tuple[int, ...], ...]]:
            if i == n:
                if changed:
                    yield ()
                return
            single, multi = opts[i]
            for rest in rec(i + 1, budget, changed):
                yield (position[i], *rest)
            for r in single:
                for rest in rec(i + 1, budget, True):
                    yield (r, *rest)
            if budget:
                for r in multi:
                    for rest in rec(i + 1, budget - 1, True):
                        yield (r, *rest)

        yield from rec(0, self.k, False)

    def closed_is_p(self, position: EmperorPosition) -> bool:
        return emperor_is_p(position, self.k)

    def format_position(self, position: EmperorPosition) -> str:
        """Ranges separated by spaces, heaps by commas."""
        return " ".join(",".join(str(h) for h in r) for r in position)
