"""Multiplayer play with preferences: who moves last when m players take turns.

Players are numbered ``0..m-1`` in turn order; after player ``A`` moves, ``N(A) = A+1
(mod m)`` is to move, and ``P(A) = A-1 (mod m)`` is the player who moved just before.
Each player has a *preference*: a total order on all players, most wanted last mover
first. A :class:`PreferenceProfile` gives one preference per player.

Following [SM] Definition 4.1, the last mover ``W(G, A)`` of a position ``G`` with ``A``
to move is

1. ``P(A)`` if ``G`` is terminal (no move is left: the previous player moved last);
2. otherwise ``W(G', N(A))`` for the option ``G'`` that makes it greatest in ``A``'s
   order (A plays so that the player it prefers most, among those it can bring about,
   moves last).

Orders are total, so the *value* ``W(G, A)`` is unique, but several options may achieve
it: :func:`multiplayer_moves` returns them all.

A profile is *symmetric* ([SM] Definition 4.2) when every player ranks the others by
their distance in turn order in the same way; ``GAMEs(k1, ..., km)`` is the symmetric
profile where each player ``A`` prefers ``N^{k1}(A)`` most, then ``N^{k2}(A)``, and so on
(:func:`games_profile`). Then the last mover is ``N^i(A)`` for an ``i`` that depends on
the position only: the position is an *i-position* (:func:`i_position`).
``GAMEs(0, 1, ..., m-1)`` is Li's ranking ([SM] Thm 4.1, :func:`li_ranking`); with two
players ``GAMEs(0, 1)`` is normal play and ``GAMEs(1, 0)`` is misère play
(:func:`misere_profile`).

References
----------
[SM] Suetsugu, *The normal play and the misère play of multiplayer NIM with
preference*, §3–§5 (``SM-T3.1``, ``SM-T4.2``, ``SM-T4.3``, ``SM-E5``).
[N99] Naito, 1999 public lecture, §3 (``N99-T3.3``): m-player Nim_K under Li's ranking.

Examples
--------
>>> from nimlab import game, games_profile, i_position, last_mover
>>> i_position("nim", (2, 2, 2), preference=games_profile(0, 1, 2))
2
>>> last_mover("nim", (1, 2), players=3, to_move=1)
2
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, TypeAlias, TypeVar

from nimlab.core.errors import (
    InvalidParameterError,
    MoveSetTooLargeError,
    SearchTooLargeError,
)
from nimlab.core.ruleset import Ruleset

__all__ = [
    "MultiplayerChoice",
    "MultiplayerSolver",
    "Preference",
    "PreferenceProfile",
    "as_profile",
    "games_profile",
    "i_position",
    "last_mover",
    "li_ranking",
    "misere_profile",
    "multiplayer_choice",
    "multiplayer_moves",
    "symmetric_profiles",
]

P = TypeVar("P", bound=Hashable)

#: One player's preference: every player, most wanted last mover first.
Preference: TypeAlias = tuple[int, ...]

DEFAULT_MAX_POSITIONS = 5_000_000
# options listed by a solver (moves cost more here than in nimlab.engine.search: ~3 µs)
DEFAULT_MAX_MOVES = 1_000_000
# players of a profile: each player's order has m entries (m^2 numbers in all)
MAX_PLAYERS = 1000


def _to_player(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidParameterError(f"{what} must be a player number (an integer), got {value!r}")
    if what == "players" and value > MAX_PLAYERS:
        raise InvalidParameterError(
            f"multiplayer play takes at most {MAX_PLAYERS:,} players, got {value:,}"
        )
    return value


def _check_permutation(order: Sequence[int], m: int, what: str) -> None:
    if sorted(order) != list(range(m)):
        missing = sorted(set(range(m)) - set(order))
        dup = sorted({x for x in order if list(order).count(x) > 1})
        extra = sorted(x for x in set(order) if not 0 <= x < m)
        why = []
        if extra:
            why.append(f"{', '.join(map(str, extra))} not a player of 0..{m - 1}")
        if dup:
            why.append(f"{', '.join(map(str, dup))} repeated")
        if missing:
            why.append(f"{', '.join(map(str, missing))} missing")
        raise InvalidParameterError(
            f"{what} must list each of the players 0..{m - 1} exactly once, got "
            f"{','.join(map(str, order))} ({'; '.join(why)})"
        )


@dataclass(frozen=True)
class PreferenceProfile:
    """Each player's total order on all players, most wanted last mover first.

    Parameters
    ----------
    orders : sequence of sequences of int
        ``orders[A]`` lists every player ``0..m-1`` once, the one ``A`` most wants to
        move last first. ``m = len(orders) >= 2``.

    Examples
    --------
    >>> p = PreferenceProfile([[0, 1, 2], [1, 2, 0], [2, 0, 1]])
    >>> p.players, p.is_symmetric, p.offsets
    (3, True, (0, 1, 2))
    >>> print(p)
    GAMEs(0,1,2)
    >>> p.rank(1, 0)   # player 1 ranks player 0 last of three
    2
    >>> q = PreferenceProfile([[0, 1, 2], [1, 0, 2], [2, 0, 1]])
    >>> q.is_symmetric, q.offsets
    (False, None)
    >>> print(q)
    profile 0,1,2;1,0,2;2,0,1
    >>> PreferenceProfile([[0, 1], [1, 1]])
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: the preference of player 1 must list each of the players 0..1 exactly once, got 1,1 (1 repeated; 0 missing)
    """

    orders: tuple[Preference, ...] = field()

    def __post_init__(self) -> None:
        raw = self.orders
        if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
            raise InvalidParameterError(
                "a preference profile is one order per player, for example "
                "[[0, 1, 2], [1, 2, 0], [2, 0, 1]]"
            )
        m = len(raw)
        if m < 2:
            raise InvalidParameterError(
                f"a preference profile needs at least 2 players, got {m} "
                "(one order per player, for example [[0, 1], [1, 0]])"
            )
        orders: list[Preference] = []
        for a, order in enumerate(raw):
            what = f"the preference of player {a}"
            if isinstance(order, (str, bytes)) or not isinstance(order, Sequence):
                raise InvalidParameterError(
                    f"{what} must be a list of player numbers, got {order!r}"
                )
            tup = tuple(_to_player(x, f"an entry of {what}") for x in order)
            if len(tup) != m:
                raise InvalidParameterError(
                    f"{what} must order all {m} players 0..{m - 1}, got {len(tup)} "
                    f"({','.join(map(str, tup))})"
                )
            _check_permutation(tup, m, what)
            orders.append(tup)
        object.__setattr__(self, "orders", tuple(orders))

    # -- structure ---------------------------------------------------------------
    @property
    def players(self) -> int:
        """The number of players m."""
        return len(self.orders)

    @cached_property
    def ranks(self) -> tuple[tuple[int, ...], ...]:
        """``ranks[A][X]``: position of X in A's order (0 = most wanted)."""
        out = []
        for order in self.orders:
            r = [0] * len(order)
            for pos, x in enumerate(order):
                r[x] = pos
            out.append(tuple(r))
        return tuple(out)

    def rank(self, player: int, candidate: int) -> int:
        """Where *player* ranks *candidate* as last mover (0 = most wanted)."""
        return self.ranks[player][candidate]

    def most_wanted(self, player: int) -> int:
        """The player *player* most wants to move last."""
        return self.orders[player][0]

    @cached_property
    def offsets(self) -> tuple[int, ...] | None:
        """The k-list of ``GAMEs(k1, ..., km)`` when the profile is symmetric, else None."""
        m = self.players
        ks = tuple(self.orders[0])
        for a, order in enumerate(self.orders):
            if any(order[j] != (ks[j] + a) % m for j in range(m)):
                return None
        return ks

    @property
    def is_symmetric(self) -> bool:
        """Whether the profile is symmetric ([SM] Definition 4.2)."""
        return self.offsets is not None

    # -- text ----------------------------------------------------------------------
    def to_text(self) -> str:
        """The command-line spelling: ``--profile`` text ``0,1,2;1,2,0;2,0,1``."""
        return ";".join(",".join(map(str, o)) for o in self.orders)

    def label(self) -> str:
        """``GAMEs(k1,...,km)`` for symmetric profiles, else ``profile <text>``."""
        ks = self.offsets
        if ks is not None:
            return "GAMEs(" + ",".join(map(str, ks)) + ")"
        return "profile " + self.to_text()

    def __str__(self) -> str:
        return self.label()

    @classmethod
    def of(cls, preference: object = None, players: int | None = None) -> PreferenceProfile:
        """Build a profile from anything :func:`as_profile` accepts (None: Li's ranking).

        Examples
        --------
        >>> print(PreferenceProfile.of(None, 3))
        GAMEs(0,1,2)
        """
        return as_profile(preference, players)

    @classmethod
    def parse(cls, text: str, players: int | None = None) -> PreferenceProfile:
        """Read a profile: a symmetric k-list ``1,2,0`` or full orders ``0,1,2;1,2,0;2,0,1``.

        Examples
        --------
        >>> print(PreferenceProfile.parse("1,2,0"))
        GAMEs(1,2,0)
        >>> PreferenceProfile.parse("0,1,2;1,2,0;2,0,1").offsets
        (0, 1, 2)
        >>> PreferenceProfile.parse("0,x")
        Traceback (most recent call last):
        ...
        nimlab.core.errors.InvalidParameterError: cannot read preference '0,x': write player numbers separated by commas, for example 1,2,0 (symmetric GAMEs) or 0,1,2;1,2,0;2,0,1 (one order per player)
        """
        try:
            rows = [
                [int(x) for x in part.replace(" ", "").split(",") if x != ""]
                for part in text.strip().strip(";").split(";")
            ]
        except ValueError:
            raise InvalidParameterError(
                f"cannot read preference {text!r}: write player numbers separated by commas, "
                "for example 1,2,0 (symmetric GAMEs) or 0,1,2;1,2,0;2,0,1 (one order per player)"
            ) from None
        prof = games_profile(*rows[0]) if len(rows) == 1 else cls(tuple(map(tuple, rows)))
        _check_players(prof, players)
        return prof


