"""One-heap games: Subtraction(S) and All-but(S).

References
----------
[S18] §2: Subtraction(S) takes ``s ∈ S``; All-but(S) takes any ``s ≥ 1`` with ``s ∉ S``.
Siegel's Theorem 11 / Corollary 1 (``S18-T11``) gives All-but({k}) and All-but({k, m}).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from nimlab.catalog.registry import register
from nimlab.core.errors import InvalidParameterError, SearchTooLargeError
from nimlab.core.kernels import AllButKernel, OneHeapKernel, SubtractionKernel
from nimlab.core.params import Param, parse_int_set, to_int_set
from nimlab.core.ruleset import HeapRuleset, int_heaps
from nimlab.formulas.onepile import (
    Periodicity,
    allbut_periodicity,
    allbut_periodicity_proof,
    periodic_reason,
    siegel_allbut_grundy,
    subtraction_periodicity,
    subtraction_periodicity_proof,
)

if TYPE_CHECKING:
    from nimlab.core.strategy import Construction

__all__ = ["AllBut", "OneHeapGame", "Subtraction"]


class OneHeapGame(HeapRuleset):
    """A game played on a single heap, described by the amounts a move may take."""

    n_heaps: ClassVar[int | None] = 1
    #: True when the parameter ``S`` lists the amounts a move takes (so a heap has at most
    #: ``len(S)`` moves), False when it lists the amounts a move may not take.
    takes_listed: ClassVar[bool] = False
    if TYPE_CHECKING:
        #: The amounts of the rule (a dataclass field of every concrete one-heap game).
        S: frozenset[int]

    def exact_periodicity(self) -> Periodicity | None:
        """The exact (arithmetic-)periodicity of the Grundy sequence; None when unknown."""
        return None

    def sum_move_period(self) -> int | None:
        """``p`` when this game is Subtraction({1, …, p − 1}), the ``G0`` of S18-T12's
        hypothesis (a sum-move takes fewer than ``p`` stones); else None."""
        return None

    def take_amounts(self, n: int) -> Iterable[int]:
        """The amounts ``s`` (``1 ≤ s ≤ n``) a move may take from a heap of *n*."""
        raise NotImplementedError

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        (n,) = position
        for s in self.take_amounts(n):
            yield (n - s,)

    def spec(self) -> str:
        """The command-line spelling of this game, such as ``subtraction:1,2,3``."""
        raise NotImplementedError

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """The Grundy value of the heap read from the sequence's period (which residue),
        and the value the move reaches.

        Examples
        --------
        >>> from nimlab import game
        >>> game("subtraction", S="1,3,4").explain_notes((10,), (9,))[1]
        'the move 10 → 9 leads to G(9) = G(2) = 0: a P-position'
        """
        per = self.exact_periodicity()
        if per is None or not isinstance(position, tuple) or len(position) != 1:
            return []
        (n,) = position
        out = [f"the Grundy sequence of {self.label()} is periodic: {periodic_reason(per, n)}"]
        if move is not None and len(move) == 1:
            (m,) = move
            g = per.grundy(m)
            how = ""
            if m >= per.preperiod + per.period and per.saltus == 0:
                how = f" = G({per.preperiod + (m - per.preperiod) % per.period})"
            out.append(
                f"the move {n} → {m} leads to G({m}){how} = {g}"
                + (": a P-position" if g == 0 else "")
            )
        return out


def _positive_set(name: str, value: object) -> frozenset[int]:
    s = to_int_set(name, value)
    bad = sorted(x for x in s if x <= 0)
    if bad:
        raise InvalidParameterError(
            f"parameter {name} must contain positive integers only, got {bad[0]} "
            "(a move must take at least one stone)"
        )
    return s


@functools.lru_cache(maxsize=256)
def _exact(
    periodicity: Callable[[frozenset[int]], Periodicity], S: frozenset[int]
) -> Periodicity | None:
    try:
        return periodicity(S)
    except SearchTooLargeError:
        return None


@register
@dataclass(frozen=True)
class Subtraction(OneHeapGame):
    """Subtraction(S): take ``s`` stones for some ``s ∈ S``.

    Examples
    --------
    >>> from nimlab import grundy
    >>> [grundy(Subtraction(frozenset({1, 2})), n) for n in range(6)]
    [0, 1, 2, 0, 1, 2]
    >>> Subtraction(frozenset({0, 1}))
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: parameter S must contain positive integers only, got 0 (a move must take at least one stone)
    """

    S: frozenset[int] = field(default_factory=frozenset)

    name = "subtraction"
    aliases = ("sub", "subtraction-game")
    params = (
        Param(
            "S",
            "the subtraction set S: finite set of positive integers",
            parse=parse_int_set,
            convert=_positive_set,
        ),
    )
    summary = "one heap; take s stones for some s in S"
    theorems = ("S18-T12",)
    takes_listed = True

    def __post_init__(self) -> None:
        s = _positive_set("S", self.S)
        if not s:
            raise InvalidParameterError(
                "parameter S of subtraction must not be empty (for example S=1,2,3)"
            )
        object.__setattr__(self, "S", s)

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.onepile import compiled as family_compiled

        return _compiled.compiled(
            ("subtraction", self.S), lambda: family_compiled.subtraction(tuple(self.S))
        )

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.onepile.strategy`."""
        from nimlab.catalog.onepile.strategy import onepile_strategy

        return onepile_strategy(self, position, misere)

    def estimate_moves(self, position: tuple[int, ...]) -> int | None:
        """At most one move per element of S."""
        heaps = int_heaps(position)
        if heaps is None:
            return None
        return len(self.S)

    def take_amounts(self, n: int) -> Iterable[int]:
        return (s for s in sorted(self.S) if s <= n)

    def exact_periodicity(self) -> Periodicity | None:
        """The subtraction periodicity (None when it is not found within the search bound).

        Examples
        --------
        >>> Subtraction(frozenset({1, 2, 3})).exact_periodicity().period
        4
        """
        return _exact(subtraction_periodicity, self.S)

    def sum_move_period(self) -> int | None:
        """``max(S) + 1`` when ``S = {1, …, max(S)}``.

        Examples
        --------
        >>> Subtraction(frozenset({1, 2, 3})).sum_move_period(), Subtraction(frozenset({1, 3})).sum_move_period()
        (4, None)
        """
        if frozenset(range(1, max(self.S) + 1)) == self.S:
            return max(self.S) + 1
        return None

    def sequence_kernel(self) -> OneHeapKernel:
        """Subtraction recurrence over the sorted set S."""
        return SubtractionKernel(tuple(sorted(self.S)))

    def periodicity_proof(
        self, values: Sequence[int], preperiod: int, period: int, saltus: int
    ) -> tuple[bool, str, int]:
        """The subtraction periodicity theorem."""
        return subtraction_periodicity_proof(len(values), preperiod, period, saltus, self.S)

    def spec(self) -> str:
        return "subtraction:" + ",".join(str(s) for s in sorted(self.S))


