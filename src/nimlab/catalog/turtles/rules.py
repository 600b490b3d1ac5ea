"""2-D Turning Turtles: the coin game whose values are nim products.

A board of coins; a position is the set of coins showing heads, as 1-based coordinates
``(a, b)``. A move picks a head ``(a, b)`` and ``1 ≤ a' ≤ a``, ``1 ≤ b' ≤ b`` and turns
over the coins of the *set* ``{(a, b), (a', b), (a, b'), (a', b')}`` (coincident corners
are turned once, so ``a' = a, b' = b`` turns ``(a, b)`` alone). The board size does not
matter: no move reaches beyond ``(a, b)``.

References
----------
[S19] §1.4, Game 3 and Theorem 6 (``S19-T6``): ``G = ⊕ (a_i ⊗ b_i)`` over the heads,
``⊗`` the nim product. As in every coin-turning game whose moves turn a head to tails
and otherwise only coins below it, a position is the disjunctive sum of its single
heads (Winning Ways, ch. 14), which :meth:`TurningTurtles.components` uses.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimlab.catalog.registry import register
from nimlab.core import views
from nimlab.core.errors import InvalidPositionError
from nimlab.core.params import as_index
from nimlab.core.ruleset import Ruleset, parse_group_tokens
from nimlab.core.views import BinaryFigure
from nimlab.formulas.nimmul import nimmul

if TYPE_CHECKING:
    from nimlab.core.kernels import IndexModel
    from nimlab.core.strategy import Construction

__all__ = ["Heads", "TurningTurtles", "WholeBoardTurningTurtles"]

Heads = frozenset[tuple[int, int]]


def _coord(h: object, what: str) -> int:
    v = as_index(h)
    if v is None:
        raise InvalidPositionError(
            f"turning-turtles: head {what} has coordinate {h!r}, but coordinates are integers >= 1"
        )
    if v < 1:
        raise InvalidPositionError(
            f"turning-turtles: head {what} has coordinate {v}, but coordinates start "
            "at 1 (the corner coin is (1, 1))"
        )
    return v


@register
@dataclass(frozen=True)
class TurningTurtles(Ruleset[Heads]):
    """2-D Turning Turtles on an unbounded board of coins, 1-based coordinates.

    Examples
    --------
    >>> from nimlab import game, grundy
    >>> g = game("turning-turtles")
    >>> sorted(sorted(p) for p in g.moves(frozenset({(1, 2)})))
    [[], [(1, 1)]]
    >>> grundy(g, [(2, 2)]), grundy(g, [(2, 2), (2, 3)])   # 2⊗2 = 3, 3 ⊕ 2⊗3 = 3 ⊕ 1
    (3, 2)
    >>> g.format_position(g.parse_position(["2,3", "1,1"]))
    '1,1 2,3'
    >>> g.format_position(frozenset())
    '-'
    >>> g.validate([(0, 2)])
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidPositionError: turning-turtles: head (0, 2) has coordinate 0, but coordinates start at 1 (the corner coin is (1, 1))
    """

    name = "turning-turtles"
    aliases = ("turtles", "2d-turning-turtles")
    summary = (
        "coins on a board; pick a head (a,b) and a'<=a, b'<=b and turn over the coins "
        "{(a,b),(a',b),(a,b'),(a',b')}"
    )
    theorems = ("S19-T6",)
    grundy_theorem = "S19-T6"
    p_theorem = "S19-T6"

    def strategy(self, position: Heads, misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.turtles.strategy`."""
        from nimlab.catalog.turtles.strategy import turtles_strategy

        return turtles_strategy(self, position, misere)

    def estimate_moves(self, position: Heads) -> int | None:
        """Each head (a, b) can be turned with any coin of its rectangle."""
        try:
            return int(sum(a * b for a, b in position))
        except (TypeError, ValueError):
            return None

    def binary_figure(self, position: Heads) -> BinaryFigure:
        """The nim products ``a ⊗ b`` of the heads and their XOR (S19-T6)."""
        prods = [(f"{a}⊗{b}", int(nimmul(a, b))) for a, b in sorted(position)]
        return views.xor_figure(prods, "G = ⊕ a⊗b =", "S19-T6", "")

    def explain_notes(self, position: Heads, move: Heads | None) -> list[str]:
        """The nim products ``a ⊗ b`` of the heads, their XOR, and the coins the move turns.

        Examples
        --------
        >>> for line in TurningTurtles().explain_notes(frozenset({(1, 2), (2, 2), (3, 3)}),
        ...                                             frozenset({(1, 2), (1, 3), (3, 3)})):
        ...     print(line)
        G = ⊕ a⊗b over the heads, ⊗ the nim product [S19-T6]: 1⊗2 ⊕ 2⊗2 ⊕ 3⊗3 = 2 ⊕ 3 ⊕ 2 = 3
        the move turns the coins 1,3 2,2: after it, 1⊗2 ⊕ 1⊗3 ⊕ 3⊗3 = 2 ⊕ 3 ⊕ 2 = 3
        """
        if not isinstance(position, frozenset):
            return []

        def line(heads: Heads) -> str:
            if not heads:
                return "no heads: 0"
            hs = sorted(heads)
            vals = [int(nimmul(a, b)) for a, b in hs]
            total = 0
            for v in vals:
                total ^= v
            prods = " ⊕ ".join(f"{a}⊗{b}" for a, b in hs)
            if len(vals) == 1:
                return f"{prods} = {total}"
            return f"{prods} = " + " ⊕ ".join(map(str, vals)) + f" = {total}"

        out = [f"G = ⊕ a⊗b over the heads, ⊗ the nim product [S19-T6]: {line(position)}"]
        if move is not None:
            turned = " ".join(f"{a},{b}" for a, b in sorted(position ^ move))
            out.append(f"the move turns the coins {turned}: after it, {line(move)}")
        return out

    def validate(self, position: object) -> Heads:
        if not isinstance(position, (frozenset, set, tuple, list)):
            raise InvalidPositionError(
                "turning-turtles: a position is a set of heads (a, b) with 1-based "
                f"coordinates, like {{(1, 1), (2, 3)}}; got {position!r}"
            )
        heads: set[tuple[int, int]] = set()
        for item in position:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise InvalidPositionError(
                    f"turning-turtles: each head is a pair (a, b) of coordinates, got {item!r}"
                )
            a = _coord(item[0], repr(tuple(item)))
            b = _coord(item[1], repr(tuple(item)))
            if (a, b) in heads:
                raise InvalidPositionError(
                    f"turning-turtles: head ({a}, {b}) is listed twice; a coin shows heads "
                    "at most once"
                )
            heads.add((a, b))
        return frozenset(heads)

    def moves(self, position: Heads) -> Iterator[Heads]:
        for a, b in position:
            for a2 in range(1, a + 1):
                for b2 in range(1, b + 1):
                    yield position ^ {(a, b), (a2, b), (a, b2), (a2, b2)}

    def index_model(self, region: tuple[int, ...]) -> IndexModel | None:
        """The boards ``rows x cols`` (*region*) as an index space: every set of heads is
        the bit mask of its coins, row-major (see
        :func:`nimlab.catalog.turtles.compiled.turtles_options`).

        Examples
        --------
        >>> m = TurningTurtles().index_model((2, 3))
        >>> m.size, sorted(m.position((0b100010,))), m.index(frozenset({(1, 2), (2, 3)}))
        (64, [(1, 2), (2, 3)], 34)
        """
        if len(region) != 2 or min(region) < 1 or region[0] * region[1] > 62:
            return None
        rows, cols = int(region[0]), int(region[1])
        from nimlab.catalog.turtles import compiled as family_compiled
        from nimlab.core.kernels import IndexModel

        coins = [(a + 1, b + 1) for a in range(rows) for b in range(cols)]

        def position(code: tuple[int, ...]) -> Heads:
            m = code[0]
            heads = []
            while m:
                low = m & -m
                heads.append(coins[low.bit_length() - 1])
                m ^= low
            return frozenset(heads)

        def index(p: Any) -> int | None:
            m = 0
            for a, b in p:
                if not (1 <= a <= rows and 1 <= b <= cols):
                    return None
                m |= 1 << ((a - 1) * cols + b - 1)
            return m

        import numpy as np

        size = 1 << (rows * cols)
        return IndexModel(
            (rows, cols),
            size,
            1,
            (np.int64(rows), np.int64(cols), np.int64(size)),
            family_compiled.turtles_decode,
            family_compiled.turtles_encode,
            family_compiled.turtles_options,
            position,
            index,
            f"every set of heads of a {rows} x {cols} board",
        )

    def canonical(self, position: Heads) -> Heads:
        """The position or its transpose (the board's diagonal symmetry), whichever sorts first."""
        t = frozenset((b, a) for a, b in position)
        return position if sorted(position) <= sorted(t) else t

    def components(self, position: Heads) -> Sequence[tuple[Ruleset[Any], Any]] | None:
        if len(position) <= 1:
            return None
        return [(self, frozenset({h})) for h in sorted(position)]

    def closed_grundy(self, position: Heads) -> int:
        g = 0
        for a, b in position:
            g ^= nimmul(a, b)
        return g

    def parse_position(self, tokens: Sequence[str]) -> Heads:
        """Read heads written ``a,b`` (``1,1 2,3``); no tokens, or ``-``, is the all-tails board."""
        if list(tokens) == ["-"]:
            return frozenset()
        items = parse_group_tokens(tokens)
        for tok, item in zip(tokens, items, strict=True):
            if not isinstance(item, tuple) or len(item) != 2:
                raise InvalidPositionError(
                    f"turning-turtles: cannot read {tok!r} as a head; write heads as a,b "
                    "pairs like 1,1 2,3"
                )
        return self.validate(items)

    def format_position(self, position: Heads) -> str:
        """Heads as ``a,b`` pairs in sorted order, separated by spaces; ``-`` when all tails."""
        if not position:
            return "-"
        return " ".join(f"{a},{b}" for a, b in sorted(position))


@dataclass(frozen=True)
class WholeBoardTurningTurtles(TurningTurtles):
    """Turning Turtles searched as one game, without splitting into single heads.

    Not registered: theorem checks and tests use it to confirm by exhaustive search that
    a position is the sum of its heads.

    Examples
    --------
    >>> from nimlab import grundy
    >>> grundy(WholeBoardTurningTurtles(), [(2, 2), (2, 3)], method="search")
    2
    """

    def components(self, position: Heads) -> Sequence[tuple[Ruleset[Any], Any]] | None:
        return None
