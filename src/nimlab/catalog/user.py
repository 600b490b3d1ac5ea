"""Your own heap game in a few lines: :func:`heap_game` and the user-game registry.

A move function ``f(h)`` (or ``f(h, *params)``) that yields the options of the heaps ``h``
becomes a ruleset like any other: registered under its name, with every facet of
nimlab (values, outcomes, misère play, winning moves, tables, trees, sums, verification).
When numba compiles the function, the compiled engines run it
(:meth:`~nimlab.core.ruleset.HeapRuleset.compiled_options`); when it does not, nimlab
says so once and runs the same function as Python, with the same results.

Games come from three places: decorated functions (in a session or a script), a file
named on the command line (``my_games.py:prime-nim``, see :func:`load_game_file`) and
installed packages, through the entry-point group ``nimlab.games`` (a module whose import
defines games; see :func:`nimlab.catalog.registry.load_plugins`).
"""

from __future__ import annotations

import dataclasses
import itertools
import operator
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from nimlab.catalog.registry import load_game_file
from nimlab.core.errors import (
    GameDefinitionError,
    InvalidArgumentError,
    InvalidParameterError,
    NimlabError,
)
from nimlab.core.guard import user_code
from nimlab.core.params import Param, parse_int_set, to_int_set
from nimlab.core.ruleset import HeapRuleset

if TYPE_CHECKING:
    from nimlab.core.views import BinaryFigure

#: Most options a user's move function may give from one position (an endless generator
#: is stopped there).
MAX_OPTIONS = 2_000_000
#: Options drawn from a user's move function at a time, under one guard.
_BATCH = 256


__all__ = [
    "ENTRY_POINT_GROUP",
    "UserHeapGame",
    "heap_game",
    "load_game_file",
]

ENTRY_POINT_GROUP = "nimlab.games"  # read by nimlab.catalog.registry.load_plugins
_MAX_PARAMS = 4


def _set_param(name: str, value: object) -> tuple[int, ...]:
    return tuple(sorted(to_int_set(name, value)))


def _parse_set(name: str, text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_int_set(name, text)))


def _make_param(name: str, default: object) -> Param:
    if isinstance(default, Param):
        return default
    if isinstance(default, (tuple, list, set, frozenset, range)):
        return Param(
            name,
            f"a set of integers (default {','.join(map(str, sorted(default)))})",
            parse=_parse_set,
            convert=_set_param,
            default=tuple(sorted(default)),
        )
    if isinstance(default, bool) or not isinstance(default, int):
        raise InvalidParameterError(
            f"parameter {name}: a default must be an int or a set of ints, got {default!r}"
        )
    return Param(name, f"an integer (default {default})", default=default)


