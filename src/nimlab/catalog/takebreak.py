"""Your own take-and-break game: a move function of one heap that yields the heaps left.

:func:`take_and_break` makes a game of a function ``f(h)`` (or ``f(h, *params)``) that
yields, for a heap of ``h``, each option as the tuple of heaps the move leaves (zeros
are no heap): Kayles, which takes one or two adjacent pins from a row, is ::

    @nimlab.take_and_break("my-kayles")
    def kayles(h):
        for t in (1, 2):
            for i in range(h - t + 1):
                yield (i, h - t - i)

A position is any number of heaps, the game is the sum of its heaps, and every facet of
nimlab applies (values, outcomes, winning moves, misère genus and quotient, the command
line with ``FILE.py:NAME``, the playground). When the function's moves are those of an
octal or hexadecimal code (each move takes ``k`` tokens and leaves 0, 1, 2 or 3 heaps,
as the code's digit ``k`` allows), checked at every heap up to :data:`RECOGNISE_HEAPS`,
the game's sequence runs on the compiled octal engine (rare values, checkpoints) and its
period is proved by the Guy–Smith theorem for that code; otherwise the sequence comes
from the exact search over the function's moves. The check reads the function at those
heaps only: a function that leaves the code's moves at a larger heap (one that takes 300
tokens, say, when no heap up to 256 shows it) is not told apart; a code whose largest
take is beyond ``RECOGNISE_HEAPS // 4`` is not recognised. The answer is kept in the
cache directory (``recognised/`` in ``$NIMLAB_CACHE_DIR``, see
:func:`nimlab.core.settings.cache_root`), named by the hash of the function's source, its
parameters and the globals it reads, so a later process does not probe the function again.

Positions of several heaps in misère play (not the sum of their heaps' values) are solved
by the compiled engine of take-and-break games (:mod:`nimlab.engine.splits`), over the
function's moves, whether it is a code or not.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from nimlab.core.errors import (
    GameDefinitionError,
    InvalidParameterError,
    NimlabError,
    UnknownGameError,
)
from nimlab.core.kernels import OctalKernel, OneHeapKernel
from nimlab.core.ruleset import HeapRuleset, SplitHeapRuleset

__all__ = ["RECOGNISE_HEAPS", "SplitGame", "TakeBreakGame", "split_game", "take_and_break"]

#: Heaps ``1..RECOGNISE_HEAPS`` whose options are compared with an octal code's (fewer
#: when they have more than :data:`RECOGNISE_OPTIONS` options, but at least ``4t + 8`` for
#: a largest take ``t``).
RECOGNISE_HEAPS = 128
RECOGNISE_OPTIONS = 2_000
#: Most options of one heap (an endless generator is stopped there).
MAX_HEAP_OPTIONS = 1_000_000
_PARTS_BIT = {0: 1, 1: 2, 2: 4, 3: 8}
_CODES: dict[tuple[type, tuple[Any, ...]], str | None] = {}


def _heap(x: object) -> int:
    if isinstance(x, bool):
        raise TypeError("a bool is not a heap size")
    return int(x)  # type: ignore[call-overload,no-any-return]


class TakeBreakGame(SplitHeapRuleset):
    """Base of the games made by :func:`take_and_break` (one subclass per game)."""

    heap_function: ClassVar[Callable[..., Iterable[Any]]]
    min_heaps = 1
    _checked: ClassVar[dict[tuple[type, tuple[Any, ...]], int]] = {}

    def _args(self) -> tuple[Any, ...]:
        return tuple(getattr(self, p.name) for p in self.params)

    def _broken(self, what: str, h: int) -> GameDefinitionError:
        return GameDefinitionError(
            f"{self.label()}: the move function {what[:300]} at the heap {h}; fix the "
            "game's definition"
        )

    def heap_options(self, h: int) -> Iterator[tuple[int, ...]]:
        """The options of one heap of *h*: the nonempty heaps each move leaves, sorted."""
        if h <= 0:
            return
        fn = type(self).heap_function
        try:
            options = iter(fn(h, *self._args()))
        except NimlabError:
            raise
        except Exception as exc:
            raise self._broken(f"raised {type(exc).__name__}: {exc}", h) from None
        count = 0
        while True:
            try:
                o = next(options)
            except StopIteration:
                return
            except NimlabError:
                raise
            except Exception as exc:
                raise self._broken(f"raised {type(exc).__name__}: {exc}", h) from None
            count += 1
            if count > MAX_HEAP_OPTIONS:
                raise self._broken(f"gave more than {MAX_HEAP_OPTIONS:,} options", h)
            if type(o) is tuple and all(type(x) is int for x in o):
                parts = o  # the common case, checked quickly
            else:
                try:
                    items = o if isinstance(o, (tuple, list)) else (o,)
                    parts = tuple(_heap(x) for x in items)
                except (TypeError, ValueError, OverflowError):
                    raise self._broken(
                        f"gave {str(o)[:60]!r}, which is not a tuple of heap sizes", h
                    ) from None
            if parts and (min(parts) < 0 or max(parts) >= h):
                raise self._broken(
                    f"gave the heaps {parts!r}: each heap a move leaves must be >= 0 and "
                    "smaller than the heap it comes from",
                    h,
                )
            yield tuple(sorted(p for p in parts if p))

    def octal_code(self) -> str | None:
        """The octal (or hexadecimal) code whose moves the function gives at every heap
        ``1..RECOGNISE_HEAPS``, or None.

        Examples
        --------
        >>> import nimlab
        >>> @nimlab.take_and_break("doc-kayles")
        ... def kayles(h):
        ...     for t in (1, 2):
        ...         for i in range(h - t + 1):
        ...             yield (i, h - t - i)
        >>> kayles.octal_code()
        '0.77'
        """
        key = (type(self), self._args())
        if key not in _CODES:
            path = self._recognised_file()
            stored = _read_recognised(path)
            if stored is not None:
                _CODES[key], self._checked[key] = stored
            else:
                _CODES[key] = self._recognise(RECOGNISE_HEAPS)
                _write_recognised(path, _CODES[key], self._checked.get(key, RECOGNISE_HEAPS))
        return _CODES[key]

    def _recognised_file(self) -> Path | None:
        """The file that keeps :meth:`octal_code`'s answer across processes, named by the
        hash of the function's source text (with the globals it reads and the game's
        parameters, as the compiled engine's disk cache writes them), the nimlab version
        and the recognition's bounds; None when the function cannot be written as text
        (a closure, a function typed in an interactive session)."""
        import hashlib

        from nimlab import __version__
        from nimlab.catalog.user import move_source
        from nimlab.core.settings import cache_root

        try:
            text = move_source(type(self).heap_function, self._args(), self.name)
        except Exception:  # a function whose source cannot be read as expected
            return None
        if text is None:
            return None
        bounds = f"{RECOGNISE_HEAPS} {RECOGNISE_OPTIONS} {MAX_HEAP_OPTIONS}"
        key = "\n".join([__version__, bounds, text])
        digest = hashlib.sha256(key.encode()).hexdigest()[:32]
        return cache_root() / "recognised" / f"{digest}.txt"

    def _recognise(self, bound: int) -> str | None:
        from nimlab.catalog.octal import Octal

        digits: dict[int, int] = {}
        equal_split: dict[int, bool] = {}
        seen: list[set[tuple[int, ...]]] = [set()]
        total = 0
        for h in range(1, bound + 1):
            opts: set[tuple[int, ...]] = set()
            for parts in self.heap_options(h):
                if len(parts) > 3:
                    return None
                opts.add(parts)
                total += 1
            seen.append(opts)
            for parts in opts:
                k = h - sum(parts)
                if k == 0 and len(parts) < 2:
                    return None
                digits[k] = digits.get(k, 0) | _PARTS_BIT[len(parts)]
                if len(parts) == 2 and parts[0] == parts[1]:
                    equal_split[k] = True
            if total > RECOGNISE_OPTIONS and h >= 4 * max(digits, default=0) + 8:
                bound = h
                break
        if not digits or max(digits) > bound // 4:
            return None  # the check must see each take in heaps of many sizes
        self._checked[type(self), self._args()] = bound
        text = []
        for k in range(max(digits) + 1):
            d = digits.get(k, 0)
            bang = "!" if d & 4 and not equal_split.get(k, False) else ""
            text.append(format(d, "x") + bang)
        code = text[0] + "." + ("".join(text[1:]) or "0")
        try:
            octal = Octal(code)
        except NimlabError:
            return None
        for h in range(1, bound + 1):
            if set(octal.heap_options(h)) != seen[h]:
                return None
        return octal.code

    def sequence_kernel(self) -> OneHeapKernel | None:
        """The octal engine when the moves are an octal code's (see :meth:`octal_code`)."""
        code = self.octal_code()
        return None if code is None else OctalKernel(code)

    def periodicity_proof(
        self, values: Sequence[int], preperiod: int, period: int, saltus: int
    ) -> tuple[bool, str, int] | None:
        """The Guy–Smith theorem for the code the moves match (see :meth:`octal_code`)."""
        from nimlab.catalog.octal import Octal

        code = self.octal_code()
        if code is None:
            return None
        proved, reason, need = Octal(code).periodicity_proof(values, preperiod, period, saltus)
        bound = self._checked.get((type(self), self._args()), RECOGNISE_HEAPS)
        where = f"the moves of the octal code {code}, checked at heaps <= {bound}"
        return proved, f"{reason} ({where})", need


