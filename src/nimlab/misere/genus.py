"""Conway's genus of impartial games in misère play, and what it predicts.

The *genus* of a game ``G`` is ``g^(γ0 γ1 γ2 …)``: ``g`` is the normal-play Grundy
value and ``γk`` the misère Grundy value of ``G + *2 + … + *2`` (k copies of ``*2``).
The superscript alternates with period 2 after finitely many terms, so it is written up
to there: Kayles' heap of 5 has genus ``4^146`` (``4^{1464646…}``). Following Winning
Ways and CGSuite, a nim heap is written with its size alone (``3``) and a tame or
restive game with ``γ0`` alone (``2^2``, ``1^2``), since the rest follows.

Genus theory (Conway, ONAG ch. 12) decides misère outcomes of sums of *tame* games
exactly as misère Nim does, with ``g^γ0`` in place of heap sizes; for other sums the
genus of the parts does not determine the outcome, and :func:`genus_outcome` says so.

References
----------
J. H. Conway, *On Numbers and Games*, 2nd ed., ch. 12. E. R. Berlekamp, J. H. Conway,
R. K. Guy, *Winning Ways*, 2nd ed., ch. 13.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from nimlab.core.errors import InvalidParameterError, SearchTooLargeError, WorkTooLargeError
from nimlab.core.results import Outcome
from nimlab.core.ruleset import Ruleset
from nimlab.misere.canonical import DEFAULT_MAX_FORMS, MisereUniverse, Phylum

#: Most positions on the path of one misère-form search (a longer path: the positions
#: grow without bound, or the position is far too large).
MAX_STACK = 2_000_000

__all__ = [
    "Genus",
    "GenusOutcome",
    "MisereForms",
    "genus",
    "genus_outcome",
    "genus_sequence",
    "misere_canonical_form",
]


@dataclass(frozen=True)
class Genus:
    """The genus ``g^(γ0 γ1 …)`` of a game, with the phylum of its canonical form.

    Attributes
    ----------
    g : int
        Normal-play Grundy value.
    gammas : tuple of int
        ``γ0 γ1 …`` up to where the sequence alternates with period 2 (length >= 2).
    phylum : Phylum
        Nim heap, tame, restive, tameable, restless or wild.

    Examples
    --------
    >>> from nimlab import game
    >>> kayles = game("octal", code="0.77")
    >>> str(genus(kayles, 5)), genus(kayles, 5).sequence(6)
    ('4^146', (1, 4, 6, 4, 6, 4))
    >>> g = genus(kayles, 3); str(g), g.phylum.kind, g.misere_value
    ('3', 'nim heap', 3)
    """

    g: int
    gammas: tuple[int, ...]
    phylum: Phylum

    @property
    def misere_value(self) -> int:
        """``γ0``, the misère Grundy value (0 exactly for misère P-positions)."""
        return self.gammas[0]

    @property
    def is_p(self) -> bool:
        """Whether the game alone is a misère P-position."""
        return self.gammas[0] == 0

    def gamma(self, k: int) -> int:
        """``γk`` for any ``k >= 0``."""
        n = len(self.gammas)
        if k < n:
            return self.gammas[k]
        return self.gammas[n - 2 + ((k - n) & 1)]

    def sequence(self, length: int) -> tuple[int, ...]:
        """The first *length* terms ``γ0 … γ(length-1)``."""
        return tuple(self.gamma(k) for k in range(length))

    @property
    def superscript(self) -> tuple[int, ...]:
        """The terms printed in the symbol (none for a nim heap)."""
        if self.phylum is Phylum.NIM_HEAP:
            return ()
        if self.phylum.is_tame or self.phylum.is_restive:
            return self.gammas[:1]
        return self.gammas

    def __str__(self) -> str:
        return _symbol(self.g, self.superscript)

    @property
    def full_symbol(self) -> str:
        """Winning Ways' symbol with the whole superscript, for example ``0^120`` for ``*0``.

        Examples
        --------
        >>> from nimlab import game
        >>> [genus(game("nim"), n).full_symbol for n in range(3)]
        ['0^120', '1^031', '2^20']
        """
        return _symbol(self.g, self.gammas)

    def latex(self) -> str:
        """The symbol in LaTeX, for example ``4^{146}``."""
        sup = self.superscript
        if not sup:
            return str(self.g)
        sep = "," if any(s >= 10 for s in sup) else ""
        return f"{self.g}^{{{sep.join(str(s) for s in sup)}}}"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "symbol": str(self),
            "g": self.g,
            "gammas": list(self.gammas),
            "misere_value": self.misere_value,
            "phylum": self.phylum.value,
            "kind": self.phylum.kind,
        }


def _symbol(g: int, sup: tuple[int, ...]) -> str:
    if not sup:
        return str(g)
    if any(s >= 10 for s in sup):
        return f"{g}^({','.join(str(s) for s in sup)})"
    return f"{g}^{''.join(str(s) for s in sup)}"


class MisereForms:
    """Misère canonical forms of positions of one ruleset (memoised, iterative).

    Positions that split into components (the ``components`` hook, for example the heaps
    of an octal game) are the sums of their components' forms.

    Examples
    --------
    >>> from nimlab import game
    >>> forms = MisereForms(game("octal", code="4!.0"))  # Grundy's game
    >>> forms.universe.text(forms.form((13,)))
    '*[2[2]21]'
    """

    def __init__(self, game: Ruleset[Any], universe: MisereUniverse | None = None) -> None:
        self.game = game
        self.universe = universe if universe is not None else MisereUniverse()
        self._memo: dict[tuple[Ruleset[Any], Hashable], int] = {}

    def form(self, position: Hashable, game: Ruleset[Any] | None = None) -> int:
        """The id of the misère canonical form of *position* (already validated)."""
        g0 = self.game if game is None else game
        u = self.universe
        root = (g0, g0.canonical(position))
        stack = [root]
        # nodes whose children were pushed: one seen again with a child still unsolved is
        # on a cycle of moves (in a short game its children are solved by then)
        expanded: set[tuple[Ruleset[Any], Hashable]] = set()
        # a node's pending children (a position or its components)
        while stack:
            node = stack[-1]
            if node in self._memo:
                stack.pop()
                continue
            if len(stack) > MAX_STACK:
                raise SearchTooLargeError(
                    f"{g0.label()}: the misère form of {g0.format_position(position)} needs "
                    f"more than {MAX_STACK:,} positions on the search's path (do the positions "
                    "grow without bound?); use a smaller position"
                )
            if len(stack) % 10_000 == 0:
                _check_growth(g0, root[1], node[1] if node[0] is g0 else None, len(stack))
            rules, pos = node
            comps = rules.components(pos)
            if comps is not None and len(comps) > 1:
                kids = [(r, r.canonical(p)) for r, p in comps]
                todo = [k for k in kids if k not in self._memo]
                if todo:
                    stack.extend(todo)
                    continue
                self._memo[node] = u.add_all(self._memo[k] for k in kids)
                stack.pop()
                continue
            kids = list(dict.fromkeys((rules, rules.canonical(c)) for c in rules.moves(pos)))
            todo = [k for k in kids if k not in self._memo]
            if todo:
                if node in expanded:
                    from nimlab.engine.search import find_cycle, loopy_error

                    raise loopy_error(rules, find_cycle(rules, pos))
                expanded.add(node)
                stack.extend(todo)
                continue
            self._memo[node] = u.make(self._memo[k] for k in kids)
            stack.pop()
        return self._memo[root]

    def genus_of(self, x: int) -> Genus:
        """The :class:`Genus` of the canonical form *x*."""
        u = self.universe
        return Genus(u.grundy(x), u.gammas(x), u.phylum(x))


def _check_growth(game: Ruleset[Any], root: Hashable, now: Hashable, depth: int) -> None:
    """Refuse a search whose heaps total at least the root's plus *depth*/2 (positions
    that grow without bound)."""
    a, b = _heaps_in(root), _heaps_in(now)
    if not b or sum(b) < sum(a) + depth // 2:
        return
    raise SearchTooLargeError(
        f"{game.label()}: the positions grow without bound: from "
        f"{game.format_position(root)[:40]} the search reached {game.format_position(now)[:40]} "
        f"({depth:,} positions pending); only short games (every play ends) can be solved"
    )


def _resolve(game: Ruleset[Any] | str) -> Ruleset[Any]:
    from nimlab.catalog.registry import as_game

    return as_game(game)


def misere_canonical_form(
    game: Ruleset[Any] | str, position: object, *, max_forms: int = DEFAULT_MAX_FORMS
) -> str:
    """The printed misère canonical form of a position.

    Examples
    --------
    >>> from nimlab import game
    >>> misere_canonical_form(game("nim"), (2, 2))
    '*[2[2]]'
    >>> misere_canonical_form(game("nim"), (1, 1))
    '*[0]'
    """
    g = _resolve(game)
    forms = MisereForms(g, MisereUniverse(max_forms))
    return forms.universe.text(forms.form(g.validate(position)))


#: Largest heap whose genus is computed unless the caller raises ``max_heap``: the work
#: grows steeply with the heap (Kayles: heaps 0..29 in 0.3 s, 0..49 in about 8 s).
DEFAULT_MAX_HEAP = 40


def _heaps_in(position: object) -> list[int]:
    if isinstance(position, bool):
        return []
    if isinstance(position, int):
        return [position]
    if isinstance(position, (tuple, list, frozenset, set)):
        return [h for x in position for h in _heaps_in(x)]
    return []


def _check_heap_budget(largest: int, max_heap: int, what: str) -> None:
    if not isinstance(max_heap, int) or isinstance(max_heap, bool) or max_heap < 0:
        raise InvalidParameterError(f"max_heap must be an integer >= 0, got {max_heap!r}")
    if largest > max_heap:
        raise WorkTooLargeError(
            f"genus of {what}: heap {largest:,} is beyond the budget of heaps <= {max_heap:,} "
            "(the work grows steeply with the heap: Kayles' heaps up to 49 take about 8 s); "
            "raise it with max_heap= (CLI: --max-heap N)"
        )


def genus(
    game: Ruleset[Any] | str,
    position: object,
    *,
    max_forms: int = DEFAULT_MAX_FORMS,
    max_heap: int = DEFAULT_MAX_HEAP,
) -> Genus:
    """The genus of a position (of the whole position, a sum when it has several heaps).

    Parameters
    ----------
    game : Ruleset or str
        The rules (or a registry name).
    position : object
        A position of the game (a heap size for one-heap games).
    max_forms : int
        Budget of distinct canonical forms (SearchTooLargeError beyond it).
    max_heap : int
        Largest heap computed (WorkTooLargeError, before any work, beyond it).

    Examples
    --------
    >>> from nimlab import game
    >>> [str(genus(game("nim"), n)) for n in range(4)]
    ['0', '1', '2', '3']
    >>> str(genus(game("nim"), (2, 2))), genus(game("nim"), (2, 2)).phylum.kind
    ('0^0', 'tame')
    """
    g = _resolve(game)
    pos = g.validate(position)
    _check_heap_budget(max(_heaps_in(pos), default=0), max_heap, g.format_position(pos))
    forms = MisereForms(g, MisereUniverse(max_forms))
    return forms.genus_of(forms.form(pos))


def genus_sequence(
    game: Ruleset[Any] | str,
    n: int,
    *,
    max_forms: int = DEFAULT_MAX_FORMS,
    max_heap: int = DEFAULT_MAX_HEAP,
) -> list[Genus]:
    """Genera of the one-heap positions ``0, 1, …, n-1`` of a heap game.

    Examples
    --------
    >>> from nimlab import game
    >>> " ".join(str(x) for x in genus_sequence(game("octal", code="0.77"), 12))
    '0 1 2 3 1 4^146 3 2^2 1^1 4^046 2^2 6^46'
    """
    g = _resolve(game)
    if not isinstance(n, int) or n < 0:
        raise InvalidParameterError(f"the number of heaps must be an integer >= 0, got {n!r}")
    _check_heap_budget(n - 1, max_heap, f"heaps 0..{n - 1:,}")
    forms = MisereForms(g, MisereUniverse(max_forms))
    return [forms.genus_of(forms.form(g.validate((h,)))) for h in range(n)]


@dataclass(frozen=True)
class GenusOutcome:
    """What genus theory says about the misère outcome of a sum.

    ``outcome`` is None when the genera of the parts do not determine it; ``reason``
    says which rule applied or why none did.
    """

    outcome: Outcome | None
    reason: str
    parts: tuple[Genus, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "outcome": None if self.outcome is None else self.outcome.value,
            "reason": self.reason,
            "parts": [str(p) for p in self.parts],
        }


def genus_outcome(parts: list[Genus]) -> GenusOutcome:
    """The misère outcome of a sum from its parts' genera, where genus theory decides it.

    A single game is P exactly when ``γ0 = 0``. A sum of tame games plays like misère
    Nim (ONAG ch. 12): when every part is ``0^1`` or ``1^0`` (behaves like ``0`` or
    ``*1``) the sum is P iff the nim-sum of the ``g`` is 1, otherwise iff it is 0. Other
    sums (a restive, restless or wild part) are not decided by the genera alone.

    Examples
    --------
    >>> from nimlab import game
    >>> kayles = game("octal", code="0.77")
    >>> genus_outcome([genus(kayles, 2), genus(kayles, 7), genus(kayles, 8)]).outcome
    <Outcome.N: 'N'>
    >>> genus_outcome([genus(kayles, 5), genus(kayles, 1)]).outcome is None
    True
    """
    ps = tuple(parts)
    if len(ps) == 1:
        return GenusOutcome(Outcome.from_bool(ps[0].is_p), "one game: P iff γ0 = 0", ps)
    if not ps:
        return GenusOutcome(Outcome.N, "the empty sum has no move: N in misère play", ps)
    untamed = [str(p) for p in ps if not p.phylum.is_tame]
    if untamed:
        return GenusOutcome(
            None,
            "genus theory decides sums of tame games only; not tame: " + ", ".join(untamed),
            ps,
        )
    x = 0
    for p in ps:
        x ^= p.g
    fickle = all(p.gammas[0] != p.g for p in ps)
    if fickle:
        return GenusOutcome(
            Outcome.from_bool(x == 1),
            "tame sum, every part like 0 or *1: P iff the nim-sum of g is 1",
            ps,
        )
    return GenusOutcome(
        Outcome.from_bool(x == 0), "tame sum with a firm part: P iff the nim-sum of g is 0", ps
    )