class UserHeapGame(HeapRuleset):
    """Base of the games made by :func:`heap_game` (one subclass per game).

    The subclass's fields are the game's parameters; :meth:`moves` runs the user's
    function as Python, :meth:`compiled_options` compiles it with numba.
    """

    move_function: ClassVar[Callable[..., Iterable[Any]]]
    figure_function: ClassVar[Callable[..., Any] | None] = None
    source: ClassVar[str] = ""

    def _args(self) -> tuple[Any, ...]:
        return tuple(getattr(self, p.name) for p in self.params)

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure | None:
        """The user's own binary view (``heap_game(..., binary_figure=f)``), else None."""
        from nimlab.core.views import BinaryFigure

        fn = type(self).figure_function
        if fn is None:
            return None
        shown = " ".join(map(str, position))
        try:
            fig = fn(position, *self._args())
        except NimlabError:
            raise
        except Exception as exc:
            raise GameDefinitionError(
                f"{self.label()}: the binary_figure function raised {type(exc).__name__}: "
                f"{str(exc)[:300]} at the position {shown[:80]}; fix the game's definition"
            ) from None
        if fig is not None and not isinstance(fig, BinaryFigure):
            raise GameDefinitionError(
                f"{self.label()}: the binary_figure function gave {type(fig).__name__} at the "
                f"position {shown[:80]}; it must return a nimlab.core.views.BinaryFigure or None"
            )
        return fig

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        n = len(position)
        fn = type(self).move_function
        shown = " ".join(map(str, position))
        what = f"{self.label()}: the move function at the position {shown[:80]}"
        guard = user_code(what)
        with guard:
            try:
                options = iter(fn(position, *self._args()))
            except NimlabError:
                raise
            except Exception as exc:
                raise self._broken(f"raised {type(exc).__name__}: {exc}", shown) from None
        count = 0
        while True:
            # options are drawn in batches under the guard (a guard per option costs more)
            with guard:
                try:
                    batch = list(itertools.islice(options, _BATCH))
                except NimlabError:
                    raise
                except Exception as exc:
                    raise self._broken(f"raised {type(exc).__name__}: {exc}", shown) from None
            for o in batch:
                count += 1
                if count > MAX_OPTIONS:
                    raise self._broken(
                        f"gave more than {MAX_OPTIONS:,} options (does it ever stop?)", shown
                    )
                if type(o) is tuple and len(o) == n and all(type(x) is int and x >= 0 for x in o):
                    yield o  # the common case: a tuple of ints >= 0
                else:
                    yield self._option(o, n, shown)
            if len(batch) < _BATCH:
                return

    def _option(self, o: object, n: int, shown: str) -> tuple[int, ...]:
        """The option *o* as a tuple of *n* heap sizes, or a GameDefinitionError saying why
        not (a float, a string, a bool or a numpy float is not a heap size)."""
        items: Any = o
        if not isinstance(o, (tuple, list)):
            sized = hasattr(o, "__len__") and hasattr(o, "__iter__")
            if not sized or isinstance(o, (str, bytes, dict, set, frozenset)):
                raise self._broken(
                    f"gave {str(o)[:60]!r} ({type(o).__name__}), which is not a tuple of "
                    "heap sizes",
                    shown,
                )
            try:
                items = tuple(o)  # type: ignore[arg-type]
            except Exception:
                raise self._broken(f"gave {str(o)[:60]!r}, which cannot be read", shown) from None
        if len(items) != n:
            raise GameDefinitionError(
                f"{self.label()}: the move function gave an option with {len(items)} heaps "
                f"from a position of {n} heaps; options have the same number of heaps"
            )
        opt = []
        for x in items:
            if isinstance(x, bool):
                bad: object = x
            else:
                try:
                    opt.append(operator.index(x))
                    continue
                except Exception:
                    bad = x
            raise self._broken(
                f"gave {str(o)[:60]!r}, whose heap {str(bad)[:30]!r} ({type(bad).__name__}) "
                "is not an integer; options are tuples of ints (use // for a division)",
                shown,
            )
        if opt and min(opt) < 0:
            raise GameDefinitionError(
                f"{self.label()}: the move function gave an option with a negative heap "
                f"({' '.join(map(str, opt))}); options must have heaps >= 0"
            )
        return tuple(opt)

    def _broken(self, what: str, shown: str) -> GameDefinitionError:
        return GameDefinitionError(
            f"{self.label()}: the move function {what[:300]} at the position {shown[:80]}; "
            "fix the game's definition"
        )

    def compiled_options(self) -> Any:
        """The user's function compiled with numba (checked when first used)."""
        from nimlab.catalog import _compiled

        key = ("user", type(self), self._args())
        gen = _compiled.compiled(key, lambda: _compile_user(type(self).move_function, self._args()))
        if self.n_heaps is not None:
            check_yield_type(self, gen, self.n_heaps)
        return gen

    def compiled_source(self) -> str | None:
        """The move function as the source of a module defining ``gen`` (for the disk
        cache of the compiled engine), or None when it cannot be written as text alone
        (a closure, a helper function of the user's own file, an unknown global)."""
        return move_source(type(self).move_function, self._args(), self.name)


