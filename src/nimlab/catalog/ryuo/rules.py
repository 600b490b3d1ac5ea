"""Ryuo Nim, restricted Ryuo Nim and RGAMES: one-heap moves plus moves on the sum of heaps.

- ``ryuo``: Ryuo Nim(p) on two heaps: take any number from one heap, or a total ``t`` with
  ``1 ≤ t < p`` from the two heaps together, split between them in any way.
- ``restricted-ryuo``: restricted Ryuo Nim(p, q): as Ryuo Nim(p), but a move on one heap
  takes fewer than ``q`` stones (the sum-move is unchanged, as in [S18] Example 1).
- ``rgames``: RGAMES(G0; G1, …, Gm): heap ``i`` is played by the one-heap game ``Gi``, or
  ``G0`` is played on the sum of all heaps, the amount taken split between the heaps in any
  way. ``Gi`` and ``G0`` are Subtraction or All-but games (``nim`` is All-but(∅)).

Ryuo Nim(p) is RGAMES(Subtraction({1..p−1}); Nim, Nim) and restricted Ryuo Nim(p, q) is
RGAMES(Subtraction({1..p−1}); Subtraction({1..q−1}), Subtraction({1..q−1})).

References
----------
[S18] Definition 13 and Theorem 8 (``S18-T8``); Definition 14 and Theorem 9 (``S18-T9``);
Definition 15, Theorem 10, Example 2 and Theorem 12 (``S18-T12``); Definition 11 (inner
period).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from nimlab.catalog.nim import Nim
from nimlab.catalog.onepile import AllBut, OneHeapGame, Subtraction
from nimlab.catalog.registry import parse_game_spec, register
from nimlab.catalog.ryuo.formulas import restricted_ryuo_grundy, rgames_grundy, ryuo_grundy, splits
from nimlab.core.errors import InvalidParameterError, InvalidPositionError, NimlabError
from nimlab.core.kernels import LinesKernel, TableKernel, compositions
from nimlab.core.params import Param
from nimlab.core.ruleset import HeapRuleset, Ruleset, int_heaps
from nimlab.formulas.onepile import Periodicity, has_inner_period

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = [
    "RGames",
    "RestrictedRyuo",
    "Ryuo",
    "one_heap_game",
]

# Ryuo kernels list their sum-moves as about p^2/2 explicit vectors; beyond this p the
# tables use the generic search, which lists only the moves a position has.
MAX_KERNEL_P = 1024


def _positive_int(game: str, name: str, value: object, doc: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidParameterError(
            f"parameter {name} of {game} must be an integer >= 1 ({doc}), got {value!r} "
            f"(for example {name}=3)"
        )
    return value


class _SumMoveGame(HeapRuleset):
    """Two heaps with a sum-move that takes a total ``t < p`` (Ryuo Nim and its restriction)."""

    p: int
    n_heaps: ClassVar[int | None] = 2

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """Moves counted from the heaps."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        top = min(self.p, sum(heaps) + 1)  # a sum-move takes t < p stones, t <= x + y
        return sum(heaps) + top * (top + 1) // 2