@register
@dataclass(frozen=True)
class AllBut(OneHeapGame):
    """All-but(S): take any ``s ≥ 1`` stones with ``s ∉ S``.

    All-but(∅) is one-heap Nim. Siegel's forms (S18-T11) give the Grundy values of
    All-but({k}) and All-but({k, m}).

    Examples
    --------
    >>> from nimlab import grundy
    >>> [grundy(AllBut(frozenset({2})), n) for n in range(8)]
    [0, 1, 0, 1, 2, 3, 2, 3]
    """

    S: frozenset[int] = field(default_factory=frozenset)

    name = "allbut"
    aliases = ("all-but", "all-but-subtraction")
    params = (
        Param(
            "S",
            "the excluded set S: finite set of positive integers (may be empty)",
            parse=parse_int_set,
            convert=_positive_set,
            default=frozenset(),
        ),
    )
    summary = "one heap; take any s >= 1 stones with s not in S"
    theorems = ("S18-T11",)
    grundy_theorem = "S18-T11"

    def __post_init__(self) -> None:
        object.__setattr__(self, "S", _positive_set("S", self.S))

    def compiled_options(self) -> Any:
        """Compiled move model (see :meth:`HeapRuleset.compiled_options`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.onepile import compiled as family_compiled

        return _compiled.compiled(("allbut", self.S), lambda: family_compiled.allbut(tuple(self.S)))

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        """The construction of :mod:`nimlab.catalog.onepile.strategy`."""
        from nimlab.catalog.onepile.strategy import onepile_strategy

        return onepile_strategy(self, position, misere)

    def take_amounts(self, n: int) -> Iterable[int]:
        return (s for s in range(1, n + 1) if s not in self.S)

    def exact_periodicity(self) -> Periodicity | None:
        """The arithmetic periodicity of All-but(S).

        Examples
        --------
        >>> AllBut(frozenset({4, 8})).exact_periodicity()
        Periodicity(preperiod=0, period=12, saltus=4, values=(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3))
        """
        return _exact(allbut_periodicity, self.S)

    def sequence_kernel(self) -> OneHeapKernel:
        """All-but recurrence (a line with lag max(S))."""
        return AllButKernel(tuple(sorted(self.S)))

    def periodicity_proof(
        self, values: Sequence[int], preperiod: int, period: int, saltus: int
    ) -> tuple[bool, str, int]:
        """The all-but induction (arithmetic periodicity)."""
        return allbut_periodicity_proof(values, preperiod, period, saltus, self.S)

    def closed_grundy(self, position: tuple[int, ...]) -> int | None:
        return siegel_allbut_grundy(position[0], self.S)

    def spec(self) -> str:
        return "allbut:" + ",".join(str(s) for s in sorted(self.S))