def check_yield_type(game: HeapRuleset, gen: Any, heaps: int) -> None:
    """Refuse a compiled move function whose options are not tuples of *heaps* integers
    (a float from ``h / 2``, a tuple of another length), typed once per number of heaps.

    A function numba cannot compile is left to the caller (which runs it as Python);
    the check costs nothing when the function is compiled anyway.
    """
    checked = _TYPED.setdefault(id(gen), set())
    if heaps in checked:
        return
    marker = _typed_marker(game, heaps)
    if marker is not None and marker.is_file():  # checked by an earlier process
        checked.add(heaps)
        return
    from numba import types

    from nimlab.catalog._numba_errors import compile_errors

    tuple_type: Any = types.UniTuple
    sig = (tuple_type(types.int64, heaps),)
    not_compiled: tuple[type[BaseException], ...] = (*compile_errors(), KeyError, AttributeError)
    try:
        gen.compile(sig)
        yielded = gen.overloads[sig].signature.return_type.yield_type
    except not_compiled:
        return  # not compiled: the Python path checks each option
    items = list(getattr(yielded, "types", ()))
    if (
        not isinstance(yielded, types.BaseTuple)
        or len(items) != heaps
        or not all(isinstance(t, types.Integer) for t in items)
    ):
        raise GameDefinitionError(
            f"{game.label()}: the move function yields {str(yielded)[:80]} from a position of "
            f"{heaps} heaps; options are tuples of {heaps} ints (use // for a division); fix "
            "the game's definition"
        )
    checked.add(heaps)
    if marker is not None:
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
        except OSError:
            pass  # a cache we cannot write: the next process checks again


_TYPED: dict[int, set[int]] = {}


def _typed_marker(game: HeapRuleset, heaps: int) -> Path | None:
    """The file that records that the move function of *game* (its source text, as the
    engine's disk cache writes it) yields tuples of *heaps* ints under this Python,
    numba and nimlab, so that a later process skips compiling it to see (None when the
    function cannot be written as source)."""
    import hashlib
    import sys

    import numba

    from nimlab import __version__
    from nimlab.core.settings import cache_root

    source_of = getattr(game, "compiled_source", None)
    text = source_of() if source_of is not None else None
    if text is None:
        return None
    key = "\n".join([sys.version, numba.__version__, __version__, str(heaps), text])
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    return cache_root() / "compiled" / "typed" / f"{digest}-{heaps}"


_MAX_CONSTANT = 100_000  # elements of a global array written into cached source


def _code_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _code_names(c)
    return names


def _plain(value: object) -> bool:
    """Whether ``repr(value)`` rebuilds *value* exactly (numbers, strings, tuples of them)."""
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return True
    return isinstance(value, tuple) and all(_plain(v) for v in value)


def _binding(name: str, value: object, own_module: str) -> str | None:
    """A line of source that binds *name* to *value* in a fresh module, or None."""
    import numpy as np

    if isinstance(value, types.ModuleType):
        mod = value.__name__
        if mod == own_module or mod.startswith("nimlab_user_games_"):
            return None
        return f"import {mod} as {name}" if mod != name else f"import {mod}"
    if _plain(value):
        return f"{name} = {value!r}"
    if isinstance(value, np.generic) and value.dtype.kind in "biuf":
        return f"{name} = _np.{value.dtype.name}({value.item()!r})"
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf" or value.size > _MAX_CONSTANT:
            return None
        return (
            f"{name} = _np.array({value.ravel().tolist()!r}, dtype=_np.{value.dtype.name})"
            f".reshape({value.shape!r})"
        )
    fn: Any = getattr(value, "py_func", value)  # a numba dispatcher: its Python function
    fmod = getattr(fn, "__module__", None)
    qual = getattr(fn, "__qualname__", "")
    if (
        callable(fn)
        and isinstance(fmod, str)
        and fmod not in (own_module, "__main__")
        and not fmod.startswith("nimlab_user_games_")
        and qual
        and "<" not in qual
        and "." not in qual
    ):
        return f"from {fmod} import {qual} as {name}"
    return None