def _check_players(prof: PreferenceProfile, players: int | None) -> None:
    if players is not None and players != prof.players:
        raise InvalidParameterError(
            f"the preference {prof.label()} is for {prof.players} players, but players={players}; "
            "give one entry per player"
        )


def games_profile(*ks: int) -> PreferenceProfile:
    """The symmetric profile ``GAMEs(k1, ..., km)`` of [SM] Definition 4.2.

    Every player ``A`` prefers ``N^{k1}(A)`` (the player ``k1`` turns after A) most as
    last mover, then ``N^{k2}(A)``, and so on.

    Examples
    --------
    >>> games_profile(0, 1, 2).orders
    ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    >>> games_profile(1, 0).orders
    ((1, 0), (0, 1))
    >>> games_profile(0, 2, 2)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: GAMEs(k1,...,km) must list each of the players 0..2 exactly once, got 0,2,2 (2 repeated; 1 missing)
    """
    if len(ks) == 1 and isinstance(ks[0], Sequence):
        ks = tuple(ks[0])
    m = len(ks)
    if m < 2:
        raise InvalidParameterError(
            f"GAMEs(k1,...,km) needs at least 2 players, got {m} (for example GAMEs(1,2,0))"
        )
    vals = tuple(_to_player(k, "an entry of GAMEs(k1,...,km)") for k in ks)
    _check_permutation(vals, m, "GAMEs(k1,...,km)")
    return PreferenceProfile(tuple(tuple((a + k) % m for k in vals) for a in range(m)))


