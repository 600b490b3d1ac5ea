"""The ruleset protocol: what every game of nimlab provides.

A :class:`Ruleset` is an immutable, hashable description of a game's rules (with its
parameters). Positions are separate, immutable and hashable values (usually tuples of
heap sizes). Solvers, formulas and interfaces are functions over this protocol.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from nimlab.core.errors import InvalidArgumentError, InvalidPositionError
from nimlab.core.params import IntTextError, Param, as_index, read_int, shown

if TYPE_CHECKING:
    from nimlab.core.kernels import IndexModel, OneHeapKernel, TableKernel
    from nimlab.core.strategy import Construction
    from nimlab.core.views import BinaryFigure

__all__ = [
    "HeapRuleset",
    "Position",
    "Ruleset",
    "SplitHeapRuleset",
    "SumRuleset",
    "has_split_model",
    "int_heaps",
    "multisets_up_to",
    "parse_group_tokens",
    "replace",
]

Position = Hashable
P = TypeVar("P", bound=Hashable)


class Ruleset(abc.ABC, Generic[P]):
    """Abstract base of every game.

    Subclasses are frozen dataclasses whose fields are the game's parameters, so that
    two rulesets with equal parameters are equal and share caches. A subclass provides
    :meth:`validate` and :meth:`moves`; the other hooks are optional.

    Class attributes
    ----------------
    name : str
        Canonical registry name (``"nim"``, ``"subtraction"``, ...).
    aliases : tuple of str
        Other names accepted by :func:`nimlab.game`.
    params : tuple of Param
        Parameter specifications, in order.
    summary : str
        One-line rule statement.
    theorems : tuple of str
        Result ids of GAMES.md section 6 about this game.
    grundy_theorem, p_theorem, misere_theorem : str or None
        Ids of the results that justify :meth:`closed_grundy`, :meth:`closed_is_p`
        and :meth:`closed_misere_is_p`.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A ruleset defined outside nimlab gets its closed-form hooks checked: a value
        that is not an int >= 0 (a Grundy value) or a bool (an outcome) is refused with
        a :class:`~nimlab.core.errors.GameDefinitionError`, as is an exception they raise."""
        super().__init_subclass__(**kwargs)
        if (cls.__module__ or "").startswith("nimlab."):
            return
        for hook in ("closed_grundy", "closed_is_p", "closed_misere_is_p"):
            fn = cls.__dict__.get(hook)
            if callable(fn) and not getattr(fn, "_nimlab_checked", False):
                setattr(cls, hook, _checked_hook(fn, hook))

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    params: ClassVar[tuple[Param, ...]] = ()
    summary: ClassVar[str] = ""
    theorems: ClassVar[tuple[str, ...]] = ()
    grundy_theorem: ClassVar[str | None] = None
    p_theorem: ClassVar[str | None] = None
    misere_theorem: ClassVar[str | None] = None

    # -- required ---------------------------------------------------------------
    @abc.abstractmethod
    def validate(self, position: object) -> P:
        """Return *position* normalised, or raise :class:`InvalidPositionError`."""

    @abc.abstractmethod
    def moves(self, position: P) -> Iterable[P]:
        """Yield the options of a valid *position* (duplicates are allowed)."""

    # -- optional hooks ---------------------------------------------------------
    def canonical(self, position: P) -> P:
        """Canonical representative (for example sorted heaps); the default is identity."""
        return position

    def components(self, position: P) -> Sequence[tuple[Ruleset[Any], Any]] | None:
        """Split *position* into independent components of a disjunctive sum, or None."""
        return None

    def closed_grundy(self, position: P) -> int | None:
        """Grundy value from a proved closed form, or None where none applies."""
        return None

    def closed_is_p(self, position: P) -> bool | None:
        """Whether *position* is P by a proved criterion, or None where none applies."""
        g = self.closed_grundy(position)
        return None if g is None else g == 0

    def closed_misere_is_p(self, position: P) -> bool | None:
        """Whether *position* is P in misère play by a proved criterion, or None."""
        return None

    def closed_theorem(self, position: P, kind: str = "p") -> str | None:
        """Id of the result behind the closed form used at *position*, or None.

        *kind* is ``"grundy"`` (:meth:`closed_grundy`), ``"p"`` (:meth:`closed_is_p`) or
        ``"misere"`` (:meth:`closed_misere_is_p`). The default names the class attributes;
        games with one criterion per number of heaps name the one they use here.
        """
        if kind == "grundy":
            return self.grundy_theorem
        if kind == "misere":
            return self.misere_theorem
        return self.p_theorem or self.grundy_theorem

    def closed_form_gap(self, position: P, kind: str = "p") -> str | None:
        """Why no closed form of this game answers at *position*, where one would be
        expected (a result refuted, or verified only to a bound), else None.

        *kind* is as for :meth:`closed_theorem`. When a search then runs out of its
        budget, its error says so (instead of a bare budget message), so the user knows
        which method answers and why no faster one does.
        """
        return None

    def strategy_moves(self, position: P) -> list[P] | None:
        """Winning moves built constructively (no scan of all moves), or None."""
        return None

    def strategy(self, position: P, misere: bool = False) -> Construction | None:
        """The constructive strategy of a paper's proof applied to a valid *position*.

        Returns a :class:`~nimlab.core.strategy.Construction` (the procedure's own winning
        move and, when cheap, every winning move), or None when no construction is known
        (then :meth:`strategy_moves` is asked, for normal play).
        """
        return None

    def binary_figure(self, position: P) -> BinaryFigure | None:
        """This game's binary view of a valid *position*: the heaps in binary and what its
        theorem reads from them (for :func:`nimlab.render.binary_view`).

        A :class:`~nimlab.core.views.BinaryFigure` (rows built with the helpers of
        :mod:`nimlab.core.views`), or None: the view then shows the plain nim-sum, labelled
        as not being the game's criterion.
        """
        return None

    def nimk_equivalent(self, position: P) -> int | None:
        """The ``K`` for which *position* is played as Moore's Nim_K, or None.

        When set, explanations show [N99]'s binary table (digit sums mod ``K+1``).
        """
        return None

    def explain_notes(self, position: P, move: P | None) -> list[str]:
        """Sentences about the quantities this game's criterion reads, before (and after)
        *move*; shown by explanations (``moves --explain``, ``play``). Default: none."""
        return []

    def estimate_moves(self, position: P) -> int | None:
        """An estimate (upper bound where known) of the number of moves from *position*.

        The default counts the stones of a tuple of heaps (take-away games), else None
        (no cheap estimate). A scan of the moves refuses positions estimated too large.
        """
        heaps = int_heaps(position)
        return None if heaps is None else int(sum(heaps))

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        """The compiled kernel that tabulates this game over a box, or None.

        *shape* is the size per heap of the box (its length is the number of heaps) and
        *kind* is ``"grundy"``, ``"outcome"`` or ``"misere"``. The answer is a description
        from :mod:`nimlab.core.kernels`; :func:`nimlab.table` runs it. The default uses
        :meth:`sequence_kernel` for one heap (normal play), else None (the generic
        search path).
        """
        if len(shape) == 1 and kind != "misere" and self.sequence_kernel() is not None:
            from nimlab.core.kernels import SequenceKernel

            return SequenceKernel()
        return None

    def sequence_kernel(self) -> OneHeapKernel | None:
        """The compiled recurrence of a one-heap game's Grundy sequence, or None."""
        return None

    def index_model(self, region: tuple[int, ...]) -> IndexModel | None:
        """This game's positions of one *region* as a dense index space with a compiled
        move model (:class:`~nimlab.core.kernels.IndexModel`), or None (the default).

        For games whose positions are not tuples of heaps (ranges of heaps, sets of
        coins): the compiled local check walks the region by index
        (:class:`~nimlab.verification.spaces.IndexSpace`). What a region is, the game
        says (Emperor Nim: the heap bound and the sizes of the ranges; Turning Turtles:
        the board's rows and columns). numba is imported inside the implementations.
        """
        return None

    def periodicity_proof(
        self, values: Sequence[int], preperiod: int, period: int, saltus: int
    ) -> tuple[bool, str, int] | None:
        """A periodicity theorem's verdict on an observed (arithmetic) period, or None.

        *values* are the Grundy values ``G(0), …, G(n-1)`` of a one-heap game, observed to
        satisfy ``G(m + period) = G(m) + saltus`` for ``m >= preperiod``. The answer is
        ``(proved, reason, terms)``: whether a theorem proves the periodicity for every
        heap from these values, why (or why not), and how many terms the theorem needs.
        None: the game knows no periodicity theorem.
        """
        return None

    def parse_position(self, tokens: Sequence[str]) -> P:
        """Read a position from command-line tokens (``3 4 5`` or ``1,2 3,3 4``)."""
        return self.validate(parse_group_tokens(tokens))

    def format_position(self, position: P) -> str:
        """Render *position* the way the command line reads it."""
        if isinstance(position, tuple):
            return " ".join(
                ",".join(str(x) for x in p) if isinstance(p, tuple) else str(p) for p in position
            )
        return str(position)

    def param_values(self) -> dict[str, Any]:
        """The parameters of this ruleset as a dict."""
        return {p.name: getattr(self, p.name) for p in self.params}

    def label(self) -> str:
        """Name with parameters, for example ``subtraction(S={1,3,4})``."""
        vals = self.param_values()
        if not vals:
            return self.name
        inner = ", ".join(f"{k}={_fmt_param(v)}" for k, v in vals.items())
        return f"{self.name}({inner})"

    def __str__(self) -> str:
        return self.label()

    def __add__(self, other: Ruleset[Any]) -> SumRuleset:
        if not isinstance(other, Ruleset):
            raise InvalidArgumentError(
                f"{self.label()} + ...: a sum of games adds rulesets (nimlab.game('nim') + "
                f"nimlab.game('wythoff')), got {other!r:.60}"
            )
        return SumRuleset(self, other)

    def __radd__(self, other: object) -> SumRuleset:
        raise InvalidArgumentError(
            f"... + {self.label()}: a sum of games adds rulesets (nimlab.game('nim') + "
            f"nimlab.game('wythoff')), got {other!r:.60}"
        )


