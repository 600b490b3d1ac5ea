"""The one registry of games: names and aliases to rulesets, with parameter parsing.

The Python API (:func:`game`, :func:`games`), the command line (``-p NAME=VALUE``) and
the web app all go through this module.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import sys
import types
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from nimlab.core.errors import (
    GameDefinitionError,
    InvalidArgumentError,
    InvalidParameterError,
    NimlabError,
    UnknownGameError,
)
from nimlab.core.guard import user_code
from nimlab.core.params import Param
from nimlab.core.ruleset import Ruleset

__all__ = [
    "GameInfo",
    "as_game",
    "families",
    "family_hooks",
    "game",
    "game_class",
    "games",
    "load_game_file",
    "load_plugins",
    "no_game_files",
    "parse_game_spec",
    "register",
]

# Catalog modules outside the family packages that register games (take-and-break codes),
# imported on the first lookup. The family packages of nimlab.catalog are found without a
# list (:func:`families`).
CATALOG_MODULES: tuple[str, ...] = ("nimlab.catalog.tbcode",)

_CLASSES: dict[str, type[Ruleset[Any]]] = {}
_NAMES: dict[str, str] = {}
_loaded = False
_LOADED_FILES: dict[Path, object] = {}
#: Largest game file run (a larger one is refused before it is read).
MAX_GAME_FILE_BYTES = 10_000_000

R = TypeVar("R", bound=type[Ruleset[Any]])


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def register(cls: R) -> R:
    """Class decorator: add a ruleset class to the registry under its name and aliases."""
    canonical = _key(cls.name)
    if not canonical:
        raise TypeError(f"{cls.__name__} has no name")
    for n in (canonical, *(_key(a) for a in cls.aliases)):
        other = _NAMES.get(n)
        if other is not None and other != canonical:
            raise TypeError(f"game name {n!r} is used by both {other!r} and {canonical!r}")
        _NAMES[n] = canonical
    _CLASSES[canonical] = cls
    return cls


#: The family packages found so far (catalog subpackages, then plugins' packages), by name.
_FAMILIES: dict[str, types.ModuleType] = {}


def _is_family(module: types.ModuleType) -> bool:
    """A family package: a package that lists its ruleset classes in ``GAMES`` (registered
    when the family is found, so a family's modules need not call :func:`register`)."""
    return hasattr(module, "__path__") and isinstance(getattr(module, "GAMES", None), tuple)


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for mod in CATALOG_MODULES:
            importlib.import_module(mod)
        import pkgutil

        import nimlab.catalog as package

        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            if info.ispkg and not info.name.startswith("_"):
                module = importlib.import_module(f"{package.__name__}.{info.name}")
                if _is_family(module):
                    _add_family(module)


def _add_family(module: types.ModuleType) -> None:
    """Register the rulesets a family package lists in ``GAMES`` and keep the family."""
    for cls in module.GAMES:
        if _CLASSES.get(_key(cls.name)) is not cls:
            register(cls)
    _FAMILIES.setdefault(module.__name__, module)


def families() -> list[types.ModuleType]:
    """The game family packages: every subpackage of :mod:`nimlab.catalog` that lists its
    rulesets in ``GAMES`` (found without a central list), then the plugins' packages
    loaded so far.

    A family package holds its rules, closed forms, strategy, compiled move model and
    explanation hooks, and may declare hooks that central code collects by module name
    (:func:`family_hooks`): ``theorems.THEOREMS`` for the theorem registry.

    Examples
    --------
    >>> "nimlab.catalog.lim" in [f.__name__ for f in families()]
    True
    """
    _load()
    return list(_FAMILIES.values())


def family_hooks(submodule: str, attribute: str) -> Iterator[tuple[str, Any]]:
    """``(family, value)`` for every family package with a module *submodule* that
    defines *attribute* (imported only now, so a hook costs nothing until asked for).

    Examples
    --------
    >>> dict(family_hooks("theorems", "THEOREMS"))["nimlab.catalog.lim"][0].id
    'S19-T8'
    """
    for family in families():
        name = f"{family.__name__}.{submodule}"
        if importlib.util.find_spec(name) is None:
            continue
        value = getattr(importlib.import_module(name), attribute, None)
        if value is not None:
            yield family.__name__, value


_plugins_loaded = False


def _load_plugins_once() -> None:
    """The installed plugins, loaded when a name is not in the catalog or all games are listed
    (so that ``nimlab grundy nim 3 4 5`` does not scan the installed packages)."""
    global _plugins_loaded
    _load()
    if not _plugins_loaded:
        _plugins_loaded = True
        load_plugins()


#: entry point group under which other packages declare their games
PLUGIN_GROUP = "nimlab.games"


def load_plugins() -> list[str]:
    """Register the games that installed packages declare as ``nimlab.games`` entry points.

    An entry point names a ruleset class (``mygames.rules:MyGame``), which is registered
    unless its module already did so with :func:`register`, or a module (importing it
    registers its games). A module that is a family package (a package listing its
    rulesets in ``GAMES``, as the catalog's own) joins :func:`families`, so its hooks
    (its theorems) are collected as the catalog's are. A plugin that fails to load or clashes with a registered name is
    skipped with a warning: it never breaks nimlab. Called once: when all games are listed
    or a name is not in the catalog.

    Returns
    -------
    list of str
        The entry point names loaded.

    Examples
    --------
    >>> load_plugins()  # no plugin installed with nimlab itself
    []
    """
    import warnings
    from importlib.metadata import entry_points

    loaded: list[str] = []
    for ep in entry_points(group=PLUGIN_GROUP):
        try:
            obj = ep.load()
            if isinstance(obj, type) and issubclass(obj, Ruleset):
                if _CLASSES.get(_key(obj.name)) is not obj:
                    register(obj)
            elif not isinstance(obj, types.ModuleType):
                raise TypeError(f"{ep.value} is neither a Ruleset class nor a module")
            elif _is_family(obj):
                _add_family(obj)
        except Exception as e:  # a broken plugin must not break nimlab
            warnings.warn(
                f"nimlab: game plugin {ep.name!r} ({ep.value}) was skipped: {e}", stacklevel=2
            )
            continue
        loaded.append(ep.name)
    return loaded


def is_file_spec(name: str) -> bool:
    """Whether *name* names a game of a Python file: ``path/to/file.py:game-name``.

    Examples
    --------
    >>> is_file_spec("my_games.py:prime-nim"), is_file_spec("subtraction:1,2")
    (True, False)
    """
    path, sep, _ = name.rpartition(":")
    return bool(sep) and path.endswith(".py")


#: True inside :func:`no_game_files` (per thread / task: a context variable)
_NO_FILES: ContextVar[bool] = ContextVar("nimlab_no_game_files", default=False)


@contextmanager
def no_game_files() -> Iterator[None]:
    """Within this block, no game file is read or run: a ``FILE.py:NAME`` game is refused.

    The web playground runs every request inside it, so that a name sent by a browser
    (a game, or a game inside a parameter such as ``rgames``' ``g0``) can never make the
    server import a file; the files it plays were loaded when it started. The block holds
    for the current thread (or asyncio task) only.

    Examples
    --------
    >>> with no_game_files():
    ...     game("/tmp/evil.py:x")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.UnknownGameError: unknown game '/tmp/evil.py:x': this program loads no game file here (game files are given when it starts)
    """
    token = _NO_FILES.set(True)
    try:
        yield
    finally:
        _NO_FILES.reset(token)


def _refuse_files(name: str) -> None:
    if _NO_FILES.get():
        raise UnknownGameError(
            f"unknown game {name[:80]!r}: this program loads no game file here "
            "(game files are given when it starts)"
        )


#: the module names of game files start with this
_FILE_MODULE = "nimlab_user_games_"


def load_game_file(path: str | Path) -> object:
    """Run a Python file that defines games, once per path.

    Its games are those of :func:`nimlab.heap_game` and its ruleset classes: every
    :class:`~nimlab.core.ruleset.Ruleset` subclass defined in the file with a ``name`` is
    registered as if decorated with :func:`register` (a name already taken by another game
    is a ``GameDefinitionError``). Refused inside :func:`no_game_files`.

    Examples
    --------
    >>> load_game_file("no/such/file.py")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.UnknownGameError: no game file 'no/such/file.py'
    """
    _refuse_files(str(path))
    p = Path(path)
    if not p.is_file():
        raise UnknownGameError(f"no game file {str(path)!r}")
    if p.stat().st_size > MAX_GAME_FILE_BYTES:
        raise GameDefinitionError(
            f"game file {str(path)!r} has {p.stat().st_size:,} bytes, more than a game file's "
            f"{MAX_GAME_FILE_BYTES:,}; name the Python file that defines the games"
        )
    resolved = p.resolve()
    if resolved in _LOADED_FILES:
        return _LOADED_FILES[resolved]
    mod_name = f"{_FILE_MODULE}{abs(hash(str(resolved)))}"
    spec = importlib.util.spec_from_file_location(mod_name, resolved)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has one
        raise UnknownGameError(f"cannot load game file {str(path)!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        with user_code(f"game file {str(path)!r}"):
            try:
                spec.loader.exec_module(module)
            except NimlabError:
                raise
            except Exception as exc:
                raise GameDefinitionError(
                    f"game file {str(path)!r} failed to run: {type(exc).__name__}: {str(exc)[:300]}"
                ) from None
    except BaseException:
        sys.modules.pop(mod_name, None)
        raise
    _register_classes(module, str(path))
    _LOADED_FILES[resolved] = module
    return module


def _register_classes(module: types.ModuleType, path: str) -> None:
    """Register the named ruleset classes a game file defines (not those it imports)."""
    for attr, obj in list(vars(module).items()):
        if not (
            isinstance(obj, type)
            and issubclass(obj, Ruleset)
            and obj.__module__ == module.__name__
            and isinstance(getattr(obj, "name", None), str)
            and _key(obj.name)
        ):
            continue
        if _CLASSES.get(_key(obj.name)) is obj:
            continue  # registered already (heap_game, or @register in the file)
        for n in (obj.name, *obj.aliases):
            taken = _NAMES.get(_key(n))
            if taken is not None and not _CLASSES[taken].__module__.startswith(_FILE_MODULE):
                raise GameDefinitionError(
                    f"game file {path!r}: class {attr} is named {n!r}, the name of the game "
                    f"{taken!r}; give it another name"
                )
        try:
            register(obj)
        except TypeError as exc:
            raise GameDefinitionError(
                f"game file {path!r}: class {attr} cannot be registered: {exc}; "
                "give it another name"
            ) from None


def game_class(name: str) -> type[Ruleset[Any]]:
    """The ruleset class registered under *name* (or an alias).

    ``path/to/file.py:game-name`` runs the file first (once), which defines the game with
    :func:`nimlab.heap_game`; games of installed packages (entry-point group
    ``nimlab.games``) are looked up when no other game has the name.
    """
    if not isinstance(name, str):
        raise InvalidArgumentError(
            f"a game name is text such as 'nim' (run `nimlab list`), got {name!r:.60}"
        )
    _load()
    if is_file_spec(name):
        _refuse_files(name)
        path, _, name = name.rpartition(":")
        load_game_file(path)
    canonical = _NAMES.get(_key(name))
    if canonical is None and not _plugins_loaded:
        _load_plugins_once()
        canonical = _NAMES.get(_key(name))
    if canonical is None:
        close = difflib.get_close_matches(_key(name), list(_NAMES), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownGameError(f"unknown game {name!r}{hint} (run `nimlab list` to see all games)")
    return _CLASSES[canonical]


def registered(name: str) -> type[Ruleset[Any]] | None:
    """The ruleset class registered under *name* (or an alias) so far: the catalog's and
    the games defined or loaded, without looking up installed plugins (which takes a scan
    of the installed packages); None when there is none.

    Examples
    --------
    >>> registered("Nim").name, registered("no-such-game")
    ('nim', None)
    """
    _load()
    canonical = _NAMES.get(_key(name))
    return None if canonical is None else _CLASSES[canonical]


def game(name: str, /, **params: Any) -> Ruleset[Any]:
    """Build the ruleset registered as *name* with the given parameters.

    String values are parsed as on the command line (``S="1,3,4"``).

    Examples
    --------
    >>> from nimlab import game
    >>> game("nim")
    Nim()
    >>> game("subtraction", S="1,3,4").label()
    'subtraction(S={1,3,4})'
    >>> game("subtraction")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: subtraction needs parameter S (the subtraction set S: finite set of positive integers), for example S=...
    >>> game("nimm")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    nimlab.core.errors.UnknownGameError: unknown game 'nimm'; did you mean nim...? (run `nimlab list` to see all games)
    """
    cls = game_class(name)
    return cls(**_read_params(cls, params))


def as_game(game_or_name: Ruleset[Any] | str) -> Ruleset[Any]:
    """Return a ruleset itself, or the registry's game of that name (default parameters).

    Examples
    --------
    >>> as_game("nim").label(), as_game(as_game("wythoff")).label()
    ('nim', 'wythoff')
    """
    if isinstance(game_or_name, str):
        return game(game_or_name)
    if not isinstance(game_or_name, Ruleset):
        from nimlab.core.errors import InvalidArgumentError

        text = repr(game_or_name)
        short = text if len(text) <= 60 else text[:57] + "..."
        raise InvalidArgumentError(f"game must be a ruleset or a game name, got {short}")
    return game_or_name


def _read_params(cls: type[Ruleset[Any]], params: Mapping[str, Any]) -> dict[str, Any]:
    specs = {p.name: p for p in cls.params}
    lowered = {p.lower(): p for p in specs}
    out: dict[str, Any] = {}
    for raw_name, value in params.items():
        name = raw_name if raw_name in specs else lowered.get(raw_name.lower(), raw_name)
        spec = specs.get(name)
        if spec is None:
            known = ", ".join(specs) or "none"
            raise InvalidParameterError(
                f"{cls.name} has no parameter {raw_name!r} (its parameters: {known})"
            )
        out[name] = spec.read(value)
    for spec in cls.params:
        if spec.name not in out:
            if spec.required:
                raise InvalidParameterError(
                    f"{cls.name} needs parameter {spec.name} ({spec.doc}), "
                    f"for example {spec.name}=..."
                )
            out[spec.name] = spec.read(spec.default) if spec.default is not None else None
    return out


def parse_game_spec(text: str) -> Ruleset[Any]:
    """Read a one-heap game written as on the command line: ``subtraction:1,2,3``.

    The part after the colon fills the game's single parameter; ``nim`` needs none.

    Examples
    --------
    >>> parse_game_spec("allbut:4,8").label()
    'allbut(S={4,8})'
    """
    if is_file_spec(text):
        return game(text)
    name, _, arg = text.partition(":")
    cls = game_class(name)
    if not _:
        return game(name)
    if len(cls.params) != 1:
        raise InvalidParameterError(
            f"{cls.name} takes {len(cls.params)} parameters; write it as NAME:VALUE only "
            "for games with one parameter"
        )
    return game(name, **{cls.params[0].name: arg})


@dataclass(frozen=True)
class GameInfo:
    """What the registry knows of one game."""

    name: str
    aliases: tuple[str, ...]
    params: tuple[Param, ...]
    summary: str
    theorems: tuple[str, ...]
    cls: type[Ruleset[Any]]


def games() -> list[GameInfo]:
    """All registered games, sorted by name.

    Examples
    --------
    >>> from nimlab import games
    >>> "nim" in [g.name for g in games()]
    True
    """
    _load_plugins_once()
    return [
        GameInfo(c.name, c.aliases, c.params, c.summary, c.theorems, c)
        for _, c in sorted(_CLASSES.items())
    ]