def li_ranking(players: int) -> PreferenceProfile:
    """Li's ranking for *players* players: ``GAMEs(0, 1, ..., m-1)`` ([SM] Thm 4.1).

    Each player wants to move last itself, else the next player, and so on (the last
    mover ranks 1st, the one before 2nd, ...). With 2 players this is normal play.

    Examples
    --------
    >>> print(li_ranking(4))
    GAMEs(0,1,2,3)
    """
    m = _to_player(players, "players")
    if m < 2:
        raise InvalidParameterError(f"multiplayer play needs players >= 2, got {m}")
    return games_profile(*range(m))


def misere_profile() -> PreferenceProfile:
    """Misère play as a preference: ``GAMEs(1, 0)`` (each wants the other to move last).

    Examples
    --------
    >>> misere_profile().orders
    ((1, 0), (0, 1))
    """
    return games_profile(1, 0)


def symmetric_profiles(players: int) -> Iterator[PreferenceProfile]:
    """Every symmetric profile ``GAMEs(k1, ..., km)`` for *players* players (m! of them).

    Examples
    --------
    >>> [str(p) for p in symmetric_profiles(2)]
    ['GAMEs(0,1)', 'GAMEs(1,0)']
    >>> sum(1 for _ in symmetric_profiles(4))
    24
    """
    m = _to_player(players, "players")
    if m < 2:
        raise InvalidParameterError(f"multiplayer play needs players >= 2, got {m}")
    for ks in itertools.permutations(range(m)):
        yield games_profile(*ks)


