"""The canonical wavefront kernel of a move model, kept on disk across processes.

:func:`nimlab.engine._levels.solve_levels` (numba's parallel loops) takes the game's
compiled move model ``gen`` as an argument, so numba cannot keep its machine code on disk:
every new process (a CLI run, a Dask worker of a chunked solve, a test) compiled it again,
about 7 s of CPU. As for the solve kernel (:mod:`nimlab.engine._diskcache`), a game whose
move model can be written as source gets a module in the cache directory holding the move
model and a copy of the wavefront's kernels that take ``gen`` (``solve_levels`` and the
functions it calls with ``gen``), with ``gen`` a global of the module, ``cache=True``: the
second process loads the machine code. The module's name hashes its text, the sources of
``_levels`` (its compiled helpers, which numba does not see change) and of the engine.

:func:`solve_levels` runs levels with the cached kernel when the game has one, else (no
source, a cache directory that cannot be used, numba failing to load its files) with the
kernel compiled in memory, as before.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import textwrap
from pathlib import Path
from typing import Any

from nimlab.core.ruleset import Ruleset

__all__: list[str] = []

_PREFIX = "_nimlab_levels_"
#: game -> (module name, its solve_levels dispatcher, the move model's parameters or None)
_LOADED: dict[Ruleset[Any], tuple[str, Any, tuple[Any, ...] | None]] = {}
_FAILED: set[Ruleset[Any]] = set()


def _gen_kernels() -> dict[str, Any]:
    """The compiled functions of ``_levels`` whose first parameter is ``gen``."""
    from nimlab.engine import _levels

    out = {}
    for name, obj in vars(_levels).items():
        py = getattr(obj, "py_func", None)
        if py is not None and py.__module__ == _levels.__name__:
            args = inspect.signature(py).parameters
            if next(iter(args), None) == "gen":
                out[name] = obj
    return out


def _rewrite(name: str, kernel: Any, kernels: dict[str, Any], params: str | None) -> ast.AST:
    """*kernel* without its ``gen`` parameter, calling the module's ``gen`` and the
    module's copies of the other *kernels* (``gen`` dropped from their arguments; with
    *params*, the move model's parameter tuple passed along as a last argument)."""
    from nimlab.engine import _levels

    py = kernel.py_func
    fn = ast.parse(textwrap.dedent(inspect.getsource(py))).body[0]
    assert isinstance(fn, ast.FunctionDef) and fn.args.args[0].arg == "gen"
    fn.decorator_list = []
    fn.args.args = fn.args.args[1:]
    for a in fn.args.args:
        a.annotation = None
    fn.returns = None
    fn.name = _local(name)
    if params is not None:
        fn.args.args.append(ast.arg(params))
    home = vars(_levels)
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            callee = node.func.id
            if callee in kernels:
                first = node.args[0]
                assert isinstance(first, ast.Name) and first.id == "gen"
                node.args = node.args[1:]
            if params is not None and (callee in kernels or callee == "gen"):
                node.args.append(ast.Name(params, ast.Load()))
    own = {a.arg for a in fn.args.args} | {
        n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }  # the function's own variables: never a global of _levels
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id != "gen" and node.id not in own:
            if node.id in kernels:
                node.id = _local(node.id)
            elif node.id in home:
                node.id = _PREFIX + node.id
    return fn


#: The kernel the module's users call, under its own name (the others get a prefix).
_ENTRY = "solve_levels"


def _local(kernel: str) -> str:
    return kernel if kernel == _ENTRY else _PREFIX + "own" + kernel


def _home(name: str) -> str:
    from nimlab.engine import _levels

    return _CACHEABLE[name][0] if name in _usable_cacheable() else _levels.__name__


def _original(name: str) -> str:
    return _CACHEABLE[name][1] if name in _usable_cacheable() else name


#: Globals of ``_levels`` that numba cannot cache, and what the written module calls
#: instead: numba's ``get_num_threads`` calls a ctypes pointer (a "dynamic global": no
#: function using it is cached); its parallel loops use the intrinsic below themselves.
_CACHEABLE = {"get_num_threads": ("numba.np.ufunc.parallel", "_iget_num_threads")}