def _read_recognised(path: Path | None) -> tuple[str | None, int] | None:
    """The code and heap bound kept in *path* (``-`` for no code), or None."""
    if path is None:
        return None
    try:
        code, bound = path.read_text().split()
        return (None if code == "-" else code), int(bound)
    except (OSError, ValueError):
        return None  # not kept yet, or damaged: recognise again


def _write_recognised(path: Path | None, code: str | None, bound: int) -> None:
    """Keep the recognition's answer in *path* (written whole, then renamed)."""
    if path is None:
        return
    import os
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(f"{code or '-'} {bound}\n")
        os.replace(tmp, path)
    except OSError:
        pass  # a cache we cannot write: the next process recognises again


def take_and_break(
    name: str,
    params: Mapping[str, Any] | None = None,
    *,
    summary: str = "",
) -> Callable[[Callable[..., Iterable[Any]]], TakeBreakGame]:
    """Decorator: make a take-and-break game of a one-heap move function.

    Parameters
    ----------
    name : str
        The game's name (``nimlab.game(name)``, the command line); not a catalog game's.
    params : dict, optional
        Parameters with their defaults (ints or sets of ints), passed after the heap:
        ``f(h, k)``, as for :func:`nimlab.heap_game`.
    summary : str
        One line of rules (default: the first line of the function's docstring).

    Returns
    -------
    callable
        A decorator whose result is the game's ruleset (default parameters).

    Notes
    -----
    The function takes a heap size ``h >= 1`` and yields, for each move, the heaps the
    move leaves, as a tuple (zeros are no heap; ``()`` when the move takes the whole heap).
    Every heap left must be smaller than ``h``. Positions are tuples of heaps (the sum of
    the heaps).

    Examples
    --------
    >>> import nimlab
    >>> @nimlab.take_and_break("doc-dawson")
    ... def dawson(h):
    ...     '''Dawson's Kayles: take two adjacent pins.'''
    ...     for i in range(h - 1):
    ...         yield (i, h - 2 - i)
    >>> nimlab.sequence(dawson, 12).tolist()
    [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]
    >>> nimlab.grundy(dawson, (5, 6)), sorted(dawson.moves((4,)))
    (3, [(1, 1), (2,), (2,)])
    >>> nimlab.periodicity_of(dawson, 400).summary()[:40]
    'period 34, preperiod 53 (proved: Guy–Smi'
    """
    from nimlab.catalog.user import _make_param

    spec_list = [_make_param(k, v) for k, v in (params or {}).items()]

    def decorate(fn: Callable[..., Iterable[Any]]) -> TakeBreakGame:
        from nimlab.catalog.user import _user_class

        cls = _user_class(
            TakeBreakGame,
            _free_key(name, TakeBreakGame),
            fn,
            spec_list,
            summary,
            ("take-and-break game", "Take-and-break game", "TakeBreak"),
            heap_function=staticmethod(fn),
        )
        return cls()  # type: ignore[no-any-return]

    return decorate