def as_profile(preference: object = None, players: int | None = None) -> PreferenceProfile:
    """Build a profile from what users pass.

    Accepts None (Li's ranking for *players*, default 2: normal play), a
    :class:`PreferenceProfile`, text (``"1,2,0"`` or ``"0,1,2;1,2,0;2,0,1"``), a flat
    sequence of ints (the k-list of ``GAMEs``) or a sequence of orders.

    Examples
    --------
    >>> print(as_profile(None, 3))
    GAMEs(0,1,2)
    >>> print(as_profile([1, 2, 0]))
    GAMEs(1,2,0)
    >>> print(as_profile([[0, 1], [0, 1]]))
    profile 0,1;0,1
    >>> as_profile([1, 0], players=3)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: the preference GAMEs(1,0) is for 2 players, but players=3; give one entry per player
    """
    if players is not None:
        players = _to_player(players, "players")
        if players < 2:
            raise InvalidParameterError(f"multiplayer play needs players >= 2, got {players}")
    if preference is None:
        return li_ranking(2 if players is None else players)
    if isinstance(preference, PreferenceProfile):
        prof = preference
    elif isinstance(preference, str):
        prof = PreferenceProfile.parse(preference)
    elif isinstance(preference, Sequence) and all(
        isinstance(x, int) and not isinstance(x, bool) for x in preference
    ):
        prof = games_profile(*preference)
    elif isinstance(preference, Sequence):
        prof = PreferenceProfile(tuple(preference))
    else:
        raise InvalidParameterError(
            f"cannot read preference {preference!r}: give a PreferenceProfile, a k-list like "
            "[1, 2, 0] (GAMEs) or one order per player like [[0, 1, 2], [1, 2, 0], [2, 0, 1]]"
        )
    _check_players(prof, players)
    return prof