def _usable_cacheable() -> set[str]:
    import importlib

    out = set()
    for name, (module, attr) in _CACHEABLE.items():
        try:
            if hasattr(importlib.import_module(module), attr):
                out.add(name)
        except ImportError:  # pragma: no cover - another numba: its own function
            pass
    return out


def levels_source(params: str | None = None) -> str:
    """The wavefront's kernels that take ``gen`` as the source appended to a move model's
    module (``solve_levels`` its entry point; with *params*, its last argument)."""
    from nimlab.engine import _levels

    kernels = _gen_kernels()
    home = vars(_levels)
    defs = [_rewrite(n, k, kernels, params) for n, k in sorted(kernels.items())]
    used = sorted(
        {
            node.id[len(_PREFIX) :]
            for fn in defs
            for node in ast.walk(fn)
            if isinstance(node, ast.Name)
            and node.id.startswith(_PREFIX)
            and node.id[len(_PREFIX) :] in home
        }
    )
    digest = hashlib.sha256(Path(str(_levels.__file__)).read_bytes()).hexdigest()[:24]
    lines = [
        "",
        "",
        "# -- appended by nimlab.engine: the canonical wavefront for this move model --",
        f"# {_levels.__name__}: {digest}",
        f"from numba import njit as {_PREFIX}njit",
        *(f"from {_home(n)} import {_original(n)} as {_PREFIX}{n}" for n in used),
    ]
    for (_, kernel), fn in zip(sorted(kernels.items()), defs, strict=True):
        assert isinstance(fn, ast.FunctionDef)
        # only the entry point is cached: the others' code is part of its own (as for
        # the written move models, see _diskcache), never loaded apart into a new caller
        options = ["parallel=True"] if kernel.targetoptions.get("parallel") else []
        options += ["cache=True"] if fn.name == _ENTRY else []
        lines += [
            "",
            "",
            ast.unparse(fn),
            "",
            f"{fn.name} = {_PREFIX}njit({', '.join(options)})({fn.name})",
        ]
    return "\n".join(lines) + "\n"


def cached_levels(game: Ruleset[Any]) -> Any:
    """*game*'s ``solve_levels`` from its module in the cache directory (without the
    ``gen`` argument; a catalog game's parameters passed by the function returned), or
    None when the game gives no source or the cache directory cannot be used.

    Examples
    --------
    >>> import os, tempfile
    >>> from unittest import mock
    >>> import nimlab
    >>> with mock.patch.dict(os.environ, {"NIMLAB_CACHE_DIR": tempfile.mkdtemp()}):
    ...     kernel = cached_levels(nimlab.game("single-delete"))
    >>> callable(kernel)
    True
    """
    hit = _LOADED.get(game)
    if hit is not None:
        if hit[2] is None:
            return hit[1]
        from nimlab.engine._diskcache import with_params

        return with_params(hit[1], hit[2])
    if game in _FAILED:
        return None
    from nimlab.engine import _diskcache

    loaded = _diskcache.model_module(game, levels_source)
    if loaded is None:
        return None
    _LOADED[game] = (loaded[0], loaded[1].solve_levels, loaded[2])
    return cached_levels(game)


def available(game: Ruleset[Any]) -> bool:
    """Whether *game*'s wavefront kernel comes from the cache directory (then nothing of
    its move model needs compiling in memory); never raises."""
    try:
        return cached_levels(game) is not None
    except Exception:  # a move model whose source cannot be written: in memory
        _FAILED.add(game)
        return False


def solve_levels(game: Ruleset[Any], gen: Any, *args: Any) -> int:
    """:func:`nimlab.engine._levels.solve_levels` ``(gen, *args)`` for *game*: its kernel
    loaded from (or compiled into) the cache directory when it has one, else compiled in
    memory. A kernel numba cannot load or compile from its module is forgotten (its files
    deleted) and the level runs in memory, where a move model numba cannot compile raises
    as before."""
    from nimlab.engine import _diskcache, _levels

    if available(game):
        name, kernel, params = _LOADED[game]
        full = args if params is None else (*args, params)
        try:
            _diskcache.compile_locked(name, kernel, full)  # processes at once: one compile
            return int(kernel(*full))
        except Exception:
            hit = _LOADED.pop(game, None)
            _FAILED.add(game)
            if hit is not None:
                _diskcache.discard_module(hit[0])
    return int(_levels.solve_levels(gen, *args))