def _function_text(fn: Callable[..., Any]) -> str | None:
    """The text of *fn* from its ``def`` (decorators removed), or None when it is a
    closure, has no source, or is not one plain function under its own name."""
    import ast
    import inspect
    import textwrap

    if getattr(fn, "__closure__", None) or not hasattr(fn, "__code__"):
        return None
    try:
        text = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("def ")), None)
    if start is None:
        return None
    body = "\n".join(lines[start:])
    name = fn.__name__
    try:
        tree = ast.parse(body)
    except SyntaxError:
        return None
    if (
        len(tree.body) != 1
        or not isinstance(tree.body[0], ast.FunctionDef)
        or tree.body[0].name != name
        or name in ("gen", "solve")
        or name.startswith("_nimlab")
    ):
        return None
    return body


def move_source(fn: Callable[..., Any], args: tuple[Any, ...], label: str) -> str | None:
    """Source text of a module that defines ``gen``: *fn* compiled, parameters bound.

    Built from the text of *fn* (decorators removed) and the globals it names (modules,
    numbers, tuples, numeric arrays, importable functions), so that the module compiles
    the same function in any process. None when that is not possible: then the engine
    compiles *fn* in memory.

    Examples
    --------
    >>> def take_k(k):
    ...     def take(h):
    ...         yield (h[0] - k,)
    ...     return take
    >>> move_source(take_k(1), (), "take") is None   # a closure: compiled in memory instead
    True
    """
    body = _function_text(fn)
    if body is None:
        return None
    name = fn.__name__
    own = getattr(fn, "__module__", "") or ""
    bindings = []
    for n in sorted(_code_names(fn.__code__)):
        if n not in fn.__globals__:
            continue  # a builtin, or an attribute name
        line = _binding(n, fn.__globals__[n], own)
        if line is None:
            return None
        bindings.append(line)
    if not all(_plain(a) for a in args):
        return None
    call = ", ".join(["h", *(repr(a) for a in args)])
    out = [
        f'"""Generated by nimlab from the move function of the game {label!r}; do not edit."""',
        "import numpy as _np",
        "from numba import njit as _nimlab_njit",
        "from nimlab.catalog._compiled import register_replace as _nimlab_register_replace",
        "",
        "_nimlab_register_replace()",
        *bindings,
        "",
        body,
        "",
        # generators are not numba-cached themselves: one loaded from numba's cache
        # cannot be lowered into a caller compiled later (KeyError in lowering); the
        # cached callers (the engine's solve kernel, the verification walks) hold its code
        f"{name} = _nimlab_njit({name})",
    ]
    if args:
        out += [
            "",
            "",
            "@_nimlab_njit",
            "def gen(h):",
            f"    for o in {name}({call}):",
            "        yield o",
        ]
    else:
        out.append(f"gen = {name}")
    return "\n".join(out) + "\n"


