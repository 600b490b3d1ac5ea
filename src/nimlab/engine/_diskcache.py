"""Compiled engine kernels of heap games, kept on disk across processes.

numba's own cache (``cache=True``) needs a function defined in a real module file that
the next process can find again. A game whose move model can be written as source
(:meth:`nimlab.core.ruleset.HeapRuleset.compiled_source`: the user's games; the catalog's
move models through :func:`nimlab.catalog._source.generator_source`) gets a module
written to the user's cache directory, named by the hash of its text, the versions of
Python, numba and nimlab and the engine's own source; it defines the engine's solve kernel
for that game with ``cache=True``, so the second process loads machine code instead of
compiling for seconds.

The directory is ``$NIMLAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/nimlab``, else
``~/.cache/nimlab`` (``compiled/`` in it). Anything that goes wrong with it (a directory
that cannot be written, a damaged file) makes the engine compile in memory as before.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nimlab.core.ruleset import Ruleset

__all__ = [
    "cache_dir",
    "cached_module",
    "cached_solve",
    "discard",
    "discard_module",
    "is_cached_module",
    "load_module",
    "model_module",
    "with_params",
]

_PREFIX = "_nimlab_engine_"


def kernel_def(kernel: Any, name: str, params: str | None = None) -> tuple[str, list[str]]:
    """A compiled *kernel* whose first parameter is the move model ``gen``, as the source
    of a function *name* that calls the module's own ``gen`` instead, and the lines that
    import the globals it names from its module, each under a prefixed name (apart from
    the user's).

    numba cannot cache a function that receives another compiled function as an
    argument (its code holds the address of the object), so a cached module gets its own
    copy of the kernel. With *params* (the name of the move model's parameter tuple, a
    module whose parameters are lifted out:
    :func:`nimlab.catalog._source.generator_source`) the function takes that tuple as its
    last argument and passes it to ``gen``.
    """
    import ast
    import inspect
    import textwrap

    py = getattr(kernel, "py_func", kernel)
    home = sys.modules[py.__module__]
    names = sorted(n for n in py.__code__.co_names if n in vars(home) and n != "gen")
    tree = ast.parse(textwrap.dedent(inspect.getsource(py)))
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef) and fn.args.args[0].arg == "gen"
    fn.decorator_list = []
    fn.args.args = fn.args.args[1:]
    for a in fn.args.args:
        a.annotation = None
    fn.returns = None
    fn.name = name
    if params is not None:
        fn.args.args.append(ast.arg(params))
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id in names:
            node.id = _PREFIX + node.id
        elif (
            params is not None
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "gen"
        ):
            node.args.append(ast.Name(params, ast.Load()))
    imports = [f"from {home.__name__} import {n} as {_PREFIX}{n}" for n in names]
    return ast.unparse(tree), imports


def _solve_source(params: str | None = None) -> str:
    """The engine's solve kernel (:func:`nimlab.engine._generic.solve`) as source with
    ``gen`` a global, not an argument (:func:`kernel_def`)."""
    from nimlab.engine import _generic

    text, imports = kernel_def(_generic.solve, "solve", params)
    lines = [
        "",
        "",
        "# -- appended by nimlab.engine: the compiled engine's kernel for this move model --",
        f"from numba import njit as {_PREFIX}njit",
        *imports,
        "",
        "",
        text,
        "",
        f"solve = {_PREFIX}njit(cache=True)(solve)",
    ]
    return "\n".join(lines) + "\n"


_LOADED: dict[Ruleset[Any], tuple[str, Any]] = {}


def cache_dir() -> Path:
    """The directory of compiled user games (created when first written).

    Examples
    --------
    >>> import os
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"NIMLAB_CACHE_DIR": "/tmp/nimlab-doctest-cache"}):
    ...     str(cache_dir())
    '/tmp/nimlab-doctest-cache/compiled'
    """
    from nimlab.core.settings import cache_root

    return cache_root() / "compiled"


def _fingerprint() -> str:
    import numba

    from nimlab import __version__
    from nimlab.engine import _generic, _keyrank

    # the kernel's compiled helpers come from these files: numba does not see them change
    engine = b"".join(Path(str(m.__file__)).read_bytes() for m in (_generic, _keyrank))
    parts = [sys.version, numba.__version__, __version__, hashlib.sha256(engine).hexdigest()]
    return "\n".join(parts)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".py")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)  # atomic: a concurrent process sees the old or the whole file
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _import(name: str, path: Path) -> Any:
    from nimlab.engine import _fastload

    _fastload.install()  # its kernels load without numba's compiler set-up
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py file always has one
        raise ImportError(name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def model_source(game: Ruleset[Any]) -> tuple[str, tuple[Any, ...] | None] | None:
    """Source of a module defining *game*'s move model ``gen`` and its run-time
    parameters, or None.

    The game's own :meth:`~nimlab.core.ruleset.HeapRuleset.compiled_source` (the user's
    games: ``gen(h)``, parameters None), else its compiled move model written out as a
    module with its parameters lifted out (:func:`nimlab.catalog._source.generator_source`:
    the catalog's games, ``gen(h, params)``), so that one module serves every value of
    the parameters.
    """
    source_of = getattr(game, "compiled_source", None)
    text: str | None = source_of() if source_of is not None else None
    if text is not None:
        return text, None
    options = getattr(game, "compiled_options", None)
    gen = options() if options is not None else None
    if gen is None:
        return None
    from nimlab.catalog._source import generator_source

    return generator_source(gen)


def model_module(
    game: Ruleset[Any], kernel_source: Callable[..., str]
) -> tuple[str, Any, tuple[Any, ...] | None] | None:
    """``(name, module, params)``: the module of the cache directory holding *game*'s
    move model followed by ``kernel_source()`` (``kernel_source(PARAMS)`` for a catalog
    game, whose parameters *params* its kernels take as a last argument; else params is
    None). None when the game gives no source, or the cache directory cannot be used."""
    got = model_source(game)
    if got is None:
        return None
    text, params = got
    if params is None:
        text += kernel_source()
    else:
        from nimlab.catalog._source import PARAMS

        text += kernel_source(PARAMS)
    loaded = cached_module(text)
    if loaded is None:
        return None
    return loaded[0], loaded[1], params


def cached_solve(game: Ruleset[Any]) -> Any:
    """The solve kernel of *game* from its module in the cache directory, or None.

    A catalog game's kernel takes its parameters as a last argument: the function
    returned passes them. None when the game gives no source, or the cache directory
    cannot be used.
    """
    hit = _LOADED.get(game)
    if hit is not None:
        return hit[1]
    loaded = model_module(game, _solve_source)
    if loaded is None:
        return None
    name, module, params = loaded
    solve = kernel = module.solve
    if params is not None:
        solve = with_params(kernel, params)
    _LOADED[game] = (name, solve)
    _KERNELS[game] = (name, kernel, params)
    return solve


#: game -> (module name, its solve dispatcher, the parameters it is called with or None)
_KERNELS: dict[Ruleset[Any], tuple[str, Any, tuple[Any, ...] | None]] = {}


def prepare_solve(game: Ruleset[Any], args: tuple[Any, ...]) -> None:
    """Before a first call: compile *game*'s cached solve kernel for the types of *args*
    (:func:`cached_solve`'s arguments), or load it from numba's cache, holding a lock
    file of its module, so that processes needing it at once (pytest's workers, Dask
    workers) compile it once and the others load the machine code. Nothing when there
    is no such kernel (the call then compiles as usual)."""
    hit = _KERNELS.get(game)
    if hit is not None:
        name, kernel, params = hit
        compile_locked(name, kernel, args if params is None else (*args, params))


def compile_locked(name: str, kernel: Any, args: tuple[Any, ...]) -> None:
    """Compile the function *kernel* of the cached module *name* for the types of *args*,
    or load it from numba's cache, holding the lock file ``NAME.lock`` of the cache
    directory (an exclusive ``flock``, released when this process is done or dies).
    Nothing when this process has that specialisation already, or the types or the lock
    cannot be had (the call then compiles as usual)."""
    try:
        import fcntl

        from numba.core.typing.typeof import Purpose, typeof

        type_of: Any = typeof
        sig = tuple(type_of(a, Purpose.argument) for a in args)
    except Exception:  # a value numba types only at the call, or no fcntl here
        return
    if sig in kernel.overloads:
        return
    try:
        fd = os.open(cache_dir() / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        kernel.compile(sig)  # numba looks in its cache first: the machine code of another
    finally:
        os.close(fd)  # releases the lock


def with_params(kernel: Any, params: tuple[Any, ...]) -> Any:
    """*kernel* of a catalog game's cached module, called with *params* as its last
    argument."""

    def run(*args: Any) -> Any:
        return kernel(*args, params)

    return run


def cached_module(text: str) -> tuple[str, Any] | None:
    """``(name, module)``: the module of source *text*, written to the cache directory
    (named by the hash of the text and :func:`_fingerprint`) and imported, or None when
    the directory cannot be used. Its ``cache=True`` functions keep their machine code
    next to it (numba's ``__pycache__``)."""
    digest = hashlib.sha256((_fingerprint() + "\n" + text).encode()).hexdigest()[:32]
    name = f"nimlab_compiled_{digest}"
    path = cache_dir() / f"{name}.py"
    for attempt in range(2):
        try:
            if attempt or not path.is_file() or path.read_text(encoding="utf-8") != text:
                _write(path, text)  # absent or damaged: (re)written
            module = sys.modules.get(name) or _import(name, path)
        except Exception:  # a directory we cannot write, a damaged file: try once more
            _purge(name, path)
            continue
        return name, module
    return None


def is_cached_module(name: str) -> bool:
    """Whether *name* is a module loaded from the cache directory (by this module or by
    the verification's own cached modules, ``nimlab_verify_*``)."""
    module = sys.modules.get(name)
    origin = getattr(module, "__file__", None)
    return (
        name.startswith(("nimlab_compiled_", "nimlab_verify_"))
        and origin is not None
        and Path(origin).parent == cache_dir()
    )


def load_module(name: str) -> Any:
    """The module *name* of the cache directory (imported once per process); raises
    ImportError when it is not there (the caller compiles in memory)."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    path = cache_dir() / f"{name}.py"
    if not path.is_file():
        raise ImportError(f"{name} is not in the cache directory {cache_dir()}")
    return _import(name, path)


def discard_module(name: str) -> None:
    """Forget the module *name* of :func:`cached_module` and delete its files."""
    _purge(name, cache_dir() / f"{name}.py")


def _purge(name: str, path: Path) -> None:
    sys.modules.pop(name, None)
    try:
        path.unlink(missing_ok=True)
        pycache = path.parent / "__pycache__"
        if pycache.is_dir():
            for f in pycache.glob(f"{name}.*"):
                f.unlink(missing_ok=True)
    except OSError:
        pass


def discard(game: Ruleset[Any]) -> None:
    """Forget *game*'s cached kernel and delete its files (numba could not load them)."""
    hit = _LOADED.pop(game, None)
    _KERNELS.pop(game, None)
    if hit is not None:
        _purge(hit[0], cache_dir() / f"{hit[0]}.py")