@register
@dataclass(frozen=True)
class Ryuo(_SumMoveGame):
    """Ryuo Nim(p) ([S18] Definition 13); ``p = 3`` is the shogi Ryuo (promoted rook).

    Examples
    --------
    >>> from nimlab import grundy
    >>> grundy(Ryuo(3), (4, 5)), grundy(Ryuo(3), (4, 5), method="search")
    (0, 0)
    >>> sorted(set(Ryuo(3).moves((1, 1))))
    [(0, 0), (0, 1), (1, 0)]
    """

    p: int

    name = "ryuo"
    aliases = ("ryuo-nim", "ryuoh-nim", "generalized-ryuo")
    params = (Param("p", "the sum-move takes a total t with 1 <= t < p (p >= 1)"),)
    summary = "two heaps; take any from one heap, or fewer than p in total from both"
    theorems = ("S18-T8",)
    grundy_theorem = "S18-T8"
    p_theorem = "S18-T8"
    n_heaps: ClassVar[int | None] = 2

    def __post_init__(self) -> None:
        _positive_int(self.name, "p", self.p, "the sum-move takes fewer than p stones")

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.ryuo.strategy`."""
        from nimlab.catalog.ryuo.strategy import ryuo_strategy

        return ryuo_strategy(self, position, misere)

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        x, y = position
        for v in range(x):
            yield (v, y)
        for v in range(y):
            yield (x, v)
        for t in range(1, min(self.p, x + y + 1)):
            yield from splits(position, t)

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.ryuo import compiled as family_compiled

        return _compiled.compiled(("ryuo", self.p), lambda: family_compiled.ryuo(self.p, None))

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """Ryuo's scaling: the heaps divided by ``p`` play Nim, the remainder of the total adds.

        Examples
        --------
        >>> print(Ryuo(p=3).explain_notes((4, 7), None)[0])
        G(x, y) = p·(⌊x/p⌋ ⊕ ⌊y/p⌋) + ((x + y) mod p) [S18-T8]: 3·(⌊4/3⌋ ⊕ ⌊7/3⌋) + (11 mod 3) = 3·(1 ⊕ 2) + 2 = 11
        """
        return _scaling_notes(self.p, None, position, move, "S18-T8")

    def closed_grundy(self, position: tuple[int, ...]) -> int:
        x, y = position
        return ryuo_grundy(x, y, self.p)

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """Two lines of cofinite moves plus the sum-moves as explicit vectors."""
        if len(shape) != 2:
            return None
        if self.p > MAX_KERNEL_P:
            return None  # about p^2/2 move vectors: the generic search lists only those that fit
        offs = tuple(c for t in range(1, self.p) for c in compositions(t, 2))
        return LinesKernel((True, True), (0, 0), offs)


@register
@dataclass(frozen=True)
class RestrictedRyuo(_SumMoveGame):
    """Restricted Ryuo Nim(p, q) ([S18] Definition 14): one-heap moves take fewer than q.

    The closed form (S18-T9) is proved when ``p`` divides ``q``.

    Examples
    --------
    >>> from nimlab import grundy
    >>> g = RestrictedRyuo(3, 6)
    >>> grundy(g, (7, 2)), grundy(g, (7, 2), method="search")
    (0, 0)
    >>> RestrictedRyuo(2, 3).closed_grundy((1, 1)) is None
    True
    >>> RestrictedRyuo(3, 0)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: parameter q of restricted-ryuo must be an integer >= 1 (a one-heap move takes fewer than q stones), got 0 (for example q=3)
    """

    p: int
    q: int

    name = "restricted-ryuo"
    aliases = ("restricted-ryuo-nim",)
    params = (
        Param("p", "the sum-move takes a total t with 1 <= t < p (p >= 1)"),
        Param("q", "a one-heap move takes fewer than q stones (q >= 1)"),
    )
    summary = "two heaps; take fewer than q from one heap, or fewer than p in total from both"
    theorems = ("S18-T9",)
    grundy_theorem = "S18-T9"
    p_theorem = "S18-T9"
    n_heaps: ClassVar[int | None] = 2

    def __post_init__(self) -> None:
        _positive_int(self.name, "p", self.p, "the sum-move takes fewer than p stones")
        _positive_int(self.name, "q", self.q, "a one-heap move takes fewer than q stones")

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.ryuo.strategy`."""
        from nimlab.catalog.ryuo.strategy import restricted_ryuo_strategy

        return restricted_ryuo_strategy(self, position, misere)

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        x, y = position
        for t in range(1, min(self.q - 1, x) + 1):
            yield (x - t, y)
        for t in range(1, min(self.q - 1, y) + 1):
            yield (x, y - t)
        for t in range(1, min(self.p, x + y + 1)):
            yield from splits(position, t)

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.ryuo import compiled as family_compiled

        return _compiled.compiled(
            ("restricted-ryuo", self.p, self.q), lambda: family_compiled.ryuo(self.p, self.q)
        )

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """Ryuo's scaling after reducing each heap mod ``q`` (S18-T9, when ``p | q``).

        Examples
        --------
        >>> print(RestrictedRyuo(p=3, q=6).explain_notes((4, 7), None)[0])
        G(x, y) = p·(⌊(x mod q)/p⌋ ⊕ ⌊(y mod q)/p⌋) + ((x + y) mod p) [S18-T9]: 3·(⌊4/3⌋ ⊕ ⌊1/3⌋) + (11 mod 3) = 3·(1 ⊕ 0) + 2 = 5
        """
        if self.q % self.p:
            return []  # S18-T9 needs p | q: what the search knows is said instead
        return _scaling_notes(self.p, self.q, position, move, "S18-T9")

    def closed_grundy(self, position: tuple[int, ...]) -> int | None:
        if self.q % self.p:
            return None
        x, y = position
        return restricted_ryuo_grundy(x, y, self.p, self.q)

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """Every move as an explicit vector (no cofinite line)."""
        if len(shape) != 2:
            return None
        if self.p > MAX_KERNEL_P or self.q > MAX_KERNEL_P**2:
            return None  # too many move vectors: the generic search lists only those that fit
        offs = [c for t in range(1, self.p) for c in compositions(t, 2)]
        offs += [(s, 0) for s in range(1, self.q)] + [(0, s) for s in range(1, self.q)]
        return LinesKernel((False, False), (0, 0), tuple(sorted(set(offs))))


# -- RGAMES ---------------------------------------------------------------------------


def one_heap_game(name: str, value: object) -> OneHeapGame:
    """Check (or read, from ``subtraction:1,2,3`` / ``allbut:4,8`` / ``nim``) a one-heap game.

    ``nim`` (or a :class:`~nimlab.catalog.nim.Nim` ruleset) is All-but(∅).

    Examples
    --------
    >>> one_heap_game("g0", "subtraction:1,2,3").label()
    'subtraction(S={1,2,3})'
    >>> one_heap_game("parts", "nim").label()
    'allbut(S={})'
    >>> one_heap_game("parts", "wythoff")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: parameter parts: wythoff is not a one-heap game; write subtraction:1,2,3, allbut:4,8 or nim
    """
    g: object = value
    if isinstance(value, str):
        try:
            g = parse_game_spec(value.strip())
        except NimlabError as e:
            raise InvalidParameterError(
                f"parameter {name}: cannot read {value!r} as a one-heap game ({e}); "
                "write subtraction:1,2,3, allbut:4,8 or nim"
            ) from None
    if isinstance(g, Nim):
        return AllBut(frozenset())
    if (
        not isinstance(g, OneHeapGame)
        or type(g).take_amounts is OneHeapGame.take_amounts  # splits heaps, not a take game
    ):
        what = g.label() if isinstance(g, Ruleset) else repr(g)
        raise InvalidParameterError(
            f"parameter {name}: {what} is not a one-heap game; "
            "write subtraction:1,2,3, allbut:4,8 or nim"
        )
    return g


def _parse_parts(name: str, text: str) -> tuple[OneHeapGame, ...]:
    return _convert_parts(name, [t for t in text.split(";") if t.strip()])


def _convert_parts(name: str, value: object) -> tuple[OneHeapGame, ...]:
    if isinstance(value, str):
        return _parse_parts(name, value)
    if isinstance(value, Ruleset) or not isinstance(value, Sequence):
        raise InvalidParameterError(
            f"parameter {name} is a list of one-heap games, one per heap, got {value!r} "
            "(for example parts=allbut:8;allbut:4,8)"
        )
    parts = tuple(one_heap_game(name, v) for v in value)
    if not parts:
        raise InvalidParameterError(
            f"parameter {name} needs at least one one-heap game (one per heap), "
            "for example parts=allbut:8;allbut:4,8"
        )
    return parts


@functools.lru_cache(maxsize=256)
def _scaling_notes(
    p: int, q: int | None, position: tuple[int, ...], move: tuple[int, ...] | None, thm: str
) -> list[str]:
    """The terms of the Ryuo formula (S18-T8) or its restricted form (S18-T9)."""
    if not isinstance(position, tuple) or len(position) != 2:
        return []

    def value(pos: tuple[int, ...]) -> str:
        x, y = pos
        rx, ry = (x, y) if q is None else (x % q, y % q)
        g = p * ((rx // p) ^ (ry // p)) + (x + y) % p
        return (
            f"{p}·(⌊{rx}/{p}⌋ ⊕ ⌊{ry}/{p}⌋) + ({x + y} mod {p}) = "
            f"{p}·({rx // p} ⊕ {ry // p}) + {(x + y) % p} = {g}"
        )

    law = (
        "G(x, y) = p·(⌊x/p⌋ ⊕ ⌊y/p⌋) + ((x + y) mod p)"
        if q is None
        else "G(x, y) = p·(⌊(x mod q)/p⌋ ⊕ ⌊(y mod q)/p⌋) + ((x + y) mod p)"
    )
    out = [f"{law} [{thm}]: {value(position)}"]
    if move is not None and len(move) == 2:
        out.append(f"after the move: {value(move)}")
    return out


def _inner(g: OneHeapGame, p: int) -> Periodicity | None:
    per = g.exact_periodicity()
    return per if per is not None and has_inner_period(per, p) else None


@register
@dataclass(frozen=True)
class RGames(HeapRuleset):
    """RGAMES(G0; G1, …, Gm) ([S18] Definition 15 and Theorem 12); RGAME is ``m = 2``.

    Heaps are ordered (heap ``i`` belongs to ``Gi``) unless all parts are equal.
    Closed form (S18-T12) when ``G0 = Subtraction({1..p−1})`` and every ``Gi`` has inner
    period ``p``.

    Examples
    --------
    [S18] Example 2:

    >>> from nimlab import game, grundy
    >>> g = game("rgames", g0="subtraction:1,2,3", parts="allbut:8;allbut:4,8")
    >>> g.label()
    'rgames(g0=subtraction(S={1,2,3}), parts=(allbut(S={8}); allbut(S={4,8})))'
    >>> grundy(g, (9, 13)), grundy(g, (9, 13), method="search")
    (6, 6)
    >>> g.validate((1, 2, 3))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidPositionError: rgames: this game has 2 parts (one per heap), so a position has exactly 2 heaps, got 3
    """

    g0: OneHeapGame
    parts: tuple[OneHeapGame, ...]

    name = "rgames"
    aliases = ("rgame",)
    params = (
        Param(
            "g0",
            "the one-heap game played on the sum of all heaps (subtraction:1,2,3, allbut:4,8, nim)",
            parse=one_heap_game,
            convert=one_heap_game,
        ),
        Param(
            "parts",
            "one one-heap game per heap, separated by ';' (allbut:8;allbut:4,8)",
            parse=_parse_parts,
            convert=_convert_parts,
        ),
    )
    summary = (
        "heap i is played by its own one-heap game Gi, or G0 is played on the sum of "
        "all heaps (any split)"
    )
    theorems = ("S18-T12",)
    grundy_theorem = "S18-T12"
    p_theorem = "S18-T12"

    def __post_init__(self) -> None:
        object.__setattr__(self, "g0", one_heap_game("g0", self.g0))
        object.__setattr__(self, "parts", _convert_parts("parts", self.parts))

    def check(self, heaps: tuple[int, ...]) -> None:
        m = len(self.parts)
        if len(heaps) != m:
            raise InvalidPositionError(
                f"{self.name}: this game has {m} part{'s' if m != 1 else ''} (one per heap), "
                f"so a position has exactly {m} heap{'s' if m != 1 else ''}, got {len(heaps)}"
            )

    def heap_count(self) -> int:
        """One heap per part."""
        return len(self.parts)

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """Each part as a line of its heap; the G0 subtraction moves as explicit vectors."""
        dims = len(shape)
        if dims not in (2, 3) or dims != len(self.parts) or not isinstance(self.g0, Subtraction):
            return None
        cof: list[bool] = []
        lag: list[int] = []
        offs: set[tuple[int, ...]] = set()
        for i, part in enumerate(self.parts):
            model = part.sequence_kernel()
            line = None if model is None else model.axis(i, dims)
            if line is None:
                return None
            cof.append(line[0])
            lag.append(line[1])
            offs.update(line[2])
        for t in sorted(self.g0.S):
            offs.update(compositions(t, dims))
        return LinesKernel(tuple(cof), tuple(lag), tuple(sorted(offs)))

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`): each part and
        G0 as the line of its ``sequence_kernel`` (amounts, cofinite beyond a lag); None
        when a part has no such line."""
        lines = []
        for g in (*self.parts, self.g0):
            model = g.sequence_kernel()
            line = None if model is None else model.axis(0, 1)
            if line is None:
                return None
            lines.append((bool(line[0]), int(line[1]), tuple(int(v[0]) for v in line[2])))
        from nimlab.catalog import _compiled
        from nimlab.catalog.ryuo import compiled as family_compiled

        key = ("rgames", tuple(lines))
        return _compiled.compiled(key, lambda: family_compiled.rgames(tuple(lines[:-1]), lines[-1]))

    def canonical(self, position: tuple[int, ...]) -> tuple[int, ...]:
        """Sorted heaps when every heap has the same game, else the position itself."""
        if all(g == self.parts[0] for g in self.parts):
            return tuple(sorted(position))
        return position

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.ryuo.strategy`."""
        from nimlab.catalog.ryuo.strategy import rgames_strategy

        return rgames_strategy(self, position, misere)

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """Moves counted from the heaps (sum-moves: about 10 per pair)."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        return sum(heaps) + len(heaps) * 10 * 10

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for i, (h, g) in enumerate(zip(position, self.parts, strict=True)):
            for t in g.take_amounts(h):
                yield (*position[:i], h - t, *position[i + 1 :])
        for t in self.g0.take_amounts(sum(position)):
            yield from splits(position, t)

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """The S18-T12 formula: each heap's value in its own game, scaled by ``p``.

        Examples
        --------
        >>> from nimlab import game
        >>> g = game("rgames", g0="subtraction:1,2,3", parts="allbut:8;allbut:4,8")
        >>> print(g.explain_notes((5, 6), None)[0])
        G = p·(⌊G1(x1)/p⌋ ⊕ … ⊕ ⌊Gm(xm)/p⌋) + ((x1 + … + xm) mod p), p = 4 [S18-T12]: G1(5) = 5, G2(6) = 2; 4·(⌊5/4⌋ ⊕ ⌊2/4⌋) + (11 mod 4) = 4·(1 ⊕ 0) + 3 = 7
        """
        p = self.g0.sum_move_period()
        if p is None or not isinstance(position, tuple):
            return []
        pers = [_inner(g, p) for g in self.parts]
        if any(per is None for per in pers):
            return []

        def value(pos: tuple[int, ...]) -> str:
            vals = [per.grundy(h) for per, h in zip(pers, pos, strict=True) if per is not None]
            scaled = [v // p for v in vals]
            acc = 0
            for v in scaled:
                acc ^= v
            total = sum(pos)
            named = ", ".join(
                f"G{i + 1}({h}) = {v}" for i, (h, v) in enumerate(zip(pos, vals, strict=False))
            )
            return (
                f"{named}; {p}·("
                + " ⊕ ".join(f"⌊{v}/{p}⌋" for v in vals)
                + f") + ({total} mod {p}) = "
                f"{p}·(" + " ⊕ ".join(map(str, scaled)) + f") + {total % p} = "
                f"{p * acc + total % p}"
            )

        out = [
            "G = p·(⌊G1(x1)/p⌋ ⊕ … ⊕ ⌊Gm(xm)/p⌋) + ((x1 + … + xm) mod p), "
            f"p = {p} [S18-T12]: {value(position)}"
        ]
        if move is not None and len(move) == len(position):
            out.append(f"after the move: {value(move)}")
        return out

    def closed_grundy(self, position: tuple[int, ...]) -> int | None:
        p = self.g0.sum_move_period()
        if p is None:
            return None
        values: list[int] = []
        for h, g in zip(position, self.parts, strict=True):
            per = _inner(g, p)
            if per is None:
                return None
            values.append(per.grundy(h))
        return rgames_grundy(position, values, p)
