"""Exact solvers by exhaustive search: memoised, iterative, no recursion limit.

One :class:`Solver` holds the memo tables for one ruleset. Searches use an explicit
stack, so a chain of 200000 positions is no problem, and they stop with
:class:`~nimlab.core.errors.SearchTooLargeError` once more than ``max_positions``
positions would be stored.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Generic, Literal, TypeVar

from nimlab.core.errors import (
    MoveSetTooLargeError,
    NimlabError,
    NoClosedFormError,
    SearchTooLargeError,
)
from nimlab.core.ruleset import Ruleset
from nimlab.formulas.nim import mex

__all__ = [
    "DEFAULT_CACHE_POSITIONS",
    "DEFAULT_MAX_MOVES",
    "DEFAULT_MAX_POSITIONS",
    "Method",
    "SearchCache",
    "Solver",
    "mex",
    "search_cache",
]

P = TypeVar("P", bound=Hashable)
Method = Literal["auto", "search", "formula"]
DEFAULT_MAX_POSITIONS = 5_000_000
# options listed by one search call: bounds the work (and time, about 1-2 µs each) of a
# search whose positions have very many moves, long before its memo fills up
DEFAULT_MAX_MOVES = 5_000_000
# positions kept between calls by the process-wide search cache (all games together); a
# stored position of a few small heaps takes about 150-250 bytes, so about 200-250 MB
DEFAULT_CACHE_POSITIONS = 1_000_000


def _count(n: int) -> str:
    """*n* with thousands separators, or its order of magnitude when it is huge."""
    return f"{n:,}" if n < 10**15 else f"10^{len(str(n)) - 1}"


def _shown(game: Ruleset[Any], position: Any) -> str:
    """The position as the command line writes it, cut to a readable length."""
    text = game.format_position(position)
    return text if len(text) <= 60 else text[:57] + "..."


class SearchMemo:
    """The memo tables of one game: Grundy values and outcomes (normal, misère).

    Entries are only ever added, never changed or removed, so searches of several
    threads may share one memo; a cache forgets a memo by dropping it as a whole.
    """

    __slots__ = ("grundy", "outcome")

    def __init__(self) -> None:
        self.grundy: dict[Any, int] = {}
        self.outcome: dict[bool, dict[Any, bool]] = {False: {}, True: {}}

    def size(self) -> int:
        """Number of stored positions (all tables together)."""
        return len(self.grundy) + len(self.outcome[False]) + len(self.outcome[True])


class SearchCache:
    """What exhaustive searches solved, kept between calls within a bound.

    ``nimlab.grundy`` and ``nimlab.outcome`` (and the winning-move scan) search through
    the process-wide cache (:func:`search_cache`), so that a loop over many positions of
    one game costs about one search of the largest of them. Each game (a ruleset, with
    its parameters) has one memo; after each call the least recently used memos are
    forgotten while more than *max_positions* positions are kept in all. A position
    already solved is answered from the cache without search (and so within any budget).

    Parameters
    ----------
    max_positions : int
        Bound of the positions kept between calls, all games together (about 150-250
        bytes each for positions of a few small heaps).

    Examples
    --------
    >>> from nimlab import game
    >>> cache = SearchCache(max_positions=1000)
    >>> s = Solver(game("subtraction", S={1, 2}), cache=cache)
    >>> s.grundy((30,), method="search")
    0
    >>> cache.positions()   # heaps 0 to 30
    31
    >>> Solver(game("subtraction", S={1, 2}), max_positions=5, cache=cache).grundy((29,), method="search")
    2
    >>> cache.clear(); cache.positions()
    0
    """

    def __init__(self, max_positions: int = DEFAULT_CACHE_POSITIONS) -> None:
        self.max_positions = max_positions
        self._memos: OrderedDict[Ruleset[Any], SearchMemo] = OrderedDict()
        self._lock = threading.Lock()

    def memo(self, game: Ruleset[Any]) -> SearchMemo:
        """The memo of *game* (a new one on first use), marked as recently used."""
        with self._lock:
            m = self._memos.get(game)
            if m is None:
                m = self._memos[game] = SearchMemo()
            self._memos.move_to_end(game)
            return m

    def positions(self) -> int:
        """Number of positions kept (all games)."""
        with self._lock:
            return sum(m.size() for m in self._memos.values())

    def trim(self) -> None:
        """Forget the least recently used memos while more positions are kept than the bound.

        A memo is dropped as a whole (never emptied in place), so a search still using it
        is not disturbed.
        """
        with self._lock:
            total = sum(m.size() for m in self._memos.values())
            while total > self.max_positions and self._memos:
                _, m = self._memos.popitem(last=False)
                total -= m.size()

    def clear(self) -> None:
        """Forget every memo."""
        with self._lock:
            self._memos.clear()


_CACHE = SearchCache()


def search_cache() -> SearchCache:
    """The process-wide :class:`SearchCache` of ``nimlab.grundy`` and ``nimlab.outcome``."""
    return _CACHE


class Solver(Generic[P]):
    """Memoised exact solver for one ruleset.

    Parameters
    ----------
    game : Ruleset
        The rules.
    max_positions : int
        Budget of stored positions per table; exceeding it raises SearchTooLargeError.
    max_moves : int
        Budget of options listed by one search call; exceeding it raises
        SearchTooLargeError (a position with a huge move set is refused quickly).
    cache : SearchCache, optional
        Keep the memo tables in *cache* (shared with other solvers of the same game, kept
        between calls) instead of in this solver alone. *max_positions* then bounds the
        positions this solver adds.

    Examples
    --------
    >>> from nimlab import game
    >>> s = Solver(game("subtraction", S={1, 2, 3}))
    >>> s.grundy((10,), method="search")
    2
    """

    def __init__(
        self,
        game: Ruleset[P],
        max_positions: int = DEFAULT_MAX_POSITIONS,
        max_moves: int = DEFAULT_MAX_MOVES,
        cache: SearchCache | None = None,
    ) -> None:
        self.game = game
        self.max_positions = max_positions
        self.max_moves = max_moves
        self.cache = cache
        self._moves_listed = 0
        memo = SearchMemo() if cache is None else cache.memo(game)
        self._grundy: dict[P, int] = memo.grundy
        self._outcome: dict[bool, dict[P, bool]] = memo.outcome
        # positions stored before this solver began: the budget counts only its own
        self._base_grundy = len(self._grundy)
        self._base_outcome = {k: len(v) for k, v in self._outcome.items()}
        self._sub: dict[Ruleset[Any], Solver[Any]] = {}

    # -- helpers ----------------------------------------------------------------
    def children(self, position: P) -> list[P]:
        """Distinct canonical options of *position*.

        The game's estimate of the number of moves, weighed by the length of the position
        (each option is a tuple as long), is checked against the moves budget first, so
        that a position with billions of options is refused before they are listed.
        """
        est = self.game.estimate_moves(position)
        # each option is a new position as long as this one: weigh the count by its length
        width = max(1, len(position)) if isinstance(position, tuple) else 1
        if est is not None and est * width + self._moves_listed > self.max_moves:
            if est * width > self.max_moves:
                what = f"{_shown(self.game, position)} has about {_count(est)} moves"
            else:  # this position is small: the search as a whole has listed too many
                what = (
                    f"the search has listed {self._moves_listed:,} moves (at "
                    f"{_shown(self.game, position)})"
                )
            raise MoveSetTooLargeError(
                f"{self.game.label()}: {what}, more than the search's budget of "
                f"{self.max_moves:,} moves listed; use a smaller position, a closed form "
                "(method='auto'), a table (nimlab.table), or raise max_moves"
            )
        canon = self.game.canonical
        try:
            return list(dict.fromkeys(canon(c) for c in self.game.moves(position)))
        except NimlabError:
            raise
        except Exception as exc:
            if type(self.game).__module__.startswith("nimlab."):
                raise  # a bug of nimlab's own games: an internal error, reported as such
            from nimlab.core.errors import GameDefinitionError

            raise GameDefinitionError(
                f"{self.game.label()}: its moves (or canonical form) raised "
                f"{type(exc).__name__}: {str(exc)[:300]} at {_shown(self.game, position)}; "
                "fix the game's definition"
            ) from None

    def _sub_solver(self, game: Ruleset[Any]) -> Solver[Any]:
        if game == self.game:
            return self
        s = self._sub.get(game)
        if s is None:
            s = self._sub[game] = Solver(game, self.max_positions, self.max_moves, self.cache)
        return s

    def _too_large(self, what: str) -> SearchTooLargeError:
        return SearchTooLargeError(
            f"{self.game.label()}: exhaustive {what} search would store more than "
            f"{self.max_positions:,} positions; use a smaller position, a closed form "
            "(method='auto'), or raise max_positions"
        )

    def _descend(
        self,
        stack: list[tuple[P, list[P], list[int]]],
        on_stack: set[P],
        child: P,
        stored: int,
        what: str,
    ) -> None:
        """Push *child* on the search path: refuse a loop and a search over the budget.

        Shared by the Grundy and outcome searches; *stored* is the size of their memo.
        """
        if child in on_stack:
            raise NimlabError(
                f"{self.game.label()}: the game is loopy at "
                f"{self.game.format_position(child)}; only short games can be solved"
            )
        if stored + len(stack) >= self.max_positions:
            raise self._too_large(what)
        kids = self.children(child)
        self._moves_listed += len(kids)
        if self._moves_listed > self.max_moves:
            raise SearchTooLargeError(
                f"{self.game.label()}: exhaustive {what} search listed more than "
                f"{self.max_moves:,} moves (positions here have very many options); use a "
                "smaller position, a closed form (method='auto'), a table "
                "(nimlab.table), or raise max_moves"
            )
        stack.append((child, kids, [0]))
        on_stack.add(child)

    # -- Grundy values ------------------------------------------------------------
    def grundy(self, position: P, method: Method = "auto") -> int:
        """Grundy value of a valid *position*."""
        if method != "search":
            g = self.game.closed_grundy(position)
            if g is not None:
                return g
            if method == "formula":
                raise NoClosedFormError(
                    f"{self.game.label()}: no proved closed form for the Grundy value of "
                    f"{self.game.format_position(position)}; use method='search'"
                )
        comps = self.game.components(position)
        if comps is not None and len(comps) != 1:
            total = 0
            for g_, p_ in comps:
                total ^= self._sub_solver(g_).grundy(p_, method)
            return total
        if comps is not None and comps[0][0] != self.game:
            g_, p_ = comps[0]
            return self._sub_solver(g_).grundy(p_, method)
        return self._search_grundy(self.game.canonical(position))

    def _search_grundy(self, root: P) -> int:
        memo = self._grundy
        if root in memo:
            return memo[root]
        self._moves_listed = 0
        stack: list[tuple[P, list[P], list[int]]] = [(root, self.children(root), [0])]
        on_stack = {root}
        while stack:
            pos, kids, idx = stack[-1]
            i = idx[0]
            n = len(kids)
            while i < n and kids[i] in memo:
                i += 1
            idx[0] = i
            if i < n:
                self._descend(stack, on_stack, kids[i], len(memo) - self._base_grundy, "Grundy")
                continue
            memo[pos] = mex(memo[k] for k in kids)
            stack.pop()
            on_stack.discard(pos)
        return memo[root]

    # -- outcomes ---------------------------------------------------------------
    def is_p(self, position: P, misere: bool = False, method: Method = "auto") -> bool:
        """Whether a valid *position* is a P-position (normal or misère play)."""
        if method != "search":
            closed = (
                self.game.closed_misere_is_p(position)
                if misere
                else self.game.closed_is_p(position)
            )
            if closed is not None:
                return closed
            if method == "formula":
                play = "misère" if misere else "normal"
                raise NoClosedFormError(
                    f"{self.game.label()}: no proved {play}-play criterion applies to "
                    f"{self.game.format_position(position)}; use method='search'"
                )
        if not misere:
            comps = self.game.components(position)
            if comps is not None and len(comps) != 1:
                return self.grundy(position, method) == 0
        return self._search_outcome(self.game.canonical(position), misere)

    def _search_outcome(self, root: P, misere: bool) -> bool:
        memo = self._outcome[misere]
        if root in memo:
            return memo[root]
        self._moves_listed = 0
        terminal_is_p = not misere
        stack: list[tuple[P, list[P], list[int]]] = [(root, self.children(root), [0])]
        on_stack = {root}
        while stack:
            pos, kids, idx = stack[-1]
            i = idx[0]
            n = len(kids)
            result: bool | None = None
            if n == 0:
                result = terminal_is_p
            else:
                while i < n:
                    k = kids[i]
                    v = memo.get(k)
                    if v is None:
                        break
                    if v:  # an option is P: this position is N
                        result = False
                        break
                    i += 1
                idx[0] = i
                if result is None and i == n:
                    result = True
            if result is not None:
                memo[pos] = result
                stack.pop()
                on_stack.discard(pos)
                continue
            stored = len(memo) - self._base_outcome[misere]
            self._descend(stack, on_stack, kids[i], stored, "outcome")
        return memo[root]

    def winning_moves(self, position: P, misere: bool = False, method: Method = "auto") -> list[P]:
        """Options of *position* that are P-positions, in move order, without repeats."""
        out: list[P] = []
        seen: set[P] = set()
        for child in self.game.moves(position):
            if child in seen:
                continue
            seen.add(child)
            if self.is_p(child, misere, method):
                out.append(child)
        return out
