"""Descriptions of the compiled kernels a game can ask for.

A ruleset describes its compiled move model through two optional hooks of the protocol:
:meth:`~nimlab.core.ruleset.Ruleset.table_kernel` (tables of one to three heaps) and
:meth:`~nimlab.core.ruleset.Ruleset.sequence_kernel` (Grundy sequences of one-heap
games). Each returns one of the plain descriptions of this module, or None; the engine
(:mod:`nimlab.engine`) owns the compiled code and runs the kernel a description names.
Nothing here imports numpy: descriptions are cheap to build and compare.

The protocol is open: a description names its ``kind``; the engine runs the kinds it
has compiled runners for, and a description of a kind the engine does not know runs
itself through its :meth:`TableKernel.run` (:meth:`OneHeapKernel.run` for a sequence),
so a game (of the catalog or a user's) brings a compiled kernel of a new kind by
returning such a description from its hook (``tests/example_family/kernel.py``).

Examples
--------
>>> from nimlab import game
>>> game("nim").table_kernel((8, 8), "grundy")
LinesKernel(cofinite=(True, True), lag=(0, 0), offsets=(), diagonal=False)
>>> game("subtraction", S="1,3,4").sequence_kernel()
SubtractionKernel(S=(1, 3, 4))
>>> game("welter").table_kernel((8, 8), "grundy") is None
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = [
    "AllButKernel",
    "DeleteNimKernel",
    "DeleteSplitKernel",
    "IndexModel",
    "LimKernel",
    "LinesKernel",
    "MooreKernel",
    "OctalKernel",
    "OneHeapKernel",
    "SequenceKernel",
    "SubtractionKernel",
    "TableKernel",
    "TableRequest",
    "TakeAnyKernel",
    "WythoffKernel",
    "compositions",
    "pair_offsets",
]


# -- tables -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRequest:
    """One table asked of a kernel the engine has no runner for (:meth:`TableKernel.run`).

    Attributes
    ----------
    shape : tuple of int
        The box: positions ``(h0, ..., hk)`` with ``0 <= hi < shape[i]``.
    kind : {"grundy", "outcome", "misere"}
        What to tabulate.
    max_bytes : int
        The memory budget of the table and the kernel's work arrays: a kernel that needs
        more raises :class:`~nimlab.core.errors.WorkTooLargeError`.
    label : str
        The game's label, for messages.
    """

    shape: tuple[int, ...]
    kind: str
    max_bytes: int
    label: str


@dataclass(frozen=True)
class TableKernel:
    """Base of the table kernel descriptions returned by ``Ruleset.table_kernel``.

    Attributes
    ----------
    max_heaps : int
        The kernel tabulates 1 to this many heaps (class attribute).
    kind : str
        Which compiled table kernel of the engine runs this description (class
        attribute; the engine looks its runner up by this name, never by class).
    one_heap : bool
        Whether the description stands for the game's one-heap recurrence (class
        attribute: the planner runs a sequence, not a table).
    masks_empty_heaps : bool
        Whether the kernel masks the box cells that are no position itself (class
        attribute; otherwise every cell of the box must be a position).
    """

    max_heaps: ClassVar[int] = 3
    kind: ClassVar[str] = ""
    one_heap: ClassVar[bool] = False
    masks_empty_heaps: ClassVar[bool] = False

    def two_heap_lines(self) -> tuple[bool, bool, bool, tuple[tuple[int, int], ...]] | None:
        """Two heaps' moves as lines ``(cofinite0, cofinite1, diagonal, offsets)`` for the
        vectorised check (:mod:`nimlab.verification.fast`), or None when they are not.

        Examples
        --------
        >>> WythoffKernel().two_heap_lines()
        (True, True, True, ())
        >>> LinesKernel((True, True), (0, 0), ()).two_heap_lines()
        (True, True, False, ())
        """
        return None

    def run(self, request: TableRequest) -> Any:
        """The table of a kernel of a kind the engine has no runner for, or None.

        A game's own kernel kind overrides this (numpy and numba imported inside): the
        engine calls it for a box of at most :attr:`max_heaps` heaps, checks the answer
        and uses it in every place a compiled table serves (:func:`nimlab.table`, the
        planner's "compiled table" for ``grundy`` and ``outcome``). The answer is a numpy
        array of shape ``request.shape``: for ``grundy`` the Grundy values (integers
        ``>= 0``), for ``outcome`` and ``misere`` booleans, True at the P-positions. None:
        the kernel does not apply to this request (the next method answers). The default
        (and every kind the engine runs itself) answers None.

        Examples
        --------
        >>> LimKernel().run(TableRequest((4, 4, 4), "grundy", 1 << 20, "Lim")) is None
        True
        """
        return None


@dataclass(frozen=True)
class LinesKernel(TableKernel):
    """A game made of lines of cofinite moves plus explicit move vectors.

    Attributes
    ----------
    cofinite : tuple of bool
        Per heap: a move may take any amount from this heap, except the amounts
        ``1..lag`` not listed in *offsets* (a "line" of moves).
    lag : tuple of int
        Per heap: the amounts ``1..lag`` of a cofinite heap are *not* covered by the line
        (those allowed are listed in *offsets*).
    offsets : tuple of tuple of int
        Explicit moves, as the vector of stones taken from each heap.
    diagonal : bool
        Two heaps: a move may also take the same amount from both (Wythoff).
    """

    kind: ClassVar[str] = "lines"

    cofinite: tuple[bool, ...]
    lag: tuple[int, ...]
    offsets: tuple[tuple[int, ...], ...]
    diagonal: bool = False

    def two_heap_lines(self) -> tuple[bool, bool, bool, tuple[tuple[int, int], ...]] | None:
        if len(self.cofinite) != 2 or len(self.lag) != 2 or any(self.lag):
            return None
        if not all(len(o) == 2 for o in self.offsets):
            return None
        offsets = tuple(dict.fromkeys((int(o[0]), int(o[1])) for o in self.offsets))
        return self.cofinite[0], self.cofinite[1], self.diagonal, offsets


@dataclass(frozen=True)
class WythoffKernel(TableKernel):
    """Two heaps, normal play: row, column and diagonal bitsets (Wythoff Nim)."""

    kind: ClassVar[str] = "wythoff"

    def two_heap_lines(self) -> tuple[bool, bool, bool, tuple[tuple[int, int], ...]] | None:
        return True, True, True, ()


@dataclass(frozen=True)
class MooreKernel(TableKernel):
    """Take from up to ``k`` heaps at once (Moore's Nim_k; Circular Nim on <= 3 heaps)."""

    kind: ClassVar[str] = "moore"

    k: int


@dataclass(frozen=True)
class LimKernel(TableKernel):
    """Lim on three heaps, computed on its move-closed simplex."""

    kind: ClassVar[str] = "lim"


@dataclass(frozen=True)
class DeleteNimKernel(TableKernel):
    """Delete Nim on two heaps, computed by anti-diagonals."""

    kind: ClassVar[str] = "delete-nim"


@dataclass(frozen=True)
class DeleteSplitKernel(TableKernel):
    """2 to 6 positive heaps; a move removes one heap and splits one of the others into two
    positive heaps (Single-delete Nim): one bitset of option values per multiset of kept
    heaps and heap split, shared by the positions that differ in the heap removed. Box
    cells with an empty heap are no position (masked)."""

    max_heaps: ClassVar[int] = 6
    kind: ClassVar[str] = "delete-split"
    masks_empty_heaps: ClassVar[bool] = True


@dataclass(frozen=True)
class SequenceKernel(TableKernel):
    """One heap: the game's :meth:`~nimlab.core.ruleset.Ruleset.sequence_kernel`."""

    kind: ClassVar[str] = "sequence"
    one_heap: ClassVar[bool] = True


# -- one-heap sequences -----------------------------------------------------------------


@dataclass(frozen=True)
class OneHeapKernel:
    """Base of the one-heap recurrences returned by ``Ruleset.sequence_kernel``.

    Attributes
    ----------
    kind : str
        Which compiled recurrence of the engine runs it (class attribute; the engine looks
        its runner up by this name, never by class).
    long_sequences : bool
        Whether its sequences are long enough to get the larger default budget of terms
        (class attribute: octal games).
    """

    kind: ClassVar[str] = ""
    long_sequences: ClassVar[bool] = False

    def axis(self, axis: int, dims: int) -> tuple[bool, int, tuple[tuple[int, ...], ...]] | None:
        """This game's moves on heap *axis* of *dims* heaps, as one line of a
        :class:`LinesKernel` ``(cofinite, lag, offsets)``, or None when it is no line.

        Examples
        --------
        >>> SubtractionKernel((1, 3)).axis(1, 2)
        (False, 0, ((0, 1), (0, 3)))
        >>> AllButKernel((2,)).axis(0, 2)
        (True, 2, ((1, 0),))
        """
        return None

    def run(self, n: int) -> Any:
        """The Grundy values ``G(0), ..., G(n-1)`` of a recurrence of a kind the engine has
        no runner for (a numpy array of *n* integers ``>= 0``), or None.

        A game's own recurrence kind overrides this (numpy and numba imported inside):
        :func:`nimlab.sequence`, and through it the tables of one heap and the theorem
        checks of one-heap Grundy claims, use its answer. The default (and every kind the
        engine runs itself) answers None.

        Examples
        --------
        >>> SubtractionKernel((1, 2)).run(8) is None
        True
        """
        return None


def _unit(axis: int, dims: int, t: int) -> tuple[int, ...]:
    u = [0] * dims
    u[axis] = t
    return tuple(u)


@dataclass(frozen=True)
class TakeAnyKernel(OneHeapKernel):
    """Take any number of stones (one-heap Nim): ``G(n) = n``."""

    kind: ClassVar[str] = "take-any"

    def axis(self, axis: int, dims: int) -> tuple[bool, int, tuple[tuple[int, ...], ...]] | None:
        return True, 0, ()


@dataclass(frozen=True)
class SubtractionKernel(OneHeapKernel):
    """Take ``s`` stones for some ``s`` in the finite set *S* (sorted)."""

    kind: ClassVar[str] = "subtraction"

    S: tuple[int, ...]

    def axis(self, axis: int, dims: int) -> tuple[bool, int, tuple[tuple[int, ...], ...]] | None:
        return False, 0, tuple(_unit(axis, dims, t) for t in self.S)


@dataclass(frozen=True)
class AllButKernel(OneHeapKernel):
    """Take any ``s >= 1`` stones except those of the finite set *excluded* (sorted)."""

    kind: ClassVar[str] = "all-but"

    excluded: tuple[int, ...]

    def axis(self, axis: int, dims: int) -> tuple[bool, int, tuple[tuple[int, ...], ...]] | None:
        lag = self.excluded[-1] if self.excluded else 0
        return (
            True,
            lag,
            tuple(_unit(axis, dims, t) for t in range(1, lag + 1) if t not in self.excluded),
        )


@dataclass(frozen=True)
class OctalKernel(OneHeapKernel):
    """The octal (or hexadecimal) game of this code, such as ``"0.77"``."""

    kind: ClassVar[str] = "octal"
    long_sequences: ClassVar[bool] = True

    code: str


def compositions(total: int, dims: int) -> list[tuple[int, ...]]:
    """Every way to write *total* as an ordered sum of *dims* integers ``>= 0``.

    Examples
    --------
    >>> compositions(2, 2)
    [(0, 2), (1, 1), (2, 0)]
    """
    if dims == 1:
        return [(total,)]
    return [(a, *rest) for a in range(total + 1) for rest in compositions(total - a, dims - 1)]


def pair_offsets(dims: int, amount: int) -> list[tuple[int, ...]]:
    """Vectors taking *amount* from each of two distinct heaps (Nimhoff moves).

    Examples
    --------
    >>> pair_offsets(3, 4)
    [(4, 4, 0), (4, 0, 4), (0, 4, 4)]
    """
    out: list[tuple[int, ...]] = []
    for i, j in itertools.combinations(range(dims), 2):
        u = [0] * dims
        u[i] = u[j] = amount
        out.append(tuple(u))
    return out


# -- index spaces -----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class IndexModel:
    """A game's positions of one region, numbered ``0 .. size-1``, with a compiled move
    model over *codes*: what :meth:`~nimlab.core.ruleset.Ruleset.index_model` returns.

    A *code* stands for a position: a tuple or an array of ``width`` int64 numbers
    (Emperor Nim: the heaps of its ranges one after the other; Turning Turtles: the bit
    mask of its heads). The compiled functions (numba, built by the game's own module)
    all take the region's *params* first, so one compiled kernel serves every region:

    - ``decode(params, i)``: the canonical code of the position of index ``i``;
    - ``encode(params, code)``: the index of a code (canonicalised first), or -1 when
      the code is not a position of the region;
    - ``options(params, code)``: a generator yielding the code of every option (the same
      options as the ruleset's ``moves``, each up to canonical form);
    - ``is_option(params, x, y)``, optional: whether the position of code *y* is an
      option of the position of code *x*, exactly; it lets a P-set be checked against
      the claimed P-positions instead of every move.

    Contract: the region is move-closed and every option has a smaller index than its
    position (values can be computed in index order). In Python, ``position(code)``
    gives the ruleset's canonical position of a code (a tuple of ints) and
    ``index(position)`` the index of a position, or None outside the region.
    """

    region: tuple[int, ...]
    size: int
    width: int
    params: Any
    decode: Any
    encode: Any
    options: Any
    position: Callable[[tuple[int, ...]], Any]
    index: Callable[[Any], int | None]
    describe: str
    is_option: Any = None