class MultiplayerSolver(Generic[P]):
    """Memoised, iterative last-mover search for one ruleset and one preference profile.

    The search uses an explicit stack (no recursion limit), shares positions through the
    ruleset's ``canonical``, stops early when the mover can reach its most wanted last
    mover, detects loops, and raises :class:`SearchTooLargeError` past ``max_positions``
    stored states. For symmetric profiles one value (the i of the i-position) is stored
    per position; otherwise one per (position, player to move).

    Positions given to the methods must be valid (see :func:`last_mover`, which validates).

    Examples
    --------
    >>> from nimlab import game
    >>> s = MultiplayerSolver(game("nim"), games_profile(0, 1, 2))
    >>> s.i_value((2, 2, 2)), s.i_value((1, 3)), s.i_value((2, 2, 2, 1, 3))
    (2, 1, 0)
    >>> s.last_mover((1, 3), to_move=2)
    0
    """

    def __init__(
        self,
        game: Ruleset[P],
        profile: PreferenceProfile,
        max_positions: int = DEFAULT_MAX_POSITIONS,
        max_moves: int = DEFAULT_MAX_MOVES,
    ) -> None:
        self.game = game
        self.profile = profile
        self.max_positions = max_positions
        self.max_moves = max_moves
        self._moves_listed = 0
        self.players = profile.players
        self._ks = profile.offsets
        # symmetric: memo[pos] = i;  general: memo[(pos, mover)] = last mover
        self._memo: dict[Any, int] = {}
        if self._ks is not None:
            m = self.players
            rank_of_offset = [0] * m
            for r, k in enumerate(self._ks):
                rank_of_offset[k] = r
            self._rank_off = tuple(rank_of_offset)

    # -- public --------------------------------------------------------------------
    def children(self, position: P) -> list[P]:
        """Distinct canonical options of *position*, within the solver's moves budget.

        As in :class:`~nimlab.engine.search.Solver`, the game's estimate of the moves
        (weighed by the position's length) is checked before they are listed; like the
        positions budget, the moves budget counts over the solver's lifetime.
        """
        est = self.game.estimate_moves(position)
        width = max(1, len(position)) if isinstance(position, tuple) else 1
        if est is not None and est * width + self._moves_listed > self.max_moves:
            raise MoveSetTooLargeError(
                f"{self.game.label()}: multiplayer search ({self.profile.label()}) would "
                f"list more than {self.max_moves:,} moves (about {est:,} from "
                f"{self.game.format_position(position)[:60]} alone); use a smaller position "
                "or raise max_moves"
            )
        canon = self.game.canonical
        kids = list(dict.fromkeys(canon(c) for c in self.game.moves(position)))
        self._moves_listed += len(kids)
        if self._moves_listed > self.max_moves:
            raise MoveSetTooLargeError(
                f"{self.game.label()}: multiplayer search ({self.profile.label()}) listed "
                f"more than {self.max_moves:,} moves; use a smaller position or raise "
                "max_moves"
            )
        return kids

    def last_mover(self, position: P, to_move: int = 0) -> int:
        """``W(position, to_move)``: the player who moves last."""
        m = self.players
        a = to_move % m
        pos = self.game.canonical(position)
        if self._ks is not None:
            return (a + self._search(pos)) % m
        return self._search((pos, a))

    def i_value(self, position: P) -> int:
        """The i of an i-position (symmetric profiles only): ``N^i(A)`` moves last."""
        if self._ks is None:
            raise InvalidParameterError(
                f"i-positions are defined for symmetric profiles only ([SM] Def. 4.3); "
                f"{self.profile.label()} is not symmetric: use last_mover instead"
            )
        return self._search(self.game.canonical(position))

    def options(self, position: P, to_move: int = 0) -> list[tuple[P, int]]:
        """Each distinct option (in move order) with the last mover it leads to."""
        nxt = (to_move + 1) % self.players
        out: list[tuple[P, int]] = []
        est = self.game.estimate_moves(position)
        if est is not None and est > self.max_moves:
            raise MoveSetTooLargeError(
                f"{self.game.label()}: {self.game.format_position(position)[:60]} has about "
                f"{est:,} moves, more than the budget of {self.max_moves:,} to list; use a "
                "smaller position or raise max_moves"
            )
        for opt in dict.fromkeys(self.game.moves(position)):
            out.append((opt, self.last_mover(opt, nxt)))
        return out

    # -- search --------------------------------------------------------------------
    def _kids(self, state: Any) -> list[Any]:
        if self._ks is not None:
            return self.children(state)
        pos, a = state
        nxt = (a + 1) % self.players
        return [(c, nxt) for c in self.children(pos)]

    def _check_growth(self, root: Any, now: Any, depth: int, sym: bool) -> None:
        """Refuse a search path whose heaps total at least the root's plus *depth*/2."""
        from nimlab.core.errors import GameDefinitionError

        a, b = (root, now) if sym else (root[0], now[0])
        try:
            ra, rb = sum(int(x) for x in a), sum(int(x) for x in b)
        except (TypeError, ValueError):
            return
        if rb >= ra + depth // 2:
            raise GameDefinitionError(
                f"{self.game.label()}: the positions grow without bound: after {depth:,} "
                f"moves from {self.game.format_position(a)[:40]} the search reached "
                f"{self.game.format_position(b)[:40]}; only short games (every play ends) "
                "can be solved"
            )

    def _search(self, root: Any) -> int:
        memo = self._memo
        got = memo.get(root)
        if got is not None:
            return got
        m = self.players
        sym = self._ks is not None
        if sym:
            rank_off = self._rank_off
        ranks = self.profile.ranks
        budget = self.max_positions
        # frame: [state, kids, next index, best rank, best value]
        stack: list[list[Any]] = [[root, self._kids(root), 0, m, -1]]
        on_stack = {root}
        while stack:
            frame = stack[-1]
            state, kids, i, best_rank, best_val = frame
            n = len(kids)
            pending = None
            if n == 0:
                best_val = m - 1 if sym else (state[1] - 1) % m
            else:
                my_rank = None if sym else ranks[state[1]]
                while i < n:
                    v = memo.get(kids[i])
                    if v is None:
                        pending = kids[i]
                        break
                    if sym:
                        d = (v + 1) % m
                        r = rank_off[d]
                    else:
                        d = v
                        assert my_rank is not None
                        r = my_rank[v]
                    if r < best_rank:
                        best_rank, best_val = r, d
                        if r == 0:
                            i = n
                            break
                    i += 1
            if pending is None:
                memo[state] = best_val
                stack.pop()
                on_stack.discard(state)
                continue
            frame[2], frame[3], frame[4] = i, best_rank, best_val
            if pending in on_stack:
                from nimlab.engine.search import find_cycle, loopy_error

                where = pending if sym else pending[0]
                raise loopy_error(self.game, find_cycle(self.game, where))
            if len(memo) + len(stack) >= budget:
                raise SearchTooLargeError(
                    f"{self.game.label()}: multiplayer search ({self.profile.label()}) would "
                    f"store more than {budget:,} positions; use a smaller position or raise "
                    "max_positions"
                )
            if len(stack) % 10_000 == 0:
                self._check_growth(stack[0][0], pending, len(stack), sym)
            stack.append([pending, self._kids(pending), 0, m, -1])
            on_stack.add(pending)
        return memo[root]