def _checked_hook(fn: Any, hook: str) -> Any:
    """*fn* (a closed-form hook of a user's ruleset) with its result checked."""
    import functools

    from nimlab.core.errors import GameDefinitionError, NimlabError

    @functools.wraps(fn)
    def checked(self: Ruleset[Any], position: Any) -> Any:
        try:
            value = fn(self, position)
        except NimlabError:
            raise
        except Exception as exc:
            raise GameDefinitionError(
                f"{self.label()}: its {hook} raised {type(exc).__name__}: {str(exc)[:200]} at "
                f"{str(position)[:60]}; fix the game's definition"
            ) from None
        if value is None:
            return None
        if hook == "closed_grundy":
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            if not ok and type(value).__module__ == "numpy" and hasattr(value, "dtype"):
                ok = value.dtype.kind in "iu" and int(value) >= 0
                value = int(value) if ok else value
            need = "an int >= 0 (or None where no closed form applies)"
        else:
            ok = isinstance(value, bool) or (
                type(value).__module__ == "numpy" and str(getattr(value, "dtype", "")) == "bool"
            )
            value = bool(value) if ok else value
            need = "True or False (or None where no criterion applies)"
        if not ok:
            raise GameDefinitionError(
                f"{self.label()}: its {hook} gave {value!r:.40} ({type(value).__name__}) at "
                f"{str(position)[:60]}; it must return {need}; fix the game's definition"
            )
        return value

    checked._nimlab_checked = True  # type: ignore[attr-defined]
    return checked