class SplitGame(HeapRuleset):
    """Base of the games made by :func:`split_game` (one subclass per game)."""

    edit_function: ClassVar[Callable[..., Iterable[Any]]]
    min_heaps = 1

    def _args(self) -> tuple[Any, ...]:
        return tuple(getattr(self, p.name) for p in self.params)

    def canonical(self, position: tuple[int, ...]) -> tuple[int, ...]:
        """Sorted heaps without empty ones (an empty heap is no heap)."""
        return tuple(sorted(h for h in position if h > 0))

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """The function's edits of the nonempty heaps (in decreasing order) applied."""
        from nimlab.core.guard import user_code

        heaps = tuple(sorted((h for h in position if h > 0), reverse=True))
        shown = " ".join(map(str, heaps))[:80]
        fn = type(self).edit_function
        with user_code(f"{self.label()}: the move function at the heaps {shown}"):
            try:
                edits = list(itertools.islice(fn(heaps, *self._args()), MAX_HEAP_OPTIONS + 1))
            except NimlabError:
                raise
            except Exception as exc:
                raise self._broken(f"raised {type(exc).__name__}: {exc}", shown) from None
        if len(edits) > MAX_HEAP_OPTIONS:
            raise self._broken(f"gave more than {MAX_HEAP_OPTIONS:,} options", shown)
        for e in edits:
            yield self._apply(heaps, e, shown)

    def _apply(self, heaps: tuple[int, ...], edit: object, shown: str) -> tuple[int, ...]:
        try:
            pair: Any = edit
            removed, added = pair
            gone = {_heap(i) for i in removed if _heap(i) != -1}
            put = [_heap(x) for x in added]
        except (TypeError, ValueError, OverflowError):
            raise self._broken(
                f"gave {str(edit)[:60]!r}, not a pair (indices of heaps taken, heaps put)",
                shown,
            ) from None
        if any(not 0 <= i < len(heaps) for i in gone) or any(x < 0 for x in put):
            raise self._broken(
                f"gave {str(edit)[:60]!r}: indices must be -1 or index a heap, heaps >= 0",
                shown,
            )
        rest = [h for i, h in enumerate(heaps) if i not in gone]
        return tuple(sorted(rest + [x for x in put if x > 0]))

    def _broken(self, what: str, shown: str) -> GameDefinitionError:
        return GameDefinitionError(
            f"{self.label()}: the move function {what[:300]} at the heaps {shown}; fix the "
            "game's definition"
        )

    def compiled_source(self) -> str | None:
        """The function as the source of a module defining ``gen`` (the engine keeps its
        kernel on disk), or None (a closure, a function typed in a session)."""
        from nimlab.catalog.user import move_source

        return move_source(type(self).edit_function, self._args(), self.name)

    def compiled_split_options(self) -> Any:
        """The function compiled with numba (the engine of :mod:`nimlab.engine.splits`)."""
        from nimlab.catalog import _compiled
        from nimlab.catalog.user import _compile_user

        fn, args = type(self).edit_function, self._args()
        return _compiled.compiled(("split", type(self), args), lambda: _compile_user(fn, args))