def _compile_user(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    from numba import njit

    from nimlab.catalog._compiled import register_replace

    register_replace()
    inner = njit(fn)
    if not args:
        return inner
    if len(args) == 1:
        (a,) = args

        @njit
        def gen1(h: Any) -> Any:  # pragma: no cover - compiled
            for o in inner(h, a):  # noqa: UP028 - numba has no yield from
                yield o

        return gen1
    if len(args) == 2:
        a, b = args

        @njit
        def gen2(h: Any) -> Any:  # pragma: no cover - compiled
            for o in inner(h, a, b):  # noqa: UP028 - numba has no yield from
                yield o

        return gen2
    if len(args) == 3:
        a, b, c = args

        @njit
        def gen3(h: Any) -> Any:  # pragma: no cover - compiled
            for o in inner(h, a, b, c):  # noqa: UP028 - numba has no yield from
                yield o

        return gen3
    a, b, c, d = args

    @njit
    def gen4(h: Any) -> Any:  # pragma: no cover - compiled
        for o in inner(h, a, b, c, d):  # noqa: UP028 - numba has no yield from
            yield o

    return gen4


def heap_game(
    name: str,
    heaps: int | None = None,
    order_free: bool = True,
    params: Mapping[str, Any] | Iterable[Param] | None = None,
    *,
    min_heap: int = 0,
    summary: str = "",
    binary_figure: Callable[..., BinaryFigure | None] | None = None,
) -> Callable[[Callable[..., Iterable[Any]]], UserHeapGame]:
    """Decorator: make a heap game of a move function, registered as *name*.

    Parameters
    ----------
    name : str
        The game's name (``nimlab.game(name)``, the command line, ``nimlab list``). It
        must not be a catalog game's name; defining the same user game again replaces it.
    heaps : int or None
        The number of heaps of every position, or None for any number.
    order_free : bool
        True when the order of the heaps does not matter (positions are multisets: the
        engines solve each multiset once); False for games whose heaps have places.
    params : dict or iterable of Param, optional
        Parameters of a family of games with their defaults, ``{"k": 2}`` (an int) or
        ``{"S": (1, 3, 4)}`` (a set of ints); the move function takes them after the heaps,
        in this order: ``f(h, k)``. ``nimlab.game(name, k=3)`` and ``-p k=3`` choose others.
    min_heap : int
        The smallest heap size allowed (0, or 1 for games of positive heaps).
    summary : str
        A one-line statement of the rules, shown as the game's rules by the playground's
        game menu (``nimlab serve FILE.py``) and by ``nimlab list`` for an installed plugin;
        the first line of the function's docstring by default.
    binary_figure : callable, optional
        The game's own binary view (``nimlab binary``, :func:`nimlab.binary_view`), as a
        catalog game draws it with its ``binary_figure`` hook: ``f(h)`` (or
        ``f(h, *params)``, like the move function) returns a
        :class:`~nimlab.core.views.BinaryFigure` of the valid heaps ``h``, or None for the
        plain nim-sum.

    Returns
    -------
    callable
        A decorator whose result is the game's ruleset (with the default parameters).

    Notes
    -----
    The move function takes the heaps as a tuple of ints and *yields* each option as a
    tuple of the same length (:func:`nimlab.replace` sets one heap), with no side
    effects. Write it in the subset of Python that numba compiles (loops, arithmetic,
    tuples, module-level numpy arrays as constants) to get compiled speed: a yielded tuple
    costs a few nanoseconds, while a new array per option costs a hundred times more and
    memory. ``while`` loops make faster numba generators than nested ``for`` loops. When
    numba cannot compile it, nimlab warns once and runs it as Python. A move function
    defined in a file is compiled once and kept on disk (in ``$NIMLAB_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/nimlab``, else ``~/.cache/nimlab``), keyed by its source, its
    parameters and the globals it reads, so later processes start in about a second; one
    typed in an interactive session (no source file) is compiled once per process.

    Examples
    --------
    >>> import nimlab
    >>> @nimlab.heap_game("take-1-or-2", heaps=1)
    ... def take12(h):
    ...     for t in (1, 2):
    ...         if t <= h[0]:
    ...             yield (h[0] - t,)
    >>> [nimlab.grundy(take12, n) for n in range(7)]
    [0, 1, 2, 0, 1, 2, 0]
    >>> nimlab.game("take-1-or-2") == take12
    True
    """
    spec_list = _checked_options(name, heaps, order_free, params, min_heap, summary, binary_figure)

    def decorate(fn: Callable[..., Iterable[Any]]) -> UserHeapGame:
        return _register_game(
            fn, name, heaps, order_free, spec_list, min_heap, summary, binary_figure
        )

    return decorate


def _register_game(
    fn: Callable[..., Iterable[Any]],
    name: str,
    heaps: int | None,
    order_free: bool,
    spec_list: list[Param],
    min_heap: int,
    summary: str,
    binary_figure: Callable[..., BinaryFigure | None] | None,
) -> UserHeapGame:
    """:func:`heap_game`'s decorator: the game of the move function *fn*, registered."""
    from nimlab.catalog.registry import _key, registered

    if not callable(fn) or isinstance(fn, type):
        raise InvalidArgumentError(
            f"heap_game({name!r}) decorates a move function f(h) that yields the options "
            f"of the heaps h, got {fn!r:.60}"
        )
    key = _key(name)
    old = registered(key)  # the catalog's names (installed plugins are not looked up)
    if old is not None and not issubclass(old, UserHeapGame):
        raise InvalidParameterError(
            f"{name!r} is the name of a catalog game; choose another name for your game"
        )
    cls = _user_class(
        UserHeapGame,
        key,
        fn,
        spec_list,
        summary,
        ("user game", "User heap game", "UserGame"),
        n_heaps=heaps,
        min_heap_size=min_heap,
        ordered=not order_free,
        move_function=staticmethod(fn),
        figure_function=None if binary_figure is None else staticmethod(binary_figure),
        source=getattr(fn, "__module__", "") or "",
    )
    return cls()  # type: ignore[no-any-return]


def _checked_options(
    name: object,
    heaps: object,
    order_free: object,
    params: object,
    min_heap: object,
    summary: object,
    binary_figure: object,
) -> list[Param]:
    """:func:`heap_game`'s options checked (a precise error for each), and its parameters
    as :class:`~nimlab.core.params.Param`."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidArgumentError(
            f"heap_game: the game's name must be non-empty text such as 'my-game', got {name!r:.60}"
        )
    for flag, value in (("order_free", order_free),):
        if not isinstance(value, bool):
            raise InvalidArgumentError(f"{name}: {flag} must be True or False, got {value!r:.60}")
    if isinstance(min_heap, bool) or not isinstance(min_heap, int) or min_heap not in (0, 1):
        raise InvalidArgumentError(f"{name}: min_heap must be 0 or 1, got {min_heap!r:.60}")
    if not isinstance(summary, str):
        raise InvalidArgumentError(f"{name}: summary must be text, got {summary!r:.60}")
    spec_list: list[Param] = []
    if isinstance(params, Mapping):
        spec_list = [_make_param(k, v) for k, v in params.items()]
    elif params is not None:
        assert isinstance(params, Iterable)
        spec_list = [p if isinstance(p, Param) else _make_param(str(p), 0) for p in params]
    if len(spec_list) > _MAX_PARAMS:
        raise InvalidParameterError(
            f"{name}: a heap game takes at most {_MAX_PARAMS} parameters, got {len(spec_list)}"
        )
    if heaps is not None and (isinstance(heaps, bool) or not isinstance(heaps, int) or heaps < 1):
        raise InvalidParameterError(f"{name}: heaps must be a positive int or None, got {heaps!r}")
    if binary_figure is not None and not callable(binary_figure):
        raise InvalidParameterError(
            f"{name}: binary_figure must be a function of the heaps, got {binary_figure!r:.60}"
        )
    return spec_list


def _user_class(
    base: type[Any],
    key: str,
    fn: Callable[..., Any],
    spec_list: Sequence[Param],
    summary: str,
    kind: tuple[str, str, str],
    **attrs: Any,
) -> type[Any]:
    """The registered frozen dataclass of a user's game (:func:`heap_game`,
    :func:`~nimlab.catalog.takebreak.take_and_break`,
    :func:`~nimlab.catalog.takebreak.split_game`): a subclass of *base* named by *key*,
    its parameters as fields with defaults.

    Its summary is *summary*, else the first line of the docstring of the move function
    *fn*; its module and docstring are *fn*'s. *kind* is the summary, the docstring (each
    followed by the key) and the class name when none of those is given; *attrs* are the
    class attributes of *base*'s own (the move function among them).
    """
    from nimlab.catalog.registry import register

    what, doc_what, fallback = kind
    doc = summary or ((fn.__doc__ or "").strip().splitlines() or [""])[0]
    attrs = {
        "name": key,
        "summary": doc or f"{what} {key}",
        "params": tuple(spec_list),
        **attrs,
        "__module__": getattr(fn, "__module__", __name__),
        "__doc__": fn.__doc__ or f"{doc_what} {key}.",
    }
    cls_name = "".join(part.capitalize() for part in key.split("-")) or fallback
    fields = [(p.name, Any, dataclasses.field(default=p.read(p.default))) for p in spec_list]
    cls_base = type(cls_name, (base,), attrs)
    cls = dataclasses.make_dataclass(cls_name, fields, bases=(cls_base,), frozen=True)
    cls.__module__ = attrs["__module__"]
    register(cls)
    return cls