@dataclass(frozen=True)
class MultiplayerChoice:
    """What the player to move does at a position, and why.

    Attributes
    ----------
    position : object
        The position.
    to_move : int
        The player to move.
    last_mover : int
        ``W(position, to_move)``.
    options : tuple of (option, int)
        Every distinct option with the last mover it leads to (the next player to move).
    best : tuple
        The options the player to move chooses: those leading to ``last_mover`` (empty
        at a terminal position).
    profile : PreferenceProfile
        The preferences played.
    """

    position: Any
    to_move: int
    last_mover: int
    options: tuple[tuple[Any, int], ...]
    best: tuple[Any, ...]
    profile: PreferenceProfile

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        ks = self.profile.offsets
        return {
            "position": self.position,
            "to_move": self.to_move,
            "last_mover": self.last_mover,
            "i": None if ks is None else (self.last_mover - self.to_move) % self.profile.players,
            "profile": [list(o) for o in self.profile.orders],
            "best": list(self.best),
            "options": [{"option": o, "last_mover": w} for o, w in self.options],
        }


def _setup(
    game: Ruleset[Any] | str,
    position: object,
    players: int | None,
    preference: object,
    to_move: int,
    max_positions: int,
) -> tuple[MultiplayerSolver[Any], Any, int]:
    from nimlab.catalog.registry import as_game

    g = as_game(game)
    pos = g.validate(position)
    prof = as_profile(preference, players)
    a = _to_player(to_move, "to_move")
    if not 0 <= a < prof.players:
        raise InvalidParameterError(
            f"to_move must be a player 0..{prof.players - 1}, got {a} (players are numbered "
            "from 0 in turn order)"
        )
    return MultiplayerSolver(g, prof, max_positions), pos, a