def _fmt_param(v: object) -> str:
    if isinstance(v, frozenset):
        return "{" + ",".join(str(x) for x in sorted(v)) + "}"
    if isinstance(v, tuple):
        return "(" + "; ".join(_fmt_param(x) for x in v) + ")"
    return str(v)


def parse_group_tokens(tokens: Sequence[str]) -> tuple[int | tuple[int, ...], ...]:
    """Read command-line tokens: ``3`` is a heap, ``1,2`` a group of heaps.

    Examples
    --------
    >>> parse_group_tokens(["3", "4", "5"])
    (3, 4, 5)
    >>> parse_group_tokens(["1,2", "3,3", "4"])
    ((1, 2), (3, 3), 4)
    >>> parse_group_tokens(["3", "x"])
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidPositionError: cannot read 'x' as a heap: write heaps as integers like 3 4 5, groups with commas like 1,2 3,3
    """
    out: list[int | tuple[int, ...]] = []
    for tok in tokens:
        if "," in tok and any(x.strip() == "" for x in tok.split(",")):
            raise InvalidPositionError(
                f"cannot read {shown(tok)}: a group has an empty entry; write groups as "
                "integers separated by single commas, like 1,2 3,3"
            )
        try:
            if "," in tok:
                out.append(tuple(read_int(x) for x in tok.split(",")))
            else:
                out.append(read_int(tok))
        except ValueError as exc:
            why = f" ({exc})" if isinstance(exc, IntTextError) else ""
            raise InvalidPositionError(
                f"cannot read {shown(tok)} as a heap{why}: write heaps as integers like "
                "3 4 5, groups with commas like 1,2 3,3"
            ) from None
    return tuple(out)


