"""Position spaces split into deterministic chunks.

A space is a finite, move-closed set of positions in a fixed order, cut into
``n_chunks`` contiguous chunks; ``chunk(i)`` re-enumerates chunk ``i`` the same way in
any process, so chunks can run anywhere (process pool, Dask worker) and be resumed.
The smallest counterexample of a run is the first failing position of the lowest
failing chunk.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from nimlab.core.errors import InvalidPositionError
from nimlab.core.ruleset import Ruleset
from nimlab.verification._spacebase import (
    _accepted,
    _CachesNotPickled,
    _in_box,
    _SuccessorChunks,
    _top_chunks,
)
from nimlab.verification._totalspaces import SortedTotalSpace, TotalSpace

__all__ = [
    "HEAP_WALKS",
    "BoxSpace",
    "DistinctBoxSpace",
    "IndexSpace",
    "ListSpace",
    "SortedBoxSpace",
    "SortedTotalSpace",
    "Space",
    "TotalSpace",
    "heap_box",
    "heap_walk",
    "is_indexed",
    "own_walk",
    "rows_per_chunk",
    "space_key",
    "space_size",
    "successor",
    "warm_up_own",
]


@runtime_checkable
class Space(Protocol):
    """A finite set of positions, in order, split into chunks: what the verifier asks of
    a space of any kind (one of this module, or a game's own, from its
    ``verification_space`` hook).

    Required: :attr:`n_chunks`, :meth:`chunk`, :meth:`contains` and :meth:`describe`; a
    chunk must be re-enumerated the same way in every process (workers, resume).

    Optional members, asked through this module's functions (never by the space's class):

    - ``size`` (int): the number of positions, known without enumerating them
      (:func:`space_size`: budgets and cost estimates; unknown when absent);
    - ``identity()`` (str): a stable text naming the positions and their chunks, part of a
      run's key in the results store, so a resumed run re-checks no chunk and skips none
      (:func:`space_key`; the space's ``repr`` when absent);
    - ``walk`` (str): the verifier's compiled walk that enumerates the space (``"box"``,
      ``"sorted box"``, ``"distinct box"``, ``"sorted total"``: heap walks; ``"index"``:
      a game's index model); a space of another kind leaves it out or names its own;
    - ``compiled_chunk(spec, i)``: the space's own fast check of chunk *i* of the check
      *spec*, ``(positions checked, failure or None)`` with the same answer as the
      position-by-position check, or None to let the Python path check the chunk
      (:func:`own_walk`); with it, ``warm_up(spec)`` loads or compiles that walk once
      before the pool's workers are forked (:func:`warm_up_own`).
    """

    @property
    def n_chunks(self) -> int:
        """Number of chunks."""

    def chunk(self, i: int) -> Iterator[Any]:
        """Positions of chunk *i*, in order."""

    def contains(self, position: Any) -> bool:
        """Whether *position* is in the space (to check move-closedness)."""

    def describe(self) -> str:
        """Short human-readable description."""


def rows_per_chunk(span: int, row_size: int, target: int) -> int:
    """How many values of the first heap make a chunk of about *target* positions.

    Examples
    --------
    >>> rows_per_chunk(100, 100, 1000)
    10
    >>> rows_per_chunk(10, 10**6, 1000)
    1
    """
    return max(1, min(span, target // max(row_size, 1)))


@dataclass(frozen=True)
class BoxSpace:
    """All positions of *n_heaps* heaps with ``low <= heap < bound``, lexicographic order.

    Chunk ``i`` holds the positions whose first heap lies in
    ``[low + i*rows, low + (i+1)*rows)``. Tuples that *game* refuses (``validate``
    raises, for example equal heaps in Welter's game) are skipped and not counted.

    Examples
    --------
    >>> s = BoxSpace(2, 3, rows=2)
    >>> s.n_chunks, list(s.chunk(1))
    (2, [(2, 0), (2, 1), (2, 2)])
    """

    #: How the planner sees this space (:func:`nimlab.planner.plan`, question ``check``).
    walk: ClassVar[str] = "box"

    n_heaps: int
    bound: int
    low: int = 0
    rows: int = 1
    game: Ruleset[Any] | None = None

    @property
    def n_chunks(self) -> int:
        span = max(0, self.bound - self.low)
        return -(-span // self.rows) if span else 0

    def row_range(self, i: int) -> tuple[int, int]:
        """The first-heap values ``[a0, a1)`` of chunk *i*."""
        a0 = self.low + i * self.rows
        return a0, min(self.bound, a0 + self.rows)

    def chunk(self, i: int) -> Iterator[tuple[int, ...]]:
        a0, a1 = self.row_range(i)
        rest = [range(self.low, self.bound)] * (self.n_heaps - 1)
        return _accepted(self.game, itertools.product(range(a0, a1), *rest))

    def contains(self, position: Any) -> bool:
        return _in_box(position, self.n_heaps, self.low, self.bound)

    def successor(self, h: tuple[int, ...]) -> tuple[int, ...]:
        """The position after *h* (lexicographic; *h* itself at the end)."""
        out = list(h)
        i = len(out) - 1
        while i >= 0:
            if out[i] + 1 < self.bound:
                out[i] += 1
                return tuple(out)
            out[i] = self.low
            i -= 1
        return tuple(out)

    def describe(self) -> str:
        return f"{self.n_heaps} heaps, {self.low} <= heap < {self.bound}"

    @property
    def size(self) -> int:
        """Number of tuples (before skipping invalid ones)."""
        return int(max(0, self.bound - self.low) ** self.n_heaps)


def _nondecreasing(m: int, lo: int, hi: int) -> int:
    """Number of non-decreasing tuples of length *m* with entries in ``[lo, hi]``."""
    import math

    return math.comb(hi - lo + m, m) if hi >= lo else (1 if m == 0 else 0)


@dataclass(frozen=True)
class SortedBoxSpace(_SuccessorChunks):
    """One position per multiset: non-decreasing tuples of *n_heaps* heaps in
    ``[low, bound)``, ordered by largest heap, then lexicographically (the order of
    :func:`nimlab.theory.spaces.sorted_box`). For games where heap order does not matter.

    A chunk holds the positions with one largest heap ``top`` and a range of first heaps,
    about *target* positions; options are members when their sorted heaps are.

    Examples
    --------
    >>> s = SortedBoxSpace(3, 4, low=1, target=3)
    >>> [p for i in range(s.n_chunks) for p in s.chunk(i)][:6]
    [(1, 1, 1), (1, 1, 2), (1, 2, 2), (2, 2, 2), (1, 1, 3), (1, 2, 3)]
    >>> s.size, s.contains((3, 1, 2)), s.contains((0, 1, 2))
    (10, True, False)
    """

    #: How the planner sees this space (:func:`nimlab.planner.plan`, question ``check``).
    walk: ClassVar[str] = "sorted box"

    n_heaps: int
    bound: int
    low: int = 0
    target: int = 8192
    _chunks: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def _build(self) -> list[tuple[int, ...]]:
        """Chunks as ``(top, first0, first1, count)``."""
        n = self.n_heaps
        tops = range(self.low, self.bound)

        def count(a: int, top: int) -> int:
            return _nondecreasing(n - 2, a, top)

        return _top_chunks(n, tops, self.low, 0, count, self.target)

    @property
    def size(self) -> int:
        """Number of positions."""
        return _nondecreasing(self.n_heaps, self.low, self.bound - 1)

    def start(self, i: int) -> tuple[tuple[int, ...], int]:
        """The first position of chunk *i* and its number of positions."""
        top, a0, _a1, cnt = self._table()[i]
        if self.n_heaps == 1:
            return (top,), cnt
        return (a0,) * (self.n_heaps - 1) + (top,), cnt

    def contains(self, position: Any) -> bool:
        return _in_box(position, self.n_heaps, self.low, self.bound)

    def successor(self, h: tuple[int, ...]) -> tuple[int, ...]:
        """The position after *h* (:func:`sorted_successor`)."""
        return sorted_successor(h, self.low)

    def describe(self) -> str:
        return f"{self.n_heaps} heaps, {self.low} <= heap < {self.bound}, one per multiset"


def sorted_successor(h: tuple[int, ...], low: int) -> tuple[int, ...]:
    """The next position of a :class:`SortedBoxSpace` (by largest heap, then lexicographic).

    Examples
    --------
    >>> sorted_successor((1, 2, 2), 1), sorted_successor((2, 2, 2), 1)
    ((2, 2, 2), (1, 1, 3))
    """
    m = len(h) - 1
    top = h[m]
    for i in range(m - 1, -1, -1):
        if h[i] < top:
            v = h[i] + 1
            return h[:i] + (v,) * (m - i) + (top,)
    return (low,) * m + (top + 1,)


@dataclass(frozen=True)
class DistinctBoxSpace(_SuccessorChunks):
    """One position per set: strictly increasing tuples of *n_heaps* heaps in
    ``[low, bound)``, ordered by largest heap, then lexicographically (games whose heaps
    must be pairwise distinct, such as Welter's). Chunks as in :class:`SortedBoxSpace`.

    Examples
    --------
    >>> s = DistinctBoxSpace(3, 5, target=2)
    >>> [p for i in range(s.n_chunks) for p in s.chunk(i)][:5]
    [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (0, 1, 4)]
    >>> s.size, s.contains((3, 1, 2)), s.contains((1, 1, 2))
    (10, True, False)
    """

    #: How the planner sees this space (:func:`nimlab.planner.plan`, question ``check``).
    walk: ClassVar[str] = "distinct box"

    n_heaps: int
    bound: int
    low: int = 0
    target: int = 8192
    _chunks: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def _build(self) -> list[tuple[int, ...]]:
        """Chunks as ``(top, first0, first1, count)``."""
        import math

        n = self.n_heaps
        tops = range(self.low + n - 1, self.bound)

        def count(a: int, top: int) -> int:
            return math.comb(top - a - 1, n - 2)

        return _top_chunks(n, tops, self.low, n - 1, count, self.target)

    @property
    def size(self) -> int:
        """Number of positions."""
        import math

        return math.comb(max(0, self.bound - self.low), self.n_heaps)

    def start(self, i: int) -> tuple[tuple[int, ...], int]:
        """The first position of chunk *i* and its number of positions."""
        top, a0, _a1, cnt = self._table()[i]
        if self.n_heaps == 1:
            return (top,), cnt
        return tuple(a0 + j for j in range(self.n_heaps - 1)) + (top,), cnt

    def contains(self, position: Any) -> bool:
        return (
            type(position) is tuple
            and len(position) == self.n_heaps
            and len(set(position)) == len(position)
            and (not position or (min(position) >= self.low and max(position) < self.bound))
        )

    def successor(self, h: tuple[int, ...]) -> tuple[int, ...]:
        """The position after *h* (:func:`distinct_successor`)."""
        return distinct_successor(h, self.low)

    def describe(self) -> str:
        return f"{self.n_heaps} distinct heaps, {self.low} <= heap < {self.bound}, one per set"


def distinct_successor(h: tuple[int, ...], low: int) -> tuple[int, ...]:
    """The next position of a :class:`DistinctBoxSpace` (by largest heap, then lexicographic).

    Examples
    --------
    >>> distinct_successor((0, 1, 3), 0), distinct_successor((1, 2, 3), 0)
    ((0, 2, 3), (0, 1, 4))
    """
    m = len(h) - 1
    top = h[m]
    for i in range(m - 1, -1, -1):
        v = h[i] + 1
        if v + (m - 1 - i) < top:
            return h[:i] + tuple(v + j for j in range(m - i)) + (top,)
    return tuple(low + j for j in range(m)) + (max(top + 1, low + m),)


@dataclass(frozen=True)
class ListSpace(_CachesNotPickled):
    """An explicit list of positions (a materialised theorem instance), in given order.

    Examples
    --------
    >>> s = ListSpace(((0,), (1,), (2,)), chunk_size=2)
    >>> s.n_chunks, list(s.chunk(1)), s.contains((1,))
    (2, [(2,)], True)
    """

    #: How the planner sees this space (:func:`nimlab.planner.plan`, question ``check``).
    walk: ClassVar[str] = "list"

    positions: tuple[Any, ...]
    chunk_size: int = 4096
    canonical: Ruleset[Any] | None = None
    _members: dict[str, frozenset[Any]] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    @property
    def n_chunks(self) -> int:
        return -(-len(self.positions) // self.chunk_size)

    def chunk(self, i: int) -> Iterator[Any]:
        return iter(self.positions[i * self.chunk_size : (i + 1) * self.chunk_size])

    def contains(self, position: Any) -> bool:
        m = self._members.get("m")
        if m is None:
            m = self._members["m"] = frozenset(self.positions)
        if position in m:
            return True
        g = self.canonical
        return g is not None and g.canonical(position) in m

    def describe(self) -> str:
        return f"{len(self.positions)} listed positions"

    def identity(self) -> str:
        """The hash of the positions and the chunk size (the store's key of the space)."""
        import hashlib

        digest = hashlib.sha256(repr(self.positions).encode()).hexdigest()
        return f"{digest}/{self.chunk_size}"

    @classmethod
    def of(
        cls, positions: Sequence[Any], chunk_size: int, game: Ruleset[Any] | None = None
    ) -> ListSpace:
        """A list space over *positions* (options are matched up to ``game.canonical``)."""
        return cls(tuple(positions), max(1, chunk_size), game)


@dataclass(frozen=True)
class IndexSpace:
    """The positions of one region of a game's index model
    (:meth:`~nimlab.core.ruleset.Ruleset.index_model`), in index order: chunk ``i`` holds
    the indices ``[i*target, (i+1)*target)``. Options come before their positions.

    Examples
    --------
    >>> from nimlab import game
    >>> s = IndexSpace(game("turning-turtles"), (1, 2))
    >>> s.size, [sorted(p) for p in s.chunk(0)], s.contains(frozenset({(2, 1)}))
    (4, [[], [(1, 1)], [(1, 2)], [(1, 1), (1, 2)]], False)
    """

    #: How the planner sees this space (:func:`nimlab.planner.plan`, question ``check``).
    walk: ClassVar[str] = "index"

    game: Ruleset[Any]
    region: tuple[int, ...]
    target: int = 1 << 16
    _m: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __getstate__(self) -> dict[str, Any]:
        return {"game": self.game, "region": self.region, "target": self.target}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        object.__setattr__(self, "_m", {})

    def model(self) -> Any:
        """The game's :class:`~nimlab.core.kernels.IndexModel` of this region."""
        got = self._m.get("m")
        if got is None:
            got = self.game.index_model(self.region)
            if got is None:
                raise InvalidPositionError(
                    f"{self.game.label()}: no index model for region {self.region}"
                )
            self._m["m"] = got
        return got

    @property
    def size(self) -> int:
        """Number of positions."""
        return int(self.model().size)

    @property
    def n_chunks(self) -> int:
        return -(-self.size // max(1, self.target))

    def index_range(self, i: int) -> tuple[int, int]:
        """The indices ``[i0, i1)`` of chunk *i*."""
        i0 = i * self.target
        return i0, min(self.size, i0 + self.target)

    def chunk(self, i: int) -> Iterator[Any]:
        m = self.model()
        i0, i1 = self.index_range(i)
        for j in range(i0, i1):
            yield m.position(tuple(int(x) for x in m.decode(m.params, j)))

    def contains(self, position: Any) -> bool:
        return self.model().index(position) is not None

    def describe(self) -> str:
        return str(self.model().describe)


# -- questions the verifier asks of a space (the space answers: no list of classes) ------

#: The walks of heap spaces the compiled heap walks enumerate
#: (:mod:`nimlab.verification._heapwalks`): a space whose ``walk`` is one of these has
#: ``n_heaps``, ``bound`` and ``low``, ``successor(h)``, and ``row_range(i)`` (a box) or
#: ``start(i)`` (the others).
HEAP_WALKS = frozenset({"box", "sorted box", "distinct box", "sorted total"})


def space_size(space: Any) -> int | None:
    """Number of positions of *space* before invalid ones are skipped (its ``size``), or
    None when it is not known without enumerating it (a listed space, a space without
    ``size``).

    Examples
    --------
    >>> space_size(BoxSpace(2, 4)), space_size(TotalSpace(2, 4)), space_size(ListSpace(((0,),)))
    (16, 10, None)
    """
    size = getattr(space, "size", None)
    return int(size) if isinstance(size, int) and not isinstance(size, bool) else None


def space_key(space: Any) -> str:
    """The text that identifies *space* in a run's key: its ``identity()`` (a listed
    space: the hash of its positions and its chunk size), else its repr.

    Examples
    --------
    >>> space_key(BoxSpace(2, 4))
    'BoxSpace(n_heaps=2, bound=4, low=0, rows=1, game=None)'
    >>> space_key(ListSpace(((0,), (1,)), 2))[-2:]
    '/2'
    """
    identity = getattr(space, "identity", None)
    if callable(identity):
        return str(identity())
    return f"{space!r}"


def heap_box(space: Any) -> BoxSpace | None:
    """*space* if it is a box of heap tuples (its ``walk`` is ``"box"``: the space the
    vectorised and compiled paths are first tried on), else None.

    Examples
    --------
    >>> heap_box(BoxSpace(2, 4)) is not None, heap_box(TotalSpace(2, 4))
    (True, None)
    """
    return space if getattr(space, "walk", None) == "box" else None


def heap_walk(space: Any) -> bool:
    """Whether a compiled heap walk enumerates *space* (its ``walk`` is in
    :data:`HEAP_WALKS`).

    Examples
    --------
    >>> heap_walk(SortedBoxSpace(2, 4)), heap_walk(ListSpace(((0,),)))
    (True, False)
    """
    return getattr(space, "walk", None) in HEAP_WALKS


def is_indexed(space: Any) -> bool:
    """Whether *space* numbers the positions of a game's index model (its ``walk`` is
    ``"index"``: its compiled check is :mod:`nimlab.verification.indexed`'s).

    Examples
    --------
    >>> is_indexed(BoxSpace(2, 4))
    False
    """
    return getattr(space, "walk", None) == "index"


def own_walk(space: Any) -> Any:
    """The space's own compiled check of a chunk, ``compiled_chunk(spec, i)``, or None
    (a space of this module, or one without it).

    Examples
    --------
    >>> own_walk(BoxSpace(2, 4)) is None
    True
    """
    got = getattr(space, "compiled_chunk", None)
    return got if callable(got) else None


def warm_up_own(space: Any, spec: Any) -> None:
    """Let a space with its own compiled walk load or compile it and fill its caches once
    in this process, before workers are forked (its optional ``warm_up(spec)``).

    Examples
    --------
    >>> warm_up_own(BoxSpace(2, 4), None)  # a space without warm_up: nothing to do
    """
    warm = getattr(space, "warm_up", None)
    if callable(warm):
        warm(spec)


def successor(space: Any, h: tuple[int, ...]) -> tuple[int, ...]:
    """The position after *h* in the order of the heap space *space* (its
    ``successor``: a box, sorted, distinct or sorted-total space).

    Examples
    --------
    >>> successor(BoxSpace(2, 3), (0, 2)), successor(SortedBoxSpace(2, 3), (1, 1))
    ((1, 0), (0, 2))
    """
    out: tuple[int, ...] = space.successor(h)
    return out