def last_mover(
    game: Ruleset[Any] | str,
    position: object,
    players: int | None = None,
    preference: object = None,
    to_move: int = 0,
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> int:
    """The player who moves last from *position* under *preference* ([SM] ``W(G, A)``).

    Parameters
    ----------
    game : Ruleset or str
        Any ruleset of the catalog (or its name).
    position : object
        A position of the game (validated first).
    players : int, optional
        The number of players m (default: from *preference*, else 2).
    preference : PreferenceProfile, str or sequence, optional
        The players' preferences (see :func:`as_profile`); default Li's ranking.
    to_move : int
        The player to move, ``0..m-1``.
    max_positions : int
        Budget of stored states.

    Returns
    -------
    int
        The number of the player who makes the last move (``P(to_move)`` at a terminal
        position).

    Examples
    --------
    >>> from nimlab import last_mover, games_profile, misere_profile
    >>> last_mover("nim", (1, 2, 3))            # 2 players, normal play: P-position
    1
    >>> last_mover("nim", (1, 1), preference=misere_profile())
    1
    >>> last_mover("nim", (2, 2, 2), players=3, preference=games_profile(0, 1, 2), to_move=1)
    0
    >>> last_mover("nim", (1, 2), preference=[[2, 0, 1], [0, 1, 2], [0, 1, 2]])
    2
    """
    solver, pos, a = _setup(game, position, players, preference, to_move, max_positions)
    return solver.last_mover(pos, a)


def i_position(
    game: Ruleset[Any] | str,
    position: object,
    preference: object = None,
    players: int | None = None,
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> int:
    """The i for which *position* is an i-position ([SM] Def. 4.3): ``N^i(A)`` moves last.

    Only for symmetric profiles (``GAMEs(k1, ..., km)``), where i does not depend on who
    is to move.

    Examples
    --------
    >>> from nimlab import i_position, games_profile
    >>> prof = games_profile(0, 1, 2)
    >>> [i_position("nim", p, prof) for p in [(2, 2, 2), (1, 3), (2, 2, 2, 1, 3)]]
    [2, 1, 0]
    >>> i_position("nim", (1, 2, 3), players=2)   # P-position: the opponent moves last
    1
    """
    solver, pos, _ = _setup(game, position, players, preference, 0, max_positions)
    return solver.i_value(pos)


def multiplayer_choice(
    game: Ruleset[Any] | str,
    position: object,
    players: int | None = None,
    preference: object = None,
    to_move: int = 0,
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> MultiplayerChoice:
    """Every option of *position* with its last mover, and the ones the mover picks.

    Examples
    --------
    >>> from nimlab import multiplayer_choice
    >>> c = multiplayer_choice("nim", (1, 2), players=3)
    >>> c.last_mover, c.options
    (1, (((0, 2), 1), ((1, 0), 1), ((1, 1), 2)))
    >>> c.best
    ((0, 2), (1, 0))
    """
    solver, pos, a = _setup(game, position, players, preference, to_move, max_positions)
    opts = tuple(solver.options(pos, a))
    w = solver.last_mover(pos, a)
    best = tuple(o for o, v in opts if v == w)
    return MultiplayerChoice(pos, a, w, opts, best, solver.profile)


def multiplayer_moves(
    game: Ruleset[Any] | str,
    position: object,
    players: int | None = None,
    preference: object = None,
    to_move: int = 0,
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> list[Any]:
    """The options the player to move chooses: all that lead to ``W(position, to_move)``.

    Examples
    --------
    >>> from nimlab import multiplayer_moves, games_profile
    >>> multiplayer_moves("nim", (1, 2), preference=games_profile(0, 2, 1))
    [(1, 1)]
    >>> multiplayer_moves("nim", (2, 2, 2, 1, 3), preference=games_profile(0, 1, 2))
    [(1, 2, 2, 1, 3), (2, 1, 2, 1, 3), (2, 2, 1, 1, 3)]
    """
    return list(
        multiplayer_choice(
            game, position, players, preference, to_move, max_positions=max_positions
        ).best
    )