def split_game(
    name: str,
    params: Mapping[str, Any] | None = None,
    *,
    summary: str = "",
) -> Callable[[Callable[..., Iterable[Any]]], SplitGame]:
    """Decorator: make a game of heaps whose moves may take, split and join heaps anywhere.

    Parameters
    ----------
    name : str
        The game's name (``nimlab.game(name)``, the command line); not a catalog game's.
    params : dict, optional
        Parameters with their defaults (ints or sets of ints), passed after the heaps.
    summary : str
        One line of rules (default: the first line of the function's docstring).

    Returns
    -------
    callable
        A decorator whose result is the game's ruleset (default parameters).

    Notes
    -----
    The function takes the nonempty heaps in decreasing order (a tuple in Python, an
    ``int64`` array when numba compiles it: use ``len(heaps)`` and ``heaps[i]``) and yields
    each move as ``(removed, added)``: a tuple of the indices of the heaps the move takes
    away (-1: none) and a tuple of the heaps it puts in their place (0: none), each tuple of
    one fixed length. A position is a multiset of heaps but need not be a sum of them, so
    moves may play on several heaps at once or depend on the others. Every option must have
    fewer tokens, or as many in smaller heaps; the compiled engine of take-and-break games
    then solves the game (normal and misère play) when numba compiles the function, else
    the search does. For moves on one heap at a time, :func:`take_and_break` is simpler.

    Examples
    --------
    >>> import nimlab
    >>> @nimlab.split_game("doc-pair-nim")
    ... def pair_nim(heaps):
    ...     "Take from one heap, or one token from each of two heaps."
    ...     for i in range(len(heaps)):
    ...         for r in range(heaps[i]):
    ...             yield (i, -1), (r,)
    ...         for j in range(i + 1, len(heaps)):
    ...             yield (i, j), (heaps[i] - 1, heaps[j] - 1)
    >>> sorted(pair_nim.moves((1, 2)))   # heap 2 to 0 or 1, heap 1 to 0, or both less one
    [(1,), (1,), (1, 1), (2,)]
    >>> nimlab.grundy(pair_nim, (1, 2)), nimlab.outcome(pair_nim, (1, 1), misere=True).name
    (0, 'N')
    """
    from nimlab.catalog.user import _make_param

    spec_list = [_make_param(k, v) for k, v in (params or {}).items()]

    def decorate(fn: Callable[..., Iterable[Any]]) -> SplitGame:
        game: SplitGame = _split_class(name, spec_list, summary, fn)()
        return game

    return decorate


def _split_class(
    name: str, spec_list: list[Any], summary: str, fn: Callable[..., Iterable[Any]]
) -> Any:
    """The registered :class:`SplitGame` subclass of the function *fn*."""
    from nimlab.catalog.user import _user_class

    return _user_class(
        SplitGame,
        _free_key(name, SplitGame),
        fn,
        spec_list,
        summary,
        ("split game", "Split game", "SplitGame"),
        edit_function=staticmethod(fn),
    )


def _free_key(name: str, base: type[Any]) -> str:
    """The registry key of *name*, refused when a game not made on *base* holds it."""
    from nimlab.catalog.registry import _key, game_class

    key = _key(name)
    try:
        old = game_class(key)
    except UnknownGameError:
        old = None
    if old is not None and not issubclass(old, base):
        raise InvalidParameterError(
            f"{name!r} is the name of another game; choose another name for your game"
        )
    return key