def replace(h: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    """The heaps *h* with heap *i* (from 0) set to *v*: ``h[:i] + (v,) + h[i + 1:]``.

    For move functions of heap games (:func:`nimlab.heap_game`); it compiles with numba
    too, where it costs no allocation.

    Examples
    --------
    >>> replace((3, 4, 5), 1, 0)
    (3, 0, 5)
    >>> replace(None, 0, 3)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidArgumentError: replace(h, i, v): h must be a tuple of heaps, got None
    """
    if type(h) is not tuple:
        raise InvalidArgumentError(f"replace(h, i, v): h must be a tuple of heaps, got {h!r:.60}")
    if type(i) is not int or not 0 <= i < len(h):
        raise InvalidArgumentError(
            f"replace(h, i, v): i must be a heap's index 0..{len(h) - 1}, got {i!r:.60}"
        )
    return (*h[:i], v, *h[i + 1 :])


def int_heaps(position: object) -> list[int] | None:
    """The heaps of *position* when it is a tuple of ints, else None.

    Examples
    --------
    >>> int_heaps((3, 4)), int_heaps(((1, 2), 3))
    ([3, 4], None)
    """
    if isinstance(position, tuple) and all(
        isinstance(h, int) and not isinstance(h, bool) for h in position
    ):
        return list(position)
    return None


def _as_int(game: str, i: int, h: object) -> int:
    v = as_index(h)
    if v is not None:
        return v
    raise InvalidPositionError(f"{game}: heap {i} is {h!r}, but heaps must be integers")


class HeapRuleset(Ruleset[tuple[int, ...]]):
    """Base of games whose positions are tuples of heap sizes.

    Class attributes configure validation: ``n_heaps`` (a fixed number of heaps, or
    None), ``min_heaps``, ``min_heap_size`` (0, or 1 for games of positive heaps) and
    ``ordered`` (False: heap order does not matter and :meth:`canonical` sorts).
    Subclasses add game-specific rules in :meth:`check`.
    """

    n_heaps: ClassVar[int | None] = None
    min_heaps: ClassVar[int] = 0
    min_heap_size: ClassVar[int] = 0
    ordered: ClassVar[bool] = False

    def validate(self, position: object) -> tuple[int, ...]:
        """Normalise *position* to a tuple of ints and check the game's rules.

        Examples
        --------
        >>> from nimlab import game
        >>> game("nim").validate([3, 4, 5])
        (3, 4, 5)
        >>> game("subtraction", S={1, 2}).validate(7)
        (7,)
        """
        if isinstance(position, int) and not isinstance(position, bool):
            heaps: tuple[Any, ...] = (position,)
        elif isinstance(position, (tuple, list)):
            heaps = tuple(position)
            if type(position) not in (tuple, list) and len(position) != len(heaps):
                raise InvalidPositionError(
                    f"{self.name}: the position's len() says {len(position)} but it has "
                    f"{len(heaps)} heaps; give a plain tuple of heap sizes"
                )
        else:
            raise InvalidPositionError(
                f"{self.name}: a position is a sequence of heap sizes, got {position!r}"
            )
        heaps = tuple(_as_int(self.name, i, h) for i, h in enumerate(heaps, 1))
        for i, h in enumerate(heaps, 1):
            if h < self.min_heap_size:
                what = "integers >= 0" if self.min_heap_size == 0 else "positive integers"
                raise InvalidPositionError(
                    f"{self.name}: heap {i} is {h}, but heaps must be {what}"
                )
        if self.n_heaps is not None and len(heaps) != self.n_heaps:
            raise InvalidPositionError(
                f"{self.name}: a position has exactly {self.n_heaps} heap"
                f"{'s' if self.n_heaps != 1 else ''}, got {len(heaps)}"
            )
        if len(heaps) < self.min_heaps:
            raise InvalidPositionError(
                f"{self.name}: a position has at least {self.min_heaps} heaps, got {len(heaps)}"
            )
        self.check(heaps)
        return heaps

    def heap_count(self) -> int | None:
        """The number of heaps of every position, or None when it is not fixed."""
        return self.n_heaps

    def check(self, heaps: tuple[int, ...]) -> None:
        """Game-specific rules beyond heap sizes; raise InvalidPositionError when broken."""

    def canonical(self, position: tuple[int, ...]) -> tuple[int, ...]:
        """Sorted heaps when order does not matter, else the position itself."""
        return position if self.ordered else tuple(sorted(position))

    def format_position(self, position: tuple[int, ...]) -> str:
        """Heaps separated by spaces."""
        return " ".join(str(h) for h in position)

    def compiled_options(self) -> Callable[..., Any] | None:
        """The game's compiled move model: a numba-jitted generator of options, or None.

        The hook of the compiled engines (tables of any number of heaps, shared solvers,
        compiled local checks). A game that provides it returns a function ``gen`` made
        with ``numba.njit`` (a generator function) with this contract:

        - ``gen(h)`` takes the heaps as a tuple of ``int64`` (numba ``UniTuple(int64, n)``,
          the same ``n`` as the position) of a *valid* position;
        - it yields every option of ``h`` as a tuple of ``int64`` of the same length
          ``n``: the same multiset of options as :meth:`moves` once each is put in
          :meth:`canonical` form (options need not be canonical; repeats are allowed);
        - it allocates nothing per option (yield tuples, never new arrays: a tuple costs a
          few nanoseconds, an array a hundred and more), has no side effects, and gives
          the same options on every call.

        numba is imported inside the implementations (in the catalog, by the method),
        never when ``nimlab.core`` or ``nimlab.catalog`` is imported. The returned
        function is compiled on its first call; callers may cache it per ruleset. Games
        whose moves change the number of heaps, or that have no natural compiled form,
        return None (the default) and are solved by the Python search.

        Examples
        --------
        >>> from nimlab import game
        >>> game("nim").compiled_options() is not None   # doctest: +SKIP
        True
        >>> game("octal", code="0.77").compiled_options() is None
        True
        """
        return None

    def split_move_table(self, largest: int) -> list[list[tuple[int, ...]]] | None:
        """The move model of a game whose moves change the number of heaps, or None.

        The hook of the compiled engine of take-and-break games
        (:mod:`nimlab.engine.splits`): a position is a multiset of nonempty heaps, a move
        replaces one heap by the heaps it leaves, and ``table[h]`` lists those options of
        one heap of ``h`` for ``h = 0..largest`` (each a tuple of heaps smaller than
        ``h``, zeros dropped; ``()`` when the move takes the whole heap). The engine then
        solves every multiset of heaps up to a total size, compiled, in normal and misère
        play. None (the default): the game's moves are not of that form.

        Examples
        --------
        >>> from nimlab import game
        >>> game("nim").split_move_table(2) is None
        True
        >>> game("octal", code="0.77").split_move_table(3)[3]   # Kayles
        [(1,), (1, 1), (2,)]
        """
        return None

    def compiled_split_options(self) -> Callable[..., Any] | None:
        """A compiled move model whose moves may change the number of heaps, or None.

        For games whose positions are multisets of nonempty heaps (an empty heap is no
        heap) but are not sums of their heaps, or whose moves play on several heaps: a
        numba generator ``gen(heaps)`` that takes the heaps as an ``int64`` array in
        decreasing order (read only) and yields each option as ``(removed, added)``: a
        tuple of indices into ``heaps`` of the heaps the move takes away (-1: none) and a
        tuple of the heaps it puts in their place (0: none), each tuple of one fixed
        length. The options are the same multisets as :meth:`moves` gives. The compiled
        engine of :mod:`nimlab.engine.splits` solves the multisets in order of total, then
        lexicographically: an option must come before its position (fewer tokens, or as
        many in smaller heaps), else the search answers.

        Examples
        --------
        >>> from nimlab import game
        >>> game("octal", code="0.77").compiled_split_options() is None
        True
        """
        return None

    def compiled_predecessors(self) -> Callable[..., Any] | None:
        """The inverse of :meth:`compiled_options`: a numba generator of predecessors, or None.

        ``gen(h, low, bound)`` takes the heaps of a position as a tuple of ``int64`` and
        yields tuples ``p`` of the same length with every heap in ``[low, bound)`` such
        that ``h`` is an option of ``p`` (up to :meth:`canonical`: some option of ``p``
        has the canonical form of ``h``). It must never yield a position that is not a
        predecessor; it may leave some out (that only costs speed) and may repeat.

        The compiled local check of a P-set uses it to mark, from the claimed P-positions
        only, every position with a claimed P option (retrograde marking): a claimed
        N-position so marked needs no scan of its own options. The check tests the hook
        against :meth:`compiled_options` on a small box before it trusts it.

        Examples
        --------
        >>> from nimlab import game
        >>> game("nim").compiled_predecessors() is None
        True
        """
        return None

    def compiled_option_index(self) -> tuple[Callable[..., Any], Any, Any] | None:
        """A compiled index of "has an option in a set", for P-set checks; or None.

        Returns ``(prepare, note, reaches)``: ``prepare(n, low, bound)`` (Python) gives
        ``(cells, aux)``, the number of one-byte cells of the index for sorted positions
        of *n* heaps in ``[low, bound)`` and an ``int64`` array the two compiled functions
        read; ``note(q, index, aux)`` records the sorted position ``q`` (a tuple of
        ``int64``) in ``index``; ``reaches(h, index, aux)`` is True exactly when some
        option of the sorted position ``h`` is a recorded position. The compiled check of a
        claimed P-set records every claimed P-position, then needs one ``reaches`` per
        position instead of a scan of its options (Single-delete: 12 look-ups for 4 heaps
        instead of hundreds of options). The check tests the hook against
        :meth:`compiled_options` on a small space before it trusts it.

        Examples
        --------
        >>> from nimlab import game
        >>> game("nim").compiled_option_index() is None
        True
        """
        return None

    def compiled_source(self) -> str | None:
        """Python source of a module defining ``gen``, the move model, for a disk cache.

        A game whose compiled move model can be written as self-contained source text
        (the user's own games of :func:`nimlab.heap_game`) returns it here: a module that
        defines ``gen`` as :meth:`compiled_options` does, from nothing but its text (its
        imports, constants and functions), so the compiled engine can write it to the
        user's cache directory and let numba keep its machine code on disk across
        processes. None (the default): the engine compiles :meth:`compiled_options` in
        memory, once per process.

        Examples
        --------
        >>> from nimlab import game
        >>> game("nim").compiled_source() is None
        True
        """
        return None


class SplitHeapRuleset(HeapRuleset):
    """A take-and-break game: a move replaces one heap by the heaps of
    :meth:`heap_options` (none, one or several), so a position is a disjunctive sum of its
    heaps (octal games, users' take-and-break functions).

    Subclasses give :meth:`heap_options`; moves, the canonical form (sorted heaps, empty
    heaps dropped) and the components (one per non-empty heap) follow from it.

    Examples
    --------
    >>> from nimlab import game
    >>> g = game("octal", code="0.77")  # Kayles
    >>> isinstance(g, SplitHeapRuleset), sorted(g.moves((3,)))
    (True, [(1,), (1, 1), (2,)])
    """

    @abc.abstractmethod
    def heap_options(self, h: int) -> Iterator[tuple[int, ...]]:
        """The heaps a move on one heap of size *h* leaves (sorted, no empty heap)."""

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        for i, h in enumerate(position):
            rest = position[:i] + position[i + 1 :]
            for opt in self.heap_options(h):
                yield rest + opt

    def split_move_table(self, largest: int) -> list[list[tuple[int, ...]]] | None:
        """The options of one heap of ``0..largest`` (:meth:`heap_options`, each once),
        for the compiled engine; None when a subclass plays other moves or keeps
        another canonical form."""
        cls = type(self)
        if (
            cls.moves is not SplitHeapRuleset.moves
            or cls.canonical is not SplitHeapRuleset.canonical
        ):
            return None
        return [sorted(set(self.heap_options(h))) for h in range(largest + 1)]

    def canonical(self, position: tuple[int, ...]) -> tuple[int, ...]:
        """Sorted heaps without empty ones (an empty heap is no heap)."""
        return tuple(sorted(h for h in position if h > 0))

    def components(self, position: tuple[int, ...]) -> Sequence[tuple[Ruleset[Any], Any]] | None:
        heaps = [h for h in position if h > 0]
        if len(heaps) <= 1:
            return None
        return [(self, (h,)) for h in heaps]


def has_split_model(game: object) -> bool:
    """Whether *game* gives a move model whose moves change the number of heaps (its
    ``split_move_table`` or ``compiled_split_options`` hook), which the compiled engine of
    take-and-break games solves (``nimlab.engine.splits``).

    Examples
    --------
    >>> from nimlab import game
    >>> has_split_model(game("octal", code="4!.0")), has_split_model(game("nim"))
    (True, False)
    """
    cls = type(game)
    return isinstance(game, HeapRuleset) and (
        cls.split_move_table is not HeapRuleset.split_move_table  # type: ignore[attr-defined]
        or cls.compiled_split_options is not HeapRuleset.compiled_split_options  # type: ignore[attr-defined]
    )


def multisets_up_to(total: int) -> int:
    """The number of multisets of nonempty heaps of total at most *total*, the positions
    the engine of a split model solves: ``p(0) + ... + p(total)`` (OEIS A000070).

    Examples
    --------
    >>> [multisets_up_to(n) for n in range(8)], multisets_up_to(60)
    ([1, 2, 4, 7, 12, 19, 30, 45], 6639349)
    """
    p = [1] + [0] * max(total, 0)
    for part in range(1, total + 1):
        for n in range(part, total + 1):
            p[n] += p[n - part]
    return sum(p)


class SumRuleset(Ruleset[tuple[Any, Any]]):
    """The disjunctive sum ``g + h`` of two rulesets: a move is a move in one component.

    Examples
    --------
    >>> from nimlab import game, grundy
    >>> s = game("nim") + game("wythoff")
    >>> grundy(s, ((3,), (1, 2)))
    3
    """

    name = "sum"
    summary = "disjunctive sum: move in exactly one component"

    def __init__(self, left: Ruleset[Any], right: Ruleset[Any]) -> None:
        self.left = left
        self.right = right

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, SumRuleset) and self.left == other.left and self.right == other.right
        )

    def __hash__(self) -> int:
        return hash(("sum", self.left, self.right))

    def __repr__(self) -> str:
        return f"SumRuleset({self.left!r}, {self.right!r})"

    def label(self) -> str:
        return f"{self.left.label()} + {self.right.label()}"

    def validate(self, position: object) -> tuple[Any, Any]:
        if not isinstance(position, (tuple, list)) or len(position) != 2:
            raise InvalidPositionError(
                f"{self.label()}: a position of a sum is a pair (left position, right position)"
            )
        return (self.left.validate(position[0]), self.right.validate(position[1]))

    def moves(self, position: tuple[Any, Any]) -> Iterator[tuple[Any, Any]]:
        a, b = position
        for a2 in self.left.moves(a):
            yield (a2, b)
        for b2 in self.right.moves(b):
            yield (a, b2)

    def canonical(self, position: tuple[Any, Any]) -> tuple[Any, Any]:
        return (self.left.canonical(position[0]), self.right.canonical(position[1]))

    def components(self, position: tuple[Any, Any]) -> Sequence[tuple[Ruleset[Any], Any]]:
        return [(self.left, position[0]), (self.right, position[1])]

    def closed_grundy(self, position: tuple[Any, Any]) -> int | None:
        a = self.left.closed_grundy(position[0])
        b = self.right.closed_grundy(position[1])
        return None if a is None or b is None else a ^ b
